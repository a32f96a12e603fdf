#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host side of the QEMU guests' wire: a network namespace with a TAP
# device in it. Whatever opens the TAP (QEMU with -netdev tap,ifname=...,
# later rxscale's vfio-user server) and the host-side peers (iperf3, ping,
# tcpdump) run inside the namespace with `ip netns exec`, so nothing of the
# host's own network is touched.
#
# Usage: scripts/qemu-netns.sh up|down|status
#   RXQ_NETNS=rxq         the namespace
#   RXQ_TAP=rxqtap0       the TAP device in it
#   RXQ_HOST_ADDR=10.0.9.1/24   its address (guests use 10.0.9.2/24)
# up is idempotent (an existing namespace, TAP or address is kept); down
# removes the namespace and everything in it.
#
# Output (last lines, for scripts): RXQ_NETNS=..., RXQ_TAP=..., RXQ_HOST=...
set -euo pipefail
ns=${RXQ_NETNS:-rxq}
tap=${RXQ_TAP:-rxqtap0}
addr=${RXQ_HOST_ADDR:-10.0.9.1/24}
die() { echo "qemu-netns: error: $*" >&2; exit 1; }
command -v ip >/dev/null || die "ip not installed (apt-get install iproute2)"
[ "$(id -u)" -eq 0 ] || die "run as root (ip netns, ip tuntap)"
case "$addr" in
  10.0.9.*/*) ;;
  *) die "RXQ_HOST_ADDR=$addr is outside this project's test range 10.0.9.0/24" ;;
esac

have_ns() { ip netns list | awk '{print $1}' | grep -qxF "$ns"; }

case "${1:-}" in
  up)
    [ -e /dev/net/tun ] || die "no /dev/net/tun"
    have_ns || ip netns add "$ns" || die "ip netns add $ns failed"
    ip -n "$ns" link set lo up
    if ! ip -n "$ns" link show "$tap" >/dev/null 2>&1; then
      ip -n "$ns" tuntap add dev "$tap" mode tap || die "ip tuntap add $tap failed"
    fi
    if ! ip -n "$ns" -o addr show dev "$tap" | grep -qF " ${addr} "; then
      ip -n "$ns" addr add "$addr" dev "$tap" || die "ip addr add $addr dev $tap failed"
    fi
    ip -n "$ns" link set "$tap" up
    echo "qemu-netns: $ns: $tap $addr (carrier comes when a process opens the TAP)"
    echo "RXQ_NETNS=$ns"
    echo "RXQ_TAP=$tap"
    echo "RXQ_HOST=${addr%/*}"
    ;;
  down)
    if have_ns; then
      # a process still holding the TAP keeps it; say so instead of hiding it
      pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')
      [ -z "$pids" ] || echo "qemu-netns: note: processes still in $ns: $pids" >&2
      ip netns del "$ns" || die "ip netns del $ns failed"
      echo "qemu-netns: $ns removed"
    else
      echo "qemu-netns: $ns is not there; nothing to do"
    fi
    ;;
  status)
    have_ns || { echo "qemu-netns: $ns is down"; exit 1; }
    ip -n "$ns" -br addr
    ;;
  *) echo "usage: scripts/qemu-netns.sh up|down|status" >&2; exit 2 ;;
esac
