#!/usr/bin/env bash
# Integration tests inside the real VS Code extension host (code-server 4.139.1 = VS Code 1.139.1):
# builds, then test/harness/ext-runner.ts starts code-server and Chromium and runs dist/test/ext.
# Prints "N passed, N failed"; appends the totals to $DEN_RESULT_FILE when set; non-zero on any failure.
# Needs scripts/setup-code-server.sh to have run (CS_HOME as there).
#   DEN_EXT_BUILT=1  dist/ is built already (scripts/test-all.sh: other tiers read it meanwhile)
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s%N)
if [ "${DEN_EXT_BUILT:-}" != 1 ] && ! node esbuild.js --tests; then
  echo "ext: build failed"
  [ -n "${DEN_RESULT_FILE:-}" ] && echo '{"suite":"ext","passed":0,"failed":1,"pending":0}' >> "$DEN_RESULT_FILE"
  echo "0 passed, 1 failed"
  exit 1
fi
DEN_METRICS_FILE=$(mktemp)
export DEN_METRICS_FILE
node dist/test/harness/ext-runner.js
rc=$?
[ -s "$DEN_METRICS_FILE" ] && sed 's/^/ext metric: /' "$DEN_METRICS_FILE"
rm -f "$DEN_METRICS_FILE"
echo "run-ext-tests wall time: $(( ($(date +%s%N) - start) / 1000000 )) ms (rc=$rc)"
exit $rc
