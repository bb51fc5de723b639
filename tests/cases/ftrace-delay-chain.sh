# userstacktrace_delay with the known chain (read(2) events): every cookie entry is
# followed by exactly one stack entry with that cookie before the task's next kernel
# entry; the stacks of its reads of /dev/zero resolve, by the file+offset recorded, to
# func_c, func_b, func_a, main of the chain binary (nm). An instance without the option
# records the same events and no cookie or stack; no immediate user stack either.
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
a=$(ft_instance ftd-chain syscalls:sys_enter_read syscalls:sys_exit_read) || exit
b=$(ft_instance ftd-chain-off syscalls:sys_enter_read) || { ft_remove "$a"; exit 1; }
trap 'ft_remove "$a" "$b"' EXIT
echo 0 > "$b/options/userstacktrace_delay"
ft_run "$a" "$b" -- "$BIN/chain" 30 12345 || fail "chain failed"
cat "$a/trace" > a.txt
cat "$b/trace" > b.txt
# count 12345 = 0x3039: the chain's reads
# (7.3 prints the arguments with 0x)
r=$(ft_check a.txt 'sys_read\(fd: (0x)?[0-9a-f]+, buf: (0x)?[0-9a-f]+, count: (0x)?3039\)')
echo "$r"
[ "$(field bad "$r")" = 0 ] || fail "cookie and stack entries out of order: $r"
[ "$(field marked "$r")" = 30 ] || fail "expected 30 stacks of the chain's reads: $r"
[ "$(field late "$r")" = 0 ] || fail "late stacks: $r"
[ "$(field cookie_entries "$r")" = "$(field events "$r")" ] || fail "not one cookie entry per event: $r"
[ "$(field stacks "$r")" = "$(field cookies "$r")" ] || fail "not one stack per cookie: $r"
grep -q "<user stack trace>" a.txt && fail "immediate user stacks recorded"
grep -q "<user stack" b.txt && fail "user stack entries in the instance without the option"
[ "$(grep -cE "count: (0x)?3039" b.txt)" = 30 ] || fail "instance without the option: not 30 reads"
# the first four frames of each marked stack
ft_symbols a.txt.frames > frames.txt
sort -u a.txt.marked > marked.txt
awk 'NR == FNR { m[$1] = 1; next } NF == 4 + 1 && ($1 in m) && $2 < 4 {
	got[$1] = got[$1] " " $5; n[$1]++ }
	END { for (c in m) print c, n[c] + 0, got[c] }' marked.txt frames.txt > chains.txt
head -n 3 chains.txt
good=$(grep -c " 4  *func_c func_b func_a main$" chains.txt)
[ "$good" = 30 ] || fail "expected 30 stacks func_c func_b func_a main, got $good (chains.txt)"
grep -m1 -A5 "<user stack unwind>" a.txt
echo "30 stacks of the chain, each after its cookie entries"
