# SFrame converted from .eh_frame (libsframe-audit.so, LD_AUDIT): a program built
# -fomit-frame-pointer without SFrame loops on clock_gettime(), which libc serves from
# the vDSO. Recorded with perf --call-graph fp,defer: every sample in the vDSO or in
# libc's clock_gettime shows frames of the real chain only (every address checked),
# and >= 95% the whole chain: the vDSO, clock_gettime, sfk_loop, main, libc's start
# code, _start. The program, libc and the vDSO are all converted. Control: without the
# helper the chain is not found.
. "$TOP/tests/lib.sh"
default_kernel_only "converter test"
export SFRAME_CACHE_DIR="$PWD/cache"
sfconv_fill "$BIN/sfconv/sfclock"
sfconv_record "$BIN/sfconv/sfclock" 1000000
sfconv_said '\[vdso\]: registered' 'libc.so.6: registered' '\[program\]: registered'
sfconv_verdict sfclock 0
