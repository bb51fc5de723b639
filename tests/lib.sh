# Helpers for the guest test cases (sourced; POSIX sh).

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 4
}

# splats: how many lines of the kernel log are splats (scripts/scan-log.sh's patterns,
# those a run fails for)
splats() {
	dmesg 2>/dev/null | "$TOP/scripts/scan-log.sh" | wc -l
}

# no_new_splats BEFORE: fail, with the end of the kernel log, if it has more splat lines
# than BEFORE (what splats said before the test acted)
no_new_splats() {
	after=$(splats)
	[ "$after" = "$1" ] || { dmesg | tail -n 60; fail "kernel splat: $1 -> $after lines"; }
}

# base_sh BASE FUNCTION ARG...: a function of scripts/base.sh (bash) on that base, e.g.
# base_series_end (the commit that ends the postable series) or base_series_list FILE
base_sh() {
	BASE=$1 bash -c 'top=$1; shift; . "$top/scripts/base.sh"; "$@"' sh "$TOP" "$2" "$3"
}

# The kernel flavour the guest runs (default or debug), which scripts/check.sh passes
flavour() {
	echo "${FLAVOUR:-default}"
}

# default_kernel_only WHAT: skip this test on other kernels than the default one (the
# tests of user-space tools, and heavy suites, whose kernel paths the other tests take
# on every kernel; the README lists them)
default_kernel_only() {
	[ "$(flavour)" = default ] || skip "$1: the default kernel only"
}

# per_flavour DEFAULT DEBUG: the workload size for this kernel. The debug kernel's system
# calls are several times slower, so a test's program makes as many samples there with
# far fewer iterations; keeping its guest's run short keeps make check in CI's time.
per_flavour() {
	if [ "$(flavour)" = debug ]; then echo "$2"; else echo "$1"; fi
}

# perf_samples FILE...: `perf script` output as one line per sample, tab-separated: the
# sample's first line, then its frames "ADDR SYM (DSO)" innermost first, SYM without
# +0xOFFSET (tests/perf-samples.awk, the one parser of perf script output)
perf_samples() {
	awk -f "$TOP/tests/perf-samples.awk" "$@"
}

# For awk programs reading perf_samples lines (awk -F '\t' 'PROGRAM'"$FRAMES_AWK"):
# frames(ADDR, SYM) puts the line's frames in ADDR[1..n] and SYM[1..n] and returns n;
# kernel_has(ADDR, SYM, N, KSYMS) says whether the kernel frames of those N have the
# functions KSYMS (a+b|c: a, and b or c) and read no file over 9p
FRAMES_AWK='
function frames(addr, sym,   i, f) {
	for (i = 2; i <= NF; i++) {
		split($i, f, " ")
		addr[i - 1] = f[1]
		sym[i - 1] = f[2]
	}
	return NF - 1
}
function kernel_has(addr, sym, n, ksym,   grp, have, ng, g, i, found) {
	ng = split(ksym, grp, "+")
	for (i = 1; i <= n; i++) {
		if (addr[i] !~ /^ffff/)
			continue
		if (sym[i] ~ /^v9fs_/)
			return 0
		for (g = 1; g <= ng; g++)
			if (!(g in have) && sym[i] ~ ("^(" grp[g] ")$")) {
				have[g] = 1
				found++
			}
	}
	return found == ng
}'

# event_user_frames PERF_SCRIPT_OUTPUT COMMS: per sample of a task whose comm is one of
# COMMS (a|b), from `perf script -F comm,tid,event,ip,sym,dso`: "EVENT SYM@DSO ...", its
# event and its user frames innermost first (DSO's file name; kernel frames left out;
# perf script --no-inline, as script_frames, for 7.3's perf)
event_user_frames() {
	perf_samples "$1" | awk -F '\t' -v comms="$2" '
	{
		n = frames(addr, sym)
		if ($1 !~ ("^(" comms ") ")) next
		ev = $1
		sub(/:[^:]*$/, "", ev)
		sub(/.* /, "", ev)
		line = ev
		for (i = 1; i <= n; i++) {
			if (addr[i] ~ /^ffff/) continue
			split($(i + 1), f, "(")
			d = f[length(f)]
			sub(/\)$/, "", d)
			sub(/.*\//, "", d)
			s = sym[i]
			sub(/\+0x[0-9a-f]+$/, "", s)
			line = line " " s "@" d
		}
		print line
	}'"$FRAMES_AWK"
}

# path_report PERF_SCRIPT_OUTPUT COMM KSYMS WANT: samples=S good=G bad=B, S the samples
# of COMM whose kernel part has the functions KSYMS (a+b|c: a, and b or c) and does not
# read a file over 9p, G those whose user part, up to main with repeats counted
# (FRAME*N), is WANT, B the others (the first three printed to stderr)
path_report() {
	perf_samples "$1" | awk -F '\t' -v comm="$2" -v ksym="$3" -v want="$4" '
	{
		split($1, h, " ")
		n = frames(addr, sym)
		user = ""; last = ""; rep = 0; done = 0
		for (i = 1; i <= n && !done; i++) {
			s = sym[i]
			if (addr[i] ~ /^ffff/)
				continue
			if (s == last) rep++
			else {
				if (rep > 1) user = user "*" rep
				user = user (user == "" ? "" : " ") s; last = s; rep = 1
			}
			done = s == "main"
		}
		if (rep > 1) user = user "*" rep
		if (h[1] == comm && kernel_has(addr, sym, n, ksym)) {
			ns++
			if (user == want) good++
			else if (bad++ < 3) print "bad chain: " user > "/dev/stderr"
		}
	}
	END { printf "samples=%d good=%d bad=%d\n", ns, good, bad }'"$FRAMES_AWK"
}

# deep_zero_report PERF_SCRIPT_OUTPUT DEPTH: path_report of tests/prog/deep (DEPTH) in
# its read of /dev/zero (clear_user() also runs in exec, for the new image's bss, where
# the user stack is the interpreter's _start: the read only): zero_read recurse*DEPTH+1 main
deep_zero_report() {
	path_report "$1" deep "read_zero|rep_stos_alternative+ksys_read" \
		"zero_read recurse*$(($2 + 1)) main"
}

# expect_deep REPORT: a deep_zero_report with >= 20 samples, all good (fails otherwise)
expect_deep() {
	echo "$1"
	[ "$(field samples "$1")" -ge 20 ] || fail "expected >= 20 samples in the read of /dev/zero: $1"
	[ "$(field bad "$1")" = 0 ] || fail "samples without the whole deferred user chain: $1"
}

# chain_report PERF_SCRIPT_OUTPUT COMM KSYMS FUNC...
# script_frames DATA OUT: the samples of perf.data file DATA as `perf script -F
# comm,tid,ip,sym` prints them, in OUT (perf script's errors in OUT.err), without
# inlined frames: 7.3's perf prints them (6.12's does not), and the chains the tests
# expect are the frames of the stack. Fails the test if perf script does.
script_frames() {
	"$PERF" script --no-inline -i "$1" -F comm,tid,ip,sym > "$2" 2> "$2.err" ||
		fail "perf script -i $1 failed: $(tail -n 1 "$2.err")"
}

# Reads `perf script -F comm,tid,ip,sym` output and prints
#   samples=S marked=M good=G bad=B
# S samples of COMM, M of them whose kernel part has the functions KSYMS (a+b|c: a,
# and b or c; but not reading a file over 9p: that is ld.so loading libraries, and
# not cut at perf's default 127 frames), G of those whose user part starts with
# exactly FUNC1 FUNC2 ..., B the others (their chains are printed to stderr).
chain_report() {
	file=$1 comm=$2 ksym=$3
	shift 3
	perf_samples "$file" | awk -F '\t' -v comm="$comm" -v ksym="$ksym" -v want="$*" '
	BEGIN { nw = split(want, w, " ") }
	{ split($1, h, " "); n = frames(addr, sym) }
	n && h[1] == comm {
		samples++
		first = 0
		for (i = 1; i <= n && !first; i++)
			if (addr[i] !~ /^ffff/) first = i
		if (kernel_has(addr, sym, n, ksym) && n < 127) {
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
	END { printf "samples=%d marked=%d good=%d bad=%d\n", samples, m, good, bad }
	'"$FRAMES_AWK"
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

# exact_chains PERF_SCRIPT_OUTPUT COMM KERNEL SPEC...
# Checks every frame of the user chains in `perf script -F comm,tid,ip,sym` output
# against a program's real chain, innermost first, given as SPECs:
#   0xADDR    exactly this address (a return address the program knows)
#   0xLO-0xHI an address in [LO, HI) (the vDSO, which perf does not name)
#   REGEX     a function perf names REGEX (without @VERSION); the same address in every
#             sample, except where the sample starts (an interrupted ip may be anywhere)
# A leading ^ marks the specs a sample may start with. The samples of COMM (only those
# with kernel frames if KERNEL is 1, only those with a kernel function named KERNEL if
# it is an ERE) whose first user frame matches such a spec are checked from there. Prints
#   samples=S checked=C complete=K short=P bad=B
# K: every frame up to the last spec, and nothing after; P: a prefix of that (the walk
# ended early); B: a frame that is not the real one, or frames after the last (printed
# to stderr).
exact_chains() {
	file=$1 comm=$2 kernel=$3
	shift 3
	perf_samples "$file" | awk -F '\t' -v comm="$comm" -v kernel="$kernel" -v specs="$*" '
	function norm(a) {
		a = tolower(a)
		sub(/^0x/, "", a)
		while (length(a) < 16) a = "0" a
		return a
	}
	function match_spec(k, a, s, first) {
		if (type[k] == "range") return a >= lo[k] && a < hi[k]
		if (type[k] == "addr") return a == lo[k]
		if (s !~ ("^(" re[k] ")$")) return 0
		if (first) return 1
		if (seen[k] == "") seen[k] = a
		return seen[k] == a
	}
	function check(   i, k, j, ok) {
		if (!n || name != comm) return
		samples++
		m = 0; kern = 0
		for (i = 1; i <= n; i++) {
			if (addr[i] ~ /^ffff/) {
				if (kernel ~ /^[01]$/ || sym[i] ~ ("^(" kernel ")$")) kern = 1
			} else { m++; ua[m] = norm(addr[i]); us[m] = sym[i] }
		}
		if (!m || (kernel != "0" && !kern)) return
		for (k = 1; k <= ns; k++)
			if (start[k] && match_spec(k, ua[1], us[1], 1)) break
		if (k > ns) return
		checked++
		ok = 1
		for (j = 2; ok && j <= m; j++)
			if (k + j - 1 > ns || !match_spec(k + j - 1, ua[j], us[j], 0)) ok = 0
		if (!ok) {
			bad++
			line = ""
			for (j = 1; j <= m; j++) line = line " " ua[j] ":" us[j]
			print "bad chain:" line > "/dev/stderr"
		} else if (m == ns - k + 1) complete++
		else short++
	}
	BEGIN {
		ns = split(specs, spec, " ")
		for (k = 1; k <= ns; k++) {
			s = spec[k]
			start[k] = sub(/^\^/, "", s)
			if (s ~ /^0x[0-9a-fA-F]+-0x[0-9a-fA-F]+$/) {
				type[k] = "range"
				split(s, r, "-")
				lo[k] = norm(r[1]); hi[k] = norm(r[2])
			} else if (s ~ /^0x[0-9a-fA-F]+$/) {
				type[k] = "addr"; lo[k] = norm(s)
			} else {
				type[k] = "sym"; re[k] = s
			}
		}
	}
	{
		split($1, h, " ")
		name = h[1]
		n = frames(addr, sym)
		# perf names versioned symbols NAME@@VERSION
		for (i = 1; i <= n; i++) sub(/@.*/, "", sym[i])
		check()
	}
	END {
		printf "samples=%d checked=%d complete=%d short=%d bad=%d\n", samples, checked, complete, short, bad
	}
	'"$FRAMES_AWK"
}

# expect_exact REPORT MIN PCT: at least MIN samples checked, none bad, PCT% complete
expect_exact() {
	echo "$1"
	c=$(field checked "$1")
	[ "$c" -ge "$2" ] || fail "expected >= $2 samples to check, got: $1"
	[ "$(field bad "$1")" = 0 ] || fail "frames that are not in the real chain: $1"
	[ $(($(field complete "$1") * 100)) -ge $(($3 * c)) ] ||
		fail "fewer than $3% of the samples complete: $1"
}

# record_exact MODE KERNEL PROG ARG...: perf record -e cpu-clock with the call graph MODE
# (-g, --call-graph fp,defer) of PROG, which prints its real chain ("expect: SPEC...");
# then the samples of PROG in the kernel function KERNEL (an ERE) against it (exact_chains):
# >= 50 samples checked, none bad, >= 95% complete
record_exact() {
	mode=$1 kernel=$2
	shift 2
	"$PERF" record -q -e cpu-clock -F 2000 $mode -o perf.data -- "$@" > out.txt 2> record.err ||
		fail "perf record $mode failed: $(tail -n 1 record.err)"
	grep -q '^expect: ' out.txt || fail "$* printed no chain: $(cat out.txt)"
	script_frames perf.data script.txt
	echo "$mode, $*: $(sed -n 's/^expect: //p' out.txt)"
	r=$(exact_chains script.txt "$(basename "$1")" "$kernel" $(sed -n 's/^expect: //p' out.txt))
	expect_exact "$r" 50 95
}

# sfconv_fill PROG: one run of PROG 1 with libsframe-audit.so, not recorded, that converts
# its objects into $SFRAME_CACHE_DIR: the recorded runs then take every section from the
# cache (the conversion, sampled, was most of a run's samples and time on the debug kernel)
sfconv_fill() {
	SFRAME_AUDIT_DEBUG=1 LD_AUDIT="$TOP/build/sframe-conv/libsframe-audit.so" \
		"$1" 1 > fill.txt 2>&1 || fail "$(tail -n 1 fill.txt)"
}

# sfconv_record PROG ARG...: perf record --call-graph fp,defer of PROG, once with
# libsframe-audit.so (files audit.out, .err, .txt: perf script) and once without (plain.*)
sfconv_record() {
	audit=$TOP/build/sframe-conv/libsframe-audit.so
	for mode in audit plain; do
		if [ $mode = audit ]; then
			set -- env LD_AUDIT="$audit" SFRAME_AUDIT_DEBUG=1 "$@"
		else
			shift 3
		fi
		"$PERF" record -q -e cpu-clock -F 4000 --call-graph fp,defer -o $mode.data \
			-- "$@" > $mode.out 2> $mode.err || fail "perf record ($mode) failed"
		script_frames $mode.data $mode.txt
	done
	cat audit.err
}

# sfconv_verdict COMM KERNEL: the chains recorded by sfconv_record, against the real
# chain the program printed ("expect: SPEC..."): with the helper (the sections it
# registered), >= 50 samples checked, none bad, >= 95% complete; and the same without
# it, where the kernel reads the objects' .eh_frame (that registered sections are what
# a walk uses where they exist: sfconv-register)
sfconv_verdict() {
	rep=$(exact_chains audit.txt "$1" "$2" $(sed -n 's/^expect: //p' audit.out))
	expect_exact "$rep" 50 95
	ctl=$(exact_chains plain.txt "$1" "$2" $(sed -n 's/^expect: //p' plain.out))
	echo "without the helper (.eh_frame): $ctl"
	expect_exact "$ctl" 50 95
}

# sfconv_said LINE...: the helper's debug output (audit.err) has every LINE (regexps)
sfconv_said() {
	for line in "$@"; do
		grep -q "$line" audit.err || fail "the helper did not say: $line"
	done
}

# The suffix of the kernel base's outputs under build/ (scripts/base.sh): none on 6.12
base_sfx() {
	[ "${BASE:-6.12}" = 6.12 ] || echo "-$BASE"
}

# kselftest PROGRAM CASES: run a kernel selftest built by tests/prog/kselftest.mk
# (PROGRAM relative to build/kselftest, on 7.3 build/kselftest-7.3) and pass only if every one of its CASES cases
# passed (its TAP plan, ok lines and totals; a skip is a failure) with no new splat
kselftest() {
	prog=$(dirname "$BIN")/kselftest$(base_sfx)/$1 cases=$2
	[ -x "$prog" ] || fail "$prog not built (tests/prog/kselftest.mk; the selftest not in the tree?)"
	before=$(splats)
	"$prog" > tap.txt 2>&1
	rc=$?
	cat tap.txt
	plan=$(grep '^1\.\.' tap.txt)
	totals=$(grep '^# Totals:' tap.txt)
	! grep -q '# SKIP' tap.txt || fail "skipped: $(grep '# SKIP' tap.txt | head -n 3 | tr '\n' ' ')"
	[ "$plan" = "1..$cases" ] || fail "expected the plan 1..$cases, got '$plan'"
	! grep -q '^not ok' tap.txt || fail "$(grep -c '^not ok' tap.txt) of $cases failed:" \
		"$(grep '^not ok' tap.txt | sed 's/^not ok [0-9]* //' | tr '\n' ' ')"
	[ "$(grep -c '^ok [0-9]' tap.txt)" -eq "$cases" ] ||
		fail "expected $cases ok, got $(grep -c '^ok [0-9]' tap.txt)"
	[ "$totals" = "# Totals: pass:$cases fail:0 xfail:0 xpass:0 skip:0 error:0" ] ||
		fail "expected $cases passed, got '$totals'"
	[ "$rc" -eq 0 ] || fail "exit status $rc"
	no_new_splats "$before"
	echo "all $cases cases passed"
}

# outermost_report FILE PID|COMM...: for each PID (a thread), or each COMM (all its
# threads), its samples in `perf script -F comm,tid,ip,sym` output FILE with user frames,
# and how many of those reach an outermost frame (pass through _start, __libc_start_*,
# start_thread or clone*: Debian's stripped executables name their own _start
# [unknown], so libc's frames decide):
#   pid=P comm=C samples=N complete=K      (pid=all for a COMM)
outermost_report() {
	file=$1
	shift
	perf_samples "$file" | awk -F '\t' -v pids="$*" '
	BEGIN { n = split(pids, p, " "); for (i = 1; i <= n; i++) want[p[i]] = 1 }
	{
		split($1, h, " ")
		tid = h[2]
		if (h[1] in want) tid = h[1]
		else if (!(tid in want)) next
		nf = frames(addr, sym)
		user = 0; done = 0
		for (i = 1; i <= nf; i++) {
			if (addr[i] ~ /^ffff/) continue
			user++
			if (sym[i] ~ /^(_start|__libc_start_call_main|__libc_start_main(_impl)?|start_thread|clone3?|__clone3?)(@.*)?$/)
				done = 1
		}
		if (!user) next
		comm[tid] = h[1]; samples[tid]++; complete[tid] += done
	}
	END {
		for (i = 1; i <= n; i++)
			printf "pid=%s comm=%s samples=%d complete=%d\n", p[i] ~ /^[0-9]+$/ ? p[i] : "all",
				p[i] ~ /^[0-9]+$/ ? comm[p[i]] : p[i], samples[p[i]], complete[p[i]]
	}
	'"$FRAMES_AWK"
}

# Outermost frames, for the tests of complete user stacks (ehframe-complete,
# ehframe-container): a sample's user stack is complete when it reaches _start (the
# program's, or ld.so's _start/_dl_start_user during start-up) or passes
# __libc_start_call_main/__libc_start_main, start_thread or clone/clone3. Where perf
# names no symbol for them (a stripped program's _start, libc's internal functions), they
# are found by file offset (perf script -F ...,dso,dsoff) in ranges computed from the
# ELF files (outer_ranges); tests/complete.awk counts and prints the table.

# program_samples PIDS SCRIPT: the samples (perf_samples lines) in perf script output
# SCRIPT (-F comm,tid,...: the tid last in the first line) of the threads in PIDS
# ("PID PROGRAM WHEN" lines; PROGRAM - for threads not counted)
program_samples() {
	perf_samples "$2" | awk -F '\t' 'NR == FNR { split($0, p, " "); if (p[2] != "-") want[p[1]] = 1; next }
		{ n = split($1, h, " ") } h[n] in want' "$1" -
}

# elf_offset SEGS VADDR: the file offset (perf's dsoff) of the address VADDR of an ELF
# file, in hex, from its LOAD segments in SEGS ("OFFSET VADDR FILESZ" lines, decimal)
elf_offset() {
	v=$(($2))
	while read -r o a s; do
		if [ "$v" -ge "$a" ] && [ "$v" -lt $((a + s)) ]; then
			printf '%x\n' $((v - a + o))
			return
		fi
	done < "$1"
	echo 0
}

# outer_ranges FILE [NAME]: "NAME LO HI FUNCTION" (hex file offsets; NAME defaults to
# FILE) for the outermost functions of ELF file FILE: _start of a program (an INTERP
# segment) or ld.so, from the entry point to its hlt or indirect jmp, and libc's exported
# __libc_start_main and clone*. Writes outer-elf.txt and outer-segs.txt.
outer_ranges() {
	f=$1 name=${2:-$1}
	readelf -hlW "$f" > outer-elf.txt 2> /dev/null || return 0
	awk '$1 == "LOAD" { print $2, $3, $5 }' outer-elf.txt | while read -r o a s; do
		echo $((o)) $((a)) $((s))
	done > outer-segs.txt
	entry=$(sed -n 's/^ *Entry point address: *//p' outer-elf.txt)
	if [ "$((entry))" -ne 0 ] && { grep -q '^ *INTERP ' outer-elf.txt || case $f in */ld-linux*) true ;; *) false ;; esac; }; then
		end=$(objdump -d --no-show-raw-insn --start-address=$((entry)) --stop-address=$((entry + 0x80)) "$f" |
			awk '/^ *[0-9a-f]+:[ \t]+(hlt|jmp +\*%)/ { sub(/:.*/, ""); sub(/^ */, ""); print "0x" $0; exit }')
		[ -n "$end" ] || end=$((entry + 0x40))
		echo "$name $(elf_offset outer-segs.txt "$entry") $(elf_offset outer-segs.txt $((end + 1))) _start"
	fi
	case $f in
	*/libc.so*)
		readelf --dyn-syms -W "$f" | awk '$4 == "FUNC" &&
			$8 ~ /^(__libc_start_main|clone|__clone|clone3|__clone3|start_thread)(@.*)?$/ { print $2, $3, $8 }' |
			sort -u | while read -r v s fn; do
				echo "$name $(elf_offset outer-segs.txt "0x$v") $(elf_offset outer-segs.txt $((0x$v + s))) ${fn%%@*}"
			done
		;;
	esac
}

# sample_objects SAMPLES: the objects of the user frames of program_samples lines
# SAMPLES (perf script -F ...,dso,dsoff: "(/PATH+0xOFFSET)"), one a line
sample_objects() {
	awk -F '\t' '{ for (i = 2; i <= NF; i++) if ($i !~ /^ffff/ && match($i, /\(\/[^()]*\+0x[0-9a-f]+\)$/)) {
		f = substr($i, RSTART + 1, RLENGTH - 2); sub(/\+0x[0-9a-f]+$/, "", f); print f } }' "$1" |
		sort -u
}

# object_ranges OBJECTS [PREFIX...]: outer_ranges of each object in the file OBJECTS
# (sample_objects) that is a file here; one that is not, but is PREFIX/PATH with /PATH a
# file here, gets the ranges of /PATH under its own name (a container's copy of /PATH,
# byte for byte, at a path of a mount namespace or chroot that this one does not see)
object_ranges() {
	objs=$1
	shift
	while read -r f; do
		if [ -f "$f" ]; then
			outer_ranges "$f"
			continue
		fi
		for p in "$@"; do
			case $f in
			"$p"/*) [ -f "${f#"$p"}" ] && outer_ranges "${f#"$p"}" "$f" && break ;;
			esac
		done
	done < "$objs"
}

# complete_table PIDS RANGES SAMPLES [VAR=VALUE...]: tests/complete.awk on the
# program_samples lines SAMPLES, the threads PIDS ("PID PROGRAM WHEN") and the
# object_ranges RANGES: per program and instance (WHEN) the samples with user frames, how
# many complete (by_address: found by file offset only), without user frames (no_user)
# or with only the cookie of a deferred stack that never came (no_stack); then
# "verdict: ok" or what failed. VARs: programs (the rows' order), whens, threshold
# (percent), min (samples per program), mininst (per instance). The first frames of the
# first incomplete samples of each program go to stderr.
complete_table() {
	p=$1 r=$2 s=$3
	shift 3
	for a do
		shift
		set -- "$@" -v "$a"
	done
	awk -F '\t' -v pids="$p" -v ranges="$r" "$@" -f "$TOP/tests/complete.awk" "$s"
}
