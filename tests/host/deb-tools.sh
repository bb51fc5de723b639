# make check's part of make system-test: the sframe-tools package (scripts/deb.sh, lintian
# clean but for the tags tools/deb/lintian-known lists) installed with apt into a Debian 12
# root (scripts/system-image.sh: mmdebstrap, cached), as a user installs it, with no
# network: the converter runs there (its libraries are all declared), the units are
# enabled, the APT hook is in place; a newer build installs over it; apt remove leaves
# the hook harmless (apt still works) and purge leaves nothing behind. (No boot: make
# system-test boots such a system with the kernel package and profiles its services.)
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
in_root sframe-conv --help | grep -q 'sframe-conv system' || fail "sframe-conv --help"
in_root sh -c 'zcat /usr/share/man/man1/sframe-conv.1.gz' | grep -q attach || fail "no manual page"
r=$(in_root sframe-conv convert /lib/x86_64-linux-gnu/libc.so.6 2>&1) || fail "sframe-conv in the Debian root: $r"
echo "converted in the root: $r"
for u in multi-user.target.wants/sframe-attach.service timers.target.wants/sframe-attach.timer; do
	[ -L root/etc/systemd/system/$u ] || fail "$u not enabled"
done
[ -f root/etc/apt/apt.conf.d/90sframe-attach ] || fail "no APT hook"
echo "PASS: installed, runs, units enabled, hook in place"

# An upgrade keeps what the admin chose: the timer disabled stays disabled
in_root deb-systemd-helper disable sframe-attach.timer
apt_get install "/tmp/$(basename "$deb2")"
[ "$(in_root dpkg-query -W -f='${Version}' sframe-tools)" = "$kver-2" ] || fail "build 2 not installed"
[ ! -e root/etc/systemd/system/timers.target.wants/sframe-attach.timer ] ||
	fail "the upgrade enabled the timer the admin disabled"
[ -L root/etc/systemd/system/multi-user.target.wants/sframe-attach.service ] ||
	fail "the upgrade disabled the service"
echo "PASS: build 2 over build 1, the admin's disabled timer kept"

apt_get remove sframe-tools
[ ! -e root/usr/bin/sframe-conv ] || fail "sframe-conv left after remove"
[ -f root/etc/apt/apt.conf.d/90sframe-attach ] || fail "the hook (a conffile) went with remove"
in_root apt-config dump DPkg::Post-Invoke | grep -q 'if \[ -x /usr/bin/sframe-conv \]' ||
	fail "the hook left behind does not check for sframe-conv"
apt_get install --reinstall --no-download libc6
echo "PASS: removed; the hook left behind does nothing without sframe-conv (apt reinstalled libc6)"

apt_get purge sframe-tools
[ ! -e root/etc/apt/apt.conf.d/90sframe-attach ] || fail "the hook left after purge"
left=$(find root/etc/systemd root/var/lib/systemd -name 'sframe-attach*' 2> /dev/null)
[ -z "$left" ] || fail "left after purge: $left"
echo "PASS: purged, nothing left"
