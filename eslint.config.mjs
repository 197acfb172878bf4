import path from 'node:path';
import { fileURLToPath } from 'node:url';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Zones are resolved against this folder, not the process's working directory, so the layer
// test (test/build/layers) can lint a copy of the tree elsewhere with this very file.
const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * THE layer table: what each part of src/ may import from src/. This list is the one source of
 * truth (docs/layers.md is generated from it by `npm run docs:layers`; folder READMEs do not repeat
 * it). src/ is a grid: runtime layers (core → protocol → model → editor; webview apart) by feature
 * folders with the same names in every layer (docs/architecture.md). Within a layer, feature folders
 * may import each other (no cycles: import-x/no-cycle and scripts/check-cycles.js). A path not listed
 * takes the rule of its closest listed parent; imports of the path itself are always allowed.
 * `why` is the row's explanation in docs/layers.md.
 */
const BROWSER_CORE = [
  'core/transcript',
  'core/webtasks',
  'core/search',
  'core/client/types.ts',
  'core/shared/schema.ts',
  'core/shared/l10n.ts',
  'core/shared/format.ts',
];
const CORE_AND_PROTOCOL = ['core', 'protocol'];
const layers = [
  {
    dir: 'core',
    may: ['core'],
    why: 'pure logic and the service client: Node builtins, undici, ws; no vscode',
  },
  ...BROWSER_CORE.map((dir) => ({
    dir,
    may: BROWSER_CORE,
    why: 'browser-safe core: the webviews reach it, so no package and no Node builtin',
  })),
  {
    dir: 'protocol',
    may: ['protocol', ...BROWSER_CORE],
    why: 'the typed host ⇄ webview messages; browser-safe',
  },
  {
    dir: 'model',
    may: [...CORE_AND_PROTOCOL, 'model'],
    why: "the extension's state and decisions, vscode-free",
  },
  {
    dir: 'editor',
    may: [...CORE_AND_PROTOCOL, 'model', 'editor'],
    why: 'the glue to VS Code: views, panels, commands, the public API',
  },
  {
    dir: 'editor/platform',
    may: [...CORE_AND_PROTOCOL, 'model', 'editor/platform'],
    why: 'settings, the key, the connection, errors: what every feature uses; imports no feature',
  },
  { dir: 'editor/api/types.ts', may: [], why: "the public API's types (vscode types only)" },
  {
    dir: 'editor/integrations',
    may: ['editor/api/types.ts'],
    why: 'chat participant and LM tools: a separate bundle that reaches Den only through its public API',
  },
  { dir: 'webview', may: ['protocol', ...BROWSER_CORE], why: 'the webviews: browser programs' },
  { dir: 'webview/shared', may: ['protocol', ...BROWSER_CORE], why: 'what both webviews use; no panel' },
  {
    dir: 'webview/session-panel',
    may: ['webview/shared', 'protocol', ...BROWSER_CORE],
    why: 'the Session panel page',
  },
  {
    dir: 'webview/webtask-panel',
    may: ['webview/shared', 'protocol', ...BROWSER_CORE],
    why: 'the Web Task panel page',
  },
  {
    dir: 'webview/session-search',
    may: ['webview/shared', 'protocol', ...BROWSER_CORE],
    why: 'the Search in Sessions view',
  },
];
export { layers };

/**
 * The files a row governs: its folder (or file) minus the rows nested in it, so each file answers
 * to exactly one row and a bad import is reported once. Globs: `!(a|b)` leaves out nested rows.
 */
function targetsOf(dir) {
  const nested = layers.map((l) => l.dir).filter((d) => d.startsWith(`${dir}/`));
  if (nested.length === 0) return [`./src/${dir}`];
  const out = [];
  const bySegment = new Map();
  for (const d of nested) {
    const [seg, ...rest] = d.slice(dir.length + 1).split('/');
    if (!bySegment.has(seg)) bySegment.set(seg, []);
    bySegment.get(seg).push(rest.join('/'));
  }
  const skip = [...bySegment.keys()].join('|');
  out.push(`./src/${dir}/!(${skip})`, `./src/${dir}/!(${skip})/**`);
  for (const [seg, rests] of bySegment) {
    if (rests.includes('')) continue; // the segment is a row of its own
    const sub = `${dir}/${seg}`;
    const inner = [...new Set(rests.map((r) => r.split('/')[0]))].join('|');
    out.push(`./src/${sub}/!(${inner})`, `./src/${sub}/!(${inner})/**`);
  }
  return out;
}
const zones = [
  ...layers.map(({ dir, may }) => ({
    target: targetsOf(dir),
    from: './src',
    except: [...new Set([dir, ...may])].map((d) => `./${d}`),
    message: `src/${dir} may import only src/{${[...new Set([dir, ...may])].join(',')}} (docs/layers.md).`,
  })),
  {
    target: './src/extension.ts',
    from: './src/webview',
    message: 'The webview is a separate program (docs/layers.md).',
  },
];

const noVscode = { name: 'vscode', message: 'This layer stays vscode-free (docs/layers.md).' };
/** undici and ws load only behind the lazy boundary (src/core/client/net.ts); types are free. */
const NET_MODULE = 'src/core/client/net.ts';
const netOnly = ['undici', 'ws'].map((name) => ({
  name,
  allowTypeImports: true,
  message: `Runtime code of ${name} loads only in ${NET_MODULE}, behind lazy-net.ts (docs/decisions/2026-11-27-activation-not-bytes.md).`,
}));
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
    files: ['src/**/*.ts'],
    ignores: [NET_MODULE],
    rules: { 'no-restricted-imports': ['error', { paths: netOnly }] },
  },
  {
    files: ['src/core/**/*.ts', 'src/model/**/*.ts'],
    ignores: [NET_MODULE],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode, ...netOnly] }],
      'no-restricted-syntax': dynamicImport("'vscode'", noVscode.message),
    },
  },
  {
    // The webview and what its bundle reaches: no package, no Node builtin, no vscode.
    files: [
      'src/webview/**/*.ts',
      'src/protocol/**/*.ts',
      ...BROWSER_CORE.map((p) => (p.endsWith('.ts') ? `src/${p}` : `src/${p}/**/*.ts`)),
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noBareImports] }],
      'no-restricted-syntax': dynamicImport('/^[^.]/', noBareImports.message),
    },
  },
);
