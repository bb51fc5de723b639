#!/bin/bash
# Print "kvm" if a guest boots under KVM here within a few seconds, else "tcg".
# (Nested KVM hangs on some machines.) The answer is cached per boot of the host.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cache=$top/build/kvm-probe.$(cut -c1-8 /proc/sys/kernel/random/boot_id)
[ -f "$cache" ] && { cat "$cache"; exit 0; }
res=tcg
if [ -w /dev/kvm ] && timeout -k 2 10 qemu-system-x86_64 -nodefaults -no-reboot -nographic \
	-accel kvm -cpu host -m 256M -kernel "$1" -append "console=ttyS0 panic=-1" \
	-serial stdio -monitor none 2>/dev/null | grep -q 'Kernel panic'; then
	res=kvm
fi
echo "$res" > "$cache"; echo "$res"
