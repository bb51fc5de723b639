# perf names vDSO frames: samples of a 64-bit program in clock_gettime() (in the vDSO,
# or in the kernel entered from it) show __vdso_clock_gettime (or its alias) in [vdso],
# not [unknown]; a 32-bit program's read() enters the kernel through the vDSO's
# __kernel_vsyscall, which perf resolves in [vdso32] (its perf-read-vdso32 helper reads
# the 32-bit vDSO). With immediate (-g) and deferred callchains, and also when the
# build-id cache has no copy of the vDSO (perf record -N): perf then uses the running
# kernel's vDSO, as it does for the build-id it records.
. "$TOP/tests/lib.sh"
# perf tools behaviour (the kernel paths are covered by other tests): the default kernel only,
# to keep CI under an hour (2-3 minutes each on the debug kernel)
default_kernel_only "perf tools test"
# vdso_report SCRIPT KERNEL_SYM NAME: "samples=S vdso=V named=N" for the samples of
# the program whose kernel part has KERNEL_SYM (any sample if empty): V of them have
# a first user frame in the vDSO, N of those named NAME (an ERE; others are printed)
vdso_report() {
	perf_samples "$1" | awk -F '\t' -v ksym="$2" -v want="^($3)$" '
	{
		split($1, h, " ")
		kin = 0; usym = ""; udso = ""
		for (i = 2; i <= NF; i++) {
			nf = split($i, f, " ")
			if (f[1] ~ /^ffff/) { if (f[2] == ksym) kin = 1 }
			else if (udso == "") { usym = f[2]; udso = f[nf] }
		}
		if (h[1] ~ /^vdso/ && (ksym == "" || kin)) {
			n++
			if (udso ~ /^\(\[vdso(32)?\]\)$/) {
				v++
				if (usym ~ want) named++
				else print "unnamed: " usym " " udso > "/dev/stderr"
			}
		}
	}
	END { printf "samples=%d vdso=%d named=%d\n", n, v, named }'
}
# a build-id cache of our own, emptied before each recording
export HOME="$PWD/home"
mkdir -p "$HOME"
failed=
for mode in -g "-g -N" "--call-graph fp,defer -N"; do
	for run in "vdso clock 400 x __vdso_clock_gettime|clock_gettime" \
		"vdso-32 read 3000 read_zero __kernel_vsyscall"; do
		set -- $run
		rm -rf "$HOME/.debug"
		"$PERF" record -e cpu-clock -F 2000 $mode -o perf.data "$BIN/$1" $2 $3 2> record.err ||
			fail "perf record $mode $1 $2 failed: $(tail -n 1 record.err)"
		"$PERF" script -i perf.data -F comm,ip,sym,dso > script.txt 2> script.err ||
			fail "perf script failed: $(tail -n 1 script.err)"
		k=$4; [ "$k" = x ] && k=
		r=$(vdso_report script.txt "$k" "$5" 2> unnamed.txt)
		echo "$mode $1 $2: $r"
		head -n 3 unnamed.txt
		# most samples are in the vDSO (clock) or came through it (read), all named
		if [ "$(field vdso "$r")" -lt 20 ] || [ "$(field named "$r")" != "$(field vdso "$r")" ]; then
			failed="$failed; $mode $1 $2: $r"
		fi
	done
done
[ -z "$failed" ] || fail "vDSO frames not named:$failed"
