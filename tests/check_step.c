/* check_step.c: the training step on the event engine: pipeline bubbles
 * against (p-1)/(m+p-1) with free communication, the time split and its
 * sentences, NIC monotonicity, gradient accumulation, the DP all-reduce of
 * the seeds' 100B example, compression and memory (whole runs: check_step_run.c). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine.h"
#include "memest.h"
#include "step.h"
#include "step_test.h"
#include "scn.h"

START_TEST(test_bubble_1f1b)
{
	const int ps[] = {2, 4, 8, 4}, ms[] = {4, 8, 8, 32};
	for (int i = 0; i < 4; i++) {
		scenario s = free_comm(ps[i], ms[i], 16);
		s.training.schedule = SCHED_1F1B;
		step_result r = run_ok(&s);
		double want = (ps[i] - 1.0) / (ms[i] + ps[i] - 1.0);
		ck_assert_double_eq_tol(bubble_of(&r), want, 1e-4);
		ck_assert_double_eq_tol(r.bubble_ideal, want, 1e-12);
		ck_assert_int_eq(r.micro_batches, ms[i]);
		/* GPipe idles exactly as long */
		s.training.schedule = SCHED_GPIPE;
		step_result g = run_ok(&s);
		ck_assert_double_eq_tol(bubble_of(&g), want, 1e-4);
		ck_assert_double_eq_tol(g.step_time_s, r.step_time_s, 1e-6 * r.step_time_s);
		step_result_release(&r);
		step_result_release(&g);
	}
}
END_TEST

START_TEST(test_bubble_interleaved)
{
	const int vs[] = {2, 4};
	scenario s = free_comm(4, 8, 16);
	step_result base1 = run_ok(&s);
	for (int i = 0; i < 2; i++) {
		s.training.schedule = SCHED_INTERLEAVED;
		s.training.virtual_stages = vs[i];
		step_result r = run_ok(&s);
		double want = 3.0 / (vs[i] * 8.0 + 3.0);
		ck_assert_double_eq_tol(bubble_of(&r), want, 1e-4);
		ck_assert(bubble_of(&r) < bubble_of(&base1) - 0.05);
		ck_assert(r.step_time_s < base1.step_time_s);
	}
}
END_TEST

/* Many stages of tiny layers with the embedding and logits on the end stages:
 * the other stages wait for the last one every micro-batch, far beyond
 * (p-1)/(m+p-1). That wait is imbalance, not the bubble: more micro-batches
 * would not shrink it, rebalancing would. It is idle, the bubble stays near
 * the schedule's, and the sentence names the slowest stage. With equal
 * stages the bubble sentence quotes the simulated share, the textbook
 * figure only as a comparison. */
START_TEST(test_bubble_sentence_simulated_share)
{
	scenario s = base(64, 1, 64);
	s.cluster.gpus_per_node = 1;
	s.cluster.nic.count = 1;
	s.model.layers = 64;
	s.model.hidden = 256;
	s.model.heads = 4;
	s.training.schedule = SCHED_1F1B;
	s.training.global_batch = 512;
	step_result r = run_ok(&s);
	double bub = 100 * r.split_s[SPLIT_PP_BUBBLE] / r.step_time_s;
	double idle = 100 * r.split_s[SPLIT_IDLE] / r.step_time_s;
	ck_assert_msg(bub + idle > 100 * r.bubble_ideal + 20, "bubble %g%% idle %g%% ideal %g%%",
		      bub, idle, 100 * r.bubble_ideal);
	ck_assert_msg(bub <= 100 * r.bubble_ideal + 1, "bubble %g%% ideal %g%%", bub,
		      100 * r.bubble_ideal);
	ck_assert_msg(strstr(r.bottleneck, "for the slowest pipeline stage") != NULL, "%s",
		      r.bottleneck);
	step_result_release(&r);

	scenario e = free_comm(8, 8, 16);
	e.training.schedule = SCHED_1F1B;
	r = run_ok(&e);
	double pct = 100 * r.split_s[SPLIT_PP_BUBBLE] / r.step_time_s;
	ck_assert_msg(fabs(pct - 100 * r.bubble_ideal) < 0.1, "bubble %g%% ideal %g%%", pct,
		      100 * r.bubble_ideal);
	char want[128];
	snprintf(want, sizeof want, "(%.0f%% of the step)", pct);
	ck_assert_msg(strstr(r.bottleneck, want) != NULL, "%s", r.bottleneck);
	snprintf(want, sizeof want, "free transfers, gives %.0f%%)", 100 * r.bubble_ideal);
	ck_assert_msg(strstr(r.bottleneck, want) != NULL, "%s", r.bottleneck);
	step_result_release(&r);
}
END_TEST

/* A heavier last stage (a large vocabulary's logits) does not grow the
 * bubble beyond the schedule's: the other stages' wait for it every
 * micro-batch is idle. */
START_TEST(test_bubble_not_imbalance)
{
	scenario s = free_comm(4, 8, 16);
	s.training.schedule = SCHED_1F1B;
	step_result r = run_ok(&s);
	double ideal = r.bubble_ideal, step0 = r.step_time_s;
	step_result_release(&r);
	equal_layers[15].fwd_flops *= 4;   /* the last stage's work x 7/4 */
	r = run_ok(&s);
	ck_assert(r.step_time_s > 1.3 * step0);
	double bub = r.split_s[SPLIT_PP_BUBBLE] / r.step_time_s;
	ck_assert_msg(bub <= ideal + 1e-6, "bubble %g of the step, ideal %g", bub, ideal);
	ck_assert_msg(r.split_s[SPLIT_IDLE] > 0.2 * r.step_time_s, "idle %g of %g",
		      r.split_s[SPLIT_IDLE], r.step_time_s);
	step_result_release(&r);
}
END_TEST

/* One GPU: the optimizer is the largest non-compute share, and ZeRO-1 has no
 * data-parallel ranks to shard it over, so the sentence must not offer it. */
START_TEST(test_optimizer_sentence_single_rank)
{
	const char *sets[] = {"cluster.gpus_per_node=1", "training.pp=1"};
	scenario s;
	load_teach("pipeline-bubble.yaml", sets, 2, &s);
	step_result r = run_ok(&s);
	ck_assert_msg(strstr(r.bottleneck, "The optimizer step takes") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "ZeRO-1") == NULL, "%s", r.bottleneck);
	ck_assert_ptr_nonnull(strstr(r.bottleneck, "one data-parallel rank"));
	step_result_release(&r);
	scn_release(&s);
}
END_TEST

/* One node over slow intra-node links: pipeline transfers and TP collectives
 * lead, and the sentences must not blame the NICs nor offer to move TP inside
 * the NVLink domain it is already in. */
START_TEST(test_comm_sentences_one_node)
{
	scenario s = base(1, 1, 8);
	s.model.layers = 8;
	s.training.global_batch = 64;
	s.cluster.intra.bandwidth_Bps = 1e8;
	step_result r = run_ok(&s);
	ck_assert_msg(strstr(r.bottleneck, "Pipeline transfers") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "the intra-node links") != NULL, "%s", r.bottleneck);
	ck_assert_ptr_null(strstr(r.bottleneck, "between nodes"));
	step_result_release(&r);
	scenario t = base(1, 8, 1);
	t.cluster.intra.bandwidth_Bps = 1e8;
	r = run_ok(&t);
	ck_assert_msg(strstr(r.bottleneck, "Tensor-parallel") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "NVLink domain") == NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "a smaller tp or overlapping") != NULL, "%s", r.bottleneck);
	step_result_release(&r);
	/* data parallel inside the node: no NIC carries the all-reduce */
	scenario u = base(1, 1, 1);
	u.cluster.intra.bandwidth_Bps = 1e8;
	r = run_ok(&u);
	ck_assert_msg(strstr(r.bottleneck, "Gradient all-reduce") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "over the intra-node links") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "NIC") == NULL, "%s", r.bottleneck);
	step_result_release(&r);
	/* a PCIe node: the naive figure is over PCIe, not the GPU's NVLink */
	u.cluster.intra.kind = INTRA_PCIE;
	u.cluster.intra.bandwidth_Bps = 0;
	r = run_ok(&u);
	double pcie = hw_pcie_Bps(u.cluster.gpu.pcie_gen > 0 ? u.cluster.gpu.pcie_gen : 4);
	ck_assert_double_eq_tol(r.dp_naive_s, r.dp_bytes_per_gpu / pcie, 1e-9 * r.dp_naive_s);
	ck_assert(r.dp_allreduce_s > r.dp_naive_s);
	step_result_release(&r);
}
END_TEST

/* Two nodes, tp 1 x pp 2 x dp 8 placed tp-dp-pp: each stage fills one node,
 * so its data-parallel group lies inside that node and the all-reduce runs
 * over PCIe; no NIC carries it. Placed tp-pp-dp, the same group spans both
 * nodes and the NIC sentence is the right one. */
START_TEST(test_dp_sentence_group_inside_node)
{
	scenario s = base(2, 1, 2);
	s.training.placement = PLACE_TP_DP_PP;
	s.training.grad_reduce.overlap = false;
	s.cluster.intra.kind = INTRA_PCIE;
	s.cluster.intra.bandwidth_Bps = 1e8;
	step_result r = run_ok(&s);
	ck_assert(!r.dp_crosses_nodes);
	ck_assert_msg(strstr(r.bottleneck, "Gradient all-reduce") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "over the intra-node links (PCIe") != NULL, "%s",
		      r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "NIC") == NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "RDMA") == NULL, "%s", r.bottleneck);
	step_result_release(&r);
	s.training.placement = PLACE_TP_PP_DP;
	s.cluster.nic.speed_Bps = 1e8;
	r = run_ok(&s);
	ck_assert(r.dp_crosses_nodes);
	ck_assert_msg(strstr(r.bottleneck, "Gradient all-reduce") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "through each NIC") != NULL, "%s", r.bottleneck);
	step_result_release(&r);
}
END_TEST

/* The DP group's GPUs on one node, the ppn of its collective (TCP's share of
 * line rate falls with it): all 8 without tp, 4 with tp 2, 1 with tp 8; 8
 * when tp-dp-pp puts each stage's group inside one node. */
START_TEST(test_dp_ranks_per_node)
{
	static const struct { int tp, pp; scn_placement place; int want; } c[] = {
		{1, 1, PLACE_TP_PP_DP, 8}, {2, 1, PLACE_TP_PP_DP, 4}, {8, 1, PLACE_TP_PP_DP, 1},
		{2, 2, PLACE_TP_PP_DP, 2}, {1, 2, PLACE_TP_DP_PP, 8},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		scenario s = base(2, c[i].tp, c[i].pp);
		s.training.placement = c[i].place;
		step_result r = run_ok(&s);
		ck_assert_msg(r.dp_ranks_per_node == c[i].want, "case %zu: %d, want %d", i,
			      r.dp_ranks_per_node, c[i].want);
		step_result_release(&r);
	}
	scenario s = base(1, 8, 1);   /* dp 1: no group */
	step_result r = run_ok(&s);
	ck_assert_int_eq(r.dp_ranks_per_node, 0);
	step_result_release(&r);
}
END_TEST

/* GPT ties its output layer to the embedding: with two stages each holds a
 * copy, and their gradients are all-reduced between the first and the last
 * stage before the optimizer (Megatron's embedding group), exposed as DP
 * communication even with dp = 1: vocab x hidden fp32 gradients over
 * NVLink. An untied (Llama-style) model has none. */
START_TEST(test_tied_embedding_reduce)
{
	scenario s = base(1, 1, 2);
	s.cluster.gpus_per_node = 2;
	s.training.global_batch = 8;
	step_result r = run_ok(&s);
	double S = 51200.0 * 2048 * 4, t = r.split_s[SPLIT_DP_COMM];
	ck_assert_msg(t > 0.8 * S / 240e9 && t < 2.0 * S / 240e9, "exposed %g s for %g B", t, S);
	step_result_release(&r);
	s.model.gated_mlp = true;
	r = run_ok(&s);
	ck_assert_double_eq_tol(r.split_s[SPLIT_DP_COMM], 0, 1e-12);
	step_result_release(&r);
}
END_TEST

/* Two nodes, tp 1 x pp 8 x dp 2 placed tp-pp-dp: each pipeline fills one
 * node, so every activation crosses the intra-node links and no NIC carries
 * a pipeline transfer, although the cluster has two nodes. With pp 2 placed
 * tp-dp-pp, the two stages sit on different nodes and the NIC sentence is the
 * right one. tp 2 x pp 4 x dp 2 behaves the same. */
START_TEST(test_pp_sentence_pipeline_inside_node)
{
	scenario s = base(2, 1, 8);
	s.training.placement = PLACE_TP_PP_DP;
	s.cluster.intra.bandwidth_Bps = 1e8;
	s.training.global_batch = 64;
	s.model.vocab = 1024;   /* the tied embedding's all-reduce would cross the slow links too */
	step_result r = run_ok(&s);
	ck_assert(!r.pp_crosses_nodes);
	ck_assert_msg(strstr(r.bottleneck, "Pipeline transfers") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "the intra-node links, NVLink through NVSwitch; each "
			     "pipeline lies inside one node") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "faster intra-node links") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "RDMA") == NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "between nodes") == NULL, "%s", r.bottleneck);
	step_result_release(&r);
	scenario x = base(2, 1, 2);   /* tp-dp-pp: stage 0 on node 0, stage 1 on node 1 */
	x.training.placement = PLACE_TP_DP_PP;
	x.cluster.nic.speed_Bps = 1e8;
	x.model.vocab = 1024;
	r = run_ok(&x);
	ck_assert(r.pp_crosses_nodes);
	ck_assert_msg(strstr(r.bottleneck, "Pipeline transfers") != NULL, "%s", r.bottleneck);
	ck_assert_msg(strstr(r.bottleneck, "RDMA between nodes") != NULL, "%s", r.bottleneck);
	step_result_release(&r);
	scenario t = base(2, 2, 4);
	t.training.placement = PLACE_TP_PP_DP;
	r = run_ok(&t);
	ck_assert(!r.pp_crosses_nodes);
	step_result_release(&r);
	t.training.placement = PLACE_TP_DP_PP;
	r = run_ok(&t);
	ck_assert(r.pp_crosses_nodes);
	step_result_release(&r);
	/* one pipeline stage: nothing to transfer */
	scenario u = base(2, 1, 1);
	r = run_ok(&u);
	ck_assert(!r.pp_crosses_nodes);
	step_result_release(&r);
}
END_TEST

/* Megatron's blocking calls (schedule.h) on 2 stages and 2 micro-batches,
 * every transfer taking d, forward 1 and backward 2 units: GPipe (sends leave
 * at once) ends at 9 + 2d; 1F1B with Megatron's calls at 9 + 3d, since stage 0
 * waits for its first activation's send before the second forward and stage
 * 1 receives the second activation only in the call after its first backward
 * (send_backward_recv_forward). The free-communication run gives the 9 units. */
/* On 2 stages x 2 micro-batches: with free transfers `kind` takes GPipe's
 * time; then with a slow pipeline link (d a few percent of a forward), what
 * the link adds to `kind`'s step over what it adds to GPipe's (2d). The two
 * slow runs are left in *k_slow and *g_slow. */
static double added_over_gpipe(scn_schedule kind, step_result *k_slow, step_result *g_slow)
{
	scenario s = free_comm(2, 2, 16);
	s.training.schedule = SCHED_GPIPE;
	step_result g0 = run_ok(&s);
	s.training.schedule = kind;
	step_result k0 = run_ok(&s);
	ck_assert_double_eq_tol(k0.step_time_s, g0.step_time_s, 1e-6 * g0.step_time_s);
	s.cluster.nic.speed_Bps = 1e4;
	*k_slow = run_ok(&s);
	s.training.schedule = SCHED_GPIPE;
	*g_slow = run_ok(&s);
	double dg = g_slow->step_time_s - g0.step_time_s, dk = k_slow->step_time_s - k0.step_time_s;
	ck_assert(dg > 1e-3 * g0.step_time_s);
	step_result_release(&g0);
	step_result_release(&k0);
	return dk / dg;
}

/* A custom model's pipeline message is the output of the stage's last
 * layer (`output`), or the activations it keeps when none is given: on a
 * slow link a small output shortens the step. */
START_TEST(test_custom_output)
{
	scenario s = free_comm(2, 4, 4);
	s.cluster.nic.speed_Bps = 1e9;
	static scn_layer kept[4];
	for (int i = 0; i < 4; i++)
		kept[i] = (scn_layer){"blk", 2e13, 1000, 1e9, 0};
	s.model.custom_layers = kept;
	step_result big = run_ok(&s);
	for (int i = 0; i < 4; i++)
		kept[i].out_bytes = 1e6;
	step_result small = run_ok(&s);
	ck_assert(big.split_s[SPLIT_PP_COMM] + big.split_s[SPLIT_PP_BUBBLE] >
	          small.split_s[SPLIT_PP_COMM] + small.split_s[SPLIT_PP_BUBBLE] + 1.0);
	ck_assert(small.step_time_s < big.step_time_s - 1.0);
	step_result_release(&big);
	step_result_release(&small);
}
END_TEST

START_TEST(test_blocking_calls)
{
	step_result f1, g1;
	ck_assert_double_eq_tol(added_over_gpipe(SCHED_1F1B, &f1, &g1), 1.5, 1e-6);
	ck_assert(f1.split_s[SPLIT_PP_COMM] > g1.split_s[SPLIT_PP_COMM]);
	step_result_release(&f1);
	step_result_release(&g1);
}
END_TEST

/* DeepSpeed's TrainSchedule (schedule: deepspeed) with its blocking
 * instructions: with free transfers the same step as 1F1B, the bubble
 * (p-1)/(m+p-1) also for m not a multiple of p; on 2 stages x 2
 * micro-batches with transfers of d it ends at 9 + 4d (GPipe 9 + 2d):
 * stage 1's forward step receives F1's activation and only then sends B0's
 * gradient, which stage 0 waits for after its own send of F1. */
START_TEST(test_deepspeed_schedule)
{
	const int ps[] = {4, 4}, ms[] = {8, 5};
	for (int i = 0; i < 2; i++) {
		scenario s = free_comm(ps[i], ms[i], 16);
		s.training.schedule = SCHED_1F1B;
		step_result f = run_ok(&s);
		s.training.schedule = SCHED_DEEPSPEED;
		step_result d = run_ok(&s);
		ck_assert_double_eq_tol(d.step_time_s, f.step_time_s, 1e-6 * f.step_time_s);
		ck_assert_double_eq_tol(bubble_of(&d), (ps[i] - 1.0) / (ms[i] + ps[i] - 1.0), 1e-4);
		step_result_release(&f);
		step_result_release(&d);
	}
	step_result d1, g1;
	ck_assert_double_eq_tol(added_over_gpipe(SCHED_DEEPSPEED, &d1, &g1), 2.0, 1e-6);
	step_result_release(&d1);
	step_result_release(&g1);
}
END_TEST

/* Recomputing fewer layers shortens the step, monotonically, from full
 * recomputation (N >= a stage's layers) down towards none. */
START_TEST(test_partial_recompute)
{
	scenario s = base(1, 2, 4);   /* 16 layers on 4 stages: 4 a stage */
	s.training.recompute = RECOMPUTE_FULL;
	step_result full = run_ok(&s);
	double prev = full.step_time_s;
	for (int n = 4; n >= 1; n--) {
		s.training.recompute_layers = n;
		step_result r = run_ok(&s);
		if (n == 4)
			ck_assert_double_eq_tol(r.step_time_s, full.step_time_s, 1e-9 * prev);
		else
			ck_assert(r.step_time_s < prev);
		prev = r.step_time_s;
		step_result_release(&r);
	}
	s.training.recompute = RECOMPUTE_NONE;
	s.training.recompute_layers = 0;
	step_result none = run_ok(&s);
	ck_assert(none.step_time_s < prev);
	step_result_release(&none);
	step_result_release(&full);
}
END_TEST

/* The loss in a layer's place (Megatron's --account-for-loss-in-pipeline-
 * split): 7 layers on 4 stages give the last stage, which also computes the
 * logits of a large vocabulary, one layer fewer (2 2 2 1 instead of the
 * even split's 1 2 2 2), and the pipeline, waiting on its slowest stage,
 * gets faster; giving the last stage one layer by count does the same, and
 * its parameters move to the first. */
START_TEST(test_loss_in_split)
{
	scenario s = base(1, 2, 4);
	s.model.layers = 7;
	s.model.vocab = 256000;
	s.training.global_batch = 32;
	step_result even = run_ok(&s);
	/* the others wait for the last stage: the sentence names the keys */
	ck_assert_msg(strstr(even.bottleneck, "loss_in_split"), "%s", even.bottleneck);
	s.training.loss_in_split = true;
	ck_assert_int_eq(wl_stage_layers(&s, 0), 2);
	ck_assert_int_eq(wl_stage_layers(&s, 3), 1);
	step_result loss = run_ok(&s);
	ck_assert(loss.step_time_s < 0.97 * even.step_time_s);
	s.training.loss_in_split = false;
	s.training.last_stage_layers = 1;
	step_result given = run_ok(&s);
	ck_assert_double_eq_tol(given.step_time_s, loss.step_time_s, 1e-9 * loss.step_time_s);
	step_result_release(&even);
	step_result_release(&loss);
	step_result_release(&given);
}
END_TEST

/* Megatron's scatter-gather: without sequence parallelism each received
 * activation piece is all-gathered over the TP group inside the call; with
 * it the message is already the rank's shard. Same bytes on the wire, more
 * pipeline-communication time without SP. */
START_TEST(test_scatter_gather)
{
	scenario s = base(2, 8, 2);
	s.training.dp = 1;
	s.training.global_batch = 8;
	s.training.recompute = RECOMPUTE_SELECTIVE;
	s.training.sequence_parallel = true;
	step_result sp = run_ok(&s);
	s.training.sequence_parallel = false;
	step_result no = run_ok(&s);
	ck_assert(no.split_s[SPLIT_PP_COMM] > sp.split_s[SPLIT_PP_COMM]);
	ck_assert(no.split_s[SPLIT_PP_COMM] > 0);
	/* without scatter-gather every TP rank sends the whole activation: tp
	 * times the bytes over the nodes' NICs, no gather */
	s.training.pp_scatter_gather = false;
	step_result whole = run_ok(&s);
	ck_assert_msg(whole.split_s[SPLIT_PP_COMM] > no.split_s[SPLIT_PP_COMM], "%g vs %g",
	              whole.split_s[SPLIT_PP_COMM], no.split_s[SPLIT_PP_COMM]);
}
END_TEST

/* The seeds' 100B example: fp16 gradients, data-parallel on 4 x 8 A100,
 * one NIC per node (scenarios/dp-100b-*.yaml), here over RDMA. */
static scenario dp100b(double gbps)
{
	scenario s = base(4, 1, 1);
	s.cluster.nic.count = 1;
	s.cluster.nic.speed_Bps = gbps * 1e9 / 8;
	s.model.layers = 80;
	s.model.hidden = 10240;
	s.model.heads = 80;
	s.model.seq_len = 2048;
	s.training.precision = PREC_FP16;
	s.training.global_batch = 32;
	s.training.grad_reduce.dtype = PREC_FP16;
	s.training.grad_reduce.algorithm = GRAD_ALGO_HIERARCHICAL;
	s.training.grad_reduce.bucket_bytes = 1e9;
	return s;
}

START_TEST(test_faster_nic_never_slower)
{
	const double speeds[] = {10, 25, 100, 400};
	double prev = INFINITY;
	for (int i = 0; i < 4; i++) {
		scenario s = dp100b(speeds[i]);
		s.cluster.nic.transport = TRANSPORT_TCP;
		step_result r = run_ok(&s);
		ck_assert_msg(r.step_time_s <= prev * (1 + 1e-9), "%g Gb/s: %g s after %g s",
			      speeds[i], r.step_time_s, prev);
		prev = r.step_time_s;
	}
	/* and on a 3D-parallel layout over RDMA */
	prev = INFINITY;
	for (int i = 0; i < 4; i++) {
		scenario s = base(4, 4, 2);
		s.cluster.nic.speed_Bps = speeds[i] * 1e9 / 8;
		step_result r = run_ok(&s);
		ck_assert(r.step_time_s <= prev * (1 + 1e-9));
		prev = r.step_time_s;
	}
}
END_TEST

/* A ring all-reduce of S bytes over n = 32 GPUs, node-major, one NIC per
 * node: each NIC carries 2(n-1)/n S at its achievable rate. */
START_TEST(test_dp_allreduce_100b)
{
	scenario s = dp100b(10);
	s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	step_result r = run_ok(&s);
	double S = r.dp_bytes_per_gpu;
	ck_assert(S > 195e9 && S < 210e9);   /* ~101e9 params x 2 B */
	hw_nic nic = s.cluster.nic;
	hw_nic_defaults(&nic, 8);
	double B = nic.speed_Bps * nic.efficiency;
	double want = 2.0 * 31 / 32 * S / B;
	ck_assert_double_eq_tol(r.dp_allreduce_s, want, 0.1 * want);
	ck_assert_ptr_nonnull(strstr(r.bottleneck, "1.94x"));
	ck_assert_double_eq_tol(r.dp_naive_s, S / 1.25e9, 1e-6 * r.dp_naive_s);
	/* the reduction cannot hide behind ~8 s of compute: it dominates */
	ck_assert(r.split_s[SPLIT_DP_COMM] > 0.5 * r.step_time_s);
	ck_assert_ptr_nonnull(strstr(r.bottleneck, "all-reduce"));
	ck_assert_int_eq(r.memory.fits, false);
}
END_TEST

/* The naive figure is over the bandwidth the group has alone: with a
 * pipeline of 4 the node's one NIC serves 2 of its group's GPUs, which reach
 * the whole NIC (not 2/8 of it), and a ring still moves about twice the
 * naive bytes through it; a TP pair sharing that NIC halves it. */
START_TEST(test_dp_naive_shared_nic)
{
	scenario s = dp100b(10);
	s.training.pp = 4;
	s.training.dp = 8;
	s.training.global_batch = 64;
	s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	step_result r = run_ok(&s);
	ck_assert_double_eq_tol(r.dp_naive_s, r.dp_bytes_per_gpu / 1.25e9, 1e-6 * r.dp_naive_s);
	ck_assert(r.dp_allreduce_s > 1.5 * r.dp_naive_s);
	step_result_release(&r);
	s.training.tp = 2;
	s.training.dp = 4;
	r = run_ok(&s);
	ck_assert_double_eq_tol(r.dp_naive_s, r.dp_bytes_per_gpu / (1.25e9 / 2),
	                        1e-6 * r.dp_naive_s);
	ck_assert(r.dp_allreduce_s > r.dp_naive_s);
	step_result_release(&r);
}
END_TEST

/* Gradient accumulation: one reduction per step whatever the number of
 * micro-batches, so fewer synchronizations per token. */
START_TEST(test_accumulation)
{
	const int ms[] = {1, 4, 16};
	double prev_per_token = INFINITY, prev_exposed = INFINITY;
	for (int i = 0; i < 3; i++) {
		scenario s = base(2, 1, 1);
		s.cluster.nic.speed_Bps = 10e9 / 8;
		s.training.global_batch = 16 * ms[i];
		step_result r = run_ok(&s);
		ck_assert_int_eq(r.micro_batches, ms[i]);
		ck_assert_int_eq(r.dp_syncs_per_step, 1);
		double tokens = (double)s.training.global_batch * s.model.seq_len;
		double per_token = r.dp_syncs_per_step / tokens;
		ck_assert(per_token < prev_per_token);
		ck_assert(r.split_s[SPLIT_DP_COMM] / tokens < prev_exposed);
		prev_per_token = per_token;
		prev_exposed = r.split_s[SPLIT_DP_COMM] / tokens;
	}
}
END_TEST

START_TEST(test_compression_bytes)
{
	const scn_compression c[] = {COMPRESS_NONE, COMPRESS_FP16, COMPRESS_INT8, COMPRESS_1BIT};
	const double factor[] = {1, 2, 4, 32};   /* against fp32 gradients */
	double none = 0;
	for (int i = 0; i < 4; i++) {
		scenario s = base(2, 1, 1);
		s.cluster.nic.speed_Bps = 10e9 / 8;
		s.training.grad_reduce.dtype = PREC_FP32;
		s.training.grad_reduce.compression = c[i];
		step_result r = run_ok(&s);
		if (i == 0)
			none = r.dp_bytes_per_gpu;
		ck_assert_double_eq_tol(r.dp_bytes_per_gpu, none / factor[i], 1e-9 * none);
		if (i > 0) {
			ck_assert(r.compression_cost_s > 0);
			/* 10 Gb/s is slow enough for compression to pay off */
			ck_assert(r.compression_saving_s > 0);
			ck_assert_int_ge(r.n_notes, 1);
		}
	}
}
END_TEST

START_TEST(test_175b_does_not_fit)
{
	scenario s = base(1, 1, 1);
	s.model.layers = 96;
	s.model.hidden = 12288;
	s.model.heads = 96;
	s.model.seq_len = 2048;
	s.training.global_batch = 8;
	s.training.grad_reduce.bucket_bytes = 4e9;
	step_result r = run_ok(&s);
	ck_assert_int_eq(r.memory.fits, false);
	ck_assert(r.memory.total > 80e9);
	ck_assert(r.step_time_s > 0);
	ck_assert_ptr_nonnull(strstr(r.notes[0], "does not fit"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("step");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_bubble_1f1b);
	tcase_add_test(tc, test_bubble_interleaved);
	tcase_add_test(tc, test_bubble_sentence_simulated_share);
	tcase_add_test(tc, test_bubble_not_imbalance);
	tcase_add_test(tc, test_optimizer_sentence_single_rank);
	tcase_add_test(tc, test_comm_sentences_one_node);
	tcase_add_test(tc, test_dp_sentence_group_inside_node);
	tcase_add_test(tc, test_pp_sentence_pipeline_inside_node);
	tcase_add_test(tc, test_tied_embedding_reduce);
	tcase_add_test(tc, test_dp_ranks_per_node);
	tcase_add_test(tc, test_blocking_calls);
	tcase_add_test(tc, test_custom_output);
	tcase_add_test(tc, test_deepspeed_schedule);
	tcase_add_test(tc, test_partial_recompute);
	tcase_add_test(tc, test_loss_in_split);
	tcase_add_test(tc, test_scatter_gather);
	tcase_add_test(tc, test_faster_nic_never_slower);
	tcase_add_test(tc, test_dp_allreduce_100b);
	tcase_add_test(tc, test_dp_naive_shared_nic);
	tcase_add_test(tc, test_accumulation);
	tcase_add_test(tc, test_compression_bytes);
	tcase_add_test(tc, test_175b_does_not_fit);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
