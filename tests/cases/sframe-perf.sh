# perf record --call-graph fp,defer of a program and libraries built without frame
# pointers and with SFrame: perf script shows every frame from the leaf to main through
# the libraries; the same binary recorded with -g (immediate frame pointers) does not.
. "$TOP/tests/lib.sh"
prog=$BIN/sframe/sfchain
for mode in fp,defer fp; do
	"$PERF" record -q -e cpu-clock -F 4000 --call-graph "$mode" -o "$mode.data" "$prog" spin "$(per_flavour 1500 300)" \
		> /dev/null || fail "perf record $mode failed"
	script_frames "$mode.data" "$mode.txt"
done
# The leaf's write spins in udt_request_from_timer; other writes (the set-up
# commands, through libc) are not part of the chain.
defer=$(chain_report fp,defer.txt sfchain udt_request_from_timer sf_leaf sfdl_c sf_cb sf1_b sf_a main)
fp=$(chain_report fp.txt sfchain udt_request_from_timer sf_leaf sfdl_c sf_cb sf1_b sf_a main 2> /dev/null)
echo "fp,defer: $defer"
echo "fp:       $fp"
expect_chains "$defer" 20
[ "$(field good "$fp")" = 0 ] || fail "immediate frame pointers found the chain: the test proves nothing"
[ "$(field marked "$fp")" -ge 20 ] || fail "too few -g samples in the leaf's system call: $fp"
