// SPDX-License-Identifier: GPL-2.0
/*
 * Compute-bound user code: ITER rounds of an integer hash loop under DEPTH frames, no
 * system calls in the hot phase (every sample interrupts user mode).
 * Usage: compute [DEPTH [ITER]]
 */
#include "bench.h"

static long mix(void *arg)
{
	unsigned long x = *(unsigned long *)arg;
	int i;

	for (i = 0; i < 10000; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		x *= 0x2545f4914f6cdd1dUL;
	}
	*(unsigned long *)arg = x;
	keep_frame();
	return 0;
}

int main(int argc, char **argv)
{
	int depth = arg_or(argc, argv, 1, 20);
	long i, iter = arg_or(argc, argv, 2, 8000);
	unsigned long x = 88172645463325252UL;
	struct hot start = hot_start();

	for (i = 0; i < iter; i++)
		descend(depth, mix, &x);
	hot_end(start);
	return x == 42;	/* use the result */
}
