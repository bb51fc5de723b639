// SPDX-License-Identifier: GPL-2.0
/*
 * A known call chain in code that has neither frame pointers nor SFrame,
 * only the .eh_frame (and .eh_frame_hdr, PT_GNU_EH_FRAME) gcc and ld emit by
 * default: ehchain, libeh1.so (linked) and libeh2.so (dlopened from the
 * program's directory) are built -O2 -fomit-frame-pointer without
 * -Wa,--gsframe, and nothing registers or attaches anything. The chain,
 * innermost first:
 *   eh_leaf (program, spins in user space) <- eh1_rec x DEPTH+1 (libeh1.so,
 *   recursion) <- ehdl_c (libeh2.so, dlopened) <- eh_cb (program, a
 *   callback) <- eh1_b (libeh1.so) <- eh_a (program) <- main
 *   <- __libc_start_call_main <- __libc_start_main <- _start
 * The frames differ in shape: callee-saved registers pushed (eh1_b), small
 * (eh1_rec), 2 KB (ehdl_c) and 8 KB (eh_a) of locals, so that only the CFI
 * of each address finds the caller.
 *
 * Usage: ehchain spin MS [DEPTH [SPIN]]
 *          run the chain for MS milliseconds, the leaf spinning SPIN
 *          iterations (default 200000) per call, with a getppid() system
 *          call (inline, from eh_leaf itself) every 65536; the recursion
 *          DEPTH (default 24) + 1 frames deep
 *        ehchain chain [DEPTH]
 *          the chain once
 *        ehchain quiet MS
 *          as spin, without the backtrace() of the first call and its
 *          output (the fuzz of the objects' .eh_frame: libgcc reads it)
 * Both print, from the first call of the leaf, the real chain as libgcc's
 * DWARF unwinder (backtrace()) finds it, each frame with the function it is
 * in (checked with dladdr()):
 *   expect: eh_leaf eh1_rec=0xRA ... main=0xRA __libc_start_call_main=0xRA
 *           __libc_start_main=0xRA _start=0xRA
 * eh_leaf: the sampled instruction, anywhere in the leaf; NAME=0xRA: a
 * return address, in function NAME. Exits 0, or 1 with "FAIL: why".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "../util.h"

/* Not inlined, not cloned, every call a call (the chain stays the source's) */
#define FN __attribute__((noipa))
#define MAX_FRAMES 256

long eh1_b(long (*cb)(long), long x);

static long (*dl_c)(long (*)(long), long, long);
static long depth = 24, spin = 200000;
static int printed;

static void die(const char *what)
{
	printf("FAIL: %s\n", what);
	exit(1);
}

/* The name of the function @ip is in, as the dynamic symbols have it, or "?" */
static const char *name_of(void *ip)
{
	Dl_info info;

	if (!dladdr(ip, &info) || !info.dli_sname)
		return "?";
	return info.dli_sname;
}

/*
 * Called by the leaf: its callers' return addresses from backtrace() (ips[0]
 * is into this function, ips[1] into eh_leaf), named by where the chain says
 * they are, each checked with dladdr() where the dynamic symbols name it
 */
FN void print_expect(void)
{
	static void *ips[MAX_FRAMES];
	static const char *names[MAX_FRAMES];
	static const char *const mid[] = { "ehdl_c", "eh_cb", "eh1_b", "eh_a", "main",
		"__libc_start_call_main", "__libc_start_main", "_start" };
	int n = backtrace(ips, MAX_FRAMES), nn = 0, i;
	char msg[512];

	for (i = 0; i <= depth; i++)
		names[nn++] = "eh1_rec";
	for (i = 0; i < (int)(sizeof(mid) / sizeof(mid[0])); i++)
		names[nn++] = mid[i];
	if (n != nn + 2) {
		snprintf(msg, sizeof(msg), "backtrace() found %d frames, the chain has %d", n, nn + 2);
		die(msg);
	}
	for (i = 0; i < nn; i++) {
		const char *got = name_of(ips[i + 2]);

		/* __libc_start_call_main is not a dynamic symbol */
		if (!strcmp(names[i], "__libc_start_call_main"))
			continue;
		if (strcmp(got, names[i])) {
			snprintf(msg, sizeof(msg), "frame %d at %p is in %s, not %s", i + 2, ips[i + 2],
				 got, names[i]);
			die(msg);
		}
	}
	printf("expect: eh_leaf");
	for (i = 0; i < nn; i++)
		printf(" %s=%p", names[i], ips[i + 2]);
	printf("\n");
	fflush(stdout);
}

/* The leaf: spins in user space, now and then a system call from right here */
FN long eh_leaf(long x)
{
	volatile long acc[8];
	long i;

	if (!printed) {
		printed = 1;
		print_expect();
	}
	acc[0] = x;
	for (i = 1; i < 8; i++)
		acc[i] = i;
	for (i = 0; i < spin; i++) {
		acc[i & 7] = acc[(i + 1) & 7] * 33 + i;
		if (!(i & 0xffff))
			raw_syscall3(SYS_getppid, 0, 0, 0);
	}
	barrier();
	return acc[3] + x;
}

FN long eh_cb(long x)
{
	long ret = dl_c(eh_leaf, depth, x + 1);

	barrier();
	return ret + 1;
}

FN long eh_a(long x)
{
	volatile char buf[8192];
	long ret;

	buf[0] = (char)x;
	ret = eh1_b(eh_cb, x + 1);
	barrier();
	return ret + buf[0];
}

FN void open_dl(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], *slash;
	ssize_t len = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	void *h;

	if (len < 0)
		die("readlink /proc/self/exe");
	dir[len] = 0;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	snprintf(path, sizeof(path), "%s/libeh2.so", dir);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("FAIL: dlopen %s: %s\n", path, dlerror());
		exit(1);
	}
	dl_c = (long (*)(long (*)(long), long, long))dlsym(h, "ehdl_c");
	if (!dl_c)
		die("no ehdl_c in libeh2.so");
}

FN long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Set from the command line; globals, so that main keeps no value in registers */
static long run_ms, start_ms, calls, result;

FN void parse_args(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "chain";

	if (!strcmp(mode, "quiet")) {
		if (argc < 3)
			die("usage: ehchain quiet MS");
		run_ms = atol(argv[2]);
		printed = 1;
	} else if (!strcmp(mode, "spin")) {
		if (argc < 3)
			die("usage: ehchain spin MS [DEPTH [SPIN]]");
		run_ms = atol(argv[2]);
		if (argc > 3)
			depth = atol(argv[3]);
		if (argc > 4)
			spin = atol(argv[4]);
	} else if (!strcmp(mode, "chain")) {
		if (argc > 2)
			depth = atol(argv[2]);
		spin = 1;
	} else {
		die("usage: ehchain spin MS [DEPTH [SPIN]] | chain [DEPTH] | quiet MS");
	}
	if (depth < 0 || depth > MAX_FRAMES - 16 || spin < 1)
		die("DEPTH out of 0..240 or SPIN < 1");
}

FN void report(void)
{
	printf("ok: %ld calls (%ld)\n", calls, result & 1);
}

/* In the chain: no callee-saved register to save (no push %rbp, for one) */
int main(int argc, char **argv)
{
	parse_args(argc, argv);
	open_dl();
	start_ms = now_ms();
	/* One call site of eh_a: the same return address into main every time */
	do {
		result += eh_a(calls);
		calls++;
	} while (now_ms() - start_ms < run_ms);
	report();
	return 0;
}
