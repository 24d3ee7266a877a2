/* coll_nvls.c: NVLink SHARP (NVLS) all_reduce inside one NVSwitch node. Each
 * GPU reads its 1/n slice reduced by the switch (the switch pulls that slice
 * from every GPU) and multicasts the result: per GPU and direction S (1 + 1/n)
 * bytes, the in-switch reduction running at nvls_eff of the NVLink rate
 * (NCCL nvlsEfficiency, cost-models 1.3; Calculon's S (1 + 1/n), 1.7). */
#include "coll_impl.h"

static int nvls_phase(coll_run *r, int ph)
{
	(void)ph;
	const coll_shape *sh = &r->sh;
	int n = sh->n;
	double bytes = r->req.bytes * (1.0 + 1.0 / n), cap = sh->intra_Bps * sh->nvls_eff;
	for (int i = 0; i < n; i++) {
		int rc = coll__flow(r, sh->members[i], sh->members[(i + 1) % n], -1, bytes, cap);
		if (rc)
			return rc;
	}
	return 0;
}

static bool nvls_supports(const coll_shape *sh, coll_op op)
{
	return op == COLL_ALL_REDUCE && sh->nnodes == 1 && sh->n >= 2 && sh->nvls_eff > 0;
}

static double nvls_algbw(const coll_shape *sh, const coll_req *req)
{
	(void)req;
	return sh->intra_Bps * sh->nvls_eff / (1.0 + 1.0 / sh->n);
}

const coll_algo_ops coll__nvls = {
	ALGO_NVLS, "nvls", nvls_supports, nvls_algbw, 1, nvls_phase,
};

/* NVLSTree (NCCL_ALGO_NVLS_TREE), what NCCL runs across NVSwitch nodes with
 * NVLink SHARP ("NVLS being used with single-node runs, NVLSTree with
 * multi-node": NVIDIA on nccl-tests #309): inside each node the GPUs reduce
 * through the switch, so that GPU l holds its node's sum of slice l; the
 * slices cross the nodes on their GPUs' NICs through the double binary trees
 * (coll_tree.c); the switch multicasts the result back. The three stages are
 * pipelined over chunks, so their flows run at once: per GPU S (1 + 1/ppn)
 * through the switch at nvls_eff, per NIC half a tree's load. On two nodes
 * each NIC carries its slice once each way, half of what a ring sends, so
 * the bus bandwidth passes the NICs' (469 GB/s measured on 2 x 8 H100 with 8
 * x 400 Gb/s, tests/validation/nccl-multinode.csv). From three nodes NCCL's
 * model gives NVLSTree the ring's inter-node bandwidth (interBw doubled for
 * two nodes only, tuning.cc), and the measured plateaus agree (4 nodes:
 * 358-366 GB/s, the ring's 364-369; 8: 320-391): there the slices cross the
 * nodes in a ring per rail carrying what a flat ring's NIC carries, 2 (n-1)
 * / n of the slice each way, where the binary trees' flows would credit an
 * interior node's lighter load that no measurement shows. */
static int nvlstree_phase(coll_run *r, int ph)
{
	(void)ph;
	const coll_shape *sh = &r->sh;
	for (int j = 0; j < sh->nnodes; j++) {
		int s = sh->node_start[j], m = sh->node_start[j + 1] - s;
		double bytes = r->req.bytes * (1.0 + 1.0 / m), cap = sh->intra_Bps * sh->nvls_eff;
		for (int i = 0; i < m && m > 1; i++) {
			int rc = coll__flow(r, sh->members[s + i], sh->members[s + (i + 1) % m], -1, bytes,
			                    cap);
			if (rc)
				return rc;
		}
	}
	double per_rail = r->req.bytes / sh->nrails;
	if (sh->nnodes == 2)
		return coll__tree_across(r, per_rail, 0);
	double edge = 2.0 * (sh->n - 1) / sh->n * per_rail;
	for (int ri = 0; ri < sh->nrails; ri++)
		for (int j = 0; j < sh->nnodes; j++) {
			int jn = (j + 1) % sh->nnodes;
			int a = sh->members[sh->node_start[j] + coll__ring_entry(sh, j, ri)];
			int b = sh->members[sh->node_start[jn] + coll__ring_entry(sh, jn, ri)];
			int rc = coll__flow(r, a, b, coll__ring_rail(sh, ri, j, jn), edge, 0);
			if (rc)
				return rc;
		}
	return 0;
}

static bool nvlstree_supports(const coll_shape *sh, coll_op op)
{
	return op == COLL_ALL_REDUCE && sh->nnodes > 1 && sh->ppn >= 2 && sh->symmetric &&
	       sh->nvls_eff > 0;
}

/* NCCL's perChMaxNVLSTreeBws, GB/s per channel (2 nodes / more), Hopper and
 * Blackwell (cost-models 1.3), over its NVLS channels. */
static double nvlstree_cap_bus(const coll_shape *sh)
{
	bool two = sh->nnodes <= 2;
	bool sm100 = sh->arch == ARCH_BLACKWELL || sh->arch == ARCH_BLACKWELL_RTX;
	double per = sm100 ? (two ? 96.0 : 80.0) : (two ? 57.7 : 45.5);
	return coll__nvls_channels(sh) * per * 1e9;
}

/* The switch (as NVLS inside one node) and the NICs (a slice once each way
 * on two nodes, twice from four). */
void coll__nvlstree_stages(const coll_shape *sh, double *intra_Bps, double *inter_Bps)
{
	*intra_Bps = sh->intra_Bps * sh->nvls_eff / (1.0 + 1.0 / sh->ppn);
	*inter_Bps = sh->nrails * sh->nic_Bps / (sh->nnodes <= 2 ? 1 : 2);
}

/* The slower of the two stages, capped as NCCL caps it. */
static double nvlstree_algbw(const coll_shape *sh, const coll_req *req)
{
	double intra, inter;
	coll__nvlstree_stages(sh, &intra, &inter);
	double bw = intra < inter ? intra : inter;
	double f = coll_busbw_factor(req->op, sh->n), cap = f > 0 ? nvlstree_cap_bus(sh) / f : bw;
	return bw < cap ? bw : cap;
}

const coll_algo_ops coll__nvlstree = {
	ALGO_NVLS_TREE, "nvlstree", nvlstree_supports, nvlstree_algbw, 1, nvlstree_phase,
};
