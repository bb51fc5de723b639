// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall-heavy with a deep user stack: ITER times, recurse DEPTH frames, then issue
 * getppid(2) calls there (raw syscall instruction, so the caller is the innermost user
 * frame), SYSCALLS on average: the count varies from one iteration to the next
 * (pseudo-random, the same every run) so that the loop has no fixed period for the
 * fixed sampling period to lock onto. The default depth is above perf's 127-frame limit.
 * Usage: deep [DEPTH [ITER [SYSCALLS]]]
 */
#include <sys/syscall.h>
#include "bench.h"

static long syscalls(void *arg)
{
	static unsigned int seed = 1;
	long i, n;

	seed = seed * 1103515245 + 12345;
	n = 1 + (seed >> 16) % (2 * *(long *)arg - 1);	/* 1 .. 2 * SYSCALLS - 1 */

	for (i = 0; i < n; i++)
		raw_syscall3(SYS_getppid, 0, 0, 0);
	keep_frame();
	return n;
}

int main(int argc, char **argv)
{
	int depth = arg_or(argc, argv, 1, 150);
	long i, iter = arg_or(argc, argv, 2, 200000), per = arg_or(argc, argv, 3, 16);
	struct hot start = hot_start();

	for (i = 0; i < iter; i++)
		descend(depth, syscalls, &per);
	hot_end(start);
	return 0;
}
