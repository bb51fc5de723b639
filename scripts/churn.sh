#!/bin/bash
# Churn of the series in $BASE's tree (scripts/base.sh), per series of its series
# file and overall:
# (lines added summed over the patches - lines added by the series as a whole)
# / lines added by the series as a whole. A series that adds a line a later patch
# of it removes or changes counts that line twice. Also the largest patch of each
# series in changed lines outside tests (tools/testing, tools/perf/tests, tests).
# Usage: [BASE=7.3] churn.sh   (the commits of the series file, from base; not the harness)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
tree=$base_tree
end=$(base_series_end)
commits=($(git -C "$tree" rev-list --reverse "base..$end"))
series=$(base_series_list series | sed 's|/.*||' | uniq -c)
[ "$(echo "$series" | awk '{n+=$1} END{print n}')" = "${#commits[@]}" ] ||
	{ echo "churn: patches/series and base..HEAD differ in length (make export?)" >&2; exit 1; }

added() { git -C "$tree" diff --numstat "$@" | awk '{n+=$1} END{print n+0}'; }
i=0 sum_all=0
printf '%-22s %7s %7s %6s %9s\n' series patches whole churn "max prod"
while read -r n name; do
	first=${commits[$i]} last=${commits[$((i + n - 1))]}
	sum=0 max=0
	for c in "${commits[@]:$i:$n}"; do
		# lines added, and lines changed outside tests
		read -r a p < <("$top/scripts/patch-lines.sh" "$c")
		sum=$((sum + a))
		[ "$p" -le "$max" ] || max=$p
	done
	whole=$(added "$first^" "$last")
	awk -v s="$name" -v n="$n" -v a="$sum" -v w="$whole" -v m="$max" \
		'BEGIN{printf "%-22s %7d %7d %5.1f%% %9d\n", s, n, w, w ? 100*(a-w)/w : 0, m}'
	sum_all=$((sum_all + sum)) i=$((i + n))
done <<< "$series"
whole=$(added base "$end")
awk -v n="${#commits[@]}" -v a="$sum_all" -v w="$whole" \
	'BEGIN{printf "%-22s %7d %7d %5.1f%%\n", "all", n, w, 100*(a-w)/w}'
