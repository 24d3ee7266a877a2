/* topo_zones.c: availability zones or regions. Nodes split evenly over
 * `zones`; inside a zone a leaf-spine as in topo_fattree.c; zones are joined
 * pairwise by links of zone_bandwidth per direction and zone_latency (the
 * WAN). Storage lives in zone 0. */
#include <stdio.h>
#include <stdlib.h>
#include "topo_impl.h"


static int zone_start(const cluster *cl, int z)
{
	return (int)(((long long)z * cl->nodes + cl->zones - 1) / cl->zones);
}

static int zleaf(const cluster *cl, int node)
{
	int z = cluster_zone_of(cl, node);
	return z * cl->leaves_per_zone + (node - zone_start(cl, z)) / cl->spec.fabric.nodes_per_leaf;
}

static int zones_build(cluster *cl, char *err, size_t errlen)
{
	const scn_fabric *f = &cl->spec.fabric;
	int z = f->zones < 1 ? 1 : f->zones > cl->nodes ? cl->nodes : f->zones;
	if (z > 1 && f->zone_bandwidth_Bps <= 0) {
		snprintf(err, errlen, "topology zones needs fabric.zone_bandwidth (e.g. 100Gbps)");
		return -1;
	}
	cl->zones = z;
	int biggest = (cl->nodes + z - 1) / z;
	int npl = f->nodes_per_leaf < biggest ? f->nodes_per_leaf : biggest;
	cl->spec.fabric.nodes_per_leaf = npl;
	cl->leaves_per_zone = (biggest + npl - 1) / npl;
	double cap = npl * cl->spec.nic.speed_Bps / f->oversubscription;
	if (topo__add_leaves(cl, z * cl->leaves_per_zone, cl->nics, cap, err, errlen))
		return -1;
	cl->zone_link = malloc((size_t)z * (size_t)z * sizeof(int));
	if (!cl->zone_link) {
		snprintf(err, errlen, "out of memory for zone links");
		return -1;
	}
	for (int a = 0; a < z; a++)
		for (int b = 0; b < z; b++) {
			cl->zone_link[a * z + b] = -1;
			if (a == b)
				continue;
			/* every rail of every node may cross: a shared, aggregated link
			 * that each sibling a flow stands for loads, whatever its rail */
			cl->zone_link[a * z + b] = topo__link(cl, f->zone_bandwidth_Bps,
				f->zone_latency_s, cl->nodes * cl->gpn, LINK_ZONE, err, errlen);
			if (cl->zone_link[a * z + b] < 0)
				return -1;
		}
	return 0;
}

static int zones_route(const cluster *cl, int na, int ra, int nb, int rb, int *links, int n,
                       int max)
{
	(void)rb;
	int la = zleaf(cl, na), lb = zleaf(cl, nb), p = ra % cl->nplanes;
	if (la == lb)
		return n;
	int za = cluster_zone_of(cl, na), zb = cluster_zone_of(cl, nb);
	n = topo__push(links, n, max, cl->leaf_up[la * cl->nplanes + p]);
	if (za != zb)
		n = topo__push(links, n, max, cl->zone_link[za * cl->zones + zb]);
	return topo__push(links, n, max, cl->leaf_down[lb * cl->nplanes + p]);
}

static int zones_storage(const cluster *cl, int node, int r, bool to_storage, int *links, int n,
                         int max)
{
	int l = zleaf(cl, node) * cl->nplanes + r % cl->nplanes, z = cluster_zone_of(cl, node);
	if (to_storage) {
		n = topo__push(links, n, max, cl->leaf_up[l]);
		return z ? topo__push(links, n, max, cl->zone_link[z * cl->zones]) : n;
	}
	if (z)
		n = topo__push(links, n, max, cl->zone_link[z]);
	return topo__push(links, n, max, cl->leaf_down[l]);
}

const topo_ops topo__zones = {
	TOPO_ZONES, "zones",
	"nodes split over zones (leaf-spine inside each), zones joined by zone links",
	zones_build, zones_route, zones_storage,
};
