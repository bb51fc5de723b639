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
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
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

static void usage(void)
{
	fprintf(stderr, "usage: sframe-conv [-2|-3] [-o OUT [-S NAME]] FILE...\n"
		"       sframe-conv -c [-T] [-d DIR] FILE...\n"
		"       sframe-conv -A OBJFD|vdso OUTFD [DIRFD]\n");
	exit(2);
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
	int opt, fill = 0, bad = 0;

	if (argc > 1 && !strcmp(argv[1], "-A"))
		return audit_fill(argc - 2, argv + 2);
	while ((opt = getopt(argc, argv, "23co:d:S:T")) != -1) {
		switch (opt) {
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
	/* The cache holds what the helper registers: the default version */
	if (optind == argc || (out && argc - optind > 1) || (out && fill) || (scn && !out) ||
	    (fill && opts.version != SFCONV_VERSION_DEFAULT))
		usage();
	elf_version(EV_CURRENT);
	if (fill && !dir) {
		if (sfconv_cache_dir(dirbuf, sizeof(dirbuf))) {
			fprintf(stderr, "sframe-conv: no cache directory (or a relative one)\n");
			return 1;
		}
		dir = dirbuf;
	}
	for (; optind < argc; optind++)
		bad |= fill ? cache(argv[optind], dir) : convert(argv[optind], &opts, scn, out);
	return bad ? 1 : 0;
}
