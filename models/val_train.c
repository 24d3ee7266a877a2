/* val_train.c: a row's training layout as the run had it: the parallel sizes
 * and batch from its columns, precision, recomputation, ZeRO, sequence and
 * context parallelism, schedule and overlaps from its text, and what it
 * leaves open inferred as the framework it names (or today's Megatron) would
 * run it (docs/validation.md, "From a row to a scenario"). */
#include <ctype.h>
#include <strings.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "step.h"
#include "val_int.h"
#include "workload.h"

/* What the recompute column says: true with *rc set, false when it says
 * nothing ("", "N/A", "-", "?", "unknown"): the row is then read as if the
 * cell were empty; a word this reader does not know is full recomputation. A yes/no column ("no",
 * "false", "off", "0" / "yes", "true", "on", "1"); "selective" or "partial";
 * a recomputation or checkpointing word, negated ("no activation
 * checkpointing", "disabled", "AC off", "w/o") or not ("full",
 * "checkpoint-activations"). */
static bool says_nothing(const char *t)
{
	static const char *const none[] = {"", "n/a", "na", "-", "\xe2\x80\x94", "\xe2\x80\x93",
		"?", "unknown", "not stated", "not reported", "unspecified", "tbd"};
	char cell[64];
	size_t n = strlen(t);
	while (n > 0 && strchr(" .", t[n - 1]))
		n--;
	while (*t == ' ')
		t++, n = n > 0 ? n - 1 : 0;
	snprintf(cell, sizeof cell, "%.*s", (int)n, t);
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
		if (!strcasecmp(cell, none[i]))
			return true;
	return false;
}

/* A cell whose first phrase says nothing ("not stated (vs fp16 in the
 * baseline)", "unknown; ..."): the remark after it is not the run's. */
static bool leads_with_nothing(const char *t)
{
	static const char *const opens[] = {"not stated ", "not reported ", "not given ",
		"unknown ", "unspecified "};
	/* what makes the rest a remark on something else: another document's
	 * part not read, a comparison, another run */
	static const char *const elsewhere[] = {"not read", "appendix", " vs", "versus",
		"baseline", "compared", "other run", "others"};
	char lead[256];
	snprintf(lead, sizeof lead, "%.*s", (int)strcspn(t, "(,;"), t);
	if (*lead && says_nothing(lead))
		return true;
	/* "not stated in the notes read (the report has an FP8 appendix not
	 * read here)": the phrase, then where, and a rest about something else;
	 * "not stated in the paper; the config uses FP8" keeps its answer */
	for (size_t i = 0; i < sizeof opens / sizeof opens[0]; i++)
		if (!strncasecmp(lead, opens[i], strlen(opens[i]))) {
			for (size_t k = 0; k < sizeof elsewhere / sizeof elsewhere[0]; k++)
				if (val__has(t, elsewhere[k]))
					return true;
			return false;
		}
	return false;
}

static bool recompute_cell(const char *t, scn_recompute *rc)
{
	static const char *const no[] = {"no", "false", "off", "0", "n", "none", "disabled",
		"not used", "w/o", "without", "\xe2\x9c\x97" /* a cross mark */};
	static const char *const yes[] = {"yes", "true", "on", "1", "y", "enabled", "\xe2\x9c\x93",
		"\xe2\x9c\x94"};
	static const char *const words[] = {"recompute", "recomputation", "checkpoint", "AC",
		"remat"};
	char cell[128];
	size_t n = strlen(t);
	while (n > 0 && strchr(" .", t[n - 1]))   /* "No." */
		n--;
	snprintf(cell, sizeof cell, "%.*s", (int)n, t);
	if (says_nothing(cell) || leads_with_nothing(cell))   /* "not stated" is not a negation */
		return false;
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		if (!strcasecmp(cell, no[i])) {
			*rc = RECOMPUTE_NONE;
			return true;
		}
	/* a cell that opens with its answer: "full (without recompute it ran
	 * out of memory)" */
	if (!strncasecmp(cell, "full", 4) && !isalpha((unsigned char)cell[4])) {
		*rc = RECOMPUTE_FULL;
		return true;
	}
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		if (!strcasecmp(cell, yes[i])) {
			*rc = RECOMPUTE_FULL;
			return true;
		}
	/* MaxText's remat policies that save a few named tensors (the QKV or
	 * out projections) and recompute the rest of the layer, its MLP
	 * included: nearer full recomputation than Megatron's selective, which
	 * recomputes the attention core alone, whatever the cell calls them */
	if (val__has(cell, "save_qkv_proj") || val__has(cell, "save_out_proj") ||
	    val__has(cell, "qkv_proj_offloaded")) {
		*rc = RECOMPUTE_FULL;
		return true;
	}
	/* Megatron's --recompute-activations is selective (arguments.py) */
	if (val__affirmed(cell, "selective") || val__affirmed(cell, "partial") ||
	    val__affirmed(cell, "recompute-activations") ||
	    val__affirmed(cell, "recompute_activations")) {
		*rc = RECOMPUTE_SELECTIVE;
		return true;
	}
	/* a cell that starts with its negation: "no activation checkpointing" */
	static const char *const lead[] = {"no ", "not ", "without ", "w/o "};
	for (size_t i = 0; i < sizeof lead / sizeof lead[0]; i++)
		if (!strncasecmp(cell, lead[i], strlen(lead[i]))) {
			*rc = RECOMPUTE_NONE;
			return true;
		}
	if (val__has(cell, "no recompute") || val__has(cell, "none") || val__has(cell, "only") ||
	    val__has(cell, "baseline") || val__has_token(cell, "disabled") ||
	    val__has_token(cell, "off")) {
		*rc = RECOMPUTE_NONE;
		return true;
	}
	bool named = false, affirmed = false;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		bool w = i == 3 ? val__has_word(cell, words[i]) : val__has(cell, words[i]);
		named |= w;
		affirmed |= w && (i == 3 ? val__affirmed_word(cell, words[i])
		                         : val__affirmed(cell, words[i]));
	}
	if (named && !affirmed) {
		*rc = RECOMPUTE_NONE;
		return true;
	}
	if (affirmed || val__has(cell, "full")) {
		*rc = RECOMPUTE_FULL;
		return true;
	}
	/* any other word ("enabled", "uniform", "block, 10 layers") says some
	 * recomputation: full, as before; only a cell that says nothing is empty */
	if (!says_nothing(cell)) {
		*rc = RECOMPUTE_FULL;
		return true;
	}
	return false;
}

/* The recompute column's reading; an empty or unknown cell is full
 * recomputation (Megatron's 2019-21 fp16 scripts checkpoint activations; bf16
 * and fp8 rows take fit_memory's choice instead), marked assumed. */
static scn_recompute recompute_of(const char *t, bool *assumed)
{
	scn_recompute rc;
	if (recompute_cell(t, &rc))
		return rc;
	*assumed = true;
	return RECOMPUTE_FULL;
}

/* Full recomputation of only some layers: Megatron's "--recompute-num-layers
 * N" with the block method (the first N of each chunk; with "uniform" it is
 * the checkpoint granularity and every layer is recomputed, with selective
 * granularity Megatron ignores it), or torchtitan's "selective layer"
 * checkpointing (every other layer: half of them, -2 here), in the recompute
 * column or other_parallel. torchtitan's "selective op" checkpointing is
 * taken as the same: its policy keeps every compute op's output "except
 * every second mm" and recomputes those and the pointwise ops (models/llama/
 * parallelize_llama.py), not Megatron's attention core, and its own A100
 * tables (docs/performance.md) time the two within 3% of each other
 * (2904 / 2973 and 1914 / 1904 tokens/s/GPU). A share of the model's
 * layers ("40 of 80 layers") is that share of each chunk. Returns a count,
 * or minus the share of each chunk (-0.5: half), 0 when neither. */
static double recompute_layers_of(const val_row *r)
{
	static const char *const keys[] = {"recompute-num-layers", "recompute_num_layers",
		"recompute num layers"};
	const char *texts[] = {r->recompute, r->other};
	for (size_t i = 0; i < 2; i++)
		if (val__has(texts[i], "uniform") || val__has(texts[i], "granularity selective") ||
		    val__has(texts[i], "granularity=selective"))
			return 0;
	/* "40 of 80 layers" */
	for (const char *p = val__find(r->recompute, " of "); p; p = val__find(p + 1, " of ")) {
		int a = val__number_before(r->recompute, p, false);
		char *e;
		long b = strtol(p + 4, &e, 10);
		while (*e == ' ')
			e++;
		if (a > 0 && b > a && !strncasecmp(e, "layer", 5))
			return -(double)a / (double)b;
	}
	/* the recompute column's "full, block, 4 layers" (method block, N layers) */
	const char *lay = val__find(r->recompute, " layer");
	if (val__has(r->recompute, "block") && lay) {
		int n = val__number_before(r->recompute, lay, false);
		if (n > 0)
			return n;
	}
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		for (size_t i = 0; i < 2; i++) {
			const char *p = val__find(texts[i], keys[k]);
			if (!p)
				continue;
			p += strlen(keys[k]);
			while (*p == ' ' || *p == '=' || *p == ':')
				p++;
			if (isdigit((unsigned char)*p) && atoi(p) > 0)
				return atoi(p);
		}
	/* in the recompute column: torchtitan's option as written; in the
	 * free text only as checkpointing ("op SAC", "selective op
	 * checkpointing"), never "SWA on every other layer" */
	static const char *const column[] = {"selective layer", "selective (layer",
		"every other layer", "selective op", "selective (op", "layer SAC", "op SAC"};
	static const char *const text[] = {"layer SAC", "op SAC", "op-level SAC",
		"layer-level SAC", "selective op checkpoint", "selective layer checkpoint",
		"selective op activation checkpoint", "selective layer activation checkpoint",
		"selective AC (op", "selective AC (layer", "op-level selective AC",
		"layer-level selective AC", "selective_ac_option"};
	for (size_t k = 0; k < sizeof column / sizeof column[0]; k++)
		if (val__affirmed_word(r->recompute, column[k]))
			return -0.5;
	/* "selective recomputation (layer)", "selective checkpointing (op)";
	 * not Megatron's "(operator-level, core attention)" */
	static const char *const modes[] = {"(layer)", "(layer,", "(op)", "(op,"};
	for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++)
		if (val__affirmed(r->recompute, "selective") && val__has(r->recompute, modes[k]))
			return -0.5;
	bool column_open = !*r->recompute || val__has(r->recompute, "selective");
	for (size_t k = 0; k < sizeof text / sizeof text[0] && column_open; k++)
		if (val__affirmed_word(r->other, text[k]))
			return -0.5;
	return 0;
}

/* Recomputation said in free text (other_parallel) when the recompute
 * column is empty: "selective recompute", "activation checkpointing",
 * "--recompute-granularity full", "no activation recomputation". Precise
 * phrases only: "full shard" (FSDP) or a disk checkpoint say nothing.
 * Returns whether the text says anything, with the choice in *rc. */
/* torchtitan's activation_checkpoint.mode (and a config's ac_mode, "AC
 * mode"): full, selective or none as a whole word (not "full_shard"); not a
 * bare "mode=", another feature's (torch.compile's, CUDA graphs'); -1 when
 * not said. */
static int ac_mode_of(const char *o)
{
	static const char *const keys[] = {"activation_checkpoint.mode", "activation_checkpoint mode",
		"ac_mode", "AC mode", "checkpointing mode"};
	static const struct { const char *w; scn_recompute rc; } modes[] = {
		{"full", RECOMPUTE_FULL}, {"selective", RECOMPUTE_SELECTIVE}, {"none", RECOMPUTE_NONE}};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		for (const char *p = val__find(o, keys[k]); p; p = val__find(p + 1, keys[k])) {
			const char *q = p + strlen(keys[k]);
			while (*q == ' ' || *q == '=' || *q == ':' || *q == '\'')
				q++;
			for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
				size_t n = strlen(modes[m].w);
				if (!strncasecmp(q, modes[m].w, n) && !isalnum((unsigned char)q[n]) &&
				    q[n] != '_')
					return (int)modes[m].rc;
			}
		}
	return -1;
}

static bool recompute_in_text(const char *o, scn_recompute *rc)
{
	int mode = ac_mode_of(o);
	if (mode >= 0) {
		*rc = (scn_recompute)mode;
		return true;
	}
	static const char *const sel[] = {"selective recompute", "selective activation",
		"selective checkpoint", "granularity selective", "granularity=selective",
		"selective AC", "AC: selective", "AC=selective", "AC selective",
		"checkpointing: selective", "checkpointing=selective", "mode=selective",
		"mode: selective", "recompute: selective", "recompute=selective",
		"recomputation: selective",
		/* Megatron's --recompute-activations sets recompute_granularity
		 * 'selective' (arguments.py) */
		"recompute-activations", "recompute_activations"};
	static const char *const full_first[] = {"full recomputation", "full recompute",
		"recompute: full", "recompute=full", "recompute full", "recomputation: full",
		"AC=full", "AC: full", "full AC", "checkpointing: full", "checkpoint_method=uniform",
		"checkpoint_method: uniform", "mode: full",
		/* MaxText's remat policies that recompute all but a few tensors */
		"save_qkv_proj", "save_out_proj", "qkv_proj_offloaded"};
	static const char *const full[] = {"full recompute", "full activation recomputation",
		"activation checkpointing", "activation recomputation", "activation recompute",
		"gradient checkpointing", "gradient_checkpointing", "activation_checkpointing",
		"checkpoint-activations", "checkpoint_activations",
		"granularity full", "granularity=full"};
	for (size_t i = 0; i < sizeof sel / sizeof sel[0]; i++)
		if (val__affirmed(o, sel[i])) {
			*rc = RECOMPUTE_SELECTIVE;
			return true;
		}
	for (size_t i = 0; i < sizeof full_first / sizeof full_first[0]; i++)
		if (val__affirmed(o, full_first[i])) {
			*rc = RECOMPUTE_FULL;
			return true;
		}
	/* "no AC", "AC off", "AC: none" */
	if (val__has_word(o, "AC") && !val__affirmed_word(o, "AC")) {
		*rc = RECOMPUTE_NONE;
		return true;
	}
	bool negated = false;
	for (size_t i = 0; i < sizeof full / sizeof full[0]; i++) {
		if (val__affirmed(o, full[i])) {
			*rc = RECOMPUTE_FULL;
			return true;
		}
		negated |= val__has(o, full[i]);
	}
	if (negated || val__has(o, "no recompute") || val__has(o, "without recomputation")) {
		*rc = RECOMPUTE_NONE;
		return true;
	}
	return false;
}

/* The row's precision: fp8 when it says fp8 at all ("FP8 (BF16 master
 * weights)", "BF16 with FP8 GEMMs": the GEMMs set the pace), else bf16
 * ("bfloat16"; "fp16/bf16" is bf16), fp16 ("float16", "half"), tf32, fp32
 * ("float32"); bf16 when it names none, or says only "mixed"/"AMP", and fp16
 * then on a GPU without bf16 (V100, T4: their mixed precision is fp16 with
 * loss scaling). Formats the catalog has no peak for (fp4, NVFP4, MXFP4, int8)
 * return -1. */
/* A precision stated in other_parallel when the precision column is empty:
 * a DeepSpeed config's "fp16": {"enabled": true} (its quotes dropped: fp16:
 * {enabled: true}; false says nothing), Transformer Engine's "--fp8-format
 * hybrid", "fp8_format: e4m3", torchtitan's Float8 converters, "FP8",
 * "MXFP8", "--fp16", "fp16" as words not negated. fp8 before fp16 ("fp8 with
 * fp16 master weights"); -1 when it says none of these (the run is then
 * bf16, as with no precision at all). */
/* A precision word said of the run's compute: a whole token in a clause
 * (between commas, semicolons and brackets) that neither negates it ("not
 * enabled", "no", "disabled"), compares with it ("would", "vs", "compared",
 * "against", "baseline", "peak") nor gives another dtype ("fp16 all-reduce",
 * "fp8 gradients", "communication"). */
static bool said_of_run(const char *o, const char *word)
{
	static const char *const other[] = {"would", " vs", "versus", "compar", "against",
		"baseline", "peak", "reduce", "gradient", "comm", "all-gather", "allgather",
		"not enabled", "disabled", "instead", "than", "cache", "optimizer", "weights only",
		"not used", "was not", "were not", "unused", "n't", "another", "other run",
		"other table", "later", "next row", "next table", "separately", "inference",
		"export", "attempted", "faster", "slower"};
	size_t n = strlen(word);
	for (const char *p = val__find(o, word); p; p = val__find(p + 1, word)) {
		if ((p > o && isalnum((unsigned char)p[-1])) || isalnum((unsigned char)p[n]))
			continue;
		char clause[160];
		val__clause_around(o, p, n, clause, sizeof clause);
		bool side = !val__affirmed(clause, word);
		for (size_t i = 0; i < sizeof other / sizeof other[0] && !side; i++)
			side = val__has(clause, other[i]);
		if (!side)
			return true;
	}
	return false;
}

/* Whether the word before a key names a tensor other than the run's compute
 * ("grad reduce dtype", "accumulation precision", "params dtype", "wgrad
 * precision"). */
static bool tensor_word_before(const char *o, const char *key)
{
	static const char *const tensors[] = {"grad", "gradient", "gradients", "reduce",
		"reduction", "accumulation", "accum", "wgrad", "dgrad", "param", "params",
		"parameter", "parameters", "optimizer", "master", "weight", "weights", "comm",
		"communication", "state", "states", "cache", "kv", "main", "logits", "softmax", "sync",
		"storage", "checkpoint"};
	const char *e = key;
	while (e > o && (e[-1] == ' ' || e[-1] == '_' || e[-1] == '-'))
		e--;
	const char *b = e;
	while (b > o && isalpha((unsigned char)b[-1]))
		b--;
	for (size_t i = 0; i < sizeof tensors / sizeof tensors[0]; i++)
		if ((size_t)(e - b) == strlen(tensors[i]) && !strncasecmp(b, tensors[i], e - b))
			return true;
	return false;
}

/* A precision given as a key's value ("precision bf16", "precision: fp8",
 * "dtype=bfloat16", "mixed precision (bf16)"): it outweighs a format named
 * elsewhere in the text ("(e.g. FP8 128 GPUs 5.92 s); precision bf16");
 * -1 when there is none. */
static int precision_keyed(const char *o)
{
	static const char *const keys[] = {"precision", "dtype"};
	static const struct { const char *w; hw_precision p; } words[] = {
		{"fp4", PREC_FP4}, {"nvfp4", PREC_FP4}, {"mxfp4", PREC_FP4},
		{"fp8", PREC_FP8}, {"bf16", PREC_BF16}, {"bfloat16", PREC_BF16},
		{"fp16", PREC_FP16}, {"float16", PREC_FP16}, {"tf32", PREC_TF32},
		{"fp32", PREC_FP32}, {"float32", PREC_FP32}};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		for (const char *p = val__find(o, keys[k]); p; p = val__find(p + 1, keys[k])) {
			const char *q = p + strlen(keys[k]);
			/* not another tensor's ("grad_sync_dtype bf16") */
			if (isalnum((unsigned char)*q) || *q == '_' ||
			    (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-')))
				continue;
			if (tensor_word_before(o, p))
				continue;   /* "grad reduce dtype fp32", "wgrad precision: bf16" */
			while (*q == ' ' || *q == ':' || *q == '=' || *q == '(' || *q == '\'' ||
			       *q == '"')
				q++;
			for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
				size_t n = strlen(words[i].w);
				if (strncasecmp(q, words[i].w, n) || isalnum((unsigned char)q[n]))
					continue;
				/* "dtype=fp32 for the optimizer": another tensor's */
				char tail[64];
				snprintf(tail, sizeof tail, "%.*s", (int)strcspn(q + n, ",;)"), q + n);
				if (val__has(tail, "for "))
					break;
				/* "precision: bf16 with FP8 GEMMs", "bf16 (FP8 GEMMs via
				 * Transformer Engine)": the GEMMs set the pace; a bracket
				 * that does not speak of them is another run's ("bf16 (fp8
				 * in a later table)") */
				char rest[160];
				size_t len = strcspn(q, ";");
				snprintf(rest, sizeof rest, "%.*s", (int)(len < sizeof rest ? len : sizeof rest - 1), q);
				char *br = strchr(rest, '(');
				if (br && !val__has(br, "GEMM") && !val__has(br, "matmul") &&
				    !val__has(br, "linear"))
					*br = '\0';
				bool fp4 = said_of_run(rest, "fp4") || said_of_run(rest, "nvfp4") ||
				           said_of_run(rest, "mxfp4");
				return fp4 ? PREC_FP4
				     : said_of_run(rest, "fp8") && words[i].p != PREC_FP4 ? PREC_FP8
				     : (int)words[i].p;
			}
		}
	return -1;
}

static int precision_in_text(const char *o)
{
	int keyed = precision_keyed(o);
	if (keyed >= 0)
		return keyed;
	static const struct { const char *w; hw_precision p; } json[] = {
		{"fp8", PREC_FP8}, {"bf16", PREC_BF16}, {"fp16", PREC_FP16}};
	for (size_t i = 0; i < sizeof json / sizeof json[0]; i++)
		for (const char *p = val__find(o, json[i].w); p; p = val__find(p + 1, json[i].w)) {
			const char *q = p + strlen(json[i].w);
			while (*q == ' ' || *q == ':' || *q == '{')
				q++;
			if (!strncasecmp(q, "enabled", 7)) {
				q += 7;
				while (*q == ' ' || *q == ':' || *q == '=')
					q++;
				if (!strncasecmp(q, "true", 4))
					return (int)json[i].p;
			}
		}
	if (val__has(o, "fp8-format") || val__has(o, "fp8_format") || val__has(o, "fp8_recipe") ||
	    val__has(o, "fp8 recipe"))
		return PREC_FP8;
	/* fp4 before fp8: an NVFP4 recipe keeps fp8 beside it ("fp4 with fp8
	 * attention") */
	if (said_of_run(o, "FP4") || said_of_run(o, "NVFP4") || said_of_run(o, "MXFP4") ||
	    said_of_run(o, "e2m1"))
		return PREC_FP4;
	if (said_of_run(o, "FP8") || said_of_run(o, "Float8") || said_of_run(o, "MXFP8"))
		return PREC_FP8;
	if (val__has(o, "--fp16") || (said_of_run(o, "fp16") && !val__affirmed(o, "bf16")))
		return PREC_FP16;
	return -1;
}

static int precision_of(const char *t, const hw_gpu *g, bool *assumed)
{
	if (leads_with_nothing(t))
		t = "";
	if (val__has_token(t, "int8") || val__has_token(t, "int4") || val__has(t, "W8A8") ||
	    val__has(t, "W4A16") || val__has_token(t, "fp6"))
		return -1;
	/* NVFP4 or MXFP4 GEMMs (Blackwell): fp4 before fp8, which its recipes
	 * keep beside it ("fp4 e2m1 with fp8 attention") */
	if (said_of_run(t, "fp4") || said_of_run(t, "nvfp4") || said_of_run(t, "mxfp4") ||
	    said_of_run(t, "e2m1"))
		return PREC_FP4;
	/* Apex AMP O1/O2 is fp16 only; "full precision" is fp32 */
	if (val__has(t, "Apex") || val__has_token(t, "O2") || val__has_token(t, "O1"))
		return PREC_FP16;
	if (val__has(t, "full precision") || val__has(t, "single precision"))
		return PREC_FP32;
	/* fp8 said of the run, not compared with ("BF16 (vs FP8 baseline)") */
	if (said_of_run(t, "fp8") || said_of_run(t, "float8") || val__has(t, "e4m3") ||
	    said_of_run(t, "mxfp8") ||
	    (val__has_token(t, "fp8") && val__affirmed(t, "fp8") && !val__affirmed(t, "bf16") &&
	     !val__affirmed(t, "fp16")))
		return PREC_FP8;
	if (val__affirmed(t, "bf16") || val__affirmed(t, "bfloat16"))
		return PREC_BF16;   /* not "FP16 AMP (bf16 not supported)" */
	/* PyTorch Lightning's "16-mixed" is fp16 AMP ("bf16-mixed" is above) */
	if (val__has(t, "fp16") || val__has(t, "float16") || val__has_token(t, "half") ||
	    val__has(t, "16-mixed"))
		return PREC_FP16;
	if (val__has(t, "tf32"))
		return PREC_TF32;
	if (val__has(t, "fp32") || val__has(t, "float32"))
		return PREC_FP32;
	*assumed = true;
	return g->peak_flops[PREC_BF16] > 0 ? PREC_BF16 : PREC_FP16;
}


/* Virtual pipeline stages (model chunks per stage) as publications write
 * them: "interleaved m=3" (Korthikanti), NeMo's "VP 6" column ("VP=6",
 * "VPP 6", "vp6"), "virtual pipeline size 6", "6 virtual stages"; or layers
 * per virtual stage: "interleaved vpp: 5 layers/virtual stage",
 * "--num-layers-per-virtual-pipeline-stage 5". A bare "interleaved": 2. */
static int virtual_stages(const val_row *r, int layers, int pp, bool *assumed)
{
	const char *o = r->other;
	int chunks = 0, per = 0;
	bool per_layers = false;
	static const char *const words[] = {"VPP", "VP", "VP size", "VPP size",
		"virtual pipeline model parallel size", "virtual-pipeline-model-parallel-size",
		"virtual_pipeline_model_parallel_size", "virtual pipeline size",
		"virtual pipeline parallel size", "virtual-pipeline-parallel-size",
		"virtual pipeline parallelism", "virtual pipeline parallel",
		"virtual pipeline model parallelism", "virtual pipeline degree",
		"virtual pipeline stages", "virtual pipeline", "virtual stages", "virtual_stages"};
	for (size_t i = 0; i < sizeof words / sizeof words[0] && !chunks && !per; i++) {
		int v = val__number_after_word(o, words[i], &per_layers);
		if (v > 0)
			*(per_layers ? &per : &chunks) = v;
	}
	const char *p = val__find(o, "per-virtual-pipeline-stage");
	if (!p)
		p = val__find(o, "per_virtual_pipeline_stage");
	if (!chunks && !per && p)
		per = val__number_after_word(p, p[3] == '-' ? "per-virtual-pipeline-stage"
		                                       : "per_virtual_pipeline_stage", &per_layers);
	p = val__find(o, " virtual stage");
	if (!p)
		p = val__find(o, " virtual pipeline stage");   /* "12 virtual pipeline stages" */
	if (!chunks && !per && p && !val__find(o, "layers/virtual") && !val__find(o, "layers per virtual"))
		chunks = val__number_before(o, p, false);     /* "6 virtual stages" */
	p = val__find(o, " model chunks");
	if (!p)
		p = val__find(o, " chunks per stage");
	if (!p && val__affirmed(o, "interleaved"))
		p = val__find(o, " chunks");   /* "interleaved pipeline with 5 chunks" */
	if (!chunks && !per && p)
		chunks = val__number_before(o, p, false);     /* "5 model chunks per stage" */
	/* "interleaved", not "non-interleaved" nor "not interleaved" */
	if (!chunks && !per && val__affirmed(o, "interleaved") && !val__has(o, "non-interleaved")) {
		p = val__find(o, "m=");
		if (!p || atoi(p + 2) <= 0)
			p = val__find(o, "v=");              /* "interleaved (v=5)" */
		if (p && atoi(p + 2) > 0)
			chunks = atoi(p + 2);
		p = val__find(o, "layer");
		if (!chunks)
			per = p ? val__number_before(o, p, false) : 0;
		if (!chunks && !per) {
			*assumed = true;
			return 2;
		}
	}
	if (per > 0)
		return layers % (pp * per) == 0 ? layers / (pp * per) : (*assumed = true, 2);
	return chunks > 0 ? chunks : 1;
}




/* ZeRO stage named in other_parallel: "ZeRO-1", "ZeRO 3", "ZeRO stage 2",
 * "zero3"; Megatron's distributed optimizer is stage 1; PyTorch FSDP full
 * sharding stage 3, SHARD_GRAD_OP 2. -1 when none is named (0 for an explicit
 * stage 0 or NO_SHARD). */
static int zero_named(const char *o)
{
	for (const char *p = val__find(o, "zero"); p; p = val__find(p + 4, "zero")) {
		const char *q = val__token_tail(o, p, 4);
		/* not a stage compared with or said unused ("ZeRO-3 was not used") */
		if (!q || val__disowned(o, p) || val__said_off(p))
			continue;
		/* "ZeRO (stage 2)", "ZeRO-DP stage 1", "ZeRO++ (stage 3)",
		 * "zero_optimization stage 3": a stage within the clause */
		const char *st = val__find(q, "stage");
		if (strncasecmp(q, "stage", 5) && st && st - q <= 16 && !memchr(q, ',', (size_t)(st - q)) &&
		    !memchr(q, ';', (size_t)(st - q)))
			q = st;
		if (!strncasecmp(q, "stage", 5))
			for (q += 5; *q == '-' || *q == ' ' || *q == '_' || *q == '=' || *q == ':'; q++)
				;
		if (*q >= '0' && *q <= '3' && !isalnum((unsigned char)q[1]))
			return *q - '0';
	}
	/* PaddlePaddle's sharding stages are ZeRO's ("sharding stage2",
	 * "sharding_stage: 1", "--sharding stage3"; PaddleNLP's trainer docs) */
	for (const char *p = val__find(o, "sharding"); p; p = val__find(p + 8, "sharding")) {
		const char *q = p + 8;
		while (*q == ' ' || *q == '_' || *q == ':' || *q == '=' || *q == '"' || *q == '\'')
			q++;
		if (strncasecmp(q, "stage", 5))
			continue;
		for (q += 5; *q == ' ' || *q == '_' || *q == ':' || *q == '=' || *q == '-'; q++)
			;
		if (*q >= '1' && *q <= '3' && !isalnum((unsigned char)q[1]))
			return *q - '0';
	}
	/* a bare "ZeRO" (DeepSpeed's, MT-NLG's "DeepSpeed ZeRO"): its first stage;
	 * in any case as a name ("zero stage" ending its phrase, "zero optimizer",
	 * "zero redundancy"; not "zero bubble", "zero-shot" nor "zero stage
	 * imbalance") */
	static const char *const zero_nouns[] = {" stage,", " stage;", " stage)", " stage ",
		" optimizer", " redundancy"};
	for (const char *p = val__find(o, "zero"); p; p = val__find(p + 4, "zero")) {
		if ((p != o && isalnum((unsigned char)p[-1])) || isalnum((unsigned char)p[4]) ||
		    p[4] == '+')
			continue;
		bool named = !strncmp(p, "ZeRO", 4) && p[4] != '-';
		for (size_t i = 0; i < sizeof zero_nouns / sizeof zero_nouns[0] && !named; i++) {
			size_t k = strlen(zero_nouns[i]);
			named = !strncasecmp(p + 4, zero_nouns[i], k) &&
			        (zero_nouns[i][k - 1] != ' ' || !isalpha((unsigned char)p[4 + k]) ||
			         !strncasecmp(p + 4 + k, "not", 3));   /* "zero stage not stated" */
		}
		named |= !strncasecmp(p + 4, " stage", 6) && !p[10];   /* the text's end */
		char word[8];
		snprintf(word, sizeof word, "%.4s", p);
		if (named && val__affirmed_word(o, word))
			return 1;
	}
	/* torchtitan's dp_shard (its FSDP mesh: -1, the ranks left, or a size
	 * above 1), MaxText's fsdp axes (ici_fsdp_parallelism, dcn_fsdp_...) */
	static const char *const shard_keys[] = {"dp_shard", "data_parallel_shard_degree",
		"fsdp_parallelism"};
	for (size_t i = 0; i < sizeof shard_keys / sizeof shard_keys[0]; i++)
		for (const char *p = val__find(o, shard_keys[i]); p;
		     p = val__find(p + 1, shard_keys[i])) {
			const char *q = p + strlen(shard_keys[i]);
			if (!strncasecmp(q, "_degree", 7))
				q += 7;
			while (*q == ' ' || *q == '=' || *q == ':')
				q++;
			if (!strncmp(q, "-1", 2) || (isdigit((unsigned char)*q) && atoi(q) > 1))
				return 3;
		}
	/* ZeRO++ (qwZ, hpZ, qgZ) is built on ZeRO-3; Colossal-AI's Gemini is its
	 * chunked ZeRO-3 */
	if (val__has(o, "ZeRO++") || val__has(o, "GeminiPlugin") ||
	    (val__has(o, "Colossal") && val__has_word(o, "Gemini")))
		return 3;
	if (val__has(o, "NO_SHARD"))
		return 0;
	if (val__has(o, "SHARD_GRAD_OP"))
		return 2;
	/* HSDP (HYBRID_SHARD) shards within a group and replicates across them;
	 * trainsim shards over all data-parallel ranks (docs/validation.md) */
	/* "Fully Sharded Data Parallel (FSDP) not used": the abbreviation, when
	 * there is one, says whether the words are used */
	bool fully = val__has(o, "FSDP") ? val__affirmed(o, "FSDP") : val__affirmed(o, "fully sharded");
	if (fully || val__has(o, "FULL_SHARD") || val__has(o, "HYBRID_SHARD") ||
	    val__has_word(o, "HSDP") || val__affirmed(o, "hybrid shard"))
		return 3;
	if (val__affirmed(o, "distributed optimizer") || val__affirmed(o, "distributed-optimizer") ||
	    val__affirmed(o, "distributed_optimizer") || val__affirmed(o, "sharded optimizer"))
		return 1;
	return -1;
}

/* The number right after the first of `tags` that starts a word (not
 * "fsdp_shard=8" for "dp_shard="), else 0. */
static double num_after_any(const char *o, const char *const *tags, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(tags[i]);
		for (const char *p = val__find(o, tags[i]); p; p = val__find(p + 1, tags[i]))
			if ((p == o || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
			    isdigit((unsigned char)p[len]))
				return strtod(p + len, NULL);
	}
	return 0;
}

/* LLM Foundry's FSDP mixed precision "PURE" (bf16 gradients reduced in
 * bf16), any case, as a mode or precision's value ("MP Mode PURE",
 * "mixed_precision: PURE"), not the English word ("pure DP 16", "PURE DATA
 * PARALLEL" in a cell written in capitals). */
static bool pure_precision(const char *o)
{
	for (const char *p = val__find(o, "pure"); p; p = val__find(p + 1, "pure")) {
		if ((p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
		    isalnum((unsigned char)p[4]) || p[4] == '_')
			continue;
		const char *from = p - o > 28 ? p - 28 : o;
		char before[32];
		snprintf(before, sizeof before, "%.*s", (int)(p - from), from);
		if (val__has(before, "mode") || val__has(before, "precision") ||
		    val__has(before, "mixed") || val__has_word(before, "MP"))
			return true;
	}
	return false;
}

/* The size of an FSDP mesh axis that a table gives beside its DP axis
 * (JAX-Toolbox's Pax and MaxText tables: "DP 1, FSDP 256", "FSDP=8"): the
 * number right after the word FSDP, 0 if none ("FSDP2" is PyTorch's second
 * FSDP, not a size). */
static int fsdp_axis(const char *o)
{
	for (const char *p = val__find(o, "FSDP"); p; p = val__find(p + 4, "FSDP")) {
		if (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		const char *q = p + 4;
		if (*q == ')')   /* "Fully Sharded Data Parallel (FSDP) 8" */
			q++;
		if (*q != ' ' && *q != '=' && *q != ':')
			continue;
		while (*q == ' ' || *q == '=' || *q == ':')
			q++;
		/* "FSDP group 128", "FSDP degree 16", "FSDP group size 64" */
		static const char *const words[] = {"group", "degree", "size", "axis"};
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
			size_t len = strlen(words[w]);
			if (!strncasecmp(q, words[w], len) && !isalnum((unsigned char)q[len])) {
				q += len;
				while (*q == ' ' || *q == '=' || *q == ':')
					q++;
				w = (size_t)-1;   /* another may follow */
			}
		}
		size_t nd = strspn(q, "0123456789");
		long v = nd >= 1 && nd <= 6 ? strtol(q, NULL, 10) : 0;   /* an axis, not a token count */
		if (v > 1 && !isalpha((unsigned char)q[nd]))
			return (int)v;
	}
	return 0;
}

/* ZeRO sharded in groups that replicate each other (training.zero_group):
 * InternEvo's "zero1=8" (its optimizer states within 8 GPUs), torchtitan's
 * dp_replicate (groups of dp / dp_replicate) or a dp_shard below the DP size
 * (its FSDP mesh is dp_shard x cp),
 * PyTorch FSDP's HSDP / HYBRID_SHARD (within a node) unless the row leaves it
 * open ("FSDP or HSDP"). 0, full sharding, otherwise and where the group would
 * not divide the ranks or the model is a mixture of experts (not modelled). */
static int zero_group_of(const val_row *r, const scenario *s)
{
	static const char *const zero1[] = {"zero1=", "zero1 = ", "zero1=dict(size="};
	static const char *const rep[] = {"dp_replicate=", "dp_replicate ", "dp_replicate: ",
		"dp_replicate_degree=", "data_parallel_replicate_degree=", "replicate degree "};
	static const char *const shard[] = {"dp_shard=", "dp_shard ", "dp_shard: ",
		"dp_shard_degree=", "data_parallel_shard_degree="};
	const char *o = r->other;
	const scn_training *t = &s->training;
	int gdp = t->dp * (t->cp > 0 ? t->cp : 1), g = 0;
	double v;
	if (t->zero < 1 || gdp <= 1 || s->model.experts > 1)
		return 0;
	static const char *const sdeg[] = {"sharding_degree=", "sharding_degree ",
		"sharding_degree: ", "sharding_parallel_degree=", "sharding_parallel_degree ",
		"sharding_parallel_degree: "};
	int fa = fsdp_axis(o);
	if ((v = num_after_any(o, zero1, 3)) > 0 && v < 1e6)
		g = (int)v;
	else if ((v = num_after_any(o, sdeg, 6)) > 0 && v < 1e6)   /* PaddlePaddle's group */
		g = (int)v;
	else if (fa > 1 && r->dp > 1 && (long)r->dp * fa == t->dp)
		g = fa;   /* a DP axis beside the FSDP one replicates its shards */
	else if (val__has(o, "fsdp_parallelism") && (val__has(o, "data_parallelism=") ||
	                                             val__has(o, "data_parallelism ="))) {
		/* MaxText: FSDP over its ici x dcn fsdp axes, the data axes replicate */
		static const char *const ici[] = {"ici_fsdp_parallelism=", "ici_fsdp_parallelism = "};
		static const char *const dcn[] = {"dcn_fsdp_parallelism=", "dcn_fsdp_parallelism = "};
		double a = num_after_any(o, ici, 2), b = num_after_any(o, dcn, 2);
		g = (int)fmin(1e6, (a > 0 ? a : 1) * (b > 0 ? b : 1));
	}
	else if ((v = num_after_any(o, rep, 6)) > 1)
		g = (int)(gdp / v);
	else if ((v = num_after_any(o, shard, 5)) > 0 && v < 1e6)
		g = (int)v * (t->cp > 0 ? t->cp : 1);   /* torchtitan shards over dp_shard x cp */
	else if ((val__affirmed_word(o, "HSDP") || val__affirmed(o, "HYBRID_SHARD") ||
	          val__affirmed(o, "hybrid shard")) && !val__has(o, "or HSDP") &&
	         !val__has(o, "HSDP or") && !val__has(o, "/HSDP") && !val__has(o, "HSDP/") &&
	         !val__has(o, "HSDP was") && !val__has(o, "than HSDP")) {
		/* the data-parallel ranks of a node */
		g = s->cluster.gpus_per_node / ((t->tp > 0 ? t->tp : 1) * (t->pp > 0 ? t->pp : 1));
	}
	return g > 1 && g < gdp && gdp % g == 0 ? g : 0;
}

/* The ZeRO stage a row runs with: the one named, else 0. */
static int zero_of(const char *o)
{
	int z = zero_named(o);
	return z > 0 ? z : 0;
}

/* A bf16 or fp8 row that does not say how it saves memory: the cheapest
 * savings that make the layout fit, as a user of today's Megatron adds them,
 * cumulatively: sequence parallelism (with tp > 1; no extra traffic), the
 * distributed optimizer (ZeRO-1: the same bytes on the wire, the optimizer
 * state sharded), a smaller micro-batch where the row gives none (its
 * sequences accumulated instead: NeMo's and Megatron's long-context recipes
 * run one sequence a micro-batch), selective recomputation
 * (--recompute-activations), full recomputation. Only what the row leaves
 * open is chosen; when nothing fits, all of it. fp16 rows (the 2019-21
 * Megatron: none of these but full recomputation) keep recompute_of's full.
 * Returns whether anything changed. */
static bool fit_memory(scenario *s, bool sp_open, bool zero_open, bool mb_open,
                       bool recompute_open)
{
	scn_training *t = &s->training;
	if (recompute_open)
		t->recompute = RECOMPUTE_NONE;
	int mb0 = t->micro_batch;
	for (int step = 0;; step++) {
		wl_memory m;
		wl_memory_get(s, &m);
		if (m.fits) {
			/* with the recomputation it took, the largest micro-batch
			 * (of those dividing the row's) that still fits */
			for (int mb = mb0; mb > t->micro_batch; mb--) {
				if (mb0 % mb)
					continue;
				int was = t->micro_batch;
				t->micro_batch = mb;
				wl_memory_get(s, &m);
				if (m.fits)
					break;
				t->micro_batch = was;
			}
			return step > 0;
		}
		if (sp_open && !t->sequence_parallel)
			t->sequence_parallel = true;
		else if (zero_open && t->zero < 1)
			t->zero = 1;
		else if (mb_open && t->micro_batch > 1) {
			/* the largest smaller micro-batch that divides it */
			int mb = t->micro_batch / 2;
			while (mb > 1 && t->micro_batch % mb)
				mb--;
			t->micro_batch = mb;
		} else if (recompute_open && t->recompute == RECOMPUTE_NONE)
			t->recompute = RECOMPUTE_SELECTIVE;
		else if (recompute_open && t->recompute == RECOMPUTE_SELECTIVE)
			t->recompute = RECOMPUTE_FULL;
		else
			return step > 0;
	}
}


/* Whether the row says which pipeline schedule it ran: virtual stages (read
 * by virtual_stages), or a schedule by name. */
static bool schedule_named(const val_row *r)
{
	static const char *const words[] = {"interleav", "1F1B", "GPipe", "PipeDream",
		"zero bubble", "zero-bubble", "ZB-", "virtual", "VPP"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (val__has(r->other, words[i]))
			return true;
	return val__has_token(r->other, "VP");   /* "VP 1", "vp 1" */
}

/* Step time of a candidate layout, or a huge one when it does not run. */
static double candidate_time(const scenario *s)
{
	step_opts o = {0};
	step_result res;
	memset(&res, 0, sizeof res);
	char e[200];
	int rc = step_run(s, &o, &res, e, sizeof e);
	double t = rc == 0 && res.step_time_s > 0 ? res.step_time_s : HUGE_VAL;
	step_result_release(&res);
	return t;
}

/* A bf16/fp8 pipeline row that names no schedule and whose 1F1B schedule
 * would leave a quarter of the step or more idle ((p-1)/(m+p-1) >= 1/4, m <=
 * 3(p-1) micro-batches), as a user of today's Megatron runs it: interleaved,
 * with the number of virtual stages that gives the fastest step that fits.
 * No tuned run publishes such a bubble: those that interleave say so or run
 * few micro-batches (Llama 3 405B: 16 per pipeline on 16 stages, its paper's
 * Figure 6 interleaves; Megatron's and NeMo's large recipes set 1 to 5
 * layers per virtual stage), those that do not keep m >= 8p (Megatron's 1T:
 * 512 on 64 stages, bubble 11%). Megatron needs m a multiple of pp and each
 * stage's layers a multiple of v (unequal stages, as Llama 3's, take any v).
 * Each candidate gets the memory savings of fit_memory; 1F1B is kept unless a
 * candidate is faster by more than 0.1%. Returns whether it changed. */
static bool choose_schedule(scenario *s, bool sp_open, bool zero_open, bool rc_open)
{
	scn_training *t = &s->training;
	int p = t->pp, layers = s->model.layers;
	long per = (long)t->micro_batch * t->dp;
	long m = per > 0 ? t->global_batch / per : 0;
	scenario best = *s;
	bool changed = fit_memory(&best, sp_open, zero_open, false, rc_open);
	if (p <= 1 || m < p || m % p || m > 3L * (p - 1) || layers < 2 * p)
		return *s = best, changed;
	double best_t = candidate_time(&best);
	for (int v = 2; v <= layers / p; v++) {
		if (layers % p == 0 && (layers / p) % v)
			continue;
		scenario c = *s;
		c.training.schedule = SCHED_INTERLEAVED;
		c.training.virtual_stages = v;
		fit_memory(&c, sp_open, zero_open, false, rc_open);
		wl_memory mem;
		wl_memory_get(&c, &mem);
		/* a row that fixes its recomputation ran with it: a candidate the
		 * estimate puts within its error over the memory (10 %: layouts of
		 * published runs it puts that far over did run, docs/workload.md)
		 * may have been the one it ran (Llama 3 405B's interleaved 16
		 * stages without recomputation, 3 % over) */
		bool may_fit = !rc_open && mem.capacity > 0 &&
		               mem.total <= (1 + WL_MEMORY_ERROR) * mem.capacity;
		if (!mem.fits && !may_fit)
			continue;
		double tc = candidate_time(&c);
		if (tc < best_t * (1 - 1e-3))
			best = c, best_t = tc, changed = true;
	}
	*s = best;
	return changed;
}

/* Context parallelism named in other_parallel: "CP2", "CP=4", "cp 2",
 * "TP2xCP2", "context parallel 2", "context parallelism 4",
 * "--context-parallel-size 2", "context_parallel_size=2"; 1 when none. */
static int size_in_tuple(const char *o, int slot);
static int tuple_after_sizes(const char *o, int slot);

int val__cp_of(const char *o)
{
	/* "TP/CP/PP/DP = 8/16/16/8", "[TP, CP, PP, DP] = [8, 16, 16, 8]" */
	int t = size_in_tuple(o, 3);
	if (t <= 0)
		t = tuple_after_sizes(o, 3);
	if (t > 0)
		return t;
	/* DeepSpeed-Ulysses' sequence_parallel_size splits the sequence too (an
	 * all-to-all of heads where trainsim's CP exchanges K and V: UNVERIFIED
	 * as the same cost) */
	static const char *const keys[] = {"CP", "context parallel", "context-parallel",
		"context_parallel", "sequence_parallel_size", "sequence-parallel-size",
		"ulysses_degree", "Ulysses degree"};
	static const char *const words[] = {"ism", "-size", "_size", " size", "_degree", " degree",
		"-degree"};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		for (const char *p = val__find(o, keys[k]); p; p = val__find(p + 1, keys[k])) {
			/* "CP" starts a token, or follows the x of "TP2xCP2" */
			if (k == 0 && p > o && isalnum((unsigned char)p[-1]) &&
			    !(tolower((unsigned char)p[-1]) == 'x' && p - o > 1 &&
			      isdigit((unsigned char)p[-2])))
				continue;
			const char *q = p + strlen(keys[k]);
			for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
				if (!strncasecmp(q, words[w], strlen(words[w]))) {
					q += strlen(words[w]);
					break;
				}
			while (*q == '=' || *q == ' ' || *q == ':')
				q++;
			if (!strncasecmp(q, "of ", 3))   /* "context parallelism of 4" */
				q += 3;
			if (!strncasecmp(q, "size ", 5))   /* "context parallel of size 8" */
				q += 5;
			if (isdigit((unsigned char)*q) && atoi(q) > 1 && !isalpha((unsigned char)q[1]))
				return atoi(q);
		}
	/* "sp=8 (XTuner sequence parallel, Ulysses-style)", "Ulysses SP8": a
	 * size given to SP is a Ulysses degree where the text affirms Ulysses
	 * (Megatron's SP, with TP, has no size of its own: "TP=8 SP=8" is not
	 * one), and not a count of something else ("SP: 2048 tokens") */
	if (val__affirmed(o, "Ulysses"))
		for (const char *p = val__find(o, "SP"); p; p = val__find(p + 1, "SP")) {
			if (p > o && isalnum((unsigned char)p[-1]))
				continue;
			const char *q = p + 2;
			while (*q == '=' || *q == ' ' || *q == ':')
				q++;
			if (!isdigit((unsigned char)*q) || atoi(q) < 2)
				continue;
			const char *e = q + strspn(q, "0123456789");
			while (*e == ' ')
				e++;
			if (isalpha((unsigned char)*e) || *e == '.')
				continue;
			char tp[16];
			snprintf(tp, sizeof tp, "TP=%d", atoi(q));
			if (val__has(o, tp) || (snprintf(tp, sizeof tp, "TP%d", atoi(q)), val__has(o, tp)))
				continue;
			return atoi(q);
		}
	return 1;
}

/* The parallel sizes: tp, pp, dp from the columns (one left out is the GPUs
 * over the others; a data-parallel framework without model parallelism has
 * tp = pp = 1), cp from the text; refuses what is not modelled. */
/* A parallel size written in other_parallel, by axis: its words (whole
 * words, any case: "TP8", "TP=8", "tensor parallel 8"), its noun in the
 * papers' "4-way tensor", and its place in "TP/PP/DP = 4/12/8". */
typedef struct axis_words {
	const char *const *words;
	size_t n;
	const char *way;      /* "N-way <way>" */
	const char *abbr;     /* "N-way <abbr>" ("4-way TP") */
	int slot;             /* in "TP/PP/DP = a/b/c" */
} axis_words;

static const char *const tp_names[] = {"MP", "TP", "tensor parallel", "tensor parallelism",
	"tensor parallel size", "tensor parallel degree", "tensor-model-parallel-size",
	"tensor_model_parallel_size", "tensor-parallel", "tp_size", "tensor_parallel_size",
	"tensor_parallel_degree", "TP degree", "TP size", "ici_tensor_parallelism",
	"tensor=dict(size", "tensor=", "tensor model parallel size", "tensor-parallel size",
	"tensor parallel size of", "tensor model parallelism"};
static const char *const pp_names[] = {"PP", "pipeline parallel", "pipeline parallelism",
	"pipeline parallel size", "pipeline parallel degree", "pipeline-model-parallel-size",
	"pipeline_model_parallel_size", "pipeline-parallel", "pp_size", "pipeline_parallel_size",
	"pipeline_parallel_degree", "PP degree", "PP size", "pipe_parallel_size",
	"dcn_pipeline_parallelism",
	"ici_pipeline_parallelism", "pipe-parallel-size", "pipeline=dict(size",
	"pipeline model parallel size", "pipeline-parallel size", "pipeline model parallelism"};
static const char *const dp_names[] = {"DP", "data parallel", "data parallelism",
	"data parallel size", "data parallel degree", "data-parallel", "dp_size",
	"DP degree", "DP size"};
static const axis_words tp_axis = {tp_names, sizeof tp_names / sizeof tp_names[0], "tensor", "TP",
	0};
static const axis_words pp_axis = {pp_names, sizeof pp_names / sizeof pp_names[0], "pipeline",
	"PP", 1};
static const axis_words dp_axis = {dp_names, sizeof dp_names / sizeof dp_names[0], "data", "DP",
	2};

/* "4-way tensor", "12-way pipeline", "8-way data" (Megatron's and BLOOM's
 * papers), "4-way TP": the number before "-way" followed by the word or the
 * axis's abbreviation. */
static int n_way(const char *o, const axis_words *a)
{
	/* after the axis: "tensor parallelism (8-way)" */
	for (const char *p = val__find(o, a->way); p; p = val__find(p + 1, a->way)) {
		const char *par = strchr(p, '(');
		if (!par || par - p > 32 || memchr(p, ',', (size_t)(par - p)) ||
		    memchr(p, ';', (size_t)(par - p)))
			continue;
		char *e;
		long v = strtol(par + 1, &e, 10);
		if (v > 0 && !strncasecmp(e, "-way", 4))
			return (int)v;
	}
	for (const char *p = val__find(o, "-way"); p; p = val__find(p + 1, "-way")) {
		const char *q = p + 4;
		while (*q == ' ')
			q++;
		if (!strncasecmp(q, a->way, strlen(a->way)) ||
		    (!strncmp(q, a->abbr, 2) && !isalnum((unsigned char)q[2])))
			return val__number_before(o, p, false);
	}
	return 0;
}

/* The axis a tuple's name at *q stands for (0 tp, 1 pp, 2 dp; -1 none:
 * "TP", "tensor", "t", "PP", "pipeline", "p", "DP", "data", "d"), ending
 * where an x may join the next ("TPxPPxDP"); *q moves past it. */
static int tuple_axis(const char **q)
{
	static const char *const names[4][3] = {{"tensor", "TP", "t"}, {"pipeline", "PP", "p"},
		{"data", "DP", "d"}, {"context", "CP", "c"}};
	for (int k = 0; k < 3; k++)   /* the longest names first */
		for (int a = 0; a < 4; a++) {
			size_t n = strlen(names[a][k]);
			const char *e = *q + n;
			if (!strncasecmp(*q, names[a][k], n) &&
			    (!isalpha((unsigned char)*e) || *e == 'x' || *e == 'X')) {
				*q = e;
				return a;
			}
		}
	return -1;
}

/* Three different axes at *q joined by / x * or a comma ("TP x PP x DP",
 * "t, p, d"); *q moves past them. */
static int axes_at(const char **q, int ax[4])
{
	int n = 0;
	while (n < 4) {
		int a = tuple_axis(q);
		if (a < 0)
			break;
		for (int i = 0; i < n; i++)
			if (ax[i] == a)
				return 0;   /* an axis twice: no tuple */
		ax[n++] = a;
		while (**q == ' ')
			(*q)++;
		if (n == 4 || !**q || !strchr("/xX*,-", **q))
			break;
		(*q)++;
		while (**q == ' ')
			(*q)++;
	}
	/* two to four axes ("(t, p) = (8, 8)", "[TP, CP, PP, DP] = [8, 16, 16, 8]") */
	return n >= 2 ? n : 0;
}

/* A tuple of axes and one of sizes: "TP/PP/DP = 4/12/8", "TPxPPxDP = 4x4x4",
 * "(TP, PP, DP) = (4, 4, 4)", "(t, p, d) = (4, 4, 4)", "DPxPPxTP: 2x4x8".
 * The size of axis `slot`, 0 when no such tuple. */
static int size_in_tuple(const char *o, int slot)
{
	for (const char *p = o; *p; p++) {
		if (!isalpha((unsigned char)*p) || (p > o && isalnum((unsigned char)p[-1])))
			continue;
		int ax[4];
		const char *q = p;
		int na = axes_at(&q, ax);
		if (!na)
			continue;
		while (*q == ')' || *q == ' ' || *q == '=' || *q == ':' || *q == '(' || *q == ']' ||
		       *q == '[')
			q++;
		int v[4] = {0, 0, 0, 0}, k = 0;
		while (k < na && isdigit((unsigned char)*q)) {
			v[k++] = atoi(q);
			while (isdigit((unsigned char)*q))
				q++;
			while (*q == ' ' || *q == '/' || *q == 'x' || *q == '*' || *q == ',' || *q == '-')
				q++;
		}
		if (k == na)
			for (int i = 0; i < na; i++)
				if (ax[i] == slot)
					return v[i];
	}
	return 0;
}

/* Sizes before their axes: "4x4x4 (TP x PP x DP)", "8/4/2 (TP/PP/DP)". */
static int tuple_after_sizes(const char *o, int slot)
{
	for (const char *p = o; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > o && isalnum((unsigned char)p[-1])))
			continue;
		int v[4], k = 0;
		const char *q = p;
		while (k < 4 && isdigit((unsigned char)*q)) {
			v[k++] = atoi(q);
			while (isdigit((unsigned char)*q))
				q++;
			while (*q == ' ')
				q++;
			if (k < 4 && *q && strchr("/xX*-", *q) && isdigit((unsigned char)q[1 + (q[1] == ' ')]))
				q += 1 + (q[1] == ' ');
			else
				break;
		}
		if (k < 2)
			continue;
		while (*q == ' ' || *q == '(' || *q == '[')
			q++;
		int ax[4];
		if (axes_at(&q, ax) == k)
			for (int i = 0; i < k; i++)
				if (ax[i] == slot)
					return v[i];
	}
	return 0;
}

/* The number after a general word that other axes also use ("pipeline 2",
 * "model parallel: 4"), not when a word before it makes it another axis's
 * ("virtual pipeline 5", "pipeline model parallel size 4"). */
static int number_after_bare(const char *o, const char *word, const char *const *not_after,
                             size_t n_not)
{
	size_t len = strlen(word);
	for (const char *p = val__find(o, word); p; p = val__find(p + 1, word)) {
		if ((p > o && isalnum((unsigned char)p[-1])) || isalpha((unsigned char)p[len]))
			continue;
		bool other = false;
		for (size_t i = 0; i < n_not && !other; i++) {
			size_t k = strlen(not_after[i]);
			other = (size_t)(p - o) >= k + 1 && !strncasecmp(p - k - 1, not_after[i], k);
		}
		if (other)
			continue;
		const char *q = p + len;
		while (*q == ' ' || *q == '=' || *q == ':' || *q == '-')
			q++;
		if (!strncasecmp(q, "of ", 3))   /* "model parallelism of 8" */
			q += 3;
		const char *e = q;
		while (isdigit((unsigned char)*e))
			e++;
		if (e == q || isalpha((unsigned char)*e))   /* not "pipeline 1F1B" */
			continue;
		while (*e == ' ')
			e++;
		/* not "pipeline: 32 micro-batches", "16 in flight", "5 layers" */
		static const char *const counts[] = {"layer", "chunk", "micro", "mb", "in flight",
			"batch", "step"};
		bool count = false;
		for (size_t i = 0; i < sizeof counts / sizeof counts[0] && !count; i++)
			count = !strncasecmp(e, counts[i], strlen(counts[i]));
		if (!count && atoi(q) > 0)
			return atoi(q);
	}
	return 0;
}

/* The size of one axis the text gives; 0 if none. */
static int size_in_text(const char *o, const axis_words *a)
{
	/* a tuple first: "TP-PP-DP: 8-8-16" is not "DP: 8" */
	int v = size_in_tuple(o, a->slot);
	if (v <= 0)
		v = tuple_after_sizes(o, a->slot);
	bool layers;
	for (size_t i = a->n; i-- > 0 && v <= 0;) {   /* the longest phrase first */
		int w = val__number_after_word(o, a->words[i], &layers);
		if (w > 0 && !layers)
			v = w;
	}
	if (v <= 0)
		v = n_way(o, a);
	/* DeepSpeed's "model parallel" (its topology's model axis, the
	 * tensor's; Megatron's old --model-parallel-size), a bare "pipeline" */
	static const char *const not_tp[] = {"pipeline", "virtual", "expert", "pipeline-",
		"pipeline_", "expert-", "expert_"};
	static const char *const not_pp[] = {"virtual", "interleaved", "virtual-", "virtual_"};
	/* "model parallel" is the tensor axis where the text gives the pipeline
	 * apart (DeepSpeed's topology, GPT-NeoX) and the clause does not make it
	 * the product ("model parallel size 16 (tensor x pipeline)", "(8 TP x 2
	 * PP)"): Megatron's papers also call TP x PP the model-parallel size */
	if (v <= 0 && a->slot == 0 && size_in_text(o, &pp_axis) > 0) {
		static const char *const mp[] = {"model parallel size", "model-parallel-size",
			"model_parallel_size", "model parallel degree", "model parallelism",
			"model parallel", "mp_size"};
		for (size_t i = 0; i < sizeof mp / sizeof mp[0] && v <= 0; i++) {
			v = number_after_bare(o, mp[i], not_tp, sizeof not_tp / sizeof not_tp[0]);
			const char *p = v > 0 ? val__find(o, mp[i]) : NULL;
			if (p) {   /* what follows the size: "16 (tensor x pipeline)" */
				const char *q = p + strlen(mp[i]);
				while (*q && !isdigit((unsigned char)*q))
					q++;
				while (isdigit((unsigned char)*q) || *q == ' ')
					q++;
				char clause[96] = "";
				if (*q == '(') {
					size_t len = strcspn(q, ")");
					snprintf(clause, sizeof clause, "%.*s", (int)(len < 95 ? len : 95), q);
				}
				if (val__has(clause, "pipeline") || val__has_word(clause, "PP") ||
				    val__has(clause, " x "))
					v = 0;
			}
		}
	}
	if (v <= 0 && a->slot == 1) {
		static const char *const pipe[] = {"pipeline stages", "pipeline_stages", "pipeline"};
		for (size_t i = 0; i < sizeof pipe / sizeof pipe[0] && v <= 0; i++)
			v = number_after_bare(o, pipe[i], not_pp, sizeof not_pp / sizeof not_pp[0]);
	}
	return v;
}

/* Whether the text offloads to the host: "offload" said and not negated,
 * nor set to none or false in its own entry (DeepSpeed's "offload_optimizer":
 * {"device": "none"}, its quotes dropped). */
static bool offload_said(const char *o)
{
	for (const char *p = val__find(o, "offload"); p; p = val__find(p + 1, "offload")) {
		if (!val__affirmed(p, "offload"))
			continue;
		size_t span = strcspn(p, "},;");
		char entry[64];
		snprintf(entry, sizeof entry, "%.*s", (int)(span < 63 ? span : 63), p);
		if (!val__has_token(entry, "none") && !val__has_token(entry, "false"))
			return val__affirmed(o, "offload");
	}
	return false;
}

/* ColossalAI Gemini's placement policy "cpu", "auto" or "const" keeps
 * parameters in host memory, all or some of them ("placement_policy='auto'",
 * "placement-policy=cpu", or "placement=cpu" beside Gemini's name); "cuda"
 * keeps them on the GPU. */
static bool host_placement_said(const char *o)
{
	bool gemini = val__has(o, "Gemini") || val__has(o, "Colossal");
	for (const char *p = val__find(o, "placement"); p; p = val__find(p + 1, "placement")) {
		const char *q = p + strlen("placement");
		bool policy = !strncasecmp(q, "_policy", 7) || !strncasecmp(q, " policy", 7) ||
		              !strncasecmp(q, "-policy", 7);
		if (policy)
			q += 7;
		else if (!gemini)
			continue;   /* "expert placement=auto", "rank placement: auto" */
		if (!strncasecmp(q, " is ", 4))
			q += 4;
		while (*q == '=' || *q == ' ' || *q == ':' || *q == '\'' || *q == '"')
			q++;
		static const char *const host[] = {"cpu", "auto", "const"};
		for (size_t k = 0; k < 3; k++) {
			size_t len = strlen(host[k]);
			if (!strncasecmp(q, host[k], len) && !isalnum((unsigned char)q[len]))
				return true;
		}
	}
	return false;
}

/* A model-parallel size the text gives as tensor x pipeline without the
 * split (Megatron's papers: "model-parallel size 96 (= tensor x
 * pipeline)", beside PTD-P); 0 when it gives none or gives it as one axis. */
static int mp_product(const char *o)
{
	static const char *const mp[] = {"model-parallel size", "model parallel size",
		"model-parallel-size"};
	for (size_t i = 0; i < sizeof mp / sizeof mp[0]; i++) {
		const char *p = val__find(o, mp[i]);
		if (!p)
			continue;
		const char *q = p + strlen(mp[i]);
		while (*q == ' ' || *q == ':' || *q == '=')
			q++;
		int v = atoi(q);
		while (isdigit((unsigned char)*q) || *q == ' ')
			q++;
		char clause[96] = "";
		if (*q == '(')
			snprintf(clause, sizeof clause, "%.*s", (int)strcspn(q, ")"), q);
		/* the bracket says the product: tensor and pipeline, neither
		 * alone ("tensor only", "no pipeline", "pipeline size is 1") */
		bool product = val__has(clause, "tensor") && val__has(clause, "pipeline") &&
		               !val__has(clause, "only") && !val__has(clause, "no pipeline") &&
		               !val__has(clause, "is 1") && !val__has(clause, "PTD-P");
		if (v > 1 && product)
			return v;
	}
	return 0;
}

static int layout_of(const val_row *r, scenario *s, bool layer_only, bool *assumed, char *why,
                     size_t n)
{
	scn_training *t = &s->training;
	int tp = r->tp, pp = r->pp, dp = r->dp;
	int cp = val__cp_of(r->other);
	/* ZeRO-Offload / -Infinity, FSDP CPU offload: optimizer state or
	 * parameters live in host memory or on NVMe, moved over PCIe every step */
	if ((offload_said(r->other) || host_placement_said(r->other) ||
	     val__has(r->other, "ZeRO-Infinity") || val__has(r->other, "ZeRO Infinity")) &&
	    !val__has(r->other, "no offload")) {
		/* Megatron-core's fine-grained activation offloading keeps some
		 * layers' activations in host memory instead */
		if (val__has(r->other, "activation offload") ||
		    val__has(r->other, "offloading of activations") ||
		    val__has(r->other, "offload activations"))
			snprintf(why, n, "activation offloading to host memory is not modelled: the "
			         "activations would be simulated in GPU memory, their PCIe copies left out");
		else
			snprintf(why, n, "CPU/NVMe offload (ZeRO-Offload, ZeRO-Infinity) is not modelled: "
			         "the optimizer state would be simulated in GPU memory");
		return -1;
	}
	/* sizes the columns leave out, from the text: "TP=8, PP=4", "TP8 PP4",
	 * "tensor parallel 8", "pipeline-model-parallel-size 4", "FSDP + TP 8" */
	if (tp <= 0)
		tp = size_in_text(r->other, &tp_axis);
	if (pp <= 0)
		pp = size_in_text(r->other, &pp_axis);
	if (dp <= 0)
		dp = size_in_text(r->other, &dp_axis);
	/* tensor x pipeline without the split: tensor parallelism fills a node
	 * (its GPUs, halved until they divide the product), the pipeline the
	 * rest, as Megatron lays out its tables */
	int mp = tp <= 0 && pp <= 0 ? mp_product(r->other) : 0;
	if (mp > 1) {
		tp = s->cluster.gpus_per_node > 0 ? s->cluster.gpus_per_node : 1;
		while (tp > 1 && mp % tp)
			tp /= 2;
		pp = mp / tp;
		*assumed = true;
	}
	bool dp_only = zero_of(r->other) > 0 || val__has(r->other, "FSDP") ||
	               val__has(r->other, "DDP") || val__has(r->other, "data parallel") ||
	               val__has_word(r->other, "HSDP");
	int gpus = scn_gpus(s);   /* the cluster's: "8 nodes" counted in GPUs */
	/* one size left out: the GPUs over the others, before a data-parallel
	 * framework's default of tp = pp = 1 fills what is still empty */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (dp_only && tp <= 0)
				tp = 1, *assumed = true;
			if (dp_only && pp <= 0)
				pp = 1, *assumed = true;
		}
		if (!((r->gpus > 0 || gpus > 1) && (tp <= 0) + (pp <= 0) + (dp <= 0) == 1))
			continue;
		long long known = (long long)(tp > 0 ? tp : 1) * (pp > 0 ? pp : 1) * (dp > 0 ? dp : 1) * cp;
		long long left = known > 0 ? gpus / known : 0;
		if (left >= 1 && left * known == gpus) {
			if (tp <= 0)
				tp = (int)left;
			else if (pp <= 0)
				pp = (int)left;
			else
				dp = (int)left;
			*assumed = true;
		}
	}
	if (tp <= 0 || pp <= 0 || dp <= 0) {
		snprintf(why, n, "tp, pp or dp missing");
		return -1;
	}
	/* Megatron counts dp without the CP ranks (tp x cp x pp x dp = GPUs); a
	 * row whose dp already holds them is read the same way */
	if (cp > 1 && (long long)tp * pp * dp == scn_gpus(s) && dp % cp == 0) {
		dp /= cp;
		*assumed = true;
	}
	/* a table's DP and FSDP axes apart (Pax, MaxText): the data-parallel
	 * ranks are their product */
	int fa = fsdp_axis(r->other);
	if (fa > 1 && (long long)tp * cp * pp * dp != scn_gpus(s) &&
	    (long long)tp * cp * pp * dp * fa == scn_gpus(s))
		dp *= fa;
	/* an expert-parallel axis apart from the data-parallel one ("PP4 x DP2
	 * x EP8" on 64 GPUs, as PithTrain and torchtitan lay their meshes): the
	 * dense layers' data-parallel ranks are their product, Megatron's dp
	 * that EP is drawn from */
	int ep = val__ep_in(r->other);
	if (ep > 1 && (long long)tp * cp * pp * dp != scn_gpus(s) &&
	    (long long)tp * cp * pp * dp * ep == scn_gpus(s)) {
		dp *= ep;
		*assumed = true;
	}
	t->tp = tp, t->pp = pp, t->dp = dp, t->cp = cp;
	long long ranks = (long long)tp * cp * pp * dp;
	if (!layer_only && ranks != scn_gpus(s)) {
		snprintf(why, n, "tp x %spp x dp = %lld differs from gpus = %d", cp > 1 ? "cp x " : "",
		         ranks, scn_gpus(s));
		return -1;
	}
	return val__moe_of(r, s, assumed, why, n);
}

/* The global and micro batch: a batch in tokens is sequences of seq_len; a
 * missing micro-batch is global / dp without a pipeline (no accumulation), one
 * sequence with one; a batch within 5% of the layout's multiples runs at the
 * nearest (GPT-NeoX-20B's 1538 on 12 ranks of 4 sequences: it ran 1536). */
/* The number after a key that starts a word, a '_' not being a start
 * ("train_batch_size" is not in "per_device_train_batch_size"); 0 if none. */
int val__key_number(const char *o, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = val__find(o, key); p; p = val__find(p + 1, key)) {
		if (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		const char *q = p + n;
		if (isalnum((unsigned char)*q) || *q == '_')
			continue;
		while (*q == ' ' || *q == '=' || *q == ':')
			q++;
		if (!strncasecmp(q, "of ", 3))   /* "global batch size of 1536" */
			q += 3;
		if (isdigit((unsigned char)*q) && !isalpha((unsigned char)q[strspn(q, "0123456789")])) {
			long v = strtol(q, NULL, 10);   /* not atoi: no wrap past INT_MAX */
			return v > 0 && v <= INT_MAX ? (int)v : 0;
		}
	}
	return 0;
}

static int batch_of(const val_row *r, scenario *s, bool layer_only, bool *assumed,
                    bool *mb_open, char *why, size_t n)
{
	scn_training *t = &s->training;
	int pp = t->pp, dp = t->dp;
	t->global_batch = r->global_batch;
	if (t->global_batch <= 0 && r->batch_tokens > 0 && s->model.seq_len > 0) {
		t->global_batch = (int)llround(r->batch_tokens / s->model.seq_len);
		*assumed = true;
	}
	/* the batch as sequences, also when the row gives it in tokens; with a
	 * gradient accumulation said ("GA=16", "gradient accumulation steps 8",
	 * "grad_accum 4"), that many micro-batches a step */
	t->micro_batch = r->micro_batch;
	/* batch sizes left to other_parallel, as flags and configs write them:
	 * Megatron's "--global-batch-size 1536 --micro-batch-size 1", "GBS 512,
	 * MBS 1", DeepSpeed's train_batch_size (the global one) and
	 * train_micro_batch_size_per_gpu, Hugging Face's
	 * per_device_train_batch_size */
	static const char *const gbs_words[] = {"global-batch-size", "global_batch_size",
		"global batch size", "GBS", "train_batch_size", "global batch", "global_batch",
		"GlobalBatchSize"};
	static const char *const mbs_words[] = {"micro-batch-size", "micro_batch_size",
		"micro batch size", "MBS", "train_micro_batch_size_per_gpu",
		"per_device_train_batch_size", "batch size per GPU", "batch_size_per_gpu",
		"local batch size", "local batch", "local_batch_size", "micro batch", "micro-batch",
		"MicroBatchSize", "per_device_batch_size", "local_batch_size", "training.batch_size",
		"training.local_batch_size", "micro-batch size"};
	/* a batch in tokens in the text ("batch size 8M tokens", "global batch
	 * 4M tokens"): sequences of seq_len */
	static const char *const tok_words[] = {"global batch size", "global batch", "batch size",
		"GBS"};
	for (size_t i = 0; i < sizeof tok_words / sizeof tok_words[0] && t->global_batch <= 0 &&
	     s->model.seq_len > 0; i++)
		for (const char *p = val__find(r->other, tok_words[i]); p && t->global_batch <= 0;
		     p = val__find(p + 1, tok_words[i])) {
			const char *q = p + strlen(tok_words[i]);
			while (*q == ' ' || *q == '=' || *q == ':' || *q == '~')
				q++;
			if (!strncasecmp(q, "of ", 3))   /* "batch size of 4M tokens" */
				q += 3;
			double tok = isdigit((unsigned char)*q) ? val__batch_tokens(q) : 0;
			if (tok > 0) {
				t->global_batch = (int)llround(tok / s->model.seq_len);
				*assumed = true;
			}
		}
	for (size_t i = 0; i < sizeof gbs_words / sizeof gbs_words[0] && t->global_batch <= 0;
	     i++)
		t->global_batch = val__key_number(r->other, gbs_words[i]);
	/* "batch size of 2048 sequences" (a count of sequences is the step's) */
	for (const char *p = val__find(r->other, "batch size"); p && t->global_batch <= 0;
	     p = val__find(p + 1, "batch size")) {
		const char *q = p + 10;
		while (*q == ' ' || *q == '=' || *q == ':')
			q++;
		if (!strncasecmp(q, "of ", 3))
			q += 3;
		const char *e = q;
		while (isdigit((unsigned char)*e) || *e == ',')
			e++;
		while (*e == ' ')
			e++;
		if (e > q && (!strncasecmp(e, "sequences", 9) || !strncasecmp(e, "samples", 7)))
			t->global_batch = atoi(q);
	}
	/* "1 sequence per step", "512 sequences per step" */
	static const char *const per_step[] = {" sequence per step", " sequences per step",
		" samples per step", " sample per step"};
	for (size_t i = 0; i < sizeof per_step / sizeof per_step[0] && t->global_batch <= 0; i++) {
		const char *p = val__find(r->other, per_step[i]);
		if (p)
			t->global_batch = val__number_before(r->other, p, false);
	}
	/* a per-device batch of a framework that accumulates only when told
	 * (Hugging Face's gradient_accumulation_steps defaults to 1; torchtitan's
	 * local batch and MaxText's per-device batch are the step's) */
	static const char *const per_device[] = {"per_device_train_batch_size",
		"per_device_batch_size", "local_batch_size", "training.batch_size",
		"training.local_batch_size", "local batch size", "local batch"};
	bool device_batch = false;
	for (size_t i = 0; i < sizeof mbs_words / sizeof mbs_words[0] && t->micro_batch <= 0;
	     i++) {
		t->micro_batch = val__key_number(r->other, mbs_words[i]);
		for (size_t k = 0; k < sizeof per_device / sizeof per_device[0]; k++)
			device_batch |= t->micro_batch > 0 && !strcmp(mbs_words[i], per_device[k]);
	}
	/* "batch size 4 per GPU", "batch_size=2 (per GPU)" */
	static const char *const bs[] = {"batch size", "batch_size"};
	for (size_t k = 0; k < 2 && t->micro_batch <= 0; k++)
		for (const char *p = val__find(r->other, bs[k]); p && t->micro_batch <= 0;
		     p = val__find(p + 1, bs[k])) {
			const char *q = p + 10;
			while (*q == ' ' || *q == '=' || *q == ':')
				q++;
			const char *e = q;
			while (isdigit((unsigned char)*e))
				e++;
			while (*e == ' ' || *e == '(')
				e++;
			if (e > q && (!strncasecmp(e, "per GPU", 7) || !strncasecmp(e, "per device", 10) ||
			              !strncasecmp(e, "/GPU", 4) || !strncasecmp(e, "per rank", 8))) {
				t->micro_batch = atoi(q);
				device_batch = true;
			}
		}
	/* a batch column said to be per GPU ("'Batch Size' column = per-GPU batch") */
	device_batch |= t->micro_batch > 0 && (val__has(r->other, "per-GPU batch") ||
	                                       val__has(r->other, "per-device batch"));
	static const char *const ga_words[] = {"GA", "grad accum", "grad_accum", "grad-accum",
		"gradient accumulation", "gradient_accumulation_steps", "grad accumulation",
		"gradient accumulation steps", "grad accumulation steps", "accumulation steps",
		"GradAccum"};
	int ga = 0;
	bool layers;
	for (size_t i = sizeof ga_words / sizeof ga_words[0]; i-- > 0 && ga <= 0;)
		ga = val__number_after_word(r->other, ga_words[i], &layers);
	if (ga <= 0 && (val__has(r->other, "no gradient accumulation") ||
	                val__has(r->other, "no grad accum") ||
	                val__has(r->other, "without gradient accumulation")))
		ga = 1;
	if (ga <= 0 && device_batch && t->global_batch <= 0) {
		ga = 1;
		*assumed = true;
	}
	/* a micro-batch and accumulation without the global batch: their product
	 * over the data-parallel replicas */
	if (t->global_batch <= 0 && t->micro_batch > 0 && ga > 0 && dp > 0) {
		long long g = (long long)t->micro_batch * dp * ga;
		if (g > INT_MAX) {
			snprintf(why, n, "micro_batch x dp x accumulation = %lld sequences a step is "
			         "beyond what trainsim simulates", g);
			return -1;
		}
		t->global_batch = (int)g;
		*assumed = true;
	}
	if (t->micro_batch <= 0 && pp == 1 && t->global_batch > 0 && ga > 0 &&
	    t->global_batch % ((long long)dp * ga) == 0) {
		t->micro_batch = (int)(t->global_batch / ((long long)dp * ga));
		*assumed = true;
	} else if (t->micro_batch <= 0 && pp == 1 && t->global_batch > 0) {
		t->micro_batch = t->global_batch / dp > 0 ? t->global_batch / dp : 1;
		*assumed = true;
		*mb_open = t->micro_batch > 1;   /* fit_memory may accumulate instead */
	} else if (t->micro_batch <= 0 && pp > 1 && t->global_batch > 0) {
		/* what Megatron's and NeMo's large-model recipes use (the 1T run,
		 * GPT-3 175B and Llama 3 405B in their papers and tables) */
		t->micro_batch = 1;
		*assumed = true;
	}
	if (layer_only && t->global_batch <= 0 && (long long)t->micro_batch * dp <= INT_MAX)
		t->global_batch = t->micro_batch * dp;
	if (t->global_batch <= 0 || t->micro_batch <= 0) {
		snprintf(why, n, "%s missing", t->global_batch <= 0 ? "global_batch" :
		         "micro_batch (a pipeline run needs it)");
		return -1;
	}
	if ((long long)t->micro_batch * dp > t->global_batch + (long long)t->global_batch / 20 ||
	    (long long)t->micro_batch * dp > INT_MAX) {
		snprintf(why, n, "global_batch %d is smaller than micro_batch x dp = %lld",
		         t->global_batch, (long long)t->micro_batch * dp);
		return -1;
	}
	int per = t->micro_batch * dp;
	if (t->global_batch % per) {
		int k = (int)((double)t->global_batch / per + 0.5);
		if (k < 1 || fabs((double)k * per / t->global_batch - 1) > 0.05) {
			snprintf(why, n, "global_batch %d is not a multiple of micro_batch x dp = %d "
			         "(nor within 5%% of one)", t->global_batch, per);
			return -1;
		}
		t->global_batch = k * per;
		*assumed = true;
	}
	return 0;
}

/* The pipeline schedule the row names (virtual stages: interleaved; GPipe),
 * or its framework's: DeepSpeed's pipeline engine runs its TrainSchedule. */
static void schedule_of(const val_row *r, scenario *s, bool *assumed)
{
	scn_training *t = &s->training;
	bool deepspeed = val__names(r, "DeepSpeed");
	/* virtual stages mean nothing without a pipeline ("interleaved" in a
	 * row whose pp is 1 describes the code, not this run) */
	t->virtual_stages = t->pp > 1 ? virtual_stages(r, s->model.layers, t->pp, assumed) : 1;
	t->schedule = t->virtual_stages > 1 ? SCHED_INTERLEAVED : SCHED_1F1B;
	if (t->pp > 1 && t->virtual_stages == 1 && val__has(r->other, "GPipe"))
		t->schedule = SCHED_GPIPE;
	else if (t->pp > 1 && t->virtual_stages == 1 && deepspeed && !schedule_named(r))
		t->schedule = SCHED_DEEPSPEED;
}

/* torchtitan splits each replica's local batch into the pipeline's
 * micro-batches: in 2024 into experimental.pipeline_parallel_microbatches,
 * by default the pipeline degree (its build_pipeline_schedule:
 * "n_microbatches = pipeline_parallel_microbatches or pp"), since 2025 into
 * micro-batches of parallelism.pipeline_parallel_microbatch_size, 1 by
 * default (the same change named the batch training.local_batch_size). A
 * micro-batch read as the local batch (x dp = the global batch) is that
 * batch, split; a row that names another framework in its own cells, or a
 * micro-batch of its own, is left alone. */
static void torchtitan_microbatches(const val_row *r, scenario *s, bool *assumed)
{
	scn_training *t = &s->training;
	const char *o = r->other;
	if (t->pp < 2 || !(val__has(o, "torchtitan") || val__has(r->id, "torchtitan")) ||
	    (long long)t->micro_batch * t->dp != t->global_batch)
		return;
	int local = t->micro_batch, size = val__key_number(o, "pipeline_parallel_microbatch_size"),
	    count = val__key_number(o, "pipeline_parallel_microbatches");
	const char *split = val__find(o, "split into ");
	if (!count && split) {   /* "local batch 16 split into 16 micro batches" */
		const char *w = split + 11;
		while (isdigit((unsigned char)*w) || *w == ' ')
			w++;
		if (!strncasecmp(w, "micro", 5))
			count = val__key_number(o, "split into");
	}
	if (size > 0 || count > 0) {
		int mb = size > 0 ? size : local % count == 0 ? local / count : 0;
		if (mb > 0 && mb <= local && local % mb == 0)
			t->micro_batch = mb;
		return;
	}
	const char *cfg = val__find(o, "parallelism.");
	if (val__has(o, "local_batch_size") || (cfg && islower((unsigned char)cfg[12]))) {
		t->micro_batch = 1;   /* the 2025 configuration */
		*assumed = true;
		return;
	}
	if (val__has(o, "micro_batch") || val__has(o, "micro-batch") || val__has(o, "micro batch") ||
	    val__has(o, "microbatch") || val__has_word(o, "mbs"))
		return;   /* a micro-batch of the row's own */
	if (local >= t->pp && local % t->pp == 0) {
		t->micro_batch = local / t->pp;
		*assumed = true;
	}
}

/* The number after the first of the names[] found in o, spelled with '-'
 * or '_' and followed by a blank, '=' or ':' ("--decoder-first-pipeline-num-
 * layers 4", "num_layers_in_first_pipeline_stage=4"); 0 if none. */
static int flag_number(const char *o, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (const char *p = val__find(o, names[i]); p; p = val__find(p + 1, names[i])) {
			const char *q = p + strlen(names[i]);
			while (*q == ' ' || *q == '=' || *q == ':')
				q++;
			if (isdigit((unsigned char)*q))
				return atoi(q);
		}
	return 0;
}

/* Whether a flag named `name` (or longer: "account-for-loss" of
 * "--account-for-loss-in-pipeline-split") is set in o: named, not negated in
 * its clause, and not given a false value ("=False", ": false", "0"). */
static bool flag_on(const char *o, const char *name)
{
	for (const char *p = val__find(o, name); p; p = val__find(p + 1, name)) {
		const char *q = p + strlen(name);
		while (isalnum((unsigned char)*q) || *q == '-' || *q == '_')
			q++;   /* the rest of the flag's name */
		while (*q == ' ' || *q == '=' || *q == ':' || *q == '"' || *q == '\'')
			q++;   /* "=False", ": false", " false" */
		if (!strncasecmp(q, "false", 5) || (!strncasecmp(q, "no", 2) && !isalpha((unsigned char)q[2])) ||
		    !strncasecmp(q, "off", 3) || (*q == '0' && !isdigit((unsigned char)q[1])))
			continue;
		char clause[160];
		val__clause_around(o, p, strlen(name), clause, sizeof clause);
		if (val__affirmed(clause, name))
			return true;
	}
	return false;
}

/* How Megatron split the layers over the pipeline's chunks: the first and
 * last stage's counts when the row gives them, the embedding and the loss
 * counted as layers when it says so; and when pp x v is the layer count
 * plus two, which Megatron-core runs only that way (its config refuses a
 * layer count that pp does not divide unless told how, and with the
 * embedding and loss counted each of the layers + 2 places holds one:
 * Qwen3-235B's 94 layers on 32 stages x 3). */
static void split_of(const val_row *r, scenario *s, bool *assumed)
{
	scn_training *t = &s->training;
	const char *o = r->other;
	static const char *const first[] = {"decoder-first-pipeline-num-layers",
		"decoder_first_pipeline_num_layers", "num-layers-in-first-pipeline-stage",
		"num_layers_in_first_pipeline_stage"};
	static const char *const last[] = {"decoder-last-pipeline-num-layers",
		"decoder_last_pipeline_num_layers", "num-layers-in-last-pipeline-stage",
		"num_layers_in_last_pipeline_stage"};
	if (t->pp < 2 || s->model.custom)
		return;
	t->first_stage_layers = flag_number(o, first, sizeof first / sizeof first[0]);
	t->last_stage_layers = flag_number(o, last, sizeof last / sizeof last[0]);
	if (t->first_stage_layers > 0 || t->last_stage_layers > 0)
		return;
	t->embedding_in_split = flag_on(o, "account-for-embedding") ||
	                        flag_on(o, "account_for_embedding");
	t->loss_in_split = flag_on(o, "account-for-loss") || flag_on(o, "account_for_loss");
	int v = t->schedule == SCHED_INTERLEAVED ? t->virtual_stages : 1;
	if (!t->embedding_in_split && !t->loss_in_split && (long)t->pp * v == s->model.layers + 2) {
		t->embedding_in_split = t->loss_in_split = true;
		*assumed = true;
	}
}

/* ZeRO and the two overlaps the row states. PyTorch DDP overlaps bucket
 * all-reduces with the backward; Megatron's local DDP (and its later default)
 * reduces after it, unless told to overlap (--overlap-grad-reduce,
 * "overlapped DP"); --overlap-param-gather needs the distributed optimizer and
 * --overlap-grad-reduce, which the row then implies. NVIDIA NeMo's published
 * runs (its performance recipes on Megatron-core): the distributed optimizer
 * with both collectives overlapped layer by layer (NeMo user guide,
 * "Communication Overlap"), sequence parallelism with tp > 1. fp16 Megatron
 * reduces fp16 gradients; bf16 Megatron fp32 main grads (cost-models 3.3).
 * Returns whether the row negates overlapping. */
static bool overlaps_of(const val_row *r, scenario *s, bool no_sp, bool *assumed)
{
	scn_training *t = &s->training;
	static const char *const dp_overlap[] = {"overlap-grad-reduce", "overlap_grad_reduce",
		"overlap grad", "overlapped DP", "DP overlap", "overlapped gradient",
		"gradient overlap", "overlapped all-reduce", "overlapped allreduce", "overlap_comm"};
	static const char *const pg_overlap[] = {"overlap-param-gather", "overlap_param_gather",
		"param gather overlap", "overlapped param", "param-gather overlap"};
	/* Megatron's --DDP-impl torch, or PyTorch's DDP named */
	bool dp_said = val__has(r->other, "DDP=torch") || val__affirmed(r->other, "PyTorch DDP") ||
	               val__affirmed(r->other, "torch DDP") ||
	               val__has(r->other, "nn.parallel.DistributedDataParallel"),
	     no_overlap = false, pg_said = false;
	for (size_t i = 0; i < sizeof dp_overlap / sizeof dp_overlap[0]; i++) {
		dp_said |= val__affirmed(r->other, dp_overlap[i]);
		no_overlap |= val__has(r->other, dp_overlap[i]) && !val__affirmed(r->other, dp_overlap[i]);
	}
	for (size_t i = 0; i < sizeof pg_overlap / sizeof pg_overlap[0]; i++)
		pg_said |= val__affirmed(r->other, pg_overlap[i]);
	no_overlap |= val__has(r->other, "no overlap") || val__has(r->other, "without overlap") ||
	              val__has(r->other, "non-overlap") || val__has(r->other, "DDP=local");
	t->zero = zero_of(r->other);
	/* FSDP2 under PyTorch's pipelining (torchtitan with PP): torchtitan
	 * turns reshard_after_forward off when PP is on, and
	 * torch.distributed.pipelining turns resharding after backward and the
	 * gradient sync off for every micro-batch's backward but the last
	 * (stage.py, backward_maybe_with_nosync): a stage's parameters are
	 * gathered once a step and its gradients reduce-scattered once, held
	 * whole in between, which is ZeRO-1's traffic and memory */
	if (t->zero >= 3 && t->pp > 1 &&
	    (val__names(r, "torchtitan") || val__has(r->other, "reshard_after_forward=False") ||
	     val__has(r->other, "reshard_after_forward: false")))
		t->zero = 1;
	t->grad_reduce.overlap = dp_said && !no_overlap;
	t->grad_reduce.dtype = t->precision == PREC_FP16 ? PREC_FP16 : PREC_FP32;
	/* gradients reduced in bf16: FSDP's MixedPrecision with reduce_dtype
	 * bf16 (LLM Foundry's "PURE"), "bf16 reduce", Megatron's
	 * --grad-reduce-in-bf16 */
	const char *o = r->other;
	if ((pure_precision(o) || val__affirmed(o, "bf16 reduce") ||
	     val__affirmed(o, "reduce_dtype bf16") || val__affirmed(o, "grad-reduce-in-bf16") ||
	     val__affirmed(o, "bf16 gradient reduction")) && t->precision != PREC_FP32 &&
	    t->precision != PREC_TF32)
		t->grad_reduce.dtype = PREC_BF16;
	/* "no distributed optimizer", "use_distributed_optimizer=False": a
	 * stage said, zero; a parameter gather said off */
	bool dist_off = (val__has(o, "distributed optimizer") || val__has(o, "distributed_optimizer") ||
	                 val__has(o, "distributed-optimizer")) &&
	                !val__affirmed(o, "distributed optimizer") &&
	                !val__affirmed(o, "distributed_optimizer") &&
	                !val__affirmed(o, "distributed-optimizer");
	bool pg_off = false;
	for (size_t i = 0; i < sizeof pg_overlap / sizeof pg_overlap[0]; i++)
		pg_off |= val__has(o, pg_overlap[i]) && !val__affirmed(o, pg_overlap[i]);
	bool named_zero = zero_named(r->other) >= 0 || dist_off;
	if (pg_said && !no_overlap) {
		if (!named_zero)
			t->zero = 1;
		t->grad_reduce.overlap = true;
	}
	/* NeMo, and Megatron-Bridge, NeMo 2's training library on the same
	 * Megatron-core recipes */
	bool nemo = val__names(r, "NeMo") || val__names(r, "Megatron-Bridge") ||
	            val__names(r, "Megatron Bridge");
	if (nemo && !no_overlap) {
		if (!named_zero)
			t->zero = 1;
		t->grad_reduce.overlap = true;
		if (t->tp > 1 && !no_sp)
			t->sequence_parallel = true;
		*assumed = true;
	}
	t->grad_reduce.overlap_param_gather = t->grad_reduce.overlap && !no_overlap && !pg_off &&
	                                      (t->zero == 1 || t->zero == 2) && (nemo || pg_said);
	/* Megatron-core's overlapped buckets hold max(40M, 1M x dp x cp)
	 * parameters ("larger DP sizes need larger buckets to ensure collectives
	 * do not become latency-bound", DistributedDataParallelConfig.bucket_size;
	 * the DP group with context parallelism) */
	bool mcore = nemo || pg_said || val__affirmed(o, "overlap-grad-reduce") ||
	             val__affirmed(o, "overlap_grad_reduce");
	if (mcore && t->grad_reduce.overlap && t->zero < 3)
		t->grad_reduce.bucket_bytes = fmax(40e6, 1e6 * t->dp * t->cp) *
		                              hw_precision_bytes(t->grad_reduce.dtype);
	/* DeepSpeed's ZeRO 1-2 reduce (and gather) 5e8 elements at a time, its
	 * reduce_bucket_size and allgather_bucket_size defaults (DeepSpeed's
	 * configuration docs); ZeRO-3 goes by layers. Only where the row runs
	 * DeepSpeed (said beside the layout, not a passing mention in the
	 * source), with no bucket of its own and not Megatron-core's */
	if (val__affirmed(o, "DeepSpeed") && !mcore && t->zero < 3 &&
	    !val__has(o, "reduce_bucket_size") && !val__has(o, "DeepSpeed-style"))
		t->grad_reduce.bucket_bytes = 5e8 * hw_precision_bytes(t->grad_reduce.dtype);
	/* Megatron's local DDP (2020-21) all-reduces its gradients after the
	 * backward in one call per dtype: the contiguous buffer, or the grads
	 * flattened together (megatron/model/distributed.py, LocalDDP) */
	if (val__has(r->other, "DDP=local"))
		t->grad_reduce.bucket_bytes = 1e13;
	t->zero_group = zero_group_of(r, s);
	/* InternEvo's zero1=1: the optimizer sharded over one rank, i.e. not */
	static const char *const zero1_one[] = {"zero1=", "zero1 = "};
	if (t->zero == 1 && num_after_any(r->other, zero1_one, 2) == 1)
		t->zero = 0;
	return no_overlap;
}

/* Whether the row's attention runs through Transformer Engine (NeMo,
 * Megatron-core and Megatron-Bridge build their layers from it), whose
 * attention on Hopper is cuDNN's fused kernel, not the flash-attn package. */
static bool runs_te(const val_row *r)
{
	static const char *const names[] = {"Transformer Engine", "TransformerEngine", "NeMo",
		"Megatron-core", "Megatron core", "mcore", "Megatron-Bridge", "Megatron Bridge"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (val__names(r, names[i]))
			return true;
	return val__has_word(r->other, "TE");
}

/* Whether the text names a PyTorch of 2.9 or later (cuDNN's SDPA kernels
 * the default on Hopper), or exactly 2.5.0, the one earlier release that
 * defaulted to them: "torch 2.7.0a0", "torch==2.8", "torch>=2.9",
 * "torch-2.9.0", "PyTorch 2.10", "PyTorch version 2.9", "PyTorch nightly
 * 2.9.0.dev"; the newest version named wins. */
static bool torch_cudnn_sdpa(const char *text)
{
	bool cudnn = false;
	for (const char *p = val__find(text, "torch"); p; p = val__find(p + 5, "torch")) {
		const char *q = p + 5;
		while (*q == ' ' || *q == '=' || *q == ':' || *q == '>' || *q == '-')
			q++;
		if (!strncasecmp(q, "version ", 8) || !strncasecmp(q, "nightly ", 8))
			q += 8;
		if (*q == 'v')
			q++;
		if (q[0] != '2' || q[1] != '.' || !isdigit((unsigned char)q[2]))
			continue;
		char *end;
		long minor = strtol(q + 2, &end, 10);
		bool five_zero = minor == 5 && end[0] == '.' && end[1] == '0' &&
		                 !isdigit((unsigned char)end[2]);
		cudnn |= minor >= 9 || five_zero;
	}
	return cudnn;
}

/* PyTorch's scaled_dot_product_attention on Hopper runs FlashAttention-2's
 * kernels: cuDNN's backend, the default in 2.5.0 alone, was made opt-in
 * for 2.5.1 (pytorch/pytorch#138522, "Make CuDNN Attention Opt in") and
 * came back as the default on sm90/sm100 in 2.9 (#162073). Tritonbench on
 * a 2.6 nightly: SDPA 329 TFLOP/s, cuDNN 631 (#142132); torchtitan's users
 * see SDPA dispatch FLASH_ATTENTION on H100 (torchtitan#1042, a 2.7
 * nightly), and torchtitan itself put cuDNN first on Blackwell only, FLASH
 * first elsewhere (torchtitan#1196, May 2025). So a 16-bit row trained
 * through SDPA (torchtitan, or SDPA named) on Hopper, naming no kernel and
 * no PyTorch of 2.9 or later, ran `flash2`. Blackwell keeps cuDNN's
 * (`flash`); fp32 and tf32 runs take SDPA's math path (wl_layer.c). */
static bool sdpa_flash2(const val_row *r, const hw_gpu *g, hw_precision p)
{
	if (g->arch != ARCH_HOPPER || runs_te(r) || p == PREC_FP32 || p == PREC_TF32)
		return false;
	if (!val__names(r, "torchtitan") && !val__has_token(r->other, "SDPA") &&
	    !val__has(r->other, "scaled_dot_product_attention"))
		return false;
	return !torch_cudnn_sdpa(r->source) && !torch_cudnn_sdpa(r->other);
}

/* A FlashAttention-2 named by its package version ("flash-attn==2.4.2",
 * "flash_attn v2.3", "FlashAttention v2", the `gpu-flash2` extra). */
static bool names_fa2_version(const char *o)
{
	static const char *const v2[] = {"flash-attn==2", "flash_attn==2", "flash-attn=2",
		"flash_attn=2", "flash-attn>=2", "flash_attn>=2", "flash-attn v2", "flash_attn v2",
		"flash-attn 2", "flash_attn 2", "FlashAttention v2", "flash2"};
	for (size_t i = 0; i < sizeof v2 / sizeof v2[0]; i++)
		if (val__has(o, v2[i]))
			return true;
	return false;
}

/* A year after LLM Foundry's FlashAttention 1 pin (2024 or later) named in
 * the row: its unversioned "attn_impl flash" is then FlashAttention-2. */
static bool names_2024_or_later(const val_row *r)
{
	const char *fields[] = {r->source, r->other, r->hardware};
	for (size_t f = 0; f < 3; f++)
		for (const char *p = fields[f]; *p; p++)
			if (p[0] == '2' && p[1] == '0' && p[2] == '2' && p[3] >= '4' && p[3] <= '9' &&
			    (p == fields[f] || !isdigit((unsigned char)p[-1])) &&
			    !isdigit((unsigned char)p[4]))
				return true;
	return false;
}

/* The clause of `text` around p: from after the previous ",;()" to the
 * next. */
static void clause_at(const char *text, const char *p, const char **from, const char **to)
{
	const char *f = p, *t = p;
	while (f > text && !strchr(",;()", f[-1]))
		f--;
	while (*t && !strchr(",;()", *t))
		t++;
	*from = f;
	*to = t;
}

/* Whether [from, to) holds `word`, in any case. */
static bool span_has(const char *from, const char *to, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = from; p + n <= to; p++)
		if (!strncasecmp(p, word, n))
			return true;
	return false;
}

/* A name negated just before it, in its clause: "no ", "not ", "without ",
 * "w/o ", "--no-". */
static bool negated_before(const char *text, const char *p)
{
	const char *from = p - text > 12 ? p - 12 : text;
	for (const char *c = p; c > from; c--)
		if (strchr(",;()", c[-1])) {
			from = c;
			break;
		}
	return span_has(from, p, "no ") || span_has(from, p, "not ") ||
	       span_has(from, p, "without ") || span_has(from, p, "w/o ") || span_has(from, p, "no-");
}

/* A setting said off right after its name, which ends at q: ": false",
 * "=False", "=0", ": no", ": none", " off", "disabled" (or val__said_off's
 * words within its window). */
static bool off_after(const char *name, const char *q)
{
	while (*q == ' ' || *q == ':' || *q == '=' || *q == '"' || *q == '\'')
		q++;
	static const char *const off[] = {"false", "no", "none", "0", "off", "disabled"};
	for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
		size_t k = strlen(off[i]);
		if (!strncasecmp(q, off[i], k) && !isalnum((unsigned char)q[k]))
			return true;
	}
	return val__said_off(name);
}

/* The loss named within the three words after "fused" (q just past it):
 * "fused cross entropy", "fused linear cross-entropy", "fused_cross_entropy",
 * "fused CE", a list "fused RMSNorm/rotary/SwiGLU/cross-entropy"; the end of
 * its name, or NULL (not "fused Adam and cross entropy in fp32"). */
static const char *loss_after(const char *q)
{
	while (*q == ' ' || *q == '_' || *q == '-')
		q++;
	const char *end = q;
	for (int w = 0; w < 3; w++) {
		while (*end == ' ')
			end++;
		if (!*end || strchr(",;()", *end))
			break;
		while (*end && *end != ' ' && !strchr(",;()", *end))
			end++;
	}
	static const char *const ce[] = {"cross entropy", "cross-entropy", "cross_entropy",
		"crossentropy", "xentropy"};
	for (size_t i = 0; i < sizeof ce / sizeof ce[0]; i++) {
		size_t n = strlen(ce[i]);
		for (const char *p = q; p + n <= end; p++)
			if (!strncasecmp(p, ce[i], n))
				return p + n;
	}
	for (const char *p = q; p + 2 <= end; p++)
		if (!strncasecmp(p, "CE", 2) && (p == q || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[2]))
			return p + 2;
	return NULL;
}

/* Whether one of `names` is in `o`, not negated before it nor said off
 * after it: 1; named, but each time off: 0; not named: -1. */
static int named_on(const char *o, const char *const *names, size_t n)
{
	int said = -1;
	for (size_t i = 0; i < n; i++)
		for (const char *p = val__find(o, names[i]); p; p = val__find(p + 1, names[i])) {
			if (!negated_before(o, p) && !off_after(p, p + strlen(names[i])))
				return 1;
			said = 0;
		}
	return said;
}

/* A fused loss kernel named on in the row's notes: "fused" with the loss in
 * its next three words (loss_after); Megatron-core's Transformer Engine or
 * linear implementation with its fusion on (--cross-entropy-loss-fusion
 * --cross-entropy-fusion-impl te: the implementation alone does nothing);
 * Liger's loss switches (use_liger_kernel turns them on unless one is said
 * off); a fused classifier; flash-attn's xentropy; Cut Cross-Entropy.
 * Megatron-core's fusion with its default implementation (native:
 * torch.compile'd functions on an fp32 copy, with a backward of their own)
 * stays `unfused`, whose bytes it is near. Only the notes: a source may
 * quote another framework's flags (one page for several runs); llm.c's CUDA
 * trainer, named in the source, always fuses it (its fused_classifier). */
static bool fused_loss(const val_row *r)
{
	const char *o = r->other;
	for (const char *p = val__find(o, "fused"); p; p = val__find(p + 5, "fused")) {
		/* a word of its own: not "unfused", "non-fused", "liger_fused_..." */
		if (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-'))
			continue;
		const char *end = loss_after(p + 5);
		if (end && !negated_before(o, p) && !off_after(p, end))
			return true;
	}
	static const char *const flag[] = {"cross-entropy-loss-fusion", "cross_entropy_loss_fusion"};
	static const char *const impl[] = {"cross-entropy-fusion-impl", "cross_entropy_fusion_impl"};
	if (named_on(o, flag, 2) > 0)
		for (size_t i = 0; i < 2; i++)
			for (const char *p = val__find(o, impl[i]); p; p = val__find(p + 1, impl[i])) {
				const char *q = p + strlen(impl[i]);
				while (*q == ' ' || *q == '=' || *q == ':' || *q == '"' || *q == '\'')
					q++;
				if (negated_before(o, p))
					continue;
				if ((!strncasecmp(q, "te", 2) && !isalnum((unsigned char)q[2])) ||
				    (!strncasecmp(q, "linear", 6) && !isalnum((unsigned char)q[6])))
					return true;
			}
	static const char *const liger_loss[] = {"liger_fused_linear_cross_entropy",
		"liger_cross_entropy"};
	static const char *const liger[] = {"use_liger_kernel", "use_liger"};
	int said = named_on(o, liger_loss, 2);
	if (said > 0 || (said < 0 && named_on(o, liger, 2) > 0))
		return true;
	static const char *const kernels[] = {"fused_classifier", "fused classifier", "xentropy",
		"cut cross-entropy", "cut cross entropy"};
	if (named_on(o, kernels, sizeof kernels / sizeof kernels[0]) > 0)
		return true;
	return val__names(r, "llm.c") &&
	       (val__has(r->source, "train_gpt2cu") || val__has(r->source, "train_gpt2.cu") ||
	        val__has(r->source, "CUDA C"));
}

/* cuDNN named as a library, not as an attention, blanked so that it is not
 * read as cuDNN's fused attention: with a version ("cuDNN 9.1", "cuDNN
 * v8"), or in a clause that says nothing of attention ("cuBLAS/cuDNN"). */
static void blank_cudnn_library(char *buf)
{
	const char *from, *to;
	for (const char *p = val__find(buf, "cudnn"); p; p = val__find(p + 5, "cudnn")) {
		const char *v = p + 5;
		while (*v == ' ' || *v == '-')
			v++;
		if (*v == 'v' || *v == 'V')
			v++;
		clause_at(buf, p, &from, &to);
		if (isdigit((unsigned char)*v) ||
		    (!span_has(from, to, "attention") && !span_has(from, to, "attn") &&
		     !span_has(from, to, "flash")))
			memset(buf + (p - buf), ' ', 5);
	}
}

/* "flash" that names no attention kernel ("data on the flash file system",
 * "NVMe flash storage"), blanked: a kernel's "flash" is followed by
 * attention or attn or a version (FlashAttention, flash-attn, flash_attn,
 * flash2), or follows cuDNN, attn_impl, "attention" or a negation ("no
 * flash"). */
static void blank_other_flash(char *buf)
{
	static const char *const after[] = {"attention", "-attention", "_attention", " attention",
		"attn", "-attn", "_attn", " attn", "1", "2", "3", " 2", " v2", "-2", "_2"};
	static const char *const before[] = {"cudnn_", "cudnn ", "attn_impl", "attn_impl ",
		"attn_impl: ", "attn_impl=", "attention: ", "attention=", "attention ", "no ",
		"without ", "not "};
	for (const char *p = val__find(buf, "flash"); p; p = val__find(p + 5, "flash")) {
		bool kernel = false;
		for (size_t i = 0; i < sizeof after / sizeof after[0] && !kernel; i++)
			kernel = !strncasecmp(p + 5, after[i], strlen(after[i]));
		for (size_t i = 0; i < sizeof before / sizeof before[0] && !kernel; i++) {
			size_t k = strlen(before[i]);
			kernel = (size_t)(p - buf) >= k && !strncasecmp(p - k, before[i], k);
		}
		if (!kernel)
			memset(buf + (p - buf), ' ', 5);
	}
}

/* Whether a text (after the blanking above) names an attention kernel, used
 * or not: FlashAttention in any spelling, cuDNN's, SDPA, attn_impl. */
static bool names_attention(const char *o)
{
	return val__has(o, "flash") || val__has_token(o, "FA1") || val__has_token(o, "FA2") ||
	       val__has_token(o, "FA3") || val__has(o, "cudnn") || val__has_token(o, "SDPA") ||
	       val__has(o, "scaled_dot_product_attention") || val__has(o, "attn_impl");
}

/* The text the attention kernel is read from, in buf (at least as long as
 * the notes): the row's notes, or, when they name no attention kernel, its
 * source. In either, "flash" that is no kernel and cuDNN named as a library
 * are blanked; in the source so is every clause that installs something,
 * cites a paper or a repository, gives a baseline or compares
 * ("flash-attention requirements installed": GPT-NeoX then runs the
 * attention its config names; "FlashAttention vs our naive attention"), and
 * the last clause of a source cut at the field's size. */
static const char *attention_text(const val_row *r, char *buf, size_t n)
{
	snprintf(buf, n, "%s", r->other);
	blank_cudnn_library(buf);
	blank_other_flash(buf);
	if (names_attention(buf))
		return buf;
	char src[sizeof r->source];
	snprintf(src, sizeof src, "%s", r->source);
	static const char *const noise[] = {"install", "requirement", "paper", "repository",
		"github.com", "/flash-attention", "baseline", " vs", "versus", "compar"};
	char *last = src;
	for (char *c = src; *c;) {
		char *to = c + strcspn(c, ",;()");
		bool drop = false;
		for (size_t i = 0; i < sizeof noise / sizeof noise[0]; i++)
			drop |= span_has(c, to, noise[i]);
		for (const char *w = c; !drop && w + 4 <= to; w++)   /* "repo" as a word */
			drop = !strncasecmp(w, "repo", 4) && (w == c || !isalnum((unsigned char)w[-1])) &&
			       (w + 4 == to || !isalnum((unsigned char)w[4]));
		if (drop)
			memset(c, ' ', (size_t)(to - c));
		last = c;
		c = *to ? to + 1 : to;
	}
	if (strlen(r->source) + 1 >= sizeof r->source)
		memset(last, ' ', strlen(last));
	blank_cudnn_library(src);
	blank_other_flash(src);
	if (names_attention(src))
		snprintf(buf, n, "%s", src);
	return buf;
}

int val__training_of(const val_row *r, scenario *s, bool layer_only, bool *assumed, char *why,
                     size_t n)
{
	scn_training *t = &s->training;
	bool mb_open = false;
	if (layout_of(r, s, layer_only, assumed, why, n) < 0 ||
	    batch_of(r, s, layer_only, assumed, &mb_open, why, n) < 0)
		return -1;
	int prec = precision_of(r->precision, &s->cluster.gpu, assumed);
	/* an empty precision column: what the text says */
	if (!*r->precision) {
		int said = precision_in_text(r->other);
		if (said >= 0)
			prec = said;
	}
	if (prec < 0) {
		snprintf(why, n, "precision '%.40s': the catalog has dense peaks for fp32, tf32, fp16, "
		         "bf16, fp8 and fp4 only", r->precision);
		return -1;
	}
	t->precision = (hw_precision)prec;
	/* FlashAttention named in the row ("FlashAttention", "flash-attn",
	 * "attn_impl: flash", "FA2"); unfused when the row says it has none.
	 * Read from the row's settings, or from its source when they name no
	 * attention kernel */
	char atext[sizeof r->other];
	const char *o = attention_text(r, atext, sizeof atext);
	const char *fp = val__find(o, "flash");
	bool off = fp && (val__said_off(fp) || (val__has(o, "flash attention") &&
	                                   !val__affirmed(o, "flash attention")));
	bool flash = fp && !(fp > o && fp[-1] == '-') && val__affirmed(o, "flash");
	flash = (flash && !off) || val__has_token(o, "FA2") || val__has_token(o, "FA3");
	/* FlashAttention-2 named as such: its own kernels (slower than cuDNN's
	 * on Hopper and Blackwell, compute.c) */
	static const char *const fa2_names[] = {"FA2", "FlashAttention-2", "FlashAttention 2",
		"FlashAttention2", "flash-attn 2", "flash_attn 2", "flash-attn2"};
	static const char *const fa3_names[] = {"FA3", "FlashAttention-3", "FlashAttention 3",
		"FlashAttention3", "FlashAttention v3", "flash-attn 3", "flash_attn 3",
		"flash-attn==3", "flash_attn==3", "flash-attn v3", "FA3 kernels", "cuDNN attention",
		"cudnn"};
	/* FlashAttention 1 (flash-attn 0.x and 1.x), and the Triton
	 * FlashAttention of the same time (MPT's attn_impl triton), which the
	 * FlashAttention-2 paper measures beside it (Fig. 4: 59-79 TFLOP/s on an
	 * A100 against FlashAttention's 58-97). A version is matched up to a
	 * dot ("flash-attn==1" in "flash-attn==1.0.9"); "FlashAttention 1"
	 * alone is not a version ("FlashAttention 1.7x faster") */
	static const char *const fa1_names[] = {"FA1", "FlashAttention-1", "FlashAttention1",
		"FlashAttention v1", "FlashAttention (v1)", "flash-attn v1", "flash_attn v1",
		"flash-attn1", "flash-attn==1", "flash_attn==1", "flash-attn=1", "flash_attn=1",
		"flash-attn==0", "flash_attn==0", "flash-attn 0", "flash_attn 0", "flash-attn 1.0",
		"flash_attn 1.0", "attn_impl triton", "attn_impl: triton", "attn_impl=triton",
		"Triton FlashAttention", "FlashAttention in Triton"};
	bool fa1 = false, fa2 = false, fa3 = false;
	for (size_t i = 0; i < sizeof fa1_names / sizeof fa1_names[0]; i++)
		fa1 |= val__affirmed_word(o, fa1_names[i]);
	for (size_t i = 0; i < sizeof fa2_names / sizeof fa2_names[0]; i++)
		fa2 |= val__affirmed_word(o, fa2_names[i]);
	fa2 |= names_fa2_version(o);
	for (size_t i = 0; i < sizeof fa3_names / sizeof fa3_names[0]; i++)
		fa3 |= val__affirmed_word(o, fa3_names[i]);
	fa2 = fa2 && !fa3 && !val__has(o, "FA2 off") && !val__has(o, "FA2 disabled");
	flash = flash || fa1;
	/* LLM Foundry's "attn_impl: flash" installed FlashAttention 1: its
	 * `gpu` extra pinned flash-attn 1.0.x (v1.0.3.post0, then 1.0.7, 1.0.9)
	 * until March 2024 (llm-foundry PR #1023), FlashAttention-2 being the
	 * opt-in `gpu-flash2` extra from December 2023 (PR #812); its benchmark
	 * tables were measured on torch 1.13 and 2.0.1 images in 2023. Only a
	 * row that names attn_impl, no FlashAttention-2 and no year from 2024,
	 * on a GPU of that time (Ampere, Hopper). Its predecessor, MosaicGPT in
	 * mosaicml/examples' llm (2022 to May 2023), took flash_attn from
	 * HazyResearch's main branch of 2022 with torch < 1.13
	 * (llm/requirements.txt): FlashAttention 1 as well. */
	hw_arch arch = s->cluster.gpu.arch;
	if (flash && !fa1 && !fa2 && !fa3 && !off && !runs_te(r) && val__has(o, "attn_impl") &&
	    (val__names(r, "llm-foundry") || val__names(r, "LLM Foundry") ||
	     val__names(r, "mosaicml/examples") || val__names(r, "MosaicGPT")) &&
	    (arch == ARCH_AMPERE || arch == ARCH_HOPPER) && !names_2024_or_later(r)) {
		fa1 = true;
		*assumed = true;
	}
	fa1 = fa1 && !fa2 && !fa3;
	/* "FA2/FA3", "FA3, not FA2": the faster kernel */
	if (flash && !fa1 && !fa2 && !fa3 && !off && !runs_te(r)) {
		/* FlashAttention named with no version and no Transformer Engine:
		 * the flash-attn package (or PyTorch's SDPA flash backend, the
		 * same kernels), whose release is FlashAttention-2; FA3 is a
		 * separate, opt-in package. Only Transformer Engine (NeMo,
		 * Megatron-core) runs cuDNN's fused kernels on Hopper. */
		fa2 = true;
		*assumed = true;
	}
	if (!flash && !fa3 && !off && sdpa_flash2(r, &s->cluster.gpu, t->precision)) {
		flash = fa2 = true;
		*assumed = true;
	}
	if (flash && wl_gpu_fused_attention(&s->cluster.gpu))
		t->attention = off ? ATTN_FLASH : fa1 ? ATTN_FLASH1 : fa2 ? ATTN_FLASH2 : ATTN_FLASH;
	else if (!flash && fp && (off || val__has(o, "no flash") || val__has(o, "without flash")))
		t->attention = ATTN_UNFUSED;
	if (fused_loss(r))
		t->cross_entropy = CE_FUSED;
	/* PyTorch without torch.compile ("no torch.compile", "torch.compile
	 * off", "eager mode"): the model's composite ops as separate kernels */
	const char *notes = r->other;
	const char *tc = val__find(notes, "torch.compile");
	if (!tc)
		tc = val__find(notes, "compile:");   /* torchtitan's config: "compile: false" */
	if ((tc && (!val__affirmed(notes, "compile") || !val__affirmed(notes, "torch.compile") ||
	            val__said_off(tc))) ||
	    val__affirmed(notes, "eager mode"))
		t->kernels = KERNELS_EAGER;
	/* torchtitan's knob by its name: "no compile", "compile=false",
	 * "compile false" (not "compile=true") */
	const char *kc = !tc && val__names(r, "torchtitan") ? val__find(notes, "compile") : NULL;
	if (kc && (!val__affirmed(notes, "compile") || val__said_off(kc) ||
	           !strncasecmp(kc + 7, "=false", 6) || !strncasecmp(kc + 7, " false", 6)))
		t->kernels = KERNELS_EAGER;
	scn_recompute said_rc;
	scn_recompute cell_rc;
	bool cell_said = recompute_cell(r->recompute, &cell_rc);
	bool rc_said = !cell_said && recompute_in_text(r->other, &said_rc);
	t->recompute = rc_said ? said_rc : cell_said ? cell_rc : recompute_of(r->recompute, assumed);
	double some = recompute_layers_of(r);   /* full recomputation of some layers */
	rc_said |= some != 0;
	bool sp_said = val__affirmed_word(r->other, "SP") || val__affirmed_word(r->recompute, "SP") ||
	               val__affirmed(r->other, "sequence parallel") ||
	               val__affirmed(r->recompute, "sequence parallel") ||
	               val__affirmed(r->other, "sequence-parallel") ||
	               val__affirmed(r->other, "sequence_parallel");
	bool no_sp = !sp_said && (val__has_word(r->other, "SP") ||
	                          val__has(r->other, "sequence parallel") ||
	                          val__has(r->other, "sequence-parallel") ||
	                          val__has(r->other, "sequence_parallel"));   /* named, negated */
	/* Megatron-core runs a MoE with tp > 1 only with sequence parallelism */
	t->sequence_parallel = t->tp > 1 && (sp_said || s->model.experts > 1);
	schedule_of(r, s, assumed);
	torchtitan_microbatches(r, s, assumed);
	split_of(r, s, assumed);
	if (some != 0) {
		int v = t->schedule == SCHED_INTERLEAVED ? t->virtual_stages : 1;
		int per_chunk = s->model.layers / (t->pp * v);
		t->recompute = RECOMPUTE_FULL;
		t->recompute_layers = some > 0 ? (int)some : (int)ceil(-some * per_chunk - 1e-9);
		if (t->recompute_layers < 1)
			t->recompute_layers = 1;
	}
	bool no_overlap = overlaps_of(r, s, no_sp, assumed);
	/* DeepSpeed's BF16_Optimizer (ZeRO 0-1) adds each micro-batch's bf16
	 * gradients into fp32 ones in a pass of its own */
	t->grad_accum_pass = val__names(r, "DeepSpeed") && t->zero <= 1;
	/* and with bf16 at ZeRO stage 0 (or a row that names it, which its
	 * sources call ZeRO-1: BLOOM) that optimizer shards the fp32 master
	 * weights and Adam state over the data-parallel ranks, as ZeRO-1 does,
	 * while the engine all-reduces the whole fp32 gradients and the bf16
	 * weights are all-gathered after the step (DeepSpeed engine.py
	 * _do_optimizer_sanity_check: bf16 without ZeRO -> BFLOAT16;
	 * bf16_optimizer.py: fp32_groups_flat_partition, get_grads_for_reduction,
	 * update_lp_params' all_gather_dp_groups) */
	bool named = val__has(r->other, "BF16_Optimizer") || val__has(r->other, "BF16Optimizer");
	if (t->grad_accum_pass && (t->zero == 0 || (t->zero == 1 && named)) &&
	    t->precision == PREC_BF16 && scn_dp_grad(s) > 1 && t->zero_group == 0) {
		t->zero = 1;
		t->grad_reduce.collective = GRAD_COLL_ALL_REDUCE;
	}
	if (t->precision == PREC_FP16 || layer_only)
		return 0;
	/* what a bf16/fp8 row leaves open, as a user of today's Megatron runs it */
	/* "use_distributed_optimizer=False", "no distributed optimizer": closed */
	const char *const dopt[] = {"distributed optimizer", "distributed_optimizer",
		"distributed-optimizer"};
	bool dist_said = false;
	for (size_t i = 0; i < 3; i++)
		dist_said |= val__has(r->other, dopt[i]);
	bool zero_open = !t->zero && zero_named(r->other) < 0 && !dist_said;
	bool sp_open = t->tp > 1 && !t->sequence_parallel && !no_sp;
	bool rc_open = !cell_said && !rc_said;
	/* DeepSpeed's pipeline engine has no interleaved schedule, and its ZeRO
	 * reduces after the backward unless configured (overlap_comm); the
	 * speed-ups below only for a row that says bf16 or fp8 (not an assumed
	 * precision, nor tf32/fp32) */
	bool deepspeed = val__names(r, "DeepSpeed");
	bool modern = *r->precision && (t->precision == PREC_BF16 || hw_prec_scaled(t->precision));
	/* today's Megatron and NeMo recipes pass --overlap-grad-reduce; PyTorch
	 * DDP and FSDP overlap by default */
	if (modern && t->dp > 1 && !deepspeed && !no_overlap && !t->grad_reduce.overlap) {
		t->grad_reduce.overlap = true;
		*assumed = true;
	}
	/* the candidates below are simulated: the layout as read must run */
	if (val__runnable(s, why, n) < 0)
		return -1;
	/* a row that recomputes some layers keeps its schedule: the layers a
	 * chunk recomputes were counted on it */
	bool pick = modern && t->pp > 1 && !deepspeed && t->virtual_stages == 1 &&
	            t->schedule == SCHED_1F1B && !schedule_named(r) && t->recompute_layers == 0;
	if ((pick ? choose_schedule(s, sp_open, zero_open, rc_open)
	          : fit_memory(s, sp_open, zero_open, mb_open, rc_open)) || rc_open)
		*assumed = true;
	return 0;
}
