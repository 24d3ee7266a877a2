/* check_sched.c: pipeline schedules (op order, completeness, bubbles of the
 * network-free replay) and the parallel plan (placement, layer split). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "schedule.h"
#include "plan.h"

static sched build(scn_schedule k, int pp, int m, int v)
{
	sched s;
	char err[256];
	ck_assert_int_eq(sched_build(&s, k, pp, m, v, err, sizeof err), 0);
	return s;
}

/* "F0 F1 B0 ..." of one stage, for readable order assertions. */
static void order(const sched *s, int st, char *buf, size_t n)
{
	buf[0] = '\0';
	const sched_op *ops = sched_stage_ops(s, st);
	for (int i = 0; i < s->ops_per_stage; i++) {
		char one[24];
		if (s->v > 1)
			snprintf(one, sizeof one, "%s%c%d.%d", i ? " " : "",
				 ops[i].kind == SCHED_F ? 'F' : 'B', ops[i].mb, ops[i].chunk);
		else
			snprintf(one, sizeof one, "%s%c%d", i ? " " : "",
				 ops[i].kind == SCHED_F ? 'F' : 'B', ops[i].mb);
		strncat(buf, one, n - strlen(buf) - 1);
	}
}

START_TEST(test_1f1b_order)
{
	sched s = build(SCHED_1F1B, 4, 6, 1);
	char b[512];
	order(&s, 0, b, sizeof b);
	ck_assert_str_eq(b, "F0 F1 F2 F3 B0 F4 B1 F5 B2 B3 B4 B5");
	order(&s, 3, b, sizeof b);
	ck_assert_str_eq(b, "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5");
	order(&s, 2, b, sizeof b);
	ck_assert_str_eq(b, "F0 F1 B0 F2 B1 F3 B2 F4 B3 F5 B4 B5");
	sched_release(&s);
	s = build(SCHED_GPIPE, 2, 3, 1);
	order(&s, 1, b, sizeof b);
	ck_assert_str_eq(b, "F0 F1 F2 B2 B1 B0");
	sched_release(&s);
}
END_TEST

/* Megatron's interleaved order for pp=2, v=2, m=4: stage 0 warms up with
 * (2-0-1)*2 + (2-1)*2 = 4 forwards: chunk 0 on mb 0,1, chunk 1 on mb 0,1. */
START_TEST(test_interleaved_order)
{
	sched s = build(SCHED_INTERLEAVED, 2, 4, 2);
	char b[512];
	order(&s, 0, b, sizeof b);
	ck_assert_str_eq(b, "F0.0 F1.0 F0.1 F1.1 F2.0 B0.1 F3.0 B1.1 F2.1 B0.0 F3.1 B1.0 "
			    "B2.1 B3.1 B2.0 B3.0");
	order(&s, 1, b, sizeof b);
	ck_assert_str_eq(b, "F0.0 F1.0 F0.1 B0.1 F1.1 B1.1 F2.0 B0.0 F3.0 B1.0 F2.1 B2.1 "
			    "F3.1 B3.1 B2.0 B3.0");
	sched_release(&s);
	/* interleaved with one chunk is 1F1B */
	s = build(SCHED_INTERLEAVED, 4, 8, 1);
	ck_assert_int_eq(s.kind, SCHED_1F1B);
	sched_release(&s);
}
END_TEST

/* Megatron's point-to-point calls (p2p_communication.py helpers as the
 * schedules call them). 1F1B: two helper calls in a row between ops of one
 * kind (send, then receive), one combined call between a forward and a
 * backward. Interleaved: send_forward_recv_forward in the warm-up, the last
 * one also receiving the first gradient; in the steady state nothing between
 * F and B and one call after B with both outputs and both next inputs;
 * send_backward_recv_backward in the cool-down. */
START_TEST(test_megatron_calls)
{
	enum { S1 = SCHED_CALL_SEND1, S2 = SCHED_CALL_SEND2, R0 = SCHED_CALL_RECV0,
	       R1 = SCHED_CALL_RECV1, SQ = SCHED_CALL_SEQ };
	sched s = build(SCHED_1F1B, 4, 6, 1);   /* stage 0: F0 F1 F2 F3 B0 F4 B1 F5 B2 B3 B4 B5 */
	const int want1[] = {R0, S1 | R0 | SQ, S1 | R0 | SQ, S1 | R0 | SQ, S1 | R0, S1 | R0,
			     S1 | R0, S1 | R0, S1 | R0, S1 | R0 | SQ, S1 | R0 | SQ, S1 | R0 | SQ, S1};
	for (int i = 0; i <= 12; i++)
		ck_assert_int_eq(sched_call(&s, 0, i), want1[i]);
	sched_release(&s);
	/* stage 0: F0.0 F1.0 F0.1 F1.1 | F2.0 B0.1 F3.0 B1.1 F2.1 B0.0 F3.1 B1.0 | B2.1 B3.1 B2.0 B3.0 */
	s = build(SCHED_INTERLEAVED, 2, 4, 2);
	const int want2[] = {R0, S1 | R0, S1 | R0, S1 | R0, S1 | R0 | R1, 0, S2 | S1 | R0 | R1,
			     0, S2 | S1 | R0 | R1, 0, S2 | S1 | R0 | R1, 0, S2 | S1 | R0, S1 | R0,
			     S1 | R0, S1 | R0, S1};
	for (int i = 0; i <= 16; i++)
		ck_assert_int_eq(sched_call(&s, 0, i), want2[i]);
	/* the call before F2.0: sends F1.1's output (chunk 1 of stage 0 = global 2,
	 * to global chunk 3, mb 1: (0*4 + 3)*4 + 1 = 13), receives B0.1's gradient
	 * (into global chunk 2, mb 0: (1*4 + 2)*4 + 0 = 24); F2.0 is the first
	 * chunk and receives nothing */
	long snd[2], rcv[2];
	int ns, nr;
	sched_call_transfers(&s, 0, 4, snd, &ns, rcv, &nr);
	ck_assert_int_eq(ns, 1);
	ck_assert_int_eq(nr, 1);
	ck_assert_int_eq(snd[0], 13);
	ck_assert_int_eq(rcv[0], 24);
	/* calls that miss a receive: the replay refuses to run the op */
	double mk;
	ck_assert_int_eq(sched_replay(&s, 1.0, 2.0, &mk), 0);
	s.calls[(size_t)1 * (s.ops_per_stage + 1)] = 0;   /* stage 1 no longer receives F0.0 */
	ck_assert_int_lt(sched_replay(&s, 1.0, 2.0, &mk), 0);
	sched_release(&s);
	/* GPipe has no calls */
	s = build(SCHED_GPIPE, 2, 4, 1);
	ck_assert_ptr_null(s.calls);
	ck_assert_int_eq(sched_call(&s, 0, 1), 0);
	sched_release(&s);
}
END_TEST

/* Every stage runs every (F|B, mb, chunk) once, each B after its F. */
START_TEST(test_complete)
{
	const scn_schedule kinds[] = {SCHED_GPIPE, SCHED_1F1B, SCHED_INTERLEAVED,
		SCHED_DEEPSPEED};
	for (int k = 0; k < 4; k++)
		for (int pp = 1; pp <= 8; pp *= 2)
			for (int m = (k == 3 ? 1 : pp); m <= 4 * pp; m += (k == 3 ? 1 : pp)) {
				sched s = build(kinds[k], pp, m, 3);
				for (int st = 0; st < pp; st++) {
					int *seen = calloc((size_t)(2 * m * s.v), sizeof(int));
					const sched_op *ops = sched_stage_ops(&s, st);
					for (int i = 0; i < s.ops_per_stage; i++) {
						int f = (ops[i].chunk * m + ops[i].mb) * 2;
						if (ops[i].kind == SCHED_F)
							seen[f]++;
						else {
							ck_assert_int_eq(seen[f], 1);
							seen[f + 1]++;
						}
					}
					for (int i = 0; i < 2 * m * s.v; i++)
						ck_assert_int_eq(seen[i], 1);
					free(seen);
				}
				sched_release(&s);
			}
}
END_TEST

/* DeepSpeed's TrainSchedule: 2(m+p-1) steps, a stage forwards at the steps
 * of its parity; stage 0 of 4 with 6 micro-batches runs F0..F3 at steps 0,
 * 2, 4, 6 and its first backward at step 7, so its order is 1F1B's; the last
 * stage alternates from the start. Its blocking calls: a forward step
 * receives then sends (RSEQ), a backward step sends then receives (SEQ).
 * Equal stages and free transfers: the same makespan as 1F1B, (m+p-1)(tf+tb),
 * for any m (not only multiples of p). */
START_TEST(test_deepspeed)
{
	enum { S1 = SCHED_CALL_SEND1, R0 = SCHED_CALL_RECV0, SQ = SCHED_CALL_SEQ,
	       RS = SCHED_CALL_RSEQ };
	sched s = build(SCHED_DEEPSPEED, 4, 6, 1), f = build(SCHED_1F1B, 4, 6, 1);
	char b[512], bf[512];
	for (int st = 0; st < 4; st += 3) {   /* the first and last stage: 1F1B's order */
		order(&s, st, b, sizeof b);
		order(&f, st, bf, sizeof bf);
		ck_assert_str_eq(b, bf);
	}
	sched_release(&f);
	/* stage 1 (odd): forwards at odd steps 1, 3, 5, backward B0 at step 6
	 * right after F2 (send F2's output, then receive B0's gradient: SEQ);
	 * F3 at step 7 right after B0 (receive, then send B0's gradient: RSEQ) */
	order(&s, 1, b, sizeof b);
	ck_assert_str_eq(b, "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 B4 B5");
	const int want[] = {R0, S1 | R0 | SQ, S1 | R0 | SQ, S1 | R0 | SQ, S1 | R0 | RS, S1 | R0 | SQ,
			    S1 | R0 | RS, S1 | R0 | SQ, S1 | R0 | RS, S1 | R0 | SQ, S1 | R0 | SQ,
			    S1 | R0 | SQ, S1};
	for (int i = 0; i <= 12; i++)
		ck_assert_msg(sched_call(&s, 1, i) == want[i], "call %d: %d", i, sched_call(&s, 1, i));
	sched_release(&s);
	const int ps[] = {2, 3, 4, 8}, ms[] = {1, 3, 8, 13};
	for (int a = 0; a < 4; a++)
		for (int c = 0; c < 4; c++) {
			double mk;
			s = build(SCHED_DEEPSPEED, ps[a], ms[c], 1);
			ck_assert_int_eq(sched_replay(&s, 1.0, 2.0, &mk), 0);
			ck_assert_double_eq_tol(mk, (ms[c] + ps[a] - 1) * 3.0, 1e-9);
			sched_release(&s);
		}
}
END_TEST

/* Free transfers, equal stages: 1F1B and GPipe take (m+p-1)(tf+tb), so the
 * bubble is (p-1)/(m+p-1) of the step. */
START_TEST(test_bubble_1f1b_gpipe)
{
	const int ps[] = {2, 4, 8}, ms[] = {1, 4, 8, 32};
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 4; b++) {
			int p = ps[a], m = ms[b];
			for (int k = 0; k < 2; k++) {
				sched s = build(k ? SCHED_GPIPE : SCHED_1F1B, p, m, 1);
				double mk;
				ck_assert_int_eq(sched_replay(&s, 1.0, 2.0, &mk), 0);
				ck_assert_double_eq_tol(mk, (m + p - 1) * 3.0, 1e-9);
				double bubble = (mk - m * 3.0) / mk;
				ck_assert_double_eq_tol(bubble, (p - 1.0) / (m + p - 1.0), 1e-12);
				sched_release(&s);
			}
		}
}
END_TEST

/* Interleaving v chunks (each 1/v of the stage's work) divides the bubble
 * by v: makespan = m(tf+tb) + (p-1)(tf+tb)/v when m is a multiple of p. */
START_TEST(test_bubble_interleaved)
{
	const int ps[] = {2, 4, 8}, vs[] = {2, 3, 4};
	for (int a = 0; a < 3; a++)
		for (int c = 0; c < 3; c++) {
			int p = ps[a], v = vs[c];
			for (int m = 2 * p; m <= 4 * p; m += 2 * p) {
				sched s = build(SCHED_INTERLEAVED, p, m, v);
				double mk, mk1;
				ck_assert_int_eq(sched_replay(&s, 1.0 / v, 1.0 / v, &mk), 0);
				ck_assert_double_eq_tol(mk, m * 2.0 + (p - 1) * 2.0 / v, 1e-9);
				sched_release(&s);
				s = build(SCHED_1F1B, p, m, 1);
				ck_assert_int_eq(sched_replay(&s, 1.0, 1.0, &mk1), 0);
				ck_assert(mk < mk1);
				sched_release(&s);
			}
		}
}
END_TEST

/* A last group of micro-batches shorter than pp keeps the pattern (as
 * Megatron-core's schedule table does), with the warm-up (Megatron's, or pp,
 * 2pp, ... more forwards) that replays fastest under Megatron's blocking
 * calls: never a deadlock, and never more than a few percent slower than
 * plain 1F1B (pp 8, m 9: 48 units for both). */
START_TEST(test_interleaved_uneven)
{
	for (int pp = 2; pp <= 8; pp *= 2)
		for (int m = pp + 1; m < 3 * pp; m++) {
			if (m % pp == 0)
				continue;
			sched s = build(SCHED_INTERLEAVED, pp, m, 2), s1 = build(SCHED_1F1B, pp, m, 1);
			double mk, mk1;
			ck_assert_int_eq(sched_replay(&s, 0.5, 1.0, &mk), 0);
			ck_assert_int_eq(sched_replay(&s1, 1.0, 2.0, &mk1), 0);
			ck_assert(mk >= m * 3.0 - 1e-9);
			ck_assert(mk <= 1.05 * mk1);
			sched_release(&s);
			sched_release(&s1);
		}
	sched s;
	char err[256];
	ck_assert_int_lt(sched_build(&s, SCHED_1F1B, 0, 4, 1, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "pp"));
}
END_TEST

START_TEST(test_split_layers)
{
	int c[64];
	plan_split_layers(126, 16, c);
	ck_assert_int_eq(c[0], 7);
	ck_assert_int_eq(c[15], 7);
	for (int i = 1; i < 15; i++)
		ck_assert_int_eq(c[i], 8);
	plan_split_layers(128, 64, c);
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(c[i], 2);
	plan_split_layers(10, 4, c);   /* 2 3 3 2 */
	ck_assert_int_eq(c[0] + c[3], 4);
	ck_assert_int_eq(c[1], 3);
	ck_assert_int_eq(c[2], 3);
	plan_split_layers(9, 4, c);    /* 2 2 2 3: three short ones from the ends inward */
	ck_assert_int_eq(c[0], 2);
	ck_assert_int_eq(c[3], 2);
	ck_assert_int_eq(c[1], 2);
	ck_assert_int_eq(c[2], 3);
}
END_TEST

/* Megatron's other splits: the embedding and the loss in a layer's place
 * (94 layers on 32 x 3 chunks: the first and last chunk hold none), and the
 * first and last stage's counts given (the rest over the middle stages, a
 * stage's over its chunks). With both heads counted and layers + 2 a
 * multiple of the chunks, the default split is the same one. */
START_TEST(test_split_megatron)
{
	scn_training t = {0};
	char err[320];
	t.embedding_in_split = t.loss_in_split = true;
	ck_assert_int_eq(plan_split_check(&t, 94, 32, 3, err, sizeof err), 0);
	int sum = 0;
	for (int c = 0; c < 96; c++) {
		int n = plan_chunk_layer_count(&t, 94, 32, 3, c);
		ck_assert_int_eq(n, c == 0 || c == 95 ? 0 : 1);
		sum += n;
	}
	ck_assert_int_eq(sum, 94);
	int even[16];
	plan_split_layers(62, 16, even);
	for (int c = 0; c < 16; c++)
		ck_assert_int_eq(plan_chunk_layer_count(&t, 62, 8, 2, c), even[c]);
	/* the loss alone: the last chunk is the short one, not the first */
	t.embedding_in_split = false;
	ck_assert_int_eq(plan_chunk_layer_count(&t, 7, 4, 1, 0), 2);
	ck_assert_int_eq(plan_chunk_layer_count(&t, 7, 4, 1, 3), 1);
	plan_split_layers(7, 4, even);
	ck_assert_int_eq(even[0], 1);
	ck_assert_int_lt(plan_split_check(&t, 8, 4, 1, err, sizeof err), 0);   /* 9 on 4 */
	ck_assert_ptr_nonnull(strstr(err, "divides 9"));
	/* first and last stage given: 61 layers on 8 stages x 4 chunks */
	t = (scn_training){0};
	t.first_stage_layers = 4;
	t.last_stage_layers = 5;
	ck_assert_int_eq(plan_split_check(&t, 61, 8, 4, err, sizeof err), 0);
	int stage[8] = {0};
	sum = 0;
	for (int c = 0; c < 32; c++) {
		int n = plan_chunk_layer_count(&t, 61, 8, 4, c);
		ck_assert_int_ge(n, 1);
		stage[c % 8] += n;
		sum += n;
	}
	ck_assert_int_eq(sum, 61);
	ck_assert_int_eq(stage[0], 4);
	ck_assert_int_eq(stage[7], 5);
	for (int st = 1; st < 7; st++)   /* 52 over 6: 8 or 9 */
		ck_assert(stage[st] == 8 || stage[st] == 9);
	/* 5 over 4: 2 1 1 1 (Megatron before its flexible layouts wanted a multiple of 4) */
	ck_assert_int_eq(plan_chunk_layer_count(&t, 61, 8, 4, 7), 2);
	t.first_stage_layers = 3;   /* 3 layers for 4 chunks */
	ck_assert_int_lt(plan_split_check(&t, 61, 8, 4, err, sizeof err), 0);
	t.first_stage_layers = 30;
	t.last_stage_layers = 30;   /* 1 layer for 6 x 4 chunks */
	ck_assert_int_lt(plan_split_check(&t, 61, 8, 4, err, sizeof err), 0);
	t.embedding_in_split = true;   /* one way or the other */
	t.first_stage_layers = 4;
	t.last_stage_layers = 5;
	ck_assert_int_lt(plan_split_check(&t, 61, 8, 4, err, sizeof err), 0);
}
END_TEST

static scenario layout(int nodes, int gpn, int tp, int pp, int dp, scn_placement pl)
{
	scenario s;
	memset(&s, 0, sizeof s);
	s.cluster.nodes = nodes;
	s.cluster.gpus_per_node = gpn;
	s.model.layers = 32;
	s.training.tp = tp;
	s.training.pp = pp;
	s.training.dp = dp;
	s.training.placement = pl;
	s.training.schedule = SCHED_1F1B;
	return s;
}

START_TEST(test_placement)
{
	plan p;
	char err[256];
	scenario s = layout(4, 8, 8, 2, 2, PLACE_TP_PP_DP);
	ck_assert_int_eq(plan_init(&p, &s, err, sizeof err), 0);
	ck_assert_int_eq(plan_gpu(&p, 3, 1, 0), 11);   /* stage 1 is the next node */
	ck_assert_int_eq(plan_gpu(&p, 0, 0, 1), 16);   /* replica 1 after both stages */
	for (int g = 0; g < 32; g++) {
		int t, st, d;
		plan_coords(&p, g, &t, &st, &d);
		ck_assert_int_eq(plan_gpu(&p, t, st, d), g);
	}
	plan_release(&p);
	s = layout(4, 8, 8, 2, 2, PLACE_TP_DP_PP);
	ck_assert_int_eq(plan_init(&p, &s, err, sizeof err), 0);
	ck_assert_int_eq(plan_gpu(&p, 0, 0, 1), 8);    /* replica 1 is the next node */
	ck_assert_int_eq(plan_gpu(&p, 0, 1, 0), 16);
	plan_release(&p);
	s = layout(4, 8, 8, 3, 0, PLACE_TP_PP_DP);
	ck_assert_int_lt(plan_init(&p, &s, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "does not divide"));
	s = layout(4, 8, 1, 32, 1, PLACE_TP_PP_DP);
	s.training.schedule = SCHED_INTERLEAVED;
	s.training.virtual_stages = 2;
	ck_assert_int_lt(plan_init(&p, &s, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "needs a layer"));
}
END_TEST

/* Context parallelism: the CP ranks of a TP group come right after it (tp 2 x
 * cp 2 fill 4 GPUs of a node), then stages and replicas; the gradient group
 * of a stage holds every (cp, dp) pair of its tensor rank 0. */
START_TEST(test_placement_cp)
{
	plan p;
	char err[256];
	scenario s = layout(4, 8, 2, 2, 0, PLACE_TP_PP_DP);
	s.training.cp = 2;
	ck_assert_int_eq(plan_init(&p, &s, err, sizeof err), 0);
	ck_assert_int_eq(p.dp, 4);                          /* 32 / (2 x 2 x 2) */
	ck_assert_int_eq(plan_gpu_cp(&p, 1, 1, 0, 0), 3);   /* t 1, c 1 */
	ck_assert_int_eq(plan_gpu_cp(&p, 0, 0, 1, 0), 4);   /* stage 1 after the CP ranks */
	ck_assert_int_eq(plan_gpu_cp(&p, 0, 0, 0, 1), 8);   /* replica 1 after both stages */
	for (int g = 0; g < 32; g++) {
		int t, c, st, d;
		plan_coords_cp(&p, g, &t, &c, &st, &d);
		ck_assert_int_eq(plan_gpu_cp(&p, t, c, st, d), g);
	}
	ck_assert_int_eq(plan_grad_ranks(&p), 8);
	ck_assert_int_eq(plan_grad_gpu(&p, 0, 1), 2);       /* c 1 of replica 0 */
	ck_assert_int_eq(plan_grad_gpu(&p, 1, 2), 12);      /* stage 1, replica 1 */
	plan_release(&p);
	s.training.cp = 3;
	ck_assert_int_lt(plan_init(&p, &s, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "does not divide"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_1f1b_order);
	tcase_add_test(tc, test_interleaved_order);
	tcase_add_test(tc, test_megatron_calls);
	tcase_add_test(tc, test_deepspeed);
	tcase_add_test(tc, test_complete);
	tcase_add_test(tc, test_bubble_1f1b_gpipe);
	tcase_add_test(tc, test_bubble_interleaved);
	tcase_add_test(tc, test_interleaved_uneven);
	tcase_add_test(tc, test_split_layers);
	tcase_add_test(tc, test_split_megatron);
	tcase_add_test(tc, test_placement);
	tcase_add_test(tc, test_placement_cp);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
