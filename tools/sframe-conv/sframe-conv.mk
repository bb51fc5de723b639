# SPDX-License-Identifier: GPL-2.0
# The .eh_frame -> SFrame converter and its LD_AUDIT helper (tools/sframe-conv/),
# included by the top-level Makefile after tests/sframe/sframe.mk (whose copy of the
# kernel's SFrame reader the tests use). Output in $(BUILD)/sframe-conv/:
#   sframe-conv           convert objects, print what converts, fill the cache; the
#                         converter libsframe-audit.so runs on a cache miss
#                         (audit-fill). Its usage: sframe-conv.1, whose SYNOPSIS,
#                         COMMANDS and OPTIONS --help prints (usage.h)
#   libsframe-audit.so    LD_AUDIT module registering converted sections at run time:
#                         linked with nothing (no libc; ld.so for __libc_stack_end)
#   test_sfconv           the converter's tests (make sframe-conv-test; host test)
#   libcfizoo*.so         CFI of every kind the converter reads (cfi_zoo.S, cfi_raw.S),
#                         with .eh_frame_hdr, without, and without section headers
#   startbench            make sframe-conv-bench: program starts with and without the
#                         helper
#   regbench              make sframe-conv-regbench: sframe_register() of converted
#                         sections, in the VM under -icount

SFCONV_SRC := $(TOP)/tools/sframe-conv
SFCONV_OUT := $(BUILD)/sframe-conv
# Without libc: the cache key of an object, cache files read and mapped (also in
# libsframe-audit.so)
SFCONV_RT := $(addprefix $(SFCONV_SRC)/,sfelf.c sfelf.h sfcache.c sfcache.h sfsys.h)
# The converter: CFI reader (on the kernel's .eh_frame reader: kernel/unwind/
# eh_frame_reader.c of the kernel tree, SFCONV_EHF_TREE, one source for both), SFrame
# writer and what joins them; SFCONV_INC finds the copy of <linux/eh_frame_reader.h>
SFCONV_EHF_TREE ?= $(TREE)
SFCONV_EHF_H := $(SFCONV_OUT)/ehf/include/linux/eh_frame_reader.h
SFCONV_CORE := $(addprefix $(SFCONV_SRC)/,sfconv.c sfconv.h cfi_read.c cfi_read.h \
	sframe_write.c sframe_write.h) $(SFCONV_RT) \
	$(SFCONV_EHF_TREE)/kernel/unwind/eh_frame_reader.c $(SFCONV_EHF_H)
SFCONV_INC := -I$(SFCONV_OUT)/ehf/include
SFCONV_BINS := $(SFCONV_OUT)/sframe-conv $(SFCONV_OUT)/libsframe-audit.so
# The SFrame version written by default, which the cache holds and the helper
# registers: 3, or 2 for a kernel that reads v2 only (changing it: rebuild with make -B)
SFCONV_VERSION ?= 3
SFCONV_DEFS := -DSFCONV_VERSION_DEFAULT=$(SFCONV_VERSION)
# The audit module: no libc, so no stack protector (its failure handler is libc's) and
# no loops turned into calls of memcpy() or memset() (the module's own)
SFCONV_AUDIT_CFLAGS := -O2 -g $(WARN_CFLAGS) -fPIC -fvisibility=hidden -fno-stack-protector \
	-fno-tree-loop-distribute-patterns -nostdlib -shared -Wl,-z,defs -Wl,-z,noexecstack \
	$(SFCONV_DEFS)
SFCONV_LDSO := /lib64/ld-linux-x86-64.so.2
# The objects the tests convert: Debian's libc, ld.so and libstdc++
SFCONV_TEST_OBJS ?= /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 \
	/lib/x86_64-linux-gnu/libstdc++.so.6
# The kernel tree whose SFrame reader the tests compile in (another one, e.g. a
# worktree: make sframe-conv-test SFCONV_READER_TREE=DIR); its header is copied into
# $(SFCONV_OUT)/include. The SFrame versions checked: V3 needs a reader with V3's
# flexible FDEs (SFRAME_RULE_REG), v2 is checked with every reader.
SFCONV_READER_TREE ?= $(TREE)
SFCONV_READER := $(SFCONV_READER_TREE)/kernel/unwind/sframe_reader.c
SFCONV_READER_H := $(SFCONV_READER_TREE)/include/linux/sframe_reader.h
SFCONV_HDR := $(SFCONV_OUT)/include/linux/sframe_reader.h
SFCONV_TEST_VERSIONS ?= $(if $(shell grep -s SFRAME_RULE_REG $(SFCONV_READER_H)),3 2,2)

# Its guest tests (sfconv-*) run on both bases; each base's tree has the same reader
TEST_EXTRA += $(SFCONV_BINS)

.PHONY: sframe-conv sframe-conv-test sframe-conv-bench sframe-conv-regbench sfconv-force

sframe-conv: $(SFCONV_BINS)

$(SFCONV_OUT)/sframe-conv: $(SFCONV_CORE) $(SFCONV_SRC)/sfload.c $(SFCONV_SRC)/main.c \
		$(SFCONV_OUT)/usage.h
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) $(SFCONV_DEFS) $(SFCONV_INC) -I$(SFCONV_OUT) $(filter %.c,$^) -o $@ \
		-ldw -lelf

# --help: the manual page's SYNOPSIS, COMMANDS and OPTIONS as plain text (groff), not
# justified nor hyphenated
$(SFCONV_OUT)/usage.h: $(SFCONV_SRC)/sframe-conv.1 $(SFCONV_SRC)/man2usage.awk
	@mkdir -p $(@D)
	sed '/^\.TH /a .ad l\n.nh' $< | GROFF_NO_SGR=1 groff -man -Tascii -P-bcou -rLL=78n \
		> $@.txt
	awk -f $(SFCONV_SRC)/man2usage.awk $@.txt > $@.tmp
	mv $@.tmp $@
	rm -f $@.txt

$(SFCONV_OUT)/libsframe-audit.so: $(SFCONV_RT) $(SFCONV_SRC)/audit.c
	@mkdir -p $(@D)
	gcc $(SFCONV_AUDIT_CFLAGS) $(filter %.c,$^) -o $@ $(SFCONV_LDSO)

# Copied whenever the tree changes (another tree's header may be older)
$(SFCONV_EHF_H): $(SFCONV_EHF_TREE)/include/linux/eh_frame_reader.h
	mkdir -p $(@D) && cp $< $@

$(SFCONV_HDR): $(SFCONV_READER_H) sfconv-force
	@mkdir -p $(@D)
	cmp -s $< $@ || cp $< $@

$(SFCONV_OUT)/test_sfconv: $(SFCONV_CORE) $(SFCONV_SRC)/test_sfconv.c $(SFCONV_READER) \
		$(SFCONV_HDR)
	@mkdir -p $(@D)
	gcc -O1 -g $(WARN_CFLAGS) $(SFRAME_SAN) $(SFCONV_DEFS) -I$(SFCONV_OUT)/include $(SFCONV_INC) \
		$(filter %.c,$^) -o $@ -ldw -lelf

SFCONV_ZOO := $(addprefix $(SFCONV_OUT)/,libcfizoo.so libcfizoo-nohdr.so libcfizoo-nosh.so)
SFCONV_ZOO_SRC := $(SFCONV_SRC)/cfi_zoo.S $(SFCONV_SRC)/cfi_raw.S

$(SFCONV_OUT)/libcfizoo.so: $(SFCONV_ZOO_SRC)
	@mkdir -p $(@D)
	gcc -shared -nostdlib -Wl,-z,noexecstack $^ -o $@

$(SFCONV_OUT)/libcfizoo-nohdr.so: $(SFCONV_ZOO_SRC)
	@mkdir -p $(@D)
	gcc -shared -nostdlib -Wl,-z,noexecstack -Wl,--no-eh-frame-hdr $^ -o $@

# e_shoff, e_shnum and e_shstrndx zeroed
$(SFCONV_OUT)/libcfizoo-nosh.so: $(SFCONV_OUT)/libcfizoo.so
	cp $< $@.tmp
	printf '\0\0\0\0\0\0\0\0' | dd of=$@.tmp bs=1 seek=40 conv=notrunc status=none
	printf '\0\0\0\0' | dd of=$@.tmp bs=1 seek=60 conv=notrunc status=none
	mv $@.tmp $@

# For each version of SFCONV_TEST_VERSIONS: the objects above and this machine's vDSO,
# every row boundary and every 13th address (function starts relative to the text); the
# CFI zoo at every address (starts PC-relative); the sections sframe-conv convert -S wrote into
# the bench's deep-sfv3 and deep-sfv2 (bench/bench.mk), where they are. V3 once more
# with FDEs split every 2 FREs (as at V3's limit of 65535), and two FREs byte for byte.
SFCONV_BENCH_CONV := $(BUILD)/bench/bin/deep-sfv

sframe-conv-test: $(SFCONV_OUT)/test_sfconv $(SFCONV_ZOO) $(SFCONV_OUT)/sframe-conv \
		$(addprefix $(SFCONV_BENCH_CONV),$(SFCONV_TEST_VERSIONS))
	@echo "SFrame versions checked: $(SFCONV_TEST_VERSIONS) (reader of $(SFCONV_READER_TREE))"
	$(SFCONV_OUT)/sframe-conv convert -3 -o $(SFCONV_OUT)/libcfizoo.sframe $(SFCONV_OUT)/libcfizoo.so
	@echo "V3 bytes: the DRAP body row of sframe-v3.md, the signal trampoline's"
	@for fre in '0a 33 f8 00 33 00' '2c 3b 00 a0 00 3b 00 a8 00 3b 00 78 00'; do \
		od -An -tx1 -v $(SFCONV_OUT)/libcfizoo.sframe | tr -s ' \n' '  ' | \
			grep -q " $$fre " || { echo "FAIL: no FRE $$fre"; exit 1; }; done
	$(foreach v,$(SFCONV_TEST_VERSIONS),$< $(if $(filter 2,$(v)),-2) -v $(SFCONV_TEST_OBJS) && \
		$< $(if $(filter 2,$(v)),-2) -p -m 0 -s 1 $(SFCONV_ZOO) &&) true
	$(if $(filter 3,$(SFCONV_TEST_VERSIONS)),$< -m 0 -s 1 -F 2 $(SFCONV_OUT)/libcfizoo.so)
	$(foreach v,$(SFCONV_TEST_VERSIONS),$< $(if $(filter 2,$(v)),-2) -E -s 1 $(SFCONV_BENCH_CONV)$(v) &&) true

$(SFCONV_OUT)/startbench: $(SFCONV_SRC)/startbench.c
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) $< -o $@

# Program starts with the helper and a warm cache against starts without it: wall time
# (min, median), peak RSS, mappings and private memory (scripts/sframe-conv-bench.sh).
# SFCONV_BENCH_RUNS runs of each (default 300).
sframe-conv-bench: $(SFCONV_BINS) $(SFCONV_OUT)/startbench
	sh $(TOP)/scripts/sframe-conv-bench.sh $(SFCONV_OUT) $(SFCONV_BENCH_RUNS)

$(SFCONV_OUT)/regbench: $(SFCONV_CORE) $(SFCONV_SRC)/sfload.c $(SFCONV_SRC)/regbench.c
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) $(SFCONV_INC) $(filter %.c,$^) -o $@ -ldw -lelf

# What registering the converted sections of SFCONV_TEST_OBJS costs a new process (the
# kernel's check of the whole section), on the default kernel in the VM under -icount
# (instructions: 1 ns each); SFCONV_REGBENCH_RUNS registrations each (default 30)
sframe-conv-regbench: kernel $(SFCONV_OUT)/regbench
	$(TOP)/scripts/vm.sh -i -k $(BUILD)/kernel-default/arch/x86/boot/bzImage \
		-o $(SFCONV_OUT)/regbench-vm -- $(SFCONV_OUT)/regbench \
		-n $(or $(SFCONV_REGBENCH_RUNS),30) $(SFCONV_TEST_OBJS)
	@cat $(SFCONV_OUT)/regbench-vm/output
