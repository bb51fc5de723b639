// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-conv: convert the .eh_frame of x86-64 ELF objects into SFrame.
 *
 *   sframe-conv [-2|-3] FILE...    print what converts, per object (into
 *                                  SFrame V3 with -3, v2 with -2; by
 *                                  default as the cache: V3 unless built
 *                                  with SFCONV_VERSION=2)
 *   sframe-conv [-2|-3] -o OUT [-S NAME] FILE
 *                                  also write the section to OUT: function
 *                                  starts relative to the text (for
 *                                  PR_SFRAME_TEXT_RELATIVE), or with -S
 *                                  PC-relative for the section at the
 *                                  address of FILE's section NAME (a
 *                                  placeholder), padded to its size with
 *                                  zeroes (objcopy --update-section NAME=OUT)
 *   sframe-conv -c [-d DIR] FILE...  fill the cache of libsframe-audit.so
 *                                  (DIR, else $SFRAME_CACHE_DIR, else
 *                                  $XDG_CACHE_HOME/sframe-conv, else
 *                                  ~/.cache/sframe-conv); with -T (for
 *                                  tests) files are written under a
 *                                  temporary name, not with O_TMPFILE
 *   sframe-conv -a|--attach [-d DIR] FILE...  attach each FILE's section (from the
 *                                  cache, else converted) to the file, for
 *                                  every process that maps it, running or
 *                                  not (root: PR_SFRAME_FILE)
 *   sframe-conv -D|--detach FILE...  detach them
 *   sframe-conv --detach-all       detach every attached section whose file
 *                                  is in place (/proc/sframe_files)
 *   sframe-conv -s|--system [-d DIR] [PATH...]  attach, system-wide: the ELF files
 *                                  mapped executable by running processes
 *                                  (/proc/PID/maps) and those in PATHs
 *                                  (files, or directories: their *.so*
 *                                  files; default /lib/x86_64-linux-gnu and
 *                                  /usr/lib/x86_64-linux-gnu); one summary
 *                                  line, and a line per failure
 *   sframe-conv -A OBJ OUT [DIR]   what libsframe-audit.so runs on a cache
 *                                  miss: convert the object open at fd OBJ
 *                                  (or "vdso": this process's vDSO), write
 *                                  the cache file's bytes to fd OUT and
 *                                  into the cache directory open at fd DIR;
 *                                  nothing printed, the exit status 0 or
 *                                  an errno value
 *
 * Output, one line per object:
 *   FILE: vN fdes=N full=N (P%) partial=N empty=N rows=N left-out: cfa=N ra=N ...
 *         unreadable=N sframe_fdes=N fres=N bytes=N cfi_insns=N outermost=N
 *         v3_cfa=N v3_ra=N v3_fp=N v3_signal=N flex_fdes=N signal_fdes=N
 *         empty_signal=N
 *   (v3_*: rows v2 cannot say, converted in V3, by reason; outermost: rows
 *   converted with the return address undefined)
 * Exit status: 0, or 1 if any object could not be converted.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sfconv.h"

static void print_stats(const char *file, int version, const struct sfconv_stats *st)
{
	unsigned int i;

	printf("%s: v%d fdes=%u full=%u (%.1f%%) partial=%u empty=%u rows=%u left-out:",
	       file, version, st->fdes, st->full,
	       st->fdes ? 100.0 * st->full / st->fdes : 0.0, st->partial, st->empty, st->rows);
	for (i = 0; i < SFCONV_NR_WHY; i++)
		printf(" %s=%u", sfconv_why_name[i], st->rows_out[i]);
	printf(" unreadable=%u sframe_fdes=%u fres=%u bytes=%zu cfi_insns=%lu outermost=%u",
	       st->unreadable, st->sframe_fdes, st->sframe_fres, st->size, st->cfi_insns,
	       st->outermost);
	for (i = 0; i <= SFCONV_SIGNAL; i++)
		printf(" v3_%s=%u", sfconv_why_name[i], st->rows_v3[i]);
	printf(" flex_fdes=%u signal_fdes=%u empty_signal=%u\n", st->flex_fdes,
	       st->signal_fdes, st->empty_signal);
}

static int write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || (size && fwrite(data, size, 1, f) != 1) || fclose(f)) {
		fprintf(stderr, "sframe-conv: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Open @file as an ELF object; NULL (with a message) if it cannot be read */
static Elf *open_elf(const char *file, int *fd)
{
	Elf *elf;

	*fd = open(file, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		fprintf(stderr, "sframe-conv: %s: %s\n", file, strerror(errno));
		return NULL;
	}
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		fprintf(stderr, "sframe-conv: %s: %s\n", file, elf_errmsg(-1));
		close(*fd);
	}
	return elf;
}

/*
 * Convert @file as @opts say (the section at that of section @scn, if not
 * NULL), write the section to @out (if not NULL)
 */
static int convert(const char *file, struct sfconv_opts *opts, const char *scn,
		   const char *out)
{
	uint64_t vaddr, size, scn_size = 0;
	struct sfconv_stats st;
	GElf_Shdr sh;
	size_t sfsize;
	void *sframe;
	int fd, ret;
	Elf *elf;

	elf = open_elf(file, &fd);
	if (!elf)
		return -1;
	ret = sfconv_text_range(elf, &vaddr, &size);
	if (!ret && scn && !sfconv_section(elf, scn, &sh))
		ret = -ENOENT;
	if (!ret && scn) {
		opts->sframe_vaddr = sh.sh_addr;
		scn_size = sh.sh_size;
		opts->pcrel = true;
	}
	if (!ret)
		ret = sfconv_convert(elf, vaddr, size, opts, &sframe, &sfsize, &st, NULL, NULL);
	if (!ret && scn && sfsize > scn_size) {
		free(sframe);
		ret = -EFBIG;
	}
	if (ret) {
		fprintf(stderr, "sframe-conv: %s: %s\n", file, strerror(-ret));
	} else {
		print_stats(file, opts->version, &st);
		/* In place of a placeholder: as large as it is */
		if (scn && sfsize < scn_size) {
			void *p = realloc(sframe, scn_size);

			if (!p) {
				fprintf(stderr, "sframe-conv: out of memory\n");
				ret = -ENOMEM;
			} else {
				memset((char *)p + sfsize, 0, scn_size - sfsize);
				sframe = p;
				sfsize = scn_size;
			}
		}
		if (!ret && out)
			ret = write_file(out, sframe, sfsize);
		free(sframe);
	}
	elf_end(elf);
	close(fd);
	return ret ? -1 : 0;
}

/* Convert into the cache, as libsframe-audit.so would at load time */
static int cache(const char *file, const char *dir)
{
	struct sfconv_loaded l;
	int fd, ret;
	Elf *elf;

	elf = open_elf(file, &fd);
	if (!elf)
		return -1;
	ret = sfconv_load(elf, fd, 0, dir, &l);
	if (ret == -EEXIST) {
		printf("%s: has SFrame of its own\n", file);
		ret = 0;
	} else if (ret) {
		fprintf(stderr, "sframe-conv: %s: %s\n", file, strerror(-ret));
	} else {
		printf("%s: %s%s%s, %u of %u FDEs, %zu bytes\n", file,
		       l.cached ? "cached already" : "converted",
		       l.cached ? "" : ": ", l.cached ? "" : l.cache_why,
		       l.converted, l.fdes, l.sframe_size);
		sfconv_unload(&l);
	}
	elf_end(elf);
	close(fd);
	return ret ? -1 : 0;
}

/* What attach() did, for -s's summary */
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

static int attach(const char *file, const char *dir)
{
	return attach_one(file, dir) == ATT_FAILED ? -1 : 0;
}

/* The paths to attach system-wide, gathered by -s */
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

/* -s: attach the mapped files and those of @paths (default: the library directories) */
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

static const char usage_text[] =
	"usage: sframe-conv [-2|-3] [-o OUT [-S NAME]] FILE...\n"
	"       sframe-conv -c [-T] [-d DIR] FILE...\n"
	"       sframe-conv -a|--attach [-d DIR] FILE...\n"
	"       sframe-conv -D|--detach FILE...\n"
	"       sframe-conv --detach-all\n"
	"       sframe-conv -s|--system [-d DIR] [PATH...]\n"
	"       sframe-conv -A OBJFD|vdso OUTFD [DIRFD]\n";

static void usage(void)
{
	fputs(usage_text, stderr);
	exit(2);
}

/* --help: what help2man turns into the manual page */
static void help(void)
{
	printf("%s\n", usage_text);
	puts("Convert the .eh_frame of x86-64 ELF files into SFrame sections, so that the\n"
	     "kernel can unwind user stacks through code built without frame pointers\n"
	     "(perf record --call-graph fp,defer).\n"
	     "\n"
	     "  FILE...             print what converts in each file\n"
	     "  -2, -3              write SFrame version 2 or 3 (default: the cache's)\n"
	     "  -o OUT              write FILE's section to OUT (starts relative to the text)\n"
	     "  -S NAME             with -o: PC-relative, for FILE's placeholder section NAME\n"
	     "  -c                  fill the cache of the LD_AUDIT helper, libsframe-audit.so\n"
	     "  -T                  with -c: write cache files under a temporary name\n"
	     "  -d DIR              the cache directory (default: $SFRAME_CACHE_DIR, else\n"
	     "                      $XDG_CACHE_HOME/sframe-conv, else ~/.cache/sframe-conv)\n"
	     "  -a, --attach        attach each FILE's section to the file (root): every\n"
	     "                      process that maps it, running or not, is unwound with it\n"
	     "  -D, --detach        detach the sections of the FILEs (root)\n"
	     "  --detach-all        detach every section attached to a file that is in\n"
	     "                      place (root; those of deleted files go with their last\n"
	     "                      mapping)\n"
	     "  -s, --system        attach the ELF files mapped by running processes and\n"
	     "                      those in PATHs (files, or directories: their *.so*;\n"
	     "                      default /lib/x86_64-linux-gnu and /usr/lib/x86_64-linux-gnu)\n"
	     "  -A OBJFD OUTFD      the LD_AUDIT helper's converter (not for interactive use)\n"
	     "  -h, --help          this text\n"
	     "\n"
	     "Attached sections are listed in /proc/sframe_files; their kernel memory is\n"
	     "limited by the sysctl kernel.sframe_attach_max_bytes. The sframe-attach\n"
	     "service attaches at boot, its timer every 15 minutes, and an APT hook after\n"
	     "each package installation.\n"
	     "\n"
	     "Exit status: 0 if every file converted or attached, 1 otherwise, 2 on bad usage.");
	exit(0);
}

static int fd_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s < '0' || *s > '9' || *end || v > INT_MAX)
		usage();
	return v;
}

/*
 * sframe-conv -A: libsframe-audit.so's converter, run with every signal
 * blocked (unblocked here), its environment empty, fds 0-2 /dev/null
 */
static int audit_fill(int argc, char **argv)
{
	const void *vdso;
	sigset_t none;
	int fd = -1, ret;
	Elf *elf;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (argc < 2 || argc > 3)
		usage();
	elf_version(EV_CURRENT);
	if (!strcmp(argv[0], "vdso")) {
		vdso = (const void *)getauxval(AT_SYSINFO_EHDR);
		elf = vdso ? elf_memory((char *)vdso, sfconv_elf_image_size(vdso)) : NULL;
	} else {
		fd = fd_arg(argv[0]);
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	}
	if (!elf)
		return EINVAL;
	ret = sfconv_fill(elf, fd, fd_arg(argv[1]), argc > 2 ? fd_arg(argv[2]) : -1);
	elf_end(elf);
	return ret < 0 && ret > -126 ? -ret : ret ? EIO : 0;
}

int main(int argc, char **argv)
{
	struct sfconv_opts opts = { .version = SFCONV_VERSION_DEFAULT };
	const char *out = NULL, *dir = NULL, *scn = NULL;
	char dirbuf[PATH_MAX];
	int opt, fill = 0, att = 0, det = 0, det_all = 0, sys = 0, bad = 0;

	if (argc > 1 && !strcmp(argv[1], "-A"))
		return audit_fill(argc - 2, argv + 2);
	static const struct option longopts[] = {
		{ "attach", no_argument, NULL, 'a' },
		{ "detach", no_argument, NULL, 'D' },
		{ "detach-all", no_argument, NULL, 'X' },
		{ "system", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};

	while ((opt = getopt_long(argc, argv, "23co:d:S:TaDsh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			help();
			break;
		case '2':
		case '3':
			opts.version = opt - '0';
			break;
		case 'S':
			scn = optarg;
			break;
		case 'c':
			fill = 1;
			break;
		case 'a':
			att = 1;
			break;
		case 'D':
			det = 1;
			break;
		case 'X':
			det_all = 1;
			break;
		case 's':
			sys = 1;
			break;
		case 'T':
			sfconv_cache_no_tmpfile = 1;
			break;
		case 'o':
			out = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			usage();
		}
	}
	if (det_all) {
		if (optind != argc || argc != 2)
			usage();
		return detach_all();
	}
	/* The cache holds what the helper registers: the default version */
	if ((optind == argc && !sys) || (out && argc - optind > 1) || (out && fill) ||
	    (scn && !out) || ((fill || att || sys) && opts.version != SFCONV_VERSION_DEFAULT) ||
	    fill + att + det + sys + !!out > 1 || (det && dir))
		usage();
	elf_version(EV_CURRENT);
	/* Attaching without a cache converts each time */
	if ((att || sys) && !dir && !sfconv_cache_dir(dirbuf, sizeof(dirbuf)))
		dir = dirbuf;
	if (sys)
		return attach_system(argv + optind, argc - optind, dir);
	if (fill && !dir) {
		if (sfconv_cache_dir(dirbuf, sizeof(dirbuf))) {
			fprintf(stderr, "sframe-conv: no cache directory (or a relative one)\n");
			return 1;
		}
		dir = dirbuf;
	}
	for (; optind < argc; optind++)
		bad |= fill ? cache(argv[optind], dir) : att ? attach(argv[optind], dir) :
		       det ? detach(argv[optind]) : convert(argv[optind], &opts, scn, out);
	return bad ? 1 : 0;
}
