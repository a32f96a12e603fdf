#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rxscale vfio-user's TAP wire without a guest: in a network namespace of
# its own, the host's stack sends frames (ARP for an address behind the
# TAP, and UDP to it) out of the TAP; rxscale's reader puts them on the
# line-rate wire to the model, which, never programmed by a driver, drops
# each as "RX disabled".  Checks that every frame the TAP gave is offered
# to the model and counted in exactly that one drop counter, that nothing
# is sent back, and that SIGTERM ends the server cleanly with its report.
# With three threads (the TAP reader, the clock, the socket thread) on the
# device lock, this is also the test CI runs under ThreadSanitizer.
# Needs root (netns, /dev/net/tun); skips (77) otherwise.
# Usage: vfio_tap_test.sh RXSCALE
set -euo pipefail
rx=$1
if [ "$(id -u)" -ne 0 ] || [ ! -c /dev/net/tun ] || ! command -v ip >/dev/null; then
	echo "vfio-tap: needs root, /dev/net/tun and ip: skipped"
	exit 77
fi
ns=rxq-tap-test-$$
tap=rxqtt$$
dir=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "vfio-tap: FAIL: $*"; sed 's/^/  server: /' "$dir/out" 2>/dev/null; exit 1; }

ip netns add "$ns"
ip -n "$ns" link set lo up
ip -n "$ns" tuntap add mode tap name "$tap"
ip -n "$ns" addr add 10.0.99.1/24 dev "$tap"
ip -n "$ns" link set "$tap" up
ip netns exec "$ns" "$rx" vfio-user --socket "$dir/s" --tap "$tap" --seconds 60 --quiet \
	>"$dir/out" 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q "wire is TAP" "$dir/out" 2>/dev/null && break; sleep 0.1; done
grep -q "wire is TAP $tap" "$dir/out" || fail "the server did not attach to $tap"
# traffic out of the TAP: ARP requests for 10.0.99.2 (nobody answers) and
# UDP datagrams to a static neighbour, so the count is the host's own
ip -n "$ns" neigh replace 10.0.99.3 lladdr 00:e0:4c:68:00:01 dev "$tap"
ip netns exec "$ns" python3 - <<'PY'
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(500):
    s.sendto(bytes(64 + i % 1000), ("10.0.99.3", 9000 + i % 64))
PY
ip netns exec "$ns" ping -c 3 -i 0.2 -W 1 10.0.99.2 >/dev/null 2>&1 || true
sleep 0.5
ip -n "$ns" -s link show "$tap" >"$dir/link"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=
[ "$rc" -eq 0 ] || fail "exit status $rc after SIGTERM"
grep -q "stopped by a signal" "$dir/out" || fail "no 'stopped by a signal' line"
# the host's TX count on the TAP = what the server read from it
host_tx=$(awk '/TX:/ {getline; print $2; exit}' "$dir/link")
tap_rx=$(sed -n 's/^tap [^:]*: \([0-9]*\) frames .* from the host.*/\1/p' "$dir/out")
offered=$(sed -n 's/^nic0: [0-9]* frames sent, \([0-9]*\) offered to it.*/\1/p' "$dir/out")
drops=$(sed -n 's/^nic0: .* \([0-9]*\) RX drops$/\1/p' "$dir/out")
disabled=$(sed -n 's/^nic0 RX drops by reason: .*, \([0-9]*\) RX disabled,.*/\1/p' "$dir/out")
sent=$(sed -n 's/^nic0: \([0-9]*\) frames sent.*/\1/p' "$dir/out")
echo "vfio-tap: host sent $host_tx frames out of $tap; the server read $tap_rx, offered" \
	"$offered to the model, which dropped $drops ($disabled RX disabled) and sent $sent"
[ -n "$host_tx" ] && [ "$host_tx" -ge 500 ] || fail "the host sent $host_tx frames, expected >= 500"
[ "$tap_rx" = "$host_tx" ] || fail "the server read $tap_rx frames, the host sent $host_tx"
[ "$offered" = "$tap_rx" ] || fail "offered $offered != read $tap_rx"
[ "$drops" = "$offered" ] && [ "$disabled" = "$offered" ] ||
	fail "drops $drops / RX disabled $disabled != offered $offered"
[ "$sent" = 0 ] || fail "the model sent $sent frames without a driver"
grep -q "^real time: " "$dir/out" || fail "no real-time line"
echo "vfio-tap: ok"
