// SPDX-License-Identifier: GPL-2.0
/*
 * Print this machine's TSC rate in kHz, measured against CLOCK_MONOTONIC_RAW over 50 ms
 * (the best of 5 tries: the pair of reads that straddles the least time). A TCG guest's
 * TSC is the host's, so scripts/vm.sh hands the rate over (tsc_early_khz=): the guest's
 * own calibration counts PIT ticks, which it misses on a loaded host.
 */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A TSC read and the time it was taken at, bracketed as tightly as the best of 5 tries */
static void read_pair(unsigned long long *tsc, long long *ns)
{
	long long best = -1;
	int i;

	for (i = 0; i < 5; i++) {
		long long t0 = now_ns();
		unsigned long long c = __rdtsc();
		long long t1 = now_ns();

		if (best < 0 || t1 - t0 < best) {
			best = t1 - t0;
			*tsc = c;
			*ns = t0 + (t1 - t0) / 2;
		}
	}
}

int main(void)
{
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	unsigned long long c0, c1;
	long long n0, n1;

	read_pair(&c0, &n0);
	nanosleep(&pause, NULL);
	read_pair(&c1, &n1);
	printf("%lld\n", (long long)((c1 - c0) * 1000000.0 / (n1 - n0)));
	return 0;
}
