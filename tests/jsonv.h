/* jsonv.h: a strict JSON reader for the tests: it rejects what RFC 8259
 * rejects (NaN, trailing commas, control characters in strings, leading
 * zeros) and duplicate keys, and gives a tree to look values up in. */
#ifndef TRAINSIM_JSONV_H
#define TRAINSIM_JSONV_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ } jv_type;

typedef struct jv {
	jv_type type;
	bool b;
	double num;
	char *str;            /* JV_STR (decoded, \u escapes above 0x7f kept as '?') */
	size_t n;             /* JV_ARR, JV_OBJ: members */
	char **keys;          /* JV_OBJ */
	struct jv **items;
} jv;

/* Parses text (one value, surrounded by whitespace only). NULL if invalid,
 * with the byte offset and reason in err. Free with jv_free. */
jv *jv_parse(const char *text, char *err, size_t errlen);
void jv_free(jv *v);
/* Member by dotted path ("split_s.compute"); NULL if absent. */
const jv *jv_get(const jv *v, const char *path);

#endif
