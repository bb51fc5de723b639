# perf script merging of deferred callchains on a crafted stream (tests/prog/defer-stream.c):
# a thread's queued samples are delivered, unmerged, when its entry is known to be over
# without their record: when its tid is reused (FORK), at exec (COMM_EXEC) and when a
# sample of a new entry (another cookie) comes; a plain rename does not end the entry.
# Without that, the old samples were shown with the new thread's comm ("new", "post"),
# the held-back EXIT removed the new thread (":100"), and sample 19 came after 22.
. "$TOP/tests/lib.sh"
"$BIN/defer-stream" > stream.data || fail "defer-stream failed"
"$PERF" script -i - -F comm,tid,time,ip,sym < stream.data > script.txt 2> script.err ||
	fail "perf script failed: $(tail -n 1 script.err)"
# One line per sample: comm tid time: frames ("unmerged:COOKIE" for the deferred marker:
# a line "(user callchain deferred, cookie: COOKIE)", or "COOKIE (cookie)" in 7.3's perf)
perf_samples script.txt | awk -F '\t' '{
	split($1, h, " ")
	line = h[1] " " h[2] " " h[3]
	for (i = 2; i <= NF; i++) {
		nf = split($i, f, " ")
		if ($i ~ /cookie: /) { c = f[nf]; sub(/\)$/, "", c); line = line " unmerged:" c }
		else if (f[2] == "(cookie)") line = line " unmerged:" f[1]
		else line = line " " f[1]
	}
	print line }' > got.txt
cat > want.txt <<'WANT'
old 100 2.000000: ffffffff81000100 ffffffff81001100 unmerged:a1
new 100 6.000000: ffffffff81000200 ffffffff81001200 401010 401020
pre 200 9.000000: ffffffff81000300 ffffffff81001300 unmerged:b1
post 200 11.000000: ffffffff81000400 ffffffff81001400 401030 401040
two 300 14.000000: ffffffff81000500 ffffffff81001500 401050 401060
two 300 16.000000: ffffffff81000600 ffffffff81001600 401050 401060
four 400 19.000000: ffffffff81000700 ffffffff81001700 unmerged:d1
five 500 22.000000: ffffffff81000900 ffffffff81001900 401070
four 400 20.000000: ffffffff81000800 ffffffff81001800 401080 401090
WANT
diff -u want.txt got.txt || fail "perf script attributed or ordered deferred samples wrongly (diff above)"
echo "all 9 samples with the right thread, chain and order"

# A record that claims more frames than it holds (crafted, truncated) is an error of
# perf script, not a read past it (7.3's perf died of SIGSEGV merging it)
"$BIN/defer-stream" oversized > bad.data || fail "defer-stream oversized failed"
"$PERF" script -i - -F comm,tid,time,ip < bad.data > bad.txt 2> bad.err
rc=$?
# (the shell's 129-192 are signals; perf exits with its error code, e.g. 242 for -EFAULT)
[ $rc -le 128 ] || [ $rc -gt 192 ] ||
	fail "perf script died of signal $((rc - 128)) on a record claiming 16M frames"
[ $rc -ne 0 ] && grep -qi "can't parse" bad.err ||
	fail "perf script did not refuse the record (exit $rc): $(tail -n 1 bad.err)"
echo "a record claiming 16M frames: refused ($(grep -im1 "can't parse" bad.err))"
