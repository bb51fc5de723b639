# perf_event_open with defer_callchain: teardown (64-bit)
exec "$BIN/pdefer" teardown
