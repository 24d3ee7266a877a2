/* plan.h: the parallel plan of a step: where each (tensor, pipeline, data)
 * rank of a 3D-parallel layout lives among the cluster's GPUs, and which
 * layers each pipeline stage (and each of its virtual chunks) holds. */
#ifndef TRAINSIM_PLAN_H
#define TRAINSIM_PLAN_H

#include <stddef.h>
#include "scenario.h"

typedef struct plan {
	int tp, pp, dp;
	int cp;                  /* context-parallel ranks of one sequence (1: none) */
	int v;                   /* virtual stages (model chunks) per pipeline stage */
	int gpus;                /* tp * cp * pp * dp */
	scn_placement order;     /* PLACE_TP_PP_DP or PLACE_TP_DP_PP */
	int layers;              /* transformer layers, or custom layers */
	int nchunks;             /* pp * v, in model order */
	int *chunk_first;        /* first layer of global chunk c */
	int *chunk_layers;       /* number of layers of global chunk c */
} plan;

/* Fills *p from the scenario's training section (dp derived when 0). Returns
 * 0, or a negative error with a message in err: the layout does not divide
 * the GPUs, or a chunk would hold no layer. Release with plan_release. */
int plan_init(plan *p, const scenario *s, char *err, size_t errlen);
void plan_release(plan *p);

/* GPU id of tensor rank t, context rank c, pipeline stage st, data-parallel
 * replica d. TP ranks are always consecutive GPUs (inside a node when tp
 * divides gpus_per_node), CP ranks next (Megatron's order tp-cp-...), then
 * `order` says whether PP or DP comes next. */
int plan_gpu_cp(const plan *p, int t, int c, int st, int d);
/* The same with context rank 0. */
int plan_gpu(const plan *p, int t, int st, int d);
/* Inverse of plan_gpu_cp (c may be NULL when cp is 1). */
void plan_coords(const plan *p, int gpu, int *t, int *st, int *d);
void plan_coords_cp(const plan *p, int gpu, int *t, int *c, int *st, int *d);
/* The gradient-reduction group of stage st (tensor rank 0): its dp x cp
 * GPUs, j = c + cp * d (the CP ranks of a replica hold the same weights). */
static inline int plan_grad_ranks(const plan *p) { return p->dp * p->cp; }
int plan_grad_gpu(const plan *p, int st, int j);

/* Global chunk c (model order) lives on stage c % pp as its local chunk c / pp
 * (Megatron's interleaving: stage s holds chunks s, s+pp, s+2pp, ...). */
static inline int plan_chunk_stage(const plan *p, int c) { return c % p->pp; }
static inline int plan_chunk_local(const plan *p, int c) { return c / p->pp; }
static inline int plan_chunk_global(const plan *p, int st, int local) { return local * p->pp + st; }

/* Spreads `layers` over `parts` as evenly as possible: every part gets
 * floor(layers/parts) or one more; the parts one layer short are taken from
 * the ends inward (first, last, second, second-last, ...), since the first
 * and last stages also carry the embedding and the logits (Llama 3 405B: 126
 * layers on 16 stages gives 7, 8 x 14, 7). Writes counts[0..parts-1]. */
void plan_split_layers(int layers, int parts, int *counts);

/* The layers of global chunk c (of pp x v) under the training section's
 * split: plan_split_layers' even split by default; with first_stage_layers
 * or last_stage_layers those stages' counts and the rest spread over the
 * middle stages, each stage's over its v chunks; with embedding_in_split or
 * loss_in_split, layers + 1 (+ 1) split evenly and the first (last) chunk
 * giving one place to the embedding (the loss), as Megatron-core does. The
 * layer count is the model's (derived for a `params` model). */
int plan_chunk_layer_count(const scn_training *t, int layers, int pp, int v, int c);
/* 0 when that split is possible (every chunk holds a layer, or the
 * embedding or loss in its place); -1 with the reason in err. */
int plan_split_check(const scn_training *t, int layers, int pp, int v, char *err, size_t n);

/* The j-th GPU of stage st's first expert-parallel group: Megatron-core draws
 * it from the ranks with the same weights but for the experts, TP rank
 * innermost when the experts are not tensor-parallel (over_tp), then the
 * context-parallel and the data-parallel ranks. */
int plan_ep_gpu(const plan *p, int st, int j, bool over_tp);

#endif
