/* val_csv.c: reads published.csv (RFC 4180: quoted fields, doubled quotes,
 * commas and newlines inside quotes) into val_row records by column name, so
 * that a reordered or extended file still reads. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "validate.h"

#define MAX_FIELDS 40
#define FIELD_MAX 1024

typedef struct csv {
	const char *p, *end;
	int line;
} csv;

/* Reads one record into fields[] (each truncated to FIELD_MAX-1). Returns the
 * number of fields, 0 at the end of input, -1 on an unterminated quote. */
/* A cell without the blanks around it ("id, source" or "8, 4" as some
 * spreadsheets write them), in place. */
static void trim_cell(char *cell)
{
	size_t a = strspn(cell, " \t"), k = strlen(cell);
	while (k > a && (cell[k - 1] == ' ' || cell[k - 1] == '\t'))
		k--;
	memmove(cell, cell + a, k - a);
	cell[k - a] = '\0';
}

static int csv_record(csv *c, char fields[][FIELD_MAX], int max)
{
	if (c->p >= c->end)
		return 0;
	int n = 0;
	for (;;) {
		char *out = n < max ? fields[n] : NULL;
		size_t len = 0;
		bool quoted = c->p < c->end && *c->p == '"';
		if (quoted)
			c->p++;
		for (;;) {
			if (c->p >= c->end) {
				if (quoted)
					return -1;
				break;
			}
			char ch = *c->p;
			if (quoted && ch == '"') {
				if (c->p + 1 < c->end && c->p[1] == '"') {
					c->p++;
				} else {
					c->p++;
					quoted = false;
					continue;
				}
			} else if (!quoted && (ch == ',' || ch == '\n' || ch == '\r')) {
				break;
			}
			if (ch == '\n')
				c->line++;
			if (out && len + 1 < FIELD_MAX)
				out[len++] = ch;
			c->p++;
		}
		if (out) {
			out[len] = 0;
			trim_cell(out);
		}
		n++;
		if (c->p >= c->end)
			break;
		if (*c->p == ',') {
			c->p++;
			continue;
		}
		if (*c->p == '\r')
			c->p++;
		if (c->p < c->end && *c->p == '\n')
			c->p++;
		c->line++;
		break;
	}
	return n < max ? n : max;
}

static const char *const columns[] = {
	"id", "source", "hardware", "gpus", "model_params_b", "layers", "hidden", "heads",
	"seq_len", "global_batch", "micro_batch", "tp", "pp", "dp", "other_parallel",
	"precision", "recompute", "metric", "value", "unit", "verified"};
enum { C_ID, C_SOURCE, C_HW, C_GPUS, C_PARAMS, C_LAYERS, C_HIDDEN, C_HEADS, C_SEQ, C_GBS,
       C_MBS, C_TP, C_PP, C_DP, C_OTHER, C_PREC, C_RC, C_METRIC, C_VALUE, C_UNIT, C_VER, C__N };

static void copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

/* A numeric field: 0 when empty or not a number. */
static double num(const char *s, bool *ok)
{
	while (isspace((unsigned char)*s))
		s++;
	if (!*s) {
		if (ok)
			*ok = false;
		return 0;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	bool good = end != s && errno == 0;
	if (ok)
		*ok = good;
	return good ? v : 0;
}

/* A count as tables write it: "1,024" (thousands separators), "8K" or "2k"
 * (x 1024: sequence lengths and GPU counts are powers of two, "16K H100"
 * is 16,384), "512 (1M tokens)" (the leading number). 0 when none. */
static double count(const char *s)
{
	char buf[64];
	size_t k = 0;
	while (isspace((unsigned char)*s))
		s++;
	/* digits, with commas only between groups of three */
	for (const char *p = s; *p && k < sizeof buf - 1; p++) {
		if (isdigit((unsigned char)*p) || *p == '.')
			buf[k++] = *p;
		else if (*p == ',' && k > 0 && isdigit((unsigned char)p[1]) &&
		         isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
		         !isdigit((unsigned char)p[4]))
			continue;
		else
			break;
	}
	buf[k] = '\0';
	if (!k)
		return 0;
	double v = strtod(buf, NULL);
	const char *after = s;
	while (*after && (isdigit((unsigned char)*after) || *after == '.' || *after == ','))
		after++;
	while (*after == ' ')
		after++;
	if ((*after == 'k' || *after == 'K') && !isalpha((unsigned char)after[1]))
		v *= 1024;
	return v;
}

/* A global batch given in tokens ("4M tokens", "16M", "2,097,152 tokens"):
 * the token count (M = 2^20, K = 2^10, B = 2^30, as batch sizes are
 * written), else 0. */
static double batch_tokens(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end;
	char digits[64];
	size_t k = 0;
	for (const char *p = s; *p && k < sizeof digits - 1 && (isdigit((unsigned char)*p) ||
	                                                        *p == '.' || *p == ','); p++)
		if (*p != ',')
			digits[k++] = *p;
	digits[k] = '\0';
	double v = strtod(digits, &end);
	if (end == digits)
		return 0;
	const char *u = s + strspn(s, "0123456789.,");
	while (*u == ' ')
		u++;
	double mult = 1;
	if (*u == 'K' || *u == 'k')
		mult = 1024.0, u++;
	else if (*u == 'M')
		mult = 1048576.0, u++;
	else if (*u == 'B' || *u == 'G')
		mult = 1073741824.0, u++;
	while (*u == ' ')
		u++;
	return !strncasecmp(u, "tok", 3) ? v * mult : 0;
}

static void family_of(const char *id, char *fam, size_t n)
{
	copy(fam, n, id);
	char *dash = strrchr(fam, '-');
	if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1))
		*dash = 0;
}

static void fill(val_row *r, char f[][FIELD_MAX], const int *col, int nf)
{
	const char *v[C__N];
	for (int i = 0; i < C__N; i++)
		v[i] = col[i] >= 0 && col[i] < nf ? f[col[i]] : "";
	memset(r, 0, sizeof *r);
	copy(r->id, sizeof r->id, v[C_ID]);
	family_of(r->id, r->family, sizeof r->family);
	copy(r->source, sizeof r->source, v[C_SOURCE]);
	copy(r->hardware, sizeof r->hardware, v[C_HW]);
	r->gpus = (int)count(v[C_GPUS]);
	r->params_b = num(v[C_PARAMS], NULL);
	r->layers = (int)count(v[C_LAYERS]);
	r->hidden = (int)count(v[C_HIDDEN]);
	r->heads = (int)count(v[C_HEADS]);
	r->seq_len = (int)count(v[C_SEQ]);
	r->batch_tokens = batch_tokens(v[C_GBS]);
	r->global_batch = r->batch_tokens > 0 ? 0 : (int)count(v[C_GBS]);
	r->micro_batch = (int)count(v[C_MBS]);
	r->tp = (int)count(v[C_TP]);
	r->pp = (int)count(v[C_PP]);
	r->dp = (int)count(v[C_DP]);
	copy(r->other, sizeof r->other, v[C_OTHER]);
	copy(r->precision, sizeof r->precision, v[C_PREC]);
	copy(r->recompute, sizeof r->recompute, v[C_RC]);
	copy(r->metric, sizeof r->metric, v[C_METRIC]);
	r->value = num(v[C_VALUE], &r->has_value);
	copy(r->unit, sizeof r->unit, v[C_UNIT]);
	copy(r->verified, sizeof r->verified, v[C_VER]);
}

static int parse_records(csv *cp, char f[][FIELD_MAX], const char *name, val_row **rows,
                         size_t *n, char *err, size_t errlen);

int val_parse(const char *text, const char *name, val_row **rows, size_t *n, char *err,
              size_t errlen)
{
	/* a spreadsheet's UTF-8 byte-order mark before the header */
	if (!strncmp(text, "\xef\xbb\xbf", 3))
		text += 3;
	csv c = {text, text + strlen(text), 1};
	*rows = NULL;
	*n = 0;
	char (*f)[FIELD_MAX] = malloc(MAX_FIELDS * sizeof *f);
	if (!f) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	int rc = parse_records(&c, f, name, rows, n, err, errlen);
	free(f);
	return rc;
}

static int parse_records(csv *cp, char f[][FIELD_MAX], const char *name, val_row **rows,
                         size_t *n, char *err, size_t errlen)
{
	csv c = *cp;
	int nf = csv_record(&c, f, MAX_FIELDS);
	if (nf <= 0) {
		snprintf(err, errlen, "%s:1: empty file, expected a header line (id,source,...)", name);
		return -1;
	}
	int col[C__N];
	for (int i = 0; i < C__N; i++) {
		col[i] = -1;
		for (int j = 0; j < nf; j++)
			if (!strcasecmp(f[j], columns[i]))
				col[i] = j;
	}
	if (col[C_ID] < 0 || col[C_METRIC] < 0 || col[C_VALUE] < 0) {
		snprintf(err, errlen, "%s:1: header lacks id, metric or value (got '%s,...')", name, f[0]);
		return -1;
	}
	size_t cap = 0;
	val_row *v = NULL;
	for (;;) {
		int line = c.line;
		nf = csv_record(&c, f, MAX_FIELDS);
		if (nf == 0)
			break;
		if (nf < 0) {
			snprintf(err, errlen, "%s:%d: unterminated quoted field", name, line);
			free(v);
			return -1;
		}
		if (nf == 1 && !f[0][0])
			continue;            /* blank line */
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			val_row *nv = realloc(v, cap * sizeof *v);
			if (!nv) {
				free(v);
				snprintf(err, errlen, "%s: out of memory", name);
				return -1;
			}
			v = nv;
		}
		fill(&v[*n], f, col, nf);
		v[*n].line = line;
		(*n)++;
	}
	*rows = v;
	return 0;
}

int val_read(const char *path, val_row **rows, size_t *n, char *err, size_t errlen)
{
	err[0] = 0;
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int rc = -1;
	if (!buf)
		goto out_close;
	for (;;) {
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				goto out_free;
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, fp);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		snprintf(err, errlen, "%s: read error", path);
		goto out_free;
	}
	buf[len] = 0;
	rc = val_parse(buf, path, rows, n, err, errlen);
out_free:
	free(buf);
out_close:
	fclose(fp);
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "%s: out of memory", path);
	return rc;
}
