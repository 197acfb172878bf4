#!/usr/bin/env bash
# The README's first command: installs what is needed, builds and packages Den, and starts the
# local emulator of the service on loopback so a person can try Den without an account.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${DEN_DEMO_PORT:-7357}"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
node esbuild.js --tests
npm run --silent package >/dev/null
echo
echo "Den is packaged: $(pwd)/dist/den.vsix"
echo "Install it in VS Code: Extensions view → … → Install from VSIX…, or: code --install-extension dist/den.vsix"
echo "Then set the setting den.baseUrl to the URL below and run 'Den: Set API Key' with the key below."
echo
exec node dist/test/emulator/cli.js --port "$PORT"
