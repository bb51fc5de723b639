#!/bin/sh
# Test runner: runs every $CASES/*.sh (default tests/cases, the guest tests; tests/host
# holds the tests that run on the host) or those matching $TESTS, one line per test,
# then "N passed, N failed". Each test's output goes to $GUEST_OUT/tests/NAME.log.
# A test passes with exit 0, is skipped with 77, fails otherwise; its last line says why.
# A line "# timeout: SECONDS" in a test gives it more than $TEST_TIMEOUT.
# Each test's duration in seconds goes to $GUEST_OUT/times ("NAME SECONDS").
# Environment from the host: TOP (repository), BIN (test programs), PERF (perf binary).
here=$(cd "$(dirname "$0")" && pwd)
: "${TOP:=$(dirname "$here")}" "${BIN:=$TOP/build/tests}" "${PERF:=$TOP/build/perf/perf}"
: "${GUEST_OUT:=/tmp}" "${TEST_TIMEOUT:=300}" "${CASES:=$here/cases}"
export TOP BIN PERF GUEST_OUT
logs=$GUEST_OUT/tests
mkdir -p "$logs"
: > "$GUEST_OUT/results"
: > "$GUEST_OUT/times"
pass=0 fail=0 skip=0
for t in "$CASES"/*.sh; do
	name=$(basename "$t" .sh)
	if [ -n "${TESTS:-}" ] && ! echo "$name" | grep -qE "$TESTS"; then
		continue
	fi
	work=$(mktemp -d /tmp/test.XXXXXX)
	[ -w /dev/kmsg ] && [ "$CASES" = "$here/cases" ] && echo "test: $name" > /dev/kmsg
	limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$t" | head -n 1)
	limit=${limit:-$TEST_TIMEOUT}
	start=$(date +%s)
	(cd "$work" && exec timeout -k 5 "$limit" sh "$t") > "$logs/$name.log" 2>&1
	rc=$?
	echo "$name $(($(date +%s) - start))" >> "$GUEST_OUT/times"
	rm -rf "$work"
	why=$(tail -n 1 "$logs/$name.log")
	[ $rc -eq 124 ] && why="timed out after ${limit}s"
	case $rc in
	0) line="PASS $name"; pass=$((pass + 1)) ;;
	77) line="SKIP $name: $why"; skip=$((skip + 1)) ;;
	*) line="FAIL $name: $why (log: $logs/$name.log)"; fail=$((fail + 1)) ;;
	esac
	echo "$line" | tee -a "$GUEST_OUT/results"
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
