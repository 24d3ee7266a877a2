/* plan.c: rank placement (TP innermost, then PP or DP) and the split of the
 * model's layers over pipeline stages and virtual chunks. */
#include <stdio.h>
#include <stdlib.h>
#include "plan.h"

void plan_split_layers(int layers, int parts, int *counts)
{
	int base = layers / parts, extra = layers % parts;
	int n_short = extra ? parts - extra : 0;
	for (int i = 0; i < parts; i++)
		counts[i] = base + (extra ? 1 : 0);
	/* take the short parts from the ends inward: 0, parts-1, 1, parts-2, ... */
	for (int k = 0; k < n_short; k++) {
		int i = (k % 2 == 0) ? k / 2 : parts - 1 - k / 2;
		counts[i] = base;
	}
}

static int model_layers(const scenario *s)
{
	return s->model.custom ? s->model.nlayers_custom : s->model.layers;
}

static int check_layout(plan *p, const scenario *s, char *err, size_t errlen)
{
	int gpus = scn_gpus(s);
	const scn_training *t = &s->training;
	if (t->tp < 1 || t->pp < 1 || t->dp < 0) {
		snprintf(err, errlen, "training.tp and training.pp must be >= 1 and dp >= 0 "
			 "(got tp=%d pp=%d dp=%d)", t->tp, t->pp, t->dp);
		return -1;
	}
	int cp = scn_cp(s);
	if (gpus % (t->tp * cp * t->pp) != 0) {
		snprintf(err, errlen, "tp x cp x pp = %d x %d x %d does not divide the %d GPUs of "
			 "the cluster", t->tp, cp, t->pp, gpus);
		return -1;
	}
	p->cp = cp;
	p->dp = t->dp ? t->dp : gpus / (t->tp * cp * t->pp);
	if ((long)t->tp * cp * t->pp * p->dp != gpus) {
		snprintf(err, errlen, "tp x cp x pp x dp = %d x %d x %d x %d = %ld, but the cluster "
			 "has %d GPUs", t->tp, cp, t->pp, p->dp, (long)t->tp * cp * t->pp * p->dp, gpus);
		return -1;
	}
	return 0;
}

int plan_init(plan *p, const scenario *s, char *err, size_t errlen)
{
	*p = (plan){0};
	if (check_layout(p, s, err, errlen) < 0)
		return -1;
	p->tp = s->training.tp;
	p->pp = s->training.pp;
	p->gpus = scn_gpus(s);
	p->order = s->training.placement;
	/* interleaving needs more than one stage; other schedules have one chunk */
	p->v = (s->training.schedule == SCHED_INTERLEAVED && p->pp > 1 &&
		s->training.virtual_stages > 1) ? s->training.virtual_stages : 1;
	p->layers = model_layers(s);
	p->nchunks = p->pp * p->v;
	if (p->layers < p->nchunks) {
		snprintf(err, errlen, "every pipeline chunk needs a layer: %d layers < pp x "
			 "virtual_stages = %d x %d", p->layers, p->pp, p->v);
		return -1;
	}
	p->chunk_first = malloc(sizeof(int) * (size_t)p->nchunks);
	p->chunk_layers = malloc(sizeof(int) * (size_t)p->nchunks);
	if (!p->chunk_first || !p->chunk_layers) {
		plan_release(p);
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	plan_split_layers(p->layers, p->nchunks, p->chunk_layers);
	for (int c = 0, first = 0; c < p->nchunks; c++) {
		p->chunk_first[c] = first;
		first += p->chunk_layers[c];
	}
	return 0;
}

void plan_release(plan *p)
{
	free(p->chunk_first);
	free(p->chunk_layers);
	p->chunk_first = p->chunk_layers = NULL;
}

int plan_gpu_cp(const plan *p, int t, int c, int st, int d)
{
	int inner = t + p->tp * c, group = p->tp * (p->cp > 1 ? p->cp : 1);
	if (p->order == PLACE_TP_DP_PP)
		return inner + group * (d + p->dp * st);
	return inner + group * (st + p->pp * d);
}

int plan_gpu(const plan *p, int t, int st, int d)
{
	return plan_gpu_cp(p, t, 0, st, d);
}

void plan_coords_cp(const plan *p, int gpu, int *t, int *c, int *st, int *d)
{
	int cp = p->cp > 1 ? p->cp : 1;
	*t = gpu % p->tp;
	if (c)
		*c = gpu / p->tp % cp;
	int rest = gpu / (p->tp * cp);
	if (p->order == PLACE_TP_DP_PP) {
		*d = rest % p->dp;
		*st = rest / p->dp;
	} else {
		*st = rest % p->pp;
		*d = rest / p->pp;
	}
}

void plan_coords(const plan *p, int gpu, int *t, int *st, int *d)
{
	plan_coords_cp(p, gpu, t, NULL, st, d);
}

int plan_grad_gpu(const plan *p, int st, int j)
{
	int cp = p->cp > 1 ? p->cp : 1;
	return plan_gpu_cp(p, 0, j % cp, st, j / cp);
}

int plan_ep_gpu(const plan *p, int st, int j, bool over_tp)
{
	int t = 0, cp = p->cp > 1 ? p->cp : 1;
	if (over_tp) {
		t = j % p->tp;
		j /= p->tp;
	}
	return plan_gpu_cp(p, t, j % cp, st, j / cp);
}
