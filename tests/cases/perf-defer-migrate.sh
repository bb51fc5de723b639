# Where the deferred record of a task that moved to another CPU goes: chain migrate
# pins itself to CPU 0, then moves to CPU 1 and back N times by sched_setaffinity() from
# a known chain (main -> mig_a -> mig_b -> to_cpu1 | to_cpu0). A sample of the call's
# entry (syscalls:sys_enter_sched_setaffinity) is taken on the CPU the call enters on;
# the task work that writes its PERF_RECORD_CALLCHAIN_DEFERRED runs on the way out, on
# the CPU the call moved the task to, and writes it to that CPU's side-band events, as
# mmap and comm records are ("perf: Write deferred callchain records to CPU-wide
# events"). perf record -a gets every record, and so does perf record -C 0, whose
# side-band event (dummy:u, defer_output) perf opens on every CPU because tasks
# migrate: each of the CPU 0 samples of the calls to CPU 1 gets its record from CPU 1,
# and perf script merges the whole chain into every sample. (A consumer of the system
# call that opens events on CPU 0 only would not get those records, as it gets no mmap
# record of a task on CPU 1: that patch's message.) chain is not perf's workload (perf
# would follow a workload with a task-bound event): perf records system-wide, enabled
# through its control FIFO before chain starts.
. "$TOP/tests/lib.sh"
[ "$(nproc)" -ge 2 ] || skip "one CPU"
n=20
before=$(splats)
record() { # NAME PERF-RECORD-OPTIONS...: samples of chain in NAME.samples
	name=$1
	shift
	rm -f ctl ack
	mkfifo ctl ack
	exec 3<>ctl 4<>ack
	"$PERF" record -q -D -1 --control fd:3,4 "$@" \
		-e syscalls:sys_enter_sched_setaffinity --call-graph fp,defer \
		-o "$name.data" > "$name.out" 2>&1 &
	perf_pid=$!
	# a failure below leaves no system-wide perf running into the next tests
	trap 'kill "$perf_pid" 2> /dev/null' EXIT
	echo enable >&3
	answer=$(timeout 60 head -n 1 <&4) || fail "perf record $*: no answer to enable"
	[ "$answer" = ack ] || fail "perf record $*: '$answer' to enable"
	"$BIN/chain" migrate "$n" || fail "chain migrate failed"
	echo stop >&3
	wait "$perf_pid" || { cat "$name.out"; fail "perf record $* failed"; }
	trap - EXIT
	exec 3>&- 4>&-
	"$PERF" script --no-inline -i "$name.data" -F comm,tid,event,ip,sym,dso > "$name.txt" 2> "$name.err" ||
		fail "perf script of the $name recording failed: $(tail -n 1 "$name.err")"
	event_user_frames "$name.txt" chain > "$name.samples"
	echo "$name: $(wc -l < "$name.samples") samples; by their user frames:"
	sort "$name.samples" | uniq -c
}
record all -a
want1="syscalls:sys_enter_sched_setaffinity to_cpu1@chain mig_b@chain mig_a@chain main@chain"
want0="syscalls:sys_enter_sched_setaffinity to_cpu0@chain mig_b@chain mig_a@chain main@chain"
c1=$(grep -c "^$want1 " all.samples || true)
c0=$(grep -c "^$want0 " all.samples || true)
[ "$c1" -eq "$n" ] || fail "-a: $c1 of the $n calls to CPU 1 with the whole chain"
[ "$c0" -eq $((n + 1)) ] || fail "-a: $c0 of the $((n + 1)) calls to CPU 0 with the whole chain"
[ "$(wc -l < all.samples)" -eq $((2 * n + 1)) ] || fail "-a: samples other than the calls"

record cpu0 -C 0
# the calls to CPU 1 (entered on CPU 0), and the first call to CPU 0 if chain started there
total=$(wc -l < cpu0.samples)
c1=$(grep -c "^$want1 " cpu0.samples || true)
c0=$(grep -c "^$want0 " cpu0.samples || true)
[ "$c1" -eq "$n" ] || fail "-C 0: $c1 of the $n calls to CPU 1 with the whole chain"
[ "$c0" -le 1 ] && [ $((c1 + c0)) -eq "$total" ] ||
	fail "-C 0: $total samples, not the $n calls to CPU 1 (and the first to CPU 0)"
# the records of those calls were written on CPU 1: "CPU TIME OFFSET [SIZE]:
# PERF_RECORD_CALLCHAIN_DEFERRED(...): PID/TID: ..." in perf script -D
tid=$(awk '$1 == "chain" { print $2; exit }' cpu0.txt)
"$PERF" script -D -i cpu0.data 2> /dev/null |
	awk -v t=" $tid/$tid:" '/PERF_RECORD_CALLCHAIN_DEFERRED/ && index($0, t) { print $1 }' |
	sort | uniq -c > cpu0.records
echo "cpu0: chain's records by CPU:"
cat cpu0.records
on1=$(awk '$2 == 1 { print $1 }' cpu0.records)
[ "${on1:-0}" -eq "$n" ] || fail "-C 0: ${on1:-0} of chain's records written on CPU 1, not $n"
no_new_splats "$before"
echo "PASS: -a and -C 0: each sample with its record, those of the $n calls that left CPU 0 from CPU 1"
