/* store.h: storage on the same timeline as compute and communication: data
 * loading (reads as flows on the cluster's links), checkpoint writes (sync or
 * async, contending for NICs and storage), and failures (Monte Carlo over a
 * long run: job MTBF, goodput, best checkpoint interval). */
#ifndef TRAINSIM_STORE_H
#define TRAINSIM_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include "engine.h"
#include "scenario.h"
#include "step.h"
#include "topo.h"

/* ---------------------------------------------------------------- layout */

/* GPU id of (tensor rank t, pipeline stage p, data-parallel replica d) under
 * the scenario's placement; TP is always innermost. */
int store_gpu_of(const scenario *s, int t, int p, int d);
/* GPU j of stage p's gradient group (tensor rank 0): context rank j % cp of
 * replica j / cp, j < scn_dp_grad(s). */
int store_grad_gpu(const scenario *s, int p, int j);

/* ---------------------------------------------------------- data loading */

/* Closed-form plan of one step's data reads (no contention). */
typedef struct store_data_plan {
	scn_data_source source;      /* effective: local_cache when cold reads storage */
	bool cold_cache;             /* local_cache requested but not warm: first epoch */
	double bytes_per_step;       /* global_batch * sample_bytes */
	int readers;                 /* reading GPUs: first stage, TP rank 0, of each replica */
	int reader_nodes;
	double bytes_per_reader;
	int rounds;                  /* request rounds per reader and batch */
	double latency_s;            /* rounds * per-request latency */
	double bandwidth_Bps;        /* bottleneck of the read path, all readers together */
	double read_s;               /* latency_s + bytes_per_step / bandwidth_Bps */
	const char *bottleneck;      /* "storage aggregate bandwidth", ... (static string) */
} store_data_plan;

/* Fills *p from the scenario. Returns 0, or -1 with a message in err when the
 * data source cannot be used (local_cache without cluster.local_cache). */
int store_data_plan_get(const scenario *s, store_data_plan *p, char *err, size_t errlen);

/* The data loader inside a step simulation: its reads are flows on the
 * cluster's links, so they contend with the step's own traffic. */
typedef struct store store;
typedef void (*store_ready_fn)(sim *e, void *ctx, uint64_t arg);

/* Creates a loader for scenario s on cluster cl driven by engine e (none of
 * them owned; they must outlive the loader). NULL with a message in err. */
store *store_new(const scenario *s, cluster *cl, sim *e, char *err, size_t errlen);
void store_free(store *st);

/* Called at the start of step `step` (0, 1, 2, ... in order). Starts the read
 * of the batch `prefetch` steps ahead (of this step's batch when prefetch is
 * 0) and calls ready(e, ctx, arg) as soon as this step's batch is on the GPUs:
 * at once when it is already there (the first `prefetch` batches are in the
 * buffer when the run starts, as in steady state), later otherwise. The wait
 * is the step's data stall. Returns 0 or a negative error. */
int store_data_issue(store *st, int step, store_ready_fn ready, void *ctx, uint64_t arg);

typedef struct store_data_stats {
	int batches_read;            /* read batches completed in the simulation */
	double read_s_mean;          /* mean time of one batch's reads (start to last byte) */
	double stall_s_total;        /* waits measured by store_data_issue */
	int steps;                   /* store_data_issue calls */
	double bytes_read;
} store_data_stats;
void store_data_stats_get(const store *st, store_data_stats *out);

/* Steady-state data stall per step when a step takes period_s without it.
 * A reader reads one batch at a time (the requests of a batch in parallel):
 * prefetch 0 waits for the whole read R; prefetch >= 1 hides it while R fits
 * in a step and stalls R - period_s per step once it does not (the buffer
 * drains, however deep). R is the mean read measured in the simulation, under
 * its traffic, or the closed-form plan's when no read ended. */
double store_data_steady_stall(const store *st, double period_s);

/* ----------------------------------------------------------- checkpoints */

/* Bytes of one checkpoint of the whole job: bytes_override, or
 * wl_checkpoint_bytes for the content (sharded = full state, written by all). */
double store_checkpoint_bytes(const scenario *s);

typedef struct store_ckpt_opts {
	bool with_dp_traffic;        /* run the DP gradient reduction concurrently */
	bool force_sync;             /* ignore mode: async (for what-if comparisons) */
} store_ckpt_opts;

typedef struct store_ckpt_result {
	double bytes;                /* whole job */
	int writers, writer_nodes;
	double node_bytes_max;       /* most loaded node */
	double floor_s;              /* bytes / storage aggregate bandwidth */
	double snapshot_s;           /* async: blocking GPU->host copy; sync: 0 */
	double write_s;              /* start to last byte on storage */
	double stall_s;              /* training time lost per checkpoint */
	bool async_fallback;         /* async asked but host memory too small: sync */
	double dp_alone_s;           /* DP reduction alone (with_dp_traffic) */
	double dp_with_ckpt_s;       /* DP reduction while the checkpoint writes */
	double load_s;               /* reading it back on a restart: every GPU its state
	                              * from storage (its shard, or with whole replicas
	                              * each replica the tp x pp shards) */
	const char *bottleneck;      /* what limits write_s (static string) */
} store_ckpt_result;

/* Simulates one checkpoint on a fresh engine and cluster: flows from every
 * writing GPU through its node to storage (sync: GPU->host->storage streamed,
 * training waits; async: blocking GPU->host snapshot over PCIe, then
 * background writes). With o->with_dp_traffic the DP gradient all-reduce of
 * one step starts with the writes (with the background writes, for async)
 * and both durations are reported. Returns 0 or negative with err. */
int store_checkpoint_cost(const scenario *s, const store_ckpt_opts *o, store_ckpt_result *r,
                          char *err, size_t errlen);

/* The node-local tier (training.checkpoint.local_every): every GPU writes
 * what it holds (its weights and optimizer state, as the reload counts them)
 * to its node's cluster.local_cache drive and, with local_copies > 1, sends
 * copies to the drives of the next nodes over the training network (sync:
 * streamed from the GPU; async: a snapshot to host memory, then background
 * writes). r->bytes counts every copy; r->load_s, when failures are drawn
 * and there is a copy on a peer, restores the replaced node's GPUs from the
 * peer's drive and every other GPU from its own. */
int store_local_checkpoint_cost(const scenario *s, store_ckpt_result *r, char *err,
                                size_t errlen);

/* The checkpoint's share of a step of step_time_s (without checkpoints):
 * fills ck (bytes, write_s, stall_s, every, amortized_s). Async stall adds
 * the wait when the background write outlasts the interval, and the slowdown
 * of the DP reductions it overlaps when storage shares the training NICs.
 * every = 0 gives zeros. Returns 0 or negative with err. */
int store_checkpoint(const scenario *s, double step_time_s, step_checkpoint *ck,
                     store_ckpt_result *detail, char *err, size_t errlen);
/* The same with the node-local tier's cost in *local (when local_every > 0;
 * zeros otherwise): ck's amortized_s then holds both tiers. */
int store_checkpoint_tiers(const scenario *s, double step_time_s, step_checkpoint *ck,
                           store_ckpt_result *detail, store_ckpt_result *local, char *err,
                           size_t errlen);

/* -------------------------------------------------------------- failures */

/* Training time lost per checkpoint written every `every` steps: the
 * cost r measured (sync: the write; async: the snapshot), plus, async, the
 * wait for a background write that outlasts the interval and the slower
 * gradient reductions it overlaps. */
double store_ckpt_stall(const store_ckpt_result *r, bool async, int every, double step_time_s);

typedef struct store_fail_opts {
	uint64_t seed;               /* 0 = the scenario's run.seed */
	int reps;                    /* replications of a run; 0 = default */
	bool search_best;            /* search the interval that maximizes goodput */
	/* the checkpoint's cost as measured: the search recomputes the stall at
	 * each interval it tries (async: it depends on the interval); NULL: the
	 * stall of ck at every interval */
	const store_ckpt_result *ckpt;
	bool ckpt_async;
	const store_ckpt_result *local;   /* the node-local tier's cost, or NULL */
} store_fail_opts;

typedef struct store_fail_result {
	double rate_per_s;           /* job interruption rate: GPUs, nodes, links together */
	double job_mtbf_s;           /* 1 / rate; 0 = no failures */
	double share_gpu, share_node, share_link;   /* fractions of the drawn failures */
	double interval_s;           /* work between checkpoints: every * step_time */
	double delta_s;              /* checkpoint cost (stall) */
	double restart_s;            /* each restart: failures.restart + the reload */
	double reload_s;             /* of it, reading the checkpoint back */
	double goodput;              /* useful time / wall time, long-run mean */
	double goodput_ci;           /* 95% half-width over replications */
	double lost_work_frac, restart_frac, ckpt_frac;   /* where the rest went */
	double time_to_train_s;      /* 0 unless run.train_tokens */
	double failures_to_train;    /* mean interruptions while training */
	int best_every;              /* 0 unless searched */
	bool best_is_local;          /* best_every is of the node-local tier */
	bool local_recovers;         /* restarts restore from the node-local tier */
	double best_goodput;
	double best_every_lo, best_every_hi;   /* spread of the argmax over batches */
	double young_s, daly_s;      /* optimal intervals, seconds of work */
	double young_every, daly_every;        /* the same in steps */
} store_fail_result;

/* Monte Carlo of a long run: failures drawn (GSL, exponential) from the
 * per-GPU, per-node and per-link MTBFs, restart time, work lost back to the
 * last durable checkpoint (async: durable when its background write ends).
 * step_time_s is the step without checkpoints; ck from store_checkpoint.
 * Returns 0 or negative. With no failures configured: goodput is the
 * checkpoint-only efficiency and job_mtbf_s is 0. */
int store_failures(const scenario *s, double step_time_s, const step_checkpoint *ck,
                   const store_fail_opts *o, store_fail_result *r);

/* Young (1974) and Daly (2006, eq. 37) optimal intervals for a checkpoint
 * cost delta_s and a mean time to interrupt mtbf_s (cost-models.md 7). */
double store_young_s(double delta_s, double mtbf_s);
double store_daly_s(double delta_s, double mtbf_s);

/* ---------------------------------------------------------- step helper */

/* What the step calls after its simulation: given the step time without the
 * checkpoint share (data stall included), fills r->checkpoint, adds the
 * amortized checkpoint stall to r->split_s[SPLIT_CHECKPOINT] and to
 * r->step_time_s, fills data_bytes_per_step, goodput, job_mtbf_s,
 * best_checkpoint_every, time_to_train_s, and appends notes (one sentence
 * each for data, checkpoint and failures when they matter). It leaves the
 * metrics derived from the step time (gpu_util, MFU, throughput,
 * percentiles) to the caller, which computes them once from the final step
 * time afterwards. Returns 0 or negative with err. */
int store_account(const scenario *s, step_result *r, char *err, size_t errlen);

#endif
