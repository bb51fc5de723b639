# SFrame: discovery runs once per object and mapping: a stack through 300 dlopened
# libraries without SFrame and an anonymous executable mapping, unwound three times (then
# the same with libraries that have SFrame: 256 fill the registry, the others are
# remembered as misses); one unwind per request
. "$TOP/tests/lib.sh"
for lib in libsfhop.so libsfhop-sf.so; do
	dir=$(mktemp -d /tmp/sfmany.XXXXXX)
	echo "== $lib"
	"$BIN/sframe/sfmany" "$BIN/sframe/$lib" "$dir" || fail "sfmany with $lib"
	rm -rf "$dir"
done
echo "discovery ran once per object, with and without a full registry"
