/* wl_int.h: what the files of the workload module (workload.c, wl_layer.c,
 * compute.c) share and nobody else uses. */
#ifndef TRAINSIM_WL_INT_H
#define TRAINSIM_WL_INT_H

#include "workload.h"

/* Batched GEMM (attention core without flash): `batch` products m x n x k in
 * one kernel, sharing the waves. */
double wl__bgemm_time(const hw_gpu *g, hw_precision p, double batch, double m, double n, double k);
/* Grouped GEMM (MoE experts): like the batched one, in precision p. */
double wl__grouped_gemm_time(const hw_gpu *g, hw_precision p, double batch, double m, double n,
                             double k);
/* Whether the GPU has a fused attention kernel (Ampere and later). */
bool wl__has_flash(const hw_gpu *g);
/* Streaming multiprocessors (CUs) of the GPU. */
int wl__sms(const hw_gpu *g);
/* The gap between two dependent kernels on one stream (compute.c). */
double wl__kernel_gap_s(void);
/* Dense peak in precision p, falling back to fp16 where p has no entry. */
double wl__peak(const hw_gpu *g, hw_precision p);
/* The rated dense peak of precision p (the one a GPU without it runs:
 * bf16 on a V100 is fp16), whatever a power limit leaves. */
double wl__rated_peak(const hw_gpu *g, hw_precision p);
/* Bytes of one element stored in precision p (local: no link dependency). */
double wl__prec_bytes(hw_precision p);
/* The model with a generic shape filled in (copy of *m). */
void wl__model(const scn_model *m, scn_model *out);


static inline int wl__tp(const scenario *s)
{
	return s->training.tp > 0 ? s->training.tp : 1;
}

static inline int wl__pp(const scenario *s)
{
	return s->training.pp > 0 ? s->training.pp : 1;
}

/* DP degree (replicas taking distinct samples): given, or what the GPU count
 * leaves after TP x CP x PP. */
static inline int wl__dp(const scenario *s)
{
	return scn_dp(s);
}

/* Context-parallel degree. */
static inline int wl__cp(const scenario *s)
{
	return scn_cp(s);
}

/* GPUs holding the same weights, over which gradients are reduced and the
 * distributed optimizer shards: dp x cp. */
static inline int wl__dp_grad(const scenario *s)
{
	return scn_dp(s) * scn_cp(s);
}

/* Expert-parallel degree, and the tensor parallelism inside each expert
 * (0 in a scenario built in memory: tp, Megatron-core's default). */
static inline int wl__ep(const scenario *s)
{
	return s->model.experts > 1 && s->training.ep > 1 ? s->training.ep : 1;
}

static inline int wl__etp(const scenario *s)
{
	return s->training.expert_tp > 0 ? s->training.expert_tp : wl__tp(s);
}

static inline int wl__micro(const scenario *s)
{
	return s->training.micro_batch > 0 ? s->training.micro_batch : 1;
}

/* Micro-batches per step on one pipeline (gradient accumulation steps). */
static inline int wl__nmicro(const scenario *s)
{
	int m = s->training.global_batch / (wl__dp(s) * wl__micro(s));
	return m > 0 ? m : 1;
}

/* Model-state bytes per parameter (weights, gradients, optimizer). */
void wl__state_bytes(const scenario *s, double *w, double *g, double *o);
/* Activation bytes one layer keeps for backward, per micro-batch and GPU. */
double wl__layer_act_bytes(const scenario *s, const scn_model *m, bool flash, bool moe);
/* A custom model's parameters (act: activation bytes) summed over the
 * layers of a pipeline stage, each of its chunks (workload.c). */
double wl__stage_custom_sum(const scenario *s, int stage, bool act);
/* Whether the model uses dropout (GPT-style) and layer/bias extras. */
static inline bool wl__dropout(const scn_model *m)
{
	return !m->gated_mlp;
}

#endif
