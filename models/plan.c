/* plan.c: rank placement (TP innermost, then PP or DP) and the split of the
 * model's layers over pipeline stages and virtual chunks. */
#include <stdio.h>
#include <stdlib.h>
#include "plan.h"

/* Part i of `layers` spread over `parts` by plan_split_layers' rule, without
 * the array: floor(layers/parts), one more unless i is among the short parts
 * counted from the ends inward (0, parts-1, 1, parts-2, ...). */
static int even_part(int layers, int parts, int i)
{
	int base = layers / parts, extra = layers % parts;
	if (extra == 0)
		return base;
	int order = i < parts - 1 - i ? 2 * i : 2 * (parts - 1 - i) + 1;
	return order < parts - extra ? base : base + 1;
}

void plan_split_layers(int layers, int parts, int *counts)
{
	for (int i = 0; i < parts; i++)
		counts[i] = even_part(layers, parts, i);
}

/* The layers pipeline stage st holds when the first or last stage's count is
 * given: those, and the rest spread over the middle stages (ends inward). */
static int stage_layers_given(const scn_training *t, int layers, int pp, int st)
{
	int f = t->first_stage_layers, l = t->last_stage_layers;
	if (st == 0 && f > 0)
		return f;
	if (st == pp - 1 && l > 0)
		return l;
	int lo = f > 0 ? 1 : 0, mid = pp - lo - (l > 0 ? 1 : 0);
	return even_part(layers - f - l, mid, st - lo);
}

int plan_chunk_layer_count(const scn_training *t, int layers, int pp, int v, int c)
{
	int chunks = pp * v;
	if (t->first_stage_layers > 0 || t->last_stage_layers > 0) {
		/* a stage's layers over its v chunks, the earlier chunks first */
		int n = stage_layers_given(t, layers, pp, c % pp), k = c / pp;
		return n / v + (k < n % v ? 1 : 0);
	}
	int e = t->embedding_in_split ? 1 : 0, l = t->loss_in_split ? 1 : 0;
	if (e + l == 0 || chunks < 2)
		return even_part(layers, chunks, c);
	/* the embedding and the loss each take a layer's place in the first
	 * and the last chunk (Megatron's --account-for-{embedding,loss}-in-
	 * pipeline-split: num_layers + 1 (+ 1) split evenly) */
	int per = (layers + e + l) / chunks;
	return per - (c == 0 ? e : 0) - (c == chunks - 1 ? l : 0);
}

int plan_split_check(const scn_training *t, int layers, int pp, int v, char *err, size_t n)
{
	int chunks = pp * v, e = t->embedding_in_split, l = t->loss_in_split;
	int f = t->first_stage_layers, la = t->last_stage_layers;
	if ((f > 0 || la > 0) && (e || l)) {
		snprintf(err, n, "first_stage_layers or last_stage_layers sets the split itself; "
		         "embedding_in_split and loss_in_split cannot be combined with it (as in "
		         "Megatron): use one way");
		return -1;
	}
	if ((f > 0 || la > 0) && pp < 2) {
		snprintf(err, n, "first_stage_layers and last_stage_layers need pp >= 2");
		return -1;
	}
	if (f > 0 || la > 0) {
		int mid = pp - (f > 0) - (la > 0);
		if (f + la > layers) {
			snprintf(err, n, "first_stage_layers + last_stage_layers = %d exceed the model's "
			         "%d layers", f + la, layers);
			return -1;
		}
		if (mid == 0 && f + la != layers) {
			snprintf(err, n, "with pp %d the first and last stage hold every layer: "
			         "first_stage_layers + last_stage_layers must be %d, not %d", pp, layers,
			         f + la);
			return -1;
		}
		if (mid > 0 && layers - f - la < mid * v) {
			snprintf(err, n, "%s leave%s %d of the %d layers for the other %d stage%s x %d "
			         "chunk%s; each chunk needs a layer", f > 0 && la > 0 ?
			         "first_stage_layers + last_stage_layers" : f > 0 ? "first_stage_layers"
			         : "last_stage_layers", f > 0 && la > 0 ? "" : "s", layers - f - la,
			         layers, mid, mid == 1 ? "" : "s", v, v == 1 ? "" : "s");
			return -1;
		}
		if ((f > 0 && f < v) || (la > 0 && la < v)) {
			snprintf(err, n, "a first or last stage of %d layer%s cannot fill its %d "
			         "virtual chunks; give it at least %d", f > 0 && f < v ? f : la,
			         (f > 0 && f < v ? f : la) == 1 ? "" : "s", v, v);
			return -1;
		}
		return 0;
	}
	if ((e || l) && chunks >= 2) {
		if ((layers + e + l) % chunks) {
			snprintf(err, n, "layers + %s = %d do not split evenly into pp x virtual_stages "
			         "= %d chunks, as Megatron requires when the embedding or loss counts "
			         "as a layer; choose pp and virtual_stages whose product divides %d",
			         e && l ? "the embedding and the loss" : e ? "the embedding" : "the loss",
			         layers + e + l, chunks, layers + e + l);
			return -1;
		}
		return 0;   /* layers + e + l >= chunks: a place or more a chunk */
	}
	if (layers < chunks) {
		snprintf(err, n, "every pipeline chunk needs a layer: %d layers < pp x "
			 "virtual_stages = %d x %d", layers, pp, v);
		return -1;
	}
	return 0;
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
	if (plan_split_check(&s->training, p->layers, p->pp, p->v, err, errlen) < 0)
		return -1;
	p->chunk_first = malloc(sizeof(int) * (size_t)p->nchunks);
	p->chunk_layers = malloc(sizeof(int) * (size_t)p->nchunks);
	if (!p->chunk_first || !p->chunk_layers) {
		plan_release(p);
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	for (int c = 0, first = 0; c < p->nchunks; c++) {
		p->chunk_layers[c] = plan_chunk_layer_count(&s->training, p->layers, p->pp, p->v, c);
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
