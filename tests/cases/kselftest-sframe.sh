# The kernel selftest of PR_REGISTER_SFRAME and PR_UNREGISTER_SFRAME
# (tools/testing/selftests/sframe/sframe_prctl.c in the tree, built on the host by
# tests/prog/kselftest.mk): error codes of bad arguments and corrupt sections, one
# registration per code range, removed for exactly that range, dropped at munmap and
# exec, copied at fork. Every one of its 13 cases must pass, on both bases; a skip is a
# failure here.
. "$TOP/tests/lib.sh"
kselftest sframe/sframe_prctl 13
