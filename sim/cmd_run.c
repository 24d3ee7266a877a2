/* cmd_run.c: the `run`, `check`, `explain` and `list` commands: argument
 * parsing, loading the scenario, running the step model and handing the
 * result to the renderers. Exit status: 0 ok, 1 bad input or failed run,
 * 2 usage error (cli.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "explain.h"
#include "hw.h"
#include "json.h"
#include "report.h"
#include "scn.h"
#include "workload.h"
#include "step.h"
#include "sweep.h"
#include "topo.h"
#include "trace.h"
#include "units.h"

#define RUN_USAGE "usage: trainsim run SCENARIO [--set KEY=VALUE]... [--format text|json|csv] " \
	"[--trace FILE] [--explain] [--max-events N] [--max-memory SIZE] [-q]\n"
#define CHECK_USAGE "usage: trainsim check SCENARIO [--set KEY=VALUE]... [--show] [--fit] [-q]\n"
#define EXPLAIN_USAGE "usage: trainsim explain SCENARIO [--set KEY=VALUE]... [--max-events N] " \
	"[--max-memory SIZE] [-q]\n"
#define LIST_USAGE "usage: trainsim list gpus|nics|topologies\n"
#define LIST_HELP LIST_USAGE \
	"  gpus        the GPU catalog: peak TFLOP/s per precision, GEMM efficiency, HBM,\n" \
	"              NVLink; each name is a value of cluster.gpu\n" \
	"  nics        NIC speeds and what RDMA and TCP reach of them (cluster.nic)\n" \
	"  topologies  the values of cluster.fabric.topology\n" \
	"  -h, --help  this help\n"

enum { FMT_TEXT, FMT_JSON, FMT_CSV };

typedef struct run_args {
	const char *path;
	const char **sets;       /* points into argv; owned array */
	int nsets;
	int format;
	const char *trace;
	bool explain;
	bool show;               /* check --show: the scenario with every default written */
	bool fit;                /* check --fit: exit 3 when the layout does not fit */
	bool quiet;
	uint64_t max_events;
	double max_memory_bytes;  /* --max-memory; 0 = run.max_memory or the default */
} run_args;

/* Which options a command accepts. */
enum { OPT_FORMAT = 1, OPT_TRACE = 2, OPT_EXPLAIN = 4, OPT_MAX_EVENTS = 8, OPT_MAX_MEMORY = 16,
       OPT_SHOW = 32, OPT_FIT = 64 };

/* One line per option for --help, printed when the command accepts it
 * (opt 0: every command of parse_args): the same bits parse_opt reads. */
static const struct {
	unsigned opt;
	const char *line;
} opt_help[] = {
	{0, "  --set KEY=VALUE         override a scenario key by its dotted path, with the\n"
	    "                          file's checks (repeatable): --set cluster.nic.speed=400Gbps\n"},
	{OPT_FORMAT, "  --format text|json|csv  the report as text (default), one JSON object, or a\n"
	             "                          CSV header and row (docs/report.md)\n"},
	{OPT_TRACE, "  --trace FILE            also write the step's timeline as a Chrome trace\n"
	            "                          (https://ui.perfetto.dev, trainsim plot --kind timeline)\n"},
	{OPT_EXPLAIN, "  --explain               append explain's plain-words account to the report\n"},
	{OPT_SHOW, "  --show                  print the scenario as YAML with every default written out\n"},
	{OPT_FIT, "  --fit                   exit 3 when the layout does not fit in GPU memory (a\n"
	          "                          valid scenario exits 0 either way without it)\n"},
	{OPT_MAX_EVENTS, "  --max-events N          refuse or stop a simulation past N events\n"
	                 "                          (default run.max_events, else 200000000)\n"},
	{OPT_MAX_MEMORY, "  --max-memory SIZE       refuse a simulation that needs more memory, as in 16GiB\n"
	                 "                          (default run.max_memory, else 4GiB)\n"},
	{0, "  -q, --quiet             print no warnings about the scenario\n"},
	{OPT_FORMAT, "                          and no 'simulated N events in T s' line\n"},
	{0, "  -h, --help              this help\n"},
};

/* --help: the usage line, then each option the command accepts. */
static void print_help(const char *usage, unsigned allowed)
{
	fputs(usage, stdout);
	for (size_t k = 0; k < sizeof opt_help / sizeof opt_help[0]; k++)
		if (!opt_help[k].opt || (allowed & opt_help[k].opt))
			fputs(opt_help[k].line, stdout);
}

/* What a command of parse_args accepts, for "did you mean". */
static const char *near_option(const char *arg, unsigned allowed)
{
	static const struct { unsigned opt; const char *name; } all[] = {
		{0, "--set"}, {OPT_FORMAT, "--format"}, {OPT_TRACE, "--trace"},
		{OPT_EXPLAIN, "--explain"}, {OPT_SHOW, "--show"}, {OPT_MAX_EVENTS, "--max-events"},
		{OPT_MAX_MEMORY, "--max-memory"}, {OPT_FIT, "--fit"}, {0, "--quiet"}, {0, "--help"}};
	const char *names[sizeof all / sizeof all[0]];
	int n = 0;
	for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
		if (!all[k].opt || (allowed & all[k].opt))
			names[n++] = all[k].name;
	return scn_nearest_name(arg, strcspn(arg, "="), names, n);   /* "--sett=x" */
}

static int usage_error(const char *usage, const char *fmt, const char *arg)
{
	fprintf(stderr, "trainsim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage);
	return 2;
}

/* The value of option argv[*i] ("--opt VALUE" or "--opt=VALUE"), or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0' || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static bool is_opt(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

static int parse_format(const char *v, int *out)
{
	static const char *const names[] = {"text", "json", "csv"};
	for (int k = 0; k < 3; k++)
		if (!strcmp(v, names[k])) {
			*out = k;
			return 0;
		}
	return -1;
}

static int parse_count(const char *v, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-')
		return -1;
	*out = n;
	return 0;
}

/* One option at argv[*i]; 0, or the exit status of a usage error. */
static int parse_opt(int argc, char **argv, int *i, run_args *a, unsigned allowed,
                     const char *usage)
{
	const char *arg = argv[*i], *v;
	if (is_opt(arg, "--set")) {
		if (!(v = opt_value(argc, argv, i, "--set")) || !strchr(v, '='))
			return usage_error(usage, "--set needs KEY=VALUE, as in --set %s", "cluster.nodes=4");
		a->sets[a->nsets++] = v;
	} else if ((allowed & OPT_FORMAT) && is_opt(arg, "--format")) {
		if (!(v = opt_value(argc, argv, i, "--format")) || parse_format(v, &a->format))
			return usage_error(usage, "--format takes text, json or csv%s", "");
	} else if ((allowed & OPT_TRACE) && is_opt(arg, "--trace")) {
		if (!(v = opt_value(argc, argv, i, "--trace")) || !*v)
			return usage_error(usage, "--trace needs a file name%s", "");
		a->trace = v;
	} else if ((allowed & OPT_EXPLAIN) && !strcmp(arg, "--explain")) {
		a->explain = true;
	} else if ((allowed & OPT_SHOW) && !strcmp(arg, "--show")) {
		a->show = true;
	} else if ((allowed & OPT_FIT) && !strcmp(arg, "--fit")) {
		a->fit = true;
	} else if ((allowed & OPT_MAX_EVENTS) && is_opt(arg, "--max-events")) {
		if (!(v = opt_value(argc, argv, i, "--max-events")) || parse_count(v, &a->max_events))
			return usage_error(usage, "--max-events needs a whole number, as in %s",
				"--max-events 100000000");
	} else if ((allowed & OPT_MAX_MEMORY) && is_opt(arg, "--max-memory")) {
		char e[128];
		if (!(v = opt_value(argc, argv, i, "--max-memory")) ||
		    unit_parse(v, UNIT_BYTES, &a->max_memory_bytes, e, sizeof e) ||
		    !(a->max_memory_bytes > 0))
			return usage_error(usage, "--max-memory needs a size, as in %s",
				"--max-memory 16GiB");
	} else if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet")) {
		a->quiet = true;
	} else {
		const char *near = near_option(arg, allowed);
		char what[160];
		snprintf(what, sizeof what, "unknown option '%%s'%s%s%s", near ? "; did you mean '" : "",
		         near ? near : "", near ? "'?" : "");
		return usage_error(usage, what, arg);
	}
	return 0;
}

/* Parses argv[1..] of a command. Returns 0, or an exit status (2: usage; -1
 * with *done set for --help). The caller frees a->sets. */
static int parse_args(int argc, char **argv, run_args *a, unsigned allowed, const char *usage)
{
	memset(a, 0, sizeof *a);
	a->format = FMT_TEXT;
	a->sets = calloc((size_t)argc + 1, sizeof *a->sets);
	if (!a->sets)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			print_help(usage, allowed);
			return -1;
		}
		if (arg[0] == '-' && arg[1] != '\0') {
			int rc = parse_opt(argc, argv, &i, a, allowed, usage);
			if (rc)
				return rc;
		} else if (!a->path) {
			a->path = arg;
		} else {
			return usage_error(usage, "one scenario at a time (got a second: '%s')", arg);
		}
	}
	if (!a->path)
		return usage_error(usage, "no scenario given%s", "");
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Loads the scenario and simulates it. 0, or 1 after printing why. */
static int simulate(const run_args *a, scenario *s, step_result *r, double *wall_s)
{
	char err[512] = "";
	if (scn_load(a->path, a->sets, a->nsets, s, stderr, a->quiet) != 0)
		return 1;
	step_opts o = {.want_timeline = a->trace != NULL, .max_events = a->max_events,
		       .max_memory_bytes = a->max_memory_bytes};
	memset(r, 0, sizeof *r);
	double t0 = now_s();
	if (step_run(s, &o, r, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", a->path, err[0] ? err : "the simulation failed");
		step_result_release(r);
		scn_release(s);
		return 1;
	}
	*wall_s = now_s() - t0;
	return 0;
}

/* The CSV of one run is the row `trainsim sweep SCENARIO` writes for it,
 * with the same --set: index 0, status ok or no_fit, the sweep's
 * fingerprint, then the report's columns; so `plot` and `merge` read it. */
static int print_csv(const run_args *a, const scenario *s, const step_result *r)
{
	sweep_plan *plan = sweep_plan_new();
	if (!plan)
		return -1;
	char id[17], idx[24];
	if (sweep_fingerprint(a->path, a->sets, a->nsets, id) == 0)
		sweep_plan_set_id(plan, id);
	const char *names[3], *vals[3];   /* a plan without axes: index, status, sweep */
	int n = sweep_csv_names(plan, names);
	sweep_csv_values(plan, 0, r->memory.fits ? "ok" : "no_fit", idx, vals);
	int rc = report_csv_header(stdout, names, n);
	rc |= report_csv_row(stdout, vals, n, s, r);
	sweep_plan_free(plan);
	return rc;
}

static int print_report(const run_args *a, const scenario *s, const step_result *r, double wall_s)
{
	int rc = 0;
	if (a->format == FMT_JSON) {
		json *j = json_new(stdout, true);
		if (!j)
			return -1;
		report_json(j, s, r);
		rc = json_free(j);
		fputc('\n', stdout);
	} else if (a->format == FMT_CSV) {
		rc = print_csv(a, s, r);
	} else {
		report_opts o = {.wall_s = a->quiet ? 0 : wall_s};
		rc = report_text(stdout, s, r, &o);
	}
	if (!a->quiet && a->format != FMT_TEXT)   /* wall time never goes into the data */
		fprintf(stderr, "trainsim: simulated %llu events in %.3f s\n",
			(unsigned long long)r->events, wall_s);
	return rc;
}

static int run_explain(const run_args *a, const scenario *s, const step_result *r, FILE *out)
{
	explain_src src = {.path = a->path, .sets = a->sets, .nsets = a->nsets};
	return explain_write(out, s, r, &src);
}

int cmd_run(int argc, char **argv)
{
	run_args a;
	scenario s;
	step_result r;
	double wall_s = 0;
	char err[512];
	int rc = parse_args(argc, argv, &a,
		OPT_FORMAT | OPT_TRACE | OPT_EXPLAIN | OPT_MAX_EVENTS | OPT_MAX_MEMORY, RUN_USAGE);
	if (rc)
		goto out_args;
	/* the trace would replace the scenario it is made from */
	if (a.trace && report_same_file(a.trace, a.path)) {
		fprintf(stderr, "trainsim run: --trace %s is the scenario itself; name another file "
		        "for the trace, e.g. --trace step.json\n", a.trace);
		rc = 2;
		goto out_args;
	}
	if ((rc = simulate(&a, &s, &r, &wall_s)) != 0)
		goto out_args;
	if (a.trace && trace_write_file(a.trace, &s, &r, err, sizeof err) != 0) {
		fprintf(stderr, "trainsim: %s\n", err);
		rc = 1;
		goto out_result;
	}
	if (print_report(&a, &s, &r, wall_s) != 0)
		rc = 1;
	if (a.explain) {
		FILE *out = a.format == FMT_TEXT ? stdout : stderr;   /* keep JSON/CSV clean */
		fputc('\n', out);
		if (run_explain(&a, &s, &r, out) != 0)
			rc = 1;
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "trainsim: writing the report failed: %s\n", strerror(errno));
		rc = 1;
	}
out_result:
	step_result_release(&r);
	scn_release(&s);
out_args:
	free(a.sets);
	/* --help: main's check of stdout leaves run to say it itself */
	if (rc < 0 && fflush(stdout) != 0) {
		fprintf(stderr, "trainsim run: the output could not be written: %s\n", strerror(errno));
		return 1;
	}
	return rc < 0 ? 0 : rc;
}

int cmd_explain(int argc, char **argv)
{
	run_args a;
	scenario s;
	step_result r;
	double wall_s;
	int rc = parse_args(argc, argv, &a, OPT_MAX_EVENTS | OPT_MAX_MEMORY, EXPLAIN_USAGE);
	if (rc)
		goto out_args;
	if ((rc = simulate(&a, &s, &r, &wall_s)) != 0)
		goto out_args;
	if (run_explain(&a, &s, &r, stdout) != 0 || fflush(stdout) != 0)
		rc = 1;
	step_result_release(&r);
	scn_release(&s);
out_args:
	free(a.sets);
	return rc < 0 ? 0 : rc;
}

int cmd_check(int argc, char **argv)
{
	run_args a;
	scenario s;
	int rc = parse_args(argc, argv, &a, OPT_SHOW | OPT_FIT, CHECK_USAGE);
	if (rc)
		goto out_args;
	if (scn_load(a.path, a.sets, a.nsets, &s, stderr, a.quiet) != 0) {
		rc = 1;
		goto out_args;
	}
	if (a.show) {
		/* the scenario as the simulator takes it: every key, defaults filled */
		rc = scn_write_yaml(&s, stdout) || fflush(stdout) ? 1 : 0;
		if (!rc && a.fit) {   /* the gate's answer with the YAML too */
			wl_memory m;
			wl_memory_get(&s, &m);
			rc = m.capacity > 0 && !m.fits ? 3 : 0;
		}
		scn_release(&s);
		goto out_args;
	}
	if (scn_cp(&s) > 1)
		printf("%s: ok (%d GPUs, tp %d x cp %d x pp %d x dp %d)\n", a.path, scn_gpus(&s),
		       s.training.tp, scn_cp(&s), s.training.pp, scn_dp(&s));
	else
		printf("%s: ok (%d GPUs, %d x %d x %d)\n", a.path, scn_gpus(&s), s.training.tp,
		       s.training.pp, scn_dp(&s));
	/* a valid scenario may still not fit: say so before anyone runs it */
	wl_memory m;
	wl_memory_get(&s, &m);
	if (m.capacity > 0) {
		char need[32], have[32];
		unit_fmt(need, sizeof need, m.total, UNIT_BYTES);
		unit_fmt(have, sizeof have, m.capacity, UNIT_BYTES);
		printf("  memory per GPU: %s of %s, %s\n", need, have, m.fits ? "fits"
		       : "DOES NOT FIT (trainsim run gives the breakdown and still simulates it)");
		if (a.fit && !m.fits)
			rc = 3;   /* a gate's answer, beside the usage errors' 2 and 1's */
	}
	if (s.n_warnings > 0 && !a.quiet)
		fprintf(stderr, "%s: %d warning%s above\n", a.path, s.n_warnings,
			s.n_warnings == 1 ? "" : "s");
	scn_release(&s);
out_args:
	free(a.sets);
	return rc < 0 ? 0 : rc;
}

int cmd_list(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(LIST_HELP, stdout);
		return 0;
	}
	if (argc != 2)
		return usage_error(LIST_USAGE, "list what?%s", "");
	if (!strcmp(argv[1], "gpus"))
		hw_list_gpus(stdout, wl_gpu_held_gemm_eff);
	else if (!strcmp(argv[1], "nics"))
		hw_list_nics(stdout);
	else if (!strcmp(argv[1], "topologies"))
		topo_list(stdout);
	else
		return usage_error(LIST_USAGE, "nothing called '%s' to list", argv[1]);
	return fflush(stdout) ? 1 : 0;
}
