# A perf.data with deferred callchains survives a perf inject round trip, and
# perf report -D dumps its records without unhandled or unknown events (perf reports
# the header records THREAD_MAP, CPU_MAP, FINISHED_INIT as unhandled in any file:
# there must be no more of those than in a file recorded with -g).
. "$TOP/tests/lib.sh"
default_kernel_only "perf tools test"
"$PERF" record -q -e cpu-clock -F 2000 --call-graph fp,defer -o perf.data "$BIN/chain" 200 ||
	fail "perf record failed"
"$PERF" inject -i perf.data -o inj.data || fail "perf inject failed"
"$PERF" script -i perf.data > a.txt 2>&1 || fail "perf script failed"
"$PERF" script -i inj.data > b.txt 2>&1 || fail "perf script of the injected file failed"
cmp -s a.txt b.txt || fail "perf script output differs after perf inject"
"$PERF" report -D -i perf.data > dump.txt 2>&1 || fail "perf report -D failed"
n=$(grep -c "PERF_RECORD_CALLCHAIN_DEFERRED" dump.txt)
echo "records in the dump: $n"
[ "$n" -gt 5 ] || fail "expected > 5 PERF_RECORD_CALLCHAIN_DEFERRED in the dump, got $n"
"$PERF" record -q -e cpu-clock -F 2000 -g -o g.data "$BIN/chain" 50 || fail "perf record -g failed"
"$PERF" report -D -i g.data > gdump.txt 2>&1 || fail "perf report -D of the -g file failed"
warn='unhandled|unknown|unexpected|invalid'
echo "warnings: fp,defer $(grep -ciE "$warn" dump.txt), -g $(grep -ciE "$warn" gdump.txt)"
[ "$(grep -ciE "$warn" dump.txt)" = "$(grep -ciE "$warn" gdump.txt)" ] ||
	fail "perf report -D warns: $(grep -iE "$warn" dump.txt | grep -v 'MAP\|FINISHED_INIT' | head -1)"
