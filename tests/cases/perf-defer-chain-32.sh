# perf_event_open with defer_callchain: chain (32-bit compat task)
exec "$BIN/pdefer-32" chain
