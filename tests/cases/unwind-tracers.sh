# deferred unwinder, test interface: tracers (64-bit)
exec "$BIN/udt" tracers
