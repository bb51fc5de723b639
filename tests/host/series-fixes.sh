# Every fix of mainline code carries a Fixes: tag. The series of new features (the
# unwinder's SFrame and .eh_frame support, registration, compat unwinding; on 6.12 the
# backports of mainline's unwinder and perf tools) are not fixes; in the others (perf
# fixes, the unwinder, perf's deferred callchains, perf tools on 7.3, tracing) each
# patch either has a Fixes: tag or is listed below as a change that fixes nothing
# mainline has, with the reason a reviewer can check. A new patch of those series must
# be one or the other.
# timeout: 30
. "$TOP/tests/lib.sh"
# subject|why it is no fix
not_fixes='unwind_user/x86: Recognise a topmost frame without its frame pointer|a new arch hook: a frame pointer walk cannot know a frame not set up yet
unwind_deferred: Tell a tracer whether its callback has run|a helper the late sample fix needs (its Cc: stable names it)
unwind_deferred: Give a tracer the user stack unwound in this entry|a helper the exec and late sample fixes need (their Cc: stable names it)
perf: Copy a deferred callchain'"'"'s entries to the buffer at once|speed: the record is byte-identical
selftests/perf_events: Add a test of deferred user callchains|a test
perf tools: Let live tools hold deferred callchain samples|for perf top --call-graph fp,defer (the next patch)
perf top: Support --call-graph fp,defer|a new feature
perf test: Add tests for deferred callchains|a test
unwind_deferred: Tell tracers when the task is in the deferred unwind|an interface for the ftrace consumer
tracing: Add the user_unwind_cookie and user_unwind_stack entries|a new feature
tracing: Look up the file and file offset of user stack frames|a new feature
tracing: Add userstacktrace_delay for deferred user stack traces|a new feature'
subject() { # the whole Subject header, without its [PATCH] prefix
	awk -f "$TOP/scripts/patch-subject.awk" "$1"
}
bad= n=0 tagged=0 listed=0
for b in 6.12 7.3; do
	case $b in
	6.12) p=$TOP/patches features='00-backport 04-perf-tools 06-x86-compat 08-sframe 09-sframe-register 10-eh-frame' ;;
	*) p=$TOP/patches-7.3 features='06-x86-compat 08-sframe 09-sframe-register 10-eh-frame' ;;
	esac
	for f in $(grep -v '^#' "$p/series"); do
		case " $features " in *" ${f%%/*} "*) continue ;; esac
		n=$((n + 1))
		if grep -q '^Fixes: [0-9a-f]\{12\} ("' "$p/$f"; then tagged=$((tagged + 1)); continue; fi
		s=$(subject "$p/$f")
		why=$(printf '%s\n' "$not_fixes" | awk -F'|' -v s="$s" '$1 == s { print $2 }')
		if [ -n "$why" ]; then
			listed=$((listed + 1)); echo "no fix: $b $f ($why)"
		else
			bad="$bad
  $b $f: $s"
		fi
	done
done
[ "$n" -gt 0 ] || fail "no patches of fix series found"
[ -z "$bad" ] || fail "patches of fix series with neither Fixes: nor a reason:$bad"
echo "PASS: $n patches of fix series: $tagged with Fixes:, $listed listed as no fix"
