// SPDX-License-Identifier: GPL-2.0
/*
 * Long kernel residency: ITER reads of BYTES from /dev/zero under DEPTH frames, so
 * that many samples hit one kernel entry (the kernel clears the buffer for each).
 * Usage: zero [DEPTH [ITER [BYTES]]]
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "bench.h"

static char *buf;
static long bytes;
static int fd;

static long read_zero(void *arg)
{
	long r = raw_syscall3(SYS_read, fd, (long)buf, bytes);

	(void)arg;
	keep_frame();
	return r;
}

int main(int argc, char **argv)
{
	int depth = arg_or(argc, argv, 1, 40);
	long i, iter = arg_or(argc, argv, 2, 80);
	struct hot start;

	bytes = arg_or(argc, argv, 3, 64 << 20);
	fd = open("/dev/zero", O_RDONLY);
	buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd < 0 || buf == MAP_FAILED)
		return 1;
	/* Fault the buffer in before the hot phase, in one system call */
	madvise(buf, bytes, MADV_POPULATE_WRITE);
	start = hot_start();
	for (i = 0; i < iter; i++)
		if (descend(depth, read_zero, NULL) != bytes)
			return 1;
	hot_end(start);
	return 0;
}
