# perf_event_open with defer_callchain: cpuwide (64-bit)
exec "$BIN/pdefer" cpuwide
