// SPDX-License-Identifier: GPL-2.0
/*
 * The topmost frame's fix-up reads the instruction the task stopped at; in
 * the deferred unwind (task work, page faults allowed) it must read it even
 * when its page is not present.
 *
 * A stub without a frame of its own, "syscall; ret" (int $0x80 for -m32),
 * is placed so that the system call instruction ends one page of a memfd
 * mapping and the ret starts the next; the program calls it once, drops the
 * second page from its page tables (MADV_DONTNEED: the data stays in the
 * page cache), and calls it again to request a deferred unwind. The task is
 * then stopped at the ret, on a page that is not present: the unwinder must
 * see the ret (the frame is gone, the return address is at SP) to find the
 * stub's caller, call_stub(), as the second frame; a read that cannot fault
 * the page in sees nothing and the walk skips call_stub().
 *
 * Usage: utop     exits 0 when call_stub() is the second frame, both times
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "util.h"

#define PAGE 4096

static int ctl = -1;
static const char cmd[] = "request 1 1";

/* Call the stub with the write's arguments in registers: write(ctl, cmd) */
NOINLINE long call_stub(void *stub)
{
	long ret;
#ifdef __x86_64__
	asm volatile("sub $128, %%rsp\n\tcall *%[stub]\n\tadd $128, %%rsp"	/* red zone */
		     : "=a"(ret)
		     : "a"((long)SYS_write), "D"((long)ctl), "S"(cmd), "d"(sizeof(cmd) - 1),
		       [stub] "r"(stub)
		     : "rcx", "r11", "memory");
#else
	asm volatile("call *%[stub]"
		     : "=a"(ret)
		     : "a"((long)SYS_write), "b"((long)ctl), "c"(cmd), "d"(sizeof(cmd) - 1),
		       [stub] "S"(stub)
		     : "memory");
#endif
	barrier();
	return ret;
}

/* The second frame of tracer 0's last trace */
static unsigned long second_frame(unsigned long *nr)
{
	struct udt_state s;

	udt_read_state(ctl, &s);
	*nr = s.t[0].nr;
	return s.t[0].nr >= 2 ? s.t[0].ips[1] : 0;
}

/* Is @page in this process's page tables? (mincore() reports the page cache) */
static int present(void *page)
{
	unsigned long long entry = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	off_t off = (unsigned long)page / PAGE * sizeof(entry);

	if (fd < 0 || pread(fd, &entry, sizeof(entry), off) != sizeof(entry))
		entry = 1ULL << 63;	/* unknown: as if present */
	if (fd >= 0)
		close(fd);
	return !!(entry >> 63);
}

int main(void)
{
#ifdef __x86_64__
	static const unsigned char sys[] = { 0x0f, 0x05 };	/* syscall */
#else
	static const unsigned char sys[] = { 0xcd, 0x80 };	/* int $0x80 */
#endif
	static const unsigned char ret = 0xc3;
	unsigned long nr, second;
	unsigned char *map;
	int fd, i, failed = 0;

	ctl = udt_open();
	if (write(ctl, "init 0", 6) < 0 && errno != EBUSY)
		return 1;
	fd = memfd_create("utop", 0);
	if (fd < 0 || ftruncate(fd, 2 * PAGE) ||
	    pwrite(fd, sys, sizeof(sys), PAGE - sizeof(sys)) != sizeof(sys) ||
	    pwrite(fd, &ret, 1, PAGE) != 1) {
		perror("memfd");
		return 1;
	}
	map = mmap(NULL, 2 * PAGE, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}

	for (i = 0; i < 2; i++) {
		/* The second time, the ret's page is not present */
		if (i && madvise(map + PAGE, PAGE, MADV_DONTNEED)) {
			perror("madvise");
			return 1;
		}
		printf("round %d: the ret's page %s present before the call\n", i,
		       present(map + PAGE) ? "is" : "is not");
		if (i && present(map + PAGE)) {
			printf("FAIL: MADV_DONTNEED left the page mapped: the test proves nothing\n");
			return 1;
		}
		if (write(ctl, "reset", 5) != 5)
			return 1;
		call_stub(map + PAGE - sizeof(sys));
		second = second_frame(&nr);
		printf("round %d: %lu frames, the second in %s\n", i, nr, sym(second));
		if (strcmp(sym(second), "call_stub"))
			failed = 1;
	}
	if (failed) {
		printf("FAIL: the stub's caller call_stub() is not the second frame\n");
		return 1;
	}
	printf("ok\n");
	return 0;
}
