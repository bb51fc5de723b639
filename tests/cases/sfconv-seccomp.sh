# A sandboxed program works as well with the LD_AUDIT helper as without (issue 19):
# sfseccomp installs a seccomp filter that kills the process at sframe_register(),
# mkdir() and mkdirat(), then dlopen()s, calls and dlclose()s a library; with libsframe-audit.so
# (its cache directory missing at start, then there) its output and exit status are
# those without. The helper makes no system call once the thread has a filter, and
# says so with SFRAME_AUDIT_DEBUG. Skipped if the kernel has no seccomp filters.
# (tests/host/sframe-conv-seccomp.sh runs this on the host.)
. "$TOP/tests/lib.sh"
prog=$BIN/sfconv/sfseccomp
audit=$TOP/build/sframe-conv/libsframe-audit.so
"$prog" > plain.out 2> plain.err
plain=$?
[ $plain -eq 4 ] && skip "$(tail -n 1 plain.out)"
[ $plain -eq 0 ] || fail "without the helper: exit $plain: $(tail -n 1 plain.out)"
cat plain.out
for run in cold warm; do
	env SFRAME_CACHE_DIR="$PWD/cache" LD_AUDIT="$audit" "$prog" > $run.out 2> $run.err
	rc=$?
	got=$(tr '\n' '|' < $run.out) want=$(tr '\n' '|' < plain.out)
	[ $rc -eq $plain ] && [ "$got" = "$want" ] ||
		fail "with the helper ($run cache): exit $rc, printed $got; expected $plain, $want"
	echo "with the helper ($run cache): the same output, exit $rc"
done
env SFRAME_CACHE_DIR="$PWD/cache" SFRAME_AUDIT_DEBUG=1 LD_AUDIT="$audit" "$prog" > debug.out 2> debug.err
cat debug.err
grep -q '^sframe-audit: seccomp filter' debug.err || fail "the helper did not say it saw the filter"
grep -q 'libsfcleaf.so' debug.err && fail "the helper worked on libsfcleaf.so under the filter"
echo "PASS: the same output and exit status with the helper"
