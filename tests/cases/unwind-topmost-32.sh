# deferred unwinder: the same for a 32-bit compat task (int $0x80; ret)
exec "$BIN/utop-32"
