# perf_event_open stress: forked children open events with random attrs (bits 38/39,
# inherit, sample types, periods, sample_max_stack, ...), map and read the rings, enable,
# disable, exec and exit; every ring parses, holds only samples of the child's own events
# that write to it, and the deferred-callchain rules hold (tests/prog/pstress.c). The
# kernel log is checked for splats by the harness.
. "$TOP/tests/lib.sh"
children=$(per_flavour 60 12)
exec "$BIN/pstress" 1 $children
