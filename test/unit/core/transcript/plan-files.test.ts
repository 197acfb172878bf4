import assert from 'node:assert/strict';
import type { FileChange, Transcript } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn } from '../../../../src/core/transcript/reducer';
import { eventFactory } from '../../../support/events';
import { AGENT, liveTranscript } from './helpers';

function planOf(...patches: unknown[][]) {
  const t = liveTranscript();
  const e = eventFactory();
  const changed = patches.map(
    (todos) => applyEvent(t, AGENT, e('plan.update', { patch: { todos } }, 'plan:root')).planChanged,
  );
  return { plan: t.turns[0].plan, changed };
}

const snap = (files: Record<string, number>, deleted: string[] = []) => ({
  sandbox_id: 'sbx_1',
  snapshot: Object.fromEntries(
    Object.entries(files).map(([p, at]) => [p, { key: `s/${p}`, name: p.split('/').pop(), updatedAt: at }]),
  ),
  deleted,
});

function filesAfter(
  t: Transcript,
  agentId: string,
  ...payloads: unknown[]
): { files: FileChange[]; changed: boolean[] } {
  const e = eventFactory();
  const changed = payloads.map((p) => applyEvent(t, agentId, e('sandbox.snapshot', p)).filesChanged);
  const turn = t.turns.find((x) => x.agentMessageId === agentId);
  return { files: turn?.files ?? [], changed };
}

describe('transcript reducer: plan patches', () => {
  it('merges todos by id, keeps first-seen order and applies statuses', () => {
    const { plan, changed } = planOf(
      [
        { id: 'a', content: 'Read', status: 'pending' },
        { id: 'b', content: 'Write', status: 'pending' },
      ],
      [{ id: 'b', status: 'active' }],
      [
        { id: 'c', content: 'Test', status: 'pending' },
        { id: 'a', status: 'completed' },
      ],
    );
    assert.deepEqual(plan?.todos, [
      { id: 'a', content: 'Read', status: 'completed' },
      { id: 'b', content: 'Write', status: 'active' },
      { id: 'c', content: 'Test', status: 'pending' },
    ]);
    assert.deepEqual(changed, [true, true, true]);
  });

  it('reports no change for a patch that repeats the plan', () => {
    const todos = [{ id: 'a', content: 'Read', status: 'active' }];
    assert.deepEqual(planOf(todos, todos).changed, [true, false]);
  });

  it('reads common status spellings and keeps the old status for unknown ones', () => {
    const { plan } = planOf(
      [
        { id: 'a', content: 'A', status: 'in_progress' },
        { id: 'b', content: 'B', status: 'done' },
      ],
      [{ id: 'a', status: 'exploded' }],
    );
    assert.deepEqual(
      plan?.todos.map((t) => t.status),
      ['active', 'completed'],
    );
  });

  it('keys a todo without an id by its content and skips non-objects', () => {
    const { plan } = planOf(
      [null, 3, { content: 'Write summary', status: 'pending' }],
      [{ content: 'Write summary', status: 'completed' }],
    );
    assert.deepEqual(plan?.todos, [{ id: 'Write summary', content: 'Write summary', status: 'completed' }]);
  });
});

describe('transcript reducer: sandbox snapshots', () => {
  it('lists new paths as added and later changes of them stay added', () => {
    const { files, changed } = filesAfter(
      liveTranscript(),
      AGENT,
      snap({ 'src/a.ts': 1 }),
      snap({ 'src/a.ts': 2, 'b.md': 2 }),
    );
    assert.deepEqual(files, [
      { path: 'src/a.ts', change: 'added', key: 's/src/a.ts', name: 'a.ts', updatedAt: 2 },
      { path: 'b.md', change: 'added', key: 's/b.md', name: 'b.md', updatedAt: 2 },
    ]);
    assert.deepEqual(changed, [true, true]);
  });

  it('reports an unchanged entry of a repeated snapshot as no change', () => {
    const { changed } = filesAfter(liveTranscript(), AGENT, snap({ 'a.ts': 1 }), snap({ 'a.ts': 1 }));
    assert.deepEqual(changed, [true, false]);
  });

  it('drops a file added and deleted within the turn', () => {
    const { files } = filesAfter(
      liveTranscript(),
      AGENT,
      snap({ 'tmp.txt': 1, 'keep.txt': 1 }),
      snap({}, ['tmp.txt']),
    );
    assert.deepEqual(
      files.map((f) => f.path),
      ['keep.txt'],
    );
  });

  it('marks files known from earlier turns as updated or deleted', () => {
    const t = liveTranscript();
    filesAfter(t, AGENT, snap({ 'a.ts': 1, 'b.ts': 1, 'c.ts': 1 }));
    beginTurn(t, { agentMessageId: 'agent-2', text: 'next', createdAt: 2 });
    const { files } = filesAfter(
      t,
      'agent-2',
      snap({ 'a.ts': 5, 'b.ts': 1, 'd.ts': 5 }, ['c.ts', 'never-seen.txt']),
    );
    assert.deepEqual(files, [
      { path: 'a.ts', change: 'updated', key: 's/a.ts', name: 'a.ts', updatedAt: 5 },
      { path: 'd.ts', change: 'added', key: 's/d.ts', name: 'd.ts', updatedAt: 5 },
      { path: 'c.ts', change: 'deleted', key: 's/c.ts', name: 'c.ts', updatedAt: 1 },
      { path: 'never-seen.txt', change: 'deleted', key: 'never-seen.txt', name: 'never-seen.txt' },
    ]);
    // The earlier turn's own list is untouched.
    assert.deepEqual(
      t.turns[0].files.map((f) => f.change),
      ['added', 'added', 'added'],
    );
  });

  it('turns a deleted file that comes back into an update', () => {
    const t = liveTranscript();
    filesAfter(t, AGENT, snap({ 'a.ts': 1 }));
    beginTurn(t, { agentMessageId: 'agent-2', text: 'next', createdAt: 2 });
    const { files } = filesAfter(t, 'agent-2', snap({}, ['a.ts']), snap({ 'a.ts': 9 }));
    assert.deepEqual(files, [{ path: 'a.ts', change: 'updated', key: 's/a.ts', name: 'a.ts', updatedAt: 9 }]);
  });

  it('tolerates garbage entries: keys and names fall back to the path', () => {
    const { files, changed } = filesAfter(liveTranscript(), AGENT, {
      snapshot: { 'logs/out.txt': 'garbage', 'notes.md': { key: 7, name: null, updatedAt: 'yesterday' } },
      deleted: [1, null],
    });
    assert.deepEqual(files, [
      { path: 'logs/out.txt', change: 'added', key: 'logs/out.txt', name: 'out.txt' },
      { path: 'notes.md', change: 'added', key: 'notes.md', name: 'notes.md' },
    ]);
    assert.deepEqual(changed, [true]);
  });
});
