# Helpers for the guest test cases (sourced; POSIX sh).

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# The kernel flavour the guest runs (default or debug), from the results path.
flavour() {
	case $GUEST_OUT in *check-debug*) echo debug ;; *) echo default ;; esac
}

# chain_report PERF_SCRIPT_OUTPUT FUNC...
# Reads `perf script -F comm,tid,ip,sym` output and prints
#   samples=S kernel=K good=G bad=B
# S samples in all, K with kernel frames whose first user frame is FUNC1,
# G of all samples whose first user frame is FUNC1 continue with exactly
# FUNC2... (B do not; their chains are printed to stderr).
chain_report() {
	file=$1
	shift
	awk -v want="$*" '
	function flush() {
		if (!n) return
		samples++
		first = 0
		for (i = 1; i <= n; i++)
			if (addr[i] !~ /^ffff/) { first = i; break }
		if (first && sym[first] == w[1]) {
			ok = 1
			for (j = 1; j <= nw; j++)
				if (sym[first + j - 1] != w[j]) ok = 0
			if (ok) good++
			else {
				bad++
				line = ""
				for (i = 1; i <= n; i++) line = line " " sym[i]
				print "bad chain:" line > "/dev/stderr"
			}
			if (ok && first > 1) kernel++
		}
		n = 0
	}
	BEGIN { nw = split(want, w, " ") }
	/^[^ \t]/ { flush(); next }
	/^[ \t]*$/ { flush(); next }
	{ n++; addr[n] = $1; s = $2; sub(/\+0x[0-9a-f]+$/, "", s); sym[n] = s }
	END { flush(); printf "samples=%d kernel=%d good=%d bad=%d\n", samples, kernel, good, bad }
	' "$file"
}

# field NAME REPORT: the value of NAME=... in a chain_report line
field() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
