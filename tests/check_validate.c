/* check_validate.c: published.csv read and turned into scenarios: quoting,
 * hardware read from free text, layouts (interleaving, SP, ZeRO, recompute),
 * units, the publication's FLOP conventions, and the reasons rows are not
 * simulated. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "coll.h"
#include "scn.h"
#include "step.h"
#include "val_test.h"
#include "validate.h"
#include "workload.h"

static val_row *rows;
static size_t nrows;

static void load(void)
{
	const char *top = getenv("top_srcdir");
	char path[512], err[512];
	snprintf(path, sizeof path, "%s/tests/validation/published.csv", top ? top : ".");
	ck_assert_msg(val_read(path, &rows, &nrows, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_gt(nrows, 200);
}

static void unload(void)
{
	free(rows);
	rows = NULL;
}

static const val_row *row(const char *id)
{
	for (size_t i = 0; i < nrows; i++)
		if (!strcmp(rows[i].id, id))
			return &rows[i];
	ck_abort_msg("row %s not in published.csv", id);
	return NULL;
}

START_TEST(t_csv_quoting)
{
	const char *text = "id,source,hardware,gpus,metric,value,unit\n"
	                   "X-001,\"a, \"\"quoted\"\" source\",\"DGX A100 (8x A100,\nNVLink)\",16,mfu,51.4,%\n"
	                   "\n"
	                   "X-002,s,,,iteration_time,,s\n";
	val_row *r;
	size_t n;
	char err[256];
	ck_assert_int_eq(val_parse(text, "t.csv", &r, &n, err, sizeof err), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(r[0].source, "a, \"quoted\" source");
	ck_assert_str_eq(r[0].hardware, "DGX A100 (8x A100,\nNVLink)");
	ck_assert_str_eq(r[0].family, "X");
	ck_assert_int_eq(r[0].gpus, 16);
	ck_assert(r[0].has_value);
	ck_assert_double_eq_tol(r[0].value, 51.4, 1e-12);
	ck_assert(!r[1].has_value);
	ck_assert_int_eq(r[1].layers, 0);
	free(r);
	/* a spreadsheet's byte-order mark, CRLF lines, blanks and capitals in the
	 * header: the same columns */
	const char *bom = "\xef\xbb\xbfID, Source ,gpus,Metric,value,unit\r\n"
	                  "X-003,s,8,iteration_time,1.5,s\r\n";
	ck_assert_int_eq(val_parse(bom, "t.csv", &r, &n, err, sizeof err), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(r[0].id, "X-003");
	ck_assert_str_eq(r[0].source, "s");
	ck_assert_str_eq(r[0].metric, "iteration_time");
	ck_assert_double_eq(r[0].value, 1.5);
	free(r);
	ck_assert_int_eq(val_parse("id,metric,value\n\"open", "t.csv", &r, &n, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "unterminated"));
	ck_assert_int_eq(val_parse("a,b\n", "t.csv", &r, &n, err, sizeof err), -1);
	/* what a file must not hold, refused where it is (a robustness review
	 * of the twentieth session): each with its line and column */
	static const struct { const char *text, *want; } bad[] = {
		{"id,metric,value,value\nX-1,mfu,40,50\n", "'value' appears twice (columns 3 and 4)"},
		{"id,metric,value\nX-1,\"mf\"u\"x,40\n", "t.csv:2:10: a quote after a closing quote"},
		{"id,metric,value\nX\x1b[31m-1,mfu,40\n", "t.csv:2:2: a control character (0x1b)"},
		{"id,metric,value\nX\xc3(-1,mfu,40\n", "t.csv:2:2: a byte that is not UTF-8"},
		{"# a comment\n# another\nid,metrc,value\n", "t.csv:3: the header has no 'metric'"},
		{"id,metric,value\nX-0123456789012345678901234567890123456789012345678901234567890"
		 "1234567890123456789,mfu,40\n", "t.csv:2: the id is longer than 79 characters"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(val_parse(bad[i].text, "t.csv", &r, &n, err, sizeof err), -1);
		ck_assert_msg(strstr(err, bad[i].want), "%s: '%s'", bad[i].want, err);
	}
	/* a NUL ends the text early: the file is refused, not cut */
	char path[] = "/tmp/trainsim-nulXXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	static const char nul[] = "id,metric,value\nX-1,mfu,40\nX-2,m\0fu,40\n";
	ck_assert(write(fd, nul, sizeof nul - 1) == (ssize_t)(sizeof nul - 1));
	close(fd);
	ck_assert_int_eq(val_read(path, &r, &n, err, sizeof err), -1);
	unlink(path);
	ck_assert_msg(strstr(err, ":3:6: a NUL byte"), "%s", err);
	/* a directory: the reason, not "read error" */
	ck_assert_int_eq(val_read("/", &r, &n, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "directory"), "%s", err);
}
END_TEST

/* Power-capped GPUs are flagged (predicted at full power), others not */
START_TEST(t_power_cap)
{
	static const struct { const char *hw; bool capped; } cases[] = {
		{"\"H100 96GB HBM2e, default 500W power limit (not 700W TDP)\"", true},
		{"8x B200 power limited", true}, {"H100 SXM lower-TDP variant", true},
		{"8x A100-SXM4-80GB NVLink3", false}, {"DGX H100 (700 W)", false},
		{"H100 SXM no power cap", false}, {"\"H100, power limit 700 W (default, uncapped)\"", false},
		{"H100 power-limit unchanged", false}, {"H100 SXM (not the lower-TDP H100 NVL)", false}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[1024], err[256];
		snprintf(text, sizeof text, HEADER "P-%03zu,x,%s,8,,,,,,,,,,,,,,gemm_bf16_8192^3,700,"
			 "TFLOP/s,x\n", i, cases[i].hw);
		val_row *r;
		size_t nr;
		ck_assert_msg(val_parse(text, "t.csv", &r, &nr, err, sizeof err) == 0, "%s", err);
		ck_assert_msg(val_power_capped(&r[0]) == cases[i].capped, "%s", cases[i].hw);
		free(r);
	}
}
END_TEST

/* A row whose layout the scenario loader would refuse is refused with the
 * loader's reason, before anything is simulated (found by fuzz_validate: a
 * row with 99 heads on TP4 was simulated); "interleaved" in a row with pp 1
 * describes the code, not the run, and is not a schedule. */
START_TEST(t_unrunnable_rows)
{
	val_case c;
	char why[256];
	ck_assert_int_lt(build_row("U-001,x,DGX H100,32,7,32,4096,99,4096,128,1,4,1,8,NeMo,bf16,,"
	                           "tokens_per_sec_per_gpu,1000,tokens/s/GPU,x", &c, why,
	                           sizeof why), 0);
	ck_assert_msg(strstr(why, "not one trainsim runs") && strstr(why, "divisible by tp"),
	              "%s", why);
	ck_assert_int_lt(build_row("U-002,x,DGX A100,16,1,2,2048,16,2048,12,1,1,1,16,,bf16,none,"
	                           "iteration_time,1,s,x", &c, why, sizeof why), 0);
	ck_assert_msg(strstr(why, "global_batch"), "%s", why);
	ck_assert_int_eq(build_row("U-003,x,DGX A100,16,1,2,2048,16,2048,16,1,1,1,16,"
	                           "interleaved,bf16,none,iteration_time,1,s,x", &c, why,
	                           sizeof why), 0);
	ck_assert_int_eq(c.s.training.virtual_stages, 1);
	ck_assert_int_ne(c.s.training.schedule, SCHED_INTERLEAVED);
	scn_release(&c.s);
	/* a V100 row that names no precision, or only "mixed": fp16 (it has no
	 * bf16); one that says bf16 is refused with the loader's reason */
	static const char *const mixed[] = {"", "mixed precision", "AMP"};
	for (size_t i = 0; i < 3; i++) {
		char row[256];
		snprintf(row, sizeof row, "U-1%02zu,x,DGX-1 V100,8,1,2,2048,16,2048,64,8,1,1,8,,%s,"
		         "none,iteration_time,1,s,x", i, mixed[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", mixed[i], why);
		ck_assert_int_eq(c.s.training.precision, PREC_FP16);
		scn_release(&c.s);
	}
	ck_assert_int_lt(build_row("U-110,x,DGX-1 V100,8,1,2,2048,16,2048,64,8,1,1,8,,bf16,none,"
	                           "iteration_time,1,s,x", &c, why, sizeof why), 0);
	ck_assert_msg(strstr(why, "no bf16 peak"), "%s", why);
}
END_TEST

/* A kernel row's type is the first type token of its name; types without
 * a catalog peak (fp4, int8, fp64, tf32 on a V100) are refused; free text
 * says selective checkpointing only as checkpointing ("SWA on every other
 * layer" is attention, not recomputation) */
START_TEST(t_kernel_types)
{
	val_case c;
	char why[256];
	ck_assert_int_eq(build_row("K-001,x,H100-SXM5-80GB,1,,,,,,,,,,,,,,gemm_fp16_fp32acc_8192^3,"
	                           "600,TFLOP/s,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.precision, PREC_FP16);
	ck_assert_int_eq(build_row("K-002,x,A100-SXM4-80GB,1,,,,,,,,,,,,,,gemm_tf32_8192^3,"
	                           "140,TFLOP/s,x", &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.precision, PREC_TF32);
	/* fp4 GEMMs where the GPU has an fp4 peak (Blackwell) */
	ck_assert_int_eq(build_row("K-003,x,B200,1,,,,,,,,,,,,,,gemm_nvfp4_8192^3,7000,TFLOP/s,x",
	                           &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.precision, PREC_FP4);
	scn_release(&c.s);
	static const char *const refused[] = {"V100-SXM2-32GB,1,,,,,,,,,,,,,,gemm_tf32_8192^3",
		"H100-SXM5-80GB,1,,,,,,,,,,,,,,gemm_fp64_8192^3",
		"H100-SXM5-80GB,1,,,,,,,,,,,,,,gemm_int8_8192^3",
		"H100-SXM5-80GB,1,,,,,,,,,,,,,,gemm_nvfp4_8192^3",
		"B200,1,,,,,,,,,,,,,,gemm_fp6_8192^3"};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		char row[256];
		snprintf(row, sizeof row, "K-1%02zu,x,%s,100,TFLOP/s,x", i, refused[i]);
		ck_assert_msg(build_row(row, &c, why, sizeof why) < 0, "%s", refused[i]);
	}
	ck_assert_int_eq(build_row("K-200,x,A100-SXM4-80GB,8,1,8,2048,16,2048,8,1,1,1,8,"
	                           "\"SWA 128 on every other layer\",bf16,none,iteration_time,1,s,x",
	                           &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_NONE);
	ck_assert_int_eq(build_row("K-201,x,A100-SXM4-80GB,8,1,8,2048,16,2048,8,1,1,1,8,"
	                           "\"FSDP2; op SAC\",bf16,,iteration_time,1,s,x", &c, why,
	                           sizeof why), 0);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_FULL);
	ck_assert_int_eq(c.s.training.recompute_layers, 4);
}
END_TEST

/* MEG21T1-021: 76B on 1024 A100 (128 DGX A100), TP8 PP4 DP32, 5 layers per
 * virtual stage of 60 layers on 4 stages -> 3 chunks, local DDP, fp16. */
START_TEST(t_megatron_row)
{
	val_case c;
	char why[256];
	ck_assert_int_eq(val_build(row("MEG21T1-021"), &c, why, sizeof why), 0);
	const scenario *s = &c.s;
	ck_assert_str_eq(s->cluster.gpu.name, "A100-SXM4-80GB");
	ck_assert_int_eq(s->cluster.gpus_per_node, 8);
	ck_assert_int_eq(s->cluster.nodes, 128);
	ck_assert_int_eq(s->cluster.nic.count, 8);
	ck_assert_double_eq_tol(s->cluster.nic.speed_Bps, 25e9, 1);
	ck_assert_int_eq(s->cluster.nic.transport, TRANSPORT_RDMA);
	ck_assert_int_eq(s->training.tp, 8);
	ck_assert_int_eq(s->training.pp, 4);
	ck_assert_int_eq(s->training.dp, 32);
	ck_assert_int_eq(s->training.virtual_stages, 3);
	ck_assert_int_eq(s->training.schedule, SCHED_INTERLEAVED);
	ck_assert_int_eq(s->training.recompute, RECOMPUTE_FULL);
	ck_assert_int_eq(s->training.precision, PREC_FP16);
	ck_assert_int_eq(s->training.grad_reduce.dtype, PREC_FP16);
	ck_assert(!s->training.grad_reduce.overlap);
	ck_assert(!s->training.sequence_parallel);
	ck_assert_int_eq(s->model.vocab, 51200);
	ck_assert_int_eq(c.metric, VM_HW_TFLOPS);
	ck_assert_double_eq_tol(c.published_si, 140e12, 1);
	ck_assert(!c.assumed);
	/* DDP=torch rows overlap the gradient all-reduce with the backward */
	ck_assert_int_eq(val_build(row("MEG21T1-001"), &c, why, sizeof why), 0);
	ck_assert(c.s.training.grad_reduce.overlap);
	ck_assert_int_eq(c.s.cluster.nodes, 4);
}
END_TEST

/* The derived iteration times of MEG21T1 are the paper formula (96 B s l h^2
 * (1 + s/6h + V/16lh)) over n x TFLOP/s: our convention reproduces them. */
START_TEST(t_paper_convention)
{
	static const char *pairs[][2] = {{"MEG21T1-001", "MEG21T1-004"}, {"MEG21T1-025", "MEG21T1-028"},
	                                 {"MEG21T1-037", "MEG21T1-040"}};
	for (int i = 0; i < 3; i++) {
		val_case tf, it;
		char why[256];
		ck_assert_int_eq(val_build(row(pairs[i][0]), &tf, why, sizeof why), 0);
		ck_assert_int_eq(val_build(row(pairs[i][1]), &it, why, sizeof why), 0);
		ck_assert_int_eq(it.metric, VM_ITER_TIME);
		double flops = wl_paper_hw_flops_per_seq(&tf.s.model, RECOMPUTE_FULL) *
		               tf.s.training.global_batch;
		double t = flops / (tf.published_si * scn_gpus(&tf.s));
		ck_assert_double_eq_tol(t / it.published_si, 1.0, 0.01);
	}
}
END_TEST

START_TEST(t_korthikanti_rows)
{
	val_case c;
	char why[256];
	ck_assert_int_eq(val_build(row("KOR22-006"), &c, why, sizeof why), 0);
	ck_assert(c.s.training.sequence_parallel);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_SELECTIVE);
	ck_assert_int_eq(c.s.training.virtual_stages, 3);
	ck_assert_int_eq(c.s.training.precision, PREC_BF16);
	ck_assert_int_eq(c.s.training.grad_reduce.dtype, PREC_FP32);
	ck_assert_int_eq(c.metric, VM_MFU);
	ck_assert_double_eq_tol(c.published_si, 51.4, 1e-9);
	ck_assert_int_eq(val_build(row("KOR22-008"), &c, why, sizeof why), 0);
	ck_assert(!c.s.training.sequence_parallel);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_FULL);
	ck_assert_int_eq(val_build(row("KOR22-010"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_RECOMPUTE_GAIN);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_SELECTIVE);
	/* KOR22L: one layer, per-layer times in ms */
	ck_assert_int_eq(val_build(row("KOR22L-008"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_LAYER_BWD);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_FULL);
	ck_assert_double_eq_tol(c.published_si, 19.5e-3, 1e-12);
	ck_assert_int_eq(val_build(row("KOR22L-004"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_NONE);
	ck_assert(c.s.training.sequence_parallel);
}
END_TEST

/* Other hardware read from text: BLOOM's Jean Zay (4 x 100 Gb/s OmniPath,
 * ZeRO-1, its 250880 vocabulary), a DGX-2 V100 with inferred batch. */
/* A 16-GPU iteration-time row whose hardware text is `hw`, in `prec`. */
static int build_hw_row(size_t i, const char *hw, const char *prec, val_case *c, char *why,
                        size_t n)
{
	char r[256];
	snprintf(r, sizeof r, "X-%03zu,x,\"%s\",16,1,2,2048,16,2048,16,1,1,1,16,,%s,none,"
		 "iteration_time,1,s,x", i, hw, prec);
	return build_row(r, c, why, n);
}

START_TEST(t_other_hardware)
{
	val_case c;
	char why[256];
	ck_assert_int_eq(val_build(row("BLOOM-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nic.count, 4);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 100e9 / 8, 1);
	ck_assert_int_eq(c.s.cluster.nodes, 48);
	ck_assert_int_eq(c.s.training.zero, 1);
	ck_assert_int_eq(c.s.model.vocab, 250880);
	ck_assert(!c.s.training.sequence_parallel);   /* "DeepSpeed" is not "SP" */
	ck_assert_int_eq(val_build(row("BLOOM-004"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_CKPT_SIZE);
	ck_assert_double_eq_tol(c.published_si, 2.3e12, 1);

	ck_assert_int_eq(val_build(row("MEG20-001"), &c, why, sizeof why), 0);
	ck_assert_str_eq(c.s.cluster.gpu.name, "V100-SXM2-32GB");
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 1);
	ck_assert_int_eq(c.s.training.micro_batch, 8);
	ck_assert(c.assumed);
	ck_assert_int_eq(c.metric, VM_ITER_TIME);
	ck_assert_double_eq_tol(c.published_si, 1.121, 1e-12);
	ck_assert_int_eq(val_build(row("MEG20-025"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nodes, 16);
	ck_assert_int_eq(c.s.cluster.nic.count, 8);
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 25e9, 1);

	ck_assert_int_eq(val_build(row("HW-AZ-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_GEMM);
	ck_assert_double_eq_tol(c.gemm_k, 16384, 1e-9);
	ck_assert(c.param_source);

	/* export parts with fewer NVLink links, and a GPU without NVLink */
	static const struct { const char *hw, *gpu; double nvlink; int intra; } parts[] = {
		{"8x A800 80GB SXM, 4x200G IB", "A800-SXM4-80GB", 200e9, INTRA_NVSWITCH},
		{"8x H800 80GB SXM, 8x400G IB", "H800-SXM5-80GB", 200e9, INTRA_NVSWITCH},
		{"8x L40S, 2x 100GbE", "L40S", 0, INTRA_PCIE},
		/* the 40 GB A100 however the capacity is written */
		{"A100 SXM4 40 GB", "A100-SXM4-40GB", 300e9, INTRA_NVSWITCH},
		{"DGX A100 320GB", "A100-SXM4-40GB", 300e9, INTRA_NVSWITCH}};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		ck_assert_msg(build_hw_row(i, parts[i].hw, "bf16", &c, why, sizeof why) == 0, "%s: %s",
			      parts[i].hw, why);
		ck_assert_str_eq(c.s.cluster.gpu.name, parts[i].gpu);
		ck_assert_double_eq_tol(c.s.cluster.gpu.nvlink_Bps, parts[i].nvlink, 1);
		ck_assert_int_eq(c.s.cluster.intra.kind, parts[i].intra);
		val_cache *cache = val_cache_new();
		double t;
		ck_assert_msg(val_predict(&c, cache, &t, why, sizeof why) == 0, "%s", why);
		ck_assert(t > 0);
		val_cache_free(cache);
	}
	/* only the architecture named: its datacenter part, inferred; a
	 * workstation card of the generation is not read as it */
	static const struct { const char *hw, *gpu; } gens[] = {
		{"NVIDIA Ampere GPUs (8 GPU/server), eight 200G NICs", "A100-SXM4-80GB"},
		{"Hopper GPUs, 8x400G IB", "H100-SXM5-80GB"},
		{"NVIDIA Grace Hopper superchips", "GH200-96GB"},
		{"16 Volta GPUs", "V100-SXM2-32GB"},
		{"Blackwell Ultra GPUs", "B300"},
		{"NVIDIA Hopper GPUs with DCGM monitoring", "H100-SXM5-80GB"},
		{"8x Hopper PCIe cards", "H100-PCIE-80GB"},
		{"Ampere GPUs, 40GB", "A100-SXM4-40GB"}};
	for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++) {
		ck_assert_msg(build_hw_row(i, gens[i].hw, "fp16", &c, why, sizeof why) == 0, "%s: %s",
			      gens[i].hw, why);
		ck_assert_str_eq(c.s.cluster.gpu.name, gens[i].gpu);
		ck_assert(c.assumed);
	}
	ck_assert_int_ne(build_hw_row(9, "RTX A5000 (Ampere)", "bf16", &c, why, sizeof why), 0);
	ck_assert_int_ne(build_hw_row(9, "Ampere Altra host, 8 x Intel Gaudi2", "bf16", &c, why,
	                              sizeof why), 0);
	ck_assert_int_ne(build_hw_row(9, "NVIDIA Ampere A2", "bf16", &c, why, sizeof why), 0);
	ck_assert_int_eq(build_hw_row(10, "8x A100 40GB (Ampere)", "bf16", &c, why, sizeof why), 0);
	ck_assert_str_eq(c.s.cluster.gpu.name, "A100-SXM4-40GB");
	/* GB200 NVL72: 128 GPUs make nodes of 64 (the largest size dividing the
	 * job), one NIC per GPU */
	ck_assert_msg(build_row("G-001,x,\"DGX-GB200 (GB200 NVL72)\",128,1,2,2048,16,2048,128,1,1,1,"
	                        "128,,bf16,none,iteration_time,1,s,x", &c, why, sizeof why) == 0,
	              "%s", why);
	ck_assert_str_eq(c.s.cluster.gpu.name, "GB200");
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 64);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	ck_assert_int_eq(c.s.cluster.nic.count, 64);
}
END_TEST

/* The parts beyond the DGX ones: a token that starts another part's name
 * reads only that part (H200 / H20, A100 / A10G / A10, MI250X / MI250, "H100
 * NVLink" / H100 NVL), the cut-down names ("L4", "A40", "T4") only when
 * delimited; the node's NIC speed when the text gives none. */
START_TEST(t_new_part_tokens)
{
	static const struct {
		const char *hw, *gpu;   /* gpu NULL: no known GPU */
		const char *prec;
		int gpn, nics;
		double gbps;
		int intra;
	} cases[] = {
		{"AWS g5.48xlarge: 8x A10G, 1x 100 Gbps ENA (TCP)", "A10G", "bf16", 8, 1, 100,
		 INTRA_PCIE},
		{"8x NVIDIA A10 24GB", "A10", "bf16", 8, 8, 100, INTRA_PCIE},
		{"AWS g6.48xlarge (8x L4), 100 Gbps TCP", "L4", "bf16", 8, 1, 100, INTRA_PCIE},
		{"8x L4 24GB", "L4", "bf16", 8, 8, 100, INTRA_PCIE},
		{"AWS g4dn.metal: 8x NVIDIA T4, 100 Gbps TCP", "T4", "fp16", 8, 1, 100, INTRA_PCIE},
		{"4xT4 16GB, 50 Gbps TCP", "T4", "fp16", 4, 1, 50, INTRA_PCIE},
		{"8x A40, HDR IB", "A40", "bf16", 8, 8, 200, INTRA_PCIE},
		{"8x RTX A6000 48GB", "RTX-A6000", "bf16", 8, 8, 100, INTRA_PCIE},
		{"HGX H20 (8x H20 96GB NVLink)", "H20-96GB", "bf16", 8, 8, 400, INTRA_NVSWITCH},
		{"8x H100 NVL 94GB, PCIe Gen5", "H100-NVL-94GB", "bf16", 8, 8, 400, INTRA_PCIE},
		/* Meta's Grand Teton SXM H100 with HBM2e; the PCIe card's HBM2e stays PCIe */
		{"H100 96GB HBM2e (2.4 TB/s), 500W power limit; 8 GPU/host NVLink",
		 "H100-HBM2E-96GB", "bf16", 8, 8, 400, INTRA_NVSWITCH},
		{"H100 94/95GB HBM2e, lower-TDP SXM variant", "H100-HBM2E-96GB", "bf16", 8, 8, 400,
		 INTRA_NVSWITCH},
		{"8x H100 PCIe 80GB HBM2e", "H100-PCIE-80GB", "bf16", 8, 8, 400, INTRA_PCIE},
		{"H100 94GB HBM2e", "H100-HBM2E-96GB", "bf16", 8, 8, 400, INTRA_NVSWITCH},
		/* Blackwell Ultra: 800 Gb/s ConnectX-8 per GPU; "GB300" is not a B300 node */
		{"DGX B300", "B300", "bf16", 8, 8, 800, INTRA_NVSWITCH},
		{"8x B300 SXM", "B300", "bf16", 8, 8, 800, INTRA_NVSWITCH},
		{"GB300 NVL72", "GB300", "bf16", 16, 16, 800, INTRA_NVSWITCH},   /* 16 GPUs of a domain of 72 */
		/* HBM2e said of something else, or no HBM2e size: not the part */
		{"H100 80GB HBM2e", "H100-SXM5-80GB", "bf16", 8, 8, 400, INTRA_NVSWITCH},
		{"DGX H100 (its A100 baseline had HBM2e)", "H100-SXM5-80GB", "bf16", 8, 8, 400,
		 INTRA_NVSWITCH},
		{"8x H100 NVL 94GB HBM3, PCIe Gen5", "H100-NVL-94GB", "bf16", 8, 8, 400, INTRA_PCIE},
		{"H100 NVLink4 (450 GB/s line rate/dir)", "H100-SXM5-80GB", "bf16", 8, 8, 400,
		 INTRA_NVSWITCH},
		/* a DGX-1 joins its V100s by the hybrid cube mesh, whatever their memory */
		{"DGX-1 (8x V100 16GB SXM2), 4x 100Gb/s EDR IB", "V100-SXM2-16GB", "fp16", 8, 4, 100,
		 INTRA_NVLINK_MESH},
		{"8x V100 PCIe 32GB, 100GbE", "V100-PCIE-32GB", "fp16", 8, 1, 100, INTRA_PCIE},
		{"Frontier: 8 GPU/node (4x MI250X, 8 GCDs), 4x 200Gb/s Slingshot", "MI250X-GCD",
		 "bf16", 8, 4, 200, INTRA_NVSWITCH},
		{"LUMI-G, 8 GPU/node AMD MI250X", "MI250X-GCD", "bf16", 8, 8, 200, INTRA_NVSWITCH},
		{"8 GPU/node MI250", "MI250-GCD", "bf16", 8, 8, 200, INTRA_NVSWITCH},
		{"8x MI325X", "MI325X", "bf16", 8, 8, 400, INTRA_NVSWITCH},
		{"8x AMD Instinct MI355X, 8x 400G Pollara", "MI355X", "bf16", 8, 8, 400,
		 INTRA_NVSWITCH},
		{"MI350X", "MI350X", "bf16", 8, 8, 400, INTRA_NVSWITCH},
		/* the short names alone, at the ends of the text */
		{"T4", "T4", "fp16", 8, 8, 100, INTRA_PCIE},
		{"A40", "A40", "bf16", 8, 8, 100, INTRA_PCIE},
		{"8xL4", "L4", "bf16", 8, 8, 100, INTRA_PCIE},
		/* GeForce and workstation cards: PCIe boxes; the part named first,
		 * not another of the same word ("RTX") */
		{"8x RTX 4090", "RTX-4090", "bf16", 8, 8, 100, INTRA_PCIE},
		{"8x GeForce RTX 5090 (plus 1x RTX PRO 6000 not used)", "RTX-5090", "bf16", 8, 8, 100,
		 INTRA_PCIE},
		{"8x RTX PRO 6000 Blackwell Server Edition", "RTX-PRO-6000-SERVER", "bf16", 8, 8, 100,
		 INTRA_PCIE},
		{"4x RTX PRO 6000 Blackwell Workstation", "RTX-PRO-6000", "bf16", 4, 4, 100, INTRA_PCIE},
		{"8x RTX 6000 Ada Generation", "RTX-6000-ADA", "bf16", 8, 8, 100, INTRA_PCIE},
		{"4x RTX 3090", "RTX-3090", "bf16", 4, 4, 100, INTRA_PCIE},
		{"2x RTX 2080 Ti 11GB", "RTX-2080-TI", "fp16", 2, 2, 100, INTRA_PCIE},
		{"8x Quadro RTX 8000", "QUADRO-RTX-8000", "fp16", 8, 8, 100, INTRA_PCIE},
		{"8x A30 24GB", "A30", "bf16", 8, 8, 100, INTRA_PCIE},
		/* systems and instances that name no GPU; EFA rates are the instance's */
		{"Selene", "A100-SXM4-80GB", "bf16", 8, 8, 200, INTRA_NVSWITCH},
		{"Azure ND96asr_v4", "A100-SXM4-40GB", "bf16", 8, 8, 200, INTRA_NVSWITCH},
		{"AWS p4d.24xlarge", "A100-SXM4-40GB", "bf16", 8, 8, 50, INTRA_NVSWITCH},
		{"AWS p4d.24xlarge (8x A100 40GB, 400 Gbps EFA)", "A100-SXM4-40GB", "bf16", 8, 8, 50,
		 INTRA_NVSWITCH},
		{"AWS p5.48xlarge (8x H100, 3200 Gbps EFA)", "H100-SXM5-80GB", "bf16", 8, 8, 400,
		 INTRA_NVSWITCH},
		{"p5en.48xlarge", "H200-SXM-141GB", "bf16", 8, 8, 400, INTRA_NVSWITCH},
		{"8x H100, 4x 100 Gbps EFA", "H100-SXM5-80GB", "bf16", 8, 4, 100, INTRA_NVSWITCH},
		{"8x H100, 800 Gb/s per node", "H100-SXM5-80GB", "bf16", 8, 8, 100, INTRA_NVSWITCH},
		/* parts not in the catalog are not read as their prefix's */
		{"8x L40 48GB", NULL, "bf16", 0, 0, 0, 0},
		{"TPU v4-512", NULL, "bf16", 0, 0, 0, 0},
		{"8x RTX 4090D", NULL, "bf16", 0, 0, 0, 0},
		{"8x RTX 6000D", NULL, "bf16", 0, 0, 0, 0},
		{"8x RTX 5880 Ada", NULL, "bf16", 0, 0, 0, 0},
		{"2 x NVIDIA DGX Spark (GB10 Grace Blackwell)", NULL, "bf16", 0, 0, 0, 0},
		{"GB10 Grace Blackwell superchip", NULL, "bf16", 0, 0, 0, 0},
		{"8x RTX A4000", NULL, "bf16", 0, 0, 0, 0},
		{"Jetson, INT4 inference", NULL, "bf16", 0, 0, 0, 0},
		{"8x INT4-capable cards", NULL, "bf16", 0, 0, 0, 0},
		{"8x B300A", NULL, "bf16", 0, 0, 0, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[512], why[256];
		snprintf(row, sizeof row, "P-%03zu,x,\"%s\",16,1,2,2048,16,2048,16,1,1,1,16,,%s,none,"
			 "iteration_time,1,s,x", i, cases[i].hw, cases[i].prec);
		val_case c;
		int rc = build_row(row, &c, why, sizeof why);
		if (!cases[i].gpu) {
			ck_assert_msg(rc < 0, "%s: read as %s", cases[i].hw, c.s.cluster.gpu.name);
			ck_assert_msg(strstr(why, "no GPU of the catalog") || strstr(why, "TPU") ||
			              strstr(why, "which the catalog does not have"), "%s: %s",
			              cases[i].hw, why);
			continue;
		}
		ck_assert_msg(rc == 0, "%s: %s", cases[i].hw, why);
		ck_assert_str_eq(c.s.cluster.gpu.name, cases[i].gpu);
		ck_assert_msg(c.s.cluster.gpus_per_node == cases[i].gpn, "%s: %d GPUs/node",
		              cases[i].hw, c.s.cluster.gpus_per_node);
		ck_assert_msg(c.s.cluster.nic.count == cases[i].nics, "%s: %d NICs", cases[i].hw,
		              c.s.cluster.nic.count);
		ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, cases[i].gbps * 1e9 / 8, 1);
		ck_assert_int_eq(c.s.cluster.intra.kind, cases[i].intra);
	}
}
END_TEST

/* Line rates written with a blank or as Ethernet ("4x 100 Gbps EFA",
 * "2x 100GbE"): before, a blank before Gbps lost the rate and the count,
 * and GbE was not read at all (8 x 200 Gb/s was assumed). */
START_TEST(t_nic_text)
{
	static const struct {
		const char *hw;
		int count;
		double gbps;
		bool tcp;
	} cases[] = {
		{"AWS p4d.24xlarge: 8x A100 40GB, 4x 100 Gbps EFA", 4, 100, false},
		{"8x H100, 4x 200 Gbps NIC", 4, 200, false},
		{"8x L40S, 2x 100GbE", 2, 100, true},
		{"A100 PCIe 80GB, 100GbE", 1, 100, true},
		{"DGX A100 (8x200Gb/s HDR)", 8, 200, false},
		{"DGX H100", 8, 400, false},
		/* a memory size or a GPU link rate is not the NIC's; RoCE is RDMA */
		{"A100 80 Gb HBM2e, 8x HDR IB", 8, 200, false},
		{"A100 (NVLink 4800 Gb/s per GPU), 8x HDR 200Gb/s IB", 8, 200, false},
		{"A100 8x 400GbE RoCE", 8, 400, false},
		/* a count per GPU multiplies by the node's GPUs (the row's 16 GPUs
		 * are one NVL72 domain); bandwidth quoted per GPU elsewhere does not */
		{"GB200 NVL72 trays, 1x400Gb/s NDR IB per GPU", 16, 400, false},
		{"H100 (NVLink4 900 GB/s per GPU); 4x400Gb/s NDR IB per node", 4, 400, false},
		{"8x H100 80GB/GPU; 4x400Gb/s NDR IB", 4, 400, false},
		/* a node's aggregate in Tb/s: one NIC per GPU sharing it */
		{"H100 SXM5 x8, 3.2 Tbps EFA (p5.48xlarge)", 8, 400, false},
		{"A100 80GB, 1.6 Tb/s InfiniBand per node", 8, 200, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[512], why[256];
		snprintf(row, sizeof row, "N-%03zu,x,\"%s\",16,1,2,2048,16,2048,16,1,1,1,16,,bf16,none,"
			 "iteration_time,1,s,x", i, cases[i].hw);
		val_case c;
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.cluster.nic.count == cases[i].count, "%s: %d NICs", cases[i].hw,
		              c.s.cluster.nic.count);
		ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, cases[i].gbps * 1e9 / 8, 1);
		ck_assert_int_eq(c.s.cluster.nic.transport == TRANSPORT_TCP, cases[i].tcp);
	}
}
END_TEST

/* nccl-tests rows are predicted by the virtual nccl-tests: size labels as
 * powers of two, Azure's -g 8, a busbw printed as 0.00 compared by its time,
 * nodes x GPUs from the text, the average over a sweep, Gbit/s. */
START_TEST(t_collective_rows)
{
	val_case c;
	char why[256], err[256];
	double p;
	ck_assert_int_eq(val_build(row("NCCL-AZ-007"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_COLL_BUSBW);
	ck_assert_int_eq(c.coll_op, COLL_ALL_REDUCE);
	ck_assert_double_eq(c.coll_bytes, 16777216.0);
	ck_assert_int_eq(c.gpus_per_thread, 8);
	ck_assert_int_eq(c.s.cluster.nodes * c.s.cluster.gpus_per_node, 8);
	ck_assert_int_eq(val_build(row("NCCL-AZ-015"), &c, why, sizeof why), 0);
	ck_assert_int_eq(val_predict(&c, NULL, &p, err, sizeof err), 0);
	ck_assert_msg(fabs(p / c.published_si - 1) < 0.05, "8 GiB: %g GB/s", p / 1e9);

	ck_assert_int_eq(val_build(row("NCCL-DGXH100-001"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_COLL_TIME);
	ck_assert_double_eq_tol(c.published_si, 13.03e-6, 1e-12);
	ck_assert_int_eq(c.gpus_per_thread, 1);
	ck_assert_int_eq(val_build(row("NCCL-DGXH100-014"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_COLL_AVG_BUSBW);
	ck_assert_double_eq(c.coll_bytes, 8);
	ck_assert_double_eq(c.coll_bytes_hi, 17179869184.0);

	ck_assert_int_eq(val_build(row("NCCL-TCP-002"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 8);
	ck_assert_int_eq(c.s.cluster.nic.count, 1);
	ck_assert_int_eq(c.s.cluster.nic.transport, TRANSPORT_TCP);
	ck_assert_int_eq(c.s.cluster.intra.kind, INTRA_NVLINK_MESH);
	ck_assert_double_eq_tol(c.unit_scale, 1e9 / 8, 1e-3);
	ck_assert(c.param_source);
	ck_assert_int_eq(val_predict(&c, NULL, &p, err, sizeof err), 0);
	ck_assert_msg(p / c.unit_scale < 0.6 * 31.0, "2 x 8 over TCP: %g Gbit/s", p / c.unit_scale);

	const char *text =
		"id,source,hardware,gpus,model_params_b,layers,hidden,heads,seq_len,global_batch,"
		"micro_batch,tp,pp,dp,other_parallel,precision,recompute,metric,value,unit,verified\n"
		"C-001,x,DGX H100,16,,,,,,,,,,,2 nodes x 8 GPU,,,allgather_busbw@1G,300,GB/s,x\n"
		"C-002,x,DGX A100 (8x200Gb/s HDR),,,,,,,,,,,,,,,reduce_scatter_time@64M,400,us,x\n"
		/* rows that must not be read as collectives, or not as these */
		"C-003,x,DGX A100,8,,,,,,,,,,,,,,decode_time@2K,3,ms,x\n"
		"C-004,x,DGX A100,1,,,,,,,,,,,,,,sendrecv_busbw@1G,20,GB/s,x\n"
		"C-005,x,DGX A100,8,,,,,,,,,,,,,,allreduce_busbw@1G,0,GB/s (time ),x\n"
		"C-006,x,DGX A100,8,,,,,,,,,,,,,,allreduce_busbw@inf,1,GB/s,x\n"
		"C-007,x,DGX A100,8,,,,,,,,,,,2 NODES X 4 GPU,,,all-gather_busbw_during_backward@1G,"
		"100,GB/s,x\n"
		"C-008,all_reduce_perf -G 20 -g 2,DGX A100,8,,,,,,,,,,,,,,allreduce_busbw@1G,0,"
		"GB/s (time 13.03 us; algorithms auto),x\n"
		/* the size anywhere in the name; a line rate is no size */
		"C-009,x,DGX H100,16,,,,,,,,,,,,,,all_reduce busbw 8GB,360,GB/s,x\n"
		"C-010,x,DGX H100,32,,,,,,,,,,,,,,alltoall_busbw_1 GiB,40,GB/s,x\n"
		"C-011,x,DGX A100,16,,,,,,,,,,,,,,allreduce busbw (large),5,GB/s,x\n"
		"C-012,x,DGX A100,16,,,,,,,,,,,,,,allreduce_busbw_400Gbps_nic,5,GB/s,x\n"
		"C-013,x,DGX H100,16,,,,,,,,,,,,,,allreduce_busbw_400G_nic,5,GB/s,x\n"
		"C-014,x,DGX H100,16,,,,,,,,,,,,,,allreduce_busbw_1k_gpus,5,GB/s,x\n"
		"C-015,x,DGX H100,16,,,,,,,,,,,,,,h100_80GB_allreduce_busbw,5,GB/s,x\n"
		"C-016,x,DGX H100,16,,,,,,,,,,,,,,allreduce_busbw_8gb,300,GB/s,x\n"
		"C-017,x,DGX A100,16,,,,,,,,,,,,,,sendrecv_avg_busbw_1K-8G,20,GB/s,x\n"
		"C-018,x,DGX A100,16,,,,,,,,,,,,,,sendrecv_busbw_vs_allreduce_factor,2,x,x\n"
		/* bandwidths in words */
		"C-019,x,DGX A100,64,,,,,,,,,,,,,,all_reduce bus bandwidth at 1GB,185,GB/s,x\n"
		"C-020,x,DGX A100,16,,,,,,,,,,,,,,all_gather algorithm bandwidth at 256MB,80,GB/s,x\n";
	val_row *r;
	size_t n;
	ck_assert_int_eq(val_parse(text, "t.csv", &r, &n, err, sizeof err), 0);
	ck_assert_int_eq(val_build(&r[0], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.coll_op, COLL_ALL_GATHER);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	ck_assert_double_eq(c.coll_bytes, 1073741824.0);
	ck_assert_int_eq(val_predict(&c, NULL, &p, err, sizeof err), 0);
	ck_assert(p > 10e9 && p < 400e9);   /* bounded by the NICs between the nodes */
	ck_assert_int_eq(val_build(&r[1], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.coll_op, COLL_REDUCE_SCATTER);
	ck_assert_int_eq(c.metric, VM_COLL_TIME);
	ck_assert_double_eq_tol(c.unit_scale, 1e-6, 1e-15);
	ck_assert_int_eq(c.s.cluster.nodes * c.s.cluster.gpus_per_node, 8);
	for (int i = 2; i <= 5; i++)
		ck_assert_msg(val_build(&r[i], &c, why, sizeof why) == -1, "row %s built", r[i].id);
	ck_assert_int_eq(val_build(&r[6], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.coll_op, COLL_ALL_GATHER);
	ck_assert_int_eq(c.coll_algo, ALGO_AUTO);     /* "during" holds no ring */
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	ck_assert_int_eq(c.s.cluster.gpus_per_node, 4);
	static const struct { int i; coll_op op; double bytes; } sized[] = {
		{8, COLL_ALL_REDUCE, 8589934592.0}, {9, COLL_ALL_TO_ALL, 1073741824.0},
		{10, COLL_ALL_REDUCE, 1073741824.0}};
	for (size_t k = 0; k < sizeof sized / sizeof sized[0]; k++) {
		val_case cs;
		ck_assert_msg(val_build(&r[sized[k].i], &cs, why, sizeof why) == 0, "%s: %s",
		              r[sized[k].i].id, why);
		ck_assert_int_eq(cs.coll_op, sized[k].op);
		ck_assert_int_eq(cs.metric, VM_COLL_BUSBW);
		ck_assert_double_eq(cs.coll_bytes, sized[k].bytes);
	}
	for (int i = 11; i <= 14; i++)   /* a line rate, a count, a GPU's memory: no size */
		ck_assert_msg(val_build(&r[i], &c, why, sizeof why) == -1, "row %s built", r[i].id);
	ck_assert_int_eq(val_build(&r[15], &c, why, sizeof why), 0);   /* "8gb": bytes */
	ck_assert_double_eq(c.coll_bytes, 8589934592.0);
	ck_assert_int_eq(val_build(&r[16], &c, why, sizeof why), 0);   /* a sendrecv sweep */
	ck_assert_int_eq(c.coll_op, COLL_SENDRECV);
	ck_assert_int_eq(c.metric, VM_COLL_AVG_BUSBW);
	ck_assert_int_eq(val_build(&r[17], &c, why, sizeof why), -1);  /* a ratio */
	ck_assert_int_eq(val_build(&r[18], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_COLL_BUSBW);
	ck_assert_double_eq(c.coll_bytes, 1073741824.0);
	ck_assert_int_eq(val_build(&r[19], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.coll_op, COLL_ALL_GATHER);
	ck_assert_int_eq(c.metric, VM_COLL_ALGBW);
	ck_assert_int_eq(val_build(&r[7], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.gpus_per_thread, 2);        /* -G is CUDA graphs, not -g */
	ck_assert_int_eq(c.metric, VM_COLL_TIME);
	ck_assert_double_eq_tol(c.published_si, 13.03e-6, 1e-12);   /* us, not "algorithms" */
	free(r);
}
END_TEST

/* ZeRO stages as other publications write them; FSDP's full sharding is
 * stage 3, SHARD_GRAD_OP stage 2. */
START_TEST(t_zero_text)
{
	static const struct { const char *other; int zero; } cases[] = {
		{"ZeRO-1 (BF16Optimizer)", 1}, {"ZeRO stage 2", 2}, {"DeepSpeed zero3", 3},
		{"FSDP full shard", 3}, {"FSDP SHARD_GRAD_OP", 2}, {"SP; interleaved", 0},
		{"FSDP NO_SHARD", 0}, {"zero_1f1b schedule", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[512], why[256];
		snprintf(row, sizeof row, "Z-%03zu,x,DGX A100,16,1,2,2048,16,2048,16,1,1,1,16,%s,bf16,"
			 "none,iteration_time,1,s,x", i, cases[i].other);
		val_case c;
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.training.zero == cases[i].zero, "%s: ZeRO %d", cases[i].other,
		              c.s.training.zero);
	}
}
END_TEST

/* Virtual stages and recomputation as publications write them in the free
 * text: NeMo's VP column, Megatron's flags, Korthikanti's "m=", layers per
 * virtual stage; a recompute said only in the text when its column is empty
 * (and "full shard" or a disk checkpoint saying nothing of it). */
START_TEST(t_layout_text)
{
	static const struct {
		const char *other;
		int v;
		scn_recompute rc;
	} cases[] = {
		{"VP=6", 6, RECOMPUTE_NONE}, {"VPP 6", 6, RECOMPUTE_NONE}, {"vp6", 6, RECOMPUTE_NONE},
		{"TP4 PP8 VP6 SP", 6, RECOMPUTE_NONE}, {"virtual pipeline size 6", 6, RECOMPUTE_NONE},
		{"interleaved; 6 virtual stages", 6, RECOMPUTE_NONE},
		{"--num-layers-per-virtual-pipeline-stage 2", 6, RECOMPUTE_NONE},
		{"interleaved m=3", 3, RECOMPUTE_NONE},
		{"interleaved vpp: 4 layers/virtual stage", 3, RECOMPUTE_NONE},
		{"interleaved", 2, RECOMPUTE_NONE}, {"VP=1", 1, RECOMPUTE_NONE},
		{"VPN 6", 1, RECOMPUTE_NONE},
		{"SP; selective recompute", 1, RECOMPUTE_SELECTIVE},
		{"activation checkpointing", 1, RECOMPUTE_FULL},
		{"--recompute-granularity full", 1, RECOMPUTE_FULL},
		{"no activation checkpointing", 1, RECOMPUTE_NONE},
		{"FSDP full shard", 1, RECOMPUTE_NONE},
		{"checkpoint every 500 steps", 1, RECOMPUTE_NONE},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[512], why[256];
		/* 96 layers on 8 stages of an H100 cluster; the row fits without
		 * recomputation, so an empty recompute column gives none */
		snprintf(row, sizeof row, "V-%03zu,x,DGX H100 (8x400Gb/s NDR),128,175,96,12288,96,2048,"
			 "256,1,4,8,4,\"%s\",bf16,,tokens_per_sec_per_gpu,700,tokens/s/GPU,x", i,
			 cases[i].other);
		val_case c;
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.training.virtual_stages == cases[i].v, "%s: v %d", cases[i].other,
		              c.s.training.virtual_stages);
		ck_assert_msg(c.s.training.recompute == cases[i].rc, "%s: recompute %d",
		              cases[i].other, c.s.training.recompute);
	}
	/* no GPU count, every parallel size given: their product (x cp) */
	char row[512], why[256];
	val_case c;
	snprintf(row, sizeof row, "V-G,x,\"32 nodes x 8 A100 80GB (8x200Gb/s HDR)\",,175,96,12288,96,"
		 "2048,1536,1,8,8,4,,bf16,,tflops_per_gpu,150,TFLOP/s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(scn_gpus(&c.s), 256);
	snprintf(row, sizeof row, "V-C,x,DGX H100,,70,80,8192,64,8192,128,1,4,4,2,CP2,bf16,,"
		 "tokens_per_sec_per_gpu,1500,tokens/s/GPU,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(scn_gpus(&c.s), 64);
	ck_assert_int_eq(c.s.training.cp, 2);
	/* a model named with its size but no shape takes its published shape;
	 * an unknown one is still refused */
	snprintf(row, sizeof row, "V-N,x,DGX H100,64,70,,,,,128,1,4,4,4,\"Llama 2 70B; VP 20\","
		 "bf16,,tokens_per_sec_per_gpu,1500,tokens/s/GPU,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.layers, 80);
	ck_assert_int_eq(c.s.model.hidden, 8192);
	ck_assert_int_eq(c.s.model.heads, 64);
	ck_assert_int_eq(c.s.model.kv_heads, 8);
	ck_assert_int_eq(c.s.model.seq_len, 4096);
	ck_assert_int_eq(c.s.training.virtual_stages, 20);
	ck_assert(c.assumed);
	snprintf(row, sizeof row, "V-G3,x,DGX A100,1024,175,,,,,1536,1,8,16,8,NeMo GPT3-175B,bf16,"
		 ",tokens_per_sec_per_gpu,500,tokens/s/GPU,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.layers, 96);
	ck_assert_int_eq(c.s.model.seq_len, 2048);
	snprintf(row, sizeof row, "V-M,x,DGX H100,8,7,,,,,128,1,1,1,8,Mistral 7B,bf16,,"
		 "tokens_per_sec_per_gpu,10000,tokens/s/GPU,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.layers, 32);
	ck_assert_int_eq(c.s.model.ffn_hidden, 14336);
	ck_assert_int_eq(c.s.model.seq_len, 8192);
	scn_release(&c.s);
	snprintf(row, sizeof row, "V-M,x,DGX H100,8,13,,,,,128,1,1,1,8,Baichuan 2 13B,bf16,,"
		 "tokens_per_sec_per_gpu,10000,tokens/s/GPU,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "model shape"));
	/* optimizer state offloaded to the host is not modelled: refused, not
	 * simulated in GPU memory; "no offload" is an ordinary row */
	snprintf(row, sizeof row, "V-O,x,DGX A100,8,13,40,5120,40,2048,64,8,1,1,8,\"ZeRO-2, CPU "
		 "offload\",fp16,none,samples_per_sec,10,samples/s,x");
	ck_assert_int_eq(build_row(row, &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "offload"));
	snprintf(row, sizeof row, "V-O2,x,DGX A100,8,13,40,5120,40,2048,64,8,1,1,8,\"ZeRO-2, no "
		 "offload\",fp16,none,samples_per_sec,10,samples/s,x");
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
}
END_TEST

START_TEST(t_not_simulated)
{
	val_case c;
	char why[256];
	ck_assert_int_eq(val_build(row("ADLR20-002"), &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "model shape"));
	ck_assert_int_eq(val_build(row("KOR22-021"), &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "global_batch"));
	/* a pipeline row without micro_batch runs micro-batches of one sequence */
	ck_assert_int_eq(val_build(row("MEG21JAN-009"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.s.training.micro_batch, 1);
	ck_assert(c.assumed);
	/* a NIC measured alone: point to point between two DGX H100 (the
	 * nodes that ship ConnectX-7), 1 GiB, marked inferred */
	ck_assert_int_eq(val_build(row("NCCL-NV-003"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.coll_op, COLL_SENDRECV);
	ck_assert_int_eq(c.s.cluster.nodes, 2);
	ck_assert_int_eq(c.s.cluster.gpu.arch, ARCH_HOPPER);
	ck_assert(c.assumed);
	double bw;
	char perr[200];
	ck_assert_int_eq(val_predict(&c, NULL, &bw, perr, sizeof perr), 0);
	ck_assert_double_eq_tol(bw / 47e9, 1.0, 0.05);
	/* a machine's bisection sum is no point-to-point pair */
	ck_assert_int_eq(val_build(row("MEG21TXT-005"), &c, why, sizeof why), -1);
	ck_assert_int_eq(val_build(row("NCCL-NV-004"), &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "trainsim nccl"));
	ck_assert_int_eq(val_build(row("LLAMA3F-023"), &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "failure"));
	ck_assert_int_eq(val_build(row("MEG21TXT-010"), &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "not predicted"));
	/* every row has an outcome: built, or a reason */
	for (size_t i = 0; i < nrows; i++) {
		why[0] = 0;
		if (val_build(&rows[i], &c, why, sizeof why) < 0)
			ck_assert_msg(why[0], "%s: no reason", rows[i].id);
	}
}
END_TEST


/* Rows the CSV may hold beyond ours: a Llama 3 run on H100 (shape from the
 * model family, flash attention, bf16 generation), other metric names. */
START_TEST(t_other_models)
{
	const char *text =
		"id,source,hardware,gpus,model_params_b,layers,hidden,heads,seq_len,global_batch,"
		"micro_batch,tp,pp,dp,other_parallel,precision,recompute,metric,value,unit,verified\n"
		"L3-001,Meta Llama 3 paper,\"DGX H100 (8x H100 80GB NVLink4, 8x400Gb/s NDR IB)\",1024,70,"
		"80,8192,64,8192,512,1,8,4,32,interleaved m=2,bf16,selective,tokens_per_sec,1,tokens/s,x\n"
		"G-001,x,A100-SXM4-80GB,8,1,2,2048,16,2048,8,1,1,1,8,kv_heads=4; SwiGLU,bf16,none,"
		"model_tflops_per_gpu,100,TFLOP/s,x\n";
	val_row *r;
	size_t n;
	char err[256], why[256];
	ck_assert_int_eq(val_parse(text, "t.csv", &r, &n, err, sizeof err), 0);
	val_case c;
	ck_assert_int_eq(val_build(&r[0], &c, why, sizeof why), 0);
	ck_assert_str_eq(c.s.cluster.gpu.name, "H100-SXM5-80GB");
	ck_assert_double_eq_tol(c.s.cluster.nic.speed_Bps, 50e9, 1);
	ck_assert(c.s.model.gated_mlp);
	ck_assert_int_eq(c.s.model.kv_heads, 8);
	ck_assert_int_eq(c.s.model.ffn_hidden, 28672);
	ck_assert_int_eq(c.s.model.vocab, 128256);
	ck_assert_int_eq(c.s.training.virtual_stages, 2);
	ck_assert_int_eq(c.metric, VM_TOKENS);
	ck_assert(wl_flash_attention(&c.s));
	ck_assert_int_eq(val_build(&r[1], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_MODEL_TFLOPS);
	ck_assert_int_eq(c.s.model.kv_heads, 4);
	ck_assert(c.s.model.gated_mlp);
	ck_assert_int_eq(c.s.model.ffn_hidden, 5632);   /* 8h/3 = 5461 -> 256 multiple */
	/* non-GPT shapes: the paper formulas fall back to the exact count */
	ck_assert_double_eq_tol(wl_paper_model_flops_per_seq(&c.s.model),
	                        wl_model_flops_per_seq(&c.s.model), 1);
	free(r);
}
END_TEST

/* Other publications' spellings of the same metrics and units: TFLOPS in
 * capitals or with no unit, MFU as a fraction, tokens per second per GPU,
 * an iteration time in msec; conditional metrics stay unpredicted. */
START_TEST(t_metric_spellings)
{
	static const struct {
		const char *metric, *unit;
		double value;
		val_metric want;
		double scale;
		bool per_gpu;
	} cases[] = {
		{"TFLOPs/GPU", "TFLOPS", 400, VM_HW_TFLOPS, 1e12, false},
		{"hardware_tflops", "", 400, VM_HW_TFLOPS, 1e12, false},
		{"model_TFLOPS_per_GPU", "tflop/s", 300, VM_MODEL_TFLOPS, 1e12, false},
		{"bf16_MFU", "", 0.43, VM_MFU, 100, false},
		{"MFU", "%", 43, VM_MFU, 1, false},
		{"tokens_per_sec_per_gpu", "tokens/s", 3000, VM_TOKENS, 1, true},
		{"throughput", "k tokens/s/GPU", 3, VM_TOKENS, 1e3, true},
		{"elapsed_time_per_iteration", "msec", 7000, VM_ITER_TIME, 1e-3, false},
		{"samples_per_second", "", 20, VM_SAMPLES, 1, false},
		/* words with blanks or hyphens, as tables print them */
		{"iteration time (ms)", "ms", 20000, VM_ITER_TIME, 1e-3, false},
		{"time per step", "seconds", 20, VM_ITER_TIME, 1, false},
		{"step-time", "s", 20, VM_ITER_TIME, 1, false},
		{"model FLOPs utilization", "%", 40, VM_MFU, 1, false},
		{"hardware FLOPs utilization", "%", 45, VM_HFU, 1, false},
		{"optimizer step time", "ms", 68, VM_NONE, 0, false},
		{"tflops_per_gpu_without_fusion", "TFLOP/s", 113, VM_NONE, 0, false},
		{"est_train_days_at_140TFLOPs", "days", 34, VM_NONE, 0, false},
		{"steps_per_sec", "", 0.2, VM_NONE, 0, false},
		/* parts of a step, counts and other workloads are not the step */
		{"optimizer_step_time", "ms", 68, VM_NONE, 0, false},
		{"total_steps", "steps", 1e5, VM_NONE, 0, false},
		{"pipeline_bubble_time_per_iter", "s", 0.2, VM_NONE, 0, false},
		{"tokens_per_step", "tokens", 4e6, VM_NONE, 0, false},
		{"total_tokens", "tokens", 1.8e12, VM_NONE, 0, false},
		{"inference_tokens_per_s", "tokens/s", 5e3, VM_NONE, 0, false},
		/* units by their words, rates by their denominators */
		{"iteration_time", "milliseconds", 1420, VM_ITER_TIME, 1e-3, false},
		{"iteration_time", "\xce\xbcs", 1.42e6, VM_ITER_TIME, 1e-6, false},
		{"throughput", "samples/min", 100, VM_SAMPLES, 1.0 / 60, false},
		{"tokens_per_s", "Mtok/s", 5, VM_TOKENS, 1e6, false},
		{"tokens_per_gpu_per_day", "tokens/day", 1e9, VM_TOKENS, 1.0 / 86400, true},
		/* the unit in the name as Megatron's log prints it, the column empty */
		{"elapsed time per iteration (ms)", "", 850, VM_ITER_TIME, 1e-3, false},
		{"throughput (tokens/s)", "", 3e5, VM_TOKENS, 1, false},
		/* an aggregate said by the unit; sequences per second */
		{"achieved TFLOPs", "TFLOPS (aggregate)", 2080, VM_AGG_PFLOPS, 1e12, false},
		{"seq/s", "", 150, VM_SAMPLES, 1, false},
		{"WPS", "tokens/s/GPU", 2904, VM_TOKENS, 1, true},
		{"local_nvme_seq_write_1M", "GB/s", 8.2, VM_NONE, 0, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char row[512], why[256];
		snprintf(row, sizeof row, "S-%03zu,x,DGX A100 80GB,8,1,2,2048,16,2048,8,1,1,1,8,,bf16,"
			 "none,%s,%g,%s,x", i, cases[i].metric, cases[i].value, cases[i].unit);
		val_case c;
		int rc = build_row(row, &c, why, sizeof why);
		if (cases[i].want == VM_NONE) {
			ck_assert_msg(rc == -1, "%s: predicted as %d", cases[i].metric, c.metric);
		} else {
			ck_assert_msg(rc == 0, "%s: %s", cases[i].metric, why);
			ck_assert_msg(c.metric == cases[i].want, "%s: metric %d", cases[i].metric,
			              c.metric);
			ck_assert_double_eq_tol(c.unit_scale, cases[i].scale, 1e-9 * cases[i].scale);
			ck_assert_int_eq(c.per_gpu, cases[i].per_gpu);
		}
	}
}
END_TEST

/* End to end through the step simulation: kernels by the compute model,
 * one layer by its costs and the TP collectives, a whole Megatron run. The
 * tolerances are the model's present accuracy on these rows (docs/validation.md),
 * not a goal. */
START_TEST(t_predict)
{
	val_cache *cache = val_cache_new();
	static const struct { const char *id; double tol_pct; } cases[] = {
		{"HW-AZ-001", 1}, {"HW-AZ-002", 1}, {"HW-AZ-003", 1}, {"KOR22L-009", 3},
		{"KOR22L-003", 3}, {"KOR22-018", 3}, {"MEG21T1-037", 5}, {"MEG21TXT-007", 5}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256], err[256];
		double pred;
		ck_assert_int_eq(val_build(row(cases[i].id), &c, why, sizeof why), 0);
		ck_assert_msg(val_predict(&c, cache, &pred, err, sizeof err) == 0, "%s: %s",
		              cases[i].id, err);
		double e = 100 * (pred - c.published_si) / c.published_si;
		ck_assert_msg(fabs(e) <= cases[i].tol_pct, "%s: %+.1f%% (tolerance %.0f%%)",
		              cases[i].id, e, cases[i].tol_pct);
	}
	/* a run's rows share one simulation: the derived time and the TFLOP/s of
	 * MEG21T1-037 agree with each other exactly as the paper formula says */
	val_case a, b;
	char why[256], err[256];
	double ta, fb;
	ck_assert_int_eq(val_build(row("MEG21T1-040"), &a, why, sizeof why), 0);
	ck_assert_int_eq(val_build(row("MEG21T1-037"), &b, why, sizeof why), 0);
	ck_assert_int_eq(val_predict(&a, cache, &ta, err, sizeof err), 0);
	ck_assert_int_eq(val_predict(&b, cache, &fb, err, sizeof err), 0);
	double flops = wl_paper_hw_flops_per_seq(&b.s.model, RECOMPUTE_FULL) * 3072;
	ck_assert_double_eq_tol(flops / (ta * 3072) / fb, 1.0, 1e-9);
	val_cache_free(cache);
}
END_TEST

/* Index of a row of published.csv. */
static size_t row_index(const char *id)
{
	return (size_t)(row(id) - rows);
}

/* Scaling efficiency is measured against the series' baseline: the 100% row
 * of the same metric and GPU (V100 and A100 series of one table kept apart),
 * else the fewest GPUs of the source and GPU; the baseline itself and a row
 * with nothing to scale from are not compared. */
START_TEST(t_scaling_rows)
{
	val_case c;
	char why[256], err[256];
	/* V100 weak scaling, 2 GPUs: against MEG20-003's layout (1 V100) */
	ck_assert_int_eq(val_build(row("MEG20-009"), &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_SCALING_EFF);
	ck_assert_msg(val_link_baseline(rows, nrows, row_index("MEG20-009"), &c, why,
	                                sizeof why) == 0, "%s", why);
	ck_assert_int_eq(scn_gpus(&c.base), 1);
	ck_assert_str_eq(c.base.cluster.gpu.name, c.s.cluster.gpu.name);
	ck_assert_int_eq(c.base.model.hidden, 1920);
	ck_assert_int_eq(c.base.training.micro_batch, 8);
	/* the prediction is the ratio of work per GPU-second of the two runs */
	val_cache *cache = val_cache_new();
	double eff;
	ck_assert_msg(val_predict(&c, cache, &eff, err, sizeof err) == 0, "%s", err);
	val_case a, b;
	double ta, tb;
	ck_assert_int_eq(val_build(row("MEG20-007"), &a, why, sizeof why), 0);
	ck_assert_int_eq(val_build(row("MEG20-001"), &b, why, sizeof why), 0);
	ck_assert_int_eq(val_predict(&a, cache, &ta, err, sizeof err), 0);
	ck_assert_int_eq(val_predict(&b, cache, &tb, err, sizeof err), 0);
	double expect = 100 * (wl_params(&a.s.model) / (2 * ta)) / (wl_params(&b.s.model) / tb);
	ck_assert_double_eq_tol(eff, expect, 1e-9 * expect);
	ck_assert(eff > 80 && eff < 100);
	scn_release(&c.base);
	/* the A100 cluster series has no 100% row: the 1-GPU A100 run */
	ck_assert_int_eq(val_build(row("MEG20-036"), &c, why, sizeof why), 0);
	ck_assert_int_eq(val_link_baseline(rows, nrows, row_index("MEG20-036"), &c, why,
	                                   sizeof why), 0);
	ck_assert_int_eq(scn_gpus(&c.base), 1);
	ck_assert_str_eq(c.base.cluster.gpu.name, "A100-SXM4-80GB");
	ck_assert_int_eq(c.base.training.micro_batch, 16);
	scn_release(&c.base);
	/* the baseline itself */
	ck_assert_int_eq(val_build(row("MEG20-006"), &c, why, sizeof why), 0);
	ck_assert_int_eq(val_link_baseline(rows, nrows, row_index("MEG20-006"), &c, why,
	                                   sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "baseline"));
	/* a series of one row */
	const char *text = HEADER
		"S-001,only source,A100-SXM4-80GB,16,1,2,2048,16,2048,16,1,1,1,16,,bf16,none,"
		"strong_scaling_efficiency,90,%,x\n";
	val_row *r;
	size_t nr;
	ck_assert_int_eq(val_parse(text, "t.csv", &r, &nr, err, sizeof err), 0);
	ck_assert_int_eq(val_build(&r[0], &c, why, sizeof why), 0);
	ck_assert_int_eq(c.metric, VM_SCALING_EFF);
	ck_assert_int_eq(val_link_baseline(r, nr, 0, &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "fewer GPUs"));
	free(r);
	val_cache_free(cache);
}
END_TEST

/* A bf16 row that does not say how it saves memory gets the cheapest
 * savings that fit, in the order a Megatron user adds them: none for a small
 * model; SP, the distributed optimizer, then recomputation for a big one. A
 * saving the row names stays as named; fp16 rows keep full recomputation. */
START_TEST(t_memory_inference)
{
	static const char *small =
		"M-001,x,A100-SXM4-80GB,8,1,2,2048,16,2048,8,1,8,1,1,,bf16,,iteration_time,1,s,x";
	static const char *big =
		"M-002,x,\"DGX H100 (8x H100 80GB, 8x400Gb/s NDR IB)\",8192,405,126,16384,128,8192,2048,1,"
		"8,16,64,,bf16,,MFU,43,%,x";
	static const char *big_stated =
		"M-003,x,\"DGX H100 (8x H100 80GB, 8x400Gb/s NDR IB)\",8192,405,126,16384,128,8192,2048,1,"
		"8,16,64,no SP,bf16,full,MFU,43,%,x";
	static const char *old =
		"M-004,x,A100-SXM4-80GB,8,1,2,2048,16,2048,8,1,8,1,1,,fp16,,iteration_time,1,s,x";
	val_case c;
	char why[256];
	wl_memory m;
	ck_assert_msg(build_row(small, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_NONE);
	ck_assert(!c.s.training.sequence_parallel);
	ck_assert_int_eq(c.s.training.zero, 0);
	ck_assert(c.assumed);
	ck_assert_msg(build_row(big, &c, why, sizeof why) == 0, "%s", why);
	wl_memory_get(&c.s, &m);
	ck_assert(m.fits);
	ck_assert(c.s.training.sequence_parallel);
	ck_assert_int_eq(c.s.training.zero, 1);
	/* without SP and with the optimizer unsharded it would not fit */
	scenario plain = c.s;
	plain.training.sequence_parallel = false;
	plain.training.zero = 0;
	plain.training.recompute = RECOMPUTE_NONE;
	wl_memory_get(&plain, &m);
	ck_assert(!m.fits);
	ck_assert_msg(build_row(big_stated, &c, why, sizeof why) == 0, "%s", why);
	ck_assert(!c.s.training.sequence_parallel);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_FULL);
	ck_assert_msg(build_row(old, &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.recompute, RECOMPUTE_FULL);
	ck_assert(!c.s.training.sequence_parallel);
	ck_assert(!c.s.training.grad_reduce.overlap);
	/* a data-parallel framework without model-parallel sizes: tp = pp = 1;
	 * one size left out is the GPUs over the others; two are not guessed */
	static const struct { const char *sizes, *other; int tp, pp, dp; } lay[] = {
		{",,", "FSDP full shard", 1, 1, 16}, {"2,1,", "", 2, 1, 8}, {"4,,2", "", 4, 2, 2},
		{",1,", "", 0, 0, 0}, {",,", "", 0, 0, 0}, {"3,1,", "", 0, 0, 0}};
	for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++) {
		char row[256];
		snprintf(row, sizeof row, "P-%03zu,x,A100-SXM4-80GB,16,1,2,2048,16,2048,64,1,%s,%s,"
			 "bf16,none,iteration_time,1,s,x", i, lay[i].sizes, lay[i].other);
		int rc = build_row(row, &c, why, sizeof why);
		if (!lay[i].tp) {
			ck_assert_msg(rc == -1 && strstr(why, "missing"), "%s: %s", lay[i].sizes, why);
			continue;
		}
		ck_assert_msg(rc == 0, "%s: %s", lay[i].sizes, why);
		ck_assert_int_eq(c.s.training.tp, lay[i].tp);
		ck_assert_int_eq(c.s.training.pp, lay[i].pp);
		ck_assert_int_eq(c.s.training.dp, lay[i].dp);
		ck_assert(c.assumed);
	}
	/* context parallelism as publications write it (dp without the CP ranks,
	 * or with them); CPU is not CP, nor a number that is not its size */
	static const struct { const char *other; int cp, dp; } cps[] = {
		{"CP2", 2, 8}, {"TP1; CP=4", 4, 4}, {"context parallel size 2", 2, 8},
		{"CPU pinned memory 2", 1, 16}, {"CP1", 1, 16}, {"ckpt 2", 1, 16},
		{"--context-parallel-size 2", 2, 8}, {"TP1xCP2", 2, 8},
		{"context parallelism for 128K sequences", 1, 16},
		{"context parallel over 2 nodes", 1, 16}, {"context_parallel_size=4", 4, 4}};
	for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
		build_cell("C-%03zu,x,A100-SXM4-80GB,16,1,2,2048,16,2048,16,1,1,1,16,%s,"
			 "bf16,none,iteration_time,1,s,x", i, cps[i].other, &c);
		ck_assert_int_eq(scn_cp(&c.s), cps[i].cp);
		ck_assert_int_eq(c.s.training.dp, cps[i].dp);
	}
	/* ZeRO and the distributed optimizer as written; a zero bubble is not
	 * ZeRO; a negated param-gather overlap sets nothing */
	static const struct { const char *other; int zero; bool pg; } zs[] = {
		{"distributed optimizer", 1, false}, {"--use-distributed-optimizer", 1, false},
		{"zerostage2", 2, false}, {"ZeRO=3", 3, false}, {"zero: 1", 1, false},
		{"zero bubble schedule", 0, false}, {"ZeRO-0", 0, false},
		{"without param gather overlap", 0, false},
		{"--overlap-grad-reduce --overlap-param-gather", 1, true}};
	for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
		build_cell("Z-%03zu,x,A100-SXM4-80GB,16,1,2,2048,16,2048,16,1,1,1,16,%s,"
			 "bf16,none,iteration_time,1,s,x", i, zs[i].other, &c);
		ck_assert_msg(c.s.training.zero == zs[i].zero, "%s: zero %d", zs[i].other,
		              c.s.training.zero);
		ck_assert_msg(c.s.training.grad_reduce.overlap_param_gather == zs[i].pg, "%s",
		              zs[i].other);
	}
	/* torchtitan's selective checkpointing, layer or op: every other layer
	 * recomputed in full (8 layers: 4); Megatron's "selective" keeps its own */
	static const struct { const char *rc; scn_recompute want; int layers; } sacs[] = {
		{"selective (layer)", RECOMPUTE_FULL, 4}, {"\"selective (op, assumed default)\"", RECOMPUTE_FULL, 4},
		{"selective op", RECOMPUTE_FULL, 4}, {"selective", RECOMPUTE_SELECTIVE, 0},
		{"\"selective (operator-level, core attention)\"", RECOMPUTE_SELECTIVE, 0}};
	for (size_t i = 0; i < sizeof sacs / sizeof sacs[0]; i++) {
		build_cell("A-%03zu,x,A100-SXM4-80GB,8,1,8,2048,16,2048,8,1,1,1,8,FSDP2,"
			 "bf16,%s,iteration_time,1,s,x", i, sacs[i].rc, &c);
		ck_assert_msg(c.s.training.recompute == sacs[i].want, "%s", sacs[i].rc);
		ck_assert_int_eq(c.s.training.recompute_layers, sacs[i].layers);
	}
	/* Megatron's local DDP reduces its whole buffer in one call; PyTorch DDP
	 * in 25 MB buckets */
	static const struct { const char *other; double bucket; } ddps[] = {
		{"DDP=local", 1e13}, {"DDP=torch", 25e6}, {"DDP=local; interleaved vpp: 5 layers/virtual stage", 1e13}};
	for (size_t i = 0; i < sizeof ddps / sizeof ddps[0]; i++) {
		build_cell("D-%03zu,x,A100-SXM4-80GB,16,1,2,2048,16,2048,16,1,1,1,16,%s,"
			 "fp16,full,iteration_time,1,s,x", i, ddps[i].other, &c);
		ck_assert_double_eq(c.s.training.grad_reduce.bucket_bytes, ddps[i].bucket);
	}
	/* SP said, or negated as a whole word only */
	static const struct { const char *other; bool sp; } sps[] = {
		{"SP; no spikes", true}, {"no SP", false}, {"without sequence parallel", false},
		{"sequence-parallel", true}, {"DeepSpeed", false}};
	for (size_t i = 0; i < sizeof sps / sizeof sps[0]; i++) {
		build_cell("S-%03zu,x,A100-SXM4-80GB,16,1,2,2048,16,2048,16,1,2,1,8,%s,"
			 "bf16,none,iteration_time,1,s,x", i, sps[i].other, &c);
		ck_assert_msg(c.s.training.sequence_parallel == sps[i].sp, "%s", sps[i].other);
	}
	/* mixture-of-experts rows are simulated as MoE (never as dense models,
	 * which would count every expert's FLOPs): the experts from the text or
	 * a model name's "8x7B", top-2 when unsaid; refused when the row does
	 * not say how many experts, or with latent attention (DeepSeek-V3); a
	 * dense row whose source cites a MoE model is dense */
	ck_assert_msg(build_row("E-100,\"compared with Mixtral 8x7B\",A100-SXM4-80GB,16,1,2,2048,16,"
	                        "2048,16,1,1,1,16,,bf16,none,iteration_time,1,s,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_le(c.s.model.experts, 1);
	static const struct { const char *other; int experts, top_k, ep; const char *refused; } moe[] = {
		{"MoE 8 experts", 8, 2, 1, NULL}, {"TP2; EP8", 0, 0, 0, "how many experts"},
		{"EP=4", 0, 0, 0, "how many experts"}, {"Mixtral 8x7B", 8, 2, 1, NULL},
		{"64 experts top-6; EP8", 64, 6, 8, NULL}, {"num_experts=16; topk 4; EP 16", 16, 4, 16, NULL},
		{"DeepSeek-V3", 0, 0, 0, "latent attention"}, {"128 experts; EP3", 0, 0, 0, "EP 3"},
		{"deep EP1", 0, 0, 0, NULL}, {"SP; interleaved", 0, 0, 0, NULL},
		{"EPOCH 2", 0, 0, 0, NULL}, {"TP1-EP8-PP1; 8 experts", 8, 2, 8, NULL},
		{"Mixtral 8x7B; activation swap off", 8, 2, 1, NULL},
		{"64 experts; 2 experts per token", 64, 2, 1, NULL},
		{"GPT-OSS-120B; 128 experts", 128, 2, 1, NULL},
		{"64 experts (6 active); expert parallel 8", 64, 6, 8, NULL},
		{"E=64 k=6 EP8", 64, 6, 8, NULL},
		{"--num-experts 64 --moe-router-topk 6 --expert-model-parallel-size 8", 64, 6, 8, NULL},
		{"MoE experts 8 top-2", 8, 2, 1, NULL}};
	for (size_t i = 0; i < sizeof moe / sizeof moe[0]; i++) {
		char row[256];
		snprintf(row, sizeof row, "E-%03zu,x,A100-SXM4-80GB,16,1,2,2048,16,2048,16,1,1,1,16,%s,"
			 "bf16,none,iteration_time,1,s,x", i, moe[i].other);
		why[0] = '\0';
		int rc = build_row(row, &c, why, sizeof why);
		if (moe[i].refused) {
			ck_assert_msg(rc == -1 && strstr(why, moe[i].refused), "%s: %s", moe[i].other, why);
			continue;
		}
		ck_assert_msg(rc == 0, "%s: %s", moe[i].other, why);
		ck_assert_msg(c.s.model.experts == moe[i].experts || (moe[i].experts == 0 &&
		              c.s.model.experts <= 1), "%s: %d experts", moe[i].other, c.s.model.experts);
		if (moe[i].experts > 1) {
			ck_assert_int_eq(c.s.model.top_k, moe[i].top_k);
			ck_assert_int_eq(c.s.training.ep, moe[i].ep);
			ck_assert(c.s.model.gated_mlp);
		}
	}
	/* multi-head latent attention read from the text, and a shared expert
	 * given as a count; "NeMo v2" is no value width */
	ck_assert_msg(build_row("E-200,x,H100-SXM5-80GB,16,1,4,2048,16,2048,16,1,1,1,16,\"MoE 64 "
	                        "experts top-6; moe_ffn 1408; shared expert 2; MLA q_lora 0 kv_lora "
	                        "512 qk 128+64 v 128; NeMo v2\",bf16,none,iteration_time,1,s,x", &c,
	                        why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.kv_lora_rank, 512);
	ck_assert_int_eq(c.s.model.q_lora_rank, 0);
	ck_assert_int_eq(c.s.model.head_dim, 128);
	ck_assert_int_eq(c.s.model.qk_rope_dim, 64);
	ck_assert_int_eq(c.s.model.v_head_dim, 128);
	ck_assert_int_eq(c.s.model.shared_expert_ffn_hidden, 2 * 1408);
	ck_assert_int_eq(c.s.model.top_k, 6);
	ck_assert(!c.s.training.ep_overlap);
	/* FlashAttention named in a GPT row on A100 (MosaicML's MPT) */
	ck_assert_msg(build_row("E-203,x,A100-SXM4-80GB,8,1,4,2048,16,2048,8,1,1,1,8,\"FSDP; "
	                        "FlashAttention (attn_impl flash); vocab 50368\",bf16,none,"
	                        "iteration_time,1,s,x", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.attention, ATTN_FLASH2);   /* the flash-attn package */
	ck_assert(wl_flash_attention(&c.s));
	ck_assert_int_eq(c.s.model.vocab, 50368);
	ck_assert_int_eq(c.s.training.grad_reduce.dtype, PREC_FP32);
	/* "vocab 32k" is 32000; FlashAttention turned off after its name is
	 * off; "all-flash" storage is no attention at all; FlashAttention-2
	 * named as such runs its own kernels */
	static const struct { const char *other; int vocab; scn_attention attn; } fa[] = {
		{"vocab 32k", 32000, ATTN_AUTO}, {"FlashAttention disabled", 51200, ATTN_UNFUSED},
		{"all-flash storage", 51200, ATTN_AUTO}, {"FA2", 51200, ATTN_FLASH2},
		{"FlashAttention-2", 51200, ATTN_FLASH2}, {"FlashAttention", 51200, ATTN_FLASH2},
		{"NeMo; FlashAttention", 51200, ATTN_FLASH},
		{"FlashAttention via Transformer Engine", 51200, ATTN_FLASH},
		{"flash attention (TE)", 51200, ATTN_FLASH},
		{"Megatron-core with flash-attn", 51200, ATTN_FLASH},
		{"FA3", 51200, ATTN_FLASH}, {"FA2/FA3", 51200, ATTN_FLASH},
		{"FlashAttention-3 not FlashAttention-2", 51200, ATTN_FLASH},
		{"flash-attn with FA2 off", 51200, ATTN_FLASH},
		{"FA1", 51200, ATTN_FLASH1}, {"flash-attn==1.0.9", 51200, ATTN_FLASH1},
		{"FlashAttention-1", 51200, ATTN_FLASH1}, {"FA1 or FA2", 51200, ATTN_FLASH2},
		{"LLM Foundry; FlashAttention (attn_impl flash)", 51200, ATTN_FLASH1},
		{"llm-foundry; attn_impl flash; flash-attn 2.5", 51200, ATTN_FLASH2},
		{"LLM Foundry; attn_impl triton", 51200, ATTN_FLASH1},
		{"MPT; attn_impl: triton", 51200, ATTN_FLASH1},
		{"flash-attn 0.2.8", 51200, ATTN_FLASH1}, {"flash_attn==1.0.9", 51200, ATTN_FLASH1},
		{"FlashAttention v1", 51200, ATTN_FLASH1}, {"FlashAttention (v1)", 51200, ATTN_FLASH1},
		{"FlashAttention 1.7x faster", 51200, ATTN_FLASH2},
		{"FA1 not FA2", 51200, ATTN_FLASH1}};
	for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++) {
		build_cell("E-3%02zu,x,A100-SXM4-80GB,8,1,4,2048,16,2048,8,1,1,1,8,%s,"
			 "bf16,none,iteration_time,1,s,x", i, fa[i].other, &c);
		ck_assert_msg(c.s.model.vocab == fa[i].vocab && c.s.training.attention == fa[i].attn,
		              "%s: vocab %d, attention %d", fa[i].other, c.s.model.vocab,
		              c.s.training.attention);
	}
	/* PyTorch's SDPA on Hopper ran FlashAttention-2 until 2.9 made cuDNN's
	 * kernels its default; Transformer Engine, Blackwell, a named kernel
	 * and a later PyTorch keep the GPU's best (auto: cuDNN's) */
	static const struct { const char *gpu, *other; scn_attention attn; } sd[] = {
		{"H100-SXM5-80GB", "torchtitan FSDP2", ATTN_FLASH2},
		{"H100-SXM5-80GB", "FSDP; SDPA; torch 2.7.0a0", ATTN_FLASH2},
		{"H200-SXM-141GB", "torchtitan; torch==2.8", ATTN_FLASH2},
		{"H100-SXM5-80GB", "torchtitan; torch 2.9.0.dev20250815", ATTN_AUTO},
		{"H100-SXM5-80GB", "torchtitan; PyTorch 2.10", ATTN_AUTO},
		{"H100-SXM5-80GB", "torchtitan; cuDNN attention", ATTN_AUTO},
		{"H100-SXM5-80GB", "SDPA through Transformer Engine", ATTN_AUTO},
		{"B200", "torchtitan FSDP2", ATTN_AUTO},
		{"A100-SXM4-80GB", "torchtitan FSDP2", ATTN_AUTO},
		{"H100-SXM5-80GB", "FSDP", ATTN_AUTO},
		{"H100-SXM5-80GB", "torchtitan; torch>=2.9", ATTN_AUTO},
		{"H100-SXM5-80GB", "torchtitan; PyTorch version 2.9", ATTN_AUTO},
		{"H100-SXM5-80GB", "torchtitan; torch-2.9.0", ATTN_AUTO},
		{"H100-SXM5-80GB", "torchtitan; torch 2.5.0", ATTN_AUTO},
		{"H100-SXM5-80GB", "torchtitan; torch 2.5.1", ATTN_FLASH2},
		{"H100-SXM5-80GB", "HF Trainer; attn_implementation sdpa", ATTN_FLASH2},
		{"H100-SXM5-80GB", "torchtitan; flash-attn 3", ATTN_FLASH},
		/* LLM Foundry's FlashAttention 1 only in its time and without FA2 */
		{"A100-SXM4-80GB", "LLM Foundry; attn_impl flash", ATTN_FLASH1},
		{"H100-SXM5-80GB", "LLM Foundry; attn_impl flash; flash-attn==2.4.2", ATTN_FLASH2},
		{"H100-SXM5-80GB", "LLM Foundry; attn_impl flash; FlashAttention v2", ATTN_FLASH2},
		{"H100-SXM5-80GB", "LLM Foundry v0.10.0 (2024); attn_impl flash", ATTN_FLASH2},
		{"B200", "LLM Foundry; attn_impl flash", ATTN_FLASH2},
		{"A100-SXM4-80GB", "DeepSpeed; FlashAttention; see the llm-foundry issue", ATTN_FLASH2}};
	for (size_t i = 0; i < sizeof sd / sizeof sd[0]; i++) {
		char fmt[160];
		snprintf(fmt, sizeof fmt, "E-5%%02zu,x,%s,8,1,4,2048,16,2048,8,1,1,1,8,%%s,bf16,none,"
		         "iteration_time,1,s,x", sd[i].gpu);
		build_cell(fmt, i, sd[i].other, &c);
		ck_assert_msg(c.s.training.attention == sd[i].attn, "%s on %s: attention %d",
		              sd[i].other, sd[i].gpu, c.s.training.attention);
	}
	/* GPT-OSS: a band of 128 tokens on every other layer when the row does
	 * not say (its model card) */
	ck_assert_msg(build_row("E-698,x,B200,8,1,4,2048,16,4096,8,1,1,1,8,\"GPT-OSS-120B; 128 "
	                        "experts top-4\",bf16,none,iteration_time,1,s,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.sliding_window, 128);
	ck_assert_int_eq(c.s.model.global_every, 2);
	/* Gemma 3's window from its family: 1024 tokens on five layers of six */
	ck_assert_msg(build_row("E-697,x,H100-SXM5-80GB,8,12,48,3840,16,8192,8,1,1,1,8,Gemma 3 12B,"
	                        "bf16,none,iteration_time,1,s,x", &c, why, sizeof why) == 0, "%s",
	              why);
	ck_assert_int_eq(c.s.model.sliding_window, 1024);
	ck_assert_int_eq(c.s.model.global_every, 6);
	/* "no attention sinks" is no GPT-OSS */
	ck_assert_msg(build_row("E-695,x,H100-SXM5-80GB,8,1,4,2048,16,4096,8,1,1,1,8,\"64 experts "
	                        "top-6; EP8; no attention sinks\",bf16,none,iteration_time,1,s,x",
	                        &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.sliding_window, 0);
	/* a window named in a Gemma 2 row keeps the family's every other layer */
	ck_assert_msg(build_row("E-696,x,H100-SXM5-80GB,8,9,42,3584,16,8192,8,1,1,1,8,\"Gemma 2 9B; "
	                        "SWA 1024\",bf16,none,iteration_time,1,s,x", &c, why, sizeof why) ==
	              0, "%s", why);
	ck_assert_int_eq(c.s.model.sliding_window, 1024);
	ck_assert_int_eq(c.s.model.global_every, 2);
	/* a sliding window and the layers it covers, read from the text */
	static const struct { const char *other; int w, every; } sw[] = {
		{"SWA 128 on every other layer", 128, 2},
		{"sliding window 1024; 5:1 local:global", 1024, 6},
		{"sliding_window: 4096", 4096, 0},
		{"a 512-token sliding window, alternating with global layers", 512, 2},
		{"SwiGLU; GQA 8", 0, 0},
		{"throughput over a sliding window of 50 iterations", 0, 0},
		{"SWA disabled (seq 4096)", 0, 0},
		{"SWA 4096; 8 local GPUs; global batch 64", 4096, 0},
		{"sliding window attention 1024; 5:1 local:global", 1024, 6},
		{"SWA 4096; 1 global every 6 layers", 4096, 6},
		{"activation swap off; rolling window average", 0, 0}};
	for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++) {
		build_cell("E-6%02zu,x,H100-SXM5-80GB,8,1,4,2048,16,8192,8,1,1,1,8,\"%s\",bf16,none,"
			 "iteration_time,1,s,x", i, sw[i].other, &c);
		ck_assert_msg(c.s.model.sliding_window == sw[i].w &&
		              c.s.model.global_every == sw[i].every, "%s: window %d every %d",
		              sw[i].other, c.s.model.sliding_window, c.s.model.global_every);
	}
	/* FSDP2 under torchtitan's pipelining gathers once and reduces once a
	 * step: ZeRO-1; without PP it stays ZeRO-3 */
	ck_assert_msg(build_row("E-598,x,H100-SXM5-80GB,16,1,4,2048,16,2048,16,1,1,2,8,\"torchtitan; "
	                        "FSDP2 (dp_shard 8)\",bf16,none,iteration_time,1,s,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.zero, 1);
	ck_assert_msg(build_row("E-597,x,H100-SXM5-80GB,8,1,4,2048,16,2048,8,1,1,1,8,\"torchtitan; "
	                        "FSDP2 (dp_shard 8)\",bf16,none,iteration_time,1,s,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.zero, 3);
	ck_assert_msg(build_row("E-599,x,H100-SXM5-80GB,8,1,4,2048,16,2048,8,1,1,1,8,torchtitan,"
	                        "tf32,none,iteration_time,1,s,x", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.attention, ATTN_AUTO);
	/* PyTorch without torch.compile runs its composite ops eagerly */
	static const struct { const char *other; scn_kernels k; } ek[] = {
		{"FSDP2; no torch.compile", KERNELS_EAGER},
		{"FSDP2; torch.compile off (config default)", KERNELS_EAGER},
		{"eager mode", KERNELS_EAGER},
		{"FSDP2; torch.compile", KERNELS_FUSED},
		{"torch.compile not stated", KERNELS_FUSED},
		{"torch.compile; AC off", KERNELS_FUSED},
		{"torch.compile; dropout disabled", KERNELS_FUSED},
		{"torch.compile=False", KERNELS_EAGER},
		{"FSDP2; compile: false", KERNELS_EAGER},
		{"Megatron-core", KERNELS_FUSED}};
	for (size_t i = 0; i < sizeof ek / sizeof ek[0]; i++) {
		build_cell("E-4%02zu,x,A100-SXM4-80GB,8,1,4,2048,16,2048,8,1,1,1,8,%s,"
			 "bf16,none,iteration_time,1,s,x", i, ek[i].other, &c);
		ck_assert_msg(c.s.training.kernels == ek[i].k, "%s: kernels %d", ek[i].other,
		              c.s.training.kernels);
	}
	/* FSDP's "PURE" mixed precision reduces the gradients in bf16 */
	ck_assert_msg(build_row("E-204,x,A100-SXM4-80GB,8,1,4,2048,16,2048,8,1,1,1,8,\"FSDP; "
	                        "mixed precision PURE\",bf16,none,iteration_time,1,s,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.training.grad_reduce.dtype, PREC_BF16);
	/* DeepSeek's DualPipe overlaps the all-to-all with computation */
	ck_assert_msg(build_row("E-201,x,H800,16,1,4,2048,16,2048,16,1,1,1,16,\"64 experts top-6; "
	                        "EP8; DualPipe\",bf16,none,iteration_time,1,s,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert(c.s.training.ep_overlap && c.s.training.ep == 8);
	/* a MoE model named without its shape takes its published config; an EP
	 * beyond dp x cp draws on the TP ranks (expert TP 1) */
	ck_assert_msg(build_row("E-202,x,H100,256,235,,,,4096,2048,1,2,8,16,Qwen3-235B-A22B EP32 VP4,"
	                        "fp8,,tokens_per_sec_per_gpu,1600,tokens/s/GPU,x", &c, why,
	                        sizeof why) == 0, "%s", why);
	ck_assert_int_eq(c.s.model.layers, 94);
	ck_assert_int_eq(c.s.model.hidden, 4096);
	ck_assert_int_eq(c.s.model.experts, 128);
	ck_assert_int_eq(c.s.model.head_dim, 128);
	ck_assert_int_eq(c.s.training.expert_tp, 1);
	ck_assert(c.assumed);
	/* The DP reduction overlaps the backward when told to; unsaid, a bf16
	 * row does (today's recipes), an fp16 one (2019-21 Megatron) does not */
	static const struct { const char *other; bool overlap, fp16; } ov[] = {
		{"DDP=torch", true, true}, {"--overlap-grad-reduce", true, true},
		{"overlapped DP; SP", true, true}, {"no overlap", false, false},
		{"DDP=local", false, false}, {"non-overlapped DP", false, false},
		{"--tp-comm-overlap", false, true}, {"--tp-comm-overlap", true, false},
		{"no DP overlap", false, false}, {"--overlap-param-gather", true, false}};
	for (size_t i = 0; i < sizeof ov / sizeof ov[0]; i++) {
		char row[256];
		snprintf(row, sizeof row, "O-%03zu,x,A100-SXM4-80GB,16,1,2,2048,16,2048,16,1,1,1,16,%s,"
			 "%s,none,iteration_time,1,s,x", i, ov[i].other, ov[i].fp16 ? "fp16" : "bf16");
		ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s", why);
		ck_assert_msg(c.s.training.grad_reduce.overlap == ov[i].overlap, "%s %s", ov[i].other,
		              ov[i].fp16 ? "fp16" : "bf16");
	}
}
END_TEST

/* One data row of the columns the reading tests vary (metric, value, unit,
 * each quoted), read into *r; the rest a small A100 run. */
static void read_cells(const char *metric, const char *value, const char *unit, val_row *r)
{
	char text[1024], err[256];
	snprintf(text, sizeof text, HEADER "R-001,x,DGX A100 80GB,8,1,2,2048,16,2048,8,1,1,1,8,,"
	         "bf16,none,\"%s\",\"%s\",\"%s\",x\n", metric, value, unit);
	val_row *rs;
	size_t n;
	ck_assert_msg(val_parse(text, "t.csv", &rs, &n, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(n, 1);
	*r = rs[0];
	free(rs);
}

/* The same row built into its case (0), or -1 with why. */
static int build_cells(const char *metric, const char *value, const char *unit, val_case *c,
                       char *why, size_t n)
{
	val_row r;
	read_cells(metric, value, unit, &r);
	return val_build(&r, c, why, n);
}

/* The value column as tables write it: thousands separators (comma, blank),
 * a mark of approximation or a bound before the number, a k or M right
 * after it (scaling unless the unit already does), a unit glued to it when
 * the unit column is empty; what was read before reads the same. */
START_TEST(t_value_cells)
{
	static const struct {
		const char *value, *unit;
		double want;
		bool has;
		const char *unit_read;   /* r.unit after reading */
	} cases[] = {
		{"1,728", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{"1 728", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{"1,728.5", "tokens/s/GPU", 1728.5, true, "tokens/s/GPU"},
		{"110,592", "tokens/s", 110592, true, "tokens/s"},
		{"~1728", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{"\xe2\x89\x88" "1728", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{"approx. 1728", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{">1700", "tokens/s/GPU", 1700, true, "tokens/s/GPU"},
		{"< 1700", "tokens/s/GPU", 1700, true, "tokens/s/GPU"},
		{"1.7k", "tokens/s/GPU", 1700, true, "tokens/s/GPU"},
		{"1.7K", "tokens/s/GPU", 1700, true, "tokens/s/GPU"},
		{"2.5M", "tokens/s", 2.5e6, true, "tokens/s"},
		/* the unit carries the scale: not twice */
		{"1.728k", "k tokens/s/GPU", 1.728, true, "k tokens/s/GPU"},
		{"0.11M", "M tokens/s", 0.11, true, "M tokens/s"},
		/* what read right before still does */
		{"45%", "%", 45, true, "%"},
		{"1728 \xc2\xb1 12", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{"1728 (est.)", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{"1.728e3", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{"1728,5", "tokens/s/GPU", 1728, true, "tokens/s/GPU"},
		{"-5", "s", -5, true, "s"},
		{"(n-1)/n", "", 0, false, ""},
		{"N/A", "s", 0, false, "s"},
		/* a unit glued to the number, the unit column empty */
		{"4740ms", "", 4740, true, "ms"},
		{"4.7 s", "", 4.7, true, "s"},
		{"45%", "", 45, true, "%"},
		{"1728 (est.)", "", 1728, true, ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_row r;
		read_cells("step time", cases[i].value, cases[i].unit, &r);
		ck_assert_msg(r.has_value == cases[i].has, "'%s': has_value %d", cases[i].value,
		              r.has_value);
		ck_assert_msg(fabs(r.value - cases[i].want) <= 1e-9 * fabs(cases[i].want),
		              "'%s' '%s': read %g, want %g", cases[i].value, cases[i].unit, r.value,
		              cases[i].want);
		ck_assert_msg(!strcmp(r.unit, cases[i].unit_read), "'%s': unit '%s'", cases[i].value,
		              r.unit);
	}
	/* a glued unit is the unit compared in */
	val_case c;
	char why[256];
	ck_assert_msg(build_cells("iteration_time", "4740ms", "", &c, why, sizeof why) == 0, "%s", why);
	ck_assert_double_eq_tol(c.unit_scale, 1e-3, 1e-15);
	ck_assert_double_eq_tol(c.published_si, 4.74, 1e-9);
	scn_release(&c.s);
	/* the counts share the separators: "1 024" GPUs */
	val_row *rs;
	size_t n;
	char err[256];
	ck_assert_int_eq(val_parse(HEADER "G-001,x,A100,1 024,1,2,2048,16,2048,\"1,024\",1,1,1,8,,"
	                           "bf16,none,iteration_time,1,s,x\n", "t.csv", &rs, &n, err,
	                           sizeof err), 0);
	ck_assert_int_eq(rs[0].gpus, 1024);
	ck_assert_int_eq(rs[0].global_batch, 1024);
	free(rs);
}
END_TEST

/* Per-GPU rates in their spellings: per-GPU, per device, per chip, per
 * accelerator, tokens/(GPU·s), NeMo's "Tokens / sec / GPU", tok/s/gpu,
 * InternEvo's TGS; a rate of the whole job stays one. */
START_TEST(t_per_gpu_spellings)
{
	static const struct { const char *metric, *unit; bool per_gpu; } cases[] = {
		{"Throughput per-GPU", "tokens/s", true},
		{"throughput", "tokens/s/device", true},
		{"throughput", "tokens/s per device", true},
		{"throughput", "tokens/sec/chip", true},
		{"throughput", "tokens/s per chip", true},
		{"throughput", "tokens/s/accelerator", true},
		{"throughput", "tokens/(GPU\xc2\xb7s)", true},
		{"Tokens / sec / GPU", "", true},
		{"tok/s/gpu", "", true},
		{"throughput", "tok/s/gpu", true},
		{"TGS", "", true},
		{"TGS", "tokens/GPU/s", true},
		{"throughput", "TGS", true},
		{"tokens per second per device", "", true},
		{"per-GPU throughput", "tokens/s", true},
		/* the whole job's */
		{"throughput", "tokens/s (all 8 GPUs together)", false},
		{"tokens_per_sec", "tokens/s", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256];
		ck_assert_msg(build_cells(cases[i].metric, "1728", cases[i].unit, &c, why,
		                          sizeof why) == 0, "%s [%s]: %s", cases[i].metric,
		              cases[i].unit, why);
		ck_assert_msg(c.metric == VM_TOKENS, "%s [%s]: metric %d", cases[i].metric,
		              cases[i].unit, c.metric);
		ck_assert_msg(c.per_gpu == cases[i].per_gpu, "%s [%s]: per_gpu %d", cases[i].metric,
		              cases[i].unit, c.per_gpu);
		ck_assert_double_eq_tol(c.unit_scale, 1, 1e-12);
		scn_release(&c.s);
	}
}
END_TEST

/* A unit of time in the metric's name when the unit column is empty:
 * "_ms", "[ms]", ", ms", "in ms", "ms/iter"; seconds "_s", "[s]", "(sec)";
 * a rate's "per_s" or "/s" is no unit of time. */
START_TEST(t_time_unit_in_name)
{
	static const struct { const char *metric; double scale; const char *unit; } cases[] = {
		{"elapsed_time_per_iteration_ms", 1e-3, "ms"},
		{"iteration_time_ms", 1e-3, "ms"},
		{"step_time_ms", 1e-3, "ms"},
		{"iter_time_ms", 1e-3, "ms"},
		{"time_per_step_ms", 1e-3, "ms"},
		{"step time [ms]", 1e-3, "ms"},
		{"step time, ms", 1e-3, "ms"},
		{"iteration time in ms", 1e-3, "ms"},
		{"ms/iter", 1e-3, "ms"},
		{"ms_per_step", 1e-3, "ms"},
		{"iteration_time_s", 1, "s"},
		{"step time [s]", 1, "s"},
		{"train_step_timing in s", 1, "s"},
		{"seconds per step", 1, "seconds"},
		/* the parentheses are read as before (validate.c) */
		{"iteration time (sec)", 1, ""},
		{"elapsed time per iteration (ms)", 1e-3, ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_row r;
		read_cells(cases[i].metric, "4740", "", &r);
		ck_assert_msg(!strcmp(r.unit, cases[i].unit), "%s: unit '%s'", cases[i].metric, r.unit);
		val_case c;
		char why[256];
		ck_assert_msg(val_build(&r, &c, why, sizeof why) == 0, "%s: %s", cases[i].metric, why);
		ck_assert_msg(c.metric == VM_ITER_TIME, "%s: metric %d", cases[i].metric, c.metric);
		ck_assert_msg(fabs(c.unit_scale - cases[i].scale) < 1e-15, "%s: scale %g",
		              cases[i].metric, c.unit_scale);
		scn_release(&c.s);
	}
	/* a rate's denominator is not the unit of a time */
	static const char *const rates[] = {"tokens_per_s", "tokens/s", "samples_per_second",
		"throughput_tokens_per_s"};
	for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
		val_row r;
		read_cells(rates[i], "4740", "", &r);
		ck_assert_msg(!r.unit[0], "%s: unit '%s'", rates[i], r.unit);
	}
}
END_TEST

/* A count's scale before a rate's unit: B and G (1e9), T (1e12), million,
 * billion; "per day" as "/day". */
START_TEST(t_rate_unit_scales)
{
	static const struct { const char *unit; double scale; } cases[] = {
		{"B tokens/day", 1e9 / 86400},
		{"Gtokens/day", 1e9 / 86400},
		{"T tokens/day", 1e12 / 86400},
		{"million tokens/s", 1e6},
		{"billion tokens per day", 1e9 / 86400},
		{"M samples/s", 1e6},
		/* as before */
		{"k tokens/s", 1e3},
		{"Mtok/s", 1e6},
		{"tokens/day", 1.0 / 86400},
		{"tokens/hour", 1.0 / 3600},
		{"tokens/s", 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256];
		ck_assert_msg(build_cells("throughput", "9.555", cases[i].unit, &c, why, sizeof why) == 0,
		              "%s: %s", cases[i].unit, why);
		ck_assert_msg(fabs(c.unit_scale / cases[i].scale - 1) < 1e-12, "%s: scale %g",
		              cases[i].unit, c.unit_scale);
		scn_release(&c.s);
	}
}
END_TEST

/* Metric names that were refused for a poor reason: a total that is a rate
 * (the whole job's), "effective"/"achieved"/"sustained" FLOP rates, "% of
 * peak", "performance" in TFLOP/s, times per iteration or batch, latency per
 * step; "model throughput" in TFLOP/s is model FLOPs. GPU-hours stay
 * unpredicted, as a cost. */
START_TEST(t_metric_names_read)
{
	static const struct {
		const char *metric, *unit;
		val_metric want;
		double scale;
	} cases[] = {
		{"total throughput", "tokens/s", VM_TOKENS, 1},
		{"Total tokens/s", "", VM_TOKENS, 1},
		{"Total PFLOPS", "", VM_AGG_PFLOPS, 1e15},
		{"total TFLOPS", "", VM_AGG_PFLOPS, 1e12},
		{"effective TFLOPs per GPU", "", VM_HW_TFLOPS, 1e12},
		{"Achieved teraFLOP/s per GPU", "", VM_HW_TFLOPS, 1e12},
		{"sustained petaFLOPs", "", VM_AGG_PFLOPS, 1e15},
		{"% of theoretical peak", "", VM_PCT_PEAK, 1},
		{"percentage of peak FLOPs", "", VM_PCT_PEAK, 1},
		{"performance", "TFLOP/s", VM_HW_TFLOPS, 1e12},
		/* a rate that names its convention is the rate (ATORCH15: read as
		 * HFU in % before) */
		{"TFLOP/s per GPU (hardware, HFU basis)", "TFLOP/s/GPU (HFU 65.6%)", VM_HW_TFLOPS,
		 1e12},
		{"TFLOP/s per GPU (MFU basis)", "TFLOP/s", VM_MODEL_TFLOPS, 1e12},
		{"MFU (TFLOP/s basis)", "percent of peak TFLOP/s", VM_MFU, 1},
		{"sec/iter", "", VM_ITER_TIME, 1},
		{"time/iter (ms)", "", VM_ITER_TIME, 1e-3},
		{"speed", "s/it", VM_ITER_TIME, 1},
		{"time", "ms/step", VM_ITER_TIME, 1e-3},
		{"time per batch", "s", VM_ITER_TIME, 1},
		{"batch time", "s", VM_ITER_TIME, 1},
		{"train_step_timing in s", "", VM_ITER_TIME, 1},
		{"latency per step", "s", VM_ITER_TIME, 1},
		{"model throughput", "TFLOPS/GPU", VM_MODEL_TFLOPS, 1e12},
		{"throughput", "TFLOPS/GPU", VM_HW_TFLOPS, 1e12},
		/* a note in the unit does not rename the metric (twentieth session's
		 * wording audit: a step time read as MFU, +857%; TFLOP/s per GPU as
		 * the job's sum; samples/s as tokens/s) */
		{"Iter. time", "s per step (table: 3403086.41 tokens/s whole job, MFU 42.54%)",
		 VM_ITER_TIME, 1},
		{"Step duration", "s per step (MFU 42.54%)", VM_ITER_TIME, 1},
		{"time per training step", "s", VM_ITER_TIME, 1},
		{"TFLOPs/GPU", "TFLOP/s per GPU (15.1 PFLOP/s aggregate / 512)", VM_HW_TFLOPS, 1e12},
		{"TFLOPS", "TFLOP/s (aggregate)", VM_AGG_PFLOPS, 1e12},
		{"throughput", "samples/s whole job (= 31,365 tokens/s/GPU)", VM_SAMPLES, 1},
		{"throughput", "tokens/s (2048-token samples)", VM_TOKENS, 1},
		{"Model FLOPs Utilisation", "%", VM_MFU, 1},
		{"model flops util.", "%", VM_MFU, 1},
		{"utilization", "% (MFU)", VM_MFU, 1},
		/* a remark in brackets after the name, not a part of the step */
		{"tokens_per_sec_per_gpu (after warmup)", "tokens/s", VM_TOKENS, 1},
		{"iteration_time (w/o eval)", "s", VM_ITER_TIME, 1},
		{"tokens_per_sec_per_gpu (including communication)", "tokens/s", VM_TOKENS, 1},
		{"tflops_per_gpu (with activation checkpointing)", "TFLOP/s", VM_HW_TFLOPS, 1e12},
		{"tokens_per_sec_per_gpu (forward only)", "tokens/s", VM_NONE, 0},
		{"iteration time (per layer)", "ms", VM_NONE, 0},
		{"step time (excluding communication)", "s", VM_NONE, 0},
		{"step time (per micro-batch)", "s", VM_NONE, 0},
		{"tokens_per_sec_per_gpu (with recommended settings)", "tokens/s", VM_TOKENS, 1},
		{"tokens_per_sec_per_gpu (with comm overlap)", "tokens/s", VM_TOKENS, 1},
		{"step time (with flash attention)", "s", VM_ITER_TIME, 1},
		{"TFLOPS", "TFLOP/s (per GPU; aggregate 4.4 PF)", VM_HW_TFLOPS, 1e12},
		/* still counts, parts or conditions */
		{"total_tokens", "tokens", VM_NONE, 0},
		{"total_steps", "steps", VM_NONE, 0},
		{"total_tokens", "tokens per step", VM_NONE, 0},
		{"micro-batch time", "ms", VM_NONE, 0},
		{"tokens_per_step", "tokens", VM_NONE, 0},
		{"weak_scaling_efficiency_tflops", "%", VM_SCALING_EFF, 1},
		{"tflops_per_gpu_with_fusion", "TFLOP/s", VM_NONE, 0},
		{"throughput", "it/s", VM_NONE, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		val_case c;
		char why[256];
		int rc = build_cells(cases[i].metric, "50", cases[i].unit, &c, why, sizeof why);
		if (cases[i].want == VM_NONE) {
			ck_assert_msg(rc == -1, "%s [%s]: predicted as %d", cases[i].metric,
			              cases[i].unit, c.metric);
			continue;
		}
		ck_assert_msg(rc == 0, "%s [%s]: %s", cases[i].metric, cases[i].unit, why);
		ck_assert_msg(c.metric == cases[i].want, "%s [%s]: metric %d", cases[i].metric,
		              cases[i].unit, c.metric);
		ck_assert_msg(fabs(c.unit_scale / cases[i].scale - 1) < 1e-12, "%s: scale %g",
		              cases[i].metric, c.unit_scale);
		scn_release(&c.s);
	}
	val_case c;
	char why[256];
	ck_assert_int_eq(build_cells("GPU hours", "50000", "h", &c, why, sizeof why), -1);
	ck_assert_msg(strstr(why, "cost") && !strstr(why, "failure"), "%s", why);
	ck_assert_int_eq(build_cells("effective_training_time", "90", "%", &c, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "failure"));
	/* a time for a rate, a value beyond any measurement, and a time unit's
	 * word that goes on ("us" is not "user-reported") */
	ck_assert_int_eq(build_cells("tokens_per_sec_per_gpu", "100", "us", &c, why, sizeof why), -1);
	ck_assert_msg(strstr(why, "is a time"), "%s", why);
	ck_assert_int_eq(build_cells("iteration_time", "1e-300", "s", &c, why, sizeof why), -1);
	ck_assert_msg(strstr(why, "out of any measurement"), "%s", why);
	ck_assert_int_eq(build_cells("iteration_time", "1.5", "user-reported", &c, why, sizeof why), 0);
	ck_assert_double_eq(c.unit_scale, 1);
	scn_release(&c.s);
}
END_TEST

/* Rows of a CSV under tests/validation/ (top_srcdir, else the current
 * directory); the caller frees them. */
int main(void)
{
	Suite *s = suite_create("validate");
	TCase *tc = tcase_create("rows");
	tcase_add_checked_fixture(tc, load, unload);
	tcase_set_timeout(tc, 300);   /* the step simulations of t_predict */
	tcase_add_test(tc, t_csv_quoting);
	tcase_add_test(tc, t_power_cap);
	tcase_add_test(tc, t_kernel_types);
	tcase_add_test(tc, t_megatron_row);
	tcase_add_test(tc, t_paper_convention);
	tcase_add_test(tc, t_korthikanti_rows);
	tcase_add_test(tc, t_other_hardware);
	tcase_add_test(tc, t_not_simulated);
	tcase_add_test(tc, t_other_models);
	tcase_add_test(tc, t_zero_text);
	tcase_add_test(tc, t_layout_text);
	tcase_add_test(tc, t_collective_rows);
	tcase_add_test(tc, t_nic_text);
	tcase_add_test(tc, t_new_part_tokens);
	tcase_add_test(tc, t_metric_spellings);
	tcase_add_test(tc, t_predict);
	tcase_add_test(tc, t_scaling_rows);
	tcase_add_test(tc, t_memory_inference);
	tcase_add_test(tc, t_unrunnable_rows);
	tcase_add_test(tc, t_value_cells);
	tcase_add_test(tc, t_per_gpu_spellings);
	tcase_add_test(tc, t_time_unit_in_name);
	tcase_add_test(tc, t_rate_unit_scales);
	tcase_add_test(tc, t_metric_names_read);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
