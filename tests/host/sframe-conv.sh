# The .eh_frame -> SFrame converter: Debian's libc, ld.so and libstdc++ and this
# machine's vDSO, >= 90% of the FDEs converted whole, the section accepted by the
# kernel's reader, and its rules the same as libdw's own CFI evaluation (libdwfl) at
# every row boundary and every 13th address; the same at every address of a CFI zoo
# (tools/sframe-conv/cfi_*.S: every instruction the converter reads) and of the bench's
# deep-sfv3/deep-sfv2 (sections in the file); in SFrame V3 and v2, or v2 only with a
# kernel reader without V3's flexible FDEs (ASan/UBSan build).
cd "$TOP" && make -s sframe-conv-test > "$GUEST_OUT/sframe-conv.txt" 2>&1
rc=$?
cat "$GUEST_OUT/sframe-conv.txt"
exit $rc
