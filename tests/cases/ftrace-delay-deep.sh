# userstacktrace_delay: a user stack of the unwinder's most frames does not fit one
# ring-buffer event: it is split into entries with consecutive frame ranges, the
# cookie and the total in each, every frame kept and resolved (deep() in ftdelay).
. "$TOP/tests/lib.sh"
. "$TOP/tests/ftrace.sh"
# the unwinder's most: its 4 KiB cache less its header (mainline's nr_entries and
# completed mask, and the user IP and SP; the same on both bases)
max=508
ft_trace ftd-deep syscalls:sys_enter_read 'count: (0x)?1\)' -- "$BIN/ftdelay" deep 700
[ "$(field marked "$r")" = 1 ] || fail "expected the stack of the deep read: $r"
c=$(cat a.txt.marked)
grep "<user stack unwind> cookie=$c " a.txt
p=$(grep -c "<user stack unwind> cookie=$c frames=[0-9]*-[0-9]*/$max$" a.txt)
[ "$p" -ge 2 ] || fail "expected the $max frames in >= 2 entries, got $p"
ft_symbols a.txt.frames | awk -v c="$c" '$1 == c' > deep.txt
[ "$(wc -l < deep.txt)" = $max ] || fail "expected $max frames, got $(wc -l < deep.txt)"
awk '$2 != NR - 1 { print "frame " NR - 1 " has index " $2; exit 1 }' deep.txt || fail "frames out of order"
n=$(awk '$5 == "deep"' deep.txt | wc -l)
[ "$n" = $max ] || fail "expected $max frames in deep(), got $n"
echo "$max frames in $p entries, all in deep()"
