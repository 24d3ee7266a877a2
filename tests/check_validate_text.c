/* check_validate_text.c: how `trainsim validate` reads the free text and cells
 * of rows written in other people's words (docs/validation.md, "From a row to a
 * scenario"). Each case is one wording a reviewer found misread, with what a
 * reader of that row means; the base rows are realistic (Selene A100, a NeMo
 * Llama 2 70B row). */
#include <check.h>
#include <math.h>
#include <string.h>
#include "coll.h"
#include "scn.h"
#include "val_int.h"
#include "val_test.h"
#include "workload.h"

#define A100_HW "Selene DGX A100 80GB (8 GPU/node; 8x200Gb/s HDR IB per node)"

/* A 64-GPU GPT row on Selene with one cell replaced: `other`, `prec`, `rc`. */
static int gpt_row(const char *other, const char *prec, const char *rc, int tp, int pp, int dp,
                   val_case *c, char *why, size_t n)
{
	char row[1024], tps[16] = "", pps[16] = "", dps[16] = "";
	if (tp > 0)
		snprintf(tps, sizeof tps, "%d", tp);
	if (pp > 0)
		snprintf(pps, sizeof pps, "%d", pp);
	if (dp > 0)
		snprintf(dps, sizeof dps, "%d", dp);
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,40,6144,48,2048,512,1,%s,%s,%s,\"%s\",%s,%s,"
	         "iteration_time,10,s,x", A100_HW, tps, pps, dps, other, prec, rc);
	return build_row(row, c, why, n);
}

/* Negations after the word and clause bounds before it. */
START_TEST(t_sp_negations)
{
	static const struct { const char *other; bool sp; } cases[] = {
		{"SP off", false}, {"SP: no", false}, {"SP=False", false},
		{"sequence parallel: off", false}, {"sequence parallelism disabled", false},
		{"sequence_parallel=True", true}, {"no CP, SP", true}, {"no overlap; SP", true},
		{"SP", true}, {"no SP", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256];
		ck_assert_msg(gpt_row(cases[i].other, "bf16", "full", 8, 4, 2, &c, why, sizeof why) == 0,
		              "%s: %s", cases[i].other, why);
		ck_assert_msg(c.s.training.sequence_parallel == cases[i].sp, "%s: SP %d",
		              cases[i].other, c.s.training.sequence_parallel);
		scn_release(&c.s);
	}
}
END_TEST

/* PyTorch's pipelining reduces an FSDP stage's gradients after the last
 * micro-batch only and keeps its parameters gathered (torchtitan with PP):
 * ZeRO-1, which reduces once a step; FSDP alone, or torchtitan without a
 * pipeline, is ZeRO-3 and reduces after every micro-batch (auto). */
START_TEST(t_gradient_sync)
{
	static const struct { const char *other; int pp, dp, every, zero; } cases[] = {
		{"torchtitan, FSDP", 4, 16, EVERY_MB_AUTO, 1},
		{"FSDP", 4, 16, EVERY_MB_AUTO, 3},
		{"torchtitan, FSDP", 1, 64, EVERY_MB_AUTO, 3},
		{"torchtitan, DDP", 4, 16, EVERY_MB_AUTO, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256];
		ck_assert_msg(gpt_row(cases[i].other, "bf16", "full", 1, cases[i].pp, cases[i].dp, &c,
		                      why, sizeof why) == 0, "%s: %s", cases[i].other, why);
		ck_assert_msg((int)c.s.training.grad_reduce.every_micro_batch == cases[i].every &&
		              c.s.training.zero == cases[i].zero,
		              "%s pp %d: every_micro_batch %d (zero %d)", cases[i].other, cases[i].pp,
		              c.s.training.grad_reduce.every_micro_batch, c.s.training.zero);
		scn_release(&c.s);
	}
}
END_TEST

/* ZeRO sharded in groups that replicate (training.zero_group): InternEvo's
 * zero1=N, HSDP within a node (unless the row leaves it open), torchtitan's
 * dp_replicate; a dp_shard of the whole DP group is full sharding. */
START_TEST(t_zero_group)
{
	static const struct { const char *other; int zero, group; } cases[] = {
		{"InternEvo Hybrid ZeRO: zero1=8", 1, 8},
		{"InternEvo, zero1=-1", 1, 0},
		{"PyTorch FSDP, HSDP", 3, 8},
		{"PyTorch FSDP sharding HYBRID_SHARD", 3, 8},
		{"PyTorch FSDP (FSDP or HSDP)", 3, 0},
		{"FSDP2, dp_shard=16, dp_replicate=4", 3, 16},
		{"FSDP2 (FULL_SHARD, dp_shard=64)", 3, 0},
		{"ZeRO-1, no HSDP", 1, 0},
		{"InternEvo, zero1=1", 0, 0},                       /* sharded over one: none */
		{"InternEvo, zero1=dict(size=8)", 1, 8},
		{"PyTorch FSDP/HSDP", 3, 0},                        /* either */
		{"FSDP full shard; HSDP was slower", 3, 0},
		{"FSDP, fsdp_shard=8", 3, 0},                       /* not dp_shard= */
		{"FSDP2, data_parallel_replicate_degree=4", 3, 16},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256];
		ck_assert_msg(gpt_row(cases[i].other, "bf16", "full", 1, 1, 64, &c, why, sizeof why) == 0,
		              "%s: %s", cases[i].other, why);
		ck_assert_msg(c.s.training.zero == cases[i].zero && c.s.training.zero_group ==
		              cases[i].group, "%s: zero %d, zero_group %d", cases[i].other,
		              c.s.training.zero, c.s.training.zero_group);
		scn_release(&c.s);
	}
}
END_TEST

/* Global batch cells written as products, with tokens and sequences, or in
 * millions without a unit; VPP "size of", recompute "block, N layers". */
START_TEST(t_batch_cells)
{
	static const struct { const char *gbs, *other, *rc; int gb, v, rl; } cases[] = {
		{"16 x 32", "", "full", 512, 1, 0},
		{"1.05M tokens (512 sequences)", "", "full", 512, 1, 0},
		{"1M", "", "full", 512, 1, 0},                     /* 2^20 tokens of 2048 */
		{"512 samples", "", "full", 512, 1, 0},
		{"512", "interleaved, VPP size of 2", "full, block, 4 layers", 512, 2, 4},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,40,6144,48,2048,\"%s\",1,8,4,2,"
		         "\"%s\",bf16,\"%s\",iteration_time,10,s,x", A100_HW, cases[i].gbs,
		         cases[i].other, cases[i].rc);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].gbs, why);
		const scn_training *t = &c.s.training;
		ck_assert_msg(t->global_batch == cases[i].gb && t->virtual_stages == cases[i].v &&
		              t->recompute_layers == cases[i].rl, "%s / %s / %s: B%d v%d layers %d",
		              cases[i].gbs, cases[i].other, cases[i].rc, t->global_batch,
		              t->virtual_stages, t->recompute_layers);
		scn_release(&c.s);
	}
}
END_TEST

/* Count cells in scientific notation are read whole ("2.048e3" was 2: a
 * -97% row reported ok); a fraction where a whole number belongs, and a
 * value with a decimal comma ("1,37", read as 1), leave the row unsimulated
 * with the reason, where "2048.0" (pandas) and "1,024" (thousands) read. */
START_TEST(t_count_cells_read_whole)
{
	static const struct { const char *layers, *seq, *mbs, *value; int l, sq, mb; } ok[] = {
		{"2.4e1", "2.048e3", "1.6e1", "137", 24, 2048, 16},
		{"24", "2048.0", "16", "1,024", 24, 2048, 16},
		{"24", "2K", "16", "137", 24, 2048, 16},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"%s\",32,1.7,%s,2304,24,%s,512,%s,1,1,32,,fp16,"
		         "full,iteration_time,\"%s\",s,x", A100_HW, ok[i].layers, ok[i].seq, ok[i].mbs,
		         ok[i].value);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", ok[i].layers, why);
		ck_assert_int_eq(c.s.model.layers, ok[i].l);
		ck_assert_int_eq(c.s.model.seq_len, ok[i].sq);
		ck_assert_int_eq(c.s.training.micro_batch, ok[i].mb);
		scn_release(&c.s);
	}
	static const struct { const char *mbs, *value, *why; } bad[] = {
		{"16.5", "137", "micro_batch '16.5' is not a whole number"},
		{"16", "1,37", "value '1,37' is ambiguous (a decimal comma?)"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"%s\",32,1.7,24,2304,24,2048,512,%s,1,1,32,,fp16,"
		         "full,iteration_time,\"%s\",s,x", A100_HW, bad[i].mbs, bad[i].value);
		ck_assert_int_lt(build_row(row, &c, why, sizeof why), 0);
		ck_assert_msg(strstr(why, bad[i].why) != NULL, "%s", why);
	}
}
END_TEST

/* A utilization whose name or unit names the precision of its peak. */
START_TEST(t_peak_precision)
{
	static const struct { const char *metric, *unit; int prec; } cases[] = {
		{"BF16 MFU", "%", PREC_BF16}, {"mfu_bf16", "%", PREC_BF16},
		{"MFU", "% (of the bf16 dense peak)", PREC_BF16}, {"MFU", "%", -1},
		{"tokens_per_sec", "bf16", -1},   /* not a utilization */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"8x H100 SXM5 80GB per node, NDR 400Gb/s\",64,18.4,"
		         "40,6144,48,2048,512,1,8,4,2,,fp8,full,%s,40,\"%s\",x", cases[i].metric,
		         cases[i].unit);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].metric, why);
		ck_assert_msg(c.peak_prec == cases[i].prec, "%s [%s]: peak of %d", cases[i].metric,
		              cases[i].unit, c.peak_prec);
		scn_release(&c.s);
	}
}
END_TEST

/* The third review's hardware texts: a NIC count per node is not the GPUs
 * per node, the multiplication sign counts, "640GB" and "40GbE" are not the
 * 40 GB part, an instance's own GPU and NICs win over a GPU named beside it,
 * the NICs' PCIe is not the GPUs', GH200 is no H200. */
START_TEST(t_third_review_hardware)
{
	static const struct { const char *hw, *gpu; int gpn, nics; double gbps; } cases[] = {
		{"8x H100 80GB; 4x400Gb/s NDR IB per node", "H100-SXM5-80GB", 8, 4, 400},
		{"DGX H100 (8x H100), 1x 400Gb/s NDR per node", "H100-SXM5-80GB", 8, 1, 400},
		{"HGX H100 80GB, RoCEv2 2x 400GbE per node", "H100-SXM5-80GB", 8, 2, 400},
		{"16 nodes \xc3\x97 8 A100 80GB, 4\xc3\x97 HDR 200 Gb/s per node", "A100-SXM4-80GB", 8,
		 4, 200},
		{"DGX A100 640GB, 8x HDR 200", "A100-SXM4-80GB", 8, 8, 200},
		{"A100 80GB SXM (8 GPU/node), 8x HDR 200, local NVMe 40 GB/s", "A100-SXM4-80GB", 8, 8,
		 200},
		{"p4d.24xlarge, 8x A100", "A100-SXM4-40GB", 8, 8, 50},
		{"16x p4d.24xlarge (128 A100 40GB GPUs)", "A100-SXM4-40GB", 8, 8, 50},
		{"8x H100 80GB, 8x ConnectX-7 400Gb/s (PCIe Gen5)", "H100-SXM5-80GB", 8, 8, 400},
		{"8x H100 PCIe 80GB, 2x 200 Gb/s", "H100-PCIE-80GB", 8, 2, 200},
		{"A100 80GB SXM4 (8 GPU/node), four 200 Gb/s HDR InfiniBand HCAs per node",
		 "A100-SXM4-80GB", 8, 4, 200},
		{"two H100 nodes, 8 GPU/node, eight 400 Gb/s NDR", "H100-SXM5-80GB", 8, 8, 400},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024];
		snprintf(row, sizeof row, "T-001,x,\"%s\",128,18.4,40,6144,48,2048,512,1,8,4,4,,bf16,"
		         "full,iteration_time,10,s,x", cases[i].hw);
		check_cluster(row, cases[i].hw, cases[i].gpu, cases[i].gpn, cases[i].nics, cases[i].gbps,
		              -1);
	}
	/* GH200 is its own part (not an H200), four to a node on a mesh */
	char row[512], why[256];
	val_case c;
	snprintf(row, sizeof row, "T-001,x,\"Alps: 4x GH200 per node\",128,18.4,40,6144,48,2048,"
	         "512,1,8,4,4,,bf16,full,iteration_time,10,s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_str_eq(c.s.cluster.gpu.name, "GH200-96GB");
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 4);
	ck_assert_int_eq(c.s.cluster.intra.kind, INTRA_NVLINK_MESH);
	scn_release(&c.s);
}
END_TEST

/* Layouts, MoE routing, metrics, batches, precision and recomputation as the
 * third review wrote them. */
START_TEST(t_third_review_words)
{
	static const struct { const char *other, *prec, *rc, *metric, *unit; int tp, pp, dp;
		int zero, rc_kind, precision; } cases[] = {
		{"TP\xc3\x97PP\xc3\x97" "DP = 4\xc3\x97" "4\xc3\x97" "4", "bf16", "full", "iteration_time",
		 "s", 4, 4, 4, 0, RECOMPUTE_FULL, PREC_BF16},
		{"(t, p, d) = (4, 4, 4)", "bf16", "full", "iteration_time", "s", 4, 4, 4, 0,
		 RECOMPUTE_FULL, PREC_BF16},
		{"3D parallel: DPxPPxTP = 4x4x4", "bf16", "full", "iteration_time", "s", 4, 4, 4, 0,
		 RECOMPUTE_FULL, PREC_BF16},
		{"4-way TP, 4-way PP, 4-way DP", "bf16", "full", "iteration_time", "s", 4, 4, 4, 0,
		 RECOMPUTE_FULL, PREC_BF16},
		{"HybridParallelPlugin(tp_size=4, pp_size=4, zero_stage=1)", "bf16", "full",
		 "iteration_time", "s", 4, 4, 4, 1, RECOMPUTE_FULL, PREC_BF16},
		{"tensor_parallel_degree = 4, pipeline_parallel_degree = 4", "bf16", "full",
		 "iteration_time", "s", 4, 4, 4, 0, RECOMPUTE_FULL, PREC_BF16},
		{"TP4 PP4, use_distributed_optimizer=False", "bf16", "full", "iteration_time", "s", 4,
		 4, 4, 0, RECOMPUTE_FULL, PREC_BF16},
		/* two axes of a tuple at the very end (was read past the text) */
		{"TP4 PP4, t/p", "bf16", "full", "iteration_time", "s", 4, 4, 4, -1, RECOMPUTE_FULL,
		 PREC_BF16},
		{"TP4 PP4", "bf16", "--recompute-activations", "iteration_time", "s", 4, 4, 4, -1,
		 RECOMPUTE_SELECTIVE, PREC_BF16},
		{"TP4 PP4", "16-mixed", "full", "iteration_time", "s", 4, 4, 4, -1, RECOMPUTE_FULL,
		 PREC_FP16},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,40,6144,48,2048,512,1,,,,\"%s\",%s,"
		         "\"%s\",%s,10,%s,x", A100_HW, cases[i].other, cases[i].prec, cases[i].rc,
		         cases[i].metric, cases[i].unit);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].other, why);
		const scn_training *t = &c.s.training;
		ck_assert_msg(t->tp == cases[i].tp && t->pp == cases[i].pp && t->dp == cases[i].dp &&
		              (cases[i].zero < 0 || t->zero == cases[i].zero) &&
		              (int)t->recompute == cases[i].rc_kind &&
		              (int)t->precision == cases[i].precision,
		              "%s / %s / %s: TP%d PP%d DP%d Z%d rc %d prec %d", cases[i].other,
		              cases[i].prec, cases[i].rc, t->tp, t->pp, t->dp, t->zero, t->recompute,
		              t->precision);
		scn_release(&c.s);
	}
	/* metrics: Megatron's and torchtitan's logs, a GPU's name as the unit */
	static const struct { const char *metric, *unit, *other; int m; bool per_gpu; } ms[] = {
		{"throughput per GPU (TFLOP/s/GPU)", "TFLOP/s/GPU", "TP4 PP4", VM_MODEL_TFLOPS, false},
		{"tflops", "TFLOP/s", "torchtitan, TP4 PP4", VM_MODEL_TFLOPS, false},
		{"tps", "tokens/s", "torchtitan, TP4 PP4", VM_TOKENS, true},
		{"throughput", "tokens/s/H100", "TP4 PP4", VM_TOKENS, true},
		{"throughput", "tokens/s per A100", "TP4 PP4", VM_TOKENS, true},
	};
	for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,40,6144,48,2048,512,1,,,,\"%s\",bf16,"
		         "full,%s,100,%s,x", A100_HW, ms[i].other, ms[i].metric, ms[i].unit);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", ms[i].metric, why);
		ck_assert_msg((int)c.metric == ms[i].m && c.per_gpu == ms[i].per_gpu &&
		              (ms[i].m != VM_TOKENS || c.unit_scale == 1),
		              "%s [%s]: metric %d per GPU %d scale %g", ms[i].metric, ms[i].unit,
		              c.metric, c.per_gpu, c.unit_scale);
		scn_release(&c.s);
	}
	/* batches: sequences x their length in tokens, a labelled micro-batch */
	char row[1024], why[256];
	val_case c;
	/* fp8 said only by Transformer Engine's flag, the precision cell empty */
	snprintf(row, sizeof row, "T-001,x,\"8x H100 80GB per node, 8x 400Gb/s NDR\",64,18.4,40,"
	         "6144,48,2048,512,1,4,4,4,\"--fp8-format hybrid\",,full,iteration_time,10,s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.precision, PREC_FP8);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,40,6144,48,2048,256 x 2048 tokens,mbs=2,4,4,"
	         "4,,bf16,full,iteration_time,10,s,x", A100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.global_batch, 256);
	ck_assert_int_eq(c.s.training.micro_batch, 2);
	scn_release(&c.s);
}
END_TEST

/* Batch sizes given only in other_parallel, as flags and configs write them. */
START_TEST(t_batch_in_text)
{
	static const struct { const char *other; int tp, pp, dp, gb, mb; } cases[] = {
		{"--global-batch-size 512 --micro-batch-size 2", 8, 4, 2, 512, 2},
		{"GBS 512, MBS 1", 8, 4, 2, 512, 1},
		{"per_device_train_batch_size=4, gradient_accumulation_steps=8, DDP", 1, 1, 64, 2048, 4},
		{"DeepSpeed ZeRO-2, train_batch_size 1024, train_micro_batch_size_per_gpu 4", 1, 1, 64,
		 1024, 4},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,6.7,32,4096,32,2048,,,%d,%d,%d,\"%s\",bf16,"
		         "full,iteration_time,10,s,x", A100_HW, cases[i].tp, cases[i].pp, cases[i].dp,
		         cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].other, why);
		ck_assert_msg(c.s.training.global_batch == cases[i].gb &&
		              c.s.training.micro_batch == cases[i].mb, "%s: B%d mb%d", cases[i].other,
		              c.s.training.global_batch, c.s.training.micro_batch);
		scn_release(&c.s);
	}
}
END_TEST

/* The fourth round of review rows: hardware texts. A side network's clause
 * (storage, front-end) is not the compute fabric; an MI250X is two GCDs; an
 * A100 PCIe 40GB and an H200 NVL are their own cards; an MI300A is no
 * MI300X. */
START_TEST(t_fourth_review_hardware)
{
	static const struct { const char *hw, *gpu; int gpn, nics; double gbps; bool tcp; } cases[] = {
		{"DGX H100: 8x H100, 2x BlueField-3 DPU 200Gb/s (storage), 8x ConnectX-7 400Gb/s "
		 "(compute)", "H100-SXM5-80GB", 8, 8, 400, false},
		{"8x A100 80GB SXM4; 2x 40GbE front-end, 8x 200Gb/s HDR IB back-end", "A100-SXM4-80GB", 8,
		 8, 200, false},
		{"Frontier: 4x AMD MI250X per node (8 GCDs), 4x 200 Gb/s Slingshot-11", "MI250X-GCD", 8, 4,
		 200, false},
		{"LUMI-G node: 4 AMD MI250X, 4x 200 Gb/s Slingshot", "MI250X-GCD", 8, 4, 200, false},
		{"8x A100-PCIE-40GB, 100 Gbps Ethernet", "A100-PCIE-40GB", 8, 1, 100, true},
		{"8x H200 NVL 141GB (PCIe, 2-way NVLink bridges), 8x 400Gb/s", "H200-NVL-141GB", 8, 8,
		 400, false},
		{"HGX H200 (8x H200, NVLink), 8x 400Gb/s NDR", "H200-SXM-141GB", 8, 8, 400, false},
		/* cloud machine types and shapes: their GPU, GPUs and network */
		{"GCP a2-highgpu-8g (8x A100 40GB)", "A100-SXM4-40GB", 8, 1, 100, true},
		{"GCP a2-ultragpu-8g (8x A100 80GB), 100 Gbps", "A100-SXM4-80GB", 8, 1, 100, true},
		{"a2-highgpu-4g", "A100-SXM4-40GB", 4, 1, 100, true},
		{"AWS p3.16xlarge (8x V100 16GB SXM2), 25 Gbps networking", "V100-SXM2-16GB", 8, 1, 25,
		 true},
		{"AWS p3dn.24xlarge", "V100-SXM2-32GB", 8, 8, 12.5, false},
		{"OCI BM.GPU4.8", "A100-SXM4-40GB", 8, 8, 200, false},
		{"Azure Standard_ND96isr_H100_v5", "H100-SXM5-80GB", 8, 8, 400, false},
		{"GCP a3-ultragpu-8g", "H200-SXM-141GB", 8, 8, 400, false},
		{"JUPITER Booster: 4x NVIDIA GH200 Grace Hopper Superchips per node, 4x NDR200 "
		 "InfiniBand", "GH200-96GB", 4, 4, 200, false},
		/* Ethernet NICs listed before the node's InfiniBand adapters: NCCL
		 * takes IB verbs (HPE8B13); said to run over TCP, the Ethernet */
		{"8x H200-SXM5-141GB per node; per node '8x HPE Slingshot SA210S Ethernet 200Gb 1-port "
		 "PCIe NIC, 8x HPE InfiniBand NDR/Ethernet 400Gb 1-port OSFP Adapter'",
		 "H200-SXM-141GB", 8, 8, 400, false},
		{"8x A100 80GB, 1x 100GbE, 8x HDR InfiniBand 200Gb/s", "A100-SXM4-80GB", 8, 8, 200,
		 false},
		{"8x A100 80GB, 1x 100GbE (NCCL over TCP), 8x HDR InfiniBand 200Gb/s unused",
		 "A100-SXM4-80GB", 8, 1, 100, true},
		/* but not when the Ethernet is said to be the GPUs', the IB is a
		 * storage or unused network, counts fewer NICs, or is an "EDR" of
		 * another word */
		{"8x H100 SXM5 80GB per node; GPU fabric 8x 400GbE; 1x HDR IB 200Gb/s",
		 "H100-SXM5-80GB", 8, 8, 400, true},
		{"8x H100 SXM5 80GB per node; 8x 400GbE; 1x 100Gb EDR InfiniBand", "H100-SXM5-80GB",
		 8, 8, 400, true},
		{"8x H100 SXM5 80GB per node; 8x 400 GbE; HDR InfiniBand 200Gb x1 for the parallel "
		 "file system", "H100-SXM5-80GB", 8, 8, 400, true},
		{"8x H100 SXM5 80GB per node; 8x 400 Gbps Ethernet, 1x 200 Gbps InfiniBand "
		 "(out-of-band)", "H100-SXM5-80GB", 8, 8, 400, true},
		{"8x H100 SXM5 80GB per node; 8x 400GbE GPU NICs, 2x 100GbE FedRAMP enclave uplinks",
		 "H100-SXM5-80GB", 8, 8, 400, true},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,40,6144,48,2048,512,1,8,4,2,,,"
		         "full,iteration_time,10,s,x", cases[i].hw);
		check_cluster(row, cases[i].hw, cases[i].gpu, cases[i].gpn, cases[i].nics, cases[i].gbps,
		              cases[i].tcp);
		if (strstr(cases[i].gpu, "NVL") || strstr(cases[i].gpu, "PCIE")) {
			val_case c;
			ck_assert_int_eq(build_row(row, &c, why, sizeof why), 0);
			ck_assert_int_eq(c.s.cluster.intra.kind, INTRA_PCIE);
			scn_release(&c.s);
		}
	}
	char row[512], why[256];
	val_case c;
	snprintf(row, sizeof row, "T-001,x,\"El Capitan: 4x MI300A per node\",64,18.4,40,6144,48,"
	         "2048,512,1,8,4,2,,bf16,full,iteration_time,10,s,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "MI300A"));
	/* A3 High moves GPU traffic by GPUDirect-TCPX over its 4 GPU NICs of
	 * 200 Gb/s (refused until GPUDirect over TCP was modelled) */
	snprintf(row, sizeof row, "T-001,x,\"GCP a3-highgpu-8g (8x NVIDIA H100 80GB)\",64,18.4,40,6144,"
	         "48,2048,512,1,8,4,2,,bf16,full,iteration_time,10,s,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_GDTCP);
	ck_assert_int_eq(c.s.cluster.nic.count, 4);
	scn_release(&c.s);
}
END_TEST

/* Layouts, cells and batches as the fourth round wrote them. */
START_TEST(t_fourth_review_layout)
{
	static const struct { const char *gpus, *tp, *pp, *other; int gpu_count, t, p, d, vs, zero,
		group; } cases[] = {
		{"64", "", "", "Llama 2 70B; 4x4x4 (TP x PP x DP)", 64, 4, 4, 4, 1, 0, 0},
		{"64", "", "", "Llama 2 70B; model parallel size 8 (tensor), pipeline 2", 64, 8, 2, 4, 1,
		 0, 0},
		{"64", "", "", "Llama 2 70B; pipeline stages: 4; model parallel: 4 (DeepSpeed)", 64, 4,
		 4, 4, 1, 1, 0},
		{"64", "", "", "Llama 2 70B; pipeline-model-parallel-size 4, model parallel 2", 64, 2, 4,
		 8, 1, 1, 0},
		{"64", "", "", "Llama 2 70B; tensor_parallel_degree = 8, pipeline_parallel_degree = 2, "
		 "data_parallel_shard_degree = -1", 64, 8, 2, 4, 1, 3, 0},
		{"64", "", "", "Llama 2 70B; MaxText ici_fsdp_parallelism=8, dcn_data_parallelism=8", 64,
		 1, 1, 64, 1, 3, 8},
		{"64", "4", "4 (VP 5)", "Llama 2 70B", 64, 4, 4, 4, 5, 0, 0},
		{"8 nodes", "4", "4", "Llama 2 70B", 64, 4, 4, 4, 1, 0, 0},
		{"64 (8 nodes)", "4", "4", "Llama 2 70B", 64, 4, 4, 4, 1, 0, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"DGX H100 (8x H100 SXM5 80GB, 8x 400Gb/s NDR IB)\","
		         "%s,70,80,8192,64,4096,512,1,%s,%s,,\"%s\",bf16,full,iteration_time,10,s,x",
		         cases[i].gpus, cases[i].tp, cases[i].pp, cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].other, why);
		const scn_training *t = &c.s.training;
		ck_assert_msg(scn_gpus(&c.s) == cases[i].gpu_count && t->tp == cases[i].t &&
		              t->pp == cases[i].p && t->dp == cases[i].d &&
		              t->virtual_stages == cases[i].vs && t->zero == cases[i].zero &&
		              t->zero_group == cases[i].group,
		              "%s / %s / %s: %d GPUs, tp %d pp %d dp %d vs %d zero %d group %d",
		              cases[i].gpus, cases[i].pp, cases[i].other, scn_gpus(&c.s), t->tp, t->pp,
		              t->dp, t->virtual_stages, t->zero, t->zero_group);
		scn_release(&c.s);
	}
	static const struct { const char *gbs, *other; int gb, mb; } batches[] = {
		{"", "Llama 2 7B; batch size 4 per GPU, no gradient accumulation", 256, 4},
		{"4Mi tokens", "Llama 2 7B", 1024, 4},
		{"~4M tokens/step", "Llama 2 7B", 1024, 4},
		{"", "Llama 2 7B; local batch 4, global batch 512", 512, 4},
		{"", "Llama 2 7B; batch size 8M tokens, micro batch 4", 2048, 4},
	};
	for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"DGX H100 (8x H100 SXM5 80GB, 8x 400Gb/s NDR IB)\","
		         "64,6.7,32,4096,32,4096,%s,%s,1,1,64,\"%s\",bf16,full,iteration_time,10,s,x",
		         batches[i].gbs, *batches[i].gbs ? "4" : "", batches[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", batches[i].other, why);
		ck_assert_msg(c.s.training.global_batch == batches[i].gb &&
		              c.s.training.micro_batch == batches[i].mb, "%s %s: B%d mb%d",
		              batches[i].gbs, batches[i].other, c.s.training.global_batch,
		              c.s.training.micro_batch);
		scn_release(&c.s);
	}
}
END_TEST

/* "40 of 80 layers" recomputed: that share of each pipeline chunk. */
START_TEST(t_recompute_share)
{
	char row[1024], why[256];
	val_case c;
	snprintf(row, sizeof row, "T-001,x,\"DGX H100 (8x H100 SXM5 80GB, 8x 400Gb/s NDR IB)\",64,"
	         "70,80,8192,64,4096,512,1,4,4,,Llama 2 70B,bf16,40 of 80 layers,iteration_time,10,"
	         "s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_FULL);
	ck_assert_int_eq(c.s.training.recompute_layers, 10);   /* 20 layers a stage */
	scn_release(&c.s);
}
END_TEST

/* Models named without their shape, with a head width of their own, or
 * with the shape written out in words. */
START_TEST(t_fourth_review_models)
{
	static const struct { const char *shape, *other; int layers, hidden, heads, kv, ffn, vocab,
		head_dim, seq; bool gated; } cases[] = {
		{",,,", "Llama 3.2 3B", 28, 3072, 24, 8, 8192, 128256, 128, 8192, true},
		{",,,", "Mistral 7B", 32, 4096, 32, 8, 14336, 32000, 128, 8192, true},
		{",,,", "Falcon-180B", 80, 14848, 232, 8, 59392, 65024, 64, 2048, false},
		{",,,", "Qwen3-32B", 64, 5120, 64, 8, 25600, 151936, 128, 4096, true},
		{"36,4096,32,4096", "Qwen3-8B", 36, 4096, 32, 8, 12288, 151936, 128, 4096, true},
		{"40,5120,32,8192", "Mistral NeMo 12B (head_dim 128)", 40, 5120, 32, 8, 14336, 131072,
		 128, 8192, true},
		{"46,4608,32,8192", "Gemma 2 27B", 46, 4608, 32, 16, 36864, 256000, 128, 8192, true},
		{"28,3072,16,8192", "Gemma 7B", 28, 3072, 16, 16, 24576, 256000, 256, 8192, true},
		{",,,", "80 layers, hidden size 8192, 64 attention heads (GQA with 8 KV heads), FFN "
		 "28672, vocab 128K, sequence 8192", 80, 8192, 64, 8, 28672, 128000, 128, 8192, false},
		{",,,", "d_model=4096, n_layers=32, n_heads=32, max_seq_len=4096", 32, 4096, 32, 32,
		 16384, 0, 128, 4096, false},
		{",,,4096", "llama31_405b (NeMo 2.0 recipe)", 126, 16384, 128, 8, 53248, 128256, 128,
		 4096, true},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"DGX H100 (8x H100 SXM5 80GB, 8x 400Gb/s NDR IB)\","
		         "512,,%s,512,1,8,8,8,\"%s\",bf16,full,iteration_time,10,s,x", cases[i].shape,
		         cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].other, why);
		const scn_model *m = &c.s.model;
		ck_assert_msg(m->layers == cases[i].layers && m->hidden == cases[i].hidden &&
		              m->heads == cases[i].heads && m->kv_heads == cases[i].kv &&
		              m->ffn_hidden == cases[i].ffn &&
		              (cases[i].vocab == 0 || m->vocab == cases[i].vocab) &&
		              m->head_dim == cases[i].head_dim && m->seq_len == cases[i].seq &&
		              m->gated_mlp == cases[i].gated,
		              "%s: l%d h%d a%d kv%d ffn%d vocab%d hd%d seq%d gated%d", cases[i].other,
		              m->layers, m->hidden, m->heads, m->kv_heads, m->ffn_hidden, m->vocab,
		              m->head_dim, m->seq_len, m->gated_mlp);
		scn_release(&c.s);
	}
	/* Mistral NeMo is a model, not NVIDIA's NeMo: no NeMo recipe assumed */
	char row[1024], why[256];
	val_case c;
	snprintf(row, sizeof row, "T-001,x,\"DGX H100 (8x H100 SXM5 80GB, 8x 400Gb/s NDR IB)\",64,,"
	         "40,5120,32,8192,256,1,8,1,,Mistral NeMo 12B,bf16,full,iteration_time,10,s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert(!c.s.training.grad_reduce.overlap_param_gather);
	ck_assert(!c.s.training.sequence_parallel && c.s.training.zero == 0);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,\"DGX H100 (8x H100 SXM5 80GB, 8x 400Gb/s NDR IB)\",64,,"
	         "24,1024,128,512,256,1,1,1,,T5-11B (encoder-decoder),bf16,full,iteration_time,10,s,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "encoder-decoder"));
}
END_TEST

/* The fifth round: rows read silently wrong. */
#define H100_HW "DGX H100 (8x H100 SXM5 80GB, 8x 400Gb/s NDR IB)"
static void fifth_row(const char *hw, const char *gpus, const char *shape, const char *layout,
                      const char *other, const char *prec, const char *metric, const char *value,
                      const char *unit, val_case *c, int want)
{
	char row[1600], why[256];
	snprintf(row, sizeof row, "T-001,x,\"%s\",%s,,%s,%s,\"%s\",%s,,\"%s\",%s,%s,x", hw, gpus,
	         shape, layout, other, prec, metric, value, unit);
	int rc = build_row(row, c, why, sizeof why);
	ck_assert_msg(rc == want, "%s / %s / %s: %d (%s)", other, metric, unit, rc, why);
}

START_TEST(t_fifth_review)
{
	val_case c;
	/* a count's scale in the metric name or alone in the unit */
	static const struct { const char *metric, *value, *unit; double si; } scaled[] = {
		{"k tokens/s", "200", "", 2e5}, {"Throughput [k tok/s]", "200", "", 2e5},
		{"k tokens/s/GPU", "3.1", "", 3100}, {"Mtokens/s", "1.2", "", 1.2e6},
		{"tokens/s/GPU", "3.1", "K", 3100}, {"Throughput (tokens/s, K)", "200", "", 2e5},
	};
	for (size_t i = 0; i < sizeof scaled / sizeof scaled[0]; i++) {
		fifth_row(H100_HW, "64", "32,4096,32,4096", "256,1,1,1,64", "Llama 2 7B", "bf16",
		          scaled[i].metric, scaled[i].value, scaled[i].unit, &c, 0);
		ck_assert_msg(fabs(c.published_si - scaled[i].si) < 1e-6 * scaled[i].si,
		              "%s [%s]: %g", scaled[i].metric, scaled[i].unit, c.published_si);
		scn_release(&c.s);
	}
	/* a GB200 NVL72's node is the rack's 72, whatever counts racks or trays */
	fifth_row("8 x GB200 NVL72 racks", "576", "32,4096,32,4096", "576,1,1,1,", "", "bf16",
	          "iteration_time", "10", "s", &c, 0);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 72);
	scn_release(&c.s);
	fifth_row("GB200 NVL72, 4x GB200 per compute tray", "144", "32,4096,32,4096", "144,1,1,1,",
	          "", "bf16", "iteration_time", "10", "s", &c, 0);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 72);
	scn_release(&c.s);
	/* expert parallelism in the papers' words; MoE models by their names */
	static const struct { const char *other; int ep, experts; } moe[] = {
		{"DeepSeek-V3; 64-way expert parallelism", 64, 256},
		{"Mixtral 8x7B; 8-way EP", 8, 8},
		{"Qwen3-30B-A3B; EP8", 8, 128}, {"qwen3_30b_a3b, EP 8", 8, 128},
		{"Qwen3 30B A3B, EP8", 8, 128}, {"mixtral_8x7b; EP 8", 8, 8},
	};
	for (size_t i = 0; i < sizeof moe / sizeof moe[0]; i++) {
		fifth_row(H100_HW, "1024", ",,,4096", "8192,1,1,16,", moe[i].other, "bf16",
		          "Tokens / sec / GPU", "1000", "", &c, 0);
		ck_assert_msg(c.s.training.ep == moe[i].ep && c.s.model.experts == moe[i].experts,
		              "%s: ep %d experts %d", moe[i].other, c.s.training.ep,
		              c.s.model.experts);
		scn_release(&c.s);
	}
	/* LoRA is read as LoRA, with its rank where said; QLoRA is refused;
	 * MLA's kv_lora is not LoRA */
	static const struct { const char *other; int rank; } lora[] = {
		{"llama2_70b_lora", 16}, {"Llama 2 70B LoRA finetuning (rank 8)", 8},
		{"PEFT (LoRA r=32)", 32}, {"peft_scheme=lora", 16}};
	for (size_t i = 0; i < sizeof lora / sizeof lora[0]; i++) {
		fifth_row(H100_HW, "8", "80,8192,64,4096", "8,1,8,1,1", lora[i].other, "bf16",
		          "iteration_time", "10", "s", &c, 0);
		ck_assert_int_eq(c.s.training.peft, PEFT_LORA);
		ck_assert_int_eq(c.s.training.lora_rank, lora[i].rank);
		scn_release(&c.s);
	}
	fifth_row(H100_HW, "8", "80,8192,64,4096", "8,1,8,1,1", "QLoRA 4-bit", "bf16",
	          "iteration_time", "10", "s", &c, -1);
	/* precision said only in the text; quoted JSON keys read as keys */
	static const struct { const char *other; int prec, zero, gb, mb, rc; } text[] = {
		{"FSDP2, torch.compile, Float8 (tensorwise scaling)", PREC_FP8, 3, 256, 4, -1},
		{"Transformer Engine FP8", PREC_FP8, -1, 256, 4, -1},
		{"DeepSpeed {\"fp16\": {\"enabled\": true}, \"zero_optimization\": {\"stage\": 2}}",
		 PREC_FP16, 2, 256, 4, -1},
		{"{\"bf16\": {\"enabled\": false}, \"fp16\": {\"enabled\": true}}", PREC_FP16, -1, 256,
		 4, -1},
		{"Megatron-LM --fp16", PREC_FP16, -1, 256, 4, -1},
		{"DeepSpeed \"zero_optimization\": {\"stage\": 3}, \"train_batch_size\": 1024, "
		 "\"train_micro_batch_size_per_gpu\": 2", PREC_BF16, 3, 1024, 2, -1},
		{"torchtitan FSDP2, --activation_checkpoint.mode full", PREC_BF16, 3, 256, 4,
		 RECOMPUTE_FULL},
		{"FSDP, sharding mode=full_shard", PREC_BF16, 3, 256, 4, -1},
		/* a precision given as a key's value outweighs a format named
		 * elsewhere, unless the value itself runs its GEMMs in fp8 */
		{"(e.g. FP8 128 GPUs 5.92 s); precision bf16", PREC_BF16, -1, 256, 4, -1},
		{"dtype=bfloat16 (an FP8 run is in another table)", PREC_BF16, -1, 256, 4, -1},
		{"mixed precision (fp16)", PREC_FP16, -1, 256, 4, -1},
		{"precision: bf16 with FP8 GEMMs", PREC_FP8, -1, 256, 4, -1},
		{"grad_sync_dtype bf16; FP8 hybrid", PREC_FP8, -1, 256, 4, -1},
		/* another tensor's dtype key is not the run's precision */
		{"fp8 (e4m3) training; grad reduce dtype fp32", PREC_FP8, -1, 256, 4, -1},
		{"params dtype bf16; fp8 GEMMs", PREC_FP8, -1, 256, 4, -1},
		{"precision bf16 (FP8 GEMMs via Transformer Engine)", PREC_FP8, -1, 256, 4, -1},
		{"dtype=fp32 for the optimizer, bf16 compute", PREC_BF16, -1, 256, 4, -1},
		{"precision: bf16 (fp8 in a later table)", PREC_BF16, -1, 256, 4, -1},
		{"fp8 hybrid; NVFP4 results are in the next row", PREC_FP8, -1, 256, 4, -1},
	};
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
		char other[512];
		/* the CSV doubles the quotes of a quoted field */
		size_t k = 0;
		for (const char *q = text[i].other; *q && k < sizeof other - 2; q++) {
			if (*q == '"')
				other[k++] = '"';
			other[k++] = *q;
		}
		other[k] = '\0';
		bool gb_given = text[i].gb == 256;
		fifth_row(H100_HW, "64", "32,4096,32,4096", gb_given ? "256,4,1,1,64" : ",,1,1,64",
		          other, "", "iteration_time", "10", "s", &c, 0);
		ck_assert_msg((int)c.s.training.precision == text[i].prec &&
		              (text[i].zero < 0 || c.s.training.zero == text[i].zero) &&
		              c.s.training.global_batch == text[i].gb &&
		              c.s.training.micro_batch == text[i].mb &&
		              (text[i].rc < 0 || (int)c.s.training.recompute == text[i].rc),
		              "%s: prec %d zero %d B%d mb%d rc %d", text[i].other,
		              c.s.training.precision, c.s.training.zero, c.s.training.global_batch,
		              c.s.training.micro_batch, c.s.training.recompute);
		if (strstr(text[i].other, "full_shard"))
			ck_assert_int_ne(c.s.training.recompute, RECOMPUTE_FULL);
		scn_release(&c.s);
	}
}
END_TEST

/* The fifth round: rows refused that say what they ran. */
START_TEST(t_fifth_review_refused)
{
	val_case c;
	/* utilizations and throughputs as tables head them */
	static const struct { const char *metric, *unit; int m; } metrics[] = {
		{"Efficiency (MFU)", "%", VM_MFU}, {"efficiency", "% MFU", VM_MFU},
		{"utilization", "% MFU", VM_MFU}, {"Throughput (T/s)", "", VM_TOKENS},
		{"Throughput (S/s)", "", VM_SAMPLES}, {"scaling efficiency", "%", VM_SCALING_EFF},
	};
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		char row[1024], why[256];
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,,32,4096,32,4096,256,1,1,1,64,Llama 2 7B,"
		         "bf16,,%s,41,%s,x", H100_HW, metrics[i].metric, metrics[i].unit);
		int rc = build_row(row, &c, why, sizeof why);
		ck_assert_msg(rc == 0 && (int)c.metric == metrics[i].m, "%s [%s]: %d %d (%s)",
		              metrics[i].metric, metrics[i].unit, rc, c.metric, why);
		scn_release(&c.s);
	}
	/* batch, context and tensor sizes as configs name them */
	static const struct { const char *gpus, *other; int tp, pp, dp, cp, zero, gb, mb; } cfg[] = {
		{"64", "Llama 3 8B; FSDP2; training.local_batch_size = 2", 1, 1, 64, 1, 3, 128, 2},
		{"32", "Llama 2 7B; ici_fsdp_parallelism=8, dcn_fsdp_parallelism=4, "
		 "per_device_batch_size=4", 1, 1, 32, 1, 3, 128, 4},
		{"64", "Llama 3 8B; FSDP2; --parallelism.context_parallel_degree 8; --training.batch_size 1",
		 1, 1, 8, 8, 3, 8, 1},
		{"16", "picotron: dp_size=4, tp_size=2, cp_size=2, micro batch 1, global batch 64", 2, 1,
		 4, 2, -1, 64, 1},
		{"64", "InternLM 20B; parallel = dict(zero1=dict(size=8), tensor=dict(size=4, "
		 "mode='mtp'), pipeline=dict(size=1)); global batch 256", 4, 1, 16, 1, 1, 256, 8},
		{"64", "DeepSpeed ZeRO++ (qwZ + hpZ + qgZ); global batch 256", 1, 1, 64, 1, 3, 256, 4},
		{"64", "Colossal-AI GeminiPlugin (placement_policy='static'); global batch 256", 1, 1, 64,
		 1, 3, 256, 4},
		{"64", "\"zero_optimization\": {\"stage\": 2, \"offload_optimizer\": {\"device\": \"none\"}}"
		 "; global batch 256", 1, 1, 64, 1, 2, 256, 2},
		{"64", "GPT-NeoX: pipe-parallel-size 4, model-parallel-size 2; global batch 256", 2, 4, 8,
		 1, -1, 256, 1},
		{"", "ZeRO Stage 3, per_device_train_batch_size=8, gradient_accumulation_steps=4", 1, 1,
		 64, 1, 3, 2048, 8},
	};
	for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
		char row[1024], why[256], other[512];
		size_t k = 0;
		for (const char *q = cfg[i].other; *q && k < sizeof other - 2; q++) {
			if (*q == '"')
				other[k++] = '"';
			other[k++] = *q;
		}
		other[k] = '\0';
		snprintf(row, sizeof row, "T-001,x,\"%s\",%s,6.7,32,4096,32,4096,,,,,,\"%s\",bf16,,"
		         "iteration_time,10,s,x", *cfg[i].gpus ? H100_HW : "8 nodes x 8 A100 80GB",
		         cfg[i].gpus, other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cfg[i].other, why);
		const scn_training *t = &c.s.training;
		ck_assert_msg(t->tp == cfg[i].tp && t->pp == cfg[i].pp && t->dp == cfg[i].dp &&
		              t->cp == cfg[i].cp && (cfg[i].zero < 0 || t->zero == cfg[i].zero) &&
		              t->global_batch == cfg[i].gb && t->micro_batch == cfg[i].mb,
		              "%s: tp %d pp %d dp %d cp %d zero %d B%d mb%d", cfg[i].other, t->tp,
		              t->pp, t->dp, t->cp, t->zero, t->global_batch, t->micro_batch);
		scn_release(&c.s);
	}
	/* MLPerf's accelerators_per_node; the H800 PCIe card is not in the catalog */
	char row[1024], why[256];
	snprintf(row, sizeof row, "T-001,x,\"accelerator_model_name: NVIDIA A100-SXM4-80GB; "
	         "accelerators_per_node: 4; number_of_nodes: 8\",32,6.7,32,4096,32,4096,256,1,1,1,,"
	         ",bf16,,iteration_time,10,s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 4);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,NVIDIA H800 PCIe 80GB x 8,64,6.7,32,4096,32,4096,256,1,1,"
	         "1,,,bf16,,iteration_time,10,s,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "H800 PCIe"));
	/* NeMo's TFLOP/s per GPU are model FLOPs */
	snprintf(row, sizeof row, "T-001,NeMo performance,\"%s\",8,,32,4096,32,4096,128,1,1,1,8,,"
	         "bf16,full,TFLOPs/GPU,400,,x", H100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.metric, VM_MODEL_TFLOPS);
	scn_release(&c.s);
	/* nccl-tests rows in words */
	static const struct { const char *metric, *unit, *other; coll_op op; int m; double bytes;
		int nodes; } nccl[] = {
		{"all_reduce time 64MB", "us", "", COLL_ALL_REDUCE, VM_COLL_TIME, 67108864.0, 1},
		{"all_reduce latency 8B", "us", "", COLL_ALL_REDUCE, VM_COLL_TIME, 8, 1},
		{"all_reduce Avg bus bandwidth (8B to 8GB)", "GB/s", "", COLL_ALL_REDUCE,
		 VM_COLL_AVG_BUSBW, 8, 1},
		{"busbw at 8G", "GB/s", "reduce_scatter_perf -b 8 -e 8G -f 2 -g 8",
		 COLL_REDUCE_SCATTER, VM_COLL_BUSBW, 8589934592.0, 1},
		{"Avg bus bandwidth", "GB/s", "all_gather_perf -b 8 -e 8G -f 2", COLL_ALL_GATHER,
		 VM_COLL_AVG_BUSBW, 8, 1},
		{"all_reduce algbw", "GB/s @ 1 GiB", "", COLL_ALL_REDUCE, VM_COLL_ALGBW, 1073741824.0,
		 1},
		{"all_reduce_perf: size 1073741824, busbw", "GB/s", "", COLL_ALL_REDUCE, VM_COLL_BUSBW,
		 1073741824.0, 1},
		{"busbw @16G", "GB/s", "srun -N 2 --ntasks-per-node=8 ./build/all_reduce_perf -b 8 -e "
		 "16G -f 2 -g 1", COLL_ALL_REDUCE, VM_COLL_BUSBW, 17179869184.0, 2},
		{"all_reduce busbw 1G", "GB/s", "2 nodes, 8 GPUs each", COLL_ALL_REDUCE, VM_COLL_BUSBW,
		 1073741824.0, 2},
	};
	for (size_t i = 0; i < sizeof nccl / sizeof nccl[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",,,,,,,,,,,,\"%s\",,,\"%s\",100,%s,x", H100_HW,
		         nccl[i].other, nccl[i].metric, nccl[i].unit);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", nccl[i].metric, why);
		ck_assert_msg((int)c.coll_op == (int)nccl[i].op && (int)c.metric == nccl[i].m &&
		              c.coll_bytes == nccl[i].bytes && c.s.cluster.nodes == nccl[i].nodes,
		              "%s: op %d metric %d bytes %g nodes %d", nccl[i].metric, c.coll_op,
		              c.metric, c.coll_bytes, c.s.cluster.nodes);
		scn_release(&c.s);
	}
}
END_TEST

/* What a review of the rules above found they misread (each was read right
 * before them, or is now read wrongly): negations, other features' words,
 * other models' names. */
START_TEST(t_reader_regressions)
{
	val_case c;
	char row[1024], why[256];
	/* simulated, not refused as PEFT or an encoder-decoder */
	static const char *const dense[] = {"full fine-tuning (no LoRA)",
		"NeMo 2.0 finetune_recipe, peft_scheme=None", "full parameter training, PEFT not used",
		"MLA with KV LoRA rank 512, q LoRA rank 1536", "decoder-only with T5 relative position bias",
		"decoder-only, trained with a UL2 mixture-of-denoisers objective"};
	for (size_t i = 0; i < sizeof dense / sizeof dense[0]; i++) {
		snprintf(row, sizeof row, "T-001,\"Megatron-LM README (GPT, BERT and T5 scaling)\",\"%s\",64,"
		         "70,80,8192,64,4096,512,1,8,4,2,\"%s\",bf16,,step_time,10,s,x", H100_HW,
		         dense[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", dense[i], why);
		scn_release(&c.s);
	}
	/* shapes: the MLP's width is not the model's; Gemma 2's FFN is 4h */
	static const struct { const char *cols, *other; int layers, hidden, ffn; } shapes[] = {
		{",,,4096", "Llama 2 70B: 80 layers, FFN hidden size 28672, hidden size 8192, 64 "
		 "attention heads", 80, 8192, 28672},
		{",,,4096", "FSDP, recompute 4 layers; model: layers 32, hidden 4096, 32 heads", 32, 4096,
		 16384},
		{"42,3584,16,8192", "Gemma 2 9B", 42, 3584, 14336},
		{",,,8192", "FSDP, gemma2_9b", 42, 3584, 14336},
	};
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",8,,%s,64,1,1,1,8,\"%s\",bf16,,step_time,10,s,x",
		         H100_HW, shapes[i].cols, shapes[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", shapes[i].other, why);
		ck_assert_msg(c.s.model.layers == shapes[i].layers && c.s.model.hidden == shapes[i].hidden &&
		              c.s.model.ffn_hidden == shapes[i].ffn, "%s: l%d h%d ffn%d", shapes[i].other,
		              c.s.model.layers, c.s.model.hidden, c.s.model.ffn_hidden);
		scn_release(&c.s);
	}
	/* other models: not given a dense family's shape */
	static const char *const others[] = {"Qwen3 MoE 30B (128 experts, top-8)",
		"Qwen3-Coder-30B-A3B-Instruct", "Falcon3-7B", "RecurrentGemma-9B"};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",8,,,,,4096,64,1,1,1,8,\"FSDP, %s\",bf16,,"
		         "step_time,10,s,x", H100_HW, others[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == -1, "%s simulated", others[i]);
	}
	/* layouts: "virtual pipeline stages", micro-batches in flight and a
	 * model-parallel product are not the pipeline or tensor sizes */
	static const struct { const char *cells, *other; int tp, pp, vs; } lay[] = {
		{"8,,2", "interleaved 1F1B, virtual pipeline stages: 5", 8, 4, 5},
		{"8,,2", "1F1B pipeline: 32 micro-batches per step", 8, 4, 1},
		{",2,4", "model parallel size 16 (tensor x pipeline)", 8, 2, 1},
	};
	for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,70,80,8192,64,4096,512,1,%s,\"%s\",bf16,,"
		         "step_time,10,s,x", H100_HW, lay[i].cells, lay[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", lay[i].other, why);
		ck_assert_msg(c.s.training.tp == lay[i].tp && c.s.training.pp == lay[i].pp &&
		              c.s.training.virtual_stages == lay[i].vs, "%s: tp %d pp %d vs %d",
		              lay[i].other, c.s.training.tp, c.s.training.pp,
		              c.s.training.virtual_stages);
		scn_release(&c.s);
	}
	/* precision and recomputation said of something else */
	static const struct { const char *other; int prec, rc; } words[] = {
		{"FP8 not enabled", PREC_BF16, -1}, {"BF16 training; FP8 would be 1.3x faster", PREC_BF16, -1},
		{"MFU computed against the FP8 dense peak", PREC_BF16, -1},
		{"gradient compression: fp16 all-reduce", PREC_BF16, -1},
		{"torch.compile(mode=None), activation checkpointing full", PREC_BF16, RECOMPUTE_FULL},
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,70,80,8192,64,4096,512,1,8,4,2,\"%s\",,,"
		         "step_time,10,s,x", H100_HW, words[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", words[i].other, why);
		ck_assert_msg((int)c.s.training.precision == words[i].prec &&
		              (words[i].rc < 0 || (int)c.s.training.recompute == words[i].rc),
		              "%s: prec %d rc %d", words[i].other, c.s.training.precision,
		              c.s.training.recompute);
		scn_release(&c.s);
	}
	/* nccl-tests: Open MPI's -N is per node; "8B" of a model is no size */
	snprintf(row, sizeof row, "T-001,x,2x DGX H100,16,,,,,,,,,,,\"mpirun -np 16 -N 8 "
	         "./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1\",,,busbw @1GB,400,GB/s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nodes * c.s.cluster.gpus_per_node, 16);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,\"%s\",8,,,,,,,,,,,,,,all_gather time per layer (Llama 3 "
	         "8B),100,us,x", H100_HW);
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	snprintf(row, sizeof row, "T-001,x,\"%s\",8,,,,,,,,,,,,,,all_reduce busbw,400,GB/s (of 450 "
	         "GB/s peak),x", H100_HW);
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	/* hardware: a Spectrum-X DPU is the fabric; 144 nodes are not 144 GB */
	snprintf(row, sizeof row, "T-001,x,\"8x H100 SXM, 8x BlueField-3 DPU 400Gb/s Spectrum-X RoCE, "
	         "2x 100GbE\",64,70,80,8192,64,4096,512,1,8,4,2,,bf16,,step_time,10,s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert(c.s.cluster.nic.count == 8 && c.s.cluster.nic.transport == TRANSPORT_RDMA);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,\"Alps: 144 nodes x 4 GH200 (96GB)\",64,70,80,8192,64,4096,"
	         "512,1,4,4,4,,bf16,,step_time,10,s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_str_eq(c.s.cluster.gpu.name, "GH200-96GB");
	scn_release(&c.s);
	/* a count past any cluster is refused, not divided by zero */
	snprintf(row, sizeof row, "T-001,x,\"%s\",536870912 nodes,70,80,8192,64,4096,512,1,8,4,2,,"
	         "bf16,,step_time,10,s,x", H100_HW);
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	/* a scale in a remark of the unit is no scale */
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,70,80,8192,64,4096,512,1,8,4,2,,bf16,,throughput,"
	         "200000,tokens/s (seq 8 K),x", H100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_double_eq_tol(c.published_si, 200000, 1e-6);
	scn_release(&c.s);
}
END_TEST

/* The sixth round: papers' prose, older machines, nccl-tests launchers. */
START_TEST(t_sixth_review)
{
	val_case c;
	char row[1024], why[256];
	/* counts in words, rails, a DGX-1's four EDR ports, a node's bandwidth */
	static const struct { const char *hw; int gpus, gpn, nics; double gbps; } hw[] = {
		{"Summit: 4,608 nodes, each with six NVIDIA V100 16GB GPUs, dual-rail EDR InfiniBand",
		 48, 6, 2, 100},
		{"nodes with four A100 40GB GPUs each, four Mellanox EDR InfiniBand adapters", 64, 4, 4,
		 100},
		{"32 DGX-1 nodes (256 V100 32GB), 4x Mellanox EDR per node", 256, 8, 4, 100},
		{"NVIDIA DGX-1 (8x V100 32GB)", 64, 8, 4, 100},
		{"400 NVIDIA V100 GPUs (25 DGX-2 nodes), 800 Gbps inter-node communication bandwidth",
		 400, 16, 16, 50},
		{"2 Frontier nodes (16 GCDs), 4x 200 Gb/s Slingshot-11", 16, 8, 4, 200},
	};
	for (size_t i = 0; i < sizeof hw / sizeof hw[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",%d,1.3,24,2048,16,2048,%d,1,1,1,%d,DDP,fp16,,"
		         "iteration_time,10,s,x", hw[i].hw, hw[i].gpus, hw[i].gpus, hw[i].gpus);
		check_cluster(row, hw[i].hw, NULL, hw[i].gpn, hw[i].nics, hw[i].gbps, -1);
	}
	/* attention, layout, batch and sequence in prose */
	static const struct { const char *cols, *other; int kv, tp, pp, dp, cp, gb, mb, seq; } pr[] = {
		{"64,,,,,,", "StarCoder: TP=4, PP=4, Multi-Query Attention, FlashAttention", 1, 4, 4, 4,
		 1, 512, 1, 2048},
		{"64,,,,,,", "grouped-query attention (8 groups), TP 8, PP 2", 8, 8, 2, 4, 1, 512, 1,
		 2048},
		{"512,,,,,,", "(t, p) = (8, 8)", 64, 8, 8, 8, 1, 512, 1, 2048},
		{"1024,,,,,,", "8-8-16 (TP-PP-DP)", 64, 8, 8, 16, 1, 1024, 1, 2048},
		{"1024,,,,,,", "TP-PP-DP: 8-8-16", 64, 8, 8, 16, 1, 1024, 1, 2048},
		{"512,,,,,,", "model parallelism of 8 (intra-node) and pipeline parallelism of 8 "
		 "(inter-node)", 64, 8, 8, 8, 1, 512, 1, 2048},
		{"512,,,,,,", "tensor model parallel size of 8 and pipeline model parallel size of 8", 64,
		 8, 8, 8, 1, 512, 1, 2048},
		{"64,,,1,1,64,", "micro-batch size of 1 and global batch size of 1536", 64, 1, 1, 64, 1,
		 1536, 1, 2048},
		/* 32 sequences a GPU do not fit without recomputation: accumulated */
		{"64,,,1,1,64,", "batch size of 2048 sequences", 64, 1, 1, 64, 1, 2048, 1, 2048},
		{"64,,,1,1,64,", "batch size of 4M tokens", 64, 1, 1, 64, 1, 2048, 1, 2048},
		{"64,,,,1,8,", "ZeRO-1, tensor parallelism (8-way)", 64, 8, 1, 8, 1, 512, 16, 2048},
		{"64,,,,1,4,", "context parallelism of 4, TP 4", 64, 4, 1, 4, 4, 512, 128, 2048},
		{"64,,,1,1,64,", "sequence length of 4096 tokens", 64, 1, 1, 64, 1, 512, 2, 4096},
	};
	for (size_t i = 0; i < sizeof pr / sizeof pr[0]; i++) {
		/* cols: gpus, gbs, mb, tp, pp, dp, seq (empty fields allowed) */
		const char *q = pr[i].cols;
		char f[7][16] = {{0}};
		for (int k = 0; k < 7 && q; k++) {
			size_t len = strcspn(q, ",");
			snprintf(f[k], sizeof f[k], "%.*s", (int)len, q);
			q = q[len] ? q + len + 1 : NULL;
		}
		bool batch_said = strstr(pr[i].other, "batch") != NULL;
		bool seq_said = strstr(pr[i].other, "sequence length") != NULL;
		snprintf(row, sizeof row, "T-001,x,\"DGX A100 (8x A100 80GB SXM4, 8x 200Gb/s HDR)\",%s,,"
		         "24,4096,64,%s,%s,%s,%s,%s,%s,\"%s\",bf16,,iteration_time,1,s,x", f[0],
		         seq_said ? "" : "2048", batch_said ? "" : f[0][0] == '6' ? "512" : f[0],
		         f[2], f[3], f[4], f[5], pr[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", pr[i].other, why);
		const scn_training *t = &c.s.training;
		ck_assert_msg(c.s.model.kv_heads == pr[i].kv && t->tp == pr[i].tp && t->pp == pr[i].pp &&
		              t->dp == pr[i].dp && t->cp == pr[i].cp && t->global_batch == pr[i].gb &&
		              t->micro_batch == pr[i].mb && c.s.model.seq_len == pr[i].seq,
		              "%s: kv %d tp %d pp %d dp %d cp %d B%d mb%d seq %d", pr[i].other,
		              c.s.model.kv_heads, t->tp, t->pp, t->dp, t->cp, t->global_batch,
		              t->micro_batch, c.s.model.seq_len);
		scn_release(&c.s);
	}
	/* zoo models by name alone */
	static const struct { const char *name; int layers, hidden, heads; } zoo[] = {
		{"Yi-34B", 60, 7168, 56}, {"DeepSeek LLM 67B", 95, 8192, 64},
		{"StarCoder2-15B", 40, 6144, 48}, {"Phi-3-mini", 32, 3072, 32},
		{"TinyLlama 1.1B", 22, 2048, 32},
	};
	for (size_t i = 0; i < sizeof zoo / sizeof zoo[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,,,,,,512,1,1,1,64,\"%s, FSDP\",bf16,,"
		         "iteration_time,1,s,x", H100_HW, zoo[i].name);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", zoo[i].name, why);
		ck_assert_msg(c.s.model.layers == zoo[i].layers && c.s.model.hidden == zoo[i].hidden &&
		              c.s.model.heads == zoo[i].heads, "%s: l%d h%d a%d", zoo[i].name,
		              c.s.model.layers, c.s.model.hidden, c.s.model.heads);
		scn_release(&c.s);
	}
	/* nccl-tests: launchers, node counts, sizes beside the name, NCCL's env */
	static const struct { const char *hw, *gpus, *other, *metric; int nodes, gpn, algo;
		coll_op op; double bytes; } nc[] = {
		{"H100 SXM5, 8x 400Gb/s NDR", "", "srun -N2 --ntasks-per-node=8 all_reduce_perf -b 8 -e 8G",
		 "all_reduce busbw 1GB", 2, 8, ALGO_AUTO, COLL_ALL_REDUCE, 1073741824.0},
		{"H100 SXM5, 8x 400Gb/s NDR", "", "mpirun -np 64 -N 8 ./all_reduce_perf -b 8 -e 8G",
		 "all_reduce busbw 1GB", 8, 8, ALGO_AUTO, COLL_ALL_REDUCE, 1073741824.0},
		{"H100 SXM5, 8x 400Gb/s NDR", "", "nodes: 4, GPUs per node: 8", "all_reduce busbw 1GB", 4,
		 8, ALGO_AUTO, COLL_ALL_REDUCE, 1073741824.0},
		{"16 nodes of DGX A100", "", "", "all_reduce busbw 1GB", 16, 8, ALGO_AUTO,
		 COLL_ALL_REDUCE, 1073741824.0},
		{"2 DGX-H100 nodes", "", "", "all_reduce busbw 1GB", 2, 8, ALGO_AUTO, COLL_ALL_REDUCE,
		 1073741824.0},
		{"2x DGX H100, 8x 400Gb/s NDR", "2", "sendrecv_perf -g 1, one GPU per node",
		 "sendrecv busbw 1GB", 2, 1, ALGO_AUTO, COLL_SENDRECV, 1073741824.0},
		{"2 nodes x 8 H100 SXM5, 8x 400Gb/s NDR", "16", "alltoall_perf -b 1G -e 1G -f 2 -g 1",
		 "busbw (GB/s)", 2, 8, ALGO_AUTO, COLL_ALL_TO_ALL, 1073741824.0},
		{"2 nodes x 8 H100 SXM5, 8x 400Gb/s NDR", "16", "size: 4294967296 bytes",
		 "all_reduce busbw", 2, 8, ALGO_AUTO, COLL_ALL_REDUCE, 4294967296.0},
		{"2 nodes x 8 H100, NDR", "16", "", "in-place busbw (GB/s) for all_reduce at 1073741824 "
		 "bytes", 2, 8, ALGO_AUTO, COLL_ALL_REDUCE, 1073741824.0},
		{"2 nodes x 8 H100 SXM5, 8x 400Gb/s NDR", "16", "NCCL_ALGO=Tree", "all_reduce busbw 1GB",
		 2, 8, ALGO_TREE, COLL_ALL_REDUCE, 1073741824.0},
	};
	for (size_t i = 0; i < sizeof nc / sizeof nc[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",%s,,,,,,,,,,,\"%s\",,,\"%s\",100,GB/s,x", nc[i].hw,
		         nc[i].gpus, nc[i].other, nc[i].metric);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s / %s: %s", nc[i].other,
		              nc[i].metric, why);
		ck_assert_msg(c.s.cluster.nodes == nc[i].nodes && c.s.cluster.gpus_per_node == nc[i].gpn &&
		              (int)c.coll_algo == nc[i].algo && (int)c.coll_op == (int)nc[i].op &&
		              c.coll_bytes == nc[i].bytes, "%s / %s: %d x %d algo %d op %d bytes %g",
		              nc[i].other, nc[i].metric, c.s.cluster.nodes, c.s.cluster.gpus_per_node,
		              c.coll_algo, c.coll_op, c.coll_bytes);
		scn_release(&c.s);
	}
	snprintf(row, sizeof row, "T-001,x,NVIDIA DGX H100,8,,,,,,,,,,,NCCL_NVLS_ENABLE=0,,,all_reduce "
	         "busbw 8GB,100,GB/s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_double_eq(c.s.cluster.gpu.nvls_eff, 0);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,\"2 nodes x 8 A100 80GB, 8x 200Gb/s HDR\",16,,,,,,,,,,,"
	         "NCCL_IB_DISABLE=1 (IPoIB sockets),,,all_reduce busbw 1GB,100,GB/s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_TCP);
	scn_release(&c.s);
	/* a measurement at steady state is the step's */
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,,32,4096,32,4096,256,1,1,1,64,Llama 2 7B,bf16,,"
	         "step time (s) at steady state,2.7,,x", H100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.metric, VM_ITER_TIME);
	scn_release(&c.s);
}
END_TEST

/* The seventh round: rows in published.csv's own style. */
START_TEST(t_seventh_review)
{
	val_case c;
	char row[1600], why[256];
	/* a 16-GPU job of 8-GPU nodes; a node's interconnect; links with a node's rate */
	static const struct { const char *hw; int gpus, gpn, nics; double gbps; bool tcp; } hw[] = {
		{"16 H100 80GB GPUs (2 DGX H100 nodes)", 16, 8, 8, 400, false},
		{"MosaicML cluster: 27 nodes, each with 8 NVIDIA A100 GPUs with 40GB memory and "
		 "800Gbps interconnect", 216, 8, 8, 100, false},
		{"24 NVIDIA DGX-2 nodes; 4 InfiniBand links per node (400 Gbps)", 384, 16, 4, 100, false},
		{"8x A100 80GB, 8x 100GbE (no RDMA)", 64, 8, 8, 100, true},
	};
	for (size_t i = 0; i < sizeof hw / sizeof hw[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",%d,1.3,24,2048,16,2048,%d,1,1,1,%d,DDP,fp16,,"
		         "iteration_time,10,s,x", hw[i].hw, hw[i].gpus, hw[i].gpus, hw[i].gpus);
		check_cluster(row, hw[i].hw, NULL, hw[i].gpn, hw[i].nics, hw[i].gbps, hw[i].tcp);
	}
	/* the Llama 3 paper's 4D layout; MP=4 (TP2, PP2); Llama 2 34B's own shape */
	static const struct { const char *other; int tp, cp, pp, dp; } lay[] = {
		{"TP/CP/PP/DP = 8/16/16/8", 8, 16, 16, 8},
		{"4D parallelism [TP, CP, PP, DP] = [8, 16, 16, 8]", 8, 16, 16, 8},
	};
	for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",16384,405,126,16384,128,8192,2048,1,,,,\"%s\",bf16,"
		         ",iteration_time,10,s,x", H100_HW, lay[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", lay[i].other, why);
		const scn_training *t = &c.s.training;
		ck_assert_msg(t->tp == lay[i].tp && t->cp == lay[i].cp && t->pp == lay[i].pp &&
		              t->dp == lay[i].dp, "%s: tp %d cp %d pp %d dp %d", lay[i].other, t->tp, t->cp,
		              t->pp, t->dp);
		scn_release(&c.s);
	}
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,,32,4096,32,4096,512,1,,,16,\"MP=4 (TP2, PP2)\",bf16,"
	         ",iteration_time,10,s,x", H100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert(c.s.training.tp == 2 && c.s.training.pp == 2);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,,,,,,512,1,8,1,8,\"Llama 2 34B\",bf16,,"
	         "iteration_time,10,s,x", H100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert(c.s.model.layers == 48 && c.s.model.hidden == 8192 && c.s.model.kv_heads == 8);
	scn_release(&c.s);
	/* metaseq's wps summed over the workers; a precision cell that compares */
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,,32,4096,32,4096,512,1,1,1,64,\"FSDP; wps is words "
	         "per second summed over all 64 workers\",bf16,,wps,200000,,x", H100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert(!c.per_gpu);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,,32,4096,32,4096,512,1,1,1,64,DDP,"
	         "BF16 (vs FP8 baseline +18%%),,iteration_time,10,s,x", H100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.precision, PREC_BF16);
	scn_release(&c.s);
	/* a TPU row that cites a GPU is a TPU row */
	snprintf(row, sizeof row, "T-001,x,\"TPU v4 pods (compared against 8x A100)\",64,,32,4096,32,"
	         "4096,512,1,1,1,64,,bf16,,iteration_time,10,s,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	/* MLPerf's system fields in other_parallel */
	snprintf(row, sizeof row, "T-001,x,\"NVIDIA DGX H100 (8x H100-SXM5-80GB, 8x ConnectX-7 "
	         "400Gb/s)\",,175,96,12288,96,2048,1536,1,4,8,,\"number_of_nodes: 64, "
	         "accelerators_per_node: 8; TP4 PP8 VP12, SP\",fp8,,step_time_s,6.2,,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(scn_gpus(&c.s), 512);
	ck_assert_int_eq(c.s.training.dp, 16);
	scn_release(&c.s);
}
END_TEST

/* Sizes run together ("tp2pp2"), rates per device in short ("tok/s/dev",
 * "per rank"), aggregates in EFLOP/s. */
START_TEST(t_run_together)
{
	val_case c;
	char row[1024], why[256];
	static const struct { const char *other; int tp, pp, dp; } lay[] = {
		{"tp2pp2", 2, 2, 16}, {"TP4PP8DP2", 4, 8, 2}, {"llama7b_tp2_pp2_mbs1", 2, 2, 16},
		{"run fp16dp8 ablation, TP2 PP2", 2, 2, 16},
	};
	for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,6.7,32,4096,32,2048,256,1,,,,\"%s\",bf16,,"
		         "iteration_time,10,s,x", H100_HW, lay[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", lay[i].other, why);
		const scn_training *t = &c.s.training;
		ck_assert_msg(t->tp == lay[i].tp && t->pp == lay[i].pp && t->dp == lay[i].dp,
		              "%s: tp %d pp %d dp %d", lay[i].other, t->tp, t->pp, t->dp);
		scn_release(&c.s);
	}
	static const struct { const char *metric, *unit; val_metric m; bool per_gpu; double si; } met[] = {
		{"throughput", "tok/s/dev", VM_TOKENS, true, 3000},
		{"tok/s/dev", "", VM_TOKENS, true, 3000},
		{"throughput", "tokens/s per rank", VM_TOKENS, true, 3000},
		{"throughput", "tokens/s/GCD", VM_TOKENS, true, 3000},
		{"aggregate throughput", "EFLOP/s", VM_AGG_PFLOPS, false, 3000e18},
	};
	for (size_t i = 0; i < sizeof met / sizeof met[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,6.7,32,4096,32,2048,256,1,2,2,16,,bf16,,"
		         "%s,3000,%s,x", H100_HW, met[i].metric, met[i].unit);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", met[i].unit, why);
		ck_assert_msg(c.metric == met[i].m && c.per_gpu == met[i].per_gpu, "%s %s: metric %d per_gpu %d",
		              met[i].metric, met[i].unit, c.metric, c.per_gpu);
		ck_assert_double_eq_tol(c.published_si, met[i].si, met[i].si * 1e-9);
		scn_release(&c.s);
	}
}
END_TEST

/* Dense families read from their published configs (models/validate.c). */
START_TEST(t_more_families)
{
	static const struct { const char *other; int layers, hidden, heads, kv, ffn, vocab; } cases[] = {
		{"Qwen2.5 32B", 64, 5120, 40, 8, 27648, 152064},
		{"Qwen2.5-14B", 48, 5120, 40, 8, 13824, 152064},
		{"Yi-34B", 60, 7168, 56, 8, 20480, 64000},
		{"DeepSeek LLM 67B", 95, 8192, 64, 8, 22016, 102400},
		{"Phi-3-medium", 40, 5120, 40, 10, 17920, 32064},
		{"TinyLlama-1.1B", 22, 2048, 32, 4, 5632, 32000},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"8x H100 80GB per node, 8x 400Gb/s NDR\",64,,%d,%d,%d,"
		         "4096,512,1,1,1,64,\"%s, FSDP\",bf16,full,iteration_time,10,s,x", cases[i].layers,
		         cases[i].hidden, cases[i].heads, cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].other, why);
		const scn_model *m = &c.s.model;
		ck_assert_msg(m->kv_heads == cases[i].kv && m->ffn_hidden == cases[i].ffn &&
		              m->vocab == cases[i].vocab && m->gated_mlp, "%s: kv %d ffn %d vocab %d",
		              cases[i].other, m->kv_heads, m->ffn_hidden, m->vocab);
		scn_release(&c.s);
	}
}
END_TEST

/* MoE routing as configs and papers write it. */
START_TEST(t_third_review_moe)
{
	static const struct { const char *other; int experts, top_k; } cases[] = {
		{"MoE: 64 routed experts, top-6, EP8", 64, 6},
		{"MoE, num_experts=64, moe_router_topk=6, EP8", 64, 6},
		{"MoE n_routed_experts=64 num_experts_per_tok=6 EP8", 64, 6},
		{"MoE 64 experts + 2 shared, 6 activated per token, EP8", 64, 6},
		{"MoE num_local_experts=8 num_experts_per_tok=2 EP8", 8, 2},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-001,x,\"8x H100 80GB per node, 8x 400Gb/s NDR\",64,16,27,"
		         "2048,16,4096,512,1,1,1,64,\"%s\",bf16,full,iteration_time,10,s,x",
		         cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].other, why);
		ck_assert_msg(c.s.model.experts == cases[i].experts && c.s.model.top_k == cases[i].top_k,
		              "%s: %d experts top-%d", cases[i].other, c.s.model.experts,
		              c.s.model.top_k);
		scn_release(&c.s);
	}
}
END_TEST

/* The recompute column: negations, and cells that say nothing known. */
START_TEST(t_recompute_cells)
{
	static const struct { const char *rc; int expect; } cases[] = {
		{"no activation checkpointing", RECOMPUTE_NONE}, {"disabled", RECOMPUTE_NONE},
		{"AC off", RECOMPUTE_NONE}, {"No.", RECOMPUTE_NONE}, {"w/o", RECOMPUTE_NONE},
		{"selective", RECOMPUTE_SELECTIVE}, {"partial", RECOMPUTE_SELECTIVE},
		{"full (uniform)", RECOMPUTE_FULL}, {"activation checkpointing", RECOMPUTE_FULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256];
		ck_assert_msg(gpt_row("", "fp16", cases[i].rc, 8, 4, 2, &c, why, sizeof why) == 0, "%s",
		              why);
		ck_assert_msg((int)c.s.training.recompute == cases[i].expect, "%s: %d", cases[i].rc,
		              c.s.training.recompute);
		scn_release(&c.s);
	}
	/* "N/A" says nothing: a bf16 row's memory choice, as an empty cell */
	val_case a, b;
	char why[256];
	ck_assert_int_eq(gpt_row("", "bf16", "N/A", 8, 4, 2, &a, why, sizeof why), 0);
	ck_assert_int_eq(gpt_row("", "bf16", "", 8, 4, 2, &b, why, sizeof why), 0);
	ck_assert_int_eq(a.s.training.recompute, b.s.training.recompute);
	scn_release(&a.s);
	scn_release(&b.s);
}
END_TEST

/* Layout words: sizes from the text, ZeRO phrasing, interleaving. */
START_TEST(t_layout_words)
{
	static const struct {
		const char *other;
		int tp, pp, dp;       /* the columns (0: empty) */
		int want_tp, want_pp, zero, vstages;
	} cases[] = {
		{"TP=8, PP=4", 0, 0, 0, 8, 4, 0, 1},
		{"TP8 PP4", 0, 0, 0, 8, 4, 0, 1},
		{"tensor parallel 8, pipeline parallel 4", 0, 0, 0, 8, 4, 0, 1},
		{"FSDP + TP 8", 0, 0, 0, 8, 1, 3, 1},
		{"ZeRO (stage 2)", 1, 1, 0, 1, 1, 2, 1},
		{"DeepSpeed zero_optimization stage 3", 1, 1, 0, 1, 1, 3, 1},
		{"HSDP", 1, 1, 0, 1, 1, 3, 1},
		{"fully sharded data parallel", 1, 1, 0, 1, 1, 3, 1},
		{"use_distributed_optimizer=False", 8, 4, 2, 8, 4, 0, 1},
		{"distributed optimizer: off", 8, 4, 2, 8, 4, 0, 1},
		{"ZeRO-3, offload: none", 1, 1, 0, 1, 1, 3, 1},
		{"non-interleaved 1F1B", 8, 4, 2, 8, 4, 0, 1},
		{"virtual_pipeline_model_parallel_size=5", 8, 4, 2, 8, 4, 0, 5},
		{"interleaved (v=5)", 8, 4, 2, 8, 4, 0, 5},
		{"5 model chunks per stage", 8, 4, 2, 8, 4, 0, 5},
		{"interleaved pipeline with 5 chunks", 8, 4, 2, 8, 4, 0, 5},
		{"sharded optimizer states", 8, 4, 2, 8, 4, 1, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256];
		ck_assert_msg(gpt_row(cases[i].other, "fp16", "full", cases[i].tp, cases[i].pp,
		                      cases[i].dp, &c, why, sizeof why) == 0, "%s: %s", cases[i].other,
		              why);
		const scn_training *t = &c.s.training;
		ck_assert_msg(t->tp == cases[i].want_tp && t->pp == cases[i].want_pp, "%s: TP%d PP%d",
		              cases[i].other, t->tp, t->pp);
		ck_assert_msg(t->zero == cases[i].zero, "%s: ZeRO %d", cases[i].other, t->zero);
		ck_assert_msg(t->virtual_stages == cases[i].vstages, "%s: v %d", cases[i].other,
		              t->virtual_stages);
		scn_release(&c.s);
	}
}
END_TEST

/* Precision words: fp8 when named at all, tf32 as tf32, formats without a
 * catalog peak refused. */
START_TEST(t_precision_words)
{
	static const struct { const char *prec; int expect; } cases[] = {
		{"FP8 (BF16 master weights)", PREC_FP8}, {"mixed FP8/BF16", PREC_FP8},
		{"BF16 with FP8 GEMMs", PREC_FP8}, {"bf16 (no fp8)", PREC_BF16},
		{"TF32", PREC_TF32}, {"fp16/bf16", PREC_BF16},
		{"FP16 AMP (bf16 not supported)", PREC_FP16},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256], row[512];
		snprintf(row, sizeof row, "P-001,x,DGX H100 (8x H100 SXM5; 8x400Gb/s NDR),64,18.4,40,6144,"
		         "48,2048,512,1,8,4,2,,\"%s\",full,iteration_time,10,s,x", cases[i].prec);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].prec, why);
		ck_assert_msg((int)c.s.training.precision == cases[i].expect, "%s: %d", cases[i].prec,
		              c.s.training.precision);
		scn_release(&c.s);
	}
	val_case c;
	char why[256];
	/* fp4 named of another run or table is not this row's (a review: +92-114%) */
	static const struct { const char *prec; int expect; } other4[] = {
		{"FP8; NVFP4 is 1.4x faster", PREC_FP8}, {"BF16 (FP4 in a later table)", PREC_BF16},
		{"fp4 attempted, fell back to fp8", PREC_FP8}, {"fp8 e4m3 (not e2m1)", PREC_FP8}};
	for (size_t i = 0; i < sizeof other4 / sizeof other4[0]; i++) {
		char row[256];
		snprintf(row, sizeof row, "P-004,x,DGX B200,64,18.4,40,6144,48,2048,512,1,8,4,2,,\"%s\","
		         "full,iteration_time,10,s,x", other4[i].prec);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", other4[i].prec, why);
		ck_assert_msg((int)c.s.training.precision == other4[i].expect, "%s: %d",
		              other4[i].prec, c.s.training.precision);
		scn_release(&c.s);
	}
	/* NVFP4 on Blackwell, with fp8 beside it in its recipe; no fp4 on Hopper */
	static const char *const fp4[] = {"NVFP4", "fp4 e2m1 with fp8 attention", "MXFP4"};
	for (size_t i = 0; i < sizeof fp4 / sizeof fp4[0]; i++) {
		char row[256];
		snprintf(row, sizeof row, "P-002,x,DGX B200,64,18.4,40,6144,48,2048,512,1,8,4,2,,%s,"
		         "full,iteration_time,10,s,x", fp4[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", fp4[i], why);
		ck_assert_int_eq(c.s.training.precision, PREC_FP4);
		scn_release(&c.s);
	}
	ck_assert_int_lt(build_row("P-003,x,DGX H100,64,18.4,40,6144,48,2048,512,1,8,4,2,,NVFP4,full,"
	                           "iteration_time,10,s,x", &c, why, sizeof why), 0);
	ck_assert_msg(strstr(why, "fp4"), "%s", why);
}
END_TEST

/* Hardware texts: counts are numbers of their own, Ethernet's "100G",
 * Spectrum-X, PCIe that is not the GPU's, GPUs per node. */
START_TEST(t_hardware_words)
{
	static const struct {
		const char *hw;
		int gpus, gpn, nics;
		double gbps;
		const char *gpu;
		int transport, intra;
	} cases[] = {
		{"H100 SXM5 400Gb/s InfiniBand", 64, 8, 8, 400, "H100-SXM5-80GB", TRANSPORT_RDMA,
		 INTRA_NVSWITCH},
		{"DGX H100, 8x ConnectX-7 400Gb/s", 64, 8, 8, 400, "H100-SXM5-80GB", TRANSPORT_RDMA,
		 INTRA_NVSWITCH},
		{"A100 80GB, 8x100G RoCE", 64, 8, 8, 100, "A100-SXM4-80GB", TRANSPORT_RDMA,
		 INTRA_NVSWITCH},
		{"H100; Spectrum-X Ethernet 400G", 64, 8, 8, 400, "H100-SXM5-80GB", TRANSPORT_RDMA,
		 INTRA_NVSWITCH},
		{"DGX A100 80GB (NVSwitch, PCIe Gen4 NICs), 8x200Gb/s HDR", 64, 8, 8, 200,
		 "A100-SXM4-80GB", TRANSPORT_RDMA, INTRA_NVSWITCH},
		{"32x A100 80GB", 32, 8, 8, 200, "A100-SXM4-80GB", TRANSPORT_RDMA, INTRA_NVSWITCH},
		{"A100 80GB, 4 GPUs per node", 32, 4, 4, 200, "A100-SXM4-80GB", TRANSPORT_RDMA,
		 INTRA_NVSWITCH},
		{"p5.48xlarge, EFAv2 3200 Gbps", 64, 8, 8, 400, "H100-SXM5-80GB", TRANSPORT_RDMA,
		 INTRA_NVSWITCH},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256], row[512];
		snprintf(row, sizeof row, "H-001,x,\"%s\",%d,18.4,40,6144,48,2048,512,1,8,1,%d,,bf16,full,"
		         "iteration_time,10,s,x", cases[i].hw, cases[i].gpus, cases[i].gpus / 8);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].hw, why);
		const scn_cluster *k = &c.s.cluster;
		ck_assert_msg(!strcmp(k->gpu.name, cases[i].gpu), "%s: %s", cases[i].hw, k->gpu.name);
		ck_assert_msg(k->gpus_per_node == cases[i].gpn, "%s: %d GPUs/node", cases[i].hw,
		              k->gpus_per_node);
		ck_assert_msg(k->nic.count == cases[i].nics, "%s: %d NICs", cases[i].hw, k->nic.count);
		ck_assert_double_eq_tol(k->nic.speed_Bps, cases[i].gbps * 1e9 / 8, 1);
		ck_assert_int_eq(k->nic.transport, cases[i].transport);
		ck_assert_int_eq(k->intra.kind, cases[i].intra);
		scn_release(&c.s);
	}
}
END_TEST

/* Models named in the text: sizes written in the name, families' published
 * configurations, Code Llama apart from Llama, NeMo apart from Nemotron. */
START_TEST(t_model_words)
{
	val_case c;
	char why[256];
	/* a NeMo row that names Llama 2 70B and gives no count nor shape */
	ck_assert_int_eq(build_row("M-001,x,\"DGX H100 (8x H100 80GB SXM5; 8x400Gb/s NDR IB per "
	                           "node)\",64,,,,,,128,1,4,4,4,NeMo Llama 2 70B,fp8,,"
	                           "tokens_per_sec_per_gpu,1728,tokens/s/GPU,x", &c, why, sizeof why),
	                 0);
	ck_assert_int_eq(c.s.model.layers, 80);
	ck_assert_int_eq(c.s.model.hidden, 8192);
	ck_assert_int_eq(c.s.model.kv_heads, 8);
	scn_release(&c.s);
	/* Code Llama 34B is not LLaMA-1 33B */
	ck_assert_int_eq(build_row("M-002,x,DGX A100,64,34,,,,,64,1,8,1,8,CodeLlama 34B,bf16,full,"
	                           "iteration_time,10,s,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.layers, 48);
	ck_assert_int_eq(c.s.model.ffn_hidden, 22016);
	ck_assert_int_eq(c.s.model.kv_heads, 8);
	scn_release(&c.s);
	/* Mistral 7B with its shape: its GQA, SwiGLU width and vocabulary */
	ck_assert_int_eq(build_row("M-003,x,DGX A100,64,7.2,32,4096,32,4096,64,1,1,1,64,"
	                           "Mistral 7B,bf16,full,iteration_time,10,s,x", &c, why, sizeof why),
	                 0);
	ck_assert_int_eq(c.s.model.kv_heads, 8);
	ck_assert_int_eq(c.s.model.ffn_hidden, 14336);
	ck_assert_int_eq(c.s.model.vocab, 32000);
	scn_release(&c.s);
	/* a width as a multiple of the hidden size ("ffn=4h", "ffn 2.5 x hidden",
	 * a bare "ffn 4"), not a width of 4 */
	static const struct { const char *text; int ffn; } mult[] = {
		{"ffn=4h", 4 * 6656}, {"ffn 4 x hidden", 4 * 6656}, {"ffn_hidden_size: 4", 4 * 6656},
		{"FFN dim 2.5*h", 16640}, {"ffn 17920", 17920}, {"ffn 8/3 h", 17749},
		{"SwiGLU ffn 2.6875x", 17888}, {"ffn 16K", 16384}, {"ffn_hidden_size 6656", 6656}};
	for (size_t i = 0; i < sizeof mult / sizeof mult[0]; i++) {
		char r[320];
		snprintf(r, sizeof r, "M-01%zu,x,DGX A100,64,33,60,6656,52,2048,512,1,2,4,8,"
			 "\"GPT; %s; ALiBi\",bf16,full,iteration_time,10,s,x", i, mult[i].text);
		ck_assert_int_eq(build_row(r, &c, why, sizeof why), 0);
		ck_assert_msg(c.s.model.ffn_hidden == mult[i].ffn, "%s: %d", mult[i].text,
			      c.s.model.ffn_hidden);
		scn_release(&c.s);
	}
	/* shape keys of other frameworks */
	ck_assert_int_eq(build_row("M-004,x,DGX A100,64,18.4,40,6144,48,2048,512,1,8,4,2,"
	                           "\"num_key_value_heads=8; ffn_hidden_size 11008; vocab 128,256\","
	                           "bf16,full,iteration_time,10,s,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.kv_heads, 8);
	ck_assert_int_eq(c.s.model.ffn_hidden, 11008);
	ck_assert_int_eq(c.s.model.vocab, 128256);
	scn_release(&c.s);
	ck_assert_int_eq(build_row("M-006,x,DGX A100,64,18.4,40,6144,48,2048,512,1,8,4,2,"
	                           "\"Llama-style; FFN dim 16384; padded_vocab_size=50304\","
	                           "bf16,full,iteration_time,10,s,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.ffn_hidden, 16384);
	ck_assert_int_eq(c.s.model.vocab, 50304);
	scn_release(&c.s);
	/* "Nemotron" does not name NeMo: no NeMo recipe (distributed optimizer) */
	ck_assert_int_eq(build_row("M-005,x,DGX H100,64,15,32,6144,48,4096,256,1,8,1,8,"
	                           "Nemotron-4 15B trained with Megatron-LM,bf16,full,"
	                           "iteration_time,10,s,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.zero, 0);
	scn_release(&c.s);
}
END_TEST

/* Cells and headers: products and marks in the GPU count, a header written
 * with blanks and capitals, comment lines. */
START_TEST(t_cells_and_headers)
{
	static const char *const gpus[] = {"128x8", "128 nodes x 8 GPUs", "~1024", "16 x 64",
		"1,024", "1 024"};
	for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
		val_case c;
		char why[256], row[512];
		snprintf(row, sizeof row, "C-001,x,DGX A100,\"%s\",18.4,40,6144,48,2048,~1024,1,8,1,,,"
		         "bf16,full,iteration_time,10,s,x", gpus[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", gpus[i], why);
		ck_assert_msg(c.s.training.dp == 128, "%s: dp %d", gpus[i], c.s.training.dp);
		ck_assert_int_eq(c.s.training.global_batch, 1024);
		scn_release(&c.s);
	}
	const char *text = "# a comment line\n"
		" ID , Source , Hardware , GPUs , model-params-b , Layers , Hidden , Heads , "
		"Seq Len , Global Batch , Micro Batch , TP , PP , DP , Other Parallel , Precision , "
		"Recompute , Metric , Value , Unit , Verified\n"
		"# another\n"
		"C-002,x,DGX A100,64,18.4,40,6144,48,2048,512,1,8,4,2,,bf16,full,iteration_time,10,s,x\n";
	val_row *r;
	size_t n;
	char err[256];
	ck_assert_msg(val_parse(text, "h.csv", &r, &n, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(r[0].global_batch, 512);
	ck_assert_int_eq(r[0].seq_len, 2048);
	ck_assert_int_eq(r[0].tp, 8);
	free(r);
}
END_TEST

/* The second review's wordings: papers' "N-way" layouts, 4-GPU nodes, NIC
 * names with versions, recompute words in the text, disowned frameworks. */
START_TEST(t_second_review)
{
	val_case c;
	char why[256];
	/* BLOOM-paper style layout, Omni-Path with its hyphen */
	ck_assert_int_eq(build_row("S-001,x,\"Jean Zay: 48 nodes x 8 A100 80GB, 4x Omni-Path 100 Gb/s "
	                           "per node\",384,176,70,14336,112,2048,2048,2,,,,\"4-way tensor, "
	                           "12-way pipeline and 8-way data parallelism, ZeRO-1\",bf16,full,"
	                           "TFLOPs,150,TFLOP/s/GPU,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.tp, 4);
	ck_assert_int_eq(c.s.training.pp, 12);
	ck_assert_int_eq(c.s.training.dp, 8);
	ck_assert_int_eq(c.s.cluster.nic.count, 4);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 100e9 / 8, 1);
	scn_release(&c.s);
	static const struct { const char *hw; int gpn, nics; double gbps; } hw[] = {
		{"Perlmutter (4x NVIDIA A100 40GB SXM4, NVLink3, Slingshot 11)", 4, 4, 200},
		{"A100 (4/node), 2x Slingshot 11 200 Gb/s", 4, 2, 200},
		{"HGX A100 4-GPU, 1x ConnectX-6 200Gb/s", 4, 1, 200},
		{"A100 40GB (4 GPU/node), 4x HDR100", 4, 4, 100},
		{"H100; 8x NDR200", 8, 8, 200},
		{"A100 80GB; 4 HDR NICs", 8, 4, 200},
	};
	for (size_t i = 0; i < sizeof hw / sizeof hw[0]; i++) {
		char row[512];
		snprintf(row, sizeof row, "S-1%02zu,x,\"%s\",32,18.4,40,6144,48,2048,512,1,4,1,8,,bf16,"
		         "full,iteration_time,10,s,x", i, hw[i].hw);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", hw[i].hw, why);
		ck_assert_msg(c.s.cluster.gpus_per_node == hw[i].gpn, "%s: %d GPUs/node", hw[i].hw,
		              c.s.cluster.gpus_per_node);
		ck_assert_msg(c.s.cluster.nic.count == hw[i].nics, "%s: %d NICs", hw[i].hw,
		              c.s.cluster.nic.count);
		ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, hw[i].gbps * 1e9 / 8, 1);
		scn_release(&c.s);
	}
	/* TSUBAME 4.0's H100 SXM5 94GB is an SXM part */
	ck_assert_int_eq(build_row("S-200,x,H100 SXM5 94GB,32,18.4,40,6144,48,2048,512,1,4,1,8,,bf16,"
	                           "full,iteration_time,10,s,x", &c, why, sizeof why), 0);
	ck_assert_str_eq(c.s.cluster.gpu.name, "H100-SXM5-80GB");
	ck_assert_int_eq(c.s.cluster.intra.kind, INTRA_NVSWITCH);
	scn_release(&c.s);
	/* recompute words in the text */
	static const struct { const char *other; int rc; } rc[] = {
		{"no AC", RECOMPUTE_NONE}, {"recompute: full", RECOMPUTE_FULL},
		{"activation checkpointing: selective", RECOMPUTE_SELECTIVE},
		{"AC=selective SP=yes", RECOMPUTE_SELECTIVE},
	};
	for (size_t i = 0; i < sizeof rc / sizeof rc[0]; i++) {
		ck_assert_msg(gpt_row(rc[i].other, "bf16", "", 8, 4, 2, &c, why, sizeof why) == 0, "%s",
		              why);
		ck_assert_msg((int)c.s.training.recompute == rc[i].rc, "%s: %d", rc[i].other,
		              c.s.training.recompute);
		scn_release(&c.s);
	}
	/* an unknown recompute word is still recomputation; "N/A" says nothing */
	ck_assert_int_eq(gpt_row("", "bf16", "enabled", 8, 4, 2, &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_FULL);
	scn_release(&c.s);
	ck_assert_int_eq(gpt_row("", "bf16", "uniform", 8, 4, 2, &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_FULL);
	scn_release(&c.s);
	/* frameworks named to be compared with, or negated, are not the run's */
	ck_assert_int_eq(gpt_row("Megatron-LM (not DeepSpeed)", "bf16", "full", 8, 4, 2, &c, why,
	                         sizeof why), 0);
	ck_assert_int_ne(c.s.training.schedule, SCHED_DEEPSPEED);
	ck_assert(!c.s.training.grad_accum_pass);
	scn_release(&c.s);
	/* precision words; a Mamba row is refused */
	ck_assert_int_eq(gpt_row("", "Apex AMP O2", "full", 8, 4, 2, &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.precision, PREC_FP16);
	scn_release(&c.s);
	ck_assert_int_lt(gpt_row("Mamba-2 2.7B", "bf16", "full", 8, 4, 2, &c, why, sizeof why), 0);
	ck_assert_msg(strstr(why, "not a transformer"), "%s", why);
}
END_TEST

/* Values and metrics: ranges, Megatron's log line without its unit, rates
 * per node, gradient accumulation in the text. */
START_TEST(t_second_review_metrics)
{
	static const char *const rows[] = {
		"V-001,x,DGX A100,64,18.4,40,6144,48,2048,512,1,8,4,2,,bf16,full,"
		"elapsed time per iteration,6900,,x",
		"V-002,x,DGX A100,64,18.4,40,6144,48,2048,512,1,8,4,2,,bf16,full,MFU,38-43%,,x",
		"V-003,x,DGX A100,64,18.4,40,6144,48,2048,512,1,8,4,2,,bf16,full,throughput per node,"
		"9600,tokens/s,x",
	};
	static const double si[] = {6.9, 40.5, 9600};
	for (size_t i = 0; i < 3; i++) {
		val_case c;
		char why[256];
		ck_assert_msg(build_row(rows[i], &c, why, sizeof why) == 0, "%s", why);
		ck_assert_double_eq_tol(c.published_si, si[i], 1e-9 * si[i]);
		if (i == 2)
			ck_assert(c.per_node && !c.per_gpu);
		scn_release(&c.s);
	}
	val_case c;
	char why[256];
	ck_assert_int_eq(build_row("V-010,x,DGX A100,64,18.4,40,6144,48,2048,128,,1,1,64,"
	                           "grad accumulation steps 2,bf16,full,iteration_time,10,s,x", &c,
	                           why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.micro_batch, 1);
	scn_release(&c.s);
}
END_TEST

/* The scenario a row builds, written out as the loader reads it, without
 * its name (caller frees). */
static char *row_yaml(const val_row *r)
{
	val_case c;
	char why[256], *text = NULL;
	size_t n = 0;
	ck_assert_msg(val_build(r, &c, why, sizeof why) == 0, "%s: %s", r->id, why);
	FILE *f = open_memstream(&text, &n);
	ck_assert_ptr_nonnull(f);
	scn_write_yaml(&c.s, f);
	fclose(f);
	scn_release(&c.s);
	char *name = strstr(text, "name:");
	if (name) {
		char *eol = strchr(name, '\n');
		memmove(name, eol ? eol + 1 : name + strlen(name), strlen(eol ? eol + 1 : "") + 1);
	}
	return text;
}

/* The scenario the one data row `line` of a CSV builds, as YAML. */
static char *line_yaml(const char *line)
{
	char err[256];
	size_t n = strlen(HEADER) + strlen(line) + 2;
	char *text = malloc(n);
	ck_assert_ptr_nonnull(text);
	snprintf(text, n, HEADER "%s\n", line);
	val_row *r;
	size_t nr;
	ck_assert_msg(val_parse(text, "t.csv", &r, &nr, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(nr, 1);
	char *y = row_yaml(&r[0]);
	free(r);
	free(text);
	return y;
}

/* `line` with `from` replaced by `to` (the first time), quoting the field
 * as a CSV writer would when `to` brings a comma into an unquoted one. */
static void edit_line(char *line, size_t cap, const char *from, const char *to)
{
	char *at = strstr(line, from);
	ck_assert_msg(at != NULL, "'%s' not in its line", from);
	const char *fs = line;
	bool quoted = false;
	for (const char *c = line; c < at; c++) {
		if (*c == '"')
			quoted = !quoted;
		else if (*c == ',' && !quoted)
			fs = c + 1;
	}
	static char out[16384];
	if (!quoted && *fs != '"' && strpbrk(to, ",\"") && !strchr(from, ',')) {   /* one cell */
		const char *fe = fs + strcspn(fs, ",");
		ck_assert_ptr_null(strchr(to, '"'));
		snprintf(out, sizeof out, "%.*s\"%.*s%s%.*s\"%s", (int)(fs - line), line,
		         (int)(at - fs), fs, to, (int)(fe - at - strlen(from)), at + strlen(from), fe);
	} else {
		snprintf(out, sizeof out, "%.*s%s%s", (int)(at - line), line, to, at + strlen(from));
	}
	ck_assert_uint_lt(strlen(out), cap);
	snprintf(line, cap, "%s", out);
}

/* A row of a validation file and the same row with each of the `n` pairs
 * (from, to) of `edits` applied to its CSV line, read as any file is, build
 * one scenario: the words a person reads the same way are read the same
 * way. */
static void same_reading_n(const char *file, const char *id, int n, const char *const *edits)
{
	const char *top = getenv("top_srcdir");
	char path[512], want[64];
	snprintf(path, sizeof path, "%s/tests/validation/%s", top ? top : ".", file);
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	static char line[16384], edited[16384];
	snprintf(want, sizeof want, "%s,", id);
	bool found = false;
	while (!found && fgets(line, sizeof line, f))
		found = !strncmp(line, want, strlen(want));
	fclose(f);
	ck_assert_msg(found, "%s: no row %s", file, id);
	line[strcspn(line, "\r\n")] = '\0';
	snprintf(edited, sizeof edited, "%s", line);
	for (int i = 0; i < n; i++)
		edit_line(edited, sizeof edited, edits[2 * i], edits[2 * i + 1]);
	char *a = line_yaml(line), *b = line_yaml(edited);
	/* the first line that differs, with the key above it */
	const char *pa = a, *pb = b, *la = a;
	while (*pa && *pa == *pb) {
		if (*pa == '\n')
			la = pa + 1;
		pa++, pb++;
	}
	ck_assert_msg(!strcmp(a, b), "%s: '%s' -> '%s' reads another scenario: '%.60s' -> '%.60s'",
	              id, edits[0], edits[1], la, b + (la - a));
	free(a);
	free(b);
}

static void same_reading(const char *file, const char *id, const char *from, const char *to)
{
	same_reading_n(file, id, 1, (const char *const[]){from, to});
}

/* Paraphrases of real rows that a wording audit found read differently
 * (nineteenth session): a second GPU named as a comparison, thousands
 * separators in the model's widths, a framework the run is compared with,
 * NIC clauses, units, virtual pipeline, ZeRO and DDP wordings. */
START_TEST(t_paraphrases)
{
	same_reading("blind4-runs.csv", "ZBPP-014", "(bandwidth not stated)",
	             "(bandwidth not stated); not H100");
	same_reading("blind4-runs.csv", "ZBPP-014", "(bandwidth not stated)",
	             "(bandwidth not stated) (the paper also reports B200 results)");
	same_reading("dense-runs.csv", "DENSE-030", "ffn 13824", "ffn 13,824");
	same_reading("dense-runs.csv", "DENSE-032", "ffn 28672", "ffn 28,672");
	same_reading("moe-megatron-bridge.csv", "MOE-Q30-001", "vocab 151936", "vocab 151,936");
	same_reading("blind8-papers.csv", "AMSP8-027", "system: AMSP;",
	             "system: AMSP (unlike DeepSpeed);");
	same_reading("more-runs.csv", "MEGLLAMA-004", "Megatron-LLaMA OverlappedDistributedOptimizer",
	             "Megatron-LLaMA OverlappedDistributedOptimizer (compared with DeepSpeed in the README)");
	same_reading("blind6-papers.csv", "MOEZOO6-010", "FSDP not used (table /)",
	             "Fully Sharded Data Parallel (FSDP) not used");
	/* NIC clauses: a count after the rate, a rate in brackets, "for each
	 * GPU", number words */
	same_reading("nccl-multinode.csv", "NCCLX-MN-012",
	             "8 x 400 Gb/s NDR InfiniBand (ConnectX-7) per node", "400Gb/s NDR IB x8 per node");
	same_reading("nemo-blackwell.csv", "NEMOGB200-006", "1x400Gb/s NDR IB per GPU",
	             "1 x NDR (400G) IB per GPU");
	same_reading("nemo-blackwell.csv", "NEMOGB200-006", "1x400Gb/s NDR IB per GPU",
	             "one 400 Gb/s NDR IB NIC for each GPU");
	same_reading("blind6-papers.csv", "BERTDLE6-004", "8x 100 Gb/s EDR InfiniBand",
	             "8 x EDR (100G) InfiniBand HCAs");
	same_reading("blind8-nccl.csv", "PLAR8N8-004", "a pair of HPE Slingshot NICs per node",
	             "two HPE Slingshot NICs per node");
	same_reading("blind6-nccl.csv", "ENIZV1006-004", "1x Mellanox", "one Mellanox");
	/* units and sizes in lower case */
	same_reading("blind4-nccl.csv", "P3DNEFA-004", "100 Gb/s", "100 gbit/s");
	same_reading("blind8-nccl.csv", "PLAR8N8-004", "A100-SXM4-40GB", "A100-SXM4-40gb");
	same_reading("blind8-nccl.csv", "PLAR8N8-004", "40GB", "40GB/node");
	/* virtual pipeline, ZeRO and DDP wordings; a GPU per server */
	same_reading("blind6-runs.csv", "NMTGB6-008", "VP12", "virtual pipeline parallel size 12");
	same_reading("blind6-runs.csv", "NMTGB6-008", "VP12", "12 virtual pipeline stages");
	same_reading("more-runs.csv", "MEGLLAMA-002", "ZeRO stage", "zero stage");
	same_reading("blind6-papers.csv", "MCOREMOE6-001", "distributed optimizer",
	             "distributed optimiser");
	same_reading("blind4-nccl.csv", "P3DNEFA-004", "1 GPU per node used",
	             "1 GPU per server used");
	same_reading("moe-megatron-bridge.csv", "MOE-GOSS-002", "SWA 128", "swa 128");
	/* what those rules must not read into other texts (a review of them):
	 * a count or a sentence between a negation and the GPU, a NIC per GPU
	 * without a rate, a slot's lanes, a bracket that holds more than the
	 * rate, a comparison inside an aside, "zero" as a word */
	same_reading("blind4-runs.csv", "ZBPP-014", "NVIDIA A100 SXM 80G", "more than 1000 A100 SXM 80G");
	same_reading("blind4-runs.csv", "ZBPP-014", "NVIDIA A100 SXM 80G",
	             "Lambda (not DGX) 8x A100 SXM 80G");
	same_reading("blind4-runs.csv", "ZBPP-014", "NVIDIA A100 SXM 80G",
	             "RoCE not IB. NVIDIA A100 SXM 80G");
	static const char *const ndr[] = {"NDR InfiniBand, one NIC per GPU",
		"one Mellanox ConnectX-7 NIC per GPU, 400 Gb/s", "8x 400 Gb/s NDR; 1 NIC per GPU",
		"8x 400 Gb/s NDR ConnectX-7 in a PCIe Gen5 x16 slot",
		"NICs (8x 400 Gb/s NDR) and NVLink 900 GB/s per GPU",
		"8x NDR (400 Gb/s) NVSwitch interconnect"};
	for (size_t i = 0; i < sizeof ndr / sizeof ndr[0]; i++)
		same_reading("nccl-multinode.csv", "NCCLX-MN-012",
		             "8 x 400 Gb/s NDR InfiniBand (ConnectX-7) per node", ndr[i]);
	same_reading("blind6-papers.csv", "MCOREMOE6-001", "distributed optimizer",
	             "TP4 (vs TP8) distributed optimizer");
	same_reading("published.csv", "MEG21T1-011", "DDP=torch", "DDP=torch; zero stage imbalance");
	/* the NICs written beside the layout when the hardware gives none */
	same_reading_n("more-runs.csv", "MEGLLAMA-004", 2, (const char *const[]){
		", 4x 200 Gb/s RDMA NICs per node", "",
		"Megatron-LLaMA OverlappedDistributedOptimizer;",
		"Megatron-LLaMA OverlappedDistributedOptimizer; 4x 200 Gb/s RDMA NICs per node;"});
	same_reading_n("more-runs.csv", "MEGLLAMA-004", 2, (const char *const[]){
		", 4x 200 Gb/s RDMA NICs per node", "", "README does not say",
		"4x 200 Gb/s RDMA NICs per node; README does not say"});
	/* a second audit: a setting denied or compared ("ZeRO-3 was not used",
	 * "unlike the TP=2 PP=2 baseline", "fp8 was not used", "vs fp16 in the
	 * baseline"), a cell that says nothing before its remark, a recompute
	 * cell that opens with its answer, torchtitan's layer mode in words, a
	 * bracketed rate said per node, case */
	same_reading("blind5-runs.csv", "DGXCGPT3-002", "128 GPUs 5.92 s)",
	             "128 GPUs 5.92 s); ZeRO-3 was not used");
	same_reading("more-runs.csv", "BBG-002", "ALiBi, tied embeddings",
	             "ALiBi, tied embeddings (unlike the TP=2 PP=2 baseline)");
	same_reading("blind6-runs.csv", "MAXJT6-001", "\",bf16,remat", "\",bf16 (fp8 was not used),remat");
	same_reading("megascale-nemotron.csv", "MEGASCALE-009", "\",not stated,not stated,mfu",
	             "\",not stated (vs fp16 in the baseline),not stated,mfu");
	same_reading("blind6-papers.csv", "DGXL46-007", ",bf16,not stated,", ",bf16,,");
	same_reading("blind6-papers.csv", "DGXL46-007", ",bf16,not stated,", ",bf16,unknown,");
	same_reading("llm-foundry.csv", "FOUNDRY-009", ",bf16,full,",
	             ",bf16,full (without recompute it ran out of memory),");
	same_reading("torchtitan.csv", "TITAN-026", "selective (layer)", "selective recomputation (layer)");
	same_reading("nccl-multinode.csv", "NCCLX-MN-040", "8 x 400 Gb/s NDR InfiniBand per node",
	             "8 x NDR (400G) InfiniBand per node");
	same_reading("blind9-nccl.csv", "VIOTCP9-007", "10GbE", "10gbe");
	same_reading("blind5-papers.csv", "DGXMT2-012", "(900 GB/s bidirectional per GPU)",
	             "(900 gb/s bidirectional per GPU)");
	same_reading("blind6-nccl.csv", "H100TREE6-005", "1 NVIDIA H100", "1 nvidia H100");
	same_reading("blind6-runs.csv", "MAXJT6-001", "FSDP 8", "Fully Sharded Data Parallel (FSDP) 8");
	same_reading("moe-megatron-bridge.csv", "MOE-GOSS-007", "VP 1", "vp 1");
	same_reading("blind4-runs.csv", "FLAGPERF-007", "(FA2)", "(fa2)");
	/* TP and PP in the text only, beside the experts' own TP */
	same_reading("blind6-papers.csv", "MOEZOO6-003", "2048,1,2,8,16,\"Qwen3-235B-A22B per yaml:",
	             "2048,1,,,16,\"TP=2, PP=8; Qwen3-235B-A22B per yaml:");
	/* an architecture named before a part of another one is the run's, not
	 * before its own */
	same_reading("megascale-nemotron.csv", "MEGASCALE-009", "(SKU not named in paper; 8 GPU/server)",
	             "(SKU not named in paper; 8 GPU/server) (the paper also reports B200 results)");
	/* a model family named with another size than the row's is another
	 * model (its GQA and gated MLP are not this 39B's) */
	same_reading_n("blind5-runs.csv", "DGXCGPT3-002", 2, (const char *const[]){
	               ",bf16,", ",,", "(e.g. FP8 128 GPUs 5.92 s)",
	               "(e.g. FP8 128 GPUs 5.92 s); precision bf16"});
	/* the GPU count written with its nodes, dp left to be inferred from it
	 * (a node count read as the GPUs was +623%; "512 x A100" 51,200 GPUs) */
	static const char *const gpus[] = {"64 nodes (512 GPUs)", "64 nodes of 8 GPUs",
		"64 nodes with 8 GPUs each", "64*8", "64 DGX nodes", "64 nodes, 512 GPUs",
		"64 DGX A100 (512 GPUs)", "512 x A100", "64x DGX A100", "512 A100 GPUs",
		"64 x 8 H100 GPUs", "64 nodes x 8 GPUs", "512 GPUs / 64 nodes",
		/* a review's cases: a memory size, per-node GPUs first */
		"512 A100 80GB GPUs", "8 GPUs x 64 nodes", "8 GPUs per node, 64 nodes",
		"8 GPUs/node x 64 nodes", "512 (64x8 GPUs)", "0.5K A100 GPUs"};
	for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
		char cell[96];
		snprintf(cell, sizeof cell, ",\"%s\",39.1,48,8192,64,2048,1536,4,8,2,,", gpus[i]);
		same_reading("published.csv", "MEG21T1-020", ",512,39.1,48,8192,64,2048,1536,4,8,2,32,",
		             cell);
	}
	/* the parameter count with a mark or as a whole count (a named
	 * model's shape needs it); tp and pp said unused or as Megatron's
	 * flags; LLM Foundry's PURE only as a precision mode */
	same_reading("blind6-runs.csv", "NMT15A6-004", ",128,15,32,", ",128,~15,32,");
	same_reading("blind6-runs.csv", "NMT15A6-004", ",128,15,32,", ",128,1.5e10,32,");
	same_reading("blind6-runs.csv", "NMT15A6-004", ",128,15,32,", ",128,15000M,32,");
	same_reading("torchtitan.csv", "TITAN-029", ",64,1,1,1,64,", ",64,1,none,not used,64,");
	same_reading_n("published.csv", "MEG21T1-020", 2, (const char *const[]){
	               ",1536,4,8,2,32,", ",1536,4,--tensor-model-parallel-size 8,2,32,",
	               "size 8,2,32,", "size 8,--pipeline-model-parallel-size 2,32,"});
	same_reading("blind5-papers.csv", "DGXMT2-007", "pure DP", "PURE DP");
	/* "1 node x N GPUs": a placeholder, the gpus cell counts them */
	same_reading("blind10-nccl.csv", "NC1455H10-002", "1 node x N GPUs", "1 node x 5 GPUs");
	/* a switch's port rate before the NICs' */
	same_reading_n("megascale-nemotron.csv", "MEGASCALE-001", 2, (const char *const[]){
	               "NVIDIA Ampere GPUs (SKU", "Broadcom Tomahawk 4 switches (64x400G); NVIDIA "
	               "Ampere GPUs (SKU", "3-layer CLOS of Broadcom Tomahawk 4 switches "
	               "(64x400G, 1:1 down/up)", "3-layer CLOS"});
	/* an FSDP axis written "FSDP group 128" beside a DP axis, dp empty */
	same_reading("blind5-papers.csv", "DGXMT2-012", ",1,1,2048,\"MaxText", ",1,1,,\"MaxText");
	same_reading("published.csv", "MEG21T1-020", "Table 1 == NVIDIA",
	             "Table 1 (the same table also lists Llama 2 70B) == NVIDIA");
	check_cluster("G-002,x,NVIDIA Blackwell GB200 NVL72,72,18.4,40,6144,48,2048,576,1,8,1,9,,"
	              "bf16,full,iteration_time,10,s,x", "Blackwell GB200", "GB200", 72, 72, 400, 0);
	/* a GPU named second is another table's, a GB200 not a B200's variant */
	check_cluster("G-001,x,NVIDIA B200 (the paper also reports GB200 results),64,18.4,40,6144,48,"
	              "2048,512,1,8,1,8,,bf16,full,iteration_time,10,s,x", "B200 then GB200", "B200",
	              8, 8, 400, 0);
	/* spellings are made American in the free text only: an id keeps its own */
	val_row *r;
	size_t nr;
	char err[256];
	ck_assert_int_eq(val_parse(HEADER "optimiser-002,x,DGX A100,8,1,2,64,2,64,8,1,1,1,8,optimiser,"
	                           "bf16,none,iteration_time,1,s,x\n", "t.csv", &r, &nr, err,
	                           sizeof err), 0);
	ck_assert_str_eq(r[0].id, "optimiser-002");
	ck_assert_str_eq(r[0].other, "optimizer");
	free(r);
}
END_TEST

/* The row of that id in rows[0..n), or fails. */
static val_row *row_of(val_row *rows, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].id, id))
			return &rows[i];
	ck_abort_msg("no row %s", id);
	return NULL;
}

/* The eleventh blind batch's misreadings (twenty-first session): a node's
 * parts after "nodes:", a host list between the nodes and their GPUs, "GPU(s)
 * per node", a time at no one size, a NIC per GPU pair, a MoE named in the
 * source or by its family and size. */
START_TEST(t_blind11)
{
	size_t n;
	val_row *r = validation_rows("blind11-nccl.csv", &n);
	val_case c;
	char why[256];
	/* "GH200 nodes: 4x NVIDIA GH200 120GB per node" on 2 nodes (was 4 x 2) */
	ck_assert_int_eq(val_build(row_of(r, n, "ALPSGHB11-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 4);
	/* "10 nodes (cnode3-[002-011]) x 8 NVIDIA H100", "8 GPU(s) per node" (was
	 * 80 x 1); the same cluster's run of one GPU a node stays 10 x 1 */
	ck_assert_int_eq(val_build(row_of(r, n, "XXRH10011-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nodes, 10);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 8);
	ck_assert_int_eq(val_build(row_of(r, n, "XXRH10011-007"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nodes, 10);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 1);
	/* the smallest time over an "8B..8GiB sweep" is at no size: not the 8 GiB
	 * end of the range (+109,000%) */
	ck_assert_int_eq(val_build(row_of(r, n, "AWSB300E11-026"), &c, why, sizeof why), -1);
	free(r);
	r = validation_rows("blind11-runs.csv", &n);
	/* "CX7 400 Gb/s InfiniBand per GPU pair": 4 NICs of 400 Gb/s on 8 GPUs
	 * (was 8 of 50 Gb/s) */
	ck_assert_int_eq(val_build(row_of(r, n, "AUTOMODEL11-012"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.count, 4);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 50e9, 1);
	/* a MoE named only in the source's table beside its size */
	ck_assert_int_eq(val_build(row_of(r, n, "PRIMERL11-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.layers, 94);
	ck_assert_int_eq(c.s.model.experts, 128);
	/* "Qwen3 MoE 30B" with 30B parameters */
	ck_assert_int_eq(val_build(row_of(r, n, "AUTOMODEL11-004"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.hidden, 2048);
	ck_assert_int_eq(c.s.model.expert_ffn_hidden, 768);
	/* Kimi K2 and gpt-oss from their published configurations */
	ck_assert_int_eq(val_build(row_of(r, n, "AUTOMODEL11-003"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.experts, 384);
	ck_assert_int_eq(c.s.model.dense_layers, 1);
	ck_assert_int_eq(c.s.model.heads, 64);
	ck_assert_int_eq(val_build(row_of(r, n, "AUTOMODEL11-006"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.layers, 36);
	ck_assert_int_eq(c.s.model.top_k, 4);
	ck_assert_int_eq(c.s.model.sliding_window, 128);
	free(r);
	/* a dense row beside a MoE the source also names is dense (Qwen3-32B
	 * next to Qwen3-30B-A3B, 32.8 within 10% of 30.5) */
	ck_assert_int_eq(build_row("Q-003,\"Qwen3 report: Qwen3-32B and Qwen3-30B-A3B throughput\","
	                           "DGX H100,64,32.8,,,,4096,512,1,4,1,16,TP4 PP1; Qwen3-32B,bf16,full,"
	                           "iteration_time,1,s,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.experts, 1);
	ck_assert_int_eq(c.s.model.hidden, 5120);
	/* a NIC a GPU pair with its count of one */
	check_cluster("N-001,x,\"8x H100 80GB SXM, one 400 Gb/s NDR NIC per pair of GPUs\",16,1,2,"
	              "2048,16,2048,16,1,1,1,16,,bf16,none,iteration_time,1,s,x", "a NIC per pair",
	              "H100-SXM5-80GB", 8, 4, 400, 0);
	check_cluster("N-002,x,\"8x H100 80GB SXM, 400Gb/s NDR InfiniBand, 1 NIC per GPU pair\",16,"
	              "1,2,2048,16,2048,16,1,1,1,16,,bf16,none,iteration_time,1,s,x",
	              "1 NIC per GPU pair", "H100-SXM5-80GB", 8, 4, 400, 0);
	/* a dense Qwen3 of about that size is no MoE, nor is a MoE family's stem
	 * beside another size */
	int rc = build_row("Q-001,Qwen3 32B report,DGX H100,8,32,,,,4096,64,1,1,1,8,dense,bf16,"
	                   "none,iteration_time,1,s,x", &c, why, sizeof why);
	ck_assert(rc < 0 || c.s.model.experts <= 1);
	ck_assert_int_eq(build_row("Q-002,Qwen3 MoE report,DGX H100,8,80,,,,4096,64,1,1,1,8,"
	                           "MoE,bf16,none,iteration_time,1,s,x", &c, why, sizeof why), -1);
}
END_TEST

/* The twelfth blind batch's misreadings (twenty-second session): "2 node(s)
 * x 4 GPUs", an AWS instance's EFA interfaces counted without a rate, an
 * EFA said not to be used, a rate "per GPU" beside "injection", a precision
 * cell that opens with "not stated in ...", the GPT-2 vocabulary of a
 * BigScience run, "per GPU" of another quantity in a rate's unit, and a
 * model-parallel size given as tensor x pipeline. */
/* How Megatron split the layers: Qwen3-235B's 94 layers on PP 32 x VPP 3
 * run only with the embedding and loss in the split (was refused); the
 * first and last stage's counts when the row gives them. */
START_TEST(t_pipeline_split)
{
	size_t n;
	val_row *r = validation_rows("blind12-runs.csv", &n);
	val_case c;
	char why[256];
	ck_assert_int_eq(val_build(row_of(r, n, "XTQ12-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.pp * c.s.training.virtual_stages, 96);
	ck_assert(c.s.training.embedding_in_split && c.s.training.loss_in_split);
	ck_assert_int_eq(wl_stage_layers(&c.s, 0), 2);
	free(r);
	char row[1024];
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,61,6144,48,2048,512,1,1,8,8,\"Megatron-LM "
	         "--decoder-first-pipeline-num-layers 4 --decoder-last-pipeline-num-layers=5\",bf16,"
	         "none,iteration_time,10,s,x", A100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.first_stage_layers, 4);
	ck_assert_int_eq(c.s.training.last_stage_layers, 5);
	ck_assert_int_eq(wl_stage_layers(&c.s, 0), 4);
	scn_release(&c.s);
	snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,63,6144,48,2048,512,1,1,8,8,\"Megatron-LM "
	         "--account-for-loss-in-pipeline-split\",bf16,none,iteration_time,10,s,x", A100_HW);
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert(c.s.training.loss_in_split && !c.s.training.embedding_in_split);
	ck_assert_int_eq(wl_stage_layers(&c.s, 7), 7);   /* 64 places of 8, one the loss's */
	scn_release(&c.s);
	/* a flag given a false value, or said not used, is not set */
	static const char *const off[] = {"--account-for-loss-in-pipeline-split=False",
		"account_for_loss_in_pipeline_split: false", "account_for_loss_in_pipeline_split false",
		"we did not use --account-for-loss-in-pipeline-split"};
	for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,18.4,63,6144,48,2048,512,1,1,8,8,"
		         "\"Megatron-LM %s\",bf16,none,iteration_time,10,s,x", A100_HW, off[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", off[i], why);
		ck_assert_msg(!c.s.training.loss_in_split, "%s", off[i]);
		scn_release(&c.s);
	}
}
END_TEST

/* The fourteenth batch's reading fixes: an expert's width written as its
 * "expert intermediate" (MRNGB14: 2560, was the dense 20480, which did not
 * fit); an Ethernet NIC listed before the InfiniBand adapters (HPE8B13: 8 x
 * 400 Gb/s RDMA, was 1 x 200 Gb/s TCP). */
START_TEST(t_blind14)
{
	size_t n;
	val_row *r = validation_rows("blind14-runs.csv", &n);
	val_case c;
	char why[256];
	ck_assert_int_eq(val_build(row_of(r, n, "MRNGB14-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.expert_ffn_hidden, 2560);
	ck_assert_int_eq(c.s.model.shared_expert_ffn_hidden, 5120);
	ck_assert_int_eq(c.s.model.top_k, 4);
	free(r);
	/* the routed experts' width, not the shared one's; a width, not "2x";
	 * "1 shared expert (intermediate 2048)" is 2048 wide */
	static const struct { const char *o; int fe, fs; } w[] = {
		{"MoE, 64 routed experts top-4, shared expert intermediate 4096, expert intermediate "
		 "1024, EP8", 1024, 4096},
		{"MoE, 64 routed experts top-4, routed intermediate 1024, 1 shared expert "
		 "(intermediate 2048), EP8", 1024, 2048},
		{"MoE, 64 experts top-4, expert intermediate size 1024, EP8", 1024, 0},
		{"MoE, 64 experts top-4, ffn 8192, expert intermediate 2x, EP8", 8192, 0}};
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		char row[1024];
		snprintf(row, sizeof row, "T-001,x,\"%s\",64,,24,2048,16,4096,256,1,1,1,64,\"%s\","
		         "bf16,none,iteration_time,10,s,x", A100_HW, w[i].o);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", w[i].o, why);
		ck_assert_msg(c.s.model.expert_ffn_hidden == w[i].fe &&
		              c.s.model.shared_expert_ffn_hidden == w[i].fs, "%s: %d %d", w[i].o,
		              c.s.model.expert_ffn_hidden, c.s.model.shared_expert_ffn_hidden);
		scn_release(&c.s);
	}
	/* torchtitan's compile knob by its name: "no compile", "compile=false"
	 * run eager (were fused); "compile=true" does not */
	r = validation_rows("blind14-runs.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "TTQ32-14-004"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.kernels, KERNELS_EAGER);
	free(r);
	r = validation_rows("blind7-runs.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "AWSTT7-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.kernels, KERNELS_EAGER);
	ck_assert_int_eq(val_build(row_of(r, n, "AWSTT7-003"), &c, why, sizeof why), 0);
	ck_assert_int_ne(c.s.training.kernels, KERNELS_EAGER);
	free(r);
	r = validation_rows("blind13-runs.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "HPE8B13-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.count, 8);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 50e9, 1);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_RDMA);
	free(r);
}
END_TEST

/* The fifteenth blind batch's readings, each a defect its rows showed:
 * GB200/GB300 trays in one NVLink domain unless the text keeps them apart
 * (MNNVL off, "distinct NVLink domains"), two domains for "cross-domain"
 * with NVLink on, the same for nccl-tests rows as for runs; Google's A4X
 * machines (GB200; the text's "B200" first was read); "3,200 Gbps" is 3200;
 * ALCF Polaris's two Slingshot NICs. */
START_TEST(t_blind15)
{
	size_t n;
	val_row *r = validation_rows("blind15-nccl.csv", &n);
	val_case c;
	char why[256];
	static const struct { const char *id, *gpu; int nodes, gpn; } dom[] = {
		{"A4XGB200U15-001", "GB200", 1, 8},    /* same NVLink domain, 2 trays (was 2 x 4 B200) */
		{"A4XGB200U15-011", "GB200", 2, 4},    /* NCCL_MNNVL_ENABLE=0 */
		{"A4XGB200U15-013", "GB200", 2, 8},    /* cross-domain, MNNVL+RDMA: two domains */
		{"GCPA4XM15-001", "GB300", 2, 4},      /* "distinct NVLink domains" (was 1 x 8) */
		{"GCPGKED15-001", "GB200", 1, 8},      /* "in one NVLink domain" (was 2 x 4) */
	};
	for (size_t i = 0; i < sizeof dom / sizeof dom[0]; i++) {
		ck_assert_msg(val_build(row_of(r, n, dom[i].id), &c, why, sizeof why) == 0, "%s: %s",
		              dom[i].id, why);
		ck_assert_str_eq(c.s.cluster.gpu.name, dom[i].gpu);
		ck_assert_msg(c.s.cluster.nodes == dom[i].nodes &&
		              c.s.cluster.gpus_per_node == dom[i].gpn, "%s: %d x %d", dom[i].id,
		              c.s.cluster.nodes, c.s.cluster.gpus_per_node);
		scn_release(&c.s);
	}
	/* A4X Max's 800 Gb/s a GPU, not "3,200" read as 200 a tray */
	ck_assert_int_eq(val_build(row_of(r, n, "A4XMGB300U15-001"), &c, why, sizeof why), 0);
	ck_assert_double_eq_tol(c.s.cluster.nic.count * c.s.cluster.nic.speed_Bps,
	                        c.s.cluster.gpus_per_node * 100e9, 1);
	scn_release(&c.s);
	ck_assert_int_eq(val_build(row_of(r, n, "POLARIS15-003"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.count, 2);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 25e9, 1);
	scn_release(&c.s);
	free(r);
	/* a node's total with a thousands comma */
	char row[512];
	snprintf(row, sizeof row, "T-001,x,\"2 nodes x 8 H100 80GB, 8 RDMA NICs, 3,200 Gbps per "
	         "node\",16,,,,,,,,,,,,,,allreduce_busbw@1G,400,GB/s,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), 0);
	ck_assert_double_eq_tol(c.s.cluster.nic.count * c.s.cluster.nic.speed_Bps, 400e9, 1);
	scn_release(&c.s);
}
END_TEST

/* The sixteenth blind batch's readings: "context parallel of size 8"; "1
 * sequence per step"; a context written 'context "4M" tokens' (2^22) before
 * the named model's own sequence; a batch column said to be per GPU. */
START_TEST(t_blind16)
{
	size_t n;
	val_row *r = validation_rows("blind16-runs.csv", &n);
	val_case c;
	char why[256];
	ck_assert_msg(val_build(row_of(r, n, "TRL16-005"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.cp, 8);
	ck_assert_int_eq(c.s.training.global_batch, 1);
	ck_assert_int_eq(c.s.model.seq_len, 4194304);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "ROCMPT16-002"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.global_batch, 24);   /* 3 a GPU x 8 */
	scn_release(&c.s);
	free(r);
}
END_TEST

/* Batch 17's readings: NVLS said off in the metric or the notes runs NCCL
 * without it (not NVLS forced); "DP = 256/8 = 32" is 32; GeForce cards go
 * through host memory unless the text enables P2P, workstation cards
 * peer-to-peer unless it is said off; DGX Spark's GB10 is no GB200. */
START_TEST(t_blind17)
{
	size_t n;
	val_row *r = validation_rows("blind17-nccl.csv", &n);
	val_case c;
	char why[256];
	ck_assert_msg(val_build(row_of(r, n, "STASH20017-008"), &c, why, sizeof why) == 0, "%s",
	              why);
	ck_assert_int_eq(c.coll_algo, ALGO_AUTO);
	ck_assert_double_eq(c.s.cluster.gpu.nvls_eff, 0);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "STASH20017-007"), &c, why, sizeof why) == 0, "%s",
	              why);
	ck_assert_double_gt(c.s.cluster.gpu.nvls_eff, 0);
	scn_release(&c.s);
	ck_assert_int_eq(val_build(row_of(r, n, "SPARK4N17-001"), &c, why, sizeof why), -1);
	free(r);
	r = validation_rows("blind17-runs.csv", &n);
	ck_assert_msg(val_build(row_of(r, n, "LUMINW17-001"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.dp, 32);
	scn_release(&c.s);
	free(r);
	static const struct {
		const char *hw, *other;
		hw_p2p p2p;
		bool shm;
	} cases[] = {
		{"1 node x 4 GeForce RTX 5090 on PCIe", "", P2P_AUTO, true},
		{"1 node x 4 GeForce RTX 5090 on PCIe", "P2P enabled by the patched driver", P2P_ON,
		 false},
		{"8x RTX 5090", "NCCL_P2P_LEVEL=SYS", P2P_ON, false},
		{"2x RTX 2080 Ti, P2P not supported (CANNOT Access Peer)", "", P2P_OFF, true},
		{"4x RTX 4090", "whether CUDA P2P was available is not stated", P2P_AUTO, true},
		{"4x RTX PRO 6000 Blackwell Workstation", "", P2P_AUTO, false},
		{"4x RTX PRO 6000 Blackwell Workstation", "NCCL_P2P_DISABLE=1", P2P_OFF, true},
		{"4x RTX 6000 Ada", "no GPU P2P (SHM/host path)", P2P_OFF, true},
		{"4x RTX 3090", "P2P presumably unavailable", P2P_OFF, true},
		/* a bandwidth test's modes describe the card, not the run */
		{"4x A100-PCIE-40GB; p2pBandwidthLatencyTest: P2P access CAN for all pairs, "
		 "P2P-enabled 7.7-10.3 GB/s, P2P-disabled 10.7-11.4 GB/s", "", P2P_AUTO, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024];
		snprintf(row, sizeof row, "T-%03zu,x,\"%s\",4,,,,,,,,,,,\"%s\",,,allreduce_busbw@1G,"
		         "10,GB/s,x", i, cases[i].hw, cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].hw, why);
		const scn_cluster *k = &c.s.cluster;
		ck_assert_int_eq(k->intra.kind, INTRA_PCIE);
		ck_assert_msg(k->intra.p2p == cases[i].p2p && hw_intra_shm(&k->intra, &k->gpu) ==
		              cases[i].shm, "%s | %s: p2p %d", cases[i].hw, cases[i].other, k->intra.p2p);
		scn_release(&c.s);
	}
}
END_TEST

/* The review of batch 17's readings: texts they over-read or missed. */
START_TEST(t_blind17_review)
{
	static const struct {
		const char *hw, *other;
		const char *gpu;       /* NULL: refused, no GPU of the catalog */
		bool shm;
	} cases[] = {
		/* "P2P" of a pipeline, of a CUDA sample's matrices, or beside another
		 * feature that is off, is not the GPUs' peer-to-peer turned off */
		{"8x L40S PCIe", "NCCL 2.21; PP send/recv (P2P) overlap disabled", "L40S", false},
		{"8x L40S PCIe", "Megatron overlap_p2p_comm=False", "L40S", false},
		{"8x L40S PCIe", "p2pBandwidthLatencyTest: Unidirectional P2P=Disabled Bandwidth Matrix "
		 "21 GB/s, P2P=Enabled 25 GB/s", "L40S", false},
		{"4x RTX PRO 6000 Blackwell Workstation Edition",
		 "GPUDirect P2P works but RDMA not supported on this host", "RTX-PRO-6000", false},
		{"8x L40S PCIe", "P2P + CPU offload of optimizer", "L40S", false},
		/* missed before: a patched driver in prose, P2P_LEVEL=LOC; an NVLink
		 * bridge is no PCIe peer-to-peer (the GeForce pair talks over its
		 * bridge, intra_node.nvlink_bridge: t_blind7_reading) */
		{"2x GeForce RTX 4090", "P2P via the tinygrad patched driver", "RTX-4090", false},
		{"2x GeForce RTX 3090 with NVLink bridge", "P2P over the NVLink bridge", "RTX-3090",
		 true},
		{"8x L40S PCIe", "NCCL_P2P_LEVEL=LOC", "L40S", true},
		{"8x L40S PCIe", "NCCL_P2P_LEVEL=NVL", "L40S", true},
		/* names: "server" of the chassis is not the Server Edition; spellings
		 * without blanks; parts the catalog does not have */
		{"8x RTX PRO 6000 Blackwell Workstation Edition in a Supermicro server", "",
		 "RTX-PRO-6000", false},
		{"8x RTX PRO 6000 Blackwell Server Edition", "", "RTX-PRO-6000-SERVER", false},
		{"8xRTX4090", "", "RTX-4090", true},
		{"8x RTX-4090", "", "RTX-4090", true},
		{"2x RTX 2080Ti", "", "RTX-2080-TI", true},
		{"8x RTX PRO 6000 Blackwell Max-Q Workstation Edition", "", NULL, false},
		{"4x GeForce RTX 3090 Ti", "", NULL, false},
		{"4x GeForce RTX 5090 D", "", NULL, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-%03zu,x,\"%s\",8,,,,,,,,,,,\"%s\",,,allreduce_busbw@1G,"
		         "10,GB/s,x", i, cases[i].hw, cases[i].other);
		int rc = build_row(row, &c, why, sizeof why);
		if (!cases[i].gpu) {
			ck_assert_msg(rc < 0, "%s: read as %s", cases[i].hw, c.s.cluster.gpu.name);
			continue;
		}
		ck_assert_msg(rc == 0, "%s: %s", cases[i].hw, why);
		const scn_cluster *k = &c.s.cluster;
		ck_assert_msg(!strcmp(k->gpu.name, cases[i].gpu) &&
		              hw_intra_shm(&k->intra, &k->gpu) == cases[i].shm,
		              "%s | %s: %s, p2p %d", cases[i].hw, cases[i].other, k->gpu.name,
		              k->intra.p2p);
		scn_release(&c.s);
	}
	/* NVLS said to have run, or off only for another feature, is not off;
	 * a bracketed remark after an axis is not its size */
	static const char *const nvls_on[] = {"NVLS enabled; 25% faster than without NVLS",
		"NVLS busbw, 1.3x the non-NVLS ring", "NVLS (CollNet off)", "NVLS+SHARP off"};
	for (size_t i = 0; i < sizeof nvls_on / sizeof nvls_on[0]; i++) {
		char row[512], why[256];
		val_case c;
		snprintf(row, sizeof row, "N-%03zu,x,\"1 node x 8 H100 SXM\",8,,,,,,,,,,,\"%s\",,,"
		         "allreduce_busbw@1G,400,GB/s,x", i, nvls_on[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", nvls_on[i], why);
		ck_assert_msg(c.s.cluster.gpu.nvls_eff > 0, "%s: NVLS read as off", nvls_on[i]);
		scn_release(&c.s);
	}
	/* a CPU's sockets are not NCCL's socket transport; a device's number
	 * ("mlx5_8") is no NIC count */
	check_cluster("S-1,x,\"2 nodes x 2 NVIDIA L40S (PCIe, bus 61:00 and e1:00, likely on "
	              "different CPU sockets/root complexes), RDMA (RoCE presumed) over SR-IOV VFs "
	              "mlx5_2/mlx5_8 of ConnectX-7 400GbE NICs\",4,,,,,,,,,,,-g 2,float,,"
	              "allreduce_busbw@1G,9.6,GB/s,x", "CPU sockets, mlx5_8", "L40S", 2, 2, 400, 0);
	check_cluster("S-2,x,\"2 nodes x 8 NVIDIA H200, 4x ConnectX-7 InfiniBand 400 Gb/s per node; "
	              "2 sockets, 1 TB RAM\",16,,,,,,,,,,,,float,,allreduce_busbw@1G,300,GB/s,x",
	              "2 sockets", "H200-SXM-141GB", 8, 4, 400, 0);
	check_cluster("S-4,x,\"2 nodes x 1 NVIDIA A100-PCIE-40GB; ConnectX-5 200 Gb/s InfiniBand "
	              "(a second port on the other socket unused); 2-socket hosts, GPU and NIC on "
	              "socket 1\",2,,,,,,,,,,,,float,,allreduce_busbw@1G,20,GB/s,x", "on socket 1",
	              "A100-PCIE-40GB", 1, 1, 200, 0);
	check_cluster("S-3,x,\"2 nodes x 8 NVIDIA H100, 1x 100GbE per node\",16,,,,,,,,,,,"
	              "NCCL over sockets,float,,allreduce_busbw@1G,3,GB/s,x", "over sockets",
	              "H100-SXM5-80GB", 8, 1, 100, 1);
	static const struct { const char *other; int tp, pp, dp; } axes[] = {
		{"TP=8, PP=4 (8x4 = 32 GPUs per replica), DP=2", 8, 4, 2},
		{"TP=2, PP=1, DP 32 (=64/2)", 2, 1, 32},
		{"TP=1, PP=1, DP = 64/1 = 64", 1, 1, 64},
	};
	for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++) {
		char row[512], why[256];
		val_case c;
		snprintf(row, sizeof row, "A-%03zu,x,\"8 nodes x 8 H100 SXM\",64,,24,2048,16,2048,128,1,,,,"
		         "\"%s\",bf16,none,iteration_time,1,s,x", i, axes[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", axes[i].other, why);
		ck_assert_msg(c.s.training.tp == axes[i].tp && c.s.training.pp == axes[i].pp &&
		              c.s.training.dp == axes[i].dp, "%s: tp %d pp %d dp %d", axes[i].other,
		              c.s.training.tp, c.s.training.pp, c.s.training.dp);
		scn_release(&c.s);
	}
}
END_TEST

/* Batch 18's readings: NICs counted after their name, servers with a host
 * list, NVLinks a GPU pair, a batch size that is no message size,
 * torchtitan's pipeline micro-batches, a fine-grained MoE, Qwen2-57B, a
 * DGX's NIC rate beside "inter-node", and an MLP gated by its count. */
START_TEST(t_blind18)
{
	size_t n;
	val_row *r = validation_rows("blind18-nccl.csv", &n);
	val_case c;
	char why[256];
	ck_assert_msg(val_build(row_of(r, n, "KESTRELAG18-005"), &c, why, sizeof why) == 0, "%s",
	              why);
	ck_assert_int_eq(c.s.cluster.nic.count, 2);   /* "NICs per node 2" */
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "OPTCAST18-001"), &c, why, sizeof why) == 0, "%s",
	              why);
	ck_assert_int_eq(c.s.cluster.nodes, 2);   /* "2 GPU servers (client1, client2) x 2 GPUs" */
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 2);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "LEOSR18-006"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.intra.kind, INTRA_NVLINK_MESH);   /* 2 of 4, NV4 */
	ck_assert_double_eq_tol(c.s.cluster.intra.bandwidth_Bps, 100e9, 1);
	scn_release(&c.s);
	free(r);
	r = validation_rows("blind18-runs.csv", &n);
	/* INTELLECT-1's all-reduce across continents: "batch size 128" is no
	 * message size */
	ck_assert_int_eq(val_build(row_of(r, n, "INTL118-005"), &c, why, sizeof why), -1);
	static const struct {
		const char *id;
		int mb;
	} titan[] = {{"TTPAPER18-009", 2}, {"TTPAPER18-010", 2}};
	for (size_t i = 0; i < 2; i++) {
		ck_assert_msg(val_build(row_of(r, n, titan[i].id), &c, why, sizeof why) == 0, "%s",
		              why);
		ck_assert_int_eq(c.s.training.micro_batch, titan[i].mb);
		scn_release(&c.s);
	}
	/* the 2025 configuration: micro-batches of pipeline_parallel_microbatch_size, 1 */
	ck_assert_msg(build_row("T-001,x,8x H100 SXM per node,16,8,32,4096,32,4096,32,8,1,4,4,"
	                        "\"torchtitan, training.local_batch_size 8, PP 4\",bf16,,"
	                        "tokens_per_sec_per_gpu,1000,tokens/s per GPU,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.micro_batch, 1);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "MOEPF18-005"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.experts, 64);
	ck_assert_int_eq(c.s.model.expert_ffn_hidden, 2048);   /* 16384 / 8 */
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "MOEPF18-003"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.hidden, 3584);
	ck_assert_int_eq(c.s.model.shared_expert_ffn_hidden, 20480);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "MOEPF18-001"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nic.count, 8);   /* DGX H100: 8 x 400, not 400 a node */
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 400e9 / 8, 1);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "SKYW18-010"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert(c.s.model.gated_mlp);   /* 13B: 13.5B gated, 10.6B plain */
	scn_release(&c.s);
	free(r);
	/* NVLinks a pair: a mesh only when fewer than the GPU's own */
	static const struct {
		const char *hw;
		int gpus;
		hw_intra_kind kind;
		double bw;
	} nv[] = {
		{"4x NVIDIA A100-SXM4-40GB per node, every GPU pair NV4", 4, INTRA_NVLINK_MESH, 300e9},
		{"8x A100-SXM4-80GB (NV12 between every pair)", 8, INTRA_NVSWITCH, 0},
		{"8x H100 SXM, all pairs NV18", 8, INTRA_NVSWITCH, 0},
		{"8x Tesla V100-SXM2-16GB, NV1/NV2 hybrid cube-mesh", 8, INTRA_NVLINK_MESH, 0},
	};
	for (size_t i = 0; i < sizeof nv / sizeof nv[0]; i++) {
		char row[512];
		snprintf(row, sizeof row, "N-%03zu,x,\"%s\",%d,,,,,,,,,,,,,,allreduce_busbw@1G,10,"
		         "GB/s,x", i, nv[i].hw, nv[i].gpus);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", nv[i].hw, why);
		ck_assert_msg(c.s.cluster.intra.kind == nv[i].kind, "%s: kind %d", nv[i].hw,
		              c.s.cluster.intra.kind);
		if (nv[i].bw > 0)
			ck_assert_double_eq_tol(c.s.cluster.intra.bandwidth_Bps, nv[i].bw, 1);
		scn_release(&c.s);
	}
	/* a message size said in words still reads */
	ck_assert_msg(build_row("M-001,x,8x H100 SXM,8,,,,,,,,,,,\"message size 1GB, batch size "
	                        "4\",,,all_reduce busbw,10,GB/s,x", &c, why, sizeof why) == 0,
	              "%s", why);
	ck_assert_double_eq(c.coll_bytes, 1073741824.0);   /* nccl-tests' 1G */
	scn_release(&c.s);
}
END_TEST


/* The review of batch 18's readings: texts they over-read or missed. */
static const char *const review18[] = {
		/* G1 */
		"G1,test,\"1 node x 8 A100 SXM, NVSwitch\",8,8,32,4096,32,2048,64,1,1,1,8,\"Megatron-"
		 "LM; SwiGLU MLP, ffn 16384\",bf16,none,tokens_per_sec_per_gpu,3000,tokens/s per GPU,y"
		 "es",
		/* G5 */
		"G5,test,\"1 node x 8 A100 SXM, NVSwitch\",8,6.7,32,4096,32,2048,64,1,1,1,8,\"Megatro"
		 "n-LM GPT; ffn 16384; gradients aggregated across data-parallel ranks\",bf16,none,tok"
		 "ens_per_sec_per_gpu,3000,tokens/s per GPU,yes",
		/* G9 */
		"G9,test,\"1 node x 8 A100 SXM, NVSwitch\",8,4.2,32,3072,24,4096,64,1,1,1,8,\"custom "
		 "4B; squared-ReLU MLP; ffn 9216; 8 KV heads; vocab 256000; untied input/output embedd"
		 "ings\",bf16,none,tokens_per_sec_per_gpu,3000,tokens/s per GPU,yes",
		/* G10 */
		"G10,test,\"1 node x 8 A100 SXM, NVSwitch\",8,6.7,32,4096,32,2048,64,1,1,1,8,\"Megatr"
		 "on-LM GPT; ungated MLP with GeLU activation; ffn 16384\",bf16,none,tokens_per_sec_pe"
		 "r_gpu,3000,tokens/s per GPU,yes",
		/* M2 */
		"M2,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"torc"
		 "h.distributed all_reduce benchmark; all-reduce size 1073741824\",bf16,,all_reduce bu"
		 "sbw,300,GB/s,yes",
		/* M4 */
		"M4,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"torc"
		 "h.distributed all_reduce benchmark on 8 GPUs. Size 1073741824 bytes\",bf16,,all_redu"
		 "ce busbw,300,GB/s,yes",
		/* M5 */
		"M5,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"torc"
		 "h.distributed all_reduce benchmark; tensor size 1073741824 bytes\",bf16,,all_reduce "
		 "busbw,300,GB/s,yes",
		/* M7 */
		"M7,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"torc"
		 "h.distributed all_reduce benchmark; allreduce size=1GB\",bf16,,all_reduce busbw,300,"
		 "GB/s,yes",
		/* M8 */
		"M8,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"torc"
		 "h.distributed all_reduce on one ring of 8 GPUs (size 8), message size 1073741824\",b"
		 "f16,,all_reduce busbw,300,GB/s,yes",
		/* M9 */
		"M9,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"torc"
		 "h.distributed all_reduce; NCCL buffer size 4194304 (NCCL_BUFFSIZE); message 1 GiB\","
		 "bf16,,all_reduce busbw,300,GB/s,yes",
		/* M11 */
		"M11,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"tor"
		 "ch.distributed all_reduce benchmark (size: 8 ranks); tensor of 1 GiB\",bf16,,all_red"
		 "uce busbw,300,GB/s,yes",
		/* T2 */
		"T2,torchtitan benchmark 2025,\"8x H100 SXM per node with NVSwitch, 8x 400 Gb/s Infin"
		 "iBand per node\",64,8,32,4096,32,8192,64,8,1,8,8,\"torchtitan; FSDP 8 x PP 8; 1F1B; "
		 "training.local_batch_size=8 parallelism.pipeline_parallel_microbatch_size=2\",bf16,f"
		 "ull,tokens_per_sec_per_gpu,3000,tokens/s per GPU,yes",
		/* T3 */
		"T3,torchtitan benchmark 2025,\"8x H100 SXM per node with NVSwitch, 8x 400 Gb/s Infin"
		 "iBand per node\",64,8,32,4096,32,8192,64,8,1,8,8,\"torchtitan; FSDP 8 x PP 8; 1F1B; "
		 "training.local_batch_size=8 (pipeline_parallel_microbatch_size left at its default)"
		 "\",bf16,full,tokens_per_sec_per_gpu,3000,tokens/s per GPU,yes",
		/* T9 */
		"T9,torchtitan benchmark,\"8x H100 SXM per node with NVSwitch, 8x 400 Gb/s InfiniBand"
		 " per node\",64,8,32,4096,32,8192,256,16,1,4,16,\"torchtitan; FSDP 16 x PP 4; 1F1B; l"
		 "ocal batch 16; pipeline_parallel_microbatches 16\",bf16,full,tokens_per_sec_per_gpu,"
		 "3000,tokens/s per GPU,yes",
		/* T10 */
		"T10,\"Some paper comparing Megatron-LM against torchtitan and DeepSpeed, Table 3 (Me"
		 "gatron-LM column)\",\"8x H100 SXM per node with NVSwitch, 8x 400 Gb/s InfiniBand per"
		 " node\",64,8,32,4096,32,4096,64,8,1,8,8,\"Megatron-LM baseline; TP1 PP8 DP8; 1F1B; m"
		 "bs 8, GBS 64\",bf16,full,tokens_per_sec_per_gpu,3000,tokens/s per GPU,yes",
		/* E1 */
		"E1,test,\"DGX H100 nodes, 8x H100 per node, 8x 400 Gb/s InfiniBand per node\",64,,,,"
		 ",4096,256,1,2,4,8,\"Megatron-Core; Mixtral 8x7B sparse-upcycled to 16 experts (each "
		 "expert a full copy of the FFN), top-2; EP8; --recompute-granularity full\",bf16,full"
		 ",MFU,40,%,yes",
		/* E2 */
		"E2,test,\"DGX H100 nodes, 8x H100 per node, 8x 400 Gb/s InfiniBand per node\",64,,,,"
		 ",4096,256,1,2,4,8,\"Megatron-Core; Mixtral 8x7B with 16 experts, top-2; EP8; fp8 wit"
		 "h fine-grained (block-wise) scaling\",bf16,full,MFU,40,%,yes",
		/* E3 */
		"E3,test,\"DGX H100 nodes, 8x H100 per node, 8x 400 Gb/s InfiniBand per node\",64,,,,"
		 ",4096,256,1,2,4,8,\"Megatron-Core; Mixtral 8x7B fine grained upcycled to 64 experts,"
		 " 8 active, each expert 1/8 of the FFN\",bf16,full,MFU,40,%,yes",
		/* E4 */
		"E4,test,\"DGX H100 nodes, 8x H100 per node, 8x 400 Gb/s InfiniBand per node\",64,,,,"
		 ",4096,256,1,2,4,8,\"Megatron-Core; Mixtral 8x7B finer-grained: 64 experts of 1/8 the"
		 " FFN width, 8 active\",bf16,full,MFU,40,%,yes",
		/* E5 */
		"E5,test,\"DGX H100 nodes, 8x H100 per node, 8x 400 Gb/s InfiniBand per node\",64,,,,"
		 ",4096,256,1,2,4,8,\"Megatron-Core; Mixtral-8x7B-G8T8 (64 experts, 8 active, each exp"
		 "ert 1/8 of the original FFN hidden size)\",bf16,full,MFU,40,%,yes",
		/* D3 */
		"D3,test,\"2 nodes x 8 NVIDIA A100-SXM4-80GB (HGX A100, DGX-compatible); InfiniBand 2"
		 "00 Gb/s per node\",16,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process p"
		 "er GPU\",float,,all_reduce busbw@1073741824,20,GB/s,yes",
		/* D4 */
		"D4,test,\"2 nodes x 8 NVIDIA H100 SXM (HGX H100 nodes built to the DGX SuperPOD refe"
		 "rence architecture); 400 Gb/s RoCE per node\",16,,,,,,,,,,,\"nccl-tests all_reduce_p"
		 "erf -b 8 -e 8G, 1 process per GPU\",float,,all_reduce busbw@1073741824,20,GB/s,yes",
		/* C2 */
		"C2,test,\"2 machines (client1, client2) x 2 GPUs: NVIDIA A100-SXM4-80GB; 1x ConnectX"
		 "-6 100G NIC per server\",4,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 proc"
		 "ess per GPU\",float,,all_reduce busbw@1073741824,20,GB/s,yes",
		/* C3 */
		"C3,test,\"2 Dell PowerEdge servers (client1, client2) x 2 GPUs: NVIDIA A100-SXM4-80G"
		 "B; 1x ConnectX-6 100G NIC per server\",4,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8"
		 " -e 8G, 1 process per GPU\",float,,all_reduce busbw@1073741824,20,GB/s,yes",
		/* C4 */
		"C4,test,\"2 nodes [gpu01, gpu02] x 2 GPUs: NVIDIA A100-SXM4-80GB; 1x ConnectX-6 100G"
		 " NIC per server\",4,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process per"
		 " GPU\",float,,all_reduce busbw@1073741824,20,GB/s,yes",
		/* C5 */
		"C5,test,\"cluster of 16 nodes (DGX A100); this run: 2 nodes (gpu01, gpu02) x 2 GPUs "
		 "NVIDIA A100-SXM4-80GB; 1x ConnectX-6 100G NIC per server\",4,,,,,,,,,,,\"nccl-tests "
		 "all_reduce_perf -b 8 -e 8G, 1 process per GPU\",float,,all_reduce busbw@1073741824,2"
		 "0,GB/s,yes",
		/* C6 */
		"C6,test,\"2 instances (i-1, i-2) x 2 GPUs: NVIDIA A100-SXM4-80GB; 1x ConnectX-6 100G"
		 " NIC per server\",4,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process per"
		 " GPU\",float,,all_reduce busbw@1073741824,20,GB/s,yes",
		/* C7 */
		"C7,test,\"2 hosts (h1 (rack A), h2) x 2 GPUs: NVIDIA A100-SXM4-80GB; 1x ConnectX-6 1"
		 "00G NIC per server\",4,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process "
		 "per GPU\",float,,all_reduce busbw@1073741824,20,GB/s,yes",
		/* N2 */
		"N2,test,\"1 node x 4 NVIDIA A100-SXM4-40GB (HPE Apollo 6500), each pair of GPUs join"
		 "ed by 4 NVLink 3.0 links\",4,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 pr"
		 "ocess per GPU\",float,,all_reduce busbw@1073741824,60,GB/s,yes",
		/* N3 */
		"N3,test,\"1 node x 4 NVIDIA A100-SXM4-40GB (HPE Apollo 6500), NVLink x4 between ever"
		 "y GPU pair (100 GB/s per pair per direction)\",4,,,,,,,,,,,\"nccl-tests all_reduce_p"
		 "erf -b 8 -e 8G, 1 process per GPU\",float,,all_reduce busbw@1073741824,60,GB/s,yes",
		/* S3 */
		"S3,test,\"Leonardo booster node: 2 of the node's 4 NVIDIA A100-SXM-64GB, 4x NVLink3 "
		 "between each pair, no NVSwitch\",2,,,,,,,,,,,\"nccl-tests sendrecv_perf, 1 process w"
		 "ith 2 threads\",float,,sendrecv busbw@134217728,73,GB/s,yes",
		/* H3 */
		"H3,test,\"1 node x 8 NVIDIA A100-SXM4-80GB (HGX A100 8-GPU) in a DGX SuperPOD, scala"
		 "ble unit SU-1 rack NV1\",8,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G -g 1, m"
		 "pirun -np 8 on host nv2-a100-07\",float,,all_reduce busbw@1073741824,230,GB/s,yes",
		/* S6 */
		"S6,test,\"Leonardo booster node: 2 of the node's 4 NVIDIA A100-SXM-64GB\",2,,,,,,,,,"
		 ",,\"nccl-tests sendrecv_perf, 1 process with 2 threads; nvidia-smi topo -m: GPU0 X N"
		 "V4 NV4 NV4; GPU1 NV4 X NV4 NV4\",float,,sendrecv busbw@134217728,73,GB/s,yes",
		/* V2 */
		"V2,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NV4 (NVLink gen 4) 900 GB/s b"
		 "idirectional\",8,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process per GP"
		 "U\",float,,all_reduce busbw@1073741824,480,GB/s,yes",
		/* K3 */
		"K3,test,\"2 nodes x 4 NVIDIA H100 SXM; HPE Slingshot 11; NIC count per node: 2\",8,,"
		 ",,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process per GPU\",float,,all_red"
		 "uce busbw@1073741824,20,GB/s,yes",
		/* K4 */
		"K4,test,\"2 nodes x 4 NVIDIA H100 SXM; HPE Slingshot 11; NICs per server: 2\",8,,,,,"
		 ",,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process per GPU\",float,,all_reduce"
		 " busbw@1073741824,20,GB/s,yes",
		/* K5 */
		"K5,test,\"2 nodes x 4 NVIDIA H100 SXM; HPE Slingshot 11; HCA per node: 2\",8,,,,,,,,"
		 ",,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process per GPU\",float,,all_reduce bu"
		 "sbw@1073741824,20,GB/s,yes",
		/* K8 */
		"K8,test,\"2 nodes x 4 NVIDIA H100 SXM; HPE Slingshot 11; NICs per node (HSN): 2\",8,"
		 ",,,,,,,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process per GPU\",float,,all_re"
		 "duce busbw@1073741824,20,GB/s,yes",
		/* K10 */
		"K10,test,\"2 nodes x 4 NVIDIA H100 SXM; HPE Slingshot 11; NICs per host: 2\",8,,,,,,"
		 ",,,,,\"nccl-tests all_reduce_perf -b 8 -e 8G, 1 process per GPU\",float,,all_reduce "
		 "busbw@1073741824,20,GB/s,yes",
};

/* Builds the row of the given id among rows[n] into c (0, or -1 with why). */
static int build_listed(const char *const *rows, size_t nrows, const char *id, val_case *c,
                        char *why, size_t n)
{
	size_t len = strlen(id);
	for (size_t i = 0; i < nrows; i++)
		if (!strncmp(rows[i], id, len) && rows[i][len] == ',')
			return build_row(rows[i], c, why, n);
	ck_abort_msg("no row %s", id);
	return -1;
}

static int build_review18(const char *id, val_case *c, char *why, size_t n)
{
	return build_listed(review18, sizeof review18 / sizeof review18[0], id, c, why, n);
}

START_TEST(t_blind18_review)
{
	val_case c;
	char why[256];
	/* a width said stays; "aggregated" is not "gated"; a plain MLP said by its activation */
	static const struct {
		const char *id;
		int ffn;
		bool gated;
	} mlp[] = {{"G1", 16384, true}, {"G5", 16384, false}, {"G9", 9216, false},
	           {"G10", 16384, false}};
	for (size_t i = 0; i < sizeof mlp / sizeof mlp[0]; i++) {
		ck_assert_msg(build_review18(mlp[i].id, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.model.ffn_hidden == mlp[i].ffn && c.s.model.gated_mlp == mlp[i].gated,
		              "%s: ffn %d gated %d", mlp[i].id, c.s.model.ffn_hidden,
		              c.s.model.gated_mlp);
		scn_release(&c.s);
	}
	/* a message's size said by the op or a tensor; not a group's, nor NCCL's buffer */
	static const char *const one_gib[] = {"M2", "M4", "M5", "M7", "M8"};
	for (size_t i = 0; i < sizeof one_gib / sizeof one_gib[0]; i++) {
		ck_assert_msg(build_review18(one_gib[i], &c, why, sizeof why) == 0, "%s: %s",
		              one_gib[i], why);
		ck_assert_msg(c.coll_bytes >= 1e9, "%s: %g bytes", one_gib[i], c.coll_bytes);
		scn_release(&c.s);
	}
	static const char *const not_size[] = {"M9", "M11"};
	for (size_t i = 0; i < 2; i++)
		if (build_review18(not_size[i], &c, why, sizeof why) == 0) {
			ck_assert_msg(c.coll_bytes >= 1e9, "%s: %g bytes", not_size[i], c.coll_bytes);
			scn_release(&c.s);
		}
	/* torchtitan's own knobs; its 2025 default; a Megatron row citing it */
	static const struct {
		const char *id;
		int mb;
	} titan[] = {{"T2", 2}, {"T3", 1}, {"T9", 1}, {"T10", 8}};
	for (size_t i = 0; i < sizeof titan / sizeof titan[0]; i++) {
		ck_assert_msg(build_review18(titan[i].id, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.training.micro_batch == titan[i].mb, "%s: mb %d", titan[i].id,
		              c.s.training.micro_batch);
		scn_release(&c.s);
	}
	/* experts split finer only where it is said of the experts */
	static const struct {
		const char *id;
		int width;
	} moe[] = {{"E1", 14336}, {"E2", 14336}, {"E3", 1792}, {"E4", 1792}, {"E5", 1792}};
	for (size_t i = 0; i < sizeof moe / sizeof moe[0]; i++) {
		ck_assert_msg(build_review18(moe[i].id, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.model.expert_ffn_hidden == moe[i].width, "%s: width %d", moe[i].id,
		              c.s.model.expert_ffn_hidden);
		scn_release(&c.s);
	}
	/* "DGX-compatible" and "the DGX SuperPOD reference architecture" are no DGX:
	 * their per-node rate stays the node's */
	static const char *const hgx[] = {"D3", "D4"};
	for (size_t i = 0; i < 2; i++) {
		ck_assert_msg(build_review18(hgx[i], &c, why, sizeof why) == 0, "%s", why);
		const hw_nic *nic = &c.s.cluster.nic;
		ck_assert_msg(nic->count * nic->speed_Bps * 8 <= 400e9 + 1, "%s: %d x %g", hgx[i],
		              nic->count, nic->speed_Bps);
		scn_release(&c.s);
	}
	/* machines, instances, a vendor's name, brackets, nested brackets, a
	 * cluster's description before the run's own list */
	static const char *const hosts[] = {"C2", "C3", "C4", "C5", "C6", "C7"};
	for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
		ck_assert_msg(build_review18(hosts[i], &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.cluster.nodes == 2 && c.s.cluster.gpus_per_node == 2, "%s: %d x %d",
		              hosts[i], c.s.cluster.nodes, c.s.cluster.gpus_per_node);
		scn_release(&c.s);
	}
	/* NVLinks a pair in words or in a pasted matrix; no mesh from a generation
	 * or a rack's label */
	static const struct {
		const char *id;
		hw_intra_kind kind;
	} nv[] = {{"N2", INTRA_NVLINK_MESH}, {"N3", INTRA_NVLINK_MESH}, {"S3", INTRA_NVLINK_MESH},
	          {"S6", INTRA_NVLINK_MESH}, {"H3", INTRA_NVSWITCH}, {"V2", INTRA_NVSWITCH}};
	for (size_t i = 0; i < sizeof nv / sizeof nv[0]; i++) {
		ck_assert_msg(build_review18(nv[i].id, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.cluster.intra.kind == nv[i].kind, "%s: kind %d", nv[i].id,
		              c.s.cluster.intra.kind);
		scn_release(&c.s);
	}
	/* a NIC count as a form's field, in its other spellings */
	static const char *const field[] = {"K3", "K4", "K5", "K8", "K10"};
	for (size_t i = 0; i < sizeof field / sizeof field[0]; i++) {
		ck_assert_msg(build_review18(field[i], &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.cluster.nic.count == 2, "%s: %d NICs", field[i],
		              c.s.cluster.nic.count);
		scn_release(&c.s);
	}
}
END_TEST

/* The second review of the day's readings: what the first review's fixes
 * over-read or missed. */
static const char *const review18b[] = {
		/* P1 */
		"P1,test,\"2 machines [h1, h2] x 2 GPUs: NVIDIA A100-SXM4-80GB; 2x 200 Gb/s HDR Infin"
		 "iBand NICs per server\",4,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 1G -e 1G, 1 proc"
		 "ess per GPU\",float,,all_reduce busbw,400,GB/s,yes-primary",
		/* P3 */
		"P3,test,\"2 servers (a, b) x 4 GPUs: NVIDIA A100-SXM4-80GB; 4x 200 Gb/s HDR InfiniBa"
		 "nd NICs per server\",8,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 1G -e 1G, 1 process"
		 " per GPU\",float,,all_reduce busbw,400,GB/s,yes-primary",
		/* Z1 */
		"Z1,test,\"4 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",32,8,32,4096,32,8192,64,8,1,4,8,torchtitan (Sept 2024); FSDP8 with pipeline pa"
		 "rallelism. 1F1B; local batch 8,bf16,full,tokens_per_sec_per_gpu,1000,tokens/s per GP"
		 "U,yes-primary",
		/* Z5 */
		"Z5,test,\"4 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",32,8,32,4096,32,8192,64,8,1,4,8,torchtitan; PP4 FSDP8; 1F1B; local batch 8; ea"
		 "ch rank's stage split into 2 virtual stages,bf16,full,tokens_per_sec_per_gpu,1000,to"
		 "kens/s per GPU,yes-primary",
		/* W1 */
		"W1,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,8,32,4096,32,8192,64,8,1,8,8,torchtitan; PP8 FSDP8; 1F1B; each layer split "
		 "into 2 virtual stages; local batch 8,bf16,full,tokens_per_sec_per_gpu,1000,tokens/s "
		 "per GPU,yes-primary",
		/* W2 */
		"W2,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,8,32,4096,32,8192,64,8,1,8,8,torchtitan; PP8 FSDP8; 1F1B; the 8192-token se"
		 "quence split into 2 chunks for CP; local batch 8,bf16,full,tokens_per_sec_per_gpu,10"
		 "00,tokens/s per GPU,yes-primary",
		/* Q1 */
		"Q1,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,torch."
		 "distributed all_reduce benchmark; communicator size 16; message 1 GiB,float,,all_red"
		 "uce busbw,400,GB/s,yes-primary",
		/* Q2 */
		"Q2,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,torch."
		 "distributed all_reduce; NCCL_BUFFSIZE=4194304; message 1 GiB,float,,all_reduce busbw"
		 ",400,GB/s,yes-primary",
		/* Q3 */
		"Q3,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"nccl"
		 "-tests all_reduce_perf, min size 8 bytes, max size 8 GB, peak busbw\",float,,all_red"
		 "uce busbw,400,GB/s,yes-primary",
		/* Q4 */
		"Q4,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,all_re"
		 "duce benchmark; FI_EFA_TX_SIZE=2048; tensor 1 GiB,float,,all_reduce busbw,400,GB/s,y"
		 "es-primary",
		/* Q5 */
		"Q5,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"all_"
		 "reduce benchmark over RoCE, MTU size 4096; 1 GiB tensor\",float,,all_reduce busbw,40"
		 "0,GB/s,yes-primary",
		/* Q7 */
		"Q7,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,all_re"
		 "duce; GPU memory size 80 GB; 1 GiB messages,float,,all_reduce busbw,400,GB/s,yes-pri"
		 "mary",
		/* Q13 */
		"Q13,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,all_r"
		 "educe; world_size=8; msg size 1 GiB,float,,all_reduce busbw,400,GB/s,yes-primary",
		/* Q23 */
		"Q23,test,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100, NVSwitch)\",8,,,,,,,,,,,\"all"
		 "reduce_perf, max bytes 8G, minimum size 1M\",float,,all_reduce busbw,400,GB/s,yes-pr"
		 "imary",
		/* F1 */
		"F1,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B upcycled to 16 experts, top-2"
		 "; EP8; finer-grained recomputation\",bf16,full,MFU,1000,tokens/s per GPU,yes-primary",
		/* F2 */
		"F2,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B upcycled to 64 experts (1/8 o"
		 "f the nodes had ECC errors), top-2; EP8\",bf16,full,MFU,1000,tokens/s per GPU,yes-pr"
		 "imary",
		/* F3 */
		"F3,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B upcycled to 16 experts, top-2"
		 "; EP8; fine-grained expert parallelism (experts placed one per GPU)\",bf16,full,MFU,"
		 "1000,tokens/s per GPU,yes-primary",
		/* F4 */
		"F4,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B upcycled to 16 experts, top-2"
		 "; EP8; fine-grained MoE dispatcher overlap\",bf16,full,MFU,1000,tokens/s per GPU,yes"
		 "-primary",
		/* F5 */
		"F5,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B with 64 fine-grained experts,"
		 " top-8; EP8\",bf16,full,MFU,1000,tokens/s per GPU,yes-primary",
		/* F6 */
		"F6,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B, granularity 8 (64 experts, t"
		 "op-8); EP8\",bf16,full,MFU,1000,tokens/s per GPU,yes-primary",
		/* F9 */
		"F9,test,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100), 8x 400 Gb/s InfiniBand per n"
		 "ode\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B with 64 experts, top-8 (fine-"
		 "grained, G=8); EP8\",bf16,full,MFU,1000,tokens/s per GPU,yes-primary",
		/* Y3 */
		"Y3,test,\"2 nodes x 8 NVIDIA H100 SXM (DGX H100); InfiniBand 400 Gb/s inter-node, al"
		 "l ConnectX-7 ports cabled\",16,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 1G -e 1G, 1"
		 " process per GPU\",float,,all_reduce busbw,400,GB/s,yes-primary",
		/* Y4 */
		"Y4,test,2 nodes x 8 NVIDIA H100 SXM (DGX H100); InfiniBand 400 Gb/s inter-node; only"
		 " one job ran,16,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 1G -e 1G, 1 process per GP"
		 "U\",float,,all_reduce busbw,400,GB/s,yes-primary",
		/* Y10 */
		"Y10,test,2 nodes x 8 NVIDIA H100 SXM (DGX SuperPOD H100); InfiniBand 400 Gb/s inter-"
		 "node,16,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 1G -e 1G, 1 process per GPU\",floa"
		 "t,,all_reduce busbw,400,GB/s,yes-primary",
		/* G21 */
		"G21,test,1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100),8,6.7,32,4096,32,4096,64,1,1,1,"
		 "8,Megatron-LM; not gated; ffn 16384,bf16,full,tokens_per_sec_per_gpu,1000,tokens/s p"
		 "er GPU,yes-primary",
		/* G23 */
		"G23,test,1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100),8,6.7,32,4096,32,4096,64,1,1,1,"
		 "8,Megatron-LM; MLP: gated=False; ffn 16384,bf16,full,tokens_per_sec_per_gpu,1000,tok"
		 "ens/s per GPU,yes-primary",
		/* G25 */
		"G25,test,1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100),8,6.7,32,4096,32,4096,64,1,1,1,"
		 "8,Megatron-LM; no gated MLP; ffn 16384,bf16,full,tokens_per_sec_per_gpu,1000,tokens/"
		 "s per GPU,yes-primary",
		/* G26 */
		"G26,test,1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100),8,6.7,32,4096,32,4096,64,1,1,1,"
		 "8,Megatron-LM; ffn 16384; gated linear units disabled,bf16,full,tokens_per_sec_per_g"
		 "pu,1000,tokens/s per GPU,yes-primary",
		/* G4 */
		"G4,test,1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100),8,6.7,32,4096,32,4096,64,1,1,1,8"
		 ",Megatron-LM; SwiGLU; ffn 11008; no squared-ReLU,bf16,full,tokens_per_sec_per_gpu,10"
		 "00,tokens/s per GPU,yes-primary",
		/* G10 */
		"G10,test,1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100),8,6.7,32,4096,32,4096,64,1,1,1,"
		 "8,custom; ReLU2 was tried but the run uses SwiGLU; ffn 11008,bf16,full,tokens_per_se"
		 "c_per_gpu,1000,tokens/s per GPU,yes-primary",
		/* H5 */
		"H5,test,\"NVIDIA A100-SXM4-80GB (HGX A100 8-GPU, NVSwitch); 1x 100 Gb/s InfiniBand p"
		 "er server\",4,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 1G -e 1G; 2 nodes (gpu01, gp"
		 "u02) x 2 GPUs; spare nodes (gpu03) x 8 idle\",float,,all_reduce busbw,400,GB/s,yes-p"
		 "rimary",
		/* K5 */
		"K5,test,2 nodes x 4 NVIDIA H100 SXM; HPE Slingshot 11; management NICs per node: 1; "
		 "HSN NICs per node: 4,8,,,,,,,,,,,\"nccl-tests all_reduce_perf -b 1G -e 1G, 1 process"
		 " per GPU\",float,,all_reduce busbw,400,GB/s,yes-primary",
		/* R1 */
		"R1,test,1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100),8,8,32,4096,32,4096,64,1,1,1,8,M"
		 "egatron-LM; ffn 99999999999,bf16,full,tokens_per_sec_per_gpu,1000,tokens/s per GPU,y"
		 "es-primary",
};

static int build_review18b(const char *id, val_case *c, char *why, size_t n)
{
	return build_listed(review18b, sizeof review18b / sizeof review18b[0], id, c, why, n);
}

START_TEST(t_blind18_review2)
{
	val_case c;
	char why[256];
	/* a host list's GPUs are each machine's: the NICs it states stay whole */
	static const struct {
		const char *id;
		int nics;
	} hosts[] = {{"P1", 2}, {"P3", 4}};
	for (size_t i = 0; i < 2; i++) {
		ck_assert_msg(build_review18b(hosts[i].id, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.cluster.nic.count == hosts[i].nics, "%s: %d NICs", hosts[i].id,
		              c.s.cluster.nic.count);
		scn_release(&c.s);
	}
	/* of two lists, the one whose product is the gpus cell's */
	ck_assert_msg(build_review18b("H5", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	scn_release(&c.s);
	/* "pipeline parallelism." ends a sentence; "split into 2 virtual stages"
	 * is no micro-batch count */
	static const struct {
		const char *id;
		int mb;
	} titan[] = {{"Z1", 2}, {"Z5", 2}, {"W1", 1}, {"W2", 1}};
	for (size_t i = 0; i < sizeof titan / sizeof titan[0]; i++) {
		ck_assert_msg(build_review18b(titan[i].id, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.training.micro_batch == titan[i].mb, "%s: mb %d", titan[i].id,
		              c.s.training.micro_batch);
		scn_release(&c.s);
	}
	/* a communicator's, NCCL_BUFFSIZE's, a sweep's minimum, an MTU, an
	 * environment variable's, a GPU memory's size: no message size */
	static const char *const no_size[] = {"Q1", "Q2", "Q3", "Q4", "Q5", "Q7", "Q23"};
	for (size_t i = 0; i < sizeof no_size / sizeof no_size[0]; i++)
		if (build_review18b(no_size[i], &c, why, sizeof why) == 0) {
			ck_assert_msg(c.coll_bytes >= 1e9, "%s: %g bytes", no_size[i], c.coll_bytes);
			scn_release(&c.s);
		}
	ck_assert_msg(build_review18b("Q13", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_msg(c.coll_bytes >= 1e9, "Q13: %g bytes", c.coll_bytes);
	scn_release(&c.s);
	/* experts split finer only when said of the experts */
	static const struct {
		const char *id;
		int experts, width;
	} moe[] = {{"F1", 16, 14336}, {"F2", 64, 14336}, {"F3", 16, 14336}, {"F4", 16, 14336},
	           {"F5", 64, 1792}, {"F6", 64, 1792}, {"F9", 64, 1792}};
	for (size_t i = 0; i < sizeof moe / sizeof moe[0]; i++) {
		ck_assert_msg(build_review18b(moe[i].id, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.model.experts == moe[i].experts &&
		              c.s.model.expert_ffn_hidden == moe[i].width, "%s: %d x %d", moe[i].id,
		              c.s.model.experts, c.s.model.expert_ffn_hidden);
		scn_release(&c.s);
	}
	/* "all ConnectX-7 ports cabled", "only one job ran", "DGX SuperPOD H100" */
	static const char *const dgx[] = {"Y3", "Y4", "Y10"};
	for (size_t i = 0; i < 3; i++) {
		ck_assert_msg(build_review18b(dgx[i], &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.cluster.nic.count == 8 && c.s.cluster.nic.speed_Bps == 50e9,
		              "%s: %d x %g", dgx[i], c.s.cluster.nic.count, c.s.cluster.nic.speed_Bps);
		scn_release(&c.s);
	}
	/* negated gating is plain; a named SwiGLU beats a plain unit mentioned */
	static const struct {
		const char *id;
		bool gated;
	} mlp[] = {{"G21", false}, {"G23", false}, {"G25", false}, {"G26", false}, {"G4", true},
	           {"G10", true}};
	for (size_t i = 0; i < sizeof mlp / sizeof mlp[0]; i++) {
		ck_assert_msg(build_review18b(mlp[i].id, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.model.gated_mlp == mlp[i].gated, "%s: gated %d", mlp[i].id,
		              c.s.model.gated_mlp);
		scn_release(&c.s);
	}
	/* the high-speed network's NICs, not the management network's */
	ck_assert_msg(build_review18b("K5", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nic.count, 4);
	scn_release(&c.s);
	/* a width beyond any scenario is refused, not wrapped and simulated */
	ck_assert_int_eq(build_review18b("R1", &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "10,000,000"));
}
END_TEST

/* Batch 19's readings: the GPUs a node said as used ("1 GPU used per node")
 * and a word between a node count and its noun ("2 GKE nodes"). */
START_TEST(t_blind19)
{
	size_t n;
	val_row *r = validation_rows("blind19-nccl.csv", &n);
	val_case c;
	char why[256];
	ck_assert_msg(val_build(row_of(r, n, "DRANETH200-19-004"), &c, why, sizeof why) == 0, "%s",
	              why);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 1);
	scn_release(&c.s);
	free(r);
	/* the word is taken only where the gpus cell checks the product */
	ck_assert_msg(build_row("W-001,x,\"4 HGX nodes (H100 SXM), 8 GPUs per node\",32,,,,,,,,,,,,,,"
	                        "allreduce_busbw@1G,10,GB/s,x", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nodes, 4);
	scn_release(&c.s);
	ck_assert_msg(build_row("W-002,x,\"8x H100 SXM; one of 4 GKE nodes\",8,,,,,,,,,,,,,,"
	                        "allreduce_busbw@1G,10,GB/s,x", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nodes, 1);
	scn_release(&c.s);
}
END_TEST

/* Batch 20's readings: one NIC said in words on a machine that has more, a
 * count of cloud instances, a sweep's peak, nvidia-smi's name of the H100
 * SXM, PCIe named as an unknown, a vocabulary said before its word. */
START_TEST(t_blind20)
{
	size_t n;
	val_row *r = validation_rows("blind20-nccl.csv", &n);
	val_case c;
	char why[256];
	/* a3-highgpu-8g "over the single host gVNIC eth0 only" */
	ck_assert_msg(val_build(row_of(r, n, "HCDD20-005"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nic.count, 1);
	scn_release(&c.s);
	/* "4 x AWS p3dn.24xlarge" */
	ck_assert_msg(val_build(row_of(r, n, "P3DN20-003"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nodes, 4);
	scn_release(&c.s);
	/* "allreduce_busbw_peak_1M-8G": at the sweep's top */
	ck_assert_msg(val_build(row_of(r, n, "TOGR20-013"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_double_eq(c.coll_bytes, 8.0 * 1073741824.0);
	scn_release(&c.s);
	free(r);
	r = validation_rows("blind20-runs.csv", &n);
	/* "NVIDIA H100 80GB HBM3"; "NVLink/PCIe form ... not stated" is no PCIe card */
	static const char *const sxm[] = {"DPCT20-001", "DPCT20-005"};
	for (size_t i = 0; i < 2; i++) {
		ck_assert_msg(val_build(row_of(r, n, sxm[i]), &c, why, sizeof why) == 0, "%s", why);
		ck_assert_str_eq(c.s.cluster.gpu.name, "H100-SXM5-80GB");
		ck_assert_int_ne(c.s.cluster.intra.kind, INTRA_PCIE);
		scn_release(&c.s);
	}
	free(r);
	/* a vocabulary said before its word, in the row's own notes (not the
	 * source's, which may quote another model's) */
	ck_assert_msg(build_row("V-001,x,1 node x 8 H100 SXM,8,1.2,16,2048,32,8192,16,2,1,1,8,"
	                        "\"torchtitan, a 32,768-token vocab\",bf16,,"
	                        "tokens_per_sec_per_gpu,1000,tokens/s per GPU,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.vocab, 32768);
	scn_release(&c.s);
	ck_assert_msg(build_row("V-002,x,1 node x 8 H100 SXM,8,1.2,16,2048,32,8192,16,2,1,1,8,"
	                        "\"torchtitan, 4,096-token vocab-parallel chunks\",bf16,,"
	                        "tokens_per_sec_per_gpu,1000,tokens/s per GPU,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_ne(c.s.model.vocab, 4096);
	scn_release(&c.s);
}
END_TEST

/* The third review of the day's readings (batch 20's and the second
 * review's fixes). */
static const char *const review20[] = {
		/* Nic2_P2 */
		"Nic2_P2,nccl-tests all_reduce_perf,\"2 x NVIDIA DGX H100 (8x H100 SXM5 each); 8x sin"
		 "gle-port NVIDIA ConnectX-7 VPI, up to 400 Gb/s InfiniBand\",16,,,,,,,,,,,,float,,all"
		 "_reduce busbw@1GiB,100,GB/s,yes-primary",
		/* Nic2_P8 */
		"Nic2_P8,nccl-tests all_reduce_perf,2 nodes x 8 NVIDIA H100 SXM5 80GB; InfiniBand NDR"
		 " 400 Gb/s; only one port of each dual-port adapter is cabled,16,,,,,,,,,,,,float,,al"
		 "l_reduce busbw@1GiB,100,GB/s,yes-primary",
		/* Nic2_P9 */
		"Nic2_P9,nccl-tests all_reduce_perf,2 nodes x 8 NVIDIA H100 SXM5 80GB; InfiniBand NDR"
		 " 400 Gb/s; single interface name per HCA (ib0-ib7),16,,,,,,,,,,,,float,,all_reduce b"
		 "usbw@1GiB,100,GB/s,yes-primary",
		/* Nic2_P13 */
		"Nic2_P13,nccl-tests all_reduce_perf,2 nodes x 8 NVIDIA H100 SXM5 80GB; only a single"
		 " InfiniBand NDR 400 Gb/s NIC in each node,16,,,,,,,,,,,,float,,all_reduce busbw@1GiB"
		 ",100,GB/s,yes-primary",
		/* Nic_N1 */
		"Nic_N1,nccl-tests all_reduce_perf,2 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100); Infi"
		 "niBand NDR 400 Gb/s; both nodes on a single 64-port Quantum-2 switch,16,,,,,,,,,,,,f"
		 "loat,,all_reduce busbw@1GiB,100,GB/s,yes-primary",
		/* Nic_N2 */
		"Nic_N2,nccl-tests all_reduce_perf,2 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100); NVID"
		 "IA ConnectX-7 single-port 400 Gb/s InfiniBand adapters,16,,,,,,,,,,,,float,,all_redu"
		 "ce busbw@1GiB,100,GB/s,yes-primary",
		/* Nic_N14 */
		"Nic_N14,nccl-tests all_reduce_perf,\"2 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100); I"
		 "nfiniBand NDR 400 Gb/s rail-optimized, single port per adapter\",16,,,,,,,,,,,,float"
		 ",,all_reduce busbw@1GiB,100,GB/s,yes-primary",
		/* Nic_N16 */
		"Nic_N16,nccl-tests all_reduce_perf,\"2 nodes x 8 NVIDIA H100 SXM5 80GB (HGX H100); R"
		 "oCE 400 Gb/s, single-port BlueField-3 SuperNICs\",16,,,,,,,,,,,,float,,all_reduce bu"
		 "sbw@1GiB,100,GB/s,yes-primary",
		/* Nic3_Q2 */
		"Nic3_Q2,nccl-tests all_reduce_perf,2 nodes x 8 NVIDIA A100-SXM4-80GB; InfiniBand HDR"
		 " 200 Gb/s; a single HDR InfiniBand HCA per node,16,,,,,,,,,,,,float,,all_reduce busb"
		 "w@1GiB,20,GB/s,yes-primary",
		/* Nic3_Q3 */
		"Nic3_Q3,nccl-tests all_reduce_perf,2 nodes x 8 NVIDIA A100-SXM4-80GB; InfiniBand HDR"
		 " 200 Gb/s; a single NIC per node; 80 GB HBM2e per GPU,16,,,,,,,,,,,,float,,all_reduc"
		 "e busbw@1GiB,20,GB/s,yes-primary",
		/* Goo_G2 */
		"Goo_G2,nccl-tests all_reduce_perf,\"2 x GCP a3-ultragpu-8g (8x H200 141GB each); RoC"
		 "E, 8 ConnectX-7 GPU NICs; the single Titanium gVNIC for host traffic\",16,,,,,,,,,,,"
		 ",float,,all_reduce busbw@1GiB,100,GB/s,yes-primary",
		/* Goo_G4 */
		"Goo_G4,nccl-tests all_reduce_perf,\"2 x GCP a3-megagpu-8g (8x H100 80GB each); GPUDi"
		 "rect-TCPXO; single-zone compact placement, single NIC per GPU\",16,,,,,,,,,,,,float,"
		 ",all_reduce busbw@1GiB,40,GB/s,yes-primary",
		/* Peak_K1 */
		"Peak_K1,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NV"
		 "Link4/NVSwitch\",8,,,,,,,,,,,,float,,all_reduce busbw peak (NCCL 2.21.5-1),450,GB/s,"
		 "yes-primary",
		/* Peak_K2 */
		"Peak_K2,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NV"
		 "Link4/NVSwitch\",8,,,,,,,,,,,,float,,all_reduce busbw peak over 1-8 nodes,450,GB/s,y"
		 "es-primary",
		/* Peak_K4 */
		"Peak_K4,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NV"
		 "Link4/NVSwitch\",8,,,,,,,,,,,,float,,allreduce_busbw_1M-8G_peak,450,GB/s,yes-primary",
		/* Peak_K5 */
		"Peak_K5,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NV"
		 "Link4/NVSwitch\",8,,,,,,,,,,,,float,,all_reduce busbw peak 1MB to 8GB,450,GB/s,yes-p"
		 "rimary",
		/* Peak_K6 */
		"Peak_K6,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NV"
		 "Link4/NVSwitch\",8,,,,,,,,,,,,float,,all_reduce busbw peak (2-8 GPUs),450,GB/s,yes-p"
		 "rimary",
		/* Peak_K12 */
		"Peak_K12,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), N"
		 "VLink4/NVSwitch\",8,,,,,,,,,,,,float,,all_reduce busbw peak 2025-03-05 run,450,GB/s,"
		 "yes-primary",
		/* Gpu_U1 */
		"Gpu_U1,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 80GB HBM3 PCIe cards, no "
		 "NVLink\",8,,,,,,,,,,,,float,,all_reduce busbw@1GiB,40,GB/s,yes-primary",
		/* Gpu_U2 */
		"Gpu_U2,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 PCIe (nvidia-smi: NVIDIA "
		 "H100 80GB HBM3), no NVLink bridges\",8,,,,,,,,,,,,float,,all_reduce busbw@1GiB,40,GB"
		 "/s,yes-primary",
		/* Gpu_U4 */
		"Gpu_U4,nccl-tests all_reduce_perf,1 node x 8 NVIDIA A100 80GB PCIe/NVLink-bridged pa"
		 "irs,8,,,,,,,,,,,,float,,all_reduce busbw@1GiB,40,GB/s,yes-primary",
		/* Moe_F1 */
		"Moe_F1,test source,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (DGX H100), 8x 400 Gb/s NDR I"
		 "nfiniBand per node\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B upcycled to 64"
		 " experts (full copies), top-2; EP8, each rank holds 1/8 of the experts (full-width F"
		 "FN)\",bf16,,tokens_per_s_per_gpu,3000,tokens/s/GPU,yes-primary",
		/* Moe_F2 */
		"Moe_F2,test source,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (DGX H100), 8x 400 Gb/s NDR I"
		 "nfiniBand per node\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B upcycled to 16"
		 " experts (full copies), top-2; EP8; fine-grained expert dispatch\",bf16,,tokens_per_"
		 "s_per_gpu,3000,tokens/s/GPU,yes-primary",
		/* Moe_F3 */
		"Moe_F3,test source,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (DGX H100), 8x 400 Gb/s NDR I"
		 "nfiniBand per node\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B upcycled to 16"
		 " experts (full copies), top-2; EP8; fine-grained expert placement across nodes\",bf1"
		 "6,,tokens_per_s_per_gpu,3000,tokens/s/GPU,yes-primary",
		/* Moe_F4 */
		"Moe_F4,test source,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (DGX H100), 8x 400 Gb/s NDR I"
		 "nfiniBand per node\",64,47,32,4096,32,4096,256,1,2,4,8,\"fp8 with fine-grained 1x128"
		 " tile scaling; Mixtral 8x7B upcycled to 16 experts (full copies), top-2; EP8\",bf16,"
		 ",tokens_per_s_per_gpu,3000,tokens/s/GPU,yes-primary",
		/* Moe_F5 */
		"Moe_F5,test source,\"8 nodes x 8 NVIDIA H100 SXM5 80GB (DGX H100), 8x 400 Gb/s NDR I"
		 "nfiniBand per node\",64,47,32,4096,32,4096,256,1,2,4,8,\"Mixtral 8x7B upcycled to 16"
		 " experts (full copies), top-2; EP8; fine-grained expert-level load balancing\",bf16,"
		 ",tokens_per_s_per_gpu,3000,tokens/s/GPU,yes-primary",
		/* Voc_V12 */
		"Voc_V12,Blog post,\"1 node x 8 NVIDIA H100 SXM5 80GB, NVSwitch\",8,8,32,4096,32,8192"
		 ",64,1,1,1,8,\"Llama 3 8B; FSDP; 4,096-token vocab-parallel chunks in the loss\",bf16"
		 ",,tokens_per_s_per_gpu,9000,tokens/s/GPU,yes-primary",
		/* Gate_A1 */
		"Gate_A1,test source,\"1 node x 8 NVIDIA H100 SXM5 80GB, NVSwitch\",8,3,30,3072,24,40"
		 "96,64,1,1,1,8,StarCoder2-3B (gated HF repo); FSDP,bf16,,tokens_per_s_per_gpu,9000,to"
		 "kens/s/GPU,yes-primary",
		/* Gate_A2 */
		"Gate_A2,test source,\"1 node x 8 NVIDIA H100 SXM5 80GB, NVSwitch\",8,3,30,3072,24,40"
		 "96,64,1,1,1,8,custom 3B; GeLU MLP (a SwiGLU variant was slower); ffn 12288,bf16,,tok"
		 "ens_per_s_per_gpu,9000,tokens/s/GPU,yes-primary",
		/* Gate_A4 */
		"Gate_A4,test source,\"1 node x 8 NVIDIA H100 SXM5 80GB, NVSwitch\",8,3,30,3072,24,40"
		 "96,64,1,1,1,8,custom 3B; ffn 12288; gated-attention (output gate),bf16,,tokens_per_s"
		 "_per_gpu,9000,tokens/s/GPU,yes-primary",
		/* Gate_A8 */
		"Gate_A8,test source,\"1 node x 8 NVIDIA H100 SXM5 80GB, NVSwitch\",8,3,30,3072,24,40"
		 "96,64,1,1,1,8,custom 3B; ffn 12288; gated_mlp=false,bf16,,tokens_per_s_per_gpu,9000,"
		 "tokens/s/GPU,yes-primary",
		/* Gate2_B1 */
		"Gate2_B1,test source,\"1 node x 8 NVIDIA H100 SXM5 80GB, NVSwitch\",8,3,30,3072,24,4"
		 "096,64,1,1,1,8,custom 3B; ffn 12288; gated_linear_unit: False,bf16,,tokens_per_s_per"
		 "_gpu,9000,tokens/s/GPU,yes-primary",
		/* Ms_M1 */
		"Ms_M1,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NVLi"
		 "nk4/NVSwitch\",8,,,,,,,,,,,\"RoCE v2, packet size 4096; message 1 GiB\",float,,all_r"
		 "educe busbw,450,GB/s,yes-primary",
		/* Ms_M2 */
		"Ms_M2,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NVLi"
		 "nk4/NVSwitch\",8,,,,,,,,,,,jumbo frames (frame size 9000); 1 GiB tensor,float,,all_r"
		 "educe busbw,450,GB/s,yes-primary",
		/* Ms_M3 */
		"Ms_M3,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NVLi"
		 "nk4/NVSwitch\",8,,,,,,,,,,,TCP segment size 8948; 1 GiB tensor,float,,all_reduce bus"
		 "bw,450,GB/s,yes-primary",
		/* Ms_M4 */
		"Ms_M4,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NVLi"
		 "nk4/NVSwitch\",8,,,,,,,,,,,checkpoint size 16 GB; all-reduce of 1 GiB,float,,all_red"
		 "uce busbw,450,GB/s,yes-primary",
		/* Ms_M5 */
		"Ms_M5,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NVLi"
		 "nk4/NVSwitch\",8,,,,,,,,,,,MSG_SIZE=1073741824,float,,all_reduce busbw,450,GB/s,yes-"
		 "primary",
		/* Ms_M6 */
		"Ms_M6,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NVLi"
		 "nk4/NVSwitch\",8,,,,,,,,,,,msgsize=1073741824,float,,all_reduce busbw,450,GB/s,yes-p"
		 "rimary",
		/* Ms_M8 */
		"Ms_M8,nccl-tests all_reduce_perf,\"1 node x 8 NVIDIA H100 SXM5 80GB (HGX H100), NVLi"
		 "nk4/NVSwitch\",8,,,,,,,,,,,stripe size 1048576; message 1 GiB,float,,all_reduce busb"
		 "w,450,GB/s,yes-primary",
		/* Cloud_C15 */
		"Cloud_C15,nccl-tests all_reduce_perf,\"2 x AWS p5.48xlarge (8x H100 80GB each), 32x "
		 "100 Gbps EFA\",8,,,,,,,,,,,,float,,all_reduce busbw@1GiB,10,GB/s,yes-primary",
};

static int build_review20(const char *id, val_case *c, char *why, size_t n)
{
	return build_listed(review20, sizeof review20 / sizeof review20[0], id, c, why, n);
}

/* Readings the twenty-first blind batch showed (docs/validation.md). */
START_TEST(t_blind21)
{
	size_t n;
	val_row *r = validation_rows("blind21-nccl.csv", &n);
	val_case c;
	char why[256];
	double p2, p8;
	/* FlagPerf's figure "as published = 2 x busbw"; not "96.62 = 2 x busbw" */
	ck_assert_msg(val_build(row_of(r, n, "QFLAGA121-001"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_double_eq_tol(c.published_si, 464.65e9 / 2, 1e3);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "QFLAGA121-003"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_double_eq_tol(c.published_si, 48.31e9, 1e3);
	scn_release(&c.s);
	/* 2 of an MI300X platform's 8 GPUs share one Infinity Fabric link of 7:
	 * a seventh of the 8-GPU all_reduce's bus bandwidth */
	ck_assert_msg(val_build(row_of(r, n, "QMLEMI321-001"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(val_predict(&c, NULL, &p2, why, sizeof why), 0);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "QMLEMI321-002"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(val_predict(&c, NULL, &p8, why, sizeof why), 0);
	scn_release(&c.s);
	ck_assert_msg(p2 < 0.2 * p8 && p2 > 0.1 * p8, "2 GPUs %g, 8 GPUs %g B/s", p2, p8);
	free(r);
	r = validation_rows("blind21-runs.csv", &n);
	/* NeMo's LoRA rows: read as LoRA (rank not given: the default 16) */
	ck_assert_msg(val_build(row_of(r, n, "WNMFTA21-004"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.peft, PEFT_LORA);
	ck_assert_int_eq(c.s.training.lora_rank, 16);
	scn_release(&c.s);
	ck_assert_msg(val_build(row_of(r, n, "WNMFTA21-001"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.peft, PEFT_NONE);   /* "SFT full-parameter" */
	scn_release(&c.s);
	/* "sp=8 (XTuner sequence parallel, Ulysses-style)" on 8 GPUs: CP 8 */
	ck_assert_msg(val_build(row_of(r, n, "WXTSP21-003"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.cp, 8);
	scn_release(&c.s);
	/* ColossalAI Gemini "placement=cpu" / "auto" / "const": parameters in
	 * host memory, not modelled */
	static const char *const host[] = {"YCAIGEM21-001", "YCAIGEM21-004", "YCAIGEM21-006"};
	for (size_t i = 0; i < 3; i++) {
		ck_assert_int_lt(val_build(row_of(r, n, host[i]), &c, why, sizeof why), 0);
		ck_assert_ptr_nonnull(strstr(why, "offload"));
	}
	free(r);
	/* placement "cuda" keeps them on the GPU; SP with a size but no Ulysses
	 * is not a CP degree */
	ck_assert_msg(build_row("G-001,x,1 node x 8 A100 80GB SXM,8,10,50,4096,16,1024,64,8,1,1,8,"
	                        "\"Gemini ZeRO-DDP placement=cuda; SP=2\",fp16,,tflops_per_gpu,100,"
	                        "TFLOP/s per GPU,x", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.cp, 1);
	scn_release(&c.s);
	/* a LoRA rank said; QLoRA's 4-bit base weights are not modelled */
	ck_assert_msg(build_row("L-001,x,1 node x 8 H100 SXM,8,7,32,4096,32,4096,32,1,1,1,8,"
	                        "\"LoRA, lora_rank=8\",bf16,,tokens_per_s_per_gpu,1000,"
	                        "tokens/s per GPU,x", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.peft, PEFT_LORA);
	ck_assert_int_eq(c.s.training.lora_rank, 8);
	scn_release(&c.s);
	ck_assert_int_lt(build_row("L-002,x,1 node x 8 H100 SXM,8,7,32,4096,32,4096,32,1,1,1,8,"
	                           "QLoRA 4-bit,bf16,,tokens_per_s_per_gpu,1000,tokens/s per GPU,x",
	                           &c, why, sizeof why), 0);
	ck_assert_ptr_nonnull(strstr(why, "QLoRA"));
	/* the review: Ulysses affirmed, SP's size not TP's nor a count of
	 * tokens; "Ulysses SP8" */
	ck_assert_int_eq(val__cp_of("Megatron-LM TP=8 SP=8; baseline for DeepSpeed-Ulysses"), 1);
	ck_assert_int_eq(val__cp_of("TP=4, SP=4; Ulysses off"), 1);
	ck_assert_int_eq(val__cp_of("no Ulysses; SP=2"), 1);
	ck_assert_int_eq(val__cp_of("SP: 2048 tokens per rank, Ulysses"), 1);
	ck_assert_int_eq(val__cp_of("Ulysses SP8"), 8);
	/* a placement policy only where it is Gemini's */
	static const char *const not_host[] = {"expert placement=auto", "rank placement: auto",
		"dataloader placement: cpu workers"};
	static const char *const host_too[] = {"placement-policy=cpu", "Gemini, placement policy is cpu"};
	for (size_t i = 0; i < 3; i++) {
		char row[400];
		snprintf(row, sizeof row, "G-%zu,x,1 node x 8 A100 80GB SXM,8,10,50,4096,16,1024,64,8,1,1,8,"
		         "\"%s\",fp16,,tflops_per_gpu,100,TFLOP/s per GPU,x", i, not_host[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", not_host[i], why);
		scn_release(&c.s);
	}
	for (size_t i = 0; i < 2; i++) {
		char row[400];
		snprintf(row, sizeof row, "H-%zu,x,1 node x 8 A100 80GB SXM,8,10,50,4096,16,1024,64,8,1,1,8,"
		         "\"%s\",fp16,,tflops_per_gpu,100,TFLOP/s per GPU,x", i, host_too[i]);
		ck_assert_int_lt(build_row(row, &c, why, sizeof why), 0);
	}
	/* twice busbw only of the figure itself */
	static const char *const not_twice[] = {"GB/s (1/2 x busbw)", "GB/s busbw (not 2x busbw)",
		"GB/s, bidirectional would be 2 x busbw"};
	for (size_t i = 0; i < 3; i++) {
		char row[400];
		snprintf(row, sizeof row, "B-%zu,nccl-tests,\"1 node x 8 NVIDIA H100 SXM5 80GB, NVSwitch\","
		         "8,,,,,,,,,,,size=1073741824,float,,busbw,400,%s,x", i, not_twice[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", not_twice[i], why);
		ck_assert_double_eq_tol(c.published_si, 400e9, 1e3);
		scn_release(&c.s);
	}
}
END_TEST

/* Readings the twenty-second blind batch showed. */
START_TEST(t_blind22)
{
	size_t n;
	val_row *r = validation_rows("blind22-nccl.csv", &n);
	val_case c;
	char why[256];
	/* "nodes=2; ranks_per_node=1" in the row's notes: 2 nodes of 1 GPU,
	 * not one node of 2; "nodes=2; ranks_per_node=4" with 8 GPUs */
	static const struct { const char *id; int nodes, gpn; } nodes[] = {
		{"ULANTA22-001", 2, 1}, {"UALPSSAR22-001", 2, 1}, {"UPMDP22-001", 2, 4},
		{"UPMDP22-002", 8, 4}};
	for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
		ck_assert_msg(val_build(row_of(r, n, nodes[i].id), &c, why, sizeof why) == 0, "%s",
		              why);
		ck_assert_int_eq(c.s.cluster.nodes, nodes[i].nodes);
		ck_assert_int_eq(c.s.cluster.gpus_per_node, nodes[i].gpn);
		scn_release(&c.s);
	}
	/* a ranks-per-node that disagrees with the gpus cell: not read */
	ck_assert_msg(build_row("N-001,nccl-tests,\"8x H100 SXM per node\",8,,,,,,,,,,,"
	                        "\"op=all_reduce; size=1073741824 B; nodes=2; ranks_per_node=2\",float,,busbw,"
	                        "100,GB/s,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nodes, 1);
	scn_release(&c.s);
	free(r);
	/* "36 nodes = 2 x NVL72 domains" is no nodes= key: two NVL72 domains */
	r = validation_rows("blind15-nccl.csv", &n);
	ck_assert_msg(val_build(row_of(r, n, "A4XGB200U15-020"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 72);
	scn_release(&c.s);
	free(r);
	/* the review: a rank only of LoRA itself; the KV cache's "LoRA rank" is
	 * none; DoRA is refused */
	static const struct { const char *other; int peft, rank; } lr[] = {
		{"LoRA; head dim 128; model dim 4096", PEFT_LORA, 16},
		{"LoRA; rank 3 reported the step time", PEFT_LORA, 16},
		{"LoRA r=8; MLA with KV LoRA rank 512", PEFT_LORA, 8},
		{"LoRA rank 512 for the KV cache", PEFT_NONE, 16}};
	for (size_t i = 0; i < sizeof lr / sizeof lr[0]; i++) {
		char row[400];
		snprintf(row, sizeof row, "L-%zu,x,1 node x 8 H100 SXM,8,7,32,4096,32,4096,32,1,1,1,8,"
		         "\"%s\",bf16,,tokens_per_s_per_gpu,1000,tokens/s per GPU,x", i, lr[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", lr[i].other, why);
		ck_assert_int_eq(c.s.training.peft, lr[i].peft);
		if (lr[i].peft == PEFT_LORA)
			ck_assert_int_eq(c.s.training.lora_rank, lr[i].rank);
		scn_release(&c.s);
	}
	ck_assert_int_lt(build_row("L-9,x,1 node x 8 H100 SXM,8,7,32,4096,32,4096,32,1,1,1,8,DoRA r=16,"
	                           "bf16,,tokens_per_s_per_gpu,1000,tokens/s per GPU,x", &c, why,
	                           sizeof why), 0);
	/* MLPerf's "LoRA rank 16 alpha 32" is LoRA (MLA's "KV LoRA rank 512" is not) */
	r = validation_rows("blind22-runs.csv", &n);
	ck_assert_msg(val_build(row_of(r, n, "VMLPLORA22-005"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.peft, PEFT_LORA);
	ck_assert_int_eq(c.s.training.lora_rank, 16);
	scn_release(&c.s);
	free(r);
}
END_TEST

/* A GPT-2 small run on 8 A100 with the given source and notes, built. */
static void build_gpt2_row(const char *id, const char *source, const char *other, val_case *c)
{
	char row[700], why[256];
	snprintf(row, sizeof row, "%s,\"%s\",8x A100 SXM4 80GB,8,0.124,12,768,12,1024,512,64,1,1,8,"
	         "\"%s\",bf16,none,step_time_s,0.3,s,x", id, source, other);
	ck_assert_msg(build_row(row, c, why, sizeof why) == 0, "%s | %s: %s", source, other, why);
}

/* Batch 23's readings. The attention kernel is read from a row's source when
 * its notes name none: llm.c's "USE_CUDNN=1 i.e. cuDNN flash attention" on a
 * GPT-2 (unfused by the A100 rule otherwise) is cuDNN's, the GPU's best
 * (`flash`); a version named there is read as in the notes. Not read from
 * the source: a clause that only installs it, cites a paper or repository,
 * gives a baseline or compares; "flash" that is no kernel; cuDNN named as a
 * library, which does not hide the source from notes that name nothing
 * else either. MosaicGPT's "attn_impl flash" (mosaicml/examples, 2022-23)
 * is FlashAttention 1 as LLM Foundry's is. */
START_TEST(t_blind23)
{
	val_case c;
	char why[256];
	static const struct { const char *source, *other; scn_attention attn; } at[] = {
		{"llm.c train_gpt2cu built with USE_CUDNN=1 i.e. cuDNN flash attention", "zero=1",
		 ATTN_FLASH},
		{"gpt-neox fork, flash-attention requirements installed; config: GPT-3 style", "z1",
		 ATTN_AUTO},
		{"NGC 24.01, CUDA 12.3, cuDNN 9.14", "dp only", ATTN_AUTO},
		{"NGC PyTorch 24.01 container (cuDNN 9.0), flash-attn 2.4.2", "ddp", ATTN_FLASH2},
		{"flash-attn 2.4.2", "ddp; cuDNN 9.1", ATTN_FLASH2},
		{"mosaicml/examples llm/throughput; 30b.yaml: attn_impl flash", "fsdp", ATTN_FLASH1},
		{"checkpoints on NVMe flash storage", "ddp", ATTN_AUTO},
		{"FlashBoot image", "ddp", ATTN_AUTO},
		{"FlashAttention paper Table 3 baseline: Megatron-LM without FlashAttention", "ddp",
		 ATTN_AUTO},
		{"FlashAttention vs our naive attention", "ddp", ATTN_AUTO},
		{"Tri Dao's flash-attention repo benchmark of PyTorch standard attention", "ddp",
		 ATTN_AUTO},
		{"github.com/Dao-AILab/flash-attention benchmark of naive PyTorch attention", "ddp",
		 ATTN_AUTO},
		{"Megatron-LM without FlashAttention", "ddp; ckpt on flash storage", ATTN_UNFUSED},
		{"checkpoints on flash storage; FlashAttention disabled", "ddp", ATTN_UNFUSED},
		{"x", "cuDNN 9.1 + flash-attn 2.4.2", ATTN_FLASH2},
		{"x", "flash-attn 2.4.2 built against cuDNN 9.1", ATTN_FLASH2},
		{"NGC container with cuDNN 9.1 and flash-attn 2.5", "ddp", ATTN_FLASH2},
		{"x", "data on /scratch (flash 'had issues at the time')", ATTN_AUTO}};
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		build_gpt2_row("B-1", at[i].source, at[i].other, &c);
		ck_assert_msg(c.s.training.attention == at[i].attn, "%s: attention %d", at[i].source,
		              c.s.training.attention);
		scn_release(&c.s);
	}
	/* a source cut at its field's size: its last clause is not read */
	char row[3000], src[1200];
	memset(src, 'x', 1005);   /* the field keeps "...; flash-attn requi" */
	snprintf(src + 1005, sizeof src - 1005, "; flash-attn requirements installed");
	snprintf(row, sizeof row, "B-T,\"%s\",8x A100 SXM4 80GB,8,0.124,12,768,12,1024,512,64,1,1,8,"
	         "ddp,bf16,none,step_time_s,0.3,s,x", src);
	char text[4000];
	snprintf(text, sizeof text, HEADER "%s\n", row);
	val_row *rr;
	size_t nr;
	char err[256];
	ck_assert_msg(val_parse(text, "t.csv", &rr, &nr, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(val_build(&rr[0], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.attention, ATTN_AUTO);
	scn_release(&c.s);
	free(rr);
	/* the llm.c rows of the batch: flash and fused, they fit now */
	size_t n;
	val_row *r = validation_rows("blind23-runs.csv", &n);
	ck_assert_msg(val_build(row_of(r, n, "PLLMC23-001"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert(wl_flash_attention(&c.s));
	ck_assert_int_eq(c.s.training.cross_entropy, CE_FUSED);
	wl_memory m;
	wl_memory_get(&c.s, &m);
	ck_assert(m.fits);
	scn_release(&c.s);
	/* TinyLlama's "fused RMSNorm/rotary/SwiGLU/cross-entropy" */
	ck_assert_msg(val_build(row_of(r, n, "CWHYTL23-001"), &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.cross_entropy, CE_FUSED);
	scn_release(&c.s);
	free(r);
}
END_TEST

/* A fused loss read from a row's notes: a fused kernel named on, Megatron-
 * core's Transformer Engine implementation, Liger's loss switches, llm.c's
 * CUDA trainer (from its source). Not: Megatron-core's native fusion alone,
 * "unfused", other fused kernels, Liger's kernels other than its loss, a
 * loss flag quoted only in the source (a page shared by several runs). */
START_TEST(t_fused_loss_reading)
{
	val_case c;
	static const struct { const char *source, *other; bool fused; } rows[] = {
		{"llm.c train_gpt2cu", "zero=1", true},
		{"Megatron-LM", "--cross-entropy-loss-fusion; --cross-entropy-fusion-impl te", true},
		{"Megatron-LM", "--cross-entropy-loss-fusion --cross-entropy-fusion-impl native", false},
		{"Megatron-LM", "--cross-entropy-loss-fusion", false},
		{"Megatron-LM", "cross_entropy_loss_fusion=False", false},
		{"llm.c's train_gpt2.py (PyTorch)", "ddp", false},
		{"HF Trainer", "Liger kernels (fused linear cross entropy)", true},
		{"HF Trainer", "use_liger_kernel=True", true},
		{"HF Trainer", "unfused cross entropy", false},
		{"HF Trainer", "fused cells", false},
		{"HF Trainer", "liger_rope: true; liger_rms_norm: true; liger_glu_activation: true; "
		 "liger_fused_linear_cross_entropy: false", false},
		{"HF Trainer", "Liger kernels for RMSNorm and SwiGLU only", false},
		{"HF Trainer", "Liger vs plain PyTorch loss comparison", false},
		{"Megatron script: --cross-entropy-loss-fusion --cross-entropy-fusion-impl te",
		 "DeepSpeed ZeRO-2", false},
		{"TinyLlama", "fused RMSNorm/rotary/SwiGLU/cross-entropy", true},
		{"x", "fused Adam and cross entropy in fp32", false},
		{"x", "fused AdamW optimizer with cross-entropy loss", false},
		{"x", "fused RoPE and standard cross entropy", false},
		{"x", "fused kernels except cross entropy", false},
		{"x", "fused cross entropy: no", false},
		{"x", "fused cross-entropy: none", false},
		{"x", "fused_cross_entropy=0", false},
		{"x", "not fused cross-entropy", false},
		{"x", "fused cross entropy with offset labels", true},
		{"x", "fused cross-entropy and bias disabled", true},
		{"x", "--cross-entropy-fusion-impl te", false},
		{"x", "cross_entropy_loss_fusion=False, cross_entropy_fusion_impl=te", false},
		{"x", "--no-cross-entropy-loss-fusion --cross-entropy-fusion-impl te", false},
		{"x", "--cross-entropy-loss-fusion --cross-entropy-fusion-impl=te", true},
		{"x", "cross_entropy_loss_fusion: true; cross_entropy_fusion_impl: 'te'", true},
		{"x", "--cross-entropy-loss-fusion; bias_fusion_impl=te", false},
		{"x", "--cross-entropy-loss-fusion; masked_softmax_fusion_impl te", false},
		{"x", "use_liger_kernel=True; liger_fused_linear_cross_entropy: false; "
		 "liger_cross_entropy: false", false},
		{"x", "use_liger_kernel=True with gradient checkpointing off", true}};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		build_gpt2_row("L-1", rows[i].source, rows[i].other, &c);
		ck_assert_msg((c.s.training.cross_entropy == CE_FUSED) == rows[i].fused, "%s | %s",
		              rows[i].source, rows[i].other);
		scn_release(&c.s);
	}
}
END_TEST

/* Batch 24: Megatron-core's fine-grained activation offloading is refused
 * as such, not as an optimizer offload */
START_TEST(t_blind24)
{
	size_t n;
	val_row *r = validation_rows("blind24-runs.csv", &n);
	val_case c;
	char why[256];
	ck_assert_int_lt(val_build(row_of(r, n, "MZOOGB24-002"), &c, why, sizeof why), 0);
	ck_assert_msg(strstr(why, "activation offloading"), "%s", why);
	ck_assert_int_lt(build_row("O-1,x,1 node x 8 H100 SXM,8,7,32,4096,32,4096,32,1,1,1,8,"
	                           "ZeRO-3 with CPU offload,bf16,,tokens_per_s_per_gpu,1000,tokens/s,x",
	                           &c, why, sizeof why), 0);
	ck_assert_msg(strstr(why, "optimizer state"), "%s", why);
	free(r);
}
END_TEST

START_TEST(t_blind20_review)
{
	val_case c;
	char why[256];
	/* "8x single-port ConnectX-7", "a single 64-port switch", "only one port of
	 * each adapter", "single interface name per HCA": NICs' properties, not one
	 * NIC; "a single HDR InfiniBand HCA per node" is one */
	static const struct {
		const char *id;
		int nics;
	} one[] = {{"Nic2_P2", 8}, {"Nic2_P8", 8}, {"Nic2_P9", 8}, {"Nic_N1", 8}, {"Nic_N2", 8},
	           {"Nic_N14", 8}, {"Nic_N16", 8}, {"Goo_G2", 8}, {"Goo_G4", 8}, {"Nic3_Q2", 1},
	           {"Nic3_Q3", 1}, {"Nic2_P13", 1}};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
		ck_assert_msg(build_review20(one[i].id, &c, why, sizeof why) == 0, "%s: %s", one[i].id,
		              why);
		ck_assert_msg(c.s.cluster.nic.count == one[i].nics, "%s: %d NICs", one[i].id,
		              c.s.cluster.nic.count);
		scn_release(&c.s);
	}
	/* a version, a node range, a date after "peak" are no sizes; a range
	 * before it, in words or with an en dash, is read at its top */
	static const char *const refused[] = {"Peak_K1", "Peak_K2", "Peak_K6", "Peak_K12"};
	for (size_t i = 0; i < 4; i++)
		ck_assert_msg(build_review20(refused[i], &c, why, sizeof why) == -1, "%s read",
		              refused[i]);
	static const char *const top[] = {"Peak_K4", "Peak_K5"};
	for (size_t i = 0; i < 2; i++) {
		ck_assert_msg(build_review20(top[i], &c, why, sizeof why) == 0, "%s", why);
		ck_assert_double_eq(c.coll_bytes, 8.0 * 1073741824.0);
		scn_release(&c.s);
	}
	/* a PCIe card said so beside nvidia-smi's name; "PCIe/NVLink-bridged" */
	static const char *const pcie[] = {"Gpu_U1", "Gpu_U2", "Gpu_U4"};
	for (size_t i = 0; i < 3; i++) {
		ck_assert_msg(build_review20(pcie[i], &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.cluster.intra.kind == INTRA_PCIE, "%s: %s", pcie[i],
		              c.s.cluster.gpu.name);
		scn_release(&c.s);
	}
	/* experts' dispatch, placement, balance; FP8 tiles; 1/8 of the experts */
	static const char *const whole[] = {"Moe_F1", "Moe_F2", "Moe_F3", "Moe_F4", "Moe_F5"};
	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
		ck_assert_msg(build_review20(whole[i], &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.model.expert_ffn_hidden == 14336, "%s: %d", whole[i],
		              c.s.model.expert_ffn_hidden);
		scn_release(&c.s);
	}
	/* "vocab-parallel" chunks are no vocabulary */
	ck_assert_msg(build_review20("Voc_V12", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_ne(c.s.model.vocab, 4096);
	scn_release(&c.s);
	/* a gated repository, gated attention, a key set false, both units named */
	static const char *const plain[] = {"Gate_A1", "Gate_A2", "Gate_A4", "Gate_A8", "Gate2_B1"};
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		ck_assert_msg(build_review20(plain[i], &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(!c.s.model.gated_mlp, "%s: gated", plain[i]);
		scn_release(&c.s);
	}
	/* MSG_SIZE and msgsize are the message's; packet, frame, segment,
	 * checkpoint and stripe sizes are not */
	static const char *const gib[] = {"Ms_M1", "Ms_M2", "Ms_M3", "Ms_M4", "Ms_M5", "Ms_M6",
		"Ms_M8"};
	for (size_t i = 0; i < sizeof gib / sizeof gib[0]; i++)
		if (build_review20(gib[i], &c, why, sizeof why) == 0) {
			ck_assert_msg(c.coll_bytes >= 1e9, "%s: %g bytes", gib[i], c.coll_bytes);
			scn_release(&c.s);
		} else {
			ck_assert_msg(strcmp(gib[i], "Ms_M5") && strcmp(gib[i], "Ms_M6"), "%s refused",
			              gib[i]);
		}
	/* "2 x AWS p5.48xlarge" beside a gpus cell of 8: not two instances of 4 */
	ck_assert_msg(build_review20("Cloud_C15", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 8);
	scn_release(&c.s);
}
END_TEST

/* The review of those readings: each case a text they must not over-read. */
START_TEST(t_blind15_review)
{
	static const struct {
		const char *hw, *other;
		int gpus, nodes, gpn, nics;   /* nics: 0 = not checked */
		double gbps;                  /* a NIC's line rate, 0 = not checked */
		hw_transport tr;
	} cases[] = {
		/* "Llama3 VM" is not Google's A3 VM; an A3 Ultra named in full is RDMA */
		{"2 nodes x 8 H100 80GB, 8x 400 Gb/s InfiniBand (Llama3 VM image)", "", 16, 2, 8, 8,
		 400, TRANSPORT_RDMA},
		{"GCP A3 VM (a3-ultragpu-8g, 8x H200)", "", 16, 2, 8, 8, 400, TRANSPORT_RDMA},
		/* GPUDirect said in the other column; turned off on an A3 High: sockets */
		{"2 nodes x 8 H100 80GB (GCP)", "GPUDirect-TCPXO plugin (FasTrak)", 16, 2, 8, 0, 0,
		 TRANSPORT_GDTCP},
		{"2 x GCP a3-highgpu-8g (8x H100 80GB)", "USE_GPU_DIRECT=false", 16, 2, 8, 0, 0,
		 TRANSPORT_TCP},
		/* a GB200 domain that the job does not fill in trays of 4 keeps a NIC a
		 * GPU; a rack's NICs said per rack */
		{"GB200 NVL72", "", 100, 2, 50, 50, 400, TRANSPORT_RDMA},
		{"GB200 NVL72, 72x 400 Gb/s ConnectX-7 per rack", "", 144, 2, 72, 72, 400,
		 TRANSPORT_RDMA},
		/* NVLink inside each rack, RDMA between: two domains, not trays; a
		 * "cross-domain" corpus is not a fabric; NVL36 is a domain of 36 */
		{"GB200 NVL72", "MNNVL inside each rack, pure RDMA between racks", 144, 2, 72, 0, 0,
		 TRANSPORT_RDMA},
		{"GB200 NVL72", "cross-domain pretraining corpus", 72, 1, 72, 0, 0, TRANSPORT_RDMA},
		{"GB200 NVL36", "", 36, 1, 36, 0, 0, TRANSPORT_RDMA},
		/* two domains only when the job halves into whole trays */
		{"GB200 NVL72", "cross-domain, MNNVL+RDMA", 12, 1, 12, 0, 0, TRANSPORT_RDMA},
		{"GB200 NVL72, cross-domain, MNNVL+RDMA", "", 16, 2, 8, 0, 0, TRANSPORT_RDMA},
		/* commas that list speeds */
		{"2 nodes x 8 A100 80GB, NIC options 10,25,100 GbE", "", 16, 2, 8, 1, 100,
		 TRANSPORT_TCP},
		{"2 nodes x 8 H100 80GB, 200,400 Gbps InfiniBand", "", 16, 2, 8, 8, 400,
		 TRANSPORT_RDMA},
		{"2 nodes x 8 H100 80GB, 100,200,400 Gbps InfiniBand", "", 16, 2, 8, 8, 400,
		 TRANSPORT_RDMA},
		/* Polaris named elsewhere is not ALCF Polaris's two NICs */
		{"2 nodes x 8 H100 80GB", "200 Gbps Slingshot-11; earlier runs on Polaris", 16, 2, 8, 8,
		 200, TRANSPORT_RDMA},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[1024], why[256];
		val_case c;
		snprintf(row, sizeof row, "T-%03zu,x,\"%s\",%d,,,,,,,,,,,\"%s\",,,allreduce_busbw@1G,"
		         "100,GB/s,x", i, cases[i].hw, cases[i].gpus, cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].hw, why);
		const scn_cluster *k = &c.s.cluster;
		ck_assert_msg(k->nodes == cases[i].nodes && k->gpus_per_node == cases[i].gpn &&
		              k->nic.transport == cases[i].tr &&
		              (!cases[i].nics || k->nic.count == cases[i].nics) &&
		              (!cases[i].gbps || fabs(k->nic.speed_Bps * 8 / 1e9 - cases[i].gbps) < 1e-6),
		              "%s | %s: %d x %d, %d x %g Gb/s, transport %d", cases[i].hw, cases[i].other,
		              k->nodes, k->gpus_per_node, k->nic.count, k->nic.speed_Bps * 8 / 1e9,
		              k->nic.transport);
		scn_release(&c.s);
	}
	/* an AMD Polaris card is no GPU of the catalog */
	char row[512], why[256];
	val_case c;
	snprintf(row, sizeof row, "T-100,x,\"AMD Polaris RX 580 x 8\",8,,,,,,,,,,,,,,"
	         "allreduce_busbw@1G,10,GB/s,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
}
END_TEST

START_TEST(t_blind12)
{
	size_t n;
	val_row *r = validation_rows("blind12-nccl.csv", &n);
	val_case c;
	char why[256];
	/* "2 node(s) x 4 GPUs" (was 1 x 8) */
	ck_assert_int_eq(val_build(row_of(r, n, "ABCI12-018"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 4);
	/* p4d's "4 EFA interfaces per node": 4 x 100 Gb/s (was 4 x 50), "only 1
	 * EFA interface used": 1 x 100 */
	ck_assert_int_eq(val_build(row_of(r, n, "SKYEFA12-006"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.count, 4);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 12.5e9, 1);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_RDMA);
	ck_assert_int_eq(val_build(row_of(r, n, "SKYEFA12-013"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.count, 1);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 12.5e9, 1);
	/* "EFA not used in this column": sockets (was EFA) */
	ck_assert_int_eq(val_build(row_of(r, n, "SKYEFA12-008"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_TCP);
	/* GPUDirect-TCPX on a3-highgpu: its 4 GPU NICs of 200 Gb/s, not the
	 * "1000Gbps maximum network bandwidth" that counts the host's NIC (both
	 * refused before); "GPUDirect-TCPX disabled": NCCL's sockets */
	ck_assert_int_eq(val_build(row_of(r, n, "DSTKA3H12-003"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_GDTCP);
	ck_assert_int_eq(c.s.cluster.nic.count, 4);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 25e9, 1);
	ck_assert_int_eq(val_build(row_of(r, n, "SKYGCP12-009"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_GDTCP);
	ck_assert_int_eq(val_build(row_of(r, n, "SKYGCP12-011"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_TCP);
	free(r);
	/* TCPXO on A3 Mega: 8 x 200 */
	r = validation_rows("nccl-ops.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "NCCLOPS-012"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_GDTCP);
	ck_assert_int_eq(c.s.cluster.nic.count, 8);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 25e9, 1);
	free(r);
	r = validation_rows("blind12-runs.csv", &n);
	/* "Slingshot-11 with 200 Gb/s injection bandwidth per GPU": 4 x 200 a
	 * node (was 4 x 50); "not stated in the notes read (... an FP8-training
	 * appendix ...)": bf16 (was fp8) */
	ck_assert_int_eq(val_build(row_of(r, n, "APRT12-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.count, 4);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 25e9, 1);
	ck_assert_int_eq(c.s.training.precision, PREC_BF16);
	/* BigScience's 1B3 on the GPT-2 vocabulary, "2 nodes x 4 GPUs" */
	ck_assert_int_eq(val_build(row_of(r, n, "BSTR3M12-008"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.model.vocab, 51200);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 4);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	/* "samples/s (...; README: 63.2 TFLOPS per GPU, 27GB VRAM/GPU)": the job's */
	ck_assert_int_eq(val_build(row_of(r, n, "LMBNEOX12-001"), &c, why, sizeof why), 0);
	ck_assert(!c.per_gpu);
	/* "model-parallel size 96 (= tensor x pipeline ...)" on 8-GPU nodes:
	 * TP 8 x PP 12 (was TP 1 x PP 1, which does not fit) */
	ck_assert_int_eq(val_build(row_of(r, n, "MEG21T2S12-009"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.tp, 8);
	ck_assert_int_eq(c.s.training.pp, 12);
	free(r);
	/* CollNet over InfiniBand SHARP, named as what ran: the switches reduce
	 * and the algorithm is collnet; NCCL_COLLNET_ENABLE=0 beside a
	 * "SHARP-capable" fabric, or =1 over Slingshot (no SHARP there), is not */
	r = validation_rows("blind11-nccl.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "TOGB200S11-013"), &c, why, sizeof why), 0);
	ck_assert(c.s.cluster.fabric.sharp);
	ck_assert_int_eq(c.coll_algo, ALGO_COLLNET);
	ck_assert_int_eq(val_build(row_of(r, n, "TOGB200S11-004"), &c, why, sizeof why), 0);
	ck_assert(!c.s.cluster.fabric.sharp);
	free(r);
	r = validation_rows("blind8-nccl.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "TGARN8-003"), &c, why, sizeof why), 0);
	ck_assert(!c.s.cluster.fabric.sharp);
	ck_assert_int_eq(val_build(row_of(r, n, "PLAR2N8-005"), &c, why, sizeof why), 0);
	ck_assert(!c.s.cluster.fabric.sharp);
	free(r);
	/* a rate Megatron-Core logged: model FLOPs with the causal half of the
	 * scores (DeepSeek-V3 on GB200 +29% -> +15%, MOEZOO6-006 +56% -> +4%) */
	r = validation_rows("blind12-runs.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "DSV3GB12-006"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_MODEL_TFLOPS);
	ck_assert(c.causal_count);
	free(r);
	r = validation_rows("blind6-papers.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "MOEZOO6-006"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_MODEL_TFLOPS);
	ck_assert(c.causal_count);
	free(r);
	/* over-reaches a review of these readings found, each now read as a
	 * person would: CollNet unavailable or excluded is no SHARP */
	static const char *const no_collnet[] = {"CollNet not available on this fabric",
		"CollNet was not used (no SHARP plugin)", "NCCL_ALGO=^CollNetDirect,CollNetChain",
		"NCCL_COLLNET_ENABLE=1 set but the SHARP plugin failed to load, fell back to Ring",
		"ring; CollNet results in a separate table", "NCCL_COLLNET_ENABLE=0"};
	for (size_t i = 0; i < sizeof no_collnet / sizeof no_collnet[0]; i++) {
		char row[512];
		snprintf(row, sizeof row, "C-%zu,x,\"4 x DGX H100: 8x H100 SXM5 per node, 8x NDR 400 "
		         "Gb/s InfiniBand per node\",32,,,,,,,,,,,\"4 nodes x 8 GPUs; %s\",float,,"
		         "allreduce_busbw@4294967296,300,GB/s,x", i, no_collnet[i]);
		ck_assert_int_eq(build_row(row, &c, why, sizeof why), 0);
		ck_assert_msg(!c.s.cluster.fabric.sharp && c.coll_algo != ALGO_COLLNET, "%s",
		              no_collnet[i]);
		scn_release(&c.s);
	}
	/* "2 EFA-enabled p4d instances" counts instances, not interfaces; "no
	 * EFA-specific tuning" keeps EFA; a node's 3200 Gbps "= 400 Gbps per GPU"
	 * is the node's */
	check_cluster("E-1,x,2 EFA-enabled p4d.24xlarge instances (8x A100 each),16,,,,,,,,,,,"
	              ",,,allreduce_busbw@1073741824,40,GB/s,x", "EFA-enabled instances", NULL, 8,
	              8, 50, 0);
	check_cluster("E-2,x,\"2 x p4d.24xlarge, 8x A100 per node, no EFA-specific NCCL tuning\","
	              "16,,,,,,,,,,,,,,allreduce_busbw@1073741824,40,GB/s,x", "no EFA-specific",
	              NULL, 8, 8, 50, 0);
	check_cluster("E-3,x,\"2 x AWS p5.48xlarge: 8x H100 per node; 3200 Gbps EFA per node = "
	              "400 Gbps per GPU\",16,,,,,,,,,,,,,,allreduce_busbw@1073741824,40,GB/s,x",
	              "3200 Gbps per node = 400 per GPU", NULL, 8, 8, 400, 0);
	/* "not stated in the paper; the config uses FP8" keeps its answer */
	ck_assert_int_eq(build_row("P-1,x,\"8x H100 SXM per node\",8,7,32,4096,32,4096,64,1,1,1,8,,"
	                           "\"not stated in the paper; the released config uses FP8\",none,"
	                           "iteration_time,1,s,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.precision, PREC_FP8);
	scn_release(&c.s);
	/* "per GPU at GBS 128", "per GB200 GPU" are rates per GPU */
	ck_assert_int_eq(build_row("G-1,x,\"8x H100 SXM per node\",8,7,32,4096,32,4096,64,1,1,1,8,,"
	                           "bf16,none,samples_per_s,4.7,samples/s (per GPU at GBS 128),x", &c,
	                           why, sizeof why), 0);
	ck_assert(c.per_gpu);
	scn_release(&c.s);
	/* "model-parallel size 8 (tensor only, no pipeline)" is no product */
	ck_assert_int_eq(build_row("M-1,x,\"8x V100 per node\",16,1,24,2048,16,2048,64,1,,,,"
	                           "\"model-parallel size 8 (tensor model parallel only, no pipeline "
	                           "parallelism)\",fp16,none,iteration_time,1,s,x", &c, why,
	                           sizeof why) == 0 ? c.s.training.pp : 1, 1);
	/* a GB300 card's "4 GPUs/node" without NVL72 said is a rack of 72 all the
	 * same (the thirteenth batch: +160% -> +20% on DeepSeek-V3; 256 GPUs fill
	 * domains of 64, the largest size that divides them), an "NVL4" board is
	 * not */
	check_cluster("B-1,x,\"256x NVIDIA GB300 (4 GPUs/node per the card)\",256,7,32,4096,32,4096,"
	              "256,1,1,1,256,,bf16,none,iteration_time,1,s,x", "GB300 card", "GB300", 64, 64,
	              800, 0);
	check_cluster("B-2,x,\"8x NVIDIA GB200 NVL4 (4 GPUs/node)\",32,7,32,4096,32,4096,32,1,1,1,"
	              "32,,bf16,none,iteration_time,1,s,x", "GB200 NVL4", "GB200", 4, 4, 400, 0);
	/* Megatron's SC21 table keeps its hardware count in full */
	r = validation_rows("published.csv", &n);
	ck_assert_int_eq(val_build(row_of(r, n, "MEG21T1-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_HW_TFLOPS);
	ck_assert(!c.causal_count);
	free(r);
}
END_TEST

/* A power limit in watts in the hardware text runs the row's GPUs at it; one
 * only named, a rating, or a limit at or above it does not. */
START_TEST(t_power_limit_read)
{
	static const struct { const char *hw; double w; } cases[] = {
		{"8x H100 80GB SXM (default 500W power limit (not 700W TDP))", 500},
		{"8x H100 80GB SXM; power limit of 450 W", 450},
		{"8x H100 80GB SXM, capped at 500W", 500},
		{"8x H100 80GB SXM, power cap: 0.6 kW", 600},
		{"8x H100 80GB SXM, power limited (limit not stated)", 0},
		{"8x H100 80GB SXM, 700W TDP", 0},
		{"8x H100 80GB SXM, power limit 700 W (the rating)", 0},
		{"8x A100 80GB SXM4, capped at 300W", 300},
		{"8x H100 80GB SXM, 0.6 kW power cap", 600},
		{"8x H100 80GB SXM, 500w power limit", 500},
		/* another device's watts, a draw, a past run */
		{"8x H100 80GB SXM (700W); CPU power capped at 350W", 0},
		{"8x H100 80GB SXM; the switch is capped at 400W", 0},
		{"8x H100 80GB SXM; power limited: 650 W average draw under load", 0},
		{"8x H100 80GB SXM; power limit 500 W in a previous run", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[512], why[256];
		val_case c;
		snprintf(row, sizeof row, "P-001,x,\"%s\",8,1,2,2048,16,2048,8,1,1,1,8,,bf16,none,"
		         "iteration_time,1,s,x", cases[i].hw);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].hw, why);
		ck_assert_msg(c.s.cluster.gpu.power_limit_w == cases[i].w, "%s: %g W, want %g",
		              cases[i].hw, c.s.cluster.gpu.power_limit_w, cases[i].w);
	}
}
END_TEST

/* DeepEP's dispatcher said of the run, not denied or without EP */
START_TEST(t_deepep_read)
{
	static const struct { const char *other; int want; } cases[] = {
		{"Qwen3-30B-A3B; EP16; DeepEP dispatcher", EP_DISPATCH_DEEPEP},
		{"Qwen3-30B-A3B; EP16; --moe-token-dispatcher-type flex", EP_DISPATCH_DEEPEP},
		{"Qwen3-30B-A3B; EP16; use_deepep=True", EP_DISPATCH_DEEPEP},
		{"Qwen3-30B-A3B; EP16; HybridEP", EP_DISPATCH_DEEPEP},
		{"Qwen3-30B-A3B; EP16; alltoall dispatcher", EP_DISPATCH_ALLTOALL},
		{"Qwen3-30B-A3B; EP16; without DeepEP", EP_DISPATCH_ALLTOALL},
		{"Qwen3-30B-A3B; EP16; dispatcher: alltoall (flex dispatcher was slower)",
		 EP_DISPATCH_ALLTOALL},
		{"Qwen3-30B-A3B; EP16; alltoall dispatcher (DeepEP unavailable: no NVSHMEM)",
		 EP_DISPATCH_ALLTOALL},
		{"Qwen3-30B-A3B; EP16; the DeepEP dispatcher is 1.3x faster (next row)",
		 EP_DISPATCH_ALLTOALL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[512], why[256];
		val_case c;
		snprintf(row, sizeof row, "D-001,x,\"2 nodes x 8 H100 80GB SXM, 8x 400Gb/s NDR\",16,30.5,,,,"
		         "4096,64,1,1,1,16,\"%s\",bf16,none,iteration_time,1,s,x", cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].other, why);
		ck_assert_msg((int)c.s.training.ep_dispatcher == cases[i].want, "%s: dispatcher %d",
		              cases[i].other, (int)c.s.training.ep_dispatcher);
	}
}
END_TEST

/* NCCL's sockets a connection over TCP: the variables as set (their product),
 * else NCCL's own defaults by the cloud's NIC (AWS's ENA 2 x 8 since 2.4.8,
 * Google's gVNIC 4 x 1 since 2.5.6), not AWS's network plugin on another
 * machine; a railed Ethernet fabric is RoCE; Omni-Path is 100 Gb/s. */
START_TEST(t_blind26_sockets)
{
	static const struct {
		const char *hw, *other;
		int sockets;
		hw_transport tr;
		double gbps;
	} cases[] = {
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node", "NCCL_IB_DISABLE=1", 0, TRANSPORT_TCP, 100},
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node",
		 "NCCL_IB_DISABLE=1 NCCL_SOCKET_NTHREADS=4 NCCL_NSOCKS_PERTHREAD=4", 16,
		 TRANSPORT_TCP, 100},
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node",
		 "NCCL_IB_DISABLE=1; NCCL_SOCKET_NTHREADS=2 (NSOCKS_PERTHREAD not set)", 2,
		 TRANSPORT_TCP, 100},
		{"2 x AWS p4d.24xlarge, 8x A100, non-EFA, 1 ENI", "NCCL_IB_DISABLE=1", 16,
		 TRANSPORT_TCP, 0},
		{"2 x GCP a2-ultragpu-8g, 8x A100, TCP over one gVNIC 200 Gb/s", "NCCL 2.22.3", 4,
		 TRANSPORT_TCP, 200},
		{"2 x GCP a2-highgpu-8g, 8x A100, TCP over one gVNIC 100 Gb/s", "NCCL 2.4.7", 0,
		 TRANSPORT_TCP, 100},
		{"2 x GCP a2-highgpu-8g, 8x A100, TCP over one gVNIC 100 Gb/s",
		 "NCCL 2.22; not NCCL_SOCKET_NTHREADS=8", 4, TRANSPORT_TCP, 100},
		{"2 nodes x 4 GH200, 4x Slingshot-11 200 Gb/s, TCP sockets",
		 "NCCL_NET='AWS Libfabric' not loaded; aws-ofi-nccl missing", 0, TRANSPORT_TCP, 200},
		{"2 nodes x 8 A100-SXM4-80GB, 2 x 200GbE Ethernet, rail-optimized", "", 0,
		 TRANSPORT_RDMA, 200},
		{"2 nodes x 8 A100-SXM4-80GB, 2 x 200GbE Ethernet, not rail-optimized", "", 0,
		 TRANSPORT_TCP, 200},
		/* sockets per thread alone add no helper thread; threads at most 16 */
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node", "NCCL_IB_DISABLE=1 NCCL_NSOCKS_PERTHREAD=4",
		 1, TRANSPORT_TCP, 100},
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node",
		 "NCCL_IB_DISABLE=1 NCCL_SOCKET_NTHREADS=32 NCCL_NSOCKS_PERTHREAD=4", 64,
		 TRANSPORT_TCP, 100},
		/* the run's value, not the comparison's after it */
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node",
		 "NCCL_IB_DISABLE=1 NCCL_SOCKET_NTHREADS=8 compared to NCCL_SOCKET_NTHREADS=1", 8,
		 TRANSPORT_TCP, 100},
		/* no AWS: a CPU's socket SP5, a figure's file name, a comparison */
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node, EPYC on socket SP5.",
		 "NCCL_IB_DISABLE=1; see fig5.png", 0, TRANSPORT_TCP, 100},
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node",
		 "NCCL_IB_DISABLE=1; on-prem, not AWS", 0, TRANSPORT_TCP, 100},
		{"2 x AWS g5.48xlarge, 8x A10G", "NCCL_IB_DISABLE=1", 16, TRANSPORT_TCP, 0},
		/* a 0 set is a 0, not an unset variable: no helper thread, one socket */
		{"2 x AWS g5.48xlarge, 8x A10G", "NCCL_IB_DISABLE=1 NCCL_SOCKET_NTHREADS=0", 1,
		 TRANSPORT_TCP, 0},
		{"2 nodes x 8 H100 SXM, 1x 100GbE per node",
		 "NCCL_IB_DISABLE=1 NCCL_SOCKET_NTHREADS=4 NCCL_NSOCKS_PERTHREAD=0", 1,
		 TRANSPORT_TCP, 100},
		{"2 nodes x 8 A100 80GB, 4 OmniPath links per node", "", 0, TRANSPORT_RDMA, 100},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[768], why[256];
		val_case c;
		snprintf(row, sizeof row, "K-%03zu,x,\"%s\",16,,,,,,,,,,,\"%s\",float,,"
		         "allreduce_busbw@1G,5,GB/s,x", i, cases[i].hw, cases[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", cases[i].hw, why);
		const hw_nic *k = &c.s.cluster.nic;
		ck_assert_msg(k->transport == cases[i].tr && k->sockets == cases[i].sockets &&
		              (cases[i].gbps <= 0 || fabs(k->speed_Bps * 8 / 1e9 - cases[i].gbps) < 1e-6),
		              "%s | %s: transport %d, %d sockets, %g Gb/s", cases[i].hw, cases[i].other,
		              k->transport, k->sockets, k->speed_Bps * 8 / 1e9);
		scn_release(&c.s);
	}
}
END_TEST

/* "4x Tesla V100-SXM2-16GB per node": four a node, not 16 (its memory) nor the
 * V100's usual eight; ABCI's V node has two EDR ports */
START_TEST(t_abci_nodes)
{
	check_cluster("A-1,x,\"ABCI 2.0 ComputeNode(V): 4x Tesla V100-SXM2-16GB per node\",16,,,,,,"
	              ",,,,,\"op=all_reduce; size=33554432 B; nodes=4; ranks_per_node=4\",float,,"
	              "busbw,19.9,GB/s,x", "ABCI V", "V100-SXM2-16GB", 4, 2, 100, 0);
}
END_TEST

/* nccl-tests' gather_perf and scatter_perf are read as gathers and
 * scatters, not all-reduces of the same size; hypercube_perf is refused */
START_TEST(t_gather_refused)
{
	static const struct { const char *metric; int op; } rows[] = {
		{"gather_busbw@1G", COLL_GATHER}, {"scatter_busbw@1G", COLL_SCATTER},
		{"hypercube_busbw@1G", -1}, {"allgather_busbw@1G", COLL_ALL_GATHER},
		{"reduce_scatter_busbw@1G", COLL_REDUCE_SCATTER}};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char row[256], why[256] = "";
		val_case c;
		snprintf(row, sizeof row, "G-%zu,x,\"2 nodes x 1 A100-SXM4-80GB, 1x HDR 200 Gb/s\",2,,,,,,"
		         ",,,,,,float,,%s,20,GB/s,x", i, rows[i].metric);
		int rc = build_row(row, &c, why, sizeof why);
		if (rows[i].op < 0) {
			ck_assert_msg(rc != 0, "%s predicted", rows[i].metric);
			continue;
		}
		ck_assert_msg(rc == 0, "%s: %s", rows[i].metric, why);
		ck_assert_int_eq(c.coll_op, rows[i].op);
		scn_release(&c.s);
	}
}
END_TEST

/* Blind batch 27's readings: the op said as a key in other_parallel
 * ("op=all_gather" was an all-reduce of the same size), the KV heads said
 * in the heads cell, two models' widths in one row refused, and "without
 * GPUDirect" on an A3 Mega as NCCL's sockets */
START_TEST(t_blind27)
{
	static const struct { const char *other; int op; } ops[] = {
		{"op=all_gather; size=1048576 B; nodes=2", COLL_ALL_GATHER},
		{"op=reduce_scatter; size=1048576 B", COLL_REDUCE_SCATTER},
		{"op=alltoall; size=1048576 B", COLL_ALL_TO_ALL},
		{"op=scatter; size=1048576 B", COLL_SCATTER},
		{"op=all_reduce; size=1048576 B", COLL_ALL_REDUCE},
		{"loop=all_gather; size=1048576 B", COLL_ALL_REDUCE}};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		char row[512], why[256] = "";
		val_case c;
		snprintf(row, sizeof row, "OP-%zu,x,\"2 nodes x 8 H100-SXM5-80GB, 8x 400 Gb/s InfiniBand\","
		         "16,,,,,,,,,,,\"%s\",float,,busbw,20,GB/s,x", i, ops[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", ops[i].other, why);
		ck_assert_msg((int)c.coll_op == ops[i].op, "%s: op %d", ops[i].other, (int)c.coll_op);
		ck_assert_double_eq_tol(c.coll_bytes, 1048576, 1e-6);
		scn_release(&c.s);
	}
	val_case c;
	char why[256] = "";
	ck_assert_msg(build_row("KV-1,x,\"1 x 8 H100-SXM5-80GB\",8,1.6,24,2048,16 (4 KV),4096,64,4,"
	                        "1,1,8,,bf16,,tokens_per_s,100000,tokens/s,x", &c, why, sizeof why) == 0,
	              "%s", why);
	ck_assert_int_eq(c.s.model.kv_heads, 4);
	ck_assert_int_eq(c.s.model.heads, 16);
	scn_release(&c.s);
	ck_assert_msg(build_row("TWO-1,x,\"192 x 8 H100-SXM5-80GB\",1536,197,48 (ViT) + 96 (GPT),"
	                        "6144 (ViT) / 12288 (GPT),48 / 96,2048,1536,2,8,8,24,,bf16,,"
	                        "step_time_s,10.65,s,x", &c, why, sizeof why) != 0, "two models run");
	ck_assert_msg(strstr(why, "two models") != NULL, "%s", why);
	ck_assert_msg(build_row("TWO-2,x,\"8 x H100-SXM5-80GB\",8,8,24,1024 (ViT-L/14) and 2048 "
	                        "(LLM),16,2048,64,4,1,1,8,,bf16,,tokens_per_s,100000,tokens/s,x", &c,
	                        why, sizeof why) != 0, "ViT beside an LLM run");
	/* one model's dimensions side by side are one model */
	static const char *const one[] = {"2048 (d_model) / 128 (head_dim)",
		"2048 (model) / 1408 (expert)", "2,048 (d) / 8,192 (d_ff)",
		"2048 (grad clipping 1.0) / 8192 (ffn)", "2048 (ViT-L/14, image 224)",
		"2048 (BERT encoder) / 4096 (ffn)", "2048 (ViT-L/16, MLP 4096)", "2048 (ViT-L/14@336px)"};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
		char row[512];
		snprintf(row, sizeof row, "ONE-%zu,x,\"1 x 8 H100-SXM5-80GB\",8,1,24,\"%s\",16,4096,"
		         "64,4,1,1,8,,bf16,,tokens_per_s,100000,tokens/s,x", i + 2, one[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", one[i], why);
		ck_assert_int_eq(c.s.model.hidden, 2048);
		scn_release(&c.s);
	}
	/* one model's hidden with its FFN beside it is one model */
	ck_assert_msg(build_row("ONE-1,x,\"1 x 8 H100-SXM5-80GB\",8,8,32,4096 (ffn 14336),32,"
	                        "4096,64,4,1,1,8,,bf16,,tokens_per_s,100000,tokens/s,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	scn_release(&c.s);
	ck_assert_msg(build_row("GCP-1,x,\"GCP a3-megagpu-8g nodes (8x H100); NCCL over a socket "
	                        "fabric without GPUDirect\",16,,,,,,,,,,,\"op=all_reduce; "
	                        "size=1073741824 B\",float,,busbw,2,GB/s,x", &c, why, sizeof why) == 0,
	              "%s", why);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_TCP);
	scn_release(&c.s);
	/* a count after the rate's unit: sixteen 100 Gb/s links, not 100 Gb/s
	 * for the node */
	ck_assert_msg(build_row("OCI-1,x,\"BM.GPU4.8: 8x NVIDIA A100 40GB SXM per node; OCI cluster "
	                        "network RoCEv2 'link speed: 100 Gbps x 16' per node; 2 nodes\",16,,,,,,,,"
	                        ",,,\"op=all_reduce; size=1073741824 B\",float,,time_us,13482,us,x", &c,
	                        why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nic.count, 16);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 100e9 / 8, 1);
	scn_release(&c.s);
	/* the same in other words; a NIC's own ports are no NICs */
	static const struct { const char *hw; int count; double gbps; } nics[] = {
		{"2 nodes x 8 A100-SXM4-80GB; RoCE 100 Gb/s x 16 per node", 16, 100},
		{"2 nodes x 8 A100-SXM4-80GB; network 100 Gbps x 16 per node", 16, 100},
		{"2 nodes x 8 A100-SXM4-80GB; 200 Gbps x 2 ports per NIC, 8 NICs", 8, 200},
		{"2 nodes x 8 A100-SXM4-80GB; IB NDR 400 Gbps x 8 ports per node", 8, 400}};
	for (size_t i = 0; i < sizeof nics / sizeof nics[0]; i++) {
		char row[512];
		snprintf(row, sizeof row, "NIC-%zu,x,\"%s\",16,,,,,,,,,,,\"op=all_reduce; "
		         "size=1073741824 B\",float,,busbw,20,GB/s,x", i, nics[i].hw);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", nics[i].hw, why);
		ck_assert_msg(c.s.cluster.nic.count == nics[i].count &&
		              fabs(c.s.cluster.nic.speed_Bps - nics[i].gbps * 1e9 / 8) < 1,
		              "%s: %d x %g", nics[i].hw, c.s.cluster.nic.count,
		              c.s.cluster.nic.speed_Bps * 8 / 1e9);
		ck_assert_int_eq(c.s.cluster.gpus_per_node, 8);
		scn_release(&c.s);
	}
	/* the review's readings: the row's own op= before a binary its source
	 * names; op=hypercube and op: forms; GQA-8, MQA, key-value heads;
	 * GPUDirect Storage is no GPU network; concurrent groups refused */
	static const struct { const char *other, *source; int op; } keyed[] = {
		{"op=all_gather; size=1048576 B", "ran all_reduce_perf and all_gather_perf",
		 COLL_ALL_GATHER},
		{"op: reduce_scatter; size=1048576 B", "x", COLL_REDUCE_SCATTER},
		{"op = alltoall; size=1048576 B", "x", COLL_ALL_TO_ALL}};
	for (size_t i = 0; i < sizeof keyed / sizeof keyed[0]; i++) {
		char row[512];
		snprintf(row, sizeof row, "K-%zu,%s,\"2 nodes x 8 H100-SXM5-80GB, 8x 400 Gb/s InfiniBand\","
		         "16,,,,,,,,,,,\"%s\",float,,busbw,20,GB/s,x", i, keyed[i].source,
		         keyed[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", keyed[i].other, why);
		ck_assert_msg((int)c.coll_op == keyed[i].op, "%s: op %d", keyed[i].other, (int)c.coll_op);
		scn_release(&c.s);
	}
	ck_assert_msg(build_row("K-9,x,\"2 nodes x 8 H100-SXM5-80GB, 8x 400 Gb/s InfiniBand\",16,,,,,"
	                        ",,,,,,\"op=hypercube; size=1048576 B\",float,,busbw,20,GB/s,x", &c,
	                        why, sizeof why) != 0, "hypercube predicted");
	ck_assert_msg(build_row("CG-1,x,\"GCP a3-megagpu-8g nodes (8x H100)\",16,,,,,,,,,,,\"op="
	                        "all_reduce; size=804 MB; 8 concurrent groups of 2 ranks\",float,,"
	                        "time_us,485000,us,x", &c, why, sizeof why) != 0, "concurrent groups");
	ck_assert_msg(strstr(why, "concurrent") != NULL, "%s", why);
	static const char *const single[] = {"op=all_reduce; collectives run concurrently with compute",
		"op=all_reduce; no other concurrent collectives", "op=all_gather; compared with "
		"all_reduce_perf", "op=all_reduce; process groups: NCCL; concurrent kernels limited"};
	for (size_t i = 0; i < sizeof single / sizeof single[0]; i++) {
		char row[512];
		snprintf(row, sizeof row, "CG-%zu,x,\"2 nodes x 8 H100-SXM5-80GB, 8x 400 Gb/s "
		         "InfiniBand\",16,,,,,,,,,,,\"%s; size=1048576 B\",float,,busbw,20,GB/s,x",
		         i + 2, single[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", single[i], why);
		ck_assert_int_eq(c.coll_op, i == 2 ? COLL_ALL_GATHER : COLL_ALL_REDUCE);   /* i 0, 1, 3 */
		scn_release(&c.s);
	}
	ck_assert_msg(build_row("GDS-1,x,\"2 x GCP a3-megagpu-8g (8x H100), without GPUDirect "
	                        "Storage\",16,,,,,,,,,,,\"op=all_reduce; size=1073741824 B\",float,,"
	                        "busbw,20,GB/s,x", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_GDTCP);
	scn_release(&c.s);
	static const struct { const char *heads; int kv; } kvs[] = {
		{"32 (GQA-8)", 8}, {"32 (MQA)", 1}, {"32 (8 key-value heads)", 8},
		{"32 (4 KV; GQA, not MQA)", 4}, {"32 (MQA disabled)", 32}};
	for (size_t i = 0; i < sizeof kvs / sizeof kvs[0]; i++) {
		char row[512];
		snprintf(row, sizeof row, "KV-%zu,x,\"1 x 8 H100-SXM5-80GB\",8,7,32,4096,\"%s\",4096,64,"
		         "4,1,1,8,,bf16,,tokens_per_s,100000,tokens/s,x", i + 2, kvs[i].heads);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", kvs[i].heads, why);
		ck_assert_msg(c.s.model.kv_heads == kvs[i].kv, "%s: %d", kvs[i].heads, c.s.model.kv_heads);
		scn_release(&c.s);
	}
	/* PyTorch's CPU backend is no NCCL */
	ck_assert_msg(build_row("GLOO-1,x,\"4 x AWS p3.2xlarge (1x V100 16GB each), ENA TCP\",4,,,,,,,,"
	                        ",,,\"op=all_reduce; size=134217728 B; backend=Gloo (CPU tensors)\","
	                        "float,,time_us,327000,us,x", &c, why, sizeof why) != 0, "Gloo predicted");
	ck_assert_msg(strstr(why, "Gloo") != NULL, "%s", why);
}
END_TEST

/* Primus's logged TFLOP/s/GPU is Megatron's model count (no recomputation,
 * attention whole); the paper convention otherwise */
START_TEST(t_primus_tflops)
{
	val_case c;
	char why[256];
	const char *primus = "P-1,\"Primus (AMD-AGI/Primus) log\",\"2 nodes x 8 MI325X\",16,70,80,8192,"
		"64,4096,640,10,1,1,16,fsdp,bf16,full,tflops_per_gpu,786,TFLOP/s/GPU,x";
	ck_assert_msg(build_row(primus, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.metric, VM_MODEL_TFLOPS);
	ck_assert(!c.causal_count);
	scn_release(&c.s);
	const char *paper = "P-2,\"a paper\",\"2 nodes x 8 MI325X\",16,70,80,8192,"
		"64,4096,640,10,1,1,16,fsdp,bf16,full,tflops_per_gpu,786,TFLOP/s/GPU,x";
	ck_assert_msg(build_row(paper, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.metric, VM_HW_TFLOPS);
	scn_release(&c.s);
}
END_TEST


/* Batch 28: NCCL_PROTO forces one protocol (not a list NCCL picks from, an
 * exclusion, or the protocol of a comparison). */
START_TEST(t_blind28)
{
	static const struct { const char *other; int proto; } ps[] = {
		{"NCCL_ALGO=RING; NCCL_PROTO=LL; NCCL 2.29.7", COLL_PROTO_LL},
		{"NCCL_PROTO=LL128", COLL_PROTO_LL128},
		{"proto=Simple; nodes=2", COLL_PROTO_SIMPLE},
		{"NCCL_PROTO=simple", COLL_PROTO_SIMPLE},
		{"NCCL_PROTO=LL,LL128", COLL_PROTO_AUTO},
		{"NCCL_PROTO=^LL128", COLL_PROTO_AUTO},
		{"default protocol, compared to NCCL_PROTO=LL", COLL_PROTO_AUTO},
		{"MY_PROTO=LL", COLL_PROTO_AUTO},
		{"NCCL_PROTO=LL12", COLL_PROTO_AUTO},
		/* the review's: lists with blanks, per-op settings, unset, two settings,
		 * and the spellings with blanks, a colon, backticks or braces */
		{"NCCL_PROTO=LL, LL128", COLL_PROTO_AUTO},
		{"NCCL_PROTO=LL;allreduce:Simple", COLL_PROTO_AUTO},
		{"NCCL_PROTO=LL128 was not set", COLL_PROTO_AUTO},
		{"unset NCCL_PROTO=LL", COLL_PROTO_AUTO},
		{"run 1 NCCL_PROTO=LL; run 2 NCCL_PROTO=Simple", COLL_PROTO_AUTO},
		{"NCCL_PROTO = LL", COLL_PROTO_LL},
		{"NCCL_PROTO: LL128", COLL_PROTO_LL128},
		{"env `NCCL_PROTO=LL`", COLL_PROTO_LL},
		{"env {NCCL_PROTO: Simple}", COLL_PROTO_SIMPLE},
		{"protocol buffers over gRPC", COLL_PROTO_AUTO}};
	for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		char row[512], why[256] = "";
		val_case c;
		snprintf(row, sizeof row, "PR-%zu,x,\"2 nodes x 8 H100-SXM5-80GB, 8x 400 Gb/s InfiniBand\","
		         "16,,,,,,,,,,,\"op=all_reduce; size=1048576 B; %s\",float,,busbw,20,GB/s,x", i,
		         ps[i].other);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", ps[i].other, why);
		ck_assert_msg(c.coll_proto == ps[i].proto, "%s: proto %d", ps[i].other, c.coll_proto);
		scn_release(&c.s);
	}
}
END_TEST

/* The review of session 31's readings: an op spelt with blanks or hyphens is
 * that op, not the rooted gather or reduce; KV heads written "KV heads: 8" or
 * as Hugging Face's key; a number with its unit word after it, or another
 * model's, is no second width; "single-node" denies no concurrent groups. */
START_TEST(t_review32)
{
	static const struct { const char *other, *metric; int op; } ops[] = {
		{"op=all_gather; size=1073741824 B", "All Gather busbw", COLL_ALL_GATHER},
		{"all_gather_perf; size=1073741824 B", "All Gather busbw", COLL_ALL_GATHER},
		{"size=1073741824 B", "Reduce Scatter busbw", COLL_REDUCE_SCATTER},
		{"op: all-gather; size=1073741824 B", "busbw", COLL_ALL_GATHER},
		{"op=reduce-scatter; size=1073741824 B", "busbw", COLL_REDUCE_SCATTER},
		{"op=gather; size=1073741824 B", "busbw", COLL_GATHER},
		{"size=1073741824 B", "overall reduce_scatter busbw", COLL_REDUCE_SCATTER},
		{"size=1073741824 B", "small gather busbw", COLL_GATHER},
		{"size=1073741824 B", "allreduce_busbw", COLL_ALL_REDUCE}};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		char row[512], why[256] = "";
		val_case c;
		snprintf(row, sizeof row, "RV-%zu,x,\"2 nodes x 8 H100-SXM5-80GB, 8x 400 Gb/s InfiniBand\","
		         "16,,,,,,,,,,,\"%s\",float,,%s,300,GB/s,x", i, ops[i].other, ops[i].metric);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", ops[i].other, why);
		ck_assert_msg((int)c.coll_op == ops[i].op, "%s / %s: op %d", ops[i].other,
		              ops[i].metric, (int)c.coll_op);
		scn_release(&c.s);
	}
	static const struct { const char *heads; int kv; } kvs[] = {
		{"32 (KV heads: 8)", 8}, {"32 (KV heads 8)", 8}, {"32 (num_key_value_heads=8)", 8},
		{"32 query heads, KV heads = 8", 8}, {"32 (MHA, no GQA 8)", 32},
		{"32; 70B sibling uses GQA 8", 32}, {"32 (KV heads: 8 in the 70B)", 32},
		{"32 (8 KV heads in the 405B sibling)", 32}, {"32 (8 KV) [70B: 64 (8 KV)]", 8}};
	for (size_t i = 0; i < sizeof kvs / sizeof kvs[0]; i++) {
		char row[512], why[256] = "";
		val_case c;
		snprintf(row, sizeof row, "KV-%zu,x,\"1 x 8 H100-SXM5-80GB\",8,,32,4096,\"%s\",4096,64,1,"
		         "1,1,8,,bf16,,tokens_per_s,100000,tokens/s,x", i, kvs[i].heads);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", kvs[i].heads, why);
		ck_assert_msg(c.s.model.kv_heads == kvs[i].kv, "%s: kv %d", kvs[i].heads,
		              c.s.model.kv_heads);
		scn_release(&c.s);
	}
	static const char *const one[] = {
		"4096 (text model; trained on speech-transcribed 2048-token docs)",
		"4096, visual tokens 576 per image, 2880 tokens total",
		"4096 (2,048 for the 1B; speech model)", "4096 (vision: none; audio: none; 8192 in the 70B)"};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
		char row[512], why[256] = "";
		val_case c;
		snprintf(row, sizeof row, "W-%zu,x,\"1 x 8 H100-SXM5-80GB\",8,,32,\"%s\",32,4096,64,1,"
		         "1,1,8,,bf16,,tokens_per_s,100000,tokens/s,x", i, one[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", one[i], why);
		ck_assert_int_eq(c.s.model.hidden, 4096);
		scn_release(&c.s);
	}
	char why[256] = "";
	val_case c;
	ck_assert_msg(build_row("CG-9,x,\"2 nodes x 8 H100-SXM5-80GB, 8x 400 Gb/s InfiniBand\",16,,,,,"
	                        ",,,,,,\"op=all_reduce; size=1048576 B; 2 concurrent groups of "
	                        "single-node ranks\",float,,busbw,20,GB/s,x", &c, why, sizeof why) != 0,
	              "concurrent groups of single-node ranks predicted as one");
	ck_assert_msg(build_row("CG-10,x,\"2 nodes x 8 H100-SXM5-80GB, 8x 400 Gb/s InfiniBand\",16,,,,,"
	                        ",,,,,,\"op=all_reduce; size=1048576 B; no concurrent groups\",float,,"
	                        "busbw,20,GB/s,x", &c, why, sizeof why) == 0, "%s", why);
	scn_release(&c.s);
}
END_TEST

/* Batch 29: GPUs split into partitions (AMD's CPX, NVIDIA's MIG) are refused,
 * not simulated as that many whole GPUs; "MIG disabled" is a whole GPU. */
START_TEST(t_blind29)
{
	static const struct { const char *hw; bool refused; } cs[] = {
		{"1 node, 8x AMD Instinct MI300X in CPX compute partition + NPS4 = 64 logical GPUs", true},
		{"8x A100-SXM4-80GB, MIG 7 x 1g.10gb instances", true},
		{"8x A100-SXM4-80GB, MIG disabled", false},
		{"8x AMD Instinct MI300X (SPX mode)", false},
		{"8x A100-SXM4-80GB (MIG-capable)", false},
		{"8x A100-SXM4-80GB, MIG capable, disabled", false},
		{"8x AMD Instinct MI300X, CPX mode", true},
		{"8x A100-SXM4-80GB as 3g.40gb instances", true}};
	for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		char row[512], why[256] = "";
		val_case c;
		snprintf(row, sizeof row, "CPX-%zu,x,\"%s\",8,,,,,,,,,,,\"op=all_reduce; size=1048576 B\","
		         "float,,busbw,20,GB/s,x", i, cs[i].hw);
		int rc = build_row(row, &c, why, sizeof why);
		ck_assert_msg((rc != 0) == cs[i].refused, "%s: %s", cs[i].hw, why);
		if (rc == 0)
			scn_release(&c.s);
		else
			ck_assert_msg(strstr(why, "partitions") != NULL, "%s", why);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("validate_text");
	TCase *tc = tcase_create("words");
	tcase_add_test(tc, t_sp_negations);
	tcase_add_test(tc, t_count_cells_read_whole);
	tcase_add_test(tc, t_recompute_cells);
	tcase_add_test(tc, t_gradient_sync);
	tcase_add_test(tc, t_zero_group);
	tcase_add_test(tc, t_batch_cells);
	tcase_add_test(tc, t_peak_precision);
	tcase_add_test(tc, t_third_review_hardware);
	tcase_add_test(tc, t_third_review_words);
	tcase_add_test(tc, t_third_review_moe);
	tcase_add_test(tc, t_more_families);
	tcase_add_test(tc, t_fourth_review_hardware);
	tcase_add_test(tc, t_fourth_review_layout);
	tcase_add_test(tc, t_fourth_review_models);
	tcase_add_test(tc, t_recompute_share);
	tcase_add_test(tc, t_fifth_review);
	tcase_add_test(tc, t_fifth_review_refused);
	tcase_add_test(tc, t_reader_regressions);
	tcase_add_test(tc, t_sixth_review);
	tcase_add_test(tc, t_seventh_review);
	tcase_add_test(tc, t_run_together);
	tcase_add_test(tc, t_batch_in_text);
	tcase_add_test(tc, t_layout_words);
	tcase_add_test(tc, t_precision_words);
	tcase_add_test(tc, t_hardware_words);
	tcase_add_test(tc, t_model_words);
	tcase_add_test(tc, t_cells_and_headers);
	tcase_add_test(tc, t_second_review);
	tcase_add_test(tc, t_second_review_metrics);
	tcase_add_test(tc, t_paraphrases);
	tcase_add_test(tc, t_blind11);
	tcase_add_test(tc, t_blind12);
	tcase_add_test(tc, t_pipeline_split);
	tcase_add_test(tc, t_blind14);
	tcase_add_test(tc, t_blind15);
	tcase_add_test(tc, t_blind15_review);
	tcase_add_test(tc, t_blind16);
	tcase_add_test(tc, t_blind17);
	tcase_add_test(tc, t_blind17_review);
	tcase_add_test(tc, t_blind18);
	tcase_add_test(tc, t_blind18_review);
	tcase_add_test(tc, t_blind18_review2);
	tcase_add_test(tc, t_blind19);
	tcase_add_test(tc, t_blind20);
	tcase_add_test(tc, t_blind20_review);
	tcase_add_test(tc, t_blind21);
	tcase_add_test(tc, t_blind22);
	tcase_add_test(tc, t_blind23);
	tcase_add_test(tc, t_fused_loss_reading);
	tcase_add_test(tc, t_blind24);
	tcase_add_test(tc, t_power_limit_read);
	tcase_add_test(tc, t_deepep_read);
	tcase_add_test(tc, t_blind26_sockets);
	tcase_add_test(tc, t_primus_tflops);
	tcase_add_test(tc, t_abci_nodes);
	tcase_add_test(tc, t_gather_refused);
	tcase_add_test(tc, t_blind27);
	tcase_add_test(tc, t_blind28);
	tcase_add_test(tc, t_review32);
	tcase_add_test(tc, t_blind29);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
