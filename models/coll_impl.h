/* coll_impl.h: what coll.c shares with the algorithm files (prefix coll__):
 * the shape of a request, the running-collective record, the algorithm table
 * entry and NCCL's latency model (coll_lat.c). Not for other modules. */
#ifndef TRAINSIM_COLL_IMPL_H
#define TRAINSIM_COLL_IMPL_H

#include <stdbool.h>
#include "coll.h"

/* NCCL protocols (tuning.cc order). */
enum { PROTO_LL, PROTO_LL128, PROTO_SIMPLE, PROTO__N };

/* Where a request's ranks sit: nodes in order of first appearance, each with
 * its member GPUs and the distinct rails (NICs) they reach directly. */
typedef struct coll_shape {
	int n;                 /* ranks */
	int nnodes;
	int ppn;               /* most ranks on one node */
	int nrails;            /* rings/trees across nodes: min distinct rails per node */
	bool symmetric;        /* every node holds the same number of ranks */
	int *node_of_rank;     /* [n] index into the node list */
	int *node_start;       /* [nnodes + 1] offsets into members */
	int *members;          /* [n] GPU ids grouped by node */
	int *rails;            /* [nnodes * nrails_max] distinct rails per node */
	int *nrails_node;      /* [nnodes] */
	int *entry;            /* [nnodes * nrails_max] member offset (in the node)
	                        * of the first GPU owning rails[] (coll__ring_entry) */
	int rails_stride;
	int gpn, nics;         /* of the cluster */
	/* bandwidths (bytes/s, per direction) the analytic predictor uses */
	double intra_Bps;      /* one GPU's intra-node achievable bandwidth */
	double nic_Bps;        /* one NIC's achievable rate with ppn GPUs sharing */
	double nic_line_Bps;   /* one NIC's line rate (NCCL's topology sees this) */
	double nvls_eff;       /* 0 = no NVLS here */
	double inter_lat_s;    /* mean route latency between neighbouring nodes (NIC,
	                        * switches, zone links): NCCL's graph latencyInter */
	hw_arch arch;
	bool nvlink;           /* intra-node hw is NVLink (NCCL's NVLINK hw class) */
	bool mesh;             /* nvlink-mesh */
	bool sharp;            /* the switches reduce (InfiniBand SHARP): CollNet */
} coll_shape;

/* The NIC a GPU reaches directly (cluster_rail_of). */
static inline int coll__rail(const coll_shape *sh, int gpu)
{
	return (gpu % sh->gpn) * sh->nics / sh->gpn;
}

/* Whether rail is one of the GPU's own NICs (cluster_gpu_has_rail). */
static inline bool coll__has_rail(const coll_shape *sh, int gpu, int rail)
{
	int lo, k = topo_own_rails(gpu % sh->gpn, sh->gpn, sh->nics, &lo);
	return rail >= lo && rail < lo + k;
}

typedef struct coll_run coll_run;

/* One algorithm: which ops it implements, its bandwidth for NCCL-style
 * protocol choice, and its flows by phase. */
typedef struct coll_algo_ops {
	coll_algo algo;
	const char *name;
	bool (*supports)(const coll_shape *sh, coll_op op);
	/* Predicted algorithm bandwidth (bytes of S per second), protocol payload
	 * fraction applied by the caller. */
	double (*algbw)(const coll_shape *sh, const coll_req *req);
	int nphases;
	/* Starts the flows of phase `ph` (coll__flow); 0 or negative. */
	int (*phase)(coll_run *r, int ph);
} coll_algo_ops;

struct coll_run {
	coll_ctx *cc;
	coll_req req;          /* ranks points at `ranks` below */
	int *ranks;
	int ranks_cap;
	const coll_algo_ops *ops;
	int proto;
	double payload;        /* data bytes per wire byte of the protocol */
	double cap_data_Bps;   /* per-flow data-rate cap from the protocol (0 = none) */
	double cap_intra_Bps;  /* the same for a flow inside one node (LL's one-node cap) */
	double conns_per_flow; /* GPU-pair connections a flow between nodes stands for (>= 1) */
	double latency_s;      /* NCCL-model latency of one collective */
	double count;          /* back-to-back collectives this run stands for */
	double route_lat_s;    /* route latency already paid by the flows */
	double phase_tx_end;   /* latest transmission end of the phase's flows so far */
	double phase_arrival;  /* and latest arrival (transmission end + route latency) */
	int pending, phase;
	struct coll_pflow { int a, b, rail; double bytes, cap; } *pf;  /* this phase's flows */
	int npf, pf_cap;
	coll_shape sh;         /* where the ranks sit (arrays owned by the run) */
	int sh_cap;
	coll_done_fn done;
	void *ctx;
	uint64_t arg;
	coll_run *next_free;
};

struct coll_ctx {
	cluster *cl;
	sim *s;
	flownet *net;
	coll_run *free_runs;
	coll_run *scratch;     /* for coll_pick / coll_latency */
	int *node_index;       /* [cluster nodes] -1 or index in a shape's node list */
	unsigned char *rail_seen; /* [nics] */
	int *rail_slot;           /* [nics] index into a node's rails[], else -1 */
	int *first_rail, *own_rails; /* [gpus per node] topo_own_rails of each */
	int *nic_tx, *nic_rx;  /* [nodes * nics] flows of one phase per NIC */
};

extern const coll_algo_ops coll__ring, coll__tree, coll__nvls, coll__nvlstree, coll__collnet,
	coll__hier, coll__ps, coll__a2a, coll__p2p, coll__rooted;

/* Fills r->sh for req (ranks already copied to r->ranks). 0 or negative. */
int coll__shape(coll_ctx *cc, coll_run *r);
/* Adds to the current phase one flow of `data_bytes` from GPU a to b through
 * NIC `rail` (-1 = each GPU's own); rate capped by the path (a NIC's
 * achievable rate is shared by the phase's flows through it) and the
 * protocol; extra_cap_Bps > 0 lowers the cap further. The phase's flows start
 * together once the algorithm has listed them. 0 or negative. */
int coll__flow(coll_run *r, int a, int b, int rail, double data_bytes, double extra_cap_Bps);
/* The same between GPUs of the same local index on two nodes, split over
 * every NIC the GPU owns (one flow each), as NCCL's channels spread over
 * them; a plain coll__flow otherwise. */
int coll__flow_nics(coll_run *r, int a, int b, double data_bytes);
/* NICs a GPU owns on average (1 when GPUs share or have one). */
double coll__nics_per_gpu(const coll_shape *sh);

/* NCCL's latency model (tuning.cc, cost-models 1.3) for algo/proto, seconds;
 * a negative value when NCCL has no such combination. */
double coll__nccl_latency(const coll_shape *sh, coll_op op, coll_algo algo, int proto,
                          double bytes);
/* Protocols NCCL would allow for this algorithm here. */
bool coll__proto_ok(const coll_shape *sh, coll_algo algo, int proto, bool forced);
/* Payload fraction of a protocol: data bytes per wire byte. */
double coll__payload(int proto);
/* NCCL's extra bandwidth factors of tuning.cc beyond the payload fraction,
 * used only to choose as its tuner does (Tree: x0.92 Simple; LL 1/3.8 instead
 * of 1/2; LL128 on one node 7/9 instead of 120/128). */
double coll__tuner_factor(const coll_shape *sh, coll_algo algo, int proto);
/* NCCL's treeCorrectionFactor: a tree all-reduce's bandwidth at this size
 * over its model's ("Trees are not perfectly sticking to the model for
 * medium sizes"); 1 for other algorithms and operations. */
double coll__tree_correction(coll_op op, coll_algo algo, int proto, double bytes);
double coll__tree_correction_smooth(coll_op op, coll_algo algo, int proto, double bytes);
/* NCCL's cap on LL busbw (bytes/s), llMaxBws; 0 = none. */
double coll__ll_cap(const coll_shape *sh, int proto);
/* NCCL's collective channels inside one node (its topology search). */
int coll__node_channels(const coll_shape *sh);
int coll__nvls_channels(const coll_shape *sh);
/* NCCL's tree-graph channels and its cap on a tree all-reduce's busBw
 * (bytes/s; 0 = none). */
int coll__tree_graph_channels(const coll_shape *sh);
double coll__tree_cap_bus(const coll_shape *sh);
/* NVLSTree's two stages as algorithm bandwidths (bytes of the buffer per
 * second): the node's switch (NVLS) and its NICs (coll_nvls.c). */
void coll__nvlstree_stages(const coll_shape *sh, double *intra_Bps, double *inter_Bps);
/* Time a Simple ring inside one NVLink node spends handing slices over, or an
 * NVLS all-reduce its loops, beyond the latency NCCL's model charges
 * (coll_lat.c); 0 otherwise. */
double coll__slice_sync_s(const coll_shape *sh, coll_op op, coll_algo algo, int proto,
                          double bytes);
const char *coll__proto_name(int proto);

/* Rings and trees across nodes, one per rail (coll_ring.c): the member index
 * (within its node) where ring `ring` enters node j, and the rail the crossing
 * from node ja to node jb uses (-1: each GPU's own NIC). */
int coll__ring_entry(const coll_shape *sh, int j, int ring);
int coll__ring_rail(const coll_shape *sh, int ring, int ja, int jb);
/* The double binary trees across nodes, one pair per rail, each edge
 * carrying half of `per_rail` bytes each way, each flow lasting at least
 * t_min seconds (0 = no floor; coll_tree.c). */
int coll__tree_across(coll_run *r, double per_rail, double t_min);

#endif
