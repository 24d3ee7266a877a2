/* topo_impl.h: what topo.c shares with the per-topology files (prefix topo__):
 * the cluster record and the table entry a topology fills. Not for other
 * modules: they use topo.h. */
#ifndef TRAINSIM_TOPO_IMPL_H
#define TRAINSIM_TOPO_IMPL_H

#include "topo.h"

/* One entry of the topology table (topo.c). A topology owns the fabric between
 * the NICs: it adds those links in build() and lists them in route(). */
typedef struct topo_ops {
	scn_topology kind;
	const char *name;       /* as written in scenario files */
	const char *what;       /* one line for `trainsim list topologies` */
	/* Adds the fabric links (leaves, spines, zones). 0 or -1 with err set. */
	int (*build)(cluster *cl, char *err, size_t errlen);
	/* Appends to links[n..max) the fabric links from NIC ra of node na to NIC
	 * rb of node nb (na != nb); returns the new count or -1. */
	int (*route)(const cluster *cl, int na, int ra, int nb, int rb, int *links, int n, int max);
	/* Appends the fabric links between NIC r of `node` and the storage system
	 * (attached at the spine / core); returns the new count or -1. */
	int (*route_storage)(const cluster *cl, int node, int r, bool to_storage, int *links,
	                     int n, int max);
} topo_ops;

struct cluster {
	scn_cluster spec;
	flownet *net;
	const topo_ops *ops;
	int nodes, gpn, nics, ngpus;
	double nvl_Bps;          /* achievable NVLink per GPU per direction */
	double pcie_Bps;         /* achievable PCIe x16 per direction */
	/* intra-node */
	int *gpu_up, *gpu_down;  /* GPU <-> NVSwitch (or aliases of pcie_* for PCIe nodes) */
	int *mesh;               /* nvlink-mesh, or the NVLink bridges of a PCIe node (within
	                          * a bridge group only): [gpu * gpn + local_b] link
	                          * gpu -> local_b; -1 where there is none */
	double bridge_Bps;       /* achievable over a GPU's bridges per direction; 0 = none */
	int *pcie_up, *pcie_down;/* GPU <-> PCIe switch (NICs, host memory) */
	int *shm_up, *shm_down;  /* without PCIe peer-to-peer (hw_intra_shm): each GPU's
	                          * share of its PCIe link that NCCL's SHM transport moves,
	                          * in series with it on GPU-to-GPU routes; NULL otherwise */
	int *nic_tx, *nic_rx;    /* [node * nics + rail]: NIC <-> its leaf */
	/* fabric, filled by the topology */
	int nleaves, nplanes, leaves_per_zone, zones;
	int *leaf_up, *leaf_down;/* [leaf * nplanes + plane] aggregated uplinks */
	int *zone_link;          /* [za * zones + zb] */
	/* storage */
	int stor_in, stor_out;   /* the storage system's aggregate links */
	int *fe_tx, *fe_rx;      /* per node: frontend NIC (or per-client limit) */
	int *nvme_rd, *nvme_wr;  /* per node local NVMe; -1 when no cache */
};

/* Helpers the topologies share (topo.c). */
int topo__link(cluster *cl, double cap_Bps, double lat_s, int fanin, int kind, char *err,
               size_t errlen);
/* Adds nleaves x nplanes leaf uplinks/downlinks of cap_Bps each, less the
 * fabric's background_load (the share other tenants' traffic takes). */
int topo__add_leaves(cluster *cl, int nleaves, int nplanes, double cap_Bps, char *err,
                     size_t errlen);
/* The job's placement in a leaf-spine (fat-tree, rail-optimized): the leaf
 * (or group of rail leaves) of `node`, and how many there are. packed:
 * consecutive nodes fill a leaf; spread: nodes dealt round-robin over
 * spec.fabric.leaves leaves (resolved by cluster_build). */
int topo__leaf_of(const cluster *cl, int node);
int topo__leaf_groups(const cluster *cl);
static inline int topo__push(int *links, int n, int max, int link)
{
	if (n < 0 || n >= max)
		return -1;
	links[n] = link;
	return n + 1;
}

extern const topo_ops topo__single, topo__fattree, topo__rail, topo__zones;

#endif
