#!/bin/sh
# Guest side of `make bench-testcost` (scripts/bench-testcost.sh): ROUNDS rounds of
# bench/testcost's loops, one line each in $GUEST_OUT/raw.txt:
#   LOOP ROUND N elapsed_ns
# Environment: BIN (build/bench/bin), GUEST_OUT, ROUNDS (5), EXECS (300), CALLS (200000).
: "${BIN:?}" "${GUEST_OUT:=/tmp}" "${ROUNDS:=5}" "${EXECS:=300}" "${CALLS:=200000}"
raw=$GUEST_OUT/raw.txt
: > "$raw"
# The same address space layout for every exec: with it random, the instructions of a
# fork + exec vary by about 1% from round to round
echo 0 > /proc/sys/kernel/randomize_va_space
# From tmpfs: no page of the program is read over 9p inside a loop
cp "$BIN/testcost" /tmp/testcost || exit 1
/tmp/testcost exec 20 > /dev/null || exit 1
round=1
while [ "$round" -le "$ROUNDS" ]; do
	for loop in exec syscall; do
		n=$EXECS
		[ "$loop" = syscall ] && n=$CALLS
		out=$(/tmp/testcost "$loop" "$n") || { echo "testcost $loop failed" >&2; exit 1; }
		echo "$loop $round $n $(echo "$out" | awk '{ print $2 }')" >> "$raw"
	done
	round=$((round + 1))
done
cat "$raw"
