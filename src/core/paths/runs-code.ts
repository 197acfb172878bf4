import { l10n } from '../shared/l10n';
import { globSource } from './glob';
/**
 * Which workspace files can run code: files an editor, an extension, Git, a package manager, a
 * shell hook or a CI service runs (or takes a program to run from) without the person asking to
 * run that file. Apply names them first, writes them only after a separate confirmation, and
 * refuses them in a workspace that is not trusted (`docs/decisions/2026-11-26-files-that-run-code.md`
 * says why each is on the list, and why some are not). Pure; imports only `l10n` and `glob`.
 *
 * Paths are workspace-relative and `/`-separated, as `safeRelativePath` makes them (so `..`,
 * look-alike characters, 8.3 short names and trailing dots are already refused); they are matched
 * without case, since `.VSCode/Tasks.json` is `.vscode/tasks.json` on Windows and macOS.
 */

/**
 * The list: each kind of file that can run code, as globs (space-separated, as `globToRegExp` reads
 * them: a glob without `/` matches a name at any depth; `**` is any number of folders) and why, as
 * a clause ("a task can run …").
 */
const RULES: readonly [globs: string, why: () => string][] = [
  ['**/.vscode/tasks.json', () => l10n.t('a task can run by itself when the folder opens')],
  [
    '**/.vscode/settings.json',
    () => l10n.t('a setting can point a tool or an extension at a program to run'),
  ],
  [
    '**/.vscode/launch.json',
    () => l10n.t('a launch configuration runs a program or a task when you start debugging'),
  ],
  ['**/.vscode/mcp.json', () => l10n.t('it starts MCP servers, which are commands, for the chat')],
  ['**/.vscode/extensions.json', () => l10n.t('it recommends extensions for VS Code to offer to install')],
  ['*.code-workspace', () => l10n.t('a workspace file holds settings, tasks and launch configurations')],
  [
    '**/.devcontainer/** .devcontainer.json',
    () => l10n.t('a dev container runs its commands when it is built or opened'),
  ],
  [
    '.github/{workflows,actions}/** **/action.{yml,yaml} .gitlab-ci.yml .circleci/** {azure,bitbucket}-pipelines.yml',
    () => l10n.t('a CI workflow runs it, with the repository’s secrets, once it is pushed'),
  ],
  [
    '.husky/** .githooks/** {.,}lefthook{,-local}.yml .pre-commit-config.yaml',
    () => l10n.t('a Git hook runs it when you commit, check out or push'),
  ],
  [
    'package.json',
    () =>
      l10n.t('its scripts run on npm install (lifecycle scripts), and so do its new dependencies’ scripts'),
  ],
  [
    '.npmrc .yarnrc{,.yml} .pnpmfile.{cjs,mjs}',
    () => l10n.t('the package manager reads it on install: it can name a program or a script to run'),
  ],
  ['.envrc .env.sh', () => l10n.t('direnv runs it in your shell when you enter the folder')],
  [
    'eslint.config.{js,mjs,cjs,ts,mts,cts} .eslintrc.{js,cjs} {prettier.config,.prettierrc}.{js,mjs,cjs,ts}',
    () => l10n.t('the ESLint or Prettier extension runs it when a file opens'),
  ],
];

const BUILT_IN = RULES.map(([globs, why]) => ({ match: globsMatcher(globs.split(' ')), why }));

/**
 * Why `relPath` can run code (a clause to put after "can run code: "), or undefined when it is not
 * on the list nor matched by one of `extra` (the `den.apply.filesThatRunCode` setting's globs).
 */
export function runsCode(relPath: string, extra: readonly string[] = []): string | undefined {
  return runsCodeMatcher(extra)(relPath);
}

/** A matcher for `runsCode` with the setting's globs bound. */
export function runsCodeMatcher(extra: readonly string[] = []): (relPath: string) => string | undefined {
  const valid = extra.filter(isGlob);
  const user = valid.length > 0 ? globsMatcher(valid) : undefined;
  return (relPath) => {
    for (const rule of BUILT_IN) if (rule.match(relPath)) return rule.why();
    return user?.(relPath) ? l10n.t('the den.apply.filesThatRunCode setting lists it') : undefined;
  };
}

/** Whether a setting's entry is a glob Den takes: a non-empty string of at most 500 characters. */
export function isGlob(g: unknown): g is string {
  return typeof g === 'string' && g.trim().length > 0 && g.length <= 500;
}

/** Whether `relPath` matches any of `globs` (see `globToRegExp`), without case. */
export function globsMatcher(globs: readonly string[]): (relPath: string) => boolean {
  const res = globs.map(globToRegExp);
  return (relPath) => {
    const p = relPath.replace(/\\/g, '/').replace(/^\.?\//, '');
    return res.some((re) => re.test(p));
  };
}

/**
 * A glob as a regular expression over a whole `/`-separated relative path: `*` is any characters
 * but `/`, `?` one of them, `**` (a whole segment) any number of folders, `{a,b}` either
 * (nested too), `[abc]` one of them (`globSource`, as VS Code reads `files.exclude`); a glob without `/` matches a name at any depth (`*.sh` is `**\/*.sh`),
 * as in `.gitignore`; a leading `/` or `./` anchors it at the folder. Matching ignores case.
 */
export function globToRegExp(glob: string): RegExp {
  let g = glob.trim().replace(/\\/g, '/');
  if (g.startsWith('./')) g = g.slice(2);
  else if (g.startsWith('/')) g = g.slice(1);
  else if (!g.includes('/')) g = `**/${g}`;
  if (g.endsWith('/')) g += '**';
  return new RegExp(`^${globSource(g)}$`, 'i');
}
