# perf record -g (immediate frame pointers) of the known chain
# main -> func_a -> func_b -> func_c -> read(2): every sample in the read path shows
# kernel frames, then func_c, func_b, func_a, main.
. "$TOP/tests/lib.sh"
"$PERF" record -q -e cpu-clock -F 2000 -g -o perf.data "$BIN/chain" 400 || fail "perf record failed"
"$PERF" script -i perf.data -F comm,tid,ip,sym > script.txt || fail "perf script failed"
expect_chains "$(chain_report script.txt chain ksys_read func_c func_b func_a main)" 20
