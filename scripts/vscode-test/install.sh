#!/usr/bin/env bash
# Installs what the VS Code harness needs, once:
#   - Debian packages: chromium (the browser the tests drive), ripgrep (VS Code's search binary),
#     libkrb5-dev and a C++ toolchain (VS Code's native modules build from source here);
#   - code-server (the npm build of VS Code) into the ignored cache .vscode-test/code-server/.
# A stamp file makes later runs return at once. Needs only the npm registry and Debian's apt.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
# The ripgrep release tag that @vscode/ripgrep's postinstall downloads (from GitHub, unreachable
# here); we seed its download cache with Debian's rg under that name instead.
RIPGREP_RELEASE_TAG=v13.0.0-10

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE_DIR="$REPO_ROOT/.vscode-test"
INSTALL_DIR="$CACHE_DIR/code-server"
STAMP="$INSTALL_DIR/.installed-$CODE_SERVER_VERSION"
VSCODE_DIR="$INSTALL_DIR/node_modules/code-server/lib/vscode"

log() { echo "[setup:vscode] $*"; }

missing_system_packages() {
  command -v chromium >/dev/null || echo chromium
  command -v rg >/dev/null || echo ripgrep
  dpkg -s libkrb5-dev >/dev/null 2>&1 || echo libkrb5-dev
  command -v g++ >/dev/null || echo g++
  command -v make >/dev/null || echo make
  command -v python3 >/dev/null || echo python3
}

install_system_packages() {
  local missing
  missing="$(missing_system_packages | tr '\n' ' ')"
  missing="${missing% }"
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "The VS Code test harness needs these system packages: $missing" >&2
    echo "Install them first, for example: sudo apt-get install -y $missing" >&2
    exit 1
  fi
  log "installing Debian packages: $missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  # shellcheck disable=SC2086 # one word per package
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq $missing >/dev/null
}

# The postinstall looks for <tmpdir>/vscode-ripgrep-cache-<package version>/<asset> before downloading.
seed_ripgrep_cache() {
  local tmp_dir="$1" package_version target cache asset staging
  package_version="$(node -p "require('$VSCODE_DIR/npm-shrinkwrap.json').packages['node_modules/@vscode/ripgrep'].version")"
  case "$(node -p process.arch)" in
    x64) target=x86_64-unknown-linux-musl ;;
    arm64) target=aarch64-unknown-linux-musl ;;
    *) echo "unsupported CPU architecture for the ripgrep seed: $(node -p process.arch)" >&2; exit 1 ;;
  esac
  cache="$tmp_dir/vscode-ripgrep-cache-$package_version"
  asset="$cache/ripgrep-$RIPGREP_RELEASE_TAG-$target.tar.gz"
  staging="$(mktemp -d)"
  cp "$(command -v rg)" "$staging/rg"
  mkdir -p "$cache"
  tar czf "$asset" -C "$staging" rg
  rm -rf "$staging"
}

# Every native module VS Code loads must have been built; npm reports success even when a
# lifecycle script was skipped, so check the outputs themselves.
verify_install() {
  local problems=() file
  for file in \
    "$INSTALL_DIR/node_modules/code-server/out/node/entry.js" \
    "$VSCODE_DIR/node_modules/node-pty/build/Release/pty.node" \
    "$VSCODE_DIR/node_modules/@vscode/spdlog/build/Release/spdlog.node" \
    "$VSCODE_DIR/node_modules/kerberos/build/Release/kerberos.node" \
    "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin/rg" \
    "$VSCODE_DIR/node_modules.asar" \
    "$VSCODE_DIR/extensions/node_modules"; do
    [ -e "$file" ] || problems+=("missing ${file#"$INSTALL_DIR"/}")
  done
  "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin/rg" --version >/dev/null 2>&1 || problems+=("ripgrep does not run")
  if [ ${#problems[@]} -gt 0 ]; then
    printf '[setup:vscode] code-server install is incomplete: %s\n' "${problems[@]}" >&2
    exit 1
  fi
}

install_code_server() {
  local tmp_dir="$INSTALL_DIR/tmp"
  log "installing code-server@$CODE_SERVER_VERSION into ${INSTALL_DIR#"$REPO_ROOT"/} (once)"
  rm -rf "$INSTALL_DIR"
  mkdir -p "$tmp_dir"
  cat > "$INSTALL_DIR/package.json" <<EOF
{
  "name": "multi-edit-vscode-host",
  "private": true,
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF
  # unsafe-perm: code-server's postinstall refuses to run as root without it.
  # yes: node-pty's build calls npx, which otherwise may prompt or refuse.
  # nodedir: node-gyp uses the local Node headers instead of downloading them.
  # strict-allow-scripts off: VS Code's nested installs run their own native builds.
  export npm_config_unsafe_perm=true npm_config_yes=true npm_config_strict_allow_scripts=false
  export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
  if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
    export npm_config_nodedir=/usr
  fi
  # First unpack without scripts, to learn which @vscode/ripgrep VS Code pins, then seed its
  # cache and run the lifecycle scripts (code-server's postinstall installs VS Code's modules).
  local install_log="$INSTALL_DIR/install.log"
  {
    (cd "$INSTALL_DIR" && npm install --ignore-scripts --save-exact "code-server@$CODE_SERVER_VERSION") &&
      seed_ripgrep_cache "$tmp_dir" &&
      (cd "$INSTALL_DIR" && TMPDIR="$tmp_dir" npm rebuild --foreground-scripts)
  } > "$install_log" 2>&1 || {
    echo "[setup:vscode] installing code-server failed; last lines of ${install_log#"$REPO_ROOT"/}:" >&2
    tail -30 "$install_log" >&2
    exit 1
  }
  verify_install
  rm -rf "$tmp_dir"
  echo "$CODE_SERVER_VERSION" > "$STAMP"
}

install_system_packages
if [ ! -f "$STAMP" ]; then
  mkdir -p "$CACHE_DIR"
  # Two runs started together must not install into the same folder at once.
  exec 9> "$CACHE_DIR/.install.lock"
  flock 9
  [ -f "$STAMP" ] || install_code_server
  log "code-server $CODE_SERVER_VERSION (VS Code $(node -p "require('$VSCODE_DIR/product.json').version")) is ready"
fi
