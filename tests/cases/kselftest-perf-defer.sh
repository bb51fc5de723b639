# The kernel selftest of deferred user callchains
# (tools/testing/selftests/perf_events/deferred_callchain.c in the tree, built on the
# host by tests/prog/kselftest.mk): defer_callchain and defer_output accepted as
# mainline accepts them, and the samples of a known call chain: each deferred one with
# one record of its cookie after it, the records holding the chain's return addresses.
# Every one of its 4 cases must pass; a skip is a failure here.
. "$TOP/tests/lib.sh"
kselftest perf_events/deferred_callchain 4
