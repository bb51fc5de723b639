// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_register(), through the deferred unwinder's test interface:
 *  - bad arguments and bad sections get their error codes;
 *  - a section converted from the .eh_frame of libsfrlib.so (no SFrame, no
 *    frame pointers) gives the exact chain sfr_req sfr_outer sfr_run
 *    expect_chain main,
 *    and replaces what the unwinder had learnt about the library without it;
 *  - in the converted library, an address without a rule (sfr_nocfi,
 *    assembly without CFI but with a frame pointer) ends the walk: no
 *    frame-pointer guess;
 *  - a section corrupted after registration ends the walk at the library;
 *  - function starts are relative to the text (SFRAME_SETUP_TEXT_RELATIVE):
 *    without the flag the section is refused, with PC-relative starts too,
 *    and a copy of it far from the code gives the same chain;
 *  - dlclose() drops the registration, which can be made again for the
 *    library mapped anew;
 *  - registrations count against the registry's limit (ENOSPC) and go with
 *    their mappings.
 * Prints PASS/FAIL lines; exits 0 if all passed, 4 without the test
 * interface.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "sfconv.h"
#include "../util.h"

#define FN __attribute__((noipa))
#define MAX_SHOWN 16

static int ctl;
static long (*outer)(int, const char *, int);

static long entries(void)
{
	struct udt_state s;

	udt_read_state(ctl, &s);
	return s.entries;
}

FN long sfr_run(int nocfi)
{
	long ret = outer(ctl, "request 1 1", nocfi);

	barrier();
	return ret + 1;
}

/*
 * Unwind sfr_run's chain (through sfr_nocfi if @nocfi); check that the trace
 * is exactly the @n functions of @want, then ends if @ends.
 */
FN void expect_chain(const char *what, int nocfi, const char *const *want,
		     unsigned long n, int ends)
{
	char got[512] = "";
	struct udt_state s;
	unsigned long i;
	int ok;

	sfr_run(nocfi);
	udt_read_state(ctl, &s);
	for (i = 0; i < s.t[0].nr && i < MAX_SHOWN; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), " %s", sym(s.t[0].ips[i]));
	ok = s.t[0].nr >= n && (!ends || s.t[0].nr == n);
	for (i = 0; ok && i < n; i++)
		ok = !strcmp(sym(s.t[0].ips[i]), want[i]);
	check(ok, "%s:%s", what, got);
}

static const char *const chain[] = {
	"sfr_req", "sfr_outer", "sfr_run", "expect_chain", "main"
};
static const char *const nocfi_chain[] = { "sfr_req", "sfr_nocfi" };

static int reg(const void *args, unsigned long size)
{
	return syscall(__NR_sframe_register, args, size) ? errno : 0;
}

/* The error codes of bad arguments and bad sections */
static void test_errors(const struct sfconv_loaded *l)
{
	struct sframe_setup good = {
		.sframe_start = (uint64_t)l->sframe, .sframe_size = l->sframe_size,
		.text_start = l->text_start, .text_size = l->text_size,
		.flags = SFRAME_SETUP_TEXT_RELATIVE,
	}, a;
	unsigned char big[sizeof(good) + 8];
	struct sframe_setup *low;
	void *gone, *copy;
	long ret;

	a = good;
	a.flags = 2;
	check(reg(&a, sizeof(a)) == EINVAL, "unknown flag: EINVAL");
	a = good;
	a.flags = 0;
	check(reg(&a, sizeof(a)) == EINVAL,
	      "without SFRAME_SETUP_TEXT_RELATIVE (functions outside the code): EINVAL");
	memcpy(big, &good, sizeof(good));
	memset(big + sizeof(good), 0, 8);
	check(reg(big, sizeof(big)) == EINVAL, "struct size of no known version: EINVAL");
	check(reg(&good, SFRAME_SETUP_SIZE_VER0) == EINVAL,
	      "version 0 (no flags: functions outside the code): EINVAL");
	check(reg((void *)8, sizeof(good)) == EFAULT, "struct not readable: EFAULT");
	a = good;
	a.sframe_size = (16 << 20) + 1;
	check(reg(&a, sizeof(a)) == EFBIG, "section over 16 MiB: EFBIG");
	a = good;
	a.text_size = 0;
	check(reg(&a, sizeof(a)) == EINVAL, "no code: EINVAL");
	a = good;
	a.text_start = -4096UL;
	a.text_size = 8192;
	check(reg(&a, sizeof(a)) == EINVAL, "code range wraps: EINVAL");

	gone = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, 4096);
	a = good;
	a.sframe_start = (uint64_t)gone;
	a.sframe_size = 4096;
	check(reg(&a, sizeof(a)) == EFAULT, "section not mapped: EFAULT");

	copy = malloc(l->sframe_size);
	memcpy(copy, l->sframe, l->sframe_size);
	((unsigned char *)copy)[0] ^= 0xff;
	a = good;
	a.sframe_start = (uint64_t)copy;
	check(reg(&a, sizeof(a)) == EINVAL, "bad magic: EINVAL");
	memcpy(copy, l->sframe, l->sframe_size);
	((unsigned char *)copy)[3] |= 0x4;	/* SFRAME_F_FDE_FUNC_START_PCREL */
	check(reg(&a, sizeof(a)) == EINVAL, "SFRAME_SETUP_TEXT_RELATIVE with PC-relative starts: EINVAL");
	free(copy);

	a = good;
	a.text_size = 16;
	check(reg(&a, sizeof(a)) == EINVAL, "functions outside the code range: EINVAL");
	a = good;
	a.text_start = (uint64_t)l->sframe;
	a.text_size = 4096;
	check(reg(&a, sizeof(a)) == EINVAL, "code not executable: EINVAL");

	/* A compat (int $0x80) call: i386's number 473, the struct below 4 GiB */
	low = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		   -1, 0);
	*low = good;
	asm volatile("int $0x80" : "=a"(ret) : "a"(473L), "b"((long)low),
		     "c"((long)sizeof(good)) : "memory");
	check(ret == -EOPNOTSUPP, "compat system call: EOPNOTSUPP (got %ld)", ret);
	munmap(low, 4096);
}

/* dlopen libsfrlib.so from this program's directory, convert its .eh_frame */
static void *open_lib(struct sfconv_loaded *l)
{
	char path[PATH_MAX], *slash;
	struct link_map *map;
	ssize_t len;
	void *h;
	Elf *elf;
	int fd;

	/* readlink() does not terminate the name */
	len = readlink("/proc/self/exe", path, sizeof(path) - 32);
	if (len < 0)
		return NULL;
	path[len] = 0;
	slash = strrchr(path, '/');
	if (!slash)
		return NULL;
	path[slash - path + 1] = 0;
	strcat(path, "libsfrlib.so");
	h = dlopen(path, RTLD_NOW);
	if (!h || dlinfo(h, RTLD_DI_LINKMAP, &map))
		return NULL;
	outer = (long (*)(int, const char *, int))dlsym(h, "sfr_outer");
	fd = open(path, O_RDONLY);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!outer || !elf || sfconv_load(elf, fd, map->l_addr, NULL, l) || !l->sframe_size)
		return NULL;
	elf_end(elf);
	close(fd);
	return h;
}

/* A minimal section for the 16 bytes at @text, at @sec: CFA = SP + 8 */
static void tiny_section(unsigned char *sec, const unsigned char *text)
{
	static const unsigned char hdr[28] = {
		0xe2, 0xde, 2, 1, 3, 0, (unsigned char)-8, 0,
		1, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0,
	};
	int32_t start = text - sec;
	uint32_t size = 16;

	memcpy(sec, hdr, sizeof(hdr));
	memset(sec + 28, 0, 20);
	memcpy(sec + 28, &start, 4);
	memcpy(sec + 32, &size, 4);
	sec[48] = 0;		/* FRE start */
	sec[49] = 1 | 1 << 1;	/* SP, one 1-byte offset */
	sec[50] = 8;
}

/* Register tiny sections for executable pages until the registry is full */
static void test_limit(void)
{
	enum { MAX_PAGES = 4096 };
	static unsigned char *pages[MAX_PAGES];
	long before = entries(), full;
	int i, n, ret = 0;

	for (n = 0; n < MAX_PAGES; n++) {
		struct sframe_setup a;

		pages[n] = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
		tiny_section(pages[n] + 64, pages[n]);
		mprotect(pages[n], 4096, PROT_READ | PROT_EXEC);
		a = (struct sframe_setup){ .sframe_start = (uint64_t)pages[n] + 64, .sframe_size = 51,
					   .text_start = (uint64_t)pages[n], .text_size = 16 };
		ret = reg(&a, sizeof(a));
		if (ret)
			break;
	}
	full = entries();
	check(ret == ENOSPC && n > 0, "%d registrations, then %s", n, strerror(ret));
	for (i = 0; i <= n && i < MAX_PAGES; i++)
		munmap(pages[i], 4096);
	check(entries() == before, "registry entries %ld -> %ld -> %ld after munmap", before,
	      full, entries());
}

int main(void)
{
	struct sfconv_loaded l;
	struct udt_state s;
	long e0, e1;
	void *h, *far;
	uint32_t i;

	check_verbose = 1;	/* PASS lines too */
	ctl = udt_open();
	if (write(ctl, "init 0", 6) < 0 && errno != EBUSY && errno != EEXIST)
		perror("init 0");
	elf_version(EV_CURRENT);
	h = open_lib(&l);
	if (!h) {
		printf("FAIL: cannot open and convert libsfrlib.so: %s\n", dlerror());
		return 1;
	}

	/*
	 * Unwound without a section: the library's .eh_frame describes sfr_req,
	 * whose caller is sfr_nocfi, which it does not describe: frame pointers
	 * go on from there to sfr_outer; with the section, the walk must end at
	 * sfr_nocfi
	 */
	sfr_run(1);
	udt_read_state(ctl, &s);
	check(s.t[0].nr >= 3 && !strcmp(sym(s.t[0].ips[1]), "sfr_nocfi") &&
	      !strcmp(sym(s.t[0].ips[2]), "sfr_outer"),
	      "without a section, .eh_frame, then frame pointers: %s %s",
	      s.t[0].nr >= 2 ? sym(s.t[0].ips[1]) : "-", s.t[0].nr >= 3 ? sym(s.t[0].ips[2]) : "-");
	test_errors(&l);
	/*
	 * The count is of every mm's entries: another process's may go
	 * meanwhile (one ending), none comes (nothing else starts). An entry
	 * added instead of the replaced one would make it grow.
	 */
	e0 = entries();
	check(reg(&(struct sframe_setup){ .sframe_start = (uint64_t)l.sframe,
					   .sframe_size = l.sframe_size, .text_start = l.text_start,
					   .text_size = l.text_size, .flags = SFRAME_SETUP_TEXT_RELATIVE },
		  sizeof(struct sframe_setup)) == 0,
	      "register");
	e1 = entries();
	check(e1 <= e0, "the entry for the library without SFrame replaced: %ld -> %ld", e0, e1);
	check(sfconv_register(&l) == -EEXIST, "register again: EEXIST");
	expect_chain("exact chain", 0, chain, 5, 0);
	expect_chain("ends at the address without a rule", 1, nocfi_chain, 2, 1);

	/*
	 * Corrupt every FDE's FRE type: the walk ends in the library. Rules
	 * found before stay in the hot address cache (and are right): empty it
	 * so that the section is read again.
	 */
	mprotect(l.map, l.map_len, PROT_READ | PROT_WRITE);
	for (i = 0; i < *(uint32_t *)((char *)l.sframe + 8); i++)
		((unsigned char *)l.sframe)[28 + 20 * i + 16] = 0x0f;
	check(write(ctl, "sframe flush", 12) == 12, "sframe flush");
	expect_chain("corrupt section ends the walk", 0, chain, 1, 1);

	e1 = entries();
	dlclose(h);
	sfconv_unload(&l);
	check(entries() == e1 - 1, "dlclose drops the registration: %ld -> %ld", e1, entries());
	/*
	 * The same bytes anywhere: a copy 64 GiB below the library mapped anew
	 * (function starts relative to the text, SFRAME_SETUP_TEXT_RELATIVE;
	 * above, it could be past the end of the address space)
	 */
	h = open_lib(&l);
	far = mmap((char *)(l.text_start & ~4095UL) - (64UL << 30), l.sframe_size,
		   PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	check(h && far != MAP_FAILED, "library mapped again, a copy of its section 64 GiB away");
	if (h && far != MAP_FAILED) {
		memcpy(far, l.sframe, l.sframe_size);
		check(reg(&(struct sframe_setup){ .sframe_start = (uint64_t)far,
						   .sframe_size = l.sframe_size, .text_start = l.text_start,
						   .text_size = l.text_size, .flags = SFRAME_SETUP_TEXT_RELATIVE },
			  sizeof(struct sframe_setup)) == 0, "register the copy");
		expect_chain("exact chain from the copy", 0, chain, 5, 0);
		munmap(far, l.sframe_size);
	}
	dlclose(h);
	sfconv_unload(&l);

	test_limit();
	printf("%s\n", failures ? "FAIL" : "all passed");
	return failures ? 1 : 0;
}
