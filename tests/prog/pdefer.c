// SPDX-License-Identifier: GPL-2.0
/*
 * Guest tests of deferred perf callchains with raw perf_event_open (no perf tool).
 * Usage: pdefer chain|long|cpuwide|inherit|plain|einval|teardown|entry|maxstack|cswitch|
 *               swshare|swshare-defer|user-only|no-stale|late
 *        pdefer --list    the subtests tests/run.sh runs (this build's)
 * Exits 0 when every check held, 1 otherwise; the last line says why.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#define KNOWN_CHAIN
#include "util.h"

/* The ABI (include/uapi/linux/perf_event.h), spelled out for older headers */
#define ATTR_DEFER_CALLCHAIN	(1ULL << 38)
#define ATTR_DEFER_OUTPUT	(1ULL << 39)
#define CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define RECORD_CALLCHAIN_DEFERRED 22
#define ATTR_INHERIT		(1ULL << 1)

#define DATA_PAGES	2048
#define MAX_SAMPLES	200000
#define MAX_RECORDS	50000

struct sample {
	uint32_t tid;
	uint64_t cookie;	/* 0: no deferred marker */
	int kernel;		/* has kernel frames */
	int user_ctx;		/* has PERF_CONTEXT_USER (maybe no frames after it) */
	int frames;		/* entries that are not contexts (nor the cookie) */
	int user_frames;	/* immediate user frames */
	uint64_t first_user;	/* first immediate user frame */
	long pos;		/* index in the buffer */
};

struct record {
	uint32_t tid;
	uint64_t cookie, nr, ips[8];
	long pos;
};

static struct sample samples[MAX_SAMPLES];
static struct record records[MAX_RECORDS];
static int nsamples, nrecords, nlost;
static char buf[8 << 20];
static int zero_fd;
static long read_bytes = 1 << 20;
/* what open_sw_event() asks for */
static uint64_t sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_CALLCHAIN;
static unsigned int max_stack, exclude_user_chain;

NOINLINE void func_c(void)
{
	raw_syscall3(SYS_read, zero_fd, (long)buf, read_bytes);
	keep_frame();
}

static int open_typed_event(uint32_t type, uint64_t config, uint64_t period, pid_t pid, int cpu,
			    uint64_t flags)
{
	struct perf_event_attr attr;
	uint64_t *bits;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.sample_period = period;
	attr.sample_type = sample_type;
	attr.sample_max_stack = max_stack;
	attr.exclude_callchain_user = exclude_user_chain;
	attr.sample_id_all = 1;
	attr.disabled = 1;
	attr.exclude_hv = 1;
	/* the flags word follows read_format */
	bits = (uint64_t *)((char *)&attr.read_format + sizeof(attr.read_format));
	*bits |= flags;
	return syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
}

static int open_sw_event(uint64_t config, uint64_t period, pid_t pid, int cpu, uint64_t flags)
{
	return open_typed_event(PERF_TYPE_SOFTWARE, config, period, pid, cpu, flags);
}

/* Tracepoint @name (SYSTEM/EVENT) of the current task, a sample per hit; -1 if none */
static int open_tracepoint(const char *name, uint64_t flags)
{
	long id = tracepoint_id(name);

	check(id >= 0, "no tracepoint %s", name);
	return id < 0 ? -1 : open_typed_event(PERF_TYPE_TRACEPOINT, id, 1, 0, -1, flags);
}

/* cpu-clock, a sample every 200 us */
static int open_event(pid_t pid, int cpu, uint64_t flags)
{
	return open_sw_event(PERF_COUNT_SW_CPU_CLOCK, 200000, pid, cpu, flags);
}

static void *map_buffer(int fd)
{
	void *p = mmap(NULL, (DATA_PAGES + 1) * 4096L, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		printf("FAIL: mmap: %s\n", strerror(errno));
		exit(1);
	}
	return p;
}

/* Parse the records in the buffer into samples[] and records[]. */
static void parse_buffer(void *base)
{
	struct perf_event_mmap_page *pg = base;
	char *data = (char *)base + 4096;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), off = pg->data_tail;
	static char rec[65536];
	long pos = 0;

	check(head - off < DATA_PAGES * 4096UL, "buffer wrapped");
	while (off < head) {
		struct perf_event_header *h = (void *)&data[off % (DATA_PAGES * 4096UL)];
		uint64_t *p, i, nr;
		size_t j;

		for (j = 0; j < h->size; j++)
			rec[j] = data[(off + j) % (DATA_PAGES * 4096UL)];
		h = (void *)rec;
		p = (uint64_t *)(h + 1);
		if (h->type == PERF_RECORD_SAMPLE && nsamples < MAX_SAMPLES) {
			struct sample *s = &samples[nsamples++];

			memset(s, 0, sizeof(*s));
			s->tid = p[1] >> 32;
			s->pos = pos;
			/* IP, TID, TIME, then the callchain if asked for */
			nr = sample_type & PERF_SAMPLE_CALLCHAIN ? p[3] : 0;
			for (i = 0; i < nr; i++) {
				uint64_t ip = p[4 + i];

				if (ip == PERF_CONTEXT_KERNEL)
					s->kernel = 1;
				if (ip == CONTEXT_USER_DEFERRED && i + 2 == nr) {
					s->cookie = p[4 + i + 1];
					break;
				}
				if (ip == PERF_CONTEXT_USER) {
					s->user_ctx = 1;
					if (i + 1 < nr) {
						s->user_frames = nr - i - 1;
						s->first_user = p[4 + i + 1];
					}
				}
				if (ip < (uint64_t)-4095)
					s->frames++;
			}
		} else if (h->type == RECORD_CALLCHAIN_DEFERRED && nrecords < MAX_RECORDS) {
			struct record *r = &records[nrecords++];

			check(h->misc == PERF_RECORD_MISC_USER, "record misc %x", h->misc);
			r->cookie = p[0];
			r->nr = p[1];
			for (i = 0; i < r->nr && i < 8; i++)
				r->ips[i] = p[2 + i];
			r->tid = p[2 + r->nr] >> 32;	/* sample_id: pid, tid */
			r->pos = pos;
			check(h->size == sizeof(*h) + 16 + 8 * r->nr + 16, "record size %u for nr %lu",
			      h->size, (unsigned long)r->nr);
		} else if (h->type == PERF_RECORD_LOST) {
			nlost++;
		}
		off += h->size;
		pos++;
	}
	pg->data_tail = head;
}

/*
 * A sample of the last entry of its task in the buffer: the task exited
 * (the record was written after perf's exit, to CPU-wide events only) or
 * this entry disabled the event (the record is not written to a disabled
 * event). Tools deliver such samples unmerged at the end.
 */
static int last_entry(struct sample *s)
{
	int j;

	/* samples with cookie 0 came after it in the same entry, or at exit */
	for (j = s - samples + 1; j < nsamples; j++)
		if (samples[j].tid == s->tid && samples[j].cookie && samples[j].cookie != s->cookie)
			return 0;
	return 1;
}

/* The number of entry contexts with deferred samples: distinct cookies */
static int entries(void)
{
	int i, j, n = 0;

	for (i = 0; i < nsamples; i++) {
		for (j = 0; j < i && samples[j].cookie != samples[i].cookie; j++)
			;
		n += samples[i].cookie && j == i;
	}
	return n;
}

/* Every sample with a cookie has exactly one record of its tid and cookie,
 * after it and before any sample of that tid with another cookie. */
static int check_pairing(void)
{
	int i, j, deferred = 0;

	for (i = 0; i < nsamples; i++) {
		struct sample *s = &samples[i];
		int found = 0, at = -1;

		if (!s->cookie)
			continue;
		deferred++;
		for (j = 0; j < nrecords; j++) {
			if (records[j].tid == s->tid && records[j].cookie == s->cookie) {
				found++;
				at = j;
			}
		}
		if (!found && last_entry(s))
			continue;
		check(found == 1, "sample %d (tid %u cookie %lx): %d records", i, s->tid,
		      (unsigned long)s->cookie, found);
		if (found != 1)
			continue;
		check(records[at].pos > s->pos, "record of cookie %lx before its sample",
		      (unsigned long)s->cookie);
		for (j = i + 1; j < nsamples; j++) {
			if (samples[j].tid == s->tid && samples[j].cookie &&
			    samples[j].cookie != s->cookie) {
				check(records[at].pos < samples[j].pos,
				      "record of cookie %lx after a sample of a later entry",
				      (unsigned long)s->cookie);
				break;
			}
		}
	}
	return deferred;
}

static void check_chain(struct record *r)
{
	static const char *want[] = { "func_c", "func_b", "func_a", "run_chain" };
	unsigned int i;

	check(r->nr >= 4, "record of %lu frames", (unsigned long)r->nr);
	for (i = 0; i < 4 && i < r->nr; i++)
		check(!strcmp(sym(r->ips[i]), want[i]), "frame %u: expected %s, got %s (%lx)", i,
		      want[i], sym(r->ips[i]), (unsigned long)r->ips[i]);
}

/* The deferred unwinder's count of unwinds (0 without its test interface) */
static unsigned long read_unwinds(void)
{
	struct udt_state s;
	int fd = open(UDT_CTL, O_RDONLY);

	udt_read_state(fd, &s);
	if (fd >= 0)
		close(fd);
	return s.unwinds;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

NOINLINE void run_chain(int iterations)
{
	int i;

	for (i = 0; i < iterations; i++)
		func_a();
}

static int summary(const char *what)
{
	int i, kernel = 0, deferred = check_pairing();

	for (i = 0; i < nsamples; i++)
		kernel += samples[i].kernel;
	printf("%s: %d samples, %d in kernel, %d deferred, %d records, %d lost\n", what,
	       nsamples, kernel, deferred, nrecords, nlost);
	check(!nlost, "%d records lost", nlost);
	return deferred;
}

/* Map @fd's buffer, run the chain @calls times with @fd enabled, parse the buffer */
static void *record_chain(int fd, long calls)
{
	void *rb = map_buffer(fd);

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	run_chain(calls);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	parse_buffer(rb);
	return rb;
}

/* A task event with both bits on the process itself: samples of the chain. */
static void test_chain(void)
{
	int fd = open_event(0, -1, ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT), i, chains = 0;

	check(fd >= 0, "perf_event_open: %s", strerror(errno));
	if (fd < 0)
		return;
	record_chain(fd, 300);
	check(summary("chain") >= 20, "expected >= 20 deferred samples");
	/* deferred, or immediate when the record of the entry was written already */
	for (i = 0; i < nsamples; i++) {
		if (samples[i].kernel && samples[i].tid == (uint32_t)gettid())
			check(samples[i].cookie || samples[i].user_frames,
			      "kernel sample %d without deferred marker or user frames", i);
	}
	for (i = 0; i < nrecords; i++) {
		if (records[i].nr && !strcmp(sym(records[i].ips[0]), "func_c")) {
			check_chain(&records[i]);
			chains++;
		}
	}
	check(chains >= 10, "expected >= 10 records starting at c, got %d", chains);
	close(fd);
}

/* Many samples of two events in one long kernel entry: one record, one unwind. */
static void test_long(void)
{
	int fd = open_event(0, -1, ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT), i;
	int fd2 = open_event(0, -1, ATTR_DEFER_CALLCHAIN);
	unsigned long before, after;
	uint64_t cookie = 0;
	int same = 0;
	void *rb;

	check(fd >= 0 && fd2 >= 0, "perf_event_open: %s", strerror(errno));
	if (fd < 0 || fd2 < 0)
		return;
	rb = map_buffer(fd);
	ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fd);
	read_bytes = sizeof(buf);
	before = read_unwinds();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd2, PERF_EVENT_IOC_ENABLE, 0);
	run_chain(1);
	/*
	 * fd2 first: once fd (the one with defer_output) is off, no records are
	 * written, and fd2's samples of later entries would have none.
	 */
	ioctl(fd2, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	after = read_unwinds();
	parse_buffer(rb);
	summary("long");
	/* the entry with the most samples is the long read */
	for (i = 0; i < nsamples; i++) {
		int n = 0, j;

		for (j = 0; j < nsamples; j++)
			n += samples[i].cookie && samples[j].cookie == samples[i].cookie;
		if (n > same) {
			same = n;
			cookie = samples[i].cookie;
		}
	}
	check(same >= 4, "expected >= 4 samples (of 2 events) in one entry, got %d", same);
	for (i = 0; i < nrecords && records[i].cookie != cookie; i++)
		;
	check(i < nrecords, "no record for the long entry");
	if (i < nrecords)
		check_chain(&records[i]);
	/* entries seen: the read plus the ioctls' own small ones */
	printf("unwinds %lu -> %lu, entries %d, records %d\n", before, after, entries(), nrecords);
	if (access(UDT_CTL, F_OK))
		printf("no %s (the test interface, not on this kernel): unwinds not counted\n",
		       UDT_CTL);
	else
		check(after - before == (unsigned long)entries(),
		      "expected one unwind per entry (%d), got %lu", entries(), after - before);
	close(fd2);
	close(fd);
}

/* CPU-wide event on CPU 0 with the workload pinned there. */
static void test_cpuwide(void)
{
	int fd = open_event(-1, 0, ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT), i, mine = 0;

	pin_cpu0();
	check(fd >= 0, "perf_event_open: %s", strerror(errno));
	if (fd < 0)
		return;
	record_chain(fd, 200);
	check(summary("cpuwide") >= 10, "expected >= 10 deferred samples");
	for (i = 0; i < nrecords; i++) {
		if (records[i].tid == (uint32_t)gettid() && records[i].nr &&
		    !strcmp(sym(records[i].ips[0]), "func_c")) {
			check_chain(&records[i]);
			mine++;
		}
	}
	check(mine >= 5, "expected >= 5 records of the chain, got %d", mine);
	close(fd);
}

static void *chain_thread(void *arg)
{
	run_chain((long)arg);
	return NULL;
}

/*
 * Inherited event: threads and a forked child report into the parent's
 * buffer. An inherited event must be per CPU to have a buffer: all tasks
 * run on CPU 0, so that the records land in the one buffer.
 */
static void test_inherit(void)
{
	int fd, ntids = 0, i, j, status;
	uint32_t tids[64];
	pthread_t th[3];
	pid_t pid;
	void *rb;

	pin_cpu0();
	fd = open_event(0, 0, ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT | ATTR_INHERIT);
	check(fd >= 0, "perf_event_open inherit: %s", strerror(errno));
	if (fd < 0)
		return;
	rb = map_buffer(fd);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, chain_thread, (void *)100L);
	pid = fork();
	if (!pid) {
		run_chain(100);
		_exit(0);
	}
	run_chain(50);
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	waitpid(pid, &status, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	parse_buffer(rb);
	summary("inherit");
	for (i = 0; i < nrecords; i++) {
		for (j = 0; j < ntids && tids[j] != records[i].tid; j++)
			;
		if (j == ntids && ntids < 64 && records[i].nr && !strcmp(sym(records[i].ips[0]), "func_c"))
			tids[ntids++] = records[i].tid;
	}
	printf("threads and processes with chain records: %d\n", ntids);
	check(ntids >= 5, "expected chain records from 5 tasks (main, 3 threads, child), got %d",
	      ntids);
	close(fd);
}

/* Without defer_callchain: immediate callchains, no marker, no records. */
static void test_plain(void)
{
	int fd = open_event(0, -1, ATTR_DEFER_OUTPUT), i, full = 0;

	check(fd >= 0, "perf_event_open: %s", strerror(errno));
	if (fd < 0)
		return;
	record_chain(fd, 200);
	check(summary("plain") == 0, "deferred marker without defer_callchain");
	check(nrecords == 0, "%d deferred records without defer_callchain", nrecords);
	for (i = 0; i < nsamples; i++)
		full += samples[i].kernel && samples[i].user_frames >= 4 &&
			!strcmp(sym(samples[i].first_user), "func_c");
	check(full >= 10, "expected >= 10 immediate kernel+user chains from c, got %d", full);
	close(fd);
}

/* Run the chain with an event of @flags; return its number of samples. */
static int run_event(uint64_t flags)
{
	int fd = open_event(0, -1, flags);
	void *rb;

	check(fd >= 0, "perf_event_open flags %llx sample_type %llx exclude_callchain_user %u: %s",
	      (unsigned long long)flags, (unsigned long long)sample_type, exclude_user_chain,
	      strerror(errno));
	if (fd < 0)
		return 0;
	nsamples = nrecords = 0;
	rb = record_chain(fd, 200);
	munmap(rb, (DATA_PAGES + 1) * 4096L);
	close(fd);
	return nsamples;
}

/*
 * Mainline's semantics: bits 38 and 39 are accepted whatever the sample type
 * and exclusions, and nothing is deferred where there is no user callchain;
 * unknown bits are EINVAL.
 */
static void test_einval(void)
{
	struct perf_event_attr attr;
	uint64_t *bits;
	int fd, i, n;

	/* mainline perf's probe: type and config, disabled, defer_callchain */
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.disabled = 1;
	bits = (uint64_t *)((char *)&attr.read_format + sizeof(attr.read_format));
	*bits |= ATTR_DEFER_CALLCHAIN;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	check(fd >= 0, "mainline perf's probe (defer_callchain alone): %s", strerror(errno));
	close(fd);
	*bits |= 1ULL << 40;	/* still reserved */
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	check(fd < 0 && errno == EINVAL, "reserved bit 40: fd %d", fd);
	*bits = ATTR_DEFER_OUTPUT;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	check(fd >= 0, "defer_output alone: %s", strerror(errno));
	close(fd);

	/* samples without a callchain: nothing deferred */
	sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	n = run_event(ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT);
	printf("without PERF_SAMPLE_CALLCHAIN: %d samples, %d records\n", n, nrecords);
	check(n >= 10 && !nrecords, "expected >= 10 samples and no record, got %d and %d", n,
	      nrecords);

	/* user callchains excluded: kernel callchains, nothing deferred */
	sample_type |= PERF_SAMPLE_CALLCHAIN;
	exclude_user_chain = 1;
	n = run_event(ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT);
	printf("with exclude_callchain_user: %d samples, %d records\n", n, nrecords);
	check(n >= 10 && !nrecords, "expected >= 10 samples and no record, got %d and %d", n,
	      nrecords);
	for (i = 0; i < nsamples; i++)
		check(!samples[i].cookie && !samples[i].user_ctx,
		      "sample %d has a user part (cookie %llx)", i,
		      (unsigned long long)samples[i].cookie);
	exclude_user_chain = 0;
}

/*
 * sample_max_stack never cuts the deferred marker and cookie (context
 * entries, like PERF_CONTEXT_USER): every kernel sample keeps its user part.
 */
static void test_maxstack(void)
{
	int i, deferred;

	for (max_stack = 1; max_stack <= 3; max_stack++) {
		run_event(ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT);
		deferred = check_pairing();
		printf("sample_max_stack %u: %d samples, %d deferred, %d records\n", max_stack,
		       nsamples, deferred, nrecords);
		check(deferred >= 10, "max_stack %u: expected >= 10 deferred samples, got %d",
		      max_stack, deferred);
		for (i = 0; i < nsamples; i++) {
			struct sample *s = &samples[i];

			check(s->cookie || s->user_ctx,
			      "max_stack %u: sample %d (%d frames) lost its user part", max_stack, i,
			      s->frames);
			check(s->frames <= (int)max_stack, "max_stack %u: sample %d has %d frames",
			      max_stack, i, s->frames);
		}
	}
	max_stack = 0;
}

static int ping[2], pong[2];

static void *pong_thread(void *arg)
{
	char c;

	(void)arg;
	while (read(ping[0], &c, 1) == 1 && write(pong[1], &c, 1) == 1)
		;
	return NULL;
}

/*
 * Context-switch samples are taken with the runqueue lock held: the
 * request must not allocate there (on debug kernels a splat or deadlock).
 */
static void test_cswitch(void)
{
	int fd = open_sw_event(PERF_COUNT_SW_CONTEXT_SWITCHES, 1, 0, -1,
			       ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT);
	int i, deferred;
	pthread_t th;
	char c = 0;
	void *rb;

	check(fd >= 0, "perf_event_open: %s", strerror(errno));
	if (fd < 0 || pipe(ping) || pipe(pong))
		return;
	pin_cpu0();		/* the thread too: every round trip switches */
	pthread_create(&th, NULL, pong_thread, NULL);
	rb = map_buffer(fd);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 2000; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			break;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(ping[1]);
	pthread_join(th, NULL);
	parse_buffer(rb);
	deferred = summary("cswitch");
	check(deferred >= 1000, "expected >= 1000 deferred context-switch samples, got %d",
	      deferred);
	for (i = 0; i < nsamples; i++)
		check(samples[i].cookie || samples[i].user_ctx, "sample %d without a user part", i);
	close(fd);
}

/*
 * Close events and exit tasks while callbacks are pending, in loops: each of
 * the six combinations of closing and exit 10 times (4 on the debug kernel).
 */
static void test_teardown(void)
{
	int i, status, rounds = debug_kernel() ? 24 : 60;

	read_bytes = sizeof(buf);
	for (i = 0; i < rounds; i++) {
		pid_t pid = fork();

		if (!pid) {
			int fd = open_event(0, -1, ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT);
			pthread_t th;

			if (fd < 0)
				_exit(3);
			map_buffer(fd);
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			pthread_create(&th, NULL, chain_thread, (void *)1000L);
			func_a();
			if (i & 1)
				close(fd);
			if (i % 3 == 0)
				syscall(SYS_exit_group, 0);	/* the thread dies in its read */
			_exit(0);
		}
		waitpid(pid, &status, 0);
		check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d status %x", i, status);
	}
}

#ifdef __x86_64__
NOINLINE void entry_leaf(void)
{
	keep_frame();
}

/*
 * Call entry_leaf on a stack of our own whose return address slot is the
 * last word of a touched page, so that the push of the frame pointer, the
 * leaf's first instruction, faults on the untouched page below it.
 */
NOINLINE void entry_caller(unsigned long stack_top)
{
	asm volatile("mov %%rsp, %%r12\n\tmov %0, %%rsp\n\tcall entry_leaf\n\tmov %%r12, %%rsp"
		     : : "r"(stack_top)
		     : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
		       "memory", "cc");
	keep_frame();
}

/* A page fault at a function's first instruction: its caller is not skipped. */
static void test_entry(void)
{
	char *stack = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd, i, found = 0;
	void *rb;

	fd = open_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 1, 0, -1,
			   ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT);
	check(fd >= 0 && stack != MAP_FAILED, "setup: %s", strerror(errno));
	if (fd < 0 || stack == MAP_FAILED)
		return;
	stack[4096] = 1;		/* the upper page is present, the lower not */
	rb = map_buffer(fd);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	entry_caller((unsigned long)stack + 4096 + 8);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	parse_buffer(rb);
	summary("entry");
	for (i = 0; i < nrecords; i++) {
		struct record *r = &records[i];

		if (!r->nr || r->ips[0] != (uintptr_t)entry_leaf)
			continue;
		found++;
		printf("fault at entry_leaf: then %s, %s\n", sym(r->ips[1]), sym(r->ips[2]));
		check(r->nr >= 3 && !strcmp(sym(r->ips[1]), "entry_caller"),
		      "after entry_leaf: expected entry_caller, got %s", sym(r->ips[1]));
	}
	check(found == 1, "expected 1 record of the fault at entry_leaf, got %d", found);
	close(fd);
}
#else
static void test_entry(void)
{
	printf("entry: 64-bit only\n");
}
#endif

static void on_signal(int sig)
{
	(void)sig;
}

/* The kill(2) of test_late: the innermost user frame of its samples */
NOINLINE void late_kill(void)
{
	raw_syscall3(SYS_kill, getpid(), SIGUSR1, 0);
	keep_frame();
}

/*
 * A sample taken after perf's deferred unwind of its entry context was
 * delivered: kill(2) of the task itself, sampled at its system call entry
 * (a deferred request), then at signal_deliver on the way out. get_signal()
 * runs the task work, perf's callback and its record, before it delivers
 * the signal, so the signal_deliver sample comes after its entry's record.
 * It must not be marked deferred (no record follows it): it carries the
 * entry's user stack itself, from late_kill.
 */
static void test_late(void)
{
	const int rounds = 200;
	int fd = open_tracepoint("syscalls/sys_enter_kill", ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT);
	int fd2 = open_tracepoint("signal/signal_deliver", ATTR_DEFER_CALLCHAIN);
	int i, deferred, immediate = 0, in_late_kill = 0;
	void *rb;

	check(fd >= 0 && fd2 >= 0, "perf_event_open: %s", strerror(errno));
	if (fd < 0 || fd2 < 0)
		return;
	signal(SIGUSR1, on_signal);
	rb = map_buffer(fd);
	ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fd);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd2, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < rounds; i++)
		late_kill();
	ioctl(fd2, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	parse_buffer(rb);
	deferred = summary("late");
	for (i = 0; i < nsamples; i++) {
		if (samples[i].cookie)
			continue;
		immediate++;
		in_late_kill += samples[i].user_frames && !strcmp(sym(samples[i].first_user), "late_kill");
	}
	printf("late: %d deferred (system call entries), %d with their user stack (%d from late_kill)\n",
	       deferred, immediate, in_late_kill);
	check(nsamples == 2 * rounds, "expected %d samples, got %d", 2 * rounds, nsamples);
	check(deferred == rounds, "expected %d deferred samples (one per kill), got %d", rounds,
	      deferred);
	check(in_late_kill == rounds, "expected %d signal_deliver samples with the user stack from "
	      "late_kill, got %d", rounds, in_late_kill);
	close(fd2);
	close(fd);
}

static char *self;	/* argv[0], for the subtests that run the program again */

/* execve() of this program ("nothing"), by a raw system call right here */
NOINLINE void exec_caller(void)
{
	char *argv[] = { self, "nothing", NULL };
	extern char **environ;

	raw_syscall3(SYS_execve, (long)"/proc/self/exe", (long)argv, (long)environ);
	_exit(127);
}

/*
 * A sample of an execve() (its entry tracepoint, in a child that inherits the event)
 * is deferred: its record must hold the user stack of the old image, which made the
 * system call from exec_caller, not the new image's (the task work that delivers it
 * would run with the new image's registers).
 */
static void test_exec(void)
{
	long id = tracepoint_id("syscalls/sys_enter_execve");
	int fd, status, i, deferred, in_caller = 0;
	pid_t pid;
	void *rb;

	check(id >= 0, "no tracepoint syscalls/sys_enter_execve");
	if (id < 0)
		return;
	/* an inherited event is mapped per CPU */
	pin_cpu0();
	fd = open_typed_event(PERF_TYPE_TRACEPOINT, id, 1, 0, 0,
			      ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT | ATTR_INHERIT);
	check(fd >= 0, "perf_event_open: %s", strerror(errno));
	if (fd < 0)
		return;
	rb = map_buffer(fd);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pid = fork();
	if (!pid)
		exec_caller();
	waitpid(pid, &status, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	parse_buffer(rb);
	check(WIFEXITED(status) && !WEXITSTATUS(status), "child: status %x", status);
	deferred = summary("exec");
	check(deferred == 1, "expected 1 deferred sample (the execve), got %d", deferred);
	for (i = 0; i < nrecords; i++) {
		printf("record of cookie %lx: %lu frames, the first %lx %s\n",
		       (unsigned long)records[i].cookie, (unsigned long)records[i].nr,
		       records[i].nr ? (unsigned long)records[i].ips[0] : 0UL,
		       records[i].nr ? sym(records[i].ips[0]) : "-");
		in_caller += records[i].nr && !strcmp(sym(records[i].ips[0]), "exec_caller");
	}
	check(nrecords == 1 && in_caller == 1,
	      "expected 1 record starting in the old image's exec_caller, got %d of %d",
	      in_caller, nrecords);
	close(fd);
}

typedef void (*record_fn)(const struct perf_event_header *h, const uint64_t *p, void *arg);

/*
 * Every record in the buffer at @base, copied out of the ring, then consumed:
 * @fn gets its header and its body.
 */
static void for_each_record(void *base, record_fn fn, void *arg)
{
	const uint64_t size = DATA_PAGES * 4096UL;
	struct perf_event_mmap_page *pg = base;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), off = pg->data_tail;
	char *data = (char *)base + 4096;
	static uint64_t rec[65536 / 8];

	check(head - off <= size, "buffer wrapped: head %llu tail %llu", (unsigned long long)head,
	      (unsigned long long)off);
	while (head - off <= size && off < head) {
		struct perf_event_header *h = (void *)&data[off % size];
		size_t j;

		if (h->size < sizeof(*h) || h->size % 8) {
			check(0, "record of size %u", h->size);
			break;
		}
		for (j = 0; j < h->size; j++)
			((char *)rec)[j] = data[(off + j) % size];
		fn((void *)rec, rec + 1, arg);
		off += h->size;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
}

#define MAX_COOKIES 4096

/* One of test_swshare's events and what its buffer holds */
struct swring {
	const char *name;
	int fd, defer;		/* defer: with defer_callchain and defer_output */
	void *rb;
	uint64_t type, id, other_id;
	int samples, other, badsize, badtid, marked, immediate, records;
	int ncookies, nrecs;
	uint64_t cookies[MAX_COOKIES], rec_cookies[MAX_COOKIES];
};

static struct swring swrings[2];

/* A record of a test_swshare event's buffer: whose, how large, which callchain */
static void swshare_record(const struct perf_event_header *h, const uint64_t *p, void *arg)
{
	unsigned int words = (h->size - sizeof(*h)) / 8, i;
	struct swring *r = arg;
	/* IDENTIFIER, IP, TID, TIME if asked for, then the callchain */
	unsigned int n = 3 + !!(r->type & PERF_SAMPLE_TIME);
	const uint64_t *ips;
	uint64_t nr;

	if (h->type == RECORD_CALLCHAIN_DEFERRED) {
		r->records++;
		if (r->nrecs < MAX_COOKIES)
			r->rec_cookies[r->nrecs++] = p[0];
		return;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return;
	r->samples++;
	if (p[0] != r->id && !r->other++)
		r->other_id = p[0];
	if (words < n + 1 || (nr = p[n]) != words - n - 1) {
		r->badsize++;
		return;
	}
	if ((uint32_t)(p[2] >> 32) != (uint32_t)gettid())
		r->badtid++;
	ips = p + n + 1;
	if (nr >= 2 && ips[nr - 2] == CONTEXT_USER_DEFERRED && ips[nr - 1]) {
		r->marked++;
		if (r->ncookies < MAX_COOKIES)
			r->cookies[r->ncookies++] = ips[nr - 1];
		return;
	}
	for (i = 0; i < nr && ips[i] != PERF_CONTEXT_USER; i++)
		;
	r->immediate += i + 1 < nr;
}

/* Write to @n fresh pages at @p: @n page faults */
NOINLINE void touch_pages(volatile char *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i * 4096L] = 1;
	keep_frame();
}

#define SW_FAULTS 200

/*
 * Two task-bound page fault events, a sample per fault, each with its own
 * buffer: every sample in a buffer is its own event's (its identifier, the
 * size its sample_type makes, its own kind of callchain), >= 200 each.
 * Software events share one perf_sample_data per overflow in
 * do_perf_sw_event(): the event handed the data second must still get a
 * sample prepared for itself. With @defer, the first event has
 * defer_callchain (and defer_output): its samples end with the deferred
 * marker and a cookie whose record is in its buffer, the other's have
 * immediate user callchains.
 */
static void swshare(int defer)
{
	char *pages = mmap(NULL, SW_FAULTS * 4096L, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const uint64_t base = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			      PERF_SAMPLE_CALLCHAIN;
	int k, i, j;

	check(pages != MAP_FAILED, "mmap: %s", strerror(errno));
	if (pages == MAP_FAILED)
		return;
	swrings[0].name = "first";
	swrings[0].type = base;
	swrings[0].defer = defer;
	swrings[1].name = "second";
	swrings[1].type = base | PERF_SAMPLE_TIME;
	for (k = 0; k < 2; k++) {
		struct swring *r = &swrings[k];

		sample_type = r->type;
		r->fd = open_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 1, 0, -1,
				      r->defer ? ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT : 0);
		check(r->fd >= 0, "perf_event_open of the %s event: %s", r->name, strerror(errno));
		if (r->fd < 0)
			return;
		check(!ioctl(r->fd, PERF_EVENT_IOC_ID, &r->id), "PERF_EVENT_IOC_ID: %s",
		      strerror(errno));
		r->rb = map_buffer(r->fd);
	}
	ioctl(swrings[0].fd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(swrings[1].fd, PERF_EVENT_IOC_ENABLE, 0);
	touch_pages(pages, SW_FAULTS);
	/* the second first: records come while the defer_output event is on */
	ioctl(swrings[1].fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(swrings[0].fd, PERF_EVENT_IOC_DISABLE, 0);

	for (k = 0; k < 2; k++) {
		struct swring *r = &swrings[k];

		for_each_record(r->rb, swshare_record, r);
		printf("%s event (id %llx, sample_type %llx%s): %d samples, %d of another id (%llx), %d of a size not its sample_type's, %d of another task, %d deferred, %d immediate user callchains, %d deferred records\n",
		       r->name, (unsigned long long)r->id, (unsigned long long)r->type,
		       r->defer ? ", defer_callchain" : "", r->samples, r->other,
		       (unsigned long long)r->other_id, r->badsize, r->badtid, r->marked,
		       r->immediate, r->records);
	}
	for (k = 0; k < 2; k++) {
		struct swring *r = &swrings[k];

		check(r->samples >= SW_FAULTS, "the %s event's buffer: expected >= %d samples, got %d",
		      r->name, SW_FAULTS, r->samples);
		check(!r->other,
		      "the %s event's buffer: %d of its %d samples carry id %llx (the %s event's: %llx), not its own %llx",
		      r->name, r->other, r->samples, (unsigned long long)r->other_id,
		      swrings[!k].name, (unsigned long long)swrings[!k].id,
		      (unsigned long long)r->id);
		check(!r->badsize, "the %s event's buffer: %d samples of a size that its sample_type %llx does not make",
		      r->name, r->badsize, (unsigned long long)r->type);
		check(!r->badtid, "the %s event's buffer: %d samples of another task", r->name,
		      r->badtid);
		if (r->defer) {
			check(r->marked == r->samples,
			      "the %s event (defer_callchain): %d of its %d samples end with the deferred marker and a cookie",
			      r->name, r->marked, r->samples);
			for (i = 0; i < r->ncookies; i++) {
				for (j = 0; j < r->nrecs && r->rec_cookies[j] != r->cookies[i]; j++)
					;
				check(j < r->nrecs, "the %s event: no deferred record of cookie %llx",
				      r->name, (unsigned long long)r->cookies[i]);
			}
		} else {
			check(r->immediate == r->samples && !r->marked,
			      "the %s event: %d of its %d samples with immediate user callchains, %d with the deferred marker",
			      r->name, r->immediate, r->samples, r->marked);
			check(!r->records, "the %s event (no defer_output): %d deferred records",
			      r->name, r->records);
		}
		close(r->fd);
	}
	munmap(pages, SW_FAULTS * 4096L);
}

static void test_swshare(void)
{
	swshare(0);
}

static void test_swshare_defer(void)
{
	swshare(1);
}

/*
 * @n times read(2) of 4 KiB of /dev/zero with the frame pointer at @fp all the
 * while: samples in the loop, in the kernel or not, walk the frames at @fp.
 */
NOINLINE void fp_syscalls(unsigned long fp, long n)
{
	long ret;

#ifdef __x86_64__
	asm volatile("sub $128, %%rsp\n\t"	/* below the red zone */
		     "push %%rbp\n\t"
		     "mov %[fp], %%rbp\n"
		     "1:\n\t"
		     "mov %[nr], %%eax\n\t"
		     "syscall\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b\n\t"
		     "pop %%rbp\n\t"
		     "add $128, %%rsp"
		     : "=&a"(ret), [n] "+r"(n)
		     : [nr] "i"(SYS_read), "D"((long)zero_fd), "S"(buf), "d"(4096L), [fp] "r"(fp)
		     : "rcx", "r11", "memory", "cc");
#else
	asm volatile("push %%ebp\n\t"
		     "mov %[fp], %%ebp\n"
		     "1:\n\t"
		     "mov %[nr], %%eax\n\t"
		     "int $0x80\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b\n\t"
		     "pop %%ebp"
		     : "=&a"(ret), [n] "+r"(n)
		     : [nr] "i"(SYS_read), "b"((long)zero_fd), "c"(buf), "d"(4096L), [fp] "r"(fp)
		     : "memory", "cc");
#endif
	(void)ret;
	keep_frame();
}

/*
 * The user parts of callchains (after PERF_CONTEXT_USER in samples, the
 * records' entries) seen by test_user_only and test_no_stale. Walks through
 * made-up frames are told apart by their second entry: uw_v1 (the shallow
 * chain: exactly [ip, uw_v1]), or uw_deep + 1 (the deep chain: uw_deep_n
 * return addresses uw_deep + 16 * i + 1).
 */
struct uwalk {
	const char *what;	/* "immediate" or "deferred" */
	int samples, marked, records, walks;
	int bad;		/* entries that are not user addresses, or planted */
	int shallow, shallow_bad, deep, deep_bad;
};

static unsigned long uw_v1, uw_deep;
static unsigned int uw_deep_n;

static void print_walk(const char *why, const struct uwalk *w, const uint64_t *u, uint64_t n)
{
	uint64_t k;

	printf("%s (%s): %llu entries:", why, w->what, (unsigned long long)n);
	for (k = 0; k < n && k < 8; k++)
		printf(" %llx", (unsigned long long)u[k]);
	printf("%s\n", n > 8 ? " ..." : "");
}

/* A user part: @n entries at @u; @record: a deferred record (else a sample's) */
static void check_user_part(struct uwalk *w, const uint64_t *u, uint64_t n, int record)
{
	uint64_t k;
	int ok;

	w->walks++;
	for (k = 0; k < n; k++) {
		if (bad_user_ip(u[k]) && w->bad++ < 5) {
			print_walk("not a user address, or planted", w, u, n);
			printf("    entry %llu: %llx\n", (unsigned long long)k,
			       (unsigned long long)u[k]);
		}
	}
	if (n >= 2 && u[1] == uw_v1) {
		w->shallow++;
		if (n != 2 && w->shallow_bad++ < 5)
			print_walk("expected exactly [ip, made-up frame]", w, u, n);
	} else if (uw_deep_n && n >= 2 && u[1] - uw_deep < 16 * uw_deep_n) {
		w->deep++;
		/* immediate walks end at perf_event_max_stack */
		ok = record ? n == uw_deep_n + 1 : n <= uw_deep_n + 1;
		for (k = 1; k < n; k++)
			ok &= u[k] == uw_deep + 16 * (k - 1) + 1;
		if (!ok && w->deep_bad++ < 5)
			print_walk("not the deep chain", w, u, n);
	}
}

/* A record of test_user_only's or test_no_stale's buffers (IP|TID|CALLCHAIN) */
static void user_record(const struct perf_event_header *h, const uint64_t *p, void *arg)
{
	uint64_t words = (h->size - sizeof(*h)) / 8, nr, i;
	struct uwalk *w = arg;

	if (h->type == RECORD_CALLCHAIN_DEFERRED) {
		w->records++;
		if (words >= 2 && p[1] <= words - 2)
			check_user_part(w, p + 2, p[1], 1);
		else
			check(0, "deferred record of %llu words with nr %llu",
			      (unsigned long long)words, (unsigned long long)p[1]);
		return;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return;
	w->samples++;
	nr = words >= 3 ? p[2] : 0;
	if (words < 3 || nr > words - 3) {
		check(0, "sample of %llu words with nr %llu", (unsigned long long)words,
		      (unsigned long long)nr);
		return;
	}
	p += 3;
	for (i = 0; i < nr && p[i] != PERF_CONTEXT_USER; i++)
		;
	if (i + 1 < nr)
		check_user_part(w, p + i + 1, nr - i - 1, 0);
	else if (nr >= 2 && p[nr - 2] == CONTEXT_USER_DEFERRED)
		w->marked++;
}

/* Immediate and deferred cpu-clock events, IP|TID|CALLCHAIN, each with a buffer */
static int uw_fd[2];
static void *uw_rb[2];

static int open_uw_events(void)
{
	int k;

	sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	for (k = 0; k < 2; k++) {
		uw_fd[k] = open_event(0, -1, k ? ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT : 0);
		check(uw_fd[k] >= 0, "perf_event_open: %s", strerror(errno));
		if (uw_fd[k] < 0)
			return -1;
		uw_rb[k] = map_buffer(uw_fd[k]);
	}
	for (k = 0; k < 2; k++)
		ioctl(uw_fd[k], PERF_EVENT_IOC_ENABLE, 0);
	return 0;
}

static void close_uw_events(void)
{
	int k;

	for (k = 0; k < 2; k++) {
		ioctl(uw_fd[k], PERF_EVENT_IOC_DISABLE, 0);
		munmap(uw_rb[k], (DATA_PAGES + 1) * 4096L);
		close(uw_fd[k]);
	}
}

static void drain_uw(struct uwalk *w)
{
	for_each_record(uw_rb[0], user_record, &w[0]);
	for_each_record(uw_rb[1], user_record, &w[1]);
}

static void report_uw(const char *what, const struct uwalk *w, int min)
{
	int k;

	for (k = 0; k < 2; k++) {
		printf("%s, %s: %d samples (%d deferred), %d records, %d user walks: %d through the shallow made-up chain (%d not exactly it), %d through the deep one (%d not exactly it), %d entries not user addresses or planted\n",
		       what, w[k].what, w[k].samples, w[k].marked, w[k].records, w[k].walks,
		       w[k].shallow, w[k].shallow_bad, w[k].deep, w[k].deep_bad, w[k].bad);
		check(!w[k].bad, "%s, %s: %d user callchain entries are not user addresses or planted (>= %llx or one of the planted values)",
		      what, w[k].what, w[k].bad, USER_ADDR_LIMIT);
		check(w[k].shallow >= min, "%s, %s: expected >= %d walks through the made-up frames, got %d",
		      what, w[k].what, min, w[k].shallow);
		check(!w[k].shallow_bad, "%s, %s: %d of %d walks through the made-up frames are not exactly [ip, %lx]",
		      what, w[k].what, w[k].shallow_bad, w[k].shallow, uw_v1);
		if (uw_deep_n) {
			check(w[k].deep >= min, "%s, %s: expected >= %d walks through the deep chain, got %d",
			      what, w[k].what, min, w[k].deep);
			check(!w[k].deep_bad, "%s, %s: %d of %d walks through the deep chain are not exactly it",
			      what, w[k].what, w[k].deep_bad, w[k].deep);
		}
	}
}

/*
 * Made-up frames whose return addresses are [a frame, a planted value, a
 * frame], sampled by cpu-clock with immediate and with deferred callchains:
 * every walk through them is exactly [ip, the first frame]: it ends at the
 * planted value; no user part of a sample nor deferred record holds an
 * address >= USER_ADDR_LIMIT or a planted value.
 */
static void test_user_only(void)
{
	unsigned long f[6], ras[3], fp;
	unsigned int k, round;

	if (open_uw_events())
		return;
	uw_v1 = (unsigned long)func_a + 1;
	for (k = 0; k < NR_PLANTED; k++) {
		struct uwalk w[2] = { { .what = "immediate" }, { .what = "deferred" } };
		char what[64];

		ras[0] = uw_v1;
		ras[1] = planted_ra(k);
		ras[2] = (unsigned long)func_b + 1;
		fp = fake_frames(f, ras, 3);
		for (round = 0; round < 400 && (w[0].shallow < 20 || w[1].shallow < 20); round++) {
			fp_syscalls(fp, 500);
			drain_uw(w);
		}
		snprintf(what, sizeof(what), "planted %lx", planted_ra(k));
		report_uw(what, w, 20);
	}
	close_uw_events();
}

#define DEEP_FRAMES 200

/*
 * Consecutive walks of a deep stack (200 made-up frames, return addresses in
 * an executable mapping of their own) and a shallow one (one made-up frame),
 * alternating: each walk holds exactly its own frames, the shallow ones nothing
 * of the deep ones past their end, in immediate samples and deferred records.
 */
static void test_no_stale(void)
{
	unsigned long deep[2 * DEEP_FRAMES], shallow[2], ras[DEEP_FRAMES], fp_deep, fp_shallow;
	struct uwalk w[2] = { { .what = "immediate" }, { .what = "deferred" } };
	char *code = mmap(NULL, 65536, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int i, round;

	check(code != MAP_FAILED, "mmap: %s", strerror(errno));
	if (code == MAP_FAILED || open_uw_events())
		return;
	uw_v1 = (unsigned long)func_a + 1;
	uw_deep = (unsigned long)code;
	uw_deep_n = DEEP_FRAMES;
	for (i = 0; i < DEEP_FRAMES; i++)
		ras[i] = uw_deep + 16 * i + 1;
	fp_deep = fake_frames(deep, ras, DEEP_FRAMES);
	fp_shallow = fake_frames(shallow, &uw_v1, 1);
	for (round = 0; round < 400 && (w[0].shallow < 20 || w[1].shallow < 20 ||
					w[0].deep < 20 || w[1].deep < 20); round++) {
		for (i = 0; i < 250; i++) {
			fp_syscalls(fp_deep, 1);
			fp_syscalls(fp_shallow, 1);
		}
		drain_uw(w);
	}
	report_uw("deep and shallow", w, 20);
	close_uw_events();
}

int main(int argc, char **argv)
{
	/* the subtests, which tests/run.sh runs as perf-defer-NAME (-32) */
	static const struct subtest tests[] = {
		/* samples of the chain, with deferred records (64- and 32-bit) */
		{ "chain", test_chain, SUBTEST_64 | SUBTEST_32 },
		{ "long", test_long, SUBTEST_64 },
		{ "cpuwide", test_cpuwide, SUBTEST_64 },
		{ "inherit", test_inherit, SUBTEST_64 },
		{ "plain", test_plain, SUBTEST_64 },
		/*
		 * bits 38/39 accepted whatever the sample type and exclusions (mainline's
		 * probe included), nothing deferred without a user callchain, unknown bits
		 * EINVAL
		 */
		{ "einval", test_einval, SUBTEST_64 },
		{ "teardown", test_teardown, SUBTEST_64 },
		/* a page fault at a function's first instruction */
		{ "entry", test_entry, SUBTEST_64 },
		/* sample_max_stack never cuts the deferred marker and cookie */
		{ "maxstack", test_maxstack, SUBTEST_64 },
		/* deferred callchains of context-switch samples (taken under the runqueue lock) */
		{ "cswitch", test_cswitch, SUBTEST_64 },
		/*
		 * two page fault events, one sample per fault each: every sample in
		 * a buffer is its own event's (identifier, size, callchain)
		 */
		{ "swshare", test_swshare, SUBTEST_64 | SUBTEST_32 },
		/* the same, the first event with defer_callchain */
		{ "swshare-defer", test_swshare_defer, SUBTEST_64 | SUBTEST_32 },
		/* walks end at a return address that is not a user one (made-up frames) */
		{ "user-only", test_user_only, SUBTEST_64 | SUBTEST_32 },
		/* alternating deep and shallow stacks: each walk holds its own frames only */
		{ "no-stale", test_no_stale, SUBTEST_64 | SUBTEST_32 },
		/*
		 * a sample after its entry's record (signal delivery) is not deferred
		 * (64-bit: syscalls:sys_enter_* does not fire for ia32 system calls)
		 */
		{ "late", test_late, SUBTEST_64 },
		/* the deferred stack of an execve() sample is the old image's */
		{ "exec", test_exec, SUBTEST_64 },
	};
	const struct subtest *t = subtest_find(tests, sizeof(tests) / sizeof(tests[0]), argv[1]);

	self = argv[0];
	if (argc > 1 && !strcmp(argv[1], "nothing"))
		return 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_name = argc > 1 ? argv[1] : "";
	if (!t) {
		printf("FAIL: unknown test '%s'\n", check_name);
		return 2;
	}
	zero_fd = open("/dev/zero", O_RDONLY);
	t->fn();
	return check_end();
}
