#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Determinism of a real kernel on the model under rxscale's clock: run the
# same guest twice under `rxscale uml --time-travel` (rxscale is the UML
# time-travel controller, the guest and the NIC model share the simulator's
# virtual time). The guest's init brings eth0 up, pings the built-in peer 5
# times, takes eth0 down and powers off. Passes when both runs give
# byte-identical guest console logs and identical rxscale counters (every
# line of rxscale's output but the one with host seconds).
#
# Usage: scripts/uml-determinism.sh [OUTDIR]
#   UML_LINUX=path       the UML kernel (default build/uml/linux-7.3/linux)
#   RXSCALE=path         rxscale binary (default build/rxscale)
#   UML_DET_TIMEOUT=120  seconds each guest and each rxscale may take
#   UML_DET_DIR=dir      fixed work directory (default /tmp/rxscale-det):
#                        paths appear in the console log, so both runs use
#                        the same one; it is emptied before each run
#   OUTDIR               where the logs are kept (default build/uml-det)
#
# Exit: 0 identical (and the ping got 5/5), 1 different or failed, 2 usage.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "uml-determinism: FAIL: $*" >&2; exit 1; }
case "${1:-}" in -h|--help) sed -n '2,20p' "$0"; exit 0 ;; -*) exit 2 ;; esac
linux=${UML_LINUX:-$root/build/uml/linux-7.3/linux}
rxscale=${RXSCALE:-$root/build/rxscale}
limit=${UML_DET_TIMEOUT:-120}
dir=${UML_DET_DIR:-/tmp/rxscale-det}
out=${1:-$root/build/uml-det}
[ -x "$linux" ] || fail "no UML kernel (run make uml-kernel, or set UML_LINUX)"
[ -x "$rxscale" ] || fail "no rxscale at $rxscale (run make)"
command -v setarch >/dev/null || fail "setarch (util-linux) not found"
mkdir -p "$out"

run() {  # run N: one guest under the controller; logs in $out/runN.*
  local n=$1 rxpid rc grc
  rm -rf "$dir"; mkdir -p "$dir/uml"
  cat > "$dir/init.sh" <<'EOF'
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
echo "init: start"
ip link set lo up
ip link set eth0 up
ip addr add 10.0.0.1/24 dev eth0
sleep 1
ip -br link show eth0
ping -c 5 -i 0.2 10.0.0.2
echo "init: ping rc=$?"
grep eth0 /proc/interrupts
# close eth0 first: r8169's shutdown and then its removal (UML's exit)
# would disable its NAPI twice and wait forever
ip link set eth0 down
echo "init: poweroff"
echo o > /proc/sysrq-trigger
sleep 60
EOF
  chmod +x "$dir/init.sh"
  timeout "$limit" "$rxscale" uml --socket "$dir/a.sock" --time-travel \
    --time-socket "$dir/time.sock" --seconds 60 > "$out/run$n.rxscale" 2>&1 &
  rxpid=$!
  for _ in $(seq 100); do [ -S "$dir/time.sock" ] && break; sleep 0.05; done
  [ -S "$dir/time.sock" ] || { kill "$rxpid" 2>/dev/null; fail "run $n: no controller socket"; }
  grc=0
  timeout -s KILL "$limit" setarch -R "$linux" mem=256M umid=rxscale-det uml_dir="$dir/uml" \
    root=/dev/root rootfstype=hostfs rootflags=/ rw init="$dir/init.sh" \
    virtio_uml.device="$dir/a.sock:1234" time-travel=ext:0:"$dir/time.sock" \
    con0=null,fd:1 con=null < /dev/null > "$out/run$n.console" 2>&1 || grc=$?
  rc=0
  wait "$rxpid" || rc=$?
  [ "$grc" -eq 0 ] || fail "run $n: the guest exited with $grc (see $out/run$n.console)"
  [ "$rc" -eq 0 ] || fail "run $n: rxscale exited with $rc (see $out/run$n.rxscale)"
  grep -q '5 received' "$out/run$n.console" || fail "run $n: ping did not get 5/5"
  grep -q 'reboot: Power down' "$out/run$n.console" || fail "run $n: no power-off"
  grep -v '^time-travel: .* host time' "$out/run$n.rxscale" > "$out/run$n.counters"
  grep '^time-travel: ' "$out/run$n.rxscale" || true
}

run 1
run 2
if cmp -s "$out/run1.console" "$out/run2.console" &&
   cmp -s "$out/run1.counters" "$out/run2.counters"; then
  echo "uml-determinism: PASS: console logs ($(wc -c < "$out/run1.console") bytes) and rxscale counters identical"
  exit 0
fi
diff "$out/run1.console" "$out/run2.console" | head -20 || true
diff "$out/run1.counters" "$out/run2.counters" | head -20 || true
fail "the two runs differ (logs in $out)"
