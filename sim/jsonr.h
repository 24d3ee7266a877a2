/* jsonr.h: a small JSON reader, the counterpart of json.h, for the files
 * trainsim itself writes and reads back (Chrome traces for timeline plots).
 * It builds a tree; depth and size are bounded so hostile input is refused. */
#ifndef TRAINSIM_JSONR_H
#define TRAINSIM_JSONR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define JSONR_MAX_DEPTH 64

typedef enum { JSONR_NULL, JSONR_BOOL, JSONR_NUM, JSONR_STR, JSONR_ARR, JSONR_OBJ } jsonr_type;

typedef struct jsonr jsonr;   /* one value and, for containers, its children */

/* Parses text[0..len). On error returns NULL and writes "name:line:col: what"
 * to err. The tree is freed with jsonr_free. */
jsonr *jsonr_parse(const char *text, size_t len, const char *name, FILE *err);
/* Reads and parses a whole file (at most max_bytes). */
jsonr *jsonr_load_file(const char *path, size_t max_bytes, FILE *err);
void jsonr_free(jsonr *v);

jsonr_type jsonr_type_of(const jsonr *v);
/* Members of an object or elements of an array; 0 for other values. */
size_t jsonr_len(const jsonr *v);
const jsonr *jsonr_at(const jsonr *v, size_t i);       /* NULL out of range */
const char *jsonr_key_at(const jsonr *v, size_t i);    /* objects; NULL otherwise */
/* The first member named key of an object, or NULL. */
const jsonr *jsonr_get(const jsonr *v, const char *key);

/* Value accessors; v may be NULL. They return dflt / NULL / false when v is
 * missing or of another type. */
double jsonr_num(const jsonr *v, double dflt);
const char *jsonr_str(const jsonr *v);
bool jsonr_bool(const jsonr *v, bool dflt);

#endif
