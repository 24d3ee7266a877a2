/* scenario.h: a validated scenario in SI units. The loader (scn.c) maps the
 * YAML of docs/scenario.md onto this struct through tables; every other part
 * of the program reads only this struct, never YAML. */
#ifndef TRAINSIM_SCENARIO_H
#define TRAINSIM_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hw.h"

#define SCN_NAME_MAX 128
#define SCN_MAX_LAYERS 1024      /* custom workloads */
#define SCN_MAX_ZONES 16
/* What the step simulator can run, so that `check` refuses what `run` would:
 * the interleaved schedule's chunks per stage (8 bits of an op), the
 * micro-batches of a pipeline per step (19 bits of a timeline label) */
#define SCN_MAX_VIRTUAL_STAGES 255
#define SCN_MAX_MICROBATCHES 500000
/* ... and the operations of one pipeline schedule, 2 x micro-batches x
 * chunks x stages (memory and the engine's events) */
#define SCN_MAX_SCHED_OPS 100000000LL

typedef enum { TOPO_SINGLE_SWITCH, TOPO_FAT_TREE, TOPO_RAIL_OPTIMIZED, TOPO_ZONES } scn_topology;
typedef enum { SCHED_GPIPE, SCHED_1F1B, SCHED_INTERLEAVED, SCHED_DEEPSPEED } scn_schedule;
/* Parameter-efficient fine-tuning: none (every weight trained), or LoRA
 * (the base weights frozen, low-rank adapters trained beside its linear
 * layers). */
typedef enum { PEFT_NONE, PEFT_LORA } scn_peft;
typedef enum { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL } scn_recompute;
/* The attention core: as the framework of the model's generation runs it
 * (auto: docs/workload.md), one fused FlashAttention kernel, or unfused
 * (scores, softmax, dropout, context as separate kernels). */
typedef enum { ATTN_AUTO, ATTN_FLASH, ATTN_UNFUSED, ATTN_FLASH2, ATTN_FLASH1 } scn_attention;
/* The elementwise kernels around the GEMMs: fused as Megatron, Transformer
 * Engine and torch.compile run them, or as eager PyTorch runs a model's
 * composite ops, one kernel and one HBM pass each (docs/workload.md). */
typedef enum { KERNELS_FUSED, KERNELS_EAGER } scn_kernels;
/* The loss over the vocabulary: Megatron's vocab-parallel cross entropy on
 * an fp32 copy of the logits, several passes (unfused), or one kernel that
 * reads the 16-bit logits and writes their gradient in place (fused: llm.c,
 * TE's and Liger's kernels; docs/workload.md). */
typedef enum { CE_UNFUSED, CE_FUSED } scn_cross_entropy;
/* The expert token exchange: NCCL's all-to-all, or DeepEP's dispatcher (one
 * RDMA copy of a token per destination node, forwarded there over NVLink). */
typedef enum { EP_DISPATCH_ALLTOALL, EP_DISPATCH_DEEPEP } scn_ep_dispatcher;
typedef enum { GRAD_ALGO_AUTO, GRAD_ALGO_RING, GRAD_ALGO_TREE, GRAD_ALGO_HIERARCHICAL,
               GRAD_ALGO_PS, GRAD_ALGO_NVLS, GRAD_ALGO_COLLNET } scn_grad_algo;
typedef enum { COMPRESS_NONE, COMPRESS_FP16, COMPRESS_INT8, COMPRESS_1BIT } scn_compression;
typedef enum { DATA_STORAGE, DATA_LOCAL_CACHE, DATA_MEMORY } scn_data_source;
typedef enum { CKPT_SYNC, CKPT_ASYNC } scn_ckpt_mode;
typedef enum { CKPT_FULL, CKPT_WEIGHTS, CKPT_SHARDED } scn_ckpt_content;
typedef enum { STORAGE_NET_FRONTEND, STORAGE_NET_SHARED } scn_storage_net;
typedef enum { PLACE_TP_PP_DP, PLACE_TP_DP_PP } scn_placement;
typedef enum { SYNC_SYNC, SYNC_ASYNC } scn_dp_sync;
/* When gradients leave a backward: auto = after every micro-batch's when they
 * are sharded (ZeRO >= 2), else after the last micro-batch's only */
typedef enum { EVERY_MB_AUTO, EVERY_MB_TRUE, EVERY_MB_FALSE } scn_every_mb;
/* The gradients' collective: auto = reduce-scatter when ZeRO shards (zero >= 1),
 * all-reduce otherwise; all_reduce with zero: 1 keeps the optimizer state
 * sharded while every rank reduces the whole gradients (PyTorch's
 * ZeroRedundancyOptimizer under DDP, DeepSpeed's BF16_Optimizer). */
typedef enum { GRAD_COLL_AUTO, GRAD_COLL_ALL_REDUCE, GRAD_COLL_REDUCE_SCATTER } scn_grad_coll;
typedef enum { FABRIC_PACKED, FABRIC_SPREAD } scn_fabric_placement;

typedef struct scn_fabric {
	scn_topology topology;
	int nodes_per_leaf;          /* fat-tree / rail: nodes under one leaf */
	double oversubscription;     /* leaf downlink:uplink, >= 1 */
	double switch_latency_s;
	int zones;                   /* TOPO_ZONES: nodes split evenly over zones */
	double zone_bandwidth_Bps;   /* between two zones, per direction */
	double zone_latency_s;
	scn_fabric_placement placement; /* fat-tree / rail: job's nodes filling leaves, or dealt */
	int leaves;                  /* spread: leaves the job spans; 0 = ceil(nodes/nodes_per_leaf) */
	double background_load;      /* 0..0.95 of each leaf uplink taken by other tenants */
	bool sharp;                  /* the switches reduce (InfiniBand SHARP; NCCL's CollNet) */
} scn_fabric;

typedef struct scn_storage {
	double bandwidth_Bps;        /* aggregate */
	double latency_s;            /* per request */
	double per_client_Bps;       /* per node limit; 0 = none */
	scn_storage_net network;
	double frontend_Bps;         /* frontend NIC per node when network = frontend */
	double write_Bps;            /* aggregate for writes (checkpoints); 0 = bandwidth_Bps */
} scn_storage;

/* What the storage system writes in aggregate: its own write figure, else
 * the one bandwidth given for both directions. */
static inline double scn_storage_write_Bps(const scn_storage *st)
{
	return st->write_Bps > 0 ? st->write_Bps : st->bandwidth_Bps;
}

typedef struct scn_cache {
	bool present;
	double bandwidth_Bps;        /* per node */
	double capacity_bytes;
} scn_cache;

typedef struct scn_cluster {
	int nodes;
	int gpus_per_node;
	hw_gpu gpu;                  /* resolved from the catalog or given inline */
	hw_intra intra;
	hw_nic nic;
	scn_fabric fabric;
	scn_storage storage;
	scn_cache cache;
	double host_memory_bytes;    /* per node, for async checkpoint snapshots */
} scn_cluster;

typedef struct scn_layer {         /* one layer of a custom (non-transformer) workload */
	char name[32];
	double fwd_flops;            /* per sample */
	double params;               /* parameter count (stored in the training precision) */
	double act_bytes;            /* activation bytes kept per sample */
	double out_bytes;            /* output bytes per sample (what a pipeline stage
	                              * ending here sends); 0: act_bytes */
} scn_layer;

typedef struct scn_model {
	bool custom;                 /* true: layers[] below, not a transformer */
	int layers;
	int hidden;
	int heads;
	int kv_heads;                /* default heads */
	int head_dim;                /* default hidden / heads (Qwen3, Gemma: wider); with MLA
	                              * the non-rotary part of a query/key head */
	/* multi-head latent attention (DeepSeek-V2/V3): kv_lora_rank > 0 */
	int q_lora_rank;             /* query latent width; 0: queries projected directly */
	int kv_lora_rank;            /* key/value latent width */
	int qk_rope_dim;             /* rotary part of a query/key head (default 64 with MLA) */
	int v_head_dim;              /* value head width (default head_dim) */
	int ffn_hidden;              /* default 4*hidden (or 8/3*hidden when gated) */
	int seq_len;
	int vocab;
	bool gated_mlp;
	double params;               /* generic model from a parameter count; 0 = derive */
	/* mixture of experts (Megatron-core MoE); experts <= 1: a dense model */
	int experts;                 /* routed experts per MoE layer */
	int top_k;                   /* experts each token is sent to (default 2) */
	int expert_ffn_hidden;       /* width of one expert's MLP (default ffn_hidden) */
	int shared_expert_ffn_hidden; /* width of the shared experts every token runs, in
	                              * all (DeepSeek, Qwen2-MoE); 0: none */
	int dense_layers;            /* the first N layers have a dense MLP (DeepSeek's
	                              * first_k_dense_replace) */
	/* sliding-window attention (Mistral 7B v0.1, Gemma 2/3, GPT-OSS):
	 * a query attends its sliding_window previous tokens (0: the whole
	 * sequence) on every layer but each global_every-th one (0: none) */
	int sliding_window;
	int global_every;
	int nlayers_custom;
	scn_layer *custom_layers;    /* owned by the scenario */
} scn_model;

typedef struct scn_grad_reduce {
	scn_grad_algo algorithm;
	double bucket_bytes;
	bool overlap;
	bool overlap_param_gather;   /* ZeRO-1/2: the all-gather hides behind the forward */
	hw_precision dtype;
	scn_compression compression;
	scn_dp_sync sync;            /* async: step t+1 computes while step t reduces */
	int ps_servers;              /* GRAD_ALGO_PS: number of server shards */
	scn_every_mb every_micro_batch; /* reduce after each micro-batch's backward */
	scn_grad_coll collective;    /* all-reduce or reduce-scatter (auto: by zero) */
} scn_grad_reduce;

typedef struct scn_data {
	scn_data_source source;
	double sample_bytes;
	int prefetch;
	bool cache_warm;             /* local cache already holds the data set */
	double dataset_bytes;        /* one pass of the data; 0: run.train_tokens' samples */
} scn_data;

/* What an asynchronous checkpoint blocks training for beyond its GPU->host
 * copy: building the state dict, staging buffers and the stager's set-up
 * (PyTorch DCP async_save copies on the training thread; planning and
 * writes run in the background). The published stalls of runs whose copies
 * take milliseconds (a few hundred MB a GPU at 25-50 GB/s): 0.34 s
 * (ByteCheckpoint, NSDI'25 Table 8: a 7B ViT, FSDP, 1,488 GPUs), 0.59 s (its
 * 405B on 8,960 GPUs, Megatron-LM), 0.78 s (PyTorch's "6x faster Async
 * Checkpointing" blog: Llama 3 70B, HSDP2, 1,856 H200); their median. */
#define SCN_SNAPSHOT_OVERHEAD_S 0.59
/* Node-local checkpoints (Megatron-LM's --non-persistent-ckpt-type local,
 * nvidia-resiliency-ext's replication; Gemini, SOSP'23, keeps them in peers'
 * memory): a failed node is replaced and its drive is gone, so a local
 * checkpoint survives only where another node holds a copy; 2 copies, the
 * node's own and one peer's, is the least that survives the loss of a node. */
#define SCN_LOCAL_COPIES 2

typedef struct scn_checkpoint {
	int every;                   /* steps; 0 = never */
	scn_ckpt_mode mode;
	scn_ckpt_content content;
	double bytes_override;       /* 0 = from the model */
	double snapshot_overhead_s;  /* async: the stall beyond the GPU->host copy */
	int local_every;             /* steps between node-local checkpoints; 0 = none */
	int local_copies;            /* nodes holding each node's local checkpoint */
} scn_checkpoint;

typedef struct scn_failures {
	double gpu_mtbf_s;           /* 0 = no failures */
	double node_mtbf_s;          /* 0 = none */
	double link_mtbf_s;          /* per NIC link; 0 = none */
	double restart_s;            /* detect, reschedule, start the processes */
	bool reload;                 /* add the checkpoint's reload, simulated, to each restart */
} scn_failures;

/* Whether any failures are drawn (an MTBF of GPUs, nodes or links given). */
static inline bool scn_failures_on(const scn_failures *f)
{
	return f->gpu_mtbf_s > 0 || f->node_mtbf_s > 0 || f->link_mtbf_s > 0;
}

typedef struct scn_training {
	hw_precision precision;
	int global_batch;            /* sequences per step */
	int micro_batch;
	int tp, pp, dp;              /* dp derived when 0 */
	int cp;                      /* context parallel: each sequence split over cp GPUs */
	int ep;                      /* expert parallel: the experts of a MoE layer split over
	                              * ep GPUs of the data-parallel group (1: none) */
	int expert_tp;               /* tensor parallelism inside each expert: 1 or tp (0: tp,
	                              * Megatron-core's default) */
	double expert_imbalance;     /* tokens the busiest expert GPU gets over the mean (>= 1;
	                              * 1: the router balances perfectly) */
	scn_ep_dispatcher ep_dispatcher;
	bool ep_overlap;             /* the expert all-to-alls run beside compute (DeepSeek's
	                              * DualPipe, Megatron's --overlap-moe-expert-parallel-comm) */
	scn_schedule schedule;
	int virtual_stages;
	int first_stage_layers;      /* layers on the first (last) pipeline stage, the rest */
	int last_stage_layers;       /* spread over the middle ones (Megatron's --decoder-
	                              * first/last-pipeline-num-layers); 0: an even split */
	bool embedding_in_split;     /* the embedding (the loss) takes a layer's place in the */
	bool loss_in_split;          /* first (last) chunk (Megatron's --account-for-embedding-
	                              * / --account-for-loss-in-pipeline-split) */
	bool sequence_parallel;
	bool pp_scatter_gather;      /* each TP rank sends 1/tp of a stage's activations and the
	                              * receivers all-gather them (Megatron's scatter-gather,
	                              * DeepSpeed's partitioned pipe buffers); false: each TP
	                              * rank sends them all (a what-if) */
	bool grad_accum_pass;        /* bf16/fp8: a pass per micro-batch adds the 16-bit grads
	                              * into the fp32 main grads (DeepSpeed's BF16_Optimizer);
	                              * false: the wgrad GEMM accumulates into them (Megatron's
	                              * gradient_accumulation_fusion) */
	scn_recompute recompute;
	scn_attention attention;
	scn_kernels kernels;
	scn_cross_entropy cross_entropy;
	int recompute_layers;        /* with full recompute, only the first N layers of each
	                              * model chunk (Megatron's --recompute-method block
	                              * --recompute-num-layers N); 0: every layer */
	int zero;
	int zero_group;               /* ZeRO shards over groups of this many gradient ranks,
	                                 replicated across groups (HSDP); 0 = all */
	scn_placement placement;
	scn_grad_reduce grad_reduce;
	scn_data data;
	scn_checkpoint checkpoint;
	scn_failures failures;
	double optimizer_bytes_per_param; /* 0 = from precision (Megatron: 18 incl. grads) */
	scn_peft peft;
	int lora_rank;                  /* adapters' rank with peft: lora */
} scn_training;

typedef struct scn_variability {
	double compute_cv;           /* per-GPU, per-task coefficient of variation */
	double straggler_fraction;   /* fraction of GPUs persistently slow */
	double straggler_slowdown;   /* their compute time factor, >= 1 */
	int straggler_gpus;          /* exactly this many slow GPUs; 0 = drawn by the fraction */
	double link_cv;              /* per-flow bandwidth noise */
} scn_variability;

/* Whether the run has stragglers: a number of them, or a fraction drawn,
 * and a slowdown above 1. */
static inline bool scn_stragglers_on(const scn_variability *v)
{
	return (v->straggler_gpus > 0 || v->straggler_fraction > 0) && v->straggler_slowdown > 1;
}

typedef struct scn_run {
	int steps;
	uint64_t seed;
	scn_variability variability;
	double train_tokens;         /* 0 = not asked */
	double gpu_hour_price;       /* cost of one GPU-hour, any currency; 0 = not asked */
	uint64_t max_events;         /* 0 = default */
	double max_memory_bytes;     /* 0 = default */
} scn_run;

typedef struct scenario {
	int schema_version;
	char name[SCN_NAME_MAX];
	char path[256];              /* where it was loaded from, for messages */
	char sets[256];              /* the --set overrides it was loaded with, space-separated
	                              * ("..." where cut short); "" without */
	scn_cluster cluster;
	scn_model model;
	scn_training training;
	scn_run run;
	int n_warnings;              /* keys accepted that have no effect yet */
} scenario;

/* Sets every field to its documented default (docs/scenario.md). */
void scn_defaults(scenario *s);
/* Frees what a scenario owns (custom layers); the struct itself is the caller's. */
void scn_release(scenario *s);
/* Total GPUs. */
static inline int scn_gpus(const scenario *s)
{
	return s->cluster.nodes * s->cluster.gpus_per_node;
}
/* Tokens a step trains on; a custom workload counts samples (its
 * tokens_per_s and run.train_tokens are samples). */
static inline double scn_tokens_per_step(const scenario *s)
{
	return (double)s->training.global_batch * (s->model.custom ? 1 : s->model.seq_len);
}
/* Context-parallel degree (1 when unset). */
static inline int scn_cp(const scenario *s)
{
	return s->training.cp > 1 ? s->training.cp : 1;
}
/* Data-parallel degree: the loader derives training.dp, but scenarios built in
 * memory (validation, tests) may leave it 0: then GPUs / (tp * cp * pp). */
static inline int scn_dp(const scenario *s)
{
	const scn_training *t = &s->training;
	if (t->dp > 0)
		return t->dp;
	long long mp = (long long)(t->tp > 0 ? t->tp : 1) * (t->pp > 0 ? t->pp : 1) * scn_cp(s);
	long long dp = scn_gpus(s) / mp;
	return dp > 0 ? (int)dp : 1;
}
/* GPUs that hold the same weights and reduce their gradients together:
 * the data-parallel replicas times the context-parallel ranks. */
static inline int scn_dp_grad(const scenario *s)
{
	return scn_dp(s) * scn_cp(s);
}
/* Whether the gradients are reduce-scattered (each rank keeps the shard it
 * updates: ZeRO's own way) rather than all-reduced whole (zero: 0, or the
 * optimizer state alone sharded, training.grad_reduce.collective). */
static inline bool scn_grad_rs(const scenario *s)
{
	return s->training.zero >= 1 && s->training.grad_reduce.collective != GRAD_COLL_ALL_REDUCE;
}

#endif
