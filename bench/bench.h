/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the benchmark workloads (bench/NAME.c, built 64-bit, -m32 and with
 * SFrame instead of frame pointers): a user stack of a chosen depth, and the clock of
 * the hot phase.
 *
 * Each workload does a fixed amount of work and prints "elapsed_ns N cpu_ns C": the
 * CLOCK_MONOTONIC time of its hot phase only (no startup, no output), and the CPU
 * time of the process (all threads) in that phase.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../tests/prog/util.h"

typedef long (*leaf_fn)(void *arg);

/*
 * Call leaf(arg) under DEPTH more frames of descend(). The barrier after the
 * recursive call keeps it out of tail position, so gcc -O2 neither turns the
 * recursion into a loop nor reuses the frame; noipa keeps it one function (no
 * constprop clones), so every frame is "descend".
 */
static __attribute__((noipa, unused)) long descend(int depth, leaf_fn leaf, void *arg)
{
	long r;

	if (depth <= 0)
		r = leaf(arg);
	else
		r = descend(depth - 1, leaf, arg);
	barrier();
	return r;
}

static inline long long clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The start of the hot phase: wall (CLOCK_MONOTONIC) and the process's CPU time */
struct hot {
	long long wall, cpu;
};

static inline struct hot hot_start(void)
{
	struct hot start = { clock_ns(CLOCK_MONOTONIC), clock_ns(CLOCK_PROCESS_CPUTIME_ID) };

	return start;
}

/* The end of the hot phase: print its wall and CPU time */
static inline void hot_end(struct hot start)
{
	long long cpu = clock_ns(CLOCK_PROCESS_CPUTIME_ID), wall = clock_ns(CLOCK_MONOTONIC);

	printf("elapsed_ns %lld cpu_ns %lld\n", wall - start.wall, cpu - start.cpu);
}

/* argv[i] as a number, or DEFAULT if not given */
static inline long arg_or(int argc, char **argv, int i, long def)
{
	return argc > i ? atol(argv[i]) : def;
}

#endif
