// SPDX-License-Identifier: GPL-2.0
/*
 * startbench: what an LD_AUDIT module costs a program's start.
 *
 *   startbench [-n RUNS] [-a AUDIT] [-l LABEL] -- PROGRAM ARG...
 *
 * Runs PROGRAM RUNS times without LD_AUDIT and RUNS times with
 * LD_AUDIT=AUDIT, alternately (so that the machine's load hits both
 * alike), its output to /dev/null (and its errors, but for a first run
 * that warms the caches up), and prints for each:
 *   - wall time from fork() to wait4() (min and median, ms),
 *   - peak RSS (ru_maxrss, KiB, median),
 * and, from one more run stopped at the program's entry point (ptrace, a
 * breakpoint: the dynamic linker and the audit module are done, the
 * program has not run), the number of mappings (/proc/PID/maps) and
 * smaps_rollup's Rss, Pss, Private_Clean, Private_Dirty and Anonymous
 * (KiB). Without -a, only the runs without LD_AUDIT.
 * The environment is the caller's otherwise (SFRAME_CACHE_DIR etc.).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct variant {
	const char *name;
	char **env;
	double *ms;
	long *rss;
	unsigned int failed;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The environment without LD_AUDIT, plus @audit if not NULL */
static char **make_env(const char *audit)
{
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		exit(1);
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_AUDIT=", 9))
			env[j++] = environ[i];
	if (audit) {
		if (asprintf(&env[j++], "LD_AUDIT=%s", audit) < 0)
			exit(1);
	}
	return env;
}

static pid_t start(char **argv, char **env, int trace, int quiet)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (!pid) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			if (quiet)
				dup2(fd, 2);
		}
		if (trace) {
			ptrace(PTRACE_TRACEME, 0, NULL, NULL);
			raise(SIGSTOP);
		}
		execve(argv[0], argv, env);
		_exit(127);
	}
	return pid;
}

static int run_once(char **argv, struct variant *v, unsigned int i, int quiet)
{
	struct rusage ru;
	double t0 = now_ms();
	pid_t pid = start(argv, v->env, 0, quiet);
	int status;

	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	v->ms[i] = now_ms() - t0;
	v->rss[i] = ru.ru_maxrss;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		v->failed++;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* smaps_rollup's @key in KiB, -1 if missing */
static long rollup(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

struct mem {
	long maps, rss, pss, pclean, pdirty, anon;
	/* The mappings of cache files (*.sframe): number, Rss, Private_* */
	long sec_maps, sec_rss, sec_private;
};

/* Sum up the mappings of cache files (names ending in .sframe) in /proc/@pid/smaps */
static void read_sections(pid_t pid, struct mem *m)
{
	char path[64], line[4096];
	int in = 0;
	FILE *f;
	long v;

	m->sec_maps = m->sec_rss = m->sec_private = 0;
	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");
		const char *sp = strchr(line, ' '), *dash = strchr(line, '-');

		line[n] = 0;
		/* "start-end perms offset dev inode path", else "Field: value kB" */
		if (((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')) &&
		    dash && sp && dash < sp) {
			in = n > 7 && !strcmp(line + n - 7, ".sframe");
			m->sec_maps += in;
		} else if (in && sscanf(line, "Rss: %ld", &v) == 1) {
			m->sec_rss += v;
		} else if (in && (sscanf(line, "Private_Clean: %ld", &v) == 1 ||
				  sscanf(line, "Private_Dirty: %ld", &v) == 1)) {
			m->sec_private += v;
		}
	}
	fclose(f);
}

static void read_mem(pid_t pid, struct mem *m)
{
	char path[64], buf[8192];
	ssize_t n, i;
	int fd;

	memset(m, 0xff, sizeof(*m));
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		m->maps = 0;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			for (i = 0; i < n; i++)
				m->maps += buf[i] == '\n';
		close(fd);
	}
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = 0;
		m->rss = rollup(buf, "\nRss:");
		m->pss = rollup(buf, "\nPss:");
		m->pclean = rollup(buf, "\nPrivate_Clean:");
		m->pdirty = rollup(buf, "\nPrivate_Dirty:");
		m->anon = rollup(buf, "\nAnonymous:");
	}
	read_sections(pid, m);
}

/* The program's entry point (AT_ENTRY) in process @pid, 0 if not found */
static unsigned long entry_point(pid_t pid)
{
	unsigned long av[2 * 64];
	char path[64];
	ssize_t n, i;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, av, sizeof(av));
	close(fd);
	for (i = 0; i + 1 < n / (ssize_t)sizeof(av[0]); i += 2)
		if (av[i] == AT_ENTRY)
			return av[i + 1];
	return 0;
}

/*
 * One run stopped at the program's entry point (a breakpoint there): the
 * dynamic linker, and an audit module with it, are done, the program has
 * not run yet. Its mappings and memory then.
 */
static int measure_mem(char **argv, char **env, struct mem *m)
{
	pid_t pid = start(argv, env, 1, 1);
	struct user_regs_struct regs;
	unsigned long entry, word;
	int status, ret = -1;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return -1;
	/* the SIGSTOP before exec, then exec's SIGTRAP */
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    WSTOPSIG(status) != SIGTRAP)
		goto out;
	entry = entry_point(pid);
	errno = 0;
	word = entry ? ptrace(PTRACE_PEEKTEXT, pid, (void *)entry, NULL) : 0;
	if (!entry || errno ||
	    ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)((word & ~0xffUL) | 0xcc)))
		goto out;
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    WSTOPSIG(status) != SIGTRAP || ptrace(PTRACE_GETREGS, pid, NULL, &regs) ||
	    regs.rip != entry + 1)
		goto out;
	read_mem(pid, m);
	ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)word);
	regs.rip = entry;
	ptrace(PTRACE_SETREGS, pid, NULL, &regs);
	ret = 0;
out:
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	if (ret)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return ret;
}

static void report(const char *label, struct variant *v, unsigned int runs, char **argv)
{
	struct mem m;

	qsort(v->ms, runs, sizeof(*v->ms), cmp_double);
	qsort(v->rss, runs, sizeof(*v->rss), cmp_long);
	if (measure_mem(argv, v->env, &m))
		memset(&m, 0xff, sizeof(m));
	printf("%-8s %-6s  min %6.3f ms  median %6.3f ms  maxrss %5ld KiB  maps %3ld  "
	       "Rss %5ld  Pss %5ld  Private_Clean %4ld  Private_Dirty %4ld KiB  "
	       "sections: %ld maps, Rss %ld, Private %ld KiB%s\n",
	       label, v->name, v->ms[0], v->ms[runs / 2], v->rss[runs / 2], m.maps, m.rss,
	       m.pss, m.pclean, m.pdirty, m.sec_maps, m.sec_rss, m.sec_private,
	       v->failed ? "  (some runs failed)" : "");
}

int main(int argc, char **argv)
{
	struct variant v[2] = { { .name = "alone" }, { .name = "helper" } };
	const char *audit = NULL, *label = NULL;
	unsigned int runs = 200, nv, i, j;
	int opt;

	while ((opt = getopt(argc, argv, "+n:a:l:")) != -1) {
		switch (opt) {
		case 'n':
			runs = strtoul(optarg, NULL, 0);
			break;
		case 'a':
			audit = optarg;
			break;
		case 'l':
			label = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind == argc || !runs)
		goto usage;
	argv += optind;
	if (!label) {
		label = strrchr(argv[0], '/');
		label = label ? label + 1 : argv[0];
	}
	nv = audit ? 2 : 1;
	for (j = 0; j < nv; j++) {
		v[j].env = make_env(j ? audit : NULL);
		v[j].ms = calloc(runs, sizeof(*v[j].ms));
		v[j].rss = calloc(runs, sizeof(*v[j].rss));
		if (!v[j].ms || !v[j].rss)
			return 1;
		/* warm up (page cache, the helper's cache), its errors shown */
		if (run_once(argv, &v[j], 0, 0))
			return 1;
		v[j].failed = 0;
	}
	for (i = 0; i < runs; i++)
		for (j = 0; j < nv; j++)
			if (run_once(argv, &v[(i + j) % nv], i, 1)) {
				perror("wait4");
				return 1;
			}
	for (j = 0; j < nv; j++)
		report(label, &v[j], runs, argv);
	return 0;
usage:
	fprintf(stderr, "usage: startbench [-n RUNS] [-a AUDIT] [-l LABEL] -- PROGRAM ARG...\n");
	return 2;
}
