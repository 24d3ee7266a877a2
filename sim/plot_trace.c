/* plot_trace.c: the .dat file of the timeline plot, from a Chrome trace (the
 * format `trainsim run --trace` writes, which Perfetto also opens). Reading
 * the standard format, rather than a private one, lets the plot draw any
 * trace of that shape, and keeps `run` free of plotting concerns. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plot.h"
#include "jsonr.h"
#include "step.h"

#define TRACE_MAX_BYTES (512u << 20)

typedef struct tl_event {
	double pid, tid, ts_us, dur_us;
	const char *cat, *name;
	size_t track;
} tl_event;

/* The phases of a pipeline op that a compute event's name gives (F3, B3, R3,
 * F3.c1: forward, backward, recompute of micro-batch 3, chunk 1): drawn as
 * shades of compute's colour, in blocks of their own after the step's
 * categories, so that the 1F1B picture of the textbooks can be read off. */
enum { PHASE_F, PHASE_B, PHASE_R, PHASE__N };
static const char *const phase_names[PHASE__N] = {"compute: forward", "compute: backward",
                                                  "compute: recompute"};

/* The phase of event e, or -1 (not a compute op of the step). */
static int event_phase(const tl_event *e)
{
	const char *n = e->name;
	if (!n || strcmp(e->cat, "compute") || !n[0] || n[1] < '0' || n[1] > '9')
		return -1;
	return n[0] == 'F' ? PHASE_F : n[0] == 'B' ? PHASE_B : n[0] == 'R' ? PHASE_R : -1;
}

typedef struct tl_track {
	double pid, tid;
	const char *pname, *tname;
} tl_track;

typedef struct tl {
	size_t bad;              /* 1 + the index of an event with an impossible time */
	const char *bad_field;   /* ... or whose field of that name is not a number */
	tl_event *ev;
	size_t nev;
	tl_track *tr;
	size_t ntr;
	const char **cats;
	size_t ncat;
} tl;

static int track_cmp(const void *a, const void *b)
{
	const tl_track *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The step's categories first, in their fixed order, which gives each its
 * colour (plot_write_colours: gnuplot colours a block by its place), then
 * others by name. */
static int cat_rank(const char *c)
{
	for (int k = 0; k < SPLIT__N; k++)
		if (!strcmp(c, step_split_name((step_split)k)))
			return k;
	return SPLIT__N;
}

static int cat_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = cat_rank(x), ry = cat_rank(y);
	return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x, y);
}

static tl_track *track_find(tl *t, double pid, double tid)
{
	tl_track key = {.pid = pid, .tid = tid};
	return bsearch(&key, t->tr, t->ntr, sizeof *t->tr, track_cmp);
}

/* Complete ("X") events, and the set of tracks and categories they use. */
static int collect(tl *t, const jsonr *events)
{
	size_t n = jsonr_len(events);
	t->ev = calloc(n + 1, sizeof *t->ev);
	t->tr = calloc(n + 1, sizeof *t->tr);
	t->cats = calloc(n + 1, sizeof *t->cats);
	if (!t->ev || !t->tr || !t->cats)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const jsonr *e = jsonr_at(events, i);
		const char *ph = jsonr_str(jsonr_get(e, "ph"));
		if (!ph || strcmp(ph, "X"))
			continue;
		const char *cat = jsonr_str(jsonr_get(e, "cat"));
		if (!cat && !(cat = jsonr_str(jsonr_get(e, "name"))))
			cat = "other";
		/* "ts": "5" read as 0 put every event at the step's start */
		static const char *const nums[] = {"pid", "tid", "ts", "dur"};
		for (size_t k = 0; k < 4; k++) {
			const jsonr *v = jsonr_get(e, nums[k]);
			if (v && jsonr_type_of(v) != JSONR_NUM) {
				t->bad = i + 1;
				t->bad_field = nums[k];
				return -1;
			}
		}
		tl_event ev = {jsonr_num(jsonr_get(e, "pid"), 0), jsonr_num(jsonr_get(e, "tid"), 0),
		               jsonr_num(jsonr_get(e, "ts"), 0), jsonr_num(jsonr_get(e, "dur"), 0), cat,
		               jsonr_str(jsonr_get(e, "name")), 0};
		/* a time no step has (a year in microseconds is 3.2e13) */
		if (!(fabs(ev.ts_us) < 1e15) || !(ev.dur_us >= 0 && ev.dur_us < 1e15)) {
			t->bad = i + 1;
			return -1;
		}
		t->ev[t->nev++] = ev;
		t->tr[t->ntr++] = (tl_track){ev.pid, ev.tid, NULL, NULL};
		t->cats[t->ncat++] = cat;
	}
	qsort(t->tr, t->ntr, sizeof *t->tr, track_cmp);
	qsort(t->cats, t->ncat, sizeof *t->cats, cat_cmp);
	size_t k = 0;
	for (size_t i = 0; i < t->ntr; i++)
		if (!k || track_cmp(&t->tr[k - 1], &t->tr[i]))
			t->tr[k++] = t->tr[i];
	t->ntr = k;
	k = 0;
	for (size_t i = 0; i < t->ncat; i++)
		if (!k || strcmp(t->cats[k - 1], t->cats[i]))
			t->cats[k++] = t->cats[i];
	t->ncat = k;
	for (size_t i = 0; i < t->nev; i++)
		t->ev[i].track = (size_t)(track_find(t, t->ev[i].pid, t->ev[i].tid) - t->tr);
	return 0;
}

/* Names from metadata events: process_name (a GPU) and thread_name (a stream). */
static void names(tl *t, const jsonr *events)
{
	for (size_t i = 0; i < jsonr_len(events); i++) {
		const jsonr *e = jsonr_at(events, i);
		const char *ph = jsonr_str(jsonr_get(e, "ph")), *what = jsonr_str(jsonr_get(e, "name"));
		const char *name = jsonr_str(jsonr_get(jsonr_get(e, "args"), "name"));
		if (!ph || strcmp(ph, "M") || !what || !name)
			continue;
		double pid = jsonr_num(jsonr_get(e, "pid"), 0), tid = jsonr_num(jsonr_get(e, "tid"), 0);
		if (!strcmp(what, "thread_name")) {
			tl_track *tr = track_find(t, pid, tid);
			if (tr)
				tr->tname = name;
		} else if (!strcmp(what, "process_name")) {
			/* the tracks are sorted by pid: the first of this one's, then on */
			size_t lo = 0, hi = t->ntr;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (t->tr[mid].pid < pid)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (size_t k = lo; k < t->ntr && t->tr[k].pid == pid; k++)
				t->tr[k].pname = name;
		}
	}
}

/* A name in gnuplot's double quotes: its own quotes and backslashes as
 * apostrophes, control characters (a newline ended the line) as spaces. */
static void put_text(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++)
		fputc(*s == '"' || *s == '\\' ? '\'' : (unsigned char)*s < ' ' ? ' ' : *s, out);
	fputc('"', out);
}

static void put_label(FILE *out, const tl_track *tr)
{
	char buf[256];
	if (tr->pname)
		snprintf(buf, sizeof buf, "%s", tr->pname);
	else
		snprintf(buf, sizeof buf, "pid %g", tr->pid);
	size_t n = strlen(buf);
	if (tr->tname)
		snprintf(buf + n, sizeof buf - n, " %s", tr->tname);
	else
		snprintf(buf + n, sizeof buf - n, " tid %g", tr->tid);
	put_text(out, buf);
}

/* The window drawn, in seconds from the step's start (to <= 0: its end). */
typedef struct tl_window {
	double from, to;
} tl_window;

/* An event's start and end in the window, false when it lies outside. */
static bool in_window(const tl_event *e, double t0, const tl_window *w, double *a, double *b)
{
	*a = (e->ts_us - t0) / 1e6;
	*b = (e->ts_us + e->dur_us - t0) / 1e6;
	if (*b <= w->from || (w->to > 0 && *a >= w->to))
		return false;
	*a = fmax(*a, w->from);
	if (w->to > 0)
		*b = fmin(*b, w->to);
	return true;
}

/* One block: its title, then its events (the indices ev[0..n-1] of t). */
static void write_block(const tl *t, FILE *out, const char *cat, const size_t *ev, size_t n,
                        double t0, const tl_window *w, bool first)
{
	bool any = false;
	double a, b;
	for (size_t i = 0; i < n && !any; i++)
		any = in_window(&t->ev[ev[i]], t0, w, &a, &b);
	/* an absent category keeps its place: no title (no key entry), one
	 * point off the rows */
	fputs(first ? "" : "\n\n", out);
	put_text(out, any ? cat : "");
	fputc('\n', out);
	if (!any)
		fputs("NaN NaN -1 \"\"\n", out);
	for (size_t i = 0; i < n; i++) {
		const tl_event *e = &t->ev[ev[i]];
		if (!in_window(e, t0, w, &a, &b))
			continue;
		fprintf(out, "%.9g %.9g %zu ", a, b, e->track);
		put_label(out, &t->tr[e->track]);
		fputc('\n', out);
	}
}

/* The step's start: 0 (a trace of this version); an older trace's absolute
 * times, which start past half a step, start at its first event. */
static double step_start(const tl *t, double step_us)
{
	double first = t->nev ? t->ev[0].ts_us : 0;
	for (size_t i = 0; i < t->nev; i++)
		first = fmin(first, t->ev[i].ts_us);
	return first < 0 || (step_us > 0 && first > 0.5 * step_us) ? first : 0;
}

/* Categories of a foreign trace beyond the step's drawn each as a block of
 * their own, by name; the rest share one "other" block (a trace that names
 * every event would make thousands of legend entries). */
#define MAX_OTHER_CATS 24

/* The op an event belongs to, for its label: its name with a recompute
 * counted as the backward it precedes (R3 runs layer by layer between the
 * pieces of B3). */
static bool same_op(const tl_event *x, const tl_event *y)
{
	if (x->track != y->track)
		return false;
	int px = event_phase(x), py = event_phase(y);
	if (px < 0 || py < 0 || (px == PHASE_F) != (py == PHASE_F))
		return false;
	return !strcmp(x->name + 1, y->name + 1);
}

typedef struct ev_at {
	size_t track;
	double ts_us;
	size_t i;
} ev_at;

static int ev_at_cmp(const void *a, const void *b)
{
	const ev_at *x = a, *y = b;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->ts_us != y->ts_us)
		return x->ts_us < y->ts_us ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The last block: the micro-batch numbers of the pipeline ops (F3 and B3
 * are 3; a backward's pieces and their recomputes count as one op) whose
 * boxes are wide enough to hold them, centred in them: centre, centre, row,
 * number. */
static int write_labels(const tl *t, FILE *out, double t0, const tl_window *w, double span)
{
	ev_at *at = malloc((t->nev + 1) * sizeof *at);
	size_t *ix = malloc((t->nev + 1) * sizeof *ix), n = 0;
	if (!at || !ix) {
		free(at);
		free(ix);
		return -1;
	}
	for (size_t i = 0; i < t->nev; i++)
		if (event_phase(&t->ev[i]) >= 0)
			at[n++] = (ev_at){t->ev[i].track, t->ev[i].ts_us, i};
	qsort(at, n, sizeof *at, ev_at_cmp);
	for (size_t i = 0; i < n; i++)
		ix[i] = at[i].i;
	free(at);
	fputs("\n\n\"labels\"\n", out);
	bool any = false;
	for (size_t i = 0, j; i < n; i = j) {
		const tl_event *e = &t->ev[ix[i]];
		for (j = i + 1; j < n && same_op(e, &t->ev[ix[j]]); j++)
			;
		const tl_event *last = &t->ev[ix[j - 1]];
		tl_event op = *e;   /* the op's span, from its first piece to its last's end */
		op.dur_us = last->ts_us + last->dur_us - e->ts_us;
		const tl_event *named = e;   /* the backward's number, not its recompute's */
		for (size_t k = i; k < j; k++)
			if (event_phase(&t->ev[ix[k]]) != PHASE_R)
				named = &t->ev[ix[k]];
		/* the micro-batch's number (the colour tells the phase): F3.c1 is 3 */
		const char *num = named->name + 1;
		int len = 0;
		while (len < 8 && num[len] >= '0' && num[len] <= '9')
			len++;
		/* a digit of the small font is about a 140th of the plot's width */
		double a, b;
		if (!in_window(&op, t0, w, &a, &b) || b - a < span * (len + 1) / 140)
			continue;
		fprintf(out, "%.9g %.9g %zu \"%.*s\"\n", (a + b) / 2, (a + b) / 2, e->track, len, num);
		any = true;
	}
	if (!any)   /* a point off the rows: gnuplot 5.4's labels crash on NaN */
		fprintf(out, "%.9g %.9g -1 \"\"\n", w->from, w->from);
	free(ix);
	return 0;
}

/* The blocks: the step's categories in their fixed order (each in its place,
 * present or not), then the phases of the compute ops, then the others, then
 * the labels (write_labels).
 * The events are bucketed by block first, so that writing them is linear
 * in the events, whatever the categories (it was events x categories: 40,000
 * names took 15 s, 80,000 more than 300). */
static int write_blocks(const tl *t, FILE *out, double t0, const tl_window *w, double span)
{
	size_t nk = 0;   /* the step's categories lead t->cats (cat_cmp) */
	while (nk < t->ncat && cat_rank(t->cats[nk]) < SPLIT__N)
		nk++;
	size_t nother = t->ncat - nk, kept = nother < MAX_OTHER_CATS ? nother : MAX_OTHER_CATS;
	size_t first_other = SPLIT__N + PHASE__N, nb = first_other + kept + (nother > kept);
	/* start[nb + 1] and fill[nb + 1], then order[nev] and blk[nev], in one block */
	size_t *start = calloc(2 * (nb + 1) + 2 * (t->nev + 1), sizeof *start);
	if (!start)
		return -1;
	size_t *fill = start + nb + 1, *order = fill + nb + 1, *blk = order + t->nev + 1;
	for (size_t i = 0; i < t->nev; i++) {
		const char *c = t->ev[i].cat;
		size_t b = (size_t)cat_rank(c);
		int ph = event_phase(&t->ev[i]);
		if (ph >= 0) {
			b = SPLIT__N + (size_t)ph;
		} else if (b == SPLIT__N) {
			const char **at = bsearch(&c, t->cats + nk, nother, sizeof *t->cats, cat_cmp);
			size_t u = at ? (size_t)(at - (t->cats + nk)) : kept;
			b = first_other + (u < kept ? u : kept);
		}
		blk[i] = b;
		start[b + 1]++;
	}
	for (size_t b = 0; b < nb; b++)
		start[b + 1] += start[b];
	for (size_t i = 0; i < t->nev; i++)
		order[start[blk[i]] + fill[blk[i]]++] = i;
	for (size_t b = 0; b < nb; b++) {
		const char *name = b < SPLIT__N ? step_split_name((step_split)b)
		                 : b < first_other ? phase_names[b - SPLIT__N]
		                 : b < first_other + kept ? t->cats[nk + b - first_other] : "other";
		write_block(t, out, name, order + start[b], start[b + 1] - start[b], t0, w, b == 0);
	}
	free(start);
	return write_labels(t, out, t0, w, span);
}

int plot_write_timeline(const char *trace_path, double from_s, double to_s, FILE *out,
                        FILE *err, char *title, size_t title_cap)
{
	if (title && title_cap)
		title[0] = 0;
	/* a sweep's CSV is the usual mistake: say what a timeline is drawn from */
	FILE *peek = fopen(trace_path, "r");
	if (peek) {
		int ch;
		while ((ch = fgetc(peek)) == ' ' || ch == '\n' || ch == '\r' || ch == '\t')
			;
		fclose(peek);
		if (ch != EOF && ch != '{' && ch != '[') {
			fprintf(err, "%s: not a Chrome trace (JSON); a timeline is drawn from one step's "
			        "trace: write it with `trainsim run SCENARIO --trace FILE.json`\n", trace_path);
			return -1;
		}
	}
	jsonr *root = jsonr_load_file(trace_path, TRACE_MAX_BYTES, err);
	if (!root)
		return -1;
	const jsonr *events = jsonr_type_of(root) == JSONR_ARR ? root : jsonr_get(root, "traceEvents");
	tl t = {0};
	int rc = -1;
	if (!events || jsonr_type_of(events) != JSONR_ARR) {
		fprintf(err, "%s: not a Chrome trace (no traceEvents array); write one with "
		        "`trainsim run SCENARIO --trace FILE.json`\n", trace_path);
		goto out_free;
	}
	if (collect(&t, events) < 0) {
		if (t.bad && t.bad_field)
			fprintf(err, "%s: event %zu of traceEvents: its %s is not a number\n", trace_path,
			        t.bad - 1, t.bad_field);
		else if (t.bad)
			fprintf(err, "%s: event %zu of traceEvents has a time no step has (ts %g, dur %g "
			        "us): a start within 10^15 us and a duration of 0 or more\n", trace_path,
			        t.bad - 1, jsonr_num(jsonr_get(jsonr_at(events, t.bad - 1), "ts"), 0),
			        jsonr_num(jsonr_get(jsonr_at(events, t.bad - 1), "dur"), 0));
		else
			fprintf(err, "plot: out of memory\n");
		goto out_free;
	}
	if (t.nev == 0) {
		fprintf(err, "%s: the trace holds no complete (\"X\") event to draw\n", trace_path);
		goto out_free;
	}
	names(&t, events);
	const jsonr *other = jsonr_get(root, "otherData");
	double step_s = jsonr_num(jsonr_get(other, "step_time_s"), 0);
	const char *name = jsonr_str(jsonr_get(other, "scenario")),
	           *sets = jsonr_str(jsonr_get(other, "set"));
	if (title && title_cap && name)
		snprintf(title, title_cap, "%s%s%s", name, sets ? "; set " : "", sets ? sets : "");
	double t0 = step_start(&t, step_s * 1e6), end = 0;
	tl_window w = {from_s > 0 ? from_s : 0, to_s};
	bool inside = false;
	for (size_t i = 0; i < t.nev; i++) {
		double a, b;
		end = fmax(end, (t.ev[i].ts_us + t.ev[i].dur_us - t0) / 1e6);
		inside |= in_window(&t.ev[i], t0, &w, &a, &b);
	}
	if (!inside) {
		if (w.from >= end)
			fprintf(err, "plot: --from %g s is past the step's last event (%.6g s)\n", w.from,
			        end);
		else
			fprintf(err, "plot: nothing happens between %g s and %g s of the step\n", w.from,
			        w.to);
		goto out_free;
	}
	if (write_blocks(&t, out, t0, &w, (w.to > 0 ? fmin(w.to, end) : end) - w.from) < 0) {
		fprintf(err, "plot: out of memory\n");
		goto out_free;
	}
	rc = ferror(out) ? -1 : 0;
out_free:
	free(t.ev);
	free(t.tr);
	free(t.cats);
	jsonr_free(root);
	return rc;
}
