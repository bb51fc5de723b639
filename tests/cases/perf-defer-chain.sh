# perf_event_open with defer_callchain: chain (64-bit)
exec "$BIN/pdefer" chain
