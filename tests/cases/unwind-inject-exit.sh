# a request in the exit window before the entry context ends is called back (injection point)
exec "$BIN/udt" inject-exit
