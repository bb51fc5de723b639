/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SFrame writer of sfconv (sframe_write.c): SFrame FDEs and FREs, version
 * 3 or 2, of the rows the CFI reader (cfi_read.h) made, and the section.
 */
#ifndef SFRAME_WRITE_H
#define SFRAME_WRITE_H

#include "cfi_read.h"

/* A growing byte buffer */
struct buf {
	uint8_t *data;
	size_t len;
	size_t cap;
	bool failed;
};

/* The section being written: its FDEs, its FREs, for which version */
struct out {
	struct buf fdes;	/* struct out_fde */
	struct buf fres;	/* the FREs (V3: each FDE's attribute record first) */
	bool v3;
	struct sfconv_stats *st;
};

/* One SFrame FDE of @n rows (none: a V3 signal trampoline's, without FREs) */
int sfconv_emit_fde(struct out *o, const struct row *rows, size_t n, uint64_t start,
		    uint64_t end, bool signal);

/* The SFrame FDEs of one CFI FDE's rows, those that fit; counted in o->st */
int sfconv_convert_fde(struct out *o, const struct row *rows, size_t n,
		       sfconv_row_fn row_fn, void *row_ctx);

/* The section of the FDEs written (malloc()ed; none if no FDE) */
int sfconv_assemble(const struct out *o, uint64_t text_vaddr, const struct sfconv_opts *opts,
		    void **sframe, size_t *size);

#endif /* SFRAME_WRITE_H */
