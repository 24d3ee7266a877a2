/* plot_table.c: reads a sweep's CSV results back into a table of strings
 * (RFC 4180 quoting, as sweep.c writes it), rows sorted by point index. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "plot.h"

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

static int table_header(plot_table *t, char *line, const char *path, FILE *err)
{
	char *f[1024];
	long n = csv_split(line, f, 1024);
	t->validation = n > 0 && !strcmp(f[0], "id");
	if (n < 0 || (strcmp(f[0], "index") && !t->validation)) {
		fprintf(err, "%s:1: not the CSV of a trainsim sweep (its first column is not 'index') "
		        "nor of trainsim validate ('id'); plot reads the CSV that `trainsim sweep` or "
		        "`trainsim validate --format csv` writes\n", path);
		return -1;
	}
	t->ncols = (size_t)n;
	if (!(t->names = calloc(t->ncols, sizeof *t->names)))
		return -1;
	for (size_t i = 0; i < t->ncols; i++)
		if (!(t->names[i] = strdup(f[i])))
			return -1;
	int st = plot_table_find(t, "status");
	if (st < 0) {
		fprintf(err, "%s:1: no 'status' column: not the CSV of a trainsim sweep\n", path);
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

static int table_row(plot_table *t, char *line, const char *path, long lineno, FILE *err)
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
		if (!(row[i] = strdup(f[i])))
			return -1;
	return 0;
}

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
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(err, "%s: %s\n", path, strerror(errno));
		return NULL;
	}
	plot_table *t = calloc(1, sizeof *t);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long lineno = 0;
	int rc = t ? 0 : -1;
	while (rc == 0 && (n = getline(&line, &cap, in)) > 0) {
		lineno++;
		if (line[n - 1] != '\n')
			break;                     /* half-written last line */
		line[--n] = 0;
		if (n && line[n - 1] == '\r')
			line[--n] = 0;
		if (lineno == 1)
			rc = table_header(t, line, path, err);
		else if (n)
			rc = table_row(t, line, path, lineno, err);
	}
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
