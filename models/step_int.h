/* step_int.h: state shared by the files of the step model (prefix stp_):
 * step.c (driver, result), step_exec.c (compute streams, pipeline flows,
 * accounting), step_dp.c (data-parallel stream, buckets, ZeRO, optimizer),
 * step_var.c (jitter and stragglers), step_report.c (sentences, timeline). */
#ifndef TRAINSIM_STEP_INT_H
#define TRAINSIM_STEP_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "step.h"
#include "plan.h"
#include "schedule.h"
#include "engine.h"
#include "flow.h"
#include "topo.h"
#include "coll.h"
#include "store.h"

/* Micro-batches per step the timeline labels can hold (19 bits). */
#define STP_MAX_MICROBATCHES SCN_MAX_MICROBATCHES

/* Asynchronous DP (grad_reduce.sync: async): the forward of step t starts
 * only once the update of step t - 1 - STP_ASYNC_STALENESS is applied, so
 * step t+1 computes beside step t's reduction but step t+2 waits for its
 * update. The DP streams start with a step -1's reduction in flight
 * (stp_async_prime), and the first STP_ASYNC_WARMUP steps are simulated but
 * not measured, while the pipeline and the DP streams settle (docs/step.md). */
#define STP_ASYNC_STALENESS 1
#define STP_ASYNC_WARMUP 3
/* The update slot of a step (stp_stage.upd); async DP's primed step is -1. */
#define STP_SLOT(step) (((step) + 3) % 3)

/* State of a pipeline transfer (stp_run.arr): posted by its sender, posted
 * by its receiver (schedules with Megatron's calls), on the wire, arrived.
 * The receiving op clears it. */
enum { STP_ARR_SEND = 1, STP_ARR_RECV = 2, STP_ARR_FLY = 4, STP_ARR_DONE = 8 };
/* bits 4-6 of a transfer's flags: its flows still on the wire */
#define STP_ARR_LEFT_SHIFT 4
#define STP_ARR_LEFT_MASK (7 << STP_ARR_LEFT_SHIFT)

/* Segments of one scheduled op on the compute stream: compute, a blocking TP
 * collective, an async TP collective (started, waited for by the next
 * SEG_TPW), a ZeRO-3 parameter gather to wait for, gradients ready. */
enum { SEG_COMPUTE, SEG_TP, SEG_TPA, SEG_TPW, SEG_Z3WAIT, SEG_GRAD };
enum { PASS_F, PASS_R, PASS_B };
/* Flavour of a compute interval, for the timeline labels. */
enum { LAB_F, LAB_B, LAB_R, LAB_OPT, LAB_COMPRESS, LAB_WAIT };

/* stp_seg.coll of a collective on the context-parallel group, or on the
 * expert-parallel one, not the TP one */
#define STP_COLL_CP 0x80
#define STP_COLL_EP 0x40
typedef struct stp_seg {
	uint8_t kind, lab, coll;
	double val;              /* seconds (compute), bytes (TP, grad), task seq (Z3) */
} stp_seg;
/* stp_seg.coll of the SEG_GRAD that ends a layer's (or head's) backward */
#define STP_GRAD_LAYER_END 1

/* One layer (or head) on the representative GPU of its stage: where its
 * segment templates are (per pass), and what it holds. */
typedef struct stp_cost {
	int off[3], n[3];        /* templates in stp_run.tpl, by PASS_* */
	double grad_bytes;       /* per GPU, gradient dtype, uncompressed */
	double param_bytes;      /* per GPU, training precision */
	double params;           /* per GPU */
} stp_cost;

/* A task of the data-parallel stream, or a side task of the compute stream. */
/* PGAG: overlapped, per layer; XREP: a bucket's shard all-reduced across the
 * ZeRO groups (zero_group, HSDP) after its reduce-scatter inside one, on a
 * stream of its own (another communicator: PyTorch runs each process group's
 * collectives on its own NCCL stream) */
enum { DPT_BUCKET, DPT_Z3AG, DPT_PARAMAG, DPT_PGAG, DPT_XREP };
enum { SIDE_COMPRESS, SIDE_OPT };
typedef struct stp_task {
	uint8_t kind;
	int step;
	double bytes;            /* wire bytes (DP) or HBM bytes (compress) */
	double not_before;       /* DP: earliest start (slowest replica) */
	uint64_t seq;
} stp_task;

typedef struct stp_fifo {
	stp_task *v;
	size_t cap, head, n;
} stp_fifo;

/* What the stage's compute stream is doing or waiting for. */
enum { PH_OPS, PH_DPWAIT, PH_BARRIER, PH_OPT, PH_PAG, PH_TAIL, PH_DONE };
enum { RUN_NONE, RUN_COMPUTE, RUN_TP, RUN_SIDE };

/* Per step (async DP keeps up to three slots busy): the gradient update. */
typedef struct stp_update {
	int step;
	bool ops_done;           /* every bucket of the step has been closed */
	int compress_pending;    /* buckets still being compressed */
	int xrep_pending;        /* zero_group: shards not yet all-reduced across groups */
	int held;                /* async ZeRO-1/2: buckets held behind the last gather */
	uint64_t last_seq;       /* DP seq of the step's last bucket or param AG */
	int state;               /* 0 reducing, 1 optimizer queued, 2 param AG, 3 done */
} stp_update;

/* A pipeline transfer's route to a neighbouring stage: one flow per NIC the
 * GPU owns when it has several and the peer sits at the same local index on
 * another node (NCCL spreads its channels over them), else one. */
#define STP_PP_NICS 4
typedef struct stp_route {
	int links[STP_PP_NICS][CLUSTER_MAX_ROUTE], n[STP_PP_NICS];
	int k;          /* flows: 1..STP_PP_NICS */
	double cap;     /* each flow's rate cap */
} stp_route;

typedef struct stp_stage {
	int idx, gpu;
	int *tp_ranks, *dp_ranks;   /* dp_ranks: the gradient group, dp x cp GPUs */
	int *rep_ranks;             /* zero_group: the same shard in each of the zr groups */
	double rep_mult;            /* sibling replica all-reduces sharing its nodes (x tp) */
	stp_fifo xq;                /* their all-reduces, in order */
	bool x_running;
	size_t x_batch;
	double x_t0;
	int *cp_ranks;              /* the context-parallel group (cp GPUs) */
	int *ep_ranks;              /* the expert-parallel group (ep GPUs) */
	stp_route route_f, route_b;   /* to the next and the previous stage */
	const sched_op *ops;
	/* position */
	int step, op_i, seg_i, nseg, phase, run;
	int tpa_out;             /* async TP collectives in flight */
	double tpa_t0;
	bool op_active;
	stp_seg *segs;
	int *b_done;             /* B ops done this step per local chunk */
	long wait_idx;           /* arrival index waited on, -1 none */
	/* Megatron's blocking call before op op_i (schedules with calls) */
	bool call_ok;            /* the call before op_i has ended */
	uint8_t call_ph;         /* 0 not begun, 1 first group posted (SEQ: sends, RSEQ:
	                            receives), 2 all posted, 3 gathers */
	int call_ns, call_nr;    /* its transfers (arrival indices) */
	long call_send[2], call_recv[2];
	int call_pend;           /* posted transfers not arrived yet */
	int call_ag;             /* scatter-gather all-gathers still to run */
	bool counted;            /* reached PH_DONE this step */
	/* accounting */
	int cat, lab;
	double since, acc[SPLIT__N], acc0[SPLIT__N], acc1[SPLIT__N];
	int nbusy;
	double busy_since, busy_s, busy0, busy1;
	/* data-parallel stream */
	stp_fifo dq, side;
	stp_fifo held;           /* async ZeRO-1/2: closed buckets not queued yet */
	bool dp_running, dp_timer;
	/* waiting on the DP stream while it is held for a slower replica
	 * (dp_timer): counted as idle, as every wait for a straggler is, and
	 * late_s sums those waits, which the lateness model counts as waits on
	 * the DP stream (stp_dp_waited) */
	bool late_idle;
	double late_s;
	/* a wait on the DP stream that began before the slowest replica had done
	 * this stage's work is for it until late_until, whatever the stream
	 * runs meanwhile (stp_enter_dp_wait); late_gen tells its timer's event
	 * from an older one */
	double late_until;
	uint32_t late_gen;
	uint64_t dp_issued, dp_done;
	uint64_t pg_first;       /* overlap_param_gather: DP seq of this step's first gather */
	int pg_n;                /* ... and the number of its buckets (0: none) */
	size_t dp_batch;         /* queued tasks the running collective stands for */
	int red_step1;           /* 1 + step of the last gradient reduction started; 0 none */
	double grad_seen;        /* gradient bytes produced so far this step */
	double dp_t0;
	double dp_comp0;         /* compute time so far when the running DP collective began */
	double sm_debt;          /* compute time owed to SMs a DP collective held (stp_dp) */
	double dp_sm_share;      /* SMs its DP collectives hold / the GPU's SMs */
	double bucket_fill;      /* uncompressed gradient bytes not yet in a bucket */
	double deferred;         /* overlap off: buckets held until the backward ends */
	double deferred_bytes;   /* their bytes */
	stp_update upd[3];   /* by STP_SLOT(step): async keeps two steps in flight */
	int upd_done;            /* last step whose update is complete: -1 none; async -2 */
	double opt_s;            /* optimizer step time */
	double params;           /* parameters held per GPU (before ZeRO sharding) */
	/* variability */
	gsl_rng *rng;
	bool slow;
	double dev, var, zfast, zslow, step_t0;
	double step_wait0;       /* stp_dp_waited at the step's start */
} stp_stage;

typedef struct stp_run {
	const scenario *s;
	bool want_timeline;
	sim *sim;
	flownet *net;
	cluster *cl;
	coll_ctx *cc;
	store *store;                    /* data loader: reads as flows on the same links */
	plan pl;
	sched sc;
	int tp, pp, dp, v, m, G, K;      /* K: steps simulated; dp: gradient group, dp x cp */
	int cp, dpb;                     /* context ranks; replicas taking samples (dp / cp) */
	int ep;                          /* expert-parallel ranks (1: none) */
	double ep_mult;                  /* EP groups the simulated one stands for on its links */
	bool ep_overlap;                 /* the expert all-to-alls are async (training.ep_overlap) */
	bool ep_symmetric;               /* simulate the all-to-all's first node only
	                                    (coll_req.symmetric): a non-blocking fabric */
	bool async;
	bool mb_sync;                    /* gradients reduced after every micro-batch */
	double dp_xcollectives;          /* of dp_collectives, those across the ZeRO groups */
	double dp_gathers;               /* of dp_collectives, the parameter all-gathers */
	int zg, zr;                      /* ZeRO shards over groups of zg of the dp ranks
	                                    (dp_ranks[0..zg-1]), zr = dp / zg of them */
	int warm;                        /* steps before the measured window (async) */
	int stale_max;                   /* async: most updates a step's forward lacked */
	stp_cost *lc;                    /* per layer */
	stp_cost head_first, head_last;
	stp_seg *tpl;                    /* segment templates of every layer and pass */
	int ntpl, tpl_cap;
	stp_stage *st;
	int seg_cap;
	uint8_t *arr;                    /* [dir][gc][mb]: STP_ARR_* flags, 0 none */
	double *arr_t0;                  /* transfer start times, for the timeline only */
	double *act_bytes;               /* message from chunk c to c+1, per TP rank */
	double wire_per_byte;            /* compressed wire bytes per gradient-dtype byte */
	double bucket_bytes;
	coll_algo dp_algo;
	/* progress */
	int cur_step, in_ops, at_barrier, done_count;
	double emb_bytes;                /* tied embedding gradients per GPU; 0 none */
	bool emb_running;                /* their all-reduce, first and last stage */
	int ops_end_count[3];
	double *E;                       /* boundary of each step */
	uint64_t ev_step0;               /* the engine's events when step 0 ended */
	bool failed;
	char err[320];
	/* variability */
	bool var_on;
	double v_mu, v_sigma, v_ex, v_var, v_slowdown;
	int n_fast, n_slow;
	bool rep_slow;
	/* counters for the result */
	double dp_collectives, compress_s;
	double est_events;
	/* timeline */
	step_interval *tl;
	size_t ntl, tl_cap;
	double t_rec;                    /* record intervals ending after this time */
} stp_run;

/* step_exec.c */
/* Moves the stage's compute stream into category `cat` (timeline label lab)
 * at sim_now, closing the previous interval into acc[] (and the timeline). */
void stp_enter(stp_run *r, stp_stage *st, int cat, int lab);
/* One more (+1) or one less (-1) kernel running on the GPU, for gpu_util. */
void stp_busy(stp_run *r, stp_stage *st, int delta);
/* Compute time (SPLIT_COMPUTE) the stage has spent this run up to now. */
double stp_compute_so_far(const stp_stage *st, double now);
/* Time the stage has waited on its DP stream (split dp_comm), now. */
double stp_dp_waited(const stp_stage *st, double now);
/* Brings acc[] and busy_s up to sim_now (window boundaries). */
void stp_flush(stp_run *r, stp_stage *st);
/* A stage starts waiting for its DP stream: dp_comm, or idle while the
 * stream waits for the slowest replica (docs/step.md, variability). */
void stp_enter_dp_wait(stp_run *r, stp_stage *st, int lab);
/* Moves the stage on as far as it can at sim_now: side tasks first, then its
 * op list or its end-of-step phases; returns when it started something or must
 * wait. Idempotent: callers poke it whenever something it may wait for ends. */
void stp_advance(stp_run *r, stp_stage *st);
/* Resets the stage's position for step `step` and issues the data read. */
void stp_start_step(stp_run *r, stp_stage *st, int step);
/* Appends a timeline interval when the timeline is wanted and t1 > t_rec. */
void stp_record(stp_run *r, int gpu_idx, int stream, int cat, double t0, double t1, int lab);

/* step_seg.c */
/* Builds every layer's and head's segment templates; 0 or negative. */
int stp_templates(stp_run *r, char *err, size_t errlen);
/* Segments the longest op of any chunk needs (the size of stp_stage.segs). */
int stp_seg_capacity(const stp_run *r);
/* Fills st->segs for op (issuing its ZeRO-3 gathers). */
void stp_fill_segments(stp_run *r, stp_stage *st, const sched_op *op);
/* TP collectives of one micro-batch through the whole model. */
double stp_tp_collectives(const stp_run *r);

/* step_dp.c */
int stp_fifo_push(stp_fifo *f, const stp_task *t);   /* 0, or -1 out of memory */
void stp_fifo_free(stp_fifo *f);
/* `bytes` of gradients are ready (last micro-batch only, or every one with
 * r->mb_sync): fill buckets;
 * layer_end: the layer's (or head's) backward is over. */
void stp_grad_ready(stp_run *r, stp_stage *st, double bytes, bool layer_end);
/* The stage's ops of this step are done: flush the remaining buckets. */
void stp_ops_finished(stp_run *r, stp_stage *st);
/* A backward is over and its gradients go out now (every_micro_batch):
 * flush its buckets. */
void stp_mb_grads_done(stp_run *r, stp_stage *st);
/* Queues a ZeRO-3 parameter all-gather; its seq is st->dp_issued after. */
void stp_z3_issue(stp_run *r, stp_stage *st, double bytes);
/* A side task (compression, async optimizer) ended on the compute stream. */
void stp_side_done(stp_run *r, stp_stage *st, const stp_task *t);
/* Every bucket of `step` has been reduced. */
bool stp_update_ready(const stp_run *r, const stp_stage *st, int step);
/* PH_PAG / PH_TAIL: true while the stage must still wait for DP work; else
 * moves it to PH_DONE. */
bool stp_dp_idle_wait(stp_run *r, stp_stage *st);
/* The synchronous optimizer step ended: ZeRO-1/2 gather, or done. */
void stp_optimizer_done(stp_run *r, stp_stage *st);
/* Starts the DP stream's next collective if it is idle and may start. */
void stp_dp_pump(stp_run *r, stp_stage *st);
/* The collective task `kind` of `bytes` runs as (step_dp.c). */
void stp_dp_req(const stp_run *r, const stp_stage *st, int kind, double bytes, coll_req *q);
/* Bytes of one ZeRO-1/2 parameter gather: a bucket's elements, in the
 * weights' precision. */
double stp_param_chunk(const stp_run *r);
/* Async DP, before step 0: queues the reduction of a step -1 (docs/step.md). */
void stp_async_prime(stp_run *r, stp_stage *st);
/* overlap_param_gather: queue the gather of the previous update at the start
 * of the stage's step (steady state). */
void stp_pg_prime(stp_run *r, stp_stage *st);
/* The DP seq the forward of layer l (in global chunk gc of stage st) waits
 * for in the step's first micro-batch: the gather of its parameters, layer by
 * layer in forward order; 0 when nothing to wait for. */
uint64_t stp_pg_layer_seq(const stp_run *r, const stp_stage *st, int gc, int l);

/* step_var.c */
/* Jitter parameters and persistent stragglers; 0 or negative (no memory). */
int stp_var_init(stp_run *r);
/* Draws the step's slowest-replica quantiles of a stage. */
void stp_var_step_begin(stp_run *r, stp_stage *st);
/* Duration of a compute task of nominal_s on the stage, jitter applied. */
double stp_var_compute(stp_run *r, stp_stage *st, double nominal_s);
/* How much later than now the slowest other replica is ready (>= 0). */
double stp_var_lateness(const stp_run *r, const stp_stage *st);

/* step_report.c */
/* The notes of the step model that do not depend on the final step time
 * (memory, compression, async DP). */
void stp_report(const scenario *s, step_result *res);
/* After every metric is final (stalls in): the variability note (its
 * percentiles) and the bottleneck sentence. */
void stp_report_final(const scenario *s, step_result *res);
/* Appends a note (printf format) if there is room. */
void stp_note(step_result *res, const char *fmt, ...);

#endif
