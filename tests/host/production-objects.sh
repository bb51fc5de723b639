# A production kernel carries nothing of the test interface. The kernel objects of the
# unwinder and its callers are built from the postable series alone (6.12's series file,
# without harness.series: the commit that ends the series, checked out in a worktree,
# build/linux-series) with config/production.config, and their symbols (defined and
# referenced) listed with nm: no statistics counters (global atomics the registry would
# write at every exec and munmap, per-CPU walk counters), no test hooks or static key on
# the exit to user space, no test functions. The same names are looked for in the test
# kernel (build/kernel-default: series and harness), so that a rename cannot make this
# pass by finding nothing anywhere.
# timeout: 1500
. "$TOP/tests/lib.sh"
out=$TOP/build/kernel-production
test_kernel=$TOP/build/kernel-default
# the objects: the unwinder, the exit to user space, perf, exec and munmap
objs="kernel/unwind/deferred.o kernel/unwind/user.o kernel/unwind/sframe.o kernel/entry/common.o
	kernel/events/core.o fs/exec.o mm/mmap.o mm/vma.o"
# what only tests use: statistics, test points and their static key, test functions
pattern='sframe_stats|unwind_stats|unwind_deferred_test|sframe_test_|unwind_deferred_nr_|sframe_nr_entries'

[ -f "$test_kernel/kernel/unwind/sframe.o" ] || skip "no test kernel built in $test_kernel"
tree=$TOP/build/linux wt=$TOP/build/linux-series
end=$(base_sh 6.12 base_series_end) || skip "build/linux has fewer commits than patches/series (make tree)"
if ! git -C "$wt" checkout -q -f --detach "$end" 2> /dev/null; then
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" "$end" || fail "cannot check out $end in $wt"
fi
echo "the series alone: $(git -C "$wt" log -1 --format='%h %s')"
# built as if it were build/linux (mounted over it in a mount namespace of its own), so
# that the compiler cache serves it (the sources' path is part of what ccache hashes)
export BASE=6.12 KERNEL_OUT="$out" KERNEL_TARGETS="$(echo $objs)"
if unshare -m true 2>/dev/null; then
	unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$wt" "$tree" \
		"$TOP/scripts/build-kernel.sh" production
else
	KERNEL_TREE=$wt "$TOP/scripts/build-kernel.sh" production
fi || fail "the production objects did not build"
grep -qx 'CONFIG_UNWIND_DEFERRED_TEST=y' "$out/.config" && fail "production config has the test interface"
grep -qx 'CONFIG_UNWIND_USER_SFRAME=y' "$out/.config" || fail "production config has no SFrame"

symbols() { # DIR: "OBJECT SYMBOL" of every symbol matching $pattern in $objs under DIR
	for o in $objs; do
		nm "$1/$o" | awk -v o="$o" -v p="$pattern" '$NF ~ p { print o, $NF }'
	done
}
found=$(symbols "$out")
echo "production ($out):"
echo "${found:-  none}"
control=$(symbols "$test_kernel")
echo "test kernel ($test_kernel):"
echo "$control"
[ -z "$found" ] || fail "test-only symbols in production objects: $(echo "$found" | tr '\n' ' ')"
# the test kernel has each kind: the counters, the exit path's static key, test functions
for want in 'kernel/unwind/sframe.o sframe_stats' 'kernel/unwind/deferred.o unwind_stats' \
	'kernel/entry/common.o unwind_deferred_test_key' 'kernel/unwind/sframe.o sframe_test_ctl'; do
	echo "$control" | grep -qx "$want" || fail "control: '$want' not in the test kernel's objects"
done
echo "PASS: no test symbol in $(echo $objs | wc -w) production objects of the series alone ($(echo "$control" | wc -l) in the test kernel's)"
