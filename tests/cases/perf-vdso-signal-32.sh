# A 32-bit program whose SIGUSR1 handler, installed by the raw rt_sigaction system call
# without SA_RESTORER, returns through the vDSO's __kernel_sigreturn (and, with
# SA_SIGINFO, __kernel_rt_sigreturn): recorded with --call-graph fp,defer, every sample
# in the handler's read of /dev/zero shows frames of the real chain only (every address
# checked), and >= 95% the whole chain: the handler's (sg_leaf, the returns into
# sg_handler and into the trampoline), then the interrupted context saved in the signal
# frame: sg_raise's ret (a function without a frame, so the walk applies its topmost
# frame rules there), its return into sg_spin, then vr_mid, vr_caller, main and libc's
# start code. perf record -g (perf's own 32-bit walk) does not unwind signal frames.
# timeout: 900
. "$TOP/tests/lib.sh"
for what in signal rt-signal; do
	record_exact "--call-graph fp,defer" 'read_zero|rep_stos_alternative' \
		"$BIN/vdso-32" $what "$(per_flavour 2000 40)"
done
