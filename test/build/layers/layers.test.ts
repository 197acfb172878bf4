// The layer rules (docs/layers.md) are only as good as the tools that enforce them. This suite
// proves they bite: it copies src/ with the real eslint.config.mjs, tsconfig.json and
// src/webview/tsconfig.json to a temporary folder, checks that the copy passes, then adds one
// violation at a time and checks that the rule meant to catch it reports it, and nothing else does.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../../..');

/** The rules of eslint.config.mjs that need type information (off for the copy, see `before`). */
const TYPED_RULES = [
  '@typescript-eslint/no-floating-promises',
  '@typescript-eslint/no-misused-promises',
  '@typescript-eslint/await-thenable',
  '@typescript-eslint/switch-exhaustiveness-check',
];

interface Problem {
  file: string;
  line: number;
  rule: string;
  message: string;
}

describe('layers: the lint and compiler rules catch violations', function () {
  // Two full runs (ESLint with type information over the copy of src/, tsc over the webview
  // project) on a busy machine.
  this.timeout(240_000);
  let tmp = '';
  let eslint: ESLint;
  let seq = 0;
  /** What a case added or changed in the copy; undone after each case so cases stay independent. */
  let injected: string[] = [];

  /** Writes `files` (relative to the copy of src/, with `export const target = 1` if no text). */
  function write(files: Record<string, string>): string[] {
    return Object.entries(files).map(([rel, text]) => {
      const file = path.join(tmp, 'src', rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text || 'export const target = 1;\n');
      injected.push(file);
      return file;
    });
  }

  async function lint(files: string[]): Promise<Problem[]> {
    const results = await eslint.lintFiles(files);
    return results.flatMap((r) =>
      r.messages.map((m) => ({
        file: path.relative(path.join(tmp, 'src'), r.filePath),
        line: m.line,
        rule: m.ruleId ?? `fatal: ${m.message}`,
        message: m.message,
      })),
    );
  }

  /** Lints one injected file importing `spec` (a fresh target file when `target` is given). */
  async function importIn(from: string, spec: string, target?: string): Promise<Problem[]> {
    seq++;
    const name = `zz-layer-${seq}`;
    const files: Record<string, string> = {};
    if (target) files[`${target}/${name}-target.ts`] = '';
    const source = target ? spec.replace('TARGET', `${name}-target`) : spec;
    files[`${from}/${name}.ts`] = `import * as m from '${source}';\nexport const uses = m;\n`;
    const [file] = write(files).slice(-1);
    return lint([file]);
  }

  /** `tsc -p src/webview/tsconfig.json` of the copy, in a child process (so it can overlap a lint). */
  function tsc(): Promise<{ status: number | null; out: string }> {
    const args = [
      require.resolve('typescript/bin/tsc', { paths: [ROOT] }),
      '-p',
      path.join(tmp, 'src/webview/tsconfig.json'),
      '--tsBuildInfoFile',
      path.join(tmp, 'webview.tsbuildinfo'),
      '--pretty',
      'false',
    ];
    return run(args);
  }

  /** Runs a Node script in the copy; resolves with its exit status and output. */
  function run(args: string[]): Promise<{ status: number | null; out: string }> {
    return new Promise((resolve, reject) => {
      execFile(process.execPath, args, { cwd: tmp, encoding: 'utf8' }, (err, stdout, stderr) => {
        const status = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        if (err && status === null) reject(err);
        else resolve({ status, out: `${stdout}${stderr}` });
      });
    });
  }

  /** `node scripts/check-cycles.js src` (the repo's script) on the copy. */
  function cycles(): Promise<{ status: number | null; out: string }> {
    return run([path.join(ROOT, 'scripts/check-cycles.js'), 'src']);
  }

  const only = (problems: Problem[], rule: string, count = 1): Problem[] => {
    assert.deepEqual(
      problems.map((p) => p.rule),
      Array<string>(count).fill(rule),
      JSON.stringify(problems, null, 2),
    );
    return problems;
  };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'den-layers-'));
    fs.cpSync(path.join(ROOT, 'src'), path.join(tmp, 'src'), { recursive: true });
    for (const f of ['eslint.config.mjs', 'tsconfig.json', 'package.json']) {
      fs.copyFileSync(path.join(ROOT, f), path.join(tmp, f));
    }
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tmp, 'node_modules'), 'dir');
    // The layer rules read imports, not types: the copy is linted without type information. With
    // it, the project service knows only the files that existed when it loaded the project, and a
    // case that adds two files had the second one refused ("not found by the project service").
    // The typed rules run on the real tree in `npm run check`.
    eslint = new ESLint({
      cwd: tmp,
      overrideConfigFile: path.join(tmp, 'eslint.config.mjs'),
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: Object.fromEntries(TYPED_RULES.map((r) => [r, 'off'])),
      },
    });
  });

  afterEach(() => {
    for (const file of injected) fs.rmSync(file, { force: true });
    injected = [];
    fs.copyFileSync(path.join(ROOT, 'src/extension.ts'), path.join(tmp, 'src/extension.ts'));
  });

  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('control: the copy of the real src/ passes ESLint and the webview project', async () => {
    const compiled = tsc();
    assert.deepEqual(await lint(['src']), []);
    const r = await compiled;
    assert.equal(r.status, 0, r.out);
    const c = await cycles();
    assert.equal(c.status, 0, c.out);
  });

  it('a cycle between two glue files: import-x/no-cycle', async () => {
    const files = write({
      'editor/session-panel/zz-cycle-a.ts': "import { b } from './zz-cycle-b';\nexport const a = () => b;\n",
      'editor/session-panel/zz-cycle-b.ts': "import { a } from './zz-cycle-a';\nexport const b = () => a;\n",
    });
    const problems = only(await lint(files), 'import-x/no-cycle', 2);
    assert.deepEqual(problems.map((p) => p.file).sort(), [
      'editor/session-panel/zz-cycle-a.ts',
      'editor/session-panel/zz-cycle-b.ts',
    ]);
  });

  it('a type-only cycle: scripts/check-cycles.js (no-cycle follows values only)', async () => {
    const files = write({
      'model/session/zz-types-a.ts':
        "import type { B } from './zz-types-b';\nexport interface A {\n  b?: B;\n}\n",
      'model/session/zz-types-b.ts':
        "import type { A } from './zz-types-a';\nexport interface B {\n  a?: A;\n}\n",
    });
    assert.deepEqual(await lint(files), []);
    const r = await cycles();
    assert.equal(r.status, 1, r.out);
    assert.equal(
      r.out.trim(),
      'import cycle: src/model/session/zz-types-a.ts ⇄ src/model/session/zz-types-b.ts',
    );
  });

  const backEdges: [string, string, string][] = [
    ['core/stream', 'model/session', 'src/core may import only src/{core}'],
    ['model/session', 'editor/session-panel', 'src/model may import only src/{model,core,protocol}'],
    ['model/apply', 'editor/apply', 'src/model may import only'],
    ['protocol/session-panel', 'core/client', 'src/protocol may import only'],
    ['protocol/webtask-panel', 'model/webtasks', 'src/protocol may import only'],
    ['core/transcript', 'core/stream', 'src/core/transcript may import only'],
    ['core/webtasks', 'core/client', 'src/core/webtasks may import only src/{core/webtasks,core/transcript,'],
    ['editor/platform', 'editor/sessions-view', 'src/editor/platform may import only'],
    ['editor/platform', 'editor/apply', 'src/editor/platform may import only'],
    ['editor/session-panel', 'webview/session-panel', 'src/editor may import only'],
    [
      'editor/integrations',
      'editor/session-panel',
      'src/editor/integrations may import only src/{editor/integrations,editor/api/types.ts}',
    ],
    ['webview/shared', 'webview/session-panel', 'src/webview/shared may import only'],
    ['webview/webtask-panel', 'webview/session-panel', 'src/webview/webtask-panel may import only'],
    ['webview/session-panel', 'webview/webtask-panel', 'src/webview/session-panel may import only'],
  ];
  for (const [from, to, text] of backEdges) {
    it(`a back-edge src/${from} → src/${to}: import-x/no-restricted-paths`, async () => {
      const up = path.posix.relative(from, to);
      const [p] = only(await importIn(from, `${up}/TARGET`, to), 'import-x/no-restricted-paths');
      assert.ok(p.message.includes(text), p.message);
    });
  }

  it('src/extension.ts importing src/webview: import-x/no-restricted-paths', async () => {
    write({ 'webview/zz-entry-target.ts': '' });
    const file = path.join(tmp, 'src/extension.ts');
    fs.appendFileSync(
      file,
      "import { target } from './webview/zz-entry-target';\nexport const uses = target;\n",
    );
    only(await lint([file]), 'import-x/no-restricted-paths');
  });

  for (const dir of ['core', 'protocol', 'model']) {
    it(`vscode imported in src/${dir}: no-restricted-imports`, async () => {
      const [p] = only(await importIn(dir, 'vscode'), 'no-restricted-imports');
      assert.match(p.message, /'vscode' import is restricted/);
    });
  }

  it("a runtime import of 'undici' outside src/core/client/net.ts: no-restricted-imports", async () => {
    const [p] = only(await importIn('editor/platform', 'undici'), 'no-restricted-imports');
    assert.match(p.message, /loads only in src\/core\/client\/net\.ts/);
  });

  it("a type-only import of 'ws' in src/model: no problem", async () => {
    const files = write({
      'model/session/zz-ws-type.ts': "import type { RawData } from 'ws';\nexport type Raw = RawData;\n",
    });
    assert.deepEqual(await lint(files), []);
  });

  it("import('vscode') in src/core: no-restricted-syntax", async () => {
    const files = write({ 'core/zz-dynamic.ts': "export const load = () => import('vscode');\n" });
    only(await lint(files), 'no-restricted-syntax');
  });

  it("import('node:fs') in src/webview: no-restricted-syntax", async () => {
    const files = write({ 'webview/zz-dynamic.ts': "export const load = () => import('node:fs');\n" });
    only(await lint(files), 'no-restricted-syntax');
  });

  for (const to of ['core/client', 'editor/session-panel', 'model/session', 'editor/sessions-view']) {
    it(`src/webview importing src/${to}: import-x/no-restricted-paths`, async () => {
      const from = 'webview/session-panel/render';
      const up = path.posix.relative(from, to);
      const [p] = only(await importIn(from, `${up}/TARGET`, to), 'import-x/no-restricted-paths');
      assert.ok(
        p.message.includes(
          'src/webview/session-panel may import only src/{webview/session-panel,webview/shared,protocol,',
        ),
        p.message,
      );
    });
  }

  for (const spec of ['vscode', 'node:fs', 'path', 'ws']) {
    it(`src/webview importing '${spec}': no-restricted-imports`, async () => {
      only(await importIn('webview', spec), 'no-restricted-imports');
    });
  }

  for (const spec of ['node:fs', 'path', 'undici']) {
    it(`src/core/webtasks importing '${spec}': no-restricted-imports`, async () => {
      only(await importIn('core/webtasks', spec), 'no-restricted-imports');
    });
  }

  it('src/core/webtasks importing src/core/client/client: import-x/no-restricted-paths', async () => {
    const [p] = only(await importIn('core/webtasks', '../client/client'), 'import-x/no-restricted-paths');
    assert.ok(p.message.includes('src/core/webtasks may import only'), p.message);
  });

  it('src/webview may import src/core/webtasks (which reaches core/client/types.ts): no problem', async () => {
    const files = write({
      'webview/webtask-panel/zz-webtask.ts':
        "import { toCsv } from '../../core/webtasks/writers';\n" +
        "import type { ServiceSchema } from '../../core/webtasks/service-schema';\n" +
        'export const uses = (s: ServiceSchema) => toCsv([], { schema: s });\n',
    });
    assert.deepEqual(await lint(files), []);
    const r = await tsc();
    assert.equal(r.status, 0, r.out);
  });

  it('the webview project refuses a file outside its set: TS6307', async () => {
    write({
      'core/client/zz-outside-target.ts': '',
      'webview/zz-outside.ts':
        "import { target } from '../core/client/zz-outside-target';\nexport const uses = target;\n",
    });
    const r = await tsc();
    assert.notEqual(r.status, 0, r.out);
    assert.equal(
      r.out.trim(),
      "src/webview/zz-outside.ts(1,24): error TS6307: File '" +
        path.join(tmp, 'src/core/client/zz-outside-target.ts') +
        "' is not listed within the file list of project '" +
        path.join(tmp, 'src/webview/tsconfig.json') +
        "'. Projects must list all files or use an 'include' pattern.",
    );
  });

  it('the webview project has no Node types: TS2591', async () => {
    write({ 'webview/zz-node.ts': 'export const env = process.env.HOME;\n' });
    const r = await tsc();
    assert.notEqual(r.status, 0, r.out);
    assert.match(r.out, /^src\/webview\/zz-node\.ts\(1,20\): error TS2591: Cannot find name 'process'/m);
    assert.equal(r.out.match(/error TS/g)?.length, 1, r.out);
  });
});
