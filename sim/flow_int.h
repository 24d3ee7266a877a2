/* flow_int.h: what flow.c (links, flow records, events) and flow_plan.c (the
 * max-min re-plan of one connected component) share. Not for other modules. */
#ifndef TRAINSIM_FLOW_INT_H
#define TRAINSIM_FLOW_INT_H

#include "flow.h"

/* One hop of a flow's route, and the flow's index in that link's list. */
typedef struct {
	int link;
	int pos;
} flowi_hop;

/* An entry of a link's list of transmitting flows: which flow, which hop. */
typedef struct {
	int flow;
	int hop;
} flowi_ref;

typedef struct {
	double capacity_Bps, latency_s;
	int fanin, kind;
	double bytes, busy_s, busy_since_s;
	flowi_ref *flows;       /* transmitting flows that cross this link */
	int nflows, capflows;
	double weight;          /* sum of their weights on it */
	double cap_load_Bps;    /* sum of cap * weight over the capped ones */
	int nuncapped;          /* flows on it without a rate cap */
	/* Re-plan scratch. */
	uint32_t mark;          /* epoch of the re-plan that last reached it */
	bool dirty, saturated;
	int nopen;              /* hops of unfrozen flows on it */
	uint32_t ver;           /* bumps on each change: older heap entries are stale */
	double left_Bps, open_w; /* capacity left and weight of unfrozen flows */
} flowi_link;

enum { FLOWI_FREE, FLOWI_SENDING, FLOWI_LANDING };

typedef struct {
	double bytes, remaining, rate_Bps, cap_Bps, mult, last_s, latency_s;
	double scale;           /* bytes per byte of link time: its noise factor
	                           (1 without noise); remaining, rates and the cap
	                           are in link time, bytes in real bytes */
	double plan_rate_Bps;   /* the rate the re-plan in progress gives it */
	flow_done_fn done;
	void *ctx;
	uint64_t arg;
	uint32_t hops;          /* offset of the route in the hop pool */
	int nhops;
	uint32_t version;       /* bumps when the completion event is replaced */
	uint32_t mark;          /* epoch of the re-plan that last reached it */
	int state;
	bool frozen, scheduled;
	bool at_send;           /* done() at the send end (flow_start_sent) */
	int next_free;
} flowi_rec;

/* Flows whose last bytes go out at one instant, scheduled one after another
 * with nothing else scheduled in between, share one engine event: the batch
 * holds them, in the order they were scheduled, as a list of (flow, version)
 * entries (a flow rescheduled since is skipped by its version). Running the
 * batch runs them in the order their own events would have run. */
typedef struct {
	int flow;
	uint32_t version;
	int next;
} flowi_end;

typedef struct {
	double t;
	int head, tail;         /* entries, -1 = none; next_free when free */
} flowi_batch;

/* Progressive-filling heap entry: a link (id >= 0, with its version) or a
 * flow's rate cap (id = -1 - flow). */
typedef struct {
	double level_Bps;
	int id;
	uint32_t ver;
} flowi_bound;

struct flownet {
	sim *s;
	flowi_link *links;
	int nlinks, caplinks;
	flowi_rec *flows;
	int nflows, capflows, free_flow, nactive;
	flowi_hop *hop_pool;
	uint32_t nhop_pool, caphop_pool;
	int64_t hop_free[32];   /* free lists of route blocks, by log2 size */
	/* Re-plan state. */
	bool replan_pending;
	uint32_t epoch;
	int *dirty, ndirty, capdirty;           /* links changed since the last re-plan */
	int *comp_links, ncomp_links, capcomp_links;
	int *comp_flows, ncomp_flows, capcomp_flows;
	flowi_bound *heap;
	int nheap, capheap;
	/* Completion batches (flowi_end, flowi_batch): pools with free lists. */
	flowi_end *ends;
	int nends, capends, free_end;
	flowi_batch *batches;
	int nbatches, capbatches, free_batch;
	int open_batch;         /* batch the next end may join, -1 = none */
	uint64_t open_seq;      /* sim_scheduled() right after it last grew */
	/* Per-flow bandwidth noise (flow_set_noise): lognormal parameters. */
	gsl_rng *noise_rng;
	double noise_mu, noise_sigma;
	/* Totals. */
	double bytes_started, bytes_delivered;
	uint64_t replans, started;
};

/* Grows *arr (of elements of `size` bytes, capacity *cap) to hold `need`;
 * 0 or SIM_ENOMEM. */
int flowi_reserve(void **arr, int *cap, int need, size_t size);

/* Weight of flow f on link l: the siblings it stands for that share l. */
static inline double flowi_weight(const flownet *n, const flowi_rec *f, int l)
{
	double fanin = (double)n->links[l].fanin;
	return f->mult < fanin ? f->mult : fanin;
}

static inline flowi_hop *flowi_hops(const flownet *n, const flowi_rec *f)
{
	return n->hop_pool + f->hops;
}

/* Brings f's remaining bytes and its links' byte counts up to sim_now. */
void flowi_settle(flownet *n, flowi_rec *f);

/* Replaces flow id's completion event by one at now + remaining / rate (in
 * the open batch when it is at that instant and nothing was scheduled since
 * it grew). flow.c. Returns 0 or SIM_ENOMEM. */
int flowi_schedule_end(flownet *n, int id);

/* Re-plans the rates of every flow connected (through shared links,
 * transitively) to the dirty links, and reschedules the completions whose
 * rate changed. flow_plan.c. Returns 0 or SIM_ENOMEM. */
int flowi_replan(flownet *n);

#endif
