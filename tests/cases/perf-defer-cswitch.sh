# perf_event_open: deferred callchains of context-switch samples (taken under the runqueue lock)
exec "$BIN/pdefer" cswitch
