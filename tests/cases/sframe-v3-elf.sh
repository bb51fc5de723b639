# SFrame V3 (and v2) in the ELF file itself: bench/deep built -fomit-frame-pointer
# without gas SFrame, its PT_GNU_SFRAME section made by sframe-conv from its .eh_frame
# (PC-relative starts for where the section is in the file, bench/bench.mk). Recorded
# with perf --call-graph fp,defer: every sample in __x64_sys_getppid() shows the
# whole user chain syscalls descend*151 main (150 frames of recursion; the kernel finds
# the section at exec). Control: perf -g (frame pointers, which this build has not)
# never gets to main.
. "$TOP/tests/lib.sh"
WANT="syscalls descend*151 main"
# Iterations of bench/deep and the sampling period (ns of CPU time): the debug kernel's
# system calls are far slower (at 2 kHz 25 000 samples in getppid() for 60000 on it,
# 1070 for 1000);
# on the default kernel 2 kHz gave 8-28 samples in getppid() for 60000 (fewer the
# faster the machine), 10 kHz 457-1026 (8000: 60-140, and 7x less perf script time)
iters=$(per_flavour 8000 150) period=$(per_flavour 100000 500000)
for v in 3 2; do
	bin=$TOP/build/bench/bin/deep-sfv$v
	[ -x "$bin" ] || fail "no $bin (make check builds it)"
	readelf -lW "$bin" | grep -q "GNU_SFRAME" || fail "$bin has no PT_GNU_SFRAME segment"
	objcopy -O binary --only-section=.sframe "$bin" sframe.bin
	got=$(od -An -tx1 -N3 sframe.bin | tr -d ' ')
	[ "$got" = "e2de0$v" ] || fail "deep-sfv$v: .sframe starts $got, expected e2de0$v (magic, version $v)"
	"$PERF" record -q -e cpu-clock -c $period --call-graph fp,defer -o v$v.data -- "$bin" 150 $iters 16 \
		> /dev/null 2> record.err || fail "perf record failed: $(tail -n 1 record.err)"
	script_frames v$v.data v$v.txt
	rep=$(path_report v$v.txt deep-sfv$v __x64_sys_getppid "$WANT")
	echo "version $v: $rep"
	[ "$(field samples "$rep")" -ge 10 ] || fail "version $v: expected >= 10 samples in getppid(): $rep"
	[ "$(field good "$rep")" = "$(field samples "$rep")" ] ||
		fail "version $v: samples without the whole chain: $rep"
done
"$PERF" record -q -e cpu-clock -c $period -g -o g.data -- "$TOP/build/bench/bin/deep-sfv3" 150 $iters 16 \
	> /dev/null 2> record.err || fail "perf record -g failed: $(tail -n 1 record.err)"
script_frames g.data g.txt
rep=$(path_report g.txt deep-sfv3 __x64_sys_getppid "$WANT" 2> /dev/null)
echo "-g (control): $rep"
[ "$(field samples "$rep")" -ge 3 ] && [ "$(field good "$rep")" = 0 ] ||
	fail "-g found the chain without frame pointers, or too few samples: the test proves nothing: $rep"
