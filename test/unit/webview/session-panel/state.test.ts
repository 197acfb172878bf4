import assert from 'node:assert/strict';
import type { Block, Transcript } from '../../../../src/core/transcript/model';
import type {
  HostMessage,
  TurnHeader,
  WebviewMessage,
} from '../../../../src/protocol/session-panel/messages';
import { blockKey, Store } from '../../../../src/webview/session-panel/state';
import { liveTranscript } from '../../core/transcript/helpers';
import { AGENT, composer, header, initMessage, loadFixture, scenario } from './helpers';

function makeStore(now = () => 0, maxLogChars?: number): { store: Store; posted: WebviewMessage[] } {
  const posted: WebviewMessage[] = [];
  const store = new Store({ post: (m) => posted.push(m), now: () => now(), maxLogChars });
  return { store, posted };
}

/** What the digest must say of a transcript folded by the reducer itself. */
function expectedTurns(t: Transcript) {
  const text = (b: Block): string =>
    b.type === 'tool' ? b.log.segments.map((s) => s.data).join('') : 'text' in b ? b.text : '';
  return t.turns.map((turn) => ({
    id: turn.agentMessageId,
    status: turn.status,
    blocks: turn.blocks.map((b) => ({ id: b.id, type: b.type, text: text(b) })),
    todos: turn.plan?.todos.length ?? 0,
    files: turn.files.length,
  }));
}

function batch(seq: number, deltas: Extract<HostMessage, { type: 'batch' }>['deltas'] = []): HostMessage {
  return { type: 'batch', seq, deltas };
}

describe('webview store', () => {
  for (const fixture of [
    'coding-turn.jsonl',
    'plan-turn.jsonl',
    'error-turn.jsonl',
    'aborted-turn.jsonl',
    'garbage-turn.jsonl',
  ]) {
    for (const perBatch of [1, 7]) {
      it(`ends with the reducer's view of ${fixture} fed ${perBatch} event(s) per batch`, () => {
        const s = scenario(loadFixture(fixture), perBatch);
        const { store, posted } = makeStore();
        assert.equal(store.receive(s.init), 'applied');
        for (const b of s.batches) assert.equal(store.receive(b), 'applied');
        const d = store.digest(3, 'draft');
        assert.deepEqual(d.turns, expectedTurns(s.transcript));
        assert.equal(d.lastSeq, s.batches[s.batches.length - 1].seq);
        assert.equal(d.renderedBlocks, 3);
        assert.equal(d.composerText, 'draft');
        assert.deepEqual(d.contextUsage, s.transcript.turns[0].contextUsage, 'what the header meter shows');
        assert.deepEqual(posted, []);
      });
    }
  }

  it('takes a whole transcript from init alone', () => {
    const s = scenario(loadFixture('plan-turn.jsonl'));
    const { store } = makeStore();
    store.receive(initMessage(s.transcript, 40));
    assert.deepEqual(store.digest(0, '').turns, expectedTurns(s.transcript));
    assert.equal(store.lastSeq, 40);
    assert.equal(store.takeChanges().reset, true);
  });

  it('keeps the listed blocks in the listed order on a blockOrder delta, the same objects, dropping the rest', () => {
    const s = scenario(loadFixture('coding-turn.jsonl'));
    const { store } = makeStore();
    store.receive(s.init);
    for (const b of s.batches) store.receive(b);
    store.takeChanges();
    const before = store.turn(AGENT)!.blocks;
    const ids = before.map((b) => b.id);
    const order = [ids[3], ids[0], ...ids.slice(5)];
    const kept = store.block(AGENT, ids[3]);
    assert.equal(
      store.receive(
        batch(store.lastSeq! + 1, [{ type: 'blockOrder', turnId: AGENT, blockIds: [...order, 'nope'] }]),
      ),
      'applied',
    );
    assert.deepEqual(
      store.turn(AGENT)!.blocks.map((b) => b.id),
      order,
    );
    assert.equal(store.block(AGENT, ids[3]), kept);
    assert.equal(store.block(AGENT, ids[1]), undefined);
    const c = store.takeChanges();
    assert.equal(c.structure, true);
    assert.equal(c.blocks.size, 0, 'no block is re-rendered');
  });

  it('ignores everything until the first init', () => {
    const { store, posted } = makeStore();
    assert.equal(store.receive(batch(1, [{ type: 'title', title: 'x' }])), 'waiting');
    assert.equal(store.session, undefined);
    assert.deepEqual(posted, []);
  });

  it('ignores duplicates (seq at or below the last applied)', () => {
    const { store } = makeStore();
    store.receive(initMessage(liveTranscript(), 5));
    assert.equal(store.receive(batch(6, [{ type: 'title', title: 'A' }])), 'applied');
    assert.equal(store.receive(batch(6, [{ type: 'title', title: 'B' }])), 'duplicate');
    assert.equal(store.receive(batch(3)), 'duplicate');
    assert.equal(store.session?.title, 'A');
  });

  it('asks for a fresh init on a gap and applies nothing until it comes', () => {
    let now = 1000;
    const { store, posted } = makeStore(() => now);
    store.receive(initMessage(liveTranscript(), 1));
    store.receive(batch(2, [{ type: 'title', title: 'two' }]));
    assert.equal(store.receive(batch(4, [{ type: 'title', title: 'four' }])), 'gap');
    assert.deepEqual(posted, [{ type: 'ready', lastSeq: 2 }]);
    assert.equal(store.receive(batch(5, [{ type: 'title', title: 'five' }])), 'waiting');
    assert.equal(store.session?.title, 'two');
    assert.equal(posted.length, 1, 'asked once');
    now += 2500;
    assert.equal(store.receive(batch(6)), 'waiting');
    assert.deepEqual(posted[1], { type: 'ready', lastSeq: 2 }, 'asked again after a while');
    const fresh = liveTranscript();
    fresh.title = 'fresh';
    assert.equal(
      store.receive(initMessage(fresh, 9, { session: { sessionId: 's', title: 'fresh', service: '' } })),
      'applied',
    );
    assert.equal(store.session?.title, 'fresh');
    assert.equal(store.receive(batch(10, [{ type: 'title', title: 'ten' }])), 'applied');
    assert.equal(store.session?.title, 'ten');
  });

  it('reports what changed since the view last looked', () => {
    const s = scenario(loadFixture('coding-turn.jsonl'), 100);
    const { store } = makeStore();
    store.receive(s.init);
    store.takeChanges();
    store.receive(s.batches[0]);
    const c = store.takeChanges();
    assert.equal(c.reset, false);
    assert.equal(c.structure, true);
    assert.ok(c.turns.has(AGENT));
    assert.ok(c.statuses.includes(AGENT));
    assert.equal(store.turn(AGENT)?.header.status, 'completed');
    const answer = blockKey(AGENT, 'answer:main');
    assert.ok(c.blocks.has(answer) || c.appended.has(answer));
    assert.ok(c.spoken.join('').length > 0, 'answer text for the live region');
    assert.ok(c.logAppends.some((a) => a.stream === 'stderr'));
    assert.equal(c.files.has(AGENT), true);
    assert.equal(store.takeChanges().structure, false, 'taken once');
  });

  it('caps tool logs exactly like the reducer', () => {
    const events = loadFixture('coding-turn.jsonl');
    // The host's transcript and the store use the same cap: appends are capped on both sides.
    const s = scenario(events, 1, { maxLogChars: 60 });
    const { store } = makeStore(undefined, 60);
    store.receive(s.init);
    for (const b of s.batches) store.receive(b);
    const reduced = s.transcript.turns[0].blocks.find((b) => b.id === 'tool:run_command:1');
    const tool = store.block(AGENT, 'tool:run_command:1');
    assert.ok(tool?.type === 'tool' && reduced?.type === 'tool');
    assert.ok(tool.log.truncatedChars > 0);
    assert.deepEqual(tool.log, reduced.log);
  });

  it('keeps a whole log sent after "Show all" and appends to it', () => {
    const { store } = makeStore();
    const t = liveTranscript();
    store.receive(initMessage(t, 1));
    const log = { segments: [{ stream: 'stdout' as const, data: 'tail' }], chars: 4, truncatedChars: 10 };
    store.receive(
      batch(2, [
        {
          type: 'block',
          turnId: AGENT,
          block: { type: 'tool', id: 'tool:x:1', name: 'x', parameters: {}, log, status: 'running' },
        },
      ]),
    );
    store.receive({ type: 'fullLog', seq: 3, turnId: AGENT, blockId: 'tool:x:1', text: '0123456789tail' });
    store.receive(
      batch(4, [{ type: 'append', turnId: AGENT, blockId: 'tool:x:1', text: '!', stream: 'stderr' }]),
    );
    assert.deepEqual(store.fullLogs.get(blockKey(AGENT, 'tool:x:1')), {
      text: '0123456789tail!',
      droppedChars: 0,
    });
    assert.equal(store.digest(0, '').turns[0].blocks[0].text, 'tail!');
  });

  it('gives a turn sent before its answer existed the id the host names later', () => {
    const { store } = makeStore();
    store.receive(initMessage(liveTranscript(), 1));
    const pending: TurnHeader = {
      id: '',
      userMessage: { id: 'u-2', text: 'Next question', files: [], createdAt: 5 },
      status: 'queued',
      hasContinuation: false,
      createdAt: 5,
    };
    store.receive(batch(2, [{ type: 'turn', turn: pending }]));
    assert.equal(store.turns.length, 2);
    store.receive(batch(3, [{ type: 'turn', turn: { ...pending, id: 'agent-0002', status: 'running' } }]));
    assert.deepEqual(
      store.turns.map((t) => t.header.id),
      [AGENT, 'agent-0002'],
    );
    assert.equal(store.turn('')?.header.id, undefined);
  });

  it('ignores deltas for turns and blocks it does not know', () => {
    const { store } = makeStore();
    store.receive(initMessage(liveTranscript(), 1));
    const r = store.receive(
      batch(2, [
        { type: 'append', turnId: 'nope', blockId: 'x', text: 'a' },
        { type: 'append', turnId: AGENT, blockId: 'missing', text: 'a' },
        { type: 'plan', turnId: 'nope', plan: { todos: [] } },
        { type: 'files', turnId: 'nope', files: [] },
        { type: 'block', turnId: 'nope', block: { type: 'text', id: 't', text: 'x' } },
      ]),
    );
    assert.equal(r, 'applied');
    assert.equal(store.turns[0].blocks.length, 0);
  });

  it('offers to continue the last turn once it ended: completed, stopped or failed, with or without continuation data', () => {
    const { store } = makeStore();
    const t = liveTranscript();
    store.receive(initMessage(t, 1));
    assert.equal(store.continuable(), undefined, 'a running turn cannot be continued');
    let seq = 1;
    for (const [status, hasContinuation] of [
      ['completed', true],
      ['completed', false],
      ['aborted', false],
      ['error', false],
    ] as const) {
      store.receive(
        batch(++seq, [{ type: 'turn', turn: { ...header(t.turns[0]), status, hasContinuation } }]),
      );
      assert.equal(store.continuable()?.header.id, AGENT, `${status} ${hasContinuation}`);
    }
    store.receive(batch(++seq, [{ type: 'turn', turn: { ...header(t.turns[0]), status: 'queued' } }]));
    assert.equal(store.continuable(), undefined, 'a queued turn cannot be continued');
    store.receive(batch(++seq, [{ type: 'composer', composer: composer({ queued: 2 }) }]));
    assert.equal(store.composer?.queued, 2);
  });

  it('keeps the files’ states from init and replaces them with a fileStatus delta, redrawing the turns with files', () => {
    const { store } = makeStore();
    const s = scenario(loadFixture('coding-turn.jsonl'), 50);
    const path = s.transcript.turns[0].files[0].path;
    const modified = { path, state: 'modified' as const, added: 2, removed: 1 };
    store.receive({ ...s.init, fileStatus: [modified] });
    for (const b of s.batches) store.receive(b);
    assert.deepEqual(store.fileStatusOf(path), modified);
    assert.deepEqual(store.fileStatusOf(`/${path}`), modified, 'a leading slash aside');
    store.takeChanges();
    const seq = s.batches[s.batches.length - 1].seq + 1;
    store.receive(batch(seq, [{ type: 'fileStatus', files: [] }]));
    assert.equal(store.fileStatusOf(path), undefined);
    assert.equal(store.takeChanges().files.has(AGENT), true);
  });
});
