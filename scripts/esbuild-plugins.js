// @ts-check
// The extension host's bundles, shared by esbuild.js and the unit tests that build them
// (test/unit/bundle). Dependencies are bundled whole, as published: no stub, no private file.
const path = require('path');

/**
 * @typedef {{ production: boolean, outfile?: string, metafile?: boolean }} BundleArgs
 */

/**
 * An extension-host bundle: CommonJS for Node 20, `vscode` from the host.
 * @param {string} entry
 * @param {BundleArgs & { plugins?: import('esbuild').Plugin[] }} args
 * @returns {import('esbuild').BuildOptions}
 */
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
 * The one boundary to the network code: src/core/client/lazy-net.ts loads `./net.js` on the first
 * request or socket. In a bundle that `require` stays as written, so it loads dist/net.js (built
 * beside the bundle by `netBuildOptions`) instead of bundling undici and ws into the activation
 * bundle (docs/decisions/2026-11-27-activation-not-bytes.md).
 */
const NET_FILE = 'net.js';
/** @type {import('esbuild').Plugin} */
const lazyNet = {
  name: 'den-lazy-net',
  setup(build) {
    build.onResolve({ filter: /^\.\/net\.js$/ }, (args) =>
      path.basename(args.importer) === 'lazy-net.ts' ? { path: args.path, external: true } : undefined,
    );
  },
};

/**
 * The extension-host bundle's build options (esbuild.js builds dist/extension.js with them; the
 * bundle tests build the same thing elsewhere). Its network code is dist/net.js.
 */
/** @param {BundleArgs} args */
function extensionBuildOptions({ production, outfile = path.join('dist', 'extension.js'), metafile }) {
  return hostBundle('src/extension.ts', { production, outfile, metafile, plugins: [lazyNet] });
}

/** The network bundle (undici and ws), dist/net.js: loaded by the first request or socket. */
/** @param {BundleArgs} args */
function netBuildOptions({ production, outfile = path.join('dist', NET_FILE), metafile }) {
  return hostBundle('src/core/client/net.ts', { production, outfile, metafile });
}

/**
 * The integrations bundle (the chat participant and the language model tools), loaded by the
 * extension on first use: it reaches Den only through the public API object it is handed, so it
 * shares no module with dist/extension.js (docs/decisions/2026-11-24-integrations-bundle.md).
 */
/** @param {BundleArgs} args */
function integrationsBuildOptions({ production, outfile = path.join('dist', 'integrations.js'), metafile }) {
  return hostBundle('src/editor/integrations/main.ts', { production, outfile, metafile });
}

module.exports = {
  lazyNet,
  NET_FILE,
  extensionBuildOptions,
  netBuildOptions,
  integrationsBuildOptions,
};
