#!/bin/bash
# Build perf from build/linux/tools/perf into build/perf/perf (no python/perl/gtk/slang/bpf).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/perf
mkdir -p "$out"
echo "build-perf: building perf in $out"
make -s -C "$top/build/linux/tools/perf" O="$out" -j"$(nproc)" CC="ccache gcc" \
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_GTK2=1 NO_SLANG=1 NO_JEVENTS=1 NO_LIBBPF=1 \
	NO_LIBTRACEEVENT= WERROR=0 NO_SHELLCHECK=1 >"$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log"; echo "build-perf: failed, see $out/build.log" >&2; exit 1; }
echo "build-perf: $out/perf"
