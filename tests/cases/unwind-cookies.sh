# deferred unwinder, test interface: cookies (64-bit)
exec "$BIN/udt" cookies
