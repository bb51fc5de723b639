#!/bin/bash
# Fetch Debian's linux-source-7.3 (trixie-backports) at the version the 7.3 series was
# made on, or the newest 7.3.y if the registry no longer has it, and unpack its tarball
# into build/apt-7.3/usr/src/. APT runs with a sources list, lists and cache of the
# project's own under build/apt-7.3/: the host's APT configuration is not read or changed.
# Usage: source-7.3.sh VERSION
set -euo pipefail
want=${1:?usage: source-7.3.sh VERSION}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/apt-7.3
stamp=$dir/usr/src/linux-source-7.3.version
[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && exit 0
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
echo 'deb http://deb.debian.org/debian trixie-backports main' > "$dir/sources.list"
apt=(apt-get -q -o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=-
	-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
	-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root)
"${apt[@]}" update >/dev/null
cd "$dir/cache/archives"
if ! "${apt[@]}" download "linux-source-7.3=$want" >/dev/null 2>&1; then
	echo "source-7.3: linux-source-7.3 $want is no longer in the registry; using the newest 7.3.y" >&2
	"${apt[@]}" download linux-source-7.3 >/dev/null
fi
deb=$(find . -maxdepth 1 -name "linux-source-7.3_*.deb" -printf "%T@ %f\n" | sort -nr | head -n 1 | cut -d" " -f2)
got=$(dpkg-deb -f "$deb" Version)
rm -rf "${dir:?}/usr"
dpkg-deb -x "$deb" "$dir"
echo "$got" > "$stamp"
echo "source-7.3: linux-source-7.3 $got"
