#!/bin/bash
# `make bench-testcost`: what the test interface (CONFIG_UNWIND_DEFERRED_TEST) would
# cost the paths it touches, measured. The same loops (bench/testcost.c: fork, exec
# and exit of a program with .sframe; getppid()) run under -icount, where guest time
# is one ns per instruction, on the default kernel (which has the option) and on a
# production kernel (config/production.config: the default without it), built from
# the same tree. Output: build/bench-testcost/{default,production}/ and results.md.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${BENCH_OUT:-$top/build/bench-testcost}
KERNEL_OUT=$top/build/kernel-production "$top/scripts/build-kernel.sh" production
rm -rf "$out"
for k in default production; do
	echo "bench-testcost: $k kernel (-icount)"
	mkdir -p "$out/$k"
	"$top/scripts/vm.sh" -i -k "$top/build/kernel-$k/arch/x86/boot/bzImage" -o "$out/$k" \
		-t "${VM_TIMEOUT:-1800}" -- env BIN="$top/build/bench/bin" GUEST_OUT="$out/$k" \
		sh "$top/bench/testcost-guest.sh" > "$out/$k/vm.log" 2>&1 ||
		{ echo "bench-testcost: the $k guest failed: $(tail -n 1 "$out/$k/vm.log")" >&2; exit 1; }
	if splats=$("$top/scripts/scan-log.sh" "$out/$k/console.log"); then :; else
		[ $? = 1 ] && { echo "bench-testcost: kernel splats in $out/$k/console.log:" >&2
			echo "$splats" | head -n 5 >&2; exit 1; }
	fi
done
# Per loop and kernel: the median of the rounds' instructions per iteration, and the
# spread (max - min) of the rounds
awk '
	{ v = $4 / $3; k = FILENAME; sub(/\/raw.txt$/, "", k); sub(/.*\//, "", k)
	  n[k, $1]++; x[k, $1, n[k, $1]] = v }
	END {
		print "| loop | default (with the test option) | production | saved | rounds spread |"
		print "|---|---|---|---|---|"
		split("exec syscall", loops, " ")
		for (l = 1; l <= 2; l++) {
			lp = loops[l]
			for (kk = 1; kk <= 2; kk++) {
				k = kk == 1 ? "default" : "production"
				m = n[k, lp]
				# insertion sort (mawk has no asort)
				for (i = 1; i <= m; i++) {
					v = x[k, lp, i]
					for (j = i - 1; j >= 1 && s[j] > v; j--) s[j + 1] = s[j]
					s[j + 1] = v
				}
				med[k] = m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
				spr[k] = s[m] - s[1]
				delete s
			}
			printf "| %s | %.1f | %.1f | %.1f | %.1f / %.1f |\n", lp, med["default"],
				med["production"], med["default"] - med["production"],
				spr["default"], spr["production"]
		}
	}' "$out/default/raw.txt" "$out/production/raw.txt" | tee "$out/results.md"
echo "(instructions per iteration: exec = fork + exec + exit + wait, syscall = getppid; medians of the rounds)" |
	tee -a "$out/results.md"
