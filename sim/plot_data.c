/* plot_data.c: the .dat files of the speed and split plots, from a sweep's
 * results table. Each is plain text that gnuplot reads and a user can edit;
 * the layout of each is described at the top of its script in plots/. */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <math.h>
#include <strings.h>
#include "plot.h"
#include "units.h"
#include "step.h"

/* A string as a gnuplot data field: in double quotes, with no quote inside. */
static void put_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++)
		fputc(*s == '"' || *s == '\\' ? '\'' : *s, out);
	fputc('"', out);
}

static const char *last_part(const char *key)
{
	const char *dot = strrchr(key, '.');
	return dot ? dot + 1 : key;
}

static bool plain_number(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return end != s && !*end && isfinite(*v);
}

/* Rows with numbers: finished points, including those that do not fit. */
static bool row_has_numbers(const plot_table *t, size_t row, int status_col, int need_col)
{
	const char *st = plot_table_cell(t, row, (size_t)status_col);
	const char *v = plot_table_cell(t, row, (size_t)need_col);
	return (!strcmp(st, "ok") || !strcmp(st, "no_fit")) && v && *v;
}

/* A picture with more lines than a legend can tell apart, or whose lines mix
 * points of a varied key that is neither x nor a series, misleads: say so. */
static void warn_series(const plot_table *t, int xc, const int *sc, size_t nsc, size_t nseries,
                        FILE *err)
{
	if (nseries > 12)
		fprintf(err, "plot: %zu series, more than a legend keeps apart; choose them with "
		        "--series KEY (or plot a subset of the rows)\n", nseries);
	size_t kf, nk;
	plot_table_keys(t, &kf, &nk);
	for (size_t k = kf; k < kf + nk; k++) {
		bool used = (int)k == xc;
		for (size_t i = 0; i < nsc; i++)
			used |= sc[i] == (int)k;
		const char *first = plot_table_nrows(t) ? plot_table_cell(t, 0, k) : "";
		bool varies = false;
		for (size_t r = 1; r < plot_table_nrows(t) && !varies; r++)
			varies = strcmp(plot_table_cell(t, r, k), first) != 0;
		if (!used && varies)
			fprintf(err, "plot: the rows also vary %s, which is neither x nor a series: its "
			        "values share each line; add it to --series or plot a subset\n",
			        plot_table_colname(t, k));
	}
}

/* "tp=8 pp=4" from the given columns of a row. */
static void row_label(const plot_table *t, size_t row, const int *cols, size_t n, char *buf,
                      size_t cap)
{
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s=%s", i ? " " : "",
		                        last_part(plot_table_colname(t, (size_t)cols[i])),
		                        plot_table_cell(t, row, (size_t)cols[i]));
}

/* ---- the title of a single series ---- */

/* What the values of a varied key are: quantities of one unit kind
 * ("10Gbps", "80GB"), plain numbers ("8"), or words ("ring"). */
typedef struct key_kind {
	enum { KEY_WORDS, KEY_NUMBERS, KEY_QUANTITIES } what;
	unit_kind unit;
} key_kind;

static bool is_quantity(const char *s, unit_kind kind)
{
	double v;
	char e[200];
	return unit_parse(s, kind, &v, e, sizeof e) == 0;
}

static key_kind kind_of_key(const plot_table *t, size_t col)
{
	static const unit_kind units[] = {UNIT_BANDWIDTH, UNIT_BYTES, UNIT_TIME, UNIT_FLOPS,
		UNIT_POWER};
	size_t nr = plot_table_nrows(t);
	for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
		bool all = true;
		for (size_t r = 0; r < nr && all; r++)
			all = is_quantity(plot_table_cell(t, r, col), units[u]);
		if (all)
			return (key_kind){KEY_QUANTITIES, units[u]};
	}
	bool numbers = true;
	double v;
	for (size_t r = 0; r < nr && numbers; r++)
		numbers = plain_number(plot_table_cell(t, r, col), &v);
	return (key_kind){numbers ? KEY_NUMBERS : KEY_WORDS, UNIT_COUNT};
}

/* Whether a word of a scenario's name states a value of the key in column
 * col: any quantity of the key's kind ("10GbE" when NIC speeds are swept,
 * whichever speeds), one of its words; numbers are left to numbered(). */
static bool word_states(const plot_table *t, size_t col, key_kind kind, const char *word)
{
	if (kind.what == KEY_QUANTITIES)
		return is_quantity(word, kind.unit);
	if (kind.what == KEY_NUMBERS)
		return false;
	for (size_t r = 0; r < plot_table_nrows(t); r++)
		if (!strcasecmp(word, plot_table_cell(t, r, col)))
			return true;
	return false;
}

/* The text with '_' and '-' read as blanks and blanks squeezed: a key's
 * name as a phrase ("micro_batch" as "micro batch"). */
static void as_phrase(const char *s, char *out, size_t cap)
{
	size_t k = 0;
	for (; *s && k + 1 < cap; s++) {
		char c = *s == '_' || *s == '-' ? ' ' : *s;
		if (c == ' ' && (k == 0 || out[k - 1] == ' '))
			continue;
		out[k++] = c;
	}
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
}

/* Whether `phrase` (words apart by single blanks) is at p as whole words,
 * a blank of it matching a blank, '-' or '_' of the text ("micro-batch"),
 * or its singular ("nodes" -> "node"); a number may follow it right away
 * ("TP8"), a hyphen may not ("node-local"). Its length in the text in *len. */
static bool phrase_at(const char *p, const char *phrase, size_t *len)
{
	size_t k = strlen(phrase);
	for (int sing = 0; sing < 2; sing++) {
		size_t n = k - (size_t)sing, i = 0;
		if (sing && (k < 2 || (phrase[k - 1] != 's' && phrase[k - 1] != 'S')))
			break;
		for (; i < n && p[i]; i++)
			if (phrase[i] == ' ' ? !strchr(" -_", p[i])
			                     : tolower((unsigned char)p[i]) != tolower((unsigned char)phrase[i]))
				break;
		if (i == n && p[n] != '-' && (!isalnum((unsigned char)p[n]) ||
		                              isdigit((unsigned char)p[n]))) {
			*len = n;
			return true;
		}
	}
	return false;
}

/* Whether a part of a name states one of column col's numbers named with
 * its key ("tp=4", "TP4", "tp 4", "4 nodes", "micro-batch 4", "8 GPUs per
 * node"), not a bare number that counts something else ("4 x 8 A100" when
 * tp is swept). */
static bool numbered(const plot_table *t, size_t col, const char *part)
{
	const char *key = plot_table_colname(t, col), *dot = strrchr(key, '.');
	char name[64];
	as_phrase(dot ? dot + 1 : key, name, sizeof name);
	const char *text = part;
	if (!name[0])
		return false;
	for (const char *p = text; *p; p++) {
		size_t n;
		if ((p != text && isalnum((unsigned char)p[-1])) || !phrase_at(p, name, &n)) {
			/* "4 nodes": a number, a blank, the key */
			if (isdigit((unsigned char)*p) && (p == text || !isalnum((unsigned char)p[-1]))) {
				const char *e = p + strspn(p, "0123456789.");
				if (*e == ' ' && phrase_at(e + 1, name, &n))
					return true;
			}
			continue;
		}
		/* "tp=4", "TP4", "tp 4", "micro batch 4" */
		const char *x = p + n;
		while (*x == ' ' || *x == '=' || *x == ':')
			x++;
		if (isdigit((unsigned char)*x))
			return true;
	}
	return false;
}

/* Whether a comma-separated part of a scenario's name states a value of a
 * varied key, word by word; "10 Gb/s" is read as one word too. */
static bool part_states(const plot_table *t, const char *part, size_t len)
{
	char buf[512], buf0[512], *w[64];
	size_t nw = 0, kf, nk;
	snprintf(buf, sizeof buf, "%.*s", (int)len, part);
	snprintf(buf0, sizeof buf0, "%s", buf);   /* whole, for numbered(): strtok cuts buf */
	for (char *save = NULL, *x = strtok_r(buf, " ()[];:", &save); x && nw < 64;
	     x = strtok_r(NULL, " ()[];:", &save))
		w[nw++] = x;
	plot_table_keys(t, &kf, &nk);
	for (size_t k = kf; k < kf + nk; k++) {
		key_kind kind = kind_of_key(t, k);
		if (kind.what == KEY_NUMBERS && numbered(t, k, buf0))
			return true;
		for (size_t i = 0; i < nw; i++) {
			char two[512];
			double v;
			if (word_states(t, k, kind, w[i]))
				return true;
			if (i + 1 < nw && plain_number(w[i], &v) &&
			    snprintf(two, sizeof two, "%s%s", w[i], w[i + 1]) < (int)sizeof two &&
			    word_states(t, k, kind, two))
				return true;
		}
	}
	return false;
}

/* The title of a single series: the scenario's name without its
 * comma-separated parts that state a value of a varied key, since the line
 * spans its values ("100B GPT, data-parallel on 4 x 8 A100, 10GbE" swept
 * over NIC speeds is "100B GPT, data-parallel on 4 x 8 A100"); "all points"
 * when nothing is left or the results have no scenario column. */
static void single_title(const plot_table *t, char *buf, size_t cap)
{
	int name = plot_table_find(t, "scenario");
	const char *s = name >= 0 && plot_table_nrows(t) ? plot_table_cell(t, 0, (size_t)name) : "";
	size_t len = 0;
	buf[0] = 0;
	while (*s && len + 1 < cap) {
		size_t n = strcspn(s, ",");
		const char *part = s + strspn(s, " ");
		size_t plen = part < s + n ? n - (size_t)(part - s) : 0;
		if (plen && !part_states(t, part, plen))
			len += (size_t)snprintf(buf + len, cap - len, "%s%.*s", len ? ", " : "",
			                        (int)plen, part);
		s += n + (s[n] == ',');
	}
	if (!buf[0])
		snprintf(buf, cap, "all points");
}

void plot_table_title(const plot_table *t, char *buf, size_t cap)
{
	int name = plot_table_find(t, "scenario");
	buf[0] = 0;
	if (name < 0 || !plot_table_nrows(t))
		return;
	for (size_t r = 1; r < plot_table_nrows(t); r++)
		if (strcmp(plot_table_cell(t, r, (size_t)name), plot_table_cell(t, 0, (size_t)name)))
			return;
	single_title(t, buf, cap);
	if (!strcmp(buf, "all points"))
		buf[0] = 0;
}

/* ---- speed ---- */

typedef struct speed_pt {
	size_t series;
	double x;
	size_t row;
} speed_pt;

static int pt_cmp(const void *a, const void *b)
{
	const speed_pt *p = a, *q = b;
	if (p->series != q->series)
		return p->series < q->series ? -1 : 1;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->row < q->row ? -1 : p->row > q->row;
}

static int choose_x(const plot_table *t, const char *x_key, FILE *err)
{
	size_t kf, nk;
	plot_table_keys(t, &kf, &nk);
	if (x_key) {
		int c = plot_table_find(t, x_key);
		if (c < 0)
			fprintf(err, "plot: --x %s: no such column in the results\n", x_key);
		return c;
	}
	for (size_t i = kf; i < kf + nk; i++) {
		const char *name = plot_table_colname(t, i);
		size_t n = strlen(name);
		if (n >= 9 && !strcmp(name + n - 9, "nic.speed"))
			return (int)i;
	}
	if (nk == 0)
		fprintf(err, "plot: the results vary no key; name the x axis with --x COLUMN\n");
	return nk ? (int)kf : -1;
}

/* Series columns: the named ones (comma-separated), or every varied key but x. */
static int choose_series(const plot_table *t, const char *series_key, int xc, int *cols,
                         size_t *n, FILE *err)
{
	size_t kf, nk;
	plot_table_keys(t, &kf, &nk);
	*n = 0;
	if (!series_key) {
		for (size_t i = kf; i < kf + nk && *n < 32; i++)
			if ((int)i != xc)
				cols[(*n)++] = (int)i;
		return 0;
	}
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", series_key);
	for (char *save = NULL, *k = strtok_r(buf, ",", &save); k && *n < 32;
	     k = strtok_r(NULL, ",", &save)) {
		int c = plot_table_find(t, k);
		if (c < 0) {
			fprintf(err, "plot: --series %s: no such column in the results\n", k);
			return -1;
		}
		cols[(*n)++] = c;
	}
	return 0;
}

/* x values: plain numbers, else bandwidths (in Gb/s), else categories in
 * order of appearance. Fills pts[i].x and the axis. */
static void x_values(const plot_table *t, int xc, speed_pt *pts, size_t n, plot_axis *axis)
{
	const char *name = plot_table_colname(t, (size_t)xc);
	bool plain = true, bandwidth = true;
	for (size_t i = 0; i < n && plain; i++)
		plain = plain_number(plot_table_cell(t, pts[i].row, (size_t)xc), &pts[i].x);
	/* in the unit the values are written in: bits (100Gbps, 25Gb/s) as Gb/s,
	 * bytes (400GB/s, a storage's) as GB/s, as the ticks print them */
	bool bytes = !plain;
	for (size_t i = 0; i < n && bytes; i++) {
		const char *v = plot_table_cell(t, pts[i].row, (size_t)xc);
		bytes = strstr(v, "B/s") != NULL;
	}
	for (size_t i = 0; i < n && !plain && bandwidth; i++) {
		char e[200];
		bandwidth = unit_parse(plot_table_cell(t, pts[i].row, (size_t)xc), UNIT_BANDWIDTH,
		                       &pts[i].x, e, sizeof e) == 0;
		pts[i].x = bytes ? pts[i].x / 1e9 : pts[i].x * 8 / 1e9;   /* bytes/s -> GB/s, Gb/s */
	}
	if (plain || bandwidth) {
		snprintf(axis->label, sizeof axis->label, "%s%s",
		         strstr(name, "nic.speed") ? "NIC speed" : name,
		         plain ? "" : bytes ? " (GB/s)" : " (Gb/s)");
	} else {
		/* Categories: the position of the value's first appearance. */
		size_t ncat = 0;
		for (size_t i = 0; i < n; i++) {
			const char *v = plot_table_cell(t, pts[i].row, (size_t)xc);
			size_t j = 0;
			while (strcmp(plot_table_cell(t, pts[j].row, (size_t)xc), v))
				j++;
			pts[i].x = j == i ? (double)ncat++ : pts[j].x;
		}
		snprintf(axis->label, sizeof axis->label, "%s", name);
	}
	double lo = INFINITY, hi = 0;
	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, pts[i].x);
		hi = fmax(hi, pts[i].x);
	}
	axis->log = (plain || bandwidth) && n && lo > 0 && hi / lo >= 8;
}

static void speed_blocks(FILE *out, const plot_table *t, const speed_pt *pts, size_t n,
                         const int *sc, size_t nsc, int xc)
{
	int st = plot_table_find(t, "step_time_s"), mfu = plot_table_find(t, "mfu");
	int util = plot_table_find(t, "gpu_util"), stc = plot_table_find(t, "status");
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || pts[i].series != pts[i - 1].series) {
			/* A single series is named after the scenario. */
			char label[512];
			if (nsc)
				row_label(t, pts[i].row, sc, nsc, label, sizeof label);
			else
				single_title(t, label, sizeof label);
			fputs(i ? "\n\n" : "", out);
			put_quoted(out, label);
			fputc('\n', out);
		}
		size_t r = pts[i].row;
		fprintf(out, "%.10g %s %s %s ", pts[i].x, plot_table_cell(t, r, (size_t)st),
		        plot_table_cell(t, r, (size_t)mfu), plot_table_cell(t, r, (size_t)util));
		put_quoted(out, plot_table_cell(t, r, (size_t)xc));
		/* column 6: 1 when the layout fits in GPU memory, 0 when not (no_fit) */
		fprintf(out, " %d\n", strcmp(plot_table_cell(t, r, (size_t)stc), "no_fit") != 0);
	}
}

int plot_write_speed(const plot_table *t, const char *x_key, const char *series_key, FILE *out,
                     plot_axis *axis, FILE *err)
{
	int status = plot_table_find(t, "status"), st = plot_table_find(t, "step_time_s");
	if (st < 0 || plot_table_find(t, "mfu") < 0 || plot_table_find(t, "gpu_util") < 0) {
		fprintf(err, "plot: the results lack step_time_s, mfu or gpu_util\n");
		return -1;
	}
	int xc = choose_x(t, x_key, err), sc[32];
	size_t nsc;
	if (xc < 0 || choose_series(t, series_key && *series_key ? series_key : NULL, xc, sc, &nsc,
	                            err) < 0)
		return -1;
	if (series_key && !*series_key)
		nsc = 0;
	size_t nr = plot_table_nrows(t), n = 0, nseries = 0;
	speed_pt *pts = calloc(nr + 1, sizeof *pts);
	char (*labels)[512] = calloc(nr + 1, sizeof *labels);   /* one per series */
	if (!pts || !labels)
		goto out_free;
	for (size_t r = 0; r < nr; r++) {
		if (!row_has_numbers(t, r, status, st))
			continue;
		row_label(t, r, sc, nsc, labels[nseries], sizeof labels[nseries]);
		size_t s = 0;
		while (strcmp(labels[s], labels[nseries]))   /* series in order of appearance */
			s++;
		nseries += s == nseries;
		pts[n++] = (speed_pt){.series = s, .row = r};
	}
	if (n == 0) {
		fprintf(err, "plot: no row with numbers (status ok or no_fit) to plot\n");
		goto out_free;
	}
	x_values(t, xc, pts, n, axis);
	qsort(pts, n, sizeof *pts, pt_cmp);
	warn_series(t, xc, sc, nsc, nseries, err);
	speed_blocks(out, t, pts, n, sc, nsc, xc);
	free(labels);
	free(pts);
	return ferror(out) ? -1 : 0;
out_free:
	free(labels);
	free(pts);
	return -1;
}

/* ---- split ---- */

/* Whether a column holds a number other than zero in a row with numbers. */
static bool col_used(const plot_table *t, int col, int status)
{
	for (size_t r = 0; r < plot_table_nrows(t); r++)
		if (row_has_numbers(t, r, status, col) && strtod(plot_table_cell(t, r, (size_t)col), NULL))
			return true;
	return false;
}

/* The bars' categories, over every table: split_s.<category> for each of
 * the step's categories in their fixed order (plot_write_colours: the place
 * is the colour), then the split_s.* columns of other names (a later
 * version's) not zero everywhere. shown[i]: not zero in some table. Returns
 * how many (at most cap). */
static size_t split_names(const plot_table *const *ts, size_t nt, char (*names)[64], bool *shown,
                          size_t cap)
{
	size_t n = 0;
	for (int k = 0; k < SPLIT__N && n < cap; k++) {
		snprintf(names[n], sizeof names[n], "split_s.%s", step_split_name((step_split)k));
		shown[n] = false;
		for (size_t i = 0; i < nt && !shown[n]; i++) {
			int c = plot_table_find(ts[i], names[n]);
			shown[n] = c >= 0 && col_used(ts[i], c, plot_table_find(ts[i], "status"));
		}
		n++;
	}
	for (size_t i = 0; i < nt; i++)
		for (size_t c = 0; c < plot_table_ncols(ts[i]) && n < cap; c++) {
			const char *name = plot_table_colname(ts[i], c);
			bool known = false;
			for (size_t j = 0; j < n && !known; j++)
				known = !strcmp(names[j], name);
			if (!known && !strncmp(name, "split_s.", 8) && strlen(name) < sizeof names[n] &&
			    col_used(ts[i], (int)c, plot_table_find(ts[i], "status"))) {
				snprintf(names[n], sizeof names[n], "%s", name);
				shown[n++] = true;
			}
		}
	return n;
}

/* The label under a row's bar; with several files, each row's scenario
 * first, before the values of its varied keys. */
static void split_label(const plot_table *t, size_t r, bool several, char *label, size_t cap)
{
	int name = plot_table_find(t, "scenario"), keys[32];
	size_t kf, nk;
	plot_table_keys(t, &kf, &nk);
	nk = nk < 32 ? nk : 32;
	for (size_t i = 0; i < nk; i++)
		keys[i] = (int)(kf + i);
	size_t len = 0;
	label[0] = 0;
	if (name >= 0 && (nk == 0 || several))   /* `run --format csv`, a sweep without --vary */
		len = (size_t)snprintf(label, cap, "%s%s", plot_table_cell(t, r, (size_t)name),
		                       nk ? ": " : "");
	if (len >= cap)
		len = cap - 1;
	if (nk == 1)
		snprintf(label + len, cap - len, "%s", plot_table_cell(t, r, kf));
	else if (nk == 0 && name < 0)
		snprintf(label + len, cap - len, "point %s", plot_table_cell(t, r, 0));
	else if (nk > 1)
		row_label(t, r, keys, nk, label + len, cap - len);
	/* a layout that does not fit in GPU memory says so under its bar */
	if (!strcmp(plot_table_cell(t, r, (size_t)plot_table_find(t, "status")), "no_fit"))
		strncat(label, " (no fit)", cap - strlen(label) - 1);
}

int plot_write_split(const plot_table *const *ts, size_t nt, bool percent, FILE *out, FILE *err)
{
	char names[64][64];
	bool shown[64];
	int cols[64];
	size_t ncols = split_names(ts, nt, names, shown, 64);
	bool any = false;
	for (size_t i = 0; i < ncols; i++)
		any |= shown[i];
	if (!any) {
		fprintf(err, "plot: no row with a time split to plot\n");
		return -1;
	}
	/* a category zero everywhere keeps its place (its colour) under an
	 * empty name, which gnuplot leaves out of the key */
	fputs("configuration", out);
	for (size_t i = 0; i < ncols; i++)
		fprintf(out, " %s", shown[i] ? names[i] + 8 : "\"\"");
	fputc('\n', out);
	/* How many bars are too many to label depends on the canvas:
	 * plots/split.gp lays them out and says so. */
	for (size_t k = 0; k < nt; k++) {
		const plot_table *t = ts[k];
		int status = plot_table_find(t, "status"), first = -1;
		for (size_t i = 0; i < ncols; i++) {
			cols[i] = plot_table_find(t, names[i]);
			if (first < 0 && shown[i] && cols[i] >= 0)
				first = cols[i];
		}
		for (size_t r = 0; first >= 0 && r < plot_table_nrows(t); r++) {
			if (!row_has_numbers(t, r, status, first))
				continue;
			char label[512];
			split_label(t, r, nt > 1, label, sizeof label);
			put_quoted(out, label);
			double total = 0;
			for (size_t i = 0; i < ncols; i++)
				total += cols[i] >= 0 ? strtod(plot_table_cell(t, r, (size_t)cols[i]), NULL) : 0;
			for (size_t i = 0; i < ncols; i++) {
				const char *v = cols[i] >= 0 ? plot_table_cell(t, r, (size_t)cols[i]) : "";
				if (percent)   /* the share of the row's step */
					fprintf(out, " %.6g", total > 0 ? 100 * strtod(v, NULL) / total : 0);
				else
					fprintf(out, " %s", *v ? v : "0");
			}
			fputc('\n', out);
		}
	}
	return ferror(out) ? -1 : 0;
}

/* ---- parity (validation) ---- */

static const char *cell_or_empty(const plot_table *t, size_t row, int col)
{
	return col >= 0 ? plot_table_cell(t, row, (size_t)col) : "";
}

int plot_write_parity(const plot_table *t, FILE *out, FILE *err)
{
	if (!plot_table_is_validation(t)) {
		fprintf(err, "plot: --kind parity reads the CSV of `trainsim validate --format csv`\n");
		return -1;
	}
	int fam = plot_table_find(t, "family"), pub = plot_table_find(t, "published");
	int pred = plot_table_find(t, "predicted"), st = plot_table_find(t, "status");
	int note = plot_table_find(t, "note"), id = plot_table_find(t, "id");
	int ep = plot_table_find(t, "error_pct");
	size_t n = plot_table_nrows(t), blocks = 0, points = 0;
	/* families in the order of their first row; rows of a family together */
	for (size_t i = 0; i < n; i++) {
		const char *f = cell_or_empty(t, i, fam);
		size_t j = 0;
		while (j < i && strcmp(cell_or_empty(t, j, fam), f))
			j++;
		if (j < i)
			continue;            /* family already written */
		bool opened = false;
		for (size_t k = i; k < n; k++) {
			if (strcmp(cell_or_empty(t, k, fam), f) || strcmp(plot_table_cell(t, k, (size_t)st), "ok"))
				continue;
			if (!strcmp(cell_or_empty(t, k, note), "param source"))
				continue;    /* agreement by construction */
			double a = atof(plot_table_cell(t, k, (size_t)pub));
			double b = atof(plot_table_cell(t, k, (size_t)pred));
			if (!(a > 0) || !(b > 0) || !isfinite(a) || !isfinite(b))
				continue;    /* a log-log plot: positive values only */
			if (!opened) {
				fputs(blocks ? "\n\n" : "", out);
				put_quoted(out, *f ? f : "rows");
				fputc('\n', out);
				opened = true;
				blocks++;
			}
			const char *e = cell_or_empty(t, k, ep);
			fprintf(out, "%.10g %.10g %s ", a, b, *e ? e : "0");
			put_quoted(out, cell_or_empty(t, k, id));
			fputc('\n', out);
			points++;
		}
	}
	if (!points) {
		fprintf(err, "plot: no predicted row with positive values to plot\n");
		return -1;
	}
	return ferror(out) ? -1 : 0;
}
