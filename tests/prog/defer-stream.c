// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a crafted pipe-mode perf.data stream to stdout, for `perf script -i -`: samples
 * with deferred user callchains (PERF_CONTEXT_USER_DEFERRED, cookie) and their
 * PERF_RECORD_CALLCHAIN_DEFERRED records, around the events that end a thread's kernel
 * entry without its record: the tid reused by a new thread (EXIT, FORK), an exec (COMM
 * with PERF_RECORD_MISC_COMM_EXEC), a sample of a new entry (another cookie); and a
 * plain rename (COMM without the flag), which must not end the entry.
 * tests/cases/perf-defer-stream.sh has the expected perf script output.
 * Time stamps are 1 s apart, so sample N is printed at time N.000000000.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The ABI (include/uapi/linux/perf_event.h), spelled out for older headers */
#define ATTR_DEFER_CALLCHAIN	(1ULL << 38)
#define ATTR_DEFER_OUTPUT	(1ULL << 39)
#define CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define RECORD_CALLCHAIN_DEFERRED 22
#define RECORD_HEADER_ATTR	64
#define ATTR_SIZE_VER8		136	/* perf 6.12's attr, with config3 */

#define KIP(n)	(0xffffffff81000000ULL + 0x100 * (n))	/* kernel frames */
#define UIP(n)	(0x401000ULL + 0x10 * (n))		/* user frames */

static uint64_t buf[64];
static unsigned int len;	/* u64 words in buf */
static uint64_t now;

static void put(uint64_t v)
{
	buf[len++] = v;
}

static void put2(uint32_t lo, uint32_t hi)
{
	put(lo | (uint64_t)hi << 32);
}

/* Start a record; emit() writes its header. */
static void begin(void)
{
	len = 1;
}

/* sample_id (sample_type TID | TIME) of a side-band record, then write it. */
static void emit(uint32_t type, uint16_t misc, uint32_t pid, uint32_t tid, int sample_id)
{
	struct perf_event_header *h = (struct perf_event_header *)buf;

	if (sample_id) {
		put2(pid, tid);
		put(now);
	}
	h->type = type;
	h->misc = misc;
	h->size = len * 8;
	fwrite(buf, 8, len, stdout);
}

static void comm(uint32_t pid, uint32_t tid, const char *name, int exec)
{
	char c[16] = "";

	now += 1000000000;
	begin();
	put2(pid, tid);
	strncpy(c, name, sizeof(c) - 1);
	memcpy(&buf[len], c, sizeof(c));
	len += sizeof(c) / 8;
	emit(PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0, pid, tid, 1);
}

static void fork_exit(uint32_t type, uint32_t pid, uint32_t tid)
{
	now += 1000000000;
	begin();
	put2(pid, 1);	/* pid, ppid */
	put2(tid, 1);	/* tid, ptid */
	put(now);
	emit(type, 0, pid, tid, 1);
}

/*
 * A sample in the kernel at KIP(k): deferred (cookie != 0: marker and cookie after
 * the kernel frames) or immediate with one user frame UIP(u).
 */
static void sample(uint32_t tid, int k, uint64_t cookie, int u)
{
	now += 1000000000;
	begin();
	put(KIP(k));			/* ip */
	put2(tid, tid);			/* pid, tid */
	put(now);			/* time */
	put(5);				/* callchain nr */
	put(PERF_CONTEXT_KERNEL);
	put(KIP(k));
	put(KIP(k) + 0x1000);
	if (cookie) {
		put(CONTEXT_USER_DEFERRED);
		put(cookie);
	} else {
		put(PERF_CONTEXT_USER);
		put(UIP(u));
	}
	emit(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, tid, tid, 0);
}

/*
 * The deferred record of COOKIE: user frames UIP(u), UIP(u + 1), claiming NR
 * of them (2; more for a crafted or truncated record).
 */
static void deferred_nr(uint32_t tid, uint64_t cookie, int u, uint64_t nr)
{
	now += 1000000000;
	begin();
	put(cookie);
	put(nr);
	put(UIP(u));
	put(UIP(u + 1));
	emit(RECORD_CALLCHAIN_DEFERRED, PERF_RECORD_MISC_USER, tid, tid, 1);
}

static void deferred(uint32_t tid, uint64_t cookie, int u)
{
	deferred_nr(tid, cookie, u, 2);
}

/* With the argument "oversized", the last record claims 16M frames and holds 2. */
int main(int argc, char **argv)
{
	int oversized = argc > 1 && !strcmp(argv[1], "oversized");
	struct perf_event_attr attr;
	uint64_t attr_words[ATTR_SIZE_VER8 / 8] = { 0 };
	uint64_t magic[2] = { 0x32454c4946524550ULL, 16 };	/* "PERFILE2", pipe header size */
	uint64_t flags;

	fwrite(magic, sizeof(magic), 1, stdout);

	memset(&attr, 0, sizeof(attr));
	attr.size = ATTR_SIZE_VER8;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CALLCHAIN;
	attr.sample_id_all = 1;
	/* the flags word follows read_format */
	memcpy(&flags, &attr.read_format + 1, sizeof(flags));
	flags |= ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT;
	memcpy(&attr.read_format + 1, &flags, sizeof(flags));
	memcpy(attr_words, &attr, sizeof(attr) < sizeof(attr_words) ? sizeof(attr) : sizeof(attr_words));
	begin();
	memcpy(&buf[len], attr_words, sizeof(attr_words));
	len += sizeof(attr_words) / 8;
	emit(RECORD_HEADER_ATTR, 0, 0, 0, 0);

	/*
	 * The tid is reused: thread 100 exits with a sample whose record never came
	 * (the EXIT is held back behind it), then a new thread 100 is forked and its
	 * first record arrives. The old sample belongs to "old" and its EXIT must
	 * not remove the new thread.
	 */
	comm(100, 100, "old", 0);	/* 1 */
	sample(100, 1, 0xa1, 0);	/* 2: unmerged, "old" */
	fork_exit(PERF_RECORD_EXIT, 100, 100);
	fork_exit(PERF_RECORD_FORK, 100, 100);
	comm(100, 100, "new", 1);
	sample(100, 2, 0xa2, 0);	/* 6: merged, "new" */
	deferred(100, 0xa2, 1);

	/* exec: a sample of the old image whose record was lost belongs to "pre". */
	comm(200, 200, "pre", 0);	/* 8 */
	sample(200, 3, 0xb1, 0);	/* 9: unmerged, "pre" */
	comm(200, 200, "post", 1);
	sample(200, 4, 0xb2, 0);	/* 11: merged, "post" */
	deferred(200, 0xb2, 3);

	/* A rename (prctl) in the middle of an entry does not end it. */
	comm(300, 300, "one", 0);	/* 13 */
	sample(300, 5, 0xc1, 0);	/* 14: merged */
	comm(300, 300, "two", 0);
	sample(300, 6, 0xc1, 0);	/* 16: merged */
	deferred(300, 0xc1, 5);

	/*
	 * A sample of a new entry (cookie d2) ends the entry of d1, whose record was
	 * lost: sample 19 is delivered then, before thread 500's sample 21.
	 */
	comm(400, 400, "four", 0);	/* 18 */
	sample(400, 7, 0xd1, 0);	/* 19: unmerged */
	sample(400, 8, 0xd2, 0);	/* 20: merged, after 21 */
	comm(500, 500, "five", 0);
	sample(500, 9, 0, 7);		/* 22: immediate */
	deferred_nr(400, 0xd2, 8, oversized ? 1ULL << 24 : 2);
	return 0;
}
