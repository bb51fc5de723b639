# perf script without options shows deferred callchains whole: a 300-deep recursion
# (tests/prog/deep.c) recorded --call-graph fp,defer is not cut at perf's default
# 127 frames (kernel.perf_event_max_stack limits immediate callchains only). Every
# sample in the read of /dev/zero shows zero_read, 301 frames of recurse, then main.
. "$TOP/tests/lib.sh"
# perf tools behaviour (the kernel paths are covered by other tests): the default kernel only,
# to keep CI under an hour (2-3 minutes each on the debug kernel)
default_kernel_only "perf tools test"
depth=300
"$PERF" record -e cpu-clock -F 2000 --call-graph fp,defer -o perf.data "$BIN/deep" $depth 400 \
	2> record.err || fail "perf record failed: $(tail -n 1 record.err)"
! grep -i "switching" record.err || fail "perf switched deferred callchains off"
"$PERF" script -i perf.data > script.txt || fail "perf script failed"
expect_deep "$(deep_zero_report script.txt $depth)"
