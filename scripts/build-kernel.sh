#!/bin/bash
# Configure and build the kernel of one flavour from $BASE's tree (scripts/base.sh).
# Usage: [BASE=7.3] build-kernel.sh FLAVOUR   (default | debug | mainline | ...); output in
# build/kernel-FLAVOUR/ (6.12) or build/kernel-FLAVOUR-7.3/ (7.3)
# The .config is tinyconfig plus config/default.config (plus config/debug.config for
# "debug"); it is only rewritten when its content changes, so rebuilds stay incremental.
# KERNEL_TREE and KERNEL_OUT build another source tree into another directory
# (scripts/series-check.sh builds each commit of the series that way);
# KERNEL_TARGETS builds other make targets than bzImage (objects, directories).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
flavour=${1:-default}
# "mainline": the base as it is (tag base, none of the series) with the default config,
# for comparison (make bench-compare; scripts/base.sh: base_mainline)
if [ "$flavour" = mainline ] && [ -z "${KERNEL_TREE:-}" ]; then
	base_mainline "$0" mainline
fi
tree=${KERNEL_TREE:-$base_tree}
out=${KERNEL_OUT:-$top/build/kernel-$flavour$base_sfx}
frags=("$top/config/default.config")
case $flavour in default|mainline) ;; *) frags+=("$top/config/$flavour.config") ;; esac
for f in "${frags[@]}"; do [ -f "$f" ] || { echo "build-kernel: no $f" >&2; exit 1; }; done
export KBUILD_BUILD_USER=deferred-unwind KBUILD_BUILD_HOST=vm KBUILD_BUILD_TIMESTAMP='2000-01-01'
kmake=(make -s -C "$tree" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)")
mkdir -p "$out"

# tinyconfig = allnoconfig + the tiny fragments; ours are appended (later lines win).
all=$out/.allconfig
cat "$tree/kernel/configs/tiny.config" "$tree/arch/x86/configs/tiny.config" "${frags[@]}" > "$all"
"${kmake[@]}" KCONFIG_CONFIG=.config.new KCONFIG_ALLCONFIG="$all" allnoconfig >/dev/null
cmp -s "$out/.config.new" "$out/.config" || { echo "build-kernel: $flavour .config changed"; cp "$out/.config.new" "$out/.config"; }
rm -f "$out/.config.new" "$out/.config.new.old"

# Say which requested options did not stick (unknown on this tree, or unmet dependencies).
# (the last assignment of each option counts, as for the merge)
missing=$(grep -h '^CONFIG_[A-Z0-9_]*=' "${frags[@]}" | awk -F= '{ v[$1] = $2 } END { for (k in v) print k "=" v[k] }' |
	grep '=[ym]$' | while IFS='=' read -r k v; do
	grep -qx "$k=$v" "$out/.config" || echo "$k"; done | tr '\n' ' ')
[ -z "$missing" ] || echo "build-kernel: not set in $flavour (unknown or unmet dependency): $missing"

targets=${KERNEL_TARGETS:-bzImage}
echo "build-kernel: building $flavour kernel ($targets) in $out"
# shellcheck disable=SC2086 # a list of targets
"${kmake[@]}" $targets
[ -n "${KERNEL_TARGETS:-}" ] || echo "build-kernel: $out/arch/x86/boot/bzImage"
