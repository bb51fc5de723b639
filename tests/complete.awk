# SPDX-License-Identifier: GPL-2.0
# Complete user stacks per program (tests/lib.sh's complete_table, which says how to
# call it): reads program_samples lines (perf script -F comm,tid,ip,sym,dso,dsoff, one
# sample a line, its frames innermost first) and prints per program and instance the
# samples with user frames, how many reach an outermost frame, by symbol or by file
# offset (the object_ranges in the file `ranges`), and a verdict.
#   pids      file of "PID PROGRAM WHEN" lines (the threads counted)
#   ranges    file of "OBJECT LO HI FUNCTION" lines (hex file offsets)
#   programs  the programs, in the table's order
#   whens     their instances (WHEN), in the table's order; a row for each one started
#   threshold the percent of a program's samples that must be complete
#   min       samples a program must have; mininst: samples an instance must have
function norm(a) {
	a = tolower(a)
	sub(/^0x/, "", a)
	while (length(a) < 16) a = "0" a
	return a
}
BEGIN {
	while ((getline line < pids) > 0) {
		split(line, p, " ")
		prog[p[1]] = p[2]; when[p[1]] = p[3]
		started[p[2] " " p[3]] = 1
	}
	close(pids)
	while ((getline line < ranges) > 0) {
		split(line, r, " ")
		nr++; rf[nr] = r[1]; rlo[nr] = norm(r[2]); rhi[nr] = norm(r[3]); rname[nr] = r[4]
	}
	close(ranges)
}
{
	n = split($1, h, " ")
	tid = h[n]
	key = prog[tid] " " when[tid]
	user = 0; bysym = 0; byaddr = 0
	for (i = 2; i <= NF; i++) {
		split($i, f, " ")
		if (f[1] ~ /^ffff/) continue
		user++
		s = f[2]
		sub(/@.*/, "", s)
		us[user] = s
		uf[user] = $i
		if (s ~ /^(_start|_dl_start_user|__libc_start_call_main|__libc_start_main(_impl)?|start_thread|clone3?|__clone3?)$/)
			bysym = 1
		else if (match($i, /\(\/[^()]*\+0x[0-9a-f]+\)$/)) {
			d = substr($i, RSTART + 1, RLENGTH - 2)
			o = d
			sub(/\+0x[0-9a-f]+$/, "", d)
			sub(/^.*\+/, "", o)
			o = norm(o)
			for (k = 1; k <= nr; k++)
				if (rf[k] == d && o >= rlo[k] && o < rhi[k]) {
					byaddr = 1
					us[user] = us[user] "(" rname[k] ")"
				}
		}
	}
	if (!user) { nouser[key]++; nouser[prog[tid]]++; next }
	# no stack at all: the deferred record of its kernel entry never came, the
	# recording ended first (the task still in the kernel): no walk to judge. perf
	# prints its cookie as "ADDR (cookie)" (7.3), "(user callchain deferred, cookie:
	# N)" (6.12)
	if (user == 1 && (us[1] ~ /cookie/ || uf[1] ~ /^\(user callchain deferred, cookie: /)) {
		lost[key]++; lost[prog[tid]]++
		next
	}
	samples[key]++; samples[prog[tid]]++
	if (bysym || byaddr) {
		complete[key]++; complete[prog[tid]]++
		if (!bysym) { addr[key]++; addr[prog[tid]]++ }
	} else if (shown[prog[tid]]++ < 3) {
		# its first 3 and last 8 user frames
		line = ""
		for (i = 1; i <= user; i++)
			if (i <= 3 || i > user - 8)
				line = line (i == 4 && user > 11 ? " ..." : "") " " us[i]
		print "incomplete " key " (tid " tid ", " user " user frames):" line > "/dev/stderr"
	}
}
function row(name, what, k,   pct) {
	pct = samples[k] ? 100 * complete[k] / samples[k] : 0
	printf "%-8s %-" ww "s %8d %8d %7.1f%% %10d %8d %8d\n", name, what, samples[k], complete[k], pct, addr[k],
		nouser[k], lost[k]
}
END {
	np = split(programs, order, " ")
	nw = split(whens, ws, " ")
	# the when column: 6 wide, or as wide as the longest WHEN
	ww = 6
	for (w = 1; w <= nw; w++)
		if (length(ws[w]) > ww) ww = length(ws[w])
	printf "%-8s %-" ww "s %8s %8s %8s %10s %8s %8s\n", "program", "when", "samples", "complete", "percent",
		"by_address", "no_user", "no_stack"
	for (i = 1; i <= np; i++) {
		pr = order[i]
		inst = 0
		for (w = 1; w <= nw; w++) {
			if (!((pr " " ws[w]) in started)) {
				if (mininst > 0)
					verdict = verdict " " pr "(" ws[w] "): not started;"
				continue
			}
			inst++
			row(pr, ws[w], pr " " ws[w])
			if (samples[pr " " ws[w]] < mininst)
				verdict = verdict " " pr "(" ws[w] "): <" mininst " samples;"
		}
		if (inst > 1)
			row(pr, "all", pr)
		if (samples[pr] < min)
			verdict = verdict " " pr ": <" min " samples;"
		else if (complete[pr] * 100 < threshold * samples[pr])
			verdict = verdict sprintf(" %s: %.1f%% complete;", pr, 100 * complete[pr] / samples[pr])
	}
	print "verdict:" (verdict == "" ? " ok" : verdict)
}
