# .eh_frame unwinding, with nothing set up: ehchain, libeh1.so (linked) and libeh2.so
# (dlopened) are built -O2 -fomit-frame-pointer without SFrame, so only their .eh_frame
# (PT_GNU_EH_FRAME) describes their frames; no LD_AUDIT helper, no sframe-conv, no
# section attached or registered. perf record --call-graph fp,defer of the program
# spinning in its leaf: every sample whose first user frame is in one of the chain's
# functions has exactly the rest of the real chain, address by address (the return
# addresses backtrace() found in the program) and symbol by symbol, through the
# recursion and both libraries down to main and on into libc's start code
# (__libc_start_call_main, __libc_start_main, _start, the last frame). The same check
# fails on -g (--call-graph fp: frame pointers, which this code has none of), so it is
# the .eh_frame walk that makes the chains exact.
. "$TOP/tests/lib.sh"
dir=$BIN/ehframe
prog=$dir/ehchain
[ -x "$prog" ] || fail "$prog not built (tests/prog/ehframe.mk)"

# Nothing but the objects' own .eh_frame: no helper in the environment, no .sframe
# section
unset LD_AUDIT LD_PRELOAD SFRAME_AUDIT_DEBUG
if command -v readelf > /dev/null; then
	for f in ehchain libeh1.so libeh2.so; do
		readelf -SW "$dir/$f" > sections.txt || fail "readelf -S $dir/$f failed"
		! grep -q ' \.sframe ' sections.txt || fail "$f has a .sframe section"
		grep -q ' \.eh_frame_hdr ' sections.txt || fail "$f has no .eh_frame_hdr"
		readelf -lW "$dir/$f" | grep -q GNU_EH_FRAME || fail "$f has no PT_GNU_EH_FRAME"
	done
else
	echo "no readelf: the sections of the objects not checked"
fi

# eh_exact PERF_SCRIPT_OUTPUT SPEC...: SPECs as ehchain prints them after "expect:",
# innermost first: eh_leaf (the sampled instruction, anywhere in it), then NAME=0xRA
# (a return address, in function NAME). A sample of ehchain whose first user frame is in
# eh_leaf, eh1_rec, ehdl_c, eh_cb, eh1_b, eh_a or main is checked: with M user frames
# it must be the last M frames of the chain (so the first one's function is the one the
# chain has there: for a sample in the recursion, M says at which depth), every return
# address the real one, every frame named as the chain names it (libc's start code may
# be [unknown] where libc has no symbols for it: its addresses are still checked), and
# the last one the return address into _start. Prints
#   samples=S checked=C exact=E bad=B other=O kernel=K
# S samples of ehchain with user frames, C of them checked (O not: the first user frame
# elsewhere, e.g. in libc or a PLT stub), E of those exact, B not (the first 10
# printed to stderr), K of the checked ones taken in the kernel (the leaf's getppid()).
eh_exact() {
	file=$1
	shift
	perf_samples "$file" | awk -F '\t' -v specs="$*" '
	function norm(a) {
		a = tolower(a)
		sub(/^0x/, "", a)
		while (length(a) < 16) a = "0" a
		return a
	}
	function libc_name(want, got) {
		if (got == "[unknown]") return 1
		if (want == "__libc_start_main") return got ~ /^__libc_start_main(_impl)?$/
		return got == want
	}
	BEGIN {
		n = split(specs, sp, " ")
		for (k = 1; k <= n; k++) {
			if (split(sp[k], f, "=") == 2) { nm[k] = f[1]; ad[k] = norm(f[2]) }
			else nm[k] = sp[k]
		}
		split("eh_leaf eh1_rec ehdl_c eh_cb eh1_b eh_a main", o, " ")
		for (k in o) ours[o[k]] = 1
	}
	{
		split($1, h, " ")
		if (h[1] != "ehchain") next
		nf = frames(addr, sym)
		m = 0; kern = 0
		for (i = 1; i <= nf; i++) {
			if (addr[i] ~ /^ffff/) { kern = 1; continue }
			m++; ua[m] = norm(addr[i]); us[m] = sym[i]
			sub(/@.*/, "", us[m])
		}
		if (!m) next
		samples++
		if (!(us[1] in ours)) { other++; next }
		checked++
		kernel += kern
		j = n - m + 1
		ok = j >= 1 && nm[j] == us[1]
		for (i = 2; ok && i <= m; i++) {
			p = j + i - 1
			if (ua[i] != ad[p]) ok = 0
			else if (nm[p] in ours) ok = us[i] == nm[p]
			else ok = libc_name(nm[p], us[i])
		}
		if (ok) exact++
		else if (bad++ < 10) {
			line = ""
			for (i = 1; i <= m; i++) line = line " " ua[i] ":" us[i]
			print "bad chain (" m " of " n " frames):" line > "/dev/stderr"
		}
	}
	END {
		printf "samples=%d checked=%d exact=%d bad=%d other=%d kernel=%d\n",
			samples, checked, exact, bad, other, kernel
	}
	'"$FRAMES_AWK"
}

# 2 s of the chain (1 s on the debug kernel) at 1000 samples a second of its CPU time:
# some 2000 samples, nearly all in the leaf; DEPTH 24: 34 user frames
ms=$(per_flavour 2000 1000)
for mode in fp,defer fp; do
	env -u LD_AUDIT -u LD_PRELOAD "$PERF" record -q -e cpu-clock -F 1000 --call-graph "$mode" \
		-o "$mode.data" -- "$prog" spin "$ms" 24 > "$mode.out" 2> "$mode.err" ||
		fail "perf record --call-graph $mode failed: $(tail -n 1 "$mode.err")"
	! grep -i "switching" "$mode.err" || fail "perf switched deferred callchains off"
	grep -q '^expect: ' "$mode.out" || fail "ehchain printed no chain: $(tail -n 1 "$mode.out")"
	script_frames "$mode.data" "$mode.txt"
done
spec=$(sed -n 's/^expect: //p' fp,defer.out)
echo "the real chain (backtrace()): $spec"
defer=$(eh_exact fp,defer.txt "$spec")
fp=$(eh_exact fp.txt "$(sed -n 's/^expect: //p' fp.out)" 2> fp.bad)
echo "--call-graph fp,defer: $defer"
echo "-g (--call-graph fp):  $fp"
[ "$(field checked "$fp")" -ge 50 ] || fail "too few -g samples in the chain: $fp"
[ $(($(field bad "$fp") * 2)) -gt "$(field checked "$fp")" ] ||
	fail "-g found most chains without .eh_frame: the test proves nothing ($fp)"
[ "$(field checked "$defer")" -ge 200 ] || fail "too few samples in the chain: $defer"
[ "$(field bad "$defer")" = 0 ] || fail "samples whose chain is not the real one: $defer"
echo "PASS: $(field exact "$defer") samples with the exact chain down to _start; -g: $(field bad "$fp") of $(field checked "$fp") wrong"
