// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the .eh_frame reader on hand-built sections: every CFA
 * instruction and expression operation it takes, the forms of x86-64 (PLT,
 * realigned stack, signal trampoline), both ways of running a program, and
 * the refusals of what it does not take or what is malformed.
 *
 *   test_eh_frame [--seeds DIR]   (DIR: write every section as a fuzz seed)
 */
#include <stdio.h>
#include <stdint.h>

#include "ehf_test.h"

#define EHF_OFF		EHF_HDR_SIZE
#define PC0		(EHF_BASE + 0x10000)
#define B(...)		(const u8[]){ __VA_ARGS__ }, sizeof((const u8[]){ __VA_ARGS__ })
#define NONE		NULL, 0

/* The usual CIE program: CFA = rsp + 8, RA at CFA - 8 */
#define CIE_INIT	B(0x0c, 7, 8, 0x90, 1)

static const char *seeds;
static int nseeds, failed, passed;
static const char *test_name;
static int test_failed;

#define CHECK(cond, fmt, ...) do {					\
	if (!(cond)) {							\
		printf("# %s:%d: %s: expected %s: " fmt "\n", __FILE__,	\
		       __LINE__, test_name, #cond, ##__VA_ARGS__);		\
		test_failed = 1;					\
	}								\
} while (0)

/* A section being built: image from EHF_BASE, the FDEs for the table */
struct sec {
	u8 b[8192];
	size_t n;
	u32 nfde;
	s32 tab[30][2];
	struct ehf_space space;
	struct eh_frame_mem mem;
	struct eh_frame_hdr hdr;
	struct eh_frame_limits lim;
};

static void put(struct sec *s, const void *p, size_t n)
{
	if (!n)
		return;
	if (s->n + n > sizeof(s->b))
		abort();
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void put8(struct sec *s, u8 v)
{
	put(s, &v, 1);
}

static void put32(struct sec *s, u32 v)
{
	put(s, &v, 4);
}

static void put_uleb(struct sec *s, u64 v)
{
	do {
		put8(s, (v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static void sec_init(struct sec *s)
{
	static const struct eh_frame_limits lim = EH_FRAME_LIMITS_DEFAULT;

	memset(s, 0, sizeof(*s));
	s->n = EHF_OFF;
	s->lim = lim;
}

/* Patch the length of the entry at @at */
static void end_entry(struct sec *s, size_t at)
{
	u32 len = s->n - at - 4;

	memcpy(s->b + at, &len, 4);
}

/* A CIE of version @ver, augmentation @aug, 'R' = @enc: its offset */
static size_t cie_full(struct sec *s, u8 ver, const char *aug, const u8 *augdata,
		       size_t an, u8 ra, const u8 *prog, size_t pn)
{
	size_t at = s->n;

	put32(s, 0);
	put32(s, 0);
	put8(s, ver);
	put(s, aug, strlen(aug) + 1);
	put8(s, 1);		/* code alignment */
	put8(s, 0x78);		/* data alignment -8 */
	put8(s, ra);
	if (aug[0] == 'z') {
		put_uleb(s, an);
		put(s, augdata, an);
	}
	put(s, prog, pn);
	end_entry(s, at);
	return at;
}

static size_t cie(struct sec *s, const u8 *prog, size_t pn)
{
	return cie_full(s, 1, "zR", B(0x1b), 16, prog, pn);
}

/* An FDE of CIE @c ("zR", pcrel sdata4) for [@pc, @pc + @range) */
static size_t fde(struct sec *s, size_t c, unsigned long pc, u32 range,
		  const u8 *prog, size_t pn)
{
	size_t at = s->n;

	put32(s, 0);
	put32(s, s->n - c);
	put32(s, pc - (EHF_BASE + s->n));
	put32(s, range);
	put8(s, 0);
	put(s, prog, pn);
	end_entry(s, at);
	if (s->nfde < 30) {
		s->tab[s->nfde][0] = pc - EHF_BASE;
		s->tab[s->nfde++][1] = at;
	}
	return at;
}

static int cmp_entry(const void *a, const void *b)
{
	const s32 *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Write .eh_frame_hdr, set up the memory, check the header: its error */
static int finish_sorted(struct sec *s, bool sort)
{
	s32 ptr = EHF_OFF - 4;
	char path[4096];
	FILE *f;

	if (sort)
		qsort(s->tab, s->nfde, sizeof(s->tab[0]), cmp_entry);
	memcpy(s->b, B(1, 0x1b, 0x03, 0x3b));
	memcpy(s->b + 4, &ptr, 4);
	memcpy(s->b + 8, &s->nfde, 4);
	memcpy(s->b + 12, s->tab, s->nfde * 8);
	s->space.image = s->b;
	s->space.image_size = s->n;
	s->mem = (struct eh_frame_mem){ .read = ehf_space_read, .ctx = &s->space };
	if (seeds) {
		snprintf(path, sizeof(path), "%s/unit-%03d", seeds, nseeds++);
		f = fopen(path, "w");
		if (f) {
			fwrite(s->b, 1, s->n, f);
			fclose(f);
		}
	}
	return eh_frame_hdr_init(&s->hdr, EHF_BASE, EHF_HDR_SIZE, EHF_BASE,
				 EHF_BASE + s->n, &s->lim, &s->mem);
}

static int finish(struct sec *s)
{
	return finish_sorted(s, true);
}

static int lookup(struct sec *s, unsigned long pc, struct eh_frame_row *row)
{
	memset(row, 0xa5, sizeof(*row));
	return eh_frame_lookup(&s->hdr, pc, row, &s->lim, &s->mem);
}

static struct sec one_sec;

/* The section of the last one() */
static struct sec *one_space(void)
{
	return &one_sec;
}

/* One FDE at PC0 of 0x100 bytes with @prog, after the usual CIE: its row at @pc */
static int one(const u8 *prog, size_t pn, unsigned long pc, struct eh_frame_row *row)
{
	struct sec *s = &one_sec;

	sec_init(s);
	fde(s, cie(s, CIE_INIT), PC0, 0x100, prog, pn);
	if (finish(s))
		return -1000;
	return lookup(s, pc, row);
}

static bool cfa_is(const struct eh_frame_row *r, int how, u32 reg, s64 off)
{
	return r->cfa.how == how && r->cfa.reg == reg && r->cfa.off == off;
}

static bool reg_is(const struct eh_frame_reg *r, int how, u32 reg, s64 off)
{
	return r->how == how && r->reg == reg && r->off == off;
}

static void test_cie_rules_at_entry(void)
{
	struct eh_frame_row r;
	int ret = one(B(0x41, 0x0e, 16), PC0, &r);

	CHECK(!ret, "%d", ret);
	CHECK(cfa_is(&r, EH_FRAME_CFA_REG, 7, 8), "how %d reg %u off %lld",
	      r.cfa.how, r.cfa.reg, (long long)r.cfa.off);
	CHECK(reg_is(&r.ra, EH_FRAME_RULE_AT_CFA, 0, -8), "ra how %d", r.ra.how);
	CHECK(r.fp.how == EH_FRAME_RULE_UNSPEC && r.start == PC0 && r.end == PC0 + 1,
	      "fp %d [%#lx, %#lx)", r.fp.how, r.start, r.end);
	CHECK(r.insns == 3, "%u", r.insns);
}

static void test_push_rbp_frame(void)
{
	/* push %rbp; mov %rsp,%rbp; ...; leave (the frame-pointer prologue) */
	const u8 prog[] = { 0x41, 0x0e, 16, 0x86, 2, 0x43, 0x0d, 6, 0x48, 0x0c, 7, 8 };
	struct eh_frame_row r;
	int ret;

	ret = one(prog, sizeof(prog), PC0 + 1, &r);
	CHECK(!ret && cfa_is(&r, EH_FRAME_CFA_REG, 7, 16), "%d", ret);
	CHECK(reg_is(&r.fp, EH_FRAME_RULE_AT_CFA, 0, -16), "fp %d", r.fp.how);
	CHECK(r.start == PC0 + 1 && r.end == PC0 + 4, "[%#lx, %#lx)", r.start, r.end);
	ret = one(prog, sizeof(prog), PC0 + 5, &r);
	CHECK(!ret && cfa_is(&r, EH_FRAME_CFA_REG, 6, 16), "%d", ret);
	ret = one(prog, sizeof(prog), PC0 + 0xff, &r);
	CHECK(!ret && cfa_is(&r, EH_FRAME_CFA_REG, 7, 8) && r.end == PC0 + 0x100,
	      "%d end %#lx", ret, r.end);
}

static void test_every_register_instruction(void)
{
	struct eh_frame_row r;
	int ret;

	/* advance_loc1/2/4: rows at 2, 0x102 (past the end: clipped) */
	ret = one(B(0x02, 2, 0x0e, 24, 0x03, 0x00, 0x01, 0x0e, 32), PC0 + 0x50, &r);
	CHECK(!ret && r.cfa.off == 24 && r.start == PC0 + 2 && r.end == PC0 + 0x100,
	      "%d off %lld", ret, (long long)r.cfa.off);
	ret = one(B(0x04, 1, 0, 0, 0, 0x0e, 24), PC0 + 1, &r);
	CHECK(!ret && r.cfa.off == 24, "%d", ret);
	/* offset_extended_sf r16 -1 (at CFA + 8), r6 2 */
	ret = one(B(0x11, 16, 0x7f, 0x11, 6, 2), PC0, &r);
	CHECK(!ret && reg_is(&r.fp, EH_FRAME_RULE_AT_CFA, 0, -16) &&
	      reg_is(&r.ra, EH_FRAME_RULE_AT_CFA, 0, 8), "%d", ret);
	/* restore (RA back to the CIE's; FP unspecified) */
	ret = one(B(0x90, 3, 0x86, 2, 0xd0, 0xc6), PC0, &r);
	CHECK(!ret && reg_is(&r.ra, EH_FRAME_RULE_AT_CFA, 0, -8) &&
	      r.fp.how == EH_FRAME_RULE_UNSPEC, "%d", ret);
	/* undefined r16 */
	ret = one(B(0x07, 16), PC0, &r);
	CHECK(!ret && r.ra.how == EH_FRAME_RULE_UNDEF, "%d", ret);
	/* register r6 in r3 */
	ret = one(B(0x09, 6, 3), PC0, &r);
	CHECK(!ret && reg_is(&r.fp, EH_FRAME_RULE_VAL_REG, 3, 0), "%d", ret);
	/* def_cfa r6 16, def_cfa_register r7, def_cfa_offset 24 */
	ret = one(B(0x0c, 6, 16, 0x41, 0x0d, 7, 0x0e, 24), PC0, &r);
	CHECK(!ret && cfa_is(&r, EH_FRAME_CFA_REG, 6, 16), "%d", ret);
	ret = one(B(0x0c, 6, 16, 0x41, 0x0d, 7, 0x0e, 24), PC0 + 1, &r);
	CHECK(!ret && cfa_is(&r, EH_FRAME_CFA_REG, 7, 24), "%d", ret);
	/* nop, GNU_args_size, offsets of registers not kept (r3, r12) */
	ret = one(B(0x00, 0x2e, 0x80, 0x01, 0x83, 3, 0x11, 12, 4, 0x10, 3, 2, 0x77, 8),
		  PC0, &r);
	CHECK(!ret && cfa_is(&r, EH_FRAME_CFA_REG, 7, 8), "%d", ret);
}

static void test_remember_restore_state(void)
{
	const u8 prog[] = { 0x0a, 0x0e, 32, 0x86, 2, 0x41, 0x0b, 0x41, 0x0a, 0x0a,
			    0x0e, 40, 0x0b, 0x0e, 48, 0x41, 0x0b };
	struct eh_frame_row r;
	int ret;

	ret = one(prog, sizeof(prog), PC0, &r);
	CHECK(!ret && r.cfa.off == 32 && r.fp.how == EH_FRAME_RULE_AT_CFA, "%d", ret);
	ret = one(prog, sizeof(prog), PC0 + 1, &r);
	CHECK(!ret && r.cfa.off == 8 && r.fp.how == EH_FRAME_RULE_UNSPEC, "%d", ret);
	ret = one(prog, sizeof(prog), PC0 + 2, &r);
	CHECK(!ret && r.cfa.off == 48, "%d off %lld", ret, (long long)r.cfa.off);
	ret = one(prog, sizeof(prog), PC0 + 3, &r);
	CHECK(!ret && r.cfa.off == 8, "%d off %lld", ret, (long long)r.cfa.off);
}

/* The PLT: CFA = rsp + 8, + 8 from byte 11 of each 16 */
#define PLT_EXPR	0x0f, 11, 0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22

static void test_plt_expression(void)
{
	struct eh_frame_regs regs = { .sp = EHF_STACK + 0x100 }, caller;
	struct eh_frame_row r;
	struct sec s;
	int ret, i;

	sec_init(&s);
	fde(&s, cie(&s, CIE_INIT), PC0, 0x40, B(PLT_EXPR));
	CHECK(!finish(&s), "hdr");
	for (i = 0; i < 0x40; i++) {
		ret = lookup(&s, PC0 + i, &r);
		CHECK(!ret && r.cfa.how == EH_FRAME_CFA_PLT && r.cfa.mask == 15 &&
		      r.cfa.thr == 11 && r.cfa.shift == 3 && !eh_frame_row_usable(&r),
		      "%d how %d", ret, r.cfa.how);
		regs.ip = PC0 + i;
		*(u64 *)&s.space.stack[0x108 + ((i & 15) >= 11 ? 8 : 0) - 8] = 0x1234;
		ret = eh_frame_eval(&r, &regs, EHF_LIMIT, &caller, &s.mem);
		CHECK(!ret && caller.sp == regs.sp + ((i & 15) >= 11 ? 16 : 8) &&
		      caller.ip == 0x1234, "pc +%d: %d sp %#lx", i, ret, caller.sp);
	}
}

static void test_realigned_stack_expressions(void)
{
	struct eh_frame_regs regs = { .ip = PC0, .sp = EHF_STACK + 0x100, .fp = 7 }, c;
	struct eh_frame_row r;
	struct sec s;
	int ret;

	/* libcrypto: CFA = *(rsp + 16) + 8, RA at CFA - 8; once without the add */
	sec_init(&s);
	fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0x0f, 5, 0x77, 16, 0x06, 0x23, 8));
	fde(&s, 0x100, PC0 + 0x10, 0x10, B(0x0f, 3, 0x77, 16, 0x06));
	CHECK(!finish(&s), "hdr");
	ret = lookup(&s, PC0, &r);
	CHECK(!ret && r.cfa.how == EH_FRAME_CFA_DEREF && r.cfa.reg == 7 &&
	      r.cfa.off == 16 && r.cfa.add == 8, "%d how %d", ret, r.cfa.how);
	*(u64 *)&s.space.stack[0x110] = EHF_STACK + 0x200;
	*(u64 *)&s.space.stack[0x200] = 0x4321;
	ret = eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem);
	CHECK(!ret && c.sp == EHF_STACK + 0x208 && c.ip == 0x4321 && c.fp == 7,
	      "%d sp %#lx ip %#lx", ret, c.sp, c.ip);
	ret = lookup(&s, PC0 + 0x10, &r);
	CHECK(!ret && r.cfa.how == EH_FRAME_CFA_DEREF && r.cfa.add == 0, "%d", ret);
	/* deref(rbp - 8) + 2; rsp - 16 as an expression */
	ret = one(B(0x0f, 5, 0x76, 0x78, 0x06, 0x23, 2), PC0, &r);
	CHECK(!ret && r.cfa.how == EH_FRAME_CFA_DEREF && r.cfa.reg == 6 &&
	      r.cfa.off == -8 && r.cfa.add == 2, "%d how %d add %lld", ret,
	      r.cfa.how, (long long)r.cfa.add);
	ret = one(B(0x0f, 2, 0x77, 0x70), PC0, &r);
	CHECK(!ret && cfa_is(&r, EH_FRAME_CFA_REG, 7, -16), "%d how %d off %lld",
	      ret, r.cfa.how, (long long)r.cfa.off);
}

static void test_signal_trampoline(void)
{
	/* __restore_rt: "zRS", CFA = *(rsp + 160), registers in the ucontext */
	const u8 prog[] = { 0x0f, 4, 0x77, 0xa0, 0x01, 0x06,
			    0x10, 16, 3, 0x77, 0xa8, 0x01,
			    0x10, 6, 3, 0x77, 0xf8, 0x00,
			    0x10, 7, 3, 0x77, 0xa0, 0x01,
			    0x10, 3, 3, 0x77, 0x80, 0x01 };
	struct eh_frame_regs regs = { .ip = PC0 + 1, .sp = EHF_STACK + 0x100 }, c;
	struct eh_frame_row r;
	struct sec s;
	int ret;

	sec_init(&s);
	fde(&s, cie_full(&s, 1, "zRS", B(0x1b), 16, NONE), PC0, 0x10, prog, sizeof(prog));
	CHECK(!finish(&s), "hdr");
	ret = lookup(&s, PC0 + 1, &r);
	CHECK(!ret && r.signal && r.cfa.how == EH_FRAME_CFA_DEREF &&
	      reg_is(&r.ra, EH_FRAME_RULE_AT_REG, 7, 168) &&
	      reg_is(&r.fp, EH_FRAME_RULE_AT_REG, 7, 120) &&
	      reg_is(&r.sp, EH_FRAME_RULE_AT_REG, 7, 160), "%d", ret);
	CHECK(!eh_frame_row_usable(&r), "%d", eh_frame_row_usable(&r));
	*(u64 *)&s.space.stack[0x100 + 160] = EHF_STACK + 0x800;
	*(u64 *)&s.space.stack[0x100 + 168] = 0x5555;
	*(u64 *)&s.space.stack[0x100 + 120] = 0x6666;
	ret = eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem);
	CHECK(!ret && c.sp == EHF_STACK + 0x800 && c.ip == 0x5555 && c.fp == 0x6666,
	      "%d", ret);
	/* SP saved elsewhere than where the CFA comes from */
	ret = one(B(0x0f, 4, 0x77, 0xa0, 0x01, 0x06, 0x10, 7, 2, 0x77, 8), PC0, &r);
	CHECK(!ret && eh_frame_row_usable(&r) == EH_FRAME_WHY_SP, "%d", ret);
	/* val_expression: FP = rsp + 8 (taken); RA = CFA - 8 (not) */
	ret = one(B(0x16, 6, 2, 0x77, 8, 0x16, 16, 2, 0x38, 0x1c), PC0, &r);
	CHECK(!ret && reg_is(&r.fp, EH_FRAME_RULE_VAL_REG, 7, 8) &&
	      r.ra.how == EH_FRAME_RULE_BAD, "%d fp %d", ret, r.fp.how);
}

struct rows {
	unsigned long start[16], end[16];
	s64 off[16];
	int n, stop_at;
};

static int collect(void *arg, const struct eh_frame_row *row)
{
	struct rows *r = arg;

	if (r->n < 16) {
		r->start[r->n] = row->start;
		r->end[r->n] = row->end;
		r->off[r->n] = row->cfa.off;
	}
	return ++r->n == r->stop_at ? 7 : 0;
}

static void test_rows_by_callback(void)
{
	const u8 prog[] = { 0x41, 0x0e, 16, 0x40, 0x0e, 24, 0x43, 0x0e, 8, 0x7f, 0x0e, 9 };
	struct eh_frame_fde f;
	struct rows rows = {};
	struct sec s;
	int ret;

	sec_init(&s);
	fde(&s, cie(&s, CIE_INIT), PC0, 0x20, prog, sizeof(prog));
	CHECK(!finish(&s), "hdr");
	ret = eh_frame_find_fde(&s.hdr, PC0 + 3, &f, &s.lim, &s.mem);
	CHECK(!ret && f.pc_start == PC0 && f.pc_end == PC0 + 0x20, "%d", ret);
	ret = eh_frame_run(&f, 0, collect, &rows, NULL, &s.lim, &s.mem);
	/* [0,1) 8, [1,1) empty, [1,4) 24, [4,0x20) 8: advance past the end stops */
	CHECK(!ret && rows.n == 3, "%d rows %d", ret, rows.n);
	CHECK(rows.start[0] == PC0 && rows.end[0] == PC0 + 1 && rows.off[0] == 8 &&
	      rows.start[1] == PC0 + 1 && rows.end[1] == PC0 + 4 && rows.off[1] == 24 &&
	      rows.start[2] == PC0 + 4 && rows.end[2] == PC0 + 0x20 && rows.off[2] == 8,
	      "rows");
	rows = (struct rows){ .stop_at = 2 };
	ret = eh_frame_run(&f, 0, collect, &rows, NULL, &s.lim, &s.mem);
	CHECK(ret == 7 && rows.n == 2, "%d", ret);
}

static void test_table_search(void)
{
	struct eh_frame_row r;
	struct sec s;
	size_t c;
	int ret, i;

	sec_init(&s);
	c = cie(&s, CIE_INIT);
	for (i = 0; i < 25; i++)
		fde(&s, c, PC0 + 0x100 * (24 - i), 0x80, B(0x0e, (u8)(16 + i)));
	CHECK(!finish(&s) && s.hdr.count == 25, "hdr");
	for (i = 0; i < 25; i++) {
		ret = lookup(&s, PC0 + 0x100 * i + 0x7f, &r);
		CHECK(!ret && r.cfa.off == 16 + 24 - i, "%d: %d", i, ret);
		ret = lookup(&s, PC0 + 0x100 * i + 0x80, &r);
		CHECK(ret == -ENOENT, "gap %d: %d", i, ret);
	}
	CHECK(lookup(&s, PC0 - 1, &r) == -ENOENT, "below");
	/* A table out of order never gives the row of another FDE */
	sec_init(&s);
	c = cie(&s, CIE_INIT);
	for (i = 0; i < 25; i++)
		fde(&s, c, PC0 + 0x100 * (24 - i), 0x80, B(0x0e, (u8)(16 + i)));
	CHECK(!finish_sorted(&s, false), "hdr");
	for (i = 0; i < 25; i++) {
		ret = lookup(&s, PC0 + 0x100 * i + 1, &r);
		CHECK(ret == -ENOENT || (!ret && r.cfa.off == 16 + 24 - i), "%d: %d", i, ret);
	}
}

static void test_augmentations(void)
{
	struct eh_frame_row r;
	struct sec s;
	size_t c, at;
	int ret;

	/* "zPLR": personality (indirect pcrel sdata4, skipped), LSDA in the FDE */
	sec_init(&s);
	c = cie_full(&s, 1, "zPLR", B(0x9b, 1, 2, 3, 4, 0x1b, 0x1b), 16, CIE_INIT);
	at = s.n;
	put32(&s, 0);
	put32(&s, s.n - c);
	put32(&s, PC0 - (EHF_BASE + s.n));
	put32(&s, 0x10);
	put(&s, B(4, 0xde, 0xad, 0xbe, 0xef, 0x0e, 40));
	end_entry(&s, at);
	s.tab[0][0] = PC0 - EHF_BASE;
	s.tab[0][1] = at;
	s.nfde = 1;
	CHECK(!finish(&s), "hdr");
	ret = lookup(&s, PC0, &r);
	CHECK(!ret && r.cfa.off == 40, "%d", ret);
}

/* One CIE of @aug and augmentation data, one FDE: the lookup's error */
static int cie_error(u8 ver, const char *aug, const u8 *ad, size_t an, u8 ra)
{
	struct eh_frame_row r;
	struct sec s;

	sec_init(&s);
	fde(&s, cie_full(&s, ver, aug, ad, an, ra, CIE_INIT), PC0, 0x10, B(0));
	return finish(&s) ?: lookup(&s, PC0, &r);
}

static void test_refused_cies(void)
{
	struct eh_frame_row r;
	struct sec s;
	size_t c, at;
	int ret;

	CHECK(cie_error(2, "zR", B(0x1b), 16) == -EOPNOTSUPP, "version 2");
	CHECK(cie_error(3, "zR", B(0x1b), 16) == -EOPNOTSUPP, "version 3");
	CHECK(cie_error(1, "", NONE, 16) == -EOPNOTSUPP, "no augmentation");
	CHECK(cie_error(1, "zP", B(0x9b, 0, 0, 0, 0), 16) == -EOPNOTSUPP, "no R");
	CHECK(cie_error(1, "zPR", B(0x1b, 0, 0, 0, 0, 0x1b), 16) == -EOPNOTSUPP,
	      "direct personality");
	CHECK(cie_error(1, "zR", B(0x1b), 15) == -EOPNOTSUPP, "RA in column 15");
	CHECK(cie_error(1, "eh", B(0), 16) == -EOPNOTSUPP, "old gcc's eh");
	CHECK(cie_error(1, "zRRRRRRR", B(0x1b), 16) == -EOPNOTSUPP, "too long");
	CHECK(cie_error(1, "zRB", B(0x1b), 16) == -EOPNOTSUPP, "unknown letter");
	CHECK(cie_error(1, "zR", B(0x9b), 16) == -EOPNOTSUPP, "indirect FDE pointers");
	CHECK(cie_error(1, "zR", B(0x5b), 16) == -EOPNOTSUPP, "aligned pointers");
	CHECK(cie_error(1, "zR", B(0x1b), 6) == -EOPNOTSUPP, "RA in the FP column");
	CHECK(cie_error(1, "zR", B(0x1b), 7) == -EOPNOTSUPP, "RA in the SP column");
	/* augmentation data longer than the bound, than the CIE */
	sec_init(&s);
	s.lim.max_aug = 0;
	fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0));
	CHECK(!finish(&s) && lookup(&s, PC0, &r) == -E2BIG, "max_aug");
	sec_init(&s);
	c = s.n;
	put(&s, B(12, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 40, 0x1b));
	fde(&s, c, PC0, 0x10, B(0));
	CHECK(!finish(&s) && lookup(&s, PC0, &r) == -EINVAL, "aug past the CIE");
	/* code alignment 0 */
	sec_init(&s);
	c = s.n;
	put(&s, B(13, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 0, 0x78, 16, 1, 0x1b));
	fde(&s, c, PC0, 0x10, B(0));
	CHECK(!finish(&s) && lookup(&s, PC0, &r) == -EOPNOTSUPP, "code alignment 0");
	/* advance in a CIE */
	sec_init(&s);
	fde(&s, cie(&s, B(0x0c, 7, 8, 0x41)), PC0, 0x10, B(0));
	CHECK(!finish(&s) && lookup(&s, PC0, &r) == -EINVAL, "advance in a CIE");
	/* the FDE's CIE pointer: before the section, at an FDE */
	sec_init(&s);
	at = fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0));
	memcpy(s.b + at + 4, &(u32){ 0x10000 }, 4);
	CHECK(!finish(&s) && lookup(&s, PC0, &r) == -EINVAL, "CIE before the section");
	sec_init(&s);
	c = cie(&s, CIE_INIT);
	c = fde(&s, c, PC0, 0x10, B(0));
	fde(&s, c, PC0 + 0x10, 0x10, B(0));
	ret = finish(&s) ?: lookup(&s, PC0 + 0x10, &r);
	CHECK(ret == -EINVAL, "CIE pointer to an FDE: %d", ret);
}

static void test_refused_entries(void)
{
	struct eh_frame_row r;
	struct sec s;
	size_t c, at;
	int ret;

	/* a 64-bit length, a length past the end, a zero length */
	sec_init(&s);
	c = cie(&s, CIE_INIT);
	at = fde(&s, c, PC0, 0x10, B(0));
	memcpy(s.b + at, &(u32){ 0xffffffff }, 4);
	CHECK(!finish(&s) && lookup(&s, PC0, &r) == -EINVAL, "64-bit length");
	memcpy(s.b + at, &(u32){ 0x1000 }, 4);
	CHECK(lookup(&s, PC0, &r) == -EINVAL, "length past the end");
	memcpy(s.b + at, &(u32){ 0 }, 4);
	CHECK(lookup(&s, PC0, &r) == -EINVAL, "zero length");
	/* a pc range that wraps (-16) */
	sec_init(&s);
	at = fde(&s, cie(&s, CIE_INIT), PC0, -16, B(0));
	ret = finish(&s) ?: eh_frame_decode_fde(&s.hdr, EHF_BASE + at, &(struct eh_frame_fde){},
						&s.lim, &s.mem);
	CHECK(ret == -EINVAL, "%d", ret);
	/* a table entry pointing out of the memory */
	sec_init(&s);
	fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0));
	s.tab[0][1] = 0x7fff0000;
	CHECK(!finish(&s) && lookup(&s, PC0, &r) == -EINVAL, "FDE out of bounds");
}

static void test_refused_headers(void)
{
	struct eh_frame_hdr h;
	struct sec s;

	sec_init(&s);
	fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0));
	CHECK(!finish(&s), "hdr");
	s.b[0] = 2;
	CHECK(eh_frame_hdr_init(&h, EHF_BASE, EHF_HDR_SIZE, EHF_BASE, EHF_BASE + s.n,
				&s.lim, &s.mem) == -EOPNOTSUPP, "version 2");
	s.b[0] = 1;
	s.b[3] = 0x1b;
	CHECK(eh_frame_hdr_init(&h, EHF_BASE, EHF_HDR_SIZE, EHF_BASE, EHF_BASE + s.n,
				&s.lim, &s.mem) == -EOPNOTSUPP, "pcrel table");
	s.b[3] = 0xff;
	CHECK(eh_frame_hdr_init(&h, EHF_BASE, EHF_HDR_SIZE, EHF_BASE, EHF_BASE + s.n,
				&s.lim, &s.mem) == -EOPNOTSUPP, "no table");
	s.b[3] = 0x3b;
	memcpy(s.b + 8, &(u32){ 31 }, 4);
	CHECK(eh_frame_hdr_init(&h, EHF_BASE, EHF_HDR_SIZE, EHF_BASE, EHF_BASE + s.n,
				&s.lim, &s.mem) == -EINVAL, "count past the section");
	s.lim.max_fdes = 30;
	CHECK(eh_frame_hdr_init(&h, EHF_BASE, EHF_HDR_SIZE, EHF_BASE, EHF_BASE + s.n,
				&s.lim, &s.mem) == -E2BIG, "count over the bound");
	CHECK(eh_frame_hdr_init(&h, EHF_BASE + 0x100000, 16, EHF_BASE, EHF_BASE + s.n,
				&s.lim, &s.mem) == -EFAULT, "unreadable");
	CHECK(eh_frame_hdr_init(&h, EHF_BASE, 3, EHF_BASE, EHF_BASE + s.n,
				&s.lim, &s.mem) == -EINVAL, "truncated");
}

static void test_refused_programs(void)
{
	u8 big[40];
	struct eh_frame_row r;
	struct sec s;
	int ret;

	CHECK(one(B(0x01, 0, 0, 0, 0), PC0, &r) == -EOPNOTSUPP, "set_loc");
	CHECK(one(B(0x3f), PC0, &r) == -EOPNOTSUPP, "unknown instruction");
	CHECK(one(B(0x0b), PC0, &r) == -EINVAL, "restore_state without remember");
	memset(big, 0x0a, sizeof(big));
	CHECK(one(big, EH_FRAME_MAX_STATE, PC0, &r) == 0, "remember to the limit");
	CHECK(one(big, EH_FRAME_MAX_STATE + 1, PC0, &r) == -E2BIG, "remember too deep");
	CHECK(one(B(0x08, 6), PC0, &r) == -EOPNOTSUPP, "same_value (not emitted)");
	CHECK(one(B(0x14, 6, 2), PC0, &r) == -EOPNOTSUPP, "val_offset (not emitted)");
	CHECK(one(B(0x12, 7, 0x7e), PC0, &r) == -EOPNOTSUPP, "def_cfa_sf (not emitted)");
	ret = one(B(0x0f, 3, 0x77, 8, 6, 0x0e, 16), PC0, &r);
	CHECK(!ret && r.cfa.how == EH_FRAME_CFA_BAD, "def_cfa_offset on an expression");
	ret = one(B(0x0f, 3, 0x77, 8, 6, 0x0d, 6), PC0, &r);
	CHECK(!ret && r.cfa.how == EH_FRAME_CFA_BAD, "def_cfa_register on an expression");
	CHECK(one(B(0x0e, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 1),
		  PC0, &r) == -EINVAL, "LEB128 of 11 bytes");
	CHECK(one(B(0x0e, 0x80, 0x80, 0x80, 0x80, 0x10), PC0, &r) == -EINVAL,
	      "LEB128 over 32 bits");
	CHECK(one(B(0x0e, 0x80, 0x80, 0x80, 0x80, 0x08), PC0, &r) == 0, "LEB128 of 32 bits");
	CHECK(one(B(0x0e), PC0, &r) == -EINVAL, "truncated operand");
	CHECK(one(B(0x0f, 5, 0x77), PC0, &r) == -EINVAL, "expression past the end");
	/* a program longer than the bound */
	sec_init(&s);
	s.lim.max_prog = 3;
	fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0, 0, 0, 0));
	CHECK(!finish(&s) && lookup(&s, PC0, &r) == -E2BIG, "max_prog");
	/* a pc outside the FDE given to eh_frame_run() */
	sec_init(&s);
	fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0));
	CHECK(!finish(&s), "hdr");
	{
		struct eh_frame_fde f;

		ret = eh_frame_find_fde(&s.hdr, PC0, &f, &s.lim, &s.mem);
		CHECK(!ret && eh_frame_run(&f, PC0 + 0x10, NULL, NULL, &r, &s.lim,
					   &s.mem) == -ENOENT, "%d", ret);
	}
	/* rows that cannot be used, and why */
	ret = one(B(0x0c, 10, 8), PC0, &r);
	CHECK(!ret && eh_frame_row_usable(&r) == EH_FRAME_WHY_CFA_REG, "r10");
	ret = one(B(0x09, 16, 3), PC0, &r);
	CHECK(!ret && eh_frame_row_usable(&r) == EH_FRAME_WHY_RA, "RA in rbx");
	ret = one(B(0x09, 6, 3), PC0, &r);
	CHECK(!ret && eh_frame_row_usable(&r) == EH_FRAME_WHY_FP, "FP in rbx");
	ret = one(B(0x09, 7, 3), PC0, &r);
	CHECK(!ret && eh_frame_row_usable(&r) == EH_FRAME_WHY_SP, "SP in rbx");
	sec_init(&s);
	fde(&s, cie(&s, B(0x90, 1)), PC0, 0x10, B(0));
	CHECK(!finish(&s) && !lookup(&s, PC0, &r) &&
	      eh_frame_row_usable(&r) == EH_FRAME_WHY_CFA_NONE, "no CFA");
}

/* Expressions not taken: the row says so, the program goes on */
static void test_refused_expressions(void)
{
	static const struct { const char *what; u8 e[12]; u8 n; } bad[] = {
		{ "mul", { 0x77, 8, 0x79, 0, 0x1e }, 5 },
		{ "deref of a constant", { 0x38, 0x06 }, 2 },
		{ "deref twice", { 0x77, 8, 0x06, 0x06 }, 4 },
		{ "a deep stack", { 0x30, 0x30, 0x30, 0x30, 0x30, 0x22, 0x22, 0x22, 0x22 }, 9 },
		{ "empty", { 0 }, 0 },
		{ "plus of one value", { 0x22 }, 1 },
		{ "and of sp", { 0x77, 0, 0x3f, 0x1a }, 4 },
		{ "ge of a register", { 0x77, 0, 0x3f, 0x2a }, 4 },
		{ "shl by 16", { 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x40, 0x24 }, 8 },
		{ "a constant", { 0x38 }, 1 },
		{ "an operand past the end", { 0x77 }, 1 },
	};
	struct eh_frame_row r;
	u8 prog[48];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		prog[0] = 0x0f;
		prog[1] = bad[i].n;
		memcpy(prog + 2, bad[i].e, bad[i].n);
		memcpy(prog + 2 + bad[i].n, B(0x41, 0x0c, 7, 24));
		ret = one(prog, bad[i].n + 6, PC0, &r);
		CHECK(!ret && r.cfa.how == EH_FRAME_CFA_BAD &&
		      eh_frame_row_usable(&r) == EH_FRAME_WHY_CFA_EXPR, "%s: %d how %d",
		      bad[i].what, ret, r.cfa.how);
		/* the next instruction is read where the expression ends */
		ret = one(prog, bad[i].n + 6, PC0 + 1, &r);
		CHECK(!ret && cfa_is(&r, EH_FRAME_CFA_REG, 7, 24), "%s after: %d",
		      bad[i].what, ret);
	}
	/* longer than max_expr: not run */
	memset(prog, 0x96, sizeof(prog));
	prog[0] = 0x0f;
	prog[1] = 40;
	prog[2] = 0x77;
	prog[3] = 8;
	ret = one(prog, 42, PC0, &r);
	CHECK(!ret && r.cfa.how == EH_FRAME_CFA_BAD, "long: %d", ret);
	prog[1] = 20;
	ret = one(prog, 22, PC0, &r);
	CHECK(!ret && r.cfa.how == EH_FRAME_CFA_BAD, "nops: %d", ret);
	/* a register expression not taken */
	ret = one(B(0x10, 16, 2, 0x38, 0x1e), PC0, &r);
	CHECK(!ret && r.ra.how == EH_FRAME_RULE_BAD &&
	      eh_frame_row_usable(&r) == EH_FRAME_WHY_RA, "%d", ret);
}

static void test_eval_bounds(void)
{
	struct eh_frame_regs regs = { .ip = PC0, .sp = EHF_STACK + 0x100 }, c;
	struct eh_frame_row r;
	struct sec s;
	int ret;

	sec_init(&s);
	fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0));
	fde(&s, 0x100, PC0 + 0x10, 0x10, B(0x0f, 3, 0x77, 16, 0x06));
	fde(&s, 0x100, PC0 + 0x20, 0x10, B(0x07, 16));
	CHECK(!finish(&s), "hdr");
	ret = lookup(&s, PC0, &r);
	*(u64 *)&s.space.stack[0x100] = EHF_LIMIT;
	CHECK(!ret && eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) == -EFAULT,
	      "RA at the limit");
	*(u64 *)&s.space.stack[0x100] = EHF_LIMIT - 1;
	CHECK(!eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) && c.ip == EHF_LIMIT - 1,
	      "RA below the limit");
	regs.sp = EHF_LIMIT - 8;
	CHECK(eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) == -EFAULT, "CFA at the limit");
	regs.sp = EHF_LIMIT - 12;
	CHECK(eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) == -EFAULT,
	      "RA slot unreadable");
	regs.sp = EHF_STACK - 0x1000;
	CHECK(eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) == -EFAULT, "unreadable stack");
	regs.sp = EHF_STACK + 0x100;
	ret = lookup(&s, PC0 + 0x10, &r);
	*(u64 *)&s.space.stack[0x110] = EHF_LIMIT + 0x100;
	CHECK(!ret && eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) == -EFAULT,
	      "loaded CFA above the limit");
	regs.sp = -16UL;
	CHECK(eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) == -EFAULT, "wrapping sp");
	regs.sp = EHF_STACK + 0x100;
	ret = lookup(&s, PC0 + 0x20, &r);
	CHECK(!ret && eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) == EH_FRAME_OUTERMOST,
	      "outermost");
	ret = one(B(0x09, 16, 3), PC0, &r);
	CHECK(!ret && eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &s.mem) == -EOPNOTSUPP,
	      "not usable");
}

static void test_eval_register_forms(void)
{
	struct eh_frame_regs regs = { .ip = PC0, .sp = EHF_STACK + 0x100, .fp = 0x77 }, c;
	struct eh_frame_row r;
	int ret;

	/* FP = rsp - 8 (a value, not a slot) */
	ret = one(B(0x16, 6, 2, 0x77, 0x78), PC0, &r);
	CHECK(!ret && !eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &one_space()->mem) &&
	      c.fp == regs.sp - 8, "%d fp %#lx", ret, c.fp);
	/* FP in SP, FP undefined */
	ret = one(B(0x09, 6, 7), PC0, &r);
	CHECK(!ret && !eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &one_space()->mem) &&
	      c.fp == regs.sp, "%d", ret);
	ret = one(B(0x07, 6), PC0, &r);
	CHECK(!ret && !eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &one_space()->mem) &&
	      c.fp == 0, "%d", ret);
	/* CFA on FP, FP unchanged */
	ret = one(B(0x0c, 6, 16), PC0, &r);
	regs.fp = EHF_STACK + 0x200;
	CHECK(!ret && !eh_frame_eval(&r, &regs, EHF_LIMIT, &c, &one_space()->mem) &&
	      c.sp == regs.fp + 16 && c.fp == regs.fp, "%d", ret);
}

static void test_pointer_encodings(void)
{
	static const u8 encs[] = { 0x04, 0x0c, 0x03, 0x0b, 0x1c, 0x01, 0x09, 0x3b };
	struct eh_frame_row r;
	struct sec s;
	size_t i;
	int ret;

	/* The FDEs' pointers: pcrel|sdata4 only (what every CIE says) */
	for (i = 0; i < sizeof(encs); i++) {
		sec_init(&s);
		fde(&s, cie_full(&s, 1, "zR", &encs[i], 1, 16, CIE_INIT), PC0, 0x10, B(0));
		ret = finish(&s) ?: lookup(&s, PC0, &r);
		CHECK(ret == -EOPNOTSUPP, "encoding %#x: %d", encs[i], ret);
	}
	/* The header's eh_frame_ptr: pcrel|sdata4 only */
	sec_init(&s);
	fde(&s, cie(&s, CIE_INIT), PC0, 0x10, B(0));
	CHECK(!finish(&s), "hdr");
	s.b[1] = 0x3b;
	CHECK(eh_frame_hdr_init(&s.hdr, EHF_BASE, EHF_HDR_SIZE, EHF_BASE, EHF_BASE + s.n,
				&s.lim, &s.mem) == -EOPNOTSUPP, "datarel eh_frame_ptr");
}

#define T(fn) { #fn + 5, fn }
static const struct { const char *name; void (*fn)(void); } tests[] = {
	T(test_cie_rules_at_entry),
	T(test_push_rbp_frame),
	T(test_every_register_instruction),
	T(test_remember_restore_state),
	T(test_plt_expression),
	T(test_realigned_stack_expressions),
	T(test_signal_trampoline),
	T(test_rows_by_callback),
	T(test_table_search),
	T(test_augmentations),
	T(test_refused_cies),
	T(test_refused_entries),
	T(test_refused_headers),
	T(test_refused_programs),
	T(test_refused_expressions),
	T(test_eval_bounds),
	T(test_eval_register_forms),
	T(test_pointer_encodings),
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		seeds = argv[2];
	printf("1..%zu\n", sizeof(tests) / sizeof(tests[0]));
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		test_name = tests[i].name;
		test_failed = 0;
		tests[i].fn();
		printf("%s %zu %s\n", test_failed ? "not ok" : "ok", i + 1, test_name);
		if (test_failed)
			failed++;
		else
			passed++;
	}
	printf("# %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
