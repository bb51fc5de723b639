# Helpers for the perf top tests, guest and host (sourced after lib.sh; POSIX sh).

# top_run OUT SECONDS OPTION...: perf top --stdio OPTION..., then SIGINT (a user's ^C);
# its displays go to OUT, its stderr to OUT.err. Its keys come from a FIFO open for
# reading and writing, which never has any (perf top polls its standard input:
# /dev/null would be a key at every poll, and its help screen the display).
# The SECONDS count from its first display that counts samples (at most 60 s after its
# start, then SECONDS more): perf top drops the samples that come more than a refresh
# delay (-d) after the newest it has read, and its first ones, which load the symbols,
# take longer than that under TCG, more so with another guest on the host (every display
# of a 10 s run then said 0 samples a second). Fails when perf top ends by itself.
top_run() {
	out=$1 secs=$2
	shift 2
	[ -p keys ] || mkfifo keys
	COLUMNS=400 LINES=60 "$PERF" top --stdio "$@" <> keys > "$out" 2> "$out.err" &
	top_pid=$!
	t=0
	while [ $t -lt 120 ] && top_alive $top_pid &&
	      ! top_displays "$out" | grep -qv " irqs=0 "; do
		sleep 0.5
		t=$((t + 1))
	done
	[ $t -lt 120 ] || echo "perf top counted no sample in 60 s"
	top_alive $top_pid && sleep "$secs"
	top_alive $top_pid || fail "perf top $* ended by itself: $(tail -n 3 "$out.err")"
	kill -INT $top_pid
	wait $top_pid
}

# top_alive PID: the process runs (is not a zombie that has not been waited for)
top_alive() {
	grep -qs '^State:[[:space:]]*[^Z]' "/proc/$1/status"
}

# top_displays OUT: each display perf top printed in OUT, one a line:
#   N irqs=SAMPLES_PER_SEC kernel=K entries=E lost=L
# (L: the lost events so far, the second number of perf top's "lost: A/B")
top_displays() {
	awk '
	function flush() {
		if (n) printf "%d irqs=%s kernel=%d entries=%d lost=%s\n", n, irqs, k, e, lost
	}
	/\033\[H\033\[2J/ { flush(); n++; irqs = 0; k = 0; e = 0; lost = 0; next }
	/PerfTop:/ {
		irqs = $2
		if (match($0, /lost: [0-9]+\/[0-9]+/)) {
			lost = substr($0, RSTART, RLENGTH)
			sub(/.*\//, "", lost)
		}
	}
	/^ +[0-9.]+%  .*\[[k.]\] / { e++; if ($0 ~ /\[k\] /) k++ }
	END { flush() }' "$1"
}

# top_graphs OUT [N]: the entries of display N (default: the last one with entries) of
# perf top --stdio --no-children in OUT with their call graphs (callee order), one line
# an entry (the default graph) or a callchain (--call-graph ...,flat):
#   MODE SYMBOL: FRAME FRAME ...
# MODE is k or . (perf top's [k] and [.]); the frames are those of the graph in the
# order shown (a branch after the other), without the tree drawing, and N of the same
# frame in a row are FRAME*N.
top_graphs() {
	awk -v want="${2:-0}" '
	function chain_end() {
		if (sym == "" || frames == "") return
		if (rep > 1) frames = frames "*" rep
		print mode " " sym ":" frames
		frames = ""; last = ""; rep = 0
	}
	function parse(l) {
		if (l ~ /^ +[0-9.]+%  / && match(l, /\[[k.]\] /)) {
			chain_end()
			mode = substr(l, RSTART + 1, 1)
			sym = substr(l, RSTART + RLENGTH)
			sub(/ +$/, "", sym)
			frames = ""; last = ""; rep = 0
			return
		}
		if (sym == "") return
		# a callchain of the flat output
		if (l ~ /^ +[0-9.]+%$/) {
			chain_end()
			return
		}
		sub(/^[ |-]*([0-9.]+%--)?-*/, "", l)
		sub(/ +$/, "", l)
		if (l == "") return
		if (l == last) { rep++; return }
		if (rep > 1) frames = frames "*" rep
		frames = frames " " l; last = l; rep = 1
	}
	/\033\[H\033\[2J/ { n++; next }
	{
		line[n, ++cnt[n]] = $0
		if ($0 ~ /^ +[0-9.]+%  .*\[[k.]\] /) ent[n]++
	}
	END {
		s = want
		for (i = n; !s && i > 0; i--) if (ent[i]) s = i
		for (j = 1; j <= cnt[s]; j++) parse(line[s, j])
		chain_end()
	}' "$1"
}

# top_user_paths GRAPHS [FIRST]: in top_graphs lines, the paths into user space of the
# kernel entries' graphs, one a line: from the frame under the system call entry (only
# if it is FIRST, when given) to main, or as far as the graph goes, e.g.
# "syscalls descend*151 main"; each with the entry's symbol after a tab, and after
# another the kernel frames above the system call entry (back to the entry's own frame,
# or in a graph's later branch to the end of the path before it: main, its caller, a
# system call entry; a branch after a path cut elsewhere gets that path's frames too)
top_user_paths() {
	awk -v first="$2" '
	$1 == "k" {
		sym = $2
		sub(/:$/, "", sym)
		for (i = 3; i <= NF; i++) {
			if ($(i - 1) != "entry_SYSCALL_64_after_hwframe" ||
			    (first != "" && $i != first))
				continue
			path = $i
			for (j = i + 1; j <= NF && $j !~ /^entry_SYSCALL_64/; j++) {
				path = path " " $j
				if ($j == "main") break
			}
			kernel = ""
			for (j = i - 2; j >= 3 && $j !~ /^entry_SYSCALL_64/ &&
			     $j != "main" && $j != "__libc_start_call_main"; j--)
				kernel = $j (kernel == "" ? "" : " " kernel)
			print path "\t" sym "\t" kernel
		}
	}' "$1"
}

# top_getppid_paths PATHS: the top_user_paths lines of PATHS of samples in getppid()
# (kernel frames among x64_sys_call, __x64_sys_getppid, __task_pid_nr_ns, pid_nr_ns,
# task_active_pid_ns, the RCU read lock and do_syscall_64) whose kernel entry is one of
# them but do_syscall_64, as "PATH<tab>ENTRY" with the entry's full name. On 7.3
# (PREEMPT_LAZY: rcu_read_lock() is a call) the RCU lock functions have no frame of
# their own, so the frame pointer walk of a sample in them skips their caller
# ("__rcu_read_lock x64_sys_call"). A name may come cut (at least 8 characters are
# matched): perf top cut its symbol column to filtered entries' widths before 01.9.
# Samples in getppid() are taken before the entry's user stack is
# unwound, and always get it deferred; samples later in the entry, on the way out (e.g.
# in __task_pid_nr_ns for perf's own record of the deferred callchain), may get it
# immediately, from the unwinder's cache, cut at kernel.perf_event_max_stack.
top_getppid_paths() {
	awk -F '\t' '
	BEGIN {
		n = split("x64_sys_call __x64_sys_getppid __task_pid_nr_ns pid_nr_ns " \
			  "task_active_pid_ns __rcu_read_lock __rcu_read_unlock", fn, " ")
		for (i = 1; i <= n; i++) ours[fn[i]] = 1
		ours["do_syscall_64"] = 1
	}
	{
		k = split($3, kf, " ")
		if (!k) next
		for (i = 1; i <= k; i++) if (!(kf[i] in ours)) next
		for (i = 1; i <= n; i++)
			if ($2 == fn[i] || (length($2) >= 8 && index(fn[i], $2) == 1)) {
				print $1 "\t" fn[i]
				break
			}
	}' "$1"
}

# top_stats ERR: the counts perf top -v printed at exit, as
#   merged=M unmerged=U held=H
# (samples shown with and without their deferred user part, the most held for a thread)
top_stats() {
	sed -n 's/^deferred callchains: \([0-9]*\) samples merged, \([0-9]*\) shown without their user part, at most \([0-9]*\) events held for a thread$/merged=\1 unmerged=\2 held=\3/p' "$1"
}

# top_expect_deep OUT: perf top (top_run OUT) deferred callchains, and bench/deep's whole
# user stack, "syscalls descend*151 main", right under the system call entry in the
# graph of each function of getppid() in its last display, >= 2 of them (fails otherwise)
top_expect_deep() {
	! grep -i "switching them off" "$1.err" || fail "perf top did not defer callchains"
	top_displays "$1" | tail -n 3
	top_graphs "$1" > graphs.txt
	top_user_paths graphs.txt syscalls > all-paths.txt
	cat all-paths.txt
	top_getppid_paths all-paths.txt > paths.txt
	entries=$(cut -f2 paths.txt | sort -u | wc -l)
	whole=$(grep -c "^syscalls descend\*151 main	" paths.txt)
	echo "$(wc -l < paths.txt) paths into user space in $entries kernel functions, $whole whole"
	[ "$entries" -ge 2 ] ||
		fail "expected the graphs of >= 2 functions of getppid() to go into user space, got $entries"
	[ "$whole" = "$(wc -l < paths.txt)" ] ||
		fail "paths that are not syscalls descend*151 main: $(grep -v "^syscalls descend\*151 main	" paths.txt | head -n 1)"
}

# bench_deep: bench/deep (150 frames of descend() under main, then getppid() system
# calls), as make bench built it, else built here with the flags of bench/bench.mk
bench_deep() {
	if [ -x "$TOP/build/bench/bin/deep" ]; then
		echo "$TOP/build/bench/bin/deep"
	elif gcc -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -Wall -Wextra \
		-Werror -o deep "$TOP/bench/deep.c" -pthread >&2; then
		echo "$PWD/deep"
	else
		return 1
	fi
}
