/* scn_set.c: --set (and sweep's --vary) overrides on the YAML tree:
 * "dotted.key=value", the path checked against the schema first, the value
 * parsed as YAML (a scalar or a flow collection) and put in place, creating
 * mappings on the way. */
#include <stdlib.h>
#include <string.h>
#include "scn_int.h"

/* Replaces dst's value by src's (dst keeps its key and place); frees src. */
static void node_replace(scn_node *dst, scn_node *src)
{
	scn__node_free(dst->first);
	free(dst->str);
	dst->kind = src->kind;
	dst->line = src->line;
	dst->col = src->col;
	dst->set_by = src->set_by;
	dst->plain = src->plain;
	dst->str = src->str;
	dst->len = src->len;
	dst->first = src->first;
	dst->last = src->last;
	dst->n = src->n;
	free(src->key);
	free(src);
}

/* Adds val under key, given by the option opt. */
static scn_node *map_add(scn_node *map, const char *key, scn_node *val, const char *opt)
{
	val->key = strdup(key);
	if (!val->key)
		return NULL;
	val->key_hash = scn__key_hash(key);
	val->set_by = opt;
	scn__append(map, val);
	return val;
}

static bool valid_path(const char *k, size_t n)
{
	if (!n || k[0] == '.' || k[n - 1] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = k[i];
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		          (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.';
		if (!ok || (ch == '.' && k[i + 1] == '.'))
			return false;
	}
	return true;
}

/* A section given by a single value ("gpu: A100") becomes the mapping it
 * stands for ({base: A100}) so that one of its keys can be set. */
static int expand_scalar(scn_node *c, const char *prefix, const char *opt, FILE *err)
{
	const char *sk = scn__schema_scalar_key(prefix);
	if (!sk) {
		fprintf(err, "%s: '%s' holds a single value, not a mapping; replace it whole, "
		        "e.g. %s '%s={...}'\n", opt, prefix, opt, prefix);
		return -1;
	}
	scn_node *v = calloc(1, sizeof *v);
	if (!v || !(v->key = strdup(sk))) {
		free(v);
		return -1;
	}
	v->kind = SCN_SCALAR;
	v->key_hash = scn__key_hash(sk);
	v->str = c->str;
	v->len = c->len;
	v->plain = c->plain;
	v->set_by = c->set_by;
	v->line = v->key_line = c->line;
	v->col = v->key_col = c->col;
	c->str = NULL;
	c->kind = SCN_MAP;
	scn__append(c, v);
	return 0;
}

/* Walks to (creating mappings as needed) the parent of the last component;
 * returns it and leaves the last component in *last. Messages name opt. */
static scn_node *set_walk(scn_doc *d, char *path, char **last, const char *opt, FILE *err)
{
	scn_node *cur = d->root;
	char prefix[256] = "";
	char *save, *k = strtok_r(path, ".", &save);
	for (char *nk; (nk = strtok_r(NULL, ".", &save)); k = nk) {
		size_t o = strlen(prefix);
		snprintf(prefix + o, sizeof prefix - o, "%s%s", o ? "." : "", k);
		scn_node *c = NULL;
		if (cur->kind == SCN_SEQ) {
			char *end;
			unsigned long i = strtoul(k, &end, 10);
			c = (*end || i >= cur->n) ? NULL : cur->first;
			for (; c && i; i--)
				c = c->next;
			if (!c) {
				fprintf(err, "%s: %s: '%s' is not an index of the list (0..%zu)\n", opt,
				        prefix, k, cur->n ? cur->n - 1 : 0);
				return NULL;
			}
		} else {
			c = (scn_node *)scn__map_get(cur, k);
			if (c && scn__is_null(c)) {
				c->kind = SCN_MAP;
				free(c->str);
				c->str = NULL;
			}
			if (!c && strspn(nk, "0123456789") == strlen(nk)) {
				fprintf(err, "%s: '%s' has no item %s to change\n", opt, prefix, nk);
				return NULL;
			}
			if (!c) {
				scn_node *m = calloc(1, sizeof *m);
				if (!m || !map_add(cur, k, m, opt)) {
					free(m);
					return NULL;
				}
				m->kind = SCN_MAP;
				d->nnodes++;
				c = m;
			}
		}
		if (c->kind == SCN_SCALAR && expand_scalar(c, prefix, opt, err) < 0)
			return NULL;
		cur = c;
	}
	*last = k;
	return cur;
}

int scn_doc_set(scn_doc *d, const char *assignment, FILE *err)
{
	return scn_doc_set_by(d, assignment, "--set", err);
}

/* A list element written as the loader's messages write it,
 * "model.custom[1].flops", in the dotted form, "model.custom.1.flops"; the
 * rest unchanged. */
static void brackets_to_dots(const char *k, size_t n, char *out, size_t outlen, size_t *outn)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < outlen; i++) {
		if (k[i] == '[')
			out[o++] = '.';
		else if (k[i] != ']')
			out[o++] = k[i];
	}
	out[o] = '\0';
	*outn = o;
}

int scn_doc_set_by(scn_doc *d, const char *assignment, const char *opt, FILE *err)
{
	char path[256], msg[512], key[256];
	const char *eq = strchr(assignment, '=');
	size_t kl = eq ? (size_t)(eq - assignment) : 0;
	if (eq && kl < sizeof key && memchr(assignment, '[', kl)) {
		size_t n;
		brackets_to_dots(assignment, kl, key, sizeof key, &n);
		if (valid_path(key, n)) {
			char *joined = malloc(n + strlen(eq) + 1);
			if (!joined) {
				fprintf(err, "%s: out of memory\n", opt);
				return -1;
			}
			memcpy(joined, key, n);
			strcpy(joined + n, eq);
			int rc = scn_doc_set_by(d, joined, opt, err);
			free(joined);
			return rc;
		}
	}
	if (!eq || !valid_path(assignment, kl) || kl >= sizeof path) {
		char head[81]; /* the start of it, escaped: it may hold any byte */
		snprintf(head, sizeof head, "%s", assignment);
		fprintf(err, "%s: '", opt);
		scn__put_clean(err, head);
		fprintf(err, "' is not KEY=VALUE with a dotted key; e.g. %s cluster.nic.speed=100Gbps\n",
		        opt);
		return -1;
	}
	memcpy(path, assignment, kl);
	path[kl] = '\0';
	if (scn__schema_path(path, msg, sizeof msg) < 0) {
		/* a key named 'warning' must not read as a warning (as scn_map.c) */
		bool w = !strncmp(path, "warning", 7) && strchr(".[", path[7]);
		fprintf(err, "%s: %s%s: %s\n", opt, w ? "error: " : "", path, msg);
		return -1;
	}
	char full[256];   /* set_walk cuts path into its components */
	memcpy(full, path, kl + 1);
	scn_node *v = scn__parse_value(path, eq + 1, opt, err);
	if (!v)
		return -1;
	char *last;
	scn_node *parent = set_walk(d, path, &last, opt, err);
	if (!parent)
		goto out_free;
	scn_node *old;
	if (parent->kind == SCN_SEQ) { /* model.custom.3={...}: a whole list item */
		char *end;
		unsigned long i = strtoul(last, &end, 10);
		old = (*end || i >= parent->n) ? NULL : parent->first;
		for (; old && i; i--)
			old = old->next;
		if (!old) {
			fprintf(err, "%s: %s: '%s' is not an index of the list (0..%zu)\n", opt, full,
			        last, parent->n ? parent->n - 1 : 0);
			goto out_free;
		}
	} else {
		old = (scn_node *)scn__map_get(parent, last);
	}
	if (old)
		node_replace(old, v);
	else if (!map_add(parent, last, v, opt))
		goto out_free;
	d->nnodes++;
	return 0;
out_free:
	scn__node_free(v);
	return -1;
}
