// @ts-check
// Builds Den. Default: the extension-host bundle and the webview bundle.
//   --production  minified bundles, no source maps (used by `npm run package`)
//   --tests       also transpiles test/, bench/ and src/ file by file into dist/ for mocha and benches
//   --watch       rebuild on change
//   --sizes       with --production: print what makes up dist/extension.js and dist/net.js
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const tests = args.has('--tests');
const watch = args.has('--watch');
const sizes = args.has('--sizes');

/**
 * @param {string} dir
 * @returns {string[]}
 */
function listTs(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTs(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const {
  extensionBuildOptions,
  netBuildOptions,
  integrationsBuildOptions,
} = require('./scripts/esbuild-plugins');

/** @type {import('esbuild').BuildOptions[]} */
const configs = [];
// The extension host's bundles: the activation bundle first, then the ones it loads on first use.
if (fs.existsSync('src/extension.ts')) {
  configs.push(
    extensionBuildOptions({ production, metafile: sizes }),
    netBuildOptions({ production, metafile: sizes }),
    integrationsBuildOptions({ production }),
  );
}
// The webviews' entry points: each builds its page on import (browser bundles, not unit-loadable).
const WEBVIEW_ENTRIES = [
  ['src/webview/session-panel/main.ts', 'dist/webview.js'],
  ['src/webview/webtask-panel/main.ts', 'dist/webtask.js'],
  ['src/webview/session-search/main.ts', 'dist/search.js'],
];
for (const [entry, outfile] of WEBVIEW_ENTRIES) {
  if (!fs.existsSync(entry)) continue;
  configs.push({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    outfile,
    minify: production,
    sourcemap: !production,
    logLevel: 'warning',
  });
}
if (tests) {
  // File-by-file output: a test moved or deleted would otherwise leave its old .js behind, and
  // mocha (dist/test/unit/**/*.test.js) would still run it.
  for (const dir of ['dist/src', 'dist/test', 'dist/bench']) fs.rmSync(dir, { recursive: true, force: true });
  configs.push({
    entryPoints: [...listTs('src'), ...listTs('test'), ...listTs('bench')].filter(
      // test/ext is bundled below instead (same output paths). The webview's modules touch the DOM
      // only when called, so unit tests can load them; its entry point builds the page on import.
      (f) => !WEBVIEW_ENTRIES.some(([entry]) => f === path.join(entry)) && !f.startsWith('test/ext/'),
    ),
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: 'dist',
    outbase: '.',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}

if (tests) {
  // The pipeline benchmark measures the shipping code, which runs as one minified bundle: the
  // file-by-file build above routes every call across modules through an export getter.
  configs.push({
    entryPoints: ['bench/pipeline.ts'],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: 'dist/bench/pipeline.bundle.js',
    logLevel: 'warning',
  });
  // Extension-host integration tests: one bundle per test/ext/*.ts, loaded by code-server's extension
  // host (`extensionTestsPath` = dist/test/ext/index); `vscode` comes from the host, mocha from node_modules.
  configs.push({
    entryPoints: listTs('test/ext').filter((f) => path.dirname(f) === 'test/ext'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    outdir: 'dist/test/ext',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}

(async () => {
  if (watch) {
    for (const c of configs) await (await esbuild.context(c)).watch();
    return;
  }
  const results = await Promise.all(configs.map((c) => esbuild.build(c)));
  if (sizes) {
    console.log('dist/extension.js (loaded on activation):');
    printSizes(results[0].metafile, process.env.DEN_SIZES_FILES === '1');
    console.log('dist/net.js (loaded by the first request or socket):');
    printSizes(results[1].metafile, process.env.DEN_SIZES_FILES === '1');
  }
})().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * Bytes of a bundle by input, grouped by package or src/ folder, largest first; with
 * DEN_SIZES_FILES=1, then each dependency file over 300 bytes.
 */
/**
 * @param {import('esbuild').Metafile | undefined} meta
 * @param {boolean} files
 */
function printSizes(meta, files) {
  if (!meta) return;
  /** @type {Map<string, number>} */
  const groups = new Map();
  for (const output of Object.values(meta.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = file.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
      const key = m ? m[1] : file.split('/').slice(0, 3).join('/');
      groups.set(key, (groups.get(key) ?? 0) + bytesInOutput);
    }
  }
  for (const [key, bytes] of [...groups].sort((a, b) => b[1] - a[1])) {
    console.log(`${(bytes / 1024).toFixed(1).padStart(7)} KB  ${key}`);
  }
  if (!files) return;
  const inputs = Object.values(meta.outputs).flatMap((o) => Object.entries(o.inputs));
  for (const [file, { bytesInOutput }] of inputs.sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)) {
    if (bytesInOutput > 300 && file.includes('node_modules')) {
      console.log(`${(bytesInOutput / 1024).toFixed(1).padStart(7)} KB  ${file}`);
    }
  }
}
