# The KUnit suite of the SFrame reader (kernel/unwind/sframe_reader_kunit.c,
# CONFIG_SFRAME_READER_KUNIT_TEST, in config/debug.config): the cases on hand-built
# sections that `make sframe-unit` runs in user space (sframe_reader_cases.h, one source
# for both), run at boot on the kernel's reader, which reads each section from user
# memory as it reads a task's. Each case is a parameter of the KUnit case
# sframe_reader_run: 18 of the 19 must pass, and func_wraps be skipped (its section is
# at the top of the address space, never user memory). The default kernel has no
# KUnit: skipped there; on the debug kernel a missing suite fails.
. "$TOP/tests/lib.sh"
cases=19 skipped=func_wraps
results=/sys/kernel/debug/kunit/sframe_reader/results
if [ ! -r "$results" ]; then
	[ "$(flavour)" = debug ] && fail "no KUnit suite sframe_reader ($results)"
	skip "no KUnit suite sframe_reader in this kernel"
fi
out=$(cat "$results")
echo "$out"
# The parameters' lines, whatever their indentation (not the case's or the suite's)
params=$(echo "$out" | sed -n 's/^ *\(not \)\{0,1\}ok [0-9][0-9]* //p' | grep -Ev '^sframe_reader(_run)?$')
ok=$(echo "$params" | grep -Ec '^[a-z0-9_]+$')
skips=$(echo "$params" | sed -n 's/^\([a-z0-9_]*\) # SKIP.*/\1/p' | tr '\n' ' ')
bad=$(echo "$out" | grep -E '^ *not ok ' | sed 's/^ *//' | tr '\n' ';')
[ -z "$bad" ] || fail "not ok: $bad"
[ "$skips" = "$skipped " ] || fail "skipped: '$skips', expected '$skipped '"
[ "$ok" = $((cases - 1)) ] || fail "$ok cases ok, expected $((cases - 1)) (and $skipped skipped)"
echo "$out" | grep -Eq '^ok [0-9]+ sframe_reader( # SKIP.*)?$' || fail "the suite is not ok"
echo "sframe_reader: $ok of $cases KUnit cases ok, $skipped skipped as expected"
