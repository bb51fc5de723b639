# SPDX-License-Identifier: GPL-2.0
# The report of a benchmark run: the raw numbers (OUTDIR/raw.txt, bench/run-guest.sh)
# to OUTDIR/results.csv (figures per workload and mode), OUTDIR/results.md (tables and
# one line per target, met / not met) and OUTDIR/chart.dat (for gnuplot). The targets
# and the workload pairs of the unwinder costs are data: bench/targets.
# Usage: awk -f bench/report.awk -v out=OUTDIR -v kernel=K -v event=E bench/targets OUTDIR/raw.txt

function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function num(x) { return x != "" && x != "n/a" }
function v(w, m, k) { return (w, m, k) in V ? V[w, m, k] : "n/a" }
function div(a, b, f) { return (!num(a) || !num(b) || b + 0 == 0) ? "n/a" : sprintf(f, a / b) }
function dash(x) { return num(x) ? x : "-" }
# A mode may name its kernel, "KERNEL/MODE" (scripts/bench-compare.sh): its kind is MODE
function kind(m) { sub(/^.*\//, "", m); return m }
function kpre(m) { return match(m, /^.*\//) ? substr(m, 1, RLENGTH) : "" }

# The figures of one run (all "n/a" where they do not apply); the base of sframe, sfv3
# and sfv2 is the SFrame build without sampling (sfnone: the same code), the other
# modes' the workload without (none), both on the same kernel
function figures(w, m,    i, t, s, b, bt, bc, k) {
	for (i = 1; i <= ncols; i++)
		F[w, m, C[i]] = "n/a"
	F[w, m, "workload"] = w
	F[w, m, "mode"] = m
	F[w, m, "note"] = (w, m) in note ? note[w, m] : ""
	if (!((w, m) in ran))
		return
	t = v(w, m, "elapsed_ns")
	s = v(w, m, "samples")
	F[w, m, "hot_ms"] = sprintf("%.1f", t / 1e6)
	F[w, m, "record_ms"] = div(v(w, m, "record_ns"), 1e6, "%.1f")
	F[w, m, "record_cpu_ms"] = div(v(w, m, "record_cpu_ns"), 1e6, "%.1f")
	k = kind(m)
	if (k == "none" || k == "sfnone") {
		F[w, m, "slowdown_pct"] = "0.00"
		return
	}
	F[w, m, "samples"] = s
	F[w, m, "data_bytes"] = v(w, m, "data_bytes")
	F[w, m, "bytes_per_sample"] = div(v(w, m, "data_bytes"), s, "%.0f")
	F[w, m, "complete_pct"] = div(v(w, m, "complete"), s / 100, "%.1f")
	F[w, m, "deepest"] = v(w, m, "deepest")
	F[w, m, "avg_user_frames"] = div(v(w, m, "userframes"), s, "%.2f")
	if (k == "defer" || k == "sframe" || k ~ /^sfv/) {
		F[w, m, "unwinds_per_sample"] = div(v(w, m, "unwinds"), s, "%.3f")
		F[w, m, "unwinds"] = v(w, m, "unwinds")
		F[w, m, "entries"] = v(w, m, "entries")
		F[w, m, "records"] = v(w, m, "records")
	}
	b = kpre(m) (k == "sframe" || k ~ /^sfv/ ? "sfnone" : "none")
	if (!((w, b) in ran))
		return
	bt = v(w, b, "elapsed_ns")
	bc = v(w, b, "cpu_ns")
	F[w, m, "slowdown_pct"] = sprintf("%.2f", (t / bt - 1) * 100)
	F[w, m, "added_ms"] = sprintf("%.1f", (t - bt) / 1e6)
	F[w, m, "added_us_per_sample"] = div((t - bt) / 1000, s, "%.1f")
	F[w, m, "in_task_us_per_sample"] = div((v(w, m, "cpu_ns") - bc) / 1000, s, "%.1f")
	F[w, m, "in_task_ns_per_sample"] = div(v(w, m, "cpu_ns") - bc, s, "%.0f")
	F[w, m, "in_task_ns_per_frame"] = div(F[w, m, "in_task_ns_per_sample"],
					      F[w, m, "avg_user_frames"], "%.1f")
}

# Cost per frame and per kernel entry of each unwinder, from the in-task cost per sample
# T of one workload at two depths against its user frames per sample F: (T2 - T1) /
# (F2 - F1) instructions per frame (guest ns under -icount), T1 - that x F1 per entry
# (every sample of these workloads is its own kernel entry). Kept as figures of HIGH.
function unwinder(lo, hi, m,    t1, t2, f1, f2, slope) {
	t1 = F[lo, m, "in_task_ns_per_sample"]; t2 = F[hi, m, "in_task_ns_per_sample"]
	f1 = F[lo, m, "avg_user_frames"]; f2 = F[hi, m, "avg_user_frames"]
	if (!num(t1) || !num(t2) || !num(f1) || !num(f2) || f2 - f1 < 1)
		return
	slope = (t2 - t1) / (f2 - f1)
	F[hi, m, "instr_per_frame"] = sprintf("%.1f", slope)
	F[hi, m, "instr_per_entry"] = sprintf("%.0f", t1 - slope * f1)
	printf "| %s%s%s | %s, %s | %.1f / %.1f | %.0f / %.0f | %.1f | %.0f |\n",
		kpre(m) == "" ? "" : substr(kpre(m), 1, length(kpre(m)) - 1) ": ", uname[kind(m)],
		hi ~ /-32$/ ? ", ia32" : "", lo, hi, f1, f2, t1, t2, slope, t1 - slope * f1 > md
}

# One target: its line, met if it holds on every workload that has both numbers
function target(t,    n, L, i, w, r, wm, rw, rmode, rfig, a, b, ok, cnt, nums, lim) {
	n = tw[t] == "*" ? split(workloads, L, " ") : split(tw[t], L, " ")
	split(tref[t], r, " ")
	# The reference: a number, MODE or WORKLOAD:MODE (another workload's), and a FIGURE
	rw = ""; rmode = r[1]
	if (split(r[1], wm, ":") == 2) {
		rw = wm[1]; rmode = wm[2]
	}
	rfig = 2 in r ? r[2] : tfig[t]
	ok = 1
	for (i = 1; i <= n; i++) {
		w = L[i]
		a = F[w, tmode[t], tfig[t]]
		b = r[1] ~ /^[0-9.]+$/ ? r[1] : F[rw == "" ? w : rw, rmode, rfig]
		if (!num(a) || !num(b))
			continue
		lim = tfac[t] * b
		if (top[t] == "<=" ? a + 0 > lim : top[t] == "==" ? a + 0 != lim : \
		    top[t] == ">=" ? a + 0 < lim : a + 0 <= lim)
			ok = 0
		nums = nums (cnt++ ? ", " : "") sprintf("%s %s vs %s", w, a, b) \
			(b > 0 && top[t] != ">" ? sprintf(" (%.2fx)", a / b) : "")
	}
	if (cnt)
		printf "- %s: %s (%s)\n", ttext[t], ok ? "met" : "not met", nums > md
}

# One figure for the chart: a row per workload, a column per mode that has it
function chart(fig,    i, j, nm, M, seenm) {
	for (i = 1; i <= nruns; i++)
		if (kind(rm[i]) != "none" && kind(rm[i]) != "sfnone" && num(F[rw[i], rm[i], fig]) &&
		    !(rm[i] in seenm)) {
			seenm[rm[i]] = 1
			M[++nm] = rm[i]
		}
	printf "workload" > dat
	for (j = 1; j <= nm; j++)
		printf " %s", M[j] > dat
	print "" > dat
	for (i = 1; i <= nw; i++) {
		printf "%s", W[i] > dat
		for (j = 1; j <= nm; j++)
			printf " %s", num(F[W[i], M[j], fig]) ? F[W[i], M[j], fig] : "n/a" > dat
		print "" > dat
	}
	print "\n" > dat
}

BEGIN {
	ncols = split("workload mode hot_ms slowdown_pct samples bytes_per_sample " \
		"unwinds_per_sample complete_pct deepest added_us_per_sample in_task_us_per_sample " \
		"data_bytes unwinds entries records in_task_ns_per_sample avg_user_frames record_ms " \
		"record_cpu_ms added_ms in_task_ns_per_frame note", C, " ")
	nu = split("fp defer sframe sfv3 sfv2", um, " ")
	uname["fp"] = "immediate frame pointers (-g)"
	uname["defer"] = "deferred frame pointers (fp,defer)"
	uname["sframe"] = "SFrame (fp,defer)"
	uname["sfv3"] = "SFrame V3 of sframe-conv (fp,defer)"
	uname["sfv2"] = "SFrame v2 of sframe-conv (fp,defer)"
	csv = out "/results.csv"; md = out "/results.md"; dat = out "/chart.dat"
}

# bench/targets
FNR == NR && $1 == "pair" { lo[++npairs] = $2; hi[npairs] = $3; next }
FNR == NR && !/^#/ && NF {
	split($0, f, "|")
	split(trim(f[2]), a, " ")
	nt++
	tw[nt] = trim(f[1]); tfig[nt] = a[1]; tmode[nt] = a[2]
	top[nt] = trim(f[3]); tfac[nt] = trim(f[4]); tref[nt] = trim(f[5]); ttext[nt] = trim(f[6])
}
FNR == NR { next }

# raw.txt: "W M key=value...", "W M n/a REASON", "#note W M TEXT"
$1 == "#note" {
	t = $0; sub(/^#note [^ ]+ [^ ]+ /, "", t)
	if (($2, $3) in note) {
		# the same note from another round of a repeated run
		if (index("; " note[$2, $3] "; ", "; " t "; "))
			next
		t = note[$2, $3] "; " t
	}
	note[$2, $3] = t
	next
}
# A workload and mode run more than once (REPEAT in bench/run-guest.sh): each number is
# the median of its runs (the middle one, the lower of the two for an even count)
{
	if (!(($1, $2) in seenr)) {
		seenr[$1, $2] = 1
		rw[++nruns] = $1; rm[nruns] = $2
	}
	if (!($1 in seenw)) { seenw[$1] = 1; W[++nw] = $1; workloads = workloads " " $1 }
	if ($3 == "n/a") {
		t = $0; sub(/^[^ ]+ [^ ]+ n\/a /, "", t)
		if (($1, $2) in note)
			t = note[$1, $2] "; " t
		note[$1, $2] = t
		next
	}
	ran[$1, $2] = 1
	k = ++rounds[$1, $2]
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		if (k == 1)
			keys[$1, $2] = keys[$1, $2] " " kv[1]
		R[$1, $2, kv[1], k] = kv[2]
	}
}

function median(w, m, key,    n, i, j, a, x) {
	n = rounds[w, m]
	for (i = 1; i <= n; i++) {
		x = R[w, m, key, i]
		for (j = i - 1; j >= 1 && a[j] + 0 > x + 0; j--)
			a[j + 1] = a[j]
		a[j + 1] = x
	}
	return a[int((n + 1) / 2)]
}

END {
	for (i = 1; i <= nruns; i++) {
		w = rw[i]; m = rm[i]
		if (!((w, m) in ran))
			continue
		nk = split(keys[w, m], K, " ")
		for (j = 1; j <= nk; j++)
			V[w, m, K[j]] = median(w, m, K[j])
		if (rounds[w, m] > 1) {
			t = "each number the median of " rounds[w, m] " runs"
			if ((w, m) in note)
				t = note[w, m] "; " t
			note[w, m] = t
		}
	}
	for (i = 1; i <= nruns; i++)
		figures(rw[i], rm[i])

	for (i = 1; i <= ncols; i++)
		printf "%s%s", C[i], i < ncols ? "," : "\n" > csv
	for (r = 1; r <= nruns; r++)
		for (i = 1; i <= ncols; i++) {
			x = F[rw[r], rm[r], C[i]]
			gsub(/,/, ";", x)
			printf "%s%s", x, i < ncols ? "," : "\n" > csv
		}

	print "Times are guest time under QEMU TCG `-icount shift=0,sleep=off` (1 ns per" > md
	print "instruction, one vCPU), kernel " kernel ", `perf record " event "`; each workload's" > md
	print "own CLOCK_MONOTONIC time of its hot phase. See docs/bench.md.\n" > md
	print "| workload | mode | hot phase ms | slowdown | samples | bytes/sample | " \
		"user unwinds/sample | complete stacks | deepest user stack | added µs/sample | " \
		"in task µs/sample |" > md
	print "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|" > md
	for (r = 1; r <= nruns; r++) {
		w = rw[r]; m = rm[r]
		if (!((w, m) in ran)) {
			printf "| %s | %s | n/a: %s |||||||||\n", w, m, F[w, m, "note"] > md
			continue
		}
		s = F[w, m, "slowdown_pct"]
		printf "| %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w, m,
			F[w, m, "note"] != "" ? " (*)" : "", F[w, m, "hot_ms"],
			kind(m) == "none" || !num(s) ? "-" : sprintf("%+.2f%%", s), dash(F[w, m, "samples"]),
			dash(F[w, m, "bytes_per_sample"]), dash(F[w, m, "unwinds_per_sample"]),
			num(F[w, m, "complete_pct"]) ? F[w, m, "complete_pct"] "%" : "-",
			dash(F[w, m, "deepest"]), dash(F[w, m, "added_us_per_sample"]),
			dash(F[w, m, "in_task_us_per_sample"]) > md
		if (F[w, m, "note"] != "")
			notes = notes sprintf("(*) %s %s: %s\n", w, m, F[w, m, "note"])
	}
	if (notes != "")
		printf "\n%s", notes > md
	print "\n\"added µs/sample\": the hot phase's added time per sample, all of it (one vCPU):" > md
	print "sampling interrupt, deferred unwind, perf record's own work. \"in task\": the part" > md
	print "added to the workload's own CPU time (interrupt + deferred unwind in task work)." > md
	print "The interrupt alone is not measurable here (no function tracer in the guest kernel).\n" > md

	print "Cost of each unwinder, from one workload at two depths (in-task cost per sample" > md
	print "T against user frames per sample F): per frame (T2 - T1) / (F2 - F1), fixed per" > md
	print "kernel entry T1 - per frame x F1, in instructions (guest ns under -icount).\n" > md
	print "| unwinder | workloads | user frames/sample | in task ns/sample | " \
		"instructions per frame | fixed instructions per entry |" > md
	print "|---|---|--:|--:|--:|--:|" > md
	# the unwinders: the modes run that are one (KERNEL/MODE too), in the order of um
	for (j = 1; j <= nu; j++)
		for (i = 1; i <= nruns; i++)
			if (kind(rm[i]) == um[j] && !((rm[i]) in seenu)) {
				seenu[rm[i]] = 1
				U[++nun] = rm[i]
			}
	for (p = 1; p <= npairs; p++)
		for (j = 1; j <= nun; j++)
			unwinder(lo[p], hi[p], U[j])

	print "\nTargets (reported, not enforced):\n" > md
	for (t = 1; t <= nt; t++)
		target(t)

	chart("slowdown_pct")
	chart("bytes_per_sample")
	chart("complete_pct")
}
