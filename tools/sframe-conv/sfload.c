// SPDX-License-Identifier: GPL-2.0
/*
 * Converted SFrame sections at run time: the on-disk cache (one file per
 * build ID), mapping a section near its object's code, and handing it to
 * the kernel with PR_REGISTER_SFRAME.
 *
 * A cache file is a struct cache_hdr followed by the section as
 * sfconv_convert() wrote it (for the object at address 0). It is mapped
 * privately, its function starts are relocated (the FDE pages become
 * private copies) and it is made read-only. SFrame function starts are 32
 * bits relative to the section, so the mapping must be within 2 GiB of the
 * code: the kernel's default placement puts it next to the shared
 * libraries; for a program mapped far from them, below the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sfconv.h"

/* Change the last byte when the converter's output changes */
#define CACHE_MAGIC	"SFCONV\0\2"

struct cache_hdr {
	char magic[8];
	uint64_t text_vaddr;
	uint64_t text_size;
	uint64_t sframe_size;
	uint32_t fdes;
	uint32_t converted;
	uint8_t pad[24];
};

int sfconv_cache_dir(char *buf, size_t len)
{
	const char *dir = getenv("SFRAME_CACHE_DIR");
	const char *base = getenv("XDG_CACHE_HOME");
	int n;

	if (dir)
		n = *dir ? snprintf(buf, len, "%s", dir) : -1;
	else if (base && *base)
		n = snprintf(buf, len, "%s/sframe-conv", base);
	else if ((base = getenv("HOME")) && *base)
		n = snprintf(buf, len, "%s/.cache/sframe-conv", base);
	else
		n = -1;
	return n < 0 || (size_t)n >= len ? -ENOENT : 0;
}

/* mkdir -p */
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

/* Map the cached section at @path: 0, -ENOENT if absent, or stale */
static int map_cached(const char *path, uint64_t vaddr, uint64_t size,
		      uint64_t bias, struct sfconv_loaded *l)
{
	struct cache_hdr h;
	struct stat sb;
	int fd, ret = -ENOENT;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &sb) || pread(fd, &h, sizeof(h), 0) != sizeof(h) ||
	    memcmp(h.magic, CACHE_MAGIC, sizeof(h.magic)) ||
	    h.text_vaddr != vaddr || h.text_size != size ||
	    (uint64_t)sb.st_size != sizeof(h) + h.sframe_size)
		goto out;
	l->fdes = h.fdes;
	l->converted = h.converted;
	l->sframe_size = h.sframe_size;
	ret = 0;
	if (!h.sframe_size)
		goto out;
	l->map_len = sb.st_size;
	l->map = map_near(l->map_len, fd, sizeof(h), l->text_start,
			  l->text_start + l->text_size);
	if (!l->map) {
		ret = -ERANGE;
		goto out;
	}
	l->sframe = (char *)l->map + sizeof(h);
	ret = finish(l, bias);
out:
	close(fd);
	return ret;
}

/* Write the cache file atomically (a temporary file, renamed) */
static void write_cache(const char *dir, const char *path,
			const struct cache_hdr *h, const void *sframe)
{
	char tmp[PATH_MAX];
	int fd, ok;

	if (make_dir(dir) ||
	    snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, getpid()) >= (int)sizeof(tmp))
		return;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	ok = write(fd, h, sizeof(*h)) == sizeof(*h) &&
	     (!h->sframe_size ||
	      write(fd, sframe, h->sframe_size) == (ssize_t)h->sframe_size);
	if (close(fd) || !ok || rename(tmp, path))
		unlink(tmp);
}

int sfconv_load(Elf *elf, uint64_t bias, const char *cache_dir,
		struct sfconv_loaded *l)
{
	char id[2 * 64 + 1], path[PATH_MAX];
	struct sfconv_stats st;
	struct cache_hdr h;
	uint64_t vaddr, size;
	void *sframe;
	size_t sfsize;
	int ret;

	memset(l, 0, sizeof(*l));
	if (sfconv_has_sframe(elf))
		return -EEXIST;
	ret = sfconv_text_range(elf, &vaddr, &size);
	if (ret)
		return ret;
	l->text_start = bias + vaddr;
	l->text_size = size;

	if (cache_dir && (sfconv_build_id(elf, id, sizeof(id)) ||
			  snprintf(path, sizeof(path), "%s/%s.sframe", cache_dir, id) >=
			  (int)sizeof(path)))
		cache_dir = NULL;
	if (cache_dir) {
		ret = map_cached(path, vaddr, size, bias, l);
		if (ret != -ENOENT) {
			l->cached = !ret;
			return ret;
		}
	}

	ret = sfconv_convert(elf, vaddr, size, &sframe, &sfsize, &st, NULL, NULL);
	if (ret)
		return ret;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, sizeof(h.magic));
	h.text_vaddr = vaddr;
	h.text_size = size;
	h.sframe_size = sfsize;
	h.fdes = st.fdes;
	h.converted = st.full;
	if (cache_dir) {
		write_cache(cache_dir, path, &h, sframe);
		if (!map_cached(path, vaddr, size, bias, l)) {
			free(sframe);
			return 0;
		}
	}

	/* No cache: a private copy in anonymous memory */
	l->fdes = st.fdes;
	l->converted = st.full;
	l->sframe_size = sfsize;
	ret = 0;
	if (sfsize) {
		l->map_len = sfsize;
		l->map = map_near(sfsize, -1, 0, l->text_start, l->text_start + size);
		if (l->map) {
			l->sframe = l->map;
			memcpy(l->sframe, sframe, sfsize);
			ret = finish(l, bias);
		} else {
			ret = -ERANGE;
		}
	}
	free(sframe);
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
