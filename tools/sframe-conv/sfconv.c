// SPDX-License-Identifier: GPL-2.0
/*
 * Convert the DWARF CFI of an x86-64 ELF object into an SFrame section,
 * version 3 (the default) or 2: the CFI reader (cfi_read.c, with the
 * kernel's .eh_frame reader) decodes every FDE and runs its CFI program
 * into rows, the SFrame writer (sframe_write.c) turns the rows that fit
 * into FDEs and FREs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sframe_write.h"

const char *const sfconv_why_name[SFCONV_NR_WHY] = {
	[SFCONV_CFA] = "cfa",
	[SFCONV_RA] = "ra",
	[SFCONV_FP] = "fp",
	[SFCONV_SIGNAL] = "signal",
	[SFCONV_SP] = "sp",
	[SFCONV_OVERLAP] = "overlap",
	[SFCONV_ERROR] = "error",
};

int sfconv_convert(Elf *elf, uint64_t text_vaddr, uint64_t text_size,
		   const struct sfconv_opts *opts, void **sframe, size_t *size,
		   struct sfconv_stats *st, sfconv_row_fn row_fn, void *row_ctx)
{
	static const struct sfconv_opts defaults = { .version = SFCONV_VERSION_DEFAULT };
	struct conv cv = { .st = st };
	struct out o = { .st = st };
	uint64_t text_end = text_vaddr + text_size, vaddr;
	size_t i, n = 0;
	Elf_Data *d;
	int ret;

	memset(st, 0, sizeof(*st));
	*sframe = NULL;
	*size = 0;
	if (!opts)
		opts = &defaults;
	if (opts->version != 2 && opts->version != 3)
		return -EINVAL;
	o.v3 = opts->version == 3;
	ret = sfconv_find_eh_frame(elf, &d, &vaddr);
	if (ret)
		return ret;
	ret = sfconv_read_cfi(&cv, d, vaddr);
	if (ret)
		goto out;

	/* The FDEs of code in the text, by address; the same start twice: the first */
	if (cv.nfdes)
		qsort(cv.fdes, cv.nfdes, sizeof(*cv.fdes), sfconv_cmp_fde);
	for (i = 0; i < cv.nfdes; i++) {
		const struct fde *f = &cv.fdes[i];

		if (f->start < text_vaddr || f->start >= text_end)
			st->outside++;
		else if (f->start == f->end)
			st->empty++;
		else if (!n || f->start != cv.fdes[n - 1].start)
			cv.fdes[n++] = *f;
	}

	for (i = 0; i < n; i++) {
		const struct fde *f = &cv.fdes[i];
		uint64_t limit = i + 1 < n ? f[1].start : text_end;
		int why;

		st->fdes++;
		ret = f->end > limit ? -ERANGE : sfconv_fde_rows(&cv, f);
		if (ret == -ENOMEM)
			goto out;
		if (ret) {
			why = ret == -ERANGE ? SFCONV_OVERLAP : SFCONV_ERROR;
			st->rows_out[why]++;
			if (row_fn)
				row_fn(row_ctx, f->start, f->start + 1, why);
			/* V3: a signal trampoline's FDE all the same, without FREs */
			ret = 0;
			if (why == SFCONV_ERROR && o.v3 && f->ehf.signal)
				ret = sfconv_emit_fde(&o, NULL, 0, f->start, f->end, true);
			if (ret)
				goto out;
			continue;
		}
		ret = sfconv_convert_fde(&o, cv.rows, cv.nrows, row_fn, row_ctx);
		if (ret)
			goto out;
	}
	ret = sfconv_assemble(&o, text_vaddr, opts, sframe, size);
	st->size = *size;
out:
	free(cv.fdes);
	free(cv.rows);
	free(o.fdes.data);
	free(o.fres.data);
	return ret;
}
