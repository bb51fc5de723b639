# trace-cmd records with userstacktrace_delay (in an instance): trace-cmd report parses
# the cookie and stack entries with the formats the kernel exports under events/ftrace/:
# each cookie of the chain's reads has its stack, with the addresses of its frames.
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
default_kernel_only "trace-cmd test"
command -v trace-cmd > /dev/null || skip "no trace-cmd"
[ -f "$TRACEFS/events/ftrace/user_unwind_stack/format" ] || fail "no user_unwind_stack format"
cat "$TRACEFS/events/ftrace/user_unwind_cookie/format" "$TRACEFS/events/ftrace/user_unwind_stack/format"
trace-cmd record -q -B ftd-tc -e syscalls:sys_enter_read -O userstacktrace_delay -F \
	-o trace.dat "$BIN/chain" 10 12345 > record.txt 2>&1 || { cat record.txt; fail "trace-cmd record failed"; }
echo "top level userstacktrace_delay after trace-cmd: $(cat "$TRACEFS/options/userstacktrace_delay")"
trace-cmd report -i trace.dat > report.txt 2> report.err || fail "trace-cmd report failed"
grep -m 6 "user_unwind" report.txt
grep -q "FAILED TO PARSE" report.txt && fail "trace-cmd could not parse an entry"
grep -o "user_unwind_cookie: *cookie=[0-9a-f]*" report.txt | sed 's/.*=//' | sort -u > cookies.txt
grep "user_unwind_stack: *cookie=" report.txt | sed 's/.*cookie=\([0-9a-f]*\) .* nr=\([0-9]*\) ips=\(.*\)/\1 \2 \3/' > stacks.txt
[ "$(wc -l < cookies.txt)" -ge 10 ] || fail "expected >= 10 cookies, got $(wc -l < cookies.txt)"
cut -d' ' -f1 stacks.txt | sort -u > stacked.txt
cmp -s cookies.txt stacked.txt || fail "cookies without a stack (or stacks without a cookie)"
awk '{ if (NF - 2 != $2) { print "not nr addresses: " $0; bad++ } if ($2 >= 4) long++ }
	END { exit bad > 0 || long < 10 }' stacks.txt || fail "stack entries without their addresses"
echo "$(wc -l < cookies.txt) cookies, each with a stack in trace-cmd report"
