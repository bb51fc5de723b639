# perf record --call-graph fp,defer of the known chain, then perf script (merging):
# every sample in the read of /dev/zero (as in perf-record-g) shows kernel frames, then
# func_c, func_b, func_a, main.
. "$TOP/tests/lib.sh"
"$PERF" record -e cpu-clock -F 2000 --call-graph fp,defer -o perf.data "$BIN/chain" "$(per_flavour 400 30)" \
	2> record.err || fail "perf record failed: $(tail -n 1 record.err)"
! grep -i "switching" record.err || fail "perf switched deferred callchains off"
"$PERF" evlist -v -i perf.data > evlist.txt
grep -q "defer_callchain: 1" evlist.txt || fail "no event with defer_callchain in perf.data"
grep -q "defer_output: 1" evlist.txt || fail "no event with defer_output in perf.data"
script_frames perf.data script.txt
expect_chains "$(chain_report script.txt chain "$ZERO_READ" func_c func_b func_a main)" 20
