# Sections attached to files (sframe-conv attach, PR_SFRAME_FILE) serve processes that are
# already running, with no helper in their environment: sfattach (built
# -fomit-frame-pointer, no SFrame) runs, calling getppid() through libc's syscall(), and
# is recorded three times with perf -p and --call-graph fp,defer: before the attachment
# the chain is not found (fewer than half of the samples complete); with the program's
# and libc's files attached, every sample in the kernel shows frames of the real chain
# only and >= 95% the whole chain (syscall, sfa_loop, main, libc's start code, _start);
# after detaching them the chain is lost again. A second sfattach calls through sfa_nocfi
# (assembly with a frame pointer and no CFI): while attached, its walks end there, with
# no frame-pointer guess after it. /proc/sframe_files lists both with their
# bytes while attached, kernel.sframe_attach_bytes counts them (and nothing once they
# are detached), and a user without CAP_SYS_ADMIN can neither attach nor detach.
# timeout: 900
. "$TOP/tests/lib.sh"
default_kernel_only "heavy suite (sframe-attach-system and sfconv-* attach under the debug kernel)"
export SFRAME_CACHE_DIR="$PWD/cache"
conv=$TOP/build/sframe-conv/sframe-conv
libc=/lib/x86_64-linux-gnu/libc.so.6
prog=$PWD/sfattach
sframe_detach_all
cp "$BIN/sfconv/sfattach" "$prog" || fail "no sfattach"
# readable by the unprivileged user below (the test's directory is mktemp's, 0700)
chmod 755 . "$prog"
sfattach_start "$prog" nocfi
nocfi_pid=$pid nocfi_spec=$spec
sfattach_start "$prog"
echo "chain: $spec; through sfa_nocfi: $nocfi_spec"
trap 'kill $sfattach_pids 2> /dev/null; sframe_detach_all' EXIT

r=$(sfattach_record before $pid $spec)
echo "before: $r"
not_found "$r"

unprivileged() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		env SFRAME_CACHE_DIR= "$@" > eperm.out 2>&1 && fail "an unprivileged user could: $*"
	grep -q 'Operation not permitted' eperm.out || fail "unprivileged $*: $(cat eperm.out)"
}
unprivileged "$conv" attach "$prog"

"$conv" attach "$prog" "$libc" > attach.out 2>&1 || fail "sframe-conv attach failed: $(cat attach.out)"
cat attach.out
[ "$(grep -c ': attached,' attach.out)" = 2 ] || fail "expected two files attached"
cat /proc/sframe_files
bytes=$(awk '{ s += $1 } END { print s + 0 }' /proc/sframe_files)
[ "$(grep -c ' ok ' /proc/sframe_files)" = 2 ] || fail "expected 2 attachments listed ok"
[ "$(cat /proc/sys/kernel/sframe_attach_bytes)" = "$bytes" ] ||
	fail "sframe_attach_bytes $(cat /proc/sys/kernel/sframe_attach_bytes), listed $bytes"
unprivileged "$conv" detach "$prog"

r=$(sfattach_record attached $pid $spec)
echo "attached: $r"
expect_exact "$r" 50 95
r=$(sfattach_record nocfi $nocfi_pid $nocfi_spec)
echo "through sfa_nocfi, attached: $r"
expect_exact "$r" 50 95

"$conv" detach "$prog" "$libc" || fail "sframe-conv detach failed"
! grep -q . /proc/sframe_files || fail "still listed after detach: $(cat /proc/sframe_files)"
r=$(sfattach_record detached $pid $spec)
echo "detached: $r"
not_found "$r"

# Detached copies are not counted (the program's entries dropped theirs at its first
# lookup after the detach, the record above)
[ "$(cat /proc/sys/kernel/sframe_attach_bytes)" = 0 ] ||
	fail "sframe_attach_bytes $(cat /proc/sys/kernel/sframe_attach_bytes) after the detach"
echo "PASS: complete only while attached; listed and counted"
