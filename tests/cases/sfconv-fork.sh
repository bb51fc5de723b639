# Sections registered with sframe_register() survive fork: sfcall (as in
# sfconv-syscall) forks after the LD_AUDIT helper registered the sections of libc,
# ld.so, the vDSO and libsfcleaf.so, and only the child (sfcall-child) calls the chain.
# Recorded with perf --call-graph fp,defer: the child's samples show frames of the real
# chain only and >= 95% the whole chain; the kernel counted the sections fork copied.
# Control: without the helper the chain is not found.
. "$TOP/tests/lib.sh"
ctl=/sys/kernel/debug/unwind_deferred_test/ctl
export SFRAME_CACHE_DIR="$PWD/cache"
sfconv_fill "$BIN/sfconv/sfcall"
before=$(sed -n 's/^sframe fork copied \([0-9]*\) .*/\1/p' "$ctl")
calls=$(per_flavour 300000 3000)
sfconv_record "$BIN/sfconv/sfcall" $calls fork
after=$(sed -n 's/^sframe fork copied \([0-9]*\) .*/\1/p' "$ctl")
echo "sections copied at fork: $((after - before))"
[ "$((after - before))" -ge 4 ] || fail "expected >= 4 sections copied at fork, got $((after - before))"
sfconv_verdict sfcall-child 1
