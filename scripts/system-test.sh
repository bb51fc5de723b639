#!/bin/bash
# make system-test: the project's packages installed into Debian 12 as a user installs
# them, booted from a virtio disk with systemd, profiling real services.
#   1. packages: build 1 and build 2 (a newer build of the same sources) (scripts/deb.sh)
#   2. the root file system: Debian 12 from Debian's registry (scripts/system-image.sh,
#      cached), build 1 installed into it with apt, an ext4 disk image made of it
#   3. three boots of the disk (scripts/vm.sh -d), each running tests/system/guest.sh's
#      next stage from du-system-test.service: the profiles and an upgrade of libc6 and
#      Redis from APT's cache, then the upgrade to build 2, then the removal of
#      sframe-tools
#   4. the report: per service, the share of samples whose user stack reaches an
#      outermost frame with -g and with fp,defer, nothing set up (the kernel unwinds with
#      .eh_frame: >= 99% needed with fp,defer), flame graphs of each (PNG), no kernel
#      splat in any boot's journal
# Results in build/system-test/; the report's table and the checks also go to
# docs/results/system-test.md (header of scripts/results-header.sh). Ends with
# "N passed, N failed".
# SYSTEM_VM_TIMEOUT: seconds per boot (default 1500).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/system-test
passed=0 failed=0 checks=()
result() { # NAME OK(0/1) DETAIL
	local line
	if [ "$2" = 0 ]; then passed=$((passed + 1)); line="PASS $1${3:+: $3}"
	else failed=$((failed + 1)); line="FAIL $1${3:+: $3}"; fi
	echo "$line"
	checks+=("$line")
}
t0=$SECONDS

"$top/scripts/deb.sh" 1 > "$top/build/deb-1.log" 2>&1 || { tail -20 "$top/build/deb-1.log"; exit 1; }
DEB_LINT=0 "$top/scripts/deb.sh" 2 > "$top/build/deb-2.log" 2>&1 || { tail -20 "$top/build/deb-2.log"; exit 1; }
kver=$(make -s -C "$top/build/linux" kernelversion)
debs1=("$top"/build/deb/*_"$kver"-1_amd64.deb)
rm -rf "$out"
mkdir -p "$out/debs2"
cp "$top"/build/deb/*_"$kver"-2_amd64.deb "$out/debs2/"
echo "$kver-2" > "$out/version2"
cp "$top/tests/system/guest.sh" "$out/guest.sh"

tar=$("$top/scripts/system-image.sh" "${debs1[@]}")
root=$out/root
mkdir -p "$root"
tar -C "$root" -xf "$tar"
# Build 1, as a user installs it: apt, from the files (their dependencies are installed)
mkdir -p "$root/tmp/debs"
cp "${debs1[@]}" "$root/tmp/debs/"
chroot "$root" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/debs/*.deb' \
	> "$out/install.log" 2>&1 || { tail -20 "$out/install.log"; exit 1; }
rm -rf "$root/tmp/debs"
release=$(ls "$root/boot" | sed -n 's/^vmlinuz-//p' | head -n 1)
install -m 644 "$top/tests/system/du-system-test.service" "$root/etc/systemd/system/"
ln -sf ../du-system-test.service "$root/etc/systemd/system/multi-user.target.wants/du-system-test.service"
disk=$out/disk.img
truncate -s 4G "$disk"
mkfs.ext4 -q -F -L root -d "$root" "$disk"
echo "system-test: Debian 12 with $release on $disk ($(du -sh "$root" | cut -f1) used), $((SECONDS - t0)) s so far"

for stage in 1 2 3; do
	echo "$stage" > "$out/stage"
	rm -f "$out/rc"
	# The kernel the system has installed (the upgrade replaces it): from its /boot
	debugfs -R "dump /boot/vmlinuz-$release $out/vmlinuz" "$disk" > /dev/null 2>&1
	t=$SECONDS
	rc=0
	VM_TIMEOUT=${SYSTEM_VM_TIMEOUT:-1500} VM_MEM=2G "$top/scripts/vm.sh" -d "$disk" \
		-k "$out/vmlinuz" -o "$out" > "$out/vm$stage.log" 2>&1 || rc=$?
	mv "$out/console.log" "$out/console$stage.log" 2> /dev/null || true
	grep -E '^(ok|FAIL|system-test):' "$out/stage$stage.log" 2> /dev/null | sed 's/^/  /' || true
	result "boot $stage" "$rc" "$((SECONDS - t))s$([ "$rc" = 0 ] || echo ", $(tail -n 1 "$out/vm$stage.log")")"
	# the journal's kernel messages, and the console's (shutdown, or a boot that never
	# reached the test)
	splat=$(cat "$out/kernel$stage.log" "$out/console$stage.log" 2> /dev/null | "$top/scripts/scan-log.sh" || true)
	result "boot $stage: kernel log clean" "$([ -z "$splat" ] && echo 0 || echo 1)" "$splat"
done

rc=0
[ -f "$out/defer.txt" ] && "$top/tests/system/report.sh" "$out" || rc=1
result "report" "$rc"
for svc in nginx redis-server; do
	pct=$(sed -n "s/^defer $svc .* \([0-9]*\)%\$/\1/p" "$out/report.txt" 2> /dev/null)
	result "$svc: >= 99% outermost with fp,defer" "$([ "${pct:-0}" -ge 99 ] && echo 0 || echo 1)" "${pct:-no report}%"
done
rm -rf "$root"
echo "system-test: $((SECONDS - t0)) s; results in $out"
# docs/results/system-test.md: the report's table (MODE SERVICE samples=N complete=K P%,
# tests/system/report.sh) and every check
doc=$top/docs/results/system-test.md
mkdir -p "$(dirname "$doc")"
{
	BASE=6.12 "$top/scripts/results-header.sh" "System test" "make system-test"
	echo "Debian 12 with the packages of \`make deb\` ($kver) installed by apt, booted three times"
	echo "from a virtio disk under QEMU; $((SECONDS - t0)) s in all. nginx and Redis, started by"
	echo "systemd, recorded system-wide in each mode: the share of their samples whose user"
	echo "stack reaches an outermost frame (tests/system/report.sh)."
	echo
	if [ -s "$out/report.txt" ]; then
		echo "| service | \`-g\` | \`fp,defer\` |"
		echo "|---|--:|--:|"
		for svc in nginx redis-server; do
			row="| $svc"
			for m in g defer; do
				row="$row | $(awk -v m="$m" -v s="$svc" '$1 == m && $2 == s {
					print $5 " (" substr($4, 10) " of " substr($3, 9) ")"; f = 1 }
					END { if (!f) print "-" }' "$out/report.txt")"
			done
			echo "$row |"
		done
	else
		echo "No report: the first boot left no profiles."
	fi
	echo
	echo '```'
	printf '%s\n' "${checks[@]}"
	echo "$passed passed, $failed failed"
	echo '```'
} > "$doc.tmp"
mv "$doc.tmp" "$doc"
echo "system-test: ${doc#"$top"/}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
