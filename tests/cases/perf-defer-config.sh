# perf record -g with call-graph.record-mode=fp,defer (set with perf config, as a user
# does) records deferred callchains: the defer bits in the attrs, the records, and
# tests/prog/chain's exact user chain under its read of /dev/zero in perf script.
# perf record --call-graph fp on the command line overrides it.
. "$TOP/tests/lib.sh"
default_kernel_only "perf tools test"
export HOME=$PWD
"$PERF" config --user call-graph.record-mode=fp,defer || fail "perf config failed"
"$PERF" record -q -e cpu-clock -F 2000 -g -o perf.data "$BIN/chain" 200 2> record.err ||
	fail "perf record -g failed: $(tail -n 1 record.err)"
! grep -i "switching" record.err || fail "perf switched deferred callchains off"
"$PERF" evlist -v -i perf.data > evlist.txt || fail "perf evlist failed"
grep -q "defer_callchain: 1" evlist.txt && grep -q "defer_output: 1" evlist.txt ||
	fail "no defer bits in the attrs: $(cat evlist.txt)"
n=$("$PERF" report -D -i perf.data 2> /dev/null | grep -c "PERF_RECORD_CALLCHAIN_DEFERRED")
echo "records: $n"
[ "$n" -gt 5 ] || fail "expected > 5 PERF_RECORD_CALLCHAIN_DEFERRED, got $n"
script_frames perf.data script.txt
expect_chains "$(chain_report script.txt chain "$ZERO_READ" func_c func_b func_a main)" 20
"$PERF" record -q -e cpu-clock -F 2000 --call-graph fp -o fp.data "$BIN/chain" 20 ||
	fail "perf record --call-graph fp failed"
! "$PERF" evlist -v -i fp.data | grep -q "defer_" || fail "--call-graph fp recorded deferred callchains"
