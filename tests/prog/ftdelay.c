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
 *        ftdelay blocked MS   a thread holds the task's mmap lock for MS ms
 *                             (the test interface's mmap_hold); meanwhile
 *                             the main thread says "holding", calls
 *                             getppid(2) (its deferred stack is recorded
 *                             before it returns) and says "returned"
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
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

static int ctl_fd;
static char hold_cmd[32];

static void *hold_thread(void *arg)
{
	long ret = raw_syscall3(SYS_write, ctl_fd, (long)hold_cmd, strlen(hold_cmd));

	(void)arg;
	return (void *)ret;
}

/* Is an mmap_hold command holding the lock? Reads into memory faulted in before. */
static int holding(char *buf, size_t size)
{
	ssize_t n = pread(ctl_fd, buf, size - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = 0;
	return strstr(buf, "\nmmap_hold 1\n") != NULL;
}

static void say(const char *s)
{
	raw_syscall3(SYS_write, 1, (long)s, strlen(s));
}

/*
 * Everything the main thread does once the lock is held must not wait for it:
 * no allocation, no page fault (the stack and buffers are in use already).
 */
static int blocked(long ms)
{
	static char buf[8192];
	pthread_t t;
	void *ret;
	long i;

	ctl_fd = open("/sys/kernel/debug/unwind_deferred_test/ctl", O_RDWR);
	if (ctl_fd < 0)
		return 1;
	/* the traced system call's stack, walked (its mappings known) and recorded */
	for (i = 0; i < 3; i++)
		raw_syscall3(SYS_getppid, 0, 0, 0);
	memset(buf, 0, sizeof(buf));
	/* what the main thread calls during the hold, called once before */
	holding(buf, sizeof(buf));
	sched_yield();
	snprintf(hold_cmd, sizeof(hold_cmd), "mmap_hold %ld", ms);
	if (pthread_create(&t, NULL, hold_thread, NULL))
		return 1;
	while (!holding(buf, sizeof(buf)))
		sched_yield();
	say("holding\n");
	raw_syscall3(SYS_getppid, 0, 0, 0);
	say("returned\n");
	pthread_join(t, &ret);
	return (long)ret != (long)strlen(hold_cmd);
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
	if (argc > 2 && !strcmp(argv[1], "blocked"))
		return blocked(n);
	fprintf(stderr, "usage: ftdelay signal N | deep DEPTH | churn SECONDS THREADS | exit | blocked MS\n");
	return 2;
}
