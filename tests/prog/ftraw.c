// SPDX-License-Identifier: GPL-2.0
/*
 * Raw ring-buffer pages of a trace instance (tests/cases/ftrace-delay-hole.sh).
 * Usage: ftraw fill DIR LAPS   from every CPU in turn, write LAPS times the
 *                              instance's buffer size of raw markers to
 *                              DIR/trace_marker_raw, every byte but the entries'
 *                              headers 0xa5, two markers filling a ring-buffer
 *                              page exactly: the buffer's pages hold the pattern
 *        ftraw holes DIR SYSTEM/EVENT
 *                              read DIR/per_cpu/cpuN/trace_pipe_raw (consumed) and
 *                              check every entry of the event: the bytes of its
 *                              fixed part that no field of its format
 *                              (TRACEFS/events/SYSTEM/EVENT/format) covers are 0;
 *                              prints "entries N holes H bad B" (B: entries with
 *                              a nonzero byte there), fails if B or not N
 * The page and event layouts are read from TRACEFS/events/header_page and the
 * ring buffer's event header (type_len:5, time_delta:27, array[]).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util.h"

#define TRACEFS		"/sys/kernel/tracing"
#define PATTERN		0xa5
#define MAX_FIXED	256

/* The ring buffer's event types (kernel/trace/ring_buffer.c) */
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_MISSED_MASK		(3ULL << 30)

static void die(const char *what, const char *path)
{
	printf("FAIL: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v;

	if (!f || fscanf(f, "%ld", &v) != 1)
		die("cannot read", path);
	fclose(f);
	return v;
}

/* The event ID a format file gives ("ID: N") */
static int format_id(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int id = -1;

	while (f && fgets(line, sizeof(line), f) && sscanf(line, "ID: %d", &id) != 1)
		;
	if (f)
		fclose(f);
	if (id < 0)
		die("no ID in", path);
	return id;
}

/*
 * The field NAME of a format file: its offset and size. Returns the number of
 * fields read; @cover (if not NULL) gets 1 for every byte of the fixed part
 * (below MAX_FIXED) that a field covers, *@end the end of the fixed part (the
 * largest offset + size, a dynamic array's offset included).
 */
static int read_format(const char *path, const char *want, int *off, int *size,
		       unsigned char *cover, int *end)
{
	char line[512], name[128];
	FILE *f = fopen(path, "r");
	int o, s, n = 0, i;

	if (!f)
		die("cannot open", path);
	if (end)
		*end = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "field:"), *q;

		if (!p || sscanf(line, "%*[^;];%*[ \t]offset:%d;%*[ \t]size:%d;", &o, &s) != 2)
			continue;
		/* the name: the last word before ';', without [...] */
		q = strchr(p, ';');
		*q = 0;
		q = strrchr(p, ' ');
		snprintf(name, sizeof(name), "%s", q ? q + 1 : p + 6);
		if ((q = strchr(name, '[')))
			*q = 0;
		n++;
		if (want && !strcmp(name, want)) {
			*off = o;
			*size = s;
		}
		for (i = o; cover && i < o + s && i < MAX_FIXED; i++)
			cover[i] = 1;
		if (end && o + s > *end)
			*end = o + s;
	}
	fclose(f);
	return n;
}

/* Write LAPS times the buffer of DIR in markers of two per page, from every CPU */
static int fill(const char *dir, long laps)
{
	char path[512], *buf;
	long cpus = sysconf(_SC_NPROCESSORS_CONF), kb, c, i, n;
	int off = -1, size = 0, psize, fd;
	size_t len;
	cpu_set_t set;

	snprintf(path, sizeof(path), "%s/events/header_page", TRACEFS);
	read_format(path, "data", &off, &size, NULL, NULL);
	if (off < 0)
		die("no data field in", path);
	psize = size;			/* the data of one page */
	/*
	 * A marker of len bytes (its id, then data) is an event of 20 + len bytes:
	 * its header and length (8), the entry (struct raw_data_entry, 12)
	 */
	len = psize / 2 - 20;
	snprintf(path, sizeof(path), "%s/buffer_size_kb", dir);
	kb = read_long(path);
	n = laps * kb * 1024 / (psize / 2);
	buf = malloc(len);
	memset(buf, PATTERN, len);
	snprintf(path, sizeof(path), "%s/trace_marker_raw", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die("cannot open", path);
	for (c = 0; c < cpus; c++) {
		CPU_ZERO(&set);
		CPU_SET(c, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			continue;	/* not online */
		for (i = 0; i < n; i++)
			if (write(fd, buf, len) != (ssize_t)len)
				die("cannot write to", path);
		printf("cpu %ld: %ld markers of %zu bytes\n", c, n, len);
	}
	close(fd);
	return 0;
}

/* The fixed part of the event and the bytes of it no field covers */
static unsigned char cover[MAX_FIXED];
static int fixed_end, event_id;
static long entries, bad, total_holes;

/* One entry of the event: the bytes no field covers are 0 */
static void check_entry(const unsigned char *d, unsigned int len, int cpu)
{
	int i, nonzero = 0;

	if (len < 2 || *(const uint16_t *)d != event_id)
		return;
	entries++;
	if (len < (unsigned int)fixed_end) {
		printf("cpu %d: an entry of %u bytes, shorter than its fixed part (%d)\n", cpu, len,
		       fixed_end);
		bad++;
		return;
	}
	for (i = 0; i < fixed_end; i++)
		nonzero |= !cover[i] && d[i];
	if (nonzero && bad++ < 5) {
		printf("cpu %d: entry with padding bytes", cpu);
		for (i = 0; i < fixed_end; i++)
			if (!cover[i])
				printf(" %d:%02x", i, d[i]);
		printf("\n");
	}
}

/* Every event of one page of @psize bytes; the page header as header_page says */
static void check_page(const unsigned char *page, int commit_off, int commit_size, int data_off,
		       int psize, int cpu)
{
	uint64_t commit = 0;
	const unsigned char *p = page + data_off, *end;

	memcpy(&commit, page + commit_off, commit_size);
	commit &= ~RB_MISSED_MASK;
	if (commit > (uint64_t)psize)
		commit = psize;
	end = p + commit;
	while (p + 4 <= end) {
		uint32_t h, type_len, len;

		memcpy(&h, p, 4);
		type_len = h & 0x1f;
		if (type_len == RB_TYPE_PADDING) {
			if (!(h >> 5))
				break;		/* the rest of the page */
			memcpy(&len, p + 4, 4);
			p += 4 + len;
		} else if (type_len == RB_TYPE_TIME_EXTEND || type_len == RB_TYPE_TIME_STAMP) {
			p += 8;
		} else if (type_len) {
			check_entry(p + 4, type_len * 4, cpu);
			p += 4 + type_len * 4;
		} else {
			memcpy(&len, p + 4, 4);
			if (len < 4)
				break;
			check_entry(p + 8, len - 4, cpu);
			p += 4 + len;
		}
	}
}

static int holes(const char *dir, const char *event)
{
	int commit_off = -1, commit_size = 0, data_off = -1, psize = 0, n, i, fd, cpu;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned char *page;
	char path[512];
	ssize_t got;

	snprintf(path, sizeof(path), "%s/events/header_page", TRACEFS);
	read_format(path, "commit", &commit_off, &commit_size, NULL, NULL);
	read_format(path, "data", &data_off, &psize, NULL, NULL);
	if (commit_off < 0 || data_off < 0 || commit_size > 8)
		die("unexpected", path);
	psize += data_off;

	snprintf(path, sizeof(path), "%s/events/%s/format", TRACEFS, event);
	event_id = format_id(path);
	n = read_format(path, NULL, NULL, NULL, cover, &fixed_end);
	if (n < 5 || fixed_end > MAX_FIXED)
		die("cannot make out", path);
	printf("%s: id %d, fixed part %d bytes, not covered by a field:", event, event_id,
	       fixed_end);
	for (i = 0; i < fixed_end; i++)
		if (!cover[i]) {
			printf(" %d", i);
			total_holes++;
		}
	printf("\n");

	page = malloc(psize);
	for (cpu = 0; cpu < cpus; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			continue;
		while ((got = read(fd, page, psize)) > 0) {
			if (got < data_off)
				break;
			check_page(page, commit_off, commit_size, data_off, got, cpu);
		}
		close(fd);
	}
	printf("entries %ld holes %ld bad %ld\n", entries, total_holes, bad);
	if (!entries) {
		printf("FAIL: no %s entries in %s\n", event, dir);
		return 1;
	}
	if (bad) {
		printf("FAIL: %ld of %ld %s entries have nonzero bytes where no field is: stale ring-buffer bytes\n",
		       bad, entries, event);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "fill"))
		return fill(argv[2], atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "holes"))
		return holes(argv[2], argv[3]);
	printf("usage: ftraw fill DIR LAPS | holes DIR SYSTEM/EVENT\n");
	return 2;
}
