/* store_account.c: what the step takes from storage after its simulation: the
 * checkpoint's share of the step, failures and goodput, and one sentence each
 * for data, checkpoints and failures that says what the alternative would do. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "store.h"
#include "units.h"

/* Sentences are cut at the note's size; snprintf's result is checked so that
 * the compiler knows the cut is deliberate. */
#define FMT(buf, ...) do { if (snprintf(buf, sizeof buf, __VA_ARGS__) < 0) buf[0] = 0; } while (0)

static void add_note(step_result *r, const char *text)
{
	if (r->n_notes >= (int)(sizeof r->notes / sizeof r->notes[0]))
		return;
	size_t n = strlen(text), cap = sizeof r->notes[0] - 1;
	memcpy(r->notes[r->n_notes], text, n < cap ? n : cap);
	r->notes[r->n_notes++][n < cap ? n : cap] = 0;
}

static const char *source_name(scn_data_source src, bool cold)
{
	if (cold)
		return "remote storage (local cache cold: first epoch)";
	return src == DATA_MEMORY ? "host memory" : src == DATA_LOCAL_CACHE
	       ? "the local NVMe cache" : "remote storage";
}

/* Closed-form steady stall of a plan for a step of period_s without it (the
 * rule of store_data_steady_stall). */
static double plan_stall(const store_data_plan *p, int prefetch, double period_s)
{
	if (p->bytes_per_step <= 0)
		return 0;
	return prefetch <= 0 ? p->read_s : fmax(0.0, p->read_s - period_s);
}

static void data_note(const scenario *s, step_result *r, const store_data_plan *p)
{
	char b[32], t[32], st[32], alt[200] = "";
	double stall = r->split_s[SPLIT_DATA_STALL];
	double period = r->step_time_s - stall;
	unit_fmt(b, sizeof b, p->bytes_per_step, UNIT_BYTES);
	unit_fmt(t, sizeof t, p->read_s, UNIT_TIME);
	unit_fmt(st, sizeof st, stall, UNIT_TIME);
	scenario a = *s;   /* shallow copy: only scalar fields are changed */
	bool remote = p->source == DATA_STORAGE;
	if (remote && s->cluster.cache.present) {
		a.training.data.source = DATA_LOCAL_CACHE;
		a.training.data.cache_warm = true;
	} else if (!remote) {
		a.training.data.source = DATA_STORAGE;
	}
	store_data_plan q;
	char err[128];
	if ((remote ? s->cluster.cache.present : true) &&
	    store_data_plan_get(&a, &q, err, sizeof err) == 0) {
		char t2[32], s2[32];
		unit_fmt(t2, sizeof t2, q.read_s, UNIT_TIME);
		unit_fmt(s2, sizeof s2, plan_stall(&q, a.training.data.prefetch, period), UNIT_TIME);
		FMT(alt, "; from %s it would take %s and stall %s",
		         remote ? "a warm local NVMe cache" : "remote storage", t2, s2);
	}
	char text[512];
	FMT(text, "Data: %s per step from %s, read in %s (limit: %s), prefetch %d, data stall %s "
	         "per step%s.", b, source_name(p->source, p->cold_cache), t, p->bottleneck,
	         s->training.data.prefetch, st, alt);
	add_note(r, text);
}

static void ckpt_note(const scenario *s, step_result *r, const store_ckpt_result *d,
                      double step_s)
{
	const step_checkpoint *ck = &r->checkpoint;
	bool async = s->training.checkpoint.mode == CKPT_ASYNC && !d->async_fallback;
	bool shared = s->cluster.storage.network == STORAGE_NET_SHARED;
	char b[32], w[32], am[32], text[512], alt[224] = "";
	unit_fmt(b, sizeof b, ck->bytes, UNIT_BYTES);
	unit_fmt(w, sizeof w, ck->write_s, UNIT_TIME);
	double own = ck->stall_s / ck->every;   /* this tier's share (amortized_s holds both) */
	unit_fmt(am, sizeof am, own, UNIT_TIME);
	/* the same checkpoint over the other network, when both are described */
	scenario a = *s;
	a.cluster.storage.network = shared ? STORAGE_NET_FRONTEND : STORAGE_NET_SHARED;
	step_checkpoint ca;
	char err[256];
	if ((shared ? s->cluster.storage.frontend_Bps > 0 : true) &&
	    store_checkpoint(&a, step_s, &ca, NULL, err, sizeof err) == 0) {
		char x[32];
		unit_fmt(x, sizeof x, ca.stall_s / ca.every, UNIT_TIME);
		FMT(alt, "; over %s it would cost %s per step",
		         shared ? "a separate frontend NIC" : "the shared training NICs", x);
	}
	/* the same checkpoint ten times more (less) often: what it costs a step
	 * there, simulated (an async write's wait for the previous one depends
	 * on the interval) */
	int other = ck->every >= 1000 ? ck->every / 10 : ck->every * 10;
	char y[32], st[32], how[360];
	scenario oth = *s;
	oth.training.checkpoint.every = other;
	step_checkpoint co;
	double per = ck->stall_s / other;
	if (store_checkpoint(&oth, step_s, &co, NULL, err, sizeof err) == 0)
		per = co.stall_s / other;
	unit_fmt(y, sizeof y, per, UNIT_TIME);
	unit_fmt(st, sizeof st, ck->stall_s, UNIT_TIME);
	if (async) {
		/* the stall is the snapshot, any wait for the previous background
		 * write (store_checkpoint), and the slower overlapped reductions */
		char z[32], sn[32], wt[32], extra[112] = "", waits[64] = "";
		unit_fmt(z, sizeof z, d->dp_with_ckpt_s - d->dp_alone_s, UNIT_TIME);
		unit_fmt(sn, sizeof sn, d->snapshot_s, UNIT_TIME);
		double wait = d->write_s - d->snapshot_s - ck->every * step_s;
		unit_fmt(wt, sizeof wt, wait, UNIT_TIME);
		if (wait > 0)
			FMT(waits, " and %s for the previous write to finish", wt);
		if (d->dp_with_ckpt_s > d->dp_alone_s)
			FMT(extra, ", and its background writes slow each overlapped gradient reduction "
			    "by %s", z);
		char bg[32];
		unit_fmt(bg, sizeof bg, d->write_s - d->snapshot_s, UNIT_TIME);
		FMT(how, "training blocks %s for the snapshot%s, then the background writes take %s "
		    "(limit: %s; on storage %s after the snapshot began)%s", sn, waits, bg,
		    d->bottleneck, w, extra);
	} else {
		FMT(how, "training waits %s for the write (limit: %s)", w, d->bottleneck);
	}
	FMT(text, "Checkpoint: %s every %d steps, %s over the %s: %s; %s per step (%.2f%%)%s. "
	    "Every %d steps instead, it would cost %s per step.", b, ck->every,
	    async ? "async" : d->async_fallback ? "async falling back to sync (host memory too small)"
	                                        : "sync",
	    shared ? "shared training NICs" : "frontend network", how, am,
	    100 * own / r->step_time_s, alt, other, y);
	add_note(r, text);
}

static void local_note(const scenario *s, step_result *r, const store_ckpt_result *d,
                       bool failures)
{
	const step_checkpoint *ck = &r->checkpoint;
	bool async = s->training.checkpoint.mode == CKPT_ASYNC && !d->async_fallback;
	char b[32], w[32], sn[32], am[32], ld[32], how[160], copies[160], fate[224] = "";
	unit_fmt(b, sizeof b, ck->local_bytes_per_gpu, UNIT_BYTES);
	unit_fmt(w, sizeof w, ck->local_write_s, UNIT_TIME);
	unit_fmt(sn, sizeof sn, ck->local_stall_s, UNIT_TIME);
	double own = ck->local_stall_s / ck->local_every;
	unit_fmt(am, sizeof am, own, UNIT_TIME);
	if (ck->local_copies > 1)
		FMT(copies, "and %d cop%s to the next node%s over the training NICs",
		    ck->local_copies - 1, ck->local_copies == 2 ? "y" : "ies",
		    ck->local_copies == 2 ? "" : "s");
	else
		FMT(copies, "and nowhere else");
	if (async)
		FMT(how, "training blocks %s for the snapshot, the writes take %s (limit: %s)", sn, w,
		    d->bottleneck);
	else
		FMT(how, "training waits %s for the writes (limit: %s)", w, d->bottleneck);
	if (failures && ck->every > 0 && ck->every <= ck->local_every) {
		FMT(fate, " Restarts resume from the storage checkpoints, written as often or more "
		    "(every %d steps): the local tier only costs here.", ck->every);
	} else if (failures && ck->local_copies >= 2) {
		unit_fmt(ld, sizeof ld, ck->local_load_s, UNIT_TIME);
		FMT(fate, " A restart resumes from it, reading it back in %s (the replaced node's "
		    "from its peer)%s.", ld, s->training.failures.reload ? "" : "; not added, "
		    "training.failures.reload is false");
	} else if (failures) {
		FMT(fate, " A failed node is replaced, and its drive with it: with one copy a "
		    "restart cannot resume from it and goes back to the last checkpoint on storage%s "
		    "(%s).", ck->every > 0 ? "" : ", of which there is none", s->cluster.nodes > 1
		    ? "local_copies: 2 keeps a copy on a peer" : "a copy on a peer needs a second node");
	}
	char text[640];
	FMT(text, "Local checkpoint: %s a GPU every %d steps to its node's drive %s, %s: %s; %s "
	    "per step (%.2f%%).%s", b, ck->local_every, copies, async ? "async" : d->async_fallback
	    ? "async falling back to sync (host memory too small)" : "sync", how, am,
	    100 * own / r->step_time_s, fate);
	add_note(r, text);
}

static void fail_note(const scenario *s, step_result *r, const store_fail_result *f)
{
	char text[640], best[160] = "", reload[96] = "";
	if (f->reload_s >= 0.5)
		FMT(reload, "; each restart %.0f s, %.0f s of it reading the checkpoint back",
		         f->restart_s, f->reload_s);
	if (f->best_every > 0)
		FMT(best, "; best %sinterval by simulation %d step%s (%.0f-%.0f), "
		         "Young %.0f, Daly %.0f", f->best_is_local ? "local " : "",
		         f->best_every, f->best_every == 1 ? "" : "s",
		         f->best_every_lo, f->best_every_hi,
		         f->young_every, f->daly_every);
	if (r->checkpoint.every <= 0 && !f->local_recovers)
		FMT(best, "; %s: each failure restarts the run from its start, so %s",
		         r->checkpoint.local_every > 0 ? "no checkpoint to resume from (local ones "
		         "leave with the failed node)" : "no checkpoints "
		         "(training.checkpoint.every)", s->run.train_tokens > 0
		         ? "goodput is that of this run's length" : "a long run keeps nothing");
	/* Meta's figures are a yardstick for jobs of their size only */
	FMT(text, "Failures: job MTBF %.2f h, goodput %.1f%% +- %.2f%% (lost work %.1f%%, restarts "
	         "%.1f%%, checkpoints %.1f%%)%s%s%s.", f->job_mtbf_s / 3600, 100 * f->goodput,
	         100 * f->goodput_ci, 100 * f->lost_work_frac, 100 * f->restart_frac,
	         100 * f->ckpt_frac, reload, best, scn_gpus(s) >= 4096
	         ? "; for comparison at this scale, Meta published 3.1 h and >90% for its Llama 3 "
	           "405B job on 16,384 H100" : "");
	add_note(r, text);
}

int store_account(const scenario *s, step_result *r, char *err, size_t errlen)
{
	double step_s = r->step_time_s;   /* data stall in, checkpoint share not yet */
	store_data_plan plan;
	if (store_data_plan_get(s, &plan, err, errlen) < 0)
		return -1;
	r->data_bytes_per_step = plan.bytes_per_step;
	store_ckpt_result d, dl;
	if (store_checkpoint_tiers(s, step_s, &r->checkpoint, &d, &dl, err, errlen) < 0)
		return -1;
	/* the step's derived metrics (gpu_util, MFU, percentiles) are computed by
	 * the caller after this, from the final step time */
	/* the timeline ends with the step's share of the checkpoints (amortized:
	 * a write every `every` steps), on each simulated GPU's checkpoint track */
	if (r->timeline && r->checkpoint.amortized_s > 0) {
		int g = r->timeline_gpus > 0 ? r->timeline_gpus : 1;
		/* after the last work drawn (the last simulated step's, which with
		 * variability is not the mean step) */
		double end = 0;
		for (size_t i = 0; i < r->n_timeline; i++)
			end = fmax(end, r->timeline[i].t1);
		step_interval *tl = realloc(r->timeline, (r->n_timeline + (size_t)g) * sizeof *tl);
		if (tl) {
			r->timeline = tl;
			for (int k = 0; k < g; k++)
				r->timeline[r->n_timeline++] = (step_interval){.gpu = k, .stream = 5,
					.cat = SPLIT_CHECKPOINT, .t0 = end,
					.t1 = end + r->checkpoint.amortized_s, .mb = -1,
					.label = "checkpoint (amortized)"};
		}
	}
	r->split_s[SPLIT_CHECKPOINT] += r->checkpoint.amortized_s;
	r->step_time_s += r->checkpoint.amortized_s;

	const scn_failures *fl = &s->training.failures;
	bool failures = scn_failures_on(fl);
	store_fail_opts fo = { .search_best = failures, .ckpt = &d,
	                       .ckpt_async = s->training.checkpoint.mode == CKPT_ASYNC,
	                       .local = &dl };
	store_fail_result f;
	if (store_failures(s, step_s, &r->checkpoint, &fo, &f) < 0) {
		snprintf(err, errlen, "failure model: out of memory or no step time");
		return -1;
	}
	r->job_mtbf_s = f.job_mtbf_s;
	r->best_checkpoint_every = f.best_is_local ? 0 : f.best_every;
	r->best_local_checkpoint_every = f.best_is_local ? f.best_every : 0;
	r->goodput = failures ? f.goodput : 1;
	if (failures) {
		r->lost_work_frac = f.lost_work_frac;
		r->restart_frac = f.restart_frac;
		r->ckpt_frac = f.ckpt_frac;
		r->restart_s = f.restart_s;
	}
	if (s->run.train_tokens > 0) {
		double steps = ceil(s->run.train_tokens / scn_tokens_per_step(s));
		r->time_to_train_s = failures ? f.time_to_train_s : steps * r->step_time_s;
	}
	if (plan.bytes_per_step > 0 &&
	    (plan.source != DATA_MEMORY || r->split_s[SPLIT_DATA_STALL] > 0))
		data_note(s, r, &plan);
	if (r->checkpoint.every > 0)
		ckpt_note(s, r, &d, step_s);
	if (r->checkpoint.local_every > 0)
		local_note(s, r, &dl, failures);
	if (failures)
		fail_note(s, r, &f);
	return 0;
}
