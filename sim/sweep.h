/* sweep.h: the pure logic of parameter sweeps: --vary lists and their cross
 * product in a fixed order, shards, the rows of a results file (CSV or JSON
 * Lines), resuming from such a file and merging several. No simulation here:
 * cmd_sweep.c plugs step_run in; everything here is testable on its own. */
#ifndef TRAINSIM_SWEEP_H
#define TRAINSIM_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "json.h"

/* A sweep never has more points than this: the resume bitmap and the plan
 * stay small, and a typo such as --vary a=1..1000000 is refused up front. */
#define SWEEP_MAX_POINTS 10000000u
#define SWEEP_MAX_AXES 32

typedef enum { SWEEP_CSV, SWEEP_JSON } sweep_format;

/* ---- the plan: axes and their cross product ---- */

typedef struct sweep_plan sweep_plan;

sweep_plan *sweep_plan_new(void);            /* NULL on OOM; free with sweep_plan_free */
void sweep_plan_free(sweep_plan *p);

/* Adds an axis from "KEY=V1,V2,..." (commas inside [] {} or quotes do not
 * split, so flow sequences can be values). Returns 0, or -1 with a message
 * on err: no '=', an empty key or value, a line break in a value (a row is
 * one line), a key varied twice, too many points. */
int sweep_plan_add(sweep_plan *p, const char *spec, FILE *err);

/* The sweep's fingerprint: a hash of the base scenario file and its --set,
 * written into every row ("sweep" column) so that --resume and merge refuse
 * rows of another sweep. */
void sweep_plan_set_id(sweep_plan *p, const char *id);
const char *sweep_plan_id(const sweep_plan *p);
/* FNV-1a 64 of the file at path and the overrides, as 16 hex digits into
 * id[17]; -1 when the file cannot be read. */
int sweep_fingerprint(const char *path, const char *const *sets, int nsets, char id[17]);

size_t sweep_plan_naxes(const sweep_plan *p);
const char *sweep_plan_key(const sweep_plan *p, size_t axis);
/* Number of points: the product of the axes' lengths (1 with no axis). */
size_t sweep_plan_npoints(const sweep_plan *p);
/* Value of `axis` at point `index`. The first --vary is the outermost loop,
 * the last varies fastest, so the order never depends on anything else. */
const char *sweep_plan_value(const sweep_plan *p, size_t index, size_t axis);
/* The values of one axis, in order: their number, and the v-th. */
size_t sweep_plan_nvalues(const sweep_plan *p, size_t axis);
const char *sweep_plan_axis_value(const sweep_plan *p, size_t axis, size_t v);

/* ---- shards: the K-th of N, by index modulo N ---- */

typedef struct sweep_shard {
	unsigned k, n;                       /* 1 <= k <= n; 1/1 = everything */
} sweep_shard;

/* Parses "K/N" (K counts from 1). Returns 0, or -1 with a message on err. */
int sweep_shard_parse(const char *text, sweep_shard *out, FILE *err);
/* True when point `index` belongs to the shard: index % n == k - 1. Round
 * robin rather than blocks, so that expensive corners of a sweep spread. */
bool sweep_shard_has(const sweep_shard *s, size_t index);

/* ---- rows ----
 * A row is the point's index, its varied keys' values and its status ("ok",
 * "no_fit", "invalid", "crashed"), then the report's fields (report.h). The
 * functions below write those leading columns, so that rows and the checks
 * of --resume agree on them. */

/* CSV: the names of the leading columns ("index", the keys, "status",
 * "sweep") for report_csv_header. names has room for sweep_plan_naxes(p) + 3 entries;
 * returns how many were set. */
int sweep_csv_names(const sweep_plan *p, const char **names);
/* CSV: the leading values of point `index` for report_csv_row. idx is a
 * buffer of at least 24 bytes that holds the index text; vals has room for
 * sweep_plan_naxes(p) + 3 entries. Returns how many were set. */
int sweep_csv_values(const sweep_plan *p, size_t index, const char *status, char *idx,
                     const char **vals);
/* JSON: writes "index" and the varied keys into an object the caller has
 * opened; a value that is a plain JSON number is written as a number, any
 * other ("100Gbps") as a string. */
void sweep_json_keys(json *j, const sweep_plan *p, size_t index);

/* The text every row of point `index` starts with (index and varied keys),
 * malloc'd, for checking a results file against a plan. The next character
 * of a real row is ','. NULL on OOM. */
char *sweep_row_prefix(const sweep_plan *p, sweep_format f, size_t index);

/* Reads the point index at the start of a row line; false when the line is
 * not a row (a header, a blank line, garbage). */
bool sweep_line_index(const char *line, size_t len, size_t *index);

/* The reason in the row of a point that did not run ("invalid", "crashed"):
 * the CSV's last field with its quotes undone, or the JSON's "error" with
 * its escapes undone, into buf (cut to cap). False when the row has none
 * (the last field is empty: a row of a point that ran). */
bool sweep_row_error(const char *line, size_t len, sweep_format f, char *buf, size_t cap);

/* ---- results files ---- */

/* Prepares an existing results file (fd open for reading and writing) for
 * --resume: checks that its header equals `header` (CSV; "" for JSON),
 * checks that every row's index and keys match the plan, marks done[index]
 * for each complete row, and truncates a half-written last line (the trace
 * of an interruption) so that appending starts on a fresh line. An empty
 * file gets nothing marked. Returns the number of rows found, or -1 with a
 * message on err (rows of another sweep, a different header). */
long sweep_resume_scan(int fd, const char *path, const sweep_plan *p, sweep_format f,
                       const char *header, bool *done, FILE *err);

/* Joins results files (shards, resumed runs) into `out`: rows deduplicated by
 * index and sorted, the CSV header once. All inputs must have the same format
 * and header; two different rows for one index are an error (they come from
 * different sweeps). A half-written last line is dropped with a warning.
 * Written to a temporary file renamed onto `out`. Returns 0 or -1. */
int sweep_merge(const char *out, const char *const *in, size_t nin, FILE *err);

/* Writes all of buf to fd with as few write() calls as the kernel allows
 * (one for a regular file), retrying on EINTR. Returns 0 or -1 (errno). */
int sweep_write_all(int fd, const char *buf, size_t len);

#endif
