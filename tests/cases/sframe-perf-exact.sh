# Every user frame of every sample of an SFrame program (no frame pointers; linked and
# dlopened libraries) recorded with --call-graph fp,defer is in the program's real chain,
# including samples taken inside the deferred unwind's task work and after it, whose
# user stack is the entry's cached trace (never a frame-pointer walk, which invents
# frames in code without frame pointers). The same check fails on -g (frame pointers).
. "$TOP/tests/lib.sh"
prog=$BIN/sframe/sfchain
# chain_exact PERF_SCRIPT_OUTPUT: for each sample of sfchain whose first user frame is
# in the chain sf_leaf sfdl_c sf_cb sf1_b sf_a main, the user frames are exactly the
# rest of the chain down to main (frames after main, in libc's start code that has no
# SFrame, are not checked). Prints "checked=C taskwork=T bad=B other=O".
chain_exact() {
	perf_samples "$1" | awk -F '\t' -v chain="sf_leaf sfdl_c sf_cb sf1_b sf_a main" '
	function check(   i, j, p, ok, first, line) {
		if (n && name == "sfchain") {
			first = 0; tw = 0
			for (i = 1; i <= n; i++) {
				if (addr[i] ~ /^ffff/) {
					if (sym[i] == "unwind_deferred_task_work") tw = 1
				} else if (!first) first = i
			}
			p = first ? pos[sym[first]] : 0
			if (!p) {
				if (other++ < 5) print "not in the chain: " sym[first] > "/dev/stderr"
			} else {
				checked++
				taskwork += tw
				ok = 1
				for (j = p; ok && j <= nc; j++)
					if (first + j - p > n || sym[first + j - p] != c[j]) ok = 0
				if (!ok) {
					bad++
					line = ""
					for (i = 1; i <= n; i++) line = line " " sym[i] "(" addr[i] ")"
					if (bad <= 20) print "bad chain:" line > "/dev/stderr"
				}
			}
		}
	}
	BEGIN { nc = split(chain, c, " "); for (i = 1; i <= nc; i++) pos[c[i]] = i }
	{ split($1, h, " "); name = h[1]; n = frames(addr, sym); check() }
	END { printf "checked=%d taskwork=%d bad=%d other=%d\n", checked, taskwork, bad, other }
	'"$FRAMES_AWK"
}
# some 6000 samples checked, 1800 in the task work (the debug kernel, 4x slower: 1600
# and 830 for a third of the work)
spins=$(per_flavour 300 100)
for mode in fp,defer fp; do
	"$PERF" record -q -e cpu-clock -c 50000 --call-graph "$mode" -o "$mode.data" "$prog" spin $spins \
		> /dev/null || fail "perf record $mode failed"
	script_frames "$mode.data" "$mode.txt"
done
defer=$(chain_exact fp,defer.txt)
fp=$(chain_exact fp.txt 2> /dev/null)
echo "fp,defer: $defer"
echo "fp:       $fp"
[ "$(field bad "$fp")" -gt 0 ] || fail "-g found every chain: the test proves nothing ($fp)"
[ "$(field checked "$defer")" -ge 200 ] || fail "too few samples in the chain: $defer"
[ "$(field taskwork "$defer")" -ge 5 ] || fail "too few samples in the deferred unwind's task work: $defer"
[ "$(field bad "$defer")" = 0 ] || fail "samples with frames not in the real chain: $defer"
