#!/bin/bash
# `make bench`: boot the kernel in QEMU with -icount (one vCPU, deterministic guest
# time), run bench/run-guest.sh there (every workload in every mode, raw numbers in
# build/bench/raw.txt), then write the report (scripts/bench-report.sh).
# Usage: [BASE=7.3] bench.sh [FLAVOUR]   (default: default; the kernel is
# build/kernel-FLAVOUR, on 7.3 build/kernel-FLAVOUR-7.3; the flavour "mainline" is the
# base as it is, run with its own perf, build/perf-mainline-7.3)
# Settings: BENCH_WORKLOADS, BENCH_MODES (subsets, space separated), BENCH_REPEAT (rounds
# of fault's runs, bench/run-guest.sh), VM_TIMEOUT, BENCH_OUT (the output directory,
# default build/bench for 6.12's default kernel, else build/bench-FLAVOUR[-7.3]),
# BENCH_DOC (the generated results file: by default docs/results/bench-BASE.md for a
# whole run of the default flavour, none for a subset, another flavour or BENCH_OUT;
# set it empty for none).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
flavour=${1:-default}
kdir=$top/build/kernel-$flavour$base_sfx
perf=$(base_perf_dir "$flavour")/perf
name=$flavour$base_sfx
out=${BENCH_OUT:-$top/build/bench$([ "$name" = default ] || echo "-$name")}
# docs/results/bench-BASE.md: only from a whole run of the default kernel (make bench)
if [ -z "${BENCH_DOC+set}" ] && [ "$flavour" = default ] && [ -z "${BENCH_OUT:-}" ] &&
	[ -z "${BENCH_WORKLOADS:-}${BENCH_MODES:-}" ]; then
	BENCH_DOC=$top/docs/results/bench-$BASE.md BENCH_DOC_CMD="make bench"
	[ "$BASE" = 6.12 ] || BENCH_DOC_CMD+=" BASE=$BASE"
	export BENCH_DOC BENCH_DOC_CMD
fi
# The SFrame modes need the kernel's SFrame unwinder: without it, only the others run
sframe=0
grep -qx 'CONFIG_UNWIND_USER_SFRAME=y' "$kdir/.config" 2>/dev/null && sframe=1
[ $sframe = 1 ] || : "${BENCH_MODES:=none fp defer dwarf}"
rm -rf "$out/logs" "$out"/{raw.txt,info.txt,output,results.md,results.csv,chart.png,chart.dat,gnuplot.log}
mkdir -p "$out"
echo "bench: running the workloads in the VM (progress: $out/output)"
start=$(date +%s)
rc=0
"$top/scripts/vm.sh" -i -k "$kdir/arch/x86/boot/bzImage" -o "$out" -t "${VM_TIMEOUT:-2400}" \
	-- env TOP="$top" SFRAME="$sframe" PERF="$perf" \
	${BENCH_WORKLOADS:+WORKLOADS="$BENCH_WORKLOADS"} ${BENCH_MODES:+MODES="$BENCH_MODES"} \
	${BENCH_REPEAT:+REPEAT="$BENCH_REPEAT"} \
	sh "$top/bench/run-guest.sh" > "$out/vm.log" 2>&1 || rc=$?
echo "bench: VM run took $(($(date +%s) - start)) s (host time)"
if [ $rc -ne 0 ]; then
	echo "bench: the guest run failed ($rc): $(tail -n 1 "$out/vm.log") (logs: $out/)" >&2
	exit 1
fi
scan=0
splats=$("$top/scripts/scan-log.sh" "$out/console.log") || scan=$?
case $scan in
0) ;;
1) echo "bench: kernel splats in $out/console.log:" >&2
   echo "$splats" | head -n 5 >&2 ;;
*) echo "bench: no readable console log in $out" >&2 ;;
esac
"$top/scripts/bench-report.sh" "$out"
