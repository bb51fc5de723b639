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
 *
 * The cases on hand-built sections are the kernel's (sframe_reader_cases.h
 * and the section builder sframe_test_build.c in kernel/unwind/, where the
 * KUnit suite sframe_reader_kunit.c runs them too): this file gives them
 * report(), the section memory and its read callback. The cases that need
 * a read to fail or the section to change under the reader, and those on
 * real ELF files, are user space only and follow.
 */
#include <linux/sframe_reader.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "sfelf.h"

/* ---------------------------------------------------------------------- */
/* Reporting */

static int n_pass, n_fail;
static long oob_reads;		/* reads outside the section, since the last report */

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
/* The cases shared with the kernel's KUnit suite (on hand-built sections) */

static struct sb_fde *g_fdes;
static unsigned char *g_img;

#include "sframe_reader_cases.h"

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
	sb_put32(prefix, (u32)text_off);
	sb_put32(prefix + 4, (u32)text_len);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(prefix, 1, sizeof(prefix), f) != sizeof(prefix) ||
	    fwrite(sec, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(2);
	}
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
	g_fdes = calloc(SB_MAX_FDES, sizeof(*g_fdes));
	g_img = calloc(1, IMG_MAX);
	if (!g_fdes || !g_img) {
		perror("calloc");
		return 2;
	}
	if (argc >= 3 && !strcmp(argv[1], "--seeds"))
		return write_seeds(argv[2], argv + 3, argc - 3);

	for (size_t i = 0; i < ARRAY_SIZE(sframe_reader_cases); i++)
		sframe_reader_cases[i].run();
	test_read_faults();
	test_changing_section();
	for (int i = 1; i < argc; i++)
		test_real(argv[i]);

	printf("%d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
