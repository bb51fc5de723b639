# deferred-unwind: build the patched 6.12 kernel and perf, boot them in QEMU, test.
# `make help` lists the targets and settings.

# The Debian linux-source-6.12 version the series is based on (the one place it is kept).
LINUX_SOURCE_VERSION := 6.12.117-1~deb12u1
# The Debian linux-source-7.3 version the 7.3 series (patches-7.3/) is based on
LINUX_SOURCE_VERSION_7_3 := 7.3.4-1~bpo13+1

# The kernel base tree, kernel, perf, check and the kselftests work on: 6.12 (patches/,
# build/linux) or 7.3 (patches-7.3/, build/linux-7.3; outputs suffixed -7.3);
# scripts/base.sh maps it.
BASE ?= 6.12
export BASE
SFX := $(if $(filter 6.12,$(BASE)),,-$(BASE))

TOP := $(CURDIR)
BUILD := $(TOP)/build
TREE := $(BUILD)/linux$(SFX)
# Kernel flavours `make check` (and `make test`) run the suite on: default, debug, or both.
FLAVOURS ?= default
# The kernel flavour `make shell` boots
FLAVOUR ?= default
# Only tests whose names match this extended regexp (default: all).
TESTS ?=
export TESTS

include tests/flags.mk
TEST_SRCS := $(wildcard tests/prog/*.c)
TEST_BINS := $(patsubst tests/prog/%.c,$(BUILD)/tests/%,$(TEST_SRCS)) \
	$(patsubst tests/prog/%.c,$(BUILD)/tests/%-32,$(TEST_SRCS))

# Extra guest test programs and their rules come from these fragments (TEST_EXTRA).
TEST_EXTRA :=
include tests/sframe/sframe.mk
include tools/sframe-conv/sframe-conv.mk
-include tests/prog/*.mk
# Benchmark workloads (BENCH_BINS) and their rules; subsets for make bench
-include bench/*.mk
export BENCH_WORKLOADS BENCH_MODES

.PHONY: help deps demo-deps tree export kernel kernel-debug perf tests check test shell demo \
	bench clean \
	fuzz series-check churn base-diff bench-testcost bench-compare deb system-test

help:
	@echo 'make check    build everything, run the guest tests on $$(FLAVOURS) ($(FLAVOURS))'
	@echo 'make test T=regexp   the tests whose names match on $$(FLAVOURS), rebuilding'
	@echo '              only what changed (names: build/check-*/tests.list)'
	@echo 'make shell    an interactive shell in a guest on the built $$(FLAVOUR) kernel,'
	@echo '              the repository writable (docs/development.md)'
	@echo 'make demo     record a known call chain in the VM and show perf script/report,'
	@echo '              flame graphs of -g and fp,defer (build/demo/flamegraphs.png)'
	@echo 'make bench    deferred vs immediate vs DWARF unwinding in the VM (-icount):'
	@echo '              build/bench/results.md, .csv, chart.png (docs/bench.md)'
	@echo 'make bench-compare   the benchmark on 7.3 as it is, 7.3 with patches-7.3/ and'
	@echo '              6.12 with patches/, side by side (build/bench-compare/results.md)'
	@echo 'make bench-testcost   instructions the test interface would cost exec and'
	@echo '              system calls: default vs production kernel (-icount)'
	@echo 'make deb      Debian packages: kernel image and headers, perf-defer, sframe-tools'
	@echo '              (build/deb/, lintian-checked)'
	@echo 'make system-test   Debian 12 (mmdebstrap, cached) with the packages installed,'
	@echo '              booted from a virtio disk with systemd: nginx and Redis profiled'
	@echo '              (-g, fp,defer), upgrade, removal (build/system-test/)'
	@echo 'make tree     prepare build/linux (base + patches/series + the test harness,'
	@echo '              patches/harness.series); RESET=1 re-applies'
	@echo 'make export   write build/linux commits base..HEAD back to patches/'
	@echo 'make series-check   build every commit of the series (default kernel; perf'
	@echo '              where it changes) and checkpatch --strict it; SERIES=range'
	@echo 'make churn    lines added and rewritten per series of patches/ (docs/design.md)'
	@echo 'make base-diff   what differs between the 6.12 and 7.3 kernels: the unwinder'"'"'s'
	@echo '              files, and the patches whose changes differ (docs/design.md)'
	@echo 'make kernel | kernel-debug | perf | tests    build one part'
	@echo 'make clean    remove what was built or run (keeps build/linux, build/npm)'
	@echo 'make sframe-unit   user-space unit tests of the SFrame reader'
	@echo 'make fuzz          fuzz the SFrame reader for FUZZ_SECONDS (600)'
	@echo 'make sframe-conv   the .eh_frame -> SFrame converter and its LD_AUDIT helper'
	@echo 'make sframe-conv-test   its tests against libdw (Debian libc, ld.so, libstdc++, a CFI zoo)'
	@echo 'make sframe-conv-bench  program starts with and without the helper (warm cache)'
	@echo 'Settings: BASE=6.12|7.3 (the kernel base of tree, export, kernel, perf, check:'
	@echo '          patches/ on Debian 6.12, the default, or patches-7.3/ on Debian 7.3),'
	@echo '          FLAVOURS="default debug", FLAVOUR=default|debug (make shell),'
	@echo '          TESTS=regexp, VM_ACCEL=auto|kvm|tcg,'
	@echo '          SERIES=A..B (the commits series-check builds; default the series),'
	@echo '          VM_MEM=2G, VM_CPUS=2, VM_TIMEOUT=seconds,'
	@echo '          BENCH_WORKLOADS="deep zero fault compute threads deep-32",'
	@echo '          BENCH_MODES="none sfnone fp defer dwarf sframe" (subsets),'
	@echo '          BENCH_REPEAT=3 (rounds of fault'"'"'s none, fp and defer runs)'

deps:
	@scripts/deps.sh $(LINUX_SOURCE_VERSION)
	@$(if $(SFX),scripts/source-7.3.sh $(LINUX_SOURCE_VERSION_7_3))

# and what only the demo needs (Chromium, npm, the flame graph template)
demo-deps:
	@scripts/deps.sh $(LINUX_SOURCE_VERSION) demo

deb: deps tree
	@scripts/deb.sh

# perf with Python, Chromium and the template for the flame graphs of the report
system-test: deps demo-deps tree perf sframe-conv
	@scripts/system-test.sh

# As another target's prerequisite, a tree with commits or changes not yet exported is
# built as it is (the developer loop: commit, make test, then make export)
tree: deps
	@scripts/tree.sh $(if $(RESET),--reset,$(if $(filter tree,$(MAKECMDGOALS)),,--keep-work))

export:
	@scripts/export.sh

# Every patch builds on its own and is checkpatch clean: run it before `make export`.
# Not part of check (about 1 minute per commit, more for header changes).
series-check: tree
	@scripts/series-check.sh $(SERIES)

churn: tree
	@scripts/churn.sh

# The two bases' kernels compared (both trees are needed: make tree; make tree BASE=7.3)
base-diff:
	@scripts/base-diff.sh

kernel: tree
	@scripts/build-kernel.sh default

kernel-debug: tree
	@scripts/build-kernel.sh debug

perf: tree
	@scripts/build-perf.sh

tests: $(TEST_BINS) $(TEST_EXTRA)

# The host's TSC rate, handed to the guest by scripts/vm.sh
$(BUILD)/tsc-khz: scripts/tsc-khz.c
	@mkdir -p $(@D)
	gcc $(TOOL_CFLAGS) -o $@ $<

$(BUILD)/tests/%: tests/prog/%.c tests/prog/util.h Makefile
	@mkdir -p $(@D)
	gcc $(TEST_CFLAGS) -o $@ $< -rdynamic -pthread -ldl $(TEST_LDFLAGS)

$(BUILD)/tests/%-32: tests/prog/%.c tests/prog/util.h Makefile
	@mkdir -p $(@D)
	gcc -m32 $(TEST_CFLAGS) -o $@ $< -rdynamic -pthread -ldl $(TEST_LDFLAGS)

# The selftests come from the tree, which does not exist yet when a fresh clone's make
# reads tests/prog/kselftest.mk: a second make, after `tree`, finds their sources.
check: tree perf tests $(BENCH_BIN)/deep $(BENCH_BIN)/deep-sfv3 $(BENCH_BIN)/deep-sfv2 $(BUILD)/tsc-khz
	@$(MAKE) --no-print-directory kselftest
	@for f in $(FLAVOURS); do scripts/build-kernel.sh $$f || exit 1; done
	@scripts/check.sh $(if $(SFX),,host) $(FLAVOURS)

# Chosen tests: make check with TESTS=$(T); what has not changed is not rebuilt
# (T through the environment: quotes in a regexp stay the shell's concern)
test: export T := $(T)
test:
	@[ -n "$$T" ] || { echo "usage: make test T=regexp (test names: tests/cases/*.sh, tests/host/*.sh, docs/results/check-$(BASE).md)" >&2; exit 2; }
	@$(MAKE) --no-print-directory check TESTS="$$T"

shell:
	@scripts/shell.sh $(FLAVOUR)

demo: demo-deps kernel perf tests $(BENCH_BIN)/deep $(BUILD)/tsc-khz
	@scripts/demo.sh

bench: kernel perf $(BENCH_BINS) $(BUILD)/tsc-khz
	@scripts/bench.sh

# 7.3 as it is, 7.3 with patches-7.3/ and 6.12 with patches/ on the same workloads
bench-compare: $(BENCH_BINS) $(BUILD)/tsc-khz
	@$(MAKE) --no-print-directory BASE=6.12 kernel perf
	@$(MAKE) --no-print-directory BASE=7.3 tree
	@scripts/bench-kernels.sh

bench-testcost: kernel $(BENCH_BIN)/testcost
	@scripts/bench-testcost.sh

# Everything built or run under build/, but the trees (build/linux, build/linux-7.3), the
# fetched 7.3 source (build/apt-7.3) and the flame graph template from npm (build/npm)
clean:
	rm -rf $(BUILD)/kernel-* $(BUILD)/perf $(BUILD)/tests $(BUILD)/check-* $(BUILD)/bench $(BUILD)/bench-* \
		$(BUILD)/demo $(BUILD)/vm $(BUILD)/sframe-test $(BUILD)/series-check $(BUILD)/sframe-conv \
		$(BUILD)/tsc-khz $(BUILD)/kvm-probe.* $(BUILD)/bench-testcost $(BUILD)/deb \
		$(BUILD)/perf-deb $(BUILD)/system-test $(BUILD)/perf-7.3 $(BUILD)/perf-mainline-7.3 \
		$(BUILD)/kselftest-7.3 $(BUILD)/series-check-7.3 $(BUILD)/shell $(BUILD)/shell-7.3 \
		$(BUILD)/check*.ktap
