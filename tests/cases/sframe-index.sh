# SFrame: a function with ~5000 FREs (more than a lookup scans without an index), 50
# deep: the exact frames through its FRE index, built once per process
exec "$BIN/sframe/sfbig" 3
