/* check_topo.c: the hardware catalog and the cluster builder: catalog values
 * and lookups, link counts that grow linearly, routes of every topology
 * (NVLink, PXN, leaf/spine, rails, zones, storage, local NVMe), caps and
 * latencies; job placement (packed vs spread over leaves) and background
 * load on leaf uplinks. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "hw.h"
#include "topo.h"
#include "workload.h"

static scn_cluster dgx(int nodes, const char *gpu, double nic_gbps)
{
	scn_cluster c;
	memset(&c, 0, sizeof c);
	c.nodes = nodes;
	c.gpus_per_node = 8;
	c.gpu = *hw_gpu_find(gpu);
	c.intra.kind = INTRA_NVSWITCH;
	c.nic.count = 8;
	c.nic.speed_Bps = nic_gbps * 1e9 / 8;
	c.nic.transport = TRANSPORT_RDMA;
	c.fabric.topology = TOPO_SINGLE_SWITCH;
	c.fabric.nodes_per_leaf = nodes;
	c.fabric.oversubscription = 1;
	c.fabric.switch_latency_s = 600e-9;
	c.fabric.zones = 1;
	c.storage.bandwidth_Bps = 100e9;
	c.storage.latency_s = 1e-3;
	c.storage.network = STORAGE_NET_FRONTEND;
	c.storage.frontend_Bps = 25e9;
	return c;
}

typedef struct env { sim *s; flownet *net; cluster *cl; char err[256]; } env;

static void env_build(env *e, const scn_cluster *c)
{
	e->s = sim_new(1, 0);
	ck_assert_ptr_nonnull(e->s);
	e->net = flow_new(e->s);
	ck_assert_ptr_nonnull(e->net);
	e->cl = cluster_build(c, e->net, e->err, sizeof e->err);
	ck_assert_msg(e->cl != NULL, "cluster_build: %s", e->err);
}

static void env_free(env *e)
{
	cluster_free(e->cl);
	flow_free(e->net);
	sim_free(e->s);
}

static int count_kind(const env *e, const int *links, int n, int kind)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += flow_link_kind(e->net, links[i]) == kind;
	return k;
}

START_TEST(catalog_values)
{
	const hw_gpu *a = hw_gpu_find("a100");       /* alias, any case */
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->name, "A100-SXM4-80GB");
	ck_assert_double_eq_tol(a->peak_flops[PREC_BF16], 312e12, 1e9);
	ck_assert_double_eq_tol(a->nvlink_Bps * a->nvlink_eff, 240e9, 1e6);  /* NCCL 20 x 12 */
	const hw_gpu *h = hw_gpu_find("H100");
	ck_assert_str_eq(h->name, "H100-SXM5-80GB");
	ck_assert_double_eq_tol(h->peak_flops[PREC_BF16], 989.4e12, 1e9);
	ck_assert_double_eq_tol(h->nvlink_Bps * h->nvlink_eff, 370.8e9, 1e6); /* 20.6 x 18 */
	ck_assert_double_eq_tol(h->nvls_eff, 0.85, 1e-12);
	ck_assert_double_eq_tol(hw_gpu_find("B200")->nvls_eff, 0.74, 1e-12);
	ck_assert_double_eq(hw_gpu_find("V100-SXM2-32GB")->peak_flops[PREC_BF16], 0);
	ck_assert_ptr_nonnull(hw_gpu_find("mi300x"));
	ck_assert_ptr_nonnull(hw_gpu_find("L40S"));
	ck_assert_ptr_null(hw_gpu_find("Z9000"));
	ck_assert_int_ge((int)hw_gpu_count(), 10);
	for (size_t i = 0; i < hw_gpu_count(); i++) {
		const hw_gpu *g = hw_gpu_at(i);
		ck_assert(g->peak_flops[PREC_FP32] > 0 && g->hbm_bytes > 0 && g->hbm_Bps > 0);
		ck_assert(g->gemm_eff > 0.4 && g->gemm_eff < 1 && g->hbm_eff > 0 && g->hbm_eff <= 1);
	}
	ck_assert_double_eq(hw_precision_bytes(PREC_BF16), 2);
	ck_assert_double_eq(hw_precision_bytes(PREC_TF32), 4);
	ck_assert_str_eq(hw_precision_name(PREC_FP8), "fp8");
}
END_TEST

/* The parts published runs use beyond the DGX ones: each name and alias
 * resolves to the data sheet's (or derived, hw.c) dense peaks and memory, its
 * SM count and whether it has a fused attention kernel. */
START_TEST(catalog_new_parts)
{
	static const struct {
		const char *typed, *name;
		hw_arch arch;
		double fp32, fp16, bf16, fp8;   /* TFLOP/s */
		double mem_GiB, hbm_GBs, nvlink_GBs;
		int pcie, sms;
		bool fused;
	} parts[] = {
		{"t4", "T4", ARCH_TURING, 8.1, 65, 0, 0, 16, 320, 0, 3, 40, false},
		{"V100-16GB", "V100-SXM2-16GB", ARCH_VOLTA, 15.7, 125, 0, 0, 16, 900, 150, 3, 80, false},
		{"v100-pcie", "V100-PCIE-32GB", ARCH_VOLTA, 14, 112, 0, 0, 32, 900, 0, 3, 80, false},
		{"a10", "A10", ARCH_AMPERE, 31.2, 125, 125, 0, 24, 600, 0, 4, 72, true},
		{"A10G", "A10G", ARCH_AMPERE, 35, 70, 70, 0, 24, 600, 0, 4, 80, true},
		{"A40", "A40", ARCH_AMPERE, 37.4, 149.7, 149.7, 0, 48, 696, 0, 4, 84, true},
		{"A6000", "RTX-A6000", ARCH_AMPERE, 38.7, 154.8, 154.8, 0, 48, 768, 0, 4, 84, true},
		{"l4", "L4", ARCH_ADA, 30.3, 121, 121, 242.5, 24, 300, 0, 4, 58, true},
		{"H20", "H20-96GB", ARCH_HOPPER, 44, 148, 148, 296, 96, 4000, 450, 5, 78, true},
		{"h100-nvl", "H100-NVL-94GB", ARCH_HOPPER, 60, 835.5, 835.5, 1670.5, 94, 3900, 0, 5,
		 132, true},
		{"h100-hbm2e", "H100-HBM2E-96GB", ARCH_HOPPER, 66.9, 989.4, 989.4, 1978.9, 96, 2400,
		 450, 5, 132, true},
		{"B300", "B300", ARCH_BLACKWELL, 75, 2250, 2250, 4500, 268, 8000, 900, 6, 148, true},
		{"gb300-nvl72", "GB300", ARCH_BLACKWELL, 80, 2500, 2500, 5000, 268, 8000, 900, 6, 148,
		 true},
		{"MI250X", "MI250X-GCD", ARCH_CDNA2, 47.9, 191.5, 191.5, 0, 64, 1638.4, 100, 4, 110,
		 true},
		{"mi250x-gcd", "MI250X-GCD", ARCH_CDNA2, 47.9, 191.5, 191.5, 0, 64, 1638.4, 100, 4,
		 110, true},
		{"MI250", "MI250-GCD", ARCH_CDNA2, 45.3, 181, 181, 0, 64, 1638.4, 100, 4, 104, true},
		{"MI325", "MI325X", ARCH_CDNA3, 163.4, 1307.4, 1307.4, 2614.9, 256, 6000, 448, 5, 304,
		 true},
		{"mi355x", "MI355X", ARCH_CDNA4, 157.3, 2500, 2500, 5000, 288, 8000, 537.6, 5, 256,
		 true},
		{"MI350", "MI350X", ARCH_CDNA4, 144.2, 2300, 2300, 4600, 288, 8000, 537.6, 5, 256,
		 true},
		/* unchanged by the table of per-part SM counts */
		{"H100-PCIE", "H100-PCIE-80GB", ARCH_HOPPER, 51.2, 756, 756, 1513, 80, 2000, 0, 5, 114,
		 true},
		{"L40S", "L40S", ARCH_ADA, 91.6, 362.05, 362.05, 733, 48, 864, 0, 4, 142, true},
	};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		const hw_gpu *g = hw_gpu_find(parts[i].typed);
		ck_assert_msg(g != NULL, "%s not in the catalog", parts[i].typed);
		ck_assert_str_eq(g->name, parts[i].name);
		ck_assert_int_eq(g->arch, parts[i].arch);
		ck_assert_double_eq_tol(g->peak_flops[PREC_FP32], parts[i].fp32 * 1e12, 1e9);
		ck_assert_double_eq_tol(g->peak_flops[PREC_FP16], parts[i].fp16 * 1e12, 1e9);
		ck_assert_double_eq_tol(g->peak_flops[PREC_BF16], parts[i].bf16 * 1e12, 1e9);
		ck_assert_double_eq_tol(g->peak_flops[PREC_FP8], parts[i].fp8 * 1e12, 1e9);
		ck_assert_double_eq_tol(g->hbm_bytes, parts[i].mem_GiB * 1073741824.0, 1);
		ck_assert_double_eq_tol(g->hbm_Bps, parts[i].hbm_GBs * 1e9, 1);
		ck_assert_double_eq_tol(g->nvlink_Bps, parts[i].nvlink_GBs * 1e9, 1);
		ck_assert_int_eq(g->pcie_gen, parts[i].pcie);
		ck_assert_int_eq(wl_gpu_sms(g), parts[i].sms);
		ck_assert_msg(wl_gpu_fused_attention(g) == parts[i].fused, "%s: fused attention",
		              g->name);
	}
	/* Turing has no tf32 and CDNA2 none either; the T4 holds the 24 of 65
	 * TFLOP/s a user measured for a continuous fp16 4096^3 GEMM under its
	 * 70 W cap (hw.c) */
	ck_assert_double_eq(hw_gpu_find("T4")->peak_flops[PREC_TF32], 0);
	ck_assert_double_eq(hw_gpu_find("MI250X")->peak_flops[PREC_TF32], 0);
	double n = 4096, t = wl_gemm_time(hw_gpu_find("T4"), PREC_FP16, n, n, n);
	ck_assert_double_eq_tol(2 * n * n * n / t / 1e12, 24, 0.5);
	/* a GPU given field by field (no catalog name) takes its architecture's count */
	hw_gpu custom = *hw_gpu_find("A10");
	strcpy(custom.name, "my-ga102");
	ck_assert_int_eq(wl_gpu_sms(&custom), 108);
}
END_TEST

START_TEST(catalog_suggest)
{
	ck_assert_str_eq(hw_gpu_suggest("A100-SXM4-80G"), "A100-SXM4-80GB");
	ck_assert_str_eq(hw_gpu_suggest("h200-sxm-141G"), "H200-SXM-141GB");
	ck_assert_ptr_null(hw_gpu_suggest("quantum computer"));
	/* the typed model wins over a closer spelling of another generation */
	ck_assert_str_eq(hw_gpu_suggest("H100-80GB"), "H100-SXM5-80GB");
	ck_assert_str_eq(hw_gpu_suggest("H100-SXM4-80GB"), "H100-SXM5-80GB");
	ck_assert_str_eq(hw_gpu_suggest("h200-141gb"), "H200-SXM-141GB");
	ck_assert_str_eq(hw_gpu_suggest("MI300X-192GB"), "MI300X");
	/* the typed memory size picks the part within the model, and a tie
	 * between other models goes to the longer common prefix */
	ck_assert_str_eq(hw_gpu_suggest("H100-94GB"), "H100-NVL-94GB");
	ck_assert_str_eq(hw_gpu_suggest("H100-96GB"), "H100-HBM2E-96GB");
	ck_assert_str_eq(hw_gpu_suggest("H200-SXM5"), "H200-SXM-141GB");
	ck_assert_str_eq(hw_gpu_suggest("L40"), "L40S");
}
END_TEST

START_TEST(pcie_and_nics)
{
	ck_assert_double_eq_tol(hw_pcie_Bps(5), 55.4e9, 1e6);    /* measured H200 H2D */
	ck_assert(hw_pcie_Bps(4) > 25e9 && hw_pcie_Bps(4) < 30e9);
	ck_assert(hw_pcie_Bps(3) < hw_pcie_Bps(4) && hw_pcie_Bps(5) < hw_pcie_Bps(6));
	hw_nic r = {.count = 1, .speed_Bps = 50e9, .transport = TRANSPORT_RDMA};
	hw_nic t = {.count = 1, .speed_Bps = 4e9, .transport = TRANSPORT_TCP};
	hw_nic_defaults(&r, 8);
	hw_nic_defaults(&t, 8);
	ck_assert_double_eq_tol(r.efficiency * 50, 47, 0.01);     /* NCCL-NV-003 */
	ck_assert(r.latency_s > 0 && t.latency_s > r.latency_s);
	/* TCP's measured 0.96 (#209), no more than RDMA's 0.94 */
	ck_assert_double_eq_tol(hw_nic_efficiency(&t, 1), 0.94, 1e-12);
	ck_assert_double_eq_tol(hw_nic_efficiency(&r, 8), 0.94, 1e-12);   /* RDMA: no sharing law */
	double e8 = hw_nic_efficiency(&t, 8);
	ck_assert_msg(e8 > 0.4 && e8 < 0.6, "TCP with 8 GPUs per NIC: %g", e8);
	/* GPUDirect over TCP: TCP's latency and framing (no better than RDMA's),
	 * without the host copy that the sharing law charges */
	hw_nic g = {.count = 8, .speed_Bps = 25e9, .transport = TRANSPORT_GDTCP};
	hw_nic_defaults(&g, 8);
	ck_assert_double_eq(g.latency_s, t.latency_s);
	ck_assert_double_eq_tol(hw_nic_efficiency(&g, 8), 0.94, 1e-12);   /* TCP's, at most RDMA's */
	ck_assert_str_eq(hw_transport_name(TRANSPORT_GDTCP), "GPUDirect-TCP");
	hw_nic keep = {.speed_Bps = 1, .transport = TRANSPORT_TCP, .efficiency = 0.7, .latency_s = 1};
	hw_nic_defaults(&keep, 8);
	ck_assert_double_eq(keep.efficiency, 0.7);
	/* NCCL's sockets: one communicator's ring channels through a NIC (its
	 * search on the GPU-to-NIC path, the smaller of the line and NCCL's PCIe
	 * figure: 2 at 100 Gb/s; at 400 Gb/s 2 behind Gen4, 4 behind Gen5) x
	 * sockets a connection x 2 GB/s, below line rate unless tuned */
	hw_nic s100 = {.count = 1, .speed_Bps = 12.5e9, .transport = TRANSPORT_TCP};
	hw_nic_defaults(&s100, 1);
	ck_assert_int_eq(hw_nic_ring_channels(&s100, ARCH_AMPERE, 4), 2);
	ck_assert_double_eq_tol(hw_nic_Bps(&s100, 1, ARCH_AMPERE, 4), 4e9, 1);
	hw_nic s400 = s100;
	s400.speed_Bps = 50e9;
	ck_assert_int_eq(hw_nic_ring_channels(&s400, ARCH_AMPERE, 4), 2);   /* PCIe Gen4: 24 */
	ck_assert_int_eq(hw_nic_ring_channels(&s400, ARCH_HOPPER, 5), 4);   /* Gen5: 48, doubled */
	ck_assert_double_eq_tol(hw_nic_Bps(&s400, 1, ARCH_HOPPER, 5), 8e9, 1);
	/* 8 such NICs on Hopper: 8 graph channels at 48 GB/s, not doubled, 2 a NIC */
	s400.count = 8;
	ck_assert_int_eq(hw_nic_ring_channels(&s400, ARCH_HOPPER, 5), 2);
	hw_nic tuned = s100;
	tuned.sockets = 16;   /* NCCL_SOCKET_NTHREADS=4 NCCL_NSOCKS_PERTHREAD=4: line rate */
	ck_assert_double_eq_tol(hw_nic_Bps(&tuned, 1, ARCH_AMPERE, 4), 12.5e9 * 0.94, 1);
	tuned.sockets = 0;
	tuned.socket_Bps = 5e9;
	ck_assert_double_eq_tol(hw_nic_Bps(&tuned, 1, ARCH_AMPERE, 4), 10e9, 1);
	/* the sockets bound the NIC, the sharing law's fraction of the line below
	 * them: the smaller of the two (8 GPUs: 0.49 of 12.5 > 4) */
	ck_assert_double_eq_tol(hw_nic_Bps(&s100, 8, ARCH_AMPERE, 4), 4e9, 1);
	hw_nic s10 = {.count = 1, .speed_Bps = 1.25e9, .transport = TRANSPORT_TCP};
	ck_assert_double_eq_tol(hw_nic_Bps(&s10, 1, ARCH_AMPERE, 4), 1.25e9 * 0.94, 1);
	hw_nic rd = {.count = 1, .speed_Bps = 12.5e9, .transport = TRANSPORT_RDMA};
	ck_assert_double_eq_tol(hw_nic_Bps(&rd, 1, ARCH_AMPERE, 4), 12.5e9 * 0.94, 1);
	ck_assert(isinf(hw_nic_socket_cap(&rd, 2)));
	ck_assert_double_eq_tol(hw_nic_socket_cap(&s100, HW_P2P_NET_CHANNELS), 4e9, 1);
}
END_TEST

START_TEST(routes_nvswitch_and_pxn)
{
	scn_cluster c = dgx(2, "A100", 200);
	env e;
	env_build(&e, &c);
	int l[CLUSTER_MAX_ROUTE];
	int n = cluster_route(e.cl, 1, 2, -1, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_NVLINK), 2);
	ck_assert_int_eq(cluster_route(e.cl, 3, 3, -1, l, CLUSTER_MAX_ROUTE), 0);
	/* own rail: PCIe, NIC, NIC, PCIe */
	n = cluster_route(e.cl, 3, 11, -1, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_NIC), 2);
	/* rail 5 from GPU 3 to GPU 11: NVLink to GPU 5 and from GPU 13 (PXN) */
	n = cluster_route(e.cl, 3, 11, 5, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(n, 8);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_NVLINK), 4);
	ck_assert_int_eq(cluster_rail_of(e.cl, 13), 5);
	ck_assert_int_eq(cluster_rail_gpu(e.cl, 1, 5), 13);
	ck_assert_double_eq_tol(cluster_flow_cap(e.cl, 0, 8), 25e9 * 0.94, 1);
	ck_assert_double_eq_tol(cluster_flow_cap(e.cl, 0, 1), 240e9, 1);
	ck_assert_double_eq_tol(cluster_route_latency(e.cl, 0, 8, -1),
	                        cluster_spec(e.cl)->nic.latency_s + 600e-9, 1e-12);
	ck_assert_int_lt(cluster_route(e.cl, 0, 99, -1, l, CLUSTER_MAX_ROUTE), 0);
	env_free(&e);
	/* NIC ownership, whatever the NICs per node: a GPU owns its default
	 * NIC (no PXN to reach it), every NIC has an owner, the GPU PXN moves
	 * data to owns the NIC, and with at least as many NICs as GPUs each NIC
	 * has exactly one owner (12 for 8 GPUs: 1 or 2 each) */
	static const int nics[] = {1, 2, 3, 4, 8, 12, 16, 32};
	for (size_t i = 0; i < sizeof nics / sizeof nics[0]; i++) {
		c = dgx(2, "H100", 400);
		c.nic.count = nics[i];
		env_build(&e, &c);
		for (int g = 0; g < 8; g++)
			ck_assert_msg(cluster_gpu_has_rail(e.cl, g, cluster_rail_of(e.cl, g)),
			              "%d NICs: GPU %d lacks its own NIC", nics[i], g);
		for (int r = 0; r < nics[i]; r++) {
			int owners = 0;
			for (int g = 0; g < 8; g++)
				owners += cluster_gpu_has_rail(e.cl, g, r);
			ck_assert_msg(owners >= 1 && (nics[i] < 8 || owners == 1), "%d NICs: NIC %d has %d "
			              "owners", nics[i], r, owners);
			ck_assert(cluster_gpu_has_rail(e.cl, cluster_rail_gpu(e.cl, 1, r), r));
			ck_assert_int_eq(cluster_rail_gpu(e.cl, 1, r) / 8, 1);
		}
		/* the default route never detours over NVLink */
		n = cluster_route(e.cl, 1, 9, -1, l, CLUSTER_MAX_ROUTE);
		ck_assert_int_eq(count_kind(&e, l, n, LINK_NVLINK), 0);
		env_free(&e);
	}
}
END_TEST

START_TEST(routes_fattree_rail_zones)
{
	scn_cluster c = dgx(8, "H100", 400);
	c.fabric.topology = TOPO_FAT_TREE;
	c.fabric.nodes_per_leaf = 4;
	c.fabric.oversubscription = 4;
	env e;
	env_build(&e, &c);
	int l[CLUSTER_MAX_ROUTE];
	int n = cluster_route(e.cl, 0, 8, -1, l, CLUSTER_MAX_ROUTE);     /* same leaf */
	ck_assert_int_eq(count_kind(&e, l, n, LINK_FABRIC), 0);
	n = cluster_route(e.cl, 0, 40, -1, l, CLUSTER_MAX_ROUTE);        /* leaf 0 -> 1 */
	ck_assert_int_eq(count_kind(&e, l, n, LINK_FABRIC), 2);
	for (int i = 0; i < n; i++)
		if (flow_link_kind(e.net, l[i]) == LINK_FABRIC)      /* 4 nodes x 50 GB/s / 4 */
			ck_assert_double_eq_tol(flow_link_capacity(e.net, l[i]), 50e9, 1);
	ck_assert_double_eq_tol(cluster_route_latency(e.cl, 0, 40, -1),
	                        cluster_spec(e.cl)->nic.latency_s + 3 * 600e-9, 1e-12);
	env_free(&e);

	c.fabric.topology = TOPO_RAIL_OPTIMIZED;
	env_build(&e, &c);
	n = cluster_route(e.cl, 0, 40, 0, l, CLUSTER_MAX_ROUTE);    /* same rail, other group */
	ck_assert_int_eq(count_kind(&e, l, n, LINK_FABRIC), 2);
	n = cluster_route(e.cl, 0, 8, 0, l, CLUSTER_MAX_ROUTE);     /* same rail and group */
	ck_assert_int_eq(count_kind(&e, l, n, LINK_FABRIC), 0);
	n = cluster_route(e.cl, 0, 9, -1, l, CLUSTER_MAX_ROUTE);    /* rail 0 -> rail 1 */
	ck_assert_int_eq(count_kind(&e, l, n, LINK_FABRIC), 2);
	env_free(&e);

	c.fabric.topology = TOPO_ZONES;
	c.fabric.zones = 2;
	c.fabric.zone_bandwidth_Bps = 100e9 / 8;
	c.fabric.zone_latency_s = 1e-3;
	env_build(&e, &c);
	n = cluster_route(e.cl, 0, 40, -1, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_ZONE), 1);
	ck_assert(cluster_route_latency(e.cl, 0, 40, -1) > 1e-3);
	n = cluster_route(e.cl, 0, 8, -1, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_ZONE), 0);
	/* storage in zone 0: a node of zone 1 reaches it over the zone link */
	n = cluster_route_storage(e.cl, 40, false, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_ZONE), 0);   /* frontend network */
	env_free(&e);
	c.storage.network = STORAGE_NET_SHARED;
	env_build(&e, &c);
	n = cluster_route_storage(e.cl, 40, true, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_ZONE), 1);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_NIC), 1);
	env_free(&e);
}
END_TEST

START_TEST(storage_and_local)
{
	scn_cluster c = dgx(2, "A100", 200);
	env e;
	env_build(&e, &c);
	int l[CLUSTER_MAX_ROUTE];
	int n = cluster_route_storage(e.cl, 9, false, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(n, 3);                            /* storage, frontend, PCIe */
	ck_assert_int_eq(count_kind(&e, l, n, LINK_STORAGE), 2);
	ck_assert_double_eq_tol(flow_link_capacity(e.net, l[0]), 100e9, 1);
	ck_assert_double_eq_tol(flow_link_capacity(e.net, l[1]), 25e9, 1);
	ck_assert_double_eq_tol(flow_link_latency(e.net, l[0]), 1e-3, 1e-12);
	ck_assert_int_eq(cluster_route_local(e.cl, 9, true, false, l, CLUSTER_MAX_ROUTE), 1);
	ck_assert_int_lt(cluster_route_local(e.cl, 9, true, true, l, CLUSTER_MAX_ROUTE), 0);
	env_free(&e);
	c.cache.present = true;
	c.cache.bandwidth_Bps = 8e9;
	env_build(&e, &c);
	n = cluster_route_local(e.cl, 9, true, true, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(n, 2);
	ck_assert_double_eq_tol(flow_link_capacity(e.net, l[0]), 8e9, 1);
	env_free(&e);
}
END_TEST

START_TEST(mesh_and_pcie)
{
	scn_cluster c = dgx(1, "MI300X", 400);
	c.intra.kind = INTRA_NVLINK_MESH;
	env e;
	env_build(&e, &c);
	int l[CLUSTER_MAX_ROUTE];
	ck_assert_int_eq(cluster_route(e.cl, 2, 5, -1, l, CLUSTER_MAX_ROUTE), 1);
	ck_assert_double_eq_tol(flow_link_capacity(e.net, l[0]), 448e9 * 0.75 / 7, 1);   /* 48 GB/s a link (AMD) */
	env_free(&e);
	c = dgx(1, "L40S", 100);
	c.intra.kind = INTRA_PCIE;
	env_build(&e, &c);
	int n = cluster_route(e.cl, 2, 5, -1, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_PCIE), 2);
	ck_assert_double_eq_tol(cluster_intra_Bps(e.cl), hw_pcie_Bps(4), 1);
	env_free(&e);
}
END_TEST

/* NVLink bridges: one link inside a bridge group, the PCIe path across
 * groups; a flow's cap is the bridge's; a node that does not split into the
 * groups is refused. */
START_TEST(bridged_pcie)
{
	scn_cluster c = dgx(1, "H100-NVL-94GB", 100);
	c.intra.kind = INTRA_PCIE;
	c.intra.bridge = 2;
	env e;
	env_build(&e, &c);
	int l[CLUSTER_MAX_ROUTE];
	ck_assert_int_eq(cluster_route(e.cl, 4, 5, -1, l, CLUSTER_MAX_ROUTE), 1);
	ck_assert_int_eq(count_kind(&e, l, 1, LINK_NVLINK), 1);
	ck_assert_double_eq_tol(flow_link_capacity(e.net, l[0]), 300e9 * 20.6 / 25, 1);
	int n = cluster_route(e.cl, 5, 6, -1, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_PCIE), 2);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_NVLINK), 0);
	ck_assert(cluster_same_bridge(e.cl, 6, 7) && !cluster_same_bridge(e.cl, 5, 6));
	ck_assert_double_eq_tol(cluster_flow_cap(e.cl, 0, 1), 300e9 * 20.6 / 25, 1);
	ck_assert_double_eq_tol(cluster_flow_cap(e.cl, 1, 2), hw_pcie_Bps(5), 1);
	env_free(&e);
	char err[256] = "";
	c.intra.bridge = 3;
	sim *s = sim_new(1, 0);
	flownet *net = flow_new(s);
	ck_assert_ptr_null(cluster_build(&c, net, err, sizeof err));
	ck_assert(strstr(err, "bridge") != NULL);
	flow_free(net);
	sim_free(s);
}
END_TEST

START_TEST(bad_specs)
{
	char err[256] = "";
	sim *s = sim_new(1, 0);
	flownet *net = flow_new(s);
	scn_cluster c = dgx(0, "A100", 200);
	ck_assert_ptr_null(cluster_build(&c, net, err, sizeof err));
	ck_assert(strstr(err, "nodes") != NULL);
	c = dgx(2, "L40S", 200);                     /* no NVLink on an NVSwitch node */
	ck_assert_ptr_null(cluster_build(&c, net, err, sizeof err));
	ck_assert(strstr(err, "pcie") != NULL);
	c = dgx(4, "A100", 200);
	c.fabric.topology = TOPO_ZONES;
	c.fabric.zones = 2;
	ck_assert_ptr_null(cluster_build(&c, net, err, sizeof err));
	ck_assert(strstr(err, "zone_bandwidth") != NULL);
	flow_free(net);
	sim_free(s);
}
END_TEST

/* Links grow as O(nodes * (gpus + nics)): doubling the nodes at most doubles
 * them (a 1024-node fat-tree stays well under 100k links). */
START_TEST(link_count_linear)
{
	int counts[2];
	for (int k = 0; k < 2; k++) {
		scn_cluster c = dgx(512 << k, "H100", 400);
		c.fabric.topology = TOPO_FAT_TREE;
		c.fabric.nodes_per_leaf = 16;
		env e;
		env_build(&e, &c);
		counts[k] = flow_link_count(e.net);
		env_free(&e);
	}
	ck_assert_int_le(counts[1], 2 * counts[0] + 8);
	ck_assert_int_ge(counts[1], 2 * counts[0] - 8);
	ck_assert_int_lt(counts[1], 1024 * 60);
}
END_TEST

/* Fabric links crossed by the cross-node ring 0 -> 1 -> ... -> nodes-1 -> 0
 * on rail 0 (NCCL's ring of one rail). */
static int ring_fabric_links(const env *e, int nodes)
{
	int l[CLUSTER_MAX_ROUTE], k = 0;
	for (int i = 0; i < nodes; i++) {
		int n = cluster_route(e->cl, i * 8, ((i + 1) % nodes) * 8, 0, l, CLUSTER_MAX_ROUTE);
		ck_assert_int_gt(n, 0);
		k += count_kind(e, l, n, LINK_FABRIC);
	}
	return k;
}

/* 8 nodes, 4 per leaf. packed: nodes 0-3 on leaf 0, the ring crosses the
 * spine twice (3->4, 7->0), 2 links each; spread over the same 2 leaves:
 * every edge crosses. Rail-optimized groups follow the same map. */
START_TEST(placement_spread_routes)
{
	scn_cluster c = dgx(8, "H100", 400);
	c.fabric.topology = TOPO_FAT_TREE;
	c.fabric.nodes_per_leaf = 4;
	c.fabric.oversubscription = 4;
	env e;
	env_build(&e, &c);
	ck_assert_int_eq(ring_fabric_links(&e, 8), 2 * 2);
	env_free(&e);
	c.fabric.placement = FABRIC_SPREAD;          /* leaves 0: ceil(8 / 4) = 2 */
	env_build(&e, &c);
	ck_assert_int_eq(ring_fabric_links(&e, 8), 8 * 2);
	int l[CLUSTER_MAX_ROUTE];
	int n = cluster_route(e.cl, 0, 16, 0, l, CLUSTER_MAX_ROUTE);   /* nodes 0, 2: leaf 0 */
	ck_assert_int_eq(count_kind(&e, l, n, LINK_FABRIC), 0);
	env_free(&e);
	c.fabric.leaves = 8;                         /* one node per leaf */
	env_build(&e, &c);
	ck_assert_int_eq(ring_fabric_links(&e, 8), 8 * 2);
	n = cluster_route(e.cl, 0, 16, 0, l, CLUSTER_MAX_ROUTE);
	ck_assert_int_eq(count_kind(&e, l, n, LINK_FABRIC), 2);
	env_free(&e);
	c.fabric.leaves = 2;
	c.fabric.topology = TOPO_RAIL_OPTIMIZED;
	env_build(&e, &c);
	ck_assert_int_eq(ring_fabric_links(&e, 8), 8 * 2);
	env_free(&e);
	c.fabric.placement = FABRIC_PACKED;
	env_build(&e, &c);
	ck_assert_int_eq(ring_fabric_links(&e, 8), 2 * 2);
	env_free(&e);
	/* a spread job needs leaves enough to hold its nodes */
	char err[256] = "";
	sim *s = sim_new(1, 0);
	flownet *net = flow_new(s);
	c.fabric.topology = TOPO_FAT_TREE;
	c.fabric.placement = FABRIC_SPREAD;
	c.fabric.leaves = 1;
	ck_assert_ptr_null(cluster_build(&c, net, err, sizeof err));
	ck_assert(strstr(err, "leaves") != NULL);
	flow_free(net);
	sim_free(s);
}
END_TEST

/* A data-parallel all-reduce over all 64 GPUs of 8 DGX H100 (one ring per
 * rail, 1 GiB). At 4:1 a leaf's uplinks per plane carry one node's NIC:
 * packed, one ring flow per leaf and plane crosses and fits; spread, four do
 * and share it, so the cross-node part runs ~4x slower. Non-blocking, the
 * placement does not matter. */
/* A 1 GiB ring all-reduce over ranks 0, stride, 2 stride, ... (n of them),
 * its flows standing for `mult` siblings. */
static double ring_allreduce_s(const scn_cluster *c, int n, int stride, double mult)
{
	int ranks[64];
	ck_assert_int_le(n, 64);
	for (int i = 0; i < n; i++)
		ranks[i] = i * stride;
	coll_req req = {.op = COLL_ALL_REDUCE, .algo = ALGO_RING, .ranks = ranks, .n = n,
	                .bytes = 1073741824.0, .mult = mult};
	char err[256] = "";
	double t = coll_time_isolated(c, &req, err, sizeof err);
	ck_assert_msg(t > 0, "coll_time_isolated: %s", err);
	return t;
}

static double allreduce_s(const scn_cluster *c)
{
	return ring_allreduce_s(c, 64, 1, 1);
}

START_TEST(placement_spread_slower_oversubscribed)
{
	scn_cluster c = dgx(8, "H100", 400);
	c.fabric.topology = TOPO_FAT_TREE;
	c.fabric.nodes_per_leaf = 4;
	c.fabric.oversubscription = 4;
	double packed = allreduce_s(&c);
	c.fabric.placement = FABRIC_SPREAD;
	double spread = allreduce_s(&c);
	ck_assert_msg(spread > 2.5 * packed, "4:1: spread %g s vs packed %g s", spread, packed);
	ck_assert_msg(spread < 4.5 * packed, "4:1: spread %g s vs packed %g s", spread, packed);
	c.fabric.oversubscription = 1;
	double spread1 = allreduce_s(&c);
	c.fabric.placement = FABRIC_PACKED;
	double packed1 = allreduce_s(&c);
	ck_assert_double_eq_tol(spread1 / packed1, 1, 0.01);
	ck_assert_double_eq_tol(packed / packed1, 1, 0.01);
}
END_TEST

/* A flow standing for its tensor-parallel siblings (coll_req.mult) loads a
 * leaf uplink once per sibling on the plane's NIC: with one NIC a node, all
 * 8 siblings cross the same 4:1 uplink, and the all-reduce of rail 0's
 * GPUs takes 8x as long with mult 8 as alone (it took 2x, bound by the NIC,
 * when the uplink counted the flow once). With a NIC a GPU, each sibling
 * has its own plane and mult changes nothing. */
START_TEST(siblings_load_uplinks)
{
	scn_cluster c = dgx(8, "H100", 400);
	c.fabric.topology = TOPO_FAT_TREE;
	c.fabric.nodes_per_leaf = 1;
	c.fabric.oversubscription = 4;
	c.nic.count = 1;
	double one = ring_allreduce_s(&c, 8, 8, 1), eight = ring_allreduce_s(&c, 8, 8, 8);
	ck_assert_msg(eight > 7 * one && eight < 9 * one, "%g s vs %g s", eight, one);
	c.nic.count = 8;
	one = ring_allreduce_s(&c, 8, 8, 1);
	eight = ring_allreduce_s(&c, 8, 8, 8);
	ck_assert_double_eq_tol(eight / one, 1, 0.01);
}
END_TEST

/* background_load takes its share of every leaf uplink: the capacity left
 * is (1 - load) x nodes_per_leaf x speed / oversubscription, and an
 * all-reduce bound by the uplinks takes 1 / (1 - load) as long. */
START_TEST(background_load_uplinks)
{
	scn_cluster c = dgx(8, "H100", 400);
	c.fabric.topology = TOPO_FAT_TREE;
	c.fabric.nodes_per_leaf = 4;
	c.fabric.oversubscription = 4;
	c.fabric.placement = FABRIC_SPREAD;
	double t0 = allreduce_s(&c);
	double load[] = {0.5, 0.75};
	for (int k = 0; k < 2; k++) {
		c.fabric.background_load = load[k];
		env e;
		env_build(&e, &c);
		int l[CLUSTER_MAX_ROUTE];
		int n = cluster_route(e.cl, 0, 8, 0, l, CLUSTER_MAX_ROUTE);
		ck_assert_int_eq(count_kind(&e, l, n, LINK_FABRIC), 2);
		for (int i = 0; i < n; i++)
			if (flow_link_kind(e.net, l[i]) == LINK_FABRIC)   /* 4 x 50 GB/s / 4 */
				ck_assert_double_eq_tol(flow_link_capacity(e.net, l[i]),
				                        50e9 * (1 - load[k]), 1);
		env_free(&e);
		double t = allreduce_s(&c);
		ck_assert_msg(fabs(t / t0 - 1 / (1 - load[k])) < 0.05 / (1 - load[k]),
		              "load %g: %g s vs %g s unloaded", load[k], t, t0);
	}
	/* single-switch: no uplinks, nothing to load */
	c = dgx(8, "H100", 400);
	double s0 = allreduce_s(&c);
	c.fabric.background_load = 0.5;
	ck_assert_double_eq_tol(allreduce_s(&c), s0, s0 * 1e-9);
}
END_TEST

START_TEST(topology_names)
{
	ck_assert_str_eq(topo_name(TOPO_FAT_TREE), "fat-tree");
	ck_assert_str_eq(topo_name(TOPO_RAIL_OPTIMIZED), "rail-optimized");
	ck_assert_str_eq(topo_name(TOPO_ZONES), "zones");
	ck_assert_str_eq(topo_name(TOPO_SINGLE_SWITCH), "single-switch");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topo");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, catalog_values);
	tcase_add_test(tc, catalog_new_parts);
	tcase_add_test(tc, catalog_suggest);
	tcase_add_test(tc, pcie_and_nics);
	tcase_add_test(tc, routes_nvswitch_and_pxn);
	tcase_add_test(tc, routes_fattree_rail_zones);
	tcase_add_test(tc, storage_and_local);
	tcase_add_test(tc, mesh_and_pcie);
	tcase_add_test(tc, bridged_pcie);
	tcase_add_test(tc, bad_specs);
	tcase_add_test(tc, link_count_linear);
	tcase_add_test(tc, topology_names);
	tcase_add_test(tc, placement_spread_routes);
	tcase_add_test(tc, placement_spread_slower_oversubscribed);
	tcase_add_test(tc, siblings_load_uplinks);
	tcase_add_test(tc, background_load_uplinks);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
