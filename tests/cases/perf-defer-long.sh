# perf_event_open with defer_callchain: long (64-bit)
exec "$BIN/pdefer" long
