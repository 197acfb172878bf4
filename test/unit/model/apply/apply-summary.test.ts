import assert from 'node:assert/strict';
import { planApply } from '../../../../src/model/apply/apply-plan';
import { summaryText } from '../../../../src/model/apply/apply-summary';
import { agentFile, basesOf, bin, bin2, fakeFolder } from './apply-rig';

describe('apply summary', () => {
  it('counts a mixed plan and says it in a few lines', async () => {
    const plan = await planApply({
      files: [
        agentFile('src/new1.ts', 'a\nb\n').file,
        agentFile('src/new2.ts', 'c\n').file,
        agentFile('src/clean.ts', 'a\nb\nc\n').file,
        agentFile('src/merge.ts', 'a\nb\nC\n').file,
        agentFile('src/conflict.ts', 'y\n').file,
        agentFile('src/same.ts', 's\n').file,
        agentFile('src/old.ts', null).file,
        agentFile('logo.png', bin2).file,
        agentFile('../escape', 'x\n').file,
      ],
      folder: fakeFolder({
        files: {
          'src/clean.ts': 'a\n',
          'src/merge.ts': 'A\nb\nc\n',
          'src/conflict.ts': 'w\n',
          'src/same.ts': 's\n',
          'src/old.ts': 'o\np\n',
          'logo.png': bin,
        },
        dirty: ['src/merge.ts', 'src/old.ts'],
      }),
      base: basesOf({
        'src/clean.ts': 'a\n',
        'src/merge.ts': 'a\nb\nc\n',
        'src/conflict.ts': 'x\n',
        'src/old.ts': 'o\np\n',
      }),
    });
    assert.deepEqual(
      plan.entries.map((e) => e.action),
      [
        'create',
        'create',
        'overwrite',
        'merge',
        'mergeWithConflicts',
        'skipIdentical',
        'delete',
        'askOverwrite',
        'refused',
      ],
    );
    const { needsConfirmation, ...counts } = plan.summary;
    assert.deepEqual(counts, {
      newFiles: 2,
      changed: 4,
      deleted: 1,
      identical: 1,
      conflicts: 1,
      conflictFiles: ['src/conflict.ts'],
      refused: 1,
      failed: 0,
      dirty: 2,
      runsCode: [],
      // new 2 + 1, overwrite 2, merge 1/1, conflict markers and lines 6, deletion 2, binary 0
      added: 12,
      removed: 3,
    });
    assert.equal(
      summaryText(plan),
      [
        '2 new, 4 changed, 1 deletion (+12 −3 lines).',
        '1 conflict in src/conflict.ts (line 1).',
        '1 file needs no change.',
        '2 files have unsaved changes: the edit goes into the editor, unsaved.',
        'Not applied: 1 refused.',
        'Refused the path "../escape": it goes up out of the folder ("..").',
        'Needs your confirmation:',
        'Write 1 conflict with conflict markers into src/conflict.ts.',
        'Delete src/old.ts (it has unsaved changes).',
        "Replace logo.png: its content will be lost, the agent's version replaces it (Den does not know what the agent saw of it, so it cannot merge).",
      ].join('\n'),
    );
    assert.equal(needsConfirmation.length, 3);
  });

  it('names the workspace lines of each conflict, as editors count them', async () => {
    const base = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', ''].join('\n');
    const mine = ['a', 'B1', 'B2', 'c', 'd', 'e', 'f', 'G', 'h', ''].join('\n');
    const agent = ['a', 'b-agent', 'c', 'd', 'e', 'f', 'g-agent', 'h', ''].join('\n');
    const plan = await planApply({
      files: [agentFile('src/m.ts', agent).file],
      folder: fakeFolder({ files: { 'src/m.ts': mine } }),
      base: basesOf({ 'src/m.ts': base }),
    });
    assert.equal(summaryText(plan).split('\n')[1], '2 conflicts in src/m.ts (lines 2–3 and 8).');
  });

  it('says when there is nothing to do', async () => {
    const none = await planApply({ files: [], folder: fakeFolder(), base: basesOf({}) });
    assert.equal(summaryText(none), 'No files to apply.');
    const same = await planApply({
      files: [agentFile('a', 'x\n').file, agentFile('b', 'y\n').file],
      folder: fakeFolder({ files: { a: 'x\n', b: 'y\r\n' } }),
      base: basesOf({}),
    });
    assert.equal(summaryText(same), 'Nothing to apply.\n2 files need no change.');
  });

  it('lists a few conflicts, refusals and questions, then how many more', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const plan = await planApply({
      files: [
        ...names.map((n) => agentFile(n, 'y\n').file),
        ...names.map((n) => agentFile(`../${n}`, 'y\n').file),
      ],
      folder: fakeFolder({ files: Object.fromEntries(names.map((n) => [n, 'w\n'])) }),
      base: basesOf(Object.fromEntries(names.map((n) => [n, 'x\n']))),
      maxFiles: 14,
    });
    const lines = summaryText(plan).split('\n');
    assert.equal(lines[0], '7 changed (+42 −0 lines).');
    assert.equal(lines[1], '7 conflicts in a (line 1), b (line 1), c (line 1), d (line 1) and 3 more files.');
    assert.deepEqual(lines.slice(2, 8), [
      'Not applied: 7 refused.',
      'Refused the path "../a": it goes up out of the folder ("..").',
      'Refused the path "../b": it goes up out of the folder ("..").',
      'Refused the path "../c": it goes up out of the folder ("..").',
      'Refused the path "../d": it goes up out of the folder ("..").',
      '… and 3 more: Show All Refused lists every one.',
    ]);
    assert.equal(lines[8], 'Needs your confirmation:');
    assert.equal(lines[13], '… and 3 more.');
    assert.equal(lines.length, 14);
  });

  it('says how many files were left out', async () => {
    const plan = await planApply({
      files: ['a', 'b', 'c'].map((n) => agentFile(n, 'x\n').file),
      folder: fakeFolder(),
      base: basesOf({}),
      maxFiles: 1,
    });
    assert.equal(
      summaryText(plan),
      '1 new (+1 −0 lines).\n2 more files left out: Den applies at most 1 file at once.',
    );
  });
});
