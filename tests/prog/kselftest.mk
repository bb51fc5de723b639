# SPDX-License-Identifier: GPL-2.0
# The series' kernel selftests, built on the host from the tree's
# tools/testing/selftests (the guest's root file system is read-only) and run in the
# guest by tests/cases/kselftest-*.sh. Included by the top-level Makefile (which sets
# TOP, BUILD and TREE); also usable on its own:
#   make -f tests/prog/kselftest.mk TOP=$PWD BUILD=$PWD/build kselftest
# Output in $(BUILD)/kselftest/:
#   hdr/include                  the tree's UAPI headers (make headers_install; the
#                                kernel build directories need not have usr/include)
#   sframe/sframe_register       sframe_register(), sframe_unregister()
#   perf_events/deferred_callchain   defer_callchain, defer_output, the records
# A selftest whose source the tree does not have is not built (its guest test fails).
# The sources are looked for when make reads this file: `make check` runs `make
# kselftest` again once the tree is there (a fresh clone has none at first).

kselftest_saved_goal := $(.DEFAULT_GOAL)

TOP ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
BUILD ?= $(TOP)/build
TREE ?= $(BUILD)/linux

KSFT_SRC := $(TREE)/tools/testing/selftests
KSFT_OUT := $(BUILD)/kselftest$(SFX)
KSFT_HDR := $(KSFT_OUT)/hdr
# The selftests built: DIR/PROGRAM under $(KSFT_SRC) and $(KSFT_OUT)
KSFT_PROGS := sframe/sframe_register perf_events/deferred_callchain
KSFT_BINS := $(foreach p,$(KSFT_PROGS),$(if $(wildcard $(KSFT_SRC)/$(p).c),$(KSFT_OUT)/$(p)))
# What the headers are installed from (the shell runs only when the tree is there)
KSFT_UAPI = $(shell find $(TREE)/include/uapi $(TREE)/arch/x86/include/uapi -name '*.h' \
	2>/dev/null)

TEST_EXTRA += $(KSFT_BINS)

.PHONY: kselftest

kselftest: $(KSFT_BINS)

# With O=, headers_install writes only to O and INSTALL_HDR_PATH: the tree stays clean
$(KSFT_HDR)/.stamp: $(KSFT_UAPI)
	@mkdir -p $(KSFT_OUT)/obj
	$(MAKE) -s -C $(TREE) O=$(KSFT_OUT)/obj ARCH=x86_64 headers_install \
		INSTALL_HDR_PATH=$(KSFT_HDR)
	@touch $@

# Each program with its own directory's Makefile (../lib.mk), as
# `make -C tools/testing/selftests TARGETS=DIR` builds it
define KSFT_RULE
$(KSFT_OUT)/$(1)/%: $(KSFT_SRC)/$(1)/%.c $(KSFT_SRC)/$(1)/Makefile $(KSFT_SRC)/lib.mk \
		$(KSFT_SRC)/kselftest_harness.h $(KSFT_SRC)/kselftest.h $(KSFT_HDR)/.stamp
	@mkdir -p $$(@D)
	$$(MAKE) -s -C $(KSFT_SRC)/$(1) OUTPUT=$$(@D) \
		KHDR_INCLUDES="-isystem $(KSFT_HDR)/include" $$@
endef
$(foreach d,$(sort $(dir $(KSFT_PROGS))),$(eval $(call KSFT_RULE,$(d:/=))))

.DEFAULT_GOAL := $(kselftest_saved_goal)
