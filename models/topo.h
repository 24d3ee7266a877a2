/* topo.h: the cluster as a network. A topology (one file each, registered in
 * topo.c's table) turns scn_cluster into links of a flownet and answers
 * routes between any two GPUs. GPUs are numbered node-major:
 * gpu = node * gpus_per_node + local. */
#ifndef TRAINSIM_TOPO_H
#define TRAINSIM_TOPO_H

#include <stdio.h>
#include "flow.h"
#include "scenario.h"

/* Link kinds, for reports and for choosing NCCL per-hop latencies. */
enum { LINK_NVLINK, LINK_PCIE, LINK_NIC, LINK_FABRIC, LINK_ZONE, LINK_STORAGE, LINK__N };

typedef struct cluster cluster;

/* Builds the links of `c` into `net` (not owned). Returns NULL and writes a
 * message to err (file:line:col is the caller's) on bad combinations. */
cluster *cluster_build(const scn_cluster *c, flownet *net, char *err, size_t errlen);
void cluster_free(cluster *cl);

const scn_cluster *cluster_spec(const cluster *cl);
flownet *cluster_net(const cluster *cl);
int cluster_gpus(const cluster *cl);
int cluster_nodes(const cluster *cl);
int cluster_gpus_per_node(const cluster *cl);
static inline int cluster_node_of(const cluster *cl, int gpu)
{
	return gpu / cluster_gpus_per_node(cl);
}
/* NIC (rail) a GPU uses by default: local * nics / gpus_per_node. */
int cluster_rail_of(const cluster *cl, int gpu);
/* The availability zone of a node (nodes split evenly, in order); 0 on a
 * topology without zones. */
int cluster_zone_of(const cluster *cl, int node);
/* NICs per node (>= 1), and the GPU of `node` that sits next to NIC `rail`
 * (the one PXN moves data to): node * gpn + rail * gpn / nics. */
int cluster_nics(const cluster *cl);
/* GPUs that share one NIC: ceil(gpus_per_node / nics), 1 when every GPU has
 * its own. It is the NIC links' fanin: a flow standing for `mult` tensor-
 * parallel siblings (contiguous GPUs) loads its NIC min(mult, this) times. */
int cluster_gpus_per_nic(const cluster *cl);
int cluster_rail_gpu(const cluster *cl, int node, int rail);
/* The NICs GPU `local` (of gpn) owns among nics: from its own, local x nics
 * / gpn (*first), up to the next GPU's; one (shared) when there are fewer
 * NICs than GPUs. Returns how many (>= 1). The one definition of ownership,
 * for the cluster (cluster_gpu_has_rail) and the collectives' shapes. */
static inline int topo_own_rails(int local, int gpn, int nics, int *first)
{
	int lo = local * nics / gpn, hi = (local + 1) * nics / gpn;
	*first = lo;
	return hi > lo ? hi - lo : 1;
}

/* Whether `rail` is one of the GPU's own NICs, reached over its PCIe switch
 * without PXN: its cluster_rail_of when GPUs share or have one NIC, and
 * each of its nics / gpus_per_node NICs when a node has more NICs than GPUs
 * (16 x 100 Gb/s for 8 GPUs, AWS p5's 32 EFA NICs): NCCL spreads a GPU's
 * channels over all of them. */
bool cluster_gpu_has_rail(const cluster *cl, int gpu, int rail);
/* Achievable intra-node bandwidth of one GPU per direction (bytes/s): NVLink
 * raw x nvlink_eff for NVSwitch and mesh nodes (all its links), PCIe
 * otherwise. */
double cluster_intra_Bps(const cluster *cl);
/* A GPU's PCIe link (to its NICs), bytes/s. */
double cluster_pcie_Bps(const cluster *cl);
/* The same from the spec, before any cluster is built. */
double cluster_spec_intra_Bps(const scn_cluster *c);
/* Whether a node's GPUs talk through host memory (NCCL's SHM transport) more
 * slowly than one of its NICs carries a communicator of `ppn` GPUs a node:
 * a ring across such nodes waits for the copies inside them, not the wire. */
bool cluster_shm_below_nic(const scn_cluster *c, int ppn);
/* The PCIe link between a GPU and its NICs, per NIC, when it moves less
 * than the NIC's line rate x its efficiency (one GPU a node): a 400 Gb/s NIC
 * behind an A100's Gen4 x16 link moves that link's 27 GB/s, not 47; two
 * NICs a GPU share its link. 0 when the NIC binds first. */
double cluster_spec_pcie_below_nic(const scn_cluster *c);
/* The whole PCIe link between a GPU and the host (its NICs), and its name
 * for a sentence ("PCIe Gen5 link", or "PCIe link" where
 * intra_node.bandwidth sets it). */
double cluster_spec_gpu_link_Bps(const scn_cluster *c);
const char *cluster_spec_gpu_link_name(const scn_cluster *c, char *buf, size_t n);
/* Sibling communicators sharing one of a node's NICs: a DP group's beside
 * each of its tp x cp ranks, at most the GPUs behind a NIC (coll.c's mult). */
int cluster_spec_nic_siblings(const scn_cluster *c, int tp_cp);
/* Whether NCCL's sockets, not the wire, bound each of `sib` sibling
 * communicators of `ppn` GPUs a node through a NIC over TCP (NCCL's own ring
 * or tree: a hierarchical scheme's rings have sockets of their own). */
bool cluster_sockets_bind(const scn_cluster *c, int ppn, int sib);
/* What one GPU moves to the others of a group of `gpus` consecutive GPUs
 * of its node, the groups aligned on multiples of `gpus` (TP groups): over
 * its NVLink bridges when every such group fits in one bridge group
 * (intra_node.nvlink_bridge, a multiple of gpus; a pair of a 4-way group
 * has a third of a GPU's bridges), else cluster_spec_intra_Bps. */
double cluster_spec_group_Bps(const scn_cluster *c, int gpus);
/* Whether GPUs a and b are joined by one NVLink bridge group. */
bool cluster_same_bridge(const cluster *cl, int a, int b);
/* Achievable over one GPU's NVLink bridges per direction; 0 = none. */
double cluster_bridge_Bps(const cluster *cl);

/* Route from GPU a to GPU b into links[0..max-1]; returns the number of links
 * or a negative error. Between nodes, `rail` >= 0 sends through that NIC of
 * both nodes (moving over NVLink to the GPU on that rail first, as NCCL's PXN
 * does); rail < 0 uses each GPU's own NIC. */
int cluster_route(const cluster *cl, int a, int b, int rail, int *links, int max);
/* Per-flow rate cap (bytes/s) for a flow between a and b: the NIC's
 * achievable fraction of line rate when the route leaves the node, the
 * intra-node achievable bandwidth otherwise. */
double cluster_flow_cap(const cluster *cl, int a, int b);
/* Same, when `gpus_sharing` GPUs of the node take part in the communicator
 * (TCP's achievable fraction falls with it, hw_nic_efficiency);
 * cluster_flow_cap assumes the whole node. */
double cluster_flow_cap_shared(const cluster *cl, int a, int b, int gpus_sharing);
/* Sum of link latencies along the route a->b. */
double cluster_route_latency(const cluster *cl, int a, int b, int rail);

/* Route between a GPU's node and the storage system (reads: storage -> gpu).
 * Uses the frontend NIC or the training NICs per c->storage.network. */
int cluster_route_storage(const cluster *cl, int gpu, bool to_storage, int *links, int max);
/* Route between a GPU and its node's local NVMe cache / host memory. */
int cluster_route_local(const cluster *cl, int gpu, bool to_gpu, bool nvme, int *links, int max);

/* Registered topologies, for `trainsim list topologies`. */
void topo_list(FILE *out);
const char *topo_name(scn_topology t);
/* The links a node's GPUs talk over, in words for reports: "PCIe", "an
 * NVLink mesh", "NVLink through NVSwitch" (as cluster_build makes them). */
const char *cluster_intra_phrase(const scn_cluster *c);

/* Appends route b[0..nb-1] to a[0..na-1], skipping links already in a (a
 * storage route may already end on the GPU's PCIe link) and stopping at max.
 * Returns the new length. */
int cluster_route_append(int *a, int na, const int *b, int nb, int max);

#define CLUSTER_MAX_ROUTE 16

#endif
