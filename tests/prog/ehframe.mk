# SPDX-License-Identifier: GPL-2.0
# Guest test programs of .eh_frame unwinding (tests/cases/ehframe-*.sh), included by the
# top-level Makefile (which sets TOP and BUILD). Output in $(BUILD)/tests/ehframe/:
#   ehchain, libeh1.so (linked), libeh2.so (dlopened)
# Everything is built -O2 -fomit-frame-pointer and without SFrame (no $(GSFRAME)): only
# the .eh_frame and .eh_frame_hdr (PT_GNU_EH_FRAME) gcc and ld emit by default describe
# the frames, so only an unwinder that reads them finds the callers.

EH_SRC := $(TOP)/tests/prog/ehframe
EH_OUT := $(BUILD)/tests/ehframe
EH_CFLAGS := $(NOFP_CFLAGS)
EH_FILES := ehchain libeh1.so libeh2.so

TEST_EXTRA += $(addprefix $(EH_OUT)/,$(EH_FILES))

$(EH_OUT)/libeh1.so: $(EH_SRC)/ehlib1.c
	@mkdir -p $(@D)
	gcc $(EH_CFLAGS) -fPIC -shared $< -o $@

$(EH_OUT)/libeh2.so: $(EH_SRC)/ehlib2.c $(EH_OUT)/libeh1.so
	gcc $(EH_CFLAGS) -fPIC -shared $< -o $@ -L$(EH_OUT) -leh1 -Wl,-rpath,'$$ORIGIN'

# Libraries are found next to the program ($ORIGIN); -rdynamic: dladdr() names the
# program's frames in the chain it prints
$(EH_OUT)/ehchain: $(EH_SRC)/ehchain.c $(TOP)/tests/prog/util.h $(EH_OUT)/libeh1.so
	gcc $(EH_CFLAGS) $< -o $@ -L$(EH_OUT) -leh1 -Wl,-rpath,'$$ORIGIN' -rdynamic -ldl
