# Pipe mode: perf record --call-graph fp,defer -o - writes data that perf script and
# perf report read the same from a file and from a pipe, with the deferred callchains
# merged (every sample of tests/prog/deep in its read of /dev/zero: zero_read, 301
# frames of recurse, main); perf inject (and perf inject -b) in a pipe passes the
# records on; and perf record piped straight into perf script merges as well.
. "$TOP/tests/lib.sh"
default_kernel_only "perf tools test"
depth=300

"$PERF" record -q -e cpu-clock -F 2000 --call-graph fp,defer -o - -- "$BIN/deep" $depth 400 \
	> pipe.data 2> record.err || fail "perf record -o - failed: $(tail -n 1 record.err)"
! grep -i "switching" record.err || fail "perf switched deferred callchains off"
"$PERF" script -i pipe.data > file.txt 2> file.err || fail "perf script -i pipe.data failed"
cat pipe.data | "$PERF" script -i - > pipe.txt 2> pipe.err || fail "perf script -i - failed"
cmp -s file.txt pipe.txt || fail "perf script output differs between the file and the pipe"
echo "perf script, from the file and from the pipe:"
expect_deep "$(deep_zero_report pipe.txt $depth)"

"$PERF" report --stdio -i pipe.data > file-report.txt 2>&1 || fail "perf report -i pipe.data failed"
cat pipe.data | "$PERF" report --stdio -i - > pipe-report.txt 2>&1 || fail "perf report -i - failed"
cmp -s file-report.txt pipe-report.txt || fail "perf report output differs between the file and the pipe"
# the header rounds from 1001 on ("1K"): perf report's sample column, summed, is exact
samples=$(grep -c "cpu-clock:" file.txt)
cat pipe.data | "$PERF" report --stdio -i - --no-children -n -g none -s comm -q \
	> count.txt 2> count.err || fail "perf report -n failed: $(tail -n 1 count.err)"
reported=$(awk '$1 ~ /%$/ { n += $2 } END { print n + 0 }' count.txt)
echo "samples: perf script $samples, perf report $reported"
[ "$reported" = "$samples" ] || fail "perf report counts $reported samples, perf script $samples"
# perf report's graph (children, caller order) of deep's read of /dev/zero: main, then
# the 301 frames of recurse, then zero_read
chain=$(awk '/\[k\] read_zero/ { p = 1 } p && /^$/ { exit } p' pipe-report.txt |
	sed 's/^[ |-]*\([0-9.]*%--\)\{0,1\}-*//' | grep -v '^$' | uniq -c |
	awk '$2 == "main" || $2 == "recurse" || $2 == "zero_read" { printf "%s%s*%d", sep, $2, $1; sep = " " }')
echo "perf report, read_zero: $chain"
[ "$chain" = "main*1 recurse*$((depth + 1)) zero_read*1" ] || fail "perf report's graph of read_zero is not main, recurse*$((depth + 1)), zero_read: $chain"

"$PERF" script -i pipe.data --no-merge-callchains > records.txt 2>&1 || fail "perf script --no-merge-callchains failed"
cat pipe.data | "$PERF" inject 2> inject.err | "$PERF" script -i - > inject.txt 2>&1 ||
	fail "perf inject in a pipe failed: $(tail -n 1 inject.err)"
cmp -s file.txt inject.txt || fail "perf script output differs after perf inject in a pipe"
cat pipe.data | "$PERF" inject | "$PERF" script -i - --no-merge-callchains > inject-records.txt 2>&1
n=$(grep -c "DEFERRED CALLCHAIN" records.txt)
echo "records: $n, after perf inject: $(grep -c "DEFERRED CALLCHAIN" inject-records.txt)"
[ "$n" -gt 20 ] || fail "expected > 20 PERF_RECORD_CALLCHAIN_DEFERRED records, got $n"
cmp -s records.txt inject-records.txt || fail "perf inject in a pipe changed the records"
cat pipe.data | "$PERF" inject -b 2> inject-b.err | "$PERF" script -i - > inject-b.txt 2>&1 ||
	fail "perf inject -b in a pipe failed: $(tail -n 1 inject-b.err)"
cmp -s file.txt inject-b.txt || fail "perf script output differs after perf inject -b in a pipe"

# perf script takes its time with 300-frame stacks under TCG, perf record waits for
# the pipe meanwhile: a ring buffer the whole recording fits in, so that nothing is lost
"$PERF" record -q -e cpu-clock -F 2000 -m 16M --call-graph fp,defer -o - -- \
	"$BIN/deep" $depth 400 2> live-record.err |
	"$PERF" script -i - --show-lost-events > live.txt 2> live.err ||
	fail "perf record -o - | perf script -i - failed: $(tail -n 1 live-record.err live.err)"
echo "perf record -o - | perf script -i -:"
! grep "PERF_RECORD_LOST" live.txt || fail "events lost: the test cannot tell"
expect_deep "$(deep_zero_report live.txt $depth)"
