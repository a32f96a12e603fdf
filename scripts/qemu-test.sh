#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The QEMU guest suite (4 vCPUs, TCG): the method's own checks. Extend it with
# rxscale's vfio-user device tests.
#
#   checker    scripts/qemu_check.py selftest (canned snippets, negative controls)
#   exit       a script's exit status comes back as qemu-run.sh's (3)
#   watchdog   a script that never ends: the guest's /init watchdog powers it
#              off, qemu-run.sh says so and exits 124
#   kmod       rxscale_r8169.ko (built for the guest's kernel) insmods and
#              rmmods; the static toeplitz selftest runs in the guest
#   igb        scripts/qemu-igb.sh: QEMU's igb spreads over 4 CPUs
#   igb-neg    scripts/qemu-igb.sh --negative: all vectors on CPU 0 are
#              reported NOT spread
#   vfio-*     rxscale's own device: the NIC model served by rxscale
#              vfio-user (scripts/qemu-vfio.sh): mainline r8169 on the
#              RTL8127A, RTL8126A and RTL8125B rows; rxscale_r8169's RSS over
#              4 CPUs; ethtool -L/-X/-G under traffic with the accounting
#              closed; the kernel's toeplitz selftest (hash, RSS, RPS); the
#              OwnBit erratum; INTx (pci=nomsi); two guests cabled through one server; QEMU
#              killed mid-transfer
#
# Usage: scripts/qemu-test.sh [TEST...]     (default: all, in this order)
# Exit: 0 when every test passed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
run=$root/scripts/qemu-run.sh
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(checker exit watchdog kmod igb igb-neg vfio-mainline-8127
  vfio-mainline-8126 vfio-mainline-8125b vfio-rss vfio-ethtool vfio-toeplitz vfio-ownbit vfio-intx vfio-pair vfio-vanish)
tmp=$(mktemp -d /tmp/rxscale-qemu-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
assets=$("$root/scripts/qemu-guest.sh" "${QEMU_DIR:-$root/build/qemu}" | grep -E '^QEMU[A-Z_]*=') || {
  echo "qemu-test: error: scripts/qemu-guest.sh failed" >&2; exit 1; }
kmod=$(echo "$assets" | sed -n 's/^QEMU_KMOD=//p')

t_checker() { /usr/bin/python3 "$root/scripts/qemu_check.py" selftest; }
t_exit() {
  printf 'echo hello from $(uname -r)\nexit 3\n' >"$tmp/exit.sh"
  local rc=0
  "$run" --script "$tmp/exit.sh" --timeout 120 --log "$tmp/exit.log" || rc=$?
  [ "$rc" = 3 ] && grep -q '^hello from ' "$tmp/exit.log"
}
t_watchdog() {
  printf 'echo sleeping\nwhile :; do sleep 1; done\n' >"$tmp/wd.sh"
  local rc=0
  "$run" --script "$tmp/wd.sh" --timeout 40 --log "$tmp/wd.log" || rc=$?
  [ "$rc" = 124 ] && grep -q '^RXQ-WATCHDOG' "$tmp/wd.log"
}
t_kmod() {
  cat >"$tmp/kmod.sh" <<'EOF'
insmod /rxscale_r8169.ko || exit 1
grep -q '^rxscale_r8169 ' /proc/modules || exit 2
echo "RXQ vermagic accepted: $(grep '^rxscale_r8169 ' /proc/modules)"
rmmod rxscale_r8169 || exit 3
/usr/bin/toeplitz 2>&1 | head -n 2
/usr/bin/toeplitz -4 -t -i lo -T 100 >/dev/null 2>&1; echo "RXQ toeplitz ran (exit $?)"
EOF
  "$run" --script "$tmp/kmod.sh" --file "$kmod/rxscale_r8169.ko" --timeout 120 --log "$tmp/kmod.log" &&
    grep -q '^RXQ toeplitz ran' "$tmp/kmod.log"
}
t_igb() { "$root/scripts/qemu-igb.sh"; }
vfio() { "$root/scripts/qemu-vfio.sh" "$@"; }
t_vfio-mainline-8127() { vfio mainline RTL8127A; }
t_vfio-mainline-8126() { vfio mainline RTL8126A; }
t_vfio-mainline-8125b() { vfio mainline RTL8125B; }
t_vfio-rss() { vfio rss; }
t_vfio-ethtool() { vfio ethtool; }
t_vfio-toeplitz() { vfio toeplitz; }
t_vfio-ownbit() { vfio ownbit; }
t_vfio-pair() { vfio pair; }
t_vfio-intx() { vfio intx; }
t_vfio-vanish() { vfio vanish; }
t_igb-neg() { "$root/scripts/qemu-igb.sh" --negative; }

fail=0
for t in "${tests[@]}"; do
  declare -F "t_$t" >/dev/null || { echo "qemu-test: error: no test '$t'" >&2; exit 2; }
  t0=$(date +%s)
  if "t_$t" >"$tmp/$t.out" 2>&1; then
    echo "qemu-test: PASS $t ($(( $(date +%s) - t0 )) s)"
  else
    echo "qemu-test: FAIL $t ($(( $(date +%s) - t0 )) s)"
    tail -n 30 "$tmp/$t.out" | sed 's/^/  | /'
    for l in "$tmp/$t".log; do [ -f "$l" ] && tail -n 15 "$l" | sed 's/^/  guest| /'; done
    fail=1
  fi
done
[ "$fail" = 0 ] && echo "qemu-test: all passed" || echo "qemu-test: FAILED"
exit "$fail"
