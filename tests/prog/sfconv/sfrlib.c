// SPDX-License-Identifier: GPL-2.0
/*
 * libsfrlib.so, dlopened by sfreg: built without frame pointers and without
 * SFrame. sfr_req() asks the deferred unwinder's test interface for the
 * user stack with a raw system call; sfr_nocfi() is assembly with a frame
 * pointer but without CFI, so its converted section has no rule for it.
 */
#include <string.h>
#include <sys/syscall.h>
#include "../util.h"

long sfr_req(void);
long sfr_nocfi(void);

static int ctl_fd;
static const char *req;

__attribute__((noipa)) long sfr_req(void)
{
	long ret = raw_syscall3(SYS_write, ctl_fd, (long)req, strlen(req));

	barrier();
	return ret + 1;
}

/* A frame pointer frame without CFI: frame pointers would find its caller */
asm(".text\n"
    ".globl sfr_nocfi\n"
    ".type sfr_nocfi, @function\n"
    "sfr_nocfi:\n"
    "	push %rbp\n"
    "	mov %rsp, %rbp\n"
    "	call sfr_req@PLT\n"
    "	pop %rbp\n"
    "	ret\n"
    ".size sfr_nocfi, . - sfr_nocfi\n");

__attribute__((noipa)) long sfr_outer(int fd, const char *request, int nocfi)
{
	long ret;

	ctl_fd = fd;
	req = request;
	ret = nocfi ? sfr_nocfi() : sfr_req();
	barrier();
	return ret + 1;
}
