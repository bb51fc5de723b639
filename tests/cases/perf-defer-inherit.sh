# perf_event_open with defer_callchain: inherit (64-bit)
exec "$BIN/pdefer" inherit
