// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame unwinding through the deferred unwinder's test interface.
 *
 * Built without frame pointers and with SFrame (gcc -Wa,--gsframe), linked
 * with libsf1.so, and dlopening libsf2.so or libsf3.so from its own
 * directory. The known chain, innermost first:
 *   sf_leaf (exe, issues the request with a raw syscall) <- sfdl_c
 *   (dlopened library) <- sf_cb (exe, a callback) <- sf1_b (libsf1.so)
 *   <- sf_a (exe) <- main
 *
 * Usage: sfchain chain [N]    the exact chain, N times (default 2)
 *        sfchain spin N       run the chain N times, each leaf spinning ~100 us
 *                             in the kernel: a workload for perf record
 *        sfchain control      the chain is NOT found (built without .sframe)
 *        sfchain survive      corrupt .sframe: the process works, the trace
 *                             starts at sf_leaf
 *        sfchain lazy         the program's registry exists from exec, but its
 *                             hot address cache only from its first unwind
 *                             (the test interface's counts, before and after
 *                             the chain); prints the bytes of each
 *        sfchain dlloop N     dlclose/dlopen libsf2.so and libsf3.so in turn
 *                             N times, at changing addresses: the exact chain
 *                             every time, and no registry entries or slab
 *                             memory left behind (no slab check with
 *                             SF_NO_SLAB_CHECK=reason in the environment)
 * Exits 0 when the claim holds, 1 otherwise; the last line says why.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "../util.h"

#define FN __attribute__((noipa))

int sf1_b(int (*cb)(int), int x);

static const char *const want[] = { "sf_leaf", "sfdl_c", "sf_cb", "sf1_b", "sf_a", "main" };
#define NWANT (sizeof(want) / sizeof(want[0]))

static int ctl = -1;
static const char *request = "request 1 1";
static int (*dl_c)(int (*)(int), int);

FN int sf_leaf(int x)
{
	long ret = raw_syscall3(SYS_write, ctl, (long)request, strlen(request));

	barrier();
	return x + (ret > 0);
}

FN int sf_cb(int x)
{
	int ret = dl_c(sf_leaf, x + 1);

	barrier();
	return ret + 1;
}

FN int sf_a(int x)
{
	int ret = sf1_b(sf_cb, x + 1);

	barrier();
	return ret + 1;
}

static void die(const char *what)
{
	printf("FAIL: %s\n", what);
	exit(1);
}

static void ctl_cmd(const char *cmd)
{
	if (write(ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) &&
	    strncmp(cmd, "init", 4))
		die(cmd);
}

/* The last callback of tracer 0 (its first frames: nips), the registry entries of all mms */
static void read_state(struct udt_state *s)
{
	if (udt_read_state(ctl, s))
		die("cannot read " UDT_CTL);
}

static void print_trace(const char *tag, const struct udt_tracer *t)
{
	unsigned long i;

	printf("%s: %lu frames:", tag, t->nips);
	for (i = 0; i < t->nips && i < NWANT + 2; i++)
		printf(" %s", sym(t->ips[i]));
	printf("\n");
}

/* Does the trace start with exactly the known chain? */
static int full_chain(const struct udt_tracer *t)
{
	unsigned int i;

	if (t->nips < NWANT)
		return 0;
	for (i = 0; i < NWANT; i++)
		if (strcmp(sym(t->ips[i]), want[i]))
			return 0;
	return 1;
}

static char dir[PATH_MAX];
static void *dl_handle;

static void dl_open(const char *name)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	dl_handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl_handle) {
		printf("FAIL: dlopen %s: %s\n", path, dlerror());
		exit(1);
	}
	dl_c = (int (*)(int (*)(int), int))dlsym(dl_handle, "sfdl_c");
	if (!dl_c)
		die("no sfdl_c");
}

static void dl_close(void)
{
	if (dl_handle && dlclose(dl_handle))
		die("dlclose");
	dl_handle = NULL;
}

static unsigned long dl_base(void)
{
	Dl_info info;

	if (!dladdr((void *)dl_c, &info))
		die("dladdr");
	return (unsigned long)info.dli_fbase;
}

/* Slab memory in kB, from /proc/meminfo */
static long slab_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* dlloop state: where the libraries were mapped */
#define MAX_BASES 256
#define MAX_BLOCKERS 32
static unsigned long bases[MAX_BASES], last_base[2];
static unsigned int nr_bases, reuses, mismatches;
static void *blockers[MAX_BLOCKERS];
static size_t blocker_size[MAX_BLOCKERS];
static unsigned int nr_blockers;

static void note_base(unsigned long base, int lib)
{
	unsigned int i;

	if (base == last_base[!lib])
		reuses++;	/* where the other library was last */
	last_base[lib] = base;
	for (i = 0; i < nr_bases; i++)
		if (bases[i] == base)
			return;
	if (nr_bases < MAX_BASES)
		bases[nr_bases++] = base;
}

/* Before iteration @i: map the next library, sometimes somewhere else */
FN void dlloop_before(unsigned int i)
{
	int lib = i & 1;

	dl_close();
	if (i % 5 == 4) {
		/* Take some address space, so the next mapping lands elsewhere */
		if (nr_blockers == MAX_BLOCKERS) {
			while (nr_blockers) {
				nr_blockers--;
				munmap(blockers[nr_blockers], blocker_size[nr_blockers]);
			}
		}
		blocker_size[nr_blockers] = 4096 * (1 + i % 31);
		blockers[nr_blockers] = mmap(NULL, blocker_size[nr_blockers], PROT_NONE,
					     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (blockers[nr_blockers] == MAP_FAILED)
			die("mmap");
		nr_blockers++;
	}
	dl_open(lib ? "libsf3.so" : "libsf2.so");
	note_base(dl_base(), lib);
}

FN void dlloop_after(unsigned int i)
{
	struct udt_state s;

	read_state(&s);
	if (!full_chain(&s.t[0])) {
		if (mismatches++ < 5) {
			printf("iteration %u (%s at %lx): ", i, i & 1 ? "libsf3" : "libsf2", dl_base());
			print_trace("wrong chain", &s.t[0]);
		}
	}
}

/*
 * One round of the loop: the chain through the library of round @i. Inlined,
 * so that sf_a is called from main, as the chain wants.
 */
static inline __attribute__((always_inline)) int dlloop_round(unsigned int i)
{
	int ret;

	dlloop_before(i);
	ret = sf_a(i);
	barrier();
	dlloop_after(i);
	return ret;
}

/* "sframe registries R bytes B hot_caches H bytes C" of the test interface */
static void hot_counts(long *reg, long *reg_bytes, long *hot, long *hot_bytes)
{
	char buf[8192], *line;
	ssize_t n = pread(ctl, buf, sizeof(buf) - 1, 0);

	buf[n > 0 ? n : 0] = 0;
	line = strstr(buf, "\nsframe registries ");
	if (!line || sscanf(line, "\nsframe registries %ld bytes %ld hot_caches %ld bytes %ld",
			    reg, reg_bytes, hot, hot_bytes) != 4)
		die("no 'sframe registries' line in the test interface");
}

static void lazy(void)
{
	long r0, rb, h0, hb, r1, h1;

	hot_counts(&r0, &rb, &h0, &hb);
	sf_a(0);
	hot_counts(&r1, &rb, &h1, &hb);
	printf("registries %ld -> %ld (%ld bytes each), hot address caches %ld -> %ld (%ld bytes each)\n",
	       r0, r1, rb, h0, h1, hb);
	if (r0 < 1 || r1 != r0)
		die("expected this program's registry from its exec on");
	if (h1 != h0 + 1)
		die("expected a hot address cache from the first unwind on, not before");
}

static long entries_now(void)
{
	struct udt_state s;

	read_state(&s);
	return s.entries;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "chain";
	unsigned int i, n = argc > 2 ? atoi(argv[2]) : 2;
	long e0, e1, s0, s1, grow_kb;
	struct udt_state s;
	char *slash;
	int ret = 0;

	if (readlink("/proc/self/exe", dir, sizeof(dir) - 1) < 0)
		die("readlink /proc/self/exe");
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;

	ctl = udt_open();
	ctl_cmd("init 0");
	ctl_cmd("reset");

	if (!strcmp(mode, "dlloop")) {
		/* Warm up: the registry holds the program, libsf1, libc... */
		for (i = 0; i < 4; i++)
			ret += dlloop_round(i);
		dl_close();
		e0 = entries_now();
		s0 = slab_kb();
		for (i = 0; i < n; i++)
			ret += dlloop_round(i);
		dl_close();
		e1 = entries_now();
		/* Freed memory goes back after RCU grace periods: give it 5 s */
		for (i = 0; i < 50; i++) {
			s1 = slab_kb();
			grow_kb = s1 - s0;
			if (grow_kb * 1024 < (long)n * 64)
				break;
			usleep(100000);
		}
		printf("%u iterations: %u distinct library addresses, %u mapped where the other library was, %u wrong chains\n",
		       n, nr_bases, reuses, mismatches);
		printf("registry entries %ld -> %ld, slab %ld kB -> %ld kB\n", e0, e1, s0, s1);
		if (mismatches)
			die("wrong chains after dlclose/dlopen (stale SFrame?)");
		if (nr_bases < 2 || !reuses)
			die("the libraries did not move and reuse addresses: the test proves nothing");
		if (e0 < 0 || e1 != e0)
			die("registry entries left behind");
		/* KASAN keeps freed objects in quarantine, counted as slab */
		if (getenv("SF_NO_SLAB_CHECK"))
			printf("slab check skipped: %s\n", getenv("SF_NO_SLAB_CHECK"));
		else if (grow_kb * 1024 >= (long)n * 64)
			die("slab grew by 64 bytes or more per iteration");
		printf("ok (%d)\n", ret & 1);
		return 0;
	}

	dl_open("libsf2.so");
	if (!strcmp(mode, "lazy")) {
		lazy();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(mode, "spin")) {
		/* for perf: each leaf call spins ~100 us in the kernel for the timer */
		request = "request 1 1 1";
		for (i = 0; i < n; i++)
			ret += sf_a(i);
		printf("ok (%d)\n", ret & 1);
		return 0;
	}
	for (i = 0; i < n; i++) {
		ret += sf_a(i);
		barrier();
		read_state(&s);
		print_trace(mode, &s.t[0]);
		if (!strcmp(mode, "chain") && !full_chain(&s.t[0]))
			die("expected the chain sf_leaf sfdl_c sf_cb sf1_b sf_a main");
		if (!strcmp(mode, "control") && full_chain(&s.t[0]))
			die("the chain was found without SFrame: the chain test proves nothing");
		if (s.t[0].nips < 1 || strcmp(sym(s.t[0].ips[0]), "sf_leaf"))
			die("the trace does not start at sf_leaf");
	}
	printf("registry entries %ld\n", entries_now());
	printf("ok (%d)\n", ret & 1);
	return 0;
}
