#!/bin/bash
# Check that every patch of the series stands on its own: for each commit of
# the postable series of $BASE's tree (scripts/base.sh; or of the revision range given), in order, build the
# default kernel (and perf when the commit touches perf or the tools headers it uses)
# and run checkpatch.pl --strict on the commit.
# Usage: [BASE=7.3] series-check.sh [REVISION-RANGE]   (default: the postable series,
# base..the commit that ends it; the test harness's commits after it are not checked)
# The commits are checked out in a scratch worktree, build/series-check/linux (7.3:
# build/series-check-7.3/), and built incrementally into its kernel/ and perf/, so a run after the first one only
# rebuilds what the commits change. Logs: build/series-check/logs/. Builds run under
# nice -n 19. Prints one line per commit and ends with "N passed, N failed".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
tree=$base_tree
dir=$top/build/series-check$base_sfx
wt=$dir/linux
logs=$dir/logs
[ -d "$tree/.git" ] || { echo "series-check: no $tree (make tree)" >&2; exit 1; }
range=${1:-base..$(base_series_end)}

commits=$(git -C "$tree" rev-list --reverse "$range")
[ -n "$commits" ] || { echo "series-check: no commits in $range" >&2; exit 1; }
if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" base
fi
mkdir -p "$logs" "$dir/perf"

# Build in the worktree as if it were build/linux: with the worktree mounted over it in a
# mount namespace of its own (root), so that compiler cache entries of build/linux and
# other worktrees serve it (the sources' path is part of what ccache hashes).
if unshare -m true 2>/dev/null; then
	src=$tree
	in_tree() { unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$wt" "$tree" "$@"; }
else
	src=$wt
	in_tree() { KERNEL_TREE=$wt "$@"; }
fi

# The series each commit is in (the series file: DIR/patch), if the commits are the series'
series_of=()
if [ -z "${1:-}" ]; then
	mapfile -t series_of < <(base_series_list series | sed 's|/.*||')
fi

# A warning of the compiler in a file the commit changes fails the commit, like an error.
warnings() { # LOG FILES (the commit's)
	local f n=0
	for f in $(printf '%s\n' "$2" | grep '\.[ch]$'); do
		n=$((n + $(grep -c "^[^ ]*$f:[0-9]*:[0-9]*: warning:" "$1" || true)))
	done
	echo "$n"
}

passed=0 failed=0 i=0 start=$SECONDS
for c in $commits; do
	i=$((i + 1))
	short=$(git -C "$tree" rev-parse --short=12 "$c")
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	log=$logs/$(printf %04d $i)-$short.log
	ok=1 t0=$SECONDS
	files=$(git -C "$tree" show --format= --name-only "$c")
	git -C "$wt" checkout -q -f --detach "$c"

	if in_tree env KERNEL_OUT="$dir/kernel" nice -n 19 \
		"$top/scripts/build-kernel.sh" default >"$log" 2>&1; then
		w=$(warnings "$log" "$files")
		kernel="kernel ok"
		[ "$w" = 0 ] || { kernel="kernel $w warning(s)"; ok=0; }
	else
		kernel="kernel FAILED"; ok=0
	fi
	kernel+=" $((SECONDS - t0))s"

	perf=""
	if printf '%s\n' "$files" | grep -q '^tools/\(perf\|include\|lib\)/'; then
		t1=$SECONDS
		if in_tree nice -n 19 make -s -C "$src/tools/perf" O="$dir/perf" -j"$(nproc)" CC="ccache gcc" \
			NO_LIBPYTHON=1 NO_LIBPERL=1 NO_GTK2=1 NO_SLANG=1 NO_JEVENTS=1 NO_LIBBPF=1 \
			WERROR=0 NO_SHELLCHECK=1 "${base_perf[@]}" >>"$log" 2>&1; then
			perf=", perf ok"
		else
			perf=", perf FAILED"; ok=0
		fi
		perf+=" $((SECONDS - t1))s"
	fi

	# Patches of the tools only are held to perf's conventions, which checkpatch does not
	# know: C99 PRI* format macros, help strings split across lines, a shell test's
	# description on line 2 (before its SPDX tag), new files covered by tools/perf/ in
	# MAINTAINERS.
	# The tree has no upstream history: the commit a Fixes: tag names is not in it.
	ignore=(--ignore UNKNOWN_COMMIT_ID)
	printf '%s\n' "$files" | grep -qv '^tools/' ||
		ignore=(--ignore UNKNOWN_COMMIT_ID,CAMELCASE,SPLIT_STRING,SPDX_LICENSE_TAG,FILE_PATH_CHANGES)
	# Files added or deleted under a directory or a glob a MAINTAINERS section lists
	# (F: DIR/, as 7.3 lists kernel/unwind/; F: include/linux/sframe*.h) need no change
	# of MAINTAINERS: checkpatch asks anyway.
	added=$(cd "$wt" && git diff-tree --no-commit-id --name-only --diff-filter=AD -r "$c")
	if [ -n "$added" ] && printf '%s\n' "$added" | awk 'NR == FNR {
			if ($1 != "F:" || $2 !~ /^[a-z]/) next
			if ($2 ~ /\/$/) { dir[$2]; next }
			if ($2 ~ /\*/) { g = $2; gsub(/\./, "\\.", g); gsub(/\*/, "[^/]*", g); glob["^" g "$"] }
			next }
		{ ok = 0; for (d in dir) if (index($0, d) == 1) ok = 1
		  for (g in glob) if ($0 ~ g) ok = 1; if (!ok) exit 1 }' "$wt/MAINTAINERS" -; then
		ignore=(--ignore "${ignore[1]},FILE_PATH_CHANGES")
	fi
	cp=$(cd "$wt" && git format-patch -1 --stdout "$c" |
		scripts/checkpatch.pl --strict --no-summary --terse "${ignore[@]}" - 2>/dev/null ||
		true)
	if [ -n "$cp" ]; then
		printf '%s\n' "$cp" >>"$log"
		cp=", checkpatch $(printf '%s\n' "$cp" | wc -l) issue(s)"; ok=0
	else
		cp=", checkpatch clean"
	fi

	read -r _ n < <("$top/scripts/patch-lines.sh" "$c")
	if [ "$ok" = 1 ]; then passed=$((passed + 1)); r=PASS; else failed=$((failed + 1)); r=FAIL; fi
	printf '%s %04d %s %4d lines: %s%s%s  %s%s\n' "$r" "$i" "$short" "$n" "$kernel" "$perf" "$cp" \
		"${series_of[$((i - 1))]:+${series_of[$((i - 1))]}: }" "$subject"
done
echo "series-check: $((SECONDS - start))s for $i commits, logs in $logs"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
