// SPDX-License-Identifier: GPL-2.0
/*
 * regbench: what sframe_register() costs a process, for converted sections.
 *
 *   regbench [-n RUNS] OBJECT...
 *
 * Each OBJECT (a shared library: dlopen()ed, or the one already loaded) is
 * converted once into a cache directory of its own (made in /tmp) and its
 * cache file mapped shared, as the LD_AUDIT helper maps it. Then RUNS
 * children of this process (fork(): the section's pages are in the page
 * cache, not yet mapped in the child, as in a new process) each time one
 * sframe_register(), which checks the section whole, and exit.
 * Prints per object the section's size, FDEs and FREs, and the min and
 * median time of a registration (CLOCK_MONOTONIC: run it under QEMU's
 * -icount for repeatable figures), and the median per FDE (the kernel
 * checks every FDE; every FRE as well with CONFIG_SFRAME_VALIDATION).
 * Exit status 1 if a registration failed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sfconv.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* One registration in a child: its time in ns, or -errno */
static long long register_in_child(const struct sfconv_loaded *l)
{
	long long t;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (!pid) {
		long long t0 = now_ns();
		int ret = sfconv_register(l);

		t = ret ? ret : now_ns() - t0;
		_exit(write(fds[1], &t, sizeof(t)) != sizeof(t));
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &t, sizeof(t)) != sizeof(t))
		t = -EIO;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return t;
}

/* Load @path's converted section (cache in @dir), time @runs registrations */
static int bench(const char *path, const char *dir, int runs)
{
	struct sfconv_loaded l;
	struct link_map *map;
	long long *t;
	uint32_t fres;
	void *h;
	Elf *elf;
	int fd, i, ret;

	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		h = dlopen(path, RTLD_NOW);
	fd = open(path, O_RDONLY);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!h || dlinfo(h, RTLD_DI_LINKMAP, &map) || !elf) {
		printf("%s: cannot load it\n", path);
		return 1;
	}
	/* Converted and cached, then mapped from the cache */
	ret = sfconv_load(elf, fd, map->l_addr, dir, &l);
	if (!ret) {
		sfconv_unload(&l);
		ret = sfconv_load(elf, fd, map->l_addr, dir, &l);
	}
	elf_end(elf);
	close(fd);
	if (ret || !l.sframe_size || !l.cached) {
		printf("%s: no cached section: %s\n", path, ret ? strerror(-ret) : l.cache_why);
		return 1;
	}
	t = calloc(runs, sizeof(*t));
	if (!t)
		return 1;
	for (i = 0; i < runs; i++) {
		t[i] = register_in_child(&l);
		if (t[i] < 0) {
			printf("%s: registration failed: %s\n", path, strerror(-t[i]));
			free(t);
			return 1;
		}
	}
	qsort(t, runs, sizeof(*t), cmp_ll);
	memcpy(&fres, (char *)l.sframe + 12, sizeof(fres));
	printf("%-24s %7zu bytes %5u FDEs %6u FREs: min %7.1f us, median %7.1f us, %5.1f ns/FDE\n",
	       strrchr(path, '/') ? strrchr(path, '/') + 1 : path, l.sframe_size, l.fdes, fres,
	       t[0] / 1e3, t[runs / 2] / 1e3, l.fdes ? (double)t[runs / 2] / l.fdes : 0.0);
	free(t);
	sfconv_unload(&l);
	return 0;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/regbench.XXXXXX";
	int runs = 50, opt, i, fail = 0;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			goto usage;
		runs = atoi(optarg);
	}
	if (optind == argc || runs < 1)
		goto usage;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	elf_version(EV_CURRENT);
	printf("sframe_register(), %d registrations each, in new processes:\n", runs);
	for (i = optind; i < argc; i++)
		fail |= bench(argv[i], dir, runs);
	/* The cache files made */
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	wait(NULL);
	return fail;
usage:
	fprintf(stderr, "usage: %s [-n RUNS] OBJECT...\n", argv[0]);
	return 2;
}
