// SPDX-License-Identifier: GPL-2.0
/*
 * An FRE index, on an honest section: manyfre_big() (bench/manyfre.S, here
 * with 2500 push/pop pairs: about 5000 FREs, more than the unwinder scans
 * without an index) recurses 50 deep and requests a deferred unwind through
 * the test interface. Built without frame pointers, with SFrame.
 *
 * Usage: sfbig [N]   N requests (default 3); exits 0 when every trace is
 *                    51 frames in manyfre_big, then main, and exactly one
 *                    index was built (by the first unwind)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../util.h"

#define CTL "/sys/kernel/debug/unwind_deferred_test/ctl"
#define DEPTH 50
#define MAX_IPS 64

long manyfre_big(long depth, long calls, long nr, long a1, long a2, long a3);

static int ctl = -1;

/* Tracer 0's last trace; the number of FRE indexes built */
static unsigned long read_state(unsigned long *ips, long *indexes)
{
	static char buf[65536];
	unsigned long nr = 0;
	char *line, *save;
	ssize_t len;
	int off;

	len = pread(ctl, buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		return 0;
	buf[len] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "sframe discoveries %*d indexes %ld", indexes) == 1)
			continue;
		if (sscanf(line, "tracer 0 bit %*d calls %*u ret %*d first_ret %*d req_cookie %*x same %*d cookie %*x pid %*d nr %lu%n",
			   &nr, &off) >= 1)
			parse_ips(line + off, ips, nr < MAX_IPS ? nr : MAX_IPS);
	}
	return nr;
}

int main(int argc, char **argv)
{
	static const char cmd[] = "request 1 1";
	int n = argc > 1 ? atoi(argv[1]) : 3, i, k, bad = 0;
	unsigned long ips[MAX_IPS], nr;
	long idx0 = -1, idx1 = -1, idx;

	ctl = open(CTL, O_RDWR);
	if (ctl < 0) {
		printf("SKIP: no %s\n", CTL);
		return 77;
	}
	if (write(ctl, "init 0", 6) < 0 && errno != EBUSY)
		return 1;
	read_state(ips, &idx0);
	for (i = 0; i < n; i++) {
		manyfre_big(DEPTH, 1, SYS_write, ctl, (long)cmd, sizeof(cmd) - 1);
		barrier();
		nr = read_state(ips, &idx);
		if (!i)
			idx1 = idx;
		for (k = 0; k <= DEPTH && k < (int)nr; k++)
			bad += strcmp(sym(ips[k]), "manyfre_big") != 0;
		if (nr <= DEPTH + 1 || strcmp(sym(ips[DEPTH + 1]), "main"))
			bad++;
		printf("request %d: %lu frames: %s x%d, then %s\n", i, nr, sym(ips[0]),
		       DEPTH + 1, nr > DEPTH + 1 ? sym(ips[DEPTH + 1]) : "-");
	}
	printf("indexes built: %ld by the first unwind, %ld by the others\n", idx1 - idx0,
	       idx - idx1);
	if (bad) {
		printf("FAIL: expected %d frames in manyfre_big, then main\n", DEPTH + 1);
		return 1;
	}
	if (idx1 - idx0 != 1 || idx != idx1) {
		printf("FAIL: expected one index, built by the first unwind\n");
		return 1;
	}
	printf("ok\n");
	return 0;
}
