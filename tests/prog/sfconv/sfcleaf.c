// SPDX-License-Identifier: GPL-2.0
/*
 * libsfcleaf.so, dlopened by sfcall: built without frame pointers and
 * without SFrame (only .eh_frame), so only a section converted at dlopen()
 * describes it. Enters the kernel through libc's syscall().
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#define barrier() asm volatile("" ::: "memory")

__attribute__((noipa)) long sfc_leaf(long x, void **ra)
{
	long ret = syscall(SYS_getppid);

	ra[0] = __builtin_return_address(0);
	barrier();
	return ret + x;
}
