#!/usr/bin/env bash
# UI end-to-end tests: the packaged extension (dist/den.vsix) in code-server 4.139.1 (VS Code 1.139.1),
# driven through Debian Chromium with playwright-core. Builds, packages, then runs
# test/harness/e2e-runner.ts (mocha in plain Node over dist/test/e2e/**/*.test.js).
# Prints "N passed, N failed"; appends the totals to $DEN_RESULT_FILE when set; non-zero on any failure.
# Screenshots go to $SHOTS (default ./shots). Needs scripts/setup-code-server.sh to have run.
#   DEN_E2E_SHARDS    how many runners take the test files from one queue, side by side (default 2; 1
#                     with DEN_E2E_GREP). Each has its own workbenches and emulators; the output of all
#                     but the first is printed when they end.
#   DEN_E2E_PACKAGED  1: dist/ and dist/den.vsix are built already (scripts/test-all.sh), do not rebuild
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s%N)
fail_build() {
  echo "e2e: $1 failed"
  [ -n "${DEN_RESULT_FILE:-}" ] && echo '{"suite":"e2e","passed":0,"failed":1,"pending":0}' >> "$DEN_RESULT_FILE"
  echo "0 passed, 1 failed"
  exit 1
}
if [ "${DEN_E2E_PACKAGED:-}" != 1 ]; then
  npm run --silent package > /tmp/den-e2e-package.$$.log 2>&1 || { cat /tmp/den-e2e-package.$$.log; rm -f /tmp/den-e2e-package.$$.log; fail_build "npm run package"; }
  rm -f /tmp/den-e2e-package.$$.log
  # the package's production bundles replaced the test build's: build the tests (and those) again
  node esbuild.js --tests || fail_build "build"
fi
shards="${DEN_E2E_SHARDS:-2}"
[ -n "${DEN_E2E_GREP:-}" ] && [ -z "${DEN_E2E_SHARDS:-}" ] && shards=1
if [ "$shards" -le 1 ]; then
  node dist/test/harness/e2e-runner.js
  rc=$?
else
  queue=$(mktemp -d)
  trap 'rm -rf "$queue"' EXIT
  logs=()
  pids=()
  for i in $(seq 2 "$shards"); do
    log=$(mktemp)
    logs+=("$log")
    DEN_E2E_QUEUE="$queue" DEN_E2E_NAME="e2e $i/$shards" node dist/test/harness/e2e-runner.js > "$log" 2>&1 &
    pids+=($!)
  done
  DEN_E2E_QUEUE="$queue" DEN_E2E_NAME="e2e 1/$shards" node dist/test/harness/e2e-runner.js
  rc=$?
  for k in "${!pids[@]}"; do
    wait "${pids[$k]}" || rc=1
    printf '\n--- e2e runner %d of %d ---\n' "$((k + 2))" "$shards"
    cat "${logs[$k]}"
    rm -f "${logs[$k]}"
  done
fi
echo "run-e2e wall time: $(( ($(date +%s%N) - start) / 1000000 )) ms (rc=$rc)"
exit $rc
