// SPDX-License-Identifier: GPL-2.0
/*
 * Enters the vDSO through libc: clock_gettime() (answered in the vDSO, 64- and 32-bit)
 * or read() of /dev/zero (a 32-bit program enters the kernel through the vDSO's
 * __kernel_vsyscall); or (32-bit) returns from signal handlers through the vDSO's
 * sigreturn trampolines.
 * Usage: vdso clock MILLISECONDS    call clock_gettime() for that long
 *        vdso read ITERATIONS       read 1 MiB of /dev/zero ITERATIONS times
 *        vdso chain ITERATIONS      the same from main -> vr_caller -> vr_mid ->
 *                                   vr_leaf -> read(), then print the real chain:
 *   expect: ^0xLO-0xHI (__)?read 0xRA...
 * for tests/lib.sh's exact_chains: the vDSO's address range (32-bit) where the
 * system call is made, libc's read, then the return addresses into vr_mid,
 * vr_caller, main and libc's start code. vr_leaf, the caller of libc's read,
 * which sets up no frame, is not in it: a frame pointer walk cannot see it.
 *        vdso signal ITERATIONS     (32-bit) main -> vr_caller -> vr_mid -> sg_spin
 *        vdso rt-signal ITERATIONS  sends itself SIGUSR1 ITERATIONS times through
 * sg_raise, which has no frame, so that the signal interrupts it at its ret; the
 * handler, installed by the raw rt_sigaction system call without SA_RESTORER (with
 * SA_SIGINFO for rt-signal), reads 1 MiB of /dev/zero with int $0x80 in sg_leaf and
 * returns through the vDSO's __kernel_sigreturn (__kernel_rt_sigreturn). The real
 * chain of that read:
 *   expect: ^sg_leaf 0xRA 0xTRAMPOLINE 0xRET sg_spin 0xRA...
 * the return addresses into sg_handler and into the trampoline, the interrupted ip
 * (sg_raise's ret), sg_raise's return into sg_spin, then into vr_mid, vr_caller,
 * main and libc's start code.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "util.h"

static char buf[1 << 20];
static void *ra[4];

NOINLINE long vr_leaf(long fd)
{
	long bad = read(fd, buf, sizeof(buf)) < 0;

	ra[0] = __builtin_return_address(0);
	return bad;
}

/* What vr_mid calls: vr_leaf, or sg_spin */
static long (*vr_leaf_fn)(long arg) = vr_leaf;

NOINLINE long vr_mid(long arg)
{
	long bad = vr_leaf_fn(arg);

	ra[1] = __builtin_return_address(0);
	return bad;
}

NOINLINE long vr_caller(long arg, long n)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += vr_mid(arg);
	ra[2] = __builtin_return_address(0);
	return bad;
}

#ifdef __i386__
static int sg_fd;
static void *sg_ra[2];

/*
 * sg_raise: the system call the caller set up the registers for, then ret; no
 * frame, so a signal sent by the system call interrupts it at sg_raise_ret.
 */
asm(".text\n"
    ".globl sg_raise, sg_raise_ret\n"
    ".type sg_raise, @function\n"
    "sg_raise:\n"
    "	int $0x80\n"
    "sg_raise_ret:\n"
    "	ret\n"
    ".size sg_raise, . - sg_raise\n");
extern char sg_raise_ret[];

NOINLINE long sg_spin(long n)
{
	long i, ret, bad = 0, pid = getpid();

	for (i = 0; i < n; i++) {
		asm volatile("call sg_raise" : "=a"(ret)
			     : "a"((long)SYS_kill), "b"(pid), "c"((long)SIGUSR1)
			     : "memory", "cc");
		bad += ret != 0;
	}
	ra[0] = __builtin_return_address(0);
	return bad;
}

NOINLINE void sg_leaf(void)
{
	raw_syscall3(SYS_read, sg_fd, (long)buf, sizeof(buf));
	keep_frame();
	sg_ra[0] = __builtin_return_address(0);
}

NOINLINE void sg_handler(int sig)
{
	(void)sig;
	sg_leaf();
	sg_ra[1] = __builtin_return_address(0);
}

/* SIGUSR1 to sg_handler, without SA_RESTORER: it returns through the vDSO */
static int sg_install(long flags)
{
	struct {
		unsigned long handler, flags, restorer, mask[2];
	} act = { (unsigned long)sg_handler, flags, 0, { 0, 0 } };

	return syscall(SYS_rt_sigaction, SIGUSR1, &act, NULL, sizeof(act.mask));
}
#endif

int main(int argc, char **argv)
{
	long i, n = argc > 2 ? atol(argv[2]) : 100, sum = 0;
	struct timespec ts, start;
	int fd;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "clock")) {
		clock_gettime(CLOCK_MONOTONIC, &start);
		do {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sum += ts.tv_nsec & 1;
		} while ((ts.tv_sec - start.tv_sec) * 1000 + (ts.tv_nsec - start.tv_nsec) / 1000000 < n);
	} else if (!strcmp(argv[1], "read")) {
		fd = open("/dev/zero", O_RDONLY);
		if (fd < 0)
			return 1;
		for (i = 0; i < n; i++)
			sum += read(fd, buf, sizeof(buf)) < 0;
	} else if (!strcmp(argv[1], "chain")) {
		unsigned long lo, hi;

		fd = open("/dev/zero", O_RDONLY);
		if (fd < 0 || !vdso_range(&lo, &hi))
			return 1;
		sum = vr_caller(fd, n);
		ra[3] = __builtin_return_address(0);
#ifdef __i386__
		printf("expect: ^0x%lx-0x%lx (__)?read", lo, hi);
#else
		printf("expect: ^(__)?read");
#endif
		printf(" %p %p %p %p\n", ra[0], ra[1], ra[2], ra[3]);
#ifdef __i386__
	} else if (!strcmp(argv[1], "signal") || !strcmp(argv[1], "rt-signal")) {
		sg_fd = open("/dev/zero", O_RDONLY);
		if (sg_fd < 0 || sg_install(argv[1][0] == 'r' ? SA_SIGINFO : 0))
			return 1;
		vr_leaf_fn = sg_spin;
		sum = vr_caller(n, 1);
		ra[3] = __builtin_return_address(0);
		printf("expect: ^sg_leaf %p %p %p sg_spin %p %p %p %p\n", sg_ra[0], sg_ra[1],
		       (void *)sg_raise_ret, ra[0], ra[1], ra[2], ra[3]);
#endif
	} else {
		return 2;
	}
	return sum < 0;
}
