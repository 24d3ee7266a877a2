/* step_var.c: compute jitter and stragglers. Each compute task of a stage is
 * stretched by a lognormal factor of mean 1 and the scenario's CV; since the
 * stage's TP group synchronizes after every piece, the factor is the maximum
 * over its tp ranks, drawn exactly by inverting the CDF of the maximum.
 * Replicas other than the simulated one are not simulated: the DP reduction
 * of a stage waits for the slowest of them, whose lateness is drawn from the
 * normal approximation (CLT) of their accumulated jitter plus persistent
 * stragglers (cost-models.md 9). Link noise (run.variability.link_cv) is the
 * flow network's (flow_set_noise), fed from a stream of the step. See
 * docs/step.md. */
#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_math.h>
#include "step_int.h"

/* Standard normal maximum of n draws from one uniform: Phi^-1(u^(1/n)). */
static double max_normal(gsl_rng *g, int n)
{
	double u = gsl_rng_uniform_pos(g);
	return gsl_cdf_ugaussian_Qinv(-expm1(log(u) / n));
}

/* Mean and variance of exp(mu + sigma Z), Z the maximum of n standard
 * normals, by the trapezoid rule on the density n phi(z) Phi(z)^(n-1). */
static void max_lognormal_moments(double mu, double sigma, int n, double *mean, double *var)
{
	const int N = 4000;
	const double lo = -9.0, hi = 9.0, h = (hi - lo) / N;
	double m1 = 0, m2 = 0;
	for (int i = 0; i <= N; i++) {
		double z = lo + i * h, w = (i == 0 || i == N) ? 0.5 : 1.0;
		double dens = n * gsl_ran_ugaussian_pdf(z) * pow(gsl_cdf_ugaussian_P(z), n - 1);
		double x = exp(mu + sigma * z);
		m1 += w * h * dens * x;
		m2 += w * h * dens * x * x;
	}
	*mean = m1;
	*var = fmax(0.0, m2 - m1 * m1);
}

/* GSL streams of the step: its own namespace (ASCII "STP" in the top bits),
 * so that other models drawing per GPU get independent generators. */
#define STP_RNG(id) ((0x535450ULL << 40) | (uint64_t)(id))
/* The flows' bandwidth noise: the stream after the other replicas'. */
#define STP_RNG_LINKS(gpus) STP_RNG((uint64_t)(gpus) + 1)

int stp_var_init(stp_run *r)
{
	const scn_variability *v = &r->s->run.variability;
	/* link noise: every flow of the step (TP, PP, DP, data reads) draws its
	 * bandwidth factor from one stream of its own */
	if (v->link_cv > 0 &&
	    flow_set_noise(r->net, v->link_cv, sim_rng(r->sim, STP_RNG_LINKS(r->pl.gpus))) < 0)
		return -2;
	double cv = v->compute_cv > 0 ? v->compute_cv : 0;
	double f = v->straggler_fraction > 0 ? fmin(v->straggler_fraction, 1.0) : 0;
	int exact = v->straggler_gpus > 0 ? v->straggler_gpus : 0;   /* not drawn */
	r->v_slowdown = v->straggler_slowdown > 1 ? v->straggler_slowdown : 1;
	r->var_on = cv > 0 || ((f > 0 || exact > 0) && r->v_slowdown > 1);
	if (!r->var_on)
		return 0;
	r->v_sigma = sqrt(log1p(cv * cv));
	r->v_mu = -0.5 * r->v_sigma * r->v_sigma;
	if (cv > 0)
		max_lognormal_moments(r->v_mu, r->v_sigma, r->tp, &r->v_ex, &r->v_var);
	else
		r->v_ex = 1, r->v_var = 0;
	/* persistent stragglers: a stage is slow if any of its tp GPUs is; another
	 * replica is slow if any of its tp*pp GPUs is */
	double p_stage = 1 - pow(1 - f, r->tp), p_rep = 1 - pow(1 - f, (double)r->tp * r->pp);
	r->rep_slow = false;
	for (int i = 0; i < r->pp; i++) {
		stp_stage *st = &r->st[i];
		st->rng = sim_rng(r->sim, STP_RNG(st->gpu));
		if (!st->rng)
			return -2;
		st->slow = f > 0 && gsl_rng_uniform(st->rng) < p_stage;
		r->rep_slow |= st->slow;
	}
	gsl_rng *g = sim_rng(r->sim, STP_RNG(r->pl.gpus));   /* the other replicas */
	if (!g)
		return -2;
	r->n_slow = (f > 0 && r->dp > 1) ? (int)gsl_ran_binomial(g, p_rep, (unsigned)(r->dp - 1)) : 0;
	if (exact > 0) {
		/* exactly `exact` slow GPUs: one in each other replica first (the
		 * simulated one waits for the slowest alike), then the simulated
		 * replica's, one a stage from the first (a stage is slow if any of
		 * its tp GPUs is) */
		r->n_slow = exact < r->dp - 1 ? exact : r->dp - 1;
		int own = exact - r->n_slow;
		for (int i = 0; i < r->pp && i < own; i++)
			r->st[i].slow = true;
		r->rep_slow = own > 0;
	}
	r->n_fast = r->dp - 1 - r->n_slow;
	return 0;
}

void stp_var_step_begin(stp_run *r, stp_stage *st)
{
	st->dev = st->var = 0;
	if (!r->var_on)
		return;
	st->zfast = r->n_fast > 0 ? max_normal(st->rng, r->n_fast) : 0;
	st->zslow = r->n_slow > 0 ? max_normal(st->rng, r->n_slow) : 0;
}

double stp_var_compute(stp_run *r, stp_stage *st, double nominal_s)
{
	if (!r->var_on || nominal_s <= 0)
		return nominal_s;
	double base = nominal_s * (st->slow ? r->v_slowdown : 1.0);
	if (r->v_sigma <= 0)
		return base;
	double z = max_normal(st->rng, r->tp);
	double x = exp(r->v_mu + r->v_sigma * z);
	st->dev += base * (x - r->v_ex);
	st->var += base * base * r->v_var;
	return base * x;
}

/* How much later than the simulated replica the slowest other replica has
 * this stage's gradients ready, now: their accumulated jitter is normal with
 * the variance accumulated here (CLT over the step's tasks), its maximum over
 * the other replicas drawn once per step (zfast, zslow); a replica holding a
 * straggler runs its whole pipeline slowdown times slower. The simulated
 * replica's own realized deviation is subtracted, since it is already in the
 * simulated times. */
double stp_var_lateness(const stp_run *r, const stp_stage *st)
{
	if (!r->var_on || r->dp <= 1)
		return 0;
	double sd = sqrt(st->var), late = 0;
	/* The slow replica reaches this point after s x the work W the simulated
	 * one has done this step (the step so far less its waits on its DP
	 * stream), or after W plus those waits if they were longer than its extra
	 * work (a gather it too must wait for): late by max(0, (s-1) W - waits).
	 * Measured against now, which already holds the waits: with a reduction
	 * per micro-batch (ZeRO-3's gathers queue behind them) each lateness
	 * would otherwise come back as a wait and add to the next. */
	double now = sim_now(r->sim);
	double waits = stp_dp_waited(st, now) - st->step_wait0;
	double work = now - st->step_t0 - waits;
	double s_rep = r->rep_slow ? r->v_slowdown : 1.0;
	if (r->n_fast > 0)
		late = fmax(late, st->zfast * sd - st->dev);
	if (r->n_slow > 0)
		late = fmax(late, fmax(0, work * (r->v_slowdown / s_rep - 1) - waits) +
		                  st->zslow * sd - st->dev);
	return late;
}
