# An attachment belongs to the file it was made for (PR_SFRAME_FILE), with libc's file
# attached throughout:
#  - replaced as package managers do (a new file renamed over it): a process started
#    from the old file before the rename is still unwound with the attachment (>= 95% of
#    its samples complete), one started from the new file is not (fewer than half);
#    /proc/sframe_files says "unlinked" until the old process exits, then forgets it;
#  - changed in place after the attachment (appended to): a process started from it is
#    not unwound with it, and the listing says "changed";
#  - past kernel.sframe_attach_max_bytes an attachment fails with ENOSPC.
# timeout: 900
. "$TOP/tests/lib.sh"
default_kernel_only "heavy suite (sframe-attach-system and sfconv-* attach under the debug kernel)"
export SFRAME_CACHE_DIR="$PWD/cache"
conv=$TOP/build/sframe-conv/sframe-conv
libc=/lib/x86_64-linux-gnu/libc.so.6
max=$(cat /proc/sys/kernel/sframe_attach_max_bytes)
sframe_detach_all
cp "$BIN/sfconv/sfattach" old || fail "no sfattach"
cp "$BIN/sfconv/sfattach" inplace
trap 'kill $sfattach_pids 2> /dev/null; echo $max > /proc/sys/kernel/sframe_attach_max_bytes
	"$conv" detach "$PWD/old" "$PWD/inplace" "$libc" > /dev/null 2>&1' EXIT

# Past the limit: ENOSPC
echo 1000 > /proc/sys/kernel/sframe_attach_max_bytes
"$conv" attach "$libc" > enospc.out 2>&1 && fail "attached past the limit: $(cat enospc.out)"
grep -q 'No space left on device' enospc.out || fail "past the limit: $(cat enospc.out)"
echo "$max" > /proc/sys/kernel/sframe_attach_max_bytes

"$conv" attach "$libc" "$PWD/old" "$PWD/inplace" > attach.out 2>&1 ||
	fail "sframe-conv attach failed: $(cat attach.out)"
cat attach.out

# Replaced: the old process keeps the attachment, the new file has none
sfattach_start "$PWD/old"
# perf cannot read the symbols of a file that is gone: sfa_loop is [unknown] there (the
# spec still wants the same address in every sample)
old_pid=$pid old_spec=$(echo "$spec" | sed 's/ sfa_loop / sfa_loop|\\[unknown\\] /')
cp "$BIN/sfconv/sfattach" old.new && mv old.new old
sfattach_start "$PWD/old"
new_pid=$pid new_spec=$spec
grep -q "unlinked .*/old (deleted)" /proc/sframe_files ||
	fail "the replaced file is not listed unlinked: $(cat /proc/sframe_files)"
r=$(sfattach_record replaced-old $old_pid $old_spec)
echo "started before the rename: $r"
expect_exact "$r" 50 95
r=$(sfattach_record replaced-new $new_pid $new_spec)
echo "started from the new file: $r"
not_found "$r"
kill $old_pid
wait $old_pid 2> /dev/null
! grep -q "/old (deleted)" /proc/sframe_files ||
	fail "the replaced file is still listed after its last process: $(cat /proc/sframe_files)"

# Changed in place: not used for it
printf 'x' >> inplace
grep -q "changed .*/inplace$" /proc/sframe_files ||
	fail "the changed file is not listed as changed: $(cat /proc/sframe_files)"
sfattach_start "$PWD/inplace"
r=$(sfattach_record inplace $pid $spec)
echo "changed in place: $r"
not_found "$r"
echo "PASS: replaced and changed files are not unwound with an old attachment"
