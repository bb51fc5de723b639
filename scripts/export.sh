#!/bin/bash
# Write the commits base..HEAD of build/linux back to patches/ and rewrite patches/series.
# Deterministic: same commits, same bytes (no commit hashes, no git version signature).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	{ echo "export: $tree has uncommitted changes; commit them first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$tree" format-patch -q --zero-commit --no-signature --full-index -N -o "$tmp" base..HEAD
rm -f "$top"/patches/*.patch
{
	echo "# deferred-unwind series against Debian linux-source-6.12 (applied in this order)"
	for p in "$tmp"/*.patch; do
		[ -f "$p" ] || continue
		cp "$p" "$top/patches/"
		basename "$p"
	done
} > "$top/patches/series"
echo "export: $(grep -vc '^#' "$top/patches/series" || true) patches in patches/"
