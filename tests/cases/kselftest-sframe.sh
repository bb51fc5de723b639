# The kernel selftest of PR_REGISTER_SFRAME and PR_UNREGISTER_SFRAME
# (tools/testing/selftests/sframe/sframe_prctl.c in the tree, built on the host by
# tests/prog/kselftest.mk): error codes of bad arguments and corrupt sections, one
# registration per code range, removed for exactly that range, dropped at munmap and
# exec, copied at fork. Every one of its cases must pass; a skip is a failure here.
. "$TOP/tests/lib.sh"
prog=$(dirname "$BIN")/kselftest/sframe/sframe_prctl
cases=13
[ -x "$prog" ] || fail "$prog not built (tests/prog/kselftest.mk; the selftest not in the tree?)"
before=$(splats)
"$prog" > tap.txt 2>&1
rc=$?
cat tap.txt
plan=$(grep '^1\.\.' tap.txt)
totals=$(grep '^# Totals:' tap.txt)
! grep -q '# SKIP' tap.txt || fail "skipped: $(grep '# SKIP' tap.txt | head -n 3 | tr '\n' ' ')"
[ "$plan" = "1..$cases" ] || fail "expected the plan 1..$cases, got '$plan'"
! grep -q '^not ok' tap.txt || fail "$(grep -c '^not ok' tap.txt) of $cases failed:" \
	"$(grep '^not ok' tap.txt | sed 's/^not ok [0-9]* //' | tr '\n' ' ')"
[ "$(grep -c '^ok [0-9]' tap.txt)" -eq "$cases" ] ||
	fail "expected $cases ok, got $(grep -c '^ok [0-9]' tap.txt)"
[ "$totals" = "# Totals: pass:$cases fail:0 xfail:0 xpass:0 skip:0 error:0" ] ||
	fail "expected $cases passed, got '$totals'"
[ "$rc" -eq 0 ] || fail "exit status $rc"
no_new_splats "$before"
echo "all $cases cases passed"
