#!/usr/bin/env bash
# The workbench benchmark in one command (`npm run bench:workbench`), from a fresh clone: installs
# the npm dependencies when missing, code-server and Chromium (scripts/setup-code-server.sh, apt as
# needed, idempotent), builds and packages dist/den.vsix, then runs `bench/workbench.ts`
# (`npm run bench -- workbench`). Prints each figure with its floor; writes dist/bench/workbench.json.
#   DEN_BENCH_RUNS=N       live runs per condition (default 3)
#   DEN_BENCH_PARTS=a,b    which parts: tree,live,burst,open,heap (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
bash scripts/setup-code-server.sh
npm run --silent package > /dev/null
node esbuild.js --tests
node --expose-gc dist/bench/run.js workbench
