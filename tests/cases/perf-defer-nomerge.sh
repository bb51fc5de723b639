# perf script --no-merge-callchains shows the deferred records on their own; the number
# of samples is the same with and without merging (nothing dropped or duplicated).
. "$TOP/tests/lib.sh"
default_kernel_only "perf tools test"
"$PERF" record -q -e cpu-clock -F 2000 --call-graph fp,defer -o perf.data "$BIN/chain" 300 ||
	fail "perf record failed"
"$PERF" script -i perf.data -F comm,tid,time,event,ip,sym > merged.txt || fail "perf script failed"
"$PERF" script -i perf.data -F comm,tid,time,event,ip,sym --no-merge-callchains > raw.txt ||
	fail "perf script --no-merge-callchains failed"
m=$(grep -c "cpu-clock" merged.txt)
r=$(grep -c "cpu-clock" raw.txt)
d=$(grep -c "DEFERRED CALLCHAIN \\[cookie: [0-9a-f]*\\]" raw.txt)
echo "samples merged=$m unmerged=$r deferred records=$d"
[ "$m" -gt 20 ] || fail "expected > 20 samples, got $m"
[ "$m" = "$r" ] || fail "sample count: merged $m, unmerged $r"
[ "$d" -gt 10 ] || fail "expected > 10 DEFERRED CALLCHAIN records, got $d"
! grep -q "DEFERRED CALLCHAIN" merged.txt || fail "records printed while merging"
