# The guest runs the kernel built from build/linux, with its test interfaces.
. "$TOP/tests/lib.sh"
want=$(cat "$TOP/build/kernel-$(flavour)/include/config/kernel.release")
got=$(uname -r)
[ "$got" = "$want" ] || fail "kernel release: expected $want, got $got"
[ -r /proc/kallsyms ] || fail "no /proc/kallsyms"
[ -d /sys/kernel/tracing/events ] || fail "tracefs not mounted"
echo "ok: $got"
