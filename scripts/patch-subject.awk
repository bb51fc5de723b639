# The subject of a format-patch file: its whole Subject header (format-patch wraps it
# where its prefix's length says), without the [PATCH ...] prefix. Used by
# scripts/base-diff.sh and tests/host/series-fixes.sh: awk -f patch-subject.awk FILE
/^Subject: / { s = $0; f = 1; next }
f && /^ / { s = s $0; next }
f { exit }
END { sub(/^Subject: \[[^]]*\] /, "", s); print s }
