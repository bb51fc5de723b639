# deferred unwinder, test interface: hostile (64-bit)
exec "$BIN/udt" hostile
