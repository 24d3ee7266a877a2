/* check_step_dp.c: the data-parallel stream's coalescing (docs/step.md): every
 * bucket is still one NCCL collective in the counts and pays its latency, but
 * the buckets waiting together are simulated as one collective, so a step
 * costs events per reduction, not per bucket x rank; the event estimate no
 * longer refuses layouts with many buckets; the hold over >= 256 DP ranks;
 * sharded gradients reduced after every micro-batch. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "engine.h"
#include "flow.h"
#include "step.h"
#include "scn.h"

/* The seeds' 100B example (scenarios/dp-100b-*.yaml): fp16 gradients,
 * hierarchical all-reduce, 4 x 8 A100, one 10 GbE NIC per node over TCP. */
static scenario dp100b(double bucket_bytes)
{
	scenario s;
	scn_defaults(&s);
	s.cluster.nodes = 4;
	s.cluster.gpus_per_node = 8;
	s.cluster.gpu = *hw_gpu_find("A100-SXM4-80GB");
	s.cluster.nic.count = 1;
	s.cluster.nic.speed_Bps = 10e9 / 8;
	s.cluster.nic.transport = TRANSPORT_TCP;
	s.model.layers = 80;
	s.model.hidden = 10240;
	s.model.heads = 80;
	s.model.seq_len = 2048;
	s.model.vocab = 51200;
	s.training.tp = 1;
	s.training.pp = 1;
	s.training.micro_batch = 1;
	s.training.global_batch = 32;
	s.training.precision = PREC_FP16;
	s.training.grad_reduce.dtype = PREC_FP16;
	s.training.grad_reduce.algorithm = GRAD_ALGO_HIERARCHICAL;
	s.training.grad_reduce.bucket_bytes = bucket_bytes;
	return s;
}

static step_result run_ok(const scenario *s, uint64_t max_events)
{
	step_result r;
	char err[512] = "";
	int rc = step_run(s, &(step_opts){.max_events = max_events}, &r, err, sizeof err);
	ck_assert_msg(rc == 0, "step_run: %s", err);
	double sum = 0;
	for (int k = 0; k < SPLIT__N; k++)
		sum += r.split_s[k];
	ck_assert_double_eq_tol(sum, r.step_time_s, 1e-9 * r.step_time_s);
	return r;
}

/* NCCL's latency of one DP all-reduce of `bytes` over the 32 GPUs. */
static double dp_latency(const scenario *s, double bytes)
{
	char err[256];
	sim *e = sim_new(1, 0);
	flownet *net = flow_new(e);
	cluster *cl = cluster_build(&s->cluster, net, err, sizeof err);
	ck_assert_msg(cl != NULL, "%s", err);
	coll_ctx *cc = coll_ctx_new(cl, e);
	int ranks[32];
	for (int i = 0; i < 32; i++)
		ranks[i] = i;
	coll_req req = {.op = COLL_ALL_REDUCE, .algo = ALGO_HIERARCHICAL, .ranks = ranks, .n = 32,
	                .bytes = bytes, .mult = 1};
	double lat = coll_latency(cc, &req, ALGO_HIERARCHICAL);
	coll_ctx_free(cc);
	cluster_free(cl);
	flow_free(net);
	sim_free(e);
	return lat;
}

/* 200 GB of gradients in 25 MB buckets over 10 GbE: the reduction trails the
 * backward, buckets queue and run as a few merged collectives. The step
 * still counts 8,000 NCCL collectives, and each one's latency is in the step
 * time: 25 MB buckets are slower than 1 GB ones by the difference of the
 * latency sums (less the 1 GB bucket's later start, ~20 ms of fill). Before
 * coalescing the step took 1.6 M events. */
START_TEST(test_latency_of_every_bucket)
{
	scenario s25 = dp100b(25e6), s1g = dp100b(1e9);
	step_result a = run_ok(&s25, 0), b = run_ok(&s1g, 0);
	double S = a.dp_bytes_per_gpu;
	ck_assert(S > 195e9 && S < 210e9);
	ck_assert_double_eq_tol(a.dp_collectives_per_step, ceil(S / 25e6), 1);
	ck_assert_double_eq_tol(b.dp_collectives_per_step, ceil(S / 1e9), 1);
	ck_assert_msg(a.events < 20000, "%llu events", (unsigned long long)a.events);
	double want = a.dp_collectives_per_step * dp_latency(&s25, 25e6) -
	              b.dp_collectives_per_step * dp_latency(&s1g, 1e9);
	/* the report's latency sum is that count times one bucket's latency */
	ck_assert_double_eq_tol(a.dp_latency_s, a.dp_collectives_per_step * dp_latency(&s25, 25e6),
	                        1e-9 * a.dp_latency_s);
	/* 160 s of bytes on 10 GbE: bandwidth-bound, not latency-bound */
	ck_assert_ptr_null(strstr(a.bottleneck, "bound by latency"));
	double got = a.step_time_s - b.step_time_s;
	ck_assert(want > 0.5);
	ck_assert_msg(fabs(got - want) < 0.05 * want, "25 MB - 1 GB buckets: %g s, latencies %g s",
	              got, want);
}
END_TEST

/* 1 MB buckets: 200,000 of them. The event estimate used to count one
 * collective per bucket (13 M events at least) and refused a cap of 10^5;
 * coalesced, the step needs a few thousand. */
START_TEST(test_estimate_counts_reductions)
{
	scenario s = dp100b(1e6);
	step_result r = run_ok(&s, 100000);
	ck_assert_double_eq_tol(r.dp_collectives_per_step, ceil(r.dp_bytes_per_gpu / 1e6), 1);
	ck_assert(r.events < 100000);
}
END_TEST

/* ZeRO-1 and overlap off merge too: reduce-scatters and parameter gathers
 * are counted per bucket, and the step is as long as the 25 MB run's latency
 * count says (ZeRO-1 against ZeRO-0 is not compared: different traffic). */
START_TEST(test_zero1_and_no_overlap)
{
	scenario s = dp100b(25e6);
	s.training.zero = 1;
	s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	step_result r = run_ok(&s, 0);
	double n = ceil(r.dp_bytes_per_gpu / 25e6);
	ck_assert_double_eq_tol(r.dp_collectives_per_step, 2 * n, 2);   /* RS + AG per bucket */
	ck_assert(r.events < 50000);
	scenario o = dp100b(25e6), on = dp100b(25e6);
	o.training.grad_reduce.overlap = false;
	step_result q = run_ok(&o, 0), p = run_ok(&on, 0);
	ck_assert_double_eq_tol(q.dp_collectives_per_step, n, 1);
	ck_assert(q.step_time_s > p.step_time_s);   /* nothing hides behind the backward */
	ck_assert(q.events < p.events + 1000);
}
END_TEST

/* ZeRO-3 reduce-scatters whole layers (FSDP's unit): each of the 80 layers'
 * 2.5 GB of fp16 gradients is one reduce-scatter whatever the 25 MB bucket
 * says (25 MB buckets were 100 per layer), with a gather per layer for the
 * forward and one for the backward. A bucket larger than a layer holds several whole layers; with
 * overlap off the same count runs after the backward. */
START_TEST(test_zero3_reduces_layers)
{
	scenario s = dp100b(25e6);
	s.training.zero = 3;
	s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	step_result r = run_ok(&s, 0);
	/* 80 layer reduce-scatters and the embedding's (the output layer is
	 * tied to it); gathers: 80 for the forward, 80 for the backward */
	ck_assert_double_eq_tol(r.dp_collectives_per_step, 81 + 160, 1e-9);
	s.training.grad_reduce.bucket_bytes = 6e9;   /* 2.4 layers: closes at every 3rd */
	step_result b = run_ok(&s, 0);
	ck_assert_double_eq_tol(b.dp_collectives_per_step, 27 + 160, 1e-9);
	s.training.grad_reduce.bucket_bytes = 25e6;
	s.training.grad_reduce.overlap = false;
	step_result o = run_ok(&s, 0);
	ck_assert_double_eq_tol(o.dp_collectives_per_step, r.dp_collectives_per_step, 1e-9);
	ck_assert(o.step_time_s > r.step_time_s);
	/* buckets are no lever with ZeRO-3: the report never asks for larger ones */
	ck_assert_ptr_null(strstr(o.bottleneck, "bound by latency"));
}
END_TEST

/* Sharded gradients leave every backward (DeepSpeed's ZeRO-2/3, PyTorch
 * FSDP, Megatron-FSDP): with 4 micro-batches ZeRO-3 reduce-scatters its 81
 * layer buckets 4 times, as it gathers 160 layers 4 times. FSDP's no_sync
 * (every_micro_batch: false) reduces once but holds the whole gradients;
 * DDP or ZeRO-1 without no_sync (true) reduces every micro-batch too. */
START_TEST(test_every_micro_batch)
{
	scenario s = dp100b(25e6);
	s.training.zero = 3;
	s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	s.training.global_batch = 4 * 32;
	step_result a = run_ok(&s, 0);
	ck_assert_int_eq(a.micro_batches, 4);
	ck_assert_int_eq(a.dp_syncs_per_step, 4);
	ck_assert_double_eq_tol(a.dp_collectives_per_step, 4 * 81 + 4 * 160, 1e-9);
	s.training.grad_reduce.every_micro_batch = EVERY_MB_FALSE;
	step_result f = run_ok(&s, 0);
	ck_assert_int_eq(f.dp_syncs_per_step, 1);
	ck_assert_double_eq_tol(f.dp_collectives_per_step, 81 + 4 * 160, 1e-9);
	ck_assert(f.step_time_s < a.step_time_s);
	ck_assert(f.split_s[SPLIT_DP_COMM] < a.split_s[SPLIT_DP_COMM]);
	/* the bottleneck sentence names the lever that applies: more micro-batches
	 * add reductions when each one is reduced */
	ck_assert_ptr_nonnull(strstr(a.bottleneck, "(the reduction 4 times per step)"));
	ck_assert_ptr_nonnull(strstr(a.bottleneck, "every_micro_batch: false"));
	ck_assert_ptr_null(strstr(a.bottleneck, "gradient accumulation"));
	/* under no_sync ZeRO-3 still gathers every micro-batch's parameters:
	 * more micro-batches add gathers, so the lever is fewer, larger ones;
	 * the report's reduction holds the step's 2m gathers */
	ck_assert_ptr_null(strstr(f.bottleneck, "gradient accumulation"));
	ck_assert_ptr_nonnull(strstr(f.bottleneck, "fewer, larger micro-batches"));
	ck_assert_double_eq_tol(f.dp_gather_bytes_per_gpu, 8 * f.dp_bytes_per_gpu,
	                        1e-9 * f.dp_bytes_per_gpu);
	/* the same reduce-scatter bytes per sync, three fewer syncs */
	ck_assert(f.dp_wire_bytes_per_gpu < a.dp_wire_bytes_per_gpu);
	double rs = a.dp_wire_bytes_per_gpu - f.dp_wire_bytes_per_gpu;
	ck_assert_double_eq_tol(rs, 3 * 31.0 / 32 * a.dp_bytes_per_gpu, 1e-6 * rs);
	/* no_sync keeps every gradient: 32 x the sharded ZeRO-3 gradients */
	ck_assert_double_eq_tol(f.memory.gradients, 32 * a.memory.gradients,
	                        1e-9 * f.memory.gradients);
	/* one micro-batch: nothing to accumulate, sharded either way */
	s.training.global_batch = 32;
	step_result one = run_ok(&s, 0);
	ck_assert_int_eq(one.dp_syncs_per_step, 1);
	ck_assert_double_eq_tol(one.memory.gradients, a.memory.gradients, 1e-9 * a.memory.gradients);
	/* ZeRO-1 reduces after the last micro-batch, unless told otherwise */
	scenario z1 = dp100b(25e6);
	z1.training.zero = 1;
	z1.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	z1.training.global_batch = 4 * 32;
	step_result l = run_ok(&z1, 0);
	double n = ceil(l.dp_bytes_per_gpu / 25e6);
	ck_assert_int_eq(l.dp_syncs_per_step, 1);
	ck_assert_double_eq_tol(l.dp_collectives_per_step, 2 * n, 2);   /* RS + AG per bucket */
	z1.training.grad_reduce.every_micro_batch = EVERY_MB_TRUE;
	step_result e = run_ok(&z1, 0);
	ck_assert_int_eq(e.dp_syncs_per_step, 4);
	ck_assert_double_eq_tol(e.dp_collectives_per_step, 5 * n, 5);   /* 4 RS + 1 AG */
	ck_assert(e.step_time_s > l.step_time_s);
	/* a pipeline of 2 stages with 2 chunks each (interleaved): every chunk's
	 * backward of every micro-batch hands over its buckets, once */
	scenario p = dp100b(25e6);
	p.cluster.nodes = 8;
	p.training.pp = 2;
	p.training.schedule = SCHED_INTERLEAVED;
	p.training.virtual_stages = 2;
	p.training.zero = 2;
	p.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	p.training.global_batch = 4 * 32;
	/* auto with a pipeline: once a step, as every framework that pipelines
	 * sharded gradients does (DeepSpeed refuses ZeRO-2/3 with a pipeline) */
	step_result pa = run_ok(&p, 0);
	ck_assert_int_eq(pa.dp_syncs_per_step, 1);
	p.training.grad_reduce.every_micro_batch = EVERY_MB_TRUE;
	step_result pi = run_ok(&p, 0);
	p.training.grad_reduce.every_micro_batch = EVERY_MB_FALSE;
	step_result po = run_ok(&p, 0);
	ck_assert_double_eq_tol(pa.step_time_s, po.step_time_s, 1e-12 * po.step_time_s);
	ck_assert_int_eq(pi.dp_syncs_per_step, 4);
	double nb = po.dp_collectives_per_step / 2;   /* RS + AG per bucket, once */
	ck_assert_double_eq_tol(pi.dp_collectives_per_step, 4 * nb + nb, 4 * 2 + 2);
	/* async updates reach their steady state from the first measured step:
	 * the primed step holds m reductions, as every step does */
	scenario as = dp100b(25e6);
	as.training.zero = 2;
	as.training.global_batch = 4 * 32;
	as.training.grad_reduce.sync = SYNC_ASYNC;
	step_result a1 = run_ok(&as, 0);
	as.run.steps = 6;
	step_result a6 = run_ok(&as, 0);
	ck_assert_double_eq_tol(a6.step_time_s, a1.step_time_s, 0.01 * a1.step_time_s);
	/* on a compute-bound layout (8 x 200 Gb/s RDMA per node) a 1.5x
	 * straggler costs its extra compute, half the compute, once: its lateness
	 * does not compound over the 16 reductions (it did: 5626 s for a 70 s
	 * step at 16 micro-batches) */
	scenario v = dp100b(25e6);
	v.cluster.nic.count = 8;
	v.cluster.nic.speed_Bps = 200e9 / 8;
	v.cluster.nic.transport = TRANSPORT_RDMA;
	v.training.zero = 3;
	v.training.global_batch = 16 * 32;
	step_result v0 = run_ok(&v, 0);
	ck_assert(v0.split_s[SPLIT_COMPUTE] > 0.9 * v0.step_time_s);
	v.run.variability.straggler_fraction = 0.05;
	v.run.variability.straggler_slowdown = 1.5;
	step_result v1 = run_ok(&v, 0);
	double extra = v1.step_time_s - v0.step_time_s, c0 = v0.split_s[SPLIT_COMPUTE];
	ck_assert_msg(extra > 0.4 * c0 && extra < 0.6 * c0, "straggler: +%g s on %g s of compute",
	              extra, c0);
	/* the wait for the straggler is idle, not DP communication, which a
	 * faster network would not shorten (dp_comm took all of it); what
	 * stays dp_comm is the reductions its delay left no compute to hide
	 * behind */
	ck_assert_msg(v1.split_s[SPLIT_DP_COMM] < v0.split_s[SPLIT_DP_COMM] + 0.3 * extra,
		      "dp_comm %g s against %g s, +%g s", v1.split_s[SPLIT_DP_COMM],
		      v0.split_s[SPLIT_DP_COMM], extra);
	ck_assert_msg(v1.split_s[SPLIT_IDLE] > v0.split_s[SPLIT_IDLE] + 0.7 * extra,
		      "idle %g s against %g s, +%g s", v1.split_s[SPLIT_IDLE],
		      v0.split_s[SPLIT_IDLE], extra);
	/* exactly one slow GPU (straggler_gpus): the same cost on every seed,
	 * where a fraction draws a number per seed */
	v.run.variability.straggler_fraction = 0;
	v.run.variability.straggler_gpus = 1;
	step_result e1 = run_ok(&v, 0);
	v.run.seed = 7;
	step_result e7 = run_ok(&v, 0);
	ck_assert_int_eq(e1.stragglers_drawn, 1);
	ck_assert_double_eq_tol(e1.step_time_s, e7.step_time_s, 1e-12 * e1.step_time_s);
	double ex = e1.step_time_s - v0.step_time_s;
	ck_assert_msg(ex > 0.4 * c0 && ex < 0.6 * c0, "one straggler: +%g s on %g s", ex, c0);
	/* nvidia-smi sees the wait busy: the all-reduce's kernel spins on it */
	ck_assert_msg(e1.gpu_util > 0.99, "gpu_util %g", e1.gpu_util);
	/* every GPU slow: the simulated replica too, so the time is compute */
	v.run.variability.straggler_gpus = scn_gpus(&v);
	step_result ea = run_ok(&v, 0);
	ck_assert_int_eq(ea.stragglers_drawn, scn_dp(&v));
	ck_assert_msg(fabs(ea.split_s[SPLIT_COMPUTE] / c0 - 1.5) < 0.05, "compute %g s on %g s",
		      ea.split_s[SPLIT_COMPUTE], c0);
	ck_assert_msg(ea.split_s[SPLIT_IDLE] < 0.05 * c0, "idle %g s", ea.split_s[SPLIT_IDLE]);
}
END_TEST

/* zero_group (HSDP): ZeRO-3 sharded inside each node of 8 and replicated over
 * the 4 nodes. Each layer bucket is reduce-scattered in the node and its 1/8
 * all-reduced across the nodes; the gathers stay in the node. Every GPU sends
 * about as many bytes (fp16 gradients and weights, S each: 7/8 S + 2 (3/4)
 * S/8 + 2 (7/8) S against 31/32 S + 2 (31/32) S), but the one 10 GbE NIC
 * carries only the shards: faster, for 4 times the sharded state. A group of
 * all 32 is full sharding. */
START_TEST(test_zero_group)
{
	scenario s = dp100b(25e6);
	s.training.zero = 3;
	s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	step_result full = run_ok(&s, 0);
	s.training.zero_group = 8;
	step_result h = run_ok(&s, 0);
	ck_assert_int_eq(h.dp_zero_group, 8);
	ck_assert_int_eq(h.dp_zero_replicas, 4);
	ck_assert_int_eq(full.dp_zero_group, 0);
	/* 81 layer reduce-scatters, their 81 all-reduces across nodes, 160 gathers */
	ck_assert_double_eq_tol(h.dp_collectives_per_step, 81 + 81 + 160, 1e-9);
	double S = h.dp_bytes_per_gpu;
	ck_assert_double_eq_tol(h.dp_wire_bytes_per_gpu, S * (7.0 / 8 + 2 * 0.75 / 8 + 2 * 7.0 / 8),
	                        1e-9 * S);
	ck_assert_double_eq_tol(full.dp_wire_bytes_per_gpu, S * 3 * 31.0 / 32, 1e-9 * S);
	/* the report's one reduction holds both gathers (forward and backward):
	 * its ring factor times the syncs is what the step sends */
	ck_assert_double_eq_tol(full.dp_gather_bytes_per_gpu, 2 * S, 1e-9 * S);
	ck_assert_double_eq_tol(full.dp_ideal_factor, 3 * 31.0 / 32, 1e-9);
	ck_assert_double_eq_tol(full.dp_syncs_per_step * S * full.dp_ideal_factor,
	                        full.dp_wire_bytes_per_gpu, 1e-9 * S);
	ck_assert(h.step_time_s < 0.9 * full.step_time_s);
	ck_assert(h.split_s[SPLIT_DP_COMM] < full.split_s[SPLIT_DP_COMM]);
	ck_assert_double_eq_tol(h.memory.optimizer, 4 * full.memory.optimizer,
	                        1e-9 * h.memory.optimizer);
	ck_assert_double_eq_tol(h.memory.weights, 4 * full.memory.weights, 1e-9 * h.memory.weights);
	ck_assert_ptr_nonnull(strstr(h.bottleneck, "4 groups of 8 data-parallel ranks"));
	s.training.zero_group = 32;
	step_result all = run_ok(&s, 0);
	ck_assert_double_eq_tol(all.step_time_s, full.step_time_s, 1e-12 * full.step_time_s);
	ck_assert_int_eq(all.dp_zero_group, 0);
	/* ZeRO-1 in groups: the parameter gather after the optimizer stays in
	 * the node too */
	scenario z1 = dp100b(25e6);
	z1.training.zero = 1;
	z1.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	step_result z1f = run_ok(&z1, 0);
	z1.training.zero_group = 8;
	step_result z1h = run_ok(&z1, 0);
	double n = ceil(z1h.dp_bytes_per_gpu / 25e6);
	ck_assert_double_eq_tol(z1h.dp_collectives_per_step, 3 * n, 3);   /* RS, AR, AG */
	ck_assert(z1h.step_time_s < z1f.step_time_s);
	ck_assert_double_eq_tol(z1h.memory.optimizer, 4 * z1f.memory.optimizer,
	                        1e-9 * z1h.memory.optimizer);
	/* async updates wait for their shards' all-reduces too, from the primed
	 * step on: the step time does not depend on how many steps are run */
	z1.training.grad_reduce.sync = SYNC_ASYNC;
	step_result a2 = run_ok(&z1, 0);
	z1.run.steps = 6;
	step_result a6 = run_ok(&z1, 0);
	ck_assert_double_eq_tol(a6.step_time_s, a2.step_time_s, 1e-6 * a2.step_time_s);
}
END_TEST

/* Megatron's --overlap-param-gather: with the distributed optimizer the
 * parameter all-gather of the last update runs while the step computes,
 * layer by layer, instead of after the optimizer. The same bytes, less
 * exposed DP time; refused without ZeRO-1/2. */
START_TEST(test_overlap_param_gather)
{
	scenario s = dp100b(25e6);
	s.cluster.nic.speed_Bps = 200e9 / 8;
	s.cluster.nic.transport = TRANSPORT_RDMA;
	s.training.zero = 1;
	s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	step_result a = run_ok(&s, 0);
	s.training.grad_reduce.overlap_param_gather = true;
	step_result b = run_ok(&s, 0);
	/* the same reduce-scatters; the gather one collective per layer (80), not per bucket */
	ck_assert_double_eq_tol(b.dp_collectives_per_step, a.dp_collectives_per_step / 2 + 80, 1e-9);
	ck_assert(b.split_s[SPLIT_DP_COMM] < a.split_s[SPLIT_DP_COMM]);
	ck_assert(b.step_time_s < a.step_time_s);
	/* the gather still costs: slower than with no gather at all would be */
	ck_assert(b.step_time_s > a.step_time_s - a.split_s[SPLIT_DP_COMM]);
	char err[512];
	const char *y = "cluster: {nodes: 1, gpus_per_node: 8, gpu: A100-SXM4-80GB}\n"
	                "model: {layers: 2, hidden: 1024, heads: 16, seq_len: 1024}\n"
	                "training: {global_batch: 8, grad_reduce: {overlap_param_gather: true}}\n";
	FILE *e = fmemopen(err, sizeof err, "w");
	scn_doc *d = scn_doc_load_string(y, strlen(y), "t.yaml", e);
	ck_assert_ptr_nonnull(d);
	scenario x;
	ck_assert_int_eq(scn_from_doc(d, &x, e, true), -1);
	fclose(e);
	ck_assert_msg(strstr(err, "distributed optimizer"), "%s", err);
	scn_doc_free(d);
	step_result_release(&a);
	step_result_release(&b);
}
END_TEST

/* Loads a scenario from YAML text (with --set-style overrides). */
static int load_yaml(const char *y, const char *const *sets, int nsets, scenario *out, char *err,
                     size_t n)
{
	FILE *e = fmemopen(err, n, "w");
	scn_doc *d = scn_doc_load_string(y, strlen(y), "t.yaml", e);
	int rc = d ? 0 : -1;
	for (int i = 0; i < nsets && !rc; i++)
		rc = scn_doc_set(d, sets[i], e);
	if (!rc)
		rc = scn_from_doc(d, out, e, true);
	fclose(e);
	scn_doc_free(d);
	return rc;
}

/* ZeRO-1 over an all-reduce (PyTorch's ZeroRedundancyOptimizer under DDP,
 * DeepSpeed's BF16_Optimizer): the optimizer state is sharded as ZeRO-1
 * shards it, but the gradients are all-reduced whole before the shards'
 * parameters are gathered: (n-1)/n more gradient bytes on the wire than the
 * reduce-scatter, the same memory, a slower step on a slow network; the
 * report says all-reduce. Refused with ZeRO-2/3 (sharded gradients), with
 * zero_group, and a reduce-scatter with zero: 0. */
START_TEST(test_zero1_all_reduce)
{
	scenario s = dp100b(25e6);
	s.training.zero = 1;
	s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
	step_result rs = run_ok(&s, 0);
	s.training.grad_reduce.collective = GRAD_COLL_ALL_REDUCE;
	step_result ar = run_ok(&s, 0);
	s.training.zero = 0;
	s.training.grad_reduce.collective = GRAD_COLL_AUTO;
	step_result z0 = run_ok(&s, 0);
	double S = ar.dp_bytes_per_gpu, P = ar.dp_gather_bytes_per_gpu, n = 32;
	ck_assert_double_eq_tol(P, S, 1e-9 * S);   /* fp16 gradients and weights */
	ck_assert_double_eq_tol(rs.dp_wire_bytes_per_gpu, (n - 1) / n * (S + P), 1e-9 * S);
	ck_assert_double_eq_tol(ar.dp_wire_bytes_per_gpu, (n - 1) / n * (2 * S + P), 1e-9 * S);
	ck_assert_double_eq_tol(ar.dp_ideal_factor, (n - 1) / n * 3, 1e-9);
	ck_assert_double_eq_tol(ar.memory.optimizer, rs.memory.optimizer, 1e-9 * rs.memory.optimizer);
	ck_assert(ar.memory.optimizer < z0.memory.optimizer / 8);
	ck_assert(ar.step_time_s > rs.step_time_s);
	ck_assert(ar.step_time_s > z0.step_time_s);   /* the gather comes on top */
	ck_assert(ar.split_s[SPLIT_DP_COMM] > rs.split_s[SPLIT_DP_COMM]);
	ck_assert_ptr_nonnull(strstr(ar.bottleneck, "all-reduce (and all-gather)"));
	/* NCCL's latency: the all-reduces' plus the gathers' at an all-gather's,
	 * less than twice the all-reduces alone */
	ck_assert(ar.dp_latency_s > z0.dp_latency_s && ar.dp_latency_s < 1.75 * z0.dp_latency_s);
	step_result_release(&rs);
	step_result_release(&ar);
	step_result_release(&z0);
	static const struct { const char *set, *want; } bad[] = {
		{"training.zero=2", "only a reduce-scatter"},
		{"training.zero_group=8", "not modelled"},
	};
	const char *base = "cluster: {nodes: 2, gpus_per_node: 8, gpu: A100-SXM4-80GB}\n"
	                   "model: {layers: 2, hidden: 1024, heads: 16, seq_len: 1024}\n"
	                   "training: {global_batch: 16, zero: 1,\n"
	                   "           grad_reduce: {collective: all_reduce}}\n";
	char err[512];
	scenario x;
	ck_assert_msg(load_yaml(base, NULL, 0, &x, err, sizeof err) == 0, "%s", err);
	ck_assert(!scn_grad_rs(&x));
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *sets[] = {bad[i].set};
		ck_assert_int_eq(load_yaml(base, sets, 1, &x, err, sizeof err), -1);
		ck_assert_msg(strstr(err, bad[i].want) && strstr(err, "collective"), "%s", err);
	}
	const char *rs0[] = {"training.zero=0", "training.grad_reduce.collective=reduce_scatter"};
	ck_assert_int_eq(load_yaml(base, rs0, 2, &x, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "zero: 1 or more"), "%s", err);
}
END_TEST


/* Context parallelism on 2 x 8 H100: with cp 2 each GPU takes half of
 * twice as many sequences, the same compute for the same global batch;
 * gradients are reduced over all 16 GPUs either way (the same wire bytes per
 * GPU); activations halve. With the CP pair on two nodes behind a slow NIC
 * the K/V exchange no longer hides behind the attention. Bad cp values are
 * refused. */
START_TEST(test_context_parallel)
{
	const char *y =
		"cluster: {nodes: 2, gpus_per_node: 8, gpu: H100-SXM5-80GB,\n"
		"          nic: {count: 8, speed: 400Gbps, transport: rdma}}\n"
		"model: {layers: 8, hidden: 4096, heads: 32, kv_heads: 8, ffn_hidden: 14336,\n"
		"        gated_mlp: true, seq_len: 8192, vocab: 128256}\n"
		"training: {precision: bf16, global_batch: 16, micro_batch: 1, zero: 1}\n";
	char err[512];
	scenario a, b, c;
	ck_assert_msg(load_yaml(y, NULL, 0, &a, err, sizeof err) == 0, "%s", err);
	const char *cp2[] = {"training.cp=2"};
	ck_assert_msg(load_yaml(y, cp2, 1, &b, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(b.training.dp, 8);
	step_result ra = run_ok(&a, 0), rb = run_ok(&b, 0);
	ck_assert_double_eq_tol(rb.split_s[SPLIT_COMPUTE], ra.split_s[SPLIT_COMPUTE],
	                        0.05 * ra.split_s[SPLIT_COMPUTE]);
	ck_assert_double_eq_tol(rb.dp_wire_bytes_per_gpu, ra.dp_wire_bytes_per_gpu,
	                        1e-9 * ra.dp_wire_bytes_per_gpu);
	ck_assert(rb.memory.activations < 0.6 * ra.memory.activations);
	ck_assert(rb.split_s[SPLIT_TP_COMM] < 0.01 * rb.step_time_s);   /* NVLink: hidden */
	/* tp 8 x cp 2: the pair is on two nodes, here behind 10 Gb/s NICs */
	const char *far[] = {"training.cp=2", "training.tp=8", "cluster.nic.speed=10Gbps",
	                     "training.global_batch=2"};
	ck_assert_msg(load_yaml(y, far, 4, &c, err, sizeof err) == 0, "%s", err);
	step_result rc = run_ok(&c, 0);
	ck_assert(rc.split_s[SPLIT_TP_COMM] > 0.05 * rc.step_time_s);
	step_result_release(&ra);
	step_result_release(&rb);
	step_result_release(&rc);
	/* pipeline messages: tp 8 or cp 8, the 8 GPUs of a stage send the same
	 * bytes in all through the node's one NIC */
	const char *pt[] = {"training.tp=8", "training.pp=2", "cluster.nic.count=1",
	                    "cluster.nic.speed=25Gbps", "training.global_batch=8"};
	const char *pc[] = {"training.cp=8", "training.pp=2", "cluster.nic.count=1",
	                    "cluster.nic.speed=25Gbps", "training.global_batch=8"};
	scenario st, sc;
	ck_assert_msg(load_yaml(y, pt, 5, &st, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(load_yaml(y, pc, 5, &sc, err, sizeof err) == 0, "%s", err);
	step_result rt = run_ok(&st, 0), rcp = run_ok(&sc, 0);
	ck_assert(rt.split_s[SPLIT_PP_COMM] > 0);
	ck_assert_msg(rcp.split_s[SPLIT_PP_COMM] > 0.5 * rt.split_s[SPLIT_PP_COMM],
	              "pp_comm tp8 %g, cp8 %g", rt.split_s[SPLIT_PP_COMM], rcp.split_s[SPLIT_PP_COMM]);
	step_result_release(&rt);
	step_result_release(&rcp);
	const char *odd[] = {"training.cp=3"};
	ck_assert_int_eq(load_yaml(y, odd, 1, &c, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "tp*cp*pp"), "%s", err);
	const char *seq[] = {"training.cp=2", "model.seq_len=8190"};
	ck_assert_int_eq(load_yaml(y, seq, 2, &c, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "2*cp"), "%s", err);
}
END_TEST

/* 256 GPUs, pure DP, 96 layers, fast RDMA: the network keeps up with the
 * backward, so each layer's burst of buckets would be reduced alone over 256
 * ranks; the hold gathers bursts. Every bucket is still counted, and the
 * events stay below 3 per bucket and rank (0.55 M; 0.9 M without the hold,
 * for the same step time to 9 digits; one ring per bucket would take 16: a
 * ring per rail, 8 flows per rank, each at least an end and a delivery). */
START_TEST(test_hold_many_ranks)
{
	scenario s;
	scn_defaults(&s);
	s.cluster.nodes = 32;
	s.cluster.gpus_per_node = 8;
	s.cluster.gpu = *hw_gpu_find("A100-SXM4-80GB");
	s.cluster.nic.count = 8;
	s.cluster.nic.speed_Bps = 400e9 / 8;
	s.model.layers = 96;
	s.model.hidden = 2048;
	s.model.heads = 16;
	s.model.seq_len = 2048;
	s.model.vocab = 51200;
	s.training.tp = 1;
	s.training.pp = 1;
	s.training.micro_batch = 8;
	s.training.global_batch = 8 * 256;
	s.training.grad_reduce.bucket_bytes = 25e6;
	step_result r = run_ok(&s, 0);
	double n = ceil(r.dp_bytes_per_gpu / 25e6);
	ck_assert(n > 100);
	ck_assert_double_eq_tol(r.dp_collectives_per_step, n, 1);
	ck_assert_msg(r.events < n * 256 * 3, "%llu events for %g buckets",
	              (unsigned long long)r.events, n);
	/* the reduction hides behind the backward but for its tail */
	ck_assert(r.split_s[SPLIT_DP_COMM] < 0.05 * r.step_time_s);
}
END_TEST

/* One replica simulates one GPU per stage and lets it stand for its tp
 * siblings. With 4 NICs for 8 GPUs, GPUs 0 and 1 (siblings of one stage)
 * share NIC 0, so the stage's gradients cross it twice: the all-reduce
 * between the two nodes takes twice as long as with a NIC per GPU. Before
 * the NIC links knew their fanin, the representative had NIC 0 to itself
 * and the two layouts reduced equally fast (BLOOM's Jean Zay nodes: 4 NICs
 * for 8 GPUs). */
START_TEST(test_siblings_share_nics)
{
	double dp[2];
	for (int i = 0; i < 2; i++) {
		scenario s = dp100b(1e9);
		s.cluster.nodes = 2;
		s.cluster.nic.count = i ? 4 : 8;
		s.cluster.nic.speed_Bps = 200e9 / 8;
		s.cluster.nic.transport = TRANSPORT_RDMA;
		s.training.tp = 4;
		s.training.pp = 2;
		s.training.micro_batch = 1;
		s.training.global_batch = 2;
		s.training.grad_reduce.overlap = false;
		s.training.grad_reduce.algorithm = GRAD_ALGO_RING;
		step_result r = run_ok(&s, 0);
		dp[i] = r.split_s[SPLIT_DP_COMM];
	}
	ck_assert_msg(dp[0] > 0.5, "DP exposed %g s", dp[0]);
	ck_assert_msg(dp[1] / dp[0] > 1.85 && dp[1] / dp[0] < 2.1,
	              "4 NICs: %g s, 8 NICs: %g s", dp[1], dp[0]);
}
END_TEST

/* An overlapped gradient reduction runs NCCL's kernel beside the backward:
 * one SM per channel (24 of the A100's 108) is not computing meanwhile, so
 * the compute of a step whose reduction overlaps the whole backward grows by
 * up to 24/108 of the backward; reduced after the backward, it does not. */
START_TEST(test_overlap_takes_sms)
{
	/* fast NICs and 25 MB buckets: the reductions end during the backward */
	scenario on = dp100b(25e6), off = dp100b(25e6);
	on.cluster.nic.count = off.cluster.nic.count = 8;
	on.cluster.nic.speed_Bps = off.cluster.nic.speed_Bps = 400e9 / 8;
	on.cluster.nic.transport = off.cluster.nic.transport = TRANSPORT_RDMA;
	off.training.grad_reduce.overlap = false;
	step_result a = run_ok(&on, 0), b = run_ok(&off, 0);
	double extra = a.split_s[SPLIT_COMPUTE] - b.split_s[SPLIT_COMPUTE];
	double c = b.split_s[SPLIT_COMPUTE];
	ck_assert_msg(extra > 0.05 * c && extra < 24.0 / 108 * c, "compute %g s, %g s more",
	              c, extra);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("step_dp");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_latency_of_every_bucket);
	tcase_add_test(tc, test_estimate_counts_reductions);
	tcase_add_test(tc, test_zero1_and_no_overlap);
	tcase_add_test(tc, test_zero3_reduces_layers);
	tcase_add_test(tc, test_every_micro_batch);
	tcase_add_test(tc, test_zero_group);
	tcase_add_test(tc, test_hold_many_ranks);
	tcase_add_test(tc, test_siblings_share_nics);
	tcase_add_test(tc, test_overlap_takes_sms);
	tcase_add_test(tc, test_overlap_param_gather);
	tcase_add_test(tc, test_context_parallel);
	tcase_add_test(tc, test_zero1_all_reduce);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
