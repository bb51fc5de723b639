// SPDX-License-Identifier: GPL-2.0
/*
 * .eh_frame reader core for x86-64: .eh_frame_hdr binary search, CIE and
 * FDE decoding, the CFA program interpreter and the evaluation of a row.
 *
 * The sections are untrusted user memory, read through struct
 * eh_frame_mem in chunks of at most EHF_CHUNK bytes. Every loop is bounded:
 * the table search by 32 steps, a CFA program by lim->max_prog bytes (each
 * instruction takes one at least), an expression by lim->max_expr bytes and
 * EH_FRAME_EXPR_DEPTH values, LEB128 numbers by 10 bytes, the remembered
 * rows by lim->max_state.
 *
 * One interpreter serves both users: eh_frame_run() with a callback emits
 * every row of an FDE (a converter), without one it stops at the row of a
 * pc (an unwinder).
 */
#include <linux/eh_frame_reader.h>

#define EHF_CHUNK	64
#define EHF_LEB_MAX	10
#define EHF_U32_MAX	0xffffffffULL
#define EHF_ALIGN_MAX	0xffff	/* |code and data alignment factors| */
#define EHF_AUG_STR_MAX	8	/* augmentation string, its NUL included */

/* Pointer encodings (DW_EH_PE_*) */
#define PE_ABSPTR	0x00
#define PE_ULEB128	0x01
#define PE_UDATA2	0x02
#define PE_UDATA4	0x03
#define PE_UDATA8	0x04
#define PE_SLEB128	0x09
#define PE_SDATA2	0x0a
#define PE_SDATA4	0x0b
#define PE_SDATA8	0x0c
#define PE_PCREL	0x10
#define PE_DATAREL	0x30
#define PE_INDIRECT	0x80
#define PE_OMIT		0xff

/* A window on memory [@addr + @pos, @end), read EHF_CHUNK bytes at a time */
struct ehf_cur {
	unsigned long addr;	/* of buf[0] */
	unsigned long end;
	unsigned int pos;
	unsigned int len;
	const struct eh_frame_mem *mem;
	u8 buf[EHF_CHUNK];
};

static void cur_init(struct ehf_cur *c, unsigned long addr, unsigned long end,
		     const struct eh_frame_mem *mem)
{
	c->addr = addr;
	c->end = end;
	c->pos = 0;
	c->len = 0;
	c->mem = mem;
}

static unsigned long cur_at(const struct ehf_cur *c)
{
	return c->addr + c->pos;
}

static int get_u8(struct ehf_cur *c, u8 *v)
{
	if (c->pos == c->len) {
		unsigned long left;
		int ret;

		c->addr += c->len;
		c->pos = 0;
		c->len = 0;
		if (c->addr >= c->end)
			return -EINVAL;
		left = c->end - c->addr;
		c->len = left < EHF_CHUNK ? left : EHF_CHUNK;
		ret = c->mem->read(c->mem->ctx, c->addr, c->buf, c->len);
		if (ret) {
			c->len = 0;
			return ret;
		}
	}
	*v = c->buf[c->pos++];
	return 0;
}

/* Go to @at, at most the end: the next read starts there */
static int seek(struct ehf_cur *c, unsigned long at)
{
	if (at > c->end)
		return -EINVAL;
	c->addr = at;
	c->pos = 0;
	c->len = 0;
	return 0;
}

/* A little-endian number of @n <= 8 bytes, sign-extended if @sign */
static int get_le(struct ehf_cur *c, unsigned int n, bool sign, u64 *v)
{
	unsigned int i;
	u8 b = 0;
	int ret;

	*v = 0;
	for (i = 0; i < n; i++) {
		ret = get_u8(c, &b);
		if (ret)
			return ret;
		*v |= (u64)b << (8 * i);
	}
	if (sign && n < 8 && (b & 0x80))
		*v |= ~0ULL << (8 * n);
	return 0;
}

static int get_u32(struct ehf_cur *c, u32 *v)
{
	u64 x;
	int ret = get_le(c, 4, false, &x);

	*v = x;
	return ret;
}

/*
 * LEB128 of at most EHF_LEB_MAX bytes (bits past the 64th are dropped);
 * the value must fit 32 bits
 */
static int get_leb(struct ehf_cur *c, bool sign, s64 *v)
{
	unsigned int shift = 0, i;
	u64 x = 0;
	u8 b;
	int ret;

	for (i = 0; i < EHF_LEB_MAX; i++) {
		ret = get_u8(c, &b);
		if (ret)
			return ret;
		if (shift < 64)
			x |= (u64)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (i == EHF_LEB_MAX)
		return -EINVAL;
	if (sign && shift < 64 && (b & 0x40))
		x |= ~0ULL << shift;
	*v = (s64)x;
	if (sign ? *v < -(s64)EHF_U32_MAX / 2 - 1 || *v > (s64)EHF_U32_MAX / 2
		 : x > EHF_U32_MAX)
		return -EINVAL;
	return 0;
}

static int get_uleb(struct ehf_cur *c, u32 *v)
{
	s64 x;
	int ret = get_leb(c, false, &x);

	*v = x;
	return ret;
}

static int get_sleb(struct ehf_cur *c, s32 *v)
{
	s64 x;
	int ret = get_leb(c, true, &x);

	*v = x;
	return ret;
}

/*
 * A pointer in encoding @enc: absolute, or relative to its own place
 * (PE_PCREL) or to @data (PE_DATAREL, only if @data). Indirect pointers
 * are only skipped (@v NULL).
 */
static int get_ptr(struct ehf_cur *c, u8 enc, unsigned long data, u64 *v)
{
	static const u8 size[16] = {
		[PE_ABSPTR] = 8, [PE_UDATA2] = 2, [PE_UDATA4] = 4, [PE_UDATA8] = 8,
		[PE_SDATA2] = 2, [PE_SDATA4] = 4, [PE_SDATA8] = 8,
	};
	unsigned long base = 0, at = cur_at(c);
	u8 fmt = enc & 0x0f;
	s64 leb;
	u64 x;
	int ret;

	switch (enc & 0x70) {
	case 0:
		break;
	case PE_PCREL:
		base = at;
		break;
	case PE_DATAREL:
		if (!data)
			return -EOPNOTSUPP;
		base = data;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if ((enc & PE_INDIRECT) && v)
		return -EOPNOTSUPP;
	if (fmt == PE_ULEB128 || fmt == PE_SLEB128) {
		ret = get_leb(c, fmt == PE_SLEB128, &leb);
		x = leb;
	} else if (size[fmt]) {
		ret = get_le(c, size[fmt], fmt >= PE_SLEB128, &x);
	} else {
		return -EOPNOTSUPP;
	}
	if (v)
		*v = base + x;
	return ret;
}

/*
 * The entry (CIE or FDE) at @addr: its bounds [@addr, *@end) inside
 * [lo, hi) and its id field, the cursor just past that
 */
static int get_entry(struct ehf_cur *c, const struct eh_frame_hdr *hdr,
		     unsigned long addr, u32 *id,
		     const struct eh_frame_mem *mem)
{
	u32 len;
	int ret;

	if (addr < hdr->lo || addr >= hdr->hi)
		return -EINVAL;
	cur_init(c, addr, hdr->hi, mem);
	ret = get_u32(c, &len);
	if (ret)
		return ret;
	/* 0 ends the section; 0xffffffff is a 64-bit length, never emitted */
	if (len < 4 || len == 0xffffffff || len > hdr->hi - addr - 4)
		return -EINVAL;
	c->end = addr + 4 + len;
	return get_u32(c, id);
}

/*
 * The augmentation data's length (a "z" augmentation): within the limit and
 * the entry; the cursor at the data, *@n its length
 */
static int get_aug_len(struct ehf_cur *c, const struct eh_frame_limits *lim,
		       u32 *n)
{
	int ret = get_uleb(c, n);

	if (ret)
		return ret;
	if (*n > lim->max_aug)
		return -E2BIG;
	if (*n > c->end - cur_at(c))
		return -EINVAL;
	return 0;
}

/* Decode the CIE at @addr into @fde; *@enc: the FDEs' pointer encoding */
static int decode_cie(const struct eh_frame_hdr *hdr, unsigned long addr,
		      struct eh_frame_fde *fde, u8 *enc, bool *z,
		      const struct eh_frame_limits *lim,
		      const struct eh_frame_mem *mem)
{
	char aug[EHF_AUG_STR_MAX];
	unsigned long aug_end;
	struct ehf_cur c;
	u32 id, n, i;
	u8 ver, r, p;
	s32 daf;
	int ret;

	ret = get_entry(&c, hdr, addr, &id, mem);
	if (!ret && id)
		ret = -EINVAL;
	if (!ret)
		ret = get_u8(&c, &ver);
	if (ret)
		return ret;
	if (ver != 1 && ver != 3)
		return -EOPNOTSUPP;
	for (i = 0; i < EHF_AUG_STR_MAX; i++) {
		ret = get_u8(&c, (u8 *)&aug[i]);
		if (ret)
			return ret;
		if (!aug[i])
			break;
	}
	if (i == EHF_AUG_STR_MAX)
		return -EOPNOTSUPP;
	*z = aug[0] == 'z';
	if (aug[0] && !*z)
		return -EOPNOTSUPP;
	ret = get_uleb(&c, &fde->code_align);
	if (!ret)
		ret = get_sleb(&c, &daf);
	if (ret)
		return ret;
	if (!fde->code_align || fde->code_align > EHF_ALIGN_MAX ||
	    daf < -EHF_ALIGN_MAX || daf > EHF_ALIGN_MAX)
		return -EOPNOTSUPP;
	fde->data_align = daf;
	if (ver == 1) {
		ret = get_u8(&c, &r);
		fde->ra_col = r;
	} else {
		ret = get_uleb(&c, &fde->ra_col);
	}
	if (ret)
		return ret;
	/* The return address is not where FP or SP are */
	if (fde->ra_col == EH_FRAME_REG_FP || fde->ra_col == EH_FRAME_REG_SP)
		return -EOPNOTSUPP;
	*enc = PE_ABSPTR;
	fde->signal = false;
	aug_end = cur_at(&c);
	if (*z) {
		ret = get_aug_len(&c, lim, &n);
		if (ret)
			return ret;
		aug_end = cur_at(&c) + n;
	}
	for (i = 1; *z && aug[i]; i++) {
		switch (aug[i]) {
		case 'R':
			ret = get_u8(&c, enc);
			break;
		case 'P':
			ret = get_u8(&c, &p);
			if (!ret)
				ret = get_ptr(&c, p, 0, NULL);
			break;
		case 'L':
			ret = get_u8(&c, &p);
			break;
		case 'S':
			fde->signal = true;
			break;
		default:
			return -EOPNOTSUPP;
		}
		if (ret)
			return ret;
	}
	if (cur_at(&c) > aug_end)
		return -EINVAL;
	fde->cie_prog = aug_end;
	fde->cie_prog_end = c.end;
	if (c.end - aug_end > lim->max_prog)
		return -E2BIG;
	return 0;
}

/**
 * eh_frame_decode_fde - decode the FDE at @addr and its CIE
 * @hdr: the section (its @lo and @hi bound every read)
 * @addr: address of the FDE's length field
 * @fde: filled on success
 * @lim: the bounds
 * @mem: the memory reader
 *
 * Context: where @mem->read may be called (in the kernel: task context,
 *	user memory may fault in).
 * Return: 0; -EINVAL for a malformed entry, -EOPNOTSUPP for one in a form
 * not taken, -E2BIG over a bound of @lim, or the error of @mem->read.
 */
int eh_frame_decode_fde(const struct eh_frame_hdr *hdr, unsigned long addr,
			struct eh_frame_fde *fde,
			const struct eh_frame_limits *lim,
			const struct eh_frame_mem *mem)
{
	unsigned long at;
	struct ehf_cur c;
	u64 start, range;
	u32 id, n;
	bool z;
	u8 enc;
	int ret;

	ret = get_entry(&c, hdr, addr, &id, mem);
	if (ret)
		return ret;
	/* The id: how far back from itself its CIE is */
	at = cur_at(&c) - 4;
	if (!id || id > at - hdr->lo)
		return -EINVAL;
	ret = decode_cie(hdr, at - id, fde, &enc, &z, lim, mem);
	if (!ret)
		ret = get_ptr(&c, enc, 0, &start);
	if (!ret)
		ret = get_ptr(&c, enc & 0x0f, 0, &range);
	if (ret)
		return ret;
	if (start + range < start)
		return -EINVAL;
	fde->pc_start = start;
	fde->pc_end = start + range;
	if (z) {
		ret = get_aug_len(&c, lim, &n);
		if (ret)
			return ret;
		seek(&c, cur_at(&c) + n);
	}
	fde->prog = cur_at(&c);
	fde->prog_end = c.end;
	if (fde->prog_end - fde->prog > lim->max_prog)
		return -E2BIG;
	return 0;
}

/**
 * eh_frame_hdr_init - check a .eh_frame_hdr section
 * @hdr: filled on success
 * @start: address of the section
 * @size: its size
 * @lo: lowest address of the CIEs and FDEs
 * @hi: end (exclusive) of the memory of the CIEs and FDEs (the mapping)
 * @lim: the bounds
 * @mem: the memory reader
 *
 * Only a table of DW_EH_PE_datarel|DW_EH_PE_sdata4 entries is taken (the
 * one encoding linkers emit).
 *
 * Context: where @mem->read may be called (in the kernel: task context,
 *	user memory may fault in).
 * Return: 0; -ENOENT without a table, -EINVAL for a malformed section,
 * -EOPNOTSUPP for another table encoding, -E2BIG for more entries than
 * @lim->max_fdes, or the error of @mem->read.
 */
int eh_frame_hdr_init(struct eh_frame_hdr *hdr, unsigned long start,
		      unsigned long size, unsigned long lo, unsigned long hi,
		      const struct eh_frame_limits *lim,
		      const struct eh_frame_mem *mem)
{
	u8 ver, ptr_enc, count_enc, table_enc;
	struct ehf_cur c;
	u64 count;
	int ret;

	if (start + size < start || lo >= hi)
		return -EINVAL;
	cur_init(&c, start, start + size, mem);
	ret = get_u8(&c, &ver);
	if (!ret)
		ret = get_u8(&c, &ptr_enc);
	if (!ret)
		ret = get_u8(&c, &count_enc);
	if (!ret)
		ret = get_u8(&c, &table_enc);
	if (ret)
		return ret;
	if (ver != 1)
		return -EOPNOTSUPP;
	if (count_enc == PE_OMIT || table_enc == PE_OMIT)
		return -ENOENT;
	if (table_enc != (PE_DATAREL | PE_SDATA4) || (count_enc & 0x70))
		return -EOPNOTSUPP;
	if (ptr_enc != PE_OMIT)
		ret = get_ptr(&c, ptr_enc, start, NULL);
	if (!ret)
		ret = get_ptr(&c, count_enc, 0, &count);
	if (ret)
		return ret;
	if (count > lim->max_fdes)
		return -E2BIG;
	if (count * 8 > c.end - cur_at(&c))
		return -EINVAL;
	hdr->start = start;
	hdr->table = cur_at(&c);
	hdr->count = count;
	hdr->lo = lo;
	hdr->hi = hi;
	return 0;
}

/**
 * eh_frame_hdr_entry - read entry @i of the table of @hdr
 * @hdr: the section
 * @i: the entry, below @hdr->count
 * @pc: its initial location
 * @fde_addr: the address of its FDE
 * @mem: the memory reader
 *
 * Context: where @mem->read may be called (in the kernel: task context,
 *	user memory may fault in).
 * Return: 0, -EINVAL for @i out of range, or the error of @mem->read.
 */
int eh_frame_hdr_entry(const struct eh_frame_hdr *hdr, u32 i,
		       unsigned long *pc, unsigned long *fde_addr,
		       const struct eh_frame_mem *mem)
{
	struct ehf_cur c;
	u64 v;
	int ret;

	if (i >= hdr->count)
		return -EINVAL;
	cur_init(&c, hdr->table + 8UL * i, hdr->table + 8UL * i + 8, mem);
	ret = get_le(&c, 4, true, &v);
	*pc = hdr->start + v;
	if (!ret)
		ret = get_le(&c, 4, true, &v);
	*fde_addr = hdr->start + v;
	return ret;
}

/**
 * eh_frame_find_fde - find and decode the FDE whose code holds @pc
 * @hdr: the section
 * @pc: the instruction pointer
 * @fde: filled on success
 * @lim: the bounds
 * @mem: the memory reader
 *
 * A binary search of at most 32 steps: a table that is not sorted only
 * finds no FDE, as the FDE found must cover @pc.
 *
 * Context: where @mem->read may be called (in the kernel: task context,
 *	user memory may fault in).
 * Return: 0, -ENOENT if no FDE covers @pc, or eh_frame_decode_fde()'s error.
 */
int eh_frame_find_fde(const struct eh_frame_hdr *hdr, unsigned long pc,
		      struct eh_frame_fde *fde,
		      const struct eh_frame_limits *lim,
		      const struct eh_frame_mem *mem)
{
	unsigned long at, fde_addr;
	u32 lo = 0, hi = hdr->count, mid;
	int ret;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		ret = eh_frame_hdr_entry(hdr, mid, &at, &fde_addr, mem);
		if (ret)
			return ret;
		if (pc < at)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (!lo)
		return -ENOENT;
	ret = eh_frame_hdr_entry(hdr, lo - 1, &at, &fde_addr, mem);
	if (!ret)
		ret = eh_frame_decode_fde(hdr, fde_addr, fde, lim, mem);
	if (ret)
		return ret;
	if (pc < fde->pc_start || pc >= fde->pc_end)
		return -ENOENT;
	return 0;
}

/*
 * DWARF expressions, run on symbolic values: what the CFA and register
 * expressions of x86-64 compute, nothing else.
 */
enum ehf_kind {
	VAL_CONST,	/* @off */
	VAL_REG,	/* register @reg + @off */
	VAL_DEREF,	/* word at register @reg + @off, + @add */
	VAL_CFA,	/* CFA + @off (pushed first for register expressions) */
	VAL_IPMASK,	/* (ip + @ipoff) & @mask */
	VAL_IPSTEP,	/* ((ip + @ipoff) & @mask) >= @thr, << @shift */
	VAL_PLT,	/* register @reg + @off + an IPSTEP */
};

struct ehf_val {
	u8 kind;
	u8 shift;
	u32 reg;
	u32 mask;
	u32 thr;
	s64 off;
	s64 add;
	s64 ipoff;
};

/* Operations (DW_OP_*) */
#define OP_DEREF	0x06
#define OP_CONST1U	0x08
#define OP_CONST4S	0x0d
#define OP_CONSTU	0x10
#define OP_CONSTS	0x11
#define OP_MINUS	0x1c
#define OP_AND		0x1a
#define OP_PLUS		0x22
#define OP_PLUS_UCONST	0x23
#define OP_SHL		0x24
#define OP_GE		0x2a
#define OP_LIT0		0x30
#define OP_LIT31	0x4f
#define OP_BREG0	0x70
#define OP_BREG31	0x8f
#define OP_BREGX	0x92
#define OP_NOP		0x96

/*
 * Expressions have at most EH_FRAME_MAX_EXPR bytes, so their sums of 32-bit
 * numbers cannot overflow; be explicit all the same
 */
static s64 add64(s64 a, s64 b)
{
	return (s64)((u64)a + (u64)b);
}

/* @a + @b (@a - @b if @neg): 0, or -EOPNOTSUPP if not a form taken */
static int val_add(struct ehf_val *a, const struct ehf_val *b, bool neg)
{
	s64 n = neg ? -b->off : b->off;

	if (b->kind == VAL_IPSTEP && a->kind == VAL_REG && !neg) {
		a->kind = VAL_PLT;
		a->ipoff = b->ipoff;
		a->mask = b->mask;
		a->thr = b->thr;
		a->shift = b->shift;
		return 0;
	}
	if (b->kind != VAL_CONST)
		return -EOPNOTSUPP;
	if (a->kind == VAL_DEREF)
		a->add = add64(a->add, n);
	else if (a->kind == VAL_CONST || a->kind == VAL_REG ||
		 a->kind == VAL_CFA || a->kind == VAL_PLT)
		a->off = add64(a->off, n);
	else
		return -EOPNOTSUPP;
	return 0;
}

/* One binary operation @op on the two values on top of the stack */
static int val_binop(u8 op, struct ehf_val *a, struct ehf_val *b)
{
	struct ehf_val t;

	switch (op) {
	case OP_PLUS:
		if (a->kind == VAL_CONST && b->kind != VAL_CONST) {
			t = *a;
			*a = *b;
			*b = t;
		}
		return val_add(a, b, false);
	case OP_MINUS:
		return val_add(a, b, true);
	case OP_AND:
		if (a->kind == VAL_CONST && b->kind == VAL_REG) {
			t = *a;
			*a = *b;
			*b = t;
		}
		if (b->kind != VAL_CONST || b->off < 0 || b->off > 0xffff)
			return -EOPNOTSUPP;
		if (a->kind == VAL_CONST) {
			a->off &= b->off;
			return 0;
		}
		if (a->kind != VAL_REG || a->reg != EH_FRAME_REG_IP)
			return -EOPNOTSUPP;
		a->kind = VAL_IPMASK;
		a->ipoff = a->off;
		a->mask = b->off;
		return 0;
	case OP_GE:
		if (a->kind != VAL_IPMASK || b->kind != VAL_CONST ||
		    b->off < 0 || b->off > 0xffff)
			return -EOPNOTSUPP;
		a->kind = VAL_IPSTEP;
		a->thr = b->off;
		a->shift = 0;
		return 0;
	case OP_SHL:
		if (a->kind != VAL_IPSTEP || b->kind != VAL_CONST ||
		    b->off < 0 || b->off > 15 - a->shift)
			return -EOPNOTSUPP;
		a->shift += b->off;
		return 0;
	}
	return -EOPNOTSUPP;
}

/*
 * Run the expression at the cursor up to @end; the result is in *@res.
 * @cfa: a register expression, which starts with the CFA on the stack.
 * Return: 0; -EOPNOTSUPP for an expression not taken (the cursor is then
 * anywhere), or the cursor's error.
 */
static int run_expr(struct ehf_cur *c, unsigned long end, bool cfa,
		    struct ehf_val *res)
{
	/* @k: the operand of plus_uconst, a VAL_CONST */
	struct ehf_val st[EH_FRAME_EXPR_DEPTH + 1] = {}, k = {};
	unsigned int n = 0;
	s64 v = 0;
	u64 x = 0;
	u32 r;
	u8 op;
	int ret;

	if (cfa)
		st[n++].kind = VAL_CFA;
	while (cur_at(c) < end) {
		ret = get_u8(c, &op);
		if (ret)
			return ret;
		if (op >= OP_LIT0 && op <= OP_LIT31) {
			st[n++] = (struct ehf_val){ .kind = VAL_CONST, .off = op - OP_LIT0 };
		} else if (op >= OP_CONST1U && op <= OP_CONST4S) {
			/* const1u, const1s, const2u, const2s, const4u, const4s */
			ret = get_le(c, 1 << ((op - OP_CONST1U) / 2), op & 1, &x);
			st[n++] = (struct ehf_val){ .kind = VAL_CONST, .off = (s64)x };
		} else if (op == OP_CONSTU || op == OP_CONSTS) {
			ret = get_leb(c, op == OP_CONSTS, &v);
			st[n++] = (struct ehf_val){ .kind = VAL_CONST, .off = v };
		} else if ((op >= OP_BREG0 && op <= OP_BREG31) || op == OP_BREGX) {
			r = op - OP_BREG0;
			if (op == OP_BREGX)
				ret = get_uleb(c, &r);
			if (!ret)
				ret = get_leb(c, true, &v);
			st[n++] = (struct ehf_val){ .kind = VAL_REG, .reg = r, .off = v };
		} else if (op == OP_DEREF && n && st[n - 1].kind == VAL_REG) {
			st[n - 1].kind = VAL_DEREF;
			st[n - 1].add = 0;
		} else if (op == OP_PLUS_UCONST && n) {
			ret = get_leb(c, false, &k.off);
			if (!ret)
				ret = val_add(&st[n - 1], &k, false);
		} else if (op != OP_NOP && n >= 2) {
			ret = val_binop(op, &st[n - 2], &st[n - 1]);
			n--;
		} else if (op != OP_NOP) {
			return -EOPNOTSUPP;
		}
		if (ret)
			return ret;
		if (n > EH_FRAME_EXPR_DEPTH || cur_at(c) > end)
			return -EOPNOTSUPP;
	}
	if (!n)
		return -EOPNOTSUPP;
	*res = st[n - 1];
	return 0;
}

/* The state of a run of the CFA programs of one FDE */
struct ehf_saved {
	struct eh_frame_cfa cfa;
	struct eh_frame_reg ra;
	struct eh_frame_reg fp;
	struct eh_frame_reg sp;
};

struct ehf_run {
	struct eh_frame_row row;
	struct ehf_saved init;		/* after the CIE's instructions */
	struct ehf_saved stack[EH_FRAME_MAX_STATE];
	u32 depth;
	bool in_cie;
	unsigned long pc;
	eh_frame_row_fn emit;
	void *arg;
	const struct eh_frame_fde *fde;
	const struct eh_frame_limits *lim;
};

static void save(struct ehf_saved *s, const struct eh_frame_row *row)
{
	s->cfa = row->cfa;
	s->ra = row->ra;
	s->fp = row->fp;
	s->sp = row->sp;
}

static void load(struct eh_frame_row *row, const struct ehf_saved *s)
{
	row->cfa = s->cfa;
	row->ra = s->ra;
	row->fp = s->fp;
	row->sp = s->sp;
}

/* The rule of column @col if it is one we keep, else NULL */
static struct eh_frame_reg *col_rule(struct ehf_run *r, u32 col,
				     struct ehf_saved *init)
{
	if (col == r->fde->ra_col)
		return init ? &init->ra : &r->row.ra;
	if (col == EH_FRAME_REG_FP)
		return init ? &init->fp : &r->row.fp;
	if (col == EH_FRAME_REG_SP)
		return init ? &init->sp : &r->row.sp;
	return NULL;
}

/*
 * The row so far ends at @next: hand it out, or stop at it. 1 stops the
 * run: the row of r->pc is found, or the FDE's code is passed.
 */
static int end_row(struct ehf_run *r, unsigned long next)
{
	int ret;

	if (r->in_cie)
		return -EINVAL;
	if (next > r->fde->pc_end || next < r->row.start)
		next = r->fde->pc_end;
	r->row.end = next;
	if (!r->emit && r->pc < next)
		return 1;
	if (r->emit && r->row.start < next) {
		ret = r->emit(r->arg, &r->row);
		if (ret)
			return ret;
	}
	r->row.start = next;
	return next == r->fde->pc_end ? 1 : 0;
}

/* Set the rule of column @col (kept or not) */
static void set_rule(struct ehf_run *r, u32 col, u8 how, u32 reg, s64 off)
{
	struct eh_frame_reg *rule = col_rule(r, col, NULL);

	if (rule)
		*rule = (struct eh_frame_reg){ .how = how, .reg = reg, .off = off };
}

/*
 * The expression of a DW_CFA_*expression at the cursor, run if @run:
 * 0 with its value in *@v, or -EOPNOTSUPP (not taken, or not run); either
 * way the cursor is past it. Else the cursor's error.
 */
static int prog_expr(struct ehf_run *r, struct ehf_cur *c, bool run,
		     bool push_cfa, struct ehf_val *v)
{
	unsigned long end;
	u32 len;
	int ret;

	ret = get_uleb(c, &len);
	if (ret)
		return ret;
	if (len > c->end - cur_at(c))
		return -EINVAL;
	end = cur_at(c) + len;
	ret = -EOPNOTSUPP;
	if (run && len <= r->lim->max_expr && len <= EH_FRAME_MAX_EXPR)
		ret = run_expr(c, end, push_cfa, v);
	if (ret == -EOPNOTSUPP && seek(c, end))
		return -EINVAL;
	return ret;
}

/* DW_CFA_expression, DW_CFA_val_expression (@val) of column @col */
static int expr_rule(struct ehf_run *r, struct ehf_cur *c, u32 col, bool val)
{
	struct eh_frame_reg *rule = col_rule(r, col, NULL);
	struct ehf_val v;
	int ret;

	ret = prog_expr(r, c, rule, true, &v);
	if (!rule || (ret && ret != -EOPNOTSUPP))
		return ret == -EOPNOTSUPP ? 0 : ret;
	*rule = (struct eh_frame_reg){ .how = EH_FRAME_RULE_BAD };
	if (ret)
		return 0;
	if (v.kind == VAL_CFA)
		*rule = (struct eh_frame_reg){
			.how = val ? EH_FRAME_RULE_VAL_CFA : EH_FRAME_RULE_AT_CFA,
			.off = v.off };
	else if (v.kind == VAL_REG && !val)
		*rule = (struct eh_frame_reg){
			.how = EH_FRAME_RULE_AT_REG, .reg = v.reg, .off = v.off };
	return 0;
}

/* DW_CFA_def_cfa_expression */
static int cfa_expr(struct ehf_run *r, struct ehf_cur *c)
{
	struct eh_frame_cfa *cfa = &r->row.cfa;
	struct ehf_val v;
	int ret;

	ret = prog_expr(r, c, true, false, &v);
	if (ret && ret != -EOPNOTSUPP)
		return ret;
	*cfa = (struct eh_frame_cfa){ .how = EH_FRAME_CFA_BAD };
	if (ret || (v.kind != VAL_REG && v.kind != VAL_DEREF && v.kind != VAL_PLT))
		return 0;
	cfa->how = v.kind == VAL_REG ? EH_FRAME_CFA_REG :
		   v.kind == VAL_DEREF ? EH_FRAME_CFA_DEREF : EH_FRAME_CFA_PLT;
	cfa->reg = v.reg;
	cfa->off = v.off;
	cfa->add = v.add;
	cfa->ipoff = v.ipoff;
	cfa->mask = v.mask;
	cfa->thr = v.thr;
	cfa->shift = v.shift;
	return 0;
}

/* DW_CFA_* */
#define CFA_ADVANCE_LOC		0x40
#define CFA_OFFSET		0x80
#define CFA_RESTORE		0xc0
#define CFA_NOP			0x00
#define CFA_ADVANCE_LOC1	0x02
#define CFA_ADVANCE_LOC2	0x03
#define CFA_ADVANCE_LOC4	0x04
#define CFA_OFFSET_EXTENDED	0x05
#define CFA_RESTORE_EXTENDED	0x06
#define CFA_UNDEFINED		0x07
#define CFA_SAME_VALUE		0x08
#define CFA_REGISTER		0x09
#define CFA_REMEMBER_STATE	0x0a
#define CFA_RESTORE_STATE	0x0b
#define CFA_DEF_CFA		0x0c
#define CFA_DEF_CFA_REGISTER	0x0d
#define CFA_DEF_CFA_OFFSET	0x0e
#define CFA_DEF_CFA_EXPRESSION	0x0f
#define CFA_EXPRESSION		0x10
#define CFA_OFFSET_EXTENDED_SF	0x11
#define CFA_DEF_CFA_SF		0x12
#define CFA_DEF_CFA_OFFSET_SF	0x13
#define CFA_VAL_OFFSET		0x14
#define CFA_VAL_OFFSET_SF	0x15
#define CFA_VAL_EXPRESSION	0x16
#define CFA_GNU_ARGS_SIZE	0x2e
#define CFA_GNU_NEG_OFFSET_EXT	0x2f

/* One instruction @op, its operands at the cursor; 1 stops the run */
static int step(struct ehf_run *r, struct ehf_cur *c, u8 op)
{
	struct eh_frame_cfa *cfa = &r->row.cfa;
	s64 daf = r->fde->data_align;
	struct eh_frame_reg *rule;
	u32 col = op & 0x3f, u = 0, reg = 0;
	s32 s = 0;
	u64 d;
	int ret = 0;

	switch (op & 0xc0) {
	case CFA_ADVANCE_LOC:
		return end_row(r, r->row.start + (unsigned long)col * r->fde->code_align);
	case CFA_OFFSET:
		ret = get_uleb(c, &u);
		set_rule(r, col, EH_FRAME_RULE_AT_CFA, 0, u * daf);
		return ret;
	case CFA_RESTORE:
		goto restore;
	}
	switch (op) {
	case CFA_NOP:
		return 0;
	case CFA_ADVANCE_LOC1:
	case CFA_ADVANCE_LOC2:
	case CFA_ADVANCE_LOC4:
		ret = get_le(c, 1 << (op - CFA_ADVANCE_LOC1), false, &d);
		return ret ? ret : end_row(r, r->row.start + d * r->fde->code_align);
	case CFA_OFFSET_EXTENDED:
	case CFA_VAL_OFFSET:
	case CFA_GNU_NEG_OFFSET_EXT:
		ret = get_uleb(c, &col);
		if (!ret)
			ret = get_uleb(c, &u);
		set_rule(r, col, op == CFA_VAL_OFFSET ? EH_FRAME_RULE_VAL_CFA :
			 EH_FRAME_RULE_AT_CFA, 0,
			 op == CFA_GNU_NEG_OFFSET_EXT ? -(u * daf) : u * daf);
		return ret;
	case CFA_OFFSET_EXTENDED_SF:
	case CFA_VAL_OFFSET_SF:
		ret = get_uleb(c, &col);
		if (!ret)
			ret = get_sleb(c, &s);
		set_rule(r, col, op == CFA_VAL_OFFSET_SF ? EH_FRAME_RULE_VAL_CFA :
			 EH_FRAME_RULE_AT_CFA, 0, s * daf);
		return ret;
	case CFA_RESTORE_EXTENDED:
		ret = get_uleb(c, &col);
		goto restore;
	case CFA_UNDEFINED:
	case CFA_SAME_VALUE:
		ret = get_uleb(c, &col);
		set_rule(r, col, op == CFA_UNDEFINED ? EH_FRAME_RULE_UNDEF :
			 EH_FRAME_RULE_SAME, 0, 0);
		return ret;
	case CFA_REGISTER:
		ret = get_uleb(c, &col);
		if (!ret)
			ret = get_uleb(c, &reg);
		set_rule(r, col, EH_FRAME_RULE_IN_REG, reg, 0);
		return ret;
	case CFA_REMEMBER_STATE:
		if (r->depth >= r->lim->max_state || r->depth >= EH_FRAME_MAX_STATE)
			return -E2BIG;
		save(&r->stack[r->depth++], &r->row);
		return 0;
	case CFA_RESTORE_STATE:
		if (!r->depth)
			return -EINVAL;
		load(&r->row, &r->stack[--r->depth]);
		return 0;
	case CFA_DEF_CFA:
	case CFA_DEF_CFA_SF:
		ret = get_uleb(c, &reg);
		if (!ret && op == CFA_DEF_CFA)
			ret = get_uleb(c, &u);
		else if (!ret)
			ret = get_sleb(c, &s);
		*cfa = (struct eh_frame_cfa){ .how = EH_FRAME_CFA_REG, .reg = reg,
			.off = op == CFA_DEF_CFA ? (s64)u : s * daf };
		return ret;
	case CFA_DEF_CFA_REGISTER:
	case CFA_DEF_CFA_OFFSET:
	case CFA_DEF_CFA_OFFSET_SF:
		/* Only a CFA of a register and an offset has these parts */
		if (cfa->how != EH_FRAME_CFA_REG)
			return -EINVAL;
		if (op == CFA_DEF_CFA_REGISTER)
			return get_uleb(c, &cfa->reg);
		if (op == CFA_DEF_CFA_OFFSET) {
			ret = get_uleb(c, &u);
			cfa->off = u;
			return ret;
		}
		ret = get_sleb(c, &s);
		cfa->off = s * daf;
		return ret;
	case CFA_DEF_CFA_EXPRESSION:
		return cfa_expr(r, c);
	case CFA_EXPRESSION:
	case CFA_VAL_EXPRESSION:
		ret = get_uleb(c, &col);
		return ret ? ret : expr_rule(r, c, col, op == CFA_VAL_EXPRESSION);
	case CFA_GNU_ARGS_SIZE:
		return get_uleb(c, &u);
	}
	/* DW_CFA_set_loc and what is not x86-64's */
	return -EOPNOTSUPP;
restore:
	rule = col_rule(r, col, NULL);
	if (rule)
		*rule = r->in_cie ? (struct eh_frame_reg){} : *col_rule(r, col, &r->init);
	return ret;
}

/* Run the program [@start, @end); 1 when the run is to stop */
static int run_prog(struct ehf_run *r, unsigned long start, unsigned long end,
		    const struct eh_frame_mem *mem)
{
	struct ehf_cur c;
	u8 op;
	int ret;

	if (end < start || end - start > r->lim->max_prog)
		return -E2BIG;
	cur_init(&c, start, end, mem);
	while (cur_at(&c) < end) {
		ret = get_u8(&c, &op);
		if (ret)
			return ret;
		r->row.insns++;
		ret = step(r, &c, op);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * eh_frame_run - run the CFA program of an FDE
 * @fde: the FDE (eh_frame_decode_fde(), eh_frame_find_fde())
 * @pc: without @emit, the pc whose row is wanted
 * @emit: called with each row in turn, or NULL
 * @arg: passed to @emit
 * @row: without @emit, the row of @pc on success
 * @lim: the bounds
 * @mem: the memory reader
 *
 * The same interpreter for both: with @emit, every row of the FDE (empty
 * ones left out), in address order; without, the row of @pc. A row may say
 * what cannot be used: see eh_frame_row_usable().
 *
 * Context: where @mem->read may be called (in the kernel: task context,
 *	user memory may fault in).
 * Return: 0; -ENOENT if @pc is outside the FDE, -EINVAL for a malformed
 * program, -EOPNOTSUPP for an instruction not taken, -E2BIG over a bound,
 * the error of @mem->read, or what @emit returned to stop the run (1 stops
 * it as the end of the FDE does: 0).
 */
int eh_frame_run(const struct eh_frame_fde *fde, unsigned long pc,
		 eh_frame_row_fn emit, void *arg, struct eh_frame_row *row,
		 const struct eh_frame_limits *lim,
		 const struct eh_frame_mem *mem)
{
	struct ehf_run r = {
		.row = { .start = fde->pc_start, .signal = fde->signal },
		.in_cie = true, .pc = pc, .emit = emit, .arg = arg,
		.fde = fde, .lim = lim,
	};
	int ret;

	if (!emit && (pc < fde->pc_start || pc >= fde->pc_end))
		return -ENOENT;
	ret = run_prog(&r, fde->cie_prog, fde->cie_prog_end, mem);
	if (ret)
		return ret;
	/* The FDE's program starts with the CIE's rules and an empty stack */
	save(&r.init, &r.row);
	r.depth = 0;
	r.in_cie = false;
	ret = run_prog(&r, fde->prog, fde->prog_end, mem);
	if (!ret)
		ret = end_row(&r, fde->pc_end);
	if (ret < 0 || (emit && ret != 1))
		return ret;
	if (!emit)
		*row = r.row;
	return 0;
}

/**
 * eh_frame_lookup - the row of @pc
 * @hdr: the section
 * @pc: the instruction pointer: of the innermost frame, or of a frame whose
 *	callee's row says @signal; else a return address minus one (a call
 *	that does not return may end its function)
 * @row: filled on success
 * @lim: the bounds
 * @mem: the memory reader
 *
 * Context: where @mem->read may be called (in the kernel: task context,
 *	user memory may fault in).
 * Return: 0, or the error of eh_frame_find_fde() or eh_frame_run().
 */
int eh_frame_lookup(const struct eh_frame_hdr *hdr, unsigned long pc,
		    struct eh_frame_row *row, const struct eh_frame_limits *lim,
		    const struct eh_frame_mem *mem)
{
	struct eh_frame_fde fde;
	int ret;

	ret = eh_frame_find_fde(hdr, pc, &fde, lim, mem);
	return ret ? ret : eh_frame_run(&fde, pc, NULL, NULL, row, lim, mem);
}

static bool sp_or_fp(u32 reg)
{
	return reg == EH_FRAME_REG_SP || reg == EH_FRAME_REG_FP;
}

/**
 * eh_frame_row_usable - can an unwind that knows ip, sp and fp use @row?
 * @row: the row
 *
 * Context: any.
 * Return: EH_FRAME_OK, or why not (enum eh_frame_why).
 */
int eh_frame_row_usable(const struct eh_frame_row *row)
{
	const struct eh_frame_cfa *cfa = &row->cfa;
	const struct eh_frame_reg *ra = &row->ra, *fp = &row->fp, *sp = &row->sp;

	if (cfa->how == EH_FRAME_CFA_UNSET)
		return EH_FRAME_WHY_CFA_NONE;
	if (cfa->how == EH_FRAME_CFA_BAD)
		return EH_FRAME_WHY_CFA_EXPR;
	if (!sp_or_fp(cfa->reg))
		return EH_FRAME_WHY_CFA_REG;
	if (ra->how != EH_FRAME_RULE_UNDEF && ra->how != EH_FRAME_RULE_AT_CFA &&
	    ra->how != EH_FRAME_RULE_VAL_CFA &&
	    !(ra->how == EH_FRAME_RULE_AT_REG && sp_or_fp(ra->reg)))
		return EH_FRAME_WHY_RA;
	if ((fp->how == EH_FRAME_RULE_AT_REG || fp->how == EH_FRAME_RULE_IN_REG) &&
	    !sp_or_fp(fp->reg))
		return EH_FRAME_WHY_FP;
	if (fp->how == EH_FRAME_RULE_BAD)
		return EH_FRAME_WHY_FP;
	/* SP is the CFA, or saved where a CFA of DEREF loads it from */
	if (sp->how == EH_FRAME_RULE_UNSPEC ||
	    (sp->how == EH_FRAME_RULE_VAL_CFA && !sp->off) ||
	    (sp->how == EH_FRAME_RULE_AT_REG && cfa->how == EH_FRAME_CFA_DEREF &&
	     sp->reg == cfa->reg && sp->off == cfa->off && !cfa->add))
		return EH_FRAME_OK;
	return EH_FRAME_WHY_SP;
}

static unsigned long reg_value(const struct eh_frame_regs *regs, u32 reg)
{
	return reg == EH_FRAME_REG_SP ? regs->sp : regs->fp;
}

/* The word at @addr, an address below @limit */
static int load_word(const struct eh_frame_mem *mem, unsigned long limit,
		     unsigned long addr, unsigned long *v)
{
	u64 x;
	int ret;

	if (limit < 8 || addr > limit - 8)
		return -EFAULT;
	ret = mem->read(mem->ctx, addr, &x, 8);
	*v = x;
	return ret;
}

/* The value of register rule @rule (not UNDEF), or where it is saved */
static int reg_eval(const struct eh_frame_reg *rule, unsigned long cfa,
		    const struct eh_frame_regs *regs, unsigned long limit,
		    unsigned long *v, const struct eh_frame_mem *mem)
{
	switch (rule->how) {
	case EH_FRAME_RULE_AT_CFA:
		return load_word(mem, limit, cfa + rule->off, v);
	case EH_FRAME_RULE_AT_REG:
		return load_word(mem, limit, reg_value(regs, rule->reg) + rule->off, v);
	case EH_FRAME_RULE_VAL_CFA:
		*v = cfa + rule->off;
		return 0;
	case EH_FRAME_RULE_IN_REG:
		*v = reg_value(regs, rule->reg);
		return 0;
	}
	*v = regs->fp;	/* unspecified or the same: FP, the one it is asked for */
	return 0;
}

/**
 * eh_frame_eval - unwind one frame by @row
 * @row: the row of @regs->ip (a usable one: eh_frame_row_usable())
 * @regs: ip, sp and fp of the frame
 * @limit: end (exclusive) of the addresses that may be read, and that the
 *	CFA and the return address must be below (the user address limit)
 * @caller: the caller's ip, sp and fp on success
 * @mem: the memory reader (of the stack)
 *
 * Context: where @mem->read may be called (in the kernel: task context,
 *	user memory may fault in).
 * Return: 0; EH_FRAME_OUTERMOST if the return address is undefined (@caller
 * is then unset); -EOPNOTSUPP for a row not usable, -EFAULT for an address
 * at or above @limit, or the error of @mem->read.
 */
int eh_frame_eval(const struct eh_frame_row *row,
		  const struct eh_frame_regs *regs, unsigned long limit,
		  struct eh_frame_regs *caller, const struct eh_frame_mem *mem)
{
	const struct eh_frame_cfa *rule = &row->cfa;
	unsigned long cfa = reg_value(regs, rule->reg) + rule->off;
	unsigned long ip = regs->ip + rule->ipoff;
	int ret;

	if (eh_frame_row_usable(row))
		return -EOPNOTSUPP;
	if (rule->how == EH_FRAME_CFA_DEREF) {
		ret = load_word(mem, limit, cfa, &cfa);
		if (ret)
			return ret;
		cfa += rule->add;
	} else if (rule->how == EH_FRAME_CFA_PLT) {
		cfa += (unsigned long)((ip & rule->mask) >= rule->thr) << rule->shift;
	}
	if (cfa >= limit)
		return -EFAULT;
	if (row->ra.how == EH_FRAME_RULE_UNDEF)
		return EH_FRAME_OUTERMOST;
	ret = reg_eval(&row->ra, cfa, regs, limit, &caller->ip, mem);
	if (!ret && caller->ip >= limit)
		ret = -EFAULT;
	if (!ret && row->fp.how == EH_FRAME_RULE_UNDEF)
		caller->fp = 0;
	else if (!ret)
		ret = reg_eval(&row->fp, cfa, regs, limit, &caller->fp, mem);
	caller->sp = cfa;
	return ret;
}
