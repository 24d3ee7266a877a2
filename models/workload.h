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
/* Mixture of experts: whether layer `layer` has routed experts (experts > 1
 * and past the first dense_layers); its routed experts' parameters (all of
 * them; 0 for a dense layer); the parameters of layer `layer` one GPU holds
 * (dense part / tp, experts / (ep x expert_tp)); the parameters one token
 * meets (top_k of the routed experts: the "active" count). */
bool wl_layer_moe(const scn_model *m, int layer);
double wl_layer_expert_params(const scn_model *m, int layer);
/* Whether layer `layer` attends through the sliding window (shorter than the
 * sequence), and the mean keys a query of it meets, causal: s/2 for a
 * global layer, W - W^2/(2s) through a window of W < s tokens. */
bool wl_layer_windowed(const scn_model *m, int layer);
double wl_attn_keys(const scn_model *m, int layer);
double wl_layer_gpu_params(const scenario *s, int layer);
double wl_active_params(const scn_model *m);
/* MoE layers among pipeline stage `stage`'s, and the routed-expert
 * parameters a GPU of the stage holds. */
int wl_stage_moe_layers(const scenario *s, int stage);
double wl_stage_expert_params(const scenario *s, int stage);
/* Megatron-core's expert data parallelism: the GPUs holding the same experts,
 * tp x dp x cp / (expert_tp x ep), over which expert gradients are reduced and
 * the distributed optimizer shards the experts' state (dp x cp for a dense
 * model). */
int wl_expert_dp(const scenario *s);
/* The parameters of layer `layer` whose gradients a GPU reduces, as bytes
 * over its data-parallel group: the dense part as they are; the routed
 * experts, which Megatron reduces over their smaller expert-DP group, scaled
 * by that group's ring share over the DP group's ((e-1)/e over (n-1)/n; 0
 * when each expert has one replica). */
double wl_layer_dp_params(const scenario *s, int layer);
/* Embedding (and untied output) parameters. */
double wl_embedding_params(const scn_model *m);

/* Model FLOPs of one step for the whole model (no recomputation; causal
 * attention counted as the frameworks count it: see workload.c), per sequence
 * of seq_len tokens, forward + backward. */
double wl_model_flops_per_seq(const scn_model *m);
/* Hardware FLOPs per sequence, counting recomputation. */
double wl_hw_flops_per_seq(const scn_model *m, scn_recompute rc);
/* Whether layer `layer` (0-based, the whole model's) runs its forward again in
 * the backward: every layer with recompute: full, only the first
 * recompute_layers of each model chunk when that is set; none otherwise. */
bool wl_layer_recomputed(const scenario *s, int layer);
/* How many layers of the whole model are recomputed in full. */
int wl_recomputed_layers(const scenario *s);
/* How many of pipeline stage `stage`'s layers are recomputed in full. */
int wl_stage_recomputed(const scenario *s, int stage);
/* The attention-score part (QK^T, attention x V; forward and backward) of
 * the counts above, in full: a count of the causal half is that much less
 * by half. */
double wl_attn_score_flops_per_seq(const scn_model *m);

/* The operations of one layer's forward for one micro-batch on one GPU of a
 * TP group, in execution order, with the TP collectives between them. */
typedef enum { OP_GEMM, OP_ATTN, OP_MEMBOUND, OP_TP_COMM } wl_op_kind;
typedef enum { WL_FWD, WL_BWD, WL_RECOMPUTE } wl_pass;
typedef struct wl_op {
	wl_op_kind kind;
	double flops;            /* OP_GEMM, OP_ATTN: FLOPs executed (per GPU) */
	double bytes;            /* HBM bytes (mem-bound) or collective bytes (TP) */
	int coll;                /* coll_op for OP_TP_COMM */
	double m, n, k;          /* GEMM shape, for the efficiency model */
	double batch;            /* batched GEMMs (attention core): count; else 1 */
	double time_s;           /* compute time on one GPU; 0 for OP_TP_COMM */
	const char *name;        /* static string: "qkv", "softmax", "tp_ar", ... */
	bool async;              /* OP_TP_COMM: overlaps the next compute op */
	bool cp_group;           /* OP_TP_COMM on the context-parallel group (K/V exchange) */
	bool ep_group;           /* OP_TP_COMM on the expert-parallel group (token all-to-all) */
} wl_op;

#define WL_MAX_OPS 96
/* The operations of one pass of layer `layer` for one micro-batch on one GPU,
 * in execution order, TP collectives included (WL_BWD: the backward proper;
 * WL_RECOMPUTE: what recomputation re-runs before it, empty without
 * recompute). Writes at most `max` ops; returns the number written. */
int wl_layer_ops(const scenario *s, int layer, wl_pass pass, wl_op *ops, int max);
/* True when the attention core runs as one fused flash-attention kernel
 * (derived, see docs/workload.md: Hopper and later, or a gated-MLP/GQA model,
 * i.e. the Llama generation; 2020-22 Megatron GPT on V100/A100 did not). */
bool wl_flash_attention(const scenario *s);

typedef struct wl_layer_cost {
	double fwd_s, bwd_s, recompute_s;   /* compute time on one GPU */
	double fwd_flops, bwd_flops;        /* per GPU, this micro-batch */
	int n_tp_fwd, n_tp_bwd;             /* TP collectives per pass */
	double tp_bytes;                    /* bytes of each TP collective (nccl-tests S) */
	int tp_coll_fwd, tp_coll_bwd;       /* coll_op of those collectives */
	double act_bytes;                   /* activation bytes kept for backward */
	/* added by the workload owner */
	int n_tp_recompute;                 /* collectives of the recomputed forward */
	double recompute_flops;             /* FLOPs executed by the recomputation */
	int n_tp_bwd_async;                 /* of n_tp_bwd: issued async, overlapping a GEMM */
	double tp_async_window_s;           /* compute each async collective can hide behind */
	double grad_accum_s;                /* weight-gradient accumulation pass (in bwd_s) */
	double membound_fwd_s, membound_bwd_s; /* memory-bound share of fwd_s / bwd_s */
	double params;                      /* parameters of this layer held by one GPU */
} wl_layer_cost;

/* Cost of transformer layer `layer` (or custom layer) for one micro-batch on
 * one GPU under the scenario's TP/SP/recompute/precision.
 * Contract for the step simulation (three passes, run in this order for a
 * micro-batch: forward ... recompute, backward):
 *  - fwd_s: forward compute time (GEMMs, attention, memory-bound ops), TP
 *    communication excluded; n_tp_fwd blocking collectives of tp_bytes each,
 *    of kind tp_coll_fwd, interleave with it (2 per layer: after the
 *    attention output projection and after the second MLP GEMM; with sequence
 *    parallelism 4: all-gather before QKV and fc1, reduce-scatter after
 *    out-proj and fc2, which move the same bytes: tp_coll_fwd says
 *    COLL_ALL_GATHER).
 *  - recompute_s: the recomputation run just before this layer's backward
 *    (full: the whole forward again, with its n_tp_recompute collectives of
 *    kind tp_coll_fwd; selective: the attention core, no collective; none: 0).
 *  - bwd_s: backward compute time, recomputation excluded, the gradient-
 *    accumulation pass included; n_tp_bwd collectives of kind tp_coll_bwd
 *    (2 all-reduce; with SP 6: 2 RS + 2 AG + 2 re-all-gathers of the input
 *    for the weight gradient). n_tp_bwd_async of them are issued
 *    asynchronously and overlap the next GEMM (Megatron's async TP
 *    all-reduce of the input gradient during the weight-gradient GEMM; with
 *    SP the re-gather during the input-gradient GEMM too): each is exposed
 *    only by what it lasts beyond tp_async_window_s.
 *  - fwd_flops / bwd_flops / recompute_flops are FLOPs executed (HFU);
 *    model FLOPs for MFU come from wl_model_flops_per_seq. */
void wl_layer_cost_get(const scenario *s, int layer, wl_layer_cost *out);
/* Cost of the embedding (first stage) and logits + loss (last stage). */
void wl_head_cost(const scenario *s, bool first_stage, wl_layer_cost *out);

/* Time of a GEMM (m x k) * (k x n) in precision p on gpu: from dense peak,
 * best-shape efficiency and a size/shape factor; and of a memory-bound
 * operation moving `bytes` through HBM. */
double wl_gemm_time(const hw_gpu *g, hw_precision p, double m, double n, double k);
double wl_membound_time(const hw_gpu *g, double bytes);
/* Streaming multiprocessors (CUs) of the GPU. */
int wl_gpu_sms(const hw_gpu *g);
/* The fraction of dense peak a large bf16 GEMM holds under sustained load:
 * the catalog's MAMF times the architecture's sustained-clock factor. */
double wl_gpu_held_gemm_eff(const hw_gpu *g);
/* The fraction of its rated clock a GPU's compute-bound kernels hold under
 * its power limit (gpu.power_limit below gpu.tdp); 1 without one. */
double wl_power_clock(const hw_gpu *g);
/* The draw of a GPU at no clock worth running (the model's static part of
 * its TDP): a power limit must be above it. */
double wl_power_floor_w(const hw_gpu *g);
/* Whether the GPU runs fused (flash) attention kernels (Ampere and later). */
bool wl_gpu_fused_attention(const hw_gpu *g);

/* Memory per GPU. */
/* CUDA context, cuBLAS workspace and NCCL buffers held outside the
 * framework's tensors: about 1 GB on an A100 process (UNVERIFIED; PyTorch
 * reports ~0.3-0.5 GB of context, NCCL a few hundred MB of buffers), in
 * every GPU's `other`. */
#define WL_RUNTIME_RESERVE_BYTES 1e9

/* The memory estimate's error: within this fraction of the capacity, either
 * way, it cannot say whether a layout fits. Of the layouts of published runs
 * validate simulates (each ran), those it puts over their GPUs' memory by
 * less than this are 20 of 102 over (the allocator, framework buffers and
 * choices such as freeing a pipeline stage's outputs early are not
 * modelled; docs/workload.md). */
#define WL_MEMORY_ERROR 0.10

typedef struct wl_memory {
	double weights, gradients, optimizer, activations, other, total;
	double capacity;
	bool fits;
} wl_memory;
/* For the most loaded stage (the first, under 1F1B). */
void wl_memory_get(const scenario *s, wl_memory *out);
/* Same for pipeline stage `stage` (0 .. pp-1). */
void wl_memory_stage(const scenario *s, int stage, wl_memory *out);

/* Bytes of model + optimizer state a full checkpoint writes; weights only. */
double wl_checkpoint_bytes(const scenario *s, scn_ckpt_content what);

/* ---- added by the workload owner ---- */

/* Fills the shape of a generic model given only `params` (layers, hidden,
 * heads, ffn_hidden, kv_heads, vocab where 0); a no-op for a full shape or a
 * custom model. Returns 0, or -1 if neither a shape nor params is given. */
int wl_model_resolve(scn_model *m);

/* Megatron paper conventions (Narayanan et al. SC21 eq. 3; Korthikanti et al.
 * 2022), used by published TFLOP/s, MFU and HFU: full (unmasked) attention,
 * tied logits; per sequence, whole model. model = 72 B s l h^2 (1 + s/6h +
 * V/12lh); hw: full recompute 96 (1 + s/6h + V/16lh), selective 72 (1 + s/3h
 * + V/12lh) as Korthikanti's HFU counts it, none = model. */
double wl_paper_model_flops_per_seq(const scn_model *m);
double wl_paper_hw_flops_per_seq(const scn_model *m, scn_recompute rc);

/* Layers of pipeline stage `stage` out of pp: as even as possible, the
 * shorter stages placed at the two ends first (first, last, second, ...),
 * which is how Llama 3 405B puts 126 layers on 16 stages. */
int wl_stage_layers(const scenario *s, int stage);
/* The layers of global pipeline chunk c (stage c % pp; plan.c's split). */
int wl_chunk_layers(const scenario *s, int chunk);
/* Parameters held by one GPU of pipeline stage `stage` (its layers / tp,
 * plus the word (and position) embedding on the first stage and the output
 * layer on the last: tied embeddings are held by both). */
double wl_stage_params(const scenario *s, int stage);
/* LoRA's adapter parameters of one layer (all TP ranks; 0 without
 * training.peft: lora), and what a GPU of a stage trains: all it holds, or
 * its share of the adapters. */
double wl_lora_layer_params(const scenario *s, int layer);
/* One GPU's share of them under tensor parallelism (A or B whole on each). */
double wl_lora_gpu_params(const scenario *s, int layer);
double wl_stage_trainable_params(const scenario *s, int stage);
/* Bytes of gradients one GPU of that stage reduces over DP per step (in the
 * grad_reduce dtype). */
double wl_dp_grad_bytes(const scenario *s, int stage);
/* Gradients are reduced after every micro-batch's backward, not only after
 * the last one's (training.grad_reduce.every_micro_batch; auto: when ZeRO
 * shards them, stage 2 or 3). */
bool wl_grad_every_micro_batch(const scenario *s);
/* The ranks one ZeRO shard set spans: training.zero_group, or the whole
 * gradient group (dp x cp) when 0 (or not a divisor: the loader refuses it). */
int wl_zero_group(const scenario *s);
/* Optimizer step (Adam, memory bound) time on one GPU of that stage, ZeRO
 * sharding applied; and its HBM bytes. */
double wl_optimizer_time(const scenario *s, int stage);
/* Model-state bytes per parameter: weights, gradients, optimizer state (with
 * training.optimizer_bytes_per_param when given). */
void wl_state_bytes(const scenario *s, double *w, double *g, double *o);
double wl_optimizer_bytes(const scenario *s, int stage);

/* Model / hardware FLOPs of one whole step for the whole job (global_batch
 * sequences); MFU = model / (step_time * gpus * peak). */
double wl_step_model_flops(const scenario *s);
double wl_step_hw_flops(const scenario *s);
/* Dense peak FLOP/s of the scenario's GPU in its training precision (falls
 * back to fp16/bf16 when the precision has no entry). */
double wl_peak_flops(const scenario *s);

/* Time of the fused flash-attention kernel doing `flops` executed FLOPs
 * (forward or backward) on gpu g, each query meeting `keys` keys on average
 * (s/2 causal) with heads of head_dim; kernel: ATTN_FLASH2 FlashAttention-2's
 * kernels, ATTN_FLASH1 FlashAttention 1's, anything else the best fused one
 * (cuDNN's on Hopper and Blackwell). */
double wl_attn_time(const hw_gpu *g, hw_precision p, double flops, bool backward, double keys,
                    double head_dim, scn_attention kernel);

#endif
