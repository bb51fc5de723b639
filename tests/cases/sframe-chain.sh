# SFrame: the exact chain through a program and libraries built without frame pointers
# (exe -> linked library -> exe callback -> dlopened library -> exe leaf), twice
exec "$BIN/sframe/sfchain" chain 2
