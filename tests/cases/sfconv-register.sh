# sframe_register(): error codes of bad arguments and sections, the exact chain through
# a library converted from .eh_frame, the walk ending where a registered section has no
# rule or is corrupt (no frame pointer guess), registrations dropped at dlclose and
# bounded by the registry's limit (tests/prog/sfconv/sfreg.c)
exec "$BIN/sfconv/sfreg"
