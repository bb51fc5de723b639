#!/bin/bash
# `make bench-compare`: the benchmark (scripts/bench.sh) on three kernels, each with its
# own perf, on the same workloads: 7.3 as it is (mainline), 7.3 with patches-7.3/ and
# 6.12 with patches/, two VMs side by side (-icount: guest time does not depend on the
# host's load), then one report of the three (scripts/bench-compare.sh) in
# build/bench-compare/. Builds the 7.3 kernels and perfs first (6.12's are the Makefile's).
# The logs of each run: build/bench-NAME.log. The report also goes to
# docs/results/bench-compare.md (the three runs write no docs/results/bench-BASE.md).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BASE=7.3 "$top/scripts/build-kernel.sh" default
BASE=7.3 "$top/scripts/build-kernel.sh" mainline
BASE=7.3 "$top/scripts/build-perf.sh"
BASE=7.3 "$top/scripts/build-perf.sh" mainline

run() { # NAME BASE FLAVOUR
	echo "bench-kernels: $1 (log: build/bench-$1.log)"
	BASE=$2 BENCH_DOC='' "$top/scripts/bench.sh" "$3" > "$top/build/bench-$1.log" 2>&1 ||
		{ echo "bench-kernels: $1 failed: $(tail -n 1 "$top/build/bench-$1.log")" >&2; return 1; }
}
rc=0
run mainline-7.3 7.3 mainline & a=$!
run default-7.3 7.3 default & b=$!
wait $a || rc=1
run 6.12 6.12 default || rc=1
wait $b || rc=1
[ $rc = 0 ] || exit 1
BASE=7.3 BENCH_DOC=$top/docs/results/bench-compare.md BENCH_DOC_TITLE="Benchmarks across kernels" \
	BENCH_DOC_CMD="make bench-compare" "$top/scripts/bench-compare.sh" "$top/build/bench-compare" \
	mainline-7.3="$top/build/bench-mainline-7.3" 7.3="$top/build/bench-default-7.3" \
	6.12="$top/build/bench"
