#!/bin/bash
# make system-test, inside the booted Debian 12 system (run by du-system-test.service
# after nginx and Redis): one stage per boot, given in $OUT/stage; results and logs in
# $OUT (the host's build/system-test/, 9p tag "out"), then "0" or "1" in $OUT/rc and
# power off.
#   1  the services under load (ab, redis-benchmark), recorded system-wide with -g and
#      with --call-graph fp,defer, nothing set up (the kernel unwinds with .eh_frame;
#      perf.data files to $OUT for the host's report); libc6 and redis-server reinstalled
#      from APT's cache (an upgrade by rename: the next boot's shutdown remounts the
#      root read-only after it); then build 2 of the project's packages installed over
#      build 1
#   2  (the upgraded system) the new versions run, the services run; apt remove
#      sframe-tools, the services run
#   3  (after the removal) it booted, the services run, the tools are gone
OUT=/mnt/out
stage=$(cat $OUT/stage)
log=$OUT/stage$stage.log
exec > "$log" 2>&1
set -u
failed=0
say() { echo "system-test: $*"; }
fail() { echo "FAIL: $*"; failed=1; }
ok() { echo "ok: $*"; }
services="nginx redis-server"
export DEBIAN_FRONTEND=noninteractive

say "stage $stage, kernel $(uname -r)"
dpkg-query -W 'linux-image-*' 'linux-headers-*' perf-defer sframe-tools 2> /dev/null
for s in $services; do
	[ "$(systemctl is-active $s)" = active ] && ok "$s active, started $(systemctl show -p ExecMainStartTimestampMonotonic --value $s)" ||
		fail "$s: $(systemctl is-active $s)"
done

record() { # NAME CALL-GRAPH...: 4 s of the whole system
	name=$1
	shift
	perf-defer record -q -a -e cpu-clock -F 499 "$@" -o /tmp/$name.data -- sleep 4 2> /tmp/$name.err ||
		fail "perf record $name: $(tail -n 1 /tmp/$name.err)"
	cp /tmp/$name.data $OUT/$name.data
}

case $stage in
1)
	systemctl show -p ExecMainStartTimestampMonotonic --value $services > /tmp/started
	ab -q -k -c 2 -t 600 -n 1000000 http://127.0.0.1/ > /tmp/ab.out 2>&1 &
	load=$!
	redis-benchmark -q -l -c 2 -t set,get,lpush,lpop > /dev/null 2>&1 &
	load="$load $!"
	sleep 2
	record g -g
	record defer --call-graph fp,defer
	kill $load 2> /dev/null
	wait
	for s in $services; do echo "$s pid $(systemctl show -p MainPID --value $s)"; done
	[ "$(systemctl show -p ExecMainStartTimestampMonotonic --value $services)" = "$(cat /tmp/started)" ] &&
		ok "the services were not restarted while profiled" || fail "a service restarted"
	cp /proc/kallsyms $OUT/kallsyms
	for m in g defer; do
		perf-defer script -i /tmp/$m.data -F comm,tid,ip,sym > $OUT/$m.txt 2> /dev/null
	done

	# An upgrade replaces files by rename: libc6, and Redis' program (in redis-tools;
	# redis-server's postinst restarts the service on it). The processes that map the old
	# files keep them; the next boot's shutdown remounts the root read-only after it.
	libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
	ino=$(stat -c %i "$libc")
	apt-get install -y -q --reinstall --no-download libc6 redis-tools redis-server > /tmp/apt.out 2>&1 ||
		fail "reinstall from the cache: $(tail -n 3 /tmp/apt.out)"
	ino2=$(stat -c %i "$libc")
	[ "$ino" != "$ino2" ] && ok "libc6 reinstalled by rename (inode $ino -> $ino2)" ||
		fail "libc6's reinstall kept the inode"
	for s in $services; do
		[ "$(systemctl is-active $s)" = active ] || fail "$s not active after the reinstall"
	done

	apt-get install -y -q $OUT/debs2/*.deb > /tmp/apt2.out 2>&1 && ok "build 2 installed over build 1" ||
		fail "upgrade: $(tail -n 5 /tmp/apt2.out)"
	;;
2)
	v=$(dpkg-query -W -f='${Version}' sframe-tools)
	[ "$v" = "$(cat $OUT/version2)" ] && ok "sframe-tools $v" || fail "sframe-tools $v"
	[ "$(dpkg-query -W -f='${Version}' perf-defer)" = "$(cat $OUT/version2)" ] || fail "perf-defer not upgraded"
	[ "$(dpkg-query -W -f='${Version}' "linux-image-$(uname -r)")" = "$(cat $OUT/version2)" ] &&
		ok "booted linux-image-$(uname -r) $(cat $OUT/version2)" || fail "the kernel package was not upgraded"
	apt-get remove -y -q sframe-tools > /tmp/apt3.out 2>&1 && ok "apt remove sframe-tools" ||
		fail "remove: $(tail -n 3 /tmp/apt3.out)"
	for s in $services; do
		[ "$(systemctl is-active $s)" = active ] || fail "$s not active after the removal"
	done
	;;
3)
	! command -v sframe-conv > /dev/null && ok "sframe-conv removed" || fail "sframe-conv still installed"
	;;
esac
journalctl -k -b -o short-monotonic --no-pager > $OUT/kernel$stage.log
systemctl --failed --no-legend > $OUT/failed$stage.txt
[ ! -s $OUT/failed$stage.txt ] || say "failed units: $(cat $OUT/failed$stage.txt)"
echo $failed > $OUT/rc
sync
systemctl start --no-block poweroff.target
