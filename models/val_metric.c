/* val_metric.c: what a row measures and in which unit: step times, rates,
 * TFLOP/s and utilizations by their words (docs/validation.md, "The
 * conventions of the published numbers"), collective benchmarks by op and
 * size, units to SI, and why a metric is not predicted. */
#include <ctype.h>
#include <strings.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "val_int.h"

/* ---- metrics ---- */

typedef struct metric_name {
	const char *name;
	val_metric m;
} metric_name;

static const metric_name metric_names[] = {
	{"achieved_tflops_per_gpu", VM_HW_TFLOPS}, {"tflops_per_gpu", VM_HW_TFLOPS},
	{"hw_tflops_per_gpu", VM_HW_TFLOPS}, {"pct_of_peak", VM_PCT_PEAK},
	{"aggregate_pflops", VM_AGG_PFLOPS}, {"mfu", VM_MFU}, {"hfu", VM_HFU},
	{"iteration_time", VM_ITER_TIME}, {"iteration_time_derived", VM_ITER_TIME},
	{"step_time", VM_ITER_TIME}, {"layer_forward_time", VM_LAYER_FWD},
	{"layer_backward_time", VM_LAYER_BWD}, {"layer_fwd_bwd_time", VM_LAYER_FWDBWD},
	{"throughput_increase_vs_full_recompute", VM_RECOMPUTE_GAIN},
	{"checkpoint_size_full", VM_CKPT_SIZE}, {"checkpoint_size", VM_CKPT_SIZE},
	{"hbm_triad_bw", VM_HBM_BW}, {"hbm_copy_bw", VM_HBM_BW}, {"step_time_s", VM_ITER_TIME},
	{"iteration_time_s", VM_ITER_TIME}, {"time_per_iteration", VM_ITER_TIME},
	{"hardware_tflops_per_gpu", VM_HW_TFLOPS}, {"model_tflops_per_gpu", VM_MODEL_TFLOPS},
	{"mfu_pct", VM_MFU}, {"hfu_pct", VM_HFU}, {"tokens_per_s", VM_TOKENS},
	{"tokens_per_sec", VM_TOKENS}, {"throughput_tokens_per_s", VM_TOKENS},
	{"samples_per_s", VM_SAMPLES}, {"samples_per_sec", VM_SAMPLES},
	{"sequences_per_s", VM_SAMPLES},
};

const char *val_metric_describe(val_metric m)
{
	switch (m) {
	case VM_HW_TFLOPS: return "hardware TFLOP/s per GPU (recomputation counted)";
	case VM_PCT_PEAK: return "hardware FLOP/s as a percentage of the dense peak";
	case VM_AGG_PFLOPS: return "hardware PFLOP/s of all GPUs together";
	case VM_MFU: return "model FLOPs utilization";
	case VM_HFU: return "hardware FLOPs utilization";
	case VM_ITER_TIME: return "the step time";
	case VM_LAYER_FWD: return "one layer's forward time";
	case VM_LAYER_BWD: return "one layer's backward time";
	case VM_LAYER_FWDBWD: return "one layer's forward and backward time";
	case VM_RECOMPUTE_GAIN: return "throughput gain over full recomputation";
	case VM_CKPT_SIZE: return "the size of a full checkpoint";
	case VM_GEMM: return "TFLOP/s of one GEMM";
	case VM_HBM_BW: return "HBM bandwidth";
	case VM_FLASH_FWD: return "TFLOP/s of a fused attention forward";
	case VM_FLASH_BWD: return "TFLOP/s of a fused attention backward";
	case VM_MODEL_TFLOPS: return "model TFLOP/s per GPU (no recomputation)";
	case VM_TOKENS: return "tokens per second";
	case VM_SAMPLES: return "sequences per second";
	case VM_COLL_BUSBW: return "nccl-tests bus bandwidth";
	case VM_COLL_ALGBW: return "nccl-tests algorithm bandwidth";
	case VM_COLL_TIME: return "nccl-tests time of one collective";
	case VM_COLL_AVG_BUSBW: return "nccl-tests average bus bandwidth over a sweep";
	case VM_SCALING_EFF: return "scaling efficiency against the series' baseline";
	case VM_NONE: break;
	}
	return "nothing predicted";
}

/* Other publications spell the same metrics their own way ("TFLOPs/GPU",
 * "tokens_per_sec_per_gpu", "elapsed_time_per_iteration_ms", "MFU (%)"):
 * after the exact names, words. A metric qualified by a condition the
 * simulator does not model (with/without fusion, relative to another row,
 * peak or average over a run) stays unpredicted. */
/* "/s" or "/sec" as a unit's denominator (not "/step", "/seq"). */
static bool slash_second(const char *t)
{
	for (const char *p = strchr(t, '/'); p; p = strchr(p + 1, '/'))
		if ((p[1] == 's' || p[1] == 'S') &&
		    (!isalpha((unsigned char)p[2]) || !strncasecmp(p + 1, "sec", 3)))
			return true;
	return false;
}

/* "/h", "/hr", "/hour": per hour; not "/H100" (per GPU). */
static bool slash_hour(const char *u)
{
	for (const char *p = val__find(u, "/h"); p; p = val__find(p + 1, "/h")) {
		const char *q = p + 2;
		if (!strncasecmp(q, "our", 3))
			q += 3;
		else if (*q == 'r' || *q == 'R')
			q++;
		if (!isalnum((unsigned char)*q))
			return true;
	}
	return false;
}

/* A rate: the name or the unit says "per second" in one of its spellings
 * (not "per_step" or "per_sample": those are counts). */
static bool per_second(const char *name, const char *unit)
{
	if (val__has_token(name, "per_s") || val__has_token(name, "per_sec") ||
	    val__has_token(name, "per_second") || val__has_token(name, "ps") || slash_second(name) ||
	    val__has(name, "throughput"))
		return true;
	/* "per s", "per sec(ond)", not "per step" */
	return slash_second(unit) || val__has_token(unit, "per s") || val__has(unit, "per sec") ||
	       val__has(unit, "/min") || slash_hour(unit) || val__has(unit, "/day") ||
	       val__has(unit, "-hour") || val__has(unit, "per min") || val__has(unit, "per hour") ||
	       val__has(unit, "per day");
}

/* Where the word of letters that ends at e in t starts. */
static const char *word_back(const char *t, const char *e)
{
	while (e > t && isalpha((unsigned char)e[-1]))
		e--;
	return e;
}

static bool is_word(const char *b, const char *e, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(words[i]) == (size_t)(e - b) && !strncasecmp(b, words[i], (size_t)(e - b)))
			return true;
	return false;
}

/* A time per step: a unit of time, "time" or "latency", then '/' or "per",
 * then a step ("it", "iter", "iteration", "step", "batch"): "sec/iter",
 * tqdm's "s/it", "ms/step", "ms_per_iter", "time/iter", "latency per step",
 * "time per batch". In a name (blanks read as '_') or a unit. Not a count
 * per step ("tokens_per_step") nor steps per second ("it/s"). */
static bool time_per_step(const char *t)
{
	static const char *const times[] = {"s", "sec", "secs", "second", "seconds", "ms", "msec",
		"millisecond", "milliseconds", "time", "latency"};
	static const char *const steps[] = {"it", "iter", "iters", "iteration", "step", "batch"};
	for (const char *p = t; *p; p++) {
		size_t len = *p == '/' ? 1
		           : !strncasecmp(p, "_per_", 5) || !strncasecmp(p, " per ", 5) ? 5 : 0;
		if (!len)
			continue;
		const char *e = p;
		while (e > t && e[-1] == ' ')
			e--;
		const char *a = p + len, *ae;
		while (*a == ' ')
			a++;
		for (ae = a; isalpha((unsigned char)*ae);)
			ae++;
		if (is_word(word_back(t, e), e, times, sizeof times / sizeof times[0]) &&
		    is_word(a, ae, steps, sizeof steps / sizeof steps[0]))
			return true;
	}
	return false;
}

/* "per GPU" in its spellings: "per_gpu", "per GPU", "per-GPU", "/GPU",
 * "/ GPU", "/(GPU·s)"; and the same of a device, chip or accelerator
 * ("tokens/s/device", "tok/s/dev", "per chip", "per GCD", "per rank"). Not
 * "per 8 GPUs", nor "GPUs". */
/* Per GPU by the GPU's name: "tokens/s/H100", "tokens/s per A100". */
static bool per_gpu_name(const char *t)
{
	static const char *const gpus[] = {"H100", "H200", "H800", "H20", "A100", "A800", "B200",
		"B300", "GB200", "GB300", "MI300X", "MI325X", "MI355X", "MI350X", "MI250X", "V100", "L40S"};
	for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
		size_t n = strlen(gpus[i]);
		for (const char *p = val__find(t, gpus[i]); p; p = val__find(p + 1, gpus[i])) {
			if (isalnum((unsigned char)p[n]))
				continue;
			const char *b = p;
			while (b > t && b[-1] == ' ')
				b--;
			if ((b > t && b[-1] == '/') || (b - t >= 3 && !strncasecmp(b - 3, "per", 3)))
				return true;
		}
	}
	return false;
}

static bool per_device(const char *t)
{
	static const char *const dev[] = {"gpu", "device", "dev", "chip", "accelerator", "gcd", "rank"};
	for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++) {
		size_t n = strlen(dev[i]);
		for (const char *p = t; (p = val__find(p, dev[i])); p++) {
			if (isalpha((unsigned char)p[n]) || (p > t && isalpha((unsigned char)p[-1])))
				continue;
			const char *b = p;
			while (b > t && (b[-1] == ' ' || b[-1] == '('))
				b--;
			if (b > t && b[-1] == '/')
				return true;
			b = p;
			if (b > t && (b[-1] == ' ' || b[-1] == '_' || b[-1] == '-'))
				b--;
			if (b - t >= 3 && !strncasecmp(b - 3, "per", 3) &&
			    (b - 3 == t || !isalnum((unsigned char)b[-4])))
				return true;
		}
	}
	return false;
}

/* A FLOP rate by its words ("tflop", "pflop", or spelt "teraFLOP",
 * "petaFLOPs"). */
static bool tera(const char *t)
{
	return val__has(t, "tflop") || val__has(t, "teraflop");
}

/* An aggregate's scale: PFLOP/s, or EFLOP/s for the largest jobs. */
static bool peta(const char *t)
{
	return val__has(t, "pflop") || val__has(t, "petaflop") || val__has(t, "eflop") ||
	       val__has(t, "exaflop");
}

/* "effective TFLOPs" is the rate achieved (what "achieved" says), not an
 * efficiency against another row: every "eff" of the name is "effective",
 * and it names a FLOP rate. */
static bool effective_rate(const char *name)
{
	if (!tera(name) && !peta(name))
		return false;
	for (const char *p = name; (p = val__find(p, "eff")); p++)
		if (strncasecmp(p, "effective", 9))
			return false;
	return true;
}

/* A step's time over its global batch ("time per batch", "batch time"),
 * not a micro-batch's. */
static bool batch_time(const char *name)
{
	return (val__has(name, "batch_time") || val__has(name, "time_per_batch") ||
	        time_per_step(name)) && !val__has(name, "micro");
}

/* A unit that names a utilization as its own ("% MFU"), not negated ("not
 * MFU") nor beside another reading ("nvidia-smi"). */
static bool unit_says(const char *unit, const char *what)
{
	/* the unit itself, not a note after a ';' ("tokens/s; MFU 40%") */
	char u[256];
	snprintf(u, sizeof u, "%.*s", (int)strcspn(unit, ";"), unit);
	if (!val__has_token(u, what) || !val__affirmed(u, what) || val__has(u, "nvidia-smi") ||
	    val__has(u, "smi"))
		return false;
	/* in brackets, only after a utilization's own unit ("% (MFU)"), not
	 * after another's ("s per step (table: ... MFU 42.54%)") */
	char lead[256];
	snprintf(lead, sizeof lead, "%.*s", (int)strcspn(u, "("), u);
	const char *l = lead;
	while (*l == ' ')
		l++;
	return val__has_token(lead, what) || !*l || *l == '%' || !strncasecmp(l, "percent", 7) ||
	       !strncasecmp(l, "pct", 3) || !strncasecmp(l, "fraction", 8) ||
	       !strncasecmp(l, "ratio", 5);
}

/* The unit before its first note: what precedes a '(' or a ';'. */
static void unit_lead(const char *unit, char *lead, size_t n)
{
	snprintf(lead, n, "%.*s", (int)strcspn(unit, "(;"), unit);
}

/* A qualifier that makes a name something else than the whole step's figure:
 * a part of the step, a count, another workload, a condition. */
static bool qualified(const char *name, const char *unit)
{
	static const char *const q[] = {"fusion", "_vs_", "speedup", "improvement", "eff",
		"variation", "_ratio", "ratio_", "busbw", "steps_per", "iters_per", "it/s", "_at_",
		"days", "hours", "optimizer", "data", "loader", "bubble", "checkpoint", "ckpt", "eval",
		"warmup", "total", "max", "min_", "batch", "inference", "decode", "generation",
		"prefill", "tokenizer", "forward", "backward", "fwd", "bwd", "comm", "allreduce",
		"all_reduce", "layer", "kernel", "attention", "startup", "init"};
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
		if (!val__has(name, q[i]))
			continue;
		/* a total that is a rate is the whole job's ("total throughput",
		 * "Total tokens/s", "Total PFLOPS"), not a count */
		if (!strcmp(q[i], "total") && (per_second(name, unit) || tera(name) || peta(name)))
			continue;
		if (!strcmp(q[i], "eff") && effective_rate(name))
			continue;
		/* "Efficiency (MFU)", "efficiency" in "% MFU": a utilization */
		if (!strcmp(q[i], "eff") && !val__has(name, "scaling") && !val__has(name, "parallel") &&
		    !val__has(name, "ratio") && !strchr(name, '/') &&
		    (val__has_token(name, "mfu") || val__has_token(name, "hfu") ||
		     unit_says(unit, "MFU") || unit_says(unit, "HFU")))
			continue;
		if (!strcmp(q[i], "batch") && batch_time(name))
			continue;
		if (!strcmp(q[i], "_at_") && val__has(name, "_at_steady"))
			continue;   /* "step time (s) at steady state" is the step's */
		return true;
	}
	return false;
}

/* "% of theoretical peak", "percentage of peak FLOPs", "fraction of dense
 * peak": a FLOP rate over the GPU's peak (pct_of_peak), "peak" at most two
 * words after "of", a percent or a fraction said. */
static bool of_peak(const char *name, const char *unit)
{
	bool peak = false;
	for (const char *of = val__find(name, "of_"); of && !peak; of = val__find(of + 1, "of_")) {
		const char *w = of + 3;
		for (int words = 0; words < 3 && w && !peak; words++) {
			peak = !strncasecmp(w, "peak", 4);
			w = strchr(w, '_');
			if (w)
				w++;
		}
	}
	return peak && (strchr(name, '%') || val__has(name, "percent") || val__has(name, "pct") ||
	                val__has(name, "fraction") || strchr(unit, '%'));
}

/* A FLOP rate's convention: model FLOPs when the name says "model"; the sum
 * over the GPUs for PFLOP/s, "aggregate" in the name or the unit, "total"
 * or "all GPUs" in the unit, "total" in the name of no per-GPU figure;
 * else hardware FLOPs per GPU. */
static val_metric flop_rate(const char *name, const char *unit)
{
	if (val__has(name, "model"))
		return VM_MODEL_TFLOPS;
	char lead[256];
	unit_lead(unit, lead, sizeof lead);
	if (peta(name) || val__has(name, "aggregate") || val__has(lead, "aggregate") ||
	    val__has(lead, "total") || val__has(lead, "all GPUs"))
		return VM_AGG_PFLOPS;
	/* per GPU in the name or the unit before its first ';': a note on the
	 * job's sum ("TFLOP/s per GPU (15.1 PFLOP/s aggregate / 512)", "TFLOP/s
	 * (per GPU; aggregate 4.4 PF)") does not make it one */
	char first[256];
	snprintf(first, sizeof first, "%.*s", (int)strcspn(unit, ";"), unit);
	if (per_device(name) || per_device(first))
		return VM_HW_TFLOPS;
	if (val__has(unit, "aggregate") || val__has(unit, "total") || val__has(unit, "all GPUs") ||
	    (val__has(name, "total") && !per_device(unit)))
		return VM_AGG_PFLOPS;
	return VM_HW_TFLOPS;
}

static val_metric metric_words(const char *name, const char *unit)
{
	if (qualified(name, unit))
		return VM_NONE;
	/* a FLOP rate that names its convention ("TFLOP/s per GPU (hardware, HFU
	 * basis)" in TFLOP/s): the rate, hardware FLOPs per GPU, or model FLOPs
	 * on MFU's basis; not a utilization in TFLOP/s' words ("percent of peak
	 * TFLOP/s") */
	char lead[256];
	unit_lead(unit, lead, sizeof lead);
	static const char *const util[] = {"%", "percent", "fraction", "of peak", "util"};
	if ((tera(name) || peta(name)) && (tera(lead) || peta(lead)) &&
	    !val__has_any(lead, util, sizeof util / sizeof util[0]))
		return val__has_token(name, "mfu") && tera(name) ? VM_MODEL_TFLOPS
		                                                  : flop_rate(name, unit);
	if (val__has_token(name, "mfu") || val__has(name, "mfu_") || val__has(name, "_mfu"))
		return VM_MFU;
	if (val__has_token(name, "hfu") || val__has(name, "hfu_") || val__has(name, "_hfu"))
		return VM_HFU;
	if (val__has(name, "flops_util") || val__has(name, "flop_util"))
		return val__has(name, "hardware") ? VM_HFU : VM_MFU;   /* "model FLOPs utilization" */
	if (tera(name) || peta(name))
		return flop_rate(name, unit);
	if (of_peak(name, unit))
		return VM_PCT_PEAK;
	/* "TPS", torchtitan's "WPS" (words, i.e. tokens, per second), InternEvo's
	 * "TGS" (tokens per GPU and second) */
	if (val__has_token(name, "tps") || val__has_token(name, "wps") || val__has_token(name, "tgs") ||
	    ((val__has(name, "token") || val__has_token(name, "tok")) && per_second(name, unit)))
		return VM_TOKENS;
	if ((val__has(name, "sample") || val__has(name, "sequences") || val__has(name, "seqs") ||
	     val__has(name, "seq/s") || val__has(name, "seq_per_s")) && per_second(name, unit))
		return VM_SAMPLES;
	/* NeMo logs "train_step_timing in s" */
	static const char *const step_time[] = {"iteration_time", "step_time", "iter_time",
		"time_per_iter", "time_per_step", "sec_per_iter", "sec_per_step", "seconds_per_iter",
		"seconds_per_step", "step_timing", "iteration_timing", "iter_timing", "step_latency",
		"iteration_latency", "iter_latency", "step_duration", "iteration_duration",
		"iter_duration", "time_per_training_step", "time_per_train_step",
		"time_per_training_iter"};
	for (size_t i = 0; i < sizeof step_time / sizeof step_time[0]; i++)
		if (val__has(name, step_time[i]))
			return VM_ITER_TIME;
	if (val__has_token(name, "s_per_iter") || val__has_token(name, "s_per_step"))
		return VM_ITER_TIME;      /* not "tokens_per_step" */
	/* the unit says which utilization ("utilization" in "% MFU") of a name
	 * that did not say what it counts: a name that did wins over a note in
	 * the unit ("tokens/s/GPU; the README's MFU 56.9%") */
	if (unit_says(unit, "MFU"))
		return VM_MFU;
	if (unit_says(unit, "HFU"))
		return VM_HFU;
	/* "sec/iter", "time/iter (ms)", "batch time"; or the unit of a name that
	 * says no more than a time or a speed: "speed" in tqdm's "s/it" */
	static const char *const plain[] = {"time", "speed", "throughput", "latency", "perf",
		"iter", "step", "train"};
	bool said = false;
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		said |= val__has(name, plain[i]);
	if (time_per_step(name) || batch_time(name) || (said && time_per_step(unit)))
		return VM_ITER_TIME;
	/* the unit says of what */
	bool lead_tokens = val__has(lead, "token") || val__has(lead, "tok/");
	bool lead_samples = val__has(lead, "sample") || val__has(lead, "seq");
	if ((val__has(name, "throughput") || val__has(name, "speed") ||
	     val__has(name, "performance")) && lead_tokens != lead_samples)
		/* the unit's own words before a note ("samples/s whole job (=
		 * 31,365 tokens/s/GPU)") */
		return lead_tokens ? VM_TOKENS : VM_SAMPLES;
	if (val__has(name, "throughput") || val__has(name, "speed") || val__has(name, "performance"))
		/* LLM Foundry's "Throughput (T/s)", "(T/s/GPU)", "(S/s)": tokens, samples */
		return val__has(unit, "token") || val__has(unit, "tok/") || val__has_token(unit, "tgs") ||
		       (!strncmp(unit, "T/s", 3) && val__has(name, "throughput"))
		     ? VM_TOKENS
		     : !strncmp(unit, "S/s", 3) && val__has(name, "throughput") ? VM_SAMPLES
		     : val__has(unit, "sample") || val__has(unit, "seq") ? VM_SAMPLES
		     : tera(unit) ? flop_rate(name, unit) : peta(unit) ? VM_AGG_PFLOPS : VM_NONE;
	return VM_NONE;
}

static val_metric metric_of_name(const char *name, const char *unit);

/* Whether `word` starts a word of `t` (any case): "comm" in "(excluding
 * communication)", not in "recommended". */
static bool word_start(const char *t, const char *word)
{
	for (const char *p = val__find(t, word); p; p = val__find(p + 1, word))
		if (p == t || !isalpha((unsigned char)p[-1]))
			return true;
	return false;
}

/* A bracket in a metric's name that remarks on the figure rather than
 * naming a part of the step: "(after warmup)", "(at 512 GPUs)", "(w/o
 * eval)", "(with distributed optimizer)", "(excluding data loading)". */
static bool remark_bracket(const char *b)
{
	static const char *const lead[] = {"after", "at ", "with", "w/", "without", "excluding",
		"excl", "including", "incl", "all ", "global", "on ", "using", "from", "steady",
		"avg", "average", "mean", "median", "measured", "reported", "see "};
	/* a part of the step left out or measured alone is not a remark:
	 * "(excluding communication)", "(without pipeline bubble)", "(with
	 * forward pass only)"; a setting it ran with is ("(with flash
	 * attention)", "(with comm overlap)", "(including communication)") */
	static const char *const part[] = {"forward", "backward", "fwd", "bwd", "comm",
		"allreduce", "all_reduce", "all-reduce", "bubble", "pipeline", "layer", "optimizer"};
	while (*b == ' ')
		b++;
	char in[128];
	snprintf(in, sizeof in, "%.*s", (int)strcspn(b, ")"), b);
	bool without = !strncasecmp(b, "without", 7) || !strncasecmp(b, "w/o", 3) ||
	               !strncasecmp(b, "excl", 4);
	if (val__has(in, "only"))
		return false;
	for (size_t i = 0; i < sizeof part / sizeof part[0] && without; i++)
		if (word_start(in, part[i]))
			return false;
	for (size_t i = 0; i < sizeof lead / sizeof lead[0]; i++)
		if (!strncasecmp(b, lead[i], strlen(lead[i])))
			return true;
	return false;
}

val_metric val__metric_of(const char *name, const char *unit)
{
	val_metric m = metric_of_name(name, unit);
	const char *b = strchr(name, '(');
	const char *e = b ? strchr(b, ')') : NULL;
	if (m != VM_NONE || !b || b == name || !e || !remark_bracket(b + 1))
		return m;
	char bare[256];
	snprintf(bare, sizeof bare, "%.*s%s", (int)(b - name), name, e + 1);
	for (size_t k = strlen(bare); k > 0 && bare[k - 1] == ' '; k--)
		bare[k - 1] = '\0';
	return metric_of_name(bare, unit);
}

static val_metric metric_of_name(const char *name, const char *unit)
{
	for (size_t i = 0; i < sizeof metric_names / sizeof metric_names[0]; i++)
		if (!strcasecmp(name, metric_names[i].name))
			return metric_names[i].m;
	if (!strncasecmp(name, "gemm_", 5))
		return VM_GEMM;
	if (!strncasecmp(name, "flash_attn", 10) && val__has(name, "fwd"))
		return VM_FLASH_FWD;
	if (!strncasecmp(name, "flash_attn", 10) && val__has(name, "bwd"))
		return VM_FLASH_BWD;
	if (val__has(name, "scaling") && val__has(name, "eff"))
		return VM_SCALING_EFF;   /* weak/strong scaling efficiency, "..._vs_1gpu" */
	/* words as people write them: "iteration time (ms)", "time per step",
	 * "model FLOPs utilization" read as iteration_time, time_per_step, ... */
	char norm[256];
	size_t k = 0;
	for (const char *p = name; *p && k < sizeof norm - 1; p++) {
		/* "Tokens / sec / GPU" (NeMo's header) is tokens/sec/gpu */
		if (*p == ' ' && ((k && norm[k - 1] == '/') || p[strspn(p, " ")] == '/'))
			continue;
		/* "Iter. time", "util.": an abbreviation's full stop */
		if (*p == '.' && p > name && isalpha((unsigned char)p[-1]) &&
		    (!p[1] || p[1] == ' ' || p[1] == '_'))
			continue;
		char c = *p == ' ' || *p == '-' ? '_' : (char)tolower((unsigned char)*p);
		if (c == '_' && k && norm[k - 1] == '_')
			continue;
		norm[k++] = c;
	}
	norm[k] = '\0';
	/* British spellings: "utilisation", "utilised" */
	for (char *u = strstr(norm, "utilis"); u; u = strstr(u + 1, "utilis"))
		u[5] = 'z';
	return metric_words(norm, unit);
}

/* nccl-tests' size labels: "1K", "67M", "8G", "16GB", "8B", "2048": powers
 * of two printed in decimal units (65536 -> "65K"); a label 8% or more from
 * any power of two ("96M") is read in binary units (96 MiB). */
static double coll_size(const char *s)
{
	char *end;
	while (*s == ' ')
		s++;
	double v = strtod(s, &end);
	if (end == s || !(v > 0) || !(v < 1e15))
		return 0;
	while (*end == ' ')   /* "@ 8 GiB" */
		end++;
	char u = (char)toupper((unsigned char)*end);
	double mult = u == 'K' ? 1e3 : u == 'M' ? 1e6 : u == 'G' ? 1e9 : u == 'T' ? 1e12 : 1;
	double b = v * mult;
	if (b < 1 || b > 1099511627776.0)
		return 0;           /* 1 B to 1 TiB: what nccl-tests can run */
	if (mult == 1)
		return b;
	double p2 = pow(2, round(log2(b)));
	if (fabs(b / p2 - 1) < 0.08)
		return p2;          /* "67M" = 2^26: a power of two printed in decimal */
	return v * (u == 'K' ? 1024.0 : u == 'M' ? 1048576.0 : u == 'G' ? 1073741824.0
	                                                      : 1099511627776.0);
}

/* The first message size written in a metric name without '@': a number,
 * blanks allowed, then K, M, G or T (KB, MiB, GB, gib, ...). Not a line rate
 * ("400Gbps", "400Gb/s"), not a count or a part ("400G_nic", "1k_gpus":
 * the unit followed by _nic, _gpu, _node, ...), not a GPU's memory
 * ("h100_80GB": right after a GPU name). */
static double size_in_name(const char *name)
{
	static const char *const parts[] = {"nic", "gpu", "node", "rank", "link", "port", "host",
		"server", "card", "hca"};
	static const char *const gpus[] = {"a100", "h100", "h200", "b200", "gb200", "v100", "h800",
		"a800", "mi300x", "mi250x", "l40s"};
	for (const char *p = name; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > name && (isalnum((unsigned char)p[-1]) ||
		                                                  p[-1] == '.')))
			continue;
		const char *q = p;
		while (isdigit((unsigned char)*q) || *q == '.')
			q++;
		while (*q == ' ' || *q == '_')
			q++;
		if (!*q || !strchr("KMGTkmgt", *q))
			continue;
		const char *e = q + 1;
		if (*e == 'i' || *e == 'I')
			e++;
		/* a lower-case b is bits only in a rate: "Gbps", "Gb/s", "gbit" */
		bool rate = (*e == 'b' && (e[1] == 'p' || e[1] == '/' || e[1] == 'i')) || *e == '/';
		if (*e == 'B' || (*e == 'b' && !rate))
			e++;
		if (rate || isalpha((unsigned char)*e))
			continue;
		const char *w = e;
		while (*w == '_' || *w == ' ')
			w++;
		bool part = false;
		for (size_t k = 0; k < sizeof parts / sizeof parts[0] && w > e; k++)
			part |= !strncasecmp(w, parts[k], strlen(parts[k]));
		for (size_t k = 0; k < sizeof gpus / sizeof gpus[0]; k++) {
			size_t n = strlen(gpus[k]);
			const char *g = p - 1 - n;   /* "<gpu>_<size>" */
			part |= g >= name && (p[-1] == '_' || p[-1] == ' ' || p[-1] == '-') &&
			        !strncasecmp(g, gpus[k], n);
		}
		if (part)
			continue;
		char buf[32];
		size_t len = (size_t)(q - p) < sizeof buf - 2 ? (size_t)(q - p) : sizeof buf - 2;
		memcpy(buf, p, len);
		while (len && (buf[len - 1] == ' ' || buf[len - 1] == '_'))
			len--;
		buf[len] = (char)toupper((unsigned char)*q);
		buf[len + 1] = '\0';
		return coll_size(buf);
	}
	return 0;
}

/* The top of a size range written with both units ("1M-8G", the same with an en dash,
 * "1MB to 8GB", "-b 1M -e 8G"), the lower below it; 0 if none. */
static double sweep_top(const char *name)
{
	const char *e = val__find(name, "-e ");
	if (val__find(name, "-b ") && e && coll_size(e + 3) > 0)
		return coll_size(e + 3);
	for (const char *q = name; *q; q++) {
		if (!isdigit((unsigned char)*q) || (q > name && isalnum((unsigned char)q[-1])))
			continue;
		const char *u = q;
		while (isdigit((unsigned char)*u) || *u == '.')
			u++;
		if (!*u || !strchr("KMGTkmgt", *u))
			continue;
		const char *sep = u + 1;
		while (isalpha((unsigned char)*sep))
			sep++;   /* "MB", "MiB" */
		size_t skip = *sep == '-' ? 1 : !strncmp(sep, "\xe2\x80\x93", 3) ? 3
		            : !strncasecmp(sep, " to ", 4) ? 4 : 0;
		if (!skip || !isdigit((unsigned char)sep[skip]))
			continue;
		const char *v = sep + skip;
		while (isdigit((unsigned char)*v) || *v == '.')
			v++;
		if (!*v || !strchr("KMGTkmgt", *v))
			continue;
		double lo = coll_size(q), top = coll_size(sep + skip);
		if (lo > 0 && top > lo)
			return top;
	}
	return 0;
}

/* A collective benchmark row: "<op>_busbw@<size>" (also algbw, time,
 * latency), "<op>_avg_busbw_<from>-<to>" (nccl-tests' average over a x2
 * sweep), "<op>_small_msg_latency" (8 B), "<op>_busbw_large_msg" (1 GiB),
 * "<algo>_effective_nvlink_busbw" / "<op>_peak_busbw_<algo>" (8 GiB, the
 * top of nccl-tests' usual sweep). The op defaults to all_reduce. Returns
 * the metric, VM_NONE if the name is none of these. */
val_metric val__coll_metric(const char *name, val_case *c)
{
	/* matched on the name without '_', '-' and blanks ("All Gather busbw",
	 * "all-to-all"); the two-word ops before their halves */
	static const struct { const char *p; coll_op op; } ops[] = {
		{"allreduce", COLL_ALL_REDUCE}, {"allgather", COLL_ALL_GATHER},
		{"reducescatter", COLL_REDUCE_SCATTER}, {"alltoall", COLL_ALL_TO_ALL},
		{"broadcast", COLL_BROADCAST}, {"bcast", COLL_BROADCAST},
		{"sendrecv", COLL_SENDRECV}, {"reduce", COLL_REDUCE},
		{"gather", COLL_GATHER}, {"scatter", COLL_SCATTER}};
	/* the name's words (letters and digits), so that an op spelt in two or
	 * three of them ("All Gather", "all-to-all") is one, and words are not
	 * glued across ("overall reduce_scatter" is no all-reduce) */
	char wbuf[256];
	const char *wd[32];
	int nw = 0;
	snprintf(wbuf, sizeof wbuf, "%s", name);
	for (char *q = wbuf; *q && nw < 32;) {
		while (*q && !isalnum((unsigned char)*q))
			*q++ = 0;
		if (!*q)
			break;
		wd[nw++] = q;
		while (isalnum((unsigned char)*q))
			q++;
	}
	/* "busbw", "bus bandwidth", "bus bw"; "algbw", "algorithm bandwidth" */
	bool alg = val__has(name, "algbw") || val__has(name, "algorithm bandwidth") ||
	           val__has(name, "alg bw") || val__has(name, "alg_bw");
	bool bus = val__has(name, "busbw") || val__has(name, "bus bandwidth") ||
	           val__has(name, "bus bw") || val__has(name, "bus_bw");
	bool bw = bus || alg;
	/* ratios, factors, a machine's bisection sum: no one collective */
	if (val__has(name, "_vs_") || val__has(name, "factor") || val__has(name, "bisection") || val__has(name, "_max_"))
		return VM_NONE;
	int op = -1;
	/* at each word, the longest op its next one to three words spell, or
	 * one the word begins with ("allreduce" of "allreduce@1G") */
	for (int w = 0; w < nw && op < 0; w++) {
		for (int len = 3; len >= 1 && op < 0; len--) {
			char j[96] = "";
			if (w + len > nw)
				continue;
			for (int k = 0; k < len; k++)
				strncat(j, wd[w + k], sizeof j - strlen(j) - 1);
			for (size_t i = 0; i < sizeof ops / sizeof ops[0] && op < 0; i++)
				if (!strcasecmp(j, ops[i].p) ||
				    (len == 1 && !strncasecmp(j, ops[i].p, strlen(ops[i].p)) &&
				     strlen(ops[i].p) >= 8))
					op = (int)ops[i].op;
		}
	}
	/* nccl-tests' hypercube (hypercube_perf): a pattern trainsim does not
	 * model, not an all-reduce of the same size */
	if (op < 0 && bw && val__has(name, "hypercube"))
		return VM_NONE;
	/* a point-to-point bandwidth between two nodes that names no other
	 * collective (iperf-like, "per NIC achievable", "sendrecv bandwidth"):
	 * 1 GiB (or the size named) from GPU 0 to the next node; nccl-tests'
	 * sendrecv_busbw@... rows take the general path below */
	bool p2p = val__has(name, "p2p") || val__has(name, "point_to_point") || val__has(name, "point-to-point") ||
	           val__has(name, "per_nic") || val__has(name, "nic_achievable") ||
	           (op == COLL_SENDRECV && !bw);
	if (p2p && (op < 0 || op == COLL_SENDRECV) && !val__has(name, "avg_") &&
	    (bw || val__has(name, "bw") || val__has(name, "bandwidth")) && !val__has(name, "latency")) {
		c->coll_op = COLL_SENDRECV;
		c->coll_algo = ALGO_AUTO;
		double b = strchr(name, '@') ? coll_size(strchr(name, '@') + 1) : size_in_name(name);
		c->coll_bytes = b > 0 ? b : 1073741824.0;
		return alg ? VM_COLL_ALGBW : VM_COLL_BUSBW;
	}
	/* a time with its size ("all_reduce time 64MB", "all_reduce latency 8B":
	 * B is bytes beside a collective's time) */
	bool timed = val__has(name, "latency") || val__has(name, "time");
	if (!bw && timed && op >= 0 && !strchr(name, '@')) {
		/* a size in K/M/G anywhere; bytes ("8B") only right after the word
		 * "time" or "latency" ("time per layer (Llama 3 8B)" is a model) */
		double b = val__has(name, "param") || val__has(name, "gradient") ||
		           val__has(name, "per layer") ? 0 : size_in_name(name);
		static const char *const words[] = {"latency ", "time "};
		for (size_t w = 0; w < 2 && b <= 0; w++) {
			const char *p = val__find(name, words[w]);
			if (!p || !isdigit((unsigned char)p[strlen(words[w])]))
				continue;
			char *e;
			double v = strtod(p + strlen(words[w]), &e);
			if (*e == 'B' && !isalnum((unsigned char)e[1]) && v >= 1)
				b = v;
		}
		if (b > 0) {
			c->coll_op = op;
			c->coll_algo = ALGO_AUTO;
			c->coll_bytes = b;
			return VM_COLL_TIME;
		}
	}
	if (!bw && !val__has(name, "latency") && !(strchr(name, '@') && val__has(name, "time")))
		return VM_NONE;
	if (op < 0 && !bw)
		return VM_NONE;     /* "decode_time@2K" is no collective */
	c->coll_op = op < 0 ? COLL_ALL_REDUCE : op;
	/* an algorithm named as what ran, not as what was off ("NVLS disabled") */
	c->coll_algo = val__has_token(name, "nvls") && !val__turned_off(name, "nvls") ? ALGO_NVLS
	             : val__has_token(name, "ring") ? ALGO_RING
	             : val__has_token(name, "tree") ? ALGO_TREE : ALGO_AUTO;
	const char *at = strchr(name, '@');
	if (at) {
		c->coll_bytes = coll_size(at + 1);
		if (c->coll_bytes <= 0)
			return VM_NONE;
		return alg ? VM_COLL_ALGBW : bus ? VM_COLL_BUSBW : VM_COLL_TIME;
	}
	/* "Avg bus bandwidth (8B to 8GB)": nccl-tests' mean over its sweep */
	const char *avgw = val__find(name, "avg bus bandwidth");
	if (!avgw)
		avgw = val__find(name, "average bus bandwidth");
	if (avgw) {
		const char *p = avgw;
		while (*p && !isdigit((unsigned char)*p))
			p++;
		const char *to = *p ? val__find(p, " to ") : NULL;
		if (!to && *p)
			to = strchr(p, '-');
		c->coll_op = op < 0 ? COLL_ALL_REDUCE : op;
		c->coll_algo = ALGO_AUTO;
		c->coll_bytes = *p ? coll_size(p) : 0;
		c->coll_bytes_hi = to ? coll_size(to + (*to == '-' ? 1 : 4)) : 0;
		if (c->coll_bytes <= 0 || c->coll_bytes_hi < c->coll_bytes)
			return VM_NONE;
		return VM_COLL_AVG_BUSBW;
	}
	const char *avg = val__find(name, "avg_busbw_");
	if (avg) {
		const char *dash = strchr(avg + 10, '-');
		c->coll_bytes = coll_size(avg + 10);
		c->coll_bytes_hi = dash ? coll_size(dash + 1) : 0;
		if (c->coll_bytes <= 0 || c->coll_bytes_hi < c->coll_bytes)
			return VM_NONE;
		return VM_COLL_AVG_BUSBW;
	}
	if (val__has(name, "small_msg") && val__has(name, "latency")) {
		c->coll_bytes = 8;
		return VM_COLL_TIME;
	}
	if (val__has(name, "large_msg") || val__has_token(name, "large")) {
		c->coll_bytes = 1073741824.0;
		return alg ? VM_COLL_ALGBW : VM_COLL_BUSBW;
	}
	if (val__has(name, "peak_busbw") || val__has(name, "effective_nvlink_busbw")) {
		c->coll_bytes = 8589934592.0;
		return VM_COLL_BUSBW;
	}
	/* a sweep's peak ("allreduce_busbw_peak_1M-8G", "peak, 1M-8G sweep",
	 * "1MB to 8GB"): at its largest size, where a bus bandwidth peaks */
	if (val__has(name, "peak")) {
		double hi = sweep_top(name);
		if (hi > 0) {
			c->coll_bytes = hi;
			return alg ? VM_COLL_ALGBW : VM_COLL_BUSBW;
		}
	}
	/* "all_reduce busbw 8GB", "alltoall_busbw_1G" */
	double b = size_in_name(name);
	if (b > 0) {
		c->coll_bytes = b;
		return alg ? VM_COLL_ALGBW : bus ? VM_COLL_BUSBW : VM_COLL_TIME;
	}
	return VM_NONE;
}

/* Per GPU said of the unit's rate: its head (before any ';' or bracket), or
 * a clause of its notes that gives no other quantity per GPU ("samples/s
 * (README: 63.2 TFLOPS per GPU, 27GB VRAM/GPU)" is the job's rate). */
static bool per_gpu_words(const char *t)
{
	return val__has(t, "/gpu") || val__has(t, "per gpu") || val__has(t, "per-gpu") ||
	       per_device(t) || val__has_token(t, "tgs") || per_gpu_name(t);
}

/* Another quantity per GPU in a note: FLOPs, memory (a size in GB after a
 * number, not "GBS" or "GB200"), utilization, power. */
static bool other_quantity(const char *t)
{
	static const char *const other[] = {"FLOP", "VRAM", "memory", "MFU", "watt"};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		if (val__has(t, other[i]))
			return true;
	for (const char *p = strstr(t, "GB"); p; p = strstr(p + 2, "GB")) {
		const char *b = p;
		while (b > t && b[-1] == ' ')
			b--;
		if (b > t && isdigit((unsigned char)b[-1]) && !isalnum((unsigned char)p[2]))
			return true;
	}
	return false;
}

static bool unit_per_gpu(const char *unit)
{
	bool notes_other = other_quantity(unit);
	if (!notes_other)
		return per_gpu_words(unit);
	/* clause by clause: the head's own, then each note not of another quantity */
	size_t head = strcspn(unit, ";(");
	for (const char *c = unit; *c;) {
		size_t k = c == unit ? head : strcspn(c, ",;()");
		char clause[160];
		snprintf(clause, sizeof clause, "%.*s", (int)(k < sizeof clause ? k : sizeof clause - 1), c);
		bool elsewhere = c != unit && other_quantity(clause);
		if (per_gpu_words(clause) && !elsewhere)
			return true;
		c += k;
		while (*c && strchr(",;()", *c))
			c++;
	}
	return false;
}

/* Tokens or samples per second published per GPU: the metric or the unit
 * says so ("tokens_per_sec_per_gpu", "tokens/s/GPU", "per GPU", "per-GPU",
 * "Tokens / sec / GPU", "tokens/(GPU·s)", or of a device, chip or
 * accelerator: "tokens/s/device", "per chip"). */
bool val__per_gpu(const val_row *r)
{
	/* torchtitan's WPS is each rank's tokens over its model-parallel size;
	 * InternEvo's TGS is tokens per GPU and second */
	/* metaseq's wps summed over its workers is the job's */
	bool whole = false;
	const char *t[] = {r->unit, r->metric, r->other};
	for (size_t i = 0; i < 3 && !whole; i++)
		whole = val__has(t[i], "all workers") || val__has(t[i], "whole job") ||
		        val__has(t[i], "summed over") ||
		        (val__has(t[i], "all ") && val__has(t[i], " GPUs)")) || (i == 0 && val__has(t[i], "total"));
	/* a unit that says the whole job's ("samples/s whole job (= 31,365
	 * tokens/s/GPU)") is not made per GPU by a conversion it notes; the
	 * metric's name still can be */
	char head[128];   /* the unit's own rate, before its notes */
	snprintf(head, sizeof head, "%.*s", (int)strcspn(r->unit, ";("), r->unit);
	bool head_per_gpu = val__has(head, "/gpu") || val__has(head, "per gpu") ||
	                    val__has(head, "per-gpu") || per_device(head) ||
	                    val__has_token(head, "tgs") || per_gpu_name(head);
	bool unit_whole = val__has(r->unit, "whole job") || val__has(r->unit, "all workers");
	if (unit_whole && !head_per_gpu)
		return val__has(r->metric, "per_gpu") || val__has(r->metric, "/gpu") ||
		       val__has(r->metric, "per gpu") || per_device(r->metric) ||
		       val__has_token(r->metric, "tgs") || per_gpu_name(r->metric);
	return val__has(r->metric, "per_gpu") || val__has(r->metric, "/gpu") ||
	       val__has(r->metric, "per gpu") || (val__has_token(r->metric, "wps") && !whole) ||
	       unit_per_gpu(r->unit) || per_device(r->metric) || val__has_token(r->metric, "tgs") ||
	       per_gpu_name(r->metric) ||
	       /* torchtitan's logged "tps": tokens per second per device */
	       (val__has_token(r->metric, "tps") && val__names(r, "torchtitan"));
}

/* A rate per node: "throughput per node", "tokens/s/node", "per-node". */
bool val__per_node(const val_row *r)
{
	const char *t[] = {r->metric, r->unit};
	for (size_t i = 0; i < 2; i++)
		if (val__has(t[i], "per node") || val__has(t[i], "per_node") ||
		    val__has(t[i], "per-node") || val__has(t[i], "/node"))
			return true;
	return false;
}

/* Why a metric is not predicted here, for the list of rows not simulated. */
const char *val__not_predicted(const char *name)
{
	/* "GPU hours", "gpu_hours", "GPU-hours", "node hours": what a run costs */
	static const char *const cost[] = {"gpu_hour", "gpu hour", "gpu-hour", "gpuhour", "node_hour",
		"node hour", "node-hour"};
	for (size_t i = 0; i < sizeof cost / sizeof cost[0]; i++)
		if (val__has(name, cost[i]))
			return "a cost in GPU-hours, not a step's figure";
	if (val__has(name, "interrupt") || val__has(name, "failure") || val__has(name, "mtbf") || val__has(name, "hours") ||
	    val__has(name, "effective_training") || val__has(name, "goodput"))
		return "failure statistics, not a step";
	/* hypercube_perf: not among trainsim's ops */
	bool bench = val__has(name, "busbw") || val__has(name, "algbw") || val__has(name, "_perf") ||
	             val__has(name, "bus bandwidth");
	if (val__has(name, "hypercube") && bench)
		return "a hypercube: trainsim's collectives are all_reduce, all_gather, "
		       "reduce_scatter, all_to_all, broadcast, reduce, sendrecv, gather and scatter";
	if (val__has(name, "busbw") || val__has(name, "allreduce") || val__has(name, "nvlink") ||
	    val__has_token(name, "nic") ||
	    val__has(name, "bisection"))
		return "a collective/link benchmark: compare with `trainsim nccl`";
	if (val__has(name, "checkpoint") || val__has(name, "save") || val__has(name, "load") || val__has(name, "nvme") ||
	    val__has(name, "h2d"))
		return "storage/checkpoint I/O, not predicted by validate";
	if (val__has(name, "scaling_eff") || val__has(name, "eff"))
		return "relative to another row (scaling efficiency)";
	return "metric not predicted by validate";
}

/* The scale of a count written before a rate's unit, in any case: "k
 * tokens/s", "Mtok/s", "B tokens/day" and "Gtokens/day" (1e9), "T
 * tokens/day", "million tokens/s", "billion tokens per day", "k samples/s".
 * 0 when none. */
static double count_prefix(const char *u)
{
	static const struct { const char *p; double f; } pre[] = {
		{"thousand", 1e3}, {"million", 1e6}, {"billion", 1e9}, {"trillion", 1e12},
		{"k", 1e3}, {"M", 1e6}, {"B", 1e9}, {"G", 1e9}, {"T", 1e12}};
	static const char *const counts[] = {"tok", "sample", "seq"};
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		size_t n = strlen(pre[i].p);
		if (strncasecmp(u, pre[i].p, n))
			continue;
		const char *c = u + n;
		while (*c == ' ')
			c++;
		for (size_t j = 0; j < sizeof counts / sizeof counts[0]; j++)
			if (!strncasecmp(c, counts[j], strlen(counts[j])))
				return pre[i].f;
	}
	return 0;
}

/* Whether a unit's leading word is a time ("ms", "us", "s", "seconds"). */
bool val__time_unit(const char *u)
{
	static const char *const times[] = {"milliseconds", "millisecond", "millisec", "msec",
		"ms", "microseconds", "microsec", "usec", "us", "\xc2\xb5s", "\xce\xbcs", "minutes",
		"min", "hours", "hour", "seconds", "second", "sec", "s"};
	while (isspace((unsigned char)*u))
		u++;
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		size_t len = strlen(times[i]);
		if (!strncasecmp(u, times[i], len) &&
		    (!isalpha((unsigned char)u[len]) ||
		     (tolower((unsigned char)u[len]) == 's' && !isalpha((unsigned char)u[len + 1]))))
			return true;
	}
	return false;
}

/* Published unit -> SI factor, from the unit's leading token (any case:
 * "TFLOP/s", "TFLOPS", "TFLOPs/GPU", "teraFLOP/s"; "ms", "msec",
 * "milliseconds", "us", "µs"; a count's scale: "k tokens/s", "Mtok/s",
 * "B tokens/day", "million tokens/s" (count_prefix); "MB/s"), a lower-case b
 * meaning bits ("Gb/s", "gbps"), and a rate's denominator ("/min", "/hour",
 * "-hour", "/day", "per day"). An
 * empty or unknown unit takes the metric's usual one: TFLOP/s for TFLOP/s
 * metrics, PFLOP/s for aggregates, seconds for times, GB/s and us for
 * nccl-tests rows; MFU, HFU and % of peak given as a fraction (<= 1 with no
 * '%') are scaled to percent. */
double val__unit_scale(const char *u, val_metric m, double value)
{
	static const struct { const char *p; double f; } units[] = {
		{"milliseconds", 1e-3}, {"millisecond", 1e-3}, {"millisec", 1e-3}, {"msec", 1e-3},
		{"ms", 1e-3}, {"microseconds", 1e-6}, {"microsec", 1e-6}, {"usec", 1e-6},
		{"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"\xce\xbcs", 1e-6}, {"TFLOP", 1e12},
		{"PFLOP", 1e15}, {"EFLOP", 1e18}, {"GFLOP", 1e9}, {"teraflop", 1e12},
		{"petaflop", 1e15}, {"exaflop", 1e18},
		{"gigaflop", 1e9}, {"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6},
		{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"tokens", 1}, {"tok", 1}, {"samples", 1},
		{"seq", 1}, {"minutes", 60}, {"min", 60}, {"hours", 3600}, {"hour", 3600},
		{"seconds", 1}, {"second", 1}, {"sec", 1}, {"s", 1}, {"%", 1}};
	while (isspace((unsigned char)*u))
		u++;
	if ((u[0] == 'G' || u[0] == 'g') && u[1] == 'b')
		return 1e9 / 8;      /* bits: a lower-case b (GB/s is bytes) */
	bool pct = m == VM_MFU || m == VM_HFU || m == VM_PCT_PEAK || m == VM_RECOMPUTE_GAIN ||
	           m == VM_SCALING_EFF;
	if (pct)
		return !strchr(u, '%') && value > 0 && value <= 1 ? 100 : 1;
	double per = 1;          /* a rate's denominator in seconds */
	if (m == VM_TOKENS || m == VM_SAMPLES) {
		if (val__has(u, "/min") || val__has(u, "per min"))
			per = 60;
		else if (val__has(u, "/day") || val__has(u, "per day"))
			per = 86400;
		else if (slash_hour(u) || val__has(u, "-hour") || val__has(u, "per hour"))
			per = 3600;
	}
	double count = count_prefix(u);
	if (count > 0)
		return count / per;
	/* a count's scale alone ("K" in a unit column beside "tokens/s/GPU"), or
	 * after the unit ("tokens/s, K", "tokens/s (k)") */
	if (m == VM_TOKENS || m == VM_SAMPLES) {
		static const struct { const char *w; double f; } alone[] = {{"k", 1e3}, {"K", 1e3},
			{"M", 1e6}, {"thousand", 1e3}, {"thousands", 1e3}, {"million", 1e6}};
		for (size_t i = 0; i < sizeof alone / sizeof alone[0]; i++) {
			size_t n = strlen(alone[i].w);
			const char *e = u + strlen(u);
			while (e > u && e[-1] == ' ')
				e--;
			bool bracket = e > u && (e[-1] == ')' || e[-1] == ']');
			if (bracket)
				e--;
			while (e > u && e[-1] == ' ')
				e--;
			if ((size_t)(e - u) < n || strncmp(e - n, alone[i].w, n))
				continue;
			const char *b = e - n;   /* what stands before the scale */
			while (b > u && b[-1] == ' ')
				b--;
			if (b == u || (bracket && strchr("([", b[-1])) || (!bracket && b[-1] == ','))
				return alone[i].f / per;   /* "K", "tokens/s (k)", "tokens/s, K" */
		}
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t len = strlen(units[i].p);
		if (strncasecmp(u, units[i].p, len))
			continue;
		/* a time's word ends there ("us" is not "user-reported", "s" not
		 * "steps"), a plural s allowed ("secs", "mins") */
		if (val__time_unit(units[i].p) && isalpha((unsigned char)u[len]) &&
		    !(tolower((unsigned char)u[len]) == 's' && !isalpha((unsigned char)u[len + 1])))
			continue;
		return units[i].f / per;
	}
	if (u[0] == 'h' && !isalpha((unsigned char)u[1]))
		return 3600;
	switch (m) {
	case VM_HW_TFLOPS:
	case VM_MODEL_TFLOPS:
	case VM_GEMM:
	case VM_FLASH_FWD:
	case VM_FLASH_BWD:
		return 1e12;
	case VM_AGG_PFLOPS:
		return 1e15;
	case VM_COLL_BUSBW:
	case VM_COLL_ALGBW:
	case VM_COLL_AVG_BUSBW:
		return 1e9;          /* nccl-tests prints GB/s */
	case VM_COLL_TIME:
		return 1e-6;         /* and microseconds */
	default:
		return 1 / per;
	}
}

/* Rows whose measurement set a constant of the compute model (compute.c):
 * their agreement is by construction, and the report says so. */
bool val__param_source(const val_row *r, val_metric m)
{
	const char *id = r->id;
	/* H200K: the GEMMs of transformer-layer shapes (tagged "model/gemm")
	 * and the fused-attention rows measured on the lent H200 set compute.c's
	 * Hopper constants (H200_SUSTAIN, H200_FP8_RATIO, the attention size
	 * curve); its sweeps, copy and layer rows set nothing */
	if (!strncmp(id, "H200K-", 6) && ((m == VM_GEMM && strchr(r->other, '/')) ||
	                                  m == VM_FLASH_FWD || m == VM_FLASH_BWD))
		return true;
	/* NCCL-TCP: hw.c's TCP efficiency and its sharing law (NVIDIA/nccl #209);
	 * AZX-067 / AZX-219 / AZX-166 (tests/validation/azure.csv):
	 * FlashAttention-2 on H100, GB200 and MI300X, compute.c's FA2_*_FWD;
	 * AZX-204..207 / 209: GB200 fp8 GEMMs, compute.c's BLACKWELL_SUSTAIN;
	 * AZX-213..216: GB200 fp4 GEMMs, compute.c's BLACKWELL_FP4_RATIO;
	 * AZX-161: MI300X STREAM copy, hw.c's MI300X hbm_eff;
	 * the SHM transport's rate per architecture (hw.c, arch_shm_Bps):
	 * RTX5090X16-005 (Blackwell RTX), B4090SHM25-004 (Ada), A40NODE9-001
	 * (Ampere), RTX2080TI6-006 (Turing), and B4090SHM25-012 the copy
	 * engines' (hw_shm_copy_engine_eff) */
	static const char *ids[] = {"HW-AZ-001", "HW-AZ-002", "HW-AZ-003", "HW-AZ-004",
	                            "NCCL-TCP-001", "NCCL-TCP-002", "NCCL-TCP-003",
	                            "AZX-067", "AZX-219", "AZX-166", "AZX-204", "AZX-205",
	                            "AZX-206", "AZX-207", "AZX-209", "AZX-161", "AZX-213",
	                            "AZX-214", "AZX-215", "AZX-216", "RTX5090X16-005",
	                            "B4090SHM25-004", "A40NODE9-001", "RTX2080TI6-006",
	                            "B4090SHM25-012"};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (!strcmp(id, ids[i]))
			return true;
	return false;
}

