#!/bin/bash
# The demo: boot the default kernel of $BASE (scripts/base.sh; 6.12 or 7.3) and, in the
# guest, record the known call chain main -> a -> b -> c -> read(2) with the base's
# perf, then show perf script and perf report, the flame graphs and ftrace's deferred
# stacks. Output in build/demo (7.3: build/demo-7.3).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
out=$top/build/demo$base_sfx
rc=0
"$top/scripts/vm.sh" -k "$top/build/kernel-default$base_sfx/arch/x86/boot/bzImage" -o "$out" \
	-t 600 -- env TOP="$top" PERF_DIR="$(base_perf_dir default)" \
	PERF_TREE="$base_tree/tools/perf" sh "$top/scripts/demo-guest.sh" || rc=$?
cat "$out/output" 2>/dev/null
[ $rc -ne 0 ] || "$top/scripts/flamegraph-png.sh" "$out" || rc=$?
exit $rc
