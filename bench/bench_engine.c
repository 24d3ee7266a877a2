/* bench_engine.c: throughput of the event engine (hold model) and of the flow
 * network's re-planning (a 4096-rank ring), printed for bench/run. Times are
 * process CPU time, so that a machine shared with other jobs skews them less;
 * reading a clock is fine here: this program measures, it does not simulate. */
#include <gsl/gsl_randist.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <time.h>

#include "engine.h"
#include "flow.h"

#define RUNS 5

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
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
 * first `warm` events fill the queue with a steady-state mix of times. With
 * `table`, delays cycle through pre-drawn ones: the queue's cost alone,
 * without GSL's draw (about 20 ns here). */
#define HOLD_TABLE 65536

typedef struct {
	gsl_rng *r;
	uint64_t warm;
	double *table;
	unsigned next;
} hold;

static void on_hold(sim *s, void *ctx, uint64_t arg)
{
	hold *h = ctx;
	if (sim_events(s) == h->warm)
		sim_stop(s);
	double dt = h->table ? h->table[h->next++ % HOLD_TABLE] : gsl_ran_exponential(h->r, 1.0);
	sim_after(s, dt, SIM_PRIO_NORMAL, on_hold, h, arg);
}

/* Events per second over `events` events with `pending` in the queue. */
static double hold_rate(uint64_t pending, uint64_t events, double *table)
{
	sim *s = sim_new(1, 2 * pending + events);
	if (!s)
		return 0;
	hold h = { sim_rng(s, 0), 2 * pending, table, 0 };
	for (uint64_t i = 0; i < pending; i++)
		sim_at(s, gsl_ran_exponential(h.r, 1.0), SIM_PRIO_NORMAL, on_hold, &h, i);
	sim_run(s);
	double t0 = cpu_s();
	int rc = sim_run(s);
	double dt = cpu_s() - t0;
	uint64_t done = sim_events(s) - h.warm;
	sim_free(s);
	return rc == SIM_ELIMIT && done == events ? (double)events / dt : 0;
}

static void bench_hold(uint64_t only)
{
	const uint64_t pendings[] = { 10000, 100000, 1000000 };
	double *table = malloc(HOLD_TABLE * sizeof *table);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!table || !r)
		abort();
	for (int i = 0; i < HOLD_TABLE; i++)
		table[i] = gsl_ran_exponential(r, 1.0);
	for (size_t k = 0; k < sizeof pendings / sizeof *pendings; k++) {
		if (only && pendings[k] != only)
			continue;
		double v[RUNS], q[RUNS];
		for (int i = 0; i < RUNS; i++) {
			v[i] = hold_rate(pendings[k], 4000000, NULL);
			q[i] = hold_rate(pendings[k], 4000000, table);
		}
		printf("engine hold model, %8llu pending: %6.2f M events/s "
		       "(queue alone, pre-drawn delays: %6.2f M; median of %d)\n",
		       (unsigned long long)pendings[k], median(v, RUNS) / 1e6,
		       median(q, RUNS) / 1e6, RUNS);
	}
	gsl_rng_free(r);
	free(table);
}

/* Ring all-reduce over `ranks` GPUs, 8 per node: the flow inside a node
 * has its own NVLink link; the flow leaving a node crosses its NIC, a spine
 * shared by all nodes, and the next node's NIC. Each round starts the next
 * when its last flow lands, so one round is 4096 starts, one re-plan of all
 * of them, and the re-plans of the completions. */
typedef struct {
	sim *s;
	flownet *net;
	int ranks, left, rounds;
	int nvlink0, nic0, spine;
} ring;

static void ring_round(ring *r);

static void on_ring_done(sim *s, void *ctx, uint64_t arg)
{
	ring *r = ctx;
	if (--r->left == 0 && --r->rounds > 0)
		ring_round(r);
}

static void ring_round(ring *r)
{
	const double bytes = 2.0 * (r->ranks - 1) / r->ranks * 256e6;
	r->left = r->ranks;
	for (int i = 0; i < r->ranks; i++) {
		int node = i / 8, next = (node + 1) % (r->ranks / 8);
		int route[3] = { r->nvlink0 + i, 0, 0 }, nhops = 1;
		if (i % 8 == 7) {
			route[0] = r->nic0 + 2 * node;
			route[1] = r->spine;
			route[2] = r->nic0 + 2 * next + 1;
			nhops = 3;
		}
		if (flow_start(r->net, route, nhops, bytes, 0, 1, on_ring_done, r, 0) < 0)
			abort();
	}
}

/* Sets up *r (its flows point at it) on a fresh engine capped at
 * `max_events`, and starts the first round. */
static void ring_init(ring *r, int ranks, int rounds, uint64_t max_events)
{
	sim *s = sim_new(1, max_events);
	*r = (ring){ s, s ? flow_new(s) : NULL, ranks, 0, rounds, 0, 0, 0 };
	if (!r->net)
		abort();
	/* NVLink 4: 450 GB/s per direction per GPU (NVIDIA H100 datasheet);
	 * NIC 400 Gb/s = 50 GB/s (ConnectX-7); spine: 8 NICs' worth. */
	r->nvlink0 = flow_link_count(r->net);
	for (int i = 0; i < ranks; i++)
		flow_link_add(r->net, 450e9, 1e-6, 1, 0);
	r->nic0 = flow_link_count(r->net);
	for (int i = 0; i < 2 * ranks / 8; i++)
		flow_link_add(r->net, 50e9, 2e-6, 1, 1);
	r->spine = flow_link_add(r->net, 400e9, 1e-6, 1, 2);
	ring_round(r);
}

static void ring_free(ring *r)
{
	flow_free(r->net);
	sim_free(r->s);
}

static void bench_ring(void)
{
	const int ranks = 4096, rounds = 40;
	double v[RUNS], one[RUNS];
	uint64_t replans = 0;
	for (int k = 0; k < RUNS; k++) {
		/* One re-plan of all 4096 flows: the first event. */
		ring r;
		ring_init(&r, ranks, 1, 1);
		double t0 = cpu_s();
		sim_run(r.s);
		one[k] = cpu_s() - t0;
		ring_free(&r);
		/* Whole rounds: starts, re-plans, completions, deliveries. */
		ring_init(&r, ranks, rounds, 0);
		t0 = cpu_s();
		sim_run(r.s);
		double dt = cpu_s() - t0;
		replans = flow_replans(r.net);
		v[k] = (double)ranks * rounds / dt;
		ring_free(&r);
	}
	double t1 = median(one, RUNS);
	printf("flow ring of %d ranks: one re-plan of all flows %.0f us (%.1f M flows "
	       "re-planned/s); whole rounds %.2f M flows/s (%llu re-plans in %d rounds); "
	       "median of %d\n", ranks, 1e6 * t1, ranks / t1 / 1e6, median(v, RUNS) / 1e6,
	       (unsigned long long)replans, rounds, RUNS);
}

/* 10^5 concurrent flows that form one component (random 2-hop routes over
 * 2000 links): starting them, and the first re-plan of all of them. */
static void bench_many(void)
{
	const int nflows = 100000, nlinks = 2000;
	sim *s = sim_new(1, 1);
	flownet *net = flow_new(s);
	gsl_rng *r = sim_rng(s, 0);
	for (int l = 0; l < nlinks; l++)
		flow_link_add(net, 1e9 * (1 + (double)gsl_rng_uniform_int(r, 10)), 1e-6, 1, 0);
	double t0 = cpu_s();
	for (int f = 0; f < nflows; f++) {
		int route[2] = { (int)gsl_rng_uniform_int(r, nlinks), (int)gsl_rng_uniform_int(r, nlinks) };
		flow_start(net, route, 2, 1e6 * (1 + (double)gsl_rng_uniform_int(r, 1000)), 0, 1,
			   NULL, NULL, 0);
	}
	double t1 = cpu_s();
	sim_run(s);   /* capped at one event: the re-plan */
	double t2 = cpu_s();
	printf("flow network, %d concurrent flows in one component: start %.1f ms, "
	       "first re-plan %.1f ms\n", nflows, 1e3 * (t1 - t0), 1e3 * (t2 - t1));
	flow_free(net);
	sim_free(s);
}

/* Usage: bench_engine [PENDING | flow]: everything, only the hold model with
 * PENDING events, or only the flow network. */
int main(int argc, char **argv)
{
	bool flow_only = argc > 1 && strcmp(argv[1], "flow") == 0;
	uint64_t only = argc > 1 && !flow_only ? strtoull(argv[1], NULL, 10) : 0;
	if (!flow_only)
		bench_hold(only);
	if (!only) {
		bench_ring();
		bench_many();
	}
	return 0;
}
