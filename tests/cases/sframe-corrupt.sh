# SFrame: sections corrupted on disk (bad magic, version, FDE offsets, FDE starts, FRE
# area) are survived: the program works, traces start at the leaf, no kernel splat
. "$TOP/tests/lib.sh"
before=$(splats)
for dir in "$BIN"/sframe/bad-*/; do
	variant=$(basename "$dir")
	echo "== $variant"
	"$dir/sfchain" survive 3 || fail "$variant: sfchain survive failed (rc $?)"
done
no_new_splats "$before"
echo "all variants survived"
