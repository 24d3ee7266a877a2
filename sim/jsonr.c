/* jsonr.c: a recursive-descent JSON parser (RFC 8259) into a tree. Strings
 * are decoded to UTF-8; numbers must follow JSON's grammar; nesting is
 * limited to JSONR_MAX_DEPTH so that a deep document cannot exhaust the stack. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "jsonr.h"

struct jsonr {
	jsonr_type type;
	bool b;
	double num;
	char *str;            /* JSONR_STR */
	size_t n;             /* children */
	jsonr *items;         /* arrays and objects: n values */
	char **keys;          /* objects: n keys */
};

typedef struct parser {
	const char *s, *end, *p;
	const char *name;
	FILE *err;
	bool failed;
} parser;

static void fail(parser *ps, const char *what)
{
	if (ps->failed)
		return;
	ps->failed = true;
	int line = 1, col = 1;
	for (const char *q = ps->s; q < ps->p && q < ps->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	fprintf(ps->err, "%s:%d:%d: %s\n", ps->name, line, col, what);
}

static void skip_ws(parser *ps)
{
	while (ps->p < ps->end && strchr(" \t\r\n", *ps->p) && *ps->p)
		ps->p++;
}

static bool eat(parser *ps, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

static int hex4(parser *ps, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++, ps->p++) {
		if (ps->p >= ps->end)
			return -1;
		char c = *ps->p;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void put_utf8(char **o, unsigned cp)
{
	char *q = *o;
	if (cp < 0x80) {
		*q++ = (char)cp;
	} else if (cp < 0x800) {
		*q++ = (char)(0xC0 | cp >> 6);
		*q++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*q++ = (char)(0xE0 | cp >> 12);
		*q++ = (char)(0x80 | (cp >> 6 & 0x3F));
		*q++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*q++ = (char)(0xF0 | cp >> 18);
		*q++ = (char)(0x80 | (cp >> 12 & 0x3F));
		*q++ = (char)(0x80 | (cp >> 6 & 0x3F));
		*q++ = (char)(0x80 | (cp & 0x3F));
	}
	*o = q;
}

/* \uXXXX, with a following low surrogate for code points above U+FFFF. */
static int unicode_escape(parser *ps, char **o)
{
	unsigned cp, lo;
	if (hex4(ps, &cp) < 0)
		return -1;
	if (cp >= 0xD800 && cp < 0xDC00) {
		if (!eat(ps, "\\u") || hex4(ps, &lo) < 0 || lo < 0xDC00 || lo > 0xDFFF)
			return -1;
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	} else if (cp >= 0xDC00 && cp < 0xE000) {
		return -1;
	}
	put_utf8(o, cp);
	return 0;
}

/* Parses a string at ps->p (on the opening quote); returns it malloc'd. The
 * decoded text is never longer than the source, which sizes the buffer. */
static char *parse_string(parser *ps)
{
	const char *start = ++ps->p;
	const char *q = start;
	while (q < ps->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= ps->end) {
		fail(ps, "unterminated string");
		return NULL;
	}
	char *out = malloc((size_t)(q - start) + 1), *o = out;
	if (!out) {
		fail(ps, "out of memory");
		return NULL;
	}
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p++;
		if (c < 0x20)
			goto out_bad;
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		char e = *ps->p++;
		const char *k = e ? strchr(esc_in, e) : NULL;
		if (k)
			*o++ = esc_out[k - esc_in];
		else if (e != 'u' || unicode_escape(ps, &o) < 0)
			goto out_bad;
	}
	ps->p++;
	*o = 0;
	return out;
out_bad:
	free(out);
	fail(ps, "invalid character or escape in a string");
	return NULL;
}

static size_t digits(const char *p, const char *end)
{
	size_t n = 0;
	while (p + n < end && p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

static int parse_number(parser *ps, jsonr *v)
{
	const char *p = ps->p, *end = ps->end;
	if (p < end && *p == '-')
		p++;
	size_t d = digits(p, end);
	if (d == 0 || (d > 1 && *p == '0'))
		goto out_bad;
	p += d;
	if (p < end && *p == '.') {
		if (!(d = digits(++p, end)))
			goto out_bad;
		p += d;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (!(d = digits(p, end)))
			goto out_bad;
		p += d;
	}
	char buf[64];
	if ((size_t)(p - ps->p) >= sizeof buf)
		goto out_bad;
	memcpy(buf, ps->p, (size_t)(p - ps->p));
	buf[p - ps->p] = 0;
	v->type = JSONR_NUM;
	v->num = strtod(buf, NULL);
	ps->p = p;
	return 0;
out_bad:
	fail(ps, "invalid number");
	return -1;
}

static int parse_value(parser *ps, jsonr *v, int depth);

/* Appends one child (and its key, for objects) to a container. */
static jsonr *push_child(parser *ps, jsonr *c, size_t *cap, char *key)
{
	if (c->n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 4;
		jsonr *ni = realloc(c->items, ncap * sizeof *ni);
		if (ni)
			c->items = ni;
		char **nk = c->type == JSONR_OBJ && ni ? realloc(c->keys, ncap * sizeof *nk) : NULL;
		if (nk)
			c->keys = nk;
		if (!ni || (c->type == JSONR_OBJ && !nk)) {
			fail(ps, "out of memory");
			return NULL;
		}
		*cap = ncap;
	}
	if (c->type == JSONR_OBJ)
		c->keys[c->n] = key;
	jsonr *child = &c->items[c->n++];
	memset(child, 0, sizeof *child);
	return child;
}

static int parse_container(parser *ps, jsonr *v, int depth)
{
	bool obj = *ps->p == '{';
	char close = obj ? '}' : ']';
	size_t cap = 0;
	v->type = obj ? JSONR_OBJ : JSONR_ARR;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		skip_ws(ps);
		if (obj) {
			if (ps->p >= ps->end || *ps->p != '"' || !(key = parse_string(ps))) {
				fail(ps, "expected a key in double quotes");
				return -1;
			}
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p++ != ':') {
				free(key);
				fail(ps, "expected ':' after a key");
				return -1;
			}
		}
		jsonr *child = push_child(ps, v, &cap, key);
		if (!child) {
			free(key);
			return -1;
		}
		if (parse_value(ps, child, depth + 1) < 0)
			return -1;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		return -1;
	}
}

static int parse_value(parser *ps, jsonr *v, int depth)
{
	if (depth > JSONR_MAX_DEPTH) {
		fail(ps, "nested too deeply");
		return -1;
	}
	skip_ws(ps);
	if (ps->p >= ps->end) {
		fail(ps, "unexpected end of input");
		return -1;
	}
	char c = *ps->p;
	if (c == '{' || c == '[')
		return parse_container(ps, v, depth);
	if (c == '"') {
		v->type = JSONR_STR;
		return (v->str = parse_string(ps)) ? 0 : -1;
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return parse_number(ps, v);
	if (eat(ps, "true") || eat(ps, "false")) {
		v->type = JSONR_BOOL;
		v->b = c == 't';
		return 0;
	}
	if (eat(ps, "null")) {
		v->type = JSONR_NULL;
		return 0;
	}
	fail(ps, "expected a value");
	return -1;
}

static void release(jsonr *v)
{
	for (size_t i = 0; i < v->n; i++) {
		release(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

jsonr *jsonr_parse(const char *text, size_t len, const char *name, FILE *err)
{
	parser ps = {.s = text, .end = text + len, .p = text, .name = name, .err = err};
	jsonr *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	if (parse_value(&ps, v, 0) == 0) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			fail(&ps, "unexpected text after the value");
	}
	if (ps.failed) {
		jsonr_free(v);
		return NULL;
	}
	return v;
}

jsonr *jsonr_load_file(const char *path, size_t max_bytes, FILE *err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(err, "%s: %s\n", path, strerror(errno));
		return NULL;
	}
	char *buf = malloc(max_bytes + 1);
	size_t n = buf ? fread(buf, 1, max_bytes + 1, f) : 0;
	bool bad = !buf || ferror(f);
	fclose(f);
	jsonr *v = NULL;
	if (bad)
		fprintf(err, "%s: cannot read it\n", path);
	else if (n > max_bytes)
		fprintf(err, "%s: larger than %zu bytes; not read\n", path, max_bytes);
	else
		v = jsonr_parse(buf, n, path, err);
	free(buf);
	return v;
}

void jsonr_free(jsonr *v)
{
	if (!v)
		return;
	release(v);
	free(v);
}

jsonr_type jsonr_type_of(const jsonr *v)
{
	return v->type;
}

size_t jsonr_len(const jsonr *v)
{
	return v && (v->type == JSONR_ARR || v->type == JSONR_OBJ) ? v->n : 0;
}

const jsonr *jsonr_at(const jsonr *v, size_t i)
{
	return i < jsonr_len(v) ? &v->items[i] : NULL;
}

const char *jsonr_key_at(const jsonr *v, size_t i)
{
	return v && v->type == JSONR_OBJ && i < v->n ? v->keys[i] : NULL;
}

const jsonr *jsonr_get(const jsonr *v, const char *key)
{
	if (!v || v->type != JSONR_OBJ)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

double jsonr_num(const jsonr *v, double dflt)
{
	return v && v->type == JSONR_NUM ? v->num : dflt;
}

const char *jsonr_str(const jsonr *v)
{
	return v && v->type == JSONR_STR ? v->str : NULL;
}

bool jsonr_bool(const jsonr *v, bool dflt)
{
	return v && v->type == JSONR_BOOL ? v->b : dflt;
}
