/* jsonv.c: strict JSON reader for the tests (see jsonv.h): recursive
 * descent over RFC 8259's grammar. Depth is bounded so that a broken
 * emitter cannot crash the test. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonv.h"

#define MAX_DEPTH 64

typedef struct rd {
	const char *s, *p;
	char *err;
	size_t errlen;
	int depth;
} rd;

static jv *value(rd *r);

static jv *fail(rd *r, const char *why)
{
	if (r->err && r->err[0] == '\0')
		snprintf(r->err, r->errlen, "offset %ld: %s", (long)(r->p - r->s), why);
	return NULL;
}

static void ws(rd *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

static jv *node(jv_type t)
{
	jv *v = calloc(1, sizeof *v);
	if (v)
		v->type = t;
	return v;
}

static int add(jv *v, char *key, jv *item)
{
	char **k = v->keys;
	jv **it = realloc(v->items, (v->n + 1) * sizeof *it);
	if (!it)
		return -1;
	v->items = it;
	if (v->type == JV_OBJ) {
		k = realloc(v->keys, (v->n + 1) * sizeof *k);
		if (!k)
			return -1;
		v->keys = k;
		k[v->n] = key;
	}
	it[v->n++] = item;
	return 0;
}

/* The character of the escape after a backslash (\u above 0x7f: '?'). */
static int escape(rd *r, unsigned char *c)
{
	char e = *r->p++;
	unsigned code = 0;
	switch (e) {
	case '"': case '\\': case '/': *c = (unsigned char)e; return 0;
	case 'b': *c = '\b'; return 0;
	case 'f': *c = '\f'; return 0;
	case 'n': *c = '\n'; return 0;
	case 'r': *c = '\r'; return 0;
	case 't': *c = '\t'; return 0;
	case 'u':
		for (int i = 0; i < 4; i++, r->p++) {
			int h = (unsigned char)*r->p;
			if (!isxdigit(h))
				return -1;
			code = code * 16 + (unsigned)(isdigit(h) ? h - '0' : tolower(h) - 'a' + 10);
		}
		*c = code < 0x80 ? (unsigned char)code : '?';
		return 0;
	default:
		return -1;
	}
}

static char *string(rd *r)
{
	size_t cap = 16, n = 0;
	char *out = malloc(cap);
	if (!out || *r->p != '"')
		goto bad;
	r->p++;
	while (*r->p != '"') {
		unsigned char c = (unsigned char)*r->p++;
		if (c < 0x20)
			goto bad;
		if (c == '\\' && escape(r, &c) != 0)
			goto bad;
		if (n + 2 > cap) {
			char *t = realloc(out, cap *= 2);
			if (!t)
				goto bad;
			out = t;
		}
		out[n++] = (char)c;
	}
	r->p++;
	out[n] = '\0';
	return out;
bad:
	free(out);
	fail(r, "bad string");
	return NULL;
}

static jv *number(rd *r)
{
	const char *q = r->p;
	if (*q == '-')
		q++;
	if (*q == '0')
		q++;
	else if (isdigit((unsigned char)*q))
		while (isdigit((unsigned char)*q))
			q++;
	else
		return fail(r, "bad number");
	if (*q == '.') {
		if (!isdigit((unsigned char)*++q))
			return fail(r, "bad fraction");
		while (isdigit((unsigned char)*q))
			q++;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (!isdigit((unsigned char)*q))
			return fail(r, "bad exponent");
		while (isdigit((unsigned char)*q))
			q++;
	}
	jv *v = node(JV_NUM);
	if (v)
		v->num = strtod(r->p, NULL);
	r->p = q;
	return v;
}

static jv *container(rd *r, bool obj)
{
	jv *v = node(obj ? JV_OBJ : JV_ARR);
	char close = obj ? '}' : ']';
	if (!v || ++r->depth > MAX_DEPTH)
		goto bad;
	r->p++;
	ws(r);
	if (*r->p == close) {
		r->p++;
		r->depth--;
		return v;
	}
	for (;;) {
		char *key = NULL;
		ws(r);
		if (obj) {
			if (!(key = string(r)))
				goto bad;
			for (size_t i = 0; i < v->n; i++)
				if (!strcmp(v->keys[i], key)) {
					free(key);
					fail(r, "duplicate key");
					goto bad;
				}
			ws(r);
			if (*r->p++ != ':') {
				free(key);
				fail(r, "expected ':'");
				goto bad;
			}
		}
		jv *item = value(r);
		if (!item || add(v, key, item)) {
			free(key);
			jv_free(item);
			goto bad;
		}
		ws(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p++ == close)
			break;
		fail(r, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		goto bad;
	}
	r->depth--;
	return v;
bad:
	jv_free(v);
	return fail(r, "bad container");
}

static jv *literal(rd *r, const char *word, jv_type t, bool b)
{
	size_t n = strlen(word);
	if (strncmp(r->p, word, n))
		return fail(r, "unexpected token");
	r->p += n;
	jv *v = node(t);
	if (v)
		v->b = b;
	return v;
}

static jv *value(rd *r)
{
	ws(r);
	switch (*r->p) {
	case '{': return container(r, true);
	case '[': return container(r, false);
	case '"': {
		jv *v = node(JV_STR);
		if (v && !(v->str = string(r))) {
			free(v);
			return NULL;
		}
		return v;
	}
	case 't': return literal(r, "true", JV_BOOL, true);
	case 'f': return literal(r, "false", JV_BOOL, false);
	case 'n': return literal(r, "null", JV_NULL, false);
	default: return number(r);
	}
}

jv *jv_parse(const char *text, char *err, size_t errlen)
{
	rd r = {.s = text, .p = text, .err = err, .errlen = errlen};
	if (err && errlen)
		err[0] = '\0';
	jv *v = value(&r);
	ws(&r);
	if (v && *r.p) {
		jv_free(v);
		return fail(&r, "text after the value");
	}
	return v;
}

void jv_free(jv *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		jv_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

const jv *jv_get(const jv *v, const char *path)
{
	while (v && *path) {
		size_t len = strcspn(path, ".");
		const jv *next = NULL;
		for (size_t i = 0; v->type == JV_OBJ && i < v->n; i++)
			if (strlen(v->keys[i]) == len && !strncmp(v->keys[i], path, len))
				next = v->items[i];
		v = next;
		path += len + (path[len] == '.');
	}
	return v;
}
