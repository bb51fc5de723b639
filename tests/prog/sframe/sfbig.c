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

#define DEPTH 50

long manyfre_big(long depth, long calls, long nr, long a1, long a2, long a3);

static int ctl = -1;

int main(int argc, char **argv)
{
	static const char cmd[] = "request 1 1";
	int n = argc > 1 ? atoi(argv[1]) : 3, i, k, bad = 0;
	struct udt_state s;
	unsigned long *ips = s.t[0].ips, nr;
	long idx0, idx1 = -1, idx = -1;

	ctl = udt_open();
	if (write(ctl, "init 0", 6) < 0 && errno != EBUSY)
		return 1;
	udt_read_state(ctl, &s);
	idx0 = s.indexes;
	for (i = 0; i < n; i++) {
		manyfre_big(DEPTH, 1, SYS_write, ctl, (long)cmd, sizeof(cmd) - 1);
		barrier();
		udt_read_state(ctl, &s);
		nr = s.t[0].nr;
		idx = s.indexes;
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
