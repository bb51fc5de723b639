/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user-space stand-in for a process's memory: an ELF file's PT_LOAD
 * segments at their link-time addresses, read through struct eh_frame_mem,
 * and where its .eh_frame_hdr is (PT_GNU_EH_FRAME).
 */
#ifndef EHF_ELF_H
#define EHF_ELF_H

#include <stddef.h>
#include <linux/eh_frame_reader.h>

#define EHF_MAX_SEGS	16

struct ehf_seg {
	unsigned long vaddr;
	unsigned long size;	/* bytes in the file */
	const unsigned char *data;
};

struct ehf_image {
	const unsigned char *file;
	size_t file_size;
	struct ehf_seg segs[EHF_MAX_SEGS];
	int nsegs;
	unsigned long hdr;	/* PT_GNU_EH_FRAME */
	unsigned long hdr_size;
	unsigned long lo, hi;	/* its PT_LOAD */
	unsigned long reads;	/* calls of ehf_image_read() */
};

/* Map @path: 0, or -1 with a message on stderr */
int ehf_image_open(struct ehf_image *img, const char *path);
void ehf_image_close(struct ehf_image *img);
/* struct eh_frame_mem's read over an image (@ctx) */
int ehf_image_read(void *ctx, unsigned long addr, void *dst, unsigned int len);

#endif /* EHF_ELF_H */
