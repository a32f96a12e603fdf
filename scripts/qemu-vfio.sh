#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rxscale's NIC model in a real SMP Linux under QEMU: `rxscale vfio-user`
# serves the model as a vfio-user PCI device (real time, real threads) to a
# 4-vCPU Linux 7.3 guest (scripts/qemu-run.sh), its wire on the TAP device
# of a network namespace of its own (scripts/qemu-netns.sh), where the host's
# real iperf3 and ping are the peer. One scenario per call:
#
#   mainline CHIP  mainline r8169 on the CHIP row (RTL8127A, RTL8126A,
#                  RTL8125B): probe, link, ping both ways, iperf3 from the
#                  host (-P 2, 5 s), the tally counters (ethtool -S)
#   rss            rxscale_r8169 with 4 RX queues, each queue's vector given
#                  its own CPU (smp_affinity_list), iperf3 -P 8 from the host
#                  plus 64 short flows: every vector fired on its own CPU,
#                  mpstat shows softirq on >= 3 CPUs (scripts/qemu_check.py),
#                  and the per-queue counters sum to what the host sent
#   ethtool        rxscale_r8169 under iperf3 -P 4: ethtool -L rx 2, -X equal
#                  2, -G rx 512, -L rx 4 while traffic flows; the accounting
#                  closes (below) and TCP delivered every byte
#   ownbit         the RTL8127 OwnBit erratum (write-backs held 1 s or until
#                  an MMIO read) with 4 vCPUs: mainline r8169 on the RTL8127A
#                  (its handler reads the status register: 3/3 pings), rxscale
#                  _r8169 on the RTL8127A (the row's workaround: 3/3) and on
#                  the RTL8126A, whose row has no workaround (the negative
#                  control: each reply waits >= 1 s in the ring, until the
#                  write-back's delay and the service timer, where the
#                  others answer in milliseconds)
#   vanish         QEMU killed (SIGKILL) in the middle of iperf3: the server
#                  logs the guest gone, prints its counters and exits 0
#   intx           mainline r8169 on the RTL8127A with the guest's MSI off
#                  (pci=nomsi): the legacy INTx line, which QEMU masks while
#                  the guest services it; ping both ways and iperf3
#   pair           two guests, two NIC models in one rxscale vfio-user cabled
#                  to each other (--peer-socket): mainline r8169 in one,
#                  rxscale_r8169 in the other; ping and iperf3 between them
#   toeplitz       the kernel's own RSS selftest (toeplitz.c from
#                  linux-source-7.3, as toeplitz.py runs it) against
#                  rxscale_r8169, IPv4 TCP and UDP, 64 flows from the host a
#                  round: the device's hash (-v), RSS (-C: each frame on the
#                  CPU of its queue's interrupt, 4 queues on 4 CPUs) and RPS
#                  (-r: 2 queues on CPUs 0-1, RPS to CPUs 2-3); the negative
#                  control (rxhash off) must fail
#
# Accounting (rss, ethtool): every frame the host's stack sent out of the
# TAP (its tx_packets) is read by the server, offered to the model, and is
# in a ring (by queue) or in one of the model's drop counters; what the
# rings took is what the driver counted per queue as packets or drops
# (rx_queue_N_packets + rx_queue_N_drops, flushed frames included). IPv6 is
# off and neighbours are static on both ends, so nothing but the test's
# own traffic crosses the wire.
#
# Assert behaviour, never rates: this is TCG emulation on a shared host.
# Usage: scripts/qemu-vfio.sh SCENARIO [CHIP] [--keep] [--timeout S]
#   QEMU_DIR (default build/qemu), RXSCALE (default build/rxscale),
#   RXQ_NETNS/RXQ_TAP as in qemu-netns.sh
# Exit: 0 when every check passed, 1 otherwise, 2 on usage errors.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# a namespace and TAP of this run's own (runs side by side never share a
# wire, and one run's clean-up never removes another's)
ns=${RXQ_NETNS:-rxq$$}
tap=${RXQ_TAP:-rxqt$$}
export RXQ_NETNS=$ns RXQ_TAP=$tap
rx=${RXSCALE:-$root/build/rxscale}
py=/usr/bin/python3
limit=300 keep=0 scen="" chip=RTL8127A
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=1; shift ;;
    --timeout) limit=${2:?}; shift 2 ;;
    mainline|rss|ethtool|ownbit|vanish|toeplitz|pair|intx) scen=$1; shift ;;
    RTL81*) chip=$1; shift ;;
    *) echo "qemu-vfio: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$scen" ] || { echo "qemu-vfio: error: no scenario (mainline|rss|ethtool|ownbit|vanish|toeplitz|pair|intx)" >&2; exit 2; }
die() { echo "qemu-vfio: error: $*" >&2; exit 1; }
"$rx" vfio-user --help >/dev/null 2>&1 ||
  die "$rx has no vfio-user command (make libvfio-user, then meson setup --reconfigure)"
for t in iperf3 ping ip "$py"; do command -v "$t" >/dev/null || die "$t not installed (scripts/deps.sh qemu)"; done
assets=$("$root/scripts/qemu-guest.sh" "${QEMU_DIR:-$root/build/qemu}" | grep -E '^QEMU[A-Z_]*=') ||
  die "scripts/qemu-guest.sh failed"
kmod=$(echo "$assets" | sed -n 's/^QEMU_KMOD=//p')/rxscale_r8169.ko
toeplitz=$(echo "$assets" | sed -n 's/^QEMU_TOEPLITZ=//p')

# QEMU's vfio-user client posts BAR writes by default: the guest goes on
# before the device has taken them, and they may land milliseconds later
# (TCG, a shared socket).  An interrupt acknowledgement (ISR write-1-clear)
# landing after the NAPI poll has looked at the ring then clears the status
# of frames that came in between, and nothing re-raises the vector: 2 runs
# in 7 of the rss scenario stalled so (an open driver problem: it trusts
# the ack to land before its poll, as it does within microseconds on PCIe).
# Non-posted writes keep the suite about the device, not that race;
# VFU_OPTS= (empty) brings the posted writes back.
VFU_OPTS=${VFU_OPTS-'"x-no-posted-writes":true,'}
tmp=$(mktemp -d /tmp/rxscale-qemu-vfio.XXXXXX)
made_ns=0 spid="" qpid=""
cleanup() {
  [ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
  [ -z "$spid" ] || kill "$spid" 2>/dev/null || true
  [ "$made_ns" = 0 ] || "$root/scripts/qemu-netns.sh" down >/dev/null || true
  [ "$keep" = 1 ] || rm -rf "$tmp"
}
trap cleanup EXIT
ip netns list | awk '{print $1}' | grep -qxF "$ns" || made_ns=1
"$root/scripts/qemu-netns.sh" up >/dev/null
nsx() { ip netns exec "$ns" "$@"; }
# only the test's own frames on the wire: no IPv6 (router and neighbour
# solicitations), static neighbours both ways
nsx sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
nsx sysctl -qw "net.ipv6.conf.$tap.disable_ipv6=1" 2>/dev/null || true
nsx ip neigh replace 10.0.9.2 lladdr 00:e0:4c:68:00:01 dev "$tap" nud permanent
tapmac=$(ip -n "$ns" link show "$tap" | awk '/link\/ether/ {print $2}')

passed=0 failed=0
check() {   # WHAT CONDITION...
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then echo "  ok   $what"; passed=$((passed + 1));
  else echo "  FAIL $what"; failed=$((failed + 1)); fi
}
tap_tx() { ip -n "$ns" -s link show "$tap" | awk '/TX:/ {getline; print $2; exit}'; }

# serve NAME [rxscale args]: the server for one guest, in the namespace
serve() {
  local name=$1; shift
  rm -f "$tmp/$name.sock"
  nsx "$rx" vfio-user --socket "$tmp/$name.sock" --tap "$tap" --seconds "$limit" --quiet "$@" \
    >"$tmp/$name.dev" 2>&1 &
  spid=$!
  for _ in $(seq 100); do [ -S "$tmp/$name.sock" ] && return 0; sleep 0.1; done
  cat "$tmp/$name.dev" >&2; die "rxscale vfio-user did not listen on $tmp/$name.sock"
}
# boot NAME SCRIPT [qemu-run args]: the guest in the background
boot() {
  local name=$1 script=$2; shift 2
  "$root/scripts/qemu-run.sh" --script "$script" --timeout "$limit" --log "$tmp/$name.log" "$@" \
    --device -device "{\"driver\":\"vfio-user-pci\",$VFU_OPTS\"socket\":{\"path\":\"$tmp/$name.sock\",\"type\":\"unix\"}}" \
    >"$tmp/$name.run" 2>&1 &
  qpid=$!
}
ready() {   # NAME: wait for the guest's RXQ-READY
  local t0; t0=$(date +%s)
  while ! grep -q '^RXQ-READY' "$tmp/$1.log" 2>/dev/null; do
    kill -0 "$qpid" 2>/dev/null || { cat "$tmp/$1.run" >&2; tail -n 30 "$tmp/$1.log" >&2; die "$1: the guest ended before it was ready"; }
    [ $(( $(date +%s) - t0 )) -lt "$limit" ] || die "$1: no RXQ-READY within $limit s"
    sleep 0.3
  done
}
finish() {  # NAME: wait for guest and server; their exit codes in grc/src
  grc=0; wait "$qpid" || grc=$?; qpid=""
  src=0; wait "$spid" || src=$?; spid=""
}
done_msg() {   # tell the guest (nc -l 5999) it may go on
  for _ in $(seq 40); do
    nsx bash -c 'echo done >/dev/tcp/10.0.9.2/5999' 2>/dev/null && return 0
    kill -0 "$qpid" 2>/dev/null || return 1
    sleep 1
  done
}
iperf_host() {   # NAME ARGS...: the host's iperf3 client, retried until the server is up
  local name=$1; shift
  crc=1
  for _ in 1 2 3 4 5; do
    if nsx timeout 90 iperf3 -c 10.0.9.2 "$@" -J >"$tmp/$name.json" 2>"$tmp/$name.err"; then crc=0; break; fi
    grep -q 'unable to connect\|Connection refused' "$tmp/$name.json" "$tmp/$name.err" 2>/dev/null || break
    sleep 1
  done
}
flows64() {   # 64 TCP connects to a closed port of the guest, 1 s each at most
  nsx timeout 90 "$py" -c '
import socket
for i in range(64):
    s = socket.socket()
    s.settimeout(1)
    try:
        s.connect(("10.0.9.2", 5998))
    except OSError:
        pass
    s.close()' || true
}
iperf_summary() {
  "$py" -c "import json; e=json.load(open('$tmp/client.json'))['end']
print('%d bytes sent, %d received, %d retransmits, %.0f Mbit/s' % (e['sum_sent']['bytes'],
      e['sum_received']['bytes'], e['sum_sent'].get('retransmits', 0),
      e['sum_received']['bits_per_second'] / 1e6))" 2>/dev/null || echo "no iperf3 result"
}
send_exact() {   # BYTES: a seeded stream to the guest's port 6000; its md5 to sent.md5
  nsx "$py" - "$1" "$tmp/sent.md5" <<'PY'
import hashlib, random, socket, sys, time
n, out = int(sys.argv[1]), sys.argv[2]
rng, h = random.Random(29), hashlib.md5()
for _ in range(100):
    try:
        s = socket.create_connection(("10.0.9.2", 6000), timeout=5)
        break
    except OSError:
        time.sleep(0.3)
s.settimeout(120)
left = n
while left:
    b = rng.randbytes(min(left, 65536))
    h.update(b)
    s.sendall(b)
    left -= len(b)
s.shutdown(socket.SHUT_WR)
s.recv(1)
s.close()
open(out, "w").write(h.hexdigest() + "\n")
PY
}
blk() { awk -v b="RXQ-BEGIN $2" -v e="RXQ-END $2" '$0 == b {on = 1; next} $0 == e {on = 0} on' "$tmp/$1.log"; }
dev() { sed -n "$2" "$tmp/$1.dev"; }
kernel_clean() { ! grep -qE 'BUG:|Oops|WARNING:|Kernel panic|cond == 0' "$tmp/$1.log"; }
server_clean() {   # no guest or DMA error, no register the model does not know
  grep -q ', 0 guest errors, 0 DMA errors$' "$tmp/$1.dev" &&
    ! grep -q 'registers the model does not know' "$tmp/$1.dev"
}
# the accounting of NAME's run (see the header); HOSTTX0 = the TAP's tx_packets before
accounting() {
  local name=$1 tx0=$2 tx1 read offered rings drops sumq dq
  tx1=$(tap_tx)
  read=$(dev "$name" 's/^tap [^:]*: \([0-9]*\) frames .* from the host.*/\1/p')
  offered=$(dev "$name" 's/^nic0: [0-9]* frames sent, \([0-9]*\) offered to it.*/\1/p')
  rings=$(dev "$name" 's/^nic0: .* offered to it, \([0-9]*\) received into the rings.*/\1/p')
  drops=$(dev "$name" 's/^nic0: .* \([0-9]*\) RX drops$/\1/p')
  sumq=$(blk "$name" ethtool-S | awk '/rx_queue_[0-9]+_packets:/ {s += $2} END {print s + 0}')
  dq=$(blk "$name" ethtool-S | awk '/rx_queue_[0-9]+_drops:/ {s += $2} END {print s + 0}')
  echo "  host sent $((tx1 - tx0)) frames out of $tap; the server read $read and offered $offered;"
  echo "  the model put $rings into its rings ($(dev "$name" 's/^nic0 frames into ring: //p')) and dropped $drops;"
  echo "  the driver counted $sumq packets + $dq drops over its queues"
  check "$name: the server read every frame the host sent ($read = $((tx1 - tx0)))" [ "$read" = $((tx1 - tx0)) ]
  check "$name: every frame read was offered to the model" [ "$offered" = "$read" ]
  check "$name: offered = in the rings + the model's drops ($offered = $rings + $drops)" [ "$offered" = $((rings + drops)) ]
  check "$name: the rings' frames = the driver's per-queue packets + drops ($rings = $sumq + $dq)" [ "$rings" = $((sumq + dq)) ]
}

# the guest's common start: IPv6 off, eth0 10.0.9.2, static neighbour
prologue() {   # FILE DRIVER(mainline|rxscale)
  cat >"$1" <<EOF
TAPMAC=$tapmac
DRV=$2
EOF
  cat >>"$1" <<'EOF'
sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 2>/dev/null ||
  echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6
if [ "$DRV" = rxscale ]; then insmod /rxscale_r8169.ko || echo "RXQ-INSMOD-FAILED"; fi
for i in $(seq 50); do [ -e /sys/class/net/eth0 ] && break; sleep 0.1; done
echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
ip link set eth0 up
ip addr add 10.0.9.2/24 dev eth0
ip neigh replace 10.0.9.1 lladdr $TAPMAC dev eth0 nud permanent
for i in $(seq 100); do [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" = 1 ] && break; sleep 0.1; done
echo "RXQ driver: $(ethtool -i eth0 | sed -n 's/^driver: //p'), carrier $(cat /sys/class/net/eth0/carrier), speed $(cat /sys/class/net/eth0/speed 2>/dev/null)"
dmesg | grep -E 'r8169|rxscale_r8169|eth0' | sed 's/^/RXQ-DMESG /'
EOF
}
epilogue() {   # FILE: wait for the host's "done", then the counters
  cat >>"$1" <<'EOF'
echo "RXQ-WAIT-HOST"
timeout 120 nc -l -p 5999 >/tmp/host.msg 2>&1; echo "RXQ-HOST $(cat /tmp/host.msg)"
sleep 1
echo "RXQ-BEGIN interrupts-after"; cat /proc/interrupts; echo "RXQ-END interrupts-after"
echo "RXQ-BEGIN ethtool-S"; ethtool -S eth0; echo "RXQ-END ethtool-S"
echo "RXQ-BEGIN ip-link"; ip -s link show eth0; echo "RXQ-END ip-link"
exit 0
EOF
}

t0=$(date +%s)
case "$scen" in
mainline)
  g=$tmp/g.sh
  prologue "$g" mainline
  cat >>"$g" <<'EOF'
echo "RXQ-BEGIN ping-guest"; ping -c 5 -i 0.2 -W 2 10.0.9.1; echo "RXQ-END ping-guest"
iperf3 -s -1 >/tmp/iperf3.out 2>&1 &
ipid=$!
sleep 1
echo "RXQ-READY"
wait $ipid; echo "RXQ-RC iperf3-server $?"
echo "RXQ-BEGIN iperf3-server"; cat /tmp/iperf3.out; echo "RXQ-END iperf3-server"
EOF
  epilogue "$g"
  serve g --chip "$chip"
  tx0=$(tap_tx)
  boot g "$g" --modules phy_package,realtek,r8169
  ready g
  nsx ping -c 5 -i 0.2 -W 2 10.0.9.2 >"$tmp/host-ping.txt" 2>&1 || true
  iperf_host client -P 2 -t 5
  done_msg || true
  finish g
  echo "qemu-vfio: mainline r8169 on the $chip model: guest exit $grc, server exit $src ($(( $(date +%s) - t0 )) s)"
  grep -E '^RXQ driver|^RXQ-DMESG' "$tmp/g.log" | sed 's/^/  /'
  sed 's/^/  server: /' "$tmp/g.dev"
  xid=$(case $chip in RTL8127A) echo 6c9 ;; RTL8126A) echo 64a ;; RTL8125B) echo 641 ;; RTL8125A) echo 609 ;; esac)
  check "r8169 probed the $chip model (XID $xid)" grep -q "r8169 0000:00:0[0-9].0 eth0: $chip, 00:e0:4c:68:00:01, XID $xid" "$tmp/g.log"
  mbps=$(case $chip in RTL8127A) echo 10000 ;; RTL8126A) echo 5000 ;; *) echo 2500 ;; esac)
  check "link up at the part's speed ($mbps Mb/s, the realtek PHY driver bound)" \
    bash -c "grep -q 'Link is Up' '$tmp/g.log' && grep -q 'speed $mbps\$' '$tmp/g.log' &&
             ! grep -q 'Generic FE-GE Realtek PHY' '$tmp/g.log'"
  check "ping guest -> host: 5 of 5" grep -q '5 packets transmitted, 5 packets received' "$tmp/g.log"
  check "ping host -> guest: 5 of 5" grep -q '5 packets transmitted, 5 received' "$tmp/host-ping.txt"
  check "iperf3 from the host completed ($(iperf_summary)), the guest's server printed its receiver line" \
    bash -c "[ $crc = 0 ] && grep -q 'receiver' '$tmp/g.log'"
  check "ethtool -S: the model's tally counters (rx_packets > 0)" \
    [ "$(blk g ethtool-S | awk '/ rx_packets:/ {print $2}')" -gt 0 ]
  check "no kernel BUG/WARNING/rtl_*_cond timeout in the guest" kernel_clean g
  check "server: no guest or DMA error, no unknown register" server_clean g
  check "guest and server exited 0" [ "$grc$src" = 00 ]
  ;;
rss|ethtool)
  g=$tmp/g.sh
  prologue "$g" rxscale
  if [ "$scen" = rss ]; then
    cat >>"$g" <<'EOF'
# the kernel's default (netif_get_num_default_rss_queues) is 2 here
ethtool -L eth0 rx 4; echo "RXQ-RC ethtool -L eth0 rx 4: $?"
echo "RXQ-BEGIN ethtool-l"; ethtool -l eth0; echo "RXQ-END ethtool-l"
awk '$NF ~ /^eth0-rx-[0-9]+$/ { sub(":", "", $1); print $1, $NF }' /proc/interrupts |
while read irq n; do
  echo ${n##*-} >/proc/irq/$irq/smp_affinity_list
  echo "RXQ-AFFINITY $n irq=$irq cpu=$(cat /proc/irq/$irq/smp_affinity_list)"
done
echo "RXQ-BEGIN ping-guest"; ping -c 3 -i 0.2 -W 2 10.0.9.1; echo "RXQ-END ping-guest"
iperf3 -s -1 >/tmp/iperf3.out 2>&1 &
ipid=$!
sleep 1
echo "RXQ-BEGIN interrupts-before"; cat /proc/interrupts; echo "RXQ-END interrupts-before"
mpstat -P ALL 1 12 >/tmp/mpstat.out 2>&1 &
mpid=$!
echo "RXQ-READY"
wait $ipid; echo "RXQ-RC iperf3-server $?"
wait $mpid
echo "RXQ-BEGIN mpstat"; cat /tmp/mpstat.out; echo "RXQ-END mpstat"
echo "RXQ-BEGIN iperf3-server"; cat /tmp/iperf3.out; echo "RXQ-END iperf3-server"
EOF
  else
    cat >>"$g" <<'EOF'
iperf3 -s -1 >/tmp/iperf3.out 2>&1 &
ipid=$!
(nc -l -p 6000 | md5sum >/tmp/md5) &
npid=$!
sleep 1
echo "RXQ-READY"
# wait for the host's traffic, then change the NIC under it
for i in $(seq 100); do [ "$(cat /sys/class/net/eth0/statistics/rx_packets)" -gt 2000 ] && break; sleep 0.1; done
for cmd in "-L eth0 rx 2" "-X eth0 equal 2" "-G eth0 rx 512" "-L eth0 rx 4" "-X eth0 default"; do
  sleep 1
  ethtool $cmd; echo "RXQ-RC ethtool $cmd: $?"
done
ethtool -l eth0 | sed -n '/Current/,$p' | sed 's/^/RXQ-L /'
ethtool -g eth0 | sed -n '/Current/,$p' | sed 's/^/RXQ-G /'
wait $ipid; echo "RXQ-RC iperf3-server $?"
wait $npid; echo "RXQ-MD5 $(cat /tmp/md5)"
echo "RXQ-BEGIN iperf3-server"; cat /tmp/iperf3.out; echo "RXQ-END iperf3-server"
EOF
  fi
  epilogue "$g"
  serve g
  tx0=$(tap_tx)
  boot g "$g" --file "$kmod"
  ready g
  if [ "$scen" = rss ]; then
    iperf_host client -P 8 -t 10
    # 64 short flows (connects to a closed port): every queue gets frames
    flows64
    nsx ping -c 3 -i 0.2 -W 2 10.0.9.2 >"$tmp/host-ping.txt" 2>&1 || true
  else
    send_exact $((32 << 20)) &
    xpid=$!
    iperf_host client -P 4 -t 12
    wait "$xpid" || true
  fi
  done_msg || true
  finish g
  echo "qemu-vfio: $scen: rxscale_r8169 on the RTL8127A model: guest exit $grc, server exit $src ($(( $(date +%s) - t0 )) s)"
  grep -E '^RXQ driver|^RXQ-DMESG|^RXQ-AFFINITY|^RXQ-RC|^RXQ-[LG] ' "$tmp/g.log" | sed 's/^/  /'
  sed 's/^/  server: /' "$tmp/g.dev"
  if [ "$scen" = rss ]; then
    echo "  ---- /proc/interrupts, RX vectors (before / after)"
    for b in interrupts-before interrupts-after; do
      echo "  $b"; blk g $b | grep -E 'CPU0|eth0-rx-' | sed 's/^/    /'
    done
    echo "  ---- mpstat -P ALL 1 12 (averages)"
    blk g mpstat | grep '^Average' | sed 's/^/    /'
    check "rxscale_r8169 probed with per-vector interrupts; ethtool -L rx 4 gave 4 RX queues" \
      bash -c "grep -q 'rxscale_r8169 0000:00:0[0-9].0 eth0: RTL8127A, XID 6c9, per-vector interrupts' '$tmp/g.log' &&
               grep -q '^RXQ-RC ethtool -L eth0 rx 4: 0' '$tmp/g.log' &&
               [ \$(grep -c 'eth0-rx-[0-9]\$' '$tmp/g.log') -ge 8 ]"
    "$py" "$root/scripts/qemu_check.py" check "$tmp/g.log" --pattern 'eth0-rx-[0-9]+' --queues 4 \
      --min-soft 1 --min-soft-cpus 3 --client-json "$tmp/client.json" --host-ping "$tmp/host-ping.txt" \
      >"$tmp/check.txt" 2>&1 && cc=0 || cc=1
    sed 's/^/  checker: /' "$tmp/check.txt"
    check "qemu_check.py: every RX vector fired on its own CPU, softirq on >= 3 CPUs, ping both ways, iperf3" [ "$cc" = 0 ]
  else
    check "every ethtool change under traffic was accepted" \
      [ "$(grep -c '^RXQ-RC ethtool .*: 0$' "$tmp/g.log")" = 5 ]
    check "the changes took effect: 4 RX queues, 512 RX descriptors at the end" \
      bash -c "grep -qE '^RXQ-L RX:[[:space:]]+4' '$tmp/g.log' && grep -qE '^RXQ-G RX:[[:space:]]+512' '$tmp/g.log'"
    check "iperf3 under the changes completed ($(iperf_summary))" [ "$crc" = 0 ]
    check "a 32 MiB transfer during the changes arrived whole (md5 $(cut -c1-12 "$tmp/sent.md5")...)" \
      grep -q "^RXQ-MD5 $(cat "$tmp/sent.md5")" "$tmp/g.log"
  fi
  accounting g "$tx0"
  check "no kernel BUG/WARNING in the guest" kernel_clean g
  check "server: no guest or DMA error, no unknown register" server_clean g
  check "guest and server exited 0" [ "$grc$src" = 00 ]
  ;;
ownbit)
  g=$tmp/g.sh
  for run in "mainline RTL8127A 3" "rxscale RTL8127A 3" "rxscale RTL8126A 0"; do
    set -- $run
    n=ob-$1-$2
    prologue "$tmp/$n.sh" "$1"
    cat >>"$tmp/$n.sh" <<'EOF'
echo "RXQ-READY"
echo "RXQ-BEGIN ping-guest"; ping -c 3 -i 0.3 -W 6 10.0.9.1; echo "RXQ-END ping-guest"
exit 0
EOF
    serve "$n" --chip "$2" --ownbit-erratum=1000000000
    if [ "$1" = mainline ]; then boot "$n" "$tmp/$n.sh" --modules phy_package,realtek,r8169
    else boot "$n" "$tmp/$n.sh" --file "$kmod"; fi
    finish "$n"
    got=$(sed -n 's/^3 packets transmitted, \([0-9]*\) packets received.*/\1/p' "$tmp/$n.log")
    # the round-trip times in whole ms, and how many were 1 s or more
    rtts=$(sed -n 's/^64 bytes from .* time=\([0-9]*\)\.[0-9]* ms$/\1/p' "$tmp/$n.log" | tr '\n' ' ')
    slow=0; for t in $rtts; do [ "$t" -ge 1000 ] && slow=$((slow + 1)); done
    echo "  $([ "$1" = rxscale ] && echo rxscale_r8169 || echo "mainline r8169") on $2 with the erratum on: $got of 3 replies (RTT ms: $rtts); $(dev "$n" 's/^nic0 OwnBit erratum: //p')"
    case "$1-$2" in
      mainline-*) what="mainline r8169 (its handler reads the status register, which lands the write-back): 3 of 3 at once" ;;
      rxscale-RTL8127A) what="rxscale_r8169 with the RTL8127A's workaround (OWN re-read after an MMIO read): 3 of 3 at once" ;;
      *) what="rxscale_r8169 on the RTL8126A (no workaround in its row), erratum on: each reply waits in the ring >= 1 s, until the write-back's delay and the service timer" ;;
    esac
    if [ "$3" = 0 ]; then check "$what" [ "$got/$slow" = 3/3 ]
    else check "$what" [ "$got/$slow" = 3/0 ]; fi
    check "$n: guest and server exited 0" [ "$grc$src" = 00 ]
  done
  ;;
vanish)
  g=$tmp/g.sh
  prologue "$g" rxscale
  cat >>"$g" <<'EOF'
iperf3 -s >/tmp/iperf3.out 2>&1 &
sleep 1
echo "RXQ-READY"
sleep 200
EOF
  serve g
  boot g "$g" --file "$kmod"
  ready g
  ip netns exec "$ns" timeout 60 iperf3 -c 10.0.9.2 -P 4 -t 30 >"$tmp/client.txt" 2>&1 &
  ipid=$!
  sleep 4
  pkill -KILL -f "vfio-user-pci.*$tmp/g.sock" || true
  t1=$(date +%s)
  src=0; wait "$spid" || src=$?; spid=""
  dt=$(( $(date +%s) - t1 ))
  wait "$qpid" 2>/dev/null || true; qpid=""
  kill "$ipid" 2>/dev/null || true; wait "$ipid" 2>/dev/null || true
  echo "qemu-vfio: vanish: QEMU killed during iperf3; the server exited $src after $dt s"
  sed 's/^/  server: /' "$tmp/g.dev"
  check "the server saw the guest go" grep -q 'every guest came and went' "$tmp/g.dev"
  check "the server printed its counters and exited 0 within 10 s" \
    bash -c "[ $src = 0 ] && [ $dt -le 10 ] && grep -q '^real time: ' '$tmp/g.dev'"
  check "frames flowed before the kill" \
    [ "$(dev g 's/^nic0: .* offered to it, \([0-9]*\) received into the rings.*/\1/p')" -gt 100 ]
  ;;
intx)
  g=$tmp/g.sh
  prologue "$g" mainline
  cat >>"$g" <<'EOF'
grep eth0 /proc/interrupts | sed 's/^/RXQ-IRQ /'
echo "RXQ-BEGIN ping-guest"; ping -c 5 -i 0.2 -W 2 10.0.9.1; echo "RXQ-END ping-guest"
iperf3 -s -1 >/tmp/iperf3.out 2>&1 &
ipid=$!
sleep 1
echo "RXQ-READY"
wait $ipid; echo "RXQ-RC iperf3-server $?"
echo "RXQ-BEGIN iperf3-server"; cat /tmp/iperf3.out; echo "RXQ-END iperf3-server"
grep eth0 /proc/interrupts | sed 's/^/RXQ-IRQ-AFTER /'
EOF
  epilogue "$g"
  serve g
  boot g "$g" --modules phy_package,realtek,r8169 --append pci=nomsi
  ready g
  nsx ping -c 5 -i 0.2 -W 2 10.0.9.2 >"$tmp/host-ping.txt" 2>&1 || true
  iperf_host client -P 2 -t 3
  done_msg || true
  finish g
  echo "qemu-vfio: intx: mainline r8169, pci=nomsi: guest exit $grc, server exit $src ($(( $(date +%s) - t0 )) s)"
  grep -E '^RXQ-IRQ' "$tmp/g.log" | sed 's/^/  /'
  sed 's/^/  server: /' "$tmp/g.dev"
  check "r8169 took the INTx line (an IO-APIC interrupt, no MSI/MSI-X vector)" \
    bash -c "grep -q '^RXQ-IRQ .*IO-APIC.*eth0' '$tmp/g.log' && ! grep -q '^RXQ-IRQ .*MSI' '$tmp/g.log'"
  check "ping guest -> host: 5 of 5" grep -q '5 packets transmitted, 5 packets received' "$tmp/g.log"
  check "ping host -> guest: 5 of 5" grep -q '5 packets transmitted, 5 received' "$tmp/host-ping.txt"
  check "iperf3 from the host completed ($(iperf_summary))" \
    bash -c "[ $crc = 0 ] && grep -q 'receiver' '$tmp/g.log'"
  check "no kernel BUG/WARNING in the guest" kernel_clean g
  check "server: no guest or DMA error" server_clean g
  check "guest and server exited 0" [ "$grc$src" = 00 ]
  ;;
pair)
  # A (10.0.8.1, mainline r8169, MAC ...:01) and B (10.0.8.2, rxscale_r8169,
  # MAC ...:02): two QEMUs of 4 vCPUs each on this host, so the guests are
  # slow; only behaviour is asserted
  cat >"$tmp/b.sh" <<'EOF'
insmod /rxscale_r8169.ko || echo "RXQ-INSMOD-FAILED"
for i in $(seq 50); do [ -e /sys/class/net/eth0 ] && break; sleep 0.1; done
ip link set eth0 up; ip addr add 10.0.8.2/24 dev eth0
echo "RXQ driver: $(ethtool -i eth0 | sed -n 's/^driver: //p')"
iperf3 -s -1 >/tmp/iperf3.out 2>&1
echo "RXQ-BEGIN iperf3-server"; cat /tmp/iperf3.out; echo "RXQ-END iperf3-server"
echo "RXQ-BEGIN ethtool-S"; ethtool -S eth0 | grep -E 'rx_queue_[0-9]+_packets'; echo "RXQ-END ethtool-S"
exit 0
EOF
  cat >"$tmp/a.sh" <<'EOF'
for i in $(seq 50); do [ -e /sys/class/net/eth0 ] && break; sleep 0.1; done
ip link set eth0 up; ip addr add 10.0.8.1/24 dev eth0
echo "RXQ driver: $(ethtool -i eth0 | sed -n 's/^driver: //p')"
for i in $(seq 120); do ping -c 1 -W 1 10.0.8.2 >/dev/null 2>&1 && break; done
sleep 2
echo "RXQ-BEGIN ping-guest"; ping -c 5 -i 0.2 -W 2 10.0.8.2; echo "RXQ-END ping-guest"
rc=1
for i in $(seq 20); do iperf3 -c 10.0.8.2 -P 4 -t 5 && { rc=0; break; }; sleep 1; done
echo "RXQ-RC iperf3-client $rc"
exit 0
EOF
  rm -f "$tmp/a.sock" "$tmp/b.sock"
  "$rx" vfio-user --socket "$tmp/a.sock" --peer-socket "$tmp/b.sock" --seconds "$limit" --quiet \
    >"$tmp/a.dev" 2>&1 &
  spid=$!
  for _ in $(seq 100); do [ -S "$tmp/a.sock" ] && [ -S "$tmp/b.sock" ] && break; sleep 0.1; done
  "$root/scripts/qemu-run.sh" --script "$tmp/b.sh" --timeout "$limit" --log "$tmp/b.log" --file "$kmod" \
    --device -device "{\"driver\":\"vfio-user-pci\",$VFU_OPTS\"socket\":{\"path\":\"$tmp/b.sock\",\"type\":\"unix\"}}" \
    >"$tmp/b.run" 2>&1 &
  bpid=$!
  "$root/scripts/qemu-run.sh" --script "$tmp/a.sh" --timeout "$limit" --log "$tmp/a.log" \
    --modules phy_package,realtek,r8169 \
    --device -device "{\"driver\":\"vfio-user-pci\",$VFU_OPTS\"socket\":{\"path\":\"$tmp/a.sock\",\"type\":\"unix\"}}" \
    >"$tmp/a.run" 2>&1 && arc=0 || arc=$?
  brc=0; wait "$bpid" || brc=$?
  src=0; wait "$spid" || src=$?; spid=""
  echo "qemu-vfio: pair: guest A exit $arc, guest B exit $brc, server exit $src ($(( $(date +%s) - t0 )) s)"
  grep -E '^RXQ driver|^RXQ-RC' "$tmp/a.log" "$tmp/b.log" | sed 's/^/  /'
  sed 's/^/  server: /' "$tmp/a.dev"
  check "A: mainline r8169 on nic0, B: rxscale_r8169 on nic1" \
    bash -c "grep -q 'RXQ driver: r8169' '$tmp/a.log' && grep -q 'RXQ driver: rxscale_r8169' '$tmp/b.log'"
  check "ping A -> B: 5 of 5" grep -q '5 packets transmitted, 5 packets received' "$tmp/a.log"
  check "iperf3 -P 4 from A to B completed on both ends" \
    bash -c "grep -q '^RXQ-RC iperf3-client 0' '$tmp/a.log' && grep -q 'receiver' '$tmp/b.log'"
  check "no kernel BUG/WARNING in either guest" bash -c "! grep -qE 'BUG:|Oops|WARNING:|Kernel panic' '$tmp/a.log' '$tmp/b.log'"
  check "no guest or DMA error on either NIC" \
    [ "$(grep -c ', 0 guest errors, 0 DMA errors$' "$tmp/a.dev")" = 2 ]
  check "guests and server exited 0" [ "$arc$brc$src" = 000 ]
  ;;
toeplitz)
  g=$tmp/g.sh
  prologue "$g" rxscale
  cat >>"$g" <<'EOF'
ethtool -k eth0 | grep -E '^receive-hashing'
ethtool -N eth0 rx-flow-hash udp4 sdfn && echo "RXQ udp4 4-tuple on"
# queue N's interrupt on CPU N (toeplitz.py wants each on a single CPU)
pin() {
  awk '$NF ~ /^eth0-rx-[0-9]+$/ { sub(":", "", $1); print $1, $NF }' /proc/interrupts |
  while read irq n; do echo ${n##*-} >/proc/irq/$irq/smp_affinity_list; done
}
cpus_of_queues() {
  c=""
  for q in $(seq 0 $(($1 - 1))); do
    irq=$(awk -v n="eth0-rx-$q" '$NF == n { sub(":", "", $1); print $1 }' /proc/interrupts)
    c=$c${c:+,}$(cat /proc/irq/$irq/smp_affinity_list)
  done
  echo $c
}
# per-queue packets (ethtool -S) and per-CPU RPS arrivals (softnet_stat's
# received_rps, the 10th column, hex) before a round, and their deltas after
qsnap() { ethtool -S eth0 | awk '/rx_queue_[0-9]+_packets:/ { sub(":", "", $1); print $1, $2 }'; }
qdelta() {
  qsnap | while read k v; do
    b=$(awk -v k=$k '$1 == k { print $2 }' $1); echo -n "${k#rx_queue_} $((v - ${b:-0})) "
  done
}
rpssnap() { c=0; while read -r l; do set -- $l; echo "$c $(printf %d 0x${10})"; c=$((c + 1)); done </proc/net/softnet_stat; }
rpsdelta() {
  rpssnap | while read c v; do
    b=$(awk -v c=$c '$1 == c { print $2 }' $1); echo -n "cpu$c $((v - ${b:-0})) "
  done
}
port=8000
for round in "hash tcp" "hash udp" "rss tcp" "rss udp" "rps tcp" "rps udp" "nohw tcp"; do
  set -- $round; grp=$1 proto=$2; port=$((port + 1))
  flag=$([ $proto = udp ] && echo -u || echo -t)
  extra=""
  case $grp in
    rss) ethtool -L eth0 rx 4; pin; extra="-C $(cpus_of_queues 4)" ;;
    rps) ethtool -L eth0 rx 2; pin
         for f in /sys/class/net/eth0/queues/rx-*/rps_cpus; do echo c >$f; done
         extra="-r 0xc" ;;
    nohw) for f in /sys/class/net/eth0/queues/rx-*/rps_cpus; do echo 0 >$f; done
          ethtool -K eth0 rxhash off ;;
  esac
  qsnap >/tmp/q.before; rpssnap >/tmp/rps.before
  echo "RXQ-TZ-BEGIN $grp-$proto: toeplitz -4 $flag -d $port -i eth0 -T 8000 -s -v $extra"
  /toeplitz -4 $flag -d $port -i eth0 -T 8000 -s -v $extra >/tmp/tz.out 2>/tmp/tz.err &
  pid=$!
  for i in $(seq 100); do grep -q ready /tmp/tz.out && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  echo "RXQ-TZ-SEND $proto $port"
  wait $pid; rc=$?
  grep -vE '^(rxq|cpu|silo) ' /tmp/tz.err | sed "s/^/RXQ-TZ $grp-$proto | /"
  grep -E '^cpu ' /tmp/tz.err | head -n 3 | sed "s/^/RXQ-TZ $grp-$proto | /"
  grep -oE 'OK (rxq|silo) [0-9]+ \(cpu [0-9]+\)' /tmp/tz.err | sort | uniq -c |
    sed "s/^ */RXQ-TZ-WHERE $grp-$proto /"
  echo "RXQ-TZ-QUEUES $grp-$proto $(qdelta /tmp/q.before)"
  echo "RXQ-TZ-RPS $grp-$proto $(rpsdelta /tmp/rps.before)"
  echo "RXQ-TZ-RC $grp-$proto $rc"
done
exit 0
EOF
  serve g
  boot g "$g" --file "$kmod" --file "$toeplitz:/toeplitz"
  sent=0
  t1=$(date +%s)
  while kill -0 "$qpid" 2>/dev/null && [ $(( $(date +%s) - t1 )) -lt "$limit" ]; do
    n=$(grep -c '^RXQ-TZ-SEND ' "$tmp/g.log" 2>/dev/null || true)
    if [ "${n:-0}" -gt "$sent" ]; then
      set -- $(grep '^RXQ-TZ-SEND ' "$tmp/g.log" | sed -n "${n}p")
      # 64 flows, source ports 20000..20063, 3 frames each (TCP: SYN
      # retries to the sink; UDP: 3 datagrams)
      nsx timeout 60 "$py" - "$2" "$3" <<'PY'
import socket, sys, time
proto, port = sys.argv[1], int(sys.argv[2])
for rep in range(3):
    for i in range(64):
        if proto == "udp":
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        else:
            s = socket.socket()
            s.settimeout(0.05)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("10.0.9.1", 20000 + i))
        try:
            if proto == "udp":
                s.sendto(b"rxscale toeplitz %d" % i, ("10.0.9.2", port))
            else:
                s.connect(("10.0.9.2", port))
        except OSError:
            pass
        s.close()
    time.sleep(0.2)
PY
      sent=$n
    fi
    sleep 0.3
  done
  finish g
  echo "qemu-vfio: toeplitz: guest exit $grc, server exit $src ($(( $(date +%s) - t0 )) s)"
  grep -E '^RXQ-TZ|^receive-hashing|^RXQ udp4' "$tmp/g.log" | grep -v '^RXQ-TZ-SEND' | sed 's/^/  /'
  for r in hash-tcp hash-udp rss-tcp rss-udp rps-tcp rps-udp; do
    count=$(sed -n "s/^RXQ-TZ $r | count: //p" "$tmp/g.log")
    check "toeplitz $r: the selftest passed ($count)" \
      bash -c "grep -q '^RXQ-TZ-RC $r 0\$' '$tmp/g.log' && echo '$count' | grep -qE '^pass=[1-9][0-9]* nohash=0 fail=0\$'"
  done
  # toeplitz.c stops at its first 40-odd samples (the ring that fills
  # first), so where the frames went is read from the counters: RSS rounds
  # spread over the 4 queues, each queue's interrupt pinned to its own CPU;
  # RPS rounds hand every frame to CPU 2 or 3, none to 0-1
  for r in rss-tcp rss-udp; do
    d=$(sed -n "s/^RXQ-TZ-QUEUES $r //p" "$tmp/g.log")
    n=$(echo "$d" | awk '{ for (i = 2; i <= NF; i += 2) if ($i > 0) n++ } END { print n + 0 }')
    check "toeplitz $r: frames on $n of 4 queues, whose interrupts are on CPUs 0-3 (per queue: $d)" [ "$n" -ge 3 ]
  done
  for r in rps-tcp rps-udp; do
    d=$(sed -n "s/^RXQ-TZ-RPS $r //p" "$tmp/g.log")
    ok=$(echo "$d" | awk '{ for (i = 1; i < NF; i += 2) v[$i] = $(i + 1) }
      END { print (v["cpu2"] > 0 && v["cpu3"] > 0 && v["cpu0"] == 0 && v["cpu1"] == 0) }')
    check "toeplitz $r: RPS woke CPUs 2 and 3 for frames, never the RX queues' CPUs 0-1 (softnet received_rps: $d)" \
      [ "$ok" = 1 ]
  done
  count=$(sed -n "s/^RXQ-TZ nohw-tcp | count: //p" "$tmp/g.log")
  check "negative control: with rxhash off the selftest fails ($count)" \
    bash -c "! grep -q '^RXQ-TZ-RC nohw-tcp 0\$' '$tmp/g.log' && echo '$count' | grep -qE 'fail=[1-9]'"
  check "receive-hashing: on" grep -q '^receive-hashing: on' "$tmp/g.log"
  check "no kernel BUG/WARNING in the guest" kernel_clean g
  check "guest and server exited 0" [ "$grc$src" = 00 ]
  ;;
esac
label=$scen
[ "$scen" = mainline ] && label="mainline $chip"
echo "qemu-vfio: $label: $passed passed, $failed failed ($(( $(date +%s) - t0 )) s)"
[ "$failed" = 0 ] || { keep=1; echo "qemu-vfio: logs kept in $tmp"; }
[ "$failed" = 0 ]
