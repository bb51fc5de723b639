/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System calls made directly (x86-64), for code that runs without libc
 * (libsframe-audit.so) and is shared with code that has it (sfcache.c,
 * sfelf.c): each returns the kernel's value, a negative errno value on
 * failure; errno is not touched.
 */
#ifndef SFSYS_H
#define SFSYS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>

static inline long sf_syscall6(long n, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#define SF_SYS(n, a, b, c, d, e, f) \
	sf_syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

static inline int sf_openat(int dirfd, const char *path, int flags, int mode)
{
	return SF_SYS(SYS_openat, dirfd, path, flags, mode, 0, 0);
}

static inline int sf_close(int fd)
{
	return SF_SYS(SYS_close, fd, 0, 0, 0, 0, 0);
}

static inline long sf_read(int fd, void *buf, size_t len)
{
	return SF_SYS(SYS_read, fd, buf, len, 0, 0, 0);
}

static inline long sf_write(int fd, const void *buf, size_t len)
{
	return SF_SYS(SYS_write, fd, buf, len, 0, 0, 0);
}

static inline long sf_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return SF_SYS(SYS_pread64, fd, buf, len, off, 0, 0);
}

static inline int sf_fstat(int fd, struct stat *sb)
{
	return SF_SYS(SYS_fstat, fd, sb, 0, 0, 0, 0);
}

static inline int sf_stat(const char *path, struct stat *sb)
{
	return SF_SYS(SYS_newfstatat, AT_FDCWD, path, sb, 0, 0, 0);
}

static inline int sf_mkdirat(int dirfd, const char *path, int mode)
{
	return SF_SYS(SYS_mkdirat, dirfd, path, mode, 0, 0, 0);
}

/* An address, or a negative errno value (never a valid address) */
static inline long sf_mmap(void *addr, size_t len, int prot, int flags, int fd, uint64_t off)
{
	return SF_SYS(SYS_mmap, addr, len, prot, flags, fd, off);
}

static inline bool sf_mmap_failed(long ret)
{
	return ret < 0 && ret >= -4095;
}

static inline int sf_munmap(void *addr, size_t len)
{
	return SF_SYS(SYS_munmap, addr, len, 0, 0, 0, 0);
}

static inline unsigned int sf_geteuid(void)
{
	return SF_SYS(SYS_geteuid, 0, 0, 0, 0, 0, 0);
}

static inline int sf_getpid(void)
{
	return SF_SYS(SYS_getpid, 0, 0, 0, 0, 0, 0);
}

static inline int sf_dup2(int old, int new)
{
	return SF_SYS(SYS_dup2, old, new, 0, 0, 0, 0);
}

static inline int sf_fcntl(int fd, int cmd, long arg)
{
	return SF_SYS(SYS_fcntl, fd, cmd, arg, 0, 0, 0);
}

static inline int sf_memfd_create(const char *name, unsigned int flags)
{
	return SF_SYS(SYS_memfd_create, name, flags, 0, 0, 0, 0);
}

static inline int sf_execve(const char *path, char *const argv[], char *const envp[])
{
	return SF_SYS(SYS_execve, path, argv, envp, 0, 0, 0);
}

static inline int sf_wait4(int pid, int *status, int options)
{
	return SF_SYS(SYS_wait4, pid, status, options, 0, 0, 0);
}

/* The kernel's sigset is 8 bytes on x86-64 */
static inline int sf_sigprocmask(int how, const uint64_t *set, uint64_t *old)
{
	return SF_SYS(SYS_rt_sigprocmask, how, set, old, 8, 0, 0);
}

static inline int sf_close_range(unsigned int first, unsigned int last)
{
	return SF_SYS(436 /* SYS_close_range */, first, last, 0, 0, 0, 0);
}

static inline long sf_readlinkat(int dirfd, const char *path, char *buf, size_t len)
{
	return SF_SYS(SYS_readlinkat, dirfd, path, buf, len, 0, 0);
}

/*
 * Copy @len bytes at @addr of this process without faulting: -EFAULT if
 * unmapped; -ENOSYS without CONFIG_CROSS_MEMORY_ATTACH
 */
static inline long sf_peek(void *dst, const void *addr, size_t len)
{
#ifdef SF_TEST_NO_VM_READV
	(void)dst, (void)addr, (void)len;
	return -ENOSYS;
#endif
	struct iovec l = { dst, len }, r = { (void *)addr, len };

	return SF_SYS(SYS_process_vm_readv, sf_getpid(), &l, 1, &r, 1, 0);
}

static inline __attribute__((noreturn)) void sf_exit(int code)
{
	for (;;)
		SF_SYS(SYS_exit, code, 0, 0, 0, 0, 0);
}

#endif /* SFSYS_H */
