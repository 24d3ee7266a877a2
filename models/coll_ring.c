/* coll_ring.c: ring all_reduce / all_gather / reduce_scatter / broadcast /
 * reduce. Across nodes there is one ring per rail, as NCCL's channels: ring r
 * enters every node on the GPU of rail r, visits the node's members over
 * NVLink and leaves through NIC r (PXN moves the data to that NIC's GPU), each
 * ring carrying 1/nrails of the buffer; a single ring through all GPUs would
 * push a node's traffic through one NIC. On an NVLink mesh the single-node
 * case sends directly to every peer, so that all links are used. */
#include <math.h>
#include "coll_impl.h"

int coll__ring_entry(const coll_shape *sh, int j, int ring)
{
	int m = sh->node_start[j + 1] - sh->node_start[j];
	if (sh->nnodes == 1 || m <= 1)
		return 0;
	return sh->entry[j * sh->rails_stride + ring % sh->nrails_node[j]];
}

int coll__ring_rail(const coll_shape *sh, int ring, int ja, int jb)
{
	const int *ra = sh->rails + ja * sh->rails_stride, *rb = sh->rails + jb * sh->rails_stride;
	int a = ra[ring % sh->nrails_node[ja]], b = rb[ring % sh->nrails_node[jb]];
	return a == b ? a : -1;
}

/* Bytes each ring edge carries (of one ring). */
static double edge_bytes(const coll_run *r)
{
	int n = r->sh.n;
	double s = r->req.bytes / r->sh.nrails;
	switch (r->req.op) {
	case COLL_ALL_REDUCE:
		return 2.0 * (n - 1) / n * s;
	case COLL_ALL_GATHER:
	case COLL_REDUCE_SCATTER:
		return (double)(n - 1) / n * s;
	default:
		return s;
	}
}

static int mesh_direct(coll_run *r)
{
	const coll_shape *sh = &r->sh;
	int n = sh->n, root = r->req.ranks[r->req.root >= 0 && r->req.root < n ? r->req.root : 0];
	double per = r->req.op == COLL_ALL_REDUCE ? 2.0 * r->req.bytes / n
	           : r->req.op == COLL_BROADCAST || r->req.op == COLL_REDUCE ? r->req.bytes
	           : r->req.bytes / n;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int a = sh->members[i], b = sh->members[j];
			if (i == j || (r->req.op == COLL_BROADCAST && a != root) ||
			    (r->req.op == COLL_REDUCE && b != root))
				continue;
			int rc = coll__flow(r, a, b, -1, per, 0);
			if (rc)
				return rc;
		}
	return 0;
}

/* Edge a->b of a ring, unless broadcast/reduce skip it (the edge into the
 * root for broadcast, out of the root for reduce). */
static int ring_edge(coll_run *r, int a, int b, int rail, double bytes)
{
	int root = r->req.ranks[r->req.root >= 0 && r->req.root < r->req.n ? r->req.root : 0];
	if ((r->req.op == COLL_BROADCAST && b == root) || (r->req.op == COLL_REDUCE && a == root))
		return 0;
	return coll__flow(r, a, b, rail, bytes, 0);
}

static int ring_phase(coll_run *r, int ph)
{
	(void)ph;
	const coll_shape *sh = &r->sh;
	if (sh->nnodes == 1 && sh->mesh && sh->n > 2)
		return mesh_direct(r);
	double bytes = edge_bytes(r);
	for (int ring = 0; ring < sh->nrails; ring++)
		for (int j = 0; j < sh->nnodes; j++) {
			int s = sh->node_start[j], m = sh->node_start[j + 1] - s;
			int e = coll__ring_entry(sh, j, ring);
			int jn = (j + 1) % sh->nnodes;
			int next_entry = sh->members[sh->node_start[jn] + coll__ring_entry(sh, jn, ring)];
			for (int t = 0; t < m; t++) {
				int a = sh->members[s + (e + t) % m], b, rail = -1;
				if (t < m - 1)
					b = sh->members[s + (e + t + 1) % m];
				else {
					b = next_entry;
					if (jn != j)
						rail = coll__ring_rail(sh, ring, j, jn);
				}
				int rc = ring_edge(r, a, b, rail, bytes);
				if (rc)
					return rc;
			}
		}
	return 0;
}

static bool ring_supports(const coll_shape *sh, coll_op op)
{
	(void)sh;
	return op == COLL_ALL_REDUCE || op == COLL_ALL_GATHER || op == COLL_REDUCE_SCATTER ||
	       op == COLL_BROADCAST || op == COLL_REDUCE;
}

/* busbw = the slowest of a GPU's intra-node bandwidth and the node's NICs on
 * the rails in use (each NIC carries 1/nrails of what a GPU sends). */
static double ring_algbw(const coll_shape *sh, const coll_req *req)
{
	double bus = sh->ppn > 1 || sh->nnodes == 1 ? sh->intra_Bps : INFINITY;
	if (sh->nnodes > 1 && sh->nrails * sh->nic_Bps < bus)
		bus = sh->nrails * sh->nic_Bps;
	double f = coll_busbw_factor(req->op, sh->n);
	return f > 0 ? bus / f : bus;
}

const coll_algo_ops coll__ring = {
	ALGO_RING, "ring", ring_supports, ring_algbw, 1, ring_phase,
};
