// SPDX-License-Identifier: GPL-2.0
/*
 * Guest tests of the deferred user unwinder through its test interface
 * (CONFIG_UNWIND_DEFERRED_TEST, /sys/kernel/debug/unwind_deferred_test/ctl).
 * Usage: udt chain|cookies|cache|tracers|hostile|storm|inject-exit|inject-reset|
 *            inject-exec|unregistered|callchain|user-only|no-stale
 *        udt --list    the subtests tests/run.sh runs (this build's)
 * Prints what it checked; exits 0 when every check held, 1 otherwise, and
 * the last line says what failed (expected vs got).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#define KNOWN_CHAIN
#include "util.h"

static int ctl = -1;
static char *self;	/* argv[0], for the tests that run the program again */
/* A command for the test interface, written by a raw system call right here. */
static inline __attribute__((always_inline)) long ctl_raw(const char *cmd)
{
	return raw_syscall3(SYS_write, ctl, (long)cmd, strlen(cmd));
}

static void ctl_cmd(const char *cmd)
{
	long ret = ctl_raw(cmd);

	if (ret != (long)strlen(cmd)) {
		printf("FAIL: '%s' returned %ld\n", cmd, ret);
		exit(1);
	}
}

static void read_state(struct udt_state *s)
{
	if (udt_read_state(ctl, s)) {
		printf("FAIL: cannot read %s\n", UDT_CTL);
		exit(1);
	}
}

/* The known chain: main -> func_a -> func_b -> func_c -> request from c's own syscall */
static const char *chain_cmd = "request 1 1";
static const char *const chain_want[] = { "func_c", "func_b", "func_a", "main" };

NOINLINE void func_c(void)
{
	ctl_raw(chain_cmd);
	keep_frame();
}



/* After main -> func_a -> func_b -> func_c -> request: check the trace. */
static void check_chain(void)
{
	const char *const *want = chain_want;
	struct udt_state s;
	unsigned int i;

	read_state(&s);
	check(s.t[0].calls == 1, "expected 1 callback, got %lu", s.t[0].calls);
	check(s.t[0].pid == getpid(), "expected pid %d, got %d", getpid(), s.t[0].pid);
	check(s.t[0].nr >= 4, "expected at least 4 frames, got %lu", s.t[0].nr);
	for (i = 0; i < 4 && i < s.t[0].nr; i++) {
		printf("frame %u: %lx %s\n", i, s.t[0].ips[i], sym(s.t[0].ips[i]));
		check(!strcmp(sym(s.t[0].ips[i]), want[i]), "frame %u: expected %s, got %s",
		      i, want[i], sym(s.t[0].ips[i]));
	}
	check(s.t[0].cookie == s.t[0].req_cookie && s.t[0].cookie,
	      "callback cookie %llx, request cookie %llx", s.t[0].cookie, s.t[0].req_cookie);
}

static unsigned long long request_cookie(const char *cmd)
{
	struct udt_state s;

	ctl_cmd(cmd);
	read_state(&s);
	check(s.t[0].same, "cookies of one entry differ (%s)", cmd);
	check(s.t[0].req_cookie, "cookie is 0");
	check(s.t[0].cookie == s.t[0].req_cookie, "callback cookie %llx != request cookie %llx",
	      s.t[0].cookie, s.t[0].req_cookie);
	return s.t[0].req_cookie;
}

static unsigned long long cookie_on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return 0;
	return request_cookie("request 3 5 1");
}

static void test_cookies(void)
{
	unsigned long long c1, c2, c3, c4, child;
	int pipefd[2], status;
	struct udt_state s;
	pid_t pid;

	/* one entry: 5 requests per tracer from the syscall, 5 from the timer */
	c1 = request_cookie("request 3 5 1");
	read_state(&s);
	check(s.t[1].same && s.t[1].req_cookie == c1, "tracers got different cookies %llx %llx",
	      c1, s.t[1].req_cookie);
	c2 = request_cookie("request 3 5 1");
	check(c1 != c2, "two entries got the same cookie %llx", c1);

	if (pipe(pipefd))
		exit(1);
	pid = fork();
	if (!pid) {
		child = request_cookie("request 1 1");
		if (write(pipefd[1], &child, sizeof(child)) != sizeof(child))
			_exit(2);
		_exit(failures ? 1 : 0);
	}
	if (read(pipefd[0], &child, sizeof(child)) != sizeof(child))
		child = 0;
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && !WEXITSTATUS(status), "child's checks failed");
	check(child && child != c1 && child != c2, "child cookie %llx vs %llx %llx", child, c1, c2);

	c3 = cookie_on_cpu(0);
	c4 = cookie_on_cpu(sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0);
	check(c3 && c4 && c3 != c4, "cookies on two CPUs: %llx %llx", c3, c4);
	printf("cookies: %llx %llx child %llx cpu0 %llx cpu1 %llx\n", c1, c2, child, c3, c4);
}

static void test_cache(void)
{
	struct udt_state before, after;

	read_state(&before);
	ctl_cmd("request 3 10 1");
	read_state(&after);
	printf("unwinds %lu -> %lu, deferred %lu -> %lu\n", before.unwinds, after.unwinds,
	       before.deferred, after.deferred);
	check(after.unwinds - before.unwinds == 1, "40 requests in one entry: expected 1 unwind, got %lu",
	      after.unwinds - before.unwinds);
	check(after.t[0].first_ret == 0 && after.t[0].ret == 1,
	      "expected first request 0 and later ones 1, got %d and %d", after.t[0].first_ret,
	      after.t[0].ret);
}

static void test_tracers(void)
{
	struct udt_state s, s2;
	unsigned long i;
	long ret;

	ctl_cmd("reset");
	ctl_cmd("request 3 2 1");
	read_state(&s);
	check(s.t[0].calls == 1 && s.t[1].calls == 1, "expected 1 call each, got %lu %lu",
	      s.t[0].calls, s.t[1].calls);
	check(s.t[0].cookie == s.t[1].cookie, "cookies %llx %llx", s.t[0].cookie, s.t[1].cookie);
	check(s.t[0].nr == s.t[1].nr, "trace lengths %lu %lu", s.t[0].nr, s.t[1].nr);
	for (i = 0; i < s.t[0].nr && i < UDT_IPS; i++)
		check(s.t[0].ips[i] == s.t[1].ips[i], "frame %lu differs", i);

	ctl_cmd("cancel 1");
	/*
	 * Mainline's unwind_deferred_request() warns about a request of a
	 * cancelled work (a caller's bug): the test interface refuses it.
	 */
	ret = ctl_raw("request 3 1 1");
	check(ret == -EINVAL, "request of a cancelled tracer: expected %d, got %ld",
	      -EINVAL, ret);
	ctl_cmd("request 1 1 1");
	read_state(&s2);
	check(s2.t[1].calls == 1, "cancelled tracer called again (%lu calls)", s2.t[1].calls);
	check(s2.t[0].calls == 2 && s2.t[0].first_ret == 0,
	      "remaining tracer: expected 2 calls and ret 0, got %lu and %d", s2.t[0].calls,
	      s2.t[0].first_ret);
	ctl_cmd("init 1");
	ctl_cmd("request 2 1");
	read_state(&s2);
	check(s2.t[1].calls == 2 && s2.t[1].first_ret == 0, "re-registered tracer: %lu calls, ret %d",
	      s2.t[1].calls, s2.t[1].first_ret);
}

#define DEEP 10000

static void hostile(const char *what, unsigned long fp, unsigned long min_nr, unsigned long max_nr)
{
	struct udt_state s;
	unsigned long i;

	check_name = what;
	ctl_cmd("reset");
	udt_request_with_fp(ctl, fp);
	read_state(&s);
	printf("%s: %lu frames\n", what, s.t[0].nr);
	check(s.t[0].calls == 1, "expected 1 callback, got %lu", s.t[0].calls);
	check(s.t[0].nr >= min_nr && s.t[0].nr <= max_nr, "expected %lu-%lu frames, got %lu",
	      min_nr, max_nr, s.t[0].nr);
	for (i = 0; i < s.t[0].nr && i < UDT_IPS; i++)
		check(s.t[0].ips[i] < 0x800000000000UL, "kernel address %lx in frame %lu",
		      s.t[0].ips[i], i);
}

#ifdef __i386__
static volatile unsigned long rt_tramp;

static void tramp_handler(int sig)
{
	(void)sig;
	rt_tramp = (unsigned long)__builtin_return_address(0);
}

/*
 * Fake signal frames of the vDSO's __kernel_rt_sigreturn (found by a handler installed
 * without SA_RESTORER): a frame that returns to it, the saved context (sigcontext_32,
 * in words: bp 6, sp 7, ip 14, cs 15, ss 18) 160 bytes above its CFA (rt_sigframe_ia32
 * without its return address). The walk goes on from a context that makes sense, and
 * ends at one that does not: a stack pointer that does not go up, other segments, a
 * null ip.
 */
static void hostile_sigframes(void)
{
	struct {
		unsigned long handler, flags, restorer, mask[2];
	} act = { (unsigned long)tramp_handler, SA_SIGINFO, 0, { 0, 0 } };
	unsigned long f[160] = { 0 }, *sc = &f[2 + 40], *sc2 = &f[64 + 40];
	unsigned long ip = (unsigned long)func_b + 1, cs, ss;
	struct udt_state s;

	if (syscall(SYS_rt_sigaction, SIGUSR2, &act, NULL, sizeof(act.mask)) ||
	    kill(getpid(), SIGUSR2) || !rt_tramp) {
		check(0, "no vDSO sigreturn trampoline: %lx", rt_tramp);
		return;
	}
	asm("mov %%cs, %0\n\tmov %%ss, %1" : "=r"(cs), "=r"(ss));
	f[1] = rt_tramp;
	sc[7] = (unsigned long)&f[70];
	sc[14] = ip;
	sc[15] = cs;
	sc[18] = ss;
	hostile("sigframe", (unsigned long)f, 3, 3);
	read_state(&s);
	check(s.t[0].ips[1] == rt_tramp && s.t[0].ips[2] == ip,
	      "expected %lx %lx, got %lx %lx", rt_tramp, ip, s.t[0].ips[1], s.t[0].ips[2]);

	sc[7] = (unsigned long)&sc[10];
	hostile("sigframe-sp", (unsigned long)f, 2, 2);
	sc[7] = (unsigned long)&f[70];
	sc[15] = cs ^ 8;
	hostile("sigframe-cs", (unsigned long)f, 2, 2);
	sc[15] = cs;
	sc[14] = 0;
	hostile("sigframe-ip", (unsigned long)f, 2, 2);

	/* interrupted in the trampoline: a second signal frame above, then one below */
	sc[14] = rt_tramp;
	sc[7] = (unsigned long)&f[64];
	sc2[7] = (unsigned long)&f[140];
	sc2[14] = ip;
	sc2[15] = cs;
	sc2[18] = ss;
	hostile("sigframe-nested", (unsigned long)f, 4, 4);
	sc2[7] = (unsigned long)&f[2];
	hostile("sigframe-down", (unsigned long)f, 3, 3);
}
#endif

#ifdef __x86_64__
/*
 * A return address in no executable mapping is not a frame: the walk ends
 * there, without it (the SFrame registry places each address; 64-bit tasks
 * only). The fake frame's caller returns to func_b: where the address is
 * placeable, the walk goes on to it.
 */
static void unplaceable(const char *what, unsigned long ra, unsigned long nr)
{
	unsigned long f[4] = { 0 }, ret = (unsigned long)func_b + 1;
	struct udt_state s;
	unsigned long i;

	f[0] = (unsigned long)&f[2];
	f[1] = ra;
	f[3] = ret;
	hostile(what, (unsigned long)f, nr, nr);
	read_state(&s);
	for (i = 0; i < s.t[0].nr && i < UDT_IPS; i++)
		check(i != 1 || s.t[0].ips[i] == ra, "expected %lx in frame 1, got %lx", ra,
		      s.t[0].ips[i]);
}

static void hostile_unplaceable(char *unmapped)
{
	static char data[64];

	unplaceable("ra-text", (unsigned long)func_b + 1, 3);
	unplaceable("ra-kernel", 0xffffffff8badc0deUL, 1);
	unplaceable("ra-unmapped", (unsigned long)unmapped + 16, 1);
	unplaceable("ra-data", (unsigned long)data + 16, 1);
	unplaceable("ra-hole", 0x10000, 1);
}
#endif

static void test_hostile(void)
{
	/* fake frames live here, in this function's frame: above the SP */
	/* kernel longs: the 4 KiB cache less its completed mask, nr_entries, user IP and SP */
	static const unsigned long cache_max = (4096 - 32) / 8;
	unsigned long frames[2 * DEEP + 2], cycle[2], i, ret = (unsigned long)func_b + 1;
	char *unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	/* a frame pointing to itself */
	cycle[0] = (unsigned long)cycle;
	cycle[1] = ret;
	hostile("cycle", (unsigned long)cycle, 2, 2);
	hostile("kernel", sizeof(long) == 8 ? 0xffffffff81000000UL : 0xc1000000UL, 1, 1);
	hostile("unmapped", (unsigned long)unmapped, 1, 1);
	hostile("misaligned", (unsigned long)cycle + 3, 1, 1);
	hostile("null", 0, 1, 1);

	/* 10000 frames deep: the walk stops at the cache's size */
	for (i = 0; i < DEEP; i++) {
		frames[2 * i] = (unsigned long)&frames[2 * i + 2];
		frames[2 * i + 1] = ret;
	}
	frames[2 * DEEP] = 0;
	frames[2 * DEEP + 1] = 0;
	hostile("deep", (unsigned long)frames, cache_max - 8, cache_max);
#ifdef __i386__
	hostile_sigframes();
#else
	hostile_unplaceable(unmapped);
#endif
	check_name = "hostile";
}

/* Requests from threads and processes that fork, exec and exit meanwhile. */
static void *storm_thread(void *arg)
{
	for (;;)
		ctl_raw(arg);
	return NULL;
}

static void test_storm(void)
{
	int i, j, status;

	for (i = 0; i < 40; i++) {
		pid_t pid = fork();

		if (!pid) {
			pthread_t th[4];

			for (j = 0; j < 4; j++)
				pthread_create(&th[j], NULL, storm_thread, j & 1 ? "request 3 3 1" : "request 1 1");
			ctl_raw("request 3 2 1");
			if (i % 3 == 0)
				execl(self, self, "nothing", NULL);
			if (i % 3 == 1 && fork() == 0)
				_exit(0);
			usleep(1000);
			_exit(0);	/* kills the threads, maybe with requests pending */
		}
		waitpid(pid, &status, 0);
		check(WIFEXITED(status) && !WEXITSTATUS(status), "storm child %d: status %x", i, status);
	}
}

/*
 * A request of tracer 1 from an injection point (the test interface's
 * "inject"): it is refused, or called back exactly once with its own nonzero
 * cookie. @accept: it must be accepted (the entry context is still open).
 */
static void inject_result(const char *what, int accept)
{
	struct udt_state s;

	read_state(&s);
	printf("%s: injected %lu, request ret %d cookie %llx; %lu callbacks, cookie %llx pid %d\n",
	       what, s.fired, s.t[1].first_ret, s.t[1].req_cookie, s.t[1].calls, s.t[1].cookie,
	       s.t[1].pid);
	check(s.fired == 1, "the injection point was passed %lu times, expected 1", s.fired);
	if (accept || !s.t[1].first_ret) {
		check(s.t[1].first_ret == 0, "request refused (%d)", s.t[1].first_ret);
		check(s.t[1].calls == 1, "accepted request: expected 1 callback, got %lu",
		      s.t[1].calls);
		check(s.t[1].cookie && s.t[1].cookie == s.t[1].req_cookie,
		      "callback cookie %llx, request cookie %llx", s.t[1].cookie, s.t[1].req_cookie);
		check(s.t[1].pid == getpid(), "callback pid %d, expected %d", s.t[1].pid, getpid());
	} else {
		check(s.t[1].calls == 0, "refused request (%d) called back %lu times",
		      s.t[1].first_ret, s.t[1].calls);
	}
}

/* A system call whose exit to user space runs pending task work */
static void next_entry(void)
{
	raw_syscall3(SYS_getppid, 0, 0, 0);
}

/*
 * Exit window: a request after the exit to user space last looked at its
 * work flags, before the entry context ends (an NMI there): it must not be
 * forgotten; its callback comes at the next return to user space.
 */
static void test_inject_exit(void)
{
	ctl_cmd("reset");
	ctl_cmd("inject exit 2");	/* fires at this write's exit */
	next_entry();
	inject_result("exit window", 1);
}

/*
 * Inside the reset of an entry context (an NMI there): refused, or called
 * back with the cookie it was given, never with 0 or another entry's.
 */
static void test_inject_reset(void)
{
	struct udt_state s;

	ctl_cmd("reset");
	ctl_cmd("inject reset 2");
	ctl_cmd("request 1 1");		/* an entry with state to reset: fires there */
	next_entry();
	inject_result("reset", 0);
	read_state(&s);
	check(s.t[0].calls == 1 && s.t[0].cookie == s.t[0].req_cookie,
	      "tracer 0: %lu callbacks, cookie %llx, request cookie %llx", s.t[0].calls,
	      s.t[0].cookie, s.t[0].req_cookie);
	check(s.t[0].cookie != s.t[1].cookie, "the next entry kept cookie %llx", s.t[0].cookie);
}

/*
 * exec: a request between the delivery of the old mm's callbacks and the
 * start of the new entry context (an IRQ there, with cred_guard_mutex held)
 * is delivered before the new mm, with its cookie and without a walk of
 * the user stack under the mutex: this entry context was not unwound (no
 * request before exec began), so the trace is empty. The new image (argv:
 * inject-exec-after ADDR) checks.
 */
static NOINLINE void exec_caller(char *self)
{
	char addr[32], *argv[] = { self, "inject-exec-after", addr, NULL };
	extern char **environ;

	snprintf(addr, sizeof(addr), "%lx", (unsigned long)exec_caller);
	/* the first user frame is this function */
	raw_syscall3(SYS_execve, (long)"/proc/self/exe", (long)argv, (long)environ);
	printf("FAIL: execve\n");
	exit(1);
}

static void test_inject_exec(void)
{
	ctl_cmd("reset");
	ctl_cmd("inject exec 2");
	exec_caller(self);
}

static void test_inject_exec_after(const char *old_caller)
{
	unsigned long caller = strtoul(old_caller, NULL, 16);
	struct udt_state s;

	check_name = "inject-exec";
	next_entry();
	inject_result("exec", 1);
	read_state(&s);
	check(s.t[1].nr == 0,
	      "a trace of %lu frames (the first %lx), expected none (the old image's caller %lx)",
	      s.t[1].nr, s.t[1].nr ? s.t[1].ips[0] : 0, caller);
}

/* A tracer never registered (3): requests and cancel fail, nothing else acts. */
static void test_unregistered(void)
{
	struct udt_state s, s2;
	long ret;

	read_state(&s);
	if (s.t[3].bit >= 0)
		ctl_cmd("cancel 3");
	ctl_cmd("reset");
	ret = ctl_raw("request 9 1");	/* tracers 0 and 3 */
	check(ret == -EINVAL, "request of an unregistered tracer: %ld, expected %d", ret, -EINVAL);
	read_state(&s);
	check(s.t[0].calls == 0, "tracer 0 called back %lu times by a failed command",
	      s.t[0].calls);
	if (failures)
		return;		/* a cancel would remove a list entry that is not there */
	ret = ctl_raw("cancel 3");
	check(ret == -EINVAL, "cancel of an unregistered tracer: %ld, expected %d", ret, -EINVAL);
	ctl_cmd("init 3");
	ctl_cmd("request 8 1");
	read_state(&s2);
	check(s2.t[3].calls == 1 && s2.t[3].first_ret == 0,
	      "registered tracer 3: %lu callbacks, ret %d", s2.t[3].calls, s2.t[3].first_ret);
	ctl_cmd("cancel 3");
}

/* After main -> func_a -> func_b -> func_c -> callchain: the user stack as
 * BPF's get_perf_callchain() sees it (IRQs enabled). */
static void check_callchain(void)
{
	struct udt_state s;
	unsigned int i;

	read_state(&s);
	check(s.cc_nr >= 4, "callchain of %lu frames", s.cc_nr);
	for (i = 0; i < 4 && i < s.cc_nr; i++) {
		printf("frame %u: %lx %s\n", i, s.cc_ips[i], sym(s.cc_ips[i]));
		check(!strcmp(sym(s.cc_ips[i]), chain_want[i]), "frame %u: expected %s, got %s",
		      i, chain_want[i], sym(s.cc_ips[i]));
	}
}

/*
 * Write @cmd to the test interface from a system call made with the frame
 * pointer at @fp: "callchain" walks from there immediately (perf's
 * perf_callchain_user()), "request 1 1" with the deferred walk.
 */
static NOINLINE long ctl_with_fp(const char *cmd, unsigned long fp)
{
	long ret, len = strlen(cmd);

#ifdef __x86_64__
	asm volatile("sub $128, %%rsp\n\tpush %%rbp\n\tmov %[fp], %%rbp\n\tsyscall\n\t"
		     "pop %%rbp\n\tadd $128, %%rsp"	/* below the red zone */
		     : "=a"(ret)
		     : "a"((long)SYS_write), "D"((long)ctl), "S"(cmd), "d"(len), [fp] "r"(fp)
		     : "rcx", "r11", "memory");
#else
	asm volatile("push %%ebp\n\tmov %%esi, %%ebp\n\tint $0x80\n\tpop %%ebp"
		     : "=a"(ret)
		     : "a"((long)SYS_write), "b"((long)ctl), "c"(cmd), "d"(len), "S"(fp)
		     : "memory");
#endif
	return ret;
}

/*
 * A walk (@nr frames, the first UDT_IPS of them at @ips) that started at made-up
 * frames: no frame is a planted value or not a user address, and it is exactly
 * @n frames: where it started, then @want[0 .. n - 2].
 */
static void expect_walk(const char *what, const unsigned long *ips, unsigned long nr,
			const unsigned long *want, unsigned long n)
{
	unsigned long i, shown = nr < UDT_IPS ? nr : UDT_IPS;

	printf("%s: %lu frames:", what, nr);
	for (i = 0; i < shown && i < 6; i++)
		printf(" %lx", ips[i]);
	printf("%s\n", shown > 6 ? " ..." : "");
	for (i = 0; i < shown; i++)
		check(!bad_user_ip(ips[i]), "%s: frame %lu is %lx: not a user address, or planted",
		      what, i, ips[i]);
	check(nr == n, "%s: expected exactly %lu frames, got %lu", what, n, nr);
	for (i = 1; i < n && i < shown; i++)
		check(ips[i] == want[i - 1], "%s: frame %lu: expected %lx, got %lx", what, i,
		      want[i - 1], ips[i]);
}

/* Walk the made-up frames at @fp immediately and deferred; each must be @want (@n) */
static void walk_both(const char *what, unsigned long fp, const unsigned long *want,
		      unsigned long n, unsigned long n_immediate)
{
	struct udt_state s;
	char line[128];
	long ret;

	ctl_cmd("reset");
	ret = ctl_with_fp("callchain", fp);
	check(ret == (long)strlen("callchain"), "%s: 'callchain' returned %ld", what, ret);
	read_state(&s);
	snprintf(line, sizeof(line), "%s, immediate walk (callchain)", what);
	expect_walk(line, s.cc_ips, s.cc_nr, want, n_immediate);

	ctl_cmd("reset");
	ret = ctl_with_fp("request 1 1", fp);
	check(ret == (long)strlen("request 1 1"), "%s: 'request 1 1' returned %ld", what, ret);
	read_state(&s);
	check(s.t[0].calls == 1, "%s: expected 1 callback, got %lu", what, s.t[0].calls);
	snprintf(line, sizeof(line), "%s, deferred walk (request)", what);
	expect_walk(line, s.t[0].ips, s.t[0].nr, want, n);
}

/*
 * Made-up frames whose return addresses are [a frame, a planted value, a
 * frame]: the immediate and the deferred walk both end at the planted value:
 * exactly [ip, the first frame].
 */
static void test_user_only(void)
{
	unsigned long f[6], ras[3], fp;
	char what[64];
	unsigned int k;

	for (k = 0; k < NR_PLANTED; k++) {
		ras[0] = (unsigned long)func_a + 1;
		ras[1] = planted_ra(k);
		ras[2] = (unsigned long)func_b + 1;
		fp = fake_frames(f, ras, 3);
		snprintf(what, sizeof(what), "planted %lx", planted_ra(k));
		walk_both(what, fp, ras, 2, 2);
	}
}

#define DEEP_FRAMES 200

/*
 * A deep stack (200 made-up frames, return addresses in an executable mapping
 * of their own) and a shallow one (one made-up frame), walked in turns: each
 * walk holds exactly its own frames, the shallow ones nothing of the deep ones
 * past their end.
 */
static void test_no_stale(void)
{
	unsigned long deep[2 * DEEP_FRAMES], shallow[2], ras[DEEP_FRAMES], v1, max = 127;
	char *code = mmap(NULL, 65536, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long fp_deep, fp_shallow, i;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");

	/* the immediate walk stops at perf_event_max_stack frames */
	if (!f || fscanf(f, "%lu", &max) != 1)
		max = 127;
	if (f)
		fclose(f);
	check(code != MAP_FAILED, "mmap: %s", strerror(errno));
	if (code == MAP_FAILED)
		return;
	for (i = 0; i < DEEP_FRAMES; i++)
		ras[i] = (unsigned long)code + 16 * i + 1;
	v1 = (unsigned long)func_a + 1;
	fp_deep = fake_frames(deep, ras, DEEP_FRAMES);
	fp_shallow = fake_frames(shallow, &v1, 1);
	for (i = 0; i < 3; i++) {
		walk_both("deep", fp_deep, ras, DEEP_FRAMES + 1,
			  DEEP_FRAMES + 1 < max ? DEEP_FRAMES + 1 : max);
		walk_both("shallow", fp_shallow, &v1, 2, 2);
	}
}

/*
 * The known chain's subtests set up what main then runs and checks: the chain
 * starts at main, which calls func_a itself.
 */
static void (*chain_check)(void);

static void test_chain(void)
{
	ctl_cmd("reset");
	chain_check = check_chain;
}

static void test_callchain(void)
{
	ctl_cmd("reset");
	chain_cmd = "callchain";
	chain_check = check_callchain;
}

int main(int argc, char **argv)
{
	/* the subtests, which tests/run.sh runs as unwind-NAME (-32) */
	static const struct subtest tests[] = {
		{ "chain", test_chain, SUBTEST_64 | SUBTEST_32 },
		{ "cookies", test_cookies, SUBTEST_64 },
		{ "cache", test_cache, SUBTEST_64 },
		{ "tracers", test_tracers, SUBTEST_64 },
		{ "hostile", test_hostile, SUBTEST_64 | SUBTEST_32 },
		{ "storm", test_storm, SUBTEST_64 },
		/* a request in the exit window before the entry context ends is called back */
		{ "inject-exit", test_inject_exit, SUBTEST_64 },
		/* a request inside the reset of an entry context: refused or called back
		 * with its own cookie */
		{ "inject-reset", test_inject_reset, SUBTEST_64 },
		/* exec: a request after the old mm's callbacks is delivered before the
		 * new mm, with an empty trace (no walk under cred_guard_mutex) */
		{ "inject-exec", test_inject_exec, SUBTEST_64 },
		/* requests and cancel of an unregistered tracer fail, nothing else acts */
		{ "unregistered", test_unregistered, SUBTEST_64 },
		/*
		 * made-up frames with planted return addresses: the immediate and the
		 * deferred walk end there
		 */
		{ "user-only", test_user_only, SUBTEST_64 | SUBTEST_32 },
		/* deep and shallow stacks in turns: each walk holds its own frames only */
		{ "no-stale", test_no_stale, SUBTEST_64 | SUBTEST_32 },
		/* run by tests/cases/unwind-callchain-32.sh, which also checks the log */
		{ "callchain", test_callchain, 0 },
	};
	const char *cmd = argc > 1 ? argv[1] : "";
	const struct subtest *t = subtest_find(tests, sizeof(tests) / sizeof(tests[0]), argv[1]);

	self = argv[0];
	if (!strcmp(cmd, "nothing"))
		return 0;
	if (!strcmp(cmd, "inject-exec-after") && argc > 2) {
		ctl = open(UDT_CTL, O_RDWR);
		test_inject_exec_after(argv[2]);
		goto out;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ctl = udt_open();
	/* tracers 0 and 1 for the tests; already registered is fine */
	ctl_raw("init 0");
	ctl_raw("init 1");
	check_name = cmd;
	if (!t) {
		printf("FAIL: unknown test '%s'\n", cmd);
		return 2;
	}
	t->fn();
	if (chain_check) {
		func_a();
		chain_check();
	}
out:
	if (failures) {
		printf("FAIL: %d check(s) failed\n", failures);
		return 1;
	}
	printf("ok: %s\n", cmd);
	return 0;
}
