# perf_event_open: sample_max_stack never cuts the deferred marker and cookie (64-bit)
exec "$BIN/pdefer" maxstack
