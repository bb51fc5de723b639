#!/bin/bash
# Run the guest test suite on each kernel flavour given, check the console logs for
# splats, and print one line per test and the closing "N passed, N failed".
# Usage: check.sh FLAVOUR...   (kernels must be built: build/kernel-FLAVOUR)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
failed=()
for f in "$@"; do
	out=$top/build/check-$f
	rm -rf "$out"; mkdir -p "$out"
	timeout=${VM_TIMEOUT:-900}
	[ "$f" = default ] || timeout=${VM_TIMEOUT:-2400}
	"$top/scripts/vm.sh" -k "$top/build/kernel-$f/arch/x86/boot/bzImage" -o "$out" -t "$timeout" \
		-- env TOP="$top" ${TESTS:+TESTS="$TESTS"} sh "$top/tests/run.sh" >"$out/vm.log" 2>&1
	vmrc=$?
	results=()
	[ -f "$out/results" ] && mapfile -t results < "$out/results"
	if [ $vmrc -eq 124 ] || [ $vmrc -eq 125 ]; then
		results+=("FAIL vm-finished: $(tail -n 1 "$out/vm.log")")
	else
		results+=("PASS vm-finished")
	fi
	if splats=$("$top/scripts/scan-log.sh" "$out/console.log"); then
		results+=("PASS kernel-log-clean")
	else
		results+=("FAIL kernel-log-clean: $(echo "$splats" | head -n 1) (log: $out/console.log)")
	fi
	for r in "${results[@]}"; do
		echo "[$f] $r"
		case $r in
		PASS*) pass=$((pass + 1)) ;;
		SKIP*) skip=$((skip + 1)) ;;
		*) fail=$((fail + 1)); failed+=("[$f] $r") ;;
		esac
	done
done
if [ ${#failed[@]} -gt 0 ]; then
	echo; echo "Failed:"; printf '  %s\n' "${failed[@]}"
	echo "Logs: $top/build/check-*/ (console.log, vm.log, tests/NAME.log)"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
