// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open stress with random attributes, deferred callchains included.
 *
 * Usage: pstress SEED CHILDREN     (pstress exec N: the image a child execs)
 *
 * Forked children (two at a time) each open 1-4 events with random attrs: software
 * events and sched tracepoints, task-bound (maybe inherited) or CPU-wide, random
 * sample types, periods or frequencies, sample_max_stack, exclusions, side-band bits,
 * sigtrap, groups, and bits 38/39 (defer_callchain, defer_output). They map the rings,
 * enable and disable, run threads that make system calls, fault, switch and fork, read
 * the rings, and exec or exit (sometimes with exit_group while threads are in the
 * kernel, sometimes killed).
 *
 * Checked (a failure is one line "FAIL ..." and exit 1):
 *  - bits 38/39 never change whether an attr is accepted: the same attr without them
 *    gives the same result (mainline accepts them whatever the sample type);
 *  - every ring parses: record sizes, known types;
 *  - every sample in a ring is of an event this child opened whose records go to
 *    that ring (its own, or the one it was redirected to): software events of
 *    one overflow once shared one perf_sample_data, so that a sample carried
 *    another event's identifier, maybe of another process;
 *  - PERF_CONTEXT_USER_DEFERRED only in events with defer_callchain and user
 *    callchains, only as the last context, followed by a nonzero cookie;
 *  - a task-bound software event's sample with user callchains always carries its
 *    user context (PERF_CONTEXT_USER or the deferred marker), whatever
 *    sample_max_stack is, and never more than sample_max_stack frames;
 *  - PERF_RECORD_CALLCHAIN_DEFERRED only in defer_output events, well-formed;
 *  - children end by exit or by the test's own SIGKILL, never by another signal.
 * The kernel log is checked by the harness (scripts/scan-log.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

#define ATTR_DEFER_CALLCHAIN	(1ULL << 38)
#define ATTR_DEFER_OUTPUT	(1ULL << 39)
#define CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define RECORD_CALLCHAIN_DEFERRED 22
#define MAX_EVENTS	4
#define UNWIND_MAX	512

struct ev {
	struct perf_event_attr attr;
	int fd, task_bound, tracepoint;
	uint64_t id;
	void *ring;
	struct ev *out;		/* the event whose ring gets its records, or NULL */
	size_t pages;
	unsigned long samples, deferred, records;
};

static struct ev evs[MAX_EVENTS];
static int nevs;
static unsigned int seed, child_seed;
static char self[4096];
static volatile int stop;
static int zero_fd;
static long tp_ids[2] = { -1, -1 };

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL seed %u: ", child_seed);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	_exit(1);
}

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)rand_r(&seed) % n : 0;
}

static uint64_t *flags_word(struct perf_event_attr *attr)
{
	/* the bit-field word follows read_format */
	return (uint64_t *)((char *)&attr->read_format + sizeof(attr->read_format));
}

static const uint64_t sample_bits[] = {
	PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
	PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD, PERF_SAMPLE_READ,
	PERF_SAMPLE_RAW, PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER, PERF_SAMPLE_WEIGHT,
	PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_TRANSACTION,
	PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_DATA_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE,
};

static void random_attr(struct perf_event_attr *a, int *tracepoint)
{
	static const uint64_t sw[] = {
		PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
		PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
		PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_DUMMY,
	};
	uint64_t *bits = flags_word(a);
	unsigned int i, t = rnd(10);

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	*tracepoint = 0;
	if (t == 0 && tp_ids[t = rnd(2)] >= 0) {
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = tp_ids[t];
		*tracepoint = 1;
	} else {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = sw[rnd(sizeof(sw) / sizeof(sw[0]))];
	}
	/* mostly callchains, the subject of the test; the identifier says whose */
	a->sample_type = PERF_SAMPLE_IDENTIFIER | (rnd(5) ? PERF_SAMPLE_CALLCHAIN : 0);
	for (i = 0; i < sizeof(sample_bits) / sizeof(sample_bits[0]); i++)
		if (!rnd(4))
			a->sample_type |= sample_bits[i];
	if (a->sample_type & PERF_SAMPLE_READ)
		a->read_format = rnd(16) & (PERF_FORMAT_TOTAL_TIME_ENABLED |
					    PERF_FORMAT_TOTAL_TIME_RUNNING |
					    PERF_FORMAT_ID | PERF_FORMAT_LOST);
	if (a->sample_type & PERF_SAMPLE_REGS_USER)
		a->sample_regs_user = rnd(2) ? 0x1c0 : 0x1;	/* BP SP IP, or AX */
	if (a->sample_type & PERF_SAMPLE_STACK_USER)
		a->sample_stack_user = 8 * (1 + rnd(512));
	if (rnd(3)) {
		a->freq = 1;
		a->sample_freq = 100 + rnd(4000);
	} else if (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK) {
		a->sample_period = 20000 + rnd(500000);
	} else {
		a->sample_period = 1 + rnd(20);
	}
	/* 0 = the sysctl's default, beyond it EOVERFLOW */
	a->sample_max_stack = rnd(4) ? rnd(8) : rnd(140);
	a->disabled = rnd(4) != 0;
	a->inherit = !rnd(3);
	a->exclude_user = !rnd(8);
	a->exclude_kernel = !rnd(8);
	a->exclude_hv = rnd(2);
	a->exclude_idle = !rnd(8);
	a->mmap = !rnd(3);
	a->comm = !rnd(3);
	a->task = !rnd(4);
	a->mmap2 = a->mmap && rnd(2);
	a->comm_exec = a->comm && rnd(2);
	a->context_switch = !rnd(4);
	a->sample_id_all = rnd(2);
	a->watermark = !rnd(4);
	if (a->watermark)
		a->wakeup_watermark = 4096 * (1 + rnd(4));
	else
		a->wakeup_events = rnd(4);
	a->enable_on_exec = a->disabled && !rnd(4);
	a->exclude_callchain_kernel = !rnd(6);
	a->exclude_callchain_user = !rnd(6);
	a->inherit_thread = a->inherit && !rnd(3);
	a->remove_on_exec = !rnd(5);
	a->sigtrap = a->remove_on_exec && !rnd(3);
	if (a->sigtrap)
		a->sig_data = 0x5eed;
	if (!rnd(4)) {
		a->use_clockid = 1;
		a->clockid = CLOCK_MONOTONIC;
	}
	if (rnd(3))
		*bits |= ATTR_DEFER_CALLCHAIN;
	if (!rnd(3))
		*bits |= ATTR_DEFER_OUTPUT;
}

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC * rnd(2));
}

/* Open one event; the same attr without bits 38/39 must fare the same. */
static void open_one(void)
{
	struct ev *e = &evs[nevs];
	struct perf_event_attr plain;
	int cpus = sysconf(_SC_NPROCESSORS_ONLN), cpu = -1, group = -1, fd, fd2, err;
	pid_t pid = 0;

	random_attr(&e->attr, &e->tracepoint);
	if (!rnd(4)) {
		pid = -1;		/* CPU-wide */
		cpu = rnd(cpus);
	} else if (!rnd(3)) {
		cpu = rnd(cpus);
	}
	if (nevs && !rnd(4))
		group = evs[0].fd;
	plain = e->attr;
	*flags_word(&plain) &= ~(ATTR_DEFER_CALLCHAIN | ATTR_DEFER_OUTPUT);

	fd = perf_open(&e->attr, pid, cpu, group);
	err = errno;
	fd2 = perf_open(&plain, pid, cpu, group);
	if ((fd < 0) != (fd2 < 0) || (fd < 0 && err != errno))
		die("bits 38/39 changed the result: with %d (%s), without %d (%s); type %u config %llu sample_type %llx flags %llx",
		    fd, fd < 0 ? strerror(err) : "ok", fd2, fd2 < 0 ? strerror(errno) : "ok",
		    e->attr.type, (unsigned long long)e->attr.config,
		    (unsigned long long)e->attr.sample_type,
		    (unsigned long long)*flags_word(&e->attr));
	if (fd2 >= 0)
		close(fd2);
	if (fd < 0)
		return;
	e->fd = fd;
	e->task_bound = pid == 0;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &e->id))
		die("PERF_EVENT_IOC_ID: %s", strerror(errno));
	e->pages = 1 << rnd(4);
	e->ring = mmap(NULL, (e->pages + 1) * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e->out = e;
	if (e->ring == MAP_FAILED) {
		/* inherited per-task events cannot be mapped, maybe redirected */
		e->ring = NULL;
		e->out = NULL;
		if (nevs && rnd(2) && !ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, evs[0].fd))
			e->out = &evs[0];
	}
	nevs++;
}

static int event_known(uint64_t id)
{
	int i;

	for (i = 0; i < nevs; i++)
		if (evs[i].id == id)
			return 1;
	return 0;
}

static void print_events(void)
{
	int i;

	for (i = 0; i < nevs; i++)
		printf("event %d: id %llx fd %d type %u config %llu sample_type %llx flags %llx ring %p out %d\n",
		       i, (unsigned long long)evs[i].id, evs[i].fd, evs[i].attr.type,
		       (unsigned long long)evs[i].attr.config,
		       (unsigned long long)evs[i].attr.sample_type,
		       (unsigned long long)*flags_word(&evs[i].attr), evs[i].ring,
		       evs[i].out ? (int)(evs[i].out - evs) : -1);
}

/* The event a sample or record belongs to, by its identifier */
static struct ev *event_of(uint64_t id)
{
	int i;

	for (i = 0; i < nevs; i++)
		if (evs[i].id == id)
			return &evs[i];
	print_events();
	die("record of an unknown event id %llx", (unsigned long long)id);
}

/*
 * Check one sample of the ring of @ring: its event (by its identifier), and its
 * callchain.
 */
static void check_sample(const uint64_t *p, const uint64_t *end, struct ev *ring)
{
	uint64_t st, nr, i, frames = 0, max;
	int user_ctx = 0, marker = 0, kernel_ctx = 0;
	struct ev *e;

	if (!event_known(p[0])) {
		print_events();
		die("a sample in the ring of event %d carries id %llx, of no event this child opened",
		    (int)(ring - evs), (unsigned long long)p[0]);
	}
	e = event_of(p[0]);
	if (e->out != ring) {
		print_events();
		die("a sample of event %d (id %llx) in the ring of event %d, which it does not write to",
		    (int)(e - evs), (unsigned long long)e->id, (int)(ring - evs));
	}
	st = e->attr.sample_type;
	max = e->attr.sample_max_stack ? e->attr.sample_max_stack : 127;

	e->samples++;
	if (!(st & PERF_SAMPLE_CALLCHAIN))
		return;
	p += 1 + !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
	     !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR) + !!(st & PERF_SAMPLE_ID) +
	     !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
	     !!(st & PERF_SAMPLE_PERIOD);
	if (st & PERF_SAMPLE_READ)
		p += 1 + __builtin_popcountll(e->attr.read_format);
	if (p >= end)
		die("sample too short for its callchain");
	nr = *p++;
	if (nr > (uint64_t)(end - p))
		die("callchain of %llu entries overruns its sample", (unsigned long long)nr);
	for (i = 0; i < nr; i++) {
		if (p[i] == CONTEXT_USER_DEFERRED) {
			marker = 1;
			if (i + 2 != nr)
				die("deferred marker at %llu of %llu", (unsigned long long)i,
				    (unsigned long long)nr);
			if (!(*flags_word(&e->attr) & ATTR_DEFER_CALLCHAIN) ||
			    e->attr.exclude_callchain_user)
				die("deferred marker in an event without deferred user callchains");
			if (!p[i + 1])
				die("deferred marker with cookie 0");
			e->deferred++;
			break;
		}
		if (p[i] == PERF_CONTEXT_USER)
			user_ctx = 1;
		else if (p[i] == PERF_CONTEXT_KERNEL)
			kernel_ctx = 1;
		else if (p[i] < (uint64_t)-4095)
			frames++;
	}
	if (frames > max)
		die("%llu frames with sample_max_stack %llu", (unsigned long long)frames,
		    (unsigned long long)max);
	if (e->attr.exclude_callchain_user && (user_ctx || marker))
		die("user callchain with exclude_callchain_user");
	/* the user context is never cut, by sample_max_stack nor deferral */
	if (e->task_bound && !e->tracepoint && !e->attr.exclude_callchain_user &&
	    !user_ctx && !marker)
		die("sample without its user context (max_stack %llu, %llu entries, kernel %d)",
		    (unsigned long long)max, (unsigned long long)nr, kernel_ctx);
}

/* The size of the sample_id trailer of @e's records */
static size_t id_size(struct ev *e)
{
	uint64_t st = e->attr.sample_type;

	if (!e->attr.sample_id_all)
		return 0;
	return 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
		    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
		    !!(st & PERF_SAMPLE_CPU) + 1);
}

/* Read what is in @e's ring and check every record. */
static void drain(struct ev *e)
{
	static uint64_t rec[65536 / 8];
	struct perf_event_mmap_page *pg = e->ring;
	size_t size = e->pages * 4096;
	char *data;
	uint64_t head, tail;

	if (!pg || e->attr.write_backward)
		return;
	data = (char *)pg + 4096;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	if (head - tail > size)
		die("ring head %llu tail %llu size %zu", (unsigned long long)head,
		    (unsigned long long)tail, size);
	while (tail < head) {
		struct perf_event_header h;
		size_t j;

		for (j = 0; j < sizeof(h); j++)
			((char *)&h)[j] = data[(tail + j) % size];
		if (h.size < sizeof(h) || h.size % 8 || tail + h.size > head)
			die("record of size %u at %llu (head %llu)", h.size,
			    (unsigned long long)tail, (unsigned long long)head);
		for (j = 0; j < h.size; j++)
			((char *)rec)[j] = data[(tail + j) % size];
		if (getenv("PSTRESS_DUMP"))
			printf("ring of %d: type %u misc %x size %u: %llx %llx %llx\n", (int)(e - evs),
			       h.type, h.misc, h.size, (unsigned long long)rec[1],
			       (unsigned long long)rec[2], (unsigned long long)rec[h.size / 8 - 1]);
		if (h.type == PERF_RECORD_SAMPLE && getenv("PSTRESS_DUMP") && !event_known(rec[1])) {
			unsigned int k;

			printf("pid %d: unknown sample at %llu (head %llu):", getpid(),
			       (unsigned long long)tail, (unsigned long long)head);
			for (k = 0; k < h.size / 8 && k < 40; k++)
				printf(" %llx", (unsigned long long)rec[k]);
			printf("\n");
		}
		if (h.type == PERF_RECORD_SAMPLE) {
			check_sample(rec + 1, rec + h.size / 8, e);
		} else if (h.type == RECORD_CALLCHAIN_DEFERRED) {
			/* the identifier ends the record if it has a sample_id */
			struct ev *o = e->attr.sample_id_all ? event_of(rec[h.size / 8 - 1]) : e;
			uint64_t nr = rec[2];

			o->records++;
			if (!(*flags_word(&o->attr) & ATTR_DEFER_OUTPUT))
				die("deferred record in an event without defer_output");
			if (h.misc != PERF_RECORD_MISC_USER || !rec[1] || nr > UNWIND_MAX ||
			    h.size != 24 + 8 * nr + id_size(o))
				die("deferred record: misc %x cookie %llx nr %llu size %u", h.misc,
				    (unsigned long long)rec[1], (unsigned long long)nr, h.size);
		} else if (h.type == 0 || h.type > RECORD_CALLCHAIN_DEFERRED) {
			die("record type %u", h.type);
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

static void drain_all(void)
{
	int i;

	for (i = 0; i < nevs; i++)
		drain(&evs[i]);
}

/* The workload: system calls, faults, switches */
static NOINLINE void work_syscalls(void)
{
	static char buf[65536];

	raw_syscall3(SYS_read, zero_fd, (long)buf, 1 + rnd(sizeof(buf)));
	keep_frame();
}

static NOINLINE void work_faults(void)
{
	size_t len = 4096 * (1 + rnd(64)), i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < len; i += 4096)
		p[i] = 1;
	munmap(p, len);
	keep_frame();
}

static void *worker(void *arg)
{
	int *pipes = arg;
	char c = 0;

	while (!stop) {
		if (read(pipes[0], &c, 1) != 1)
			break;
		work_syscalls();
		if (write(pipes[3], &c, 1) != 1)
			break;
	}
	return NULL;
}

static void sigtrap_handler(int sig)
{
	(void)sig;
}

static NOINLINE void workload(unsigned int rounds, int *pipes)
{
	unsigned int i;
	char c = 0;
	pid_t pid;

	for (i = 0; i < rounds; i++) {
		switch (rnd(6)) {
		case 0:
		case 1:
			work_syscalls();
			break;
		case 2:
			work_faults();
			break;
		case 3:
			/* a switch to the worker thread and back */
			if (pipes && write(pipes[1], &c, 1) == 1 && read(pipes[2], &c, 1) != 1)
				die("pipe");
			break;
		case 4:
			sched_yield();
			break;
		case 5:
			if (rnd(8))
				break;
			pid = fork();
			if (pid == 0) {
				work_syscalls();
				work_faults();
				_exit(0);
			}
			if (pid > 0)
				waitpid(pid, NULL, 0);
			break;
		}
		if (!(i % 16)) {
			drain_all();
			if (nevs && !rnd(8))
				ioctl(evs[rnd(nevs)].fd, rnd(2) ? PERF_EVENT_IOC_DISABLE :
				      PERF_EVENT_IOC_ENABLE, 0);
		}
	}
}

/* How a child ends */
enum { END_EXIT, END_EXEC, END_EXIT_GROUP, END_KILLED_LOOPING, END_KILLED, END_HOWS };

static void child(unsigned int how)
{
	int i, n = 1 + rnd(MAX_EVENTS), pipes[4];
	pthread_t th;
	char arg[32];

	signal(SIGTRAP, sigtrap_handler);
	for (i = 0; i < n; i++)
		open_one();
	if (pipe(pipes) || pipe(pipes + 2))
		die("pipe");
	pthread_create(&th, NULL, worker, pipes);
	for (i = 0; i < nevs; i++)
		if (rnd(4))
			ioctl(evs[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	workload(200 + rnd(400), pipes);
	drain_all();
	for (i = 0; i < nevs; i++)
		if (!rnd(3))
			ioctl(evs[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	drain_all();
	if (how == END_EXEC) {
		sigset_t trap;

		/*
		 * A SIGTRAP of a sigtrap event may still be pending: exec resets
		 * the handler, and the new image would die of it. Blocked, it
		 * stays pending until the exit.
		 */
		sigemptyset(&trap);
		sigaddset(&trap, SIGTRAP);
		sigprocmask(SIG_BLOCK, &trap, NULL);
		/* events (and pending unwinds) live on into the new image */
		snprintf(arg, sizeof(arg), "%u", seed);
		execl(self, self, "exec", arg, (char *)NULL);
		die("exec: %s", strerror(errno));
	}
	if (how == END_EXIT_GROUP) {
		/* the worker thread dies wherever it is */
		if (write(pipes[1], "x", 1) == 1)
			syscall(SYS_exit_group, 0);
	}
	if (how == END_KILLED_LOOPING)
		for (;;)
			work_syscalls();	/* killed by the parent */
	stop = 1;
	close(pipes[1]);
	pthread_join(th, NULL);
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned int children, i, running = 0;
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	zero_fd = open("/dev/zero", O_RDONLY);
	if (argc == 3 && !strcmp(argv[1], "exec")) {
		seed = child_seed = atoi(argv[2]);
		workload(100, NULL);
		return 0;
	}
	if (argc != 3) {
		printf("usage: pstress SEED CHILDREN\n");
		return 2;
	}
	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		die("readlink");
	tp_ids[0] = tracepoint_id("sched/sched_switch");
	tp_ids[1] = tracepoint_id("sched/sched_wakeup");
	children = atoi(argv[2]);
	seed = atoi(argv[1]);
	for (i = 0; i < children || running; ) {
		if (i < children && running < 2) {
			unsigned int s = seed * 1000 + i, how = s % END_HOWS;
			pid_t pid = fork();

			if (!pid) {
				seed = child_seed = s;
				child(how);
			}
			running++;
			i++;
			if (how == END_KILLED_LOOPING || how == END_KILLED) {
				usleep(20000 + 20000 * (i % 8));
				kill(pid, SIGKILL);
			}
			continue;
		}
		pid_t pid = wait(&status);

		if (pid < 0)
			die("wait: %s", strerror(errno));
		running--;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			continue;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("FAIL: child %d: status %x\n", pid, status);
			return 1;
		}
	}
	printf("ok: %u children, seed %s\n", children, argv[1]);
	return 0;
}
