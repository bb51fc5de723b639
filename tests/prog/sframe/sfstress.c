// SPDX-License-Identifier: GPL-2.0
/*
 * User callchains hold user addresses only, whatever a process puts on its stack
 * and registers: a bounded stress of hostile SFrame sections while sampling.
 *
 * Usage: sfstress SECONDS
 *
 * Two cpu-clock events sample each thread of the process, with IP|TID|CALLCHAIN and kernel callchains: one immediate (perf's -g
 * walk), one with deferred user callchains (defer_callchain, defer_output).
 * Meanwhile:
 *  - a thread maps executable "code" (anonymous, never run), writes a section for
 *    it (SFrame version 2 or 3 in turn; one function, many FREs, a random CFA
 *    offset), registers it with
 *    sframe_register(), then mutates the section's bytes, takes its pages away and
 *    gives them back, and unmaps it all, again and again;
 *  - a thread enters the kernel (read(2) of /dev/zero) with its frame pointer on
 *    made-up frames whose return addresses are taken from: the registered code,
 *    0xcccccccccccccccc, the values just above the user address limit, and kernel
 *    addresses the main thread copied out of the samples' kernel callchains;
 *  - the main thread reads the rings into a buffer on its own stack (leaving kernel
 *    callchains there, as a profiler reading its own records does) and checks
 *    every record.
 * Fails ("FAIL ..." and exit 1) on any value at or above the user address limit in
 * a sample's user callchain (after PERF_CONTEXT_USER) or a deferred record, and
 * if the run took no samples in the made-up frames or no deferred records, or
 * registered no section of either version.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "../util.h"
#include "sfbuild.h"

#define ATTR_DEFER_CALLCHAIN	(1ULL << 38)
#define ATTR_DEFER_OUTPUT	(1ULL << 39)
#define CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define RECORD_CALLCHAIN_DEFERRED 22
#define RING_PAGES		16
#define CODE_SIZE		(64 << 10)
#define SEC_SIZE		(64 << 10)
#define NFRAMES			64
#define NKVALS			256

#ifndef __NR_sframe_register
#define __NR_sframe_register	473
#endif

/* include/uapi/linux/sframe.h */
struct sframe_setup {
	uint64_t sframe_start, sframe_size, text_start, text_size, flags;
};

static volatile int stop, started;
static volatile pid_t tids[3];
static volatile unsigned long code_now;		/* the registered code, or 0 */
static unsigned long kvals[NKVALS];		/* kernel addresses seen */
static volatile unsigned int nkvals;
static unsigned long registered, registered_v3, register_failed, syscalls;

static void die(const char *msg)
{
	printf("FAIL: %s\n", msg);
	exit(1);
}

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	*seed = *seed * 1103515245 + 12345;
	return (*seed >> 8) % n;
}

/* A section of @nfres FREs for @code at @sec, in SFrame version 3 or 2 */
static void write_section(int v3, unsigned char *sec, unsigned char *code,
			  unsigned long nfres, unsigned char cfa_off)
{
	if (v3)
		sfb_one_fde_v3(sec, code - sec, CODE_SIZE, nfres, CODE_SIZE / nfres, cfa_off);
	else
		sfb_one_fde(sec, code - sec, CODE_SIZE, nfres, CODE_SIZE / nfres, cfa_off);
}

/* Register, mutate, unmap: sections the kernel must survive */
static void *mutator(void *arg)
{
	unsigned int seed = 1, round = 0;

	tids[1] = gettid();
	while (!started)
		sched_yield();
	while (!stop) {
		unsigned char *code = mmap(NULL, CODE_SIZE, PROT_READ | PROT_EXEC,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		unsigned char *sec = mmap(NULL, SEC_SIZE, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		unsigned long nfres = 1 + rnd(&seed, (SEC_SIZE - 64) / SFB_FRE_SIZE);
		int v3 = round++ & 1;
		struct sframe_setup a = {
			(unsigned long)sec, v3 ? sfb_size_v3(nfres) : sfb_size(nfres),
			(unsigned long)code, CODE_SIZE, 0
		};
		int i;

		if (code == MAP_FAILED || sec == MAP_FAILED)
			die("mmap");
		write_section(v3, sec, code, nfres, 8 * (1 + rnd(&seed, 16)));
		if (syscall(__NR_sframe_register, &a, sizeof(a)))
			register_failed++;
		else
			registered++, registered_v3 += v3;
		code_now = (unsigned long)code;
		for (i = 0; i < 200 && !stop; i++) {
			sec[rnd(&seed, a.sframe_size)] = rnd(&seed, 256);
			if (!rnd(&seed, 20)) {
				madvise(sec, SEC_SIZE, MADV_DONTNEED);
				write_section(v3, sec, code, nfres, 8);
			}
			if (!rnd(&seed, 50)) {
				mprotect(sec, SEC_SIZE, PROT_NONE);
				sched_yield();
				mprotect(sec, SEC_SIZE, PROT_READ | PROT_WRITE);
			}
			sched_yield();
		}
		code_now = 0;
		munmap(code, CODE_SIZE);
		munmap(sec, SEC_SIZE);
	}
	return arg;
}

/* Enter the kernel with the frame pointer on @frames */
static NOINLINE long read_with_fp(int fd, void *buf, long len, unsigned long *frames)
{
	long ret;

	asm volatile("sub $128, %%rsp\n\tpush %%rbp\n\tmov %[fp], %%rbp\n\tsyscall\n\t"
		     "pop %%rbp\n\tadd $128, %%rsp"	/* below the red zone */
		     : "=a"(ret)
		     : "a"((long)SYS_read), "D"((long)fd), "S"(buf), "d"(len),
		       [fp] "r"(frames)
		     : "rcx", "r11", "memory");
	return ret;
}

/* A return address for a made-up frame */
static unsigned long made_up_ra(unsigned int *seed)
{
	unsigned long code = code_now;
	unsigned int n = nkvals;

	switch (rnd(seed, 5)) {
	case 0:
		return code ? code + rnd(seed, CODE_SIZE) : 0x1000;
	case 1:
		return 0xccccccccccccccccUL;
	case 2:
		return USER_ADDR_LIMIT - 4096 + rnd(seed, 8192);
	case 3:
		return n ? kvals[rnd(seed, n < NKVALS ? n : NKVALS)] : 0xffffffff81000000UL;
	default:
		return (unsigned long)read_with_fp + 1;
	}
}

static void *walker(void *arg)
{
	static char buf[65536];
	unsigned long frames[2 * NFRAMES + 2];
	unsigned int seed = 2, i;
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		die("open /dev/zero");
	tids[2] = gettid();
	while (!started)
		sched_yield();
	while (!stop) {
		for (i = 0; i < NFRAMES; i++) {
			frames[2 * i] = (unsigned long)&frames[2 * i + 2];
			frames[2 * i + 1] = made_up_ra(&seed);
		}
		frames[2 * NFRAMES] = 0;
		frames[2 * NFRAMES + 1] = 0;
		read_with_fp(fd, buf, 1 + rnd(&seed, sizeof(buf)), frames);
		syscalls++;
	}
	return arg;
}

struct ring {
	int fd;
	struct perf_event_mmap_page *pg;
	unsigned long samples, user_frames, records, bad;
};

static int open_event(int deferred, pid_t tid)
{
	struct perf_event_attr a;
	uint64_t *flags;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000;	/* 1 ms */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	a.exclude_hv = 1;
	/* the flags word follows read_format */
	flags = (uint64_t *)((char *)&a + offsetof(struct perf_event_attr, read_format) + 8);
	if (deferred)
		*flags |= ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT;
	return syscall(SYS_perf_event_open, &a, tid, -1, -1, 0);
}

static void bad(struct ring *r, const char *what, uint64_t v)
{
	if (r->bad++ < 10)
		printf("bad: %s %llx\n", what, (unsigned long long)v);
}

/* A sample: IP, PID/TID, callchain */
static void check_sample(struct ring *r, const uint64_t *p, const uint64_t *end)
{
	uint64_t nr, i;
	int user = 0;

	r->samples++;
	p += 2;
	if (p >= end)
		die("sample too short");
	nr = *p++;
	if (nr > (uint64_t)(end - p))
		die("callchain overruns its sample");
	for (i = 0; i < nr; i++) {
		if (p[i] == PERF_CONTEXT_USER) {
			user = 1;
		} else if (p[i] == CONTEXT_USER_DEFERRED) {
			i++;	/* the cookie */
		} else if (p[i] >= (uint64_t)-4095) {
			user = 0;
		} else if (user) {
			r->user_frames++;
			if (p[i] >= USER_ADDR_LIMIT)
				bad(r, "user callchain entry", p[i]);
		} else if (p[i] >= USER_ADDR_LIMIT && nkvals < NKVALS) {
			kvals[nkvals++] = p[i];
		}
	}
}

/* Read the ring into a buffer on this stack, as a profiler reading its records */
static void drain(struct ring *r)
{
	uint64_t rec[8192];
	char *data = (char *)r->pg + 4096;
	uint64_t head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->pg->data_tail, size = RING_PAGES * 4096UL, i, j;

	while (tail < head) {
		struct perf_event_header h;

		for (j = 0; j < sizeof(h); j++)
			((char *)&h)[j] = data[(tail + j) % size];
		if (h.size < sizeof(h) || h.size % 8)
			die("record size");
		for (j = 0; j < h.size; j++)
			((char *)rec)[j] = data[(tail + j) % size];
		if (h.type == PERF_RECORD_SAMPLE) {
			check_sample(r, rec + 1, rec + h.size / 8);
		} else if (h.type == RECORD_CALLCHAIN_DEFERRED) {
			r->records++;
			if (rec[2] > (uint64_t)(h.size / 8 - 3))
				die("deferred record overruns");
			for (i = 0; i < rec[2]; i++)
				if (rec[3 + i] >= USER_ADDR_LIMIT)
					bad(r, "deferred record entry", rec[3 + i]);
		}
		tail += h.size;
	}
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
	struct ring rings[2][3];
	unsigned long samples[2] = { 0 }, records[2] = { 0 }, frames[2] = { 0 }, nbad[2] = { 0 };
	pthread_t t[2];
	time_t end;
	int i, j;

	if (sizeof(long) != 8) {
		printf("SKIP: sframe_register() is for 64-bit tasks\n");
		return 4;
	}
	end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 10);
	tids[0] = gettid();
	if (pthread_create(&t[0], NULL, mutator, NULL) ||
	    pthread_create(&t[1], NULL, walker, NULL))
		die("pthread_create");
	while (!tids[1] || !tids[2])
		sched_yield();
	/* each kind on each thread, each with its ring (per-task rings are not shared) */
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 3; j++) {
			struct ring *r = &rings[i][j];

			memset(r, 0, sizeof(*r));
			r->fd = open_event(i, tids[j]);
			if (r->fd < 0)
				die("perf_event_open");
			r->pg = mmap(NULL, (RING_PAGES + 1) * 4096UL, PROT_READ | PROT_WRITE,
				     MAP_SHARED, r->fd, 0);
			if (r->pg == MAP_FAILED)
				die("mmap ring");
		}
	}
	started = 1;
	while (time(NULL) < end) {
		for (i = 0; i < 6; i++)
			drain(&rings[i / 3][i % 3]);
		usleep(2000);
	}
	stop = 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	for (i = 0; i < 6; i++) {
		struct ring *r = &rings[i / 3][i % 3];

		drain(r);
		samples[i / 3] += r->samples;
		frames[i / 3] += r->user_frames;
		records[i / 3] += r->records;
		nbad[i / 3] += r->bad;
	}
	printf("sections registered %lu (%lu in version 3; refused %lu), system calls on made-up frames %lu, kernel addresses planted %u\n",
	       registered, registered_v3, register_failed, syscalls, nkvals);
	for (i = 0; i < 2; i++)
		printf("%s: samples %lu, user frames %lu, deferred records %lu, bad %lu\n",
		       i ? "deferred" : "immediate", samples[i], frames[i], records[i], nbad[i]);
	if (nbad[0] || nbad[1])
		die("kernel-half values in user callchains");
	if (!samples[0] || !records[1] || !registered_v3 || registered == registered_v3 ||
	    !nkvals)
		die("the run proves nothing: no samples, records, sections or kernel addresses");
	printf("ok\n");
	return 0;
}
