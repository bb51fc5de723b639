# deferred unwinder, test interface: storm (64-bit)
exec "$BIN/udt" storm
