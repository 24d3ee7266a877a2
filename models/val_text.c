/* val_text.c: the phrases validate reads in a row's free text (other_parallel,
 * hardware, source, metric names): case-insensitive search, whole words and
 * tokens, numbers before and after words, negations. */
#include <ctype.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "val_int.h"

bool val__has(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

bool val__has_any(const char *hay, const char *const *needles, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (val__has(hay, needles[i]))
			return true;
	return false;
}

const char *val__find(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return hay;
	return NULL;
}

/* `word` bounded by the ends or by anything but a letter or digit, matched
 * exactly or in any case. */
static bool bounded(const char *hay, const char *word, bool any_case)
{
	size_t n = strlen(word);
	for (const char *p = hay; (p = any_case ? val__find(p, word) : strstr(p, word)); p++) {
		bool left = p == hay || !isalnum((unsigned char)p[-1]);
		bool right = !isalnum((unsigned char)p[n]);
		if (left && right)
			return true;
	}
	return false;
}

/* `word` as a whole token (case-sensitive): "SP" in "SP; interleaved" but
 * not in "DeepSpeed". */
bool val__has_word(const char *hay, const char *word)
{
	return bounded(hay, word, false);
}

/* `word` as a token of a metric name, any case: "ring" in "ring_busbw", not
 * in "during". */
bool val__has_token(const char *hay, const char *word)
{
	return bounded(hay, word, true);
}

/* The integer written just before position `at` in `text`, skipping blanks,
 * an 'x' (as in "8x") and alphabetic tokens if `skip_words` ("8x HDR 200");
 * 0 if none, or if the digits end a name ("SXM5", "ConnectX-7", "CX6"). */
int val__number_before(const char *text, const char *at, bool skip_words)
{
	const char *p = at;
	while (p > text) {
		char c = p[-1];
		if (c == ' ' || c == 'x' || c == 'X' || c == '\t')
			p--;
		else if (skip_words && (isalpha((unsigned char)c) ||
		                        (c == '-' && p - 1 > text && isalpha((unsigned char)p[-2]))))
			p--;   /* words, and hyphens inside them: "4x Omni-Path 100Gb/s" */
		else
			break;
	}
	const char *end = p;
	while (p > text && isdigit((unsigned char)p[-1]))
		p--;
	/* the end of a name ("H100", "Omni-Path-4"), or of an identifier's
	 * ("mlx5_8", a device: not 8 NICs) */
	if (p > text && (isalpha((unsigned char)p[-1]) || p[-1] == '_' ||
	                 (p[-1] == '-' && p - 1 > text && isalpha((unsigned char)p[-2]))))
		return 0;
	return p < end ? atoi(p) : 0;
}


static bool compared(const char *text, const char *p);

/* Whether what follows a phrase at q turns it off: "SP off", "SP: no",
 * "SP=False", "sequence parallelism disabled", "offload: none". */
static bool negated_after(const char *q)
{
	/* "0": a flag's value ("FSDP 0", NeMo's fsdp: 0) */
	static const char *const off[] = {"off", "no", "false", "disabled", "none", "not used",
		"not supported", "0"};
	while (isalpha((unsigned char)*q))   /* the rest of the word: "parallel|ism off" */
		q++;
	if (*q == ')')   /* an abbreviation's bracket: "Fully Sharded Data Parallel (FSDP) not used" */
		q++;
	while (*q == ' ' || *q == ':' || *q == '=')
		q++;
	for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
		size_t n = strlen(off[i]);
		if (!strncasecmp(q, off[i], n) && !isalnum((unsigned char)q[n]) && q[n] != '_' &&
		    q[n] != '-')
			return true;
	}
	return false;
}

/* Whether the text says `phrase` without negating it: an occurrence not
 * preceded in its own clause (the few characters before it, back to a
 * comma, semicolon or bracket: "no CP, SP" says SP) by "no", "non", "not",
 * "without", "w/o" or "disable", nor followed by "off", "no", "false",
 * "disabled", "none" ("SP off", "SP=False"), nor named as what the run is
 * compared with ("unlike DeepSpeed", "vs. FSDP"). */
bool val__affirmed(const char *o, const char *phrase)
{
	static const char *const neg[] = {"no ", "no-", "non-", "non ", "not ", "without ",
		"disable", "w/o "};
	size_t len = strlen(phrase);
	for (const char *p = val__find(o, phrase); p; p = val__find(p + len, phrase)) {
		const char *from = p - o > 12 ? p - 12 : o;
		for (const char *c = p; c > from; c--)
			if (strchr(",;()", c[-1])) {
				from = c;
				break;
			}
		bool negated = negated_after(p + len) || compared(o, p);
		for (size_t i = 0; i < sizeof neg / sizeof neg[0] && !negated; i++) {
			const char *q = val__find(from, neg[i]);
			negated = q && q < p;
		}
		if (!negated)
			return true;
	}
	return false;
}

/* The same for a whole word (SP, ZeRO). */
bool val__affirmed_word(const char *o, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = val__find(o, word); p; p = val__find(p + len, word)) {
		bool start = p == o || !isalnum((unsigned char)p[-1]);
		bool end = !isalnum((unsigned char)p[len]);
		if (!start || !end)
			continue;
		char buf[64];   /* its clause's 12 characters before, 16 after */
		size_t off = (size_t)(p - o) > 12 ? 12 : (size_t)(p - o);
		snprintf(buf, sizeof buf, "%.*s%s%.16s", (int)off, p - off, word, p + len);
		if (val__affirmed(buf, word))
			return true;
	}
	return false;
}

/* After a key found at p in o: NULL when the key is the end of a longer
 * word, else the text after the separators that follow it ("ZeRO-1",
 * "EP=8", "zero: 2"). */
const char *val__token_tail(const char *o, const char *p, size_t len)
{
	if (p > o && isalnum((unsigned char)p[-1]))
		return NULL;
	const char *q = p + len;
	while (*q == '-' || *q == ' ' || *q == '_' || *q == '=' || *q == ':')
		q++;
	return q;
}

/* The number right after a whole word `tok` (any case; '=', ':', '-' and
 * blanks between): "VP=6", "VP 6", "vp6", "VPP: 5". 0 when there is none.
 * *layers: the number is followed by "layer" ("VPP: 5 layers/virtual stage"). */
/* Whether p (inside o) follows another axis's size written run together:
 * the "2" of "tp2pp4" ("TP2", "PP4", "DP16", "CP2", "EP8", "VP2"). */
static bool after_axis_size(const char *o, const char *p)
{
	static const char *const axes[] = {"tp", "pp", "dp", "cp", "ep", "vp", "mp"};
	const char *d = p;
	while (d > o && isdigit((unsigned char)d[-1]))
		d--;
	if (d == p || d - o < 2 || (d - o > 2 && isalpha((unsigned char)d[-3])))
		return false;
	for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++)
		if (!strncasecmp(d - 2, axes[i], 2))
			return true;
	return false;
}

int val__number_after_word(const char *o, const char *tok, bool *layers)
{
	size_t n = strlen(tok);
	for (const char *p = val__find(o, tok); p; p = val__find(p + 1, tok)) {
		if ((p > o && isalnum((unsigned char)p[-1]) && !after_axis_size(o, p)) ||
		    isalpha((unsigned char)p[n]))
			continue;
		/* the experts' own axis ("expert-tensor-parallel 1") is not the model's */
		if (p - o >= 7 && !strncasecmp(p - 7, "expert", 6) && strchr("-_ ", p[-1]))
			continue;
		const char *q = p + n;
		while (*q == ' ' || *q == '=' || *q == ':' || *q == '-')
			q++;
		if (!strncasecmp(q, "of ", 3))   /* "VPP size of 2" */
			q += 3;
		/* a size compared with ("unlike the TP=2 PP=2 baseline") is not the run's */
		if (!isdigit((unsigned char)*q) || compared(o, p))
			continue;
		int v = atoi(q);
		while (isdigit((unsigned char)*q) || *q == ' ')
			q++;
		/* an expression's result right after the number ("DP = 256/8 = 32");
		 * not a remark in brackets ("PP=4 (8x4 = 32 GPUs per replica)",
		 * "DP 32 (=64/2)") */
		const char *r = q;
		while (*r && strchr("0123456789 /*", *r))
			r++;
		if (r > q && strchr("/*", *q) && *r == '=') {
			r++;
			while (*r == ' ')
				r++;
			if (isdigit((unsigned char)*r)) {
				v = atoi(r);
				q = r;
				while (isdigit((unsigned char)*q) || *q == ' ')
					q++;
			}
		}
		*layers = !strncasecmp(q, "layer", 5);
		return v;
	}
	return 0;
}

/* val__has for a name: one that ends in a digit does not match the start of
 * a longer number ("Llama 3" is not in "Llama 34B" nor "Llama 30B"), nor one
 * that ends in a letter the start of a longer lowercase word ("NeMo" is not in
 * "Nemotron"; "MegatronLM" still names Megatron). */
bool val__word_before_in(const char *text, const char *p, const char *skip,
                         const char *const *words, size_t n)
{
	const char *w = p;
	while (w > text && strchr(skip, w[-1]))
		w--;
	const char *ws = w;
	while (ws > text && isalnum((unsigned char)ws[-1]))
		ws--;
	for (size_t i = 0; i < n; i++)
		if ((size_t)(w - ws) == strlen(words[i]) && !strncasecmp(ws, words[i], (size_t)(w - ws)))
			return true;
	return false;
}

/* Whether one of the words comes before p in its clause (back to a comma,
 * semicolon, bracket or the end of a sentence, at most 24 characters: "TP4
 * (vs TP8) distributed optimizer" does not compare the optimizer). */
static bool said_before(const char *text, const char *p, const char *const *words, size_t n)
{
	const char *from = p - text > 24 ? p - 24 : text;
	for (const char *c = p; c > from; c--) {
		bool sentence = c[-1] == '.' && c[0] == ' ' && !(c - text >= 3 && !strncasecmp(c - 3, "vs", 2));
		if (strchr(",;()", c[-1]) || sentence) {
			from = c;
			break;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const char *q = val__find(from, words[i]);
		if (q && q < p && (q == text || !isalpha((unsigned char)q[-1])))
			return true;
	}
	return false;
}

/* Whether the name at p is what the run is compared with ("unlike
 * DeepSpeed", "compared with NeMo", "faster than Megatron", "vs A100"). */
static bool compared(const char *text, const char *p)
{
	static const char *const words[] = {"unlike ", "vs ", "vs. ", "versus ", "compared to ",
		"compared against ", "compared with ", "than ", "instead of "};
	return said_before(text, p, words, sizeof words / sizeof words[0]);
}

/* Whether the name at p in text is said of something else: negated or
 * compared in its clause ("not DeepSpeed", "compared against NeMo", "unlike
 * NeMo defaults", "faster than Megatron"). */
bool val__disowned(const char *text, const char *p)
{
	static const char *const words[] = {"not ", "no ", "without "};
	return compared(text, p) || said_before(text, p, words, sizeof words / sizeof words[0]);
}

/* Whether the name at p is part of a model's name: "Mistral NeMo" (a model,
 * not NVIDIA's NeMo framework). */
static bool in_model_name(const char *hay, const char *p, const char *name)
{
	return !strcasecmp(name, "NeMo") && p - hay >= 8 && !strncasecmp(p - 8, "Mistral", 7) &&
	       strchr(" -_", p[-1]);
}

static bool has_name(const char *hay, const char *name)
{
	size_t n = strlen(name);
	bool digit_end = n > 0 && isdigit((unsigned char)name[n - 1]);
	bool alpha_end = n > 0 && isalpha((unsigned char)name[n - 1]);
	bool alpha_start = n > 0 && isalpha((unsigned char)name[0]);
	for (const char *p = hay; *p; p++)
		if (!strncasecmp(p, name, n) && !(digit_end && isdigit((unsigned char)p[n])) &&
		    !(alpha_end && (islower((unsigned char)p[n]) || isdigit((unsigned char)p[n]))) &&
		    !(alpha_start && p > hay && isalpha((unsigned char)p[-1])) &&
		    !val__disowned(hay, p) && !in_model_name(hay, p, name))
			return true;
	return false;
}

/* "Llama 3", "Llama-3", "LLaMA3", "llama_3" all match the family "Llama 3";
 * a name is not the end of a longer word ("ShieldGemma", "TinyLlama") nor
 * followed by a digit when it ends in a letter ("Falcon3" is not Falcon). */
bool val__names(const val_row *r, const char *family)
{
	const char *fields[] = {r->source, r->hardware, r->other, r->id};
	char alt[3][32];
	for (int k = 0; k < 3; k++)
		snprintf(alt[k], sizeof alt[k], "%s", family);
	char *sp = strchr(alt[0], ' ');
	if (sp)
		*sp = '-';
	sp = strchr(alt[1], ' ');
	if (sp)
		memmove(sp, sp + 1, strlen(sp));
	sp = strchr(alt[2], ' ');
	if (sp)
		*sp = '_';
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (has_name(fields[i], family) || has_name(fields[i], alt[0]) ||
		    has_name(fields[i], alt[1]) || has_name(fields[i], alt[2]))
			return true;
	return false;
}

/* The number right after `tag` in a kernel name ("_s" in "..._s8192_b1"):
 * the first occurrence followed by a digit; 0 when there is none. */
double val__num_after(const char *name, const char *tag)
{
	size_t n = strlen(tag);
	for (const char *p = val__find(name, tag); p; p = val__find(p + 1, tag))
		if (isdigit((unsigned char)p[n]))
			return atof(p + n);
	return 0;
}

void val__clause_around(const char *o, const char *p, size_t n, char *out, size_t outlen)
{
	const char *b = p, *e = p + n;
	while (b > o && !strchr(",;()", b[-1]))
		b--;
	while (*e && !strchr(",;()", *e))
		e++;
	size_t len = (size_t)(e - b);
	if (len >= outlen)
		len = outlen - 1;
	snprintf(out, outlen, "%.*s", (int)len, b);
}

/* Whether the few characters after a name at q (up to 24, not past a
 * ';', ',', bracket or '+', which joins another feature) turn it off:
 * "disabled", "off" as a word, "=0", "not used", "=False" ("NVLS disabled",
 * "NVLS/NVLink SHARP disabled"; not "NVLS (CollNet off)", "NVLS+SHARP off"
 * nor "P2P + CPU offload"). */
bool val__off_after(const char *q)
{
	static const char *const words[] = {"disabled", "off", "=0", "= 0", "not used", "=False",
		"= False", ": false"};
	size_t n = 0;
	while (q[n] && n < 24 && !strchr(";,()+", q[n]))
		n++;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t k = strlen(words[i]);
		for (size_t j = 0; j + k <= n; j++)
			if (!strncasecmp(q + j, words[i], k) && !isalnum((unsigned char)q[j + k]) &&
			    (isalpha((unsigned char)words[i][0]) ? j == 0 || !isalnum((unsigned char)q[j - 1])
			                                         : true))
				return true;
	}
	return false;
}

/* Whether the name at p is negated just before it in its clause: "no NVLS",
 * "without NVLS", "non-NVLS", "NVLS disable..." said first ("disable NVLS"). */
bool val__negated_before(const char *t, const char *p)
{
	static const char *const words[] = {"no ", "no-", "non-", "non ", "not ", "without ",
		"disable ", "disabled ", "w/o "};
	const char *from = p - t > 12 ? p - 12 : t;
	for (const char *c = p; c > from; c--)
		if (strchr(",;()", c[-1])) {
			from = c;
			break;
		}
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t k = strlen(words[i]);
		for (const char *c = from; c + k <= p; c++)
			if (!strncasecmp(c, words[i], k) && (c == t || !isalpha((unsigned char)c[-1])))
				return true;
	}
	return false;
}

/* Whether the text turns `name` off: some mention said off after it or
 * negated before it, and none that says it ran (neither off nor compared:
 * "NVLS enabled; 25% faster than without NVLS" ran NVLS). A mention inside
 * a word or an identifier ("overlap_p2p_comm") is none. */
bool val__turned_off(const char *t, const char *name)
{
	size_t len = strlen(name);
	bool off = false;
	for (const char *p = val__find(t, name); p; p = val__find(p + len, name)) {
		if ((p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
		    isalnum((unsigned char)p[len]) || p[len] == '_')
			continue;
		if (compared(t, p))
			continue;
		if (val__off_after(p + len) || val__negated_before(t, p))
			off = true;
		else
			return false;
	}
	return off;
}

/* "FlashAttention disabled", "flash attention: off", "torch.compile=False":
 * a feature named, then turned off within a few words of the same clause
 * (not past a ';' or ','). */
bool val__said_off(const char *at)
{
	static const char *const words[] = {"disabled", " off", "not used", "=False", "= False",
		": false"};
	size_t clause = strcspn(at, ";,");
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		const char *q = val__find(at, words[i]);
		if (q && q - at < 24 && (size_t)(q - at) < clause)
			return true;
	}
	return false;
}
