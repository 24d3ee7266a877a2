/* workload.h: what one training step computes and holds: parameters, FLOPs per
 * layer forward and backward (MFU and HFU conventions kept apart), activation
 * and model-state memory per GPU, and compute time per operation from the
 * GPU's dense peak and an achievable-efficiency model. */
#ifndef TRAINSIM_WORKLOAD_H
#define TRAINSIM_WORKLOAD_H

#include "scenario.h"

/* Parameters of the whole model (embeddings included). */
double wl_params(const scn_model *m);
/* Parameters of one transformer layer (or of custom layer i). */
double wl_layer_params(const scn_model *m, int layer);
/* Embedding (and untied output) parameters. */
double wl_embedding_params(const scn_model *m);

/* Model FLOPs of one step for the whole model (no recomputation; causal
 * attention counted as the frameworks count it: see workload.c), per sequence
 * of seq_len tokens, forward + backward. */
double wl_model_flops_per_seq(const scn_model *m);
/* Hardware FLOPs per sequence, counting recomputation. */
double wl_hw_flops_per_seq(const scn_model *m, scn_recompute rc);

/* The operations of one layer's forward for one micro-batch on one GPU of a
 * TP group, in execution order, with the TP collectives between them. */
typedef enum { OP_GEMM, OP_ATTN, OP_MEMBOUND, OP_TP_COMM } wl_op_kind;
typedef struct wl_op {
	wl_op_kind kind;
	double flops;            /* OP_GEMM, OP_ATTN */
	double bytes;            /* HBM bytes (mem-bound) or collective bytes (TP) */
	int coll;                /* coll_op for OP_TP_COMM */
	double m, n, k;          /* GEMM shape, for the efficiency model */
} wl_op;

typedef struct wl_layer_cost {
	double fwd_s, bwd_s, recompute_s;   /* compute time on one GPU */
	double fwd_flops, bwd_flops;        /* per GPU, this micro-batch */
	int n_tp_fwd, n_tp_bwd;             /* TP collectives per pass */
	double tp_bytes;                    /* bytes of each TP collective (nccl-tests S) */
	int tp_coll_fwd, tp_coll_bwd;       /* coll_op of those collectives */
	double act_bytes;                   /* activation bytes kept for backward */
} wl_layer_cost;

/* Cost of transformer layer `layer` (or custom layer) for one micro-batch on
 * one GPU under the scenario's TP/SP/recompute/precision. */
void wl_layer_cost_get(const scenario *s, int layer, wl_layer_cost *out);
/* Cost of the embedding (first stage) and logits + loss (last stage). */
void wl_head_cost(const scenario *s, bool first_stage, wl_layer_cost *out);

/* Time of a GEMM (m x k) * (k x n) in precision p on gpu: from dense peak,
 * best-shape efficiency and a size/shape factor; and of a memory-bound
 * operation moving `bytes` through HBM. */
double wl_gemm_time(const hw_gpu *g, hw_precision p, double m, double n, double k);
double wl_membound_time(const hw_gpu *g, double bytes);

/* Memory per GPU. */
typedef struct wl_memory {
	double weights, gradients, optimizer, activations, other, total;
	double capacity;
	bool fits;
} wl_memory;
/* For the most loaded stage (the first, under 1F1B). */
void wl_memory_get(const scenario *s, wl_memory *out);

/* Bytes of model + optimizer state a full checkpoint writes; weights only. */
double wl_checkpoint_bytes(const scenario *s, scn_ckpt_content what);

#endif
