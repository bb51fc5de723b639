# SPDX-License-Identifier: GPL-2.0
# The kernel's .eh_frame reader (kernel/unwind/eh_frame_reader.c and
# include/linux/eh_frame_reader.h of the kernel tree, EHF_TREE: build/linux by default,
# made by `make tree`) in user space: the same source as the kernel's.
# Included by the top-level Makefile (which sets TOP and BUILD); also usable as
#   make -f tools/eh-frame/eh-frame.mk TOP=$PWD BUILD=$PWD/build eh-frame-test
# Output in $(BUILD)/eh-frame/:
#   eh-frame-test    unit tests on hand-built CIEs and FDEs (ASan/UBSan)
#   eh-frame-xcheck  every FDE of EHF_OBJS looked up at every row boundary and
#                    between, compared with libdw (ASan/UBSan): 0 mismatches
#   eh-frame-fuzz    libFuzzer (clang) for FUZZ_SECONDS (default 600), niced
#   eh-frame-bench   ns per FDE search and per lookup (-O2, no sanitizers)
# The reader includes <linux/eh_frame_reader.h>, which needs nothing but the C
# compiler's own headers outside the kernel: a copy in $(EHF_OUT)/include is all.

ehf_saved_goal := $(.DEFAULT_GOAL)

# (:=, now: MAKEFILE_LIST grows with every include)
ifndef TOP
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
endif
BUILD ?= $(TOP)/build
FUZZ_SECONDS ?= 600
include $(TOP)/tests/flags.mk

EHF_SRC := $(TOP)/tools/eh-frame
EHF_OUT := $(BUILD)/eh-frame
EHF_TREE ?= $(BUILD)/linux
EHF_HDR := $(EHF_OUT)/include/linux/eh_frame_reader.h
EHF_READER := $(EHF_TREE)/kernel/unwind/eh_frame_reader.c $(EHF_HDR)
EHF_CC ?= gcc
EHF_CLANG ?= clang
EHF_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
EHF_CFLAGS := -g -O1 $(WARN_CFLAGS) -I$(EHF_OUT)/include
# Debian 12's objects the cross-check reads (apt: libc6, libpython3.11, libssl3,
# libstdc++6, cpp-12; libdw-dev for the check itself)
EHF_OBJS ?= /lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libpython3.11.so.1.0 \
	/lib/x86_64-linux-gnu/libcrypto.so.3 /lib/x86_64-linux-gnu/libstdc++.so.6 \
	/usr/lib/gcc/x86_64-linux-gnu/12/cc1

.PHONY: eh-frame-test eh-frame-xcheck eh-frame-fuzz eh-frame-bench eh-frame-objs

# The objects the cross-check reads (tests/host/eh-frame.sh skips without them)
eh-frame-objs:
	@echo $(EHF_OBJS)

$(EHF_HDR): $(EHF_TREE)/include/linux/eh_frame_reader.h
	mkdir -p $(@D) && cp $< $@

$(EHF_OUT)/test_eh_frame: $(addprefix $(EHF_SRC)/,test_eh_frame.c ehf_test.h) $(EHF_READER)
	mkdir -p $(@D) && $(EHF_CC) $(EHF_CFLAGS) $(EHF_SAN) $(filter %.c,$^) -o $@

eh-frame-test: $(EHF_OUT)/test_eh_frame
	$<

$(EHF_OUT)/xcheck_eh_frame: $(addprefix $(EHF_SRC)/,xcheck_eh_frame.c ehf_elf.c ehf_elf.h) \
		$(EHF_READER)
	mkdir -p $(@D) && $(EHF_CC) $(EHF_CFLAGS) $(EHF_SAN) $(filter %.c,$^) -ldw -lelf -o $@

eh-frame-xcheck: $(EHF_OUT)/xcheck_eh_frame
	nice -n 19 $< $(EHF_OBJS)

$(EHF_OUT)/bench_eh_frame: $(addprefix $(EHF_SRC)/,xcheck_eh_frame.c ehf_elf.c ehf_elf.h) \
		$(EHF_READER)
	mkdir -p $(@D) && $(EHF_CC) $(TOOL_CFLAGS) -I$(EHF_OUT)/include $(filter %.c,$^) \
		-ldw -lelf -o $@

eh-frame-bench: $(EHF_OUT)/bench_eh_frame
	nice -n 19 $< --bench $(EHF_OBJS)

$(EHF_OUT)/fuzz_eh_frame: $(addprefix $(EHF_SRC)/,fuzz_eh_frame.c ehf_test.h) $(EHF_READER)
	mkdir -p $(@D) && $(EHF_CLANG) $(EHF_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(filter %.c,$^) -o $@

# The seeds, written at build time (nothing binary committed): the unit tests'
# sections, and runs of real FDEs from EHF_OBJS behind a made-up .eh_frame_hdr
$(EHF_OUT)/seeds.stamp: $(EHF_OUT)/test_eh_frame $(EHF_OUT)/xcheck_eh_frame
	rm -rf $(EHF_OUT)/seeds && mkdir -p $(EHF_OUT)/seeds
	$< --seeds $(EHF_OUT)/seeds > /dev/null
	$(EHF_OUT)/xcheck_eh_frame --seeds $(EHF_OUT)/seeds $(EHF_OBJS) && touch $@

eh-frame-fuzz: $(EHF_OUT)/fuzz_eh_frame $(EHF_OUT)/seeds.stamp
	nice -n 19 $(TOP)/tests/sframe/run-fuzz.sh $< $(EHF_OUT)/seeds $(EHF_OUT)/fuzz \
		$(FUZZ_SECONDS)

.DEFAULT_GOAL := $(ehf_saved_goal)
