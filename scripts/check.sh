#!/bin/bash
# Run the test suite: tests/host on this machine (if "host" is given), then the guest
# tests on each kernel flavour given, the guests side by side, with the console logs
# checked for splats. When all have ended, prints the results in KTAP, one test a line
# named FLAVOUR/TEST (with, per flavour, FLAVOUR/vm-finished, FLAVOUR/kernel-log-clean
# and FLAVOUR/ktap: tests/run.sh's output parses as KTAP with the kernel's own parser),
# and the closing "N passed, N failed, N skipped". A run of the whole suite (no TESTS)
# writes docs/results/check-BASE.md.
# Usage: [BASE=7.3] check.sh [host] FLAVOUR...   (kernels must be built:
# build/kernel-FLAVOUR, on 7.3 build/kernel-FLAVOUR-7.3; results in build/check-FLAVOUR
# or build/check-FLAVOUR-7.3). The guests get BASE and the base's perf (for the flavour
# "mainline", the base as it is: build/perf-mainline-7.3).
# The host's own kernel is an old one without deferred callchains: perf's fallback
# is tested there.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
pass=0 fail=0 skip=0
lines=() failed=() logs=()

# result FLAVOUR/NAME STATUS [WHY [LOG]]: one test's result (STATUS ok, skip or fail)
result() {
	local n=$((pass + fail + skip + 1))
	case $2 in
	ok) lines+=("ok $n $1"); pass=$((pass + 1)) ;;
	skip) lines+=("ok $n $1 # SKIP $3"); skip=$((skip + 1)) ;;
	*) lines+=("# $1: $3" "not ok $n $1"); fail=$((fail + 1))
		failed+=("$1: $3"); logs+=("${4:-}") ;;
	esac
}
count() { echo $((pass + fail + skip)); }

# tally FLAVOUR FILE: the results tests/run.sh wrote in KTAP (the test's reason for a
# failure in the diagnostic line before it; its log, by its name, tests/NAME.log)
tally() {
	local f=$1 line why= name
	while IFS= read -r line; do
		case $line in
		"# "*) why=${line#"# "}; why=${why#*: } ;;
		"ok "*" # SKIP"*) name=${line#ok * }; result "$f/${name%% # SKIP*}" skip "${name#* # SKIP }" ;;
		"ok "*) result "$f/${line#ok * }" ok ;;
		"not ok "*) name=${line#not ok * }
			result "$f/$name" fail "$why" "$(check_outdir "$f")/tests/$name.log"
			why= ;;
		esac
	done < "$2"
}

# ktap FLAVOUR FILE: the test FLAVOUR/ktap, FILE (tests/run.sh's output) is KTAP
ktap() {
	local out
	if out=$(python3 "$top/tests/ktap-check.py" "$base_tree/tools/testing/kunit" "$2" 2>&1); then
		result "$1/ktap" ok
	else
		result "$1/ktap" fail "$(echo "$out" | head -n 3 | tr '\n' ' ')" "$2"
	fi
}


# guest FLAVOUR: the guest tests on build/kernel-FLAVOUR$base_sfx, into $(check_outdir FLAVOUR)
guest() {
	local f=$1 out start=$SECONDS
	out=$(check_outdir "$f")
	flavour_vm "$f"
	"$top/scripts/vm.sh" -k "$top/build/kernel-$f$base_sfx/arch/x86/boot/bzImage" -o "$out" \
		-t "${VM_TIMEOUT:-$flavour_timeout}" -- env TOP="$top" FLAVOUR="$f" BASE="$BASE" \
		PERF="$(base_perf_dir "$f")/perf" \
		${TESTS:+TESTS="$TESTS"} \
		sh "$top/tests/run.sh" >"$out/vm.log" 2>&1
	echo $? > "$out/vm.rc"
	echo $((SECONDS - start)) > "$out/seconds"
}

# Each flavour once; the host's tests first (some build under build/, which the guests
# read), then the guests side by side (a TCG guest runs in one host thread, scripts/vm.sh)
mapfile -t flavours < <(printf '%s\n' "$@" | awk '!seen[$0]++')
guests=()
for f in "${flavours[@]}"; do
	out=$(check_outdir "$f")
	rm -rf "$out"; mkdir -p "$out"
	[ "$f" = host ] || { guests+=("$f"); continue; }
	start=$SECONDS
	env TOP="$top" GUEST_OUT="$out" CASES="$top/tests/host" ${TESTS:+TESTS="$TESTS"} \
		sh "$top/tests/run.sh" >"$out/output" 2>&1
	echo $((SECONDS - start)) > "$out/seconds"
done
[ ${#guests[@]} -eq 0 ] ||
	echo "check: guests ${guests[*]} side by side (progress: build/check-FLAVOUR$base_sfx/output)" >&2
for f in "${guests[@]}"; do
	guest "$f" &
done
wait

for f in "${flavours[@]}"; do
	out=$(check_outdir "$f")
	[ -f "$out/results" ] && tally "$f" "$out/results"
	if [ "$f" = host ]; then
		ktap "$f" "$out/output"
		continue
	fi
	# 124: time-out, 125: no result (vm.sh); no console: the VM did not start
	vmrc=$(cat "$out/vm.rc" 2>/dev/null || echo 125)
	if [ "$vmrc" -eq 124 ] || [ "$vmrc" -eq 125 ] || [ ! -s "$out/console.log" ]; then
		result "$f/vm-finished" fail "$(tail -n 1 "$out/vm.log")" "$out/vm.log"
	else
		result "$f/vm-finished" ok
		ktap "$f" "$out/output"
	fi
	scan=0
	splats=$("$top/scripts/scan-log.sh" "$out/console.log" 2>/dev/null) || scan=$?
	case $scan in
	0) result "$f/kernel-log-clean" ok ;;
	1) result "$f/kernel-log-clean" fail "$(echo "$splats" | head -n 1)" "$out/console.log" ;;
	*) result "$f/kernel-log-clean" fail "no readable console log" "$out/console.log" ;;
	esac
done
# the results, also kept for docs/results/check-BASE.md
ktapfile=$top/build/check$base_sfx.ktap
{ echo "KTAP version 1"; echo "1..$(count)"; printf '%s\n' "${lines[@]}"; } | tee "$ktapfile"
if [ ${#failed[@]} -gt 0 ]; then
	echo "# Failed:"
	for i in "${!failed[@]}"; do
		echo "#   ${failed[$i]}"
		# the first lines of the test's log that say what went wrong
		[ -f "${logs[$i]}" ] &&
			grep -m 5 -E '^(FAIL|bad chain)' "${logs[$i]}" | cut -c1-300 | sed 's/^/#       /'
	done
	echo "# Logs: $top/build/check-*/ (console.log, vm.log, output, tests/NAME.log)"
fi
# The whole suite's results, for docs/results.md
doc=$top/docs/results/check-$BASE.md
if [ -z "${TESTS:-}" ]; then
	if "$top/scripts/check-results.sh" "$ktapfile" "${flavours[@]}" > "$doc.tmp"; then
		mv "$doc.tmp" "$doc"
	else
		rm -f "$doc.tmp"; echo "# check: could not write ${doc#"$top"/}"
	fi
fi
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
