# perf_event_open with defer_callchain: a page fault at a function's first instruction
exec "$BIN/pdefer" entry
