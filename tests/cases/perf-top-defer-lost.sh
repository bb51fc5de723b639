# Records lost: perf top --call-graph fp,defer with a one-page ring buffer, stopped for
# 2 s while bench/deep runs, loses events; it goes on showing the whole user stack
# (syscalls descend*151 main, in the graphs of getppid()'s functions) of the samples
# whose record came, shows the others with their kernel part only (its count, perf top
# -v), and holds at most 4096 per thread.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perf-top.sh"
default_kernel_only "perf tools test"
deep=$(bench_deep) || fail "cannot build bench/deep"
mkfifo keys
"$deep" 150 100000000 16 > /dev/null &
pid=$!
# every callchain on its own, kernel entries only, 20 of them, as in perf-top-defer.sh;
# -d 5: perf top drops samples more than a refresh delay behind the newest, and those
# before the stop must not be dropped
COLUMNS=400 LINES=60 "$PERF" top --stdio -v -d 5 -E 20 --no-children -e cpu-clock -m 1 \
	-U --call-graph fp,defer,flat,0 -p $pid <> keys > top.out 2> top.out.err &
top=$!
sleep 4
kill -STOP $top
sleep 2
kill -CONT $top
sleep 10
kill -INT $top
wait $top || fail "perf top failed: $(tail -n 3 top.out.err)"
kill $pid
top_displays top.out
lost=$(top_displays top.out | tail -n 1 | sed 's/.*lost=//')
stats=$(top_stats top.out.err)
echo "lost: $lost; $stats"
[ "$lost" -gt 0 ] || fail "no events lost: the test proves nothing"
[ -n "$stats" ] || fail "perf top -v did not count the deferred callchains"
[ "$(field unmerged "$stats")" -gt 0 ] || fail "no samples shown without their user part: $stats"
[ "$(field merged "$stats")" -gt 0 ] || fail "no samples shown with their user part: $stats"
[ "$(field held "$stats")" -le 4096 ] || fail "more than 4096 samples held for a thread: $stats"
top_graphs top.out > graphs.txt
top_user_paths graphs.txt > all-paths.txt
cat all-paths.txt
top_getppid_paths all-paths.txt > paths.txt
[ "$(cut -f2 paths.txt | sort -u | wc -l)" -ge 2 ] ||
	fail "expected the graphs of >= 2 functions of getppid() to go into user space"
! grep -v "^syscalls descend\*151 main	" paths.txt ||
	fail "paths into user space from getppid() that are not syscalls descend*151 main"
