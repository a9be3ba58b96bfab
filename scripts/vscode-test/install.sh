#!/usr/bin/env bash
# Installs what the VS Code harness needs, once:
#   - Debian packages: chromium (the browser the tests drive), ripgrep (VS Code's search binary),
#     libkrb5-dev and a C++ toolchain (VS Code's native modules build from source here);
#   - for each VS Code version asked for (see versions.mjs; default: newest), code-server (the npm
#     build of VS Code) into .vscode-test/code-server-<version>/, and, when that code-server needs
#     another Node major than this one, that Node (from npm) into .vscode-test/node-<major>/.
# Arguments (or MULTI_EDIT_VSCODE) select versions: newest, minimum, all or VS Code versions.
# Stamp files make later runs return at once. Needs only the npm registry and Debian's apt.
set -euo pipefail

# The ripgrep release tag that @vscode/ripgrep's postinstall downloads (from GitHub, unreachable
# here); we seed its download cache with Debian's rg under that name instead.
RIPGREP_RELEASE_TAG=v13.0.0-10

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$HERE/../.." && pwd)"
CACHE_DIR="$REPO_ROOT/.vscode-test"
SYSTEM_PATH="$PATH"

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

# Puts a Node of major $1 first on PATH for npm and node-gyp: this one when the majors agree,
# else node-<platform>-<arch>@$1 from npm, cached in .vscode-test/node-$1/.
use_node_major() {
  local major="$1" package home
  export PATH="$SYSTEM_PATH"
  unset npm_config_nodedir
  if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
    # node-gyp uses the local Node headers instead of downloading them.
    [ -f /usr/include/node/node.h ] && export npm_config_nodedir=/usr
    return 0
  fi
  package="$(node -p '`node-${process.platform}-${process.arch}`')"
  home="$CACHE_DIR/node-$major/node_modules/$package"
  if [ ! -f "$CACHE_DIR/node-$major/.installed" ]; then
    log "installing Node $major ($package@$major) into .vscode-test/node-$major/"
    rm -rf "$CACHE_DIR/node-$major"
    npm install --prefix "$CACHE_DIR/node-$major" --no-save --no-audit --no-fund "$package@$major" >/dev/null
    "$home/bin/node" --version > "$CACHE_DIR/node-$major/.installed"
  fi
  # The system npm runs on the PATH's first node; ~/.npmrc's nodedir would give node-gyp this
  # Node's headers, so point it at the installed Node's own.
  export PATH="$home/bin:$SYSTEM_PATH" npm_config_nodedir="$home"
}

# The postinstall looks for <tmpdir>/vscode-ripgrep-cache-<package version>/<asset> before
# downloading. Newer VS Code builds pin no @vscode/ripgrep and need no seed.
seed_ripgrep_cache() {
  local vscode_dir="$1" tmp_dir="$2" package_version target cache staging
  package_version="$(node -p "(require('$vscode_dir/npm-shrinkwrap.json').packages['node_modules/@vscode/ripgrep'] || {}).version || ''")"
  [ -n "$package_version" ] || return 0
  case "$(node -p process.arch)" in
    x64) target=x86_64-unknown-linux-musl ;;
    arm64) target=aarch64-unknown-linux-musl ;;
    *) echo "unsupported CPU architecture for the ripgrep seed: $(node -p process.arch)" >&2; exit 1 ;;
  esac
  cache="$tmp_dir/vscode-ripgrep-cache-$package_version"
  staging="$(mktemp -d)"
  cp "$(command -v rg)" "$staging/rg"
  mkdir -p "$cache"
  tar czf "$cache/ripgrep-$RIPGREP_RELEASE_TAG-$target.tar.gz" -C "$staging" rg
  rm -rf "$staging"
}

# A native module is built (build/Release) or ships a prebuilt binary for this platform.
has_native_binary() {
  local module_dir="$1" platform
  platform="$(node -p '`${process.platform}-${process.arch}`')"
  compgen -G "$module_dir/build/Release/*.node" >/dev/null || compgen -G "$module_dir/prebuilds/$platform/*.node" >/dev/null
}

# Every native module VS Code loads must be there; npm reports success even when a lifecycle
# script was skipped, so check the outputs themselves.
verify_install() {
  local install_dir="$1" vscode_dir="$1/node_modules/code-server/lib/vscode" problems=() file module rg
  for file in "$install_dir/node_modules/code-server/out/node/entry.js" "$vscode_dir/extensions/node_modules"; do
    [ -e "$file" ] || problems+=("missing ${file#"$install_dir"/}")
  done
  for module in node-pty @vscode/spdlog kerberos; do
    has_native_binary "$vscode_dir/node_modules/$module" || problems+=("$module has no native binary")
  done
  # Older builds have @vscode/ripgrep (seeded above), newer ones @vscode/ripgrep-universal.
  rg="$vscode_dir/node_modules/@vscode/ripgrep/bin/rg"
  [ -e "$rg" ] || rg="$vscode_dir/node_modules/@vscode/ripgrep-universal/bin/$(node -p '`${process.platform}-${process.arch}`')/rg"
  "$rg" --version >/dev/null 2>&1 || problems+=("ripgrep does not run")
  if [ ${#problems[@]} -gt 0 ]; then
    printf '[setup:vscode] the code-server install in %s is incomplete: %s\n' "${install_dir#"$REPO_ROOT"/}" "${problems[@]}" >&2
    exit 1
  fi
}

# install_code_server <code-server version> <node major>
install_code_server() {
  local version="$1" major="$2" install_dir="$CACHE_DIR/code-server-$1"
  local tmp_dir="$install_dir/tmp" install_log="$install_dir/install.log"
  local vscode_dir="$install_dir/node_modules/code-server/lib/vscode"
  log "installing code-server@$version into ${install_dir#"$REPO_ROOT"/} (once, a few minutes)"
  rm -rf "$install_dir"
  mkdir -p "$tmp_dir"
  cat > "$install_dir/package.json" <<EOF
{
  "name": "multi-edit-vscode-host",
  "private": true,
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF
  use_node_major "$major"
  # unsafe-perm: code-server's postinstall refuses to run as root without it.
  # yes: node-pty's build calls npx, which otherwise may prompt or refuse.
  # strict-allow-scripts off: VS Code's nested installs run their own native builds.
  export npm_config_unsafe_perm=true npm_config_yes=true npm_config_strict_allow_scripts=false
  export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
  # Run from `npm run`, the outer npm exports its own user agent ("node/v20"); code-server's
  # postinstall reads the Node version from it, so the npm below must state its own.
  unset npm_config_user_agent
  # First unpack without scripts, to learn which @vscode/ripgrep VS Code pins, then seed its
  # cache and run the lifecycle scripts (code-server's postinstall installs VS Code's modules).
  {
    (cd "$install_dir" && npm install --ignore-scripts --save-exact "code-server@$version") &&
      seed_ripgrep_cache "$vscode_dir" "$tmp_dir" &&
      (cd "$install_dir" && TMPDIR="$tmp_dir" npm rebuild --foreground-scripts)
  } > "$install_log" 2>&1 || {
    echo "[setup:vscode] installing code-server@$version failed; last lines of ${install_log#"$REPO_ROOT"/}:" >&2
    tail -30 "$install_log" >&2
    exit 1
  }
  verify_install "$install_dir"
  rm -rf "$tmp_dir"
  echo "$version" > "$install_dir/.installed"
  log "code-server $version (VS Code $(node -p "require('$vscode_dir/product.json').version"), Node $(node --version)) is ready"
}

install_system_packages
selector="$(IFS=,; echo "$*")"
versions="$(node "$HERE/versions.mjs" "${selector:-${MULTI_EDIT_VSCODE:-newest}}" | tr ' ' ',')"
mkdir -p "$CACHE_DIR"
# Two runs started together must not install into the same folder at once.
exec 9> "$CACHE_DIR/.install.lock"
for entry in $versions; do
  IFS=, read -r _vscode code_server node_major <<< "$entry"
  if [ ! -f "$CACHE_DIR/code-server-$code_server/.installed" ]; then
    flock 9
    [ -f "$CACHE_DIR/code-server-$code_server/.installed" ] || (install_code_server "$code_server" "$node_major")
  fi
done
