# tests/cases/sfconv-seccomp.sh on this machine: a program that installs a seccomp
# filter killing at prctl() and mkdir(), then dlopen()s a library, runs the same with
# the LD_AUDIT helper as without. This kernel has no PR_REGISTER_SFRAME, but the filter
# kills at the system call whatever it would return.
cd "$TOP" && make -s "$TOP/build/tests/sfconv/sfseccomp" \
	"$TOP/build/sframe-conv/libsframe-audit.so" || exit 1
cd "$OLDPWD" && exec sh "$TOP/tests/cases/sfconv-seccomp.sh"
