# userstacktrace_delay: an event after the instance's callback in the same kernel entry
# (signal_deliver: the signal is handled after the task work) gets the entry's stack
# (the unwinder's cache, same cookie, same addresses) and no cookie entry; events of the
# callback's own work (its allocations: kmem events) ask for no stack at all: no cookie
# entry after them, and no late stack but those after signal_deliver.
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
ft_trace ftd-late "signal:signal_generate signal:signal_deliver kmem:kmalloc kmem:kmem_cache_alloc" \
	'signal_generate: sig=10 ' -- "$BIN/ftdelay" signal 20
[ "$(field marked "$r")" = 20 ] || fail "expected 20 stacks of entries sending SIGUSR1: $r"
# late stacks come after events that follow the callback: 20 signal_deliver, maybe
# allocations of the signal delivery, never the callback's own allocations
d=$(grep -c "^signal_deliver: sig=10 " a.txt.late)
[ "$d" = 20 ] || fail "expected 20 late stacks after signal_deliver, got $d: $r"
# each late stack repeats the addresses of its entry's stack
awk '$2 == "late" { late[$1, $3] = $4; nl[$1]++; next } { ip[$1, $2] = $3; n[$1]++ }
	END { for (k in late) if (late[k] != ip[k]) { print "differs: " k; bad++ }
	      for (c in nl) if (nl[c] % n[c]) { print "frames " c ": " nl[c] " vs " n[c]; bad++ }
	      exit bad > 0 }' a.txt.frames || fail "late stacks differ from their entry's stack"
own=$(grep -c "call_site=user_unwind" a.txt)
[ "$own" -ge 20 ] || fail "expected the callback's allocations in the trace, got $own"
grep -A1 "call_site=user_unwind" a.txt | grep "<user stack deferred>" &&
	fail "the callback's own events asked for a stack"
grep "call_site=user_unwind" a.txt.late && fail "the callback's own events got a stack"
sed "s/:.*//" a.txt.late | sort | uniq -c
echo "20 late stacks after signal_deliver; $own own allocations without a stack"
