/* val_moe.c: a mixture-of-experts row: whether a row describes one, and its
 * routing (experts, top-k, expert width, shared experts, first dense layers)
 * and expert parallelism, from the row's free text or, for a model it only
 * names, from the model's published configuration. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "val_int.h"
#include "workload.h"

/* Published MoE configurations (the models' config.json as their authors
 * released them): Mixtral 8x7B / 8x22B (Mistral AI), Qwen2-57B-A14B, Qwen3-30B-A3B /
 * 235B-A22B (Qwen), DBRX (Databricks), OLMoE-1B-7B (AI2), DeepSeek-V3
 * (DeepSeek-AI: MLA with q_lora 1536, kv_lora 512, rotary 64, values 128; the
 * first 3 layers dense of 18432; one shared expert of 2048). */
typedef struct moe_model {
	const char *family;
	const char *stem;   /* the family without its size ("Qwen3 MoE 30B") */
	double params_b;
	int layers, hidden, heads, kv_heads, head_dim, experts, top_k, expert_ffn, vocab;
	int ffn, shared, dense_layers, q_lora, kv_lora;
} moe_model;

static const moe_model moe_zoo[] = {
	{"Mixtral 8x7B", "Mixtral", 46.7, 32, 4096, 32, 8, 128, 8, 2, 14336, 32000, 14336, 0, 0,
	 0, 0},
	{"Mixtral 8x22B", "Mixtral", 141, 56, 6144, 48, 8, 128, 8, 2, 16384, 32768, 16384, 0, 0,
	 0, 0},
	/* Qwen2-57B-A14B (config.json: 64 experts of 2560, top-8, a shared
	 * expert of 20480, 28 heads of 128 with 4 KV heads) */
	{"Qwen2-57B-A14B", "Qwen2", 57.4, 28, 3584, 28, 4, 128, 64, 8, 2560, 151936, 18944, 20480,
	 0, 0, 0},
	{"Qwen3-30B-A3B", "Qwen3", 30.5, 48, 2048, 32, 4, 128, 128, 8, 768, 151936, 6144, 0, 0, 0,
	 0},
	{"Qwen3-235B-A22B", "Qwen3", 235, 94, 4096, 64, 4, 128, 128, 8, 1536, 151936, 12288, 0, 0,
	 0, 0},
	{"DBRX", "DBRX", 132, 40, 6144, 48, 8, 128, 16, 4, 10752, 100352, 10752, 0, 0, 0, 0},
	{"OLMoE", "OLMoE", 6.9, 16, 2048, 16, 16, 128, 64, 8, 1024, 50304, 1024, 0, 0, 0, 0},
	{"DeepSeek-V3", "DeepSeek", 671, 61, 7168, 128, 128, 128, 256, 8, 2048, 129280, 18432,
	 2048, 3, 1536, 512},
	/* Moonshot AI's Kimi K2 (config.json: DeepSeek-V3's layout with 384
	 * routed experts, 64 heads, one dense layer first, vocab 163840; 1.04T) */
	{"Kimi K2", "Kimi", 1040, 61, 7168, 64, 64, 128, 384, 8, 2048, 163840, 18432, 2048, 1,
	 1536, 512},
	/* OpenAI's gpt-oss (config.json: 2880 wide, 64 query heads of 64, 8 KV
	 * heads, top-4 experts of 2880, vocab 201088; 116.8B and 20.9B) */
	{"GPT-OSS 120B", "GPT-OSS", 116.8, 36, 2880, 64, 8, 64, 128, 4, 2880, 201088, 2880, 0, 0,
	 0, 0},
	{"GPT-OSS 20B", "GPT-OSS", 20.9, 24, 2880, 64, 8, 64, 32, 4, 2880, 201088, 2880, 0, 0, 0,
	 0},
};

/* A model named in other_parallel or the id (not in the source, whose title
 * may cite another model). */
static bool named(const val_row *r, const char *family)
{
	return val__has(r->other, family) || val__has(r->id, family);
}

/* Whether the row's own cells (other_parallel, id) say it is a MoE run, and
 * not a dense one: "MoE", experts, an EP of 2 or more ("EP8", "expert
 * parallelism 8"). A source names models of many rows. */
static int after_key(const char *o, const char *key);
static bool own_moe(const val_row *r)
{
	const char *o = r->other;
	if (val__has_word(o, "dense") || val__has_word(r->id, "dense"))
		return false;
	return val__has_word(o, "MoE") || val__has(o, "expert") || after_key(o, "EP") > 1 ||
	       val__has(o, "mixture");
}

/* The model a row names in other_parallel or its id; in the source (whose
 * title or table may cite another model: a dense run's paper a MoE one) only
 * when the row's own cells say it is a MoE run and its parameter count is that
 * model's, within 10% ("Qwen3-235B-A22B, 4 nodes" in a table's heading beside
 * model_params_b 235 and "expert parallelism 8"). */
static const moe_model *zoo_of(const val_row *r)
{
	for (size_t i = 0; i < sizeof moe_zoo / sizeof moe_zoo[0]; i++) {
		const moe_model *z = &moe_zoo[i];
		char alt[32], recipe[32], blank[32], dashed[32];   /* "Qwen3 30B-A3B",
		                                                    * "Mixtral-8x7B", NeMo's
		                                                    * "qwen3_30b_a3b", "Qwen3 30B
		                                                    * A3B", "gpt-oss-120b" */
		snprintf(alt, sizeof alt, "%s", z->family);
		char *sep = strpbrk(alt, " -");
		if (sep)
			*sep = *sep == ' ' ? '-' : ' ';
		snprintf(recipe, sizeof recipe, "%s", z->family);
		snprintf(blank, sizeof blank, "%s", z->family);
		for (char *c = recipe; *c; c++)
			if (*c == ' ' || *c == '-' || *c == '.')
				*c = '_';
		for (char *c = blank; *c; c++)
			if (*c == '-')
				*c = ' ';
		snprintf(dashed, sizeof dashed, "%s", z->family);
		for (char *c = dashed; *c; c++)
			if (*c == ' ')
				*c = '-';
		const char *fields[] = {r->other, r->id, r->source};
		bool sized = r->params_b > 0 && fabs(r->params_b - z->params_b) <= 0.1 * z->params_b &&
		             own_moe(r);
		for (size_t f = 0; f < 2 + (size_t)sized; f++)
			if (val__has(fields[f], z->family) || val__has(fields[f], alt) ||
			    val__has(fields[f], recipe) || val__has(fields[f], blank) ||
			    val__has(fields[f], dashed))
				return z;
	}
	/* the family without its size ("Qwen3 MoE 30B") in a row whose own cells
	 * say it is a MoE run and that give that model's parameter count */
	bool moe = own_moe(r);
	for (size_t i = 0; moe && r->params_b > 0 && i < sizeof moe_zoo / sizeof moe_zoo[0]; i++) {
		const moe_model *z = &moe_zoo[i];
		if (fabs(r->params_b - z->params_b) <= 0.1 * z->params_b &&
		    (val__has(r->other, z->stem) || val__has(r->source, z->stem) ||
		     val__has(r->id, z->stem)))
			return z;
	}
	return NULL;
}

/* The number after a key that starts a word (not "moe_ffn" nor "moe-ffn" for
 * "ffn", but "TP1-EP8" for "EP"): "EP8", "EP=8", "top-8", "moe_ffn 768",
 * "kv_channels: 128"; -1 if none. */
static const char *number_after_key(const char *o, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = val__find(o, key); p; p = val__find(p + 1, key)) {
		if (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		if (p - o > 1 && p[-1] == '-' && isalpha((unsigned char)p[-2]))
			continue;
		const char *q = p + n;
		while (*q == ' ' || *q == '=' || *q == ':' || *q == '-' || *q == '_')
			q++;
		if (isdigit((unsigned char)*q))
			return q;
	}
	return NULL;
}

static int after_key(const char *o, const char *key)
{
	const char *q = number_after_key(o, key);
	double v = q ? val__number_grouped(q, NULL) : -1;   /* "vocab 151,936" */
	return v >= 0 && v <= 1e9 ? (int)v : -1;
}

static int first_of(const char *o, const char *const *keys, size_t nkeys)
{
	for (size_t i = 0; i < nkeys; i++) {
		int v = after_key(o, keys[i]);
		if (v >= 0)
			return v;
	}
	return -1;
}

#define FIRST(o, ...) first_of(o, (const char *const[]){__VA_ARGS__}, \
	sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

/* An expert's width written as its intermediate size ("expert intermediate
 * 2560", "routed intermediate 1024", "expert intermediate size 1024"), not
 * the shared experts' ("shared expert intermediate 4096"), and a width (at
 * least 32, not "expert intermediate 2x"); -1 if none. With shared set, the
 * shared experts' instead ("shared expert intermediate 4096", "1 shared
 * expert (intermediate 2048)"). */
static int intermediate_width(const char *o, bool shared)
{
	static const char *const keys[] = {"routed expert intermediate size",
		"routed expert intermediate", "expert intermediate size", "expert intermediate",
		"routed intermediate size", "routed intermediate"};
	static const char *const shared_keys[] = {"shared expert intermediate size",
		"shared expert intermediate", "shared expert (intermediate",
		"shared intermediate size", "shared intermediate"};
	const char *const *k = shared ? shared_keys : keys;
	size_t nk = shared ? sizeof shared_keys / sizeof shared_keys[0]
	                   : sizeof keys / sizeof keys[0];
	for (size_t i = 0; i < nk; i++)
		for (const char *p = val__find(o, k[i]); p; p = val__find(p + 1, k[i])) {
			if (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				continue;
			if (!shared && p - o >= 7 && !strncasecmp(p - 7, "shared", 6))
				continue;   /* "shared expert intermediate" */
			const char *q = p + strlen(k[i]);
			while (*q == ' ' || *q == '=' || *q == ':')
				q++;
			double v = isdigit((unsigned char)*q) ? val__number_grouped(q, NULL) : -1;
			if (v >= 32 && v <= 1e6)
				return (int)v;
		}
	return -1;
}

/* The number right at q: "4", "2.6875", "13,824", a fraction "8/3"; *end
 * after it. */
static double number_at(const char *q, const char **end)
{
	const char *e;
	double x = val__number_grouped(q, &e);
	if (*e == '/' && isdigit((unsigned char)e[1])) {
		const char *e2;
		double d = val__number_grouped(e + 1, &e2);
		if (d > 0) {
			x /= d;
			e = e2;
		}
	}
	*end = e;
	return x;
}

/* A width written as a multiple of the hidden size after the number ("4h",
 * "4 x h", "4x hidden", "8/3 h", "2.6875x", "4H"): whether it is one. */
static bool times_hidden(const char *t)
{
	while (*t == ' ')
		t++;
	bool x = *t == 'x' || *t == 'X' || *t == '*';
	if (x) {
		t++;
		while (*t == ' ')
			t++;
	}
	if ((*t == 'h' || *t == 'H') && !isalnum((unsigned char)t[1]))
		return true;
	if (!strncasecmp(t, "hidden", 6) || !strncasecmp(t, "d_model", 7))
		return true;
	return x && !isalnum((unsigned char)*t);   /* "2.6875x" */
}

int val__ffn_in(const char *o, int hidden)
{
	static const char *const keys[] = {"ffn", "ffn_hidden", "ffn_hidden_size",
		"ffn-hidden-size", "intermediate_size", "intermediate size", "FFN dim",
		"FFN dimension", "MLP dim", "d_ff"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *q = number_after_key(o, keys[i]), *end;
		if (!q)
			continue;
		double x = number_at(q, &end);
		if ((*end == 'k' || *end == 'K') && !isalnum((unsigned char)end[1]))
			x *= 1024;   /* "16K" */
		/* "ffn=4h": four times the hidden size; a bare 1-16 is such a
		 * multiple too (no transformer's MLP is 16 wide) */
		else if (times_hidden(end) || (x >= 1 && x <= 16))
			x = hidden > 0 ? x * hidden : -1;
		/* beyond any scenario (1e7): said so, not wrapped into an int */
		return x > 1e7 ? INT_MAX : x < 0 ? -1 : (int)lround(x);
	}
	return -1;
}

/* Whether the clause around p (between commas, semicolons and brackets) is
 * about some of the layers, not the model's: recomputed, dense, virtual,
 * per stage. */
static bool some_layers(const char *o, const char *p)
{
	static const char *const words[] = {"recompute", "checkpoint", "dense", "virtual", "per stage",
		"stage", "MoE", "expert", "first", "last"};
	char clause[128];
	val__clause_around(o, p, 0, clause, sizeof clause);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (val__has(clause, words[i]))
			return true;
	return false;
}

/* The number written before one of `nouns` ("80 layers", "64 attention
 * heads"; not "8 KV heads": the word before the noun must be the number;
 * not "recompute 4 layers"). */
static int count_before(const char *o, const char *const *nouns, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (const char *p = val__find(o, nouns[i]); p; p = val__find(p + 1, nouns[i])) {
			size_t len = strlen(nouns[i]);
			if (isalpha((unsigned char)p[len]) && p[len] != 's')
				continue;
			int v = val__number_before(o, p, false);
			if (v > 0 && !some_layers(o, p))
				return v;
		}
	return -1;
}

/* "layers 32", "layers: 32" of the model, not of some of them. */
static int model_layers(const char *o)
{
	for (const char *p = val__find(o, "layers"); p; p = val__find(p + 1, "layers")) {
		if ((p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) || some_layers(o, p))
			continue;
		const char *q = p + 6;
		while (*q == ' ' || *q == '=' || *q == ':')
			q++;
		if (isdigit((unsigned char)*q))
			return atoi(q);
	}
	return -1;
}

/* The model's width in the text: "hidden size 8192", "hidden_size=", "d_model",
 * "n_embd", "hidden 8192"; not the MLP's or an expert's ("FFN hidden size",
 * "moe hidden 2048", "intermediate hidden", "kv hidden"). -1 if none. */
static int model_width(const char *o)
{
	static const char *const keys[] = {"hidden_size", "hidden size", "hidden-size", "d_model",
		"hidden_dim", "model dim", "n_embd", "hidden"};
	static const char *const other[] = {"ffn", "moe", "expert", "intermediate", "mlp", "kv",
		"head", "shared"};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		size_t n = strlen(keys[k]);
		for (const char *p = val__find(o, keys[k]); p; p = val__find(p + 1, keys[k])) {
			if (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				continue;
			bool theirs = val__word_before_in(o, p, " -_", other, sizeof other / sizeof other[0]);
			const char *q = p + n;
			while (*q == ' ' || *q == '=' || *q == ':')
				q++;
			if (!theirs && isdigit((unsigned char)*q))
				return atoi(q);
		}
	}
	return -1;
}

bool val__shape_in(const char *o, int *layers, int *hidden, int *heads, int *seq)
{
	static const char *const layer_nouns[] = {" layers", " transformer layers",
		" decoder layers"};
	static const char *const head_nouns[] = {" attention heads", " heads"};
	int l = FIRST(o, "num_hidden_layers", "num_layers", "n_layers", "num-layers", "n_layer",
	              "total layers");
	if (l <= 0)
		l = model_layers(o);
	if (l <= 0)
		l = count_before(o, layer_nouns, 3);
	int h = model_width(o);
	int a = FIRST(o, "num_attention_heads", "n_heads", "num-attention-heads", "num_heads",
	              "n_head", "attention heads");
	if (a <= 0)
		a = count_before(o, head_nouns, 2);
	int sq = FIRST(o, "seq_len", "max_seq_len", "seq_length", "seq-length", "sequence length",
	               "max_seq_length", "sequence", "seq");
	if (l <= 0 || h <= 0 || a <= 0 || h % a || h < 64)
		return false;
	*layers = l, *hidden = h, *heads = a;
	*seq = sq > 0 ? sq : 0;
	return true;
}

bool val__moe_shape(const val_row *r, int *layers, int *hidden, int *heads)
{
	const moe_model *z = zoo_of(r);
	if (!z)
		return false;
	*layers = z->layers, *hidden = z->hidden, *heads = z->heads;
	return true;
}

/* Experts per layer: "128 experts", "experts 128", "num_experts=64", or the
 * N of a name "8x7B". */
static int experts_of(const val_row *r)
{
	const char *o = r->other;
	const char *p = val__find(o, "experts");
	/* "2 experts per token" is a top-k, not the experts */
	bool per_token = p && !strncasecmp(p + 7, " per token", 10);
	int e = p && !per_token ? val__number_before(o, p, false) : 0;
	if (e > 1)
		return e;
	static const char *const kinds[] = {"routed experts", "fine-grained experts",
		"fine grained experts"};   /* DeepSeek's "64 routed experts" */
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		const char *rt = val__find(o, kinds[i]);
		e = rt ? val__number_before(o, rt, false) : 0;
		if (e > 1)
			return e;
	}
	e = FIRST(o, "experts", "num_experts", "num-experts", "moe_num_experts", "E=",
	          "n_routed_experts", "num_local_experts", "num_routed_experts");
	if (e > 1)
		return e;
	const char *fields[] = {r->other, r->id};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		for (const char *q = fields[i]; *q; q++)
			if ((*q == 'x' || *q == 'X') && q > fields[i] && isdigit((unsigned char)q[-1]) &&
			    isdigit((unsigned char)q[1])) {
				const char *d = q;
				while (d > fields[i] && isdigit((unsigned char)d[-1]))
					d--;
				const char *b = q + 1;
				while (isdigit((unsigned char)*b) || *b == '.')
					b++;
				if (toupper((unsigned char)*b) == 'B' && atoi(d) > 1)
					return atoi(d);
			}
	return 0;
}

/* Multi-head latent attention named in the row: "MLA q_lora 1536 kv_lora 512
 * qk 128+64 v 128" (DeepSeek-V2/V3's names: q_lora_rank, kv_lora_rank,
 * qk_nope_head_dim + qk_rope_head_dim, v_head_dim). Returns whether the row
 * says MLA; fills what it gives. */
static bool mla_of(const val_row *r, scn_model *m)
{
	const char *o = r->other;
	bool said = val__has_word(o, "MLA") || val__has(o, "latent attention");
	int v;
	if ((v = FIRST(o, "kv_lora", "kv_lora_rank", "kv-lora-rank")) > 0)
		m->kv_lora_rank = v, said = true;
	if (!said)
		return false;
	if ((v = FIRST(o, "q_lora", "q_lora_rank", "q-lora-rank")) >= 0)
		m->q_lora_rank = v;
	const char *p = val__find(o, "qk ");
	if (p && isdigit((unsigned char)p[3])) {   /* "qk 128+64 v 128" */
		m->head_dim = atoi(p + 3);
		const char *q = p + 3;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '+' && isdigit((unsigned char)q[1])) {
			m->qk_rope_dim = atoi(q + 1);
			for (q++; isdigit((unsigned char)*q); q++)
				;
		}
		if (!strncasecmp(q, " v ", 3) && isdigit((unsigned char)q[3]))
			m->v_head_dim = atoi(q + 3);
	}
	if ((v = FIRST(o, "qk_nope_head_dim", "qk_nope")) > 0)
		m->head_dim = v;
	if ((v = FIRST(o, "qk_rope_head_dim", "qk_rope")) > 0)
		m->qk_rope_dim = v;
	if ((v = FIRST(o, "v_head_dim")) > 0)
		m->v_head_dim = v;
	return true;
}

/* Expert parallelism: "EP8", "EP=8", "expert parallel size 8", Megatron's
 * flags, and "64-way Expert Parallelism", "8-way EP" (DeepSeek-V3's report);
 * -1 if none. */
int val__ep_in(const char *o)
{
	int ep = FIRST(o, "EP", "expert parallel", "expert parallelism", "expert parallel size",
	               "expert parallelism size", "expert-model-parallel-size",
	               "expert_model_parallel_size");
	for (const char *p = val__find(o, "-way"); p && ep <= 1; p = val__find(p + 1, "-way")) {
		const char *q = p + 4;
		while (*q == ' ')
			q++;
		if (!strncasecmp(q, "expert", 6) || (!strncmp(q, "EP", 2) && !isalnum((unsigned char)q[2])))
			ep = val__number_before(o, p, false);
	}
	return ep;
}

bool val__moe_named(const val_row *r)
{
	const char *fields[] = {r->other, r->id};   /* not the source: a title may cite one */
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const char *o = fields[i];
		if (val__has_word(o, "MoE") || val__has(o, "mixture of experts") ||
		    val__has(o, "mixture-of-experts") || val__has(o, "Mixtral") ||
		    val__has(o, "DeepSeek-V") || val__has(o, "DeepSeekMoE") ||
		    val__has(o, "Switch Transformer") || val__has(o, "GLaM"))
			return true;
	}
	if (zoo_of(r) || val__has(r->other, "experts"))
		return true;
	/* an active size after the total: "Qwen3-Coder-30B-A3B", "qwen3_30b_a3b" */
	for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
		for (const char *p = fields[f]; *p; p++) {
			if ((*p != 'A' && *p != 'a') || p == fields[f] || !strchr("-_ ", p[-1]) ||
			    !isdigit((unsigned char)p[1]))
				continue;
			const char *q = p + 1;
			while (isdigit((unsigned char)*q) || *q == '.')
				q++;
			if ((*q == 'B' || *q == 'b') && !isalnum((unsigned char)q[1]) && p - fields[f] >= 2 &&
			    (p[-2] == 'B' || p[-2] == 'b'))
				return true;
		}
	return val__ep_in(r->other) > 1;
}

/* Whether o says a named MoE's experts were split g ways finer, each 1/g as
 * wide: "fine-grained experts", "fine grained upcycled", "finer-grained: 64
 * experts", NVIDIA's "-G8T8" suffix (granularity 8, top-8), "G=8",
 * "granularity 8" or "1/8 of the FFN"; not Megatron's --recompute-granularity,
 * fine-grained FP8 scaling or recomputation, fine-grained expert parallelism
 * or dispatch, nor experts upcycled as whole copies. */
static bool finer_experts(const char *o, int g)
{
	static const char *const fine[] = {"fine-grained", "fine grained", "fine-grain",
		"finer-grained", "finer grained"};
	for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
		for (const char *p = val__find(o, fine[i]); p; p = val__find(p + 1, fine[i])) {
			const char *q = p + strlen(fine[i]);
			while (*q == ' ' || *q == '-' || *q == ')' || *q == '(' || *q == ':')
				q++;
			/* experts, not their parallelism, dispatch, placement, balance
			 * or routing; an upcycling into them; "fine-grained into 64
			 * experts" */
			static const char *const of_experts[] = {"parallel", "-parallel", "dispatch",
				"placement", "load", "balanc", "routing", "scheduling", "communication",
				"level"};
			bool experts = !strncasecmp(q, "expert", 6);
			const char *x = q + 6;
			while (isalpha((unsigned char)*x))
				x++;
			while (*x == ' ' || *x == '-')
				x++;
			for (size_t k = 0; experts && k < sizeof of_experts / sizeof of_experts[0]; k++)
				experts = strncasecmp(x, of_experts[k], strlen(of_experts[k])) != 0;
			if (!strncasecmp(q, "into ", 5))
				q += 5;
			const char *d = q;
			while (isdigit((unsigned char)*d))
				d++;
			while (*d == ' ')
				d++;
			if (experts || !strncasecmp(q, "upcycl", 6) ||
			    (d > q && !strncasecmp(d, "expert", 6)))
				return true;
		}
	char suffix[24], eq[24], gran[32];
	snprintf(suffix, sizeof suffix, "-G%dT", g);
	snprintf(eq, sizeof eq, "G=%d", g);
	snprintf(gran, sizeof gran, "granularity %d", g);
	if (val__has(o, suffix) || val__has_word(o, eq) || val__has_word(o, gran))
		return true;
	/* "each expert 1/8 of the FFN", "1/8 the FFN width" */
	char part[24];
	snprintf(part, sizeof part, "1/%d ", g);
	for (const char *p = val__find(o, part); p; p = val__find(p + 1, part)) {
		const char *q = p + strlen(part);
		if (!strncasecmp(q, "of ", 3))
			q += 3;
		if (!strncasecmp(q, "the ", 4))
			q += 4;
		if (!strncasecmp(q, "original ", 9))
			q += 9;
		static const char *const width[] = {"FFN", "MLP", "width", "hidden", "intermediate"};
		for (size_t k = 0; k < sizeof width / sizeof width[0]; k++)
			if (!strncasecmp(q, width[k], strlen(width[k])))
				return true;
	}
	return false;
}

/* The model part: experts, top-k, widths, first dense layers, head width,
 * vocabulary, on top of what model_of set from the columns. */
static int moe_model_of(const val_row *r, scenario *s, bool *assumed, char *why, size_t n)
{
	scn_model *m = &s->model;
	const char *o = r->other;
	const moe_model *z = zoo_of(r);
	/* GPT-OSS: "alternating dense and locally banded sparse attention
	 * patterns", a band of 128 tokens (OpenAI's gpt-oss model card); its
	 * learned attention sinks (one logit per head in the softmax) cost no
	 * FLOPs worth counting */
	bool said = false;
	bool read = val__window_of(o, m, &said);
	if (named(r, "GPT-OSS") || (z && !strcmp(z->stem, "GPT-OSS")) ||
	    val__affirmed(o, "attention sink")) {
		if (!read) {
			m->sliding_window = 128;
			*assumed = true;
		}
		if (!said) {
			m->global_every = 2;
			*assumed = true;
		}
	}
	if (z && (m->hidden == z->hidden || m->hidden <= 0)) {
		m->layers = m->layers > 0 ? m->layers : z->layers;
		m->hidden = z->hidden;
		m->heads = m->heads > 0 ? m->heads : z->heads;
		m->kv_heads = z->kv_heads;
		m->head_dim = z->head_dim;
		m->experts = z->experts;
		m->top_k = z->top_k;
		m->expert_ffn_hidden = z->expert_ffn;
		m->ffn_hidden = z->ffn;
		m->shared_expert_ffn_hidden = z->shared;
		m->dense_layers = z->dense_layers;
		m->q_lora_rank = z->q_lora;
		m->kv_lora_rank = z->kv_lora;
		m->vocab = z->vocab;
		m->gated_mlp = true;
	}
	bool mla = mla_of(r, m) || m->kv_lora_rank > 0;
	if (mla && m->kv_lora_rank <= 0) {
		snprintf(why, n, "multi-head latent attention without its key/value latent width "
		         "(e.g. 'MLA kv_lora 512 q_lora 1536')");
		return -1;
	}
	if (mla)
		m->kv_heads = m->heads;
	else if (named(r, "DeepSeek-V") || named(r, "DeepSeekV") || named(r, "Kimi")) {
		snprintf(why, n, "a DeepSeek-V2/V3-style model whose multi-head latent attention "
		         "the row does not describe (e.g. 'MLA kv_lora 512 q_lora 1536')");
		return -1;
	}
	int e = experts_of(r);
	if (e > 1)
		m->experts = e;
	if (m->experts <= 1) {
		snprintf(why, n, "a mixture-of-experts row that does not say how many experts a "
		         "layer has (e.g. '64 experts top-8' in other_parallel)");
		return -1;
	}
	int k = FIRST(o, "top-k", "topk", "top_k", "top", "router_topk", "moe-router-topk", "k=",
	              "moe_router_topk", "num_experts_per_tok", "experts_per_token",
	              "num_experts_per_token");
	const char *act = val__find(o, "active");   /* "64 experts (6 active)" */
	if (!act)
		act = val__find(o, "activated");   /* DeepSeek's "6 activated" */
	if (k <= 0 && act) {
		const char *a = act;
		while (a > o && (a[-1] == ' ' || a[-1] == '('))
			a--;
		int v = val__number_before(o, a, false);
		k = v > 0 && v <= m->experts ? v : k;
	}
	if (k > 0 && k <= m->experts)
		m->top_k = k;
	else if (m->top_k <= 1) {
		m->top_k = 2;     /* GShard, Switch-style routers of two, Mixtral */
		*assumed = true;
	}
	int v;
	if ((v = FIRST(o, "moe_ffn", "moe-ffn-hidden-size", "moe_ffn_hidden", "expert ffn",
	               "expert_ffn", "moe_intermediate_size")) > 0 ||
	    (v = intermediate_width(o, false)) > 0)
		m->expert_ffn_hidden = v;
	else if (z && e > z->experts && e % z->experts == 0 && finer_experts(o, e / z->experts))
		/* a named model split finer: granularity g = e / its experts makes
		 * each expert 1/g as wide ("Mixtral 8x22B fine-grained-upcycled to
		 * 64 experts, each 1/8 of the FFN"; Krajewski et al. 2024's G) */
		m->expert_ffn_hidden = z->expert_ffn / (e / z->experts);
	if ((v = val__ffn_in(o, m->hidden)) > 0)
		m->ffn_hidden = v;
	if (m->expert_ffn_hidden <= 0)
		m->expert_ffn_hidden = m->ffn_hidden;
	if (m->ffn_hidden > 10000000 || m->expert_ffn_hidden > 10000000) {
		snprintf(why, n, "an FFN width beyond 10,000,000 (a scenario takes 1 to 1e7)");
		return -1;
	}
	/* "shared 2048" is a width; "shared expert 1", "2 shared experts" a count
	 * of experts of the routed ones' width */
	if ((v = FIRST(o, "shared_expert", "shared expert", "shared")) >= 0)
		m->shared_expert_ffn_hidden = v < 64 ? v * m->expert_ffn_hidden : v;
	const char *se = val__find(o, "shared expert");
	int count = se ? val__number_before(o, se, false) : 0;
	if (count > 0 && count < 64 && v < 0)
		m->shared_expert_ffn_hidden = count * m->expert_ffn_hidden;
	int sw = intermediate_width(o, true);   /* "1 shared expert (intermediate 2048)" */
	if (sw > 0)
		m->shared_expert_ffn_hidden = (count > 1 && count < 64 ? count : 1) * sw;
	if ((v = FIRST(o, "dense_layers", "first_k_dense", "first_k_dense_replace")) >= 0)
		m->dense_layers = v;
	if ((v = FIRST(o, "kv_channels", "head_dim", "head dim")) > 0)
		m->head_dim = v;
	if ((v = FIRST(o, "vocab", "vocab_size")) > 0)
		m->vocab = v;
	/* the MoE generation is gated (SwiGLU) unless the row says GeLU */
	if (!m->gated_mlp && !val__has(o, "gelu")) {
		m->gated_mlp = true;
		*assumed = !z;
	}
	if (m->dense_layers >= m->layers) {
		snprintf(why, n, "dense_layers %d leaves no MoE layer of %d", m->dense_layers,
		         m->layers);
		return -1;
	}
	return wl_model_resolve(m);
}

int val__moe_of(const val_row *r, scenario *s, bool *assumed, char *why, size_t n)
{
	if (!val__moe_named(r))
		return 0;
	if (moe_model_of(r, s, assumed, why, n) < 0)
		return -1;
	scn_training *t = &s->training;
	int ep = val__ep_in(r->other);
	t->ep = ep > 1 ? ep : 1;
	/* Megatron-core's default expert TP is tp; NVIDIA's NeMo and
	 * Megatron-Bridge MoE recipes set expert_tensor_parallel_size 1 */
	int etp = FIRST(r->other, "ETP", "expert tensor parallel", "expert-tensor-parallel-size");
	bool recipes = val__names(r, "NeMo") || val__names(r, "Megatron-Bridge");
	t->expert_tp = etp >= 1 ? etp : recipes ? 1 : t->tp;
	int dp0 = t->dp > 0 ? t->dp : 1, cp0 = t->cp > 1 ? t->cp : 1;
	if (etp < 1 && t->tp > 1 && (dp0 * cp0) % t->ep && (dp0 * cp0 * t->tp) % t->ep == 0)
		t->expert_tp = 1;   /* an EP beyond dp x cp draws on the TP ranks: ETP 1 */
	if (etp < 1 && t->tp > 1)
		*assumed = true;
	if (t->expert_tp != 1 && t->expert_tp != t->tp) {
		snprintf(why, n, "expert TP %d is neither 1 nor tp %d", t->expert_tp, t->tp);
		return -1;
	}
	/* the all-to-all overlapped with compute: DeepSeek's DualPipe,
	 * Megatron-core's --overlap-moe-expert-parallel-comm */
	const char *o = r->other;
	t->ep_overlap = t->ep > 1 && (val__affirmed(o, "DualPipe") ||
	                              val__affirmed(o, "overlap-moe-expert-parallel-comm") ||
	                              val__affirmed(o, "all-to-all overlapped") ||
	                              val__affirmed(o, "EP overlap") || val__affirmed(o, "A2A overlap"));
	/* DeepEP's dispatcher (or HybridEP, its sibling in the same library):
	 * one copy of a token a node; Megatron-core's "--moe-token-dispatcher-type
	 * flex" runs it, torchtitan's use_deepep */
	static const char *const deepep[] = {"DeepEP", "HybridEP", "deep_ep", "use_deepep",
		"dispatcher-type flex", "dispatcher_type=flex", "dispatcher_type: flex",
		"flex dispatcher", "dispatcher flex"};
	/* ... not one compared, unavailable or of another row ("the DeepEP
	 * dispatcher is 1.3x faster (next row)"), nor beside the run's own
	 * all-to-all dispatcher */
	static const char *const aside[] = {"slower", "faster", "unavailable", "not available",
		"inference", "row", " vs", "compared", " than", "instead"};
	static const char *const a2a[] = {"dispatcher: alltoall", "dispatcher alltoall",
		"alltoall dispatcher", "all-to-all dispatcher", "dispatcher-type alltoall",
		"dispatcher_type=alltoall", "dispatcher_type: alltoall"};
	bool nccl = false;
	for (size_t i = 0; i < sizeof a2a / sizeof a2a[0]; i++)
		nccl = nccl || val__affirmed(o, a2a[i]);
	bool nvswitch = s->cluster.intra.kind == INTRA_NVSWITCH;   /* DeepEP needs NVLink */
	for (size_t i = 0; i < sizeof deepep / sizeof deepep[0] && t->ep > 1 && !nccl && nvswitch; i++)
		for (const char *p = val__find(o, deepep[i]); p; p = val__find(p + 1, deepep[i])) {
			char clause[160];
			val__clause_around(o, p, strlen(deepep[i]), clause, sizeof clause);
			bool other = false;
			for (size_t k = 0; k < sizeof aside / sizeof aside[0]; k++)
				other = other || val__has(clause, aside[k]);
			if (!other && val__affirmed(clause, deepep[i]))
				t->ep_dispatcher = EP_DISPATCH_DEEPEP;
		}
	/* Megatron-core's rank order tp-cp-ep-dp-pp: DP (and EP) inside PP */
	t->placement = PLACE_TP_DP_PP;
	int dp = t->dp > 0 ? t->dp : 1, cp = t->cp > 1 ? t->cp : 1;
	long across = (long)dp * cp * (t->expert_tp == 1 ? t->tp : 1);
	if (dp * cp == 1 && across % t->ep == 0 && across / t->ep > 1) {
		snprintf(why, n, "EP %d with dp 1 leaves copies of each expert on the TP ranks, whose "
		         "gradient reduction is not simulated without data parallelism", t->ep);
		return -1;
	}
	if (s->model.experts % t->ep || across % t->ep) {
		snprintf(why, n, "EP %d must divide the %d experts and the %ld ranks it is drawn from",
		         t->ep, s->model.experts, across);
		return -1;
	}
	return 0;
}
