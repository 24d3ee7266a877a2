/* flow.c: links, flow records and the events of the flow-level network: a
 * flow starts, sends at the rate the last re-plan gave it, ends when its bytes
 * are out, and is delivered a route latency later. flow_plan.c sets rates. */
#include "flow_int.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>

/* Below this fraction of its size, what a flow has left is rounding dust. */
#define FLOW_REL_TOL 1e-12

int flowi_reserve(void **arr, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return SIM_OK;
	int ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > (1 << 29))
			return SIM_ENOMEM;
		ncap *= 2;
	}
	void *p = realloc(*arr, (size_t)ncap * size);
	if (!p)
		return SIM_ENOMEM;
	*arr = p;
	*cap = ncap;
	return SIM_OK;
}

#define RESERVE(arr, cap, need) flowi_reserve((void **)&(arr), &(cap), (need), sizeof *(arr))

flownet *flow_new(sim *s)
{
	flownet *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->s = s;
	n->free_flow = -1;
	n->free_end = n->free_batch = n->open_batch = -1;
	for (int k = 0; k < 32; k++)
		n->hop_free[k] = -1;
	return n;
}

void flow_free(flownet *n)
{
	if (!n)
		return;
	for (int l = 0; l < n->nlinks; l++)
		free(n->links[l].flows);
	free(n->links);
	free(n->flows);
	free(n->hop_pool);
	free(n->dirty);
	free(n->comp_links);
	free(n->comp_flows);
	free(n->heap);
	free(n->ends);
	free(n->batches);
	free(n);
}

int flow_link_add(flownet *n, double capacity_Bps, double latency_s, int fanin, int kind)
{
	if (!(capacity_Bps > 0) || !isfinite(capacity_Bps) || !(latency_s >= 0) ||
	    !isfinite(latency_s) || fanin < 1)
		return SIM_EINVAL;
	if (RESERVE(n->links, n->caplinks, n->nlinks + 1))
		return SIM_ENOMEM;
	n->links[n->nlinks] = (flowi_link){ .capacity_Bps = capacity_Bps,
		.latency_s = latency_s, .fanin = fanin, .kind = kind };
	return n->nlinks++;
}

static bool flow_link_ok(const flownet *n, int l) { return l >= 0 && l < n->nlinks; }

int flow_link_count(const flownet *n) { return n->nlinks; }

double flow_link_capacity(const flownet *n, int l)
{
	return flow_link_ok(n, l) ? n->links[l].capacity_Bps : 0;
}

double flow_link_latency(const flownet *n, int l)
{
	return flow_link_ok(n, l) ? n->links[l].latency_s : 0;
}

int flow_link_kind(const flownet *n, int l)
{
	return flow_link_ok(n, l) ? n->links[l].kind : SIM_EINVAL;
}

/* Bytes carried up to the last settlement of each flow on the link, plus
 * what its transmitting flows have sent since, at their current rates. */
double flow_link_bytes(const flownet *n, int l)
{
	if (!flow_link_ok(n, l))
		return 0;
	const flowi_link *k = &n->links[l];
	double b = k->bytes, now = sim_now(n->s);
	for (int i = 0; i < k->nflows; i++) {
		const flowi_rec *f = &n->flows[k->flows[i].flow];
		double sent = f->rate_Bps * (now - f->last_s);
		b += (sent < f->remaining ? sent : f->remaining) * f->scale * flowi_weight(n, f, l);
	}
	return b;
}

double flow_link_busy_s(const flownet *n, int l)
{
	if (!flow_link_ok(n, l))
		return 0;
	const flowi_link *k = &n->links[l];
	return k->busy_s + (k->nflows ? sim_now(n->s) - k->busy_since_s : 0);
}

int flow_set_noise(flownet *n, double cv, gsl_rng *rng)
{
	if (!(cv >= 0) || !isfinite(cv) || (cv > 0 && !rng))
		return SIM_EINVAL;
	n->noise_sigma = sqrt(log1p(cv * cv));
	n->noise_mu = -0.5 * n->noise_sigma * n->noise_sigma;
	n->noise_rng = cv > 0 ? rng : NULL;
	return SIM_OK;
}

double flow_rate(const flownet *n, int id)
{
	if (id < 0 || id >= n->nflows || n->flows[id].state != FLOWI_SENDING)
		return 0;
	return n->flows[id].rate_Bps * n->flows[id].scale;
}

int flow_active_count(const flownet *n) { return n->nactive; }
double flow_bytes_started(const flownet *n) { return n->bytes_started; }
double flow_bytes_delivered(const flownet *n) { return n->bytes_delivered; }
uint64_t flow_replans(const flownet *n) { return n->replans; }
uint64_t flow_started(const flownet *n) { return n->started; }

/* Route blocks come in power-of-two sizes with one free list per size; a
 * freed block keeps the next free offset in its first hop. */
static int flow_hops_alloc(flownet *n, int nhops, uint32_t *off)
{
	int k = 0;
	while ((1 << k) < nhops)
		k++;
	if (n->hop_free[k] >= 0) {
		*off = (uint32_t)n->hop_free[k];
		n->hop_free[k] = n->hop_pool[*off].link;
		return SIM_OK;
	}
	uint32_t need = n->nhop_pool + (1u << k);
	if (need > n->caphop_pool) {
		uint32_t ncap = n->caphop_pool ? n->caphop_pool : 256;
		while (ncap < need)
			ncap *= 2;
		flowi_hop *p = realloc(n->hop_pool, (size_t)ncap * sizeof *p);
		if (!p)
			return SIM_ENOMEM;
		n->hop_pool = p;
		n->caphop_pool = ncap;
	}
	*off = n->nhop_pool;
	n->nhop_pool = need;
	return SIM_OK;
}

static void flow_hops_release(flownet *n, uint32_t off, int nhops)
{
	int k = 0;
	while ((1 << k) < nhops)
		k++;
	n->hop_pool[off].link = (int)n->hop_free[k];
	n->hop_free[k] = off;
}

static int flow_rec_alloc(flownet *n)
{
	if (n->free_flow >= 0) {
		int id = n->free_flow;
		n->free_flow = n->flows[id].next_free;
		return id;
	}
	if (RESERVE(n->flows, n->capflows, n->nflows + 1))
		return SIM_ENOMEM;
	n->flows[n->nflows].version = 0;
	return n->nflows++;
}

static void flow_rec_release(flownet *n, int id)
{
	flowi_rec *f = &n->flows[id];
	f->state = FLOWI_FREE;
	f->next_free = n->free_flow;
	n->free_flow = id;
	n->nactive--;
}

static void flow_mark_dirty(flownet *n, int l);
static void flow_on_replan(sim *s, void *ctx, uint64_t arg);

/* Adds hop h of flow id to its link's list. */
static int flow_link_join(flownet *n, int id, int h)
{
	flowi_hop *hop = &flowi_hops(n, &n->flows[id])[h];
	flowi_link *k = &n->links[hop->link];
	if (RESERVE(k->flows, k->capflows, k->nflows + 1))
		return SIM_ENOMEM;
	if (k->nflows == 0)
		k->busy_since_s = sim_now(n->s);
	hop->pos = k->nflows;
	k->flows[k->nflows++] = (flowi_ref){ id, h };
	flowi_rec *f = &n->flows[id];
	double w = flowi_weight(n, f, hop->link);
	k->weight += w;
	if (f->cap_Bps > 0)
		k->cap_load_Bps += f->cap_Bps * w;
	else
		k->nuncapped++;
	flow_mark_dirty(n, hop->link);
	return SIM_OK;
}

/* Removes hop h of flow id from its link's list (swap with the last). */
static void flow_link_leave(flownet *n, int id, int h)
{
	flowi_hop *hop = &flowi_hops(n, &n->flows[id])[h];
	flowi_link *k = &n->links[hop->link];
	flowi_ref last = k->flows[--k->nflows];
	if (hop->pos != k->nflows) {
		k->flows[hop->pos] = last;
		flowi_hops(n, &n->flows[last.flow])[last.hop].pos = hop->pos;
	}
	flowi_rec *f = &n->flows[id];
	double w = flowi_weight(n, f, hop->link);
	k->weight -= w;
	if (f->cap_Bps > 0)
		k->cap_load_Bps -= f->cap_Bps * w;
	else
		k->nuncapped--;
	if (k->nflows == 0) {
		k->busy_s += sim_now(n->s) - k->busy_since_s;
		k->weight = k->cap_load_Bps = 0;   /* no rounding residue when idle */
	}
	flow_mark_dirty(n, hop->link);
}

/* Queues link l for the next re-plan, and that re-plan after every other
 * event of this instant (SIM_PRIO_LATE), so that simultaneous starts and
 * ends cost one re-plan. */
static void flow_mark_dirty(flownet *n, int l)
{
	flowi_link *k = &n->links[l];
	if (!k->dirty) {
		/* The dirty list was reserved for every link by flow_start. */
		k->dirty = true;
		n->dirty[n->ndirty++] = l;
	}
	if (!n->replan_pending) {
		n->replan_pending = true;
		if (sim_at(n->s, sim_now(n->s), SIM_PRIO_LATE, flow_on_replan, n, 0))
			n->replan_pending = false;   /* OOM: the next change retries */
	}
}

static void flow_on_replan(sim *s, void *ctx, uint64_t arg)
{
	flownet *n = ctx;
	n->replan_pending = false;
	int rc = flowi_replan(n);
	assert(rc == SIM_OK && "out of memory while re-planning flow rates");
	(void)rc;
}

void flowi_settle(flownet *n, flowi_rec *f)
{
	double now = sim_now(n->s), dt = now - f->last_s;
	f->last_s = now;
	if (!(dt > 0) || f->rate_Bps <= 0)
		return;
	double sent = f->rate_Bps * dt;
	if (sent >= f->remaining || f->remaining - sent <= FLOW_REL_TOL * (f->bytes / f->scale))
		sent = f->remaining;
	f->remaining -= sent;
	const flowi_hop *hops = flowi_hops(n, f);
	for (int h = 0; h < f->nhops; h++)
		n->links[hops[h].link].bytes += sent * f->scale * flowi_weight(n, f, hops[h].link);
}

static void flow_on_delivered(sim *s, void *ctx, uint64_t arg)
{
	flownet *n = ctx;
	int id = (int)(arg >> 32);
	flowi_rec *f = &n->flows[id];
	assert(f->state == FLOWI_LANDING && f->version == (uint32_t)arg);
	flow_done_fn done = f->done;
	void *dctx = f->ctx;
	uint64_t darg = f->arg;
	n->bytes_delivered += f->bytes;
	flow_rec_release(n, id);
	if (done)
		done(s, dctx, darg);
}

/* The last byte of flow id is out: it leaves its links and lands a route
 * latency later (its sender is told at once when it asked to be). */
static void flow_finish(flownet *n, int id)
{
	flowi_rec *f = &n->flows[id];
	if (f->state == FLOWI_SENDING) {
		flowi_settle(n, f);
		const flowi_hop *hops = flowi_hops(n, f);
		for (int h = 0; h < f->nhops; h++)    /* what dust settle left */
			n->links[hops[h].link].bytes +=
				f->remaining * f->scale * flowi_weight(n, f, hops[h].link);
		for (int h = f->nhops - 1; h >= 0; h--)
			flow_link_leave(n, id, h);
		flow_hops_release(n, f->hops, f->nhops);
	}
	f->remaining = 0;
	f->rate_Bps = 0;
	bool sent_now = f->at_send && f->state == FLOWI_SENDING;
	f->state = FLOWI_LANDING;
	f->version++;
	if (sent_now) {
		/* its sender is told now, in the event that ended it */
		flow_on_delivered(n->s, n, (uint64_t)id << 32 | f->version);
		return;
	}
	double dt = f->at_send ? 0 : f->latency_s;
	int rc = sim_after(n->s, dt, SIM_PRIO_NORMAL, flow_on_delivered, n,
			   (uint64_t)id << 32 | f->version);
	assert(rc == SIM_OK && "out of memory scheduling a flow delivery");
	(void)rc;
}

/* The flows of batch `arg` have sent their last bytes, unless rescheduled. */
static void flow_on_ends(sim *s, void *ctx, uint64_t arg)
{
	(void)s;
	flownet *n = ctx;
	int b = (int)arg;
	if (n->open_batch == b)
		n->open_batch = -1;
	int e = n->batches[b].head;
	n->batches[b].head = n->free_batch;
	n->free_batch = b;
	while (e >= 0) {
		flowi_end end = n->ends[e];
		n->ends[e].next = n->free_end;
		n->free_end = e;
		e = end.next;
		flowi_rec *f = &n->flows[end.flow];
		if (f->state == FLOWI_SENDING && f->version == end.version)
			flow_finish(n, end.flow);
	}
}

static int flow_batch_open(flownet *n, double t)
{
	int b = n->free_batch;
	if (b >= 0) {
		n->free_batch = n->batches[b].head;
	} else {
		if (RESERVE(n->batches, n->capbatches, n->nbatches + 1))
			return SIM_ENOMEM;
		b = n->nbatches++;
	}
	int rc = sim_at(n->s, t, SIM_PRIO_NORMAL, flow_on_ends, n, (uint64_t)b);
	if (rc) {
		n->batches[b].head = n->free_batch;
		n->free_batch = b;
		return rc;
	}
	n->batches[b] = (flowi_batch){ t, -1, -1 };
	n->open_batch = b;
	return SIM_OK;
}

int flowi_schedule_end(flownet *n, int id)
{
	flowi_rec *f = &n->flows[id];
	double dt = f->remaining <= FLOW_REL_TOL * (f->bytes / f->scale) ? 0
		    : f->remaining / f->rate_Bps;
	double t = sim_now(n->s) + dt;
	int e = n->free_end;
	if (e < 0 && RESERVE(n->ends, n->capends, n->nends + 1))
		return SIM_ENOMEM;
	int b = n->open_batch;
	if (b < 0 || n->batches[b].t != t || sim_scheduled(n->s) != n->open_seq) {
		int rc = flow_batch_open(n, t);
		if (rc)
			return rc;
		b = n->open_batch;
	}
	n->open_seq = sim_scheduled(n->s);
	if (e >= 0)
		n->free_end = n->ends[e].next;
	else
		e = n->nends++;
	f->version++;
	f->scheduled = true;
	n->ends[e] = (flowi_end){ id, f->version, -1 };
	flowi_batch *bt = &n->batches[b];
	if (bt->tail >= 0)
		n->ends[bt->tail].next = e;
	else
		bt->head = e;
	bt->tail = e;
	return SIM_OK;
}

static int flow_check_args(const flownet *n, const int *route, int nlinks, double bytes,
			   double rate_cap_Bps, double mult)
{
	if (nlinks < 0 || (nlinks > 0 && !route) || !(bytes >= 0) || !isfinite(bytes) ||
	    !(rate_cap_Bps >= 0) || !(mult >= 1) || !isfinite(mult))
		return SIM_EINVAL;
	for (int h = 0; h < nlinks; h++)
		if (!flow_link_ok(n, route[h]))
			return SIM_EINVAL;
	return SIM_OK;
}

static int flow_begin(flownet *n, const int *route, int nlinks, double bytes,
		      double rate_cap_Bps, double mult, flow_done_fn done, void *ctx,
		      uint64_t arg, bool at_send)
{
	int rc = flow_check_args(n, route, nlinks, bytes, rate_cap_Bps, mult);
	if (rc)
		return rc;
	if (RESERVE(n->dirty, n->capdirty, n->nlinks))
		return SIM_ENOMEM;
	int id = flow_rec_alloc(n);
	if (id < 0)
		return id;
	flowi_rec *f = &n->flows[id];
	double lat = 0;
	for (int h = 0; h < nlinks; h++)
		lat += n->links[route[h]].latency_s;
	/* noise: X bytes per byte of link time, the cap X times higher (the same
	 * in link time); drawn only with noise on, so cv 0 changes nothing */
	double scale = n->noise_rng ? exp(n->noise_mu + n->noise_sigma *
					  gsl_ran_ugaussian(n->noise_rng)) : 1.0;
	*f = (flowi_rec){ .bytes = bytes, .remaining = bytes / scale, .scale = scale,
		.cap_Bps = rate_cap_Bps, .mult = mult, .last_s = sim_now(n->s), .latency_s = lat, .done = done,
		.ctx = ctx, .arg = arg, .version = f->version, .state = FLOWI_LANDING,
		.at_send = at_send };
	n->nactive++;
	n->started++;
	n->bytes_started += bytes;
	if (bytes == 0 || nlinks == 0) {
		flow_finish(n, id);
		return id;
	}
	if ((rc = flow_hops_alloc(n, nlinks, &f->hops)))
		goto out_release;
	f->nhops = nlinks;
	for (int h = 0; h < nlinks; h++)
		flowi_hops(n, f)[h].link = route[h];
	f->state = FLOWI_SENDING;
	for (int h = 0; h < nlinks; h++) {
		if ((rc = flow_link_join(n, id, h))) {
			while (--h >= 0)
				flow_link_leave(n, id, h);
			flow_hops_release(n, f->hops, f->nhops);
			goto out_release;
		}
	}
	return id;

out_release:
	n->bytes_started -= bytes;
	flow_rec_release(n, id);
	return rc;
}

int flow_start(flownet *n, const int *route, int nlinks, double bytes,
	       double rate_cap_Bps, double mult, flow_done_fn done, void *ctx,
	       uint64_t arg)
{
	return flow_begin(n, route, nlinks, bytes, rate_cap_Bps, mult, done, ctx, arg, false);
}

int flow_start_sent(flownet *n, const int *route, int nlinks, double bytes,
		    double rate_cap_Bps, double mult, flow_done_fn done, void *ctx,
		    uint64_t arg)
{
	return flow_begin(n, route, nlinks, bytes, rate_cap_Bps, mult, done, ctx, arg, true);
}
