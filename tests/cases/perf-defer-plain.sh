# perf_event_open with defer_callchain: plain (64-bit)
exec "$BIN/pdefer" plain
