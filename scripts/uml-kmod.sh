#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build rxscale's kernel modules (kmod/) against the UML kernel tree that
# scripts/uml-kernel.sh built, and put them in OUTDIR/kmod-<ver>/ for
# scripts/uml-smoke.sh --kmod.
#
# Usage: scripts/uml-kmod.sh [OUTDIR]     (default: build/uml; UML_KERNEL=7.3)
#
# kmod/Makefile has one object directory (kmod/build) and copies the .ko
# files to kmod/; so that a UML module is never mistaken for a host one,
# this runs `make -C kmod clean` before and after (a later `make kmod`
# rebuilds the host modules from scratch).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ver=${UML_KERNEL:-7.3}
out=$(cd "${1:-$root/build/uml}" && pwd) || { echo "uml-kmod: no directory ${1:-}" >&2; exit 1; }
tree=$out/linux-$ver
[ -f "$tree/Module.symvers" ] || { echo "uml-kmod: no built tree at $tree (run scripts/uml-kernel.sh)" >&2; exit 1; }
dest=$out/kmod-$ver
make -s -C "$root/kmod" clean
rc=0
make -C "$root/kmod" KDIR="$tree" ARCH=um || rc=$?
if [ "$rc" = 0 ]; then
  rm -rf "$dest"; mkdir -p "$dest"
  cp "$root"/kmod/*.ko "$dest/"
fi
make -s -C "$root/kmod" clean
[ "$rc" = 0 ] || { echo "uml-kmod: FAIL: module build against $tree failed" >&2; exit 1; }
for ko in "$dest"/*.ko; do
  echo "uml-kmod: $ko ($(modinfo -F vermagic "$ko"))"
done
