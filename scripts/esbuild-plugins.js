// esbuild plugins that keep the extension bundle small (docs/decisions/2026-11-22-bundle-size.md).
// Shared by esbuild.js and the unit test that loads a production build (test/unit/bundle).
const fs = require('fs');
const path = require('path');

/** A plugin resolving files whose path matches `filter` to the fixed `contents`. */
function stub(name, filter, contents) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: name }));
      build.onLoad({ filter: /.*/, namespace: name }, () => ({ contents, loader: 'js' }));
    },
  };
}

/**
 * undici embeds its HTTP parser twice, as SIMD and as plain WebAssembly (~72 KB each, base64 in JS).
 * Den keeps only the plain one: undici tries SIMD first and falls back to it when the module is
 * missing.
 */
const dropSimdParser = stub('den-empty', /llhttp_simd-wasm\.js$/, 'module.exports = undefined;');

/**
 * For the shipped bundle only: the plain parser becomes a binary `llhttp.wasm` next to the bundle,
 * read when the first request is made (data next to the code, not 72 KB of base64 inside it).
 * The rest leaves out code Den never reaches, each replaced by a module that throws if it ever is:
 * - undici's HTTP/2 client: Den never enables `allowH2`, so ALPN never picks h2.
 * - undici's fetch/web layer (webidl, FormData, its parser, data: URLs, ~42 KB): only reached from
 *   client-h1 when a request body is a FormData; Den sends strings and async iterables.
 * - undici's SOCKS5 proxy agent (with its client, ~11 KB): ProxyAgent constructs it only for a
 *   socks5:/socks: proxy URL, which `proxyFor` refuses first (http:// and https:// proxies only).
 * - ws's server, stream wrapper and subprotocol parser: `ws` resolves to its WebSocket client class
 *   (what `import WebSocket from 'ws'` yields anyway; the index only adds static properties).
 * - llhttp's constants (~10 KB of tables for the parser's generator): undici's HTTP/1.1 client reads
 *   only its `ERROR` and `TYPE` codes, which are copied from the installed module at build time.
 * - undici's diagnostics module keeps its diagnostics channels (names copied from the installed
 *   module at build time) and drops the `NODE_DEBUG=undici` console tracing built on them (~2 KB).
 * - ws's permessage-deflate extension and its header parser (~8 KB): Den's client sets
 *   `perMessageDeflate: false`, so ws never constructs the extension, offers none, and aborts the
 *   handshake of a server that answers with one before it would parse the header. Only the
 *   extension's name is read (to look it up in the socket's empty extension table).
 */
const slimUndici = {
  name: 'slim-undici',
  setup(build) {
    build.onResolve({ filter: /llhttp-wasm\.js$/ }, (args) => ({ path: args.path, namespace: 'den-wasm' }));
    build.onLoad({ filter: /.*/, namespace: 'den-wasm' }, () => ({
      contents:
        "module.exports = require('fs').readFileSync(require('path').join(__dirname, 'llhttp.wasm'));",
      loader: 'js',
    }));
    for (const p of [
      stub(
        'den-no-h2',
        /client-h2\.js$/,
        "module.exports = function connectH2() { throw new Error('HTTP/2 is not enabled in Den'); };",
      ),
      stub(
        'den-no-fetch-body',
        /[\\/]web[\\/]fetch[\\/]body\.js$/,
        "exports.extractBody = function extractBody() { throw new Error('FormData request bodies are not included in Den'); };",
      ),
      stub(
        'den-no-socks',
        /socks5-proxy-agent(\.js)?$/,
        "module.exports = class Socks5ProxyAgent { constructor() { throw new Error('SOCKS proxies are not supported by Den: use an http:// or https:// proxy'); } };",
      ),
    ])
      p.setup(build);
    build.onResolve({ filter: /[\\/]llhttp[\\/]constants(\.js)?$/ }, (args) =>
      /undici[\\/]lib[\\/]dispatcher$/.test(path.dirname(args.importer))
        ? { path: 'llhttp-constants', namespace: 'den-llhttp' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'den-llhttp' }, () => {
      const { ERROR, TYPE } = require('undici/lib/llhttp/constants.js');
      return { contents: `module.exports = ${JSON.stringify({ ERROR, TYPE })};`, loader: 'js' };
    });
    build.onResolve({ filter: /[\\/]diagnostics(\.js)?$/ }, (args) =>
      /undici[\\/]lib[\\/](core|dispatcher)$/.test(path.dirname(args.importer))
        ? { path: 'undici-diagnostics', namespace: 'den-diagnostics' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'den-diagnostics' }, () => {
      const { channels } = require('undici/lib/core/diagnostics.js');
      const names = Object.fromEntries(Object.entries(channels).map(([k, c]) => [k, c.name]));
      return {
        contents:
          "const dc = require('node:diagnostics_channel');\n" +
          `const names = ${JSON.stringify(names)};\n` +
          'module.exports = { channels: Object.fromEntries(Object.entries(names).map(([k, n]) => [k, dc.channel(n)])) };',
        loader: 'js',
      };
    });
    const wsLib = path.join(path.dirname(require.resolve('ws/package.json')), 'lib');
    const wsStubs = {
      './permessage-deflate':
        "module.exports = class PerMessageDeflate { static get extensionName() { return 'permessage-deflate'; } constructor() { throw new Error('WebSocket compression is off in Den'); } };",
      './extension':
        "exports.format = exports.parse = function () { throw new Error('WebSocket extensions are off in Den'); };",
    };
    build.onResolve({ filter: /^\.\/(permessage-deflate|extension)$/ }, (args) =>
      path.dirname(args.importer) === wsLib ? { path: args.path, namespace: 'den-ws-stub' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'den-ws-stub' }, (args) => ({
      contents: wsStubs[args.path],
      loader: 'js',
    }));
    build.onResolve({ filter: /^ws$/ }, () => ({
      path: require.resolve('ws/package.json').replace(/package\.json$/, path.join('lib', 'websocket.js')),
    }));
    build.onEnd(() => {
      const out = build.initialOptions.outfile ?? path.join('dist', 'extension.js');
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(
        path.join(path.dirname(out), 'llhttp.wasm'),
        require('undici/lib/llhttp/llhttp-wasm.js'),
      );
    });
  },
};

/** An extension-host bundle: CommonJS for Node 20, `vscode` from the host. */
function hostBundle(entry, { production, outfile, metafile = false, plugins = [] }) {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    outfile,
    plugins,
    metafile,
    minify: production,
    sourcemap: !production,
    logLevel: 'warning',
  };
}

/**
 * Pure modules that only some actions reach (merging a file on apply, a session as Markdown, a web
 * task's checks, comparison, exports and JSON Schema conversion): they are built into `cold.js`
 * beside the activation bundle and loaded on their first call (docs/decisions/2026-11-24-cold-bundle.md).
 * Each must be pure: no state of its own that the rest of Den shares (the l10n bundle is shared
 * through `globalThis`, see src/core/shared/l10n.ts), no class the rest of Den checks with `instanceof`.
 */
const COLD_MODULES = [
  'src/core/merge/merge.ts',
  'src/core/transcript/markdown-export.ts',
  'src/core/webtasks/compare.ts',
  'src/core/webtasks/writers.ts',
  'src/core/webtasks/result-check.ts',
  'src/core/webtasks/json-schema.ts',
];
const ROOT = path.join(__dirname, '..');
const COLD_FILE = 'cold.js';

/** The cold bundle's build options: one namespace per module (`m0`, `m1`…), in COLD_MODULES order. */
function coldBuildOptions({ production, outfile, metafile = false }) {
  const { entryPoints: _entry, ...base } = hostBundle('', { production, outfile, metafile });
  return {
    ...base,
    stdin: {
      contents: COLD_MODULES.map((m, i) => `export * as m${i} from ${JSON.stringify(`./${m}`)};`).join('\n'),
      resolveDir: ROOT,
      sourcefile: 'cold-entry.ts',
      loader: 'ts',
    },
  };
}

/**
 * Builds `cold.js` next to the bundle being built (before it), and makes every import of a cold
 * module in that bundle a stand-in whose exports are getters: the first read of one `require`s
 * `./cold.js` (synchronously, once). The stand-in defines every export the module has, read from
 * the built cold bundle, so no import can come out undefined.
 */
function coldModules({ production }) {
  const cold = new Map(COLD_MODULES.map((m, i) => [path.join(ROOT, m), i]));
  let names = [];
  return {
    name: 'den-cold-modules',
    setup(build) {
      build.onStart(async () => {
        const outfile = path.resolve(path.dirname(build.initialOptions.outfile), COLD_FILE);
        await require('esbuild').build(coldBuildOptions({ production, outfile }));
        if (production) await compactBundle(outfile);
        // Read its export names, and leave it out of this process's module cache again (a later
        // require must load the file as built then).
        delete require.cache[require.resolve(outfile)];
        const built = require(outfile);
        delete require.cache[require.resolve(outfile)];
        names = COLD_MODULES.map((_, i) => Object.keys(built[`m${i}`]));
      });
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const file = path.resolve(args.resolveDir, `${args.path}.ts`);
        const index = cold.get(file);
        return index === undefined ? undefined : { path: String(index), namespace: 'den-cold' };
      });
      build.onResolve({ filter: /^den-cold-load$/ }, () => ({ path: 'load', namespace: 'den-cold-load' }));
      build.onResolve({ filter: /^\.\/cold\.js$/, namespace: 'den-cold-load' }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'den-cold-load' }, () => ({
        contents: `let m; module.exports = () => (m ??= require(${JSON.stringify(`./${COLD_FILE}`)}));`,
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: 'den-cold' }, (args) => ({
        contents:
          `const load = require('den-cold-load');\n` +
          `Object.defineProperty(exports, '__esModule', { value: true });\n` +
          `for (const k of ${JSON.stringify(names[Number(args.path)])}) ` +
          `Object.defineProperty(exports, k, { enumerable: true, get: () => load().m${args.path}[k] });`,
        loader: 'js',
        resolveDir: ROOT,
      }));
    },
  };
}

/**
 * The extension-host bundle's build options (esbuild.js builds dist/extension.js with them; the
 * bundle test builds the same thing elsewhere to check its size).
 */
function extensionBuildOptions({ production, outfile = path.join('dist', 'extension.js'), metafile }) {
  return hostBundle('src/extension.ts', {
    production,
    outfile,
    metafile,
    plugins: [dropSimdParser, slimUndici, coldModules({ production })],
  });
}

/**
 * The integrations bundle (the chat participant and the language model tools), loaded by the
 * extension on first use: it reaches Den only through the public API object it is handed, so it
 * shares no module with dist/extension.js (docs/decisions/2026-11-24-integrations-bundle.md).
 */
function integrationsBuildOptions({ production, outfile = path.join('dist', 'integrations.js'), metafile }) {
  return hostBundle('src/editor/integrations/main.ts', { production, outfile, metafile });
}

/**
 * A second minifying pass over a production bundle, in place: terser's compressor (two passes, no
 * `unsafe` option) and mangler, top level included, on top of esbuild's output save about 1 % more
 * (docs/decisions/2026-11-22-bundle-size.md). Non-ASCII text is kept as UTF-8, not `\uXXXX`.
 */
async function compactBundle(file) {
  const { minify } = require('terser');
  const out = await minify(fs.readFileSync(file, 'utf8'), {
    ecma: 2020,
    // A CommonJS bundle's top level is its module scope: its names can be shortened too.
    toplevel: true,
    compress: { passes: 2 },
    mangle: true,
    format: { ascii_only: false, comments: false },
  });
  fs.writeFileSync(file, out.code);
}

module.exports = {
  dropSimdParser,
  slimUndici,
  extensionBuildOptions,
  integrationsBuildOptions,
  coldBuildOptions,
  coldModules,
  COLD_MODULES,
  compactBundle,
};
