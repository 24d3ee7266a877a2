/* compute.c: time of one GPU operation: GEMMs from the dense peak, the best-shape
 * efficiency and wave quantization over the SMs (a roofline bounds thin GEMMs by
 * HBM traffic), memory-bound kernels from HBM bandwidth, fused flash attention
 * from a measured kernel efficiency. Parameters are per GPU architecture, each
 * with its source; none is fitted to a validation row. */
#include <assert.h>
#include <math.h>
#include <string.h>
#include "wl_int.h"

/* Size curve. Each output tile pays a fixed cost (pipeline fill, epilogue)
 * worth K0 elements of its k loop: efficiency k / (k + K0). The two A100
 * GEMMs of HW-AZ (8192^3: 253.7, 16384^3: 256.5 TFLOP/s, both a whole
 * number of waves) give K0 = 184 and an asymptote of 266.7 TFLOP/s = 0.855
 * of peak... see SUSTAIN_AMPERE below. [DERIVED from HW-AZ-001/002] */
#define K0 184.0
/* A fixed large shape run for a while reaches less than the best shape of a
 * sweep: HW-AZ's asymptote 0.831 of peak against the MAMF 0.869 of the same
 * GPU kind gives 0.957, applied to every kind's catalog (MAMF) value.
 * [DERIVED from HW-AZ-001/002 and cost-models.md 4.2] */
#define SUSTAIN_AMPERE 0.957

/* Hopper, measured on an NVIDIA H200 SXM (the H100 SXM's die, SM count and
 * 700 W limit) lent to this project, 2026-11-29, by bench/device/
 * h200_kernels.py (PyTorch 2.11, cuBLAS of CUDA 13.0, random bf16/fp8 data;
 * tests/validation/h200-kernels.csv holds every row, bench/device/
 * fit_hopper.py derives these constants from them). Under a sustained GEMM
 * load the SM clock settles at 1440-1485 MHz against the power cap
 * (nvidia-smi: SW power cap, 684-690 W), not the 1980 MHz boost: an 8192^3
 * bf16 GEMM holds 664-673 TFLOP/s, where a short run after a pause reaches
 * 753 (4096^3). Training keeps the GPU at its cap, so the sustained rate is
 * the one to model.
 * H200_SUSTAIN: the median over the 96 bf16 GEMMs of the transformer-layer
 * shapes measured (5B..175B layers, forward, dgrad and wgrad; 636-704
 * TFLOP/s) of measured over this model with sustain 1: sustained over MAMF.
 * H200_FP8_RATIO: the same median for their 96 fp8 twins (cuBLASLt scaled
 * matmul, fast accumulation: 1168-1369 TFLOP/s), over the bf16 one.
 * Both [MEASURED, H200; H100 SXM by the same die, UNVERIFIED there]. */
#define H200_SUSTAIN 0.914
#define H200_FP8_RATIO 0.979

/* Blackwell: Azure's AI-benchmarking-guide GEMM results on an ND GB200 v6
 * (tests/validation/azure.csv AZX-202..210, fp8, cuBLASLt) hold 2826-2907
 * TFLOP/s from 4096^3 to 32768^3, flat with size: the power-capped clock, as
 * on the H200 above, not the rising curve of a best-shape MAMF. The same
 * guide's H100 and H200 fp8 GEMMs (AZX-054..060, 102..108) agree with the
 * H200 measurement above within 2%, so its method is this model's.
 * BLACKWELL_SUSTAIN: the median over the five GB200 shapes of 4096 and more
 * (AZX-204..207, 209) of measured over this model with SUSTAIN_AMPERE, times
 * SUSTAIN_AMPERE (0.892 x 0.957). [MEASURED by Azure, GB200 fp8; bf16 and
 * the B200 (1000 W, below the GB200's 1200 W) UNVERIFIED, taken the same] */
#define BLACKWELL_SUSTAIN 0.854
/* BLACKWELL_FP4_RATIO: the same guide's cuBLASLt fp4 GEMMs on the GB200
 * (AZX-213..216, 4096^3 to 32768^3: 5177, 7536, 7628, 7487 TFLOP/s of
 * 10,000) over this model with a ratio of 1, median (the 4096^3 and 32768^3
 * rows give 1.15 and 1.23, 8192^3 and 16384^3 1.35 and 1.30): fp4 GEMMs
 * hold more of their peak than bf16's under the same power cap. [MEASURED by
 * Azure, GB200 fp4; the B200, B300 and GB300 UNVERIFIED, taken the same.
 * Below 4096 cuBLASLt's fp4 adds a fixed 4-5 us a GEMM (1024^3: 287 TFLOP/s),
 * not modelled: training's GEMMs are larger] */
#define BLACKWELL_FP4_RATIO 1.265

/* Per-architecture constants of the efficiency model. */
typedef struct arch_params {
	hw_arch arch;
	int sms;                 /* streaming multiprocessors (CUs on CDNA) */
	double tile_m, tile_n;   /* largest output tile of the library's GEMM kernels */
	double gemm_eff;         /* fallback when the catalog gives none */
	double hbm_eff;          /* fallback when the catalog gives none */
	double flash_fwd_eff;    /* fused attention forward, fraction of dense peak */
	double flash_bwd_eff;    /* fused attention backward */
	double fp8_ratio;        /* fp8 MAMF / bf16 MAMF: fp8 GEMMs reach less of their peak */
	double fp4_ratio;        /* the same for fp4 (0: fp8's) */
	double sustain;          /* sustained large GEMMs / the MAMF (clocks under load) */
	double attn_k0_fwd;      /* fused attention size curve (0: none), keys x hd/128 */
	double attn_k0_bwd;
	double fa2_fwd_eff;      /* FlashAttention-2's kernels where they differ (0: flash_*) */
	double fa2_bwd_eff;
} arch_params;

/* SM counts (a part that differs from its row is in part_sms below): NVIDIA
 * Volta (V100: 80), Ampere (A100: 108), Hopper (H100 SXM: 132) architecture
 * whitepapers; Ada L40S 142 (AD102 product brief); Blackwell B200 148
 * (UNVERIFIED, NVIDIA datasheet figure as commonly quoted); MI300X 304 CUs
 * (AMD CDNA3 whitepaper); Turing 40, the T4 (TU104 as the T4
 * ships it: 2560 CUDA cores / 64 per SM, T4 data sheet), the architecture's
 * one part in the catalog; CDNA2 110 CUs, one GCD of an MI250X (220 CUs per
 * package, AMD MI250X data sheet), what ROCm calls a GPU; CDNA4 256 CUs, the
 * MI355X/MI350X (8 XCDs of 32 active CUs, AMD at ISSCC 2026).
 * Tiles: the largest CTA tiles of cuBLAS/CUTLASS tensor-core kernels: Volta
 * 128x128 (volta_h884gemm_128x128), Ampere 256x128 (ampere_h16816gemm_256x128),
 * Hopper/Blackwell 128x256 (sm90 wgmma kernels); names as they appear in Nsight
 * traces, UNVERIFIED as the heuristic's choice for every shape. Turing as Volta
 * (turing_h1688gemm_128x128 is cuBLAS's largest, UNVERIFIED), CDNA2 as CDNA3
 * (256x256, UNVERIFIED for rocBLAS/hipBLASLt on gfx90a).
 * gemm_eff fallbacks: cost-models.md 4.2 MAMF table (A100 0.869, H100 0.803,
 * B200 0.776, MI300X 0.514); V100 0.85 UNVERIFIED (the catalog's V100 entry
 * has its own, from a measured 8192^3 GEMM: hw.c); Turing 0.41, the T4's
 * (measured under its 70 W cap, hw.c); CDNA2 0.767, the MI250X GCD MAMF
 * 147.0 / 191.5 (ml-engineering's MAMF table, its v1 rows; not in cm 4.2);
 * CDNA4 0.626, the MI355X's 1565.0 of AMD's 2500 (the same table, ROCm 7.0.2,
 * PyTorch 2.8; the table divides by 2300 and prints 68.0%).
 * hbm_eff fallback: HW-AZ-003 A100-80GB triad 1.7 TB/s of 2.039 TB/s = 0.83,
 * used for every kind (UNVERIFIED elsewhere).
 * Flash attention: Ampere forward 179.5 TFLOP/s of 312 = 0.575 (HW-AZ-004, FA2
 * hd64 s8192), the point of FlashAttention-2's size curve (FA2_K0 below)
 * there; backward taken as 0.8x forward (FlashAttention-2 paper reports
 * the backward slower than the forward; UNVERIFIED factor). Hopper [MEASURED
 * on the H200, bench/device/h200_kernels.py]: cuDNN's fused attention (what
 * Transformer Engine and PyTorch run on Hopper), causal bf16, 8 shapes from
 * s 2048 to 8192, head dim 64 and 128: forward 0.41-0.60 of peak, backward
 * (2.5x the forward's FLOPs) 0.33-0.51, growing with the keys a query
 * meets. Fitted (least squares in log, bench/device/fit_hopper.py) as
 * E k / (k + k0), k = mean keys per query x hd / 128 (s/2 causal), on the
 * FLOPs executed (the causal half plus the diagonal blocks, as flash()
 * counts them): forward E 0.629, k0 340, backward E 0.577, k0 520; the 8
 * shapes within 15% and 9% (the batch, which the curve does not see, is
 * the rest). Blackwell [PUBLISHED, NVIDIA/cudnn-frontend benchmark/
 * sdpa_benchmark_training/artifacts/sdpa_fp8_benchmark_results_NVIDIA_B200
 * .csv at commit 0b1577c8, its bf16 rows]: cuDNN 9.13.1's SDPA on a B200,
 * causal, head dim 128, batch 1, 128 query heads, 1K-32K tokens: forward
 * 561-1515 TFLOP/s (0.25-0.67 of 2250), backward 377-1180 (0.17-0.52); the
 * same curve fitted on the executed FLOPs (bench/device/fit_blackwell_attn.py):
 * forward E 0.724, k0 770, backward E 0.571, k0 1100, the 6 lengths within
 * 4% and 7%. It was the earlier Hopper guess 0.55/0.44 with no size curve. Volta and Turing: none
 * (FlashAttention needs Ampere or later); attention runs unfused. CDNA3
 * [MEASURED, Azure/AI-benchmarking-guide ND MI300X v5 (a fork's copy),
 * ROCm's FlashAttention-2 port (composable_kernel), forward, head dim 64,
 * 8192 tokens]: 328.6 TFLOP/s of 1307.4 = 0.251; backward the forward times
 * Ampere's 0.8 (UNVERIFIED); it was FA2's 0.35 of peak on H100 (cm 4.2) for
 * want of a measurement. CDNA2 and CDNA4 as CDNA3 (UNVERIFIED there: CDNA4
 * doubles the matrix rate per CU, and no FlashAttention measurement on an
 * MI355X is at hand). Ampere, Ada and
 * the CDNA ports are FlashAttention-2 and take its size curve.
 * fp8 ratio: Hopper measured (H200_FP8_RATIO above; the MAMF table's 70.9/80.3
 * = 0.883 had fp8 layer GEMMs 2% slow); B200 cost-models 4.2 FP8 MAMF over
 * bf16 MAMF 76.3/77.6 = 0.983; Ada 0.9 UNVERIFIED; 1 where there is no fp8
 * (Volta, Turing, Ampere, CDNA2: an fp8 run is refused, sim/scn_check.c);
 * CDNA3 and CDNA4 1, UNVERIFIED (no fp8 MAMF of either in the table).
 * Blackwell RTX (sm_120: RTX 5090, RTX PRO 6000; 170 SMs, the 5090's):
 * Ada's row, every value UNVERIFIED there: its tensor cores run the same
 * warp-level mma kernels (CUTLASS's sm_120 GEMMs are the 256x128
 * tensorop_s16816gemm tiles of Ampere and Ada), not the B200's tcgen05 ones,
 * and FlashAttention-2's sm80 kernels.
 * sustain: Ampere (and, UNVERIFIED, every kind not measured) SUSTAIN_AMPERE,
 * Hopper H200_SUSTAIN, Blackwell BLACKWELL_SUSTAIN.
 * FlashAttention-2 (`attention: flash2`; flash-attn 2, PyTorch SDPA's flash
 * backend) runs its sm80 kernels on Hopper and Blackwell, far from the
 * fused kernels above [MEASURED, Azure/AI-benchmarking-guide, FA2 forward,
 * head dim 128, 8192 tokens]: ND H100 v5 327.9 TFLOP/s of 989.4 = 0.331
 * (the ND H200 v5's 329.3 agrees: the same die); ND GB200 v6 373.9 of 2500
 * = 0.150, each the point of FlashAttention-2's size curve (FA2_K0) at its
 * shape. Backward: the forward times
 * Ampere's 0.8 (UNVERIFIED there too). On Ampere FA2 is the flash kernel. */
/* FlashAttention 1 (flash-attn 0.2-1.0.x, 2022 to mid-2023): FlashAttention-2's
 * efficiency over 1.8. The FlashAttention-2 paper (Dao 2023, arXiv
 * 2307.08691) Fig. 4, A100 80GB, causal, head dim 64, forward + backward at
 * 2k-16k tokens: FlashAttention 77/87/92/97 TFLOP/s against FlashAttention-2's
 * 140/156/165/171, 1.76-1.82x (non-causal 1.56-1.60x; its text: "around 2x
 * faster than FlashAttention", "1.7-3.0x"). Forward and backward alike; on
 * Hopper and Blackwell, where both run their sm80 code, the same ratio to
 * FlashAttention-2's measured kernels (UNVERIFIED there). */
#define FA1_SLOWER 1.8
/* FlashAttention-2's size curve: its rate grows with the keys a query
 * meets as E k / (k + FA2_K0), k = keys x head_dim / 128 (the cuDNN curve's
 * form above). FlashAttention-2 paper Fig. 4 (A100, causal, head dim 64,
 * forward + backward; values read from the plotted bars): 88, 119, 140,
 * 156, 165, 171 TFLOP/s at 512 ... 16k tokens, i.e. k = s/4 = 128 ... 4096,
 * which E k / (k + 128) with E = 176 reproduces within 2 TFLOP/s at every
 * point.
 * Forward and backward alike, and FlashAttention-2's kernels on every GPU
 * (UNVERIFIED beyond the A100). Each measured efficiency below is the
 * curve's value at its own shape (non-causal, 8192 tokens: k = 4096 at
 * head dim 64, 8192 at 128), so FA2_AT gives E from it. */
#define FA2_K0 128.0
#define FA2_AT(eff, k) ((eff) * ((k) + FA2_K0) / (k))
#define FA2_HOPPER_FWD FA2_AT(327.9 / 989.4, 8192.0)
#define FA2_BLACKWELL_FWD FA2_AT(373.9 / 2500.0, 8192.0)
#define FA2_BWD_OVER_FWD 0.8
#define FA2_CDNA3_FWD FA2_AT(328.6 / 1307.4, 4096.0)
#define FA2_AMPERE_FWD FA2_AT(179.5 / 312.0, 4096.0)
#define FA2_ADA_FWD FA2_AT(0.50, 4096.0)
static const arch_params arch_table[] = {
	{ARCH_VOLTA, 80, 128, 128, 0.85, 0.83, 0.0, 0.0, 1, 0, SUSTAIN_AMPERE, 0, 0, 0, 0},
	{ARCH_TURING, 40, 128, 128, 0.41, 0.83, 0.0, 0.0, 1, 0, SUSTAIN_AMPERE, 0, 0, 0, 0},
	{ARCH_AMPERE, 108, 256, 128, 0.869, 0.83, FA2_AMPERE_FWD, FA2_AMPERE_FWD * FA2_BWD_OVER_FWD,
	 1, 0, SUSTAIN_AMPERE, FA2_K0, FA2_K0, 0, 0},
	{ARCH_ADA, 142, 256, 128, 0.80, 0.83, FA2_ADA_FWD, FA2_ADA_FWD * FA2_BWD_OVER_FWD, 0.9, 0,
	 SUSTAIN_AMPERE, FA2_K0, FA2_K0, 0, 0},
	{ARCH_HOPPER, 132, 128, 256, 0.803, 0.83, 0.629, 0.577, H200_FP8_RATIO, 0, H200_SUSTAIN,
	 340, 520, FA2_HOPPER_FWD, FA2_HOPPER_FWD * FA2_BWD_OVER_FWD},
	{ARCH_BLACKWELL, 148, 128, 256, 0.776, 0.83, 0.724, 0.571, 0.983, BLACKWELL_FP4_RATIO,
	 BLACKWELL_SUSTAIN, 770, 1100, FA2_BLACKWELL_FWD, FA2_BLACKWELL_FWD * FA2_BWD_OVER_FWD},
	{ARCH_BLACKWELL_RTX, 170, 256, 128, 0.80, 0.83, FA2_ADA_FWD, FA2_ADA_FWD * FA2_BWD_OVER_FWD,
	 0.9, 0, SUSTAIN_AMPERE, FA2_K0, FA2_K0, 0, 0},
	{ARCH_CDNA2, 110, 256, 256, 0.767, 0.83, FA2_CDNA3_FWD, FA2_CDNA3_FWD * FA2_BWD_OVER_FWD, 1, 0,
	 SUSTAIN_AMPERE, FA2_K0, FA2_K0, 0, 0},
	{ARCH_CDNA3, 304, 256, 256, 0.514, 0.83, FA2_CDNA3_FWD, FA2_CDNA3_FWD * FA2_BWD_OVER_FWD, 1, 0,
	 SUSTAIN_AMPERE, FA2_K0, FA2_K0, 0, 0},
	{ARCH_CDNA4, 256, 256, 256, 0.626, 0.83, FA2_CDNA3_FWD, FA2_CDNA3_FWD * FA2_BWD_OVER_FWD, 1, 0,
	 SUSTAIN_AMPERE, FA2_K0, FA2_K0, 0, 0},
};

/* Gap between two dependent kernels on one stream as the GPU sees it (launch
 * latency hidden by asynchronous launch, the drain/fill of the SMs is not):
 * a few microseconds (UNVERIFIED; Nsight traces of Megatron show 2-5 us; on
 * the H200 a CUDA graph of 400 tiny kernels runs 0.94 us a kernel, an upper
 * bound of the GPU-side gap). */
#define KERNEL_GAP_S 2e-6

static const arch_params *arch_of(const hw_gpu *g)
{
	const arch_params *ampere = NULL;
	for (size_t i = 0; i < sizeof arch_table / sizeof arch_table[0]; i++) {
		if (arch_table[i].arch == g->arch)
			return &arch_table[i];
		if (arch_table[i].arch == ARCH_AMPERE)
			ampere = &arch_table[i];
	}
	assert(ampere);
	return ampere;   /* an arch without a row (none today): Ampere's */
}

/* Catalog parts whose SM (CU) count is not their architecture's row above.
 * H100 PCIe 114 (Hopper whitepaper); A10 72 and A10G 80 (GA102 as each ships,
 * third-party listings; the A10's agrees with its data sheet peak, 72 x 1024
 * FLOP/clock x 1695 MHz = 125 TFLOP/s; the A10G's has no NVIDIA source,
 * UNVERIFIED); A40 84 (10,752 CUDA cores / 128, A40 data sheet) and
 * RTX A6000 84 (the same GA102 configuration); L4 58 (7424 CUDA cores / 128,
 * AD104); H20 78 (as reported, UNVERIFIED: NVIDIA publishes no data sheet);
 * MI250 GCD 104 CUs (208 per package, MI250 data sheet). The T4 (40), MI250X
 * GCD (110), L40S (142), H100 NVL (132) and the rest are their rows. */
static const struct { const char *name; int sms; } part_sms[] = {
	{"H100-PCIE-80GB", 114},
	{"A10", 72},
	{"A10G", 80},
	{"A40", 84},
	{"RTX-A6000", 84},
	{"L4", 58},
	{"H20-96GB", 78},
	{"MI250-GCD", 104},
	{"RTX-2080-TI", 68},
	{"QUADRO-RTX-8000", 72},
	{"A30", 56},
	{"RTX-3090", 82},
	{"RTX-4090", 128},
	{"RTX-PRO-6000", 188},
	{"RTX-PRO-6000-SERVER", 188},
};

/* The part's count for a catalog part (a scenario's `gpu: A10`, alias or
 * `base:` copies the catalog's name); its architecture's for a GPU given
 * field by field or renamed. */
int wl__sms(const hw_gpu *g)
{
	for (size_t i = 0; i < sizeof part_sms / sizeof part_sms[0]; i++)
		if (!strcmp(g->name, part_sms[i].name))
			return part_sms[i].sms;
	/* a user's own Hopper PCIe part (an H100 PCIe renamed): 114 SMs */
	if (g->arch == ARCH_HOPPER && (strstr(g->name, "PCIe") || strstr(g->name, "PCIE")))
		return 114;
	return arch_of(g)->sms;
}

int wl_gpu_sms(const hw_gpu *g)
{
	return wl__sms(g);
}

/* A power limit below the GPU's rating (nvidia-smi -pl, a fleet run at 500 W):
 * the SM clock its compute-bound kernels hold, as a fraction of the clock at
 * the rating. Dense GEMMs already run at the rating's limit (an H200 under a
 * sustained bf16 GEMM draws 684-690 W of 700 at 1440-1485 MHz: H200_SUSTAIN
 * above), so their draw is P(f) = P0 + (TDP - P0) (f / f_tdp)^a and the
 * clock at a cap solves P(f) = cap. P0 and a from an H100 SXM's clock and
 * draw measured at caps of 700 down to 200 W (Ujeniya et al., arXiv
 * 2604.11391, figures 6b and 9b: 1969/1889/1731/1501/1132/625 MHz drawing
 * 647/591/493/395/298/199 W; a least-squares fit gives draw = 187 W + 454 W
 * (f/f_max)^2.8): P0 = 187/700 of the TDP, a = 2.8 [DERIVED, secondary
 * copy; taken for every GPU kind as the same fraction of its TDP,
 * UNVERIFIED beyond Hopper]. Memory-bound kernels are not slowed: a cap
 * lowers the SM clock and keeps the HBM clock (Colangelo et al., H200 caps
 * of 200-700 W). Checked, not fitted: Llama 3 8B training on 4 H100 keeps
 * 0.915 / 0.821 / 0.594 of its throughput at 500 / 400 / 300 W (Mayr et
 * al., arXiv 2603.16164, table 4; check_step_run t_power_limit). */
#define POWER_STATIC_FRAC (187.0 / 700.0)
#define POWER_CLOCK_EXP 2.8
#define POWER_CLOCK_MIN 0.1   /* a cap at or below the static draw: 10% clock */

double wl_power_floor_w(const hw_gpu *g)
{
	return POWER_STATIC_FRAC * g->tdp_w;
}

double wl_power_clock(const hw_gpu *g)
{
	if (g->power_limit_w <= 0 || g->tdp_w <= 0 || g->power_limit_w >= g->tdp_w)
		return 1;
	double p0 = POWER_STATIC_FRAC * g->tdp_w;
	double x = (g->power_limit_w - p0) / (g->tdp_w - p0);
	double f = x > 0 ? pow(x, 1 / POWER_CLOCK_EXP) : 0;
	return f > POWER_CLOCK_MIN ? f : POWER_CLOCK_MIN;
}

/* The peak the time of a compute-bound kernel is charged against: the
 * precision's dense peak at the clock a power limit leaves (MFU keeps the
 * rated peak, wl_peak_flops). */
static double peak_of(const hw_gpu *g, hw_precision p)
{
	return wl__rated_peak(g, p) * wl_power_clock(g);
}

double wl__rated_peak(const hw_gpu *g, hw_precision p)
{
	double f = g->peak_flops[p];
	if (f <= 0 && p == PREC_BF16)
		f = g->peak_flops[PREC_FP16];       /* V100: no bf16, runs fp16 */
	if (f <= 0 && hw_prec_scaled(p))
		f = g->peak_flops[PREC_BF16];
	if (f <= 0)
		f = g->peak_flops[PREC_FP16];
	return f > 0 ? f : 1e12;
}

/* The fixed cost per tile is a time: an fp8 tile runs its k loop twice as
 * fast as a 16-bit one, so the same cost is worth twice the k elements (the
 * H200 fp8 GEMMs of layer shapes with k = 2048 reach 0.91-0.95 of the
 * median with k >= 4096, the bf16 ones 0.94-0.98: tests/validation/
 * h200-kernels.csv). */
static double k_eff(const hw_gpu *g, double k, hw_precision p)
{
	/* a scaled precision's tile runs its k loop as many times faster as its
	 * peak is above bf16's: fp8 2x, fp4 4x (B200, GB200) or 6x (B300, GB300) */
	double k0 = hw_prec_scaled(p) ? K0 * peak_of(g, p) / peak_of(g, PREC_BF16) : K0;
	return k / (k + k0);
}

/* The fraction of a scaled precision's peak its GEMMs reach, relative to
 * bf16's: fp8's measured ratio; fp4's where measured (Blackwell, above),
 * else fp8's. */
static double scaled_ratio(const hw_gpu *g, hw_precision p)
{
	const arch_params *a = arch_of(g);
	if (p == PREC_FP4 && a->fp4_ratio > 0)
		return a->fp4_ratio;
	return hw_prec_scaled(p) ? a->fp8_ratio : 1;
}

static double gemm_eff_of(const hw_gpu *g)
{
	return arch_of(g)->sustain * (g->gemm_eff > 0 ? g->gemm_eff : arch_of(g)->gemm_eff);
}

/* The fraction of precision p's peak a large GEMM holds: the GPU's MAMF
 * fraction times the scaled precision's ratio, never above the peak. */
static double gemm_frac(const hw_gpu *g, hw_precision p)
{
	return fmin(1.0, gemm_eff_of(g) * scaled_ratio(g, p));
}

double wl_gpu_held_gemm_eff(const hw_gpu *g)
{
	return gemm_eff_of(g);
}

static double hbm_Bps_of(const hw_gpu *g)
{
	double eff = g->hbm_eff > 0 ? g->hbm_eff : arch_of(g)->hbm_eff;
	double bw = g->hbm_Bps > 0 ? g->hbm_Bps : 1e12;
	return bw * eff;
}

/* Fraction of the SM-time that does useful work when an m x n output is cut
 * into tm x tn tiles run in waves of `sms` tiles: edge tiles are partly empty
 * (tile quantization), the last wave partly idle (wave quantization). */
static double tiling_eff(double m, double n, double tm, double tn, int sms)
{
	double tiles = ceil(m / tm) * ceil(n / tn);
	double waves = ceil(tiles / sms);
	return (m * n) / (waves * sms * tm * tn);
}

/* Best tiling among the library's tile sizes; smaller tiles reuse less data
 * per SM, which we charge as a lower per-tile efficiency (0.92 for half the
 * largest tile, 0.80 for a quarter: UNVERIFIED, CUTLASS profiler orders). */
static double shape_eff(const hw_gpu *g, double m, double n)
{
	const arch_params *a = arch_of(g);
	int sms = wl__sms(g);
	double tm = a->tile_m, tn = a->tile_n;
	double best = tiling_eff(m, n, tm, tn, sms);
	double e;
	e = 0.92 * tiling_eff(m, n, tm / 2, tn, sms);
	if (e > best)
		best = e;
	e = 0.92 * tiling_eff(m, n, tm, tn / 2, sms);
	if (e > best)
		best = e;
	e = 0.80 * tiling_eff(m, n, tm / 2, tn / 2, sms);
	if (e > best)
		best = e;
	return best;
}

double wl_gemm_time(const hw_gpu *g, hw_precision p, double m, double n, double k)
{
	if (m <= 0 || n <= 0 || k <= 0)
		return 0;
	double flops = 2 * m * n * k;
	double eff = gemm_frac(g, p);
	double t_math = flops / (peak_of(g, p) * eff * k_eff(g, k, p) * shape_eff(g, m, n));
	/* Roofline: A and B read once, C written once (16-bit elements). */
	double bytes = 2 * (m * k + k * n + m * n);
	double t_mem = bytes / hbm_Bps_of(g);
	return KERNEL_GAP_S + (t_math > t_mem ? t_math : t_mem);
}

/* `batch` independent m x n x k products in one kernel; tiles of all of them
 * share the waves. */
static double batched_time(const hw_gpu *g, hw_precision p, double batch, double m, double n,
                           double k)
{
	if (batch <= 0 || m <= 0 || n <= 0 || k <= 0)
		return 0;
	const arch_params *a = arch_of(g);
	int sms = wl__sms(g);
	double tiles = batch * ceil(m / a->tile_m) * ceil(n / a->tile_n);
	double waves = ceil(tiles / sms);
	double eff = batch * m * n / (waves * sms * a->tile_m * a->tile_n);
	double flops = 2 * batch * m * n * k;
	double t_math = flops / (peak_of(g, p) * gemm_frac(g, p) * k_eff(g, k, p) * eff);
	double bytes = (hw_prec_scaled(p) ? hw_precision_bytes(p) : 2) * batch *
	               (m * k + k * n + m * n);
	double t_mem = bytes / hbm_Bps_of(g);
	return KERNEL_GAP_S + (t_math > t_mem ? t_math : t_mem);
}

/* Batched GEMM (attention core): in bf16 even in fp8 recipes. */
double wl__bgemm_time(const hw_gpu *g, hw_precision p, double batch, double m, double n, double k)
{
	return batched_time(g, hw_prec_scaled(p) ? PREC_BF16 : p, batch, m, n, k);
}

/* Grouped GEMM (a MoE layer's local experts, Megatron-core's grouped_gemm /
 * Transformer Engine's GroupedLinear): one launch whose tiles share the
 * waves, in the layer's precision (fp8 recipes run the experts in fp8). */
double wl__grouped_gemm_time(const hw_gpu *g, hw_precision p, double batch, double m, double n,
                             double k)
{
	return batched_time(g, p, batch, m, n, k);
}

double wl_membound_time(const hw_gpu *g, double bytes)
{
	if (bytes <= 0)
		return 0;
	return KERNEL_GAP_S + bytes / hbm_Bps_of(g);
}

double wl__kernel_gap_s(void)
{
	return KERNEL_GAP_S;
}

double wl_attn_time(const hw_gpu *g, hw_precision p, double flops, bool backward, double keys,
                    double head_dim, scn_attention kernel)
{
	bool fa2 = kernel == ATTN_FLASH2 || kernel == ATTN_FLASH1;
	const arch_params *a = arch_of(g);
	if (hw_prec_scaled(p))
		p = PREC_BF16;   /* fp8 and NVFP4 recipes (Transformer Engine) keep attention in bf16 */
	double eff = backward ? a->flash_bwd_eff : a->flash_fwd_eff;
	double k0 = backward ? a->attn_k0_bwd : a->attn_k0_fwd;
	if (fa2 && a->fa2_fwd_eff > 0) {
		eff = backward ? a->fa2_bwd_eff : a->fa2_fwd_eff;
		k0 = FA2_K0;
	}
	if (eff <= 0)
		eff = 0.3;
	if (kernel == ATTN_FLASH1)
		eff /= FA1_SLOWER;
	if (flops <= 0)
		return 0;
	/* Size curve (Hopper): each query tile pays a fixed cost worth k0 keys
	 * of a 128-wide head, so efficiency grows with the keys it meets */
	double kv = keys * (head_dim > 0 ? head_dim : 128) / 128;
	if (k0 > 0 && kv > 0)
		eff *= kv / (kv + k0);
	return KERNEL_GAP_S + flops / (peak_of(g, p) * eff);
}

/* Whether the GPU has a fused attention kernel at all (FlashAttention needs
 * Ampere or later; Volta and Turing have none). */
bool wl_gpu_fused_attention(const hw_gpu *g)
{
	return wl__has_flash(g);
}

bool wl__has_flash(const hw_gpu *g)
{
	return arch_of(g)->flash_fwd_eff > 0;
}

double wl__peak(const hw_gpu *g, hw_precision p)
{
	return wl__rated_peak(g, p);
}
