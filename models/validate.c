/* validate.c: a published row -> a scenario built in memory (hardware read
 * from the row's text, parallel layout from its columns) -> a prediction of
 * the row's metric in the publication's convention (Megatron's TFLOP/s count
 * the paper formula with recomputation; Korthikanti's MFU/HFU theirs). The
 * mapping rules are documented in docs/validation.md. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <strings.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "scn.h"
#include "step.h"
#include "val_int.h"
#include "workload.h"

/* ---- hardware ---- */

typedef struct gpu_map {
	const char *token;     /* in the hardware text */
	const char *with;      /* ...together with this (NULL: alone) */
	const char *catalog;   /* hw_gpu_find name */
	double nic_Gbps;       /* the node's usual NIC when the text gives none */
	int gpus_per_node;
	bool word;             /* token only as a whole word */
	bool system;           /* a system or instance: a count before it is of nodes */
	bool tcp;              /* its one NIC runs TCP (a cloud VM without RDMA) unless
	                        * the text says RDMA, RoCE, EFA or InfiniBand */
} gpu_map;

/* First match wins, and a token matches anywhere in the text, in any case:
 * a name that is the start of another's comes after it ("H200" before "H20",
 * "A100" before "A10G" before "A10", "MI250X" before "MI250", "L40S" before
 * "L4"); a short name that is also the start or the end of other words
 * ("L4" of "L40", "A40" of "A4000", "T4" of "INT4") only as a whole word
 * (`word`: no letter or digit either side, "8x" before it allowed). Systems
 * and cloud instances come first: their GPU is their own. Node defaults: DGX
 * A100 8 x HDR 200 Gb/s; DGX H100/H200 and B200 8 x NDR 400 Gb/s; DGX-2 16
 * V100 with 8 x EDR 100 Gb/s (NVIDIA DGX data sheets). The table gives a
 * node's NIC speed only: the count and the transport come from the text
 * (nic_of: without a count, one NIC per GPU; RDMA unless it says TCP, GbE or
 * Ethernet), so a cloud node's one TCP NIC must be written out. */
static const gpu_map gpu_maps[] = {
	/* Systems and cloud instances first: their own GPU variant and NICs win
	 * over a GPU name beside them ("p4d.24xlarge, 8x A100" is the 40 GB part
	 * on EFA). NVIDIA Selene: DGX A100 80GB,
	 * 8 x HDR 200 (Narayanan et al. SC21). Azure ND96asr_v4: 8 x A100 40GB,
	 * 8 x HDR 200 (Azure's ND A100 v4 page). AWS (instance pages): p4d 8 x
	 * A100 40GB and p4de 8 x A100 80GB with 400 Gb/s of EFA (4 x 100), given
	 * as one 50 Gb/s NIC a GPU; p5 8 x H100 and p5e / p5en 8 x H200 with 3200
	 * Gb/s (32 x 100 or 16 x 200), 400 a GPU */
	/* Google Cloud (its "Networking and GPU machines" page): A2 (A100 40GB,
	 * a2-ultragpu A100 80GB; 16 on a2-megagpu-16g) 100 Gb/s with no GPU
	 * networking, one TCP NIC; A3 High, Edge and Mega (H100) move GPU
	 * traffic by GPUDirect-TCPX(O) over their own NICs (google_nics_of); A3 Ultra (H200)
	 * and A4 (B200) 8 x 400 Gb/s RDMA (ConnectX-7). AWS p3.16xlarge: 8 x V100
	 * 16GB, 25 Gb/s without EFA; p3dn.24xlarge: 8 x V100 32GB, 100 Gb/s EFA
	 * (instance data as listed by instances.vantage.sh, UNVERIFIED against
	 * AWS's pages); p6-b200: 8 x B200, 3200 Gb/s EFA. Oracle (Compute Shapes,
	 * 2025-02): BM.GPU4.8 8 x A100 40GB, 8 x 200 Gb/s RDMA; BM.GPU.A100-v2.8
	 * A100 80GB, 16 x 100; BM.GPU.H100.8 16 x 200; BM.GPU.H200.8 and
	 * BM.GPU.MI300X.8 8 x 400 (a GPU's share: 200 or 400). Azure (size
	 * pages): ND96amsr_A100_v4 A100 80GB with 200 Gb/s InfiniBand a GPU,
	 * ND96isr_H100_v5 / _H200_v5 400 a GPU. */
	{"a2-ultragpu", NULL, "A100", 100, 8, true, true, true},
	{"a2-megagpu", NULL, "A100-40GB", 100, 16, true, true, true},
	{"a2-highgpu", NULL, "A100-40GB", 100, 8, true, true, true},
	{"a3-ultragpu", NULL, "H200", 400, 8, true, true, false},
	{"a3-megagpu", NULL, "H100", 200, 8, true, true, false},
	{"a3-highgpu", NULL, "H100", 200, 8, true, true, false},
	{"a3-edgegpu", NULL, "H100", 200, 8, true, true, false},
	{"a4-highgpu", NULL, "B200", 400, 8, true, true, false},
	/* A4X (a4x-highgpu-4g) is a GB200 NVL72 tray of 4 with a 400 Gb/s
	 * ConnectX-7 a GPU; A4X Max (a4x-maxgpu-4g) a GB300 NVL72 tray, 3200
	 * Gb/s a tray (Google's GPU machine pages) */
	{"a4x-maxgpu", NULL, "GB300", 800, 72, true, true, false},
	{"A4X Max", NULL, "GB300", 800, 72, false, true, false},
	{"a4x-highgpu", NULL, "GB200", 400, 72, true, true, false},
	{"A4X", NULL, "GB200", 400, 72, true, true, false},
	{"p3dn", NULL, "V100", 12.5, 8, true, true, false},
	{"p3.16xlarge", NULL, "V100-16GB", 25, 8, true, true, true},
	/* AWS's smaller GPU instances, one ENA NIC (TCP) each, "up to" a rate
	 * for sizes of 16 vCPUs or fewer, which they burst to for minutes (EC2
	 * user guide, "instance network bandwidth"): rates and GPU counts as the
	 * G5, G6, G4dn and P3 instance pages list them (UNVERIFIED here) */
	{"p3.8xlarge", NULL, "V100-16GB", 10, 4, true, true, true},
	{"p3.2xlarge", NULL, "V100-16GB", 10, 1, true, true, true},
	{"g5.xlarge", NULL, "A10G", 10, 1, true, true, true},
	{"g5.2xlarge", NULL, "A10G", 10, 1, true, true, true},
	{"g5.4xlarge", NULL, "A10G", 25, 1, true, true, true},
	{"g5.8xlarge", NULL, "A10G", 25, 1, true, true, true},
	{"g5.16xlarge", NULL, "A10G", 25, 1, true, true, true},
	{"g5.12xlarge", NULL, "A10G", 40, 4, true, true, true},
	{"g5.24xlarge", NULL, "A10G", 50, 4, true, true, true},
	{"g5.48xlarge", NULL, "A10G", 100, 8, true, true, true},
	{"g6.xlarge", NULL, "L4", 10, 1, true, true, true},
	{"g6.2xlarge", NULL, "L4", 10, 1, true, true, true},
	{"g6.4xlarge", NULL, "L4", 25, 1, true, true, true},
	{"g6.8xlarge", NULL, "L4", 25, 1, true, true, true},
	{"g6.16xlarge", NULL, "L4", 25, 1, true, true, true},
	{"g6.12xlarge", NULL, "L4", 40, 4, true, true, true},
	{"g6.24xlarge", NULL, "L4", 50, 4, true, true, true},
	{"g6.48xlarge", NULL, "L4", 100, 8, true, true, true},
	{"g4dn.xlarge", NULL, "T4", 25, 1, true, true, true},
	{"g4dn.2xlarge", NULL, "T4", 25, 1, true, true, true},
	{"g4dn.4xlarge", NULL, "T4", 25, 1, true, true, true},
	{"g4dn.8xlarge", NULL, "T4", 50, 1, true, true, true},
	{"g4dn.16xlarge", NULL, "T4", 50, 1, true, true, true},
	{"g4dn.12xlarge", NULL, "T4", 50, 4, true, true, true},
	{"g4dn.metal", NULL, "T4", 100, 8, true, true, true},
	{"p6-b200", NULL, "B200", 400, 8, true, true, false},
	{"BM.GPU4.8", NULL, "A100-40GB", 200, 8, false, true, false},
	{"BM.GPU.A100-v2", NULL, "A100", 200, 8, false, true, false},
	{"BM.GPU.H100", NULL, "H100", 400, 8, false, true, false},
	{"BM.GPU.H200", NULL, "H200", 400, 8, false, true, false},
	{"BM.GPU.MI300X", NULL, "MI300X", 400, 8, false, true, false},
	{"ND96amsr", NULL, "A100", 200, 8, false, true, false},
	{"ND96isr_H200", NULL, "H200", 400, 8, false, true, false},
	{"ND96isr_H100", NULL, "H100", 400, 8, false, true, false},
	{"Selene", NULL, "A100", 200, 8, true, true, false},
	/* ALCF Polaris: 4 A100 40GB and 2 x 200 Gb/s Slingshot-11 a node (ALCF's
	 * machine overview; the count: nic_of) */
	{"ALCF Polaris", NULL, "A100-40GB", 200, 4, false, true, false},
	/* OLCF Frontier: 4 MI250X (8 GCDs), 4 x 200 Gb/s Slingshot-11 */
	{"Frontier", NULL, "MI250X", 200, 8, true, true, false},
	{"ND96asr", NULL, "A100-40GB", 200, 8, false, true, false},
	{"p4de", NULL, "A100", 50, 8, true, true, false},
	{"p4d", NULL, "A100-40GB", 50, 8, true, true, false},
	{"p5en", NULL, "H200", 400, 8, true, true, false},
	{"p5e", NULL, "H200", 400, 8, true, true, false},
	{"p5", NULL, "H100", 400, 8, true, true, false},
	/* GH200 (Grace Hopper: 96 GB, or 144 with HBM3e; four to a node, JUPITER
	 * and Alps, on NVLink without a switch, one 200 Gb/s NIC each) before the
	 * H200, which is a word */
	{"GH200", "144G", "GH200-144GB", 200, 4, false, false, false},
	{"GH200", "144 GB", "GH200-144GB", 200, 4, false, false, false},
	{"GH200", NULL, "GH200", 200, 4, false, false, false},
	/* H200 NVL: PCIe cards with NVLink bridges ("H200 NVLink" is the SXM) */
	{"H200 NVL", NULL, "H200-NVL", 400, 8, true, false, false},
	{"H200", NULL, "H200", 400, 8, true, false, false},
	{"H800", "PCIe", "", 400, 8, false, false, false},   /* the PCIe card: not in the catalog */
	{"H800", NULL, "H800", 400, 8, false, false, false},
	/* HGX H20, 8 x 400 Gb/s as the HGX H100 (UNVERIFIED) */
	{"H20", NULL, "H20", 400, 8, true, false, false},
	{"A800", NULL, "A800", 200, 8, false, false, false},
	/* "H100 NVL" is in "H100 NVLink": that text keeps its H100 reading. H100
	 * NVL servers: PCIe, 8 cards and 400 Gb/s as the H100 PCIe (UNVERIFIED) */
	{"H100 NVLink", "PCIe", "H100-PCIE", 400, 8, false, false, false},
	{"H100 NVLink", NULL, "H100", 400, 8, false, false, false},
	{"H100 NVL", NULL, "H100-NVL", 400, 8, false, false, false},
	/* the SXM H100 with 94-96 GB of HBM2e (Meta's; gpu_of asks for the size
	 * too and leaves PCIe cards, the 80 GB HBM2e H100, to the rules below) */
	/* nvidia-smi's name for the SXM5 part ("NVIDIA H100 80GB HBM3"); the PCIe
	 * card is "NVIDIA H100 PCIe" (HBM2e), whatever else the text says of PCIe */
	{"H100 80GB HBM3", NULL, "H100", 400, 8, false, false, false},
	{"H100", "HBM2e", "H100-HBM2E", 400, 8, false, false, false},
	{"H100", "94GB", "H100-NVL", 400, 8, false, false, false},
	{"H100", "94 GB", "H100-NVL", 400, 8, false, false, false},
	{"H100", "PCIe", "H100-PCIE", 400, 8, false, false, false},
	{"H100", NULL, "H100", 400, 8, false, false, false},
	/* GB300 NVL72 and HGX/DGX B300: one ConnectX-8 of 800 Gb/s per GPU
	 * (NVIDIA at Hot Chips 2025; the DGX B300 user guide's 8 x 800G ports) */
	{"GB300", NULL, "GB300", 800, 72, false, false, false},
	{"GB200", NULL, "GB200", 400, 72, false, false, false},   /* NVL72: one NVLink domain of 72 */
	{"B300A", NULL, "", 800, 8, false, false, false},   /* a one-die part: not in the catalog */
	{"B300", NULL, "B300", 800, 8, true, false, false},
	{"B200", NULL, "B200", 400, 8, false, false, false},
	{"A100", "PCIe", "A100-PCIE", 200, 8, false, false, false},   /* 80 GB, or 40 (cluster_of) */
	{"A100", "40G", "A100-40GB", 200, 8, false, false, false},   /* "40GB", "A100-40G" */
	{"A100", "40 GB", "A100-40GB", 200, 8, false, false, false},
	{"A100", "320GB", "A100-40GB", 200, 8, false, false, false},   /* DGX A100 320GB: 8 x 40 GB */
	{"A100", "320 GB", "A100-40GB", 200, 8, false, false, false},
	{"A100", NULL, "A100", 200, 8, false, false, false},
	/* AWS g5.48xlarge: 8 x A10G, one 100 Gb/s ENA NIC (TCP) */
	{"A10G", NULL, "A10G", 100, 8, false, false, false},
	{"A10", NULL, "A10", 100, 8, false, false, false},   /* a PCIe server as the g5 (UNVERIFIED) */
	{"DGX-2", NULL, "V100", 100, 16, false, false, false},
	/* PCIe V100s (16 or 32 GB) as the 32 GB card; DGX-1 / AWS p3 V100 16GB
	 * (SXM2); nodes as the V100's (UNVERIFIED for PCIe servers) */
	{"V100", "PCIe", "V100-PCIE", 100, 8, false, false, false},
	{"V100", "16GB", "V100-16GB", 100, 8, false, false, false},
	{"V100", "16 GB", "V100-16GB", 100, 8, false, false, false},
	{"V100", NULL, "V100", 100, 8, false, false, false},
	/* Pascal parts (P100, P40, P4) and the K80: not in the catalog */
	{"P100", NULL, "", 100, 8, true, false, false},
	{"P40", NULL, "", 25, 8, true, false, false},
	{"K80", NULL, "", 25, 8, true, false, false},
	/* Frontier and LUMI nodes: 4 MI250X = 8 GCDs (the catalog's GPU), 4 x 200
	 * Gb/s Slingshot-11, one NIC per package: the table gives the speed, a
	 * text without a count gets one per GCD (8) */
	{"MI250X", NULL, "MI250X", 200, 8, false, false, false},
	{"MI250", NULL, "MI250", 200, 8, false, false, false},   /* as the MI250X (UNVERIFIED) */
	{"MI325", NULL, "MI325X", 400, 8, false, false, false},  /* as the MI300X */
	/* MI355X/MI350X platforms: 8 GPUs, one 400 Gb/s NIC each (AMD Pensando
	 * Pollara 400 in AMD's reference platform) */
	{"MI355", NULL, "MI355X", 400, 8, false, false, false},
	{"MI350", NULL, "MI350X", 400, 8, false, false, false},
	/* not in the catalog (""): the MI300A APU (El Capitan: 4 a node, 128 GB
	 * shared with the CPU cores) is not an MI300X */
	{"MI300A", NULL, "", 200, 4, false, false, false},
	{"MI300", NULL, "MI300X", 400, 8, false, false, false},
	{"L40S", NULL, "L40S", 200, 8, false, false, false},
	/* AWS g6.48xlarge: 8 x L4, 100 Gb/s */
	{"L4", NULL, "L4", 100, 8, true, false, false},
	/* GeForce and workstation cards: PCIe boxes of 8 with 100 Gb/s, as the
	 * A40's (UNVERIFIED), their names as written with or without blanks. The
	 * RTX PRO 6000's Server Edition has its own memory; its 300 W Max-Q, the
	 * RTX 3090 Ti, the China-market RTX 4090D, 5090D and 6000D, NVIDIA's GB10
	 * (DGX Spark) and the RTX 5880 Ada are not in the catalog (no data sheet of
	 * their compute at hand): not read as the part their name starts with */
	{"RTX PRO 6000", "Max-Q", "", 100, 8, false, false, false},   /* the 300 W card */
	{"RTX PRO 6000", "Server Edition", "RTX-PRO-6000-SERVER", 100, 8, false, false, false},
	{"RTX PRO 6000", NULL, "RTX-PRO-6000", 100, 8, false, false, false},
	{"RTX 6000D", NULL, "", 100, 8, false, false, false},
	{"RTX 6000 Ada", NULL, "RTX-6000-ADA", 100, 8, false, false, false},
	{"RTX 5880", NULL, "", 100, 8, false, false, false},
	{"RTX 5090D", NULL, "", 100, 8, false, false, false},
	{"RTX 5090 D", NULL, "", 100, 8, false, false, false},
	{"RTX 5090", NULL, "RTX-5090", 100, 8, false, false, false},
	{"RTX5090", NULL, "RTX-5090", 100, 8, false, false, false},
	{"RTX-5090", NULL, "RTX-5090", 100, 8, false, false, false},
	{"RTX 4090D", NULL, "", 100, 8, false, false, false},
	{"RTX 4090 D", NULL, "", 100, 8, false, false, false},
	{"RTX 4090", NULL, "RTX-4090", 100, 8, false, false, false},
	{"RTX4090", NULL, "RTX-4090", 100, 8, false, false, false},
	{"RTX-4090", NULL, "RTX-4090", 100, 8, false, false, false},
	{"RTX 3090 Ti", NULL, "", 100, 8, false, false, false},
	{"RTX 3090", NULL, "RTX-3090", 100, 8, false, false, false},
	{"RTX3090", NULL, "RTX-3090", 100, 8, false, false, false},
	{"RTX-3090", NULL, "RTX-3090", 100, 8, false, false, false},
	{"RTX 2080 Ti", NULL, "RTX-2080-TI", 100, 8, false, false, false},
	{"RTX 2080Ti", NULL, "RTX-2080-TI", 100, 8, false, false, false},
	{"RTX2080Ti", NULL, "RTX-2080-TI", 100, 8, false, false, false},
	{"RTX 8000", NULL, "QUADRO-RTX-8000", 100, 8, false, false, false},
	{"A30", NULL, "A30", 100, 8, true, false, false},
	{"GB10", NULL, "", 200, 1, true, false, false},
	{"DGX Spark", NULL, "", 200, 1, false, true, false},
	/* A40 and RTX A6000: PCIe servers of 8, 100 Gb/s (UNVERIFIED) */
	{"A40", NULL, "A40", 100, 8, true, false, false},
	{"A6000", NULL, "A6000", 100, 8, false, false, false},
	/* AWS g4dn.metal: 8 x T4, 100 Gb/s (g4dn.12xlarge: 4 x T4, 50 Gb/s) */
	{"T4", NULL, "T4", 100, 8, true, false, false},
};

/* A text that names only the architecture ("NVIDIA Ampere GPUs", MegaScale's
 * paper) gets the generation's datacenter training part, the one its large
 * clusters were built of: Ampere A100 (80 GB; 40 GB or PCIe when the text
 * says so), Hopper H100 SXM (or PCIe), Blackwell B200, Blackwell Ultra B300,
 * Volta V100; Grace Hopper, Grace Blackwell (Ultra) are GH200, GB200, GB300.
 * A prediction from it is marked inferred (`*`). Only when no GPU of the
 * catalog is named, and not beside a workstation card, a CPU of the name or
 * another accelerator (gpu_of). First match wins, as in gpu_maps. */
static const gpu_map generations[] = {
	{"Grace Blackwell Ultra", NULL, "GB300", 800, 72, false, false, false},
	{"Grace Blackwell", NULL, "GB200", 400, 72, false, false, false},
	{"Grace Hopper", NULL, "GH200", 200, 4, false, false, false},
	{"Blackwell Ultra", NULL, "B300", 800, 8, true, false, false},
	{"Ampere", "PCIe", "A100-PCIE", 200, 8, true, false, false},
	{"Ampere", "40G", "A100-40GB", 200, 8, true, false, false},
	{"Ampere", "40 GB", "A100-40GB", 200, 8, true, false, false},
	{"Ampere", NULL, "A100", 200, 8, true, false, false},
	{"Hopper", "PCIe", "H100-PCIE", 400, 8, true, false, false},
	{"Hopper", NULL, "H100", 400, 8, true, false, false},
	{"Blackwell", NULL, "B200", 400, 8, true, false, false},
	{"Volta", "PCIe", "V100-PCIE", 100, 8, true, false, false},
	{"Volta", NULL, "V100", 100, 8, true, false, false},
};

static bool by_generation(const gpu_map *m)
{
	return m >= generations && m < generations + sizeof generations / sizeof generations[0];
}

/* `token` as a whole word of `hw`, any case; "8x" right before it counts as
 * a boundary ("8xT4"). */
static bool has_gpu_word(const char *hw, const char *token)
{
	size_t n = strlen(token);
	for (const char *p = val__find(hw, token); p; p = val__find(p + 1, token)) {
		bool left = p == hw || !isalnum((unsigned char)p[-1]) ||
		            ((p[-1] == 'x' || p[-1] == 'X') && p - 1 > hw &&
		             isdigit((unsigned char)p[-2]));
		if (left && !isalnum((unsigned char)p[n]))
			return true;
	}
	return false;
}

static void clause_at(const char *at, char *clause, size_t len);

/* Whether the text's GPUs are PCIe cards: it says PCIe of a card, not of a
 * bus ("PCIe Gen5", "PCIe 4.0", "PCIe switch": the NICs' or the CPUs'), and
 * not SXM, NVSwitch, DGX or HGX ("DGX A100 (NVSwitch, PCIe Gen4 NICs)"). */
static bool pcie_cards(const char *hw)
{
	if (val__has(hw, "SXM") || val__has(hw, "NVSwitch") || val__has(hw, "DGX") ||
	    val__has(hw, "HGX"))
		return false;
	for (const char *p = val__find(hw, "PCIe"); p; p = val__find(p + 1, "PCIe")) {
		/* one of two forms the text does not choose between ("NVLink/PCIe
		 * form not stated", "SXM or PCIe unknown") */
		char clause[96];
		clause_at(p, clause, sizeof clause);
		if (val__has(clause, "not stated") || val__has(clause, "unknown") ||
		    val__has(clause, "not given"))
			continue;
		const char *q = p + 4;
		while (*q == ' ' || *q == '-')
			q++;
		const char *d = q;
		while (isdigit((unsigned char)*d))
			d++;
		bool version = d > q && (*d == '.' || *d == ' ' || *d == ',' || *d == ')' ||
		                         *d == 'x' || !*d);   /* "PCIe 4.0", "PCIe5 x16" */
		if (strncasecmp(q, "Gen", 3) && !version && strncasecmp(q, "switch", 6) &&
		    strncasecmp(q, "bus", 3) && strncasecmp(q, "lane", 4))
			return true;
	}
	return false;
}

/* A memory size tag ("40GB", "40G", "16 GB") as the GPU's: not the end of a
 * larger number ("640GB"), nor a rate ("40GbE", "40 Gb/s", "40 GB/s"). */
static bool mem_tag(const char *hw, const char *tag)
{
	size_t n = strlen(tag);
	for (const char *p = val__find(hw, tag); p; p = val__find(p + 1, tag)) {
		if (p > hw && isdigit((unsigned char)p[-1]))
			continue;
		const char *q = p + n;
		if (tag[n - 1] == 'G' && *q == 'b' && q[1] && strchr("/pEei", q[1]))
			continue;   /* Gb/s, Gbps, GbE, Gbit: bits, a rate ("40gb" is a size) */
		while (*q == 'B' || *q == 'b' || *q == 'i')
			q++;
		if ((*q == '/' && (q[1] == 's' || q[1] == 'S')) || !strncasecmp(q, "ps", 2))
			continue;   /* GB/s, Gbps; not "40GB/node" */
		return true;
	}
	return false;
}

/* The HBM2e SXM H100's memory size, as a text gives it: 94, 95 or 96 GB
 * ("94/95GB": the last one tagged). */
static bool hbm2e_size(const char *hw)
{
	static const char *const sizes[] = {"94GB", "94 GB", "95GB", "95 GB", "96GB", "96 GB"};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (mem_tag(hw, sizes[i]))
			return true;
	return false;
}

/* The first mention of the map's token in hw that the text does not disown
 * ("not H100", "unlike the A100", "vs B200"); NULL when there is none. */
/* Whether the GPU name at p is negated or compared by the word right before
 * it (an article between): "not H100", "unlike the A100", "vs. B200",
 * "faster than an H100"; not "more than 1000 A100" (a count between) nor
 * "RoCE not IB. NVIDIA A100". */
static bool gpu_disowned(const char *hw, const char *p)
{
	static const char *const words[] = {"not", "no", "unlike", "vs", "vs.", "versus", "than",
		"without", "instead of", "compared to", "compared with", "compared against"};
	const char *e = p;
	while (e > hw && e[-1] == ' ')
		e--;
	static const char *const articles[] = {"the", "an", "a"};
	for (size_t i = 0; i < sizeof articles / sizeof articles[0]; i++) {
		size_t n = strlen(articles[i]);
		if ((size_t)(e - hw) > n && !strncasecmp(e - n, articles[i], n) && e[-n - 1] == ' ') {
			e -= n;
			while (e > hw && e[-1] == ' ')
				e--;
			break;
		}
	}
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t n = strlen(words[i]);
		if ((size_t)(e - hw) >= n && !strncasecmp(e - n, words[i], n) &&
		    (e - n == hw || !isalpha((unsigned char)e[-n - 1])))
			return true;
	}
	return false;
}

/* The first mention of the map's token in hw, not disowned when `own`
 * (gpu_disowned); one that starts a word ("ga100-batch", a host's name,
 * does not) when there is one. NULL when there is none. */
static const char *mention_of(const char *hw, const gpu_map *m, bool own)
{
	size_t n = strlen(m->token);
	const char *inside = NULL;
	for (const char *p = val__find(hw, m->token); p; p = val__find(p + 1, m->token)) {
		bool left = p == hw || !isalnum((unsigned char)p[-1]) ||
		            ((p[-1] == 'x' || p[-1] == 'X') && p - 1 > hw &&
		             isdigit((unsigned char)p[-2]));
		if (m->word && (!left || isalnum((unsigned char)p[n])))
			continue;
		if (own && gpu_disowned(hw, p))
			continue;
		if (left)
			return p;
		if (!inside)
			inside = p;
	}
	return inside;
}

/* Whether the map names the text's GPU; *at: where the text names it. */
static bool map_matches_at(const char *hw, const gpu_map *m, const char **at, bool own)
{
	const char *p = mention_of(hw, m, own);
	bool named = p != NULL;
	/* 94 GB is the H100 NVL card's, unless the text says SXM (TSUBAME
	 * 4.0's H100 SXM5 94GB) */
	if (named && !strcmp(m->catalog, "H100-NVL") && m->with && val__has(hw, "SXM"))
		named = false;
	if (named && !strcmp(m->catalog, "H100-HBM2E"))
		named = !pcie_cards(hw) && hbm2e_size(hw);
	if (named && !strcmp(m->token, "H100 80GB HBM3") && pcie_cards(hw))
		named = false;   /* an H100 PCIe card said so beside the name */
	bool with = !m->with || (!strcmp(m->with, "PCIe") ? pcie_cards(hw)
	                         : isdigit((unsigned char)*m->with) ? mem_tag(hw, m->with)
	                                                          : val__has(hw, m->with));
	if (at)
		*at = p;
	return named && with;
}

static bool map_matches(const char *hw, const gpu_map *m)
{
	return map_matches_at(hw, m, NULL, false);
}

/* Whether any of `set` is among the first n characters of s. */
static bool strpbrk_n(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n && s[i]; i++)
		if (strchr(set, s[i]))
			return true;
	return false;
}

/* The GPU a map names, whatever the system or variant: "A100" for
 * A100-PCIE, A100-40GB, Selene and p4d; "MI250" for the MI250X (LUMI's
 * Slurm names its MI250X GCDs "mi250"). A GB200 is not a B200, nor a GH200
 * an H200: other memory, other nodes. */
static void gpu_family(const gpu_map *m, char *out, size_t n)
{
	const char *c = m->catalog;
	size_t len = strcspn(c, "-");
	/* a name that starts with a word ("RTX-5090", "RTX-PRO-6000-SERVER",
	 * "QUADRO-RTX-8000"): through its first part with a digit */
	while (c[len] == '-' && !strpbrk_n(c, len, "0123456789"))
		len += 1 + strcspn(c + len + 1, "-");
	if (len > 1 && isdigit((unsigned char)c[len - 2]) && isupper((unsigned char)c[len - 1]))
		len--;   /* MI250X, MI300X, A10G */
	snprintf(out, n, "%.*s", (int)len, c);
}

/* The GPU the text names first (a second one is a comparison or another
 * table's: "A100 (the paper also reports B200 results)"), not one negated or
 * compared ("not H100"; all of them disowned: the first named anyway), in
 * the most specific form the table gives it (its order: DGX-2 before V100,
 * a PCIe or 40 GB qualifier before the plain part). */
/* The architecture the text names ("NVIDIA Ampere GPUs", MegaScale's
 * paper), first in the generations' table order; NULL beside a workstation
 * or embedded card, a CPU of the same name (Ampere Altra) or another
 * vendor's accelerator, where an architecture's name says nothing of the
 * part. *at: where the text names it. */
static const gpu_map *generation_of(const char *hw, const char **at)
{
	static const char *const not_datacenter[] = {"RTX", "GeForce", "Quadro", "TITAN",
		"Jetson", "Orin", "A2", "A10", "A16", "A30", "A40", "Altra", "Gaudi", "Gaudi2",
		"Gaudi3", "Trainium", "Trainium2", "Inferentia", "TPU", "GB10", "Spark"};
	for (size_t i = 0; i < sizeof not_datacenter / sizeof not_datacenter[0]; i++)
		if (has_gpu_word(hw, not_datacenter[i]))
			return NULL;
	for (size_t i = 0; i < sizeof generations / sizeof generations[0]; i++)
		if (map_matches_at(hw, &generations[i], at, false))
			return &generations[i];
	return NULL;
}

static const gpu_map *gpu_of(const char *hw)
{
	const gpu_map *first = NULL;
	const char *first_at = NULL;
	for (int own = 1; own >= 0 && !first; own--)
		for (size_t i = 0; i < sizeof gpu_maps / sizeof gpu_maps[0]; i++) {
			const char *at;
			if (map_matches_at(hw, &gpu_maps[i], &at, own) && (!first || at < first_at)) {
				first = &gpu_maps[i];
				first_at = at;
			}
		}
	/* an architecture named before a part of another one ("NVIDIA Ampere
	 * GPUs ... (the paper also reports B200 results)") is the run's; not
	 * before its own ("Blackwell GB200 NVL72") */
	const char *gen_at = NULL;
	const gpu_map *gen = first ? generation_of(hw, &gen_at) : NULL;
	if (gen && gen_at && gen_at < first_at) {
		const hw_gpu *g = hw_gpu_find(gen->catalog), *f = hw_gpu_find(first->catalog);
		if (g && f && g->arch != f->arch)
			return gen;
	}
	if (first) {
		char want[32], fam[32];
		gpu_family(first, want, sizeof want);
		for (size_t i = 0; i < sizeof gpu_maps / sizeof gpu_maps[0]; i++) {
			gpu_family(&gpu_maps[i], fam, sizeof fam);
			if (!strcmp(fam, want) && map_matches(hw, &gpu_maps[i]))
				return &gpu_maps[i];
		}
		return first;
	}
	const char *at;
	return generation_of(hw, &at);
}

/* The GPU's name right at `s` (after blanks and a vendor): "4x NVIDIA A100",
 * not "4x 400Gb/s". */
static bool gpu_next(const char *s, const gpu_map *m)
{
	/* a vendor and a product line before the name ("NVIDIA Tesla V100") */
	static const char *const vendor[] = {"NVIDIA ", "AMD Instinct ", "AMD ", "Tesla "};
	while (*s == ' ')
		s++;
	for (size_t v = 0; v < sizeof vendor / sizeof vendor[0]; v++)
		if (!strncasecmp(s, vendor[v], strlen(vendor[v])))
			s += strlen(vendor[v]);
	return !strncasecmp(s, m->token, strlen(m->token));
}

/* The GPU's name between c and q ("H100 x4 per node"). */
static bool gpu_before(const char *c, const char *q, const gpu_map *m)
{
	const char *g = val__find(c, m->token);
	return g && g < q;
}

/* A GB200/GB300 job said to span NVLink domains ("across NVLink domains",
 * "cross-domain" where the text speaks of NVLink: not a "cross-domain
 * corpus") */
static bool gb_cross_domain(const char *t)
{
	static const char *const cross[] = {"cross NVLink-domain", "cross NVLink domain",
		"across NVLink domains"};
	return val__has_any(t, cross, sizeof cross / sizeof cross[0]) ||
	       (val__has(t, "cross-domain") && (val__has(t, "NVLink") || val__has(t, "MNNVL")));
}

/* NVLink across a GB200/GB300 domain's trays said to be on
 * (NCCL_MNNVL_ENABLE=1 or 2, "MNNVL+RDMA") */
static bool gb_mnnvl_on(const char *t)
{
	static const char *const on[] = {"MNNVL+", "MNNVL=1", "MNNVL=2", "MNNVL_ENABLE=1",
		"MNNVL_ENABLE=2", "MNNVL enabled"};
	return val__has_any(t, on, sizeof on / sizeof on[0]);
}

/* Text that keeps a GB200/GB300 job's compute trays in different NVLink
 * domains, so that the network joins them: NVLink across trays denied
 * ("without MNNVL", NCCL_MNNVL_ENABLE=0) or the trays said to sit in
 * domains of their own ("distinct NVLink domains"; "cross-domain" unless
 * NVLink across trays is said to be on: then two domains, gb_two_domains). */
static bool gb_domains_apart(const char *t)
{
	static const char *const apart[] = {"without MNNVL", "no MNNVL", "MNNVL disabled",
		"MNNVL_ENABLE=0", "distinct NVLink domains", "different NVLink domains",
		"separate NVLink domains"};
	return val__has_any(t, apart, sizeof apart / sizeof apart[0]) ||
	       (gb_cross_domain(t) && !gb_mnnvl_on(t));
}

/* A job across NVLink domains with NVLink on inside each ("cross-domain,
 * MNNVL+RDMA", "two subblocks, MNNVL=2"): the fewest domains that crossing
 * means, two, when the text does not split it */
static bool gb_two_domains(const char *t)
{
	return gb_cross_domain(t) && gb_mnnvl_on(t) && !gb_domains_apart(t);
}

/* GB200 and GB300 ship as NVL72 racks (NVIDIA's GB200 / GB300 NVL72
 * reference designs; NVL36x2 is the same 72 GPUs): a row that names no other
 * domain ("NVL4", "NVL36", "NVL8") and does not keep its trays apart is one,
 * whatever its trays' "4 GPUs per node" say. */
static bool gb_rack_by_default(const char *hw)
{
	return !val__has(hw, "NVL4") && !val__has(hw, "NVL8") && !val__has(hw, "NVL36") &&
	       !val__has(hw, "NVL16") && !val__has(hw, "NVL2") && !gb_domains_apart(hw);
}

/* A GB200/GB300 NVL72 compute tray's GPUs (the reference designs' 4) */
#define GB_TRAY_GPUS 4

/* The NVLink domain a text names: "NVL36" 36, "NVL36x2" 72; 0 when none */
static int nvl_size(const char *hw)
{
	for (const char *p = val__find(hw, "NVL"); p; p = val__find(p + 3, "NVL")) {
		if (!isdigit((unsigned char)p[3]))
			continue;
		char *end;
		long n = strtol(p + 3, &end, 10);
		if ((*end == 'x' || *end == 'X') && isdigit((unsigned char)end[1]))
			n *= strtol(end + 1, NULL, 10);
		if (n >= 2 && n <= 576)
			return (int)n;
	}
	return 0;
}

static bool gb_part(const gpu_map *m)
{
	return !strcmp(m->catalog, "GB200") || !strcmp(m->catalog, "GB300");
}

/* GPUs per node: "8 GPU/node", "4 GPUs per node", "4 per server", "nodes
 * with 4 GPUs each", "4-GPU nodes"; else the number before the GPU's name
 * ("8x A100") when a node can hold that many (at most 16, or the part's own
 * domain: "72x GB200"): "32x A100 80GB" is a job of 32, not one node. */
/* Whether the number ending at `end` counts a rate's links ("100 Gbps x 16
 * per node", "200G HDR x 8 per node"): an x right before it, after a rate's
 * unit or a fabric's name; such a count is the node's NICs, not its GPUs. */
static bool nic_count_before(const char *hw, const char *end)
{
	const char *d = end;
	while (d > hw && isdigit((unsigned char)d[-1]))
		d--;
	while (d > hw && d[-1] == ' ')
		d--;
	if (d == end || d == hw || (d[-1] != 'x' && d[-1] != 'X'))
		return false;
	d--;
	while (d > hw && d[-1] == ' ')
		d--;
	static const char *const after[] = {"Gbps", "Gb/s", "Gbit/s", "GbE", "HDR", "NDR", "EDR",
		"XDR", "IB", "NICs", "NIC", "ports", "links", "HCAs", "Slingshot", "EFA", "RoCE"};
	for (size_t i = 0; i < sizeof after / sizeof after[0]; i++) {
		size_t k = strlen(after[i]);
		if ((size_t)(d - hw) >= k && !strncasecmp(d - k, after[i], k))
			return true;
	}
	return false;
}

static int gpus_per_node(const char *hw, const gpu_map *m)
{
	static const char *const per[] = {"GPU/node", "GPUs/node", " GPU per node",
		" GPUs per node", " GPUs per server", " GPU per server", " GPUs per host",
		" GPU per host", " GPUs per instance", " GPU per instance", " per node", " per server",
		" per host", " GPUs each", "-GPU node", "-GPU server", "-GPU host", " GPU node",
		"/node", "/server", " GPUs/server", "-GPU", " accelerators per node"};
	int n = 0;
	/* MLPerf's system description: "accelerators_per_node: 4" */
	const char *acc = val__find(hw, "accelerators_per_node");
	if (acc) {
		const char *q = acc + strlen("accelerators_per_node");
		while (*q == ' ' || *q == ':' || *q == '=')
			q++;
		n = atoi(q);
	}
	for (size_t i = 0; i < sizeof per / sizeof per[0] && n <= 0; i++) {
		const char *p = val__find(hw, per[i]);
		const char *b = p;
		while (b && b > hw && b[-1] == ' ')
			b--;
		/* a memory size is no count: "V100-SXM2-16GB per node" */
		if (b && b - hw >= 2 && (!strncasecmp(b - 2, "GB", 2) || !strncasecmp(b - 2, "TB", 2) ||
		                         (b - hw >= 3 && !strncasecmp(b - 3, "GiB", 3))))
			continue;
		if (p && !nic_count_before(hw, b))
			n = val__number_before(hw, p, false);
	}
	/* "4x NVIDIA A100 40GB SXM4 per node", "H100 x4 per node": a count with
	 * its x in the clause that says per node */
	static const char *const node_words[] = {"per node", "per server", "per host", "/node"};
	for (size_t i = 0; i < sizeof node_words / sizeof node_words[0] && n <= 0; i++) {
		const char *p = val__find(hw, node_words[i]);
		if (!p)
			continue;
		const char *c = p;
		while (c > hw && !strchr(",;(", c[-1]))
			c--;
		for (const char *q = c; q < p && n <= 0; q++) {
			bool start = q == c || !isalnum((unsigned char)q[-1]);
			if (start && isdigit((unsigned char)*q)) {   /* "4x", "4 x" */
				const char *e = q;
				while (isdigit((unsigned char)*e))
					e++;
				const char *x = e;
				while (*x == ' ')
					x++;
				if ((*x == 'x' || *x == 'X') && !isalpha((unsigned char)x[1]) &&
				    gpu_next(x + 1, m))   /* not "4x400Gb/s NDR per node" */
					n = atoi(q);
			} else if ((*q == 'x' || *q == 'X') && (q == c || q[-1] == ' ') &&
			           isdigit((unsigned char)q[1]) && gpu_before(c, q, m)) {   /* "x4" */
				n = atoi(q + 1);
			}
		}
	}
	/* "2 nodes x 4 GPUs", "2 node(s) x 4 GPUs": the count after the x,
	 * when nothing above said a node's GPUs */
	static const char *const nodes_x[] = {"nodes x ", "node x ", "node(s) x "};
	for (size_t i = 0; i < sizeof nodes_x / sizeof nodes_x[0] && n <= 0; i++) {
		const char *p = val__find(hw, nodes_x[i]);
		if (!p || val__number_before(hw, p, false) <= 0)
			continue;
		char *e;
		long v = strtol(p + strlen(nodes_x[i]), &e, 10);
		while (*e == ' ')
			e++;
		if (v > 0 && v <= 16 && !strncasecmp(e, "GPU", 3))
			n = (int)v;
	}
	/* a GCP machine type's count: "a2-highgpu-4g" */
	const char *t = m->system ? val__find(hw, m->token) : NULL;
	if (n <= 0 && t && t[strlen(m->token)] == '-' && isdigit((unsigned char)t[strlen(m->token) + 1])) {
		char *e;
		long v = strtol(t + strlen(m->token) + 1, &e, 10);
		if (*e == 'g' && v > 0 && v <= 16)
			n = (int)v;
	}
	/* a system's or instance's own name counts nodes ("2 x AWS g4dn.metal"):
	 * there the GPU's name is looked for ("1 T4 per node used") */
	char gname[16];
	snprintf(gname, sizeof gname, "%.*s", (int)strcspn(m->catalog, "-"), m->catalog);
	const char *tok = m->system ? gname : m->token;
	if (n <= 0 && !val__has(hw, "DGX-2") && tok[0]) {
		/* the number before any mention of the GPU ("DGX Station A100 (4x A100)") */
		static const char *const vendor[] = {"NVIDIA ", "AMD Instinct ", "AMD "};
		for (const char *g = val__find(hw, tok); g && n <= 0; g = val__find(g + 1, tok)) {
			const char *at = g;   /* "4x NVIDIA A100", "1 nvidia H100" */
			for (size_t v = 0; v < sizeof vendor / sizeof vendor[0]; v++) {
				size_t k = strlen(vendor[v]);
				if ((size_t)(g - hw) >= k && !strncasecmp(g - k, vendor[v], k)) {
					at = g - k;
					break;
				}
			}
			n = val__number_before(hw, at, false);
		}
		/* NVIDIA's and AMD's 8-GPU boards: "16 H100 GPUs" is a job of two
		 * nodes (a 16-GPU node is a DGX-2 or a cloud type, named as such) */
		if (n > 8 && n != m->gpus_per_node)
			n = 0;
	}
	/* a GB200 (GB300) NVL72's node is its NVLink domain of 72: a count of
	 * racks or compute trays before the name ("8 x GB200 NVL72 racks", "4x
	 * GB200 per compute tray") is not one */
	if (gb_part(m) && !gb_domains_apart(hw) && (val__has(hw, "NVL72") || gb_rack_by_default(hw)))
		return 72;
	/* another domain said ("GB200 NVL36"); trays when the text keeps them apart */
	int nvl = gb_part(m) && !gb_domains_apart(hw) ? nvl_size(hw) : 0;
	if (nvl > 0 && nvl <= 72)
		return nvl;
	if (gb_part(m) && (n <= 0 || n > 72))
		return GB_TRAY_GPUS;
	/* an MI250X (MI250) package is two GCDs, each what ROCm calls a GPU and
	 * the catalog's part: "4x MI250X per node (8 GCDs)" is 8; a count of
	 * up to 4 is of packages (HPE Cray EX235a and the MI250 servers hold 4) */
	if (!strncmp(m->catalog, "MI250", 5)) {
		const char *g = val__find(hw, "GCD");
		int gcds = g ? val__number_before(hw, g, false) : 0;
		if (gcds > 0 && gcds <= 8)   /* a node's (4 packages); more is the job's */
			return gcds;
		if (n > 0 && n <= 4)
			n *= 2;
	}
	return n > 0 && n <= 72 ? n : m->gpus_per_node;
}

/* The number at `p` as a rate's text writes it: "3,200" is 3200 (a lead of
 * one to three digits, groups of three, at most 100,000 Gb/s, a node's
 * NICs), else its digits alone ("10,25,100 GbE" lists speeds; "200,400
 * Gbps" is two); an item after "digit," is a list's, never grouped.
 * `q`: past it. */
static double rate_number(const char *p, const char **q, bool listed)
{
	const char *end;
	double v = val__number_grouped(p, &end);
	if (!listed && end > p && memchr(p, ',', (size_t)(end - p)) &&
	    strspn(p, "0123456789") <= 3 && v <= 1e5) {
		*q = end;
		return v;
	}
	for (*q = p; isdigit((unsigned char)**q) || **q == '.'; (*q)++)
		;
	return atof(p);
}

/* The first line rate written in the text: a number, blanks allowed, then
 * Gb/s, Gbps, Gbit/s, GbE, Tb/s or Tbps ("8x200Gb/s", "4x 100 Gbps EFA",
 * "2x 100GbE"). Returns its Gb/s (0 if none) and where the number starts; a
 * rate in Tb/s ("3.2 Tbps EFA") is the node's aggregate: *aggregate set. */
static double line_rate(const char *hw, const char **at, bool *aggregate)
{
	/* a lower-case b is bits whatever the G ("100 gb/s", "100 gbit/s"); GB/s
	 * is bytes */
	static const char *const units[] = {"Gb/s", "Gbps", "gbps", "Gbit", "GBit", "gbit", "gb/s",
		"GbE", "gbe", "Gbe", "GBE", "Tb/s", "Tbps", "tbps", "Tbit", "tbit", "tb/s"};
	/* a link inside the node ("intra-instance 100 Gbps and inter-instance 25
	 * Gbps") is not the NIC's either */
	static const char *const not_nic[] = {"NVLink", "NVL", "PCIe", "HBM", "memory", "intra-",
		"intranode", "intra node", "within a node", "within the node", "inside the node",
		/* a switch's ports ("Tomahawk 4 switches (64x400G)"; not NVSwitch, a
		 * "switched" fabric, "switch fabric: 8x 200 Gb/s") */
		"switches", "Tomahawk", "Jericho"};
	for (const char *p = hw; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > hw && (isdigit((unsigned char)p[-1]) ||
		                                               p[-1] == '.')))
			continue;
		/* a group after a thousands comma belongs to the number before it:
		 * "3,200 Gbps" is 3200, not 200 (but "10,25,100 GbE" lists 100) */
		bool listed = p - 1 > hw && p[-1] == ',' && isdigit((unsigned char)p[-2]);
		if (listed) {
			const char *s0 = p - 1, *end;
			while (s0 > hw && (isdigit((unsigned char)s0[-1]) || s0[-1] == ','))
				s0--;
			while (*s0 == ',')
				s0++;
			rate_number(s0, &end, s0 > hw && s0[-1] == ',');
			if (end > p)
				continue;
		}
		/* a GPU link's rate ("NVLink 4800 Gb/s per GPU") is not the NIC's: look
		 * back to the last separator */
		char before[24];
		size_t k = 0;
		while (k < sizeof before - 1 && p - k > hw && !strchr(",;()", p[-(long)k - 1]))
			k++;
		/* a rate opening a bracket is its subject's: "NVLink4 (900 gb/s
		 * per GPU)" */
		bool count_only = k < 8;   /* "(64x400G)": a port count before it */
		for (size_t i = 1; i <= k && count_only; i++)
			count_only = isdigit((unsigned char)p[-(long)i]) || p[-(long)i] == ' ' ||
			             p[-(long)i] == 'x' || p[-(long)i] == 'X';
		if (p - k > hw && p[-(long)k - 1] == '(' && (k < 3 || count_only)) {
			k++;
			while (k < sizeof before - 1 && p - k > hw && !strchr(",;()", p[-(long)k - 1]))
				k++;
		}
		memcpy(before, p - k, k);
		before[k] = '\0';
		/* "... with 128GB memory and 800Gbps interconnect": the rate's own part */
		for (char *a = strstr(before, " and "); a; a = strstr(before, " and "))
			memmove(before, a + 5, strlen(a + 5) + 1);
		bool skip = false;
		for (size_t i = 0; i < sizeof not_nic / sizeof not_nic[0]; i++)
			if (val__has(before, not_nic[i]))
				skip = true;
		if (skip)
			continue;
		const char *q;
		double num = rate_number(p, &q, listed);   /* "3,200" */
		while (*q == ' ')
			q++;
		for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
			if (!strncmp(q, units[i], strlen(units[i]))) {   /* GB/s is bytes */
				*at = p;
				*aggregate = units[i][0] == 'T' || units[i][0] == 't';
				return num * (*aggregate ? 1000 : 1);
			}
		/* Ethernet's "100G", "400G", "400Gb" for the speeds a NIC comes in
		 * (not "80G" of memory) */
		double v = atof(p);
		bool nic_speed = v == 10 || v == 25 || v == 40 || v == 50 || v == 100 || v == 200 ||
		                 v == 400 || v == 800;
		size_t g = q[0] != 'G' ? 0 : q[1] == 'b' ? 2 : 1;
		bool word = (p == hw || !isalpha((unsigned char)p[-1]) ||   /* not "A10G"; "8x100G" */
		             ((p[-1] == 'x' || p[-1] == 'X') && p - 1 > hw &&
		              isdigit((unsigned char)p[-2]))) &&
		            !(p - 1 > hw && p[-1] == '-' && isalnum((unsigned char)p[-2]));   /* "A100-40G" */
		if (nic_speed && g && word && !isalnum((unsigned char)q[g])) {
			*at = p;
			*aggregate = false;
			return v;
		}
	}
	return 0;
}

/* Whether the NIC's clause, from its rate to the next separator, says the
 * count is per GPU ("1x400Gb/s NDR IB per GPU"), not per node: bandwidth
 * text elsewhere ("NVLink 900 GB/s per GPU") does not count. */
static void clause_at(const char *at, char *clause, size_t len)
{
	/* on past the bracket of a rate that is all it holds ("1 x NDR (400G) IB
	 * per GPU"), not one that holds more ("NICs (4x 400 Gb/s NDR) and NVLink
	 * 900 GB/s per GPU") */
	size_t k = 0;
	while (at[k] && !strchr(",;()", at[k]))
		k++;
	bool alone = false;
	if (at[k] == ')') {   /* "400G)" or "400 Gb/s)": the rate and its unit alone */
		const char *u = at;
		while (isdigit((unsigned char)*u) || *u == '.')
			u++;
		while (*u == ' ')
			u++;
		while (isalpha((unsigned char)*u) || *u == '/')
			u++;
		alone = u == at + k;
	}
	k = 0;
	while (k < len - 1 && at[k] && !strchr(",;(", at[k]) && (alone || at[k] != ')'))
		k++;
	memcpy(clause, at, k);
	clause[k] = '\0';
}

/* A NIC shared by two GPUs: "400 Gb/s InfiniBand per GPU pair", "one
 * per pair of GPUs", "per two GPUs". */
static bool per_pair_after(const char *at)
{
	char clause[96];
	clause_at(at, clause, sizeof clause);
	return val__has(clause, "per GPU pair") || val__has(clause, "each GPU pair") ||
	       val__has(clause, "pair of GPUs") || val__has(clause, "per two GPUs") ||
	       val__has(clause, "per 2 GPUs") || val__has(clause, "every two GPUs") ||
	       val__has(clause, "per pair");
}

static bool per_gpu_after(const char *at)
{
	char clause[96];
	clause_at(at, clause, sizeof clause);
	return !per_pair_after(at) && (val__has(clause, "per GPU") || val__has(clause, "each GPU") ||
	       val__has(clause, "per accelerator") || val__has(clause, "/GPU"));
}

/* Whether a NIC word shares a clause with one of the `n` phrases per[] (a
 * "per GPU" not followed by "pair"). */
static bool nic_said_with(const char *hw, const char *const *per, size_t n)
{
	static const char *const nic[] = {"NIC", "HCA", "adapter", "ConnectX", "InfiniBand", "NDR",
		"HDR", "EDR", "EFA", "RoCE", "Slingshot"};
	for (size_t i = 0; i < n; i++)
		for (const char *p = val__find(hw, per[i]); p; p = val__find(p + 1, per[i])) {
			if (!strncasecmp(p + strlen(per[i]), " pair", 5))
				continue;   /* "per GPU pair": nic_per_pair_words */
			char clause[160];
			val__clause_around(hw, p, strlen(per[i]), clause, sizeof clause);
			for (size_t k = 0; k < sizeof nic / sizeof nic[0]; k++)
				if (val__has(clause, nic[k]))
					return true;
		}
	return false;
}

/* A NIC said per GPU without a rate in its clause: "NDR InfiniBand, one NIC
 * per GPU", "an HCA for each GPU". */
static bool nic_per_gpu_words(const char *hw)
{
	static const char *const per[] = {"per GPU", "each GPU", "per accelerator", "/GPU"};
	return nic_said_with(hw, per, sizeof per / sizeof per[0]);
}

/* A NIC said per GPU pair without a rate in its clause: "1 NIC per 2 GPUs",
 * "an HCA for each pair of GPUs", "one NIC per GPU pair". */
static bool nic_per_pair_words(const char *hw)
{
	static const char *const per[] = {"per 2 GPUs", "per two GPUs", "pair of GPUs",
		"GPU pair", "every two GPUs"};
	return nic_said_with(hw, per, sizeof per / sizeof per[0]);
}

/* A count written after the rate in its clause: "400Gb/s NDR IB x8 per node",
 * "200G HDR x 4", "100 Gbps x 16"; 0 if none. */
static int count_after_rate(const char *at)
{
	char clause[96];
	clause_at(at, clause, sizeof clause);
	static const char *const fabric[] = {"IB", "InfiniBand", "EDR", "HDR", "NDR", "XDR", "RoCE",
		"EFA", "NIC", "NICs", "HCA", "HCAs", "adapters", "Ethernet", "GbE", "Slingshot"};
	static const char *const units[] = {"Gbps", "Gb/s", "Gbit/s", "Gbits/s"};
	for (const char *p = clause + 1; *p; p++) {
		if ((*p != 'x' && *p != 'X') || p[-1] != ' ')
			continue;
		/* right after a fabric or NIC word ("NDR IB x8") or the rate's unit
		 * ("100 Gbps x 16"), not a slot's lanes ("PCIe Gen5 x16") */
		const char *w = p;
		while (w > clause && w[-1] == ' ')
			w--;
		bool unit = false;
		for (size_t i = 0; i < sizeof units / sizeof units[0] && !unit; i++) {
			size_t k = strlen(units[i]);
			unit = (size_t)(w - clause) >= k && !strncasecmp(w - k, units[i], k);
		}
		if (!unit && !val__word_before_in(clause, p, " ", fabric, sizeof fabric / sizeof fabric[0]))
			continue;
		const char *d = p + 1;
		while (*d == ' ')
			d++;
		char *e;
		long n = strtol(d, &e, 10);
		/* not a NIC's own ports ("200 Gbps x 2 ports per NIC, 8 NICs") */
		const char *after = e;
		while (*after == ' ')
			after++;
		if (unit && !strncasecmp(after, "port", 4) &&
		    (val__find(e, "per NIC") || val__find(e, "per HCA") ||
		     val__find(e, "per adapter") || val__find(e, "per card") || val__find(e, "NICs")))
			continue;
		if (e > d && n > 0 && n <= 64 && !isalnum((unsigned char)*e))
			return (int)n;
	}
	return 0;
}

/* Whether a rate written without a NIC count is the node's total: above any
 * single NIC (800 Gb/s, ConnectX-8), or EFA (AWS gives an instance's EFA
 * bandwidth: "400 Gbps EFA" on a p4d is 4 x 100), or said to be per node,
 * per instance, aggregate or total. */
static bool node_total_after(const char *at, double gbps)
{
	char clause[96];
	clause_at(at, clause, sizeof clause);
	return gbps > 800 || val__has(clause, "EFA") || val__has(clause, "per node") ||
	       val__has(clause, "per instance") || val__has(clause, "aggregate") ||
	       val__has_token(clause, "total") || val__has(clause, "inter-node") ||
	       val__has(clause, "internode") || val__has(clause, "node-to-node") ||
	       val__has(clause, "between nodes") || val__has(clause, "injection") ||
	       val__has(clause, "interconnect");
}

/* The NICs of a node of gpn GPUs and their line rate, from "8x200Gb/s HDR",
 * "8x HDR 200Gb/s", "4 OmniPath links/node (OPA; 100Gb/s each)", "2x 100GbE",
 * "HDR IB", "1x400Gb/s NDR IB per GPU" (a count per GPU times gpn), "3.2 Tbps
 * EFA", "3200 Gbps EFA", "800 Gb/s per node" (a node's aggregate: one NIC per
 * GPU sharing it). With no count: one
 * per GPU (DGX A100/H100, GB200 trays), 8 for a DGX-2's 16 GPUs, one for TCP
 * or plain Ethernet ("100GbE": a commodity node's one NIC). */
/* hw with the version numbers of NIC and fabric names blanked ("Slingshot 11",
 * "Slingshot-11", "ConnectX-7", "CX6", "EFAv2"), so that they are not read as
 * counts or rates. */
static void without_versions(const char *hw, char *out, size_t n)
{
	static const char *const names[] = {"Slingshot", "ConnectX", "CX", "EFAv", "EFA v"};
	snprintf(out, n, "%s", hw);
	/* an InfiniBand link's width written onto its generation ("1x
	 * InfiniBand 4xEDR 100 Gb/s": the 4X link every IB port is) or in the
	 * IBTA's capital ("4X EDR"), not a count of NICs, which is written
	 * apart in lower case ("4x EDR", "4x HDR 200Gb/s") */
	static const char *const gens[] = {"EDR", "HDR", "NDR", "FDR", "QDR", "XDR"};
	for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++)
		for (char *p = (char *)val__find(out, gens[i]); p; p = (char *)val__find(p + 1, gens[i]))
			if (p - out >= 2 && (p[-1] == 'x' || p[-1] == 'X') && p[-2] == '4' &&
			    (p - out == 2 || !isalnum((unsigned char)p[-3])))
				p[-2] = p[-1] = ' ';
			else if (p - out >= 3 && p[-1] == ' ' && p[-2] == 'X' && p[-3] == '4' &&
			         (p - out == 3 || !isalnum((unsigned char)p[-4])))
				p[-3] = p[-2] = ' ';   /* the IBTA's own spelling, "4X EDR" */
	/* a NIC vendor between a count and its fabric ("4x Mellanox EDR") */
	static const char *const vendors[] = {"Mellanox", "Broadcom"};
	for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
		for (char *p = (char *)val__find(out, vendors[i]); p; p = (char *)val__find(p + 1, vendors[i]))
			memset(p, ' ', strlen(vendors[i]));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		for (char *p = (char *)val__find(out, names[i]); p; p = (char *)val__find(p + 1, names[i])) {
			if (p > out && isalpha((unsigned char)p[-1]))
				continue;
			char *q = p + strlen(names[i]);
			char *v = q;
			while (*v == ' ' || *v == '-')
				v++;
			if (!isdigit((unsigned char)*v))
				continue;
			char *e = v;
			while (isdigit((unsigned char)*e))
				e++;
			/* a version, not a rate ("ConnectX-7 400Gb/s" keeps 400) */
			const char *u = e;
			while (*u == ' ')
				u++;
			if (*u == 'G' || *u == 'g' || *u == 'T' || e - v > 2)
				continue;
			memset(q, ' ', (size_t)(e - q));
		}
}

/* "NDR200", "HDR100": an InfiniBand generation with its port speed, Gb/s; 0
 * if none. */
static double ib_port_rate(const char *hw)
{
	static const char *const gens[] = {"NDR", "HDR", "EDR", "XDR"};
	for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++)
		for (const char *p = val__find(hw, gens[i]); p; p = val__find(p + 1, gens[i])) {
			int v = atoi(p + 3);
			if (isdigit((unsigned char)p[3]) && (v == 100 || v == 200 || v == 400 || v == 800))
				return v;
		}
	return 0;
}

/* HPE Slingshot's NICs, from the raw text (its version is a number
 * without_versions blanks): Slingshot 11 (Cassini) 200 Gb/s, Slingshot 10
 * (a ConnectX-5 Ethernet NIC) 100 Gb/s (HPE's Slingshot data sheets); 0
 * without Slingshot. */
static double slingshot_rate(const char *hw)
{
	const char *s = val__find(hw, "Slingshot");
	if (!s)
		return 0;
	const char *v = s + 9;
	while (*v == ' ' || *v == '-')
		v++;
	return !strncmp(v, "10", 2) && !isdigit((unsigned char)v[2]) ? 100 : 200;
}

/* A NIC count written next to a fabric word with no rate: "4 HDR NICs",
 * "4x HDR", "HDR x4", "2 rails"; 0 if none. */
static int nic_count_in_words(const char *hw)
{
	/* rails: "dual-rail EDR" (Summit), "single-rail", "quad-rail" */
	static const struct { const char *w; int n; } rails[] = {{"single-rail", 1},
		{"single rail", 1}, {"dual-rail", 2}, {"dual rail", 2}, {"quad-rail", 4},
		{"quad rail", 4}};
	for (size_t i = 0; i < sizeof rails / sizeof rails[0]; i++)
		if (val__has(hw, rails[i].w))
			return rails[i].n;
	static const char *const nouns[] = {" NICs", " NIC", " HCAs", " HCA", " adapters", " rails",
		" ports"};
	for (size_t i = 0; i < sizeof nouns / sizeof nouns[0]; i++) {
		const char *p = val__find(hw, nouns[i]);
		int n = p ? val__number_before(hw, p, true) : 0;
		if (n > 0)
			return n;
	}
	/* one NIC said in words: "over the single host gVNIC eth0 only", "a
	 * single NIC", "only one HCA" (not "one NIC per GPU", read apart) */
	static const char *const one[] = {"single", "only one"};
	static const char *const nic[] = {"NIC", "gVNIC", "HCA", "NICs"};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
		for (const char *p = val__find(hw, one[i]); p; p = val__find(p + 1, one[i])) {
			/* not a part of a word, nor "8x single-port ConnectX-7" */
			if ((p > hw && isalnum((unsigned char)p[-1])) || p[strlen(one[i])] == '-' ||
			    val__number_before(hw, p, false) > 1)
				continue;
			char near[64];   /* the next words, up to four of rate, fabric or vendor */
			const char *q = p + strlen(one[i]);
			int words = 0;
			size_t k = 0;
			while (*q && words < 6 && k < sizeof near - 1) {
				if (*q == ' ' && q[1] != ' ')
					words++;
				if (!strncasecmp(q, " switch", 7))
					break;   /* "a single 64-port switch" */
				if (strchr(",;()", *q))
					break;
				near[k++] = *q++;
			}
			near[k] = 0;
			bool said = false;
			for (size_t j = 0; j < sizeof nic / sizeof nic[0] && !said; j++)
				said = val__has_word(near, nic[j]);
			char rest[96];
			clause_at(q, rest, sizeof rest);
			static const char *const each_nic[] = {"per HCA", "per NIC", "per adapter",
				"per port", "of each", "rail"};   /* a property of each NIC */
			if (said && !val__has(rest, "per GPU") && !val__has(rest, "each GPU") &&
			    !val__has_any(near, each_nic, sizeof each_nic / sizeof each_nic[0]))
				return 1;
		}
	/* the count after its name, as a form's field: "NICs per node 2",
	 * "NIC count per node: 2", "HCAs/node = 4", "NICs per node (HSN): 2"; not
	 * one of a pair of fields ("GPUs/NICs per node: 4/2") */
	static const char *const field[] = {"NICs per node", "NIC per node", "HCAs per node",
		"HCA per node", "NIC count per node", "NICs per server", "NIC per server",
		"NICs per host", "NIC per host", "NICs per instance", "HCAs per server",
		"NICs/node", "NIC/node", "HCAs/node", "HCA/node"};
	static const char *const side[] = {"management ", "mgmt ", "storage ", "frontend ",
		"front-end ", "in-band ", "OOB ", "service "};
	for (size_t i = 0; i < sizeof field / sizeof field[0]; i++)
		for (const char *p = val__find(hw, field[i]); p; p = val__find(p + 1, field[i])) {
			if (p > hw && (p[-1] == '/' || isalnum((unsigned char)p[-1])))
				continue;
			bool side_net = false;   /* "management NICs per node: 1" */
			for (size_t k = 0; k < sizeof side / sizeof side[0] && !side_net; k++) {
				size_t len = strlen(side[k]);
				side_net = (size_t)(p - hw) >= len && !strncasecmp(p - len, side[k], len);
			}
			if (side_net)
				continue;
			const char *d = p + strlen(field[i]);
			while (*d == ' ')
				d++;
			if (*d == '(') {   /* "(HSN)" */
				const char *e = strchr(d, ')');
				d = e ? e + 1 : d;
			}
			while (*d == ' ' || *d == ':' || *d == '=')
				d++;
			char *e;
			long n = strtol(d, &e, 10);
			if (e > d && n > 0 && n <= 64 && !isalnum((unsigned char)*e) && *e != '.')
				return (int)n;
		}
	static const char *const fabrics[] = {"NDR", "HDR", "EDR", "InfiniBand", "RoCE", "EFA",
		"Slingshot", "Omni-Path", "OmniPath", "OPA"};
	for (size_t i = 0; i < sizeof fabrics / sizeof fabrics[0]; i++)
		for (const char *p = val__find(hw, fabrics[i]); p; p = val__find(p + 1, fabrics[i])) {
			const char *b = p;
			while (b > hw && b[-1] == ' ')
				b--;
			if (b > hw && (b[-1] == 'x' || b[-1] == 'X')) {   /* "4x HDR" */
				int n = val__number_before(hw, p, false);
				if (n > 0)
					return n;
			}
			const char *a = p + strlen(fabrics[i]);
			while (isalnum((unsigned char)*a))
				a++;
			while (*a == ' ')
				a++;
			if ((*a == 'x' || *a == 'X') && isdigit((unsigned char)a[1]))   /* "HDR x4" */
				return atoi(a + 1);
			/* "4 HDR InfiniBand per server" (its "Mellanox" blanked by
			 * without_versions): a bare count right before the fabric,
			 * not a version ("NCCL 2.18 InfiniBand"), of a network said
			 * per node or of NICs, not "16 InfiniBand-connected nodes" */
			size_t len = strcspn(a, ",;(");
			char rest[128];
			snprintf(rest, sizeof rest, "%.*s", (int)(len < 127 ? len : 127), a);
			const char *d = b;
			while (d > hw && isdigit((unsigned char)d[-1]))
				d--;
			bool per_node = val__has(rest, "per node") || val__has(rest, "per server") ||
			                val__has(rest, "per host") || val__has(rest, "NIC") ||
			                val__has(rest, "HCA") || val__has(rest, "adapter");
			if (b > hw && isdigit((unsigned char)b[-1]) && b < p &&
			    p[strlen(fabrics[i])] != '-' && !(d > hw && (d[-1] == '.' || isalnum((unsigned char)d[-1]))) &&
			    per_node) {
				int n = val__number_before(hw, p, false);
				if (n > 0 && n <= 64)
					return n;
			}
		}
	/* "a pair of HPE Slingshot NICs": a pair of the node's NICs */
	for (const char *p = val__find(hw, "pair of"); p; p = val__find(p + 7, "pair of")) {
		size_t len = strcspn(p, ",;(");
		char clause[128];
		snprintf(clause, sizeof clause, "%.*s", (int)(len < 127 ? len : 127), p);
		if (val__has(clause, "NIC") || val__has(clause, "HCA") || val__has(clause, "adapter") ||
		    val__has(clause, "ConnectX") || val__has(clause, "Slingshot"))
			return 2;
	}
	return 0;
}

#define HAS_ANY(text, list) val__has_any(text, list, sizeof list / sizeof list[0])

/* Words that say a clause's NICs carry the GPUs' traffic. */
static const char *const gpu_traffic[] = {"compute", "back-end", "backend", "east-west",
	"GPU fabric", "GPU NIC", "GPU network", "training", "Spectrum-X", "SuperNIC"};

/* Whether a clause of the hardware text is about a NIC that training's
 * collectives do not use: storage, front-end or management networks, a DPU
 * ("2x BlueField-3 DPU 200Gb/s (storage)", "2x 40GbE front-end"); not when
 * it also says it carries the compute traffic. */
static bool side_network(const char *clause)
{
	static const char *const side[] = {"storage", "front-end", "frontend", "front end",
		"management", "in-band", "north-south", " DPU", "ethernet for data"};
	return HAS_ANY(clause, side) && !HAS_ANY(clause, gpu_traffic);
}

/* Blanks the clauses (between commas, semicolons and " + ") that describe a
 * side network, when another clause gives a line rate: that one is the
 * compute fabric ("2x 40GbE front-end, 8x 200Gb/s HDR IB back-end"). */
static void without_side_networks(char *hw)
{
	char kept[2048];
	snprintf(kept, sizeof kept, "%s", hw);
	bool dropped = false;
	for (char *c = kept; *c; ) {
		size_t len = strcspn(c, ",;+");
		char save = c[len];
		c[len] = '\0';
		bool side = side_network(c);
		c[len] = save;
		if (side) {
			memset(c, ' ', len);
			dropped = true;
		}
		c += len + (save ? 1 : 0);
	}
	const char *at;
	bool agg;
	if (dropped && line_rate(kept, &at, &agg) > 0)
		memcpy(hw, kept, strlen(kept));
}

/* Whether word w stands in text as a token of its own (not "EDR" of
 * "FedRAMP"; a digit may follow: "NDR200"). */
static bool has_token_prefix(const char *text, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = val__find(text, w); p; p = val__find(p + 1, w))
		if ((p == text || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[n]))
			return true;
	return false;
}

/* Whether a clause names InfiniBand: the fabric NCCL's built-in IB
 * transport takes (IB verbs), whatever Ethernet the same adapter also
 * speaks ("InfiniBand NDR/Ethernet 400Gb"). */
static bool ib_clause(const char *clause)
{
	return val__has(clause, "InfiniBand") || has_token_prefix(clause, "IB") ||
	       has_token_prefix(clause, "NDR") || has_token_prefix(clause, "HDR") ||
	       has_token_prefix(clause, "EDR");
}

/* A clause about a network training's collectives do not use: a side
 * network's words, a file system, out-of-band, or said unused. */
static bool unused_network(const char *clause)
{
	static const char *const w[] = {"storage", "file system", "filesystem", "Lustre", "GPFS",
		"PFS", "out-of-band", "out of band", "management", "not used", "unused", "front-end",
		"frontend", "in-band", "north-south", "login"};
	return HAS_ANY(clause, w);
}

/* The count of NICs a clause opens with ("8x 400GbE", "per node '8x HPE
 * ..."): the first "N x" before its rate; 0 if none. */
static int clause_nics(const char *clause, const char *rate_at)
{
	for (const char *p = clause; *p && p < rate_at; p++) {
		if (!isdigit((unsigned char)*p) || (p > clause && isalnum((unsigned char)p[-1])))
			continue;
		char *e;
		long n = strtol(p, &e, 10);
		while (*e == ' ')
			e++;
		if ((*e == 'x' || *e == 'X') && !isalnum((unsigned char)e[1]) && n > 0 && n <= 64)
			return (int)n;
		p = e - 1 > p ? e - 1 : p;
	}
	return 0;
}

/* A node that lists plain Ethernet (or Slingshot) NICs before its
 * InfiniBand adapters ("8x Slingshot Ethernet 200Gb NIC, 8x InfiniBand NDR
 * 400Gb Adapter"): NCCL without a net plugin named runs on IB verbs when the
 * node has an HCA and falls back to its sockets only without one (its
 * transport order: an external net plugin, then IB, then Socket), so the
 * Ethernet clauses that give a rate are blanked and the InfiniBand one read.
 * Not when the text says the run went over TCP, sockets, RoCE or a plugin
 * (OFI, libfabric), when an Ethernet clause says it carries the GPUs'
 * traffic, when the InfiniBand clause is a storage, management or unused
 * network, or when it counts fewer NICs than the Ethernet one (one HCA
 * beside eight 400GbE NICs is not the GPU fabric). */
static void without_socket_nics(char *hw)
{
	static const char *const other_way[] = {"TCP", "Socket", "IB_DISABLE", "OFI", "libfabric",
		"RoCE", "RDMA", "EFA"};
	if (HAS_ANY(hw, other_way))
		return;
	char kept[2048];
	snprintf(kept, sizeof kept, "%s", hw);
	int ib_nics = -1, eth_nics = 0;   /* -1: no InfiniBand clause with a rate yet */
	bool dropped = false;
	for (char *c = kept; *c; ) {
		size_t len = strcspn(c, ",;+");
		char save = c[len];
		c[len] = '\0';
		const char *at;
		bool agg;
		bool rated = line_rate(c, &at, &agg) > 0;
		if (rated && ib_clause(c) && !unused_network(c)) {
			int k = clause_nics(c, at);
			ib_nics = k > ib_nics ? k : ib_nics < 0 ? 0 : ib_nics;
		} else if (rated && ib_nics < 0 && !ib_clause(c) && !val__has(c, "NVLink") &&
		           !val__has(c, "PCIe Gen")) {
			if (HAS_ANY(c, gpu_traffic) || val__has(c, "NCCL")) {
				c[len] = save;
				return;   /* the Ethernet NICs are the GPUs' */
			}
			int k = clause_nics(c, at);
			eth_nics = k > eth_nics ? k : eth_nics;
			memset(c, ' ', len);   /* an Ethernet NIC listed before any IB one */
			dropped = true;
		}
		c[len] = save;
		c += len + (save ? 1 : 0);
	}
	if (dropped && ib_nics >= 0 && !(eth_nics > 0 && ib_nics > 0 && ib_nics < eth_nics) &&
	    !(eth_nics > 1 && ib_nics == 0))
		memcpy(hw, kept, strlen(kept));
}

/* A count that opens the clause of a NIC's rate, its model between them
 * ("8x NVIDIA BlueField-3 B3140H SuperNIC 400GbE per node", "4 x ConnectX-7
 * 400Gb/s"): the NICs of a node, each at that rate, which a model number
 * hides from val__number_before. Only where the clause names a NIC; 0 if
 * none. */
static int clause_count(const char *hw, const char *at)
{
	/* back to the clause's start, over a parenthesized model number inside
	 * it ("8x ConnectX-7 (MT4129) NDR 400 Gb/s"): one token without blanks,
	 * not a clause of its own ("2 x DGX H100 (8x ConnectX-7) 400Gb/s") */
	const char *b = at;
	while (b > hw && !strchr(",;(", b[-1])) {
		if (b[-1] == ')') {
			const char *o = b - 1;
			while (o > hw && o[-1] != '(' && o[-1] != ',' && o[-1] != ';' && o[-1] != ' ')
				o--;
			if (o > hw && o[-1] == '(') {
				b = o - 1;
				continue;
			}
		}
		b--;
	}
	while (*b == ' ')
		b++;
	char *x;
	long n = strtol(b, &x, 10);
	if (x == b || n <= 0 || n > 64)
		return 0;
	while (*x == ' ')
		x++;
	if (*x != 'x' && *x != 'X')
		return 0;
	char clause[160];
	size_t len = (size_t)(at - b) < sizeof clause - 1 ? (size_t)(at - b) : sizeof clause - 1;
	memcpy(clause, b, len);
	clause[len] = '\0';
	static const char *const nic_words[] = {"NIC", "HCA", "ConnectX", "BlueField", "adapter"};
	for (size_t i = 0; i < sizeof nic_words / sizeof nic_words[0]; i++)
		if (val__has(clause, nic_words[i]))
			return (int)n;
	return 0;
}

/* "8 x 2 x 400 Gb/s": a count right before the rate that is itself the
 * last of a product multiplies out (8 NICs of 2 ports each: 16 links of 400
 * Gb/s, "= 6.4 Tb/s"); 0 when the count stands alone. */
static int count_product(const char *text, const char *at)
{
	const char *p = at;
	while (p > text && (p[-1] == ' ' || p[-1] == 'x' || p[-1] == 'X'))
		p--;
	const char *d = p;
	while (d > text && isdigit((unsigned char)d[-1]))
		d--;
	if (d == p || p - d > 6)
		return 0;
	long prod = strtol(d, NULL, 10);
	int factors = 1;
	for (;;) {
		const char *q = d;
		while (q > text && q[-1] == ' ')
			q--;
		if (!(q > text && (q[-1] == 'x' || q[-1] == 'X' || q[-1] == '*')))
			break;
		q--;
		while (q > text && q[-1] == ' ')
			q--;
		const char *e = q;
		while (q > text && isdigit((unsigned char)q[-1]))
			q--;
		if (q == e || e - q > 6 || (q > text && (isalnum((unsigned char)q[-1]) || q[-1] == '.')))
			break;
		prod *= strtol(q, NULL, 10);   /* factors of at most 6 digits: no overflow */
		factors++;
		d = q;
		if (prod <= 0 || prod > 100000)
			return 0;
	}
	return factors > 1 ? (int)prod : 0;
}

/* A rate in brackets right after its count and fabric: "8 x EDR (100G)",
 * "1 x NDR (400G) IB per GPU", "4x NDR (400 Gb/s)": the count, when only
 * fabric or NIC words stand between it and the bracket (not "8 V100 32GB
 * (100 Gb/s)", "2 nodes (400 Gb/s NDR)", "4 links per node (400 Gbps)"); 0
 * otherwise. */
static int bracket_count(const char *text, const char *at)
{
	const char *o = at;
	while (o > text && o[-1] == ' ')
		o--;
	if (o == text || o[-1] != '(')
		return 0;
	const char *b = o - 1;   /* the words before the bracket, back to the count */
	const char *w = b;
	while (w > text && (isalpha((unsigned char)w[-1]) || w[-1] == ' ' || w[-1] == '-'))
		w--;
	while (w > text && (w[-1] == 'x' || w[-1] == 'X' || w[-1] == ' '))
		w--;
	if (w == text || !isdigit((unsigned char)w[-1]))
		return 0;
	char words[96];
	size_t len = (size_t)(b - w) < sizeof words - 1 ? (size_t)(b - w) : sizeof words - 1;
	memcpy(words, w, len);
	words[len] = '\0';
	static const char *const fabric[] = {"EDR", "HDR", "NDR", "XDR", "InfiniBand", "IB", "RoCE",
		"EFA", "Slingshot", "NIC", "HCA", "adapter", "ConnectX", "Ethernet", "Omni-Path", "OPA"};
	static const char *const other[] = {"node", "server", "host", "link", "switch", "GPU",
		"port", "rail"};
	bool fab = false;
	for (size_t i = 0; i < sizeof fabric / sizeof fabric[0] && !fab; i++)
		fab = val__has_word(words, fabric[i]) ||
		      (strlen(fabric[i]) > 3 && val__has(words, fabric[i]));
	for (size_t i = 0; i < sizeof other / sizeof other[0] && fab; i++)
		fab = !val__has(words, other[i]);
	return fab ? val__number_before(text, w, false) : 0;
}

/* AWS instances with EFA: the interfaces over which the table's node total
 * (nic_Gbps x gpus_per_node) is split (instance pages: p4d and p4de 4 x
 * 100 Gb/s, p5 and p5e 32 x 100, p5en 16 x 200, p6-b200 8 x 400, p3dn one
 * of 100); 0 for any other entry. */
static int efa_nics_of(const gpu_map *m)
{
	static const struct { const char *token; int nics; } efa[] = {
		{"p4de", 4}, {"p4d", 4}, {"p5en", 16}, {"p5e", 32}, {"p5", 32}, {"p6-b200", 8},
		{"p3dn", 1}};
	for (size_t i = 0; i < sizeof efa / sizeof efa[0]; i++)
		if (!strcmp(m->token, efa[i].token))
			return efa[i].nics;
	return 0;
}

/* "CollNet" named as an algorithm that ran ("CollnetDirect (SHARP)",
 * "NCCL_ALGO=COLLNETCHAIN", "config collnet_sharp"), not denied ("no
 * CollNet") and not the name of NCCL's switch, whatever its value
 * ("NCCL_COLLNET_ENABLE=0"). */
/* A clause that says CollNet did not run, whatever names it: unavailable,
 * unused, failed, reported elsewhere. */
static bool collnet_denied(const char *clause)
{
	static const char *const no[] = {"not available", "unavailable", "not used", "was not",
		"were not", "failed", "fell back", "falls back", "separate", "not loaded", "missing",
		"excluded", "not supported", "unsupported"};
	return HAS_ANY(clause, no);
}

static bool collnet_named(const char *o)
{
	for (const char *p = val__find(o, "collnet"); p; p = val__find(p + 7, "collnet")) {
		if (p - o >= 5 && !strncasecmp(p - 5, "NCCL_", 5))
			continue;
		/* NCCL_ALGO=^CollNetDirect,CollNetChain: the list after a '^' is
		 * excluded */
		const char *w = p;
		while (w > o && !isspace((unsigned char)w[-1]) && w[-1] != ';' && w[-1] != '^')
			w--;
		if (w > o && w[-1] == '^')
			continue;
		char clause[160];
		val__clause_around(o, p, 7, clause, sizeof clause);
		if (val__affirmed(clause, "collnet") && !collnet_denied(clause) &&
		    !strstr(clause, "=^"))
			return true;
	}
	return false;
}

/* Whether a row says NCCL ran its CollNet algorithms on InfiniBand switches
 * that reduce (SHARP): the switch on or the algorithm named, over an
 * InfiniBand fabric (Slingshot, EFA and RoCE have no SHARP: there NCCL's
 * NCCL_COLLNET_ENABLE=1 finds no CollNet plugin and changes nothing). */
static bool collnet_said(const val_row *r)
{
	if (val__has(r->hardware, "Slingshot") || val__has(r->hardware, "EFA") ||
	    val__has(r->hardware, "RoCE") || val__has(r->other, "aws-ofi"))
		return false;
	/* the variable's own sentence, up to ';' either side ("=1 set but the
	 * SHARP plugin failed to load, NCCL fell back to Ring"), not the rest
	 * of the row */
	const char *on = val__find(r->other, "NCCL_COLLNET_ENABLE=1");
	char sentence[256] = "";
	if (on) {
		const char *b = on;
		while (b > r->other && b[-1] != ';')
			b--;
		snprintf(sentence, sizeof sentence, "%.*s", (int)strcspn(b, ";"), b);
	}
	return (on && !collnet_denied(sentence)) || collnet_named(r->other);
}

/* The EFA interfaces a text counts: "4 EFA interfaces", "1 EFA interface",
 * "all 4 EFA devices used"; 0 when it counts none (not "2 EFA-enabled
 * instances", "8 EFA-attached H100"). */
static int efa_count(const char *hw)
{
	static const char *const what[] = {" interface", " device", " adapter", " NIC"};
	for (const char *p = val__find(hw, "EFA"); p; p = val__find(p + 3, "EFA")) {
		bool counted = false;
		for (size_t i = 0; i < sizeof what / sizeof what[0] && !counted; i++)
			counted = !strncasecmp(p + 3, what[i], strlen(what[i]));
		int k = counted ? val__number_before(hw, p, false) : 0;
		if (k > 0 && k <= 64)
			return k;
	}
	return 0;
}

/* "no EFA" said of the run, not of a kind of tuning ("no EFA-specific"). */
static bool no_efa_said(const char *hw)
{
	for (const char *p = val__find(hw, "no EFA"); p; p = val__find(p + 6, "no EFA"))
		if ((p == hw || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[6]) &&
		    p[6] != '-')
			return true;
	return false;
}

/* Whether "socket(s)" in the text is NCCL's socket transport, not a CPU's
 * ("CPU sockets", "dual-socket", "different sockets/root complexes" of a
 * PCIe box's GPUs, "GPU and NIC on socket 1", "sockets 0 and 1"). */
static bool nccl_sockets(const char *hw)
{
	static const char *const cpu[] = {"CPU", "dual", "two", "both", "2", "single", "different",
		"same", "each", "per", "other", "multi", "one", "1", "4", "8"};
	for (const char *p = val__find(hw, "socket"); p; p = val__find(p + 6, "socket")) {
		const char *q = p + 6;
		if (*q == 's' || *q == 'S')
			q++;
		while (*q == ' ' || *q == '#')
			q++;
		if (isdigit((unsigned char)*q))
			continue;   /* a CPU socket's number */
		if (!val__word_before_in(hw, p, " -", cpu, sizeof cpu / sizeof cpu[0]))
			return true;
	}
	return false;
}

/* A DGX by its model's name ("DGX H100", "DGX-A100", "DGXB200"): not a word
 * of a reference design ("DGX-compatible", "built to the DGX SuperPOD
 * reference architecture" on an HGX box). */
static bool dgx_named(const char *hw)
{
	static const char *const models[] = {"A100", "H100", "H200", "B200", "B300", "GB200",
		"GB300"};
	for (const char *p = val__find(hw, "DGX"); p; p = val__find(p + 3, "DGX")) {
		const char *q = p + 3;
		if (*q == ' ' || *q == '-')
			q++;
		if (!strncasecmp(q, "SuperPOD ", 9) || !strncasecmp(q, "BasePOD ", 8))
			q += q[0] == 'S' || q[0] == 's' ? 9 : 8;   /* "DGX SuperPOD H100" */
		for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
			if (!strncasecmp(q, models[i], strlen(models[i])))
				return true;
	}
	return false;
}

/* The text says only one of a node's NICs is in use ("a single HDR HCA
 * cabled per node", "only one ConnectX-7 port cabled"). */
static bool one_nic_cabled(const char *hw)
{
	static const char *const one[] = {"single NIC", "single HCA", "single port",
		"single ConnectX", "single HDR", "single NDR", "single EDR", "single InfiniBand",
		"single IB", "single 200", "single 400", "one NIC", "one HCA", "one port",
		"one ConnectX", "only one NIC", "only one HCA", "only one port", "only one ConnectX"};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
		for (const char *p = val__find(hw, one[i]); p; p = val__find(p + 1, one[i])) {
			char clause[96];
			clause_at(p, clause, sizeof clause);
			if (!per_gpu_after(p) && !val__has(clause, "each GPU"))
				return true;   /* not "one NIC per GPU" */
		}
	return false;
}

/* Whether the rate's clause also ties it to the node ("800 Gbps per node =
 * 100 per GPU", "aggregate"): then its "per GPU" is another figure's. */
static bool gpu_rate_beside_node_word(const char *at)
{
	char clause[96];
	clause_at(at, clause, sizeof clause);
	return val__has(clause, "per node") || val__has(clause, "aggregate") ||
	       val__has(clause, "per instance") || val__has_token(clause, "total");
}

static void nic_of(const char *hw_text, const gpu_map *m, int gpn, hw_nic *nic)
{
	char hw_buf[2048];   /* the hardware column, or other_parallel (nic_text) */
	without_versions(hw_text, hw_buf, sizeof hw_buf);
	without_side_networks(hw_buf);
	without_socket_nics(hw_buf);
	const char *hw = hw_buf;
	const char *at = NULL;
	bool aggregate = false;
	double gbps = line_rate(hw, &at, &aggregate);
	if (gbps <= 0)
		gbps = ib_port_rate(hw);   /* "NDR200" */
	/* the count right before the rate, within its own part of the text: not
	 * across "and" or "with" ("40GB memory and 800Gbps interconnect") */
	const char *part = hw;
	for (const char *a = hw; at && (a = val__find(a, " and ")) && a < at; a++)
		part = a + 5;
	for (const char *a = hw; at && (a = val__find(a, " with ")) && a < at; a++)
		if (a + 6 > part)
			part = a + 6;
	int count = at && !aggregate ? val__number_before(part, at, true) : 0;
	if (count > 0 && count_product(part, at) > count)
		count = count_product(part, at);
	if (at && !aggregate && count <= 0)
		count = clause_count(part, at);
	if (at && !aggregate && count <= 0)
		count = count_after_rate(at);   /* "400Gb/s NDR IB x8 per node" */
	/* "4 InfiniBand links per node (400 Gbps)": the node's total */
	bool after_node = at && at - hw >= 10 && (val__find(at - 10, "per node (") != NULL &&
	                                          val__find(at - 10, "per node (") < at);
	if (at && !aggregate && count <= 0)
		count = bracket_count(part, at);
	/* a NIC per GPU pair: "400 Gb/s per GPU pair", "one 400 Gb/s NIC per pair
	 * of GPUs", "1x 400Gb/s per 2 GPUs" (a count of one is the pair's) */
	if (at && !aggregate && count <= 1 && gbps > 0 && per_pair_after(at))
		count = gpn >= 2 ? gpn / 2 : 1;
	/* not when its clause says the rate is a GPU's ("200 Gb/s injection
	 * bandwidth per GPU") */
	/* a DGX's own NIC rate is one NIC's, whatever its clause says: DGX A100,
	 * H100 and B200 hold one 200 or 400 Gb/s ConnectX a GPU (NVIDIA's DGX
	 * data sheets), so "DGX H100 nodes ... InfiniBand 400 Gb/s inter-node" is
	 * not 400 Gb/s for the node */
	bool dgx_nic = at && dgx_named(hw) && gbps == m->nic_Gbps && !one_nic_cabled(hw);
	if (dgx_nic) {   /* unless its clause says the node's: "400 Gb/s per node" */
		char clause[96];
		clause_at(at, clause, sizeof clause);
		static const char *const node[] = {"per node", "per server", "per host", "per system",
			"aggregate", "total", "per DGX"};
		dgx_nic = !val__has_any(clause, node, sizeof node / sizeof node[0]);
	}
	if (at && count <= 0 && gbps > 0 && (node_total_after(at, gbps) || after_node) &&
	    !(gbps <= 800 && per_gpu_after(at) && !gpu_rate_beside_node_word(at)) && !dgx_nic)
		aggregate = true;
	if (aggregate && gbps > 0) {   /* a node's total: one NIC per GPU (AWS p4d/p5), or
	                                * the NICs its text counts */
		const char *lk = val__find(hw, " links");
		int said = lk ? val__number_before(hw, lk, true) : 0;
		if (said <= 0)
			said = nic_count_in_words(hw);
		count = said > 0 && said <= 4 * gpn ? said : gpn;
		gbps /= count;
	}
	const char *links = val__find(hw, " links");
	if (!count && links)
		count = val__number_before(hw, links, true);
	if (!count && !aggregate)
		count = nic_count_in_words(hw);
	/* InfiniBand's generations as written, in capitals ("4xEDR"; not the
	 * "ndr" of "gpubuildandrun"); Slingshot, said of the compute network and
	 * not denied, has its own rate */
	/* an AWS instance whose text counts its EFA interfaces ("4 EFA
	 * interfaces", "1 EFA interface used") without a rate: each runs at the
	 * instance's rate an interface (p4d 4 x 100 Gb/s, p5 32 x 100) */
	int efa_nics = efa_nics_of(m);
	if (gbps <= 0 && efa_nics > 0 && val__affirmed(hw, "EFA")) {
		int said = efa_count(hw);
		if (said > 0) {
			gbps = m->nic_Gbps * m->gpus_per_node / efa_nics;
			count = said;
		}
	}
	if (gbps <= 0)
		gbps = strstr(hw, "NDR") ? 400 : strstr(hw, "HDR") ? 200 : strstr(hw, "EDR") ? 100
		     : val__affirmed(hw, "Slingshot") ? slingshot_rate(hw_text)
		     /* Intel's Omni-Path (OPA 100 series): 100 Gb/s a port */
		     : val__affirmed(hw, "Omni-Path") || val__affirmed(hw, "OmniPath") ||
		       val__has_word(hw, "OPA") ? 100 : m->nic_Gbps;
	/* "1x400Gb/s NDR IB per GPU"; "one NIC per GPU" in a clause of its own
	 * (a count of one, or none, beside it) */
	if ((at && !aggregate && per_gpu_after(at)) || (count <= 1 && nic_per_gpu_words(hw)))
		count = (count > 0 ? count : 1) * gpn;
	else if (count <= 1 && nic_per_pair_words(hw))   /* "1 NIC per 2 GPUs" */
		count = gpn >= 2 ? gpn / 2 : 1;
	/* Spectrum-X is NVIDIA's RoCE Ethernet; a cloud VM without RDMA (GCP's
	 * A2, AWS p3.16xlarge) has one TCP NIC unless the text says otherwise */
	bool rdma_said = val__has(hw, "RoCE") || val__has(hw, "RDMA") || val__affirmed(hw, "EFA") ||
	                 val__has(hw, "InfiniBand") || val__has_word(hw, "IB");
	bool no_rdma = (val__has(hw, "RDMA") && !val__affirmed(hw, "RDMA")) ||
	               (val__has(hw, "RoCE") && !val__affirmed(hw, "RoCE"));   /* "(no RDMA)" */
	/* the fabric of the NIC whose rate was read: its own clause first ("8x
	 * ConnectX-7 NDR 400 Gb/s InfiniBand (compute) + 9x CX-6 100GbE" is
	 * InfiniBand, whatever the other NICs of the node are) */
	char own[160] = "";
	if (at) {
		const char *b = at;
		while (b > hw && !strchr(",;(+", b[-1]))
			b--;
		size_t k = strcspn(at, ",;+");   /* with its bracket: "(InfiniBand)" */
		const char *and = val__find(at, " and ");
		if (and && (size_t)(and - at) < k)
			k = (size_t)(and - at);
		snprintf(own, sizeof own, "%.*s", (int)((at - b) + k < sizeof own ? (at - b) + k
		                                                                 : sizeof own - 1), b);
	}
	bool own_rdma = val__has(own, "InfiniBand") || val__has_word(own, "IB") ||
	                val__has(own, "NDR") || val__has(own, "HDR") || val__has(own, "EDR") ||
	                val__has(own, "RoCE") || val__has(own, "RDMA") || val__has(own, "EFA");
	/* an EFA instance said to run without it ("Non-EFA", "EFA not used"):
	 * NCCL's sockets over its ENA */
	bool no_efa = efa_nics > 0 && (val__has(hw, "non-EFA") || val__has(hw, "without EFA") ||
	                               val__has(hw, "EFA not used") || val__has(hw, "EFA disabled") ||
	                               val__has(hw, "w/o EFA") || no_efa_said(hw));
	/* a rail-optimized Ethernet fabric (a NIC a GPU on a leaf a rail) is
	 * built for RoCE: nobody rails NCCL's sockets */
	bool railed = val__affirmed(hw, "rail-optimized") || val__affirmed(hw, "rail optimized");
	bool tcp = val__has(hw, "TCP") || nccl_sockets(hw) || (m->tcp && !rdma_said) ||
	           no_rdma || no_efa ||
	           ((val__has(hw, "GbE") || val__has(hw, "Ethernet")) && !val__has(hw, "RoCE") &&
	            !val__has(hw, "RDMA") && !val__has(hw, "Spectrum-X") && !own_rdma && !railed);
	/* a DGX-1's four EDR ports for its eight V100 (DGX-1 data sheet) */
	if (count <= 0 && val__has(hw, "DGX-1"))
		count = 4;
	/* ALCF Polaris's two Slingshot-11 NICs for its four A100 */
	if (count <= 0 && !strcmp(m->token, "ALCF Polaris"))
		count = 2;
	/* AIST's ABCI (its system overview): a V node's two InfiniBand EDR ports
	 * for its four V100, an A node's four HDR for its eight A100 */
	if (count <= 0 && val__has_word(hw, "ABCI"))
		count = strstr(m->catalog, "V100") ? 2 : strstr(m->catalog, "A100") ? 4 : 0;
	if (count <= 0 || count > 4 * gpn)
		count = tcp ? 1 : m->gpus_per_node == 16 ? 8 : gpn;
	/* part of a node (one GPU of a DGX-2): at most the 4 NICs per GPU the
	 * scenario loader accepts */
	if (count > 4 * gpn)
		count = 4 * gpn;
	nic->count = count;
	nic->speed_Bps = gbps * 1e9 / 8;
	nic->transport = tcp ? TRANSPORT_TCP : TRANSPORT_RDMA;
}


/* The text that says the row's NICs: the hardware's, unless it gives no
 * rate, count or fabric at all and other_parallel gives a line rate ("8x
 * A100 80GB per node" beside "4x 200 Gb/s RDMA NICs per node" in the other
 * column): a person reads the run's network wherever the row writes it. */
static const char *nic_text(const val_row *r)
{
	static const char *const fabrics[] = {"InfiniBand", "RoCE", "EFA", "Slingshot", "Ethernet",
		"GbE", "Omni-Path", "OmniPath", "TCP", "RDMA", "NDR", "HDR", "EDR", "ConnectX"};
	const char *at;
	bool agg;
	if (line_rate(r->hardware, &at, &agg) > 0 || ib_port_rate(r->hardware) > 0 ||
	    nic_count_in_words(r->hardware) > 0 || val__has_word(r->hardware, "IB"))
		return r->hardware;
	for (size_t i = 0; i < sizeof fabrics / sizeof fabrics[0]; i++)
		if (val__has(r->hardware, fabrics[i]))
			return r->hardware;
	return line_rate(r->other, &at, &agg) > 0 ? r->other : r->hardware;
}

/* Google's GPU machines (its "GPU machine types" pages): the NICs that
 * carry GPU traffic, whatever total the text gives ("1000Gbps maximum
 * network bandwidth", "2,000 Gbps per node" count the host's NICs too). A3
 * High and Edge: 4 x 200 Gb/s for 8 GPUs, a NIC for two; A3 Mega 8 x 200;
 * both by GPUDirect over TCP (hw.c). A3 Ultra and A4: 8 x 400 RDMA. A4X
 * (GB200) and A4X Max (GB300): trays of 4 with 400 and 800 Gb/s a GPU,
 * counted for their NVLink domain. Machine names first, as whole words;
 * then the series' names ("A3 VM" is A3 High: the series' first machine,
 * the only one before A3 Mega, 2024). */
static const struct {
	const char *token;
	int nics, gpus;     /* a machine's GPU NICs and GPUs */
	double gbps;
	bool gdtcp;
} google_nics[] = {
	{"a3-highgpu", 4, 8, 200, true}, {"a3-edgegpu", 4, 8, 200, true},
	{"a3-megagpu", 8, 8, 200, true}, {"a3-ultragpu", 8, 8, 400, false},
	{"a4-highgpu", 8, 8, 400, false}, {"a4x-maxgpu", 4, 4, 800, false},
	{"a4x-highgpu", 4, 4, 400, false}, {"A3 High", 4, 8, 200, true},
	{"A3 Edge", 4, 8, 200, true}, {"A3 Mega", 8, 8, 200, true}, {"A3 Ultra", 8, 8, 400, false},
	{"A3 VM", 4, 8, 200, true}, {"A4X Max", 4, 4, 800, false}, {"A4X", 4, 4, 400, false},
};

/* Whether w (any case) starts within the n characters at p. */
static bool has_within(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);
	for (size_t i = 0; i < n && p[i]; i++)
		if (!strncasecmp(p + i, w, k))
			return true;
	return false;
}

/* Whether "P2P" at p speaks of GPU peer-to-peer: not a pipeline's
 * point-to-point sends ("pipeline P2P", "P2P communication", "P2P send",
 * overlap_p2p_comm), nor a CUDA sample's matrix label ("P2P=Disabled
 * Bandwidth Matrix"), nor inside a word or an identifier. */
static bool p2p_of_gpus(const char *t, const char *p)
{
	static const char *const pipe_after[] = {" comm", " send", " recv", " op", "-comm"};
	if ((p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
	    isalnum((unsigned char)p[3]) || p[3] == '_')
		return false;
	if (p[3] == '=' && isalpha((unsigned char)p[4]))
		return false;
	for (size_t i = 0; i < sizeof pipe_after / sizeof pipe_after[0]; i++)
		if (!strncasecmp(p + 3, pipe_after[i], strlen(pipe_after[i])))
			return false;
	static const char *const pipe_before[] = {"pipeline"};
	return !val__word_before_in(t, p, " ", pipe_before, 1);
}

/* PCIe peer-to-peer as the row says it: off where NCCL_P2P_DISABLE=1 or
 * NCCL_P2P_LEVEL=LOC (or NVL, NVLink only, on cards without a bridge), the
 * CUDA sample's "CANNOT Access Peer", the traffic said to go through host
 * memory ("SHM/host path"), or a mention of the
 * GPUs' P2P said off, unavailable or not supported and none that says it
 * works (val__turned_off's rule); on where NCCL_P2P_LEVEL reaches the host
 * bridges (SYS, PHB), P2P is said enabled, or a patched driver (or an NVLink
 * bridge) gives it; a bandwidth test's two modes ("P2P-enabled ... P2P-
 * disabled") decide nothing; else the GPU's (GeForce cards: off). */
/* Whether one of the `nw` words before p in its clause (back to ';', ',',
 * a bracket, or a connective such as "so", "and") is, as a whole word, one
 * of `words`: "without NCCL_...", "never falls back to TCP", not
 * "NCCL_IB_DISABLE=1 NCCL_P2P_DISABLE=1" (a word inside an identifier is
 * none) nor "not available so NCCL uses TCP". */
static bool word_before(const char *t, const char *p, int nw, const char *const *words,
                        size_t nwords)
{
	const char *e = p;
	for (int w = 0; w < nw; w++) {
		while (e > t && e[-1] == ' ')
			e--;
		if (e == t || strchr(";,()", e[-1]))
			return false;
		const char *b = e;
		while (b > t && !strchr(" ;,()", b[-1]))
			b--;
		for (size_t k = 0; k < nwords; k++)
			if ((size_t)(e - b) == strlen(words[k]) && !strncasecmp(b, words[k], (size_t)(e - b)))
				return true;
		/* a connective starts another thought: "not available so NCCL uses TCP" */
		static const char *const conj[] = {"so", "because", "since", "and", "but", "then",
			"thus", "hence", "therefore"};
		for (size_t k = 0; k < sizeof conj / sizeof conj[0]; k++)
			if ((size_t)(e - b) == strlen(conj[k]) && !strncasecmp(b, conj[k], (size_t)(e - b)))
				return false;
		e = b;
	}
	return false;
}

/* An NCCL variable said as set ("NCCL_P2P_DISABLE=1"), with or without its
 * NCCL_ prefix, as a whole token, not denied or compared in the three words
 * before it ("without NCCL_P2P_DISABLE=1", "vs NCCL_SHM_USE_CUDA_MEMCPY=1",
 * "slower than with ...") nor unset after it ("... not set"). `var`
 * without the prefix. */
static bool env_said(const char *t, const char *var)
{
	static const char *const no[] = {"no", "not", "without", "w/o", "vs", "vs.", "versus",
		"than", "unlike", "instead"};
	size_t n = strlen(var);
	for (const char *p = val__find(t, var); p; p = val__find(p + 1, var)) {
		const char *s0 = p;
		if (s0 - t >= 5 && !strncasecmp(s0 - 5, "NCCL_", 5))
			s0 -= 5;
		if ((s0 > t && (isalnum((unsigned char)s0[-1]) || s0[-1] == '_')) ||
		    isalnum((unsigned char)p[n]))
			continue;
		const char *a = p + n;
		while (*a == ' ')
			a++;
		if (!strncasecmp(a, "not set", 7) || !strncasecmp(a, "unset", 5))
			continue;
		if (!word_before(t, s0, 3, no, sizeof no / sizeof no[0]))
			return true;
	}
	return false;
}

/* The value of an NCCL variable set in the text ("NCCL_SOCKET_NTHREADS=4",
 * "SOCKET_NTHREADS 2"), not where a word before it denies it; -1 when none. */
static int env_int(const char *t, const char *var)
{
	static const char *const no[] = {"no", "not", "without", "w/o", "vs", "vs.", "versus",
		"than", "unlike", "instead"};
	size_t n = strlen(var);
	int v = -1;
	for (const char *p = val__find(t, var); p; p = val__find(p + 1, var)) {
		const char *s0 = p;
		if (s0 - t >= 5 && !strncasecmp(s0 - 5, "NCCL_", 5))
			s0 -= 5;
		if ((s0 > t && (isalnum((unsigned char)s0[-1]) || s0[-1] == '_')) ||
		    isalnum((unsigned char)p[n]) || p[n] == '_')
			continue;
		const char *a = p + n;
		while (*a == ' ' || *a == '=' || *a == ':')
			a++;
		if (!isdigit((unsigned char)*a) || word_before(t, s0, 3, no, sizeof no / sizeof no[0]))
			continue;
		v = atoi(a);
		break;   /* the run's own, not a comparison's after it */
	}
	return v > 64 ? 64 : v;
}

/* The NCCL minor version the text names ("NCCL 2.18.5", "NCCL v2.4.7",
 * "nccl2.26.2"), x 1000 plus the patch; 0 when none. */
static int nccl_version_of(const char *t)
{
	for (const char *p = val__find(t, "nccl"); p; p = val__find(p + 4, "nccl")) {
		const char *q = p + 4;
		while (*q == ' ' || *q == 'v' || *q == 'V' || *q == '-' || *q == '_')
			q++;
		if (strncmp(q, "2.", 2) || !isdigit((unsigned char)q[2]))
			continue;
		char *e;
		long minor = strtol(q + 2, &e, 10), patch = 0;
		if (*e == '.' && isdigit((unsigned char)e[1]))
			patch = strtol(e + 1, NULL, 10);
		return (int)(minor * 1000 + (patch < 1000 ? patch : 0));
	}
	return 0;
}

/* An AWS instance type as a token of its own ("p5.48xlarge", "g4dn.metal";
 * not "SP5." nor "fig5.png"). */
static bool aws_instance(const char *t)
{
	static const char *const fam[] = {"p3.", "p3dn.", "p4d.", "p4de.", "p5.", "p5e.", "p5en.",
		"g4dn.", "g5.", "g6.", "g6e."};
	for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++)
		for (const char *p = val__find(t, fam[i]); p; p = val__find(p + 1, fam[i])) {
			if (p > t && isalnum((unsigned char)p[-1]))
				continue;
			const char *q = p + strlen(fam[i]);
			size_t n = strspn(q, "0123456789");
			if (!strncasecmp(q + n, "xlarge", 6) || !strncasecmp(q + n, "large", 5) ||
			    !strncasecmp(q, "metal", 5))
				return true;
		}
	return false;
}

/* NCCL's sockets per connection over TCP: NCCL_SOCKET_NTHREADS x
 * NCCL_NSOCKS_PERTHREAD as set (threads at most 16, sockets at most 64, as
 * net_socket.cc clamps them), else its defaults by the NIC's vendor: AWS's
 * ENA 2 x 8 (since NCCL 2.4.8), Google's gVNIC 4 x 1 (2.5.6), one socket
 * elsewhere, where sockets per thread alone add no helper thread to carry
 * them. 0: nothing said, NCCL's generic default. */
static int sockets_of(const val_row *r)
{
	const char *const texts[] = {r->other, r->source, r->hardware};
	int nt = -1, ns = -1;
	for (size_t i = 0; i < 3; i++) {
		if (nt < 0)
			nt = env_int(texts[i], "SOCKET_NTHREADS");
		if (ns < 0)
			ns = env_int(texts[i], "NSOCKS_PERTHREAD");
	}
	int ver = 0;
	for (size_t i = 0; i < 3 && !ver; i++)
		ver = nccl_version_of(texts[i]);
	bool aws = false, gcp = false;
	for (size_t i = 0; i < 3; i++) {
		const char *t = texts[i];
		/* AWS by its cloud, not by its network plugin ("aws-ofi-nccl",
		 * NCCL_NET='AWS Libfabric') that other machines run, nor a
		 * comparison ("unlike the AWS runs") */
		bool plugin = val__has(t, "aws-ofi") || val__has(t, "AWS Libfabric") ||
		              val__has(t, "AWS OFI");
		aws = aws || (val__has_word(t, "AWS") && val__affirmed(t, "AWS") && !plugin) ||
		      val__has_word(t, "EC2") || val__has_word(t, "ENA") || aws_instance(t);
		gcp = gcp || (val__has_word(t, "GCP") && val__affirmed(t, "GCP")) ||
		      val__affirmed(t, "Google Cloud") || val__has(t, "gVNIC") ||
		      val__has_word(t, "gve") || val__has(t, "a2-highgpu") ||
		      val__has(t, "a2-ultragpu") || val__has(t, "a3-highgpu") ||
		      val__has(t, "a3-megagpu") || val__has(t, "a3-ultragpu") ||
		      val__has(t, "g2-standard");
	}
	int dt = 0, ds = 1;
	if (aws && !gcp && (!ver || ver >= 4008))
		dt = 2, ds = 8;
	else if (gcp && !aws && (!ver || ver >= 5006))
		dt = 4, ds = 1;
	if (nt < 0 && ns < 0 && !dt)
		return 0;
	int t = nt >= 0 ? nt : dt;
	if (t > 16)
		t = 16;
	int per = ns >= 0 ? ns : ds;
	if (t <= 0 || per <= 0)   /* no helper thread, or none of its sockets: one socket */
		return 1;
	int k = t * per;
	return k > 64 ? 64 / t * t : k;
}

static hw_p2p p2p_of(const val_row *r)
{
	const char *const texts[] = {r->hardware, r->other};
	static const char *const gone[] = {"unavailable", "not available", "not supported"};
	for (size_t i = 0; i < 2; i++) {
		const char *t = texts[i];
		/* NCCL_P2P_LEVEL=NVL: peer-to-peer over NVLink only, none on PCIe */
		bool nvl_only = env_said(t, "P2P_LEVEL=NVL");   /* bridges yes, PCIe no */
		if (env_said(t, "P2P_DISABLE=1") || env_said(t, "P2P_LEVEL=LOC") || nvl_only ||
		    val__has(t, "CANNOT Access Peer") || val__has(t, "SHM/host"))
			return P2P_OFF;
		if (val__has(t, "P2P-enabled") || val__has(t, "P2P access CAN"))
			continue;
		bool off = false, on = false;
		for (const char *p = val__find(t, "P2P"); p; p = val__find(p + 3, "P2P")) {
			if (!p2p_of_gpus(t, p))
				continue;
			bool this_off = val__off_after(p + 3) || val__negated_before(t, p);
			/* "P2P not supported", "P2P presumably unavailable": within a few
			 * words, before a "but" that turns to something else */
			for (size_t k = 0; k < sizeof gone / sizeof gone[0] && !this_off; k++) {
				const char *q = val__find(p, gone[k]);
				if (q && q - p <= 20 && !memchr(p, ';', (size_t)(q - p)) &&
				    !memchr(p, ',', (size_t)(q - p)) && !memchr(p, '(', (size_t)(q - p)) &&
				    !has_within(p, (size_t)(q - p), " but "))
					this_off = true;
			}
			if (this_off)
				off = true;
			else
				on = true;
		}
		if (off && !on)
			return P2P_OFF;
	}
	for (size_t i = 0; i < 2; i++) {
		const char *t = texts[i];
		if (env_said(t, "P2P_LEVEL=SYS") || env_said(t, "P2P_LEVEL=PHB") ||
		    val__affirmed(t, "P2P enabled") ||
		    (val__has(t, "P2P") && val__has(t, "patched")))
			return P2P_ON;
	}
	return P2P_AUTO;
}

/* The NVLinks between each pair of GPUs: as nvidia-smi topo prints them
 * ("every GPU pair NV4", "pair connected by NV4", a pasted matrix "GPU0 X NV4
 * NV4 NV4"), or in words ("4 NVLink 3.0 links per pair", "4x NVLink3 between
 * each pair", "4 NVLinks per GPU pair"). An NVk token counts beside pair or
 * topo wording, or with another NVk, not alone ("NV4 (NVLink gen 4)", a rack
 * labelled "NV1"); k when one count is named, else 0 (NV1 and NV2: a hybrid
 * cube mesh). */
static int nvlink_pair_links_in(const char *t)
{
	int k = 0, tokens = 0;
	bool mixed = false;
	for (const char *p = val__find(t, "NV"); p; p = val__find(p + 2, "NV")) {
		if ((p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
		    !isdigit((unsigned char)p[2]))
			continue;
		char *e;
		long v = strtol(p + 2, &e, 10);
		if (isalnum((unsigned char)*e) || v < 1 || v > 18)
			continue;
		const char *a = e;
		while (*a == ' ' || *a == '(')
			a++;
		if (!strncasecmp(a, "NVLink", 6))
			continue;   /* "NV4 (NVLink gen 4)": a generation */
		mixed |= k && k != v;
		k = (int)v;
		tokens++;
	}
	bool context = val__has(t, "pair") || val__has(t, "topo") || val__has(t, "GPU0") ||
	               val__has(t, "every GPU") || tokens > 1;
	if (k && !mixed && context)
		return k;
	if (mixed)
		return 0;
	/* in words, in a clause about pairs */
	for (const char *p = val__find(t, "NVLink"); p; p = val__find(p + 1, "NVLink")) {
		int n = val__number_before(t, p, false);
		const char *a = p + 6;   /* "NVLink x4 between every GPU pair" */
		while (isalnum((unsigned char)*a) || *a == '.')
			a++;
		while (*a == ' ')
			a++;
		if (n < 1 && (*a == 'x' || *a == 'X') && isdigit((unsigned char)a[1]))
			n = atoi(a + 1);
		if (n < 1 || n > 18)
			continue;
		const char *from = p;   /* the clause around it */
		while (from > t && !strchr(",;()", from[-1]))
			from--;
		size_t end = (size_t)(p - from) + strcspn(p, ",;()");
		char clause[160];
		snprintf(clause, sizeof clause, "%.*s", (int)(end < 159 ? end : 159), from);
		if (val__has(clause, "pair"))
			return n;
	}
	return 0;
}

static int nvlink_pair_links(const val_row *r)
{
	int k = nvlink_pair_links_in(r->hardware);
	return k ? k : nvlink_pair_links_in(r->other);
}

/* GPUs joined pairwise by k links, fewer than all of their own (a node of
 * four A100s, NV4 a pair): a full mesh of k links a pair, at 25 GB/s a link
 * and direction (NVLink 3 and 4: 12 x 25 = 300 GB/s on an A100, 18 x 25 =
 * 450 on an H100; NVLink 5 twice that, 18 x 50 = 900 on a B200: NVIDIA's A100
 * and H100 whitepapers, the Blackwell datasheet). The NVLink the GPU has left
 * over goes to peers outside the job. Volta's hybrid cube mesh is read apart. */
/* Whether the words right after a bridge's name take it back or leave it
 * open: "NVLink bridges: none", "bridge not installed", "NVLink: N/A",
 * "bridges removed", "NVLink bridge not stated"; not words about something
 * else ("bridge topology not stated", "link count unknown"). q: just past
 * the name (and a "bridge(s)" after it). */
static bool denied_after(const char *q)
{
	static const char *const no[] = {"none", "no", "not", "n/a", "unused", "removed", "absent",
		"missing", "disabled", "unknown", "unclear", "off"};
	while (*q == ' ' || *q == ':' || *q == '=' || *q == '-' || *q == '\'' || *q == '"')
		q++;
	static const char *const verb[] = {"is ", "are ", "was ", "were "};   /* "... is not stated" */
	for (size_t k = 0; k < sizeof verb / sizeof verb[0]; k++)
		if (!strncasecmp(q, verb[k], strlen(verb[k])))
			q += strlen(verb[k]);
	for (size_t k = 0; k < sizeof no / sizeof no[0]; k++) {   /* whole words: not "offers" */
		size_t n = strlen(no[k]);
		if (!strncasecmp(q, no[k], n) && !isalnum((unsigned char)q[n]) &&
		    !(!strcmp(no[k], "no") && !strncasecmp(q + n, " issue", 6)))
			return true;
	}
	return false;
}

/* Past a name and a "bridge", "bridges" or "bridged" that follows it
 * ("NVLink bridges", "NVLink-bridged"). */
static const char *past_bridge_word(const char *q)
{
	const char *b = q;
	while (*b == ' ' || *b == '-')
		b++;
	if (!strncasecmp(b, "bridges", 7) || !strncasecmp(b, "bridged", 7))
		return b + 7;
	if (!strncasecmp(b, "bridge", 6))
		return b + 6;
	return q;
}

/* A bridge's group size said as a whole word ("4-way", not "64-way"), in a
 * clause that names the bridge ("4-way NVLink bridges", not "a 4-way
 * server, 2-way NVLink bridges" for the server), not negated. */
static bool way_said(const char *hw, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = val__find(hw, w); p; p = val__find(p + 1, w)) {
		if ((p > hw && isalnum((unsigned char)p[-1])) || isalnum((unsigned char)p[n]))
			continue;
		const char *from = p, *to = p + n;   /* the clause around it */
		while (from > hw && !strchr(";,()", from[-1]))
			from--;
		while (*to && !strchr(";,()", *to))
			to++;
		char clause[160];
		snprintf(clause, sizeof clause, "%.*s", (int)(to - from), from);
		if ((val__has(clause, "bridge") || val__has(clause, "NVLink")) && val__affirmed(p, w) &&
		    !val__negated_before(hw, p))
			return true;
	}
	return false;
}

/* NVLink bridges between PCIe cards that take them, as the hardware text
 * says ("NVLink bridges between pairs", "NVBridge", "2x NVL4 groups", a
 * topology's "NV4 between pairs"), not denied before or after the name ("no
 * NVLink", "NVLink bridges: none") nor left open ("NVLink bridge not
 * stated"): groups of 4 where it says so ("4-way", "NVL4", not "not 4-way")
 * and the card's bridges make them, else pairs, the 2-way bridge every such
 * card takes; none where the node's GPUs do not split into them. A node of
 * fewer GPUs than a group holds part of one. 0 = none. */
static int bridges_of(const val_row *r, const scn_cluster *c)
{
	const hw_gpu *g = &c->gpu;
	int gpn = c->gpus_per_node;
	if (g->bridge_Bps <= 0 || gpn < 2)
		return 0;
	static const char *const said[] = {"NVLink", "NVBridge", "NVL4"};
	const char *hw = r->hardware;
	bool yes = nvlink_pair_links_in(hw) > 0;
	for (size_t i = 0; i < sizeof said / sizeof said[0] && !yes; i++)
		for (const char *p = val__find(hw, said[i]); p && !yes;
		     p = val__find(p + 1, said[i])) {
			const char *q = past_bridge_word(p + strlen(said[i]));
			yes = !denied_after(q) && val__affirmed(p, said[i]) &&
			      !val__negated_before(hw, p);
		}
	/* a bridge taken back anywhere ("NVLink-capable cards, bridges
	 * removed"), not a host's, a riser's or a PCIe bridge */
	static const char *const other_bridges[] = {"host", "PCIe", "PCI", "PLX", "PEX", "root",
		"switch", "riser", "root-port", "network"};
	for (const char *p = val__find(hw, "bridge"); p && yes; p = val__find(p + 1, "bridge")) {
		const char *q = past_bridge_word(p);
		bool other = word_before(hw, p, 1, other_bridges,
		                         sizeof other_bridges / sizeof other_bridges[0]);
		if (!other && p > hw && p[-1] == '-') {   /* "host-bridge" */
			const char *b = p - 1;
			while (b > hw && isalpha((unsigned char)b[-1]))
				b--;
			for (size_t k = 0; k < sizeof other_bridges / sizeof other_bridges[0]; k++)
				other = other || ((size_t)(p - 1 - b) == strlen(other_bridges[k]) &&
				                  !strncasecmp(b, other_bridges[k], (size_t)(p - 1 - b)));
		}
		if (!other && (denied_after(q) || val__negated_before(hw, p)))
			yes = false;
	}
	if (!yes)
		return 0;
	/* groups of four where said so, not where a 2-way bridge is ("a 4-way
	 * server, 2-way NVLink bridges") */
	bool two = way_said(hw, "2-way") || way_said(hw, "two-way");
	bool four = way_said(hw, "4-way") || way_said(hw, "four-way") ||
	            val__affirmed_word(hw, "NVL4") || way_said(hw, "groups of 4") ||
	            way_said(hw, "groups of four");
	int k = four && !two && g->bridge_gpus >= 4 ? 4 : 2;
	if (gpn % k && k < gpn)
		k = 2;
	return gpn % k && k < gpn ? 0 : k;
}

/* Whether the text turns NCCL's peer-to-peer transport off altogether
 * (NCCL_P2P_DISABLE=1, NCCL_P2P_LEVEL=LOC): over NVLink bridges too. */
static bool nccl_p2p_off(const val_row *r)
{
	return env_said(r->hardware, "P2P_DISABLE=1") || env_said(r->other, "P2P_DISABLE=1") ||
	       env_said(r->hardware, "P2P_LEVEL=LOC") || env_said(r->other, "P2P_LEVEL=LOC");
}

/* NCCL_SHM_USE_CUDA_MEMCPY=1 said as what ran, not denied or compared
 * ("without ...", "vs ..."). */
static bool shm_copy_engine(const val_row *r)
{
	return env_said(r->other, "SHM_USE_CUDA_MEMCPY=1") ||
	       env_said(r->hardware, "SHM_USE_CUDA_MEMCPY=1");
}

static void nvlink_pairs_of(const val_row *r, scn_cluster *c)
{
	int k = nvlink_pair_links(r), gpn = c->gpus_per_node;
	const hw_gpu *g = &c->gpu;
	if (!k || gpn < 2 || g->arch == ARCH_VOLTA || val__affirmed(r->hardware, "NVSwitch") ||
	    (c->intra.kind != INTRA_NVSWITCH && c->intra.kind != INTRA_NVLINK_MESH))
		return;
	double link = g->arch == ARCH_BLACKWELL ? 50e9 : 25e9, pair = k * link;
	if (pair >= g->nvlink_Bps)
		return;
	c->intra.kind = INTRA_NVLINK_MESH;
	c->intra.bandwidth_Bps = fmin(g->nvlink_Bps, pair * (gpn - 1));
}

/* Whether the text turns GPUDirect off as the GPU's network path ("without
 * GPUDirect"), not GPUDirect Storage (cuFile's reads from storage). */
static bool gpudirect_off(const char *t)
{
	char buf[2048];
	snprintf(buf, sizeof buf, "%s", t);
	static const char *const storage[] = {"GPUDirect Storage", "GPUDirect-Storage", "GPUDirectStorage"};
	for (size_t i = 0; i < sizeof storage / sizeof storage[0]; i++)
		for (char *p = (char *)val__find(buf, storage[i]); p; p = (char *)val__find(p, storage[i]))
			memset(p, ' ', strlen(storage[i]));
	return val__turned_off(buf, "GPUDirect");
}

/* Google's NICs for a Google machine; GPUDirect over TCP where it runs:
 * said in either column ("GPUDirect-TCPX", "TCPXO", its plugin's name
 * "FasTrak"), or an A3 High, Edge or Mega whose text does not turn it off
 * ("GPUDirect-TCPX disabled", "non-TCPX", "USE_GPU_DIRECT=false", "without
 * GPUDirect": NCCL's
 * sockets then, the machines having no RDMA) nor says the run's NICs are
 * RDMA. `tray`: the GPUs the text's NICs were read for. */
static void google_nics_of(const val_row *r, scn_cluster *c, int tray)
{
	const char *hw = r->hardware, *o = r->other;
	int k = -1;
	for (size_t i = 0; i < sizeof google_nics / sizeof google_nics[0] && k < 0; i++)
		if (val__has_word(hw, google_nics[i].token))
			k = (int)i;
	bool off = (val__has(hw, "TCPX") && !val__affirmed(hw, "TCPX")) ||
	           val__has(o, "USE_GPU_DIRECT=false") ||
	           /* "NCCL over a socket fabric without GPUDirect" (not GPUDirect
	            * Storage, cuFile's reads) */
	           gpudirect_off(hw) || gpudirect_off(o) ||
	           (val__has(o, "TCPX") && !val__affirmed(o, "TCPX") && !val__affirmed(hw, "TCPX"));
	bool said = val__affirmed(hw, "TCPX") || val__affirmed(hw, "FasTrak") ||
	            val__affirmed(o, "TCPX") || val__affirmed(o, "FasTrak");
	bool gd = k >= 0 && google_nics[k].gdtcp;
	bool rdma = val__affirmed(hw, "InfiniBand") || val__affirmed(hw, "RoCE") ||
	            val__affirmed(hw, "RDMA");
	if (gd && rdma && !said)
		return;   /* a text that says otherwise: its own NICs */
	if (c->nodes > 1 && !off && (said || gd))
		c->nic.transport = TRANSPORT_GDTCP;
	if (gd && off && c->nic.transport == TRANSPORT_RDMA)
		c->nic.transport = TRANSPORT_TCP;
	if (k < 0 || (off && gd))
		return;
	c->nic.speed_Bps = google_nics[k].gbps * 1e9 / 8;
	long long nics = ((long long)google_nics[k].nics * tray + google_nics[k].gpus - 1) /
	                 google_nics[k].gpus;
	nics = (nics * c->gpus_per_node + tray - 1) / tray;
	/* NCCL's sockets over the host NIC said in words: "over the single host
	 * gVNIC eth0 only" */
	int told = nic_count_in_words(hw);
	if (told == 1 && (val__has(hw, "Socket") || val__has(o, "Socket")))
		nics = told;
	c->nic.count = nics < 1 ? 1 : nics > 4LL * c->gpus_per_node ? 4 * c->gpus_per_node
	                                                               : (int)nics;
}

/* A MIG profile's name ("1g.10gb", "3g.40gb"): a GPU's slice. */
static bool mig_profile(const char *t)
{
	for (const char *p = t; *p; p++)
		if (isdigit((unsigned char)*p) && (p == t || !isalnum((unsigned char)p[-1])) &&
		    (p[1] == 'g' || p[1] == 'G') && p[2] == '.' && isdigit((unsigned char)p[3])) {
			const char *q = p + 3;
			while (isdigit((unsigned char)*q))
				q++;
			if (!strncasecmp(q, "gb", 2))
				return true;
		}
	return false;
}

static int cluster_of(const val_row *r, scenario *s, char *why, size_t n)
{
	/* GPUs split into partitions: AMD's CPX compute partitions (8 logical
	 * GPUs of one XCD each per MI300X), NVIDIA's MIG instances */
	const char *hw = r->hardware;
	bool cpx = val__affirmed_word(hw, "CPX") &&
	           (val__has(hw, "partition") || val__has(hw, "mode"));
	bool mig = (val__affirmed_word(hw, "MIG") && !val__turned_off(hw, "MIG") &&
	            !val__has(hw, "MIG-capable") && !val__has(hw, "MIG capable") &&
	            (val__has(hw, "instance") || val__has(hw, "partition") ||
	             val__has(hw, "slice"))) || mig_profile(hw);
	if (cpx || mig) {
		snprintf(why, n, "GPUs split into partitions (%s): trainsim models whole GPUs",
		         cpx ? "AMD's CPX mode" : "MIG instances");
		return -1;
	}
	if (val__has_word(r->hardware, "TPU") || val__has(r->hardware, "TPUv") ||
	    val__has(r->hardware, "TPU v")) {
		snprintf(why, n, "a TPU run: trainsim simulates the GPUs of its catalog");
		return -1;
	}
	const gpu_map *m = gpu_of(r->hardware);
	if (m && !*m->catalog) {
		snprintf(why, n, "the hardware text names %s%s%s, which the catalog does not have "
		         "(trainsim list gpus)", m->token, m->with ? " " : "", m->with ? m->with : "");
		return -1;
	}
	const char *name = m ? m->catalog : NULL;
	if (m && !strcmp(name, "A100-PCIE") &&
	    (mem_tag(r->hardware, "40G") || mem_tag(r->hardware, "40 GB")))
		name = "A100-PCIE-40GB";
	const hw_gpu *g = m ? hw_gpu_find(name) : NULL;
	if (!g) {
		snprintf(why, n, "no GPU of the catalog in the hardware text '%.60s' (trainsim list "
		         "gpus)", r->hardware);
		return -1;
	}
	scn_cluster *c = &s->cluster;
	c->gpu = *g;
	/* "default 500W power limit (not 700W TDP)": a cap below the rating */
	double cap = val_power_limit_w(r);
	if (cap > 0 && g->tdp_w > 0 && cap < g->tdp_w)
		c->gpu.power_limit_w = cap;
	int gpn = gpus_per_node(r->hardware, m);
	if (gb_part(m) && gpn == 72 && gb_domains_apart(r->other))
		gpn = GB_TRAY_GPUS;   /* "cross-domain 2 nodes (NCCL_MNNVL_ENABLE=0)" */
	bool two_domains = gb_part(m) && gpn == 72 &&
	                   (gb_two_domains(r->other) || gb_two_domains(r->hardware));
	const char *apn = val__find(r->other, "accelerators_per_node");   /* MLPerf's, in the text */
	if (apn && !val__has(r->hardware, "accelerators_per_node")) {
		const char *q = apn + strlen("accelerators_per_node");
		while (*q == ' ' || *q == ':' || *q == '=')
			q++;
		if (atoi(q) > 0 && atoi(q) <= 72)
			gpn = atoi(q);
	}
	/* a row without its GPU count that gives every parallel size: their product */
	int cp = val__cp_of(r->other);
	/* the job's nodes with an empty gpus cell: "8 nodes x 8 A100" (not a
	 * machine's "560 nodes total"), MLPerf's "number_of_nodes: 8" */
	long nodes_said = 0;
	const char *nw = val__find(r->hardware, " nodes x");
	if (!nw)
		nw = val__find(r->hardware, " node x");
	if (nw)
		nodes_said = val__number_before(r->hardware, nw, false);
	const char *nn = val__find(r->hardware, "number_of_nodes");
	if (!nn)
		nn = val__find(r->other, "number_of_nodes");
	if (nn) {
		const char *q = nn + strlen("number_of_nodes");
		while (*q == ' ' || *q == ':' || *q == '=')
			q++;
		nodes_said = strtol(q, NULL, 10);
	}
	long long want = r->gpus_are_nodes ? (long long)r->gpus * gpn
	               : r->gpus > 0 ? r->gpus
	               : r->tp > 0 && r->pp > 0 && r->dp > 0
	               ? (long long)r->tp * r->pp * r->dp * (cp > 1 ? cp : 1)
	               : nodes_said > 0 ? nodes_said * (long long)gpn
	               : 1;
	if (want < 1 || want > 10000000) {
		snprintf(why, n, "%lld GPUs: not a cluster trainsim simulates (1 to 10,000,000)", want);
		return -1;
	}
	int gpus = (int)want;
	if (gpus < gpn)
		gpn = gpus;          /* part of one node */
	/* half the job in each of two domains, when it halves into whole trays */
	if (two_domains && gpus % (2 * GB_TRAY_GPUS) == 0 && gpus / 2 < gpn)
		gpn = gpus / 2;
	/* a job that does not fill whole NVLink domains (128 GPUs of NVL72
	 * racks): domains of the largest size that divides the job */
	while (gpn > 1 && gpus % gpn)
		gpn--;
	c->gpus_per_node = gpn;
	c->nodes = (gpus + gpn - 1) / gpn;
	/* a GB200/GB300 NVL72 domain is built of compute trays of 4 GPUs (an OS
	 * node each, "128 nodes x 4 GB300"), and a count of NICs or a node's
	 * rate ("3,200 Gbps per node") is a tray's unless the text ties it to the
	 * rack: 4 ConnectX per tray is one per GPU (NVIDIA's GB200 NVL72 and
	 * GB300 reference designs), not 4 for the whole domain. The tray's NICs
	 * are read, then counted for the domain, NICs per GPU times its GPUs. */
	bool per_rack = val__has(r->hardware, "per rack") || val__has(r->hardware, "for the rack") ||
	                val__has(r->hardware, "uplink");
	int tray = gpn;
	if (gb_part(m) && gpn > GB_TRAY_GPUS && !per_rack) {
		/* the tray's GPUs: "36 nodes x 4 GB200" (the GPU named after the
		 * count), else the reference designs' 4 */
		const char *nx = val__find(r->hardware, " nodes x ");
		char *after = NULL;
		tray = nx && isdigit((unsigned char)nx[9]) ? (int)strtol(nx + 9, &after, 10) : 0;
		if (tray > 0 && !gpu_next(after, m))
			tray = 0;
		if (tray < 1 || tray >= gpn)
			tray = GB_TRAY_GPUS;
	}
	nic_of(nic_text(r), m, tray, &c->nic);
	if (tray < gpn) {
		long long nics = ((long long)c->nic.count * gpn + tray - 1) / tray;
		c->nic.count = nics > 4LL * gpn ? 4 * gpn : (int)nics;
	}
	google_nics_of(r, c, tray);
	/* NCCL's CollNet on switches that reduce (InfiniBand SHARP): enabled
	 * ("NCCL_COLLNET_ENABLE=1") or named as what ran ("CollnetDirect",
	 * "NCCL_ALGO=COLLNETCHAIN"); a fabric merely able to ("IB/SHARP" in a
	 * device list) is not NCCL using it, which needs the variable */
	c->fabric.sharp = c->nic.transport == TRANSPORT_RDMA && collnet_said(r);
	c->intra.kind = (pcie_cards(r->hardware) && !val__has(r->hardware, "NVLink")) ||
	                g->nvlink_Bps <= 0 ? INTRA_PCIE : INTRA_NVSWITCH;   /* L40S: no NVLink */
	/* V100 nodes other than DGX-2 (DGX-1, cloud V100 x 8) join their GPUs by
	 * an NVLink hybrid cube mesh, not a switch (NVIDIA DGX-1 data sheet) */
	if (c->intra.kind == INTRA_NVSWITCH && g->arch == ARCH_VOLTA &&
	    !val__has(r->hardware, "NVSwitch") && !val__has(r->hardware, "DGX-2"))
		c->intra.kind = INTRA_NVLINK_MESH;
	/* GH200 nodes of four (JUPITER, Alps): every pair joined directly; the
	 * NVL32 racks have NVSwitches */
	if (!strncmp(g->name, "GH200", 5) && !val__has(r->hardware, "NVSwitch") &&
	    !val__has(r->hardware, "NVL32"))
		c->intra.kind = INTRA_NVLINK_MESH;
	nvlink_pairs_of(r, c);
	if (c->intra.kind == INTRA_PCIE) {
		c->intra.p2p = p2p_of(r);
		c->intra.bridge = nccl_p2p_off(r) ? 0 : bridges_of(r, c);
		/* NCCL's SHM transport through the copy engines */
		if (shm_copy_engine(r))
			c->intra.shm_eff = hw_shm_copy_engine_eff();
	}
	c->fabric.topology = c->nodes > 1 ? TOPO_FAT_TREE : TOPO_SINGLE_SWITCH;
	c->nic.sockets = c->nic.transport == TRANSPORT_TCP ? sockets_of(r) : 0;
	return 0;
}

/* The algorithm a row names as what ran (NCCL_ALGO=Ring, or in its own
 * words "algo=Ring (forced)", "algorithm: tree"): a key at a word's start
 * (after a blank or a separator), not denied or compared in the three words
 * before it ("without NCCL_ALGO=Tree", "compared to algo=Tree"), right
 * after its value ("Tree not set") or later in its clause ("Ring vs Tree",
 * "Tree was slower"),
 * nor a list ("ring,tree", "Ring or Tree" leave NCCL's choice); the value's
 * start, or NULL. */
static const char *algo_said(const char *o)
{
	static const char *const keys[] = {"NCCL_ALGO=", "algo=", "algorithm=", "algo:",
		"algorithm:"};
	static const char *const off[] = {"vs", "vs.", "versus", "compared", "unlike", "instead",
		"not", "no", "without", "than"};
	static const char *const after_off[] = {"vs", "vs.", "versus", "compared", "than",
		"slower", "faster"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		for (const char *k = val__find(o, keys[i]); k; k = val__find(k + 1, keys[i])) {
			if (k > o && !strchr(" ;,(", k[-1]))
				continue;   /* "pseudo-algo=", "NCCL_ALGO=" read as its own key */
			if (word_before(o, k, 3, off, sizeof off / sizeof off[0]))
				continue;   /* "compared to algo=Tree", "without NCCL_ALGO=Tree" */
			const char *v = k + strlen(keys[i]);
			while (*v == ' ')
				v++;
			size_t w = 0;
			while (isalpha((unsigned char)v[w]))
				w++;
			/* a list: NCCL's "ring,tree" (no blank: "Ring, NVLS off" is another
			 * setting), "Ring/Tree", "Ring or Tree" */
			const char *nx = v + w;
			if ((*nx == ',' || *nx == '/' || *nx == '|') && isalpha((unsigned char)nx[1]))
				nx++;
			else if (!strncasecmp(nx, " or ", 4) || !strncasecmp(nx, " and ", 5))
				nx += nx[1] == 'o' || nx[1] == 'O' ? 4 : 5;
			bool list = nx > v + w && (!strncasecmp(nx, "ring", 4) ||
			            !strncasecmp(nx, "tree", 4) || !strncasecmp(nx, "nvls", 4) ||
			            !strncasecmp(nx, "collnet", 7));
			/* the rest of its own clause, to the value's comma: "Ring vs Tree",
			 * "Tree not set", "Tree was slower" */
			const char *a = v + w;
			size_t alen = strcspn(a, ";),");
			bool later = false;
			for (size_t j = 0; j < sizeof after_off / sizeof after_off[0] && !later; j++) {
				size_t n = strlen(after_off[j]);
				for (const char *q = a; q + n <= a + alen && !later; q++)
					later = !strncasecmp(q, after_off[j], n) &&
					        (q == a || !isalnum((unsigned char)q[-1])) &&
					        !isalnum((unsigned char)q[n]);
			}
			const char *nw = v + w;   /* "Tree not set", "Tree off" */
			while (*nw == ' ')
				nw++;
			bool unset = !strncasecmp(nw, "not set", 7) || !strncasecmp(nw, "unset", 5) ||
			             !strncasecmp(nw, "off", 3) || !strncasecmp(nw, "disabled", 8);
			if (!w || list || later || unset)
				continue;
			return v;
		}
	return NULL;
}

/* The protocol NCCL_PROTO forces ("NCCL_PROTO=LL", "NCCL_PROTO: LL128",
 * "proto=Simple"): one protocol, not a list NCCL chooses among ("LL,LL128",
 * "LL, LL128", per-op "LL;allreduce:Simple") nor an exclusion ("^LL128"),
 * nor one named as unset, compared with or not set ("unset NCCL_PROTO=LL",
 * "NCCL_PROTO=LL128 was not set"); two settings that differ decide nothing.
 * 0 (NCCL's choice) otherwise. */
/* Whether t starts another item of an NCCL_PROTO list: a protocol
 * ("LL128"), or an op's own setting ("allreduce:Simple"). */
static bool proto_list_item(const char *t)
{
	size_t w = 0;
	char word[16];
	while (isalnum((unsigned char)t[w]))
		w++;
	if (!w || w >= sizeof word)
		return false;
	memcpy(word, t, w);
	word[w] = 0;
	return coll_proto_parse(word) > 0 || t[w] == ':';
}

static int proto_said(const char *o)
{
	static const char *const keys[] = {"NCCL_PROTO", "proto", "protocol"};
	static const char *const off[] = {"vs", "vs.", "versus", "compared", "unlike", "instead",
		"not", "no", "without", "than", "unset", "unsetting"};
	int found = 0;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		for (const char *k = val__find(o, keys[i]); k; k = val__find(k + 1, keys[i])) {
			if (k > o && !strchr(" ;,({`'\"", k[-1]))
				continue;   /* "NCCL_PROTO" read as its own key, not "proto" */
			const char *v = k + strlen(keys[i]);
			while (*v == ' ')
				v++;
			if (*v != '=' && *v != ':')
				continue;   /* "protocol buffers", "the proto of" */
			v++;
			if (word_before(o, k, 3, off, sizeof off / sizeof off[0]))
				continue;
			while (*v == ' ' || *v == '"' || *v == '\'' || *v == '`' || *v == '{')
				v++;
			size_t w = 0;
			while (isalnum((unsigned char)v[w]))
				w++;
			const char *nx = v + w;
			while (*nx == ' ')
				nx++;
			if ((*nx == ',' || *nx == '/' || *nx == '|' || *nx == ';') &&
			    isalpha((unsigned char)nx[1 + strspn(nx + 1, " ")]) &&
			    proto_list_item(nx + 1 + strspn(nx + 1, " ")))
				continue;   /* a list, or per-op settings */
			if (!strncasecmp(nx, "not set", 7) || !strncasecmp(nx, "unset", 5) ||
			    !strncasecmp(nx, "was not", 7) || !strncasecmp(nx, "is not", 6) ||
			    !strncasecmp(nx, "off", 3) || !strncasecmp(nx, "disabled", 8))
				continue;
			char word[16];
			if (!w || w >= sizeof word)
				continue;
			memcpy(word, v, w);
			word[w] = 0;
			int p = coll_proto_parse(word);
			if (p <= 0)
				continue;
			if (found && found != p)
				return 0;   /* two settings: which ran is not said */
			found = p;
		}
	return found;
}

/* Whether the text says NCCL moved the data over its TCP sockets ("without
 * the plugin NCCL falls back to TCP sockets", "default networking (TCP
 * sockets)", "no plugin; README: TCP", "this will use TCP"), not where a phrase before it in its clause denies it ("never
 * falls back", "instead of TCP sockets", "no fallback"), nor the sockets of
 * NCCL's bootstrap beside a network plugin or InfiniBand. */
static bool socket_fallback(const char *o)
{
	if (val__has(o, "NET/IB") || val__has(o, "NET/OFI") || val__has(o, "GDRDMA"))
		return false;
	static const char *const said[] = {"falls back to TCP", "fell back to TCP",
		"falls back to socket", "TCP sockets", "NET/Socket", "use TCP", "uses TCP",
		"using TCP", "used TCP", "README: TCP"};
	static const char *const deny[] = {"never", "no", "not", "without", "instead", "rather",
		"than", "would", "bootstrap", "bootstrap's"};
	for (size_t i = 0; i < sizeof said / sizeof said[0]; i++)
		for (const char *p = val__find(o, said[i]); p; p = val__find(p + 1, said[i])) {
			size_t n = strlen(said[i]);   /* whole words: not "causes TCP", "uses TCPX" */
			if ((p > o && isalpha((unsigned char)p[-1])) || isalnum((unsigned char)p[n]))
				continue;
			/* denied in the words right before it ("never falls back", "not
			 * use TCP", "instead of TCP sockets"), not by a reason earlier in
			 * its sentence ("RDMA is not available so NCCL uses TCP") */
			if (!word_before(o, p, 5, deny, sizeof deny / sizeof deny[0]))
				return true;
		}
	return false;
}

/* nccl-tests' "-g N" (GPUs per thread) in free text, case-sensitive ("-G" is
 * its CUDA-graph option) and as an option (after a blank or a bracket);
 * 0 when absent, at most 64. */
static int dash_g(const char *t)
{
	for (const char *p = strstr(t, "-g "); p; p = strstr(p + 1, "-g ")) {
		if (p > t && isalnum((unsigned char)p[-1]))
			continue;
		int g = atoi(p + 3);
		if (g >= 1)
			return g > 64 ? 64 : g;
	}
	return 0;
}

/* A count in a launcher's command ("-N 2", "-np 64", "nodes: 4"): its
 * digits, 0 when there are none or when it is beyond any cluster (atoi
 * would wrap "-N 99999999999" into a count). */
/* A count of what each node holds, right after a "nodes:" key ("GH200
 * nodes: 4x NVIDIA GH200 per node"): digits, an x, then a name, not a node
 * count ("nodes: 2x8 GPUs", "nodes: 2 x 8" are 2 nodes). */
static bool count_of_parts(const char *s)
{
	while (isdigit((unsigned char)*s))
		s++;
	while (*s == ' ')
		s++;
	if ((*s != 'x' && *s != 'X') || isalpha((unsigned char)s[1]))
		return false;
	s++;
	while (*s == ' ')
		s++;
	return !isdigit((unsigned char)*s);
}

static int launch_int(const char *s)
{
	if (!isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	long v = strtol(s, NULL, 10);
	return errno == 0 && v > 0 && v <= 1 << 20 ? (int)v : 0;
}

/* A count of machines with their names listed before " x ": "10 nodes
 * (cnode3-[002-011]) x 8", "2 GPU servers (client1, client2) x 2 GPUs", "2
 * machines [h1, h2] x 2", "2 hosts (h1 (rack A), h2) × 2"; the last such
 * list wins over a cluster's description before it, and one whose count
 * times its GPUs is the gpus cell's over one whose is not. Returns where the noun
 * starts and, in *len, the length up to the GPU count; NULL if none. */
static const char *host_list(const char *t, int gpus, size_t *len)
{
	static const char *const nouns[] = {"nodes", "servers", "hosts", "machines", "instances",
		"VMs"};
	const char *found = NULL;
	bool found_fits = false;
	for (size_t k = 0; k < sizeof nouns / sizeof nouns[0]; k++)
		for (const char *b = val__find(t, nouns[k]); b; b = val__find(b + 1, nouns[k])) {
			const char *o = b + strlen(nouns[k]);
			while (*o == ' ')
				o++;
			if (*o != '(' && *o != '[')
				continue;
			int depth = 0;   /* to the bracket that closes the list */
			const char *e = o;
			for (; *e; e++) {
				depth += *e == '(' || *e == '[';
				depth -= *e == ')' || *e == ']';
				if (!depth)
					break;
			}
			if (!*e)
				continue;
			const char *x = e + 1;
			if (*x != ' ')
				continue;
			x++;
			size_t cross = (*x == 'x' || *x == 'X') ? 1
			             : !strncmp(x, "\xc3\x97", 2) ? 2 : 0;   /* U+00D7, "×" */
			if (!cross || x[cross] != ' ')
				continue;
			/* with a gpus cell, a list whose count x GPUs is not the job's
			 * gives way to one whose is */
			int cnt = val__number_before(t, b, true);
			long each = strtol(x + cross + 1, NULL, 10);
			bool fits = gpus > 0 && cnt > 0 && (long)cnt * each == gpus;
			if (!found || (fits && (!found_fits || b > found)) || (!found_fits && b > found)) {
				found = b;
				found_fits = fits;
				*len = (size_t)(x + cross - b);
			}
		}
	return found;
}

/* The GPUs of a collective benchmark: "2 nodes x 8 GPU" in other_parallel
 * or the hardware text; else the row's gpus; else one node. nccl-tests -g:
 * "-g N" in the row's text, or Azure's AI-benchmarking-guide, whose
 * NCCLBandwidth.py runs -g 8 (docs/network.md); else one GPU per process. */
/* How a collective row says the GPUs of each of its nodes: "2 nodes, 1 GPU
 * per node", "... per server", "... per instance" (AWS), "4 GPUs each", "1 GPU
 * used per node". */
static const char *const per_node_words[] = {" GPUs each", " GPUs per node", " GPU per node",
	" GPU(s) per node", " GPU each", " GPUs per server", " GPU per server", " GPUs per instance",
	" GPU per instance", " GPUs per host", " GPU per host", " GPU used per node",
	" GPUs used per node", " GPU used per host", " GPUs used per host"};

static int coll_cluster_of(const val_row *r, val_case *c, char *why, size_t n)
{
	const char *texts[] = {r->other, r->hardware};
	int nodes = 0, gpn = 0;
	bool machine_gpus = false;   /* gpn is each machine's, as "nodes x N" is */
	for (int i = 0; i < 2 && !nodes; i++) {
		const char *p = val__find(texts[i], "nodes x");
		size_t len = 7;
		if (!p)
			p = val__find(texts[i], "node x"), len = 6;
		if (!p)
			p = val__find(texts[i], "node(s) x"), len = 9;   /* "2 node(s) x 4 GPUs" */
		bool listed = false;
		if (!p)
			p = host_list(texts[i], r->gpus, &len), listed = p != NULL;
		if (p) {
			nodes = val__number_before(texts[i], p, false);
			if (!nodes && listed && r->gpus > 0)   /* "2 Dell PowerEdge servers (...)" */
				nodes = val__number_before(texts[i], p, true);
			long v = strtol(p + len, NULL, 10);   /* bounded below, not atoi's overflow */
			gpn = v > 0 && v <= 4096 ? (int)v : 0;
			/* "1 node x N GPUs": a placeholder letter, the gpus cell says
			 * how many (not "8 nodes x DGX H100", a cluster's description) */
			const char *q = p + len;
			while (*q == ' ')
				q++;
			const char *g = q + 1;
			while (*g == ' ')
				g++;
			bool letter = isalpha((unsigned char)*q) && !isalnum((unsigned char)q[1]) &&
			              !strncasecmp(g, "GPU", 3);
			if (nodes > 0 && !gpn && letter)
				gpn = r->gpus > 0 && r->gpus % nodes == 0 ? r->gpus / nodes : 0;
			/* the cluster's nodes, not the run's: the gpus cell says
			 * otherwise ("10 nodes x 8 H100" beside a run of 10 GPUs) */
			if (!gpn || (r->gpus > 0 && (long)nodes * gpn != r->gpus))
				nodes = gpn = 0;
			machine_gpus = listed && nodes > 0;
		}
	}
	/* a launcher's "srun -N 2 --ntasks-per-node=8" ("-N2" too), Open MPI's
	 * "mpirun -np 64 -N 8" (-N is processes per node); "2 nodes, 8 GPUs
	 * each", "16 nodes of DGX A100", "nodes: 4", "2 DGX-H100 nodes", "2x DGX
	 * H100" */
	/* a key of the row's own notes: "nodes=2; ranks_per_node=4", the gpus
	 * cell over them (a ranks-per-node said beside must agree); not a count
	 * of nodes equated to something ("36 nodes = 2 x NVL72 domains") */
	const char *nk0 = val__find(r->other, "nodes=");
	while (nk0 && ((nk0 > r->other && (isalnum((unsigned char)nk0[-1]) || nk0[-1] == '_')) ||
	               (nk0 - r->other >= 2 && nk0[-1] == ' ' && isdigit((unsigned char)nk0[-2]))))
		nk0 = val__find(nk0 + 1, "nodes=");
	if (!nodes && r->gpus > 0 && nk0) {
		int k = launch_int(nk0 + 6);
		if (k > 0 && r->gpus % k == 0) {
			int each = val__key_number(r->other, "ranks_per_node");
			if (each <= 0 || (long)each * k == r->gpus)
				nodes = k, gpn = r->gpus / k;
		}
	}
	for (int i = 0; i < 2 && !nodes; i++) {
		const char *p = strstr(texts[i], "-N");
		const char *np = strstr(texts[i], "-np ");
		bool slurm = val__has(texts[i], "srun") || val__has(texts[i], "sbatch") ||
		             val__has(texts[i], "salloc");
		const char *d = p ? p + 2 + (p[2] == ' ') : NULL;
		if (p && (p == texts[i] || p[-1] == ' ') && isdigit((unsigned char)*d) && slurm) {
			nodes = launch_int(d);
			const char *t = val__find(texts[i], "ntasks-per-node=");
			if (!t)
				t = val__find(texts[i], "gpus-per-node=");
			gpn = t ? launch_int(strchr(t, '=') + 1) : 0;
		} else if (p && np && isdigit((unsigned char)*d) && launch_int(d) > 0 &&
		           launch_int(np + 4) % launch_int(d) == 0 && val__has(texts[i], "mpirun")) {
			gpn = launch_int(d);
			nodes = launch_int(np + 4) / gpn;
		}
		const char *nk = val__find(texts[i], "nodes:");
		if (!nodes && nk && isdigit((unsigned char)nk[6 + (nk[6] == ' ')]) &&
		    !count_of_parts(nk + 6 + (nk[6] == ' '))) {
			nodes = launch_int(nk + 6 + (nk[6] == ' '));
			const char *g = val__find(texts[i], "GPUs per node:");
			gpn = g ? launch_int(g + 14 + (g[14] == ' ')) : 0;
		}
		const char *of = val__find(texts[i], " nodes of ");
		if (!nodes && of && val__number_before(texts[i], of, false) > 0)
			nodes = val__number_before(texts[i], of, false);
		const char *dgx = val__find(texts[i], "DGX");
		if (!nodes && dgx && val__has(texts[i], " nodes") &&
		    val__number_before(texts[i], dgx, false) > 1)
			nodes = val__number_before(texts[i], dgx, false);   /* "2 DGX-H100 nodes" */
		const char *dx = val__find(texts[i], "x DGX");
		if (!nodes && dx && val__number_before(texts[i], dx + 1, false) > 1)
			nodes = val__number_before(texts[i], dx + 1, false);   /* "2x DGX H100" */
		/* a count of cloud instances: "4 x AWS p3dn.24xlarge", "2x a3-highgpu-8g" */
		const gpu_map *sys = gpu_of(r->hardware);
		const char *it = sys && sys->system ? val__find(texts[i], sys->token) : NULL;
		if (!nodes && it) {
			static const char *const cloud[] = {"AWS ", "Amazon ", "GCP ", "Google Cloud ",
				"Azure ", "OCI ", "EC2 "};
			const char *at = it;
			for (size_t k = 0; k < sizeof cloud / sizeof cloud[0]; k++) {
				size_t len = strlen(cloud[k]);
				if ((size_t)(at - texts[i]) >= len && !strncasecmp(at - len, cloud[k], len)) {
					at -= len;
					break;
				}
			}
			int k = val__number_before(texts[i], at, false);
			if (k > 1 && (r->gpus <= 0 || (long)k * sys->gpus_per_node == r->gpus))
				nodes = k;
		}
		if (nodes > 0 && gpn <= 0 && r->gpus > 0 && r->gpus % nodes == 0)
			gpn = r->gpus / nodes;   /* "2x DGX H100" with gpus 2: one GPU each */
		const char *nw = val__find(texts[i], " nodes");
		int k = nw ? val__number_before(texts[i], nw, false) : 0;
		/* "2 GKE nodes", "4 DGX nodes": a word between, when the gpus cell
		 * is there to check the product against */
		if (!k && nw && r->gpus > 0)
			k = val__number_before(texts[i], nw, true);
		const char *each = NULL;
		for (size_t w = 0; w < sizeof per_node_words / sizeof per_node_words[0] && !each; w++)
			each = val__find(texts[i], per_node_words[w]);
		if (!nodes && k > 0 && each) {
			nodes = k;
			gpn = val__number_before(texts[i], each, false);
		}
		if (nodes > 0 && gpn <= 0) {   /* the node's GPUs from the hardware */
			const gpu_map *m = gpu_of(r->hardware);
			gpn = m ? gpus_per_node(r->hardware, m) : 8;
		}
		if (nodes > 0 && r->gpus > 0 && (long)nodes * gpn != r->gpus)
			nodes = gpn = 0;   /* the gpus cell says otherwise: it wins */
	}
	/* the node count in one text and the GPUs per node in the other ("2
	 * nodes (hosts ...)" in the hardware, "1 GPU per node (-g 1)" beside the
	 * command), agreeing with the gpus cell; a count of nodes alone says
	 * nothing ("one of the cluster's 4 nodes") */
	if (!nodes && r->gpus > 0) {
		int k = 0, each = 0;
		for (int i = 0; i < 2 && !k; i++) {
			const char *nw = val__find(texts[i], " nodes");
			k = nw ? val__number_before(texts[i], nw, false) : 0;
		}
		for (int i = 0; i < 2 && !each; i++)
			for (size_t j = 0; j < sizeof per_node_words / sizeof per_node_words[0] && !each; j++) {
				const char *e = val__find(texts[i], per_node_words[j]);
				each = e ? val__number_before(texts[i], e, false) : 0;
			}
		if (k > 1 && each > 0 && (long)k * each == r->gpus) {
			nodes = k;
			gpn = r->gpus / k;
		}
	}
	/* a GB200/GB300 NVL72's node here is its NVLink domain of 72, not the
	 * OS node of a compute tray (4 GPUs, "36 nodes x 4" for two racks): the
	 * job's GPUs go to domains as cluster_of makes them, unless the text
	 * keeps the trays apart */
	int job_gpus = 0;
	const gpu_map *gm = gpu_of(r->hardware);
	if (nodes > 0 && gpn > 0 && gm && gpus_per_node(r->hardware, gm) == 72 &&
	    !gb_domains_apart(r->other) && gpn < 72) {
		long long g = (long long)nodes * gpn;
		job_gpus = g <= 1 << 20 ? (int)g : 0;
		if (!job_gpus) {
			snprintf(why, n, "%d nodes x %d GPUs: more than 1,048,576 GPUs", nodes, gpn);
			return -1;
		}
		nodes = gpn = 0;
	}
	if (nodes > 0 && (gpn < 1 || gpn > 64 || nodes > 4096)) {
		snprintf(why, n, "%d nodes x %d GPUs: a collective benchmark is read for 1-4096 nodes "
		         "of 1-64 GPUs", nodes, gpn);
		return -1;
	}
	val_row rr = *r;
	if (c->coll_op == COLL_SENDRECV) {
		/* a NIC measured alone runs between two of the DGX nodes that ship
		 * its generation (ConnectX-7 / NDR: DGX H100, ConnectX-6 / HDR: DGX
		 * A100), at the row's own line rate when it gives one, one NIC per
		 * GPU; two nodes of gpus / 2 GPUs (of a whole DGX without gpus) */
		if (!gpu_of(r->hardware)) {
			bool ndr = val__has(r->hardware, "ConnectX-7") || val__has(r->hardware, "NDR") ||
			           val__has(r->hardware, "CX7");
			bool hdr = val__has(r->hardware, "ConnectX-6") || val__has(r->hardware, "HDR") ||
			           val__has(r->hardware, "CX6");
			if (ndr || hdr) {
				const char *at;
				bool agg;
				double gbps = line_rate(r->hardware, &at, &agg);
				if (gbps <= 0 || agg)
					gbps = ndr ? 400 : 200;
				snprintf(rr.hardware, sizeof rr.hardware, "%s, 8x%gGb/s (%.180s)", ndr ?
				         "DGX H100, 8x H100" : "DGX A100, 8x A100 80GB", gbps, r->hardware);
				c->assumed = true;
				if (nodes < 1) {
					nodes = 2;
					gpn = r->gpus >= 2 ? r->gpus / 2 : 8;
				}
			}
		}
		if (nodes < 1 && r->gpus <= 0) {
			const gpu_map *m = gpu_of(rr.hardware);
			nodes = 2;
			gpn = m ? gpus_per_node(rr.hardware, m) : 8;
		}
	}
	if (nodes > 0 && gpn > 0)
		rr.gpus = nodes * gpn;
	if (job_gpus > 0)
		rr.gpus = job_gpus;
	if (rr.gpus <= 0) {
		const gpu_map *m = gpu_of(r->hardware);
		rr.gpus = m ? gpus_per_node(r->hardware, m) : 8;
	}
	if (cluster_of(&rr, &c->s, why, n) < 0) {
		if (gpu_of(rr.hardware) == NULL)   /* else cluster_of said why */
			snprintf(why, n, "a link benchmark without a GPU model: compare with `trainsim nccl`");
		return -1;
	}
	if (nodes > 0 && gpn > 0) {
		/* part of each node ("one GPU per node"): its share of a whole
		 * node's NICs */
		const gpu_map *m = gpu_of(rr.hardware);
		int node_gpn = m ? gpus_per_node(rr.hardware, m) : 0;
		if (m && gpn < node_gpn && !machine_gpus) {
			hw_nic whole;
			nic_of(rr.hardware, m, node_gpn, &whole);
			int k = whole.count * gpn / node_gpn;
			c->s.cluster.nic.count = k > 0 ? k : 1;
		}
		c->s.cluster.nodes = nodes;
		c->s.cluster.gpus_per_node = gpn;
		c->s.cluster.fabric.topology = nodes > 1 ? TOPO_FAT_TREE : TOPO_SINGLE_SWITCH;
		nvlink_pairs_of(&rr, &c->s.cluster);   /* the mesh of gpn GPUs */
	}
	/* NCCL's environment said beside the benchmark: NCCL_ALGO picks the
	 * algorithm, NCCL_NVLS_ENABLE=0 turns NVLink SHARP off, NCCL_IB_DISABLE=1
	 * (or NCCL_NET=Socket) sends over sockets */
	const char *v = algo_said(r->other);
	if (v && c->coll_algo == ALGO_AUTO) {
		c->coll_algo = !strncasecmp(v, "NVLSTree", 8) ? ALGO_NVLS_TREE
		             : !strncasecmp(v, "NVLS", 4) ? ALGO_NVLS : !strncasecmp(v, "Tree", 4) ? ALGO_TREE
		             : !strncasecmp(v, "Ring", 4) ? ALGO_RING
		             : !strncasecmp(v, "CollNet", 7) ? ALGO_COLLNET : ALGO_AUTO;
	}
	c->coll_proto = proto_said(r->other);
	/* CollNet named as what ran ("CollnetDirect (SHARP; ...)", "config
	 * collnet_sharp"), beyond merely enabling it */
	if (c->coll_algo == ALGO_AUTO && c->s.cluster.fabric.sharp && collnet_named(r->other))
		c->coll_algo = ALGO_COLLNET;
	if (env_said(r->other, "NVLS_ENABLE=0") || val__turned_off(r->other, "NVLS") ||
	    val__turned_off(r->other, "NVLink SHARP") || val__turned_off(r->metric, "NVLS"))
		c->s.cluster.gpu.nvls_eff = 0;
	/* ... or says in words that NCCL fell back to its sockets */
	if (env_said(r->other, "IB_DISABLE=1") || env_said(r->other, "NET=Socket") ||
	    socket_fallback(r->other))
		c->s.cluster.nic.transport = TRANSPORT_TCP;
	c->s.cluster.nic.sockets = c->s.cluster.nic.transport == TRANSPORT_TCP ? sockets_of(r) : 0;
	c->gpus_per_thread = val__has(r->source, "AI-benchmarking-guide") ? 8 : 1;
	int g = dash_g(r->source);
	if (!g)
		g = dash_g(r->other);
	if (g)
		c->gpus_per_thread = g;
	int ngpu = c->s.cluster.nodes * c->s.cluster.gpus_per_node;
	if (c->gpus_per_thread > c->s.cluster.gpus_per_node)
		c->gpus_per_thread = c->s.cluster.gpus_per_node;
	char g_opt[16] = "";
	if (c->gpus_per_thread > 1)
		snprintf(g_opt, sizeof g_opt, ", -g %d", c->gpus_per_thread);
	snprintf(c->config, sizeof c->config, "%s %s%s%s%s%d x %d %s%s", coll_op_name(c->coll_op),
	         c->coll_algo == ALGO_AUTO ? "" : coll_algo_name(c->coll_algo),
	         c->coll_algo == ALGO_AUTO ? "" : " ",
	         c->coll_proto ? coll_proto_name((coll_proto)c->coll_proto) : "",
	         c->coll_proto ? " " : "", c->s.cluster.nodes,
	         c->s.cluster.gpus_per_node, c->s.cluster.gpu.name, g_opt);
	if (ngpu < 2) {
		snprintf(why, n, "a collective needs at least 2 GPUs");
		return -1;
	}

	if (ngpu > 16384) {
		snprintf(why, n, "%d GPUs: a collective benchmark is simulated up to 16384", ngpu);
		return -1;
	}
	return 0;
}

/* ---- model and training ---- */

/* A rate Megatron-Core logged itself (--log-throughput): its training.py
 * counts the causal half of the attention scores ("/ 2  # causal mask",
 * there by July 2025 as MaxText's issue #1972 quotes it; in March 2024 it
 * still counted them whole, MaxText PR #537), so a row that names
 * Megatron-Core's own log ("MCore --log-throughput", "Megatron-logged")
 * is compared in that count. */
static bool megatron_logged(const val_row *r)
{
	const char *t[] = {r->unit, r->metric, r->other};
	for (size_t i = 0; i < 3; i++)
		if (val__has(t[i], "log-throughput") || val__has(t[i], "log_throughput") ||
		    val__has(t[i], "Megatron-logged") || val__has_word(t[i], "MCore"))
			return true;
	/* the line itself, as Megatron's training.py prints it, quoted in the
	 * source */
	return val__has(r->source, "throughput per GPU (TFLOP/s/GPU)") ||
	       val__has(r->unit, "throughput per GPU (TFLOP/s/GPU)");
}

/* AMD's Primus logs Megatron's line through its own trainer (Primus
 * @e16b27b, Megatron-LM submodule 5a676b36): model FLOPs, recomputation
 * not counted; the attention scores whole, as its logged rates and step
 * times agree only so (RAACAMD26-004, -007). */
static bool primus_logged(const val_row *r)
{
	return val__names(r, "Primus") && val__has(r->unit, "TFLOP/s/GPU");
}

/* Vocabulary: Megatron GPT's 51200 (GPT-2 BPE padded), BLOOM's 250880
 * (bigscience tr11-176B-ml README: 250680 tokens padded), unless the row
 * says the GPT-2 vocabulary (BigScience's early 1B3 and 104B runs). */
static int vocab_of(const val_row *r)
{
	const char *texts[] = {r->source, r->other};
	for (size_t i = 0; i < 2; i++)
		if (val__affirmed(texts[i], "GPT-2 vocab") || val__affirmed(texts[i], "GPT2 vocab") ||
		    val__affirmed(texts[i], "GPT-2 tokenizer") || val__affirmed(texts[i], "GPT2 tokenizer"))
			return 51200;
	if (val__has(r->source, "bigscience") || val__has(r->id, "BLOOM") ||
	    val__names(r, "BLOOM"))
		return 250880;
	return 51200;
}

/* Model shapes the CSV has no columns for (GQA KV heads, FFN width and
 * gating, vocabulary), by family name and hidden size: Llama from Meta's
 * published model configurations (params.json / model cards); Nemotron-4
 * 15B and 340B from NVIDIA's reports (arXiv 2402.16819, 2406.11704: 48 / 96
 * heads with 8 KV heads, squared-ReLU MLP of 4h, not gated, 256,000 tokens);
 * Llama 3.2 1B and 3B (meta-llama config.json: 2048 / 3072 hidden, 8192 FFN,
 * 8 KV heads); Mistral 7B (mistralai/Mistral-7B-v0.1 config.json: intermediate 14336, 8
 * KV heads, SwiGLU, 32000 tokens); Qwen2 / Qwen2.5 7B and 72B (Qwen config.json:
 * 3584 / 18944 / 4 KV and 8192 / 29568 / 8 KV, SwiGLU, 152064 tokens); Falcon
 * 7B, 40B, 180B (tiiuae config.json: 4h GELU MLP, 1 / 8 / 8 KV heads, 65024
 * tokens; Falcon's parallel attention and MLP are run one after the other);
 * from their config.json: Qwen2.5 14B and 32B (5120 hidden, 13824 / 27648
 * SwiGLU, 8 KV heads, 152064 tokens), Yi-34B (7168, 20480, 8 KV, 64000),
 * DeepSeek LLM 67B (8192, 22016, 8 KV, 102400), Phi-3 mini and medium (3072 /
 * 5120, 8192 / 17920, 32 / 10 KV, 32064), TinyLlama 1.1B (2048, 5632, 4 KV,
 * 32000), StarCoder2 15B (6144, 24576 GELU, 4 KV, 49152). With a head width
 * (head_dim) that is not hidden / heads where the config sets one, from their
 * config.json (as transcribed, with each file's URL, in Lightning-AI/litgpt's
 * litgpt/config.py, checked against copies of the configs): Qwen3 0.6B to
 * 32B (SwiGLU, 8 KV heads, head_dim 128, 151936 tokens; 1024 / 3072, 2048 /
 * 6144, 2560 / 9728, 4096 / 12288, 5120 / 17408, 5120 / 25600), Qwen2.5 0.5B,
 * 1.5B, 3B (896 / 4864, 1536 / 8960, 2048 / 11008, 2 KV, 151936), Gemma 2B and
 * 7B (GeGLU, 2048 / 16384, 1 KV; 3072 / 24576, 16 KV; head_dim 256, 256000),
 * Gemma 2 2B, 9B, 27B (2304 / 9216, 4 KV, 256; 3584 / 14336, 8 KV, 256; 4608 /
 * 36864, 16 KV, 128), Gemma 3 1B, 4B, 12B, 27B (1152 / 6912, 1 KV, 256; 2560 /
 * 10240, 4 KV, 256; 3840 / 15360, 8 KV, 256; 5376 / 21504, 16 KV, 128; 262144
 * tokens), Mistral NeMo 12B (5120 / 14336, 8 KV, head_dim 128, 131072) and
 * Mistral Small 24B (5120 / 32768, the same attention). Gemma 2 and 3
 * attend through a sliding window on some layers (Gemma 2 report: 4096 on
 * every other layer; Gemma 3 report: 1024, 512 for the 1B, on five of six),
 * set here; Mistral 7B v0.1's 4096 on every layer only when the row names
 * the window (v0.2 and later have none). */
typedef struct zoo_model {
	const char *family;    /* matched in source, hardware or other_parallel */
	int hidden, ffn, kv_heads, vocab;
	bool gated;
	double params_b;       /* only at this size (within 10%); 0: any size */
	int head_dim;          /* 0: hidden / heads */
	int window, global_every;  /* sliding-window attention (0: none) */
} zoo_model;

static const zoo_model zoo[] = {
	{"Code Llama", 8192, 22016, 8, 32016, true, 0, 0, 0, 0},   /* codellama/CodeLlama-34b-hf */
	{"Llama 2", 8192, 22016, 8, 32000, true, 34, 0, 0, 0},  /* Llama 2 34B: Code Llama's shape */
	{"Llama 3", 2048, 8192, 8, 128256, true, 0, 0, 0, 0},
	{"Llama 3", 3072, 8192, 8, 128256, true, 0, 0, 0, 0},
	{"Llama 3", 4096, 14336, 8, 128256, true, 0, 0, 0, 0},
	{"Llama 3", 8192, 28672, 8, 128256, true, 0, 0, 0, 0},
	{"Llama 3", 16384, 53248, 8, 128256, true, 0, 0, 0, 0},
	{"Llama 2", 4096, 11008, 32, 32000, true, 0, 0, 0, 0},
	{"Llama 2", 5120, 13824, 40, 32000, true, 0, 0, 0, 0},
	{"Llama 2", 8192, 28672, 8, 32000, true, 0, 0, 0, 0},
	{"Llama", 4096, 11008, 32, 32000, true, 0, 0, 0, 0},
	{"Llama", 5120, 13824, 40, 32000, true, 0, 0, 0, 0},
	{"Llama", 6656, 17920, 52, 32000, true, 0, 0, 0, 0},
	{"Llama", 8192, 22016, 64, 32000, true, 0, 0, 0, 0},
	{"Nemotron 4", 6144, 24576, 8, 256000, false, 0, 0, 0, 0},
	{"Nemotron 4", 18432, 73728, 8, 256000, false, 0, 0, 0, 0},
	{"Mistral NeMo", 5120, 14336, 8, 131072, true, 0, 128, 0, 0},
	{"Mistral Small", 5120, 32768, 8, 131072, true, 0, 128, 0, 0},
	{"Mistral", 4096, 14336, 8, 32000, true, 0, 0, 0, 0},
	{"Qwen3", 1024, 3072, 8, 151936, true, 0.6, 128, 0, 0},
	{"Qwen3", 2048, 6144, 8, 151936, true, 1.7, 128, 0, 0},
	{"Qwen3", 2560, 9728, 8, 151936, true, 4, 128, 0, 0},
	{"Qwen3", 4096, 12288, 8, 151936, true, 8, 128, 0, 0},
	{"Qwen3", 5120, 17408, 8, 151936, true, 14, 128, 0, 0},
	{"Qwen3", 5120, 25600, 8, 151936, true, 32, 128, 0, 0},
	{"Qwen2", 3584, 18944, 4, 152064, true, 0, 0, 0, 0},
	{"Qwen2", 8192, 29568, 8, 152064, true, 0, 0, 0, 0},
	{"Qwen2", 5120, 13824, 8, 152064, true, 14, 0, 0, 0},
	{"Qwen2", 5120, 27648, 8, 152064, true, 32, 0, 0, 0},
	{"Qwen2", 896, 4864, 2, 151936, true, 0, 0, 0, 0},
	{"Qwen2", 1536, 8960, 2, 151936, true, 0, 0, 0, 0},
	{"Qwen2", 2048, 11008, 2, 151936, true, 0, 0, 0, 0},
	{"Gemma 3", 1152, 6912, 1, 262144, true, 0, 256, 512, 6},
	{"Gemma 3", 2560, 10240, 4, 262144, true, 0, 256, 1024, 6},
	{"Gemma 3", 3840, 15360, 8, 262144, true, 0, 256, 1024, 6},
	{"Gemma 3", 5376, 21504, 16, 262144, true, 0, 128, 1024, 6},
	{"Gemma 2", 2304, 9216, 4, 256000, true, 0, 256, 4096, 2},
	{"Gemma 2", 3584, 14336, 8, 256000, true, 0, 256, 4096, 2},
	{"Gemma 2", 4608, 36864, 16, 256000, true, 0, 128, 4096, 2},
	{"Gemma", 2048, 16384, 1, 256000, true, 0, 256, 0, 0},
	{"Gemma", 3072, 24576, 16, 256000, true, 0, 256, 0, 0},
	{"Yi", 7168, 20480, 8, 64000, true, 0, 0, 0, 0},
	{"DeepSeek LLM", 8192, 22016, 8, 102400, true, 0, 0, 0, 0},
	{"Phi-3", 3072, 8192, 32, 32064, true, 0, 0, 0, 0},
	{"Phi-3", 5120, 17920, 10, 32064, true, 0, 0, 0, 0},
	{"TinyLlama", 2048, 5632, 4, 32000, true, 0, 0, 0, 0},
	{"StarCoder2", 6144, 24576, 4, 49152, false, 0, 0, 0, 0},
	{"Falcon", 4544, 18176, 1, 65024, false, 0, 0, 0, 0},
	{"Falcon", 8192, 32768, 8, 65024, false, 0, 0, 0, 0},
	{"Falcon", 14848, 59392, 8, 65024, false, 0, 0, 0, 0},
};


/* A vocabulary said by its size before the word: "a 32,768-token vocab",
 * "with a 50k token vocabulary"; 0 if none. */
static int token_vocab_in(const char *t)
{
	static const char *const words[] = {"-token vocab", " token vocab", "-token vocabulary",
		" token vocabulary"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		for (const char *p = val__find(t, words[i]); p; p = val__find(p + 1, words[i])) {
			const char *b = p;
			bool k = b > t && (b[-1] == 'k' || b[-1] == 'K');
			if (k)
				b--;
			const char *d = b;   /* digits with thousands separators */
			while (d > t && (isdigit((unsigned char)d[-1]) || d[-1] == ','))
				d--;
			if (d == b || (d > t && isalnum((unsigned char)d[-1])))
				continue;
			char digits[24];
			size_t n = 0;
			for (const char *c = d; c < b && n < sizeof digits - 1; c++)
				if (isdigit((unsigned char)*c))
					digits[n++] = *c;
			digits[n] = 0;
			long v = strtol(digits, NULL, 10) * (k ? 1000 : 1);
			const char *after = p + strlen(words[i]);
			if (*after == '-' || isalpha((unsigned char)*after) || *after == '_')
				continue;   /* "vocab-parallel" */
			if (v >= 1000 && v <= 100000000)
				return (int)v;
		}
	return 0;
}

/* "vocab 50368", "vocab_size=151936", "vocab 32k" (x 1000) in other_parallel;
 * 0 when absent or followed by another word ("vocab 32 bits"). */
static int vocab_in(const char *o)
{
	static const char *const keys[] = {"padded_vocab_size", "vocab_size", "vocabulary size",
		"vocabulary", "vocab"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		for (const char *p = val__find(o, keys[i]); p; p = val__find(p + 1, keys[i])) {
			if (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				continue;
			const char *q = p + strlen(keys[i]);
			while (*q == ' ' || *q == '=' || *q == ':')
				q++;
			if (!isdigit((unsigned char)*q))
				continue;
			/* "128,256": thousands separators */
			char digits[32];
			size_t k = 0;
			const char *after = q;
			for (; k < sizeof digits - 1 && (isdigit((unsigned char)*after) ||
			       (*after == '.' && isdigit((unsigned char)after[1])) ||
			       (*after == ',' && isdigit((unsigned char)after[1]) &&
			        isdigit((unsigned char)after[2]) && isdigit((unsigned char)after[3]) &&
			        !isdigit((unsigned char)after[4]))); after++)
				if (*after != ',')
					digits[k++] = *after;
			digits[k] = '\0';
			char *end;
			double v = strtod(digits, &end);
			end = (char *)after;
			if (*end == 'k' || *end == 'K')
				v *= 1000, end++;
			if (isalpha((unsigned char)*end) || v < 2 || v > 1e8)
				continue;
			return (int)v;
		}
	return 0;
}

/* "kv_heads=8", "GQA 8", "num_query_groups 8", "--num-query-groups 8",
 * "num_key_value_heads=8", "8 KV heads" in other_parallel; "MQA": one. */
/* Whether the word after the number at `q` makes it a count of steps, not
 * of tokens ("a sliding window of 50 iterations"). */
static bool not_tokens(const char *q)
{
	while (isdigit((unsigned char)*q))
		q++;
	while (*q == ' ')
		q++;
	static const char *const units[] = {"iter", "step", "sample", "batch", "epoch", "second",
		"minute", "s ", "s;", "s,", "ms"};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strncasecmp(q, units[i], strlen(units[i])))
			return true;
	return false;
}

/* The layer pattern of a sliding window named in the row: "every other
 * layer" / "alternating" (one in 2 global), "5:1 local:global" / "5 local :
 * 1 global" (one in 6), "1 global every 6 layers"; 0 when none is said. A
 * local/global pair counts only within one clause (not "8 local GPUs;
 * global batch 64"). */
static int window_pattern(const char *o)
{
	if (val__has(o, "every other layer") || val__has(o, "every second layer") ||
	    val__has(o, "alternating"))
		return 2;
	const char *ge = val__find(o, "global every");
	if (ge) {
		const char *q = ge + 12;
		while (*q == ' ')
			q++;
		if (isdigit((unsigned char)*q) && atoi(q) > 1)
			return atoi(q);
	}
	const char *g = val__find(o, "local");
	const char *gl = g ? val__find(g, "global") : NULL;
	if (!gl || gl - g > 16 || strcspn(g, ";,") < (size_t)(gl - g))
		return 0;
	/* "5:1 local:global" (a ratio just before), or "5 local : 1 global" */
	const char *e = g;
	while (e > o && e[-1] == ' ')
		e--;
	const char *b = e;
	while (b > o && isdigit((unsigned char)b[-1]))
		b--;
	if (b < e && b > o + 1 && b[-1] == ':' && isdigit((unsigned char)b[-2])) {
		const char *a = b - 1;
		while (a > o && isdigit((unsigned char)a[-1]))
			a--;
		int loc = atoi(a), glob = atoi(b);
		return loc > 0 && glob > 0 ? loc / glob + 1 : 0;
	}
	int loc = val__number_before(o, g, false);
	return loc > 0 ? loc + 1 : 0;
}

/* A sliding window named in the row: "SWA 128", "sliding window 4096",
 * "sliding_window: 4096", "sliding window attention 1024", "4096-token
 * sliding window"; not one said off ("SWA disabled") nor a window of steps
 * ("a sliding window of 50 iterations"). Sets model.sliding_window and,
 * when the row says which layers, global_every (else keeps what the model's
 * family set, 0 otherwise: every layer). Returns whether a window was read;
 * *pattern whether its layers were. */
bool val__window_of(const char *o, scn_model *m, bool *pattern)
{
	static const char *const keys[] = {"sliding window", "sliding-window", "sliding_window",
		"SWA"};
	int w = 0;
	*pattern = false;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0] && w <= 0; i++) {
		const char *p = val__find(o, keys[i]);
		/* "SWA" as a word, any case (not "swap") */
		while (i == 3 && p && (strncasecmp(p, "SWA", 3) || isalnum((unsigned char)p[3]) ||
		                       (p > o && isalnum((unsigned char)p[-1]))))
			p = val__find(p + 3, keys[i]);
		if (!p || !val__affirmed(o, keys[i]) || val__said_off(p))
			continue;
		const char *k = p + strlen(keys[i]), *q = k;
		while (*q && !isdigit((unsigned char)*q) && q - k < 24 && *q != ';' && *q != ',')
			q++;
		if (isdigit((unsigned char)*q)) {
			w = not_tokens(q) ? 0 : atoi(q);
			continue;
		}
		/* "4096-token sliding window" */
		const char *e = p;
		while (e > o && e[-1] == ' ')
			e--;
		if (e - o >= 6 && !strncasecmp(e - 6, "-token", 6))
			e -= 6;
		else if (e - o >= 7 && !strncasecmp(e - 7, " tokens", 7))
			e -= 7;
		w = val__number_before(o, e, false);
	}
	if (w <= 0)
		return false;
	m->sliding_window = w;
	int every = window_pattern(o);
	if (every > 0) {
		m->global_every = every;
		*pattern = true;
	}
	return true;
}

static int kv_heads_of(const char *o)
{
	const char *keys[] = {"kv_heads", "GQA", "query_groups", "query-groups",
		"key_value_heads"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *p = val__find(o, keys[i]);
		if (!p)
			continue;
		p += strlen(keys[i]);
		while (*p && !isdigit((unsigned char)*p) && (p - o) < 200 && *p != ';')
			p++;
		if (isdigit((unsigned char)*p))
			return atoi(p);
	}
	const char *p = val__find(o, " KV heads");
	if (p && val__number_before(o, p, false) > 0)
		return val__number_before(o, p, false);
	if (val__has_word(o, "MQA") || val__affirmed(o, "multi-query attention") ||
	    val__affirmed(o, "multi query attention"))
		return 1;
	/* "grouped-query attention (8 groups)", "... with 8 KV groups" */
	static const char *const gqa[] = {"grouped-query", "grouped query"};
	for (size_t i = 0; i < 2; i++) {
		const char *g = val__find(o, gqa[i]);
		const char *grp = g ? val__find(g, " group") : NULL;
		if (grp && grp - g < 48 && val__number_before(g, grp, true) > 0)
			return val__number_before(g, grp, true);
	}
	return 0;
}

/* Published shapes of well-known models, for a row that names its model but
 * not its shape: GPT-3 (Brown et al. 2020, Table 2.1), Llama (Touvron et al.
 * 2023a Table 2), Llama 2 (2023b Table 1 and the model cards), Llama 3 (the
 * Llama 3 Herd paper, Table 3), Nemotron-4 (arXiv 2402.16819, 2406.11704);
 * seq_len is the model's training sequence. */
typedef struct named_shape {
	const char *family;
	double params_b;
	int layers, hidden, heads, seq_len;
} named_shape;

static const named_shape named_shapes[] = {
	{"GPT-3", 0.125, 12, 768, 12, 2048}, {"GPT-3", 0.35, 24, 1024, 16, 2048},
	{"GPT-3", 0.76, 24, 1536, 16, 2048}, {"GPT-3", 1.3, 24, 2048, 24, 2048},
	{"GPT-3", 2.7, 32, 2560, 32, 2048}, {"GPT-3", 6.7, 32, 4096, 32, 2048},
	{"GPT-3", 13, 40, 5120, 40, 2048}, {"GPT-3", 175, 96, 12288, 96, 2048},
	{"Llama 3", 8, 32, 4096, 32, 8192}, {"Llama 3", 70, 80, 8192, 64, 8192},
	{"Llama 3", 405, 126, 16384, 128, 8192},
	{"Llama 2", 7, 32, 4096, 32, 4096}, {"Llama 2", 13, 40, 5120, 40, 4096},
	{"Llama 2", 70, 80, 8192, 64, 4096},
	{"Llama", 7, 32, 4096, 32, 2048}, {"Llama", 13, 40, 5120, 40, 2048},
	{"Llama", 33, 60, 6656, 52, 2048}, {"Llama", 65, 80, 8192, 64, 2048},
	{"Nemotron 4", 15, 32, 6144, 48, 4096}, {"Nemotron 4", 340, 96, 18432, 96, 4096},
	/* Code Llama 34B (Rozière et al. 2023; codellama/CodeLlama-34b-hf
	 * config.json), the Llama 2 34B shape Meta described and did not release */
	{"Code Llama", 34, 48, 8192, 64, 16384}, {"Llama 2", 34, 48, 8192, 64, 4096},
	/* From the configs of the zoo below (litgpt/config.py's transcriptions):
	 * Llama 3.2 1B and 3B (by their names and their 1.24 / 3.21 B), Mistral
	 * 7B (its paper's Table 1: context 8192), Falcon (2048 tokens, tiiuae
	 * configs), Qwen3 (4096 tokens, the technical report's first pretraining
	 * stage), Gemma and Gemma 2 (8192); seq_len 0: the row must give it
	 * (Mistral NeMo and Small, Qwen2.5, Gemma 3 state no training length) */
	{"Llama 3", 1, 16, 2048, 32, 8192}, {"Llama 3", 1.24, 16, 2048, 32, 8192},
	{"Llama 3", 3.2, 28, 3072, 24, 8192},
	{"Mistral NeMo", 12, 40, 5120, 32, 0}, {"Mistral Small", 24, 40, 5120, 32, 0},
	{"Mistral", 7.2, 32, 4096, 32, 8192},
	{"Falcon", 7.2, 32, 4544, 71, 2048}, {"Falcon", 40, 60, 8192, 128, 2048},
	{"Falcon", 180, 80, 14848, 232, 2048},
	{"Qwen3", 0.6, 28, 1024, 16, 4096}, {"Qwen3", 1.7, 28, 2048, 16, 4096},
	{"Qwen3", 4, 36, 2560, 32, 4096}, {"Qwen3", 8, 36, 4096, 32, 4096},
	{"Qwen3", 14, 40, 5120, 40, 4096}, {"Qwen3", 32, 64, 5120, 64, 4096},
	{"Qwen2", 0.5, 24, 896, 14, 0},
	{"Qwen2", 1.5, 28, 1536, 12, 0},
	{"Qwen2", 3, 36, 2048, 16, 0},
	{"Qwen2", 7, 28, 3584, 28, 0},
	{"Qwen2", 14, 48, 5120, 40, 0},
	{"Qwen2", 32, 64, 5120, 40, 0},
	{"Qwen2", 72, 80, 8192, 64, 0},
	{"Gemma 3", 1, 26, 1152, 4, 0},
	{"Gemma 3", 4, 34, 2560, 8, 0},
	{"Gemma 3", 12, 48, 3840, 16, 0},
	{"Gemma 3", 27, 62, 5376, 32, 0},
	{"Gemma 2", 2, 26, 2304, 8, 8192},
	{"Gemma 2", 2.6, 26, 2304, 8, 8192},
	{"Gemma 2", 9, 42, 3584, 16, 8192},
	{"Gemma 2", 27, 46, 4608, 32, 8192},
	/* the zoo's other families, from the same configs (Yi's, DeepSeek LLM's
	 * and Phi-3 mini's 4096-token training sequence, TinyLlama's 2048,
	 * StarCoder2's 16384: their model cards) */
	{"Yi", 34, 60, 7168, 56, 4096}, {"DeepSeek LLM", 67, 95, 8192, 64, 4096},
	{"StarCoder2", 15, 40, 6144, 48, 16384}, {"Phi-3-mini", 3.8, 32, 3072, 32, 4096},
	{"Phi-3-medium", 14, 40, 5120, 40, 4096}, {"Phi-3", 3.8, 32, 3072, 32, 4096},
	{"Phi-3", 14, 40, 5120, 40, 4096}, {"TinyLlama", 1.1, 22, 2048, 32, 2048},
	{"Gemma", 2, 18, 2048, 8, 8192}, {"Gemma", 2.5, 18, 2048, 8, 8192},
	{"Gemma", 7, 28, 3072, 16, 8192}, {"Gemma", 8.5, 28, 3072, 16, 8192},
};

/* A size written after a family's name: "Llama 2 70B", "Llama-3.1-405B",
 * "meta-llama/Llama-2-70b-hf", "GPT-3 175B": the first number within 16
 * characters followed by B (billions); 0 if none. */
static double size_after(const char *text, const char *family)
{
	size_t n = strlen(family);
	for (const char *p = val__find(text, family); p; p = val__find(p + 1, family)) {
		for (const char *q = p + n; *q && q < p + n + 16; q++) {
			if (!isdigit((unsigned char)*q) || isdigit((unsigned char)q[-1]) || q[-1] == '.')
				continue;
			char *end;
			double v = strtod(q, &end);
			if ((*end == 'B' || *end == 'b') && !isalnum((unsigned char)end[1]))
				return v;
		}
	}
	return 0;
}

/* NeMo's recipe names of a family ("llama31_405b", "llama32_1b"). */
static const struct { const char *family, *recipe; } recipes[] = {
	{"Llama 3", "llama31"}, {"Llama 3", "llama32"}, {"Llama 3", "llama33"},
};

static bool recipe_named(const val_row *r, const char *family)
{
	for (size_t i = 0; i < sizeof recipes / sizeof recipes[0]; i++)
		if (!strcmp(recipes[i].family, family) && val__names(r, recipes[i].recipe))
			return true;
	return false;
}

/* The size written after a family's name in the row's text ("Llama 2 70B",
 * "Llama-2-70b", "llama31_405b"), or 0. */
static double size_named(const val_row *r, const char *family)
{
	for (size_t i = 0; i < sizeof recipes / sizeof recipes[0]; i++) {
		if (strcmp(recipes[i].family, family))
			continue;
		const char *fields[] = {r->other, r->source, r->id};
		for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
			double v = size_after(fields[f], recipes[i].recipe);
			if (v > 0)
				return v;
		}
	}
	const char *fields[] = {r->other, r->source, r->id};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		double v = size_after(fields[i], family);
		char alt[32], glued[32], under[32];   /* "Llama-2", "Llama2", "llama3_8b", "gemma_2" */
		snprintf(alt, sizeof alt, "%s", family);
		snprintf(under, sizeof under, "%s", family);
		size_t k = 0;
		for (char *c = alt; *c; c++) {
			if (*c == ' ')
				*c = '-';
			else
				glued[k++] = *c;
		}
		glued[k] = 0;
		for (char *c = under; *c; c++)
			if (*c == ' ')
				*c = '_';
		if (v <= 0)
			v = size_after(fields[i], alt);
		if (v <= 0)
			v = size_after(fields[i], glued);
		if (v <= 0)
			v = size_after(fields[i], under);
		if (v > 0)
			return v;
	}
	return 0;
}

/* The parameter count a row gives, or the one its model's name says. */
static double params_of(const val_row *r, const char *family)
{
	return r->params_b > 0 ? r->params_b : size_named(r, family);
}

/* Whether the family is named in the row with another size than the row's
 * parameter count: another model ("the same table also lists Llama 2 70B"
 * beside a 39B one). Not its depth: proxies and one-layer measurements
 * of a named model cut its layers. */
static bool names_another_size(const val_row *r, const char *family)
{
	double v = size_named(r, family);
	if (v <= 0)
		return false;
	if (r->params_b <= 0 || fabs(v - r->params_b) <= 0.1 * r->params_b)
		return false;
	/* the row's count and width are one of the family's own sizes: the
	 * other size is a path or a sibling ("llama3_8b/70b.toml" of a 70B) */
	for (size_t i = 0; i < sizeof named_shapes / sizeof named_shapes[0]; i++)
		if (!strcmp(named_shapes[i].family, family) &&
		    fabs(r->params_b - named_shapes[i].params_b) <= 0.1 * named_shapes[i].params_b &&
		    (r->hidden <= 0 || r->hidden == named_shapes[i].hidden))
			return false;
	return true;
}

/* The named shape of a row's model: its family named in the text and its
 * parameter count within 10% (the most specific family first: "Llama 3"
 * before "Llama"). */
static const named_shape *named_shape_of(const val_row *r)
{
	for (size_t i = 0; i < sizeof named_shapes / sizeof named_shapes[0]; i++) {
		const named_shape *z = &named_shapes[i];
		char bare[32];    /* "GPT3" for "GPT-3" */
		size_t k = 0;
		for (const char *p = z->family; *p && k < sizeof bare - 1; p++)
			if (*p != '-')
				bare[k++] = *p;
		bare[k] = '\0';
		if (!val__names(r, z->family) && !val__names(r, bare) && !recipe_named(r, z->family))
			continue;
		/* Code Llama is not Llama's 33B, Gemma 2 and 3 not Gemma's */
		if (strcmp(z->family, "Code Llama") && val__names(r, "Code Llama"))
			continue;
		if (!strcmp(z->family, "Gemma") && (val__names(r, "Gemma 2") || val__names(r, "Gemma 3")))
			continue;
		if (!strcmp(z->family, "Llama") && (val__names(r, "Llama 2") || val__names(r, "Llama 3")))
			continue;   /* Llama 2 34B is not LLaMA's 33B */
		double params = params_of(r, z->family);
		/* a size in the name itself ("Phi-3-mini") needs no count */
		bool sized_name = strstr(z->family, "-mini") || strstr(z->family, "-medium");
		if ((params > 0 && fabs(params - z->params_b) <= 0.1 * z->params_b) ||
		    (params <= 0 && sized_name))
			return z;
	}
	return NULL;
}

/* LoRA, QLoRA or PEFT said of the run (peft_of in model_of). */
static bool lora_at(const char *t, const char *p)
{
	bool left = p == t || !isalnum((unsigned char)p[-1]);
	bool right = !isalnum((unsigned char)p[4]);
	const char *e = p + 4;
	while (*e == ' ' || *e == '_' || *e == '-')
		e++;
	bool rank = (p - t >= 2 && !strncasecmp(p - 2, "q_", 2)) ||
	            (p - t >= 3 && !strncasecmp(p - 3, "kv_", 3)) ||
	            (p - t >= 2 && !strncasecmp(p - 2, "q-", 2)) ||
	            (p - t >= 3 && !strncasecmp(p - 3, "kv-", 3)) ||
	            (p - t >= 2 && !strncasecmp(p - 2, "q ", 2)) ||
	            (p - t >= 3 && !strncasecmp(p - 3, "kv ", 3)) ||
	            /* "LoRA rank 512" of MLA's latents or the KV cache, not "LoRA
	             * rank 16 alpha 32" */
	            (!strncasecmp(e, "rank", 4) && (val__has_token(t, "MLA") || val__has(t, "latent") ||
	                                            val__has(t, "KV cache")));
	return left && right && !rank && val__affirmed(p, "lora");
}

/* Parameter-efficient fine-tuning said of the run: PEFT_LORA for LoRA,
 * -1 for another kind (QLoRA's 4-bit base weights, a PEFT scheme not named
 * LoRA), PEFT_NONE when none. */
static int peft_said(const val_row *r)
{
	const char *fields[] = {r->other, r->id};
	int kind = PEFT_NONE;
	for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
		const char *t = fields[f];
		/* a full fine-tuning (the baseline of a LoRA comparison) is not */
		if (val__has(t, "full fine-tun") || val__has(t, "full-parameter") ||
		    val__has(t, "full parameter") || val__has_token(t, "full FT") ||
		    val__has_token(t, "full SFT") || val__has(t, "baseline"))
			continue;
		if ((val__has_token(t, "QLoRA") && val__affirmed(t, "QLoRA")) ||
		    (val__has_token(t, "DoRA") && val__affirmed(t, "DoRA")))
			return -1;   /* 4-bit base weights; DoRA's weight decomposition */
		for (const char *p = val__find(t, "lora"); p; p = val__find(p + 1, "lora"))
			if (lora_at(t, p) && !(p > t && tolower((unsigned char)p[-1]) == 'q'))
				kind = PEFT_LORA;
		if (kind == PEFT_LORA)
			continue;
		const char *ps = val__find(t, "peft_scheme");
		if (ps) {
			const char *q = ps + 11;
			while (*q == ' ' || *q == '=' || *q == ':' || *q == '\'')
				q++;
			if (strncasecmp(q, "none", 4) && strncasecmp(q, "null", 4) && *q)
				return -1;
		}
		if (val__has_token(t, "PEFT") && val__affirmed(t, "PEFT") &&
		    !val__has(t, "PEFT not") && !val__has(t, "peft_scheme"))
			return -1;
	}
	return kind;
}

/* LoRA's rank as the row gives it: its keys ("lora_rank=16", "lora_r: 8",
 * "lora_dim 32", "adapter_dim"), or "rank" / "r" right after LoRA's name
 * ("LoRA rank 16", "LoRA (rank 8)", "LoRA r=32"), never a process's rank,
 * a head or model dim, nor MLA's KV LoRA rank; 0 when it gives none. */
static int lora_rank_of(const val_row *r)
{
	static const char *const keys[] = {"lora_rank", "lora rank", "lora_r", "lora_dim",
		"lora_alpha_rank", "adapter_dim"};
	const char *o = r->other;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		for (const char *p = val__find(o, keys[i]); p; p = val__find(p + 1, keys[i])) {
			bool kv = (p - o >= 3 && !strncasecmp(p - 3, "kv", 2)) ||
			          (p - o >= 2 && !strncasecmp(p - 2, "q", 1));
			int v = kv ? 0 : val__key_number(p, keys[i]);
			if (v >= 1 && v <= 4096)
				return v;
		}
	for (const char *p = val__find(o, "lora"); p; p = val__find(p + 1, "lora")) {
		if (!lora_at(o, p))
			continue;
		char win[40];   /* the words right after the name, in its clause */
		size_t span = strcspn(p + 4, ";|");
		snprintf(win, sizeof win, "%.*s", (int)(span < 32 ? span : 32), p + 4);
		int v = val__key_number(win, "rank");
		if (v <= 0) {
			const char *eq = strstr(win, "r=");
			if (eq && (eq == win || !isalnum((unsigned char)eq[-1])))
				v = val__key_number(eq, "r");
		}
		if (v >= 1 && v <= 4096)
			return v;
	}
	return 0;
}

/* An encoder-decoder named in the row's text or id (not its source's title):
 * "encoder-decoder" not negated, T5 with a size or variant ("T5-11B", "T5
 * XXL", "mT5", "Flan-T5"), UL2 or BART with a size; not a decoder-only row
 * that borrows from them ("T5 relative position bias", "UL2 objective"). */
static bool enc_dec_said(const val_row *r)
{
	const char *fields[] = {r->other, r->id};
	for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
		const char *t = fields[f];
		if (val__has(t, "decoder-only") || val__has(t, "decoder only"))
			continue;
		if ((val__has(t, "encoder-decoder") && val__affirmed(t, "encoder-decoder")) ||
		    (val__has(t, "encoder decoder") && val__affirmed(t, "encoder decoder")))
			return true;
		static const char *const names[] = {"T5", "UL2", "BART"};
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
			size_t len = strlen(names[i]);
			for (const char *p = strstr(t, names[i]); p; p = strstr(p + 1, names[i])) {
				bool m_prefix = p > t && p[-1] == 'm' &&
				                (p - 1 == t || !isalnum((unsigned char)p[-2]));
				bool left = p == t || !isalnum((unsigned char)p[-1]) || m_prefix;
				const char *e = p + len;
				if (!left || isalnum((unsigned char)*e))
					continue;
				while (*e == '-' || *e == '_' || *e == ' ')
					e++;
				if (*e == 'v' && isdigit((unsigned char)e[1])) {   /* "T5 v1.1 XXL" */
					for (e++; isdigit((unsigned char)*e) || *e == '.'; e++)
						;
					while (*e == '-' || *e == '_' || *e == ' ')
						e++;
				}
				bool sized = isdigit((unsigned char)*e) || !strncasecmp(e, "small", 5) ||
				             !strncasecmp(e, "base", 4) || !strncasecmp(e, "large", 5) ||
				             !strncasecmp(e, "XL", 2);
				if (sized || m_prefix || (p - t >= 5 && !strncasecmp(p - 5, "Flan-", 5)))
					return true;
			}
		}
	}
	return false;
}

/* A model of the row's shape and FFN width, the MLP unnamed: gated when the
 * parameter count the row gives is nearer 3 h x ffn weights a layer (SwiGLU's
 * three matrices) than 2 (GeLU's two), its embedding counted once (tied) or
 * twice (untied), whichever is nearer; left as it is when the two readings
 * are within 2% of each other. Skywork-13B: 52 layers of 4608 and ffn 12288
 * hold 13.5-13.9B gated, 10.6-10.9B plain. */
static void gated_by_count(scn_model *m, double params)
{
	double hd = m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
	double h = m->hidden, attn = 2 * h * m->heads * hd + 2 * h * m->kv_heads * hd;
	double emb = (double)m->vocab * h;
	double miss[2];
	for (int g = 0; g < 2; g++) {
		double body = m->layers * (attn + (2 + g) * h * m->ffn_hidden);
		miss[g] = fmin(fabs(body + emb - params), fabs(body + 2 * emb - params));
	}
	if (fabs(miss[1] - miss[0]) > 0.02 * params)
		m->gated_mlp = miss[1] < miss[0];
}

/* A training sequence said in the text: "sequence length of 4096 tokens",
 * "seq_len=8192", "sequence length 2048", "seq length 4096"; 0 if none. */
static int seq_in_text(const char *o)
{
	/* "context 1M tokens", 'context "4M" tokens': a context in K or M is
	 * a power of two's (1M = 1,048,576, as the scripts' SEQ_LEN writes it) */
	static const char *const keys[] = {"sequence length", "seq_len", "seq-len", "seq length",
		"seq_length", "seq-length", "max_seq_len", "context length", "context"};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		for (const char *p = val__find(o, keys[k]); p; p = val__find(p + 1, keys[k])) {
			if (p > o && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				continue;
			const char *q = p + strlen(keys[k]);
			while (*q == ' ' || *q == '=' || *q == ':' || *q == '"')
				q++;
			if (!strncasecmp(q, "of ", 3))
				q += 3;
			if (!isdigit((unsigned char)*q))
				continue;
			char *e;
			long v = strtol(q, &e, 10);
			if (*e == 'k' || *e == 'K')
				v *= 1024, e++;
			else if (*e == 'M' && k >= 7)
				v *= 1048576, e++;
			if (v >= 64 && v <= 4194304 && !isalpha((unsigned char)*e))
				return (int)v;
		}
	return 0;
}

static int model_of(const val_row *r, scenario *s, bool params_only, bool *assumed, char *why,
                    size_t n)
{
	/* not transformers: trainsim's layers are attention and an MLP */
	static const char *const other_archs[] = {"Mamba", "Jamba", "RWKV", "state space",
		"state-space", "Hyena", "RetNet", "RecurrentGemma", "Griffin"};
	for (size_t i = 0; i < sizeof other_archs / sizeof other_archs[0]; i++)
		if (val__names(r, other_archs[i])) {
			snprintf(why, n, "%s is not a transformer: trainsim's layers are attention and an "
			         "MLP", other_archs[i]);
			return -1;
		}
	/* parameter-efficient fine-tuning: frozen weights without gradients or
	 * optimizer state, adapters trained (MLPerf's llama2_70b_lora, NeMo's
	 * PEFT tables); in the row's own text and id, not its source's title,
	 * not negated ("no LoRA", "peft_scheme=None", "PEFT not used"), not the
	 * full fine-tuning a row compares it with, not MLA's LoRA ranks */
	int peft = peft_said(r);
	if (peft < 0) {
		snprintf(why, n, "parameter-efficient fine-tuning other than LoRA (QLoRA's 4-bit "
		         "base weights, another PEFT scheme) is not modelled");
		return -1;
	}
	if (peft == PEFT_LORA) {
		s->training.peft = PEFT_LORA;
		int rank = lora_rank_of(r);
		if (rank > 0)
			s->training.lora_rank = rank;
		else
			*assumed = true;
	}
	/* encoder-decoders: a decoder's layers also attend to the encoder's */
	if (enc_dec_said(r)) {
		snprintf(why, n, "an encoder-decoder model: trainsim's transformers are decoder-only");
		return -1;
	}
	scn_model *m = &s->model;
	int layers = r->layers, hidden = r->hidden, heads = r->heads, seq = r->seq_len;
	int tl, th, ta, ts;   /* the shape written out in the text, all three */
	if ((layers <= 0 || hidden <= 0 || heads <= 0) && val__shape_in(r->other, &tl, &th, &ta, &ts)) {
		layers = layers > 0 ? layers : tl;
		hidden = hidden > 0 ? hidden : th;
		heads = heads > 0 ? heads : ta;
		seq = seq > 0 ? seq : ts;
	}
	/* a MoE model by name is its own (Qwen3-30B-A3B is not Qwen3 32B), and a
	 * row that says MoE, experts or an active size ("-A3B") takes no dense
	 * model's shape */
	int zl, zh, za;
	bool moe_zoo = val__moe_shape(r, &zl, &zh, &za);
	bool moe_named = moe_zoo || val__moe_named(r);
	const named_shape *z = !moe_named && (layers <= 0 || hidden <= 0 || heads <= 0 || seq <= 0)
	                       ? named_shape_of(r) : NULL;
	if (z) {   /* fill what the row leaves out from the model's published shape */
		if (layers <= 0 || hidden <= 0 || heads <= 0)
			layers = z->layers, hidden = z->hidden, heads = z->heads;
		if (seq <= 0)
			seq = seq_in_text(r->other);   /* the text's before the model's own */
		if (seq <= 0)
			seq = z->seq_len;
		*assumed = true;
	} else if (layers <= 0 || hidden <= 0 || heads <= 0) {
		/* a MoE model by name: its config fills the gaps (val_moe.c) */
		if (moe_zoo) {
			layers = layers > 0 ? layers : zl;
			hidden = hidden > 0 ? hidden : zh;
			heads = heads > 0 ? heads : za;
			*assumed = true;
		}
	}
	if (params_only && (layers <= 0 || hidden <= 0) && r->params_b > 0) {
		m->params = r->params_b * 1e9;   /* a generic shape: only the count matters */
		m->seq_len = seq > 0 ? seq : 2048;
		m->vocab = vocab_of(r);
		return wl_model_resolve(m);
	}
	if (seq <= 0)
		seq = seq_in_text(r->other);   /* "sequence length of 4096 tokens" */
	if (layers <= 0 || hidden <= 0 || heads <= 0 || seq <= 0) {
		snprintf(why, n, "model shape (layers, hidden, heads, seq_len) missing");
		return -1;
	}
	m->layers = layers;
	m->hidden = hidden;
	m->heads = heads;
	m->kv_heads = heads;
	m->seq_len = seq;
	m->vocab = vocab_of(r);
	m->ffn_hidden = 4 * hidden;
	bool zoo_hit = false;   /* a published FFN width, 4h or not (Gemma 2's is 4h) */
	for (size_t i = 0; i < sizeof zoo / sizeof zoo[0] && !moe_named && !zoo_hit; i++)
		if (zoo[i].hidden == hidden &&
		    (val__names(r, zoo[i].family) || recipe_named(r, zoo[i].family)) &&
		    (zoo[i].params_b <= 0 ||
		     fabs(params_of(r, zoo[i].family) - zoo[i].params_b) <= 0.1 * zoo[i].params_b) &&
		    !names_another_size(r, zoo[i].family)) {
			m->gated_mlp = zoo[i].gated;
			m->ffn_hidden = zoo[i].ffn;
			m->kv_heads = zoo[i].kv_heads;
			m->vocab = zoo[i].vocab;
			if (zoo[i].head_dim > 0 && zoo[i].head_dim * heads != hidden)
				m->head_dim = zoo[i].head_dim;
			m->sliding_window = zoo[i].window;
			m->global_every = zoo[i].global_every;
			zoo_hit = true;
		}
	/* "gated" as a word ("aggregated", "ungated" are not); a plain MLP said by
	 * its activation ("squared-ReLU", Nemotron's) or in so many words */
	const char *o = r->other;
	/* "gated" of the MLP ("gated MLP", "gated linear unit", "gated_mlp:
	 * true"), not of attention, a residual or a Hugging Face repository */
	static const char *const of_mlp[] = {" MLP", " FFN", " linear unit", " GLU",
		" feed-forward", " feedforward", " activation", "-MLP", "_linear_unit", "_mlp"};
	bool gated_word = false;
	for (const char *g = val__find(o, "gated"); g && !gated_word; g = val__find(g + 1, "gated")) {
		if (g > o && isalnum((unsigned char)g[-1]))
			continue;
		for (size_t i = 0; i < sizeof of_mlp / sizeof of_mlp[0] && !gated_word; i++) {
			size_t len = strlen(of_mlp[i]);
			if (strncasecmp(g + 5, of_mlp[i], len))
				continue;
			const char *v = g + 5 + len;   /* a key's value: "gated_mlp=false" */
			while (*v == ' ' || *v == ':' || *v == '=')
				v++;
			gated_word = strncasecmp(v, "false", 5) && strncmp(v, "0", 1) &&
			             strncasecmp(v, "disabled", 8) && strncasecmp(v, "off", 3);
		}
	}
	gated_word = gated_word && !val__has(o, "not gated") && !val__has(o, "no gated") &&
	             !val__turned_off(o, "gated");
	bool plain_said = val__affirmed(o, "GeLU MLP") || val__affirmed(o, "GELU MLP") ||
	                  val__has(o, "non-gated") || val__has(o, "ungated") ||
	                  val__has(o, "not gated") || val__has(o, "no gated") ||
	                  val__turned_off(o, "gated") ||
	                  val__affirmed(o, "squared-ReLU") || val__affirmed(o, "squared ReLU") ||
	                  val__affirmed(o, "ReLU^2") || val__affirmed(o, "ReLU2");
	bool gated_said = val__affirmed(o, "SwiGLU") || val__affirmed(o, "GeGLU") || gated_word;
	if (gated_said && plain_said)   /* both named ("GeLU MLP; a SwiGLU variant was
	                                 * slower"): the parameter count decides */
		gated_said = plain_said = false;
	if (gated_said)
		m->gated_mlp = true;
	if (plain_said)
		m->gated_mlp = false;   /* said so, whatever the family's */
	int vocab = vocab_in(r->other);
	if (vocab <= 0)
		vocab = token_vocab_in(r->other);
	if (vocab > 0)
		m->vocab = vocab;   /* "vocab 50368", "vocab 32k" */
	int kv = r->kv_heads > 0 ? r->kv_heads : kv_heads_of(r->other);
	if (kv > 0 && kv <= heads)
		m->kv_heads = kv;
	bool said;
	val__window_of(r->other, m, &said);
	int ffn = val__ffn_in(r->other, hidden);
	if (ffn > 0) {
		m->ffn_hidden = ffn;    /* "ffn 14336": the row's own width */
		if (!gated_said && !plain_said && !zoo_hit && r->params_b > 0)
			gated_by_count(m, r->params_b * 1e9);
	} else if (m->gated_mlp && m->ffn_hidden == 4 * hidden && !val__names(r, "Llama") &&
	           !zoo_hit) {
		m->ffn_hidden = 0;      /* resolved: 8h/3 to a multiple of 256 */
	}
	if (m->ffn_hidden > 10000000) {
		snprintf(why, n, "an FFN width beyond 10,000,000 (a scenario's ffn_hidden takes 1 to 1e7)");
		return -1;
	}
	return wl_model_resolve(m);
}

/* The data type of a kernel row: the first type token of its name
 * ("gemm_fp16_fp32acc_..." is fp16 with fp32 accumulation); fp16 when none.
 * Returns -1 for a type the catalog has no peak for. */
static int kernel_type(const char *name, hw_precision *p)
{
	static const struct { const char *tok; int prec; } types[] = {
		{"fp32", PREC_FP32}, {"tf32", PREC_TF32}, {"fp16", PREC_FP16}, {"bf16", PREC_BF16},
		{"fp8", PREC_FP8}, {"fp4", PREC_FP4}, {"nvfp4", PREC_FP4}, {"mxfp4", PREC_FP4},
		{"fp6", -1},
		{"int8", -1}, {"fp64", -1}, {"int4", -1}};
	*p = PREC_FP16;
	for (const char *t = name; *t; ) {
		size_t len = strcspn(t, "_");
		for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
			if (strlen(types[i].tok) == len && !strncasecmp(t, types[i].tok, len)) {
				if (types[i].prec < 0)
					return -1;
				*p = (hw_precision)types[i].prec;
				return 0;
			}
		t += len + (t[len] == '_');
	}
	return 0;
}

/* "gemm_fp16_16384^3" or "gemm_bf16_8192x4096x1024"; "flash_attn2_fwd_hd64_s8192",
 * "flash_attn_cudnn_causal_bwd_hd128_s4096_b2_h32". */
static int kernel_of(const val_row *r, val_case *c, char *why, size_t n)
{
	const char *name = r->metric;
	hw_precision prec;
	if (kernel_type(name, &prec) < 0) {
		snprintf(why, n, "'%s': the catalog has dense peaks for fp32, tf32, fp16, bf16, fp8 "
		         "and fp4 only", name);
		return -1;
	}
	if (c->s.cluster.gpu.peak_flops[prec] <= 0) {
		snprintf(why, n, "'%s': %s has no %s peak in the catalog", name,
		         c->s.cluster.gpu.name, hw_precision_name(prec));
		return -1;
	}
	c->s.training.precision = prec;
	if (c->metric == VM_GEMM) {
		const char *p = strrchr(name, '_');
		double m = 0, nn = 0, k = 0;
		if (p && strstr(p, "^3"))
			m = nn = k = atof(p + 1);
		else if (p && sscanf(p + 1, "%lfx%lfx%lf", &m, &nn, &k) != 3)
			m = 0;
		if (m <= 0 || nn <= 0 || k <= 0) {
			snprintf(why, n, "GEMM shape not readable in '%s'", name);
			return -1;
		}
		c->gemm_m = m, c->gemm_n = nn, c->gemm_k = k;
		snprintf(c->config, sizeof c->config, "%s gemm %.0fx%.0fx%.0f", c->s.cluster.gpu.name,
		         m, nn, k);
	} else if (c->metric == VM_FLASH_FWD || c->metric == VM_FLASH_BWD) {
		c->attn_hd = val__num_after(name, "hd");
		c->attn_seq = val__num_after(name, "_s");
		c->attn_causal = val__has(name, "causal");
		c->attn_fa2 = !val__has(name, "cudnn") && (val__has(name, "attn2") ||
		              val__has(name, "fa2") || val__has(r->other, "FlashAttention-2") ||
		              val__has(r->other, "FlashAttention 2"));
		double b = val__num_after(name, "_b"), h = val__num_after(name, "_h");
		c->attn_bh = (b > 0 ? b : 1) * (h > 0 ? h : 32);
		if (c->attn_hd <= 0 || c->attn_seq <= 0) {
			snprintf(why, n, "head dim / sequence not readable in '%s'", name);
			return -1;
		}
		snprintf(c->config, sizeof c->config, "%s flash %s%s hd%.0f s%.0f",
		         c->s.cluster.gpu.name, c->metric == VM_FLASH_FWD ? "fwd" : "bwd",
		         c->attn_causal ? " causal" : "", c->attn_hd, c->attn_seq);
	} else {
		snprintf(c->config, sizeof c->config, "%s HBM stream", c->s.cluster.gpu.name);
	}
	return 0;
}

static void describe(const val_row *r, val_case *c)
{
	const scn_training *t = &c->s.training;
	char v[16] = "";
	if (t->virtual_stages > 1)
		snprintf(v, sizeof v, "v%d", t->virtual_stages);
	else if (t->schedule == SCHED_DEEPSPEED && t->pp > 1)
		snprintf(v, sizeof v, "ds");
	char rc[24];
	if (t->recompute == RECOMPUTE_FULL && t->recompute_layers > 0)
		snprintf(rc, sizeof rc, "full%d", t->recompute_layers);   /* N layers a chunk */
	else
		snprintf(rc, sizeof rc, "%s", t->recompute == RECOMPUTE_FULL ? "full"
		         : t->recompute == RECOMPUTE_SELECTIVE ? "sel" : "none");
	char z[16] = "";
	if (t->zero > 0)   /* "Z1ar": the optimizer sharded, the gradients all-reduced */
		snprintf(z, sizeof z, " Z%d%s", t->zero, scn_grad_rs(&c->s) ? "" : "ar");
	char cp[16] = "";
	if (t->cp > 1)
		snprintf(cp, sizeof cp, " CP%d", t->cp);
	char lora[24] = "";
	if (t->peft == PEFT_LORA)
		snprintf(lora, sizeof lora, " LoRA%d", t->lora_rank);
	snprintf(c->config, sizeof c->config, "l%d h%d TP%d%s%s PP%d%s DP%d%s mb%d B%d %s %s%s%s",
	         c->s.model.layers, c->s.model.hidden, t->tp, t->sequence_parallel ? "+SP" : "", cp,
	         t->pp, v, t->dp, z,
	         t->micro_batch, t->global_batch, rc, hw_precision_name(t->precision), lora,
	         c->assumed ? " *" : "");
}

/* A row that is no training step (a collective, a kernel, a checkpoint
 * size) gets a placeholder model and layout that the scenario loader
 * accepts and the prediction ignores, so that `validate --show` prints a
 * file `trainsim run` and `trainsim nccl` take. */
static void placeholder_workload(scenario *s)
{
	scn_model *m = &s->model;
	if (m->layers <= 0 && m->params <= 0 && !m->custom)
		m->layers = 1, m->hidden = 1024, m->heads = 8, m->seq_len = 2048;
	scn_training *t = &s->training;
	if (t->global_batch > 0)
		return;
	if (s->cluster.gpu.peak_flops[t->precision] <= 0)
		t->precision = PREC_FP16;   /* V100: no bf16 */
	t->tp = t->pp = t->cp = 1;
	t->dp = scn_gpus(s) > 0 ? scn_gpus(s) : 1;
	t->micro_batch = 1;
	t->global_batch = t->dp;
}

static int build_case(const val_row *r, val_case *c, char *why, size_t n);

/* How surely "size" at p in text is a collective's message size, by the
 * word before it: 2 for a message's ("message size 1GB", "all-reduce size",
 * "tensor size"), 0 for a size of something else ("batch size 128", "TP size
 * 8", "NCCL buffer size 4194304": NCCL_BUFFSIZE, its staging buffer a peer,
 * not the collective's), 1 otherwise ("size 1073741824", ". Size N"). */
static int message_size_word(const char *text, const char *p)
{
	const char *b = p;
	bool glued = p > text && isalnum((unsigned char)p[-1]);   /* BUFFSIZE, msgsize */
	while (b > text && (b[-1] == ' ' || b[-1] == '_' || b[-1] == '-'))
		b--;
	bool env = b < p && p[-1] == '_' && b > text && isupper((unsigned char)b[-1]);
	const char *w = b;
	while (w > text && isalnum((unsigned char)w[-1]))
		w--;
	char word[24];
	snprintf(word, sizeof word, "%.*s", (int)(b - w < 23 ? b - w : 23), w);
	static const char *const msg[] = {"message", "msg", "payload", "transfer", "tensor",
		"reduce", "allreduce", "gather", "allgather", "scatter", "alltoall", "all", "collective",
		"data", "of"};
	static const char *const other[] = {"batch", "microbatch", "minibatch", "vocab",
		"vocabulary", "hidden", "model", "group", "world", "window", "chunk", "step", "bucket",
		"page", "cluster", "TP", "PP", "DP", "EP", "CP", "SP", "parallel", "pipeline", "buffer",
		"BUFFSIZE", "pool", "cache", "block", "sequence", "context", "image", "patch", "kernel",
		"tile", "expert", "head", "embedding", "ring", "job", "node", "mesh", "partition",
		"communicator", "comm", "min", "max", "MTU", "memory", "element", "queue", "dtype",
		"type", "file", "disk", "word", "vector", "team", "cohort", "sample", "input",
		"output", "key", "font", "minimum", "maximum", "start", "end", "initial", "final",
		"smallest", "largest", "starting", "ending", "packet", "frame", "segment",
		"checkpoint", "warp", "slice", "grid", "shard", "stripe", "IO", "record", "row", "column"};
	if (!strcasecmp(word, "msg") || !strcasecmp(word, "message"))
		return 2;   /* "msgsize=1G", "MSG_SIZE=1G" */
	if (glued || env)
		return 0;   /* a word that ends in "size" (NCCL_BUFFSIZE, pagesize), an
		             * environment variable's (FI_EFA_TX_SIZE) */
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		if (!strcasecmp(word, other[i]))
			return 0;
	for (size_t i = 0; i < sizeof msg / sizeof msg[0]; i++)
		if (!strcasecmp(word, msg[i]))
			return 2;
	return 1;
}

/* A collective benchmark's metric with what the row says beside it: the op
 * of an nccl-tests binary in other_parallel ("reduce_scatter_perf -b 8 -e
 * 8G"), its sweep for "Avg bus bandwidth" (as <op>_avg_busbw_<b>-<e>), a
 * size in the unit ("GB/s @ 1 GiB", "GB/s (8 GiB message)") or in bytes after
 * "size" ("size 1073741824, busbw"). */
/* The op of an nccl-tests binary the text names ("all_gather_perf", "
 * ./build/reduce_scatter_perf"), or NULL. */
static const char *perf_binary_in(const char *t, const char *const *bins, size_t nb)
{
	for (const char *p = val__find(t, "_perf"); p; p = val__find(p + 1, "_perf"))
		for (size_t i = 0; i < nb; i++) {
			size_t len = strlen(bins[i]);
			if ((size_t)(p - t) >= len && !strncasecmp(p - len, bins[i], len) &&
			    (p - len == t || !isalnum((unsigned char)p[-(long)len - 1]) ||
			     p[-(long)len - 1] == '/'))
				return bins[i];
		}
	return NULL;
}

static void coll_name_of(const val_row *r, char *name, size_t n)
{
	static const char *const bins[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall",
		"sendrecv", "broadcast", "reduce", "hypercube", "gather", "scatter"};
	const char *op = NULL;
	/* the op said as a key in other_parallel ("op=all_gather; size=1048576
	 * B", "op: reduce_scatter", the collected rows' form: trainsim nccl's
	 * names, and hypercube to be refused), then an nccl-tests binary named
	 * there, then one the source names */
	for (const char *p = val__find(r->other, "op"); p && !op; p = val__find(p + 1, "op")) {
		if (p > r->other && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;   /* "loop=", "NCCL_OP=" */
		const char *q = p + 2;
		while (*q == ' ')
			q++;
		if (*q != '=' && *q != ':')
			continue;
		q++;
		while (*q == ' ')
			q++;
		char tok[32];
		size_t k = strcspn(q, " ;,().");
		snprintf(tok, sizeof tok, "%.*s", (int)(k < sizeof tok - 1 ? k : sizeof tok - 1), q);
		int o = coll_op_parse(tok);
		if (o >= 0)
			op = coll_op_name((coll_op)o);
		else if (!strcasecmp(tok, "hypercube"))
			op = "hypercube";
	}
	if (!op)
		op = perf_binary_in(r->other, bins, sizeof bins / sizeof bins[0]);
	if (!op)
		op = perf_binary_in(r->source, bins, sizeof bins / sizeof bins[0]);
	/* the name's own op wins: "allreduce_time@16B" of all_reduce_perf */
	char bare[64];
	size_t k = 0;
	for (const char *q = r->metric; *q && k < sizeof bare - 1; q++)
		if (*q != '_' && *q != '-' && *q != ' ')
			bare[k++] = *q;
	bare[k] = '\0';
	static const char *const named[] = {"allreduce", "allgather", "reducescatter", "alltoall",
		"sendrecv", "broadcast", "bcast", "reduce", "gather", "scatter", "hypercube"};
	for (size_t i = 0; i < sizeof named / sizeof named[0] && op; i++)
		if (val__has(bare, named[i]))
			op = NULL;
	snprintf(name, n, "%s %s", op ? op : "", r->metric);
	size_t len = strlen(name);
	if (val__has(r->metric, "avg bus bandwidth") || val__has(r->metric, "average bus bandwidth")) {
		const char *b = val__find(r->other, "-b "), *e = val__find(r->other, "-e ");
		if (b && e)
			snprintf(name, n, "%s_avg_busbw_%.*s-%.*s", op ? op : "all_reduce",
			         (int)strcspn(b + 3, " "), b + 3, (int)strcspn(e + 3, " "), e + 3);
		return;
	}
	const char *sz = val__find(r->metric, "size ");
	if (sz && isdigit((unsigned char)sz[5])) {
		snprintf(name + len, n - len, " @%ld", strtol(sz + 5, NULL, 10));
		return;
	}
	/* "... at 1073741824 bytes" */
	for (const char *at = val__find(r->metric, "at "); at; at = val__find(at + 1, "at ")) {
		char *e;
		long b = strtol(at + 3, &e, 10);
		if (b > 0 && isdigit((unsigned char)at[3]) && !strncasecmp(e, " bytes", 6)) {
			snprintf(name + len, n - len, " @%ld", b);
			return;
		}
	}
	/* the size in other_parallel: nccl-tests run at one size ("-b 1G -e 1G"),
	 * "size 1073741824", "size: 4294967296 bytes", "message size 1GB" */
	if (!strchr(r->metric, '@')) {
		const char *b = val__find(r->other, "-b "), *e = val__find(r->other, "-e ");
		if (b && e) {
			int lb = (int)strcspn(b + 3, " ,;"), le = (int)strcspn(e + 3, " ,;");
			if (lb == le && !strncmp(b + 3, e + 3, (size_t)lb) && lb > 0) {
				snprintf(name + len, n - len, " @%.*s", lb, b + 3);
				return;
			}
		}
		/* a message's word first ("(size 8 ranks), message size 1G") */
		for (int want = 2; want >= 1; want--)
			for (const char *p = val__find(r->other, "size"); p;
			     p = val__find(p + 1, "size")) {
				if (message_size_word(r->other, p) != want)
					continue;   /* "batch size 128", "TP size 8" */
				const char *q = p + 4;
				while (*q == ' ' || *q == ':' || *q == '=')
					q++;
				if (!isdigit((unsigned char)*q))
					continue;
				int l = (int)strspn(q, "0123456789.");
				const char *u = q + l;
				while (*u == ' ')
					u++;
				static const char *const counts[] = {"rank", "GPU", "node", "process",
					"worker", "device", "member"};
				bool count = false;   /* "size: 8 ranks" is a group's */
				for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
					count |= !strncasecmp(u, counts[c], strlen(counts[c]));
				if (count)
					continue;
				if (strchr("KMGTkmgt", *u) && *u)
					snprintf(name + len, n - len, " @%.*s%c", l, q, *u);
				else
					snprintf(name + len, n - len, " @%.*s", l, q);
				return;
			}
	}
	/* a message size in the unit ("GB/s @ 1 GiB", "GB/s (8 GiB message)"):
	 * only when the name has none */
	if (strchr(r->metric, '@'))
		return;
	for (const char *q = r->unit; *q; q++) {
		if (!isdigit((unsigned char)*q) || (q > r->unit && isalnum((unsigned char)q[-1])))
			continue;
		const char *e = q;
		while (isdigit((unsigned char)*e) || *e == '.')
			e++;
		while (*e == ' ')
			e++;
		/* a size, not a rate ("of 450 GB/s peak") */
		const char *after = e + 1 + (e[1] == 'i') + (e[1] == 'B' || e[2] == 'B');
		bool rate = *after == '/' || !strncasecmp(after, "ps", 2);
		/* an end of a sweep's range ("the 8B..8GiB sweep", "1M-8G", "8 B to
		 * 8 GB") is no one size */
		const char *z = e + 2 + (e[1] == 'i' && e[2] == 'B');
		bool range = (q - r->unit >= 2 && q[-1] == '.' && q[-2] == '.') ||
		             (q - r->unit >= 2 && q[-1] == '-' && isalnum((unsigned char)q[-2])) ||
		             (q - r->unit >= 4 && !strncmp(q - 4, " to ", 4)) ||
		             !strncmp(z, "..", 2) || (*z == '-' && isdigit((unsigned char)z[1])) ||
		             !strncmp(z, " to ", 4);
		if (strchr("KMGT", toupper((unsigned char)*e)) && (e[1] == 'B' || e[1] == 'i') &&
		    !rate && !range && len + 40 < n) {
			snprintf(name + len, n - len, " @%.*s", (int)(e + 2 - q), q);
			return;
		}
	}
}

/* Whether a collective row ran several groups at once ("8 concurrent groups
 * of 2 ranks", "eight concurrent replicate groups", "groups run
 * concurrently"): not the one collective over all its GPUs validate
 * predicts. "Concurrent" must be said of groups or communicators, within a
 * few words, and not denied ("no other concurrent collectives", "run
 * concurrently with compute" are one collective). */
static bool concurrent_groups(const char *o)
{
	static const char *const of[] = {"groups", "communicators"};
	/* phrases tied to the groups, whole words: not the "single" of
	 * "single-node ranks" */
	static const char *const denied[] = {"not run concurrent", "no other concurrent",
		"no concurrent", "concurrency disabled", "disabled", "none concurrent",
		"none", "single group", "single communicator", "one group", "one communicator"};
	for (const char *p = val__find(o, "concurrent"); p; p = val__find(p + 1, "concurrent")) {
		char clause[256];   /* its own clause: not across ';' or ',' */
		const char *b = p, *e = p;
		while (b > o && !strchr(";,(", b[-1]) && p - b < 120)
			b--;
		while (*e && !strchr(";,)", *e) && e - p < 120)
			e++;
		snprintf(clause, sizeof clause, "%.*s", (int)(e - b), b);
		bool groups = false, no = val__negated_before(o, p);
		for (size_t i = 0; i < sizeof of / sizeof of[0] && !groups; i++)
			groups = val__has(clause, of[i]);
		for (size_t i = 0; i < sizeof denied / sizeof denied[0] && !no; i++)
			no = val__has_word(clause, denied[i]);
		if (groups && !no)
			return true;
	}
	return false;
}

/* A bus bandwidth published as both directions' sum, twice nccl-tests'
 * busbw (FlagPerf doubles it to compare with NVIDIA's bidirectional NVLink
 * figure): "as published = 2 x busbw". Not "96.62 = 2 x busbw", which names
 * another number than the row's, nor "1/2 x busbw", "not 2x busbw" or
 * "would be 2 x busbw". */
static bool twice_busbw(const char *unit, val_metric m)
{
	if (m != VM_COLL_BUSBW && m != VM_COLL_AVG_BUSBW)
		return false;
	static const char *const forms[] = {"2 x busbw", "2x busbw", "2 \u00d7 busbw", "twice busbw",
		"twice the busbw"};
	for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++)
		for (const char *p = val__find(unit, forms[k]); p; p = val__find(p + 1, forms[k])) {
			if (p > unit && (p[-1] == '/' || isdigit((unsigned char)p[-1])))
				continue;   /* "1/2 x busbw", "12 x busbw" */
			char before[24];
			size_t k0 = (size_t)(p - unit) < 16 ? (size_t)(p - unit) : 16;
			snprintf(before, sizeof before, "%.*s", (int)k0, p - k0);
			if (val__has(before, "not ") || val__has(before, "would") ||
			    val__has(before, "n't "))
				continue;   /* "not 2x busbw", "would be 2 x busbw" */
			const char *b = p;
			while (b > unit && b[-1] == ' ')
				b--;
			if (b > unit && b[-1] == '=') {
				b--;
				while (b > unit && b[-1] == ' ')
					b--;
				if (b > unit && isdigit((unsigned char)b[-1]))
					continue;   /* "96.62 = 2 x busbw" */
			}
			return true;
		}
	return false;
}

/* A utilization whose name or unit gives the precision of its peak ("BF16
 * MFU" of an fp8 run, "MFU (bf16 peak)"): that precision; -1 otherwise. */
static int peak_named(const val_row *r, val_metric m)
{
	static const struct { const char *word; hw_precision p; } precs[] = {
		{"bf16", PREC_BF16}, {"fp16", PREC_FP16}, {"fp8", PREC_FP8}, {"tf32", PREC_TF32},
		{"fp32", PREC_FP32}, {"fp4", PREC_FP4}, {"nvfp4", PREC_FP4}, {"mxfp4", PREC_FP4}};
	if (m != VM_MFU && m != VM_HFU && m != VM_PCT_PEAK)
		return -1;
	const char *texts[] = {r->metric, r->unit};
	for (size_t t = 0; t < 2; t++)
		for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++)
			if (val__has_token(texts[t], precs[i].word))
				return (int)precs[i].p;
	return -1;
}

int val__runnable(const scenario *s, char *why, size_t n)
{
	char err[200];
	if (scn_check_built(s, err, sizeof err) == 0)
		return 0;
	snprintf(why, n, "the row's layout is not one trainsim runs: %s", err);
	return -1;
}

int val_build(const val_row *r, val_case *c, char *why, size_t n)
{
	if (build_case(r, c, why, n) < 0)
		return -1;
	placeholder_workload(&c->s);
	if (val__runnable(&c->s, why, n) < 0) {
		scn_release(&c->s);
		return -1;
	}
	return 0;
}

static int build_case(const val_row *r, val_case *c, char *why, size_t n)
{
	memset(c, 0, sizeof *c);
	const struct { const char *name; int v; } counts[] = {{"gpus", r->gpus},
		{"layers", r->layers}, {"hidden", r->hidden}, {"heads", r->heads},
		{"seq_len", r->seq_len}, {"global_batch", r->global_batch},
		{"micro_batch", r->micro_batch}, {"tp", r->tp}, {"pp", r->pp}, {"dp", r->dp}};
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
		if (counts[i].v == INT_MAX) {   /* as_int's cap (val_csv.c) */
			snprintf(why, n, "%s is beyond any run (2^31 or more)", counts[i].name);
			return -1;
		}
	if (r->two_models) {
		snprintf(why, n, "two models in one run (hidden widths of an encoder beside a "
		         "language model): trainsim simulates one transformer a row");
		return -1;
	}
	scn_defaults(&c->s);
	snprintf(c->s.name, sizeof c->s.name, "%s", r->id);
	/* a unit written in the metric's name, as Megatron's log prints it
	 * ("elapsed time per iteration (ms)"), when the unit column is empty */
	char unit_in_name[48] = "";
	const char *open = strrchr(r->metric, '(');
	if (!*r->unit && open && strchr(open, ')')) {
		size_t k = (size_t)(strchr(open, ')') - open - 1);
		if (k < sizeof unit_in_name) {
			memcpy(unit_in_name, open + 1, k);
			unit_in_name[k] = '\0';
		}
	}
	const char *unit = *r->unit ? r->unit : unit_in_name;
	c->metric = val__metric_of(r->metric, unit);
	/* the logs' FLOP rates count model FLOPs: Megatron-LM's "throughput per
	 * GPU (TFLOP/s/GPU)" (num_floating_point_operations: 3 x the forward, no
	 * recomputed one) and torchtitan's "tflops" (num_flops_per_token x tps) */
	if (c->metric == VM_HW_TFLOPS && (val__has(r->metric, "throughput per GPU") ||
	                                  (val__has_token(r->metric, "tflops") &&
	                                   val__names(r, "torchtitan"))))
		c->metric = VM_MODEL_TFLOPS;
	/* NeMo's and Megatron-Bridge's tables and FLOPs callback count model
	 * FLOPs ("Model TFLOP / sec / GPU"): a bare "TFLOPs/GPU" of theirs too;
	 * so does MaxText's "TFLOP/s/device" (calculate_tflops_training_per_device:
	 * the model's matmuls and attention, no rematerialization); and a unit
	 * that says so ("TFLOP/sec/chip (model)") */
	if (c->metric == VM_HW_TFLOPS && (val__names(r, "NeMo") || val__names(r, "Megatron-Bridge") ||
	                                  val__names(r, "MaxText")) &&
	    !val__has(r->metric, "hardware") && !val__has(r->metric, "HFU"))
		c->metric = VM_MODEL_TFLOPS;
	if (c->metric == VM_HW_TFLOPS && (val__has(unit, "(model)") ||
	                                  val__has(unit, "model TFLOP") || val__has(unit, "model FLOP")))
		c->metric = VM_MODEL_TFLOPS;
	if (c->metric == VM_NONE) {
		/* the op, sizes or sweep said beside the name: first when the row
		 * names an nccl-tests binary the name does not (its op) */
		char name[512];
		coll_name_of(r, name, sizeof name);
		if (*name != ' ')
			c->metric = val__coll_metric(name, c);
		if (c->metric == VM_NONE)
			c->metric = val__coll_metric(r->metric, c);
		if (c->metric == VM_NONE)
			c->metric = val__coll_metric(name, c);
	}
	if (c->metric == VM_NONE) {
		snprintf(why, n, "%s", val__not_predicted(r->metric));
		return -1;
	}
	if (r->unread[0]) {
		snprintf(why, n, "%s", r->unread);
		return -1;
	}
	if (!r->has_value) {
		snprintf(why, n, "no published value");
		return -1;
	}
	const char *quoted = val__find(r->unit, "time ");
	if (!(r->value > 0) && c->metric != VM_RECOMPUTE_GAIN &&
	    !(c->metric >= VM_COLL_BUSBW && c->metric <= VM_COLL_AVG_BUSBW && r->value == 0 &&
	      quoted && atof(quoted + 5) > 0)) {
		snprintf(why, n, "published value %g: not a positive quantity to compare with",
		         r->value);
		return -1;
	}
	/* a time given for a rate ("us" for a bus bandwidth): the wrong column
	 * or a misplaced unit, not a number to compare */
	bool rate = c->metric == VM_COLL_BUSBW || c->metric == VM_COLL_ALGBW ||
	            c->metric == VM_COLL_AVG_BUSBW || c->metric == VM_TOKENS ||
	            c->metric == VM_SAMPLES || c->metric == VM_HW_TFLOPS ||
	            c->metric == VM_MODEL_TFLOPS || c->metric == VM_AGG_PFLOPS ||
	            c->metric == VM_MFU || c->metric == VM_HFU;
	if (rate && val__time_unit(unit) && !strchr(unit, '/') && !val__has(unit, " per ")) {
		snprintf(why, n, "unit '%.40s' is a time; %s is a rate (GB/s, tokens/s, TFLOP/s, %%)",
		         unit, r->metric);
		return -1;
	}
	c->unit_scale = val__unit_scale(unit, c->metric, r->value);
	if (twice_busbw(unit, c->metric))
		c->unit_scale /= 2;
	/* an aggregate whose unit names no FLOP prefix ("all GPUs"): the name's */
	if (c->metric == VM_AGG_PFLOPS && !val__has(unit, "FLOP") && val__has(r->metric, "tflop"))
		c->unit_scale = 1e12;
	c->per_gpu = (c->metric == VM_TOKENS || c->metric == VM_SAMPLES) && val__per_gpu(r);
	c->per_node = (c->metric == VM_TOKENS || c->metric == VM_SAMPLES) && !c->per_gpu &&
	              val__per_node(r);
	c->published_si = r->value * c->unit_scale;
	/* beyond any measurement once in SI units ("3e300 GB/s", "1e-300"):
	 * the ratio to a prediction would overflow or mean nothing */
	if (!isfinite(c->published_si) || (c->published_si > 0 && (c->published_si > 1e100 ||
	                                                           c->published_si < 1e-100))) {
		snprintf(why, n, "published value %g %.30s is out of any measurement's range",
		         r->value, unit);
		return -1;
	}
	c->param_source = val__param_source(r, c->metric);
	c->peak_prec = peak_named(r, c->metric);
	if (c->metric >= VM_COLL_BUSBW && c->metric <= VM_COLL_AVG_BUSBW &&
	    concurrent_groups(r->other)) {
		snprintf(why, n, "several collectives at once (concurrent groups): validate predicts "
		         "one collective over the row's GPUs");
		return -1;
	}
	if (c->metric >= VM_COLL_BUSBW && c->metric <= VM_COLL_AVG_BUSBW &&
	    val__affirmed_word(r->other, "Gloo") && !val__affirmed_word(r->other, "NCCL") &&
	    !val__affirmed_word(r->other, "RCCL")) {
		/* "backend=Gloo (CPU tensors)": PyTorch's CPU collectives */
		snprintf(why, n, "a Gloo collective (PyTorch's CPU backend): trainsim models "
		         "NCCL's and RCCL's");
		return -1;
	}
	if (c->metric >= VM_COLL_BUSBW && c->metric <= VM_COLL_AVG_BUSBW) {
		/* nccl-tests rounds a tiny busbw to 0.00; the row then quotes the
		 * time ("GB/s (time 13.03 us)"): compare that instead */
		const char *tm = val__find(r->unit, "time ");
		if (r->value == 0 && c->metric != VM_COLL_TIME && tm && atof(tm + 5) > 0) {
			char *end;
			double v = strtod(tm + 5, &end);
			while (*end == ' ')
				end++;
			c->metric = VM_COLL_TIME;
			c->unit_scale = val__unit_scale(end, VM_COLL_TIME, v);
			c->published_si = v * c->unit_scale;
			c->unit = c->unit_scale == 1e-3 ? "ms" : c->unit_scale == 1 ? "s" : "us";
		}
		return coll_cluster_of(r, c, why, n);
	}
	if (cluster_of(r, &c->s, why, n) < 0)
		return -1;
	if (by_generation(gpu_of(r->hardware)))
		c->assumed = true;
	if (c->metric == VM_GEMM || c->metric == VM_FLASH_FWD || c->metric == VM_FLASH_BWD ||
	    c->metric == VM_HBM_BW)
		return kernel_of(r, c, why, n);
	bool layer_only = c->metric == VM_LAYER_FWD || c->metric == VM_LAYER_BWD ||
	                  c->metric == VM_LAYER_FWDBWD;
	if (model_of(r, &c->s, c->metric == VM_CKPT_SIZE, &c->assumed, why, n) < 0)
		return -1;
	if (c->metric == VM_CKPT_SIZE && c->s.model.params > 0) {
		snprintf(c->config, sizeof c->config, "%.0fB params (generic shape) %s", r->params_b,
		         hw_precision_name(c->s.training.precision));
		c->assumed = true;
		return 0;
	}
	if (val__training_of(r, &c->s, layer_only, &c->assumed, why, n) < 0)
		return -1;
	/* NVIDIA's NeMo and Megatron-Bridge tables count model FLOPs with the
	 * causal half of the attention scores (Megatron-Bridge 25.11: 744 TFLOP/s
	 * at 14451 tokens/s for Llama 3 8B at 8192 tokens = 51.5 GFLOP a token,
	 * the causal count; 57.9 in full); a row may also say "causal" */
	/* Megatron-Core's logged rate counts each GEMM three times (forward,
	 * wgrad, dgrad: its forward_backward_expansion_factor), recomputation
	 * not: model FLOPs, whatever the row calls them */
	if (c->metric == VM_HW_TFLOPS && (megatron_logged(r) || primus_logged(r)))
		c->metric = VM_MODEL_TFLOPS;
	/* torchtitan logs TFLOP/s as its tokens/s times 6 x the parameters
	 * (the embedding's left out) + 12 x layers x heads x head_dim x seq_len
	 * a token, "recomputation should not be counted" (its
	 * get_num_flop_per_token and the comment beside it): model FLOPs with
	 * the attention scores whole */
	if (c->metric == VM_HW_TFLOPS && val__names(r, "torchtitan"))
		c->metric = VM_MODEL_TFLOPS;
	c->causal_count = ((val__names(r, "NeMo") || val__names(r, "Megatron-Bridge") ||
	                    megatron_logged(r)) &&
	                   !val__has(r->unit, "full attention") && !val__has(r->other, "full attention")) ||
	                  val__affirmed(r->unit, "causal") || val__affirmed(r->metric, "causal");
	describe(r, c);
	return 0;
}

/* ---- scaling efficiency: a row against its series' baseline ---- */

/* Work of one step in the convention of weak-scaling tables (Megatron's
 * README: parameters x sequences per GPU and second against the 1-GPU
 * run): parameters x global batch x sequence length. */
static double step_work(const scenario *s)
{
	return wl_params(&s->model) * s->training.global_batch * s->model.seq_len;
}

bool val_power_capped(const val_row *r)
{
	static const char *const says[] = {"power limit", "power-limit", "power cap",
		"power-capped", "lower TDP", "lower-TDP", "reduced TDP"};
	const char *h = r->hardware;
	/* a limit said to be the rating, or lifted, caps nothing */
	if (val__has(h, "uncapped") || val__has(h, "unchanged") || val__has(h, "full power") ||
	    val__has(h, "not capped"))
		return false;
	for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
		if (val__affirmed(h, says[i]))
			return true;
	return false;
}

/* The watts of a number right at q ("500W", "500 W"; not "500 Wh", "500
 * words"); 0 if none. */
static double watts_at(const char *q)
{
	if (!isdigit((unsigned char)*q))
		return 0;
	char *e;
	double v = strtod(q, &e);
	while (*e == ' ')
		e++;
	if ((*e == 'k' || *e == 'K') && (e[1] == 'W' || e[1] == 'w'))
		v *= 1000, e++;
	return (*e == 'W' || *e == 'w') && !isalnum((unsigned char)e[1]) && v > 0 && v < 1e5 ? v : 0;
}

/* Whether the clause around p is about another device's power or a draw,
 * not the GPUs' cap ("CPU power capped at 350W", "the switch is capped at
 * 400W", "power limited: 650 W average draw", "500 W in a previous run"). */
static bool other_power(const char *h, const char *p, size_t n)
{
	char clause[160];
	val__clause_around(h, p, n, clause, sizeof clause);
	static const char *const others[] = {"CPU", "host", "socket", "switch", "PSU",
		"power supply", "per node", "per rack", "per server", "node power", "rack power",
		"draw", "previous", "earlier", "average", "measured"};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
		if (val__has(clause, others[i]))
			return true;
	return false;
}

double val_power_limit_w(const val_row *r)
{
	static const char *const says[] = {"power limit", "power-limit", "power cap", "power-capped",
		"power limited", "power-limited", "capped at", "capped to"};
	const char *h = r->hardware;
	/* a wattage beside the words is enough ("power cap: 0.6 kW", whose 0
	 * val_power_capped reads as a denial); a limit lifted is none */
	if (val__has(h, "uncapped") || val__has(h, "not capped") || val__has(h, "no power limit") ||
	    val__has(h, "without a power limit"))
		return 0;
	for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
		for (const char *p = val__find(h, says[i]); p; p = val__find(p + 1, says[i])) {
			if (other_power(h, p, strlen(says[i])))
				continue;
			/* "500W power limit", "0.6 kW power cap": the number just before */
			const char *b = p;
			while (b > h && b[-1] == ' ')
				b--;
			if (b > h && (b[-1] == 'W' || b[-1] == 'w')) {
				const char *q = b - 1;
				if (q > h && (q[-1] == 'k' || q[-1] == 'K'))
					q--;
				while (q > h && q[-1] == ' ')
					q--;
				while (q > h && (isdigit((unsigned char)q[-1]) || q[-1] == '.'))
					q--;
				double v = watts_at(q);
				if (v > 0)
					return v;
			}
			/* "power limit of 500 W", "capped at 500W", "power cap: 500 W" */
			const char *a = p + strlen(says[i]);
			while (*a == ' ' || *a == ':' || *a == '=')
				a++;
			static const char *const joins[] = {"of ", "at ", "to ", "set to "};
			for (size_t j = 0; j < sizeof joins / sizeof joins[0]; j++)
				if (!strncasecmp(a, joins[j], strlen(joins[j])))
					a += strlen(joins[j]);
			double v = watts_at(a);
			if (v > 0)
				return v;
		}
	return 0;
}

const val_band *val_band_find(const char *gpu, bool moe)
{
	for (size_t i = 0; i < val_nbands; i++)
		if (val_bands[i].runs > 0 && val_bands[i].moe == moe && !strcmp(val_bands[i].gpu, gpu))
			return &val_bands[i];
	return NULL;
}

bool val_step_metric(val_metric m)
{
	return m != VM_NONE && m != VM_GEMM && m != VM_HBM_BW && m != VM_FLASH_FWD &&
	       m != VM_FLASH_BWD &&
	       m != VM_CKPT_SIZE && m != VM_LAYER_FWD && m != VM_LAYER_BWD &&
	       m != VM_LAYER_FWDBWD && !(m >= VM_COLL_BUSBW && m <= VM_COLL_AVG_BUSBW);
}

/* Whether rows[j] can be the baseline of c (row r): the same source, a step
 * layout that builds, the same GPU. Its case is left in *cj (released by the
 * caller when true). */
static bool baseline_candidate(const val_row *r, const val_case *c, const val_row *rj,
                               val_case *cj)
{
	char why[200];
	if (strcmp(r->source, rj->source) || rj->gpus <= 0)
		return false;
	if (val_build(rj, cj, why, sizeof why) < 0)
		return false;
	if (!val_step_metric(cj->metric) || strcmp(cj->s.cluster.gpu.name, c->s.cluster.gpu.name)) {
		scn_release(&cj->s);
		return false;
	}
	return true;
}

static bool is_hundred(const val_row *r)
{
	return r->has_value && fabs(r->value - 100) < 0.05;
}

/* Order of preference among the baseline candidates of row r: the series'
 * 100% row of r's metric first; then the fewest GPUs; the same shape; the
 * smaller step (layers x hidden^2 x tokens, from the row's own fields). */
typedef struct base_key {
	size_t j;
	int hundred, shape, gpus;
	double size;
} base_key;

static int base_key_cmp(const void *pa, const void *pb)
{
	const base_key *a = pa, *b = pb;
	if (a->hundred != b->hundred)
		return a->hundred - b->hundred;
	if (a->gpus != b->gpus)
		return a->gpus < b->gpus ? -1 : 1;
	if (a->shape != b->shape)
		return a->shape - b->shape;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a->j < b->j ? -1 : a->j > b->j;
}

int val_link_baseline(const val_row *rows, size_t n, size_t i, val_case *c, char *why,
                      size_t whylen)
{
	const val_row *r = &rows[i];
	c->has_base = false;
	/* candidates from the rows' own fields (cheap), sorted; then built in
	 * that order until one is a step layout on the same GPU */
	base_key *k = malloc((n ? n : 1) * sizeof *k);
	if (!k) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	size_t nk = 0;
	for (size_t j = 0; j < n; j++) {
		const val_row *q = &rows[j];
		if (j == i || q->gpus <= 0 || strcmp(q->source, r->source))
			continue;
		bool hundred = is_hundred(q) && !strcasecmp(q->metric, r->metric);
		if (q->gpus >= r->gpus)
			continue;   /* a baseline runs on fewer GPUs */
		k[nk++] = (base_key){j, hundred ? 0 : 1, q->layers == r->layers && q->hidden == r->hidden
		                     ? 0 : 1, q->gpus, (double)q->layers * q->hidden * q->hidden *
		                     q->seq_len * (q->global_batch > 0 ? q->global_batch : 1)};
	}
	qsort(k, nk, sizeof *k, base_key_cmp);
	long best = -1;
	for (size_t a = 0; a < nk && best < 0; a++) {
		val_case cj;
		if (!baseline_candidate(r, c, &rows[k[a].j], &cj))
			continue;
		/* row r, a 100% row itself, is its series' baseline unless a 100%
		 * row of fewer GPUs (sorted first) is one */
		if (is_hundred(r) && k[a].hundred != 0) {
			scn_release(&cj.s);
			break;
		}
		best = (long)k[a].j;
		c->base = cj.s;
		c->base_work = step_work(&cj.s);
		c->has_base = true;
	}
	free(k);
	if (best < 0) {
		if (c->has_base)
			scn_release(&c->base);
		c->has_base = false;
		snprintf(why, whylen, is_hundred(r) ? "the baseline of its scaling series (100%% by "
		         "definition)" : "no row with fewer GPUs in its series to scale from");
		return -1;
	}
	c->work = step_work(&c->s);
	return 0;
}

bool val_coll_goal_family(const char *family)
{
	return !strcmp(family, "NCCL-AZ") || !strcmp(family, "NCCL-DGXH100");
}

bool val_goal_family(const char *family)
{
	return !strcmp(family, "MEG21T1") || !strcmp(family, "KOR22");
}

