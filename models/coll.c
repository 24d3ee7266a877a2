/* coll.c: collectives as flows. Picks the algorithm and protocol as NCCL's
 * tuner would (minimum predicted time), starts the algorithm's flows phase by
 * phase, and adds NCCL's latency once when the last flow has arrived. Run
 * records are pooled: starting a collective allocates nothing once warm. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include "coll_impl.h"
#include "workload.h"   /* wl_membound_time: a one-rank copy */

static const coll_algo_ops *const algos[ALGO__N] = {
	[ALGO_RING] = &coll__ring, [ALGO_TREE] = &coll__tree, [ALGO_HIERARCHICAL] = &coll__hier,
	[ALGO_PS] = &coll__ps, [ALGO_NVLS] = &coll__nvls, [ALGO_NVLS_TREE] = &coll__nvlstree,
	[ALGO_COLLNET] = &coll__collnet,
};

static const struct { const char *name; coll_op op; } op_names[] = {
	{"all_reduce", COLL_ALL_REDUCE}, {"allreduce", COLL_ALL_REDUCE},
	{"all_gather", COLL_ALL_GATHER}, {"allgather", COLL_ALL_GATHER},
	{"reduce_scatter", COLL_REDUCE_SCATTER}, {"reducescatter", COLL_REDUCE_SCATTER},
	{"all_to_all", COLL_ALL_TO_ALL}, {"alltoall", COLL_ALL_TO_ALL},
	{"broadcast", COLL_BROADCAST}, {"bcast", COLL_BROADCAST},
	{"reduce", COLL_REDUCE},
	{"sendrecv", COLL_SENDRECV}, {"send_recv", COLL_SENDRECV}, {"p2p", COLL_SENDRECV},
	{"gather", COLL_GATHER}, {"scatter", COLL_SCATTER},
};

int coll_op_parse(const char *s)
{
	if (!s)
		return -1;
	/* "all-gather", "reduce-scatter", "all-to-all" as "all_gather" */
	char u[32];
	size_t n = strlen(s);
	if (n >= sizeof u)
		return -1;
	for (size_t i = 0; i <= n; i++)
		u[i] = s[i] == '-' ? '_' : s[i];
	for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
		if (!strcasecmp(u, op_names[i].name))
			return (int)op_names[i].op;
	return -1;
}

const char *coll_op_name(coll_op op)
{
	static const char *names[COLL__N] = {"all_reduce", "all_gather", "reduce_scatter",
		"all_to_all", "broadcast", "reduce", "sendrecv", "gather", "scatter"};
	return (unsigned)op < COLL__N ? names[op] : "?";
}

const char *coll_algo_name(coll_algo a)
{
	static const char *names[ALGO__N] = {"auto", "ring", "tree", "hierarchical", "ps", "nvls",
		"nvlstree", "collnet"};
	return (unsigned)a < ALGO__N ? names[a] : "?";
}

double coll_busbw_factor(coll_op op, int n)
{
	if (n < 2)
		return op == COLL_ALL_REDUCE || op == COLL_ALL_GATHER || op == COLL_REDUCE_SCATTER ||
		       op == COLL_ALL_TO_ALL || op == COLL_GATHER || op == COLL_SCATTER ? 0 : 1;
	switch (op) {
	case COLL_ALL_REDUCE:
		return 2.0 * (n - 1) / n;
	case COLL_ALL_GATHER:
	case COLL_REDUCE_SCATTER:
	case COLL_ALL_TO_ALL:
	case COLL_GATHER:      /* gather.cu, scatter.cu: (n - 1) / n */
	case COLL_SCATTER:
		return (double)(n - 1) / n;
	default:
		return 1;
	}
}

/* ---- run records ---- */

static coll_run *run_get(coll_ctx *cc)
{
	coll_run *r = cc->free_runs;
	if (r) {
		cc->free_runs = r->next_free;
	} else {
		r = calloc(1, sizeof *r);
		if (!r)
			return NULL;
		r->cc = cc;
	}
	return r;
}

static void run_put(coll_run *r)
{
	r->next_free = r->cc->free_runs;
	r->cc->free_runs = r;
}

static void run_release(coll_run *r)
{
	free(r->ranks);
	free(r->pf);
	free(r->sh.node_of_rank);
	free(r->sh.node_start);
	free(r->sh.members);
	free(r->sh.rails);
	free(r->sh.nrails_node);
	free(r->sh.entry);
	free(r);
}

coll_ctx *coll_ctx_new(cluster *cl, sim *s)
{
	coll_ctx *cc = calloc(1, sizeof *cc);
	if (!cc)
		return NULL;
	cc->cl = cl;
	cc->s = s;
	cc->net = cluster_net(cl);
	cc->node_index = malloc((size_t)cluster_nodes(cl) * sizeof(int));
	cc->rail_seen = calloc((size_t)cluster_nics(cl), 1);
	cc->rail_slot = malloc((size_t)cluster_nics(cl) * sizeof(int));
	int gpn = cluster_gpus_per_node(cl);
	cc->first_rail = malloc((size_t)gpn * sizeof(int));
	cc->own_rails = malloc((size_t)gpn * sizeof(int));
	size_t nnic = (size_t)cluster_nodes(cl) * (size_t)cluster_nics(cl);
	cc->nic_tx = calloc(nnic, sizeof(int));
	cc->nic_rx = calloc(nnic, sizeof(int));
	cc->scratch = calloc(1, sizeof *cc->scratch);
	if (!cc->node_index || !cc->rail_seen || !cc->rail_slot || !cc->first_rail ||
	    !cc->own_rails || !cc->scratch || !cc->nic_tx || !cc->nic_rx) {
		coll_ctx_free(cc);
		return NULL;
	}
	cc->scratch->cc = cc;
	for (int i = 0; i < cluster_nodes(cl); i++)
		cc->node_index[i] = -1;
	for (int i = 0; i < cluster_nics(cl); i++)
		cc->rail_slot[i] = -1;
	for (int i = 0; i < gpn; i++)
		cc->own_rails[i] = topo_own_rails(i, gpn, cluster_nics(cl), &cc->first_rail[i]);
	return cc;
}

void coll_ctx_free(coll_ctx *cc)
{
	if (!cc)
		return;
	while (cc->free_runs) {
		coll_run *r = cc->free_runs;
		cc->free_runs = r->next_free;
		run_release(r);
	}
	if (cc->scratch)
		run_release(cc->scratch);
	free(cc->node_index);
	free(cc->rail_seen);
	free(cc->rail_slot);
	free(cc->first_rail);
	free(cc->own_rails);
	free(cc->nic_tx);
	free(cc->nic_rx);
	free(cc);
}

/* ---- flows and phases ---- */

static void run_finish(sim *s, void *ctx, uint64_t arg)
{
	(void)arg;
	coll_run *r = ctx;
	coll_done_fn done = r->done;
	void *dctx = r->ctx;
	uint64_t darg = r->arg;
	run_put(r);
	if (done)
		done(s, dctx, darg);
}

static void flow_sent(sim *s, void *ctx, uint64_t arg);

/* Counts the phase's flows through each NIC (both directions) when `add`,
 * or clears the counters again. A flow standing for `mult` siblings counts
 * once per sibling that shares its NIC (cluster_gpus_per_nic). */
static void nic_count(coll_run *r, bool add)
{
	coll_ctx *cc = r->cc;
	int gpn = r->sh.gpn, nics = r->sh.nics;
	int fan = cluster_gpus_per_nic(cc->cl);
	int w = r->req.mult < fan ? (int)r->req.mult : fan;
	if (w < 1)
		w = 1;
	for (int i = 0; i < r->npf; i++) {
		const struct coll_pflow *f = &r->pf[i];
		if (f->a / gpn == f->b / gpn)
			continue;
		int ra = f->rail >= 0 ? f->rail % nics : coll__rail(&r->sh, f->a);
		int rb = f->rail >= 0 ? f->rail % nics : coll__rail(&r->sh, f->b);
		int *tx = &cc->nic_tx[f->a / gpn * nics + ra], *rx = &cc->nic_rx[f->b / gpn * nics + rb];
		*tx = add ? *tx + w : 0;
		*rx = add ? *rx + w : 0;
	}
}

/* Starts the flows listed for this phase. Caps are on wire bytes: the
 * path's achievable rate (a NIC's split over the phase's flows through it,
 * so that its aggregate stays at line rate x efficiency), the protocol's
 * data-rate cap over its payload fraction, and the algorithm's. */
static int launch(coll_run *r)
{
	coll_ctx *cc = r->cc;
	int gpn = r->sh.gpn, nics = r->sh.nics, rc = 0;
	nic_count(r, true);
	/* NCCL's sockets (TCP): one communicator's ring channels through a NIC
	 * share its sockets among its flows there, each sibling communicator
	 * with sockets of its own; a hierarchical scheme's rings across nodes
	 * are communicators of their own, and each peer of a point-to-point
	 * pattern (all-to-all, sends, a parameter server's) has its own
	 * connection of NCCL_NCHANNELS_PER_NET_PEER channels */
	const scn_cluster *spec = cluster_spec(cc->cl);
	double ring_sock = 0, conn_sock = 0;
	/* a tree's edges are connections of their own too: each of its two
	 * trees a half of the channels, a parent and up to two children a node */
	bool tree = r->ops->algo == ALGO_TREE || r->ops->algo == ALGO_NVLS_TREE;
	bool per_conn = r->req.op == COLL_ALL_TO_ALL || r->req.op == COLL_SENDRECV ||
	                r->req.op == COLL_GATHER || r->req.op == COLL_SCATTER ||
	                r->ops->algo == ALGO_HIERARCHICAL || r->ops->algo == ALGO_PS || tree;
	int sib = r->req.mult < cluster_gpus_per_nic(cc->cl) ? (int)r->req.mult
	                                                     : cluster_gpus_per_nic(cc->cl);
	if (spec->nic.transport == TRANSPORT_TCP) {
		int ch = hw_nic_ring_channels(&spec->nic, spec->gpu.arch, spec->gpu.pcie_gen);
		ring_sock = hw_nic_socket_cap(&spec->nic, ch) * (sib > 1 ? sib : 1);
		hw_nic one = spec->nic;   /* a hierarchical ring: one GPU a node, one NIC */
		one.count = 1;
		conn_sock = hw_nic_socket_cap(&spec->nic, r->ops->algo == ALGO_HIERARCHICAL
		                              ? hw_nic_ring_channels(&one, spec->gpu.arch,
		                                                     spec->gpu.pcie_gen)
		                              : tree ? (ch / 2 > 1 ? ch / 2 : 1)
		                              : HW_P2P_NET_CHANNELS);
	}
	for (int i = 0; i < r->npf && !rc; i++) {
		const struct coll_pflow *f = &r->pf[i];
		int links[CLUSTER_MAX_ROUTE];
		int nl = cluster_route(cc->cl, f->a, f->b, f->rail, links, CLUSTER_MAX_ROUTE);
		if (nl < 0) {
			rc = SIM_EINVAL;
			break;
		}
		double lat = 0;
		for (int k = 0; k < nl; k++)
			lat += flow_link_latency(cc->net, links[k]);
		double cap = cluster_flow_cap_shared(cc->cl, f->a, f->b, r->sh.ppn);
		if (f->a / gpn != f->b / gpn) {
			int ra = f->rail >= 0 ? f->rail % nics : coll__rail(&r->sh, f->a);
			int rb = f->rail >= 0 ? f->rail % nics : coll__rail(&r->sh, f->b);
			int tx = cc->nic_tx[f->a / gpn * nics + ra], rx = cc->nic_rx[f->b / gpn * nics + rb];
			cap /= tx > rx ? tx : rx;
			if (ring_sock > 0)
				cap = fmin(cap, per_conn ? conn_sock * fmax(1.0, r->conns_per_flow)
				                         : ring_sock / (tx > rx ? tx : rx));
		}
		/* LL's cap: NCCL's multi-node figure on the flows that leave the node,
		 * its one-node figure (the GPU's) on those inside it */
		double pcap = f->a / gpn != f->b / gpn ? r->cap_data_Bps : r->cap_intra_Bps;
		if (pcap > 0 && pcap / r->payload < cap)
			cap = pcap / r->payload;
		if (f->cap > 0 && f->cap < cap)
			cap = f->cap;
		r->pending++;
		/* the flow's route latency (in ps) rides with it (flow_sent) */
		int id = flow_start_sent(cc->net, links, nl, f->bytes / r->payload, cap,
		                         r->req.mult, flow_sent, r, (uint64_t)llround(lat * 1e12));
		if (id < 0) {
			r->pending--;
			rc = id;
		}
	}
	nic_count(r, false);
	r->npf = 0;
	return rc;
}

/* Starts phases from r->phase until one has flows in flight; when none is
 * left, schedules the end after the latency the flows did not already pay. */
static int run_phases(coll_run *r)
{
	for (; r->phase < r->ops->nphases; r->phase++) {
		r->phase_tx_end = r->phase_arrival = -INFINITY;
		r->npf = 0;
		int rc = r->ops->phase(r, r->phase);
		if (!rc)
			rc = launch(r);
		if (rc < 0)
			return rc;
		if (r->pending > 0)
			return 0;
	}
	/* each of the count collectives takes max(latency, route latency) beyond
	 * its bandwidth time; the flows paid the route latency once */
	double one = r->latency_s > r->route_lat_s ? r->latency_s : r->route_lat_s;
	double extra = r->count * one - r->route_lat_s;
	return sim_after(r->cc->s, extra > 0 ? extra : 0, SIM_PRIO_NORMAL, run_finish, r, 0);
}

/* The phase's last flow has arrived. */
static void phase_landed(sim *s, void *ctx, uint64_t arg)
{
	(void)arg;
	coll_run *r = ctx;
	/* the phase paid as latency what it took beyond its last byte's
	 * transmission: not the largest route latency of any flow (a slow NVLink
	 * hop that ends before the NIC flows did not delay the phase) */
	r->route_lat_s += sim_now(s) - r->phase_tx_end;
	r->phase++;
	int rc = run_phases(r);
	assert(rc == 0);    /* routes were checked when the collective started */
	(void)rc;
}

/* A flow's last byte has left: it arrives its route latency (in ps, `arg`)
 * later. One event at the latest arrival ends the phase, rather than one
 * delivery event per flow. */
static void flow_sent(sim *s, void *ctx, uint64_t arg)
{
	coll_run *r = ctx;
	double now = sim_now(s), arrival = now + (double)arg * 1e-12;
	if (now > r->phase_tx_end)
		r->phase_tx_end = now;
	if (arrival > r->phase_arrival)
		r->phase_arrival = arrival;
	if (--r->pending > 0)
		return;
	int rc = sim_at(s, r->phase_arrival, SIM_PRIO_NORMAL, phase_landed, r, 0);
	assert(rc == 0 && "out of memory scheduling a phase's arrival");
	(void)rc;
}

/* Concurrent flows one phase of one collective may start: a backstop behind
 * memest (which refuses above --max-memory before anything runs). An
 * all_to_all over 2048 nodes x 8 rails is 33.5M flows (7.2 GB measured); past
 * 2^26 the int counters here and the re-plan's scratch are near their ends,
 * and without any limit such a request aborted in flow_on_replan. */
#define COLL_MAX_PHASE_FLOWS (1 << 26)

int coll__flow(coll_run *r, int a, int b, int rail, double data_bytes, double extra_cap_Bps)
{
	if (a == b)
		return 0;
	if (r->npf >= COLL_MAX_PHASE_FLOWS)
		return SIM_ELIMIT;
	if (r->npf == r->pf_cap) {
		int cap = r->pf_cap ? 2 * r->pf_cap : 64;
		void *p = realloc(r->pf, (size_t)cap * sizeof *r->pf);
		if (!p)
			return SIM_ENOMEM;
		r->pf = p;
		r->pf_cap = cap;
	}
	r->pf[r->npf++] = (struct coll_pflow){a, b, rail, data_bytes, extra_cap_Bps};
	return 0;
}

int coll__flow_nics(coll_run *r, int a, int b, double data_bytes)
{
	const coll_shape *sh = &r->sh;
	int la = a % sh->gpn, lo, k = topo_own_rails(la, sh->gpn, sh->nics, &lo);
	if (a / sh->gpn == b / sh->gpn || la != b % sh->gpn || k == 1)
		return coll__flow(r, a, b, -1, data_bytes, 0);
	for (int rail = lo; rail < lo + k; rail++) {
		int rc = coll__flow(r, a, b, rail, data_bytes / k, 0);
		if (rc)
			return rc;
	}
	return 0;
}

double coll__nics_per_gpu(const coll_shape *sh)
{
	return sh->nics > sh->gpn ? (double)sh->nics / sh->gpn : 1;
}

/* ---- the shape of a request ---- */

static int grow(int **a, int need)
{
	int *p = realloc(*a, (size_t)(need > 0 ? need : 1) * sizeof(int));
	if (!p)
		return -1;
	*a = p;
	return 0;
}

static int shape_alloc(coll_run *r, int n, int nics)
{
	if (n <= r->sh_cap && nics <= r->sh.rails_stride)
		return 0;
	int cap = n > r->sh_cap ? n : r->sh_cap;
	int stride = nics > r->sh.rails_stride ? nics : r->sh.rails_stride;
	if (grow(&r->sh.node_of_rank, cap) || grow(&r->sh.node_start, cap + 1) ||
	    grow(&r->sh.members, cap) || grow(&r->sh.nrails_node, cap) ||
	    grow(&r->sh.rails, cap * stride) || grow(&r->sh.entry, cap * stride))
		return SIM_ENOMEM;
	r->sh_cap = cap;
	r->sh.rails_stride = stride;
	return 0;
}

/* Distinct rails of one node's members, in increasing order: all of each
 * GPU's own NICs, unless they do not divide evenly (12 NICs on 8 GPUs: some
 * GPUs own two). NCCL's search gives every channel the same bandwidth, and
 * a GPU's two rails share its one PCIe link, so each rail runs at most at
 * min(NIC, PCIe / 2); the second NICs are used only when that adds up to
 * more than one rail a GPU at min(NIC, PCIe) (two 100 Gb/s NICs a GPU on
 * PCIe Gen5 do, two 400 Gb/s ones do not); never on a PCIe node, whose GPUs'
 * links carry the hops between them as well. */
static void shape_rails(coll_ctx *cc, coll_shape *sh, int node)
{
	int nics = cluster_nics(cc->cl), *out = sh->rails + node * sh->rails_stride, k = 0;
	int fewest = nics, most = 0, all = 0, members = 0;
	for (int m = sh->node_start[node]; m < sh->node_start[node + 1]; m++, members++) {
		int local = sh->members[m] % sh->gpn, own = cc->own_rails[local];
		fewest = own < fewest ? own : fewest;
		most = own > most ? own : most;
		all += own;
	}
	int use = most;
	const scn_cluster *c = cluster_spec(cc->cl);
	if (fewest < most && c->intra.kind == INTRA_PCIE)
		use = fewest;   /* the PCIe link carries the node's own ring hops too */
	else if (fewest < most) {
		double nic = hw_nic_Bps(&c->nic, 1, c->gpu.arch, c->gpu.pcie_gen),
		       pcie = cluster_pcie_Bps(cc->cl);
		if ((double)members * fewest * fmin(nic, pcie / fewest) >= all * fmin(nic, pcie / most))
			use = fewest;
	}
	for (int m = sh->node_start[node]; m < sh->node_start[node + 1]; m++) {
		int local = sh->members[m] % sh->gpn, lo = cc->first_rail[local],
		    own = cc->own_rails[local];
		for (int r = lo; r < lo + (own < use ? own : use); r++)
			cc->rail_seen[r] = 1;
	}
	for (int i = 0; i < nics; i++)
		if (cc->rail_seen[i]) {
			out[k++] = i;
			cc->rail_seen[i] = 0;
		}
	sh->nrails_node[node] = k;
	/* where each rail's ring enters the node: its first GPU owning the
	 * rail (read by coll__ring_entry only across nodes) */
	if (sh->nnodes < 2)
		return;
	int *entry = sh->entry + node * sh->rails_stride;
	for (int i = 0; i < k; i++) {
		entry[i] = 0;
		cc->rail_slot[out[i]] = i;
	}
	for (int t = members - 1; t >= 0; t--) {   /* the first owner wins */
		int local = sh->members[sh->node_start[node] + t] % sh->gpn,
		    lo = cc->first_rail[local], own = cc->own_rails[local];
		for (int r = lo; r < lo + own; r++)
			if (cc->rail_slot[r] >= 0)
				entry[cc->rail_slot[r]] = t;
	}
	for (int i = 0; i < k; i++)
		cc->rail_slot[out[i]] = -1;
}

static void shape_bandwidths(coll_ctx *cc, coll_shape *sh)
{
	const scn_cluster *c = cluster_spec(cc->cl);
	sh->intra_Bps = cluster_intra_Bps(cc->cl);
	sh->nic_Bps = hw_nic_Bps(&c->nic, sh->ppn, c->gpu.arch, c->gpu.pcie_gen);
	sh->nic_line_Bps = c->nic.speed_Bps;
	sh->nvlink = c->intra.kind != INTRA_PCIE;
	sh->mesh = c->intra.kind == INTRA_NVLINK_MESH;
	sh->nvls_eff = c->intra.kind == INTRA_NVSWITCH ? c->gpu.nvls_eff : 0;
	sh->arch = c->gpu.arch;
	sh->sharp = c->fabric.sharp && c->nic.transport == TRANSPORT_RDMA;
	/* a PCIe node whose members all sit in one NVLink bridge group talks
	 * over the bridges, as an NVLink mesh; members in several groups are
	 * held to PCIe by the hops between groups (the flows see both) */
	bool bridged = cluster_bridge_Bps(cc->cl) > 0;
	for (int j = 0; bridged && j < sh->nnodes; j++) {
		int first = sh->members[sh->node_start[j]];
		for (int m = sh->node_start[j] + 1; bridged && m < sh->node_start[j + 1]; m++)
			bridged = cluster_same_bridge(cc->cl, first, sh->members[m]);
	}
	if (bridged && sh->ppn > 1) {   /* ppn - 1 of a GPU's bridge - 1 mesh links */
		int k = cluster_spec(cc->cl)->intra.bridge;
		sh->intra_Bps = cluster_bridge_Bps(cc->cl) * (sh->ppn - 1) / (k - 1);
		sh->nvlink = sh->mesh = true;
	}
}

int coll_node_ctas(const scn_cluster *c, int ranks, coll_op op)
{
	coll_shape sh;
	memset(&sh, 0, sizeof sh);
	sh.n = ranks, sh.nnodes = 1, sh.ppn = ranks;
	sh.arch = c->gpu.arch;
	sh.nvlink = c->intra.kind != INTRA_PCIE ||
	            cluster_spec_group_Bps(c, ranks) != cluster_spec_intra_Bps(c);
	sh.intra_Bps = cluster_spec_group_Bps(c, ranks);
	if (op == COLL_ALL_REDUCE && coll_node_nvls(c, ranks))
		return coll__nvls_channels(&sh);
	return coll__node_channels(&sh);
}

bool coll_node_nvls(const scn_cluster *c, int ranks)
{
	return c->intra.kind == INTRA_NVSWITCH && c->gpu.nvls_eff > 0 && ranks > 2;
}

int coll__shape(coll_ctx *cc, coll_run *r)
{
	int n = r->req.n, gpn = cluster_gpus_per_node(cc->cl);
	if (shape_alloc(r, n, cluster_nics(cc->cl)))
		return SIM_ENOMEM;
	coll_shape *sh = &r->sh;
	sh->n = n;
	sh->nnodes = 0;
	sh->gpn = gpn;
	sh->nics = cluster_nics(cc->cl);
	for (int i = 0; i < n; i++) {             /* nodes by first appearance */
		int node = r->ranks[i] / gpn;
		if (cc->node_index[node] < 0) {
			cc->node_index[node] = sh->nnodes;
			sh->node_start[sh->nnodes++] = 0;
		}
		sh->node_of_rank[i] = cc->node_index[node];
		sh->node_start[sh->node_of_rank[i]]++;
	}
	for (int i = 0; i < n; i++)               /* reset only what was touched */
		cc->node_index[r->ranks[i] / gpn] = -1;
	int off = 0, first = sh->node_start[0];
	sh->ppn = 0;
	sh->symmetric = true;
	for (int j = 0; j < sh->nnodes; j++) {    /* counts -> offsets */
		int cnt = sh->node_start[j];
		if (cnt > sh->ppn)
			sh->ppn = cnt;
		if (cnt != first)
			sh->symmetric = false;
		sh->node_start[j] = off;
		off += cnt;
	}
	sh->node_start[sh->nnodes] = off;
	for (int i = 0; i < n; i++)               /* stable fill, then shift back */
		sh->members[sh->node_start[sh->node_of_rank[i]]++] = r->ranks[i];
	for (int j = sh->nnodes; j > 0; j--)
		sh->node_start[j] = sh->node_start[j - 1];
	sh->node_start[0] = 0;
	sh->nrails = 1 << 30;
	for (int j = 0; j < sh->nnodes; j++) {
		shape_rails(cc, sh, j);
		if (sh->nrails_node[j] < sh->nrails)
			sh->nrails = sh->nrails_node[j];
	}
	if (sh->nnodes == 1 || sh->nrails < 1)
		sh->nrails = 1;
	shape_bandwidths(cc, sh);
	/* A ring's dependency chain crosses each node-to-node edge about twice,
	 * so NCCL's per-step count is applied to the mean edge latency. */
	sh->inter_lat_s = 0;
	for (int j = 0; sh->nnodes > 1 && j < sh->nnodes; j++)
		sh->inter_lat_s += cluster_route_latency(cc->cl, sh->members[sh->node_start[j]],
			sh->members[sh->node_start[(j + 1) % sh->nnodes]], -1) / sh->nnodes;
	return 0;
}

/* ---- choosing like NCCL's tuner ---- */

static const coll_algo_ops *ops_for(coll_op op, coll_algo algo)
{
	if (op == COLL_ALL_TO_ALL)
		return &coll__a2a;
	if (op == COLL_SENDRECV)
		return &coll__p2p;
	if (op == COLL_GATHER || op == COLL_SCATTER)
		return &coll__rooted;
	return (unsigned)algo < ALGO__N ? algos[algo] : NULL;
}

/* NCCL-model time of (algorithm, protocol), +inf when NCCL has no such pair. */
static double predict(const coll_shape *sh, const coll_req *req, const coll_algo_ops *ops,
                      int proto, double *lat_out)
{
	double lat = coll__nccl_latency(sh, req->op, ops->algo, proto, req->bytes);
	if (lat < 0 || !coll__proto_ok(sh, ops->algo, proto, (int)req->proto == proto + 1))
		return INFINITY;
	double bw = ops->algbw(sh, req) * coll__payload(proto) * coll__tuner_factor(sh, ops->algo, proto) *
	            coll__tree_correction(req->op, ops->algo, proto, req->bytes);
	double cap = coll__ll_cap(sh, proto);
	double f = coll_busbw_factor(req->op, sh->n);
	if (cap > 0 && f > 0 && cap / f < bw)
		bw = cap / f;
	if (lat_out)
		*lat_out = lat;
	return lat + (bw > 0 ? req->bytes / bw : INFINITY);
}

int coll_proto_parse(const char *s)
{
	for (int p = COLL_PROTO_LL; p < COLL_PROTO__N; p++)
		if (!strcasecmp(s, coll__proto_name(p - 1)))
			return p;
	return -1;
}

const char *coll_proto_name(coll_proto p)
{
	return p > COLL_PROTO_AUTO && p < COLL_PROTO__N ? coll__proto_name((int)p - 1) : "auto";
}

/* The fastest protocol of ops for req, or the forced one where ops runs it;
 * strict: +inf where it does not (NCCL then leaves the algorithm out). */
static double proto_pick(const coll_shape *sh, const coll_req *req, const coll_algo_ops *ops,
                         int *proto, double *lat, bool strict)
{
	double best = INFINITY;
	*proto = PROTO_SIMPLE;
	*lat = 0;
	if (req->proto > COLL_PROTO_AUTO && req->proto < COLL_PROTO__N) {
		/* NCCL_PROTO: the one protocol, where the algorithm runs it */
		int p = (int)req->proto - 1;
		double l = 0, t = predict(sh, req, ops, p, &l);
		if (t < INFINITY || strict) {
			*proto = p;
			*lat = l;
			return t;
		}
	}
	for (int p = 0; p < PROTO__N; p++) {
		double l = 0, t = predict(sh, req, ops, p, &l);
		if (t < best) {
			best = t;
			*proto = p;
			*lat = l;
		}
	}
	return best;
}

static double best_proto(const coll_shape *sh, const coll_req *req, const coll_algo_ops *ops,
                         int *proto, double *lat)
{
	return proto_pick(sh, req, ops, proto, lat, false);
}

/* Resolves the algorithm and protocol for r (its shape filled). */
static const coll_algo_ops *choose(coll_run *r, int *proto, double *lat)
{
	const coll_req *req = &r->req;
	const coll_algo_ops *ops = ops_for(req->op, req->algo);
	if (ops && ops->supports(&r->sh, req->op)) {
		best_proto(&r->sh, req, ops, proto, lat);
		return ops;
	}
	/* ALGO_AUTO, or an algorithm that cannot run this: NCCL's candidates. */
	static const coll_algo auto_algos[] = {ALGO_RING, ALGO_TREE, ALGO_NVLS, ALGO_NVLS_TREE,
	                                       ALGO_COLLNET};
	const coll_algo_ops *best = &coll__ring;
	double tbest = INFINITY;
	for (size_t i = 0; i < sizeof auto_algos / sizeof auto_algos[0]; i++) {
		const coll_algo_ops *o = algos[auto_algos[i]];
		if (!o->supports(&r->sh, req->op))
			continue;
		int p;
		double l = 0, t = proto_pick(&r->sh, req, o, &p, &l, true);
		if (t < tbest) {
			tbest = t;
			best = o;
			*proto = p;
			*lat = l;
		}
	}
	if (tbest == INFINITY)
		best_proto(&r->sh, req, best, proto, lat);
	return best;
}

static int check_req(const coll_ctx *cc, const coll_req *req)
{
	if (!req || req->n < 1 || !req->ranks || !(req->bytes >= 0) || (unsigned)req->op >= COLL__N)
		return SIM_EINVAL;
	for (int i = 0; i < req->n; i++)
		if (req->ranks[i] < 0 || req->ranks[i] >= cluster_gpus(cc->cl))
			return SIM_EINVAL;
	return 0;
}

static int prepare(coll_ctx *cc, coll_run *r, const coll_req *req)
{
	int rc = check_req(cc, req);
	if (rc)
		return rc;
	if (req->n > r->ranks_cap) {
		if (grow(&r->ranks, req->n))
			return SIM_ENOMEM;
		r->ranks_cap = req->n;
	}
	memcpy(r->ranks, req->ranks, (size_t)req->n * sizeof(int));
	r->req = *req;
	r->req.ranks = r->ranks;
	if (!(r->req.mult >= 1))
		r->req.mult = 1;
	return coll__shape(cc, r);
}

coll_algo coll_pick(const coll_ctx *cc, const coll_req *req)
{
	coll_ctx *c = (coll_ctx *)cc;    /* scratch only */
	if (prepare(c, c->scratch, req))
		return ALGO_RING;
	int proto;
	double lat;
	return choose(c->scratch, &proto, &lat)->algo;
}

void coll_describe(const coll_ctx *cc, const coll_req *req, char *buf, size_t len)
{
	coll_ctx *c = (coll_ctx *)cc;
	if (prepare(c, c->scratch, req)) {
		snprintf(buf, len, "?");
		return;
	}
	int proto;
	double lat;
	const coll_algo_ops *o = choose(c->scratch, &proto, &lat);
	snprintf(buf, len, "%s/%s", o->name, coll__proto_name(proto));
}

double coll_latency(const coll_ctx *cc, const coll_req *req, coll_algo algo)
{
	coll_ctx *c = (coll_ctx *)cc;
	if (prepare(c, c->scratch, req))
		return -1;
	c->scratch->req.algo = algo;
	int proto;
	double lat;
	choose(c->scratch, &proto, &lat);
	return lat;
}

int coll_start(coll_ctx *cc, const coll_req *req, coll_done_fn done, void *ctx, uint64_t arg)
{
	return coll_start_batch(cc, req, 1, done, ctx, arg);
}

int coll_start_batch(coll_ctx *cc, const coll_req *req, double count, coll_done_fn done,
                     void *ctx, uint64_t arg)
{
	if (!(count >= 1))
		return SIM_EINVAL;
	coll_run *r = run_get(cc);
	if (!r)
		return SIM_ENOMEM;
	int rc = prepare(cc, r, req);
	if (rc) {
		run_put(r);
		return rc;
	}
	r->done = done;
	r->ctx = ctx;
	r->arg = arg;
	r->pending = 0;
	r->phase = 0;
	r->route_lat_s = 0;
	r->ops = choose(r, &r->proto, &r->latency_s);
	/* what the kernel pays beyond NCCL's model (chosen by the model alone) */
	r->latency_s += coll__slice_sync_s(&r->sh, req->op, r->ops->algo, r->proto, req->bytes);
	r->count = count;
	r->req.bytes *= count;   /* the flows carry all of them; chosen for one */
	r->payload = coll__payload(r->proto);
	/* a tree runs at NCCL's measured share f of its model's bandwidth at this
	 * size: it takes (1/f - 1) x its model time longer, as stalls of its
	 * pipeline, not as more bytes (the links it shares with other traffic
	 * carry no more) */
	double f = coll__tree_correction_smooth(req->op, r->ops->algo, r->proto, req->bytes);
	double bw = r->ops->algbw(&r->sh, req) * r->payload;
	if (f < 1 && bw > 0)
		r->latency_s += req->bytes * (1 / f - 1) / bw;
	double llcap = coll__ll_cap(&r->sh, r->proto);
	/* LL's busbw cap spread over the parallel rings (each carries 1/nrails) */
	r->cap_data_Bps = llcap > 0 ? llcap / r->sh.nrails : 0;
	/* all_to_all's node-pair flows each carry one rail GPU's share for one
	 * other node: that GPU's cap, split over the nodes it sends to */
	if (llcap > 0 && req->op == COLL_ALL_TO_ALL && r->sh.nnodes > 1)
		r->cap_data_Bps = llcap / (r->sh.nnodes - 1);
	r->cap_intra_Bps = r->cap_data_Bps;
	r->conns_per_flow = 1;   /* coll_a2a.c's node-pair flows stand for more */
	if (llcap > 0 && r->sh.nnodes > 1) {
		coll_shape one = r->sh;
		one.nnodes = 1;
		r->cap_intra_Bps = coll__ll_cap(&one, r->proto);
	}
	if (req->n == 1) {
		r->latency_s = 0;
		r->phase = r->ops->nphases;
	}
	rc = run_phases(r);
	if (rc && r->pending == 0)
		run_put(r);
	return rc;
}

/* ---- one collective alone ---- */

static void isolated_done(sim *s, void *ctx, uint64_t arg)
{
	(void)arg;
	*(double *)ctx = sim_now(s);
}

double coll_time_isolated(const scn_cluster *c, const coll_req *req, char *err, size_t errlen)
{
	return coll_time_isolated_batch(c, req, 1, err, errlen);
}

double coll_time_isolated_batch(const scn_cluster *c, const coll_req *req, double count, char *err,
                                size_t errlen)
{
	double t = -1;
	sim *s = sim_new(1, 0);
	flownet *net = s ? flow_new(s) : NULL;
	cluster *cl = net ? cluster_build(c, net, err, errlen) : NULL;
	coll_ctx *cc = cl ? coll_ctx_new(cl, s) : NULL;
	if (!cc) {
		if (s && net && cl)
			snprintf(err, errlen, "out of memory");
		else if (!net)
			snprintf(err, errlen, "out of memory");
		goto out;
	}
	int rc = count > 1 ? coll_start_batch(cc, req, count, isolated_done, &t, 0)
	                   : coll_start(cc, req, isolated_done, &t, 0);
	if (rc == SIM_ELIMIT) {
		snprintf(err, errlen, "%s over %d GPUs needs more than %d concurrent flows, the most "
		         "one collective can hold; use fewer GPUs (--gpus)",
		         coll_op_name(req->op), req->n, COLL_MAX_PHASE_FLOWS);
		goto out;
	}
	if (rc) {
		snprintf(err, errlen, "cannot start %s over %d GPUs (error %d)", coll_op_name(req->op),
			 req->n, rc);
		goto out;
	}
	if (sim_run(s) != SIM_OK) {
		snprintf(err, errlen, "event limit reached");
		t = -1;
	}
out:
	coll_ctx_free(cc);
	cluster_free(cl);
	flow_free(net);
	sim_free(s);
	return t;
}

/* COLL_LAUNCH_S, 5 us: the commonly quoted cost of one CUDA kernel launch ("a
 * few microseconds", plus NCCL's enqueue) -- an order of magnitude, UNVERIFIED
 * for a particular host. Back-to-back iterations overlap launches with the
 * previous kernels, so an iteration takes the longer of the two. */
double coll_nccl_tests_time(const scn_cluster *c, const coll_req *req, int gpus_per_thread,
                            char *err, size_t errlen)
{
	double t = coll_time_isolated(c, req, err, errlen);
	int g = gpus_per_thread > 1 ? gpus_per_thread : 1;
	/* one rank: nothing crosses a link, but out of place (nccl-tests' default)
	 * NCCL copies the buffer on the GPU, reading and writing it in HBM */
	if (t >= 0 && req->n == 1)   /* sendrecv with itself copies the same bytes */
		t = fmax(t, wl_membound_time(&c->gpu, 2 * req->bytes));
	if (t >= 0 && t < g * COLL_LAUNCH_S)
		t = g * COLL_LAUNCH_S;
	return t;
}
