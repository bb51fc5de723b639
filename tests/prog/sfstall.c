// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing user space hands to the SFrame code stalls the kernel (64-bit tasks;
 * the -m32 build lists no subtests).
 * Usage: sfstall register-size|validate-fres|discovery-regular
 *        sfstall --list    the subtests tests/run.sh runs (this build's)
 *
 * What could hang runs in a forked child with a watchdog: the parent waits at
 * most WATCHDOG_MS for the child's result, then SIGKILLs it, reports, and waits
 * for it at most STALL_REAP_MS more (a kernel that stalls may keep the child
 * unkillable for minutes: the parent does not wait for that). Exits 0 when every
 * check held, 1 otherwise; the last line says why.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

#ifdef __x86_64__
/* include/uapi/linux/sframe.h */
struct sframe_setup {
	uint64_t sframe_start, sframe_size, text_start, text_size, flags;
};

#ifndef __NR_sframe_register
#define __NR_sframe_register	473
#endif

#ifndef SYS_pidfd_open
#define SYS_pidfd_open		434
#endif

#define WATCHDOG_MS	10000
#define REAP_MS		10000	/* for a killed process to be gone */
#define STALL_REAP_MS	2000	/* how long to wait for one that stalled */
#define SFRAME_MAX	(16UL << 20)	/* the largest section sframe_register() takes */
#define FRE_SIZE	5		/* a 4-byte start and the info byte, no offsets */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* What a child sends: a system call's return value and errno, and what else it saw */
struct outcome {
	long ret;
	int err;
	int seen;
};

static pid_t child_pid;
static int child_pidfd = -1, child_pipe = -1;

/*
 * Fork a child that runs @fn(@wfd, @arg): @fn sends its outcome through @wfd
 * (and may go on; the child exits when it returns).
 */
static void start_child(void (*fn)(int wfd, void *arg), void *arg)
{
	int p[2];

	if (pipe(p)) {
		printf("FAIL: pipe: %s\n", strerror(errno));
		exit(1);
	}
	child_pid = fork();
	if (child_pid < 0) {
		printf("FAIL: fork: %s\n", strerror(errno));
		exit(1);
	}
	if (!child_pid) {
		close(p[0]);
		fn(p[1], arg);
		_exit(0);
	}
	close(p[1]);
	child_pipe = p[0];
	child_pidfd = syscall(SYS_pidfd_open, child_pid, 0);
	if (child_pidfd < 0) {
		printf("FAIL: pidfd_open: %s\n", strerror(errno));
		kill(child_pid, SIGKILL);
		exit(1);
	}
}

static void send_outcome(int wfd, long ret, int err, int seen)
{
	struct outcome o = { ret, err, seen };

	if (write(wfd, &o, sizeof(o)) != sizeof(o))
		_exit(3);
}

/* The child's outcome, if it sends it within @ms: 0, else -1 */
static int child_outcome(struct outcome *o, int ms)
{
	struct pollfd pfd = { .fd = child_pipe, .events = POLLIN };

	if (poll(&pfd, 1, ms) != 1)
		return -1;
	return read(child_pipe, o, sizeof(*o)) == sizeof(*o) ? 0 : -1;
}

/*
 * SIGKILL the child; how many ms it took until it was gone (and reaped), or -1
 * if it was not gone within @ms_max (then it is left to itself). *@status gets
 * its wait status.
 */
static long kill_child(int ms_max, int *status)
{
	struct pollfd pfd = { .fd = child_pidfd, .events = POLLIN };
	long long t0 = now_ms();
	long ms;

	kill(child_pid, SIGKILL);
	if (poll(&pfd, 1, ms_max) != 1)
		return -1;
	waitpid(child_pid, status, 0);
	ms = now_ms() - t0;
	return ms;
}

/* Reap a child that sent its outcome and exits on its own */
static void end_child(void)
{
	int status;

	if (kill_child(REAP_MS, &status) < 0)
		check(0, "child %d did not end within %d ms of SIGKILL", child_pid, REAP_MS);
	close(child_pipe);
	close(child_pidfd);
}

/*
 * Run @fn in a child with the watchdog: its outcome in @o, 0 if it sent one in
 * time; else report @what as stalled, kill the child and return -1.
 */
static int watched(const char *what, void (*fn)(int wfd, void *arg), void *arg,
		   struct outcome *o)
{
	long long t0 = now_ms(), t1;
	int status;
	long ms;

	start_child(fn, arg);
	if (!child_outcome(o, WATCHDOG_MS)) {
		t1 = now_ms();
		printf("%s: returned %ld (%s) after %lld ms\n", what, o->ret,
		       o->ret < 0 ? strerror(o->err) : "ok", t1 - t0);
		end_child();
		return 0;
	}
	ms = kill_child(STALL_REAP_MS, &status);
	if (ms < 0)
		check(0, "%s: no return within %d ms; still there %d ms after SIGKILL (unkillable)",
		      what, WATCHDOG_MS, STALL_REAP_MS);
	else
		check(0, "%s: no return within %d ms (killed, reaped %ld ms after SIGKILL)", what,
		      WATCHDOG_MS, ms);
	return -1;
}

/* @what returned -1 with @err */
static void expect_error(const char *what, const struct outcome *o, int err)
{
	check(o->ret == -1 && o->err == err, "%s: expected -1 (%s), got %ld (%s)", what,
	      strerror(err), o->ret, o->ret < 0 ? strerror(o->err) : "ok");
}

/*
 * sframe_register() with the struct at tib and size *@arg; seen: whether the
 * second page of the mapping (past a struct of at most a page) was read since:
 * a read fault maps the zero page there, which mincore() reports resident.
 */
static char *tib;

static void register_size(int wfd, void *arg)
{
	long ret = syscall(__NR_sframe_register, tib, *(unsigned long *)arg);
	int err = errno;
	unsigned char vec = 0;

	if (mincore(tib + 4096, 4096, &vec))
		vec = 2;
	send_outcome(wfd, ret, err, vec);
}

/*
 * The struct size of sframe_register() names a version of the struct: any
 * other size, a page, a byte more or 1 TiB, is EINVAL at once, without
 * reading past the first page (the prctl this call replaced scanned the
 * tail of a larger struct for a nonzero byte, without rescheduling nor
 * looking at signals: minutes for 1 TiB). The struct lies at the start of
 * a 1 TiB read-only mapping without swap space reserved. One byte at
 * 16 GiB is not zero, so that a kernel that does scan ends there (seconds
 * with KVM, about half a minute with TCG, stuck meanwhile), not after the
 * whole TiB; that it read the tail then shows in the second page, mapped
 * since.
 */
static void test_register_size(void)
{
	static const struct {
		unsigned long size;
		int err;
	} cases[] = {
		{ 4096, EINVAL },
		{ 4097, EINVAL },
		{ 1UL << 40, EINVAL },
	};
	const unsigned long stop = 16UL << 30;
	struct outcome o;
	char what[64];
	unsigned int i;

	tib = mmap(NULL, 1UL << 40, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	check(tib != MAP_FAILED, "mmap of 1 TiB: %s", strerror(errno));
	if (tib == MAP_FAILED)
		return;
	if (mprotect(tib + stop, 4096, PROT_READ | PROT_WRITE)) {
		check(0, "mprotect: %s", strerror(errno));
		return;
	}
	tib[stop] = 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "sframe_register() of size %#lx", cases[i].size);
		if (watched(what, register_size, (void *)&cases[i].size, &o))
			continue;
		expect_error(what, &o, cases[i].err);
		check(!o.seen, "%s: the kernel read past the first page of the struct%s", what,
		      o.seen > 1 ? " (or mincore failed)" : "");
	}
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/*
 * A section (v2, x86-64) of one function of @nfres FREs, one byte apart, each
 * a 4-byte start and an info byte without offsets (the outermost frame), at
 * @sec for the code at @text; returns its size.
 */
static unsigned long make_section(unsigned char *sec, unsigned char *text, unsigned long nfres)
{
	unsigned char *p = sec;
	unsigned long i;

	memset(p, 0, 48);
	p[0] = 0xe2;
	p[1] = 0xde;
	p[2] = 2;		/* version */
	p[3] = 1;		/* FDEs sorted */
	p[4] = 3;		/* x86-64 */
	p[6] = (unsigned char)-8;
	put32(p + 8, 1);	/* FDEs */
	put32(p + 12, nfres);
	put32(p + 16, nfres * FRE_SIZE);
	put32(p + 20, 0);	/* FDE offset */
	put32(p + 24, 20);	/* FRE offset */
	p += 28;
	put32(p, text - sec);	/* the function, from the section */
	put32(p + 4, nfres);	/* its size */
	put32(p + 8, 0);
	put32(p + 12, nfres);
	p[16] = 2;		/* 4-byte FRE starts */
	p += 20;
	for (i = 0; i < nfres; i++, p += FRE_SIZE) {
		put32(p, i);
		p[4] = 0;
	}
	return p - sec;
}

/* A section and its code: 16 MiB of section, 4 MiB of code above it */
struct sframe_area {
	unsigned char *sec, *text;
	struct sframe_setup args;
};

static int map_section(struct sframe_area *a, unsigned long nfres)
{
	a->sec = mmap(NULL, SFRAME_MAX + (4UL << 20), PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a->sec == MAP_FAILED)
		return -1;
	a->text = a->sec + SFRAME_MAX;
	if (mprotect(a->text, 4UL << 20, PROT_READ | PROT_EXEC))
		return -1;
	memset(&a->args, 0, sizeof(a->args));
	a->args.sframe_start = (unsigned long)a->sec;
	a->args.sframe_size = make_section(a->sec, a->text, nfres);
	a->args.text_start = (unsigned long)a->text;
	a->args.text_size = 4UL << 20;
	return 0;
}

static void unmap_section(struct sframe_area *a)
{
	munmap(a->sec, SFRAME_MAX + (4UL << 20));
}

static long register_section(struct sframe_area *a)
{
	return syscall(__NR_sframe_register, &a->args, sizeof(a->args));
}

/* Register the section once, send the outcome */
static void register_once(int wfd, void *arg)
{
	long ret = register_section(arg);

	send_outcome(wfd, ret, errno, 0);
}

/* Register the section again and again (until killed), the first outcome sent */
static void register_loop(int wfd, void *arg)
{
	long ret = register_section(arg);

	send_outcome(wfd, ret, errno, 0);
	for (;;)
		register_section(arg);
}

/* sframe_limits.max_fde_fres, from the test interface (its default without it) */
static unsigned long max_fde_fres(void)
{
	unsigned long max = 1UL << 19;
	char line[512];
	FILE *f = fopen(UDT_CTL, "r");
	char *p;

	while (f && fgets(line, sizeof(line), f)) {
		p = strstr(line, " max_fde_fres ");
		if (!strncmp(line, "sframe discoveries", 18) && p)
			max = strtoul(p + 14, NULL, 10);
	}
	if (f)
		fclose(f);
	return max;
}

/*
 * Whole-section validation at sframe_register() honours the per-function FRE
 * limit of lookups (max_fde_fres): a function of that many FREs is registered,
 * one of a FRE more is refused with EINVAL, and so is one of ~3.3 M FREs (a
 * 16 MiB section), at once; a process registering the latter again and again is
 * gone within REAP_MS of SIGKILL (validation looks at signals within a
 * function's FREs, not only between functions).
 */
static void test_validate_fres(void)
{
	unsigned long max = max_fde_fres(), huge = (SFRAME_MAX - 48) / FRE_SIZE;
	struct {
		unsigned long nfres;
		int err;	/* 0: registered */
	} cases[] = {
		{ max, 0 },
		{ max + 1, EINVAL },
		{ huge, EINVAL },
	};
	struct sframe_area a;
	struct outcome o;
	char what[96];
	unsigned int i;
	int status;
	long ms;

	printf("max_fde_fres %lu\n", max);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (map_section(&a, cases[i].nfres)) {
			check(0, "mmap: %s", strerror(errno));
			return;
		}
		snprintf(what, sizeof(what), "a function of %lu FREs (section of %llu bytes)",
			 cases[i].nfres, (unsigned long long)a.args.sframe_size);
		if (!watched(what, register_once, &a, &o)) {
			if (cases[i].err)
				expect_error(what, &o, cases[i].err);
			else
				check(o.ret == 0, "%s: expected 0, got %ld (%s)", what, o.ret,
				      strerror(o.err));
		}
		unmap_section(&a);
	}

	if (map_section(&a, huge)) {
		check(0, "mmap: %s", strerror(errno));
		return;
	}
	snprintf(what, sizeof(what), "registering %lu FREs in a loop", huge);
	start_child(register_loop, &a);
	if (child_outcome(&o, WATCHDOG_MS))
		check(0, "%s: the first registration did not return within %d ms", what,
		      WATCHDOG_MS);
	/* half a second into the loop: the child is in a registration or between two */
	poll(NULL, 0, 500);
	ms = kill_child(REAP_MS, &status);
	printf("%s: %s %ld ms after SIGKILL\n", what, ms < 0 ? "still there" : "reaped", ms);
	check(ms >= 0, "%s: not gone within %d ms of SIGKILL", what, REAP_MS);
	check(ms < 0 || (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL),
	      "%s: status %#x, expected killed by SIGKILL", what, status);
	unmap_section(&a);
}

/*
 * Discovery reads only regular files: a return address in an executable
 * private mapping of a character device (/dev/zero, through a device node of
 * its own) reaches the SFrame lookup of a deferred unwind, which remembers it as
 * code without SFrame without reading the device: no read of it (inotify
 * IN_ACCESS), nothing logged (the kernel refuses kernel_read() of /dev/zero with
 * a warning), and the walk still holds the frame.
 */
static void test_discovery_regular(void)
{
	char dir[] = "/tmp/sfstall.XXXXXX", node[64], rec[1024];
	unsigned long f[2], ra;
	struct udt_state before, after;
	int ctl = udt_open(), fd, in, kmsg, n = 0;
	char *p;
	ssize_t len;

	if (write(ctl, "init 0", 6) < 0 && errno != EBUSY)
		check(0, "init 0: %s", strerror(errno));
	/* a node of our own: nothing else reads it */
	if (!mkdtemp(dir)) {
		check(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(node, sizeof(node), "%s/zero", dir);
	if (mknod(node, S_IFCHR | 0600, makedev(1, 5))) {
		printf("mknod %s: %s; using /dev/zero\n", node, strerror(errno));
		snprintf(node, sizeof(node), "/dev/zero");
	}
	fd = open(node, O_RDONLY);
	p = fd < 0 ? MAP_FAILED : mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	check(p != MAP_FAILED, "executable mapping of %s: %s", node, strerror(errno));
	in = inotify_init1(IN_NONBLOCK);
	check(in >= 0 && inotify_add_watch(in, node, IN_ACCESS) >= 0, "inotify on %s: %s", node,
	      strerror(errno));
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	check(kmsg >= 0 && lseek(kmsg, 0, SEEK_END) >= 0, "/dev/kmsg: %s", strerror(errno));
	if (failures)
		goto out;

	/* a made-up frame that returns into the mapping, the last one */
	ra = (unsigned long)p + 0x10;
	f[0] = 0;
	f[1] = ra;
	write(ctl, "reset", 5);
	udt_read_state(ctl, &before);
	udt_request_with_fp(ctl, (unsigned long)f);
	udt_read_state(ctl, &after);
	printf("deferred walk: %lu frames: %lx %lx; sframe discoveries %ld -> %ld\n",
	       after.t[0].nr, after.t[0].ips[0], after.t[0].ips[1], before.discoveries,
	       after.discoveries);
	check(after.t[0].calls == 1 && after.t[0].nr == 2 && after.t[0].ips[1] == ra,
	      "the walk did not reach the mapping of %s (%lu callbacks, %lu frames, frame 1 %lx, expected %lx): the test proves nothing",
	      node, after.t[0].calls, after.t[0].nr, after.t[0].ips[1], ra);

	while (read(in, rec, sizeof(rec)) > 0)
		n++;
	check(!n, "%s was read (%d inotify IN_ACCESS events)", node, n);
	n = 0;
	while ((len = read(kmsg, rec, sizeof(rec) - 1)) > 0 || (len < 0 && errno == EPIPE)) {
		if (len <= 0)
			continue;
		rec[len] = 0;
		printf("kernel log: %s", rec);
		n++;
	}
	check(!n, "%d new kernel log lines", n);
out:
	if (p != MAP_FAILED)
		munmap(p, 8192);
	if (strcmp(node, "/dev/zero"))
		unlink(node);
	rmdir(dir);
}
#endif

int main(int argc, char **argv)
{
	/* the subtests, which tests/run.sh runs as sframe-NAME */
	static const struct subtest tests[] = {
#ifdef __x86_64__
		/* sframe_register()'s struct size: EINVAL for no version, at once (1 TiB too) */
		{ "register-size", test_register_size, SUBTEST_64 },
		/*
		 * whole-section validation: the per-function FRE limit, at once; killable
		 * within a function's FREs
		 */
		{ "validate-fres", test_validate_fres, SUBTEST_64 },
		/* discovery never reads a special file (nor logs) */
		{ "discovery-regular", test_discovery_regular, SUBTEST_64 },
#endif
		{ NULL, NULL, 0 },
	};
	const struct subtest *t = subtest_find(tests, sizeof(tests) / sizeof(tests[0]) - 1,
					       argv[1]);

	setvbuf(stdout, NULL, _IOLBF, 0);
	check_name = argc > 1 ? argv[1] : "";
	if (!t) {
		printf("FAIL: unknown test '%s'\n", check_name);
		return 2;
	}
	t->fn();
	return check_end();
}
