/* storage.c: data loading on the flow network. Each data-parallel replica's
 * first stage reads its share of the global batch from remote storage, the
 * node-local NVMe cache or host memory, and copies it to the GPU over PCIe;
 * the reads are flows, so they contend with gradient traffic on shared NICs. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flow.h"
#include "store.h"

/* Outstanding read requests per reader: a PyTorch DataLoader with a few
 * workers, each with a couple of samples in flight. UNVERIFIED default. */
#define STORE_READ_CONCURRENCY 8
/* Read latency of a local NVMe drive (4 KiB random read ~ 80-100 us on PCIe
 * Gen4 data-center drives). UNVERIFIED typical figure. */
#define STORE_NVME_LATENCY_S 100e-6

typedef struct batch {
	int step;                    /* step whose batch this is; -1 = empty slot */
	int pending;                 /* flows still running */
	bool started, ready;
	double t_start, t_ready;
	bool waiting;                /* a step waits for it */
	double t_wait;
	store_ready_fn fn;
	void *ctx;
	uint64_t arg;
} batch;

typedef struct reader {
	int gpu;
	int nlinks[2];               /* [0] cache hits (or all), [1] storage misses */
	int links[2][2 * CLUSTER_MAX_ROUTE];
	double bytes[2];
	double cap_Bps[2];
} reader;

struct store {
	const scenario *s;
	cluster *cl;
	sim *e;
	flownet *net;
	store_data_plan plan;
	int prefetch;
	double delay_s;              /* request latency not already on the route */
	int nreaders;
	reader *readers;
	int nring;
	batch *ring;
	bool reading;                /* a batch read is in flight */
	int err;
	store_data_stats stats;
	double read_s_sum;
};


/* plan_gpu_cp's placement: tp x cp GPUs per group, then PP and DP */
static int gpu_of_cp(const scenario *s, int t, int c, int p, int d)
{
	int tp = s->training.tp > 0 ? s->training.tp : 1;
	int pp = s->training.pp > 0 ? s->training.pp : 1;
	int inner = t + tp * c, group = tp * scn_cp(s);
	if (s->training.placement == PLACE_TP_DP_PP)
		return inner + group * (d + scn_dp(s) * p);
	return inner + group * (p + pp * d);
}

int store_gpu_of(const scenario *s, int t, int p, int d)
{
	return gpu_of_cp(s, t, 0, p, d);
}

int store_grad_gpu(const scenario *s, int p, int j)
{
	return gpu_of_cp(s, 0, j % scn_cp(s), p, j / scn_cp(s));
}

/* Per-node bandwidth from the node to storage for `streams` GPUs reading or
 * writing: the frontend NIC, or on shared NICs each GPU's own rail (at most
 * all the node's NICs), capped by the per-client limit. */
static double node_storage_Bps(const scn_cluster *c, int streams)
{
	double bw;
	if (c->storage.network == STORAGE_NET_FRONTEND && c->storage.frontend_Bps > 0) {
		bw = c->storage.frontend_Bps;
	} else {
		double eff = c->nic.efficiency > 0 ? c->nic.efficiency : 1.0;
		int nics = c->nic.count > 0 ? c->nic.count : 1;
		bw = (streams < nics ? streams : nics) * c->nic.speed_Bps * eff;
	}
	if (c->storage.per_client_Bps > 0 && c->storage.per_client_Bps < bw)
		bw = c->storage.per_client_Bps;
	return bw;
}

static double cache_hit_fraction(const scenario *s, int reader_nodes)
{
	const scn_cluster *c = &s->cluster;
	double pass = s->training.data.dataset_bytes;
	if (pass <= 0 && s->run.train_tokens > 0 && s->model.seq_len > 0)
		pass = s->run.train_tokens / s->model.seq_len * s->training.data.sample_bytes;
	if (!c->cache.present || c->cache.capacity_bytes <= 0 || pass <= 0 || reader_nodes <= 0)
		return 1.0;
	/* Each node caches the shard its readers see over one pass of the data. */
	double shard = pass / reader_nodes;
	return shard <= c->cache.capacity_bytes ? 1.0 : c->cache.capacity_bytes / shard;
}

int store_data_plan_get(const scenario *s, store_data_plan *p, char *err, size_t errlen)
{
	const scn_cluster *c = &s->cluster;
	const scn_data *d = &s->training.data;
	memset(p, 0, sizeof *p);
	p->source = d->source;
	if (d->source == DATA_LOCAL_CACHE && !c->cache.present) {
		snprintf(err, errlen, "training.data.source is local_cache but cluster.local_cache "
		         "is not given; add cluster.local_cache {bandwidth, capacity} or use storage");
		return -1;
	}
	if (d->source == DATA_LOCAL_CACHE && !d->cache_warm) {
		p->cold_cache = true;
		p->source = DATA_STORAGE;   /* first epoch: the cache fills from storage */
	}
	/* one reader per replica, and with context parallelism per CP rank too:
	 * Megatron loads a replica's samples on each CP rank's TP rank 0 and
	 * keeps that rank's part of each sequence (get_batch_on_this_cp_rank) */
	int dp = scn_dp_grad(s);
	p->readers = dp;
	p->bytes_per_step = (double)s->training.global_batch * d->sample_bytes * scn_cp(s);
	p->bytes_per_reader = p->bytes_per_step / dp;
	int gpn = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
	int last = -1;
	for (int r = 0; r < dp; r++) {   /* readers are in node order for both placements */
		int node = store_grad_gpu(s, 0, r) / gpn;
		if (node != last)
			p->reader_nodes++;
		last = node;
	}
	int per_node = (dp + p->reader_nodes - 1) / p->reader_nodes;
	double samples = (double)s->training.global_batch / scn_dp(s);
	p->rounds = (int)ceil(samples / STORE_READ_CONCURRENCY);
	if (p->rounds < 1)
		p->rounds = 1;
	double pcie = hw_pcie_Bps(c->gpu.pcie_gen) * dp;
	double bw;
	if (p->source == DATA_MEMORY) {
		bw = pcie;
		p->latency_s = 0;
		p->bottleneck = "PCIe host-to-device copies";
	} else if (p->source == DATA_LOCAL_CACHE) {
		double hit = cache_hit_fraction(s, p->reader_nodes);
		double nvme = c->cache.bandwidth_Bps * p->reader_nodes;
		double remote = fmin(c->storage.bandwidth_Bps,
		                     node_storage_Bps(c, per_node) * p->reader_nodes);
		/* hits and misses run in parallel: the slower share decides */
		double t_hit = hit / nvme, t_miss = hit < 1 ? (1 - hit) / remote : 0;
		bw = 1.0 / fmax(t_hit, t_miss);
		p->latency_s = p->rounds * (hit < 1 ? c->storage.latency_s : STORE_NVME_LATENCY_S);
		p->bottleneck = t_miss > t_hit ? "remote storage (cache too small for the data)"
		                               : "local NVMe cache bandwidth";
		if (pcie < bw) {
			bw = pcie;
			p->bottleneck = "PCIe host-to-device copies";
		}
	} else {
		double agg = c->storage.bandwidth_Bps;
		double nodes = node_storage_Bps(c, per_node) * p->reader_nodes;
		bw = agg;
		p->bottleneck = "storage aggregate bandwidth";
		if (nodes < bw) {
			bw = nodes;
			p->bottleneck = c->storage.per_client_Bps > 0 &&
			                c->storage.per_client_Bps <= node_storage_Bps(c, per_node)
			                ? "per-client storage limit"
			                : c->storage.network == STORAGE_NET_FRONTEND
			                ? "frontend NICs" : "training NICs";
		}
		if (pcie < bw) {
			bw = pcie;
			p->bottleneck = "PCIe host-to-device copies";
		}
		p->latency_s = p->rounds * c->storage.latency_s;
	}
	p->bandwidth_Bps = bw;
	double xfer = bw > 0 ? p->bytes_per_step / bw : 0;
	p->read_s = p->latency_s + xfer;
	if (p->latency_s > xfer)
		p->bottleneck = "request latency";
	return 0;
}

static bool route_has_kind(flownet *net, const int *l, int n, int kind)
{
	for (int i = 0; i < n; i++)
		if (flow_link_kind(net, l[i]) == kind)
			return true;
	return false;
}

/* Route from the data source to GPU g: storage or local (nvme or memory),
 * ending with the host-to-device copy over PCIe. Returns length or < 0. */
static int data_route(cluster *cl, int g, bool remote, bool nvme, int *links, int max)
{
	int tmp[CLUSTER_MAX_ROUTE], n = 0, m;
	if (remote) {
		n = cluster_route_storage(cl, g, false, links, CLUSTER_MAX_ROUTE);
		if (n < 0)
			return n;
		if (route_has_kind(cluster_net(cl), links, n, LINK_PCIE))
			return n;
		m = cluster_route_local(cl, g, true, false, tmp, CLUSTER_MAX_ROUTE);
	} else {
		m = cluster_route_local(cl, g, true, nvme, tmp, CLUSTER_MAX_ROUTE);
	}
	if (m < 0)
		return m;
	return cluster_route_append(links, n, tmp, m, max);
}

static double route_latency(flownet *net, const int *l, int n)
{
	double t = 0;
	for (int i = 0; i < n; i++)
		t += flow_link_latency(net, l[i]);
	return t;
}

static int readers_build(store *st, char *err, size_t errlen)
{
	const scenario *s = st->s;
	st->nreaders = st->plan.readers;
	st->readers = calloc((size_t)st->nreaders, sizeof *st->readers);
	if (!st->readers)
		return -1;
	double hit = st->plan.source == DATA_LOCAL_CACHE
	             ? cache_hit_fraction(s, st->plan.reader_nodes) : 1.0;
	double lat_on_route = 0;
	for (int r = 0; r < st->nreaders; r++) {
		reader *rd = &st->readers[r];
		rd->gpu = store_grad_gpu(s, 0, r);
		bool remote = st->plan.source == DATA_STORAGE;
		bool nvme = st->plan.source == DATA_LOCAL_CACHE;
		int n = data_route(st->cl, rd->gpu, remote, nvme, rd->links[0], 2 * CLUSTER_MAX_ROUTE);
		if (n < 0) {
			snprintf(err, errlen, "no route for data reads to GPU %d (error %d)", rd->gpu, n);
			return -1;
		}
		rd->nlinks[0] = n;
		rd->bytes[0] = st->plan.bytes_per_reader * hit;
		/* the per-client limit is a link of the node's storage route (topo.c),
		 * shared max-min fairly by the node's readers: no per-flow cap */
		rd->cap_Bps[0] = 0;
		if (r == 0)
			lat_on_route = route_latency(st->net, rd->links[0], n);
		if (hit < 1) {   /* misses of a cache too small for the data set */
			n = data_route(st->cl, rd->gpu, true, false, rd->links[1], 2 * CLUSTER_MAX_ROUTE);
			if (n < 0) {
				snprintf(err, errlen, "no storage route to GPU %d (error %d)", rd->gpu, n);
				return -1;
			}
			rd->nlinks[1] = n;
			rd->bytes[1] = st->plan.bytes_per_reader * (1 - hit);
			rd->cap_Bps[1] = 0;
		}
	}
	/* The per-request latency is paid per round of requests; whatever the
	 * route's links already charge is not charged twice. */
	st->delay_s = fmax(0.0, st->plan.latency_s - lat_on_route);
	return 0;
}

store *store_new(const scenario *s, cluster *cl, sim *e, char *err, size_t errlen)
{
	store *st = calloc(1, sizeof *st);
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	st->s = s;
	st->cl = cl;
	st->e = e;
	st->net = cluster_net(cl);
	if (store_data_plan_get(s, &st->plan, err, errlen) < 0)
		goto out_free;
	st->prefetch = s->training.data.prefetch > 0 ? s->training.data.prefetch : 0;
	st->nring = st->prefetch + 2;
	st->ring = calloc((size_t)st->nring, sizeof *st->ring);
	if (!st->ring) {
		snprintf(err, errlen, "out of memory");
		goto out_free;
	}
	for (int i = 0; i < st->nring; i++)
		st->ring[i].step = -1;
	if (st->plan.bytes_per_step > 0 && readers_build(st, err, errlen) < 0)
		goto out_free;
	return st;
out_free:
	store_free(st);
	return NULL;
}

void store_free(store *st)
{
	if (!st)
		return;
	free(st->readers);
	free(st->ring);
	free(st);
}

static batch *slot(store *st, int step)
{
	return &st->ring[step % st->nring];
}

static int begin_read(store *st, int step);

static void batch_ready(store *st, batch *b)
{
	b->ready = true;
	b->t_ready = sim_now(st->e);
	st->reading = false;
	st->stats.batches_read++;
	st->read_s_sum += b->t_ready - b->t_start;
	if (b->waiting) {
		b->waiting = false;
		st->stats.stall_s_total += b->t_ready - b->t_wait;
		b->fn(st->e, b->ctx, b->arg);
	}
	batch *n = slot(st, b->step + 1);
	if (n->step == b->step + 1 && !n->started && begin_read(st, n->step) < 0)
		st->err = -1;
}

static void on_flow_done(sim *e, void *ctx, uint64_t arg)
{
	store *st = ctx;
	batch *b = slot(st, (int)arg);
	assert(b->step == (int)arg && b->pending > 0);
	if (--b->pending == 0)
		batch_ready(st, b);
}

static void start_flows(sim *e, void *ctx, uint64_t arg)
{
	store *st = ctx;
	batch *b = slot(st, (int)arg);
	for (int r = 0; r < st->nreaders; r++) {
		reader *rd = &st->readers[r];
		for (int k = 0; k < 2; k++) {
			if (rd->bytes[k] <= 0)
				continue;
			int id = flow_start(st->net, rd->links[k], rd->nlinks[k], rd->bytes[k],
			                    rd->cap_Bps[k], 1.0, on_flow_done, st, arg);
			if (id < 0) {
				st->err = -1;   /* cannot start: count it as arrived */
				continue;
			}
			b->pending++;
			st->stats.bytes_read += rd->bytes[k];
		}
	}
	if (b->pending == 0)
		batch_ready(st, b);
}

/* One batch is read at a time (its requests in parallel): the next read
 * starts when the previous one ends, so a read's time is its own. */
static int begin_read(store *st, int step)
{
	batch *b = slot(st, step);
	b->started = true;
	b->t_start = sim_now(st->e);
	st->reading = true;
	if (st->delay_s > 0)
		return sim_after(st->e, st->delay_s, SIM_PRIO_NORMAL, start_flows, st,
		                 (uint64_t)step) == 0 ? 0 : -1;
	start_flows(st->e, st, (uint64_t)step);
	return 0;
}

/* Doubles the ring, each batch moving to its step's new slot. The live
 * batches span fewer steps than the old ring has slots, so they land on
 * distinct slots; where an old, consumed batch collides, the newer one stays.
 * Returns 0, or -1 out of memory. */
static int ring_grow(store *st)
{
	int n = 2 * st->nring;
	batch *ring = malloc(sizeof *ring * (size_t)n);
	if (!ring)
		return -1;
	for (int i = 0; i < n; i++)
		ring[i].step = -1;
	for (int i = 0; i < st->nring; i++) {
		const batch *b = &st->ring[i];
		if (b->step >= 0 && b->step > ring[b->step % n].step)
			ring[b->step % n] = *b;
	}
	free(st->ring);
	st->ring = ring;
	st->nring = n;
	return 0;
}

/* The step does not wait for its batch in the simulation (docs/step.md), so
 * when storage is slower than the step the issued reads queue up behind the
 * one in flight: the ring grows to hold them rather than overtake a read. */
static int issue_read(store *st, int step)
{
	while (slot(st, step)->step >= 0 && !slot(st, step)->ready)
		if (ring_grow(st) < 0)
			return -1;
	batch *b = slot(st, step);
	memset(b, 0, sizeof *b);
	b->step = step;
	if (st->plan.bytes_per_step <= 0 || st->nreaders == 0) {
		b->ready = b->started = true;
		b->t_ready = sim_now(st->e);
		return 0;
	}
	return st->reading ? 0 : begin_read(st, step);
}

static void fire_now(sim *e, void *ctx, uint64_t arg)
{
	batch *b = slot(ctx, (int)arg);
	b->fn(e, b->ctx, b->arg);
}

int store_data_issue(store *st, int step, store_ready_fn ready, void *ctx, uint64_t arg)
{
	st->stats.steps++;
	int ahead = step + st->prefetch;
	if (slot(st, ahead)->step != ahead && issue_read(st, ahead) < 0)
		return -1;
	batch *b = slot(st, step);
	if (b->step != step) {   /* one of the batches in the buffer at the start */
		assert(step < st->prefetch);
		memset(b, 0, sizeof *b);
		b->step = step;
		b->ready = b->started = true;
	}
	b->fn = ready;
	b->ctx = ctx;
	b->arg = arg;
	if (b->ready)
		return sim_after(st->e, 0, SIM_PRIO_NORMAL, fire_now, st, (uint64_t)step) == 0 ? 0 : -1;
	b->waiting = true;
	b->t_wait = sim_now(st->e);
	return st->err;
}

void store_data_stats_get(const store *st, store_data_stats *out)
{
	*out = st->stats;
	out->read_s_mean = st->stats.batches_read > 0 ? st->read_s_sum / st->stats.batches_read
	                                               : st->plan.read_s;
}

double store_data_steady_stall(const store *st, double period_s)
{
	if (st->plan.bytes_per_step <= 0)
		return 0;
	store_data_stats d;
	store_data_stats_get(st, &d);
	/* prefetch 0: the step waits for the whole read. Otherwise reads run one
	 * after the other ahead of the steps: they hide as long as one read fits
	 * in a step, and the steps slow to the read time when it does not. */
	if (st->prefetch == 0)
		return d.read_s_mean;
	return fmax(0.0, d.read_s_mean - period_s);
}
