// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame version 3 through the deferred unwinder's test interface: a
 * hand-built V3 section (PC-relative s64 starts, FRE blobs in reverse index
 * order) registered with sframe_register() for the code of sfv3asm.S, the
 * chain v3_outer -> v3_mid -> v3_drap -> v3_leaf, which makes the request:
 *  - v3_leaf, the topmost frame, has a flexible FDE: CFA = r10 + 0 (a
 *    register only the topmost frame has, from pt_regs), FP = *(CFA - 16)
 *    (its FP register holds 0 meanwhile);
 *  - v3_drap has a flexible FDE: CFA = *(FP - 8), FP = *(FP) at its call;
 *  - v3_mid has a default FDE (SP based);
 *  - v3_outer is the outermost frame: a default FDE without FREs.
 *
 * Usage: sfv3 CASE [N]   N times (default 2):
 *   chain    the trace is exactly v3_leaf v3_drap v3_mid v3_outer: every
 *            frame checked, and the walk ends at the outermost frame
 *   signal   v3_outer is marked a signal trampoline (with ordinary FREs):
 *            the SFrame walk ends there, the same trace
 *   regstop  v3_mid's FRE at its call says CFA = r12 + 32: a register no
 *            frame but the topmost has, so the walk ends cleanly after
 *            v3_mid: exactly v3_leaf v3_drap v3_mid
 *   through  control: v3_outer has ordinary FREs: the walk goes on past it
 *            (more than 4 frames), so the outermost mark is what ends it
 *   atend    v3_mid's last FRE starts at its end (as gas writes one when a
 *            CFI directive follows a function's last instruction), the FRE
 *            the lookup of its return address reads after the one it
 *            chooses: the same exact chain as "chain" (the kernel used to
 *            call the section corrupt there and drop it)
 * Exits 0 when the claim holds, 1 otherwise; the last line says why.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../util.h"

#ifndef __NR_sframe_register
#define __NR_sframe_register	473
#endif

/* include/uapi/linux/sframe.h */
struct sframe_setup {
	unsigned long long sframe_start, sframe_size, text_start, text_size, flags;
};

extern char v3_text_start[], v3_text_end[];
extern char v3_outer[], v3_outer_ret[], v3_outer_end[];
extern char v3_mid[], v3_mid_1[], v3_mid_2[], v3_mid_ret[], v3_mid_3[], v3_mid_4[],
	v3_mid_end[];
extern char v3_drap[], v3_drap_1[], v3_drap_2[], v3_drap_3[], v3_drap_ret[], v3_drap_4[],
	v3_drap_5[], v3_drap_6[], v3_drap_end[];
extern char v3_leaf[], v3_leaf_1[], v3_leaf_2[], v3_leaf_sys[], v3_leaf_3[], v3_leaf_4[],
	v3_leaf_end[];
/* v3_outer(fd, buf, len) */
typedef long outer_fn(long fd, const char *buf, long len);

/* Flexible FDE control words */
#define C_REG(r)	((r) << 3 | 1)
#define C_DEREF		2
#define RSP	7
#define RBP	6
#define R10	10
#define R12	12

/* An FRE: its start label, SP based (default FDEs), N 1-byte words */
struct fre {
	const char *at;
	int n;
	signed char w[6];
};

struct fde {
	const char *start, *end;
	int flex, signal, nfres;
	struct fre fres[8];
};

#define SP_PLUS(at, k)		{ at, 1, { k } }
#define FLEX_SP(at, k)		{ at, 2, { C_REG(RSP), k } }
#define FLEX_SP_FP(at, k, f)	{ at, 5, { C_REG(RSP), k, 0, C_DEREF, f } }

static struct fde fdes[4];

static void describe(const char *mode)
{
	const struct fde outer = { v3_outer, v3_outer_end, 0, 0, 0, { { 0 } } };
	const struct fde outer_fres = { v3_outer, v3_outer_end, 0, 0, 3, {
		SP_PLUS(v3_outer, 8), SP_PLUS(v3_outer + 4, 16), SP_PLUS(v3_outer_ret + 4, 8) } };
	const struct fde mid = { v3_mid, v3_mid_end, 0, 0, 5, {
		SP_PLUS(v3_mid, 8), SP_PLUS(v3_mid_1, 16), SP_PLUS(v3_mid_2, 32),
		SP_PLUS(v3_mid_3, 16), SP_PLUS(v3_mid_4, 8) } };
	const struct fde mid_atend = { v3_mid, v3_mid_end, 0, 0, 4, {
		SP_PLUS(v3_mid, 8), SP_PLUS(v3_mid_1, 16), SP_PLUS(v3_mid_2, 32),
		SP_PLUS(v3_mid_end, 8) } };
	const struct fde mid_r12 = { v3_mid, v3_mid_end, 1, 0, 5, {
		FLEX_SP(v3_mid, 8), FLEX_SP(v3_mid_1, 16), { v3_mid_2, 2, { C_REG(R12), 32 } },
		FLEX_SP(v3_mid_3, 16), FLEX_SP(v3_mid_4, 8) } };
	const struct fde drap = { v3_drap, v3_drap_end, 1, 0, 7, {
		FLEX_SP(v3_drap, 8),
		{ v3_drap_1, 2, { C_REG(R10), 0 } },
		{ v3_drap_2, 5, { C_REG(R10), 0, 0, C_REG(RBP) | C_DEREF, 0 } },
		{ v3_drap_3, 5, { C_REG(RBP) | C_DEREF, -8, 0, C_REG(RBP) | C_DEREF, 0 } },
		{ v3_drap_4, 5, { C_REG(R10), 0, 0, C_REG(RBP) | C_DEREF, 0 } },
		{ v3_drap_5, 2, { C_REG(R10), 0 } },
		FLEX_SP(v3_drap_6, 8) } };
	const struct fde leaf = { v3_leaf, v3_leaf_end, 1, 0, 5, {
		FLEX_SP(v3_leaf, 8), FLEX_SP_FP(v3_leaf_1, 16, -16),
		{ v3_leaf_2, 5, { C_REG(R10), 0, 0, C_DEREF, -16 } },
		FLEX_SP_FP(v3_leaf_3, 16, -16), FLEX_SP(v3_leaf_4, 8) } };

	fdes[0] = strcmp(mode, "signal") && strcmp(mode, "through") ? outer : outer_fres;
	fdes[0].signal = !strcmp(mode, "signal");
	fdes[1] = !strcmp(mode, "regstop") ? mid_r12 : !strcmp(mode, "atend") ? mid_atend : mid;
	fdes[2] = drap;
	fdes[3] = leaf;
}

static void put(unsigned char *p, unsigned long long v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

/* The V3 section of fdes[] at @sec; returns its size */
static size_t build(unsigned char *sec)
{
	const int n = 4;
	unsigned char *idx = sec + 28, *fres = idx + 16 * n, *p = fres;
	unsigned int nfres = 0;

	for (int i = n - 1; i >= 0; i--) {
		const struct fde *f = &fdes[i];
		unsigned char *e = idx + 16 * i;

		put(e, (unsigned long long)(f->start - (char *)e), 8);
		put(e + 8, f->end - f->start, 4);
		put(e + 12, p - fres, 4);
		put(p, f->nfres, 2);
		p[2] = 0 | (f->signal ? 0x80 : 0);	/* 1-byte FRE starts, PCINC */
		p[3] = f->flex;				/* FDE type */
		p[4] = 0;
		p += 5;
		for (int j = 0; j < f->nfres; j++) {
			const struct fre *r = &f->fres[j];

			p[0] = r->at - f->start;
			p[1] = (f->flex ? 0 : 1) | r->n << 1;	/* 1-byte words */
			memcpy(p + 2, r->w, r->n);
			p += 2 + r->n;
		}
		nfres += f->nfres;
	}
	memset(sec, 0, 28);
	put(sec, 0xdee2, 2);
	sec[2] = 3;			/* version */
	sec[3] = 1 | 4;			/* sorted, PC-relative starts */
	sec[4] = 3;			/* x86-64 */
	sec[6] = (unsigned char)-8;
	put(sec + 8, n, 4);
	put(sec + 12, nfres, 4);
	put(sec + 16, p - fres, 4);
	put(sec + 20, 0, 4);
	put(sec + 24, 16 * n, 4);
	return p - sec;
}

static int ctl = -1;

static void die(const char *what)
{
	printf("FAIL: %s\n", what);
	exit(1);
}

static const char *name(unsigned long ip)
{
	static char buf[64];

	if (ip == (unsigned long)v3_leaf_sys)
		return "v3_leaf";
	if (ip == (unsigned long)v3_drap_ret)
		return "v3_drap";
	if (ip == (unsigned long)v3_mid_ret)
		return "v3_mid";
	if (ip == (unsigned long)v3_outer_ret)
		return "v3_outer";
	snprintf(buf, sizeof(buf), "%#lx", ip);
	return buf;
}

int main(int argc, char **argv)
{
	static unsigned char sec[4096];
	const char *mode = argc > 1 ? argv[1] : "chain";
	int n = argc > 2 ? atoi(argv[2]) : 2;
	static const char req[] = "request 1 1";
	const unsigned long want[] = {
		(unsigned long)v3_leaf_sys, (unsigned long)v3_drap_ret,
		(unsigned long)v3_mid_ret, (unsigned long)v3_outer_ret,
	};
	unsigned long nwant = strcmp(mode, "regstop") ? 4 : 3;
	struct sframe_setup args;
	struct udt_state s;

	if (strcmp(mode, "chain") && strcmp(mode, "signal") && strcmp(mode, "regstop") &&
	    strcmp(mode, "through") && strcmp(mode, "atend"))
		die("unknown case");
	ctl = udt_open();
	if (write(ctl, "init 0", 6) < 0 && errno != EBUSY)
		die("init");
	if (write(ctl, "reset", 5) != 5)
		die("reset");

	describe(mode);
	args = (struct sframe_setup){
		.sframe_start = (unsigned long)sec, .sframe_size = build(sec),
		.text_start = (unsigned long)v3_text_start,
		.text_size = v3_text_end - v3_text_start,
	};
	if (syscall(__NR_sframe_register, &args, sizeof(args))) {
		printf("FAIL: sframe_register(): %s\n", strerror(errno));
		return 1;
	}

	for (int i = 0; i < n; i++) {
		if (((outer_fn *)(void *)v3_outer)(ctl, req, sizeof(req) - 1) != sizeof(req) - 1)
			die("request");
		if (udt_read_state(ctl, &s))
			die("cannot read " UDT_CTL);
		printf("%s: %lu frames:", mode, s.t[0].nr);
		for (unsigned long j = 0; j < s.t[0].nips && j < 6; j++)
			printf(" %s", name(s.t[0].ips[j]));
		printf("\n");
		if (!strcmp(mode, "through")) {
			if (s.t[0].nr <= 4 || s.t[0].nips < 5 || s.t[0].ips[3] != want[3])
				die("the walk did not go on past v3_outer: the outermost test proves nothing");
			continue;
		}
		if (s.t[0].nr != nwant || s.t[0].nips != nwant)
			die("not exactly the frames expected");
		for (unsigned long j = 0; j < nwant; j++)
			if (s.t[0].ips[j] != want[j])
				die("a frame is wrong");
	}
	printf("ok\n");
	return 0;
}
