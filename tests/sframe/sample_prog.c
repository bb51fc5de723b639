// SPDX-License-Identifier: GPL-2.0
/*
 * A program built with SFrame for test_sframe.c: it is only parsed, never
 * run.  It calls through the PLT and links the known-layout functions of
 * sample_asm.S.
 */
#include <stdio.h>
#include <stdlib.h>

int sample_recurse(int n);
int sample_alloca(int n, const char *s);
int sample_varargs(const char *fmt, ...);
long sample_big_frame(long a, long b, long c, long d);
long sf_asm_fp(long x);
long sf_asm_push(long x);
long sf_asm_long(long x);
long sf_asm_huge(long x);

static __attribute__((noinline)) long sum(const int *a, int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += a[i] * (long)printf("%d\n", a[i]);
	return s;
}

int main(int argc, char **argv)
{
	int *a = calloc(argc, sizeof(*a));
	long s;

	for (int i = 0; i < argc; i++)
		a[i] = atoi(argv[i]);
	s = sum(a, argc) + sample_recurse(argc) + sample_alloca(argc, argv[0]);
	s += sample_varargs("%d %s\n", argc, argv[0]);
	s += sample_big_frame(argc, s, s * 3, s * 5);
	s += sf_asm_fp(s) + sf_asm_push(s) + sf_asm_long(s) + sf_asm_huge(s);
	free(a);
	return (int)s;
}
