# perf record -g (immediate frame pointers) of the known chain main -> a -> b -> c -> read:
# samples in the kernel show kernel frames, then c, b, a, main.
. "$TOP/tests/lib.sh"
"$PERF" record -q -e cpu-clock -F 2000 -g -o perf.data "$BIN/chain" 400 || fail "perf record failed"
"$PERF" script -i perf.data -F comm,tid,ip,sym > script.txt 2> script.err || fail "perf script failed"
r=$(chain_report script.txt c b a main)
echo "$r"
[ "$(field bad "$r")" = 0 ] || fail "chains from c not continuing b a main: $r"
[ "$(field kernel "$r")" -ge 20 ] || fail "expected >= 20 kernel samples with c b a main, got: $r"
