# perf trace --call-graph fp,defer of the known chain: under each of its reads of
# /dev/zero perf trace prints the user frames func_c, func_b, func_a, main, not the
# cookie of a deferred callchain in their place (perf trace does not merge deferred
# callchains live: it ignores "defer" and unwinds the user stack at once). On 7.3 also
# perf trace -i of a perf trace record --call-graph fp,defer, whose perf.data the
# session merges (6.12's perf trace -i crashes on any perf.data: its tool's callbacks
# are left NULL, a 6.12 bug apart from deferred callchains).
. "$TOP/tests/lib.sh"
# perf tools behaviour: the default kernel only, to keep CI under an hour
default_kernel_only "perf tools test"
iter=200
# a byte count of its own, to tell the chain's reads from ld.so's
bytes=12345

# trace_report FILE: the reads of $bytes by chain in perf trace output FILE, their user
# frames (those not in [kernel.kallsyms]) against func_c func_b func_a main:
#   reads=R good=G bad=B cookies=C   (the first bad chains to stderr)
# C: the lines "COOKIE (cookie)" that 7.3's perf prints for a deferred callchain it did
# not merge
trace_report() {
	awk -v bytes="$bytes" '
	function done_read(   i, ok, line) {
		if (!inread) return
		inread = 0
		reads++
		ok = nu >= 4 && u[1] == "func_c" && u[2] == "func_b" && u[3] == "func_a" && u[4] == "main"
		if (ok) { good++; return }
		bad++
		if (bad > 3) return
		line = ""
		for (i = 1; i <= nu; i++) line = line " " u[i]
		print "bad chain (" nl " lines):" line > "/dev/stderr"
	}
	# a frame: indented as far as the arguments of its event line (38 columns)
	match($0, /^ */) && RLENGTH >= 20 {
		if (!inread) next
		nl++
		if ($0 ~ /\(cookie\)$/) cookies++
		if ($0 ~ /\(\[kernel\.kallsyms\]\)$/) next
		sym = $1
		sub(/\+0x[0-9a-f]+$/, "", sym)
		u[++nu] = sym
		next
	}
	{
		done_read()
		if ($0 ~ (" chain/[0-9]+ read\\(.*count: " bytes "\\)")) {
			inread = 1; nu = 0; nl = 0
		}
	}
	END { done_read(); printf "reads=%d good=%d bad=%d cookies=%d\n", reads, good, bad, cookies }' "$1"
}

# expect_trace REPORT: at least half the reads shown, every one with the whole chain
expect_trace() {
	echo "$1"
	[ "$(field reads "$1")" -ge $((iter / 2)) ] || fail "expected >= $((iter / 2)) reads, got: $1"
	[ "$(field cookies "$1")" = 0 ] || fail "the cookie in place of the user chain: $1"
	[ "$(field bad "$1")" = 0 ] || fail "reads without their user chain: $1"
}

"$PERF" trace --call-graph fp,defer -e read -o trace.txt -- "$BIN/chain" $iter $bytes \
	> trace.out 2> trace.err || fail "perf trace failed: $(tail -n 1 trace.err)"
cat trace.err
expect_trace "$(trace_report trace.txt)"

[ "${BASE:-6.12}" != 6.12 ] || exit 0
"$PERF" trace record --call-graph fp,defer -o perf.data -- "$BIN/chain" $iter $bytes \
	> record.out 2> record.err || fail "perf trace record failed: $(tail -n 1 record.err)"
"$PERF" evlist -v -i perf.data > evlist.txt
grep -q "defer_callchain: 1" evlist.txt || fail "no event with defer_callchain in perf.data"
"$PERF" trace -i perf.data -o trace-i.txt > trace-i.out 2> trace-i.err ||
	fail "perf trace -i failed: $(tail -n 1 trace-i.err)"
echo "perf trace -i:"
expect_trace "$(trace_report trace-i.txt)"
