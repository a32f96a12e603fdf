#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build libvfio-user (the vfio-user server library that QEMU's vfio-user-pci
# device talks to) from the copy inside Debian's qemu source package, and
# install it as a static library for rxscale's meson build (option
# vfio_user; see docs/libvfio-user-api.md).
#
# Usage: scripts/libvfio-user.sh [OUTDIR]     (default: build/libvfio-user)
#   VFU_DEBIAN_MIRROR   override the mirror (default http://deb.debian.org/debian)
#   VFU_SUITE           the suite whose qemu source is used (default trixie)
#   VFU_REFRESH=1       download the source package again even if one is cached
#
# Source: Debian trixie's "qemu" source package, 10.0.x. Written and tested
# with 1:10.0.13+ds-0+deb13u1 (qemu_10.0.13+ds.orig.tar.xz, 40 MB), whose
# subprojects/libvfio-user is the libvfio-user snapshot QEMU 10.0 ships
# (meson project version 0.0.1). Debian does not
# package libvfio-user on its own. The stamp records the exact source
# package version built; a newer trixie point release is picked up with
# VFU_REFRESH=1. (trixie-backports and sid answered 404 for the qemu source
# when this was written: /work/shared/research/qemu-vfio-user.md.) Only the
# upstream (orig) tarball is used, not Debian's patches to QEMU.
#
# The system's apt sources are never touched: the .dsc and orig tarball are
# fetched with a private, temporary apt configuration (one deb-src line, its
# own lists directory), deleted afterwards. Only subprojects/libvfio-user is
# extracted from the orig tarball. Build dependencies missing from the system
# (libjson-c-dev, libcmocka-dev, meson, ninja-build, pkg-config, xz-utils)
# are installed from its own suites.
#
# Layout under OUTDIR: src/   the cached .dsc and tarballs
#                      libvfio-user/   the extracted library source
#                      build/          its meson build directory
#                      prefix/         include/vfio-user/libvfio-user.h,
#                                      lib/libvfio-user.a,
#                                      lib/pkgconfig/libvfio-user.pc
# A stamp in prefix/ records the package version and the recipe; when it
# matches, a re-run does nothing but print the paths.
#
# Output (last lines, for scripts): "LIBVFIO_USER_PREFIX=<prefix>",
# "LIBVFIO_USER_VERSION=<Debian qemu source version>".
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/libvfio-user}
mkdir -p "$out"
out=$(cd "$out" && pwd)
mirror=${VFU_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=${VFU_SUITE:-trixie}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# Bump when the way the library is extracted, configured or built changes.
recipe=3

srcdir=$out/src
lvu=$out/libvfio-user
bdir=$out/build
prefix=$out/prefix
stamp=$prefix/.rxscale-vfu-stamp

log() { echo "libvfio-user: $*"; }
die() { echo "libvfio-user: error: $*" >&2; exit 1; }

finish() {
  echo "LIBVFIO_USER_PREFIX=$prefix"
  echo "LIBVFIO_USER_VERSION=$1"
}

# --- cached? -------------------------------------------------------------------
if [ "${VFU_REFRESH:-0}" != 1 ] && [ -f "$stamp" ]; then
  have=$(sed -n 's/^source=qemu //p' "$stamp")
  if [ "$(sed -n 's/^recipe=//p' "$stamp")" = "$recipe" ] && [ -n "$have" ] &&
     [ -f "$prefix/include/vfio-user/libvfio-user.h" ] &&
     [ -f "$prefix/lib/libvfio-user.a" ] && [ -f "$prefix/lib/pkgconfig/libvfio-user.pc" ]; then
    log "up to date (stamp: qemu $have, recipe $recipe); nothing to do"
    finish "$have"
    exit 0
  fi
fi

# --- build tools -------------------------------------------------------------
need="meson ninja-build gcc pkg-config libjson-c-dev libcmocka-dev xz-utils tar apt"
missing=""
for p in $need; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  log "installing build dependencies:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # Another apt may hold the dpkg lock (a parallel deps.sh): wait for it.
  lock=(-o DPkg::Lock::Timeout=600)
  $sudo apt-get "${lock[@]}" update -qq || die "apt-get update failed (installing$missing)"
  $sudo apt-get "${lock[@]}" install -y -qq --no-install-recommends $missing >/dev/null \
    || die "apt-get install$missing failed"
fi

# --- the source package --------------------------------------------------------
mkdir -p "$srcdir"
dsc=$(ls -1 "$srcdir"/qemu_*.dsc 2>/dev/null | sort -V | tail -n1 || true)
if [ -z "$dsc" ] || [ "${VFU_REFRESH:-0}" = 1 ]; then
  [ -f "$keyring" ] || die "missing $keyring (Debian package debian-archive-keyring)"
  apt_tmp=$(mktemp -d "$out/apt.XXXXXX")
  trap 'rm -rf "$apt_tmp"' EXIT
  mkdir -p "$apt_tmp/lists/partial" "$apt_tmp/cache/archives/partial" \
    "$apt_tmp/sources.list.d" "$apt_tmp/dl"
  echo "deb-src [signed-by=$keyring] $mirror $suite main" >"$apt_tmp/sources.list"
  # Private sources, lists and cache: the system's apt state is neither read
  # for sources nor written.
  aopt=(-o "Dir::Etc::sourcelist=$apt_tmp/sources.list"
        -o "Dir::Etc::sourceparts=$apt_tmp/sources.list.d"
        -o "Dir::State::Lists=$apt_tmp/lists"
        -o "Dir::Cache=$apt_tmp/cache"
        -o "Acquire::Languages=none"
        -o "APT::Sandbox::User=root"
        -o "Debug::NoLocking=1")
  log "fetching the qemu source package from: $mirror $suite (temporary apt sources in $apt_tmp)"
  tf=$(date +%s)
  timeout 600 apt-get "${aopt[@]}" -qq update || die "apt-get update of deb-src $mirror $suite failed"
  (cd "$apt_tmp/dl" && timeout 1800 apt-get "${aopt[@]}" -qq source --download-only qemu) \
    || die "apt-get source --download-only qemu ($suite) failed"
  new=$(ls -1 "$apt_tmp/dl/"qemu_*.dsc 2>/dev/null | head -n1 || true)
  [ -n "$new" ] || die "no qemu .dsc downloaded"
  ls "$apt_tmp/dl/"qemu_*.orig.tar.* >/dev/null 2>&1 || die "no qemu orig tarball downloaded"
  rm -f "$srcdir"/qemu_*
  # The debian tarball is not needed; keep the .dsc (version) and the orig.
  mv "$new" "$apt_tmp/dl/"qemu_*.orig.tar.* "$srcdir/"
  dsc=$srcdir/$(basename "$new")
  rm -rf "$apt_tmp"
  trap - EXIT
  log "downloaded in $(( $(date +%s) - tf )) s"
fi
ver=$(sed -n 's/^Version: *//p' "$dsc" | head -n1)
[ -n "$ver" ] || die "no Version: in $dsc"
orig=$(ls -1 "$srcdir"/qemu_*.orig.tar.* 2>/dev/null | head -n1 || true)
[ -n "$orig" ] || die "no orig tarball next to $dsc (VFU_REFRESH=1 downloads it again)"
log "source: qemu $ver ($orig)"

t0=$(date +%s)
# --- extract only subprojects/libvfio-user -------------------------------------
rm -rf "$lvu" "$out/unpack"
mkdir -p "$out/unpack"
log "extracting subprojects/libvfio-user from $(basename "$orig")"
tar -xaf "$orig" -C "$out/unpack" --wildcards --no-anchored '*/subprojects/libvfio-user/*' \
  || die "no subprojects/libvfio-user in $orig"
top=$(ls -1d "$out/unpack"/*/subprojects/libvfio-user 2>/dev/null | head -n1 || true)
[ -n "$top" ] && [ -f "$top/meson.build" ] || die "extracted, but no libvfio-user/meson.build under $out/unpack"
mv "$top" "$lvu"
rm -rf "$out/unpack"
t1=$(date +%s)
log "extracted in $((t1 - t0)) s"

# --- configure and build ---------------------------------------------------------
rm -rf "$bdir" "$prefix"
blog=$out/build.log
# A static library only, without the pipe transport (a test aid); only the
# library target is built, not its tests or samples. The debugoptimized
# build keeps its asserts and its DEBUG checks (debug-logs=auto), which
# abort on API calls that are illegal while the device is quiesced.
mopts=(--prefix "$prefix" --libdir lib --buildtype=debugoptimized
       -Ddefault_library=static -Dtran-pipe=false --wrap-mode=nodownload)
log "meson setup ${mopts[*]} (log: $blog)"
meson setup "${mopts[@]}" "$bdir" "$lvu" >"$blog" 2>&1 \
  || { tail -n 30 "$blog" >&2; die "meson setup of libvfio-user failed (log: $blog)"; }
# Build only the library (and what installs with it), not the tests.
log "building"
nice ninja -C "$bdir" lib/libvfio-user.a >>"$blog" 2>&1 \
  || { tail -n 30 "$blog" >&2; die "libvfio-user build failed (log: $blog)"; }
meson install -C "$bdir" --no-rebuild --tags devel,runtime >>"$blog" 2>&1 \
  || { tail -n 30 "$blog" >&2; die "installing libvfio-user into $prefix failed (log: $blog)"; }
[ -f "$prefix/include/vfio-user/libvfio-user.h" ] || die "installed, but $prefix/include/vfio-user/libvfio-user.h is missing"
ls "$prefix"/lib/libvfio-user.a >/dev/null 2>&1 || die "installed, but $prefix/lib/libvfio-user.a is missing"
# Upstream installs no pkg-config file; write one. The prefix holds only the
# static archive, so its dependency json-c is a plain Requires (a consumer
# links it, shared, without pkg-config --static).
upver=$(sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" "$lvu/meson.build" | head -n1)
mkdir -p "$prefix/lib/pkgconfig"
# Relocatable: the prefix is found from the .pc file's own place.
cat >"$prefix/lib/pkgconfig/libvfio-user.pc" <<PC
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: libvfio-user
Description: vfio-user server library (static, from Debian qemu $ver)
Version: ${upver:-0.0.1}
Requires: json-c
Libs: -L\${libdir} -lvfio-user
Cflags: -I\${includedir}
PC
t2=$(date +%s)
log "built and installed in $((t2 - t1)) s"
printf 'recipe=%s\nsource=qemu %s\n' "$recipe" "$ver" >"$stamp"
finish "$ver"
