/* json.c: the streaming JSON emitter behind json.h. It keeps a stack of open
 * containers to place commas and indentation, escapes strings (invalid UTF-8
 * becomes U+FFFD), and writes non-finite numbers as null. */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	bool is_obj;
	bool have_key;          /* object: a key waits for its value */
	int64_t count;          /* members or elements written */
} json_level;

struct json {
	FILE *out;
	bool pretty, failed;
	json_level *stack;
	int depth, cap;
};

json *json_new(FILE *out, bool pretty)
{
	json *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	j->out = out;
	j->pretty = pretty;
	return j;
}

int json_free(json *j)
{
	if (!j)
		return -1;
	bool ok = !j->failed && j->depth == 0 && fflush(j->out) == 0 && !ferror(j->out);
	free(j->stack);
	free(j);
	return ok ? 0 : -1;
}

static void json_write(json *j, const char *p, size_t n)
{
	if (n && fwrite(p, 1, n, j->out) != n)
		j->failed = true;
}

static void json_puts(json *j, const char *s) { json_write(j, s, strlen(s)); }

static void json_newline(json *j, int depth)
{
	static const char spaces[] = "                                ";
	json_write(j, "\n", 1);
	for (int d = 0; d < depth; d++)
		json_write(j, spaces, 2);
}

/* Writes what must come before a value: a comma and indentation in an
 * array; nothing after a key. A value in an object without a key is a
 * caller's bug: recorded, reported by json_free. */
static void json_before_value(json *j)
{
	if (j->depth == 0)
		return;
	json_level *lv = &j->stack[j->depth - 1];
	if (lv->is_obj) {
		if (!lv->have_key)
			j->failed = true;
		lv->have_key = false;
		return;
	}
	if (lv->count++ > 0)
		json_write(j, ",", 1);
	if (j->pretty)
		json_newline(j, j->depth);
}

/* After a complete value: a top-level value ends its line (so that several
 * form JSON lines). */
static void json_after_value(json *j)
{
	if (j->depth == 0)
		json_write(j, "\n", 1);
}

static void json_begin(json *j, bool is_obj)
{
	json_before_value(j);
	if (j->depth == j->cap) {
		int ncap = j->cap ? 2 * j->cap : 8;
		json_level *p = realloc(j->stack, (size_t)ncap * sizeof *p);
		if (!p) {
			j->failed = true;
			return;
		}
		j->stack = p;
		j->cap = ncap;
	}
	j->stack[j->depth++] = (json_level){ is_obj, false, 0 };
	json_write(j, is_obj ? "{" : "[", 1);
}

static void json_end(json *j, bool is_obj)
{
	if (j->depth == 0 || j->stack[j->depth - 1].is_obj != is_obj ||
	    j->stack[j->depth - 1].have_key) {
		j->failed = true;
		return;
	}
	json_level *lv = &j->stack[--j->depth];
	if (j->pretty && lv->count > 0)
		json_newline(j, j->depth);
	json_write(j, is_obj ? "}" : "]", 1);
	json_after_value(j);
}

void json_obj_begin(json *j) { json_begin(j, true); }
void json_obj_end(json *j) { json_end(j, true); }
void json_arr_begin(json *j) { json_begin(j, false); }
void json_arr_end(json *j) { json_end(j, false); }

/* Length of the valid UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), or 0 if it is not one. */
static size_t json_utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];
	if (c < 0x80)
		return 1;
	unsigned char lo = 0x80, hi = 0xBF;
	size_t n;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if (p[k] < 0x80 || p[k] > 0xBF)
			return 0;
	return n;
}

/* A quoted, escaped string; runs of plain bytes go out in one write. */
static void json_quoted(json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;
	json_write(j, "\"", 1);
	while (*p) {
		size_t n = json_utf8_len(p);
		if (n > 1 || (n == 1 && *p >= 0x20 && *p != '"' && *p != '\\')) {
			p += n;
			continue;
		}
		json_write(j, (const char *)run, (size_t)(p - run));
		char esc[8];
		if (n == 0)
			json_puts(j, "\\ufffd");
		else if (*p == '"' || *p == '\\') {
			esc[0] = '\\';
			esc[1] = (char)*p;
			json_write(j, esc, 2);
		} else {
			snprintf(esc, sizeof esc, "\\u%04x", *p);
			json_puts(j, esc);
		}
		run = ++p;
	}
	json_write(j, (const char *)run, (size_t)(p - run));
	json_write(j, "\"", 1);
}

void json_key(json *j, const char *key)
{
	json_level *lv = j->depth ? &j->stack[j->depth - 1] : NULL;
	if (!lv || !lv->is_obj || lv->have_key || !key) {
		j->failed = true;
		return;
	}
	if (lv->count++ > 0)
		json_write(j, ",", 1);
	if (j->pretty)
		json_newline(j, j->depth);
	json_quoted(j, key);
	json_puts(j, j->pretty ? ": " : ":");
	lv->have_key = true;
}

static void json_scalar(json *j, const char *text)
{
	json_before_value(j);
	json_puts(j, text);
	json_after_value(j);
}

void json_str(json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_before_value(j);
	json_quoted(j, s);
	json_after_value(j);
}

void json_fmt_num(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return;
	}
	/* The shortest of 15, 16 or 17 significant digits that reads back as
	 * the same double; 17 always does. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void json_num(json *j, double v)
{
	char buf[32];
	json_fmt_num(buf, sizeof buf, v);
	json_scalar(j, buf);
}

void json_int(json *j, int64_t v)
{
	char buf[24];
	snprintf(buf, sizeof buf, "%" PRId64, v);
	json_scalar(j, buf);
}

void json_bool(json *j, bool v) { json_scalar(j, v ? "true" : "false"); }
void json_null(json *j) { json_scalar(j, "null"); }

void json_kstr(json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_knum(json *j, const char *key, double v)
{
	json_key(j, key);
	json_num(j, v);
}

void json_kint(json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_kbool(json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}
