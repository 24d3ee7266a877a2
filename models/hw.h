/* hw.h: the hardware catalog: GPUs, intra-node interconnects, NICs and their
 * transports, switches and storage. Every number in hw.c carries its source. */
#ifndef TRAINSIM_HW_H
#define TRAINSIM_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum { PREC_FP32, PREC_TF32, PREC_FP16, PREC_BF16, PREC_FP8, PREC_FP4,
	PREC__N } hw_precision;
const char *hw_precision_name(hw_precision p);
/* Bytes of one element stored in precision p (tf32 is stored as 4; fp4 as
 * NVFP4 stores it: 4 bits and an 8-bit scale per 16 elements). */
double hw_precision_bytes(hw_precision p);

/* A scaled low precision of the GEMMs only, as Transformer Engine's fp8 and
 * NVFP4 recipes run it: activations between layers, attention, the output
 * layer and the weights' master copy stay 16- or 32-bit. */
static inline bool hw_prec_scaled(hw_precision p)
{
	return p == PREC_FP8 || p == PREC_FP4;
}

/* Bytes of a parameter gathered for the forward (ZeRO, FSDP): its
 * precision's, at least a byte (an fp4 run's are gathered as fp8 copies at
 * most: no framework gathers 4-bit ones, UNVERIFIED). */
static inline double hw_gather_bytes(hw_precision p)
{
	double b = hw_precision_bytes(p);
	return b < 1 ? 1 : b;
}

/* GPU architectures. Test them by name, never by order: the AMD ones follow
 * the NVIDIA ones, so "arch >= ARCH_HOPPER" would take in CDNA2 to CDNA4. */
/* ARCH_BLACKWELL_RTX: the GeForce and RTX PRO Blackwell parts (sm_120:
 * RTX 5090, RTX PRO 6000), whose tensor cores run Ampere-style mma kernels,
 * without the B200's tcgen05 and tensor memory; NCCL's tables index them
 * with Blackwell (compute capability >= 100). */
typedef enum {
	ARCH_VOLTA, ARCH_TURING, ARCH_AMPERE, ARCH_ADA, ARCH_HOPPER, ARCH_BLACKWELL,
	ARCH_BLACKWELL_RTX, ARCH_CDNA2, ARCH_CDNA3, ARCH_CDNA4
} hw_arch;

/* AMD's CDNA parts (Infinity Fabric inside a node, RCCL, ROCm kernels). */
static inline bool hw_arch_is_amd(hw_arch a)
{
	return a == ARCH_CDNA2 || a == ARCH_CDNA3 || a == ARCH_CDNA4;
}

typedef struct hw_gpu {
	char name[48];
	hw_arch arch;
	double peak_flops[PREC__N];   /* dense, FLOP/s; 0 = not supported */
	double gemm_eff;              /* best-shape achievable fraction of peak (MAMF) */
	double hbm_bytes;
	double hbm_Bps;               /* spec HBM bandwidth */
	double hbm_eff;               /* achievable fraction of hbm_Bps (streaming) */
	double nvlink_Bps;            /* per GPU, per direction, raw spec; 0 = none */
	double nvlink_eff;            /* achievable fraction for NCCL rings */
	double nvls_eff;              /* in-switch reduction efficiency; 0 = no NVLS */
	int pcie_gen;                 /* host link generation (x16) */
	double tdp_w;                 /* rated board power (TDP), W; 0 = not in the catalog */
	double power_limit_w;         /* a power cap below tdp_w (nvidia-smi -pl); 0 = none */
	bool no_p2p;                  /* the driver gives two cards no PCIe peer-to-peer
	                               * (NVIDIA's GeForce cards): NCCL goes through host
	                               * memory (hw_shm_eff) */
	/* NVLink bridges of a PCIe card (H100 NVL pairs, H200 NVL 4-way, RTX
	 * A6000 pairs): a group of cards joined directly, the rest of the node
	 * over PCIe. 0 = the card takes no bridge. */
	double bridge_Bps;            /* per GPU, per direction, raw, over all its bridges */
	double bridge_eff;            /* achievable fraction for NCCL (its per-link figure) */
	int bridge_gpus;              /* the most cards one set of bridges joins (2 or 4) */
} hw_gpu;

typedef enum { INTRA_NVSWITCH, INTRA_NVLINK_MESH, INTRA_PCIE } hw_intra_kind;

/* PCIe peer-to-peer between a node's GPUs: auto = the GPU's (GeForce cards
 * have none), or said. Without it NCCL's SHM transport copies through host
 * memory. */
typedef enum { P2P_AUTO, P2P_ON, P2P_OFF } hw_p2p;

typedef struct hw_intra {
	hw_intra_kind kind;
	double bandwidth_Bps;         /* per GPU per direction; 0 = from the GPU */
	double latency_s;             /* per hop as software sees it */
	hw_p2p p2p;                   /* pcie: whether GPUs reach each other directly */
	int bridge;                   /* pcie: GPUs joined by NVLink bridges in groups of this
	                               * many (consecutive local indices); 0 or 1 = none */
	double shm_eff;               /* pcie without P2P: what NCCL's SHM transport moves, a
	                               * fraction of the PCIe link; 0 = the GPU's (hw_shm_eff) */
} hw_intra;

/* Whether a PCIe node's cards talk in groups over NVLink bridges (p2p
 * is PCIe's peer-to-peer; NCCL_P2P_DISABLE=1, which takes NVLink away too,
 * is p2p false and no bridges). */
static inline bool hw_intra_bridged(const hw_intra *in)
{
	return in->kind == INTRA_PCIE && in->bridge > 1;
}

/* Whether a node's GPUs talk through host memory (NCCL's SHM transport):
 * PCIe nodes whose GPUs have no peer-to-peer, by the GPU or as said. */
static inline bool hw_intra_shm(const hw_intra *in, const hw_gpu *g)
{
	return in->kind == INTRA_PCIE && (in->p2p == P2P_OFF || (in->p2p == P2P_AUTO && g->no_p2p));
}

/* RDMA: InfiniBand, RoCE, EFA. TCP: NCCL's sockets through host memory.
 * GDTCP: GPUDirect over TCP (Google's GPUDirect-TCPX and -TCPXO): TCP
 * whose payload moves between the NIC and GPU memory, one NIC per GPU or
 * GPU pair, without the host copy. */
typedef enum { TRANSPORT_RDMA, TRANSPORT_TCP, TRANSPORT_GDTCP } hw_transport;

typedef struct hw_nic {
	int count;                    /* per node */
	double speed_Bps;             /* line rate, bytes/s */
	hw_transport transport;
	double efficiency;            /* achievable fraction of line rate for one flow; 0 = from transport */
	double latency_s;             /* per-message software overhead; 0 = from transport */
	/* TCP: NCCL's sockets per connection (NCCL_SOCKET_NTHREADS x
	 * NCCL_NSOCKS_PERTHREAD; 0 = NCCL's default, 1) and what one socket
	 * moves (0 = hw.c's measured figure) */
	int sockets;
	double socket_Bps;
} hw_nic;

/* Catalog lookups: NULL if unknown. Names are matched case-insensitively. */
const hw_gpu *hw_gpu_find(const char *name);
size_t hw_gpu_count(void);
const hw_gpu *hw_gpu_at(size_t i);
/* Closest catalog name to `name` (for "did you mean"), or NULL. */
const char *hw_gpu_suggest(const char *name);

/* PCIe x16 achievable bandwidth per direction for a generation (3..6). */
double hw_pcie_Bps(int gen);
/* What NCCL's SHM transport moves between two GPUs without peer-to-peer
 * over PCIe links of link_Bps: the node's intra_node.shm_eff of the link,
 * else the GPU architecture's measured rate (latency-bound, not the
 * link's), at most the link. hw_shm_eff: the same as a fraction of the
 * GPU's own PCIe generation. */
double hw_shm_Bps(const hw_intra *in, const hw_gpu *g, double link_Bps);
double hw_shm_eff(const hw_intra *in, const hw_gpu *g);
/* The same with NCCL_SHM_USE_CUDA_MEMCPY=1 (the copy engines move it). */
double hw_shm_copy_engine_eff(void);

/* Fills efficiency and latency of `nic` from its transport where they are 0. */
void hw_nic_defaults(hw_nic *nic, int gpus_per_node);
/* Achievable fraction of line rate of one of the node's NICs when
 * `gpus_sharing` GPUs of the node take part in the same communicator: the
 * single-flow efficiency for RDMA; for TCP it falls with the GPUs sharing the
 * node's sockets (the law and its sources are in hw.c). */
double hw_nic_efficiency(const hw_nic *nic, int gpus_sharing);
/* NCCL's channel search over a speed array (GB/s, falling): the channels of
 * the best total for bandwidth bw (GB/s) and the speed they run at. */
int hw_channel_search(const double *speeds, size_t n, double bw, double *speed);
/* ncclTopoDupChannels: nch doubled when the channels' speed allows it. */
int hw_dup_channels(hw_arch arch, int nch, double speed);
/* NCCL's sm90 / sm100 tables: Hopper and Blackwell (sm100 the B200's and the
 * RTX Blackwell parts'). */
bool hw_arch_sm90(hw_arch a);
bool hw_arch_sm100(hw_arch a);
/* The channels NCCL's inter-node graph search puts on one NIC of line rate
 * line_Bps (before any doubling), and their speed in GB/s. */
int hw_nic_graph_channels(hw_arch arch, double line_Bps, double *speed);
/* The ring channels one NCCL communicator puts through one of the node's
 * NICs: its graph search at the GPU-to-NIC path's bandwidth (the smaller of
 * the line rate and NCCL's PCIe figure for the GPU's generation), doubled as
 * ncclTopoDupChannels and ncclTopoPostset double them. */
int hw_nic_ring_channels(const hw_nic *nic, hw_arch arch, int pcie_gen);
/* What NCCL's sockets move over `channels` connections (x sockets each x a
 * socket's rate) over TCP; unbounded (HUGE_VAL) for another transport. */
double hw_nic_socket_cap(const hw_nic *nic, int channels);
/* One communicator's achievable rate through a NIC, bytes/s per direction,
 * when `gpus_sharing` GPUs of the node take part (hw_nic_efficiency), over
 * TCP at most its ring channels' sockets (hw_nic_socket_cap). */
double hw_nic_Bps(const hw_nic *nic, int gpus_sharing, hw_arch arch, int pcie_gen);
/* The same for each of `sib` sibling communicators on one NIC (a DP group
 * beside each of its TP ranks): each the line's share over sib and its own
 * ring's sockets; what the NIC carries for them is sib x this. */
double hw_nic_comm_Bps(const hw_nic *nic, int gpus_sharing, int sib, hw_arch arch,
                       int pcie_gen);
/* NCCL_NCHANNELS_PER_NET_PEER's default: the channels of a point-to-point
 * connection (a send, an all-to-all's peer) over the network. */
#define HW_P2P_NET_CHANNELS 2
/* The sockets per connection and one socket's rate, defaults filled. */
int hw_nic_sockets(const hw_nic *nic);
double hw_nic_socket_Bps(const hw_nic *nic);
/* The transport as a report names it: "RDMA", "TCP", "GPUDirect-TCP". */
const char *hw_transport_name(hw_transport t);

/* The fastest NIC of hw_list_nics (800G XDR, ConnectX-8), Gb/s: what a
 * what-if may propose at most. */
#define HW_NIC_FASTEST_GBPS 800

/* Text listings for `trainsim list gpus|nics`. */
/* The catalog as a table; `held` (may be NULL) gives the GEMM efficiency a GPU holds
 * under sustained load (the compute model's, models/compute.c). */
void hw_list_gpus(FILE *out, double (*held)(const hw_gpu *g));
void hw_list_nics(FILE *out);

#endif
