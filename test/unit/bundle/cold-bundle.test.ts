/**
 * The cold bundle (dist/cold.js): pure modules only some actions reach, loaded on their first call
 * (docs/decisions/2026-11-24-cold-bundle.md). Built with the shipped plugins, as `npm run package`
 * builds them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { merge3 } from '../../../src/core/files/merge';
import { transcriptToMarkdown } from '../../../src/core/transcript/markdown-export';
import { createTranscript } from '../../../src/core/transcript/reducer';
import { toCsv } from '../../../src/core/webtask/writers';

interface Plugins {
  extensionBuildOptions: (o: {
    production: boolean;
    outfile: string;
    metafile: boolean;
  }) => esbuild.BuildOptions;
  coldBuildOptions: (o: { production: boolean; outfile: string; metafile: boolean }) => esbuild.BuildOptions;
  coldModules: (o: { production: boolean }) => esbuild.Plugin;
  COLD_MODULES: string[];
}

describe('the cold bundle @build', function () {
  this.timeout(120_000);
  let dir: string;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const plugins = require(path.resolve('scripts/esbuild-plugins.js')) as Plugins;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-cold-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the activation bundle holds none of the cold modules, and cold.js is built beside it', async () => {
    const r = await esbuild.build({
      ...plugins.extensionBuildOptions({
        production: true,
        outfile: path.join(dir, 'extension.js'),
        metafile: true,
      }),
      logLevel: 'silent',
    });
    const inputs = Object.keys(r.metafile?.inputs ?? {});
    assert.ok(inputs.includes('src/extension.ts'), inputs.slice(0, 5).join(', '));
    assert.deepEqual(
      inputs.filter((f) => plugins.COLD_MODULES.includes(f)),
      [],
    );
    // Each cold module Den imports is a stand-in in its place.
    assert.ok(inputs.filter((f) => f.startsWith('den-cold:')).length >= 4, inputs.join(', '));
    assert.ok(fs.existsSync(path.join(dir, 'cold.js')));
  });

  it('holds the cold modules and only pure core modules: no package, no stateful part of Den', async () => {
    const r = await esbuild.build({
      ...plugins.coldBuildOptions({
        production: true,
        outfile: path.join(dir, 'cold-only.js'),
        metafile: true,
      }),
      logLevel: 'silent',
    });
    const inputs = Object.keys(r.metafile?.inputs ?? {}).filter((f) => f !== 'cold-entry.ts');
    for (const m of plugins.COLD_MODULES) assert.ok(inputs.includes(m), `${m} is not in cold.js`);
    const pure =
      /^src\/core\/(files\/(merge|line-diff|text)|transcript\/(markdown-export|model)|webtask\/[\w-]+|schema|l10n)\.ts$/;
    assert.deepEqual(
      inputs.filter((f) => !pure.test(f)),
      [],
    );
  });

  it('a cold module loads on its first call, once, and answers as the source does', async () => {
    const outfile = path.join(dir, 'probe', 'probe.js');
    await esbuild.build({
      stdin: {
        contents: [
          "export { merge3 } from './src/core/files/merge';",
          "export { transcriptToMarkdown } from './src/core/transcript/markdown-export';",
          "export { toCsv } from './src/core/webtask/writers';",
        ].join('\n'),
        resolveDir: path.resolve('.'),
        sourcefile: 'probe-entry.ts',
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile,
      plugins: [plugins.coldModules({ production: false })],
      logLevel: 'silent',
    });
    const coldFile = path.join(dir, 'probe', 'cold.js');
    assert.ok(fs.existsSync(coldFile));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const probe = require(outfile) as {
      merge3: typeof merge3;
      transcriptToMarkdown: typeof transcriptToMarkdown;
      toCsv: typeof toCsv;
    };
    assert.equal(require.cache[coldFile], undefined, 'cold.js was loaded before any call');
    const input = { base: 'a\nb\nc\n', ours: 'a\nB\nc\n', theirs: 'a\nb\nC\n' };
    assert.deepEqual(probe.merge3(input), merge3(input));
    assert.ok(require.cache[coldFile], 'cold.js was not loaded by the call');
    const records = [{ name: 'x, "y"', price: 3 }];
    assert.equal(probe.toCsv(records), toCsv(records));
    const t = createTranscript('s-1', 'A title');
    assert.equal(probe.transcriptToMarkdown(t), transcriptToMarkdown(t));
    // A name the module does not export is not invented.
    assert.equal((probe as unknown as Record<string, unknown>).nothing, undefined);
  });
});
