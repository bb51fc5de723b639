# perf record --call-graph fp,defer blames an EINVAL on missing deferred callchain support
# only when the kernel rejects the bit itself (probed on its own): here, where the kernel
# has it, an event the kernel refuses for another reason (a period with bit 63 set) is
# not reported as "no deferred callchain support".
. "$TOP/tests/lib.sh"
"$PERF" record -c 9223372036854775808 -e cpu-clock --call-graph fp,defer -o perf.data true \
	> record.out 2>&1 && fail "perf record with period 2^63 succeeded"
cat record.out
grep -qi "deferred callchain" record.out && fail "perf blamed the failure on deferred callchains"
grep -qi "invalid" record.out || fail "perf did not report the invalid event"
# and the same event with a valid period records with deferred callchains
"$PERF" record -c 100000 -e cpu-clock --call-graph fp,defer -o perf.data true > record.out 2>&1 ||
	fail "perf record failed: $(tail -n 1 record.out)"
grep -qi "deferred callchain" record.out && fail "perf switched deferred callchains off: $(cat record.out)"
"$PERF" evlist -v -i perf.data | grep -q "defer_callchain: 1" || fail "no defer_callchain in perf.data"
echo "the invalid period reported as such, deferred callchains kept"
