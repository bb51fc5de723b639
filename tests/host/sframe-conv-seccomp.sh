# tests/cases/sfconv-seccomp.sh on this machine: a program that installs a seccomp
# filter killing at sframe_register() and mkdir(), then dlopen()s a library, runs the
# same with the LD_AUDIT helper as without. This kernel has no sframe_register(), but
# the filter kills at the system call number whatever the call would return.
cd "$TOP" && make -s "$TOP/build/tests/sfconv/sfseccomp" \
	"$TOP/build/sframe-conv/libsframe-audit.so" || exit 1
cd "$OLDPWD" && exec sh "$TOP/tests/cases/sfconv-seccomp.sh"
