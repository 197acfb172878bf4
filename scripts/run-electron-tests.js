// @ts-check
// `npm run test:electron`: the same integration suite as `npm run test:ext`, in desktop VS Code
// downloaded by @vscode/test-electron. For machines that can reach the VS Code download site;
// CI here cannot, so it runs the suite inside code-server instead (scripts/run-ext-tests.sh).
// VSCODE_VERSION picks the version (default: the one engines.vscode allows, 1.139.1).
const path = require('path');
const { runTests } = require('@vscode/test-electron');

async function main() {
  const root = path.resolve(__dirname, '..');
  const workspace = require('fs').mkdtempSync(path.join(require('os').tmpdir(), 'den-electron-ws-'));
  process.env.DEN_SUITE = 'ext';
  const code = await runTests({
    version: process.env.VSCODE_VERSION || '1.139.1',
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'dist', 'test', 'ext', 'index'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
  process.exit(code);
}

main().catch((err) => {
  console.error(`electron tests could not run: ${err && err.message ? err.message : err}`);
  process.exit(1);
});
