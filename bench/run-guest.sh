#!/bin/sh
# Guest side of `make bench` (scripts/bench.sh boots the VM with it): run every
# workload in every mode, one after the other, and append one line of raw numbers per
# run to $GUEST_OUT/raw.txt:
#   WORKLOAD MODE key=value...      or      WORKLOAD MODE n/a REASON
# and "#note WORKLOAD MODE TEXT" for what perf script said on stderr (first line).
# Keys: elapsed_ns and cpu_ns (the workload's own hot-phase wall and CPU time, from its
# output "elapsed_ns N cpu_ns C"), record_ns and record_cpu_ns (the whole perf record
# command, or the program alone: guest time, and CPU time of all its processes),
# samples, data_bytes (perf.data
# data section), records (PERF_RECORD_CALLCHAIN_DEFERRED), unwinds and entries (deltas
# of the deferred unwinder's counters), complete (samples whose user part reaches
# main/__libc_start_call_main, or start_thread/clone for threads), deepest (user frames),
# userframes (user frames of all samples).
# Environment: TOP, PERF, BIN (the workloads, build/bench/bin; run from a copy in /tmp), GUEST_OUT,
#   SFRAME=1 if the kernel has the SFrame unwinder, WORKLOADS and MODES (subsets),
#   REPEAT (rounds of fault's none, fp and defer runs, default 3: see below).
: "${TOP:?}" "${PERF:=$TOP/build/perf/perf}" "${BIN:=$TOP/build/bench/bin}" "${GUEST_OUT:=/tmp}"
: "${SFRAME:=0}"
: "${WORKLOADS:=deep deep50 zero fault compute threads deep-32 deep50-32 manyfre}"
: "${MODES:=none sfnone fp defer dwarf sframe sfv3 sfv2}"
: "${REPEAT:=3}"
EVENT="-e cpu-clock -F 1000"
# manyfre (one function with ~200000 FREs) as the issue that found it ran it
MANYFRE_EVENT="-e task-clock -c 1000000"
ctl=/sys/kernel/debug/unwind_deferred_test/ctl
raw=$GUEST_OUT/raw.txt
logs=$GUEST_OUT/logs
data=/tmp/bench.data
mkdir -p "$logs"
: > "$raw"

# The workloads run from tmpfs: no page of theirs (text, .sframe) is read over 9p in a
# hot phase, where a wait for the host would make the guest's clock jump ahead
rm -rf /tmp/bench-bin && cp -r "$BIN" /tmp/bench-bin && BIN=/tmp/bench-bin

# Keep the sampling rate fixed: no lowering of perf_event_max_sample_rate when the
# (slow, emulated) interrupts take long.
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent

# The CPU time (user + system) in ns of the finished children in a file written by
# `times` (the builtin, run in this shell: a subshell would not see the children)
children_ns() {
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2]); t += a[1] * 60 + a[2] }
		printf "%.0f\n", t * 1e9
	}' "$1"
}

# "unwinds U deferred D" from the test interface (0 0 without it)
counters() {
	if [ -r "$ctl" ]; then
		head -n 1 "$ctl" | awk '{ print $2, $4 }'
	else
		echo 0 0
	fi
}

# perf record options of a mode
callgraph() {
	case $1 in
	fp) echo "-g" ;;
	defer | sframe | sfv3 | sfv2) echo "--call-graph fp,defer" ;;
	dwarf) echo "--call-graph dwarf" ;;
	esac
}

# The perf record event of a workload
event() {
	case $1 in
	manyfre) echo "$MANYFRE_EVENT" ;;
	*) echo "$EVENT" ;;
	esac
}

# The program (and arguments) a workload runs in a mode, or nothing if the mode does not
# apply. deep50 is deep at depth 50: the second depth of the per-frame cost figures.
program() { # WORKLOAD MODE
	w=$1 args=
	case $w in
	deep50) w=deep args=50 ;;
	deep50-32) w=deep-32 args=50 ;;
	esac
	case $w:$2 in
	manyfre:dwarf | manyfre:sframe | manyfre:sfnone | manyfre:sfv?) ;;	# an SFrame build already
	*:sframe | *:sfnone) [ -x "$BIN/$w-sframe" ] && echo "$BIN/$w-sframe $args" ;;
	# the section sframe-conv makes of .eh_frame, V3 or v2, in the file (bench/bench.mk)
	*:sfv3 | *:sfv2) [ -x "$BIN/$w-$2" ] && echo "$BIN/$w-$2 $args" ;;
	*) echo "$BIN/$w $args" ;;
	esac
}

# perf script -F comm,tid,ip,sym on stdin -> "samples=S complete=C deepest=D";
# the first 5 incomplete samples go to file $1
chains() {
	awk -f "$TOP/tests/perf-samples.awk" | awk -F '\t' -v bad="$1" '
	{
		samples++
		user = 0; done = 0
		for (i = 2; i <= NF; i++) {
			split($i, f, " ")
			if (f[1] ~ /^ffff/) continue
			user++
			s = f[2]
			if (s == "main" || s == "__libc_start_call_main" || s == "start_thread" ||
			    s ~ /^clone3?$/ || s ~ /^__clone/)
				done = 1
		}
		frames += user
		if (done) complete++
		else if (nbad++ < 5) { chain = $0; gsub(/\t/, "\n\t", chain); print chain "\n" > bad }
		if (user > deepest) deepest = user
	}
	END {
		printf "samples=%d complete=%d deepest=%d userframes=%d\n", samples, complete, deepest,
			frames
	}'
}

run() { # WORKLOAD MODE [ROUND]
	w=$1 mode=$2 log=$logs/$1-$2${3:+-$3}
	prog=$(program "$w" "$mode")
	if { [ "$mode" = sframe ] || [ "${mode#sfv}" != "$mode" ]; } && [ "$SFRAME" != 1 ]; then
		echo "$w $mode n/a kernel without the SFrame unwinder" >> "$raw"; return
	fi
	if [ -z "$prog" ]; then
		case $w in
		manyfre) ;;
		*) echo "$w $mode n/a no SFrame build (x86-64 only)" >> "$raw" ;;
		esac
		return
	fi
	set -- $(counters)	# unwinds, entries before the run in $1 $2, after it in $3 $4
	# record_ns must not wait for the host (the guest clock jumps while it is idle):
	# perf and the program are read from 9p first, the output goes to tmpfs
	cat "$PERF" "${prog%% *}" > /dev/null
	times > /tmp/bench.times0
	t0=$(date +%s%N)
	if [ "$mode" = none ] || [ "$mode" = sfnone ]; then
		$prog > /tmp/bench.out 2> /tmp/bench.err
	else
		# -B: no build-id pass over the data after the run (symbols are found by path)
		"$PERF" record -q -B $(event "$w") $(callgraph "$mode") -o "$data" -- $prog \
			> /tmp/bench.out 2> /tmp/bench.err
	fi
	rc=$?
	t1=$(date +%s%N)
	times > /tmp/bench.times1
	mv /tmp/bench.out "$log.out"
	mv /tmp/bench.err "$log.err"
	set -- "$@" $(counters)
	elapsed=$(sed -n 's/^elapsed_ns \([0-9]*\).*/\1/p' "$log.out")
	cpu=$(sed -n 's/.* cpu_ns \([0-9]*\).*/\1/p' "$log.out")
	if [ $rc -ne 0 ] || [ -z "$elapsed" ]; then
		echo "$w $mode n/a failed (rc $rc): $(tail -n 1 "$log.err")" >> "$raw"; return
	fi
	line="$w $mode elapsed_ns=$elapsed cpu_ns=${cpu:-0} record_ns=$((t1 - t0))"
	line="$line record_cpu_ns=$(($(children_ns /tmp/bench.times1) - $(children_ns /tmp/bench.times0)))"
	# the unwinder's counters: with its test interface only
	[ -r "$ctl" ] && line="$line unwinds=$(($3 - $1)) entries=$(($4 - $2))"
	if [ "$mode" != none ] && [ "$mode" != sfnone ]; then
		bytes=$("$PERF" report -i "$data" --header-only 2>/dev/null |
			sed -n 's/^# data size *: *\([0-9]*\).*/\1/p')
		records=$("$PERF" report -i "$data" --stats 2>/dev/null |
			awk '/CALLCHAIN_DEFERRED events:/ { print $3; exit }')
		stats=$("$PERF" script -i "$data" --max-stack 1024 -F comm,tid,ip,sym 2> "$log.script.err" |
			chains "$log.incomplete")
		case $mode in defer | sframe)
			"$PERF" evlist -v -i "$data" 2>/dev/null | grep -q "defer_callchain: 1" ||
				echo "#note $w $mode perf recorded without defer_callchain" >> "$raw" ;;
		esac
		line="$line data_bytes=${bytes:-0} records=${records:-0} $stats"
		rm -f "$data"
	fi
	echo "$line" >> "$raw"
	if [ -s "$log.script.err" ]; then
		echo "#note $w $mode perf script: $(head -n 1 "$log.script.err")" >> "$raw"
	fi
	echo "bench: $line"
}

echo "kernel $(uname -r) $(uname -v)" > "$GUEST_OUT/info.txt"
echo "perf $("$PERF" version 2>&1)" >> "$GUEST_OUT/info.txt"
echo "event $EVENT" >> "$GUEST_OUT/info.txt"
echo "manyfre_event $MANYFRE_EVENT" >> "$GUEST_OUT/info.txt"
echo "sframe $SFRAME" >> "$GUEST_OUT/info.txt"
for w in $WORKLOADS; do
	for m in $MODES; do
		run "$w" "$m"
	done
done
# fault's in-task cost per sample differs by up to ~10% from one run to the next, and
# even its CPU time without sampling by ~0.4 ms (the page allocator's state?): its runs
# without sampling, with -g and with fp,defer go on, in turn, for REPEAT rounds in all,
# and the report takes the median of each number
i=1
case " $WORKLOADS " in *" fault "*) ;; *) i=$REPEAT ;; esac
while [ $i -lt "$REPEAT" ]; do
	for m in none fp defer; do
		case " $MODES " in *" $m "*) run fault "$m" $((i + 1)) ;; esac
	done
	i=$((i + 1))
done
