// SPDX-License-Identifier: GPL-2.0
/*
 * libeh1.so, linked by ehchain: eh1_b in the middle of the chain, and the
 * recursion eh1_rec near its end. Built like ehchain: -O2
 * -fomit-frame-pointer, no SFrame, only the .eh_frame gcc emits.
 */
#define FN __attribute__((noipa, visibility("default")))
#define barrier() asm volatile("" ::: "memory")

/*
 * Keeps three values live across the call (callee-saved registers pushed,
 * one more CFA offset per push) and calls back into the program.
 */
FN long eh1_b(long (*cb)(long), long x)
{
	long a = x * 3, b = x ^ 0x55, c = x + 7, ret;

	ret = cb(x + 1);
	barrier();
	return ret + a + b + c;
}

/*
 * depth + 1 frames of itself (one call site: the same return address in
 * each), then the leaf; a frame of a size that differs from its callers'
 */
FN long eh1_rec(long (*leaf)(long), long depth, long x)
{
	volatile long pad[5];
	long ret;

	pad[0] = x;
	if (depth > 0)
		ret = eh1_rec(leaf, depth - 1, x + 1);
	else
		ret = leaf(x + 1);
	barrier();
	return ret + pad[0];
}
