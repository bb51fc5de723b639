// SPDX-License-Identifier: GPL-2.0
/*
 * Enters the vDSO through libc: clock_gettime() (answered in the vDSO, 64- and 32-bit)
 * or read() of /dev/zero (a 32-bit program enters the kernel through the vDSO's
 * __kernel_vsyscall).
 * Usage: vdso clock MILLISECONDS    call clock_gettime() for that long
 *        vdso read ITERATIONS       read 1 MiB of /dev/zero ITERATIONS times
 *        vdso chain ITERATIONS      the same from main -> vr_caller -> vr_mid ->
 *                                   vr_leaf -> read(), then print the real chain:
 *   expect: ^0xLO-0xHI (__)?read 0xRA...
 * for tests/lib.sh's exact_chains: the vDSO's address range (32-bit) where the
 * system call is made, libc's read, then the return addresses into vr_mid,
 * vr_caller, main and libc's start code. vr_leaf, the caller of libc's read,
 * which sets up no frame, is not in it: a frame pointer walk cannot see it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

static char buf[1 << 20];
static void *ra[4];

NOINLINE long vr_leaf(int fd)
{
	long bad = read(fd, buf, sizeof(buf)) < 0;

	ra[0] = __builtin_return_address(0);
	return bad;
}

NOINLINE long vr_mid(int fd)
{
	long bad = vr_leaf(fd);

	ra[1] = __builtin_return_address(0);
	return bad;
}

NOINLINE long vr_caller(int fd, long n)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += vr_mid(fd);
	ra[2] = __builtin_return_address(0);
	return bad;
}

int main(int argc, char **argv)
{
	long i, n = argc > 2 ? atol(argv[2]) : 100, sum = 0;
	struct timespec ts, start;
	int fd;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "clock")) {
		clock_gettime(CLOCK_MONOTONIC, &start);
		do {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sum += ts.tv_nsec & 1;
		} while ((ts.tv_sec - start.tv_sec) * 1000 + (ts.tv_nsec - start.tv_nsec) / 1000000 < n);
	} else if (!strcmp(argv[1], "read")) {
		fd = open("/dev/zero", O_RDONLY);
		if (fd < 0)
			return 1;
		for (i = 0; i < n; i++)
			sum += read(fd, buf, sizeof(buf)) < 0;
	} else if (!strcmp(argv[1], "chain")) {
		unsigned long lo, hi;

		fd = open("/dev/zero", O_RDONLY);
		if (fd < 0 || !vdso_range(&lo, &hi))
			return 1;
		sum = vr_caller(fd, n);
		ra[3] = __builtin_return_address(0);
#ifdef __i386__
		printf("expect: ^0x%lx-0x%lx (__)?read", lo, hi);
#else
		printf("expect: ^(__)?read");
#endif
		printf(" %p %p %p %p\n", ra[0], ra[1], ra[2], ra[3]);
	} else {
		return 2;
	}
	return sum < 0;
}
