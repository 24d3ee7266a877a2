/* coll_ps.c: parameter-server all_reduce. ps_servers shards live on GPUs
 * spread over the ranks (their hosts act as servers); every worker pushes
 * S/ps to each shard, then pulls S/ps back once all pushes have arrived. A
 * shard's NIC receives (n-1) S/ps: the incast that makes a parameter server
 * slower than a ring, which spreads 2(n-1)/n S over every NIC. */
#include "coll_impl.h"

static int ps_count(const coll_run *r)
{
	int ps = r->req.ps_servers;
	return ps < 1 ? 1 : ps > r->sh.n ? r->sh.n : ps;
}

static int ps_phase(coll_run *r, int ph)
{
	int n = r->sh.n, ps = ps_count(r);
	double bytes = r->req.bytes / ps;
	for (int j = 0; j < ps; j++) {
		int server = r->req.ranks[(int)((long long)j * n / ps)];
		for (int i = 0; i < n; i++) {
			int w = r->req.ranks[i];
			int rc = ph == 0 ? coll__flow(r, w, server, -1, bytes, 0)
			                 : coll__flow(r, server, w, -1, bytes, 0);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static bool ps_supports(const coll_shape *sh, coll_op op)
{
	(void)sh;
	return op == COLL_ALL_REDUCE;
}

static double ps_algbw(const coll_shape *sh, const coll_req *req)
{
	int ps = req->ps_servers < 1 ? 1 : req->ps_servers > sh->n ? sh->n : req->ps_servers;
	double b = sh->nnodes > 1 ? sh->nic_Bps : sh->intra_Bps;
	return sh->n > 1 ? b * ps / (2.0 * (sh->n - 1)) : b;
}

const coll_algo_ops coll__ps = {
	ALGO_PS, "ps", ps_supports, ps_algbw, 2, ps_phase,
};
