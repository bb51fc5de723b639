#!/bin/bash
# Put benchmark runs of several kernels side by side: their raw numbers
# (DIR/raw.txt of scripts/bench.sh) go to OUTDIR/raw.txt with each mode named
# KERNEL/MODE, and scripts/bench-report.sh makes one report of them, with the targets of
# bench/targets-compare (those of the series against mainline's own deferred path).
# Usage: bench-compare.sh OUTDIR KERNEL=DIR...
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench-compare.sh OUTDIR KERNEL=DIR...}
shift
[ $# -gt 0 ] || { echo "usage: bench-compare.sh OUTDIR KERNEL=DIR..." >&2; exit 2; }
mkdir -p "$out"
: > "$out/raw.txt"
kernels=() event=
for kd in "$@"; do
	k=${kd%%=*} dir=${kd#*=}
	[ -s "$dir/raw.txt" ] || { echo "bench-compare: no $dir/raw.txt" >&2; exit 1; }
	# "W M ..." and "#note W M ...": M becomes KERNEL/M
	awk -v k="$k" '{ $($1 == "#note" ? 3 : 2) = k "/" $($1 == "#note" ? 3 : 2); print }' \
		"$dir/raw.txt" >> "$out/raw.txt"
	[ -r "$dir/info.txt" ] || { echo "bench-compare: no $dir/info.txt" >&2; exit 1; }
	kernels+=("$k=$(sed -n 's/^kernel //p' "$dir/info.txt" | cut -d' ' -f1)")
	[ -n "$event" ] || event=$(sed -n 's/^event //p' "$dir/info.txt")
done
{
	echo "kernel $(IFS=,; echo "${kernels[*]}")"
	echo "event $event"
} > "$out/info.txt"
BENCH_TARGETS=$top/bench/targets-compare "$top/scripts/bench-report.sh" "$out"
