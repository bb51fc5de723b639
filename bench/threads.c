// SPDX-License-Identifier: GPL-2.0
/*
 * Multithreaded: 4 threads, each ITER times recursing DEPTH frames and issuing
 * SYSCALLS getppid(2) calls there. The hot phase is thread creation to the last join.
 * Usage: threads [DEPTH [ITER [SYSCALLS]]]
 */
#include <pthread.h>
#include <sys/syscall.h>
#include "bench.h"

#define NTHREADS 4

static int depth;
static long iter, per;

static long syscalls(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < per; i++)
		raw_syscall3(SYS_getppid, 0, 0, 0);
	keep_frame();
	return per;
}

static void *worker(void *arg)
{
	long i;

	for (i = 0; i < iter; i++)
		descend(depth, syscalls, NULL);
	keep_frame();
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t[NTHREADS];
	struct hot start;
	int i;

	depth = arg_or(argc, argv, 1, 30);
	iter = arg_or(argc, argv, 2, 60000);
	per = arg_or(argc, argv, 3, 16);
	start = hot_start();
	for (i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	hot_end(start);
	return 0;
}
