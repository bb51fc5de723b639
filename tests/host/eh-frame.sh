# The kernel's .eh_frame reader (kernel/unwind/eh_frame_reader.c of build/linux) in user space,
# ASan/UBSan builds: the unit tests on hand-built CIEs and FDEs pass; every FDE of
# Debian's libc, libpython3.11, libcrypto, libstdc++ and cc1, looked up at every row
# boundary and between, gives libdw's CFA, return address and caller's FP wherever the
# reader says the row is usable (0 mismatches, 0 errors, every object checked); a
# 30-second libFuzzer run finds no crash.
# timeout: 900
. "$TOP/tests/lib.sh"
mk() {
	make -s -f "$TOP/tools/eh-frame/eh-frame.mk" TOP="$TOP" BUILD="$TOP/build" "$@"
}
[ -f /usr/include/elfutils/libdw.h ] || skip "no libdw headers (apt-get install libdw-dev)"
command -v clang > /dev/null || skip "no clang for libFuzzer (apt-get install clang)"
for o in $(mk eh-frame-objs); do
	[ -f "$o" ] || skip "no $o to cross-check (install its Debian package)"
done

out=$(mk eh-frame-test 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "unit tests: $(echo "$out" | grep -c '^not ok') failed (exit $rc)"

out=$(mk eh-frame-xcheck 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "cross-check with libdw: exit $rc, $(echo "$out" | grep -c MISMATCH) mismatch lines"
echo "$out" | grep -qx 'xcheck: all objects agree with libdw' || fail "cross-check: no verdict"

out=$(mk FUZZ_SECONDS=30 eh-frame-fuzz 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "fuzzer: exit $rc (inputs in $TOP/build/eh-frame/fuzz/artifacts/)"
echo "eh-frame: unit tests, cross-check and fuzzing passed"
