# deferred unwinder, test interface: hostile (32-bit compat task)
exec "$BIN/udt-32" hostile
