/* flow_plan.c: max-min fair rates by progressive filling, computed only for
 * the connected component of flows (sharing links, transitively) that the
 * changes since the last re-plan touched. */
#include "flow_int.h"

#include <assert.h>

#define RESERVE(arr, cap, need) flowi_reserve((void **)&(arr), &(cap), (need), sizeof *(arr))

/* Min-heap (4-ary) of bounds on the fill level, keyed by level_Bps. */
static void plan_push(flownet *n, double level_Bps, int id, uint32_t ver)
{
	flowi_bound *h = n->heap, b = { level_Bps, id, ver };
	int i = n->nheap++;
	assert(n->nheap <= n->capheap);
	while (i > 0) {
		int p = (i - 1) / 4;
		if (h[p].level_Bps <= level_Bps)
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = b;
}

/* Index of the lowest of h[c..end-1]; selected by arithmetic on the
 * comparisons, since which child is lowest is unpredictable. */
static inline int plan_min_child(const flowi_bound *h, int c, int end)
{
	if (end - c == 4) {
		int a = c + (h[c + 1].level_Bps < h[c].level_Bps);
		int b = c + 2 + (h[c + 3].level_Bps < h[c + 2].level_Bps);
		return h[b].level_Bps < h[a].level_Bps ? b : a;
	}
	int best = c;
	for (int k = c + 1; k < end; k++)
		best = h[k].level_Bps < h[best].level_Bps ? k : best;
	return best;
}

static flowi_bound plan_pop(flownet *n)
{
	flowi_bound *h = n->heap, top = h[0], last = h[--n->nheap];
	int i = 0, m = n->nheap;
	for (;;) {
		int c = 4 * i + 1;
		if (c >= m)
			break;
		int best = plan_min_child(h, c, c + 4 < m ? c + 4 : m);
		if (last.level_Bps <= h[best].level_Bps)
			break;
		h[i] = h[best];
		i = best;
	}
	if (m > 0)
		h[i] = last;
	return top;
}

static void plan_visit_link(flownet *n, int l)
{
	if (n->links[l].mark != n->epoch) {
		n->links[l].mark = n->epoch;
		n->comp_links[n->ncomp_links++] = l;
	}
}

static void plan_new_epoch(flownet *n)
{
	if (++n->epoch != 0)
		return;
	/* Wrapped after 2^32 re-plans: old marks could now look current. */
	for (int l = 0; l < n->nlinks; l++)
		n->links[l].mark = 0;
	for (int f = 0; f < n->nflows; f++)
		n->flows[f].mark = 0;
	n->epoch = 1;
}

/* Can link k ever limit its flows? Not when every flow on it has a rate cap
 * and all of them at their caps still fit: then its flows' rates are set
 * elsewhere, and it neither couples them nor needs a place in the fill. */
static bool plan_can_bind(const flowi_link *k)
{
	return k->nuncapped > 0 || k->cap_load_Bps > k->capacity_Bps;
}

/* Breadth-first from the dirty links over link -> flows -> links: fills
 * comp_links and comp_flows. A link that cannot bind does not couple its
 * flows, so the search goes through it only if it is dirty (a flow joined
 * or left it). 0 or SIM_ENOMEM. */
static int plan_collect(flownet *n)
{
	if (RESERVE(n->comp_links, n->capcomp_links, n->nlinks) ||
	    RESERVE(n->comp_flows, n->capcomp_flows, n->nflows))
		return SIM_ENOMEM;
	plan_new_epoch(n);
	n->ncomp_links = n->ncomp_flows = 0;
	for (int i = 0; i < n->ndirty; i++)
		plan_visit_link(n, n->dirty[i]);
	for (int i = 0; i < n->ncomp_links; i++) {
		const flowi_link *k = &n->links[n->comp_links[i]];
		if (!k->dirty && !plan_can_bind(k))
			continue;
		for (int j = 0; j < k->nflows; j++) {
			flowi_rec *f = &n->flows[k->flows[j].flow];
			if (f->mark == n->epoch)
				continue;
			f->mark = n->epoch;
			n->comp_flows[n->ncomp_flows++] = k->flows[j].flow;
			const flowi_hop *hops = flowi_hops(n, f);
			for (int h = 0; h < f->nhops; h++)
				plan_visit_link(n, hops[h].link);
		}
	}
	for (int i = 0; i < n->ndirty; i++)
		n->links[n->dirty[i]].dirty = false;
	n->ndirty = 0;
	return SIM_OK;
}

/* Fixes flow f's rate at rate_Bps and takes it out of its links' open
 * weight. Their heap entries become stale and are refreshed when popped. */
static void plan_freeze(flownet *n, flowi_rec *f, double rate_Bps)
{
	f->frozen = true;
	f->plan_rate_Bps = rate_Bps;
	const flowi_hop *hops = flowi_hops(n, f);
	for (int h = 0; h < f->nhops; h++) {
		flowi_link *k = &n->links[hops[h].link];
		double w = flowi_weight(n, f, hops[h].link);
		k->left_Bps -= rate_Bps * w;
		k->open_w -= w;
		k->nopen--;
		k->ver++;
	}
}

static double plan_link_level(const flowi_link *k)
{
	return (k->left_Bps > 0 ? k->left_Bps : 0) / k->open_w;
}

static void plan_init(flownet *n)
{
	n->nheap = 0;
	for (int i = 0; i < n->ncomp_links; i++) {
		int l = n->comp_links[i];
		flowi_link *k = &n->links[l];
		k->saturated = false;
		k->left_Bps = k->capacity_Bps;
		k->nopen = k->nflows;
		k->open_w = k->weight;
		/* A link that cannot bind may carry flows outside the component:
		 * it must never freeze them, and it never would. */
		if (k->nopen > 0 && plan_can_bind(k))
			plan_push(n, plan_link_level(k), l, k->ver);
	}
	for (int i = 0; i < n->ncomp_flows; i++) {
		flowi_rec *f = &n->flows[n->comp_flows[i]];
		flowi_settle(n, f);
		f->frozen = false;
		if (f->cap_Bps > 0)
			plan_push(n, f->cap_Bps, -1 - n->comp_flows[i], 0);
	}
}

/* Progressive filling: all open flows rise together; the lowest bound (a link
 * whose capacity the open flows exhaust, or a flow's cap) freezes its flows
 * at that level. Levels only rise as flows freeze, so a popped entry whose
 * link changed since is re-pushed at its current, higher level. */
static void plan_fill(flownet *n)
{
	double floor_Bps = 0;
	while (n->nheap > 0) {
		flowi_bound b = plan_pop(n);
		if (b.id < 0) {
			flowi_rec *f = &n->flows[-1 - b.id];
			if (!f->frozen)
				plan_freeze(n, f, b.level_Bps);
			continue;
		}
		flowi_link *k = &n->links[b.id];
		if (k->saturated || k->nopen == 0)
			continue;
		if (b.ver != k->ver) {
			plan_push(n, plan_link_level(k), b.id, k->ver);
			continue;
		}
		double level = b.level_Bps > floor_Bps ? b.level_Bps : floor_Bps;
		floor_Bps = level;
		k->saturated = true;
		for (int j = 0; j < k->nflows; j++) {
			flowi_rec *f = &n->flows[k->flows[j].flow];
			if (!f->frozen)
				plan_freeze(n, f, level);
		}
	}
}

int flowi_replan(flownet *n)
{
	int rc = plan_collect(n);
	if (rc)
		return rc;
	/* A link has at most one entry in the heap (a stale one is replaced
	 * only when popped), a flow at most one for its cap. */
	if (n->ncomp_links > (1 << 30) - n->ncomp_flows ||
	    RESERVE(n->heap, n->capheap, n->ncomp_links + n->ncomp_flows))
		return SIM_ENOMEM;
	plan_init(n);
	plan_fill(n);
	n->replans++;
	for (int i = 0; i < n->ncomp_flows; i++) {
		int id = n->comp_flows[i];
		flowi_rec *f = &n->flows[id];
		assert(f->frozen && f->plan_rate_Bps > 0);
		if (f->scheduled && f->plan_rate_Bps == f->rate_Bps)
			continue;   /* its completion event still holds */
		f->rate_Bps = f->plan_rate_Bps;
		if ((rc = flowi_schedule_end(n, id)))
			return rc;
	}
	return SIM_OK;
}
