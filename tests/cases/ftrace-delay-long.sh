# userstacktrace_delay: many events in one long kernel entry (the page faults of one
# 4 MiB read(2) into untouched memory) give as many cookie entries, all with the
# entry's cookie, and one stack entry.
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
ft_trace ftd-long "syscalls:sys_enter_read exceptions:page_fault_kernel" 'count: (0x)?400000\)' -- \
	"$BIN/chain" 1 4194304
[ "$(field marked "$r")" = 1 ] || fail "expected the stack of the one 4 MiB read: $r"
c=$(cat a.txt.marked)
n=$(grep -c "<user stack deferred> cookie=$c\$" a.txt)
s=$(grep -c "<user stack unwind> cookie=$c " a.txt)
# the faults up to the entry's last cookie entry: faults after it are the unwinder's own
# (it reads the .eh_frame of code without frame pointers in the task's memory), which
# ask for no stack
f=$(awk -v c="$c" '/count: (0x)?400000\)/ { on = 1 } on && /page_fault_kernel/ { n++ }
	on && $0 ~ "<user stack deferred> cookie=" c "$" { last = n }
	/<user stack unwind>/ && on { print last + 0; exit }' a.txt)
echo "entry $c: $n cookie entries, $f page faults, $s stack entries"
[ "$f" -ge 500 ] || fail "expected >= 500 page faults in the read, got $f"
[ "$n" = $((f + 1)) ] || fail "expected $((f + 1)) cookie entries (faults + sys_enter_read), got $n"
[ "$s" = 1 ] || fail "expected one stack entry for cookie $c, got $s"
