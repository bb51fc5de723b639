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
 *   SFRAME_CACHE_DIR    the cache directory ("" for none; a relative one is
 *                       not used); default $XDG_CACHE_HOME/sframe-conv or
 *                       ~/.cache/sframe-conv (sfload.c: what is trusted)
 *   SFRAME_AUDIT_DEBUG  if set, one line per object on stderr
 *
 * It runs in the dynamic linker's auditing namespace, with its own copy of
 * libc, libelf and libdw; it binds no symbols (no la_symbind), so the
 * program runs as without it.
 *
 * It must not change what the program does, also in a sandbox: under a
 * seccomp filter (systemd's SystemCallFilter=, or one the program installs
 * before a dlopen()) any system call it makes may kill the process. So it
 * makes none once the thread has a filter: it looks before it does anything
 * at start (a filter inherited across exec) and at every object loaded
 * after the initial ones (their la_objopen() calls come before any code of
 * the program runs: constructors, and with them dlopen(), only after the
 * first la_activity(LA_ACT_CONSISTENT)). Looking takes an openat(), read()
 * and close() of /proc/thread-self/status, the calls the dynamic linker
 * has just made to load the object; where it cannot look (no /proc), it
 * does nothing. Once it saw a filter, it does not even unmap the sections
 * of objects closed later (their registrations end with their code). With
 * SFRAME_AUDIT_DEBUG it says so once, on stderr.
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
/* The initial objects are loaded: code of the program may have run */
static bool started;
/* The process has a seccomp filter (or we cannot tell): do nothing */
static bool sandboxed;

static void say(const char *name, const struct sfconv_loaded *l, int ret)
{
	char how[128];

	if (!debug)
		return;
	snprintf(how, sizeof(how), "%s%s", l->cached ? "cached" : "converted: ",
		 l->cached ? "" : l->cache_why);
	if (!ret)
		fprintf(stderr, "sframe-audit: %s: registered %u of %u FDEs (%s)\n", name,
			l->converted, l->fdes, how);
	else if (ret == -EEXIST)
		fprintf(stderr, "sframe-audit: %s: has SFrame\n", name);
	else if (l->fdes)
		fprintf(stderr, "sframe-audit: %s: not registered: %s (%u of %u FDEs, %zu bytes, %s)\n",
			name, strerror(-ret), l->converted, l->fdes, l->sframe_size, how);
	else
		fprintf(stderr, "sframe-audit: %s: not registered: %s\n", name,
			strerror(-ret));
}

/*
 * Has this thread a seccomp filter (or strict mode)? Also if it cannot be
 * told. The "Seccomp:" line of /proc/thread-self/status: 0 is none; a
 * kernel without seccomp has no such line.
 */
static bool seccomp_on(void)
{
	static const char key[] = "\nSeccomp:";
	char buf[4096], *p;
	size_t n = 0;
	ssize_t r;
	int fd;

	fd = open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	while (n < sizeof(buf) - 1 && (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	p = strstr(buf, key);
	if (!p)
		return n == sizeof(buf) - 1;
	p += sizeof(key) - 1;
	p += strspn(p, " \t");
	return *p != '0';
}

/* Stop for good once the thread has a seccomp filter */
static bool sandbox_check(void)
{
	if (!sandboxed && seccomp_on()) {
		sandboxed = true;
		if (debug)
			fprintf(stderr, "sframe-audit: seccomp filter (or no /proc): nothing more done\n");
	}
	return sandboxed;
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
	debug = getenv("SFRAME_AUDIT_DEBUG");
	if (sandbox_check())
		return LAV_CURRENT;
	elf_version(EV_CURRENT);
	switch (sfconv_cache_dir(cache_buf, sizeof(cache_buf))) {
	case 0:
		cache_dir = cache_buf;
		break;
	case -EINVAL:
		if (debug)
			fprintf(stderr, "sframe-audit: SFRAME_CACHE_DIR is relative: no cache\n");
		break;
	}
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
	if (sandboxed || (started && sandbox_check()) || map->l_addr == vdso_base)
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
	if (flag != LA_ACT_CONSISTENT || sandboxed)
		return;
	started = true;
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
