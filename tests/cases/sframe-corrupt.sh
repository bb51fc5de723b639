# SFrame: sections corrupted on disk (bad magic, version, FDE offsets, FDE starts, FRE
# area) are survived: the program works, traces start at the leaf, no kernel splat
. "$TOP/tests/lib.sh"
splats() {
	dmesg 2>/dev/null | grep -cE 'BUG:|WARNING:|Oops|general protection|UBSAN|KASAN|refcount_t:'
}
before=$(splats)
for dir in "$BIN"/sframe/bad-*/; do
	variant=$(basename "$dir")
	echo "== $variant"
	"$dir/sfchain" survive 3 || fail "$variant: sfchain survive failed (rc $?)"
done
after=$(splats)
[ "$after" = "$before" ] || { dmesg | tail -n 60; fail "kernel splat: $before -> $after lines"; }
echo "all variants survived"
