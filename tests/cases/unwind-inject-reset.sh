# a request inside the reset of an entry context: refused or called back with its own cookie
exec "$BIN/udt" inject-reset
