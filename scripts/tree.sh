#!/bin/bash
# Prepare the working tree of $BASE (scripts/base.sh; 6.12: build/linux): a git
# repository whose first commit (tag "base") is the pristine Debian source, with the
# base's series (patches/series, patches-7.3/series) applied on top, then the test
# harness's patches (harness.series: the test interface the guest tests use).
# Usage: [BASE=7.3] tree.sh [--reset | --keep-work]   (--reset re-applies the series from
# scratch; --keep-work leaves a tree with commits or changes not in the series as it is,
# with a note, where tree.sh would refuse)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
tree=$base_tree
src=$base_tar
patches=$base_patches
ident=(-c user.name=deferred-unwind -c user.email=deferred-unwind@invalid)
# one preparation at a time (make sframe-unit and make check may both ask for the tree)
mkdir -p "$top/build"
exec 9> "$top/build/.tree$base_sfx.lock"
flock 9

patch_ids() { # stable patch ids of the series files, in order
	while read -r p; do git patch-id --stable < "$patches/$p" | cut -d' ' -f1; done \
		< <(base_series_list)
}
tree_ids() {
	git -C "$tree" log --reverse --format=%H base..HEAD |
		while read -r c; do git -C "$tree" show "$c" | git patch-id --stable | cut -d' ' -f1; done
}

if [ ! -d "$tree/.git" ]; then
	[ -f "$src" ] || { echo "tree: $src missing: run scripts/deps.sh" >&2; exit 1; }
	if [ "$BASE" = 6.12 ]; then
		version=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	else
		version=$(cat "${src%.tar.xz}.version")
	fi
	echo "tree: extracting $base_pkg $version into $tree"
	rm -rf "$tree" "$tree.tmp"; mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" -xf "$src" --strip-components=1
	git -C "$tree.tmp" init -q -b main
	git -C "$tree.tmp" "${ident[@]}" add -A -f  # Debian's .gitignore ignores "/*"
	GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
		git -C "$tree.tmp" "${ident[@]}" commit -q -m "base: Debian $base_pkg $version"
	git -C "$tree.tmp" tag base
	# commits made in the tree carry the project's identity
	git -C "$tree.tmp" config user.name deferred-unwind
	git -C "$tree.tmp" config user.email deferred-unwind@invalid
	mv "$tree.tmp" "$tree"
fi

if [ "${1:-}" != --reset ] && [ "$(tree_ids)" = "$(patch_ids)" ]; then
	echo "tree: $tree is up to date with ${patches#"$top"/}/series and harness.series ($(patch_ids | grep -c . || true) patches)"
	exit 0
fi

if [ "${1:-}" != --reset ]; then
	# Refuse to throw away commits that are not in patches/.
	extra=$(comm -23 <(tree_ids | sort) <(patch_ids | sort))
	if [ -n "$extra" ] || [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
		if [ "${1:-}" = --keep-work ]; then
			echo "tree: $tree has commits or changes not in ${patches#"$top"/}/ (make export): used as it is" >&2
			exit 0
		fi
		echo "tree: $tree has commits or changes not in ${patches#"$top"/}/: run 'make export' or 'make tree RESET=1'" >&2
		exit 1
	fi
fi

echo "tree: applying ${patches#"$top"/}/series and harness.series to $tree"
git -C "$tree" am --abort >/dev/null 2>&1 || true
git -C "$tree" reset -q --hard base
while read -r p; do
	git -C "$tree" "${ident[@]}" am -q -3 --committer-date-is-author-date "$patches/$p" || {
		echo "tree: $p does not apply; resolve in $tree or run 'git -C $tree am --abort'" >&2; exit 1; }
done < <(base_series_list)
echo "tree: $(git -C "$tree" rev-list --count base..HEAD) patches applied" \
	"($(base_series_list series | wc -l) of the series, $(base_series_list harness.series | wc -l) of the harness)"
