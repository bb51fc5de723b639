# The LD_AUDIT helper on a cache miss (issue 19, start-up cost): libsframe-audit.so
# links no libdw (nor libc) and runs its converter, sframe-conv audit-fill, as a child of the
# program; the program must not see it. sfmiss has a SIGCHLD handler and a child of its
# own, dlopen()s libsfcleaf.so from a thread, and reaps with waitpid(-1): with the helper
# (cache missing, then warm; no cache; the converter missing) it prints what it prints
# without it and exits 0, and the helper says what it did (converted, cached, cannot
# run the converter). With a warm cache the helper maps nothing but its own module and
# the sections: no libdw, libelf or second libc in /proc/PID/maps.
cd "$TOP" && make -s "$TOP/build/tests/sfconv/sfmiss" "$TOP/build/tests/sfconv/libsfcleaf.so" \
	"$TOP/build/sframe-conv/libsframe-audit.so" "$TOP/build/sframe-conv/sframe-conv" || exit 1
cd "$OLDPWD" || exit 1
audit=$TOP/build/sframe-conv/libsframe-audit.so
prog=$TOP/build/tests/sfconv/sfmiss
lib=$TOP/build/tests/sfconv/libsfcleaf.so
. "$TOP/tests/subtests.sh"

# run AUDIT CACHE: sfmiss with the helper AUDIT and the cache directory CACHE, within
# 10 s: its output must be that without the helper; the helper's lines go to err
run() {
	out=$(timeout 10 env SFRAME_CACHE_DIR="$2" SFRAME_AUDIT_DEBUG=1 LD_AUDIT="$1" \
		"$prog" "$lib" 2> err)
	rc=$?
	[ $rc -eq 0 ] && [ "$out" = "$plain" ] ||
		bad "exit $rc, printed '$(echo $out)', expected 0, '$(echo $plain)'"
}

said() {
	grep -q "$1" err || bad "the helper did not say '$1': $(cat err)"
}

plain=$("$prog" "$lib") || { echo "FAIL: without the helper: $plain"; exit 1; }
echo "$plain"

case=cold; rm -rf cache
run "$audit" "$PWD/cache" && said 'libsfcleaf.so: .*converted: no cache file)' &&
	said 'libc.so.6: .*converted: no cache file)' && ok
case=warm
run "$audit" "$PWD/cache" && said 'libsfcleaf.so: .*cached)' && said 'libc.so.6: .*cached)' &&
	said '\[vdso\]: .*cached)' && ok
case=no-cache
run "$audit" "" && said 'libsfcleaf.so: .*converted: no cache)' && ok
case=no-converter; rm -rf alone cache2; mkdir alone && cp "$audit" alone/
run "$PWD/alone/libsframe-audit.so" "$PWD/cache2" &&
	said "cannot run $PWD/alone/sframe-conv: No such file or directory" && ok

# With a warm cache: nothing mapped but the module and its sections (cat maps itself,
# once to fill the cache, then with the sections kept despite this kernel's EINVAL)
case=warm-maps
env SFRAME_CACHE_DIR="$PWD/cache" LD_AUDIT="$audit" cat /proc/self/maps > /dev/null
maps=$(env SFRAME_CACHE_DIR="$PWD/cache" LD_AUDIT="$audit" SFRAME_AUDIT_KEEP=1 \
	cat /proc/self/maps)
extra=$(echo "$maps" | grep -E 'libdw|libelf|libz\.|liblzma|libbz2|memfd:')
libc=$(echo "$maps" | grep -c 'libc\.so\.6')
sections=$(echo "$maps" | grep -c "$PWD/cache/.*\.sframe")
[ -z "$extra" ] && [ "$libc" -le 5 ] && [ "$sections" -ge 4 ] && ok ||
	bad "mapped: '$extra', $libc mappings of libc, $sections of cache files"

subtests_end
