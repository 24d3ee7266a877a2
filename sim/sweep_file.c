/* sweep_file.c: results files of sweeps: reading the index of a row, taking
 * up an interrupted file for --resume, and merging shard files. Rows are
 * whole lines (written with one write() each), so a line without its newline
 * can only be the trace of an interruption, and is dropped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "jsonr.h"
#include "report.h"
#include "sweep.h"

int sweep_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

bool sweep_line_index(const char *line, size_t len, size_t *index)
{
	static const char jkey[] = "{\"index\":";
	const char *p = line, *end = line + len;
	if (len >= sizeof jkey - 1 && !memcmp(line, jkey, sizeof jkey - 1)) {
		p += sizeof jkey - 1;
		while (p < end && *p == ' ')
			p++;
	}
	if (p == end || *p < '0' || *p > '9')
		return false;
	size_t v = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (v > (SIZE_MAX - 9) / 10)
			return false;
		v = v * 10 + (size_t)(*p - '0');
	}
	if (p == end || (*p != ',' && *p != '}'))
		return false;
	*index = v;
	return true;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == 0;
}

static uint64_t fnv(uint64_t h, const char *s)
{
	for (const char *q = s; ; q++) {
		h = (h ^ (unsigned char)*q) * 0x100000001b3ULL;   /* the NUL separates strings */
		if (!*q)
			return h;
	}
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int sweep_fingerprint(const char *path, const char *const *sets, int nsets, char id[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		FILE *f = fopen(path, "rb");
		if (!f)
			return -1;
		int ch;
		while ((ch = fgetc(f)) != EOF)
			h = (h ^ (unsigned char)ch) * 0x100000001b3ULL;
		bool bad = ferror(f);
		fclose(f);
		if (bad)
			return -1;
	} else {
		h = fnv(h, path);   /* a pipe is read once, by the loader: its name stands for it */
	}
	/* the overrides as a set: their order does not change the scenario */
	const char **sorted = malloc(sizeof *sorted * (size_t)(nsets > 0 ? nsets : 1));
	if (!sorted)
		return -1;
	for (int i = 0; i < nsets; i++)
		sorted[i] = sets[i];
	qsort(sorted, (size_t)nsets, sizeof *sorted, str_cmp);
	for (int i = 0; i < nsets; i++)
		h = fnv(h, sorted[i]);
	free(sorted);
	snprintf(id, 17, "%016llx", (unsigned long long)h);
	return 0;
}

/* Field k (0-based) of a CSV line, quotes respected: its start and length
 * (quotes included); false when the line has fewer fields. */
static bool csv_field_at(const char *line, size_t n, size_t k, const char **f, size_t *len)
{
	size_t i = 0;
	for (size_t field = 0; i <= n; field++) {
		size_t start = i;
		bool q = false;
		while (i < n && (q || (line[i] != ',' && line[i] != '\n'))) {
			if (line[i] == '"')
				q = !q;
			i++;
		}
		if (field == k) {
			*f = line + start;
			*len = i - start;
			return true;
		}
		if (i >= n || line[i] != ',')
			return false;
		i++;
	}
	return false;
}

/* The fields of a CSV line, quotes respected. */
static size_t csv_nfields(const char *line, size_t n)
{
	size_t k = 0;
	const char *f;
	size_t len;
	while (csv_field_at(line, n, k, &f, &len))
		k++;
	return k;
}

/* Whether a CSV row has the header's fields; says where and what if not (a
 * row cut in the middle of a file by a crash or an edit). */
static bool row_whole(const char *line, size_t n, const char *header, const char *who,
                      const char *path, long lineno, FILE *err)
{
	size_t want = csv_nfields(header, strlen(header)), got = csv_nfields(line, n);
	if (got == want)
		return true;
	fprintf(err, "%s%s:%ld: a damaged row (%zu of the header's %zu fields); remove it and run "
	        "the sweep with --resume to redo its point\n", who, path, lineno, got, want);
	return false;
}

/* The last field of a CSV line, its quotes undone, into buf. */
static bool csv_last_field(const char *line, size_t n, char *buf, size_t cap)
{
	const char *f = NULL, *g;
	size_t len = 0, glen;
	for (size_t k = 0; csv_field_at(line, n, k, &g, &glen); k++) {
		f = g;
		len = glen;
	}
	if (!f)
		return false;
	size_t o = 0;
	bool quoted = len >= 2 && f[0] == '"' && f[len - 1] == '"';
	for (size_t i = quoted; i < len - quoted && o + 1 < cap; i++) {
		if (quoted && f[i] == '"')   /* "" in a quoted field is one quote */
			i++;
		buf[o++] = f[i];
	}
	buf[o] = '\0';
	return true;
}

bool sweep_row_error(const char *line, size_t len, sweep_format f, char *buf, size_t cap)
{
	if (!cap)
		return false;
	buf[0] = '\0';
	if (f == SWEEP_CSV)
		return csv_last_field(line, len, buf, cap) && buf[0];
	/* JSON: through the reader, which undoes every escape the emitter writes;
	 * its messages (a row we wrote ourselves is never malformed) are dropped */
	char *msg = NULL;
	size_t msglen = 0;
	FILE *sink = open_memstream(&msg, &msglen);
	jsonr *v = sink ? jsonr_parse(line, len, "row", sink) : NULL;
	if (sink)
		fclose(sink);
	free(msg);
	const char *e = jsonr_str(jsonr_get(v, "error"));
	if (e)
		snprintf(buf, cap, "%s", e);
	jsonr_free(v);
	return e && buf[0];
}

/* The "sweep" fingerprint of a row (CSV: field k; JSON: its key); false
 * when the row has none (a file of an older version). */
static bool row_sweep_id(const char *line, size_t n, sweep_format f, size_t k, const char **id,
                         size_t *len)
{
	if (f == SWEEP_CSV)
		return csv_field_at(line, n, k, id, len);
	static const char key[] = "\"sweep\":\"";
	const char *p = strstr(line, key);
	if (!p)
		return false;
	*id = p + sizeof key - 1;
	const char *e = strchr(*id, '"');
	if (!e)
		return false;
	*len = (size_t)(e - *id);
	return true;
}

/* Checks one row of an existing file against the plan; marks it done. */
static int resume_row(const char *line, size_t n, const char *path, long lineno,
                      const sweep_plan *p, sweep_format f, bool *done, FILE *err)
{
	size_t index;
	if (!sweep_line_index(line, n, &index)) {
		fprintf(err, "%s:%ld: not a row of a trainsim sweep in %s; resume needs a file this "
		        "sweep wrote, with the same --format\n", path, lineno, f == SWEEP_CSV ? "CSV" : "JSON");
		return -1;
	}
	if (index >= sweep_plan_npoints(p)) {
		fprintf(err, "%s:%ld: row of point %zu, but this sweep has %zu points: the file belongs "
		        "to another sweep; use another --out\n", path, lineno, index, sweep_plan_npoints(p));
		return -1;
	}
	char *prefix = sweep_row_prefix(p, f, index);
	if (!prefix) {
		fprintf(err, "%s: out of memory\n", path);
		return -1;
	}
	size_t plen = strlen(prefix);
	bool same = n > plen && !memcmp(line, prefix, plen) && line[plen] == ',';
	if (!same)
		fprintf(err, "%s:%ld: point %zu has other values than in this sweep (expected a row "
		        "starting '%s'): the file belongs to another sweep; use another --out\n",
		        path, lineno, index, prefix);
	free(prefix);
	if (!same)
		return -1;
	/* the same points of another scenario, or the same with other --set */
	const char *id;
	size_t idlen;
	const char *want = sweep_plan_id(p);
	if (*want && !row_sweep_id(line, n, f, sweep_plan_naxes(p) + 2, &id, &idlen)) {
		fprintf(err, "%s:%ld: this row has no sweep fingerprint: the file was written by an "
		        "older trainsim; finish it with that version, or start a new --out\n", path,
		        lineno);
		return -1;
	}
	if (*want && (idlen != strlen(want) || memcmp(id, want, idlen))) {
		fprintf(err, "%s:%ld: this row was written for another scenario file or other --set "
		        "(its sweep fingerprint differs): the file belongs to another sweep; use another "
		        "--out\n", path, lineno);
		return -1;
	}
	done[index] = true;
	return 0;
}

long sweep_resume_scan(int fd, const char *path, const sweep_plan *p, sweep_format f,
                       const char *header, bool *done, FILE *err)
{
	int dfd = dup(fd);
	FILE *in = dfd >= 0 ? fdopen(dfd, "r") : NULL;
	if (!in) {
		fprintf(err, "%s: %s\n", path, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	rewind(in);
	char *line = NULL;
	size_t cap = 0;
	long n;
	off_t whole = 0;          /* end of the last complete line */
	long lineno = 0, rows = 0;
	bool partial = false;
	while ((n = report_getline(&line, &cap, in, REPORT_LINE_MAX)) != 0) {
		if (n == -2) {
			fprintf(err, "%s:%ld: a line longer than %u bytes: not a sweep's output; use "
			        "another --out\n", path, lineno + 1, REPORT_LINE_MAX);
			goto out_fail;
		}
		if (n < 0)
			break;   /* ferror, below */
		if (line[n - 1] != '\n') {
			/* an interrupted run's last line, after a header or a row this
			 * sweep wrote; a file that holds no whole line is not one of
			 * its files unless its text starts one (truncating it to
			 * nothing would lose what someone else wrote) */
			const char *start = f == SWEEP_CSV ? header : "{\"index\":";
			size_t k = strlen(start) < (size_t)n ? strlen(start) : (size_t)n;
			if (lineno == 0 && strncmp(line, start, k)) {
				fprintf(err, "%s:1: not this sweep's output (no %s line); use another "
				        "--out\n", path, f == SWEEP_CSV ? "header" : "JSON row");
				goto out_fail;
			}
			partial = true;
			break;
		}
		lineno++;
		if (lineno == 1 && f == SWEEP_CSV) {
			if (strcmp(line, header)) {
				fprintf(err, "%s:1: its header differs from this sweep's; resume needs the same "
				        "--vary keys in the same order and --format csv\n  file:  %s  sweep: %s",
				        path, line, header);
				goto out_fail;
			}
		} else if (!blank(line)) {
			if (f == SWEEP_CSV && !row_whole(line, (size_t)n, header, "", path, lineno, err))
				goto out_fail;
			if (resume_row(line, (size_t)n, path, lineno, p, f, done, err) < 0)
				goto out_fail;
			rows++;
		}
		whole += n;
	}
	if (ferror(in)) {
		fprintf(err, "%s: %s\n", path, strerror(errno));
		goto out_fail;
	}
	if (partial) {
		fprintf(err, "%s: dropped a half-written last line (an interrupted run); its point "
		        "runs again\n", path);
		if (ftruncate(fd, whole) < 0) {
			fprintf(err, "%s: cannot truncate: %s\n", path, strerror(errno));
			goto out_fail;
		}
	}
	free(line);
	fclose(in);
	return rows;
out_fail:
	free(line);
	fclose(in);
	return -1;
}

/* ---- merge ---- */

typedef struct merge_row {
	size_t index;
	size_t seq;           /* input order, for a stable sort */
	char *line;
	size_t len;
	const char *path;
	long lineno;
} merge_row;

typedef struct merge_set {
	merge_row *rows;
	size_t n, cap;
	char *header;         /* CSV header line of the first input; NULL for JSON */
	int format;           /* -1 unknown yet, else sweep_format */
	const char *header_path;
	long sweep_col;       /* CSV: the "sweep" column, -1 none (an older file) */
	char sweep_id[24];    /* the fingerprint of the first row that has one */
	const char *id_path;
} merge_set;

static int merge_push(merge_set *m, merge_row r)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		merge_row *nr = realloc(m->rows, cap * sizeof *nr);
		if (!nr)
			return -1;
		m->rows = nr;
		m->cap = cap;
	}
	r.seq = m->n;
	m->rows[m->n++] = r;
	return 0;
}

/* The first line of a file decides its format: '{' = JSON Lines, else a
 * CSV header, which must equal the first file's. */
static int merge_first_line(merge_set *m, const char *line, const char *path, bool *is_header,
                            FILE *err)
{
	int f = line[0] == '{' ? SWEEP_JSON : SWEEP_CSV;
	*is_header = f == SWEEP_CSV;
	if (m->format >= 0 && m->format != f) {
		fprintf(err, "merge: %s is %s but %s is %s; merge files of one format\n", path,
		        f == SWEEP_CSV ? "CSV" : "JSON Lines", m->header_path,
		        m->format == SWEEP_CSV ? "CSV" : "JSON Lines");
		return -1;
	}
	if (m->format < 0) {
		m->format = f;
		m->header_path = path;
		if (f == SWEEP_CSV && !(m->header = strdup(line))) {
			fprintf(err, "merge: out of memory\n");
			return -1;
		}
		m->sweep_col = -1;
		const char *fld;
		size_t len;
		for (size_t k = 0; f == SWEEP_CSV && csv_field_at(line, strlen(line), k, &fld, &len); k++)
			if (len == 5 && !memcmp(fld, "sweep", 5)) {
				m->sweep_col = (long)k;
				break;
			}
	} else if (f == SWEEP_CSV && strcmp(m->header, line)) {
		fprintf(err, "merge: the header of %s differs from that of %s: different sweeps\n",
		        path, m->header_path);
		return -1;
	}
	return 0;
}

static int merge_read(merge_set *m, const char *path, FILE *err)
{
	FILE *in = report_open_results(path, "merge: ", err);
	if (!in)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	long n;
	long lineno = 0;
	int rc = -1;
	while ((n = report_getline(&line, &cap, in, REPORT_LINE_MAX)) != 0) {
		lineno++;
		if (n < 0) {
			if (n == -2)
				fprintf(err, "merge: %s:%ld: a line longer than %u bytes: not a sweep's "
				        "output (a row is a few KB)\n", path, lineno, REPORT_LINE_MAX);
			else
				fprintf(err, "merge: %s: %s\n", path, strerror(errno));
			goto out;
		}
		if (line[n - 1] != '\n') {
			fprintf(err, "merge: %s:%ld: dropped a half-written last line\n", path, lineno);
			break;
		}
		bool is_header = false;
		if (lineno == 1 && merge_first_line(m, line, path, &is_header, err) < 0)
			goto out;
		/* Headers further down come from plain concatenation (cat a.csv b.csv). */
		if (is_header || blank(line) || (m->header && !strcmp(line, m->header)))
			continue;
		merge_row r = {.path = path, .lineno = lineno, .len = (size_t)n};
		if (m->format == SWEEP_CSV && m->header &&
		    !row_whole(line, (size_t)n, m->header, "merge: ", path, lineno, err))
			goto out;
		if (!sweep_line_index(line, (size_t)n, &r.index)) {
			fprintf(err, "merge: %s:%ld: not a row of a trainsim sweep\n", path, lineno);
			goto out;
		}
		const char *id;
		size_t idlen;
		if ((m->format == SWEEP_JSON || m->sweep_col >= 0) &&
		    row_sweep_id(line, (size_t)n, (sweep_format)m->format, (size_t)m->sweep_col, &id,
		                 &idlen) && idlen > 0 && idlen < sizeof m->sweep_id) {
			if (!m->sweep_id[0]) {
				memcpy(m->sweep_id, id, idlen);
				m->sweep_id[idlen] = 0;
				m->id_path = path;
			} else if (idlen != strlen(m->sweep_id) || memcmp(id, m->sweep_id, idlen)) {
				fprintf(err, "merge: %s:%ld: a row of another sweep (fingerprint %.*s, %s has "
				        "%s): another scenario file or other --set; not merged (to draw "
				        "several sweeps side by side: trainsim plot %s %s --kind split -o FILE.png)\n",
				        path, lineno, (int)idlen, id, m->id_path, m->sweep_id, m->id_path, path);
				goto out;
			}
		}
		if (!(r.line = strndup(line, (size_t)n)) || merge_push(m, r) < 0) {
			free(r.line);
			fprintf(err, "merge: out of memory\n");
			goto out;
		}
	}
	rc = ferror(in) ? -1 : 0;
	if (rc)
		fprintf(err, "merge: %s: %s\n", path, strerror(errno));
out:
	free(line);
	fclose(in);
	return rc;
}

static int row_cmp(const void *a, const void *b)
{
	const merge_row *x = a, *y = b;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts and drops duplicates; two different rows for one index are an error. */
static int merge_dedup(merge_set *m, FILE *err)
{
	if (m->n == 0)
		return 0;
	qsort(m->rows, m->n, sizeof *m->rows, row_cmp);
	size_t out = 0;
	for (size_t i = 0; i < m->n; i++) {
		merge_row *r = &m->rows[i];
		if (out && m->rows[out - 1].index == r->index) {
			merge_row *kept = &m->rows[out - 1];
			bool same = kept->len == r->len && !memcmp(kept->line, r->line, r->len);
			if (!same) {
				fprintf(err, "merge: point %zu differs between %s:%ld and %s:%ld: rows of "
				        "different sweeps or versions; not merged\n", r->index, kept->path,
				        kept->lineno, r->path, r->lineno);
				for (size_t j = i; j < m->n; j++)   /* not yet kept nor freed */
					free(m->rows[j].line);
				m->n = out;
				return -1;
			}
			free(r->line);
			continue;
		}
		m->rows[out++] = *r;
	}
	m->n = out;
	return 0;
}

/* Writes the set whole or not at all (a temporary file renamed over `out`). */
static int merge_write(const merge_set *m, const char *out, FILE *err)
{
	char msg[512];
	report_file *rf = report_file_open(out, msg, sizeof msg);
	if (!rf) {
		fprintf(err, "merge: %s\n", msg);
		return -1;
	}
	FILE *f = report_file_stream(rf);
	if (m->header)
		fputs(m->header, f);
	for (size_t i = 0; i < m->n; i++)
		fwrite(m->rows[i].line, 1, m->rows[i].len, f);
	if (report_file_commit(rf, msg, sizeof msg) < 0) {
		fprintf(err, "merge: %s\n", msg);
		return -1;
	}
	return 0;
}

int sweep_merge(const char *out, const char *const *in, size_t nin, FILE *err)
{
	merge_set m = {.format = -1};
	int rc = -1;
	for (size_t i = 0; i < nin; i++)
		if (merge_read(&m, in[i], err) < 0)
			goto out_free;
	if (merge_dedup(&m, err) < 0)
		goto out_free;
	if (m.n == 0) {   /* nothing to join: no OUT, rather than an empty one */
		fprintf(err, "merge: no rows of a sweep in the inputs; %s not written\n", out);
		goto out_free;
	}
	/* a missing shard is no error (it may still be running), but say so */
	size_t missing = m.n ? m.rows[m.n - 1].index + 1 - m.n : 0;
	if (missing)
		fprintf(err, "merge: %zu of the points up to %zu are missing (a shard not given or "
		        "not finished?)\n", missing, m.rows[m.n - 1].index);
	rc = merge_write(&m, out, err);
out_free:
	for (size_t i = 0; i < m.n; i++)
		free(m.rows[i].line);
	free(m.rows);
	free(m.header);
	return rc;
}
