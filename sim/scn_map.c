/* scn_map.c: maps the YAML tree onto struct scenario through the tables of
 * scn_schema.c. Every error names file:line:col, the key path, what is wrong
 * and what would be right; mapping goes on after an error so that one run
 * reports every mistake of a file (up to SCN_MAX_ERRORS). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "scn_int.h"

void scn__put_clean(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
}

void scn__vput_clean(FILE *f, const char *fmt, va_list ap)
{
	char small[512];
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(small, sizeof small, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	char *big = (size_t)n < sizeof small ? NULL : malloc((size_t)n + 1);
	if (big)
		vsnprintf(big, (size_t)n + 1, fmt, ap);
	scn__put_clean(f, big ? big : small); /* out of memory: the first 511 bytes */
	free(big);
}

static void vreport(scn_ctx *c, const scn_node *at, bool at_key, const char *path,
                    const char *kind, const char *fmt, va_list ap)
{
	if (at && at->set_by)
		fprintf(c->err, "%s: ", at->set_by);
	else if (at)
		fprintf(c->err, "%s:%d:%d: ", c->file, at_key ? at->key_line : at->line,
		        at_key ? at->key_col : at->col);
	else
		fprintf(c->err, "%s:1:1: ", c->file);
	if (kind)
		fprintf(c->err, "%s", kind);
	else if (path && !strncmp(path, "warning", 7) && strchr(".[", path[7]))
		fputs("error: ", c->err); /* a key named 'warning' must not read as one */
	if (path && path[0]) {
		scn__put_clean(c->err, path);
		fputs(": ", c->err);
	}
	scn__vput_clean(c->err, fmt, ap);
	/* '--set KEY=V1,V2' refused: the values to try one by one are a sweep */
	if (!kind && at && at->set_by && !strcmp(at->set_by, "--set") && at->kind == SCN_SCALAR &&
	    at->str && strchr(at->str, ',') && path && path[0]) {
		fputs(" (to run each of these values: trainsim sweep SCENARIO --vary ", c->err);
		scn__put_clean(c->err, path);
		fputc('=', c->err);
		scn__put_clean(c->err, at->str);
		fputc(')', c->err);
	}
	fputc('\n', c->err);
}

void scn__error(scn_ctx *c, const scn_node *at, bool at_key, const char *path,
                const char *fmt, ...)
{
	va_list ap;
	c->nerr++;
	if (!c->err || c->nerr > SCN_MAX_ERRORS + 1)
		return;
	if (c->nerr == SCN_MAX_ERRORS + 1) {
		fprintf(c->err, "%s: too many errors; stopped after %d\n", c->file, SCN_MAX_ERRORS);
		return;
	}
	va_start(ap, fmt);
	vreport(c, at, at_key, path, NULL, fmt, ap);
	va_end(ap);
}

void scn__warn(scn_ctx *c, const scn_node *at, const char *path, const char *fmt, ...)
{
	va_list ap;
	c->nwarn++;
	if (!c->err || c->quiet)
		return;
	va_start(ap, fmt);
	vreport(c, at, false, path, "warning: ", fmt, ap);
	va_end(ap);
}

static const char *kind_name(scn_kind k)
{
	return k == SCN_MAP ? "a mapping" : k == SCN_SEQ ? "a list" : "a single value";
}

/* One bound of a field as a user writes it: "10 TB/s", "1000", and a
 * 64-bit integer's top in full (as a double it would read 1.8e19, and
 * 18446744073709551615 itself is accepted). A quantity that unit_fmt's
 * three digits would round ("1.16e+07 d" for 1e12 s) is given in the base
 * unit, so that the bound shown is the bound applied. */
static void bound_text(const scn_field *f, double v, char *buf, size_t len)
{
	static const char *const base[] = {"B", "B/s", "s", "", "FLOP/s"}; /* unit_kind's order */
	double back;
	if (f->type == F_UNIT) {
		unit_fmt(buf, len, v, f->unit);
		for (int digits = 6; digits <= 17; digits += 11)
			if (unit_parse(buf, f->unit, &back, NULL, 0) < 0 || back != v)
				snprintf(buf, len, "%.*g %s", digits, v, base[f->unit]);
	} else if (f->type == F_U64 && v >= 18446744073709551615.0) {
		snprintf(buf, len, "%" PRIu64, UINT64_MAX);
	} else {
		snprintf(buf, len, "%.15g", v);
	}
}

/* The accepted range, lower and upper bound both, as scn__in_range tests it:
 * "an integer in 1..64", "a number > 0 and <= 1", "0 or a bandwidth in
 * 1 GB/s..1 PB/s". A value refused for being too large must read why. */
static void range_text(const scn_field *f, char *buf, size_t len)
{
	char lo[48], hi[48];
	const char *what = f->type == F_INT || f->type == F_U64 ? "an integer" : "a number";
	if (f->type == F_UNIT)
		what = f->unit == UNIT_BYTES ? "a size" : f->unit == UNIT_TIME ? "a time"
		       : f->unit == UNIT_BANDWIDTH ? "a bandwidth" : f->unit == UNIT_POWER ? "a power"
		       : "a rate";
	bound_text(f, f->min, lo, sizeof lo);
	bound_text(f, f->max, hi, sizeof hi);
	bool zero = (f->flags & FL_ZERO_OK) != 0;
	/* "> 0, or 0" is ">= 0": the range is closed */
	bool open = (f->flags & FL_GT_MIN) && !(zero && f->min == 0);
	const char *z = zero && f->min > 0 ? "0 or " : "";
	if (f->min == f->max)
		snprintf(buf, len, "%s%s", z, lo);
	else if (open)
		snprintf(buf, len, "%s%s > %s and <= %s", z, what, lo, hi);
	else
		snprintf(buf, len, "%s%s in %s..%s", z, what, lo, hi);
}

bool scn__in_range(const scn_field *f, double v)
{
	if (v == 0 && (f->flags & FL_ZERO_OK))
		return true;
	if (f->flags & FL_GT_MIN ? v <= f->min : v < f->min)
		return false;
	return v <= f->max;
}

/* Reads a plain or suffixed number ("4096", "1.5e13", "15T"). */
static int get_number(scn_ctx *c, const scn_field *f, const scn_node *n, const char *path,
                      double *v)
{
	char err[256], want[128];
	if (unit_parse(n->str, f->type == F_UNIT ? f->unit : UNIT_COUNT, v, err, sizeof err) == 0)
		return 0;
	if (f->type == F_UNIT) {
		scn__error(c, n, false, path, "%s", err);
		return -1;
	}
	range_text(f, want, sizeof want);
	char *end;
	double x = strtod(n->str, &end);
	/* a ratio written as the docs say it, downlink:uplink ("4:1") */
	if (!strcmp(f->key, "oversubscription") && end != n->str && *end == ':') {
		char *e2;
		double y = strtod(end + 1, &e2);
		if (e2 != end + 1 && !*e2 && y > 0 && isfinite(x / y)) {
			*v = x / y;
			return 0;
		}
	}
	double t;
	bool steps = !strcmp(path, "training.checkpoint.every") || !strcmp(path, "run.steps");
	if (end != n->str && !*end && isfinite(x) && isdigit((unsigned char)n->str[n->len - 1]))
		scn__error(c, n, false, path, "expected %s, not '%.40s'", want, n->str);
	else if (steps && unit_parse(n->str, UNIT_TIME, &t, NULL, 0) == 0)
		/* "checkpoint every 30 min" is the natural question: the key counts steps */
		scn__error(c, n, false, path, "'%.40s' is a time, and this key counts steps: write "
		           "the number of steps, %.0f s / the step time (trainsim run prints it); "
		           "expected %s", n->str, t, want);
	else if (end != n->str && (!strcmp(end, "B") || !strcmp(end, "b")))
		scn__error(c, n, false, path, "'%.40s' is not a number: write billions as %.*sG or "
		           "%.*se9 (B is not a count's suffix); expected %s", n->str, (int)(end - n->str),
		           n->str, (int)(end - n->str), n->str, want);
	else
		scn__error(c, n, false, path, "'%.40s' is not a number; expected %s", n->str, want);
	return -1;
}

static int set_int(scn_ctx *c, const scn_field *f, const scn_node *n, const char *path, void *p)
{
	double v;
	char want[128];
	if (get_number(c, f, n, path, &v) < 0)
		return -1;
	range_text(f, want, sizeof want);
	if (v != floor(v) || !scn__in_range(f, v)) {
		scn__error(c, n, false, path, "expected %s, not '%.40s'", want, n->str);
		return -1;
	}
	if (f->type == F_U64) {
		/* plain digits keep all 64 bits; "1e9" forms go through the double */
		errno = 0;
		bool digits = strspn(n->str, "0123456789") == n->len;
		*(uint64_t *)p = digits ? strtoull(n->str, NULL, 10) : (uint64_t)v;
		if ((digits && errno == ERANGE) || (!digits && v >= 18446744073709551616.0)) {
			scn__error(c, n, false, path, "'%.40s' does not fit in 64 bits", n->str);
			return -1;
		}
	} else {
		*(int *)p = (int)v;
	}
	/* "8k" is 8000 here (k = 10^3), but a context of "8k" tokens is 8192 in
	 * ML usage: say which was read */
	size_t l = n->len;
	if (!strcmp(f->key, "seq_len") && l > 1 && (n->str[l - 1] == 'k' || n->str[l - 1] == 'K'))
		scn__warn(c, n, path, "'%.40s' is %.0f tokens (k is 1000); a context of %.0f is "
		          "written %.0f or %.*sKi", n->str, v, 1.024 * v, 1.024 * v,
		          (int)(l - 1), n->str);
	return 0;
}

static int set_double(scn_ctx *c, const scn_field *f, const scn_node *n, const char *path,
                      void *p)
{
	double v;
	char want[128];
	if (get_number(c, f, n, path, &v) < 0)
		return -1;
	if (!scn__in_range(f, v)) {
		range_text(f, want, sizeof want);
		scn__error(c, n, false, path, "expected %s, not '%.40s'", want, n->str);
		return -1;
	}
	*(double *)p = v;
	return 0;
}

/* Case-insensitive, '-' and '_' alike: "Fat_Tree" names fat-tree. */
static bool name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = (char)tolower((unsigned char)*a), y = (char)tolower((unsigned char)*b);
		if (x == '_')
			x = '-';
		if (y == '_')
			y = '-';
		if (x != y)
			return false;
	}
	return *a == *b;
}

/* Other names users write for a choice: the fabrics that are RDMA, Google's
 * names for GPUDirect over TCP. */
static const struct { const char *key, *alias, *name; } enum_aliases[] = {
	{"transport", "infiniband", "rdma"}, {"transport", "ib", "rdma"},
	{"transport", "roce", "rdma"}, {"transport", "rocev2", "rdma"},
	{"transport", "roce-v2", "rdma"}, {"transport", "efa", "rdma"},
	{"transport", "tcpx", "gpudirect-tcp"}, {"transport", "tcpxo", "gpudirect-tcp"},
	{"transport", "gpudirect-tcpx", "gpudirect-tcp"},
	{"transport", "gpudirect-tcpxo", "gpudirect-tcp"},
};

static int set_enum(scn_ctx *c, const scn_field *f, const scn_node *n, const char *path,
                    void *p)
{
	for (size_t a = 0; a < sizeof enum_aliases / sizeof enum_aliases[0]; a++)
		if (!strcmp(f->key, enum_aliases[a].key) && name_eq(n->str, enum_aliases[a].alias))
			for (int i = 0; f->names[i]; i++)
				if (!strcmp(f->names[i], enum_aliases[a].name)) {
					*(int *)p = i;
					/* one RDMA model: say so where a sweep would compare them */
					if (!strcmp(enum_aliases[a].name, "rdma") &&
					    tolower((unsigned char)n->str[0]) != 'i')
						scn__warn(c, n, path, "'%.40s' is read as rdma, with "
						          "InfiniBand's latency and efficiency: trainsim has one "
						          "RDMA model, and measured RoCE and EFA tables ran up to "
						          "several times slower at 1-128 MB (docs/validation.md); "
						          "set cluster.nic.latency and efficiency from your "
						          "fabric's nccl-tests", n->str);
					return 0;
				}
	char list[256] = "";
	const char *best = NULL;
	size_t bd = (size_t)-1, o = 0;
	for (int i = 0; f->names[i]; i++) {
		if (name_eq(n->str, f->names[i])) {
			*(int *)p = i;
			return 0;
		}
		o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? "|" : "", f->names[i]);
		size_t d = scn__edit_distance(n->str, f->names[i]);
		if (d < bd) {
			bd = d;
			best = f->names[i];
		}
	}
	/* the other names it takes: "rdma|tcp|gpudirect-tcp (also ib, roce, ...)" */
	size_t na = 0;
	for (size_t a = 0; a < sizeof enum_aliases / sizeof enum_aliases[0]; a++)
		if (!strcmp(f->key, enum_aliases[a].key) && o + 2 < sizeof list)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", na++ ? ", " : " (also ",
			                      enum_aliases[a].alias);
	if (na && o + 2 < sizeof list)
		snprintf(list + o, sizeof list - o, ")");
	if (bd <= 2 && strlen(n->str) > 2)
		scn__error(c, n, false, path, "'%.40s' is not one of %s; did you mean '%s'?", n->str,
		           list, best);
	else
		scn__error(c, n, false, path, "'%.40s' is not one of %s", n->str, list);
	return -1;
}

static int set_bool(scn_ctx *c, const scn_node *n, const char *path, bool *p)
{
	if (name_eq(n->str, "true")) {
		*p = true;
		return 0;
	}
	if (name_eq(n->str, "false")) {
		*p = false;
		return 0;
	}
	scn__error(c, n, false, path, "expected true or false, not '%.40s'", n->str);
	return -1;
}

static int set_string(scn_ctx *c, const scn_field *f, const scn_node *n, const char *path,
                      char *p)
{
	if (n->len >= f->size) {
		scn__error(c, n, false, path, "longer than %zu bytes; shorten it", f->size - 1);
		return -1;
	}
	/* a name is printed in reports: an escape sequence in it would reach the
	 * terminal (ESC[2J clears it) */
	for (size_t i = 0; i < n->len; i++) {
		unsigned char ch = (unsigned char)n->str[i];
		if (ch < 0x20 || ch == 0x7f) {
			scn__error(c, n, false, path, "a control character (\\x%02x) in the text; "
			           "remove it (a name is printed in reports)", ch);
			return -1;
		}
	}
	memset(p, 0, f->size);
	memcpy(p, n->str, n->len);
	return 0;
}

static int set_gpu_base(scn_ctx *c, const scn_node *n, const char *path, hw_gpu *g)
{
	const hw_gpu *cat = hw_gpu_find(n->str);
	if (cat) {
		memcpy(g, cat, sizeof *g);
		return 0;
	}
	const char *s = hw_gpu_suggest(n->str);
	if (s)
		scn__error(c, n, false, path, "unknown GPU '%.60s'; did you mean '%s'? "
		           "('trainsim list gpus' shows the catalog)", n->str, s);
	else
		scn__error(c, n, false, path, "unknown GPU '%.60s'; 'trainsim list gpus' shows the "
		           "catalog, or give a mapping with the GPU's fields", n->str);
	return -1;
}

static void map_section(scn_ctx *c, const scn_section *sec, const scn_node *n, void *base,
                        const char *path);

static void map_layers(scn_ctx *c, const scn_field *f, const scn_node *n, scn_model *m,
                       const char *path)
{
	if (n->kind != SCN_SEQ || !n->n) {
		scn__error(c, n, false, path, "expected a list of layers such as "
		           "[{name: conv1, flops: 118M, params: 9408, activations: 3.2MB}]");
		return;
	}
	if (n->n > SCN_MAX_LAYERS) {
		scn__error(c, n, false, path, "%zu layers; at most %d are allowed", n->n,
		           SCN_MAX_LAYERS);
		return;
	}
	free(m->custom_layers);
	m->custom_layers = calloc(n->n, sizeof *m->custom_layers);
	if (!m->custom_layers) {
		scn__error(c, n, false, path, "out of memory");
		return;
	}
	m->custom = true;
	m->nlayers_custom = (int)n->n;
	m->layers = (int)n->n;
	int i = 0;
	for (const scn_node *k = n->first; k; k = k->next, i++) {
		char p[256];
		snprintf(p, sizeof p, "%s[%d]", path, i);
		map_section(c, f->sub, k, &m->custom_layers[i], p);
	}
}

/* One key's value onto its field; errors through c. */
static void map_value(scn_ctx *c, const scn_field *f, const scn_node *n, void *base,
                      const char *path)
{
	void *p = (char *)base + f->off;
	if (f->type == F_SECTION) {
		map_section(c, f->sub, n, p, path);
		return;
	}
	if (f->type == F_LAYERS) {
		map_layers(c, f, n, base, path);
		return;
	}
	if (n->kind != SCN_SCALAR) {
		scn__error(c, n, false, path, "expected a single value, not %s", kind_name(n->kind));
		return;
	}
	if (scn__is_null(n)) {
		scn__error(c, n, true, path, "no value given after ':'");
		return;
	}
	switch (f->type) {
	case F_INT:
	case F_U64: set_int(c, f, n, path, p); break;
	case F_DOUBLE:
	case F_UNIT: set_double(c, f, n, path, p); break;
	case F_BOOL: set_bool(c, n, path, p); break;
	case F_ENUM: set_enum(c, f, n, path, p); break;
	case F_STRING: set_string(c, f, n, path, p); break;
	case F_GPUBASE: set_gpu_base(c, n, path, base); break;
	default: break;
	}
}

/* A GPU given field by field without a catalog base needs these. */
static void check_nobase(scn_ctx *c, const scn_section *sec, const scn_node *n,
                         const char *path)
{
	for (size_t i = 0; i < sec->nrows; i++) {
		const scn_field *f = &sec->rows[i];
		if ((f->flags & FL_NOBASE_REQ) && !scn__map_get(n, f->key))
			scn__error(c, n, false, path, "'%s' is missing; a GPU without 'base' needs "
			           "name, hbm, hbm_bandwidth, gemm_eff, hbm_eff, pcie_gen and the peak "
			           "of the training precision (or give base: A100-SXM4-80GB)", f->key);
	}
}

static void map_members(scn_ctx *c, const scn_section *sec, const scn_node *n, void *base,
                        const char *path, bool *seen)
{
	char p[256];
	const scn_node *b = scn__map_get(n, "base");
	if (sec->rows[0].type == F_GPUBASE && b) { /* the base first, whatever the key order */
		snprintf(p, sizeof p, "%s.base", path);
		map_value(c, &sec->rows[0], b, base, p);
	}
	for (const scn_node *k = n->first; k; k = k->next) {
		size_t i = 0;
		while (i < sec->nrows && strcmp(sec->rows[i].key, k->key))
			i++;
		snprintf(p, sizeof p, "%s%s%s", path, path[0] ? "." : "", k->key);
		if (i == sec->nrows) {
			char msg[512];
			scn__unknown_key_msg(sec, path, k->key, msg, sizeof msg);
			scn__error(c, k, true, p, "%s", msg);
			continue;
		}
		seen[i] = true;
		if (sec->rows[i].flags & FL_NO_EFFECT)
			scn__warn(c, k, p, "accepted but not modelled yet; it has no effect");
		if (sec->rows[i].type != F_GPUBASE)
			map_value(c, &sec->rows[i], k, base, p);
	}
	if (sec->rows[0].type == F_GPUBASE && !b)
		check_nobase(c, sec, n, path);
}

static void map_section(scn_ctx *c, const scn_section *sec, const scn_node *n, void *base,
                        const char *path)
{
	bool seen[64] = {false};
	if (sec->present_off >= 0)
		*(bool *)((char *)base + sec->present_off) = true;
	if (n->kind == SCN_SCALAR && sec->scalar_key && !scn__is_null(n)) {
		for (size_t i = 0; i < sec->nrows; i++)
			if (!strcmp(sec->rows[i].key, sec->scalar_key))
				map_value(c, &sec->rows[i], n, base, path);
		return;
	}
	if (n->kind == SCN_SCALAR && scn__is_null(n) && sec->present_off >= 0)
		return; /* "local_cache:" alone: present, with defaults */
	if (n->kind != SCN_MAP) {
		scn__error(c, n, n->key != NULL && scn__is_null(n), path,
		           "expected a mapping such as '%s: {%s: ...}', not %s",
		           sec->name, sec->rows[0].type == F_GPUBASE ? "base" : sec->rows[0].key,
		           scn__is_null(n) ? "nothing" : kind_name(n->kind));
		return;
	}
	map_members(c, sec, n, base, path, seen);
	for (size_t i = 0; i < sec->nrows; i++) {
		const scn_field *f = &sec->rows[i];
		if (!(f->flags & FL_REQUIRED) || seen[i])
			continue;
		char p[256];
		snprintf(p, sizeof p, "%s%s%s", path, path[0] ? "." : "", f->key);
		scn__error(c, n, n->key != NULL, p, "missing; add e.g. '%s'",
		           f->example ? f->example : f->key);
	}
}

static int from_doc(const scn_doc *d, scenario *out, FILE *err, bool quiet, bool cluster_only)
{
	scn_ctx c = {.err = err, .file = d->name, .quiet = quiet, .cluster_only = cluster_only,
	             .doc = d};
	scn_defaults(out);
	snprintf(out->path, sizeof out->path, "%s", d->name);
	map_section(&c, &scn__root, d->root, out, "");
	if (!c.nerr)
		scn__check(&c, out, d);
	out->n_warnings = c.nwarn;
	if (c.nerr) {
		if (err && c.nerr > 1 && c.nerr <= SCN_MAX_ERRORS)
			fprintf(err, "%s: %d errors\n", d->name, c.nerr);
		scn_release(out);
		return -1;
	}
	return 0;
}

int scn_from_doc(const scn_doc *d, scenario *out, FILE *err, bool quiet)
{
	return from_doc(d, out, err, quiet, false);
}

int scn_from_doc_cluster(const scn_doc *d, scenario *out, FILE *err, bool quiet)
{
	return from_doc(d, out, err, quiet, true);
}
