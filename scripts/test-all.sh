#!/usr/bin/env bash
# The README's second command: installs what the tests need, then runs every suite.
# Ends with one line "N passed, N failed". Exit status non-zero when anything failed.
#   DEN_SKIP_INSTALL=1   skip npm ci and the code-server setup (local reruns)
#   DEN_SUITES="unit build ext e2e"  which suites to run (default: all; build = `npm run check:build`)
#   DEN_FIRST_INSTALL=1  CS_HOME must be empty: the code-server setup is then a first install and
#                        counts as a test (.ci/run sets this with CI=true)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
suites="${DEN_SUITES:-unit build ext e2e}"
results=$(mktemp)
export DEN_RESULT_FILE="$results"
status=0
trap 'rm -f "$results"' EXIT

step() { printf '\n=== %s (at %d s) ===\n' "$*" "$SECONDS"; }
# Runs a command and prints the CPU time it and its children used (the run is CPU-bound on two
# cores: docs/testing.md, "The whole run's time"), e.g. "cpu of unit: 512.3 s user + 60.1 s sys in 493.0 s".
cpu_of() {
  local label=$1
  shift
  local TIMEFORMAT="cpu of $label: %U s user + %S s sys in %R s"
  time "$@"
}
record() { echo "{\"suite\":\"$1\",\"passed\":$2,\"failed\":$3,\"pending\":0}" >> "$results"; }

# Prints each suite's counts, the titles of what failed (here at the end, where a CI excerpt shows
# them) and the closing "N passed, N failed" line; exits with the status.
finish() {
  local passed=0 failed=0 p
  while IFS= read -r line; do
    p=$(node -e 'const l=JSON.parse(process.argv[1]);console.log(l.passed, l.failed, l.suite)' "$line")
    set -- $p
    printf '%-8s %s passed, %s failed\n' "$3:" "$1" "$2"
    passed=$((passed + $1)); failed=$((failed + $2))
  done < "$results"
  node -e 'for (const l of require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean))
    for (const t of JSON.parse(l).failures ?? []) console.log(`failed: ${JSON.parse(l).suite}: ${t}`);' "$results"
  [ "$failed" -gt 0 ] && status=1
  [ "$passed" -eq 0 ] && { echo "no test ran"; status=1; }
  echo "whole run: $SECONDS s (CPU time of the script, then of everything it waited for:)"
  times
  echo
  echo "$passed passed, $failed failed"
  exit $status
}

# The code-server setup; under DEN_FIRST_INSTALL a test of the first-install path: it must start
# from an empty CS_HOME, run under npm (whose exported environment broke it once), and end with a
# code-server that starts (setup-code-server.sh checks that).
setup_code_server() {
  if [ "${DEN_FIRST_INSTALL:-}" != 1 ]; then
    bash scripts/setup-code-server.sh
    return
  fi
  step "first install of Node 24 and code-server (empty CS_HOME, under npm)"
  local why=""
  [ -n "$(ls -A "${CS_HOME:?}" 2>/dev/null)" ] && why="CS_HOME $CS_HOME is not empty"
  [ -z "$why" ] && [ -z "${npm_config_user_agent:-}" ] && why="not started through npm (run npm test)"
  if [ -z "$why" ]; then
    local t0=$SECONDS
    if bash scripts/setup-code-server.sh; then
      echo "first install: passed in $((SECONDS - t0)) s (npm: ${npm_config_user_agent%% workspaces*})"
      record install 1 0
      return 0
    fi
    why="scripts/setup-code-server.sh failed"
  fi
  echo "first install: FAILED: $why"
  record install 0 1
  return 1
}

# On two cores most stages keep one core busy (npm's installs, compiling code-server's native
# modules, tsc, eslint, mocha in plain Node), so stages that need nothing from each other run side by
# side, with at most two lanes of VS Code at a time (a third overloaded two cores: docs/testing.md).
# The package and the build come first (nothing may rewrite dist/ once tests read it). Then:
#   - the check, and the unit then build tiers, at a lower priority (nice): plain Node, they take what
#     the code-server setup and the ext tier leave; after the build tier, an e2e runner;
#   - once code-server is set up: the ext tier, then a second e2e runner.
# The two runners take the e2e files from one queue, longest first, so they end close together
# although they start at different times. A side job's output is printed whole when it ends.
side_logs=()
side_pids=()
side() {
  local log
  log=$(mktemp)
  ( "$@" ) > "$log" 2>&1 &
  side_pids+=($!)
  side_logs+=("$log")
}
# Waits for every side job, in the order started, printing each one's output; fails if one failed.
side_wait() {
  local rc=0 k
  for k in "${!side_pids[@]}"; do
    wait "${side_pids[$k]}" || rc=1
    cat "${side_logs[$k]}"
    rm -f "${side_logs[$k]}"
  done
  side_pids=()
  side_logs=()
  return $rc
}
wants() { case " $suites " in *" $1 "*) return 0 ;; esac; return 1; }

# The code-server setup runs beside everything up to the VS Code tiers, as a job of its own (not a
# side job: the VS Code tiers wait for it alone). It writes $setup_log; its status goes to $setup_rc.
setup_log=$(mktemp)
setup_rc=$(mktemp)
setup_pid=""
trap 'rm -f "$results" "$setup_log" "$setup_rc"' EXIT
low=(nice -n 10)
if [ "${DEN_SKIP_INSTALL:-}" != 1 ]; then
  step "install (npm ci; the code-server setup beside it and the next stages)"
  if wants ext || wants e2e; then
    ( cpu_of "the code-server setup" setup_code_server > "$setup_log" 2>&1; echo $? > "$setup_rc" ) &
    setup_pid=$!
  fi
  cpu_of "npm ci" npm ci --no-audit --no-fund || { [ -n "$setup_pid" ] && wait "$setup_pid"; cat "$setup_log"; record install 0 1; finish; }
fi
# Waits for the code-server setup and prints what it said; fails when it failed (a first install
# counted itself; any other failure counts here).
setup_wait() {
  [ -n "$setup_pid" ] || return 0
  wait "$setup_pid"
  setup_pid=""
  step "the code-server setup ended"
  cat "$setup_log"
  [ "$(cat "$setup_rc")" = 0 ] && return 0
  [ "${DEN_FIRST_INSTALL:-}" = 1 ] || record install 0 1
  return 1
}

if wants e2e; then
  step "package (npm run package: dist/den.vsix, for the e2e tier)"
  npm run --silent package || { setup_wait; record package 0 1; finish; }
fi
step "build"
node esbuild.js --tests || { setup_wait; record build 0 1; finish; }

run_check() {
  step "check (typecheck, lint, format)"
  if cpu_of check "${low[@]}" npm run --silent check; then record check 1 0; else echo "check failed"; record check 0 1; fi
}
run_plain_tiers() {
  local rc=0
  if wants unit; then
    step "unit tests (plain Node)"
    cpu_of unit env DEN_SUITE=unit "${low[@]}" npx mocha --config .mocharc.json || rc=1
  fi
  if wants build; then
    step "build checks (the bundles, the package, the layer rules: npm run check:build)"
    cpu_of check:build env DEN_SUITE=check:build "${low[@]}" npx mocha --config test/build/.mocharc.json || rc=1
  fi
  return $rc
}
# One e2e runner, the second lane: after the plain tiers (so that at most two lanes of VS Code run:
# the ext tier and this runner), once code-server is set up.
e2e_queue=$(mktemp -d)
e2e_runner() {
  step "end-to-end tests, runner $1 (real VS Code in Chromium; files from a shared queue)"
  cpu_of "e2e $1" env DEN_E2E_QUEUE="$e2e_queue" DEN_E2E_NAME="e2e $1" node dist/test/harness/e2e-runner.js
}
plain_then_e2e() {
  local rc=0
  run_plain_tiers || rc=1
  if wants e2e; then
    # the setup writes its status when it ends (bounded: it has its own timeouts, 30 minutes at most)
    for _ in $(seq 1 900); do [ -s "$setup_rc" ] || [ -z "$setup_pid" ] && break; sleep 2; done
    if [ -z "$setup_pid" ] || [ "$(cat "$setup_rc")" = 0 ]; then e2e_runner 2/2 || rc=1; fi
  fi
  return $rc
}
side run_check
side plain_then_e2e
vscode_ready=1
setup_wait || { status=1; vscode_ready=0; }
if [ "$vscode_ready" = 1 ] && wants ext; then
  step "integration tests (real VS Code extension host; beside it the plain tiers, niced, then an e2e runner)"
  cpu_of ext env DEN_EXT_BUILT=1 bash scripts/run-ext-tests.sh || status=1
fi
if [ "$vscode_ready" = 1 ] && wants e2e; then
  e2e_runner 1/2 || status=1
fi
step "the side jobs: the check; the unit and build tiers, then the second e2e runner"
side_wait || status=1
rm -rf "$e2e_queue"

finish
