#!/bin/sh
# Run the SFrame fuzzer for a while; exit non-zero if it found a crash.
# Usage: run-fuzz.sh FUZZER SEED_DIR WORK_DIR SECONDS
# New inputs go to WORK_DIR/corpus (kept between runs), crashes to
# WORK_DIR/artifacts, the log to WORK_DIR/fuzz.log.
set -u
fuzzer=$1 seeds=$2 work=$3 secs=$4
mkdir -p "$work/corpus" "$work/artifacts"
"$fuzzer" -max_total_time="$secs" -max_len=65536 -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds" > "$work/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
if [ $rc -ne 0 ]; then
	tail -n 30 "$work/fuzz.log"
	echo "fuzz: FAILED (exit $rc) after ${runs:-?} executions; log: $work/fuzz.log; inputs: $work/artifacts/"
	exit 1
fi
echo "fuzz: ${runs:-?} executions in ${secs}s, no crash ($(ls "$work/corpus" | wc -l) corpus inputs)"
