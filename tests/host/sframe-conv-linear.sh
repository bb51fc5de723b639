# The converter's work is linear in the rows of a CFI table (issue 19): objects with
# one function of N rows (N = 10k, 20k, 40k, 80k; a row a byte, the CFA offset going
# 8, 16, 8, ...), generated and converted with sframe-conv, which counts the CFI
# instructions it runs: N + 1 rows, all converted, and at most 3 instructions a row
# (each row takes an advance and a CFA offset, the CIE two more: 2N + 7 in all), in
# SFrame V3 FDEs of at most 65535 FREs (80k rows: the function split in two). The
# time of each conversion is reported, not checked (target: 80k rows in < 0.1 s; it
# took 6.9 s when libdw evaluated each row's CFI program from its start).
cd "$TOP" && make -s sframe-conv || exit 1
cd "$OLDPWD" || exit 1
conv=$TOP/build/sframe-conv/sframe-conv
failed=0

# field NAME LINE: the value of NAME=VALUE in sframe-conv's line
field() {
	echo "$2" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}

for n in 10000 20000 40000 80000; do
	awk -v n=$n 'BEGIN {
		print ".text\n.globl f\n.type f, @function\nf:\n.cfi_startproc"
		for (i = 0; i < n; i++)
			printf "nop\n.cfi_adjust_cfa_offset %d\n", i % 2 ? -8 : 8
		print "ret\n.cfi_endproc\n.size f, .-f"
	}' > rows$n.S
	gcc -shared -nostdlib -Wl,-z,noexecstack rows$n.S -o rows$n.so || exit 1
	start=$(date +%s%N)
	line=$("$conv" convert -3 rows$n.so) || { echo "FAIL: sframe-conv rows$n.so: $line"; exit 1; }
	ms=$((($(date +%s%N) - start) / 1000000))
	rows=$(field rows "$line") insns=$(field cfi_insns "$line") fres=$(field fres "$line")
	fdes=$(field sframe_fdes "$line")
	echo "$n rows: rows=$rows fres=$fres sframe_fdes=$fdes cfi_insns=$insns; $ms ms (the whole sframe-conv)"
	if [ "$rows" != $((n + 1)) ] || [ "$fres" != "$rows" ]; then
		echo "FAIL: expected $((n + 1)) rows, all converted: $line"
		failed=1
	elif [ "$fdes" != $(((rows + 65534) / 65535)) ]; then
		echo "FAIL: $fdes SFrame FDEs for $rows FREs, expected one per 65535"
		failed=1
	elif [ "$insns" -gt $((3 * rows)) ]; then
		echo "FAIL: $insns CFI instructions for $rows rows, expected at most $((3 * rows))"
		failed=1
	fi
done
[ $failed -eq 0 ] && echo "PASS: CFI instructions linear in the rows"
