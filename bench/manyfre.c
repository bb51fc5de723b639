// SPDX-License-Identifier: GPL-2.0
/*
 * An honest program that is hard on SFrame unwinding: ITER times, the one
 * function of manyfre.S with ~200000 FREs recurses DEPTH deep and then makes
 * CALLS system calls, so that every user frame of every sample is in it.
 * Built without frame pointers, with SFrame (bench/bench.mk).
 * Usage: manyfre [DEPTH [ITER [CALLS]]]
 */
#include <sys/syscall.h>
#include "bench.h"

long manyfre_big(long depth, long calls, long nr, long a1, long a2, long a3);

int main(int argc, char **argv)
{
	long depth = arg_or(argc, argv, 1, 50);
	long i, iter = arg_or(argc, argv, 2, 42), calls = arg_or(argc, argv, 3, 200);
	struct hot start = hot_start();

	for (i = 0; i < iter; i++)
		manyfre_big(depth, calls, SYS_getppid, 0, 0, 0);
	hot_end(start);
	return 0;
}
