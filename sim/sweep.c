/* sweep.c: the plan of a sweep (--vary axes, their cross product, shards)
 * and the rendering of its rows in CSV or JSON Lines. Resuming and merging
 * results files live in sweep_file.c. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "sweep.h"
#include "report.h"

typedef struct sweep_axis {
	char *key;
	char **values;
	size_t n;
} sweep_axis;

struct sweep_plan {
	sweep_axis axes[SWEEP_MAX_AXES];
	size_t naxes;
	size_t npoints;
	char id[24];              /* the base scenario's fingerprint ("" when unset) */
};

void sweep_plan_set_id(sweep_plan *p, const char *id)
{
	snprintf(p->id, sizeof p->id, "%s", id ? id : "");
}

const char *sweep_plan_id(const sweep_plan *p)
{
	return p->id;
}

sweep_plan *sweep_plan_new(void)
{
	sweep_plan *p = calloc(1, sizeof *p);
	if (p)
		p->npoints = 1;
	return p;
}

static void axis_free(sweep_axis *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->values[i]);
	free(a->values);
	free(a->key);
}

void sweep_plan_free(sweep_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->naxes; i++)
		axis_free(&p->axes[i]);
	free(p);
}

/* Length of the next value of a list: up to a comma at nesting depth 0 and
 * outside quotes. Sets *bad when brackets or quotes do not balance. */
static size_t value_len(const char *s, bool *bad)
{
	int depth = 0;
	char quote = 0;
	size_t i;
	for (i = 0; s[i]; i++) {
		char c = s[i];
		if (quote) {
			if (c == quote)
				quote = 0;
		} else if (c == '"' || c == '\'') {
			quote = c;
		} else if (c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			depth--;
		} else if (c == ',' && depth == 0) {
			break;
		}
		if (depth < 0)
			break;
	}
	*bad = quote || depth != 0;
	return i;
}

static int axis_push(sweep_axis *a, const char *v, size_t len)
{
	char **nv = realloc(a->values, (a->n + 1) * sizeof *nv);
	if (!nv)
		return -1;
	a->values = nv;
	if (!(a->values[a->n] = strndup(v, len)))
		return -1;
	a->n++;
	return 0;
}

/* Splits "V1,V2,..." into a; reports empty values and unbalanced brackets. */
static int axis_parse_values(sweep_axis *a, const char *list, const char *spec, FILE *err)
{
	const char *s = list;
	for (;;) {
		bool bad;
		size_t len = value_len(s, &bad);
		if (bad) {
			fprintf(err, "--vary %s: unbalanced brackets or quotes in '%s'\n", spec, s);
			return -1;
		}
		if (len == 0) {
			fprintf(err, "--vary %s: empty value (write KEY=V1,V2,... with no empty item)\n",
			        spec);
			return -1;
		}
		if (memchr(s, '\n', len) || memchr(s, '\r', len)) {
			fprintf(err, "--vary: a value holds a line break; each row of a sweep is one line\n");
			return -1;
		}
		if (axis_push(a, s, len) < 0) {
			fprintf(err, "--vary: out of memory\n");
			return -1;
		}
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

int sweep_plan_add(sweep_plan *p, const char *spec, FILE *err)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec) {
		fprintf(err, "--vary %s: expected KEY=V1,V2,... e.g. --vary cluster.nic.speed=25Gbps,100Gbps\n",
		        spec);
		return -1;
	}
	if (p->naxes == SWEEP_MAX_AXES) {
		fprintf(err, "--vary %s: at most %d keys can be varied\n", spec, SWEEP_MAX_AXES);
		return -1;
	}
	sweep_axis a = {0};
	if (!(a.key = strndup(spec, (size_t)(eq - spec))))
		goto out_oom;
	for (size_t i = 0; i < p->naxes; i++)
		if (!strcmp(p->axes[i].key, a.key)) {
			fprintf(err, "--vary %s: key '%s' is already varied; give all its values in one --vary\n",
			        spec, a.key);
			goto out_free;
		}
	if (axis_parse_values(&a, eq + 1, spec, err) < 0)
		goto out_free;
	if (p->npoints > SWEEP_MAX_POINTS / a.n) {
		fprintf(err, "--vary %s: the sweep would have more than %u points; split it with --shard "
		        "or vary fewer values\n", spec, SWEEP_MAX_POINTS);
		goto out_free;
	}
	p->npoints *= a.n;
	p->axes[p->naxes++] = a;
	return 0;
out_oom:
	fprintf(err, "--vary: out of memory\n");
out_free:
	axis_free(&a);
	return -1;
}

size_t sweep_plan_naxes(const sweep_plan *p)
{
	return p->naxes;
}

const char *sweep_plan_key(const sweep_plan *p, size_t axis)
{
	return axis < p->naxes ? p->axes[axis].key : NULL;
}

size_t sweep_plan_npoints(const sweep_plan *p)
{
	return p->npoints;
}

const char *sweep_plan_value(const sweep_plan *p, size_t index, size_t axis)
{
	if (axis >= p->naxes || index >= p->npoints)
		return NULL;
	/* Mixed radix, last axis least significant. */
	for (size_t a = p->naxes; a-- > axis + 1;)
		index /= p->axes[a].n;
	return p->axes[axis].values[index % p->axes[axis].n];
}

size_t sweep_plan_nvalues(const sweep_plan *p, size_t axis)
{
	return axis < p->naxes ? p->axes[axis].n : 0;
}

const char *sweep_plan_axis_value(const sweep_plan *p, size_t axis, size_t v)
{
	return axis < p->naxes && v < p->axes[axis].n ? p->axes[axis].values[v] : NULL;
}

int sweep_shard_parse(const char *text, sweep_shard *out, FILE *err)
{
	char *end;
	errno = 0;
	unsigned long k = strtoul(text, &end, 10);
	unsigned long n = 0;
	bool ok = end != text && *end == '/' && text[0] != '-';
	if (ok) {
		const char *ns = end + 1;
		n = strtoul(ns, &end, 10);
		ok = end != ns && !*end && *ns != '-' && errno == 0;
	}
	if (!ok || n == 0 || n > SWEEP_MAX_POINTS || k == 0 || k > n) {
		fprintf(err, "--shard %s: expected K/N with 1 <= K <= N, e.g. --shard 2/8 (K counts from 1; "
		        "with Slurm use --array=1-N)\n", text);
		return -1;
	}
	out->k = (unsigned)k;
	out->n = (unsigned)n;
	return 0;
}

bool sweep_shard_has(const sweep_shard *s, size_t index)
{
	return index % s->n == s->k - 1;
}

/* ---- rows ---- */

int sweep_csv_names(const sweep_plan *p, const char **names)
{
	int n = 0;
	names[n++] = "index";
	for (size_t a = 0; a < p->naxes; a++)
		names[n++] = p->axes[a].key;
	names[n++] = "status";
	names[n++] = "sweep";
	return n;
}

int sweep_csv_values(const sweep_plan *p, size_t index, const char *status, char *idx,
                     const char **vals)
{
	int n = 0;
	snprintf(idx, 24, "%zu", index);
	vals[n++] = idx;
	for (size_t a = 0; a < p->naxes; a++)
		vals[n++] = sweep_plan_value(p, index, a);
	vals[n++] = status;
	vals[n++] = p->id;
	return n;
}

/* JSON: a varied value that is a plain JSON number is written as a number,
 * anything else ("100Gbps", "ring") as a string. */
static bool is_json_number(const char *s)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return false;
	if (*p == '.') {
		if (!(*++p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == 0;
}

void sweep_json_keys(json *j, const sweep_plan *p, size_t index)
{
	json_kint(j, "index", (int64_t)index);
	for (size_t a = 0; a < p->naxes; a++) {
		const char *v = sweep_plan_value(p, index, a);
		json_key(j, p->axes[a].key);
		if (is_json_number(v))
			json_num(j, strtod(v, NULL));
		else
			json_str(j, v);
	}
}

static int prefix_csv(FILE *out, const sweep_plan *p, size_t index)
{
	fprintf(out, "%zu", index);
	for (size_t a = 0; a < p->naxes; a++) {
		fputc(',', out);
		report_csv_field(out, sweep_plan_value(p, index, a));
	}
	return 0;
}

static int prefix_json(FILE *out, const sweep_plan *p, size_t index)
{
	json *j = json_new(out, false);
	if (!j)
		return -1;
	json_obj_begin(j);
	sweep_json_keys(j, p, index);
	json_obj_end(j);
	return json_free(j);
}

char *sweep_row_prefix(const sweep_plan *p, sweep_format f, size_t index)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return NULL;
	int rc = f == SWEEP_CSV ? prefix_csv(mem, p, index) : prefix_json(mem, p, index);
	if (fclose(mem) != 0 || rc < 0) {
		free(buf);
		return NULL;
	}
	if (f == SWEEP_JSON) {
		/* The emitter ends a top-level object with a newline; the rest of
		 * the row follows the keys, where the closing brace stands. */
		while (len && buf[len - 1] == '\n')
			len--;
		if (!len || buf[len - 1] != '}') {
			free(buf);
			return NULL;
		}
		buf[len - 1] = 0;
	}
	return buf;
}
