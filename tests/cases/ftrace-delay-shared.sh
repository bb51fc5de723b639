# perf record --call-graph fp,defer and two trace instances with userstacktrace_delay on
# one run of the known chain share one unwind per kernel entry: the unwind counter grows
# by the number of distinct cookies that perf's samples and records and the instances'
# entries name, and perf's records and both instances' stacks with the same cookie hold
# the same frames.
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
[ -r /sys/kernel/debug/unwind_deferred_test/ctl ] || skip "no unwind_deferred test interface"
a=$(ft_instance ftd-shared-a syscalls:sys_enter_read syscalls:sys_exit_read) || exit
b=$(ft_instance ftd-shared-b syscalls:sys_enter_read) || { ft_remove "$a"; exit 1; }
trap 'ft_remove "$a" "$b"' EXIT
u0=$(ft_unwinds)
"$PERF" record -q -e cpu-clock -F 2000 --call-graph fp,defer -o perf.data -- \
	sh -c 'for d in "$@"; do echo $$ > $d/set_event_pid; done; exec "$0" 100' \
	"$BIN/chain" "$a" "$b" 2> record.err || fail "perf record failed: $(tail -n 1 record.err)"
u1=$(ft_unwinds)
grep -i "lost\|switching" record.err && fail "perf lost records or switched deferral off"
cat "$a/trace" > a.txt
cat "$b/trace" > b.txt
for t in a b; do
	r=$(ft_check $t.txt)
	echo "$t: $r"
	[ "$(field bad "$r")" = 0 ] || fail "instance $t: cookie and stack entries out of order: $r"
done
"$PERF" report -D -i perf.data > dump.txt 2> /dev/null || fail "perf report -D failed"
# perf: cookies of the samples, and the frames of each deferred record. The series'
# perf labels the cookie ("... (cookie)", "cookie: 0x..."); 7.3's own perf (BASE=7.3)
# gives it after the marker's line and at the end of the record's line, then its frames
# after an "FP chain" line.
awk '/ \(cookie\)$/ { print $3 } /\(PERF_CONTEXT_USER_DEFERRED\)$/ { getline; print $3 }' dump.txt |
	sed 's/^0*//' | sort -u > perf-samples.txt
awk '/PERF_RECORD_CALLCHAIN_DEFERRED/ { c = $0; n = 0
		if (c ~ /cookie: 0x/) { sub(/.*cookie: 0x/, "", c); sub(/ .*/, "", c) } else sub(/.*: 0x/, "", c)
		next }
	c != "" && /^\.\.\. FP chain: / { next }
	c != "" && /^\.\.\.\.\. *[0-9]+: / { ip = $3; sub(/^0*/, "", ip); print c, n++, ip; next }
	{ c = "" }' dump.txt > perf-frames.txt
for t in a b; do
	awk 'NF == 4 { ip = $3; sub(/^0x/, "", ip); print $1, $2, ip }' $t.txt.frames > $t-frames.txt
	grep -o "<user stack deferred> cookie=[0-9a-f]*" $t.txt | sed 's/.*=//' > $t-cookies.txt
done
cut -d' ' -f1 perf-frames.txt a-frames.txt b-frames.txt | cat - perf-samples.txt a-cookies.txt \
	b-cookies.txt | sort -u > all.txt
n=$(wc -l < all.txt)
echo "unwinds $u0 -> $u1, distinct cookies $n (perf samples $(wc -l < perf-samples.txt)," \
	"records $(cut -d' ' -f1 perf-frames.txt | sort -u | wc -l))"
[ "$n" -ge 100 ] || fail "expected >= 100 kernel entries with a cookie, got $n"
[ $((u1 - u0)) = "$n" ] || fail "expected $n unwinds (one per entry), got $((u1 - u0))"
for t in a b; do
	cut -d' ' -f1 perf-frames.txt | sort -u > p.txt
	cut -d' ' -f1 $t-frames.txt | sort -u > f.txt
	common=$(comm -12 p.txt f.txt | wc -l)
	echo "$t: $common cookies in both perf records and the instance"
	[ "$common" -ge 5 ] || fail "expected >= 5 cookies in perf and instance $t, got $common"
	# every frame of a common cookie is the same
	awk 'NR == FNR { p[$1, $2] = $3; pc[$1] = 1; next } ($1 in pc) {
		if (p[$1, $2] != $3) { print "cookie " $1 " frame " $2 ": perf " p[$1, $2] ", ftrace " $3; bad++ } }
		END { exit bad > 0 }' perf-frames.txt $t-frames.txt || fail "perf and instance $t differ"
	awk 'NR == FNR { n[$1]++; next } { m[$1]++ } END { for (c in m) if ((c in n) && n[c] != m[c]) {
		print "cookie " c ": perf " n[c] " frames, ftrace " m[c]; bad++ } exit bad > 0 }' \
		perf-frames.txt $t-frames.txt || fail "perf and instance $t: frame counts differ"
done
