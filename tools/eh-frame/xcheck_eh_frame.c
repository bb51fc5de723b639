// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-check of the .eh_frame reader against elfutils' libdw.
 *
 * For each object, each FDE of its .eh_frame_hdr table, each row libdw
 * sees (its first and last address and one between) and each row the
 * reader sees: look the pc up with the reader (binary search, CIE, FDE,
 * CFA program) and with dwarf_cfi_addrframe(), evaluate both rules on the
 * same registers and the same made-up stack memory (every word a hash of
 * its address, so a load from another address gives another value), and
 * compare the CFA, the return address, the caller's SP and FP.
 *
 *   xcheck_eh_frame OBJECT...               the check: one table line per
 *                                           object; exit 1 on any mismatch
 *   xcheck_eh_frame --bench OBJECT...       the cost of lookups
 *   xcheck_eh_frame --seeds DIR OBJECT...   fuzz seeds of real FDEs
 */
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ehf_elf.h"
#include "ehf_test.h"

#define LIMIT		0x800000000000UL	/* x86-64's user address limit */
#define MAX_SHOWN	10

static const char *const why_name[EH_FRAME_WHY_NR] = {
	[EH_FRAME_WHY_CFA_NONE] = "cfa-none", [EH_FRAME_WHY_CFA_REG] = "cfa-reg",
	[EH_FRAME_WHY_CFA_EXPR] = "cfa-expr", [EH_FRAME_WHY_RA] = "ra",
	[EH_FRAME_WHY_FP] = "fp", [EH_FRAME_WHY_SP] = "sp",
};

struct stats {
	unsigned long fdes, fde_err, pcs, equal, outermost, why[EH_FRAME_WHY_NR];
	unsigned long lookup_err, libdw_err, mismatch, cfa_forms[8];
	unsigned long max_prog, max_insns, max_fde_bytes;
};

/* The made-up stack: a word is a hash of its address, below LIMIT */
static uint64_t word_at(uint64_t a)
{
	a += 0x9e3779b97f4a7c15ULL;
	a = (a ^ (a >> 30)) * 0xbf58476d1ce4e5b9ULL;
	a = (a ^ (a >> 27)) * 0x94d049bb133111ebULL;
	return (a ^ (a >> 31)) & (LIMIT - 1) & ~7ULL;
}

static int stack_read(void *ctx, unsigned long addr, void *dst, unsigned int len)
{
	uint64_t w = word_at(addr);

	(void)ctx;
	if (len != 8)
		return -EFAULT;
	memcpy(dst, &w, 8);
	return 0;
}

static const struct eh_frame_mem stack_mem = { .read = stack_read };

/*
 * Evaluate a libdw expression: 0 with *@v, 1 if it is a value
 * (DW_OP_stack_value), -1 if it uses what this check does not model
 */
static int eval_ops(const Dwarf_Op *ops, size_t n, const struct eh_frame_regs *regs,
		    const uint64_t *cfa, uint64_t *v)
{
	uint64_t st[16], a, b;
	int sp = 0, value = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint8_t op = ops[i].atom;
		uint64_t reg = op - DW_OP_breg0;

		if (sp >= 14)
			return -1;
		if ((op >= DW_OP_breg0 && op <= DW_OP_breg31) || op == DW_OP_bregx) {
			if (op == DW_OP_bregx)
				reg = ops[i].number;
			a = op == DW_OP_bregx ? ops[i].number2 : ops[i].number;
			if (reg == 7)
				st[sp++] = regs->sp + a;
			else if (reg == 6)
				st[sp++] = regs->fp + a;
			else if (reg == 16)
				st[sp++] = regs->ip + a;
			else
				return -1;
			continue;
		}
		if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
			st[sp++] = op - DW_OP_lit0;
			continue;
		}
		switch (op) {
		case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u:
		case DW_OP_const2s: case DW_OP_const4u: case DW_OP_const4s:
		case DW_OP_const8u: case DW_OP_const8s: case DW_OP_constu:
		case DW_OP_consts:
			st[sp++] = ops[i].number;
			continue;
		case DW_OP_call_frame_cfa:
			if (!cfa)
				return -1;
			st[sp++] = *cfa;
			continue;
		case DW_OP_stack_value:
			value = 1;
			continue;
		case DW_OP_nop:
			continue;
		case DW_OP_deref:
			if (sp < 1)
				return -1;
			st[sp - 1] = word_at(st[sp - 1]);
			continue;
		case DW_OP_plus_uconst:
			if (sp < 1)
				return -1;
			st[sp - 1] += ops[i].number;
			continue;
		}
		if (sp < 2)
			return -1;
		b = st[--sp];
		a = st[sp - 1];
		switch (op) {
		case DW_OP_plus: a += b; break;
		case DW_OP_minus: a -= b; break;
		case DW_OP_and: a &= b; break;
		case DW_OP_or: a |= b; break;
		case DW_OP_shl: a = b < 64 ? a << b : 0; break;
		case DW_OP_ge: a = (int64_t)a >= (int64_t)b; break;
		case DW_OP_gt: a = (int64_t)a > (int64_t)b; break;
		case DW_OP_lt: a = (int64_t)a < (int64_t)b; break;
		case DW_OP_le: a = (int64_t)a <= (int64_t)b; break;
		default: return -1;
		}
		st[sp - 1] = a;
	}
	if (sp < 1)
		return -1;
	*v = st[sp - 1];
	return value;
}

enum { REG_SAME = 2, REG_UNDEF = 3 };

/* libdw's caller value of register @regno: 0 with *@v, REG_SAME, REG_UNDEF, -1 */
static int libdw_reg(Dwarf_Frame *frame, int regno, const struct eh_frame_regs *regs,
		     uint64_t cfa, uint64_t *v)
{
	Dwarf_Op mem[3], *ops;
	size_t n;
	int ret;

	if (dwarf_frame_register(frame, regno, mem, &ops, &n))
		return -1;
	if (!n)
		return ops ? REG_UNDEF : REG_SAME;
	ret = eval_ops(ops, n, regs, &cfa, v);
	if (ret == 0)
		*v = word_at(*v);
	return ret < 0 ? -1 : 0;
}

struct result {
	int ret;		/* eh_frame_eval()'s */
	struct eh_frame_regs caller;
};

/* Compare at @pc with registers @regs; 0 equal, 1 mismatch (@why says) */
static int compare(Dwarf_Frame *frame, const struct eh_frame_row *row,
		   const struct eh_frame_regs *regs, char *why, size_t whysz)
{
	struct eh_frame_regs caller = {};
	Dwarf_Op *ops;
	uint64_t cfa, ra = 0, fp = 0, sp = 0;
	size_t n;
	int ret, rra, rfp, rsp;

	ret = eh_frame_eval(row, regs, LIMIT, &caller, &stack_mem);
	if (ret < 0) {
		snprintf(why, whysz, "reader eval %d", ret);
		return 1;
	}
	if (dwarf_frame_cfa(frame, &ops, &n) || !n || eval_ops(ops, n, regs, NULL, &cfa)) {
		snprintf(why, whysz, "libdw CFA not computable here, reader's is");
		return 1;
	}
	rra = libdw_reg(frame, 16, regs, cfa, &ra);
	rfp = libdw_reg(frame, 6, regs, cfa, &fp);
	if (rfp == REG_SAME)
		fp = regs->fp;
	if (rfp == REG_UNDEF)
		fp = 0;
	if (ret == EH_FRAME_OUTERMOST) {
		if (rra != REG_UNDEF) {
			snprintf(why, whysz, "reader: RA undefined, libdw: %d", rra);
			return 1;
		}
		return 0;
	}
	if (caller.sp != cfa) {
		snprintf(why, whysz, "CFA %#lx, libdw %#llx", caller.sp,
			 (unsigned long long)cfa);
		return 1;
	}
	if (rra || caller.ip != ra) {
		snprintf(why, whysz, "RA %#lx, libdw %#llx (%d)", caller.ip,
			 (unsigned long long)ra, rra);
		return 1;
	}
	/* The caller's SP: the CFA, unless libdw has a rule for rsp (a saved one) */
	rsp = libdw_reg(frame, 7, regs, cfa, &sp);
	if ((rsp == 0 && sp != caller.sp) || rsp < 0) {
		snprintf(why, whysz, "SP %#lx, libdw %#llx (%d)", caller.sp,
			 (unsigned long long)sp, rsp);
		return 1;
	}
	if (rfp < 0 || caller.fp != fp) {
		snprintf(why, whysz, "FP %#lx, libdw %#llx (%d)", caller.fp,
			 (unsigned long long)fp, rfp);
		return 1;
	}
	return 0;
}

struct object {
	const char *path;
	struct ehf_image img;
	struct eh_frame_hdr hdr;
	struct eh_frame_mem mem;
	Dwarf_CFI *cfi;
	struct stats st;
	unsigned long shown;
};

static const struct eh_frame_limits lim = EH_FRAME_LIMITS_DEFAULT;

static void check_pc(struct object *o, unsigned long pc)
{
	struct eh_frame_regs regs[2] = {
		{ .ip = pc, .sp = 0x7ffc12345670UL, .fp = 0x7ffc12346000UL },
		{ .ip = pc, .sp = 0x7ffe00000008UL, .fp = 0x7ffe00000100UL },
	};
	struct eh_frame_row row;
	Dwarf_Frame *frame;
	char why[160];
	int ret, i;

	o->st.pcs++;
	ret = eh_frame_lookup(&o->hdr, pc, &row, &lim, &o->mem);
	if (dwarf_cfi_addrframe(o->cfi, pc, &frame)) {
		o->st.libdw_err++;
		if (!ret && o->shown++ < MAX_SHOWN)
			printf("  %#lx: libdw has no frame: %s\n", pc, dwarf_errmsg(-1));
		return;
	}
	if (ret) {
		o->st.lookup_err++;
		if (o->shown++ < MAX_SHOWN)
			printf("  %#lx: reader lookup %d, libdw has a frame\n", pc, ret);
		free(frame);
		return;
	}
	if (row.insns > o->st.max_insns)
		o->st.max_insns = row.insns;
	ret = eh_frame_row_usable(&row);
	if (ret) {
		if (getenv("XCHECK_VERBOSE") && o->st.why[ret] < 3)
			printf("  %#lx: not representable: %s (cfa %d r%u, ra %d r%u %lld, fp %d)\n",
			       pc, why_name[ret], row.cfa.how, row.cfa.reg, row.ra.how,
			       row.ra.reg, (long long)row.ra.off, row.fp.how);
		o->st.why[ret]++;
		free(frame);
		return;
	}
	o->st.cfa_forms[row.cfa.how]++;
	for (i = 0; i < 2; i++) {
		if (compare(frame, &row, &regs[i], why, sizeof(why))) {
			o->st.mismatch++;
			if (o->shown++ < MAX_SHOWN)
				printf("  MISMATCH %s %#lx: %s\n", o->path, pc, why);
			free(frame);
			return;
		}
	}
	if (row.ra.how == EH_FRAME_RULE_UNDEF)
		o->st.outermost++;
	o->st.equal++;
	free(frame);
}

static bool same_reg(const struct eh_frame_reg *a, const struct eh_frame_reg *b)
{
	return a->how == b->how && a->reg == b->reg && a->off == b->off;
}

static bool same_row(const struct eh_frame_row *a, const struct eh_frame_row *b)
{
	const struct eh_frame_cfa *x = &a->cfa, *y = &b->cfa;

	return a->start == b->start && a->end == b->end && x->how == y->how &&
	       x->reg == y->reg && x->off == y->off && x->add == y->add &&
	       x->ipoff == y->ipoff && x->mask == y->mask && x->thr == y->thr &&
	       x->shift == y->shift && same_reg(&a->ra, &b->ra) &&
	       same_reg(&a->fp, &b->fp) && same_reg(&a->sp, &b->sp);
}

/*
 * The reader's rows, as a converter gets them: each the same as the row
 * a lookup of its first and last address finds (one interpreter, two
 * ways), and checked against libdw there
 */
static int row_start(void *arg, const struct eh_frame_row *row)
{
	struct object *o = arg;
	struct eh_frame_row at;
	int i;

	for (i = 0; i < 2; i++) {
		unsigned long pc = i ? row->end - 1 : row->start;

		if (eh_frame_lookup(&o->hdr, pc, &at, &lim, &o->mem) || !same_row(row, &at)) {
			o->st.mismatch++;
			if (o->shown++ < MAX_SHOWN)
				printf("  MISMATCH %s %#lx: emitted row != row looked up\n",
				       o->path, pc);
		}
	}
	check_pc(o, row->start);
	return 0;
}

static void check_fde(struct object *o, const struct eh_frame_fde *fde)
{
	unsigned long pc = fde->pc_start, n = 0, k;
	struct eh_frame_row row;
	Dwarf_Addr start, end;
	Dwarf_Frame *frame;
	bool sig;
	int ret;

	ret = eh_frame_run(fde, 0, row_start, o, NULL, &lim, &o->mem);
	if (ret) {
		o->st.lookup_err++;
		if (o->shown++ < MAX_SHOWN)
			printf("  FDE %#lx: reader run %d\n", fde->pc_start, ret);
	}
	while (pc < fde->pc_end && n++ < 100000) {
		if (dwarf_cfi_addrframe(o->cfi, pc, &frame)) {
			check_pc(o, pc);
			pc++;
			continue;
		}
		ret = dwarf_frame_info(frame, &start, &end, &sig);
		free(frame);
		if (ret < 0 || end <= pc)
			break;
		if (end > fde->pc_end)
			end = fde->pc_end;
		check_pc(o, pc);
		if (end - pc > 2)
			check_pc(o, pc + (end - pc) / 2);
		if (end - pc > 1)
			check_pc(o, end - 1);
		/* A PLT's CFA depends on the pc: each byte of its first 4 entries */
		if (!eh_frame_lookup(&o->hdr, pc, &row, &lim, &o->mem) &&
		    row.cfa.how == EH_FRAME_CFA_PLT)
			for (k = pc + 1; k < end && k < pc + 64; k++)
				check_pc(o, k);
		pc = end;
	}
}

static int open_object(struct object *o)
{
	int ret;

	if (ehf_image_open(&o->img, o->path))
		return -1;
	o->mem = (struct eh_frame_mem){ .read = ehf_image_read, .ctx = &o->img };
	ret = eh_frame_hdr_init(&o->hdr, o->img.hdr, o->img.hdr_size, o->img.lo,
				o->img.hi, &lim, &o->mem);
	if (ret)
		fprintf(stderr, "%s: eh_frame_hdr_init: %d\n", o->path, ret);
	return ret ? -1 : 0;
}

static int check_object(struct object *o)
{
	unsigned long pc, addr;
	struct eh_frame_fde fde;
	Elf *elf;
	int fd, ret;
	uint32_t i;

	fd = open(o->path, O_RDONLY);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	o->cfi = elf ? dwarf_getcfi_elf(elf) : NULL;
	if (!o->cfi) {
		fprintf(stderr, "%s: libdw: %s\n", o->path, dwarf_errmsg(-1));
		return -1;
	}
	for (i = 0; i < o->hdr.count; i++) {
		o->st.fdes++;
		ret = eh_frame_hdr_entry(&o->hdr, i, &pc, &addr, &o->mem);
		if (!ret)
			ret = eh_frame_decode_fde(&o->hdr, addr, &fde, &lim, &o->mem);
		if (ret) {
			o->st.fde_err++;
			if (o->shown++ < MAX_SHOWN)
				printf("  FDE at %#lx: %d\n", addr, ret);
			continue;
		}
		if (fde.prog_end - fde.prog > o->st.max_fde_bytes)
			o->st.max_fde_bytes = fde.prog_end - fde.prog;
		if (fde.prog_end - fde.prog + fde.cie_prog_end - fde.cie_prog > o->st.max_prog)
			o->st.max_prog = fde.prog_end - fde.prog + fde.cie_prog_end - fde.cie_prog;
		check_fde(o, &fde);
	}
	dwarf_cfi_end(o->cfi);
	elf_end(elf);
	close(fd);
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);	/* CPU time: the machine is shared */
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile unsigned long sink;

/* ns and memory reads per call of @fn at each pc of @pcs (3 rounds) */
static void time_calls(struct object *o, const unsigned long *pcs, uint32_t n, bool run)
{
	unsigned long r0 = o->img.reads;
	struct eh_frame_row row;
	struct eh_frame_fde fde;
	double t0 = now();
	uint32_t i, k;

	for (k = 0; k < 3; k++)
		for (i = 0; i < n; i++)
			sink += run ? eh_frame_lookup(&o->hdr, pcs[i], &row, &lim, &o->mem) :
				eh_frame_find_fde(&o->hdr, pcs[i], &fde, &lim, &o->mem);
	printf("   %6.0f ns %5.1f reads", (now() - t0) * 1e9 / (3.0 * n),
	       (double)(o->img.reads - r0) / (3.0 * n));
}

/*
 * The cost of an FDE search at each FDE's start, and of a lookup (search,
 * decode and run) at its start and at its last byte (the whole program run)
 */
static void bench(struct object *o)
{
	unsigned long *start = calloc(o->hdr.count, sizeof(long));
	unsigned long *last = calloc(o->hdr.count, sizeof(long));
	unsigned long addr, longest = 0;
	struct eh_frame_fde fde;
	uint32_t i, worst = 0;

	for (i = 0; i < o->hdr.count; i++) {
		eh_frame_hdr_entry(&o->hdr, i, &start[i], &addr, &o->mem);
		last[i] = start[i];
		if (eh_frame_decode_fde(&o->hdr, addr, &fde, &lim, &o->mem))
			continue;
		last[i] = fde.pc_end - 1;
		if (fde.prog_end - fde.prog > longest) {
			longest = fde.prog_end - fde.prog;
			worst = i;
		}
	}
	printf("%-40s", o->path);
	time_calls(o, start, o->hdr.count, false);
	time_calls(o, start, o->hdr.count, true);
	time_calls(o, last, o->hdr.count, true);
	printf("\n%-40s   longest program (%lu bytes) at its end:", "", longest);
	time_calls(o, &last[worst], 1, true);
	printf("\n");
	free(start);
	free(last);
}

/*
 * The worst a crafted FDE costs at the default bounds: one FDE whose
 * program of max_prog bytes repeats @insn, looked up at its end
 */
static void bench_crafted(const char *what, const u8 *insn, size_t n)
{
	static u8 img[EHF_HDR_SIZE + 64 + 32768 + 64];
	static struct ehf_space space;
	struct eh_frame_mem mem = { .read = ehf_space_read, .ctx = &space };
	const u8 cie[] = { 16, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
			   0x0c, 7, 8 };	/* CFA = rsp + 8 */
	size_t at = EHF_HDR_SIZE, fde, len;
	struct eh_frame_hdr hdr;
	struct eh_frame_row row;
	double t0;
	s32 v;
	int i, ret = 0;

	memset(img, 0, sizeof(img));
	memcpy(img, (u8[]){ 1, 0x1b, 3, 0x3b }, 4);
	v = EHF_HDR_SIZE - 4;
	memcpy(img + 4, &v, 4);
	memcpy(img + 8, &(u32){ 1 }, 4);
	memcpy(img + at, cie, sizeof(cie));
	fde = at + sizeof(cie);
	len = 4 + 4 + 4 + 1;
	while (len + n <= lim.max_prog + 13) {
		memcpy(img + fde + 4 + len, insn, n);
		len += n;
	}
	memcpy(img + fde, &(u32){ len }, 4);
	memcpy(img + fde + 4, &(u32){ fde + 4 - at }, 4);
	v = 0x100000 - (fde + 8);
	memcpy(img + fde + 8, &v, 4);
	memcpy(img + fde + 12, &(u32){ 0x1000 }, 4);
	v = 0x100000;
	memcpy(img + 12, &v, 4);
	v = fde;
	memcpy(img + 16, &v, 4);
	space.image = img;
	space.image_size = fde + 4 + len;
	if (eh_frame_hdr_init(&hdr, EHF_BASE, EHF_HDR_SIZE, EHF_BASE,
			      EHF_BASE + space.image_size, &lim, &mem))
		abort();
	t0 = now();
	for (i = 0; i < 200; i++)
		ret |= eh_frame_lookup(&hdr, EHF_BASE + 0x100000 + 0xfff, &row, &lim, &mem);
	printf("crafted: %-44s %5zu bytes, %5u insns: %8.0f ns per lookup (%d)\n", what,
	       len - 13, row.insns, (now() - t0) * 1e9 / 200, ret);
}

static int cmp_entry(const void *a, const void *b)
{
	const s32 *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/*
 * Fuzz seeds from a real object (the fuzzer's input: ehf_test.h): runs of
 * consecutive FDEs of one CIE, from 12 places of its .eh_frame, after a
 * copy of that CIE (their CIE pointers rewritten), up to 4 KiB, behind a
 * .eh_frame_hdr made for them
 */
static void write_seeds(struct object *o, const char *dir, int *nseeds)
{
	static u8 img[EHF_HDR_SIZE + 4096];
	struct ehf_space space;
	struct eh_frame_mem mem = { .read = ehf_space_read, .ctx = &space };
	struct eh_frame_hdr hdr = { .start = EHF_BASE, .lo = EHF_BASE };
	unsigned long at, cie, end = o->img.hi;
	u32 len, flen, clen, id, nent, nfde = 0, k;
	struct eh_frame_fde fde;
	s32 tab[30][2], ptr;
	size_t n;
	char path[4096];
	FILE *f;

	if (o->mem.read(o->mem.ctx, o->img.hdr + 4, &ptr, 4))
		return;
	/* Debian's eh_frame_ptr: pcrel|sdata4 */
	for (at = o->img.hdr + 4 + ptr; at + 8 <= end; at += 4 + len) {
		if (o->mem.read(o->mem.ctx, at, &len, 4) || !len || len == 0xffffffff ||
		    o->mem.read(o->mem.ctx, at + 4, &id, 4))
			break;
		if (!id || nfde++ % (o->hdr.count / 12 + 1))
			continue;
		cie = at + 4 - id;
		if (o->mem.read(o->mem.ctx, cie, &clen, 4) || clen > 512 ||
		    o->mem.read(o->mem.ctx, cie, img + EHF_HDR_SIZE, 4 + clen))
			continue;
		n = EHF_HDR_SIZE + 4 + clen;
		nent = 0;
		hdr.hi = EHF_BASE + sizeof(img);
		space.image = img;
		space.image_size = sizeof(img);
		for (k = 0; nent < 30; k += 4 + flen) {
			if (o->mem.read(o->mem.ctx, at + k, &flen, 4) ||
			    o->mem.read(o->mem.ctx, at + k + 4, &id, 4) ||
			    at + k + 4 - id != cie || n + 4 + flen > sizeof(img) ||
			    o->mem.read(o->mem.ctx, at + k, img + n, 4 + flen))
				break;
			id = n + 4 - EHF_HDR_SIZE;
			memcpy(img + n + 4, &id, 4);
			if (!eh_frame_decode_fde(&hdr, EHF_BASE + n, &fde, &lim, &mem)) {
				tab[nent][0] = fde.pc_start - EHF_BASE;
				tab[nent++][1] = n;
			}
			n += 4 + flen;
		}
		if (!nent)
			continue;
		qsort(tab, nent, sizeof(tab[0]), cmp_entry);
		memset(img, 0, EHF_HDR_SIZE);
		memcpy(img, (u8[]){ 1, 0x1b, 3, 0x3b }, 4);
		ptr = EHF_HDR_SIZE - 4;
		memcpy(img + 4, &ptr, 4);
		memcpy(img + 8, &nent, 4);
		memcpy(img + 12, tab, nent * 8);
		snprintf(path, sizeof(path), "%s/real-%03d", dir, (*nseeds)++);
		f = fopen(path, "w");
		if (f) {
			fwrite(img, 1, n, f);
			fclose(f);
		}
	}
}

int main(int argc, char **argv)
{
	struct object *o;
	int i, j = 0, first = 1, bad = 0, do_bench = 0, skip;
	char whys[160];

	setvbuf(stdout, NULL, _IOLBF, 0);
	elf_version(EV_CURRENT);
	if (argc > 1 && !strcmp(argv[1], "--bench")) {
		do_bench = 1;
		first = 2;
	}
	if (argc > 2 && !strcmp(argv[1], "--seeds")) {
		for (i = 3; i < argc; i++) {
			o = calloc(1, sizeof(*o));
			o->path = argv[i];
			if (!open_object(o))
				write_seeds(o, argv[2], &j);
			ehf_image_close(&o->img);
			free(o);
		}
		return 0;
	}
	if (do_bench)
		printf("%-40s   %-20s   %-20s   %-20s\n", "object", "find_fde",
		       "lookup at FDE start", "lookup at FDE end");
	else
		printf("%-40s %6s %7s %7s %6s %s %s\n", "object", "FDEs", "pcs", "equal",
		       "MISMATCH", "not representable / errors", "max prog bytes, insns");
	for (i = first; i < argc; i++) {
		o = calloc(1, sizeof(*o));
		o->path = argv[i];
		skip = open_object(o) || (!do_bench && check_object(o));
		if (!skip && do_bench)
			bench(o);
		if (skip || do_bench) {
			bad |= skip;
			ehf_image_close(&o->img);
			free(o);
			continue;
		}
		whys[0] = 0;
		for (j = 1; j < EH_FRAME_WHY_NR; j++)
			if (o->st.why[j])
				snprintf(whys + strlen(whys), sizeof(whys) - strlen(whys),
					 "%s %lu, ", why_name[j], o->st.why[j]);
		printf("%-40s %6lu %7lu %7lu %6lu   %sfde-err %lu, lookup-err %lu, libdw-err %lu; %lu, %lu\n",
		       o->path, o->st.fdes, o->st.pcs, o->st.equal, o->st.mismatch, whys,
		       o->st.fde_err, o->st.lookup_err, o->st.libdw_err, o->st.max_prog,
		       o->st.max_insns);
		printf("%-40s   CFA forms checked: reg %lu, deref %lu, plt %lu; outermost %lu\n",
		       "", o->st.cfa_forms[EH_FRAME_CFA_REG],
		       o->st.cfa_forms[EH_FRAME_CFA_DEREF], o->st.cfa_forms[EH_FRAME_CFA_PLT],
		       o->st.outermost);
		if (o->st.mismatch || o->st.fde_err || o->st.lookup_err || !o->st.equal)
			bad = 1;
		ehf_image_close(&o->img);
		free(o);
	}
	if (!do_bench)
		printf("%s\n", bad ? "xcheck: FAIL" : "xcheck: all objects agree with libdw");
	if (do_bench) {
		bench_crafted("def_cfa_offset", (u8[]){ 0x0e, 16 }, 2);
		bench_crafted("remember_state, restore_state", (u8[]){ 0x0a, 0x0b }, 2);
		bench_crafted("PLT expression + 10 plus_uconst",
			      (u8[]){ 0x0f, 31, 0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a,
				      0x33, 0x24, 0x22, 0x23, 1, 0x23, 1, 0x23, 1, 0x23, 1,
				      0x23, 1, 0x23, 1, 0x23, 1, 0x23, 1, 0x23, 1, 0x23, 1 },
			      33);
		bench_crafted("expression of a register not kept (skipped)",
			      (u8[]){ 0x10, 3, 30, 0x77, 8, 0x96, 0x96, 0x96, 0x96, 0x96,
				      0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96,
				      0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96, 0x96,
				      0x96, 0x96, 0x96, 0x96, 0x96 }, 33);
	}
	return bad;
}
