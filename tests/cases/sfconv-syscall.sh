# SFrame converted from .eh_frame (libsframe-audit.so, LD_AUDIT): a program built
# -fomit-frame-pointer with SFrame, with a linked library with SFrame and a dlopened one
# without, enters the kernel with syscall(SYS_getppid) through Debian's libc (neither
# frame pointers nor SFrame). Recorded with perf --call-graph fp,defer: every sample in
# the system call shows frames of the real chain only (every address checked), and
# >= 95% the whole chain: syscall sfc_leaf sfc_mid sfc_caller main, libc's start code,
# _start. Control: without the helper the chain is not found.
. "$TOP/tests/lib.sh"
default_kernel_only "converter test"
export SFRAME_CACHE_DIR="$PWD/cache"
# The first run fills the cache; the recorded one takes every section from it
sfconv_fill "$BIN/sfconv/sfcall"
sfconv_record "$BIN/sfconv/sfcall" 600000
sfconv_said '\[vdso\]: registered' 'libc.so.6: registered .*(cached)' \
	'ld-linux-x86-64.so.2: registered .*(cached)' 'libsfcleaf.so: registered' \
	'libsfcmid.so: has SFrame' '\[program\]: has SFrame'
sfconv_verdict sfcall 1
