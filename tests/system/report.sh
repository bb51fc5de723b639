#!/bin/bash
# make system-test's report, from what the booted system's first stage left in DIR:
# per service and mode (g: -g; defer: --call-graph fp,defer, nothing set up), the
# samples with a user stack and the share of them that reaches an outermost frame (tests/lib.sh's outermost_report), one line each:
#   MODE SERVICE samples=N complete=K P%
# (in DIR/report.txt too)
# and each service's flame graphs, the two modes side by side, in
# DIR/SERVICE/flamegraphs.png (perf's flame graph report of DIR/MODE.data, with the
# system's files in DIR/root and its kernel's symbols, DIR/kallsyms; headless Chromium), if the demo's
# flame graph template is there (make demo-deps).
# Usage: report.sh DIR
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1
. "$TOP/tests/lib.sh"
services="nginx redis-server"
for m in g defer; do
	outermost_report "$dir/$m.txt" $services | while read -r _ comm samples complete; do
		s=${samples#samples=} c=${complete#complete=}
		echo "$m ${comm#comm=} $samples $complete $((s ? c * 100 / s : 0))%"
	done
done > "$dir/report.txt"
cat "$dir/report.txt"

template=$TOP/build/npm/d3-flamegraph-base.html
[ -s "$template" ] && command -v chromium > /dev/null || exit 0
export PERF_EXEC_PATH=$TOP/build/linux/tools/perf
for svc in $services; do
	mkdir -p "$dir/$svc"
	for m in g defer; do
		"$TOP/build/perf/perf" script -i "$dir/$m.data" --comms "$svc" --symfs "$dir/root" \
			--kallsyms "$dir/kallsyms" \
			-s "$TOP/build/linux/tools/perf/scripts/python/flamegraph.py" -- \
			--template "$template" -o "$dir/$svc/flamegraph-$m.html" > /dev/null 2>&1 ||
			echo "report: no flame graph of $svc ($m)" >&2
		case $m in
		g) title="perf record -g" ;;
		defer) title="--call-graph fp,defer" ;;
		esac
		awk -v m="$m" -v s="$svc" -v t="$title" '$1 == m && $2 == s {
			print s ", " t ": " $5 " of " substr($3, 9) " samples reach an outermost frame" }' \
			"$dir/report.txt" > "$dir/$svc/flamegraph-$m.txt"
	done
	"$TOP/scripts/flamegraph-png.sh" "$dir/$svc" g defer > /dev/null || true
done
