#!/bin/bash
# Print what differs between the two bases' kernels (make base-diff).
# 1. The unwinder's files in build/linux (6.12) and build/linux-7.3 as the trees are:
#    kernel/unwind/, <linux/unwind*.h>, <linux/sframe*.h>, <asm/unwind_user.h>.
# 2. The patches of the series both bases carry (patches/NN-name/ and patches-7.3/NN-name/),
#    matched by subject: the lines each adds or removes, per file, compared; a patch whose
#    changes differ is listed with the lines that differ (the base-specific variant).
#    perf tools (tools/perf, tools/lib/perf, tools/include) are left out: 6.12's perf
#    tools carry their own deferred callchain support (patches/04-perf-tools), 7.3's
#    build on mainline's.
# 3. The series and patches one base carries alone.
# The differences are explained in docs/design.md ("Two bases"). Exits 0.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
a=$top/build/linux b=$top/build/linux-7.3
paths=(kernel/unwind include/linux/unwind_deferred.h include/linux/unwind_deferred_types.h
	include/linux/unwind_user.h include/linux/unwind_user_types.h include/linux/sframe.h
	include/linux/sframe_reader.h include/linux/eh_frame_reader.h arch/x86/include/asm/unwind_user.h)

echo "== files: ${paths[*]}"
if [ -d "$a" ] && [ -d "$b" ]; then
	n=0
	for p in "${paths[@]}"; do
		d=$(diff -ruN "$a/$p" "$b/$p" || true)
		[ -z "$d" ] && continue
		printf '%s\n' "$d"
		n=$((n + $(printf '%s\n' "$d" | grep -c '^[-+][^-+]' || true)))
	done
	echo "== $n lines differ in those files"
else
	echo "(build/linux and build/linux-7.3 are needed: make tree; make tree BASE=7.3)"
fi

# the changed lines of a patch, "FILE +LINE" / "FILE -LINE", in order
changes() {
	awk '/^\+\+\+ /{f=$2} /^[-+]/ && !/^(\+\+\+|---) /{print f" "$0}' "$1" |
		grep -v -E '^b/tools/(perf|lib/perf|include)/' || true
}
subject() {
	awk -f "$top/scripts/patch-subject.awk" "$1"
}

same=0 differ=0
for d712 in "$top"/patches/*/; do
	name=$(basename "$d712") d73=$top/patches-7.3/$name
	[ -d "$d73" ] || { echo "== $name: 6.12 only"; continue; }
	for p in "$d712"0*.patch; do
		[ "$(basename "$p")" = 0000-cover-letter.patch ] && continue
		s=$(subject "$p") q=
		for r in "$d73"/0*.patch; do [ "$(subject "$r")" = "$s" ] && { q=$r; break; }; done
		if [ -z "$q" ]; then echo "== $name: 6.12 only: $s"; continue; fi
		d=$(diff <(changes "$p") <(changes "$q") || true)
		if [ -z "$d" ]; then same=$((same + 1)); continue; fi
		differ=$((differ + 1))
		echo "== $name: differs ($(printf '%s\n' "$d" | grep -c '^[<>]') lines; < 6.12, > 7.3): $s"
		printf '%s\n' "$d" | grep '^[<>]'
	done
done
for d73 in "$top"/patches-7.3/*/; do
	name=$(basename "$d73")
	[ -d "$top/patches/$name" ] || echo "== $name: 7.3 only"
done
echo "== patches of both bases: $same the same, $differ with a base-specific variant"
