# perf record --call-graph fp,defer of a user-space loop whose frame pointer walk
# finds exactly one frame: such samples show that one frame after merging (a merged
# user part of one frame must not be taken for a marker and a cookie).
. "$TOP/tests/lib.sh"
default_kernel_only "perf tools test"
"$PERF" record -q -e cpu-clock -F 2000 --call-graph fp,defer -o perf.data "$BIN/chain" spin 200000000 \
	> /dev/null || fail "perf record failed"
"$PERF" script -i perf.data -F comm,ip,sym > script.txt || fail "perf script failed"
"$PERF" script -i perf.data --no-merge-callchains -F comm,ip,sym > raw.txt || fail "perf script failed"
# SAMPLES: samples of chain; SPIN: those whose user part shows noframe_spin; ONE:
# those whose user part is exactly that one frame
report=$(perf_samples script.txt | awk -F '\t' '
	{
		split($1, h, " ")
		n = frames(addr, sym)
		user = spin = 0; chain = ""
		for (i = 1; i <= n; i++) {
			chain = chain " " sym[i]
			if (addr[i] !~ /^ffff/) user++
			if (sym[i] ~ /^noframe_spin/) spin = 1
		}
		if (n && h[1] == "chain") { s++; if (spin) { sp++; one += user == 1 } }
		if (n && spin && user != 1) print "more than one frame:" chain > "/dev/stderr"
	}
	END { printf "samples=%d spin=%d one=%d\n", s, sp, one }'"$FRAMES_AWK")
echo "$report"
# the marker of a deferred user part: "(user callchain deferred, cookie: ...)", or
# "COOKIE (cookie)" in 7.3's perf
deferred=$(grep -cE "user callchain deferred|[0-9a-f] \(cookie\)$" raw.txt)
echo "unmerged samples with a deferred user part: $deferred"
[ "$deferred" -ge 50 ] || fail "expected >= 50 deferred samples, got $deferred"
# Nearly all: a sample at the function's first instructions, before the frame
# pointer is cleared, sees the callers too.
[ "$(field one "$report")" -ge 50 ] ||
	fail "expected >= 50 samples showing exactly noframe_spin as their user part: $report"
[ $(($(field one "$report") * 100)) -ge $(($(field spin "$report") * 99)) ] ||
	fail "more than 1% of the samples in noframe_spin show more than that frame: $report"
