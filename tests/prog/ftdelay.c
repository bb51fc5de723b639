// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads of the userstacktrace_delay tests (tests/cases/ftrace-delay-*.sh).
 * Usage: ftdelay signal N     N times main -> func_a -> func_b -> func_c, which
 *                             sends itself SIGUSR1 with a raw tgkill(2): the
 *                             signal is delivered in the same kernel entry,
 *                             after its deferred unwind
 *        ftdelay deep DEPTH   recurse DEPTH times in deep(), then read(2) one
 *                             byte of /dev/zero with a raw system call
 *        ftdelay churn SECONDS THREADS
 *                             THREADS threads that fork, exec "ftdelay exit"
 *                             and wait, and start and join threads, until
 *                             SECONDS have passed
 *        ftdelay exit         exit at once (what churn execs)
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#define KNOWN_CHAIN
#include "util.h"

static volatile sig_atomic_t signals;
static int zero_fd;
static char self[4096];
static time_t churn_end;

static void on_signal(int sig)
{
	(void)sig;
	signals++;
}

NOINLINE void func_c(void)
{
	raw_syscall3(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR1);
	keep_frame();
}

NOINLINE long deep(long n)
{
	char c;
	long ret;

	if (!n)
		return raw_syscall3(SYS_read, zero_fd, (long)&c, 1);
	ret = deep(n - 1);
	barrier();
	return ret;
}

static void *idle_thread(void *arg)
{
	return arg;
}

static void *churn_thread(void *arg)
{
	while (time(NULL) < churn_end) {
		pthread_t t;
		pid_t pid = fork();

		if (pid == 0) {
			execl(self, self, "exit", (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		if (!pthread_create(&t, NULL, idle_thread, NULL))
			pthread_join(t, NULL);
	}
	return arg;
}

static int churn(long seconds, long nr)
{
	pthread_t t[16];
	long i;

	if (nr > 16)
		nr = 16;
	churn_end = time(NULL) + seconds;
	for (i = 0; i < nr; i++)
		if (pthread_create(&t[i], NULL, churn_thread, NULL))
			return 1;
	for (i = 0; i < nr; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	long i, n = argc > 2 ? atol(argv[2]) : 1;

	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	if (argc > 2 && !strcmp(argv[1], "signal")) {
		signal(SIGUSR1, on_signal);
		for (i = 0; i < n; i++)
			func_a();
		return signals == n ? 0 : 1;
	}
	if (argc > 2 && !strcmp(argv[1], "deep")) {
		zero_fd = open("/dev/zero", O_RDONLY);
		return zero_fd < 0 || deep(n) != 1;
	}
	if (argc > 3 && !strcmp(argv[1], "churn")) {
		if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
			return 1;
		return churn(n, atol(argv[3]));
	}
	fprintf(stderr, "usage: ftdelay signal N | deep DEPTH | churn SECONDS THREADS | exit\n");
	return 2;
}
