/* ckpt.c: checkpoint writes as flows from the writing GPUs through their nodes
 * to storage, on a fresh engine: synchronous (training waits for the last
 * byte) or asynchronous (a blocking GPU->host snapshot over PCIe, then
 * background writes that still contend for NICs and storage). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "flow.h"
#include "store.h"
#include "units.h"
#include "workload.h"

typedef struct writer {
	int gpu;
	double bytes;
	int nsnap, nwrite;           /* async: snapshot route, background route */
	int snap[CLUSTER_MAX_ROUTE];
	int write[2 * CLUSTER_MAX_ROUTE];
} writer;

typedef struct ckrun {
	const scenario *s;
	sim *e;
	flownet *net;
	cluster *cl;
	coll_ctx *cc;
	bool async;
	bool with_dp;
	int nw;
	writer *w;
	double delay_s;              /* storage request latency before the first byte */
	int snaps_left, writes_left, dp_left;
	double t_snap, t_write, t_dp0, t_dp;
	int err;
} ckrun;

double store_checkpoint_bytes(const scenario *s)
{
	const scn_checkpoint *c = &s->training.checkpoint;
	if (c->bytes_override > 0)
		return c->bytes_override;
	return wl_checkpoint_bytes(s, c->content == CKPT_WEIGHTS ? CKPT_WEIGHTS : CKPT_FULL);
}

/* Who writes: every GPU its shard when the content is sharded or the
 * optimizer state is already sharded (ZeRO >= 1), else the tp * pp GPUs of
 * data-parallel replica 0 (Megatron without the distributed optimizer). */
static bool all_write(const scenario *s)
{
	const scn_checkpoint *c = &s->training.checkpoint;
	return c->content == CKPT_SHARDED || (c->content == CKPT_FULL && s->training.zero >= 1);
}

static int route_strip_pcie(flownet *net, int *l, int n)
{
	int m = 0;
	for (int i = 0; i < n; i++)
		if (flow_link_kind(net, l[i]) != LINK_PCIE)
			l[m++] = l[i];
	return m;
}

static int writers_build(ckrun *k, double bytes, char *err, size_t errlen)
{
	const scenario *s = k->s;
	int tp = s->training.tp > 0 ? s->training.tp : 1;
	int pp = s->training.pp > 0 ? s->training.pp : 1;
	bool all = all_write(s);
	k->nw = all ? scn_gpus(s) : tp * pp;
	k->w = calloc((size_t)k->nw, sizeof *k->w);
	if (!k->w) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < k->nw; i++) {
		writer *w = &k->w[i];
		w->gpu = all ? i : store_gpu_of(s, i % tp, i / tp, 0);
		w->bytes = bytes / k->nw;
		int tmp[CLUSTER_MAX_ROUTE];
		int ns = cluster_route_local(k->cl, w->gpu, false, false, w->snap, CLUSTER_MAX_ROUTE);
		int nt = cluster_route_storage(k->cl, w->gpu, true, tmp, CLUSTER_MAX_ROUTE);
		if (ns < 0 || nt < 0) {
			snprintf(err, errlen, "no route from GPU %d to storage (error %d)", w->gpu,
			         ns < 0 ? ns : nt);
			return -1;
		}
		w->nsnap = ns;
		if (k->async) {   /* background write leaves from host memory */
			memcpy(w->write, tmp, sizeof(int) * (size_t)nt);
			w->nwrite = route_strip_pcie(k->net, w->write, nt);
		} else {          /* GPU -> host -> storage, streamed */
			memcpy(w->write, w->snap, sizeof(int) * (size_t)ns);
			w->nwrite = cluster_route_append(w->write, ns, tmp, nt, 2 * CLUSTER_MAX_ROUTE);
		}
	}
	return 0;
}

static void on_write_done(sim *e, void *ctx, uint64_t arg)
{
	ckrun *k = ctx;
	if (--k->writes_left == 0)
		k->t_write = sim_now(e);
}

static void start_write(ckrun *k, int i)
{
	writer *w = &k->w[i];
	/* no per-flow cap: the per-client limit is a link of the node's storage
	 * route (topo.c), shared by the node's writers */
	if (flow_start(k->net, w->write, w->nwrite, w->bytes, 0, 1.0, on_write_done, k,
	               (uint64_t)i) < 0) {
		k->err = -1;
		on_write_done(k->e, k, (uint64_t)i);
	}
}

static void on_dp_done(sim *e, void *ctx, uint64_t arg)
{
	ckrun *k = ctx;
	if (--k->dp_left == 0)
		k->t_dp = sim_now(e);
}

/* One step's DP gradient all-reduce: per pipeline stage, the replicas of TP
 * rank 0, standing for the tp sibling groups on parallel rails. */
static int dp_start(ckrun *k)
{
	const scenario *s = k->s;
	int tp = s->training.tp > 0 ? s->training.tp : 1;
	int pp = s->training.pp > 0 ? s->training.pp : 1;
	int dp = scn_dp_grad(s);   /* every GPU that holds the same weights */
	if (dp < 2)
		return 0;
	int *ranks = malloc(sizeof(int) * (size_t)dp);
	if (!ranks)
		return -1;
	static const coll_algo algo[] = {
		[GRAD_ALGO_AUTO] = ALGO_AUTO, [GRAD_ALGO_RING] = ALGO_RING,
		[GRAD_ALGO_TREE] = ALGO_TREE, [GRAD_ALGO_HIERARCHICAL] = ALGO_HIERARCHICAL,
		[GRAD_ALGO_PS] = ALGO_PS, [GRAD_ALGO_NVLS] = ALGO_NVLS,
		[GRAD_ALGO_COLLNET] = ALGO_COLLNET,
	};
	double grad = wl_params(&s->model) / (tp * pp) *
	              hw_precision_bytes(s->training.grad_reduce.dtype);
	k->t_dp0 = sim_now(k->e);
	int rc = 0;
	for (int p = 0; p < pp && rc == 0; p++) {
		for (int d = 0; d < dp; d++)
			ranks[d] = store_grad_gpu(s, p, d);
		coll_req rq = { .op = COLL_ALL_REDUCE, .algo = algo[s->training.grad_reduce.algorithm],
		                .ranks = ranks, .n = dp, .bytes = grad, .mult = tp,
		                .ps_servers = s->training.grad_reduce.ps_servers };
		k->dp_left++;
		rc = coll_start(k->cc, &rq, on_dp_done, k, (uint64_t)p);
		if (rc < 0)
			k->dp_left--;
	}
	free(ranks);
	return rc;
}

static void on_snap_done(sim *e, void *ctx, uint64_t arg)
{
	ckrun *k = ctx;
	start_write(k, (int)arg);
	if (--k->snaps_left == 0) {
		k->t_snap = sim_now(e);
		if (k->with_dp && dp_start(k) < 0)
			k->err = -1;
	}
}

static void start_all(sim *e, void *ctx, uint64_t arg)
{
	ckrun *k = ctx;
	for (int i = 0; i < k->nw; i++) {
		writer *w = &k->w[i];
		if (!k->async) {
			start_write(k, i);
		} else if (flow_start(k->net, w->snap, w->nsnap, w->bytes, 0, 1.0, on_snap_done, k,
		                      (uint64_t)i) < 0) {
			k->err = -1;
			on_snap_done(e, k, (uint64_t)i);
		}
	}
}

static int ckrun_open(ckrun *k, const scenario *s, char *err, size_t errlen)
{
	memset(k, 0, sizeof *k);
	k->s = s;
	k->e = sim_new(s->run.seed, s->run.max_events);
	k->net = k->e ? flow_new(k->e) : NULL;
	if (!k->net) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	k->cl = cluster_build(&s->cluster, k->net, err, errlen);
	if (!k->cl)
		return -1;
	k->cc = coll_ctx_new(k->cl, k->e);
	if (!k->cc) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static void ckrun_close(ckrun *k)
{
	free(k->w);
	if (k->cc)
		coll_ctx_free(k->cc);
	if (k->cl)
		cluster_free(k->cl);
	if (k->net)
		flow_free(k->net);
	if (k->e)
		sim_free(k->e);
}

/* What one GPU reads back after a failure: what it holds of the checkpoint,
 * whoever wrote it: its weights and optimizer state as the memory model
 * counts them (tp x pp slices, experts over ep, ZeRO's sharding, LoRA's
 * frozen base and its adapters' state), of the most loaded stage; so every
 * replica reads its weights again. A checkpoint of given bytes
 * (checkpoint.bytes) scales them alike. */
static double load_bytes_per_gpu(const scenario *s, double bytes)
{
	bool weights_only = s->training.checkpoint.content == CKPT_WEIGHTS;
	bool lora = s->training.peft == PEFT_LORA;
	/* the memory model's optimizer line holds what a checkpoint drops (fp32
	 * main gradients): its state is counted at the checkpoint's bytes per
	 * parameter (wl_checkpoint_bytes over the weights' share) */
	double w, g, o;
	wl_state_bytes(s, &w, &g, &o);
	double ckpt_o = 0;
	if (!weights_only && w > 0) {
		double full = wl_checkpoint_bytes(s, CKPT_FULL), wt = wl_checkpoint_bytes(s, CKPT_WEIGHTS);
		ckpt_o = wt > 0 ? (full - wt) / wt * w : 0;   /* bytes a parameter */
	}
	double held = 0;   /* the stage holding the most */
	int pp = s->training.pp > 1 ? s->training.pp : 1;
	for (int st = 0; st < pp; st++) {
		wl_memory m;
		wl_memory_stage(s, st, &m);
		double opt = weights_only ? 0 : o > 0 && ckpt_o > 0 ? m.optimizer * ckpt_o / o
		                                                     : m.optimizer;
		held = fmax(held, m.weights + opt);
	}
	double model = wl_checkpoint_bytes(s, weights_only ? CKPT_WEIGHTS : CKPT_FULL);
	/* checkpoint.bytes scales what a GPU holds alike (not LoRA's frozen base,
	 * which its adapters' checkpoint does not hold) */
	return s->training.checkpoint.bytes_override > 0 && model > 0 && !lora
	       ? held * bytes / model : held;
}

/* Reading the checkpoint back after a failure, on a fresh cluster: every
 * GPU what it holds (load_bytes_per_gpu) from storage to its memory
 * (storage -> node -> host -> GPU), after one request latency. */
static double load_time(const scenario *s, double bytes, char *err, size_t errlen)
{
	ckrun k;
	double t = -1;
	if (ckrun_open(&k, s, err, errlen) < 0)
		goto out;
	int gpus = scn_gpus(s);
	double each = load_bytes_per_gpu(s, bytes), on_route = 0;
	k.writes_left = gpus;
	for (int g = 0; g < gpus; g++) {
		int l[CLUSTER_MAX_ROUTE];
		int nl = cluster_route_storage(k.cl, g, false, l, CLUSTER_MAX_ROUTE);
		if (nl < 0 || flow_start(k.net, l, nl, each, 0, 1.0, on_write_done, &k,
		                         (uint64_t)g) < 0) {
			snprintf(err, errlen, "no route from storage to GPU %d", g);
			goto out;
		}
		for (int i = 0; g == 0 && i < nl; i++)
			on_route += flow_link_latency(k.net, l[i]);
	}
	if (sim_run(k.e) != SIM_OK || k.err < 0) {
		snprintf(err, errlen, "checkpoint reload simulation stopped early");
		goto out;
	}
	/* one request latency, less what the route's links already charged (as
	 * the writes count it) */
	t = k.t_write + fmax(0.0, s->cluster.storage.latency_s - on_route);
out:
	ckrun_close(&k);
	return t;
}

/* ------------------------------------------------ node-local checkpoints */

/* What one GPU writes to a local checkpoint: what it holds (the reload's
 * bytes), but under LoRA only its share of the adapters' state, the frozen
 * base being on storage already. */
static double local_bytes_per_gpu(const scenario *s)
{
	if (s->training.peft == PEFT_LORA) {
		int tp = s->training.tp > 0 ? s->training.tp : 1;
		int pp = s->training.pp > 0 ? s->training.pp : 1;
		return store_checkpoint_bytes(s) / ((double)tp * pp);
	}
	return load_bytes_per_gpu(s, store_checkpoint_bytes(s));
}

/* Nodes holding each node's local checkpoint: its own and copies - 1 peers,
 * at most every node. */
static int local_copies_of(const scenario *s)
{
	int c = s->training.checkpoint.local_copies;
	return c < 1 ? 1 : c > s->cluster.nodes ? s->cluster.nodes : c;
}

/* Node n's i-th peer for the copies of its local checkpoint: the next nodes
 * in order (Megatron's replication with a jump of one node). */
static int local_peer(const scenario *s, int node, int i)
{
	return (node + i) % s->cluster.nodes;
}

/* The network part of the route from GPU a to GPU b (PCIe links dropped:
 * the copy leaves and enters host memory). */
static int net_route(ckrun *k, int a, int b, int *l, int max)
{
	int n = cluster_route(k->cl, a, b, -1, l, max);
	return n < 0 ? n : route_strip_pcie(k->net, l, n);
}

/* Writers of a local checkpoint: every GPU writes what it holds to its own
 * node's drive, and sends copies - 1 copies to its peers' drives over the
 * training network; writer g * copies + i is GPU g's copy i. */
static int local_writers_build(ckrun *k, double each, int copies, char *err, size_t errlen)
{
	const scenario *s = k->s;
	int gpus = scn_gpus(s), gpn = s->cluster.gpus_per_node;
	k->nw = gpus * copies;
	k->w = calloc((size_t)k->nw, sizeof *k->w);
	if (!k->w) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int g = 0; g < gpus; g++) {
		int up[CLUSTER_MAX_ROUTE], drive[CLUSTER_MAX_ROUTE];
		int nu = cluster_route_local(k->cl, g, false, false, up, CLUSTER_MAX_ROUTE);
		for (int i = 0; i < copies; i++) {
			writer *w = &k->w[g * copies + i];
			int peer = local_peer(s, g / gpn, i), dst = peer * gpn + g % gpn;
			/* GPU -> host -> drive of the destination node */
			int nd = cluster_route_local(k->cl, dst, false, true, drive, CLUSTER_MAX_ROUTE);
			int nn = i > 0 ? net_route(k, g, dst, w->write, CLUSTER_MAX_ROUTE) : 0;
			if (nu < 0 || nd < 0 || nn < 0) {
				snprintf(err, errlen, "no route from GPU %d to the drive of node %d", g, peer);
				return -1;
			}
			w->gpu = g;
			w->bytes = each;
			w->nwrite = cluster_route_append(w->write, nn, drive + 1, nd - 1,
			                                 2 * CLUSTER_MAX_ROUTE);
			if (i == 0) {
				memcpy(w->snap, up, sizeof(int) * (size_t)nu);
				w->nsnap = nu;
			}
			if (!k->async) {   /* streamed from the GPU: its PCIe link first */
				int tmp[2 * CLUSTER_MAX_ROUTE];
				memcpy(tmp, up, sizeof(int) * (size_t)nu);
				w->nwrite = cluster_route_append(tmp, nu, w->write, w->nwrite,
				                                 2 * CLUSTER_MAX_ROUTE);
				memcpy(w->write, tmp, sizeof(int) * (size_t)w->nwrite);
			}
		}
	}
	return 0;
}

static void on_local_snap_done(sim *e, void *ctx, uint64_t arg)
{
	ckrun *k = ctx;
	int copies = k->nw / scn_gpus(k->s);
	for (int i = 0; i < copies; i++)
		start_write(k, (int)arg + i);
	if (--k->snaps_left == 0)
		k->t_snap = sim_now(e);
}

static void start_local(sim *e, void *ctx, uint64_t arg)
{
	ckrun *k = ctx;
	int copies = k->nw / scn_gpus(k->s);
	for (int i = 0; i < k->nw; i++) {
		writer *w = &k->w[i];
		if (!k->async)
			start_write(k, i);
		else if (i % copies == 0 &&
		         flow_start(k->net, w->snap, w->nsnap, w->bytes, 0, 1.0, on_local_snap_done, k,
		                    (uint64_t)i) < 0) {
			k->err = -1;
			on_local_snap_done(e, k, (uint64_t)i);
		}
	}
}

/* Restoring from the local checkpoint after a failure: the replaced node's
 * GPUs read their state from the first peer's drive over the network, every
 * other GPU from its own node's drive. */
static double local_load_time(const scenario *s, double each, char *err, size_t errlen)
{
	ckrun k;
	double t = -1;
	if (ckrun_open(&k, s, err, errlen) < 0)
		goto out;
	int gpus = scn_gpus(s), gpn = s->cluster.gpus_per_node;
	k.writes_left = gpus;
	for (int g = 0; g < gpus; g++) {
		int l[2 * CLUSTER_MAX_ROUTE], d[CLUSTER_MAX_ROUTE];
		int src = g / gpn == 0 ? local_peer(s, 0, 1) * gpn + g : g;
		int nl = cluster_route_local(k.cl, src, true, true, d, CLUSTER_MAX_ROUTE);
		if (nl > 0 && src != g) {   /* that drive, then the network to GPU g */
			int n = net_route(&k, src, g, l + 1, CLUSTER_MAX_ROUTE);
			int down = cluster_route_local(k.cl, g, true, false, l + 1 + (n > 0 ? n : 0),
			                               CLUSTER_MAX_ROUTE);
			l[0] = d[0];
			nl = n < 0 || down < 0 ? -1 : 1 + n + down;
		} else if (nl > 0) {
			memcpy(l, d, sizeof(int) * (size_t)nl);
		}
		if (nl < 0 || flow_start(k.net, l, nl, each, 0, 1.0, on_write_done, &k,
		                         (uint64_t)g) < 0) {
			snprintf(err, errlen, "no route from a local drive to GPU %d", g);
			goto out;
		}
	}
	if (sim_run(k.e) != SIM_OK || k.err < 0) {
		snprintf(err, errlen, "local checkpoint restore simulation stopped early");
		goto out;
	}
	t = k.t_write;
out:
	ckrun_close(&k);
	return t;
}

static const char *local_bottleneck(const scenario *s, double node_bytes, int copies)
{
	const scn_cluster *c = &s->cluster;
	double t_drive = node_bytes * copies / c->cache.bandwidth_Bps;
	double t_net = copies > 1 ? node_bytes * (copies - 1) / (c->nic.count * c->nic.speed_Bps) : 0;
	return t_drive >= t_net ? "node-local drive" : "training NICs (copies to peers)";
}

int store_local_checkpoint_cost(const scenario *s, store_ckpt_result *r, char *err,
                                size_t errlen)
{
	memset(r, 0, sizeof *r);
	const scn_checkpoint *c = &s->training.checkpoint;
	int copies = local_copies_of(s);
	double each = local_bytes_per_gpu(s);
	int gpus = scn_gpus(s), gpn = s->cluster.gpus_per_node;
	r->bytes = each * gpus * copies;
	r->writers = gpus;
	r->writer_nodes = s->cluster.nodes;
	r->node_bytes_max = each * gpn * copies;
	r->floor_s = r->node_bytes_max / s->cluster.cache.bandwidth_Bps;
	double cap = s->cluster.cache.capacity_bytes;
	if (cap > 0 && r->node_bytes_max > cap) {
		char a[32], b[32], cb[32];
		unit_fmt(a, sizeof a, r->node_bytes_max, UNIT_BYTES);
		unit_fmt(b, sizeof b, each, UNIT_BYTES);
		unit_fmt(cb, sizeof cb, cap, UNIT_BYTES);
		snprintf(err, errlen, "training.checkpoint.local_every: each node's drive must hold "
		         "%s of local checkpoint (%d cop%s of %d GPUs' %s each), more than "
		         "cluster.local_cache.capacity (%s); give fewer local_copies or a larger "
		         "capacity", a, copies, copies == 1 ? "y" : "ies", gpn, b, cb);
		return -1;
	}
	ckrun k;
	int rc = -1;
	if (ckrun_open(&k, s, err, errlen) < 0)
		goto out;
	k.async = c->mode == CKPT_ASYNC;
	if (k.async && s->cluster.host_memory_bytes > 0 &&
	    each * gpn > s->cluster.host_memory_bytes) {
		k.async = false;
		r->async_fallback = true;
	}
	if (local_writers_build(&k, each, copies, err, errlen) < 0)
		goto out;
	k.snaps_left = k.async ? gpus : 0;
	k.writes_left = k.nw;
	if (sim_after(k.e, 0, SIM_PRIO_NORMAL, start_local, &k, 0) < 0)
		goto out;
	if (sim_run(k.e) != SIM_OK || k.err < 0) {
		snprintf(err, errlen, "local checkpoint simulation stopped early (event limit or "
		         "flow error)");
		goto out;
	}
	double staging = k.async ? c->snapshot_overhead_s : 0;
	r->snapshot_s = k.async ? staging + k.t_snap : 0;
	r->write_s = staging + k.t_write;
	r->stall_s = k.async ? r->snapshot_s : r->write_s;
	r->bottleneck = local_bottleneck(s, each * gpn, copies);
	const scn_failures *fl = &s->training.failures;
	if (copies >= 2 && fl->reload && scn_failures_on(fl)) {
		r->load_s = local_load_time(s, each, err, errlen);
		if (r->load_s < 0)
			goto out;
	}
	rc = 0;
out:
	ckrun_close(&k);
	return rc;
}

/* The DP reduction alone on a fresh cluster, for comparison. */
static double dp_alone(const scenario *s, char *err, size_t errlen)
{
	ckrun k;
	double t = -1;
	if (ckrun_open(&k, s, err, errlen) == 0 && dp_start(&k) == 0 && sim_run(k.e) == SIM_OK)
		t = k.t_dp - k.t_dp0;
	ckrun_close(&k);
	return t;
}

static const char *write_bottleneck(const scenario *s, const store_ckpt_result *r)
{
	const scn_cluster *c = &s->cluster;
	double agg = scn_storage_write_Bps(&c->storage);
	double node_bw = c->storage.network == STORAGE_NET_FRONTEND && c->storage.frontend_Bps > 0
	                 ? c->storage.frontend_Bps
	                 : c->nic.count * c->nic.speed_Bps;
	if (c->storage.per_client_Bps > 0 && c->storage.per_client_Bps < node_bw)
		node_bw = c->storage.per_client_Bps;
	double t_agg = r->bytes / agg, t_node = r->node_bytes_max / node_bw;
	if (t_agg >= t_node)
		return "storage aggregate bandwidth";
	if (c->storage.per_client_Bps > 0 && node_bw == c->storage.per_client_Bps)
		return "per-client storage limit";
	return c->storage.network == STORAGE_NET_FRONTEND && c->storage.frontend_Bps > 0
	       ? "frontend NIC of the writing nodes" : "training NICs of the writing nodes";
}

int store_checkpoint_cost(const scenario *s, const store_ckpt_opts *o, store_ckpt_result *r,
                          char *err, size_t errlen)
{
	static const store_ckpt_opts none = { 0 };
	if (!o)
		o = &none;
	memset(r, 0, sizeof *r);
	r->bytes = store_checkpoint_bytes(s);
	r->floor_s = r->bytes / scn_storage_write_Bps(&s->cluster.storage);
	ckrun k;
	int rc = -1;
	if (ckrun_open(&k, s, err, errlen) < 0)
		goto out;
	k.async = s->training.checkpoint.mode == CKPT_ASYNC && !o->force_sync;
	k.with_dp = o->with_dp_traffic;
	if (writers_build(&k, r->bytes, err, errlen) < 0)
		goto out;
	int gpn = s->cluster.gpus_per_node;
	double *node = calloc((size_t)s->cluster.nodes, sizeof *node);
	if (!node)
		goto out;
	for (int i = 0; i < k.nw; i++)
		node[k.w[i].gpu / gpn] += k.w[i].bytes;
	for (int n = 0; n < s->cluster.nodes; n++) {
		r->writer_nodes += node[n] > 0;
		r->node_bytes_max = fmax(r->node_bytes_max, node[n]);
	}
	free(node);
	r->writers = k.nw;
	if (k.async && s->cluster.host_memory_bytes > 0 &&
	    r->node_bytes_max > s->cluster.host_memory_bytes) {
		k.async = false;   /* the snapshot does not fit: writes block as if sync */
		r->async_fallback = true;
		for (int i = 0; i < k.nw; i++) {   /* rebuild routes for the sync path */
			writer *w = &k.w[i];
			int tmp[CLUSTER_MAX_ROUTE];
			int nt = cluster_route_storage(k.cl, w->gpu, true, tmp, CLUSTER_MAX_ROUTE);
			memcpy(w->write, w->snap, sizeof(int) * (size_t)w->nsnap);
			w->nwrite = cluster_route_append(w->write, w->nsnap, tmp, nt, 2 * CLUSTER_MAX_ROUTE);
		}
	}
	k.snaps_left = k.async ? k.nw : 0;
	k.writes_left = k.nw;
	/* One request latency before the first byte (large sequential writes),
	 * less what the route's links already charge. */
	double on_route = 0;
	for (int i = 0; i < k.w[0].nwrite; i++)
		on_route += flow_link_latency(k.net, k.w[0].write[i]);
	k.delay_s = fmax(0.0, s->cluster.storage.latency_s - on_route);
	if (sim_after(k.e, k.async ? 0 : k.delay_s, SIM_PRIO_NORMAL, start_all, &k, 0) < 0)
		goto out;
	if (!k.async && k.with_dp && dp_start(&k) < 0)
		goto out;
	if (sim_run(k.e) != SIM_OK || k.err < 0) {
		snprintf(err, errlen, "checkpoint simulation stopped early (event limit or flow error)");
		goto out;
	}
	/* async: the stall beyond the copy (the state dict, the stager), before
	 * the copies and so before the background writes too */
	double staging = k.async ? s->training.checkpoint.snapshot_overhead_s : 0;
	r->snapshot_s = k.async ? staging + k.t_snap : 0;
	r->write_s = staging + k.t_write + (k.async ? k.delay_s : 0);
	r->stall_s = k.async ? r->snapshot_s : r->write_s;
	r->bottleneck = write_bottleneck(s, r);
	/* a restart's reload, where failures are drawn and it is asked for */
	const scn_failures *fl = &s->training.failures;
	if (fl->reload && scn_failures_on(fl)) {
		r->load_s = load_time(s, r->bytes, err, errlen);
		if (r->load_s < 0)
			goto out;
	}
	if (k.with_dp && scn_dp_grad(s) > 1) {
		r->dp_with_ckpt_s = k.t_dp - k.t_dp0;
		r->dp_alone_s = dp_alone(s, err, errlen);
		if (r->dp_alone_s < 0)
			goto out;
	}
	rc = 0;
out:
	ckrun_close(&k);
	return rc;
}

int store_checkpoint_tiers(const scenario *s, double step_time_s, step_checkpoint *ck,
                           store_ckpt_result *detail, store_ckpt_result *local, char *err,
                           size_t errlen)
{
	store_ckpt_result tmp, ltmp;
	store_ckpt_result *r = detail ? detail : &tmp;
	store_ckpt_result *lr = local ? local : &ltmp;
	memset(ck, 0, sizeof *ck);
	memset(r, 0, sizeof *r);
	memset(lr, 0, sizeof *lr);
	const scn_checkpoint *c = &s->training.checkpoint;
	int every = c->every;
	bool async = c->mode == CKPT_ASYNC;
	ck->bytes = store_checkpoint_bytes(s);
	if (every > 0) {
		store_ckpt_opts o = {
			.with_dp_traffic = async && s->cluster.storage.network == STORAGE_NET_SHARED &&
			                   scn_dp_grad(s) > 1,
		};
		if (store_checkpoint_cost(s, &o, r, err, errlen) < 0)
			return -1;
		ck->every = every;
		ck->bytes = r->bytes;
		ck->write_s = r->write_s;
		ck->async_fallback = async && r->async_fallback;
		ck->load_s = r->load_s;
		ck->stall_s = store_ckpt_stall(r, async, every, step_time_s);
		ck->amortized_s = ck->stall_s / every;
	}
	if (c->local_every > 0 && s->cluster.cache.present) {
		if (store_local_checkpoint_cost(s, lr, err, errlen) < 0)
			return -1;
		ck->local_every = c->local_every;
		ck->local_copies = local_copies_of(s);
		ck->local_bytes_per_gpu = lr->bytes / lr->writers / ck->local_copies;
		ck->local_write_s = lr->write_s;
		ck->local_load_s = lr->load_s;
		ck->local_async_fallback = lr->async_fallback;
		/* with the wait for a background write that outlasts the interval */
		ck->local_stall_s = store_ckpt_stall(lr, async, c->local_every, step_time_s);
		ck->amortized_s += ck->local_stall_s / c->local_every;
	}
	return 0;
}

int store_checkpoint(const scenario *s, double step_time_s, step_checkpoint *ck,
                     store_ckpt_result *detail, char *err, size_t errlen)
{
	return store_checkpoint_tiers(s, step_time_s, ck, detail, NULL, err, errlen);
}

double store_ckpt_stall(const store_ckpt_result *r, bool async, int every, double step_time_s)
{
	double stall = r->stall_s;
	if (async && !r->async_fallback && step_time_s > 0 && every > 0) {
		double interval = every * step_time_s;
		double background = r->write_s - r->snapshot_s;
		/* The next snapshot waits for a background write still running. */
		stall += fmax(0.0, background - interval);
		/* Each step overlapped by the background write has a slower gradient
		 * reduction on shared NICs; counted as exposed (an upper bound when
		 * the reduction overlaps the backward pass). */
		double overlapped = fmin((double)every, ceil(background / step_time_s));
		stall += overlapped * fmax(0.0, r->dp_with_ckpt_s - r->dp_alone_s);
	}
	return stall;
}
