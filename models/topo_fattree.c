/* topo_fattree.c: two-tier leaf-spine. nodes_per_leaf nodes (all their NICs)
 * hang off one leaf (which nodes: topo__leaf_of, packed or spread); a leaf's
 * uplinks carry nodes_per_leaf * nics * speed / oversubscription (less the
 * background load of other tenants). They are kept as one aggregated link per spine plane
 * (planes = NICs per node), and a flow on rail r always takes plane r: a
 * deterministic, even ECMP spread, O(leaves * nics) links in all. */
#include <stdio.h>
#include "topo_impl.h"

static int ft_build(cluster *cl, char *err, size_t errlen)
{
	int npl = cl->spec.fabric.nodes_per_leaf;
	int leaves = topo__leaf_groups(cl);
	double cap = npl * cl->spec.nic.speed_Bps / cl->spec.fabric.oversubscription;
	if (leaves == 1) {          /* one leaf: it is a single switch */
		cl->nleaves = 1;
		cl->nplanes = cl->nics;
		return 0;
	}
	return topo__add_leaves(cl, leaves, cl->nics, cap, err, errlen);
}

static int ft_route(const cluster *cl, int na, int ra, int nb, int rb, int *links, int n,
                    int max)
{
	(void)rb;
	int la = topo__leaf_of(cl, na), lb = topo__leaf_of(cl, nb);
	if (la == lb)
		return n;
	int p = ra % cl->nplanes;
	n = topo__push(links, n, max, cl->leaf_up[la * cl->nplanes + p]);
	return topo__push(links, n, max, cl->leaf_down[lb * cl->nplanes + p]);
}

/* Storage hangs off the spine: one leaf uplink away (none with one leaf). */
static int ft_storage(const cluster *cl, int node, int r, bool to_storage, int *links, int n,
                      int max)
{
	if (!cl->leaf_up)
		return n;
	int i = topo__leaf_of(cl, node) * cl->nplanes + r % cl->nplanes;
	return topo__push(links, n, max, to_storage ? cl->leaf_up[i] : cl->leaf_down[i]);
}

const topo_ops topo__fattree = {
	TOPO_FAT_TREE, "fat-tree",
	"two-tier leaf-spine: nodes_per_leaf nodes per leaf, leaf uplinks / oversubscription",
	ft_build, ft_route, ft_storage,
};
