#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run the kernel's checkpatch.pl --strict over every file in src/drv (the
# r8169 and r8152 drivers, headers too), as netdev would (issue 25), and
# the kernel's scripts/kernel-doc -Wall over the same files (every
# parameter, member and return described); tests/kdoc_test.py checks that
# the comments are there.
#
# Usage: scripts/checkpatch.sh [OUTDIR]        (default: build/checkpatch)
#   CHECKPATCH_DEBIAN_MIRROR   override the mirror (default deb.debian.org)
#   CHECKPATCH_REFRESH=1       download the source package again
#
# checkpatch.pl and the data files it reads (spelling.txt,
# const_structs.checkpatch) come from Debian's linux-source-7.3 package
# (trixie-backports), the tree scripts/uml-kernel.sh builds: its .deb in
# build/uml/debs (or OUTDIR/../uml/debs) is reused when it is there; otherwise it is downloaded into
# OUTDIR with a private, temporary apt configuration (the system's apt
# sources are never read nor written) and only those files are taken out of
# the tarball inside it (the tree is not unpacked).  Nothing of it is
# committed to this repository.
#
# Every ERROR, WARNING and CHECK counts (CHECKs, from --strict, like the
# rest).  A finding passes only when scripts/checkpatch-allow.txt has a line
# "FILE TYPE why" or "FILE TYPE=TEXT why" for its file and checkpatch type
# (--show-types; with =TEXT the message must contain TEXT); an entry that
# matches no finding fails too, so the list cannot outlive what it excuses.
# checkpatch.pl runs without a ~/.checkpatch.conf or CHECKPATCH_CONFIG_DIR
# (HOME is an empty directory), so the result is the same for everyone.
#
# Output: one line per finding, a count line ("checkpatch: N files: E
# errors, W warnings, C checks; A allowed by ..., U not, S stale entries"),
# then "checkpatch: OK" (exit 0) or "checkpatch: FAIL" (exit 1); every
# kernel-doc warning fails too.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/checkpatch}
mkdir -p "$out"
out=$(cd "$out" && pwd)
allow=$root/scripts/checkpatch-allow.txt
pkg=linux-source-7.3
mirror=${CHECKPATCH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
repo="$mirror trixie-backports main"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# The files checkpatch.pl opens beside itself (it reads them from the
# directory it lives in, scripts/).
need="scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch"
# kernel-doc (scripts/kernel-doc links to it) and the Python library it loads
kdoc="tools/docs/kernel-doc tools/lib/python"

log() { echo "checkpatch: $*"; }
die() { echo "checkpatch: error: $*" >&2; exit 1; }

command -v perl >/dev/null || die "perl is missing"

# --- the source package ------------------------------------------------------
# OUTDIR's sibling uml/debs is where scripts/uml-kernel.sh keeps the .deb
# when both sit in the same build directory.
# (scripts/qemu-guest.sh keeps the same package in qemu/debs/kernel)
deb=$(ls -1 "$root/build/uml/debs/${pkg}_"*.deb "$(dirname "$out")/uml/debs/${pkg}_"*.deb \
	"$root/build/qemu/debs/kernel/${pkg}_"*.deb "$(dirname "$out")/qemu/debs/kernel/${pkg}_"*.deb \
	"$out/${pkg}_"*.deb 2>/dev/null |
	sort -V | tail -n1 || true)
if [ -z "$deb" ] || [ "${CHECKPATCH_REFRESH:-0}" = 1 ]; then
	apt_tmp=$(mktemp -d "$out/apt.XXXXXX")
	trap 'rm -rf "$apt_tmp"' EXIT
	mkdir -p "$apt_tmp/lists/partial" "$apt_tmp/cache/archives/partial" \
		"$apt_tmp/sources.list.d" "$apt_tmp/dl"
	echo "deb [signed-by=$keyring] $repo" >"$apt_tmp/sources.list"
	aopt=(-o "Dir::Etc::sourcelist=$apt_tmp/sources.list"
	      -o "Dir::Etc::sourceparts=$apt_tmp/sources.list.d"
	      -o "Dir::State::Lists=$apt_tmp/lists"
	      -o "Dir::Cache=$apt_tmp/cache"
	      -o "Acquire::Languages=none"
	      -o "APT::Sandbox::User=root"
	      -o "Debug::NoLocking=1")
	log "fetching $pkg from: $repo (temporary apt sources in $apt_tmp)"
	timeout 600 apt-get "${aopt[@]}" -qq update || die "apt-get update of $repo failed"
	(cd "$apt_tmp/dl" && timeout 1200 apt-get "${aopt[@]}" -qq download "$pkg") \
		|| die "apt-get download $pkg failed"
	new=$(ls -1 "$apt_tmp/dl/"*.deb | head -n1)
	[ -n "$new" ] || die "no .deb downloaded"
	rm -f "$out/${pkg}_"*.deb
	mv "$new" "$out/"
	deb=$out/$(basename "$new")
	rm -rf "$apt_tmp"
	trap - EXIT
fi
debver=$(dpkg-deb -f "$deb" Version)

# --- checkpatch.pl and its data files, out of the tarball --------------------
tool=$out/linux-7.3
if [ ! -f "$tool/.rxscale-source" ] || [ "$(cat "$tool/.rxscale-source")" != "$pkg $debver kdoc" ]; then
	log "extracting $need $kdoc from $pkg $debver"
	rm -rf "$tool" "$out/extract"
	mkdir -p "$out/extract"
	tarball=$(dpkg-deb -c "$deb" | awk '{print $NF}' |
		grep -E "^\./usr/src/$pkg\.tar\.[a-z0-9]+$" | head -n1)
	[ -n "$tarball" ] || die "no usr/src/$pkg.tar.* in $deb"
	case "$tarball" in
	*.xz) z=-J ;; *.gz) z=-z ;; *.bz2) z=-j ;; *.zst) z=--zstd ;;
	*) die "unknown compression: $tarball" ;;
	esac
	members=""
	for f in $need $kdoc; do members="$members $pkg/$f"; done
	# Stream the tarball out of the .deb into tar: only the named
	# members are written.
	# shellcheck disable=SC2086
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "$tarball" |
		tar -x "$z" -f - -C "$out/extract" $members ||
		die "could not extract$members from $tarball"
	mv "$out/extract/$pkg" "$tool"
	rm -rf "$out/extract"
	echo "$pkg $debver kdoc" >"$tool/.rxscale-source"
fi
for f in $need $kdoc; do [ -e "$tool/$f" ] || die "missing $tool/$f"; done
log "checkpatch.pl from $pkg $debver ($deb)"

# --- run ---------------------------------------------------------------------
cd "$root"
files=$(find src/drv -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort)
[ -n "$files" ] || die "no files in src/drv"
raw=$out/checkpatch.log
: >"$raw"
# checkpatch.pl keeps a cache of CamelCase names in its working directory
# (and reads it back): it runs in a scratch directory, emptied each time,
# where src/ leads to the sources, so that it writes nothing into the tree
# and reads nothing left from an earlier run.  For that cache it lists the
# headers under ROOT/include even with --no-tree: --root=. and an empty
# include/ (no kernel headers, as --no-tree means).
run=$out/run
rm -rf "$run" "$out/home"
mkdir -p "$run/include" "$out/home"
ln -s "$root/src" "$run/src"
for f in $files; do
	# --terse --show-types: "FILE:LINE: SEVERITY:TYPE: message"
	(cd "$run" && env -u CHECKPATCH_CONFIG_DIR -u GIT_DIR HOME="$out/home" \
		perl "$tool/scripts/checkpatch.pl" --strict --no-tree --root=. --terse \
		--show-types --no-summary --color=never -f "$f") >>"$raw" 2>&1 || true
	rm -f "$run"/.checkpatch-camelcase.*
done

# --- kernel-doc -Wall: each comment's parameters, members, return ---------------
command -v python3 >/dev/null || die "python3 is missing (kernel-doc)"
kd=$out/kernel-doc.log
# shellcheck disable=SC2086
(cd "$root" && python3 "$tool/tools/docs/kernel-doc" -none -Wall $files) >"$kd" 2>&1 || true
nkd=$(grep -c . "$kd" || true)
sed 's/^/  FAIL (kernel-doc): /' "$kd"

# --- count and match against the allow list -----------------------------------
[ -f "$allow" ] || die "missing $allow"
awk -v allowfile="${allow#"$root"/}" -v nfiles="$(echo "$files" | wc -l)" -v nkd="$nkd" '
BEGIN {
	while ((getline line < allowfile) > 0) {
		if (line ~ /^[ \t]*(#|$)/)
			continue
		n = split(line, w, /[ \t]+/)
		if (n < 3) {
			printf "  FAIL: %s: \"%s\": want FILE TYPE[=TEXT] why\n", allowfile, line
			bad++
			continue
		}
		na++
		afile[na] = w[1]
		eq = index(w[2], "=")
		atype[na] = eq ? substr(w[2], 1, eq - 1) : w[2]
		atext[na] = eq ? substr(w[2], eq + 1) : ""
		aname[na] = w[1] " " w[2]
		for (i = 1; i < na; i++)
			if (aname[i] == aname[na]) {
				printf "  FAIL: %s: %s listed twice\n", allowfile, aname[na]
				bad++
			}
	}
}
# --terse --show-types: "FILE:LINE: SEVERITY:TYPE: message"
/^[^ :]+:[0-9]+: (ERROR|WARNING|CHECK):[A-Z0-9_]+:/ {
	split($0, p, ":")
	file = p[1]; sev = substr(p[3], 2); type = p[4]
	msg = substr($0, index($0, type ":") + length(type) + 1)
	sevs[sev]++
	hit = 0
	for (i = 1; i <= na && !hit; i++)
		if (afile[i] == file && atype[i] == type &&
		    (atext[i] == "" || index(msg, atext[i])))
			hit = i
	if (hit) {
		used[hit]++
		nallowed++
		print "  allowed: " $0
	} else {
		nbad++
		print "  FAIL: " $0
	}
	next
}
# anything else checkpatch printed (a perl error, a missing file) fails
/[^ \t]/ { print "  FAIL (checkpatch said): " $0; other++ }
END {
	for (i = 1; i <= na; i++)
		if (!used[i]) {
			printf "  FAIL: %s: \"%s\" matches nothing (remove it)\n", allowfile, aname[i]
			stale++
		}
	printf "checkpatch: %d files: %d errors, %d warnings, %d checks; %d allowed by %s, %d not, %d stale entries; kernel-doc: %d warnings\n",
		nfiles, sevs["ERROR"], sevs["WARNING"], sevs["CHECK"], nallowed, allowfile,
		nbad, stale, nkd
	if (nbad + stale + other + bad + nkd) {
		print "checkpatch: FAIL"
		exit 1
	}
	print "checkpatch: OK"
}' "$raw"
