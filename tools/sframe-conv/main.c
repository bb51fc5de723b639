// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-conv: convert the .eh_frame of x86-64 ELF objects into SFrame and
 * cache it for libsframe-audit.so. Its usage is its manual page,
 * sframe-conv.1: --help prints the page's SYNOPSIS, COMMANDS and OPTIONS
 * (usage.h, made from it by sframe-conv.mk and man2usage.awk). One function
 * per command (cmds[]).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "sfconv.h"
#include "usage.h"

/**
 * struct cmd_args - a command's options and operands
 * @version: -2, -3 (convert)
 * @out: -o OUT (convert)
 * @scn: -S NAME (convert)
 * @dir: -d DIR, else the default cache directory (cache)
 * @files: the operands
 * @nfiles: how many
 */
struct cmd_args {
	int version;
	const char *out;
	const char *scn;
	const char *dir;
	char **files;
	int nfiles;
};

/* Print the synopsis of command @cmd (NULL: all) on stderr and exit 2 */
static void __attribute__((noreturn)) usage(const char *cmd);

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

static int fd_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s < '0' || *s > '9' || *end || v > INT_MAX)
		usage("audit-fill");
	return v;
}

/*
 * sframe-conv audit-fill: libsframe-audit.so's converter, run with every
 * signal blocked (unblocked here), its environment empty, fds 0-2 /dev/null
 */
static int cmd_audit_fill(struct cmd_args *a)
{
	char **argv = a->files;
	const void *vdso;
	sigset_t none;
	int fd = -1, ret;
	Elf *elf;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (a->nfiles > 3)
		usage("audit-fill");
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
	ret = sfconv_fill(elf, fd, fd_arg(argv[1]), a->nfiles > 2 ? fd_arg(argv[2]) : -1);
	elf_end(elf);
	return ret < 0 && ret > -126 ? -ret : ret ? EIO : 0;
}

/* Convert, print, and with -o write the section */
static int cmd_convert(struct cmd_args *a)
{
	struct sfconv_opts opts = { .version = a->version };
	int i, bad = 0;

	if ((a->out && a->nfiles > 1) || (a->scn && !a->out))
		usage("convert");
	for (i = 0; i < a->nfiles; i++)
		bad |= convert(a->files[i], &opts, a->scn, a->out);
	return bad ? 1 : 0;
}

static int cmd_cache(struct cmd_args *a)
{
	int i, bad = 0;

	if (!a->dir) {
		fprintf(stderr, "sframe-conv: no cache directory (or a relative one)\n");
		return 1;
	}
	for (i = 0; i < a->nfiles; i++)
		bad |= cache(a->files[i], a->dir);
	return bad ? 1 : 0;
}

/**
 * struct cmd - a command
 * @name: its name
 * @run: its function
 * @opts: the short options it takes (getopt())
 * @min_files: the operands it needs at least
 *
 * What each one does and takes is told by the manual page (usage()).
 */
struct cmd {
	const char *name;
	int (*run)(struct cmd_args *a);
	const char *opts;
	int min_files;
};

static const struct cmd cmds[] = {
	{ "convert", cmd_convert, "23o:S:", 1 },
	{ "cache", cmd_cache, "Td:", 1 },
	{ "audit-fill", cmd_audit_fill, "", 2 },
};

/* The lines of the synopsis (usage.h) of @cmd (NULL: all) */
static void usage(const char *cmd)
{
	const char *p = sfconv_synopsis, *end;
	size_t n = cmd ? strlen(cmd) : 0;
	int first = 1;

	for (; *p; p = end + 1) {
		end = strchr(p, '\n');
		if (cmd && (strncmp(p, "sframe-conv ", 12) || strncmp(p + 12, cmd, n) ||
			    (p[12 + n] != ' ' && p[12 + n] != '\n')))
			continue;
		fprintf(stderr, "%s%.*s\n", first ? "usage: " : "       ", (int)(end - p), p);
		first = 0;
	}
	exit(2);
}

static void __attribute__((noreturn)) help(void)
{
	fputs(sfconv_help, stdout);
	exit(0);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct cmd_args a = { .version = SFCONV_VERSION_DEFAULT };
	const struct cmd *cmd = NULL;
	char optstring[16], name[32], dirbuf[PATH_MAX];
	size_t i;
	int opt;

	if (argc < 2)
		usage(NULL);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))
		help();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]) && !cmd; i++)
		if (!strcmp(argv[1], cmds[i].name))
			cmd = &cmds[i];
	if (!cmd)
		usage(NULL);

	/* Its options after the command, in getopt's messages "sframe-conv CMD" */
	snprintf(optstring, sizeof(optstring), "%sh", cmd->opts);
	snprintf(name, sizeof(name), "sframe-conv %s", cmd->name);
	argv[1] = name;
	while ((opt = getopt_long(argc - 1, argv + 1, optstring, longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			help();
			break;
		case '2':
		case '3':
			a.version = opt - '0';
			break;
		case 'o':
			a.out = optarg;
			break;
		case 'S':
			a.scn = optarg;
			break;
		case 'd':
			a.dir = optarg;
			break;
		case 'T':
			sfconv_cache_no_tmpfile = 1;
			break;
		default:
			usage(cmd->name);
		}
	}
	a.files = argv + 1 + optind;
	a.nfiles = argc - 1 - optind;
	if (a.nfiles < cmd->min_files)
		usage(cmd->name);
	elf_version(EV_CURRENT);
	/* The default cache directory: none if it cannot be used */
	if (strchr(cmd->opts, 'd') && !a.dir && !sfconv_cache_dir(dirbuf, sizeof(dirbuf)))
		a.dir = dirbuf;
	return cmd->run(&a);
}
