# .eh_frame unwinding of processes whose files this mount namespace does not have
# (issue 44: "a process in a container ... is complete, and so is a program that runs
# from an overlayfs lower layer"). xz -9 -T1 (Debian's, like its liblzma built without
# frame pointers or SFrame) runs in a container: its own mount namespace (unshare -m
# --propagation private), a private tmpfs root holding copies of xz, its libraries and
# ld.so, chrooted. perl (a recursive sub, libperl) runs from an overlayfs mount in a
# namespace of its own: the lower layer holds the copies, upper and work dirs are on a
# tmpfs, perl runs chrooted in the merged dir, and nothing is copied up (the upper dir
# stays empty). Without overlayfs in the kernel, perl runs in a tmpfs container like xz,
# and the test ends in a skip that says so once the rest has passed. The kernel walks
# with the .eh_frame mapped in each process's own memory, wherever its files came from;
# it is perf that must name them: both stay alive until perf script has run (perf finds
# their files through their namespaces), and are killed after. perf record -a
# --call-graph fp,defer for a few seconds while both run; per program, the share of its
# samples with user frames whose user stack reaches an outermost frame (tests/lib.sh,
# tests/complete.awk, as ehframe-complete): by the name perf gives the function, or by
# file offset in ranges computed from the host's original of each copy (byte for byte
# the same), as the container's paths (ROOT/usr/bin/xz as this namespace prints them)
# are not files here. Samples whose deferred stack never came (only the cookie) are
# counted apart. Fails below THRESHOLD percent, with too few samples, or on a new
# kernel splat.
# timeout: 300
. "$TOP/tests/lib.sh"

# The share (percent, of each program's samples with user frames) that must be complete
THRESHOLD=99
# Samples at least, per program; seconds recorded and the rate (one vCPU, two niced
# programs: some 600 samples each under TCG on the default kernel)
MIN_SAMPLES=$(per_flavour 200 60)
DUR=$(per_flavour 4 3)
FREQ=$(per_flavour 400 200)

[ "$(id -u)" = 0 ] || skip "needs root (mount namespaces, chroot)"
for c in xz perl ldd chroot unshare nsenter readelf objdump; do
	command -v $c > /dev/null || skip "no $c"
done
unshare -m --propagation private true 2> /dev/null || skip "unshare -m does not work here"
overlay=
grep -qw overlay /proc/filesystems && overlay=1
unset LD_AUDIT LD_PRELOAD SFRAME_AUDIT_DEBUG
# (the guest's PATH may be the shell's only: nice must find chroot in /usr/sbin)
export LC_ALL=C PATH

xz=$(command -v xz)
perl=$(command -v perl)

# stage DIR PROGRAM: copies of PROGRAM and the objects ldd says it loads (ld.so
# included) in DIR, each at its own path under DIR
stage() {
	for f in "$2" $(ldd "$2" | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		if ! mkdir -p "$1${f%/*}" || ! cp -L "$f" "$1$f"; then
			fail "cannot copy $f to $1"
		fi
	done
}
stage "$PWD/stage-xz" "$xz"
stage "$PWD/stage-perl" "$perl"
echo "copies: $(cd stage-xz && find . -type f | tr '\n' ' ')"
echo "        $(cd stage-perl && find . -type f | tr '\n' ' ')"

# The container: ROOT a tmpfs mounted in a mount namespace of its own (this namespace
# sees an empty directory), the copies in it, xz -9 chrooted there. unshare, nice and
# chroot exec: $! is xz's pid.
root=$PWD/root ov=$PWD/ov
mkdir -p "$root" "$ov"
: > pids.txt
trap 'kill $(awk "{ print \$1 }" pids.txt) 2> /dev/null' EXIT
# shellcheck disable=SC2016 # the namespace's shell expands them
unshare -m --propagation private sh -c '
	mount -t tmpfs none "$1" && cp -a "$2/." "$1/" || exit 1
	exec nice -n 10 chroot "$1" "$3" -9 -T1 -c' sh "$root" "$PWD/stage-xz" "$xz" \
	< /dev/urandom > /dev/null 2> xz.err &
echo "$! xz container" >> pids.txt

# perl: from the merged dir of an overlayfs whose lower layer is the copies (upper and
# work dirs on a tmpfs of its namespace), or without overlayfs from a tmpfs like xz. Its
# script is a file among the copies (perl -e opens /dev/null, which they do not have).
cat > stage-perl/fib.pl <<'EOF'
sub f { my $n = shift; $n < 2 ? $n : f($n - 1) + f($n - 2) }
while (1) { my $s = join ",", map { f(12) } 1 .. 10; $s =~ s/(\d+)/<$1>/g }
EOF
if [ -n "$overlay" ]; then
	# shellcheck disable=SC2016
	unshare -m --propagation private sh -c '
		ov=$1 lower=$2
		shift 2
		mount -t tmpfs none "$ov" && mkdir "$ov/upper" "$ov/work" "$ov/merged" &&
			mount -t overlay overlay -o "lowerdir=$lower,upperdir=$ov/upper,workdir=$ov/work" \
				"$ov/merged" || exit 1
		exec nice -n 10 chroot "$ov/merged" "$@"' sh "$ov" "$PWD/stage-perl" "$perl" /fib.pl \
		> /dev/null 2> perl.err &
	echo "$! perl overlay" >> pids.txt
	perlroot=$ov/merged
else
	# shellcheck disable=SC2016
	unshare -m --propagation private sh -c '
		root=$1 lower=$2
		shift 2
		mount -t tmpfs none "$root" && cp -a "$lower/." "$root/" || exit 1
		exec nice -n 10 chroot "$root" "$@"' sh "$ov" "$PWD/stage-perl" "$perl" /fib.pl \
		> /dev/null 2> perl.err &
	echo "$! perl container" >> pids.txt
	perlroot=$ov
fi

# started: each runs its program (the comm of its pid), from the file system it
# should, mapping the copies (/proc/PID/maps names them by this namespace's paths:
# under $root or $perlroot)
while read -r pid p where; do
	n=0
	until [ "$(cat /proc/"$pid"/comm 2> /dev/null)" = "$p" ]; do
		kill -0 "$pid" 2> /dev/null || fail "$p ($where) did not start: $(tail -n 1 "$p.err")"
		n=$((n + 1))
		[ $n -lt 300 ] || fail "no $p in its $where after 30 s"
		sleep 0.1
	done
	fs=$(awk '$5 == "/" { for (i = 7; i < NF; i++) if ($i == "-") t = $(i + 1) } END { print t }' \
		/proc/"$pid"/mountinfo)
	if [ "$p" = xz ]; then dir=$root; else dir=$perlroot; fi
	maps=$(grep -c " $dir/" /proc/"$pid"/maps)
	echo "$p (pid $pid, $where): root file system $fs, $maps mappings of files under $dir"
	case $where in
	overlay) [ "$fs" = overlay ] || fail "$p's root is $fs, not the overlay" ;;
	*) [ "$fs" = tmpfs ] || fail "$p's root is $fs, not its tmpfs" ;;
	esac
	[ "$maps" -gt 0 ] || fail "$p maps no file under $dir: $(grep ' /' /proc/"$pid"/maps | head -n 3)"
done < pids.txt
# past their start-up
sleep "$(per_flavour 1 2)"

before=$(splats)
"$PERF" record -q -N -e cpu-clock -F "$FREQ" --call-graph fp,defer -a -o all.data \
	-- sleep "$DUR" > record.out 2> record.err ||
	fail "perf record -a failed: $(tail -n 1 record.err)"
! grep -i "switching" record.err || fail "perf switched deferred callchains off"
while read -r pid p where; do
	kill -0 "$pid" 2> /dev/null || fail "$p ($where) died while recorded: $(tail -n 1 "$p.err")"
done < pids.txt
"$PERF" script --no-inline --no-demangle -i all.data -F comm,tid,ip,sym,dso,dsoff > all.txt 2> all.err ||
	fail "perf script failed: $(tail -n 1 all.err)"
# the overlay: nothing copied up (what perl's namespace has in the upper dir)
if [ -n "$overlay" ]; then
	pid=$(awk '$2 == "perl" { print $1 }' pids.txt)
	up=$(nsenter -t "$pid" -m find "$ov/upper" -mindepth 1) || fail "cannot look into perl's namespace"
	[ -z "$up" ] || fail "copied up to the overlay's upper dir: $up"
	echo "the overlay's upper dir: empty"
fi
# shellcheck disable=SC2046
kill $(awk '{ print $1 }' pids.txt) 2> /dev/null
cat pids.txt

# The samples of the two programs, the objects of their user frames (the container's
# paths), their outermost functions found in the host's originals of the copies
program_samples pids.txt all.txt > counted.txt
sample_objects counted.txt > objects.txt
echo "objects of the user frames, as perf names them:"
cat objects.txt
object_ranges objects.txt "$root" "$perlroot" > ranges.txt
echo "outermost functions by address (file offsets):"
cat ranges.txt

complete_table pids.txt ranges.txt counted.txt threshold="$THRESHOLD" min="$MIN_SAMPLES" mininst=0 \
	programs="xz perl" whens="container overlay" > table.txt 2> incomplete.txt
head -n 6 incomplete.txt
cat table.txt
no_new_splats "$before"
verdict=$(sed -n 's/^verdict: //p' table.txt)
[ "$verdict" = ok ] || fail "below $THRESHOLD% or too few samples:$verdict"
shares=$(awk 'NR > 1 && $1 != "verdict:" { printf "%s%s %s %s", sep, $1, $2, $5; sep = ", " }' table.txt)
[ -n "$overlay" ] ||
	skip "no overlayfs in this kernel (not in /proc/filesystems): the overlay not tested;" \
		"containers complete ($shares)"
echo "PASS: >= $THRESHOLD% of the samples complete in a container and from an overlay ($shares)"
