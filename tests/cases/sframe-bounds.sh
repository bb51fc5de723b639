# SFrame bounds: made-up sections registered for a 4 GiB code range (sfcraft) are
# rejected (too many FREs in one function, a function outside the code) or the unwind
# ends within its budget, without a splat; with the budget raised the same section
# gives every frame; oversized sections are refused (registration) or marked bad (exec);
# with the budget raised and no FRE index, a long unwind dies within a second of SIGKILL;
# version 3 sections meet the same bounds.
. "$TOP/tests/lib.sh"
ctl=/sys/kernel/debug/unwind_deferred_test/ctl
craft=$BIN/sframe/sfcraft
[ -w "$ctl" ] || skip "no $ctl"
limits() {
	echo "sframe defaults" > "$ctl" || fail "sframe defaults"
	for l in "$@"; do
		echo "sframe $l" > "$ctl" || fail "sframe $l"
	done
}
trap 'echo "sframe defaults" > "$ctl"' EXIT
# field NAME LINE: the number after NAME
num() { echo "$2" | sed -n "s/.*\<$1 \([0-9-]*\).*/\1/p"; }
# expect CASE LINE NAME=VALUE...: every field of sfcraft's line as said
expect() {
	what=$1 line=$2
	shift 2
	echo "$what: $line"
	for kv in "$@"; do
		[ "$(num "${kv%%=*}" "$line")" = "${kv#*=}" ] || fail "$what: expected ${kv%%=*} ${kv#*=}: $line"
	done
}
before=$(splats)

# One function of 1100000 FREs (4 GiB - 4 KiB): more FREs than a function may have
limits
expect "1.1M FREs" "$("$craft" trace 1100000 0xfffff000 500)" nr=2 bad=1 budget_stops=0 indexes=0
# A function that starts in the code but ends past it, and one that starts before it
expect "past the code" "$("$craft" trace 1000 0xffffffff 500 4096)" nr=2 bad=1 budget_stops=0
expect "before the code" "$("$craft" trace 1000 0x2000 500 -4096)" nr=2 bad=1 budget_stops=0
# Allowed that many FREs, its index would read more than an unwind's budget: the unwind ends
limits "max_fde_fres 2000000"
expect "over the budget" "$("$craft" trace 1100000 0xfffff000 500)" nr=2 bad=0 budget_stops=1 indexes=0
# With the budget raised too: one index, and all 500 made-up frames (the first 63 shown)
limits "max_fde_fres 2000000" "budget 1000000000"
expect "budget raised" "$("$craft" trace 1100000 0xfffff000 500)" nr=501 ok=63 bad=0 budget_stops=0 indexes=1

# Oversized: refused when registered, marked bad when exec registers it (sfchain's own
# section: its chain is then not found, as without SFrame)
limits "max_section 1048576"
"$craft" oversize 1100000 0xfffff000 || fail "oversized section"
limits "max_section 64"
bad0=$(num bad "$(grep '^sframe discoveries' "$ctl")")
"$BIN/sframe/sfchain" control 1 || fail "sfchain unwound with an oversized section"
bad1=$(num bad "$(grep '^sframe discoveries' "$ctl")")
[ "$bad1" -gt "$bad0" ] || fail "the oversized section was not marked bad ($bad0 -> $bad1)"
echo "oversized at exec: marked bad ($bad0 -> $bad1)"

# Killable: no budget to speak of, no index, 300000 FREs scanned for each of 500 frames
limits "budget 1000000000000" "index_min 1000000000000"
out=$("$craft" kill 300000 0xfffff000 500) || fail "kill: $out"
echo "$out"
ms=$(echo "$out" | sed -n 's/^killed after \([0-9]*\) ms$/\1/p')
[ -n "$ms" ] && [ "$ms" -lt 1000 ] || fail "a long unwind did not die within a second of SIGKILL: $out"

# The same bounds for SFrame version 3 sections (at most 65535 FREs per function)
export SFCRAFT_VERSION=3
limits
expect "v3 past the code" "$("$craft" trace 1000 0xffffffff 500 4096)" nr=2 bad=1 budget_stops=0
expect "v3 before the code" "$("$craft" trace 1000 0x2000 500 -4096)" nr=2 bad=1 budget_stops=0
limits "max_fde_fres 65534"
expect "v3 65535 FREs, more than allowed" "$("$craft" trace 65535 0xfffff000 500)" nr=2 bad=1 budget_stops=0 indexes=0
limits "budget 60000"
expect "v3 over the budget" "$("$craft" trace 65535 0xfffff000 500)" nr=2 bad=0 budget_stops=1 indexes=0
limits
expect "v3 within the budget" "$("$craft" trace 65535 0xfffff000 500)" nr=501 ok=63 bad=0 budget_stops=0 indexes=1
limits "max_section 65536"
"$craft" oversize 65535 0xfffff000 || fail "v3 oversized section"
unset SFCRAFT_VERSION

limits
no_new_splats "$before"
echo "all bounds held"
