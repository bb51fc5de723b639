# sframe-conv system attaches system-wide what runs: with sfattach (a copy, built
# -fomit-frame-pointer, no SFrame) running, `sframe-conv system DIR` (DIR: an empty
# directory, in place of the library directories, to keep the test short) attaches the
# files mapped executable by the running processes, sfattach's and libc's among them,
# with no failure; sfattach, never restarted, is then unwound completely (>= 95% of its
# samples in the kernel, every frame of the real chain). A second run attaches nothing
# new.
# timeout: 900
. "$TOP/tests/lib.sh"
export SFRAME_CACHE_DIR="$PWD/cache"
conv=$TOP/build/sframe-conv/sframe-conv
sframe_detach_all
mkdir empty
cp "$BIN/sfconv/sfattach" sfattach || fail "no sfattach"
sfattach_start "$PWD/sfattach"
trap 'kill $sfattach_pids 2> /dev/null; sframe_detach_all' EXIT

"$conv" system "$PWD/empty" > system.out 2>&1 || fail "sframe-conv system failed: $(cat system.out)"
cat system.out
cat /proc/sframe_files
grep -q " ok $PWD/sfattach$" /proc/sframe_files || fail "sfattach not attached"
grep -q ' ok /usr/lib/x86_64-linux-gnu/libc.so.6$' /proc/sframe_files || fail "libc not attached"
n=$(sed -n 's/^\([0-9]*\) attached,.*/\1/p' system.out)
[ "${n:-0}" -ge 2 ] || fail "expected >= 2 files attached: $(tail -n 1 system.out)"

r=$(sfattach_record system $pid $spec)
echo "after sframe-conv system: $r"
expect_exact "$r" 50 95

"$conv" system "$PWD/empty" > again.out 2>&1 || fail "second sframe-conv system failed: $(cat again.out)"
cat again.out
grep -q '^0 attached, ' again.out || fail "the second run attached again: $(cat again.out)"
