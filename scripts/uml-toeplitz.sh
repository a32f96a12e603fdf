#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernel's own RSS test (issue 13, item 6) against rxscale's driver:
# tools/testing/selftests/drivers/net/hw/toeplitz.c, built from the same
# Debian source tree as the User-Mode Linux kernel, runs in a UML guest (the
# DUT) whose RTL8127A model is driven by rxscale_r8169.ko with 4 RX queues.
# A second guest, cabled to the first through `rxscale uml --peer-socket`,
# sends the flows (scripts/uml-flows.c: one TCP SYN or one UDP datagram per
# source port 20000+i, 64 flows a round).
#
# What runs in the DUT, per round (IPv4 TCP, then IPv4 UDP):
#   toeplitz -4 -t|-u -d PORT -i eth0 -T 10000 -s -v -C <cpu of rxq0..3>
# It reads the key and the indirection table over ethtool netlink (YNL, as
# `ethtool -x` shows them), opens one TPACKET_V3 ring per CPU in a
# PACKET_FANOUT_CPU group, and for each received frame compares the kernel's
# rxhash (tp_rxhash: the hash our driver put on the skb from the RX
# descriptor) with its own Toeplitz over saddr, daddr, sport, dport. That is
# the hash check; it must pass (fail=0) for this script to pass. For UDP the
# DUT first asks for the 4-tuple (`ethtool -N eth0 rx-flow-hash udp4 sdfn`):
# the chip hashes UDP by addresses only by default, and toeplitz.c always
# hashes the ports.
#
# What the CPU-steering part can and cannot show here: the guest is
# uniprocessor (UML time-travel needs it; CONFIG_SMP is off). With -C, the
# test maps hash -> indirection table -> RX queue -> that queue's IRQ CPU and
# compares it with the CPU the frame arrived on (the fanout ring it landed
# in). With one CPU every queue's IRQ is on CPU 0 and every frame arrives on
# CPU 0, so that comparison always agrees: it exercises the code path and the
# table read, but it cannot tell a right queue from a wrong one. The RPS
# variant (-r bitmap) cannot run at all: CONFIG_RPS needs SMP, so there are
# no rps_cpus files, and toeplitz.py itself would skip it (it wants two CPUs
# not used by RX queues). What a uniprocessor guest can still check is the
# queue itself, through the driver's per-queue counters: with -v the test
# prints the queue it expects for each frame ("rxq N"), and this script
# compares those counts with the rx_queue_N_packets deltas of `ethtool -S`
# over the round. That comparison is reported, not part of the verdict: the
# deltas also hold the round's hand-shake reply (one UDP frame, "done", from
# the sender guest), so a queue may show one frame more than predicted.
#
# Usage: scripts/uml-toeplitz.sh [UML_DIR]     (default: $UML_DIR or build/uml)
#   UML_KERNEL=7.3     which tree: UML_TREE=$UML_DIR/linux-$UML_KERNEL
#   UML_KMOD=...       the module (default $UML_DIR/kmod-$UML_KERNEL/rxscale_r8169.ko)
#   UML_TOEPLITZ_TIMEOUT=120   seconds the guests may run before they are killed
#   UML_TEST_KEEP=1    keep the logs (their directory is printed)
# Builds into build/uml-toeplitz/: the YNL ethtool family code generated from
# the tree's Documentation/netlink/specs/ethtool.yaml by the tree's own
# tools/net/ynl/pyynl/ynl_gen_c.py, the tree's tools/net/ynl/lib/ynl.c, the
# selftest, and uml-flows; nothing is written into the kernel tree, nothing
# of it is copied into this repository. Needs gcc, python3 with PyYAML and
# jsonschema (for ynl_gen_c.py), rxscale built, the UML kernel and module
# (make uml-kernel uml-kmod), ethtool, ping, setarch, timeout.
# Exit: 0 when the hash check passed in every round, 1 otherwise.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
ver=${UML_KERNEL:-7.3}
umldir=$(cd "${1:-${UML_DIR:-$root/build/uml}}" 2>/dev/null && pwd) || {
  echo "uml-toeplitz: FAIL: no directory ${1:-${UML_DIR:-$root/build/uml}} (make uml-kernel)" >&2; exit 1; }
tree=${UML_TREE:-$umldir/linux-$ver}
linux=$tree/linux
kmod=${UML_KMOD:-$umldir/kmod-$ver/rxscale_r8169.ko}
rxscale=$root/build/rxscale
bld=$root/build/uml-toeplitz
limit=${UML_TOEPLITZ_TIMEOUT:-120}
fail() { echo "uml-toeplitz: FAIL: $*" >&2; exit 1; }
# the caller's python3 (ynl_gen_c.py needs PyYAML and jsonschema: Debian's
# python3-yaml and python3-jsonschema)
py=$(command -v python3) || fail "python3 not installed"
"$py" -c 'import yaml, jsonschema' 2>/dev/null ||
  fail "$py lacks PyYAML or jsonschema (apt-get install python3-yaml python3-jsonschema)"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

for f in "$linux" "$rxscale" "$kmod" "$tree/tools/testing/selftests/drivers/net/hw/toeplitz.c"; do
  [ -e "$f" ] || fail "missing $f"
done
for t in gcc ethtool ping setarch timeout; do
  command -v $t >/dev/null || fail "$t not installed"
done

# ---- build: the selftest (from the tree, into build/) and the sender
mkdir -p "$bld"
ynl=$tree/tools/net/ynl
uapi=$tree/include/uapi
sel=$tree/tools/testing/selftests
spec=$tree/Documentation/netlink/specs/ethtool.yaml
# the uAPI headers of the tree, not the host's older ones (as the tree's
# tools/net/ynl/Makefile.deps does for the ethtool family)
hdrs=(-D_LINUX_TYPELIMITS_H -include "$uapi/linux/typelimits.h"
      -D_LINUX_ETHTOOL_H -include "$uapi/linux/ethtool.h"
      -D_LINUX_ETHTOOL_NETLINK_H_ -include "$uapi/linux/ethtool_netlink.h"
      -D_LINUX_ETHTOOL_NETLINK_GENERATED_H -include "$uapi/linux/ethtool_netlink_generated.h")
[ -f "$uapi/linux/typelimits.h" ] || hdrs=("${hdrs[@]:2}")
build() {
  local gen=(--user-header linux/ethtool_netlink.h --exclude-op stats-get)
  # PYTHONDONTWRITEBYTECODE: no __pycache__ in the kernel tree
  PYTHONDONTWRITEBYTECODE=1 "$py" "$ynl/pyynl/ynl_gen_c.py" --mode user --header \
    --spec "$spec" -o "$bld/ethtool-user.h" "${gen[@]}" &&
  PYTHONDONTWRITEBYTECODE=1 "$py" "$ynl/pyynl/ynl_gen_c.py" --mode user --source \
    --spec "$spec" -o "$bld/ethtool-user.c" "${gen[@]}" &&
  gcc -std=gnu11 -O2 -I"$ynl/lib" -idirafter "$uapi" "${hdrs[@]}" \
    -c "$bld/ethtool-user.c" -o "$bld/ethtool-user.o" &&
  gcc -std=gnu11 -O2 -I"$ynl/lib" -c "$ynl/lib/ynl.c" -o "$bld/ynl.o" &&
  gcc -std=gnu11 -O2 -Wall -I"$bld" -I"$ynl/lib" -I"$sel" -idirafter "$uapi" "${hdrs[@]}" \
    "$sel/drivers/net/hw/toeplitz.c" "$bld/ethtool-user.o" "$bld/ynl.o" -o "$bld/toeplitz" &&
  gcc -O2 -Wall -Wextra -o "$bld/uml-flows" "$root/scripts/uml-flows.c"
}
build >"$bld/build.log" 2>&1 || { tail -n 30 "$bld/build.log" >&2; fail "build (log: $bld/build.log)"; }
echo "uml-toeplitz: built $bld/toeplitz from $sel/drivers/net/hw/toeplitz.c"

tmp=$(mktemp -d /tmp/rxscale-uml-toeplitz.XXXXXX)
[ -n "${UML_TEST_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT

# ---- the sender guest (B, 10.0.0.2, mainline r8169 on its own model)
cat >"$tmp/b.sh" <<EOF
#!/bin/bash
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; ip link set lo up
ip link set eth0 up; ip addr add 10.0.0.2/24 dev eth0
echo "RXS-B serving"
timeout $((limit - 10)) $bld/uml-flows serve 5555 $((limit - 20))
echo "RXS-B-END \$?"
echo o > /proc/sysrq-trigger; sleep 30
EOF

# ---- the DUT (A, 10.0.0.1, rxscale_r8169 with 4 RX queues)
cat >"$tmp/a.sh" <<EOF
#!/bin/bash
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; ip link set lo up
echo 0000:00:00.0 > /sys/bus/pci/drivers/r8169/unbind
insmod $kmod || echo "RXS-INSMOD-FAILED"
ethtool -L eth0 rx 4 || echo "RXS-INSMOD-FAILED"
ip link set eth0 up; ip addr add 10.0.0.1/24 dev eth0
for i in \$(seq 50); do grep -q 1 /sys/class/net/eth0/carrier 2>/dev/null && break; sleep 0.1; done
echo "RXS nproc=\$(nproc) driver=\$(ethtool -i eth0 | sed -n 's/^driver: //p')"
ethtool -k eth0 | grep -E '^receive-hashing'
ethtool -l eth0 | sed -n '/Current/,\$p'
ethtool -x eth0
ethtool -N eth0 rx-flow-hash udp4 sdfn && echo "RXS udp4 4-tuple on"
ethtool -n eth0 rx-flow-hash tcp4; ethtool -n eth0 rx-flow-hash udp4
f=\$(ls /sys/class/net/eth0/queues/rx-0/ 2>/dev/null | tr '\n' ' ')
echo "RXS RPS: /sys/class/net/eth0/queues/rx-0/ holds: \${f:-nothing} (no rps_cpus without SMP)"
# the CPU of each RX queue's interrupt, as toeplitz.py finds it
cpus=""
for q in 0 1 2 3; do
  irq=\$(awk -v n="eth0-rx-\$q" '\$NF == n { sub(":", "", \$1); print \$1 }' /proc/interrupts)
  c=\$(cat /proc/irq/\$irq/smp_affinity_list 2>/dev/null || echo 0)
  echo "RXS rxq \$q: irq \$irq, cpu \$c (smp_affinity_list: \$(cat /proc/irq/\$irq/smp_affinity_list 2>&1))"
  cpus=\$cpus\${cpus:+,}\$c
done
# wait for the sender (B boots in parallel): ping until it answers
for i in \$(seq 30); do ping -c 1 -W 1 10.0.0.2 >/dev/null 2>&1 && break; done
ping -c 2 -i 0.2 -W 2 10.0.0.2 | grep 'packets transmitted'
seq=0
for round in "tcp -t 8000" "udp -u 8001" "nohw -t 8002"; do
  set -- \$round; name=\$1 flag=\$2 port=\$3; seq=\$((seq + 1))
  proto=\$([ "\$flag" = -u ] && echo udp || echo tcp)
  if [ "\$name" = nohw ]; then
    ethtool -K eth0 rxhash off && echo "RXS rxhash off: \$(ethtool -k eth0 | grep -E '^receive-hashing')"
  fi
  echo "RXS-ROUND \$name begin"
  ethtool -S eth0 | awk '/rx_queue_[0-9]+_packets/ { sub(":", "", \$1); print \$1, \$2 }' >/tmp/rxs-before
  timeout 40 $bld/toeplitz -4 \$flag -d \$port -i eth0 -T 10000 -s -v -C \$cpus \
    >/tmp/rxs-out 2>/tmp/rxs-err &
  pid=\$!
  for i in \$(seq 100); do grep -q ready /tmp/rxs-out && break; kill -0 \$pid 2>/dev/null || break; sleep 0.1; done
  timeout 30 $bld/uml-flows order 10.0.0.2 5555 20 "\$seq \$proto 10.0.0.1 \$port 64 20000" \
    || echo "RXS-ORDER-FAILED \$proto"
  wait \$pid; rc=\$?
  ethtool -S eth0 | awk '/rx_queue_[0-9]+_packets/ { sub(":", "", \$1); print \$1, \$2 }' >/tmp/rxs-after
  sed 's/^/RXS-TZ | /' /tmp/rxs-err
  echo "RXS-RC \$name \$rc"
  for q in 0 1 2 3; do
    b=\$(awk -v k=rx_queue_\${q}_packets '\$1 == k { print \$2 }' /tmp/rxs-before)
    a=\$(awk -v k=rx_queue_\${q}_packets '\$1 == k { print \$2 }' /tmp/rxs-after)
    p=\$(grep -c " OK rxq \$q " /tmp/rxs-err)
    echo "RXS-QUEUE \$name rxq \$q: predicted \$p, counted \$((a - b))"
  done
  rm -f /tmp/rxs-before /tmp/rxs-after /tmp/rxs-out /tmp/rxs-err
done
timeout 30 $bld/uml-flows order 10.0.0.2 5555 20 "99 end" || echo "RXS-ORDER-FAILED end"
dmesg | grep -E 'rxscale_r8169' | tail -n 5
echo "RXS-END"
echo o > /proc/sysrq-trigger; sleep 30
EOF
chmod +x "$tmp/a.sh" "$tmp/b.sh"

# guest NAME SOCK INIT: boot a guest on SOCK, console to $tmp/NAME.log
# (its exit status to $tmp/NAME.rc; the shell's "Aborted" notice is muted)
guest() {
  local rc=0
  { timeout -s KILL "$limit" setarch -R "$linux" mem=256M umid="rxs-tz-$1-$$" \
    uml_dir="$tmp" root=/dev/root rootfstype=hostfs rootflags=/ rw init="$3" \
    virtio_uml.device="$2":1234 con0=null,fd:1 con=null \
    </dev/null >"$tmp/$1.log" 2>&1 || rc=$?; } 2>/dev/null
  echo "$rc" >"$tmp/$1.rc"
  sed -i 's/\r$//' "$tmp/$1.log"      # the console writes CRLF
}

echo "uml-toeplitz: $(cat "$tree/include/config/kernel.release") guests, logs in $tmp"
t0=$(date +%s)
timeout -k 5 $((limit + 10)) "$rxscale" uml --quiet --seconds $((limit + 5)) \
  --socket "$tmp/a.sock" --peer-socket "$tmp/b.sock" >"$tmp/rxscale.log" 2>&1 &
for _ in $(seq 50); do [ -S "$tmp/a.sock" ] && [ -S "$tmp/b.sock" ] && break; sleep 0.1; done
[ -S "$tmp/a.sock" ] && [ -S "$tmp/b.sock" ] || { cat "$tmp/rxscale.log" >&2; fail "rxscale uml did not listen"; }
guest b "$tmp/b.sock" "$tmp/b.sh" &
guest a "$tmp/a.sock" "$tmp/a.sh" &
wait
echo "uml-toeplitz: guests done in $(( $(date +%s) - t0 )) s (exit status: DUT $(cat "$tmp/a.rc"), sender $(cat "$tmp/b.rc"))"
# The sender's mainline r8169 warns (phy_stop "called from state HALTED")
# and its kernel panics ("Attempted to kill init") in UML's shutdown path,
# after "reboot: Power down": noted, not judged here.
if sed -n '/^reboot: Power down/,$p' "$tmp/b.log" | grep -qE 'WARNING:|Kernel panic'; then
  echo "uml-toeplitz: note: the sender guest's kernel warned/panicked after its power-down (UML shutdown path, mainline r8169)"
fi

A=$tmp/a.log
echo "---- DUT (rxscale_r8169, 4 RX queues): setup"
grep -E '^(RXS |receive-hashing|RX:|RX flow hash|RSS hash|[0-9a-f]{2}:|    (toeplitz|xor|crc32): |[ ]+(0|120):|TCP over|UDP over|IP [SD]A|L4 bytes)' "$A" \
  | sed 's/^/  /'
echo "---- the sender guest"
grep -E '^(RXS-B|uml-flows)' "$tmp/b.log" | sed 's/^/  /'
ok=1
for r in tcp udp nohw; do
  case $r in
    tcp) echo "---- toeplitz -4 -t (IPv4 TCP): the selftest's output" ;;
    udp) echo "---- toeplitz -4 -u (IPv4 UDP): the selftest's output" ;;
    nohw) echo "---- negative control: ethtool -K eth0 rxhash off, then toeplitz -4 -t again:"
          echo "     the stack's own flow hash instead of the device's, so the check must fail"
          echo "     (the first 3 per-frame lines shown)" ;;
  esac
  awk -v r=$r '/^RXS-ROUND / { on = ($2 == r) }
    on && /^RXS-TZ \| / { sub(/^RXS-TZ \| /, "");
                          if (r != "nohw" || !/^cpu / || ++n <= 3) print "  " $0 }' "$A"
  awk -v r=$r '$1 == "RXS-QUEUE" && $2 == r { $1 = ""; $2 = ""; sub(/^ +/, "");
    print "  queue counters (informational): " $0 }' "$A"
  [ $r != nohw ] && awk -v r=$r '$1 == "RXS-QUEUE" && $2 == r {
      d = $NF - $6; sub(",", "", d); x += d; if (d < 0 || d > 1) bad = 1; n++ }
    END { if (!n) exit;
          if (!bad && x <= 1) print "  queue counters agree with the predicted queue of every frame" \
            " (" x " more: the round'"'"'s one \"done\" reply from the sender)";
          else print "  queue counters do NOT match the predicted queues (" x " frames more in total)" }' "$A"
  rc=$(awk -v r=$r '$1 == "RXS-RC" && $2 == r { print $3 }' "$A")
  count=$(awk -v r=$r '/^RXS-ROUND / { on = ($2 == r) } on && /^RXS-TZ \| count:/ { print $4, $5, $6 }' "$A")
  if [ $r = nohw ]; then
    if echo "$count" | grep -qE '^pass=[0-9]+ nohash=[0-9]+ fail=[1-9][0-9]*$' && [ "${rc:-0}" != 0 ]; then
      echo "uml-toeplitz: rxhash off: the selftest FAILED, as it must ($count, exit $rc)"
    else
      echo "uml-toeplitz: rxhash off: the selftest did not fail (${count:-no count line}, exit ${rc:-none}): the check is not seeing the device's hash"
      ok=0
    fi
  elif [ "$rc" = 0 ] && echo "$count" | grep -qE '^pass=[0-9]+ nohash=0 fail=0$'; then
    echo "uml-toeplitz: $r: hash check PASS ($count, exit 0)"
  else
    echo "uml-toeplitz: $r: hash check FAIL (${count:-no count line}, exit ${rc:-none})"
    ok=0
  fi
done
grep -q '^receive-hashing: on' "$A" || { echo "uml-toeplitz: ethtool -k does not show receive-hashing: on (toeplitz.py requires it)"; ok=0; }
grep -q '^RXS-END' "$A" || { echo "uml-toeplitz: the DUT did not reach its end"; ok=0; }
grep -q 'RXS-INSMOD-FAILED' "$A" && { echo "uml-toeplitz: insmod failed"; ok=0; }
grep -q 'RXS-ORDER-FAILED' "$A" && echo "uml-toeplitz: the sender did not answer an order: $(grep RXS-ORDER-FAILED "$A" | tr '\n' ' ')"
# the DUT's kernel up to its power-down (what follows is UML's shutdown path)
if sed '/^reboot: Power down/q' "$A" | grep -qE 'BUG|Oops|WARNING:|Kernel panic'; then
  echo "uml-toeplitz: the DUT's kernel logged BUG/Oops/WARNING/panic"; ok=0
fi
if [ "$ok" = 1 ]; then
  echo "uml-toeplitz: PASS"
  exit 0
fi
echo "uml-toeplitz: FAIL (logs: $tmp; UML_TEST_KEEP=1 keeps them)"
tail -n 30 "$A" | sed 's/^/  guest| /'
exit 1
