// SPDX-License-Identifier: GPL-2.0
/*
 * Cache files of converted SFrame sections, read and mapped (sfcache.h),
 * with system calls of its own (sfsys.h) and no libc but memcpy(),
 * memcmp(), strlen(): libsframe-audit.so runs it in every program.
 *
 * A cache file is a struct sfcache_hdr followed by the section as
 * sfconv_convert() wrote it (function starts relative to the text). The header
 * records what the section was made from: the text range and the .eh_frame
 * (address, size, hash of its bytes); a file whose record is not the
 * object's (stale, or other code under the same build ID) is not used.
 *
 * The file is mapped shared and read-only, wherever the kernel puts it:
 * the section's function starts are offsets from the object's text, which
 * SFRAME_SETUP_TEXT_RELATIVE tells the kernel, so its bytes are the same in
 * every process and the page cache's pages are all there is of it.
 *
 * The cache is trusted only as far as nobody but the user can write to it:
 * the directory must be the user's, not a symlink and not writable by
 * group or others (else there is no cache); a file must be a regular file
 * of the user's (or root's), not writable by group or others, opened
 * without following a symlink or blocking (a FIFO), else it is converted
 * again and replaced (sfload.c).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include "sfcache.h"
#include "sfsys.h"

/* @a then @b into @buf of @len bytes: 0 or -ENAMETOOLONG */
static int cat(char *buf, size_t len, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);

	if (na + nb + 1 > len)
		return -ENAMETOOLONG;
	memcpy(buf, a, na);
	memcpy(buf + na, b, nb + 1);
	return 0;
}

int sfcache_dir(const char *dir, const char *base, const char *home, char *buf, size_t len)
{
	if (dir && !*dir)
		return -ENOENT;
	if (dir && *dir != '/')
		return -EINVAL;
	if (dir)
		return cat(buf, len, dir, "");
	/* A relative $XDG_CACHE_HOME is invalid (XDG Base Directory spec) */
	if (base && *base == '/')
		return cat(buf, len, base, "/sframe-conv");
	if (home && *home == '/')
		return cat(buf, len, home, "/.cache/sframe-conv");
	return -ENOENT;
}

int sfcache_name(char *buf, size_t len, const char *id)
{
	return cat(buf, len, id, ".sframe");
}

/* mkdir -p, 0700 */
static int make_dir(const char *dir)
{
	size_t i, n = strlen(dir);
	char path[PATH_MAX];
	int ret;

	if (n >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i])
			continue;
		path[i] = 0;
		ret = sf_mkdirat(AT_FDCWD, path, 0700);
		if (ret && ret != -EEXIST)
			return ret;
		path[i] = dir[i];
	}
	return 0;
}

int sfcache_open_dir(const char *dir, const char **why, struct stat *sbp)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	struct stat sb;
	int fd;

	fd = sf_openat(AT_FDCWD, dir, flags, 0);
	if (fd == -ENOENT) {
		*why = "cache directory cannot be made";
		if (make_dir(dir))
			return -1;
		fd = sf_openat(AT_FDCWD, dir, flags, 0);
	}
	*why = "cache directory is a symlink or not a directory";
	if (fd < 0)
		return -1;
	if (sf_fstat(fd, &sb))
		*why = "cache directory cannot be read";
	else if (sb.st_uid != sf_geteuid())
		*why = "cache directory is not the user's";
	else if (sb.st_mode & (S_IWGRP | S_IWOTH))
		*why = "cache directory is writable by group or others";
	else {
		if (sbp)
			*sbp = sb;
		return fd;
	}
	sf_close(fd);
	return -1;
}

/* Map the file at @fd (@l->map_len bytes, the section at @off) shared and read-only */
static int map_shared(int fd, size_t off, struct sfconv_loaded *l)
{
	long p = sf_mmap(NULL, l->map_len, PROT_READ, MAP_SHARED, fd, 0);

	if (sf_mmap_failed(p))
		return p;
	l->map = (void *)p;
	l->sframe = (char *)l->map + off;
	return 0;
}

void sfcache_file_of(const struct stat *sb, struct sfcache_file *f)
{
	memset(f, 0, sizeof(*f));
	f->dev = sb->st_dev;
	f->ino = sb->st_ino;
	f->size = sb->st_size;
	f->mtime_sec = sb->st_mtim.tv_sec;
	f->mtime_nsec = sb->st_mtim.tv_nsec;
	f->ctime_sec = sb->st_ctim.tv_sec;
	f->ctime_nsec = sb->st_ctim.tv_nsec;
}

/* Made for @key, or (@file not NULL) from the file @file for @key but the hash? */
static int same_source(const struct sfcache_hdr *h, const struct sfcache_key *key,
		       const struct sfcache_file *file)
{
	if (!file)
		return !memcmp(&h->key, key, sizeof(*key));
	return file->ino && !memcmp(&h->file, file, sizeof(*file)) &&
	       h->key.text_vaddr == key->text_vaddr && h->key.text_size == key->text_size &&
	       h->key.cfi.eh_frame_vaddr == key->cfi.eh_frame_vaddr &&
	       h->key.cfi.eh_frame_size == key->cfi.eh_frame_size;
}

int sfcache_map_file(int fd, const struct sfcache_key *key,
		     const struct sfcache_file *file, int own, struct sfconv_loaded *l)
{
	struct sfcache_hdr h;
	struct stat sb;

	if (sf_fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		l->cache_why = "cache file is not a regular file";
	else if (!own && sb.st_uid != sf_geteuid() && sb.st_uid)
		l->cache_why = "cache file is not the user's";
	else if (!own && (sb.st_mode & (S_IWGRP | S_IWOTH)))
		l->cache_why = "cache file is writable by group or others";
	else if (sf_pread(fd, &h, sizeof(h), 0) != sizeof(h) ||
		 memcmp(h.magic, SFCACHE_MAGIC, sizeof(h.magic)))
		l->cache_why = "cache file is of another version or truncated";
	else if (!same_source(&h, key, file))
		l->cache_why = "cache file is for other code";
	else if (h.sframe_size > SFCACHE_SECTION_MAX ||
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
	return map_shared(fd, sizeof(h), l);
}

int sfcache_map_cached(int dirfd, const char *name, const struct sfcache_key *key,
		       const struct sfcache_file *file, struct sfconv_loaded *l)
{
	int fd, ret;

	fd = sf_openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd < 0) {
		l->cache_why = fd == -ENOENT ? "no cache file" :
			       fd == -ELOOP ? "cache file is a symlink" :
			       "cache file cannot be opened";
		return -ENOENT;
	}
	ret = sfcache_map_file(fd, key, file, 0, l);
	sf_close(fd);
	return ret;
}

int sfconv_register(const struct sfconv_loaded *l)
{
	struct sframe_setup args = {
		.sframe_start = (uint64_t)l->sframe,
		.sframe_size = l->sframe_size,
		.text_start = l->text_start,
		.text_size = l->text_size,
		.flags = SFRAME_SETUP_TEXT_RELATIVE,
	};

	if (!l->sframe_size)
		return -ENODATA;
	return SF_SYS(__NR_sframe_register, &args, SFRAME_SETUP_SIZE_VER1, 0, 0, 0, 0);
}

void sfconv_unload(struct sfconv_loaded *l)
{
	if (l->map)
		sf_munmap(l->map, l->map_len);
	l->map = NULL;
}
