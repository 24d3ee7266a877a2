/* coll_a2a.c: all_to_all, send/recv, gather and scatter as flows. all_to_all aggregates GPU
 * pairs: inside a node one flow per GPU carries all it sends to its peers
 * (on an NVSwitch or PCIe switch each GPU's uplink and downlink see exactly
 * that load; an NVLink mesh gets real pair flows); across nodes one flow per
 * node pair and rail, from the rail's GPU (PXN) -- O(nodes^2 * rails) flows at
 * worst, O(n) inside one node. The PXN NVLink legs are not charged. With
 * coll_req.symmetric only the first node's flows are simulated: its GPUs'
 * intra-node flows and its node pairs both ways, O(nodes * rails): the
 * collective ends when they do, its NICs see their whole load both ways (each
 * of them counts as many flows as in the full pattern), and the links of the
 * other nodes see the part that meets the first one.
 *
 * DeepEP's dispatcher (coll_req.dedup_topk, training.ep_dispatcher: deepep)
 * sends a token to another node once, to the GPU of its own local index there,
 * whatever experts it meets on that node, and that GPU forwards it over NVLink
 * to the experts' GPUs (DeepEP's README, "normal kernels": RDMA across nodes,
 * NVLink inside; DeepSeek-V3's report 3.2.2). A GPU's bytes to another node
 * are then its tokens x the share that meets an expert there
 * (coll_a2a_node_share), not top_k x the node's share of the experts, and the
 * forwarding adds, on each node, what arrived for its other GPUs to their
 * NVLink flows. */
#include <math.h>
#include "coll_impl.h"

double coll_a2a_node_share(int topk, int experts, int nodes)
{
	if (nodes <= 1 || experts < 1 || topk < 1)
		return 1;
	/* experts a node holds; none of k distinct picks among them */
	double per = (double)experts / nodes, miss = 1;
	for (int i = 0; i < topk && i < experts; i++)
		miss *= fmax(0.0, experts - per - i) / (experts - i);
	return 1 - miss;
}

/* The factor DeepEP's deduplication puts on an all-to-all's bytes between a
 * node pair (1 for NCCL's): a GPU sends its tokens once (req.bytes / topk)
 * times the node share, where NCCL's pattern sends req.bytes x mb / n. */
static double dedup_factor(const coll_run *r, int mb)
{
	const coll_shape *sh = &r->sh;
	if (r->req.dedup_topk < 1 || sh->nnodes < 2 || mb < 1)
		return 1;
	double share = coll_a2a_node_share(r->req.dedup_topk, r->req.dedup_experts, sh->nnodes);
	return fmin(1.0, share * sh->n / ((double)r->req.dedup_topk * mb));
}

static int a2a_intra(coll_run *r, double chunk)
{
	const coll_shape *sh = &r->sh;
	int nodes = r->req.symmetric ? 1 : sh->nnodes;
	for (int j = 0; j < nodes; j++) {
		int s = sh->node_start[j], m = sh->node_start[j + 1] - s;
		for (int t = 0; m > 1 && t < m; t++) {
			if (sh->mesh) {
				for (int u = 0; u < m; u++)
					if (u != t) {
						int rc = coll__flow(r, sh->members[s + t], sh->members[s + u], -1,
						                    chunk, 0);
						if (rc)
							return rc;
					}
				continue;
			}
			/* DeepEP: what came from the other nodes for this node's other
			 * GPUs goes on over NVLink (the NCCL pattern's PXN legs are not
			 * charged) */
			double fwd = r->req.dedup_topk > 0 && sh->nnodes > 1
			             ? (double)(sh->n - m) * chunk * (m - 1) / m : 0;
			int rc = coll__flow(r, sh->members[s + t], sh->members[s + (t + 1) % m], -1,
			                    (m - 1) * chunk + fwd, 0);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int a2a_phase(coll_run *r, int ph)
{
	(void)ph;
	const coll_shape *sh = &r->sh;
	double chunk = r->req.bytes / sh->n;
	/* a node-pair flow carries the ma x mb GPU pairs' traffic on one of the
	 * rails: so many connections of NCCL's, each with sockets of its own */
	int most = 1;
	for (int j = 0; j < sh->nnodes; j++)
		if (sh->node_start[j + 1] - sh->node_start[j] > most)
			most = sh->node_start[j + 1] - sh->node_start[j];
	r->conns_per_flow = fmax(1.0, (double)most * most / (sh->nrails > 0 ? sh->nrails : 1));
	int rc = a2a_intra(r, chunk);
	for (int ja = 0; !rc && ja < sh->nnodes; ja++)
		for (int jb = 0; !rc && jb < sh->nnodes; jb++) {
			if (ja == jb || (r->req.symmetric && ja != 0 && jb != 0))
				continue;
			int ma = sh->node_start[ja + 1] - sh->node_start[ja];
			int mb = sh->node_start[jb + 1] - sh->node_start[jb];
			double bytes = (double)ma * mb * chunk / sh->nrails * dedup_factor(r, mb);
			for (int ri = 0; !rc && ri < sh->nrails; ri++) {
				int rail = coll__ring_rail(sh, ri, ja, jb);
				int a = sh->members[sh->node_start[ja] + coll__ring_entry(sh, ja, ri)];
				int b = sh->members[sh->node_start[jb] + coll__ring_entry(sh, jb, ri)];
				rc = coll__flow(r, a, b, rail, bytes, 0);
			}
		}
	return rc;
}

static bool a2a_supports(const coll_shape *sh, coll_op op)
{
	(void)sh;
	return op == COLL_ALL_TO_ALL;
}

static double a2a_algbw(const coll_shape *sh, const coll_req *req)
{
	int n = sh->n, m = sh->ppn;
	double bw = n > 1 ? sh->intra_Bps * n / (n - 1) : INFINITY;
	if (sh->nnodes > 1 && n > m) {
		double f = 1;
		if (req->dedup_topk > 0)
			f = fmin(1.0, coll_a2a_node_share(req->dedup_topk, req->dedup_experts, sh->nnodes) *
			              n / ((double)req->dedup_topk * m));
		double net = sh->nrails * sh->nic_Bps * n / ((double)m * (n - m) * f);
		if (net < bw)
			bw = net;
	}
	return bw;
}

const coll_algo_ops coll__a2a = {
	ALGO_RING, "direct", a2a_supports, a2a_algbw, 1, a2a_phase,
};

/* send/recv: with 0 < root < n, ranks[0] sends S to ranks[root] (a pipeline
 * or point-to-point transfer); otherwise every rank sends S to the next one
 * (nccl-tests' sendrecv_perf ring shift). Each GPU uses its own NICs (all of
 * them towards the GPU of the same local index on another node). */
static int p2p_phase(coll_run *r, int ph)
{
	(void)ph;
	int n = r->req.n;
	if (r->req.root > 0 && r->req.root < n)
		return coll__flow_nics(r, r->req.ranks[0], r->req.ranks[r->req.root], r->req.bytes);
	for (int i = 0; i < n; i++) {
		int rc = coll__flow_nics(r, r->req.ranks[i], r->req.ranks[(i + 1) % n], r->req.bytes);
		if (rc)
			return rc;
	}
	return 0;
}

static bool p2p_supports(const coll_shape *sh, coll_op op)
{
	(void)sh;
	return op == COLL_SENDRECV;
}

static double p2p_algbw(const coll_shape *sh, const coll_req *req)
{
	(void)req;
	return sh->nnodes > 1 ? sh->nic_Bps * coll__nics_per_gpu(sh) : sh->intra_Bps;
}

const coll_algo_ops coll__p2p = {
	ALGO_RING, "p2p", p2p_supports, p2p_algbw, 1, p2p_phase,
};

/* gather/scatter (nccl-tests' gather_perf, scatter_perf: every rank sends
 * its S/n to the root, or the root S/n to every rank, as grouped sends):
 * one flow per rank and root NIC, to (from) the root. Across nodes a rank's
 * bytes go through the root's own NICs, over NVLink to the GPU on that rail
 * first where the rank is not on it (NCCL's PXN, cluster_route), so the
 * root's NICs carry all that crosses nodes, each pair a connection of its
 * own. */
static int rooted_phase(coll_run *r, int ph)
{
	(void)ph;
	const coll_shape *sh = &r->sh;
	int n = r->req.n, root = r->req.root >= 0 && r->req.root < n ? r->req.root : 0;
	int R = r->req.ranks[root], lo, k = topo_own_rails(R % sh->gpn, sh->gpn, sh->nics, &lo);
	double chunk = r->req.bytes / n;
	bool in = r->req.op == COLL_GATHER;
	for (int i = 0; i < n; i++) {
		int g = r->req.ranks[i];
		if (i == root || g == R)
			continue;
		bool across = g / sh->gpn != R / sh->gpn;
		for (int j = 0; j < (across ? k : 1); j++) {
			int rail = across ? lo + j : -1;
			double b = across ? chunk / k : chunk;
			int rc = in ? coll__flow(r, g, R, rail, b, 0) : coll__flow(r, R, g, rail, b, 0);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static bool rooted_supports(const coll_shape *sh, coll_op op)
{
	(void)sh;
	return op == COLL_GATHER || op == COLL_SCATTER;
}

/* S over the longer of the root's two shares: its node's other ranks' over
 * its intra-node link, the other nodes' over its NICs. */
static double rooted_algbw(const coll_shape *sh, const coll_req *req)
{
	int n = sh->n, root = req->root >= 0 && req->root < n ? req->root : 0;
	int j = sh->node_of_rank[root], m = sh->node_start[j + 1] - sh->node_start[j];
	double t = m > 1 ? (m - 1) / (n * sh->intra_Bps) : 0;
	if (n > m)
		t = fmax(t, (double)(n - m) / (n * sh->nic_Bps * coll__nics_per_gpu(sh)));
	return t > 0 ? 1 / t : INFINITY;
}

const coll_algo_ops coll__rooted = {
	ALGO_RING, "p2p", rooted_supports, rooted_algbw, 1, rooted_phase,
};
