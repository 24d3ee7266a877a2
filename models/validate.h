/* validate.h: published measurements (tests/validation/published.csv) turned
 * into simulations: read the CSV, build a scenario in memory for each row that
 * describes a training run (or a GPU kernel the workload models), predict the
 * published metric in the publication's own convention, and compare. The
 * `trainsim validate` command (sim/cmd_validate.c) prints the result. */
#ifndef TRAINSIM_VALIDATE_H
#define TRAINSIM_VALIDATE_H

#include <stddef.h>
#include "scenario.h"

/* One row of published.csv; numeric fields are 0 when empty. */
typedef struct val_row {
	char id[80];            /* longer ids are refused (val_csv.c) */
	char family[80];        /* the id without its trailing -NNN */
	char source[1024];      /* truncated */
	char hardware[1024];
	int gpus;
	bool gpus_are_nodes;    /* the gpus cell counted nodes ("8 nodes"): gpus x GPUs a node */
	double params_b;
	int layers, hidden, heads, seq_len, global_batch, micro_batch, tp, pp, dp;
	int kv_heads;           /* said in the heads cell ("64 (8 KV)", "32, GQA 8"), else 0 */
	bool two_models;        /* the hidden cell gives two labelled widths ("6144 (ViT) /
	                         * 12288 (GPT)"): an encoder beside a language model */
	double batch_tokens;    /* a global batch given in tokens ("4M tokens"), else 0 */
	char other[2048];       /* other_parallel, truncated */
	char precision[256];
	char recompute[128];
	char metric[128];       /* longer names are refused */
	double value;
	bool has_value;
	char unit[160];
	char verified[32];
	int line;               /* in the file, for messages */
	char unread[160];       /* a cell that cannot be read as meant ("micro_batch '16.5'
	                         * is not a whole number"): the row is not simulated */
} val_row;

/* Reads the CSV at `path` (RFC 4180 quoting, header line required). On
 * success *rows (owned by the caller: free()) holds *n rows and 0 is
 * returned; otherwise -1 with "path:line: what" in err. */
int val_read(const char *path, val_row **rows, size_t *n, char *err, size_t errlen);
/* Same from a string (tests). */
int val_parse(const char *text, const char *name, val_row **rows, size_t *n, char *err,
              size_t errlen);

/* What a row asks to predict. */
typedef enum {
	VM_NONE,
	VM_HW_TFLOPS,      /* achieved/hw TFLOP/s per GPU, paper formula with recompute */
	VM_PCT_PEAK,       /* the same as a percentage of the dense peak */
	VM_AGG_PFLOPS,     /* the same summed over all GPUs, PFLOP/s */
	VM_MFU, VM_HFU,    /* % (Korthikanti conventions) */
	VM_ITER_TIME,      /* step time */
	VM_LAYER_FWD, VM_LAYER_BWD, VM_LAYER_FWDBWD,   /* one layer, TP comm included */
	VM_RECOMPUTE_GAIN, /* % throughput of this row's layout over full recompute */
	VM_CKPT_SIZE,      /* bytes of a full checkpoint */
	VM_GEMM,           /* TFLOP/s of one GEMM */
	VM_HBM_BW,         /* streaming HBM bandwidth */
	VM_FLASH_FWD,      /* TFLOP/s of a flash-attention forward */
	VM_FLASH_BWD,      /* TFLOP/s of its backward (2.5x the forward's FLOPs) */
	VM_MODEL_TFLOPS,   /* model TFLOP/s per GPU (no recompute) */
	VM_TOKENS,         /* tokens per second, whole job */
	VM_SAMPLES,        /* sequences per second, whole job */
	VM_COLL_BUSBW,     /* nccl-tests bus bandwidth of one collective size */
	VM_COLL_ALGBW,     /* nccl-tests algorithm bandwidth */
	VM_COLL_TIME,      /* nccl-tests time of one collective */
	VM_COLL_AVG_BUSBW, /* nccl-tests "Avg bus bandwidth" over a size sweep (x2 steps) */
	VM_SCALING_EFF     /* % work per GPU-second against the series' baseline row */
} val_metric;

/* A row made ready to simulate. */
typedef struct val_case {
	scenario s;             /* built in memory; release with scn_release */
	val_metric metric;
	double published_si;    /* the published value in SI units (s, FLOP/s, B, %) */
	double unit_scale;      /* published unit = SI / unit_scale */
	char config[128];       /* short description of the layout */
	bool assumed;           /* a value was inferred (marked '*' in config) */
	double gemm_m, gemm_n, gemm_k, attn_hd, attn_seq;   /* kernel rows */
	double attn_bh;          /* batch x heads of an attention row */
	bool attn_causal;
	bool attn_fa2;           /* the row names FlashAttention-2's kernels */
	bool causal_count;      /* the publication counts the causal half of the
	                           attention scores (NVIDIA NeMo / Megatron-Bridge) */
	bool param_source;      /* the row is a source of a model parameter */
	bool per_gpu;           /* VM_TOKENS / VM_SAMPLES published per GPU */
	bool per_node;          /* ... or per node ("tokens/s/node") */
	int peak_prec;          /* MFU / HFU / % of peak against this precision's peak
	                           ("BF16 MFU" of an fp8 run); -1: the run's own */
	int coll_op, coll_algo; /* VM_COLL_*: coll_op / coll_algo of coll.h */
	int coll_proto;         /* coll_proto of coll.h: NCCL_PROTO, 0 = NCCL's choice */
	double coll_bytes;      /* its size (the sweep's first for VM_COLL_AVG_BUSBW) */
	double coll_bytes_hi;   /* VM_COLL_AVG_BUSBW: the sweep's last size */
	int gpus_per_thread;    /* nccl-tests -g (1: one GPU per process) */
	const char *unit;       /* the unit compared in, when not the row's (static) */
	scenario base;          /* VM_SCALING_EFF: the baseline row's layout */
	double work, base_work; /* VM_SCALING_EFF: parameters x sequences per step */
	bool has_base;          /* base is set (val_link_baseline) */
} val_case;

/* What a metric is, in words ("tokens per second"), for --show. */
const char *val_metric_describe(val_metric m);

/* Whether a metric is a whole training step's (not a kernel, a layer, a
 * checkpoint size or an nccl-tests row). */
bool val_step_metric(val_metric m);

/* Whether the row's hardware text says its GPUs ran under a power limit
 * below their rating ("500W power limit", "power limited", "lower TDP"):
 * the catalog's parts run at their full power, so such a prediction is
 * optimistic by the clock the cap takes away (no power model). */
bool val_power_capped(const val_row *r);
/* The power limit the row's hardware text gives its GPUs, in watts ("default
 * 500W power limit", "power limit of 450 W", "capped at 500W"); 0 when it
 * names none. validate runs the row's GPUs at it (gpu.power_limit). */
double val_power_limit_w(const val_row *r);

/* Builds the case of a row. Returns 0, or -1 with why the row cannot be
 * simulated in `why` (not a training run, missing fields, unknown hardware). */
int val_build(const val_row *r, val_case *c, char *why, size_t whylen);

/* A scaling-efficiency row (VM_SCALING_EFF) is measured against another row
 * of its series: the same source and GPU, the series' 100% row of the same
 * metric, else the fewest GPUs (the same model shape first). Finds it among
 * rows[0..n) for rows[i], whose case is c, and sets c->base. Returns 0, or -1
 * with why (no baseline; or rows[i] is the baseline itself, 100% by
 * definition). */
int val_link_baseline(const val_row *rows, size_t n, size_t i, val_case *c, char *why,
                      size_t whylen);

/* Predicts the metric of a built case, in SI units. Simulations are cached
 * in `cache` (may be NULL) by layout, so rows of one run simulate once.
 * Returns 0, or -1 with a message (the step simulation failed). */
typedef struct val_cache val_cache;
val_cache *val_cache_new(void);
void val_cache_free(val_cache *c);
int val_predict(const val_case *c, val_cache *cache, double *pred_si, char *err, size_t errlen);

/* How far trainsim's predicted speed of a training step has erred on one GPU
 * kind, over the published runs of tests/validation (`trainsim validate
 * --by-gpu`; the table is models/val_bands.csv, rebuilt by `make
 * validation-bands`): + when it predicted the step faster than published. */
typedef struct val_band {
	const char *gpu;        /* the catalog's name */
	bool moe;               /* runs of mixture-of-experts models, else dense ones */
	int runs, families;     /* runs (one per layout) and their sources */
	double median_pct, q1_pct, q3_pct;
} val_band;
extern const val_band val_bands[];
extern const size_t val_nbands;
/* The band of a GPU kind for a dense or MoE model, NULL when no published
 * run of it is in the table. */
const val_band *val_band_find(const char *gpu, bool moe);

/* The published family of each id prefix the goal of issue 4 is about. */
bool val_goal_family(const char *family);
/* The families of issue 3's goal: all_reduce busbw by size on one node. */
bool val_coll_goal_family(const char *family);

#endif
