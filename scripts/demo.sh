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
node esbuild.js --tests
npm run --silent package >/dev/null
exec node dist/test/harness/demo.js
