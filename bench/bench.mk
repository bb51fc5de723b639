# SPDX-License-Identifier: GPL-2.0
# Benchmark workloads (`make bench`), included by the top-level Makefile (which sets
# TOP and BUILD). Output in $(BUILD)/bench/bin/:
#   NAME          frame pointers (-O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer)
#   NAME-32       the same, -m32 (for the workloads in BENCH_32)
#   NAME-sframe   no frame pointers, with .sframe (the "sframe" mode)
#   manyfre       an SFrame build only (manyfre.c and the ~200000-FRE function of
#                 manyfre.S); GNU ld 2.40 takes minutes to merge its .sframe

BENCH_SRC := $(TOP)/bench
BENCH_BIN := $(BUILD)/bench/bin
BENCH_NAMES := deep zero fault compute threads
BENCH_32 := deep
BENCH_WARN := -Wall -Wextra -Werror
BENCH_FP_CFLAGS := -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer $(BENCH_WARN)
BENCH_SF_CFLAGS := -O2 -fomit-frame-pointer -Wa,--gsframe $(BENCH_WARN)
BENCH_DEPS := $(BENCH_SRC)/bench.h $(TOP)/tests/prog/util.h $(BENCH_SRC)/bench.mk

BENCH_BINS := $(addprefix $(BENCH_BIN)/,$(BENCH_NAMES) $(addsuffix -32,$(BENCH_32)) \
	$(addsuffix -sframe,$(BENCH_NAMES)) manyfre)

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
