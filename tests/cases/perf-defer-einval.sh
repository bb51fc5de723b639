# perf_event_open with defer_callchain: einval (64-bit)
exec "$BIN/pdefer" einval
