# The LD_AUDIT helper's cache cannot hang, mislead or be redirected (issue 19). In a
# cache directory filled by `sframe-conv cache`, libc's file (named after its build ID)
# is replaced by: a FIFO, a symlink (to a good file), a file of another owner
# (nobody), a group-writable one, a truncated one (two ways), ld.so's file, and ld.so's
# section under a header with libc's text range and .eh_frame size (only the hash of
# .eh_frame differs). Each time /bin/echo with the helper prints what it prints
# without it within 10 s, the helper converts libc again (SFRAME_AUDIT_DEBUG: its line
# says "converted" and why the file was not used, with the section's FDEs and size,
# not those of the planted one) and the file is replaced by a regular 0600 file of the
# user's with the right section. Control: planted under libc's whole key, ld.so's
# section is used, as this test would see. Cache directories that are a symlink, not
# the user's, or writable by others are not used (nothing planted there is used or
# replaced), nor is a relative SFRAME_CACHE_DIR; a missing one is made 0700 with its
# parents. Files are written with O_TMPFILE (no temporaries left), and where that is
# not used (sframe-conv cache -T), stale temporaries are removed and fresh ones kept.
cd "$TOP" && make -s sframe-conv || exit 1
cd "$OLDPWD" || exit 1
audit=$TOP/build/sframe-conv/libsframe-audit.so
conv=$TOP/build/sframe-conv/sframe-conv
libc=/lib/x86_64-linux-gnu/libc.so.6
ldso=/lib64/ld-linux-x86-64.so.2
. "$TOP/tests/subtests.sh"

build_id() {
	readelf -n "$1" | sed -n 's/.*Build ID: //p'
}
C=$(build_id $libc).sframe
L=$(build_id $ldso).sframe
[ "$C" != .sframe ] && [ "$L" != .sframe ] || { echo "FAIL: no build IDs"; exit 1; }

# run DIR: /bin/echo with the helper and the cache DIR, within 10 s: it must print
# what it prints without the helper and exit 0; the helper's lines go to err
run() {
	out=$(timeout 10 env SFRAME_CACHE_DIR="$1" SFRAME_AUDIT_DEBUG=1 LD_AUDIT="$audit" \
		/bin/echo cache test 2> err)
	rc=$?
	[ $rc -ne 124 ] || bad "the program hung (killed after 10 s)" || return 1
	[ $rc -eq 0 ] && [ "$out" = "cache test" ] ||
		bad "exit $rc, printed '$out' (expected 0, 'cache test'): $(tail -n 1 err)"
}

# said OBJECT WHAT: the helper's line for OBJECT says WHAT (a regexp)
said() {
	grep -q "$1: .*$2" err || bad "expected '$1: ... $2', the helper said: $(grep "$1" err)"
}

# fdes OBJECT: the FDE counts of the section the helper had for OBJECT
fdes() {
	sed -n "s/.*$1: .*[ (]\([0-9][0-9]* of [0-9][0-9]* FDEs\).*/\1/p" err
}

# replaced DIR: libc's file in DIR is a regular 0600 file of the user's with the right
# section (the same as sframe-conv cache writes)
replaced() {
	[ -f "$1/$C" ] && [ ! -L "$1/$C" ] && cmp -s "$1/$C" ref/$C &&
		[ "$(stat -c %u:%a "$1/$C")" = "$(id -u):600" ] ||
		bad "$1/$C was not replaced: $(ls -l "$1/$C")"
}

# a cache directory like ref/ in d/, libc's file taken away
fresh() {
	rm -rf d && mkdir -m 700 d && cp ref/* d/ && rm d/$C
}

"$conv" cache -d "$PWD/ref" $libc $ldso || { echo "FAIL: sframe-conv cache"; exit 1; }
[ -f ref/$C ] && [ -f ref/$L ] || { echo "FAIL: sframe-conv cache wrote no files"; exit 1; }

case=fifo; fresh; mkfifo d/$C
run "$PWD/d" && said libc.so.6 "converted: cache file is not a regular file" && replaced d && ok

case=symlink; fresh; cp ref/$C target; ln -s "$PWD/target" d/$C
run "$PWD/d" && said libc.so.6 "converted: cache file is a symlink" && replaced d &&
	{ cmp -s target ref/$C || bad "the symlink's target changed"; } && ok

case=foreign-owner; fresh; cp ref/$C d/
if chown nobody d/$C 2> /dev/null; then
	run "$PWD/d" && said libc.so.6 "converted: cache file is not the user's" && replaced d && ok
else
	echo "SKIP $case: cannot chown (not root)"
fi

case=group-writable; fresh; cp ref/$C d/; chmod 660 d/$C
run "$PWD/d" && said libc.so.6 "converted: cache file is writable by group or others" &&
	replaced d && ok

case=truncated; fresh; head -c -100 ref/$C > d/$C; chmod 600 d/$C
run "$PWD/d" && said libc.so.6 "converted: cache file is truncated or too long" && replaced d && ok

case=truncated-header; fresh; head -c 20 ref/$C > d/$C; chmod 600 d/$C
run "$PWD/d" && said libc.so.6 "converted: cache file is of another version or truncated" &&
	replaced d && ok

# A valid section for other code: ld.so's file; ld.so's section with a header of libc's
# text range and .eh_frame address and size, the hash of ld.so's .eh_frame (bytes 40-47)
for case in other-code other-hash; do
	fresh
	if [ $case = other-code ]; then
		cp ref/$L d/$C
	else
		{ head -c 40 ref/$C; tail -c +41 ref/$L; } > d/$C
	fi
	chmod 600 d/$C
	run "$PWD/d" && said libc.so.6 "converted: cache file is for other code" && replaced d &&
		{ [ "$(fdes libc.so.6)" != "$(fdes ld-linux-x86-64.so.2)" ] ||
			bad "libc's section has ld.so's FDEs: $(fdes libc.so.6)"; } && ok
done

# Control: under libc's whole key (bytes 0-47) ld.so's section is taken; the helper's
# line then shows ld.so's FDEs for libc
case=control-whole-key; fresh; { head -c 48 ref/$C; tail -c +49 ref/$L; } > d/$C; chmod 600 d/$C
run "$PWD/d" && said libc.so.6 "cached)" &&
	{ [ "$(fdes libc.so.6)" = "$(fdes ld-linux-x86-64.so.2)" ] ||
		bad "libc: $(fdes libc.so.6), expected ld.so's: $(fdes ld-linux-x86-64.so.2)"; } &&
	ok

# The file it was made from: libc's cache file with the hash of .eh_frame (bytes 40-47)
# zeroed is used, since libc's file is the one it was made from (its device, inode,
# size and times, bytes 48-103): the helper does not read libc's .eh_frame for the hash.
# With another inode (bytes 56-63), the hash is checked and the file replaced.
z8='\0\0\0\0\0\0\0\0'
case=same-file; fresh; { head -c 40 ref/$C; printf "$z8"; tail -c +49 ref/$C; } > d/$C
chmod 600 d/$C
run "$PWD/d" && said libc.so.6 "cached)" && ok
case=other-file; fresh
{ head -c 40 ref/$C; printf "$z8"; tail -c +49 ref/$C | head -c 8; printf '\377\377\377\377\377\377\377\377'
	tail -c +65 ref/$C; } > d/$C
chmod 600 d/$C
run "$PWD/d" && said libc.so.6 "converted: cache file is for other code" && replaced d && ok

# Cache directories not used: ld.so's file planted as libc's must stay, unused
dir_refused() {
	run "$1" && said libc.so.6 "converted: $2" &&
		{ cmp -s d/$C ref/$L || bad "the file planted in the directory was replaced"; } &&
		ok
}
case=dir-symlink; fresh; cp ref/$L d/$C; rm -f dlink; ln -s "$PWD/d" dlink
dir_refused "$PWD/dlink" "cache directory is a symlink or not a directory"

case=dir-foreign-owner; fresh; cp ref/$L d/$C
if chown nobody d 2> /dev/null; then
	dir_refused "$PWD/d" "cache directory is not the user's"
else
	echo "SKIP $case: cannot chown (not root)"
fi

for mode in 770 707 1777; do
	case=dir-mode-$mode; fresh; cp ref/$L d/$C; chmod $mode d
	dir_refused "$PWD/d" "cache directory is writable by group or others"
done

case=dir-relative; mkdir -p rel-test && cd rel-test
run rel && { grep -q 'SFRAME_CACHE_DIR is relative: no cache' err ||
	bad "the helper did not say: SFRAME_CACHE_DIR is relative"; } &&
	said libc.so.6 "converted: no cache" &&
	{ [ ! -e rel ] || bad "a relative cache directory was made"; } && ok
cd ..

case=dir-made; rm -rf new
run "$PWD/new/a/b" && said libc.so.6 "converted: no cache file" && replaced new/a/b &&
	{ [ "$(stat -c %a new/a) $(stat -c %a new/a/b)" = "700 700" ] ||
		bad "expected 0700 directories: $(ls -ld new/a new/a/b)"; } &&
	run "$PWD/new/a/b" && said libc.so.6 "cached)" && ok

case=no-temporaries
tmps=$(find d new -name '*.tmp' 2> /dev/null)
[ -z "$tmps" ] && ok || bad "temporaries left: $tmps"

# Without O_TMPFILE: a temporary renamed; temporaries older than 10 minutes removed
case=stale-temporaries; rm -rf s; mkdir -m 700 s
touch -d '1 hour ago' s/old.sframe.1.tmp; touch s/new.sframe.2.tmp
"$conv" cache -T -d "$PWD/s" $libc > conv.out || bad "sframe-conv cache -T failed"
[ ! -e s/old.sframe.1.tmp ] && [ -e s/new.sframe.2.tmp ] && cmp -s s/$C ref/$C &&
	[ "$(ls s | wc -l)" = 2 ] && ok || bad "expected new.sframe.2.tmp and $C, got: $(ls s)"

subtests_end
