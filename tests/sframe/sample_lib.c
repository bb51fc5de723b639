// SPDX-License-Identifier: GPL-2.0
/*
 * A shared library with assorted frame shapes, built with SFrame for
 * test_sframe.c: it is only parsed, never run.
 */
#include <alloca.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sample_recurse(int n)
{
	if (n <= 1)
		return 1;
	return n * sample_recurse(n - 1) + sample_recurse(n - 2);
}

/* alloca() makes gcc set up a frame pointer: FP-based CFA */
int sample_alloca(int n, const char *s)
{
	char *buf = alloca(n + 1);

	strncpy(buf, s, n);
	buf[n] = 0;
	return puts(buf);
}

int sample_varargs(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vprintf(fmt, ap);
	va_end(ap);
	return ret;
}

/* A big stack frame and many live callee-saved registers */
long sample_big_frame(long a, long b, long c, long d)
{
	volatile char big[5000];
	long x = a, y = b, z = c, w = d;

	for (int i = 0; i < 4; i++) {
		big[i * 1000] = (char)(x ^ y);
		x = sample_recurse((int)(x & 7)) + y;
		y = sample_recurse((int)(y & 7)) + z;
		z = sample_recurse((int)(z & 7)) + w;
		w = sample_recurse((int)(w & 7)) + x;
	}
	return x + y + z + w + big[a & 4095];
}
