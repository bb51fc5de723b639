// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the .eh_frame -> SFrame converter against libdw's own CFI
 * evaluation.
 *
 * Usage: test_sfconv [-2] [-p] [-E] [-F MAX] [-m MIN%] [-s STEP] [-v] FILE...
 *
 * For each object (FILE, and with -v this process's vDSO read from memory):
 *  - convert it into SFrame V3 (-2: v2); the share of FDEs converted whole
 *    must be >= MIN% (90);
 *  - place the section as it is 64 GiB below the object loaded at a made-up
 *    address (function starts relative to the text), or with -p (or a
 *    reader without SFRAME_SETUP_TEXT_RELATIVE's SFRAME_SEC_TEXT_RELATIVE)
 *    written with PC-relative starts for where it is (64 GiB below for V3,
 *    256 MiB for v2's 32-bit starts), and check it with the kernel's
 *    SFrame reader (kernel/unwind/sframe_reader.c, compiled in): header,
 *    then every FDE and FRE (sframe_section_validate());
 *  - at every row boundary of the CFI tables (first and last byte of each
 *    row) and every STEP-th address of the code: look the address up with
 *    the reader, and unwind one frame from it with libdwfl (elfutils'
 *    unwinder, which evaluates the CFI itself) from made-up registers and
 *    a made-up stack whose every word is a function of its address. Where
 *    the section has a rule, libdwfl must find the same caller: return
 *    address, CFA (the caller's SP) and FP; "outermost" where libdwfl finds
 *    no caller. Where it has none, the row must be one that does not fit
 *    SFrame (or no FDE covers the address). The rules of V3 flexible FDEs
 *    may take registers: the topmost frame's, made up as well (rax..r15).
 *    A V3 signal trampoline ends the reader's walk (outermost): its FREs
 *    are checked all the same (sframe_find_fre()), and one without FREs
 *    must cover rows that do not fit only.
 * -E: check the object's own .sframe section (sframe-conv convert -S wrote it
 * into a placeholder: bench/bench.mk) in place of the conversion's, where it is.
 * -F: at most MAX FREs an SFrame FDE (splits functions as V3's limit of
 * 65535 does). V3 needs a reader with flexible FDEs (SFRAME_RULE_REG):
 * without, -2 only.
 * Prints one line per object and a verdict; exits 1 on any failure.
 */
#include <linux/sframe_reader.h>

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "sfconv.h"

#define SP0	0x7ffd12345000ULL
#define FP0	0x7ffd12400000ULL
#define REGS0	0x7ffd13000000ULL
#define TID	4242

/* The made-up stack: the word at @addr */
static uint64_t mem_word(uint64_t addr)
{
	return (addr * 0x9e3779b97f4a7c15ULL) | 1;
}

/* The made-up registers of the topmost frame, by DWARF number (0-15) */
static uint64_t reg_value(unsigned int reg)
{
	return reg == 7 ? SP0 : reg == 6 ? FP0 : REGS0 + reg * 0x10000;
}

struct row {
	uint64_t start, end;
	int why;
};

struct rows {
	struct row *r;
	size_t n, cap;
};

static void add_row(void *ctx, uint64_t start, uint64_t end, int why)
{
	struct rows *rows = ctx;

	if (rows->n == rows->cap) {
		rows->cap = rows->cap ? 2 * rows->cap : 4096;
		rows->r = realloc(rows->r, rows->cap * sizeof(*rows->r));
		if (!rows->r) {
			perror("realloc");
			exit(1);
		}
	}
	rows->r[rows->n++] = (struct row){ start, end, why };
}

/* The row covering @a, or NULL */
static const struct row *find_row(const struct rows *rows, uint64_t a)
{
	size_t lo = 0, hi = rows->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rows->r[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || a >= rows->r[lo - 1].end)
		return NULL;
	return &rows->r[lo - 1];
}

/* The section as the kernel would see it: at @start in user memory */
struct image {
	uint64_t start;
	const uint8_t *data;
	size_t size;
};

static int image_read(void *ctx, unsigned long addr, void *dst, unsigned int len)
{
	const struct image *im = ctx;

	if (addr < im->start || addr - im->start > im->size ||
	    len > im->size - (addr - im->start))
		return -EFAULT;
	memcpy(dst, im->data + (addr - im->start), len);
	return 0;
}

/* libdwfl's view of the made-up thread: where it is, what it found */
struct thread {
	uint64_t ip;
	int frames;
	uint64_t pc, sp, fp;
	int ok;
};

static struct thread thread;

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return TID;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	(void)dwfl;
	(void)arg;
	*result = mem_word(addr);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct thread *t = arg;
	Dwarf_Word regs[17];
	unsigned int i;

	for (i = 0; i < 16; i++)
		regs[i] = reg_value(i);
	regs[16] = t->ip;
	return dwfl_thread_state_registers(thread, 0, 17, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct thread *t = arg;
	Dwarf_Word sp, fp;
	Dwarf_Addr pc;
	bool act;

	if (t->frames++ == 0)
		return DWARF_CB_OK;
	t->ok = dwfl_frame_pc(frame, &pc, &act) && !dwfl_frame_reg(frame, 7, &sp) &&
		!dwfl_frame_reg(frame, 6, &fp);
	t->pc = pc;
	t->sp = sp;
	t->fp = fp;
	return DWARF_CB_ABORT;
}

static int find_no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			     Dwarf_Addr base, const char *file_name,
			     const char *debuglink_file, GElf_Word debuglink_crc,
			     char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_no_debuginfo,
};

struct counts {
	unsigned long addrs, rules, outermost, none, flex, signal, bad;
};

static void bad(struct counts *c, const char *name, uint64_t a, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void bad(struct counts *c, const char *name, uint64_t a, const char *fmt, ...)
{
	va_list ap;

	if (c->bad++ >= 10)
		return;
	printf("  %s: at %#lx: ", name, (unsigned long)a);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#ifdef SFRAME_RULE_REG
/* A flexible rule's value: a register (made up) or @cfa, + @off, loaded or not */
static uint64_t rule_value(unsigned int rule, int32_t off, uint64_t cfa)
{
	uint64_t v = rule & SFRAME_RULE_REG ? reg_value(SFRAME_RULE_REGNUM(rule)) : cfa;

	v += off;
	return rule & SFRAME_RULE_DEREF ? mem_word(v) : v;
}

/*
 * A V3 signal trampoline (@fde) ends the reader's walk: 0 if its FREs are
 * to be checked (@fr the rule at @ip), 1 if done
 */
static int check_signal(const char *name, const struct image *im,
			const struct sframe_section *sec, const struct sframe_fde *fde,
			const struct row *row, uint64_t ip, uint64_t a,
			struct sframe_frame *fr, struct counts *c)
{
	struct sframe_fre_pos first = { fde->fre_off, 0 };
	struct sframe_fde f = *fde;
	int ret;

	c->signal++;
	if (!fr->outermost)
		bad(c, name, a, "a signal trampoline, not outermost");
	if (!fde->num_fres) {
		if (row && row->why < 0)
			bad(c, name, a, "a signal trampoline without FREs in a row that fits");
		return 1;
	}
	f.signal = false;
	ret = sframe_find_fre(sec, &f, ip, &first, 0, ~0U, fr, image_read, (void *)im);
	if (ret)
		bad(c, name, a, "signal trampoline: sframe_find_fre() returned %d", ret);
	return !!ret;
}
#endif

/* test_sfconv -E: the object's own .sframe */
static int own_section;

/* The object's section .sframe, for the object loaded with @bias: 0, or -ENOENT */
static int own_sframe(Elf *elf, uint64_t bias, struct image *im)
{
	GElf_Shdr sh;
	Elf_Scn *scn = sfconv_section(elf, ".sframe", &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	if (!d || d->d_size != sh.sh_size)
		return -ENOENT;
	im->start = bias + sh.sh_addr;
	im->data = d->d_buf;
	im->size = d->d_size;
	return 0;
}

/* Check one address (a link-time address of the object) */
static void check_addr(const char *name, Dwfl *dwfl, const struct image *im,
		       const struct sframe_section *sec, const struct rows *rows,
		       uint64_t bias, uint64_t a, struct counts *c)
{
	const struct row *row = find_row(rows, a);
	struct thread t = { .ip = bias + a };
	struct sframe_frame fr;
	struct sframe_fde fde;
	uint64_t cfa, ra, fp;
	int ret;

	c->addrs++;
	ret = sframe_lookup(sec, bias + a, ~0U, &fr, &fde, image_read, (void *)im);
#ifdef SFRAME_RULE_REG
	if (!ret && fde.signal &&
	    check_signal(name, im, sec, &fde, row, bias + a, a, &fr, c))
		return;
#endif
	if (ret == -ENOENT) {
		c->none++;
		if (row && row->why < 0)
			bad(c, name, a, "no rule in a row that fits (row start %#lx)",
			    (unsigned long)row->start);
		return;
	}
	if (ret) {
		bad(c, name, a, "sframe_find() returned %d", ret);
		return;
	}
	c->rules++;
	if (!row || row->why >= 0)
		bad(c, name, a, "a rule where the CFI has none that fits (why %d)",
		    row ? row->why : -2);

	/* Each call starts from set_initial_registers() */
	thread = t;
	dwfl_getthread_frames(dwfl, TID, frame_cb, &thread);
	t = thread;
	if (fr.outermost) {
		c->outermost++;
		if (t.frames > 1)
			bad(c, name, a, "outermost, but libdwfl found a caller at %#lx",
			    (unsigned long)t.pc);
		return;
	}
	if (t.frames < 2 || !t.ok) {
		bad(c, name, a, "libdwfl found no caller (%d frames, %s)", t.frames,
		    dwfl_errmsg(-1));
		return;
	}
	cfa = (fr.use_fp ? FP0 : SP0) + fr.cfa_off;
	ra = mem_word(cfa + fr.ra_off);
	fp = fr.fp_off ? mem_word(cfa + fr.fp_off) : FP0;
#ifdef SFRAME_RULE_REG
	if (fr.flex) {
		c->flex++;
		cfa = rule_value(fr.cfa_rule, fr.cfa_off, 0);
		ra = rule_value(fr.ra_rule, fr.ra_off, cfa);
		fp = fr.fp_rule ? rule_value(fr.fp_rule, fr.fp_off, cfa) : FP0;
	}
#endif
	if (t.pc != ra)
		bad(c, name, a, "return address %#lx, libdwfl %#lx",
		    (unsigned long)ra, (unsigned long)t.pc);
	else if (t.sp != cfa)
		bad(c, name, a, "CFA %#lx, libdwfl %#lx", (unsigned long)cfa,
		    (unsigned long)t.sp);
	else if (t.fp != fp)
		bad(c, name, a, "FP %#lx, libdwfl %#lx", (unsigned long)fp,
		    (unsigned long)t.fp);
}

/*
 * Test one object: @elf (for libdwfl: @file, or the image at @mem of
 * @memsize bytes). Returns 0 if everything holds.
 */
static int test_object(const char *name, Elf *elf, const char *file,
		       const void *mem, size_t memsize, const struct sfconv_opts *opts,
		       double min, unsigned int step)
{
	struct sfconv_opts o = *opts;
	struct sfconv_stats st;
	struct rows rows = { 0 };
	struct counts c = { 0 };
	struct sframe_section sec;
	uint64_t vaddr, size, bias, dist, a;
	Elf64_Ehdr *ehdr;
	struct image im;
	Dwfl_Module *mod;
	size_t sfsize, i;
	double share;
	void *sframe;
	Dwfl *dwfl;
	int ret, fail = 0;

	/*
	 * Loaded at a made-up address (an executable where it is linked: libdwfl
	 * takes no bias for it), the section 64 GiB below the code, or above it
	 * (starts relative to the text: anywhere; PC-relative v2 starts: 256 MiB)
	 */
	ehdr = elf64_getehdr(elf);
	bias = ehdr && ehdr->e_type == ET_EXEC ? 0 : 0x7f3400000000ULL;
	ret = sfconv_text_range(elf, &vaddr, &size);
	o.pcrel |= own_section;
	dist = o.pcrel && o.version == 2 ? 256ULL << 20 : 64ULL << 30;
	o.sframe_vaddr = bias || vaddr > dist ? vaddr - dist : vaddr + size + dist;
	if (!ret)
		ret = sfconv_convert(elf, vaddr, size, &o, &sframe, &sfsize, &st, add_row, &rows);
	if (ret || !sfsize) {
		printf("FAIL %s: conversion: %s\n", name, ret ? strerror(-ret) : "empty");
		return 1;
	}
	share = 100.0 * st.full / st.fdes;
	printf("%s: v%d%s: %u of %u FDEs converted whole (%.1f%%), %u in part; %u SFrame FDEs (%u flexible, %u signal), %u FREs, %zu bytes\n",
	       name, o.version, o.pcrel ? " PC-relative" : "", st.full, st.fdes, share,
	       st.partial, st.sframe_fdes, st.flex_fdes, st.signal_fdes, st.sframe_fres, sfsize);

	im.start = bias + o.sframe_vaddr;
	im.data = sframe;
	im.size = sfsize;
	if (own_section && own_sframe(elf, bias, &im)) {
		printf("FAIL %s: no section .sframe\n", name);
		return 1;
	}
	ret = sframe_section_init(&sec, im.start, im.start + im.size, bias + vaddr,
				  bias + vaddr + size, image_read, &im);
#ifdef SFRAME_SEC_TEXT_RELATIVE
	if (!ret && !o.pcrel)
		ret = sframe_section_text_relative(&sec);
#endif
	if (!ret)
		ret = sframe_section_validate(&sec, ~0U, image_read, &im);
	if (ret) {
		printf("FAIL %s: the kernel's reader rejects the section: %d\n", name, ret);
		return 1;
	}

	dwfl = dwfl_begin(&dwfl_callbacks);
	dwfl_report_begin(dwfl);
	if (file) {
		mod = dwfl_report_elf(dwfl, name, file, -1, bias, false);
	} else {
		/* dwfl_report_elf() takes a file: copy the image into one */
		char tmp[] = "/tmp/test_sfconv.XXXXXX";
		int fd = mkstemp(tmp);

		mod = NULL;
		if (fd >= 0 && write(fd, mem, memsize) == (ssize_t)memsize)
			mod = dwfl_report_elf(dwfl, name, tmp, fd, bias, false);
		unlink(tmp);
	}
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod || !dwfl_attach_state(dwfl, NULL, TID, &thread_callbacks, &thread)) {
		printf("FAIL %s: libdwfl: %s\n", name, dwfl_errmsg(-1));
		return 1;
	}

	for (i = 0; i < rows.n; i++) {
		check_addr(name, dwfl, &im, &sec, &rows, bias, rows.r[i].start, &c);
		check_addr(name, dwfl, &im, &sec, &rows, bias, rows.r[i].end - 1, &c);
	}
	for (a = vaddr; a < vaddr + size; a += step)
		check_addr(name, dwfl, &im, &sec, &rows, bias, a, &c);
	printf("%s: %lu addresses: %lu with a rule (%lu outermost, %lu flexible, %lu in signal trampolines), %lu without, %lu wrong\n",
	       name, c.addrs, c.rules, c.outermost, c.flex, c.signal, c.none, c.bad);
	if (c.bad) {
		printf("FAIL %s: rules that differ from libdw's\n", name);
		fail = 1;
	} else if (share < min) {
		printf("FAIL %s: %.1f%% of the FDEs converted, expected at least %.1f%%\n",
		       name, share, min);
		fail = 1;
	} else {
		printf("PASS %s\n", name);
	}
	dwfl_end(dwfl);
	free(rows.r);
	free(sframe);
	return fail;
}

/* This process's vDSO, read from memory */
static int test_vdso(const struct sfconv_opts *opts, double min, unsigned int step)
{
	const void *vdso = (const void *)getauxval(AT_SYSINFO_EHDR);
	size_t size = vdso ? sfconv_elf_image_size(vdso) : 0;
	Elf *elf = size ? elf_memory((char *)vdso, size) : NULL;
	int fail;

	if (!elf) {
		printf("FAIL vdso: no vDSO image\n");
		return 1;
	}
	fail = test_object("vdso", elf, NULL, vdso, size, opts, min, step);
	elf_end(elf);
	return fail;
}

static int test_file(const char *path, const struct sfconv_opts *opts, double min,
		     unsigned int step)
{
	int fd = open(path, O_RDONLY), fail;
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);

	if (!elf) {
		printf("FAIL %s: cannot read it\n", path);
		return 1;
	}
	fail = test_object(path, elf, path, NULL, 0, opts, min, step);
	elf_end(elf);
	close(fd);
	return fail;
}

int main(int argc, char **argv)
{
	struct sfconv_opts opts = { .version = 3 };
	int i, opt, vdso = 0, fail = 0;
	unsigned int step = 13;
	double min = 90;

	while ((opt = getopt(argc, argv, "2pEF:m:s:v")) != -1) {
		if (opt == '2')
			opts.version = 2;
		else if (opt == 'E')
			own_section = 1;
		else if (opt == 'F')
			sfconv_max_fres = atoi(optarg);
		else if (opt == 'p')
			opts.pcrel = true;
		else if (opt == 'v')
			vdso = 1;
		else if (opt == 'm')
			min = atof(optarg);
		else if (opt == 's')
			step = atoi(optarg);
		else
			return 2;
	}
	if (!step)
		step = 1;
#ifndef SFRAME_SEC_TEXT_RELATIVE
	opts.pcrel = true;
#endif
#ifndef SFRAME_RULE_REG
	if (opts.version == 3) {
		printf("FAIL: the reader has no SFrame V3 flexible FDEs (use -2)\n");
		return 1;
	}
#endif
	elf_version(EV_CURRENT);
	for (i = optind; i < argc; i++)
		fail |= test_file(argv[i], &opts, min, step);
	if (vdso)
		fail |= test_vdso(&opts, min, step);
	printf("%s\n", fail ? "FAIL" : "all passed");
	return fail;
}
