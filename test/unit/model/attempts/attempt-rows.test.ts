import assert from 'node:assert/strict';
import type { FileStatus } from '../../../../src/model/session-files/file-status';
import {
  answerHead,
  attemptRows,
  attemptStateOf,
  formatDuration,
  rowDescription,
  rowLabel,
} from '../../../../src/model/attempts/attempt-rows';
import type { AttemptGroup } from '../../../../src/model/attempts/attempt-store';

const group: AttemptGroup = {
  id: 'g',
  task: 'Write a varied parser',
  mode: 'code',
  effort: 'fast',
  createdAt: 1_000,
  attempts: [
    { sessionId: 'a', state: 'completed', endedAt: 13_000, answer: 'Variant A' },
    { sessionId: 'b', state: 'running' },
    { sessionId: 'c', state: 'failed', answer: 'The service is busy' },
  ],
  chosen: 'b',
};

const statuses: Record<string, Map<string, FileStatus>> = {
  a: new Map<string, FileStatus>([
    ['src/z.ts', { state: 'new', added: 10, removed: 0 }],
    ['src/a.ts', { state: 'conflicts', added: 2, removed: 1, conflicts: 2 }],
  ]),
  b: new Map(),
};

describe('attempt rows (the comparison of a task’s attempts)', () => {
  const rows = attemptRows(group, (id) => statuses[id], 61_000);

  it('puts the chosen attempt first, then the others in the order started', () => {
    assert.deepEqual(
      rows.map((r) => [r.sessionId, r.number, r.chosen]),
      [
        ['b', 2, true],
        ['a', 1, false],
        ['c', 3, false],
      ],
    );
  });

  it('sums files, lines and conflicts, with files sorted by path; unknown files stay unknown', () => {
    const a = rows.find((r) => r.sessionId === 'a')!;
    assert.deepEqual(
      a.files?.map((f) => f.path),
      ['src/a.ts', 'src/z.ts'],
    );
    assert.deepEqual([a.added, a.removed, a.conflicts, a.conflictedFiles], [12, 1, 2, 1]);
    assert.equal(rows.find((r) => r.sessionId === 'c')!.files, undefined);
  });

  it('measures from the group’s start to the end, or to now while running', () => {
    assert.equal(rows.find((r) => r.sessionId === 'a')!.durationMs, 12_000);
    assert.equal(rows.find((r) => r.sessionId === 'b')!.durationMs, 60_000);
    assert.equal(rows.find((r) => r.sessionId === 'c')!.durationMs, 0);
  });

  it('says a row in words', () => {
    const a = rows.find((r) => r.sessionId === 'a')!;
    assert.equal(rowDescription(a), 'completed · 12 s · 2 files +12 \u22121 · 2 conflicts');
    assert.equal(rowDescription(rows[0]), 'running · 1 min 0 s · no files');
    assert.equal(rowLabel(rows[0]), 'Attempt 2 of 3 (chosen)');
    assert.equal(rowLabel(a), 'Attempt 1 of 3');
    assert.equal(formatDuration(3_725_000), '1 h 2 min');
  });

  it('reads a turn’s state and the answer’s first lines (else its error)', () => {
    assert.equal(attemptStateOf({ status: 'running', needsInput: 'Approve?' }), 'needsInput');
    assert.equal(attemptStateOf({ status: 'completed' }), 'completed');
    const blocks = [
      { type: 'thought' as const, id: 't', text: 'hmm', final: true },
      {
        type: 'markdown' as const,
        id: 'm',
        text: 'Variant B.\n\n\nI implemented it.\n- one\n- two',
        final: true,
      },
    ];
    assert.equal(answerHead({ blocks }), 'Variant B.\nI implemented it.\n- one');
    assert.equal(answerHead({ blocks: [], error: { message: 'boom' } }), 'boom');
  });
});
