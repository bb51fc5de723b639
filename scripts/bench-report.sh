#!/bin/bash
# Turn the raw numbers of a benchmark run (OUTDIR/raw.txt, written by bench/run-guest.sh)
# into OUTDIR/results.csv, OUTDIR/results.md and OUTDIR/chart.png (gnuplot), and print
# the table and one line per target (met / not met). docs/bench.md explains the figures.
# Usage: bench-report.sh OUTDIR
set -euo pipefail
out=${1:?usage: bench-report.sh OUTDIR}
raw=$out/raw.txt
[ -s "$raw" ] || { echo "bench-report: no $raw" >&2; exit 1; }
# Workloads that stay long in the kernel per entry or spend most time there
long_residency="zero fault"
# Immediate perf's default user stack limit (kernel.perf_event_max_stack)
max_stack=127
# The per-frame and per-entry cost figures: the same workload at two depths (low high)
depth_pairs="deep50:deep deep50-32:deep-32"

event=$(sed -n 's/^event //p' "$out/info.txt" 2>/dev/null)
kernel=$(sed -n 's/^kernel //p' "$out/info.txt" 2>/dev/null | cut -d' ' -f1)

# raw.txt -> results.csv: one row per workload x mode, in run order; n/a where a
# figure does not apply (no sampling, immediate modes) or the run did not happen.
# The "#note" lines go to the note column of their row.
awk -v OFS=, '
FNR == NR {
	if ($1 == "#note") { t = $0; sub(/^#note [^ ]+ [^ ]+ /, "", t); gsub(/,/, ";", t)
		k = $2 SUBSEP $3
		if (k in notes) t = notes[k] "; " t
		notes[k] = t
	}
	next
}
$1 == "#note" { next }
function val(k) { return k in v ? v[k] : "n/a" }
function ratio(a, b, fmt) { return (a == "n/a" || b == "n/a" || b == 0) ? "n/a" : sprintf(fmt, a / b) }
BEGIN {
	print "workload", "mode", "hot_ms", "slowdown_pct", "samples", "bytes_per_sample",
		"unwinds_per_sample", "complete_pct", "deepest", "added_us_per_sample",
		"in_task_us_per_sample", "data_bytes", "unwinds", "entries", "records",
		"in_task_ns_per_sample", "avg_user_frames", "record_ms", "record_cpu_ms", "note"
}
$3 == "n/a" {
	note = $0; sub(/^[^ ]+ [^ ]+ n\/a /, "", note); gsub(/,/, ";", note)
	print $1, $2, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a",
		"n/a", "n/a", "n/a", "n/a", "n/a", note
	next
}
{
	w = $1; m = $2
	delete v
	for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	t = val("elapsed_ns"); cpu = val("cpu_ns"); note = (w, m) in notes ? notes[w, m] : ""
	# sfnone: the SFrame build (no frame pointers) without sampling, the base of sframe
	if (m == "none" || m == "sfnone") {
		if (m == "none") { base[w] = t; basecpu[w] = cpu }
		else { sfbase[w] = t; sfbasecpu[w] = cpu }
		print w, m, sprintf("%.1f", t / 1e6), "0.00", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a",
			"n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", ratio(val("record_ns"), 1e6, "%.1f"),
			ratio(val("record_cpu_ns"), 1e6, "%.1f"), note
		next
	}
	s = val("samples")
	deferred = m == "defer" || m == "sframe"
	hasb = m == "sframe" ? (w in sfbase) : (w in base)
	bt = m == "sframe" ? sfbase[w] : base[w]
	bc = m == "sframe" ? sfbasecpu[w] : basecpu[w]
	print w, m, sprintf("%.1f", t / 1e6), hasb ? sprintf("%.2f", (t / bt - 1) * 100) : "n/a",
		s, ratio(val("data_bytes"), s, "%.0f"),
		deferred ? ratio(val("unwinds"), s, "%.3f") : "n/a",
		ratio(100 * val("complete"), s, "%.1f"), val("deepest"),
		hasb ? ratio((t - bt) / 1000, s, "%.1f") : "n/a",
		hasb ? ratio((cpu - bc) / 1000, s, "%.1f") : "n/a",
		val("data_bytes"), deferred ? val("unwinds") : "n/a", deferred ? val("entries") : "n/a",
		deferred ? val("records") : "n/a",
		hasb ? ratio(cpu - bc, s, "%.0f") : "n/a",
		ratio(val("userframes"), s, "%.2f"), ratio(val("record_ns"), 1e6, "%.1f"),
		ratio(val("record_cpu_ns"), 1e6, "%.1f"), note
}' "$raw" "$raw" > "$out/results.csv"

# The awk programs below read results.csv by column name: g("samples")
csv='BEGIN { FS = "," }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
function g(name) { return $col[name] }
function na(x) { return x == "n/a" ? "-" : x }'

# results.csv -> markdown table
{
	echo "Times are guest time under QEMU TCG \`-icount shift=0,sleep=off\` (1 ns per"
	echo "instruction, one vCPU), kernel $kernel, \`perf record $event\`; each workload's"
	echo "own CLOCK_MONOTONIC time of its hot phase. See docs/bench.md."
	echo
	echo "| workload | mode | hot phase ms | slowdown | samples | bytes/sample | user unwinds/sample | complete stacks | deepest user stack | added µs/sample | in task µs/sample |"
	echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
	awk "$csv"'
	g("hot_ms") == "n/a" { printf "| %s | %s | n/a: %s |||||||||\n", g("workload"), g("mode"), g("note"); next }
	{
		slow = g("mode") == "none" ? "-" : (g("slowdown_pct") == "n/a" ? "-" : sprintf("%+.2f%%", g("slowdown_pct")))
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", g("workload"),
			g("mode") (g("note") ? " (*)" : ""), g("hot_ms"), slow, na(g("samples")),
			na(g("bytes_per_sample")), na(g("unwinds_per_sample")),
			g("complete_pct") == "n/a" ? "-" : g("complete_pct") "%", na(g("deepest")),
			na(g("added_us_per_sample")), na(g("in_task_us_per_sample"))
	}
	g("hot_ms") != "n/a" && g("note") { notes = notes sprintf("(*) %s %s: %s\n", g("workload"), g("mode"), g("note")) }
	END { if (notes) printf "\n%s", notes }' "$out/results.csv"
	echo
	echo "\"added µs/sample\": the hot phase's added time per sample, all of it (one vCPU):"
	echo "sampling interrupt, deferred unwind, perf record's own work. \"in task\": the part"
	echo "added to the workload's own CPU time (interrupt + deferred unwind in task work)."
	echo "The interrupt alone is not measurable here (no function tracer in the guest kernel)."
} > "$out/results.md"

# The targets, from results.csv: one line each, met / not met, with the numbers
targets=$(awk "$csv"'
function has(w, m) { return (w, m, "hot_ms") in r && r[w, m, "hot_ms"] != "n/a" }
function f(w, m, name) { return r[w, m, name] }
function add(cond, text) { if (!cond) ok = 0; nums = nums (nums ? ", " : "") text; cnt++ }
function start() { ok = 1; nums = ""; cnt = 0 }
function line(text) { if (cnt) printf "target: %s: %s (%s)\n", text, ok ? "met" : "not met", nums }
{
	for (name in col) r[g("workload"), g("mode"), name] = g(name)
	if (!(g("workload") in seen)) { seen[g("workload")] = 1; order[++n] = g("workload") }
}
END {
	split(long, lr, " ")
	for (i in lr) islong[lr[i]] = 1
	start()
	for (i = 1; i <= n; i++)
		if (has(w = order[i], "defer") && has(w, "fp"))
			add(f(w, "defer", "slowdown_pct") <= f(w, "fp", "slowdown_pct") + 0,
			    sprintf("%s %+.2f%% vs %+.2f%%", w, f(w, "defer", "slowdown_pct"), f(w, "fp", "slowdown_pct")))
	line("deferred slowdown <= immediate on every workload (deferred vs immediate)")
	start()
	for (i = 1; i <= n; i++)
		if (islong[w = order[i]] && has(w, "defer") && has(w, "fp") && has(w, "none")) {
			a = f(w, "defer", "hot_ms") - f(w, "none", "hot_ms"); b = f(w, "fp", "hot_ms") - f(w, "none", "hot_ms")
			add(a <= 0.5 * b, sprintf("%s %.1f vs %.1f ms added (%.2fx)", w, a, b, b ? a / b : 0))
		}
	line("deferred added time <= 0.5x immediate on long residency")
	start()
	for (i = 1; i <= n; i++)
		if (islong[w = order[i]] && has(w, "defer") && has(w, "fp")) {
			a = f(w, "defer", "bytes_per_sample"); b = f(w, "fp", "bytes_per_sample")
			add(a <= 0.5 * b, sprintf("%s %d vs %d B (%.2fx)", w, a, b, a / b))
		}
	line("deferred bytes/sample <= 0.5x immediate on long residency")
	start()
	for (i = 1; i <= n; i++)
		if (has(w = order[i], "defer") && has(w, "dwarf")) {
			a = f(w, "defer", "bytes_per_sample"); b = f(w, "dwarf", "bytes_per_sample")
			add(a <= 0.1 * b, sprintf("%s %d vs %d B (%.3fx)", w, a, b, a / b))
		}
	line("deferred bytes/sample <= 0.1x DWARF on every workload")
	start()
	for (i = 1; i <= n; i++)
		if (has(w = order[i], "defer"))
			add(f(w, "defer", "unwinds") == f(w, "defer", "entries"),
			    sprintf("%s %d/%d/%d/%d", w, f(w, "defer", "unwinds"), f(w, "defer", "entries"),
				    f(w, "defer", "records"), f(w, "defer", "samples")))
	line("exactly one user unwind per kernel entry (unwinds/entries/records/samples)")
	start()
	for (i = 1; i <= n; i++)
		if (has(w = order[i], "defer") && has(w, "fp") && f(w, "fp", "deepest") >= max)
			add(f(w, "defer", "deepest") > max,
			    sprintf("%s %d vs %d frames", w, f(w, "defer", "deepest"), f(w, "fp", "deepest")))
	line("deferred captures user stacks deeper than the immediate " max "-frame limit (where immediate hits it)")
}' long="$long_residency" max="$max_stack" "$out/results.csv")

# Cost per frame and per kernel entry of each unwinder, from the in-task cost per
# sample of one workload at two depths: (T2 - T1) / (F2 - F1) instructions per user
# frame (guest ns under -icount), and T1 - slope * F1 per entry (every sample of
# these workloads is its own kernel entry).
unwinders=$(awk "$csv"'
function has(w, m) { return (w, m, "in_task_ns_per_sample") in r && r[w, m, "in_task_ns_per_sample"] != "n/a" }
{ for (name in col) r[g("workload"), g("mode"), name] = g(name) }
END {
	split("fp defer sframe", modes, " ")
	split("immediate frame pointers (-g)|deferred frame pointers (fp,defer)|SFrame (fp,defer)",
	      names, "|")
	np = split(pairs, p, " ")
	for (i = 1; i <= np; i++) {
		split(p[i], wl, ":")
		for (j = 1; j <= 3; j++) {
			m = modes[j]
			if (!has(wl[1], m) || !has(wl[2], m))
				continue
			t1 = r[wl[1], m, "in_task_ns_per_sample"]; t2 = r[wl[2], m, "in_task_ns_per_sample"]
			f1 = r[wl[1], m, "avg_user_frames"]; f2 = r[wl[2], m, "avg_user_frames"]
			if (f2 - f1 < 1)
				continue
			slope = (t2 - t1) / (f2 - f1)
			printf "%s|%s|%s|%s|%.1f / %.1f|%.0f / %.0f|%.1f|%.0f\n", wl[2], m,
				names[j] (wl[2] ~ /-32$/ ? ", ia32" : ""), wl[1] ", " wl[2], f1, f2, t1, t2,
				slope, t1 - slope * f1
		}
	}
}' pairs="$depth_pairs" "$out/results.csv")
{
	echo
	echo "Cost of each unwinder, from one workload at two depths (in-task cost per sample"
	echo "T against user frames per sample F): per frame (T2 - T1) / (F2 - F1), fixed per"
	echo "kernel entry T1 - per frame x F1, in instructions (guest ns under -icount)."
	echo
	echo "| unwinder | workloads | user frames/sample | in task ns/sample | instructions per frame | fixed instructions per entry |"
	echo "|---|---|--:|--:|--:|--:|"
	echo "$unwinders" | awk -F'|' 'NF { printf "| %s | %s | %s | %s | %s | %s |\n", $3, $4, $5, $6, $7, $8 }'
} >> "$out/results.md"

# The targets of issue 11: per frame, in-task cost, the 200k-FRE program
targets=$targets$'\n'$(awk "$csv"'
function has(w, m) { return (w, m, "hot_ms") in r && r[w, m, "hot_ms"] != "n/a" }
function f(w, m, name) { return r[w, m, name] }
function add(cond, text) { if (!cond) ok = 0; nums = nums (nums ? ", " : "") text; cnt++ }
function start() { ok = 1; nums = ""; cnt = 0 }
function line(text) { if (cnt) printf "target: %s: %s (%s)\n", text, ok ? "met" : "not met", nums }
{ for (name in col) r[g("workload"), g("mode"), name] = g(name) }
END {
	n = split(unw, u, "\n")
	for (i = 1; i <= n; i++) {
		if (split(u[i], x, "|") < 8)
			continue
		slope[x[1], x[2]] = x[7]
	}
	start()
	for (k in slope) {
		split(k, wm, SUBSEP)
		if (wm[2] == "defer" && (wm[1], "fp") in slope)
			add(slope[k] <= slope[wm[1], "fp"], sprintf("%s %.1f vs %.1f", wm[1], slope[k],
			    slope[wm[1], "fp"]))
	}
	line("(a) instructions per frame, deferred frame-pointer walk <= immediate (required)")
	start()
	for (k in slope) {
		split(k, wm, SUBSEP)
		if (wm[2] == "sframe" && (wm[1], "defer") in slope)
			add(slope[k] <= 2 * slope[wm[1], "defer"], sprintf("%s %.1f vs %.1f (%.2fx)", wm[1],
			    slope[k], slope[wm[1], "defer"], slope[k] / slope[wm[1], "defer"]))
	}
	line("(b) instructions per frame, SFrame <= 2x the deferred frame-pointer walk (required)")
	start()
	nw = split("zero deep deep-32 compute fault", ws, " ")
	for (i = 1; i <= nw; i++) {
		w = ws[i]
		if (!has(w, "defer") || !has(w, "fp"))
			continue
		a = f(w, "defer", "in_task_ns_per_sample"); b = f(w, "fp", "in_task_ns_per_sample")
		lim = w == "zero" ? 1 : 1.25
		add(a <= lim * b, sprintf("%s %.1f vs %.1f us (%.2fx, limit %.2fx)", w, a / 1000, b / 1000,
		    b ? a / b : 0, lim))
	}
	line("(c) in-task cost per sample, deferred <= immediate on zero, <= 1.25x on deep, deep-32, compute, fault")
	start()
	if (has("manyfre", "defer") && has("manyfre", "fp") && f("manyfre", "fp", "record_cpu_ms") > 0) {
		a = f("manyfre", "defer", "record_cpu_ms"); b = f("manyfre", "fp", "record_cpu_ms")
		add(a <= 3 * b, sprintf("fp,defer %.0f ms vs -g %.0f ms (%.2fx; guest time %.0f vs %.0f ms), %d vs %d samples",
		    a, b, a / b, f("manyfre", "defer", "record_ms"), f("manyfre", "fp", "record_ms"),
		    f("manyfre", "defer", "samples"), f("manyfre", "fp", "samples")))
	}
	line("the ~200000-FRE program (manyfre): the whole perf record fp,defer run <= 3x the -g run (CPU time of perf and the program)")
}' unw="$unwinders" "$out/results.csv")
{ echo; echo "Targets (reported, not enforced):"; echo; echo "$targets" | sed 's/^target: /- /'; } >> "$out/results.md"

# The chart: slowdown, bytes per sample (log) and complete stacks per workload and mode
# (modes without any number, e.g. sframe on a kernel without it, are left out)
dat=$out/chart.dat
: > "$dat"
for figure in slowdown_pct bytes_per_sample complete_pct; do
	awk "$csv"'
	g("mode") != "none" && g("mode") != "sfnone" {
		if (!(g("workload") in sw)) { sw[g("workload")] = 1; ws[++nw] = g("workload") }
		if (!(g("mode") in sm) && g(figure) != "n/a") { sm[g("mode")] = 1; ms[++nm] = g("mode") }
		v[g("workload"), g("mode")] = g(figure)
	}
	END {
		printf "workload"; for (j = 1; j <= nm; j++) printf " %s", ms[j]; print ""
		for (i = 1; i <= nw; i++) {
			printf "%s", ws[i]
			for (j = 1; j <= nm; j++) printf " %s", ((ws[i], ms[j]) in v) ? v[ws[i], ms[j]] : "n/a"
			print ""
		}
		print ""; print ""
	}' figure=$figure "$out/results.csv" >> "$dat"
done
ncol=$(head -n 1 "$dat" | wc -w)
gnuplot 2> "$out/gnuplot.log" <<EOF || { cat "$out/gnuplot.log" >&2; exit 1; }
set terminal pngcairo size 1000,1100 font "sans,10"
set output "$out/chart.png"
set datafile missing "n/a"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top
set grid ytics
set multiplot layout 3,1 title "deferred vs immediate vs DWARF unwinding ($event, icount guest time)"
set title "slowdown vs no sampling (%)"
set yrange [*<0:*]
plot for [i=2:$ncol] "$dat" index 0 using i:xtic(1) title columnheader(i)
set title "perf.data bytes per sample (log)"
set yrange [*:*]
set logscale y
plot for [i=2:$ncol] "$dat" index 1 using i:xtic(1) title columnheader(i)
unset logscale y
set title "samples with a complete user stack (%)"
set yrange [0:105]
plot for [i=2:$ncol] "$dat" index 2 using i:xtic(1) title columnheader(i)
unset multiplot
EOF

cat "$out/results.md"
echo
echo "bench: $out/results.md, $out/results.csv, $out/chart.png"
