#!/bin/bash
# The Debian 12 root file system of make system-test, made with mmdebstrap from Debian's
# registry and cached: build/system/base-HASH.tar, HASH of the package list (the
# services, their load tools, and what the project's packages depend on). A second run
# with the same list fetches nothing; the packages fetched are kept in
# build/system/archives too, so a new list fetches only what is new. The tarball keeps
# APT's lists and, in APT's cache, the .deb of libc6, redis-server and redis-tools (the
# test reinstalls them as an upgrade would).
# Usage: system-image.sh DEB...   prints the tarball's path
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/system
mkdir -p "$dir"
# The services (nginx, Redis: C, built by Debian without frame pointers), their load
# tools, systemd as init, and the project's packages' dependencies
pkgs="systemd-sysv udev kmod procps iproute2 nginx-light apache2-utils redis-server redis-tools"
for d in "$@"; do
	pkgs+=" $(dpkg-deb -f "$d" Depends | tr ',' '\n' | awk '{ print $1 }' | tr '\n' ' ')"
done
pkgs=$(echo "$pkgs" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ',' | sed 's/,$//')
# (and of this script: its hooks make the image)
hash=$( (echo "bookworm $pkgs"; cat "$0") | sha256sum | cut -c1-12)
tar=$dir/base-$hash.tar
if [ ! -s "$tar" ]; then
	echo "system-image: fetching Debian 12 with $pkgs" >&2
	mirror=http://deb.debian.org/debian
	mkdir -p "$dir/archives"
	mmdebstrap --variant=minbase --include="$pkgs" \
		--skip=cleanup/apt/lists,cleanup/apt/cache,download/empty,essential/unlink \
		--setup-hook='mkdir -p "$1/var/cache/apt/archives"' \
		--setup-hook="sync-in $dir/archives /var/cache/apt/archives" \
		--customize-hook="sync-out /var/cache/apt/archives $dir/archives" \
		--customize-hook='find "$1/var/cache/apt/archives" -name "*.deb" ! -name "libc6_*" ! -name "redis-server_*" ! -name "redis-tools_*" -delete' \
		--customize-hook='echo du-system > "$1/etc/hostname"; printf "/dev/vda / ext4 errors=remount-ro 0 1\n" > "$1/etc/fstab"' \
		--customize-hook='chroot "$1" passwd -d root > /dev/null' \
		bookworm "$dir/tmp.tar" "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
		"deb http://deb.debian.org/debian-security bookworm-security main" >&2
	mv "$dir/tmp.tar" "$tar"
fi
echo "$tar"
