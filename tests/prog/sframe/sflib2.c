// SPDX-License-Identifier: GPL-2.0
/*
 * libsf2.so and (with -DSF_VARIANT3) libsf3.so, dlopened by sfchain. Both
 * export sfdl_c, but with different code and frame layouts at the same
 * place, so that unwinding one with the SFrame data of the other (a stale
 * registry entry after dlclose and dlopen at the same address) gives a
 * wrong chain.
 */
#define barrier() asm volatile("" ::: "memory")

#ifdef SF_VARIANT3
/* Moves sfdl_c and makes its frame much bigger */
__attribute__((noinline)) int sf3_pad(volatile char *p, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += p[i] * i;
	return s;
}

__attribute__((noinline)) int sfdl_c(int (*leaf)(int), int x)
{
	volatile char buf[3000];
	int ret;

	buf[0] = (char)x;
	ret = leaf(x + 1);
	barrier();
	return ret + sf3_pad(buf, 1);
}
#else
__attribute__((noinline)) int sfdl_c(int (*leaf)(int), int x)
{
	int ret = leaf(x + 1);

	barrier();
	return ret + 1;
}
#endif
