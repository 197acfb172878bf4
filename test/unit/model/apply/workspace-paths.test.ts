import assert from 'node:assert/strict';
import { workspacePaths } from '../../../../src/model/apply/workspace-paths';

describe('workspacePaths: the agent’s paths in a workspace folder (Apply and Review)', () => {
  it('maps sandbox paths to folder-relative ones, in order', () => {
    assert.deepEqual(workspacePaths(['/workspace/src/a.ts', './b.ts', 'c/d.ts']), [
      { ok: true, relPath: 'src/a.ts' },
      { ok: true, relPath: 'b.ts' },
      { ok: true, relPath: 'c/d.ts' },
    ]);
  });

  it('refuses an unsafe path with a message naming it', () => {
    const [git, up] = workspacePaths(['.git/config', '../x.ts']);
    assert.equal(git.ok, false);
    assert.match(!git.ok ? git.message : '', /\.git\/config/);
    assert.equal(up.ok, false);
    assert.match(!up.ok ? up.message : '', /\.\.\/x\.ts/);
  });

  it('refuses both paths that name one file up to case, keeping their relative path', () => {
    assert.deepEqual(workspacePaths(['src/A.ts', '/workspace/src/a.ts', 'src/b.ts']), [
      {
        ok: false,
        relPath: 'src/A.ts',
        message: 'Refused the path "src/A.ts": it names the same workspace file as "/workspace/src/a.ts".',
      },
      {
        ok: false,
        relPath: 'src/a.ts',
        message: 'Refused the path "/workspace/src/a.ts": it names the same workspace file as "src/A.ts".',
      },
      { ok: true, relPath: 'src/b.ts' },
    ]);
  });
});
