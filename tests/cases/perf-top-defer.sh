# perf top --call-graph fp,defer shows the whole user stack under the kernel frames of
# the samples: bench/deep's 150 frames of recursion under main (deeper than the 127
# frames of an immediate callchain), in the call graph of each function of getppid()
# in perf top's last display, "syscalls descend*151 main" right under the system call
# entry. perf top --call-graph fp (as -g), the control, shows them cut (else the test
# proves nothing).
. "$TOP/tests/lib.sh"
. "$TOP/tests/perf-top.sh"
# perf tools behaviour: the default kernel only, to keep CI under an hour
default_kernel_only "perf tools test"
deep=$(bench_deep) || fail "cannot build bench/deep"
"$deep" 150 100000000 16 > /dev/null &
pid=$!
# every callchain on its own (flat, threshold 0: in a graph a cut chain would merge
# into the whole one), kernel entries only (-U), 20 of them: getppid()'s functions come
# at ~1% of deep's samples, among the functions of the way out (deferred unwinding, rseq)
top_run top.out 10 -d 1 -E 20 --no-children -e cpu-clock -U --call-graph fp,defer,flat,0 -p $pid
top_run g.out 10 -d 1 -E 20 --no-children -e cpu-clock -U --call-graph fp,flat,0 -p $pid
kill $pid
top_expect_deep top.out
top_graphs g.out > g-graphs.txt
top_user_paths g-graphs.txt syscalls > g-all-paths.txt
top_getppid_paths g-all-paths.txt > g-paths.txt
echo "-g: $(wc -l < g-paths.txt) paths into user space, $(grep -c " main	" g-paths.txt) down to main"
[ -s g-paths.txt ] || fail "perf top -g showed no paths into user space"
! grep -q " main	" g-paths.txt || fail "perf top -g showed main: the test proves nothing"
