# SFrame: a program with .sframe has its registry from exec on, but the hot address
# cache (most of the per-mm memory) only from the first unwind on; prints the bytes of
# each (sfchain lazy)
exec "$BIN/sframe/sfchain" lazy
