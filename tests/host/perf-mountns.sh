# perf script and perf report on system wide recordings (perf record -a -g) of a process
# that runs in a mount namespace of its own from a private tmpfs: copies of xz and its
# libraries, chroot into it inside unshare -m --propagation private, recorded a few
# seconds after it started, gone when perf reads the recording. perf finds neither the
# namespace (the process is gone) nor the files (not in this namespace); by the
# build-ids that perf record read from the container, it finds debuginfo files: the
# distribution's (e.g. libc6-dbg for the container's libc), and one this test puts in
# the build-id cache for the container's liblzma (objcopy --only-keep-debug, with a
# symbol table made of liblzma's exported functions). perf used to read the .plt.got
# of such a file, which has none (SHT_NOBITS), and die of SIGSEGV (fixed by "perf
# symbol: Don't read the .plt.got of a debuginfo file"). Each recording: perf script
# and perf report exit without a signal, and frames in the container's liblzma get
# symbols of the debuginfo file (its exported lzma_ functions, sizeless: the code after
# one gets its name). That perf loaded them is checked, not which names the frames get:
# the debuginfo file is the runtime symbol source too, and its segments' file offsets
# are not the object's (0), so perf places the symbols off by the text segment's offset.
# The recordings take no build-id cache copies (perf record -N, as with a read-only
# home), which would give perf the container's files.
# timeout: 240
. "$TOP/tests/lib.sh"
runs=${PERF_MOUNTNS_RUNS:-5}
[ "$(id -u)" = 0 ] || skip "needs root (mount namespaces, chroot)"
for t in xz chroot unshare ldd objcopy nm readelf; do
	command -v $t > /dev/null || skip "no $t"
done
unshare -m --propagation private true 2> /dev/null || skip "unshare -m does not work here"
"$PERF" record -N -a -e cpu-clock -o probe.data -- true > /dev/null 2>&1 ||
	skip "perf record -a does not work here"

xz=$(command -v xz)
lzma=$(ldd "$xz" | awk '$1 ~ /^liblzma\./ { print $3 }')
[ -f "$lzma" ] || skip "$xz has no liblzma"

# The debuginfo file of liblzma (of the container's copy: the same file) in a build-id
# cache of our own, where perf looks for it ($HOME/.debug/.build-id/XX/REST/debug)
export HOME=$PWD
bid=$(readelf -n "$lzma" | awk '/Build ID:/ { print $3 }')
[ -n "$bid" ] || skip "$lzma has no build-id"
dir=$HOME/.debug/.build-id/$(echo "$bid" | cut -c 1-2)/$(echo "$bid" | cut -c 3-)
mkdir -p "$dir"
text=0x$(readelf -SW "$lzma" | awk '$2 == ".text" { print $4 }')
nm -D --defined-only "$lzma" | while read -r addr type name; do
	[ "$type" = T ] && printf -- '--add-symbol=%s=.text:%#x,global,function\n' \
		"${name%%@*}" $((0x$addr - text))
done > syms.args
[ -s syms.args ] || fail "no exported functions in $lzma"
objcopy --only-keep-debug "$lzma" lzma.debug || fail "objcopy --only-keep-debug failed"
# shellcheck disable=SC2046 # one argument a line, none with blanks
objcopy $(cat syms.args) lzma.debug "$dir/debug" || fail "objcopy --add-symbol failed"
readelf -SW "$dir/debug" | grep -q '\.plt\.got  *NOBITS' ||
	echo "note: the debuginfo file has no SHT_NOBITS .plt.got: it cannot show the old crash"

# The container: its root a tmpfs mounted in its own mount namespace (this namespace sees
# the empty directory), xz -9 chrooted into it, compressing random data until killed.
# unshare and chroot exec: $! is xz's pid.
root=$PWD/root
mkdir -p "$root"
container() {
	unshare -m --propagation private sh -c '
		root=$1
		mount -t tmpfs none "$root" || exit 1
		for f in "$2" $(ldd "$2" | awk "\$3 ~ /^\\// { print \$3 } \$1 ~ /^\\// { print \$1 }"); do
			mkdir -p "$root${f%/*}" && cp -L "$f" "$root$f" || exit 1
		done
		exec chroot "$root" "$2" -9 -c < /dev/urandom > /dev/null' sh "$root" "$xz" &
	pid=$!
}
pid=
trap '[ -z "$pid" ] || kill $pid 2> /dev/null' EXIT
trap 'exit 1' HUP INT TERM

crashes=0 nosyms=0 resolved=0 frames=0
i=1
while [ $i -le $runs ]; do
	container
	n=0
	until [ "$(cat /proc/$pid/comm 2> /dev/null)" = xz ]; do
		kill -0 $pid 2> /dev/null || fail "run $i: the container did not start"
		n=$((n + 1))
		[ $n -lt 100 ] || fail "run $i: no xz in the container after 10 s"
		sleep 0.1
	done
	sleep 2
	"$PERF" record -N -a -g -e cpu-clock -o perf$i.data -- sleep 3 > record$i.out 2>&1 ||
		{ cat record$i.out; fail "run $i: perf record failed"; }
	kill $pid
	wait $pid 2> /dev/null
	pid=
	"$PERF" buildid-list -i perf$i.data 2> /dev/null | grep -F "$root/" |
		sed "s/^/run $i: build-id of the container's /"
	for cmd in script report; do
		if [ $cmd = report ]; then set -- --stdio; else set --; fi
		"$PERF" $cmd -i perf$i.data "$@" > $cmd$i.out 2> $cmd$i.err
		rc=$?
		echo "run $i: perf $cmd: exit status $rc"
		if [ $rc -ge 128 ]; then
			tail -n 5 $cmd$i.err
			crashes=$((crashes + 1))
		fi
	done
	# the frames in the container's liblzma: "ADDR SYM+OFF (DSO)"
	counts=$(awk -v dso="($root/" -v lib="/${lzma##*/})" '
		index($0, dso) && substr($NF, length($NF) - length(lib) + 1) == lib {
			n++; if ($2 ~ /^lzma_/) r++ }
		END { print n + 0, r + 0 }' script$i.out)
	n=${counts% *} r=${counts#* }
	echo "run $i: $n frames in the container's liblzma, $r with an lzma_ symbol"
	[ "$r" -gt 0 ] || nosyms=$((nosyms + 1))
	frames=$((frames + n)) resolved=$((resolved + r))
	i=$((i + 1))
done
[ $crashes -eq 0 ] || fail "perf script/report died of a signal $crashes times in $runs recordings"
[ $nosyms -eq 0 ] ||
	fail "$nosyms of $runs recordings without lzma_ symbols in the container's liblzma"
echo "$runs recordings, no crash; $resolved of $frames frames in the container's liblzma with an lzma_ symbol"
