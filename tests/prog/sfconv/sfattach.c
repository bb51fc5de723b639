// SPDX-License-Identifier: GPL-2.0
/*
 * A program built -O2 -fomit-frame-pointer without SFrame (only .eh_frame)
 * that runs until it is killed, calling getppid() through libc's syscall():
 * for sections attached to its file and libc's while it runs (sframe-conv
 * attach, PR_SFRAME_FILE). The chain, innermost first:
 *   syscall (libc) <- sfa_loop <- main <- libc's start code <- _start
 *
 * Usage: sfattach N    rounds of N calls, for ever; after the first round it
 * prints the real chain (for tests/lib.sh's exact_chains):
 *   expect: ^syscall sfa_loop 0xRA 0xRA...
 * the return address into main, then main's own and those above it
 * (backtrace(), libgcc's DWARF unwinder).
 *        sfattach N nocfi    main calls sfa_loop through sfa_nocfi, assembly
 * with a frame pointer and no CFI: an attached section has no rule for it, so
 * the walk must end there (frame pointers would go on to main):
 *   expect: ^syscall sfa_loop 0xRA
 * the return address into sfa_nocfi, and nothing after it.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *ra_main;

long sfa_loop(long n);
long sfa_nocfi(long n);

/* A frame pointer frame without CFI, so without a rule in a converted section */
asm(".text\n"
    ".globl sfa_nocfi\n"
    ".type sfa_nocfi, @function\n"
    "sfa_nocfi:\n"
    "	push %rbp\n"
    "	mov %rsp, %rbp\n"
    "	call sfa_loop\n"
    "	pop %rbp\n"
    "	ret\n"
    ".size sfa_nocfi, . - sfa_nocfi\n");

__attribute__((noipa)) long sfa_loop(long n)
{
	long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += syscall(SYS_getppid);
	ra_main = __builtin_return_address(0);
	return sum;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1, sum = 0;
	int i, nabove = 0, printed = 0, nocfi = argc > 2;
	void *above[16];

	/* One call site: the return address into main is the same in every round */
	for (;;) {
		sum += nocfi ? sfa_nocfi(n) : sfa_loop(n);
		if (printed)
			continue;
		if (!nocfi)
			nabove = backtrace(above, 16);
		printf("expect: ^syscall sfa_loop %p", ra_main);
		for (i = 1; i < nabove; i++)
			printf(" %p", above[i]);
		printf("\n");
		fflush(stdout);
		printed = 1;
	}
	return sum & 1;
}
