# SPDX-License-Identifier: GPL-2.0
# The .eh_frame -> SFrame converter and its LD_AUDIT helper (tools/sframe-conv/),
# included by the top-level Makefile after tests/sframe/sframe.mk (whose copy of the
# kernel's SFrame reader the tests use). Output in $(BUILD)/sframe-conv/:
#   sframe-conv           convert objects, print what converts, fill the cache
#   libsframe-audit.so    LD_AUDIT module registering converted sections at run time
#   test_sfconv           the converter's tests (make sframe-conv-test; host test)
#   libcfizoo*.so         CFI of every kind the converter reads (cfi_zoo.S, cfi_raw.S),
#                         with .eh_frame_hdr, without, and without section headers

SFCONV_SRC := $(TOP)/tools/sframe-conv
SFCONV_OUT := $(BUILD)/sframe-conv
SFCONV_CORE := $(SFCONV_SRC)/sfconv.c $(SFCONV_SRC)/sfconv.h
SFCONV_BINS := $(SFCONV_OUT)/sframe-conv $(SFCONV_OUT)/libsframe-audit.so
# The objects the tests convert: Debian's libc, ld.so and libstdc++
SFCONV_TEST_OBJS ?= /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 \
	/lib/x86_64-linux-gnu/libstdc++.so.6

TEST_EXTRA += $(SFCONV_BINS)

.PHONY: sframe-conv sframe-conv-test

sframe-conv: $(SFCONV_BINS)

$(SFCONV_OUT)/sframe-conv: $(SFCONV_CORE) $(SFCONV_SRC)/sfload.c $(SFCONV_SRC)/main.c
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) $(filter %.c,$^) -o $@ -ldw -lelf

$(SFCONV_OUT)/libsframe-audit.so: $(SFCONV_CORE) $(SFCONV_SRC)/sfload.c $(SFCONV_SRC)/audit.c
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) -fPIC -shared $(filter %.c,$^) -o $@ -ldw -lelf

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
