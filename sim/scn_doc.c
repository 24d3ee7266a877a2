/* scn_doc.c: a YAML scenario read with libyaml's event API into a small tree
 * that keeps the line and column of every key and value, bounded against
 * hostile input (no aliases, depth, node count, scalar length), and edited by
 * --set overrides. The tree knows nothing of the schema (scn_map.c does). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "scn_int.h"

typedef struct parse {
	yaml_parser_t yp;
	const char *name;        /* for messages */
	const char *text;
	size_t len;
	FILE *err;
	const char *set_by;      /* nodes belong to the value of this option ("--set") */
	size_t nnodes;
	scn_node *stack[SCN_MAX_DEPTH + 1];
	int depth;
	char *pending_key;       /* a mapping's key waiting for its value */
	int pk_line, pk_col;
	scn_node *root;
	int ndocs;
} parse;

unsigned scn__key_hash(const char *s)
{
	unsigned h = 2166136261u;   /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void scn__node_free(scn_node *n)
{
	while (n) {
		scn_node *next = n->next;
		scn__node_free(n->first);
		free(n->key);
		free(n->str);
		free(n);
		n = next;
	}
}

bool scn__is_null(const scn_node *n)
{
	if (!n || n->kind != SCN_SCALAR || !n->plain)
		return false;
	return !n->str[0] || !strcmp(n->str, "~") || !strcmp(n->str, "null") ||
	       !strcmp(n->str, "Null") || !strcmp(n->str, "NULL");
}

const scn_node *scn__map_get(const scn_node *map, const char *key)
{
	if (!map || map->kind != SCN_MAP)
		return NULL;
	unsigned h = scn__key_hash(key);
	for (const scn_node *c = map->first; c; c = c->next)
		if (c->key_hash == h && !strcmp(c->key, key))
			return c;
	return NULL;
}

const scn_node *scn__doc_path(const scn_doc *d, const char *dotted)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", dotted);
	const scn_node *n = d->root;
	for (char *save, *k = strtok_r(buf, ".", &save); k && n; k = strtok_r(NULL, ".", &save))
		n = scn__map_get(n, k);
	return n;
}

static void perr(parse *p, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void perr(parse *p, int line, int col, const char *fmt, ...)
{
	va_list ap;
	if (!p->err)
		return;
	if (p->set_by)
		fprintf(p->err, "%s: %s: ", p->set_by, p->name);
	else
		fprintf(p->err, "%s:%d:%d: ", p->name, line, col);
	va_start(ap, fmt);
	scn__vput_clean(p->err, fmt, ap);
	va_end(ap);
	fputc('\n', p->err);
}

/* Dotted path of the innermost open mapping, for messages. */
static void stack_path(const parse *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 1; i < p->depth && o < len; i++) {
		const scn_node *n = p->stack[i];
		if (n->key)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "." : "", n->key);
	}
	if (!buf[0])   /* a --set value is its key's mapping, not the file's top */
		snprintf(buf, len, "%s", p->set_by ? "the value" : "the top level");
}

/* libyaml's message, with a better one for the most common mistake: tabs. */
static void syntax_error(parse *p)
{
	yaml_mark_t m = p->yp.problem_mark;
	const char *line = p->text;
	for (size_t l = 0; l < m.line && line; l++) {
		line = memchr(line, '\n', p->len - (size_t)(line - p->text));
		line = line ? line + 1 : NULL;
	}
	if (line) {
		const char *end = p->text + p->len;
		for (const char *c = line; c < end && (*c == ' ' || *c == '\t'); c++)
			if (*c == '\t') {
				perr(p, (int)m.line + 1, (int)(c - line) + 1,
				     "tab character in indentation; YAML indents with spaces only");
				return;
			}
	}
	/* an encoding error is no matter of indentation or quotes */
	const char *pb = p->yp.problem ? p->yp.problem : "";
	if (strstr(pb, "UTF-8") || strstr(pb, "UTF-16") || strstr(pb, "Unicode")) {
		/* libyaml's reader gives the byte offset, not a mark */
		int ln = 1, col = 1;
		size_t off = p->yp.error == YAML_READER_ERROR ? p->yp.problem_offset : 0;
		for (size_t i = 0; i < off && i < p->len; i++, col++)
			if (p->text[i] == '\n')
				ln++, col = 0;
		if (p->yp.error != YAML_READER_ERROR)
			ln = (int)m.line + 1, col = (int)m.column + 1;
		perr(p, ln, col, "%s: the file is not UTF-8 text; save it as UTF-8 (a Latin-1 or "
		     "Windows-1252 character is the usual cause)", pb);
		return;
	}
	perr(p, (int)m.line + 1, (int)m.column + 1, "YAML syntax error: %s%s%s; check the "
	     "indentation, the ':' after each key and the quotes",
	     p->yp.problem ? p->yp.problem : "malformed input", p->yp.context ? " " : "",
	     p->yp.context ? p->yp.context : "");
}

static scn_node *node_new(parse *p, scn_kind k, yaml_mark_t m)
{
	if (++p->nnodes > SCN_MAX_NODES) {
		perr(p, (int)m.line + 1, (int)m.column + 1,
		     "more than %d YAML nodes; a scenario is a few hundred", SCN_MAX_NODES);
		return NULL;
	}
	scn_node *n = calloc(1, sizeof *n);
	if (!n) {
		perr(p, (int)m.line + 1, (int)m.column + 1, "out of memory");
		return NULL;
	}
	n->kind = k;
	n->line = (int)m.line + 1;
	n->col = (int)m.column + 1;
	n->set_by = p->set_by;
	return n;
}

void scn__append(scn_node *parent, scn_node *c)
{
	if (parent->last)
		parent->last->next = c;
	else
		parent->first = c;
	parent->last = c;
	parent->n++;
}

/* Attaches a new value node to the open collection (or makes it the root). */
static int attach(parse *p, scn_node *n)
{
	if (!p->depth) {
		p->root = n;
		return 0;
	}
	scn_node *top = p->stack[p->depth - 1];
	if (top->kind == SCN_MAP) {
		n->key = p->pending_key;
		n->key_line = p->pk_line;
		n->key_col = p->pk_col;
		n->key_hash = scn__key_hash(n->key);
		p->pending_key = NULL;
	}
	scn__append(top, n);
	return 0;
}

/* A scalar in key position: check it is new in its mapping, then hold it. */
static int take_key(parse *p, scn_node *map, const yaml_event_t *ev)
{
	const char *k = (const char *)ev->data.scalar.value;
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
	char where[256];
	stack_path(p, where, sizeof where);
	if (ev->data.scalar.length > 256 || !k[0]) {
		perr(p, line, col, "%s: a key must be a short name such as 'nodes'", where);
		return -1;
	}
	if (map->n >= SCN_MAX_KEYS) {
		perr(p, line, col, "%s: more than %d keys in one mapping", where, SCN_MAX_KEYS);
		return -1;
	}
	unsigned h = scn__key_hash(k);
	for (const scn_node *c = map->first; c; c = c->next)
		if (c->key_hash == h && !strcmp(c->key, k)) {
			if (p->set_by)   /* one line: its line numbers say nothing */
				perr(p, line, col, "%s: duplicate key '%s'; keep one", where, k);
			else
				perr(p, line, col, "%s: duplicate key '%s' (first at line %d); keep one",
				     where, k, c->key_line);
			return -1;
		}
	p->pending_key = strdup(k);
	p->pk_line = line;
	p->pk_col = col;
	return p->pending_key ? 0 : -1;
}

static bool in_key_position(const parse *p)
{
	return p->depth && p->stack[p->depth - 1]->kind == SCN_MAP && !p->pending_key;
}

static int on_scalar(parse *p, const yaml_event_t *ev)
{
	yaml_mark_t m = ev->start_mark;
	if (ev->data.scalar.length > SCN_MAX_SCALAR) {
		perr(p, (int)m.line + 1, (int)m.column + 1,
		     "a value longer than %d bytes; a scenario needs short values", SCN_MAX_SCALAR);
		return -1;
	}
	/* "\0" in a quoted scalar: C strings would silently cut the value there */
	if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length)) {
		perr(p, (int)m.line + 1, (int)m.column + 1,
		     "a NUL character (\\0) inside a value or key; remove it");
		return -1;
	}
	if (in_key_position(p))
		return take_key(p, p->stack[p->depth - 1], ev);
	scn_node *n = node_new(p, SCN_SCALAR, m);
	if (!n)
		return -1;
	n->len = ev->data.scalar.length;
	n->str = malloc(n->len + 1);
	if (!n->str) {
		free(n);
		return -1;
	}
	memcpy(n->str, ev->data.scalar.value, n->len);
	n->str[n->len] = '\0';
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	return attach(p, n);
}

static int on_open(parse *p, const yaml_event_t *ev, scn_kind k)
{
	yaml_mark_t m = ev->start_mark;
	if (in_key_position(p)) {
		perr(p, (int)m.line + 1, (int)m.column + 1,
		     "a key must be a plain name, not a sequence or mapping");
		return -1;
	}
	if (p->depth >= SCN_MAX_DEPTH) {
		perr(p, (int)m.line + 1, (int)m.column + 1,
		     "nesting deeper than %d levels; a scenario needs at most 5", SCN_MAX_DEPTH);
		return -1;
	}
	scn_node *n = node_new(p, k, m);
	if (!n)
		return -1;
	attach(p, n);
	p->stack[p->depth++] = n;
	return 0;
}

/* One event; returns 1 at the end of the stream, 0 to go on, -1 on error. */
static int on_event(parse *p, const yaml_event_t *ev)
{
	yaml_mark_t m = ev->start_mark;
	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (++p->ndocs > 1) {
			perr(p, (int)m.line + 1, (int)m.column + 1,
			     "a second YAML document ('---'); a scenario is one document");
			return -1;
		}
		return 0;
	case YAML_ALIAS_EVENT:
		perr(p, (int)m.line + 1, (int)m.column + 1,
		     "aliases (*%s) are not supported; write the value out in full",
		     (const char *)ev->data.alias.anchor);
		return -1;
	case YAML_SCALAR_EVENT:
		return on_scalar(p, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_open(p, ev, SCN_SEQ);
	case YAML_MAPPING_START_EVENT:
		return on_open(p, ev, SCN_MAP);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		p->depth--;
		return 0;
	default:
		return 0;
	}
}

/* Parses text into p->root; 0 or -1 (message printed). */
static int parse_text(parse *p)
{
	yaml_event_t ev;
	int rc = 0;
	if (!yaml_parser_initialize(&p->yp)) {
		perr(p, 1, 1, "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&p->yp, (const unsigned char *)p->text, p->len);
	while (rc == 0) {
		if (!yaml_parser_parse(&p->yp, &ev)) {
			syntax_error(p);
			rc = -1;
			break;
		}
		rc = on_event(p, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p->yp);
	free(p->pending_key);
	p->pending_key = NULL;
	if (rc < 0) {
		scn__node_free(p->root);
		p->root = NULL;
		return -1;
	}
	return 0;
}

scn_doc *scn_doc_load_string(const char *text, size_t len, const char *name, FILE *err)
{
	parse p = {.name = name ? name : "<string>", .text = text, .len = len, .err = err};
	if (len > SCN_MAX_FILE) {
		perr(&p, 1, 1, "larger than %u MiB; a scenario is a few KB", SCN_MAX_FILE >> 20);
		return NULL;
	}
	if (parse_text(&p) < 0)
		return NULL;
	if (!p.root || scn__is_null(p.root)) {
		perr(&p, 1, 1, "empty scenario; expected a mapping of sections such as "
		     "'cluster:', 'model:', 'training:'");
		scn__node_free(p.root);
		return NULL;
	}
	if (p.root->kind != SCN_MAP) {
		perr(&p, p.root->line, p.root->col, "the scenario must be a mapping of sections "
		     "('cluster:', 'model:', 'training:', 'run:'), not a %s",
		     p.root->kind == SCN_SEQ ? "sequence" : "single value");
		scn__node_free(p.root);
		return NULL;
	}
	scn_doc *d = calloc(1, sizeof *d);
	if (!d || !(d->name = strdup(p.name))) {
		free(d);
		scn__node_free(p.root);
		return NULL;
	}
	d->root = p.root;
	d->nnodes = p.nnodes;
	return d;
}

scn_doc *scn_doc_load_file(const char *path, FILE *err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (err)
			fprintf(err, "%s: cannot open: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 8192, len = 0;
	char *buf = malloc(cap);
	while (buf) {
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap || cap > SCN_MAX_FILE)
			break;
		char *nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			buf = NULL;
		}
		buf = nb;
		cap *= 2;
	}
	bool bad = !buf || ferror(f);
	int why = ferror(f) ? errno : 0;
	fclose(f);
	if (bad) {
		if (err)
			fprintf(err, "%s: cannot read%s%s\n", path, why ? ": " : "",
			        why == EISDIR ? "it is a directory; give a scenario file" : why ? strerror(why) : "");
		free(buf);
		return NULL;
	}
	scn_doc *d = scn_doc_load_string(buf, len, path, err);
	free(buf);
	return d;
}

static scn_node *node_clone(const scn_node *n)
{
	scn_node *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	*c = *n;
	c->first = c->last = c->next = NULL;
	c->n = 0;
	c->key = n->key ? strdup(n->key) : NULL;
	c->str = n->str ? malloc(n->len + 1) : NULL;
	if ((n->key && !c->key) || (n->str && !c->str))
		goto out_free;
	if (n->str)
		memcpy(c->str, n->str, n->len + 1);
	for (const scn_node *k = n->first; k; k = k->next) {
		scn_node *kc = node_clone(k);
		if (!kc)
			goto out_free;
		scn__append(c, kc);
	}
	return c;
out_free:
	scn__node_free(c);
	return NULL;
}

scn_doc *scn_doc_clone(const scn_doc *d)
{
	scn_doc *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->name = strdup(d->name);
	c->root = node_clone(d->root);
	c->nnodes = d->nnodes;
	if (!c->name || !c->root) {
		scn_doc_free(c);
		return NULL;
	}
	return c;
}

void scn_doc_free(scn_doc *d)
{
	if (!d)
		return;
	scn__node_free(d->root);
	free(d->name);
	free(d);
}


scn_node *scn__parse_value(const char *path, const char *text, const char *opt, FILE *err)
{
	parse p = {.name = path, .text = text, .len = strlen(text), .err = err, .set_by = opt};
	if (parse_text(&p) < 0)
		return NULL;
	if (!p.root) { /* only a comment */
		perr(&p, 1, 1, "no value after '='; e.g. --set cluster.nic.speed=100Gbps");
		return NULL;
	}
	return p.root;
}
