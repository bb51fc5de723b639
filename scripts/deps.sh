#!/bin/bash
# Install what building and testing needs (Debian 12), unless it is already there; with
# "demo", also what only the demo needs: headless Chromium and npm, and the flame graph
# template (from npm) in build/npm/. (The tests need neither: CI does not fetch them.)
# Usage: deps.sh LINUX_SOURCE_VERSION [demo]   (the Debian version the series is based on)
set -euo pipefail
want=${1:?usage: deps.sh LINUX_SOURCE_VERSION [demo]}
demo=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
# perf 6.12's flame graph report (tools/perf/scripts/python/flamegraph.py) is written for
# this release's self-contained template (d3 inlined; 5.x ships no template) and knows
# its md5sum
d3fg=d3-flame-graph@4.1.3 d3fg_md5=143e0d06ba69b8370b9848dcd6ae3f36
template=$top/build/npm/d3-flamegraph-base.html
pkgs=(qemu-system-x86 busybox-static ccache gcc-multilib make gcc bc bison flex cpio kmod
	xz-utils libelf-dev libssl-dev dwarves python3 libdw-dev libunwind-dev libcap-dev
	libnuma-dev libzstd-dev zlib1g-dev libtraceevent-dev binutils-dev libiberty-dev
	gnuplot-nox clang pkg-config binutils git python3-dev libpython3-dev
	python3-setuptools trace-cmd dpkg-dev debhelper lintian help2man groff-base mmdebstrap e2fsprogs)
[ "$demo" = demo ] && pkgs+=(chromium)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
# Debian's npm, unless npm is there already (a Node.js package of its own may carry it)
[ "$demo" != demo ] || command -v npm >/dev/null || missing+=(npm)
have=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
if [ ${#missing[@]} -gt 0 ] || [ "$have" != "$want" ]; then
	[ "$(id -u)" = 0 ] || { echo "deps: need root to install: ${missing[*]} linux-source-6.12=$want" >&2; exit 1; }
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	[ ${#missing[@]} -eq 0 ] || apt-get install -y -q "${missing[@]}" >/dev/null
	if [ "$have" != "$want" ]; then
		if ! apt-get install -y -q --allow-downgrades "linux-source-6.12=$want" >/dev/null 2>&1; then
			echo "deps: linux-source-6.12 $want is no longer in the registry; using the newest 6.12.y" >&2
			apt-get install -y -q linux-source-6.12 >/dev/null
		fi
	fi
	echo "deps: linux-source-6.12 $(dpkg-query -W -f='${Version}' linux-source-6.12)"
fi

if [ "$demo" = demo ] && [ ! -f "$template" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack -q "$d3fg" >/dev/null 2>&1 && tar -xzf ./*.tgz package/dist/templates) ||
		{ echo "deps: npm pack $d3fg failed" >&2; exit 1; }
	[ "$(md5sum < "$tmp/package/dist/templates/d3-flamegraph-base.html" | cut -d' ' -f1)" = "$d3fg_md5" ] ||
		{ echo "deps: $d3fg: the template's md5sum is not the one perf expects" >&2; exit 1; }
	mkdir -p "$(dirname "$template")"
	cp "$tmp/package/dist/templates/d3-flamegraph-base.html" "$template"
	echo "deps: $template ($d3fg)"
fi
