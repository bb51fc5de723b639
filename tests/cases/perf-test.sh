# perf's own test suite (`perf test`, with the tests the series adds: record_defer.sh,
# the sample parsing test, the attr test of --call-graph fp,defer) on the default
# kernel. Each test runs on its own (`perf test N`, time-limited), from a scratch
# directory that has the source tree's tests/ (shell tests, attr tests) and ./perf, the
# way perf test runs in its development tree. tests/perf-test.expect (on 7.3:
# tests/perf-test-7.3.expect, 7.3's perf has other tests; both after
# tests/perf-test-slow.expect) lists the tests
# that cannot pass in this guest (with the reason) and the flaky ones; any other
# failure, or a listed "Ok" test that does not pass, fails this test.
# Writes perf-test.results (number, result, seconds, description) to the log directory.
# timeout: 1800
. "$TOP/tests/lib.sh"
default_kernel_only "perf test"
tree=$TOP/build/linux$(base_sfx)/tools/perf
# the expectations: the slow tests neither base runs, then the base's own
expect=$PWD/expect.txt
cat "$TOP/tests/perf-test-slow.expect" "$TOP/tests/perf-test$(base_sfx).expect" > "$expect"
[ -d "$tree/tests/shell" ] || skip "no perf source tree at $tree"
ln -s "$tree/tests" tests
ln -s "$PERF" perf
# perf and its helpers on PATH (shell tests run "perf"), its scripts, its Python module
export PATH="$(dirname "$PERF"):$PATH" PERF_EXEC_PATH="$tree" PYTHONPATH="$(dirname "$PERF")/python"
: "${PERF_TEST_TIMEOUT:=240}"
results=$GUEST_OUT/tests/perf-test.results
: > "$results"

# "N: description" of each test, and "N.M: description" of each test case
./perf test list 2>&1 | sed -n 's/^ *\([0-9][0-9.]*\): \(.*\)$/\1\t\2/p' > list.txt
[ -s list.txt ] || fail "perf test list printed no tests"
# the descriptions of the tests not to run
sed -n 's/^ *skip *| *\([^|]*[^ |]\) *|.*/\1/p' "$expect" > skip.txt
start=$(date +%s)
for n in ${PERF_TESTS:-$(cut -f1 list.txt | grep -v '\.')}; do
	desc=$(grep -P "^$n\t" list.txt | cut -f2)
	if grep -qxF "$desc" skip.txt; then
		printf '%s\tNotRun\t0\t%s\n' "$n" "$desc" >> "$results"
		continue
	fi
	t0=$(date +%s)
	timeout -k 5 "$PERF_TEST_TIMEOUT" ./perf test -v "$n" > out.txt 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	# the result lines of the test (and of its test cases)
	sed -n 's/^ *\([0-9][0-9.]*\): \(.*[^ ]\) *: \(Ok\|FAILED!\|Skip.*\)$/\1\t\3\t\2/p' out.txt |
		sed 's/\tFAILED!\t/\tFAILED\t/' > res.txt
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		printf '%s\tFAILED\t%s\n' "$n" "$desc (timed out after ${PERF_TEST_TIMEOUT}s)" > res.txt
	elif [ ! -s res.txt ]; then
		printf '%s\tFAILED\t%s\n' "$n" "$desc (no result, exit $rc)" > res.txt
	fi
	while IFS="$(printf '\t')" read -r num res desc; do
		printf '%s\t%s\t%s\t%s\n' "$num" "$res" "$secs" "$desc" >> "$results"
	done < res.txt
	# keep the output of what did not pass
	grep -qv "	Ok	\|	Skip" res.txt 2>/dev/null && { echo "=== perf test $n"; cat out.txt; }
done
end=$(date +%s)

# Compare with the expectations: "RESULT | DESCRIPTION | REASON" (RESULT: FAILED, flaky, skip, Ok)
awk -F'\t' -v expect="$expect" '
	BEGIN {
		while ((getline line < expect) > 0) {
			if (line ~ /^[ \t]*(#|$)/) continue
			n = split(line, f, / *\| */)
			sub(/^[ \t]+/, "", f[1])
			want[f[2]] = f[1]
		}
	}
	{
		num = $1; res = $2; desc = $4
		r = res; sub(/ .*/, "", r)
		count[r]++
		seen[desc] = 1
		w = want[desc]
		if (r == "FAILED" && w != "FAILED" && w != "flaky") {
			print "unexpected failure: " num ": " desc; bad++
		} else if (w == "Ok" && r != "Ok") {
			print "expected Ok: " num ": " desc ": " res; bad++
		} else if (w == "FAILED" && r != "FAILED") {
			print "listed as failing, now " res ": " num ": " desc
		}
	}
	END {
		for (d in want) {
			if (d in seen)
				continue
			if (want[d] == "Ok") {
				print "expected Ok, not run: " d
				bad++
			} else {
				print "listed but not run: " d
			}
		}
		printf "perf test: %d Ok, %d FAILED, %d Skip, %d not run\n", count["Ok"], count["FAILED"], count["Skip"], count["NotRun"]
		exit bad > 0
	}' "$results" > verdict.txt
rc=$?
cat verdict.txt
echo "perf test took $((end - start)) s; results: $results"
[ $rc -eq 0 ] || fail "$(grep -c '^unexpected\|^expected' verdict.txt) unexpected perf test results: $(grep -m 3 '^unexpected\|^expected' verdict.txt | tr '\n' ';')"
echo "$(tail -n 1 verdict.txt), as expected ($((end - start)) s)"
