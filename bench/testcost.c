// SPDX-License-Identifier: GPL-2.0
/*
 * The paths the test interface (CONFIG_UNWIND_DEFERRED_TEST) touches in a kernel that
 * has it: its counters at every registry change (exec registers the program's
 * .sframe, the exit frees the mm's registry) and its static key at every return to
 * user space. scripts/bench-testcost.sh runs the same loops on a kernel with the option
 * and on one without, under -icount, where guest time counts instructions.
 * Usage: testcost exec N      N times: fork, execve of this program (built static with
 *                             .sframe) with "exit", wait for it
 *        testcost syscall N   N getppid() system calls
 *        testcost exit        return at once (the exec loop's child)
 * Prints "elapsed_ns N cpu_ns C" of the loop.
 */
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench.h"

int main(int argc, char **argv)
{
	char *child[] = { argv[0], "exit", NULL };
	long i, n = arg_or(argc, argv, 2, 1000);
	struct hot start;
	int status;
	pid_t pid;

	if (argc < 2 || !strcmp(argv[1], "exit"))
		return 0;
	start = hot_start();
	if (!strcmp(argv[1], "exec")) {
		for (i = 0; i < n; i++) {
			pid = fork();
			if (pid < 0)
				return 1;
			if (!pid) {
				execv(argv[0], child);
				_exit(127);
			}
			if (waitpid(pid, &status, 0) != pid || status)
				return 1;
		}
	} else if (!strcmp(argv[1], "syscall")) {
		for (i = 0; i < n; i++)
			raw_syscall3(SYS_getppid, 0, 0, 0);
	} else {
		return 2;
	}
	hot_end(start);
	return 0;
}
