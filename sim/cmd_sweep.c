/* cmd_sweep.c: `trainsim sweep` and `trainsim merge`. The scenario is parsed
 * once; each point is a clone with the varied keys set, simulated in a worker
 * process (pool.c); the parent appends each finished row to the output with
 * one write(), so an interrupted sweep keeps every row it finished. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "scn.h"
#include "step.h"
#include "sweep.h"
#include "pool.h"
#include "report.h"
#include "plot.h"

#define MAX_SETS 256
#define MAX_WORKERS 256
#define REASON_MAX 400

typedef struct sweep_opts {
	const char *scenario;
	const char *out;
	const char *plot;
	const char *sets[MAX_SETS];
	int nsets;
	int jobs;
	sweep_format format;
	bool resume;
	sweep_shard shard;
	uint64_t max_events;
	bool quiet;                  /* -q: no warnings about the varied values */
} sweep_opts;

typedef struct sweep_ctx {
	const sweep_opts *o;
	sweep_plan *plan;
	scn_doc *doc;             /* the scenario with --set applied */
	int out_fd;
	bool out_made;   /* --out was created by this run (not resumed) */
	size_t total, finished;
	size_t n_ok, n_nofit, n_invalid, n_crashed;   /* n_crashed: of n_invalid */
	size_t first_invalid;     /* the lowest index of an invalid point; SIZE_MAX: none */
	char first_reason[REASON_MAX];   /* why it was invalid */
	bool progress;            /* stderr is a terminal */
	struct timespec t0, last_draw;
} sweep_ctx;

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* ---- one point ---- */

/* Renders the row of point `index`: its leading columns (sweep.h), then the
 * report's fields, or, when the point did not run (r == NULL), why. Returns
 * one line ending in '\n' (malloc'd), or NULL on OOM. */
static char *render_row(const sweep_ctx *c, size_t index, const char *status, const char *reason,
                        const scenario *s, const step_result *r, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	if (!mem)
		return NULL;
	int rc = -1;
	if (c->o->format == SWEEP_CSV) {
		const char *vals[SWEEP_MAX_AXES + 3];
		char idx[24];
		int nv = sweep_csv_values(c->plan, index, status, idx, vals);
		rc = r ? report_csv_row(mem, vals, nv, s, r) : report_csv_row_error(mem, vals, nv, reason);
	} else {
		json *j = json_new(mem, false);
		if (j) {
			json_obj_begin(j);
			sweep_json_keys(j, c->plan, index);
			json_kstr(j, "status", status);
			json_kstr(j, "sweep", sweep_plan_id(c->plan));
			if (r)
				report_json_fields(j, s, r);
			else
				json_kstr(j, "error", reason);
			json_obj_end(j);
			rc = json_free(j);
		}
	}
	if (fclose(mem) != 0 || rc < 0 || n == 0) {
		free(buf);
		return NULL;
	}
	if (buf[n - 1] != '\n') {   /* the emitter ends a top-level object with one */
		free(buf);
		return NULL;
	}
	/* One row, one line: a line break can only sit inside a quoted CSV
	 * field (JSON escapes them), where a space reads the same. */
	for (size_t i = 0; i + 1 < n; i++)
		if (buf[i] == '\n' || buf[i] == '\r')
			buf[i] = ' ';
	*len = n;
	return buf;
}

/* The CSV header (malloc'd); "" for JSON Lines, which have none. */
static char *header_text(const sweep_ctx *c)
{
	if (c->o->format == SWEEP_JSON)
		return strdup("");
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	if (!mem)
		return NULL;
	const char *names[SWEEP_MAX_AXES + 3];
	int rc = report_csv_header(mem, names, sweep_csv_names(c->plan, names));
	if (fclose(mem) != 0 || rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Messages of the loader as one line: newlines become "; ", bounded. */
static void one_line(char *dst, size_t cap, const char *msg)
{
	size_t n = 0;
	for (const char *p = msg; *p && n + 3 < cap; p++) {
		if (*p == '\n') {
			if (p[1] && n + 3 < cap) {
				dst[n++] = ';';
				dst[n++] = ' ';
			}
		} else {
			dst[n++] = *p;
		}
	}
	dst[n] = 0;
}

/* Loads point `index` into *s; on failure the loader's messages are in reason. */
static int load_point(const sweep_ctx *c, size_t index, scenario *s, char *reason)
{
	char *msg = NULL;
	size_t msglen = 0;
	FILE *err = open_memstream(&msg, &msglen);
	if (!err)
		return -2;
	scn_doc *d = scn_doc_clone(c->doc);
	int rc = d ? 0 : -2;
	for (size_t a = 0; rc == 0 && a < sweep_plan_naxes(c->plan); a++) {
		const char *key = sweep_plan_key(c->plan, a), *v = sweep_plan_value(c->plan, index, a);
		size_t n = strlen(key) + strlen(v) + 2;
		char *assign = malloc(n);
		if (!assign) {
			rc = -2;
			break;
		}
		snprintf(assign, n, "%s=%s", key, v);
		rc = scn_doc_set_by(d, assign, "--vary", err);  /* its messages say --vary */
		free(assign);
	}
	if (rc == 0)
		rc = scn_from_doc(d, s, err, true);
	scn_doc_free(d);
	fclose(err);
	one_line(reason, REASON_MAX, msg ? msg : "");
	if (rc == -1 && !reason[0])
		snprintf(reason, REASON_MAX, "the scenario was refused");
	free(msg);
	return rc;
}

/* Worker side (pool_eval_fn): simulates one point and renders its row. */
static int eval_point(void *ctx, size_t index, char **line, size_t *len)
{
	const sweep_ctx *c = ctx;
	scenario s;
	step_result r;
	char reason[REASON_MAX] = "";
	memset(&s, 0, sizeof s);
	memset(&r, 0, sizeof r);
	int rc = load_point(c, index, &s, reason);
	if (rc == -2)
		return -1;   /* out of memory: the worker ends, the point is reported */
	if (rc < 0) {
		scn_release(&s);
		*line = render_row(c, index, "invalid", reason, NULL, NULL, len);
		return *line ? 0 : -1;
	}
	step_opts so = {.want_timeline = false, .max_events = c->o->max_events};
	const char *status = "ok";
	const step_result *res = &r;
	if (step_run(&s, &so, &r, reason, sizeof reason) < 0) {
		status = "invalid";
		res = NULL;
		char raw[REASON_MAX];
		memcpy(raw, reason, sizeof raw);
		one_line(reason, sizeof reason, raw);
	} else if (!r.memory.fits) {
		status = "no_fit";   /* still a row with every number: memory.* says by how much */
	}
	*line = render_row(c, index, status, reason, &s, res, len);
	if (res)
		step_result_release(&r);
	scn_release(&s);
	return *line ? 0 : -1;
}

/* ---- the parent: output and progress ---- */

static double seconds_since(const struct timespec *t0)
{
	/* Wall clock for the progress bar only; it never reaches a row. */
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

static void progress_draw(sweep_ctx *c, bool final)
{
	if (!c->progress)
		return;
	if (!final && seconds_since(&c->last_draw) < 0.1)
		return;
	clock_gettime(CLOCK_MONOTONIC, &c->last_draw);
	double el = seconds_since(&c->t0), rate = el > 0 ? (double)c->finished / el : 0;
	int width = 30, fill = c->total ? (int)((double)width * (double)c->finished / (double)c->total) : width;
	char bar[64];
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '-';
	bar[width] = 0;
	double eta = rate > 0 ? (double)(c->total - c->finished) / rate : 0;
	fprintf(stderr, "\r[%s] %zu/%zu  %.1f points/s  ETA %d:%02d ", bar, c->finished, c->total,
	        rate, (int)(eta / 60), (int)eta % 60);
	if (final)
		fputc('\n', stderr);
	fflush(stderr);
}

/* Counts the row's status (the field after the index and the keys). */
static void count_status(sweep_ctx *c, size_t index, const char *line, size_t len)
{
	char *prefix = sweep_row_prefix(c->plan, c->o->format, index);
	if (!prefix)
		return;
	const char *st = line + strlen(prefix) + 1;
	free(prefix);
	if (c->o->format == SWEEP_JSON && !strncmp(st, "\"status\":", 9))
		st += 9 + (st[9] == '"');
	if (!strncmp(st, "ok", 2)) {
		c->n_ok++;
		return;
	}
	if (!strncmp(st, "no_fit", 6)) {
		c->n_nofit++;
		return;
	}
	c->n_invalid++;
	if (!strncmp(st, "crashed", 7))
		c->n_crashed++;
	/* the lowest index, whatever order the workers finish in */
	if (index < c->first_invalid) {
		c->first_invalid = index;
		if (!sweep_row_error(line, len, c->o->format, c->first_reason,
		                     sizeof c->first_reason))
			snprintf(c->first_reason, sizeof c->first_reason, "no reason given");
	}
}

/* Parent side (pool_sink_fn): one write() per row, so a row is whole or absent. */
static int sink_row(void *ctx, size_t index, const char *line, size_t len, const char *died)
{
	sweep_ctx *c = ctx;
	char *own = NULL;
	if (died) {
		char reason[REASON_MAX];
		snprintf(reason, sizeof reason, "%s (a bug in trainsim: please report this point)", died);
		if (!(line = own = render_row(c, index, "crashed", reason, NULL, NULL, &len)))
			return -1;
	}
	int rc = sweep_write_all(c->out_fd, line, len);
	if (rc < 0)
		fprintf(stderr, "sweep: writing %s: %s\n", c->o->out ? c->o->out : "stdout",
		        strerror(errno));
	else
		count_status(c, index, line, len);
	free(own);
	c->finished++;
	progress_draw(c, false);
	return rc;
}

/* ---- options ---- */

static void sweep_usage(FILE *out)
{
	fprintf(out,
	"usage: trainsim sweep SCENARIO --vary KEY=V1,V2,... [--vary ...] [options]\n"
	"  --vary KEY=V1,V2,...  a scenario key (dotted path) and its values; several\n"
	"                        --vary run the cross product (the last varies fastest);\n"
	"                        without one, a single point: the scenario (and --set)\n"
	"  --set KEY=VALUE       fixed override of every point\n"
	"  -j, --jobs N          worker processes (default: the number of cores)\n"
	"  -o, --out FILE        write rows to FILE, new or empty (default: stdout);\n"
	"                        a FILE that holds rows is refused without --resume\n"
	"  --format csv|json     CSV with a header (default) or JSON Lines\n"
	"  --resume              continue FILE: append only the points it lacks\n"
	"  --shard K/N           run only points with index %% N == K-1 (K from 1)\n"
	"  --plot FILE.png|svg   then draw the speed plot of FILE (needs --out)\n"
	"  --max-events N        cap the events of each point's simulation\n"
	"  -q, --quiet           print no warnings about the varied values\n"
	"Rows carry the point index; `trainsim merge OUT FILES...` sorts and joins them.\n");
}

/* The value of an option given as "--opt VALUE" or "--opt=VALUE". */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static int parse_count(const char *text, const char *opt, unsigned long long max,
                       unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (end == text || *end || errno || v == 0 || v > max || text[0] == '-') {
		fprintf(stderr, "sweep: %s %s: expected a whole number from 1 to %llu\n", opt, text, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* Handles one option at argv[*i]; returns 0, 1 for --help, or -1. */
static int sweep_opt(int argc, char **argv, int *i, sweep_opts *o, sweep_plan *plan)
{
	const char *a = argv[*i], *v;
	unsigned long long n;
	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		return 1;
	if (!strcmp(a, "--resume")) {
		o->resume = true;
		return 0;
	}
	if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
		o->quiet = true;
		return 0;
	}
	if ((v = opt_value(argc, argv, i, "--vary")))
		return sweep_plan_add(plan, v, stderr);
	if ((v = opt_value(argc, argv, i, "--set"))) {
		if (o->nsets == MAX_SETS) {
			fprintf(stderr, "sweep: at most %d --set\n", MAX_SETS);
			return -1;
		}
		o->sets[o->nsets++] = v;
		return 0;
	}
	if ((v = opt_value(argc, argv, i, "--jobs")) || (v = opt_value(argc, argv, i, "-j"))) {
		if (parse_count(v, "-j", MAX_WORKERS, &n) < 0)
			return -1;
		o->jobs = (int)n;
		return 0;
	}
	if (!strncmp(a, "-j", 2) && a[2]) {   /* -j4, as make spells it */
		if (parse_count(a + 2, "-j", MAX_WORKERS, &n) < 0)
			return -1;
		o->jobs = (int)n;
		return 0;
	}
	if ((v = opt_value(argc, argv, i, "--out")) || (v = opt_value(argc, argv, i, "-o"))) {
		if (!*v) {
			fprintf(stderr, "sweep: --out needs a file name, e.g. --out results.csv\n");
			return -1;
		}
		o->out = v;
		return 0;
	}
	if ((v = opt_value(argc, argv, i, "--plot"))) {
		o->plot = v;
		return 0;
	}
	if ((v = opt_value(argc, argv, i, "--format"))) {
		if (strcmp(v, "csv") && strcmp(v, "json")) {
			fprintf(stderr, "sweep: --format %s: expected csv or json\n", v);
			return -1;
		}
		o->format = !strcmp(v, "csv") ? SWEEP_CSV : SWEEP_JSON;
		return 0;
	}
	if ((v = opt_value(argc, argv, i, "--shard")))
		return sweep_shard_parse(v, &o->shard, stderr);
	if ((v = opt_value(argc, argv, i, "--max-events"))) {
		if (parse_count(v, "--max-events", UINT64_MAX, &n) < 0)
			return -1;
		o->max_events = n;
		return 0;
	}
	if (a[0] == '-' && a[1]) {
		static const char *const opts[] = {"--vary", "--set", "--jobs", "--out", "--plot",
			"--format", "--resume", "--shard", "--max-events", "--quiet", "--help"};
		const char *near = scn_nearest_name(a, strcspn(a, "="), opts,
		                                    (int)(sizeof opts / sizeof opts[0]));
		fprintf(stderr, "sweep: unknown option or missing value: %s%s%s%s\n", a,
		        near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		return -1;
	}
	if (o->scenario) {
		fprintf(stderr, "sweep: one scenario only (got %s and %s)\n", o->scenario, a);
		return -1;
	}
	o->scenario = a;
	return 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n > k && !strcmp(s + n - k, tail);
}

static int sweep_parse(int argc, char **argv, sweep_opts *o, sweep_plan *plan)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	*o = (sweep_opts){.jobs = cores < 1 ? 1 : cores > MAX_WORKERS ? MAX_WORKERS : (int)cores,
	                  .shard = {1, 1}};
	for (int i = 1; i < argc; i++) {
		int rc = sweep_opt(argc, argv, &i, o, plan);
		if (rc)
			return rc;
	}
	const char *bad = !o->scenario ? "a scenario file is needed"
	                : o->resume && !o->out ? "--resume needs --out FILE"
	                : o->plot && !o->out ? "--plot needs --out FILE"
	                : o->plot && !ends_with(o->plot, ".png") && !ends_with(o->plot, ".svg")
	                ? "--plot: expected a name ending in .png or .svg"
	                : NULL;
	if (bad) {
		fprintf(stderr, "sweep: %s\n", bad);
		return -1;
	}
	/* the picture's files written over the results, after the sweep said it
	 * had written them */
	const char *what = o->plot ? plot_output_clash(o->out, o->plot) : NULL;
	if (what) {
		fprintf(stderr, "sweep: --out %s is %s that --plot %s writes; name the results "
		        "otherwise, e.g. --out results.csv\n", o->out, what, o->plot);
		return -1;
	}
	return 0;
}

/* ---- setup ---- */

static scn_doc *load_base(const sweep_opts *o)
{
	scn_doc *d = scn_doc_load_file(o->scenario, stderr);
	if (!d)
		return NULL;
	for (int i = 0; i < o->nsets; i++)
		if (scn_doc_set(d, o->sets[i], stderr) < 0) {
			scn_doc_free(d);
			return NULL;
		}
	return d;
}

static int write_header(sweep_ctx *c)
{
	char *h = header_text(c);
	if (!h) {
		fprintf(stderr, "sweep: out of memory\n");
		return -1;
	}
	errno = 0;   /* a write() of 0 bytes sets none */
	int rc = sweep_write_all(c->out_fd, h, strlen(h));
	if (rc < 0)
		fprintf(stderr, "sweep: %s: writing the header failed: %s\n",
		        c->o->out ? c->o->out : "stdout", errno ? strerror(errno) : "nothing written");
	free(h);
	return rc;
}

/* Opens --out for appending. A file that already holds rows needs --resume
 * (so that two sweeps are never mixed by accident); with it, the points
 * present are marked in done[]. The file is appended to in place, not
 * written to a temporary name: rows already finished must survive a kill. */
static int open_out(sweep_ctx *c, bool *done)
{
	const sweep_opts *o = c->o;
	if (!o->out) {
		c->out_fd = STDOUT_FILENO;
		return write_header(c);
	}
	/* O_EXCL first: a file this sweep made is removed again when even its
	 * header could not be written (a full disk), rather than left empty */
	bool made = true;
	c->out_fd = open(o->out, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
	if (c->out_fd < 0 && errno == EEXIST) {
		made = false;
		c->out_fd = open(o->out, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	}
	if (c->out_fd < 0) {
		fprintf(stderr, "sweep: %s: %s\n", o->out, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(c->out_fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "sweep: %s: not a regular file\n", o->out);
		return -1;
	}
	if (st.st_size > 0 && !o->resume) {
		fprintf(stderr, "sweep: %s exists; add --resume to continue it, or remove it\n", o->out);
		return -1;
	}
	char *header = header_text(c);
	long rows = header ? sweep_resume_scan(c->out_fd, o->out, c->plan, o->format, header, done,
	                                       stderr) : -1;
	free(header);
	if (rows < 0)
		return -1;
	if (rows > 0)
		fprintf(stderr, "sweep: %s holds %ld rows; running the rest\n", o->out, rows);
	c->out_made = made;
	if (lseek(c->out_fd, 0, SEEK_END) != 0 || write_header(c) == 0)
		return 0;
	/* nothing was in it: leave nothing, not a part of a header */
	if (made)
		unlink(o->out);
	else if (ftruncate(c->out_fd, 0) < 0)
		fprintf(stderr, "sweep: %s: cannot empty it again: %s\n", o->out, strerror(errno));
	return -1;
}

/* The points of this shard not yet done, in index order. */
static size_t *todo_list(const sweep_ctx *c, const bool *done, size_t *n)
{
	size_t np = sweep_plan_npoints(c->plan);
	size_t *todo = malloc((np ? np : 1) * sizeof *todo);
	*n = 0;
	if (!todo)
		return NULL;
	for (size_t i = 0; i < np; i++)
		if (sweep_shard_has(&c->o->shard, i) && !done[i])
			todo[(*n)++] = i;
	return todo;
}

static void catch_signals(void)
{
	/* SA_RESETHAND: a second Ctrl-C kills at once. SIGTERM is what Slurm
	 * sends at the time limit. */
	struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESETHAND};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* "key=value key=value" of point `index`, cut to cap; "no --vary" without axes. */
static void point_text(const sweep_ctx *c, size_t index, char *buf, size_t cap)
{
	size_t o = 0, naxes = sweep_plan_naxes(c->plan);
	buf[0] = '\0';
	if (!naxes)
		snprintf(buf, cap, "no --vary");
	for (size_t a = 0; a < naxes && o < cap; a++) {
		int w = snprintf(buf + o, cap - o, "%s%s=%s", a ? " " : "", sweep_plan_key(c->plan, a),
		                 sweep_plan_value(c->plan, index, a));
		o += w > 0 ? (size_t)w : 0;
	}
}

static int sweep_report(const sweep_ctx *c, int pool_rc)
{
	progress_draw((sweep_ctx *)c, true);
	const char *where = c->o->out ? c->o->out : "stdout";
	if (pool_rc == POOL_STOPPED) {
		fprintf(stderr, "sweep: interrupted after %zu of %zu points; every finished row is in %s;"
		        " run the same command with --resume to finish\n", c->finished, c->total, where);
		return stop_signal ? 128 + stop_signal : 1;
	}
	if (pool_rc != POOL_DONE)
		return 1;
	char crashed[48] = "";
	if (c->n_crashed)
		snprintf(crashed, sizeof crashed, " (%zu of them crashed)", c->n_crashed);
	fprintf(stderr, "sweep: %zu point%s: %zu ok, %zu no_fit, %zu invalid%s -> %s\n", c->finished,
	        c->finished == 1 ? "" : "s", c->n_ok, c->n_nofit, c->n_invalid, crashed, where);
	if (c->n_invalid > 0 && c->first_invalid != SIZE_MAX) {
		/* say why, not only in the CSV's error column: one typo among many
		 * values is as likely as a sweep of nothing but typos */
		char point[REASON_MAX];
		point_text(c, c->first_invalid, point, sizeof point);
		if (c->n_invalid == c->finished)
			fprintf(stderr, "sweep: every point was invalid; the first, point %zu (%s): %s\n",
			        c->first_invalid, point, c->first_reason);
		else
			fprintf(stderr, "sweep: the first invalid point, %zu (%s): %s\n",
			        c->first_invalid, point, c->first_reason);
	}
	return c->finished && c->n_invalid == c->finished ? 1 : 0;
}

/* The loader's messages for the base scenario with axis a at value v and
 * every other axis at its first (pick 0) or last (pick 1) value; a
 * malloc'd text or NULL. */
static char *vary_messages(const sweep_ctx *c, size_t a, size_t v, int pick)
{
	char *msg = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&msg, &len);
	if (!err)
		return NULL;
	scn_doc *d = scn_doc_clone(c->doc);
	int rc = d ? 0 : -1;
	for (size_t b = 0; rc == 0 && b < sweep_plan_naxes(c->plan); b++) {
		size_t nv = sweep_plan_nvalues(c->plan, b);
		size_t k = b == a ? v : pick ? nv - 1 : 0;
		char assign[1024];
		snprintf(assign, sizeof assign, "%s=%s", sweep_plan_key(c->plan, b),
		         sweep_plan_axis_value(c->plan, b, k));
		rc = scn_doc_set_by(d, assign, "--vary", err);
	}
	scenario s;
	memset(&s, 0, sizeof s);
	if (rc == 0 && scn_from_doc(d, &s, err, false) == 0)
		scn_release(&s);
	scn_doc_free(d);
	fclose(err);
	return msg;
}

/* The loader's warnings about each varied value, once per value (the points
 * themselves load quietly): "'roce' is read as rdma", a key without effect.
 * A warning is printed when it holds with the other axes at their first and
 * at their last values alike (local_copies varied beside local_every has an
 * effect where local_every is set), with the value it is about. */
static void vary_warnings(const sweep_ctx *c)
{
	for (size_t a = 0; a < sweep_plan_naxes(c->plan); a++) {
		const char *key = sweep_plan_key(c->plan, a);
		for (size_t v = 0; v < sweep_plan_nvalues(c->plan, a); v++) {
			char *first = vary_messages(c, a, v, 0);
			char *last = sweep_plan_naxes(c->plan) > 1 ? vary_messages(c, a, v, 1) : NULL;
			for (char *l = first; l && *l;) {
				char *e = strchr(l, '\n');
				if (e)
					*e = 0;
				const char *w = strstr(l, "warning: ");
				if (w && strstr(l, key) && (sweep_plan_naxes(c->plan) == 1 ||
				                            (last && strstr(last, w))))
					fprintf(stderr, "sweep: --vary %s=%s: %s\n", key,
					        sweep_plan_axis_value(c->plan, a, v), w);
				l = e ? e + 1 : l + strlen(l);
			}
			free(first);
			free(last);
		}
	}
}

static int sweep_main(sweep_ctx *c)
{
	size_t np = sweep_plan_npoints(c->plan), ntodo;
	bool *done = calloc(np ? np : 1, sizeof *done);
	size_t *todo = NULL;
	int rc = 1;
	/* a misspelt --vary key makes every point invalid: say it before running them */
	if (np > 0) {
		scenario s0;
		char reason[REASON_MAX] = "";
		memset(&s0, 0, sizeof s0);
		int r0 = load_point(c, 0, &s0, reason);
		if (r0 == 0)
			scn_release(&s0);
		for (size_t a = 0; r0 != 0 && a < sweep_plan_naxes(c->plan); a++) {
			char what[320];
			snprintf(what, sizeof what, "%s: unknown key", sweep_plan_key(c->plan, a));
			if (strstr(reason, what)) {   /* the axis's key itself, not its value's */
				fprintf(stderr, "sweep: --vary %s\n", strstr(reason, what));
				goto out_free;
			}
		}
	}
	if (!c->o->quiet)
		vary_warnings(c);
	if (!done || open_out(c, done) < 0)
		goto out_free;
	if (!(todo = todo_list(c, done, &ntodo)))
		goto out_free;
	c->total = ntodo;
	/* A bar only on a terminal, and not when rows go to that terminal too. */
	c->progress = isatty(STDERR_FILENO) && ntodo > 0 && (c->o->out || !isatty(STDOUT_FILENO));
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	c->last_draw = (struct timespec){0, 0};
	catch_signals();
	pool_cfg cfg = {.workers = c->o->jobs, .eval = eval_point, .eval_ctx = c,
	                .sink = sink_row, .sink_ctx = c, .stop = &stop_signal};
	rc = sweep_report(c, pool_run(&cfg, todo, ntodo, stderr));
	/* every point of a new file invalid: leave no file that a corrected
	 * rerun would have to be told to --resume or remove */
	/* not a shard's file (merge reads every shard's), nor one a --resume
	 * run was told to keep */
	if (rc == 1 && c->out_made && !c->o->resume && c->o->shard.n <= 1 && !c->n_crashed &&
	    c->finished &&
	    c->n_invalid == c->finished && c->finished == c->total) {
		fprintf(stderr, "sweep: %s removed: it held only invalid points\n", c->o->out);
		unlink(c->o->out);
	}
	if (rc == 0 && c->o->plot) {
		char *pargv[] = {"plot", (char *)c->o->out, "--kind", "speed", "-o", (char *)c->o->plot,
		                 NULL};
		rc = cmd_plot(6, pargv);
	}
out_free:
	if (c->o->out && c->out_fd >= 0)
		close(c->out_fd);
	free(todo);
	free(done);
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
	sweep_opts o;
	sweep_plan *plan = sweep_plan_new();
	if (!plan)
		return 1;
	int rc = sweep_parse(argc, argv, &o, plan);
	if (rc) {
		sweep_usage(rc > 0 ? stdout : stderr);
		sweep_plan_free(plan);
		return rc > 0 ? 0 : 2;
	}
	sweep_ctx c = {.o = &o, .plan = plan, .out_fd = -1, .first_invalid = SIZE_MAX};
	char id[17];
	if (sweep_fingerprint(o.scenario, o.sets, o.nsets, id) == 0)
		sweep_plan_set_id(plan, id);
	if ((c.doc = load_base(&o)))
		rc = sweep_main(&c);
	else
		rc = 1;
	scn_doc_free(c.doc);
	sweep_plan_free(plan);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	bool asked = argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
	if (argc < 3 || asked) {
		fprintf(asked ? stdout : stderr,
		        "usage: trainsim merge OUT FILE...\n"
		        "  joins sweep results (shards, resumed runs): one header, rows sorted by\n"
		        "  index, duplicates dropped; OUT is written whole (temporary file + rename)\n");
		return asked ? 0 : 2;
	}
	if (!*argv[1]) {
		fprintf(stderr, "merge: OUT needs a file name, e.g. trainsim merge all.csv part1.csv "
		        "part2.csv\n");
		return 2;
	}
	return sweep_merge(argv[1], (const char *const *)argv + 2, (size_t)argc - 2, stderr) < 0;
}
