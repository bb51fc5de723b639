# deferred unwinder, test interface: chain (64-bit)
exec "$BIN/udt" chain
