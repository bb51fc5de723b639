# userstacktrace_delay in the window where the task ends its entry context (after the
# callbacks, before it is back in user space; only NMIs reach it otherwise): the
# unwinder refuses requests there (-EBUSY), so no deferred stack could follow a cookie.
# The event gets its user stack walked right away, as perf's samples do: a stack entry
# with cookie 0 right after it. The test interface fires sched_kthread_stop_ret (ret
# -16) at the reset of an entry in which its tracer 0 asked for an unwind, and asks
# again for tracer 0 there (refused: its first_ret is -16).
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
ctl=/sys/kernel/debug/unwind_deferred_test/ctl
[ -w $ctl ] || skip "no unwind_deferred test interface"
before=$(splats)
a=$(ft_instance ftd-reset sched:sched_kthread_stop_ret) || exit
cleanup() {
	echo "cancel 0" > $ctl
	ft_remove "$a"
}
trap cleanup EXIT
echo "init 0" > $ctl || fail "cannot register test tracer 0"
# this shell's events only; its writes to ctl are its own system calls (echo is built in)
echo $$ > "$a/set_event_pid"
echo "inject reset 101" > $ctl || fail "cannot arm the reset injection"
echo "request 1 1" > $ctl || fail "cannot request for tracer 0"
echo 0 > "$a/events/enable"
cat "$a/trace" > a.txt
grep -v '^#' a.txt
fired=$(awk '$1 == "inject" && $2 == "fired" { print $3 }' $ctl)
[ "$fired" = 1 ] || fail "the injection fired $fired times, not once"
first=$(awk '$1 == "tracer" && $2 == 0 { for (i = 3; i < NF; i++) if ($i == "first_ret") print $(i + 1) }' $ctl)
[ "$first" = -16 ] || fail "tracer 0's request at the reset returned $first, not -EBUSY"
# the event, then its stack: cookie 0, at least the user IP, user addresses
awk '/^#/ { next }
	/sched_kthread_stop_ret: ret=-16/ { ev++; want = 1; next }
	want && /<user stack unwind> cookie=0 frames=/ { st++; want = 0; inst = 1; next }
	inst && /^ => / { if ($2 ~ /^0x[0-7][0-9a-f]*$/ && length($2) <= 14) nf++; else bad++; next }
	{ want = 0; inst = 0 }
	END { print ev + 0, st + 0, nf + 0, bad + 0 }' a.txt > counts
read -r ev st nf bad < counts
echo "events $ev, stacks with cookie 0 right after them $st, user frames $nf, others $bad"
[ "$ev" = 1 ] || fail "$ev sched_kthread_stop_ret events, not 1"
[ "$st" = 1 ] || fail "the event in the reset window got no stack with cookie 0 right after it"
[ "$nf" -ge 1 ] && [ "$bad" = 0 ] || fail "its stack has $nf user frames and $bad others"
grep -q '<user stack deferred>' a.txt && fail "a cookie entry in the trace: no stack follows it"
no_new_splats "$before"
echo "PASS: the event in the reset window: its stack walked right away, cookie 0, $nf frames"
