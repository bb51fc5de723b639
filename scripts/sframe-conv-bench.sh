#!/bin/sh
# make sframe-conv-bench: what the LD_AUDIT helper (libsframe-audit.so) costs a program's
# start with a warm cache. Each program runs RUNS times without and RUNS times with the
# helper, alternately (build/sframe-conv/startbench): wall time from fork() to wait4()
# (min, median), peak RSS (median), and at the program's entry point (the dynamic linker
# and the helper done) the mappings, Rss, Pss, Private_Clean and Private_Dirty of
# smaps_rollup and what the mappings of cache files (the sections) hold.
#
# On a kernel without sframe_register() (ENOSYS) the helper would unmap the sections it
# cannot register; SFRAME_AUDIT_KEEP=1 keeps them mapped, as on a kernel with the series.
# The kernel's validation at registration reads the whole section: there the sections'
# shared pages are in Rss as well (page cache, shared with every process that maps them).
#
# Usage: sframe-conv-bench.sh BUILD_DIR [RUNS]   (BUILD_DIR: build/sframe-conv)
out=$1
runs=${2:-300}
audit=$out/libsframe-audit.so
bench=$out/startbench
[ -x "$bench" ] && [ -f "$audit" ] || { echo "usage: $0 BUILD_DIR [RUNS]" >&2; exit 2; }
work=$(mktemp -d /tmp/sframe-conv-bench.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
export SFRAME_CACHE_DIR="$work/cache" SFRAME_AUDIT_KEEP=1
unset SFRAME_AUDIT_DEBUG
# Pages of a file just written are dirty in the page cache: smaps would count the
# module's as Private_Dirty
sync "$audit" 2> /dev/null || sync

echo "kernel $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg);" \
	"$runs runs each, warm cache"
status=0
for prog in /bin/true "/bin/ls -d /" "/usr/bin/python3 -c pass"; do
	set -- $prog
	[ -x "$1" ] || { echo "$1: not there, skipped"; continue; }
	# Fill the cache, then check that every object comes from it
	LD_AUDIT="$audit" "$@" > /dev/null 2>&1
	SFRAME_AUDIT_DEBUG=1 LD_AUDIT="$audit" "$@" > /dev/null 2> "$work/warm.err"
	missed=$(grep 'sframe-audit:' "$work/warm.err" | grep -v 'cached)\|has SFrame')
	if [ -n "$missed" ]; then
		echo "$prog: not all from the cache: $missed"
		status=1
	fi
	objects=$(grep -c 'cached)' "$work/warm.err")
	echo "$prog: $objects objects from the cache"
	"$bench" -n "$runs" -a "$audit" -l "$(basename "$1")" -- "$@" || status=1
done
exit $status
