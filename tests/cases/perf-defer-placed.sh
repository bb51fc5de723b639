# No frames outside executable mappings: perf record --call-graph fp,defer of sfcall
# (built without frame pointers; its system calls go through Debian's libc, which has
# neither frame pointers nor SFrame, so the frame pointer walk from there reads other
# data for return addresses, without the LD_AUDIT helper): no user frame of any sample
# lies in no mapping of the process (perf names its DSO [unknown]).
. "$TOP/tests/lib.sh"
default_kernel_only "perf tools test"
calls=300000
"$PERF" record -q -e cpu-clock -F 4000 --call-graph fp,defer -o perf.data -- \
	"$BIN/sfconv/sfcall" $calls > out.txt 2> err.txt || fail "perf record failed: $(tail -n 1 err.txt)"
"$PERF" script -i perf.data -F comm,ip,sym,dso > script.txt || fail "perf script failed"
report=$(perf_samples script.txt | awk -F '\t' '
	{
		split($1, h, " ")
		if (h[1] != "sfcall") next
		s++
		bad = 0
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^ffff/ || $i !~ /^[0-9a-f]+ /) continue
			u++
			if ($i ~ /\(\[unknown\]\)$/) { bad = 1; ub++ }
		}
		if (bad) { sb++; if (sb <= 5) print "unplaceable:" $0 > "/dev/stderr" }
	}
	END { printf "samples=%d user_frames=%d unplaceable_frames=%d samples_with_them=%d\n", s, u, ub, sb }')
echo "$report"
[ "$(field samples "$report")" -ge 200 ] || fail "expected >= 200 samples of sfcall: $report"
[ "$(field unplaceable_frames "$report")" = 0 ] || fail "frames outside every mapping: $report"
