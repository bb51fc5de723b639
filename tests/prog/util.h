/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the guest test programs (64-bit and -m32 builds). */
#ifndef TESTS_UTIL_H
#define TESTS_UTIL_H

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

#ifdef _STDIO_H
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
