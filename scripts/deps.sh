#!/usr/bin/env bash
# Install the Debian packages rxscale needs, if missing, and say which.
# Usage: scripts/deps.sh [build|test|ci]   (each level includes the previous)
#        scripts/deps.sh bench              (test's, and valgrind for make bench)
#        scripts/deps.sh kmod               (kernel headers for make kmod; ci has them)
#        scripts/deps.sh uml                (the tools make uml-test runs in its guests)
#        scripts/deps.sh qemu               (host tools for make qemu-guest / qemu-test)
set -eu
level=${1:-build}
pkgs="meson ninja-build gcc pkg-config libpcap-dev libinih-dev libjson-c-dev zlib1g-dev python3 scdoc"
case "$level" in
  build) ;;
  test)  pkgs="$pkgs libcmocka-dev libdpdk-dev tshark python3 gnuplot-nox man-db parallel openssh-server openssh-client" ;;
  ci)    pkgs="$pkgs libcmocka-dev libdpdk-dev tshark python3 gnuplot-nox man-db parallel openssh-server openssh-client clang libclang-rt-14-dev linux-headers-amd64 kmod" ;;
  bench) pkgs="$pkgs libcmocka-dev libdpdk-dev tshark python3 gnuplot-nox man-db parallel openssh-server openssh-client valgrind" ;;
  kmod)  pkgs="make gcc linux-headers-amd64 kmod" ;;
  uml)   pkgs="iputils-ping ethtool iperf3 iproute2 util-linux kmod python3-yaml python3-jsonschema" ;;
  qemu)  pkgs="gcc libc6-dev binutils kmod cpio gzip xz-utils zstd iputils-ping iperf3 iproute2 util-linux python3 python3-yaml python3-jsonschema debian-archive-keyring" ;;
  *) echo "deps.sh: unknown level '$level' (build|test|ci|bench|kmod|uml|qemu)" >&2; exit 2 ;;
esac
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps.sh: installing Debian packages:$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# tshark asks whether non-root users may capture; answer no without a prompt.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo debconf-set-selections
# openssh-server is for the sweep test's own sshd on a spare port: keep
# the package from starting a system sshd (port 22) where nothing else does
policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  policy=/usr/sbin/policy-rc.d
  trap '$sudo rm -f "$policy"' EXIT
  printf '#!/bin/sh\nexit 101\n' | $sudo tee $policy >/dev/null
  $sudo chmod 755 $policy
fi
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps.sh: installed:$missing"
