# perf record -g (immediate frame pointers) of the known chain
# main -> func_a -> func_b -> func_c -> read(2): every sample in the read of /dev/zero
# (ksys_read, and read_zero or the clear_user() under it, in the kernel part; ld.so's
# reads of libraries are not marked) shows kernel frames, then func_c, func_b, func_a, main.
. "$TOP/tests/lib.sh"
default_kernel_only "perf tools test"
"$PERF" record -q -e cpu-clock -F 2000 -g -o perf.data "$BIN/chain" 400 || fail "perf record failed"
script_frames perf.data script.txt
expect_chains "$(chain_report script.txt chain "$ZERO_READ" func_c func_b func_a main)" 20
