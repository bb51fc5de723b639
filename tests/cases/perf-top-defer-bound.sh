# perf top holds at most 4096 samples per thread waiting for their deferred user stack:
# dd reads 64 MiB from /dev/zero into a buffer it has not touched, in one read(2), so
# one kernel entry takes a page fault in the kernel for each of its 16384 pages;
# sampled at each (-e page-faults:k -c 1), perf top holds 4096 of them, shows the
# others with their kernel part only, and the 4096 with the user part the entry's
# record brings when the read returns (the refresh delay, 5 s, is not over by then).
. "$TOP/tests/lib.sh"
. "$TOP/tests/perf-top.sh"
default_kernel_only "perf tools test"
mkfifo gate
sh -c 'read x < gate; exec dd if=/dev/zero of=/dev/null bs=64M count=1' 2> dd.err &
pid=$!
top_run top.out 15 -v -d 5 -E 10 --no-children -e page-faults:k -c 1 -m 4096 \
	--call-graph fp,defer -p $pid &
top=$!
# Not a synchronisation: only past perf top's start up, for its samples to be there
sleep 4
echo go > gate
wait $pid || fail "dd failed: $(cat dd.err)"
wait $top || exit 1
cat dd.err
top_displays top.out | tail -n 3
stats=$(top_stats top.out.err)
echo "$stats"
lost=$(top_displays top.out | tail -n 1 | sed 's/.*lost=//')
[ "$lost" = 0 ] || fail "$lost events lost"
merged=$(field merged "$stats") unmerged=$(field unmerged "$stats")
[ "$(field held "$stats")" = 4096 ] || fail "expected at most and exactly 4096 samples held, got: $stats"
# (dd may have touched a few pages of the buffer before the read: a few less)
[ $((merged + unmerged)) -ge $((16384 - 16)) ] ||
	fail "expected >= 16368 page faults in the kernel, got: $stats"
# 4096 of the read, and those of other kernel entries (exec, exit)
[ "$merged" -ge 4096 ] && [ "$merged" -lt 4200 ] || fail "expected 4096 and a few more samples merged, got: $stats"
# the read's faults beyond the 4096 held (a few less, as above)
[ "$unmerged" -ge $((16384 - 4096 - 16)) ] ||
	fail "expected >= 12272 samples without their user part, got: $stats"
top_graphs top.out > graphs.txt
cut -c 1-300 graphs.txt
top_user_paths graphs.txt > paths.txt
cat paths.txt
[ -s paths.txt ] || fail "no graph of a kernel function goes into user space"
