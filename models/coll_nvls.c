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
