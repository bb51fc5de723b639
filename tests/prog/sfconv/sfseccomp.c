// SPDX-License-Identifier: GPL-2.0
/*
 * A sandboxed program: it installs a seccomp filter that kills the process
 * at sframe_register(), mkdir() and mkdirat() (as systemd's
 * SystemCallFilter= kills at the calls it does not allow: a system call
 * it does not know is one), then dlopen()s libsfcleaf.so, calls
 * into it and dlclose()s it. Its output and exit status must be the same
 * with the LD_AUDIT helper as without (tests/cases/sfconv-seccomp.sh).
 *
 * Usage: sfseccomp    prints four lines ("filter installed" ... "dlclose
 *                     ok"), exit 0; "SKIP: ..." and exit 4 if the kernel
 *                     has no seccomp filters
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_sframe_register
#define __NR_sframe_register	473
#endif

static int install_filter(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sframe_register, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdir, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdirat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return -errno;
	return 0;
}

int main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	long (*leaf)(long, void **);
	char path[PATH_MAX];
	void *h, *ra[1];
	int ret;

	(void)argc;
	setvbuf(stdout, NULL, _IONBF, 0);
	ret = install_filter();
	if (ret == -EINVAL || ret == -ENOSYS) {
		printf("SKIP: no seccomp filters in this kernel\n");
		return 4;
	}
	if (ret) {
		printf("FAIL: seccomp: %s\n", strerror(-ret));
		return 1;
	}
	printf("filter installed\n");

	snprintf(path, sizeof(path), "%.*s/libsfcleaf.so",
		 slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
	h = dlopen(path, RTLD_NOW);
	leaf = h ? (long (*)(long, void **))dlsym(h, "sfc_leaf") : NULL;
	if (!leaf) {
		printf("FAIL: %s\n", dlerror());
		return 1;
	}
	printf("dlopen ok\n");
	printf("sfc_leaf %s\n", leaf(42, ra) - getppid() == 42 ? "ok" : "wrong");
	printf("dlclose %s\n", dlclose(h) ? "failed" : "ok");
	return 0;
}
