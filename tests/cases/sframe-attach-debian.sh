# Programs Debian ships, built with neither frame pointers nor SFrame, already running
# when their files get sections: python3 (a pure-Python loop) and xz (compressing) are
# started first and profiled system-wide (perf record -a --call-graph fp,defer, no
# LD_AUDIT anywhere), then `sframe-conv system` attaches sections to the files the
# running processes map, and they are profiled again, with one more xz started after
# the attachment: each of the three then has >= 95% of its samples with a user stack
# that reaches an outermost frame (_start, __libc_start_*, start_thread, clone*; before
# the attachment the fraction is printed, not checked). libc, mapped by all of them, has
# one attachment. Printed for the README: the time of `sframe-conv system` with a cold
# and a warm cache, and the kernel memory of the attachments. (The exact frames are
# checked by sframe-attach with a program of the test suite.)
# timeout: 900
. "$TOP/tests/lib.sh"
default_kernel_only "heavy suite (sframe-attach-system and sfconv-* attach under the debug kernel)"
sframe_detach_all
export SFRAME_CACHE_DIR="$PWD/cache"
conv=$TOP/build/sframe-conv/sframe-conv
command -v python3 > /dev/null && command -v xz > /dev/null || skip "no python3 or xz"
mkdir empty
pids=
trap 'kill $pids 2> /dev/null; sframe_detach_all' EXIT
python3 -c '
def f(n):
    return sum(i * i for i in range(n))
while True:
    f(1000)
' &
py=$! pids="$pids $py"
xz -1 -T1 -c < /dev/urandom > /dev/null &
xz1=$! pids="$pids $xz1"
sleep 1

# record NAME PID...: 2 s of the whole system (1 s at a quarter of the rate on the
# debug kernel, where perf script takes minutes of thousands of samples); the report
# of PIDs
record() {
	defer_record $1 -a -F $(per_flavour 1000 250) -- sleep $(per_flavour 2 1)
	shift
	outermost_report $name.txt "$@"
}

record before $py $xz1 > before.rep
echo "before the attachment:"
cat before.rep

t0=$(date +%s%N)
"$conv" system "$PWD/empty" > cold.out 2>&1 || fail "sframe-conv system: $(cat cold.out)"
t1=$(date +%s%N)
"$conv" system "$PWD/empty" > warm.out 2>&1 || fail "sframe-conv system again: $(cat warm.out)"
t2=$(date +%s%N)
echo "sframe-conv system, cold cache: $(( (t1 - t0) / 1000000 )) ms: $(tail -n 1 cold.out)"
echo "again, warm cache: $(( (t2 - t1) / 1000000 )) ms: $(tail -n 1 warm.out)"
echo "attachments: $(wc -l < /proc/sframe_files) files, $(cat /proc/sys/kernel/sframe_attach_bytes) bytes"

libcs=$(grep -c '/libc\.so\.6$' /proc/sframe_files)
maps=$(grep -l '/libc\.so\.6$' /proc/[0-9]*/maps 2> /dev/null | wc -l)
echo "libc: $libcs attachment, mapped by $maps processes"
[ "$libcs" = 1 ] || fail "expected one attachment of libc, got $libcs"
[ "$maps" -ge 3 ] || fail "expected libc mapped by >= 3 processes, got $maps"

xz -1 -T1 -c < /dev/urandom > /dev/null &
xz2=$! pids="$pids $xz2"
sleep 1
record after $py $xz1 $xz2 > after.rep
echo "after sframe-conv system:"
cat after.rep
while read -r line; do
	n=$(field samples "$line") k=$(field complete "$line")
	[ "$n" -ge 50 ] || fail "too few samples: $line"
	[ $((k * 100)) -ge $((95 * n)) ] || fail "fewer than 95% complete: $line"
done < after.rep
echo "PASS: >= 95% of the samples of python3, xz and a later xz reach an outermost frame"
