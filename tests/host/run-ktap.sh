# tests/run.sh itself: a test that passes, one that skips (exit 4), one that fails, one
# that times out, and a selection by TESTS; the exact
# KTAP lines, the closing counts, the exit status, and the kernel's KTAP parser
# (tests/ktap-check.py) reading the output without an error.
. "$TOP/tests/lib.sh"
mkdir cases out
printf 'echo ok\n' > cases/a-pass.sh
printf 'echo "SKIP: no # widget here"; exit 4\n' > cases/b-skip.sh
printf 'echo "FAIL: frame 3 is wrong"; exit 1\n' > cases/c-fail.sh
printf '# timeout: 1\nsleep 10\n' > cases/d-slow.sh
printf 'exit 0\n' > cases/e-listed.sh
# BASE=none: no tests/skip-BASE applies; TESTS (the outer run's selection) is not ours
run() { # OUTPUT [ENV...]
	o=$1
	shift
	env TOP="$TOP" GUEST_OUT="$PWD/out" CASES="$PWD/cases" BASE=none TESTS= "$@" \
		sh "$TOP/tests/run.sh" > "$o" 2>&1
}
run all.txt
rc=$?
[ $rc -eq 1 ] || fail "exit status $rc with a failed test, not 1"
cat all.txt
log=$PWD/out/tests
want="KTAP version 1
1..5
ok 1 a-pass
ok 2 b-skip # SKIP no   widget here
# c-fail: FAIL: frame 3 is wrong (log: $log/c-fail.log)
not ok 3 c-fail
# d-slow: timed out after 1s (log: $log/d-slow.log)
not ok 4 d-slow
ok 5 e-listed
# Totals: pass:2 fail:2 xfail:0 xpass:0 skip:1 error:0
2 passed, 2 failed, 1 skipped"
echo "$want" > all.want
diff all.want all.txt > all.diff || fail "the output is not the KTAP expected: $(tr '\n' ' ' < all.diff)"
# the KTAP parsers of the kernel trees there are (6.12's, 7.3's: their interfaces differ)
kunits=
for kunit in "$TOP"/build/linux/tools/testing/kunit "$TOP"/build/linux-7.3/tools/testing/kunit; do
	[ -d "$kunit" ] && kunits="$kunits $kunit"
done
[ -n "$kunits" ] || skip "no kernel tree with tools/testing/kunit (make tree)"
run some.txt TESTS='^(a-pass|e-listed)$'
rc=$?
[ $rc -eq 0 ] || fail "exit status $rc with no failed test"
printf 'KTAP version 1\n1..2\nok 1 a-pass\nok 2 e-listed\n' > some.want
head -n 4 some.txt | cmp -s - some.want || fail "TESTS: $(head -n 4 some.txt | tr '\n' ' ')"
for kunit in $kunits; do
	python3 "$TOP/tests/ktap-check.py" "$kunit" all.txt ||
		fail "the KTAP parser of $kunit refuses the output"
	python3 "$TOP/tests/ktap-check.py" "$kunit" some.txt ||
		fail "the KTAP parser of $kunit refuses the output of a selection"
done
echo "PASS: run.sh's KTAP, counts and exit status"
