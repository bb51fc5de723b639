// SPDX-License-Identifier: GPL-2.0
/*
 * A program as issue 12 found them: built -O2 -fomit-frame-pointer with
 * SFrame (-Wa,--gsframe), entering the kernel through libc, which has
 * neither frame pointers nor SFrame. The chain, innermost first:
 *   syscall (libc) <- sfc_leaf (libsfcleaf.so, dlopened, no SFrame)
 *   <- sfc_mid (libsfcmid.so, linked, SFrame) <- sfc_caller <- main
 *   <- libc's start code <- _start
 *
 * Usage: sfcall N [fork]
 *                     call the chain N times (syscall(SYS_getppid) at the
 *                     end of each), then print the real chain; with "fork",
 *                     a child forked after start-up (after an LD_AUDIT
 *                     module registered its sections), named sfcall-child,
 *                     does it while the parent waits:
 *   expect: syscall sfc_leaf 0xRA 0xRA 0xRA 0xRA...
 * for tests/lib.sh's exact_chains: the return addresses into sfc_mid,
 * sfc_caller and main (__builtin_return_address(0) of their callees), then
 * main's own return address and those above it (backtrace(), libgcc's
 * DWARF unwinder).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define FN __attribute__((noipa))
#define barrier() asm volatile("" ::: "memory")

/* libsfcmid.so */
long sfc_mid(long (*leaf)(long, void **), long x, void **ra);

static long (*leaf)(long, void **);
/* Return addresses into sfc_mid, sfc_caller, main */
static void *ra[3];

FN long sfc_caller(long x)
{
	long ret = sfc_mid(leaf, x + 1, ra);

	ra[2] = __builtin_return_address(0);
	barrier();
	return ret + 1;
}

static void *open_leaf(const char *argv0)
{
	char path[PATH_MAX];
	const char *slash = strrchr(argv0, '/');
	void *h;

	snprintf(path, sizeof(path), "%.*s/libsfcleaf.so",
		 slash ? (int)(slash - argv0) : 1, slash ? argv0 : ".");
	h = dlopen(path, RTLD_NOW);
	if (!h) {
		printf("FAIL: %s\n", dlerror());
		exit(1);
	}
	return dlsym(h, "sfc_leaf");
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1, ret = 0;
	void *above[16];
	int nabove;

	leaf = (long (*)(long, void **))open_leaf(argv[0]);
	if (!leaf) {
		printf("FAIL: no sfc_leaf\n");
		return 1;
	}
	if (argc > 2 && !strcmp(argv[2], "fork")) {
		pid_t pid = fork();
		int status;

		if (pid < 0) {
			printf("FAIL: fork\n");
			return 1;
		}
		if (pid) {
			if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
				return 1;
			return WEXITSTATUS(status);
		}
		prctl(PR_SET_NAME, "sfcall-child");
	}
	for (i = 0; i < n; i++)
		ret += sfc_caller(i);
	/* main's own caller and the frames above, as libgcc's unwinder finds them */
	nabove = backtrace(above, 16);
	printf("expect: ^syscall sfc_leaf %p %p %p", ra[0], ra[1], ra[2]);
	for (i = 1; i < nabove; i++)
		printf(" %p", above[i]);
	printf("\nok (%ld)\n", ret & 1);
	return 0;
}
