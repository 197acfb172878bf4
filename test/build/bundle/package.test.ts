// What `npm run package` ships and declares: the .vsix's file list (`vsce ls`, the same computation
// `vsce package` makes) holds only what runs or is shown, and the manifest is ready to publish with
// stable API only; and it stays within 1 MB.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import * as esbuild from 'esbuild';

interface Manifest {
  name: string;
  publisher: string;
  icon?: string;
  license?: string;
  repository?: { url?: string };
  bugs?: { url?: string };
  galleryBanner?: { color?: string; theme?: string };
  categories?: string[];
  keywords?: string[];
  engines: { vscode: string };
  extensionKind?: string[];
  enabledApiProposals?: unknown;
  activationEvents?: string[];
  contributes: {
    walkthroughs?: unknown[];
    chatParticipants?: { id: string; name: string }[];
    languageModelTools?: { name: string }[];
    languageModelChatProviders?: unknown;
    keybindings?: { command: string; key: string; when?: string }[];
  };
}

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as Manifest;

let shipped: string[] | undefined;
/** The files `vsce ls` lists: what `vsce package` puts in the .vsix. */
function shippedFiles(): string[] {
  const vsce = path.join('node_modules', '.bin', 'vsce');
  return (shipped ??= execFileSync(vsce, ['ls', '--no-dependencies'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .sort());
}

type BuildOptions = (o: { production: boolean; outfile: string }) => esbuild.BuildOptions;

describe('the package (.vsix)', function () {
  this.timeout(60_000);

  it('stays within 1 MB: every shipped file deflated, the host bundles built as `npm run package` builds them', async () => {
    // The .vsix is a zip: each file deflated, plus headers. The extension host's bundles are built
    // here minified (dist/ holds the test build); the other files are taken as they are in dist/
    // (unminified webviews: more than they will weigh).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const scripts = require(path.resolve('scripts/esbuild-plugins.js')) as Record<string, BuildOptions>;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-vsix-'));
    try {
      const built = new Map<string, string>();
      for (const [name, options] of [
        ['extension.js', 'extensionBuildOptions'],
        ['net.js', 'netBuildOptions'],
        ['integrations.js', 'integrationsBuildOptions'],
      ]) {
        const outfile = path.join(dir, name);
        await esbuild.build({ ...scripts[options]({ production: true, outfile }), logLevel: 'silent' });
        built.set(`dist/${name}`, outfile);
      }
      let bytes = 0;
      for (const f of shippedFiles()) {
        bytes += deflateRawSync(fs.readFileSync(built.get(f) ?? f), { level: 9 }).length + 2 * f.length + 100;
      }
      // vsce adds its manifest and content types (a few KB).
      bytes += 5_000;
      assert.ok(bytes <= 1_000_000, `the .vsix would be about ${bytes.toLocaleString('en-US')} bytes`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ships only the bundles, media, the manifest, README, CHANGELOG and LICENSE', () => {
    const files = shippedFiles();
    const allowed = [
      /^package\.(nls\.)?json$/,
      /^README\.md$/,
      /^CHANGELOG\.md$/,
      /^LICENSE$/,
      /^dist\/(extension|net|integrations|webview|webtask|search)\.js$/,
      /^media\/[\w./-]+\.(css|svg|png|json|md)$/,
      /^l10n\/bundle\.l10n\.json$/,
    ];
    const unexpected = files.filter((f) => !allowed.some((re) => re.test(f)));
    assert.deepEqual(unexpected, [], `shipped but not needed: ${unexpected.join(', ')}`);
    for (const needed of [
      'dist/extension.js',
      'dist/net.js',
      'dist/integrations.js',
      'dist/webview.js',
      'dist/webtask.js',
      'dist/search.js',
      'CHANGELOG.md',
    ])
      assert.ok(files.includes(needed), `${needed} is not shipped`);
    assert.ok(!files.some((f) => /\.map$|^src\/|^test\/|node_modules/.test(f)), files.join(', '));
  });

  it('localizes the manifest: every person-facing string is a %key% of package.nls.json, and every key is used', () => {
    const text = fs.readFileSync('package.json', 'utf8');
    const nls = JSON.parse(fs.readFileSync('package.nls.json', 'utf8')) as Record<string, string>;
    const used = new Set([...text.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]));
    assert.deepEqual(
      [...used].filter((k) => nls[k] === undefined),
      [],
      'placeholders without a string',
    );
    assert.deepEqual(
      Object.keys(nls).filter((k) => !used.has(k)),
      [],
      'strings no placeholder uses',
    );
    // the fields a person reads, wherever they are in contributes
    const literal: string[] = [];
    const walk = (v: unknown, at: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          const person =
            /^(title|shortTitle|category|description|markdownDescription|name|contextualTitle|contents|displayName|userDescription|fullName|patternErrorMessage|enumDescriptions)$/;
          if (person.test(k) && typeof x === 'string' && !/^%[^%]+%$/.test(x)) literal.push(`${at}.${k}`);
          if (k === 'enumDescriptions' && Array.isArray(x))
            x.forEach(
              (d, i) => typeof d === 'string' && !/^%[^%]+%$/.test(d) && literal.push(`${at}.${k}[${i}]`),
            );
          if (k !== 'inputSchema') walk(x, `${at}.${k}`);
        }
    };
    walk(manifest.contributes, 'contributes');
    // a chat command's and a tool's `name` are identifiers, not words
    assert.deepEqual(
      literal.filter(
        (f) => !/(chatParticipants\[\d+\](\.commands\[\d+\])?|languageModelTools\[\d+\])\.name$/.test(f),
      ),
      [],
    );
  });

  it('declares a publishable manifest: stable API only, an icon, listing fields, a workspace extension kind', () => {
    assert.equal(manifest.enabledApiProposals, undefined, 'proposed API cannot be published');
    assert.equal(manifest.engines.vscode, '^1.138.0');
    assert.deepEqual(manifest.extensionKind, ['workspace']);
    assert.ok(
      manifest.license && manifest.repository?.url && manifest.bugs?.url,
      'license, repository, bugs',
    );
    assert.ok(manifest.galleryBanner?.color && manifest.galleryBanner.theme, 'gallery banner');
    assert.ok((manifest.categories ?? []).length > 0 && (manifest.keywords ?? []).length >= 3);
    assert.ok((manifest.contributes.walkthroughs ?? []).length === 1, 'the walkthrough');
    // the chat participant and the language model tools are stable API; no model is shipped
    assert.deepEqual(
      manifest.contributes.chatParticipants?.map((p) => `${p.id} @${p.name}`),
      ['den.agent @den'],
    );
    assert.deepEqual(
      manifest.contributes.languageModelTools?.map((t) => t.name),
      ['den_delegateTask', 'den_sessionStatus', 'den_runWebTask'],
    );
    assert.equal(manifest.contributes.languageModelChatProviders, undefined, 'a stub model must never ship');
    // keyboard shortcuts for the main commands; one chord means one command in any context
    const keys = manifest.contributes.keybindings ?? [];
    assert.deepEqual(keys.map((k) => k.command).sort(), [
      'den.acceptHunk',
      'den.askAboutSelection',
      'den.keepSessionOpen',
      'den.newSession',
      'den.nextHunk',
      'den.previousHunk',
      'den.rejectHunk',
      'den.sendFileToAgent',
      'den.showTurnOutline',
    ]);
    // the outline's chord (Go to Symbol's) only while a Session panel is the active editor
    assert.deepEqual(
      keys.filter((k) => k.command === 'den.showTurnOutline').map((k) => k.when),
      ["activeWebviewPanelId == 'den.session'"],
    );
    // the hunk keys only where an agent's file (the review diff's right side) has the focus, or a
    // file of Review Changes' multi-file diff (den.hunkReview: resourceScheme does not name it there)
    for (const k of keys.filter((k) => /Hunk$/.test(k.command))) {
      assert.equal(
        k.when,
        'editorTextFocus && resourceScheme == den-session || editorTextFocus && den.hunkReview',
        k.command,
      );
    }
    const chords = keys.map((k) => k.key);
    assert.equal(new Set(chords).size, chords.length - 1, 'only ctrl+alt+a is shared (by context)');
    const ctrlAltA = keys.filter((k) => k.key === 'ctrl+alt+a').map((k) => k.when);
    assert.deepEqual(ctrlAltA, [
      'editorHasSelection && den.signedIn',
      'editorTextFocus && !editorHasSelection && den.signedIn',
    ]);
    // the icon: a 128×128 PNG (the IHDR chunk's width and height)
    assert.ok(manifest.icon);
    const png = fs.readFileSync(manifest.icon);
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  });
});
