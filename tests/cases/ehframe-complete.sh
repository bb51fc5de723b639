# .eh_frame unwinding of what Debian ships, with nothing set up: programs built with
# neither frame pointers nor SFrame (python3, perl, xz, sqlite3, gcc's cc1, openssl and
# the libraries they map: libc, libpython, libperl, liblzma, libsqlite3, libcrypto...),
# no LD_AUDIT helper, no sframe-conv, no section attached. Each runs twice: once started
# before `perf record -a --call-graph fp,defer` begins (its objects mapped before perf
# looks) and once started after (by perf's workload: mapped, and its start-up in ld.so
# recorded, while perf runs). Per program, the share of its samples with user frames
# whose user stack reaches an outermost frame: the last frame is _start (the program's, or
# ld.so's _start/_dl_start_user during start-up), or the stack passes
# __libc_start_call_main/__libc_start_main, start_thread or clone/clone3. Functions are
# found by the name perf gives them, or, where the object has no symbol for them (a
# stripped program's _start; libc's internal functions without libc6-dbg), by where they
# are in the file: _start from the ELF entry point to its hlt (ld.so: to its jump to the
# program), libc's exported __libc_start_main and clone from its dynamic symbols
# (tests/lib.sh's outer_ranges; the table: tests/complete.awk).
# Prints a table program / when / samples / complete / percent, and fails if a
# program is below THRESHOLD percent, or has too few samples to tell. A sample whose
# deferred user stack never came (the recording ended while its task was in the kernel:
# only the cookie) has no stack to judge: counted apart (no_stack), not in the share.
# timeout: 600
. "$TOP/tests/lib.sh"
# Twelve programs and perf record -a on one vCPU: over its 600 s under the debug kernel
# (whose splat checks the other tests of the walk, ehframe-perf-exact among them, cover)
default_kernel_only "a system-wide measure"

# The share (percent, of each program's samples with user frames) that must be complete.
# The aim is 99; cc1 measured 98.8-99.1% (its misses: libgmp's assembly without CFI,
# e.g. __gmpn_copyd, and ld.so's lazy binding), so the test holds the line at 98 and
# prints the shares
THRESHOLD=98
# Samples at least, per program (both instances) and per instance
MIN_SAMPLES=100
MIN_INSTANCE=20
# Seconds recorded (the second instances start at its beginning), and the rate: one
# vCPU shared by twelve programs, some 300 samples per program under TCG
DUR=6
FREQ=$(per_flavour 300 150)

for c in python3 perl xz sqlite3 gcc openssl readelf objdump pgrep truncate; do
	command -v $c > /dev/null || skip "no $c"
done
unset LD_AUDIT LD_PRELOAD SFRAME_AUDIT_DEBUG

# The inputs: for xz the first 4 MB of cc1; for openssl a sparse 64 GB file (holes of a
# tmpfs file read as zeros); for gcc 300 functions of loops, switches and calls
cc1=$(gcc -print-prog-name=cc1)
# (in the guest gcc may not find it: then where Debian 12 installs it)
case $cc1 in /*) ;; *) cc1=$(ls /usr/lib/gcc/x86_64-linux-gnu/*/cc1 2>/dev/null | head -1) ;; esac
# ... and the driver then finds its programs relative to the working directory: give it
# their prefix (/usr/lib/gcc/)
export GCC_EXEC_PREFIX="${cc1%%x86_64-linux-gnu/*}"
head -c 4M "$cc1" > xz.in || fail "cannot read $cc1"
truncate -s 64G sha.in || fail "cannot make a sparse file"
awk -v n=300 'BEGIN {
	print "#include <string.h>"
	print "struct s { int a[16]; double d; char name[32]; };"
	for (i = 0; i < n; i++) {
		printf "int f%d(struct s *p, int k)\n{\n\tint r = %d;\n\n", i, i
		printf "\tfor (int j = 0; j < k; j++) {\n\t\tswitch ((p->a[j & 15] + j) & 7) {\n"
		for (c = 0; c < 8; c++)
			printf "\t\tcase %d: r = r * %d + p->a[(j + %d) & 15]; p->d += r / %d.0; break;\n",
				c, c + i % 5 + 2, c, c + 1
		printf "\t\t}\n\t\tif (r & %d)\n\t\t\tmemcpy(p->name, p->name + (j & 7), 8);\n\t}\n", i % 64 + 1
		if (i) printf "\treturn r + f%d(p, k - 1);\n}\n", i - 1
		else print "\treturn r;\n}"
	}
}' > gen.c

# start.sh WHEN: start the six programs in the background (niced, so that perf keeps up
# on the one vCPU); pids.txt gets "PID PROGRAM WHEN" for each (PROGRAM - for those not
# counted: gcc's driver)
cat > start.sh <<'EOF'
when=$1
nice -n 10 python3 -c '
import json
def f(n):
    return sum(len(json.dumps({"k": i, "v": [i] * 3})) for i in range(n))
while True:
    f(200)
' > /dev/null 2>&1 &
echo "$! python3 $when" >> pids.txt
nice -n 10 perl -e '
sub f { my $n = shift; $n < 2 ? $n : f($n - 1) + f($n - 2) }
while (1) { my $s = join ",", map { f(12) } 1 .. 10; $s =~ s/(\d+)/<$1>/g }
' > /dev/null 2>&1 &
echo "$! perl $when" >> pids.txt
nice -n 10 xz -9 -T1 -c xz.in > /dev/null 2>&1 &
echo "$! xz $when" >> pids.txt
nice -n 10 sqlite3 :memory: "WITH RECURSIVE c(x) AS (VALUES(1) UNION ALL SELECT x + 1 FROM c)
	SELECT count(*) FROM c WHERE hex(x * x) LIKE '%AB%';" > /dev/null 2>&1 &
echo "$! sqlite3 $when" >> pids.txt
nice -n 10 openssl dgst -sha512 sha.in > /dev/null 2>&1 &
echo "$! openssl $when" >> pids.txt
nice -n 10 gcc -O2 -S -o /dev/null gen.c > /dev/null 2>&1 &
gcc=$!
echo "$gcc - $when" >> pids.txt
# its cc1
i=0
while ! c=$(pgrep -P $gcc -x cc1); do
	i=$((i + 1))
	[ $i -le 600 ] || break
	sleep 0.1
done
echo "${c:-none} cc1 $when" >> pids.txt
EOF

: > pids.txt
trap 'kill $(awk "\$1 ~ /^[0-9]+\$/ { print \$1 }" pids.txt) 2> /dev/null' EXIT
before=$(splats)
sh ./start.sh before
# past their start-up (python3's takes a while under TCG)
sleep "$(per_flavour 2 3)"
"$PERF" record -q -e cpu-clock -F "$FREQ" --call-graph fp,defer -a -o all.data \
	-- sh -c "sh ./start.sh after; sleep $DUR" > record.out 2> record.err ||
	fail "perf record -a failed: $(tail -n 1 record.err)"
# shellcheck disable=SC2046
kill $(awk '$1 ~ /^[0-9]+$/ { print $1 }' pids.txt) 2> /dev/null
! grep -i "switching" record.err || fail "perf switched deferred callchains off"
cat pids.txt
! grep -q '^none ' pids.txt || fail "gcc started no cc1 in 60 s"
"$PERF" script --no-inline --no-demangle -i all.data -F comm,tid,ip,sym,dso,dsoff > all.txt 2> all.err ||
	fail "perf script failed: $(tail -n 1 all.err)"

# The samples of the programs' threads (pids.txt), one a line (perf_samples)
program_samples pids.txt all.txt > counted.txt

# the objects of the counted samples' user frames, and their outermost functions
# (tests/lib.sh)
sample_objects counted.txt > objects.txt
object_ranges objects.txt > ranges.txt
echo "outermost functions by address (file offsets):"
cat ranges.txt

# The table: per program and instance, and per program (tests/complete.awk)
complete_table pids.txt ranges.txt counted.txt threshold="$THRESHOLD" min="$MIN_SAMPLES" \
	mininst="$MIN_INSTANCE" programs="python3 perl xz sqlite3 cc1 openssl" whens="before after" \
	> table.txt 2> incomplete.txt
head -n 18 incomplete.txt
cat table.txt
no_new_splats "$before"
verdict=$(sed -n 's/^verdict: //p' table.txt)
[ "$verdict" = ok ] || fail "below $THRESHOLD% or too few samples:$verdict"
echo "PASS: every program >= $THRESHOLD% of its samples with a complete user stack"
