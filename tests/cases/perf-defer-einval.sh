# perf_event_open: bits 38/39 accepted whatever the sample type and exclusions (mainline's
# probe included), nothing deferred without a user callchain, unknown bits EINVAL (64-bit)
exec "$BIN/pdefer" einval
