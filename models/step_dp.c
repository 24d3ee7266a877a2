/* step_dp.c: the data-parallel stream of each simulated GPU: gradient
 * buckets closed as the backward produces them (the last micro-batch's, or
 * every one's when ZeRO shards the gradients; reverse
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
	stp_stage *st = &r->st[arg];
	st->dp_timer = false;
	stp_dp_pump(r, st);
	/* the slowest replica has caught up: what the stage still waits for is
	 * the reduction itself */
	if (st->late_idle)
		stp_enter_dp_wait(r, st, st->lab);
}

static void check_async(stp_run *r, stp_stage *st);
static void dp_pump(stp_run *r, stp_stage *st, bool may_hold);

/* ---- zero_group: the shards' all-reduce across the groups ---- */

static void x_pump(stp_run *r, stp_stage *st);

static void on_x_done(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	stp_stage *st = &r->st[arg];
	stp_task t = st->xq.v[st->xq.head];
	size_t k = st->x_batch;
	st->xq.head = (st->xq.head + k) % st->xq.cap;
	st->xq.n -= k;
	st->x_running = false;
	stp_update *u = &st->upd[STP_SLOT(t.step)];
	if (u->step == t.step)
		u->xrep_pending -= (int)k;
	if (t.step >= 0) {
		r->dp_collectives += (double)k;
		r->dp_xcollectives += (double)k;
	}
	stp_busy(r, st, -1);
	stp_record(r, st->idx, 6, SPLIT_DP_COMM, st->x_t0, sim_now(s),   /* "allreduce x k" */
	           8 << 27 | (int)(k < 0x7ffff ? k : 0x7ffff));
	if (r->async)
		check_async(r, st);
	x_pump(r, st);
	if (st->run == RUN_NONE)
		stp_advance(r, st);
}

/* One collective at a time, those of one step and size waiting together as
 * one (coalesced, as the main stream's buckets). */
static void x_pump(stp_run *r, stp_stage *st)
{
	if (st->x_running || st->xq.n == 0 || r->failed)
		return;
	const stp_fifo *q = &st->xq;
	const stp_task *t = &q->v[q->head];
	size_t k = 1;
	while (k < q->n && q->v[(q->head + k) % q->cap].step == t->step &&
	       q->v[(q->head + k) % q->cap].bytes == t->bytes)
		k++;
	coll_req req;
	stp_dp_req(r, st, DPT_XREP, t->bytes, &req);
	st->x_batch = k;
	st->x_running = true;
	st->x_t0 = sim_now(r->sim);
	stp_busy(r, st, +1);
	if (coll_start_batch(r->cc, &req, (double)k, on_x_done, r, (uint64_t)st->idx) < 0)
		dp_fail(r, "could not start a data-parallel collective (coll_start failed)");
}

/* The k buckets reduce-scattered inside the group: their shards go across. */
static void xrep_queue(stp_run *r, stp_stage *st, const stp_task *t, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		stp_task x = {.kind = DPT_XREP, .step = t->step, .bytes = t->bytes / r->zg};
		if (stp_fifo_push(&st->xq, &x) < 0)
			dp_fail(r, "out of memory for the data-parallel queue");
	}
	x_pump(r, st);
}

static void on_dp_done(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	stp_stage *st = &r->st[arg];
	stp_task t = st->dq.v[st->dq.head];
	size_t k = st->dp_batch;
	if (t.kind == DPT_BUCKET && r->zr > 1)
		xrep_queue(r, st, &t, k);
	st->dq.head = (st->dq.head + k) % st->dq.cap;
	st->dq.n -= k;
	st->dp_running = false;
	st->dp_done += k;
	/* NCCL's kernel held one SM per channel while it ran; the compute that
	 * ran beside it (overlapped buckets, ZeRO gathers) was that much slower:
	 * owed by the stage's next compute op (run_compute) */
	double overlap = stp_compute_so_far(st, sim_now(s)) - st->dp_comp0;
	if (overlap > 0)
		st->sm_debt += overlap * st->dp_sm_share;
	if (t.step >= 0) {   /* not async DP's primed step */
		r->dp_collectives += (double)k;
		if (t.kind == DPT_Z3AG || t.kind == DPT_PARAMAG || t.kind == DPT_PGAG)
			r->dp_gathers += (double)k;
	}
	stp_busy(r, st, -1);
	int lab = t.kind == DPT_BUCKET ? (scn_grad_rs(r->s) ? 9 : 8) : 10;
	stp_record(r, st->idx, 3, SPLIT_DP_COMM, st->dp_t0, sim_now(s),
	           lab << 27 | (int)(k < 0x7ffff ? k : 0x7ffff));   /* k coalesced */
	if (r->async)
		check_async(r, st);
	dp_pump(r, st, false);   /* take what is ready, as without the hold */
	if (st->run == RUN_NONE)
		stp_advance(r, st);
}

/* Coalescing: how many tasks from the head of the queue run as one
 * collective. When the stream becomes free with several gradient buckets (or
 * ZeRO parameter gathers) of the same step and size already waiting, NCCL
 * would run them back to back on this stream; coll_start_batch runs them as
 * one pattern of flows of their total size, with the algorithm and protocol of
 * one bucket and the latency of each (docs/step.md, "Coalescing"). ZeRO-3
 * gathers are never merged: a layer waits for its own. */
static size_t dp_ready_run(const stp_stage *st, double now)
{
	const stp_fifo *q = &st->dq;
	const stp_task *t = &q->v[q->head];
	size_t k = 1;
	if (t->kind == DPT_Z3AG || t->kind == DPT_PGAG)
		return 1;
	while (k < q->n) {
		const stp_task *u = &q->v[(q->head + k) % q->cap];
		if (u->kind != t->kind || u->step != t->step || u->bytes != t->bytes ||
		    u->not_before > now)
			break;
		k++;
	}
	return k;
}

/* The hold (docs/step.md, "Coalescing"): over a DP group of at least
 * STP_HOLD_MIN_DP ranks a reduction costs thousands of flow events, and when
 * the network keeps up with the backward every burst of buckets would be
 * reduced alone. There an idle stream does not start a new reduction of the
 * step until the ready buckets hold 1/STP_HOLD_PARTS of the gradients the
 * backward has yet to produce (none near its end), or the backward is over.
 * Never for the step's first reduction, never when the stream has just become
 * free (it takes what is ready, as without the hold), never with anything
 * but this step's buckets in the queue (nothing waits behind a hold), never
 * with ZeRO-3 (its gathers share the queue). */
#define STP_HOLD_MIN_DP 256
#define STP_HOLD_PARTS 32.0

static bool dp_hold(const stp_run *r, const stp_stage *st, size_t k)
{
	const stp_fifo *q = &st->dq;
	const stp_task *t = &q->v[q->head];
	if (r->dp < STP_HOLD_MIN_DP || t->kind != DPT_BUCKET || r->s->training.zero >= 3 ||
	    t->step < 0 || t->step != st->step || st->red_step1 != t->step + 1 ||
	    st->upd[STP_SLOT(t->step)].ops_done)
		return false;
	for (size_t i = k; i < q->n; i++) {
		const stp_task *u = &q->v[(q->head + i) % q->cap];
		if (u->kind != DPT_BUCKET || u->step != t->step)
			return false;
	}
	double togo = st->params * hw_precision_bytes(r->s->training.grad_reduce.dtype) -
		      st->grad_seen;
	return (double)k * t->bytes < togo * r->wire_per_byte / STP_HOLD_PARTS;
}

/* The collective of a task: gradient buckets reduced over the DP group, or
 * with zero_group reduce-scattered inside the ZeRO group and then (XREP)
 * all-reduced across its replicas; parameter gathers inside the ZeRO group. */
void stp_dp_req(const stp_run *r, const stp_stage *st, int kind, double bytes, coll_req *q)
{
	*q = (coll_req){.op = COLL_ALL_GATHER, .algo = r->dp_algo, .ranks = st->dp_ranks,
			.n = r->zg, .bytes = bytes, .mult = (double)r->tp,
			.ps_servers = r->s->training.grad_reduce.ps_servers};
	if (kind == DPT_BUCKET) {
		q->op = scn_grad_rs(r->s) ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE;
	} else if (kind == DPT_XREP) {
		q->op = COLL_ALL_REDUCE;
		q->ranks = st->rep_ranks;
		q->n = r->zr;
		q->mult = st->rep_mult;
	}
}

void stp_dp_pump(stp_run *r, stp_stage *st)
{
	dp_pump(r, st, true);
}

static void dp_pump(stp_run *r, stp_stage *st, bool may_hold)
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
			/* a stage already waiting on the stream now waits for the
			 * slowest replica */
			if (st->cat == SPLIT_DP_COMM && st->run == RUN_NONE)
				stp_enter_dp_wait(r, st, st->lab);
		}
		return;
	}
	size_t k = dp_ready_run(st, now);
	if (may_hold && dp_hold(r, st, k))
		return;
	coll_req req;
	stp_dp_req(r, st, t->kind, t->bytes, &req);
	st->dp_batch = k;
	if (t->kind == DPT_BUCKET)
		st->red_step1 = t->step + 1;
	st->dp_running = true;
	st->dp_t0 = now;
	st->dp_comp0 = stp_compute_so_far(st, now);
	stp_busy(r, st, +1);
	if (coll_start_batch(r->cc, &req, (double)st->dp_batch, on_dp_done, r,
			     (uint64_t)st->idx) < 0)
		dp_fail(r, "could not start a data-parallel collective (coll_start failed)");
}

/* Queues a task; pump: start the stream now if it is idle. Callers that queue
 * several tasks at one instant pump once after the last, so that they run as
 * one collective (coalescing) instead of the first alone. */
static uint64_t dp_enqueue(stp_run *r, stp_stage *st, int kind, int step, double bytes,
			   double not_before, bool pump)
{
	stp_task t = {.kind = (uint8_t)kind, .step = step, .bytes = bytes,
		      .not_before = not_before, .seq = ++st->dp_issued};
	if (stp_fifo_push(&st->dq, &t) < 0)
		dp_fail(r, "out of memory for the data-parallel queue");
	if (pump)
		stp_dp_pump(r, st);
	return t.seq;
}

/* ---- gradient buckets ---- */

static bool zero12(const stp_run *r);

/* Async ZeRO-1/2: a step's update is its reduce-scatter, the optimizer on the
 * shard, then the parameter all-gather, one update after the other on the
 * stream: the buckets of step `step` wait (st->held) until the gather of step
 * step - 1 is queued. Without it a gather queued behind part of the next
 * step's buckets delays every other update (steps alternate short and long). */
static bool async_held(const stp_run *r, const stp_stage *st, int step)
{
	const stp_update *p = &st->upd[STP_SLOT(step - 1)];
	return r->async && zero12(r) && p->step == step - 1 && p->state < 2;
}

static void release_held(stp_run *r, stp_stage *st)
{
	stp_fifo *h = &st->held;
	for (; h->n > 0; h->n--) {
		stp_task t = h->v[h->head];
		h->head = (h->head + 1) % h->cap;
		stp_update *u = &st->upd[STP_SLOT(t.step)];
		u->held--;
		u->last_seq = dp_enqueue(r, st, t.kind, t.step, t.bytes, t.not_before, false);
	}
	stp_dp_pump(r, st);
}

/* A bucket on the wire; with zero_group its shard's all-reduce across the
 * groups follows once its reduce-scatter is over (on_dp_done). */
static void bucket_to_dp(stp_run *r, stp_stage *st, int step, double bytes, bool pump)
{
	double late = stp_var_lateness(r, st);
	if (r->zr > 1)
		st->upd[STP_SLOT(step)].xrep_pending++;
	if (async_held(r, st, step)) {
		stp_task t = {.kind = DPT_BUCKET, .step = step, .bytes = bytes * r->wire_per_byte,
			      .not_before = sim_now(r->sim) + late};
		if (stp_fifo_push(&st->held, &t) < 0)
			dp_fail(r, "out of memory for the data-parallel queue");
		st->upd[STP_SLOT(step)].held++;
		return;
	}
	st->upd[step % 3].last_seq = dp_enqueue(r, st, DPT_BUCKET, step, bytes * r->wire_per_byte,
						sim_now(r->sim) + late, pump);
}

/* Queues a closed bucket (or its compression) without pumping the stream. */
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
	bucket_to_dp(r, st, st->step, bytes, false);
}

/* A bucket of `bytes` is closed: reduced now, or after the backward. */
static void close_bucket(stp_run *r, stp_stage *st, double bytes)
{
	if (r->s->training.grad_reduce.overlap) {
		emit_bucket(r, st, bytes);
	} else {
		st->deferred += 1;
		st->deferred_bytes += bytes;
	}
}

/* DDP and ZeRO-1/2 close a bucket whenever `bucket` bytes are in it. ZeRO-3
 * reduce-scatters whole layers: FSDP one flat gradient per wrapped unit (a
 * transformer block) once its backward is over, DeepSpeed's stage 3 a bucket
 * of reduce_bucket_size elements that holds whole parameters. So a bucket
 * closes at a layer's end once it holds `bucket` bytes: a layer larger than
 * the bucket is reduced alone, small layers together. 25 MB buckets cut a
 * 70B model's 3.4 GB fp32 layers into 137 reduce-scatters, each paying the
 * ring's latency (1 ms over 512 GPUs): 12 s of a 17 s step. */
void stp_grad_ready(stp_run *r, stp_stage *st, double bytes, bool layer_end)
{
	if (r->dp <= 1)
		return;
	st->bucket_fill += bytes;
	st->grad_seen += bytes;
	if (r->s->training.zero >= 3) {
		if (layer_end && st->bucket_fill >= r->bucket_bytes * (1 - 1e-12)) {
			close_bucket(r, st, st->bucket_fill);
			st->bucket_fill = 0;
		}
	} else {
		while (st->bucket_fill >= r->bucket_bytes * (1 - 1e-12)) {
			st->bucket_fill -= r->bucket_bytes;
			close_bucket(r, st, r->bucket_bytes);
		}
	}
	if (st->bucket_fill < 0)
		st->bucket_fill = 0;
	stp_dp_pump(r, st);
}

/* The gradients of the backward just finished go out: buckets held back
 * (overlap off) back to back, coalesced, and the partly filled last one. */
static void flush_grads(stp_run *r, stp_stage *st)
{
	if (r->dp > 1) {
		for (double i = 0; i < st->deferred; i++)
			emit_bucket(r, st, st->deferred_bytes / st->deferred);
		if (st->bucket_fill > 0)
			emit_bucket(r, st, st->bucket_fill);
	}
	st->deferred = 0;
	st->deferred_bytes = 0;
	st->bucket_fill = 0;
	st->grad_seen = 0;
}

/* A micro-batch's backward is over and its gradients are reduced now
 * (every_micro_batch): no hold, the next backward adds nothing to them. */
void stp_mb_grads_done(stp_run *r, stp_stage *st)
{
	flush_grads(r, st);
	dp_pump(r, st, false);
}

void stp_ops_finished(stp_run *r, stp_stage *st)
{
	flush_grads(r, st);
	st->upd[st->step % 3].ops_done = true;
	stp_dp_pump(r, st);
	if (r->async)
		check_async(r, st);
}

void stp_z3_issue(stp_run *r, stp_stage *st, double bytes)
{
	dp_enqueue(r, st, DPT_Z3AG, st->step, bytes, 0, true);
}

/* ---- updates: reduction done, optimizer, parameter all-gather ---- */

bool stp_update_ready(const stp_run *r, const stp_stage *st, int step)
{
	const stp_update *u = &st->upd[STP_SLOT(step)];
	(void)r;
	return u->step == step && u->ops_done && u->compress_pending == 0 && u->held == 0 &&
	       u->xrep_pending == 0 &&
	       st->dp_done >= u->last_seq;
}

static bool zero12(const stp_run *r)
{
	return r->dp > 1 && (r->s->training.zero == 1 || r->s->training.zero == 2);
}

/* ZeRO-1/2 (distributed optimizer): each replica updated its shard; gather
 * the updated parameters, in buckets of the same element count. */
double stp_param_chunk(const stp_run *r)
{
	return r->bucket_bytes / hw_precision_bytes(r->s->training.grad_reduce.dtype) *
	       hw_gather_bytes(r->s->training.precision);
}

static uint64_t param_allgather(stp_run *r, stp_stage *st, int step)
{
	double pb = hw_gather_bytes(r->s->training.precision);
	double total = st->params * pb, chunk = stp_param_chunk(r), seq = 0;
	for (double done = 0; done < total; done += chunk)
		seq = (double)dp_enqueue(r, st, DPT_PARAMAG, step, fmin(chunk, total - done), 0,
					 false);
	stp_dp_pump(r, st);
	return (uint64_t)seq;
}

static void check_async(stp_run *r, stp_stage *st)
{
	for (int k = 1; k <= 2; k++) {
		int step = st->upd_done + k;
		stp_update *u = &st->upd[STP_SLOT(step)];
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
	stp_update *u = &st->upd[STP_SLOT(t->step)];
	if (t->kind == SIDE_COMPRESS) {
		u->compress_pending--;
		bucket_to_dp(r, st, t->step, t->bytes, true);
	} else if (zero12(r)) {
		u->last_seq = param_allgather(r, st, t->step);
		u->state = 2;
		release_held(r, st);
	} else {
		u->state = 3;
		st->upd_done = t->step;
	}
	if (r->async)
		check_async(r, st);
}

/* Megatron's --overlap-param-gather (with the distributed optimizer and
 * synchronous updates): the parameters an update produced are gathered
 * while the next step computes, bucket by bucket ahead of the forward pass,
 * instead of between the optimizer and the next step. In the steady state a
 * step's stream carries the gather of the update before it: queued when the
 * step starts, ahead of its gradient buckets, and waited for with them before
 * the optimizer. The forward does not wait for its bucket here, so the
 * gather may also hide behind the backward: optimistic when it takes longer
 * than the forward pass; one longer than the step's compute shows up as DP
 * time at the end. */
static bool pg_overlap(const stp_run *r)
{
	return zero12(r) && !r->async && r->s->training.grad_reduce.overlap_param_gather;
}

/* Position of layer l (global chunk gc) among the stage's layers in forward
 * order, local chunks in turn; the stage's layer count when not found. */
static int pg_layer_index(const stp_run *r, const stp_stage *st, int gc, int l)
{
	int n = 0;
	for (int c = 0; c < r->v; c++) {
		int g = plan_chunk_global(&r->pl, st->idx, c);
		int first = r->pl.chunk_first[g], last = first + r->pl.chunk_layers[g];
		for (int k = first; k < last; k++, n++)
			if (g == gc && k == l)
				return n;
	}
	return n;
}

/* One gather per layer, in forward order; the embedding goes with the first
 * layer and the output layer with the last, as Megatron's buckets do. */
void stp_pg_prime(stp_run *r, stp_stage *st)
{
	st->pg_n = 0;
	if (!pg_overlap(r))
		return;
	double pb = hw_gather_bytes(r->s->training.precision);
	int nl = pg_layer_index(r, st, -1, -1), n = 0;
	uint64_t first = st->dp_issued + 1, seq = 0;
	for (int c = 0; c < r->v; c++) {
		int g = plan_chunk_global(&r->pl, st->idx, c);
		int lo = r->pl.chunk_first[g], hi = lo + r->pl.chunk_layers[g];
		for (int k = lo; k < hi; k++, n++) {
			double p = r->lc[k].params;
			if (n == 0 && st->idx == 0)
				p += r->head_first.params;
			if (n == nl - 1 && st->idx == r->pp - 1)
				p += r->head_last.params;
			seq = dp_enqueue(r, st, DPT_PGAG, st->step, p * pb, 0, false);
		}
	}
	stp_dp_pump(r, st);
	if (nl > 0)
		st->upd[st->step % 3].last_seq = seq;
	st->pg_first = first;
	st->pg_n = nl;
}

/* Megatron (NeMo: "chunked by the granularity of a Transformer layer")
 * gathers a layer's parameters ahead of its forward: a pre-hook waits for
 * that layer's gather, the next layers' already on the wire. */
uint64_t stp_pg_layer_seq(const stp_run *r, const stp_stage *st, int gc, int l)
{
	if (st->pg_n <= 0)
		return 0;
	int k = pg_layer_index(r, st, gc, l);
	return k < st->pg_n ? st->pg_first + (uint64_t)k : 0;
}

void stp_optimizer_done(stp_run *r, stp_stage *st)
{
	stp_update *u = &st->upd[st->step % 3];
	if (pg_overlap(r)) {
		st->phase = PH_PAG;    /* its gather went before the reduction */
	} else if (zero12(r)) {
		u->last_seq = param_allgather(r, st, st->step);
		st->phase = PH_PAG;
	} else {
		st->phase = PH_DONE;
	}
}

/* Async DP starts where its staleness bound leads when the reduction is the
 * bottleneck: the reduction of a step -1 (the stage's whole gradients, m
 * times when every micro-batch is reduced, in buckets, already compressed)
 * has just begun, and step 1 waits for its update. Started empty, the DP stream would fill up to the bound only by
 * the difference of reduction and compute per step, tens of steps when they
 * are close (docs/step.md). */
void stp_async_prime(stp_run *r, stp_stage *st)
{
	if (!r->async)
		return;
	st->upd_done = -2;
	stp_update *u = &st->upd[STP_SLOT(-1)];
	*u = (stp_update){.step = -1, .ops_done = true};
	/* a step's reductions: m of them when each micro-batch is reduced */
	double total = st->params * hw_precision_bytes(r->s->training.grad_reduce.dtype) *
		       (r->mb_sync ? r->m : 1);
	for (double done = 0; done < total; done += r->bucket_bytes) {
		u->last_seq = dp_enqueue(r, st, DPT_BUCKET, -1,
					 fmin(r->bucket_bytes, total - done) * r->wire_per_byte, 0,
					 false);
		u->xrep_pending += r->zr > 1;
	}
	stp_dp_pump(r, st);
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
