# SPDX-License-Identifier: GPL-2.0
# Guest test programs of SFrame converted from .eh_frame (tests/cases/sfconv-*.sh),
# included by the top-level Makefile. Output in $(BUILD)/tests/sfconv/:
#   sfcall          -fomit-frame-pointer, SFrame; links libsfcmid.so (SFrame),
#                   dlopens libsfcleaf.so (no SFrame), which calls libc's syscall()
#   sfclock         -fomit-frame-pointer, no SFrame: loops on clock_gettime()
#   sfseccomp       installs a seccomp filter, then dlopens libsfcleaf.so
#   sfmiss          a SIGCHLD handler and a child of its own, dlopens a library from a
#                   thread: the helper's converter must stay invisible (host test)
# Debian's libc has neither frame pointers nor SFrame: converted sections
# (tools/sframe-conv, libsframe-audit.so) complete these chains, as the kernel's own
# reading of their .eh_frame does without them.

SFC_SRC := $(TOP)/tests/prog/sfconv
SFC_OUT := $(BUILD)/tests/sfconv
SFC_FILES := sfcall libsfcmid.so libsfcleaf.so sfclock sfreg libsfrlib.so sfseccomp sfmiss

TEST_EXTRA += $(addprefix $(SFC_OUT)/,$(SFC_FILES))

$(SFC_OUT)/libsfcmid.so: $(SFC_SRC)/sfcmid.c
	@mkdir -p $(@D)
	gcc $(NOFP_CFLAGS) $(GSFRAME) -fPIC -shared $< -o $@

$(SFC_OUT)/libsfcleaf.so: $(SFC_SRC)/sfcleaf.c
	@mkdir -p $(@D)
	gcc $(NOFP_CFLAGS) -fPIC -shared $< -o $@

$(SFC_OUT)/sfcall: $(SFC_SRC)/sfcall.c $(SFC_OUT)/libsfcmid.so
	gcc $(NOFP_CFLAGS) $(GSFRAME) $< -o $@ -L$(SFC_OUT) -lsfcmid -Wl,-rpath,'$$ORIGIN' -ldl

$(SFC_OUT)/sfclock: $(SFC_SRC)/sfclock.c $(TOP)/tests/prog/util.h
	@mkdir -p $(@D)
	gcc $(NOFP_CFLAGS) $< -o $@

$(SFC_OUT)/sfseccomp: $(SFC_SRC)/sfseccomp.c $(SFC_OUT)/libsfcleaf.so
	gcc $(NOFP_CFLAGS) $< -o $@ -ldl

$(SFC_OUT)/sfmiss: $(SFC_SRC)/sfmiss.c
	@mkdir -p $(@D)
	gcc $(NOFP_CFLAGS) $< -o $@ -ldl -pthread

# sfreg: sframe_register()'s ABI and semantics; it converts libsfrlib.so itself
$(SFC_OUT)/libsfrlib.so: $(SFC_SRC)/sfrlib.c $(TOP)/tests/prog/util.h
	@mkdir -p $(@D)
	gcc $(NOFP_CFLAGS) -fPIC -shared $< -o $@

$(SFC_OUT)/sfreg: $(SFC_SRC)/sfreg.c $(TOP)/tests/prog/util.h $(SFCONV_CORE) \
		$(SFCONV_SRC)/sfload.c $(SFC_OUT)/libsfrlib.so
	gcc $(NOFP_CFLAGS) $(GSFRAME) -I$(SFCONV_SRC) $(SFCONV_INC) $(filter %.c,$^) -o $@ -rdynamic -ldl -ldw -lelf
