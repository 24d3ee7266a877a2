/* topo.c: the cluster builder. It adds the links every topology shares (NVLink
 * or PCIe inside a node, the GPU<->NIC PCIe path, the NICs, storage and local
 * NVMe), lets the topology of the scenario (one table below) add the fabric,
 * and answers routes. Link counts stay O(nodes * (gpus + nics)). */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "topo_impl.h"

/* The topology table: adding one is one file and one line here. */
static const topo_ops *const topologies[] = {
	&topo__single, &topo__fattree, &topo__rail, &topo__zones,
};
#define NTOPO (sizeof topologies / sizeof topologies[0])

/* Stand-in for "no limit" on links that a scenario leaves unbounded. */
#define UNLIMITED_Bps 1e15

static const topo_ops *topo_find(scn_topology t)
{
	for (size_t i = 0; i < NTOPO; i++)
		if (topologies[i]->kind == t)
			return topologies[i];
	return NULL;
}

const char *topo_name(scn_topology t)
{
	const topo_ops *o = topo_find(t);
	return o ? o->name : "?";
}

void topo_list(FILE *out)
{
	for (size_t i = 0; i < NTOPO; i++)
		fprintf(out, "%-16s %s\n", topologies[i]->name, topologies[i]->what);
}

int topo__link(cluster *cl, double cap_Bps, double lat_s, int fanin, int kind, char *err,
               size_t errlen)
{
	int id = flow_link_add(cl->net, cap_Bps, lat_s < 0 ? 0 : lat_s, fanin < 1 ? 1 : fanin, kind);
	if (id < 0)
		snprintf(err, errlen, "cannot add a link (capacity %g B/s): out of memory or bad value",
			 cap_Bps);
	return id;
}

int topo__add_leaves(cluster *cl, int nleaves, int nplanes, double cap_Bps, char *err,
                     size_t errlen)
{
	size_t n = (size_t)nleaves * (size_t)nplanes;
	cl->nleaves = nleaves;
	cl->nplanes = nplanes;
	cl->leaf_up = malloc(n * sizeof(int));
	cl->leaf_down = malloc(n * sizeof(int));
	if (!cl->leaf_up || !cl->leaf_down) {
		snprintf(err, errlen, "out of memory for %zu leaf links", n);
		return -1;
	}
	double sw = cl->spec.fabric.switch_latency_s;
	cap_Bps *= 1 - cl->spec.fabric.background_load;
	/* a flow standing for tensor-parallel siblings loads a plane's uplink
	 * once per sibling on that plane's NIC, as it loads the NIC itself */
	int fan = cluster_gpus_per_nic(cl);
	for (size_t i = 0; i < n; i++) {
		/* up: the spine hop; down: the destination leaf hop */
		cl->leaf_up[i] = topo__link(cl, cap_Bps, sw, fan, LINK_FABRIC, err, errlen);
		cl->leaf_down[i] = topo__link(cl, cap_Bps, sw, fan, LINK_FABRIC, err, errlen);
		if (cl->leaf_up[i] < 0 || cl->leaf_down[i] < 0)
			return -1;
	}
	return 0;
}

int topo__leaf_of(const cluster *cl, int node)
{
	const scn_fabric *f = &cl->spec.fabric;
	return f->placement == FABRIC_SPREAD ? node % f->leaves : node / f->nodes_per_leaf;
}

int topo__leaf_groups(const cluster *cl)
{
	const scn_fabric *f = &cl->spec.fabric;
	return f->placement == FABRIC_SPREAD ? f->leaves
	     : (cl->nodes + f->nodes_per_leaf - 1) / f->nodes_per_leaf;
}

/* Resolves the placement keys once nodes_per_leaf is clamped: the spread
 * job's leaf count (default: as few leaves as packed uses) and the
 * background load. A job may not need more nodes than its leaves hold. */
static int resolve_placement(scn_fabric *f, int nodes, char *err, size_t errlen)
{
	if (f->background_load < 0)
		f->background_load = 0;
	if (f->background_load > 0.95)
		f->background_load = 0.95;
	if (f->placement != FABRIC_SPREAD)
		return 0;
	if (f->leaves < 1)
		f->leaves = (nodes + f->nodes_per_leaf - 1) / f->nodes_per_leaf;
	if (f->leaves > nodes)
		f->leaves = nodes;
	if ((long long)f->leaves * f->nodes_per_leaf < nodes) {
		snprintf(err, errlen, "fabric.leaves (=%d) x nodes_per_leaf (=%d) cannot hold %d"
		         " nodes", f->leaves, f->nodes_per_leaf, nodes);
		return -1;
	}
	return 0;
}

static int *int_array(size_t n)
{
	int *a = malloc((n ? n : 1) * sizeof(int));
	if (a)
		for (size_t i = 0; i < n; i++)
			a[i] = -1;
	return a;
}

static int check_spec(const scn_cluster *c, char *err, size_t errlen)
{
	if (c->nodes < 1 || c->gpus_per_node < 1) {
		snprintf(err, errlen, "cluster needs nodes >= 1 and gpus_per_node >= 1 (got %d, %d)",
			 c->nodes, c->gpus_per_node);
		return -1;
	}
	if (c->nodes > 1 && (c->nic.count < 1 || c->nic.speed_Bps <= 0)) {
		snprintf(err, errlen, "a cluster of %d nodes needs nic.count >= 1 and a nic.speed"
			 " such as 200Gbps", c->nodes);
		return -1;
	}
	double nvl = c->intra.bandwidth_Bps > 0 ? c->intra.bandwidth_Bps : c->gpu.nvlink_Bps;
	if (c->intra.kind != INTRA_PCIE && c->gpus_per_node > 1 && nvl <= 0) {
		snprintf(err, errlen, "GPU %s has no NVLink: use intra_node: pcie, or give"
			 " intra_node.bandwidth", c->gpu.name);
		return -1;
	}
	if (hw_intra_bridged(&c->intra) && c->gpus_per_node % c->intra.bridge &&
	    c->intra.bridge < c->gpus_per_node) {
		snprintf(err, errlen, "%d GPUs a node do not split into NVLink bridge groups of %d",
		         c->gpus_per_node, c->intra.bridge);
		return -1;
	}
	if (!topo_find(c->fabric.topology)) {
		snprintf(err, errlen, "unknown topology %d", (int)c->fabric.topology);
		return -1;
	}
	return 0;
}

/* NVLink (per GPU to the NVSwitch, or per GPU pair in a mesh) or PCIe through
 * the host; every GPU also gets its PCIe link to the NICs and host memory. */
static int build_intra(cluster *cl, char *err, size_t errlen)
{
	const scn_cluster *c = &cl->spec;
	int n = cl->ngpus, g = cl->gpn;
	double lat = c->intra.latency_s / 2;   /* a GPU-to-GPU hop crosses two links */
	cl->pcie_up = int_array((size_t)n);
	cl->pcie_down = int_array((size_t)n);
	if (!cl->pcie_up || !cl->pcie_down)
		goto oom;
	for (int i = 0; i < n; i++) {
		cl->pcie_up[i] = topo__link(cl, cl->pcie_Bps, 0, 1, LINK_PCIE, err, errlen);
		cl->pcie_down[i] = topo__link(cl, cl->pcie_Bps, 0, 1, LINK_PCIE, err, errlen);
		if (cl->pcie_up[i] < 0 || cl->pcie_down[i] < 0)
			return -1;
	}
	if (hw_intra_shm(&c->intra, &c->gpu)) {
		/* NCCL's SHM transport: GPU to GPU through host memory, at
		 * hw_shm_Bps of the PCIe link (NIC traffic keeps the whole link) */
		cl->shm_up = int_array((size_t)n);
		cl->shm_down = int_array((size_t)n);
		if (!cl->shm_up || !cl->shm_down)
			goto oom;
		double shm = hw_shm_Bps(&c->intra, &c->gpu, cl->pcie_Bps);
		for (int i = 0; i < n; i++) {
			cl->shm_up[i] = topo__link(cl, shm, 0, 1, LINK_PCIE, err, errlen);
			cl->shm_down[i] = topo__link(cl, shm, 0, 1, LINK_PCIE, err, errlen);
			if (cl->shm_up[i] < 0 || cl->shm_down[i] < 0)
				return -1;
		}
	}
	if (c->intra.kind == INTRA_NVSWITCH) {
		cl->gpu_up = int_array((size_t)n);
		cl->gpu_down = int_array((size_t)n);
		if (!cl->gpu_up || !cl->gpu_down)
			goto oom;
		for (int i = 0; i < n; i++) {
			cl->gpu_up[i] = topo__link(cl, cl->nvl_Bps, lat, 1, LINK_NVLINK, err, errlen);
			cl->gpu_down[i] = topo__link(cl, cl->nvl_Bps, lat, 1, LINK_NVLINK, err, errlen);
			if (cl->gpu_up[i] < 0 || cl->gpu_down[i] < 0)
				return -1;
		}
	} else if ((c->intra.kind == INTRA_NVLINK_MESH || cl->bridge_Bps > 0) && g > 1) {
		/* A full mesh: the GPU's links split evenly over its g-1 peers; on
		 * a bridged PCIe node a mesh inside each bridge group (H200 NVL's
		 * 4-way bridge joins each card to the other three, a 2-way bridge
		 * one pair) */
		int k = cl->bridge_Bps > 0 ? c->intra.bridge : g;
		double bw = cl->bridge_Bps > 0 ? cl->bridge_Bps : cl->nvl_Bps;
		cl->mesh = int_array((size_t)n * (size_t)g);
		if (!cl->mesh)
			goto oom;
		for (int i = 0; i < n; i++)
			for (int b = 0; b < g; b++) {
				if (b == i % g || b / k != i % g / k)
					continue;
				cl->mesh[i * g + b] = topo__link(cl, bw / (k - 1), 2 * lat, 1,
				                                 LINK_NVLINK, err, errlen);
				if (cl->mesh[i * g + b] < 0)
					return -1;
			}
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory building %d GPUs", n);
	return -1;
}

static int build_nics(cluster *cl, char *err, size_t errlen)
{
	const scn_cluster *c = &cl->spec;
	size_t n = (size_t)cl->nodes * (size_t)cl->nics;
	cl->nic_tx = int_array(n);
	cl->nic_rx = int_array(n);
	if (!cl->nic_tx || !cl->nic_rx) {
		snprintf(err, errlen, "out of memory for %zu NICs", n);
		return -1;
	}
	double speed = c->nic.speed_Bps > 0 ? c->nic.speed_Bps : UNLIMITED_Bps;
	int fan = cluster_gpus_per_nic(cl);
	for (size_t i = 0; i < n; i++) {
		/* tx: the per-message overhead; rx: the first switch hop */
		cl->nic_tx[i] = topo__link(cl, speed, c->nic.latency_s, fan, LINK_NIC, err, errlen);
		cl->nic_rx[i] = topo__link(cl, speed, c->fabric.switch_latency_s, fan, LINK_NIC, err,
		                           errlen);
		if (cl->nic_tx[i] < 0 || cl->nic_rx[i] < 0)
			return -1;
	}
	return 0;
}

/* The storage system (aggregate links, its request latency), a per-node
 * frontend NIC or per-client limit, and node-local NVMe when present. */
static int build_storage(cluster *cl, char *err, size_t errlen)
{
	const scn_cluster *c = &cl->spec;
	double bw = c->storage.bandwidth_Bps > 0 ? c->storage.bandwidth_Bps : UNLIMITED_Bps;
	int fan = cl->nodes * (cl->nics > 0 ? cl->nics : 1);
	double wbw = c->storage.write_Bps > 0 ? c->storage.write_Bps : bw;   /* writes */
	cl->stor_in = topo__link(cl, wbw, c->storage.latency_s, fan, LINK_STORAGE, err, errlen);
	cl->stor_out = topo__link(cl, bw, c->storage.latency_s, fan, LINK_STORAGE, err, errlen);
	if (cl->stor_in < 0 || cl->stor_out < 0)
		return -1;
	double fe;
	if (c->storage.network == STORAGE_NET_FRONTEND)
		fe = c->storage.frontend_Bps > 0 ? c->storage.frontend_Bps
		   : c->nic.speed_Bps > 0 ? c->nic.speed_Bps : UNLIMITED_Bps;
	else
		fe = UNLIMITED_Bps;
	if (c->storage.per_client_Bps > 0 && c->storage.per_client_Bps < fe)
		fe = c->storage.per_client_Bps;
	size_t nn = (size_t)cl->nodes;
	cl->fe_tx = int_array(nn);
	cl->fe_rx = int_array(nn);
	cl->nvme_rd = int_array(nn);
	cl->nvme_wr = int_array(nn);
	if (!cl->fe_tx || !cl->fe_rx || !cl->nvme_rd || !cl->nvme_wr) {
		snprintf(err, errlen, "out of memory for storage links");
		return -1;
	}
	for (size_t i = 0; i < nn; i++) {
		cl->fe_tx[i] = topo__link(cl, fe, 0, 1, LINK_STORAGE, err, errlen);
		cl->fe_rx[i] = topo__link(cl, fe, 0, 1, LINK_STORAGE, err, errlen);
		if (cl->fe_tx[i] < 0 || cl->fe_rx[i] < 0)
			return -1;
		if (c->cache.present && c->cache.bandwidth_Bps > 0) {
			cl->nvme_rd[i] = topo__link(cl, c->cache.bandwidth_Bps, 0, 1, LINK_STORAGE,
			                            err, errlen);
			cl->nvme_wr[i] = topo__link(cl, c->cache.bandwidth_Bps, 0, 1, LINK_STORAGE,
			                            err, errlen);
			if (cl->nvme_rd[i] < 0 || cl->nvme_wr[i] < 0)
				return -1;
		}
	}
	return 0;
}

/* One GPU's NVLink bandwidth (raw x NCCL's per-link fraction, or the given
 * intra-node bandwidth) and its PCIe bandwidth, from the spec alone. */
/* AMD's MI300X, MI325X, MI350X and MI355X sit eight to a platform, each
 * joined to each of the other seven by one Infinity Fabric link (AMD's data
 * sheets: 7 links, 64 GB/s a direction on the MI300X), not through a switch.
 * A node of fewer of them reaches its peers over only their links: gpn - 1 of
 * the 7, switch or mesh (ml-engineering measured 47.7 GB/s busbw for 2
 * MI300X, 312.9 for 8). */
#define AMD_PLATFORM_PEERS 7

static double spec_nvl_Bps(const scn_cluster *c)
{
	double raw = c->intra.bandwidth_Bps > 0 ? c->intra.bandwidth_Bps : c->gpu.nvlink_Bps;
	if (c->intra.bandwidth_Bps <= 0 && c->intra.kind != INTRA_PCIE &&
	    (c->gpu.arch == ARCH_CDNA3 || c->gpu.arch == ARCH_CDNA4) &&
	    !strncmp(c->gpu.name, "MI3", 3) &&
	    c->gpus_per_node > 1 && c->gpus_per_node <= AMD_PLATFORM_PEERS)
		raw *= (double)(c->gpus_per_node - 1) / AMD_PLATFORM_PEERS;
	return raw * (c->gpu.nvlink_eff > 0 ? c->gpu.nvlink_eff : 1.0);
}

/* What one GPU moves over all its NVLink bridges, per direction; 0 when
 * the node has none. */
static double spec_bridge_Bps(const scn_cluster *c)
{
	if (!hw_intra_bridged(&c->intra) || c->gpu.bridge_Bps <= 0)
		return 0;
	return c->gpu.bridge_Bps * (c->gpu.bridge_eff > 0 ? c->gpu.bridge_eff : 1.0);
}

static double spec_pcie_Bps(const scn_cluster *c)
{
	if (c->intra.kind == INTRA_PCIE && c->intra.bandwidth_Bps > 0)
		return c->intra.bandwidth_Bps;
	return hw_pcie_Bps(c->gpu.pcie_gen > 0 ? c->gpu.pcie_gen : 4);
}

cluster *cluster_build(const scn_cluster *c, flownet *net, char *err, size_t errlen)
{
	if (check_spec(c, err, errlen))
		return NULL;
	cluster *cl = calloc(1, sizeof *cl);
	if (!cl) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	cl->spec = *c;
	hw_nic_defaults(&cl->spec.nic, c->gpus_per_node);
	if (cl->spec.fabric.nodes_per_leaf < 1 || cl->spec.fabric.nodes_per_leaf > c->nodes)
		cl->spec.fabric.nodes_per_leaf = c->nodes;
	if (cl->spec.fabric.oversubscription < 1)
		cl->spec.fabric.oversubscription = 1;
	if (resolve_placement(&cl->spec.fabric, c->nodes, err, errlen)) {
		free(cl);
		return NULL;
	}
	cl->net = net;
	cl->ops = topo_find(c->fabric.topology);
	cl->nodes = c->nodes;
	cl->gpn = c->gpus_per_node;
	cl->nics = c->nic.count > 0 ? c->nic.count : 1;
	cl->ngpus = c->nodes * c->gpus_per_node;
	cl->nvl_Bps = spec_nvl_Bps(c);
	cl->pcie_Bps = spec_pcie_Bps(c);
	cl->bridge_Bps = spec_bridge_Bps(c);
	if (build_intra(cl, err, errlen) || build_nics(cl, err, errlen) ||
	    cl->ops->build(cl, err, errlen) || build_storage(cl, err, errlen)) {
		cluster_free(cl);
		return NULL;
	}
	return cl;
}

void cluster_free(cluster *cl)
{
	if (!cl)
		return;
	free(cl->gpu_up);
	free(cl->gpu_down);
	free(cl->mesh);
	free(cl->pcie_up);
	free(cl->pcie_down);
	free(cl->shm_up);
	free(cl->shm_down);
	free(cl->nic_tx);
	free(cl->nic_rx);
	free(cl->leaf_up);
	free(cl->leaf_down);
	free(cl->zone_link);
	free(cl->fe_tx);
	free(cl->fe_rx);
	free(cl->nvme_rd);
	free(cl->nvme_wr);
	free(cl);
}

const scn_cluster *cluster_spec(const cluster *cl) { return &cl->spec; }
flownet *cluster_net(const cluster *cl) { return cl->net; }
int cluster_gpus(const cluster *cl) { return cl->ngpus; }
int cluster_nodes(const cluster *cl) { return cl->nodes; }
int cluster_gpus_per_node(const cluster *cl) { return cl->gpn; }
int cluster_nics(const cluster *cl) { return cl->nics; }

double cluster_intra_Bps(const cluster *cl)
{
	return cluster_spec_intra_Bps(&cl->spec);
}

double cluster_pcie_Bps(const cluster *cl)
{
	return cl->pcie_Bps;
}

/* What one GPU moves to another inside its node: NVLink's, PCIe's, or
 * without peer-to-peer what NCCL's SHM transport moves of PCIe's. */
double cluster_spec_intra_Bps(const scn_cluster *c)
{
	if (c->intra.kind != INTRA_PCIE)
		return spec_nvl_Bps(c);
	double link = spec_pcie_Bps(c);
	return hw_intra_shm(&c->intra, &c->gpu) ? hw_shm_Bps(&c->intra, &c->gpu, link) : link;
}

double cluster_spec_group_Bps(const scn_cluster *c, int gpus)
{
	double br = spec_bridge_Bps(c);
	/* a GPU reaches each peer of its bridge group over its own share of
	 * the bridges (the mesh topo builds): gpus - 1 of the group's
	 * bridge - 1 shares */
	/* aligned (tp 3 in groups of 4 is not), or the node's GPUs all in one
	 * group larger than the node */
	if (br > 0 && gpus > 1 && gpus <= c->intra.bridge &&
	    (c->intra.bridge % gpus == 0 || c->gpus_per_node <= c->intra.bridge))
		return br * (gpus - 1) / (c->intra.bridge - 1);
	return cluster_spec_intra_Bps(c);
}

bool cluster_same_bridge(const cluster *cl, int a, int b)
{
	return cl->bridge_Bps > 0 && a / cl->gpn == b / cl->gpn &&
	       a % cl->gpn / cl->spec.intra.bridge == b % cl->gpn / cl->spec.intra.bridge;
}

double cluster_bridge_Bps(const cluster *cl)
{
	return cl->bridge_Bps;
}

int cluster_rail_of(const cluster *cl, int gpu)
{
	return (gpu % cl->gpn) * cl->nics / cl->gpn;
}

int cluster_zone_of(const cluster *cl, int node)
{
	return cl->zones > 1 ? (int)((long long)node * cl->zones / cl->nodes) : 0;
}

int cluster_gpus_per_nic(const cluster *cl)
{
	int f = (cl->gpn + cl->nics - 1) / cl->nics;
	return f > 1 ? f : 1;
}

/* A GPU owns the NICs from its own (cluster_rail_of) up to the next GPU's:
 * one shared NIC when there are fewer NICs than GPUs, nics / gpn of them or
 * the uneven split's 1 or 2 (12 NICs for 8 GPUs) otherwise. */
int cluster_rail_gpu(const cluster *cl, int node, int rail)
{
	return node * cl->gpn + ((rail + 1) * cl->gpn - 1) / cl->nics;
}

bool cluster_gpu_has_rail(const cluster *cl, int gpu, int rail)
{
	int lo, k = topo_own_rails(gpu % cl->gpn, cl->gpn, cl->nics, &lo);
	return rail >= lo && rail < lo + k;
}

/* Route between two GPUs of one node. */
static int route_intra(const cluster *cl, int a, int b, int *links, int n, int max)
{
	if (a == b)
		return n;
	switch (cl->spec.intra.kind) {
	case INTRA_NVSWITCH:
		n = topo__push(links, n, max, cl->gpu_up[a]);
		return topo__push(links, n, max, cl->gpu_down[b]);
	case INTRA_NVLINK_MESH:
		return topo__push(links, n, max, cl->mesh[a * cl->gpn + b % cl->gpn]);
	default:
		if (cluster_same_bridge(cl, a, b))   /* over the bridge */
			return topo__push(links, n, max, cl->mesh[a * cl->gpn + b % cl->gpn]);
		n = topo__push(links, n, max, cl->pcie_up[a]);
		if (cl->shm_up) {   /* through host memory */
			n = topo__push(links, n, max, cl->shm_up[a]);
			n = topo__push(links, n, max, cl->shm_down[b]);
		}
		return topo__push(links, n, max, cl->pcie_down[b]);
	}
}

int cluster_route(const cluster *cl, int a, int b, int rail, int *links, int max)
{
	if (a < 0 || b < 0 || a >= cl->ngpus || b >= cl->ngpus)
		return -1;
	int na = a / cl->gpn, nb = b / cl->gpn, n = 0;
	if (na == nb)
		return route_intra(cl, a, b, links, 0, max);
	int ra = rail >= 0 ? rail % cl->nics : cluster_rail_of(cl, a);
	int rb = rail >= 0 ? rail % cl->nics : cluster_rail_of(cl, b);
	int ga = a, gb = b;
	/* PXN: over NVLink to the rail's GPU; NCCL takes it only over NVLink (a
	 * PCIe GPU reaches any of its node's NICs through the PCIe fabric) */
	bool pxn = cl->spec.intra.kind != INTRA_PCIE;
	if (pxn && !cluster_gpu_has_rail(cl, a, ra)) {
		ga = cluster_rail_gpu(cl, na, ra);
		n = route_intra(cl, a, ga, links, n, max);
	}
	if (pxn && !cluster_gpu_has_rail(cl, b, rb))
		gb = cluster_rail_gpu(cl, nb, rb);
	n = topo__push(links, n, max, cl->pcie_up[ga]);
	n = topo__push(links, n, max, cl->nic_tx[na * cl->nics + ra]);
	if (n >= 0)
		n = cl->ops->route(cl, na, ra, nb, rb, links, n, max);
	n = topo__push(links, n, max, cl->nic_rx[nb * cl->nics + rb]);
	n = topo__push(links, n, max, cl->pcie_down[gb]);
	if (gb != b && n >= 0)
		n = route_intra(cl, gb, b, links, n, max);
	return n;
}

bool cluster_shm_below_nic(const scn_cluster *c, int ppn)
{
	if (c->gpus_per_node < 2 || ppn < 2 || !hw_intra_shm(&c->intra, &c->gpu) ||
	    c->nic.speed_Bps <= 0)
		return false;
	hw_nic nic = c->nic;
	hw_nic_defaults(&nic, c->gpus_per_node);
	return cluster_spec_intra_Bps(c) < hw_nic_Bps(&nic, ppn, c->gpu.arch, c->gpu.pcie_gen);
}

double cluster_spec_pcie_below_nic(const scn_cluster *c)
{
	if (c->nic.speed_Bps <= 0)
		return 0;
	hw_nic nic = c->nic;
	hw_nic_defaults(&nic, c->gpus_per_node);
	int g = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
	double per_gpu = nic.count > g ? (double)nic.count / g : 1;
	double link = spec_pcie_Bps(c) / per_gpu;
	return link < nic.speed_Bps * hw_nic_efficiency(&nic, 1) ? link : 0;
}

double cluster_spec_gpu_link_Bps(const scn_cluster *c)
{
	return spec_pcie_Bps(c);
}

const char *cluster_spec_gpu_link_name(const scn_cluster *c, char *buf, size_t n)
{
	if (c->intra.kind == INTRA_PCIE && c->intra.bandwidth_Bps > 0)
		snprintf(buf, n, "PCIe link");
	else
		snprintf(buf, n, "PCIe Gen%d link", c->gpu.pcie_gen > 0 ? c->gpu.pcie_gen : 4);
	return buf;
}

int cluster_spec_nic_siblings(const scn_cluster *c, int tp_cp)
{
	int nics = c->nic.count > 0 ? c->nic.count : 1;
	int per = (c->gpus_per_node + nics - 1) / nics;
	int sib = tp_cp < per ? tp_cp : per;
	return sib > 1 ? sib : 1;
}

bool cluster_sockets_bind(const scn_cluster *c, int ppn, int sib)
{
	if (c->nic.transport != TRANSPORT_TCP || c->nic.speed_Bps <= 0)
		return false;
	hw_nic nic = c->nic;
	hw_nic_defaults(&nic, c->gpus_per_node);
	sib = sib > 1 ? sib : 1;
	double line = nic.speed_Bps * hw_nic_efficiency(&nic, ppn > 0 ? ppn : 1) / sib;
	return hw_nic_comm_Bps(&nic, ppn > 0 ? ppn : 1, sib, c->gpu.arch, c->gpu.pcie_gen) <
	       0.999 * line;
}

double cluster_flow_cap_shared(const cluster *cl, int a, int b, int gpus_sharing)
{
	if (a == b)
		return 0;
	if (a / cl->gpn != b / cl->gpn)
		return cl->spec.nic.speed_Bps * hw_nic_efficiency(&cl->spec.nic, gpus_sharing);
	switch (cl->spec.intra.kind) {
	case INTRA_NVSWITCH:
		return cl->nvl_Bps;
	case INTRA_NVLINK_MESH:
		return cl->gpn > 1 ? cl->nvl_Bps / (cl->gpn - 1) : cl->nvl_Bps;
	default:
		if (cluster_same_bridge(cl, a, b))
			return cl->bridge_Bps / (cl->spec.intra.bridge - 1);
		return cl->pcie_Bps;
	}
}

double cluster_flow_cap(const cluster *cl, int a, int b)
{
	return cluster_flow_cap_shared(cl, a, b, cl->gpn);
}

double cluster_route_latency(const cluster *cl, int a, int b, int rail)
{
	int links[CLUSTER_MAX_ROUTE];
	int n = cluster_route(cl, a, b, rail, links, CLUSTER_MAX_ROUTE);
	double lat = 0;
	for (int i = 0; i < n; i++)
		lat += flow_link_latency(cl->net, links[i]);
	return lat;
}

int cluster_route_storage(const cluster *cl, int gpu, bool to_storage, int *links, int max)
{
	if (gpu < 0 || gpu >= cl->ngpus)
		return -1;
	int node = gpu / cl->gpn, n = 0;
	bool shared = cl->spec.storage.network == STORAGE_NET_SHARED;
	int r = cluster_rail_of(cl, gpu);
	if (to_storage) {
		n = topo__push(links, n, max, cl->pcie_up[gpu]);
		n = topo__push(links, n, max, cl->fe_tx[node]);
		if (shared) {
			n = topo__push(links, n, max, cl->nic_tx[node * cl->nics + r]);
			if (n >= 0)
				n = cl->ops->route_storage(cl, node, r, true, links, n, max);
		}
		return topo__push(links, n, max, cl->stor_in);
	}
	n = topo__push(links, n, max, cl->stor_out);
	if (shared) {
		if (n >= 0)
			n = cl->ops->route_storage(cl, node, r, false, links, n, max);
		n = topo__push(links, n, max, cl->nic_rx[node * cl->nics + r]);
	}
	n = topo__push(links, n, max, cl->fe_rx[node]);
	return topo__push(links, n, max, cl->pcie_down[gpu]);
}

int cluster_route_local(const cluster *cl, int gpu, bool to_gpu, bool nvme, int *links, int max)
{
	if (gpu < 0 || gpu >= cl->ngpus)
		return -1;
	int node = gpu / cl->gpn, n = 0;
	if (nvme && cl->nvme_rd[node] < 0)
		return -1;      /* no local cache in this scenario */
	if (to_gpu) {
		if (nvme)
			n = topo__push(links, n, max, cl->nvme_rd[node]);
		return topo__push(links, n, max, cl->pcie_down[gpu]);
	}
	n = topo__push(links, n, max, cl->pcie_up[gpu]);
	if (nvme)
		n = topo__push(links, n, max, cl->nvme_wr[node]);
	return n;
}

int cluster_route_append(int *a, int na, const int *b, int nb, int max)
{
	for (int i = 0; i < nb; i++) {
		bool dup = false;
		for (int j = 0; j < na && !dup; j++)
			dup = a[j] == b[i];
		if (!dup && na < max)
			a[na++] = b[i];
	}
	return na;
}

const char *cluster_intra_phrase(const scn_cluster *c)
{
	switch (c->intra.kind) {
	case INTRA_PCIE:
		if (hw_intra_bridged(&c->intra))
			return c->intra.bridge == 2 ? "PCIe, the cards bridged by NVLink in pairs"
			       : "PCIe, the cards bridged by NVLink in groups";
		return hw_intra_shm(&c->intra, &c->gpu) ? "PCIe through host memory (no P2P)" : "PCIe";
	case INTRA_NVLINK_MESH:
		return "an NVLink mesh";
	default:
		return "NVLink through NVSwitch";
	}
}
