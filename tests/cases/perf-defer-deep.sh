# perf script without options shows deferred callchains whole: a 300-deep recursion
# (tests/prog/deep.c) recorded --call-graph fp,defer is not cut at perf's default
# 127 frames (kernel.perf_event_max_stack limits immediate callchains only). Every
# sample in the read of /dev/zero shows zero_read, 301 frames of recurse, then main.
. "$TOP/tests/lib.sh"
# perf tools behaviour (the kernel paths are covered by other tests): the default kernel only,
# to keep CI under an hour (2-3 minutes each on the debug kernel)
[ "$(flavour)" = default ] || skip "perf tools test: the default kernel only"
depth=300
"$PERF" record -e cpu-clock -F 2000 --call-graph fp,defer -o perf.data "$BIN/deep" $depth 1500 \
	2> record.err || fail "perf record failed: $(tail -n 1 record.err)"
! grep -i "switching" record.err || fail "perf switched deferred callchains off"
"$PERF" script -i perf.data > script.txt || fail "perf script failed"
# per sample of deep in the read of /dev/zero: the user functions, repeats counted
perf_samples script.txt | awk -F '\t' -v depth=$depth '
	{
		split($1, h, " ")
		n = frames(addr, sym)
		zero = 0; rd = 0; v9fs = 0; user = ""; last = ""; rep = 0; done = 0
		for (i = 1; i <= n; i++) {
			s = sym[i]
			if (addr[i] ~ /^ffff/) {
				# clear_user() also runs in exec (the new image'"'"'s bss), where the
				# user stack is the interpreter'"'"'s _start: the read only
				if (s == "read_zero" || s == "rep_stos_alternative") zero = 1
				if (s == "ksys_read") rd = 1
				if (s ~ /^v9fs_/) v9fs = 1
			} else if (!done) {	# user frames up to main, repeats counted
				if (s == last) rep++
				else {
					if (rep > 1) user = user "*" rep
					user = user (user == "" ? "" : " ") s; last = s; rep = 1
				}
				done = s == "main"
			}
		}
		if (rep > 1) user = user "*" rep
		if (h[1] == "deep" && zero && rd && !v9fs) {
			ns++
			if (user == "zero_read recurse*" depth + 1 " main") good++
			else if (bad++ < 3) print "bad chain: " user > "/dev/stderr"
		}
	}
	END { printf "samples=%d good=%d bad=%d\n", ns, good, bad }'"$FRAMES_AWK" > report.txt
cat report.txt
[ "$(field samples "$(cat report.txt)")" -ge 20 ] || fail "expected >= 20 samples in the read of /dev/zero: $(cat report.txt)"
[ "$(field bad "$(cat report.txt)")" = 0 ] || fail "samples without the whole deferred user chain: $(cat report.txt)"
