/* val_csv.c: reads published.csv (RFC 4180: quoted fields, doubled quotes,
 * commas and newlines inside quotes) into val_row records by column name, so
 * that a reordered or extended file still reads. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "val_int.h"
#include "validate.h"

#define MAX_FIELDS 64
#define FIELD_MAX 2048
#define FILE_MAX (64L << 20)   /* a validation file is rows of text, not gigabytes */

typedef struct csv {
	const char *p, *end;
	int line;
	const char *bol;    /* where the current line begins, for columns in messages */
	const char *bad;    /* set at a quote after a closing quote in one cell */
} csv;

static int col_at(const csv *c, const char *at)
{
	return (int)(at - c->bol) + 1;
}

/* Reads one record into fields[] (each truncated to FIELD_MAX-1; fields past
 * max are counted, not kept). Returns the number of fields, 0 at the end of
 * input, -1 on an unterminated quote, -2 on a quote after a closing quote in
 * the same cell (c->bad). */
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
					/* text after it is kept as written ("\"Megatron-LM\"
					 * README"), unless another quote follows in the same
					 * cell: a quote left open inside it would shift the
					 * columns after */
					const char *q = c->p;
					while (q < c->end && *q != ',' && *q != '\n' && *q != '\r' && *q != '"')
						q++;
					if (q < c->end && *q == '"') {
						c->bad = q;
						return -2;
					}
					continue;
				}
			} else if (!quoted && (ch == ',' || ch == '\n' || ch == '\r')) {
				break;
			}
			if (ch == '\n') {
				c->line++;
				c->bol = c->p + 1;
			}
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
		c->bol = c->p;
		break;
	}
	return n;
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

/* A header cell names a column in any case, with blanks or hyphens for its
 * underscores and blanks around it ("Global Batch", "seq-len", " TP "). */
static bool same_column(const char *cell, const char *name)
{
	while (isspace((unsigned char)*cell))
		cell++;
	for (; *name; cell++, name++) {
		char c = *cell == ' ' || *cell == '-' ? '_' : (char)tolower((unsigned char)*cell);
		if (c != *name)
			return false;
	}
	while (isspace((unsigned char)*cell))
		cell++;
	return !*cell;
}

/* "0x10", "-0x1p10": numbers strtod reads in hexadecimal. */
static bool hex_number(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
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
	bool good = end != s && errno == 0 && isfinite(v) && !hex_number(s);   /* not "inf", "nan" */
	if (ok)
		*ok = good;
	return good ? v : 0;
}

/* The length of a thousands separator at p: a comma, a blank, or a UTF-8
 * no-break, thin or narrow no-break space as typeset tables print them; 0
 * if none. */
static size_t separator(const char *p)
{
	if (*p == ',' || *p == ' ')
		return 1;
	if (!strncmp(p, "\xc2\xa0", 2))
		return 2;
	if (!strncmp(p, "\xe2\x80\x89", 3) || !strncmp(p, "\xe2\x80\xaf", 3))
		return 3;
	return 0;
}

/* The number that starts s as tables write it, copied into buf without its
 * thousands separators: digits and a decimal point, a separator only
 * between groups of three digits of the integer part ("1,024", "1 728",
 * "2,097,152.5"; "4.7 s" and "1728 (est.)" end before the blank). Returns
 * where it ends in s: s itself when no digit or point starts it. */
static const char *grouped_by(const char *s, char *buf, size_t n, bool commas_only)
{
	size_t k = 0;
	bool point = false;
	const char *p = s;
	while (*p && k + 1 < n) {
		if (isdigit((unsigned char)*p) || *p == '.') {
			point |= *p == '.';
			buf[k++] = *p++;
			continue;
		}
		size_t sep = commas_only ? (size_t)(*p == ',') : separator(p);
		const char *g = p + sep;
		if (sep && k > 0 && !point && isdigit((unsigned char)g[0]) &&
		    isdigit((unsigned char)g[1]) && isdigit((unsigned char)g[2]) &&
		    !isdigit((unsigned char)g[3]))
			p = g;
		else
			break;
	}
	buf[k] = '\0';
	return k ? p : s;
}

static const char *grouped(const char *s, char *buf, size_t n)
{
	return grouped_by(s, buf, n, false);
}

double val__number_grouped(const char *s, const char **end)
{
	char buf[64];
	const char *after = grouped_by(s, buf, sizeof buf, true);
	if (end)
		*end = after;
	return after == s ? 0 : strtod(buf, NULL);
}

/* A count as tables write it: "1,024" or "1 024" (thousands separators, as
 * grouped reads them), after a mark of approximation ("~1024"), "8K" or "2k"
 * (x 1024: sequence lengths and GPU counts are powers of two, "16K H100"
 * is 16,384), "512 (1M tokens)" (the leading number). 0 when none. */
static const char *past_marks(const char *s);

static double count(const char *s)
{
	char buf[64];
	s = past_marks(s);   /* "~1024" */
	/* a label before the number: "mbs=2", "gbs: 256", "micro batch size 1" */
	const char *l = s;
	while (isalpha((unsigned char)*l) || *l == '_' || *l == ' ' || *l == '-')
		l++;
	/* up to Megatron's flags ("--tensor-model-parallel-size 8") */
	if (l > s && l - s <= 40 && (*l == '=' || *l == ':' || isdigit((unsigned char)*l))) {
		s = l + (*l == '=' || *l == ':');
		while (*s == ' ')
			s++;
	}
	const char *after = grouped(s, buf, sizeof buf);
	if (after == s)
		return 0;
	double v = strtod(buf, NULL);
	if ((*after == 'e' || *after == 'E') &&   /* "2.048e3": strtod's own reading */
	    (isdigit((unsigned char)after[1]) ||
	     ((after[1] == '+' || after[1] == '-') && isdigit((unsigned char)after[2])))) {
		char *end;
		v = strtod(s, &end);
		after = end;
	}
	while (*after == ' ')
		after++;
	if ((*after == 'k' || *after == 'K') && !isalpha((unsigned char)after[1]))
		v *= 1024;
	return v;
}

/* A mark before a published value that makes it approximate or a bound:
 * "~1728", "≈ 1728", "approx. 1728", "ca. 1728", "about 1728", ">1728",
 * "<= 10", "≥ 10": the number is still the one compared. Returns the text
 * after the marks. */
static const char *past_marks(const char *s)
{
	static const char *const marks[] = {"~", "\xe2\x89\x88", "\xe2\x88\xbc", "approx.",
		"approx", "ca.", "about", "around", ">=", "<=", ">", "<", "\xe2\x89\xa5",
		"\xe2\x89\xa4"};
	for (bool again = true; again;) {
		again = false;
		while (isspace((unsigned char)*s))
			s++;
		for (size_t i = 0; i < sizeof marks / sizeof marks[0] && !again; i++)
			if (!strncasecmp(s, marks[i], strlen(marks[i])) &&
			    !isalpha((unsigned char)s[strlen(marks[i])])) {
				s += strlen(marks[i]);
				again = true;
			}
	}
	return s;
}

/* The GPU count: a count, or a product written out ("128x8", "128 x 8",
 * "128 nodes x 8 GPUs", "16 x 64"), or after a mark ("~1024"). */
/* A count cell, with a product ("128 x 8" GPUs, a global batch of
 * "16 x 64"). */
static double count_product(const char *s)
{
	s = past_marks(s);
	double a = count(s);
	const char *p = s;
	while (*p && (isdigit((unsigned char)*p) || *p == ',' || *p == '.'))
		p++;
	while (*p == ' ' || isalpha((unsigned char)*p)) {   /* " nodes " */
		if ((*p == 'x' || *p == 'X') && !isalpha((unsigned char)p[1]) &&
		    (p[-1] == ' ' || isdigit((unsigned char)p[-1])))
			break;
		p++;
	}
	if (a > 0 && (*p == 'x' || *p == 'X' || *p == '*' || !strncmp(p, "\xc3\x97", 2))) {
		p += *p == 'x' || *p == 'X' || *p == '*' ? 1 : 2;
		while (*p == ' ')
			p++;
		/* a number, not a name's digits ("512 x A100" is not 51,200) */
		double b = isdigit((unsigned char)*p) || *p == '~' ? count(p) : 0;
		if (b > 0)
			return a * b;
	}
	return a;
}

/* Whether a..b names another model: a size such as "70B" or "1.5B", or
 * "sibling" / "other". */
static bool size_or_sibling(const char *s, const char *a, const char *b)
{
	for (const char *q = a; q < b; q++) {
		if ((!strncasecmp(q, "sibling", 7) || !strncasecmp(q, "other", 5)) &&
		    (q == s || !isalpha((unsigned char)q[-1])))
			return true;
		if (isdigit((unsigned char)*q) && (q == s || !isalnum((unsigned char)q[-1]))) {
			const char *e = q;
			while (isdigit((unsigned char)*e) || *e == '.')
				e++;
			if ((*e == 'B' || *e == 'b' || *e == 'M') && !isalnum((unsigned char)e[1]))
				return true;
		}
	}
	return false;
}

/* Whether the clause before p (back to ';', ',' or '(') names another model. */
static bool other_model_before(const char *s, const char *p)
{
	const char *a = p;
	while (a > s && !strchr(";,(", a[-1]))
		a--;
	return size_or_sibling(s, a, p);
}

/* ... or the rest of the clause after the number ending at e ("2,048 for
 * the 1B", to ';' or ')'). */
static bool other_model_after(const char *s, const char *e)
{
	return size_or_sibling(s, e, e + strcspn(e, ";)"));
}

/* Whether a hidden cell gives the widths of two models, a vision or audio
 * encoder's beside a language model's ("6144 (ViT) / 12288 (GPT)", "1024
 * (ViT-L/14) and 2048 (LLM)"): two different widths of 256 or more (not
 * digits inside a label, the 14 of "ViT-L/14", nor another size, "image
 * 224") and a vision or audio word ("CLIP" as a word, not "clipping"). One
 * model's dimensions side by side ("2048 (d_model) / 128 (head_dim)", a
 * T5 or BERT encoder's) are not two models. */
static bool two_widths(const char *s)
{
	static const char *const words[] = {"ViT", "CLIP", "SigLIP", "vision", "visual", "audio",
		"speech"};
	bool named = false;
	for (size_t i = 0; i < sizeof words / sizeof words[0] && !named; i++)
		named = i < 3 ? val__has_word(s, words[i]) : val__has(s, words[i]);
	/* one model's widths beside each other ("MLP 4096", "FFN 5632"), or a
	 * text-only model ("no vision encoder") */
	static const char *const one[] = {"ffn", "mlp", "d_ff", "intermediate", "feed", "no vision",
		"text-only", "without vision", "vision: none", "vision none", "no audio",
		"audio: none"};
	for (size_t i = 0; i < sizeof one / sizeof one[0] && named; i++)
		named = !val__has(s, one[i]);
	if (!named)
		return false;
	/* not a size of something else: "image 224", "patch 14", "seq 4096" */
	static const char *const not_width[] = {"image", "resolution", "res", "patch", "px", "seq",
		"tokens", "size", "batch"};
	double first = 0;
	for (const char *p = s; *p; p++) {
		/* a number that starts a word, or follows a separator: "/2048" after
		 * a label's bracket, not the 14 of "ViT-L/14" */
		if (!isdigit((unsigned char)*p) || (p > s && (isalnum((unsigned char)p[-1]) ||
		                                             strchr("-._,@", p[-1]))) ||
		    (p - s >= 2 && p[-1] == '/' && isalnum((unsigned char)p[-2])))
			continue;
		bool other = false;
		for (size_t i = 0; i < sizeof not_width / sizeof not_width[0] && !other; i++)
			other = val__word_before_in(s, p, " :=", &not_width[i], 1);
		/* nor another model's ("2,048 for the 1B", "8192 in the 70B") */
		other = other || other_model_before(s, p);
		double w = count(p);
		while (isdigit((unsigned char)*p) || (*p == ',' && isdigit((unsigned char)p[1])))
			p++;
		/* nor a count of something named after it: "2048-token", "2880 tokens" */
		const char *u = p + (*p == ' ' || *p == '-');
		for (size_t i = 0; i < sizeof not_width / sizeof not_width[0] && !other; i++) {
			size_t n = strlen(not_width[i]);
			other = !strncasecmp(u, not_width[i], n) && !isalpha((unsigned char)u[n]);
		}
		other = other || other_model_after(s, p);
		other = other || ((!strncasecmp(u, "token", 5) || !strncasecmp(u, "pixel", 5)) &&
		                  (!isalpha((unsigned char)u[5]) || u[5] == 's'));
		if (w < 256 || other)
			continue;
		if (first <= 0)
			first = w;
		else if (w != first)
			return true;
		if (!*p)
			break;
	}
	return false;
}

/* The KV heads a heads cell gives beside the query heads: a number before
 * "KV" or "key-value" ("64 (8 KV)", "32 / 8 KV heads", "32 (8 key-value
 * heads)") or after "GQA" or "kv" ("32, GQA 8", "32 (GQA-8)", "32 (kv=8)");
 * one for MQA; 0 when none. */
static int kv_in_heads(const char *s)
{
	const char *p = s;
	while (*p && !isdigit((unsigned char)*p))
		p++;
	while (isdigit((unsigned char)*p))
		p++;                                  /* past the query heads */
	for (; *p; p++) {
		if (isdigit((unsigned char)*p) && !isdigit((unsigned char)p[-1])) {
			const char *q = p;
			while (isdigit((unsigned char)*q))
				q++;
			while (*q == ' ')
				q++;
			if (((!strncasecmp(q, "kv", 2) && !isalpha((unsigned char)q[2])) ||
			     !strncasecmp(q, "key-value", 9) || !strncasecmp(q, "key/value", 9)) &&
			    !other_model_before(s, p) && !other_model_after(s, q))
				return atoi(p);   /* not "8 KV heads in the 405B sibling" */
		}
		/* "GQA 8", "kv=8", "KV heads: 8", "kv_heads=8", "num_key_value_heads=8",
		 * not a denied one ("no GQA 8") nor another model's ("the 70B's GQA 8") */
		bool kv = !strncasecmp(p, "kv", 2) || !strncasecmp(p, "key_value", 9) ||
		          !strncasecmp(p, "key-value", 9);
		if ((!strncasecmp(p, "gqa", 3) || kv) &&
		    (p == s || !isalpha((unsigned char)p[-1]))) {
			const char *q = p + (tolower((unsigned char)*p) == 'g' ? 3
			                     : tolower((unsigned char)p[1]) == 'v' ? 2 : 9);
			if ((*q == '_' || *q == ' ' || *q == '-') && !strncasecmp(q + 1, "head", 4)) {
				q += 5;
				if (tolower((unsigned char)*q) == 's')
					q++;
			}
			while (*q == ' ' || *q == '=' || *q == ':' || *q == '-')
				q++;
			const char *e = q;
			while (isdigit((unsigned char)*e))
				e++;
			if (isdigit((unsigned char)*q) && !val__negated_before(s, p) &&
			    !other_model_before(s, p) && !other_model_after(s, e))
				return atoi(q);   /* not "KV heads: 8 in the 70B" */
		}
	}
	/* "32 (MQA)": one KV head, when no count was given and it is not denied */
	return val__affirmed_word(s, "MQA") ? 1 : 0;
}

/* Whether the word at p starts with one of a node's names. */
static bool node_word(const char *p)
{
	static const char *const words[] = {"node", "server", "DGX", "HGX", "host", "machine",
		"instance", "system"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strncasecmp(p, words[i], strlen(words[i])))
			return true;
	return false;
}

/* The count a node's name follows within two words ("64 nodes", "128 DGX
 * nodes", "4 servers"), or 0. */
static double node_count_in(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > s && (isalnum((unsigned char)p[-1]) ||
		                                             p[-1] == '.')))
			continue;
		char buf[64];
		const char *w = grouped(p, buf, sizeof buf);
		if (isalpha((unsigned char)*w))
			continue;             /* "80GB", "8x": not a count of nodes */
		for (int k = 0; k < 2 && *w; k++) {
			while (*w == ' ')
				w++;
			if (node_word(w) && strncasecmp(w, "system", 6))
				return strtod(buf, NULL);
			if (!isalpha((unsigned char)*w))
				break;
			while (isalnum((unsigned char)*w) || *w == '-')
				w++;
		}
	}
	return 0;
}

/* The GPU count of the gpus cell, and whether it counts nodes instead:
 * a number said to be GPUs wins over the others ("64 nodes (512 GPUs)",
 * "64 nodes, 512 GPUs", "64 DGX A100 (512 GPUs)", "512 A100 GPUs", "64 H100
 * 80GB GPUs", "16K H100 GPUs"), unless it is per node ("64 nodes of 8 GPUs",
 * "8 GPUs per node, 64 nodes", "8 GPUs x 8 nodes": times the nodes); then a
 * product ("128 x 8", "64*8", "128 nodes x 8 GPUs", "64 (8x8 GPUs)"); a
 * first number followed by a node's name is nodes ("8 nodes", "64 DGX
 * nodes", "64x DGX A100"; not a GPU named after an x: "512 x A100"). */
static double gpus_cell(const char *cell, bool *nodes)
{
	*nodes = false;
	const char *s = past_marks(cell);
	double per_node = 0;
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > s && (isalnum((unsigned char)p[-1]) ||
		                                             p[-1] == '.' || p[-1] == '-')))
			continue;
		char buf[64];
		const char *e = grouped(p, buf, sizeof buf);
		double n = strtod(buf, NULL);
		/* "16K GPUs": the count's K; "80GB", "8x8": a size, a factor */
		if ((*e == 'k' || *e == 'K') && !isalpha((unsigned char)e[1]))
			n *= 1024, e++;
		else if (isalpha((unsigned char)*e) || *e == '*')
			continue;
		const char *f = e;
		while (*f == ' ')
			f++;
		if (*f == 'x' || *f == 'X' || *f == '*' || !strncmp(f, "\xc3\x97", 2))
			continue;             /* "8 x 8 GPUs": a product's factor */
		const char *w = e;
		/* up to two words before "GPU": a model ("A100", "H100 80GB") */
		for (int k = 0; k < 3; k++) {
			while (*w == ' ')
				w++;
			if (!strncasecmp(w, "GPU", 3))
				break;
			if (k == 2 || !isalnum((unsigned char)*w) || node_word(w))
				w = NULL;
			else
				while (*w && *w != ' ' && *w != ',' && *w != ')' && *w != ';')
					w++;
			if (!w)
				break;
		}
		if (!w || strncasecmp(w, "GPU", 3) || n < 1)
			continue;
		/* per node: "of 8 GPUs", "with 8 GPUs", "x 8 GPUs", "8 GPUs each",
		 * "8 GPUs per node", "8 GPUs/node", "8 GPUs x 8 nodes" */
		const char *b = p;
		while (b > s && b[-1] == ' ')
			b--;
		bool before = (b - s >= 2 && !strncasecmp(b - 2, "of", 2)) ||
		              (b - s >= 4 && !strncasecmp(b - 4, "with", 4)) ||
		              (b > s && (b[-1] == 'x' || b[-1] == 'X' || b[-1] == '*')) ||
		              (b - s >= 2 && !strncmp(b - 2, "\xc3\x97", 2));
		const char *a = w + 3;
		while (*a == 's' || *a == 'S')
			a++;
		while (*a == ' ')
			a++;
		bool after = !strncasecmp(a, "each", 4) || !strncasecmp(a, "per ", 4) ||
		             (*a == '/' && node_word(a + 1)) || !strncasecmp(a, "a node", 6) ||
		             !strncasecmp(a, "in each", 7) ||
		             *a == 'x' || *a == 'X' || *a == '*' || !strncmp(a, "\xc3\x97", 2);
		if (!before && !after)
			return n;
		if (per_node <= 0)
			per_node = n;
	}
	double node_n = node_count_in(s);
	if (per_node > 0 && node_n > 0)
		return node_n * per_node;         /* "64 nodes with 8 GPUs each" */
	double first = count(s);
	const char *p = s;
	while (*p && (isdigit((unsigned char)*p) || *p == ',' || *p == '.'))
		p++;
	while (*p == ' ')
		p++;
	if (*p == 'x' || *p == 'X' || *p == '*')   /* "64x DGX A100", "64 x DGX" */
		for (p++; *p == ' '; p++)
			;
	/* a node's name within the first three words after the number */
	bool named_nodes = false;
	for (int k = 0; k < 3 && *p && !isdigit((unsigned char)*p) && !named_nodes; k++) {
		named_nodes = node_word(p);
		while (*p && *p != ' ' && *p != ',' && *p != '(')
			p++;
		while (*p == ' ')
			p++;
	}
	double prod = count_product(s);
	if (named_nodes && prod == first && first > 0)
		*nodes = true;                    /* "8 nodes", "64x DGX A100" */
	return prod;
}

/* A model-parallel axis: a count, or one when the cell says the axis is
 * not used ("none", "no", "off", "disabled", "not used"). */
static double axis_cell(const char *s)
{
	double v = count(s);
	if (v > 0)
		return v;
	while (isspace((unsigned char)*s))
		s++;
	static const char *const off[] = {"none", "no", "off", "disabled", "not used", "unused"};
	for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
		size_t n = strlen(off[i]);
		if (strncasecmp(s, off[i], n))
			continue;
		/* the whole cell, or with a bracket ("none (1)"); not "none
		 * reported", "no data", "none?" (not published) */
		const char *r = s + n;
		while (*r == ' ')
			r++;
		if (!*r || *r == '(')
			return 1;
	}
	return 0;
}

/* The parameter count in billions: "175", "~340" (a mark of
 * approximation), "1,000", "175B", "175 billion", "330M", "1T", or a
 * whole count ("1.5e10", "175000000000"). 0 when none. */
static double params_cell(const char *s)
{
	s = past_marks(s);
	char buf[64];
	const char *e = grouped(s, buf, sizeof buf);
	char *end;
	double v = strtod(e == s ? s : buf, &end);
	if (e == s || ((*e == 'e' || *e == 'E') &&
	               (isdigit((unsigned char)e[1]) || e[1] == '+' || e[1] == '-'))) {
		v = strtod(s, &end);   /* "1.5e10": strtod's own reading */
		e = end;
	}
	if (!isfinite(v) || v <= 0)
		return 0;
	while (*e == ' ')
		e++;
	if (*e == 'T' || !strncasecmp(e, "trillion", 8))
		return v * 1000;
	if ((*e == 'M' && !isalpha((unsigned char)e[1])) || !strncasecmp(e, "million", 7))
		return v / 1000;
	if ((*e == 'B' || *e == 'b') || !strncasecmp(e, "billion", 7))
		return v;
	return v >= 1e6 ? v / 1e9 : v;   /* a whole count of parameters */
}

/* Whether a unit already starts with the scale a value's suffix gives
 * ("1.7k" in "k tokens/s" repeats the unit's k). */
static bool unit_scaled(const char *unit, char suffix)
{
	if (suffix == 'k')
		return *unit == 'k' || *unit == 'K' || !strncasecmp(unit, "thousand", 8);
	return *unit == 'M' || !strncasecmp(unit, "million", 7);
}

/* The published value: the number the cell starts with, as strtod reads it
 * ("45", "1.728e3", "-5"), and read again like a count's when thousands
 * separators continue it ("1,728", "1 728", "1,728.5"), past a mark of
 * approximation or a bound ("~1728", see past_marks). A k or an M right
 * after it ("1.7k", "2.5M"; not "1.7 k" nor the m of "4ms") scales it by
 * 1e3 or 1e6 (a measurement: not the 1024 of counts) unless the unit
 * starts with that scale ("1.728k" in "k tokens/s"). With the unit column
 * empty, a unit glued to the number ("4740ms", "4.7 s", "45%") goes into
 * `unit`; a remark ("1728 ± 12", "1728 (est.)") does not. */
static double value_of(const char *cell, char *unit, size_t unitlen, bool *ok)
{
	const char *s = past_marks(cell);
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		return num(s, ok);      /* not a number, as before ("N/A", "(n-1)/n", "inf") */
	if (hex_number(s)) {        /* strtod's C99 hex ("0x10"): no table writes one */
		*ok = false;
		return 0;
	}
	const char *p = end;
	char buf[64];
	size_t sign = *s == '-' || *s == '+';
	const char *g = grouped(s + sign, buf, sizeof buf);
	if (g > p) {
		v = (*s == '-' ? -1 : 1) * strtod(buf, NULL);
		p = g;
	}
	/* a range ("1700-1750", "38-43%", "38–43"): its middle */
	const char *r = *p == '-' ? p + 1 : !strncmp(p, "\xe2\x80\x93", 3) ? p + 3 : NULL;
	if (r && isdigit((unsigned char)*r)) {
		char *rend;
		double hi = strtod(r, &rend);
		if (rend > r && hi >= v) {
			v = (v + hi) / 2;
			p = rend;
		}
	}
	if ((*p == 'k' || *p == 'K' || *p == 'M') && !isalnum((unsigned char)p[1])) {
		char suffix = *p == 'M' ? 'M' : 'k';
		if (!unit_scaled(unit, suffix))
			v *= suffix == 'M' ? 1e6 : 1e3;
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (!*unit && (isalpha((unsigned char)*p) || *p == '%' || !strncmp(p, "\xc2\xb5", 2) ||
	               !strncmp(p, "\xce\xbc", 2)))
		copy(unit, unitlen, p);
	if (ok)
		*ok = true;
	return v;
}

/* A global batch given in tokens ("4M tokens", "16M", "2,097,152 tokens"):
 * the token count (M = 2^20, K = 2^10, B = 2^30, as batch sizes are
 * written), else 0. */
double val__batch_tokens(const char *s)
{
	s = past_marks(s);   /* "~4M tokens/step" */
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
	/* "1024 x 4096 tokens": sequences x their length */
	if (*u == 'x' || *u == 'X') {
		double b = count(u + 1);
		const char *t = u + 1;
		while (*t == ' ' || isdigit((unsigned char)*t) || *t == ',')
			t++;
		if (b > 0 && !strncasecmp(t, "tok", 3))
			return v * b;
		return 0;
	}
	if (*u == 'K' || *u == 'k')
		mult = 1024.0, u++;
	else if (*u == 'M')
		mult = 1048576.0, u++;
	else if (*u == 'B' || *u == 'G')
		mult = 1073741824.0, u++;
	if (mult > 1 && *u == 'i')   /* "4Mi tokens" */
		u++;
	while (*u == ' ')
		u++;
	/* "2M" alone: millions of sequences in one step do not happen, tokens do */
	return !strncasecmp(u, "tok", 3) || (mult >= 1048576.0 && !isalpha((unsigned char)*u))
	       ? v * mult : 0;
}

/* The sequence count a global-batch cell gives beside other numbers: the
 * number before "seq"/"sample" ("3.1M tokens (1536 sequences)"); 0 when
 * none. */
static double sequences_in(const char *s)
{
	static const char *const words[] = {"seq", "sample", "instances"};   /* OLMo's */
	for (size_t i = 0; i < 3; i++)
		for (const char *p = val__find(s, words[i]); p; p = val__find(p + 1, words[i])) {
			const char *q = p;
			while (q > s && q[-1] == ' ')
				q--;
			const char *b = q;
			while (b > s && (isdigit((unsigned char)b[-1]) || b[-1] == ','))
				b--;
			if (b < q && (b == s || !isalnum((unsigned char)b[-1])))
				return count(b);
		}
	return 0;
}

/* Whether w[0..len) is a unit of time as metric names spell it. */
static bool time_word(const char *w, size_t len)
{
	static const char *const times[] = {"ms", "msec", "millisecond", "milliseconds", "s",
		"sec", "secs", "second", "seconds", "us", "usec", "microsecond", "microseconds",
		"\xc2\xb5s", "\xce\xbcs"};
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (strlen(times[i]) == len && !strncasecmp(w, times[i], len))
			return true;
	return false;
}

static bool word_char(char c)
{
	return isalpha((unsigned char)c) || (unsigned char)c >= 0x80;   /* and UTF-8's µ */
}

/* The unit of time a metric name carries, for a row whose unit column is
 * empty: its last word after a blank, '_', '-', ',' or '['
 * ("elapsed_time_per_iteration_ms", "step time [ms]", "step time, ms",
 * "iteration time in ms", NeMo's "train_step_timing in s") or its first
 * word before '/' or "per" ("ms/iter", "ms_per_step"). Not a rate's
 * denominator ("tokens_per_s", "tokens/s"); a name with parentheses is left
 * to their reading (validate.c: "iteration time (ms)"). Empty when none. */
/* A count's scale in the name ("k tokens/s", "Throughput [k tok/s]",
 * "Mtokens/s", "k tokens/s/GPU"): a k, K or M standing alone before tok,
 * sample or seq; the unit is the name from there to a closing bracket. */
static bool scaled_count_in_name(const char *name, char *unit, size_t n)
{
	for (const char *p = name; *p; p++) {
		if (!strchr("kKM", *p) || (p > name && isalnum((unsigned char)p[-1])))
			continue;
		const char *c = p + 1;
		while (*c == ' ')
			c++;
		if (strncasecmp(c, "tok", 3) && strncasecmp(c, "sample", 6) && strncasecmp(c, "seq", 3))
			continue;
		size_t len = strcspn(p, ")]");
		snprintf(unit, n, "%.*s", (int)len, p);
		return true;
	}
	return false;
}

static void unit_in_name(const char *name, char *unit, size_t n)
{
	if (scaled_count_in_name(name, unit, n))
		return;
	/* Megatron's log line "elapsed time per iteration (ms)", its unit left
	 * out: Megatron logs it in milliseconds */
	if ((val__has(name, "elapsed time per iteration") ||
	     val__has(name, "elapsed_time_per_iteration")) && !strchr(name, '(')) {
		snprintf(unit, n, "ms");
		return;
	}
	const char *open = strrchr(name, '(');
	if (open && strchr(open, ')'))
		return;
	const char *e = name + strlen(name);
	while (e > name && (e[-1] == ' ' || e[-1] == ']'))
		e--;
	const char *b = e;
	while (b > name && word_char(b[-1]))
		b--;
	if (b > name && strchr(" _-,[", b[-1]) && time_word(b, (size_t)(e - b))) {
		const char *pe = b;
		while (pe > name && strchr(" _-,[", pe[-1]))
			pe--;
		const char *pb = pe;
		while (pb > name && word_char(pb[-1]))
			pb--;
		if (!(pe - pb == 3 && !strncasecmp(pb, "per", 3))) {
			snprintf(unit, n, "%.*s", (int)(e - b), b);
			return;
		}
	}
	const char *w = name;
	while (word_char(*w))
		w++;
	const char *after = w;
	while (*after == ' ' || *after == '_' || *after == '-')
		after++;
	if (time_word(name, (size_t)(w - name)) &&
	    (*w == '/' || (after > w && !strncasecmp(after, "per", 3) && !word_char(after[3]))))
		snprintf(unit, n, "%.*s", (int)(w - name), name);
}

/* A count cell as an int: beyond int's range it is INT_MAX, which the
 * scenario's own limits then refuse with their message (a global batch of
 * 2^40 sequences), not an undefined conversion. */
static int as_int(double v)
{
	if (!(v > 0))
		return 0;
	return v >= (double)INT_MAX ? INT_MAX : (int)v;
}

/* A count cell that must be a whole number (layers, batch sizes): a
 * fraction ("16.5") is not truncated but noted, and the row not simulated
 * ("2048.0", as pandas writes a whole number, is one). */
static int whole_count(val_row *r, const char *col, const char *cell)
{
	double v = count(cell);
	if (v > 0 && v < (double)INT_MAX && fabs(v - round(v)) > 1e-9 && !r->unread[0])
		snprintf(r->unread, sizeof r->unread, "%s '%.40s' is not a whole number", col, cell);
	return as_int(v);
}

static void family_of(const char *id, char *fam, size_t n)
{
	copy(fam, n, id);
	char *dash = strrchr(fam, '-');
	if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1))
		*dash = 0;
}

/* The multiplication sign as an x ("4× HDR 200 Gb/s", "16 × 64"), in place:
 * every reader of counts and products takes the ASCII one. */
static void times_as_x(char *s)
{
	char *w = s;
	for (const char *p = s; *p;) {
		if ((unsigned char)p[0] == 0xc3 && (unsigned char)p[1] == 0x97) {
			*w++ = 'x';
			p += 2;
		} else {
			*w++ = *p++;
		}
	}
	*w = 0;
}

/* A count in words before a rate, "four 200 Gb/s HDR HCAs", as "4x 200 Gb/s":
 * only right before a number, so "two H100 nodes" keeps its words. */
static void count_words_as_x(char *s)
{
	static const char *const words[] = {"one", "two", "three", "four", "five", "six", "seven",
		"eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
		"sixteen"};
	for (char *p = s; *p; p++) {
		if (p > s && isalnum((unsigned char)p[-1]))
			continue;
		/* before a number ("four 200 Gb/s"), or from two on before a vendor,
		 * a GPU or a NIC ("six NVIDIA V100 GPUs", "four Mellanox EDR
		 * adapters", "four A100 40GB GPUs") */
		static const char *const things[] = {"NVIDIA", "AMD", "Intel", "V100", "A100", "H100",
			"H200", "B200", "GH200", "MI250", "MI300", "GPU", "Tesla"};
		/* "one" too before a NIC ("one Mellanox ConnectX-3 Pro dual-port
		 * 40GbE": one NIC of two ports), not before a GPU or a vendor */
		static const char *const nics[] = {"Mellanox", "Broadcom", "ConnectX", "EDR", "HDR",
			"NDR", "InfiniBand", "HCA", "NIC", "HPE", "Slingshot", "Cray", "BlueField",
			"EFA", "RoCE", "Omni-Path", "OmniPath"};
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
			size_t n = strlen(words[i]);
			if (strncasecmp(p, words[i], n) || p[n] != ' ')
				continue;
			bool thing = false;
			for (size_t t = 0; t < sizeof things / sizeof things[0] && i > 0 && !thing; t++)
				thing = !strncasecmp(p + n + 1, things[t], strlen(things[t]));
			for (size_t t = 0; t < sizeof nics / sizeof nics[0] && !thing; t++) {
				const char *e = p + n + 1 + strlen(nics[t]);   /* a word: "NIC(s)", not "nice" */
				thing = !strncasecmp(p + n + 1, nics[t], strlen(nics[t])) &&
				        !isalpha((unsigned char)e[*e == 's']);
			}
			if (!isdigit((unsigned char)p[n + 1]) && !thing)
				continue;
			char num[8];
			int k = snprintf(num, sizeof num, "%zux", i + 1);
			/* the word and its blank make room: "four " (5) -> "4x " (3) */
			memmove(p + k + 1, p + n + 1, strlen(p + n + 1) + 1);
			memcpy(p, num, (size_t)k);
			p[k] = ' ';
			break;
		}
	}
}

/* British spellings as the readers' American ones, in place (the same
 * length): "distributed optimiser" is Megatron's distributed optimizer. */
static void american(char *s)
{
	static const char *const uk[] = {"optimise", "Optimise", "optimisa", "Optimisa",
		"parallelise", "Parallelise", "parallelisa", "Parallelisa"};   /* not "parallelism" */
	for (size_t i = 0; i < sizeof uk / sizeof uk[0]; i++)
		for (char *p = strstr(s, uk[i]); p; p = strstr(p + 1, uk[i]))
			p[strlen(uk[i]) - 2] = 'z';
}

static void fill(val_row *r, char f[][FIELD_MAX], const int *col, int nf)
{
	for (int i = 0; i < nf; i++)
		times_as_x(f[i]);
	/* the free text only: an id or a metric keeps its spelling */
	if (col[C_HW] >= 0 && col[C_HW] < nf)
		american(f[col[C_HW]]);
	if (col[C_OTHER] >= 0 && col[C_OTHER] < nf)
		american(f[col[C_OTHER]]);
	if (col[C_HW] >= 0 && col[C_HW] < nf)
		count_words_as_x(f[col[C_HW]]);
	const char *v[C__N];
	for (int i = 0; i < C__N; i++)
		v[i] = col[i] >= 0 && col[i] < nf ? f[col[i]] : "";
	memset(r, 0, sizeof *r);
	copy(r->id, sizeof r->id, v[C_ID]);
	family_of(r->id, r->family, sizeof r->family);
	copy(r->source, sizeof r->source, v[C_SOURCE]);
	copy(r->hardware, sizeof r->hardware, v[C_HW]);
	bool gpu_nodes;
	r->gpus = as_int(gpus_cell(v[C_GPUS], &gpu_nodes));
	r->params_b = params_cell(v[C_PARAMS]);
	r->layers = whole_count(r, "layers", v[C_LAYERS]);
	r->hidden = whole_count(r, "hidden", v[C_HIDDEN]);
	r->two_models = two_widths(v[C_HIDDEN]);
	r->heads = whole_count(r, "heads", v[C_HEADS]);
	r->kv_heads = kv_in_heads(v[C_HEADS]);
	r->seq_len = whole_count(r, "seq_len", v[C_SEQ]);
	/* sequences said beside tokens ("3.1M tokens (1536 sequences)") win */
	double seqs = sequences_in(v[C_GBS]);
	r->batch_tokens = seqs > 0 ? 0 : val__batch_tokens(v[C_GBS]);
	r->global_batch = seqs > 0 ? as_int(seqs)
	                : r->batch_tokens > 0 ? 0 : as_int(count_product(v[C_GBS]));
	r->micro_batch = whole_count(r, "micro_batch", v[C_MBS]);
	r->tp = as_int(axis_cell(v[C_TP]));
	r->pp = as_int(axis_cell(v[C_PP]));
	r->dp = whole_count(r, "dp", v[C_DP]);
	/* "8 nodes" (not "8 nodes x 8 GPUs", "64 (8 nodes)", "64 GPUs on 8 nodes") */
	r->gpus_are_nodes = r->gpus > 0 && gpu_nodes;
	copy(r->other, sizeof r->other, v[C_OTHER]);
	/* a pasted JSON config reads as its keys and values: "zero_optimization":
	 * {"stage": 3} as zero_optimization: {stage: 3} */
	char *w = r->other;
	for (const char *q = r->other; *q; q++)
		if (*q != '"')
			*w++ = *q;
	*w = '\0';
	/* what a layout cell says beside its size ("4 (VP 5)", "8 (SP)") is read
	 * with the row's other text, labelled with its axis */
	static const struct { int col; const char *axis; } cells[] = {{C_TP, "TP"}, {C_PP, "PP"},
		{C_DP, "DP"}};
	for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
		const char *c = v[cells[i].col];
		bool words = false;
		for (const char *q = c; *q && !words; q++)
			words = isalpha((unsigned char)*q);
		size_t len = strlen(r->other);
		if (words && count(c) > 0 && len + strlen(c) + 8 < sizeof r->other)
			snprintf(r->other + len, sizeof r->other - len, "%s%s %s", len ? "; " : "",
			         cells[i].axis, c);
	}
	copy(r->precision, sizeof r->precision, v[C_PREC]);
	copy(r->recompute, sizeof r->recompute, v[C_RC]);
	copy(r->metric, sizeof r->metric, v[C_METRIC]);
	copy(r->unit, sizeof r->unit, v[C_UNIT]);
	r->value = value_of(v[C_VALUE], r->unit, sizeof r->unit, &r->has_value);
	/* "1,37": neither a thousands group (three digits) nor a decimal point
	 * this reader takes; read as 1 it compared as 100x off */
	const char *c = past_marks(v[C_VALUE]);
	c += *c == '-' || *c == '+';
	c += strspn(c, "0123456789");
	size_t d = c[0] == ',' ? strspn(c + 1, "0123456789") : 0;
	if (d && d != 3 && !r->unread[0])
		snprintf(r->unread, sizeof r->unread, "value '%.40s' is ambiguous (a decimal "
		         "comma?): write it with a point, as 1.37", v[C_VALUE]);
	if (!*r->unit)
		unit_in_name(r->metric, r->unit, sizeof r->unit);
	copy(r->verified, sizeof r->verified, v[C_VER]);
}

static int parse_records(csv *cp, char f[][FIELD_MAX], const char *name, val_row **rows,
                         size_t *n, char *err, size_t errlen);

/* The length of the UTF-8 sequence at p (1-4), 0 if it is not one. */
static int utf8_len(const unsigned char *p)
{
	int k = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 && p[0] >= 0xc2 ? 2
	      : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	for (int i = 1; i < k; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return k;
}

/* Text a terminal and a CSV can take back: UTF-8, no control characters but
 * tabs and line ends (an escape sequence in an id would be echoed as is). */
static int check_text(const char *text, const char *name, char *err, size_t errlen)
{
	int line = 1;
	const char *bol = text;
	for (const unsigned char *p = (const unsigned char *)text; *p;) {
		int k = utf8_len(p);
		const char *what = !k ? "a byte that is not UTF-8"
		                 : (*p < 0x20 && !strchr("\t\n\r\v\f", *p)) || *p == 0x7f
		                 ? "a control character" : NULL;
		if (what) {
			snprintf(err, errlen, "%s:%d:%d: %s (0x%02x); save the file as UTF-8 text without "
			         "control characters", name, line, (int)((const char *)p - bol) + 1, what,
			         *p);
			return -1;
		}
		if (*p == '\n')
			line++, bol = (const char *)p + 1;
		p += k;
	}
	return 0;
}

int val_parse(const char *text, const char *name, val_row **rows, size_t *n, char *err,
              size_t errlen)
{
	/* a spreadsheet's UTF-8 byte-order mark before the header */
	if (!strncmp(text, "\xef\xbb\xbf", 3))
		text += 3;
	*rows = NULL;
	*n = 0;
	if (check_text(text, name, err, errlen) < 0)
		return -1;
	csv c = {text, text + strlen(text), 1, text, NULL};
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
	int hline = c.line;
	int nf = csv_record(&c, f, MAX_FIELDS);
	while (nf > 0 && f[0][0] == '#') {   /* comment lines before the header */
		hline = c.line;
		nf = csv_record(&c, f, MAX_FIELDS);
	}
	if (nf == -2) {
		snprintf(err, errlen, "%s:%d:%d: a quote after a closing quote in one cell; quote the "
		         "whole cell and double the quotes inside it (\"a \"\"b\"\" c\")", name, c.line,
		         col_at(&c, c.bad));
		return -1;
	}
	if (nf <= 0) {
		snprintf(err, errlen, "%s:%d: empty file, expected a header line (id,source,...)", name,
		         hline);
		return -1;
	}
	if (nf > MAX_FIELDS) {
		snprintf(err, errlen, "%s:%d: %d columns in the header, at most %d are read; keep the "
		         "columns of tests/validation/README.md", name, hline, nf, MAX_FIELDS);
		return -1;
	}
	int col[C__N];
	for (int i = 0; i < C__N; i++) {
		col[i] = -1;
		for (int j = 0; j < nf; j++) {
			if (!same_column(f[j], columns[i]))
				continue;
			if (col[i] >= 0) {
				snprintf(err, errlen, "%s:%d: column '%s' appears twice (columns %d and %d); "
				         "keep one", name, hline, columns[i], col[i] + 1, j + 1);
				return -1;
			}
			col[i] = j;
		}
	}
	if (col[C_ID] < 0 || col[C_METRIC] < 0 || col[C_VALUE] < 0) {
		snprintf(err, errlen, "%s:%d: the header has no '%s' column (got '%.60s,...'); the "
		         "columns are id,source,hardware,...,metric,value,unit,verified "
		         "(tests/validation/README.md)", name, hline,
		         col[C_ID] < 0 ? "id" : col[C_METRIC] < 0 ? "metric" : "value", f[0]);
		return -1;
	}
	size_t cap = 0;
	val_row *v = NULL;
	for (;;) {
		int line = c.line;
		nf = csv_record(&c, f, MAX_FIELDS);
		if (nf == 0)
			break;
		if (nf == -1) {
			snprintf(err, errlen, "%s:%d: unterminated quoted field: a cell opened with '\"' "
			         "never closes; close it or double the quotes inside it", name, line);
			free(v);
			return -1;
		}
		if (nf == -2) {
			snprintf(err, errlen, "%s:%d:%d: a quote after a closing quote in one cell; quote "
			         "the whole cell and double the quotes inside it (\"a \"\"b\"\" c\")", name, c.line,
			         col_at(&c, c.bad));
			free(v);
			return -1;
		}
		/* an id or metric longer than its field would be cut silently, and
		 * two rows could then share an id */
		const char *too_long = col[C_ID] < nf && strlen(f[col[C_ID]]) >= sizeof v->id ? "id"
		                     : col[C_METRIC] < nf && strlen(f[col[C_METRIC]]) >= sizeof v->metric
		                     ? "metric" : NULL;
		if (too_long) {
			snprintf(err, errlen, "%s:%d: the %s is longer than %zu characters; shorten it", name,
			         line, too_long, (too_long[0] == 'i' ? sizeof v->id : sizeof v->metric) - 1);
			free(v);
			return -1;
		}
		if (nf == 1 && !f[0][0])
			continue;            /* blank line */
		if (f[0][0] == '#')
			continue;            /* a comment line ("# source: ...") */
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
		fill(&v[*n], f, col, nf < MAX_FIELDS ? nf : MAX_FIELDS);
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
		if (len > FILE_MAX) {
			snprintf(err, errlen, "%s: larger than %ld MiB; a validation file is a CSV of rows "
			         "(tests/validation/README.md)", path, FILE_MAX >> 20);
			goto out_free;
		}
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
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		goto out_free;
	}
	buf[len] = 0;
	/* a NUL would end the text early and drop what follows it */
	const char *nul = memchr(buf, 0, len);
	if (nul) {
		int line = 1;
		const char *bol = buf;
		for (const char *q = buf; q < nul; q++)
			if (*q == '\n')
				line++, bol = q + 1;
		snprintf(err, errlen, "%s:%d:%d: a NUL byte: the file is binary or not UTF-8 text; "
		         "save it as a CSV in UTF-8", path, line, (int)(nul - bol) + 1);
		goto out_free;
	}
	rc = val_parse(buf, path, rows, n, err, errlen);
out_free:
	free(buf);
out_close:
	fclose(fp);
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "%s: out of memory", path);
	return rc;
}
