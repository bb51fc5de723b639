// SPDX-License-Identifier: GPL-2.0
/*
 * Converted SFrame sections, with libc and libdw: converted and written to
 * the cache (one file per build ID) for sframe-conv cache and for the
 * converter libsframe-audit.so runs on a cache miss (sframe-conv audit-fill,
 * sfconv_fill()); found in the cache, or converted, and mapped by
 * sfconv_load() (sframe-conv cache, tests). The cache key is sfelf.c's, and
 * reading and mapping cache files sfcache.c's, both shared with
 * libsframe-audit.so.
 *
 * Files are written unnamed (O_TMPFILE) and linked in when complete; where
 * the file system cannot, under a temporary name renamed when complete,
 * and temporaries older than STALE_SECONDS (of writers killed before the
 * rename) are removed.
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "sfconv.h"

#define STALE_SECONDS	600

int sfconv_cache_no_tmpfile;

int sfconv_cache_dir(char *buf, size_t len)
{
	return sfcache_dir(getenv("SFRAME_CACHE_DIR"), getenv("XDG_CACHE_HOME"),
			   getenv("HOME"), buf, len);
}

static bool write_all(int fd, const struct sfcache_hdr *h, const void *sframe)
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
static int write_cache(int dirfd, const char *name, const struct sfcache_hdr *h,
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

/* Map a copy of @sframe in anonymous memory, read-only */
static int map_copy(const void *sframe, struct sfconv_loaded *l)
{
	int ret = 0;

	if (!l->sframe_size)
		return 0;
	l->map_len = l->sframe_size;
	l->map = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l->map == MAP_FAILED) {
		l->map = NULL;
		return -errno;
	}
	l->sframe = l->map;
	memcpy(l->sframe, sframe, l->sframe_size);
	if (mprotect(l->map, l->map_len, PROT_READ))
		ret = -errno;
	if (ret) {
		munmap(l->map, l->map_len);
		l->map = NULL;
	}
	return ret;
}

/*
 * What the cache knows @elf by: its key (the CFI's part only if *@cfi) and
 * build ID (*@id "" if none). 0, -EEXIST if it has SFrame of its own, or a
 * negative errno value.
 */
static int object_key(Elf *elf, struct sfcache_key *key, char *id, size_t len, bool *cfi)
{
	struct sfelf e;
	int ret;

	memset(key, 0, sizeof(*key));
	*id = 0;
	*cfi = false;
	ret = sfconv_elf_view(elf, &e);
	if (ret)
		return ret;
	if (sfelf_has_sframe(&e))
		return -EEXIST;
	ret = sfelf_text_range(&e, &key->text_vaddr, &key->text_size);
	if (ret)
		return ret;
	if (sfelf_build_id(&e, id, len))
		*id = 0;
	*cfi = !sfelf_cfi_id(&e, &key->cfi, 1);
	return 0;
}

/* Convert @elf for @key into a cache file's header @h and section (malloc()ed) */
static int convert(Elf *elf, int objfd, const struct sfcache_key *key,
		   struct sfcache_hdr *h, void **sframe)
{
	struct sfconv_stats st;
	struct stat sb;
	size_t size;
	int ret;

	ret = sfconv_convert(elf, key->text_vaddr, key->text_size, NULL, sframe, &size, &st,
			     NULL, NULL);
	if (ret)
		return ret;
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, SFCACHE_MAGIC, sizeof(h->magic));
	h->key = *key;
	if (objfd >= 0 && !fstat(objfd, &sb))
		sfcache_file_of(&sb, &h->file);
	h->sframe_size = size;
	h->fdes = st.fdes;
	h->converted = st.full;
	return 0;
}

int sfconv_load(Elf *elf, int objfd, uint64_t bias, const char *cache_dir,
		struct sfconv_loaded *l)
{
	char id[2 * 64 + 1], name[sizeof(id) + sizeof(".sframe")];
	struct sfcache_key key;
	struct sfcache_hdr h;
	int dirfd = -1, fd, ret;
	void *sframe;
	bool cfi;

	memset(l, 0, sizeof(*l));
	ret = object_key(elf, &key, id, sizeof(id), &cfi);
	if (ret)
		return ret;
	l->text_start = bias + key.text_vaddr;
	l->text_size = key.text_size;

	l->cache_why = "no cache";
	if (cache_dir && !*id)
		l->cache_why = "no build ID";
	else if (cache_dir && cfi)
		dirfd = sfcache_open_dir(cache_dir, &l->cache_why, NULL);
	if (dirfd >= 0) {
		sfcache_name(name, sizeof(name), id);
		ret = sfcache_map_cached(dirfd, name, &key, NULL, l);
		if (ret != -ENOENT) {
			l->cached = !ret;
			close(dirfd);
			return ret;
		}
	}

	ret = convert(elf, objfd, &key, &h, &sframe);
	if (ret)
		goto out;
	fd = dirfd < 0 ? -1 : write_cache(dirfd, name, &h, sframe);
	if (fd >= 0) {
		const char *why = l->cache_why;

		ret = sfcache_map_file(fd, &key, NULL, 0, l);
		close(fd);
		l->cache_why = why;
		if (ret != -ENOENT)
			goto done;
	}
	/* No cache: a private copy */
	l->fdes = h.fdes;
	l->converted = h.converted;
	l->sframe_size = h.sframe_size;
	ret = map_copy(sframe, l);
done:
	free(sframe);
out:
	if (dirfd >= 0)
		close(dirfd);
	return ret;
}

int sfconv_fill(Elf *elf, int objfd, int out, int dirfd)
{
	char id[2 * 64 + 1], name[sizeof(id) + sizeof(".sframe")];
	struct sfcache_key key;
	struct sfcache_hdr h;
	void *sframe;
	bool cfi;
	int ret, fd;

	ret = object_key(elf, &key, id, sizeof(id), &cfi);
	if (!ret)
		ret = convert(elf, objfd, &key, &h, &sframe);
	if (ret)
		return ret;
	if (!write_all(out, &h, sframe))
		ret = -EIO;
	if (!ret && dirfd >= 0 && *id && cfi) {
		sfcache_name(name, sizeof(name), id);
		fd = write_cache(dirfd, name, &h, sframe);
		if (fd >= 0)
			close(fd);
	}
	free(sframe);
	return ret;
}
