# A 32-bit program's read() of /dev/zero through libc, which enters the kernel through
# the vDSO's __kernel_vsyscall (saves %ecx, %edx, %ebp, reuses %ebp): recorded with -g
# and with --call-graph fp,defer, every sample in read_zero (or the clear_user() under
# it) shows frames of the real chain only (every address checked), and >= 95% the
# whole chain: the vDSO, libc's read, then the return addresses into vr_mid, vr_caller,
# main and libc's start code. vr_leaf, the caller of the frameless libc read, is not in
# it (no frame pointer walk can see it).
# timeout: 900
. "$TOP/tests/lib.sh"
for mode in -g "--call-graph fp,defer"; do
	record_exact "$mode" 'read_zero|rep_stos_alternative' "$BIN/vdso-32" chain "$(per_flavour 2000 40)"
done
