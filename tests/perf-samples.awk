# SPDX-License-Identifier: GPL-2.0
# perf script output -> one line per sample, the one parser of it (tests/lib.sh's
# perf_samples, bench/run-guest.sh, scripts/demo-*.sh). Fields are separated by tabs:
#   1     the sample's first line, as perf script printed it (comm tid time... as
#         asked with -F; empty when -F asks for none of them)
#   2...  its callchain, innermost first: each frame as perf printed it ("ADDR SYM
#         (DSO)", or a deferred marker), without the leading blanks and without the
#         +0xOFFSET of SYM
# Kernel frames are those whose ADDR starts with ffff.
function flush() {
	if (have)
		print line
	have = 0
}
/^[^ \t]/ { flush(); line = $0; have = 1; next }
/^[ \t]*$/ { flush(); next }
{
	f = $0
	sub(/^[ \t]+/, "", f)
	if (match(f, /^[^ \t]+[ \t]+[^ \t]+\+0x[0-9a-f]+/)) {
		head = substr(f, 1, RLENGTH)
		sub(/\+0x[0-9a-f]+$/, "", head)
		f = head substr(f, RLENGTH + 1)
	}
	if (!have)
		line = ""
	line = line "\t" f
	have = 1
}
END { flush() }
