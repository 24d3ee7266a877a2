/* step_seg.c: segments of the compute stream. At setup each layer's three
 * passes (forward, recompute, backward) become templates built from the
 * workload's op lists (wl_layer_ops): runs of compute ops merged into one
 * segment, blocking TP collectives, async TP collectives (started, then
 * waited for after the compute op they overlap), and, in the backward,
 * gradient-ready marks in proportion to the compute done. Each scheduled op
 * copies the templates of its chunk's layers: no work per op but a copy. */
#include <stdlib.h>
#include <string.h>
#include "step_int.h"

static int tpl_push(stp_run *r, int kind, int lab, int coll, double val, bool merge)
{
	if (kind == SEG_COMPUTE && val <= 0)
		return 0;
	if (merge && kind == SEG_COMPUTE && r->ntpl > 0) {
		stp_seg *p = &r->tpl[r->ntpl - 1];
		if (p->kind == SEG_COMPUTE && p->lab == lab) {
			p->val += val;
			return 0;
		}
	}
	if (r->ntpl == r->tpl_cap) {
		int cap = r->tpl_cap ? 2 * r->tpl_cap : 256;
		stp_seg *v = realloc(r->tpl, sizeof *v * (size_t)cap);
		if (!v)
			return -1;
		r->tpl = v;
		r->tpl_cap = cap;
	}
	r->tpl[r->ntpl++] = (stp_seg){(uint8_t)kind, (uint8_t)lab, (uint8_t)coll, val};
	return 0;
}

/* Inserts a gradient mark after every compute segment of [from, ntpl), in
 * proportion to its time: weight gradients appear as the backward runs. The
 * last mark ends the layer (STP_GRAD_LAYER_END). */
static int add_grad_marks(stp_run *r, int from, double grad_bytes)
{
	int n = r->ntpl - from;
	double total = 0;
	stp_seg *tmp = malloc(sizeof *tmp * (size_t)(n > 0 ? n : 1));
	if (!tmp)
		return -1;
	memcpy(tmp, r->tpl + from, sizeof *tmp * (size_t)n);
	for (int i = 0; i < n; i++)
		if (tmp[i].kind == SEG_COMPUTE)
			total += tmp[i].val;
	r->ntpl = from;
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		rc = tpl_push(r, tmp[i].kind, tmp[i].lab, tmp[i].coll, tmp[i].val, false);
		if (!rc && tmp[i].kind == SEG_COMPUTE && total > 0 && grad_bytes > 0)
			rc = tpl_push(r, SEG_GRAD, tmp[i].lab, 0, grad_bytes * tmp[i].val / total, false);
	}
	if (!rc && total <= 0 && grad_bytes > 0)
		rc = tpl_push(r, SEG_GRAD, LAB_B, 0, grad_bytes, false);
	for (int i = r->ntpl - 1; !rc && i >= from; i--)
		if (r->tpl[i].kind == SEG_GRAD) {
			r->tpl[i].coll = STP_GRAD_LAYER_END;
			break;
		}
	free(tmp);
	return rc;
}

static int layer_pass(stp_run *r, int layer, int pass, stp_cost *c)
{
	static const wl_pass wlp[] = {[PASS_F] = WL_FWD, [PASS_R] = WL_RECOMPUTE, [PASS_B] = WL_BWD};
	static const int labs[] = {[PASS_F] = LAB_F, [PASS_R] = LAB_R, [PASS_B] = LAB_B};
	wl_op ops[WL_MAX_OPS];
	int n = wl_layer_ops(r->s, layer, wlp[pass], ops, WL_MAX_OPS), lab = labs[pass], rc = 0;
	bool wait = false;
	c->off[pass] = r->ntpl;
	for (int i = 0; i < n && !rc; i++) {
		const wl_op *o = &ops[i];
		if (o->kind == OP_TP_COMM) {
			bool on = o->cp_group ? r->cp > 1 : o->ep_group ? r->ep > 1 : r->tp > 1;
			int coll = o->coll | (o->cp_group ? STP_COLL_CP : 0) |
			           (o->ep_group ? STP_COLL_EP : 0);
			/* an overlapped expert all-to-all hides behind all the compute up
			 * to the next one (the other micro-batch's, in DualPipe), which
			 * first waits for it; the op's end waits for the last */
			bool ep_async = o->ep_group && o->async && on;
			if (ep_async)
				rc = tpl_push(r, SEG_TPW, lab, 0, 0, false);
			if (on && !rc)
				rc = tpl_push(r, o->async ? SEG_TPA : SEG_TP, lab, coll, o->bytes, false);
			wait |= o->async && on && !ep_async;
			continue;
		}
		/* the compute op right after an async collective is the window it hides in */
		rc = tpl_push(r, SEG_COMPUTE, lab, 0, o->time_s, !wait);
		if (!rc && wait && o->time_s > 0) {
			rc = tpl_push(r, SEG_TPW, lab, 0, 0, false);
			wait = false;
		}
	}
	if (!rc && wait)
		rc = tpl_push(r, SEG_TPW, lab, 0, 0, false);
	if (!rc && pass == PASS_B)
		rc = add_grad_marks(r, c->off[pass], c->grad_bytes);
	c->n[pass] = r->ntpl - c->off[pass];
	return rc;
}

/* The heads are given as totals: k compute pieces, each followed by one of
 * the k blocking TP collectives. */
static int head_pass(stp_run *r, const wl_layer_cost *w, int pass, stp_cost *c)
{
	double t = pass == PASS_F ? w->fwd_s : pass == PASS_B ? w->bwd_s : 0;
	int k = r->tp > 1 ? (pass == PASS_F ? w->n_tp_fwd : pass == PASS_B ? w->n_tp_bwd : 0) : 0;
	int coll = pass == PASS_F ? w->tp_coll_fwd : w->tp_coll_bwd, rc = 0;
	int lab = pass == PASS_F ? LAB_F : LAB_B;
	c->off[pass] = r->ntpl;
	if (k == 0)
		rc = tpl_push(r, SEG_COMPUTE, lab, 0, t, false);
	for (int i = 0; i < k && !rc; i++) {
		rc = tpl_push(r, SEG_COMPUTE, lab, 0, t / k, false);
		if (!rc)
			rc = tpl_push(r, SEG_TP, lab, coll, w->tp_bytes, false);
	}
	if (!rc && pass == PASS_B)
		rc = add_grad_marks(r, c->off[pass], c->grad_bytes);
	c->n[pass] = r->ntpl - c->off[pass];
	return rc;
}

/* What a GPU holds of a layer or head (ZeRO-3 gathers all of it) and what it
 * trains: params (its gradients, its optimizer's share), all of it, or under
 * LoRA the layer's adapters (`trained`, per GPU; the heads are frozen). */
static void holdings(const stp_run *r, double params_per_gpu, double trained, stp_cost *c)
{
	c->params = r->s->training.peft == PEFT_LORA ? trained : params_per_gpu;
	c->grad_bytes = c->params * hw_precision_bytes(r->s->training.grad_reduce.dtype);
	c->param_bytes = params_per_gpu * hw_gather_bytes(r->s->training.precision);
}

int stp_templates(stp_run *r, char *err, size_t errlen)
{
	const scenario *s = r->s;
	int rc = 0;
	for (int l = 0; l < r->pl.layers && !rc; l++) {
		holdings(r, wl_layer_dp_params(s, l), wl_lora_gpu_params(s, l), &r->lc[l]);
		for (int p = PASS_F; p <= PASS_B && !rc; p++)
			rc = layer_pass(r, l, p, &r->lc[l]);
	}
	wl_layer_cost w;
	for (int first = 1; first >= 0 && !rc; first--) {
		stp_cost *c = first ? &r->head_first : &r->head_last;
		wl_head_cost(s, first, &w);
		/* the output layer lives on the last stage; with pp = 1 a tied one is
		 * the embedding itself (GPT ties, Llama does not: workload.c) */
		bool tied = !s->model.gated_mlp;
		holdings(r, (!first && r->pp == 1 && tied) ? 0 : w.params, 0, c);
		for (int p = PASS_F; p <= PASS_B && !rc; p++)
			rc = head_pass(r, &w, p, c);
	}
	if (rc)
		snprintf(err, errlen, "out of memory for the layer templates");
	return rc;
}

static int chunk_segs(const stp_run *r, int gc, bool fwd)
{
	int n = 3, first = r->pl.chunk_first[gc];   /* + the final wait of overlapped EP */
	for (int l = first; l < first + r->pl.chunk_layers[gc]; l++)
		n += 1 + (fwd ? r->lc[l].n[PASS_F] : r->lc[l].n[PASS_R] + r->lc[l].n[PASS_B]);
	n += fwd ? r->head_first.n[PASS_F] + r->head_last.n[PASS_F]
		 : r->head_first.n[PASS_B] + r->head_last.n[PASS_B];
	return n;
}

int stp_seg_capacity(const stp_run *r)
{
	int cap = 8;
	for (int gc = 0; gc < r->G; gc++) {
		int f = chunk_segs(r, gc, true), b = chunk_segs(r, gc, false);
		cap = f > cap ? f : cap;
		cap = b > cap ? b : cap;
	}
	return cap;
}

/* TP collectives of one step of one micro-batch on every stage, summed. */
double stp_tp_collectives(const stp_run *r)
{
	double n = 0;
	for (int i = 0; i < r->ntpl; i++)
		n += r->tpl[i].kind == SEG_TP || r->tpl[i].kind == SEG_TPA;
	return n;
}

static void copy_pass(stp_run *r, stp_stage *st, const stp_cost *c, int pass, bool grads)
{
	const stp_seg *t = r->tpl + c->off[pass];
	for (int i = 0; i < c->n[pass]; i++)
		if (t[i].kind != SEG_GRAD || grads)
			st->segs[st->nseg++] = t[i];
}

static void z3_wait(stp_run *r, stp_stage *st, const stp_cost *c)
{
	stp_z3_issue(r, st, c->param_bytes);
	st->segs[st->nseg++] = (stp_seg){SEG_Z3WAIT, LAB_WAIT, 0, (double)st->dp_issued};
}

void stp_fill_segments(stp_run *r, stp_stage *st, const sched_op *op)
{
	int gc = plan_chunk_global(&r->pl, st->idx, op->chunk);
	int first = r->pl.chunk_first[gc], nl = r->pl.chunk_layers[gc];
	/* the backward that hands its gradients to the DP stream */
	bool grads = op->kind == SCHED_B && (st->b_done[op->chunk] == r->m - 1 || r->mb_sync);
	bool z3 = r->s->training.zero >= 3 && r->dp > 1;
	st->nseg = 0;
	st->seg_i = 0;
	if (op->kind == SCHED_F) {
		if (gc == 0)
			copy_pass(r, st, &r->head_first, PASS_F, false);
		for (int l = first; l < first + nl; l++) {
			if (z3)
				z3_wait(r, st, &r->lc[l]);
			uint64_t pg = op->mb == 0 ? stp_pg_layer_seq(r, st, gc, l) : 0;
			if (pg > 0)   /* overlap_param_gather: this layer's bucket */
				st->segs[st->nseg++] = (stp_seg){SEG_Z3WAIT, LAB_WAIT, 0, (double)pg};
			copy_pass(r, st, &r->lc[l], PASS_F, false);
		}
		if (gc == r->G - 1)
			copy_pass(r, st, &r->head_last, PASS_F, false);
		if (r->ep_overlap)   /* the last overlapped all-to-all ends with the op */
			st->segs[st->nseg++] = (stp_seg){SEG_TPW, LAB_F, 0, 0};
		return;
	}
	if (gc == r->G - 1)
		copy_pass(r, st, &r->head_last, PASS_B, grads);
	for (int l = first + nl - 1; l >= first; l--) {
		if (z3)
			z3_wait(r, st, &r->lc[l]);
		copy_pass(r, st, &r->lc[l], PASS_R, false);
		copy_pass(r, st, &r->lc[l], PASS_B, grads);
	}
	if (gc == 0)
		copy_pass(r, st, &r->head_first, PASS_B, grads);
	if (r->ep_overlap)
		st->segs[st->nseg++] = (stp_seg){SEG_TPW, LAB_B, 0, 0};
}
