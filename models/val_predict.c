/* val_predict.c: the prediction of a validation case: a step simulated with
 * step_run (cached per layout, since a published run has several rows), one
 * layer timed from its workload costs and the TP collectives' isolated time,
 * or one kernel from the compute model. Conventions: docs/validation.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "step.h"
#include "validate.h"
#include "workload.h"

typedef struct cache_entry {
	scenario s;              /* name cleared: the key */
	double step_s;
	int rc;
	char err[200];
} cache_entry;

struct val_cache {
	cache_entry *v;
	size_t n, cap;
};

val_cache *val_cache_new(void)
{
	return calloc(1, sizeof(val_cache));
}

void val_cache_free(val_cache *c)
{
	if (!c)
		return;
	free(c->v);
	free(c);
}

/* Step time of scenario s (simulated once per distinct layout). */
static int step_time(const scenario *s, val_cache *cache, double *t, char *err, size_t n)
{
	scenario key = *s;
	memset(key.name, 0, sizeof key.name);
	memset(key.path, 0, sizeof key.path);
	if (cache)
		for (size_t i = 0; i < cache->n; i++)
			if (!memcmp(&cache->v[i].s, &key, sizeof key)) {
				*t = cache->v[i].step_s;
				snprintf(err, n, "%s", cache->v[i].err);
				return cache->v[i].rc;
			}
	step_opts o = {0};
	step_result r;
	memset(&r, 0, sizeof r);
	char e[200] = "";
	int rc = step_run(s, &o, &r, e, sizeof e);
	*t = rc == 0 ? r.step_time_s : 0;
	step_result_release(&r);
	if (rc == 0 && !(*t > 0)) {
		rc = -1;
		snprintf(e, sizeof e, "the step simulation returned no step time");
	}
	snprintf(err, n, "%s", e);
	if (cache) {
		if (cache->n == cache->cap) {
			size_t cap = cache->cap ? 2 * cache->cap : 32;
			cache_entry *nv = realloc(cache->v, cap * sizeof *nv);
			if (!nv)
				return rc;
			cache->v = nv;
			cache->cap = cap;
		}
		cache_entry *ce = &cache->v[cache->n++];
		ce->s = key;
		ce->step_s = *t;
		ce->rc = rc;
		snprintf(ce->err, sizeof ce->err, "%s", e);
	}
	return rc;
}

/* One TP collective of the layer, alone on the TP group's GPUs. */
static double tp_time(const scenario *s, coll_op op, double bytes, char *err, size_t n)
{
	int tp = s->training.tp;
	if (tp <= 1 || bytes <= 0)
		return 0;
	int ranks[64];
	for (int i = 0; i < tp && i < 64; i++)
		ranks[i] = i;
	coll_req req = {.op = op, .algo = ALGO_AUTO, .ranks = ranks, .n = tp < 64 ? tp : 64,
	                .bytes = bytes, .mult = 1};
	return coll_time_isolated(&s->cluster, &req, err, n);
}

/* One layer's forward and backward (recomputation included, as measured
 * by Korthikanti Table 4) with its TP collectives: blocking ones add,
 * async ones add what they last beyond the GEMM they overlap. */
static int layer_times(const scenario *s, double *fwd, double *bwd, char *err, size_t n)
{
	wl_layer_cost c;
	wl_layer_cost_get(s, 0, &c);
	double tf = tp_time(s, c.tp_coll_fwd, c.tp_bytes, err, n);
	double tb = tp_time(s, c.tp_coll_bwd, c.tp_bytes, err, n);
	if (tf < 0 || tb < 0)
		return -1;
	double hidden = tb - c.tp_async_window_s;
	*fwd = c.fwd_s + c.n_tp_fwd * tf;
	*bwd = c.recompute_s + c.n_tp_recompute * tf + c.bwd_s +
	       (c.n_tp_bwd - c.n_tp_bwd_async) * tb + c.n_tp_bwd_async * (hidden > 0 ? hidden : 0);
	return 0;
}

/* FLOPs one step counts in the publication's convention: its formula, and
 * the causal half of the attention scores only where it counts so. */
static double paper_flops(const val_case *c, bool hardware)
{
	const scenario *s = &c->s;
	double per = hardware ? wl_paper_hw_flops_per_seq(&s->model, s->training.recompute)
	                      : wl_paper_model_flops_per_seq(&s->model);
	if (hardware && s->training.recompute == RECOMPUTE_FULL && s->training.recompute_layers > 0 &&
	    s->model.layers > 0) {
		/* only some layers run their forward twice */
		double model = wl_paper_model_flops_per_seq(&s->model);
		per = model + (per - model) * wl_recomputed_layers(s) / s->model.layers;
	}
	if (!hardware && c->causal_count)
		per -= 0.5 * wl_attn_score_flops_per_seq(&s->model);
	return per * s->training.global_batch;
}

static int predict_step(const val_case *c, val_cache *cache, double *pred, char *err, size_t n)
{
	const scenario *s = &c->s;
	double t;
	if (step_time(s, cache, &t, err, n) < 0)
		return -1;
	double gpus = scn_gpus(s), peak = wl_peak_flops(s);
	if (c->peak_prec >= 0) {   /* "BF16 MFU" of an fp8 run: against bf16's peak */
		scenario at = *s;
		at.training.precision = (hw_precision)c->peak_prec;
		double p = wl_peak_flops(&at);
		if (p > 0)
			peak = p;
	}
	double hw = paper_flops(c, true) / (t * gpus);
	switch (c->metric) {
	case VM_HW_TFLOPS:
		*pred = hw;
		break;
	case VM_PCT_PEAK:
		*pred = 100 * hw / peak;
		break;
	case VM_AGG_PFLOPS:
		*pred = hw * gpus;
		break;
	case VM_MFU:
		*pred = 100 * paper_flops(c, false) / (t * gpus * peak);
		break;
	case VM_MODEL_TFLOPS:
		*pred = paper_flops(c, false) / (t * gpus);
		break;
	case VM_TOKENS:
		*pred = (double)s->training.global_batch * s->model.seq_len / t /
		        (c->per_gpu ? gpus : c->per_node ? s->cluster.nodes : 1);
		break;
	case VM_SAMPLES:
		*pred = s->training.global_batch / t /
		        (c->per_gpu ? gpus : c->per_node ? s->cluster.nodes : 1);
		break;
	case VM_HFU:
		*pred = 100 * hw / peak;
		break;
	case VM_SCALING_EFF: {
		double tb;
		if (!c->has_base) {
			snprintf(err, n, "no baseline row linked (val_link_baseline)");
			return -1;
		}
		if (step_time(&c->base, cache, &tb, err, n) < 0)
			return -1;
		*pred = 100 * (c->work / (t * gpus)) / (c->base_work / (tb * scn_gpus(&c->base)));
		break;
	}
	case VM_RECOMPUTE_GAIN: {
		scenario full = *s;
		full.training.recompute = RECOMPUTE_FULL;
		full.training.recompute_layers = 0;
		full.training.sequence_parallel = false;
		double tfull;
		if (step_time(&full, cache, &tfull, err, n) < 0)
			return -1;
		*pred = 100 * (tfull / t - 1);
		break;
	}
	default:
		*pred = t;
		break;
	}
	return 0;
}

/* What nccl-tests prints for one size: bus or algorithm bandwidth (B/s), or
 * the time (s), over all the case's GPUs. */
static int predict_coll_size(const val_case *c, val_metric m, double bytes, double *pred,
                             char *err, size_t n)
{
	const scn_cluster *k = &c->s.cluster;
	int ngpu = k->nodes * k->gpus_per_node;
	int *ranks = malloc((size_t)(ngpu > 2 ? ngpu : 2) * sizeof *ranks);
	if (!ranks) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (int i = 0; i < ngpu; i++)
		ranks[i] = i;
	coll_req req = {.op = (coll_op)c->coll_op, .algo = (coll_algo)c->coll_algo, .ranks = ranks,
	                .n = ngpu, .bytes = bytes, .mult = 1,
	                .proto = (coll_proto)c->coll_proto};
	if (req.op == COLL_SENDRECV) {
		/* point to point: GPU 0 to the first GPU of the next node (or GPU 1) */
		req.n = 2;
		ranks[1] = k->nodes > 1 ? k->gpus_per_node : 1;
	}
	double t = coll_nccl_tests_time(k, &req, c->gpus_per_thread, err, n);
	int nr = req.n;
	free(ranks);
	if (t <= 0)
		return -1;
	*pred = m == VM_COLL_TIME ? t : m == VM_COLL_ALGBW ? bytes / t
	      : bytes / t * coll_busbw_factor(req.op, nr);
	return 0;
}

static int predict_coll(const val_case *c, double *pred, char *err, size_t n)
{
	if (c->metric != VM_COLL_AVG_BUSBW)
		return predict_coll_size(c, c->metric, c->coll_bytes, pred, err, n);
	double sum = 0;
	int k = 0;
	for (double b = c->coll_bytes; b <= c->coll_bytes_hi * 1.0001 && k < 64; b *= 2, k++) {
		double v;
		if (predict_coll_size(c, VM_COLL_BUSBW, b, &v, err, n) < 0)
			return -1;
		sum += v;
	}
	*pred = sum / k;
	return 0;
}

int val_predict(const val_case *c, val_cache *cache, double *pred, char *err, size_t n)
{
	const hw_gpu *g = &c->s.cluster.gpu;
	hw_precision p = c->s.training.precision;
	double fwd, bwd;
	err[0] = 0;
	switch (c->metric) {
	case VM_GEMM:
		*pred = 2 * c->gemm_m * c->gemm_n * c->gemm_k /
		        wl_gemm_time(g, p, c->gemm_m, c->gemm_n, c->gemm_k);
		return 0;
	case VM_HBM_BW:
		*pred = 1e10 / wl_membound_time(g, 1e10);
		return 0;
	case VM_FLASH_FWD:
	case VM_FLASH_BWD: {
		/* FlashAttention's benchmark convention: 4 s^2 d per head forward,
		 * half of it causal, the backward 2.5x; one head of batch x heads
		 * (the count cancels in the rate). The kernel executes the causal
		 * half plus the diagonal blocks of 128, as wl_layer.c counts. The
		 * kernel runs batch x heads of them (32 unless the row says). */
		bool back = c->metric == VM_FLASH_BWD;
		double s = c->attn_seq, half = c->attn_causal ? 0.5 : 1;
		double fl = 4 * s * s * c->attn_hd * half * (back ? 2.5 : 1) * c->attn_bh;
		double exec = c->attn_causal ? fl * (1 + 128 / s) : fl;
		*pred = fl / wl_attn_time(g, p, exec, back, s * half, c->attn_hd,
		                          c->attn_fa2 ? ATTN_FLASH2 : ATTN_FLASH);
		return 0;
	}
	case VM_CKPT_SIZE:
		*pred = wl_checkpoint_bytes(&c->s, CKPT_FULL);
		return 0;
	case VM_COLL_BUSBW:
	case VM_COLL_ALGBW:
	case VM_COLL_TIME:
	case VM_COLL_AVG_BUSBW:
		return predict_coll(c, pred, err, n);
	case VM_LAYER_FWD:
	case VM_LAYER_BWD:
	case VM_LAYER_FWDBWD:
		if (layer_times(&c->s, &fwd, &bwd, err, n) < 0)
			return -1;
		*pred = c->metric == VM_LAYER_FWD ? fwd : c->metric == VM_LAYER_BWD ? bwd : fwd + bwd;
		return 0;
	default:
		return predict_step(c, cache, pred, err, n);
	}
}
