#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An independent check of the QEMU guest method with QEMU's own igb model
# (RSS + MSI-X): what correct spreading looks like before rxscale's device
# is served the same way (vfio-user).
#
# The 7.3 guest (4 vCPUs) gets -device igb on a TAP in the rxq namespace
# (scripts/qemu-netns.sh), puts eth0 on 10.0.9.2/24, asks for 4 combined
# channels, gives each queue vector (eth0-TxRx-0..3) its own CPU through
# /proc/irq/N/smp_affinity_list, snapshots /proc/interrupts, serves one
# iperf3 test while `mpstat -P ALL 1` runs, snapshots again and pings the
# host. The host side (in the namespace) runs iperf3 -c 10.0.9.2 -P 8 -t 10
# once the guest says it is ready, then 64 short TCP flows (connects to a
# closed port: with 8 streams one of 4 RSS queues often gets none, with 64
# flows every queue gets frames), and pings the guest.
#
# scripts/qemu_check.py then asserts behaviour, not rates: every queue
# vector fired, each on its own CPU (the one it was given); >= 3 CPUs spent
# >= 1 % in softirq; ping works both ways; iperf3 completed on both ends.
# The checker's own negative controls (all vectors on CPU 0, softirq on one
# CPU) run first, as its selftest.
#
# Usage: scripts/qemu-igb.sh [--negative] [--keep] [--timeout S]   (default 300)
#   --negative  the negative control on a real guest: every queue vector on
#               CPU 0; passes only when the checker reports NOT spread (and
#               everything else still works)
#   --keep      keep the logs (their directory is printed)
#   QEMU_DIR (default build/qemu), RXQ_NETNS/RXQ_TAP as in qemu-netns.sh
# Exit: 0 when every check passed, 1 otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# a namespace and TAP of this run's own, as scripts/qemu-vfio.sh does
ns=${RXQ_NETNS:-rxq$$}
tap=${RXQ_TAP:-rxqt$$}
export RXQ_NETNS=$ns RXQ_TAP=$tap
limit=300 keep=0 negative=0
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1; shift ;;
    --negative) negative=1; shift ;;
    --timeout) limit=${2:?}; shift 2 ;;
    *) echo "qemu-igb: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
die() { echo "qemu-igb: error: $*" >&2; exit 1; }
py=/usr/bin/python3
for t in iperf3 ping ip "$py"; do command -v "$t" >/dev/null || die "$t not installed (scripts/deps.sh qemu)"; done

"$py" "$root/scripts/qemu_check.py" selftest >/dev/null ||
  die "the checker's selftest failed (python3 scripts/qemu_check.py selftest)"
echo "qemu-igb: checker selftest passed (negative controls are reported as failing)"

tmp=$(mktemp -d /tmp/rxscale-qemu-igb.XXXXXX)
made_ns=0
cleanup() {
  [ -z "${qpid:-}" ] || kill "$qpid" 2>/dev/null || true
  [ "$made_ns" = 0 ] || "$root/scripts/qemu-netns.sh" down >/dev/null || true
  [ "$keep" = 1 ] || rm -rf "$tmp"
}
trap cleanup EXIT
ip netns list | awk '{print $1}' | grep -qxF "$ns" || made_ns=1
"$root/scripts/qemu-netns.sh" up >/dev/null

echo "RXQ_SAME_CPU=$negative" >"$tmp/guest.sh"
cat >>"$tmp/guest.sh" <<'EOF'
dev=eth0
ip link set $dev up
ip addr add 10.0.9.2/24 dev $dev
for i in $(seq 100); do [ "$(cat /sys/class/net/$dev/carrier 2>/dev/null)" = 1 ] && break; sleep 0.1; done
echo "RXQ driver: $(ethtool -i $dev | sed -n 's/^driver: //p'), carrier $(cat /sys/class/net/$dev/carrier)"
ethtool -L $dev combined 4; echo "RXQ-RC ethtool-L $?"
echo "RXQ-BEGIN ethtool-l"; ethtool -l $dev; echo "RXQ-END ethtool-l"
# one queue vector per CPU: igb pairs RX and TX in one vector (eth0-TxRx-N)
# only when it is short of MSI-X vectors; QEMU's igb has enough, so 7.3 gives
# eth0-rx-N and eth0-tx-N. Queue N's vectors go to CPU N (RXQ_SAME_CPU=1, the
# negative control: all to CPU 0).
awk -v d=$dev '$NF ~ "^" d "-(TxRx|rx|tx)-[0-9]+$" { sub(":", "", $1); print $1, $NF }' /proc/interrupts |
while read irq n; do
  q=${n##*-}
  [ "${RXQ_SAME_CPU:-0}" = 1 ] && q=0
  echo $q >/proc/irq/$irq/smp_affinity_list
  echo "RXQ-AFFINITY $n irq=$irq cpu=$(cat /proc/irq/$irq/smp_affinity_list) effective-now=$(cat /proc/irq/$irq/effective_affinity_list)"
done
iperf3 -s -1 >/tmp/iperf3.out 2>&1 &
ipid=$!
sleep 1
echo "RXQ-BEGIN interrupts-before"; cat /proc/interrupts; echo "RXQ-END interrupts-before"
mpstat -P ALL 1 12 >/tmp/mpstat.out 2>&1 &
mpid=$!
echo "RXQ-READY"
wait $ipid; echo "RXQ-RC iperf3-server $?"
# the host now opens 64 connections to a closed port (64 flows, so every
# RSS queue sees frames whatever 8 streams hash to), pings, then says done
echo "RXQ-WAIT-HOST"
timeout 60 nc -l -p 5999 >/tmp/host.msg 2>&1; echo "RXQ-HOST $(cat /tmp/host.msg)"
echo "RXQ-BEGIN interrupts-after"; cat /proc/interrupts; echo "RXQ-END interrupts-after"
echo "RXQ-BEGIN ping-guest"; ping -c 3 -W 2 10.0.9.1; echo "RXQ-END ping-guest"
wait $mpid
echo "RXQ-BEGIN mpstat"; cat /tmp/mpstat.out; echo "RXQ-END mpstat"
echo "RXQ-BEGIN iperf3-server"; cat /tmp/iperf3.out; echo "RXQ-END iperf3-server"
echo "RXQ-BEGIN ethtool-S"; ethtool -S $dev | grep -E 'rx_queue_[0-9]+_packets|tx_queue_[0-9]+_packets'; echo "RXQ-END ethtool-S"
exit 0
EOF

log=$tmp/console.log
echo "qemu-igb: booting the guest (igb on $tap in $ns; logs in $tmp)"
t0=$(date +%s)
"$root/scripts/qemu-run.sh" --script "$tmp/guest.sh" --modules igb --timeout "$limit" \
  --log "$log" --netns "$ns" \
  --device -device igb,netdev=n0,mac=52:54:00:12:34:56 \
           -netdev tap,id=n0,ifname="$tap",script=no,downscript=no >"$tmp/run.out" 2>&1 &
qpid=$!
# wait for the guest's ready marker (or its end)
while ! grep -q '^RXQ-READY' "$log" 2>/dev/null; do
  kill -0 "$qpid" 2>/dev/null || { cat "$tmp/run.out" >&2; die "the guest ended before it was ready"; }
  [ $(( $(date +%s) - t0 )) -lt "$limit" ] || die "no RXQ-READY within $limit s"
  sleep 0.5
done
tready=$(date +%s)
echo "qemu-igb: guest ready after $((tready - t0)) s; host: iperf3 -c 10.0.9.2 -P 8 -t 10"
nsx() { ip netns exec "$ns" "$@"; }
crc=1
for try in 1 2 3 4 5; do
  if nsx timeout 60 iperf3 -c 10.0.9.2 -P 8 -t 10 -J >"$tmp/client.json" 2>"$tmp/client.err"; then crc=0; break; fi
  grep -q 'unable to connect\|Connection refused' "$tmp/client.json" "$tmp/client.err" 2>/dev/null || break
  sleep 1
done
echo "qemu-igb: iperf3 client exit $crc (try $try)"
# 64 TCP flows (connects to a closed port, each from a new source port, each
# answered by a RST): RSS hashes ports, so every queue gets frames
nsx bash -c 'for i in $(seq 64); do (exec 3<>/dev/tcp/10.0.9.2/5998) 2>/dev/null; done' || true
nsx ping -c 3 -W 2 10.0.9.2 >"$tmp/host-ping.txt" 2>&1 || true
# tell the guest it may power off
for _ in $(seq 40); do
  nsx bash -c 'echo done >/dev/tcp/10.0.9.2/5999' 2>/dev/null && break
  kill -0 "$qpid" 2>/dev/null || break
  sleep 1
done
grc=0
wait "$qpid" || grc=$?
qpid=""
cat "$tmp/run.out"
echo "qemu-igb: guest done after $(( $(date +%s) - t0 )) s (exit $grc)"

echo "---- /proc/interrupts, queue vectors (before / after the iperf3 run)"
awk '/^RXQ-BEGIN interrupts-/ { on = 1; print "  " $2; next } /^RXQ-END interrupts-/ { on = 0 }
     on && (/CPU0/ || /eth0/) { print "  " $0 }' "$log"
echo "---- mpstat -P ALL 1 12 (averages)"
awk '/^RXQ-BEGIN mpstat/ { on = 1; next } /^RXQ-END mpstat/ { on = 0 } on && /^Average/ { print "  " $0 }' "$log"
echo "---- the guest's other lines"
grep -E '^(RXQ-AFFINITY|RXQ-RC|RXQ driver|RXQ-HOST)' "$log" | sed 's/^/  /'
awk '/^RXQ-BEGIN ethtool-S/ { on = 1; next } /^RXQ-END ethtool-S/ { on = 0 } on { print "  " $0 }' "$log"
echo "---- checks"
ok=0
pat=(--pattern 'eth0-(TxRx|rx)-[0-9]+')
grep -q ' eth0-tx-0$' "$log" && pat+=(--pattern 'eth0-tx-[0-9]+')
crc_chk=0
"$py" "$root/scripts/qemu_check.py" check "$log" "${pat[@]}" --queues 4 \
  --min-soft 1 --min-soft-cpus 3 --client-json "$tmp/client.json" --host-ping "$tmp/host-ping.txt" \
  >"$tmp/check.txt" || crc_chk=1
cat "$tmp/check.txt"
if [ "$negative" = 1 ]; then
  # the control passes when the spreading checks (vectors; softirq may follow)
  # failed and nothing else did
  if [ "$crc_chk" = 1 ] && grep -q '^FAIL irq-spread' "$tmp/check.txt" &&
     ! grep -vE '^FAIL (irq|softirq)-spread' "$tmp/check.txt" | grep -q '^FAIL '; then
    echo "qemu-igb: negative control: all vectors on CPU 0 were reported NOT spread, as they must be"
  else
    echo "qemu-igb: negative control: the checker did not report the vectors on CPU 0 as NOT spread"
    ok=1
  fi
elif [ "$crc_chk" = 1 ]; then
  ok=1
fi
[ "$crc" = 0 ] || { echo "qemu-igb: the host's iperf3 client failed: $(head -c 300 "$tmp/client.err")"; ok=1; }
[ "$grc" = 0 ] || { echo "qemu-igb: the guest's script ended with $grc"; ok=1; }
if grep -qE 'BUG:|Oops|WARNING:|Kernel panic' "$log"; then
  echo "qemu-igb: the guest's kernel logged BUG/Oops/WARNING/panic:"; grep -E 'BUG:|Oops|WARNING:|Kernel panic' "$log" | head -n 5
  ok=1
fi
if [ "$ok" = 0 ]; then
  echo "qemu-igb: PASS"
else
  keep=1
  echo "qemu-igb: FAIL (logs kept in $tmp)"
fi
exit "$ok"
