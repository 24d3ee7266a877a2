/* plot_table.c: reads a sweep's results back into a table of strings, rows
 * sorted by point index: its CSV (RFC 4180 quoting, as sweep.c writes it)
 * or its JSON Lines, read into the same cells as the CSV of that sweep. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "plot.h"
#include "json.h"
#include "jsonr.h"
#include "report.h"

struct plot_table {
	char **names;
	size_t ncols;
	char **cells;         /* nrows * ncols */
	size_t *index;        /* per row, for sorting */
	size_t nrows, cap;
	size_t key_first, nkeys;
	bool validation;      /* the CSV of `trainsim validate --format csv` */
};

/* Splits one CSV line (without its newline) into fields, in place. Returns
 * the number of fields, or -1 on a quote that does not close. */
static long csv_split(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;
	for (;;) {
		if (n == max)
			return -1;
		char *out = p;
		fields[n++] = out;
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p)
					return -1;
				if (*p == '"' && p[1] == '"') {
					*out++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*out++ = *p++;
				}
			}
			if (*p && *p != ',')
				return -1;
		} else {
			while (*p && *p != ',')
				*out++ = *p++;
		}
		char sep = *p;
		*out = 0;
		if (!sep)
			return (long)n;
		p++;
	}
}

/* ---- the table, whichever the format ---- */

/* The columns (names copied) and what they say: a sweep's varied keys lie
 * between its first column and `status`. Returns 0, or -1 after saying why. */
static int table_columns(plot_table *t, char *const *names, size_t n, const char *path,
                         FILE *err)
{
	t->validation = n > 0 && !strcmp(names[0], "id");
	t->ncols = n;
	if (!(t->names = calloc(n + 1, sizeof *t->names)))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(t->names[i] = strdup(names[i])))
			return -1;
	int st = plot_table_find(t, "status");
	if (st < 0) {
		fprintf(err, "%s:1: no 'status' column: not the results of a trainsim sweep\n", path);
		return -1;
	}
	if (t->validation && (plot_table_find(t, "published") < 0 ||
	                      plot_table_find(t, "predicted") < 0)) {
		fprintf(err, "%s:1: no 'published' and 'predicted' columns: not the CSV of trainsim "
		        "validate\n", path);
		return -1;
	}
	t->key_first = 1;
	t->nkeys = t->validation ? 0 : (size_t)st - 1;
	return 0;
}

/* Appends a row of ncols cells (copied; NULL for an empty one), to be
 * sorted by its index once all are read. */
static int table_add(plot_table *t, size_t index, char *const *cells)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **nc = realloc(t->cells, cap * t->ncols * sizeof *nc);
		if (nc)
			t->cells = nc;
		size_t *ni = nc ? realloc(t->index, cap * sizeof *ni) : NULL;
		if (!ni)
			return -1;
		t->index = ni;
		t->cap = cap;
	}
	char **row = t->cells + t->nrows * t->ncols;
	for (size_t i = 0; i < t->ncols; i++)
		row[i] = NULL;
	t->index[t->nrows++] = index;
	for (size_t i = 0; i < t->ncols; i++)
		if (!(row[i] = strdup(cells[i] ? cells[i] : "")))
			return -1;
	return 0;
}

/* ---- CSV ---- */

static int csv_header(plot_table *t, char *line, const char *path, FILE *err)
{
	char *f[1024];
	long n = csv_split(line, f, 1024);
	if (n < 0 || (strcmp(f[0], "index") && strcmp(f[0], "id"))) {
		fprintf(err, "%s:1: not the results of a trainsim sweep (CSV whose first column is "
		        "'index', or JSON Lines) nor the CSV of trainsim validate (first column 'id'); "
		        "plot reads what `trainsim sweep` or `trainsim validate --format csv` writes\n",
		        path);
		return -1;
	}
	return table_columns(t, f, (size_t)n, path, err);
}

static int csv_row(plot_table *t, char *line, const char *path, long lineno, FILE *err)
{
	char *f[1024];
	long n = csv_split(line, f, 1024);
	char *end = "";
	errno = 0;
	/* validation rows keep their order (line number); sweep rows their index */
	size_t index = t->validation ? (size_t)lineno
	             : n > 0 ? (size_t)strtoull(f[0], &end, 10) : 0;
	if (n != (long)t->ncols || !*f[0] || *end || errno) {
		fprintf(err, "%s:%ld: expected %zu fields of a %s row\n", path, lineno, t->ncols,
		        t->validation ? "validation" : "sweep");
		return -1;
	}
	return table_add(t, index, f);
}

/* ---- JSON Lines (`trainsim sweep --format json`) ----
 * Each line is read into the cells the CSV of the same sweep has: a nested
 * member under its dotted path ("split_s.compute"), the name CSV gives its
 * column. The columns are those of every line, in the order they first
 * appear (an invalid point's line has no report fields), so the rows are
 * kept until the last line is read. */

typedef struct jl_row {
	size_t index;
	char **cells;   /* by column; n of them, those past n are empty */
	size_t n;
} jl_row;

typedef struct jsonl {
	char **names;
	size_t nnames, capnames;
	jl_row *rows;
	size_t nrows, caprows;
	size_t hint;    /* where the next member's column likely is */
} jsonl;

/* A member's column; a new one for a name not seen before. Each line names
 * its members in one order, so the search starts after the last found.
 * -1: out of memory. */
static long jl_column(jsonl *jl, const char *name)
{
	for (size_t i = 0; i < jl->nnames; i++) {
		size_t c = (jl->hint + i) % jl->nnames;
		if (!strcmp(jl->names[c], name)) {
			jl->hint = c + 1;
			return (long)c;
		}
	}
	if (jl->nnames == jl->capnames) {
		size_t cap = jl->capnames ? 2 * jl->capnames : 128;
		char **nn = realloc(jl->names, cap * sizeof *nn);
		if (!nn)
			return -1;
		jl->names = nn;
		jl->capnames = cap;
	}
	if (!(jl->names[jl->nnames] = strdup(name)))
		return -1;
	jl->hint = jl->nnames + 1;
	return (long)jl->nnames++;
}

static int jl_set(jl_row *r, size_t col, const char *text)
{
	if (col >= r->n) {
		char **nc = realloc(r->cells, (col + 1) * sizeof *nc);
		if (!nc)
			return -1;
		for (size_t i = r->n; i <= col; i++)
			nc[i] = NULL;
		r->cells = nc;
		r->n = col + 1;
	}
	free(r->cells[col]);
	return (r->cells[col] = strdup(text)) ? 0 : -1;
}

/* A value as its CSV cell: a string as it is, a number as the emitter
 * writes it (json_fmt_num, which CSV uses too), true or false, null empty.
 * NULL for an array (a report's notes), which CSV has no column for. */
static const char *jl_text(const jsonr *v, char *buf, size_t cap)
{
	switch (jsonr_type_of(v)) {
	case JSONR_STR:
		return jsonr_str(v);
	case JSONR_NUM:
		json_fmt_num(buf, cap, jsonr_num(v, 0));
		return buf;
	case JSONR_BOOL:
		return jsonr_bool(v, false) ? "true" : "false";
	case JSONR_NULL:
		return "";
	default:
		return NULL;
	}
}

/* The members of object v into row r, each under its dotted path (path[0
 * .. plen) is v's own). -1: out of memory. */
static int jl_flatten(jsonl *jl, jl_row *r, const jsonr *v, char *path, size_t plen,
                      size_t cap)
{
	for (size_t i = 0; i < jsonr_len(v); i++) {
		const jsonr *m = jsonr_at(v, i);
		int n = snprintf(path + plen, cap - plen, "%s%s", plen ? "." : "", jsonr_key_at(v, i));
		if (n < 0 || (size_t)n >= cap - plen)
			continue;                    /* longer than any column's name */
		if (jsonr_type_of(m) == JSONR_OBJ) {
			if (jl_flatten(jl, r, m, path, plen + (size_t)n, cap) < 0)
				return -1;
			continue;
		}
		char buf[32];
		const char *text = jl_text(m, buf, sizeof buf);
		long c = text ? jl_column(jl, path) : 0;
		if (c < 0 || (text && jl_set(r, (size_t)c, text) < 0))
			return -1;
	}
	return 0;
}

/* Parses one line, saying why not as file:line:col. */
static jsonr *jl_parse(const char *line, size_t len, const char *path, long lineno, FILE *err)
{
	char *msg = NULL;
	size_t msglen = 0;
	FILE *sink = open_memstream(&msg, &msglen);
	if (!sink)
		return NULL;
	/* the reader says ":1:COL: what" of a line named "": the line is ours */
	jsonr *v = jsonr_parse(line, len, "", sink);
	fclose(sink);
	if (!v) {
		const char *col = msg && *msg == ':' ? strchr(msg + 1, ':') : NULL;
		fprintf(err, "%s:%ld%s", path, lineno, col ? col : ": not JSON\n");
		if (lineno == 1)
			fprintf(err, "%s: plot reads a sweep's results, CSV or JSON Lines (one object per "
			        "line: `trainsim sweep --format json`); one run's: `trainsim run --format "
			        "csv`\n", path);
	}
	free(msg);
	return v;
}

/* Whether v is the line of a sweep's point: an object whose first member is
 * its index, a whole number, and that has a status. */
static bool jl_is_row(const jsonr *v, size_t *index)
{
	const char *k = jsonr_key_at(v, 0);
	if (jsonr_type_of(v) != JSONR_OBJ || !k || strcmp(k, "index") ||
	    !jsonr_str(jsonr_get(v, "status")))
		return false;
	double i = jsonr_num(jsonr_at(v, 0), -1);   /* below 2^53: a whole number is exact */
	if (!(i >= 0 && i < 9007199254740992.0) || i != (double)(size_t)i)
		return false;
	*index = (size_t)i;
	return true;
}

static int jl_line(jsonl *jl, const char *line, size_t len, const char *path, long lineno,
                   FILE *err)
{
	jsonr *v = jl_parse(line, len, path, lineno, err);
	if (!v)
		return -1;
	int rc = -1;
	jl_row r = {0};
	char name[512];
	if (jsonr_get(v, "traceEvents")) {   /* the usual mistake: say what draws it */
		fprintf(err, "%s: a Chrome trace: draw it with --kind timeline\n", path);
		goto out_free;
	}
	if (!jl_is_row(v, &r.index)) {
		fprintf(err, "%s:%ld: not a point of `trainsim sweep --format json` (an object with "
		        "\"index\" first, a whole number, and a \"status\")\n", path, lineno);
		goto out_free;
	}
	name[0] = '\0';
	if (jl_flatten(jl, &r, v, name, 0, sizeof name) < 0)
		goto out_free;
	if (jl->nrows == jl->caprows) {
		size_t cap = jl->caprows ? 2 * jl->caprows : 64;
		jl_row *nr = realloc(jl->rows, cap * sizeof *nr);
		if (!nr)
			goto out_free;
		jl->rows = nr;
		jl->caprows = cap;
	}
	jl->rows[jl->nrows++] = r;
	r = (jl_row){0};
	rc = 0;
out_free:
	for (size_t i = 0; i < r.n; i++)
		free(r.cells[i]);
	free(r.cells);
	jsonr_free(v);
	return rc;
}

static void jl_free(jsonl *jl)
{
	for (size_t i = 0; i < jl->nrows; i++) {
		for (size_t c = 0; c < jl->rows[i].n; c++)
			free(jl->rows[i].cells[c]);
		free(jl->rows[i].cells);
	}
	for (size_t i = 0; i < jl->nnames; i++)
		free(jl->names[i]);
	free(jl->names);
	free(jl->rows);
}

/* The table of the lines read: their columns, then their rows. */
static int jl_table(plot_table *t, const jsonl *jl, const char *path, FILE *err)
{
	if (!jl->nrows) {
		fprintf(err, "%s: no whole line; nothing to plot\n", path);
		return -1;
	}
	char **cells = calloc(jl->nnames + 1, sizeof *cells);
	int rc = cells ? table_columns(t, jl->names, jl->nnames, path, err) : -1;
	for (size_t i = 0; i < jl->nrows && rc == 0; i++) {
		const jl_row *r = &jl->rows[i];
		for (size_t c = 0; c < jl->nnames; c++)
			cells[c] = c < r->n ? r->cells[c] : NULL;
		rc = table_add(t, r->index, cells);
	}
	free(cells);
	return rc;
}

/* ---- loading ---- */

typedef struct row_ref {
	size_t index, pos;
} row_ref;

static int ref_cmp(const void *a, const void *b)
{
	const row_ref *x = a, *y = b;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sorts rows by index (a sweep writes them as they finish). */
static int table_sort(plot_table *t)
{
	row_ref *refs = malloc(t->nrows * sizeof *refs + 1);
	char **cells = malloc(t->nrows * t->ncols * sizeof *cells + 1);
	if (!refs || !cells) {
		free(refs);
		free(cells);
		return -1;
	}
	for (size_t i = 0; i < t->nrows; i++)
		refs[i] = (row_ref){t->index[i], i};
	qsort(refs, t->nrows, sizeof *refs, ref_cmp);
	for (size_t i = 0; i < t->nrows; i++) {
		memcpy(cells + i * t->ncols, t->cells + refs[i].pos * t->ncols, t->ncols * sizeof *cells);
		t->index[i] = refs[i].index;
	}
	free(refs);
	free(t->cells);
	t->cells = cells;
	return 0;
}

plot_table *plot_table_load(const char *path, FILE *err)
{
	FILE *in = report_open_results(path, "", err);
	if (!in)
		return NULL;
	plot_table *t = calloc(1, sizeof *t);
	jsonl jl = {0};
	char *line = NULL;
	size_t cap = 0;
	long n;
	long lineno = 0;
	bool lines = false;   /* JSON Lines: their first character is '{' */
	int rc = t ? 0 : -1;
	while (rc == 0 && (n = report_getline(&line, &cap, in, REPORT_LINE_MAX)) != 0) {
		lineno++;
		if (n < 0) {
			if (n == -2)
				fprintf(err, "%s:%ld: a line longer than %u bytes: not a sweep's results "
				        "(a row is a few KB)\n", path, lineno, REPORT_LINE_MAX);
			else
				fprintf(err, "%s: %s\n", path, strerror(errno));
			rc = -1;
			break;
		}
		if (line[n - 1] != '\n') {   /* half-written last line, as merge says */
			fprintf(err, "%s:%ld: dropped a half-written last line\n", path, lineno);
			break;
		}
		line[--n] = 0;
		if (n && line[n - 1] == '\r')
			line[--n] = 0;
		lines |= lineno == 1 && line[0] == '{';
		if (lines && n)
			rc = jl_line(&jl, line, (size_t)n, path, lineno, err);
		else if (lineno == 1)
			rc = csv_header(t, line, path, err);
		else if (n)
			rc = csv_row(t, line, path, lineno, err);
	}
	if (lines && rc == 0)
		rc = jl_table(t, &jl, path, err);
	jl_free(&jl);
	if (rc == 0 && lineno == 0) {
		fprintf(err, "%s: empty; nothing to plot\n", path);
		rc = -1;
	}
	if (rc == 0)
		rc = table_sort(t);
	free(line);
	fclose(in);
	if (rc < 0) {
		plot_table_free(t);
		return NULL;
	}
	return t;
}

void plot_table_free(plot_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (size_t i = 0; t->names && i < t->ncols; i++)
		free(t->names[i]);
	free(t->names);
	free(t->cells);
	free(t->index);
	free(t);
}

size_t plot_table_nrows(const plot_table *t)
{
	return t->nrows;
}

size_t plot_table_ncols(const plot_table *t)
{
	return t->ncols;
}

const char *plot_table_colname(const plot_table *t, size_t col)
{
	return col < t->ncols ? t->names[col] : NULL;
}

int plot_table_find(const plot_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->names[i], name))
			return (int)i;
	return -1;
}

const char *plot_table_cell(const plot_table *t, size_t row, size_t col)
{
	return row < t->nrows && col < t->ncols ? t->cells[row * t->ncols + col] : NULL;
}

bool plot_table_is_validation(const plot_table *t)
{
	return t->validation;
}

void plot_table_keys(const plot_table *t, size_t *first, size_t *n)
{
	*first = t->key_first;
	*n = t->nkeys;
}
