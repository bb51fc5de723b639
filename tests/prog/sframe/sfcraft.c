// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile SFrame sections against the bounds of the SFrame unwinder, through
 * the deferred unwinder's test interface ("sframe add" registers a section
 * for a code range, as sframe_add_section() does for sframe_register()).
 *
 * The "code" is a 4 GiB anonymous executable mapping that nothing executes;
 * the section (in anonymous memory just below it) has one FDE for a function
 * of SIZE bytes at START bytes into the code (may be negative) with NFRES
 * FREs (4-byte starts, one byte apart), each saying "CFA = SP + 24, return
 * address at CFA - 8". The
 * program enters the kernel with its frame pointer on a made-up stack (in
 * main()'s frame, above the stack pointer, as the walk requires) whose
 * first frame returns into that code, each further frame 24 bytes up
 * returning to an address deeper in the function, so that every SFrame
 * lookup lands near the end of the FRE list; frame pointers see only the
 * first frame (its saved frame pointer is 0).
 *
 * Usage: sfcraft CASE [NFRES [SIZE [FRAMES [START]]]]
 *   trace   print "nr N ok K budget_stops B bad D indexes I ms T": the frames of
 *           the deferred unwind, how many of the SFrame frames were right,
 *           the counter deltas and the time of the request in ms
 *   oversize  register a section larger than the cap: expects E2BIG
 *   kill    make the request and, when the parent kills it during the
 *           unwind, die: the parent prints "killed after MS ms" or FAIL
 * With SFCRAFT_VERSION=3 in the environment, the section is in SFrame
 * version 3 (which caps NFRES at 65535).
 * The test (tests/cases/sframe-bounds.sh) sets the limits and checks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../util.h"
#include "sfbuild.h"

#define TEXT_SIZE (4UL << 30)
#define CFA_OFF 24
#define MAX_FRAMES 600

static int ctl = -1;
static int v3;	/* SFCRAFT_VERSION=3 */

static void die(const char *what)
{
	printf("FAIL: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * A section of @nfres FREs for a function of @size bytes at @func, placed
 * just below @text; returns its start, its size in @len.
 */
static unsigned char *make_section(unsigned char *text, unsigned char *func,
				   unsigned long nfres, unsigned long size,
				   unsigned long *len)
{
	unsigned char *sec;

	*len = v3 ? sfb_size_v3(nfres) : sfb_size(nfres);
	sec = text - ((*len + 4095) & ~4095UL);
	if (mmap(sec, text - sec, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != sec)
		die("mmap section");
	if (v3)
		sfb_one_fde_v3(sec, func - sec, size, nfres, 1, CFA_OFF);
	else
		sfb_one_fde(sec, func - sec, size, nfres, 1, CFA_OFF);
	return sec;
}

static long ctl_write(const char *cmd)
{
	return write(ctl, cmd, strlen(cmd));
}

/* The test interface's state; fails if it cannot be read */
static void read_state(struct udt_state *s)
{
	if (udt_read_state(ctl, s))
		die("read " UDT_CTL);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The return address of made-up frame @i: in the code, past FRE nfres - 1 - i */
static unsigned long ra_of(unsigned char *text, long start, unsigned long nfres,
			   unsigned long i)
{
	return (unsigned long)text + (start > 0 ? start : 0) + nfres - i;
}

/*
 * Map the code and the section, register it, lay out the made-up stack of
 * @frames frames in @stack; return the code's start.
 */
static unsigned char *setup(unsigned long nfres, unsigned long size, unsigned long frames,
			    long start, unsigned long *stack)
{
	unsigned long len, i, *w;
	unsigned char *area, *text, *sec;
	char cmd[128];

	/* Room for the section below the code */
	area = mmap(NULL, TEXT_SIZE + (64UL << 20), PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED)
		die("mmap area");
	text = area + (64UL << 20);
	if (mmap(text, TEXT_SIZE, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) != text)
		die("mmap text");
	sec = make_section(text, text + start, nfres, size, &len);
	snprintf(cmd, sizeof(cmd), "sframe add %lx %lx %lx %lx", (unsigned long)sec,
		 (unsigned long)sec + len, (unsigned long)text, (unsigned long)text + TEXT_SIZE);
	if (ctl_write(cmd) < 0)
		die(cmd);

	/*
	 * FP frame: [0, RA into the code]; then SFrame frames of 3 words, RA
	 * last, each returning 1 byte lower, near the end of the FRE list
	 */
	w = stack;
	w[0] = 0;
	w[1] = ra_of(text, start, nfres, 0);
	for (i = 1; i < frames; i++) {
		w[2 + 3 * (i - 1)] = 0;
		w[3 + 3 * (i - 1)] = 0;
		w[4 + 3 * (i - 1)] = ra_of(text, start, nfres, i);
	}
	w[2 + 3 * (frames - 1)] = 0;
	w[3 + 3 * (frames - 1)] = 0;
	w[4 + 3 * (frames - 1)] = 0;	/* the end */
	return text;
}

static int trace_case(unsigned long nfres, unsigned long size, unsigned long frames,
		      long start, unsigned long *stack)
{
	unsigned long nr, i, good = 0;
	struct udt_state c0, c1;
	unsigned char *text;
	long long t0, t1;

	text = setup(nfres, size, frames, start, stack);
	read_state(&c0);
	t0 = now_ms();
	if (udt_request_with_fp(ctl, (unsigned long)stack) < 0)
		die("request");
	t1 = now_ms();
	read_state(&c1);
	nr = c1.t[0].nr;
	for (i = 1; i < nr && i < UDT_IPS; i++)
		good += c1.t[0].ips[i] == ra_of(text, start, nfres, i - 1);
	printf("nr %lu ok %lu budget_stops %ld bad %ld indexes %ld ms %lld\n", nr, good,
	       c1.budget_stops - c0.budget_stops, c1.bad - c0.bad, c1.indexes - c0.indexes,
	       t1 - t0);
	return 0;
}

/* The child makes a long unwind; the parent kills it a second into it */
static int kill_case(unsigned long nfres, unsigned long size, unsigned long frames,
		     long start, unsigned long *stack)
{
	int to_parent[2], status;
	long long t0, t1;
	char c = 0;
	pid_t pid;

	if (pipe(to_parent))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		setup(nfres, size, frames, start, stack);
		if (write(to_parent[1], "s", 1) != 1)	/* starting the request */
			_exit(2);
		udt_request_with_fp(ctl, (unsigned long)stack);
		if (write(to_parent[1], "d", 1) != 1)	/* done: too early */
			_exit(2);
		pause();
		_exit(0);
	}
	close(to_parent[1]);
	if (read(to_parent[0], &c, 1) != 1 || c != 's') {
		printf("FAIL: the child did not start\n");
		return 1;
	}
	/* One second into the request, the child is still unwinding */
	sleep(1);
	fcntl(to_parent[0], F_SETFL, O_NONBLOCK);
	if (read(to_parent[0], &c, 1) == 1) {
		printf("FAIL: the unwind was over within a second: the test proves nothing\n");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return 1;
	}
	t0 = now_ms();
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	t1 = now_ms();
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
		printf("FAIL: the child was not killed (status %#x)\n", status);
		return 1;
	}
	printf("killed after %lld ms\n", t1 - t0);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "trace";
	unsigned long nfres = argc > 2 ? strtoul(argv[2], NULL, 0) : 1100000;
	unsigned long size = argc > 3 ? strtoul(argv[3], NULL, 0) : 0xfffff000UL;
	unsigned long frames = argc > 4 ? strtoul(argv[4], NULL, 0) : 500;
	long start = argc > 5 ? strtol(argv[5], NULL, 0) : 0;
	unsigned long stack[3 * MAX_FRAMES + 8], len;
	unsigned char *area;
	char cmd[128];

	if (frames < 1 || frames > MAX_FRAMES)
		frames = MAX_FRAMES;
	v3 = getenv("SFCRAFT_VERSION") && !strcmp(getenv("SFCRAFT_VERSION"), "3");
	if (v3 && nfres > 65535) {
		printf("FAIL: version 3 has at most 65535 FREs per function\n");
		return 1;
	}
	ctl = udt_open();
	ctl_write("init 0");
	ctl_write("reset");

	if (!strcmp(mode, "trace"))
		return trace_case(nfres, size, frames, start, stack);
	if (!strcmp(mode, "kill"))
		return kill_case(nfres, size, frames, start, stack);
	if (!strcmp(mode, "oversize")) {
		area = mmap(NULL, TEXT_SIZE + (64UL << 20), PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (area == MAP_FAILED)
			die("mmap");
		if (mprotect(area + (64UL << 20), 4096, PROT_READ | PROT_EXEC))
			die("mprotect");
		make_section(area + (64UL << 20), area + (64UL << 20), nfres, size, &len);
		snprintf(cmd, sizeof(cmd), "sframe add %lx %lx %lx %lx",
			 (unsigned long)area + (64UL << 20) - ((len + 4095) & ~4095UL),
			 (unsigned long)area + (64UL << 20) - ((len + 4095) & ~4095UL) + len,
			 (unsigned long)area + (64UL << 20), (unsigned long)area + (64UL << 20) + 4096);
		if (ctl_write(cmd) >= 0 || errno != E2BIG) {
			printf("FAIL: an oversized section was not refused with E2BIG: %s\n",
			       strerror(errno));
			return 1;
		}
		printf("oversized section refused: %s\n", strerror(errno));
		return 0;
	}
	printf("FAIL: unknown case %s\n", mode);
	return 1;
}
