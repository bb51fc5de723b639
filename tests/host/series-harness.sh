# The test interface is the harness's, not the series': in each base's tree (build/linux,
# build/linux-7.3 where prepared), the commit that ends the postable series (the series
# file; harness.series is applied after it) has no test-interface option, file, symbol,
# hook or counter anywhere in the kernel's sources, and the harness's commits change
# nothing but the test interface's files. The tree's HEAD (series and harness, what
# the guest tests run) has each of those names, so that a rename cannot make this pass.
# The series file lists no harness patch. (tests/host/production-objects.sh checks the
# objects built from the series alone.)
# timeout: 120
. "$TOP/tests/lib.sh"
names='UNWIND_DEFERRED_TEST|unwind_deferred_test|unwind_stat_inc|unwind_deferred_nr_|sframe_stat_add|sframe_test_ctl|sframe_test_show|sframe_nr_entries'
# the files the harness may change
allowed='kernel/unwind/test.c kernel/unwind/deferred.c kernel/unwind/sframe.c kernel/unwind/Makefile
	include/linux/unwind_deferred.h include/linux/sframe.h lib/Kconfig.debug'
checked=
for b in 6.12 7.3; do
	case $b in 6.12) t=$TOP/build/linux p=$TOP/patches ;; *) t=$TOP/build/linux-7.3 p=$TOP/patches-7.3 ;; esac
	[ -d "$t/.git" ] || continue
	name=${t#"$TOP"/}
	base_sh $b base_series_list series | grep '^harness/' && fail "$b: the series file lists harness patches"
	n=$(base_sh $b base_series_list series | wc -l)
	h=$(base_sh $b base_series_list harness.series | wc -l)
	[ "$h" -gt 0 ] || fail "$b: no harness.series"
	[ "$(git -C "$t" rev-list --count base..HEAD)" -eq $((n + h)) ] ||
		skip "$name: not the $n + $h patches of the series and the harness (make tree)"
	end=$(base_sh $b base_series_end)
	found=$(git -C "$t" grep -n -E "$names" "$end" -- . ':!tools' ':!Documentation' || true)
	[ -z "$found" ] || fail "$name: the series alone ($end) has test-interface names: $found"
	git -C "$t" cat-file -e "$end:kernel/unwind/test.c" 2>/dev/null &&
		fail "$name: the series alone has kernel/unwind/test.c"
	for want in UNWIND_DEFERRED_TEST unwind_deferred_test unwind_stat_inc sframe_stat_add \
		sframe_test_ctl; do
		git -C "$t" grep -q -E "$want" HEAD -- kernel include lib ||
			fail "control: $want not in $name's HEAD (series and harness)"
	done
	for f in $(git -C "$t" diff --name-only "$end" HEAD); do
		echo " $allowed " | tr '\t\n' '  ' | grep -q " $f " || fail "$name: the harness changes $f"
	done
	echo "$name: the series' $n patches end at $(git -C "$t" log -1 --format=%h "$end"): no test" \
		"interface; the harness's $h change only its files"
	checked="$checked $b"
done
[ -n "$checked" ] || skip "no kernel tree prepared (make tree)"
echo "PASS: the test interface is only in the harness, on$checked"
