/* topo_rail.c: rail-optimized. Nodes come in groups of nodes_per_leaf (which
 * nodes: topo__leaf_of, packed or spread); NIC k of every node of a group sits
 * on the group's leaf k ("rail k"). Same rail, same group: one leaf hop.
 * Another rail or group: leaf -> spine -> leaf, through the leaf's uplinks
 * (nodes_per_leaf * speed / oversubscription, less the background load). */
#include "topo_impl.h"

static int rail_leaf(const cluster *cl, int node, int rail)
{
	return topo__leaf_of(cl, node) * cl->nics + rail;
}

static int rail_build(cluster *cl, char *err, size_t errlen)
{
	int npl = cl->spec.fabric.nodes_per_leaf;
	int groups = topo__leaf_groups(cl);
	double cap = npl * cl->spec.nic.speed_Bps / cl->spec.fabric.oversubscription;
	return topo__add_leaves(cl, groups * cl->nics, 1, cap, err, errlen);
}

static int rail_route(const cluster *cl, int na, int ra, int nb, int rb, int *links, int n,
                      int max)
{
	int la = rail_leaf(cl, na, ra), lb = rail_leaf(cl, nb, rb);
	if (la == lb)
		return n;
	n = topo__push(links, n, max, cl->leaf_up[la]);
	return topo__push(links, n, max, cl->leaf_down[lb]);
}

static int rail_storage(const cluster *cl, int node, int r, bool to_storage, int *links, int n,
                        int max)
{
	int l = rail_leaf(cl, node, r);
	return topo__push(links, n, max, to_storage ? cl->leaf_up[l] : cl->leaf_down[l]);
}

const topo_ops topo__rail = {
	TOPO_RAIL_OPTIMIZED, "rail-optimized",
	"NIC k of each group of nodes_per_leaf nodes on leaf k; cross-rail traffic via the spine",
	rail_build, rail_route, rail_storage,
};
