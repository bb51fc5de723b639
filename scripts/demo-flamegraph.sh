#!/bin/sh
# Guest side of the demo's flame graphs: record the deep program (bench/deep.c, 150 frames
# of recursion: deeper than the 127 frames of an immediate callchain) with -g and with
# --call-graph fp,defer, and write perf's own flame graph report of each to
# $GUEST_OUT/flamegraph-MODE.html (MODE g or defer) and a summary line of each to
# $GUEST_OUT/flamegraph-MODE.txt: samples in the recursion, the share of them whose stack
# goes down to main, the deepest stack.
perf_dir=${PERF_DIR:-$TOP/build/perf}
prog=$TOP/build/bench/bin/deep
template=$TOP/build/npm/d3-flamegraph-base.html
# perf's flame graph report is `perf script -s flamegraph.py -- ARGS` (what `perf script
# report flamegraph` runs; 7.3's passes ARGS without the "--"), run with the perf in
# $PATH, from $PERF_EXEC_PATH (perf's source tree here: perf is not installed). perf
# shows merged deferred callchains whole by default (the -g ones are cut at 127 frames
# by the kernel, kernel.perf_event_max_stack).
export PATH="$perf_dir:$PATH" PERF_EXEC_PATH="${PERF_TREE:-$TOP/build/linux/tools/perf}"

for mode in g defer; do
	case $mode in
	g) cg=-g title="perf record -g" ;;
	defer) cg="--call-graph fp,defer" title="perf record --call-graph fp,defer" ;;
	esac
	mkdir -p "/tmp/fg-$mode" && cd "/tmp/fg-$mode" || exit 1
	echo "=== $title -e cpu-clock -F 1000 $prog 150 40000"
	# shellcheck disable=SC2086
	perf record -q -e cpu-clock -F 1000 $cg -o perf.data "$prog" 150 40000 >/dev/null || exit 1
	perf script -s "$PERF_EXEC_PATH/scripts/python/flamegraph.py" -- --template "$template" \
		-o "$GUEST_OUT/flamegraph-$mode.html" \
		2>&1 | grep -v '^dumping'
	perf script --comms deep -F ip,sym | awk -f "$TOP/tests/perf-samples.awk" |
		awk -F '\t' -v title="$title" '
		{
			m = r = 0
			for (i = 2; i <= NF; i++) {
				split($i, f, " ")
				if (f[2] == "main") m = 1
				if (f[2] == "descend") r = 1
			}
			if (NF - 1 > d) d = NF - 1
			if (r) { s++; if (m) whole++ }
		}
		END { printf "%s: %d samples in the recursion, %d%% of them down to main; deepest stack %d frames\n",
			title, s, s ? whole * 100 / s : 0, d }' | tee "$GUEST_OUT/flamegraph-$mode.txt"
	echo
done
