# Sourced by the install scripts. `npm test`, `npm run demo` and every `npm run …` export npm's own
# state into the environment of what they start: npm_config_user_agent (which names the *outer*
# Node, 20, and is what code-server's postinstall checks for "node/v24"), npm_config_nodedir (Node
# 20's headers, from ~/.npmrc), npm_config_local_prefix / npm_config_prefix (which project and
# prefix the install belongs to), npm_package_*, npm_lifecycle_*, npm_execpath, NODE and INIT_CWD.
# A nested `npm install` reads all of them as its own. clean_npm_env removes them, keeping only what
# says how to reach the registry (a person's registry, proxy and certificate settings); the nested
# npm reads the rest from the npmrc files again, as it would in a fresh shell.
clean_npm_env() {
  local name
  for name in $(compgen -e); do
    case "$name" in
      npm_config_registry | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | \
        npm_config_cafile | npm_config_strict_ssl | npm_config_cache) ;;
      NPM_CONFIG_REGISTRY | NPM_CONFIG_PROXY | NPM_CONFIG_HTTPS_PROXY | NPM_CONFIG_NOPROXY | \
        NPM_CONFIG_CAFILE | NPM_CONFIG_STRICT_SSL | NPM_CONFIG_CACHE) ;;
      npm_* | NPM_* | NODE | INIT_CWD | NODE_OPTIONS) unset "$name" ;;
    esac
  done
}
