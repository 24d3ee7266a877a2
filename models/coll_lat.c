/* coll_lat.c: NCCL's latency model and protocol limits, from
 * src/graph/tuning.cc of NCCL v2.30.7 as transcribed in cost-models.md 1.3:
 * a base latency per (algorithm, protocol) plus per-step hop latencies of the
 * hardware (NVLink, PCI, network), counted per ring step or tree level. */
#include <math.h>
#include "coll_impl.h"

enum { HW_NVLINK, HW_PCI, HW_NET, HW__N };
enum { A_TREE, A_RING, A_NVLS, A_NVLS_TREE, A_COLLNET_DIRECT, A__N };

/* baseLatencies[algo][proto], us (LL, LL128, Simple) */
static const double base_us[A__N][PROTO__N] = {
	{6.8, 14.0, 8.4},   /* Tree */
	{6.6, 14.0, 8.4},   /* Ring */
	{0, 0, 0},          /* NVLS */
	{0, 0, 0},          /* NVLSTree */
	{0, 0, 0},          /* CollNetDirect */
};
/* hwLatencies[hw][algo][proto], us */
static const double hw_us[HW__N][A__N][PROTO__N] = {
	{{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}, {0, 0, 25}, {0, 0, 25}, {0, 0, 3.7}},     /* NVLINK */
	{{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 0}, {0, 0, 0}, {0, 0, 3.7}},        /* PCI */
	{{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 18}, {0, 0, 20.9}, {0, 0, 31}},     /* NET */
};
/* getNetOverhead: 1 us on Intel x86 (the default host here), x3 for Simple. */
#define NET_OVERHEAD_US 1.0
/* "plateau effect of ring": Ring Simple AllReduce across nodes, sm >= 80. */
#define RING_SIMPLE_PLATEAU 1.4
#define RING_SIMPLE_PLATEAU_OLD 1.9

/* NCCL picks its tables by compute capability: minCompCap >= 100 Blackwell,
 * >= 90 Hopper, >= 80 Ampere, else Volta (tuning.cc compCapIndex). Turing is
 * sm75: Volta's. The AMD parts run RCCL, whose tuning.cc skips these tables
 * for its own per-topology rcclTuningModel; they keep the Hopper-class row
 * this file gave CDNA3 (UNVERIFIED for any; CDNA2 and CDNA4 take CDNA3's).
 * By name, never by order. */
static bool sm80_or_later(hw_arch a)
{
	return a != ARCH_VOLTA && a != ARCH_TURING;
}

/* sm_90 and later, sm_100 and later in NCCL's tables (hw.c) */
#define sm90_nvidia hw_arch_sm90
#define sm100_nvidia hw_arch_sm100

/* llMaxBws, GB/s of busbw: one node by GPU arch (N1 column); several nodes
 * by host CPU (row 0, Intel): 2 nodes 39.0, more 20.4. */
static double ll_max_GBps(const coll_shape *sh)
{
	if (sh->nnodes > 1)
		return sh->nnodes == 2 ? 39.0 : 20.4;
	switch (sh->arch) {
	case ARCH_VOLTA:
	case ARCH_TURING: return 39.0;
	case ARCH_AMPERE:
	case ARCH_ADA: return 87.7;
	case ARCH_HOPPER:
	case ARCH_CDNA2:
	case ARCH_CDNA3:
	case ARCH_CDNA4: return 141.0;
	case ARCH_BLACKWELL:
	case ARCH_BLACKWELL_RTX: return 282.0;
	}
	return 87.7;
}

const char *coll__proto_name(int proto)
{
	static const char *names[PROTO__N] = {"LL", "LL128", "Simple"};
	return (unsigned)proto < PROTO__N ? names[proto] : "?";
}

/* LL stores 8 bytes: 4 of data and a 4-byte flag; LL128 lines are 128 bytes
 * with 120 of data (NCCL caps LL128 busbw at 0.92, "120.0/128.0"). */
double coll__payload(int proto)
{
	return proto == PROTO_LL ? 0.5 : proto == PROTO_LL128 ? 120.0 / 128.0 : 1.0;
}

double coll__tuner_factor(const coll_shape *sh, coll_algo algo, int proto)
{
	if (algo != ALGO_TREE)
		return 1;
	/* tuning.cc: every tree all-reduce's busBw x .92, then LL's 1/3.8 (over
	 * its payload 0.5 applied apart) or LL128's 7/9 on one node (over 120/128)
	 * on top */
	switch (proto) {
	case PROTO_SIMPLE: return 0.92;
	case PROTO_LL: return 0.92 * (1 / 3.8) / 0.5;
	default: return 0.92 * (sh->nnodes == 1 ? (7.0 / 9.0) / (120.0 / 128.0) : 1);
	}
}

/* treeCorrectionFactor[proto][log2(bytes / 64)] of NCCL 2.2x (src/graph/
 * tuning.cc, now src/tuning/cost_model.cc), 64 B to 512 MB, by protocol
 * (LL, LL128, Simple). NCCL's tuner multiplies a tree all-reduce's
 * bandwidth by it, "Trees are not perfectly sticking to the model for medium
 * sizes. Applying a static correction factor is not ideal but works quite
 * well": the measured efficiency of its trees (pipeline fill through the
 * node chains and the tree depth) against the ideal the model (and
 * trainsim's flows) assume. */
static int log2i(int n);
static const double tree_correction[PROTO__N][24] = {
	{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0,
	 1.0, 1.0, 1.0},
	{1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9,
	 1.0, 1.0, 1.0},
	{.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9,
	 .9, .9},
};

double coll__tree_correction(coll_op op, coll_algo algo, int proto, double bytes)
{
	if (op != COLL_ALL_REDUCE || algo != ALGO_TREE || (unsigned)proto >= PROTO__N ||
	    bytes < 64)
		return 1;
	int l = log2i((int)fmin(bytes / 64, 1 << 30));
	return l < 24 ? tree_correction[proto][l] : 1;
}

/* The same measured efficiency between its powers of two, interpolated in
 * log2(size): NCCL's tuner reads the table by bins (coll__tree_correction
 * decides as it does), but a tree's real throughput does not jump at a power
 * of two, and a step in the table would make a larger message finish sooner
 * (4.8 MB before 4 MB). Equal to the table at every power of two. */
double coll__tree_correction_smooth(coll_op op, coll_algo algo, int proto, double bytes)
{
	if (op != COLL_ALL_REDUCE || algo != ALGO_TREE || (unsigned)proto >= PROTO__N ||
	    bytes < 64)
		return 1;
	double x = log2(fmin(bytes / 64, 1073741824.0));
	int l = (int)floor(x);
	if (l >= 23)
		return l < 24 ? tree_correction[proto][l] : 1;
	double w = x - l;
	return tree_correction[proto][l] * (1 - w) + tree_correction[proto][l + 1] * w;
}

double coll__ll_cap(const coll_shape *sh, int proto)
{
	return proto == PROTO_LL ? ll_max_GBps(sh) * 1e9 : 0;
}

bool coll__proto_ok(const coll_shape *sh, coll_algo algo, int proto, bool forced)
{
	if (algo == ALGO_NVLS || algo == ALGO_NVLS_TREE || algo == ALGO_COLLNET)
		return proto == PROTO_SIMPLE;
	/* LL128 is on by default only over NVLink (typeIntra <= NVB); NCCL_PROTO
	 * naming it turns it on anywhere (tuning.cc: the default, pEnable 2, is
	 * what that check refines) */
	if (proto == PROTO_LL128 && !forced)
		return sh->nvlink;
	return true;
}

/* NCCL adds the topology's latencyInter to each network hop, twice for Simple
 * ("flush extra latency"); here it is the physical route latency. */
static double graph_inter_us(const coll_shape *sh, int p)
{
	return sh->inter_lat_s * 1e6 * (p == PROTO_SIMPLE ? 2 : 1);
}

static int log2i(int n)
{
	int l = 0;
	while (n >>= 1)
		l++;
	return l;
}

static double ring_lat(const coll_shape *sh, coll_op op, int p, double bytes)
{
	int n = sh->n, nodes = sh->nnodes, hw = sh->nvlink ? HW_NVLINK : HW_PCI;
	double lat = base_us[A_RING][p], intra = hw_us[hw][A_RING][p];
	double inter = (sh->ppn == 1 ? hw_us[HW_NET][A_TREE][p] : hw_us[HW_NET][A_RING][p]) +
	               graph_inter_us(sh, p);
	if (op == COLL_BROADCAST || op == COLL_REDUCE) {
		int h = nodes > 1 ? HW_NET : hw;
		double hop = p == PROTO_SIMPLE ? hw_us[h][A_TREE][PROTO_SIMPLE] : hw_us[h][A_RING][p];
		return lat + n * hop;
	}
	int nsteps = op == COLL_ALL_REDUCE ? 2 * (n - 1) : n - 1;
	int ninter = nodes == 1 ? 0 : op == COLL_ALL_REDUCE ? 2 * (nodes - 1) : nodes - 1;
	if (nodes > 1) {
		double ov = NET_OVERHEAD_US * (p == PROTO_SIMPLE ? 3 : 1);
		if (ov > intra)
			intra = ov;
	}
	lat += (nsteps - ninter) * intra + ninter * inter;
	/* nChannels is not modelled: one channel per ring of the flow model, two
	 * per rail as NCCL typically opens. */
	int nch = 2 * sh->nrails;
	if (op == COLL_ALL_REDUCE && p == PROTO_SIMPLE && nodes > 1 && bytes / (nch * n) >= 64)
		lat *= sm80_or_later(sh->arch) ? RING_SIMPLE_PLATEAU : RING_SIMPLE_PLATEAU_OLD;
	return lat;
}

double coll__nccl_latency(const coll_shape *sh, coll_op op, coll_algo algo, int p, double bytes)
{
	if ((unsigned)p >= PROTO__N)
		return -1;
	int hw = sh->nvlink ? HW_NVLINK : HW_PCI;
	double inter_tree = hw_us[HW_NET][A_TREE][p] + graph_inter_us(sh, p);
	double us;
	switch (algo) {
	case ALGO_TREE:
		us = base_us[A_TREE][p] +
		     2 * ((sh->ppn - 1) * hw_us[hw][A_TREE][p] + log2i(sh->nnodes) * inter_tree);
		break;
	case ALGO_NVLS:
		if (p != PROTO_SIMPLE)
			return -1;
		us = base_us[A_NVLS][p] + hw_us[HW_NVLINK][A_NVLS][p] +
		     (sh->nnodes > 1 ? hw_us[HW_NET][A_NVLS][p] : 0);
		break;
	case ALGO_NVLS_TREE:
		/* intraLat + 2 log2(nNodes) interLat (tuning.cc) */
		if (p != PROTO_SIMPLE)
			return -1;
		us = base_us[A_NVLS_TREE][p] + hw_us[HW_NVLINK][A_NVLS_TREE][p] +
		     2 * log2i(sh->nnodes) * (hw_us[HW_NET][A_NVLS_TREE][p] + graph_inter_us(sh, p));
		break;
	case ALGO_COLLNET: {
		/* CollNetDirect: 2 (min(1, ppn - 1) intraLat + (ppn - 1) 0.4) +
		 * interLat (tuning.cc; interLat the tree's with one GPU a node) */
		if (p != PROTO_SIMPLE)
			return -1;
		int m = sh->ppn;
		double inter = (m == 1 ? hw_us[HW_NET][A_TREE][p] : hw_us[HW_NET][A_COLLNET_DIRECT][p]) +
		               graph_inter_us(sh, p);
		us = base_us[A_COLLNET_DIRECT][p] +
		     2 * ((m > 1 ? 1 : 0) * hw_us[hw][A_COLLNET_DIRECT][p] + (m - 1) * 0.4) + inter;
		break;
	}
	case ALGO_HIERARCHICAL: {
		/* intra reduce-scatter + inter all-reduce (one GPU per node) + intra
		 * all-gather: three ring calls, each with its own base latency */
		double intra = hw_us[hw][A_RING][p], inter = hw_us[HW_NET][A_TREE][p] +
		               graph_inter_us(sh, p);
		int m = sh->ppn, k = sh->nnodes;
		us = 0;
		if (m > 1)
			us += 2 * (base_us[A_RING][p] + (m - 1) * intra);
		if (k > 1)
			us += base_us[A_RING][p] + 2 * (k - 1) * inter;
		break;
	}
	case ALGO_PS:
		/* push then pull: two rounds of point-to-point sends */
		us = 2 * (base_us[A_RING][p] + (sh->nnodes > 1 ? hw_us[HW_NET][A_RING][p] +
		          graph_inter_us(sh, p) : hw_us[hw][A_RING][p]));
		break;
	default:
		if (op == COLL_SENDRECV || op == COLL_ALL_TO_ALL || op == COLL_GATHER ||
		    op == COLL_SCATTER)
			us = base_us[A_RING][p] + (sh->nnodes > 1 ? hw_us[HW_NET][A_RING][p] +
			     graph_inter_us(sh, p) : hw_us[hw][A_RING][p]);
		else
			us = ring_lat(sh, op, p, bytes);
		break;
	}
	return us * 1e-6;
}

/* NCCL's collective channels inside one node, as its topology search makes
 * them (src/graph/search.cc, connect.cc; NCCL 2.17-2.29): going down the
 * arch's speed array from the first speed <= bw (the GPU's NVLink bandwidth
 * in NCCL's units, 20 GB/s per sm80 link, 20.6 sm90, 40.1 sm100), each
 * speed s fits floor(bw / s) channels and the best total is kept (ties to
 * the higher s); the search stops once the total reaches bw or the next
 * speed is below 0.49 of the best one's;
 * ncclTopoDupChannels doubles the channels when s >= 25 (on sm90+ not when
 * s < 50 with more than 4 channels), ncclTopoPostset doubles them again.
 * 8 x A100 (240 GB/s): 6 x 40 -> 24; 8 x H100 (370.8): 6 x 60 -> 24; H800
 * (164.8): 4 x 40 -> 16; B200 (721.8): 8 x 90 -> 32. NCCL's own logs show
 * 24 on HGX A100 (nccl-tests #100), 24 on 8 x H100 (nccl #2094), 16 on
 * H800 (nccl #892). */
/* The search over the arch's own speed array (sm90 Hopper, sm100 Blackwell,
 * sm80's for the rest). */
#define SPEEDS(a) a, sizeof a / sizeof a[0]
static int arch_search(hw_arch arch, const double *sm80, size_t n80, const double *sm90,
                       size_t n90, const double *sm100, size_t n100, double bw, double *speed)
{
	if (arch == ARCH_HOPPER)
		return hw_channel_search(sm90, n90, bw, speed);
	if (sm100_nvidia(arch))
		return hw_channel_search(sm100, n100, bw, speed);
	return hw_channel_search(sm80, n80, bw, speed);
}

int coll__node_channels(const coll_shape *sh)
{
	static const double sm80[] = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
	static const double sm90[] = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
	static const double sm100[] = {90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18};
	double s;
	int nch = arch_search(sh->arch, SPEEDS(sm80), SPEEDS(sm90), SPEEDS(sm100), sh->intra_Bps / 1e9,
	                      &s);
	nch = 2 * hw_dup_channels(sh->arch, nch, s);   /* ncclTopoPostset doubles again */
	return nch > 64 ? 64 : nch;
}

/* The channels of NCCL's tree graph across nodes, as its tuner counts them
 * (graphs[TREE]->nChannels, before ncclTopoPostset's doubling): each NIC is
 * searched at the first inter-node speed at or below its line rate
 * (speedArrayInter of src/graph/search.cc by arch: sm80 and older 48, 30,
 * 28, 24, ...; sm90 48, 45, 42, 40, 30, 24, ...; sm100 96, 80, 48, 45.1,
 * 42, 40, 30, 24, ...), then ncclTopoDupChannels. 8 x 400 Gb/s (50 GB/s): 8
 * channels at 48, not doubled on Hopper or Blackwell; one such NIC: one at
 * 48, doubled to 2; 8 x HDR 200 Gb/s (25): 8 at 24. One node: the
 * collective channels above, before the postset doubling. */
int coll__tree_graph_channels(const coll_shape *sh)
{
	if (sh->nnodes <= 1)
		return coll__node_channels(sh) / 2;
	double s;
	int per_nic = hw_nic_graph_channels(sh->arch, sh->nic_line_Bps, &s);
	int nch = hw_dup_channels(sh->arch, per_nic * sh->nrails, s);
	return nch > 32 ? 32 : nch;
}

/* perChMaxTreeBws (tuning.cc, GB/s of busBw per tree-graph channel) by
 * compute capability and 1 node / 2 nodes / more: Volta 26.5/18.5/10.0,
 * Ampere 24.0/23.6/17.8, Hopper 38.7/41.4/36.0, Blackwell 70.0/42.8/24.0.
 * NCCL caps a tree all-reduce's busBw at channels x this; the measured
 * plateaus follow it (B200 over 8 x NDR, forced tree: 338 GB/s on 2 nodes,
 * 192 on 4, 196 on 64, where 8 x 42.8 and 8 x 24 give 321, 186 and 192;
 * one H100 a node over one NIC: 41.3 at 32 MB, 2 x 41.4 / 2 = 41.4).
 * RCCL skips these tables: no cap on the AMD parts (0). */
double coll__tree_cap_bus(const coll_shape *sh)
{
	static const double per[4][3] = {
		{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
	int row;
	switch (sh->arch) {
	case ARCH_VOLTA:
	case ARCH_TURING: row = 0; break;
	case ARCH_AMPERE:
	case ARCH_ADA: row = 1; break;
	case ARCH_HOPPER: row = 2; break;
	case ARCH_BLACKWELL:
	case ARCH_BLACKWELL_RTX: row = 3; break;
	default: return 0;
	}
	int col = sh->nnodes <= 1 ? 0 : sh->nnodes == 2 ? 1 : 2;
	return coll__tree_graph_channels(sh) * per[row][col] * 1e9;
}

/* Simple protocol, as the device code runs it (src/device/all_reduce.h,
 * prims_simple.h, collectives.h): a ring all-reduce (all-gather,
 * reduce-scatter) walks its 2(n-1) (n-1) steps once per loop of
 * nChannels x n x chunk bytes, chunk = 4 of the 8 FIFO steps of the 4 MiB
 * buffer = 2 MiB, handed over in 2 slices (the last loop's smaller chunk in
 * slices of at least 32 KiB). Every slice waits for its peer's flag and posts
 * its own after a memory fence; NCCL's cost model charges that handshake,
 * hwLat (3.4 us on NVLink), once per step, but the kernel pays it per slice
 * and per loop, and inside an NVLink node no transport hides it: per channel
 * steps x slices x loops handshakes. Charged here beyond the model's once
 * per step. It explains the A100 asymptote (8 x A100 busbw 240 GB/s in
 * NCCL's model, 231.6 measured at 8 GiB by NCCL-AZ-015: this gives 232) and
 * a third of the mid-size deficit. Networks hide it behind the proxy's
 * pipelining (their efficiency is measured whole, hw.c), PCIe nodes have no
 * measurement to check it: neither is charged. */
#define SIMPLE_CHUNK_B (4.0 * 524288.0)
#define SIMPLE_MIN_SLICE_B 32768.0

/* NVLS all-reduces run on NCCL_NVLS_NCHANNELS = 16 channels
 * (src/transport/nvls.cc; Blackwell's count UNVERIFIED, the same here). */
int coll__nvls_channels(const coll_shape *sh)
{
	(void)sh;
	return 16;
}

/* NVLS inside one node (src/device/all_reduce.h, NCCL_ALGO_NVLS): each of
 * the channels' scatter, reduce (multimem load-reduce and store through the
 * switch) and gather warp groups walks one Simple step per loop of
 * nChannels x nHeads x chunk bytes, nHeads = the node's ranks. The chunk is
 * NCCL_NVLS_CHUNKSIZE = 128 KiB, halved by the enqueue (src/enqueue.cc) to
 * 64 KiB below 64 concurrent chunks' worth of bytes (nChannels x nHeads x
 * chunk), to 32 KiB below 8 and 16 KiB below 2 of the new size. Each step
 * is the same fenced flag handshake as a ring's slice (ProtoSimple), so
 * every loop after the first costs hwLat (3.4 us on NVLink) beyond NCCL's
 * once-per-operation NVLS latency. 8 x H100 at 64 MiB: 8 loops of 64 KiB
 * chunks; at 8 GiB 512 loops of 128 KiB. */
static double nvls_chunk(double bytes, double ops)
{
	double chunk = 131072;
	if (bytes < 64 * ops * chunk)
		chunk = 65536;
	if (bytes < 8 * ops * chunk)
		chunk = 32768;
	if (bytes < 2 * ops * chunk)
		chunk = 16384;
	return chunk;
}

/* One handshake of h seconds for every loop after the first. */
static double loop_sync_s(double bytes, double ops, double chunk, double h)
{
	double loops = ceil(bytes / (ops * chunk));
	return loops > 1 ? (loops - 1) * h : 0;
}

#define NVLINK_HANDSHAKE_S (hw_us[HW_NVLINK][A_RING][PROTO_SIMPLE] * 1e-6)

/* NVLSTree across nodes: its heads are the node's GPUs that own a NIC, one
 * per channel of NCCL's NVLS graph (connectNvls, src/graph/connect.cc), so
 * min(ppn, rails) (UNVERIFIED below one NIC per GPU). Its chunk
 * (src/enqueue.cc, NCCL_ALGO_NVLS_TREE): NCCL_NVLS_CHUNKSIZE 128 KiB, at
 * most 64 KiB from four nodes (NCCL_NVLSTREE_MAX_CHUNKSIZE's default), 64 KiB
 * below 4 and 32 KiB below 1 x nChannels x nHeads x chunk bytes. Hopper's
 * rules; NCCL 2.28's Blackwell tuning opens more channels with larger
 * chunks, which is not modelled (UNVERIFIED there). */
static int nvlstree_heads(const coll_shape *sh)
{
	int h = sh->nrails < sh->ppn ? sh->nrails : sh->ppn;
	return h < 1 ? 1 : h;
}

static double nvlstree_chunk(const coll_shape *sh, double bytes, double ops)
{
	double chunk = sh->nnodes >= 4 ? 65536 : 131072;
	if (bytes < 4 * ops * chunk && chunk > 65536)
		chunk = 65536;
	if (bytes < ops * chunk && chunk > 32768)
		chunk = 32768;
	return chunk;
}

/* NVLSTree's pipeline fill (src/device/all_reduce.h, NCCL_ALGO_NVLS_TREE):
 * every channel moves nHeads chunks per loop, and a chunk passes in turn
 * through the scatter into the switch (the reduce is the switch's, on the
 * way), depth network hops up the tree, depth hops down, and the multicast
 * and gather back. The flows charge the loops at the slowest stage's rate; a
 * pipeline of stages s_i over L loops takes sum(s_i) + (L - 1) max(s_i), so
 * the first chunk's trip costs sum(s_i) - max(s_i) more. A network hop moves
 * one chunk of each of the NVLS channels through its head's NIC, an NVLink
 * stage the nHeads chunks of each channel through the GPU's switch port; a
 * message of less than one loop moves only its bytes. The tree over the
 * nodes is binary, ceil(log2 nNodes) deep. NCCL's model charges each hop's
 * handshake (hwLat) but no chunk time. On 2/4/8 x 8 H100 with 8 x 400 Gb/s
 * (tests/validation/nccl-multinode.csv) the measured busbw at 16-134 MB
 * sits 200-350 us of fixed time below the flows' rate, growing with the
 * nodes; from a full loop of 64 KiB chunks (8 MiB) this adds 142 us on two
 * nodes (128 KiB chunks from 64 MiB; 71 below), 116 on four and 160 on
 * eight. */
static double nvlstree_fill_s(const coll_shape *sh, double bytes, int heads, double chunk)
{
	if (sh->nnodes < 2 || sh->nrails < 1 || !(sh->nic_Bps > 0) || !(sh->nvls_eff > 0) ||
	    !(bytes > 0))
		return 0;
	double nch = coll__nvls_channels(sh), ops = nch * heads;
	double part = fmin(1, bytes / (ops * chunk));
	double per_nic = (double)heads / sh->nrails;
	double t_net = part * chunk * nch * (per_nic > 1 ? per_nic : 1) / sh->nic_Bps;
	double t_nvl = part * heads * chunk * nch / (sh->intra_Bps * sh->nvls_eff);
	int depth = 0;
	while ((1 << depth) < sh->nnodes)
		depth++;
	return 2 * t_nvl + 2 * depth * t_net - fmax(t_net, t_nvl);
}

double coll__slice_sync_s(const coll_shape *sh, coll_op op, coll_algo algo, int proto,
                          double bytes)
{
	if (algo == ALGO_NVLS && op == COLL_ALL_REDUCE && proto == PROTO_SIMPLE &&
	    sh->nnodes == 1 && sh->n >= 2) {
		double ops = (double)coll__nvls_channels(sh) * sh->n;
		return loop_sync_s(bytes, ops, nvls_chunk(bytes, ops), NVLINK_HANDSHAKE_S);
	}
	/* NVLSTree's switch stage walks the same handshakes per loop of its own
	 * chunks; they cost time only where they make that stage the slower one
	 * (the NICs' proxy pipelines theirs, as a ring's). Two nodes: the
	 * switch is the slower stage and pays them all; from three, where each
	 * NIC carries twice as much, the network's loop outlasts the switch's
	 * with its handshake (8 x H100, 400G, 64 KiB chunks: 45 us against 30 +
	 * 3.4). Then it fills
	 * its pipeline through the tree. */
	if (algo == ALGO_NVLS_TREE && op == COLL_ALL_REDUCE && proto == PROTO_SIMPLE &&
	    sh->ppn >= 2) {
		int heads = nvlstree_heads(sh);
		double ops = (double)coll__nvls_channels(sh) * heads;
		double chunk = nvlstree_chunk(sh, bytes, ops), intra, inter, h = NVLINK_HANDSHAKE_S;
		coll__nvlstree_stages(sh, &intra, &inter);
		if (intra > 0 && inter > 0) {   /* what the handshake adds to the slower stage */
			double x = ops * chunk / intra, y = ops * chunk / inter;
			h = fmax(x + h, y) - fmax(x, y);
		}
		return loop_sync_s(bytes, ops, chunk, h) + nvlstree_fill_s(sh, bytes, heads, chunk);
	}
	if (proto != PROTO_SIMPLE || sh->nnodes != 1 || !sh->nvlink || sh->n < 2 ||
	    (algo != ALGO_RING && algo != ALGO_AUTO) ||
	    (op != COLL_ALL_REDUCE && op != COLL_ALL_GATHER && op != COLL_REDUCE_SCATTER))
		return 0;
	int n = sh->n, nch = coll__node_channels(sh);
	int steps = op == COLL_ALL_REDUCE ? 2 * (n - 1) : n - 1;
	double loop = (double)nch * n * SIMPLE_CHUNK_B;
	double full = floor(bytes / loop), rem = bytes - full * loop;
	double slices = 2 * full;
	if (rem > 0) {
		double chunk = ceil(rem / ((double)nch * n));
		double sl = ceil(chunk / SIMPLE_MIN_SLICE_B);
		slices += sl < 1 ? 1 : sl > 2 ? 2 : sl;
	}
	if (slices <= 1)
		return 0;
	return (slices - 1) * steps * hw_us[HW_NVLINK][A_RING][PROTO_SIMPLE] * 1e-6;
}
