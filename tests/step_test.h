/* step_test.h: helpers of the step tests (check_step.c, check_step_run.c):
 * a teaching scenario loaded, a small GPT on A100 nodes, a pipeline with
 * free communication, a run whose split must add up. */
#ifndef TRAINSIM_STEP_TEST_H
#define TRAINSIM_STEP_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include "scn.h"
#include "step.h"

static inline void load_teach(const char *name, const char *const *sets, int nsets, scenario *s)
{
	const char *top = getenv("top_srcdir");
	char path[512];
	snprintf(path, sizeof path, "%s/scenarios/teach/%s", top ? top : ".", name);
	ck_assert_int_eq(scn_load(path, sets, nsets, s, stderr, true), 0);
}

static scn_layer equal_layers[64];

/* A cluster of A100 nodes with a small GPT; callers adjust. */
static inline scenario base(int nodes, int tp, int pp)
{
	scenario s;
	scn_defaults(&s);
	s.cluster.nodes = nodes;
	s.cluster.gpus_per_node = 8;
	s.cluster.nic.count = 8;
	s.cluster.gpu = *hw_gpu_find("A100-SXM4-80GB");
	s.model.layers = 16;
	s.model.hidden = 2048;
	s.model.heads = 16;
	s.model.seq_len = 1024;
	s.model.vocab = 51200;
	s.training.tp = tp;
	s.training.pp = pp;
	/* in 64 bits: the limit tests pass absurd node counts (then set their own batch) */
	long long gb = 8LL * nodes * 8 / (tp * pp);
	s.training.global_batch = gb > 1000000000LL ? 1000000000 : (int)gb;
	s.training.micro_batch = 1;
	return s;
}

/* Routed experts on every layer of s: `experts` of width `ffn`, top_k each. */
static inline void set_moe(scenario *s, int experts, int top_k, double ffn)
{
	s->model.experts = experts;
	s->model.top_k = top_k;
	s->model.expert_ffn_hidden = ffn;
}

/* Free communication: links a million times faster than needed, picosecond
 * latencies, and a custom model of equal layers without embeddings. */
static inline scenario free_comm(int pp, int m, int layers)
{
	scenario s = base(pp, 1, pp);
	s.cluster.gpus_per_node = 1;
	s.cluster.nic.count = 1;
	s.cluster.nic.speed_Bps = 1e16;
	s.cluster.nic.latency_s = 1e-15;
	s.cluster.intra.bandwidth_Bps = 1e16;
	s.cluster.intra.latency_s = 1e-15;
	s.cluster.fabric.switch_latency_s = 0;
	s.model.custom = true;
	s.model.nlayers_custom = layers;
	for (int i = 0; i < layers; i++)
		equal_layers[i] = (scn_layer){"blk", 2e13, 1000, 1000, 0};
	s.model.custom_layers = equal_layers;
	s.training.dp = 1;
	s.training.global_batch = m;
	return s;
}

static inline step_result run_ok(const scenario *s)
{
	step_result r;
	char err[512] = "";
	int rc = step_run(s, &(step_opts){0}, &r, err, sizeof err);
	ck_assert_msg(rc == 0, "step_run: %s", err);
	double sum = 0;
	for (int k = 0; k < SPLIT__N; k++) {
		ck_assert(r.split_s[k] >= -1e-12);
		sum += r.split_s[k];
	}
	ck_assert_double_eq_tol(sum, r.step_time_s, 1e-9 * r.step_time_s);
	return r;
}

static inline double bubble_of(const step_result *r)
{
	double busy = r->split_s[SPLIT_COMPUTE];
	double wait = r->split_s[SPLIT_PP_BUBBLE] + r->split_s[SPLIT_PP_COMM];
	return wait / (busy + wait);
}

#endif
