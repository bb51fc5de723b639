// SPDX-License-Identifier: GPL-2.0
/* libsfcmid.so, linked by sfcall: built with SFrame, without frame pointers. */
#define barrier() asm volatile("" ::: "memory")

__attribute__((noipa)) long sfc_mid(long (*leaf)(long, void **), long x, void **ra)
{
	long ret = leaf(x + 1, ra);

	ra[1] = __builtin_return_address(0);
	barrier();
	return ret + 1;
}
