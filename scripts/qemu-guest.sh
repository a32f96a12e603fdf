#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Assets for SMP Linux guests under QEMU, from Debian packages only (no disk
# images): a QEMU that has the vfio-user client, a Linux 7.3 kernel with the
# modules the NIC tests need, rxscale's own module built for that kernel, the
# kernel's toeplitz RSS selftest (static) and a base initramfs. See
# /work/shared/research/qemu-vfio-user.md for why and how.
#
# Usage: scripts/qemu-guest.sh [OUTDIR]          (default: build/qemu)
#   QEMU_GUEST_REFRESH=1   forget the cached .debs and package lists, fetch again
#   QEMU_GUEST_KREL=...    kernel flavour to use (default: the newest
#                          7.3.*+debNN-amd64 in trixie-backports)
#   QEMU_DEBIAN_MIRROR     default http://deb.debian.org/debian
#
# Versions (when this was written; the script takes what the suites hold):
#   QEMU        1:11.1.3+ds-2~bpo13+1  qemu-system-x86, qemu-system-data,
#               seabios 1.17.0-1~bpo13+1 and ipxe-qemu, trixie-backports; their
#               library closure (about 90 packages, glibc 2.41) from trixie
#   Linux       7.3.4-1~bpo13+1 (uname -r 7.3.4+deb13-amd64), trixie-backports:
#               linux-binary-* (vmlinuz), linux-modules-* (the .ko files)
#   kbuild      linux-headers-7.3.4+deb13-{amd64,common}, linux-kbuild-7.3.4+deb13,
#               gcc-14 14.2.0-19, binutils 2.44, pahole 1.30: the same
#               compiler and tools the image was built with, from trixie
#   selftest    linux-source-7.3 7.3.4-1~bpo13+1 (trixie-backports), compiled
#               with the host's gcc, linked statically
#   initramfs   bookworm: busybox-static, iperf3, ethtool, sysstat (mpstat),
#               iproute2, with their shared libraries
#
# How it runs on Debian 12 (bookworm):
# - QEMU 11.1 needs glibc >= 2.38. Its packages and their library closure are
#   unpacked into OUTDIR/qemu-root and OUTDIR/bin/qemu-system-x86_64 is a
#   wrapper that starts it through that root's own loader with
#   --library-path, QEMU_MODULE_DIR and -L for its firmware. On a trixie (or
#   newer) host set QEMU_GUEST_SYSTEM_QEMU=1 to wrap /usr/bin/qemu-system-x86_64
#   instead (it must be 10.1 or newer for vfio-user).
# - The trixie kbuild tools (modpost, objtool, gcc-14) need the same newer
#   glibc, so rxscale's module is built in a chroot made of trixie packages
#   (OUTDIR/kbuild-root: the headers, kbuild, gcc-14, make, a shell); the
#   repository's src/ and kmod/ are copied in; the build runs in a private
#   mount namespace with its own /proc (objtool reads it). vermagic
#   is the image's because the tree is the image's own headers package
#   (CONFIG_MODVERSIONS is off in Debian's 7.3; unsigned modules load, with a
#   taint, as CONFIG_MODULE_SIG_FORCE is off).
# - The system's apt state is never read for sources nor written: each suite
#   has a private sources list, lists directory, empty dpkg status and
#   archive directory under OUTDIR/apt and OUTDIR/debs. Host tools that are
#   missing (kmod, cpio, python3-yaml, ...) come from scripts/deps.sh qemu.
#
# Caching: every stage has a stamp of its inputs; a second run with nothing
# changed does no network access and only prints the paths. The module is
# rebuilt when src/ or kmod/ change, the initramfs when this script does.
#
# Output (last lines, for scripts): QEMU=<wrapper>, QEMU_KERNEL=<vmlinuz>,
# QEMU_INITRD=<base initramfs, gzip'd newc>, QEMU_KMOD=<dir with
# rxscale_r8169.ko>, QEMU_TOEPLITZ=<static toeplitz>, QEMU_KREL=<uname -r>.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/qemu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
mirror=${QEMU_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
self_hash=$(sha256sum "$0" | cut -c1-16)
# Bump one of these when the way a stage is made changes (the initramfs also
# follows this script's hash, as /init is written here).
recipe_qemu=1 recipe_kernel=1 recipe_kmod=1 recipe_tz=1

log() { echo "qemu-guest: $*"; }
die() { echo "qemu-guest: error: $*" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || die "only x86_64 hosts are supported"
[ "$(id -u)" -eq 0 ] || die "run as root (the module is built in a chroot)"
[ -f "$keyring" ] || die "missing $keyring (apt-get install debian-archive-keyring)"
for t in apt-get dpkg-deb modinfo depmod cpio gzip xz zstd gcc readelf; do
  command -v "$t" >/dev/null || die "$t not installed (scripts/deps.sh qemu)"
done
py=/usr/bin/python3
"$py" -c 'import yaml, jsonschema' 2>/dev/null ||
  die "$py lacks PyYAML or jsonschema (scripts/deps.sh qemu)"
if [ "${QEMU_GUEST_REFRESH:-0}" = 1 ]; then
  rm -rf "$out/apt" "$out/debs"
fi

# ---- private apt ---------------------------------------------------------------
# apt_env NAME SUITE...: sets aopt to a private configuration for those suites
declare -a aopt
apt_env() {
  local name=$1 d=$out/apt/$1 s; shift
  mkdir -p "$d/lists/partial" "$d/state" "$d/parts" "$d/prefs" "$d/cache"
  : >"$d/sources.list"
  for s in "$@"; do echo "deb [signed-by=$keyring] $mirror $s main" >>"$d/sources.list"; done
  [ -f "$d/status" ] || : >"$d/status"
  aopt=(-o "Dir::Etc::sourcelist=$d/sources.list" -o "Dir::Etc::sourceparts=$d/parts"
        -o "Dir::Etc::preferences=$d/prefs/none" -o "Dir::Etc::preferencesparts=$d/prefs"
        -o "Dir::State=$d/state" -o "Dir::State::Lists=$d/lists"
        -o "Dir::State::status=$d/status" -o "Dir::Cache=$d/cache"
        -o "Acquire::Languages=none" -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1"
        -o "APT::Architecture=amd64" -o "APT::Architectures::=amd64"
        -o "APT::Install-Recommends=false" -o "APT::Install-Suggests=false")
  if [ ! -f "$d/updated" ]; then
    log "apt ($name): updating private lists for: $*"
    timeout 600 apt-get "${aopt[@]}" -qq update || die "apt-get update ($name: $*) failed"
    touch "$d/updated"
  fi
}
# closure DIR [apt-get install args...]: download the packages and their
# dependency closure (against an empty dpkg status) into DIR
closure() {
  local dir=$1; shift
  mkdir -p "$dir/partial"
  timeout 1800 apt-get "${aopt[@]}" -o "Dir::Cache::archives=$dir" -qq -d -y install "$@" \
    >/dev/null || die "apt-get download of $* failed"
  rm -rf "$dir/partial" "$dir/lock"
  echo "$*" >"$dir/.packages"
}
# need_closure DIR PKG...: whether DIR lacks the closure of exactly these packages
need_closure() {
  local dir=$1; shift
  ! have_debs "$dir" || [ "$(cat "$dir/.packages" 2>/dev/null)" != "$*" ]
}
# only DIR PKG...: download exactly these packages (no dependencies) into DIR
only() {
  local dir=$1; shift
  mkdir -p "$dir"
  (cd "$dir" && timeout 1800 apt-get "${aopt[@]}" -qq download "$@") ||
    die "apt-get download $* failed"
}
debs_id() { (cd "$1" && ls -1 -- *.deb | sort) | sha256sum | cut -c1-16; }
extract_all() {  # extract_all DEBDIR DEST
  local f
  for f in "$1"/*.deb; do dpkg-deb -x "$f" "$2" || die "dpkg-deb -x $f"; done
}
have_debs() { compgen -G "$1/*.deb" >/dev/null; }

# ---- which kernel ----------------------------------------------------------------
kdebs=$out/debs/kernel
krel=${QEMU_GUEST_KREL:-}
if [ -z "$krel" ]; then
  m=$(ls -1 "$kdebs"/linux-modules-7.3*-amd64_*.deb 2>/dev/null | sort -V | tail -n1 || true)
  if [ -n "$m" ]; then
    krel=$(basename "$m"); krel=${krel#linux-modules-}; krel=${krel%%_*}
  fi
fi
if [ -z "$krel" ]; then
  apt_env trixie trixie trixie-backports
  krel=$(apt-cache "${aopt[@]}" pkgnames linux-modules-7.3 |
         grep -E '^linux-modules-7\.3\.[0-9]+\+deb[0-9]+-amd64$' | sort -V | tail -n1 || true)
  krel=${krel#linux-modules-}
  [ -n "$krel" ] || die "no linux-modules-7.3.*-amd64 in trixie-backports"
fi
kbase=${krel%-amd64}             # 7.3.4+deb13
log "kernel: $krel"

# ---- 1. QEMU --------------------------------------------------------------------
qdebs=$out/debs/qemu
qroot=$out/qemu-root
qwrap=$out/bin/qemu-system-x86_64
qpkgs="qemu-system-x86 qemu-system-data seabios ipxe-qemu"
stage_qemu() {
  if need_closure "$qdebs" -t trixie-backports $qpkgs; then
    apt_env trixie trixie trixie-backports
    log "fetching qemu-system-x86 11.x and its closure (trixie-backports + trixie)"
    closure "$qdebs" -t trixie-backports $qpkgs
  fi
  local want="recipe=$recipe_qemu debs=$(debs_id "$qdebs") root=$qroot"
  if [ -x "$qwrap" ] && [ "$(cat "$qroot/.stamp" 2>/dev/null)" = "$want" ]; then return; fi
  log "unpacking $(ls "$qdebs"/*.deb | wc -l) packages into $qroot"
  rm -rf "$qroot"; mkdir -p "$qroot"
  extract_all "$qdebs" "$qroot"
  local ldso=$qroot/usr/lib64/ld-linux-x86-64.so.2
  [ -e "$ldso" ] || ldso=$qroot/lib64/ld-linux-x86-64.so.2
  [ -e "$ldso" ] || die "no ld-linux-x86-64.so.2 in $qroot"
  [ -x "$qroot/usr/bin/qemu-system-x86_64" ] || die "no usr/bin/qemu-system-x86_64 in $qroot"
  mkdir -p "$out/bin"
  if [ "${QEMU_GUEST_SYSTEM_QEMU:-0}" = 1 ]; then
    cat >"$qwrap" <<'EOF'
#!/bin/sh
# generated by scripts/qemu-guest.sh: the system's QEMU (trixie or newer)
exec /usr/bin/qemu-system-x86_64 "$@"
EOF
  else
    cat >"$qwrap" <<EOF
#!/bin/sh
# generated by scripts/qemu-guest.sh: QEMU from trixie packages in
# $qroot, started through that root's own loader (the host's glibc is older)
R=$qroot
export QEMU_MODULE_DIR=\$R/usr/lib/x86_64-linux-gnu/qemu
exec "$ldso" --library-path "\$R/usr/lib/x86_64-linux-gnu:\$R/lib/x86_64-linux-gnu" \\
  "\$R/usr/bin/qemu-system-x86_64" -L "\$R/usr/share/qemu" -L "\$R/usr/share/seabios" \\
  -L "\$R/usr/lib/ipxe/qemu" "\$@"
EOF
  fi
  chmod +x "$qwrap"
  local v
  v=$("$qwrap" --version | head -n1) || die "$qwrap does not run"
  log "$v"
  "$qwrap" -device help 2>&1 | grep -q '"vfio-user-pci"' || die "$qwrap has no vfio-user-pci device"
  "$qwrap" -device help 2>&1 | grep -q '"igb"' || die "$qwrap has no igb device"
  echo "$want" >"$qroot/.stamp"
}

# ---- 2. kernel + modules ---------------------------------------------------------
kroot=$out/kernel-$krel
kernel=$out/vmlinuz-$krel
# the modules the guests load, by name; their dependency closure is added
kmods="r8169 realtek phy_package mdio_devres igb dca i2c-algo-bit"
stage_kernel() {
  if ! compgen -G "$kdebs/linux-modules-${krel}_*.deb" >/dev/null ||
     ! compgen -G "$kdebs/linux-binary-${krel}_*.deb" >/dev/null ||
     ! compgen -G "$kdebs/linux-base-${krel}_*.deb" >/dev/null ||
     ! compgen -G "$kdebs/linux-source-7.3_*.deb" >/dev/null; then
    apt_env trixie trixie trixie-backports
    log "fetching linux-binary/modules/base-$krel and linux-source-7.3 (trixie-backports, ~290 MB)"
    local src=()
    local cached
    cached=$(ls -1 "$root"/build/uml/debs/linux-source-7.3_*.deb 2>/dev/null | sort -V | tail -n1 || true)
    if [ -n "$cached" ]; then
      log "reusing $cached"; mkdir -p "$kdebs"; cp "$cached" "$kdebs/"
    else
      src=(linux-source-7.3/trixie-backports)
    fi
    only "$kdebs" "linux-binary-$krel" "linux-modules-$krel" "linux-base-$krel" "${src[@]}"
  fi
  local want="recipe=$recipe_kernel krel=$krel mods=$kmods debs=$(cd "$kdebs" && ls linux-binary-* linux-modules-* linux-base-* | sha256sum | cut -c1-16)"
  if [ -f "$kernel" ] && [ "$(cat "$kroot/.stamp" 2>/dev/null)" = "$want" ]; then return; fi
  log "unpacking the kernel image and modules"
  rm -rf "$kroot" "$out/kpkg"; mkdir -p "$out/kpkg" "$kroot"
  dpkg-deb -x "$kdebs"/linux-binary-"$krel"_*.deb "$out/kpkg"
  dpkg-deb -x "$kdebs"/linux-modules-"$krel"_*.deb "$out/kpkg"
  dpkg-deb -x "$kdebs"/linux-base-"$krel"_*.deb "$out/kpkg"
  local mdir=$out/kpkg/usr/lib/modules/$krel
  [ -d "$mdir" ] || mdir=$out/kpkg/lib/modules/$krel
  local vz
  vz=$(ls -1 "$out/kpkg"/boot/vmlinuz-"$krel" "$mdir"/vmlinuz 2>/dev/null | head -n1 || true)
  [ -n "$vz" ] || die "no vmlinuz in linux-binary-$krel"
  cp "$vz" "$kernel"
  # resolve the closure of $kmods with modinfo -F depends
  local todo=$kmods done="" m f dep
  declare -A path
  while IFS= read -r f; do
    m=$(basename "$f"); m=${m%%.ko*}; path[${m//-/_}]=$f
  done < <(find "$mdir/kernel" -name '*.ko*')
  while [ -n "$todo" ]; do
    set -- $todo; m=${1//-/_}; shift; todo="$*"
    case " $done " in *" $m "*) continue ;; esac
    done="$done $m"
    f=${path[$m]:-}
    if [ -z "$f" ]; then
      grep -qE "/${m//_/[-_]}\.ko\$" "$mdir/modules.builtin" ||
        die "module $m neither in linux-modules-$krel nor built in"
      log "module $m is built in"; continue
    fi
    for dep in $(modinfo -F depends "$f" | tr ',' ' '); do todo="$todo $dep"; done
    local rel=${f#"$mdir"/}
    mkdir -p "$kroot/lib/modules/$krel/$(dirname "$rel")"
    case "$f" in
      *.ko.xz) xz -dc "$f" >"$kroot/lib/modules/$krel/${rel%.xz}" ;;
      *.ko.zst) zstd -qdc "$f" >"$kroot/lib/modules/$krel/${rel%.zst}" ;;
      *.ko.gz) gzip -dc "$f" >"$kroot/lib/modules/$krel/${rel%.gz}" ;;
      *) cp "$f" "$kroot/lib/modules/$krel/$rel" ;;
    esac
  done
  cp "$mdir/modules.builtin" "$mdir/modules.order" "$kroot/lib/modules/$krel/"
  [ -f "$mdir/modules.builtin.modinfo" ] && cp "$mdir/modules.builtin.modinfo" "$kroot/lib/modules/$krel/"
  depmod -b "$kroot" "$krel" || die "depmod -b $kroot $krel failed"
  log "modules: $(cd "$kroot/lib/modules/$krel" && find . -name '*.ko' | sed 's|.*/||' | sort | tr '\n' ' ')"
  rm -rf "$out/kpkg"
  echo "$want" >"$kroot/.stamp"
}

# ---- 3. rxscale's module, built in a trixie chroot ------------------------------
bdebs=$out/debs/kbuild
broot=$out/kbuild-root
kmoddir=$out/kmod-$krel
bpkgs="linux-headers-$krel make binutils bash dash coreutils sed grep mawk findutils diffutils"
stage_kmod() {
  if need_closure "$bdebs" -t trixie-backports $bpkgs; then
    apt_env trixie trixie trixie-backports
    log "fetching the kbuild chroot: linux-headers-$krel, gcc-14, binutils, make, a shell (trixie)"
    closure "$bdebs" -t trixie-backports $bpkgs
  fi
  local srch
  srch=$(cd "$root" && find src kmod -type f ! -path 'kmod/build/*' ! -name '*.ko' | sort |
         xargs sha256sum | sha256sum | cut -c1-16)
  local bwant="recipe=$recipe_kmod debs=$(debs_id "$bdebs")"
  local want="$bwant src=$srch"
  if [ -f "$kmoddir/rxscale_r8169.ko" ] && [ "$(cat "$kmoddir/.stamp" 2>/dev/null)" = "$want" ]; then return; fi
  if [ "$(cat "$broot/.stamp" 2>/dev/null)" != "$bwant" ]; then
    log "unpacking $(ls "$bdebs"/*.deb | wc -l) packages into the chroot $broot"
    rm -rf "$broot"; mkdir -p "$broot"
    # merged /usr, as trixie's base-files lays it out
    mkdir -p "$broot/usr/bin" "$broot/usr/sbin" "$broot/usr/lib" "$broot/usr/lib64"
    ln -s usr/bin "$broot/bin"; ln -s usr/sbin "$broot/sbin"
    ln -s usr/lib "$broot/lib"; ln -s usr/lib64 "$broot/lib64"
    extract_all "$bdebs" "$broot"
    mkdir -p "$broot/dev" "$broot/tmp" "$broot/proc"
    mknod -m 666 "$broot/dev/null" c 1 3
    mknod -m 666 "$broot/dev/zero" c 1 5
    mknod -m 444 "$broot/dev/urandom" c 1 9
    chmod 1777 "$broot/tmp"
    # what the maintainer scripts would have set up (alternatives)
    [ -e "$broot/bin/sh" ] || ln -s dash "$broot/usr/bin/sh"
    [ -e "$broot/usr/bin/awk" ] || ln -s mawk "$broot/usr/bin/awk"
    # gcc-14 is installed as x86_64-linux-gnu-gcc-14 (the name .kernelvariables uses)
    [ -x "$broot/usr/bin/x86_64-linux-gnu-gcc-14" ] || die "no x86_64-linux-gnu-gcc-14 in the chroot"
    chroot "$broot" /usr/bin/x86_64-linux-gnu-gcc-14 --version >/dev/null ||
      die "gcc-14 does not run in the chroot $broot"
    echo "$bwant" >"$broot/.stamp"
  fi
  log "building kmod/ against linux-headers-$krel (gcc-14 in the chroot)"
  rm -rf "$broot/rxscale"; mkdir -p "$broot/rxscale"
  (cd "$root" && tar -cf - --exclude=kmod/build --exclude='*.ko' src kmod) | tar -xf - -C "$broot/rxscale"
  local blog=$out/kmod-build.log
  # objtool reads /proc: a proc mount in a private mount namespace, gone with it
  if ! unshare --mount --propagation private sh -c 'mount -t proc proc "$1/proc" && exec chroot "$@"' \
       sh "$broot" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/tmp \
       make -C /rxscale/kmod KDIR="/usr/src/linux-headers-$krel" >"$blog" 2>&1; then
    tail -n 30 "$blog" >&2
    die "kmod build against $krel failed (log: $blog)"
  fi
  rm -rf "$kmoddir"; mkdir -p "$kmoddir"
  cp "$broot"/rxscale/kmod/*.ko "$kmoddir/"
  local ko vm
  for ko in "$kmoddir"/*.ko; do
    vm=$(modinfo -F vermagic "$ko")
    case "$vm" in "$krel "*) ;; *) die "$ko has vermagic '$vm', not $krel" ;; esac
    log "built $(basename "$ko"): vermagic $vm, depends: $(modinfo -F depends "$ko")"
  done
  grep -iE 'warning' "$blog" | head -n 5 | sed 's/^/qemu-guest: kbuild: /' || true
  echo "$want" >"$kmoddir/.stamp"
}

# ---- 4. the toeplitz selftest, static, from linux-source-7.3 -----------------------
tzdir=$out/toeplitz
toeplitz=$tzdir/toeplitz
stage_toeplitz() {
  local sdeb want
  sdeb=$(ls -1 "$kdebs"/linux-source-7.3_*.deb | sort -V | tail -n1)
  want="recipe=$recipe_tz source=$(basename "$sdeb")"
  if [ -x "$toeplitz" ] && [ "$(cat "$tzdir/.stamp" 2>/dev/null)" = "$want" ]; then return; fi
  rm -rf "$tzdir"; mkdir -p "$tzdir"
  local t=$tzdir/src
  local uml=$root/build/uml/linux-7.3
  if [ -f "$uml/tools/testing/selftests/drivers/net/hw/toeplitz.c" ] &&
     [ "$(cat "$uml/.rxscale-uml-source" 2>/dev/null)" = "linux-source-7.3 $(dpkg-deb -f "$sdeb" Version)" ]; then
    log "toeplitz: using the unpacked UML tree $uml"
    t=$uml
  else
    log "toeplitz: unpacking the parts of linux-source-7.3 it needs"
    mkdir -p "$t"
    dpkg-deb --fsys-tarfile "$sdeb" | tar -xOf - --wildcards './usr/src/linux-source-7.3.tar.*' |
      tar -xJf - -C "$t" --strip-components=1 --wildcards \
        'linux-source-7.3/include/uapi/*' 'linux-source-7.3/tools/net/ynl/*' \
        'linux-source-7.3/tools/testing/selftests/drivers/net/*' \
        'linux-source-7.3/tools/testing/selftests/kselftest*' \
        'linux-source-7.3/tools/testing/selftests/net/lib/*' \
        'linux-source-7.3/tools/include/*' \
        'linux-source-7.3/Documentation/netlink/*' 'linux-source-7.3/MAINTAINERS' ||
      die "unpacking linux-source-7.3 failed"
  fi
  # ynl_gen_c.py finds the tree's root by its MAINTAINERS file
  [ -f "$t/MAINTAINERS" ] || die "no MAINTAINERS in $t (ynl_gen_c.py needs it)"
  local ynl=$t/tools/net/ynl uapi=$t/include/uapi sel=$t/tools/testing/selftests
  local spec=$t/Documentation/netlink/specs/ethtool.yaml
  [ -f "$sel/drivers/net/hw/toeplitz.c" ] || die "no drivers/net/hw/toeplitz.c in linux-source-7.3"
  # the tree's uAPI headers instead of the host's older ones (as uml-toeplitz.sh)
  local hdrs=(-D_LINUX_TYPELIMITS_H -include "$uapi/linux/typelimits.h"
      -D_LINUX_ETHTOOL_H -include "$uapi/linux/ethtool.h"
      -D_LINUX_ETHTOOL_NETLINK_H_ -include "$uapi/linux/ethtool_netlink.h"
      -D_LINUX_ETHTOOL_NETLINK_GENERATED_H -include "$uapi/linux/ethtool_netlink_generated.h")
  [ -f "$uapi/linux/typelimits.h" ] || hdrs=("${hdrs[@]:2}")
  local gen=(--user-header linux/ethtool_netlink.h --exclude-op stats-get) b=$tzdir
  {
    PYTHONDONTWRITEBYTECODE=1 "$py" "$ynl/pyynl/ynl_gen_c.py" --mode user --header \
      --spec "$spec" -o "$b/ethtool-user.h" "${gen[@]}" &&
    PYTHONDONTWRITEBYTECODE=1 "$py" "$ynl/pyynl/ynl_gen_c.py" --mode user --source \
      --spec "$spec" -o "$b/ethtool-user.c" "${gen[@]}" &&
    gcc -std=gnu11 -O2 -I"$ynl/lib" -idirafter "$uapi" "${hdrs[@]}" \
      -c "$b/ethtool-user.c" -o "$b/ethtool-user.o" &&
    gcc -std=gnu11 -O2 -I"$ynl/lib" -c "$ynl/lib/ynl.c" -o "$b/ynl.o" &&
    gcc -std=gnu11 -O2 -Wall -static -I"$b" -I"$ynl/lib" -I"$sel" -idirafter "$uapi" "${hdrs[@]}" \
      "$sel/drivers/net/hw/toeplitz.c" "$b/ethtool-user.o" "$b/ynl.o" -o "$toeplitz"
  } >"$tzdir/build.log" 2>&1 || { tail -n 30 "$tzdir/build.log" >&2; die "toeplitz build failed (log: $tzdir/build.log)"; }
  rm -rf "$tzdir/src" "$b"/*.o
  if readelf -l "$toeplitz" | grep -q INTERP; then die "$toeplitz is not static"; fi
  echo "$want" >"$tzdir/.stamp"
  log "toeplitz: built $toeplitz (static)"
}

# ---- 5. base initramfs --------------------------------------------------------------
idebs=$out/debs/initrd
initrd=$out/initrd-base-$krel.cpio.gz
istage=$out/initrd-root
ipkgs="busybox-static iperf3 ethtool sysstat iproute2"
# the programs taken from the bookworm packages (path in the package)
iprogs="usr/bin/iperf3 usr/sbin/ethtool usr/bin/mpstat usr/bin/ip usr/sbin/tc"
write_init() {
  cat >"$1" <<'EOF'
#!/bin/sh
# /init of the rxscale QEMU guests (written by scripts/qemu-guest.sh).
# Kernel command line: rxq.modules=a,b  modules to modprobe first
#                      rxq.timeout=S    power off after S s whatever happens
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm /tmp /run /var/run
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mods="" limit=600
for a in $(cat /proc/cmdline); do
  case "$a" in
    rxq.modules=*) mods=$(echo "${a#rxq.modules=}" | tr ',' ' ') ;;
    rxq.timeout=*) limit=${a#rxq.timeout=} ;;
  esac
done
# never hang: whatever the test does, the guest is off after $limit s
( sleep "$limit"; echo "RXQ-WATCHDOG: $limit s passed"; echo "RXQ-EXIT=124"; poweroff -f ) &
for m in $mods; do
  modprobe "$m" || echo "RXQ-MODPROBE-FAILED $m"
done
ip link set lo up
echo "RXQ-BOOTED kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo) modules=$(cut -d' ' -f1 /proc/modules | tr '\n' ',')"
if [ -f /test.sh ]; then
  # busybox's sh runs its own applets before PATH: the packaged ip and tc
  # must win, so the script starts with functions that name them
  sh -c '. /etc/rxq-profile; . /test.sh'
  rc=$?
else
  echo "RXQ: no /test.sh in the initramfs"
  rc=127
fi
echo "RXQ-EXIT=$rc"
sync
poweroff -f
sleep 30
EOF
  chmod 755 "$1"
}
stage_initrd() {
  if need_closure "$idebs" $ipkgs; then
    apt_env bookworm bookworm
    log "fetching $ipkgs and their closure (bookworm)"
    closure "$idebs" $ipkgs
  fi
  local want="script=$self_hash debs=$(debs_id "$idebs") mods=$(cat "$kroot/.stamp" | sha256sum | cut -c1-16) tz=$(sha256sum "$toeplitz" | cut -c1-16)"
  if [ -f "$initrd" ] && [ "$(cat "$initrd.stamp" 2>/dev/null)" = "$want" ]; then return; fi
  log "assembling the base initramfs"
  local pk=$out/initrd-pkgs
  rm -rf "$pk" "$istage"; mkdir -p "$pk" "$istage"
  extract_all "$idebs" "$pk"
  cd "$istage"
  mkdir -p bin sbin usr/bin usr/sbin lib64 usr/lib/x86_64-linux-gnu etc proc sys dev tmp run root var
  ln -s usr/lib lib
  ln -s ../usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 lib64/ld-linux-x86-64.so.2
  cp "$pk/bin/busybox" bin/busybox
  local a
  for a in $(bin/busybox --list-full); do
    [ -e "$a" ] || ln -s /bin/busybox "$a"
  done
  local p need=() seen=" " lib f
  for p in $iprogs; do
    f=$pk/$p; [ -e "$f" ] || f=$pk/${p#usr/}
    [ -e "$f" ] || die "no $p in the bookworm packages"
    rm -f "$p"; cp -L "$f" "$p"; need+=("$p")
  done
  # shared library closure of the programs, from the extracted packages
  local libdirs="$pk/lib/x86_64-linux-gnu $pk/usr/lib/x86_64-linux-gnu"
  while [ ${#need[@]} -gt 0 ]; do
    f=${need[0]}; need=("${need[@]:1}")
    for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      case "$seen" in *" $lib "*) continue ;; esac
      seen="$seen$lib "
      local src=""
      for d in $libdirs; do [ -e "$d/$lib" ] && { src=$d/$lib; break; }; done
      [ -n "$src" ] || die "library $lib (needed by $f) not in the bookworm packages"
      cp -L "$src" "usr/lib/x86_64-linux-gnu/$lib"
      need+=("usr/lib/x86_64-linux-gnu/$lib")
    done
  done
  local ld
  ld=$(ls "$pk"/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$pk"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 2>/dev/null | head -n1 || true)
  [ -n "$ld" ] || die "no ld-linux-x86-64.so.2 in the bookworm packages"
  cp -L "$ld" usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
  # iperf3 wants a writable /tmp, ip wants /etc/iproute2 (optional)
  [ -d "$pk/usr/share/iproute2" ] && { mkdir -p usr/share; cp -r "$pk/usr/share/iproute2" usr/share/; }
  echo "root:x:0:0:root:/root:/bin/sh" >etc/passwd
  echo "root:x:0:" >etc/group
  printf '127.0.0.1 localhost\n10.0.9.1 host\n10.0.9.2 guest\n' >etc/hosts
  cp -a "$kroot/lib/modules" usr/lib/
  cp "$toeplitz" usr/bin/toeplitz
  write_init init
  cat >etc/rxq-profile <<'EOF'
# sourced before /test.sh (see /init)
ip() { /usr/bin/ip "$@"; }
tc() { /usr/sbin/tc "$@"; }
EOF
  for p in $iprogs; do
    chroot . /$p --version >/dev/null 2>&1 || chroot . /$p -V >/dev/null 2>&1 ||
      chroot . /$p -h >/dev/null 2>&1 || log "note: /$p did not answer --version in the initramfs root"
  done
  find . | sort | cpio -o -H newc -R 0:0 --quiet | gzip -6 >"$initrd.tmp"
  mv "$initrd.tmp" "$initrd"
  cd "$root"
  rm -rf "$pk"
  echo "$want" >"$initrd.stamp"
  log "initramfs: $initrd ($(du -h "$initrd" | cut -f1))"
}

t0=$(date +%s)
stage_qemu
stage_kernel
stage_kmod
stage_toeplitz
stage_initrd
log "ready ($(( $(date +%s) - t0 )) s)"
echo "QEMU=$qwrap"
echo "QEMU_KERNEL=$kernel"
echo "QEMU_INITRD=$initrd"
echo "QEMU_KMOD=$kmoddir"
echo "QEMU_TOEPLITZ=$toeplitz"
echo "QEMU_KREL=$krel"
