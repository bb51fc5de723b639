// SPDX-License-Identifier: GPL-2.0
/*
 * Converted SFrame sections at run time: the on-disk cache (one file per
 * build ID), mapping a section near its object's code, and handing it to
 * the kernel with PR_REGISTER_SFRAME.
 *
 * A cache file is a struct cache_hdr followed by the section as
 * sfconv_convert() wrote it (for the object at address 0). The header
 * records what the section was made from: the text range and the
 * .eh_frame (address, size, hash of its bytes); a file whose record is not
 * the object's (stale, or other code under the same build ID) is converted
 * again and replaced. The file is mapped privately, its function starts
 * are relocated (the FDE pages become private copies) and it is made
 * read-only. SFrame function starts are 32 bits relative to the section,
 * so the mapping must be within 2 GiB of the code: the kernel's default
 * placement puts it next to the shared libraries; for a program mapped far
 * from them, below the program.
 *
 * The cache is trusted only as far as nobody but the user can write to it:
 * the directory must be the user's, not a symlink and not writable by
 * group or others (else there is no cache); a file must be a regular file
 * of the user's (or root's), not writable by group or others, opened
 * without following a symlink or blocking (a FIFO), else it is converted
 * again and replaced. Files are written unnamed (O_TMPFILE) and linked in
 * when complete; where the file system cannot, under a temporary name
 * renamed when complete, and temporaries older than STALE_SECONDS (of
 * writers killed before the rename) are removed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "sfconv.h"

/* Change the last byte when the converter's output or this header changes */
#define CACHE_MAGIC	"SFCONV\0\3"

/* The largest section the kernel takes (PR_REGISTER_SFRAME: -EFBIG) */
#define SECTION_MAX	(16 << 20)

#define STALE_SECONDS	600

/* What a section is made from: a cache file is used only for the same */
struct cache_key {
	uint64_t text_vaddr;
	uint64_t text_size;
	struct sfconv_cfi_id cfi;
};

struct cache_hdr {
	char magic[8];
	struct cache_key key;
	uint64_t sframe_size;
	uint32_t fdes;
	uint32_t converted;
};

int sfconv_cache_no_tmpfile;

int sfconv_cache_dir(char *buf, size_t len)
{
	const char *dir = getenv("SFRAME_CACHE_DIR");
	const char *base = getenv("XDG_CACHE_HOME");
	int n;

	if (dir && !*dir)
		return -ENOENT;
	if (dir && *dir != '/')
		return -EINVAL;
	if (dir)
		n = snprintf(buf, len, "%s", dir);
	/* A relative $XDG_CACHE_HOME is invalid (XDG Base Directory spec) */
	else if (base && *base == '/')
		n = snprintf(buf, len, "%s/sframe-conv", base);
	else if ((base = getenv("HOME")) && *base == '/')
		n = snprintf(buf, len, "%s/.cache/sframe-conv", base);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* mkdir -p, 0700 */
static int make_dir(const char *dir)
{
	size_t i, n = strlen(dir);
	char path[PATH_MAX];

	if (n >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i])
			continue;
		path[i] = 0;
		if (mkdir(path, 0700) && errno != EEXIST)
			return -errno;
		path[i] = dir[i];
	}
	return 0;
}

/*
 * Open the cache directory @dir, made (0700, with its parents) if missing:
 * its fd, or -1 with *@why saying why it is not used
 */
static int open_cache_dir(const char *dir, const char **why)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	struct stat sb;
	int fd;

	fd = open(dir, flags);
	if (fd < 0 && errno == ENOENT) {
		*why = "cache directory cannot be made";
		if (make_dir(dir))
			return -1;
		fd = open(dir, flags);
	}
	*why = "cache directory is a symlink or not a directory";
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb))
		*why = "cache directory cannot be read";
	else if (sb.st_uid != geteuid())
		*why = "cache directory is not the user's";
	else if (sb.st_mode & (S_IWGRP | S_IWOTH))
		*why = "cache directory is writable by group or others";
	else
		return fd;
	close(fd);
	return -1;
}

/* Can a section at @s describe [@text_start, @text_end)? */
static int near(uint64_t s, uint64_t text_start, uint64_t text_end)
{
	return (int64_t)(text_start - s) >= INT32_MIN &&
	       (int64_t)(text_end - s) <= INT32_MAX;
}

/*
 * Map @len bytes (of @fd from offset 0, or anonymous memory if @fd < 0)
 * where the section at @off in them can describe the code at
 * [@text_start, @text_end): where the kernel puts it by default, else
 * 1 GiB or 256 MiB below the code, else above it.
 */
static void *map_near(size_t len, int fd, size_t off, uint64_t text_start,
		      uint64_t text_end)
{
	const int64_t dist[] = { 0, -(1LL << 30), -(1LL << 28), 1LL << 28, 1LL << 30 };
	int flags = fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_PRIVATE;
	unsigned int i;

	for (i = 0; i < sizeof(dist) / sizeof(dist[0]); i++) {
		uint64_t hint = 0;
		void *p;

		if (dist[i] < 0 && text_start > (uint64_t)-dist[i] + len)
			hint = (text_start + dist[i] - len) & ~4095ULL;
		else if (dist[i] > 0)
			hint = (text_end + dist[i]) & ~4095ULL;
		if (i && !hint)
			continue;
		p = mmap((void *)hint, len, PROT_READ | PROT_WRITE, flags, fd, 0);
		if (p == MAP_FAILED)
			continue;
		if (near((uint64_t)p + off, text_start, text_end))
			return p;
		munmap(p, len);
	}
	return NULL;
}

/* Relocate the section in the mapping of @l, make it read-only */
static int finish(struct sfconv_loaded *l, uint64_t bias)
{
	int ret = sfconv_relocate(l->sframe, l->sframe_size, bias,
				  (uint64_t)l->sframe);

	if (!ret && mprotect(l->map, l->map_len, PROT_READ))
		ret = -errno;
	if (ret) {
		munmap(l->map, l->map_len);
		l->map = NULL;
	}
	return ret;
}

/*
 * Map the section of the cache file open at @fd if it is one to use (for
 * @key): 0, -ENOENT with l->cache_why set if not, or another negative
 * errno value
 */
static int map_file(int fd, const struct cache_key *key, uint64_t bias,
		    struct sfconv_loaded *l)
{
	struct cache_hdr h;
	struct stat sb;

	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		l->cache_why = "cache file is not a regular file";
	else if (sb.st_uid != geteuid() && sb.st_uid)
		l->cache_why = "cache file is not the user's";
	else if (sb.st_mode & (S_IWGRP | S_IWOTH))
		l->cache_why = "cache file is writable by group or others";
	else if (pread(fd, &h, sizeof(h), 0) != sizeof(h) ||
		 memcmp(h.magic, CACHE_MAGIC, sizeof(h.magic)))
		l->cache_why = "cache file is of another version or truncated";
	else if (memcmp(&h.key, key, sizeof(*key)))
		l->cache_why = "cache file is for other code";
	else if (h.sframe_size > SECTION_MAX ||
		 (uint64_t)sb.st_size != sizeof(h) + h.sframe_size)
		l->cache_why = "cache file is truncated or too long";
	else
		l->cache_why = NULL;
	if (l->cache_why)
		return -ENOENT;

	l->fdes = h.fdes;
	l->converted = h.converted;
	l->sframe_size = h.sframe_size;
	if (!h.sframe_size)
		return 0;
	l->map_len = sb.st_size;
	l->map = map_near(l->map_len, fd, sizeof(h), l->text_start,
			  l->text_start + l->text_size);
	if (!l->map)
		return -ERANGE;
	l->sframe = (char *)l->map + sizeof(h);
	return finish(l, bias);
}

/* The cache file @name in @dirfd, mapped: as map_file() */
static int map_cached(int dirfd, const char *name, const struct cache_key *key,
		      uint64_t bias, struct sfconv_loaded *l)
{
	int fd, ret;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		l->cache_why = errno == ENOENT ? "no cache file" :
			       errno == ELOOP ? "cache file is a symlink" :
			       "cache file cannot be opened";
		return -ENOENT;
	}
	ret = map_file(fd, key, bias, l);
	close(fd);
	return ret;
}

static bool write_all(int fd, const struct cache_hdr *h, const void *sframe)
{
	return write(fd, h, sizeof(*h)) == sizeof(*h) &&
	       (!h->sframe_size ||
		write(fd, sframe, h->sframe_size) == (ssize_t)h->sframe_size);
}

/* Remove temporaries older than STALE_SECONDS (their writers were killed) */
static void remove_stale(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	time_t old = time(NULL) - STALE_SECONDS;
	struct dirent *e;
	struct stat sb;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);

		if (n > 4 && !strcmp(e->d_name + n - 4, ".tmp") &&
		    !fstatat(dirfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(sb.st_mode) && sb.st_mtime < old)
			unlinkat(dirfd, e->d_name, 0);
	}
	closedir(dir);
}

/*
 * Write the cache file @name in @dirfd, replacing what is there (a file
 * found unusable): unnamed (O_TMPFILE), linked in when complete, else
 * under a temporary name, renamed. Returns the new file, open (even if it
 * could not be given its name), or -1.
 */
static int write_cache(int dirfd, const char *name, const struct cache_hdr *h,
		       const void *sframe)
{
	char path[NAME_MAX + 1];
	int fd = -1;

	if (!sfconv_cache_no_tmpfile)
		fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (!write_all(fd, h, sframe)) {
			close(fd);
			return -1;
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		unlinkat(dirfd, name, 0);
		linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW);
		return fd;
	}

	remove_stale(dirfd);
	if (snprintf(path, sizeof(path), "%s.%d.tmp", name, getpid()) >= (int)sizeof(path))
		return -1;
	fd = openat(dirfd, path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (!write_all(fd, h, sframe) || renameat(dirfd, path, dirfd, name)) {
		unlinkat(dirfd, path, 0);
		close(fd);
		return -1;
	}
	return fd;
}

/* Map a copy of @sframe in anonymous memory */
static int map_copy(const void *sframe, uint64_t bias, struct sfconv_loaded *l)
{
	if (!l->sframe_size)
		return 0;
	l->map_len = l->sframe_size;
	l->map = map_near(l->map_len, -1, 0, l->text_start, l->text_start + l->text_size);
	if (!l->map)
		return -ERANGE;
	l->sframe = l->map;
	memcpy(l->sframe, sframe, l->sframe_size);
	return finish(l, bias);
}

int sfconv_load(Elf *elf, uint64_t bias, const char *cache_dir,
		struct sfconv_loaded *l)
{
	char id[2 * 64 + 1], name[sizeof(id) + sizeof(".sframe")];
	struct cache_key key = { 0 };
	struct sfconv_stats st;
	struct cache_hdr h;
	int dirfd = -1, fd, ret;
	void *sframe;
	size_t size;

	memset(l, 0, sizeof(*l));
	if (sfconv_has_sframe(elf))
		return -EEXIST;
	ret = sfconv_text_range(elf, &key.text_vaddr, &key.text_size);
	if (ret)
		return ret;
	l->text_start = bias + key.text_vaddr;
	l->text_size = key.text_size;

	l->cache_why = "no cache";
	if (cache_dir && sfconv_build_id(elf, id, sizeof(id)))
		l->cache_why = "no build ID";
	else if (cache_dir && !sfconv_cfi_id(elf, &key.cfi))
		dirfd = open_cache_dir(cache_dir, &l->cache_why);
	if (dirfd >= 0) {
		snprintf(name, sizeof(name), "%s.sframe", id);
		ret = map_cached(dirfd, name, &key, bias, l);
		if (ret != -ENOENT) {
			l->cached = !ret;
			close(dirfd);
			return ret;
		}
	}

	ret = sfconv_convert(elf, key.text_vaddr, key.text_size, &sframe, &size, &st,
			     NULL, NULL);
	if (ret)
		goto out;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, sizeof(h.magic));
	h.key = key;
	h.sframe_size = size;
	h.fdes = st.fdes;
	h.converted = st.full;
	fd = dirfd < 0 ? -1 : write_cache(dirfd, name, &h, sframe);
	if (fd >= 0) {
		const char *why = l->cache_why;

		ret = map_file(fd, &key, bias, l);
		close(fd);
		l->cache_why = why;
		if (ret != -ENOENT)
			goto done;
	}
	/* No cache: a private copy */
	l->fdes = st.fdes;
	l->converted = st.full;
	l->sframe_size = size;
	ret = map_copy(sframe, bias, l);
done:
	free(sframe);
out:
	if (dirfd >= 0)
		close(dirfd);
	return ret;
}

int sfconv_register(const struct sfconv_loaded *l)
{
	struct prctl_sframe args = {
		.sframe_start = (uint64_t)l->sframe,
		.sframe_size = l->sframe_size,
		.text_start = l->text_start,
		.text_size = l->text_size,
	};

	if (!l->sframe_size)
		return -ENODATA;
	if (prctl(PR_REGISTER_SFRAME, &args, sizeof(args), 0, 0))
		return -errno;
	return 0;
}

void sfconv_unload(struct sfconv_loaded *l)
{
	if (l->map)
		munmap(l->map, l->map_len);
	l->map = NULL;
}
