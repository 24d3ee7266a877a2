/* step.h: one training step (or several) replayed on the event engine under
 * the scenario's data, tensor and pipeline parallelism, and the result that
 * every report format prints. */
#ifndef TRAINSIM_STEP_H
#define TRAINSIM_STEP_H

#include <stdio.h>
#include "scenario.h"
#include "workload.h"

/* Categories of the time split; they partition each GPU's step time. */
typedef enum { SPLIT_COMPUTE, SPLIT_TP_COMM, SPLIT_PP_COMM, SPLIT_PP_BUBBLE, SPLIT_DP_COMM,
               SPLIT_DATA_STALL, SPLIT_CHECKPOINT, SPLIT_OPTIMIZER, SPLIT_IDLE,
               SPLIT__N } step_split;
const char *step_split_name(step_split k);   /* JSON key: "compute", "tp_comm", ... */

/* One interval on a GPU's timeline (for traces and timeline plots). */
typedef struct step_interval {
	int gpu;          /* simulated GPU index (stage-representative) */
	int stream;       /* 0 compute, 1 tp, 2 pp, 3 dp, 4 data, 5 checkpoint, 6 dp across
	                     ZeRO groups (zero_group) */
	step_split cat;
	double t0, t1;
	int mb;           /* micro-batch or -1 */
	char label[24];
	int collectives;  /* DP: the back-to-back collectives the interval runs as one
	                     (coalesced buckets); 0 otherwise */
} step_interval;

typedef struct step_checkpoint {
	double bytes;         /* whole job, one checkpoint */
	double write_s;       /* wall time of one checkpoint write */
	double stall_s;       /* training time lost per checkpoint */
	int every;
	double amortized_s;   /* per step, both tiers: stall_s / every + local_stall_s /
	                       * local_every */
	bool async_fallback;  /* async asked, host memory too small: written sync */
	double load_s;        /* reading it back after a failure (every GPU its state) */
	/* node-local checkpoints (training.checkpoint.local_every): each GPU's
	 * state to its node's drive and local_copies - 1 peers' */
	int local_every;      /* 0 = none */
	int local_copies;
	double local_bytes_per_gpu;
	double local_write_s, local_stall_s, local_load_s;
	bool local_async_fallback;   /* async asked, host memory too small: written sync */
} step_checkpoint;

/* Notes a result holds (the report prints them all). */
#define STEP_MAX_NOTES 6
/* The shortest step per micro-batch and per layer of a pipeline stage
 * (step time / micro-batches / (layers / pp)) among the published dropless
 * MoE runs of Megatron-core that tests/validation holds: the 42 rows of the
 * Megatron-Bridge and NeMo tables that give tokens/s (containers
 * 25.02-26.06; H100, B200, GB200), from 6.0 ms (Qwen3-235B-A22B on GB200,
 * MOEX-016) to 81 ms; 8.8 ms for Qwen3-30B-A3B on a B200 at micro-batch 1
 * (MOE-Q30-002), which ran 2.75x faster at micro-batch 4 with the same
 * layout. A measured floor, not a model: trainsim does not simulate the
 * host (docs/validation.md, "Mixtures of experts"). */
#define STEP_MOE_LAYER_FLOOR_S 6.0e-3

typedef struct step_result {
	int gpus, nodes;
	int steps;
	double step_time_s;               /* mean over steps */
	double step_p50_s, step_p95_s, step_p99_s;
	double tokens_per_s;
	double mfu, hfu, gpu_util;
	double model_tflops_per_gpu, hardware_tflops_per_gpu;
	double split_s[SPLIT__N];         /* per GPU, averaged; sums to step_time_s */
	wl_memory memory;
	/* DP gradient reduction: bytes per GPU per step and its unhidden time. */
	double dp_bytes_per_gpu;
	double dp_allreduce_s;            /* one full reduction alone (not overlapped), in its
	                                     buckets, each paying NCCL's latency */
	double dp_move_s;                 /* the same as one collective: moving the bytes,
	                                     with NCCL's latency paid once */
	double dp_naive_s;                /* size / NIC bandwidth of the DP group, the naive figure */
	double dp_naive_zone_Bps;         /* > 0: the group spans availability zones and the naive
	                                     figure is over its share of the zone link, this */
	double dp_gather_bytes_per_gpu;   /* ZeRO: the parameter bytes that reduction gathers back
	                                     (not compressed); 0 without ZeRO */
	double dp_ideal_factor;           /* bytes each GPU sends in that reduction over
	                                     dp_bytes_per_gpu by the ring factors: 2(n-1)/n, or
	                                     with ZeRO (n-1)/n (1 + gathered / reduced bytes) */
	double dp_latency_s;              /* NCCL latency the step's DP collectives pay, one
	                                     per bucket (and ZeRO gather) */
	double dp_wire_bytes_per_gpu;     /* bytes each GPU sends for DP per step (ring factors,
	                                     ZeRO gathers included) */
	char dp_algorithm[16];            /* what the DP reduction resolved to ("ring", ...) */
	int dp_ring_n;                    /* n of its 2(n-1)/n factor: DP ranks, or nodes when
	                                     hierarchical */
	bool dp_crosses_nodes;            /* the DP group spans nodes (NICs carry its reduction);
	                                     false inside one node, or dp 1 */
	int dp_ranks_per_node;            /* most ranks of that DP group on one node: the GPUs
	                                     whose proxy threads share the node's NICs in its
	                                     collective (hw_nic_efficiency, as coll.c's ppn);
	                                     0 when dp 1 */
	bool pp_crosses_nodes;            /* some pipeline transfer of the simulated replica goes
	                                     from one node to another (NICs carry it); false when
	                                     each pipeline lies inside one node, or pp 1 */
	bool ep_crosses_nodes;            /* the expert-parallel all-to-all of the simulated
	                                     replica leaves its node (NICs carry it); false inside
	                                     one node, or no expert parallelism */
	int dp_syncs_per_step;            /* gradient reductions per step: 1 with accumulation */
	int dp_zero_group;                /* zero_group: ranks one ZeRO shard set spans, when
	                                     less than the DP group (HSDP); else 0 */
	int dp_zero_replicas;             /* and how many such groups replicate it (else 0) */
	double dp_collectives_per_step;   /* DP collective calls per simulated GPU per step */
	int micro_batches;                /* per replica per step (gradient accumulation) */
	double bubble_ideal;              /* (p-1)/(v*m+p-1): the schedule's textbook bubble */
	double compression_cost_s;        /* compute spent compressing gradients, per GPU per step */
	/* storage, checkpoints, failures */
	step_checkpoint checkpoint;
	double data_bytes_per_step;
	double goodput;                   /* 0..1; 1 when no failures given */
	double job_mtbf_s;                /* 0 = no failures */
	/* with failures: where the wall time outside goodput goes (fractions of
	 * it: work redone since the last durable checkpoint, restarts,
	 * checkpoints), and one restart's length */
	double lost_work_frac, restart_frac, ckpt_frac;
	double restart_s;
	int best_checkpoint_every;        /* 0 = not computed */
	int best_local_checkpoint_every;  /* of the node-local tier, when restarts
	                                   * restore from it; 0 = not computed */
	double time_to_train_s;           /* 0 = not asked */
	double compression_saving_s;      /* >0: compression paid off per step */
	double async_speedup;             /* async DP: speedup over sync; 0 = n/a */
	int staleness;                    /* async DP: steps of staleness */
	uint64_t events;
	double sim_wall_s;
	char bottleneck[768];
	char notes[STEP_MAX_NOTES][512];  /* extra plain sentences */
	int n_notes;
	/* a MoE model: the step per micro-batch and per layer of a stage, the
	 * measure published MoE runs set a floor to; and whether it is below
	 * that floor (faster than any published run: the host would bind) */
	double moe_layer_mb_s;
	bool moe_host_bound;
	/* run.variability: data-parallel replicas the run drew a straggler in
	 * (the simulated one and the others), 0 without stragglers */
	int stragglers_drawn;
	/* timeline of the last simulated step (owned; NULL unless asked) */
	step_interval *timeline;
	size_t n_timeline;
	int timeline_gpus;
} step_result;

typedef struct step_opts {
	bool want_timeline;
	uint64_t max_events;      /* 0 = scenario's or default */
	double max_memory_bytes;  /* 0 = scenario's run.max_memory or the default 4 GiB */
} step_opts;

/* Simulates the scenario. Returns 0, or a negative error with a message in
 * err (limits hit, layouts that cannot run). Before allocating, the events and
 * the simulator's memory it needs are estimated and a layout above the limits
 * (max_events, max_memory_bytes) is refused with SIM_ELIMIT. The result owns its timeline;
 * release it with step_result_release. */
int step_run(const scenario *s, const step_opts *o, step_result *r, char *err, size_t errlen);
void step_result_release(step_result *r);

/* Whether a step all-reduces a tied embedding's gradients between its first
 * and last pipeline stages: a GPT (Llama unties its output layer) on more
 * than one stage, with a trainable embedding (not LoRA), as Megatron's
 * finalize_model_grads does. */
bool step_tied_embedding(const scenario *s);

#endif
