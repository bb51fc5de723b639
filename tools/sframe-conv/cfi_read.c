// SPDX-License-Identifier: GPL-2.0
/*
 * The CFI reader of sfconv: the DWARF CFI of an x86-64 ELF object, as rows
 * that the SFrame writer (sframe_write.c) turns into a section.
 *
 * Every CIE and FDE of .eh_frame is read with libdw's dwarf_next_cfi()
 * (the section, or where .eh_frame_hdr points if there are no section
 * headers), and the CFI program of each FDE is run once, from its start,
 * by the small interpreter below: it keeps the rules of the CFA, the
 * return address and FP (the only ones SFrame has) and records a row each
 * time the location advances, so the cost is linear in the size of the
 * CFI (sfconv_stats.cfi_insns counts the instructions run). A row fits
 * SFrame v2 (and a default FDE of V3) when
 *  - the CFA is SP or FP (DWARF registers 7 and 6) plus an offset,
 *  - the return address (register 16) is saved at CFA - 8, or undefined
 *    (the outermost frame: an FRE without offsets),
 *  - FP is unchanged (same value, or no rule: it is callee-saved) or
 *    saved at CFA + a non-zero offset,
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
 * function. What neither version says (a return address or FP of CFA + k,
 * an undefined FP, another SP, other expressions) is left out.
 *
 * The ELF helpers of sfconv.h (text range, sections, build ID) are here too.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
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
 * A reader of .eh_frame bytes with bounds checks: reading past @end sets
 * @bad and reads zeroes. @base is at address @vaddr (for pc-relative
 * pointers).
 */
struct cursor {
	const uint8_t *p;
	const uint8_t *end;
	const uint8_t *base;
	uint64_t vaddr;
	bool bad;
};

static uint8_t get_u8(struct cursor *c)
{
	if (c->p >= c->end) {
		c->bad = true;
		return 0;
	}
	return *c->p++;
}

/* A little-endian unsigned value of @size bytes */
static uint64_t get_fixed(struct cursor *c, unsigned int size)
{
	uint64_t v = 0;
	unsigned int i;

	if ((size_t)(c->end - c->p) < size) {
		c->bad = true;
		c->p = c->end;
		return 0;
	}
	for (i = 0; i < size; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += size;
	return v;
}

/* An unsigned or (@sign) signed LEB128 value; bits past 64 are dropped */
static uint64_t get_leb(struct cursor *c, bool sign)
{
	unsigned int shift = 0;
	uint64_t v = 0;
	uint8_t b;

	do {
		b = get_u8(c);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~0ULL << shift;
	return v;
}

static uint64_t get_uleb(struct cursor *c)
{
	return get_leb(c, false);
}

static int64_t get_sleb(struct cursor *c)
{
	return (int64_t)get_leb(c, true);
}

/*
 * A pointer encoded as @enc (DW_EH_PE_*): absolute, relative to where it
 * is (pcrel) or to @datarel (if not 0). Anything else is not understood.
 */
static uint64_t get_encoded(struct cursor *c, uint8_t enc, uint64_t datarel)
{
	uint64_t here = c->vaddr + (c->p - c->base), v;

	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		v = get_fixed(c, 8);
		break;
	case DW_EH_PE_udata2:
		v = get_fixed(c, 2);
		break;
	case DW_EH_PE_sdata2:
		v = (int16_t)get_fixed(c, 2);
		break;
	case DW_EH_PE_udata4:
		v = get_fixed(c, 4);
		break;
	case DW_EH_PE_sdata4:
		v = (int32_t)get_fixed(c, 4);
		break;
	case DW_EH_PE_uleb128:
		v = get_uleb(c);
		break;
	case DW_EH_PE_sleb128:
		v = get_sleb(c);
		break;
	default:
		c->bad = true;
		return 0;
	}
	switch (enc & 0x70) {
	case DW_EH_PE_absptr:
		return v;
	case DW_EH_PE_pcrel:
		return v + here;
	case DW_EH_PE_datarel:
		if (datarel)
			return v + datarel;
		break;
	}
	c->bad = true;
	return 0;
}

/* A DWARF block (ULEB128 length, bytes): a cursor over it, skipped in @c */
static struct cursor get_block(struct cursor *c)
{
	uint64_t len = get_uleb(c);
	struct cursor b = *c;

	if (len > (uint64_t)(c->end - c->p)) {
		c->bad = b.bad = true;
		len = 0;
	}
	b.end = b.p + len;
	c->p += len;
	return b;
}

/*
 * An object without section headers: .eh_frame from the pointer in
 * .eh_frame_hdr (PT_GNU_EH_FRAME), up to the end of the segment holding it
 */
static int eh_frame_from_hdr(Elf *elf, Elf_Data **data, uint64_t *vaddr)
{
	GElf_Phdr hdr, ph;
	struct cursor c;
	uint64_t addr;
	Elf_Data *d;
	size_t i, n;
	uint8_t enc;

	if (find_phdr(elf, PT_GNU_EH_FRAME, &hdr))
		return -ENOENT;
	d = elf_getdata_rawchunk(elf, hdr.p_offset, hdr.p_filesz, ELF_T_BYTE);
	if (!d)
		return -EINVAL;
	c = (struct cursor){ d->d_buf, (uint8_t *)d->d_buf + d->d_size, d->d_buf,
			     hdr.p_vaddr, false };
	if (get_u8(&c) != 1)	/* version */
		return -ENOTSUP;
	enc = get_u8(&c);
	get_fixed(&c, 2);	/* the search table's encodings */
	addr = get_encoded(&c, enc, hdr.p_vaddr);
	if (c.bad || elf_getphdrnum(elf, &n))
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

/* The CFI interpreter (the rules it keeps: cfi_read.h) */

/* Before a CIE's instructions: FP is callee-saved in the x86-64 ABI */
static const struct state abi_state = { .fp = { REG_SAME, 0, 0 } };

/* At most this many states are remembered (DW_CFA_remember_state) */
#define CFI_STACK	32

/* One run of the interpreter over a CIE's or an FDE's instructions */
struct interp {
	const struct cie *cie;
	const struct state *init;	/* for DW_CFA_restore */
	struct state s;
	struct state stack[CFI_STACK];
	unsigned int depth;
	bool fde;			/* else a CIE's initial instructions */
	uint64_t loc;			/* where the current row starts */
	uint64_t end;			/* the FDE's end */
};

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

/*
 * The CFA of the 16-byte entries of a PLT, which push an index at byte
 * @push and jump: DW_OP_breg7 OFF; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and;
 * DW_OP_lit<push>; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus, that is
 * SP + OFF + ((ip & 15) >= push ? 8 : 0).
 */
static bool plt_cfa(struct cursor e, struct state *s)
{
	int64_t off;
	uint8_t push;

	if (get_u8(&e) != DW_OP_breg7)
		return false;
	off = get_sleb(&e);
	if (get_u8(&e) != DW_OP_breg16 || get_sleb(&e) || get_u8(&e) != DW_OP_lit15 ||
	    get_u8(&e) != DW_OP_and)
		return false;
	push = get_u8(&e) - DW_OP_lit0;
	if (push > 15 || get_u8(&e) != DW_OP_ge || get_u8(&e) != DW_OP_lit3 ||
	    get_u8(&e) != DW_OP_shl || get_u8(&e) != DW_OP_plus ||
	    e.bad || e.p != e.end || !fits_s32(off))
		return false;
	s->cfa = CFA_PLT;
	s->cfa_off = off;
	s->plt_push = push;
	return true;
}

/*
 * A DWARF expression DW_OP_bregN OFF (or DW_OP_bregx N OFF), followed by
 * DW_OP_deref if @deref: true, with *@reg and *@off, if it is that, N is a
 * register SFrame names and OFF fits 32 bits
 */
static bool breg_expr(struct cursor e, bool deref, uint8_t *reg, int64_t *off)
{
	uint8_t op = get_u8(&e);
	uint64_t r;

	if (op >= DW_OP_breg0 && op <= DW_OP_breg31)
		r = op - DW_OP_breg0;
	else if (op == DW_OP_bregx)
		r = get_uleb(&e);
	else
		return false;
	*off = get_sleb(&e);
	if (deref && get_u8(&e) != DW_OP_deref)
		return false;
	*reg = r;
	return !e.bad && e.p == e.end && r < DWARF_NR_GPR && fits_s32(*off);
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
static int classify(const struct state *s, const struct cie *cie, struct rule *r)
{
	int why = cie->signal ? SFCONV_SIGNAL : -1;

	memset(r, 0, sizeof(*r));
	r->v3 = true;
	if (cie->ra_col != DWARF_RA)
		return need(r, why, SFCONV_RA, false);
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

/* The row from in->loc to @to ends: record it */
static int add_row(struct conv *cv, const struct interp *in, uint64_t to)
{
	struct row *rows = grow(cv->rows, cv->nrows, &cv->rows_cap, sizeof(*rows));
	struct row *r;

	if (!rows)
		return -ENOMEM;
	cv->rows = rows;
	r = &rows[cv->nrows++];
	r->start = in->loc;
	r->end = to;
	r->why = classify(&in->s, in->cie, &r->rule);
	/* PCMASK blocks are from the FDE's start: it must be aligned */
	if (r->rule.plt && (r->start & 15))
		r->why = need(&r->rule, r->why, SFCONV_CFA, false);
	return 0;
}

/* Move to @to (clamped to the FDE's end): the current row ends there */
static int advance_to(struct conv *cv, struct interp *in, uint64_t to)
{
	int ret;

	if (!in->fde || to < in->loc)
		return -EINVAL;
	if (to > in->end)
		to = in->end;
	if (to == in->loc)
		return 0;
	ret = add_row(cv, in, to);
	in->loc = to;
	return ret;
}

static int advance(struct conv *cv, struct interp *in, uint64_t delta)
{
	uint64_t to;

	if (__builtin_mul_overflow(delta, in->cie->code_align, &delta) ||
	    __builtin_add_overflow(in->loc, delta, &to))
		to = UINT64_MAX;
	return advance_to(cv, in, to);
}

/* The rule of register @reg, from register @base (only RA and FP are kept) */
static void set_reg_from(struct state *s, uint64_t reg, enum reg_how how, uint8_t base,
			 int64_t off)
{
	struct reg_rule r = { how, base, off };

	if (reg == DWARF_RA)
		s->ra = r;
	else if (reg == DWARF_FP)
		s->fp = r;
	else if (reg == DWARF_SP)
		s->sp = r;
}

static void set_reg(struct state *s, uint64_t reg, enum reg_how how, int64_t off)
{
	set_reg_from(s, reg, how, 0, off);
}

/* Saved at CFA + @factored * data alignment factor */
static void set_saved(struct state *s, const struct cie *cie, uint64_t reg,
		      int64_t factored)
{
	int64_t off;

	if (__builtin_mul_overflow(factored, cie->data_align, &off))
		set_reg(s, reg, REG_OTHER, 0);
	else
		set_reg(s, reg, REG_AT_CFA, off);
}

static void restore_reg(struct interp *in, uint64_t reg)
{
	if (reg == DWARF_RA)
		in->s.ra = in->init->ra;
	else if (reg == DWARF_FP)
		in->s.fp = in->init->fp;
	else if (reg == DWARF_SP)
		in->s.sp = in->init->sp;
}

/* CFA = @reg + @off (@ok: the offset did not overflow) */
static void set_cfa(struct state *s, uint64_t reg, int64_t off, bool ok)
{
	s->cfa = ok ? CFA_REG : CFA_OTHER;
	s->cfa_reg = reg;
	s->cfa_off = off;
}

/* Only a CFA of a register plus an offset can change one of the two */
static void set_cfa_part(struct state *s, uint64_t reg, int64_t off, bool ok)
{
	if (s->cfa == CFA_REG)
		set_cfa(s, reg, off, ok);
	else
		s->cfa = CFA_OTHER;
}

static bool scale(int64_t v, int64_t factor, int64_t *out)
{
	return !__builtin_mul_overflow(v, factor, out);
}

/* An unsigned LEB128 operand as a signed one: false if it is too large */
static bool uleb_s64(struct cursor *c, int64_t *v)
{
	uint64_t u = get_uleb(c);

	*v = (int64_t)u;
	return u <= INT64_MAX;
}

/*
 * Run the instructions at @c: an FDE's from its start, recording one row
 * per address range with the same rules (rows end where the location
 * advances), or a CIE's initial instructions. Each instruction is read
 * once. Returns 0, or -EINVAL for instructions not understood or
 * malformed (then none of the FDE's rows can be trusted).
 */
static int run_cfi(struct conv *cv, struct interp *in, struct cursor *c)
{
	const struct cie *cie = in->cie;
	struct state *s = &in->s;
	struct cursor expr;
	uint64_t reg, base;
	int64_t off;
	int ret = 0;
	uint8_t op, r;
	bool ok;

	while (!ret && c->p < c->end && (!in->fde || in->loc < in->end)) {
		op = get_u8(c);
		cv->st->cfi_insns++;
		switch (op & 0xc0) {
		case DW_CFA_advance_loc:
			ret = advance(cv, in, op & 0x3f);
			continue;
		case DW_CFA_offset:
			ok = uleb_s64(c, &off);
			if (ok)
				set_saved(s, cie, op & 0x3f, off);
			else
				set_reg(s, op & 0x3f, REG_OTHER, 0);
			continue;
		case DW_CFA_restore:
			restore_reg(in, op & 0x3f);
			continue;
		}
		switch (op) {
		case DW_CFA_nop:
			break;
		case DW_CFA_set_loc:
			ret = advance_to(cv, in, get_encoded(c, cie->fde_enc, 0));
			break;
		case DW_CFA_advance_loc1:
			ret = advance(cv, in, get_fixed(c, 1));
			break;
		case DW_CFA_advance_loc2:
			ret = advance(cv, in, get_fixed(c, 2));
			break;
		case DW_CFA_advance_loc4:
			ret = advance(cv, in, get_fixed(c, 4));
			break;
		case DW_CFA_offset_extended:
			reg = get_uleb(c);
			if (uleb_s64(c, &off))
				set_saved(s, cie, reg, off);
			else
				set_reg(s, reg, REG_OTHER, 0);
			break;
		case DW_CFA_offset_extended_sf:
			reg = get_uleb(c);
			set_saved(s, cie, reg, get_sleb(c));
			break;
		case DW_CFA_GNU_negative_offset_extended:
			reg = get_uleb(c);
			if (uleb_s64(c, &off))
				set_saved(s, cie, reg, -off);
			else
				set_reg(s, reg, REG_OTHER, 0);
			break;
		case DW_CFA_restore_extended:
			restore_reg(in, get_uleb(c));
			break;
		case DW_CFA_undefined:
			set_reg(s, get_uleb(c), REG_UNDEF, 0);
			break;
		case DW_CFA_same_value:
			set_reg(s, get_uleb(c), REG_SAME, 0);
			break;
		case DW_CFA_register:
			/* In another register: one SFrame names, or not said */
			reg = get_uleb(c);
			base = get_uleb(c);
			if (base < DWARF_NR_GPR)
				set_reg_from(s, reg, REG_IS_REG, base, 0);
			else
				set_reg(s, reg, REG_OTHER, 0);
			break;
		case DW_CFA_val_offset:
		case DW_CFA_val_offset_sf:
			reg = get_uleb(c);
			get_uleb(c);
			set_reg(s, reg, REG_OTHER, 0);
			break;
		case DW_CFA_expression:
		case DW_CFA_val_expression:
			/* Only at (or the value of) a register plus an offset */
			reg = get_uleb(c);
			expr = get_block(c);
			if (breg_expr(expr, false, &r, &off))
				set_reg_from(s, reg, op == DW_CFA_expression ? REG_AT_REG :
						     REG_IS_REG, r, off);
			else
				set_reg(s, reg, REG_OTHER, 0);
			break;
		case DW_CFA_remember_state:
			if (in->depth == CFI_STACK)
				return -EINVAL;
			in->stack[in->depth++] = *s;
			break;
		case DW_CFA_restore_state:
			if (!in->depth)
				return -EINVAL;
			*s = in->stack[--in->depth];
			break;
		case DW_CFA_def_cfa:
			reg = get_uleb(c);
			ok = uleb_s64(c, &off);
			set_cfa(s, reg, off, ok);
			break;
		case DW_CFA_def_cfa_sf:
			reg = get_uleb(c);
			ok = scale(get_sleb(c), cie->data_align, &off);
			set_cfa(s, reg, off, ok);
			break;
		case DW_CFA_def_cfa_register:
			set_cfa_part(s, get_uleb(c), s->cfa_off, true);
			break;
		case DW_CFA_def_cfa_offset:
			ok = uleb_s64(c, &off);
			set_cfa_part(s, s->cfa_reg, off, ok);
			break;
		case DW_CFA_def_cfa_offset_sf:
			ok = scale(get_sleb(c), cie->data_align, &off);
			set_cfa_part(s, s->cfa_reg, off, ok);
			break;
		case DW_CFA_def_cfa_expression:
			/* The PLT's, or loaded from a register plus an offset */
			expr = get_block(c);
			if (plt_cfa(expr, s))
				break;
			s->cfa = CFA_OTHER;
			if (breg_expr(expr, true, &r, &off)) {
				s->cfa = CFA_DEREF;
				s->cfa_reg = r;
				s->cfa_off = off;
			}
			break;
		case DW_CFA_GNU_args_size:
			get_uleb(c);
			break;
		default:
			return -EINVAL;
		}
	}
	if (c->bad)
		return -EINVAL;
	/* The last row: up to the end of the FDE */
	if (!ret && in->fde && in->loc < in->end)
		ret = add_row(cv, in, in->end);
	return ret;
}

/* The augmentation of CIE @e: the FDEs' address encoding, signal frames */
static bool read_augmentation(const Dwarf_CIE *e, struct cie *cie)
{
	const char *a = e->augmentation;
	struct cursor c = { 0 };

	cie->fde_enc = DW_EH_PE_absptr;
	cie->z = *a == 'z';
	/* Without 'z' only an empty augmentation is understood */
	if (!cie->z)
		return !*a;
	c.p = c.base = e->augmentation_data;
	c.end = c.p + e->augmentation_data_size;
	for (a++; *a && !c.bad; a++) {
		switch (*a) {
		case 'L':	/* the LSDA's encoding */
			get_u8(&c);
			break;
		case 'P':	/* the personality routine: its encoding, address */
			get_encoded(&c, get_u8(&c) & 0x0f, 0);
			break;
		case 'R':
			cie->fde_enc = get_u8(&c);
			break;
		case 'S':
			cie->signal = true;
			break;
		default:
			c.bad = true;
		}
	}
	return !c.bad;
}

/* A CIE: its augmentation and the rules its initial instructions set */
static int add_cie(struct conv *cv, uint64_t offset, const Dwarf_CIE *e)
{
	struct cie *cies = grow(cv->cies, cv->ncies, &cv->cies_cap, sizeof(*cies));
	struct cursor c = { e->initial_instructions, e->initial_instructions_end,
			    e->initial_instructions, 0, false };
	struct interp in = { .init = &abi_state, .s = abi_state };
	struct cie *cie;

	if (!cies)
		return -ENOMEM;
	cv->cies = cies;
	cie = &cies[cv->ncies++];
	memset(cie, 0, sizeof(*cie));
	cie->offset = offset;
	cie->code_align = e->code_alignment_factor;
	cie->data_align = e->data_alignment_factor;
	cie->ra_col = e->return_address_register;
	cie->fde_aug_size = e->fde_augmentation_data_size;
	in.cie = cie;
	cie->bad = !read_augmentation(e, cie) || run_cfi(cv, &in, &c);
	cie->init = in.s;
	return 0;
}

/* The CIE at @offset, or NULL */
static const struct cie *find_cie(const struct conv *cv, uint64_t offset)
{
	size_t lo = 0, hi = cv->ncies;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cv->cies[mid].offset == offset)
			return &cv->cies[mid];
		if (cv->cies[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* An FDE: its code range and where its instructions are */
static int add_fde(struct conv *cv, const Dwarf_FDE *e, const Elf_Data *d, uint64_t vaddr)
{
	const struct cie *cie = find_cie(cv, e->CIE_pointer);
	struct cursor c = { e->start, e->end, d->d_buf, vaddr, false };
	uint64_t start, range;
	struct fde *f;

	if (!cie || cie->bad) {
		cv->st->unreadable++;
		return 0;
	}
	start = get_encoded(&c, cie->fde_enc, 0);
	range = get_encoded(&c, cie->fde_enc & 0x0f, 0);
	if (cie->z)
		get_block(&c);
	else if (cie->fde_aug_size <= (size_t)(c.end - c.p))
		c.p += cie->fde_aug_size;
	else
		c.bad = true;
	if (c.bad || start + range < start) {
		cv->st->unreadable++;
		return 0;
	}
	f = grow(cv->fdes, cv->nfdes, &cv->fdes_cap, sizeof(*f));
	if (!f)
		return -ENOMEM;
	cv->fdes = f;
	f[cv->nfdes++] = (struct fde){ start, start + range, c.p, c.end, cie - cv->cies };
	return 0;
}

int sfconv_read_cfi(struct conv *cv, Elf *elf, Elf_Data *d, uint64_t vaddr)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;
	int ret;

	if (!ident)
		return -EINVAL;
	while (off < d->d_size) {
		ret = dwarf_next_cfi(ident, d, true, off, &next, &e);
		if (ret > 0)
			break;
		if (ret < 0 || next <= off) {
			cv->st->unreadable++;
			break;
		}
		if (dwarf_cfi_cie_p(&e))
			ret = add_cie(cv, off, &e.cie);
		else
			ret = add_fde(cv, &e.fde, d, vaddr);
		if (ret)
			return ret;
		off = next;
	}
	return 0;
}

int sfconv_cmp_fde(const void *a, const void *b)
{
	const struct fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->insns < y->insns ? -1 : x->insns > y->insns;
}

int sfconv_fde_rows(struct conv *cv, const struct fde *f, const Elf_Data *d,
		    uint64_t vaddr)
{
	const struct cie *cie = &cv->cies[f->cie];
	struct interp in = {
		.cie = cie, .init = &cie->init, .s = cie->init, .fde = true,
		.loc = f->start, .end = f->end,
	};
	struct cursor c = { f->insns, f->insns_end, d->d_buf, vaddr, false };

	cv->nrows = 0;
	return run_cfi(cv, &in, &c);
}
