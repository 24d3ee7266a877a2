/* coll_collnet.c: all_reduce with the switches reducing (InfiniBand SHARP,
 * NCCL's CollNet through the SHARP plugin; NCCL_COLLNET_ENABLE=1), as
 * NCCL's CollNetDirect runs it on NVSwitch nodes: inside each node the GPUs
 * reduce-scatter directly to one another, so that GPU l holds its node's sum
 * of slice l; every GPU sends that slice up the switches' aggregation tree
 * through its NIC once and receives the job's sum once; the node
 * all-gathers. The stages are pipelined over chunks, so their flows run at
 * once: per GPU 2 (ppn - 1) / ppn of S through NVLink each way, per NIC S /
 * rails each way, where a ring's NIC carries 2 (n - 1) / n of it (nearly
 * twice). The switches' arithmetic is not modelled beyond NCCL's own
 * efficiency for CollNetDirect on sm90 and later, x .85 (tuning.cc, "if
 * (minCompCap >= 90) busBw *= .85"): the flows never run faster than that
 * fraction of the slower stage. Inside the node's flows the network hop is
 * drawn between neighbouring nodes on each rail, so the fabric's links carry
 * the slices (the aggregation tree's switch-to-switch links carry one
 * reduced stream each, not modelled apart). Measured: 2 x 8 ... 64 x 8 B200
 * over 8 x NDR with SHARP (Together's report, tests/validation/blind11-nccl
 * .csv): 606 GB/s of bus bandwidth on 4 nodes, 546 on 64, where this gives
 * 619 and 638; 8 x 8 H100 (blind4 CWH100SHARP, CollNetChain) 387 at 8 GB,
 * this 354 (NVLink-bound). */
#include <math.h>
#include "coll_impl.h"

/* NCCL's CollNetDirect efficiency from sm90 (tuning.cc); 1 before. */
static double collnet_eff(const coll_shape *sh)
{
	return sh->arch == ARCH_HOPPER || sh->arch == ARCH_BLACKWELL ||
	       sh->arch == ARCH_BLACKWELL_RTX ? 0.85 : 1.0;
}

/* The slower stage, in bytes of S per second: a GPU's NVLink carrying
 * 2 (ppn - 1) / ppn of S, or the node's NICs carrying S. */
static double collnet_stage_Bps(const coll_shape *sh)
{
	double intra = sh->ppn > 1 ? sh->intra_Bps / (2.0 * (sh->ppn - 1) / sh->ppn) : INFINITY;
	double inter = sh->nrails * sh->nic_Bps;
	return intra < inter ? intra : inter;
}

static bool collnet_supports(const coll_shape *sh, coll_op op)
{
	return op == COLL_ALL_REDUCE && sh->sharp && sh->nnodes > 1 && sh->symmetric &&
	       !sh->mesh && (sh->ppn == 1 || sh->nvlink);
}

/* The flows' bound: the slower stage at NCCL's efficiency. */
static double collnet_flow_Bps(const coll_shape *sh)
{
	return collnet_stage_Bps(sh) * collnet_eff(sh);
}

/* NCCL's view, to choose as its tuner does: the same, divided by its
 * penalty where GPUs outnumber NICs ("Collnet+Direct requires all GPUs to
 * have a local NIC to work at full speed": factor = ppn / channels, less
 * half its excess over one). */
static double collnet_algbw(const coll_shape *sh, const coll_req *req)
{
	(void)req;
	double f = sh->nrails > 0 && sh->ppn > sh->nrails ? (double)sh->ppn / sh->nrails : 1;
	f -= (f - 1) / 2;
	return collnet_flow_Bps(sh) / f;
}

static int collnet_phase(coll_run *r, int ph)
{
	(void)ph;
	const coll_shape *sh = &r->sh;
	double t_min = r->req.bytes / collnet_flow_Bps(sh);
	/* the node's reduce-scatter and all-gather: each GPU's NVLink */
	for (int j = 0; j < sh->nnodes; j++) {
		int s = sh->node_start[j], m = sh->node_start[j + 1] - s;
		double bytes = r->req.bytes * 2.0 * (m - 1) / m;
		for (int i = 0; i < m && m > 1; i++) {
			int rc = coll__flow(r, sh->members[s + i], sh->members[s + (i + 1) % m], -1, bytes,
			                    bytes / t_min / r->payload);
			if (rc)
				return rc;
		}
	}
	/* each rail's slice up to the switches and the sum back down */
	double per_rail = r->req.bytes / sh->nrails;
	for (int ri = 0; ri < sh->nrails; ri++)
		for (int j = 0; j < sh->nnodes; j++) {
			int jn = (j + 1) % sh->nnodes;
			int a = sh->members[sh->node_start[j] + coll__ring_entry(sh, j, ri)];
			int b = sh->members[sh->node_start[jn] + coll__ring_entry(sh, jn, ri)];
			int rc = coll__flow(r, a, b, coll__ring_rail(sh, ri, j, jn), per_rail,
			                    per_rail / t_min / r->payload);
			if (rc)
				return rc;
		}
	return 0;
}

const coll_algo_ops coll__collnet = {
	ALGO_COLLNET, "collnet", collnet_supports, collnet_algbw, 1, collnet_phase,
};
