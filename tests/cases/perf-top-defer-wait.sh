# A sample whose thread stays in the kernel is shown with its kernel part, at most one
# display refresh after it was taken: sleep 600, sampled when it blocks (sched_switch,
# only sleep's), cannot get its user stack recorded (before it returns to user space)
# during the test. perf top counts its samples (those of its start, which return, and
# that one, the last), and shows that one, without user frames under the system call
# entry, in the display that counts it or the next one; the others with their user part.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perf-top.sh"
default_kernel_only "perf tools test"
[ -d /sys/kernel/tracing/events/sched/sched_switch ] || skip "no sched:sched_switch tracepoint"
mkfifo gate
sh -c 'read x < gate; exec sleep 600' &
pid=$!
top_run top.out 12 -v -d 1 -E 10 --no-children --sort sym -e sched:sched_switch \
	--filter 'prev_comm == "sleep"' --call-graph fp,defer,flat -p $pid &
top=$!
# Not a synchronisation: sleep blocks whenever it does; only past perf top's start up,
# so that a few displays come before
sleep 4
echo go > gate
wait $top || exit 1
kill -0 $pid || fail "sleep 600 returned: the test proves nothing"
kill $pid
top_displays top.out | tee displays.txt
stats=$(top_stats top.out.err)
echo "$stats"
[ "$(field unmerged "$stats")" = 1 ] || fail "expected one sample without its user part, got: $stats"
# the display that counted the last sample, the first that shows it
counted=$(awk '$2 != "irqs=0" { n = $1 } END { print n }' displays.txt)
[ -n "$counted" ] || fail "perf top counted no sample"
shown=
for n in $(cut -d' ' -f1 displays.txt); do
	top_graphs top.out $n > graphs.$n
	if grep -q " do_nanosleep .* entry_SYSCALL_64_after_hwframe$" graphs.$n; then
		shown=$n
		break
	fi
done
if [ -z "$shown" ]; then
	top_graphs top.out
	tail -n 40 top.out
	fail "no display shows sleep's sample in clock_nanosleep without user frames"
fi
echo "the last sample is counted in display $counted, shown in display $shown:"
grep " do_nanosleep " graphs.$shown
[ "$shown" -le $((counted + 1)) ] || fail "shown $((shown - counted)) displays after it was counted"
