# userstacktrace_delay: user_unwind_stack entries carry no stale ring-buffer bytes: the
# bytes of their fixed part that no field of the event's format covers (a hole before
# the frames) are zero in trace_pipe_raw, in an instance whose ring-buffer pages were
# all filled with 0xa5 first (raw markers, then a reset, which keeps the pages' bytes)
# (tests/prog/ftraw.c).
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
a=$(ft_instance ftd-hole syscalls:sys_enter_read) || exit
trap 'ft_remove "$a"' EXIT
echo 128 > "$a/buffer_size_kb" || fail "cannot resize the buffer of $a"
"$BIN/ftraw" fill "$a" 3 || fail "cannot fill the buffer of $a"
: > "$a/trace"
ft_run "$a" -- "$BIN/chain" 30 12345 || fail "chain failed"
r=$("$BIN/ftraw" holes "$a" ftrace/user_unwind_stack) || { echo "$r"; exit 1; }
echo "$r"
n=$(echo "$r" | sed -n 's/^entries \([0-9]*\) .*/\1/p')
[ "$n" -ge 30 ] || fail "expected >= 30 stack entries (the chain's reads), got $n"
echo "$n stack entries, no stale byte in them"
