/* cmd_plot.c: `trainsim plot`: writes the data (.dat) and the gnuplot script
 * (.gp) beside the picture, so that a user can restyle and redraw it, then
 * runs gnuplot on them with an argv array (never a shell). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "config.h"
#include "cli.h"
#include "plot.h"
#include "report.h"
#include "extprog.h"
#include "units.h"

#define PLOT_MAX_RESULTS 32

typedef struct plot_opts {
	const char *results, *kind, *out, *x, *series, *from, *to;
	const char *more[PLOT_MAX_RESULTS - 1];   /* split: the results after the first */
	int nmore;
	bool percent;          /* split: shares of the step */
	double from_s, to_s;   /* timeline: the window, parsed (to_s 0: the end) */
	char win[2][32];       /* the window for timeline.gp: seconds, "*" for its end */
} plot_opts;

typedef struct plot_paths {
	char dat[4096], gp[4096], tmp[4096];
	const char *dat_base, *gp_base, *out_base;
} plot_paths;

static void plot_usage(FILE *out)
{
	fprintf(out,
	"usage: trainsim plot RESULTS --kind speed|split|timeline|parity -o FILE.png|svg [--x KEY] [--series KEY,...]\n"
	"                    [--from TIME] [--to TIME]\n"
	"       trainsim plot RESULTS... --kind split -o FILE.png|svg [--percent]\n"
	"  --kind KIND             which picture, one of:\n"
	"    speed     utilization (MFU, nvidia-smi) and step time against x (default: the\n"
	"              NIC speed), one line per series (default: the other varied keys)\n"
	"    split     stacked bars of the time split of each configuration; several\n"
	"              results files (other scenarios' sweeps, `run --format csv` rows)\n"
	"              side by side, each bar named by its scenario\n"
	"    timeline  per-GPU timeline of one step; RESULTS is a trace from\n"
	"              `trainsim run SCENARIO --trace FILE.json`; --from 2.1s --to 2.15s\n"
	"              draws that window of the step only (short kernels blur over a step)\n"
	"    parity    predicted against published, one point per row; RESULTS is the CSV\n"
	"              of `trainsim validate --format csv`\n"
	"  -o, --out FILE.png|svg  the picture (its extension picks the format)\n"
	"  --x KEY                 speed: the varied key on x\n"
	"  --series KEY,...        speed: one line per value of these keys ('' for one line)\n"
	"  --from T, --to T        timeline: the window to draw, with a unit (100ms, 2.1s)\n"
	"  --percent               split: each bar as shares of its step (100 %%)\n"
	"The data (FILE.dat) and the script (FILE.gp) stay beside the picture; the\n"
	"first lines of FILE.dat give the command that redraws it after an edit,\n"
	"  gnuplot -c FILE.gp FILE.dat FILE.png ...\n"
	"with the axis label and scale a speed plot also needs after FILE.png.\n"
	"gnuplot: $TRAINSIM_GNUPLOT, else %s.\n", GNUPLOT_PATH);
}

static int plot_parse(int argc, char **argv, plot_opts *o)
{
	*o = (plot_opts){0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = !strcmp(a, "--kind") ? &o->kind
		                 : !strcmp(a, "-o") || !strcmp(a, "--out") ? &o->out
		                 : !strcmp(a, "--x") ? &o->x
		                 : !strcmp(a, "--series") ? &o->series
		                 : !strcmp(a, "--from") ? &o->from
		                 : !strcmp(a, "--to") ? &o->to : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		if (!strcmp(a, "--percent")) {
			o->percent = true;
		} else if (dst && i + 1 < argc) {
			*dst = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "plot: unknown option or missing value: %s\n", a);
			return -1;
		} else if (o->results && o->nmore == PLOT_MAX_RESULTS - 1) {
			fprintf(stderr, "plot: at most %d results files in one picture\n",
			        PLOT_MAX_RESULTS);
			return -1;
		} else if (o->results) {
			o->more[o->nmore++] = a;
		} else {
			o->results = a;
		}
	}
	const char *bad = !o->results ? "a results file is needed"
	                : !o->kind ? "--kind speed|split|timeline|parity is needed"
	                : !plot_script(o->kind) ? "--kind: expected speed, split, timeline or parity"
	                : !o->out ? "-o FILE.png|svg is needed" : NULL;
	if (bad) {
		fprintf(stderr, "plot: %s\n", bad);
		return -1;
	}
	if (o->nmore && strcmp(o->kind, "split")) {
		fprintf(stderr, "plot: one results file for --kind %s (got %s and %s); several draw "
		        "side by side with --kind split\n", o->kind, o->results, o->more[0]);
		return -1;
	}
	if (o->percent && strcmp(o->kind, "split")) {
		fprintf(stderr, "plot: --percent draws the split's bars as shares (--kind split) "
		        "only\n");
		return -1;
	}
	if ((o->from || o->to) && strcmp(o->kind, "timeline")) {
		fprintf(stderr, "plot: --from and --to window a timeline (--kind timeline) only\n");
		return -1;
	}
	const char *w[2] = {o->from, o->to};
	double *v[2] = {&o->from_s, &o->to_s};
	for (int i = 0; i < 2; i++) {
		char e[200];
		if (w[i] && unit_parse(w[i], UNIT_TIME, v[i], e, sizeof e) < 0) {
			fprintf(stderr, "plot: %s: %s\n", i ? "--to" : "--from", e);
			return -1;
		}
	}
	if (o->to && o->to_s <= 0) {
		fprintf(stderr, "plot: --to must be after the step's start (0 s)\n");
		return -1;
	}
	if (o->from && o->to && o->to_s <= o->from_s) {
		fprintf(stderr, "plot: --to (%g s) must come after --from (%g s)\n", o->to_s,
		        o->from_s);
		return -1;
	}
	snprintf(o->win[0], sizeof o->win[0], "%.9g", o->from_s);
	snprintf(o->win[1], sizeof o->win[1], o->to ? "%.9g" : "*", o->to_s);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* A path as the user wrote it: without the "./" added for gnuplot. */
static const char *shown(const char *path)
{
	return strncmp(path, "./", 2) ? path : path + 2;
}

/* out = DIR/NAME.png (or .svg) -> DIR/NAME.dat, DIR/NAME.gp, DIR/NAME.tmp-PID.png:
 * the script is the picture's own, as its data is, so that a second plot in
 * the directory does not overwrite the script a user edits to redraw the
 * first (a shared KIND.gp did). */
static int plot_paths_make(const plot_opts *o, plot_paths *p)
{
	size_t n = strlen(o->out);
	const char *ext = n > 4 ? o->out + n - 4 : "";
	if (strcmp(ext, ".png") && strcmp(ext, ".svg")) {
		fprintf(stderr, "plot: -o %s: expected a name ending in .png or .svg\n", o->out);
		return -1;
	}
	int stem = (int)(n - 4);
	/* gnuplot gives names meaning by their first character: '|' pipes the
	 * output to a shell command, '<' reads data from one, '+', '-' and '~'
	 * are special too. "./" before a relative name keeps every name we hand
	 * it a plain file (-o '|touch x.png' ran `touch` through /bin/sh). */
	const char *pre = o->out[0] == '/' ? "" : "./";
	bool fit = snprintf(p->dat, sizeof p->dat, "%s%.*s.dat", pre, stem, o->out)
	           < (int)sizeof p->dat;
	fit &= snprintf(p->gp, sizeof p->gp, "%s%.*s.gp", pre, stem, o->out) < (int)sizeof p->gp;
	fit &= snprintf(p->tmp, sizeof p->tmp, "%s%.*s.tmp-%ld%s", pre, stem, o->out,
	                (long)getpid(), ext) < (int)sizeof p->tmp;
	if (!fit) {
		fprintf(stderr, "plot: -o: path too long\n");
		return -1;
	}
	p->dat_base = base_name(p->dat);
	p->gp_base = base_name(p->gp);
	p->out_base = base_name(o->out);
	return 0;
}

typedef int (*fill_fn)(FILE *out, void *ctx);

/* Writes a file to its temporary name (report_file), for gnuplot to read
 * before anything is renamed into place. NULL after saying why: a failed
 * write names its reason; a fill that failed otherwise has said its own. */
static report_file *write_temp(const char *path, fill_fn fill, void *ctx)
{
	char msg[512];
	report_file *f = report_file_open(path, msg, sizeof msg);
	if (!f) {
		fprintf(stderr, "plot: %s\n", msg);
		return NULL;
	}
	int rc = fill(report_file_stream(f), ctx);
	if (report_file_check(f, msg, sizeof msg) < 0) {
		fprintf(stderr, "plot: %s\n", msg);
		rc = -1;
	}
	if (rc < 0) {
		report_file_abort(f);
		return NULL;
	}
	return f;
}

/* Commits f (NULL: already failed, said); 0, or -1 after saying why. */
static int commit(report_file *f)
{
	char msg[512];
	if (f && report_file_commit(f, msg, sizeof msg) == 0)
		return 0;
	if (f)
		fprintf(stderr, "plot: %s\n", msg);
	return -1;
}

typedef struct dat_job {
	const plot_opts *o;
	const plot_paths *p;
	plot_axis axis;
	char subtitle[400];   /* the run the picture shows, under its title; "" for none */
} dat_job;

/* `subtitle = '...'` for the script (gnuplot's single quotes: '' is one). */
static void put_subtitle(FILE *out, const char *s)
{
	fputs("subtitle = '", out);
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", out);
		else
			fputc((unsigned char)*s < ' ' ? ' ' : *s, out);
	fputs("'\n", out);
}

/* The script of the kind (ctx: the dat_job, whose data is written first).
 * Every script gets the run's name (subtitle) after its opening comment;
 * the split's and the timeline's also the categories' colours, from the
 * one table both draw with (plot_write_colours). */
static int fill_script(FILE *out, void *ctx)
{
	const dat_job *j = ctx;
	const char *kind = j->o->kind, *s = plot_script(kind), *body = s, *nl;
	while (*body == '#' && (nl = strchr(body, '\n')))
		body = nl + 1;
	fwrite(s, 1, (size_t)(body - s), out);
	fputc('\n', out);
	put_subtitle(out, j->subtitle);
	if (j->o->percent)
		fputs("share = 1   # each bar as shares of its step\n", out);
	if (!strcmp(kind, "split") || !strcmp(kind, "timeline")) {
		plot_write_colours(out);
		if (!strcmp(kind, "timeline"))
			plot_write_phase_colours(out);
	}
	fputc('\n', out);
	fputs(body, out);
	return ferror(out) ? -1 : 0;
}

static int fill_dat(FILE *out, void *ctx)
{
	dat_job *j = ctx;
	fprintf(out, "# trainsim plot --kind %s, from %s\n", j->o->kind, j->o->results);
	if (!strcmp(j->o->kind, "timeline")) {
		if (j->o->from || j->o->to)   /* the window: the x range and finer ticks */
			fprintf(out, "# redraw: gnuplot -c %s %s %s %s '%s'\n", j->p->gp_base,
			        j->p->dat_base, j->p->out_base, j->o->win[0], j->o->win[1]);
		else
			fprintf(out, "# redraw: gnuplot -c %s %s %s\n", j->p->gp_base, j->p->dat_base,
			        j->p->out_base);
		return plot_write_timeline(j->o->results, j->o->from_s, j->o->to_s, out, stderr,
		                           j->subtitle, sizeof j->subtitle);
	}
	/* the tables: one, or the split's several side by side */
	plot_table *ts[PLOT_MAX_RESULTS] = {0};
	const char *paths[PLOT_MAX_RESULTS] = {j->o->results};
	size_t nt = 1 + (size_t)j->o->nmore;
	int rc = -1;
	plot_table *t;
	for (size_t i = 1; i < nt; i++)
		paths[i] = j->o->more[i - 1];
	for (size_t i = 0; i < nt; i++) {
		if (!(ts[i] = plot_table_load(paths[i], stderr)))
			goto out_free;
		if (plot_table_is_validation(ts[i]) && strcmp(j->o->kind, "parity")) {
			fprintf(stderr, "plot: %s is the CSV of trainsim validate: draw it with --kind "
			        "parity\n", paths[i]);
			goto out_free;
		}
		/* the run's name: the one every table shares, else none */
		char title[sizeof j->subtitle] = "";
		if (strcmp(j->o->kind, "parity"))
			plot_table_title(ts[i], title, sizeof title);
		if (i == 0)
			memcpy(j->subtitle, title, sizeof title);
		else if (strcmp(title, j->subtitle))
			j->subtitle[0] = 0;
	}
	for (size_t i = 1; i < nt; i++)
		fprintf(out, "# and from %s\n", paths[i]);
	t = ts[0];
	if (!strcmp(j->o->kind, "speed")) {
		/* The axis is known only once the data is read: the redraw line follows it. */
		char *body = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&body, &len);
		if (!mem)
			fprintf(stderr, "plot: out of memory\n");
		rc = mem ? plot_write_speed(t, j->o->x, j->o->series, mem, &j->axis, stderr) : -1;
		if (mem && fclose(mem) != 0)
			rc = -1;
		if (rc == 0) {
			fprintf(out, "# redraw: gnuplot -c %s %s %s '%s' %s\n", j->p->gp_base,
			        j->p->dat_base, j->p->out_base, j->axis.label, j->axis.log ? "log" : "linear");
			fwrite(body, 1, len, out);
		}
		free(body);
	} else {
		fprintf(out, "# redraw: gnuplot -c %s %s %s\n", j->p->gp_base, j->p->dat_base,
		        j->p->out_base);
		rc = !strcmp(j->o->kind, "parity") ? plot_write_parity(t, out, stderr)
		                                   : plot_write_split((const plot_table *const *)ts, nt,
		                                                      j->o->percent, out, stderr);
	}
out_free:
	for (size_t i = 0; i < nt; i++)
		plot_table_free(ts[i]);
	return rc == 0 && !ferror(out) ? 0 : -1;
}

/* Whether gnuplot wrote the whole picture: its pngcairo terminal exits 0
 * when the write failed (a full disk), leaving a PNG without its IEND chunk
 * or an SVG without its closing tag. */
static bool picture_whole(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	char tail[64] = "";
	size_t n = 0;
	if (fseek(f, -(long)sizeof tail, SEEK_END) < 0)
		rewind(f);
	n = fread(tail, 1, sizeof tail, f);
	fclose(f);
	static const char iend[] = "IEND\xae\x42\x60\x82";
	for (size_t i = 0; i + 8 <= n; i++)
		if (!memcmp(tail + i, iend, 8))
			return true;
	for (size_t i = 0; i + 6 <= n; i++)
		if (!memcmp(tail + i, "</svg>", 6))
			return true;
	return false;
}

/* The picture gnuplot wrote to p->tmp, copied into o->out through a
 * report_file, which keeps a symlink a link and writes a device in place.
 * NULL after saying why. */
static report_file *picture_temp(const plot_opts *o, const plot_paths *p)
{
	char msg[512], buf[65536];
	FILE *in = fopen(p->tmp, "rb");
	if (!in) {
		fprintf(stderr, "plot: %s: cannot read gnuplot's picture: %s\n", shown(p->tmp),
		        strerror(errno));
		return NULL;
	}
	report_file *f = report_file_open(o->out, msg, sizeof msg);
	if (!f)
		fprintf(stderr, "plot: %s\n", msg);
	size_t n;
	while (f && (n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, report_file_stream(f));
	int in_err = ferror(in) ? errno : 0;
	if (f && report_file_check(f, msg, sizeof msg) < 0) {
		fprintf(stderr, "plot: %s\n", msg);
		report_file_abort(f);
		f = NULL;
	} else if (f && in_err) {
		fprintf(stderr, "plot: %s: cannot read gnuplot's picture: %s\n", shown(p->tmp),
		        strerror(in_err));
		report_file_abort(f);
		f = NULL;
	}
	fclose(in);
	return f;
}

/* Runs gnuplot on the data and script as written so far (dat, gp: their
 * temporary names). EXTPROG_OK when p->tmp holds the whole picture; else
 * p->tmp is removed, and the reason said unless gnuplot was not found. */
static int run_gnuplot(const plot_opts *o, const plot_paths *p, const char *dat, const char *gp,
                       const plot_axis *axis)
{
	const char *prog = getenv("TRAINSIM_GNUPLOT");
	if (!prog || !*prog)
		prog = GNUPLOT_PATH;
	char *argv[] = {(char *)prog, "-c", (char *)gp, (char *)dat, (char *)p->tmp,
	                (char *)axis->label, axis->log ? "log" : "linear", NULL};
	if (!strcmp(o->kind, "timeline") && (o->from || o->to)) {
		argv[5] = (char *)o->win[0];
		argv[6] = (char *)o->win[1];
	} else if (strcmp(o->kind, "speed"))
		argv[5] = NULL;
	int rc = extprog_run(argv, stderr);
	if (rc == EXTPROG_OK && !picture_whole(p->tmp)) {
		fprintf(stderr, "plot: %s: gnuplot did not write the whole picture (a full disk?); "
		        "nothing written\n", o->out);
		rc = EXTPROG_EFAIL;
	}
	if (rc != EXTPROG_OK)
		unlink(p->tmp);
	return rc;
}

/* Without gnuplot the data and the script are still of use: they are kept,
 * with the command that draws them. */
static void no_gnuplot(const plot_opts *o, const plot_paths *p, const plot_axis *axis)
{
	fprintf(stderr, "plot: gnuplot is needed to draw %s (Debian: apt-get install gnuplot-nox;"
	        " or set TRAINSIM_GNUPLOT). The data and the script are written:\n"
	        "  %s\n  %s\nDraw it later with: gnuplot -c %s %s %s", o->out, shown(p->dat),
	        shown(p->gp), shown(p->gp), shown(p->dat), o->out);
	if (!strcmp(o->kind, "timeline") && (o->from || o->to))   /* as the .dat's redraw line */
		fprintf(stderr, " '%s' '%s'", o->win[0], o->win[1]);
	else if (!strcmp(o->kind, "speed"))
		fprintf(stderr, " '%s' '%s'", axis->label, axis->log ? "log" : "linear");
	fputc('\n', stderr);
}

/* Two names of one file: the same file where both exist, else the same
 * path once a leading "./" is dropped. */
static bool same_path(const char *a, const char *b)
{
	if (report_same_file(a, b))
		return true;
	while (!strncmp(a, "./", 2))
		a += 2;
	while (!strncmp(b, "./", 2))
		b += 2;
	return !strcmp(a, b);
}

const char *plot_output_clash(const char *input, const char *picture)
{
	size_t n = strlen(picture);
	if (n < 4)
		return NULL;
	char dat[4096], gp[4096];
	if (snprintf(dat, sizeof dat, "%.*s.dat", (int)(n - 4), picture) >= (int)sizeof dat ||
	    snprintf(gp, sizeof gp, "%.*s.gp", (int)(n - 4), picture) >= (int)sizeof gp)
		return NULL;
	return same_path(input, picture) ? "the picture"
	     : same_path(input, dat) ? "the data file (.dat)"
	     : same_path(input, gp) ? "the gnuplot script (.gp)" : NULL;
}

/* The .dat, the .gp and the picture appear together or not at all: each is
 * written under a temporary name, gnuplot draws from those, and they are
 * renamed into place only once the picture is whole. A failure leaves what
 * was there before. */
int cmd_plot(int argc, char **argv)
{
	plot_opts o;
	plot_paths p;
	int rc = plot_parse(argc, argv, &o);
	if (rc) {
		plot_usage(rc > 0 ? stdout : stderr);
		return rc > 0 ? 0 : 2;
	}
	if (plot_paths_make(&o, &p) < 0)
		return 2;
	/* a results file the picture's own files would replace */
	for (int i = -1; i < o.nmore; i++) {
		const char *in = i < 0 ? o.results : o.more[i], *what = plot_output_clash(in, o.out);
		if (what) {
			fprintf(stderr, "plot: %s is %s that -o %s writes; name the picture otherwise, "
			        "e.g. -o plot.png\n", in, what, o.out);
			return 2;
		}
	}
	/* before any work: -o naming a directory showed only after gnuplot ran */
	char werr[512];
	if (report_target_writable(o.out, werr, sizeof werr) < 0) {
		fprintf(stderr, "plot: %s\n", werr);
		return 1;
	}
	dat_job job = {.o = &o, .p = &p};
	report_file *dat = write_temp(p.dat, fill_dat, &job), *gp = NULL, *pic = NULL;
	if (!dat || !(gp = write_temp(p.gp, fill_script, &job)))
		goto out_abort;
	rc = run_gnuplot(&o, &p, report_file_name(dat), report_file_name(gp), &job.axis);
	if (rc == EXTPROG_ENOENT) {
		if (commit(dat) < 0)
			report_file_abort(gp);
		else if (commit(gp) == 0)
			no_gnuplot(&o, &p, &job.axis);
		return 1;
	}
	if (rc != EXTPROG_OK)
		goto out_abort;
	pic = picture_temp(&o, &p);
	unlink(p.tmp);
	if (!pic)
		goto out_abort;
	/* the picture last: a picture in place comes with its data */
	report_file *order[] = {dat, gp, pic};
	for (int i = 0; i < 3; i++)
		if (commit(order[i]) < 0) {
			while (++i < 3)
				report_file_abort(order[i]);
			return 1;
		}
	fprintf(stderr, "plot: wrote %s (data %s, script %s)\n", o.out, shown(p.dat), shown(p.gp));
	return 0;
out_abort:
	report_file_abort(dat);
	report_file_abort(gp);
	report_file_abort(pic);
	return 1;
}
