# deferred unwinder: the topmost frame's instruction is read even when its page is not
# present (the task stopped at a ret that starts a page dropped with MADV_DONTNEED)
exec "$BIN/utop"
