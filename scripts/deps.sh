#!/bin/bash
# Install what building and testing needs (Debian 12), unless it is already there.
# Usage: deps.sh LINUX_SOURCE_VERSION   (the Debian version the series is based on)
set -euo pipefail
want=${1:?usage: deps.sh LINUX_SOURCE_VERSION}
pkgs=(qemu-system-x86 busybox-static ccache gcc-multilib make gcc bc bison flex cpio kmod
	xz-utils libelf-dev libssl-dev dwarves python3 libdw-dev libunwind-dev libcap-dev
	libnuma-dev libzstd-dev zlib1g-dev libtraceevent-dev binutils-dev libiberty-dev
	gnuplot-nox clang pkg-config binutils git trace-cmd)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
have=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
if [ ${#missing[@]} -eq 0 ] && [ "$have" = "$want" ]; then
	exit 0
fi
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
