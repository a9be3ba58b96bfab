#!/usr/bin/env bash
# The Debian packages of the platform legs of `npm test`, installed once when missing:
# FUSE file systems that ignore case (ntfs-3g's lowntfs-3g, fusefat, with mkntfs and
# mkfs.fat) for test/unit/fuse.test.ts, and Wine for the Windows leg (wine.mjs). Needs
# root and apt; elsewhere it says what to install and the legs say they were skipped.
set -euo pipefail

missing=()
command -v lowntfs-3g >/dev/null || missing+=(ntfs-3g)
command -v fusefat >/dev/null || missing+=(fusefat)
command -v mkfs.fat >/dev/null || missing+=(dosfstools)
command -v fusermount >/dev/null || missing+=(fuse3)
command -v wine >/dev/null || missing+=(wine wine64)
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "[platform] not installed (needs root and apt): ${missing[*]}; the FUSE and Windows legs will say they were skipped" >&2
  exit 0
fi
echo "[platform] installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}" >/dev/null
