# SPDX-License-Identifier: GPL-2.0
# The .eh_frame -> SFrame converter and its LD_AUDIT helper (tools/sframe-conv/),
# included by the top-level Makefile after tests/sframe/sframe.mk (whose copy of the
# kernel's SFrame reader the tests use). Output in $(BUILD)/sframe-conv/:
#   sframe-conv           convert objects, print what converts, fill the cache; the
#                         converter libsframe-audit.so runs on a cache miss (-A)
#   libsframe-audit.so    LD_AUDIT module registering converted sections at run time:
#                         linked with nothing (no libc; ld.so for __libc_stack_end)
#   test_sfconv           the converter's tests (make sframe-conv-test; host test)
#   libcfizoo*.so         CFI of every kind the converter reads (cfi_zoo.S, cfi_raw.S),
#                         with .eh_frame_hdr, without, and without section headers
#   startbench            make sframe-conv-bench: program starts with and without the
#                         helper

SFCONV_SRC := $(TOP)/tools/sframe-conv
SFCONV_OUT := $(BUILD)/sframe-conv
# Without libc: the cache key of an object, cache files read and mapped (also in
# libsframe-audit.so)
SFCONV_RT := $(addprefix $(SFCONV_SRC)/,sfelf.c sfelf.h sfcache.c sfcache.h sfsys.h)
SFCONV_CORE := $(SFCONV_SRC)/sfconv.c $(SFCONV_SRC)/sfconv.h $(SFCONV_RT)
SFCONV_BINS := $(SFCONV_OUT)/sframe-conv $(SFCONV_OUT)/libsframe-audit.so
# The audit module: no libc, so no stack protector (its failure handler is libc's) and
# no loops turned into calls of memcpy() or memset() (the module's own)
SFCONV_AUDIT_CFLAGS := -O2 -g $(WARN_CFLAGS) -fPIC -fvisibility=hidden -fno-stack-protector \
	-fno-tree-loop-distribute-patterns -nostdlib -shared -Wl,-z,defs -Wl,-z,noexecstack
SFCONV_LDSO := /lib64/ld-linux-x86-64.so.2
# The objects the tests convert: Debian's libc, ld.so and libstdc++
SFCONV_TEST_OBJS ?= /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 \
	/lib/x86_64-linux-gnu/libstdc++.so.6

TEST_EXTRA += $(SFCONV_BINS)

.PHONY: sframe-conv sframe-conv-test sframe-conv-bench

sframe-conv: $(SFCONV_BINS)

$(SFCONV_OUT)/sframe-conv: $(SFCONV_CORE) $(SFCONV_SRC)/sfload.c $(SFCONV_SRC)/main.c
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) $(filter %.c,$^) -o $@ -ldw -lelf

$(SFCONV_OUT)/libsframe-audit.so: $(SFCONV_RT) $(SFCONV_SRC)/audit.c
	@mkdir -p $(@D)
	gcc $(SFCONV_AUDIT_CFLAGS) $(filter %.c,$^) -o $@ $(SFCONV_LDSO)

$(SFCONV_OUT)/test_sfconv: $(SFCONV_CORE) $(SFCONV_SRC)/test_sfconv.c $(SFRAME_READER) \
		$(SFRAME_HDR)
	@mkdir -p $(@D)
	gcc -O1 -g $(WARN_CFLAGS) $(SFRAME_SAN) -I$(SFRAME_OUT)/include \
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

# The objects above and this machine's vDSO, every row boundary and every 13th
# address; the CFI zoo at every address
sframe-conv-test: $(SFCONV_OUT)/test_sfconv $(SFCONV_ZOO)
	$< -v $(SFCONV_TEST_OBJS)
	$< -m 0 -s 1 $(SFCONV_ZOO)

$(SFCONV_OUT)/startbench: $(SFCONV_SRC)/startbench.c
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) $< -o $@

# Program starts with the helper and a warm cache against starts without it: wall time
# (min, median), peak RSS, mappings and private memory (scripts/sframe-conv-bench.sh).
# SFCONV_BENCH_RUNS runs of each (default 300).
sframe-conv-bench: $(SFCONV_BINS) $(SFCONV_OUT)/startbench
	sh $(TOP)/scripts/sframe-conv-bench.sh $(SFCONV_OUT) $(SFCONV_BENCH_RUNS)
