/* coll_hier.c: hierarchical all_reduce (Horovod / ml-engineering's two-level
 * scheme, cost-models 1.5): reduce-scatter inside each node on NVLink, an
 * all-reduce of each 1/m shard across nodes among the GPUs with the same
 * local index (each on its own NICs), then all-gather inside the node. The
 * phases run one after the other. */
#include <math.h>
#include "coll_impl.h"

/* Ring inside every node over its members, each edge `frac` of S. */
static int intra_ring(coll_run *r, double frac)
{
	const coll_shape *sh = &r->sh;
	for (int j = 0; j < sh->nnodes; j++) {
		int s = sh->node_start[j], m = sh->node_start[j + 1] - s;
		for (int t = 0; m > 1 && t < m; t++) {
			int rc = coll__flow(r, sh->members[s + t], sh->members[s + (t + 1) % m], -1,
			                    frac * r->req.bytes, 0);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* One ring across nodes per local index l, each edge 2(k-1)/k of S/m. */
static int inter_rings(coll_run *r)
{
	const coll_shape *sh = &r->sh;
	int k = sh->nnodes, m = sh->ppn;
	if (k < 2)
		return 0;
	double bytes = 2.0 * (k - 1) / k * r->req.bytes / m;
	for (int l = 0; l < m; l++)
		for (int j = 0; j < k; j++) {
			int a = sh->members[sh->node_start[j] + l];
			int b = sh->members[sh->node_start[(j + 1) % k] + l];
			int rc = coll__flow_nics(r, a, b, bytes);
			if (rc)
				return rc;
		}
	return 0;
}

static int hier_phase(coll_run *r, int ph)
{
	int m = r->sh.ppn;
	double frac = m > 1 ? (double)(m - 1) / m : 0;
	if (ph == 1)
		return inter_rings(r);
	return intra_ring(r, frac);
}

static bool hier_supports(const coll_shape *sh, coll_op op)
{
	return op == COLL_ALL_REDUCE && sh->symmetric;
}

static double hier_algbw(const coll_shape *sh, const coll_req *req)
{
	(void)req;
	int m = sh->ppn, k = sh->nnodes;
	double t = 0;
	if (m > 1)
		t += 2.0 * (m - 1) / m / sh->intra_Bps;
	if (k > 1)
		t += 2.0 * (k - 1) / k / m / (sh->nic_Bps * coll__nics_per_gpu(sh));
	return t > 0 ? 1.0 / t : INFINITY;
}

const coll_algo_ops coll__hier = {
	ALGO_HIERARCHICAL, "hierarchical", hier_supports, hier_algbw, 3, hier_phase,
};
