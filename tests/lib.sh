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

# chain_report PERF_SCRIPT_OUTPUT COMM KSYMS FUNC...
# Reads `perf script -F comm,tid,ip,sym` output and prints
#   samples=S marked=M good=G bad=B
# S samples of COMM, M of them whose kernel part has the functions KSYMS (a+b|c: a,
# and b or c; but not reading a file over 9p: that is ld.so loading libraries, and
# not cut at perf's default 127 frames), G of those whose user part starts with
# exactly FUNC1 FUNC2 ..., B the others (their chains are printed to stderr).
chain_report() {
	file=$1 comm=$2 ksym=$3
	shift 3
	awk -v comm="$comm" -v ksym="$ksym" -v want="$*" '
	function flush() {
		if (n && name == comm) {
			samples++
			first = 0; found = 0; v9fs = 0
			for (g = 1; g <= ng; g++) have[g] = 0
			for (i = 1; i <= n; i++) {
				if (addr[i] ~ /^ffff/) {
					for (g = 1; g <= ng; g++)
						if (!have[g] && sym[i] ~ ("^(" grp[g] ")$")) {
							have[g] = 1
							found++
						}
					if (sym[i] ~ /^v9fs_/) v9fs = 1
				} else if (!first) first = i
			}
			marked = found == ng && !v9fs && n < 127
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
	BEGIN { nw = split(want, w, " "); ng = split(ksym, grp, "+") }
	/^[^ \t]/ { flush(); name = $1; next }
	/^[ \t]*$/ { flush(); next }
	{ n++; addr[n] = $1; s = $2; sub(/\+0x[0-9a-f]+$/, "", s); sym[n] = s }
	END { flush(); printf "samples=%d marked=%d good=%d bad=%d\n", samples, m, good, bad }
	' "$file"
}

# chain_report's KSYMS for the known chain's read of /dev/zero
ZERO_READ="ksys_read+read_zero|rep_stos_alternative"

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
