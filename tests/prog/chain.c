// SPDX-License-Identifier: GPL-2.0
/*
 * The known call chain: main -> func_a -> func_b -> func_c -> read(2) of /dev/zero, issued by a raw
 * system call instruction inside func_c so that it is the innermost user frame.
 * Usage: chain [ITERATIONS [BYTES]]
 *        chain spin N    spin N loops in user space in noframe_spin with the frame
 *                        pointer cleared and the return address undefined in
 *                        its .eh_frame: a walk there finds exactly one frame
 *        chain exec      main -> exec_a -> exec_b -> exec_c -> execve(2) of itself
 *                        (a raw system call in exec_c), the new image doing nothing
 *        chain migrate N main -> mig_a -> mig_b -> to_cpu0 | to_cpu1 ->
 *                        sched_setaffinity(2) of itself to CPU 0 (first, then after
 *                        each move to CPU 1) or CPU 1 (N times): each call to CPU 1
 *                        enters the kernel on CPU 0 and returns to user space on
 *                        CPU 1 (a raw system call in to_cpu0 and to_cpu1)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#define KNOWN_CHAIN
#include "util.h"

static char buf[4 << 20];
static int fd;
static long bytes = 1 << 20;

NOINLINE void func_c(void)
{
	raw_syscall3(SYS_read, fd, (long)buf, bytes);
	keep_frame();
}

NOINLINE void exec_c(char **argv)
{
	extern char **environ;

	raw_syscall3(SYS_execve, (long)"/proc/self/exe", (long)argv, (long)environ);
	keep_frame();
}

NOINLINE void exec_b(char **argv)
{
	exec_c(argv);
	barrier();
}

NOINLINE void exec_a(char **argv)
{
	exec_b(argv);
	barrier();
}

static inline __attribute__((always_inline)) void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (raw_syscall3(SYS_sched_setaffinity, 0, sizeof(set), (long)&set))
		exit(1);
}

NOINLINE void to_cpu0(void)
{
	pin(0);
	keep_frame();
}

NOINLINE void to_cpu1(void)
{
	pin(1);
	keep_frame();
}

NOINLINE void mig_b(int cpu)
{
	if (cpu)
		to_cpu1();
	else
		to_cpu0();
	barrier();
}

NOINLINE void mig_a(int cpu)
{
	mig_b(cpu);
	barrier();
}

NOINLINE void noframe_spin(long n)
{
	unsigned long saved;

	/* The loop says it has no caller, as _start does: the walk ends there */
#ifdef __x86_64__
	asm volatile("mov %%rbp, %1\n\txor %%ebp, %%ebp\n"
		     ".cfi_remember_state\n\t.cfi_undefined rip\n"
		     "1:\tdec %0\n\tjnz 1b\n"
		     ".cfi_restore_state\n\tmov %1, %%rbp"
		     : "+r"(n), "=&r"(saved) : : "memory", "cc");
#else
	asm volatile("mov %%ebp, %1\n\txor %%ebp, %%ebp\n"
		     ".cfi_remember_state\n\t.cfi_undefined eip\n"
		     "1:\tdec %0\n\tjnz 1b\n"
		     ".cfi_restore_state\n\tmov %1, %%ebp"
		     : "+r"(n), "=&r"(saved) : : "memory", "cc");
#endif
}

int main(int argc, char **argv)
{
	long i, n;

	if (argc > 2 && !strcmp(argv[1], "spin")) {
		noframe_spin(atol(argv[2]));
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "exec")) {
		char *again[] = { argv[0], "0", NULL };

		exec_a(again);
		return 1;
	}
	if (argc > 2 && !strcmp(argv[1], "migrate")) {
		n = atol(argv[2]);
		mig_a(0);
		for (i = 0; i < n; i++) {
			mig_a(1);
			mig_a(0);
		}
		return 0;
	}
	n = argc > 1 ? atol(argv[1]) : 1000;

	if (argc > 2)
		bytes = atol(argv[2]);
	if (bytes > (long)sizeof(buf))
		bytes = sizeof(buf);
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		return 1;
	for (i = 0; i < n; i++)
		func_a();
	return 0;
}
