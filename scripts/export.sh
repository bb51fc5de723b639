#!/bin/bash
# Write the commits base..HEAD of $BASE's tree (scripts/base.sh; 6.12: build/linux) back
# to its series directory (patches/, patches-7.3/) and rewrite its series file.
# The patches form series, one directory each (patches/NN-name/), postable on their own:
# each directory's 0000-cover-letter.patch says how many commits are its ("[PATCH 0/N]")
# and holds its subject and text, which are kept; the shortlog and diffstat under them
# are written anew. Series take the commits in the order of their directories' names.
# Directories named NN-name are the postable series, listed in the series file; the
# others (harness/: the test interface the guest tests use) come last and are listed in
# harness.series, applied on top by scripts/tree.sh, never posted.
# To add a patch to a series, raise N in its cover letter before exporting.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
tree=$base_tree
patches=$base_patches
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	{ echo "export: $tree has uncommitted changes; commit them first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fp=(-c user.name=deferred-unwind -c user.email=deferred-unwind@invalid format-patch -q --zero-commit --no-signature --full-index)

covers=("$patches"/*/0000-cover-letter.patch)
[ -e "${covers[0]}" ] || { echo "export: no ${patches#"$top"/}/*/0000-cover-letter.patch" >&2; exit 1; }
commits=($(git -C "$tree" rev-list --reverse base..HEAD))
counts=() total=0
for c in "${covers[@]}"; do
	n=$(sed -n 's/^Subject: \[\(RFC \)\?PATCH 0\+\/\([0-9]*\)\].*/\2/p' "$c")
	[ -n "$n" ] || { echo "export: $c: no [PATCH 0/N] subject" >&2; exit 1; }
	counts+=("$n") total=$((total + n))
done
[ "$total" = "${#commits[@]}" ] ||
	{ echo "export: cover letters count $total patches, base..HEAD has ${#commits[@]}" >&2; exit 1; }

i=0
{
	echo "# deferred-unwind series against Debian $base_pkg (applied in this order;"
	echo "# each directory is a series with its cover letter, 0000-cover-letter.patch)"
} > "$tmp/series"
{
	echo "# deferred-unwind test harness against Debian $base_pkg: applied after the series"
	echo "# (scripts/tree.sh) for the kernels the guest tests run on; never posted"
} > "$tmp/harness.series"
for s in "${!covers[@]}"; do
	c=${covers[$s]} n=${counts[$s]}
	dir=$(dirname "$c") name=$(basename "$(dirname "$c")")
	# format-patch writes a cover letter's subject on one line
	subj=$(sed -n 's/^Subject: //p' "$c")
	prefix=PATCH
	case $subj in "[RFC PATCH"*) prefix="RFC PATCH" ;; esac
	text=${subj#*] }
	# the text between the headers and the shortlog
	awk 'f==0 && /^$/ {f=1; next} f==1 && /^deferred-unwind \([0-9]+\):$/ {exit}
		f==1 {print}' "$c" > "$tmp/blurb"
	first=${commits[$i]} last=${commits[$((i + n - 1))]}
	i=$((i + n))
	rm -rf "$tmp/out"
	git -C "$tree" "${fp[@]}" --cover-letter --subject-prefix="$prefix" -o "$tmp/out" \
		"$first^..$last"
	date=$(sed -n 's/^Date: //p' "$tmp/out/0001-"*.patch | head -1)
	awk -v text="$text" -v date="$date" -v blurb="$tmp/blurb" '
		/^Date: / && !d {print "Date: " date; d=1; next}
		/\*\*\* SUBJECT HERE \*\*\*/ {sub(/\*\*\* SUBJECT HERE \*\*\*/, text)}
		/^\*\*\* BLURB HERE \*\*\*$/ {
			while ((getline l < blurb) > 0) print l
			next
		}
		{print}' "$tmp/out/0000-cover-letter.patch" > "$tmp/cover"
	# the blurb ends with its blank line: drop the one the template adds
	awk 'NR>1 && prev=="" && $0=="" {next} {print; prev=$0}' "$tmp/cover" \
		> "$tmp/out/0000-cover-letter.patch"
	rm -f "$dir"/*.patch
	cp "$tmp/out/"*.patch "$dir/"
	list=$tmp/series
	case $name in [0-9]*) ;; *) list=$tmp/harness.series ;; esac
	for p in "$tmp/out/"*.patch; do
		b=$(basename "$p")
		[ "$b" = 0000-cover-letter.patch ] || echo "$name/$b"
	done >> "$list"
done
mv "$tmp/series" "$patches/series"
mv "$tmp/harness.series" "$patches/harness.series"
echo "export: $(grep -vc '^#' "$patches/series" || true) patches in the series," \
	"$(grep -vc '^#' "$patches/harness.series" || true) in the harness, in" \
	"${#covers[@]} series in ${patches#"$top"/}/"
