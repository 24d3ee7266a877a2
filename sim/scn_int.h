/* scn_int.h: what the files of the scenario loader share (scn_doc.c: the YAML
 * tree and --set; scn_map.c: the tables; scn_check.c: cross-field checks;
 * scn_write.c: normalized output). Private to the loader: prefix scn__. */
#ifndef TRAINSIM_SCN_INT_H
#define TRAINSIM_SCN_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include "scn.h"
#include "units.h"

/* One way between availability zones, the default (UNVERIFIED). */
#define SCN_ZONE_LATENCY_S 1e-3

/* Limits against hostile or broken input (each has its own error message). */
#define SCN_MAX_DEPTH 64
#define SCN_MAX_NODES 1000000
#define SCN_MAX_SCALAR 65536
#define SCN_MAX_FILE (16u << 20)
#define SCN_MAX_KEYS 4096        /* keys in one mapping */
#define SCN_MAX_ERRORS 20

typedef enum { SCN_SCALAR, SCN_SEQ, SCN_MAP } scn_kind;

typedef struct scn_node scn_node;
struct scn_node {
	scn_kind kind;
	int line, col;           /* 1-based, where the value starts */
	int key_line, key_col;   /* 1-based, of the key (mapping members) */
	const char *set_by;      /* the option that gave the value ("--set", "--vary"),
	                          * a string that outlives the tree; NULL: the file */
	bool plain;              /* scalar written without quotes */
	char *key;               /* mapping members: the key; else NULL */
	unsigned key_hash;
	char *str;               /* scalars: the text, NUL-terminated */
	size_t len;
	scn_node *first, *last;  /* sequences and mappings: children in order */
	scn_node *next;
	size_t n;
};

struct scn_doc {
	char *name;              /* file name for messages */
	scn_node *root;          /* always a mapping */
	size_t nnodes;
};

/* Tree helpers shared by scn_doc.c and scn_set.c. */
unsigned scn__key_hash(const char *s);
void scn__node_free(scn_node *n);          /* n, its children and its siblings */
void scn__append(scn_node *parent, scn_node *c);
/* Parses an override's value text into a detached tree marked set_by opt;
 * NULL after an "OPT: path: ..." message. */
scn_node *scn__parse_value(const char *path, const char *text, const char *opt, FILE *err);

/* True for a plain empty scalar, "~" or "null": a key written without a value. */
bool scn__is_null(const scn_node *n);
/* The member `key` of mapping `map`, or NULL. */
const scn_node *scn__map_get(const scn_node *map, const char *key);
/* The node at a dotted path ("training.tp") or NULL. */
const scn_node *scn__doc_path(const scn_doc *d, const char *dotted);

/* Optimal string alignment distance (edits incl. transpositions). */
size_t scn__edit_distance(const char *a, const char *b);

/* Checks a dotted --set path against the schema (scn_map.c); 0 or -1 with a
 * message ("unknown key 'spead' in cluster.nic; did you mean 'speed'?"). */
int scn__schema_path(const char *dotted, char *err, size_t errlen);

/* Message text with control characters escaped (\n, \t, \xNN), so that a
 * value quoted in a message keeps it on one line and cannot send escape
 * sequences to a terminal (scn_map.c). */
void scn__put_clean(FILE *f, const char *s);
void scn__vput_clean(FILE *f, const char *fmt, va_list ap);

/* Error reporting while mapping: counts, stops printing after SCN_MAX_ERRORS. */
typedef struct scn_ctx {
	FILE *err;
	const char *file;
	int nerr, nwarn;
	bool quiet;
	bool cluster_only;   /* cross-check the cluster alone (scn_load_cluster) */
	const scn_doc *doc;
} scn_ctx;

/* "file:line:col: path: message" (or "--set: path: message", with the option
 * that gave the value); `at` may be
 * NULL (then 1:1), `at_key` points at the key rather than the value. */
void scn__error(scn_ctx *c, const scn_node *at, bool at_key, const char *path,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void scn__warn(scn_ctx *c, const scn_node *at, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Cross-field checks after mapping (scn_check.c); errors through c. */
void scn__check(scn_ctx *c, scenario *s, const scn_doc *d);

/* The schema: one table of rows per section (scn_map.c), read by the mapper,
 * the --set path check and the writer. */
typedef enum {
	F_INT,        /* int, bounds min..max */
	F_U64,        /* uint64_t */
	F_DOUBLE,     /* plain number (count suffixes allowed) */
	F_UNIT,       /* double with a unit of `unit` */
	F_BOOL,
	F_ENUM,       /* int-sized enum; value = index in names[] */
	F_STRING,     /* char[size] */
	F_GPUBASE,    /* a catalog GPU copied into the section first */
	F_SECTION,    /* a nested mapping: sub */
	F_LAYERS      /* model.custom: a list of layer mappings */
} scn_ftype;

enum {
	FL_ZERO_OK = 1,        /* 0 is allowed besides min..max (0 = default/none) */
	FL_REQUIRED = 2,
	FL_NO_EFFECT = 4,      /* accepted, but no model reads it yet: warn */
	FL_GT_MIN = 8,         /* strictly greater than min */
	FL_TRANSFORMER = 16,   /* a transformer dimension: not with model.custom */
	FL_NOBASE_REQ = 32     /* required in a GPU mapping without base */
};

typedef struct scn_section scn_section;
typedef struct scn_field {
	const char *key;
	scn_ftype type;
	size_t off;                  /* into the section's struct */
	unit_kind unit;              /* F_UNIT, F_DOUBLE (UNIT_COUNT) */
	const char *const *names;    /* F_ENUM */
	double min, max;
	unsigned flags;
	size_t size;                 /* F_STRING: buffer size */
	const scn_section *sub;      /* F_SECTION, F_LAYERS */
	const char *example;         /* FL_REQUIRED: shown when missing */
} scn_field;

struct scn_section {
	const char *name;            /* last path component, "" for the root */
	const scn_field *rows;
	size_t nrows;
	const char *scalar_key;      /* a single value stands for this key */
	long present_off;            /* bool set when the section is given; -1 */
};

extern const scn_section scn__root;
extern const char *const scn__precision_names[];

/* The key a single value stands for at a section's path ("cluster.gpu" ->
 * "base"), or NULL. */
const char *scn__schema_scalar_key(const char *dotted);

/* Closest key of a section (for "did you mean"), or NULL when none is close. */
const char *scn__suggest_key(const scn_section *sec, const char *key);
/* "unknown key 'x' in where; did you mean 'y'?" (or the list of keys). */
void scn__unknown_key_msg(const scn_section *sec, const char *where, const char *key,
                          char *buf, size_t len);

/* Whether v is allowed by the field's bounds (and FL_ZERO_OK). */
bool scn__in_range(const scn_field *f, double v);

/* Reads a field's value as a double (ints, enums, bools too) for messages
 * and comparisons. */
double scn__field_get(const scn_field *f, const void *base);
/* Field-wise equality of two structs described by a section (recursive). */
bool scn__section_equal(const scn_section *sec, const void *a, const void *b,
                        char *diff, size_t difflen, const char *path);

#endif
