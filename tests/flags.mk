# SPDX-License-Identifier: GPL-2.0
# The compiler flags of the programs the harness builds, the one place they are set.
# Included by the top-level Makefile and by tests/sframe/sframe.mk (which is also
# used on its own).
ifndef WARN_CFLAGS
WARN_CFLAGS := -Wall -Wextra -Werror
# Guest test programs whose chains a frame pointer walk must find whole (tests/prog/*.c
# and the frame-pointer ones of tests/prog/*/): every function sets up its frame and
# every call stays a call
TEST_CFLAGS := -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -fno-inline \
	$(WARN_CFLAGS)
# ...linked without an .eh_frame_hdr (no PT_GNU_EH_FRAME): the kernel walks their own
# code with frame pointers, so that the frames they make up for the unwinder (udt,
# sfstall) are followed as frame pointer frames; libc below them has its .eh_frame
TEST_LDFLAGS := -Wl,--no-eh-frame-hdr
# Programs and libraries without frame pointers: only SFrame (GSFRAME), registered
# SFrame or their .eh_frame finds their callers
NOFP_CFLAGS := -O2 -g -fomit-frame-pointer $(WARN_CFLAGS)
# binutils 2.40 emits SFrame v1
GSFRAME := -Wa,--gsframe
# Host tools (tsc-khz, sfpatch, the converter)
TOOL_CFLAGS := -O2 -g $(WARN_CFLAGS)
endif
