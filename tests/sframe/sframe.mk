# SPDX-License-Identifier: GPL-2.0
# SFrame reader core: user-space unit tests and fuzzing.
# Included by the top-level Makefile (which sets TOP and BUILD); also usable as
#   make -f tests/sframe/sframe.mk TOP=$PWD BUILD=$PWD/build sframe-unit|fuzz
#
# sframe-unit: build and run test_sframe, output in $(BUILD)/sframe-test/.
# fuzz:        build fuzz_sframe and run it FUZZ_SECONDS (default 600) seconds.
#
# The reader (kernel/unwind/sframe_reader.c) includes <linux/sframe_reader.h>.
# Pointing -I at the kernel's include/ would drag in kernel headers, so the one
# header is copied into $(SFRAME_OUT)/include/linux/ and only that directory
# is added to the include path; the shared test cases are included from
# kernel/unwind/ by quoted #include only (-iquote).

sframe_saved_goal := $(.DEFAULT_GOAL)

TOP ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
BUILD ?= $(TOP)/build
FUZZ_SECONDS ?= 600
include $(TOP)/tests/flags.mk

SFRAME_SRC := $(TOP)/tests/sframe
SFRAME_OUT := $(BUILD)/sframe-test
SFRAME_READER := $(BUILD)/linux/kernel/unwind/sframe_reader.c
SFRAME_READER_H := $(BUILD)/linux/include/linux/sframe_reader.h
# The cases on hand-built sections and their builder, shared with the KUnit
# suite of the reader (kernel/unwind/sframe_reader_kunit.c)
SFRAME_KDIR := $(BUILD)/linux/kernel/unwind
SFRAME_CASES := $(addprefix $(SFRAME_KDIR)/,sframe_test_build.c sframe_test_build.h \
	sframe_reader_cases.h)
SFRAME_HDR := $(SFRAME_OUT)/include/linux/sframe_reader.h
SFRAME_CC ?= gcc
SFRAME_CLANG ?= clang
# The reader's helpers are __always_inline in the kernel
SFRAME_DEFS := '-D__always_inline=inline __attribute__((__always_inline__))'
SFRAME_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
# The sample programs whose real .sframe sections are tested (binutils emits v1)
SFRAME_GSFRAME := $(NOFP_CFLAGS) $(GSFRAME)
SFRAME_SAMPLES := $(SFRAME_OUT)/sample_prog $(SFRAME_OUT)/libsample.so

.PHONY: sframe-unit fuzz

# The reader is the patched tree's: on a fresh clone, prepare the tree (make tree) first
$(SFRAME_READER) $(SFRAME_READER_H) $(SFRAME_CASES) &:
	$(MAKE) -C $(TOP) tree

$(SFRAME_HDR): $(SFRAME_READER_H)
	mkdir -p $(@D) && cp $< $@

$(SFRAME_OUT)/libsample.so: $(SFRAME_SRC)/sample_lib.c
	mkdir -p $(@D) && $(SFRAME_CC) $(SFRAME_GSFRAME) -fPIC -shared $< -o $@

$(SFRAME_OUT)/sample_prog: $(SFRAME_SRC)/sample_prog.c $(SFRAME_SRC)/sample_asm.S \
		$(SFRAME_OUT)/libsample.so
	$(SFRAME_CC) $(SFRAME_GSFRAME) $(filter %.c %.S,$^) -L$(@D) -lsample -o $@

# The test program is built with SFrame too: it checks its own section
$(SFRAME_OUT)/test_sframe: $(addprefix $(SFRAME_SRC)/,test_sframe.c sfelf.c sfelf.h \
		fuzz_input.h) $(SFRAME_READER) $(SFRAME_CASES) $(SFRAME_HDR)
	$(SFRAME_CC) -g -O1 $(WARN_CFLAGS) $(SFRAME_DEFS) $(SFRAME_SAN) $(GSFRAME) \
		-I$(SFRAME_OUT)/include -iquote $(SFRAME_KDIR) $(filter %.c,$^) -o $@

sframe-unit: $(SFRAME_OUT)/test_sframe $(SFRAME_SAMPLES)
	cd $(SFRAME_OUT) && ./test_sframe $(SFRAME_SAMPLES) $(SFRAME_OUT)/test_sframe

$(SFRAME_OUT)/fuzz_sframe: $(SFRAME_SRC)/fuzz_sframe.c $(SFRAME_SRC)/fuzz_input.h \
		$(SFRAME_READER) $(SFRAME_HDR)
	$(SFRAME_CLANG) -g -O1 $(WARN_CFLAGS) $(SFRAME_DEFS) -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -I$(SFRAME_OUT)/include $(filter %.c,$^) -o $@

# The seed corpus is made at build time from the sample programs and hand-built
# sections, so nothing binary is committed
$(SFRAME_OUT)/seeds.stamp: $(SFRAME_OUT)/test_sframe $(SFRAME_SAMPLES)
	rm -rf $(SFRAME_OUT)/seeds && mkdir -p $(SFRAME_OUT)/seeds
	$< --seeds $(SFRAME_OUT)/seeds $(SFRAME_SAMPLES) $< && touch $@

fuzz: $(SFRAME_OUT)/fuzz_sframe $(SFRAME_OUT)/seeds.stamp
	$(SFRAME_SRC)/run-fuzz.sh $< $(SFRAME_OUT)/seeds $(SFRAME_OUT)/fuzz $(FUZZ_SECONDS)

.DEFAULT_GOAL := $(sframe_saved_goal)
