/**
 * The integrations bundle (dist/integrations.js: the chat participant and the language model tools)
 * is loaded on first use and reaches Den only through the public API object it is handed
 * (docs/decisions/2026-11-24-integrations-bundle.md). Built as `npm run package` builds it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';

interface Plugins {
  extensionBuildOptions: (o: {
    production: boolean;
    outfile: string;
    metafile: boolean;
  }) => esbuild.BuildOptions;
  integrationsBuildOptions: (o: {
    production: boolean;
    outfile: string;
    metafile: boolean;
  }) => esbuild.BuildOptions;
}

describe('the integrations bundle', function () {
  this.timeout(60_000);
  let dir: string;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const plugins = require(path.resolve('scripts/esbuild-plugins.js')) as Plugins;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-integrations-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function inputsOf(options: esbuild.BuildOptions): Promise<string[]> {
    const r = await esbuild.build({ ...options, logLevel: 'silent' });
    return Object.keys(r.metafile?.inputs ?? {});
  }

  it('holds only src/integrations (no Den module, no package: nothing shared with dist/extension.js) and stays within 30 KB', async () => {
    const outfile = path.join(dir, 'integrations.js');
    const inputs = await inputsOf(
      plugins.integrationsBuildOptions({ production: true, outfile, metafile: true }),
    );
    assert.ok(inputs.length > 3, inputs.join(', '));
    assert.deepEqual(
      inputs.filter((f) => !f.startsWith('src/editor/integrations/')),
      [],
    );
    const size = fs.statSync(outfile).size;
    assert.ok(size <= 30_000, `dist/integrations.js would be ${size} bytes`);
  });

  it('the activation bundle holds only the registration (register.ts, names.ts) of the integrations', async () => {
    const inputs = await inputsOf(
      plugins.extensionBuildOptions({
        production: true,
        outfile: path.join(dir, 'extension.js'),
        metafile: true,
      }),
    );
    assert.deepEqual(inputs.filter((f) => f.startsWith('src/editor/integrations/')).sort(), [
      'src/editor/integrations/names.ts',
      'src/editor/integrations/register.ts',
    ]);
  });
});
