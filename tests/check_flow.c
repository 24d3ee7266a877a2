/* check_flow.c: the flow network against hand-computed max-min rates and
 * completion times, and its invariants on random traffic. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_rng.h>

#include "flow.h"

#define TOL 1e-9

/* Completion log: done time per flow tag (arg), and how often it ran. */
typedef struct {
	double t[256];
	int calls[256];
} donelog;

static void on_done(sim *s, void *ctx, uint64_t arg)
{
	donelog *d = ctx;
	d->t[arg] = sim_now(s);
	d->calls[arg]++;
}

/* A probe records the rates of some flows at a given time. */
typedef struct {
	flownet *net;
	const int *ids;
	int n;
	double rate[8];
} probe;

static void on_probe(sim *s, void *ctx, uint64_t arg)
{
	probe *p = ctx;
	for (int i = 0; i < p->n; i++)
		p->rate[i] = flow_rate(p->net, p->ids[i]);
}

static void assert_rel(double got, double want)
{
	ck_assert_double_eq_tol(got, want, TOL * fmax(1.0, fabs(want)));
}

START_TEST(test_two_flows_one_link)
{
	const double C = 1e9, lat = 1e-6, S = 1e6;
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	donelog d = { 0 };
	int l = flow_link_add(n, C, lat, 1, 3);
	ck_assert_int_eq(l, 0);
	ck_assert_int_eq(flow_link_kind(n, l), 3);
	int ids[2];
	ids[0] = flow_start(n, &l, 1, S, 0, 1, on_done, &d, 0);
	ids[1] = flow_start(n, &l, 1, S, 0, 1, on_done, &d, 1);
	ck_assert_int_ge(ids[0], 0);
	ck_assert_int_ge(ids[1], 0);
	probe p = { n, ids, 2, { 0 } };
	sim_at(s, 1e-3, SIM_PRIO_NORMAL, on_probe, &p, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	assert_rel(p.rate[0], C / 2);
	assert_rel(p.rate[1], C / 2);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(d.calls[i], 1);
		assert_rel(d.t[i], S / (C / 2) + lat);
	}
	assert_rel(flow_link_bytes(n, l), 2 * S);
	assert_rel(flow_link_busy_s(n, l), S / (C / 2));
	ck_assert_uint_eq(flow_replans(n), 2);   /* both start, both end */
	ck_assert_int_eq(flow_active_count(n), 0);
	flow_free(n);
	sim_free(s);
}
END_TEST

/* flow_start_sent tells its caller at the send end, not a route latency
 * later; the link is shared as with flow_start, the event count drops by the
 * delivery events, and a flow with no bytes is done in an event of its own
 * (never inside the call that started it). */
START_TEST(test_sent_notifies_at_send_end)
{
	const double C = 1e9, lat = 1e-6, S = 1e6;
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	donelog d = { 0 };
	int l = flow_link_add(n, C, lat, 1, 0);
	ck_assert_int_ge(flow_start_sent(n, &l, 1, S, 0, 1, on_done, &d, 0), 0);
	ck_assert_int_ge(flow_start(n, &l, 1, S, 0, 1, on_done, &d, 1), 0);
	ck_assert_int_ge(flow_start_sent(n, &l, 1, 0, 0, 1, on_done, &d, 2), 0);
	ck_assert_int_eq(d.calls[2], 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(d.calls[i], 1);
	assert_rel(d.t[0], S / (C / 2));
	assert_rel(d.t[1], S / (C / 2) + lat);
	assert_rel(d.t[2], 0);
	assert_rel(flow_bytes_delivered(n), 2 * S);
	ck_assert_int_eq(flow_active_count(n), 0);
	/* the zero-byte flow's done, 2 re-plans, one event for both ends (the
	 * same instant, scheduled one after the other), 1 delivery */
	ck_assert_uint_eq(sim_events(s), 5);
	flow_free(n);
	sim_free(s);
}
END_TEST

/* Starts flow 2 of test_end_batches on its link. */
typedef struct {
	flownet *n;
	int *k;
	donelog *d;
} late_start;

static void on_late_start(sim *s, void *ctx, uint64_t arg)
{
	(void)s;
	(void)arg;
	late_start *lt = ctx;
	flow_start_sent(lt->n, lt->k, 1, 100, 0, 1, on_done, lt->d, 2);
}

/* Order log for test_end_batches. */
typedef struct {
	int order[8], n;
} orderlog;

static void on_order(sim *s, void *ctx, uint64_t arg)
{
	(void)s;
	orderlog *o = ctx;
	o->order[o->n++] = (int)arg;
}

/* Four equal flows on four equal links end at one instant: one engine event
 * ends them all, in the order they started. A fifth, on the first link from
 * the start too but rescheduled when a sixth joins it later, is not ended by
 * its stale entry. */
START_TEST(test_end_batches)
{
	const double C = 100, S = 100;
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	orderlog o = { { 0 }, 0 };
	int l[4];
	for (int i = 0; i < 4; i++)
		l[i] = flow_link_add(n, C, 0, 1, 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_ge(flow_start_sent(n, &l[i], 1, S, 0, 1, on_order, &o, (uint64_t)i), 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_int_eq(o.n, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(o.order[i], i);
	assert_rel(sim_now(s), S / C);
	ck_assert_uint_eq(sim_events(s), 3);   /* re-plan, the batch, re-plan */
	flow_free(n);
	sim_free(s);

	/* stale entries: flows 0 and 1 share link 0 from t = 0 (100 B each at
	 * 50 B/s, both due at 2 s); flow 2 joins at 1 s, so they are rescheduled
	 * to 2.5 s and flow 2 ends at 3 s */
	s = sim_new(1, 0);
	n = flow_new(s);
	donelog d = { 0 };
	int k = flow_link_add(n, C, 0, 1, 0);
	flow_start_sent(n, &k, 1, S, 0, 1, on_done, &d, 0);
	flow_start_sent(n, &k, 1, S, 0, 1, on_done, &d, 1);
	late_start lt = { n, &k, &d };
	sim_at(s, 1.0, SIM_PRIO_NORMAL, on_late_start, &lt, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(d.calls[i], 1);
	assert_rel(d.t[0], 2.5);
	assert_rel(d.t[1], 2.5);
	assert_rel(d.t[2], 3.0);
	flow_free(n);
	sim_free(s);
}
END_TEST

/* A crosses links 1 and 2, B only link 1 (10 B/s), C only link 2 (4 B/s):
 * link 2 is the bottleneck of A and C (2 each), B takes the rest of link 1. */
START_TEST(test_three_flows_two_links)
{
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	donelog d = { 0 };
	int l1 = flow_link_add(n, 10, 0.5, 1, 0), l2 = flow_link_add(n, 4, 0.5, 1, 0);
	int ra[2] = { l1, l2 };
	int ids[3];
	ids[0] = flow_start(n, ra, 2, 4, 0, 1, on_done, &d, 0);    /* A */
	ids[1] = flow_start(n, &l1, 1, 16, 0, 1, on_done, &d, 1);  /* B */
	ids[2] = flow_start(n, &l2, 1, 8, 0, 1, on_done, &d, 2);   /* C */
	probe p1 = { n, ids, 3, { 0 } }, p2 = { n, ids, 3, { 0 } };
	sim_at(s, 1.0, SIM_PRIO_NORMAL, on_probe, &p1, 0);
	sim_at(s, 2.25, SIM_PRIO_NORMAL, on_probe, &p2, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	assert_rel(p1.rate[0], 2);
	assert_rel(p1.rate[1], 8);
	assert_rel(p1.rate[2], 2);
	/* A and B end at 2; C has 4 bytes left and link 2 alone. */
	ck_assert_double_eq(p2.rate[0], 0);
	assert_rel(p2.rate[2], 4);
	assert_rel(d.t[0], 2 + 1.0);
	assert_rel(d.t[1], 2 + 0.5);
	assert_rel(d.t[2], 3 + 0.5);
	assert_rel(flow_link_bytes(n, l1), 20);
	assert_rel(flow_link_bytes(n, l2), 12);
	assert_rel(flow_link_busy_s(n, l1), 2);
	assert_rel(flow_link_busy_s(n, l2), 3);
	ck_assert_uint_eq(flow_replans(n), 3);
	flow_free(n);
	sim_free(s);
}
END_TEST

static void on_start_d(sim *s, void *ctx, uint64_t arg)
{
	void **a = ctx;
	int l = 0;
	ck_assert_int_ge(flow_start(a[0], &l, 1, 10, 0, 1, on_done, a[1], 3), 0);
}

/* Link of 10 B/s: A 10 B and B 30 B from t=0, D 10 B from t=1. [0,1): 5
 * each; [1,2.5): 10/3 each, A ends; [2.5,3.5): 5 each, D ends; then B alone
 * ends at 5 (50 bytes at 10 B/s). */
START_TEST(test_early_end_releases_bandwidth)
{
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	donelog d = { 0 };
	int l = flow_link_add(n, 10, 0, 1, 0);
	flow_start(n, &l, 1, 10, 0, 1, on_done, &d, 0);
	flow_start(n, &l, 1, 30, 0, 1, on_done, &d, 1);
	void *args[2] = { n, &d };
	sim_at(s, 1.0, SIM_PRIO_NORMAL, on_start_d, args, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	assert_rel(d.t[0], 2.5);
	assert_rel(d.t[3], 3.5);
	assert_rel(d.t[1], 5.0);
	assert_rel(flow_link_bytes(n, l), 50);
	assert_rel(flow_bytes_delivered(n), 50);
	assert_rel(flow_bytes_started(n), 50);
	flow_free(n);
	sim_free(s);
}
END_TEST

START_TEST(test_rate_caps)
{
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	donelog d = { 0 };
	int l = flow_link_add(n, 10, 0, 1, 0), l2 = flow_link_add(n, 10, 0, 1, 0);
	int ids[3];
	ids[0] = flow_start(n, &l, 1, 20, 2, 1, on_done, &d, 0);   /* capped at 2 */
	ids[1] = flow_start(n, &l, 1, 40, 0, 1, on_done, &d, 1);   /* gets 8 */
	ids[2] = flow_start(n, &l2, 1, 6, 3, 1, on_done, &d, 2);   /* alone, capped */
	probe p = { n, ids, 3, { 0 } };
	sim_at(s, 1.0, SIM_PRIO_NORMAL, on_probe, &p, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	assert_rel(p.rate[0], 2);
	assert_rel(p.rate[1], 8);
	assert_rel(p.rate[2], 3);
	/* B: 40 at 8 ends at 5; A: 10 of 20 by then, the rest at its cap. */
	assert_rel(d.t[1], 5);
	assert_rel(d.t[0], 10);
	assert_rel(d.t[2], 2);
	assert_rel(flow_link_busy_s(n, l2), 2);
	flow_free(n);
	sim_free(s);
}
END_TEST

/* A stands for 8 siblings; link 1 has fanin 4, so A weighs 4 there: 4x + x
 * = 10 gives x = 2 for both. On link 2 (fanin 1) A weighs 1. */
START_TEST(test_mult_fanin)
{
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	donelog d = { 0 };
	int l1 = flow_link_add(n, 10, 0, 4, 0), l2 = flow_link_add(n, 100, 0, 1, 0);
	int l3 = flow_link_add(n, 12, 0, 4, 0);
	int ra[2] = { l1, l2 };
	int ids[3];
	ids[0] = flow_start(n, ra, 2, 4, 0, 8, on_done, &d, 0);
	ids[1] = flow_start(n, &l1, 1, 4, 0, 1, on_done, &d, 1);
	ids[2] = flow_start(n, &l3, 1, 12, 0, 2, on_done, &d, 2);  /* weight 2 */
	probe p = { n, ids, 3, { 0 } };
	sim_at(s, 0.5, SIM_PRIO_NORMAL, on_probe, &p, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	assert_rel(p.rate[0], 2);
	assert_rel(p.rate[1], 2);
	assert_rel(p.rate[2], 6);
	assert_rel(d.t[0], 2);
	assert_rel(d.t[1], 2);
	assert_rel(d.t[2], 2);
	assert_rel(flow_link_bytes(n, l1), 4 * 4 + 4);
	assert_rel(flow_link_bytes(n, l2), 4);
	assert_rel(flow_link_bytes(n, l3), 12 * 2);
	assert_rel(flow_bytes_delivered(n), 20);
	flow_free(n);
	sim_free(s);
}
END_TEST

/* Ring all-reduce: n flows of 2(n-1)/n S bytes, rank i to i+1 on link i. */
START_TEST(test_ring)
{
	const int sizes[4] = { 2, 4, 8, 64 };
	const double B = 25e9, S = 1 << 30, lat = 5e-6;
	for (int k = 0; k < 4; k++) {
		int r = sizes[k];
		sim *s = sim_new(1, 0);
		flownet *n = flow_new(s);
		donelog d = { 0 };
		double bytes = 2.0 * (r - 1) / r * S;
		for (int i = 0; i < r; i++)
			ck_assert_int_eq(flow_link_add(n, B, lat, 1, 0), i);
		for (int i = 0; i < r; i++)
			ck_assert_int_ge(flow_start(n, &i, 1, bytes, 0, 1, on_done, &d, (uint64_t)i), 0);
		ck_assert_int_eq(flow_active_count(n), r);
		ck_assert_int_eq(sim_run(s), SIM_OK);
		for (int i = 0; i < r; i++) {
			ck_assert_int_eq(d.calls[i], 1);
			assert_rel(d.t[i], bytes / B + lat);
			assert_rel(flow_link_bytes(n, i), bytes);
		}
		ck_assert_uint_eq(flow_replans(n), 2);
		ck_assert_int_eq(flow_active_count(n), 0);
		flow_free(n);
		sim_free(s);
	}
}
END_TEST

START_TEST(test_zero_and_empty)
{
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	donelog d = { 0 };
	int l1 = flow_link_add(n, 10, 0.1, 1, 0), l2 = flow_link_add(n, 10, 0.2, 1, 0);
	int ra[2] = { l1, l2 };
	ck_assert_int_ge(flow_start(n, ra, 2, 0, 0, 1, on_done, &d, 0), 0);
	ck_assert_int_ge(flow_start(n, NULL, 0, 100, 0, 1, on_done, &d, 1), 0);
	ck_assert_int_ge(flow_start(n, ra, 2, 5, 0, 1, on_done, &d, 2), 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	assert_rel(d.t[0], 0.3);
	ck_assert_double_eq(d.t[1], 0);
	assert_rel(d.t[2], 0.5 + 0.3);
	ck_assert_int_eq(d.calls[0] + d.calls[1] + d.calls[2], 3);
	assert_rel(flow_bytes_delivered(n), 105);
	ck_assert_double_eq(flow_link_latency(n, l2), 0.2);
	ck_assert_double_eq(flow_link_capacity(n, l1), 10);
	ck_assert_int_eq(flow_link_count(n), 2);
	/* Bad input is refused. */
	int bad = 7;
	ck_assert_int_eq(flow_start(n, &bad, 1, 1, 0, 1, NULL, NULL, 0), SIM_EINVAL);
	ck_assert_int_eq(flow_start(n, ra, 2, -1, 0, 1, NULL, NULL, 0), SIM_EINVAL);
	ck_assert_int_eq(flow_start(n, ra, 2, NAN, 0, 1, NULL, NULL, 0), SIM_EINVAL);
	ck_assert_int_eq(flow_start(n, ra, 2, 1, 0, 0.5, NULL, NULL, 0), SIM_EINVAL);
	ck_assert_int_eq(flow_start(n, ra, 2, 1, -1, 1, NULL, NULL, 0), SIM_EINVAL);
	ck_assert_int_eq(flow_link_add(n, 0, 0, 1, 0), SIM_EINVAL);
	ck_assert_int_eq(flow_link_add(n, 1, -1, 1, 0), SIM_EINVAL);
	ck_assert_int_eq(flow_link_add(n, 1, 0, 0, 0), SIM_EINVAL);
	ck_assert_int_eq(flow_active_count(n), 0);
	flow_free(n);
	sim_free(s);
}
END_TEST

/* Flows that start from a done callback at the instant another ends share
 * that instant's re-plan. */
static void on_chain(sim *s, void *ctx, uint64_t arg)
{
	void **a = ctx;
	on_done(s, a[1], arg);
	int l = 0;
	if (arg < 3)
		flow_start(a[0], &l, 1, 10, 0, 1, on_chain, ctx, arg + 1);
}

START_TEST(test_chain_batches_replans)
{
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	donelog d = { 0 };
	int l = flow_link_add(n, 10, 0, 1, 0);
	void *args[2] = { n, &d };
	flow_start(n, &l, 1, 10, 0, 1, on_chain, args, 0);
	for (int i = 0; i < 100; i++)   /* 100 same-time starts: one re-plan */
		flow_start(n, &l, 1, 1, 0, 1, on_done, &d, 100);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	/* 101 flows share 10 B/s; the 100 small ones end at 101 * 1 / 10. */
	assert_rel(d.t[100], 10.1);
	ck_assert_int_eq(d.calls[100], 100);
	/* The first then has 9 left alone: ends at 10.1 + 0.9 = 11; the chain
	 * adds 1 s per flow. */
	for (int i = 0; i < 4; i++)
		assert_rel(d.t[i], 11.0 + i);
	/* t=0, 10.1, 11, 12, 13, 14. */
	ck_assert_uint_eq(flow_replans(n), 6);
	assert_rel(flow_link_busy_s(n, l), 14);
	flow_free(n);
	sim_free(s);
}
END_TEST

/* Link 1 (10 B/s) carries A and B, both capped at 3: the caps fit, so link 1
 * cannot bind and A's rate comes from link 2 (4 B/s, shared with C): A = C
 * = 2, B = 3. At t=1, D (cap 6) joins link 1: 3 + 3 + 6 > 10, link 1 now
 * binds: A stays 2, B 3, D gets the rest, 5. */
static void on_start_capped(sim *s, void *ctx, uint64_t arg)
{
	void **a = ctx;
	int *ids = a[1], l1 = 0;
	ids[3] = flow_start(a[0], &l1, 1, 100, 6, 1, NULL, NULL, 0);
	ck_assert_int_ge(ids[3], 0);
}

START_TEST(test_capped_links)
{
	sim *s = sim_new(1, 0);
	flownet *n = flow_new(s);
	int l1 = flow_link_add(n, 10, 0, 1, 0), l2 = flow_link_add(n, 4, 0, 1, 0);
	int ra[2] = { l1, l2 }, ids[4];
	ids[0] = flow_start(n, ra, 2, 100, 3, 1, NULL, NULL, 0);
	ids[1] = flow_start(n, &l1, 1, 100, 3, 1, NULL, NULL, 0);
	ids[2] = flow_start(n, &l2, 1, 100, 0, 1, NULL, NULL, 0);
	void *args[2] = { n, ids };
	sim_at(s, 1.0, SIM_PRIO_NORMAL, on_start_capped, args, 0);
	probe p1 = { n, ids, 3, { 0 } }, p2 = { n, ids, 4, { 0 } };
	sim_at(s, 0.5, SIM_PRIO_NORMAL, on_probe, &p1, 0);
	sim_at(s, 1.5, SIM_PRIO_NORMAL, on_probe, &p2, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	assert_rel(p1.rate[0], 2);
	assert_rel(p1.rate[1], 3);
	assert_rel(p1.rate[2], 2);
	assert_rel(p2.rate[0], 2);
	assert_rel(p2.rate[1], 3);
	assert_rel(p2.rate[2], 2);
	assert_rel(p2.rate[3], 5);
	assert_rel(flow_bytes_delivered(n), 400);
	flow_free(n);
	sim_free(s);
}
END_TEST

/* Random traffic: checks at random instants that the rates are feasible and
 * max-min fair (every flow is at its cap, or crosses a saturated link on
 * which no flow has a higher rate), and at the end that every byte arrived. */
#define RL 12
#define RF 400

typedef struct {
	flownet *net;
	int id[RF], route[RF][4], nhops[RF];
	double cap[RF], mult[RF];
	bool live[RF];
	int fanin[RL], wave[RF];
	double bytes[RF], expect_link[RL];
	int checks;
	donelog d;
} world;

static void on_rand_done(sim *s, void *ctx, uint64_t arg)
{
	world *w = ctx;
	w->live[arg] = false;
	w->d.calls[arg % 256]++;
}

static double wt(const world *w, int f, int l)
{
	return fmin(w->mult[f], (double)w->fanin[l]);
}

static void on_check(sim *s, void *ctx, uint64_t arg)
{
	world *w = ctx;
	double load[RL] = { 0 }, top[RL] = { 0 };
	for (int f = 0; f < RF; f++) {
		double r = w->live[f] ? flow_rate(w->net, w->id[f]) : 0;
		for (int h = 0; h < w->nhops[f] && r > 0; h++) {
			int l = w->route[f][h];
			load[l] += r * wt(w, f, l);
			top[l] = fmax(top[l], r);
		}
	}
	for (int l = 0; l < RL; l++)
		ck_assert_double_le(load[l], flow_link_capacity(w->net, l) * (1 + 1e-9));
	for (int f = 0; f < RF; f++) {
		double r = w->live[f] ? flow_rate(w->net, w->id[f]) : 0;
		if (r <= 0)
			continue;
		bool bottlenecked = w->cap[f] > 0 && r >= w->cap[f] * (1 - 1e-9);
		for (int h = 0; h < w->nhops[f] && !bottlenecked; h++) {
			int l = w->route[f][h];
			bottlenecked = load[l] >= flow_link_capacity(w->net, l) * (1 - 1e-9) &&
				       r >= top[l] * (1 - 1e-9);
		}
		ck_assert_msg(bottlenecked, "flow %d at %g is not max-min bottlenecked", f, r);
	}
	w->checks++;
}

static void on_wave(sim *s, void *ctx, uint64_t arg)
{
	world *w = ctx;
	for (int f = 0; f < RF; f++) {
		if (w->wave[f] != (int)arg)
			continue;
		w->id[f] = flow_start(w->net, w->route[f], w->nhops[f], w->bytes[f], w->cap[f],
				      w->mult[f], on_rand_done, w, (uint64_t)f);
		ck_assert_int_ge(w->id[f], 0);
		for (int h = 0; h < w->nhops[f]; h++)
			w->expect_link[w->route[f][h]] += w->bytes[f] * wt(w, f, w->route[f][h]);
	}
}

START_TEST(test_random_invariants)
{
	sim *s = sim_new(11 + (uint64_t)_i, 0);
	gsl_rng *r = sim_rng(s, 1);
	world *w = calloc(1, sizeof *w);
	w->net = flow_new(s);
	for (int l = 0; l < RL; l++) {
		w->fanin[l] = 1 + (int)gsl_rng_uniform_int(r, 4);
		flow_link_add(w->net, 1e9 * (1 + gsl_rng_uniform_int(r, 8)), 1e-6, w->fanin[l], 0);
	}
	/* Flows start in ten waves (so that many share an instant) with
	 * random routes of distinct links, sizes, caps and multiplicities. */
	for (int f = 0; f < RF; f++) {
		w->nhops[f] = 1 + (int)gsl_rng_uniform_int(r, 4);
		for (int h = 0; h < w->nhops[f]; h++) {
			bool again;
			do {
				w->route[f][h] = (int)gsl_rng_uniform_int(r, RL);
				again = false;
				for (int g = 0; g < h; g++)
					again |= w->route[f][g] == w->route[f][h];
			} while (again);
		}
		/* Run 0: a few flows capped. Run 1: all capped, low enough that
		 * on some links the caps fit (those links never bind). */
		w->cap[f] = _i == 0 ? (gsl_rng_uniform(r) < 0.3 ? 1e8 * (1 + gsl_rng_uniform_int(r, 20)) : 0)
				    : 1e6 * (1 + gsl_rng_uniform_int(r, 30));
		w->mult[f] = gsl_rng_uniform(r) < 0.3 ? 1 + gsl_rng_uniform_int(r, 8) : 1;
		w->live[f] = true;
		w->id[f] = -1;
	}
	for (int f = 0; f < RF; f++) {
		w->bytes[f] = 1e6 * (1 + gsl_rng_uniform_int(r, 100));
		w->wave[f] = (int)gsl_rng_uniform_int(r, 10);
	}
	for (int k = 0; k < 10; k++)
		sim_at(s, 0.01 * k, SIM_PRIO_NORMAL, on_wave, w, (uint64_t)k);
	for (int i = 0; i < 200; i++)
		sim_at(s, gsl_rng_uniform(r) * 0.2, SIM_PRIO_NORMAL, on_check, w, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_int_eq(w->checks, 200);
	for (int f = 0; f < RF; f++)
		ck_assert(!w->live[f]);
	ck_assert_int_eq(flow_active_count(w->net), 0);
	ck_assert_double_gt(flow_bytes_started(w->net), 0);
	assert_rel(flow_bytes_delivered(w->net), flow_bytes_started(w->net));
	for (int l = 0; l < RL; l++) {
		assert_rel(flow_link_bytes(w->net, l), w->expect_link[l]);
		/* A link never carries more than its capacity allows. */
		ck_assert_double_le(flow_link_bytes(w->net, l),
				    flow_link_capacity(w->net, l) * flow_link_busy_s(w->net, l) * (1 + 1e-9));
	}
	flow_free(w->net);
	free(w);
	sim_free(s);
}
END_TEST

/* Per-flow bandwidth noise (flow_set_noise). Flows run one after the other
 * on one link (capacity C, no latency), each started by the previous one's
 * end; x[i] = the rate flow i got over C (or over its cap). */
typedef struct {
	flownet *net;
	int link, n, k;
	double cap, S, t0, *x;
} noiseq;

static void on_noiseq(sim *s, void *ctx, uint64_t arg)
{
	(void)arg;
	noiseq *q = ctx;
	double now = sim_now(s);
	if (q->k > 0)
		q->x[q->k - 1] = q->S / (now - q->t0) / (q->cap > 0 ? q->cap : 1e9);
	q->t0 = now;
	if (q->k++ < q->n)
		ck_assert_int_ge(flow_start(q->net, &q->link, 1, q->S, q->cap, 1, on_noiseq, q, 0), 0);
}

/* Runs n flows with noise cv from a generator seeded `seed` (no call to
 * flow_set_noise when cv < 0); returns the link's byte count. */
static double noise_run(double cv, double cap, unsigned long seed, int n, double *x)
{
	sim *s = sim_new(1, 0);
	flownet *net = flow_new(s);
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(g, seed);
	if (cv >= 0)
		ck_assert_int_eq(flow_set_noise(net, cv, g), SIM_OK);
	noiseq q = { net, flow_link_add(net, 1e9, 0, 1, 0), n, 0, cap, 1e6, 0, x };
	on_noiseq(s, &q, 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_int_eq(q.k, n + 1);
	double b = flow_link_bytes(net, q.link);
	assert_rel(flow_bytes_delivered(net), flow_bytes_started(net));
	if (cv == 0) {   /* nothing drawn: the generator is where it started */
		gsl_rng *h = gsl_rng_alloc(gsl_rng_mt19937);
		gsl_rng_set(h, seed);
		ck_assert_uint_eq(gsl_rng_get(g), gsl_rng_get(h));
		gsl_rng_free(h);
	}
	gsl_rng_free(g);
	flow_free(net);
	sim_free(s);
	return b;
}

START_TEST(test_noise)
{
	enum { N = 4000 };
	static double a[N], b[N];
	/* cv 0: exactly the network without noise */
	noise_run(-1, 0, 5, 50, a);
	noise_run(0, 0, 5, 50, b);
	for (int i = 0; i < 50; i++) {
		ck_assert(a[i] == b[i]);
		assert_rel(a[i], 1.0);
	}
	/* cv 0.3: the rate is C X, X of mean 1 and CV 0.3; the cap scales too */
	const double cv = 0.3, caps[] = {0, 2.5e8};
	for (int c = 0; c < 2; c++) {
		double bytes = noise_run(cv, caps[c], 11, N, a);
		assert_rel(bytes, N * 1e6);   /* real bytes, whatever the factor */
		double m = 0, v = 0;
		for (int i = 0; i < N; i++)
			m += a[i] / N;
		for (int i = 0; i < N; i++)
			v += (a[i] - m) * (a[i] - m) / (N - 1);
		ck_assert_msg(fabs(m - 1) < 4 * cv / sqrt(N), "mean factor %g", m);
		ck_assert_msg(fabs(sqrt(v) / m - cv) < 0.03, "cv %g", sqrt(v) / m);
		/* the same seed repeats the same factors; another seed does not */
		noise_run(cv, caps[c], 11, N, b);
		for (int i = 0; i < N; i++)
			ck_assert(a[i] == b[i]);
		noise_run(cv, caps[c], 12, 10, b);
		ck_assert(a[0] != b[0]);
	}
	sim *s = sim_new(1, 0);
	flownet *net = flow_new(s);
	ck_assert_int_eq(flow_set_noise(net, -0.1, NULL), SIM_EINVAL);
	ck_assert_int_eq(flow_set_noise(net, 0.1, NULL), SIM_EINVAL);
	ck_assert_int_eq(flow_set_noise(net, 0, NULL), SIM_OK);
	flow_free(net);
	sim_free(s);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("flow");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_two_flows_one_link);
	tcase_add_test(tc, test_sent_notifies_at_send_end);
	tcase_add_test(tc, test_end_batches);
	tcase_add_test(tc, test_three_flows_two_links);
	tcase_add_test(tc, test_early_end_releases_bandwidth);
	tcase_add_test(tc, test_rate_caps);
	tcase_add_test(tc, test_mult_fanin);
	tcase_add_test(tc, test_ring);
	tcase_add_test(tc, test_zero_and_empty);
	tcase_add_test(tc, test_chain_batches_replans);
	tcase_add_loop_test(tc, test_random_invariants, 0, 2);
	tcase_add_test(tc, test_capped_links);
	tcase_add_test(tc, test_noise);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
