#!/bin/sh
# Test runner: runs every $CASES/*.sh (default tests/cases, the guest tests; tests/host
# holds the tests that run on the host) and every subtest of the programs listed in
# $CASES/suites, or those whose names match the extended regexp $TESTS, in the order of
# their names, and reports them in KTAP (Documentation/dev-tools/ktap.rst): "KTAP version
# 1", the plan "1..N", then "ok N NAME", "ok N NAME # SKIP WHY" or a diagnostic line
# "# NAME: WHY (log: FILE)" and "not ok N NAME" per test, and closes with kselftest's
# "# Totals: ..." and "N passed, N failed, N skipped". $GUEST_OUT/results gets the same
# KTAP lines; each test's output goes to $GUEST_OUT/tests/NAME.log.
# A test passes with exit 0, is skipped with 4 (kselftest's KSFT_SKIP), fails otherwise;
# its last line says why. A line "# timeout: SECONDS" in a test gives it more than
# $TEST_TIMEOUT. Each test's duration in seconds goes to $GUEST_OUT/times ("NAME SECONDS").
# Environment from the host: TOP (repository), BIN (test programs), PERF (perf binary),
# BASE (the kernel base, 6.12 or 7.3: tests/skip-BASE lists the tests it skips, and why).
# Exit status: 0 if no test failed.
here=$(cd "$(dirname "$0")" && pwd)
: "${TOP:=$(dirname "$here")}" "${BIN:=$TOP/build/tests}" "${PERF:=$TOP/build/perf/perf}"
: "${GUEST_OUT:=/tmp}" "${TEST_TIMEOUT:=300}" "${CASES:=$here/cases}"
export TOP BIN PERF GUEST_OUT
logs=$GUEST_OUT/tests
mkdir -p "$logs"
: > "$GUEST_OUT/results"
: > "$GUEST_OUT/times"
pass=0 fail=0 skip=0

# The tests, one a line: "NAME sh FILE" (a script), "NAME run PROGRAM SUBTEST" (a
# subtest, PROGRAM in $BIN) or "NAME fail REASON" (a program that did not list its
# subtests), each after the key it is sorted by (NAME.sh: the order of the files)
tests() {
	for t in "$CASES"/*.sh; do
		echo "${t##*/} $(basename "$t" .sh) sh $t"
	done
	[ -f "$CASES/suites" ] || return 0
	grep -v '^#' "$CASES/suites" | while read -r prefix prog; do
		[ -n "$prog" ] || continue
		for p in "$prog" "$prog-32"; do
			suffix=${p#"$prog"}
			if ! list=$("$BIN/$p" --list 2>&1); then
				echo "$prefix$suffix.sh $prefix$suffix fail $BIN/$p --list: $(echo "$list" | tail -n 1)"
				continue
			fi
			for sub in $list; do
				echo "$prefix-$sub$suffix.sh $prefix-$sub$suffix run $p $sub"
			done
		done
	done
}

# the selected tests, in order: "NAME KIND WHAT"
tests | LC_ALL=C sort -k 1,1 | while read -r key name kind what; do
	if [ -z "${TESTS:-}" ] || echo "$name" | grep -qE "$TESTS"; then
		echo "$name $kind $what"
	fi
done > "$GUEST_OUT/tests.list"

# report LINE...: KTAP lines, on the output and in $GUEST_OUT/results
report() {
	printf '%s\n' "$@" | tee -a "$GUEST_OUT/results"
}

report "KTAP version 1" "1..$(wc -l < "$GUEST_OUT/tests.list")"
n=0
while read -r name kind what <&3; do
	n=$((n + 1))
	# a test the base (BASE, default 6.12) cannot run yet or at all: tests/skip-BASE
	# holds "REGEXP REASON" lines; a test whose name matches is skipped with the reason
	why=$(awk -v n="$name" '!/^#/ && NF > 1 && n ~ ("^(" $1 ")$") {
		sub(/^[^ \t]+[ \t]+/, ""); print; exit }' "$here/skip-${BASE:-6.12}" 2>/dev/null)
	if [ -n "$why" ]; then
		report "ok $n $name # SKIP on ${BASE:-6.12}: $(echo "$why" | tr '#' ' ')"
		skip=$((skip + 1))
		continue
	fi
	work=$(mktemp -d /tmp/test.XXXXXX)
	[ -w /dev/kmsg ] && [ "$CASES" = "$here/cases" ] && echo "test: $name" > /dev/kmsg
	limit=
	case $kind in
	sh) limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$what" | head -n 1)
		set -- sh "$what" ;;
	run) set -- "$BIN/${what%% *}" "${what#* }" ;;
	*) set -- sh -c 'echo "$1"; exit 1' sh "$what" ;;
	esac
	limit=${limit:-$TEST_TIMEOUT}
	start=$(date +%s)
	(cd "$work" && exec timeout -k 5 "$limit" "$@") > "$logs/$name.log" 2>&1 3<&-
	rc=$?
	echo "$name $(($(date +%s) - start))" >> "$GUEST_OUT/times"
	# a failed test's files stay for a look: $GUEST_OUT/tests/NAME.work
	case $rc in 0|4) ;; *) rm -rf "$logs/$name.work"; cp -r "$work" "$logs/$name.work" ;; esac
	rm -rf "$work"
	# KTAP: no "#" in a description but the directive's
	why=$(tail -n 1 "$logs/$name.log" | tr '#' ' ')
	[ $rc -eq 124 ] && why="timed out after ${limit}s"
	case $rc in
	0) report "ok $n $name"; pass=$((pass + 1)) ;;
	4) report "ok $n $name # SKIP ${why#SKIP: }"; skip=$((skip + 1)) ;;
	*) report "# $name: $why (log: $logs/$name.log)" "not ok $n $name"
		fail=$((fail + 1)) ;;
	esac
done 3< "$GUEST_OUT/tests.list"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
