#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boot one SMP Linux guest made by scripts/qemu-guest.sh and run a script in
# it: 4 vCPUs (TCG, multi-threaded), q35, 1 GiB of shared memory (memfd,
# share=on: vfio-user servers map it), serial console on stdio captured to
# the log. The script becomes /test.sh in the guest (a second cpio appended
# to the base initramfs); its exit status comes back through the console
# marker RXQ-EXIT=<status>, and is this script's exit status.
#
# Usage: scripts/qemu-run.sh --script FILE [options] [-- extra QEMU args...]
#   --script FILE      the guest's /test.sh (run by busybox sh)
#   --file SRC[:DEST]  also put SRC in the guest at DEST (default /basename);
#                      repeatable (e.g. the module: --file $QEMU_KMOD/rxscale_r8169.ko)
#   --device ARGS...   QEMU arguments for the NIC, up to the next --option
#                      (e.g. --device -device igb,netdev=n0 -netdev tap,id=n0,...)
#   --modules a,b      modules the guest's /init loads before the script
#   --timeout S        host-side limit (default 300); the guest's own watchdog
#                      powers it off 10 s earlier
#   --log FILE         console log (default: a temporary file, printed on failure)
#   --netns NAME       run QEMU inside this network namespace (ip netns exec),
#                      where its TAP device is
#   --append ARGS      more kernel command line
#   --show             copy the console to stdout as it comes
#   QEMU_DIR=...       where qemu-guest.sh put the assets (default build/qemu)
# Exit: the guest's RXQ-EXIT status; 124 on timeout, 125 when the guest ended
# without the marker, 2 on usage errors.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
qdir=${QEMU_DIR:-$root/build/qemu}
die() { echo "qemu-run: error: $*" >&2; exit "${2:-1}"; }

script="" log="" limit=300 modules="" netns="" append="" show=0
files=() dev=() extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --script) script=${2:?}; shift 2 ;;
    --file) files+=("${2:?}"); shift 2 ;;
    --modules) modules=${2:?}; shift 2 ;;
    --timeout) limit=${2:?}; shift 2 ;;
    --log) log=${2:?}; shift 2 ;;
    --netns) netns=${2:?}; shift 2 ;;
    --append) append=${2:?}; shift 2 ;;
    --show) show=1; shift ;;
    --device) shift
      while [ $# -gt 0 ] && case "$1" in --script|--file|--modules|--timeout|--log|--netns|--append|--show|--device|--) false ;; *) true ;; esac; do
        dev+=("$1"); shift
      done ;;
    --) shift; extra+=("$@"); break ;;
    -h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" 2 ;;
  esac
done
[ -n "$script" ] || die "--script FILE is required" 2
[ -f "$script" ] || die "no script $script" 2
case "$limit" in ''|*[!0-9]*) die "--timeout wants seconds, not '$limit'" 2 ;; esac
[ "$limit" -ge 30 ] || die "--timeout below 30 s cannot boot a guest here" 2

# the assets: ask qemu-guest.sh (cached: it only prints the paths)
assets=$("$root/scripts/qemu-guest.sh" "$qdir" | grep -E '^QEMU[A-Z_]*=') ||
  die "scripts/qemu-guest.sh $qdir failed"
val() { echo "$assets" | sed -n "s/^$1=//p"; }
qemu=$(val QEMU) kernel=$(val QEMU_KERNEL) initrd=$(val QEMU_INITRD)
for f in "$qemu" "$kernel" "$initrd"; do [ -e "$f" ] || die "missing $f"; done

tmp=$(mktemp -d /tmp/rxscale-qemu-run.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ -n "$log" ] || log=$tmp/console.log
: >"$log" || die "cannot write $log"

# the per-run cpio: /test.sh and the --file entries
mkdir -p "$tmp/run"
cp "$script" "$tmp/run/test.sh"; chmod 755 "$tmp/run/test.sh"
for f in "${files[@]}"; do
  src=${f%%:*} dst=/$(basename "$src")
  [ "$src" = "$f" ] || dst=${f#*:}
  [ -e "$src" ] || die "--file: no $src"
  mkdir -p "$tmp/run$(dirname "$dst")"
  cp -L "$src" "$tmp/run$dst"
done
(cd "$tmp/run" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) >"$tmp/run.cpio.gz"
cat "$initrd" "$tmp/run.cpio.gz" >"$tmp/initrd"

cmdline="console=ttyS0 no_timer_check panic=-1 loglevel=4 rxq.timeout=$((limit - 10))"
[ -z "$modules" ] || cmdline="$cmdline rxq.modules=$modules"
[ -z "$append" ] || cmdline="$cmdline $append"
cmd=("$qemu" -accel tcg,thread=multi -smp 4 -m 1G
     -object memory-backend-memfd,id=mem,size=1G,share=on -machine q35,memory-backend=mem
     -nographic -no-reboot -nic none
     -kernel "$kernel" -initrd "$tmp/initrd" -append "$cmdline"
     "${dev[@]}" "${extra[@]}")
if [ -n "$netns" ]; then
  ip netns list | awk '{print $1}' | grep -qxF "$netns" ||
    die "no network namespace $netns (scripts/qemu-netns.sh up)"
  cmd=(ip netns exec "$netns" "${cmd[@]}")
fi

echo "qemu-run: booting ($(basename "$kernel"), 4 vCPUs TCG, timeout ${limit}s, log $log)"
t0=$(date +%s)
rc=0
if [ "$show" = 1 ]; then
  timeout -k 10 "$limit" "${cmd[@]}" </dev/null 2>&1 | tee "$log" | tr -d '\r' || rc=${PIPESTATUS[0]}
else
  timeout -k 10 "$limit" "${cmd[@]}" </dev/null >"$log" 2>&1 || rc=$?
fi
sed -i 's/\r$//' "$log"
dt=$(( $(date +%s) - t0 ))
status=$(sed -n 's/^.*RXQ-EXIT=\([0-9][0-9]*\).*$/\1/p' "$log" | tail -n1)
booted=$(grep -m1 '^RXQ-BOOTED' "$log" || true)
[ -z "$booted" ] || echo "qemu-run: ${booted#RXQ-}"
fail_tail() { tail -n 25 "$log" | sed 's/^/qemu-run: | /' >&2; }
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
  fail_tail
  die "the guest did not finish within ${limit} s (killed; log $log)" 124
fi
if [ -z "$status" ]; then
  fail_tail
  die "the guest ended after ${dt} s without an RXQ-EXIT marker (QEMU exit $rc; log $log)" 125
fi
grep -q '^RXQ-WATCHDOG' "$log" && echo "qemu-run: the guest's watchdog powered it off" >&2
[ "$rc" = 0 ] || echo "qemu-run: note: QEMU exited with $rc" >&2
echo "qemu-run: RXQ-EXIT=$status after ${dt} s"
exit "$status"
