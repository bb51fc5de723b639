# test interface: requests and cancel of an unregistered tracer fail, nothing else acts
exec "$BIN/udt" unregistered
