/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory of the unit tests and of the fuzzer: an image of sections at
 * EHF_BASE (.eh_frame_hdr first, EHF_HDR_SIZE bytes, then .eh_frame) and a
 * stack at EHF_STACK, read through struct eh_frame_mem with bounds checks.
 *
 * Fuzzer input: the image, from EHF_BASE (its first EHF_HDR_SIZE bytes are
 * .eh_frame_hdr, or all of it if shorter).
 */
#ifndef EHF_TEST_H
#define EHF_TEST_H

#include <stdlib.h>
#include <string.h>
#include <linux/eh_frame_reader.h>

#define EHF_BASE	0x400000UL
#define EHF_HDR_SIZE	256
#define EHF_STACK	0x7ff000000000UL
#define EHF_STACK_SIZE	4096
#define EHF_LIMIT	0x800000000000UL

struct ehf_space {
	const u8 *image;
	size_t image_size;
	u8 stack[EHF_STACK_SIZE];
	unsigned long reads;
};

static inline int ehf_space_read(void *ctx, unsigned long addr, void *dst,
				 unsigned int len)
{
	struct ehf_space *sp = ctx;

	if (len == 0 || len > 64)
		abort();	/* the reader's promise: chunks of 1..64 bytes */
	sp->reads++;
	if (addr >= EHF_BASE && addr - EHF_BASE <= sp->image_size &&
	    len <= sp->image_size - (addr - EHF_BASE)) {
		memcpy(dst, sp->image + (addr - EHF_BASE), len);
		return 0;
	}
	if (addr >= EHF_STACK && addr - EHF_STACK <= EHF_STACK_SIZE &&
	    len <= EHF_STACK_SIZE - (addr - EHF_STACK)) {
		memcpy(dst, sp->stack + (addr - EHF_STACK), len);
		return 0;
	}
	return -EFAULT;
}

#endif /* EHF_TEST_H */
