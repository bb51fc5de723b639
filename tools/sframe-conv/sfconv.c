// SPDX-License-Identifier: GPL-2.0
/*
 * Convert the DWARF CFI of an x86-64 ELF object into an SFrame v2 section.
 *
 * For every FDE (function) the rows of its CFI table are evaluated with
 * libdw: one dwarf_cfi_addrframe() per row gives the row's address range
 * and its rules. A row fits SFrame when
 *  - the CFA is SP or FP (DWARF registers 7 and 6) plus an offset,
 *  - the return address (register 16) is saved at CFA - 8, or undefined
 *    (the outermost frame: an FRE without offsets),
 *  - FP is unchanged (same value) or saved at CFA + a non-zero offset,
 *  - it is not a signal frame.
 * An FDE whose rows all fit becomes one SFrame FDE; the rows that fit of
 * the others become SFrame FDEs of their own (one per run of rows), so an
 * address in a row that does not fit has no SFrame FDE at all: the kernel
 * then ends the walk instead of guessing. The CFA expression the linkers
 * write for the 16-byte entries of a PLT (SP + 8, or + 16 once the entry
 * has pushed its index) becomes a PCMASK FDE, as GNU ld writes it.
 *
 * libdw has no public iterator over FDEs, so their start addresses are
 * taken from the binary search table of .eh_frame_hdr (PT_GNU_EH_FRAME),
 * which the linker writes for every shared object and dynamic program.
 * All rules and row boundaries come from libdw.
 *
 * The section is SFrame version 2, FDEs sorted, function starts relative
 * to the start of the section (no SFRAME_F_FDE_FUNC_START_PCREL), for the
 * section placed at address 0 of the object: sfconv_relocate() moves it.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <endian.h>
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sfconv.h"

#define SFRAME_MAGIC		0xdee2
#define SFRAME_VERSION_2	2
#define SFRAME_F_FDE_SORTED	0x1
#define SFRAME_ABI_AMD64_LE	3
#define SFRAME_HDR_SIZE		28
#define SFRAME_FDE_SIZE		20
#define SFRAME_FRE_BASE_SP	0x1

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME		0x6474e554
#endif

/* DWARF register numbers on x86-64 */
#define DWARF_FP		6
#define DWARF_SP		7
#define DWARF_RA		16

const char *const sfconv_why_name[SFCONV_NR_WHY] = {
	[SFCONV_CFA] = "cfa",
	[SFCONV_RA] = "ra",
	[SFCONV_FP] = "fp",
	[SFCONV_SIGNAL] = "signal",
	[SFCONV_OVERLAP] = "overlap",
	[SFCONV_ERROR] = "error",
};

/* How to find the caller at the addresses of one row */
struct rule {
	int32_t cfa_off;
	int32_t fp_off;		/* 0: FP unchanged */
	bool use_fp;
	bool outermost;
	/* A PLT: CFA = SP + cfa_off, + 8 from byte plt_push of each 16 */
	bool plt;
	uint8_t plt_push;
};

struct row {
	uint64_t start;
	uint64_t end;
	int why;		/* < 0: fits, with @rule */
	struct rule rule;
};

/* A growing byte buffer */
struct buf {
	uint8_t *data;
	size_t len;
	size_t cap;
	bool failed;
};

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

int sfconv_text_range(Elf *elf, uint64_t *vaddr, uint64_t *size)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph))
			return -EINVAL;
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && ph.p_memsz) {
			*vaddr = ph.p_vaddr;
			*size = ph.p_memsz;
			return 0;
		}
	}
	return -ENOENT;
}

size_t sfconv_elf_image_size(const void *image)
{
	const Elf64_Ehdr *eh = image;
	const Elf64_Phdr *ph;
	size_t size, i;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	ph = (const Elf64_Phdr *)((const char *)image + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	return size;
}

static int find_phdr(Elf *elf, uint32_t type, GElf_Phdr *ph)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, ph))
			return -EINVAL;
		if (ph->p_type == type)
			return 0;
	}
	return -ENOENT;
}

int sfconv_has_sframe(Elf *elf)
{
	GElf_Phdr ph;

	return !find_phdr(elf, PT_GNU_SFRAME, &ph);
}

int sfconv_build_id(Elf *elf, char *buf, size_t len)
{
	const unsigned char *id;
	ssize_t n, i;

	n = dwelf_elf_gnu_build_id(elf, (const void **)&id);
	if (n <= 0 || (size_t)n * 2 + 1 > len)
		return -ENOENT;
	for (i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", id[i]);
	return 0;
}

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Size of an encoded pointer of .eh_frame_hdr; 0 if not supported */
static unsigned int eh_ptr_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return 4;
	case DW_EH_PE_absptr:
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return 8;
	default:
		return 0;
	}
}

/*
 * The start addresses of all FDEs, sorted, from the search table of
 * .eh_frame_hdr: version 1, the .eh_frame pointer, the FDE count (4 bytes,
 * absolute) and pairs of 4-byte initial locations and FDE addresses
 * relative to the start of .eh_frame_hdr (DW_EH_PE_datarel|sdata4, what
 * GNU ld, gold and lld write).
 */
static int fde_starts(Elf *elf, uint64_t **starts, size_t *count)
{
	const uint8_t *p;
	size_t off, n, i;
	Elf_Data *d;
	GElf_Phdr ph;
	uint64_t *s;
	unsigned int psize;

	if (find_phdr(elf, PT_GNU_EH_FRAME, &ph))
		return -ENOENT;
	d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_BYTE);
	if (!d || d->d_size < 4)
		return -EINVAL;
	p = d->d_buf;
	psize = eh_ptr_size(p[1]);
	if (p[0] != 1 || !psize || (p[2] & 0x0f) != DW_EH_PE_udata4 ||
	    (p[2] & 0x70) || p[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
		return -ENOTSUP;
	off = 4 + psize;
	if (d->d_size < off + 4)
		return -EINVAL;
	n = get_u32(p + off);
	off += 4;
	if (n > (d->d_size - off) / 8)
		return -EINVAL;
	s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		s[i] = ph.p_vaddr + (int64_t)(int32_t)get_u32(p + off + 8 * i);
	qsort(s, n, sizeof(*s), cmp_u64);
	*starts = s;
	*count = n;
	return 0;
}

/* Is the register saved at CFA + *off (libdw's form of "offset(N)")? */
static bool saved_at_cfa(const Dwarf_Op *ops, size_t n, int64_t *off)
{
	if (!n || ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (n == 1) {
		*off = 0;
		return true;
	}
	if (n == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*off = (int64_t)ops[1].number;
		return true;
	}
	return false;
}

static bool fits_s32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/*
 * The CFA of the 16-byte entries of a PLT, which push an index at byte
 * @push and jump: DW_OP_breg7 OFF; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and;
 * DW_OP_lit<push>; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus, that is
 * SP + OFF + ((ip & 15) >= push ? 8 : 0).
 */
static bool plt_cfa(const Dwarf_Op *ops, size_t n, struct rule *r)
{
	static const uint8_t pattern[] = {
		DW_OP_breg7, DW_OP_breg16, DW_OP_lit15, DW_OP_and, DW_OP_lit0,
		DW_OP_ge, DW_OP_lit3, DW_OP_shl, DW_OP_plus,
	};
	size_t i;

	if (n != sizeof(pattern))
		return false;
	for (i = 0; i < n; i++) {
		if (i == 4 ? ops[i].atom < DW_OP_lit0 || ops[i].atom > DW_OP_lit15 :
			     ops[i].atom != pattern[i])
			return false;
	}
	if (ops[1].number || !fits_s32((int64_t)ops[0].number))
		return false;
	r->plt = true;
	r->plt_push = ops[4].atom - DW_OP_lit0;
	r->cfa_off = (int64_t)ops[0].number;
	return true;
}

/* Is FP unchanged? */
static bool same_fp(Dwarf_Frame *frame)
{
	Dwarf_Op mem[3], *ops;
	size_t n;

	return !dwarf_frame_register(frame, DWARF_FP, mem, &ops, &n) && !n && !ops;
}

/* The rule of one row: -1 if it fits SFrame, else an enum sfconv_why */
static int row_rule(Dwarf_Frame *frame, int ra_reg, bool signal,
		    struct rule *r)
{
	Dwarf_Op mem[3], *ops;
	int64_t off;
	size_t n;
	int reg;

	memset(r, 0, sizeof(*r));
	if (signal)
		return SFCONV_SIGNAL;
	if (ra_reg != DWARF_RA ||
	    dwarf_frame_register(frame, ra_reg, mem, &ops, &n))
		return SFCONV_RA;
	/* Undefined return address: the outermost frame */
	if (!n && ops) {
		r->outermost = true;
		return -1;
	}
	if (!saved_at_cfa(ops, n, &off) || off != -8)
		return SFCONV_RA;

	if (dwarf_frame_cfa(frame, &ops, &n))
		return SFCONV_CFA;
	if (plt_cfa(ops, n, r))
		return same_fp(frame) ? -1 : SFCONV_FP;
	if (n != 1)
		return SFCONV_CFA;
	if (ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (int64_t)ops[0].number;
	} else {
		return SFCONV_CFA;
	}
	if ((reg != DWARF_SP && reg != DWARF_FP) || !fits_s32(off))
		return SFCONV_CFA;
	r->use_fp = reg == DWARF_FP;
	r->cfa_off = off;

	if (dwarf_frame_register(frame, DWARF_FP, mem, &ops, &n))
		return SFCONV_FP;
	/* Same value: unchanged */
	if (!n && !ops)
		return -1;
	if (!saved_at_cfa(ops, n, &off) || !off || !fits_s32(off))
		return SFCONV_FP;
	r->fp_off = off;
	return -1;
}

/*
 * The rows of the FDE starting at @start, up to @limit (the next FDE's
 * start): into @rows, their number returned (0 for an FDE of no code),
 * or -1 with *@why set if the FDE cannot be used at all.
 */
static ssize_t fde_rows(Dwarf_CFI *cfi, uint64_t start, uint64_t limit,
			struct row **rows, size_t *cap, int *why)
{
	uint64_t addr = start;
	size_t n = 0;

	while (addr < limit) {
		Dwarf_Addr rs, re;
		Dwarf_Frame *frame;
		bool signal;
		int ra_reg;

		if (dwarf_cfi_addrframe(cfi, addr, &frame))
			break;	/* the FDE ends here */
		ra_reg = dwarf_frame_info(frame, &rs, &re, &signal);
		if (ra_reg < 0 || rs > addr || re <= addr ||
		    (addr == start && rs != start)) {
			free(frame);
			*why = ra_reg < 0 ? SFCONV_ERROR : SFCONV_OVERLAP;
			return -1;
		}
		if (n == *cap) {
			size_t c = *cap ? *cap * 2 : 64;
			struct row *r = realloc(*rows, c * sizeof(**rows));

			if (!r) {
				free(frame);
				*why = SFCONV_ERROR;
				return -1;
			}
			*rows = r;
			*cap = c;
		}
		(*rows)[n].start = addr;
		(*rows)[n].end = re;
		(*rows)[n].why = row_rule(frame, ra_reg, signal, &(*rows)[n].rule);
		/* PCMASK blocks are from the FDE's start: it must be aligned */
		if ((*rows)[n].why < 0 && (*rows)[n].rule.plt && (addr & 15))
			(*rows)[n].why = SFCONV_CFA;
		free(frame);
		n++;
		addr = re;
	}
	if (addr > limit) {
		*why = SFCONV_OVERLAP;
		return -1;
	}
	return n;
}

static bool same_rule(const struct rule *a, const struct rule *b)
{
	return a->cfa_off == b->cfa_off && a->fp_off == b->fp_off &&
	       a->use_fp == b->use_fp && a->outermost == b->outermost &&
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
	uint32_t fre_off;
	uint32_t num_fres;
	uint8_t info;		/* FRE type, PCMASK */
	uint8_t rep_size;
};

#define SFRAME_FDE_PCMASK	0x10

/* One FRE with a CFA from SP or FP and maybe a saved FP, or none (outermost) */
static void put_fre(struct buf *fres, uint32_t start, unsigned int ssize,
		    const struct rule *r)
{
	unsigned int count = r->outermost ? 0 : r->fp_off ? 2 : 1;
	unsigned int osize = size_code(r->cfa_off);

	if (size_code(r->fp_off) > osize)
		osize = size_code(r->fp_off);
	buf_put(fres, start, ssize);
	buf_put(fres, (r->use_fp ? 0 : SFRAME_FRE_BASE_SP) | count << 1 | osize << 5, 1);
	if (count >= 1)
		buf_put(fres, (uint32_t)r->cfa_off, 1u << osize);
	if (count == 2)
		buf_put(fres, (uint32_t)r->fp_off, 1u << osize);
}

/*
 * A PLT row: a PCMASK FDE of 16-byte blocks with FREs for SP + cfa_off and,
 * from byte plt_push on, SP + cfa_off + 8
 */
static void put_plt_fres(struct buf *fres, struct out_fde *fde, const struct rule *r)
{
	struct rule sp = { .cfa_off = r->cfa_off };

	fde->info = SFRAME_FDE_PCMASK;	/* FRE type 0: 1-byte starts */
	fde->rep_size = 16;
	if (r->plt_push) {
		put_fre(fres, 0, 1, &sp);
		fde->num_fres++;
	}
	sp.cfa_off += 8;
	put_fre(fres, r->plt_push, 1, &sp);
	fde->num_fres++;
}

/*
 * Write the FREs of rows [@first, @last] (all fitting, contiguous) as one
 * SFrame FDE into @fres and @fdes.
 */
static int emit_fde(const struct row *rows, size_t first, size_t last,
		    struct buf *fdes, struct buf *fres, struct sfconv_stats *st)
{
	uint64_t start = rows[first].start, size = rows[last].end - start;
	struct out_fde *fde;
	unsigned int ssize;
	size_t i;

	if (size > UINT32_MAX || fres->len > UINT32_MAX)
		return -ERANGE;
	fde = buf_grow(fdes, sizeof(*fde));
	if (!fde)
		return -ENOMEM;
	fde->start = start;
	fde->size = size;
	fde->fre_off = fres->len;
	fde->num_fres = 0;
	fde->rep_size = 0;
	if (rows[first].rule.plt) {
		put_plt_fres(fres, fde, &rows[first].rule);
	} else {
		/* FRE start addresses: 1, 2 or 4 bytes, as the last one needs */
		fde->info = rows[last].start - start < 0x100 ? 0 :
			    rows[last].start - start < 0x10000 ? 1 : 2;
		ssize = 1u << fde->info;
		for (i = first; i <= last; i++) {
			if (i > first && same_rule(&rows[i].rule, &rows[i - 1].rule))
				continue;
			put_fre(fres, rows[i].start - start, ssize, &rows[i].rule);
			fde->num_fres++;
		}
	}
	st->sframe_fdes++;
	st->sframe_fres += fde->num_fres;
	return fres->failed ? -ENOMEM : 0;
}

/* Can rows @a and @b (which follows it) be in the same SFrame FDE? */
static bool same_run(const struct row *a, const struct row *b)
{
	return a->why < 0 && b->why < 0 && !a->rule.plt && !b->rule.plt;
}

/* Emit the runs of fitting rows of one FDE; count it */
static int convert_fde(const struct row *rows, size_t n, struct buf *fdes,
		       struct buf *fres, struct sfconv_stats *st,
		       sfconv_row_fn row_fn, void *row_ctx)
{
	size_t i, first = 0, fit = 0;
	int ret;

	for (i = 0; i < n; i++) {
		if (row_fn)
			row_fn(row_ctx, rows[i].start, rows[i].end, rows[i].why);
		if (rows[i].why >= 0) {
			st->rows_out[rows[i].why]++;
			continue;
		}
		fit++;
		if (!i || !same_run(&rows[i - 1], &rows[i]))
			first = i;
		/* The last row of a run of fitting rows: one SFrame FDE */
		if (i + 1 == n || !same_run(&rows[i], &rows[i + 1])) {
			ret = emit_fde(rows, first, i, fdes, fres, st);
			if (ret)
				return ret;
		}
	}
	st->rows += n;
	if (fit == n)
		st->full++;
	else if (fit)
		st->partial++;
	return 0;
}

static int assemble(const struct buf *fdes, const struct buf *fres,
		    const struct sfconv_stats *st, void **sframe, size_t *size)
{
	size_t nfdes = fdes->len / sizeof(struct out_fde), i;
	struct buf out = { 0 };

	if (!nfdes) {
		*sframe = NULL;
		*size = 0;
		return 0;
	}
	buf_put(&out, SFRAME_MAGIC, 2);
	buf_put(&out, SFRAME_VERSION_2, 1);
	buf_put(&out, SFRAME_F_FDE_SORTED, 1);
	buf_put(&out, SFRAME_ABI_AMD64_LE, 1);
	buf_put(&out, 0, 1);			/* cfa_fixed_fp_offset */
	buf_put(&out, (uint8_t)-8, 1);		/* cfa_fixed_ra_offset */
	buf_put(&out, 0, 1);			/* auxhdr_len */
	buf_put(&out, nfdes, 4);
	buf_put(&out, st->sframe_fres, 4);
	buf_put(&out, fres->len, 4);
	buf_put(&out, 0, 4);			/* fdeoff */
	buf_put(&out, nfdes * SFRAME_FDE_SIZE, 4);	/* freoff */
	for (i = 0; i < nfdes; i++) {
		const struct out_fde *f = (const struct out_fde *)fdes->data + i;

		/* The function's address, for the section at address 0 */
		if (f->start > INT32_MAX) {
			free(out.data);
			return -ERANGE;
		}
		buf_put(&out, f->start, 4);
		buf_put(&out, f->size, 4);
		buf_put(&out, f->fre_off, 4);
		buf_put(&out, f->num_fres, 4);
		buf_put(&out, f->info, 1);
		buf_put(&out, f->rep_size, 1);
		buf_put(&out, 0, 2);		/* padding */
	}
	if (fres->len) {
		uint8_t *p = buf_grow(&out, fres->len);

		if (p)
			memcpy(p, fres->data, fres->len);
	}
	if (out.failed) {
		free(out.data);
		return -ENOMEM;
	}
	*sframe = out.data;
	*size = out.len;
	return 0;
}

int sfconv_convert(Elf *elf, uint64_t text_vaddr, uint64_t text_size,
		   void **sframe, size_t *size, struct sfconv_stats *st,
		   sfconv_row_fn row_fn, void *row_ctx)
{
	struct buf fdes = { 0 }, fres = { 0 };
	uint64_t *starts = NULL, text_end = text_vaddr + text_size;
	struct row *rows = NULL;
	size_t nstarts, cap = 0, i;
	Dwarf_CFI *cfi;
	int ret, why = SFCONV_ERROR;

	memset(st, 0, sizeof(*st));
	*sframe = NULL;
	*size = 0;
	cfi = dwarf_getcfi_elf(elf);
	if (!cfi)
		return -ENOENT;
	ret = fde_starts(elf, &starts, &nstarts);
	if (ret)
		goto out;

	for (i = 0; i < nstarts; i++) {
		uint64_t limit = i + 1 < nstarts ? starts[i + 1] : text_end;
		ssize_t n;

		/* The same start twice: only the first */
		if (i && starts[i] == starts[i - 1])
			continue;
		if (starts[i] < text_vaddr || starts[i] >= text_end) {
			st->outside++;
			continue;
		}
		if (limit > text_end)
			limit = text_end;
		n = fde_rows(cfi, starts[i], limit, &rows, &cap, &why);
		if (!n) {
			st->empty++;
			continue;
		}
		st->fdes++;
		if (n < 0) {
			st->rows_out[why]++;
			if (row_fn)
				row_fn(row_ctx, starts[i], starts[i] + 1, why);
			continue;
		}
		ret = convert_fde(rows, n, &fdes, &fres, st, row_fn, row_ctx);
		if (ret)
			goto out;
	}
	ret = assemble(&fdes, &fres, st, sframe, size);
	st->size = *size;
out:
	free(rows);
	free(starts);
	free(fdes.data);
	free(fres.data);
	dwarf_cfi_end(cfi);
	return ret;
}

int sfconv_relocate(void *sframe, size_t size, uint64_t bias, uint64_t sframe_addr)
{
	uint8_t *p = sframe;
	uint32_t nfdes, fdeoff, i;
	int64_t delta = (int64_t)(bias - sframe_addr);

	if (size < SFRAME_HDR_SIZE || p[0] != (SFRAME_MAGIC & 0xff) ||
	    p[1] != SFRAME_MAGIC >> 8 || p[2] != SFRAME_VERSION_2 || p[7])
		return -EINVAL;
	nfdes = get_u32(p + 8);
	fdeoff = get_u32(p + 20);
	if ((uint64_t)SFRAME_HDR_SIZE + fdeoff + (uint64_t)nfdes * SFRAME_FDE_SIZE > size)
		return -EINVAL;
	for (i = 0; i < nfdes; i++) {
		uint8_t *f = p + SFRAME_HDR_SIZE + fdeoff + i * SFRAME_FDE_SIZE;
		int64_t v = (int32_t)get_u32(f) + delta;
		uint32_t le;

		if (!fits_s32(v))
			return -ERANGE;
		le = htole32((uint32_t)v);
		memcpy(f, &le, sizeof(le));
	}
	return 0;
}
