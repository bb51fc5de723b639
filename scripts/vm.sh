#!/bin/bash
# Boot a kernel in QEMU with the host root shared read-only over 9p, run one command in
# the guest, and bring back its output. Exit status: the command's, 124 on time-out.
# Usage: vm.sh [-k BZIMAGE] [-o OUTDIR] [-t SECONDS] [-m MEM] [-c CPUS] [-a ACCEL] [-i] -- CMD...
#        vm.sh -s [-k BZIMAGE] [-o OUTDIR] [-m MEM] [-c CPUS] [-a ACCEL]
#        vm.sh -d DISK [-k BZIMAGE] [-o OUTDIR] [-t SECONDS] [-m MEM] [-c CPUS] [-a ACCEL]
#   OUTDIR (rw 9p share, same path in the guest; not under /tmp, which the guest
#   mounts over) gets console.log, output (CMD's stdout and stderr), rc and whatever
#   CMD writes there.
#   -d boots a system installed on DISK (raw, ext4, virtio: /dev/vda) with its own init
#   (systemd) instead: no 9p root, no CMD; OUTDIR is shared with mount tag "out" for
#   the system to write rc (and its results) into.
#   -s gives an interactive shell on the guest's console (this terminal; Ctrl-A X quits
#   QEMU) instead of CMD, with the repository writable at its own path (a second 9p
#   share) and no time-out; `exit` powers the guest off.
#   -i runs QEMU with -icount (deterministic guest time, one vCPU) for benchmarks.
#   Environment: VM_MACHINE (QEMU machine, default pc), VM_APPEND (more kernel parameters),
#   VM_NO_LA57 (set: a CPU without 5-level paging),
#   VM_TIMEOUT, VM_MEM, VM_CPUS, VM_ACCEL (defaults of -t, -m, -c, -a).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=$top/build/kernel-default/arch/x86/boot/bzImage
out=$top/build/vm
timeout=${VM_TIMEOUT:-900} machine=${VM_MACHINE:-pc} mem=${VM_MEM:-2G} cpus=${VM_CPUS:-2} accel=${VM_ACCEL:-auto} icount= disk= shell=
while getopts k:o:t:m:c:a:id:s opt; do
	case $opt in
	k) kernel=$OPTARG ;; o) out=$OPTARG ;; t) timeout=$OPTARG ;; m) mem=$OPTARG ;;
	c) cpus=$OPTARG ;; a) accel=$OPTARG ;; i) icount=1 ;; d) disk=$OPTARG ;; s) shell=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || [ -n "$disk" ] || [ -n "$shell" ] || { echo "usage: vm.sh [options] -- CMD..." >&2; exit 2; }
[ -f "$kernel" ] || { echo "vm: no kernel $kernel" >&2; exit 1; }
mkdir -p "$out"; out=$(cd "$out" && pwd)
rm -f "$out/rc" "$out/console.log"
# The command for guest-init.sh, which evals it in POSIX sh (dash): every word in single
# quotes, a quote in it as '\'' (bash's printf %q writes $'...' for control characters,
# which dash reads as a literal $ and the escapes)
for word in "$@"; do printf "'%s' " "${word//\'/\'\\\'\'}"; done > "$out/cmd"

if [ "$accel" = auto ]; then
	accel=$("$top/scripts/kvm-probe.sh" "$kernel")
fi
cpu=max
if [ -n "$icount" ]; then
	accel=tcg cpus=1
	icount=(-icount shift=0,sleep=off)
else
	icount=()
fi
[ "$accel" = kvm ] && cpu=host
# VM_NO_LA57=1: no 5-level paging (scripts/check.sh sets it for the debug kernel). 7.3 has
# no CONFIG_X86_5LEVEL and uses LA57 whenever the CPU has it (QEMU's max CPU does; 6.12's
# configs have it off). With KASAN, 7.3's pgtable_l5_enabled() reads the boot CPU's
# capabilities until alternatives are patched, and identify_cpu() clears and fills them
# again: an interrupt in that window at boot gets "KASAN: wild-memory-access" on its
# irq_desc lock (a 5-level direct-map address, outside the 4-level shadow). Other guests
# keep LA57, and with it user addresses above 47 bits.
[ -n "${VM_NO_LA57:-}" ] && cpu+=,la57=off
# TCG runs the vCPUs in one thread: with a thread per vCPU (MTTCG, QEMU 7.2) a vCPU can
# keep running code another vCPU has rewritten, and the kernel's text patching (static
# calls and keys, when a tracepoint is turned on or off) then ends in "Oops: int3" at a
# patched site whose patch is long complete (the INT3 of its first step). Seen in
# __schedule() and ttwu_do_wakeup(); toggling sched_switch and sched_wakeup while tasks
# ping-pong over pipes crashes a 2-vCPU guest within seconds, and ran 240 s clean in one
# thread. One thread per guest also lets two guests run side by side on two cores.
[ "$accel" = tcg ] && [ "$cpus" -gt 1 ] && accel=tcg,thread=single

# Timers (with the ACPI PM timer and HPET of config/default.config): tsc=reliable keeps
# the TSC clocksource without a watchdog; no_timer_check skips the IO-APIC timer check,
# which counts PIT ticks in a busy wait of some 60 ms that a TCG guest on a loaded host
# can miss ("IO-APIC + timer doesn't work!", a panic at boot; KVM guests skip it too).
append="console=ttyS0 panic=-1 oops=panic tsc=reliable no_timer_check no_hash_pointers loglevel=6"
# The TSC rate, handed over: the guest's TSC is the host's (but with -icount), and its
# own calibration against the PIT can be wrong by 8x on a loaded host (the kernel keeps
# the PIT's value when the HPET disagrees); the clock then runs that much too fast.
if [ ${#icount[@]} -eq 0 ]; then
	if [ -x "$top/build/tsc-khz" ]; then
		append+=" tsc_early_khz=$("$top/build/tsc-khz")"
	else
		echo "vm: no $top/build/tsc-khz (make builds it): the guest calibrates its TSC itself" >&2
	fi
fi
# VM_APPEND: more kernel parameters
if [ -n "$disk" ]; then
	append+=" root=/dev/vda rw${VM_APPEND:+ $VM_APPEND}"
	root=(-drive "file=$disk,if=virtio,format=raw,cache=unsafe")
	echo "vm: booting $disk with $kernel ($accel, $cpus cpu, $mem)"
else
	append+=" root=hostroot rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro"
	append+=" init=$top/scripts/guest-init.sh du.out=$out${VM_APPEND:+ $VM_APPEND}"
	root=(-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap)
	echo "vm: booting $(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")") ($accel, $cpus cpu, $mem) for: ${*:-a shell}"
fi
# -s: the console on this terminal, the repository writable (du.work=), no time-out
serial=(-serial "file:$out/console.log")
if [ -n "$shell" ]; then
	append+=" du.work=$top loglevel=4"
	root+=(-virtfs local,path="$top",mount_tag=work,security_model=none,multidevs=remap)
	serial=(-serial mon:stdio)
	timeout=0
fi
set +e
timeout --foreground -k 10 "$timeout" qemu-system-x86_64 -nodefaults -no-reboot -nographic \
	-machine "$machine" -accel "$accel" -cpu "$cpu" -smp "$cpus" -m "$mem" "${icount[@]}" \
	-kernel "$kernel" -append "$append" \
	"${serial[@]}" -monitor none \
	-device virtio-rng-pci "${root[@]}" \
	-virtfs local,path="$out",mount_tag=out,security_model=none,multidevs=remap
qrc=$?
set -e
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "vm: guest did not finish within ${timeout}s (console: $out/console.log)" >&2
	exit 124
fi
[ -f "$out/rc" ] || { echo "vm: guest ended without a result (qemu $qrc; console: $out/console.log)" >&2; exit 125; }
exit "$(cat "$out/rc")"
