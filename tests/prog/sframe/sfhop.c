// SPDX-License-Identifier: GPL-2.0
/*
 * libsfhop.so (frame pointers, no SFrame) and libsfhop-sf.so (frame pointers
 * and SFrame), copied 300 times and dlopened by sfmany: one hop of a chain
 * through all of them. Hop @i calls hop @i + 1 of the table.
 */
#define barrier() asm volatile("" ::: "memory")

typedef long (*hop_fn)(void *const *fns, long i);

__attribute__((noinline)) long sfhop(void *const *fns, long i)
{
	long ret = ((hop_fn)fns[i + 1])(fns, i + 1);

	barrier();
	return ret + 1;
}
