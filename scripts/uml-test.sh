#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Real kernels on the NIC model: User-Mode Linux guests (the kernel that
# scripts/uml-kernel.sh built) whose PCI device is an RTL8127A model served
# by `rxscale uml` over virt-pci, with rxscale as the guests' time-travel
# controller (one clock: the guests and the models run in the simulator's
# virtual time, so every run gives the same result).  The checks:
#
#  1. mainline  - the kernel's own r8169 probes the model (XID 6c9), links
#                 up, `ping -c 5` to the peer on the wire gets 5 replies,
#                 `ethtool -S` shows the model's tally counters (DMA),
#                 and it touches no register the model does not know.
#  2. rxscale   - rxscale's driver (kmod/, built against the same tree)
#                 replaces r8169: 4 RX queues with an MSI-X vector each,
#                 ping, then the real ethtool core: -l, -x, -X equal 2,
#                 -L rx 2, ping again; RSS spreads the replies.
#  3. iperf3    - two guests, each on its own model, the two models cabled
#                 together, iperf3 TCP between them: mainline r8169 at both
#                 ends; rxscale_r8169 sending to mainline; mainline sending
#                 8 streams to rxscale_r8169, RSS spreading them over its
#                 4 RX queues (twice: every figure the same).  Both ends
#                 finish normally, no figure above the 10 Gbit/s line rate.
#  4. ownbit    - the RTL8127 OwnBit erratum on (write-backs held until the
#                 host's next MMIO read): a lone ping with mainline r8169,
#                 with rxscale's driver and its workaround, and without it.
#  5. time      - the guest's clocks against known deadlines: ping -c 5
#                 -i 0.2 right after link-up and after a sleep (>= 800
#                 ms), sleep 1 and 0.25 on /proc/uptime and date, the
#                 wall clock rxscale gave; two runs, every reading the same.
#  6. stress    - 10,000 rounds of back-to-back MMIO from a test module
#                 (scripts/uml-mmio-stress.c) under a ping flood, then
#                 ethtool -X/-S/-L loops (rxscale_r8169) and -S with link
#                 down/up (mainline): every read right, nothing fails.
#  7. older     - (when built) the 6.12 kernel's r8169 on the RTL8125B and
#                 RTL8126A rows.
#
# Every guest log must be free of BUG, Oops and WARNING, UML's virt-pci
# command timeout ("um virt-pci delay") included.
#
# (make uml-test also runs scripts/uml-determinism.sh, two runs compared
# byte for byte, and scripts/uml-toeplitz.sh.)
#
# Usage: scripts/uml-test.sh [OUTDIR]      (default: build/uml)
#   UML_KERNEL=7.3          which tree under OUTDIR
#   UML_TEST_TIMEOUT=120    seconds (host time) a guest may run before it
#                           is killed
#   UML_TEST_KEEP=1         keep the logs (their directory is printed)
#   UML_TEST_RXSCALE_ENV="V=1 ..."  environment for rxscale uml (e.g.
#                           RXSCALE_VIRTPCI_TRACE=1 RXSCALE_TT_TRACE=1)
#   UML_TEST_ONLY="a b"     run only these checks (mainline rxscale iperf3
#                           ownbit time stress older)
# Needs: rxscale built (build/rxscale), the UML kernel (make uml-kernel),
# the modules for it (scripts/uml-kmod.sh), ping, ethtool, iperf3.
# Exit: 0 when every check passed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
ver=${UML_KERNEL:-7.3}
out=$(cd "${1:-$root/build/uml}" 2>/dev/null && pwd) || {
  echo "uml-test: FAIL: no directory ${1:-$root/build/uml} (make uml-kernel)" >&2; exit 1; }
linux=$out/linux-$ver/linux
kmoddir=$out/kmod-$ver
rxscale=$root/build/rxscale
limit=${UML_TEST_TIMEOUT:-120}
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

for f in "$linux" "$rxscale" "$kmoddir/rxscale_r8169.ko"; do
  [ -e "$f" ] || { echo "uml-test: FAIL: missing $f" >&2; exit 1; }
done
for t in ping ethtool iperf3 setarch timeout; do
  command -v $t >/dev/null || { echo "uml-test: FAIL: $t not installed" >&2; exit 1; }
done

tmp=$(mktemp -d /tmp/rxscale-uml-test.XXXXXX)
mkdir -p "$tmp/uml"
[ -n "${UML_TEST_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# init FILE BODY: a guest init (PID 1: it must not exit, so it ends by
# powering off and waiting for it)
init() {
  { echo '#!/bin/sh'
    echo 'export PATH=/usr/sbin:/usr/bin:/sbin:/bin'
    echo 'mount -t proc proc /proc; mount -t sysfs sysfs /sys; ip link set lo up'
    cat
    # (with eth0 up, UML's power-off path waits forever in napi_disable)
    echo 'ip link set eth0 down 2>/dev/null'
    echo 'echo "RXS-END"'
    echo 'echo o > /proc/sysrq-trigger; sleep 30'
  } > "$1"
  chmod +x "$1"
}

# TT_SOCK=PATH TT_ID=N guest NAME SOCK INIT [VAR=VALUE...]: boot a guest
# on SOCK as time-travel client N of the controller at PATH, console to
# $tmp/NAME.log; VAR=VALUE words reach the init's environment
guest() {
  # (UML ends with SIGABRT after the poweroff; the subshell keeps the
  # shell's "Aborted" notice off the output)
  ( timeout -s KILL "$limit" setarch -R "$linux" mem=256M umid="rxs-$1" \
    uml_dir="$tmp/uml" root=/dev/root rootfstype=hostfs rootflags=/ rw \
    init="$3" virtio_uml.device="$2":1234 \
    time-travel=ext:"${TT_ID:-0}":"$TT_SOCK" con0=null,fd:1 con=null "${@:4}" \
    </dev/null >"$tmp/$1.log" 2>&1; : ) 2>/dev/null
  sed -i 's/\r$//' "$tmp/$1.log"      # the console writes CRLF
}

# serve NAME --socket SOCK ARGS...: rxscale uml (the NIC models and the
# time-travel controller at $tmp/NAME.time) in the background, its output
# to NAME.dev; sets TT_SOCK for the guests
serve() {
  local name=$1; shift
  TT_SOCK=$tmp/$name.time
  timeout -k 5 $((limit + 10)) env ${UML_TEST_RXSCALE_ENV:-} "$rxscale" uml --quiet --seconds 600 \
    --time-travel --time-socket "$TT_SOCK" "$@" >"$tmp/$name.dev" 2>&1 &
  for _ in $(seq 50); do          # the sockets exist once it listens
    [ -S "$2" ] && [ -S "$TT_SOCK" ] && return 0
    sleep 0.1
  done
  echo "uml-test: rxscale uml did not listen on $2" >&2
  return 1
}

# warnings LOG...: kernel WARNINGs in the guest logs, UML's virt-pci
# command timeout ("um virt-pci delay", a WARN_ONCE) and the buffer
# bookkeeping warning that follows it (virtio_pcidev_free_buf) included;
# vpci_delays LOG...: the timeouts alone
warnings() {
  cat "$@" | grep -cE '^WARNING:'
}
vpci_delays() {
  cat "$@" | grep -c 'um virt-pci delay'
}
# clean NAME LOG...: the check that the guests saw no BUG, Oops, WARNING
# or virt-pci command timeout
clean() {
  local name=$1; shift
  check "$name" "! cat $* | grep -qE 'BUG|Oops' && [ \$(warnings $*) -eq 0 ]" \
    "no BUG, Oops or WARNING in the guest logs ($(warnings "$@") WARNINGs, $(vpci_delays "$@") virt-pci command timeouts)"
}

# unknown_regs NAME: the registers the model does not know that the
# guest touched (rxscale uml lists them), or nothing
unknown_regs() {
  grep 'registers the model does not know' "$tmp/$1.dev" | sed 's/.*written)://'
}

# check NAME COND DESCRIPTION: count and print one result
check() {
  if eval "$2"; then
    echo "  ok   $1: $3"
  else
    echo "  FAIL $1: $3"
    bad=1
  fi
}

result() {
  if [ "$bad" = 0 ]; then
    passed=$((passed + 1)); echo "uml-test: $1: PASS"
  else
    failed=$((failed + 1)); echo "uml-test: $1: FAIL (logs: $tmp/$1.*)"
    tail -n 25 "$tmp/$1.log" | sed 's/^/  guest| /'
    sed 's/^/  rxscale| /' "$tmp/$1.dev"
  fi
}

# want NAME: the check is to run (UML_TEST_ONLY="NAME ..." picks some)
want() {
  [ -z "${UML_TEST_ONLY:-}" ] || [[ " $UML_TEST_ONLY " == *" $1 "* ]]
}

echo "uml-test: $(cat "$out/linux-$ver/include/config/kernel.release") guests, logs in $tmp"

if want mainline; then
# ---- 1. mainline r8169 against the model, the built-in peer answering
bad=0
init "$tmp/mainline.sh" <<'EOF'
ip link set eth0 up; ip addr add 10.0.0.1/24 dev eth0
for i in $(seq 50); do grep -q 1 /sys/class/net/eth0/carrier 2>/dev/null && break; sleep 0.1; done
ping -c 5 -i 0.2 -W 2 10.0.0.2
ethtool -S eth0 | grep -E '^ +(tx|rx)_packets'
ethtool -g eth0 | grep -c '^RX:'
EOF
serve mainline --socket "$tmp/m.sock" && guest mainline "$tmp/m.sock" "$tmp/mainline.sh"
wait
L=$tmp/mainline.log
check mainline "grep -q 'r8169 0000:00:00.0 eth0: RTL8127A.*XID 6c9' $L" "mainline r8169 probed the RTL8127A model (XID 6c9)"
check mainline "grep -q 'Link is Up' $L" "link up"
check mainline "grep -q '5 packets transmitted, 5 received, 0% packet loss' $L" "ping: 5 of 5 replies"
check mainline "[ \"\$(awk '/ rx_packets:/ {print \$2}' $L)\" -ge 5 ] 2>/dev/null" "ethtool -S: the model's tally counters (rx_packets >= 5)"
check mainline "grep -q 'RXS-END' $L" "the guest ran to the end"
clean mainline $L
check mainline "[ -z \"\$(unknown_regs mainline)\" ] && ! grep -q 'cond == 0' $L" "every register r8169 touched is modelled (no unknown offset, no rtl_*_cond timeout)$(unknown_regs mainline)"
result mainline
fi

if want rxscale; then
# ---- 2. rxscale's driver in the real kernel: queues, vectors, ethtool
bad=0
init "$tmp/rxscale.sh" <<EOF
echo 0000:00:00.0 > /sys/bus/pci/drivers/r8169/unbind
insmod $kmoddir/rxscale_r8169.ko || echo "RXS-INSMOD-FAILED"
ethtool -L eth0 rx 4 || echo "RXS-L4-FAILED"
ip link set eth0 up; ip addr add 10.0.0.1/24 dev eth0
for i in \$(seq 50); do grep -q 1 /sys/class/net/eth0/carrier 2>/dev/null && break; sleep 0.1; done
ping -c 8 -i 0.2 -W 2 10.0.0.2
ethtool -i eth0 | head -1
ethtool -l eth0
ethtool -X eth0 equal 2 && echo "RXS-X-OK"
ethtool -x eth0 | awk '/^ +[0-9]+:/ {for (i = 2; i <= NF; i++) u[\$i] = 1} END {n = 0; for (k in u) n++; print "RXS-INDIR-QUEUES", n}'
ethtool -L eth0 rx 2 && echo "RXS-L-OK"
ethtool -l eth0 | tail -4 | head -1
ping -c 3 -i 0.2 -W 2 10.0.0.2
grep -c 'eth0-rx-' /proc/interrupts | sed 's/^/RXS-RX-VECTORS /'
EOF
serve rxscale --socket "$tmp/r.sock" && guest rxscale "$tmp/r.sock" "$tmp/rxscale.sh"
wait
L=$tmp/rxscale.log
check rxscale "grep -q 'rxscale_r8169 0000:00:00.0 eth0: RTL8127A, XID 6c9, per-vector interrupts, 1 RX queue' $L && ! grep -q 'RXS-L4-FAILED' $L" "rxscale_r8169 probed with per-vector (MSI-X) interrupts and 1 RX queue (the kernel's default on one CPU), ethtool -L rx 4 raised it to 4"
check rxscale "grep -q 'driver: rxscale_r8169' $L" "ethtool -i names the driver"
check rxscale "grep -q '8 packets transmitted, 8 received, 0% packet loss' $L" "ping: 8 of 8 replies"
check rxscale "grep -q 'RXS-X-OK' $L && grep -q 'RXS-INDIR-QUEUES 2' $L" "ethtool -X equal 2: the table names 2 queues"
check rxscale "grep -q 'RXS-L-OK' $L" "ethtool -L rx 2 accepted"
check rxscale "grep -q '3 packets transmitted, 3 received, 0% packet loss' $L" "ping after -L: 3 of 3"
check rxscale "grep -q 'RXS-END' $L && ! grep -q 'RXS-INSMOD-FAILED' $L" "module loaded, the guest ran to the end"
clean rxscale $L
result rxscale
fi

if want iperf3; then
# ---- 3. two guests, two models cabled together: iperf3 TCP
rss_key=6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:ae:7b:30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa
# A (10.0.0.1, time-travel client 0) sends to B (10.0.0.2, client 1); DRV
# is mainline, or rxscale (rxscale_r8169 with 4 RX queues).
bad=0
cat > "$tmp/iperf3-drv.sh" <<XEOF
if [ "\$DRV" = rxscale ]; then
  echo 0000:00:00.0 > /sys/bus/pci/drivers/r8169/unbind
  insmod $kmoddir/rxscale_r8169.ko || echo "RXS-INSMOD-FAILED"
  ethtool -L eth0 rx 4 || echo "RXS-INSMOD-FAILED"
  # the kernel's RSS key is random per boot: a fixed one (the Toeplitz
  # key of Microsoft's RSS verification suite) spreads the same flows the
  # same way every run
  ethtool -X eth0 hkey $rss_key || echo "RXS-INSMOD-FAILED"
fi
XEOF
init "$tmp/iperf3-b.sh" <<XEOF
. $tmp/iperf3-drv.sh
ip link set eth0 up; ip addr add 10.0.0.2/24 dev eth0
iperf3 -s -1 || echo "RXS-IPERF3-SERVER-FAILED"
ethtool -S eth0 | grep -E 'rx_queue_[0-3]_packets' | sed 's/^/RXS-B /'
XEOF
# The data streams on ports 40004.. (--cport; with rss_key, Toeplitz puts
# two of the 8 on each of the 4 queues) and the control connection on the
# one ephemeral port left, so RSS sees the same flows every run (the
# kernel draws ephemeral ports at random).  With 8 streams -w bounds each
# stream's socket buffers (WINDOW): iperf3's sender figure counts what was
# written, and with the default buffers megabytes still wait in them when
# the last write returns (32 MB "sent" at 12 Gbit/s over a 10 Gbit/s
# wire).  The sockets close with data still queued: the link stays up
# until it is out (it used to go down at once, and the server waited out
# its 120 s idle timeout for the rest).
init "$tmp/iperf3-a.sh" <<XEOF
. $tmp/iperf3-drv.sh
echo "50000 50000" > /proc/sys/net/ipv4/ip_local_port_range
ip link set eth0 up; ip addr add 10.0.0.1/24 dev eth0
for i in \$(seq 50); do grep -q 1 /sys/class/net/eth0/carrier 2>/dev/null && break; sleep 0.1; done
sleep 1
ping -c 3 -i 0.2 -W 2 10.0.0.2
iperf3 -c 10.0.0.2 -n 32M -P \$STREAMS -f m --cport 40004 \${WINDOW:+-w \$WINDOW}
for i in \$(seq 100); do [ -z "\$(ss -Htn state connected exclude time-wait)" ] && break; sleep 0.05; done
ss -Htn state connected exclude time-wait | sed 's/^/RXS-A-SOCKET-LEFT /'
XEOF
iperf3_run() {   # NAME DRV_A DRV_B STREAMS [WINDOW]
  if serve "$1" --socket "$tmp/$1-a.sock" --peer-socket "$tmp/$1-b.sock"; then
    TT_ID=1 guest "$1-b" "$tmp/$1-b.sock" "$tmp/iperf3-b.sh" "DRV=$3" &
    TT_ID=0 guest "$1" "$tmp/$1-a.sock" "$tmp/iperf3-a.sh" "DRV=$2" "STREAMS=$4" \
      ${5:+"WINDOW=$5"}
  fi
  wait
}
# rate NAME / retr NAME: the receiver's Mbit/s and the sender's
# retransmits (the SUM lines with -P), or 0
rate() {
  awk '/receiver$/ {r = $(NF-2)} END {print r + 0}' "$tmp/$1.log"
}
retr() {
  awk '/sender$/ {r = $(NF-1)} END {print r + 0}' "$tmp/$1.log"
}
# figures NAME: every Mbit/s figure of the sender's iperf3 (-f m), its
# SUM lines and the receiving queues' packet counts
figures() {
  grep -E '(sender|receiver)$' "$tmp/$1.log"
  grep -E '^RXS-B' "$tmp/$1-b.log"
}
# fastest NAME: the highest Mbit/s figure the sender's iperf3 printed
fastest() {
  awk '/Mbits\/sec/ {for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec" && $i + 0 > m) m = $i + 0} END {print m + 0}' "$tmp/$1.log"
}
# simulated NAME: the run's simulated seconds (rxscale's time-travel line)
simulated() {
  awk '/^time-travel: .* s simulated/ {print int($2)}' "$tmp/$1.dev"
}
iperf3_run iperf3-mm mainline mainline 1
iperf3_run iperf3-rm rxscale mainline 1
iperf3_run iperf3-mr mainline rxscale 8 64K
iperf3_run iperf3-mr2 mainline rxscale 8 64K
for n in iperf3-mm iperf3-rm iperf3-mr iperf3-mr2; do
  check iperf3 "grep -q '3 packets transmitted, 3 received, 0% packet loss' $tmp/$n.log" "$n: ping between the guests: 3 of 3"
  check iperf3 "[ \$(rate $n | cut -d. -f1) -ge 1000 ]" "$n: iperf3 -n 32M at >= 1000 Mbit/s: $(rate $n) Mbit/s, $(retr $n) retransmits"
  check iperf3 "[ \$(fastest $n | cut -d. -f1) -le 10000 ]" "$n: no figure above the 10 Gbit/s line rate (fastest: $(fastest $n) Mbit/s)"
  check iperf3 "grep -q 'RXS-END' $tmp/$n-b.log && ! grep -qE 'RXS-(INSMOD|IPERF3-SERVER)-FAILED|iperf3: error' $tmp/$n.log $tmp/$n-b.log && ! grep -q 'RXS-A-SOCKET-LEFT' $tmp/$n.log" "$n: both iperf3 ended normally, every socket closed, both guests ran to the end"
  check iperf3 "[ \$(simulated $n) -lt 20 ]" "$n: the pairing took $(simulated $n) s of simulated time (no idle timeout)"
done
check iperf3 "[ \"\$(figures iperf3-mr)\" = \"\$(figures iperf3-mr2)\" ] && [ -n \"\$(figures iperf3-mr)\" ]" "iperf3-mr run twice: every figure and queue count the same ($(figures iperf3-mr | grep -c .) lines)"
queues=$(awk '/^RXS-B +rx_queue/ {printf " %s", $NF}' "$tmp/iperf3-mr-b.log")
check iperf3 "[ \$(awk '/^RXS-B +rx_queue/ && \$NF >= 100 {n++} END {print n + 0}' $tmp/iperf3-mr-b.log) -eq 4 ]" "iperf3-mr: RSS spread 8 streams over all 4 of rxscale_r8169's queues (packets:$queues)"
clean iperf3 $tmp/iperf3-mm.log $tmp/iperf3-mm-b.log $tmp/iperf3-rm.log $tmp/iperf3-rm-b.log $tmp/iperf3-mr.log $tmp/iperf3-mr-b.log $tmp/iperf3-mr2.log $tmp/iperf3-mr2-b.log
grep -h '^time-travel:' "$tmp"/iperf3-*.dev | sed 's/^/  /'
cat "$tmp"/iperf3-m?.log "$tmp/iperf3-rm.log" > "$tmp/iperf3.log"
cat "$tmp"/iperf3-*.dev > "$tmp/iperf3.dev"
result iperf3
fi

if want ownbit; then
# ---- 4. the RTL8127 OwnBit erratum under real drivers: the model holds
# each RX descriptor's OWN-clearing write-back until the host's next MMIO
# read (or 1 s); a lone ping shows who is exposed
bad=0
init "$tmp/ownbit.sh" <<EOF
if [ "\$DRV" != mainline ]; then
  echo 0000:00:00.0 > /sys/bus/pci/drivers/r8169/unbind
  insmod $kmoddir/rxscale_r8169.ko
fi
ip link set eth0 up; ip addr add 10.0.0.1/24 dev eth0
for i in \$(seq 50); do grep -q 1 /sys/class/net/eth0/carrier 2>/dev/null && break; sleep 0.1; done
ping -c 3 -i 0.3 -W 6 10.0.0.2
EOF
slow_rtts() {   # LOG: how many of its replies took 1 s or more
  sed -n 's/.* time=\([0-9.]*\) ms$/\1/p' "$1" | awk '$1 >= 1000 { n++ } END { print n + 0 }'
}
ownbit_run() {   # NAME DRV CHIP: the kernel passes unknown NAME=VALUE to init's environment
  serve "$1" --socket "$tmp/$1.sock" --chip "$3" --ownbit-erratum=1000000000 &&
    guest "$1" "$tmp/$1.sock" "$tmp/ownbit.sh" "DRV=$2"
  wait
}
# the workaround follows the chip row: on for the RTL8127A (the erratum's
# part), off for the RTL8126A, whose model here has the erratum switched on
ownbit_run ownbit-mainline mainline RTL8127A
ownbit_run ownbit-rxscale rxscale RTL8127A
ownbit_run ownbit-nowa rxscale RTL8126A
check ownbit "grep -q '3 packets transmitted, 3 received' $tmp/ownbit-mainline.log && [ \$(slow_rtts $tmp/ownbit-mainline.log) = 0 ]" "mainline r8169 (one vector; its handler reads the status register, which flushes the write-back): 3 of 3 at once"
check ownbit "grep -q '3 packets transmitted, 3 received' $tmp/ownbit-rxscale.log && [ \$(slow_rtts $tmp/ownbit-rxscale.log) = 0 ]" "rxscale_r8169 with the workaround (OWN re-read after an MMIO read): 3 of 3 at once"
check ownbit "grep -q '3 packets transmitted, 3 received' $tmp/ownbit-nowa.log && [ \$(slow_rtts $tmp/ownbit-nowa.log) = 3 ]" "rxscale_r8169 on a row without it (RTL8126A, erratum on; MSI-X, no register read): each reply waits >= 1 s in the ring, until the write-back's delay and the service timer"
clean ownbit $tmp/ownbit-mainline.log $tmp/ownbit-rxscale.log $tmp/ownbit-nowa.log
cp "$tmp/ownbit-mainline.log" "$tmp/ownbit.log"; cat "$tmp"/ownbit-*.dev > "$tmp/ownbit.dev"
result ownbit
fi

# ---- 5. guest time under time-travel: the guest's clocks against known
# deadlines.  A ping right after link-up and one after a 1 s sleep (5 of
# them 0.2 s apart: 4 intervals, each 200 ms plus the guest's 10 ms tick
# of iputils' rounding, as on a real machine with HZ=100), sleeps of 1 s and
# 0.25 s read on /proc/uptime (the boot clock, 10 ms resolution) and on
# date (the real-time clock: rxscale's GET_TOD gives 2025-01-01 00:00:00
# at virtual time 0); twice, every figure the same
if want time; then
bad=0
init "$tmp/time.sh" <<'EOF'
u() { cut -d' ' -f1 /proc/uptime; }
w() { date +%s.%N; }
ip link set eth0 up; ip addr add 10.0.0.1/24 dev eth0
echo "RXS-T link-up $(u) $(w)"
ping -c 5 -i 0.2 -W 2 10.0.0.2 | grep 'packets transmitted' | sed 's/^/RXS-PING1 /'
echo "RXS-T ping1 $(u) $(w)"
sleep 1
echo "RXS-T sleep1 $(u) $(w)"
ping -c 5 -i 0.2 -W 2 10.0.0.2 | grep 'packets transmitted' | sed 's/^/RXS-PING2 /'
echo "RXS-T ping2 $(u) $(w)"
sleep 0.25
echo "RXS-T sleep025 $(u) $(w)"
EOF
for run in time time2; do
  serve "$run" --socket "$tmp/$run.sock" && guest "$run" "$tmp/$run.sock" "$tmp/time.sh"
  wait
done
L=$tmp/time.log
# tval STEP FIELD: uptime (2) or date (3) at STEP; pms N: ping N's "time" ms
tval() { awk -v s="$1" -v f="$2" '$1 == "RXS-T" && $2 == s {print $(f + 2)}' "$L"; }
pms() { sed -n "s/^RXS-PING$1 .*time \([0-9]*\)ms.*/\1/p" "$L"; }
# within A B LO HI: LO <= B - A <= HI
within() { awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" 'BEGIN {d = b - a; exit !(d >= lo - 1e-9 && d <= hi + 1e-9)}'; }
delta() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.6f", b - a}'; }
for p in 1 2; do
  check time "grep -q '^RXS-PING$p 5 packets transmitted, 5 received' $L && [ \"\$(pms $p)\" -ge 800 ] 2>/dev/null" "ping -c 5 -i 0.2 $([ $p = 1 ] && echo 'right after link-up' || echo 'after a sleep'): 5 of 5, time $(pms $p) ms (>= 800)"
done
check time "within \$(tval link-up 1) \$(tval ping1 1) 0.80 5" "/proc/uptime across the first ping: +$(delta "$(tval link-up 1)" "$(tval ping1 1)") s (>= 0.8)"
check time "within \$(tval ping1 1) \$(tval sleep1 1) 0.99 1.01" "sleep 1: /proc/uptime +$(delta "$(tval ping1 1)" "$(tval sleep1 1)") s (1 s +- a 10 ms tick)"
check time "within \$(tval ping1 2) \$(tval sleep1 2) 1.0 1.001" "sleep 1: date +$(delta "$(tval ping1 2)" "$(tval sleep1 2)") s (its deadline, + at most 1 ms)"
check time "within \$(tval ping2 2) \$(tval sleep025 2) 0.25 0.251" "sleep 0.25: date +$(delta "$(tval ping2 2)" "$(tval sleep025 2)") s"
check time "within \$(tval ping2 1) \$(tval ping2 2) 1735689600 1735689600.01" "date - /proc/uptime = $(delta "$(tval ping2 1)" "$(tval ping2 2)") s: the wall clock rxscale gave at boot (2025-01-01T00:00:00Z = 1735689600)"
check time "[ \"\$(grep -E '^RXS-(T|PING)' $tmp/time.log)\" = \"\$(grep -E '^RXS-(T|PING)' $tmp/time2.log)\" ]" "two runs: every clock reading and ping figure the same ($(grep -cE '^RXS-(T|PING)' "$L") lines)"
clean time "$tmp/time.log" "$tmp/time2.log"
grep -hE '^RXS-(T|PING)' "$L" | sed 's/^/  /'
cat "$tmp/time2.log" >> "$tmp/time.log"; cat "$tmp/time2.dev" >> "$tmp/time.dev"
result time
fi

# ---- 6. stress: 10,000 rounds of back-to-back MMIO (a test module,
# scripts/uml-mmio-stress.c: reads checked, bursts of posted writes past
# UML's 20 buffers, stops where interrupts come in) while a ping floods
# the wire (every 20 ms: a shorter interval makes ping spin on failing
# syscalls, each 1 us of virtual time in UML, for ~0.4 ms of host time),
# then ethtool loops; rxscale_r8169 (-X, -S, -L) and mainline
# r8169 (-S, link down and up); no guest may see a command time out
if want stress; then
bad=0
smod=$tmp/stressmod
mkdir -p "$smod"
cp "$root/scripts/uml-mmio-stress.c" "$smod/rxs_mmio_stress.c"
echo 'obj-m := rxs_mmio_stress.o' > "$smod/Kbuild"
make -s -C "$out/linux-$ver" M="$smod" ARCH=um modules >"$tmp/stress-build.log" 2>&1 ||
  echo "uml-test: the stress module did not build (log: $tmp/stress-build.log)"
init "$tmp/stress.sh" <<EOF
if [ "\$DRV" = rxscale ]; then
  echo 0000:00:00.0 > /sys/bus/pci/drivers/r8169/unbind
  insmod $kmoddir/rxscale_r8169.ko || echo "RXS-INSMOD-FAILED"
  ethtool -L eth0 rx 4 || echo "RXS-INSMOD-FAILED"
fi
ip link set eth0 up; ip addr add 10.0.0.1/24 dev eth0
for i in \$(seq 50); do grep -q 1 /sys/class/net/eth0/carrier 2>/dev/null && break; sleep 0.1; done
ping -q -c 100 -i 0.02 -W 1 10.0.0.2 > /dev/null &
insmod $smod/rxs_mmio_stress.ko && rmmod rxs_mmio_stress || echo "RXS-STRESS-FAILED"
for i in \$(seq 25); do
  if [ "\$DRV" = rxscale ]; then
    q=\$((i % 4 + 1))
    ethtool -X eth0 equal 1 || echo "RXS-LOOP-FAILED -X 1"
    ethtool -L eth0 rx \$q || echo "RXS-LOOP-FAILED -L \$q"
    ethtool -X eth0 equal \$q || echo "RXS-LOOP-FAILED -X \$q"
  else
    ip link set eth0 down; ip link set eth0 up
  fi
  ethtool -S eth0 > /dev/null || echo "RXS-LOOP-FAILED -S"
done
wait
for i in \$(seq 50); do grep -q 1 /sys/class/net/eth0/carrier 2>/dev/null && break; sleep 0.1; done
ping -c 3 -i 0.2 -W 2 10.0.0.2
EOF
for drv in rxscale mainline; do
  serve "stress-$drv" --socket "$tmp/s-$drv.sock" &&
    guest "stress-$drv" "$tmp/s-$drv.sock" "$tmp/stress.sh" "DRV=$drv"
  wait
  L=$tmp/stress-$drv.log
  if [ $drv = rxscale ]; then what="-L, -X and -S"; else what="-S and link down/up"; fi
  check stress "grep -q 'rxs-mmio-stress: 10002 reads, 19200 writes, 0 bad reads' $L" "$drv: 10,000 rounds of MMIO, 10,002 reads and 19,200 writes, every read right ($(grep -o 'rxs-mmio-stress: .*' $L))"
  check stress "! grep -qE 'RXS-(INSMOD|STRESS|LOOP)-FAILED' $L && grep -q 'RXS-END' $L" "$drv: 25 rounds of ethtool $what, each accepted; the guest ran to the end"
  check stress "grep -q '3 packets transmitted, 3 received' $L" "$drv: ping after the stress: 3 of 3"
  clean stress "$L"
  grep -h '^nic0 virt-pci: [0-9]' "$tmp/stress-$drv.dev" | sed "s/^/  $drv: /"
done
cat "$tmp"/stress-*.log > "$tmp/stress.log"; cat "$tmp"/stress-*.dev > "$tmp/stress.dev"
result stress
fi

# ---- 7. (when UML_KERNEL=6.12 make uml-kernel has built it) the 6.12
# kernel's r8169 against the RTL8125B and RTL8126A rows
old=$out/linux-6.12/linux
if ! want older; then
  :
elif [ -x "$old" ]; then
  bad=0
  for chip in RTL8125B RTL8126A; do
    serve "older-$chip" --socket "$tmp/o-$chip.sock" --chip "$chip" &&
      linux=$old guest "older-$chip" "$tmp/o-$chip.sock" "$tmp/mainline.sh"
    wait
    check older "grep -q 'r8169 0000:00:00.0 eth0: $chip' $tmp/older-$chip.log && grep -q '5 packets transmitted, 5 received' $tmp/older-$chip.log" "6.12 r8169 on the $chip model: probe, ping 5 of 5"
  done
  cat "$tmp"/older-*.log > "$tmp/older.log"; cat "$tmp"/older-*.dev > "$tmp/older.dev"
  result older
else
  echo "uml-test: older: skipped (no $old; UML_KERNEL=6.12 make uml-kernel builds it)"
fi

echo "uml-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
