/* step_dp.c: the data-parallel stream of each simulated GPU: gradient
 * buckets closed as the last micro-batch's backward produces them (reverse
 * layer order), optional compression on the compute stream, ZeRO traffic,
 * the optimizer step, and (async DP) updates that trail the next step. Each
 * stream runs its collectives one at a time, in order, as NCCL does on one
 * communicator stream. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "step_int.h"

int stp_fifo_push(stp_fifo *f, const stp_task *t)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		stp_task *v = malloc(cap * sizeof *v);
		if (!v)
			return -1;
		for (size_t i = 0; i < f->n; i++)
			v[i] = f->v[(f->head + i) % f->cap];
		free(f->v);
		f->v = v;
		f->cap = cap;
		f->head = 0;
	}
	f->v[(f->head + f->n) % f->cap] = *t;
	f->n++;
	return 0;
}

void stp_fifo_free(stp_fifo *f)
{
	free(f->v);
	*f = (stp_fifo){0};
}

static void dp_fail(stp_run *r, const char *what)
{
	if (!r->failed)
		snprintf(r->err, sizeof r->err, "%s", what);
	r->failed = true;
	sim_stop(r->sim);
}

/* ---- the DP stream ---- */

static void on_dp_timer(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	(void)s;
	r->st[arg].dp_timer = false;
	stp_dp_pump(r, &r->st[arg]);
}

static void check_async(stp_run *r, stp_stage *st);

static void on_dp_done(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	stp_stage *st = &r->st[arg];
	stp_task t = st->dq.v[st->dq.head];
	st->dq.head = (st->dq.head + 1) % st->dq.cap;
	st->dq.n--;
	st->dp_running = false;
	st->dp_done++;
	r->dp_collectives += 1;
	stp_busy(r, st, -1);
	int lab = t.kind == DPT_BUCKET ? (r->s->training.zero ? 9 : 8) : 10;
	stp_record(r, st->idx, 3, SPLIT_DP_COMM, st->dp_t0, sim_now(s), lab << 27);
	if (r->async)
		check_async(r, st);
	stp_dp_pump(r, st);
	if (st->run == RUN_NONE)
		stp_advance(r, st);
}

void stp_dp_pump(stp_run *r, stp_stage *st)
{
	if (st->dp_running || st->dq.n == 0 || r->failed)
		return;
	const stp_task *t = &st->dq.v[st->dq.head];
	double now = sim_now(r->sim);
	if (t->not_before > now) {
		if (!st->dp_timer) {
			st->dp_timer = true;
			if (sim_at(r->sim, t->not_before, SIM_PRIO_NORMAL, on_dp_timer, r,
				   (uint64_t)st->idx) < 0)
				dp_fail(r, "out of memory for events");
		}
		return;
	}
	coll_op op = COLL_ALL_GATHER;
	if (t->kind == DPT_BUCKET)
		op = r->s->training.zero ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE;
	coll_req req = {.op = op, .algo = r->dp_algo, .ranks = st->dp_ranks, .n = r->dp,
			.bytes = t->bytes, .mult = (double)r->tp,
			.ps_servers = r->s->training.grad_reduce.ps_servers};
	st->dp_running = true;
	st->dp_t0 = now;
	stp_busy(r, st, +1);
	if (coll_start(r->cc, &req, on_dp_done, r, (uint64_t)st->idx) < 0)
		dp_fail(r, "could not start a data-parallel collective (coll_start failed)");
}

static uint64_t dp_enqueue(stp_run *r, stp_stage *st, int kind, int step, double bytes,
			   double not_before)
{
	stp_task t = {.kind = (uint8_t)kind, .step = step, .bytes = bytes,
		      .not_before = not_before, .seq = ++st->dp_issued};
	if (stp_fifo_push(&st->dq, &t) < 0)
		dp_fail(r, "out of memory for the data-parallel queue");
	stp_dp_pump(r, st);
	return t.seq;
}

/* ---- gradient buckets ---- */

static void bucket_to_dp(stp_run *r, stp_stage *st, int step, double bytes)
{
	double late = stp_var_lateness(r, st);
	st->upd[step % 3].last_seq = dp_enqueue(r, st, DPT_BUCKET, step, bytes * r->wire_per_byte,
						sim_now(r->sim) + late);
}

static void emit_bucket(stp_run *r, stp_stage *st, double bytes)
{
	stp_update *u = &st->upd[st->step % 3];
	if (r->wire_per_byte < 1.0) {
		stp_task t = {.kind = SIDE_COMPRESS, .step = st->step, .bytes = bytes};
		if (stp_fifo_push(&st->side, &t) < 0)
			dp_fail(r, "out of memory for compression tasks");
		u->compress_pending++;
		return;
	}
	bucket_to_dp(r, st, st->step, bytes);
}

void stp_grad_ready(stp_run *r, stp_stage *st, double bytes, bool last_mb)
{
	if (r->dp <= 1 || !last_mb)
		return;
	st->bucket_fill += bytes;
	while (st->bucket_fill >= r->bucket_bytes * (1 - 1e-12)) {
		st->bucket_fill -= r->bucket_bytes;
		if (r->s->training.grad_reduce.overlap)
			emit_bucket(r, st, r->bucket_bytes);
		else
			st->deferred += 1;
	}
	if (st->bucket_fill < 0)
		st->bucket_fill = 0;
}

void stp_ops_finished(stp_run *r, stp_stage *st)
{
	if (r->dp > 1) {
		for (double i = 0; i < st->deferred; i++)
			emit_bucket(r, st, r->bucket_bytes);
		if (st->bucket_fill > 0)
			emit_bucket(r, st, st->bucket_fill);
	}
	st->deferred = 0;
	st->bucket_fill = 0;
	st->upd[st->step % 3].ops_done = true;
	if (r->async)
		check_async(r, st);
}

void stp_z3_issue(stp_run *r, stp_stage *st, double bytes)
{
	dp_enqueue(r, st, DPT_Z3AG, st->step, bytes, 0);
}

/* ---- updates: reduction done, optimizer, parameter all-gather ---- */

bool stp_update_ready(const stp_run *r, const stp_stage *st, int step)
{
	const stp_update *u = &st->upd[step % 3];
	(void)r;
	return u->step == step && u->ops_done && u->compress_pending == 0 &&
	       st->dp_done >= u->last_seq;
}

static bool zero12(const stp_run *r)
{
	return r->dp > 1 && (r->s->training.zero == 1 || r->s->training.zero == 2);
}

/* ZeRO-1/2 (distributed optimizer): each replica updated its shard; gather
 * the updated parameters, in buckets of the same element count. */
static uint64_t param_allgather(stp_run *r, stp_stage *st, int step)
{
	double pb = hw_precision_bytes(r->s->training.precision);
	double gb = hw_precision_bytes(r->s->training.grad_reduce.dtype);
	double total = st->params * pb, chunk = r->bucket_bytes / gb * pb, seq = 0;
	for (double done = 0; done < total; done += chunk)
		seq = (double)dp_enqueue(r, st, DPT_PARAMAG, step, fmin(chunk, total - done), 0);
	return (uint64_t)seq;
}

static void check_async(stp_run *r, stp_stage *st)
{
	for (int k = 1; k <= 2; k++) {
		int step = st->upd_done + k;
		stp_update *u = &st->upd[step % 3];
		if (u->step != step)
			continue;
		if (u->state == 0 && stp_update_ready(r, st, step)) {
			stp_task t = {.kind = SIDE_OPT, .step = step};
			u->state = 1;
			if (stp_fifo_push(&st->side, &t) < 0)
				dp_fail(r, "out of memory for optimizer tasks");
		}
		if (u->state == 2 && st->dp_done >= u->last_seq && k == 1) {
			u->state = 3;
			st->upd_done = step;
			k = 0;   /* the next step may be complete too */
		}
	}
}

void stp_side_done(stp_run *r, stp_stage *st, const stp_task *t)
{
	stp_update *u = &st->upd[t->step % 3];
	if (t->kind == SIDE_COMPRESS) {
		u->compress_pending--;
		bucket_to_dp(r, st, t->step, t->bytes);
	} else if (zero12(r)) {
		u->last_seq = param_allgather(r, st, t->step);
		u->state = 2;
	} else {
		u->state = 3;
		st->upd_done = t->step;
	}
	if (r->async)
		check_async(r, st);
}

void stp_optimizer_done(stp_run *r, stp_stage *st)
{
	stp_update *u = &st->upd[st->step % 3];
	if (zero12(r)) {
		u->last_seq = param_allgather(r, st, st->step);
		st->phase = PH_PAG;
	} else {
		st->phase = PH_DONE;
	}
}

bool stp_dp_idle_wait(stp_run *r, stp_stage *st)
{
	if (st->phase == PH_PAG) {
		if (st->dp_done < st->upd[st->step % 3].last_seq)
			return true;
	} else if (st->upd_done < r->K - 1) {   /* PH_TAIL */
		return true;
	}
	st->phase = PH_DONE;
	return false;
}
