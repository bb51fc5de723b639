# deferred unwinder, test interface: cache (64-bit)
exec "$BIN/udt" cache
