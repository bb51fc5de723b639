// SPDX-License-Identifier: GPL-2.0
/*
 * A deep user stack: main -> recurse (DEPTH + 1 frames) -> zero_read, which reads
 * /dev/zero ITERATIONS times with a raw system call (so it is the innermost user frame).
 * Usage: deep [DEPTH [ITERATIONS]]   (default 300 frames of recursion, 2000 reads)
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include "util.h"

static char buf[1 << 20];
static int fd;

NOINLINE long zero_read(long n)
{
	long i, r = 0;

	for (i = 0; i < n; i++)
		r += raw_syscall3(SYS_read, fd, (long)buf, sizeof(buf));
	keep_frame();
	return r;
}

/* Not a tail call (the barrier after it): every level keeps its frame. */
NOINLINE long recurse(long depth, long n)
{
	long r = depth > 0 ? recurse(depth - 1, n) : zero_read(n);

	barrier();
	return r;
}

int main(int argc, char **argv)
{
	long depth = argc > 1 ? atol(argv[1]) : 300;
	long n = argc > 2 ? atol(argv[2]) : 2000;

	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		return 1;
	return recurse(depth, n) < 0;
}
