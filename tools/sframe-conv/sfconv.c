// SPDX-License-Identifier: GPL-2.0
/*
 * Convert the DWARF CFI of an x86-64 ELF object into an SFrame section,
 * version 3 (the default) or 2.
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
 * of the text (no SFRAME_F_FDE_FUNC_START_PCREL), for PR_REGISTER_SFRAME
 * with PR_SFRAME_TEXT_RELATIVE: its bytes do not depend on where the
 * object or the section is mapped. For a section to put in the ELF file
 * (struct sfconv_opts): PC-relative starts (FUNC_START_PCREL) for its
 * address there.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
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

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME		0x6474e554
#endif

/* DWARF register numbers on x86-64 */
#define DWARF_FP		6
#define DWARF_SP		7
#define DWARF_RA		16
/* The registers SFrame's flexible rules name: rax .. r15 */
#define DWARF_NR_GPR		16

unsigned int sfconv_max_fres;

const char *const sfconv_why_name[SFCONV_NR_WHY] = {
	[SFCONV_CFA] = "cfa",
	[SFCONV_RA] = "ra",
	[SFCONV_FP] = "fp",
	[SFCONV_SIGNAL] = "signal",
	[SFCONV_SP] = "sp",
	[SFCONV_OVERLAP] = "overlap",
	[SFCONV_ERROR] = "error",
};

/*
 * A value as a V3 flexible rule says it (a control word and an offset):
 * register @reg or the CFA, plus @off, loaded from there if @deref
 */
struct loc {
	bool set;		/* else the default: RA at CFA - 8, FP unchanged */
	bool reg_p;		/* from register @reg, else from the CFA */
	bool deref;
	uint8_t reg;
	int32_t off;
};

/*
 * How to find the caller at the addresses of one row. Version 2 says a
 * CFA of SP or FP (@cfa.reg) plus an offset, the return address at its
 * default place and FP unchanged or at CFA + a non-zero offset.
 */
struct rule {
	struct loc cfa;		/* always from a register */
	struct loc ra;
	struct loc fp;
	bool outermost;
	/* A PLT: CFA = SP + cfa.off, + 8 from byte plt_push of each 16 */
	bool plt;
	uint8_t plt_push;
	bool flex;		/* only a V3 flexible FDE says it */
	bool v3;		/* a V3 FDE says it (flexible or not) */
};

struct row {
	uint64_t start;
	uint64_t end;
	int why;		/* < 0: fits v2, with @rule; else why not */
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

static bool fits_s32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
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
static int find_eh_frame(Elf *elf, Elf_Data **data, uint64_t *vaddr)
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

/*
 * The CFI interpreter. Of all the registers only three matter to SFrame:
 * the CFA's rule, the return address's and FP's.
 */
enum reg_how {
	REG_UNSPEC,		/* no rule given */
	REG_SAME,		/* unchanged */
	REG_UNDEF,		/* undefined */
	REG_AT_CFA,		/* saved at CFA + off */
	REG_AT_REG,		/* saved at register reg + off (DW_CFA_expression) */
	REG_IS_REG,		/* register reg + off (DW_CFA_register, val_expression) */
	REG_OTHER,		/* anything else SFrame cannot say */
};

enum cfa_how {
	CFA_NONE,		/* no rule given */
	CFA_REG,		/* register cfa_reg + cfa_off */
	CFA_DEREF,		/* loaded from register cfa_reg + cfa_off */
	CFA_PLT,		/* the PLT's expression (plt_cfa()) */
	CFA_OTHER,		/* another expression */
};

struct reg_rule {
	uint8_t how;
	uint8_t reg;		/* REG_AT_REG, REG_IS_REG: < DWARF_NR_GPR */
	int64_t off;
};

/* The rules of one row of a CFI table */
struct state {
	uint8_t cfa;
	uint8_t plt_push;
	uint64_t cfa_reg;
	int64_t cfa_off;
	struct reg_rule ra;
	struct reg_rule fp;
	struct reg_rule sp;	/* SFrame's is the CFA (sp_is_cfa()) */
};

/* Before a CIE's instructions: FP is callee-saved in the x86-64 ABI */
static const struct state abi_state = { .fp = { REG_SAME, 0, 0 } };

/* A CIE: what its FDEs need to be read, and its initial rules */
struct cie {
	uint64_t offset;
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra_col;
	size_t fde_aug_size;	/* without 'z' */
	uint8_t fde_enc;	/* DW_EH_PE_* of the FDEs' addresses */
	bool z;
	bool signal;
	bool bad;		/* not understood: its FDEs are unreadable */
	struct state init;
};

/* An FDE: its code and its instructions */
struct fde {
	uint64_t start;
	uint64_t end;
	const uint8_t *insns;
	const uint8_t *insns_end;
	size_t cie;		/* in conv.cies */
};

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

/* What a conversion has read and made so far */
struct conv {
	struct cie *cies;		/* sorted by offset */
	size_t ncies, cies_cap;
	struct fde *fdes;
	size_t nfdes, fdes_cap;
	struct row *rows;		/* of the FDE being converted */
	size_t nrows, rows_cap;
	struct sfconv_stats *st;
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

/*
 * Read every CIE and FDE of .eh_frame (libdw's dwarf_next_cfi()), in the
 * order of the section; an entry libdw cannot read ends it.
 */
static int read_cfi(struct conv *cv, Elf *elf, Elf_Data *d, uint64_t vaddr)
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

/* By start address, then in the order of the section */
static int cmp_fde(const void *a, const void *b)
{
	const struct fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->insns < y->insns ? -1 : x->insns > y->insns;
}

/*
 * The rows of FDE @f, into cv->rows: 0, -EINVAL if the FDE cannot be used
 * at all, or -ENOMEM
 */
static int fde_rows(struct conv *cv, const struct fde *f, const Elf_Data *d,
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

/* The section being written: its FDEs, its FREs, for which version */
struct out {
	struct buf fdes;	/* struct out_fde */
	struct buf fres;	/* the FREs (V3: each FDE's attribute record first) */
	bool v3;
	struct sfconv_stats *st;
};

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
static int emit_fde(struct out *o, const struct row *rows, size_t n, uint64_t start,
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
static int convert_fde(struct out *o, const struct row *rows, size_t n,
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
		return emit_fde(o, NULL, 0, rows[0].start, rows[n - 1].end, true);
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
			ret = emit_fde(o, rows + first, i - first, rows[first].start,
				       rows[i].start, signal);
			if (ret)
				return ret;
			first = i;
			nfres = 1;
		}
		/* The last row of a run of fitting rows: one SFrame FDE */
		if (i + 1 == n || !same_run(o, &rows[i], &rows[i + 1])) {
			ret = emit_fde(o, rows + first, i + 1 - first, rows[first].start,
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
static int assemble(const struct out *o, uint64_t text_vaddr, const struct sfconv_opts *opts,
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
	ret = find_eh_frame(elf, &d, &vaddr);
	if (ret)
		return ret;
	ret = read_cfi(&cv, elf, d, vaddr);
	if (ret)
		goto out;

	/* The FDEs of code in the text, by address; the same start twice: the first */
	if (cv.nfdes)
		qsort(cv.fdes, cv.nfdes, sizeof(*cv.fdes), cmp_fde);
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
		ret = f->end > limit ? -ERANGE : fde_rows(&cv, f, d, vaddr);
		if (ret == -ENOMEM)
			goto out;
		if (ret) {
			why = ret == -ERANGE ? SFCONV_OVERLAP : SFCONV_ERROR;
			st->rows_out[why]++;
			if (row_fn)
				row_fn(row_ctx, f->start, f->start + 1, why);
			/* V3: a signal trampoline's FDE all the same, without FREs */
			ret = 0;
			if (why == SFCONV_ERROR && o.v3 && cv.cies[f->cie].signal)
				ret = emit_fde(&o, NULL, 0, f->start, f->end, true);
			if (ret)
				goto out;
			continue;
		}
		ret = convert_fde(&o, cv.rows, cv.nrows, row_fn, row_ctx);
		if (ret)
			goto out;
	}
	ret = assemble(&o, text_vaddr, opts, sframe, size);
	st->size = *size;
out:
	free(cv.cies);
	free(cv.fdes);
	free(cv.rows);
	free(o.fdes.data);
	free(o.fres.data);
	return ret;
}
