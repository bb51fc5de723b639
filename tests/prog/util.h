/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the guest test programs (64-bit and -m32 builds). */
#ifndef TESTS_UTIL_H
#define TESTS_UTIL_H

#include <stdio.h>
#include <sys/mman.h>

#define NOINLINE __attribute__((noinline))
#define barrier() asm volatile("" ::: "memory")

/*
 * gcc 12 sets up no frame in a leaf function even with -fno-omit-frame-pointer
 * -mno-omit-leaf-frame-pointer; the innermost frame of a known chain calls this
 * so that it has one.
 */
static NOINLINE __attribute__((unused)) void keep_frame(void)
{
	barrier();
}

/* A system call issued right here, so the caller is the innermost user frame. */
static inline __attribute__((always_inline)) long raw_syscall3(long nr, long a1, long a2, long a3)
{
	long ret;
#ifdef __x86_64__
	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a1), "S"(a2), "d"(a3)
		     : "rcx", "r11", "memory");
#else
	asm volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a1), "c"(a2), "d"(a3)
		     : "memory");
#endif
	return ret;
}

/*
 * User callchains hold user addresses only. USER_ADDR_LIMIT: the first address
 * that is not one for this build's tasks (the kernel half of x86-64; TASK_SIZE of
 * an ia32 task). planted_ra(k), k < NR_PLANTED: return addresses that tests put in
 * made-up frames, which no walk may report: kernel-looking values, a user memory
 * pattern, and values at and just above the limit.
 */
#ifdef __x86_64__
/*
 * 47 bits of user space with 4-level paging, 56 with 5-level (a kernel that uses
 * LA57 where the CPU has it, as 7.x does under QEMU's "max" CPU): mmap() honours
 * a hint above 47 bits only then.
 */
static __attribute__((unused)) unsigned long long user_addr_limit(void)
{
	static unsigned long long limit;
	void *p;

	if (!limit) {
		p = mmap((void *)(1UL << 47), 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		limit = p != MAP_FAILED && (unsigned long)p >= 1UL << 47 ? 1ULL << 56 : 1ULL << 47;
		if (p != MAP_FAILED)
			munmap(p, 4096);
	}
	return limit;
}
#define USER_ADDR_LIMIT user_addr_limit()
#define NR_PLANTED 4U
static __attribute__((unused)) unsigned long planted_ra(unsigned int k)
{
	static const unsigned long fixed[] = { 0xffffffff8badc0deUL, 0xccccccccccccccccUL };

	/* then TASK_SIZE (the limit's last page is not user space), the limit */
	return k < 2 ? fixed[k] : USER_ADDR_LIMIT - (k == 2 ? 4096 : 0);
}
#else
#define USER_ADDR_LIMIT 0xffffe000ULL
#define NR_PLANTED 3U
static __attribute__((unused)) unsigned long planted_ra(unsigned int k)
{
	static const unsigned long planted[] = { 0xffffe000UL, 0xfffff000UL, 0xffffffffUL };

	return planted[k];
}
#endif

/* The id of tracepoint @name (SYSTEM/EVENT) in tracefs, -1 if it has none */
static __attribute__((unused)) long tracepoint_id(const char *name)
{
	char path[256];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &id) != 1)
			id = -1;
		fclose(f);
	}
	return id;
}

/* Is @ip a planted return address or not a user address? */
static inline __attribute__((unused)) int bad_user_ip(unsigned long long ip)
{
	unsigned int i;

	for (i = 0; i < NR_PLANTED; i++)
		if (ip == planted_ra(i))
			return 1;
	return ip >= USER_ADDR_LIMIT;
}

/*
 * Made-up frame pointer frames in @f (2 * @n words, in the caller's frame, so
 * above the stack pointer of what it calls): frame i saves the address of frame
 * i + 1 (0 after the last) and the return address @ras[i]. Returns @f, the frame
 * pointer a walk of them starts from.
 */
static inline __attribute__((unused)) unsigned long fake_frames(unsigned long *f,
								const unsigned long *ras,
								unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		f[2 * i] = i + 1 < n ? (unsigned long)&f[2 * i + 2] : 0;
		f[2 * i + 1] = ras[i];
	}
	return (unsigned long)f;
}

#ifdef _STDIO_H
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The debug kernel (tests/run.sh runs with FLAVOUR=debug there): its system calls
 * are several times slower, and a loop that only repeats a case may repeat it less.
 */
static __attribute__((unused)) int debug_kernel(void)
{
	const char *flavour = getenv("FLAVOUR");

	return flavour && !strcmp(flavour, "debug");
}

/*
 * Read up to max hex addresses " %lx %lx ..." from the test interface's line
 * (kernel/unwind/test.c) into ips; returns how many were read.
 */
static __attribute__((unused)) unsigned long parse_ips(const char *line, unsigned long *ips,
						       unsigned long max)
{
	unsigned long i;
	int off;

	for (i = 0; i < max; i++) {
		if (sscanf(line, " %lx%n", &ips[i], &off) != 1)
			break;
		line += off;
	}
	return i;
}

/* The [vdso] mapping, from /proc/self/maps; 0 if there is none */
static __attribute__((unused)) int vdso_range(unsigned long *lo, unsigned long *hi)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", lo, hi) == 2;
	if (f)
		fclose(f);
	return found;
}

/*
 * The deferred unwinder's test interface (kernel/unwind/test.c): commands are
 * written to UDT_CTL, its state is read back from it as text. udt_read_state()
 * reads that state into a struct udt_state: the counters, each tracer's last
 * callback and trace (its first UDT_IPS frames; nips of them parsed), the
 * callchain recorded by the test's perf-like hook, the SFrame counters.
 */
#define UDT_CTL "/sys/kernel/debug/unwind_deferred_test/ctl"
#define UDT_IPS 64
#define UDT_TRACERS 4

struct udt_tracer {
	int bit, ret, first_ret, same, pid;
	unsigned long calls, nr, nips;
	unsigned long long req_cookie, cookie;
	unsigned long ips[UDT_IPS];
};

struct udt_state {
	unsigned long unwinds, deferred, fired, cc_nr;
	struct udt_tracer t[UDT_TRACERS];
	unsigned long cc_ips[UDT_IPS];
	/* sframe entries (-1 if not shown), discoveries, indexes, budget_stops, bad */
	long entries, discoveries, indexes, budget_stops, bad;
};

/* UDT_CTL, open for reading and writing; without it, print SKIP and exit 4 (KSFT_SKIP) */
static __attribute__((unused)) int udt_open(void)
{
	int fd = open(UDT_CTL, O_RDWR);

	if (fd < 0) {
		printf("SKIP: %s: %s\n", UDT_CTL, strerror(errno));
		exit(4);
	}
	return fd;
}

/* Read the state from @fd (UDT_CTL, open); -1 (and a zeroed state) if that fails */
static __attribute__((unused)) int udt_read_state(int fd, struct udt_state *s)
{
	static char buf[65536];
	char *line, *save;
	ssize_t len;
	int n, off;

	memset(s, 0, sizeof(*s));
	s->entries = -1;
	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		return -1;
	buf[len] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct udt_tracer *t;

		if (sscanf(line, "unwinds %lu deferred %lu", &s->unwinds, &s->deferred) >= 1 ||
		    sscanf(line, "inject fired %lu", &s->fired) == 1 ||
		    sscanf(line, "sframe entries %ld", &s->entries) == 1 ||
		    sscanf(line, "sframe discoveries %ld indexes %ld budget_stops %ld bad %ld",
			   &s->discoveries, &s->indexes, &s->budget_stops, &s->bad) >= 1)
			continue;
		if (sscanf(line, "callchain nr %lu%n", &s->cc_nr, &off) == 1) {
			parse_ips(line + off, s->cc_ips, s->cc_nr < UDT_IPS ? s->cc_nr : UDT_IPS);
			continue;
		}
		if (sscanf(line, "tracer %d", &n) != 1 || n < 0 || n >= UDT_TRACERS)
			continue;
		t = &s->t[n];
		if (sscanf(line, "tracer %*d bit %d calls %lu ret %d first_ret %d req_cookie %llx same %d cookie %llx pid %d nr %lu%n",
			   &t->bit, &t->calls, &t->ret, &t->first_ret, &t->req_cookie, &t->same,
			   &t->cookie, &t->pid, &t->nr, &off) < 9)
			continue;
		t->nips = parse_ips(line + off, t->ips, t->nr < UDT_IPS ? t->nr : UDT_IPS);
	}
	return 0;
}

#ifdef SYS_write
/*
 * Request a deferred unwind of tracer 0 ("request 1 1" written to @fd) from a
 * system call made with the frame pointer set to @fp: the unwind starts there.
 */
static NOINLINE __attribute__((unused)) long udt_request_with_fp(int fd, unsigned long fp)
{
	static const char cmd[] = "request 1 1";
	long ret;
#ifdef __x86_64__
	asm volatile("sub $128, %%rsp\n\tpush %%rbp\n\tmov %[fp], %%rbp\n\tsyscall\n\t"
		     "pop %%rbp\n\tadd $128, %%rsp"	/* below the red zone */
		     : "=a"(ret)
		     : "a"((long)SYS_write), "D"((long)fd), "S"(cmd), "d"(sizeof(cmd) - 1),
		       [fp] "r"(fp)
		     : "rcx", "r11", "memory");
#else
	asm volatile("push %%ebp\n\tmov %%esi, %%ebp\n\tint $0x80\n\tpop %%ebp"
		     : "=a"(ret)
		     : "a"((long)SYS_write), "b"((long)fd), "c"(cmd), "d"(sizeof(cmd) - 1),
		       "S"(fp)
		     : "memory");
#endif
	return ret;
}
#endif

#include <stdarg.h>

/*
 * The checks of a test program. check(COND, FMT, ...) prints "FAIL NAME: message"
 * when COND is false, NAME being check_name, what the program tests now ("FAIL
 * message" if that is NULL), counts it in failures and keeps the first message
 * in first_failure; with check_verbose it prints "PASS message" for a true COND
 * too. FMT's arguments are evaluated only when a line is printed.
 */
static __attribute__((unused)) int failures, check_verbose;
static __attribute__((unused)) const char *check_name;
static __attribute__((unused)) char first_failure[256];

static __attribute__((unused, format(printf, 2, 3))) void check_print(int ok, const char *fmt,
									...)
{
	va_list ap;

	if (!ok && !failures++) {
		va_start(ap, fmt);
		vsnprintf(first_failure, sizeof(first_failure), fmt, ap);
		va_end(ap);
	}
	if (ok)
		printf("PASS ");
	else if (check_name)
		printf("FAIL %s: ", check_name);
	else
		printf("FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

#define check(cond, ...) do {						\
	int check_ok_ = !!(cond);					\
									\
	if (!check_ok_ || check_verbose)				\
		check_print(check_ok_, __VA_ARGS__);			\
} while (0)

/*
 * How a subtest ended: "FAIL: N check(s) failed, the first: MESSAGE" and 1, or
 * "ok: NAME" and 0 (its exit status)
 */
static __attribute__((unused)) int check_end(void)
{
	if (failures) {
		printf("FAIL: %d check(s) failed, the first: %s\n", failures, first_failure);
		return 1;
	}
	printf("ok: %s\n", check_name);
	return 0;
}

/*
 * A program's subtests. tests/run.sh runs each as a test of its own, named
 * PREFIX-NAME (PREFIX-NAME-32 for the -m32 build; tests/cases/suites gives the
 * PREFIX of each program): "PROG --list" prints the names of those it runs
 * in this build (SUBTEST_64, SUBTEST_32), "PROG NAME" runs one.
 */
#define SUBTEST_64 1
#define SUBTEST_32 2

struct subtest {
	const char *name;
	void (*fn)(void);
	int builds;	/* SUBTEST_64 | SUBTEST_32: where run.sh runs it */
};

/*
 * The subtest of @tests (@n of them) that @arg names, or NULL; for "--list",
 * print this build's list and exit.
 */
static __attribute__((unused)) const struct subtest *subtest_find(const struct subtest *tests,
								  unsigned int n, const char *arg)
{
#ifdef __x86_64__
	const int build = SUBTEST_64;
#else
	const int build = SUBTEST_32;
#endif
	unsigned int i;

	for (i = 0; i < n && arg; i++) {
		if (!strcmp(arg, "--list") && (tests[i].builds & build))
			printf("%s\n", tests[i].name);
		else if (!strcmp(arg, tests[i].name))
			return &tests[i];
	}
	if (arg && !strcmp(arg, "--list"))
		exit(0);
	return NULL;
}
#endif

#if defined(_DLFCN_H) && defined(__USE_GNU)
/* The name of the symbol at or before @ip (dladdr, so -rdynamic), or "?" */
static __attribute__((unused)) const char *sym(unsigned long long ip)
{
	Dl_info info;

	if (dladdr((void *)(unsigned long)ip, &info) && info.dli_sname)
		return info.dli_sname;
	return "?";
}
#endif

#ifdef KNOWN_CHAIN
/*
 * The known chain main -> func_a -> func_b -> func_c, where the program's own
 * func_c enters the kernel with a raw system call.
 */
void func_c(void);

NOINLINE void func_b(void)
{
	func_c();
	barrier();
}

NOINLINE void func_a(void)
{
	func_b();
	barrier();
}
#endif

#endif
