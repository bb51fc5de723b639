#!/bin/bash
# Turn the raw numbers of a benchmark run (OUTDIR/raw.txt, written by bench/run-guest.sh)
# into OUTDIR/results.csv, OUTDIR/results.md (bench/report.awk, with the targets of
# $BENCH_TARGETS, default bench/targets) and OUTDIR/chart.png (gnuplot), and print the tables and the targets
# (met / not met). docs/bench.md explains the figures.
# With BENCH_DOC set (scripts/bench.sh sets it for a whole `make bench` run), the report
# also goes to that file, e.g. docs/results/bench-6.12.md: the header of
# scripts/results-header.sh (title BENCH_DOC_TITLE, default "Benchmarks"; command
# BENCH_DOC_CMD, default "make bench"; BASE from the environment), then OUTDIR/results.md.
# Usage: [BENCH_DOC=FILE] bench-report.sh OUTDIR
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench-report.sh OUTDIR}
[ -s "$out/raw.txt" ] || { echo "bench-report: no $out/raw.txt" >&2; exit 1; }
event=$(sed -n 's/^event //p' "$out/info.txt" 2>/dev/null)
kernel=$(sed -n 's/^kernel //p' "$out/info.txt" 2>/dev/null | cut -d' ' -f1)
awk -v out="$out" -v kernel="$kernel" -v event="$event" -f "$top/bench/report.awk" \
	"${BENCH_TARGETS:-$top/bench/targets}" "$out/raw.txt"

# The chart: slowdown, bytes per sample (log) and complete stacks per workload and mode
# (modes without any number, e.g. sframe on a kernel without it, are left out)
dat=$out/chart.dat
ncol=$(head -n 1 "$dat" | wc -w)
gnuplot 2> "$out/gnuplot.log" <<GNUPLOT || { cat "$out/gnuplot.log" >&2; exit 1; }
set terminal pngcairo size 1000,1100 font "sans,10"
set output "$out/chart.png"
set datafile missing "n/a"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top
set grid ytics
set multiplot layout 3,1 title "deferred vs immediate vs DWARF unwinding ($event, icount guest time)"
set title "slowdown vs no sampling (%)"
set yrange [*<0:*]
plot for [i=2:$ncol] "$dat" index 0 using i:xtic(1) title columnheader(i)
set title "perf.data bytes per sample (log)"
set yrange [*:*]
set logscale y
plot for [i=2:$ncol] "$dat" index 1 using i:xtic(1) title columnheader(i)
unset logscale y
set title "samples with a complete user stack (%)"
set yrange [0:105]
plot for [i=2:$ncol] "$dat" index 2 using i:xtic(1) title columnheader(i)
unset multiplot
GNUPLOT

cat "$out/results.md"
echo
echo "bench: $out/results.md, $out/results.csv, $out/chart.png"
if [ -n "${BENCH_DOC:-}" ]; then
	mkdir -p "$(dirname "$BENCH_DOC")"
	{
		"$top/scripts/results-header.sh" "${BENCH_DOC_TITLE:-Benchmarks}" "${BENCH_DOC_CMD:-make bench}"
		cat "$out/results.md"
	} > "$BENCH_DOC.tmp"
	mv "$BENCH_DOC.tmp" "$BENCH_DOC"
	echo "bench: ${BENCH_DOC#"$top"/}"
fi
