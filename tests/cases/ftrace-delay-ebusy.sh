# Every trace instance that sets userstacktrace_delay is a tracer of the deferred
# unwinder: once all tracer slots are taken (the test interface's "hog"), setting the
# option fails with EBUSY and leaves it off; removing an instance that has a slot lets
# another instance take it; clearing the option keeps the slot.
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
ctl=/sys/kernel/debug/unwind_deferred_test/ctl
[ -w $ctl ] || skip "no unwind_deferred test interface"
[ -f "$TRACEFS/options/userstacktrace_delay" ] || skip "no userstacktrace_delay option"
a=$TRACEFS/instances/ftd-busy-a b=$TRACEFS/instances/ftd-busy-b
cleanup() {
	echo unhog > $ctl
	for d in "$a" "$b"; do [ -d "$d" ] && rmdir "$d"; done
}
trap cleanup EXIT
mkdir "$a" "$b" || fail "cannot create instances"
/bin/echo 1 > "$a/options/userstacktrace_delay" || fail "cannot set the option in $a"
echo 0 > "$a/options/userstacktrace_delay"
echo hog > $ctl
hog=$(awk '$1 == "hog" { print $2 }' $ctl)
echo "hogged $hog free tracer slots"
[ "$hog" -ge 50 ] || fail "expected >= 50 free tracer slots, got $hog"
/bin/echo 1 > "$a/options/userstacktrace_delay" || fail "the option cleared and set again needs a new slot"
if /bin/echo 1 > "$b/options/userstacktrace_delay" 2> err.txt; then
	fail "the option was set with no tracer slot left"
fi
grep -q "Device or resource busy" err.txt || fail "expected EBUSY, got: $(cat err.txt)"
[ "$(cat "$b/options/userstacktrace_delay")" = 0 ] || fail "the option is set after EBUSY"
rmdir "$a" || fail "cannot remove an instance with the option set"
/bin/echo 1 > "$b/options/userstacktrace_delay" || fail "no slot after an instance was removed"
echo "EBUSY with no slot left; a removed instance's slot taken by another"
