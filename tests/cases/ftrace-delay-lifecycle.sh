# userstacktrace_delay lifecycle: trace instances with the option are created, toggled
# and removed in a loop while a multithreaded program forks, execs and exits, its events
# (and its children's) traced; then it is killed. The harness checks the kernel log;
# with kmemleak (debug kernel) nothing allocated meanwhile is leaked.
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
[ -f "$TRACEFS/options/userstacktrace_delay" ] || skip "no userstacktrace_delay option"
kml=/sys/kernel/debug/kmemleak
leakcheck=0
if [ -w $kml ] && echo scan > $kml 2> /dev/null; then
	leakcheck=1
	echo clear > $kml	# what is unreferenced now is not this test's
	echo "kmemleak: scanned and cleared"
fi
events="sched:sched_process_fork sched:sched_process_exec sched:sched_switch
	syscalls:sys_enter_read syscalls:sys_exit_execve signal:signal_deliver"
cleanup() {
	kill "$pid" 2> /dev/null
	for d in "$TRACEFS"/instances/ftd-life-*; do ft_remove "$d"; done
}
"$BIN/ftdelay" churn 3600 2 &
pid=$!
trap cleanup EXIT
made=0 removed=0 toggled=0
for i in 1 2 3 4 5 6; do
	d=$TRACEFS/instances/ftd-life-$((i % 3))
	if [ -d "$d" ]; then
		if [ $((i % 2)) = 0 ]; then
			echo 0 > "$d/options/userstacktrace_delay"
			cat "$d/trace" > /dev/null
			echo 1 > "$d/options/userstacktrace_delay" || fail "cannot set the option again"
			toggled=$((toggled + 1))
		fi
		rmdir "$d" || fail "cannot remove $d"
		removed=$((removed + 1))
	else
		mkdir "$d" || fail "cannot create $d"
		echo 256 > "$d/buffer_size_kb"
		echo "$pid" > "$d/set_event_pid"
		echo 1 > "$d/options/event-fork"
		echo 1 > "$d/options/userstacktrace_delay" || fail "cannot set the option in $d"
		for e in $events; do echo 1 > "$d/events/${e%%:*}/${e#*:}/enable"; done
		made=$((made + 1))
	fi
	kill -0 "$pid" || fail "ftdelay churn ended early"
	echo "round $i: $made made, $toggled toggled, $removed removed"
done
kill "$pid"
wait "$pid"
trap - EXIT
cleanup
echo "$made instances made, $toggled toggled, $removed removed while ftdelay churned"
[ $leakcheck = 1 ] || { echo "no kmemleak: leaks not checked"; exit 0; }
# kmemleak reports objects unreferenced for 5 s or more
sleep 6
echo scan > $kml
cat $kml > leaks.txt
if [ -s leaks.txt ]; then
	head -n 40 leaks.txt
	fail "kmemleak: $(grep -c 'unreferenced object' leaks.txt) new leaks"
fi
echo "kmemleak: no new leaks"
