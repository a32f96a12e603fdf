#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build a User-Mode Linux kernel with virt-pci (UML_PCI_OVER_VIRTIO) from
# Debian's linux-source package, for serving rxscale's NIC model to a real
# kernel (issue 13).
#
# Usage: scripts/uml-kernel.sh [OUTDIR]        (default: build/uml)
#   UML_KERNEL=7.3   linux-source-7.3 from trixie-backports (default; the
#                    first r8169 that knows the RTL8127A)
#   UML_KERNEL=6.12  linux-source-6.12 from bookworm-security (r8169 with
#                    RTL8125A/B/D and RTL8126A)
#   UML_KERNEL=6.1   linux-source-6.1 from bookworm-security
#   UML_DEBIAN_MIRROR, UML_DEBIAN_SECURITY_MIRROR   override the mirrors
#   UML_REFRESH=1    download the source package again even if one is cached
#   UML_JOBS=N       make -jN (default: nproc)
#
# Needs Debian 12 (bookworm) or newer. The system's apt sources are never
# touched: the source package is fetched with a private, temporary apt
# configuration (one suite, its own lists directory) that is deleted
# afterwards, so nothing on the system is upgraded. Build tools missing from
# the system (flex, bison, ...) are installed from its own suites.
#
# Everything is cached under OUTDIR: the .deb in OUTDIR/debs, the built tree
# in OUTDIR/linux-<ver>. A stamp in the tree records the package version and
# the hash of uml/kernel.config; when both match and the binary exists the
# script does nothing but print where the kernel is.
#
# Output (last lines, for scripts): "UML_LINUX=<path to the linux binary>",
# "UML_TREE=<kernel tree for KDIR=>", "UML_RELEASE=<uname -r>".
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
ver=${UML_KERNEL:-7.3}
out=${1:-$root/build/uml}
mkdir -p "$out"
out=$(cd "$out" && pwd)
fragment=$root/uml/kernel.config
jobs=${UML_JOBS:-$(nproc)}
mirror=${UML_DEBIAN_MIRROR:-http://deb.debian.org/debian}
secmirror=${UML_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# Bump when the way the tree is configured or built changes.
recipe=1

case "$ver" in
  7.3)  repo="$mirror trixie-backports main" ;;
  6.12) repo="$secmirror bookworm-security main" ;;
  6.1)  repo="$secmirror bookworm-security main" ;;
  *) echo "uml-kernel: UML_KERNEL=$ver is not one of 7.3, 6.12, 6.1" >&2; exit 2 ;;
esac
pkg=linux-source-$ver
tree=$out/linux-$ver
stamp=$tree/.rxscale-uml-stamp

log() { echo "uml-kernel: $*"; }
die() { echo "uml-kernel: error: $*" >&2; exit 1; }

[ -f "$fragment" ] || die "missing $fragment"
[ "$(uname -m)" = x86_64 ] || die "only x86_64 hosts are supported (SUBARCH=x86)"

# --- build tools -------------------------------------------------------------
need="gcc make flex bison bc libelf-dev xz-utils binutils perl python3"
missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  log "installing build tools:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# --- the source package --------------------------------------------------------
mkdir -p "$out/debs"
deb=$(ls -1 "$out/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n1 || true)
# the same package, fetched already for the QEMU guests or checkpatch
if [ -z "$deb" ] && [ "${UML_REFRESH:-0}" != 1 ]; then
  other=$(ls -1 "$root/build/qemu/debs/kernel/${pkg}_"*.deb "$root/build/checkpatch/${pkg}_"*.deb \
    2>/dev/null | sort -V | tail -n1 || true)
  if [ -n "$other" ]; then
    cp -l "$other" "$out/debs/" 2>/dev/null || cp "$other" "$out/debs/"
    deb=$out/debs/$(basename "$other")
    log "reusing $other"
  fi
fi
if [ -z "$deb" ] || [ "${UML_REFRESH:-0}" = 1 ]; then
  apt_tmp=$(mktemp -d "$out/apt.XXXXXX")
  trap 'rm -rf "$apt_tmp"' EXIT
  mkdir -p "$apt_tmp/lists/partial" "$apt_tmp/cache/archives/partial" \
    "$apt_tmp/sources.list.d" "$apt_tmp/dl"
  echo "deb [signed-by=$keyring] $repo" >"$apt_tmp/sources.list"
  # Private sources, lists and cache: the system's apt state is not read
  # for sources nor written.
  aopt=(-o "Dir::Etc::sourcelist=$apt_tmp/sources.list"
        -o "Dir::Etc::sourceparts=$apt_tmp/sources.list.d"
        -o "Dir::State::Lists=$apt_tmp/lists"
        -o "Dir::Cache=$apt_tmp/cache"
        -o "Acquire::Languages=none"
        -o "APT::Sandbox::User=root"
        -o "Debug::NoLocking=1")
  log "fetching $pkg from: $repo (temporary apt sources in $apt_tmp)"
  timeout 600 apt-get "${aopt[@]}" -qq update || die "apt-get update of $repo failed"
  (cd "$apt_tmp/dl" && timeout 1200 apt-get "${aopt[@]}" -qq download "$pkg") \
    || die "apt-get download $pkg failed"
  new=$(ls -1 "$apt_tmp/dl/"*.deb | head -n1)
  [ -n "$new" ] || die "no .deb downloaded"
  mv "$new" "$out/debs/"
  deb=$out/debs/$(basename "$new")
  rm -rf "$apt_tmp"
  trap - EXIT
fi
debver=$(dpkg-deb -f "$deb" Version)
log "source: $pkg $debver ($deb)"

cfghash=$(sha256sum "$fragment" | cut -d' ' -f1)
want="recipe=$recipe
source=$pkg $debver
config=$cfghash"

kernel_release() { make -s -C "$tree" ARCH=um kernelrelease; }

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$tree/linux" ]; then
  log "up to date (stamp matches: $pkg $debver, config ${cfghash:0:12}); nothing to do"
  echo "UML_LINUX=$tree/linux"
  echo "UML_TREE=$tree"
  echo "UML_RELEASE=$(kernel_release)"
  exit 0
fi

t0=$(date +%s)
# --- unpack (only when the package version changed) ---------------------------
if [ ! -f "$tree/.rxscale-uml-source" ] || [ "$(cat "$tree/.rxscale-uml-source")" != "$pkg $debver" ]; then
  log "unpacking $pkg $debver into $tree"
  rm -rf "$tree" "$out/pkg-$ver" "$out/unpack-$ver"
  mkdir -p "$out/pkg-$ver" "$out/unpack-$ver"
  dpkg-deb -x "$deb" "$out/pkg-$ver"
  tarball=$(ls -1 "$out/pkg-$ver/usr/src/$pkg".tar.* 2>/dev/null | head -n1)
  [ -n "$tarball" ] || die "no usr/src/$pkg.tar.* in $deb"
  tar -xaf "$tarball" -C "$out/unpack-$ver"
  mv "$out/unpack-$ver/$pkg" "$tree"
  rm -rf "$out/pkg-$ver" "$out/unpack-$ver"
  echo "$pkg $debver" >"$tree/.rxscale-uml-source"
fi
rm -f "$stamp"

# --- configure ---------------------------------------------------------------
log "configuring: ARCH=um defconfig + uml/kernel.config"
mk() { nice make -C "$tree" ARCH=um "$@"; }
mk -s defconfig >/dev/null
(cd "$tree" && ARCH=um scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null)
mk -s olddefconfig >/dev/null
bad=0
while IFS= read -r line; do
  case "$line" in
    CONFIG_*=*)
      grep -qxF "$line" "$tree/.config" || {
        echo "uml-kernel: config: wanted '$line', got '$(grep -E "^(# )?${line%%=*}[= ]" "$tree/.config" || echo unset)'" >&2
        bad=1; } ;;
    "# CONFIG_"*" is not set")
      opt=${line#\# }; opt=${opt%% *}
      if grep -q "^$opt=" "$tree/.config"; then
        echo "uml-kernel: config: wanted '$opt' unset, got '$(grep "^$opt=" "$tree/.config")'" >&2
        bad=1
      fi ;;
  esac
done <"$fragment"
[ "$bad" = 0 ] || die "the config fragment does not hold after olddefconfig"

# --- build -------------------------------------------------------------------
blog=$out/build-$ver.log
log "building (make ARCH=um -j$jobs; ~3.5 min on 2 idle cores; log: $blog)"
tb=$(date +%s)
if ! mk -j"$jobs" all >"$blog" 2>&1; then
  tail -n 40 "$blog" >&2
  die "kernel build failed (full log: $blog)"
fi
# External modules (make -C kmod KDIR=$tree ARCH=um) need the prepared tree
# and Module.symvers; 'all' produces both, modules_prepare makes it explicit.
mk -s modules_prepare >>"$blog" 2>&1 || { tail -n 20 "$blog" >&2; die "modules_prepare failed"; }
[ -x "$tree/linux" ] || die "build finished but $tree/linux is missing"
[ -f "$tree/Module.symvers" ] || die "build finished but Module.symvers is missing"
t1=$(date +%s)
log "built in $((t1 - tb)) s (total with unpack and config: $((t1 - t0)) s)"
echo "$want" >"$stamp"
echo "UML_LINUX=$tree/linux"
echo "UML_TREE=$tree"
echo "UML_RELEASE=$(kernel_release)"
