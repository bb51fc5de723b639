// SPDX-License-Identifier: GPL-2.0
/*
 * Cache files of converted SFrame sections, read and mapped (sfcache.h),
 * with system calls of its own (sfsys.h) and no libc but memcpy(),
 * memcmp(), strlen(): libsframe-audit.so runs it in every program.
 *
 * A cache file is a struct sfcache_hdr followed by the section as
 * sfconv_convert() wrote it (for the object at address 0). The header
 * records what the section was made from: the text range and the .eh_frame
 * (address, size, hash of its bytes); a file whose record is not the
 * object's (stale, or other code under the same build ID) is not used.
 *
 * The file is mapped shared and read-only, so that the page cache's pages
 * are all there is of the section's FREs; only the pages holding the
 * header and the FDEs, whose function starts are relocated to where the
 * section and the object are (SFrame's function starts are 32 bits
 * relative to the section), are mapped privately over them, written and
 * made read-only again: 4 KiB per 204 FDEs (libc: 76 KiB). The mapping
 * must be within 2 GiB of the code: the kernel's default placement puts it
 * next to the shared libraries; for a program mapped far from them, below
 * the program.
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

#define PAGE_SIZE	4096UL

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

/* Can a section at @s describe [@text_start, @text_end)? */
static int near(uint64_t s, uint64_t text_start, uint64_t text_end)
{
	return (int64_t)(text_start - s) >= INT32_MIN &&
	       (int64_t)(text_end - s) <= INT32_MAX;
}

/*
 * Where the kernel puts the mapping by default (next to the shared
 * libraries), else 1 GiB or 256 MiB below the code, else above it
 */
void *sfcache_map_near(size_t len, int fd, int prot, int shared, size_t off,
		       uint64_t text_start, uint64_t text_end)
{
	const int64_t dist[] = { 0, -(1LL << 30), -(1LL << 28), 1LL << 28, 1LL << 30 };
	int flags = (shared ? MAP_SHARED : MAP_PRIVATE) | (fd < 0 ? MAP_ANONYMOUS : 0);
	unsigned int i;

	for (i = 0; i < sizeof(dist) / sizeof(dist[0]); i++) {
		uint64_t hint = 0;
		long p;

		if (dist[i] < 0 && text_start > (uint64_t)-dist[i] + len)
			hint = (text_start + dist[i] - len) & ~(PAGE_SIZE - 1);
		else if (dist[i] > 0)
			hint = (text_end + dist[i]) & ~(PAGE_SIZE - 1);
		if (i && !hint)
			continue;
		/*
		 * Where the kernel puts it by default is next to this code: no use
		 * for code far from it (a program far from the shared libraries)
		 */
		if (!i && !near((uint64_t)(uintptr_t)&sfcache_map_near, text_start, text_end))
			continue;
		p = sf_mmap((void *)hint, len, prot, flags, fd, 0);
		if (sf_mmap_failed(p))
			continue;
		if (near((uint64_t)p + off, text_start, text_end))
			return (void *)p;
		sf_munmap((void *)p, len);
	}
	return NULL;
}

/*
 * Map the file at @fd (@l->map_len bytes, the section at @off) near the
 * code: shared and read-only, the pages with the header and FDEs private;
 * relocate the section, make it all read-only
 */
static int map_shared(int fd, size_t off, uint64_t bias, struct sfconv_loaded *l)
{
	size_t rel;
	long p;
	int ret;

	l->map = sfcache_map_near(l->map_len, fd, PROT_READ, 1, off, l->text_start,
				  l->text_start + l->text_size);
	if (!l->map)
		return -ERANGE;
	l->sframe = (char *)l->map + off;
	rel = sfconv_relocated_size(l->sframe, l->sframe_size);
	ret = -EINVAL;
	if (!rel)
		goto fail;
	l->private_len = (off + rel + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (l->private_len > l->map_len)
		l->private_len = l->map_len;
	/* Populated: copied now, not at a read fault and a write fault a page */
	p = sf_mmap(l->map, l->private_len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0);
	if (sf_mmap_failed(p)) {
		ret = p;
		goto fail;
	}
	/* What is relocated must be in the private copy (the file could have changed) */
	ret = -EINVAL;
	rel = sfconv_relocated_size(l->sframe, l->sframe_size);
	if (rel && off + rel <= l->private_len)
		ret = sfconv_relocate(l->sframe, l->sframe_size, bias, (uint64_t)l->sframe);
	if (!ret)
		ret = sf_mprotect(l->map, l->private_len, PROT_READ);
	if (!ret)
		return 0;
fail:
	sf_munmap(l->map, l->map_len);
	l->map = NULL;
	l->private_len = 0;
	return ret;
}

int sfcache_map_file(int fd, const struct sfcache_key *key, uint64_t bias, int own,
		     struct sfconv_loaded *l)
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
	else if (memcmp(&h.key, key, sizeof(*key)))
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
	return map_shared(fd, sizeof(h), bias, l);
}

int sfcache_map_cached(int dirfd, const char *name, const struct sfcache_key *key,
		       uint64_t bias, struct sfconv_loaded *l)
{
	int fd, ret;

	fd = sf_openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd < 0) {
		l->cache_why = fd == -ENOENT ? "no cache file" :
			       fd == -ELOOP ? "cache file is a symlink" :
			       "cache file cannot be opened";
		return -ENOENT;
	}
	ret = sfcache_map_file(fd, key, bias, 0, l);
	sf_close(fd);
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
	return sf_prctl(PR_REGISTER_SFRAME, (unsigned long)&args, sizeof(args), 0, 0);
}

void sfconv_unload(struct sfconv_loaded *l)
{
	if (l->map)
		sf_munmap(l->map, l->map_len);
	l->map = NULL;
}
