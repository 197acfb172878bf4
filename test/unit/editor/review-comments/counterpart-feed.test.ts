/**
 * What teaches the counterparts' index besides the hosts' snapshots: the Sessions list (this
 * workspace's sessions and those already known) and the transcripts of open panels, learned once
 * and then only as their files change.
 */
import assert from 'node:assert/strict';
import type { FileInfo, Session } from '../../../../src/core/client/types';
import type { FileChange, Turn } from '../../../../src/core/transcript/model';
import { Emitter } from '../../../../src/core/shared/emitter';
import { CounterpartFeed } from '../../../../src/editor/review-comments/counterpart-feed';
import { Counterparts } from '../../../../src/model/review/counterparts';
import { memoryStorage } from '../../model/shared/memory-storage';
import type { SessionsChange } from '../../../../src/model/sessions-list/sessions-model';

const file = (name: string): FileInfo => ({ key: name, name, size: 1 });
const session = (sessionId: string, updatedAt: number, paths: string[]): Session =>
  ({
    id: sessionId,
    sessionId,
    title: `Title ${sessionId}`,
    updatedAt,
    fileSnapshot: Object.fromEntries(paths.map((p) => [p, file(p)])),
  }) as unknown as Session;
const change = (path: string, kind: FileChange['change'] = 'added'): FileChange => ({
  path,
  change: kind,
  key: path,
  name: path,
});
const turn = (files: FileChange[]): Turn => ({ files }) as unknown as Turn;

function setup() {
  const counterparts = new Counterparts(memoryStorage(), {
    clock: { setTimeout: () => 0, clearTimeout() {} },
  });
  const list = new Emitter<SessionsChange>();
  const transcripts = new Emitter<string>();
  const shown = new Emitter<string>();
  const listed = new Map<string, Session>();
  const local = new Set<string>();
  const threads = new Set<string>();
  const turns = new Map<string, Turn[]>();
  let labels = 0;
  let asked = 0;
  const feed = new CounterpartFeed({
    counterparts,
    threadSessions: () => threads,
    refreshLabels: () => labels++,
    listed: () => [...listed.values()],
    listedSession: (id) => listed.get(id),
    onDidChangeList: list.event,
    isLocal: (id) => local.has(id),
    turnsOf: (id) => {
      asked++;
      return turns.get(id);
    },
    onDidChangeTranscript: transcripts.event,
    onDidShowPanel: shown.event,
  });
  return {
    counterparts,
    feed,
    list,
    transcripts,
    shown,
    listed,
    local,
    threads,
    turns,
    labels: () => labels,
    asked: () => asked,
  };
}

describe('CounterpartFeed (what teaches the workspace files that take comments)', () => {
  it('learns the listed sessions of this workspace and those already known, not every listed one', () => {
    const f = setup();
    f.listed.set('here', session('here', 10, ['src/a.ts']));
    f.listed.set('elsewhere', session('elsewhere', 20, ['src/b.ts']));
    f.listed.set('commented', session('commented', 5, ['src/c.ts']));
    f.local.add('here');
    f.threads.add('commented');
    f.list.fire({ kind: 'settled' });
    assert.equal(f.counterparts.at('src/a.ts')?.sessionId, 'here');
    assert.equal(f.counterparts.at('src/b.ts'), undefined, 'a session of another workspace was learned');
    assert.equal(f.counterparts.at('src/c.ts')?.sessionId, 'commented');
    assert.equal(f.counterparts.titleOf('here'), 'Title here');
    assert.equal(f.labels(), 1);
    // One session changed: that one is learned.
    f.listed.set('here', session('here', 11, ['src/a.ts', 'src/d.ts']));
    f.list.fire({ kind: 'session', sessionId: 'here' });
    assert.equal(f.counterparts.at('src/d.ts')?.sessionId, 'here');
  });

  it('learns an open panel’s transcript once, then only the turns whose files changed', () => {
    const f = setup();
    f.turns.set('p', [turn([change('src/a.ts')]), turn([change('src/b.ts')])]);
    f.shown.fire('p');
    assert.equal(f.counterparts.at('src/a.ts')?.sessionId, 'p');
    assert.equal(f.counterparts.at('src/b.ts')?.sessionId, 'p');

    // Streaming text (same turns, same files): nothing learned; a deleted file leaves.
    f.counterparts.remove('p', ['src/a.ts']);
    f.transcripts.fire('p');
    assert.equal(f.counterparts.at('src/a.ts'), undefined, 'the whole transcript was learned again');
    f.turns.get('p')!.push(turn([change('src/b.ts', 'deleted'), change('src/e.ts')]));
    f.transcripts.fire('p');
    assert.equal(f.counterparts.at('src/b.ts'), undefined);
    assert.equal(f.counterparts.at('src/e.ts')?.sessionId, 'p');
    // A path deleted, then written again in a later turn, stands.
    f.turns.get('p')!.push(turn([change('src/b.ts')]));
    f.transcripts.fire('p');
    assert.equal(f.counterparts.at('src/b.ts')?.sessionId, 'p');
  });

  it('stops listening when disposed', () => {
    const f = setup();
    f.feed.dispose();
    f.turns.set('p', [turn([change('src/a.ts')])]);
    f.shown.fire('p');
    f.transcripts.fire('p');
    assert.equal(f.asked(), 0);
    assert.equal(f.counterparts.at('src/a.ts'), undefined);
  });
});
