// SPDX-License-Identifier: GPL-2.0
/*
 * The CFI reader of sfconv: the DWARF CFI of an x86-64 ELF object, as rows
 * that the SFrame writer (sframe_write.c) turns into a section.
 *
 * The CIEs and FDEs of .eh_frame (the section, or where .eh_frame_hdr
 * points if there are no section headers) are decoded, and the CFA program
 * of each FDE run once from its start, by the kernel's .eh_frame reader
 * (tools/eh-frame/kernel/unwind/eh_frame_reader.c, eh_frame_run() with a
 * row callback): one CFI decoder for the unwinder and the converter. It
 * keeps the rules of the CFA, the return address, FP and SP and hands out
 * a row each time the location advances, so the cost is linear in the
 * size of the CFI (sfconv_stats.cfi_insns counts the instructions run).
 * What it does not take fails the FDE (SFCONV_ERROR). A row fits SFrame v2
 * (and a default FDE of V3) when
 *  - the CFA is SP or FP (DWARF registers 7 and 6) plus an offset,
 *  - the return address (register 16) is saved at CFA - 8, or undefined
 *    (the outermost frame: an FRE without offsets),
 *  - FP is unchanged (no rule: it is callee-saved) or saved at CFA + a
 *    non-zero offset,
 *  - the caller's SP is the CFA (no rule for it, or the CFA's),
 *  - it is not a signal frame.
 * Version 3 also has flexible FDEs, whose rules take the CFA, the return
 * address and FP each from a register (0-15) or the CFA, plus an offset,
 * loaded from there or not: they say the rows whose CFA is another
 * register (ld.so's _dl_runtime_resolve*: %rbx) or loaded (*(reg + k): a
 * realigned stack's DRAP, a signal frame), whose return address or FP is
 * at another CFA offset, at *(reg + k) or in a register. A function with
 * such a row has all its FREs flexible (as gas writes them). FDEs of
 * signal trampolines (CIE augmentation "S") have the signal bit; one whose
 * rules V3 cannot all say becomes an FDE without FREs over the whole
 * function. What neither version says (an undefined FP, another SP, other
 * expressions) is left out.
 *
 * The ELF helpers of sfconv.h (text range, sections, build ID) are here too.
 */
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "cfi_read.h"

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME		0x6474e554
#endif

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

Elf_Scn *sfconv_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *s;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		s = gelf_getshdr(scn, sh) ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
		if (s && !strcmp(s, name))
			return scn;
	}
	return NULL;
}

int sfconv_has_sframe(Elf *elf)
{
	GElf_Phdr ph;

	return !find_phdr(elf, PT_GNU_SFRAME, &ph);
}

/* The ELF file behind @elf (or the image elf_memory() was given), for sfelf */
int sfconv_elf_view(Elf *elf, struct sfelf *e)
{
	size_t size;
	char *image = elf_rawfile(elf, &size);

	return image ? sfelf_from_file(e, image, size) : -EINVAL;
}

int sfconv_build_id(Elf *elf, char *buf, size_t len)
{
	struct sfelf e;

	return sfconv_elf_view(elf, &e) ? -ENOENT : sfelf_build_id(&e, buf, len);
}

/*
 * An object without section headers: .eh_frame from the pointer in
 * .eh_frame_hdr (PT_GNU_EH_FRAME), up to the end of the segment holding it
 */
static int eh_frame_from_hdr(Elf *elf, Elf_Data **data, uint64_t *vaddr)
{
	const uint8_t *h;
	GElf_Phdr hdr, ph;
	uint64_t addr;
	Elf_Data *d;
	size_t i, n;
	int32_t ptr;

	if (find_phdr(elf, PT_GNU_EH_FRAME, &hdr))
		return -ENOENT;
	d = elf_getdata_rawchunk(elf, hdr.p_offset, hdr.p_filesz, ELF_T_BYTE);
	if (!d)
		return -EINVAL;
	/* Version 1, eh_frame_ptr pcrel|sdata4 (what the linkers write) */
	h = d->d_buf;
	if (d->d_size < 8 || h[0] != 1 || h[1] != 0x1b)
		return -ENOTSUP;
	memcpy(&ptr, h + 4, 4);
	addr = hdr.p_vaddr + 4 + ptr;
	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph))
			return -EINVAL;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr ||
		    addr - ph.p_vaddr >= ph.p_filesz)
			continue;
		*data = elf_getdata_rawchunk(elf, ph.p_offset + (addr - ph.p_vaddr),
					     ph.p_filesz - (addr - ph.p_vaddr), ELF_T_BYTE);
		*vaddr = addr;
		return *data ? 0 : -EINVAL;
	}
	return -ENOENT;
}

/* The object's .eh_frame: its section, else what .eh_frame_hdr points to */
int sfconv_find_eh_frame(Elf *elf, Elf_Data **data, uint64_t *vaddr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return eh_frame_from_hdr(elf, data, vaddr);
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".eh_frame"))
			continue;
		*data = elf_rawdata(scn, NULL);
		*vaddr = sh.sh_addr;
		return *data ? 0 : -EINVAL;
	}
	return eh_frame_from_hdr(elf, data, vaddr);
}

int sfconv_cfi_id(Elf *elf, struct sfconv_cfi_id *id)
{
	struct sfelf e;
	int ret = sfconv_elf_view(elf, &e);

	return ret ? ret : sfelf_cfi_id(&e, id, 1);
}

/* The rows of the .eh_frame reader (cfi_read.h) */

static const struct eh_frame_limits cfi_lim = {
	.max_prog = UINT32_MAX, .max_state = EH_FRAME_MAX_STATE,
	.max_expr = 32, .max_aug = 255, .max_fdes = 0,
};

/* The reader's memory: .eh_frame, at cv->hdr.lo */
static int cfi_mem_read(void *ctx, unsigned long addr, void *dst, unsigned int len)
{
	const struct conv *cv = ctx;

	if (addr < cv->hdr.lo || addr > cv->hdr.hi || len > cv->hdr.hi - addr)
		return -EFAULT;
	memcpy(dst, (const uint8_t *)cv->data->d_buf + (addr - cv->hdr.lo), len);
	return 0;
}

/*
 * Room for element @n of @size bytes in @array of *@cap: the array (moved
 * if it grew), or NULL
 */
static void *grow(void *array, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? *cap * 2 : 64;

	if (n < *cap)
		return array;
	array = realloc(array, c * size);
	if (array)
		*cap = c;
	return array;
}

/* Where register rule @rr puts a value, as a flexible rule: false if nowhere */
static bool reg_loc(const struct reg_rule *rr, struct loc *l)
{
	switch (rr->how) {
	case REG_AT_CFA:
		*l = (struct loc){ .set = true, .deref = true, .off = rr->off };
		return fits_s32(rr->off);
	case REG_AT_REG:
	case REG_IS_REG:
		*l = (struct loc){ .set = true, .reg_p = true, .deref = rr->how == REG_AT_REG,
				   .reg = rr->reg, .off = rr->off };
		return true;	/* the offset was checked (breg_expr()) */
	}
	return false;
}

/*
 * Is the caller's SP the CFA, as SFrame has it? Yes without a rule, or with
 * the CFA's own (a signal frame loads both from the sigcontext); not where
 * longjmp and setcontext switch stacks.
 */
static bool sp_is_cfa(const struct state *s)
{
	if (s->sp.how == REG_UNSPEC)
		return true;
	if (s->sp.reg != s->cfa_reg || s->sp.off != s->cfa_off)
		return false;
	return (s->sp.how == REG_AT_REG && s->cfa == CFA_DEREF) ||
	       (s->sp.how == REG_IS_REG && s->cfa == CFA_REG);
}

/* Row @r needs what v2 has not, for @reason: a V3 FDE says it if @v3 */
static int need(struct rule *r, int why, int reason, bool v3)
{
	r->v3 &= v3;
	return why < 0 ? reason : why;
}

/*
 * The rule of one row: -1 if it fits SFrame v2, else an enum sfconv_why
 * (the first reason met); r->v3 says if a V3 FDE can say it all the same
 */
static int classify(const struct state *s, bool signal, struct rule *r)
{
	int why = signal ? SFCONV_SIGNAL : -1;

	memset(r, 0, sizeof(*r));
	r->v3 = true;
	/* Undefined return address: the outermost frame */
	if (s->ra.how == REG_UNDEF) {
		r->outermost = true;
		return why;
	}
	if (!sp_is_cfa(s))
		return need(r, why, SFCONV_SP, false);
	if (s->ra.how != REG_AT_CFA || s->ra.off != -8) {
		r->flex = true;
		why = need(r, why, SFCONV_RA, reg_loc(&s->ra, &r->ra));
	}

	if (s->cfa == CFA_PLT) {
		/* As the linkers write it, in a default FDE only */
		r->plt = true;
		r->plt_push = s->plt_push;
		r->cfa = (struct loc){ .set = true, .reg_p = true, .reg = DWARF_SP,
				       .off = s->cfa_off };
		r->v3 &= !r->flex;
		return s->fp.how == REG_SAME ? why : need(r, why, SFCONV_FP, false);
	}
	r->cfa = (struct loc){ .set = true, .reg_p = true, .deref = s->cfa == CFA_DEREF,
			       .reg = s->cfa_reg, .off = s->cfa_off };
	if ((s->cfa != CFA_REG && s->cfa != CFA_DEREF) || s->cfa_reg >= DWARF_NR_GPR ||
	    !fits_s32(s->cfa_off)) {
		why = need(r, why, SFCONV_CFA, false);
	} else if (s->cfa == CFA_DEREF || (s->cfa_reg != DWARF_SP && s->cfa_reg != DWARF_FP)) {
		r->flex = true;
		why = need(r, why, SFCONV_CFA, true);
	}

	if (s->fp.how == REG_SAME)
		return why;
	if (s->fp.how == REG_AT_CFA && s->fp.off && fits_s32(s->fp.off)) {
		r->fp = (struct loc){ .set = true, .deref = true, .off = s->fp.off };
		return why;
	}
	r->flex = true;
	return need(r, why, SFCONV_FP, reg_loc(&s->fp, &r->fp));
}

/* A register rule of the reader as SFrame's (only registers 0-15 are named) */
static struct reg_rule reg_rule(const struct eh_frame_reg *e, uint8_t unspec)
{
	switch (e->how) {
	case EH_FRAME_RULE_UNSPEC:
		return (struct reg_rule){ .how = unspec };
	case EH_FRAME_RULE_UNDEF:
		return (struct reg_rule){ .how = REG_UNDEF };
	case EH_FRAME_RULE_AT_CFA:
		return (struct reg_rule){ .how = REG_AT_CFA, .off = e->off };
	case EH_FRAME_RULE_AT_REG:
	case EH_FRAME_RULE_VAL_REG:
		if (e->reg >= DWARF_NR_GPR)
			break;
		return (struct reg_rule){ .how = e->how == EH_FRAME_RULE_AT_REG ?
					  REG_AT_REG : REG_IS_REG,
					  .reg = e->reg, .off = e->off };
	}
	return (struct reg_rule){ .how = REG_OTHER };
}

/* A row of the reader as SFrame's rules */
static void row_state(const struct eh_frame_row *row, struct state *s)
{
	const struct eh_frame_cfa *c = &row->cfa;

	memset(s, 0, sizeof(*s));
	/* FP without a rule is unchanged: callee-saved in the x86-64 ABI */
	s->ra = reg_rule(&row->ra, REG_UNSPEC);
	s->fp = reg_rule(&row->fp, REG_SAME);
	s->sp = reg_rule(&row->sp, REG_UNSPEC);
	s->cfa_reg = c->reg;
	s->cfa_off = c->off;
	switch (c->how) {
	case EH_FRAME_CFA_UNSET:
		s->cfa = CFA_NONE;
		break;
	case EH_FRAME_CFA_REG:
		s->cfa = CFA_REG;
		break;
	case EH_FRAME_CFA_DEREF:
		/* Loaded from a register SFrame names, nothing added */
		s->cfa = c->reg < DWARF_NR_GPR && !c->add ? CFA_DEREF : CFA_OTHER;
		break;
	case EH_FRAME_CFA_PLT:
		/* The linkers': SP + off, + 8 from byte @thr of each 16 */
		s->cfa = c->reg == DWARF_SP && !c->ipoff && c->mask == 15 && c->thr < 16 &&
			 c->shift == 3 ? CFA_PLT : CFA_OTHER;
		s->plt_push = c->thr;
		break;
	default:
		s->cfa = CFA_OTHER;
	}
}

/* The rows of one FDE, into cv->rows */
struct rows_run {
	struct conv *cv;
	const struct fde *f;
	uint32_t insns;
};

static int add_row(void *arg, const struct eh_frame_row *row)
{
	struct rows_run *rr = arg;
	struct conv *cv = rr->cv;
	struct row *rows = grow(cv->rows, cv->nrows, &cv->rows_cap, sizeof(*rows));
	struct state s;
	struct row *r;

	if (!rows)
		return -ENOMEM;
	cv->rows = rows;
	r = &rows[cv->nrows++];
	r->start = row->start;
	r->end = row->end;
	row_state(row, &s);
	r->why = classify(&s, row->signal, &r->rule);
	/* PCMASK blocks are from the FDE's start: it must be aligned */
	if (r->rule.plt && (r->start & 15))
		r->why = need(&r->rule, r->why, SFCONV_CFA, false);
	rr->insns = row->insns;
	return 0;
}

/* Does the CIE of @f run (else its FDEs are unreadable)? The last is kept */
static bool cie_runs(struct conv *cv, const struct eh_frame_fde *f)
{
	struct eh_frame_fde cie = *f;

	if (cv->cie_prog == f->cie_prog)
		return cv->cie_ok;
	/* An FDE of no code and no instructions: only the CIE's run */
	cie.prog = cie.prog_end;
	cie.pc_start = cie.pc_end;
	cv->cie_prog = f->cie_prog;
	cv->cie_ok = !eh_frame_run(&cie, 0, add_row, NULL, NULL, &cfi_lim, &cv->mem);
	return cv->cie_ok;
}

int sfconv_read_cfi(struct conv *cv, Elf_Data *d, uint64_t vaddr)
{
	const uint8_t *p = d->d_buf;
	uint64_t off, next;
	uint32_t len, id;
	struct fde *f;

	cv->data = d;
	cv->hdr = (struct eh_frame_hdr){ .lo = vaddr, .hi = vaddr + d->d_size };
	cv->mem = (struct eh_frame_mem){ .read = cfi_mem_read, .ctx = cv };
	for (off = 0; off + 4 <= d->d_size; off = next) {
		memcpy(&len, p + off, 4);
		/* A zero length ends the section; 64-bit lengths are not taken */
		if (!len)
			break;
		next = off + 4 + (uint64_t)len;
		if (len < 4 || len == UINT32_MAX || next > d->d_size) {
			cv->st->unreadable++;
			break;
		}
		memcpy(&id, p + off + 4, 4);
		if (!id)
			continue;	/* a CIE: read with its FDEs */
		f = grow(cv->fdes, cv->nfdes, &cv->fdes_cap, sizeof(*f));
		if (!f)
			return -ENOMEM;
		cv->fdes = f;
		f += cv->nfdes;
		f->addr = vaddr + off;
		if (eh_frame_decode_fde(&cv->hdr, f->addr, &f->ehf, &cfi_lim, &cv->mem) ||
		    !cie_runs(cv, &f->ehf)) {
			cv->st->unreadable++;
			continue;
		}
		f->start = f->ehf.pc_start;
		f->end = f->ehf.pc_end;
		cv->nfdes++;
	}
	return 0;
}

int sfconv_cmp_fde(const void *a, const void *b)
{
	const struct fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int sfconv_fde_rows(struct conv *cv, const struct fde *f)
{
	struct rows_run rr = { .cv = cv, .f = f };
	int ret;

	cv->nrows = 0;
	ret = eh_frame_run(&f->ehf, 0, add_row, &rr, NULL, &cfi_lim, &cv->mem);
	cv->st->cfi_insns += rr.insns;
	return ret == -ENOMEM ? ret : ret ? -EINVAL : 0;
}
