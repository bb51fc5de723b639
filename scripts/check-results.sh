#!/bin/bash
# Write the results of a whole `make check` (scripts/check.sh's KTAP lines, tests named
# FLAVOUR/TEST) as Markdown: the header (scripts/results-header.sh), a line per flavour
# (passed, failed, skipped, minutes) and a table of every test with its result and
# seconds on each flavour. check.sh writes it to docs/results/check-BASE.md.
# Usage: check-results.sh KTAP_FILE FLAVOUR...
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.sh"
ktap=${1:?usage: check-results.sh KTAP_FILE FLAVOUR...}
shift
# the command: make check, FLAVOURS the guest flavours (the host's tests come with 6.12)
guests=$(printf '%s\n' "$@" | grep -vx host | paste -sd ' ')
"$top/scripts/results-header.sh" "Test results ($BASE)" \
	"make check$([ "$BASE" = 6.12 ] || echo " BASE=$BASE") FLAVOURS=\"$guests\""
# per flavour: the directory of its results (times: "TEST SECONDS", seconds: the run's)
dirs=()
for f in "$@"; do
	dirs+=("$f=$(check_outdir "$f")")
done
awk -v flavours="$*" -v dirs="${dirs[*]}" '
BEGIN {
	nf = split(flavours, fl, " ")
	split(dirs, d, " ")
	for (i in d) { eq = index(d[i], "="); dir[substr(d[i], 1, eq - 1)] = substr(d[i], eq + 1) }
	for (i = 1; i <= nf; i++) {
		f = fl[i]; file = dir[f] "/times"
		while ((getline line < file) > 0) { split(line, a, " "); secs[f "/" a[1]] = a[2] }
		close(file)
		file = dir[f] "/seconds"
		if ((getline line < file) > 0) minutes[f] = sprintf("%.1f", line / 60)
		close(file)
	}
}
/^(not )?ok [0-9]+ / {
	failed = ($1 == "not"); sub(/^(not )?ok [0-9]+ /, "")
	skipped = sub(/ # SKIP.*/, "")
	slash = index($0, "/"); f = substr($0, 1, slash - 1); t = substr($0, slash + 1)
	r = failed ? "**FAIL**" : skipped ? "skip" : "ok"
	if (!failed && !skipped) pass[f]++; else if (failed) fail[f]++; else skip[f]++
	if (!(t in seen)) { seen[t] = 1; order[++nt] = t }
	res[f, t] = r ((f "/" t) in secs ? " (" secs[f "/" t] " s)" : "")
}
END {
	print "| flavour | passed | failed | skipped | minutes |"
	print "| --- | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= nf; i++) {
		f = fl[i]
		printf "| %s | %d | %d | %d | %s |\n", f, pass[f], fail[f], skip[f], (f in minutes) ? minutes[f] : "n/a"
	}
	print ""
	line = "| test |"; sep = "| --- |"
	for (i = 1; i <= nf; i++) { line = line " " fl[i] " |"; sep = sep " --- |" }
	print line; print sep
	for (j = 1; j <= nt; j++) {
		t = order[j]; line = "| " t " |"
		for (i = 1; i <= nf; i++) line = line " " (((fl[i], t) in res) ? res[fl[i], t] : "") " |"
		print line
	}
}' "$ktap"
