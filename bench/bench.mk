# SPDX-License-Identifier: GPL-2.0
# Benchmark workloads (`make bench`), included by the top-level Makefile (which sets
# TOP and BUILD). Output in $(BUILD)/bench/bin/:
#   NAME          frame pointers (-O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer)
#   NAME-32       the same, -m32 (for the workloads in BENCH_32)
#   NAME-sframe   no frame pointers, with .sframe (the "sframe" mode)
#   manyfre       an SFrame build only (manyfre.c and the ~200000-FRE function of
#                 manyfre.S); GNU ld 2.40 takes minutes to merge its .sframe
#   NAME-sfv3     no frame pointers, no gas SFrame: the .sframe (PT_GNU_SFRAME) is what
#   NAME-sfv2     tools/sframe-conv makes of the .eh_frame, SFrame V3 or v2 (for the
#                 workloads in BENCH_CONV)

BENCH_SRC := $(TOP)/bench
BENCH_BIN := $(BUILD)/bench/bin
BENCH_NAMES := deep zero fault compute threads
BENCH_32 := deep
BENCH_WARN := -Wall -Wextra -Werror
BENCH_FP_CFLAGS := -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer $(BENCH_WARN)
BENCH_SF_CFLAGS := -O2 -fomit-frame-pointer -Wa,--gsframe $(BENCH_WARN)
BENCH_DEPS := $(BENCH_SRC)/bench.h $(TOP)/tests/prog/util.h $(BENCH_SRC)/bench.mk

BENCH_CONV := deep
BENCH_CONV_CFLAGS := -O2 -fomit-frame-pointer $(BENCH_WARN)

BENCH_BINS := $(addprefix $(BENCH_BIN)/,$(BENCH_NAMES) $(addsuffix -32,$(BENCH_32)) \
	$(addsuffix -sframe,$(BENCH_NAMES)) manyfre \
	$(addsuffix -sfv3,$(BENCH_CONV)) $(addsuffix -sfv2,$(BENCH_CONV)))

# NAME-sfvVERSION, the converter run with OPTIONS: linked twice with a placeholder
# section (sframe-ph.S, sframe-ph.ld) that becomes the output's .sframe: 8 bytes, then
# as large as the section the converter makes of the first link's .eh_frame (the code
# and .eh_frame are the same in both); the section, converted again for where the
# placeholder is (sframe-conv convert -S: function starts PC-relative), replaces it. No
# ld-generated CFI for the PLT: ld would write its own .sframe for it as well.
# $(call bench_conv,VERSION,OPTIONS)
define bench_conv
$(BENCH_BIN)/%-sfv$(1): $(BENCH_SRC)/%.c $(BENCH_DEPS) $(BENCH_SRC)/sframe-ph.S \
		$(BENCH_SRC)/sframe-ph.ld $(SFCONV_OUT)/sframe-conv
	@mkdir -p $$(@D)
	gcc $(BENCH_CONV_CFLAGS) -o $$@.tmp $$< $(BENCH_SRC)/sframe-ph.S -Wa,--defsym,SFRAME_PH_SIZE=8 \
		-Wl,-T,$(BENCH_SRC)/sframe-ph.ld -Wl,--no-ld-generated-unwind-info -pthread
	size=$$$$($(SFCONV_OUT)/sframe-conv convert $(2) $$@.tmp | sed -n 's/.* bytes=\([0-9]*\) .*/\1/p') && \
	gcc $(BENCH_CONV_CFLAGS) -o $$@.tmp $$< $(BENCH_SRC)/sframe-ph.S -Wa,--defsym,SFRAME_PH_SIZE=$$$$size \
		-Wl,-T,$(BENCH_SRC)/sframe-ph.ld -Wl,--no-ld-generated-unwind-info -pthread
	$(SFCONV_OUT)/sframe-conv convert $(2) -S .sframe -o $$@.sframe $$@.tmp
	objcopy --update-section .sframe=$$@.sframe $$@.tmp
	rm $$@.sframe
	mv $$@.tmp $$@
endef
$(eval $(call bench_conv,3,-3))
$(eval $(call bench_conv,2,-2))

# make bench-testcost: static, with .sframe, so that each exec registers a section
$(BENCH_BIN)/testcost: $(BENCH_SRC)/testcost.c $(BENCH_DEPS)
	@mkdir -p $(@D)
	gcc $(BENCH_SF_CFLAGS) -static -o $@ $<

$(BENCH_BIN)/manyfre: $(BENCH_SRC)/manyfre.c $(BENCH_SRC)/manyfre.S $(BENCH_DEPS)
	@mkdir -p $(@D)
	gcc $(BENCH_SF_CFLAGS) -o $@ $(filter %.c %.S,$^)

$(BENCH_BIN)/%-32: $(BENCH_SRC)/%.c $(BENCH_DEPS)
	@mkdir -p $(@D)
	gcc -m32 $(BENCH_FP_CFLAGS) -o $@ $< -pthread

$(BENCH_BIN)/%-sframe: $(BENCH_SRC)/%.c $(BENCH_DEPS)
	@mkdir -p $(@D)
	gcc $(BENCH_SF_CFLAGS) -o $@ $< -pthread

$(BENCH_BIN)/%: $(BENCH_SRC)/%.c $(BENCH_DEPS)
	@mkdir -p $(@D)
	gcc $(BENCH_FP_CFLAGS) -o $@ $< -pthread
