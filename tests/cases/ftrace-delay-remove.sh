# Removing a trace instance never waits on a traced task: ftdelay's main thread makes
# a traced system call while another thread of it holds its mmap lock for 30 s (the
# test interface's mmap_hold). Its deferred stack is recorded before it returns (the
# addresses, without file names: the callback does not wait for the lock), and the
# instance is removed well within 10 s, while the lock is still held.
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
[ -w /sys/kernel/debug/unwind_deferred_test/ctl ] || skip "no unwind_deferred test interface"
a=$(ft_instance ftd-remove syscalls:sys_enter_getppid) || exit
ft_run "$a" -- "$BIN/ftdelay" blocked 30000 > out.txt 2>&1 &
pid=$!
trap 'kill $pid 2> /dev/null; ft_remove "$a"' EXIT
# Wait (at most 10 s) until the lock is held and the traced call was made
i=0
until grep -q holding out.txt; do
	[ $i -lt 100 ] || fail "ftdelay never held its mmap lock: $(cat out.txt)"
	i=$((i + 1)); sleep 0.1
done
sleep 1
echo "ftdelay: $(tr '\n' ' ' < out.txt)"
start=$(date +%s)
echo 0 > "$a/events/enable"
timeout -k 1 10 rmdir "$a" || fail "removing the instance failed or took more than 10 s"
echo "instance removed in $(($(date +%s) - start)) s"
grep -q returned out.txt || fail "the traced task did not return from its system call while the lock was held"
