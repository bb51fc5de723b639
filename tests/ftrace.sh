# Helpers for the userstacktrace_delay guest tests (sourced after lib.sh; POSIX sh).
TRACEFS=/sys/kernel/tracing

# ft_instance NAME EVENT...: a new trace instance with the global clock, EVENT...
# (system:event) enabled, userstacktrace_delay set; prints its directory.
ft_instance() {
	d=$TRACEFS/instances/$1
	shift
	mkdir "$d" || fail "cannot create instance $d"
	[ -f "$d/options/userstacktrace_delay" ] || skip "no userstacktrace_delay option"
	echo global > "$d/trace_clock"
	echo 0 > "$d/set_event_pid"	# nothing of user tasks until ft_run
	echo 4096 > "$d/buffer_size_kb"
	for e in "$@"; do
		echo 1 > "$d/events/${e%%:*}/${e#*:}/enable" || fail "cannot enable $e in $d"
	done
	echo 1 > "$d/options/userstacktrace_delay" || fail "cannot set userstacktrace_delay in $d"
	echo "$d"
}

# ft_remove DIR...: remove the instances (events off first)
ft_remove() {
	for d in "$@"; do
		[ -d "$d" ] || continue
		echo 0 > "$d/events/enable"
		rmdir "$d" || echo "cannot remove $d"
	done
}

# ft_run DIR... -- PROGRAM ARGS...: run PROGRAM with only its events traced in
# every DIR (set_event_pid, set before the exec)
ft_run() {
	dirs=
	while [ "$1" != -- ]; do dirs="$dirs $1"; shift; done
	shift
	FT_DIRS=$dirs sh -c 'for d in $FT_DIRS; do echo $$ > $d/set_event_pid; done; exec "$@"' \
		ft "$@"
}

# ft_trace NAME "EVENT..." MARK -- PROGRAM ARGS...: run PROGRAM traced in a new
# instance NAME with EVENT... (ft_instance; removed when the test exits), write its
# trace to a.txt and check it (ft_check a.txt MARK): fails on entries out of order,
# prints ft_check's line and leaves it in $r
ft_trace() {
	a=$(ft_instance "$1" $2) || exit
	trap 'ft_remove "$a"' EXIT
	mark=$3
	shift 4
	ft_run "$a" -- "$@" || fail "${1##*/} $2 failed"
	cat "$a/trace" > a.txt
	r=$(ft_check a.txt "$mark")
	echo "$r"
	[ "$(field bad "$r")" = 0 ] || fail "cookie and stack entries out of order: $r"
}

# ft_check TRACE [MARK]: check the deferred user stacks in the text TRACE (an
# instance's trace file): per task, every user_unwind_cookie entry is followed
# by exactly one user_unwind_stack entry (or its parts) with that cookie before
# a cookie entry of another kernel entry of the task, and no stack comes without
# a cookie before it, except "late" ones: a stack recorded right after an event
# of an entry whose stack was recorded already. Prints
#   events=E cookie_entries=C cookies=D stacks=S late=L marked=M parts=P bad=B
# (M: stacks of entries with an event matching the regexp MARK) and writes the
# frames of the stacks to TRACE.frames, one per line: "COOKIE INDEX IP WHERE"
# (WHERE: file+0xoffset or ?; late stacks: COOKIE "late" INDEX IP ?), the
# cookies of marked stacks to TRACE.marked and the event before each late stack
# to TRACE.late. Problems go to stderr.
ft_check() {
	: > "$1.late"
	awk -v mark="${2:-^\$^}" -v frames="$1.frames" -v marked="$1.marked" -v late="$1.late" '
	function bad(what) { nbad++; print "bad: " what " (line " NR ")" > "/dev/stderr" }
	/^#/ { next }
	/^ => / {
		if (cur != "") {
			print cur, fidx, $2, ($3 == "" ? "?" : $3) > frames
			fidx++
		}
		next
	}
	{
		cur = ""
		pid = $1; sub(/.*-/, "", pid)
		msg = $0; sub(/^[^:]*[0-9]\.[0-9]+: /, "", msg)
		if (msg ~ /^<user stack deferred> cookie=/) {
			c = msg; sub(/.*cookie=/, "", c)
			ncookie++
			if (!(c in seen)) { seen[c] = 1; ndistinct++ }
			if (pend[pid] != "" && pend[pid] != c)
				bad("pid " pid ": cookie " c " before the stack of " pend[pid])
			if (c in stacks)
				bad("pid " pid ": cookie entry " c " after its stack")
			pend[pid] = c
			if (marknext[pid]) { is_marked[c] = 1; marknext[pid] = 0 }
			next
		}
		if (msg ~ /^<user stack unwind> cookie=/) {
			split(msg, w, " ")
			c = w[4]; sub(/cookie=/, "", c)
			f = w[5]; sub(/frames=/, "", f)
			first = 0; total = f; last = f - 1
			if (f ~ /-/) {
				split(f, r, /[-\/]/); first = r[1]; last = r[2]; total = r[3]
				nparts++
			}
			if (first > 0) {
				if (lastc[pid] != c || lastend[pid] != first - 1)
					bad("pid " pid ": part " f " of " c " does not follow frames to " lastend[pid] " of " lastc[pid])
				cur = (latenow[pid] ? c " late" : c); fidx = first
				lastend[pid] = last
				next
			}
			latenow[pid] = 0
			if (pend[pid] == c) {
				pend[pid] = ""
				stacks[c] = 1; nstacks++
				if (is_marked[c]) { nmarked++; print c > marked }
				cur = c
			} else if ((c in stacks) && lastc[pid] == c && lastev[pid] == c) {
				nlate++; latenow[pid] = 1
				print lastmsg[pid] > late
				cur = c " late"
			} else {
				bad("pid " pid ": stack " c " without a cookie entry")
			}
			fidx = first; lastc[pid] = c; lastend[pid] = last
			next
		}
		nevents++
		lastev[pid] = lastc[pid]
		lastmsg[pid] = msg
		if (msg ~ mark) marknext[pid] = 1
	}
	END {
		for (p in pend) if (pend[p] != "") bad("pid " p ": no stack for cookie " pend[p])
		printf "events=%d cookie_entries=%d cookies=%d stacks=%d late=%d marked=%d parts=%d bad=%d\n",
			nevents, ncookie, ndistinct, nstacks, nlate, nmarked, nparts, nbad
	}' "$1"
}

# ft_symbols FRAMES: the frames ("... IP FILE+0xOFF", as ft_check writes them)
# with the function of each appended: FILE's symbol (nm) that holds the file
# offset OFF, turned into an address by FILE's LOAD program headers; "?" if none
ft_symbols() {
	: > "$1.syms"
	for f in $(awk '$NF != "?" { w = $NF; sub(/\+0x[0-9a-f]+$/, "", w); print w }' "$1" | sort -u); do
		[ -r "$f" ] || continue
		readelf -lW "$f" | awk -v f="$f" '$1 == "LOAD" { print f, "L", $2, $3, $5 }' >> "$1.syms"
		nm -S --defined-only "$f" 2>/dev/null |
			awk -v f="$f" 'NF == 4 && $3 ~ /[tTwW]/ { print f, "S", $1, $2, $4 }' >> "$1.syms"
	done
	awk '
	function hex(s,   i, n, d) {
		sub(/^0x/, "", s); n = 0
		for (i = 1; i <= length(s); i++) {
			d = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
			n = n * 16 + d
		}
		return n
	}
	FNR == NR {
		if ($2 == "L") { nl[$1]++; lo[$1, nl[$1]] = hex($3); lv[$1, nl[$1]] = hex($4); ls[$1, nl[$1]] = hex($5) }
		else { ns[$1]++; sa[$1, ns[$1]] = hex($3); sz[$1, ns[$1]] = hex($4); sn[$1, ns[$1]] = $5 }
		next
	}
	{
		sym = "?"; w = $NF
		if (w != "?") {
			f = w; sub(/\+0x[0-9a-f]+$/, "", f)
			off = w; sub(/.*\+/, "", off); off = hex(off)
			for (i = 1; i <= nl[f]; i++)
				if (off >= lo[f, i] && off < lo[f, i] + ls[f, i]) {
					va = off - lo[f, i] + lv[f, i]
					for (j = 1; j <= ns[f]; j++)
						if (va >= sa[f, j] && va < sa[f, j] + sz[f, j]) { sym = sn[f, j]; break }
					break
				}
		}
		print $0, sym
	}' "$1.syms" "$1"
}

# ft_unwinds: the unwind counter of the test interface
ft_unwinds() {
	awk '$1 == "unwinds" { print $2 }' /sys/kernel/debug/unwind_deferred_test/ctl
}
