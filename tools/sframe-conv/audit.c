// SPDX-License-Identifier: GPL-2.0
/*
 * libsframe-audit.so: complete user stacks for 64-bit programs whose
 * libraries have no SFrame, with the kernel's SFrame unwinder.
 *
 * An LD_AUDIT module: the dynamic linker calls la_objopen() for the
 * program, ld.so and every library it loads, at start and at every
 * dlopen(). For each object without SFrame of its own, the section
 * converted from its .eh_frame is taken from the cache (one file per build
 * ID, sfcache.c), mapped and handed to the kernel with the
 * sframe_register() system call; the vDSO's too. The kernel forgets a section
 * when its object is unmapped (dlclose()) and at exec; the mapping holding
 * the section is unmapped after the dlclose() that unmapped the object
 * (la_activity(LA_ACT_CONSISTENT)).
 *
 *   LD_AUDIT=/path/to/libsframe-audit.so program ...
 *
 * Environment:
 *   SFRAME_CACHE_DIR    the cache directory ("" for none; a relative one is
 *                       not used); default $XDG_CACHE_HOME/sframe-conv or
 *                       ~/.cache/sframe-conv (sfcache.c: what is trusted)
 *   SFRAME_AUDIT_DEBUG  if set, one line per object on stderr
 *   SFRAME_AUDIT_KEEP   if set, sections the kernel refuses stay mapped as if
 *                       registered: to measure the helper's cost on a kernel
 *                       without sframe_register() (make sframe-conv-bench)
 *
 * It is cheap where it runs most, at a program's start with a warm cache:
 * it links nothing, not even libc (the dynamic linker loads a second libc
 * for an audit module that needs one), and makes its own system calls
 * (sfsys.h). What it needs of an object (sfelf.c: the text range, the
 * build ID, .eh_frame's address, size and hash) it reads where the
 * dynamic linker mapped it: the ELF and program headers (copied without
 * faulting, and checked against where the dynamic linker found the
 * object's dynamic section), the notes and .eh_frame, found through
 * .eh_frame_hdr; it opens the object's file only on a cache miss (or
 * for the section headers of an object without .eh_frame_hdr). The cache
 * file is mapped shared and read-only, as it is (sfcache.c: function
 * starts relative to the text, SFRAME_SETUP_TEXT_RELATIVE). The environment
 * and the auxiliary vector it finds above the initial stack (ld.so's
 * __libc_stack_end).
 *
 * Converting needs libdw, so a cache miss runs the converter: sframe-conv
 * next to this module (sframe-conv audit-fill), with no environment and with the
 * object's file, a new anonymous file (memfd) it writes the cache file's
 * bytes to, and the cache directory (in which it writes the cache file
 * too) as its only files. The program must not see it: a middle process
 * (exit signal 0, never exec'd, so neither SIGCHLD nor wait() tells the
 * program of it) runs the converter as its own child and waits for it,
 * both in the program's memory until the converter execs, on stacks of
 * their own, with all signals blocked (no handler of the program runs in
 * them; the converter unblocks them). The module checks what the converter
 * wrote against the object in memory as it checks a cache file, and maps
 * it as one.
 *
 * It binds no symbols (no la_symbind), so the program runs as without it.
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
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include "sfcache.h"
#include "sfelf.h"
#include "sfsys.h"

#define EXPORT		__attribute__((visibility("default")))
#define PAGE_SIZE	4096UL
/* An error of our own: the converter was killed by a signal */
#define EKILLED		1000

/* The initial stack: argc, argv, envp, auxv (ld.so's, GLIBC_2.2.5) */
extern void *__libc_stack_end;

struct object {
	struct object *next;
	struct sfconv_loaded l;
	bool closed;
};

/*
 * What the module keeps, in as few pages as can be (each private page
 * costs the process memory and time): the first one of this
 */
static struct {
	struct object *objects;
	struct object *free_objects;
	const char *cache_dir;
	/* The cache directory, open from one object to the next in a batch */
	int dirfd;
	dev_t dir_dev;
	ino_t dir_ino;
	char **environ_0;
	const Elf64_auxv_t *auxv;
	uintptr_t vdso_base;
	bool debug;
	bool keep_refused;
	/* The initial objects are loaded: code of the program may have run */
	bool started;
	/* The process has a seccomp filter (or we cannot tell): do nothing */
	bool sandboxed;
	/* The program's exit: sections need not be unmapped */
	bool exiting;
	/* Looked for a seccomp filter in this batch */
	bool checked;
	/* Why the converter cannot run (a negative errno value), or 0 */
	int converter_err;
	/* No process_vm_readv() (CONFIG_CROSS_MEMORY_ATTACH): /proc/self/mem, open */
	bool no_vm_readv;
	int memfd;
	/* The first objects, before any page is mapped for more */
	bool pool_used;
	struct object pool[8];
	char cache_buf[PATH_MAX];
} st __attribute__((aligned(4096)));

/* The converter's path, once found */
static char converter[PATH_MAX];

/*
 * Room for an object's headers (la_objopen() runs under the loader's lock):
 * its ELF and program headers in the first HDR_ROOM bytes, the section
 * headers and names after them; larger ones in memory mapped for them.
 * Also /proc/thread-self/status, read before.
 */
#define HDR_ROOM	1024
static uint8_t scratch[8192] __attribute__((aligned(4096)));

/*
 * What the compiler may call (struct copies, loops); no libc here. Loops
 * are not made calls again: -fno-tree-loop-distribute-patterns.
 */
void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

/* The value of the environment variable @name at start, or NULL */
static const char *get_env(const char *name)
{
	size_t n = strlen(name);
	char **e;

	for (e = st.environ_0; e && *e; e++)
		if (!memcmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static unsigned long get_auxv(unsigned long type)
{
	const Elf64_auxv_t *a;

	for (a = st.auxv; a && a->a_type != AT_NULL; a++)
		if (a->a_type == type)
			return a->a_un.a_val;
	return 0;
}

/* The environment and auxiliary vector above the initial stack: false if not there */
static bool find_env(void)
{
	long *sp = __libc_stack_end;
	char **p;

	if (!sp || sp[0] < 0 || sp[0] > 1 << 24 || sp[1 + sp[0]])
		return false;
	st.environ_0 = p = (char **)(sp + 2 + sp[0]);
	while (*p)
		p++;
	st.auxv = (const Elf64_auxv_t *)(p + 1);
	return true;
}

/* Lines for SFRAME_AUDIT_DEBUG, written whole */
struct line {
	char buf[PATH_MAX + 256];
	size_t n;
};

static void put(struct line *l, const char *s)
{
	while (*s && l->n < sizeof(l->buf) - 1)
		l->buf[l->n++] = *s++;
}

static void put_u(struct line *l, unsigned long v)
{
	char d[24];
	int i = sizeof(d) - 1;

	d[i] = 0;
	do
		d[--i] = '0' + v % 10;
	while ((v /= 10));
	put(l, d + i);
}

static void send(struct line *l)
{
	put(l, "\n");
	sf_write(2, l->buf, l->n);
}

static void put_err(struct line *l, int err)
{
	static const struct {
		int err;
		const char *text;
	} texts[] = {
		{ EPERM, "Operation not permitted" },
		{ ENOENT, "No such file or directory" },
		{ EINTR, "Interrupted system call" },
		{ EIO, "Input/output error" },
		{ E2BIG, "Argument list too long" },
		{ ENOEXEC, "Exec format error" },
		{ ECHILD, "No child processes" },
		{ EAGAIN, "Resource temporarily unavailable" },
		{ ENOMEM, "Cannot allocate memory" },
		{ EACCES, "Permission denied" },
		{ EFAULT, "Bad address" },
		{ EEXIST, "File exists" },
		{ EINVAL, "Invalid argument" },
		{ EMFILE, "Too many open files" },
		{ EFBIG, "File too large" },
		{ ENOSPC, "No space left on device" },
		{ ERANGE, "Numerical result out of range" },
		{ ENAMETOOLONG, "File name too long" },
		{ ENOSYS, "Function not implemented" },
		{ ENODATA, "No data available" },
		{ EOPNOTSUPP, "Operation not supported" },
		{ ESTALE, "the file is not the object loaded" },
		{ EKILLED, "the converter was killed" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		if (texts[i].err == err) {
			put(l, texts[i].text);
			return;
		}
	}
	put(l, "error ");
	put_u(l, err);
}

/* The debug line being made (under the loader's lock, as all of this) */
static struct line msg;

static void say(const char *name, const struct sfconv_loaded *l, int ret)
{
	if (!st.debug)
		return;
	msg.n = 0;
	put(&msg, "sframe-audit: ");
	put(&msg, name);
	if (l && (!ret || l->fdes)) {
		put(&msg, ret ? ": not registered: " : ": registered ");
		if (ret)
			put_err(&msg, -ret);
		put(&msg, ret ? " (" : "");
		put_u(&msg, l->converted);
		put(&msg, " of ");
		put_u(&msg, l->fdes);
		put(&msg, " FDEs");
		if (ret) {
			put(&msg, ", ");
			put_u(&msg, l->sframe_size);
			put(&msg, " bytes");
		}
		put(&msg, ret ? ", " : " (");
		put(&msg, l->cached ? "cached)" : "converted: ");
		if (!l->cached) {
			put(&msg, l->cache_why);
			put(&msg, ")");
		}
	} else if (ret == -EEXIST) {
		put(&msg, ": has SFrame");
	} else {
		put(&msg, ": not registered: ");
		put_err(&msg, -ret);
	}
	send(&msg);
}

/* Is @key in the first @n bytes at @p? */
static const char *find(const char *p, size_t n, const char *key)
{
	size_t k = strlen(key), i;

	for (i = 0; i + k <= n; i++)
		if (!memcmp(p + i, key, k))
			return p + i;
	return NULL;
}

/*
 * Has this thread a seccomp filter (or strict mode)? Also if it cannot be
 * told. The "Seccomp:" line of /proc/thread-self/status: 0 is none; a
 * kernel without seccomp has no such line.
 */
static bool seccomp_on(void)
{
	static const char key[] = "\nSeccomp:";
	char *buf = (char *)scratch;
	const char *p;
	size_t n = 0;
	long r;
	int fd;

	fd = sf_openat(AT_FDCWD, "/proc/thread-self/status", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return true;
	while (n < sizeof(scratch) && (r = sf_read(fd, buf + n, sizeof(scratch) - n)) > 0)
		n += r;
	sf_close(fd);
	p = find(buf, n, key);
	if (!p)
		return n == sizeof(scratch);
	p += sizeof(key) - 1;
	while (p < buf + n && (*p == ' ' || *p == '\t'))
		p++;
	return p == buf + n || *p != '0';
}

/* Stop for good once the thread has a seccomp filter */
static bool sandbox_check(void)
{
	if (!st.sandboxed && seccomp_on()) {
		st.sandboxed = true;
		if (st.debug) {
			msg.n = 0;
			put(&msg, "sframe-audit: seccomp filter (or no /proc): nothing more done");
			send(&msg);
		}
	}
	return st.sandboxed;
}

static struct object *new_object(void)
{
	struct object *o;
	size_t i;

	if (!st.free_objects && !st.pool_used) {
		st.pool_used = true;
		for (i = 0; i < sizeof(st.pool) / sizeof(st.pool[0]); i++) {
			st.pool[i].next = st.free_objects;
			st.free_objects = &st.pool[i];
		}
	}
	if (!st.free_objects) {
		long p = sf_mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (sf_mmap_failed(p))
			return NULL;
		o = (struct object *)p;
		for (i = 0; i < PAGE_SIZE / sizeof(*o); i++) {
			o[i].next = st.free_objects;
			st.free_objects = &o[i];
		}
	}
	o = st.free_objects;
	st.free_objects = o->next;
	memset(o, 0, sizeof(*o));
	return o;
}

static void free_object(struct object *o)
{
	o->next = st.free_objects;
	st.free_objects = o;
}

/*
 * The converter: sframe-conv in the directory of this module (as
 * /proc/self/maps names it). 0, or a negative errno value.
 */
static int find_converter(void)
{
	static const char name[] = "sframe-conv";
	/* Not on the stack: a thread's may be small */
	static char buf[4096], line[PATH_MAX + 128];
	uintptr_t self = (uintptr_t)&find_converter;
	size_t len = 0, i;
	bool skip = false;
	long n;
	int fd;

	fd = sf_openat(AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	while ((n = sf_read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < (size_t)n; i++) {
			uintptr_t start = 0, end = 0;
			char *p = line, *slash;

			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				else
					skip = true;
				continue;
			}
			line[len] = 0;
			len = 0;
			if (skip) {
				skip = false;
				continue;
			}
			for (; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++)
				start = start << 4 | (*p <= '9' ? *p - '0' : *p - 'a' + 10);
			if (*p++ != '-')
				continue;
			for (; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++)
				end = end << 4 | (*p <= '9' ? *p - '0' : *p - 'a' + 10);
			if (self < start || self >= end)
				continue;
			sf_close(fd);
			/* The path: from the first " /" on; its directory */
			p = (char *)find(line, strlen(line), " /");
			if (!p)
				return -ENOENT;
			for (slash = ++p; *p; p++)
				if (*p == '/')
					slash = p;
			p = (char *)find(line, strlen(line), " /") + 1;
			if ((size_t)(slash + 1 - p) + sizeof(name) > sizeof(converter))
				return -ENAMETOOLONG;
			memcpy(converter, p, slash + 1 - p);
			memcpy(converter + (slash + 1 - p), name, sizeof(name));
			return 0;
		}
	}
	sf_close(fd);
	return -ENOENT;
}

/* An object's file: opened only if needed (a cache miss) */
struct source {
	const char *path;
	int fd;
	int err;
};

static int source_fd(struct source *src)
{
	if (!src)
		return -ENOENT;
	if (src->fd < 0 && !src->err) {
		src->fd = sf_openat(AT_FDCWD, src->path, O_RDONLY | O_CLOEXEC, 0);
		if (src->fd < 0)
			src->err = src->fd;
	}
	return src->fd >= 0 ? src->fd : src->err;
}

/* What the converter's processes need, prepared before they run */
struct spawn {
	int obj, out, dir;
	bool quiet;
	char *argv[6];
	char *envp[1];
	/* Their stacks */
	char *stack_middle, *stack_child;
};

/* The exit status of the middle process if the converter was killed */
#define KILLED_STATUS	255

/*
 * The converter itself: the child of the middle process, in the memory of
 * the program until it execs (the middle process waits: CLONE_VFORK).
 * System calls only, nothing written but on its own stack.
 */
static int child(void *arg)
{
	const struct spawn *s = arg;
	int obj = -1, out, dir = -1, null;

	/* Out of the way of 3, 4, 5 first */
	out = sf_fcntl(s->out, F_DUPFD, 10);
	if (s->obj >= 0)
		obj = sf_fcntl(s->obj, F_DUPFD, 10);
	if (s->dir >= 0)
		dir = sf_fcntl(s->dir, F_DUPFD, 10);
	if (out < 0 || (s->obj >= 0 && obj < 0) || (s->dir >= 0 && dir < 0))
		return 128 + EMFILE;
	if ((obj >= 0 && sf_dup2(obj, 3) < 0) || sf_dup2(out, 4) < 0 ||
	    (dir >= 0 && sf_dup2(dir, 5) < 0))
		return 128 + EMFILE;
	/* Not the program's files there */
	if (obj < 0)
		sf_close(3);
	if (dir < 0)
		sf_close(5);
	null = sf_openat(AT_FDCWD, "/dev/null", O_RDWR, 0);
	if (null >= 0) {
		sf_dup2(null, 0);
		sf_dup2(null, 1);
		if (s->quiet)
			sf_dup2(null, 2);
	}
	if (sf_close_range(6, ~0U)) {
		sf_close(out);
		sf_close(obj);
		sf_close(dir);
		if (null > 5)
			sf_close(null);
	}
	return 128 - sf_execve(s->argv[0], s->argv, s->envp);
}

/* clone(@flags) with the child on @stack running @fn(@arg), then exit() */
__attribute__((visibility("hidden")))
long sf_clone_run(unsigned long flags, void *stack, int (*fn)(void *), void *arg);
__asm__(".text\n"
	".globl sf_clone_run\n"
	".hidden sf_clone_run\n"
	".type sf_clone_run, @function\n"
	".p2align 4\n"
	"sf_clone_run:\n"
	"	and $-16, %rsi\n"
	"	sub $16, %rsi\n"
	"	mov %rdx, (%rsi)\n"
	"	mov %rcx, 8(%rsi)\n"
	"	xor %edx, %edx\n"
	"	xor %r10d, %r10d\n"
	"	xor %r8d, %r8d\n"
	"	mov $56, %eax\n"		/* SYS_clone */
	"	syscall\n"
	"	test %rax, %rax\n"
	"	jnz 1f\n"
	"	xor %ebp, %ebp\n"
	"	pop %rax\n"
	"	pop %rdi\n"
	"	call *%rax\n"
	"	mov %eax, %edi\n"
	"	mov $60, %eax\n"		/* SYS_exit */
	"	syscall\n"
	"	hlt\n"
	"1:	ret\n"
	".size sf_clone_run, .-sf_clone_run\n");

/*
 * The middle process, the program's child: it runs the converter as its
 * own child and exits with its exit status (KILLED_STATUS if it was
 * killed). Its exit signal is 0 and it never execs, so the program gets no
 * SIGCHLD and waitpid(-1) does not see it; the converter's SIGCHLD (an
 * exec'd process has SIGCHLD as its exit signal) goes to it. Like child(),
 * in the memory of the program, on a stack of its own.
 */
static int middle(void *arg)
{
	const struct spawn *s = arg;
	int status = 0;
	long pid;

	pid = sf_clone_run(CLONE_VM | CLONE_VFORK | SIGCHLD, s->stack_child, child,
			   (void *)s);
	if (pid < 0)
		return 128 - pid;
	do
		pid = sf_wait4(pid, &status, 0);
	while (pid == -EINTR);
	if (pid < 0)
		return 128 - pid;
	return WIFEXITED(status) ? WEXITSTATUS(status) : KILLED_STATUS;
}

/*
 * Run the converter on the object's file @src (NULL: the vDSO), the cache
 * directory open at @dirfd (-1: none), and map what it wrote for @key: 0
 * or a negative errno value (-ESTALE: it converted other code)
 */
static int convert(struct source *src, int dirfd, const struct sfcache_key *key,
		   const struct sfcache_file *file, struct sfconv_loaded *l)
{
	static char stacks[2][8192] __attribute__((aligned(16)));
	const uint64_t all = ~0ULL;
	struct spawn sp = {
		.dir = dirfd, .quiet = !st.debug,
		.stack_middle = stacks[0] + sizeof(stacks[0]),
		.stack_child = stacks[1] + sizeof(stacks[1]),
	};
	const char *why = l->cache_why;
	int ret, status;
	uint64_t mask;
	long pid;

	if (st.converter_err)
		return st.converter_err;
	if (!*converter) {
		ret = find_converter();
		if (ret) {
			st.converter_err = ret;
			return ret;
		}
	}
	sp.obj = src ? source_fd(src) : -1;
	if (src && sp.obj < 0)
		return sp.obj;
	sp.argv[0] = converter;
	sp.argv[1] = "audit-fill";
	sp.argv[2] = src ? "3" : "vdso";
	sp.argv[3] = "4";
	sp.argv[4] = dirfd >= 0 ? "5" : NULL;
	sp.out = sf_memfd_create("sframe-conv", MFD_CLOEXEC);
	if (sp.out < 0)
		return sp.out;
	/*
	 * No signal handler of the program may run in the processes that share
	 * its memory: all blocked until the converter runs (it unblocks them)
	 */
	sf_sigprocmask(SIG_SETMASK, &all, &mask);
	pid = sf_clone_run(CLONE_VM | CLONE_VFORK, sp.stack_middle, middle, &sp);
	sf_sigprocmask(SIG_SETMASK, &mask, NULL);
	ret = pid;
	if (pid > 0) {
		do
			ret = sf_wait4(pid, &status, __WALL);
		while (ret == -EINTR);
	}
	if (ret < 0) {
		/* no child, or lost */
	} else if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		ret = sfcache_map_file(sp.out, key, file, 1, l);
		if (ret == -ENOENT)
			ret = -ESTALE;
		l->cache_why = why;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == KILLED_STATUS) {
		ret = -EKILLED;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) >= 128) {
		ret = st.converter_err = -(WEXITSTATUS(status) - 128);
		if (st.debug) {
			msg.n = 0;
			put(&msg, "sframe-audit: cannot run ");
			put(&msg, converter);
			put(&msg, ": ");
			put_err(&msg, -ret);
			send(&msg);
		}
	} else {
		ret = WIFEXITED(status) ? -WEXITSTATUS(status) : -EKILLED;
	}
	sf_close(sp.out);
	return ret;
}


/* @size bytes of room at @buf (@len bytes), else mapped (*@mapped) */
static void *room(void *buf, size_t len, size_t size, size_t *mapped)
{
	long p;

	*mapped = 0;
	if (size <= len)
		return buf;
	p = sf_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sf_mmap_failed(p))
		return NULL;
	*mapped = size;
	return (void *)p;
}

/* Memory mapped for an object's section headers and names, to unmap */
struct rooms {
	void *base[2];
	size_t len[2];
};

/*
 * The section headers and names of the object open at @fd (@e->eh) into
 * @e, read into @buf (@len bytes) or memory mapped (@r); nothing if they
 * cannot be read. The names are usually just before the headers: one read
 * takes both, with up to 2 KiB before the headers.
 */
static void read_sections(int fd, struct sfelf *e, uint8_t *buf, size_t len, struct rooms *r)
{
	const Elf64_Ehdr *eh = e->eh;
	size_t size = (size_t)eh->e_shnum * sizeof(Elf64_Shdr), before, used;
	const Elf64_Shdr *sh, *str;
	uint8_t *p, *q;

	if (!eh->e_shnum || eh->e_shstrndx >= eh->e_shnum || eh->e_shoff % 8)
		return;
	before = eh->e_shoff < 2048 ? eh->e_shoff : 2048;
	p = r->base[0] = room(buf, len, before + size, &r->len[0]);
	if (!p || sf_pread(fd, p, before + size, eh->e_shoff - before) != (long)(before + size))
		return;
	sh = (const Elf64_Shdr *)(p + before);
	str = &sh[eh->e_shstrndx];
	if (str->sh_type == SHT_NOBITS || str->sh_size > 1 << 20)
		return;
	if (str->sh_offset >= eh->e_shoff - before && str->sh_offset <= eh->e_shoff &&
	    str->sh_size <= eh->e_shoff - str->sh_offset) {
		q = p + (str->sh_offset - (eh->e_shoff - before));
	} else {
		/* Elsewhere: read after the headers (or anywhere if they were mapped) */
		used = r->len[0] ? 0 : before + size;
		q = r->base[1] = room(buf + used, len - used, str->sh_size, &r->len[1]);
		if (!q || sf_pread(fd, q, str->sh_size, str->sh_offset) != (long)str->sh_size)
			return;
	}
	e->shstr = (const char *)q;
	e->shstr_size = str->sh_size;
	e->sh = sh;
	e->shnum = eh->e_shnum;
}

/*
 * The cache directory, open: kept open from one object to the next of a
 * batch (those the dynamic linker maps before la_activity(LA_ACT_CONSISTENT),
 * with no code of the program run in between), so long as it is the same
 * directory and still one to use; -1 (with *@why) if there is none
 */
static int cache_dir_fd(const char **why)
{
	struct stat sb;

	if (st.dirfd >= 0) {
		if (!sf_fstat(st.dirfd, &sb) && S_ISDIR(sb.st_mode) && sb.st_dev == st.dir_dev &&
		    sb.st_ino == st.dir_ino && sb.st_uid == sf_geteuid() &&
		    !(sb.st_mode & (S_IWGRP | S_IWOTH)))
			return st.dirfd;
		st.dirfd = -1;
	}
	st.dirfd = sfcache_open_dir(st.cache_dir, why, &sb);
	if (st.dirfd >= 0) {
		st.dir_dev = sb.st_dev;
		st.dir_ino = sb.st_ino;
	}
	return st.dirfd;
}

/*
 * Copy @len bytes at @addr of this process into @dst without faulting:
 * @len, or a negative errno value if not all are mapped (and readable).
 * With process_vm_readv(), else by reading /proc/self/mem (its fd kept
 * open for a batch, as the cache directory's).
 */
static long peek(void *dst, uintptr_t addr, size_t len)
{
	long ret;

	if (!st.no_vm_readv) {
		ret = sf_peek(dst, (const void *)addr, len);
		if (ret != -ENOSYS && ret != -EPERM)
			return ret;
		st.no_vm_readv = true;
	}
	if (st.memfd < 0)
		st.memfd = sf_openat(AT_FDCWD, "/proc/self/mem", O_RDONLY | O_CLOEXEC, 0);
	if (st.memfd < 0)
		return st.memfd;
	return sf_pread(st.memfd, dst, len, addr);
}

/* At the end of a batch: no fd of ours left open while the program runs */
static void batch_close(void)
{
	if (st.dirfd >= 0)
		sf_close(st.dirfd);
	if (st.memfd >= 0)
		sf_close(st.memfd);
	st.dirfd = st.memfd = -1;
}

/*
 * Find or convert the section of the object @e loaded with @bias (its file
 * @src, opened if needed; NULL for the vDSO), register it
 */
static struct object *add(const char *name, struct sfelf *e, uint64_t bias, struct source *src)
{
	char id[2 * 64 + 1], file[sizeof(id) + sizeof(".sframe")];
	struct rooms r = { { NULL, NULL }, { 0, 0 } };
	struct sfcache_file ident, *known = NULL;
	struct sfcache_key key = { 0 };
	struct object *o = new_object();
	struct sfconv_loaded *l;
	int ret, dirfd = -1, fd;
	bool hashed;
	struct stat sb;
	unsigned int i;

	if (!o)
		return NULL;
	l = &o->l;
	ret = sfelf_has_sframe(e) ? -EEXIST : sfelf_text_range(e, &key.text_vaddr,
							       &key.text_size);
	if (ret)
		goto out;
	l->text_start = bias + key.text_vaddr;
	l->text_size = key.text_size;
	l->cache_why = "no cache";
	/*
	 * The object's file (its identity as the cache file records it): the
	 * .eh_frame need not be read for its hash if it is the file converted
	 */
	if (src && !sf_stat(src->path, &sb)) {
		sfcache_file_of(&sb, &ident);
		known = &ident;
	}
	hashed = !known;
	ret = sfelf_cfi_id(e, &key.cfi, hashed);
	if (ret && !e->sh && (fd = source_fd(src)) >= 0) {
		/* No .eh_frame_hdr: the section headers, from the file */
		if (sf_pread(fd, scratch + HDR_ROOM, sizeof(*e->eh), 0) == sizeof(*e->eh) &&
		    !memcmp(scratch + HDR_ROOM, e->eh, sizeof(*e->eh))) {
			/* Hashed now: the section headers are unmapped below */
			read_sections(fd, e, scratch + HDR_ROOM, sizeof(scratch) - HDR_ROOM, &r);
			ret = sfelf_cfi_id(e, &key.cfi, 1);
			hashed = true;
		}
		for (i = 0; i < 2; i++)
			if (r.len[i])
				sf_munmap(r.base[i], r.len[i]);
	}
	if (ret)
		goto out;
	if (st.cache_dir && sfelf_build_id(e, id, sizeof(id)))
		l->cache_why = "no build ID";
	else if (st.cache_dir)
		dirfd = cache_dir_fd(&l->cache_why);
	if (dirfd >= 0) {
		sfcache_name(file, sizeof(file), id);
		ret = sfcache_map_cached(dirfd, file, &key, known, l);
		/* Made from another file: used if its .eh_frame is this one's */
		if (ret == -ENOENT && !hashed && !sfelf_cfi_id(e, &key.cfi, 1)) {
			hashed = true;
			ret = sfcache_map_cached(dirfd, file, &key, NULL, l);
		}
		l->cached = !ret;
		if (ret != -ENOENT)
			goto out;
	}
	/*
	 * Hashed: what the converter makes must be for this .eh_frame, not
	 * just for the file at the path (which may have been replaced since
	 * the dynamic linker opened it)
	 */
	ret = convert(src, dirfd, &key, hashed ? NULL : known, l);
out:
	if (!ret) {
		ret = sfconv_register(l);
		say(name, l, ret);
		if (st.keep_refused && l->map)
			ret = 0;
	} else {
		say(name, l, ret);
	}
	if (ret) {
		sfconv_unload(l);
		free_object(o);
		return NULL;
	}
	o->next = st.objects;
	st.objects = o;
	return o;
}

/* The vDSO, whole in memory */
static void add_vdso(void)
{
	const void *image = (const void *)get_auxv(AT_SYSINFO_EHDR);
	size_t size = image ? sfconv_elf_image_size(image) : 0;
	struct sfelf e;

	if (!size || sfelf_from_file(&e, image, size))
		return;
	st.vdso_base = (uintptr_t)image;
	add("[vdso]", &e, st.vdso_base, NULL);
}

/*
 * The ELF and program headers of the object @map, as loaded, into @e (in
 * scratch): 0, or -ENOENT if they are not where they are looked for. The
 * program's program headers are where the auxiliary vector says; any other
 * object's ELF header is at its load bias if its first segment is at 0 (a
 * shared object, a position-independent program). The ELF header is in a
 * segment from file offset 0 that holds the program headers too, and
 * PT_DYNAMIC is where the dynamic linker found it (l_ld): then the program
 * headers are those the object was mapped by, and what they say is mapped
 * is (and readable if PF_R).
 */
static int mem_headers(const struct link_map *map, bool program, struct sfelf *e)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)scratch;
	const Elf64_Phdr *ph, *first = NULL, *dyn = NULL;
	uintptr_t bias = map->l_addr, hdr;
	size_t hdr_len;
	unsigned int i;

	if (program) {
		/* The ELF header: at the start of the segment from offset 0 */
		ph = (const Elf64_Phdr *)get_auxv(AT_PHDR);
		for (i = 0; ph && i < get_auxv(AT_PHNUM); i++)
			if (ph[i].p_type == PT_LOAD && !ph[i].p_offset)
				first = &ph[i];
		if (!first)
			return -ENOENT;
		hdr = bias + first->p_vaddr;
	} else {
		hdr = bias;
	}
	if (peek(scratch, hdr, HDR_ROOM) != HDR_ROOM || !sfelf_check_header(eh) ||
	    eh->e_phoff % 8)
		return -ENOENT;
	hdr_len = eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph);
	if (hdr_len > HDR_ROOM)
		return -ENOENT;
	ph = (const Elf64_Phdr *)(scratch + eh->e_phoff);
	first = NULL;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !ph[i].p_offset && ph[i].p_filesz >= hdr_len &&
		    bias + ph[i].p_vaddr == hdr)
			first = &ph[i];
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = &ph[i];
	}
	if (!first || !dyn || bias + dyn->p_vaddr != (uintptr_t)map->l_ld ||
	    (program && hdr + eh->e_phoff != get_auxv(AT_PHDR)))
		return -ENOENT;
	memset(e, 0, sizeof(*e));
	e->eh = eh;
	e->ph = ph;
	e->bias = bias;
	return 0;
}

/*
 * The object loaded with @bias whose headers are not found in memory
 * (mem_headers()): its ELF and program headers, read from the file, must
 * be those in memory (then what the program headers say is mapped is).
 */
static struct object *add_from_file(const char *name, struct source *src, uintptr_t bias)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)scratch;
	size_t hdr_len, map_hdr = 0, map_mem = 0;
	const Elf64_Phdr *ph, *first = NULL;
	uint8_t *hdr = NULL, *mem = NULL;
	struct object *o = NULL;
	struct sfelf e = { 0 };
	int fd = source_fd(src);
	unsigned int i;
	long n;

	n = fd < 0 ? fd : sf_pread(fd, scratch, HDR_ROOM, 0);
	if (n < (long)sizeof(*eh) || !sfelf_check_header(eh) || eh->e_phoff % 8) {
		say(name, NULL, fd < 0 ? fd : -ENOEXEC);
		return NULL;
	}
	hdr_len = eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph);
	hdr = room(scratch, HDR_ROOM, hdr_len, &map_hdr);
	if (hdr == scratch ? hdr_len > (size_t)n :
	    !hdr || sf_pread(fd, hdr, hdr_len, 0) != (long)hdr_len) {
		say(name, NULL, hdr ? -ENOEXEC : -ENOMEM);
		goto out;
	}
	eh = (const Elf64_Ehdr *)hdr;
	ph = (const Elf64_Phdr *)(hdr + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && !ph[i].p_offset && ph[i].p_filesz >= hdr_len)
			first = &ph[i];
	mem = room(scratch + HDR_ROOM, sizeof(scratch) - HDR_ROOM, hdr_len, &map_mem);
	if (!first || !mem ||
	    peek(mem, bias + first->p_vaddr, hdr_len) != (long)hdr_len ||
	    memcmp(mem, hdr, hdr_len)) {
		say(name, NULL, -ESTALE);
		goto out;
	}
	e.eh = eh;
	e.ph = ph;
	e.bias = bias;
	o = add(name, &e, bias, src);
out:
	if (map_mem)
		sf_munmap(mem, map_mem);
	if (map_hdr)
		sf_munmap(hdr, map_hdr);
	return o;
}

EXPORT unsigned int la_version(unsigned int version)
{
	(void)version;
	st.dirfd = st.memfd = -1;
	if (!find_env()) {
		st.sandboxed = true;
		return LAV_CURRENT;
	}
	st.debug = get_env("SFRAME_AUDIT_DEBUG");
	st.keep_refused = get_env("SFRAME_AUDIT_KEEP");
	if (sandbox_check())
		return LAV_CURRENT;
	switch (sfcache_dir(get_env("SFRAME_CACHE_DIR"), get_env("XDG_CACHE_HOME"),
			    get_env("HOME"), st.cache_buf, sizeof(st.cache_buf))) {
	case 0:
		st.cache_dir = st.cache_buf;
		break;
	case -EINVAL:
		if (st.debug) {
			msg.n = 0;
			put(&msg, "sframe-audit: SFRAME_CACHE_DIR is relative: no cache");
			send(&msg);
		}
		break;
	}
	add_vdso();
	return LAV_CURRENT;
}

EXPORT unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	/* The program's own name is empty */
	bool program = !*map->l_name;
	const char *name = program ? "[program]" : map->l_name;
	struct source src = { program ? "/proc/self/exe" : map->l_name, -1, 0 };
	struct object *o;
	struct sfelf e;

	(void)lmid;
	*cookie = program;
	if (st.sandboxed || (st.vdso_base && map->l_addr == st.vdso_base))
		return 0;
	/* Objects dlopen()ed: a filter may have been installed since the last batch */
	if (st.started && !st.checked && sandbox_check())
		return 0;
	st.checked = true;
	if (!mem_headers(map, program, &e))
		o = add(name, &e, map->l_addr, &src);
	else
		o = add_from_file(name, &src, map->l_addr);
	if (src.fd >= 0)
		sf_close(src.fd);
	*cookie |= (uintptr_t)o;
	return 0;
}

/*
 * The program itself is closed only at its exit (_dl_fini()): then nothing
 * needs unmapping. Its cookie has bit 0 set (struct objects are aligned).
 */
EXPORT unsigned int la_objclose(uintptr_t *cookie)
{
	struct object *o = (struct object *)(*cookie & ~(uintptr_t)1);

	if (*cookie & 1)
		st.exiting = true;
	if (o)
		o->closed = true;
	return 0;
}

/* After a dlclose(): the objects are unmapped, so are their sections now */
EXPORT void la_activity(uintptr_t *cookie, unsigned int flag)
{
	struct object **p = &st.objects, *o;

	(void)cookie;
	if (flag != LA_ACT_CONSISTENT || st.sandboxed)
		return;
	st.started = true;
	st.checked = false;
	batch_close();
	if (st.exiting)
		return;
	while ((o = *p)) {
		if (!o->closed) {
			p = &o->next;
			continue;
		}
		*p = o->next;
		sfconv_unload(&o->l);
		free_object(o);
	}
}
