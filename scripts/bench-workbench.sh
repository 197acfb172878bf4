#!/usr/bin/env bash
# The workbench benchmark in one command (`npm run bench:workbench`), from a fresh clone: installs
# the npm dependencies when missing, code-server and Chromium (scripts/setup-code-server.sh, apt as
# needed, idempotent), builds and packages dist/den.vsix, then runs `bench/workbench.ts`
# (`npm run bench -- workbench`). Prints each figure with its floor; writes dist/bench/workbench.json.
#   DEN_BENCH_RUNS=N       live runs per condition (default 3)
#   DEN_BENCH_PARTS=a,b    which parts: tree,floor,live,burst,switch,open,heap (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
# Installs only when what is installed does not match package.json (`npm ls` fails). Not by file
# times: a fresh worktree's package-lock.json is newer than any install, and when its node_modules is
# a link to another checkout's, `npm ci` there empties that checkout's node_modules.
if [ ! -d node_modules ] || ! npm ls --depth=0 > /dev/null 2>&1; then
  npm ci --no-audit --no-fund
fi
bash scripts/setup-code-server.sh
npm run --silent package > /dev/null
node esbuild.js --tests
node --expose-gc dist/bench/run.js workbench
