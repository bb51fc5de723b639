# The .eh_frame -> SFrame converter: Debian's libc, ld.so and libstdc++ and this
# machine's vDSO, >= 90% of the FDEs converted whole, the section accepted by the
# kernel's reader, and its rules the same as libdw's own CFI evaluation (libdwfl) at
# every row boundary and every 13th address; the same at every address of a CFI zoo
# (tools/sframe-conv/cfi_*.S: every instruction the converter reads) (ASan/UBSan build).
cd "$TOP" && make -s sframe-conv-test > "$GUEST_OUT/sframe-conv.txt" 2>&1
rc=$?
cat "$GUEST_OUT/sframe-conv.txt"
exit $rc
