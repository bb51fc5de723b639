// SPDX-License-Identifier: GPL-2.0
/*
 * A program the LD_AUDIT helper's converter must stay invisible to. On a
 * cache miss the helper runs its converter (sframe-conv audit-fill) as a child of
 * the program; the program must not see it: it has a SIGCHLD handler and
 * a child of its own, dlopen()s a library from a second thread, then reaps
 * with waitpid(-1): it must get its own child, one SIGCHLD, and no other
 * child (tests/host/sframe-conv-miss.sh).
 *
 * Usage: sfmiss LIBRARY   prints three lines, exit 0; "FAIL: ..." and exit 1
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t sigchld;

static void on_sigchld(int sig)
{
	(void)sig;
	sigchld++;
}

static void *load(void *lib)
{
	return dlopen(lib, RTLD_NOW | RTLD_LOCAL);
}

static int fail(const char *what)
{
	printf("FAIL: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_sigchld, .sa_flags = SA_RESTART };
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	int go[2], status, i;
	pthread_t thread;
	void *handle;
	pid_t child, got;
	char c = 0;

	if (argc != 2)
		return fail("usage: sfmiss LIBRARY");
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCHLD, &sa, NULL) || pipe(go))
		return fail("sigaction or pipe");
	child = fork();
	if (child < 0)
		return fail("fork");
	if (!child) {
		/* Wait for the parent's word, then exit 7 */
		close(go[1]);
		_exit(read(go[0], &c, 1) == 1 ? 7 : 1);
	}
	close(go[0]);
	if (pthread_create(&thread, NULL, load, argv[1]) || pthread_join(thread, &handle))
		return fail("pthread");
	if (!handle)
		return fail(dlerror());
	printf("dlopen ok\n");
	if (sigchld)
		return fail("SIGCHLD before our child exited");
	if (write(go[1], &c, 1) != 1)
		return fail("write");
	got = waitpid(-1, &status, 0);
	if (got != child || !WIFEXITED(status) || WEXITSTATUS(status) != 7)
		return fail("waitpid(-1) did not return our child");
	printf("reaped our child\n");
	for (i = 0; i < 100 && !sigchld; i++)
		nanosleep(&pause, NULL);
	if (sigchld != 1)
		return fail("not one SIGCHLD");
	got = waitpid(-1, &status, WNOHANG);
	if (got != -1 || errno != ECHILD)
		return fail("another child");
	printf("one SIGCHLD, no other child\n");
	dlclose(handle);
	return 0;
}
