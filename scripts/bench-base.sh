#!/usr/bin/env bash
# Build rxscale at git ref REF (default: main) into OUT/, the way make
# release builds the working tree, for `make bench` to run it beside that
# build in the same call (the "previous figures").  Cached by commit; prints nothing and exits 0 when
# there is nothing to compare with (no such ref, or it is HEAD with a
# clean tree).  Usage: scripts/bench-base.sh REF OUT
set -eu
ref=${1:-main}
out=$2
cd "$(dirname "$0")/.."
if ! sha=$(git rev-parse --verify -q "$ref^{commit}"); then
	echo "bench-base: no git ref '$ref': no comparison" >&2
	rm -f "$out/rxscale"
	exit 0
fi
if [ "$sha" = "$(git rev-parse HEAD)" ] && git diff --quiet HEAD -- src; then
	echo "bench-base: '$ref' is this tree: no comparison" >&2
	rm -f "$out/rxscale"
	exit 0
fi
# the stamp names the recipe too: a changed build-release.sh rebuilds
stamp="release $(sha1sum <scripts/build-release.sh | cut -c1-12) $sha"
if [ -x "$out/rxscale" ] && [ "$(cat "$out/commit" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
echo "bench-base: building rxscale at $ref (${sha:0:12}) in $out"
rm -rf "$out"
mkdir -p "$out/src"
git archive "$sha" | tar -x -C "$out/src"
# built as make release builds the working tree (this tree's recipe, so
# that a base from before the recipe is compared like for like)
scripts/build-release.sh "$out/src" "$out"
echo "$stamp" >"$out/commit"
