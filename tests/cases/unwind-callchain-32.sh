# get_perf_callchain() with IRQs enabled, as BPF's bpf_get_stackid() calls it, of a
# 32-bit task (the segment base lookup): the exact chain, and no lockdep splat
. "$TOP/tests/lib.sh"
"$BIN/udt-32" callchain || exit 1
splat=$(dmesg | sed -n '/test: unwind-callchain-32/,$p' | "$TOP/scripts/scan-log.sh" | head -n 3)
[ -z "$splat" ] || fail "kernel log: $splat"
