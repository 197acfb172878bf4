import assert from 'node:assert/strict';
import { CONFLICT_MARKERS } from '../../../../src/core/merge/merge';
import { planApply, type PlanAction, type PlanEntry } from '../../../../src/model/apply/apply-plan';
import { agentFile, basesOf, bin, bin2, bin3, bytes, fakeFolder, text, type Bytes } from './apply-rig';

const M = CONFLICT_MARKERS;

interface Scenario {
  name: string;
  /** The agent's version; `null`: the agent deleted it. */
  agent: Bytes | null;
  workspace?: Bytes;
  base?: Bytes | { hashOf: Bytes };
  dirty?: boolean;
  path?: string;
  action: PlanAction;
  /** What is written, as text (or bytes for binary). */
  writes?: Bytes;
  stats?: [added: number, removed: number];
  /** A pattern the confirmation must match; absent: no confirmation. */
  confirm?: RegExp;
  reason?: RegExp;
  binary?: boolean;
  conflicts?: number;
}

const A = 'src/a.ts';

const scenarios: Scenario[] = [
  // No workspace file.
  { name: 'a new file', agent: 'x\ny\n', action: 'create', writes: 'x\ny\n', stats: [2, 0] },
  { name: 'a new binary file', agent: bin, action: 'create', writes: bin, stats: [0, 0], binary: true },
  {
    name: 'a file the person deleted after attaching it',
    agent: 'a\nb\n',
    base: 'a\n',
    action: 'create',
    writes: 'a\nb\n',
    confirm: /^Create src\/a\.ts again \(it was deleted in the workspace after the agent saw it\)\.$/,
  },
  // Already the same.
  { name: 'identical', agent: 'a\n', workspace: 'a\n', action: 'skipIdentical', reason: /already the same/ },
  { name: 'identical but for CRLF', agent: 'a\nb\n', workspace: 'a\r\nb\r\n', action: 'skipIdentical' },
  { name: 'identical binary', agent: bin, workspace: bin, action: 'skipIdentical', binary: true },
  {
    name: 'identical but for a byte order mark and CRLF, without base',
    agent: 'a\nb\n',
    workspace: '\uFEFFa\r\nb\r\n',
    action: 'skipIdentical',
  },
  {
    name: 'a trailing newline is a change',
    agent: 'a\n',
    workspace: 'a',
    action: 'askOverwrite',
    writes: 'a\n',
    // Lines are counted by content: a newline added at the end changes none.
    stats: [0, 0],
    confirm: /^Replace src\/a\.ts with the agent's version/,
  },
  {
    name: 'the agent left it as it saw it',
    agent: 'a\n',
    base: 'a\n',
    workspace: 'a\nmine\n',
    action: 'skipIdentical',
    reason: /left it as it saw it/,
  },
  {
    name: 'the agent left it as it saw it (hash only)',
    agent: 'a\n',
    base: { hashOf: 'a\n' },
    workspace: 'a\nmine\n',
    action: 'skipIdentical',
  },
  // No base: ask.
  {
    name: 'no base, the workspace differs',
    agent: 'b\n',
    workspace: 'a\n',
    action: 'askOverwrite',
    writes: 'b\n',
    stats: [1, 1],
    confirm:
      /^Replace src\/a\.ts: 1 saved line not in the agent's version will be lost \(Den does not know what the agent saw of it, so it cannot merge\)\.$/,
  },
  {
    name: 'no base, CRLF workspace: the agent text in CRLF',
    agent: 'a\nc\n',
    workspace: 'a\r\nb\r\n',
    action: 'askOverwrite',
    writes: 'a\r\nc\r\n',
    stats: [1, 1],
    confirm: /Replace/,
  },
  {
    name: 'no base, binary',
    agent: bin2,
    workspace: bin,
    action: 'askOverwrite',
    writes: bin2,
    binary: true,
    confirm: /Replace/,
  },
  {
    name: 'no base, unsaved changes',
    agent: 'b\n',
    workspace: 'a\n',
    dirty: true,
    action: 'askOverwrite',
    confirm: /cannot merge; it has unsaved changes\)\.$/,
  },
  // Only the agent changed it.
  {
    name: 'overwrite',
    agent: 'a\nb\n',
    base: 'a\n',
    workspace: 'a\n',
    action: 'overwrite',
    writes: 'a\nb\n',
  },
  {
    name: 'overwrite keeps CRLF',
    agent: 'a\nb\n',
    base: 'a\n',
    workspace: 'a\r\n',
    action: 'overwrite',
    writes: 'a\r\nb\r\n',
    stats: [1, 0],
  },
  {
    name: 'overwrite keeps a missing trailing newline',
    agent: 'a\nb\nc',
    base: 'a\nb',
    workspace: 'a\nb',
    action: 'overwrite',
    writes: 'a\nb\nc',
    stats: [1, 0],
  },
  {
    name: 'overwrite against a hash-only base',
    agent: 'a\nb\n',
    base: { hashOf: 'a\n' },
    workspace: 'a\n',
    action: 'overwrite',
    writes: 'a\nb\n',
  },
  {
    name: 'overwrite of a binary file',
    agent: bin2,
    base: bin,
    workspace: bin,
    action: 'overwrite',
    writes: bin2,
    binary: true,
  },
  // Both changed.
  {
    name: 'a clean merge',
    agent: 'a\nb\nC\n',
    base: 'a\nb\nc\n',
    workspace: 'A\nb\nc\n',
    action: 'merge',
    writes: 'A\nb\nC\n',
    stats: [1, 1],
    reason: /Merged/,
  },
  {
    name: 'a clean merge into CRLF',
    agent: 'a\nb\nC\n',
    base: 'a\nb\nc\n',
    workspace: 'A\r\nb\r\nc\r\n',
    action: 'merge',
    writes: 'A\r\nb\r\nC\r\n',
  },
  {
    name: 'a clean merge without a trailing newline',
    agent: 'a\nx\nB',
    base: 'a\nx\nb',
    workspace: 'A\nx\nb',
    action: 'merge',
    writes: 'A\nx\nB',
  },
  {
    name: 'a clean merge into unsaved changes',
    agent: 'a\nb\nC\n',
    base: 'a\nb\nc\n',
    workspace: 'A\nb\nc\n',
    dirty: true,
    action: 'merge',
    writes: 'A\nb\nC\n',
  },
  {
    name: 'conflicts',
    agent: 'y\n',
    base: 'x\n',
    workspace: 'w\n',
    action: 'mergeWithConflicts',
    writes: `${M.ours}\nw\n${M.base}\nx\n${M.separator}\ny\n${M.theirs}\n`,
    conflicts: 1,
    confirm: /^Write 1 conflict with conflict markers into src\/a\.ts\.$/,
  },
  {
    name: 'conflicts in unsaved changes',
    agent: 'y\n',
    base: 'x\n',
    workspace: 'w\n',
    dirty: true,
    action: 'mergeWithConflicts',
    conflicts: 1,
    confirm: /into src\/a\.ts \(it has unsaved changes\)\.$/,
  },
  {
    name: 'both changed, the base kept as a hash only',
    agent: 'y\n',
    base: { hashOf: 'x\n' },
    workspace: 'w\n',
    action: 'askOverwrite',
    writes: 'y\n',
    confirm: /kept only the hash/,
  },
  {
    name: 'both changed, the agent made a text file binary',
    agent: bin,
    base: 'a\n',
    workspace: 'b\n',
    action: 'askOverwrite',
    writes: bin,
    binary: true,
    confirm: /not text/,
  },
  {
    name: 'both changed a binary file',
    agent: bin3,
    base: bin,
    workspace: bin2,
    action: 'askOverwrite',
    writes: bin3,
    binary: true,
    confirm: /it is not text, so it cannot be merged/,
  },
  // Deleted by the agent.
  {
    name: 'a deletion',
    agent: null,
    base: 'a\nb\n',
    workspace: 'a\r\nb\r\n',
    action: 'delete',
    stats: [0, 2],
    confirm: /^Delete src\/a\.ts\.$/,
  },
  {
    name: 'a deletion of a file changed since',
    agent: null,
    base: 'a\n',
    workspace: 'a\nmine\n',
    action: 'delete',
    confirm: /^Delete src\/a\.ts \(it changed in the workspace after the agent saw it\)\.$/,
  },
  {
    name: 'a deletion of a file unchanged but for CRLF',
    agent: null,
    base: 'a\n',
    workspace: 'a\r\n',
    action: 'delete',
    stats: [0, 1],
    confirm: /^Delete src\/a\.ts\.$/,
  },
  {
    name: 'a deletion without base',
    agent: null,
    workspace: 'a\n',
    action: 'delete',
    confirm: /\(Den does not know what the agent saw of it\)/,
  },
  {
    name: 'a deletion with unsaved changes',
    agent: null,
    base: 'a\n',
    workspace: 'a\n',
    dirty: true,
    action: 'delete',
    confirm: /^Delete src\/a\.ts \(it has unsaved changes\)\.$/,
  },
  {
    name: 'a deletion, hash-only base, unchanged',
    agent: null,
    base: { hashOf: 'a\n' },
    workspace: 'a\n',
    action: 'delete',
    confirm: /^Delete src\/a\.ts\.$/,
  },
  { name: 'a deletion of a file already gone', agent: null, action: 'skipIdentical', reason: /no such file/ },
  // The sandbox's absolute paths.
  {
    name: 'a sandbox path',
    path: '/workspace/src/a.ts',
    agent: 'a\nb\n',
    base: 'a\n',
    workspace: 'a\n',
    action: 'overwrite',
  },
];

describe('planApply: one file', () => {
  for (const s of scenarios) {
    it(s.name, async () => {
      const folder = fakeFolder({
        files: s.workspace === undefined ? {} : { [A]: s.workspace },
        dirty: s.dirty ? [A] : [],
      });
      const plan = await planApply({
        files: [agentFile(s.path ?? A, s.agent).file],
        folder,
        base: basesOf(s.base === undefined ? {} : { [A]: s.base }),
      });
      assert.equal(plan.entries.length, 1);
      const e: PlanEntry = plan.entries[0];
      assert.equal(e.action, s.action);
      assert.equal(e.relPath, A);
      assert.equal(e.path, s.path ?? A);
      assert.equal(e.dirty, s.dirty === true);
      assert.equal(e.binary, s.binary === true);
      if (s.writes !== undefined) {
        const want = s.writes;
        assert.deepEqual(typeof want === 'string' ? text(e.newContent) : e.newContent, want);
      }
      assert.equal(e.newContent !== undefined, !['delete', 'skipIdentical'].includes(s.action));
      if (s.stats) assert.deepEqual(e.stats, { added: s.stats[0], removed: s.stats[1] });
      if (s.confirm) assert.match(e.confirm ?? '(none)', s.confirm);
      else assert.equal(e.confirm, undefined);
      if (s.reason) assert.match(e.reason ?? '(none)', s.reason);
      assert.equal(e.conflicts?.length, s.conflicts);
      assert.deepEqual(plan.summary.needsConfirmation, e.confirm ? [e.confirm] : []);
    });
  }

  it('counts lines of every write', async () => {
    const counted = (x: Scenario): boolean => !x.stats || x.stats[0] + x.stats[1] > 0;
    for (const s of scenarios.filter((x) => x.action !== 'skipIdentical' && !x.binary && counted(x))) {
      const plan = await planApply({
        files: [agentFile(A, s.agent).file],
        folder: fakeFolder({ files: s.workspace === undefined ? {} : { [A]: s.workspace } }),
        base: basesOf(s.base === undefined ? {} : { [A]: s.base }),
      });
      const e = plan.entries[0];
      assert.ok(e.stats.added + e.stats.removed > 0, s.name);
      assert.deepEqual([plan.summary.added, plan.summary.removed], [e.stats.added, e.stats.removed]);
    }
  });

  it('keeps a byte order mark and the workspace bytes it did not change', async () => {
    const plan = await planApply({
      files: [agentFile(A, 'a\nb\n').file],
      folder: fakeFolder({ files: { [A]: bytes('\uFEFFa\r\n') } }),
      base: basesOf({ [A]: 'a\n' }),
    });
    assert.equal(plan.entries[0].action, 'overwrite');
    assert.equal(text(plan.entries[0].newContent), '\uFEFFa\r\nb\r\n');
  });
});
