# deferred unwinder, test interface: chain (32-bit compat task)
exec "$BIN/udt-32" chain
