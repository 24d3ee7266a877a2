/* check_step_run.c: whole runs of the step: seeds and jitter, the limits
 * on events and memory, the timeline, a 3D layout's split, metrics after
 * stalls, link noise, asynchronous DP against its staleness bound, and a
 * mixture of experts with expert parallelism. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <time.h>
#include "engine.h"
#include "memest.h"
#include "step.h"
#include "step_test.h"
#include "scn.h"
#include "workload.h"

static scenario jittery(int nodes, int steps, uint64_t seed)
{
	scenario s = base(nodes, 8, 1);
	s.model.layers = 8;
	s.training.global_batch = nodes * 4;
	s.run.steps = steps;
	s.run.seed = seed;
	s.run.variability.compute_cv = 0.05;
	return s;
}

START_TEST(test_same_seed_same_numbers)
{
	scenario s = jittery(4, 8, 7);
	step_result a = run_ok(&s), b = run_ok(&s);
	ck_assert(a.step_time_s == b.step_time_s);
	ck_assert(a.step_p99_s == b.step_p99_s);
	ck_assert(memcmp(a.split_s, b.split_s, sizeof a.split_s) == 0);
	ck_assert_int_eq(a.steps, 8);
	ck_assert(a.step_p99_s >= a.step_p50_s);
	s.run.seed = 8;
	step_result c = run_ok(&s);
	ck_assert(c.step_time_s != a.step_time_s);
}
END_TEST

/* The slowest of more replicas is slower: p99 grows with the GPU count. */
START_TEST(test_p99_grows_with_gpus)
{
	scenario s2 = jittery(2, 40, 3), s64 = jittery(64, 40, 3);
	step_result a = run_ok(&s2), b = run_ok(&s64);
	ck_assert_msg(b.step_p99_s > a.step_p99_s, "p99 %g s on 16 GPUs, %g s on 512",
		      a.step_p99_s, b.step_p99_s);
	ck_assert(b.step_p50_s > a.step_p50_s);
}
END_TEST

START_TEST(test_limits)
{
	scenario s = base(2, 2, 2);
	step_result r;
	char err[512];
	step_opts o = {.max_events = 1000};
	ck_assert_int_lt(step_run(&s, &o, &r, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "--max-events"));
	s.training.global_batch = 7;
	ck_assert_int_lt(step_run(&s, &(step_opts){0}, &r, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "global_batch"));
}
END_TEST

/* Many steps of a small layout pass the up-front estimate (a lower bound per
 * step) and ran into the event limit after minutes (run.steps=1000000 of
 * default.yaml: 40 s): the second step's events times the steps left stop
 * the run there, naming run.steps. */
START_TEST(test_steps_past_the_limit)
{
	scenario s = base(2, 2, 2);
	step_result r;
	char err[512];
	ck_assert_int_eq(step_run(&s, &(step_opts){0}, &r, err, sizeof err), 0);
	uint64_t one = r.events;
	step_result_release(&r);
	s.run.steps = 50;
	step_opts o = {.max_events = 40 * one};   /* above the estimate, below the need */
	ck_assert_int_lt(step_run(&s, &o, &r, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "run.steps (=50) x about") != NULL, "%s", err);
	ck_assert_msg(strstr(err, "simulate fewer steps") != NULL, "%s", err);
	/* within the limit it still runs to the end */
	o.max_events = 100 * one;
	ck_assert_int_eq(step_run(&s, &o, &r, err, sizeof err), 0);
	ck_assert_int_eq(r.steps, 50);
	step_result_release(&r);
}
END_TEST

/* The timeline of the last step runs from 0 to the step time, with one
 * step simulated (which once started at 1 s) or two. */
START_TEST(test_timeline)
{
	for (int steps = 1; steps <= 2; steps++) {
		scenario s = base(2, 4, 2);
		s.run.steps = steps;
		step_result r;
		char err[512];
		ck_assert_int_eq(step_run(&s, &(step_opts){.want_timeline = true}, &r, err,
		                          sizeof err), 0);
		ck_assert_int_eq(r.timeline_gpus, 2);
		ck_assert(r.n_timeline > 10);
		bool streams[4] = {0};
		double t_first = INFINITY, t_last = 0;
		for (size_t i = 0; i < r.n_timeline; i++) {
			const step_interval *iv = &r.timeline[i];
			ck_assert(iv->t1 > iv->t0);
			ck_assert(iv->gpu >= 0 && iv->gpu < 2);
			ck_assert(iv->stream >= 0 && iv->stream <= 3);
			streams[iv->stream] = true;
			t_first = fmin(t_first, iv->t0);
			t_last = fmax(t_last, iv->t1);
		}
		ck_assert(streams[0] && streams[1] && streams[2] && streams[3]);
		/* the last step, from 0 */
		ck_assert_msg(fabs(t_first) < 1e-9, "starts at %g s", t_first);
		ck_assert_double_eq_tol(t_last - t_first, r.step_time_s, 0.05 * r.step_time_s);
		step_result_release(&r);
		ck_assert_ptr_null(r.timeline);
	}
}
END_TEST

/* The timeline draws what the split counts: with a heavy last stage (its
 * logits over a large vocabulary), the other stages' waits for it are idle
 * in the split, and the trace marks that much of their waits idle too (the
 * steady state's, away from the fill and drain), leaving the bubble. */
START_TEST(test_timeline_imbalance)
{
	scenario s = base(1, 1, 4);
	s.model.vocab = 256000;
	s.training.global_batch = 16;
	step_result r;
	char err[512];
	ck_assert_int_eq(step_run(&s, &(step_opts){.want_timeline = true}, &r, err, sizeof err),
	                 0);
	ck_assert(r.split_s[SPLIT_IDLE] > 0.02 * r.step_time_s);
	double acc[SPLIT__N] = {0};
	for (size_t i = 0; i < r.n_timeline; i++)
		if (r.timeline[i].stream == 0)
			acc[r.timeline[i].cat] += r.timeline[i].t1 - r.timeline[i].t0;
	for (int k = SPLIT_PP_BUBBLE; k <= SPLIT_IDLE; k += SPLIT_IDLE - SPLIT_PP_BUBBLE)
		ck_assert_msg(fabs(acc[k] / 4 - r.split_s[k]) <= 1e-6 * r.step_time_s,
		              "%s: timeline %g s, split %g s", step_split_name((step_split)k),
		              acc[k] / 4, r.split_s[k]);
	/* the first stage's wait before its first forward is fill: bubble */
	double first = INFINITY;
	int cat = -1;
	for (size_t i = 0; i < r.n_timeline; i++)
		if (r.timeline[i].gpu == 3 && r.timeline[i].stream == 0 && r.timeline[i].t0 < first) {
			first = r.timeline[i].t0;
			cat = r.timeline[i].cat;
		}
	ck_assert_int_eq(cat, SPLIT_PP_BUBBLE);
	step_result_release(&r);
}
END_TEST

/* A 3D layout with everything on: the split adds up, the metrics are sane,
 * overlap helps, ZeRO-3 moves 1.5x the bytes of DDP, async DP is faster. */
START_TEST(test_3d_layout)
{
	scenario s = base(4, 4, 4);
	s.training.schedule = SCHED_INTERLEAVED;
	s.training.virtual_stages = 2;
	s.training.global_batch = 32;
	s.training.recompute = RECOMPUTE_FULL;
	s.training.sequence_parallel = true;
	step_result r = run_ok(&s);
	ck_assert(r.mfu > 0.05 && r.mfu < 0.8);
	ck_assert(r.hfu > r.mfu);
	ck_assert(r.gpu_util >= r.split_s[SPLIT_COMPUTE] / r.step_time_s - 1e-9);
	ck_assert(r.gpu_util <= 1 + 1e-9);
	ck_assert(r.split_s[SPLIT_TP_COMM] > 0);
	ck_assert(r.tokens_per_s > 0);
	ck_assert(strlen(r.bottleneck) > 20);

	scenario d = base(2, 1, 1);
	d.cluster.nic.speed_Bps = 25e9 / 8;
	d.training.global_batch = 16;
	step_result on = run_ok(&d);
	d.training.grad_reduce.overlap = false;
	step_result off = run_ok(&d);
	ck_assert(on.step_time_s <= off.step_time_s);
	d.training.grad_reduce.overlap = true;
	d.training.grad_reduce.dtype = PREC_BF16;   /* same bytes for grads and params */
	step_result bf = run_ok(&d);
	d.training.zero = 3;
	step_result z3 = run_ok(&d);
	ck_assert_double_eq_tol(z3.dp_wire_bytes_per_gpu, 1.5 * bf.dp_wire_bytes_per_gpu,
				1e-9 * z3.dp_wire_bytes_per_gpu);
	d.training.zero = 0;
	d.training.grad_reduce.sync = SYNC_ASYNC;
	d.run.steps = 3;
	step_result as = run_ok(&d);
	ck_assert_int_eq(as.staleness, 1);
	ck_assert(as.async_speedup > 1.0);
	ck_assert(as.step_time_s < on.step_time_s);
}
END_TEST

/* Every derived metric follows the final step time, stalls included: no
 * kernel runs while the GPUs wait for data or for a checkpoint, so gpu_util
 * is at most the share of the step that is neither; throughput, MFU and the
 * percentiles use the same step time. */
static void assert_consistent(const scenario *s, const step_result *r)
{
	double T = r->step_time_s;
	double stall = r->split_s[SPLIT_DATA_STALL] + r->split_s[SPLIT_CHECKPOINT];
	ck_assert_msg(r->gpu_util <= 1 - stall / T + 1e-9, "gpu_util %g with %g of %g s stalled",
		      r->gpu_util, stall, T);
	ck_assert(r->gpu_util >= r->split_s[SPLIT_COMPUTE] / T - 1e-9);
	double tokens = (double)s->training.global_batch * s->model.seq_len;
	ck_assert_double_eq_tol(r->tokens_per_s, tokens / T, 1e-9 * r->tokens_per_s);
	ck_assert_double_eq_tol(r->mfu, r->model_tflops_per_gpu * 1e12 / wl_peak_flops(s),
				1e-9 * r->mfu);
	ck_assert_double_eq_tol(r->model_tflops_per_gpu * 1e12 * T * r->gpus,
				wl_step_model_flops(s), 1e-9 * wl_step_model_flops(s));
	if (s->run.variability.compute_cv == 0 && s->run.variability.link_cv == 0) {
		/* identical steps: every percentile is the mean */
		ck_assert_double_eq_tol(r->step_p50_s, T, 1e-9 * T);
		ck_assert_double_eq_tol(r->step_p99_s, T, 1e-9 * T);
	}
	ck_assert(r->step_p50_s >= stall);
}

START_TEST(test_metrics_after_stalls)
{
	scenario s;
	load_teach("storage-bound.yaml", NULL, 0, &s);
	step_result r = run_ok(&s);
	ck_assert_msg(r.split_s[SPLIT_DATA_STALL] > 0.5 * r.step_time_s, "data stall %g of %g s",
		      r.split_s[SPLIT_DATA_STALL], r.step_time_s);
	assert_consistent(&s, &r);
	/* a checkpoint every step on top of the data stall, several steps */
	const char *sets[] = {"training.checkpoint.every=1", "run.steps=3"};
	load_teach("storage-bound.yaml", sets, 2, &s);
	r = run_ok(&s);
	ck_assert(r.split_s[SPLIT_CHECKPOINT] > 0);
	assert_consistent(&s, &r);
	load_teach("checkpoint-storm.yaml", NULL, 0, &s);
	r = run_ok(&s);
	ck_assert(r.split_s[SPLIT_CHECKPOINT] > 0.2 * r.step_time_s);
	assert_consistent(&s, &r);
	/* with jitter, the percentiles carry the stall too */
	const char *jit[] = {"run.variability.compute_cv=0.05", "run.steps=6"};
	load_teach("storage-bound.yaml", jit, 2, &s);
	r = run_ok(&s);
	assert_consistent(&s, &r);
	ck_assert(r.step_p99_s >= r.step_p50_s);
	ck_assert(r.step_p50_s > r.split_s[SPLIT_DATA_STALL]);
}
END_TEST

/* Link noise: link_cv 0 is the network without noise (nothing drawn); with
 * link_cv > 0 the same seed repeats bit for bit, and the mean step grows or
 * stays (a ring or a collective waits for its slowest flow). */
static bool same_result(const step_result *a, const step_result *b)
{
	return a->step_time_s == b->step_time_s && a->step_p99_s == b->step_p99_s &&
	       a->gpu_util == b->gpu_util && a->events == b->events &&
	       memcmp(a->split_s, b->split_s, sizeof a->split_s) == 0;
}

START_TEST(test_link_noise)
{
	scenario s = base(4, 2, 2);
	s.cluster.nic.speed_Bps = 25e9 / 8;   /* DP and PP traffic matter */
	s.training.global_batch = 32;
	s.run.steps = 6;
	s.run.seed = 7;
	step_result off = run_ok(&s);
	s.run.variability.link_cv = 0;
	step_result zero = run_ok(&s);
	ck_assert(same_result(&off, &zero));
	s.run.variability.compute_cv = 0.05;   /* link noise off: jitter draws unchanged */
	step_result j0 = run_ok(&s);
	s.run.variability.link_cv = 0.2;
	step_result j1 = run_ok(&s);
	ck_assert(j1.step_time_s >= j0.step_time_s);
	s.run.variability.compute_cv = 0;
	step_result a = run_ok(&s), b = run_ok(&s);
	ck_assert(same_result(&a, &b));
	ck_assert_msg(a.step_time_s >= off.step_time_s, "link_cv 0.2: %g s, none: %g s",
		      a.step_time_s, off.step_time_s);
	ck_assert(a.step_p99_s >= a.step_p50_s);
	ck_assert(a.step_p99_s > a.step_p50_s);   /* the steps differ now */
	s.run.seed = 8;
	step_result c = run_ok(&s);
	ck_assert(c.step_time_s != a.step_time_s);
	ck_assert(c.step_time_s >= off.step_time_s);
	bool noted = false;
	for (int i = 0; i < a.n_notes; i++)
		noted |= strstr(a.notes[i], "Variability") != NULL;
	ck_assert(noted);
}
END_TEST

/* run.max_memory / --max-memory: the simulator's memory is estimated before
 * anything is allocated, and absurd inputs are refused at once with a message
 * naming the limit. */
static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void refused(const scenario *s, const step_opts *o, const char *what)
{
	step_result r;
	char err[512] = "";
	double t0 = wall();
	ck_assert_int_eq(step_run(s, o, &r, err, sizeof err), SIM_ELIMIT);
	/* a bound for a refusal made before simulating, loose enough for a
	 * loaded CI machine (2 s failed on 2 busy cores); simulating these
	 * inputs would take hours */
	ck_assert_msg(wall() - t0 < 60.0, "refused after %g s", wall() - t0);
	ck_assert_msg(strstr(err, what) != NULL, "'%s' not in: %s", what, err);
}

START_TEST(test_memory_limit)
{
	scenario s = base(2, 2, 2);
	step_opts o = {.max_memory_bytes = 1000};
	refused(&s, &o, "needs about ");
	refused(&s, &o, "of memory; the limit is 1 KB (run.max_memory or --max-memory)");
	s.run.max_memory_bytes = 1024;   /* the scenario's own limit */
	refused(&s, &(step_opts){0}, "the limit is 1.02 KB");
	o.max_memory_bytes = 1e9;        /* the command line wins */
	step_result r;
	char e[512];
	ck_assert_int_eq(step_run(&s, &o, &r, e, sizeof e), 0);
	ck_assert(r.step_time_s > 0);
	s.run.max_memory_bytes = 0;      /* the default, 4 GiB */
	ck_assert_int_eq(step_run(&s, &(step_opts){0}, &r, e, sizeof e), 0);
	/* 10^6 GPUs in one data-parallel group of 8 rails: ~18 GB of flows, above
	 * the default 4 GiB */
	scenario big = base(125000, 1, 1);
	big.model.layers = 2;
	big.model.hidden = 1024;
	big.model.heads = 8;
	big.training.global_batch = 1000000;
	refused(&big, &(step_opts){0}, "the limit is 4 GiB (run.max_memory or --max-memory)");
	/* 10^9 GPUs: the memory estimate (the links alone are ~1 TB); an event
	 * cap below the step's few events per collective, the event estimate */
	scenario huge = base(125000000, 8, 1);
	huge.model.layers = 2;
	huge.model.hidden = 1024;
	huge.model.heads = 8;
	huge.training.global_batch = 125000000;
	refused(&huge, &(step_opts){.max_events = UINT64_MAX}, "the limit is 4 GiB");
	refused(&huge, &(step_opts){.max_events = 10}, "--max-events");
	/* a gradient bucket of a few bytes: a task per bucket, counted before
	 * anything runs (it ran for minutes and took 17 GB) */
	scenario tiny = base(2, 8, 1);
	tiny.model.layers = 32;
	tiny.model.hidden = 8192;
	tiny.model.heads = 64;
	tiny.training.grad_reduce.bucket_bytes = 10;
	refused(&tiny, &(step_opts){0}, "gradient buckets of 10 B");
	refused(&tiny, &(step_opts){.max_events = UINT64_MAX, .max_memory_bytes = 500e6},
		"the limit is 500 MB");
	/* 2e9 micro-batches per step (global batch of 2e9 samples, micro-batch 1) */
	scenario mb = base(1, 1, 1);
	mb.cluster.gpus_per_node = 1;
	mb.cluster.nic.count = 1;
	mb.training.global_batch = 2000000000;
	step_result rr;
	char err[256];
	ck_assert_int_lt(step_run(&mb, &(step_opts){0}, &rr, err, sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "above the limit of 500000"));
}
END_TEST

/* An all_to_all over 16,384 GPUs (2,048 nodes, 8 rails) is one flow per node
 * pair and rail: ~33 M flows, refused by `trainsim nccl` before it starts. */
START_TEST(test_memest_all_to_all)
{
	scenario s = base(2048, 1, 1);
	s.cluster.nic.speed_Bps = 1e6 / 8;   /* 1 Mbps: the time changes, not the flows */
	double f = memest_coll_flows(&s.cluster, COLL_ALL_TO_ALL, 16384, 8);
	ck_assert(f >= 2048.0 * 2047 * 8);
	double need = memest_cluster(&s.cluster) + memest_flows(f);
	char err[256];
	ck_assert_int_lt(memest_check("all_to_all over 16384 GPUs", need, memest_limit(&s, 0), err,
				      sizeof err), 0);
	ck_assert_ptr_nonnull(strstr(err, "all_to_all over 16384 GPUs needs about "));
	ck_assert_ptr_nonnull(strstr(err, "the limit is 4 GiB"));
	/* a ring all-reduce over the same GPUs is O(n) flows: accepted */
	f = memest_coll_flows(&s.cluster, COLL_ALL_REDUCE, 16384, 8);
	ck_assert_int_eq(memest_check("x", memest_cluster(&s.cluster) + memest_flows(f),
				      memest_limit(&s, 0), err, sizeof err), 0);
	ck_assert(memest_limit(&s, 2e9) == 2e9);
}
END_TEST

/* Asynchronous DP on the shipped what-if scenario (1.3B GPT, pure DP over 4
 * nodes with one TCP NIC each) at a NIC speed, for run.steps steps, with
 * more settings after. */
static step_result async_run(const char *speed, int steps, const char *more)
{
	const char *top = getenv("top_srcdir");
	char path[512], sp[64], st[64];
	snprintf(path, sizeof path, "%s/scenarios/whatif/async-dp.yaml", top ? top : ".");
	snprintf(sp, sizeof sp, "cluster.nic.speed=%s", speed);
	snprintf(st, sizeof st, "run.steps=%d", steps);
	const char *sets[] = {sp, st, "training.grad_reduce.sync=async", more};
	scenario s;
	ck_assert_int_eq(scn_load(path, sets, more ? 4 : 3, &s, stderr, true), 0);
	return run_ok(&s);
}

/* A reduction much longer than the compute: with staleness 1 the forward of
 * step t+2 waits for step t's update, so the step is the reduction (plus at
 * most the optimizer), never shorter than the reduction alone, from the
 * first measured step on (the warm-up is not measured). */
START_TEST(test_async_reduction_bound)
{
	step_result a1 = async_run("25Gbps", 1, NULL);
	double R = a1.dp_allreduce_s, C = a1.split_s[SPLIT_COMPUTE];
	double O = a1.split_s[SPLIT_OPTIMIZER];
	ck_assert_msg(R > 2 * C, "reduction %g, compute %g", R, C);
	/* R is the reduction in equal buckets; the step's own buckets close at
	 * layer boundaries, whose latencies differ by a few tens of us */
	ck_assert_msg(a1.step_time_s >= 0.999 * R, "async step %g below the reduction %g",
		      a1.step_time_s, R);
	ck_assert_msg(a1.step_time_s <= 1.05 * R + O, "async step %g, reduction %g", a1.step_time_s,
		      R);
	ck_assert_int_eq(a1.staleness, 1);
	const int steps[] = {3, 10};
	for (int i = 0; i < 2; i++) {
		step_result a = async_run("25Gbps", steps[i], NULL);
		ck_assert_int_eq(a.steps, steps[i] + steps[i] % 2);
		ck_assert_double_eq_tol(a.step_time_s, a1.step_time_s, 0.01 * a1.step_time_s);
		ck_assert(a.step_time_s >= 0.999 * R);
		ck_assert_int_eq(a.staleness, 1);
	}
	/* just above the compute: the reductions need many steps to pile up to
	 * the bound from an empty stream; the measured step is already there */
	step_result b1 = async_run("50Gbps", 1, NULL), b10 = async_run("50Gbps", 10, NULL);
	ck_assert(b1.dp_allreduce_s > b1.split_s[SPLIT_COMPUTE] + b1.split_s[SPLIT_OPTIMIZER]);
	ck_assert(b1.step_time_s >= 0.999 * b1.dp_allreduce_s);
	ck_assert_double_eq_tol(b10.step_time_s, b1.step_time_s, 0.01 * b1.step_time_s);
	/* ZeRO-1: reduce-scatter, optimizer, parameter all-gather per update */
	step_result z1 = async_run("50Gbps", 1, "training.zero=1");
	step_result z3 = async_run("50Gbps", 3, "training.zero=1");
	ck_assert(z1.step_time_s >= 0.999 * z1.dp_allreduce_s);
	ck_assert_double_eq_tol(z3.step_time_s, z1.step_time_s, 0.01 * z1.step_time_s);
	/* four pipeline stages whose reductions share the NICs alternate between
	 * two step lengths: an even number of steps is measured */
	const char *pp4 = "training.pp=4";
	scenario p;
	const char *top = getenv("top_srcdir");
	char path[512];
	snprintf(path, sizeof path, "%s/scenarios/whatif/async-dp.yaml", top ? top : ".");
	const char *sets[] = {"cluster.nic.speed=5Gbps", pp4, "training.global_batch=512",
			      "training.schedule=1f1b", "run.steps=1"};
	ck_assert_int_eq(scn_load(path, sets, 5, &p, stderr, true), 0);
	step_result p1 = run_ok(&p);
	p.run.steps = 7;
	step_result p7 = run_ok(&p);
	ck_assert_double_eq_tol(p7.step_time_s, p1.step_time_s, 0.01 * p1.step_time_s);
	ck_assert_int_eq(p1.staleness, 1);
}
END_TEST

/* A reduction shorter than the compute: async hides it all, the step is the
 * compute and the optimizer, and the speedup over synchronous DP is what the
 * synchronous step exposes, (C + R_exposed + O) / (C + O), less what the
 * reduction running beside all of the compute costs it: NCCL's SMs are
 * taken for the whole step rather than for the end of the backward. */
START_TEST(test_async_hides_short_reduction)
{
	/* 16 of NCCL's sockets a connection: the NIC's line rate, not the sockets', bounds it */
	step_result a = async_run("100Gbps", 1, "cluster.nic.sockets=16");
	step_result a10 = async_run("100Gbps", 10, "cluster.nic.sockets=16");
	double C = a.split_s[SPLIT_COMPUTE], O = a.split_s[SPLIT_OPTIMIZER];
	ck_assert(a.dp_allreduce_s < C);
	ck_assert_double_eq_tol(a.step_time_s, C + O, 0.01 * a.step_time_s);
	ck_assert(a.split_s[SPLIT_DP_COMM] < 0.01 * a.step_time_s);
	ck_assert_double_eq_tol(a10.step_time_s, a.step_time_s, 0.01 * a.step_time_s);
	ck_assert_int_eq(a.staleness, 1);

	const char *top = getenv("top_srcdir");
	char path[512];
	snprintf(path, sizeof path, "%s/scenarios/whatif/async-dp.yaml", top ? top : ".");
	const char *sets[] = {"cluster.nic.speed=100Gbps", "run.steps=1",
			      "training.grad_reduce.sync=sync", "cluster.nic.sockets=16"};
	scenario s;
	ck_assert_int_eq(scn_load(path, sets, 4, &s, stderr, true), 0);
	step_result sy = run_ok(&s);
	double exposed = sy.split_s[SPLIT_DP_COMM];
	ck_assert(exposed > 0.05 * sy.step_time_s);
	ck_assert_int_eq(sy.staleness, 0);
	ck_assert_double_eq_tol(a.async_speedup, sy.step_time_s / a.step_time_s,
				1e-9 * a.async_speedup);
	double Cs = sy.split_s[SPLIT_COMPUTE], Os = sy.split_s[SPLIT_OPTIMIZER];
	double bound = (Cs + exposed + Os) / (Cs + Os);
	ck_assert_msg(a.async_speedup > 1 && a.async_speedup < bound, "speedup %g, bound %g",
		      a.async_speedup, bound);
	ck_assert(C >= Cs);   /* the SMs NCCL holds, for longer */
	double want = (Cs + exposed + Os) / (C + O);
	ck_assert_double_eq_tol(a.async_speedup, want, 0.01 * want);
}
END_TEST

/* A MoE (16 experts, top 2) on two DGX A100 nodes with pp 1 and dp 16: the
 * expert all-to-all stays on NVSwitch with ep 8 (the group is the first
 * node's 8 replicas) and crosses the NICs with ep 16, which the step shows
 * as more exposed communication; the work per GPU is the same. With ep 1
 * there is no all-to-all, and every GPU holds all experts. */
START_TEST(t_moe_expert_parallel)
{
	scenario s = base(2, 1, 1);
	set_moe(&s, 16, 2, 4096);
	s.training.global_batch = 32;
	step_result r1, r8, r16;
	r1 = run_ok(&s);
	s.training.ep = 8;
	r8 = run_ok(&s);
	s.training.ep = 16;
	r16 = run_ok(&s);
	ck_assert(!r8.ep_crosses_nodes && r16.ep_crosses_nodes);
	/* the same kernels; only the SMs that overlapped DP collectives hold
	 * (charged to compute) differ with the communication around them */
	ck_assert_double_eq_tol(r8.split_s[SPLIT_COMPUTE], r16.split_s[SPLIT_COMPUTE],
	                        0.04 * r8.split_s[SPLIT_COMPUTE]);
	ck_assert(r8.split_s[SPLIT_TP_COMM] > r1.split_s[SPLIT_TP_COMM]);
	ck_assert_msg(r16.split_s[SPLIT_TP_COMM] > 1.5 * r8.split_s[SPLIT_TP_COMM], "%g vs %g",
	              r16.split_s[SPLIT_TP_COMM], r8.split_s[SPLIT_TP_COMM]);
	ck_assert(r16.memory.weights < r8.memory.weights && r8.memory.weights < r1.memory.weights);
	/* an expert group spread unevenly over nodes (pp 3 on 3 nodes, tp-pp-dp:
	 * 3, 3 and 2 of its 8 GPUs) is simulated in full: the same step as with
	 * the fabric's background load, which always turns the one-node
	 * shortcut off */
	scenario u = base(3, 1, 3);
	u.model.layers = 6;
	set_moe(&u, 16, 2, 4096);
	u.training.global_batch = 24;
	u.training.ep = 8;
	step_result ru = run_ok(&u);
	u.cluster.fabric.background_load = 1e-9;
	step_result rf = run_ok(&u);
	ck_assert_double_eq_tol(ru.step_time_s, rf.step_time_s, 1e-6 * rf.step_time_s);
	/* overlapped (DualPipe, Megatron's 1F1B A2A overlap): the all-to-all
	 * across nodes hides behind compute, which loses the SMs it holds */
	s.training.ep = 16;
	s.training.ep_overlap = true;
	step_result ro = run_ok(&s);
	ck_assert_msg(ro.split_s[SPLIT_TP_COMM] < 0.5 * r16.split_s[SPLIT_TP_COMM], "%g vs %g",
	              ro.split_s[SPLIT_TP_COMM], r16.split_s[SPLIT_TP_COMM]);
	ck_assert(ro.split_s[SPLIT_COMPUTE] > r16.split_s[SPLIT_COMPUTE]);
	ck_assert(ro.step_time_s < r16.step_time_s);
	s.training.ep_overlap = false;
	/* an unbalanced router: the busiest GPU's experts get 1.5x the mean, the
	 * others wait for it */
	s.training.expert_imbalance = 1.5;
	step_result ri = run_ok(&s);
	ck_assert(ri.split_s[SPLIT_COMPUTE] > 1.05 * r16.split_s[SPLIT_COMPUTE]);
	ck_assert(ri.step_time_s > r16.step_time_s);
	ck_assert_double_eq_tol(ri.mfu * ri.step_time_s, r16.mfu * r16.step_time_s,
	                        1e-6 * r16.mfu * r16.step_time_s);
	s.training.expert_imbalance = 1;
	/* MFU counts the active experts only: the same FLOPs in each layout */
	ck_assert_double_eq_tol(r1.mfu * r1.step_time_s, r16.mfu * r16.step_time_s,
	                        1e-6 * r1.mfu * r1.step_time_s);
}
END_TEST

/* A MoE step faster per micro-batch and layer of a stage than any published
 * dropless MoE run (6 ms) carries the note that such runs were host-bound,
 * as the last note, after the run's own (failures here); a micro-batch that
 * makes the step longer than the floor, and a dense model, do not. */
static bool has_moe_note(const step_result *r)
{
	for (int i = 0; i < r->n_notes; i++)
		if (strstr(r->notes[i], "MoE: the step comes to") && strstr(r->notes[i], "upper bound"))
			return true;
	return false;
}

START_TEST(t_moe_host_note)
{
	scenario s = base(1, 1, 1);
	set_moe(&s, 64, 8, 512);
	s.training.ep = 8;
	s.training.global_batch = 64;
	s.training.failures.gpu_mtbf_s = 1e5 * 3600;
	step_result r = run_ok(&s);
	double want = r.step_time_s / r.micro_batches / s.model.layers;
	ck_assert_double_eq_tol(r.moe_layer_mb_s, want, 1e-9 * want);
	ck_assert_msg(r.moe_layer_mb_s < 6e-3, "%g s", r.moe_layer_mb_s);
	ck_assert(r.moe_host_bound && has_moe_note(&r));
	ck_assert_int_ge(r.n_notes, 2);
	ck_assert_ptr_nonnull(strstr(r.notes[r.n_notes - 1], "MoE: the step comes to"));
	bool failures = false;
	for (int i = 0; i < r.n_notes; i++)
		failures |= strstr(r.notes[i], "ailure") != NULL;
	ck_assert(failures);
	s.training.micro_batch = 8;
	r = run_ok(&s);
	ck_assert_msg(r.moe_layer_mb_s > 6e-3, "%g s", r.moe_layer_mb_s);
	ck_assert(!r.moe_host_bound && !has_moe_note(&r));
	scenario d = base(1, 1, 1);
	r = run_ok(&d);
	ck_assert(r.moe_layer_mb_s == 0 && !has_moe_note(&r));
}
END_TEST

/* A restart reads the checkpoint back: from storage ten times slower it
 * takes about ten times longer once storage binds, and failures.reload:
 * false leaves the restart as given. An async snapshot stalls for its
 * overhead and its copy. */
START_TEST(t_reload_and_snapshot)
{
	scenario s = base(1, 1, 1);
	s.training.checkpoint.every = 10;
	s.training.failures.gpu_mtbf_s = 8 * 1800.0;
	s.training.failures.restart_s = 600;
	s.cluster.storage.bandwidth_Bps = 1e9;
	step_result r = run_ok(&s);
	double slow = r.checkpoint.load_s;
	s.cluster.storage.bandwidth_Bps = 10e9;
	r = run_ok(&s);
	double fast = r.checkpoint.load_s;
	ck_assert_msg(slow / fast > 8 && slow / fast < 10.5, "reload %g s at 1 GB/s, %g s at 10",
		      slow, fast);
	/* ZeRO 0: every data-parallel replica reads the whole checkpoint (as
	 * Megatron without the distributed optimizer does) */
	ck_assert_double_eq_tol(slow, scn_dp(&s) * r.checkpoint.bytes / 1e9 +
	                        s.cluster.storage.latency_s, 0.05 * slow);
	s.training.failures.reload = false;
	r = run_ok(&s);
	ck_assert_double_eq_tol(r.restart_s, 600, 1e-9);
	s.training.checkpoint.mode = CKPT_ASYNC;
	s.training.failures.gpu_mtbf_s = 0;
	r = run_ok(&s);
	double with = r.checkpoint.stall_s;
	s.training.checkpoint.snapshot_overhead_s = 0;
	r = run_ok(&s);
	ck_assert_double_eq_tol(with - r.checkpoint.stall_s, SCN_SNAPSHOT_OVERHEAD_S, 1e-6);
}
END_TEST

/* Failures that take more of the wall time than any share of the step are
 * the bottleneck, with the part that dominates named: restarts when they
 * are long, redone work when checkpoints are rare; rare failures leave the
 * step's own sentence. */
START_TEST(t_failures_bottleneck)
{
	scenario s = base(1, 1, 1);
	s.training.checkpoint.every = 10;
	s.training.failures.gpu_mtbf_s = 1e9;   /* rare: the step's own sentence */
	s.training.failures.restart_s = 600;
	step_result r = run_ok(&s);
	ck_assert_msg(r.restart_frac + r.lost_work_frac < 0.01 && r.job_mtbf_s > 0, "%g %g",
		      r.restart_frac, r.lost_work_frac);
	ck_assert_ptr_null(strstr(r.bottleneck, "Failures:"));
	s.training.failures.gpu_mtbf_s = 8 * 1800.0;   /* job MTBF 30 min, 10-min restarts */
	r = run_ok(&s);
	ck_assert_msg(r.goodput < 0.9, "%g", r.goodput);
	/* the restart and the checkpoint's reload */
	ck_assert_msg(r.checkpoint.load_s > 0, "%g", r.checkpoint.load_s);
	ck_assert_double_eq_tol(r.restart_s, 600 + r.checkpoint.load_s, 1e-9);
	ck_assert(r.restart_frac > r.lost_work_frac && r.restart_frac > r.ckpt_frac);
	ck_assert_msg(strstr(r.bottleneck, "Failures:") && strstr(r.bottleneck, "faster restart") &&
		      strstr(r.bottleneck, "now 10 min") &&
		      strstr(r.bottleneck, "reading the checkpoint back"), "%s", r.bottleneck);
	double sum = r.goodput + r.restart_frac + r.lost_work_frac + r.ckpt_frac;
	ck_assert_double_eq_tol(sum, 1, 0.02);
	/* a short restart and a checkpoint every 100000 steps: redone work */
	s.training.failures.restart_s = 10;
	s.training.checkpoint.every = 100000;
	r = run_ok(&s);
	ck_assert(r.lost_work_frac > r.restart_frac);
	ck_assert_msg(strstr(r.bottleneck, "checkpointing more often"), "%s", r.bottleneck);
}
END_TEST

/* Pipeline transfers between two nodes go over every NIC a GPU owns (16 x
 * 100 Gb/s for 8 A100, as OCI's nodes): the same transfer time as one 200
 * Gb/s NIC a GPU, half that of 8 x 100G. tp 8 puts each stage on a node. */
START_TEST(t_pp_over_all_nics)
{
	double pp_s[3];
	const struct { int count; double gbps; } nic[3] = {{16, 100}, {8, 200}, {8, 100}};
	for (int i = 0; i < 3; i++) {
		scenario s = base(2, 8, 2);
		s.model.hidden = 8192;
		s.model.heads = 64;
		s.model.seq_len = 4096;
		s.training.micro_batch = 4;
		s.training.global_batch = 16;
		s.cluster.nic.count = nic[i].count;
		s.cluster.nic.speed_Bps = nic[i].gbps * 1e9 / 8;
		step_result r = run_ok(&s);
		pp_s[i] = r.split_s[SPLIT_PP_COMM];
		ck_assert(r.split_s[SPLIT_PP_COMM] > 0);
	}
	ck_assert_msg(fabs(pp_s[0] / pp_s[1] - 1) < 0.02, "16 x 100G %g s, 8 x 200G %g s", pp_s[0],
	              pp_s[1]);
	ck_assert_msg(pp_s[2] > 1.3 * pp_s[0], "8 x 100G %g s, 16 x 100G %g s", pp_s[2], pp_s[0]);
}
END_TEST

/* A power limit (cluster.gpu.power_limit) slows the compute-bound kernels by
 * the clock it leaves and nothing else: Llama 3 8B on one node of 4 H100
 * (bf16, FSDP, full recomputation) keeps, at 600 / 500 / 400 / 300 W, within
 * 8 points of the 0.966 / 0.915 / 0.821 / 0.594 of its throughput that Mayr
 * et al. measured (arXiv 2603.16164, table 4; the model's constants come
 * from another paper's clock and draw, models/compute.c); the optimizer
 * (memory bound) takes as long; MFU stays against the rated peak. */
START_TEST(t_power_limit)
{
	char path[] = "/tmp/check_power_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("cluster: {gpu: H100, nodes: 1, gpus_per_node: 4}\n"
	      "model: {layers: 32, hidden: 4096, heads: 32, kv_heads: 8, ffn_hidden: 14336,\n"
	      "        gated_mlp: true, seq_len: 8192, vocab: 128256}\n"
	      "training: {precision: bf16, global_batch: 16, micro_batch: 1, tp: 1, pp: 1, dp: 4,\n"
	      "           zero: 3, recompute: full}\n", f);
	fclose(f);
	static const struct { const char *w; double kept; } caps[] = {
		{"600W", 0.966}, {"500W", 0.915}, {"400W", 0.821}, {"300W", 0.594}};
	scenario s;
	ck_assert_int_eq(scn_load(path, NULL, 0, &s, stderr, true), 0);
	step_result full = run_ok(&s);
	double prev = 1;
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		char set[64];
		snprintf(set, sizeof set, "cluster.gpu.power_limit=%s", caps[i].w);
		const char *sets[] = {set};
		ck_assert_int_eq(scn_load(path, sets, 1, &s, stderr, true), 0);
		step_result r = run_ok(&s);
		double kept = full.step_time_s / r.step_time_s;
		ck_assert_msg(fabs(kept - caps[i].kept) <= 0.08, "%s: %.3f of the throughput kept, "
		              "measured %.3f", caps[i].w, kept, caps[i].kept);
		ck_assert_double_lt(kept, prev);
		prev = kept;
		ck_assert_double_eq_tol(r.split_s[SPLIT_OPTIMIZER], full.split_s[SPLIT_OPTIMIZER],
		                        1e-9);
		ck_assert_double_eq_tol(r.mfu / full.mfu, kept, 1e-9);
	}
	unlink(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("step_run");
	TCase *tc = tcase_create("runs");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_same_seed_same_numbers);
	tcase_add_test(tc, test_p99_grows_with_gpus);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_steps_past_the_limit);
	tcase_add_test(tc, test_timeline);
	tcase_add_test(tc, test_timeline_imbalance);
	tcase_add_test(tc, test_3d_layout);
	tcase_add_test(tc, test_metrics_after_stalls);
	tcase_add_test(tc, test_link_noise);
	tcase_add_test(tc, test_memory_limit);
	tcase_add_test(tc, test_memest_all_to_all);
	tcase_add_test(tc, test_async_reduction_bound);
	tcase_add_test(tc, test_async_hides_short_reduction);
	tcase_add_test(tc, t_moe_expert_parallel);
	tcase_add_test(tc, t_moe_host_note);
	tcase_add_test(tc, t_failures_bottleneck);
	tcase_add_test(tc, t_reload_and_snapshot);
	tcase_add_test(tc, t_pp_over_all_nics);
	tcase_add_test(tc, t_power_limit);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
