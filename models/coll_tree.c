/* coll_tree.c: NCCL's double binary tree all_reduce. Inside a node a chain
 * from the head GPU (the one on the tree's rail); across nodes two binary
 * trees, the second mirrored so that most nodes are a leaf in one of them,
 * each carrying half the buffer, reduce up and broadcast down pipelined (all
 * edges busy at once). One such pair of trees per rail, each with 1/nrails.
 * A NIC carries 2 S / nrails per direction (S / nrails with two nodes: the
 * "2x network bandwidth" special case, NVIDIA/nccl #209). No faster than
 * NCCL's per-channel tree cap lets it (coll__tree_cap_bus): every flow takes
 * at least the time the capped bandwidth needs for the whole buffer. */
#include <math.h>
#include "coll_impl.h"

static int head_of(const coll_shape *sh, int j, int rail_idx)
{
	return sh->members[sh->node_start[j] + coll__ring_entry(sh, j, rail_idx)];
}

/* The wire-rate cap that makes a flow of `bytes` last at least t_min
 * seconds (0 = no cap). */
static double least_time_cap(const coll_run *r, double bytes, double t_min)
{
	return t_min > 0 ? bytes / t_min / r->payload : 0;
}

static int chain_flows(coll_run *r, int j, int ri, double bytes, double t_min)
{
	const coll_shape *sh = &r->sh;
	int s = sh->node_start[j], m = sh->node_start[j + 1] - s, e = coll__ring_entry(sh, j, ri);
	for (int t = 0; t + 1 < m; t++) {
		int a = sh->members[s + (e + t) % m], b = sh->members[s + (e + t + 1) % m];
		double cap = least_time_cap(r, bytes, t_min);
		int rc = coll__flow(r, a, b, -1, bytes, cap);   /* broadcast down */
		if (!rc)
			rc = coll__flow(r, b, a, -1, bytes, cap);   /* reduce up */
		if (rc)
			return rc;
	}
	return 0;
}

/* Parent of node position i in tree tt (tree 1 mirrors tree 0). */
static void tree_edge(int k, int tt, int i, int *child, int *parent)
{
	int p = (i - 1) / 2;
	*child = tt ? k - 1 - i : i;
	*parent = tt ? k - 1 - p : p;
}

int coll__tree_across(coll_run *r, double per_rail, double t_min)
{
	const coll_shape *sh = &r->sh;
	int k = sh->nnodes;
	double cap = least_time_cap(r, per_rail / 2, t_min);
	for (int ri = 0; ri < sh->nrails; ri++)
		for (int tt = 0; tt < 2 && k > 1; tt++)
			for (int i = 1; i < k; i++) {
				int c, p;
				tree_edge(k, tt, i, &c, &p);
				int hc = head_of(sh, c, ri), hp = head_of(sh, p, ri);
				int rail = coll__ring_rail(sh, ri, c, p);
				int rc = coll__flow(r, hc, hp, rail, per_rail / 2, cap);
				if (!rc)
					rc = coll__flow(r, hp, hc, rail, per_rail / 2, cap);
				if (rc)
					return rc;
			}
	return 0;
}

static int tree_phase(coll_run *r, int ph)
{
	(void)ph;
	const coll_shape *sh = &r->sh;
	double per_rail = r->req.bytes / sh->nrails, cap = coll__tree_cap_bus(sh);
	double t_min = cap > 0 ? r->req.bytes / (cap / 2) : 0;   /* algBw = busBw / 2 */
	for (int ri = 0; ri < sh->nrails; ri++)
		for (int j = 0; j < sh->nnodes; j++) {
			int rc = chain_flows(r, j, ri, per_rail, t_min);
			if (rc)
				return rc;
		}
	return coll__tree_across(r, per_rail, t_min);
}

static bool tree_supports(const coll_shape *sh, coll_op op)
{
	(void)sh;
	return op == COLL_ALL_REDUCE;
}

/* NCCL's own view, used to choose like its tuner: the ring's bus bandwidth
 * over two (tuning.cc converts a tree's busBw to algBw with ratio 0.5). It
 * does not credit the two-node case, and neither does NCCL's model; the
 * flows still deliver it when a tree runs, up to the cap. The cap is taken
 * before the tuner's x .92 (coll__tuner_factor), as tuning.cc takes
 * min(.92 busBw, cap). */
static double tree_algbw(const coll_shape *sh, const coll_req *req)
{
	(void)req;
	double bus = sh->ppn > 1 || sh->nnodes == 1 ? sh->intra_Bps : INFINITY;
	if (sh->nnodes > 1 && sh->nrails * sh->nic_Bps < bus)
		bus = sh->nrails * sh->nic_Bps;
	double cap = coll__tree_cap_bus(sh) / 0.92;
	if (cap > 0 && cap < bus)
		bus = cap;
	return bus / 2;
}

const coll_algo_ops coll__tree = {
	ALGO_TREE, "tree", tree_supports, tree_algbw, 1, tree_phase,
};
