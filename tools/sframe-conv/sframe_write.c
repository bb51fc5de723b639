// SPDX-License-Identifier: GPL-2.0
/*
 * The SFrame writer of sfconv: the rows of the CFI reader (cfi_read.c) as an
 * SFrame section, version 3 (the default) or 2.
 *
 * An FDE whose rows all fit becomes one SFrame FDE; the rows that fit of
 * the others become SFrame FDEs of their own (one per run of rows), so an
 * address in a row that does not fit has no SFrame FDE at all: the kernel
 * then ends the walk instead of guessing. The CFA expression the linkers
 * write for the 16-byte entries of a PLT (SP + 8, or + 16 once the entry
 * has pushed its index) becomes a PCMASK FDE, as GNU ld writes it; any
 * other expression does not fit. An FDE with an instruction not
 * understood (or malformed) is left out whole.
 *
 * The section has its FDEs sorted, function starts relative to the start
 * of the text (no SFRAME_F_FDE_FUNC_START_PCREL), for sframe_register()
 * with SFRAME_SETUP_TEXT_RELATIVE: its bytes do not depend on where the
 * object or the section is mapped. For a section to put in the ELF file
 * (struct sfconv_opts): PC-relative starts (FUNC_START_PCREL) for its
 * address there.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "sframe_write.h"

#define SFRAME_MAGIC		0xdee2
#define SFRAME_VERSION_2	2
#define SFRAME_VERSION_3	3
#define SFRAME_F_FDE_SORTED	0x1
#define SFRAME_F_FDE_FUNC_START_PCREL	0x4
#define SFRAME_ABI_AMD64_LE	3
#define SFRAME_HDR_SIZE		28
#define SFRAME_FDE_SIZE		20
#define SFRAME_FRE_BASE_SP	0x1
#define SFRAME_FDE_PCMASK	0x10
/* V3: the FDE index entry, the attribute record before each function's FREs */
#define SFRAME_V3_FDE_SIZE	16
#define SFRAME_V3_ATTR_SIZE	5
#define SFRAME_V3_FDE_SIGNAL	0x80	/* in the info byte */
#define SFRAME_V3_FDE_TYPE_FLEX	1	/* in the second info byte */
#define SFRAME_V3_MAX_FRES	UINT16_MAX

unsigned int sfconv_max_fres;

static void *buf_grow(struct buf *b, size_t n)
{
	void *p;

	if (b->failed)
		return NULL;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		uint8_t *d;

		while (cap < b->len + n)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->failed = true;
			return NULL;
		}
		b->data = d;
		b->cap = cap;
	}
	p = b->data + b->len;
	b->len += n;
	return p;
}

static void buf_put(struct buf *b, uint64_t v, unsigned int size)
{
	uint8_t *p = buf_grow(b, size);
	unsigned int i;

	for (i = 0; p && i < size; i++)
		p[i] = v >> (8 * i);
}

static bool same_loc(const struct loc *a, const struct loc *b)
{
	return a->set == b->set && a->reg_p == b->reg_p && a->deref == b->deref &&
	       a->reg == b->reg && a->off == b->off;
}

static bool same_rule(const struct rule *a, const struct rule *b)
{
	return same_loc(&a->cfa, &b->cfa) && same_loc(&a->ra, &b->ra) &&
	       same_loc(&a->fp, &b->fp) && a->outermost == b->outermost &&
	       !a->plt && !b->plt;
}

static unsigned int size_code(int64_t v)
{
	if (v >= INT8_MIN && v <= INT8_MAX)
		return 0;
	if (v >= INT16_MIN && v <= INT16_MAX)
		return 1;
	return 2;
}

/* One SFrame FDE: its function range and where its FREs start */
struct out_fde {
	uint64_t start;
	uint64_t size;
	uint32_t fre_off;	/* V3: of its attribute record */
	uint32_t num_fres;
	uint8_t info;		/* FRE type, PCMASK; V3: signal */
	uint8_t info2;		/* V3: FDE type */
	uint8_t rep_size;
};

/* The control word of a flexible rule (V3) */
static unsigned int control(const struct loc *l)
{
	return l->reg_p | l->deref << 1 | l->reg << 3;
}

/*
 * One FRE: in a default FDE, a CFA from SP or FP and maybe a saved FP; in
 * a flexible one (@flex), (control word, offset) pairs for the CFA, the
 * return address and FP, where the return address's is a single 0 word
 * if it is at its default place and FP's follows; none for the outermost
 * frame (info byte 0).
 */
static void put_fre(struct buf *fres, uint32_t start, unsigned int ssize,
		    const struct rule *r, bool flex)
{
	const struct loc *locs[] = { &r->cfa, &r->ra, &r->fp };
	unsigned int n = 0, osize = 0, i;
	int64_t words[6];

	for (i = 0; i < 3 && !r->outermost; i++) {
		if (!locs[i]->set) {
			if (flex && i == 1 && r->fp.set)
				words[n++] = 0;
			continue;
		}
		/* Control words are at most 15 << 3 | 3: one byte */
		if (flex)
			words[n++] = control(locs[i]);
		words[n++] = locs[i]->off;
		if (size_code(locs[i]->off) > osize)
			osize = size_code(locs[i]->off);
	}
	buf_put(fres, start, ssize);
	if (!n)
		buf_put(fres, 0, 1);
	else
		buf_put(fres, (flex || r->cfa.reg != DWARF_SP ? 0 : SFRAME_FRE_BASE_SP) |
			      n << 1 | osize << 5, 1);
	for (i = 0; i < n; i++)
		buf_put(fres, (uint64_t)words[i], 1u << osize);
}

/*
 * A PLT row: a PCMASK FDE of 16-byte blocks with FREs for SP + cfa.off and,
 * from byte plt_push on, SP + cfa.off + 8
 */
static void put_plt_fres(struct buf *fres, struct out_fde *fde, const struct rule *r)
{
	struct rule sp = { .cfa = r->cfa };

	fde->info = SFRAME_FDE_PCMASK;	/* FRE type 0: 1-byte starts */
	fde->rep_size = 16;
	if (r->plt_push) {
		put_fre(fres, 0, 1, &sp, false);
		fde->num_fres++;
	}
	sp.cfa.off += 8;
	put_fre(fres, r->plt_push, 1, &sp, false);
	fde->num_fres++;
}

/*
 * Write the FREs of the @n rows at @rows (all fitting, contiguous; none: a
 * signal trampoline's FDE without FREs, V3) as one SFrame FDE for the code
 * at [@start, @end): flexible if a row needs it (V3)
 */
int sfconv_emit_fde(struct out *o, const struct row *rows, size_t n, uint64_t start,
		    uint64_t end, bool signal)
{
	struct buf *fres = &o->fres;
	struct out_fde *fde;
	unsigned int ssize;
	bool flex = false;
	uint8_t *attr;
	size_t i;

	if (end - start > UINT32_MAX || fres->len > UINT32_MAX)
		return -ERANGE;
	fde = buf_grow(&o->fdes, sizeof(*fde));
	if (!fde)
		return -ENOMEM;
	memset(fde, 0, sizeof(*fde));
	fde->start = start;
	fde->size = end - start;
	fde->fre_off = fres->len;
	/* V3: the attribute record, filled in below */
	if (o->v3)
		buf_grow(fres, SFRAME_V3_ATTR_SIZE);
	for (i = 0; i < n; i++)
		flex |= rows[i].rule.flex;
	if (n && rows[0].rule.plt) {
		put_plt_fres(fres, fde, &rows[0].rule);
	} else if (n) {
		/* FRE start addresses: 1, 2 or 4 bytes, as the last one needs */
		fde->info = rows[n - 1].start - start < 0x100 ? 0 :
			    rows[n - 1].start - start < 0x10000 ? 1 : 2;
		ssize = 1u << fde->info;
		for (i = 0; i < n; i++) {
			if (i && same_rule(&rows[i].rule, &rows[i - 1].rule))
				continue;
			put_fre(fres, rows[i].start - start, ssize, &rows[i].rule, flex);
			fde->num_fres++;
		}
	}
	if (signal)
		fde->info |= SFRAME_V3_FDE_SIGNAL;
	if (flex)
		fde->info2 = SFRAME_V3_FDE_TYPE_FLEX;
	if (o->v3 && !fres->failed) {
		attr = fres->data + fde->fre_off;
		attr[0] = fde->num_fres;
		attr[1] = fde->num_fres >> 8;
		attr[2] = fde->info;
		attr[3] = fde->info2;
		attr[4] = fde->rep_size;
	}
	o->st->sframe_fdes++;
	o->st->sframe_fres += fde->num_fres;
	o->st->flex_fdes += flex;
	o->st->signal_fdes += signal;
	o->st->empty_signal += signal && !n;
	return fres->failed ? -ENOMEM : 0;
}

/* Does row @r fit the version written? */
static bool fits(const struct out *o, const struct row *r)
{
	return r->why < 0 || (o->v3 && r->rule.v3);
}

/* Can rows @a and @b (which follows it) be in the same SFrame FDE? */
static bool same_run(const struct out *o, const struct row *a, const struct row *b)
{
	return fits(o, a) && fits(o, b) && !a->rule.plt && !b->rule.plt;
}

/*
 * Emit the runs of fitting rows of one FDE (V3: at most 65535 FREs an
 * SFrame FDE, more are split); count it. In V3, a signal trampoline some of
 * whose rows do not fit gets an FDE without FREs.
 */
int sfconv_convert_fde(struct out *o, const struct row *rows, size_t n,
		       sfconv_row_fn row_fn, void *row_ctx)
{
	uint32_t max_fres = o->v3 ? SFRAME_V3_MAX_FRES : UINT32_MAX, nfres = 0;
	/* A signal trampoline's rows all give that reason first */
	bool signal = n && rows[0].why == SFCONV_SIGNAL;
	struct sfconv_stats *st = o->st;
	size_t i, first = 0, fit = 0;
	int ret;

	if (sfconv_max_fres)
		max_fres = sfconv_max_fres;
	for (i = 0; i < n; i++)
		fit += fits(o, &rows[i]);
	st->rows += n;
	if (o->v3 && signal && fit < n) {
		for (i = 0; i < n; i++) {
			if (row_fn)
				row_fn(row_ctx, rows[i].start, rows[i].end, SFCONV_SIGNAL);
			st->rows_out[SFCONV_SIGNAL]++;
		}
		return sfconv_emit_fde(o, NULL, 0, rows[0].start, rows[n - 1].end, true);
	}

	for (i = 0; i < n; i++) {
		if (!fits(o, &rows[i])) {
			if (row_fn)
				row_fn(row_ctx, rows[i].start, rows[i].end, rows[i].why);
			st->rows_out[rows[i].why]++;
			continue;
		}
		if (row_fn)
			row_fn(row_ctx, rows[i].start, rows[i].end, -1);
		if (rows[i].why >= 0)
			st->rows_v3[rows[i].why]++;
		st->outermost += rows[i].rule.outermost;
		if (!i || !same_run(o, &rows[i - 1], &rows[i])) {
			first = i;
			nfres = 1;
		} else if (!same_rule(&rows[i - 1].rule, &rows[i].rule) && ++nfres > max_fres) {
			/* A full FDE: the next starts here */
			ret = sfconv_emit_fde(o, rows + first, i - first, rows[first].start,
				       rows[i].start, signal);
			if (ret)
				return ret;
			first = i;
			nfres = 1;
		}
		/* The last row of a run of fitting rows: one SFrame FDE */
		if (i + 1 == n || !same_run(o, &rows[i], &rows[i + 1])) {
			ret = sfconv_emit_fde(o, rows + first, i + 1 - first, rows[first].start,
				       rows[i].end, signal);
			if (ret)
				return ret;
		}
	}
	if (fit == n)
		st->full++;
	else if (fit)
		st->partial++;
	return 0;
}

/*
 * The section: header, FDEs (V3: the FDE index), FREs. Function starts
 * are offsets from @text_vaddr, or (@opts->pcrel) from where they are in
 * the section at @opts->sframe_vaddr.
 */
int sfconv_assemble(const struct out *o, uint64_t text_vaddr, const struct sfconv_opts *opts,
		    void **sframe, size_t *size)
{
	size_t fde_size = o->v3 ? SFRAME_V3_FDE_SIZE : SFRAME_FDE_SIZE;
	size_t nfdes = o->fdes.len / sizeof(struct out_fde), i;
	struct buf out = { 0 };
	int64_t start;

	if (!nfdes) {
		*sframe = NULL;
		*size = 0;
		return 0;
	}
	buf_put(&out, SFRAME_MAGIC, 2);
	buf_put(&out, o->v3 ? SFRAME_VERSION_3 : SFRAME_VERSION_2, 1);
	buf_put(&out, SFRAME_F_FDE_SORTED | (opts->pcrel ? SFRAME_F_FDE_FUNC_START_PCREL : 0), 1);
	buf_put(&out, SFRAME_ABI_AMD64_LE, 1);
	buf_put(&out, 0, 1);			/* cfa_fixed_fp_offset */
	buf_put(&out, (uint8_t)-8, 1);		/* cfa_fixed_ra_offset */
	buf_put(&out, 0, 1);			/* auxhdr_len */
	buf_put(&out, nfdes, 4);
	buf_put(&out, o->st->sframe_fres, 4);
	buf_put(&out, o->fres.len, 4);
	buf_put(&out, 0, 4);			/* fdeoff */
	buf_put(&out, nfdes * fde_size, 4);	/* freoff */
	for (i = 0; i < nfdes; i++) {
		const struct out_fde *f = (const struct out_fde *)o->fdes.data + i;

		/* The function's offset in the text, or from this field */
		if (opts->pcrel)
			start = f->start - (opts->sframe_vaddr + out.len);
		else
			start = f->start - text_vaddr;
		if (o->v3) {
			buf_put(&out, start, 8);
			buf_put(&out, f->size, 4);
			buf_put(&out, f->fre_off, 4);
			continue;
		}
		if (!fits_s32(start)) {
			free(out.data);
			return -ERANGE;
		}
		buf_put(&out, start, 4);
		buf_put(&out, f->size, 4);
		buf_put(&out, f->fre_off, 4);
		buf_put(&out, f->num_fres, 4);
		buf_put(&out, f->info, 1);
		buf_put(&out, f->rep_size, 1);
		buf_put(&out, 0, 2);		/* padding */
	}
	if (o->fres.len) {
		uint8_t *p = buf_grow(&out, o->fres.len);

		if (p)
			memcpy(p, o->fres.data, o->fres.len);
	}
	if (out.failed) {
		free(out.data);
		return -ENOMEM;
	}
	*sframe = out.data;
	*size = out.len;
	return 0;
}
