// SPDX-License-Identifier: GPL-2.0
/*
 * libsf1.so, linked by sfchain: the library frame in the middle of the chain.
 * Built like sfchain without frame pointers, with SFrame.
 */
#define barrier() asm volatile("" ::: "memory")

__attribute__((noinline)) int sf1_b(int (*cb)(int), int x)
{
	int ret = cb(x + 1);

	barrier();
	return ret + 1;
}
