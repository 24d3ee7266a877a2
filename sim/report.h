/* report.h: the numbers of one simulated configuration (a scenario and its
 * step_result) in the three output formats: a text report for people, one
 * JSON object (the contract of SCENARIO.md) and CSV rows. `run` and `sweep`
 * share these renderers, so a number reads the same wherever it appears. */
#ifndef TRAINSIM_REPORT_H
#define TRAINSIM_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "json.h"
#include "scenario.h"
#include "step.h"

typedef struct report_opts {
	double wall_s;      /* text only: simulator wall time to print; <= 0 = none */
} report_opts;

/* The human report: header, step time, throughput, MFU/HFU/utilization, the
 * time split with bars, memory (a layout that does not fit is shown
 * prominently, the times are still given), DP gradient reduction, checkpoint
 * and goodput lines, bottleneck and notes. o may be NULL. Returns 0, or -1 if
 * a write failed. */
int report_text(FILE *out, const scenario *s, const step_result *r, const report_opts *o);
/* How sure the step time is: how far trainsim's predictions for the
 * scenario's GPU kind (and a dense or MoE model) have erred against
 * published runs (models/val_bands.csv), as a sentence (no newline). */
void report_band_sentence(const scenario *s, char *buf, size_t n);


/* Whether the memory estimate is within its error (WL_MEMORY_ERROR) of the
 * capacity, either way: it cannot say whether the layout fits. */
bool report_memory_close(const wl_memory *m);

/* What the tp_comm row holds for the scenario: "exposed TP comm", "exposed
 * TP/EP comm", "exposed EP comm" (tp 1), ... (at most 21 characters). */
void report_tp_what(const scenario *s, char *buf, size_t n);
/* What a category of the split means, in a few words ("exposed DP gradients"). */
const char *report_split_what(step_split k);

/* Writes the report's members into an object the caller has opened (the
 * sweep puts its varied keys first). Deterministic: no wall-clock fields. */
void report_json_fields(json *j, const scenario *s, const step_result *r);
/* One complete object: {report_json_fields}. */
void report_json(json *j, const scenario *s, const step_result *r);

/* CSV (RFC 4180; numbers formatted as in JSON). A header names the varied
 * keys first, then the fixed columns of every report, the last being
 * `error` (empty on a good row). Rows must pass as many values as the header
 * had keys. Each returns 0, or -1 if a write failed. */
int report_csv_columns(int nkeys);    /* columns of a header with nkeys keys */
int report_csv_header(FILE *out, const char *const *keys, int nkeys);
int report_csv_row(FILE *out, const char *const *values, int nvalues,
                   const scenario *s, const step_result *r);
/* A configuration that could not run (bad layout, limits): the varied values,
 * empty fixed columns and the reason in `error`. */
int report_csv_row_error(FILE *out, const char *const *values, int nvalues,
                         const char *reason);
/* One CSV field, quoted when it holds a comma, quote or line break. */
void report_csv_field(FILE *out, const char *text);

/* What the run costs (fields 0 where not asked, and all 0 when the run never
 * finishes: goodput 0): GPU-hours of the whole run (run.train_tokens,
 * failures' lost time included), and at run.gpu_hour_price its cost and the
 * cost of a million tokens trained, with the same accounting as the time to
 * train. busy_share: the part of the GPU time paid for that computes. */
typedef struct report_cost {
	double gpu_hours, cost, per_mtok, busy_share;
} report_cost;
report_cost report_run_cost(const scenario *s, const step_result *r);

/* n of the 2(n-1)/n factor of the gradient all-reduce: what the step model
 * resolved (r->dp_ring_n) when r is given and knows it; otherwise the DP
 * group for a ring (NCCL's ring passes through each node once, so every edge
 * between nodes carries 2(n-1)/n of the buffer) and the nodes it spans for a
 * hierarchical all-reduce, whose inter-node rings join one GPU per node. */
int report_ring_ranks(const scenario *s, const step_result *r);

/* What every layout of the job holds among its GPUs however it shards: the
 * whole model's weights, gradients and optimizer state (bytes); 0 for LoRA
 * or a custom model. report_gpus_for_state: at least how many GPUs of the
 * scenario's kind that takes, each holding its share and the runtime's
 * reserve (WL_RUNTIME_RESERVE_BYTES) and nothing else; 0 when the
 * scenario's GPUs are enough. */
double report_state_bytes(const scenario *s);
int report_gpus_for_state(const scenario *s, const step_result *r);

/* Writes text wrapped at REPORT_WRAP columns: the first line indented by
 * `first` spaces, the others by `indent`; ends with a newline. REPORT_NBSP
 * in text is printed as a space that never breaks ("1.5<NBSP>s"). */
#define REPORT_NBSP '\a'
#define REPORT_WRAP 88
void report_wrap(FILE *out, int first, int indent, const char *text);

/* Output files that appear whole or not at all: written to a temporary name
 * beside the file and renamed over it on commit. A symlink is written
 * through: the temporary goes beside the file it names, which the rename
 * replaces, and the link stays. A device, FIFO or open descriptor
 * (/dev/null, /dev/stdout) is written in place (appended to): a rename would
 * put a regular file where it was, and there is nothing whole to keep. */
typedef struct report_file report_file;
/* 0 when path may be written: it does not exist, or it is a file we may
 * write; else -1 with the reason (a directory; an existing file its owner
 * made read-only is not replaced). */
int report_target_writable(const char *path, char *err, size_t errlen);
/* Whether two paths name one existing file (the same device and inode). */
bool report_same_file(const char *a, const char *b);

/* Results read back (plot, merge, --resume): a sweep's row is a few KB, so a
 * longer line is not one, and a device (/dev/zero) or FIFO never ends. */
#define REPORT_LINE_MAX (1u << 20)
/* Opens path to read it back: NULL with a message on err (prefixed by who)
 * when it cannot be opened or is not a regular file. */
FILE *report_open_results(const char *path, const char *who, FILE *err);
/* getline that reads at most max bytes of a line: returns its length (the
 * newline included when there is one), 0 at the end, -1 on an error (errno),
 * or -2 when the line runs past max (*line then holds its first max bytes). */
long report_getline(char **line, size_t *cap, FILE *in, size_t max);
/* NULL with a message in err when the file cannot be created. */
report_file *report_file_open(const char *path, char *err, size_t errlen);
FILE *report_file_stream(report_file *f);
/* The name under which what was written can be read back before commit
 * (the temporary, or the path itself when written in place). */
const char *report_file_name(const report_file *f);
/* Flushes; 0 when every write so far succeeded, else -1 with
 * "PATH: write failed: REASON" in err. Call it right after the writes:
 * stdio keeps no reason, and errno holds the failing write's only until
 * something else fails. */
int report_file_check(report_file *f, char *err, size_t errlen);
/* Flushes, closes and renames; frees f. Returns 0, or -1 with a message in
 * err (the temporary is removed and `path` left untouched). */
int report_file_commit(report_file *f, char *err, size_t errlen);
/* Closes and removes the temporary; frees f. NULL is allowed. */
void report_file_abort(report_file *f);

#endif
