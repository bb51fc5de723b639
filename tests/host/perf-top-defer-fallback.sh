# On this host's kernel, which has no deferred callchains, perf top --call-graph
# fp,defer, and perf top -g with call-graph.record-mode=fp,defer, say they switch them
# off, as perf record does, and show immediate callchains: tests/prog/chain's user
# functions, func_c func_b func_a main, right under the system call entry of its read.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perf-top.sh"
"$BIN/chain" 100000000 > /dev/null &
pid=$!
top_run top.out 6 -d 1 -E 10 --no-children -e cpu-clock --call-graph fp,defer -p $pid
export HOME=$PWD
"$PERF" config --user call-graph.record-mode=fp,defer || fail "perf config failed"
top_run g.out 6 -d 1 -E 10 --no-children -e cpu-clock -g -p $pid
kill $pid
for out in top.out g.out; do
	cat $out.err
	grep -qi "no deferred callchain support, switching them off" $out.err ||
		fail "$out: perf top did not say it switches deferred callchains off"
	top_graphs $out > $out.graphs
	top_user_paths $out.graphs > $out.paths
	cat $out.paths
	grep -q "	read_zero	" $out.paths || fail "$out: the graph of read_zero does not go into user space"
	! grep -v "^func_c func_b func_a main	" $out.paths ||
		fail "$out: paths into user space that are not func_c func_b func_a main"
done
