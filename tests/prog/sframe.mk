# SPDX-License-Identifier: GPL-2.0
# Guest test programs of SFrame unwinding (tests/cases/sframe-*.sh), included by the
# top-level Makefile (which sets TOP and BUILD). Output in $(BUILD)/tests/sframe/:
#   sfchain, libsf1.so (linked), libsf2.so, libsf3.so (dlopened)  -- with SFrame
#   nosframe/          the same without .sframe (objcopy --remove-section)
#   bad-VARIANT/       the same with .sframe corrupted on disk by sfpatch
# Everything is built without frame pointers, so only SFrame finds the callers.

SF_SRC := $(TOP)/tests/prog/sframe
SF_OUT := $(BUILD)/tests/sframe
SF_CFLAGS := $(NOFP_CFLAGS) $(GSFRAME)
SF_FILES := sfchain libsf1.so libsf2.so libsf3.so
SF_BAD := magic version fdeoff freoff fdestart fres fregarb

TEST_EXTRA += $(addprefix $(SF_OUT)/,$(SF_FILES)) $(SF_OUT)/nosframe/stamp \
	$(patsubst %,$(SF_OUT)/bad-%/stamp,$(SF_BAD))

$(SF_OUT)/libsf1.so: $(SF_SRC)/sflib1.c
	@mkdir -p $(@D)
	gcc $(SF_CFLAGS) -fPIC -shared $< -o $@

$(SF_OUT)/libsf2.so: $(SF_SRC)/sflib2.c
	@mkdir -p $(@D)
	gcc $(SF_CFLAGS) -fPIC -shared $< -o $@

$(SF_OUT)/libsf3.so: $(SF_SRC)/sflib2.c
	@mkdir -p $(@D)
	gcc $(SF_CFLAGS) -DSF_VARIANT3 -fPIC -shared $< -o $@

# Libraries are found next to the program ($ORIGIN), also in the variant directories
$(SF_OUT)/sfchain: $(SF_SRC)/sfchain.c $(TOP)/tests/prog/util.h $(SF_OUT)/libsf1.so
	gcc $(SF_CFLAGS) $< -o $@ -L$(SF_OUT) -lsf1 -Wl,-rpath,'$$ORIGIN' -rdynamic -ldl

$(SF_OUT)/sfpatch: $(SF_SRC)/sfpatch.c
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) $< -o $@

$(SF_OUT)/nosframe/stamp: $(addprefix $(SF_OUT)/,$(SF_FILES))
	@mkdir -p $(@D)
	for f in $(SF_FILES); do objcopy --remove-section .sframe $(SF_OUT)/$$f $(@D)/$$f || exit 1; done
	touch $@

$(SF_OUT)/bad-%/stamp: $(SF_OUT)/sfpatch $(addprefix $(SF_OUT)/,$(SF_FILES))
	@mkdir -p $(@D)
	for f in $(SF_FILES); do $(SF_OUT)/sfpatch $(SF_OUT)/$$f $(@D)/$$f $* || exit 1; done
	touch $@

# Bounds, discovery and indexes (tests/cases/sframe-bounds.sh, sframe-discovery.sh,
# sframe-index.sh): sfcraft (made-up sections through the test interface), sfmany with
# the library it copies 300 times, without SFrame (libsfhop.so) and with
# (libsfhop-sf.so), both with frame pointers; sfbig, a function of ~5000 FREs
# (bench/manyfre.S), without frame pointers; sfstress, hostile registered sections
# while sampling (tests/cases/sframe-stress.sh).
SF_MORE := sfcraft sfmany libsfhop.so libsfhop-sf.so sfbig sfstress
TEST_EXTRA += $(addprefix $(SF_OUT)/,$(SF_MORE))

$(SF_OUT)/sfcraft: $(SF_SRC)/sfcraft.c $(TOP)/tests/prog/util.h $(SF_SRC)/sfbuild.h $(TOP)/tests/flags.mk
	@mkdir -p $(@D)
	gcc $(TEST_CFLAGS) -o $@ $< $(TEST_LDFLAGS)

$(SF_OUT)/sfstress: $(SF_SRC)/sfstress.c $(TOP)/tests/prog/util.h $(SF_SRC)/sfbuild.h $(TOP)/tests/flags.mk
	@mkdir -p $(@D)
	gcc $(TEST_CFLAGS) -o $@ $< -pthread $(TEST_LDFLAGS)

$(SF_OUT)/sfmany: $(SF_SRC)/sfmany.c $(TOP)/tests/prog/util.h $(TOP)/tests/flags.mk
	@mkdir -p $(@D)
	gcc $(TEST_CFLAGS) -o $@ $< -rdynamic -ldl $(TEST_LDFLAGS)

$(SF_OUT)/libsfhop.so: $(SF_SRC)/sfhop.c $(TOP)/tests/flags.mk
	@mkdir -p $(@D)
	gcc $(TEST_CFLAGS) -fPIC -shared -o $@ $< $(TEST_LDFLAGS)

$(SF_OUT)/libsfhop-sf.so: $(SF_SRC)/sfhop.c $(TOP)/tests/flags.mk
	@mkdir -p $(@D)
	gcc $(TEST_CFLAGS) $(GSFRAME) -fPIC -shared -o $@ $< $(TEST_LDFLAGS)

$(SF_OUT)/sfbig: $(SF_SRC)/sfbig.c $(TOP)/bench/manyfre.S $(TOP)/tests/prog/util.h $(TOP)/tests/flags.mk
	@mkdir -p $(@D)
	gcc $(SF_CFLAGS) -DMANYFRE_PAIRS=2500 -o $@ $(filter %.c %.S,$^) -rdynamic -ldl

# SFrame version 3 (tests/cases/sframe-v3.sh): sfv3, a hand-built V3 section for the code
# of sfv3asm.S (default, flexible, outermost and signal FDEs), registered with
# sframe_register(); the program has no .sframe of its own.
TEST_EXTRA += $(SF_OUT)/sfv3

$(SF_OUT)/sfv3: $(SF_SRC)/sfv3.c $(SF_SRC)/sfv3asm.S $(TOP)/tests/prog/util.h
	@mkdir -p $(@D)
	gcc $(TEST_CFLAGS) -o $@ $(filter %.c %.S,$^) $(TEST_LDFLAGS)
