#!/bin/bash
# Build perf from build/linux/tools/perf into build/perf/perf, with Python (perf script's
# Python scripts, e.g. `perf script report flamegraph`; perf test's Python tests), without
# perl/gtk/slang/bpf. Python is Debian's (/usr/bin/python3): the guest sees the host's
# /usr but not /root or /usr/local, where other Pythons may be first in $PATH.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/perf
mkdir -p "$out"
echo "build-perf: building perf in $out"
make -s -C "$top/build/linux/tools/perf" O="$out" -j"$(nproc)" CC="ccache gcc" \
	PYTHON=/usr/bin/python3 PYTHON_CONFIG=/usr/bin/python3-config \
	NO_LIBPERL=1 NO_GTK2=1 NO_SLANG=1 NO_JEVENTS=1 NO_LIBBPF=1 \
	NO_LIBTRACEEVENT= WERROR=0 NO_SHELLCHECK=1 >"$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log"; echo "build-perf: failed, see $out/build.log" >&2; exit 1; }
echo "build-perf: $out/perf"
