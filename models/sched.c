/* sched.c: GPipe, 1F1B and interleaved 1F1B (Megatron-LM's ordering) as
 * per-stage op lists, registered in one table, and a network-free replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedule.h"

typedef void (*sched_fill_fn)(const sched *s, int st, sched_op *ops);

static void put(sched_op *op, int kind, int chunk, int mb)
{
	op->kind = (uint8_t)kind;
	op->chunk = (uint8_t)chunk;
	op->pad = 0;
	op->mb = mb;
}

/* GPipe: all forwards, then all backwards in the reverse order autograd runs them. */
static void fill_gpipe(const sched *s, int st, sched_op *ops)
{
	int n = 0;
	for (int mb = 0; mb < s->m; mb++)
		put(&ops[n++], SCHED_F, 0, mb);
	for (int mb = s->m - 1; mb >= 0; mb--)
		put(&ops[n++], SCHED_B, 0, mb);
}

/* 1F1B (PipeDream-Flush, Megatron's non-interleaved schedule): stage st runs
 * pp-st-1 warm-up forwards, then alternates one forward and one backward,
 * then drains the remaining backwards. */
static void fill_1f1b(const sched *s, int st, sched_op *ops)
{
	int warm = s->pp - st - 1;
	if (warm > s->m)
		warm = s->m;
	int n = 0, f = 0, b = 0;
	for (; f < warm; f++)
		put(&ops[n++], SCHED_F, 0, f);
	for (; f < s->m; f++, b++) {
		put(&ops[n++], SCHED_F, 0, f);
		put(&ops[n++], SCHED_B, 0, b);
	}
	for (; b < s->m; b++)
		put(&ops[n++], SCHED_B, 0, b);
}

/* The k-th forward (or backward) of an interleaved stage: micro-batches go in
 * groups of pp; within a group every chunk runs over the group's
 * micro-batches before the next chunk (Megatron's get_model_chunk_id); the
 * backward visits the chunks in reverse. A last group shorter than pp (m not
 * a multiple of pp) keeps the same pattern. */
static void interleaved_kth(const sched *s, int k, bool backward, int *chunk, int *mb)
{
	int full = (s->m / s->pp) * s->pp * s->v;   /* ops in complete groups */
	int gsize, base, in;
	if (k < full) {
		gsize = s->pp;
		base = (k / (s->pp * s->v)) * s->pp;
		in = k % (s->pp * s->v);
	} else {
		gsize = s->m % s->pp;
		base = (s->m / s->pp) * s->pp;
		in = k - full;
	}
	int c = in / gsize;
	*chunk = backward ? s->v - 1 - c : c;
	*mb = base + in % gsize;
}

static void fill_interleaved(const sched *s, int st, sched_op *ops)
{
	int total = s->m * s->v;
	int warm;
	if (s->m == s->pp)
		warm = total;   /* Megatron: all warm-up when m equals pp */
	else
		warm = (s->pp - st - 1) * 2 + (s->v - 1) * s->pp;
	warm += s->warm_extra;
	if (warm > total)
		warm = total;
	int n = 0, f = 0, b = 0, c, mb;
	for (; f < warm; f++) {
		interleaved_kth(s, f, false, &c, &mb);
		put(&ops[n++], SCHED_F, c, mb);
	}
	for (; f < total; f++, b++) {
		interleaved_kth(s, f, false, &c, &mb);
		put(&ops[n++], SCHED_F, c, mb);
		interleaved_kth(s, b, true, &c, &mb);
		put(&ops[n++], SCHED_B, c, mb);
	}
	for (; b < total; b++) {
		interleaved_kth(s, b, true, &c, &mb);
		put(&ops[n++], SCHED_B, c, mb);
	}
}

static const struct sched_def {
	scn_schedule kind;
	const char *name;
	sched_fill_fn fill;
} sched_table[] = {
	{SCHED_GPIPE, "gpipe", fill_gpipe},
	{SCHED_1F1B, "1f1b", fill_1f1b},
	{SCHED_INTERLEAVED, "interleaved", fill_interleaved},
};

static const struct sched_def *sched_find(scn_schedule kind)
{
	for (size_t i = 0; i < sizeof sched_table / sizeof sched_table[0]; i++)
		if (sched_table[i].kind == kind)
			return &sched_table[i];
	return NULL;
}

const char *sched_name(scn_schedule kind)
{
	const struct sched_def *d = sched_find(kind);
	return d ? d->name : "?";
}

/* Limits of the op encoding (chunk in 8 bits) and of memory (2*m*v*pp ops). */
#define SCHED_MAX_V 255
#define SCHED_MAX_OPS 100000000LL

int sched_build(sched *out, scn_schedule kind, int pp, int m, int v, char *err, size_t errlen)
{
	*out = (sched){0};
	if (kind == SCHED_INTERLEAVED && (v <= 1 || pp <= 1))
		kind = SCHED_1F1B;
	if (kind != SCHED_INTERLEAVED)
		v = 1;
	const struct sched_def *d = sched_find(kind);
	if (!d || pp < 1 || m < 1 || v < 1 || v > SCHED_MAX_V) {
		snprintf(err, errlen, "pipeline schedule: need pp >= 1, micro-batches >= 1 and "
			 "1 <= virtual_stages <= %d (got pp=%d m=%d v=%d)", SCHED_MAX_V, pp, m, v);
		return -1;
	}
	if (2LL * m * v * pp > SCHED_MAX_OPS) {
		snprintf(err, errlen, "pipeline schedule of %lld operations (2 x %d micro-batches x "
			 "%d chunks x %d stages) is above the limit of %lld", 2LL * m * v * pp, m, v,
			 pp, SCHED_MAX_OPS);
		return -1;
	}
	out->kind = kind;
	out->pp = pp;
	out->m = m;
	out->v = v;
	out->ops_per_stage = 2 * m * v;
	out->ops = malloc(sizeof(sched_op) * (size_t)out->ops_per_stage * (size_t)pp);
	if (!out->ops) {
		snprintf(err, errlen, "out of memory for the pipeline schedule");
		return -2;
	}
	for (int st = 0; st < pp; st++)
		d->fill(out, st, out->ops + (size_t)st * (size_t)out->ops_per_stage);
	/* Interleaving with m not a multiple of pp: Megatron's warm-up can
	 * deadlock on the short last group; warm up more (pp, 2pp, ... more
	 * forwards, at last all of them, which cannot deadlock) until it does not. */
	double mk;
	while (kind == SCHED_INTERLEAVED && m % pp != 0 && out->warm_extra < 2 * m * v &&
	       sched_replay(out, 1.0, 2.0, &mk) < 0) {
		out->warm_extra = out->warm_extra ? 2 * out->warm_extra : pp;
		for (int st = 0; st < pp; st++)
			d->fill(out, st, out->ops + (size_t)st * (size_t)out->ops_per_stage);
	}
	return 0;
}

void sched_release(sched *s)
{
	free(s->ops);
	s->ops = NULL;
}

/* Completion times of every (chunk, micro-batch) forward and backward, in
 * global chunk order; a stage advances while its next op's input is known. */
int sched_replay(const sched *s, double t_f, double t_b, double *makespan_s)
{
	int G = s->pp * s->v, m = s->m;
	size_t n = (size_t)G * (size_t)m;
	double *fdone = malloc(sizeof(double) * n), *bdone = malloc(sizeof(double) * n);
	int *pos = calloc((size_t)s->pp, sizeof(int));
	double *free_at = calloc((size_t)s->pp, sizeof(double));
	int rc = -1;
	if (!fdone || !bdone || !pos || !free_at)
		goto out_free;
	for (size_t i = 0; i < n; i++)
		fdone[i] = bdone[i] = -1.0;
	int remaining = s->pp;
	bool progress = true;
	while (remaining > 0 && progress) {
		progress = false;
		remaining = 0;
		for (int st = 0; st < s->pp; st++) {
			const sched_op *ops = sched_stage_ops(s, st);
			while (pos[st] < s->ops_per_stage) {
				const sched_op *op = &ops[pos[st]];
				int gc = op->chunk * s->pp + st;
				double ready;
				if (op->kind == SCHED_F)
					ready = gc == 0 ? 0.0 : fdone[(size_t)(gc - 1) * m + op->mb];
				else
					ready = gc == G - 1 ? fdone[(size_t)gc * m + op->mb]
							    : bdone[(size_t)(gc + 1) * m + op->mb];
				if (ready < 0)
					break;
				double t0 = ready > free_at[st] ? ready : free_at[st];
				free_at[st] = t0 + (op->kind == SCHED_F ? t_f : t_b);
				(op->kind == SCHED_F ? fdone : bdone)[(size_t)gc * m + op->mb] = free_at[st];
				pos[st]++;
				progress = true;
			}
			if (pos[st] < s->ops_per_stage)
				remaining++;
		}
	}
	if (remaining == 0) {
		double mk = 0;
		for (int st = 0; st < s->pp; st++)
			if (free_at[st] > mk)
				mk = free_at[st];
		*makespan_s = mk;
		rc = 0;
	}
out_free:
	free(fdone);
	free(bdone);
	free(pos);
	free(free_at);
	return rc;
}
