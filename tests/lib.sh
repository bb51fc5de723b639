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

# chain_report PERF_SCRIPT_OUTPUT COMM KSYM FUNC...
# Reads `perf script -F comm,tid,ip,sym` output and prints
#   samples=S marked=M good=G bad=B
# S samples of COMM, M of them with the kernel function KSYM in their kernel part
# (but not reading a file over 9p: that is ld.so loading libraries, and not cut at
# perf's default 127 frames), G of those whose user part starts with exactly FUNC1
# FUNC2 ..., B the others (their chains are printed to stderr).
chain_report() {
	file=$1 comm=$2 ksym=$3
	shift 3
	awk -v comm="$comm" -v ksym="$ksym" -v want="$*" '
	function flush() {
		if (n && name == comm) {
			samples++
			first = 0; marked = 0; v9fs = 0
			for (i = 1; i <= n; i++) {
				if (addr[i] ~ /^ffff/) {
					if (sym[i] == ksym) marked = 1
					if (sym[i] ~ /^v9fs_/) v9fs = 1
				} else if (!first) first = i
			}
			if (v9fs || n >= 127) marked = 0
			if (marked) {
				m++
				ok = first > 0
				for (j = 1; ok && j <= nw; j++)
					if (sym[first + j - 1] != w[j]) ok = 0
				if (ok) good++
				else {
					bad++
					line = ""
					for (i = 1; i <= n; i++) line = line " " sym[i]
					print "bad chain:" line > "/dev/stderr"
				}
			}
		}
		n = 0
	}
	BEGIN { nw = split(want, w, " ") }
	/^[^ \t]/ { flush(); name = $1; next }
	/^[ \t]*$/ { flush(); next }
	{ n++; addr[n] = $1; s = $2; sub(/\+0x[0-9a-f]+$/, "", s); sym[n] = s }
	END { flush(); printf "samples=%d marked=%d good=%d bad=%d\n", samples, m, good, bad }
	' "$file"
}

# expect_chains REPORT MIN: all marked samples good, and at least MIN of them
expect_chains() {
	echo "$1"
	[ "$(field marked "$1")" -ge "$2" ] || fail "expected >= $2 samples in the read path, got: $1"
	[ "$(field bad "$1")" = 0 ] || fail "samples in the read path without the full user chain: $1"
}

# field NAME REPORT: the value of NAME=... in a chain_report line
field() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
