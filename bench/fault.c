// SPDX-License-Identifier: GPL-2.0
/*
 * Page-fault storm: ITER times, map MB of fresh anonymous memory, write one byte per
 * page under DEPTH frames (every write is a page fault: a kernel entry that
 * allocates and clears a page), and unmap it.
 * Usage: fault [DEPTH [ITER [MB]]]
 */
#include <sys/mman.h>
#include <unistd.h>
#include "bench.h"

static long size, page;

static long touch_pages(void *arg)
{
	volatile char *p = arg;
	long off;

	for (off = 0; off < size; off += page)
		p[off] = 1;
	keep_frame();
	return 0;
}

int main(int argc, char **argv)
{
	int depth = arg_or(argc, argv, 1, 40);
	long i, iter = arg_or(argc, argv, 2, 40);
	struct hot start;

	size = arg_or(argc, argv, 3, 16) << 20;
	page = sysconf(_SC_PAGESIZE);
	start = hot_start();
	for (i = 0; i < iter; i++) {
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		descend(depth, touch_pages, p);
		munmap(p, size);
	}
	hot_end(start);
	return 0;
}
