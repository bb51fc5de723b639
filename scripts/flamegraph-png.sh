#!/bin/bash
# The demo's picture: the flame graphs of -g and of --call-graph fp,defer that
# demo-flamegraph.sh left in DIR (flamegraph-g.html, flamegraph-defer.html and their
# summary lines), side by side, bottoms aligned, in DIR/flamegraphs.html, and that
# page rendered to DIR/flamegraphs.png by headless Chromium. Other MODEs: the
# flamegraph-MODE.{html,txt} of each, side by side in that order (make system-test).
# Usage: flamegraph-png.sh [DIR [MODE...]]   (default build/demo g defer)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/demo}
[ $# -gt 1 ] && shift && modes=("$@") || modes=(g defer)
for m in "${modes[@]}"; do
	for f in "$dir/flamegraph-$m.html" "$dir/flamegraph-$m.txt"; do
		[ -s "$f" ] || { echo "flamegraph-png: no $f" >&2; exit 1; }
	done
done

# The frames' heights: the template draws a graph of depth D (the root "all" is 0) at most
# (D + 3) * 16 pixels high (less when it drops frames narrower than 5 pixels),
# plus about 100 for its buttons and details line; D + 2 is how deep the square brackets
# of its data nest (outside the strings; the data is on one line).
height() {
	local n
	n=$(grep -m1 '^ *const stacks = ' "$dir/flamegraph-$1.html" | awk '
		{ gsub(/"([^"\\]|\\.)*"/, "")
		  for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "[") { if (++d > m) m = d } else if (c == "]") d--
		  } }
		END { print m }')
	echo $(((${n:-0} + 1) * 16 + 100))
}
head=64 width=$((800 * ${#modes[@]})) tallest=0 titles= frames=
for m in "${modes[@]}"; do
	h=$(height "$m")
	[ "$h" -le "$tallest" ] || tallest=$h
	titles+="<p class=c>$(cat "$dir/flamegraph-$m.txt")</p>"
	frames+="<iframe class=c src=\"flamegraph-$m.html\" style=\"height:${h}px\" scrolling=no></iframe>"
done
cat > "$dir/flamegraphs.html" <<EOF
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${modes[*]}</title>
<style>
body { margin: 0; font: 16px sans-serif; }
.row { display: flex; align-items: flex-end; }
.c { flex: 1; min-width: 0; }
p { height: ${head}px; margin: 0; padding: 8px 16px; box-sizing: border-box; font-weight: bold; }
iframe { border: 0; }
</style></head>
<body>
<div class=row>$titles</div>
<div class=row>$frames</div>
</body></html>
EOF

tall=$((head + tallest))
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# No network here: keep Chromium from trying to reach its services.
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$profile" --hide-scrollbars --window-size="$width,$tall" \
	--virtual-time-budget=30000 --screenshot="$dir/flamegraphs.png" \
	"file://$dir/flamegraphs.html" >"$dir/chromium.log" 2>&1 ||
	{ tail -5 "$dir/chromium.log"; echo "flamegraph-png: chromium failed" >&2; exit 1; }
[ -s "$dir/flamegraphs.png" ] || { echo "flamegraph-png: no $dir/flamegraphs.png" >&2; exit 1; }
echo "flame graphs:$(printf " $dir/flamegraph-%s.html" "${modes[@]}")"
echo "side by side: $dir/flamegraphs.html $dir/flamegraphs.png"
