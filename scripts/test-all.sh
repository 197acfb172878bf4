#!/usr/bin/env bash
# The README's second command: installs what the tests need, then runs every suite.
# Ends with one line "N passed, N failed". Exit status non-zero when anything failed.
#   DEN_SKIP_INSTALL=1   skip npm ci and the code-server setup (local reruns)
#   DEN_SUITES="unit ext e2e"  which suites to run (default: all)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
suites="${DEN_SUITES:-unit ext e2e}"
results=$(mktemp)
export DEN_RESULT_FILE="$results"
status=0
trap 'rm -f "$results"' EXIT

step() { printf '\n=== %s ===\n' "$*"; }

if [ "${DEN_SKIP_INSTALL:-}" != 1 ]; then
  step "install"
  npm ci --no-audit --no-fund || exit 1
  case " $suites " in *" ext "*|*" e2e "*) bash scripts/setup-code-server.sh || exit 1 ;; esac
fi

step "build"
node esbuild.js --tests || exit 1

step "check (typecheck, lint, format)"
npm run --silent check || { echo "check failed"; status=1; }

for suite in $suites; do
  case "$suite" in
    unit)
      step "unit tests (plain Node)"
      DEN_SUITE=unit npx mocha --config .mocharc.json || status=1 ;;
    ext)
      if [ -f scripts/run-ext-tests.sh ]; then step "integration tests (real VS Code extension host)"; bash scripts/run-ext-tests.sh || status=1; fi ;;
    e2e)
      if [ -f scripts/run-e2e.sh ]; then step "end-to-end tests (real VS Code in Chromium)"; bash scripts/run-e2e.sh || status=1; fi ;;
  esac
done

passed=0; failed=0
while IFS= read -r line; do
  p=$(node -e 'const l=JSON.parse(process.argv[1]);console.log(l.passed, l.failed, l.suite)' "$line")
  set -- $p
  printf '%-5s %s passed, %s failed\n' "$3:" "$1" "$2"
  passed=$((passed + $1)); failed=$((failed + $2))
done < "$results"
[ "$failed" -gt 0 ] && status=1
[ "$passed" -eq 0 ] && { echo "no test ran"; status=1; }
echo
echo "$passed passed, $failed failed"
exit $status
