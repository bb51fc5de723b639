// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests for the SFrame reader core (versions 1, 2 and 3)
 * (build/linux/kernel/unwind/sframe_reader.c, compiled in directly).
 *
 * Usage: test_sframe ELF...          run all tests; each ELF (built with
 *                                     -Wa,--gsframe) is checked at every ip
 *                                     of its text against objdump --sframe
 *        test_sframe --seeds DIR ELF...   write a fuzz seed corpus and exit
 *
 * Prints "PASS name" or "FAIL name: why" per test, then "N passed, N failed".
 * Every read of a section goes through mem_read(), which counts reads
 * outside the section: any such read fails the test that made it.
 */
#include <linux/sframe_reader.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "sfbuild.h"
#include "sfelf.h"

/* ---------------------------------------------------------------------- */
/* Reporting */

static int n_pass, n_fail;
static long oob_reads;		/* reads outside the section, since the last report */

static const char *err_name(long e)
{
	static char buf[4][32];
	static int next;

	switch (e) {
	case 0:
		return "0";
	case -EINVAL:
		return "-EINVAL";
	case -ENOENT:
		return "-ENOENT";
	case -EFAULT:
		return "-EFAULT";
	}
	next = (next + 1) % 4;
	snprintf(buf[next], sizeof(buf[next]), "%ld", e);
	return buf[next];
}

static void report(const char *name, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok && oob_reads) {
		printf("FAIL %s: %ld out-of-bounds read(s)\n", name, oob_reads);
		n_fail++;
	} else if (ok) {
		printf("PASS %s\n", name);
		n_pass++;
	} else {
		printf("FAIL %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		n_fail++;
	}
	oob_reads = 0;
	fflush(stdout);
}

static void expect_ret(const char *name, long expected, long got)
{
	report(name, expected == got, "expected %s, got %s", err_name(expected), err_name(got));
}

/* ---------------------------------------------------------------------- */
/* Section memory and the read callback */

struct mem {
	unsigned long base;	/* address of buf[0] */
	unsigned char *buf;	/* exactly len bytes, so ASan sees overruns too */
	size_t len;
	long reads;		/* calls so far */
	long fail_at;		/* fail the call with this index; -1: never */
	unsigned int scramble;	/* non-zero: PRNG state; change a byte after each read */
};

static unsigned int prng(unsigned int *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

static int mem_read(void *ctx, unsigned long addr, void *dst, unsigned int len)
{
	struct mem *m = ctx;
	long n = m->reads++;

	if (addr < m->base || addr - m->base > m->len || len > m->len - (addr - m->base)) {
		oob_reads++;
		return -EFAULT;
	}
	if (n == m->fail_at)
		return -EFAULT;
	memcpy(dst, m->buf + (addr - m->base), len);
	if (m->scramble && m->len)
		m->buf[prng(&m->scramble) % m->len] = prng(&m->scramble) & 0xff;
	return 0;
}

static struct mem *mem_new(unsigned long base, const unsigned char *bytes, size_t len)
{
	struct mem *m = calloc(1, sizeof(*m));

	if (!m || !(m->buf = malloc(len ? len : 1))) {
		perror("malloc");
		exit(2);
	}
	memcpy(m->buf, bytes, len);
	m->base = base;
	m->len = len;
	m->fail_at = -1;
	return m;
}

static void mem_free(struct mem *m)
{
	free(m->buf);
	free(m);
}

/* ---------------------------------------------------------------------- */
/* Hand-built sections */

#define SEC_BASE	0x500000UL	/* where hand-built sections live */
#define TEXT_START	0x400000UL
#define TEXT_END	0x480000UL
#define IMG_MAX		(1 << 20)

static struct sb_fde g_fdes[4096];
static unsigned char g_img[IMG_MAX];

/* init a section image at @base with the standard text range */
static int init_at(struct sframe_section *sec, struct mem *m)
{
	return sframe_section_init(sec, m->base, m->base + m->len, TEXT_START, TEXT_END,
				   mem_read, m);
}

/* init, then find @ip; the first error wins */
static int find_img(const unsigned char *img, size_t len, unsigned long ip,
		    struct sframe_frame *frame)
{
	struct mem *m = mem_new(SEC_BASE, img, len);
	struct sframe_section sec;
	int ret = init_at(&sec, m);

	if (!ret)
		ret = sframe_find(&sec, ip, frame, mem_read, m);
	mem_free(m);
	return ret;
}

static int validate_img(const unsigned char *img, size_t len)
{
	struct mem *m = mem_new(SEC_BASE, img, len);
	struct sframe_section sec;
	int ret = init_at(&sec, m);

	if (!ret)
		ret = sframe_section_validate(&sec, ~0U, mem_read, m);
	mem_free(m);
	return ret;
}

/* One expected lookup: ret, and the frame if ret is 0 */
struct probe {
	unsigned long ip;
	int ret;
	int cfa;
	int use_fp;
	int fp;
};

/* A probe expecting -ENOENT */
#define NO_FRAME(ip)	{ (ip), -ENOENT, 0, 0, 0 }

#define F0	(TEXT_START + 0x100)	/* PCINC, 1-byte starts */
#define F1	(TEXT_START + 0x200)	/* PCINC, 2-byte starts */
#define F2	(TEXT_START + 0x1000)	/* PCMASK, block of 16 */
#define F3	(TEXT_START + 0x2000)	/* PCINC, first FRE at 2, then outermost */

/*
 * The standard section: four functions with gaps between them.  For
 * version 1 the PCMASK block size is implicitly 16.
 */
/* Version 3: write the FRE blobs in reverse index order (as ld may) */
static int std_reverse_blobs;

static struct sb_layout std_section_moved(int version, int flags, unsigned long base,
					  int auxhdr_len, unsigned long shift)
{
	struct sb_section s;
	struct sb_fde *f;

	sb_init(&s, version, flags, g_fdes);
	s.auxhdr_len = auxhdr_len;
	s.reverse_blobs = std_reverse_blobs;
	f = sb_add_fde(&s, F0 + shift, 0x40, 0);
	sb_add_fre(f, 0x0, 1, 8, 0);
	sb_add_fre(f, 0x1, 1, 16, -16);
	sb_add_fre(f, 0x4, 0, 16, -16);
	sb_add_fre(f, 0x3f, 1, 8, 0);
	f = sb_add_fde(&s, F1 + shift, 0x300, 1);
	sb_add_fre(f, 0x0, 1, 8, 0);
	sb_add_fre(f, 0x2, 1, 16, 0);
	sb_add_fre(f, 0x120, 1, 5000, -300);
	sb_add_fre(f, 0x2ff, 1, 8, 0);
	f = sb_add_fde(&s, F2 + shift, 0x40, 0);
	f->pcmask = 1;
	f->rep_size = 16;
	sb_add_fre(f, 0x0, 1, 8, 0);
	sb_add_fre(f, 0xb, 1, 16, 0);
	f = sb_add_fde(&s, F3 + shift, 0x10, 2);
	sb_add_fre(f, 0x2, 1, 8, 0);
	f->fres[f->nfres++] = (struct sb_fre){ .start = 0x8, .base_sp = 1 };
	return sb_build(&s, base, g_img, IMG_MAX);
}

static struct sb_layout std_section(int version, int flags, unsigned long base,
				    int auxhdr_len)
{
	return std_section_moved(version, flags, base, auxhdr_len, 0);
}

static const struct probe std_probes[] = {
	NO_FRAME(TEXT_START),
	NO_FRAME(F0 - 1),
	{ F0, 0, 8, 0, 0 },
	{ F0 + 1, 0, 16, 0, -16 },
	{ F0 + 3, 0, 16, 0, -16 },
	{ F0 + 4, 0, 16, 1, -16 },
	{ F0 + 0x3e, 0, 16, 1, -16 },
	{ F0 + 0x3f, 0, 8, 0, 0 },
	NO_FRAME(F0 + 0x40),
	NO_FRAME(F1 - 1),
	{ F1, 0, 8, 0, 0 },
	{ F1 + 1, 0, 8, 0, 0 },
	{ F1 + 2, 0, 16, 0, 0 },
	{ F1 + 0x11f, 0, 16, 0, 0 },
	{ F1 + 0x120, 0, 5000, 0, -300 },
	{ F1 + 0x2fe, 0, 5000, 0, -300 },
	{ F1 + 0x2ff, 0, 8, 0, 0 },
	NO_FRAME(F1 + 0x300),
	{ F2, 0, 8, 0, 0 },
	{ F2 + 0xa, 0, 8, 0, 0 },
	{ F2 + 0xb, 0, 16, 0, 0 },
	{ F2 + 0xf, 0, 16, 0, 0 },
	{ F2 + 0x10, 0, 8, 0, 0 },
	{ F2 + 0x2a, 0, 8, 0, 0 },
	{ F2 + 0x2b, 0, 16, 0, 0 },
	{ F2 + 0x3f, 0, 16, 0, 0 },
	NO_FRAME(F2 + 0x40),
	NO_FRAME(F3),
	NO_FRAME(F3 + 1),
	{ F3 + 2, 0, 8, 0, 0 },
	{ F3 + 7, 0, 8, 0, 0 },
	{ F3 + 0xf, 0, 0, 0, 0 },	/* outermost */
	NO_FRAME(F3 + 0x10),
	NO_FRAME(TEXT_END - 1),
	NO_FRAME(TEXT_END),
	NO_FRAME(TEXT_START - 1),
	NO_FRAME(0),
	NO_FRAME(ULONG_MAX),
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Does a lookup result match a probe?  Describe the mismatch in @why */
static int probe_matches(const struct probe *p, int ret, const struct sframe_frame *f,
			 char *why, size_t len)
{
	int outermost = p->ret == 0 && p->cfa == 0;

	if (ret != p->ret) {
		snprintf(why, len, "ip %#lx: expected %s, got %s", p->ip,
			 err_name(p->ret), err_name(ret));
		return 0;
	}
	if (ret)
		return 1;
	if (outermost && f->outermost && !f->cfa_off && !f->ra_off && !f->fp_off && !f->use_fp)
		return 1;
	if (!outermost && !f->outermost && f->cfa_off == p->cfa && f->use_fp == !!p->use_fp &&
	    f->fp_off == p->fp && f->ra_off == -8)
		return 1;
	snprintf(why, len,
		 "ip %#lx: expected cfa %s%+d fp %d%s, got cfa %s%+d fp %d ra %d%s",
		 p->ip, p->use_fp ? "fp" : "sp", p->cfa, p->fp, outermost ? " outermost" : "",
		 f->use_fp ? "fp" : "sp", f->cfa_off, f->fp_off, f->ra_off,
		 f->outermost ? " outermost" : "");
	return 0;
}

/* Check @probes on the image; @shift is added to every ip except 0 and ULONG_MAX */
static void check_probes(const char *name, const unsigned char *img, size_t len,
			 unsigned long base, unsigned long text_start, unsigned long text_end,
			 const struct probe *probes, size_t n, unsigned long shift)
{
	struct mem *m = mem_new(base, img, len);
	struct sframe_section sec;
	char why[256] = "";
	int ok, ret;

	ret = sframe_section_init(&sec, base, base + len, text_start, text_end, mem_read, m);
	ok = ret == 0;
	if (!ok)
		snprintf(why, sizeof(why), "init: %s", err_name(ret));
	if (ok) {
		ret = sframe_section_validate(&sec, ~0U, mem_read, m);
		ok = ret == 0;
		if (!ok)
			snprintf(why, sizeof(why), "validate: %s", err_name(ret));
	}
	for (size_t i = 0; ok && i < n; i++) {
		struct probe p = probes[i];
		struct sframe_frame f;

		if (p.ip && p.ip != ULONG_MAX)
			p.ip += shift;
		ret = sframe_find(&sec, p.ip, &f, mem_read, m);
		ok = probe_matches(&p, ret, &f, why, sizeof(why));
	}
	report(name, ok, "%s", why);
	mem_free(m);
}

static void test_std_lookups(void)
{
	static const struct {
		const char *name;
		int version, flags, aux;
		unsigned long base;
	} v[] = {
		{ "lookup_v1", 1, 0, 0, SEC_BASE },
		{ "lookup_v1_frame_pointer_flag", 1, SB_FP, 0, SEC_BASE },
		{ "lookup_v2_abs", 2, 0, 0, SEC_BASE },
		{ "lookup_v2_pcrel", 2, SB_PCREL, 0, SEC_BASE },
		{ "lookup_v2_pcrel_section_below_text", 2, SB_PCREL, 0, 0x100000 },
		{ "lookup_v1_auxhdr", 1, 0, 7, SEC_BASE },
		{ "lookup_v2_pcrel_auxhdr", 2, SB_PCREL, 255, SEC_BASE },
		{ "lookup_v3_abs", 3, 0, 0, SEC_BASE },
		{ "lookup_v3_pcrel", 3, SB_PCREL, 0, SEC_BASE },
		{ "lookup_v3_pcrel_section_below_text", 3, SB_PCREL, 0, 0x100000 },
		{ "lookup_v3_pcrel_unaligned_section", 3, SB_PCREL, 0, SEC_BASE + 1 },
		{ "lookup_v3_pcrel_auxhdr", 3, SB_PCREL, 13, SEC_BASE },
	};
	const unsigned long high = 0x7ffff0000000UL - TEXT_START;

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		struct sb_layout l = std_section(v[i].version, v[i].flags, v[i].base, v[i].aux);

		check_probes(v[i].name, g_img, l.len, v[i].base, TEXT_START, TEXT_END,
			     std_probes, ARRAY_SIZE(std_probes), 0);
	}
	/* The same sections loaded high: everything moves together */
	for (int i = 0; i < 4; i++) {
		int version = i < 2 ? 2 : 3, pcrel = i & 1;
		struct sb_layout l = std_section_moved(version, pcrel ? SB_PCREL : 0,
						       SEC_BASE + high, 0, high);
		char name[64];

		snprintf(name, sizeof(name), "lookup_v%d_%s_high", version, pcrel ? "pcrel" : "abs");
		check_probes(name, g_img, l.len, SEC_BASE + high, TEXT_START + high,
			     TEXT_END + high, std_probes, ARRAY_SIZE(std_probes), high);
	}
	/* Version 3 FRE blobs in another order than the index */
	std_reverse_blobs = 1;
	for (int pcrel = 0; pcrel < 2; pcrel++) {
		struct sb_layout l = std_section(3, pcrel ? SB_PCREL : 0, SEC_BASE, 0);

		check_probes(pcrel ? "lookup_v3_pcrel_blobs_reversed" : "lookup_v3_abs_blobs_reversed",
			     g_img, l.len, SEC_BASE, TEXT_START, TEXT_END, std_probes,
			     ARRAY_SIZE(std_probes), 0);
	}
	std_reverse_blobs = 0;
}

/* v2 PCMASK with a block size other than 16 */
static void test_pcmask_rep_size(void)
{
	struct sb_section s;
	struct sb_fde *f;
	struct sb_layout l;
	struct probe p[40];

	sb_init(&s, 2, SB_PCREL, g_fdes);
	f = sb_add_fde(&s, F0, 40, 0);
	f->pcmask = 1;
	f->rep_size = 10;
	sb_add_fre(f, 0, 1, 8, 0);
	sb_add_fre(f, 4, 1, 16, 0);
	sb_add_fre(f, 7, 0, 24, -24);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	for (int i = 0; i < 40; i++) {
		int o = i % 10;

		p[i] = (struct probe){ F0 + i, 0, o < 4 ? 8 : o < 7 ? 16 : 24, o >= 7,
				       o >= 7 ? -24 : 0 };
	}
	check_probes("v2_pcmask_rep_size_10", g_img, l.len, SEC_BASE, TEXT_START, TEXT_END,
		     p, ARRAY_SIZE(p), 0);
}

/* 4-byte FRE starts and 1-, 2- and 4-byte offsets, negative ones included */
static void test_wide_fields(void)
{
	static const struct probe p[] = {
		{ F0, 0, 8, 0, 0 },
		{ F0 + 0xffff, 0, 8, 0, 0 },
		{ F0 + 0x10000, 0, 127, 1, -128 },
		{ F0 + 0x10001, 0, 128, 1, -129 },
		{ F0 + 0x10002, 0, 32767, 0, -32768 },
		{ F0 + 0x10003, 0, 32768, 0, -32769 },
		{ F0 + 0x10004, 0, 0x7fffffff, 1, -0x7fffffff - 1 },
		{ F0 + 0x10005, 0, -16, 1, 0 },
		{ F0 + 0x1ffff, 0, -16, 1, 0 },
	};
	struct sb_section s;
	struct sb_fde *f;
	struct sb_layout l;

	sb_init(&s, 2, 0, g_fdes);
	f = sb_add_fde(&s, F0, 0x20000, 2);
	sb_add_fre(f, 0, 1, 8, 0);
	sb_add_fre(f, 0x10000, 0, 127, -128);
	sb_add_fre(f, 0x10001, 0, 128, -129);
	sb_add_fre(f, 0x10002, 1, 32767, -32768);
	sb_add_fre(f, 0x10003, 1, 32768, -32769);
	sb_add_fre(f, 0x10004, 0, 0x7fffffff, -0x7fffffff - 1);
	sb_add_fre(f, 0x10005, 0, -16, 0);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	check_probes("fre_4byte_starts_and_offset_sizes", g_img, l.len, SEC_BASE, TEXT_START,
		     TEXT_END, p, ARRAY_SIZE(p), 0);
}

/* Build a section of @n adjacent 16-byte functions */
static struct sb_layout many_fdes(int n, int version, int flags)
{
	struct sb_section s;

	sb_init(&s, version, flags, g_fdes);
	for (int i = 0; i < n; i++) {
		struct sb_fde *f = sb_add_fde(&s, TEXT_START + 16UL * i, 16, 0);

		sb_add_fre(f, 0, 1, 8, 0);
		sb_add_fre(f, 1 + i % 15, 1, 16 + 8 * (i % 5), 0);
	}
	return sb_build(&s, SEC_BASE, g_img, IMG_MAX);
}

/*
 * Many FDEs with PC-relative starts: the raw func_start values decrease while
 * the resolved addresses increase.  Every function must be found, with a
 * logarithmic number of reads.
 */
static void test_many_fdes(void)
{
	const int n = 3000;
	/*
	 * ceil(log2(3001)) start fields, the FDE's 5 fields (v3: 3 of the index
	 * entry and 4 of the attribute record), 2 FRE heads, 2 offsets
	 */
	long max_reads;
	char why[256] = "";
	int ok = 1;

	for (int k = 0; k < 4; k++) {
		int pcrel = k & 1, version = k < 2 ? 2 : 3;
		struct sb_layout l = many_fdes(n, version, pcrel ? SB_PCREL : 0);
		struct mem *m = mem_new(SEC_BASE, g_img, l.len);
		struct sframe_section sec;
		long worst = 0;

		max_reads = 12 + (version == 3 ? 7 : 5) + 2 + 2;
		ok = init_at(&sec, m) == 0 && sframe_section_validate(&sec, ~0U, mem_read, m) == 0;
		if (!ok)
			snprintf(why, sizeof(why), "init or validate failed");
		for (int i = 0; ok && i < n; i++) {
			unsigned long start = TEXT_START + 16UL * i;
			int k = 1 + i % 15;

			for (int off = 0; ok && off < 16; off++) {
				struct sframe_frame f;
				int cfa = off < k ? 8 : 16 + 8 * (i % 5);
				int ret;

				m->reads = 0;
				ret = sframe_find(&sec, start + off, &f, mem_read, m);
				if (m->reads > worst)
					worst = m->reads;
				if (ret || f.cfa_off != cfa || f.use_fp || f.fp_off) {
					ok = 0;
					snprintf(why, sizeof(why), "v%d pcrel %d ip %#lx: %s cfa %d",
						 version, pcrel, start + off, err_name(ret), f.cfa_off);
				}
			}
		}
		if (ok && worst > max_reads) {
			ok = 0;
			snprintf(why, sizeof(why), "v%d pcrel %d: %ld reads in one lookup (max %ld)",
				 version, pcrel, worst, max_reads);
		}
		mem_free(m);
		if (!ok)
			break;
	}
	report("binary_search_3000_fdes_log_reads", ok, "%s", why);
}

/*
 * Sections with no FDE or (before version 3) no FRE, refused: they describe
 * nothing; an FDE without FREs beside one with, an empty function
 */
static void test_empty_things(void)
{
	struct sframe_frame fr;
	struct sb_section s;
	struct sb_fde *f;
	struct sb_layout l;

	sb_init(&s, 2, 0, g_fdes);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	expect_ret("no_fdes_validate", -EINVAL, validate_img(g_img, l.len));
	expect_ret("no_fdes_find", -EINVAL, find_img(g_img, l.len, F0, &fr));

	sb_init(&s, 2, 0, g_fdes);
	sb_add_fde(&s, F0, 0x10, 0);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	expect_ret("no_fres_validate", -EINVAL, validate_img(g_img, l.len));
	expect_ret("no_fres_find", -EINVAL, find_img(g_img, l.len, F0 + 1, &fr));

	sb_init(&s, 2, 0, g_fdes);
	sb_add_fde(&s, F0, 0x10, 0);
	f = sb_add_fde(&s, F0 + 0x10, 0x10, 0);
	sb_add_fre(f, 0, 1, 8, 0);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	expect_ret("fde_without_fres_validate", 0, validate_img(g_img, l.len));
	expect_ret("fde_without_fres_find", -ENOENT, find_img(g_img, l.len, F0 + 1, &fr));
	expect_ret("fde_without_fres_next_find", 0, find_img(g_img, l.len, F0 + 0x10, &fr));

	sb_init(&s, 2, 0, g_fdes);
	sb_add_fde(&s, F0, 0, 0);
	f = sb_add_fde(&s, F0 + 0x10, 0x10, 0);
	sb_add_fre(f, 0, 1, 8, 0);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	expect_ret("func_size_0_validate", 0, validate_img(g_img, l.len));
	expect_ret("func_size_0_find", -ENOENT, find_img(g_img, l.len, F0, &fr));
	expect_ret("func_size_0_next_find", 0, find_img(g_img, l.len, F0 + 0x10, &fr));

	sb_init(&s, 2, 0, g_fdes);
	f = sb_add_fde(&s, F0, 0, 0);
	sb_add_fre(f, 0, 1, 8, 0);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	/* An FRE at the end of a function (here its start) covers nothing */
	expect_ret("func_size_0_with_fre_validate", 0, validate_img(g_img, l.len));
	expect_ret("func_size_0_with_fre_find", -ENOENT, find_img(g_img, l.len, F0, &fr));
}

/* ---------------------------------------------------------------------- */
/* Hostile headers: sframe_section_init() must say -EINVAL */

enum field { F_U8, F_U16, F_U32 };

struct patch {
	const char *name;
	int version;
	size_t off;		/* from the section start */
	enum field type;
	unsigned long value;
};

static void apply(unsigned char *img, size_t off, enum field type, unsigned long value)
{
	if (type == F_U8)
		img[off] = value;
	else if (type == F_U16)
		sb_put16(img + off, value);
	else
		sb_put32(img + off, value);
}

static void test_bad_headers(void)
{
	/* Offsets of the std_section(2, 0, SEC_BASE, 0) layout are computed below */
	struct sb_layout l3 = std_section(3, 0, SEC_BASE, 0);
	size_t l3_fre_len = l3.len - l3.fres;
	struct sb_layout l2 = std_section(2, 0, SEC_BASE, 0);
	size_t len = l2.len, fre_len = len - l2.fres;
	const struct patch p[] = {
		{ "bad_magic", 2, 0, F_U16, 0xdee3 },
		{ "byte_swapped_magic", 2, 0, F_U16, 0xe2de },
		{ "zero_magic", 2, 0, F_U16, 0 },
		{ "version_0", 2, 2, F_U8, 0 },
		{ "version_4", 2, 2, F_U8, 4 },
		{ "version_255", 2, 2, F_U8, 255 },
		{ "unknown_flag_0x8", 2, 3, F_U8, 0x9 },
		{ "unknown_flag_0x80", 2, 3, F_U8, 0x81 },
		{ "pcrel_flag_in_v1", 1, 3, F_U8, 0x5 },
		{ "fdes_not_sorted_flag", 2, 3, F_U8, 0x0 },
		{ "arch_aarch64_be", 2, 4, F_U8, 1 },
		{ "arch_aarch64_le", 2, 4, F_U8, 2 },
		{ "arch_unknown", 2, 4, F_U8, 4 },
		{ "arch_0", 2, 4, F_U8, 0 },
		{ "cfa_fixed_fp_offset_nonzero", 2, 5, F_U8, 0xf0 },
		{ "ra_offset_0", 2, 6, F_U8, 0 },
		{ "ra_offset_minus_16", 2, 6, F_U8, 0xf0 },
		{ "ra_offset_plus_8", 2, 6, F_U8, 8 },
		{ "auxhdr_beyond_end", 2, 7, F_U8, 255 },
		{ "num_fdes_huge", 2, 8, F_U32, 0xffffffff },
		{ "num_fdes_overflows_32bit", 2, 8, F_U32, 0x0ccccccd },
		{ "num_fdes_one_too_many", 2, 8, F_U32, (len - SB_HDR_SIZE) / 20 + 1 },
		{ "num_fres_more_than_fre_area", 2, 12, F_U32, fre_len / 2 + 1 },
		{ "num_fres_huge", 2, 12, F_U32, 0xffffffff },
		{ "num_fdes_0", 2, 8, F_U32, 0 },
		{ "num_fres_0", 2, 12, F_U32, 0 },
		{ "v3_num_fdes_0", 3, 8, F_U32, 0 },
		{ "fre_len_one_too_many", 2, 16, F_U32, fre_len + 1 },
		{ "fre_len_huge", 2, 16, F_U32, 0xffffffff },
		{ "fdeoff_outside", 2, 20, F_U32, len },
		{ "fdeoff_huge", 2, 20, F_U32, 0xffffffff },
		{ "fdeoff_fdes_cross_end", 2, 20, F_U32, len - SB_HDR_SIZE - 4 * 20 + 1 },
		{ "freoff_outside", 2, 24, F_U32, len },
		{ "freoff_huge", 2, 24, F_U32, 0xffffffff },
		{ "freoff_area_crosses_end", 2, 24, F_U32, l2.fres - SB_HDR_SIZE + 1 },
		{ "v3_frame_pointer_flag", 3, 3, F_U8, 0x3 },
		{ "v3_unknown_flag_0x8", 3, 3, F_U8, 0x9 },
		{ "v3_unknown_flag_0x80", 3, 3, F_U8, 0x85 },
		{ "v3_fdes_not_sorted_flag", 3, 3, F_U8, 0x4 },
		{ "v3_fde_index_overlaps_fres", 3, 24, F_U32, 4 * 16 - 1 },
		{ "v3_fres_before_fde_index", 3, 24, F_U32, 0 },
		{ "v3_fre_len_below_attrs", 3, 16, F_U32, 4 * 5 - 1 },
		{ "v3_num_fres_counting_attrs", 3, 12, F_U32, (l3_fre_len - 4 * 5) / 2 + 1 },
		{ "v3_num_fdes_one_too_many", 3, 8, F_U32, 5 },
	};
	struct sframe_section sec;
	struct mem *m;

	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		struct sb_layout l = std_section(p[i].version, 0, SEC_BASE, 0);
		char name[80];

		apply(g_img, p[i].off, p[i].type, p[i].value);
		snprintf(name, sizeof(name), "header_%s", p[i].name);
		m = mem_new(SEC_BASE, g_img, l.len);
		expect_ret(name, -EINVAL, init_at(&sec, m));
		mem_free(m);
	}

	std_section(2, 0, SEC_BASE, 0);
	m = mem_new(SEC_BASE, g_img, len);
	expect_ret("header_section_shorter_than_header", -EINVAL,
		   sframe_section_init(&sec, SEC_BASE, SEC_BASE + 27, TEXT_START, TEXT_END,
				       mem_read, m));
	expect_ret("header_end_before_start", -EINVAL,
		   sframe_section_init(&sec, SEC_BASE, SEC_BASE - 1, TEXT_START, TEXT_END,
				       mem_read, m));
	expect_ret("header_empty_text_range", -EINVAL,
		   sframe_section_init(&sec, SEC_BASE, SEC_BASE + len, TEXT_START, TEXT_START,
				       mem_read, m));
	expect_ret("header_valid_baseline", 0, init_at(&sec, m));
	mem_free(m);
}

/* ---------------------------------------------------------------------- */
/* Hostile FDEs and FREs: found by sframe_find() and sframe_section_validate() */

/* Offset of field @field of FDE @i in a built image */
static size_t fde_field(const struct sb_layout *l, int i, size_t field)
{
	return l->fdes + (size_t)i * l->fde_size + field;
}

static void check_find_and_validate(const char *name, const unsigned char *img, size_t len,
				    unsigned long ip, int find_ret, int validate_ret)
{
	struct sframe_frame fr;
	char n[96];

	snprintf(n, sizeof(n), "%s_find", name);
	expect_ret(n, find_ret, find_img(img, len, ip, &fr));
	snprintf(n, sizeof(n), "%s_validate", name);
	expect_ret(n, validate_ret, validate_img(img, len));
}

struct fde_patch {
	const char *name;
	int fde;		/* 0: F0, 2: F2 (PCMASK) */
	size_t off;		/* field offset in the FDE */
	enum field type;
	unsigned long value;
};

static void test_bad_fdes(void)
{
	struct sb_layout l = std_section(2, 0, SEC_BASE, 0);
	size_t fre_len = l.len - l.fres;
	const struct fde_patch p[] = {
		{ "fde_fre_off_outside", 0, 8, F_U32, fre_len + 1 },
		{ "fde_fre_off_at_end", 0, 8, F_U32, fre_len },
		{ "fde_fre_off_huge", 0, 8, F_U32, 0xffffffff },
		{ "fde_num_fres_past_area", 0, 12, F_U32, fre_len / 2 + 1 },
		{ "fde_num_fres_huge", 0, 12, F_U32, 0xffffffff },
		{ "fde_fre_type_3", 0, 16, F_U8, 3 },
		{ "fde_fre_type_15", 0, 16, F_U8, 15 },
		{ "fde_pcmask_rep_size_0", 2, 17, F_U8, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		l = std_section(2, 0, SEC_BASE, 0);
		apply(g_img, fde_field(&l, p[i].fde, p[i].off), p[i].type, p[i].value);
		check_find_and_validate(p[i].name, g_img, l.len, p[i].fde ? F2 + 1 : F0 + 1,
					-EINVAL, -EINVAL);
	}
}

enum fre_damage {
	OFFSET_SIZE_3, COUNT_3, COUNT_15, STARTS_EQUAL, STARTS_DECREASING,
	START_BEYOND_FUNCTION, FP_OFFSET_0, START_BEYOND_BLOCK, START_AT_FUNCTION_END,
};

/*
 * Damage the FREs of @f; START_BEYOND_BLOCK only touches PCMASK FDEs,
 * START_AT_FUNCTION_END (not damage: gas writes it) the others
 */
static void damage(struct sb_fde *f, enum fre_damage d)
{
	struct sb_fre *r = &f->fres[1];

	switch (d) {
	case OFFSET_SIZE_3:
		r->size_code = 3;
		break;
	case COUNT_3:
		r->count = 3;
		break;
	case COUNT_15:
		r->count = 15;
		break;
	case STARTS_EQUAL:
		r->start = f->fres[0].start;
		break;
	case STARTS_DECREASING:
		if (f->nfres > 2) {
			r->start = 5;
			f->fres[2].start = 4;
		}
		break;
	case START_BEYOND_FUNCTION:
		f->fres[f->nfres - 1].start = f->size + 1;
		break;
	case START_AT_FUNCTION_END:
		if (!f->pcmask)
			f->fres[f->nfres - 1].start = f->size;
		break;
	case FP_OFFSET_0:
		r->count = 2;
		r->off[1] = 0;
		break;
	case START_BEYOND_BLOCK:
		if (f->pcmask)
			r->start = f->rep_size;
		break;
	}
}

/* A v2 section of F0 (PCINC) and F2 (PCMASK), both with damaged FREs */
static struct sb_layout altered_f0(enum fre_damage d)
{
	struct sb_section s;
	struct sb_fde *f;

	sb_init(&s, 2, 0, g_fdes);
	f = sb_add_fde(&s, F0, 0x40, 0);
	sb_add_fre(f, 0x0, 1, 8, 0);
	sb_add_fre(f, 0x1, 1, 16, -16);
	sb_add_fre(f, 0x4, 0, 16, -16);
	sb_add_fre(f, 0x3f, 1, 8, 0);
	f = sb_add_fde(&s, F2, 0x40, 0);
	f->pcmask = 1;
	f->rep_size = 16;
	sb_add_fre(f, 0x0, 1, 8, 0);
	sb_add_fre(f, 0xb, 1, 16, 0);
	damage(&g_fdes[0], d);
	damage(&g_fdes[1], d);
	return sb_build(&s, SEC_BASE, g_img, IMG_MAX);
}

static void test_bad_fres(void)
{
	static const struct {
		const char *name;
		enum fre_damage d;
		unsigned long ip;
	} c[] = {
		{ "fre_offset_size_3", OFFSET_SIZE_3, F0 + 0x3f },
		{ "fre_3_offsets", COUNT_3, F0 + 0x3f },
		{ "fre_15_offsets", COUNT_15, F0 + 0x3f },
		{ "fre_starts_equal", STARTS_EQUAL, F0 + 0x3f },
		{ "fre_starts_decreasing", STARTS_DECREASING, F0 + 0x3f },
		{ "fre_start_beyond_function", START_BEYOND_FUNCTION, F0 + 0x3f },
		{ "fre_fp_offset_0", FP_OFFSET_0, F0 + 0x1 },	/* only when chosen */
		{ "pcmask_fre_start_beyond_block", START_BEYOND_BLOCK, F2 + 0xc },
	};

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		struct sb_layout l = altered_f0(c[i].d);

		check_find_and_validate(c[i].name, g_img, l.len, c[i].ip, -EINVAL, -EINVAL);
	}
}

/*
 * gas ends a function with an FRE at its size when a CFI directive follows
 * its last instruction (push; call; pop; .cfi_adjust_cfa_offset -8). It
 * covers no address: the section stays, the FRE before it is chosen.
 */
static void test_fre_at_function_end(void)
{
	struct sb_layout l = altered_f0(START_AT_FUNCTION_END);
	struct sframe_frame fr = { 0 };
	int ret;

	check_find_and_validate("fre_start_at_function_end", g_img, l.len, F0 + 0x3f, 0, 0);
	ret = find_img(g_img, l.len, F0 + 0x3f, &fr);
	report("fre_start_at_function_end_rule", !ret && fr.cfa_off == 16 && fr.use_fp,
	       "find %s, cfa %d", err_name(ret), fr.cfa_off);
}

/* ---------------------------------------------------------------------- */
/* Version 3: attribute records, outermost and signal FDEs, flexible FDEs */

/* Offset of FDE @i's attribute record in a built v3 image */
static size_t v3_attr(const struct sb_layout *l, int i)
{
	return l->attr[i];
}

/* A v3 section: F0 as in the std section, then @f1 at F1 (0x300 bytes) */
static struct sb_layout v3_pair(const struct sb_fde *f1, int reverse)
{
	struct sb_section s;
	struct sb_fde *f;

	sb_init(&s, 3, SB_PCREL, g_fdes);
	s.reverse_blobs = reverse;
	f = sb_add_fde(&s, F0, 0x40, 0);
	sb_add_fre(f, 0x0, 1, 8, 0);
	sb_add_fre(f, 0x1, 1, 16, -16);
	sb_add_fre(f, 0x4, 0, 16, -16);
	f = sb_add_fde(&s, F1, 0x300, 0);
	*f = *f1;
	f->func = F1;
	f->size = 0x300;
	return sb_build(&s, SEC_BASE, g_img, IMG_MAX);
}

static void expect_outermost(const char *name, const unsigned char *img, size_t len,
			     unsigned long ip)
{
	struct sframe_frame fr;
	int ret = find_img(img, len, ip, &fr);

	report(name, !ret && fr.outermost && !fr.cfa_off && !fr.ra_off && !fr.fp_off &&
		     !fr.use_fp && !fr.flex, "find %s, outermost %d", err_name(ret), !ret && fr.outermost);
}

static void test_v3_fdes(void)
{
	struct sb_fde f1 = { 0 };
	struct sframe_frame fr;
	struct sb_layout l;

	/* A default FDE without FREs: outermost frame, the walk ends cleanly */
	l = v3_pair(&f1, 0);
	expect_outermost("v3_default_fde_no_fres_find", g_img, l.len, F1 + 0x10);
	expect_ret("v3_default_fde_no_fres_validate", 0, validate_img(g_img, l.len));
	expect_ret("v3_default_fde_no_fres_other_function", 0, find_img(g_img, l.len, F0 + 4, &fr));

	/* A signal trampoline, with or without FREs: the SFrame walk ends there */
	f1.signal = 1;
	l = v3_pair(&f1, 1);
	expect_outermost("v3_signal_fde_no_fres_find", g_img, l.len, F1);
	expect_ret("v3_signal_fde_no_fres_validate", 0, validate_img(g_img, l.len));
	sb_add_fre(&f1, 0, 1, 8, 0);
	sb_add_fre(&f1, 4, 1, 16, 0);
	l = v3_pair(&f1, 0);
	expect_outermost("v3_signal_fde_with_fres_find", g_img, l.len, F1 + 5);
	expect_ret("v3_signal_fde_with_fres_validate", 0, validate_img(g_img, l.len));
	f1.type = 1;
	f1.nfres = 0;
	l = v3_pair(&f1, 0);
	expect_outermost("v3_signal_flex_fde_find", g_img, l.len, F1 + 5);

	/* A section of FDEs without FREs only (num_fres 0) is one in version 3 */
	{
		struct sb_section s;
		struct sb_fde *f;

		sb_init(&s, 3, SB_PCREL, g_fdes);
		f = sb_add_fde(&s, F0, 0x10, 0);
		f->signal = 1;
		sb_add_fde(&s, F1, 0x10, 0);
		l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
		expect_outermost("v3_no_fres_signal_find", g_img, l.len, F0 + 1);
		expect_outermost("v3_no_fres_default_find", g_img, l.len, F1 + 1);
		expect_ret("v3_no_fres_validate", 0, validate_img(g_img, l.len));
	}

	/* A flexible FDE without FREs says nothing */
	f1 = (struct sb_fde){ .type = 1 };
	l = v3_pair(&f1, 0);
	check_find_and_validate("v3_flex_fde_no_fres", g_img, l.len, F1 + 1, -ENOENT, 0);

	/* Unknown FDE types (info2 & 0x1f): no information at lookups, rejected whole */
	for (int t = 2; t < 256; t += 29) {
		char name[64];

		f1 = (struct sb_fde){ .type = t };
		sb_add_fre(&f1, 0, 1, 8, 0);
		l = v3_pair(&f1, 0);
		snprintf(name, sizeof(name), "v3_fde_type_%d", t);
		check_find_and_validate(name, g_img, l.len, F1 + 1, -ENOENT, -EINVAL);
	}

	/* PCMASK with rep_size, and 2-byte FRE starts */
	f1 = (struct sb_fde){ .pcmask = 1, .rep_size = 16, .fre_type = 1 };
	sb_add_fre(&f1, 0, 1, 8, 0);
	sb_add_fre(&f1, 0xb, 1, 16, 0);
	l = v3_pair(&f1, 1);
	check_find_and_validate("v3_pcmask", g_img, l.len, F1 + 0x2c, 0, 0);
	g_img[v3_attr(&l, 1) + 4] = 0;
	check_find_and_validate("v3_pcmask_rep_size_0", g_img, l.len, F1 + 0x2c, -EINVAL, -EINVAL);

	/* Hostile index entries and attribute records */
	f1 = (struct sb_fde){ 0 };
	sb_add_fre(&f1, 0, 1, 8, 0);
	sb_add_fre(&f1, 4, 0, 16, -16);
	{
		const struct {
			const char *name;
			int attr;		/* patch the attribute record, else the entry */
			size_t off;
			enum field type;
			unsigned long value;
			int find;
		} p[] = {
			{ "v3_attr_off_at_fre_end", 0, 12, F_U32, 0 /* fre_len */, -EINVAL },
			{ "v3_attr_off_crosses_fre_end", 0, 12, F_U32, 1 /* fre_len - 4 */, -EINVAL },
			{ "v3_attr_off_huge", 0, 12, F_U32, 0xffffffff, -EINVAL },
			/* Starts far above @ip: the lookup finds F0, which ends before */
			{ "v3_func_start_high_word", 0, 4, F_U32, 1, -ENOENT },
			{ "v3_func_start_negative", 0, 4, F_U32, 0x80000000, -ENOENT },
			{ "v3_func_size_huge", 0, 8, F_U32, 0xfffffff0, -EINVAL },
			{ "v3_attr_num_fres_65535", 1, 0, F_U16, 0xffff, -EINVAL },
			{ "v3_attr_fre_type_3", 1, 2, F_U8, 3, -EINVAL },
			{ "v3_attr_signal_fre_type_15", 1, 2, F_U8, 0x8f, -EINVAL },
		};

		for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
			size_t off, fre_len;
			unsigned long v = p[i].value;

			l = v3_pair(&f1, i & 1);
			fre_len = l.len - l.fres;
			if (p[i].attr)
				off = v3_attr(&l, 1) + p[i].off;
			else
				off = l.fdes + 16 + p[i].off;
			if (!strcmp(p[i].name, "v3_attr_off_at_fre_end"))
				v = fre_len;
			else if (!strcmp(p[i].name, "v3_attr_off_crosses_fre_end"))
				v = fre_len - 4;
			apply(g_img, off, p[i].type, v);
			check_find_and_validate(p[i].name, g_img, l.len, F1 + 5, p[i].find, -EINVAL);
		}
	}

	/* Two FDEs sharing a blob: each lookup works, the section is rejected */
	f1 = (struct sb_fde){ 0 };
	sb_add_fre(&f1, 0, 1, 8, 0);
	sb_add_fre(&f1, 0x1, 1, 16, -16);
	sb_add_fre(&f1, 0x4, 0, 16, -16);
	l = v3_pair(&f1, 0);
	sb_put32(g_img + l.fdes + 16 + 12, l.attr[0] - l.fres);
	check_find_and_validate("v3_blobs_shared", g_img, l.len, F1 + 5, 0, -EINVAL);
	/*
	 * Attribute records inside another function's FREs: read as one, F0's
	 * second FRE (01 04 10 f0) claims 0x401 FREs, F1's (08 01 05 ..) 0x108
	 */
	l = v3_pair(&f1, 0);
	sb_put32(g_img + l.fdes + 16 + 12, l.attr[0] - l.fres + 5 + 3);
	check_find_and_validate("v3_blobs_overlap", g_img, l.len, F1 + 0x3f, -EINVAL, -EINVAL);
	l = v3_pair(&f1, 1);
	sb_put32(g_img + l.fdes + 12, l.attr[1] - l.fres + 5 + 2);
	check_find_and_validate("v3_attr_in_other_fres", g_img, l.len, F0 + 1, -EINVAL, -EINVAL);
}

/* One flexible FDE at F1 whose single FRE (at 0) has the words @w */
static struct sb_layout v3_flex(int size_code, int n, const int32_t *w)
{
	struct sb_fde f1 = { .type = 1 };

	sb_add_words(&f1, 0, size_code, n, w);
	return v3_pair(&f1, 0);
}

static struct sb_layout v3_seed(unsigned long base);

/* Rule shorthands: control words */
#define C_REG(r)	((r) << 3 | 1)
#define C_DEREF		2

static void test_v3_flex(void)
{
	static const struct {
		const char *name;
		int size_code, n;
		int32_t w[8];
		/* expected: classic frame (cfa, use_fp, fp) or flex rules */
		int flex, cfa_rule, cfa, ra_rule, ra, fp_rule, fp, use_fp;
	} ok[] = {
		/* Rules a default FDE has: read as one */
		{ "v3_flex_cfa_sp_8", 0, 2, { C_REG(7), 8 }, 0, 0, 8, 0, -8, 0, 0, 0 },
		{ "v3_flex_cfa_fp_16_fp_saved", 0, 5, { C_REG(6), 16, 0, C_DEREF, -16 },
		  0, 0, 16, 0, -8, 0, -16, 1 },
		{ "v3_flex_ra_at_cfa_8", 1, 4, { C_REG(7), 300, C_DEREF, -8 },
		  0, 0, 300, 0, -8, 0, 0, 0 },
		/* DRAP prologue: CFA in r10 */
		{ "v3_flex_cfa_r10", 0, 2, { C_REG(10), 0 },
		  1, C_REG(10), 0, C_DEREF, -8, 0, 0, 0 },
		/* DRAP body: CFA = *(RBP - 8), FP = *(RBP + 0) */
		{ "v3_flex_drap_body", 0, 5, { C_REG(6) | C_DEREF, -8, 0, C_REG(6) | C_DEREF, 0 },
		  1, C_REG(6) | C_DEREF, -8, C_DEREF, -8, C_REG(6) | C_DEREF, 0, 0 },
		/* RA elsewhere, FP in a register, all three, 4-byte words */
		{ "v3_flex_ra_at_cfa_16", 0, 4, { C_REG(7), 16, C_DEREF, -16 },
		  1, C_REG(7), 16, C_DEREF, -16, 0, 0, 0 },
		{ "v3_flex_fp_in_r12", 0, 5, { C_REG(7), 16, 0, C_REG(12), 0 },
		  1, C_REG(7), 16, C_DEREF, -8, C_REG(12), 0, 0 },
		{ "v3_flex_all_three", 2, 6, { C_REG(3), 0x10000, C_REG(6) | C_DEREF, 8,
					      C_DEREF, -0x20000 },
		  1, C_REG(3), 0x10000, C_REG(6) | C_DEREF, 8, C_DEREF, -0x20000, 0 },
		{ "v3_flex_ra_in_rax", 1, 4, { C_REG(7), 8, C_REG(0), 0 },
		  1, C_REG(7), 8, C_REG(0), 0, 0, 0, 0 },
	};
	static const struct {
		const char *name;
		int size_code, n;
		int32_t w[8];
	} bad[] = {
		{ "v3_flex_1_word", 0, 1, { C_REG(7) } },
		{ "v3_flex_3_words", 0, 3, { C_REG(7), 8, C_DEREF } },
		{ "v3_flex_7_words", 0, 7, { C_REG(7), 8, C_DEREF, -8, C_DEREF, -16, 0 } },
		{ "v3_flex_15_words", 0, 15, { C_REG(7), 8 } },
		{ "v3_flex_cfa_not_reg", 0, 2, { C_DEREF, 8 } },
		{ "v3_flex_cfa_zero", 0, 2, { 0, 8 } },
		{ "v3_flex_cfa_bit_2", 0, 2, { C_REG(7) | 4, 8 } },
		{ "v3_flex_cfa_reg_16", 0, 2, { C_REG(16), 8 } },
		{ "v3_flex_cfa_reg_31", 0, 2, { C_REG(31), 8 } },
		{ "v3_flex_cfa_reg_1000", 1, 2, { C_REG(1000), 8 } },
		{ "v3_flex_ra_zero_in_4", 0, 4, { C_REG(7), 8, 0, -8 } },
		{ "v3_flex_ra_regnum_without_reg", 0, 4, { C_REG(7), 8, 7 << 3 | C_DEREF, -8 } },
		{ "v3_flex_pad_not_zero", 0, 5, { C_REG(7), 16, C_DEREF, C_DEREF, -16 } },
		{ "v3_flex_fp_zero_in_6", 0, 6, { C_REG(7), 16, C_DEREF, -8, 0, 0 } },
		{ "v3_flex_fp_bit_2", 0, 5, { C_REG(7), 16, 0, C_DEREF | 4, -16 } },
		{ "v3_flex_word_size_3", 3, 2, { C_REG(7), 8 } },
	};
	struct sframe_frame fr;
	struct sb_layout l;
	char vname[80];
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		int good;

		l = v3_flex(ok[i].size_code, ok[i].n, ok[i].w);
		ret = find_img(g_img, l.len, F1 + 1, &fr);
		good = !ret && !fr.outermost && fr.flex == ok[i].flex && fr.cfa_off == ok[i].cfa &&
		       fr.ra_off == ok[i].ra && fr.fp_off == ok[i].fp;
		if (ok[i].flex)
			good = good && fr.cfa_rule == ok[i].cfa_rule && fr.ra_rule == ok[i].ra_rule &&
			       fr.fp_rule == ok[i].fp_rule;
		else
			good = good && fr.use_fp == ok[i].use_fp;
		report(ok[i].name, good, "find %s flex %d cfa %#x%+d ra %#x%+d fp %#x%+d use_fp %d",
		       err_name(ret), fr.flex, fr.cfa_rule, fr.cfa_off, fr.ra_rule, fr.ra_off,
		       fr.fp_rule, fr.fp_off, fr.use_fp);
		snprintf(vname, sizeof(vname), "%s_validate", ok[i].name);
		expect_ret(vname, 0, validate_img(g_img, l.len));
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		l = v3_flex(bad[i].size_code, bad[i].n, bad[i].w);
		check_find_and_validate(bad[i].name, g_img, l.len, F1 + 1, -EINVAL, -EINVAL);
	}

	/* The fuzz seed with every kind of v3 function is valid */
	l = v3_seed(SEC_BASE);
	expect_ret("v3_seed_validate", 0, validate_img(g_img, l.len));
	expect_outermost("v3_seed_signal", g_img, l.len, F3 + 1);
	expect_outermost("v3_seed_no_fres", g_img, l.len, F2 + 1);

	/* N = 0 in a flexible FDE: outermost */
	l = v3_flex(0, 0, NULL);
	expect_outermost("v3_flex_no_words_outermost", g_img, l.len, F1 + 1);
	/* A default FDE's FRE with flexible word counts is corrupt */
	{
		struct sb_fde f1 = { 0 };
		static const int32_t w[4] = { 8, -16, 0, 0 };

		sb_add_words(&f1, 0, 0, 4, w);
		l = v3_pair(&f1, 0);
		check_find_and_validate("v3_default_fde_4_words", g_img, l.len, F1 + 1, -EINVAL,
					-EINVAL);
	}
}

/* The last FRE's offsets run past the FRE area (and the section) */
static void test_truncated_fre(void)
{
	struct sb_layout l = std_section(2, 0, SEC_BASE, 0);
	size_t fre_len = l.len - l.fres;
	struct sframe_frame fr;

	sb_put32(g_img + 16, fre_len - 1);
	check_find_and_validate("fre_runs_past_area", g_img, l.len - 1, F3 + 0xf, -EINVAL,
				-EINVAL);
	/* Only the damaged function is affected */
	expect_ret("fre_runs_past_area_other_function_ok", 0,
		   find_img(g_img, l.len - 1, F2 + 2, &fr));
}

/* func_start + func_size wraps around the address space */
static void test_func_wraps(void)
{
	const unsigned long base = ULONG_MAX - 0xfff;
	struct sb_section s;
	struct sb_fde *f;
	struct sb_layout l;
	struct sframe_section sec;
	struct sframe_frame fr;
	struct mem *m;

	sb_init(&s, 2, SB_PCREL, g_fdes);
	f = sb_add_fde(&s, base - 0x100, 0xffffffff, 0);
	sb_add_fre(f, 0, 1, 8, 0);
	l = sb_build(&s, base, g_img, IMG_MAX);
	m = mem_new(base, g_img, l.len);
	expect_ret("func_wraps_init", 0,
		   sframe_section_init(&sec, base, base + l.len, base - 0x1000, ULONG_MAX,
				       mem_read, m));
	expect_ret("func_wraps_find", -EINVAL, sframe_find(&sec, base - 0x100, &fr, mem_read, m));
	expect_ret("func_wraps_validate", -EINVAL, sframe_section_validate(&sec, ~0U, mem_read, m));
	mem_free(m);
}

/* FDEs out of order, overlapping, or outside the text */
static void test_bad_fde_order(void)
{
	struct sframe_frame fr;
	struct sb_section s;
	struct sb_fde *f;
	struct sb_layout l;
	int ok = 1, ret;

	sb_init(&s, 2, SB_PCREL, g_fdes);
	for (int i = 0; i < 9; i++) {
		f = sb_add_fde(&s, TEXT_START + 0x100 * ((i * 5) % 9), 0x80, 0);
		sb_add_fre(f, 0, 1, 8, 0);
	}
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	expect_ret("unsorted_fdes_validate", -EINVAL, validate_img(g_img, l.len));
	for (unsigned long ip = TEXT_START; ip < TEXT_START + 0x1000; ip += 8) {
		ret = find_img(g_img, l.len, ip, &fr);
		if (ret != 0 && ret != -ENOENT)
			ok = 0;
	}
	report("unsorted_fdes_find_is_safe", ok, "find returned an unexpected error");

	sb_init(&s, 2, 0, g_fdes);
	f = sb_add_fde(&s, F0, 0x40, 0);
	sb_add_fre(f, 0, 1, 8, 0);
	f = sb_add_fde(&s, F0 + 0x3f, 0x40, 0);
	sb_add_fre(f, 0, 1, 8, 0);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	expect_ret("overlapping_fdes_validate", -EINVAL, validate_img(g_img, l.len));

	sb_init(&s, 2, 0, g_fdes);
	f = sb_add_fde(&s, TEXT_END - 0x10, 0x20, 0);
	sb_add_fre(f, 0, 1, 8, 0);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	expect_ret("fde_past_text_end_validate", -EINVAL, validate_img(g_img, l.len));
	/* A lookup rejects an FDE whose function is not inside the text */
	expect_ret("fde_past_text_end_find_inside", -EINVAL,
		   find_img(g_img, l.len, TEXT_END - 1, &fr));
	expect_ret("fde_past_text_end_find_outside", -ENOENT,
		   find_img(g_img, l.len, TEXT_END + 1, &fr));

	sb_init(&s, 2, 0, g_fdes);
	f = sb_add_fde(&s, TEXT_START - 0x10, 0x20, 0);
	sb_add_fre(f, 0, 1, 8, 0);
	l = sb_build(&s, SEC_BASE, g_img, IMG_MAX);
	expect_ret("fde_before_text_validate", -EINVAL, validate_img(g_img, l.len));
	expect_ret("fde_before_text_find", -EINVAL, find_img(g_img, l.len, TEXT_START + 1, &fr));
}

/* ---------------------------------------------------------------------- */
/* Large functions: lookups from the points of an FRE index */

#define BIG_FUNC	(TEXT_START + 0x10000)
#define BIG_STEP	3		/* bytes between two FRE starts */

/* The CFA offset the big function's FRE @i gives */
static int big_cfa(u32 i)
{
	return 8 + 8 * (i % 15);
}

/*
 * A version 2 section of one function with @n FREs (2-byte starts, one
 * 1-byte offset each), FRE i starting at BIG_STEP * i; FRE @bad (if below
 * @n) does not start after the one before it. Encoded here, not by
 * sfbuild, which keeps few FREs per function.
 */
static size_t big_section(u32 n, u32 bad)
{
	unsigned char *p = g_img;
	size_t fre_len = 4 * (size_t)n;

	memset(p, 0, SB_HDR_SIZE + 20);
	sb_put16(p, SB_MAGIC);
	p[2] = 2;
	p[3] = SB_SORTED;
	p[4] = 3;
	p[6] = (unsigned char)-8;
	sb_put32(p + 8, 1);
	sb_put32(p + 12, n);
	sb_put32(p + 16, fre_len);
	sb_put32(p + 20, 0);
	sb_put32(p + 24, 20);
	p += SB_HDR_SIZE;
	sb_put32(p, (uint32_t)((long)BIG_FUNC - (long)SEC_BASE));
	sb_put32(p + 4, BIG_STEP * n);
	sb_put32(p + 8, 0);
	sb_put32(p + 12, n);
	p[16] = 1;			/* 2-byte FRE starts */
	p += 20;
	for (u32 i = 0; i < n; i++, p += 4) {
		sb_put16(p, i == bad ? BIG_STEP * (i - 1) : BIG_STEP * i);
		p[2] = 1 | 1 << 1;	/* SP based, one 1-byte offset */
		p[3] = big_cfa(i);
	}
	return SB_HDR_SIZE + 20 + fre_len;
}

/*
 * Build the big function's index of every @stride-th FRE in chunks of
 * @chunk FREs, then look up each address of [@lo, @hi) from its point:
 * the FRE's rule, reading at most one stride of FREs. 1 if all held, else
 * 0 with the reason in @why.
 */
static int index_lookups(const struct sframe_section *sec, const struct sframe_fde *fde,
			 struct mem *m, u32 stride, u32 chunk, struct sframe_fre_pos *points,
			 unsigned long lo, unsigned long hi, char *why, size_t len)
{
	struct sframe_fre_scan scan = { .off = fde->fre_off };
	struct sframe_frame fr;
	int ret;

	while (scan.i < fde->num_fres) {
		ret = sframe_fre_index(sec, fde, &scan, chunk, stride, points, mem_read, m);
		if (ret) {
			snprintf(why, len, "index build: %s", err_name(ret));
			return 0;
		}
	}
	for (unsigned long ip = lo; ip < hi; ip++) {
		u32 i = (ip - BIG_FUNC) / BIG_STEP, pt = i / stride;

		m->reads = 0;
		ret = sframe_find_fre(sec, fde, ip, &points[pt], pt * stride, stride, &fr,
				      mem_read, m);
		/* 2 reads per FRE passed (start, info), 1 offset */
		if (ret || fr.cfa_off != big_cfa(i) || m->reads > 2 * stride + 1) {
			snprintf(why, len, "ip %#lx: %s cfa %d, %ld reads", ip, err_name(ret),
				 fr.cfa_off, m->reads);
			return 0;
		}
	}
	return 1;
}

/*
 * sframe_lookup() asks for an index above max_fres; an index built in
 * chunks of every stride gives, from its points, what a full scan gives.
 */
static void test_fre_index(void)
{
	static const u32 strides[] = { 1, 7, 16, 100 }, chunks[] = { 1, 13, 20000 };
	static struct sframe_fre_pos points[20000];
	const u32 n = 20000;
	struct mem *m = mem_new(SEC_BASE, g_img, big_section(n, n));
	struct sframe_section sec;
	struct sframe_frame fr, want;
	struct sframe_fde fde;
	char why[160] = "";
	int ok, ret;

	ok = !init_at(&sec, m) && !sframe_section_validate(&sec, ~0U, mem_read, m);
	ret = sframe_lookup(&sec, BIG_FUNC + 5, n - 1, &fr, &fde, mem_read, m);
	ok &= ret == SFRAME_NEED_INDEX && fde.num_fres == n && fde.start == BIG_FUNC;
	ret = sframe_lookup(&sec, BIG_FUNC + 5, n, &fr, &fde, mem_read, m);
	ok &= !ret && fr.cfa_off == big_cfa(1);
	report("big_function_needs_index", ok, "init/validate/lookup: %s", err_name(ret));
	/* more FREs than a function may have (lookups' limit): the section is refused */
	expect_ret("validate_fre_limit", -EINVAL, sframe_section_validate(&sec, n - 1, mem_read, m));
	expect_ret("validate_fre_limit_exact", 0, sframe_section_validate(&sec, n, mem_read, m));

	for (size_t s = 0; s < ARRAY_SIZE(strides); s++) {
		for (size_t c = 0; c < ARRAY_SIZE(chunks); c++) {
			u32 stride = strides[s];

			ok = index_lookups(&sec, &fde, m, stride, chunks[c], points, BIG_FUNC,
					   BIG_FUNC + BIG_STEP * n, why, sizeof(why));
			if (ok && (ret = sframe_find(&sec, BIG_FUNC + BIG_STEP * n - 1, &want,
						     mem_read, m)) != 0) {
				snprintf(why, sizeof(why), "full scan: %s", err_name(ret));
				ok = 0;
			}
			snprintf(why + strlen(why), sizeof(why) - strlen(why), " (stride %u chunk %u)",
				 stride, chunks[c]);
			report("big_function_index_lookups", ok, "%s", why);
			why[0] = 0;
		}
	}

	/* Positions that are not the function's FREs, or after the ip */
	expect_ret("index_point_past_fres", -EINVAL,
		   sframe_find_fre(&sec, &fde, BIG_FUNC, &points[0], n, 4, &fr, mem_read, m));
	expect_ret("index_point_before_fres", -EINVAL,
		   sframe_find_fre(&sec, &fde, BIG_FUNC,
				   &(struct sframe_fre_pos){ fde.fre_off - 1, 0 }, 0, 4, &fr,
				   mem_read, m));
	expect_ret("index_point_after_ip", -EINVAL,
		   sframe_find_fre(&sec, &fde, BIG_FUNC + 10, &points[1], 100, 4, &fr,
				   mem_read, m));
	mem_free(m);

	/* An FRE out of order far into the function: the index build finds it */
	m = mem_new(SEC_BASE, g_img, big_section(n, 12345));
	ok = !init_at(&sec, m) &&
	     sframe_lookup(&sec, BIG_FUNC, 100, &fr, &fde, mem_read, m) == SFRAME_NEED_INDEX;
	{
		struct sframe_fre_scan scan = { .off = fde.fre_off };

		while (ok && scan.i < n && !(ret = sframe_fre_index(&sec, &fde, &scan, 1000, 16,
								      points, mem_read, m)))
			;
		ok &= ret == -EINVAL && scan.i == 12345;
		report("index_build_finds_bad_fre", ok, "%s at FRE %u", err_name(ret), scan.i);
	}
	expect_ret("index_build_bad_fre_validate", -EINVAL,
		   sframe_section_validate(&sec, ~0U, mem_read, m));
	mem_free(m);
}

/*
 * The big function ends where its last FRE starts (gas writes such an FRE
 * when a CFI directive follows the last instruction): that FRE is an index
 * point (stride 7: FRE 19999 is one) and is passed, never chosen, by the
 * lookups of the function's last addresses, with or without the index.
 */
static void test_fre_index_at_end(void)
{
	static struct sframe_fre_pos points[20000 / 7 + 1];
	const u32 n = 20000, stride = 7;
	const unsigned long end = BIG_FUNC + BIG_STEP * (n - 1);
	size_t len = big_section(n, n);
	struct sframe_section sec;
	struct sframe_frame fr;
	struct sframe_fde fde;
	struct mem *m;
	char why[120] = "";
	int ok, ret;

	sb_put32(g_img + SB_HDR_SIZE + 4, end - BIG_FUNC);	/* the function's size */
	m = mem_new(SEC_BASE, g_img, len);
	ok = !init_at(&sec, m) && !sframe_section_validate(&sec, ~0U, mem_read, m);
	ret = sframe_lookup(&sec, end - 1, n, &fr, &fde, mem_read, m);
	ok &= !ret && fr.cfa_off == big_cfa(n - 2);
	report("fre_at_end_full_scan", ok, "validate/lookup: %s", err_name(ret));

	ret = sframe_lookup(&sec, end - 1, 100, &fr, &fde, mem_read, m);
	ok = ret == SFRAME_NEED_INDEX &&
	     index_lookups(&sec, &fde, m, stride, 1000, points, end - 3 * stride * BIG_STEP,
			   end, why, sizeof(why));
	if (ok && points[(n - 1) / stride].start != end - BIG_FUNC) {
		snprintf(why, sizeof(why), "the FRE at the end is no index point");
		ok = 0;
	}
	report("fre_at_end_index", ok, "lookup %s: %s", err_name(ret), why);
	mem_free(m);
}

/* ---------------------------------------------------------------------- */
/* Robustness sweeps */

static unsigned long sweep_ips[] = {
	F0, F0 + 1, F0 + 4, F0 + 0x3f, F1, F1 + 2, F1 + 0x120, F1 + 0x2ff, F2, F2 + 0xb,
	F2 + 0x1c, F2 + 0x3f, F3 + 2, F3 + 0xf, F0 - 1, F3 + 0x10, TEXT_START,
};

/*
 * Run init, validate and every sweep ip; return 0 if all results are
 * allowed: no read outside the section, known codes, and no -EINVAL from
 * a lookup in a section that validated.
 */
static int run_all(const unsigned char *img, size_t len, char *why, size_t whylen)
{
	struct mem *m = mem_new(SEC_BASE, img, len);
	struct sframe_section sec;
	int ret, valid, bad = 0;

	ret = init_at(&sec, m);
	if (ret && ret != -EINVAL) {
		snprintf(why, whylen, "init: %s", err_name(ret));
		bad = 1;
	}
	if (!ret) {
		valid = sframe_section_validate(&sec, ~0U, mem_read, m);
		if (valid && valid != -EINVAL) {
			snprintf(why, whylen, "validate: %s", err_name(valid));
			bad = 1;
		}
		for (size_t i = 0; !bad && i < ARRAY_SIZE(sweep_ips); i++) {
			struct sframe_frame fr;

			ret = sframe_find(&sec, sweep_ips[i], &fr, mem_read, m);
			if ((ret && ret != -EINVAL && ret != -ENOENT) ||
			    (!valid && ret == -EINVAL)) {
				snprintf(why, whylen, "find %#lx: %s (validate %s)", sweep_ips[i],
					 err_name(ret), err_name(valid));
				bad = 1;
			}
		}
	}
	mem_free(m);
	if (oob_reads && !bad) {
		snprintf(why, whylen, "out-of-bounds read");
		bad = 1;
	}
	return bad;
}

/* Every prefix of a valid section: init fails, nothing is read outside */
static void test_truncations(void)
{
	static const struct { const char *name; int version, flags; } v[] = {
		{ "truncate_every_length_v1", 1, 0 },
		{ "truncate_every_length_v2", 2, 0 },
		{ "truncate_every_length_v2_pcrel", 2, SB_PCREL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		struct sb_layout l = std_section(v[i].version, v[i].flags, SEC_BASE, 0);
		char why[128] = "";
		int ok = 1;

		for (size_t len = 0; ok && len < l.len; len++) {
			struct sframe_section sec;
			struct mem *m = mem_new(SEC_BASE, g_img, len);
			int ret = init_at(&sec, m);

			mem_free(m);
			if (ret != -EINVAL || oob_reads) {
				ok = 0;
				snprintf(why, sizeof(why), "length %zu: init %s", len, err_name(ret));
			}
		}
		report(v[i].name, ok, "%s", why);
	}
}

/* Shrink the FRE area one byte at a time (the header stays consistent) */
static void test_fre_area_shrink(void)
{
	struct sb_layout l = std_section(2, 0, SEC_BASE, 0);
	size_t full = l.len - l.fres;
	char why[128] = "";
	int ok = 1;

	for (size_t fre_len = 0; ok && fre_len <= full; fre_len++) {
		unsigned char img[1024];
		size_t len = l.fres + fre_len;
		int want = fre_len == full ? 0 : -EINVAL, got;

		memcpy(img, g_img, len);
		sb_put32(img + 12, 1);	/* num_fres: keep init from refusing early */
		sb_put32(img + 16, fre_len);
		if (run_all(img, len, why, sizeof(why))) {
			ok = 0;
			break;
		}
		got = validate_img(img, len);
		if (got != want) {
			ok = 0;
			snprintf(why, sizeof(why), "fre_len %zu: validate expected %s, got %s",
				 fre_len, err_name(want), err_name(got));
		}
	}
	report("shrink_fre_area_every_length", ok, "%s", why);
}

/* Change every byte of valid sections to a few values */
static void test_mutations(void)
{
	static const struct { const char *name; int version, flags; } v[] = {
		{ "mutate_every_byte_v1", 1, 0 },
		{ "mutate_every_byte_v2", 2, 0 },
		{ "mutate_every_byte_v2_pcrel", 2, SB_PCREL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		struct sb_layout l = std_section(v[i].version, v[i].flags, SEC_BASE, 0);
		unsigned char orig[1024];
		char why[160] = "";
		int ok = 1;

		memcpy(orig, g_img, l.len);
		for (size_t pos = 0; ok && pos < l.len; pos++) {
			const unsigned char b = orig[pos];
			const unsigned char vals[] = { 0, 0xff, b ^ 1, b ^ 0x80, b + 1, b - 1, 0x7f };

			for (size_t k = 0; ok && k < sizeof(vals); k++) {
				char w[96] = "";

				memcpy(g_img, orig, l.len);
				g_img[pos] = vals[k];
				if (run_all(g_img, l.len, w, sizeof(w))) {
					ok = 0;
					snprintf(why, sizeof(why), "byte %zu = %#x: %s", pos, vals[k], w);
				}
			}
		}
		report(v[i].name, ok, "%s", why);
	}
}

/*
 * Fail the n-th read of a lookup (@validate: of a validation), for every n:
 * the result is -EFAULT until n is past the reads that succeed.
 */
static void check_read_faults(const char *name, const unsigned char *img, size_t len,
			      int validate)
{
	struct sframe_section sec;
	struct sframe_frame fr;
	char why[128] = "";
	int ok = 1, ret;

	for (long n = 0; ok; n++) {
		struct mem *m = mem_new(SEC_BASE, img, len);

		ret = init_at(&sec, m);
		if (ret) {
			ok = 0;
			snprintf(why, sizeof(why), "init: %s", err_name(ret));
			mem_free(m);
			break;
		}
		m->fail_at = n;
		m->reads = 0;
		if (validate)
			ret = sframe_section_validate(&sec, ~0U, mem_read, m);
		else
			ret = sframe_find(&sec, F1 + 0x2ff, &fr, mem_read, m);
		if (!ret && n < m->reads) {
			ok = 0;
			snprintf(why, sizeof(why), "read %ld failed, yet success", n);
		} else if (ret && ret != -EFAULT) {
			ok = 0;
			snprintf(why, sizeof(why), "read %ld failed: %s", n, err_name(ret));
		}
		mem_free(m);
		if (!ret)
			break;
	}
	report(name, ok, "%s", why);
}

static void test_read_faults(void)
{
	struct sb_layout l = std_section(2, SB_PCREL, SEC_BASE, 0);
	struct sframe_section sec;
	struct mem *m;

	check_read_faults("read_fault_every_read_find", g_img, l.len, 0);
	check_read_faults("read_fault_every_read_validate", g_img, l.len, 1);
	m = mem_new(SEC_BASE, g_img, l.len);
	m->fail_at = 0;
	expect_ret("read_fault_init", -EFAULT, init_at(&sec, m));
	mem_free(m);
}

/* The section changes after every read: results may be anything but safe */
static void test_changing_section(void)
{
	char why[128] = "";
	int ok = 1;

	for (unsigned int seed = 1; ok && seed <= 2000; seed++) {
		struct sb_layout l = std_section(1 + seed % 2, seed % 4 >= 2 ? SB_PCREL : 0,
						 SEC_BASE, 0);
		struct mem *m = mem_new(SEC_BASE, g_img, l.len);
		struct sframe_section sec;
		int ret, bad = 0;

		m->scramble = seed * 2654435761u;
		ret = init_at(&sec, m);
		if (ret && ret != -EINVAL)
			bad = 1;
		if (!ret) {
			ret = sframe_section_validate(&sec, ~0U, mem_read, m);
			bad |= ret && ret != -EINVAL;
			for (size_t i = 0; i < ARRAY_SIZE(sweep_ips); i++) {
				struct sframe_frame fr;

				ret = sframe_find(&sec, sweep_ips[i], &fr, mem_read, m);
				bad |= ret && ret != -EINVAL && ret != -ENOENT;
			}
		}
		if (bad || oob_reads) {
			ok = 0;
			snprintf(why, sizeof(why), "seed %u: %s", seed, err_name(ret));
		}
		mem_free(m);
	}
	report("section_changes_under_us", ok, "%s", why);
}

/* ---------------------------------------------------------------------- */
/* Real sections from the toolchain, checked against objdump --sframe */

struct drow {
	unsigned long start;	/* from the function start */
	int use_fp, cfa, fp;
};

struct dfde {
	unsigned long pc, size;
	int pcmask, nrows;
	struct drow *rows;
};

struct dump {
	long num_fdes;
	int nfdes;
	struct dfde *fdes;
};

static void dump_free(struct dump *d)
{
	for (int i = 0; i < d->nfdes; i++)
		free(d->fdes[i].rows);
	free(d->fdes);
	memset(d, 0, sizeof(*d));
}

/* "sp+16", "fp-8" */
static int parse_cfa(const char *s, struct drow *r)
{
	char *end;

	if (strncmp(s, "sp", 2) && strncmp(s, "fp", 2))
		return -1;
	r->use_fp = s[0] == 'f';
	r->cfa = strtol(s + 2, &end, 10);
	return *end || end == s + 2 ? -1 : 0;
}

/* "u" or "c-16" */
static int parse_fp(const char *s, struct drow *r)
{
	char *end;

	if (!strcmp(s, "u")) {
		r->fp = 0;
		return 0;
	}
	if (s[0] != 'c')
		return -1;
	r->fp = strtol(s + 1, &end, 10);
	return *end || end == s + 1 || !r->fp ? -1 : 0;
}

static int dump_load(const char *path, struct dump *d, char *err, size_t errlen)
{
	const char *objdump = getenv("OBJDUMP") ? getenv("OBJDUMP") : "objdump";
	char cmd[4096], line[512];
	int pcmask = 0, bad = 0;
	FILE *p;

	memset(d, 0, sizeof(*d));
	d->num_fdes = -1;
	if (strchr(path, '\'')) {
		snprintf(err, errlen, "bad path");
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "%s --sframe '%s'", objdump, path);
	p = popen(cmd, "r");
	if (!p) {
		snprintf(err, errlen, "cannot run %s", cmd);
		return -1;
	}
	while (fgets(line, sizeof(line), p)) {
		unsigned long pc, size, start;
		char cfa[32], fp[32], ra[32];
		struct dfde *f;
		int idx;

		if (sscanf(line, " Num FDEs: %ld", &d->num_fdes) == 1)
			continue;
		if (sscanf(line, " func idx [%d]: pc = 0x%lx, size = %lu bytes", &idx, &pc,
			   &size) == 3) {
			d->fdes = realloc(d->fdes, (d->nfdes + 1) * sizeof(*d->fdes));
			d->fdes[d->nfdes++] = (struct dfde){ .pc = pc, .size = size };
			continue;
		}
		if (strstr(line, "STARTPC")) {
			pcmask = strstr(line, "STARTPC[m]") != NULL;
			if (d->nfdes)
				d->fdes[d->nfdes - 1].pcmask = pcmask;
			continue;
		}
		if (sscanf(line, " %lx %31s %31s %31s", &start, cfa, fp, ra) != 4 || !d->nfdes)
			continue;
		f = &d->fdes[d->nfdes - 1];
		f->rows = realloc(f->rows, (f->nrows + 1) * sizeof(*f->rows));
		f->rows[f->nrows].start = pcmask ? start : start - f->pc;
		if (parse_cfa(cfa, &f->rows[f->nrows]) || parse_fp(fp, &f->rows[f->nrows]))
			bad = 1;
		f->nrows++;
	}
	if (pclose(p) || bad || d->num_fdes != d->nfdes) {
		snprintf(err, errlen, "cannot parse the output of %s", cmd);
		dump_free(d);
		return -1;
	}
	return 0;
}

/* What the section says at @ip, according to objdump */
static int dump_find(const struct dump *d, unsigned long ip, struct drow *out)
{
	int lo = 0, hi = d->nfdes;
	const struct dfde *f;
	unsigned long off;
	int found = -1;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (d->fdes[mid].pc <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	f = &d->fdes[lo - 1];
	if (ip - f->pc >= f->size)
		return -ENOENT;
	off = ip - f->pc;
	if (f->pcmask)
		off %= 16;
	for (int i = 0; i < f->nrows && f->rows[i].start <= off; i++)
		found = i;
	if (found < 0)
		return -ENOENT;
	*out = f->rows[found];
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Init and validate a real section loaded with @bias */
static int real_init(const struct elf_image *img, unsigned long bias, struct mem **m,
		     struct sframe_section *sec)
{
	int ret;

	*m = mem_new(img->sframe_addr + bias, img->sframe, img->sframe_size);
	ret = sframe_section_init(sec, (*m)->base, (*m)->base + img->sframe_size,
				  img->text_start + bias, img->text_end + bias, mem_read, *m);
	if (!ret)
		ret = sframe_section_validate(sec, ~0U, mem_read, *m);
	return ret;
}

/* Compare every ip of the text with objdump's table */
static void check_every_ip(const char *name, const struct elf_image *img, const struct dump *d,
			   unsigned long bias)
{
	struct sframe_section sec;
	struct mem *m;
	long bad = 0, covered = 0;
	char why[256] = "";
	int ret;

	ret = real_init(img, bias, &m, &sec);
	if (ret) {
		report(name, 0, "init/validate: %s", err_name(ret));
		mem_free(m);
		return;
	}
	for (unsigned long ip = img->text_start; ip < img->text_end; ip++) {
		struct sframe_frame f;
		struct drow want = { 0 };
		struct probe p;
		int want_ret = dump_find(d, ip, &want);
		char tmp[256];

		ret = sframe_find(&sec, ip + bias, &f, mem_read, m);
		p = (struct probe){ ip + bias, want_ret, want.cfa, want.use_fp, want.fp };
		if (!want_ret)
			covered++;
		if (!probe_matches(&p, ret, &f, tmp, sizeof(tmp)) && !bad++)
			snprintf(why, sizeof(why), "%s", tmp);
	}
	if (!bad && covered < 16) {
		bad = 1;
		snprintf(why, sizeof(why), "only %ld ips covered", covered);
	}
	report(name, !bad, "%ld mismatches; first: %s", bad, why);
	mem_free(m);
}

struct entry_arg {
	const struct dump *d;
	const struct sframe_section *sec;
	struct mem *m;
	long checked, bad;
	char why[160];
};

/* At a function's first instruction: CFA = SP + 8, FP unchanged */
static void check_entry(void *arg, const char *name, unsigned long addr, unsigned long size)
{
	struct entry_arg *a = arg;
	struct sframe_frame f;
	int ret;

	(void)size;
	/* Only functions with their own FDE starting at the symbol */
	for (int i = 0; i < a->d->nfdes; i++) {
		if (a->d->fdes[i].pc != addr || a->d->fdes[i].pcmask)
			continue;
		a->checked++;
		ret = sframe_find(a->sec, addr, &f, mem_read, a->m);
		if (ret || f.cfa_off != 8 || f.use_fp || f.fp_off || f.ra_off != -8 ||
		    f.outermost) {
			if (!a->bad++)
				snprintf(a->why, sizeof(a->why), "%s at %#lx: %s cfa %d", name, addr,
					 err_name(ret), f.cfa_off);
		}
		break;
	}
}

static void check_entries(const char *name, const struct elf_image *img, const struct dump *d)
{
	struct entry_arg a = { .d = d };
	struct sframe_section sec;
	int ret = real_init(img, 0, &a.m, &sec);

	a.sec = &sec;
	if (!ret)
		elf_for_each_func(img, check_entry, &a);
	if (!ret && !a.bad && a.checked < 3) {
		a.bad = 1;
		snprintf(a.why, sizeof(a.why), "only %ld functions checked", a.checked);
	}
	report(name, !ret && !a.bad, "init %s; %ld bad; %s", err_name(ret), a.bad, a.why);
	mem_free(a.m);
}

/* The exact layout of sample_asm.S */
static void check_asm_layout(const char *name, const struct elf_image *img)
{
	unsigned long fp = elf_func_addr(img, "sf_asm_fp");
	unsigned long push = elf_func_addr(img, "sf_asm_push");
	unsigned long lng = elf_func_addr(img, "sf_asm_long");
	unsigned long huge = elf_func_addr(img, "sf_asm_huge");
	const struct probe p[] = {
		{ fp, 0, 8, 0, 0 },
		{ fp + 1, 0, 16, 0, -16 },
		{ fp + 3, 0, 16, 0, -16 },
		{ fp + 4, 0, 16, 1, -16 },
		{ fp + 9, 0, 16, 1, -16 },
		{ fp + 10, 0, 8, 0, 0 },
		{ push, 0, 8, 0, 0 },
		{ push + 1, 0, 8, 0, 0 },
		{ push + 2, 0, 16, 0, 0 },
		{ push + 3, 0, 24, 0, 0 },
		{ push + 7, 0, 32, 0, 0 },
		{ push + 11, 0, 24, 0, 0 },
		{ push + 12, 0, 16, 0, 0 },
		{ push + 14, 0, 8, 0, 0 },
		{ lng, 0, 8, 0, 0 },
		{ lng + 1, 0, 16, 0, 0 },
		{ lng + 1001, 0, 16, 0, 0 },
		{ lng + 1002, 0, 8, 0, 0 },
		{ huge, 0, 8, 0, 0 },
		{ huge + 1, 0, 16, 0, 0 },
		{ huge + 70001, 0, 16, 0, 0 },
		{ huge + 70002, 0, 8, 0, 0 },
	};

	if (!fp || !push || !lng || !huge) {
		report(name, 0, "sf_asm_* symbols not found");
		return;
	}
	check_probes(name, img->sframe, img->sframe_size, img->sframe_addr, img->text_start,
		     img->text_end, p, ARRAY_SIZE(p), 0);
}

static void test_real(const char *path)
{
	const char *b = base_name(path);
	struct elf_image img;
	struct dump d;
	char err[256], name[128];

	snprintf(name, sizeof(name), "real_%s_load", b);
	if (elf_load(path, &img, err, sizeof(err))) {
		report(name, 0, "%s", err);
		return;
	}
	if (dump_load(path, &d, err, sizeof(err))) {
		report(name, 0, "%s", err);
		elf_free(&img);
		return;
	}
	report(name, 1, "%s", "");
	snprintf(name, sizeof(name), "real_%s_every_ip_matches_objdump", b);
	check_every_ip(name, &img, &d, 0);
	snprintf(name, sizeof(name), "real_%s_every_ip_matches_objdump_biased", b);
	check_every_ip(name, &img, &d, 0x7f1234560000UL);
	snprintf(name, sizeof(name), "real_%s_function_entries", b);
	check_entries(name, &img, &d);
	if (elf_func_addr(&img, "sf_asm_fp")) {
		snprintf(name, sizeof(name), "real_%s_asm_known_layout", b);
		check_asm_layout(name, &img);
	}
	dump_free(&d);
	elf_free(&img);
}

/* ---------------------------------------------------------------------- */
/* Fuzz seeds */

static void write_seed(const char *dir, const char *name, const unsigned char *sec, size_t len,
		       long text_off, unsigned long text_len)
{
	char path[4096];
	unsigned char prefix[FUZZ_PREFIX_SIZE];
	FILE *f;

	if (len + FUZZ_PREFIX_SIZE > FUZZ_MAX_LEN)
		return;
	sb_put32(prefix, (uint32_t)text_off);
	sb_put32(prefix + 4, (uint32_t)text_len);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(prefix, 1, sizeof(prefix), f) != sizeof(prefix) ||
	    fwrite(sec, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(2);
	}
}

/*
 * A v3 section with every kind of function: default, flexible (DRAP
 * prologue and body, RA and FP rules, 2-byte words), outermost, signal
 */
static struct sb_layout v3_seed(unsigned long base)
{
	static const int32_t drap[] = { C_REG(10), 0 };
	static const int32_t body[] = { C_REG(6) | C_DEREF, -8, 0, C_REG(6) | C_DEREF, 0 };
	static const int32_t all[] = { C_REG(7), 300, C_DEREF, -16, C_DEREF, -24 };
	struct sb_section s;
	struct sb_fde *f;

	sb_init(&s, 3, SB_PCREL, g_fdes);
	f = sb_add_fde(&s, F0, 0x40, 0);
	sb_add_fre(f, 0x0, 1, 8, 0);
	sb_add_fre(f, 0x1, 1, 16, -16);
	f = sb_add_fde(&s, F1, 0x300, 1);
	f->type = 1;
	sb_add_words(f, 0, 0, 2, drap);
	sb_add_words(f, 0x10, 0, 5, body);
	sb_add_words(f, 0x120, 1, 6, all);
	sb_add_words(f, 0x200, 0, 0, NULL);
	f = sb_add_fde(&s, F2, 0x40, 0);
	f = sb_add_fde(&s, F3, 0x10, 0);
	f->signal = 1;
	sb_add_fre(f, 0x0, 1, 8, 0);
	return sb_build(&s, base, g_img, IMG_MAX);
}

static int write_seeds(const char *dir, char **elves, int n)
{
	const long text_off = (long)TEXT_START - (long)FUZZ_SFRAME_BASE;
	char name[256], err[256];
	struct sb_layout l;

	l = std_section(1, 0, FUZZ_SFRAME_BASE, 0);
	write_seed(dir, "hand_v1", g_img, l.len, text_off, TEXT_END - TEXT_START);
	l = std_section(2, 0, FUZZ_SFRAME_BASE, 0);
	write_seed(dir, "hand_v2", g_img, l.len, text_off, TEXT_END - TEXT_START);
	l = std_section(2, SB_PCREL, FUZZ_SFRAME_BASE, 3);
	write_seed(dir, "hand_v2_pcrel", g_img, l.len, text_off, TEXT_END - TEXT_START);
	l = std_section(3, 0, FUZZ_SFRAME_BASE, 0);
	write_seed(dir, "hand_v3", g_img, l.len, text_off, TEXT_END - TEXT_START);
	std_reverse_blobs = 1;
	l = std_section(3, SB_PCREL, FUZZ_SFRAME_BASE, 0);
	std_reverse_blobs = 0;
	write_seed(dir, "hand_v3_pcrel_reversed", g_img, l.len, text_off, TEXT_END - TEXT_START);
	l = v3_seed(FUZZ_SFRAME_BASE);
	write_seed(dir, "hand_v3_flex_signal", g_img, l.len, text_off, TEXT_END - TEXT_START);
	for (int i = 0; i < n; i++) {
		struct elf_image img;

		if (elf_load(elves[i], &img, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 2;
		}
		snprintf(name, sizeof(name), "real_%s", base_name(elves[i]));
		write_seed(dir, name, img.sframe, img.sframe_size,
			   (long)(img.text_start - img.sframe_addr),
			   img.text_end - img.text_start);
		elf_free(&img);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--seeds"))
		return write_seeds(argv[2], argv + 3, argc - 3);

	test_std_lookups();
	test_pcmask_rep_size();
	test_wide_fields();
	test_many_fdes();
	test_empty_things();
	test_bad_headers();
	test_bad_fdes();
	test_bad_fres();
	test_fre_at_function_end();
	test_fre_index_at_end();
	test_v3_fdes();
	test_v3_flex();
	test_truncated_fre();
	test_func_wraps();
	test_bad_fde_order();
	test_fre_index();
	test_truncations();
	test_fre_area_shrink();
	test_mutations();
	test_read_faults();
	test_changing_section();
	for (int i = 1; i < argc; i++)
		test_real(argv[i]);

	printf("%d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
