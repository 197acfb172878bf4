import assert from 'node:assert/strict';
import { globToRegExp, runsCode, runsCodeMatcher } from '../../../../src/core/paths/runs-code';

/** [workspace-relative path, whether it can run code] */
const table: [string, boolean][] = [
  // VS Code's own files, at the root and in a subfolder opened on its own, any case.
  ['.vscode/tasks.json', true],
  ['.vscode/settings.json', true],
  ['.vscode/launch.json', true],
  ['.vscode/mcp.json', true],
  ['.vscode/extensions.json', true],
  ['packages/web/.vscode/tasks.json', true],
  ['.VSCode/Tasks.JSON', true],
  ['app.code-workspace', true],
  ['tools/dev.code-workspace', true],
  // Dev containers.
  ['.devcontainer/devcontainer.json', true],
  ['.devcontainer/Dockerfile', true],
  ['.devcontainer/python/devcontainer.json', true],
  ['.devcontainer.json', true],
  // CI.
  ['.github/workflows/ci.yml', true],
  ['.github/workflows/nested/release.yaml', true],
  ['.github/actions/setup/action.yml', true],
  ['tools/my-action/action.yml', true],
  ['.gitlab-ci.yml', true],
  ['.circleci/config.yml', true],
  ['azure-pipelines.yml', true],
  ['bitbucket-pipelines.yml', true],
  // Git hooks.
  ['.husky/pre-commit', true],
  ['.husky/_/husky.sh', true],
  ['.githooks/pre-push', true],
  ['lefthook.yml', true],
  ['.lefthook.yml', true],
  ['lefthook-local.yml', true],
  ['.github/actions/setup/action.yaml', true],
  ['.yarnrc', true],
  ['.pnpmfile.mjs', true],
  ['eslint.config.cts', true],
  ['.prettierrc.ts', true],
  ['.pre-commit-config.yaml', true],
  // Package managers.
  ['package.json', true],
  ['packages/core/package.json', true],
  ['.npmrc', true],
  ['.yarnrc.yml', true],
  ['.pnpmfile.cjs', true],
  // Shell hooks.
  ['.envrc', true],
  ['services/api/.envrc', true],
  // Config modules extensions load.
  ['eslint.config.js', true],
  ['eslint.config.mjs', true],
  ['web/.eslintrc.cjs', true],
  ['prettier.config.js', true],
  ['.prettierrc.cjs', true],
  // Not on the list: run only when the person runs them, or data.
  ['src/a.ts', false],
  ['Makefile', false],
  ['scripts/build.sh', false],
  ['Dockerfile', false],
  ['.gitattributes', false],
  ['.gitmodules', false],
  ['tsconfig.json', false],
  ['.editorconfig', false],
  ['.env', false],
  ['.eslintrc.json', false],
  ['.prettierrc', false],
  ['package-lock.json', false],
  ['docs/package.json.md', false],
  ['.vscode/notes.md', false],
  ['.vscode/tasks.json.bak', false],
  ['my.vscode/tasks.json', false],
  ['.github/CODEOWNERS', false],
  ['.github/dependabot.yml', false],
  ['not.husky/pre-commit', false],
  ['src/package.json5', false],
];

describe('files that run code', () => {
  for (const [path, expected] of table) {
    it(`${path}: ${expected ? 'runs code' : 'does not'}`, () => {
      const why = runsCode(path);
      assert.equal(why !== undefined, expected, why);
      if (why) assert.ok(why.length > 10, 'says why');
    });
  }

  it('says why in words a person can act on', () => {
    assert.equal(runsCode('.vscode/tasks.json'), 'a task can run by itself when the folder opens');
    assert.match(runsCode('package.json') ?? '', /npm install/);
    assert.match(runsCode('.github/workflows/ci.yml') ?? '', /pushed/);
  });

  it('extends the list with the setting’s globs, never shortens it', () => {
    const match = runsCodeMatcher(['scripts/*.sh', '*.ps1', 'tools/**', '', 42 as unknown as string]);
    assert.match(match('scripts/build.sh') ?? '', /den\.apply\.filesThatRunCode/);
    assert.equal(match('scripts/sub/build.sh'), undefined, '* stays in one folder');
    assert.ok(match('deep/in/here/setup.ps1'), 'a glob without / matches at any depth');
    assert.ok(match('tools/a/b/c.txt'));
    assert.equal(match('src/a.ts'), undefined);
    assert.equal(match('.vscode/tasks.json'), 'a task can run by itself when the folder opens');
    assert.ok(runsCodeMatcher([])('package.json'));
  });

  /** [glob, path, matches] */
  const globs: [string, string, boolean][] = [
    ['*.sh', 'a.sh', true],
    ['*.sh', 'x/y/a.sh', true],
    ['/a.sh', 'a.sh', true],
    ['/a.sh', 'x/a.sh', false],
    ['./x/*.sh', 'x/a.sh', true],
    ['x/**', 'x/a/b', true],
    ['x/**', 'x', false],
    ['x/', 'x/a', true],
    ['**/y/*.md', 'y/a.md', true],
    ['**/y/*.md', 'a/b/y/a.md', true],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['*.{js,ts}', 'a.ts', true],
    ['*.{js,ts}', 'a.md', false],
    ['[ab].txt', 'a.txt', true],
    ['[ab].txt', 'c.txt', false],
    ['{a,{b,c}}.md', 'c.md', true],
    ['{.,}x.yml', '.x.yml', true],
    ['{.,}x.yml', 'x.yml', true],
    ['a.b', 'aXb', false],
    ['(a)+', '(a)+', true],
    ['A.SH', 'a.sh', true],
  ];
  for (const [glob, path, expected] of globs) {
    it(`glob ${glob} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(globToRegExp(glob).test(path), expected);
    });
  }
});
