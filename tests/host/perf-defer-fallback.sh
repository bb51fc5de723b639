# On this host's kernel, which has no deferred callchains, perf record --call-graph
# fp,defer says it switches them off and records immediate callchains.
. "$TOP/tests/lib.sh"
"$PERF" record -e cpu-clock -F 2000 --call-graph fp,defer -o perf.data "$BIN/chain" 4000 \
	2> record.err || fail "perf record failed: $(tail -n 1 record.err)"
cat record.err
grep -qi "no deferred callchain support, switching them off" record.err ||
	fail "perf did not say it switches deferred callchains off"
"$PERF" evlist -v -i perf.data | grep -q "defer_" && fail "defer bits left in the recorded attrs"
script_frames perf.data script.txt
expect_chains "$(chain_report script.txt chain ksys_read func_c func_b func_a main)" 20
