# The registration ABI of the series, as a reviewer would check it in each base's tree
# (build/linux, build/linux-7.3 where it exists): no prctl option for SFrame in the uapi
# headers (the series registers sections with system calls, as upstream's proposal does),
# and the x86 system call tables carry sframe_register and sframe_unregister, with the
# same numbers on both bases and in the generic table.
# timeout: 60
. "$TOP/tests/lib.sh"
trees=
for t in "$TOP/build/linux" "$TOP/build/linux-7.3"; do
	[ -f "$t/include/uapi/linux/prctl.h" ] && trees="$trees $t"
done
[ -n "$trees" ] || skip "no kernel tree prepared (make tree)"
numbers=
for t in $trees; do
	name=${t#"$TOP"/}
	if grep -n 'SFRAME' "$t/include/uapi/linux/prctl.h"; then
		fail "$name: include/uapi/linux/prctl.h has an SFrame option"
	fi
	for tbl in arch/x86/entry/syscalls/syscall_64.tbl arch/x86/entry/syscalls/syscall_32.tbl \
		scripts/syscall.tbl; do
		for call in sframe_register sframe_unregister; do
			n=$(awk -v c="$call" '$3 == c && $4 == "sys_" c { print $1 }' "$t/$tbl")
			[ -n "$n" ] || fail "$name: $tbl has no $call"
			numbers="$numbers $call=$n"
		done
	done
	grep -q '^#define __NR_sframe_register ' "$t/include/uapi/asm-generic/unistd.h" ||
		fail "$name: include/uapi/asm-generic/unistd.h has no __NR_sframe_register"
	echo "$name: no prctl SFrame option; sframe_register, sframe_unregister in the tables"
done
# one number per call, whatever the table and the base
for call in sframe_register sframe_unregister; do
	distinct=$(echo "$numbers" | tr ' ' '\n' | sed -n "s/^$call=//p" | sort -u)
	[ "$(echo "$distinct" | wc -l)" -eq 1 ] || fail "$call has several numbers: $(echo $distinct)"
	echo "$call: $distinct"
done
echo "PASS: the system calls, no prctl option, on$(for t in $trees; do printf ' %s' "${t#"$TOP"/build/}"; done)"
