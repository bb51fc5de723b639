#!/bin/bash
# Build perf from $BASE's tree (scripts/base.sh) into build/perf/perf (7.3:
# build/perf-7.3/perf), with Python (perf script's
# Python scripts, e.g. `perf script report flamegraph`; perf test's Python tests), without
# perl/gtk/slang/bpf. Python is Debian's (/usr/bin/python3): the guest sees the host's
# /usr but not /root or /usr/local, where other Pythons may be first in $PATH.
# 7.3's perf is built with NO_RUST=1 (scripts/base.sh: base_perf).
# Usage: [BASE=7.3] build-perf.sh [mainline]   (mainline: the base's own perf, none of
# the series, into build/perf-mainline$base_sfx, for comparison)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
if [ "${1:-}" = mainline ] && [ -z "${KERNEL_TREE:-}" ]; then
	base_mainline "$0" mainline
fi
out=$(base_perf_dir "${1:-}")
mkdir -p "$out"
echo "build-perf: building perf in $out"
make -s -C "${KERNEL_TREE:-$base_tree}/tools/perf" O="$out" -j"$(nproc)" CC="ccache gcc" \
	PYTHON=/usr/bin/python3 PYTHON_CONFIG=/usr/bin/python3-config \
	NO_LIBPERL=1 NO_GTK2=1 NO_SLANG=1 NO_JEVENTS=1 NO_LIBBPF=1 \
	NO_LIBTRACEEVENT= WERROR=0 NO_SHELLCHECK=1 "${base_perf[@]}" >"$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log"; echo "build-perf: failed, see $out/build.log" >&2; exit 1; }
echo "build-perf: $out/perf"
