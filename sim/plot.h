/* plot.h: the data behind `trainsim plot`: a sweep's results read back, the
 * .dat files that the scripts of plots/ read, and those scripts themselves
 * (embedded at build time, so the program can copy them beside a picture). */
#ifndef TRAINSIM_PLOT_H
#define TRAINSIM_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A results file of `trainsim sweep`, rows sorted by index: CSV with its
 * header, or JSON Lines (--format json), whose nested members are read as
 * the columns CSV names by their dotted path ("split_s.compute"). The
 * varied keys are the columns between `index` and `status`. */
typedef struct plot_table plot_table;

/* NULL with a message on err (neither, no index/status column, bad quoting
 * or JSON). */
plot_table *plot_table_load(const char *path, FILE *err);
void plot_table_free(plot_table *t);
size_t plot_table_nrows(const plot_table *t);
size_t plot_table_ncols(const plot_table *t);
const char *plot_table_colname(const plot_table *t, size_t col);
/* Column index of `name`, or -1. */
int plot_table_find(const plot_table *t, const char *name);
const char *plot_table_cell(const plot_table *t, size_t row, size_t col);
/* The varied keys: columns [first, first + n). */
void plot_table_keys(const plot_table *t, size_t *first, size_t *n);
/* The scenario every row was run from, for a picture's title: its name
 * without the parts that state a varied key's value; "" when the rows come
 * from several scenarios or name none. */
void plot_table_title(const plot_table *t, char *buf, size_t cap);
/* Whether the file is the CSV of `trainsim validate --format csv` (first
 * column `id`, with `published` and `predicted`) rather than a sweep's. */
bool plot_table_is_validation(const plot_table *t);

typedef struct plot_axis {
	char label[160];      /* x axis title */
	bool log;             /* a log x axis suits the values */
} plot_axis;

/* Writes the data of the speed plot: one block per series (the rows sharing
 * the values of the series keys), each sorted along x. x_key NULL: the
 * varied key that ends in "nic.speed", else the first. series_key NULL: every
 * other varied key; "" for a single series. Bandwidths on x are converted to
 * Gb/s. Returns 0, or -1 with a message on err. */
int plot_write_speed(const plot_table *t, const char *x_key, const char *series_key, FILE *out,
                     plot_axis *axis, FILE *err);

/* Writes the data of the stacked bars: a header line, then one line per
 * configuration with its label (the values of the varied keys; without
 * any, the scenario's name; with several tables, the scenario's name before
 * the values) and its split_s.* columns: every category of the step in its
 * fixed place (plot_write_colours), named "" where it is zero in every row,
 * then other split_s.* columns not zero everywhere. The rows of ts[0]
 * first, then ts[1]'s, ... percent: each row as shares of its step (%). */
int plot_write_split(const plot_table *const *ts, size_t nt, bool percent, FILE *out,
                     FILE *err);

/* Writes the data of the parity plot from validate's CSV: one block per
 * family (its title first), one line per predicted row that is not a
 * parameter source: published, predicted, error %, id. Returns 0, or -1 with
 * a message on err (not validate's CSV, nothing predicted). */
int plot_write_parity(const plot_table *t, FILE *out, FILE *err);

/* Writes the data of the timeline from a Chrome trace (trainsim run --trace;
 * "X" events: ts and dur in microseconds, pid = GPU, tid = stream, cat = the
 * kind of work): one block per category, one row per (pid, tid) track;
 * times in seconds from the first event. from_s < to_s: only that window of
 * the step, events clipped to it (to_s <= 0: to the end). title (NULL: not
 * asked): the run's scenario and --set overrides, from the trace's otherData
 * ("" when it has none). */
int plot_write_timeline(const char *trace_path, double from_s, double to_s, FILE *out,
                        FILE *err, char *title, size_t title_cap);

/* The categories of a step's time split (step.h's order: compute, tp_comm,
 * ..., idle) keep one colour in every picture: the split's columns and the
 * timeline's blocks come in that order, each in its place even when absent,
 * and the k-th (from 1) is drawn with gnuplot's linetype k. Writes the
 * gnuplot lines that give those linetypes the categories' colours. */
void plot_write_colours(FILE *out);
/* The timeline's: the linetypes after those, which draw a compute op's
 * forward, backward and recompute (blocks SPLIT__N to SPLIT__N + 2). */
void plot_write_phase_colours(FILE *out);

/* Whether drawing PICTURE (NAME.png|svg, beside it NAME.dat and NAME.gp)
 * would write over INPUT: what of it would ("the data file (.dat)"), or
 * NULL. */
const char *plot_output_clash(const char *input, const char *picture);

/* The gnuplot script of a kind ("speed", "split", "timeline", "parity"), or NULL.
 * Generated from plots/<kind>.gp into plot_scripts.c. */
const char *plot_script(const char *kind);

#endif
