# A fuzz of hostile .eh_frame tables, read by the kernel in the process's own memory:
# variants of ehchain (-O2 -fomit-frame-pointer, no SFrame: only .eh_frame describes its
# frames) in which ehmutate made the program's or libeh1.so's .eh_frame_hdr or .eh_frame
# hostile (random bytes, a huge or unsorted search table, FDE offsets outside the
# mapping, other encodings, runs of random CFA opcodes, endless LEB128s, zero, huge and
# 64-bit lengths, an FDE that is its own CIE, random DWARF expressions), each run for
# 150 ms while perf record --call-graph fp,defer samples it (cpu-clock, so every sample
# asks for a deferred unwind). The variants run as the original does (only unwind data
# changed); the kernel must neither splat (the harness scans the log; on the debug
# kernel KASAN, UBSAN, lockdep) nor hang (each variant within 60 s), and no frame of
# a user callchain is a kernel address (120 variants, 60 on the debug kernel). Prints
# each mutation's count and the slowest variant beside the unmutated program.
# timeout: 900
. "$TOP/tests/lib.sh"
dir=$BIN/ehframe
[ -x "$dir/ehchain" ] && [ -x "$BIN/ehmutate" ] || fail "ehchain or ehmutate not built"
# the debug kernel runs each variant about 5x slower: fewer of them there
n=${EHFUZZ_N:-$(per_flavour 120 60)}
before=$(splats)
mkdir -p fuzz
cat > fuzz/loop.sh <<'LOOP'
# variant I: a copy of the objects, one of them mutated with seed I (I even: the program)
dir=$1 mutate=$2 n=$3
run() { # DIR: run its ehchain, print "time_ms rc"
	t0=$(date +%s%N)
	timeout 60 "$1/ehchain" quiet 150 > "$1/out" 2>&1
	rc=$?
	echo "$(( ($(date +%s%N) - t0) / 1000000 )) $rc"
}
mkdir -p fuzz/v0
cp "$dir/ehchain" "$dir/libeh1.so" "$dir/libeh2.so" fuzz/v0/
echo "v0 none $(run fuzz/v0)"
i=1
while [ "$i" -le "$n" ]; do
	v=fuzz/v$i
	mkdir -p "$v"
	cp "$dir/ehchain" "$dir/libeh1.so" "$dir/libeh2.so" "$v/"
	if [ $((i % 2)) = 0 ]; then obj=ehchain; else obj=libeh1.so; fi
	kind=$("$mutate" "$dir/$obj" "$v/$obj" "$i") || { echo "v$i ehmutate-failed"; exit 1; }
	chmod +x "$v/$obj"
	echo "v$i $obj:$kind $(run "$v")"
	i=$((i + 1))
done
LOOP
"$PERF" record -q -F 999 -e cpu-clock --call-graph fp,defer -o fuzz.data -- \
	sh fuzz/loop.sh "$dir" "$BIN/ehmutate" "$n" > fuzz.out 2> record.err ||
	{ tail record.err; fail "perf record of the fuzz failed"; }
grep -q ehmutate-failed fuzz.out && fail "ehmutate failed: $(grep ehmutate-failed fuzz.out)"
[ "$(grep -c '^v' fuzz.out)" -eq $((n + 1)) ] || fail "not every variant ran: $(tail -n 2 fuzz.out)"
awk '$4 != 0 { print; bad++ } END { exit bad > 0 }' fuzz.out ||
	fail "variants failed or timed out (rc 124): the mutations changed only unwind tables"
echo "mutations:"
awk '$1 != "v0" { sub(/^[^:]*:/, "", $2); print $2 }' fuzz.out | sort | uniq -c
awk '$1 == "v0" { base = $3 } $1 != "v0" && $3 > max { max = $3; which = $1 " " $2 }
	END { printf "unmutated %d ms; slowest variant %s: %d ms\n", base, which, max }' fuzz.out
"$PERF" script -i fuzz.data -F comm,ip > script.txt 2> script.err ||
	fail "perf script failed: $(tail -n 1 script.err)"
# per sample of ehchain: its frames; a kernel address after a user one is a kernel
# value in the user callchain
perf_samples script.txt | awk -F '\t' '
	$1 !~ /^ *ehchain/ { next }
	{
		n = frames(addr, sym)
		samples++
		user = 0
		for (i = 1; i <= n; i++) {
			if (addr[i] !~ /^[0-9a-f]+$/) continue
			if (addr[i] ~ /^ffff/ && length(addr[i]) == 16) {
				if (user) { bad++; if (bad <= 3) print "kernel address in a user callchain: " $0 > "/dev/stderr" }
			} else {
				user++
				nframes++
			}
		}
		if (user > 1) deep++
	}
	END { printf "%d samples of the variants, %d with more than one user frame, %d user frames, %d kernel values among them\n", samples, deep, nframes, bad + 0
		exit !(samples > 0 && bad == 0) }'"$FRAMES_AWK" || fail "no samples of the variants, or kernel values in user callchains"
no_new_splats "$before"
echo "PASS: $n hostile .eh_frame variants: no splat, no hang, no kernel value in a user stack"
