/* hw.c: the hardware catalog (GPUs, PCIe, NIC transports). Every number has
 * its source next to it; "cm" is ../shared/reference/cost-models.md (its
 * section), "UNVERIFIED" marks a default that no source here confirms. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "hw.h"

#define T 1e12                 /* TFLOP/s */
#define GBs 1e9                /* GB/s */
#define GiB 1073741824.0

/* Columns: name, arch, {fp32, tf32, fp16, bf16, fp8, fp4} dense peak, gemm_eff,
 * HBM bytes, HBM B/s, hbm_eff, NVLink B/s per direction, nvlink_eff,
 * nvls_eff, PCIe gen, TDP (W), power limit (W; 0 in the catalog: none).
 * Peaks: cm 1.6 "Dense peak tensor TFLOPS" (ml-engineering) and vendor data
 * sheets' dense (non-sparse) columns. gemm_eff: cm 4.2 MAMF table (bf16 best
 * shape). hbm_eff: measured where a measurement of that GPU is at hand
 * (A100-SXM4-80GB: HW-AZ-003 triad 1.7 of 2.039 TB/s), else 0.90, Calculon's
 * HBM efficiency for >= 100 MB streams (cm 4.2). nvlink_eff: NCCL's per-link model over the raw per-link rate (cm 1.6:
 * 20/25 V100/A100, 20.6/25 H100, 40.1/50 B200). nvls_eff: NCCL tuning.cc
 * nvlsEfficiency (cm 1.3). SM counts are the compute model's
 * (models/compute.c). TDP: the board power of the vendors' data sheets
 * (V100 SXM2 300, PCIe 250; T4 70; A100 SXM4 400, PCIe 300 (80 GB) / 250
 * (40 GB); A10 150; A40 and RTX A6000 300; H100 SXM5 700, PCIe 350, NVL 400
 * (its upper setting); H200 SXM 700, NVL 600; L40S 350; L4 72; B200 1000;
 * MI300X 750, MI325X 1000, MI350X 1000, MI355X 1400); 0 where no GPU-only
 * figure is published (A10G, GH200's module, H20, an MI250X's GCD). */
/* A card that takes no NVLink bridge. */
#define NO_BRIDGE 0, 0, 0

static const hw_gpu gpus[] = {
	{"V100-SXM2-32GB", ARCH_VOLTA,
	 /* 15.7 fp32, 125 fp16 tensor: V100 data sheet (cm 1.6 "V100 SEC");
	  * no tf32/bf16/fp8 on Volta */
	 {15.7 * T, 0, 125 * T, 0, 0},
	 /* [DERIVED, user-reported] cuBLAS fp16 M=N=K=8192 on a V100 (PCIe,
	  * volta_h884gemm_128x128): ~101 of 112 TFLOP/s, 0.90 of peak (NVIDIA
	  * developer forum, "Understanding IPC and issue slot utilization when
	  * using Tensor Cores", 2019). No MAMF table row for V100: this is the
	  * value for which compute.c's model (x SUSTAIN, size curve, tiling)
	  * gives that GEMM 0.90 of peak. Was an UNVERIFIED 0.80. */
	 0.976,
	 32 * GiB, 900 * GBs,    /* cm 1.6 HBM "V100 0.9 TB/s" */
	 0.90,
	 150 * GBs, 20.0 / 25.0, /* cm 1.6: 6 links x 25 GB/s; NCCL SM70 20.0 */
	 0, 3, 300, 0, false, NO_BRIDGE},
	{"V100-SXM2-16GB", ARCH_VOLTA,
	 /* the V100 SXM2 with 16 GB (DGX-1, AWS p3): V100 data sheet "V100 for
	  * NVLink" 15.7 fp32, 125 fp16 tensor, as the 32 GB part */
	 {15.7 * T, 0, 125 * T, 0, 0},
	 0.976,                  /* the V100 SXM2 32GB's (same die and clocks) */
	 16 * GiB, 900 * GBs,    /* V100 data sheet: 16 GB HBM2, 900 GB/s */
	 0.90,
	 150 * GBs, 20.0 / 25.0, /* 6 NVLink2 links x 25 GB/s, as the 32 GB part */
	 0, 3, 300, 0, false, NO_BRIDGE},
	{"V100-PCIE-32GB", ARCH_VOLTA,
	 /* V100 data sheet "V100 for PCIe": 14 fp32, 112 fp16 tensor (lower
	  * clocks than SXM2 at 250 W) */
	 {14 * T, 0, 112 * T, 0, 0},
	 0.976,                  /* the V100 entry's, derived from ~101 of 112 TFLOP/s
	                          * measured on a PCIe V100: this part */
	 32 * GiB, 900 * GBs,    /* V100 data sheet: 32 GB HBM2, 900 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 3, 250, 0, false, NO_BRIDGE},
	{"T4", ARCH_TURING,
	 /* T4 data sheet: 8.1 fp32, 65 fp16 mixed-precision tensor (Turing has
	  * no structured sparsity: these are dense); no tf32, bf16 or fp8 on
	  * Turing. 40 SMs: 2560 CUDA cores at 64 per Turing SM (T4 data sheet,
	  * Turing whitepaper); 40 x 1024 fp16 FLOP/clock x 1590 MHz boost = 65.1 */
	 {8.1 * T, 0, 65 * T, 0, 0},
	 /* [DERIVED, user-reported] cuBLAS fp16 4096^3, mean of 100 runs on a
	  * T4: "about 24T" of 65; NVIDIA's reply: power capping to the 70 W
	  * limit, "expected behavior for approximately continuous matrix
	  * multiply operations on a T4" (NVIDIA developer forum, "About GPU peak
	  * performance", thread 264462). No MAMF row: as for the V100, the value
	  * for which compute.c's model gives that GEMM 24 TFLOP/s
	  * (tests/check_topo.c holds it to that) */
	 0.41,
	 16 * GiB, 320 * GBs,    /* T4 data sheet: 16 GB GDDR6, 320+ GB/s */
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 3, 70, 0, false, NO_BRIDGE},                  /* PCIe Gen3 x16 */
	/* GeForce and workstation cards (PCIe, no NVSwitch). Their GEMM fraction
	 * is UNVERIFIED for every one (no MAMF row): the A100 PCIe's 0.811 (cm
	 * 4.2), the nearest measured PCIe card's, as for the A10. GDDR at the
	 * HBM rows' 0.90 (UNVERIFIED). GeForce cards run fp16/bf16 (and fp8)
	 * tensor math with fp32 accumulate, what training uses, at half their
	 * fp16-accumulate rate: that half is their peak here. The sources are
	 * NVIDIA's architecture whitepapers' appendix tables as quoted in public
	 * repositories (this project's spec research, 2026-12-02). */
	{"RTX-2080-TI", ARCH_TURING,
	 /* Turing whitepaper Table 1 (NVIDIA's "Turing Architecture In-Depth"),
	  * reference clocks: fp32 13.4, fp16 tensor with fp32 accumulate 53.8
	  * (107.6 with fp16 accumulate); no tf32, bf16 or fp8 on Turing; 68 SMs */
	 {13.4 * T, 0, 53.8 * T, 0, 0},
	 0.811,
	 11 * GiB, 616 * GBs,    /* 11264 MB GDDR6, 616 GB/s (the same table) */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 3, 250, 0, true,     /* PCIe Gen3 (UNVERIFIED); 250 W reference TDP;
	                          * GeForce: no P2P (over PCIe) */
	 50 * GBs, 20.0 / 25.0, 2},   /* Turing whitepaper: TU102's two x8 NVLink links,
	                          * 25 GB/s a direction each, bridge two cards; NCCL
	                          * SM70 20.0 a link */
	{"QUADRO-RTX-8000", ARCH_TURING,
	 /* Quadro RTX 8000 data sheet (a reseller's copy): fp32 16.3, "130.5
	  * Tensor TFLOPS" fp16 (a workstation card: fp32 accumulate at the same
	  * rate); TU102 with 72 SMs (the Quadro RTX 6000's, the same board;
	  * UNVERIFIED for the 8000) */
	 {16.3 * T, 0, 130.5 * T, 0, 0},
	 0.811,
	 48 * GiB, 672 * GBs,    /* 48 GB GDDR6, 672 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 3, 295, 0, false,    /* PCIe 3.0 x16; 295 W maximum */
	 50 * GBs, 20.0 / 25.0, 2},   /* data sheet: NVLink "connects 2 Quadro RTX 8000
	                          * GPUs", 100 GB/s both ways; NCCL SM70 20.0 a link */
	{"A100-SXM4-40GB", ARCH_AMPERE,
	 /* cm 1.6: 312 bf16/fp16, 156 tf32; 19.5 fp32: A100 data sheet */
	 {19.5 * T, 156 * T, 312 * T, 312 * T, 0},
	 0.869,                  /* cm 4.2 A100 SXM MAMF 271.2/312 (same die) */
	 40 * GiB, 1555 * GBs,   /* cm 1.6 "A100 40GB 1.555 TB/s [SEC]" */
	 0.90,
	 300 * GBs, 20.0 / 25.0, /* cm 1.6: 12 links x 25 GB/s; NCCL SM80 20.0 */
	 0, 4, 400, 0, false, NO_BRIDGE},
	{"A100-SXM4-80GB", ARCH_AMPERE,
	 {19.5 * T, 156 * T, 312 * T, 312 * T, 0},
	 0.869,                  /* cm 4.2 A100 SXM MAMF 271.2 / 312 */
	 80 * GiB, 2039 * GBs,   /* A100 80GB data sheet 2,039 GB/s (cm 1.6: 2.0 TB/s) */
	 1.7 / 2.039,            /* HW-AZ-003: measured triad 1.7 TB/s on this GPU (Azure
	                          * ND A100 v4) = 0.834 of spec */
	 300 * GBs, 20.0 / 25.0,
	 0, 4, 400, 0, false, NO_BRIDGE},
	{"A800-SXM4-80GB", ARCH_AMPERE,
	 /* the A100 SXM4 80GB die and memory with 8 NVLink links instead of 12:
	  * "NVLink 400 GB/s" bidirectional (NVIDIA A800 product brief), i.e.
	  * 200 GB/s per direction; compute and HBM as the A100 80GB data sheet */
	 {19.5 * T, 156 * T, 312 * T, 312 * T, 0},
	 0.869,                  /* the A100 SXM MAMF (same die, cm 4.2) */
	 80 * GiB, 2039 * GBs,
	 1.7 / 2.039,            /* the A100 80GB triad (HW-AZ-003), same memory */
	 200 * GBs, 20.0 / 25.0, /* 8 links x 25 GB/s; NCCL SM80 20.0 per link */
	 0, 4, 400, 0, false, NO_BRIDGE},
	{"A100-PCIE-80GB", ARCH_AMPERE,
	 {19.5 * T, 156 * T, 312 * T, 312 * T, 0},
	 0.811,                  /* cm 4.2 A100 PCIe MAMF 252.9 / 312 */
	 80 * GiB, 1935 * GBs,   /* A100 80GB PCIe data sheet 1,935 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 4, 300, 0, false,
	 300 * GBs, 20.0 / 25.0, 2},  /* data sheet: "NVLink Bridge for 2 GPUs: 600 GB/s"
	                          * both ways (three bridges, 12 links); NCCL SM80 20.0 */
	{"A100-PCIE-40GB", ARCH_AMPERE,
	 {19.5 * T, 156 * T, 312 * T, 312 * T, 0},
	 0.811,                  /* cm 4.2 A100 PCIe MAMF 252.9 / 312 (the 80 GB card) */
	 40 * GiB, 1555 * GBs,   /* A100 data sheet, A100 40GB PCIe: 40 GB HBM2,
	                          * 1,555 GB/s */
	 0.90,
	 0, 0,                   /* as the 80 GB card */
	 0, 4, 250, 0, false,
	 300 * GBs, 20.0 / 25.0, 2},
	{"A10", ARCH_AMPERE,
	 /* A10 data sheet dense (its starred values, twice these, are sparse):
	  * fp32 31.2, tf32 62.5, bf16/fp16 125; no fp8 on Ampere. 72 SMs at a
	  * 1695 MHz boost (GA102 as the A10 ships it; third-party listings, e.g.
	  * sysrqmts.com): 72 x 1024 dense fp16 FLOP/clock x 1695 MHz = 125.0 */
	 {31.2 * T, 62.5 * T, 125 * T, 125 * T, 0},
	 0.811,                  /* UNVERIFIED: no MAMF row for a GA102 part; the A100
	                          * PCIe fraction (cm 4.2), the nearest measured Ampere
	                          * PCIe card. A 150 W card may hold less (see T4) */
	 24 * GiB, 600 * GBs,    /* A10 data sheet: 24 GB GDDR6, 600 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 4, 150, 0, false, NO_BRIDGE},
	{"A10G", ARCH_AMPERE,
	 /* AWS g5's GA102 with 80 SMs. NVIDIA publishes no data sheet: derived as
	  * SMs x clock x per-SM rate, all UNVERIFIED. Clock: 1710 MHz boost
	  * (third-party listings). Per SM and clock: fp32 256 FLOP (128 lanes),
	  * the A10's (31.2 = 72 x 256 x 1695 MHz); tensor fp16/bf16 with fp32
	  * accumulate 512 dense FLOP, the GeForce GA102 rate, half the A10's 1024:
	  * Baseten ("NVIDIA A10 vs A10G for ML model inference") finds that "the
	  * A10 prioritizes tensor compute, while the A10G has a higher CUDA core
	  * performance". So fp32 80 x 256 x 1.71 GHz = 35.0, bf16/fp16 80 x 512 x
	  * 1.71 GHz = 70.0, tf32 half of that (GA102's ratio) 35.0; were the
	  * A10G at the A10's tensor rate, bf16 would be 140 */
	 {35.0 * T, 35.0 * T, 70.0 * T, 70.0 * T, 0},
	 0.811,                  /* UNVERIFIED: as the A10 */
	 24 * GiB, 600 * GBs,    /* "24 gigabytes of GDDR6 ... 600 gigabytes per second",
	                          * as the A10 (Baseten, same article) */
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 4, 0, 0, false, NO_BRIDGE},                  /* PCIe Gen4 as the A10, UNVERIFIED */
	{"A40", ARCH_AMPERE,
	 /* A40 data sheet dense (starred values are sparse): fp32 37.4, tf32
	  * 74.8, bf16/fp16 149.7. 84 SMs: its 10,752 CUDA cores at 128 per SM
	  * (84 RT cores, 336 tensor cores: one and four per SM) */
	 {37.4 * T, 74.8 * T, 149.7 * T, 149.7 * T, 0},
	 0.811,                  /* UNVERIFIED: as the A10 */
	 48 * GiB, 696 * GBs,    /* A40 data sheet: 48 GB GDDR6 with ECC, 696 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 4, 300, 0, false,
	 56.25 * GBs, 12.0 / 14.0625, 2},  /* data sheet: NVLink bridge for two cards,
	                          * 112.5 GB/s both ways (4 links of 14.0625 GB/s a
	                          * direction, as nvidia-smi nvlink -s shows on the RTX
	                          * A6000); NCCL SM86 12.0 a link */
	{"RTX-A6000", ARCH_AMPERE,
	 /* RTX A6000 data sheet: 38.7 fp32; its "Tensor Performance" 309.7 is
	  * with sparsity (as the RTX A4000's 153.4 for 48 SMs), so dense
	  * bf16/fp16 154.8 = 84 SMs x 1024 FLOP/clock x 1800 MHz boost; tf32
	  * half of that, the A40 sheet's ratio, 77.4: derived, UNVERIFIED */
	 {38.7 * T, 77.4 * T, 154.8 * T, 154.8 * T, 0},
	 0.811,                  /* UNVERIFIED: as the A10 */
	 48 * GiB, 768 * GBs,    /* RTX A6000 data sheet: 48 GB GDDR6 ECC, 768 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 4, 300, 0, false,
	 56.25 * GBs, 12.0 / 14.0625, 2},  /* as the A40: 112.5 GB/s both ways, NCCL SM86 */
	{"A30", ARCH_AMPERE,
	 /* A30 data sheet dense (its "up to" values are sparse, twice these):
	  * fp32 10.3, tf32 82.5, bf16/fp16 165. 56 SMs: 165 / (2048 dense fp16
	  * FLOP per SM and clock x 1440 MHz boost), derived, UNVERIFIED */
	 {10.3 * T, 82.5 * T, 165 * T, 165 * T, 0},
	 0.811,
	 24 * GiB, 933 * GBs,    /* A30 data sheet: 24 GB HBM2, 933 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 4, 165, 0, false,
	 100 * GBs, 20.0 / 25.0, 2},  /* data sheet: third-generation NVLink, 200 GB/s
	                          * both ways, a bridge for two cards; NCCL SM80 20.0 */
	{"RTX-3090", ARCH_AMPERE,
	 /* GA102 whitepaper, GeForce RTX 3090: fp32 35.6, tf32 35.6, fp16/bf16
	  * tensor with fp32 accumulate 71.2 (the RTX Blackwell whitepaper's
	  * Table 3, 3090 column; 71 in the GA102 one); no fp8 on Ampere; 82 SMs */
	 {35.6 * T, 35.6 * T, 71.2 * T, 71.2 * T, 0},
	 0.811,
	 24 * GiB, 936 * GBs,    /* 24 GB GDDR6X, 936 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 4, 350, 0, true,     /* PCIe Gen4 (GA102; the card's UNVERIFIED); 350 W;
	                          * GeForce: no P2P over PCIe (the NCCL maintainer's
	                          * word for GeForce; users report it on some 3090
	                          * drivers) */
	 56.25 * GBs, 12.0 / 14.0625, 2},  /* a 2-way bridge, 112.5 GB/s both ways (GA102's
	                          * four links, as the RTX A6000's); NCCL SM86 12.0 */
	{"H100-SXM5-80GB", ARCH_HOPPER,
	 /* cm 1.6: 989 bf16, 1979 fp8, 494.5 tf32; 66.9 fp32: H100 data sheet */
	 {66.9 * T, 494.5 * T, 989.4 * T, 989.4 * T, 1978.9 * T},
	 0.803,                  /* cm 4.2 H100 SXM MAMF 794.5 / 989 */
	 80 * GiB, 3352 * GBs,   /* cm 1.6 "H100 SXM 3.35" TB/s */
	 0.90,
	 450 * GBs, 20.6 / 25.0, /* cm 1.6: 18 links x 25 GB/s; NCCL SM90 20.6 */
	 0.85, 5, 700, 0, false, NO_BRIDGE},               /* cm 1.3 nvlsEfficiency Hopper */
	{"H800-SXM5-80GB", ARCH_HOPPER,
	 /* the H100 SXM5 with 8 NVLink links instead of 18: "NVLink 400 GB/s"
	  * bidirectional (NVIDIA H800 product brief), 200 GB/s per direction;
	  * NCCL sees 164.8 GB/s (8 x 20.6) and opens 16 channels (nccl #892);
	  * tensor-core peaks and HBM3 as the H100 SXM5 */
	 {66.9 * T, 494.5 * T, 989.4 * T, 989.4 * T, 1978.9 * T},
	 0.803,                  /* the H100 SXM MAMF (same die, cm 4.2) */
	 80 * GiB, 3352 * GBs,
	 0.90,
	 200 * GBs, 20.6 / 25.0,
	 0.85, 5, 700, 0, false, NO_BRIDGE},
	{"H100-HBM2E-96GB", ARCH_HOPPER,
	 /* The SXM H100 with six HBM2e stacks instead of five of HBM3, as in
	  * Meta's Grand Teton hosts: "96GB HBM2e with 2.4 TB/sec peak memory
	  * bandwidth", "default 500W power limit" (pytorch/torchtitan
	  * benchmarks/llama3_h100_202412_torchtitan.md), about 94 GiB usable.
	  * Compute as the SXM5 at its rating: the power limit is not modelled
	  * (its sustained clock under 500 W is not published; torchtitan: "the
	  * actual peak TFLOPs number is between SXM and NVL"), so this part's
	  * compute is an upper bound when it runs capped */
	 {66.9 * T, 494.5 * T, 989.4 * T, 989.4 * T, 1978.9 * T},
	 0.803,                  /* the H100 SXM MAMF (same die, cm 4.2) */
	 96 * GiB, 2400 * GBs,
	 0.90,
	 450 * GBs, 20.6 / 25.0, /* HGX baseboard: NVLink4 and NVSwitch as the SXM5 */
	 0.85, 5, 700, 0, false, NO_BRIDGE},
	{"H100-PCIE-80GB", ARCH_HOPPER,
	 /* cm 1.6 "H100 PCIe 756 / 1513 / 378"; 51.2 fp32: H100 PCIe data sheet */
	 {51.2 * T, 378 * T, 756 * T, 756 * T, 1513 * T},
	 0.803,                  /* UNVERIFIED: the SXM MAMF fraction (cm 4.2) */
	 80 * GiB, 2000 * GBs,   /* H100 PCIe data sheet 2 TB/s (HBM2e) */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 5, 350, 0, false,
	 300 * GBs, 20.6 / 25.0, 2},  /* data sheet: NVLink 600 GB/s both ways, a bridge
	                          * for two cards; NCCL SM90 20.6 a link */
	{"H100-NVL-94GB", ARCH_HOPPER,
	 /* H100 NVL data sheet (one GPU): bf16/fp16 1,671 and fp8 3,341
	  * TFLOP/s with sparsity, so 835.5 and 1670.5 dense; tf32 835 sparse,
	  * 417.5 dense; fp32 60 (UNVERIFIED: fp32 and tf32 not checked against
	  * the sheet here). 132 SMs as the SXM5 (a lower clock: 835.5 / (132 x
	  * 4096 FLOP/clock) = 1545 MHz) */
	 {60 * T, 417.5 * T, 835.5 * T, 835.5 * T, 1670.5 * T},
	 0.803,                  /* UNVERIFIED: the SXM MAMF fraction (cm 4.2) */
	 94 * GiB, 3900 * GBs,   /* H100 NVL data sheet: 94 GB HBM3, 3.9 TB/s */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 5, 400, 0, false,
	 300 * GBs, 20.6 / 25.0, 2},  /* data sheet: "NVLink: 600GB/s" both ways, bridges
	                          * joining two cards; NCCL SM90 20.6 a link */
	{"H200-NVL-141GB", ARCH_HOPPER,
	 /* H200 data sheet, H200 NVL column (one PCIe card, up to 600 W):
	  * bf16/fp16 1,671 and fp8 3,341 TFLOP/s with sparsity, so 835.5 and
	  * 1670.5 dense; tf32 835 sparse, 417.5 dense; fp32 60: the H100 NVL's
	  * compute, with the H200's 141 GB HBM3e at 4.8 TB/s */
	 {60 * T, 417.5 * T, 835.5 * T, 835.5 * T, 1670.5 * T},
	 0.803,                  /* UNVERIFIED: the SXM MAMF fraction (cm 4.2) */
	 140 * GiB, 4800 * GBs,  /* as the H200 SXM (same memory) */
	 0.90,
	 0, 0,                   /* no NVLink switch: see the bridge below */
	 0, 5, 600, 0, false,
	 450 * GBs, 20.6 / 25.0, 4},  /* H200 data sheet, NVL column: "2- or 4-way NVIDIA
	                          * NVLink bridge: 900GB/s" a GPU both ways; NCCL SM90 */
	{"GH200-96GB", ARCH_HOPPER,
	 /* The Hopper GPU of a GH200 Grace Hopper superchip: the H100 SXM5's die
	 * and peaks (NVIDIA quotes the same 1,979 / 3,958 sparse bf16 / fp8),
	 * 132 SMs, 96 GB HBM3 at 4 TB/s (Juelich's JUPITER configuration page).
	 * Four to a node (JUPITER, CSCS Alps) joined without a switch: "300 GB/s
	 * between pairs of GPUs (150 GB/s per direction)", 450 GB/s per direction
	 * to its three peers (the same page). Its module's power limit covers
	 * the Grace CPU too (680 W on JUPITER): the H100's sustained clock is
	 * taken, UNVERIFIED there. */
	 {66.9 * T, 494.5 * T, 989.4 * T, 989.4 * T, 1978.9 * T},
	 0.803,                  /* the H100 SXM MAMF (same die, cm 4.2) */
	 96 * GiB, 4000 * GBs,
	 0.90,
	 450 * GBs, 20.6 / 25.0, /* NVLink4 as the H100's, per link NCCL's 20.6 */
	 0, 5, 0, 0, false, NO_BRIDGE},
	{"GH200-144GB", ARCH_HOPPER,
	 /* the HBM3e version: 144 GB (UNVERIFIED: 4.9 TB/s as commonly quoted,
	 * NVIDIA's data sheet not read here); the rest as GH200-96GB */
	 {66.9 * T, 494.5 * T, 989.4 * T, 989.4 * T, 1978.9 * T},
	 0.803,
	 144 * GiB, 4900 * GBs,
	 0.90,
	 450 * GBs, 20.6 / 25.0,
	 0, 5, 0, 0, false, NO_BRIDGE},
	{"H20-96GB", ARCH_HOPPER,
	 /* The Hopper part for China: fp32 44, tf32 74, bf16/fp16 148, fp8 296
	  * dense, 96 GB HBM3 at 4.0 TB/s, NVLink 900 GB/s: the figures of
	  * NVIDIA's partner spec sheet as the press reported them; NVIDIA
	  * publishes no data sheet, UNVERIFIED. 78 SMs UNVERIFIED (as reported;
	  * its tensor rate is capped, so the peaks do not give the count) */
	 {44 * T, 74 * T, 148 * T, 148 * T, 296 * T},
	 0.803,                  /* UNVERIFIED: the H100 SXM MAMF fraction (cm 4.2); a
	                          * part capped below its power may hold more */
	 96 * GiB, 4000 * GBs,
	 0.90,
	 450 * GBs, 20.6 / 25.0, /* 900 GB/s bidirectional = 18 links x 25 GB/s per
	                          * direction, as the H100 SXM; NCCL SM90 20.6 */
	 0.85, 5, 0, 0, false, NO_BRIDGE},               /* HGX H20 boards carry NVSwitch: cm 1.3 Hopper NVLS */
	{"H200-SXM-141GB", ARCH_HOPPER,
	 {66.9 * T, 494.5 * T, 989.4 * T, 989.4 * T, 1978.9 * T},
	 0.803,                  /* cm 4.2: "H200 is the same" as H100 SXM */
	 140 * GiB, 4800 * GBs,  /* cm 1.6 "H200 4.8 (141 GB)"; ~140 GiB usable: UNVERIFIED */
	 0.90,
	 450 * GBs, 20.6 / 25.0, /* cm 1.6 H100/H200 row */
	 0.85, 5, 700, 0, false, NO_BRIDGE},
	{"B200", ARCH_BLACKWELL,
	 /* cm 1.6 "B200 SXM 2250 / 4500 / 1125"; fp32 75: HGX B200 sheet
	  * 600 TFLOPS / 8 GPUs, UNVERIFIED */
	 {75 * T, 1125 * T, 2250 * T, 2250 * T, 4500 * T,
	  9000 * T},                     /* fp4: HGX B200 sheet 144 PFLOPS sparse / 8 GPUs / 2 */
	 0.776,                  /* cm 4.2 B200 SXM MAMF 1745 / 2250 */
	 179 * GiB, 8000 * GBs,  /* cm 1.6 "B200 8.0 (180 GB listed)" */
	 0.90,
	 900 * GBs, 40.1 / 50.0, /* cm 1.6: 18 links x 50 GB/s; NCCL SM100 40.1 */
	 0.74, 5,                /* cm 1.3 nvlsEfficiency Blackwell; host PCIe Gen5 (UNVERIFIED) */
	 1000, 0, false, NO_BRIDGE},               /* TDP: HGX B200 sheet, 1,000 W a GPU */
	{"GB200", ARCH_BLACKWELL,
	 /* one Blackwell GPU of a GB200 superchip: cm 1.6 "GB200 (per chip)
	  * 2500 / 5000 / 1250"; fp32 as B200 (UNVERIFIED) */
	 {75 * T, 1250 * T, 2500 * T, 2500 * T, 5000 * T,
	  10000 * T},                    /* fp4: GB200 NVL72 1,440 PFLOPS sparse / 72 / 2 */
	 0.729,                  /* cm 4.2 GB200 MAMF 1822 / 2500 */
	 186 * GiB, 8000 * GBs,  /* cm 1.6 "GB200 8.0 (186 GB)" */
	 0.90,
	 900 * GBs, 40.1 / 50.0, /* NVLink5 18 x 50 GB/s, the B200 row of cm 1.6; an
	                          * NVL72 rack is one NVLink domain of 72 GPUs */
	 0.74, 5,                /* cm 1.3 nvlsEfficiency Blackwell */
	 1200, 0, false, NO_BRIDGE},               /* TDP: GB200 NVL72, 1,200 W a GPU (UNVERIFIED) */
	{"B300", ARCH_BLACKWELL,
	 /* Blackwell Ultra, one GPU of an HGX/DGX B300 (sm_103; NCCL treats it
	  * as sm_100: topo.h ncclTopoNVLinkBw and the tuner's compute-capability
	  * index take >= 100). cm 1.6 "B300 SXM 2250 / 4500 / 1125", as NVIDIA's
	  * HGX B300 table, which gives the board with
	  * sparsity: 18 / 36 / 72 PFLOPS tf32 / bf16 / fp8, fp32 600 TFLOPS; per
	  * GPU and dense: the B200's compute (Blackwell Ultra cut fp64 and int8,
	  * raised fp4: the HGX B300 table's 108 PFLOPS dense fp4 / 8 GPUs,
	  * UNVERIFIED: read from a copy of NVIDIA's page) */
	 {75 * T, 1125 * T, 2250 * T, 2250 * T, 4500 * T, 13500 * T},
	 0.786,                  /* cm 4.2 B300 SXM MAMF 1769 / 2250 (ml-engineering) */
	 268 * GiB, 8000 * GBs,  /* 288 GB HBM3e (268.6 GiB visible, a user's device
	                          * query, ademeure/QuickRunCUDA); 8 TB/s, NVIDIA's
	                          * "Inside NVIDIA Blackwell Ultra" */
	 0.835,                  /* the same user's copy at 50:50 read/write: 6.68 TB/s */
	 900 * GBs, 40.1 / 50.0, /* NVLink5 18 x 50 GB/s, as the B200 */
	 0.74, 6,                /* nvlsEfficiency Blackwell; the GPU's x16 link to its
	                          * ConnectX-8 is PCIe Gen6 (NVIDIA at Hot Chips 2025) */
	 1100, 0, false, NO_BRIDGE},               /* TDP: HGX B300, 1,100 W a GPU (UNVERIFIED) */
	{"GB300", ARCH_BLACKWELL,
	 /* one Blackwell Ultra GPU of a GB300 NVL72: 360 PFLOPS of dense fp8
	  * per rack of 72 (NVIDIA's GB300 NVL72 figures), 5000 a GPU, bf16 half,
	  * tf32 a quarter, as GB200; fp32 80 (stas00/ml-engineering, UNVERIFIED).
	  * SMs: Blackwell's 148 (152 in some code comments, UNVERIFIED) */
	 {80 * T, 1250 * T, 2500 * T, 2500 * T, 5000 * T,
	  15000 * T},                    /* fp4: GB300 NVL72 1,080 PFLOPS dense / 72, UNVERIFIED
	                          * (a copy of NVIDIA's page; "15 PFLOPS dense NVFP4") */
	 0.786,                  /* UNVERIFIED: the B300's MAMF (same die; no GB300
	                          * bf16 MAMF published; Azure's ND GB300 v6 fp8
	                          * cuBLASLt best is 3308.5 TFLOP/s, 17% above its GB200) */
	 268 * GiB, 8000 * GBs,  /* 288 GB HBM3e at 8 TB/s, as the B300 */
	 0.835,                  /* UNVERIFIED: the B300's measured copy */
	 900 * GBs, 40.1 / 50.0, /* NVLink5; an NVL72 rack is one NVLink domain of 72 */
	 0.74, 6,                /* as the B300: a Gen6 x16 link to its ConnectX-8 */
	 1400, 0, false, NO_BRIDGE},               /* TDP: GB300 NVL72, 1,400 W a GPU (UNVERIFIED) */
	{"L40S", ARCH_ADA,
	 /* L40S data sheet dense columns: fp32 91.6, tf32 183, fp16/bf16
	  * 362.05, fp8 733 (sparse values are twice these) */
	 {91.6 * T, 183 * T, 362.05 * T, 362.05 * T, 733 * T},
	 0.75,                   /* UNVERIFIED: no MAMF row for L40S */
	 48 * GiB, 864 * GBs,    /* L40S data sheet: 48 GB GDDR6, 864 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 4, 350, 0, false, NO_BRIDGE},
	{"L4", ARCH_ADA,
	 /* L4 data sheet dense (its starred values, twice these, are sparse):
	  * fp32 30.3, tf32 60, bf16/fp16 121, fp8 242.5. Check: 58 SMs x 1024
	  * FLOP/clock x 2040 MHz boost (third-party listings) = 121.2 */
	 {30.3 * T, 60 * T, 121 * T, 121 * T, 242.5 * T},
	 0.60,                   /* UNVERIFIED: no MAMF row. A 72 W card: like the T4
	                          * (70 W, 0.41) its clocks fall under a continuous
	                          * GEMM; Ada's process does more per watt than
	                          * Turing's, so taken between the T4 and the L40S */
	 24 * GiB, 300 * GBs,    /* L4 data sheet: 24 GB GDDR6, 300 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 4, 72, 0, false, NO_BRIDGE},
	{"RTX-4090", ARCH_ADA,
	 /* Ada whitepaper v2.02 Appendix A, GeForce RTX 4090: fp32 82.6,
	  * fp16/bf16 tensor with fp32 accumulate 165.2, fp8 with fp32 accumulate
	  * 330.3 (v2.01 printed 660.6), tf32 82.6 (third-party listings); 128
	  * SMs at 2520 MHz */
	 {82.6 * T, 82.6 * T, 165.2 * T, 165.2 * T, 330.3 * T},
	 0.811,
	 24 * GiB, 1008 * GBs,   /* 24 GB GDDR6X, 1008 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink on Ada */
	 0, 4, 450, 0, true, NO_BRIDGE},    /* PCIe 4.0; 450 W; GeForce: no P2P */
	{"RTX-6000-ADA", ARCH_ADA,
	 /* RTX 6000 Ada Generation: fp32 91.1, bf16 tensor with fp32 accumulate
	  * 364 dense (728 sparse; the RTX PRO Blackwell whitepaper's Table 4);
	  * tf32 and fp8 at half and twice that, the L40S data sheet's ratios on
	  * the same AD102 (derived, UNVERIFIED); 142 SMs */
	 {91.1 * T, 182 * T, 364 * T, 364 * T, 728 * T},
	 0.811,
	 48 * GiB, 960 * GBs,    /* 48 GB GDDR6 with ECC, 960 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink on Ada */
	 0, 4, 300, 0, false, NO_BRIDGE},          /* PCIe 4.0 x16; 300 W */
	{"RTX-5090", ARCH_BLACKWELL_RTX,
	 /* RTX Blackwell whitepaper v1.1 Appendix A Table 3, GeForce RTX 5090:
	  * fp32 104.8, tf32 104.8, fp16/bf16 with fp32 accumulate 209.5, fp8
	  * with fp32 accumulate 419, fp4 1676 (not halved); 170 SMs at 2407 MHz */
	 {104.8 * T, 104.8 * T, 209.5 * T, 209.5 * T, 419 * T, 1676 * T},
	 0.811,
	 32 * GiB, 1792 * GBs,   /* 32 GB GDDR7, 1792 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 5, 575, 0, true, NO_BRIDGE},    /* PCIe 5.0 x16; 575 W; GeForce: no P2P */
	{"RTX-PRO-6000", ARCH_BLACKWELL_RTX,
	 /* RTX PRO 6000 Blackwell Workstation Edition: bf16 tensor with fp32
	  * accumulate 503.8 dense (the RTX PRO Blackwell whitepaper's Table 4),
	  * fp4 2000 (4000 "AI TOPS" with sparsity), fp32 125 (NVIDIA's launch
	  * figure as reported); tf32 and fp8 half and twice bf16, every NVIDIA
	  * tensor core's ratios since Ampere (derived, UNVERIFIED); 188 SMs */
	 {125 * T, 251.9 * T, 503.8 * T, 503.8 * T, 1007.6 * T, 2000 * T},
	 0.811,
	 96 * GiB, 1792 * GBs,   /* 96 GB GDDR7 with ECC, 1792 GB/s */
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 5, 600, 0, false, NO_BRIDGE},          /* PCIe Gen5 x16; 600 W */
	{"RTX-PRO-6000-SERVER", ARCH_BLACKWELL_RTX,
	 /* RTX PRO 6000 Blackwell Server Edition (NVIDIA's data sheet, Dec 2025):
	  * 96 GB at 1597 GB/s, fp32 120, power configurable up to 600 W. Its
	  * tensor rates are not given dense ("1 PFLOP FP16/BF16"): the
	  * Workstation card's (UNVERIFIED) */
	 {120 * T, 251.9 * T, 503.8 * T, 503.8 * T, 1007.6 * T, 2000 * T},
	 0.811,
	 96 * GiB, 1597 * GBs,
	 0.90,
	 0, 0,                   /* no NVLink */
	 0, 5, 600, 0, false, NO_BRIDGE},
	{"MI300X", ARCH_CDNA3,
	 /* AMD MI300X data sheet dense: fp32 163.4 (vector), tf32 653.7,
	  * fp16/bf16 1307.4, fp8 2614.9 */
	 {163.4 * T, 653.7 * T, 1307.4 * T, 1307.4 * T, 2614.9 * T},
	 0.514,                  /* cm 4.2 MI300X MAMF 668.4 / 1300 */
	 192 * GiB, 5300 * GBs,  /* MI300X data sheet: 192 GB HBM3, 5.3 TB/s */
	 0.783,                  /* [MEASURED by Azure, ND MI300X v5] STREAM copy 4.15
	                          * TB/s of 5.3 (tests/validation/azure.csv AZX-161;
	                          * its triad, AZX-164, 4.10); was an unsourced 0.90 */
	 448 * GBs, 0.75,        /* 7 Infinity Fabric links x 64 GB/s per direction
	                          * (data sheet 896 GB/s bidirectional); "usable
	                          * bandwidth approximately 48 GB/s per link", 75%
	                          * after CRC and protocol overhead (AMD ROCm blog,
	                          * "Understanding RCCL Bandwidth and xGMI Performance
	                          * on AMD Instinct MI300X", 2025-03-02) */
	 0, 5, 750, 0, false, NO_BRIDGE},
	{"MI250X-GCD", ARCH_CDNA2,
	 /* One GCD of an MI250X: the package holds two, and ROCm, Slurm and the
	  * published runs on Frontier and LUMI count each as one GPU. Half the
	  * MI250X data sheet: fp16/bf16 383 -> 191.5, fp32 matrix 95.7 -> 47.9
	  * (the matrix cores' rate, which an fp32 GEMM runs at; vector 23.9);
	  * no tf32 or fp8 on CDNA2. 110 CUs of 220; 110 x 1024 FLOP/clock x
	  * 1700 MHz = 191.5 */
	 {47.9 * T, 0, 191.5 * T, 191.5 * T, 0},
	 0.767,                  /* ml-engineering MAMF table (its v1 rows; not in cm
	                          * 4.2): 147.0 of 191.5, one GCD, ROCm 6.2 */
	 64 * GiB, 1638.4 * GBs, /* half the data sheet's 128 GB HBM2e, 3.2768 TB/s */
	 0.90,
	 /* Infinity Fabric, not a switch: the two GCDs of a package are joined
	  * by 4 xGMI links, 200 GB/s per direction (AMD at Hot Chips 34: 400
	  * GB/s between the two dies), GCDs of different packages by 2 or 1
	  * (100 / 50 GB/s per direction, 50 per link): the link tiers of a
	  * Frontier/LUMI node as summarised from Schieffer et al. 2024, not
	  * checked against the paper. A ring over a node's 8 GCDs crosses
	  * packages on the 2-link tier: 100 GB/s, taken as the model's uniform
	  * per-GPU figure (UNVERIFIED); eff as the MI300X's xGMI (AMD's 48 of
	  * 64 GB/s; the same on this older generation UNVERIFIED) */
	 100 * GBs, 0.75,
	 0, 4, 0, 0, false, NO_BRIDGE},                  /* host link: the data sheet's PCIe Gen4 x16 (Frontier
	                          * joins CPU and GCDs by Infinity Fabric instead) */
	{"MI250-GCD", ARCH_CDNA2,
	 /* One GCD of an MI250: half the MI250 data sheet: fp16/bf16 362.1 ->
	  * 181.0, fp32 matrix 90.5 -> 45.3; 104 CUs of 208 (104 x 1024 x 1700
	  * MHz = 181.0) */
	 {45.3 * T, 0, 181.0 * T, 181.0 * T, 0},
	 0.767,                  /* UNVERIFIED: the MI250X GCD's MAMF (same die) */
	 64 * GiB, 1638.4 * GBs, /* half of 128 GB HBM2e, 3.2768 TB/s, as the MI250X */
	 0.90,
	 100 * GBs, 0.75,        /* UNVERIFIED: as the MI250X GCD (the MI250 has fewer
	                          * external links) */
	 0, 4, 0, 0, false, NO_BRIDGE},
	{"MI325X", ARCH_CDNA3,
	 /* AMD MI325X data sheet: the MI300X's compute (304 CUs; dense fp32
	  * 163.4, tf32 653.7, fp16/bf16 1307.4, fp8 2614.9) with more memory */
	 {163.4 * T, 653.7 * T, 1307.4 * T, 1307.4 * T, 2614.9 * T},
	 0.604,                  /* ml-engineering MAMF table (not in cm 4.2): 784.9 /
	                          * 1300, 1000 W, PyTorch TunableOp */
	 256 * GiB, 6000 * GBs,  /* MI325X data sheet: 256 GB HBM3E, 6 TB/s */
	 0.90,
	 448 * GBs, 0.75,        /* as the MI300X (same package and links) */
	 0, 5, 1000, 0, false, NO_BRIDGE},
	{"MI355X", ARCH_CDNA4,
	 /* AMD MI355X product page, dense (its "with structured sparsity"
	  * figures are twice these): fp32 157.3, fp16/bf16 2500, fp8 5000 (as
	  * ml-engineering's table reads it). Check: 256 CUs x 8192 fp8 FLOP per
	  * clock per CU (AMD at ISSCC 2026) x 2400 MHz = 5033. CDNA4 has no
	  * tf32 (none published): a tf32 run is refused; fp32 GEMMs run fp32 */
	 {157.3 * T, 0, 2500 * T, 2500 * T, 5000 * T},
	 0.626,                  /* ml-engineering MAMF table (not in cm 4.2): 1565.0
	                          * of 2500, ROCm 7.0.2, PyTorch 2.8, TunableOp off */
	 288 * GiB, 8000 * GBs,  /* product page: 288 GB HBM3E (eight 36 GiB stacks,
	                          * as the MI300X's 192 and MI325X's 256), 8 TB/s */
	 0.90,                   /* UNVERIFIED: no STREAM measurement (the MI300X's
	                          * 0.783 is HBM3 on another memory system) */
	 537.6 * GBs, 0.75,      /* product page: 7 Infinity Fabric links at 153.6
	                          * GB/s bidirectional (1075.2 aggregate), 76.8 per
	                          * direction each; eff as the MI300X's xGMI
	                          * (UNVERIFIED on CDNA4) */
	 0, 5, 1400, 0, false, NO_BRIDGE},
	{"MI350X", ARCH_CDNA4,
	 /* the MI355X's silicon at 2200 MHz and 1000 W (AMD MI350X product page;
	  * ml-engineering's note 22): every rate x 2200/2400: fp32 144.2,
	  * fp16/bf16 2300, fp8 4600 (AMD's rounded 2.3 / 4.6 PF) */
	 {144.2 * T, 0, 2300 * T, 2300 * T, 4600 * T},
	 0.626,                  /* UNVERIFIED: the MI355X's (no MAMF of the MI350X; a
	                          * lower power limit may hold less of the clock) */
	 288 * GiB, 8000 * GBs,  /* as the MI355X */
	 0.90,
	 537.6 * GBs, 0.75,      /* as the MI355X */
	 0, 5, 1000, 0, false, NO_BRIDGE},
};

#define NGPUS (sizeof gpus / sizeof gpus[0])

/* Short names users type; each maps to the part most people mean. */
static const struct { const char *alias, *name; } aliases[] = {
	{"V100", "V100-SXM2-32GB"},
	{"A100", "A100-SXM4-80GB"},
	{"A100-80GB", "A100-SXM4-80GB"},
	{"A100-40GB", "A100-SXM4-40GB"},
	{"A100-PCIE", "A100-PCIE-80GB"},
	{"H100", "H100-SXM5-80GB"},
	{"H100-SXM", "H100-SXM5-80GB"},
	{"H100-PCIE", "H100-PCIE-80GB"},
	{"A800", "A800-SXM4-80GB"},
	{"H800", "H800-SXM5-80GB"},
	{"GB200-NVL72", "GB200"},
	{"GB300-NVL72", "GB300"},
	{"B300-SXM", "B300"},
	{"H200", "H200-SXM-141GB"},
	{"B200-SXM", "B200"},
	{"RTX4090", "RTX-4090"},
	{"RTX5090", "RTX-5090"},
	{"RTX3090", "RTX-3090"},
	{"RTX2080TI", "RTX-2080-TI"},
	{"RTX-PRO-6000-WORKSTATION", "RTX-PRO-6000"},
	{"RTX8000", "QUADRO-RTX-8000"},
	{"MI300", "MI300X"},
	{"H200-SXM", "H200-SXM-141GB"},
	{"MI355", "MI355X"},
	{"MI350", "MI350X"},
	{"V100-16GB", "V100-SXM2-16GB"},
	{"V100-PCIE", "V100-PCIE-32GB"},
	{"A6000", "RTX-A6000"},
	{"H100-NVL", "H100-NVL-94GB"},
	{"H100-HBM2E", "H100-HBM2E-96GB"},
	{"H200-NVL", "H200-NVL-141GB"},
	{"GH200", "GH200-96GB"},
	{"H20", "H20-96GB"},
	{"MI250X", "MI250X-GCD"},
	{"MI250", "MI250-GCD"},
	{"MI325", "MI325X"},
};

#define NALIASES (sizeof aliases / sizeof aliases[0])

const char *hw_precision_name(hw_precision p)
{
	static const char *names[PREC__N] = {"fp32", "tf32", "fp16", "bf16", "fp8", "fp4"};
	return (unsigned)p < PREC__N ? names[p] : "?";
}

double hw_precision_bytes(hw_precision p)
{
	static const double bytes[PREC__N] = {4, 4, 2, 2, 1, 0.5 + 1.0 / 16};
	return (unsigned)p < PREC__N ? bytes[p] : 0;
}

static int ci_cmp(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int d = tolower((unsigned char)*a) - tolower((unsigned char)*b);
		if (d)
			return d;
	}
	return tolower((unsigned char)*a) - tolower((unsigned char)*b);
}

const hw_gpu *hw_gpu_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < NALIASES; i++)
		if (!ci_cmp(name, aliases[i].alias)) {
			name = aliases[i].name;
			break;
		}
	for (size_t i = 0; i < NGPUS; i++)
		if (!ci_cmp(name, gpus[i].name))
			return &gpus[i];
	return NULL;
}

size_t hw_gpu_count(void)
{
	return NGPUS;
}

const hw_gpu *hw_gpu_at(size_t i)
{
	return i < NGPUS ? &gpus[i] : NULL;
}

/* Case-insensitive Levenshtein distance of two short names (truncated at 63). */
static int edit_distance(const char *a, const char *b)
{
	int la = (int)strnlen(a, 63), lb = (int)strnlen(b, 63);
	int prev[64], cur[64];
	for (int j = 0; j <= lb; j++)
		prev[j] = j;
	for (int i = 1; i <= la; i++) {
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int sub = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int v = prev[j - 1] + sub;
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			cur[j] = v;
		}
		memcpy(prev, cur, sizeof(int) * (size_t)(lb + 1));
	}
	return prev[lb];
}

/* The model before the first '-', '_' or space: "H100" of "H100-80GB". */
static size_t family_len(const char *s)
{
	size_t n = 0;
	while (s[n] && s[n] != '-' && s[n] != '_' && s[n] != ' ')
		n++;
	return n;
}

static bool same_family(const char *a, const char *b)
{
	size_t la = family_len(a);
	return la >= 2 && la == family_len(b) && !strncasecmp(a, b, la);
}

/* The closest catalog name or alias; when the typed name starts with a
 * model the catalog has ("H100-80GB"), only that model's parts compete:
 * the closest spelling otherwise can be another generation's part
 * ("A100-SXM4-80GB", one letter from "H100-SXM4-80GB"); a tie goes to the
 * part the bare model names ("H200": the SXM). */
/* The memory size the typed name gives ("94GB" of "H100-94GB"), or "". */
static void size_token(const char *name, char *tok, size_t len)
{
	tok[0] = 0;
	for (const char *p = name; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > name && isdigit((unsigned char)p[-1])))
			continue;
		const char *q = p;
		while (isdigit((unsigned char)*q))
			q++;
		if (!strncasecmp(q, "GB", 2)) {
			snprintf(tok, len, "%.*sGB", (int)(q - p), p);
			return;
		}
	}
}

static bool has_token(const char *str, const char *tok)
{
	size_t n = strlen(tok);
	for (const char *s = str; *s; s++)
		if (!strncasecmp(s, tok, n) && (s == str || !isdigit((unsigned char)s[-1])))
			return true;
	return false;
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;
	while (a[n] && b[n] && toupper((unsigned char)a[n]) == toupper((unsigned char)b[n]))
		n++;
	return n;
}

const char *hw_gpu_suggest(const char *name)
{
	if (!name || !*name)
		return NULL;
	char model[48], mem[24];
	size_t ml = family_len(name);
	snprintf(model, sizeof model, "%.*s", (int)(ml < sizeof model ? ml : sizeof model - 1), name);
	size_token(name, mem, sizeof mem);
	const hw_gpu *plain = hw_gpu_find(model);
	const char *best = NULL;
	int bestd = 1 << 30;
	size_t bestp = 0;
	bool fam = false;
	/* pass 0: the typed model with the typed memory size ("H100-94GB": the
	 * NVL), 1: the typed model, 2: any name (ties to the longer common
	 * prefix: "L40" is nearer the L40S than the A40) */
	for (int pass = 0; pass < 3 && !best; pass++) {
		if (pass == 0 && !mem[0])
			continue;
		for (size_t i = 0; i < NGPUS + NALIASES; i++) {
			const char *cand = i < NGPUS ? gpus[i].name : aliases[i - NGPUS].alias;
			const char *part = i < NGPUS ? gpus[i].name : aliases[i - NGPUS].name;
			if (pass < 2 && !same_family(name, cand))
				continue;
			if (pass == 0 && !has_token(part, mem))
				continue;
			int d = edit_distance(name, cand);
			size_t pre = common_prefix(name, cand);
			if (d == bestd && ((pass < 2 && plain && !strcmp(part, plain->name)) ||
			                   (pass == 2 && pre > bestp))) {
				best = part;
				bestp = pre;
			}
			if (d < bestd) {
				bestd = d;
				best = part;
				bestp = pre;
				fam = pass < 2;
			}
		}
	}
	if (fam)
		return best;
	/* Only close names: at most a third of the typed name, at least 2. */
	int limit = (int)strlen(name) / 3;
	if (limit < 2)
		limit = 2;
	return bestd <= limit ? best : NULL;
}

double hw_pcie_Bps(int gen)
{
	/* Raw x16 per direction (cm 1.6, ml-engineering): Gen3 15.75 (8 GT/s,
	 * 128b/130b), Gen4 31, Gen5 63, Gen6 121 GB/s; achievable = 0.88 of raw,
	 * the measured H200 Gen5 host<->device 55.4 of 63 GB/s (cm 1.6). */
	static const double raw[] = {15.75 * GBs, 31 * GBs, 63 * GBs, 121 * GBs};
	const double achievable = 55.4 / 63.0;
	if (gen < 3)
		gen = 3;
	if (gen > 6)
		gen = 6;
	return raw[gen - 3] * achievable;
}

/* NCCL's SHM transport, what it runs between two GPUs of a node without
 * PCIe peer-to-peer (GeForce cards, "GeForce cards do not support P2P": an
 * NCCL maintainer, NVIDIA/nccl-tests #287; NCCL_P2P_DISABLE=1): by default
 * ("via SHM/direct/direct") the GPUs' kernels load from and store to a
 * host-memory buffer, each GPU's PCIe link carrying the data once each way,
 * as peer-to-peer does, at a rate the GPU's reads of host memory over PCIe
 * set: latency-bound, not the link's (a 4 x RTX 4090 host: 2.24 GB/s through
 * NCCL's SHM between two of its GPUs where the copy engine bounces 19.9 GB/s
 * GPU to host to GPU over the same path, and NCCL_SHM_USE_CUDA_MEMCPY=1
 * lifts NCCL to 11.2-19.4; tests/validation/blind25-nccl.csv B4090SHM25).
 * So it is kept as a rate, measured once per architecture as ring
 * all-reduce busbw on its plateau:
 * - Blackwell RTX: 4 x RTX 5090, Gen5, EPYC Genoa, NCCL 2.26.2: 27.26 GB/s
 *   (blind16-nccl.csv RTX5090X16; 8 x RTX 5090 on a Xeon 8480+ hold 28,
 *   4 of them 35: blind25 B5090NC25)
 * - Ada: 2 of 4 x RTX 4090, Gen4, EPYC 7502, NCCL 2.28.9: 2.24 (the host
 *   above; other 4090 hosts 2.2-3.9: blind9-nccl.csv K4090, and about 5 on
 *   8 x 4090, NVIDIA/nccl-tests #307)
 * - Ampere: 2 x A40 with NCCL_P2P_DISABLE=1 under one root complex, Gen4,
 *   EPYC 7302, NCCL 2.16.2: 3.86 (blind9-nccl.csv A40NODE9)
 * - Turing: 2 x RTX 2080 Ti, Gen3, behind one switch: 4.0 (blind6-nccl.csv
 *   RTX2080TI6)
 * The others (no measurement: a datacenter card with P2P turned off) take
 * the A40's, the one datacenter card measured, UNVERIFIED. The host is in
 * each figure too: both fast ones are Gen5 platforms, the slow ones Gen3 and
 * Gen4 ones. */
static double arch_shm_Bps(hw_arch a)
{
	switch (a) {
	case ARCH_BLACKWELL_RTX:
		return 27.26 * GBs;
	case ARCH_ADA:
		return 2.24 * GBs;
	case ARCH_TURING:
		return 4.0 * GBs;
	default:
		return 3.86 * GBs;
	}
}

/* NCCL_SHM_USE_CUDA_MEMCPY=1: the SHM transport moves its data with the
 * copy engines ("via SHM/CE/direct"), not the kernels' loads and stores:
 * 11.24 GB/s of ring all-reduce busbw between 2 RTX 4090 under one host
 * bridge, 10.59 over 4, 19.44 across two host bridges (the host above,
 * 256 MB; B4090SHM25). The figure is the one-bridge pair's over Gen4's
 * 27.3, a fraction of the link (the copy engines move at the link's pace:
 * 19.9 of it bounced outside NCCL); a single host's measurement,
 * UNVERIFIED elsewhere. */
double hw_shm_copy_engine_eff(void)
{
	return 11.24 * GBs / hw_pcie_Bps(4);
}

double hw_shm_Bps(const hw_intra *in, const hw_gpu *g, double link_Bps)
{
	if (in && in->shm_eff > 0)
		return link_Bps * in->shm_eff;
	return fmin(link_Bps, arch_shm_Bps(g->arch));
}

double hw_shm_eff(const hw_intra *in, const hw_gpu *g)
{
	double link = hw_pcie_Bps(g->pcie_gen > 0 ? g->pcie_gen : 4);
	return hw_shm_Bps(in, g, link) / link;
}

/* RDMA (InfiniBand, RoCE): one flow reaches 0.94 of line rate: SimAI's
 * ConnectX-6 23.5 of 25 GB/s (cm 1.7, calbusbw.h), the same fraction NVIDIA
 * quotes for NDR (46-49 of 50 GB/s, nccl-tests #290/#267). Per-message
 * latency 0.6 us: HDR end-to-end (cm 1.6, ml-engineering). */
#define RDMA_EFF 0.94
#define RDMA_LAT_S 0.6e-6
/* TCP (NCCL socket transport): one GPU per node reaches 30.6-31.4 of 32 Gb/s
 * (NVIDIA/nccl #209), i.e. 0.96. Per-message latency 20 us: nccl-tests #82
 * measures 38-46 us for an 8 B broadcast between two TCP nodes, about 20 us
 * above what NCCL's model (cm 1.3) gives for the same call on RDMA. */
#define TCP_EFF 0.96
#define TCP_LAT_S 20e-6
/* ... but no more than RDMA's 0.94 on a faster link: TCP/IPv4 frames 94.1%
 * payload at MTU 1500 (cost-models 5.2), and the socket path copies through
 * host memory where RDMA does not. */
/* One of NCCL's sockets (a helper thread sending on one TCP connection, the
 * transport's default: NCCL_SOCKET_NTHREADS = NCCL_NSOCKS_PERTHREAD = 1 but
 * on AWS's ENA, 2 x 8, and Google's gVNIC, 4 x 1: net_socket.cc's
 * auto-detection) moves about 2.0 GB/s: NVIDIA/nccl #209 measured one ring
 * (one socket) of a GCP V100 node at 2.06 GB/s (NCCL 2.3.7, 32 Gb/s). Hosts
 * differ by 6x: two 1-GPU L40S nodes on 400 GbE move 8.1 GB/s over two
 * channels, 4 a socket (RHL40STCP); an older workstation 0.65 a socket where
 * iperf3's one stream did 4.3 (STPAR26), a Slingshot host's TCP 0.87
 * (ULANTA22). NCCL splits each transfer evenly over the sockets (sjeaugey,
 * nccl-tests #83), so a communicator's ring carries its channels through a
 * NIC x sockets x this. */
#define TCP_SOCKET_BPS 2.0e9
/* TCP with g GPUs of a node in one communicator: NCCL splits every transfer
 * evenly over its sockets, so the slowest socket sets the pace (sjeaugey,
 * nccl-tests #83), and the g GPUs' proxy threads copy through host memory and
 * compete for the node's cores; the NIC's achievable fraction falls as
 * eff / (1 + TCP_SHARE_ALPHA (g - 1)). One constant for the transport, from
 * the pooled 8-GPU-per-node observations: #209 (2x8: 14.5-14.9 Gb/s, 4x8:
 * 22.2-22.9 of 32) and #450 (4x8 V100, 4-6 GB/s of 12.5): about half the
 * line rate at g = 8, i.e. 0.96 / (1 + 7 a) = 0.5 -> a = 0.13. */
#define TCP_SHARE_ALPHA 0.13
/* GPUDirect over TCP (Google's GPUDirect-TCPX on A3 High, -TCPXO on A3 Mega;
 * the kernel's devmem TCP, Documentation/networking/devmem.rst): the
 * payload goes between the NIC and GPU memory, the headers alone through
 * the host's TCP stack. Its socket latency and framing are TCP's (TCP_LAT_S,
 * TCP_EFF: the one-GPU-a-node case, where no host copy is shared), the
 * latter no higher than RDMA's: TCP_EFF was measured on 32 Gb/s links, and
 * at 200 Gb/s nothing is known to carry a flow better than RDMA's measured
 * 0.94 (UNVERIFIED for it). What it removes is the host bounce that
 * TCP_SHARE_ALPHA charges, each GPU sending through its own NIC or one
 * shared with its PCIe neighbour. */
static double transport_eff(hw_transport t)
{
	return t == TRANSPORT_RDMA ? RDMA_EFF : fmin(TCP_EFF, RDMA_EFF);
}

void hw_nic_defaults(hw_nic *nic, int gpus_per_node)
{
	(void)gpus_per_node;   /* the sharing law is applied per communicator, hw_nic_efficiency */
	if (nic->efficiency <= 0)
		nic->efficiency = transport_eff(nic->transport);
	if (nic->latency_s <= 0)
		nic->latency_s = nic->transport == TRANSPORT_RDMA ? RDMA_LAT_S : TCP_LAT_S;
}

double hw_nic_efficiency(const hw_nic *nic, int gpus_sharing)
{
	double eff = nic->efficiency > 0 ? nic->efficiency : transport_eff(nic->transport);
	if (nic->transport == TRANSPORT_TCP && gpus_sharing > 1)
		eff /= 1.0 + TCP_SHARE_ALPHA * (gpus_sharing - 1);
	return eff;
}

int hw_channel_search(const double *sp, size_t ns, double bw, double *speed)
{
	double best = 0, s = sp[ns - 1];
	int nch = 1;
	for (size_t i = 0; i < ns; i++) {
		if (sp[i] > bw + 1e-9)
			continue;            /* the search starts at the first speed <= bw */
		if (best > 0 && (best >= bw - 1e-9 || sp[i] / s <= 0.49))
			break;               /* optimal, or below half the best speed */
		int c = (int)floor(bw / sp[i] + 1e-9);
		if (c > 32)
			c = 32;              /* the search's MAXCHANNELS / 2 */
		if (c * sp[i] > best + 1e-9) {
			best = c * sp[i];
			s = sp[i];
			nch = c;
		}
	}
	*speed = s;
	return nch;
}

bool hw_arch_sm90(hw_arch a)
{
	return a == ARCH_HOPPER || a == ARCH_BLACKWELL || a == ARCH_BLACKWELL_RTX;
}

bool hw_arch_sm100(hw_arch a)
{
	return a == ARCH_BLACKWELL || a == ARCH_BLACKWELL_RTX;
}

/* ncclTopoDupChannels: doubled when the speed is >= 25 GB/s, on sm90+ not
 * when it is below 50 with more than 4 channels. */
int hw_dup_channels(hw_arch arch, int nch, double s)
{
	bool dup = s >= 25 && !(hw_arch_sm90(arch) && s < 50 && nch > 4);
	return dup ? 2 * nch : nch;
}

/* Each NIC is searched at the first inter-node speed at or below its line
 * rate (speedArrayInter of NCCL's src/graph/search.cc by arch: sm80 and
 * older 48, 30, 28, 24, ...; sm90 48, 45, 42, 40, 30, 24, ...; sm100 96,
 * 80, 48, 45.1, 42, 40, 30, 24, ...). */
int hw_nic_graph_channels(hw_arch arch, double line_Bps, double *speed)
{
	static const double sm80[] = {48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4,
	                              1.2, 0.24, 0.12};
	static const double sm90[] = {48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2,
	                              0.24, 0.12};
	static const double sm100[] = {96, 80, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6,
	                               3, 2.4, 1.2, 0.24, 0.12};
	double bw = line_Bps / 1e9;
	if (hw_arch_sm100(arch))
		return hw_channel_search(sm100, sizeof sm100 / sizeof sm100[0], bw, speed);
	if (hw_arch_sm90(arch))
		return hw_channel_search(sm90, sizeof sm90 / sizeof sm90[0], bw, speed);
	return hw_channel_search(sm80, sizeof sm80 / sizeof sm80[0], bw, speed);
}

int hw_nic_sockets(const hw_nic *nic)
{
	return nic->sockets > 0 ? nic->sockets : 1;
}

double hw_nic_socket_Bps(const hw_nic *nic)
{
	return nic->socket_Bps > 0 ? nic->socket_Bps : TCP_SOCKET_BPS;
}

int hw_nic_ring_channels(const hw_nic *nic, hw_arch arch, int pcie_gen)
{
	/* NCCL's PCIe bandwidth for an x16 link (its topology's 12 GB/s at Gen3,
	 * doubling a generation): the GPU-to-NIC path the search starts from */
	int gen = pcie_gen >= 3 ? pcie_gen : 4;
	double path = fmin(nic->speed_Bps, 12e9 * (double)(1 << (gen - 3)));
	double s;
	int nics = nic->count > 0 ? nic->count : 1;
	int per_nic = hw_nic_graph_channels(arch, path, &s);
	int ch = 2 * hw_dup_channels(arch, per_nic * nics, s) / nics;
	return ch < 2 * per_nic ? 2 * per_nic : ch;
}

double hw_nic_socket_cap(const hw_nic *nic, int channels)
{
	if (nic->transport != TRANSPORT_TCP)
		return HUGE_VAL;
	return channels * hw_nic_sockets(nic) * hw_nic_socket_Bps(nic);
}

double hw_nic_Bps(const hw_nic *nic, int gpus_sharing, hw_arch arch, int pcie_gen)
{
	return hw_nic_comm_Bps(nic, gpus_sharing, 1, arch, pcie_gen);
}

double hw_nic_comm_Bps(const hw_nic *nic, int gpus_sharing, int sib, hw_arch arch,
                       int pcie_gen)
{
	double line = nic->speed_Bps * hw_nic_efficiency(nic, gpus_sharing) / (sib > 1 ? sib : 1);
	if (nic->transport != TRANSPORT_TCP || nic->speed_Bps <= 0)
		return line;
	return fmin(line, hw_nic_socket_cap(nic, hw_nic_ring_channels(nic, arch, pcie_gen)));
}

const char *hw_transport_name(hw_transport t)
{
	return t == TRANSPORT_RDMA ? "RDMA" : t == TRANSPORT_TCP ? "TCP" : "GPUDirect-TCP";
}

/* A peak in TFLOP/s for the catalog table; '-' where the GPU has none (the
 * loader refuses that precision on it). */
static const char *peak_cell(char *b, size_t n, double flops)
{
	if (flops > 0)
		snprintf(b, n, "%.1f", flops / T);
	else
		snprintf(b, n, "-");
	return b;
}

void hw_list_gpus(FILE *out, double (*held)(const hw_gpu *g))
{
	static const hw_precision cols[] = {PREC_FP32, PREC_TF32, PREC_FP16, PREC_BF16, PREC_FP8,
		PREC_FP4};
	fprintf(out, "%-19s %7s %7s %7s %7s %7s %7s %6s %6s %8s %8s %6s %6s %4s %5s %3s %6s\n",
		"name", "fp32", "tf32", "fp16", "bf16", "fp8", "fp4", "gemm", "gemm", "HBM", "HBM",
		"NVLink", "NVLS", "PCIe", "TDP", "P2P", "Bridge");
	fprintf(out, "%-19s %7s %7s %7s %7s %7s %7s %6s %6s %8s %8s %6s %6s %4s %5s %3s %6s\n", "",
		"TFLOP/s", "TFLOP/s", "TFLOP/s", "TFLOP/s", "TFLOP/s", "TFLOP/s", "MAMF", "held", "GiB",
		"GB/s", "GB/s", "eff", "gen", "W", "", "GB/s");
	for (size_t i = 0; i < NGPUS; i++) {
		const hw_gpu *g = &gpus[i];
		fprintf(out, "%-19s", g->name);
		for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
			char cell[16];
			fprintf(out, " %7s", peak_cell(cell, sizeof cell, g->peak_flops[cols[k]]));
		}
		char tdp[16], bridge[24] = "-";
		snprintf(tdp, sizeof tdp, g->tdp_w > 0 ? "%.0f" : "-", g->tdp_w);
		if (g->bridge_Bps > 0)
			snprintf(bridge, sizeof bridge, "%.0fx%d", g->bridge_Bps / GBs, g->bridge_gpus);
		fprintf(out, " %6.3f %6.3f %8.0f %8.0f %6.0f %6.2f %4d %5s %3s %6s\n", g->gemm_eff,
			held ? held(g) : g->gemm_eff,
			g->hbm_bytes / GiB, g->hbm_Bps / GBs, g->nvlink_Bps / GBs, g->nvls_eff,
			g->pcie_gen, tdp, g->no_p2p ? "no" : "yes", bridge);
	}
	fprintf(out, "peaks are dense; '-': the GPU has no such peak, and a scenario cannot train in\n"
		"that precision on it (V100 and T4: fp16, not bf16)\n");
	fprintf(out, "gemm MAMF: the best shape of a GEMM sweep; held: what a large GEMM holds under a\n"
		"sustained load (power cap, clocks), the figure the compute model uses\n");
	fprintf(out, "TDP: rated board power; cluster.gpu.power_limit caps below it ('-': none\n"
		"published, give cluster.gpu.tdp to set a limit)\n");
	fprintf(out, "P2P: PCIe peer-to-peer between two cards of a node; 'no' (GeForce): NCCL\n"
		"copies through host memory (cluster.intra_node.p2p overrides it)\n");
	fprintf(out, "Bridge: NVLink bridges of a PCIe card, GB/s a direction over all of them x the\n"
		"most cards they join (cluster.intra_node.nvlink_bridge: 2 or 4 groups them)\n");
	fprintf(out, "aliases:");
	for (size_t i = 0; i < NALIASES; i++)
		fprintf(out, " %s=%s", aliases[i].alias, aliases[i].name);
	fprintf(out, "\n");
}

void hw_list_nics(FILE *out)
{
	static const struct { const char *name; double gbps; const char *what; } nics[] = {
		{"10GbE", 10, "Ethernet, usually TCP"},
		{"25GbE", 25, "Ethernet, TCP or RoCE"},
		{"40GbE", 40, "Ethernet, TCP or RoCE"},
		{"100GbE / EDR", 100, "Ethernet (TCP, RoCE) or InfiniBand EDR"},
		{"200G HDR", 200, "InfiniBand HDR / 200GbE (ConnectX-6)"},
		{"400G NDR", 400, "InfiniBand NDR / 400GbE (ConnectX-7)"},
		{"800G XDR", HW_NIC_FASTEST_GBPS, "InfiniBand XDR (ConnectX-8)"},
	};
	hw_nic rdma = {.transport = TRANSPORT_RDMA}, tcp = {.transport = TRANSPORT_TCP};
	hw_nic_defaults(&rdma, 1);
	hw_nic_defaults(&tcp, 1);
	double tcp8 = hw_nic_efficiency(&tcp, 8);
	fprintf(out, "%-14s %8s %10s %10s %10s  %s\n", "nic", "Gb/s", "RDMA GB/s", "TCP 1 GPU",
		"TCP 8 GPUs", "kind");
	for (size_t i = 0; i < sizeof nics / sizeof nics[0]; i++) {
		hw_nic t = tcp;   /* one NIC a node, NCCL's default sockets, an H100's channels */
		t.count = 1;
		t.speed_Bps = nics[i].gbps * 1e9 / 8;
		fprintf(out, "%-14s %8.0f %10.2f %10.2f %10.2f  %s\n", nics[i].name, nics[i].gbps,
			t.speed_Bps * rdma.efficiency / 1e9, hw_nic_Bps(&t, 1, ARCH_HOPPER, 5) / 1e9,
			hw_nic_Bps(&t, 8, ARCH_HOPPER, 5) / 1e9, nics[i].what);
	}
	fprintf(out, "transports: rdma efficiency %.2f, latency %.1f us per message;\n"
		"  tcp (NCCL's sockets) efficiency %.2f with one GPU of a communicator on the node,\n"
		"  %.2f with 8 (their proxy threads share the node's cores; the figures were measured\n"
		"  on 32 Gb/s links), latency %.0f us; and at most a communicator's ring channels\n"
		"  through the NIC (2; 4 where the NIC and the GPU's PCIe both pass 48 GB/s: Gen5 and\n"
		"  400 Gb/s) x sockets a connection (nic.sockets, 1 by default) x %.3g GB/s a socket\n"
		"  (nic.socket_bandwidth); a point-to-point peer 2 channels\n",
		rdma.efficiency, rdma.latency_s * 1e6, tcp.efficiency, tcp8, tcp.latency_s * 1e6,
		TCP_SOCKET_BPS / 1e9);
	hw_nic gd = {.transport = TRANSPORT_GDTCP};
	hw_nic_defaults(&gd, 8);
	fprintf(out, "  gpudirect-tcp (Google's GPUDirect-TCPX/TCPXO: TCP without the host copy)\n"
		"  efficiency %.2f however many GPUs of a node take part, latency %.0f us\n",
		hw_nic_efficiency(&gd, 8), gd.latency_s * 1e6);
	fprintf(out, "from GPU memory a NIC moves at most its GPU's PCIe x16 link: %.1f GB/s on Gen4\n"
		"  (A100, L40S), %.1f on Gen5 (H100, H200, B200), shared by a GPU's NICs\n",
		hw_pcie_Bps(4) / 1e9, hw_pcie_Bps(5) / 1e9);
}
