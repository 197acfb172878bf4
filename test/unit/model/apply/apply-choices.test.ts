/**
 * Apply without a base (issue 22, point 3): replacing a workspace file that Den cannot merge says
 * how many of the person's lines are lost, and the modal's default (first) button writes nothing.
 */
import assert from 'node:assert/strict';
import { applyChoices, replacesWithoutMerge } from '../../../../src/model/apply/apply-choices';
import { planApply, writesOf } from '../../../../src/model/apply/apply-plan';
import { agentFile, basesOf, bin, bin2, fakeFolder, type Bytes } from './apply-rig';

/** `n` numbered lines, each ending with a newline. */
const lines = (n: number, tag: string): string =>
  Array.from({ length: n }, (_, i) => `${tag} ${i + 1}\n`).join('');

async function plan(
  files: Record<string, { agent: Bytes; workspace?: Bytes; base?: Bytes }>,
  dirty: string[] = [],
) {
  const bases: Record<string, Bytes> = {};
  for (const [p, f] of Object.entries(files)) if (f.base !== undefined) bases[p] = f.base;
  return planApply({
    files: Object.entries(files).map(([p, f]) => agentFile(p, f.agent).file),
    folder: fakeFolder({
      files: Object.fromEntries(
        Object.entries(files).flatMap(([p, f]) => (f.workspace === undefined ? [] : [[p, f.workspace]])),
      ),
      dirty,
    }),
    base: basesOf(bases),
  });
}

describe('Apply without a base: the words and the default choice', () => {
  it('says how many saved lines not in the agent’s version are lost', async () => {
    // 12 of the person's lines are not in the agent's version; 3 lines are the agent's own.
    const p = await plan({ 'src/x.ts': { agent: lines(3, 'agent'), workspace: lines(12, 'mine') } });
    const [entry] = p.entries;
    assert.equal(entry.action, 'askOverwrite');
    assert.equal(
      entry.confirm,
      "Replace src/x.ts: 12 saved lines not in the agent's version will be lost (Den does not know what the agent saw of it, so it cannot merge).",
    );
    assert.deepEqual(p.summary.needsConfirmation, [entry.confirm]);
    assert.deepEqual(entry.stats, { added: 3, removed: 12 });
  });

  it('counts one line, the editor’s unsaved text, none lost, and binary content in words', async () => {
    const one = await plan({ 'a.txt': { agent: 'a\nB\n', workspace: 'a\nb\n' } });
    assert.equal(
      one.entries[0].confirm,
      "Replace a.txt: 1 saved line not in the agent's version will be lost (Den does not know what the agent saw of it, so it cannot merge).",
    );
    const dirty = await plan({ 'a.txt': { agent: 'x\n', workspace: 'a\nb\n' } }, ['a.txt']);
    assert.equal(
      dirty.entries[0].confirm,
      "Replace a.txt: 2 lines of the editor's text not in the agent's version will be lost (Den does not know what the agent saw of it, so it cannot merge; it has unsaved changes).",
    );
    const none = await plan({ 'a.txt': { agent: 'a\nb\n', workspace: 'a\n' } });
    assert.equal(
      none.entries[0].confirm,
      "Replace a.txt with the agent's version: no line of it is lost (Den does not know what the agent saw of it, so it cannot merge).",
    );
    const binary = await plan({ 'logo.png': { agent: bin2, workspace: bin } });
    assert.match(binary.entries[0].confirm ?? '', /^Replace logo\.png: its content will be lost/);
  });

  it('makes Review… the default (first) choice when a file would be replaced without a merge', async () => {
    const p = await plan({
      'src/x.ts': { agent: 'agent\n', workspace: 'mine\n' },
      'src/new.ts': { agent: 'new\n' },
    });
    assert.equal(replacesWithoutMerge(p), true);
    assert.deepEqual(applyChoices(p, writesOf(p, false).length), ['review', 'apply', 'applySafe']);
    const only = await plan({ 'src/x.ts': { agent: 'agent\n', workspace: 'mine\n' } });
    assert.deepEqual(applyChoices(only, writesOf(only, false).length), ['review', 'apply']);
  });

  it('keeps Apply the default when every file merges or needs no question', async () => {
    const p = await plan({
      'src/x.ts': { agent: 'a\nb\nC\n', workspace: 'A\nb\nc\n', base: 'a\nb\nc\n' },
    });
    assert.equal(p.entries[0].action, 'merge');
    assert.equal(replacesWithoutMerge(p), false);
    assert.deepEqual(applyChoices(p, writesOf(p, false).length), ['apply', 'review']);
    const conflict = await plan({ 'src/y.ts': { agent: 'X\n', workspace: 'Y\n', base: 'a\n' } });
    assert.equal(conflict.entries[0].action, 'mergeWithConflicts');
    assert.deepEqual(applyChoices(conflict, 0), ['apply', 'review']);
  });
});
