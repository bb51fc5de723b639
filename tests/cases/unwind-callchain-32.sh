# get_perf_callchain() with IRQs enabled, as BPF's bpf_get_stackid() calls it, of a
# 32-bit task (the segment base lookup): the exact chain, and no lockdep splat
. "$TOP/tests/lib.sh"
"$BIN/udt-32" callchain || exit 1
splat=$(dmesg | sed -n '/test: unwind-callchain-32/,$p' | grep -E 'WARNING|BUG|lockdep|irqs_disabled' | head -n 3)
[ -z "$splat" ] || fail "kernel log: $splat"
