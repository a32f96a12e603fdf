#!/usr/bin/env bash
# Build the fast rxscale: -O3 tuned for this machine's CPU, link-time
# optimisation and profile-guided optimisation trained on the main job.
# Usage: scripts/build-release.sh SRC OUT
#
# GCC first builds an instrumented rxscale (-fprofile-generate), which runs
# the training jobs below; their profiles then steer the real build
# (-fprofile-use): hot paths laid out together, cold code apart, branches
# and inlining as measured.  On e1-rss these together take ~26 % less
# CPU time than the debugoptimized build (docs/run.md "Speed"); -mtune=native
# alone takes ~17 % off on this AMD EPYC (Zen 3 tuning).  Only the tuning
# follows the CPU, not the instruction set: the binary runs on any x86-64
# and under valgrind, and GCC has no FMA to fuse a * b + c with, so every
# run prints the same bytes as the plain build (make bench compares them).
# The result is OUT/rxscale; OUT/build keeps the build tree and its
# profiles, so an unchanged SRC rebuilds nothing.  Training covers the PCIe
# path (RSS and not), a USB adapter and UDP, so no code is laid out as if
# it never ran.
set -eu
src=$(cd "$1" && pwd)
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)
b="$out/build"
# -Wno-missing-profile: a file no training job reaches has no profile, and
# the project builds with -Werror.  -fno-tree-slp-vectorize: at -O3 GCC
# stores neighbouring fields (a queue's head and count) as one vector, and
# the integer loads that follow wait for it (a store-forwarding stall,
# 40 % of the wire's dir_fn in a perf cpu-clock profile): 4 % less CPU time
# without.
opts=(--buildtype=release -Ddebug=true -Db_lto=true
	"-Dc_args=-Wno-missing-profile -mtune=native -fno-tree-slp-vectorize")
# a tree set up with other options (an older recipe) starts over
if [ "$(cat "$out/opts" 2>/dev/null)" != "${opts[*]}" ]; then
	rm -rf "$b" "$out/trained"
fi
if [ ! -f "$b/build.ninja" ]; then
	meson setup "$b" "$src" "${opts[@]}" -Db_pgo=generate >"$out/setup.log" 2>&1 ||
		{ cat "$out/setup.log" >&2; exit 1; }
	echo "${opts[*]}" >"$out/opts"
fi
stamp="$out/trained"
# Train again whenever a source file is newer than the last training.
if [ ! -f "$stamp" ] || [ -n "$(find "$src/src" "$src/presets" -newer "$stamp" -print -quit)" ]; then
	meson configure "$b" -Db_pgo=generate >/dev/null
	find "$b" -name '*.gcda' -delete
	ninja -C "$b" rxscale >"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
	echo "build-release: training the instrumented rxscale" >&2
	(
		cd "$b"
		./rxscale run "$src/scenarios/e1-rss.ini" --set run.duration=1
		./rxscale run "$src/scenarios/e1-norss.ini" --set run.duration=0.3
		./rxscale run "$src/scenarios/e3-mit-on-p4.ini" --set run.duration=0.3
		./rxscale run --set iperf3.udp=1 --set iperf3.bitrate=2.25G \
			--set iperf3.streams=4 --set run.duration=0.3
	) >"$out/train.log" 2>&1 || { cat "$out/train.log" >&2; exit 1; }
	meson configure "$b" -Db_pgo=use >/dev/null
	touch "$stamp"
fi
ninja -C "$b" rxscale >>"$out/build.log" 2>&1 || { cat "$out/build.log" >&2; exit 1; }
cp "$b/rxscale" "$out/rxscale"
