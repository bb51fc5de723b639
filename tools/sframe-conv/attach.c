// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-conv attach, detach and system: sections attached to ELF files
 * (PR_SFRAME_FILE), for every process that maps them. See sframe-conv.1.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd.h"

/* What attach_one() did, for system's summary */
enum { ATT_DONE, ATT_ALREADY, ATT_OWN, ATT_NONE, ATT_FAILED, ATT_NR };
static int attach_quiet;

/*
 * Attach @file's section (from the cache @dir, NULL: none) to the file; one
 * line about it (with attach_quiet, only if it failed). Returns ATT_*.
 */
static int attach_one(const char *file, const char *dir)
{
	struct prctl_sframe args = { .flags = PR_SFRAME_TEXT_RELATIVE | PR_SFRAME_FILE };
	struct sfconv_loaded l;
	int fd, ret, res;
	Elf *elf;

	elf = open_elf(file, &fd);
	if (!elf)
		return ATT_FAILED;
	ret = sfconv_load(elf, fd, 0, dir, &l);
	if (ret == -EEXIST) {
		res = ATT_OWN;
		if (!attach_quiet)
			printf("%s: has SFrame of its own\n", file);
	} else if (ret) {
		res = ATT_FAILED;
		fprintf(stderr, "sframe-conv: %s: %s\n", file, strerror(-ret));
	} else if (!l.sframe_size) {
		res = ATT_NONE;
		if (!attach_quiet)
			printf("%s: nothing converted\n", file);
		sfconv_unload(&l);
	} else {
		args.sframe_start = (uintptr_t)l.sframe;
		args.sframe_size = l.sframe_size;
		args.fd = fd;
		ret = prctl(PR_REGISTER_SFRAME, &args, sizeof(args), 0, 0) ? errno : 0;
		res = !ret ? ATT_DONE : ret == EEXIST ? ATT_ALREADY : ATT_FAILED;
		if (res == ATT_FAILED)
			fprintf(stderr, "sframe-conv: %s: attach: %s\n", file, strerror(ret));
		else if (!attach_quiet)
			printf("%s: %s, %zu bytes\n", file, ret ? "attached already" : "attached",
			       l.sframe_size);
		sfconv_unload(&l);
	}
	elf_end(elf);
	close(fd);
	return res;
}

/* The paths to attach system-wide, gathered by system */
static char **sys_paths;
static size_t sys_nr, sys_max;

static void sys_add(const char *path)
{
	if (sys_nr == sys_max) {
		sys_max = sys_max ? 2 * sys_max : 256;
		sys_paths = realloc(sys_paths, sys_max * sizeof(*sys_paths));
		if (!sys_paths) {
			perror("sframe-conv");
			exit(1);
		}
	}
	sys_paths[sys_nr] = strdup(path);
	if (!sys_paths[sys_nr]) {
		perror("sframe-conv");
		exit(1);
	}
	sys_nr++;
}

/* Is @path a regular file starting with the ELF magic? */
static int is_elf(const char *path)
{
	char magic[4];
	struct stat st;
	int fd, ok;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	ok = read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4);
	close(fd);
	return ok;
}

/* The files mapped executable by running processes */
static void sys_add_mapped(void)
{
	char maps[300], line[PATH_MAX + 128], perms[8];
	struct dirent *d;
	DIR *proc;
	FILE *f;
	int off;

	proc = opendir("/proc");
	if (!proc)
		return;
	while ((d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(maps, sizeof(maps), "/proc/%s/maps", d->d_name);
		f = fopen(maps, "re");
		if (!f)
			continue;
		/* START-END PERMS OFFSET DEV INODE PATH */
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			off = 0;
			if (sscanf(line, "%*s %7s %*s %*s %*s %n", perms, &off) < 1 || !off ||
			    perms[2] != 'x' || line[off] != '/' || strstr(line + off, " (deleted)"))
				continue;
			sys_add(line + off);
		}
		fclose(f);
	}
	closedir(proc);
}

/* PATH: a file, or a directory's *.so* files */
static void sys_add_path(const char *path)
{
	char file[PATH_MAX];
	struct dirent *d;
	struct stat st;
	DIR *dir;

	if (stat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		sys_add(path);
		return;
	}
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (fnmatch("*.so*", d->d_name, 0))
			continue;
		if (snprintf(file, sizeof(file), "%s/%s", path, d->d_name) < (int)sizeof(file))
			sys_add(file);
	}
	closedir(dir);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* system: attach the mapped files and those of @paths (default: the library directories) */
static int attach_system(char **paths, int n, const char *dir)
{
	static const char *const libdirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu" };
	static const char *const what[ATT_NR] = { "attached", "attached already",
		"with SFrame of their own", "with nothing to convert", "failed" };
	unsigned int count[ATT_NR] = { 0 };
	char real[PATH_MAX];
	size_t i, j;
	int k;

	sys_add_mapped();
	for (k = 0; k < n; k++)
		sys_add_path(paths[k]);
	for (k = 0; !n && k < 2; k++)
		sys_add_path(libdirs[k]);
	/* One attach per file: symbolic links and repeats resolved */
	for (i = 0; i < sys_nr; i++) {
		if (realpath(sys_paths[i], real)) {
			free(sys_paths[i]);
			sys_paths[i] = strdup(real);
		}
	}
	qsort(sys_paths, sys_nr, sizeof(*sys_paths), cmp_str);
	attach_quiet = 1;
	for (i = 0; i < sys_nr; i++) {
		for (j = i + 1; j < sys_nr && sys_paths[j] && !strcmp(sys_paths[i], sys_paths[j]); j++)
			;
		if (sys_paths[i] && is_elf(sys_paths[i]))
			count[attach_one(sys_paths[i], dir)]++;
		i = j - 1;
	}
	for (k = 0; k < ATT_NR; k++)
		printf("%s%u %s", k ? ", " : "", count[k], what[k]);
	printf("\n");
	return count[ATT_FAILED] ? 1 : 0;
}

/* Detach the section attached to @file */
static int detach(const char *file)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0 || prctl(PR_UNREGISTER_SFRAME, fd, 0, PR_SFRAME_FILE, 0))
		ret = -errno;
	if (ret)
		fprintf(stderr, "sframe-conv: %s: detach: %s\n", file, strerror(-ret));
	else
		printf("%s: detached\n", file);
	if (fd >= 0)
		close(fd);
	return ret ? -1 : 0;
}

/*
 * Detach every section listed in /proc/sframe_files ("BYTES DEV INODE
 * STATE PATH") by its path; a file that is gone keeps its section until no
 * process maps it, and fails here
 */
static int detach_all(void)
{
	FILE *f = fopen("/proc/sframe_files", "re");
	char *line = NULL, *path;
	size_t size = 0;
	int bad = 0;

	if (!f) {
		fprintf(stderr, "sframe-conv: /proc/sframe_files: %s\n", strerror(errno));
		return 1;
	}
	while (getline(&line, &size, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		path = strchr(line, '/');
		if (path)
			bad |= detach(path);
	}
	free(line);
	fclose(f);
	return bad ? 1 : 0;
}

/* Attaching without a cache (a->dir NULL) converts each time */
int cmd_attach(struct cmd_args *a)
{
	int i, bad = 0;

	for (i = 0; i < a->nfiles; i++)
		bad |= attach_one(a->files[i], a->dir) == ATT_FAILED;
	return bad;
}

int cmd_detach(struct cmd_args *a)
{
	int i, bad = 0;

	if (a->all != !a->nfiles)
		usage("detach");
	if (a->all)
		return detach_all();
	for (i = 0; i < a->nfiles; i++)
		bad |= detach(a->files[i]);
	return bad ? 1 : 0;
}

int cmd_system(struct cmd_args *a)
{
	return attach_system(a->files, a->nfiles, a->dir);
}
