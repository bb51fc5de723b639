#!/bin/sh
# Guest side of the demo (see demo.sh). Uses deferred callchains when perf and the
# kernel have them, immediate frame-pointer callchains otherwise.
# PERF_DIR: the base's perf build (scripts/demo.sh), 6.12's by default
perf=${PERF_DIR:-$TOP/build/perf}/perf
prog=$TOP/build/tests/chain
mode=fp
if "$perf" record --call-graph fp,defer -e cpu-clock -o /tmp/probe.data true >/dev/null 2>&1 &&
	"$perf" evlist -v -i /tmp/probe.data 2>/dev/null | grep -q defer_callchain; then
	mode=fp,defer
fi
echo "=== perf record -e cpu-clock -F 1000 --call-graph $mode $prog 300"
"$perf" record -e cpu-clock -F 1000 --call-graph "$mode" -o /tmp/perf.data "$prog" 300
echo
echo "=== perf script: two samples taken in read(2), kernel frames then user frames"
"$perf" script -i /tmp/perf.data -F comm,tid,time,ip,sym,dso |
	awk -f "$TOP/tests/perf-samples.awk" | awk -F '\t' '
	shown < 2 && /\t[^ \t]+ ksys_read( |$)/ { gsub(/\t/, "\n\t"); print $0 "\n"; shown++ }'
if [ "$mode" = fp,defer ]; then
	echo "=== perf script --no-merge-callchains: a sample and its deferred user callchain"
	"$perf" script -i /tmp/perf.data -F comm,tid,time,ip,sym --no-merge-callchains |
		grep -m1 -B14 -A6 "DEFERRED CALLCHAIN"
	echo
fi
echo "=== perf report --stdio --no-children (top of the tree)"
"$perf" report -i /tmp/perf.data --stdio --no-children --percent-limit 5 2>/dev/null | head -60
echo
sh "$TOP/scripts/demo-flamegraph.sh"
sh "$TOP/scripts/demo-ftrace.sh" "$prog"
