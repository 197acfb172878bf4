#!/usr/bin/env bash
# The README's first command (`npm run demo`): installs what is needed (npm dependencies; Node 24,
# code-server and Chromium's libraries via scripts/setup-code-server.sh), builds and packages Den,
# then runs the local emulator of the service plus code-server with Den installed and configured
# against it, on 127.0.0.1. Prints the URL to open. Ctrl+C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
bash scripts/setup-code-server.sh
# Builds and packages unless that was done after the last change to anything it is made from (a
# second start is quicker, and "npm test" runs this beside tests that read dist/ and must not see it
# rewritten). The package first: its production bundles are then replaced by the test build's.
built() {
  local older=dist/den.vsix
  [ -f dist/den.vsix ] && [ -f dist/test/harness/demo.js ] || return 1
  [ dist/test/harness/demo.js -nt dist/den.vsix ] || older=dist/test/harness/demo.js
  [ -z "$(find src media test l10n scripts package.json package.nls*.json package-lock.json esbuild.js \
    tsconfig.json .vscodeignore README.md LICENSE CHANGELOG.md -newer "$older" -print -quit 2>/dev/null)" ]
}
if ! built; then
  npm run --silent package >/dev/null
  node esbuild.js --tests
fi
exec node dist/test/harness/demo.js
