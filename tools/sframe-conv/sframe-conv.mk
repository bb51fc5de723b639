# SPDX-License-Identifier: GPL-2.0
# The .eh_frame -> SFrame converter and its LD_AUDIT helper (tools/sframe-conv/),
# included by the top-level Makefile after tests/sframe/sframe.mk (whose copy of the
# kernel's SFrame reader the tests use). Output in $(BUILD)/sframe-conv/:
#   sframe-conv           convert objects, print what converts, fill the cache
#   libsframe-audit.so    LD_AUDIT module registering converted sections at run time
#   test_sfconv           the converter's tests (make sframe-conv-test; host test)

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

# The objects above and this machine's vDSO, every row boundary and every 13th address
sframe-conv-test: $(SFCONV_OUT)/test_sfconv
	$< -v $(SFCONV_TEST_OBJS)
