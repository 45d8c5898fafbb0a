/*
 * Print the host's TSC rate in kHz: the median of five 50 ms
 * measurements against CLOCK_MONOTONIC_RAW.
 *
 * Under TCG a guest's TSC is the host's: QEMU reads the host's counter.
 * scripts/boot hands the rate to the guest kernel (tsc_early_khz=),
 * which would otherwise calibrate its TSC against the PIT, the only
 * timer a microvm guest has, and that fails now and then on a busy host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#define RUNS 5

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	const struct timespec pause = { .tv_nsec = 50 * 1000 * 1000 };
	double khz[RUNS];

	for (int i = 0; i < RUNS; i++) {
		double t0 = seconds();
		unsigned long long c0 = __rdtsc();

		nanosleep(&pause, NULL);
		khz[i] = (__rdtsc() - c0) / (seconds() - t0) / 1000;
	}
	qsort(khz, RUNS, sizeof(khz[0]), by_value);
	printf("%.0f\n", khz[RUNS / 2]);
	return 0;
}
