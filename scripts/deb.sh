#!/bin/bash
# Build the project's Debian packages into build/deb/:
#   linux-image-VER-deferred-unwind, linux-headers-VER-deferred-unwind
#       the kernel's own bindeb-pkg, flavour "system" (config/system.config: no test
#       interface; what a Debian system booted by systemd from a virtio disk needs)
#   perf-defer     the series' perf as /usr/bin/perf-defer (Debian's linux-perf keeps
#                  /usr/bin/perf; both can be installed)
#   sframe-tools   sframe-conv, the LD_AUDIT helper, a manual page
# Usage: deb.sh [BUILD [PART...]]   BUILD: the packages' build number (default 1): the
# version is KERNELVERSION-BUILD, so a higher BUILD is a newer build of the same sources
# (make system-test installs build 2 over build 1). PARTs: kernel, perf, tools (default
# all three). Ends with lintian on the packages built.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
nr=${1:-1}
shift || true
parts=" ${*:-kernel perf tools} "
out=$top/build/deb
tree=$top/build/linux
kout=$top/build/kernel-system
kver=$(make -s -C "$tree" kernelversion)
version=$kver-$nr
arch=$(dpkg --print-architecture)
export DEBFULLNAME=deferred-unwind DEBEMAIL=deferred-unwind@invalid
maint="$DEBFULLNAME <$DEBEMAIL>"
mkdir -p "$out"

# The kernel: bindeb-pkg writes its packages next to the output directory (build/)
if [[ $parts == *" kernel "* ]]; then
# (LOCALVERSION set, empty: the release is VERSION-deferred-unwind, without the "+" of a
# tree past its tag)
LOCALVERSION= KERNEL_TARGETS=bindeb-pkg KDEB_PKGVERSION=$version KDEB_CHANGELOG_DIST=bookworm \
	KERNEL_OUT=$kout "$top/scripts/build-kernel.sh" system
# (not linux-libc-dev: the C library's headers stay Debian's)
mv "$top"/build/linux-{image,headers}-*"_${version}_$arch.deb" "$out"/
rm -f "$top"/build/linux-upstream_"$version"_*.{buildinfo,changes} "$top"/build/linux-*_"$version"_*.deb
fi

# stage PACKAGE: an empty staging tree with the package's copyright and changelog
stage() {
	d=$out/stage/$1
	rm -rf "$d"
	mkdir -p "$d/DEBIAN" "$d/usr/share/doc/$1"
	cp "$top/tools/deb/copyright" "$d/usr/share/doc/$1/copyright"
	printf '%s (%s) bookworm; urgency=medium\n\n  * Built from the deferred-unwind series on linux-source %s.\n\n -- %s  %s\n' \
		"$1" "$version" "$kver" "$maint" "$(date -R -d @"${SOURCE_DATE_EPOCH:-946684800}")" |
		gzip -9n > "$d/usr/share/doc/$1/changelog.Debian.gz"
}

# control PACKAGE SECTION DESCRIPTION...: DEBIAN/control, with the shared libraries the
# staged ELF files need (dpkg-shlibdeps) and EXTRA_DEPENDS
control() {
	local pkg=$1 section=$2 deps elfs
	shift 2
	elfs=$(find "$d" -type f -perm -u+x ! -path '*/DEBIAN/*' -exec sh -c \
		'head -c 4 "$1" | grep -q ELF && echo "$1"' sh {} \;)
	mkdir -p "$out/stage/shlibs/debian"
	printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$pkg" "$pkg" > "$out/stage/shlibs/debian/control"
	# shellcheck disable=SC2086 # a list of files
	deps=$(cd "$out/stage/shlibs" && dpkg-shlibdeps -O $elfs | sed -n 's/^shlibs:Depends=//p')
	{
		echo "Package: $pkg"
		echo "Version: $version"
		echo "Architecture: $arch"
		echo "Maintainer: $maint"
		echo "Installed-Size: $(du -sk --exclude=DEBIAN "$d" | cut -f1)"
		echo "Depends: ${deps}${deps:+${EXTRA_DEPENDS:+, }}${EXTRA_DEPENDS:-}"
		echo "Section: $section"
		echo "Priority: optional"
		echo "Homepage: https://deferred-unwind.invalid/"
		printf 'Description: %s\n' "$1"
		shift
		for l in "$@"; do echo " $l"; done
	} > "$d/DEBIAN/control"
	dpkg-deb --root-owner-group -Zxz -b "$d" "$out/${pkg}_${version}_$arch.deb" > /dev/null
}

if [[ $parts == *" perf "* ]]; then
# perf for a package: without Python, Perl and LLVM (their libraries would come along)
pbuild=$top/build/perf-deb
mkdir -p "$pbuild"
make -s -C "$tree/tools/perf" O="$pbuild" -j"$(nproc)" CC="ccache gcc" prefix=/usr \
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_LIBLLVM=1 NO_GTK2=1 NO_SLANG=1 NO_JEVENTS=1 \
	NO_LIBBPF=1 WERROR=0 NO_SHELLCHECK=1 > "$pbuild/build.log" 2>&1 ||
	{ tail -20 "$pbuild/build.log"; echo "deb: perf failed ($pbuild/build.log)" >&2; exit 1; }
stage perf-defer
install -D -m 755 "$pbuild/perf" "$d/usr/bin/perf-defer"
strip --remove-section=.comment --remove-section=.note "$d/usr/bin/perf-defer"
mkdir -p "$d/usr/share/man/man1"
help2man -N --help-option=-h --include="$top/tools/deb/perf-defer.h2m" \
	--version-string="$kver" "$d/usr/bin/perf-defer" |
	gzip -9n > "$d/usr/share/man/man1/perf-defer.1.gz"
EXTRA_DEPENDS= control perf-defer devel \
	"perf with deferred user-space stack traces" \
	"Linux's perf built from the deferred-unwind series: --call-graph fp,defer" \
	"records the user stack once per kernel entry, unwound by the task before it" \
	"returns to user space, and perf script, report and top stitch it to the" \
	"kernel part of each sample. Installed as perf-defer beside Debian's perf."
fi

if [[ $parts == *" tools "* ]]; then
make -s -C "$top" sframe-conv > /dev/null

stage sframe-tools
lib=usr/lib/sframe-tools
install -D -m 755 "$top/build/sframe-conv/sframe-conv" "$d/$lib/sframe-conv"
install -D -m 644 "$top/build/sframe-conv/libsframe-audit.so" "$d/$lib/libsframe-audit.so"
strip --remove-section=.comment --remove-section=.note "$d/$lib/sframe-conv"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$d/$lib/libsframe-audit.so"
mkdir -p "$d/usr/bin" "$d/usr/share/man/man1"
ln -s "../lib/sframe-tools/sframe-conv" "$d/usr/bin/sframe-conv"
# Its maintainer scripts only clean up after builds that had the sframe-attach units and
# APT hook (retired), those before this version
for s in preinst postinst postrm; do
	sed "s/@VERSION@/$version/g" "$top/tools/deb/sframe-tools.$s" > "$d/DEBIAN/$s"
	chmod 755 "$d/DEBIAN/$s"
done
# Its manual page is the one its --help is made from
gzip -9n < "$top/tools/sframe-conv/sframe-conv.1" > "$d/usr/share/man/man1/sframe-conv.1.gz"
# (init-system-helpers: the postinst's deb-systemd-helper)
EXTRA_DEPENDS="init-system-helpers (>= 1.54~)" control sframe-tools utils \
	"SFrame sections for complete user stacks" \
	"sframe-conv converts the .eh_frame of ELF files into SFrame sections and" \
	"caches them; the LD_AUDIT helper libsframe-audit.so registers them for the" \
	"objects a program loads (sframe_register(), kernel with the deferred-unwind" \
	"series), for perf record --call-graph fp,defer. A kernel that unwinds with" \
	"the .eh_frame of code itself needs neither for code that has one."
fi
rm -rf "$out/stage"

# lint KNOWN DEB...: lintian on the DEBs, but for the tags in KNOWN (not with DEB_LINT=0)
lint() {
	local known=$1
	shift
	[ "${DEB_LINT:-1}" = 1 ] && [ $# -gt 0 ] || return 0
	lintian --fail-on error,warning --suppress-tags-from-file "$known" "$@"
}
echo "deb: lintian"
known=$top/tools/deb/lintian-known
debs=()
[[ $parts != *" perf "* ]] || debs+=("$out/perf-defer_${version}_$arch.deb")
[[ $parts != *" tools "* ]] || debs+=("$out/sframe-tools_${version}_$arch.deb")
lint "$known" "${debs[@]}"
if [[ $parts == *" kernel "* ]]; then
	cat "$known" "$known-kernel" > "$out/lintian-known-kernel"
	lint "$out/lintian-known-kernel" "$out"/linux-*_"$version"_"$arch".deb
fi
echo "deb: packages $version in $out"
