# perf top -g with call-graph.record-mode=fp,defer (set with perf config, as a user
# does), system-wide, defers callchains as --call-graph fp,defer does: bench/deep's
# whole user stack, "syscalls descend*151 main", right under the system call entry in
# the call graph of each function of getppid() in perf top's last display.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perf-top.sh"
default_kernel_only "perf tools test"
deep=$(bench_deep) || fail "cannot build bench/deep"
export HOME=$PWD
# Every callchain, whole: perf top's own samples (system-wide, under TCG) are most of
# the total, and getppid()'s functions come at ~0.5% of it, perf top's default threshold
# for a branch of a graph; kernel entries only (-U), for a short display, and 20 of
# them: the exit path's functions (deferred unwinding, rseq) rank among getppid()'s
"$PERF" config --user call-graph.record-mode=fp,defer call-graph.print-type=flat \
	call-graph.threshold=0 || fail "perf config failed"
grep -q "record-mode = fp,defer" .perfconfig || fail "perf config wrote: $(cat .perfconfig)"
"$deep" 150 100000000 16 > /dev/null &
pid=$!
# system-wide, as perf top -g is run most: one ring buffer per CPU, read in rounds;
# 1000 samples a second and a refresh every 2 s, for perf top to keep up under TCG
# (each CPU's samples, idle included, resolved with their callchains; what comes more
# than a refresh delay late is dropped)
top_run top.out 10 -d 2 -F 1000 -E 20 --no-children -e cpu-clock -g -U --comms deep
kill $pid
top_expect_deep top.out
