# Which user frames samples of execve() get with --call-graph fp,defer: chain exec
# execs itself from a known chain (main -> exec_a -> exec_b -> exec_c, a raw execve in
# exec_c). The sample of its entry (syscalls:sys_enter_execve), requested before exec
# begins, gets the old image's stack, exec_c exec_b exec_a main: exec delivers it at
# its start, before it takes cred_guard_mutex (unwind_deferred_exec_begin()), not on
# the way out with the new image's registers. The sample of its exit
# (syscalls:sys_exit_execve, the new entry context) gets the new image's stack: one
# frame, ld.so's entry point. (A sample while exec loads the new image, after it
# began, gets an empty user stack: no walk under the mutex; not timed here.)
. "$TOP/tests/lib.sh"
before=$(splats)
"$PERF" record -q -e syscalls:sys_enter_execve,syscalls:sys_exit_execve --call-graph fp,defer \
	-o perf.data -- "$BIN/chain" exec > record.out 2>&1 ||
	{ cat record.out; fail "perf record failed"; }
"$PERF" script --no-inline -i perf.data -F comm,tid,event,ip,sym,dso > script.txt 2> script.err ||
	fail "perf script failed: $(tail -n 1 script.err)"
# Per sample of chain (named exe after it execs /proc/self/exe): the event, then its
# user frames (SYM@DSO-basename)
event_user_frames script.txt 'chain|exe' > samples.txt
cat samples.txt
enter=$(grep -c '^syscalls:sys_enter_execve ' samples.txt)
exit_=$(grep -c '^syscalls:sys_exit_execve ' samples.txt)
# chain's own execve: one entry (perf's exec of chain comes before its events are
# enabled), two exits (perf's exec of chain, and chain's of itself)
[ "$enter" -eq 1 ] || fail "expected 1 sample of sys_enter_execve by chain, got $enter"
[ "$exit_" -eq 2 ] || fail "expected 2 samples of sys_exit_execve by chain (and exe), got $exit_"
grep '^syscalls:sys_enter_execve ' samples.txt |
	grep -q '^[^ ]* exec_c@chain exec_b@chain exec_a@chain main@chain' ||
	fail "the sample of execve()'s entry does not have the old image's chain exec_c exec_b exec_a main"
grep '^syscalls:sys_exit_execve ' samples.txt | while read -r ev frame more; do
	[ -z "$more" ] || fail "a sample of execve()'s exit with more than one user frame: $ev $frame $more"
	case $frame in
	*@ld-linux*) ;;
	*) fail "a sample of execve()'s exit whose user frame is not in ld.so: $frame" ;;
	esac
done || exit 1
no_new_splats "$before"
echo "PASS: execve()'s entry: the old image's chain; its exits: ld.so's entry point, one frame"
