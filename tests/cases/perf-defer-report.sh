# perf report --stdio shows the same call tree for the read path with fp,defer as with -g:
# the user callers of every kernel stack from main through ksys_read are
# main;func_a;func_b;func_c. Below main, -g stops in libc (built without frame
# pointers); fp,defer goes on with libc's .eh_frame down to _start.
. "$TOP/tests/lib.sh"
default_kernel_only "perf tools test"
for mode in fp fp,defer; do
	"$PERF" record -q -e cpu-clock -F 2000 --call-graph "$mode" -o "$mode.data" "$BIN/chain" 300 ||
		fail "perf record $mode failed"
	"$PERF" report -i "$mode.data" --stdio --no-children --comm chain -g folded,0,caller \
		--percent-limit 0 > "$mode.report" 2>/dev/null || fail "perf report $mode failed"
	# the user part of each folded stack through the read path, from main on, once;
	# and the callers of main
	grep ";ksys_read" "$mode.report" | sed 's/^[ 0-9.%]*//; s/;entry_SYSCALL.*//' |
		grep ";main;" > "$mode.stacks"
	sed 's/^.*;main;/main;/' "$mode.stacks" | sort -u > "$mode.tree"
	sed 's/;main;.*//' "$mode.stacks" | sort -u > "$mode.callers"
	echo "$mode: $(grep -c ';ksys_read' "$mode.report") stacks through ksys_read:"
	cat "$mode.tree"
done
[ -s fp.tree ] || fail "no stacks through ksys_read with -g"
cmp -s fp.tree fp,defer.tree || fail "the trees differ: $(diff fp.tree fp,defer.tree | tr '\n' ' ')"
grep -q "main;func_a;func_b;func_c$" fp,defer.tree || fail "no main;func_a;func_b;func_c in the tree"
grep -qE '^_start;__libc_start_main[^;]*;(.*;)?__libc_start_call_main$' fp,defer.callers ||
	fail "fp,defer: main not called from _start: $(tr '\n' ' ' < fp,defer.callers)"
