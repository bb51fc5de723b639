#!/bin/bash
# The demo: boot the default kernel and, in the guest, record the known call chain
# main -> a -> b -> c -> read(2) with perf, then show perf script and perf report.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/demo
rc=0
"$top/scripts/vm.sh" -o "$out" -t 600 -- env TOP="$top" sh "$top/scripts/demo-guest.sh" || rc=$?
cat "$out/output" 2>/dev/null
[ $rc -ne 0 ] || "$top/scripts/flamegraph-png.sh" "$out" || rc=$?
exit $rc
