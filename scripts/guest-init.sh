#!/bin/sh
# PID 1 of the test guest. The root is the host's, read-only over 9p: give the guest
# its own /proc, /sys, /dev, tracefs, debugfs and scratch tmpfs, mount the rw results
# share (du.out= on the command line) at the same path, run the command the host
# wrote to OUT/cmd, keep its output in OUT/output (and on the console), store its
# exit status in OUT/rc and power off. With du.work=DIR (scripts/vm.sh -s), DIR (the
# repository) is mounted writable from the share "work" and the command runs on the
# console, interactively, as the session's leader with the console as its terminal, in a
# scratch directory.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmp /dev/shm
for d in /tmp /run /var/tmp /root; do mount -t tmpfs tmp "$d"; done
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
# kmemleak (debug kernel): no scans of its own (minutes of a TCG guest's time each, and
# reports of boot-time objects); the tests that check for leaks scan themselves
[ -w /sys/kernel/debug/kmemleak ] && echo scan=off > /sys/kernel/debug/kmemleak
work=$(sed -n 's/.*du\.work=\([^ ]*\).*/\1/p' /proc/cmdline)
[ -z "$work" ] || mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 work "$work"
out=$(sed -n 's/.*du\.out=\([^ ]*\).*/\1/p' /proc/cmdline)
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out "$out"
export HOME=/root TMPDIR=/tmp GUEST_OUT="$out"
hostname guest
ulimit -c 0
cd /tmp
echo "guest-init: running $(cat "$out/cmd")"
if [ -n "$work" ]; then
	# a scratch directory: tests write their files where they run
	cd "$(mktemp -d /tmp/shell.XXXXXX)"
	setsid -c sh -c "$(cat "$out/cmd")" < /dev/ttyS0 > /dev/ttyS0 2>&1
	echo $? > "$out/rc"
else
	eval "$(cat "$out/cmd")" < /dev/null > "$out/output" 2>&1
	echo $? > "$out/rc"
	cat "$out/output"
fi
sync
echo "guest-init: done, rc=$(cat "$out/rc")"
exec busybox reboot -f
