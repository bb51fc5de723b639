# The guest runs the kernel built from the base's tree (build/linux, build/linux-7.3),
# with its test interfaces, and with high-resolution timers on every CPU from the local
# APIC timer.
. "$TOP/tests/lib.sh"
want=$(cat "$TOP/build/kernel-$(flavour)$(base_sfx)/include/config/kernel.release")
got=$(uname -r)
[ "$got" = "$want" ] || fail "kernel release: expected $want, got $got"
[ -r /proc/kallsyms ] || fail "no /proc/kallsyms"
[ -d /sys/kernel/tracing/events ] || fail "tracefs not mounted"

# Without high-resolution timers (the APIC timer failed its calibration and the PIT
# ticks) cpu-clock and task-clock sample once per 4 ms tick, not at -F 1000: every
# sampling test would run on a crippled guest.
tl=/proc/timer_list
[ -r $tl ] || fail "no $tl"
cpus=$(grep -c '^cpu: ' $tl)
hres=$(grep -c '\.hres_active *: 1' $tl)
devs=$(awk '/^Per CPU device:/ { getline; sub(/^Clock Event Device: */, ""); print }' $tl |
	sort | uniq -c | awk '{ printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1 }')
if [ "$cpus" -lt 1 ] || [ "$hres" != "$cpus" ] || [ "$devs" != "lapic x$cpus" ]; then
	grep -E 'hres_active|^Per CPU device|^Clock Event Device' $tl
	fail "high-resolution timers: $hres of $cpus CPUs with hres_active, per-CPU clock event devices: ${devs:-none} (want lapic x$cpus): sampling falls back to the 4 ms tick (the console log tells why the APIC timer was not used)"
fi
echo "ok: $got, high-resolution timers on $cpus CPUs (lapic), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
