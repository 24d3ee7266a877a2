/* bench_engine.c: throughput of the event engine (hold model) and of the flow
 * network's re-planning (a 4096-rank ring), printed for bench/run. Wall-clock
 * timing is fine here: this program measures, it does not simulate. */
#include <gsl/gsl_randist.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine.h"
#include "flow.h"

#define RUNS 5

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Hold model: every event schedules one successor an exponential delay
 * later, so the number of pending events stays at its initial value. The
 * first `warm` events fill the queue with a steady-state mix of times. */
typedef struct {
	gsl_rng *r;
	uint64_t warm;
} hold;

static void on_hold(sim *s, void *ctx, uint64_t arg)
{
	hold *h = ctx;
	if (sim_events(s) == h->warm)
		sim_stop(s);
	sim_after(s, gsl_ran_exponential(h->r, 1.0), SIM_PRIO_NORMAL, on_hold, h, arg);
}

/* Events per second over `events` events with `pending` in the queue. */
static double hold_rate(uint64_t pending, uint64_t events)
{
	sim *s = sim_new(1, 2 * pending + events);
	if (!s)
		return 0;
	hold h = { sim_rng(s, 0), 2 * pending };
	for (uint64_t i = 0; i < pending; i++)
		sim_at(s, gsl_ran_exponential(h.r, 1.0), SIM_PRIO_NORMAL, on_hold, &h, i);
	sim_run(s);
	double t0 = wall_s();
	int rc = sim_run(s);
	double dt = wall_s() - t0;
	uint64_t done = sim_events(s) - h.warm;
	sim_free(s);
	return rc == SIM_ELIMIT && done == events ? (double)events / dt : 0;
}

static void bench_hold(uint64_t only)
{
	const uint64_t pendings[] = { 10000, 100000, 1000000 };
	for (size_t k = 0; k < sizeof pendings / sizeof *pendings; k++) {
		if (only && pendings[k] != only)
			continue;
		double v[RUNS];
		for (int i = 0; i < RUNS; i++)
			v[i] = hold_rate(pendings[k], 4000000);
		printf("engine hold model, %8llu pending: %6.2f M events/s (median of %d)\n",
		       (unsigned long long)pendings[k], median(v, RUNS) / 1e6, RUNS);
	}
}

/* Usage: bench_engine [PENDING] (only the hold model at that size). */
int main(int argc, char **argv)
{
	uint64_t only = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
	bench_hold(only);
	return 0;
}
