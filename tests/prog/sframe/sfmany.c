// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery of objects without usable SFrame runs once per object and
 * mapping: a user stack through NLIBS dlopened libraries (copies of one
 * library, each its own file) and an anonymous executable mapping, unwound
 * three times by the deferred unwinder's test interface.
 *
 * Built with frame pointers. The chain, innermost first:
 *   sfmany_leaf (the request) <- the trampoline (copied into anonymous
 *   executable memory) <- sfhop of library NLIBS - 1 <- ... <- sfhop of
 *   library 0 <- run_chain <- main
 *
 * Usage: sfmany LIB DIR    copy LIB to DIR/hopNNN.so NLIBS times, dlopen
 *                          them, request three unwinds of the chain
 * Prints "discoveries D1 D2 D3 unwinds U requests R nr N good G" and exits 0
 * when the first unwind's frames (the 64 the test interface shows) are the
 * chain, later unwinds discover nothing, and every request was one unwind.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../util.h"

#define NLIBS 300

typedef long (*hop_fn)(void *const *fns, long i);

/*
 * The trampoline, copied to anonymous memory: a frame pointer frame that
 * calls fns[i + 1](fns, i + 1)
 */
asm(".pushsection .text\n"
    ".globl sfmany_tramp, sfmany_tramp_end\n"
    "sfmany_tramp:\n"
    "	push %rbp\n"
    "	mov %rsp, %rbp\n"
    "	mov 8(%rdi,%rsi,8), %rax\n"
    "	inc %rsi\n"
    "	call *%rax\n"
    "	pop %rbp\n"
    "	ret\n"
    "sfmany_tramp_end:\n"
    ".popsection\n");
extern const char sfmany_tramp[], sfmany_tramp_end[];

static int ctl = -1;
static void *fns[NLIBS + 2];
static void *bases[NLIBS + 1];	/* where each library and the trampoline are */

static void die(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	exit(1);
}

NOINLINE long sfmany_leaf(void *const *f, long i)
{
	static const char cmd[] = "request 1 1";
	long ret = raw_syscall3(SYS_write, ctl, (long)cmd, sizeof(cmd) - 1);

	(void)f;
	keep_frame();
	return ret + i;
}

NOINLINE long run_chain(void)
{
	long ret = ((hop_fn)fns[0])(fns, 0);

	barrier();
	return ret;
}

static void read_state(struct udt_state *s)
{
	if (udt_read_state(ctl, s))
		die("read " UDT_CTL);
}

/* Copy @lib to @dir NLIBS times and dlopen the copies */
static void load_libs(const char *lib, const char *dir)
{
	static char data[1 << 20];
	char path[4096];
	ssize_t len;
	Dl_info info;
	int fd, i;

	fd = open(lib, O_RDONLY);
	if (fd < 0 || (len = read(fd, data, sizeof(data))) <= 0 || len == sizeof(data))
		die(lib);
	close(fd);
	for (i = 0; i < NLIBS; i++) {
		void *h;

		snprintf(path, sizeof(path), "%s/hop%03d.so", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
		if (fd < 0 || write(fd, data, len) != len || close(fd))
			die(path);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			printf("FAIL: dlopen %s: %s\n", path, dlerror());
			exit(1);
		}
		fns[i] = dlsym(h, "sfhop");
		if (!fns[i] || !dladdr(fns[i], &info))
			die("dlsym sfhop");
		bases[i] = info.dli_fbase;
	}
}

/* The address of the library or trampoline frame @i of the chain is in */
static int in_object(unsigned long ip, int i)
{
	Dl_info info;

	if (i == NLIBS)
		return ip > (unsigned long)bases[NLIBS] &&
		       ip <= (unsigned long)bases[NLIBS] + (sfmany_tramp_end - sfmany_tramp);
	return dladdr((void *)ip, &info) && info.dli_fbase == bases[i] && info.dli_sname &&
	       !strcmp(info.dli_sname, "sfhop");
}

int main(int argc, char **argv)
{
	long d[4], requests = 3;
	unsigned long u0;
	struct udt_state s, first;
	unsigned long good = 0, i;
	char *tramp;

	if (argc < 3) {
		printf("usage: sfmany LIB DIR\n");
		return 2;
	}
	ctl = udt_open();
	if (write(ctl, "init 0", 6) < 0 && errno != EBUSY)
		die("init 0");
	if (write(ctl, "reset", 5) != 5)
		die("reset");

	load_libs(argv[1], argv[2]);
	tramp = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (tramp == MAP_FAILED)
		die("mmap");
	memcpy(tramp, sfmany_tramp, sfmany_tramp_end - sfmany_tramp);
	if (mprotect(tramp, 4096, PROT_READ | PROT_EXEC))
		die("mprotect");
	bases[NLIBS] = tramp;
	fns[NLIBS] = tramp;
	fns[NLIBS + 1] = (void *)sfmany_leaf;

	read_state(&s);
	d[0] = s.discoveries;
	u0 = s.unwinds;
	for (i = 0; i < (unsigned long)requests; i++) {
		run_chain();
		read_state(&s);
		d[i + 1] = s.discoveries;
		if (!i)
			first = s;
	}

	/* leaf, trampoline, the libraries from the last, as far as shown */
	for (i = 1; i < first.t[0].nr && i < UDT_IPS; i++)
		good += in_object(first.t[0].ips[i], NLIBS + 1 - i);
	printf("discoveries %ld %ld %ld unwinds %lu requests %ld nr %lu good %lu\n",
	       d[1] - d[0], d[2] - d[1], d[3] - d[2], s.unwinds - u0, requests, first.t[0].nr, good);
	if (first.t[0].nr < NLIBS + 3 || good != UDT_IPS - 1) {
		printf("FAIL: the chain through %d libraries and the trampoline was not found\n",
		       NLIBS);
		return 1;
	}
	if (d[1] - d[0] < NLIBS + 1) {
		printf("FAIL: fewer discoveries than objects met (%d libraries, the trampoline)\n",
		       NLIBS);
		return 1;
	}
	if (d[2] != d[1] || d[3] != d[2]) {
		printf("FAIL: discovery ran again for objects met before\n");
		return 1;
	}
	if (s.unwinds - u0 != (unsigned long)requests) {
		printf("FAIL: %lu unwinds for %ld requests\n", s.unwinds - u0, requests);
		return 1;
	}
	printf("ok\n");
	return 0;
}
