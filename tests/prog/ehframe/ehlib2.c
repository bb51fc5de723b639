// SPDX-License-Identifier: GPL-2.0
/*
 * libeh2.so, dlopened by ehchain from its own directory: ehdl_c calls the
 * recursion of libeh1.so. Built -O2 -fomit-frame-pointer, no SFrame.
 */
#define FN __attribute__((noipa, visibility("default")))
#define barrier() asm volatile("" ::: "memory")

long eh1_rec(long (*leaf)(long), long depth, long x);

/* A frame of 2 KB: the CFA far from the stack pointer */
FN long ehdl_c(long (*leaf)(long), long depth, long x)
{
	volatile char buf[2048];
	long ret;

	buf[0] = (char)x;
	ret = eh1_rec(leaf, depth, x + 1);
	barrier();
	return ret + buf[0];
}
