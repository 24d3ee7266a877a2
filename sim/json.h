/* json.h: the one JSON emitter of the program (reports, nccl tables, traces,
 * sweep rows). It escapes strings, inserts commas, and never writes NaN or
 * infinity (they become null), so every output is valid JSON. */
#ifndef TRAINSIM_JSON_H
#define TRAINSIM_JSON_H

#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct json json;

/* Writes to `out` (not owned). pretty = indent nested values. NULL on OOM. */
json *json_new(FILE *out, bool pretty);
/* Frees the emitter; returns 0 if every container was closed and every write
 * succeeded, negative otherwise. */
int json_free(json *j);

void json_obj_begin(json *j);
void json_obj_end(json *j);
void json_arr_begin(json *j);
void json_arr_end(json *j);
/* Inside an object: the key of the next value. */
void json_key(json *j, const char *key);
void json_str(json *j, const char *s);
void json_num(json *j, double v);      /* %.17g-free: shortest round-trip form */
void json_int(json *j, int64_t v);
void json_bool(json *j, bool v);
void json_null(json *j);

/* Shorthands for key + value. */
void json_kstr(json *j, const char *key, const char *s);
void json_knum(json *j, const char *key, double v);
void json_kint(json *j, const char *key, int64_t v);
void json_kbool(json *j, const char *key, bool v);

/* Formats v as the emitter would (into buf of size >= 32); used by CSV too so
 * that numbers read the same in every format. */
void json_fmt_num(char *buf, size_t len, double v);

#endif
