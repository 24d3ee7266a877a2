/* scn.h: the scenario loader. libyaml reads the file into a small tree that
 * keeps every node's line and column; `--set` overrides are applied to that
 * tree; a table per section then maps it onto struct scenario, so that every
 * error names the file, line, column, key path and the expected form. */
#ifndef TRAINSIM_SCN_H
#define TRAINSIM_SCN_H

#include <stdio.h>
#include "scenario.h"

typedef struct scn_doc scn_doc;   /* a parsed YAML document with marks */

/* Parses a file (or a string, with `name` used in messages). On error returns
 * NULL and writes "file:line:col: message" lines to `err` (stderr usually). */
scn_doc *scn_doc_load_file(const char *path, FILE *err);
scn_doc *scn_doc_load_string(const char *text, size_t len, const char *name, FILE *err);
scn_doc *scn_doc_clone(const scn_doc *d);
void scn_doc_free(scn_doc *d);

/* Applies one override "dotted.key=value" (value parsed as a YAML scalar,
 * or a flow sequence/mapping). Returns 0, or -1 with a message on `err`
 * ("--set: ..."). */
int scn_doc_set(scn_doc *d, const char *assignment, FILE *err);
/* The same for an override given by another option (sweep's "--vary"): the
 * messages about it, now and when the document is mapped, start "opt: "
 * instead of "--set: ". opt must outlive d (a string literal). */
int scn_doc_set_by(scn_doc *d, const char *assignment, const char *opt, FILE *err);

/* Maps a document onto *out (which it first fills with defaults). Returns 0,
 * or -1 after printing every error found. Warnings (keys without effect yet)
 * are printed too and counted in out->n_warnings; `quiet` suppresses them. */
int scn_from_doc(const scn_doc *d, scenario *out, FILE *err, bool quiet);

/* Convenience: load + overrides + map. */
int scn_load(const char *path, const char *const *sets, int nsets, scenario *out,
             FILE *err, bool quiet);

/* The same for commands that use the cluster alone (`trainsim nccl`): every
 * key is still mapped and type-checked, but only the cluster is
 * cross-checked, so a training layout that does not fit the GPU count (a
 * scenario's nodes changed with --set) does not stop it. */
int scn_from_doc_cluster(const scn_doc *d, scenario *out, FILE *err, bool quiet);
int scn_load_cluster(const char *path, const char *const *sets, int nsets, scenario *out,
                     FILE *err, bool quiet);

/* Whether a scenario built in memory (validate's rows, not a file) passes
 * every check a scenario file gets: writes it as YAML and loads that text.
 * Returns 0, or -1 with the loader's first message (key path and what is
 * wrong, without the position in the written text) in err. */
int scn_check_built(const scenario *s, char *err, size_t errlen);

/* Writes the scenario back as YAML (normalized, SI units written with their
 * unit), such that loading it gives an equal scenario (round-trip). */
int scn_write_yaml(const scenario *s, FILE *out);

/* The name of names[0..n) nearest to the first len characters of word, for
 * "did you mean" (the loader's measure: two edits at most); NULL if none. */
const char *scn_nearest_name(const char *word, size_t len, const char *const *names, int n);

/* The keys of a GPU that differ from the catalog entry of its name
 * ("gemm_eff, hbm_bandwidth") into buf: their number; -1 when the name is
 * not in the catalog (a GPU given field by field). */
int scn_gpu_overrides(const hw_gpu *g, char *buf, size_t len);

#endif
