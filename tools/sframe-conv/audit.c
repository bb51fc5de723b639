// SPDX-License-Identifier: GPL-2.0
/*
 * libsframe-audit.so: complete user stacks for 64-bit programs whose
 * libraries have no SFrame, with the kernel's SFrame unwinder.
 *
 * An LD_AUDIT module: the dynamic linker calls la_objopen() for the
 * program, ld.so and every library it loads, at start and at every
 * dlopen(). For each object without SFrame of its own, the section
 * converted from its .eh_frame (sfconv) is taken from the cache (one file
 * per build ID), or converted and cached, mapped and handed to the kernel
 * with prctl(PR_REGISTER_SFRAME). The vDSO is converted from memory once.
 * The kernel forgets a section when its object is unmapped (dlclose())
 * and at exec; the mapping holding the section is unmapped after the
 * dlclose() that unmapped the object (la_activity(LA_ACT_CONSISTENT)).
 *
 *   LD_AUDIT=/path/to/libsframe-audit.so program ...
 *
 * Environment:
 *   SFRAME_CACHE_DIR    the cache directory ("" for none); default
 *                       $XDG_CACHE_HOME/sframe-conv or ~/.cache/sframe-conv
 *   SFRAME_AUDIT_DEBUG  if set, one line per object on stderr
 *
 * It runs in the dynamic linker's auditing namespace, with its own copy of
 * libc, libelf and libdw; it binds no symbols (no la_symbind), so the
 * program runs as without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "sfconv.h"

struct object {
	struct object *next;
	struct sfconv_loaded l;
	bool closed;
};

static struct object *objects;
static char cache_buf[PATH_MAX];
static const char *cache_dir;
static bool debug;
static uintptr_t vdso_base;

static void say(const char *name, const struct sfconv_loaded *l, int ret)
{
	if (!debug)
		return;
	if (!ret)
		fprintf(stderr, "sframe-audit: %s: registered %u of %u FDEs%s\n", name,
			l->converted, l->fdes, l->cached ? " (cached)" : "");
	else if (ret == -EEXIST)
		fprintf(stderr, "sframe-audit: %s: has SFrame\n", name);
	else
		fprintf(stderr, "sframe-audit: %s: not registered: %s\n", name,
			strerror(-ret));
}

/* Convert or find the section of @elf loaded with @bias, register it */
static struct object *add(const char *name, Elf *elf, uintptr_t bias,
			  const char *cache)
{
	struct object *o = calloc(1, sizeof(*o));
	int ret;

	if (!o)
		return NULL;
	ret = sfconv_load(elf, bias, cache, &o->l);
	if (!ret)
		ret = sfconv_register(&o->l);
	say(name, &o->l, ret);
	if (ret) {
		sfconv_unload(&o->l);
		free(o);
		return NULL;
	}
	o->next = objects;
	objects = o;
	return o;
}

/* The vDSO, from memory: small, converted every time */
static void add_vdso(void)
{
	const void *image = (const void *)getauxval(AT_SYSINFO_EHDR);
	size_t size = image ? sfconv_elf_image_size(image) : 0;
	Elf *elf;

	if (!size)
		return;
	elf = elf_memory((char *)image, size);
	if (!elf)
		return;
	vdso_base = (uintptr_t)image;
	add("[vdso]", elf, vdso_base, NULL);
	elf_end(elf);
}

unsigned int la_version(unsigned int version)
{
	(void)version;
	elf_version(EV_CURRENT);
	debug = getenv("SFRAME_AUDIT_DEBUG");
	if (!sfconv_cache_dir(cache_buf, sizeof(cache_buf)))
		cache_dir = cache_buf;
	add_vdso();
	return LAV_CURRENT;
}

unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	/* The program's own name is empty */
	const char *path = *map->l_name ? map->l_name : "/proc/self/exe";
	struct object *o;
	Elf *elf;
	int fd;

	(void)lmid;
	*cookie = 0;
	if (map->l_addr == vdso_base)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		o = add(*map->l_name ? map->l_name : "[program]", elf, map->l_addr,
			cache_dir);
		*cookie = (uintptr_t)o;
		elf_end(elf);
	}
	close(fd);
	return 0;
}

unsigned int la_objclose(uintptr_t *cookie)
{
	struct object *o = (struct object *)*cookie;

	if (o)
		o->closed = true;
	return 0;
}

/* After a dlclose(): the objects are unmapped, so are their sections now */
void la_activity(uintptr_t *cookie, unsigned int flag)
{
	struct object **p = &objects, *o;

	(void)cookie;
	if (flag != LA_ACT_CONSISTENT)
		return;
	while ((o = *p)) {
		if (!o->closed) {
			p = &o->next;
			continue;
		}
		*p = o->next;
		sfconv_unload(&o->l);
		free(o);
	}
}
