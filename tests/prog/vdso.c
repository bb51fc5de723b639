// SPDX-License-Identifier: GPL-2.0
/*
 * Enters the vDSO through libc: clock_gettime() (answered in the vDSO, 64- and 32-bit)
 * or read() of /dev/zero (a 32-bit program enters the kernel through the vDSO's
 * __kernel_vsyscall).
 * Usage: vdso clock MILLISECONDS    call clock_gettime() for that long
 *        vdso read ITERATIONS       read 1 MiB of /dev/zero ITERATIONS times
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

static char buf[1 << 20];

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
	} else {
		return 2;
	}
	return sum < 0;
}
