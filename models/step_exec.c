/* step_exec.c: the compute stream of each simulated GPU (one per pipeline
 * stage, TP rank 0 of the simulated replica). It walks the stage's op list,
 * expands each op into compute pieces, TP collectives, ZeRO-3 waits and
 * gradient-ready marks, waits for pipeline inputs sent as flows, and keeps
 * every instant of its time in exactly one category of the split. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "step_int.h"

static inline size_t arr_index(const stp_run *r, int dir, int gc, int mb)
{
	return ((size_t)dir * (size_t)r->G + (size_t)gc) * (size_t)r->m + (size_t)mb;
}

/* Labels pack the op kind (4 bits), chunk (8) and micro-batch (19) for the
 * timeline; step.c refuses more micro-batches than 19 bits hold. */
static inline int lab_make(int kind, int chunk, int mb)
{
	return (kind << 27) | ((chunk & 0xff) << 19) | (mb & 0x7ffff);
}

static void fail(stp_run *r, const char *what)
{
	if (!r->failed)
		snprintf(r->err, sizeof r->err, "%s", what);
	r->failed = true;
	sim_stop(r->sim);
}

void stp_record(stp_run *r, int gpu_idx, int stream, int cat, double t0, double t1, int lab)
{
	if (!r->want_timeline || t1 <= r->t_rec || t1 <= t0)
		return;
	if (r->ntl == r->tl_cap) {
		size_t cap = r->tl_cap ? 2 * r->tl_cap : 1024;
		step_interval *v = realloc(r->tl, cap * sizeof *v);
		if (!v) {
			fail(r, "out of memory for the timeline");
			return;
		}
		r->tl = v;
		r->tl_cap = cap;
	}
	step_interval *iv = &r->tl[r->ntl++];
	iv->gpu = gpu_idx;
	iv->stream = stream;
	iv->cat = (step_split)cat;
	iv->t0 = t0;
	iv->t1 = t1;
	int kind = lab >> 27, chunk = (lab >> 19) & 0xff, mb = lab & 0x7ffff;
	static const char *const names[] = {"F", "B", "R", "optimizer", "compress", "wait",
					    "act", "grad", "allreduce", "reduce_scatter",
					    "all_gather", "tp"};
	const char *nm = kind < (int)(sizeof names / sizeof names[0]) ? names[kind] : "?";
	iv->mb = (kind <= LAB_R || kind == 6 || kind == 7) ? mb : -1;
	/* a DP collective's low bits count the coalesced collectives it runs */
	iv->collectives = kind >= 8 && kind <= 10 && mb > 1 ? mb : 0;
	if (iv->collectives)
		snprintf(iv->label, sizeof iv->label, "%s x%d", nm, mb);
	else if (iv->mb >= 0 && r->v > 1)
		snprintf(iv->label, sizeof iv->label, "%s%d.c%d", nm, mb, chunk);
	else if (iv->mb >= 0)
		snprintf(iv->label, sizeof iv->label, "%s%d", nm, mb);
	else
		snprintf(iv->label, sizeof iv->label, "%s", nm);
}

/* Closes the stage's current interval at now: its category's account (and
 * the straggler waits' when it is one), and the timeline. */
static void close_interval(stp_run *r, stp_stage *st, double now)
{
	double dt = now - st->since;
	if (dt > 0) {
		st->acc[st->cat] += dt;
		if (st->late_idle)
			st->late_s += dt;
		stp_record(r, st->idx, st->cat == SPLIT_TP_COMM ? 1 : 0, st->cat, st->since, now,
			   st->lab);
	}
	st->since = now;
}

/* Enters (cat, lab), late: a wait for the slowest replica (counted idle).
 * nvidia-smi sees that wait busy: the framework has launched its collective,
 * whose kernel spins on the GPU until the late replica's data arrives. */
static void enter(stp_run *r, stp_stage *st, int cat, int lab, bool late)
{
	if (cat == st->cat && late == st->late_idle && (!r->want_timeline || lab == st->lab))
		return;
	close_interval(r, st, sim_now(r->sim));
	if (late != st->late_idle)
		stp_busy(r, st, late ? 1 : -1);
	st->late_idle = late;
	st->cat = cat;
	st->lab = lab;
}

void stp_enter(stp_run *r, stp_stage *st, int cat, int lab)
{
	enter(r, st, cat, lab, false);
}

void stp_busy(stp_run *r, stp_stage *st, int delta)
{
	double now = sim_now(r->sim);
	if (st->nbusy > 0)
		st->busy_s += now - st->busy_since;
	st->busy_since = now;
	st->nbusy += delta;
	assert(st->nbusy >= 0);
}

double stp_compute_so_far(const stp_stage *st, double now)
{
	return st->acc[SPLIT_COMPUTE] + (st->cat == SPLIT_COMPUTE ? now - st->since : 0);
}

double stp_dp_waited(const stp_stage *st, double now)
{
	return st->acc[SPLIT_DP_COMM] + st->late_s +
	       (st->cat == SPLIT_DP_COMM || st->late_idle ? now - st->since : 0);
}

/* The slowest replica has caught up with a stage still waiting on its DP
 * stream: what it waits for from now on is the stream. */
static void on_late_end(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	(void)s;
	stp_stage *st = &r->st[arg & 0xffffffffu];
	if ((uint32_t)(arg >> 32) != st->late_gen)
		return;   /* a window since replaced */
	if (st->late_idle && !(st->dp_timer && !st->dp_running))
		enter(r, st, SPLIT_DP_COMM, st->lab, false);
}

void stp_enter_dp_wait(stp_run *r, stp_stage *st, int lab)
{
	double now = sim_now(r->sim);
	bool held = st->dp_timer && !st->dp_running;
	/* A wait that begins while the slowest replica has yet to do the work
	 * this stage has done is for that replica until it has (its lateness
	 * now), even where the stream runs reductions meanwhile: they would have
	 * run behind its compute anyway, and a faster network would not end the
	 * wait sooner. Measured once, as the wait begins: the lateness of jitter
	 * does not shrink by waiting (stp_var_lateness). */
	bool fresh = !(st->cat == SPLIT_DP_COMM || st->late_idle);
	if (fresh && r->var_on && !held) {
		double late = stp_var_lateness(r, st);
		if (late > 1e-9 && now + late > st->late_until) {
			st->late_until = now + late;
			st->late_gen++;
			if (sim_at(r->sim, st->late_until, SIM_PRIO_NORMAL, on_late_end, r,
			           (uint64_t)st->idx | (uint64_t)st->late_gen << 32) < 0) {
				r->failed = true;
				sim_stop(r->sim);
			}
		}
	}
	bool late = held || st->late_until > now;
	enter(r, st, late ? SPLIT_IDLE : SPLIT_DP_COMM, lab, late);
}

void stp_flush(stp_run *r, stp_stage *st)
{
	close_interval(r, st, sim_now(r->sim));
	stp_busy(r, st, 0);
}

/* ---- pipeline transfers ----
 * Without calls (GPipe) a transfer starts when its op ends and the next op
 * waits for its own input only. With Megatron's calls (1F1B, interleaved:
 * sched.calls) a stage posts the sends and receives of each call, a
 * transfer starts once both ends have posted it (NCCL send/recv), and the
 * stage waits until every transfer of its call has arrived; with Megatron's
 * scatter-gather (TP > 1 without sequence parallelism) each received piece
 * is then all-gathered over the TP group before the call returns. */

static void xfer_ends(stp_run *r, size_t idx, stp_stage **src, stp_stage **dst, int *dir, int *gc)
{
	size_t per_dir = (size_t)r->G * (size_t)r->m;
	*dir = (int)(idx / per_dir);
	*gc = (int)((idx / (size_t)r->m) % (size_t)r->G);
	*dst = &r->st[*gc % r->pp];
	*src = &r->st[(*dir == 0 ? *gc - 1 : *gc + 1) % r->pp];
}

/* Whether a stage waiting in its call has one of its transfers on the wire. */
static bool call_on_wire(const stp_run *r, const stp_stage *st)
{
	for (int k = 0; k < st->call_ns; k++)
		if ((r->arr[st->call_send[k]] & (STP_ARR_FLY | STP_ARR_DONE)) == STP_ARR_FLY)
			return true;
	for (int k = 0; k < st->call_nr; k++)   /* one not posted yet is not flying */
		if ((r->arr[st->call_recv[k]] & (STP_ARR_FLY | STP_ARR_DONE)) == STP_ARR_FLY)
			return true;
	return false;
}

static void on_arrival(sim *s, void *ctx, uint64_t idx)
{
	stp_run *r = ctx;
	stp_stage *src, *dst;
	int dir, gc, mb = (int)(idx % (size_t)r->m);
	int left = (r->arr[idx] & STP_ARR_LEFT_MASK) >> STP_ARR_LEFT_SHIFT;
	if (left > 1) {   /* another of its flows is still on the wire */
		r->arr[idx] = (uint8_t)((r->arr[idx] & ~STP_ARR_LEFT_MASK) |
		                        (left - 1) << STP_ARR_LEFT_SHIFT);
		return;
	}
	r->arr[idx] &= (uint8_t)~STP_ARR_LEFT_MASK;
	xfer_ends(r, idx, &src, &dst, &dir, &gc);
	stp_busy(r, src, -1);
	stp_busy(r, dst, -1);
	r->arr[idx] |= STP_ARR_DONE;
	if (r->want_timeline && r->arr_t0)
		stp_record(r, src->idx, 2, SPLIT_PP_COMM, r->arr_t0[idx], sim_now(s),
			   lab_make(6 + dir, plan_chunk_local(&r->pl, gc), mb));
	if (r->sc.calls) {
		src->call_pend--;
		dst->call_pend--;
		if (src->run == RUN_NONE)
			stp_advance(r, src);
		if (dst->run == RUN_NONE)
			stp_advance(r, dst);
	} else if (dst->wait_idx == (long)idx) {
		dst->wait_idx = -1;
		stp_advance(r, dst);
	}
}

static void start_transfer(stp_run *r, size_t idx)
{
	stp_stage *src, *dst;
	int dir, gc;
	xfer_ends(r, idx, &src, &dst, &dir, &gc);
	r->arr[idx] |= STP_ARR_FLY;
	if (r->arr_t0)
		r->arr_t0[idx] = sim_now(r->sim);
	if (r->sc.calls) {
		/* both ends wait in their calls: now for the wire */
		if (src->run == RUN_NONE && src->call_ph)
			stp_enter(r, src, SPLIT_PP_COMM, src->lab);
		if (dst->run == RUN_NONE && dst->call_ph)
			stp_enter(r, dst, SPLIT_PP_COMM, dst->lab);
	} else if (dst->wait_idx == (long)idx && dst->run == RUN_NONE) {
		stp_enter(r, dst, SPLIT_PP_COMM, dst->lab);
	}
	stp_busy(r, src, +1);
	stp_busy(r, dst, +1);
	const stp_route *rt = dir == 0 ? &src->route_f : &src->route_b;
	double bytes = r->act_bytes[dir == 0 ? gc - 1 : gc];
	r->arr[idx] = (uint8_t)((r->arr[idx] & ~STP_ARR_LEFT_MASK) | rt->k << STP_ARR_LEFT_SHIFT);
	for (int i = 0; i < rt->k; i++)
		if (flow_start(r->net, rt->links[i], rt->n[i], bytes / rt->k, rt->cap,
		               (double)(r->tp * r->cp), on_arrival, r, idx) < 0)
			fail(r, "could not start a pipeline transfer (flow_start failed)");
}

/* Without calls: the output of an op leaves at once. */
static void send_pp(stp_run *r, int dir, int gc, int mb)
{
	size_t idx = arr_index(r, dir, gc, mb);
	assert(r->arr[idx] == 0);
	r->arr[idx] = STP_ARR_SEND;
	start_transfer(r, idx);
}

/* With calls: one end posts its side of transfer idx. */
static void post(stp_run *r, stp_stage *st, long idx, uint8_t side)
{
	assert(!(r->arr[idx] & side));
	r->arr[idx] |= side;
	st->call_pend++;
	if ((r->arr[idx] & (STP_ARR_SEND | STP_ARR_RECV)) == (STP_ARR_SEND | STP_ARR_RECV))
		start_transfer(r, (size_t)idx);
}

/* Megatron's scatter-gather (p2p_communication.py, 2021-22): each TP rank
 * sends 1/tp of the activation; the receivers all-gather it over the TP
 * group. Not with sequence parallelism (the message is already the rank's
 * sequence shard), nor for custom layers, nor without scatter-gather (each
 * TP rank then receives the whole activation). */
static bool pp_gather(const stp_run *r)
{
	return r->tp > 1 && !r->s->training.sequence_parallel && !r->s->model.custom &&
	       r->s->training.pp_scatter_gather;
}

static void on_call_ag_done(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	stp_stage *st = &r->st[arg];
	(void)s;
	stp_busy(r, st, -1);
	st->run = RUN_NONE;
	st->call_ag--;
	stp_advance(r, st);
}

/* The stage's call before its op op_i: true once it has ended; false when
 * the stage waits for it or runs one of its all-gathers. */
static bool do_call(stp_run *r, stp_stage *st)
{
	int f = sched_call(&r->sc, st->idx, st->op_i);
	/* SEQ: the sends complete before the receives are posted; RSEQ (DeepSpeed's
	 * forward step) the other way round */
	bool rseq = f & SCHED_CALL_RSEQ;
	if (st->call_ph == 0) {
		sched_call_transfers(&r->sc, st->idx, st->op_i, st->call_send, &st->call_ns,
				     st->call_recv, &st->call_nr);
		st->call_ph = (f & (SCHED_CALL_SEQ | SCHED_CALL_RSEQ)) && st->call_nr > 0 &&
			      st->call_ns > 0 ? 1 : 2;
		for (int k = 0; k < st->call_ns && (st->call_ph == 2 || !rseq); k++)
			post(r, st, st->call_send[k], STP_ARR_SEND);
		for (int k = 0; k < st->call_nr && (st->call_ph == 2 || rseq); k++)
			post(r, st, st->call_recv[k], STP_ARR_RECV);
	}
	while (st->call_ph == 1 || st->call_ph == 2) {
		if (st->call_pend > 0) {
			stp_enter(r, st, call_on_wire(r, st) ? SPLIT_PP_COMM : SPLIT_PP_BUBBLE,
				  lab_make(LAB_WAIT, 0, 0));
			return false;
		}
		if (st->call_ph == 1) {
			st->call_ph = 2;
			if (rseq)
				for (int k = 0; k < st->call_ns; k++)
					post(r, st, st->call_send[k], STP_ARR_SEND);
			else
				for (int k = 0; k < st->call_nr; k++)
					post(r, st, st->call_recv[k], STP_ARR_RECV);
			continue;
		}
		st->call_ph = 3;
		st->call_ag = pp_gather(r) ? st->call_nr : 0;
	}
	if (st->call_ag > 0) {
		long idx = st->call_recv[st->call_nr - st->call_ag];
		stp_stage *src, *dst;
		int dir, gc;
		xfer_ends(r, (size_t)idx, &src, &dst, &dir, &gc);
		coll_req req = {.op = COLL_ALL_GATHER, .algo = ALGO_AUTO, .ranks = st->tp_ranks,
				.n = r->tp, .bytes = r->act_bytes[dir == 0 ? gc - 1 : gc] * r->tp,
				.mult = 1.0};
		stp_enter(r, st, SPLIT_PP_COMM,
			  lab_make(6 + dir, plan_chunk_local(&r->pl, gc), (int)(idx % (long)r->m)));
		stp_busy(r, st, +1);
		st->run = RUN_TP;
		if (coll_start(r->cc, &req, on_call_ag_done, r, (uint64_t)st->idx) < 0)
			fail(r, "could not start a pipeline all-gather (coll_start failed)");
		return false;
	}
	st->call_ph = 0;
	st->call_ok = true;
	return true;
}

/* ---- the op walk ---- */

static void on_compute_done(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	stp_stage *st = &r->st[arg];
	(void)s;
	stp_busy(r, st, -1);
	st->run = RUN_NONE;
	st->seg_i++;
	stp_advance(r, st);
}

static void on_tp_done(sim *s, void *ctx, uint64_t arg)
{
	on_compute_done(s, ctx, arg);
}

static void on_tpa_done(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	stp_stage *st = &r->st[arg];
	stp_busy(r, st, -1);
	st->tpa_out--;
	stp_record(r, st->idx, 1, SPLIT_TP_COMM, st->tpa_t0, sim_now(s), 11 << 27);
	if (st->run == RUN_NONE)
		stp_advance(r, st);
}

static void on_side_done(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	stp_stage *st = &r->st[arg];
	(void)s;
	stp_busy(r, st, -1);
	st->run = RUN_NONE;
	stp_task t = st->side.v[st->side.head];
	st->side.head = (st->side.head + 1) % st->side.cap;
	st->side.n--;
	stp_side_done(r, st, &t);
	stp_advance(r, st);
}

static void on_opt_done(sim *s, void *ctx, uint64_t arg)
{
	stp_run *r = ctx;
	stp_stage *st = &r->st[arg];
	(void)s;
	stp_busy(r, st, -1);
	st->run = RUN_NONE;
	stp_optimizer_done(r, st);
	stp_advance(r, st);
}

static void run_compute(stp_run *r, stp_stage *st, int cat, int lab, double nominal_s,
			sim_fn done, int run)
{
	if (cat == SPLIT_COMPUTE) {
		/* the SMs a finished DP collective held while compute ran (stp_dp.c) */
		nominal_s += st->sm_debt;
		st->sm_debt = 0;
	}
	double dt = stp_var_compute(r, st, nominal_s);
	stp_enter(r, st, cat, lab);
	stp_busy(r, st, +1);
	st->run = run;
	if (sim_after(r->sim, dt, SIM_PRIO_NORMAL, done, r, (uint64_t)st->idx) < 0)
		fail(r, "out of memory for events");
}

static void start_side(stp_run *r, stp_stage *st)
{
	const stp_task *t = &st->side.v[st->side.head];
	st->wait_idx = -1;
	if (t->kind == SIDE_COMPRESS) {
		double dt = wl_membound_time(&r->s->cluster.gpu, t->bytes);
		r->compress_s += dt;
		run_compute(r, st, SPLIT_COMPUTE, lab_make(LAB_COMPRESS, 0, 0), dt, on_side_done,
			    RUN_SIDE);
	} else {
		run_compute(r, st, SPLIT_OPTIMIZER, lab_make(LAB_OPT, 0, 0), st->opt_s, on_side_done,
			    RUN_SIDE);
	}
}

/* Is the input of the stage's next op there? If not, wait in the right
 * category: bubble while the producer has not produced it, pp_comm while it
 * is on the wire. */
static bool op_ready(stp_run *r, stp_stage *st, const sched_op *op)
{
	int lab = lab_make(LAB_WAIT, op->chunk, op->mb);
	if (r->async && st->op_i == 0 && st->upd_done < st->step - 1 - STP_ASYNC_STALENESS) {
		stp_enter_dp_wait(r, st, lab);   /* the staleness bound */
		return false;
	}
	int gc = plan_chunk_global(&r->pl, st->idx, op->chunk);
	if ((op->kind == SCHED_F && gc == 0) || (op->kind == SCHED_B && gc == r->G - 1))
		return true;
	size_t idx = arr_index(r, op->kind == SCHED_F ? 0 : 1, gc, op->mb);
	if (r->arr[idx] & STP_ARR_DONE) {
		r->arr[idx] = 0;
		st->wait_idx = -1;
		return true;
	}
	if (r->sc.calls) {   /* its call should have received it */
		fail(r, "a pipeline op would start before its call received its input");
		return false;
	}
	st->wait_idx = (long)idx;
	stp_enter(r, st, r->arr[idx] & STP_ARR_FLY ? SPLIT_PP_COMM : SPLIT_PP_BUBBLE, lab);
	return false;
}

static void finish_op(stp_run *r, stp_stage *st, const sched_op *op)
{
	int gc = plan_chunk_global(&r->pl, st->idx, op->chunk);
	if (op->kind == SCHED_B) {
		st->b_done[op->chunk]++;
		if (r->mb_sync)   /* every backward's, a chunk's last too (interleaved) */
			stp_mb_grads_done(r, st);
	}
	if (r->sc.calls)   /* sent by the next call */
		return;
	if (op->kind == SCHED_F) {
		if (gc < r->G - 1)
			send_pp(r, 0, gc + 1, op->mb);
	} else if (gc > 0) {
		send_pp(r, 1, gc - 1, op->mb);
	}
}

static void boundary(stp_run *r, int step);

static void end_ops(stp_run *r, stp_stage *st)
{
	stp_ops_finished(r, st);
	r->in_ops--;
	if (++r->ops_end_count[st->step % 3] == r->pp) {
		r->ops_end_count[st->step % 3] = 0;
		if (r->async)
			boundary(r, st->step);
	}
	if (!r->async) {
		st->phase = PH_DPWAIT;
		if (r->in_ops == 0)   /* the pipeline has drained: barrier waits are idle now */
			for (int i = 0; i < r->pp; i++)
				if (r->st[i].phase == PH_BARRIER && r->st[i].run == RUN_NONE)
					stp_enter(r, &r->st[i], SPLIT_IDLE, lab_make(LAB_WAIT, 0, 0));
	} else if (st->step + 1 < r->K) {
		stp_start_step(r, st, st->step + 1);
	} else {
		st->phase = PH_TAIL;
	}
}

/* One move of a stage in its op list; false when it started something or
 * must wait. */
/* The collective of a TP segment: on the stage's TP group, or (STP_COLL_CP)
 * on its context-parallel group, whose flows stand for the tp - 1 TP
 * siblings' exchanges too (they share NICs when the group crosses nodes),
 * or (STP_COLL_EP) on its expert-parallel group, standing for the TP
 * siblings' groups when the experts are tensor-parallel. */
static void seg_coll(const stp_run *r, const stp_stage *st, const stp_seg *sg, coll_req *req)
{
	bool cp = sg->coll & STP_COLL_CP, ep = sg->coll & STP_COLL_EP;
	*req = (coll_req){.op = (coll_op)(sg->coll & ~(STP_COLL_CP | STP_COLL_EP)),
	                  .algo = ALGO_AUTO, .ranks = st->tp_ranks, .n = r->tp, .bytes = sg->val,
	                  .mult = 1.0};
	if (cp) {
		req->ranks = st->cp_ranks;
		req->n = r->cp;
		req->mult = r->tp;
	} else if (ep) {
		req->ranks = st->ep_ranks;
		req->n = r->ep;
		req->mult = r->ep_mult;
		req->symmetric = r->ep_symmetric;   /* the group's other nodes are not simulated */
		if (r->s->training.ep_dispatcher == EP_DISPATCH_DEEPEP) {   /* one copy a node */
			req->dedup_topk = r->s->model.top_k;
			req->dedup_experts = r->s->model.experts;
		}
	}
}

static bool ops_move(stp_run *r, stp_stage *st)
{
	const sched_op *op = &st->ops[st->op_i < r->sc.ops_per_stage ? st->op_i : 0];
	if (st->op_active && st->seg_i == st->nseg) {
		finish_op(r, st, op);
		st->op_active = false;
		st->op_i++;
		st->call_ok = false;
		op = &st->ops[st->op_i < r->sc.ops_per_stage ? st->op_i : 0];
	}
	if (!st->op_active) {
		if (r->sc.calls && !st->call_ok && !do_call(r, st))
			return false;
		if (st->op_i == r->sc.ops_per_stage) {
			end_ops(r, st);
			return true;
		}
		if (!op_ready(r, st, op))
			return false;
		if (r->async && st->op_i == 0 && st->step >= r->warm &&
		    st->step - 1 - st->upd_done > r->stale_max)
			r->stale_max = st->step - 1 - st->upd_done;   /* updates it lacks */
		stp_fill_segments(r, st, op);
		st->op_active = true;
		if (st->nseg == 0)
			return true;
	}
	const stp_seg *sg = &st->segs[st->seg_i];
	int lab = lab_make(sg->lab, op->chunk, op->mb);
	switch (sg->kind) {
	case SEG_COMPUTE:
		run_compute(r, st, SPLIT_COMPUTE, lab, sg->val, on_compute_done, RUN_COMPUTE);
		return false;
	case SEG_TP: {
		coll_req req;
		seg_coll(r, st, sg, &req);
		stp_enter(r, st, SPLIT_TP_COMM, lab_make(11, op->chunk, op->mb));
		stp_busy(r, st, +1);
		st->run = RUN_TP;
		if (coll_start(r->cc, &req, on_tp_done, r, (uint64_t)st->idx) < 0)
			fail(r, "could not start a tensor-parallel collective (coll_start failed)");
		return false;
	}
	case SEG_TPA: {
		coll_req req;
		seg_coll(r, st, sg, &req);
		stp_busy(r, st, +1);
		st->tpa_out++;
		st->tpa_t0 = sim_now(r->sim);
		st->seg_i++;
		if (coll_start(r->cc, &req, on_tpa_done, r, (uint64_t)st->idx) < 0)
			fail(r, "could not start a tensor-parallel collective (coll_start failed)");
		return true;
	}
	case SEG_TPW:
		if (st->tpa_out == 0) {
			st->seg_i++;
			return true;
		}
		stp_enter(r, st, SPLIT_TP_COMM, lab_make(11, op->chunk, op->mb));
		return false;
	case SEG_Z3WAIT:
		if (st->dp_done >= (uint64_t)sg->val) {
			st->seg_i++;
			return true;
		}
		stp_enter_dp_wait(r, st, lab_make(LAB_WAIT, op->chunk, op->mb));
		return false;
	default:   /* SEG_GRAD */
		stp_grad_ready(r, st, sg->val, sg->coll == STP_GRAD_LAYER_END);
		st->seg_i++;
		return true;
	}
}

/* ---- phases after the op list ---- */

static void release_barrier(stp_run *r);

static void on_emb_done(sim *s, void *ctx, uint64_t arg)
{
	(void)s, (void)arg;
	stp_run *r = ctx;
	r->emb_running = false;
	for (int i = 0; i < r->pp; i += r->pp - 1)
		stp_busy(r, &r->st[i], -1);
	release_barrier(r);
}

/* Every stage is at the barrier before the optimizer; GPT's tied embedding
 * gradients are all-reduced between the first and the last stage first (its
 * tp x cp siblings on their own rails, mult = tp x cp). False when there is none. */
static bool start_embedding_reduce(stp_run *r)
{
	if (r->emb_bytes <= 0)
		return false;
	int ranks[2] = {r->st[0].gpu, r->st[r->pp - 1].gpu};
	coll_req req = {.op = COLL_ALL_REDUCE, .algo = ALGO_AUTO, .ranks = ranks, .n = 2,
	                .bytes = r->emb_bytes, .mult = (double)(r->tp * r->cp)};
	r->emb_running = true;
	for (int i = 0; i < r->pp; i += r->pp - 1) {
		stp_busy(r, &r->st[i], +1);
		if (r->st[i].run == RUN_NONE)   /* already waiting at the barrier */
			stp_enter(r, &r->st[i], SPLIT_DP_COMM, lab_make(LAB_WAIT, 0, 0));
	}
	if (coll_start(r->cc, &req, on_emb_done, r, 0) < 0) {
		fail(r, "could not start the embedding all-reduce (coll_start failed)");
		return false;
	}
	return true;
}

static void release_barrier(stp_run *r)
{
	r->at_barrier = 0;
	for (int i = 0; i < r->pp; i++)
		r->st[i].phase = PH_OPT;
	for (int i = 0; i < r->pp; i++)
		if (r->st[i].run == RUN_NONE)
			stp_advance(r, &r->st[i]);
}

/* Step `step` ended (sync: every stage done; async: every stage's ops done):
 * its time, and snapshots of the accounting at the measured window's ends. */
static void boundary(stp_run *r, int step)
{
	r->E[step] = sim_now(r->sim);
	bool lo = r->async && step == r->warm - 1, hi = step == (r->async ? r->K - 2 : r->K - 1);
	if (!lo && !hi)
		return;
	for (int i = 0; i < r->pp; i++) {
		stp_stage *st = &r->st[i];
		stp_flush(r, st);
		if (lo) {
			memcpy(st->acc0, st->acc, sizeof st->acc);
			st->busy0 = st->busy_s;
		} else {
			memcpy(st->acc1, st->acc, sizeof st->acc);
			st->busy1 = st->busy_s;
		}
	}
}

/* Many steps of a small layout pass the up-front estimate (a lower bound)
 * and then run into the event limit after minutes: once two steps have run,
 * the second's events times the steps left say whether the run can finish.
 * True (the run stopped, with the reason) when it cannot. */
static bool events_run_out(stp_run *r)
{
	uint64_t now = sim_events(r->sim), cap = sim_max_events(r->sim);
	if (r->cur_step == 0)
		r->ev_step0 = now;
	if (r->cur_step != 1 || cap == 0)
		return false;
	double per = (double)(now - r->ev_step0), need = now + per * (r->K - 2);
	if (need <= (double)cap)
		return false;
	char why[320];
	snprintf(why, sizeof why, "run.steps (=%d) x about %.0f events a step comes to %.3g "
	         "events, above the limit of %llu (--max-events / run.max_events): simulate fewer "
	         "steps (the step time settles within a few), or raise the limit", r->K, per, need,
	         (unsigned long long)cap);
	fail(r, why);
	return true;
}

static void stage_done(stp_run *r, stp_stage *st)
{
	if (st->counted)
		return;
	st->counted = true;
	if (++r->done_count < r->pp || r->async)
		return;
	/* synchronous step over: every stage has finished its optimizer */
	boundary(r, r->cur_step);
	if (r->cur_step + 1 >= r->K)
		return;
	if (events_run_out(r))
		return;
	r->cur_step++;
	if (r->want_timeline && r->cur_step == r->K - 1)
		r->t_rec = sim_now(r->sim);
	for (int i = 0; i < r->pp; i++) {
		stp_start_step(r, &r->st[i], r->cur_step);
		stp_pg_prime(r, &r->st[i]);
	}
	for (int i = 0; i < r->pp; i++)
		if (r->st[i].run == RUN_NONE)
			stp_advance(r, &r->st[i]);
}

static bool phase_move(stp_run *r, stp_stage *st)
{
	int wait = lab_make(LAB_WAIT, 0, 0);
	switch (st->phase) {
	case PH_DPWAIT:
		if (!stp_update_ready(r, st, st->step)) {
			stp_enter_dp_wait(r, st, wait);
			return false;
		}
		st->phase = PH_BARRIER;
		if (++r->at_barrier == r->pp) {
			if (start_embedding_reduce(r))
				return true;
			release_barrier(r);
			return st->run == RUN_NONE && st->phase == PH_OPT;
		}
		return true;
	case PH_BARRIER:
		if (r->emb_running && (st->idx == 0 || st->idx == r->pp - 1))
			stp_enter(r, st, SPLIT_DP_COMM, wait);   /* their gradients on the wire */
		else
			stp_enter(r, st, r->in_ops > 0 ? SPLIT_PP_BUBBLE : SPLIT_IDLE, wait);
		return false;
	case PH_OPT:
		st->phase = PH_PAG;   /* stp_optimizer_done may move it on */
		run_compute(r, st, SPLIT_OPTIMIZER, lab_make(LAB_OPT, 0, 0), st->opt_s, on_opt_done,
			    RUN_COMPUTE);
		return false;
	case PH_PAG:
	case PH_TAIL:
		if (!stp_dp_idle_wait(r, st))
			return true;
		stp_enter_dp_wait(r, st, wait);
		return false;
	default:   /* PH_DONE */
		stp_enter(r, st, SPLIT_IDLE, wait);
		stage_done(r, st);
		return false;
	}
}

void stp_advance(stp_run *r, stp_stage *st)
{
	bool more = true;
	while (more && !r->failed && st->run == RUN_NONE) {
		if (st->side.n > 0) {
			start_side(r, st);
			return;
		}
		more = st->phase == PH_OPS ? ops_move(r, st) : phase_move(r, st);
	}
}

/* The step does not wait for its batch in the simulation: the reads run as
 * flows and contend with the step's traffic, and step.c adds the loader's
 * steady-state stall to every GPU afterwards (docs/step.md). */
static void on_data_ready(sim *s, void *ctx, uint64_t arg)
{
	(void)s;
	(void)ctx;
	(void)arg;
}

void stp_start_step(stp_run *r, stp_stage *st, int step)
{
	if (st->idx == 0 && r->store &&
	    store_data_issue(r->store, step, on_data_ready, r, (uint64_t)step) < 0)
		fail(r, "could not start the data loader's reads");
	st->step = step;
	st->op_i = 0;
	st->op_active = false;
	st->seg_i = st->nseg = 0;
	st->phase = PH_OPS;
	st->counted = false;
	st->wait_idx = -1;
	st->call_ok = false;
	st->call_ph = 0;
	st->call_pend = 0;
	st->call_ag = 0;
	memset(st->b_done, 0, sizeof(int) * (size_t)r->v);
	st->bucket_fill = 0;
	st->deferred = 0;
	st->deferred_bytes = 0;
	st->upd[step % 3] = (stp_update){.step = step};
	st->step_t0 = sim_now(r->sim);
	st->step_wait0 = stp_dp_waited(st, st->step_t0);
	st->sm_debt = 0;     /* owed only to this step's compute */
	if (!r->async && st->idx == 0) {
		r->in_ops = r->pp;
		r->done_count = 0;
	} else if (r->async) {
		r->in_ops++;
	}
	stp_var_step_begin(r, st);
}
