import path from 'node:path';
import { fileURLToPath } from 'node:url';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Zones are resolved against this folder, not the process's working directory, so the layer
// test (test/unit/layers) can lint a copy of the tree elsewhere with this very file.
const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * What each part of src/ may import from src/ (docs/layers.md). A folder not listed is not
 * restricted; add new folders here. Imports of the folder itself are always allowed.
 * `core/transcript`, `core/webtask`, `core/api/types.ts`, `core/schema.ts` and `core/l10n.ts` are the browser-safe part of
 * the core: the webview bundle reaches them (directly or through src/protocol), and
 * src/webview/tsconfig.json holds them to the same set. `core/webtask` may import only itself and
 * those files (not `core/transcript`).
 */
const WEBVIEW_SAFE_CORE = ['core/transcript', 'core/api/types.ts', 'core/schema.ts', 'core/l10n.ts'];
const WEBTASK = ['core/webtask', 'core/api/types.ts', 'core/schema.ts', 'core/l10n.ts'];
const SESSION = ['core', 'protocol', 'session'];
const GLUE_BASE = [...SESSION, 'config', 'auth', 'ui'];
const GLUE_SERVICE = [...GLUE_BASE, 'service'];
const GLUE_FILES = [...GLUE_SERVICE, 'files'];
const GLUE_VIEWS = [...GLUE_FILES, 'status', 'sessions'];
const layers = [
  { dir: 'core', may: ['core'] },
  { dir: 'core/transcript', may: WEBVIEW_SAFE_CORE },
  { dir: 'core/webtask', may: WEBTASK },
  { dir: 'core/api/types.ts', may: ['core/api/types.ts'] },
  { dir: 'core/schema.ts', may: ['core/schema.ts'] },
  { dir: 'core/l10n.ts', may: ['core/l10n.ts'] },
  { dir: 'protocol', may: ['protocol', ...WEBVIEW_SAFE_CORE, 'core/webtask'] },
  { dir: 'session', may: SESSION },
  { dir: 'config', may: [...SESSION, 'config'] },
  { dir: 'auth', may: [...SESSION, 'auth'] },
  { dir: 'ui', may: [...SESSION, 'ui'] },
  { dir: 'service', may: GLUE_SERVICE },
  { dir: 'files', may: GLUE_FILES },
  { dir: 'status', may: [...GLUE_FILES, 'status'] },
  { dir: 'sessions', may: [...GLUE_FILES, 'sessions'] },
  { dir: 'attachments', may: [...GLUE_VIEWS, 'attachments'] },
  { dir: 'panel', may: [...GLUE_VIEWS, 'attachments', 'panel'] },
  { dir: 'webtasks', may: [...GLUE_VIEWS, 'attachments', 'panel', 'webtasks'] },
  { dir: 'commands', may: [...GLUE_VIEWS, 'attachments', 'panel', 'webtasks', 'commands', 'api/types.ts'] },
  // The public API's types (vscode types only), its implementation over the glue, and the chat
  // participant and language model tools, which reach Den only through that API (a separate bundle).
  { dir: 'api/types.ts', may: ['api/types.ts'] },
  { dir: 'api', may: [...GLUE_VIEWS, 'attachments', 'panel', 'webtasks', 'commands', 'api'] },
  { dir: 'integrations', may: ['integrations', 'api/types.ts'] },
  { dir: 'webview', may: ['webview', 'protocol', 'core/transcript', 'core/webtask', 'core/l10n.ts'] },
];
const zones = [
  ...layers.map(({ dir, may }) => ({
    target: `./src/${dir}`,
    from: './src',
    except: may.map((d) => `./${d}`),
    message: `src/${dir} may import only src/{${may.join(',')}} (docs/layers.md).`,
  })),
  {
    target: './src/extension.ts',
    from: './src/webview',
    message: 'The webview is a separate program (docs/layers.md).',
  },
];

const noVscode = { name: 'vscode', message: 'This layer stays vscode-free (docs/layers.md).' };
/** Any import that is not relative: vscode, node:*, Node builtins, npm packages. */
const noBareImports = {
  regex: '^[^.]',
  message: 'Runs in the webview (a browser): relative imports of the allowed folders only (docs/layers.md).',
};
/** `import('vscode')` and `import('x')`: no-restricted-imports sees static imports only. */
const dynamicImport = (match, message) => [
  'error',
  { selector: `ImportExpression[source.value=${match}]`, message },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'media/**', '.cache/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    // Type-aware rules: each file is linted with its own project (tsconfig.json's references:
    // host, webview, tests and benches), found by the project service.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // A promise nobody awaits loses its rejection; one passed where a callback's result is
      // ignored (an event listener, a `forEach`) too. `void` marks the few that are meant so.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: true },
      ],
      'no-restricted-imports': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['test/support/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'test/support runs outside VS Code too: put this in test/ext.' },
            {
              name: 'playwright-core',
              message: 'test/support runs outside a browser too: put this in test/e2e.',
            },
          ],
          patterns: [
            {
              group: ['**/ext/*', '**/e2e/*', '**/harness/*'],
              message: 'test/support depends on nothing test-kind specific.',
            },
          ],
        },
      ],
    },
  },
  // The layers (docs/layers.md, docs/decisions/2026-11-24-layers-enforced.md).
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Which files import-x reads to follow imports (for no-cycle), and with which parser.
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.d.ts', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      // Runtime cycles; `import type` is erased and not followed. External modules are not parsed.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/session/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode] }],
      'no-restricted-syntax': dynamicImport("'vscode'", noVscode.message),
    },
  },
  {
    // The webview and what its bundle reaches: no package, no Node builtin, no vscode.
    files: [
      'src/webview/**/*.ts',
      'src/protocol/**/*.ts',
      'src/core/transcript/**/*.ts',
      'src/core/webtask/**/*.ts',
      'src/core/api/types.ts',
      'src/core/schema.ts',
      'src/core/l10n.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noBareImports] }],
      'no-restricted-syntax': dynamicImport('/^[^.]/', noBareImports.message),
    },
  },
);
