# The SFrame reader core in user space: real sections from the toolchain here (v1),
# hand-built v2 sections and hostile ones (ASan/UBSan build).
cd "$TOP" && make -s sframe-unit > "$GUEST_OUT/sframe-unit.txt" 2>&1
rc=$?
cat "$GUEST_OUT/sframe-unit.txt"
exit $rc
