/* cmd_compare.c: `trainsim compare`: two runs side by side, a scenario
 * against another or against itself with some keys changed (--with), each
 * figure of the report with B's change against A: the what-if question
 * asked once, without a sweep file. Exit status as cli.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "json.h"
#include "report.h"
#include "scn.h"
#include "step.h"
#include "units.h"

#define COMPARE_USAGE "usage: trainsim compare SCENARIO [SCENARIO_B] [--set KEY=VALUE]... " \
	"[--with KEY=VALUE]...\n       [--format text|json] [--max-events N] [-q]\n"
#define COMPARE_HELP \
	"  SCENARIO_B              the other scenario (default: SCENARIO with --with)\n" \
	"  --set KEY=VALUE         override a key in both runs (repeatable)\n" \
	"  --with KEY=VALUE        override a key in B only (repeatable)\n" \
	"  --format text|json      a table (default), or {\"a\": report, \"b\": report,\n" \
	"                          \"b_over_a\": ratios}\n" \
	"  --max-events N          refuse or stop a simulation past N events\n" \
	"  -q, --quiet             print no warnings about the scenarios\n" \
	"  -h, --help              this help\n"

typedef struct side {
	const char *path;
	const char **sets;           /* A's: the common --set */
	int nsets;
	scenario s;
	step_result r;
	bool loaded, ran;
} side;

typedef struct cmp_args {
	side a, b;
	const char **with;
	int nwith;
	bool json, quiet;
	uint64_t max_events;
} cmp_args;

static int usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "trainsim compare: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n" COMPARE_USAGE);
	return 2;
}

static int parse(int argc, char **argv, cmp_args *c)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			fputs(COMPARE_USAGE COMPARE_HELP, stdout);
			return -1;
		}
		if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
			c->quiet = true;
		} else if (!strcmp(o, "--set") || !strcmp(o, "--with")) {
			if (!v || !strchr(v, '='))
				return usage("%s needs KEY=VALUE, as in --with cluster.nic.speed=400Gbps", o);
			if (o[2] == 's')
				c->a.sets[c->a.nsets++] = v;
			else
				c->with[c->nwith++] = v;
			i++;
		} else if (!strcmp(o, "--format")) {
			if (!v || (strcmp(v, "text") && strcmp(v, "json")))
				return usage("--format takes text or json (got '%s')", v ? v : "");
			c->json = !strcmp(v, "json");
			i++;
		} else if (!strcmp(o, "--max-events")) {
			char *end;
			errno = 0;
			unsigned long long n = v ? strtoull(v, &end, 10) : 0;
			if (!v || *end || errno || n == 0 || *v == '-')
				return usage("--max-events takes a count, as in --max-events 100000000%s", "");
			c->max_events = n;
			i++;
		} else if (o[0] == '-' && o[1]) {
			return usage("unknown option '%s' (--set, --with, --format, --max-events, -q)", o);
		} else if (!c->a.path) {
			c->a.path = o;
		} else if (!c->b.path) {
			c->b.path = o;
		} else {
			return usage("two scenarios at most (got a third: '%s')", o);
		}
	}
	if (!c->a.path)
		return usage("no scenario given%s", "");
	if (!c->b.path && c->nwith == 0)
		return usage("nothing to compare: give a second scenario or --with KEY=VALUE, as in "
		             "--with cluster.nic.speed=400Gbps%s", "");
	if (!c->b.path)   /* B: A's file with --with */
		c->b.path = c->a.path;
	return 0;
}

/* Loads and simulates one side: its file, the common --set, and for B the
 * --with (whose messages say --with). 0, or 1 after saying why. */
static int run_side(side *d, const cmp_args *c, bool is_b)
{
	scn_doc *doc = scn_doc_load_file(d->path, stderr);
	int rc = doc ? 0 : -1;
	for (int i = 0; rc == 0 && i < c->a.nsets; i++)
		rc = scn_doc_set(doc, c->a.sets[i], stderr);
	for (int i = 0; rc == 0 && is_b && i < c->nwith; i++)
		rc = scn_doc_set_by(doc, c->with[i], "--with", stderr);
	if (rc == 0)
		rc = scn_from_doc(doc, &d->s, stderr, c->quiet);
	scn_doc_free(doc);
	if (rc != 0) {
		fprintf(stderr, "trainsim compare: %s (%s) was refused\n", is_b ? "B" : "A", d->path);
		return 1;
	}
	d->loaded = true;
	step_opts o = {.max_events = c->max_events};
	char err[512] = "";
	if (step_run(&d->s, &o, &d->r, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", d->path, err[0] ? err : "the simulation failed");
		return 1;
	}
	d->ran = true;
	return 0;
}

/* B against A: a relative change for quantities, a difference in points
 * for fractions; "" where either is missing. */
static void change(char *buf, size_t n, double a, double b, bool fraction)
{
	if (fraction)
		snprintf(buf, n, fabs(b - a) < 0.0005 ? "same" : "%+.1f pt", 100 * (b - a));
	else if (a > 0 && b >= 0 && isfinite(a) && isfinite(b))
		snprintf(buf, n, fabs(b / a - 1) < 0.0005 ? "same" : "%+.1f %%", 100 * (b / a - 1));
	else
		buf[0] = 0;
}

static void row(const char *what, double a, double b, unit_kind k, bool fraction)
{
	char x[32], y[32], d[32];
	if (fraction) {
		snprintf(x, sizeof x, "%.1f %%", 100 * a);
		snprintf(y, sizeof y, "%.1f %%", 100 * b);
	} else {
		unit_fmt(x, sizeof x, a, k);
		unit_fmt(y, sizeof y, b, k);
	}
	change(d, sizeof d, a, b, fraction);
	printf("  %-26s %14s %14s   %s\n", what, x, y, d);
}

/* One side's label: the file, the common --set, and what --with changed. */
static void label(const cmp_args *c, const side *d, bool is_b, char *buf, size_t n)
{
	size_t o = (size_t)snprintf(buf, n, "%s", d->path);
	for (int i = 0; i < c->a.nsets && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, " --set %s", c->a.sets[i]);
	for (int i = 0; is_b && i < c->nwith && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, " --with %s", c->with[i]);
}

static void text(const cmp_args *c)
{
	const step_result *ra = &c->a.r, *rb = &c->b.r;
	const scenario *sa = &c->a.s, *sb = &c->b.s;
	char la[512], lb[512];
	label(c, &c->a, false, la, sizeof la);
	label(c, &c->b, true, lb, sizeof lb);
	printf("A  %s\nB  %s\n\n", la, lb);
	if (ra->step_time_s > 0 && ra->tokens_per_s > 0) {
		char t[256];
		snprintf(t, sizeof t, "B's step takes %.3gx A's; B trains %.3gx the tokens per second%s.",
		         rb->step_time_s / ra->step_time_s, rb->tokens_per_s / ra->tokens_per_s,
		         ra->gpus != rb->gpus ? ", on a different number of GPUs" : "");
		report_wrap(stdout, 0, 0, t);
		printf("\n");
	}
	printf("  %-26s %14s %14s   %s\n", "", "A", "B", "B against A");
	row("step time", ra->step_time_s, rb->step_time_s, UNIT_TIME, false);
	row("throughput (tokens/s)", ra->tokens_per_s, rb->tokens_per_s, UNIT_COUNT, false);
	row("MFU", ra->mfu, rb->mfu, UNIT_COUNT, true);
	row("GPU utilization", ra->gpu_util, rb->gpu_util, UNIT_COUNT, true);
	row("GPUs", ra->gpus, rb->gpus, UNIT_COUNT, false);
	row("memory per GPU", ra->memory.total, rb->memory.total, UNIT_BYTES, false);
	if (!ra->memory.fits || !rb->memory.fits)
		printf("  %-26s %14s %14s\n", "  fits in GPU memory", ra->memory.fits ? "yes" : "NO",
		       rb->memory.fits ? "yes" : "NO");
	printf("  where the time goes (per GPU)\n");
	for (int k = 0; k < SPLIT__N; k++) {
		if (ra->split_s[k] <= 0 && rb->split_s[k] <= 0)
			continue;
		char what[64], tpa[24], tpb[24];
		report_tp_what(sa, tpa, sizeof tpa);
		report_tp_what(sb, tpb, sizeof tpb);
		/* the tp_comm row as run names it (the expert all-to-all read as TP
		 * sent a reader after tensor parallelism); both sides' when they differ */
		if (k == SPLIT_TP_COMM && strcmp(tpa, tpb))
			snprintf(what, sizeof what, "  %s / %s", tpa, tpb + 8);
		else
			snprintf(what, sizeof what, "  %s",
			         k == SPLIT_TP_COMM ? tpa : report_split_what((step_split)k));
		row(what, ra->split_s[k], rb->split_s[k], UNIT_TIME, false);
	}
	if (ra->job_mtbf_s > 0 || rb->job_mtbf_s > 0)
		row("goodput", ra->goodput, rb->goodput, UNIT_COUNT, true);
	if (sa->run.train_tokens > 0 && sb->run.train_tokens > 0 && ra->time_to_train_s > 0 &&
	    rb->time_to_train_s > 0) {
		report_cost ca = report_run_cost(sa, ra), cb = report_run_cost(sb, rb);
		row("time to train", ra->time_to_train_s, rb->time_to_train_s, UNIT_TIME, false);
		row("GPU-hours", ca.gpu_hours, cb.gpu_hours, UNIT_COUNT, false);
		if (sa->run.gpu_hour_price > 0 && sb->run.gpu_hour_price > 0)
			row("cost", ca.cost, cb.cost, UNIT_COUNT, false);
	} else if (sa->run.gpu_hour_price > 0 && sb->run.gpu_hour_price > 0) {
		report_cost ca = report_run_cost(sa, ra), cb = report_run_cost(sb, rb);
		row("cost per million tokens", ca.per_mtok, cb.per_mtok, UNIT_COUNT, false);
	}
	char t[900];
	snprintf(t, sizeof t, "bottleneck A: %s", ra->bottleneck);
	printf("\n");
	report_wrap(stdout, 0, 2, t);
	snprintf(t, sizeof t, "bottleneck B: %s", rb->bottleneck);
	report_wrap(stdout, 0, 2, t);
	/* two GPU kinds (or a dense model against a MoE): each prediction errs
	 * its own way, so a difference within that is no finding */
	if (strcmp(sa->cluster.gpu.name, sb->cluster.gpu.name) ||
	    (sa->model.experts > 1) != (sb->model.experts > 1)) {
		char ba[512], bb[512];
		report_band_sentence(sa, ba, sizeof ba);
		report_band_sentence(sb, bb, sizeof bb);
		printf("\n");
		snprintf(t, sizeof t, "how sure, A: %s", ba);
		report_wrap(stdout, 0, 2, t);
		snprintf(t, sizeof t, "how sure, B: %s", bb);
		report_wrap(stdout, 0, 2, t);
		report_wrap(stdout, 0, 2, "Each GPU's predictions err by their own amount: a gap "
		            "between A and B smaller than the difference of those medians, or inside "
		            "their spreads, is not a finding (docs/validation.md, by GPU).");
	}
}

static int json_out(const cmp_args *c)
{
	json *j = json_new(stdout, true);
	if (!j)
		return -1;
	char la[512], lb[512];
	label(c, &c->a, false, la, sizeof la);
	label(c, &c->b, true, lb, sizeof lb);
	json_obj_begin(j);
	json_kstr(j, "a_label", la);
	json_kstr(j, "b_label", lb);
	json_key(j, "a");
	report_json(j, &c->a.s, &c->a.r);
	json_key(j, "b");
	report_json(j, &c->b.s, &c->b.r);
	json_key(j, "b_over_a");
	json_obj_begin(j);
	const step_result *ra = &c->a.r, *rb = &c->b.r;
	if (ra->step_time_s > 0)
		json_knum(j, "step_time_s", rb->step_time_s / ra->step_time_s);
	if (ra->tokens_per_s > 0)
		json_knum(j, "tokens_per_s", rb->tokens_per_s / ra->tokens_per_s);
	if (ra->time_to_train_s > 0 && rb->time_to_train_s > 0)
		json_knum(j, "time_to_train_s", rb->time_to_train_s / ra->time_to_train_s);
	json_obj_end(j);
	json_obj_end(j);
	int rc = json_free(j);
	fputc('\n', stdout);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	cmp_args c;
	memset(&c, 0, sizeof c);
	c.a.sets = calloc((size_t)argc + 1, sizeof *c.a.sets);
	c.with = calloc((size_t)argc + 1, sizeof *c.with);
	int rc = c.a.sets && c.with ? parse(argc, argv, &c) : 1;
	if (rc == 0)
		rc = run_side(&c.a, &c, false);
	if (rc == 0)
		rc = run_side(&c.b, &c, true);
	if (rc == 0) {
		if (c.json)
			rc = json_out(&c) ? 1 : 0;
		else
			text(&c);
	}
	if (c.a.ran)
		step_result_release(&c.a.r);
	if (c.b.ran)
		step_result_release(&c.b.r);
	if (c.a.loaded)
		scn_release(&c.a.s);
	if (c.b.loaded)
		scn_release(&c.b.s);
	free(c.a.sets);
	free(c.with);
	return rc < 0 ? 0 : rc;
}
