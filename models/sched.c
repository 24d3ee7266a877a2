/* sched.c: GPipe, 1F1B and interleaved 1F1B (Megatron-LM's ordering) and
 * DeepSpeed's pipeline engine (its TrainSchedule) as per-stage op lists,
 * registered in one table, and a network-free replay. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedule.h"

typedef void (*sched_fill_fn)(const sched *s, int st, sched_op *ops);

static void put(sched_op *op, int kind, int chunk, int mb)
{
	op->kind = (uint8_t)kind;
	op->chunk = (uint8_t)chunk;
	op->pad = 0;
	op->mb = mb;
}

/* GPipe: all forwards, then all backwards in the reverse order autograd runs them. */
static void fill_gpipe(const sched *s, int st, sched_op *ops)
{
	int n = 0;
	for (int mb = 0; mb < s->m; mb++)
		put(&ops[n++], SCHED_F, 0, mb);
	for (int mb = s->m - 1; mb >= 0; mb--)
		put(&ops[n++], SCHED_B, 0, mb);
}

/* 1F1B (PipeDream-Flush, Megatron's non-interleaved schedule): stage st runs
 * pp-st-1 warm-up forwards, then alternates one forward and one backward,
 * then drains the remaining backwards. */
static void fill_1f1b(const sched *s, int st, sched_op *ops)
{
	int warm = s->pp - st - 1;
	if (warm > s->m)
		warm = s->m;
	int n = 0, f = 0, b = 0;
	for (; f < warm; f++)
		put(&ops[n++], SCHED_F, 0, f);
	for (; f < s->m; f++, b++) {
		put(&ops[n++], SCHED_F, 0, f);
		put(&ops[n++], SCHED_B, 0, b);
	}
	for (; b < s->m; b++)
		put(&ops[n++], SCHED_B, 0, b);
}

/* DeepSpeed's TrainSchedule (deepspeed/runtime/pipe/schedule.py): 2 (m + pp
 * - 1) steps in which every stage runs one forward or one backward or
 * nothing, forwards on even stages at even steps and on odd stages at odd
 * steps (a stage alternates), micro-batch ids from the step and the stage
 * as _even_step_forward_id and its three siblings compute them. Sets *mb to
 * the step's micro-batch (invalid: < 0 or >= m) and *fwd. */
static void ds_step(const sched *s, int st, int step, int *mb, bool *fwd)
{
	bool even_step = step % 2 == 0, even_stage = st % 2 == 0;
	*fwd = even_step == even_stage;
	if (*fwd)
		*mb = (even_step ? step / 2 : (step - 1) / 2) - st / 2;
	else if (even_step)
		*mb = step / 2 - s->pp + (st + 1) / 2;
	else
		*mb = (step - 1) / 2 - s->pp + 1 + st / 2;
}

static void fill_deepspeed(const sched *s, int st, sched_op *ops)
{
	int n = 0, steps = 2 * (s->m + s->pp - 1), mb;
	bool fwd;
	for (int step = 0; step < steps && n < s->ops_per_stage; step++) {
		ds_step(s, st, step, &mb, &fwd);
		if (mb >= 0 && mb < s->m)
			put(&ops[n++], fwd ? SCHED_F : SCHED_B, 0, mb);
	}
}

/* The k-th forward (or backward) of an interleaved stage: micro-batches go in
 * groups of pp; within a group every chunk runs over the group's
 * micro-batches before the next chunk (Megatron's get_model_chunk_id); the
 * backward visits the chunks in reverse. A last group shorter than pp (m not
 * a multiple of pp) keeps the same pattern. */
static void interleaved_kth(const sched *s, int k, bool backward, int *chunk, int *mb)
{
	int full = (s->m / s->pp) * s->pp * s->v;   /* ops in complete groups */
	int gsize, base, in;
	if (k < full) {
		gsize = s->pp;
		base = (k / (s->pp * s->v)) * s->pp;
		in = k % (s->pp * s->v);
	} else {
		gsize = s->m % s->pp;
		base = (s->m / s->pp) * s->pp;
		in = k - full;
	}
	int c = in / gsize;
	*chunk = backward ? s->v - 1 - c : c;
	*mb = base + in % gsize;
}

static void fill_interleaved(const sched *s, int st, sched_op *ops)
{
	int total = s->ops_per_stage / 2;   /* m v; sched_build keeps 2 m v in an int */
	/* in 64 bits: the (v-1) pp term and a warm-up candidate near 4 m v may
	 * pass INT_MAX before the cap at total */
	long long warm;
	if (s->m == s->pp)
		warm = total;   /* Megatron: all warm-up when m equals pp */
	else
		warm = (s->pp - st - 1) * 2LL + (s->v - 1) * (long long)s->pp;
	warm += s->warm_extra;
	if (warm > total)
		warm = total;
	int n = 0, f = 0, b = 0, c, mb;
	for (; f < warm; f++) {
		interleaved_kth(s, f, false, &c, &mb);
		put(&ops[n++], SCHED_F, c, mb);
	}
	for (; f < total; f++, b++) {
		interleaved_kth(s, f, false, &c, &mb);
		put(&ops[n++], SCHED_F, c, mb);
		interleaved_kth(s, b, true, &c, &mb);
		put(&ops[n++], SCHED_B, c, mb);
	}
	for (; b < total; b++) {
		interleaved_kth(s, b, true, &c, &mb);
		put(&ops[n++], SCHED_B, c, mb);
	}
}

/* ---- Megatron's point-to-point calls ---- */

/* 1F1B (forward_backward_pipelining_without_interleaving): recv_forward
 * before the first op; between two ops of one kind two helper calls in a row
 * (send_forward then recv_forward in the warm-up, send_backward then
 * recv_backward in the cool-down); between a forward and a backward one
 * combined call (send_forward_recv_backward, send_backward_recv_forward);
 * send_backward after the last op. */
static void calls_1f1b(const sched *s, const sched_op *ops, uint8_t *c)
{
	int n = s->ops_per_stage;
	c[0] = SCHED_CALL_RECV0;
	for (int i = 1; i < n; i++)
		c[i] = (uint8_t)(SCHED_CALL_SEND1 | SCHED_CALL_RECV0 |
				 (ops[i].kind == ops[i - 1].kind ? SCHED_CALL_SEQ : 0));
	c[n] = SCHED_CALL_SEND1;
}

/* Interleaved 1F1B (forward_backward_pipelining_with_interleaving): recv_forward
 * before the first op; after each warm-up forward send_forward_recv_forward,
 * the last one also receiving the first backward's gradient
 * (send_forward_backward_recv_forward_backward); in the steady state a forward
 * and a backward run back to back and one call sends both outputs and
 * receives the next forward's input and the next backward's gradient; in the
 * cool-down send_backward_recv_backward. With all forwards in the warm-up
 * (m = pp), the last forward is sent alone and the first gradient received by
 * a separate recv_backward. */
static void calls_interleaved(const sched *s, const sched_op *ops, uint8_t *c)
{
	int n = s->ops_per_stage, total = n / 2, lead = 0;
	while (lead < n && ops[lead].kind == SCHED_F)
		lead++;
	bool all = lead == total;
	int w = all ? total : lead - 1;   /* warm-up forwards */
	int cool = 2 * total - w;         /* index of the first cool-down backward */
	memset(c, 0, (size_t)n + 1);
	c[0] = (uint8_t)(SCHED_CALL_RECV0 | (w == 0 && !all ? SCHED_CALL_RECV1 : 0));
	for (int i = 1; i <= n; i++) {
		if (i < w) {
			c[i] = SCHED_CALL_SEND1 | SCHED_CALL_RECV0;
		} else if (i == w) {
			c[i] = (uint8_t)(SCHED_CALL_SEND1 | SCHED_CALL_RECV0 |
					 (all ? SCHED_CALL_SEQ : SCHED_CALL_RECV1));
		} else if (!all && i <= cool && (i - w) % 2 == 0) {   /* after a steady backward */
			c[i] = SCHED_CALL_SEND2 | SCHED_CALL_SEND1;
			if (i < n)
				c[i] |= (uint8_t)(SCHED_CALL_RECV0 |
						  (ops[i].kind == SCHED_F ? SCHED_CALL_RECV1 : 0));
		} else if (!all && i <= cool) {                        /* between F and B */
			c[i] = 0;
		} else {                                               /* cool-down */
			c[i] = (uint8_t)(SCHED_CALL_SEND1 | (i < n ? SCHED_CALL_RECV0 : 0));
		}
	}
}

/* DeepSpeed's instructions, every one blocking (its docstrings: "The
 * communication is blocking and must be paired with" the neighbour's): the
 * output of a stage's op leaves in the step after it, the input of an op
 * arrives in its own step. A forward step receives its activation, then
 * sends the previous step's gradient (RSEQ); a backward step sends the
 * previous step's activation, then receives its gradient (SEQ); a send in
 * an empty step comes before the next op's receive (SEQ). */
static void calls_deepspeed(const sched *s, int st, const sched_op *ops, uint8_t *c)
{
	int n = s->ops_per_stage, steps = 2 * (s->m + s->pp - 1), i = 0, prev_step = -2, mb;
	bool fwd;
	memset(c, 0, (size_t)n + 1);
	for (int step = 0; step < steps && i < n; step++) {
		ds_step(s, st, step, &mb, &fwd);
		if (mb < 0 || mb >= s->m)
			continue;
		uint8_t f = SCHED_CALL_RECV0;
		if (i > 0)
			f |= SCHED_CALL_SEND1 |
			     (ops[i].kind == SCHED_F && step == prev_step + 1 ? SCHED_CALL_RSEQ
									      : SCHED_CALL_SEQ);
		c[i++] = f;
		prev_step = step;
	}
	c[n] = SCHED_CALL_SEND1;
}

static void build_calls(sched *s)
{
	size_t per = (size_t)s->ops_per_stage + 1;
	for (int st = 0; st < s->pp; st++) {
		const sched_op *ops = sched_stage_ops(s, st);
		uint8_t *c = s->calls + (size_t)st * per;
		if (s->kind == SCHED_INTERLEAVED)
			calls_interleaved(s, ops, c);
		else if (s->kind == SCHED_DEEPSPEED)
			calls_deepspeed(s, st, ops, c);
		else
			calls_1f1b(s, ops, c);
	}
}

/* Index of the transfer op makes (out) or needs (in) on stage st; -1 when it
 * stays on the stage or there is none (first chunk's input, last chunk's
 * forward output, ...). */
static long xfer(const sched *s, int st, const sched_op *op, bool out)
{
	int G = s->pp * s->v, gc = op->chunk * s->pp + st, dir = op->kind == SCHED_F ? 0 : 1;
	int to;
	if (out)
		to = dir == 0 ? gc + 1 : gc - 1;
	else
		to = gc;
	if (to < 0 || to >= G || (!out && (dir == 0 ? gc == 0 : gc == G - 1)))
		return -1;
	return ((long)dir * G + to) * s->m + op->mb;
}

void sched_call_transfers(const sched *s, int st, int i, long send[2], int *ns, long recv[2],
			  int *nr)
{
	int f = sched_call(s, st, i), n = s->ops_per_stage;
	const sched_op *ops = sched_stage_ops(s, st);
	long x;
	*ns = *nr = 0;
	if ((f & SCHED_CALL_SEND2) && i >= 2 && (x = xfer(s, st, &ops[i - 2], true)) >= 0)
		send[(*ns)++] = x;
	if ((f & SCHED_CALL_SEND1) && i >= 1 && (x = xfer(s, st, &ops[i - 1], true)) >= 0)
		send[(*ns)++] = x;
	if ((f & SCHED_CALL_RECV0) && i < n && (x = xfer(s, st, &ops[i], false)) >= 0)
		recv[(*nr)++] = x;
	if ((f & SCHED_CALL_RECV1) && i + 1 < n && (x = xfer(s, st, &ops[i + 1], false)) >= 0)
		recv[(*nr)++] = x;
}

static const struct sched_def {
	scn_schedule kind;
	const char *name;
	sched_fill_fn fill;
} sched_table[] = {
	{SCHED_GPIPE, "gpipe", fill_gpipe},
	{SCHED_1F1B, "1f1b", fill_1f1b},
	{SCHED_INTERLEAVED, "interleaved", fill_interleaved},
	{SCHED_DEEPSPEED, "deepspeed", fill_deepspeed},
};

static const struct sched_def *sched_find(scn_schedule kind)
{
	for (size_t i = 0; i < sizeof sched_table / sizeof sched_table[0]; i++)
		if (sched_table[i].kind == kind)
			return &sched_table[i];
	return NULL;
}

const char *sched_name(scn_schedule kind)
{
	const struct sched_def *d = sched_find(kind);
	return d ? d->name : "?";
}

static void refill(sched *s, const struct sched_def *d)
{
	for (int st = 0; st < s->pp; st++)
		d->fill(s, st, s->ops + (size_t)st * (size_t)s->ops_per_stage);
	if (s->calls)
		build_calls(s);
}

/* Above this many ops the uneven warm-up takes the first count that does not
 * deadlock instead of the fastest (each candidate is one replay). */
#define SCHED_MAX_SEARCH_OPS 4000000LL

/* Interleaving with m not a multiple of pp (Megatron refuses it): Megatron's
 * warm-up can deadlock on the short last group, and with its blocking calls
 * a warm-up that does not deadlock can still stall stages on the short
 * group. Candidates: pp, 2pp, 4pp, ... more forwards, at last all of them
 * (which cannot deadlock); keep the one whose replay (forward 1, backward 2)
 * is shortest, the smallest on ties. */
static void uneven_warmup(sched *s, const struct sched_def *d)
{
	long long ops = (long long)s->ops_per_stage * s->pp, best = -1;
	long long total = s->ops_per_stage / 2;   /* m v, as fill_interleaved counts it */
	double best_mk = 0, mk;
	/* e doubles up to 4 m v, past INT_MAX near the limit: every e >= total
	 * means all forwards in the warm-up, so one stored as INT_MAX is the same */
	for (long long e = 0;; e = e ? 2 * e : s->pp) {
		s->warm_extra = e < INT_MAX ? (int)e : INT_MAX;
		refill(s, d);
		if (sched_replay(s, 1.0, 2.0, &mk) == 0) {
			if (best < 0 || mk < best_mk - 1e-9) {
				best = e;
				best_mk = mk;
			}
			if (ops > SCHED_MAX_SEARCH_OPS)
				break;
		}
		if (e >= 2 * total)
			break;
	}
	if (best >= 0 && best != s->warm_extra) {
		s->warm_extra = best < INT_MAX ? (int)best : INT_MAX;
		refill(s, d);
	}
}

/* Limits of the op encoding (chunk in 8 bits) and of memory (2*m*v*pp ops). */
#define SCHED_MAX_V SCN_MAX_VIRTUAL_STAGES
#ifndef SCHED_MAX_OPS           /* tests/check_sched_limits.c lifts it */
#define SCHED_MAX_OPS SCN_MAX_SCHED_OPS
#endif

int sched_build(sched *out, scn_schedule kind, int pp, int m, int v, char *err, size_t errlen)
{
	*out = (sched){0};
	if (kind == SCHED_INTERLEAVED && (v <= 1 || pp <= 1))
		kind = SCHED_1F1B;
	if (kind != SCHED_INTERLEAVED)
		v = 1;
	const struct sched_def *d = sched_find(kind);
	if (!d || pp < 1 || m < 1 || v < 1 || v > SCHED_MAX_V) {
		snprintf(err, errlen, "pipeline schedule: need pp >= 1, micro-batches >= 1 and "
			 "1 <= virtual_stages <= %d (got pp=%d m=%d v=%d)", SCHED_MAX_V, pp, m, v);
		return -1;
	}
	/* 2 m v pp compared by division: the product could pass LLONG_MAX were the
	 * loader's limits raised (it is printed as a double, exact below 2^53) */
	if (2LL * m * v > SCHED_MAX_OPS / pp) {
		snprintf(err, errlen, "pipeline schedule of %.0f operations (2 x %d micro-batches x "
			 "%d chunks x %d stages) is above the limit of %lld", 2.0 * m * v * pp, m, v,
			 pp, SCHED_MAX_OPS);
		return -1;
	}
	/* A stage counts its ops (2 m v) and the global chunks (pp v) in ints;
	 * SCHED_MAX_OPS keeps both far below INT_MAX, this holds if it is raised. */
	if (2LL * m * v > INT_MAX || (long long)pp * v > INT_MAX) {
		snprintf(err, errlen, "pipeline schedule: 2 x %d micro-batches x %d chunks per stage "
			 "= %lld operations on one stage (or %lld chunks in all), more than an int "
			 "counts (%d)", m, v, 2LL * m * v, (long long)pp * v, INT_MAX);
		return -1;
	}
	out->kind = kind;
	out->pp = pp;
	out->m = m;
	out->v = v;
	out->ops_per_stage = (int)(2LL * m * v);
	out->ops = malloc(sizeof(sched_op) * (size_t)out->ops_per_stage * (size_t)pp);
	if (!out->ops) {
		snprintf(err, errlen, "out of memory for the pipeline schedule");
		return -2;
	}
	if (kind != SCHED_GPIPE) {
		out->calls = malloc((size_t)(out->ops_per_stage + 1) * (size_t)pp);
		if (!out->calls) {
			sched_release(out);
			snprintf(err, errlen, "out of memory for the pipeline schedule");
			return -2;
		}
	}
	for (int st = 0; st < pp; st++)
		d->fill(out, st, out->ops + (size_t)st * (size_t)out->ops_per_stage);
	if (out->calls)
		build_calls(out);
	if (kind == SCHED_INTERLEAVED && m % pp != 0)
		uneven_warmup(out, d);
	return 0;
}

void sched_release(sched *s)
{
	free(s->ops);
	free(s->calls);
	s->ops = NULL;
	s->calls = NULL;
}

/* Replay with the schedule's calls: a transfer starts (and, being free,
 * ends) once both ends have posted it; a call ends when all its posted
 * transfers have; with SEQ the receives are posted after the sends ended,
 * with RSEQ the sends after the receives. Phases of a stage at its call
 * point i: 0 not begun, 1 waiting for the first group (SEQ, RSEQ), 2
 * waiting for all, 3 done (its op i may run). */
typedef struct rp_stage {
	int i, ph, ns, nr;
	long send[2], recv[2];
	double clock;
} rp_stage;

static bool rp_posted(const double *ps, const double *pr, const long *x, int n, double *t)
{
	for (int k = 0; k < n; k++) {
		if (ps[x[k]] < 0 || pr[x[k]] < 0)
			return false;
		*t = fmax(*t, fmax(ps[x[k]], pr[x[k]]));
	}
	return true;
}

/* Moves stage st as far as it can; true if it moved. -1 in *bad when an op
 * would run without its input (calls that miss a transfer). */
static bool rp_move(const sched *s, int st, rp_stage *q, double *ps, double *pr, double t_f,
		    double t_b, int *bad)
{
	const sched_op *ops = sched_stage_ops(s, st);
	int n = s->ops_per_stage;
	bool moved = false;
	for (;;) {
		int f = sched_call(s, st, q->i);
		bool rseq = f & SCHED_CALL_RSEQ, seq = (f & SCHED_CALL_SEQ) || rseq;
		if (q->ph == 0) {
			sched_call_transfers(s, st, q->i, q->send, &q->ns, q->recv, &q->nr);
			if (!rseq)
				for (int k = 0; k < q->ns; k++)
					ps[q->send[k]] = q->clock;
			if (!seq || rseq)
				for (int k = 0; k < q->nr; k++)
					pr[q->recv[k]] = q->clock;
			q->ph = seq ? 1 : 2;
			moved = true;
		}
		if (q->ph == 1 || q->ph == 2) {
			double t = q->clock;
			bool sends = q->ph == 2 || !rseq, recvs = q->ph == 2 || rseq;
			if ((sends && !rp_posted(ps, pr, q->send, q->ns, &t)) ||
			    (recvs && !rp_posted(ps, pr, q->recv, q->nr, &t)))
				return moved;
			q->clock = t;
			if (q->ph == 1) {
				if (rseq)
					for (int k = 0; k < q->ns; k++)
						ps[q->send[k]] = q->clock;
				else
					for (int k = 0; k < q->nr; k++)
						pr[q->recv[k]] = q->clock;
				q->ph = 2;
				continue;
			}
			q->ph = 3;
		}
		if (q->i == n)
			return moved;
		const sched_op *op = &ops[q->i];
		long in = xfer(s, st, op, false);
		if (in >= 0 && (ps[in] < 0 || pr[in] < 0)) {
			*bad = 1;
			return moved;
		}
		q->clock += op->kind == SCHED_F ? t_f : t_b;
		q->i++;
		q->ph = 0;
		moved = true;
	}
}

static int replay_calls(const sched *s, double t_f, double t_b, double *makespan_s)
{
	size_t n = 2 * (size_t)s->pp * (size_t)s->v * (size_t)s->m;
	double *ps = malloc(sizeof(double) * n), *pr = malloc(sizeof(double) * n);
	rp_stage *q = calloc((size_t)s->pp, sizeof *q);
	int rc = -1, bad = 0;
	if (!ps || !pr || !q)
		goto out_free;
	for (size_t k = 0; k < n; k++)
		ps[k] = pr[k] = -1.0;
	bool progress = true;
	int remaining = s->pp;
	while (remaining > 0 && progress && !bad) {
		progress = false;
		remaining = 0;
		for (int st = 0; st < s->pp; st++) {
			if (rp_move(s, st, &q[st], ps, pr, t_f, t_b, &bad))
				progress = true;
			if (q[st].i < s->ops_per_stage || q[st].ph != 3)
				remaining++;
		}
	}
	if (remaining == 0 && !bad) {
		double mk = 0;
		for (int st = 0; st < s->pp; st++)
			mk = fmax(mk, q[st].clock);
		*makespan_s = mk;
		rc = 0;
	}
out_free:
	free(ps);
	free(pr);
	free(q);
	return rc;
}

/* Completion times of every (chunk, micro-batch) forward and backward, in
 * global chunk order; a stage advances while its next op's input is known. */
int sched_replay(const sched *s, double t_f, double t_b, double *makespan_s)
{
	if (s->calls)
		return replay_calls(s, t_f, t_b, makespan_s);
	int G = s->pp * s->v, m = s->m;
	size_t n = (size_t)G * (size_t)m;
	double *fdone = malloc(sizeof(double) * n), *bdone = malloc(sizeof(double) * n);
	int *pos = calloc((size_t)s->pp, sizeof(int));
	double *free_at = calloc((size_t)s->pp, sizeof(double));
	int rc = -1;
	if (!fdone || !bdone || !pos || !free_at)
		goto out_free;
	for (size_t i = 0; i < n; i++)
		fdone[i] = bdone[i] = -1.0;
	int remaining = s->pp;
	bool progress = true;
	while (remaining > 0 && progress) {
		progress = false;
		remaining = 0;
		for (int st = 0; st < s->pp; st++) {
			const sched_op *ops = sched_stage_ops(s, st);
			while (pos[st] < s->ops_per_stage) {
				const sched_op *op = &ops[pos[st]];
				int gc = op->chunk * s->pp + st;
				double ready;
				if (op->kind == SCHED_F)
					ready = gc == 0 ? 0.0 : fdone[(size_t)(gc - 1) * m + op->mb];
				else
					ready = gc == G - 1 ? fdone[(size_t)gc * m + op->mb]
							    : bdone[(size_t)(gc + 1) * m + op->mb];
				if (ready < 0)
					break;
				double t0 = ready > free_at[st] ? ready : free_at[st];
				free_at[st] = t0 + (op->kind == SCHED_F ? t_f : t_b);
				(op->kind == SCHED_F ? fdone : bdone)[(size_t)gc * m + op->mb] = free_at[st];
				pos[st]++;
				progress = true;
			}
			if (pos[st] < s->ops_per_stage)
				remaining++;
		}
	}
	if (remaining == 0) {
		double mk = 0;
		for (int st = 0; st < s->pp; st++)
			if (free_at[st] > mk)
				mk = free_at[st];
		*makespan_s = mk;
		rc = 0;
	}
out_free:
	free(fdone);
	free(bdone);
	free(pos);
	free(free_at);
	return rc;
}
