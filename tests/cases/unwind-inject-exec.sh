# exec: a request after the old mm's callbacks is delivered with the old image's stack
exec "$BIN/udt" inject-exec
