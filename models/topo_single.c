/* topo_single.c: every NIC on one non-blocking switch. The switch hop is the
 * latency of the NIC's receive link; there are no fabric links of its own. */
#include "topo_impl.h"

static int single_build(cluster *cl, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	cl->nleaves = 1;
	cl->nplanes = 1;
	return 0;
}

static int single_route(const cluster *cl, int na, int ra, int nb, int rb, int *links, int n,
                        int max)
{
	(void)cl; (void)na; (void)ra; (void)nb; (void)rb; (void)links; (void)max;
	return n;
}

static int single_storage(const cluster *cl, int node, int r, bool to_storage, int *links,
                          int n, int max)
{
	(void)cl; (void)node; (void)r; (void)to_storage; (void)links; (void)max;
	return n;
}

const topo_ops topo__single = {
	TOPO_SINGLE_SWITCH, "single-switch",
	"all NICs on one non-blocking switch",
	single_build, single_route, single_storage,
};
