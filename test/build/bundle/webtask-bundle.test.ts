import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = join(__dirname, '../../../..');

describe('web task page: the bundle', function () {
  this.timeout(60_000);

  it('builds as the package does (minified) far below 300 KB, from the webview-safe folders only', async () => {
    const r = await esbuild.build({
      entryPoints: [join(ROOT, 'src/webview/webtask-panel/main.ts')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      minify: true,
      write: false,
      metafile: true,
      absWorkingDir: ROOT,
      logLevel: 'silent',
    });
    const bytes = r.outputFiles[0].contents.length;
    assert.ok(bytes < 150_000, `dist/webtask.js would be ${bytes} bytes`);
    const outside = Object.keys(r.metafile.inputs).filter(
      (f) =>
        !/^src\/(webview\/(shared|webtask-panel)|protocol|core\/webtasks|core\/transcript)\/|^src\/core\/(shared\/(schema|l10n|format)|client\/types)\.ts$/.test(
          f,
        ),
    );
    assert.deepEqual(outside, []);
  });
});
