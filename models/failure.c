/* failure.c: failures, restarts and lost work over a long run, by Monte
 * Carlo: interruptions drawn with GSL from per-GPU, per-node and per-link
 * MTBFs; the checkpoint interval that maximizes goodput found by simulation
 * and set beside Young's and Daly's formulas (cost-models.md 7). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "store.h"

#define FAIL_RENEWAL_DRAWS 40000   /* interruptions per long-run estimate */
#define FAIL_BATCHES 8             /* batches for the confidence interval */
#define FAIL_REPS 32               /* runs to the training goal */
#define FAIL_MAX_DRAWS 20000000L   /* a run that cannot finish stops here */
#define FAIL_GRID_RATIO 1.04       /* candidate intervals, geometric */
/* The longest interval searched, in steps: an int holds it (the report's
 * interval is one), and a run that checkpoints less often than every 10^9
 * steps is one that never does (a 2.7e15-step optimum wrapped to 2.1e9) */
#define FAIL_MAX_EVERY 1e9

typedef struct fmodel {
	double tau;                  /* work between checkpoints */
	double delta;                /* training stopped per checkpoint */
	double lag;                  /* after the stall, until the checkpoint is durable */
	double restart;
	const store_ckpt_result *ck; /* the measured cost, to re-cost other intervals */
	bool async;
	double write;                /* start of the write to durable */
	double knee;                 /* async: steps a background write takes; 0: none */
	double extra_rate;           /* the other tier's stall per second of work: the
	                              * storage checkpoints when restarts restore from
	                              * node-local ones, the node-local ones (lost with
	                              * the failed node) when they cannot */
} fmodel;

typedef struct facc {
	double useful, wall, ckpt, restart;
	long fails;
} facc;

double store_young_s(double delta_s, double mtbf_s)
{
	return sqrt(2 * delta_s * mtbf_s);
}

double store_daly_s(double delta_s, double mtbf_s)
{
	if (delta_s >= 2 * mtbf_s)
		return mtbf_s;
	double x = delta_s / (2 * mtbf_s);
	return sqrt(2 * delta_s * mtbf_s) * (1 + sqrt(x) / 3 + x / 9) - delta_s;
}

/* Checkpoint stall time spent in the first f seconds of a stretch. */
static double ckpt_time_in(const fmodel *m, double f, double nck)
{
	double cyc = m->tau + m->delta;
	double k = floor(f / cyc);
	if (k > nck)
		return nck * m->delta;
	return k * m->delta + fmin(m->delta, fmax(0.0, f - k * cyc - m->tau));
}

/* A stretch of work right after a (re)start with `left` seconds of work to do
 * (INFINITY for a long-run estimate) and the next interruption f seconds
 * away. Returns the work made durable; *done when the goal was reached. */
static double stretch(const fmodel *m, double left, double f, facc *a, bool *done)
{
	double cyc = m->tau + m->delta;
	double nck = INFINITY;       /* checkpoints taken before the goal */
	if (isfinite(left))
		nck = fmax(0.0, ceil(left / m->tau - 1e-9) - 1);
	double finish = isfinite(left) ? left + nck * m->delta : INFINITY;
	*done = f >= finish;
	if (*done) {
		a->wall += finish;
		a->ckpt += nck * m->delta;
		a->useful += left;
		return left;
	}
	a->wall += f;
	a->fails++;
	if (!isfinite(m->tau))
		return 0;                /* no checkpoints: the failure loses it all */
	double n = floor((f - m->lag) / cyc);
	n = fmin(fmax(n, 0.0), nck);
	a->ckpt += ckpt_time_in(m, f, nck);
	a->useful += n * m->tau;
	return n * m->tau;
}

/* Next interruption: the earliest of the three kinds, each exponential. */
typedef struct fdraw {
	gsl_rng *rng;
	double mean_gpu, mean_node, mean_link;   /* job-level means; 0 = none */
	long n_gpu, n_node, n_link;
} fdraw;

static double draw_next(fdraw *d)
{
	double t = INFINITY;
	int which = -1;
	double m[3] = { d->mean_gpu, d->mean_node, d->mean_link };
	for (int i = 0; i < 3; i++) {
		if (m[i] <= 0)
			continue;
		double x = gsl_ran_exponential(d->rng, m[i]);
		if (x < t) {
			t = x;
			which = i;
		}
	}
	if (which == 0)
		d->n_gpu++;
	else if (which == 1)
		d->n_node++;
	else if (which == 2)
		d->n_link++;
	return t;
}

/* Runs to `work` seconds of work (INFINITY: until the draws run out),
 * taking interruption times from draws[0..n-1] in order. */
static void run_model(const fmodel *m, double work, const double *draws, long n, facc *a)
{
	memset(a, 0, sizeof *a);
	double left = work;
	bool restarting = false;
	for (long i = 0; i < n; i++) {
		double f = draws[i];
		if (restarting) {
			if (f < m->restart) {        /* interrupted again while restarting */
				a->wall += f;
				a->restart += f;
				a->fails++;
				continue;
			}
			a->wall += m->restart;
			a->restart += m->restart;
			f -= m->restart;
		}
		bool done;
		left -= stretch(m, left, f, a, &done);
		if (done)
			return;
		restarting = true;
	}
}

static double goodput_of(const facc *a)
{
	return a->wall > 0 ? a->useful / a->wall : 0;
}

/* After the stall, until the checkpoint is durable: an async one when its
 * background write ends (write - snapshot, whatever wait for the previous
 * write the stall held), a sync one at once. */
static double async_lag(const fmodel *m)
{
	if (m->ck && m->async && !m->ck->async_fallback)
		return fmax(0.0, m->ck->write_s - m->ck->snapshot_s);
	return fmax(0.0, m->write - m->delta);
}

/* Long-run goodput of interval `every` on the common draws; an async
 * checkpoint's stall is its own at that interval (a background write that
 * outlasts a short interval delays the next snapshot). */
static double goodput_every(fmodel m, double step_s, int every, const double *draws, long n)
{
	facc a;
	m.tau = every * step_s;
	if (m.ck) {
		m.delta = store_ckpt_stall(m.ck, m.async, every, step_s) + m.extra_rate * m.tau;
		m.lag = async_lag(&m);
	}
	run_model(&m, INFINITY, draws, n, &a);
	return goodput_of(&a);
}

/* Just below the knee the next snapshot waits only a fraction of a step:
 * floor(knee) can beat the smooth side's best e; the better of the two. */
static double knee_side(const fmodel *m, double step_s, const double *draws, long n, double e,
                        double *best_g)
{
	int lo = m->knee > 1 && m->knee <= FAIL_MAX_EVERY ? (int)floor(m->knee) : 0;
	if (lo < 1 || lo >= (int)lround(e) || lo + 1 < m->knee)
		return e;
	double g_lo = goodput_every(*m, step_s, lo, draws, n);
	double g_e = goodput_every(*m, step_s, (int)lround(e), draws, n);
	if (g_lo > g_e) {
		*best_g = fmax(*best_g, g_lo);
		return lo;
	}
	return e;
}

/* The interval maximizing goodput on draws[0..n-1]: a grid over every, then a
 * parabola in log(every) through the points near the top, which smooths the
 * jagged argmax of a finite sample. */
static double best_every(const fmodel *m, double step_s, double guess, const double *draws,
                         long n, double *best_g)
{
	double lo = fmin(fmax(1.0, guess / 4), FAIL_MAX_EVERY / 2);
	double hi = fmin(fmax(lo * 2, guess * 4), FAIL_MAX_EVERY);
	enum { MAXC = 256 };
	double ev[MAXC] = { 0 }, g[MAXC] = { 0 };
	int nc = 0, ib = 0, last = 0;
	/* an async stall jumps below the knee: the knee itself is a candidate,
	 * and the parabola is fitted on the smooth side only */
	int knee = m->knee > 0 && m->knee <= FAIL_MAX_EVERY ? (int)ceil(m->knee) : 0;
	bool knee_done = knee < lo || knee > hi;
	for (double e = lo; e <= hi && nc < MAXC - 1; e *= FAIL_GRID_RATIO) {
		int ie = (int)lround(e);
		if (!knee_done && knee <= ie) {
			knee_done = true;
			if (knee < ie && knee != last) {
				ev[nc] = knee;
				g[nc] = goodput_every(*m, step_s, knee, draws, n);
				if (g[nc] > g[ib])
					ib = nc;
				last = knee;
				nc++;
			}
		}
		if (ie == last)
			continue;
		last = ie;
		ev[nc] = ie;
		g[nc] = goodput_every(*m, step_s, ie, draws, n);
		if (g[nc] > g[ib])
			ib = nc;
		nc++;
	}
	*best_g = g[ib];
	/* least squares g = a + b x + c x^2, x = log(every / ev[ib]), over points
	 * within a factor 2 of the argmax */
	double S[5] = { 0 }, T[3] = { 0 };
	int used = 0;
	for (int i = 0; i < nc; i++) {
		double x = log(ev[i] / ev[ib]);
		if (fabs(x) > log(2.0) || ev[i] < knee)
			continue;
		double p = 1;
		for (int k = 0; k < 5; k++, p *= x)
			S[k] += p;
		T[0] += g[i];
		T[1] += g[i] * x;
		T[2] += g[i] * x * x;
		used++;
	}
	if (used < 5)
		return knee_side(m, step_s, draws, n, ev[ib], best_g);
	/* solve [S0 S1 S2; S1 S2 S3; S2 S3 S4] (a b c) = T by Cramer's rule */
	double A[3][3] = { { S[0], S[1], S[2] }, { S[1], S[2], S[3] }, { S[2], S[3], S[4] } };
	double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
	             A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
	             A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
	if (fabs(det) < 1e-300)
		return knee_side(m, step_s, draws, n, ev[ib], best_g);
	double db = A[0][0] * (T[1] * A[2][2] - A[1][2] * T[2]) -
	            T[0] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
	            A[0][2] * (A[1][0] * T[2] - T[1] * A[2][0]);
	double dc = A[0][0] * (A[1][1] * T[2] - T[1] * A[2][1]) -
	            A[0][1] * (A[1][0] * T[2] - T[1] * A[2][0]) +
	            T[0] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
	double b = db / det, c = dc / det;
	if (c >= 0)
		return knee_side(m, step_s, draws, n, ev[ib], best_g);
	double x = -b / (2 * c);
	if (fabs(x) > log(2.0))
		return knee_side(m, step_s, draws, n, ev[ib], best_g);
	return knee_side(m, step_s, draws, n, fmax(fmax(1.0, knee), ev[ib] * exp(x)), best_g);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void search_best(const fmodel *m, double step_s, double guess, const double *draws,
                        long n, store_fail_result *r)
{
	double g;
	double e = best_every(m, step_s, guess, draws, n, &g);
	if (!(g > 0)) {   /* no interval gets any work done: no advice */
		r->best_every = 0;
		r->best_goodput = 0;
		return;
	}
	r->best_every = (int)lround(fmin(e, FAIL_MAX_EVERY));
	r->best_goodput = goodput_every(*m, step_s, r->best_every, draws, n);
	/* spread: the same search on independent batches of the draws */
	double eb[FAIL_BATCHES];
	long per = n / FAIL_BATCHES;
	for (int b = 0; b < FAIL_BATCHES; b++)
		eb[b] = best_every(m, step_s, guess, draws + b * per, per, &g);
	qsort(eb, FAIL_BATCHES, sizeof eb[0], cmp_double);
	/* the full sample's argmax varies about 1/sqrt(batches) as much as one
	 * batch's: scale the interquartile-ish range of the batches down */
	double lo = eb[1], hi = eb[FAIL_BATCHES - 2];
	double k = 1.0 / sqrt((double)FAIL_BATCHES);
	r->best_every_lo = e * pow(lo / e, k);
	r->best_every_hi = e * pow(hi / e, k);
	if (r->best_every_lo > e)
		r->best_every_lo = e;
	if (r->best_every_hi < e)
		r->best_every_hi = e;
}

static void fill_rates(const scenario *s, fdraw *d, store_fail_result *r)
{
	const scn_failures *f = &s->training.failures;
	const scn_cluster *c = &s->cluster;
	double links = (double)c->nodes * (c->nic.count > 0 ? c->nic.count : 1);
	double rg = f->gpu_mtbf_s > 0 ? scn_gpus(s) / f->gpu_mtbf_s : 0;
	double rn = f->node_mtbf_s > 0 ? c->nodes / f->node_mtbf_s : 0;
	double rl = f->link_mtbf_s > 0 ? links / f->link_mtbf_s : 0;
	d->mean_gpu = rg > 0 ? 1 / rg : 0;
	d->mean_node = rn > 0 ? 1 / rn : 0;
	d->mean_link = rl > 0 ? 1 / rl : 0;
	r->rate_per_s = rg + rn + rl;
	r->job_mtbf_s = r->rate_per_s > 0 ? 1 / r->rate_per_s : 0;
}

int store_failures(const scenario *s, double step_time_s, const step_checkpoint *ck,
                   const store_fail_opts *o, store_fail_result *r)
{
	static const store_fail_opts none = { 0 };
	if (!o)
		o = &none;
	memset(r, 0, sizeof *r);
	if (step_time_s <= 0)
		return -1;
	fdraw d = { 0 };
	fill_rates(s, &d, r);
	/* The tier restarts restore from: the node-local one when another node
	 * holds a copy of the failed node's (its own drive leaves with it) and it
	 * is written more often than the storage one, else the storage one; the
	 * other tier's stalls are spread over the work. */
	int pers = ck && ck->every > 0 ? ck->every : 0;
	int loc = ck && ck->local_every > 0 ? ck->local_every : 0;
	/* the newer checkpoint of the two tiers: the more frequent one (a
	 * local tier only where a copy survives the replaced node) */
	bool local = loc > 0 && ck->local_copies >= 2 && (pers == 0 || loc < pers);
	int every = local ? loc : pers;
	double stall = every == 0 ? 0 : local ? ck->local_stall_s : ck->stall_s;
	double write = every == 0 ? 0 : local ? ck->local_write_s : ck->write_s;
	double load = every == 0 ? 0 : local ? ck->local_load_s : ck->load_s;
	double extra = local ? (pers > 0 ? ck->stall_s / (pers * step_time_s) : 0)
	                     : (loc > 0 ? ck->local_stall_s / (loc * step_time_s) : 0);
	r->local_recovers = local;
	fmodel m = {
		.tau = every > 0 ? every * step_time_s : INFINITY,
		.delta = every > 0 ? stall + extra * every * step_time_s : 0,
		.lag = every > 0 ? fmax(0.0, write - stall) : 0,
		.restart = s->training.failures.restart_s +
		           (every > 0 && s->training.failures.reload ? load : 0),
		.ck = every > 0 ? (local ? o->local : o->ckpt) : NULL,
		.async = o->ckpt_async,
		.write = write,
		.extra_rate = extra,
	};
	bool bg = m.ck && m.async && !m.ck->async_fallback;
	if (bg) {
		m.lag = async_lag(&m);
		m.knee = (m.ck->write_s - m.ck->snapshot_s) / step_time_s;
	}
	r->interval_s = every > 0 ? m.tau : 0;
	r->delta_s = m.delta;
	r->restart_s = m.restart;
	r->reload_s = m.restart - s->training.failures.restart_s;
	double tokens_per_step = scn_tokens_per_step(s);
	double work = s->run.train_tokens > 0 && tokens_per_step > 0
	              ? ceil(s->run.train_tokens / tokens_per_step) * step_time_s : 0;
	if (r->rate_per_s <= 0) {   /* no failures: only the checkpoint stalls */
		r->goodput = every > 0 ? m.tau / (m.tau + m.delta) : 1 / (1 + extra);
		r->ckpt_frac = 1 - r->goodput;
		if (work > 0)
			r->time_to_train_s = work / r->goodput;
		return 0;
	}
	uint64_t seed = o->seed ? o->seed : s->run.seed;
	d.rng = gsl_rng_alloc(gsl_rng_mt19937);
	long n = FAIL_RENEWAL_DRAWS;
	double *draws = malloc(sizeof(double) * (size_t)n);
	if (!d.rng || !draws) {
		free(draws);
		if (d.rng)
			gsl_rng_free(d.rng);
		return -1;
	}
	gsl_rng_set(d.rng, (unsigned long)sim_seed_mix(seed, 0x6661696cULL));
	for (long i = 0; i < n; i++)
		draws[i] = draw_next(&d);
	long drawn = d.n_gpu + d.n_node + d.n_link;
	r->share_gpu = (double)d.n_gpu / drawn;
	r->share_node = (double)d.n_node / drawn;
	r->share_link = (double)d.n_link / drawn;

	/* long-run goodput and its spread over batches of the draws */
	facc a;
	run_model(&m, INFINITY, draws, n, &a);
	r->goodput = goodput_of(&a);
	r->ckpt_frac = a.ckpt / a.wall;
	r->restart_frac = a.restart / a.wall;
	r->lost_work_frac = fmax(0.0, 1 - r->goodput - r->ckpt_frac - r->restart_frac);
	double sum = 0, sum2 = 0;
	long per = n / FAIL_BATCHES;
	for (int b = 0; b < FAIL_BATCHES; b++) {
		facc ab;
		run_model(&m, INFINITY, draws + b * per, per, &ab);
		double g = goodput_of(&ab);
		sum += g;
		sum2 += g * g;
	}
	double mean = sum / FAIL_BATCHES;
	double var = fmax(0.0, (sum2 - FAIL_BATCHES * mean * mean) / (FAIL_BATCHES - 1));
	r->goodput_ci = 1.96 * sqrt(var / FAIL_BATCHES);

	if (m.delta > 0) {
		/* async: Young and Daly from the stall of intervals the write does
		 * not outlast, not of the scenario's interval */
		double dl = bg ? store_ckpt_stall(m.ck, true, 1 << 30, step_time_s) : stall;
		r->young_s = store_young_s(dl, r->job_mtbf_s);
		r->daly_s = store_daly_s(dl, r->job_mtbf_s);
		r->young_every = r->young_s / step_time_s;
		r->daly_every = r->daly_s / step_time_s;
		if (o->search_best) {
			/* an async stall grows below the interval a background write
			 * takes (the knee): anchor the search on the stall of long
			 * intervals and keep the knee inside its range */
			double guess = bg ? fmax(r->daly_every, m.knee) : r->daly_every;
			search_best(&m, step_time_s, guess, draws, n, r);
			r->best_is_local = local;
		}
	}

	/* runs to the training goal, each with its own draws */
	if (work > 0) {
		int reps = o->reps > 0 ? o->reps : FAIL_REPS;
		double total = 0, fails = 0;
		/* draws a run may need: wall / MTBF with margin */
		double expect = work / (fmax(r->goodput, 0.01) * r->job_mtbf_s) * 2 + 1000;
		long cap = (long)fmin((double)FAIL_MAX_DRAWS, expect);
		double *buf = realloc(draws, sizeof(double) * (size_t)cap);
		if (!buf) {
			free(draws);
			gsl_rng_free(d.rng);
			return -1;
		}
		draws = buf;
		bool finished = true;
		double restart = 0, g1 = 0, g2 = 0;
		/* with no tier to restore from, the other tier's stalls (node-local
		 * checkpoints kept on one node only) lengthen the work itself */
		double wwork = every == 0 ? work * (1 + extra) : work;
		for (int k = 0; k < reps && finished; k++) {
			gsl_rng_set(d.rng, (unsigned long)sim_seed_mix(seed, 0x74726e00ULL + k));
			for (long i = 0; i < cap; i++)
				draws[i] = draw_next(&d);
			run_model(&m, wwork, draws, cap, &a);
			finished = a.useful >= wwork * (1 - 1e-12);
			total += a.wall;
			fails += a.fails;
			restart += a.restart;
			g1 += work / a.wall;
			g2 += (work / a.wall) * (work / a.wall);
		}
		r->time_to_train_s = finished ? total / reps : 0;
		r->failures_to_train = finished ? fails / reps : 0;
		/* without checkpoints the long run saves nothing (goodput 0): a job
		 * of finite length is the figure that means something */
		if (every == 0 && finished && r->time_to_train_s > 0) {
			r->goodput = work / r->time_to_train_s;
			r->restart_frac = restart / total;
			r->ckpt_frac = (wwork - work) / r->time_to_train_s;
			r->lost_work_frac = fmax(0.0, 1 - r->goodput - r->restart_frac - r->ckpt_frac);
			double gm = g1 / reps, gv = fmax(0.0, (g2 - reps * gm * gm) / (reps - 1));
			r->goodput_ci = reps > 1 ? 1.96 * sqrt(gv / reps) : 0;
		}
	}
	free(draws);
	gsl_rng_free(d.rng);
	return 0;
}
