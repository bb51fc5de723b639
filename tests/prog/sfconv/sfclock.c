// SPDX-License-Identifier: GPL-2.0
/*
 * A program built -O2 -fomit-frame-pointer without SFrame (only .eh_frame)
 * looping on clock_gettime(): libc's clock_gettime calls the vDSO, which
 * reads the clock in user space. The chain, innermost first:
 *   the vDSO <- clock_gettime (libc) <- sfk_loop <- main <- libc's start
 *   code <- _start
 *
 * Usage: sfclock N    N calls, then print the real chain:
 *   expect: ^LO-HI ^(__)?clock_gettime sfk_loop 0xRA 0xRA...
 * for tests/lib.sh's exact_chains: the vDSO's address range (perf does not
 * name its frames), the return address into main, then main's own and
 * those above it (backtrace(), libgcc's DWARF unwinder).
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../util.h"

#define FN __attribute__((noipa))

static void *ra_main;

FN long sfk_loop(long n)
{
	struct timespec ts;
	long i, sum = 0;

	for (i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sum += ts.tv_nsec;
	}
	ra_main = __builtin_return_address(0);
	return sum;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1, sum;
	unsigned long lo, hi;
	void *above[16];
	int i, nabove;

	sum = sfk_loop(n);
	nabove = backtrace(above, 16);
	if (!vdso_range(&lo, &hi)) {
		printf("FAIL: no [vdso] mapping\n");
		return 1;
	}
	printf("expect: ^0x%lx-0x%lx ^(__)?clock_gettime sfk_loop %p", lo, hi, ra_main);
	for (i = 1; i < nabove; i++)
		printf(" %p", above[i]);
	printf("\nok (%ld)\n", sum & 1);
	return 0;
}
