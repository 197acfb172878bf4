// Builds Den. Default: the extension-host bundle and the webview bundle.
//   --production  minified bundles, no source maps (used by `npm run package`)
//   --tests       also transpiles test/, bench/ and src/ file by file into dist/ for mocha and benches
//   --watch       rebuild on change
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const tests = args.has('--tests');
const watch = args.has('--watch');

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

/**
 * undici embeds its HTTP parser twice, as SIMD and as plain WebAssembly (~72 KB each). Den keeps
 * only the plain one: undici tries SIMD first and falls back to it when the module is missing.
 * See docs/decisions/2026-11-22-bundle-size.md.
 */
const dropSimdParser = {
  name: 'drop-undici-simd-parser',
  setup(build) {
    build.onResolve({ filter: /llhttp_simd-wasm\.js$/ }, (args) => ({
      path: args.path,
      namespace: 'den-empty',
    }));
    build.onLoad({ filter: /.*/, namespace: 'den-empty' }, () => ({
      contents: 'module.exports = undefined;',
      loader: 'js',
    }));
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const configs = [];
if (fs.existsSync('src/extension.ts')) {
  configs.push({
    entryPoints: ['src/extension.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    outfile: 'dist/extension.js',
    plugins: [dropSimdParser],
    metafile: true,
    minify: production,
    sourcemap: !production,
    logLevel: 'warning',
  });
}
if (fs.existsSync('src/webview/main.ts')) {
  configs.push({
    entryPoints: ['src/webview/main.ts'],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    outfile: 'dist/webview.js',
    minify: production,
    sourcemap: !production,
    logLevel: 'warning',
  });
}
if (tests) {
  configs.push({
    entryPoints: [...listTs('src'), ...listTs('test'), ...listTs('bench')].filter(
      // test/ext is bundled below instead (same output paths)
      (f) => !f.startsWith('src/webview') && !f.startsWith('test/ext/'),
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
  // Extension-host integration tests: one bundle per test/ext/*.ts, loaded by code-server's extension
  // host (`extensionTestsPath` = dist/test/ext/index); `vscode` comes from the host, mocha from node_modules.
  configs.push({
    entryPoints: listTs('test/ext').filter((f) => path.dirname(f) === 'test/ext'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    plugins: [dropSimdParser],
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
  await Promise.all(configs.map((c) => esbuild.build(c)));
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
