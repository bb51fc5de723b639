#!/bin/sh
# Guest side of the demo, ftrace part: a trace instance with userstacktrace_delay records
# the reads of the known chain; show its first 1 MiB read of /dev/zero, the cookie entry
# and the deferred user stack with file+offset of each frame.
# Usage: demo-ftrace.sh PROGRAM   (the chain program)
prog=$1
d=/sys/kernel/tracing/instances/demo
mkdir "$d" 2> /dev/null || exit 0
if [ -f "$d/options/userstacktrace_delay" ]; then
	echo "=== ftrace: instance with userstacktrace_delay, syscalls:sys_enter_read, $prog 3"
	echo 0 > "$d/set_event_pid"
	echo 1 > "$d/events/syscalls/sys_enter_read/enable"
	echo 1 > "$d/options/userstacktrace_delay"
	sh -c 'echo $$ > "$1/set_event_pid"; exec "$0" 3' "$prog" "$d"
	# (7.3 prints the arguments with 0x)
	grep -m1 -A7 -E "sys_read\(fd: (0x)?3, .*count: (0x)?100000\)" "$d/trace"
	echo 0 > "$d/events/enable"
	echo
fi
rmdir "$d"
