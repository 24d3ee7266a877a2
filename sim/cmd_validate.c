/* cmd_validate.c: `trainsim validate`: simulates every row of published.csv
 * that describes a training run (or a kernel the workload models) and prints
 * published against predicted, the error per row, per family and for the goal
 * families; rows it cannot simulate are listed with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <math.h>
#include "cli.h"
#include "json.h"
#include "coll.h"
#include "scn.h"
#include "validate.h"
#include "workload.h"

typedef struct outcome {
	const val_row *row;
	char config[128];
	int status;              /* 0 predicted, 1 not simulated, 2 simulation failed */
	double published, predicted, err_pct;   /* in the published unit */
	const char *unit;        /* that unit: the row's, or what it was compared in */
	bool param_source;
	bool nofit;              /* the layout does not fit in GPU memory (predicted anyway) */
	bool capped;             /* the row's GPUs ran under a power cap (val_power_capped) */
	double mem_gb, cap_gb;
	val_metric metric;
	int coll_op;             /* VM_COLL_*: coll_op of coll.h */
	double coll_bytes;       /* VM_COLL_*: the collective's size */
	char gpu[48];            /* the catalog's GPU the row ran on */
	bool moe;                /* a mixture of experts */
	char why[200];
} outcome;

/* Error of a prediction in %. A published "increase of X %" is compared as
 * the ratio 1 + X/100 it stands for: a relative error of the difference
 * alone would magnify a 1% miss on the ratio into 10% on a 10% increase. */
static double error_pct(val_metric m, double pred, double pub)
{
	if (m == VM_RECOMPUTE_GAIN)
		return 100 * ((1 + pred / 100) / (1 + pub / 100) - 1);
	return 100 * (pred - pub) / pub;
}

static const char *default_paths[] = {
	"tests/validation/published.csv",
	"../tests/validation/published.csv",
};

/* Whether path can be read. */
static bool readable(const char *path)
{
	FILE *f = fopen(path, "r");
	if (f)
		fclose(f);
	return f != NULL;
}

/* The CSV to read when none is given: $TRAINSIM_DATADIR, the source tree
 * (cwd or the build directory below it, or $top_srcdir), the source tree
 * beside the program itself, the installed copy. */
static const char *default_path(char *buf, size_t n)
{
	/* TRAINSIM_DATADIR: the data folder (holding validation/) or the
	 * validation folder itself */
	const char *env[] = {"TRAINSIM_DATADIR", "TRAINSIM_DATADIR", "top_srcdir"};
	const char *sub[] = {"/validation/published.csv", "/published.csv",
		"/tests/validation/published.csv"};
	for (int i = 0; i < 3; i++) {
		const char *d = getenv(env[i]);
		if (!d || !*d)
			continue;
		snprintf(buf, n, "%s%s", d, sub[i]);
		FILE *f = fopen(buf, "r");
		if (f) {
			fclose(f);
			return buf;
		}
	}
	for (size_t i = 0; i < sizeof default_paths / sizeof default_paths[0]; i++)
		if (readable(default_paths[i]))
			return default_paths[i];
	/* beside the program itself (run from elsewhere as SRC/trainsim or
	 * SRC/build/trainsim): Linux's /proc/self/exe, where there is one; a
	 * path too long for the buffer is not guessed at */
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe);
	if (len > 0 && (size_t)len < sizeof exe) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		const char *rel[] = {"/tests/validation/published.csv",
			"/../tests/validation/published.csv"};
		for (int i = 0; i < 2; i++)
			if ((size_t)snprintf(buf, n, "%s%s", exe, rel[i]) < n && readable(buf))
				return buf;
	}
	static const char installed[] = TRAINSIM_DATADIR "/validation/published.csv";
	return readable(installed) ? installed : NULL;
}

static bool selected(const char *id, const char *only)
{
	if (!only)
		return true;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", only);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strncmp(id, tok, strlen(tok)))
			return true;
	return false;
}

/* Row i of rows[0..n): built, predicted (a scaling efficiency against its
 * series' baseline row), compared. */
static void evaluate(const val_row *rows, size_t n, size_t i, val_cache *cache, outcome *o)
{
	const val_row *r = &rows[i];
	val_case c;
	memset(o, 0, sizeof *o);
	o->row = r;
	o->published = r->value;
	if (val_build(r, &c, o->why, sizeof o->why) < 0) {
		o->status = 1;
		return;
	}
	if (c.metric == VM_SCALING_EFF &&
	    val_link_baseline(rows, n, i, &c, o->why, sizeof o->why) < 0) {
		o->status = 1;
		scn_release(&c.s);
		return;
	}
	snprintf(o->config, sizeof o->config, "%s", c.config);
	o->param_source = c.param_source;
	/* a cap the row gives in watts is simulated (gpu.power_limit); one it
	 * only names is marked */
	double said = val_power_limit_w(r);   /* a limit at the rating caps nothing */
	o->capped = val_power_capped(r) && c.s.cluster.gpu.power_limit_w <= 0 &&
	            !(said > 0 && c.s.cluster.gpu.tdp_w > 0 && said >= c.s.cluster.gpu.tdp_w);
	o->metric = c.metric;
	o->unit = c.unit;
	snprintf(o->gpu, sizeof o->gpu, "%s", c.s.cluster.gpu.name);
	o->moe = c.s.model.experts > 1;
	o->coll_bytes = c.coll_bytes;
	o->coll_op = c.coll_op;
	double pred;
	char err[160];
	if (val_predict(&c, cache, &pred, err, sizeof err) < 0) {
		o->status = 2;
		snprintf(o->why, sizeof o->why, "simulation failed: %s", err);
	} else {
		o->published = c.published_si / c.unit_scale;
		o->predicted = pred / c.unit_scale;
		o->err_pct = error_pct(c.metric, o->predicted, o->published);
		if (val_step_metric(c.metric)) {
			wl_memory m;
			wl_memory_get(&c.s, &m);
			o->nofit = !m.fits;
			o->mem_gb = m.total / 1e9;
			o->cap_gb = m.capacity / 1e9;
		}
	}
	scn_release(&c.s);
	if (c.has_base)
		scn_release(&c.base);
}

typedef struct famstat {
	const char *family;
	int n;
	double sum_abs, worst;
	const char *worst_id;
} famstat;

static void stat_add(famstat *f, const outcome *o)
{
	f->n++;
	f->sum_abs += fabs(o->err_pct);
	if (fabs(o->err_pct) >= fabs(f->worst) || !f->worst_id) {
		f->worst = o->err_pct;
		f->worst_id = o->row->id;
	}
}

/* Issue 3's goal: all_reduce bus bandwidth by size on one node (NCCL-AZ,
 * NCCL-DGXH100), as the geometric mean of |ln(predicted / published)|
 * (expressed as a %) over every size and over sizes >= 64 MB. */
static void print_coll_goal(FILE *out, const outcome *o, size_t n)
{
	double sum = 0, sum_big = 0;
	int k = 0, k_big = 0;
	for (size_t i = 0; i < n; i++) {
		if (o[i].status != 0 || o[i].param_source || o[i].metric != VM_COLL_BUSBW ||
		    o[i].coll_op != COLL_ALL_REDUCE ||
		    !val_coll_goal_family(o[i].row->family) || !strchr(o[i].row->metric, '@') ||
		    !(o[i].published > 0) || !(o[i].predicted > 0))
			continue;
		double l = fabs(log(o[i].predicted / o[i].published));
		sum += l, k++;
		if (o[i].coll_bytes >= 67108864.0)
			sum_big += l, k_big++;
	}
	if (!k)
		return;
	double all = 100 * (exp(sum / k) - 1), big = k_big ? 100 * (exp(sum_big / k_big) - 1) : 0;
	fprintf(out, "accuracy goal, all_reduce bus bandwidth on one 8-GPU node (NCCL-AZ + "
		"NCCL-DGXH100; geometric mean of |error| <= 15%% all sizes, <= 5%% >= 64 MB, "
		"docs/validation.md): %d rows %.1f%% (%s)", k, all,
		all <= 15 ? "met" : "not met");
	if (k_big)
		fprintf(out, ", %d rows >= 64 MB %.1f%% (%s)", k_big, big, big <= 5 ? "met" : "not met");
	fputc('\n', out);
}

static void print_stats(FILE *out, const outcome *o, size_t n)
{
	famstat *fams = calloc(n ? n : 1, sizeof *fams), goal = {"goal", 0, 0, 0, NULL};
	if (!fams)
		return;
	size_t nf = 0;   /* at most one family a row: none is left out */
	for (size_t i = 0; i < n; i++) {
		if (o[i].status != 0 || o[i].param_source)
			continue;
		size_t k;
		for (k = 0; k < nf; k++)
			if (!strcmp(fams[k].family, o[i].row->family))
				break;
		if (k == nf)
			fams[nf++].family = o[i].row->family;
		stat_add(&fams[k], &o[i]);
		if (val_goal_family(o[i].row->family))
			stat_add(&goal, &o[i]);
	}
	fprintf(out, "\n%-12s %5s %10s  %s\n", "family", "rows", "mean|err|", "worst");
	for (size_t k = 0; k < nf; k++)
		fprintf(out, "%-12s %5d %9.1f%%  %+.1f%% (%s)\n", fams[k].family, fams[k].n,
			fams[k].sum_abs / fams[k].n, fams[k].worst, fams[k].worst_id);
	free(fams);
	if (goal.n)
		fprintf(out, "\naccuracy goal, Megatron-LM training runs (MEG21T1 + KOR22; mean "
			"|error| <= 3%%, worst <= 6%%, docs/validation.md): %d rows, mean |error| "
			"%.1f%%, worst %+.1f%% (%s): %s\n", goal.n,
			goal.sum_abs / goal.n, goal.worst, goal.worst_id,
			goal.sum_abs / goal.n <= 3 && fabs(goal.worst) <= 6 ? "met" : "not met");
	print_coll_goal(out, o, n);
}

/* Not-simulated rows, runs of one family with one reason folded into a line. */
static void print_skipped(FILE *out, const outcome *o, size_t n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof *idx), k = 0;
	if (!idx)
		return;
	for (size_t i = 0; i < n; i++)
		if (o[i].status != 0)
			idx[k++] = i;
	if (k)
		fprintf(out, "\nnot simulated (%zu rows):\n", k);
	for (size_t a = 0; a < k;) {
		const outcome *f = &o[idx[a]];
		size_t b = a + 1;
		while (b < k && o[idx[b]].status == f->status && !strcmp(o[idx[b]].why, f->why) &&
		       !strcmp(o[idx[b]].row->family, f->row->family))
			b++;
		if (b - a == 1)
			fprintf(out, "  %-24s %-28s %s\n", f->row->id, f->row->metric, f->why);
		else
			fprintf(out, "  %s .. %s (%zu rows): %s\n", f->row->id, o[idx[b - 1]].row->id,
				b - a, f->why);
		a = b;
	}
	free(idx);
}

static void print_text(FILE *out, const char *path, const outcome *o, size_t n)
{
	fprintf(out, "trainsim validate: %s\n", path);
	fprintf(out, "'*' = a value the row does not give was inferred (docs/validation.md); "
		"'(param)' = the row set a model constant, agreement by construction; "
		"'(no fit)' = the layout does not fit in GPU memory, predicted as if it did; "
		"'(power cap)' = the GPUs ran under a power limit not given in watts, predicted at full "
		"power\n\n");
	/* columns as wide as their longest entry (ids and layouts vary by source) */
	int wid = 12, wcfg = 52, wmet = 26;
	enum { WMET_MAX = 44 };   /* a longer metric is cut, its last character '~' */
	for (size_t i = 0; i < n; i++) {
		if (o[i].status != 0)
			continue;
		int a = (int)strlen(o[i].row->id), b = (int)strlen(o[i].config);
		int c = (int)strlen(o[i].row->metric);
		wid = a > wid ? a : wid;
		wcfg = b > wcfg ? b : wcfg;
		wmet = c > wmet ? (c < WMET_MAX ? c : WMET_MAX) : wmet;
	}
	fprintf(out, "%-*s %-*s %-*s %11s %11s %8s\n", wid, "id", wcfg, "config", wmet, "metric",
		"published", "predicted", "error");
	for (size_t i = 0; i < n; i++) {
		if (o[i].status != 0)
			continue;
		char met[WMET_MAX + 1];
		snprintf(met, sizeof met, "%.*s", (int)WMET_MAX, o[i].row->metric);
		if (strlen(o[i].row->metric) > WMET_MAX)
			met[WMET_MAX - 1] = '~';
		fprintf(out, "%-*s %-*s %-*s %11.4g %11.4g %+7.1f%%%s%s%s\n", wid, o[i].row->id,
			wcfg, o[i].config, wmet, met, o[i].published, o[i].predicted,
			o[i].err_pct, o[i].param_source ? " (param)" : "", o[i].nofit ? " (no fit)" : "",
			o[i].capped ? " (power cap)" : "");
	}
	print_stats(out, o, n);
	print_skipped(out, o, n);
}

static void csv_field(FILE *out, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

static void print_csv(FILE *out, const outcome *o, size_t n)
{
	static const char *status[] = {"ok", "not_simulated", "failed"};
	fprintf(out, "id,family,config,metric,unit,published,predicted,error_pct,status,note\n");
	for (size_t i = 0; i < n; i++) {
		char pub[32], pred[32] = "", err[32] = "";
		json_fmt_num(pub, sizeof pub, o[i].published);
		if (o[i].status == 0) {
			json_fmt_num(pred, sizeof pred, o[i].predicted);
			json_fmt_num(err, sizeof err, round(o[i].err_pct * 100) / 100);
		}
		csv_field(out, o[i].row->id, false);
		csv_field(out, o[i].row->family, false);
		csv_field(out, o[i].config, false);
		csv_field(out, o[i].row->metric, false);
		csv_field(out, o[i].unit ? o[i].unit : o[i].row->unit, false);
		csv_field(out, pub, false);
		csv_field(out, pred, false);
		csv_field(out, err, false);
		csv_field(out, status[o[i].status], false);
		char note[160] = "";
		if (o[i].status == 0 && o[i].nofit)
			snprintf(note, sizeof note, "does not fit in GPU memory (%.0f of %.0f GB); "
			         "predicted as if it did", o[i].mem_gb, o[i].cap_gb);
		if (o[i].status == 0 && o[i].capped)
			snprintf(note + strlen(note), sizeof note - strlen(note), "%sGPUs power-capped; "
			         "predicted at full power", note[0] ? "; " : "");
		csv_field(out, o[i].status ? o[i].why : o[i].param_source ? "param source" : note,
		          true);
	}
}

/* ---- --by-gpu: how far the step predictions of each GPU kind err ---- */

/* A training step's speed error of a predicted row, in %: + when trainsim
 * predicts the step faster than published (a rate above it, a time below);
 * NAN for a metric that is not a step's speed (a ratio to a baseline, a
 * recomputation gain, kernels, collectives). */
static double speed_error_pct(const outcome *o)
{
	if (o->status != 0 || o->param_source || !(o->published > 0) || !(o->predicted > 0) ||
	    !val_step_metric(o->metric) || o->metric == VM_RECOMPUTE_GAIN ||
	    o->metric == VM_SCALING_EFF)
		return NAN;
	if (o->metric == VM_ITER_TIME)
		return 100 * (o->published / o->predicted - 1);
	return 100 * (o->predicted / o->published - 1);
}

typedef struct run_err {
	const char *gpu, *family, *config;
	bool moe;
	double err;   /* the run's speed error (its rows' mean) */
	int nrows;
} run_err;

static int run_err_cmp(const void *a, const void *b)
{
	const run_err *x = a, *y = b;
	int c = strcmp(x->gpu, y->gpu);
	if (!c)
		c = (int)x->moe - (int)y->moe;
	if (!c)
		c = (x->err > y->err) - (x->err < y->err);
	return c;
}

/* The runs of o[0..n): one per (family, layout), the speed errors of its
 * rows averaged (a run's time and TFLOP/s rows are one measurement).
 * Returns how many, in *runs (freed by the caller). */
static size_t collect_runs(const outcome *o, size_t n, run_err **runs)
{
	run_err *r = calloc(n ? n : 1, sizeof *r);
	size_t k = 0;
	if (!r)
		return *runs = NULL, 0;
	for (size_t i = 0; i < n; i++) {
		double e = speed_error_pct(&o[i]);
		if (isnan(e) || o[i].capped)   /* a cap not given in watts: not the GPU's figure */
			continue;
		size_t j = 0;
		while (j < k && (strcmp(r[j].family, o[i].row->family) || strcmp(r[j].config, o[i].config)))
			j++;
		if (j == k)
			r[k++] = (run_err){o[i].gpu, o[i].row->family, o[i].config, o[i].moe, 0, 0};
		r[j].err += e;
		r[j].nrows++;
	}
	for (size_t j = 0; j < k; j++)
		r[j].err /= r[j].nrows;
	qsort(r, k, sizeof *r, run_err_cmp);
	*runs = r;
	return k;
}

/* The quantile q of sorted v[0..n) (linear between order statistics). */
static double quantile(const double *v, size_t n, double q)
{
	double x = q * (double)(n - 1);
	size_t i = (size_t)x;
	return i + 1 < n ? v[i] + (x - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

static void print_by_gpu(FILE *out, const outcome *o, size_t n, bool csv)
{
	run_err *r;
	size_t k = collect_runs(o, n, &r);
	double *v = malloc((k ? k : 1) * sizeof *v);
	if (!r || !v) {
		free(r);
		free(v);
		return;
	}
	if (csv)
		fputs("gpu,model,runs,families,median_pct,q1_pct,q3_pct\n", out);
	else
		fprintf(out, "speed of a training step by GPU kind: + when trainsim predicts it faster "
		        "than published\n(one run per layout; its rows' errors averaged)\n\n"
		        "%-22s %-6s %5s %8s %8s   %s\n", "gpu", "model", "runs", "families",
		        "median", "middle half");
	for (size_t a = 0, b; a < k; a = b) {
		size_t nf = 0;
		for (b = a; b < k && !strcmp(r[b].gpu, r[a].gpu) && r[b].moe == r[a].moe; b++) {
			v[b - a] = r[b].err;
			bool seen = false;   /* families counted once */
			for (size_t c = a; c < b && !seen; c++)
				seen = !strcmp(r[c].family, r[b].family);
			nf += !seen;
		}
		size_t m = b - a;
		double med = quantile(v, m, 0.5), q1 = quantile(v, m, 0.25), q3 = quantile(v, m, 0.75);
		if (csv)
			fprintf(out, "%s,%s,%zu,%zu,%.1f,%.1f,%.1f\n", r[a].gpu, r[a].moe ? "moe" : "dense",
			        m, nf, med, q1, q3);
		else
			fprintf(out, "%-22s %-6s %5zu %8zu %+7.1f%%   %+.1f .. %+.1f%%\n", r[a].gpu,
			        r[a].moe ? "moe" : "dense", m, nf, med, q1, q3);
	}
	free(v);
	free(r);
}

/* To stdout and 0 when asked (--help), to stderr and 2 on a usage error. */
static int usage(bool asked)
{
	fprintf(asked ? stdout : stderr, "usage: trainsim validate [PUBLISHED.csv...] [--format text|csv] "
		"[--only PREFIX[,PREFIX...]] [--show ID] [--by-gpu]\n");
	if (asked)
		fputs("  PUBLISHED.csv...        the published runs to predict (default: published.csv\n"
		      "                          of tests/validation, or the installed copy); several\n"
		      "                          files are read as one\n"
		      "  --format text|csv       a table with each row's error and a summary (default),\n"
		      "                          or one CSV row per published row\n"
		      "  --by-gpu                instead, how far the predicted speed of a training step\n"
		      "                          errs, by GPU kind and dense or MoE model: the median\n"
		      "                          and the middle half of the runs' errors\n"
		      "  --only PREFIX,...       only the rows whose id starts with one of the prefixes\n"
		      "  --show ID               print the scenario row ID becomes, as YAML that\n"
		      "                          trainsim run takes, or why it is not simulated\n"
		      "  -h, --help              this help\n", stdout);
	return asked ? 0 : 2;
}

/* --show ID: the scenario a row becomes (with its inferred values), as YAML
 * that `trainsim run` takes, or why the row is not simulated. */
static int show_row(const val_row *rows, size_t n, const char *id)
{
	/* the id as written, else without regard to case (meg21t1-021) */
	size_t at = n;
	for (size_t i = 0; i < n && at == n; i++)
		if (!strcmp(rows[i].id, id))
			at = i;
	for (size_t i = 0; i < n && at == n; i++)
		if (!strcasecmp(rows[i].id, id))
			at = i;
	for (size_t i = at; i < n; i++) {
		id = rows[i].id;
		val_case c;
		char why[256];
		if (val_build(&rows[i], &c, why, sizeof why) < 0) {
			printf("# %s: not simulated: %s\n", id, why);
			return 0;
		}
		if (c.metric == VM_SCALING_EFF &&
		    val_link_baseline(rows, n, i, &c, why, sizeof why) < 0) {
			printf("# %s: not simulated: %s\n", id, why);
			scn_release(&c.s);
			return 0;
		}
		printf("# %s (line %d): %s, compared as %s%s\n", id, rows[i].line, c.config,
		       rows[i].metric, c.assumed ? "; '*' values the row does not give were "
		       "inferred (docs/validation.md)" : "");
		printf("# read as %s%s: published %g %s = %g in SI units\n",
		       val_metric_describe(c.metric),
		       (c.metric == VM_TOKENS || c.metric == VM_SAMPLES) ?
		       (c.per_gpu ? " per GPU" : c.per_node ? " per node" : " of the whole job") : "",
		       rows[i].value, *rows[i].unit ? rows[i].unit : (c.unit ? c.unit : "(no unit)"),
		       c.published_si);
		if (c.metric >= VM_COLL_BUSBW && c.metric <= VM_COLL_AVG_BUSBW) {
			char g[16] = "";
			if (c.gpus_per_thread > 1)
				snprintf(g, sizeof g, " -g %d", c.gpus_per_thread);
			printf("# a benchmark row: save this as FILE and run `trainsim nccl FILE --op %s "
			       "-b %.0f -e %.0f%s%s%s` (the model and training below are placeholders)\n",
			       coll_op_name(c.coll_op), c.coll_bytes,
			       c.coll_bytes_hi > c.coll_bytes ? c.coll_bytes_hi : c.coll_bytes, g,
			       c.coll_algo == ALGO_AUTO ? "" : " --algo ",
			       c.coll_algo == ALGO_AUTO ? "" : coll_algo_name(c.coll_algo));
		}
		int rc = scn_write_yaml(&c.s, stdout) < 0 ? 1 : 0;
		scn_release(&c.s);
		if (c.has_base)
			scn_release(&c.base);
		return rc;
	}
	fprintf(stderr, "trainsim validate: no row '%s' in the file\n", id);
	return 1;
}

/* The rows of one file and their outcomes. */
typedef struct val_file {
	const char *path;
	val_row *rows;
	size_t n;
} val_file;

int cmd_validate(int argc, char **argv)
{
	const char *only = NULL, *show = NULL;
	const char **paths = calloc((size_t)argc + 1, sizeof *paths);
	size_t npaths = 0;
	bool csv = false, by_gpu = false;
	if (!paths) {
		fprintf(stderr, "trainsim validate: out of memory\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			const char *f = argv[++i];
			if (strcmp(f, "text") && strcmp(f, "csv")) {
				fprintf(stderr, "trainsim validate: --format takes text or csv, not '%s'\n", f);
				free(paths);
				return 2;
			}
			csv = !strcmp(f, "csv");
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
			if (!*only) {
				fprintf(stderr, "trainsim validate: --only needs an id prefix, e.g. "
				        "--only MEG21T1,KOR22\n");
				free(paths);
				return 2;
			}
		} else if (!strcmp(argv[i], "--show") && i + 1 < argc) {
			show = argv[++i];
		} else if (!strcmp(argv[i], "--by-gpu")) {
			by_gpu = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			free(paths);
			return usage(true);
		} else if (argv[i][0] == '-') {
			bool known = !strcmp(argv[i], "--format") || !strcmp(argv[i], "--only") ||
			             !strcmp(argv[i], "--show");
			fprintf(stderr, known ? "trainsim validate: %s needs a value\n"
			                      : "trainsim validate: unknown option %s\n", argv[i]);
			free(paths);
			return usage(false);
		} else {
			paths[npaths++] = argv[i];
		}
	}
	char buf[512];
	if (!npaths && !(paths[npaths++] = default_path(buf, sizeof buf))) {
		fprintf(stderr, "trainsim validate: no published.csv found (looked in $TRAINSIM_DATADIR "
			"and its validation/, tests/validation/, ../tests/validation/, the same beside "
			"the program, %s/validation/); give "
			"its path, as in trainsim validate SOURCE_TREE/tests/validation/published.csv\n",
			TRAINSIM_DATADIR);
		free(paths);
		return 1;
	}
	val_file *files = calloc(npaths, sizeof *files);
	outcome *o = NULL;
	val_cache *cache = val_cache_new();
	int rc = 1;
	size_t total = 0, m = 0;
	char err[512];
	if (!files || !cache) {
		fprintf(stderr, "trainsim validate: out of memory\n");
		goto out_free;
	}
	for (size_t f = 0; f < npaths; f++) {
		files[f].path = paths[f];
		if (val_read(paths[f], &files[f].rows, &files[f].n, err, sizeof err) < 0) {
			fprintf(stderr, "trainsim validate: %s\n", err);
			goto out_free;
		}
		total += files[f].n;
	}
	if (show) {
		for (size_t f = 0; f < npaths; f++) {
			bool here = false;
			for (size_t i = 0; i < files[f].n && !here; i++)
				here = !strcasecmp(files[f].rows[i].id, show);
			if (here || f + 1 == npaths) {
				rc = show_row(files[f].rows, files[f].n, show);
				break;
			}
		}
		goto out_free;
	}
	if (!(o = calloc(total ? total : 1, sizeof *o))) {
		fprintf(stderr, "trainsim validate: out of memory\n");
		goto out_free;
	}
	for (size_t f = 0; f < npaths; f++)
		for (size_t i = 0; i < files[f].n; i++)
			if (selected(files[f].rows[i].id, only))
				evaluate(files[f].rows, files[f].n, i, cache, &o[m++]);
	if (only && m == 0) {
		fprintf(stderr, "trainsim validate: no row of %s%s has an id starting with %s (ids "
			"look like %s)\n", paths[0], npaths > 1 ? " and the other files" : "", only,
			total ? files[0].rows[0].id : "MEG21T1-001");
		goto out_free;
	}
	if (by_gpu)
		print_by_gpu(stdout, o, m, csv);
	else if (csv)
		print_csv(stdout, o, m);
	else
		print_text(stdout, npaths > 1 ? "several files" : paths[0], o, m);
	rc = fflush(stdout) ? 1 : 0;
out_free:
	val_cache_free(cache);
	free(o);
	for (size_t f = 0; files && f < npaths; f++)
		free(files[f].rows);
	free(files);
	free(paths);
	return rc;
}
