/* check_engine.c: the event engine's ordering, cap, stop and random streams. */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "engine.h"

/* A log of (time, arg) pairs in run order. */
typedef struct {
	double *t;
	uint64_t *arg;
	size_t n, cap;
} trace;

static void trace_push(trace *tr, double t, uint64_t arg)
{
	if (tr->n == tr->cap) {
		tr->cap = tr->cap ? 2 * tr->cap : 64;
		tr->t = realloc(tr->t, tr->cap * sizeof *tr->t);
		tr->arg = realloc(tr->arg, tr->cap * sizeof *tr->arg);
		ck_assert_ptr_nonnull(tr->t);
		ck_assert_ptr_nonnull(tr->arg);
	}
	tr->t[tr->n] = t;
	tr->arg[tr->n++] = arg;
}

static void trace_free(trace *tr)
{
	free(tr->t);
	free(tr->arg);
}

static void on_log(sim *s, void *ctx, uint64_t arg)
{
	trace_push(ctx, sim_now(s), arg);
}

START_TEST(test_same_time_insertion_order)
{
	sim *s = sim_new(1, 0);
	trace tr = { 0 };
	for (uint64_t i = 0; i < 100; i++)
		ck_assert_int_eq(sim_at(s, 1.0, SIM_PRIO_NORMAL, on_log, &tr, i), 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_uint_eq(tr.n, 100);
	for (uint64_t i = 0; i < 100; i++) {
		ck_assert_uint_eq(tr.arg[i], i);
		ck_assert_double_eq(tr.t[i], 1.0);
	}
	ck_assert_uint_eq(sim_events(s), 100);
	trace_free(&tr);
	sim_free(s);
}
END_TEST

START_TEST(test_same_time_prio_order)
{
	sim *s = sim_new(1, 0);
	trace tr = { 0 };
	const int prios[3] = { SIM_PRIO_LATE, SIM_PRIO_NORMAL, SIM_PRIO_EARLY };
	/* arg = prio * 1000 + insertion index */
	for (uint64_t i = 0; i < 30; i++) {
		int p = prios[i % 3];
		sim_at(s, 2.0, p, on_log, &tr, (uint64_t)p * 1000 + i);
	}
	sim_at(s, 1.0, SIM_PRIO_LATE, on_log, &tr, 99999);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_uint_eq(tr.n, 31);
	ck_assert_uint_eq(tr.arg[0], 99999);   /* earlier time beats any prio */
	for (size_t k = 2; k < tr.n; k++) {
		uint64_t a = tr.arg[k - 1], b = tr.arg[k];
		ck_assert_msg(a / 1000 < b / 1000 || (a / 1000 == b / 1000 && a < b),
			      "order broken at %zu: %llu then %llu", k,
			      (unsigned long long)a, (unsigned long long)b);
	}
	ck_assert_uint_eq(tr.arg[1], SIM_PRIO_EARLY * 1000 + 2);
	ck_assert_uint_eq(tr.arg[30], SIM_PRIO_LATE * 1000 + 27);
	trace_free(&tr);
	sim_free(s);
}
END_TEST

/* A handler that schedules another event at the same instant: it must run
 * after the events already queued for that instant and prio, and before the
 * later prio. */
static void on_chain(sim *s, void *ctx, uint64_t arg)
{
	trace_push(ctx, sim_now(s), arg);
	if (arg == 1)
		sim_at(s, sim_now(s), SIM_PRIO_NORMAL, on_log, ctx, 4);
}

START_TEST(test_same_time_from_handler)
{
	sim *s = sim_new(1, 0);
	trace tr = { 0 };
	sim_at(s, 5.0, SIM_PRIO_NORMAL, on_chain, &tr, 1);
	sim_at(s, 5.0, SIM_PRIO_LATE, on_log, &tr, 5);
	sim_at(s, 5.0, SIM_PRIO_NORMAL, on_log, &tr, 2);
	sim_at(s, 5.0, SIM_PRIO_NORMAL, on_log, &tr, 3);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_uint_eq(tr.n, 5);
	for (size_t i = 0; i < 5; i++)
		ck_assert_uint_eq(tr.arg[i], i + 1);
	trace_free(&tr);
	sim_free(s);
}
END_TEST

START_TEST(test_million_random_sorted)
{
	const size_t n = 1000000;
	sim *s = sim_new(7, 0);
	gsl_rng *r = sim_rng(s, 0);
	trace tr = { 0 };
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(sim_at(s, gsl_rng_uniform(r) * 1000.0,
					(int)gsl_rng_uniform_int(r, 3) * 10,
					on_log, &tr, i), 0);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_uint_eq(tr.n, n);
	ck_assert_uint_eq(sim_events(s), n);
	for (size_t i = 1; i < n; i++)
		ck_assert_msg(tr.t[i - 1] <= tr.t[i], "unsorted at %zu", i);
	/* Every event ran exactly once. */
	char *seen = calloc(n, 1);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_lt(tr.arg[i], n);
		ck_assert_int_eq(seen[tr.arg[i]], 0);
		seen[tr.arg[i]] = 1;
	}
	free(seen);
	trace_free(&tr);
	sim_free(s);
}
END_TEST

/* Hold model: each event schedules one successor, exponentially later. */
typedef struct {
	gsl_rng *r;
	double last;
	uint64_t count;
	bool sorted;
} hold;

static void on_hold(sim *s, void *ctx, uint64_t arg)
{
	hold *h = ctx;
	if (sim_now(s) < h->last)
		h->sorted = false;
	h->last = sim_now(s);
	h->count++;
	if (arg > 0)
		sim_after(s, gsl_ran_exponential(h->r, 1.0), SIM_PRIO_NORMAL, on_hold, h, arg - 1);
}

START_TEST(test_hold_model_sorted)
{
	sim *s = sim_new(3, 0);
	hold h = { sim_rng(s, 1), 0, 0, true };
	for (int i = 0; i < 10000; i++)
		sim_at(s, gsl_ran_exponential(h.r, 1.0), SIM_PRIO_NORMAL, on_hold, &h, 50);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert(h.sorted);
	ck_assert_uint_eq(h.count, 10000 * 51);
	ck_assert_uint_eq(sim_events(s), 10000 * 51);
	sim_free(s);
}
END_TEST

/* Differential test of the queue: every event, when it runs, must be the
 * smallest (time, prio, insertion order) pending in a plain binary heap kept
 * beside the engine. Delays mix zero, tiny, ordinary and huge values and
 * bursts of same-time events, to drive the ladder through its rungs. */
typedef struct {
	double t;
	int prio;
	uint64_t id;
} refev;

typedef struct {
	refev *h;
	size_t n, cap;
	uint64_t next_id, ran, budget;
	gsl_rng *r;
	bool ok;
} refq;

static bool ref_less(refev a, refev b)
{
	if (a.t != b.t)
		return a.t < b.t;
	if (a.prio != b.prio)
		return a.prio < b.prio;
	return a.id < b.id;
}

static void ref_push(refq *q, refev e)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 1024;
		q->h = realloc(q->h, q->cap * sizeof *q->h);
	}
	size_t i = q->n++;
	while (i > 0 && ref_less(e, q->h[(i - 1) / 2])) {
		q->h[i] = q->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->h[i] = e;
}

static refev ref_pop(refq *q)
{
	refev top = q->h[0], last = q->h[--q->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && ref_less(q->h[c + 1], q->h[c]))
			c++;
		if (!ref_less(q->h[c], last))
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	if (q->n)
		q->h[i] = last;
	return top;
}

static void on_ref(sim *s, void *ctx, uint64_t arg);

static void ref_sched(sim *s, refq *q, double t, int prio)
{
	refev e = { t + 0.0, prio, q->next_id++ };
	ref_push(q, e);
	ck_assert_int_eq(sim_at(s, t, prio, on_ref, q, e.id), 0);
}

static double ref_delay(gsl_rng *r)
{
	double u = gsl_rng_uniform(r);
	if (u < 0.2)
		return 0;
	if (u < 0.3)
		return 1e-12 * gsl_rng_uniform(r);
	if (u < 0.95)
		return gsl_ran_exponential(r, 1.0);
	return 1e3 * gsl_rng_uniform(r);
}

static void on_ref(sim *s, void *ctx, uint64_t arg)
{
	refq *q = ctx;
	static const int prios[4] = { -5, SIM_PRIO_EARLY, SIM_PRIO_NORMAL, SIM_PRIO_LATE };
	refev want = ref_pop(q);
	if (want.id != arg || want.t != sim_now(s))
		q->ok = false;
	q->ran++;
	if (q->ran > q->budget)
		return;
	int spawn = (int)gsl_rng_uniform_int(q->r, 3);   /* 0, 1 or 2: about one */
	if (q->ran % 50000 == 0)
		spawn = 3000;   /* a burst at one instant */
	for (int i = 0; i < spawn; i++) {
		double dt = spawn > 2 ? 0.5 : ref_delay(q->r);
		ref_sched(s, q, sim_now(s) + dt, prios[gsl_rng_uniform_int(q->r, 4)]);
	}
}

START_TEST(test_queue_against_reference)
{
	sim *s = sim_new(5, 0);
	refq q = { .r = sim_rng(s, 9), .budget = 400000, .ok = true };
	static const int prios[4] = { -5, SIM_PRIO_EARLY, SIM_PRIO_NORMAL, SIM_PRIO_LATE };
	for (int i = 0; i < 20000; i++)
		ref_sched(s, &q, ref_delay(q.r), prios[gsl_rng_uniform_int(q.r, 4)]);
	for (int i = 0; i < 2000; i++)   /* a crowd at t = 0, -0.0 among them */
		ref_sched(s, &q, i % 2 ? 0.0 : -0.0, prios[gsl_rng_uniform_int(q.r, 4)]);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert(q.ok);
	ck_assert_uint_eq(q.n, 0);
	ck_assert_uint_eq(q.ran, q.next_id);
	ck_assert_uint_gt(q.ran, 400000);
	ck_assert_uint_eq(sim_events(s), q.ran);
	free(q.h);
	sim_free(s);
}
END_TEST

START_TEST(test_cap_gives_elimit)
{
	sim *s = sim_new(1, 10);
	trace tr = { 0 };
	ck_assert_uint_eq(sim_max_events(s), 10);
	for (uint64_t i = 0; i < 20; i++)
		sim_at(s, (double)i, SIM_PRIO_NORMAL, on_log, &tr, i);
	ck_assert_int_eq(sim_run(s), SIM_ELIMIT);
	ck_assert_uint_eq(sim_events(s), 10);
	ck_assert_uint_eq(tr.n, 10);
	ck_assert_double_eq(sim_now(s), 9.0);
	/* Still capped when run again. */
	ck_assert_int_eq(sim_run(s), SIM_ELIMIT);
	ck_assert_uint_eq(tr.n, 10);
	trace_free(&tr);
	sim_free(s);

	/* Exactly the cap, and the queue empties: not a limit. */
	s = sim_new(1, 5);
	trace tr2 = { 0 };
	for (uint64_t i = 0; i < 5; i++)
		sim_at(s, 1.0, SIM_PRIO_NORMAL, on_log, &tr2, i);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_uint_eq(tr2.n, 5);
	trace_free(&tr2);
	sim_free(s);

	s = sim_new(1, 0);
	ck_assert_uint_eq(sim_max_events(s), SIM_DEFAULT_MAX_EVENTS);
	sim_free(s);
}
END_TEST

static void on_stop(sim *s, void *ctx, uint64_t arg)
{
	trace_push(ctx, sim_now(s), arg);
	if (arg == 2)
		sim_stop(s);
}

START_TEST(test_stop_and_resume)
{
	sim *s = sim_new(1, 0);
	trace tr = { 0 };
	for (uint64_t i = 0; i < 5; i++)
		sim_after(s, (double)i + 0.5, SIM_PRIO_NORMAL, on_stop, &tr, i);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_uint_eq(tr.n, 3);
	ck_assert_double_eq(sim_now(s), 2.5);
	sim_after(s, 0.25, SIM_PRIO_NORMAL, on_log, &tr, 10);
	ck_assert_int_eq(sim_run(s), SIM_OK);
	ck_assert_uint_eq(tr.n, 6);
	ck_assert_uint_eq(tr.arg[3], 10);
	ck_assert_double_eq(tr.t[3], 2.75);
	ck_assert_uint_eq(tr.arg[5], 4);
	trace_free(&tr);
	sim_free(s);
}
END_TEST

static void on_past(sim *s, void *ctx, uint64_t arg)
{
	sim_at(s, sim_now(s) - 1.0, SIM_PRIO_NORMAL, on_log, ctx, arg);
}

START_TEST(test_past_asserts)
{
	sim *s = sim_new(1, 0);
	trace tr = { 0 };
	sim_at(s, 2.0, SIM_PRIO_NORMAL, on_past, &tr, 0);
	sim_run(s);   /* aborts */
	trace_free(&tr);
	sim_free(s);
}
END_TEST

START_TEST(test_rng_streams)
{
	sim *a = sim_new(42, 0), *b = sim_new(42, 0), *c = sim_new(43, 0);
	/* Created in the opposite order: the draws must not depend on it. */
	gsl_rng *a5 = sim_rng(a, 5), *a6 = sim_rng(a, 6);
	gsl_rng *b6 = sim_rng(b, 6), *b5 = sim_rng(b, 5);
	gsl_rng *c5 = sim_rng(c, 5);
	ck_assert_ptr_eq(sim_rng(a, 5), a5);
	ck_assert_str_eq(gsl_rng_name(a5), "mt19937");
	int same56 = 0, same_seed = 0;
	for (int i = 0; i < 1000; i++) {
		unsigned long x5 = gsl_rng_get(a5), x6 = gsl_rng_get(a6);
		ck_assert_uint_eq(x5, gsl_rng_get(b5));
		ck_assert_uint_eq(x6, gsl_rng_get(b6));
		same56 += x5 == x6;
		same_seed += x5 == gsl_rng_get(c5);
	}
	ck_assert_int_lt(same56, 3);
	ck_assert_int_lt(same_seed, 3);
	/* Many streams: the table grows, and each stream keeps its generator. */
	gsl_rng *keep[2000];
	for (uint64_t i = 0; i < 2000; i++)
		keep[i] = sim_rng(a, i * 1000003ULL);
	for (uint64_t i = 0; i < 2000; i++)
		ck_assert_ptr_eq(sim_rng(a, i * 1000003ULL), keep[i]);
	ck_assert_ptr_eq(sim_rng(a, 5), a5);
	sim_free(a);
	sim_free(b);
	sim_free(c);
}
END_TEST

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

START_TEST(test_seed_mix_distinct)
{
	const size_t n = 200000;
	uint64_t *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = sim_seed_mix(i < n / 2 ? 1 : 2, i % (n / 2));
	qsort(v, n, sizeof *v, cmp_u64);
	for (size_t i = 1; i < n; i++)
		ck_assert_uint_ne(v[i - 1], v[i]);
	ck_assert_uint_eq(sim_seed_mix(9, 9), sim_seed_mix(9, 9));
	free(v);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("engine");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_same_time_insertion_order);
	tcase_add_test(tc, test_same_time_prio_order);
	tcase_add_test(tc, test_same_time_from_handler);
	tcase_add_test(tc, test_million_random_sorted);
	tcase_add_test(tc, test_hold_model_sorted);
	tcase_add_test(tc, test_queue_against_reference);
	tcase_add_test(tc, test_cap_gives_elimit);
	tcase_add_test(tc, test_stop_and_resume);
	tcase_add_test_raise_signal(tc, test_past_asserts, SIGABRT);
	tcase_add_test(tc, test_rng_streams);
	tcase_add_test(tc, test_seed_mix_distinct);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
