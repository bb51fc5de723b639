# The kernel selftest of sframe_register() and sframe_unregister()
# (tools/testing/selftests/sframe/sframe_register.c in the tree, built on the host by
# tests/prog/kselftest.mk): error codes of bad arguments and corrupt sections, one
# registration per code range, removed by its section's address, dropped at munmap and
# exec, copied at fork. Every one of its 14 cases must pass, on both bases; a skip is a
# failure here.
. "$TOP/tests/lib.sh"
kselftest sframe/sframe_register 14
