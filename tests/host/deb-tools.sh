# make check's part of make system-test: the sframe-tools package (scripts/deb.sh, lintian
# clean but for the tags tools/deb/lintian-known lists) installed with apt into a Debian 12
# root (scripts/system-image.sh: mmdebstrap, cached), as a user installs it, with no
# network: the converter runs there (its libraries are all declared), no unit or APT hook
# of the sections attached to files (retired) is installed; a newer build installs over
# it, and clears what an older build's units and hook left (as if it had been there);
# remove and purge leave nothing behind. (No boot: make system-test boots such a system
# with the kernel package and profiles its services.)
# timeout: 900
. "$TOP/tests/lib.sh"
for c in mmdebstrap lintian help2man dpkg-shlibdeps; do
	command -v $c > /dev/null || skip "no $c (make deps)"
done
kver=$(make -s -C "$TOP/build/linux" kernelversion)
"$TOP/scripts/deb.sh" 1 tools > deb1.log 2>&1 || fail "deb.sh 1 tools: $(tail -n 5 deb1.log)"
"$TOP/scripts/deb.sh" 2 tools > deb2.log 2>&1 || fail "deb.sh 2 tools: $(tail -n 5 deb2.log)"
grep -A 20 '^deb: lintian' deb1.log
deb1=$TOP/build/deb/sframe-tools_$kver-1_amd64.deb deb2=$TOP/build/deb/sframe-tools_$kver-2_amd64.deb
tar=$("$TOP/scripts/system-image.sh" "$deb1" 2> image.log) || fail "system-image.sh: $(tail -n 5 image.log)"
root=$PWD/root
mkdir root
trap 'rm -rf "$root"' EXIT
tar -C root -xf "$tar"
cp "$deb1" "$deb2" root/tmp/
in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive "$@"; }
# (no network needed: the packages' dependencies are in the root, libc6's .deb in its
# APT cache)
apt_get() { in_root apt-get -y -q "$@" > apt.log 2>&1 || fail "apt-get $*: $(tail -n 5 apt.log)"; }

apt_get install "/tmp/$(basename "$deb1")"
in_root sframe-conv --help | grep -q 'sframe-conv cache' || fail "sframe-conv --help"
in_root sh -c 'zcat /usr/share/man/man1/sframe-conv.1.gz' | grep -q LD_AUDIT ||
	fail "no manual page"
r=$(in_root sframe-conv convert /lib/x86_64-linux-gnu/libc.so.6 2>&1) || fail "sframe-conv in the Debian root: $r"
echo "converted in the root: $r"
[ -f root/usr/lib/sframe-tools/libsframe-audit.so ] || fail "no LD_AUDIT helper"
# attached (retired): what an older build left, the hook, the enabled units, the cache
retired() {
	find root/etc/apt/apt.conf.d root/etc/systemd root/var/lib/systemd root/lib/systemd \
		root/var/cache \( -name '*sframe-attach*' -o -name sframe-conv \) 2> /dev/null
}
[ -z "$(retired)" ] || fail "installed: $(retired)"
echo "PASS: installed, runs, no unit, timer nor APT hook"

# What a build with the units and the hook leaves (the hook, dpkg's record of it as the
# package's conffile, the timer enabled, the cache): build 2 clears it
echo "// an older build's hook" > root/etc/apt/apt.conf.d/90sframe-attach
sum=$(md5sum < root/etc/apt/apt.conf.d/90sframe-attach | cut -d' ' -f1)
printf ' /etc/apt/apt.conf.d/90sframe-attach %s\n' "$sum" > conffiles.txt
awk 'FNR == NR { c = c $0 "\n"; next } { print } /^Package: sframe-tools$/ { p = 1 }
	p && /^Status:/ { printf "Conffiles:\n%s", c; p = 0 }' conffiles.txt \
	root/var/lib/dpkg/status > status.new
cp status.new root/var/lib/dpkg/status
echo /etc/apt/apt.conf.d/90sframe-attach >> root/var/lib/dpkg/info/sframe-tools.list
link=/etc/systemd/system/timers.target.wants/sframe-attach.timer
state=root/var/lib/systemd/deb-systemd-helper-enabled
mkdir -p root/var/cache/sframe-conv "root${link%/*}" "$state/timers.target.wants"
ln -s /lib/systemd/system/sframe-attach.timer "root$link"
echo "$link" > "$state/sframe-attach.timer.dsh-also"
touch "$state/timers.target.wants/sframe-attach.timer"
apt_get install "/tmp/$(basename "$deb2")"
[ "$(in_root dpkg-query -W -f='${Version}' sframe-tools)" = "$kver-2" ] || fail "build 2 not installed"
[ -z "$(retired)" ] || fail "left after the upgrade: $(retired)"
echo "PASS: build 2 over build 1, an older build's hook, units and cache cleared"

apt_get remove sframe-tools
[ ! -e root/usr/bin/sframe-conv ] || fail "sframe-conv left after remove"
apt_get purge sframe-tools
left=$(find root/etc root/var/lib/systemd root/var/cache root/usr/lib -name '*sframe*' 2> /dev/null)
[ -z "$left" ] || fail "left after purge: $left"
echo "PASS: removed and purged, nothing left"
