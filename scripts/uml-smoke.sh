#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boot smoke test for the UML kernel that scripts/uml-kernel.sh built: boot
# with the host's / as root (hostfs, read-write), run a generated init that
# prints `uname -r`, mounts proc and sysfs, lists the PCI bus, runs `ip
# link` and powers off through sysrq. Passes when the kernel ran the init to
# the end and reported the release its tree was built as.
#
# Usage: scripts/uml-smoke.sh [--kmod DIR] [OUTDIR]     (default: build/uml)
#   --kmod DIR       also insmod every DIR/*.ko in the guest (modinfo,
#                    lsmod, rmmod); a module that does not load fails the
#                    test. Build them with make -C kmod KDIR=<tree> ARCH=um.
#   UML_KERNEL=7.3   which tree under OUTDIR (linux-$UML_KERNEL)
#   UML_SMOKE_TIMEOUT=60   seconds before the guest is killed
#   UML_SMOKE_ARGS="..."   extra kernel command line (e.g. time-travel)
#
# Exit: 0 pass, 1 fail (with the reason and the guest's last lines).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "uml-smoke: FAIL: $*" >&2; exit 1; }
kmod=""
while [ $# -gt 0 ]; do
  case "$1" in
    --kmod) kmod=$(cd "${2:?--kmod needs a directory}" && pwd); shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "uml-smoke: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
ver=${UML_KERNEL:-7.3}
out=$(cd "${1:-$root/build/uml}" && pwd) || fail "no directory ${1:-}"
tree=$out/linux-$ver
linux=$tree/linux
limit=${UML_SMOKE_TIMEOUT:-60}

[ -x "$linux" ] || fail "no UML kernel at $linux (run scripts/uml-kernel.sh first)"
release=$(cat "$tree/include/config/kernel.release" 2>/dev/null) \
  || fail "no include/config/kernel.release in $tree"
command -v setarch >/dev/null || fail "setarch (util-linux) not found"

tmp=$(mktemp -d /tmp/rxscale-uml-smoke.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/uml"

# The guest's root is the host's /, so the init is this host file. It runs
# as PID 1 of the guest: it must never exit (the kernel would panic), so it
# ends by asking for poweroff and waiting for it.
{
  cat <<'EOF'
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
echo "RXSCALE-SMOKE begin"
echo "RXSCALE-SMOKE uname=$(uname -r)"
mount -t proc proc /proc
mount -t sysfs sysfs /sys
echo "RXSCALE-SMOKE ls /sys/bus/pci:"
ls /sys/bus/pci 2>&1
echo "RXSCALE-SMOKE pci devices: $(ls /sys/bus/pci/devices 2>/dev/null | wc -l)"
echo "RXSCALE-SMOKE ip link:"
ip link 2>&1
EOF
  if [ -n "$kmod" ]; then
    cat <<EOF
for ko in "$kmod"/*.ko; do
  name=\$(basename "\$ko" .ko)
  echo "RXSCALE-SMOKE modinfo \$name:"
  modinfo "\$ko" 2>&1 | grep -E '^(filename|description|license|vermagic|depends|alias):' | head -n 8
  if insmod "\$ko" 2>&1; then
    echo "RXSCALE-SMOKE insmod \$name ok"
  else
    echo "RXSCALE-SMOKE insmod \$name FAILED"
  fi
done
echo "RXSCALE-SMOKE lsmod:"
lsmod 2>&1
for ko in "$kmod"/*.ko; do
  name=\$(basename "\$ko" .ko)
  rmmod "\$name" 2>&1 && echo "RXSCALE-SMOKE rmmod \$name ok"
done
dmesg 2>/dev/null | grep -E "rxscale_r81" | tail -n 10
EOF
  fi
  cat <<'EOF'
echo "RXSCALE-SMOKE poweroff"
echo o > /proc/sysrq-trigger
while :; do sleep 1; done
EOF
} >"$tmp/init.sh"
chmod +x "$tmp/init.sh"

# setarch -R: no address-space randomisation; umid= and uml_dir=: a fixed
# name in a private directory (no ~/.uml clutter, no clash with a parallel
# run). con0 to stdout, other consoles off, stdin from /dev/null. timeout
# signals its whole process group, so UML's helper processes go too.
cmd=(setarch "$(uname -m)" -R "$linux" mem=256M umid=rxscale-smoke
     "uml_dir=$tmp/uml" root=/dev/root rootfstype=hostfs rootflags=/ rw
     "init=$tmp/init.sh" con0=null,fd:1 con=null ${UML_SMOKE_ARGS:-})
echo "uml-smoke: booting $linux ($release), timeout ${limit}s"
t0=$(date +%s.%N)
rc=0
timeout -k 5 "$limit" "${cmd[@]}" </dev/null >"$tmp/console.log" 2>&1 || rc=$?
t1=$(date +%s.%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
tr -d '\r' <"$tmp/console.log" >"$tmp/console.txt"
if [ -n "${UML_SMOKE_LOG:-}" ]; then cp "$tmp/console.txt" "$UML_SMOKE_LOG"; fi
# What the init printed (kernel messages on the console interleave).
sed -n '/^RXSCALE-SMOKE begin/,/^RXSCALE-SMOKE poweroff/p' "$tmp/console.txt" | sed 's/^/  guest| /'

why=""
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
  why="the guest did not power off within ${limit}s (killed)"
elif ! grep -q "^RXSCALE-SMOKE begin" "$tmp/console.txt"; then
  why="the init never ran (exit $rc)"
elif ! grep -qxF "RXSCALE-SMOKE uname=$release" "$tmp/console.txt"; then
  why="uname -r is not '$release': $(grep '^RXSCALE-SMOKE uname=' "$tmp/console.txt" || echo none)"
elif ! grep -q "^RXSCALE-SMOKE poweroff" "$tmp/console.txt"; then
  why="the init did not reach poweroff (exit $rc)"
elif grep -q "^RXSCALE-SMOKE insmod .* FAILED" "$tmp/console.txt"; then
  why="a module did not load: $(grep '^RXSCALE-SMOKE insmod .* FAILED' "$tmp/console.txt" | tr '\n' ' ')"
elif grep -qi "Kernel panic\|BUG:\|Oops" "$tmp/console.txt"; then
  why="the kernel logged a panic/BUG/Oops"
elif [ "$rc" != 0 ]; then
  why="the kernel exited with status $rc"
fi
if [ -n "$why" ]; then
  echo "uml-smoke: last console lines:" >&2
  tail -n 40 "$tmp/console.txt" | sed 's/^/  console| /' >&2
  fail "$why"
fi
echo "uml-smoke: PASS: $release booted, ran the init and powered off in ${secs}s"
