/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Converted SFrame sections at run time, without libc (libsframe-audit.so)
 * or with it (sfload.c, the converter): the cache directory, a cache file
 * checked and mapped, the section handed to the kernel (sframe_register()
 * with SFRAME_SETUP_TEXT_RELATIVE).
 */
#ifndef SFCACHE_H
#define SFCACHE_H

#include <stddef.h>
#include <stdint.h>
#include "sfelf.h"

/*
 * The SFrame version of the sections converted for the cache and the helper
 * (built with SFCONV_VERSION=2 in tools/sframe-conv/sframe-conv.mk for
 * kernels that read v2 only)
 */
#ifndef SFCONV_VERSION_DEFAULT
#define SFCONV_VERSION_DEFAULT	3
#endif

/*
 * Byte 6: that version; change the last byte when the converter's output or
 * this header changes
 */
#define SFCACHE_MAGIC		(SFCONV_VERSION_DEFAULT == 2 ? "SFCONV\2\7" : "SFCONV\3\7")

/* The largest section the kernel takes (sframe_register(): -EFBIG) */
#define SFCACHE_SECTION_MAX	(16 << 20)

/* What a section is made from: a cache file is used only for the same */
struct sfcache_key {
	uint64_t text_vaddr;
	uint64_t text_size;
	struct sfconv_cfi_id cfi;
};

/*
 * The file an object was converted from, as fstat() gives it: its device,
 * inode, size and modification and change times (0: not known)
 */
struct sfcache_file {
	uint64_t dev;
	uint64_t ino;
	uint64_t size;
	int64_t mtime_sec;
	int64_t mtime_nsec;
	int64_t ctime_sec;
	int64_t ctime_nsec;
};

/* A cache file: this header, then the section (starts relative to the text) */
struct sfcache_hdr {
	char magic[8];
	struct sfcache_key key;
	struct sfcache_file file;
	uint64_t sframe_size;
	uint32_t fdes;
	uint32_t converted;
};

/* The sframe_register() system call (include/uapi/linux/sframe.h) */
#ifndef SFRAME_SETUP_SIZE_VER0
struct sframe_setup {
	uint64_t sframe_start;
	uint64_t sframe_size;
	uint64_t text_start;
	uint64_t text_size;
	uint64_t flags;		/* version 1 */
};
#define SFRAME_SETUP_SIZE_VER0	32
#define SFRAME_SETUP_SIZE_VER1	40
#define SFRAME_SETUP_TEXT_RELATIVE	(1ULL << 0)
#endif
/*
 * Its numbers where the C library's headers do not have them yet (x86-64;
 * the same on every kernel base the series is carried on)
 */
#ifndef __NR_sframe_register
#define __NR_sframe_register	473
#endif
#ifndef __NR_sframe_unregister
#define __NR_sframe_unregister	474
#endif

/**
 * struct sfconv_loaded - a converted section mapped for an object
 * @map: the mapping holding it: the cache file (or the converter's output)
 *	mapped shared and read-only, or anonymous memory (sfconv_load()
 *	without a cache)
 * @map_len: its length
 * @sframe: the section (function starts relative to the text)
 * @sframe_size: its size (0: nothing converted, nothing to register)
 * @text_start: the object's code, at run time
 * @text_size: its size
 * @cached: the section came from the cache
 * @cache_why: else why not (a static string), e.g. "no cache file"
 * @fdes: FDEs of the object (from the conversion, or the cache)
 * @converted: FDEs converted whole
 */
struct sfconv_loaded {
	void *map;
	size_t map_len;
	void *sframe;
	size_t sframe_size;
	uint64_t text_start;
	uint64_t text_size;
	int cached;
	const char *cache_why;
	unsigned int fdes;
	unsigned int converted;
};

/*
 * The cache directory from the values of $SFRAME_CACHE_DIR, $XDG_CACHE_HOME
 * and $HOME (NULL if unset): the first, else XDG_CACHE_HOME/sframe-conv,
 * else HOME/.cache/sframe-conv (relative ones are not used). Returns 0,
 * -ENOENT for no cache (SFRAME_CACHE_DIR set to "", or no HOME), -EINVAL if
 * SFRAME_CACHE_DIR is relative, -ENAMETOOLONG.
 */
int sfcache_dir(const char *sframe_cache_dir, const char *xdg_cache_home,
		const char *home, char *buf, size_t len);

/*
 * Open the cache directory @dir, made (0700, with its parents) if missing:
 * its fd (and its stat in *@sb if not NULL), or -1 with *@why saying why it
 * is not used
 */
struct stat;
int sfcache_open_dir(const char *dir, const char **why, struct stat *sb);

/* The name of the cache file of build ID @id: 0, or -ENAMETOOLONG */
int sfcache_name(char *buf, size_t len, const char *id);

/* The identity of the file of status @sb */
void sfcache_file_of(const struct stat *sb, struct sfcache_file *f);

/*
 * Map the section of the cache file open at @fd if it is one to use: made
 * for @key, or (if @file is not NULL) from the file @file for @key but its
 * .eh_frame hash (not computed then): 0, -ENOENT with
 * l->cache_why set if not, or another negative errno value. The file must
 * be the user's (or root's) and writable by nobody else, unless @own (a
 * file of the process's own making).
 */
int sfcache_map_file(int fd, const struct sfcache_key *key,
		     const struct sfcache_file *file, int own, struct sfconv_loaded *l);

/* The cache file @name in @dirfd, mapped: as sfcache_map_file() */
int sfcache_map_cached(int dirfd, const char *name, const struct sfcache_key *key,
		       const struct sfcache_file *file, struct sfconv_loaded *l);

/* Hand a loaded section to the kernel: 0, or a negative errno value */
int sfconv_register(const struct sfconv_loaded *l);

/* Unmap a loaded section */
void sfconv_unload(struct sfconv_loaded *l);

#endif /* SFCACHE_H */
