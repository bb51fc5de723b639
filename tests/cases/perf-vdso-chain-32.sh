# A 32-bit program's read() of /dev/zero through libc, which enters the kernel through
# the vDSO's __kernel_vsyscall (saves %ecx, %edx, %ebp, reuses %ebp): recorded with -g
# and with --call-graph fp,defer, every sample in read_zero (or the clear_user() under
# it) shows frames of the real chain only (every address checked), and >= 95% the
# whole chain: the vDSO, libc's read, then the return addresses into vr_mid, vr_caller,
# main and libc's start code. vr_leaf, the caller of the frameless libc read, is not in
# it (no frame pointer walk can see it).
. "$TOP/tests/lib.sh"
for mode in -g "--call-graph fp,defer"; do
	"$PERF" record -q -e cpu-clock -F 2000 $mode -o perf.data -- "$BIN/vdso-32" chain 2000 \
		> out.txt 2> record.err || fail "perf record $mode failed: $(tail -n 1 record.err)"
	grep -q '^expect: ' out.txt || fail "vdso-32 chain printed no chain: $(cat out.txt)"
	"$PERF" script -i perf.data -F comm,tid,ip,sym > script.txt 2> script.err ||
		fail "perf script failed: $(tail -n 1 script.err)"
	echo "$mode: $(sed -n 's/^expect: //p' out.txt)"
	r=$(exact_chains script.txt vdso-32 'read_zero|rep_stos_alternative' \
		$(sed -n 's/^expect: //p' out.txt))
	expect_exact "$r" 50 95
done
