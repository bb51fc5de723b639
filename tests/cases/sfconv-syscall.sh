# SFrame converted from .eh_frame (libsframe-audit.so, LD_AUDIT): a program built
# -fomit-frame-pointer with SFrame, with a linked library with SFrame and a dlopened one
# without, enters the kernel with syscall(SYS_getppid) through Debian's libc (neither
# frame pointers nor SFrame). Recorded with perf --call-graph fp,defer: every sample in
# the system call shows frames of the real chain only (every address checked), and
# >= 95% the whole chain: syscall sfc_leaf sfc_mid sfc_caller main, libc's start code,
# _start. Control: without the helper the chain is not found.
. "$TOP/tests/lib.sh"
export SFRAME_CACHE_DIR="$PWD/cache"
# The first run fills the cache; the recorded one takes every section from it
SFRAME_AUDIT_DEBUG=1 LD_AUDIT="$TOP/build/sframe-conv/libsframe-audit.so" \
	"$BIN/sfconv/sfcall" 1 > fill.txt 2>&1 || fail "$(tail -n 1 fill.txt)"
# the debug kernel runs 4x slower (and takes as many samples per second): 1/75 of the
# calls there still gives some 2500 samples (CI time)
calls=$(per_flavour 600000 8000)
sfconv_record "$BIN/sfconv/sfcall" $calls
sfconv_said '\[vdso\]: registered' 'libc.so.6: registered .*(cached)' \
	'ld-linux-x86-64.so.2: registered .*(cached)' 'libsfcleaf.so: registered' \
	'libsfcmid.so: has SFrame' '\[program\]: has SFrame'
sfconv_verdict sfcall 1
