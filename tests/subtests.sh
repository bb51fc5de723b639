# Subtests of a host test (sourced; POSIX sh): set $case, then check with "... && ok ||
# bad WHY"; subtests_end prints the counts and fails if a subtest failed.
pass=0 failed=0

ok() {
	echo "PASS $case"
	pass=$((pass + 1))
}

bad() {
	echo "FAIL $case: $*"
	failed=$((failed + 1))
	return 1
}

subtests_end() {
	echo "$pass passed, $failed failed"
	[ $failed -eq 0 ]
}
