# SFrame: the same program without .sframe does not give that chain (sframe-chain can tell)
exec "$BIN/sframe/nosframe/sfchain" control 2
