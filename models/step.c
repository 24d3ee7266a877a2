/* step.c: the training step on the event engine: builds the cluster, the
 * parallel plan and the pipeline schedule, simulates one representative
 * data-parallel replica (one GPU per pipeline stage) for run.steps steps,
 * and turns the per-GPU accounting into the step_result every report prints.
 * Why one replica suffices, and what is approximate: docs/step.md. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include "step_int.h"
#include "memest.h"
#include "units.h"

static const char *const split_names[SPLIT__N] = {
	"compute", "tp_comm", "pp_comm", "pp_bubble", "dp_comm",
	"data_stall", "checkpoint", "optimizer", "idle"};

const char *step_split_name(step_split k)
{
	return (unsigned)k < SPLIT__N ? split_names[k] : "?";
}

/* PyTorch DDP's bucket_cap_mb default, 25 MiB [SRC c10d reducer.hpp
 * kDefaultBucketBytesCap], when the scenario gives none. */
#define STP_DEFAULT_BUCKET_BYTES (25.0 * 1024 * 1024)

/* ---- setup ---- */

static int setup_layout(stp_run *r, const scenario *s, char *err, size_t errlen)
{
	if (plan_init(&r->pl, s, err, errlen) < 0)
		return -1;
	r->tp = r->pl.tp;
	r->pp = r->pl.pp;
	r->cp = r->pl.cp;
	r->dpb = r->pl.dp;
	r->ep = s->model.experts > 1 && s->training.ep > 1 ? s->training.ep : 1;
	if (r->ep > 1 && (r->pl.dp * r->pl.cp * (s->training.expert_tp == 1 ? r->tp : 1)) % r->ep) {
		snprintf(err, errlen, "training.ep (%d) must divide the ranks an expert-parallel "
			 "group is drawn from", r->ep);
		return -1;
	}
	r->ep_overlap = r->ep > 1 && s->training.ep_overlap;
	/* experts split over TP too: the TP siblings' groups share the links */
	r->ep_mult = s->training.expert_tp == 1 ? 1.0 : (double)r->tp;
	/* every node of an expert-parallel group sends and receives alike: one
	 * node's flows stand for all, unless the fabric beyond the NICs is a
	 * bottleneck (oversubscribed leaves, background load, zones), where the
	 * other nodes' traffic through it matters */
	const scn_fabric *fb = &s->cluster.fabric;
	r->ep_symmetric = fb->oversubscription <= 1 && fb->background_load <= 0 && fb->zones <= 1 &&
	                  s->run.variability.link_cv <= 0;
	/* the CP ranks of a replica hold the same weights: gradients are reduced
	 * over dp x cp GPUs, samples shared out over dp replicas */
	r->dp = r->pl.dp * r->pl.cp;
	int mb = s->training.micro_batch, gbs = s->training.global_batch;
	if (mb < 1 || gbs < 1 || gbs % (mb * r->dpb) != 0) {
		snprintf(err, errlen, "training.global_batch (%d) must be a positive multiple of "
			 "micro_batch x dp = %d x %d", gbs, mb, r->dpb);
		return -1;
	}
	r->m = gbs / (mb * r->dpb);
	if (r->m > STP_MAX_MICROBATCHES) {
		snprintf(err, errlen, "%d micro-batches per step is above the limit of %d; use a "
			 "larger micro_batch", r->m, STP_MAX_MICROBATCHES);
		return -1;
	}
	/* chunks per stage as the schedule will have them (interleaved only) */
	r->v = r->pl.v;
	r->G = r->pp * r->v;
	r->async = s->training.grad_reduce.sync == SYNC_ASYNC && r->dp > 1;
	r->mb_sync = r->dp > 1 && r->m > 1 && wl_grad_every_micro_batch(s);
	r->zg = s->training.zero ? wl_zero_group(s) : r->dp;
	r->zr = r->dp / r->zg;
	int steps = s->run.steps > 0 ? s->run.steps : 1;
	/* async: warm-up steps, the measured steps (an even number: stages whose
	 * reductions share links can settle into two alternating step lengths),
	 * and one more that keeps the stages busy to the end of the window */
	r->warm = r->async ? STP_ASYNC_WARMUP : 0;
	r->K = r->async ? r->warm + steps + steps % 2 + 1 : steps;
	return 0;
}

static int setup_schedule(stp_run *r, char *err, size_t errlen)
{
	const scenario *s = r->s;
	if (sched_build(&r->sc, s->training.schedule, r->pp, r->m, r->pl.v, err, errlen) < 0)
		return -1;
	r->v = r->sc.v;
	r->G = r->pp * r->v;
	double mk;
	if (r->sc.kind == SCHED_INTERLEAVED && r->m % r->pp != 0 &&
	    sched_replay(&r->sc, 1.0, 2.0, &mk) < 0) {   /* cannot happen: all warm-up */
		snprintf(err, errlen, "the interleaved schedule deadlocks with %d micro-batches on %d "
			 "stages; use a multiple of pp micro-batches per step", r->m, r->pp);
		return -1;
	}
	return 0;
}

static int setup_costs(stp_run *r, char *err, size_t errlen)
{
	const scenario *s = r->s;
	r->lc = calloc((size_t)r->pl.layers, sizeof *r->lc);
	r->act_bytes = calloc((size_t)r->G, sizeof *r->act_bytes);
	if (!r->lc || !r->act_bytes) {
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	if (stp_templates(r, err, errlen) < 0)
		return -2;
	/* pipeline message: b*s*h activations, scattered over the TP ranks
	 * (Megatron's scatter-gather / sequence parallelism), or whole from each
	 * TP rank (pp_scatter_gather false, a what-if); fp8
	 * runs keep activations in bf16 between stages */
	double scatter = s->training.sequence_parallel || s->training.pp_scatter_gather ? r->tp : 1;
	double elem = s->training.precision == PREC_FP32 ? 4 : 2;
	for (int gc = 0; gc < r->G; gc++) {
		double b;
		if (s->model.custom) {
			/* the output of the chunk's last layer: its `output`, or
			 * the activations it keeps when none is given */
			const scn_layer *l = &s->model.custom_layers[r->pl.chunk_first[gc] +
			                                             r->pl.chunk_layers[gc] - 1];
			b = (l->out_bytes > 0 ? l->out_bytes : l->act_bytes) * s->training.micro_batch;
		} else {
			b = (double)s->training.micro_batch * s->model.seq_len * s->model.hidden * elem;
		}
		r->act_bytes[gc] = b / scatter / r->cp;   /* each CP rank sends its part */
	}
	const scn_grad_reduce *g = &s->training.grad_reduce;
	double db = hw_precision_bytes(g->dtype);
	static const double wire_elem[] = {[COMPRESS_NONE] = 0, [COMPRESS_FP16] = 2,
					   [COMPRESS_INT8] = 1, [COMPRESS_1BIT] = 0.125};
	r->wire_per_byte = g->compression == COMPRESS_NONE ? 1 : fmin(1, wire_elem[g->compression] / db);
	r->bucket_bytes = g->bucket_bytes > 0 ? g->bucket_bytes : STP_DEFAULT_BUCKET_BYTES;
	static const coll_algo algos[] = {[GRAD_ALGO_AUTO] = ALGO_AUTO, [GRAD_ALGO_RING] = ALGO_RING,
					  [GRAD_ALGO_TREE] = ALGO_TREE,
					  [GRAD_ALGO_HIERARCHICAL] = ALGO_HIERARCHICAL,
					  [GRAD_ALGO_PS] = ALGO_PS, [GRAD_ALGO_NVLS] = ALGO_NVLS,
					  [GRAD_ALGO_COLLNET] = ALGO_COLLNET};
	r->dp_algo = algos[g->algorithm];
	/* GPT ties its output layer to the embedding (Llama does not; workload.c):
	 * with pp > 1 the two copies live on the first and last stage, and
	 * Megatron all-reduces their gradients between the two before the
	 * optimizer (_allreduce_embedding_grads / finalize_model_grads) */
	r->emb_bytes = 0;
	if (step_tied_embedding(s) && !r->async)
		r->emb_bytes = (double)s->model.vocab * s->model.hidden / r->tp * db;
	return 0;
}

bool step_tied_embedding(const scenario *s)
{
	return s->training.pp > 1 && !s->model.custom && !s->model.gated_mlp &&
	       s->training.peft != PEFT_LORA;   /* LoRA: the embedding is frozen */
}

/* What a GPU of stage st trains (parameters: its gradients' count), or with
 * `held` the bytes of the weights it holds (what ZeRO-3 gathers: under LoRA
 * more than what it trains), over its layers and heads. */
static double stage_sum(const stp_run *r, int st, bool held)
{
	double p = 0;
	for (int c = 0; c < r->v; c++) {
		int gc = plan_chunk_global(&r->pl, st, c);
		for (int l = r->pl.chunk_first[gc]; l < r->pl.chunk_first[gc] + r->pl.chunk_layers[gc]; l++)
			p += held ? r->lc[l].param_bytes : r->lc[l].params;
	}
	if (st == 0)
		p += held ? r->head_first.param_bytes : r->head_first.params;
	if (st == r->pp - 1)
		p += held ? r->head_last.param_bytes : r->head_last.params;
	return p;
}

static double stage_params(const stp_run *r, int st)
{
	return stage_sum(r, st, false);
}


/* Gradient buckets one step queues, all stages (per micro-batch with
 * every_micro_batch): each is a task of the DP stream's queue (not an event:
 * the tasks coalesce into collectives), so a bucket of a few bytes means
 * billions of queued tasks, which the memory estimate counts. */
static double dp_buckets(const stp_run *r)
{
	double db = hw_precision_bytes(r->s->training.grad_reduce.dtype), n = 0;
	for (int st = 0; st < r->pp; st++) {
		double b = ceil(stage_params(r, st) * db / r->bucket_bytes);
		if (r->s->training.zero >= 3) {
			/* a bucket closes only at a layer's (or head's) end */
			double units = 2;
			for (int c = 0; c < r->v; c++)
				units += r->pl.chunk_layers[plan_chunk_global(&r->pl, st, c)];
			b = fmin(b, units);
		}
		n += b;
	}
	return n * (r->mb_sync ? r->m : 1);
}

/* A lower bound of the events one step takes, to refuse absurd inputs before
 * allocating for them: two per collective (its phase's landing and its end:
 * the flows of a phase that end at one instant share one event, flow.c), one
 * per pipeline transfer (its delivery) and the compute events. The buckets
 * of a stage may all be reduced as one collective (coalescing, step_dp.c), so
 * the bound counts one reduction per stage (per micro-batch with
 * every_micro_batch) and one parameter gather with ZeRO-1/2, not one per
 * bucket. The flows themselves are bounded by estimate_memory. */
static double estimate_events(const stp_run *r)
{
	double ev = stp_tp_collectives(r) * r->m * 2.0 + 2.0 * r->m * r->v * r->pp * 2;
	ev += 2.0 * r->m * (r->G - 1);
	if (r->dp > 1) {
		double dp_colls = r->pp * (r->mb_sync ? r->m : 1) * (r->zr > 1 ? 2 : 1);
		if (r->s->training.zero >= 1)
			dp_colls += r->pp;
		if (r->s->training.zero >= 3)
			dp_colls += 2.0 * r->m * r->pl.layers;
		ev += dp_colls * 2.0;
	}
	return ev * r->K;
}

/* Ranks of the DP group of stage 0 on the node of its first rank. */
static int dp_per_node(const stp_run *r)
{
	int gpn = r->s->cluster.gpus_per_node, node = plan_gpu(&r->pl, 0, 0, 0) / gpn, k = 0;
	for (int d = 0; d < r->dp && k < gpn; d++)
		k += plan_grad_gpu(&r->pl, 0, d) / gpn == node;
	return k;
}

/* The simulator's memory for this step, before anything is allocated: the
 * cluster's links, the flows in flight at the peak (every stage's DP
 * collective and TP collectives, pipeline transfers, data reads) with their
 * events, the loader's readers, the step's tables and the timeline. */
static double estimate_memory(const stp_run *r)
{
	const scn_cluster *c = &r->s->cluster;
	int gpn = c->gpus_per_node;
	coll_op dp_op = scn_grad_rs(r->s) ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE;
	double dp_flows = r->s->training.grad_reduce.algorithm == GRAD_ALGO_PS
	                ? memest_ps_flows(r->dp, r->s->training.grad_reduce.ps_servers)
	                : memest_coll_flows(c, dp_op, r->dp, dp_per_node(r));
	double flows = r->pp * (dp_flows +
				2 * memest_coll_flows(c, COLL_ALL_REDUCE, r->tp, r->tp < gpn ? r->tp : gpn));
	flows += 2.0 * r->G + 2.0 * r->dp;
	double mem = memest_cluster(c) + memest_flows(flows);
	mem += 320.0 * r->dp;   /* the loader's readers (their routes) */
	mem += 16.0 * r->m * r->v * r->pp + 2.0 * r->G * r->m * (r->want_timeline ? 9 : 1);
	if (r->want_timeline)
		mem += r->est_events / r->K * sizeof(step_interval);
	if (r->dp > 1)   /* a step's buckets queued at once, in doubling arrays */
		mem += 2.0 * sizeof(stp_task) * dp_buckets(r);
	return mem;
}

static int check_limits(stp_run *r, const step_opts *o, uint64_t *cap, char *err, size_t errlen)
{
	const scenario *s = r->s;
	*cap = (o && o->max_events) ? o->max_events
	       : s->run.max_events ? s->run.max_events : SIM_DEFAULT_MAX_EVENTS;
	r->est_events = estimate_events(r);
	if (r->est_events > (double)*cap) {
		snprintf(err, errlen, "simulating this step needs at least %.3g events, above the "
			 "limit of %llu events (--max-events / run.max_events); raise the limit or "
			 "simulate a smaller layout", r->est_events, (unsigned long long)*cap);
		return SIM_ELIMIT;
	}
	double lim = memest_limit(s, o ? o->max_memory_bytes : 0), need = estimate_memory(r);
	if (memest_check("simulating this step", need, lim, err, errlen) < 0) {
		double qb = r->dp > 1 ? 2.0 * sizeof(stp_task) * dp_buckets(r) : 0;
		size_t len = strlen(err);
		char bk[32];
		unit_fmt(bk, sizeof bk, r->bucket_bytes, UNIT_BYTES);
		if (qb > 0.5 * need && len < errlen)
			snprintf(err + len, errlen - len, "; most of it for the gradient buckets of %s "
				 "(training.grad_reduce.bucket; 25MB is PyTorch DDP's default)", bk);
		return SIM_ELIMIT;
	}
	return 0;
}

static int setup_engine(stp_run *r, uint64_t cap, char *err, size_t errlen)
{
	const scenario *s = r->s;
	r->sim = sim_new(s->run.seed, cap);
	r->net = r->sim ? flow_new(r->sim) : NULL;
	if (!r->net) {
		snprintf(err, errlen, "out of memory for the engine");
		return -2;
	}
	r->cl = cluster_build(&s->cluster, r->net, err, errlen);
	if (!r->cl)
		return -1;
	r->cc = coll_ctx_new(r->cl, r->sim);
	if (!r->cc) {
		snprintf(err, errlen, "out of memory for the collectives");
		return -2;
	}
	r->store = store_new(s, r->cl, r->sim, err, errlen);
	return r->store ? 0 : -1;
}

static int setup_route(stp_run *r, stp_stage *st, int to, stp_route *rt, char *err,
		       size_t errlen)
{
	int src = st->gpu, dst = r->st[to].gpu, gpn = cluster_gpus_per_node(r->cl);
	bool across = cluster_node_of(r->cl, src) != cluster_node_of(r->cl, dst);
	/* the NICs src owns, when dst is its counterpart on another node */
	int lo, k = topo_own_rails(src % gpn, gpn, cluster_nics(r->cl), &lo);
	rt->k = across && src % gpn == dst % gpn ? (k < STP_PP_NICS ? k : STP_PP_NICS) : 1;
	for (int i = 0; i < rt->k; i++) {
		rt->n[i] = cluster_route(r->cl, src, dst, rt->k > 1 ? lo + i : -1, rt->links[i],
		                         CLUSTER_MAX_ROUTE);
		if (rt->n[i] < 0) {
			snprintf(err, errlen, "no route between GPU %d and GPU %d", src, dst);
			return -1;
		}
	}
	rt->cap = cluster_flow_cap(r->cl, src, dst);
	/* the flow stands for its tp x cp siblings (each sends its share at the
	 * same time): those on the same NIC share it */
	int fan = cluster_gpus_per_nic(r->cl), sib = r->tp * r->cp;
	if (across)
		rt->cap /= sib < fan ? sib : fan;
	/* over TCP each pipeline send is a connection of NCCL's own: its
	 * channels' sockets bound it (hw_nic_socket_cap) */
	const scn_cluster *c = &r->s->cluster;
	if (across && c->nic.transport == TRANSPORT_TCP)
		rt->cap = fmin(rt->cap, hw_nic_socket_cap(&c->nic, HW_P2P_NET_CHANNELS) / rt->k);
	return 0;
}

/* Most ranks of st's DP group on one node, the ppn coll.c gives TCP's share
 * of line rate (hw_nic_efficiency). plan_gpu grows with the replica, so a
 * node's ranks are consecutive in dp_ranks: the longest run is the answer. */
static int dp_ranks_per_node(const stp_run *r, const stp_stage *st)
{
	int most = 0, run = 0;
	for (int d = 0; d < r->dp; d++) {
		bool same = d > 0 && cluster_node_of(r->cl, st->dp_ranks[d]) ==
				     cluster_node_of(r->cl, st->dp_ranks[d - 1]);
		run = same ? run + 1 : 1;
		most = run > most ? run : most;
	}
	return most;
}

/* The SMs a DP collective of st holds while it runs, over the GPU's SMs:
 * one per NCCL channel. Inside a node, NCCL's channels there
 * (coll_node_ctas); across nodes about two per NIC its rings use ("two
 * channels per NIC makes the NIC utilization closer to peak", sjeaugey,
 * NVIDIA/nccl #438; cost-models 1.5), the group's ranks on a node reaching
 * min(ranks, NICs) of them. */
static double dp_sm_share(const stp_run *r, const stp_stage *st)
{
	int sms = wl_gpu_sms(&r->s->cluster.gpu);
	if (r->dp <= 1 || sms <= 0)
		return 0;
	int ppn = dp_ranks_per_node(r, st), nics = cluster_nics(r->cl);
	if (ppn > r->zg)
		ppn = r->zg;   /* zero_group: the collectives on this stream run in the group */
	int ctas = ppn >= r->zg
	    ? coll_node_ctas(&r->s->cluster, ppn,
	                     scn_grad_rs(r->s) ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE)
	    : 2 * (ppn < nics ? ppn : nics);
	return (double)ctas / sms;
}

/* A DP task's collective alone on the idle cluster (0 when it cannot say). */
static double isolated(const stp_run *r, const stp_stage *st, int kind, double bytes)
{
	coll_req q;
	char e[256];
	stp_dp_req(r, st, kind, bytes, &q);
	double t = coll_time_isolated(&r->s->cluster, &q, e, sizeof e);
	return t > 0 ? t : 0;
}

/* The same in n equal collectives back to back (buckets on one stream). */
static double isolated_n(const stp_run *r, const stp_stage *st, int kind, double bytes, double n)
{
	if (n <= 1)
		return isolated(r, st, kind, bytes);
	coll_req q;
	char e[256];
	stp_dp_req(r, st, kind, bytes / n, &q);
	double t = coll_time_isolated_batch(&r->s->cluster, &q, n, e, sizeof e);
	return t > 0 ? t : 0;
}

/* Adds a DP task's bytes alone to *bucketed (in nb equal collectives back to
 * back) and to *once (as one collective: moving the bytes, latency once). */
static void add_alone(const stp_run *r, const stp_stage *st, int kind, double bytes, double nb,
                      double *bucketed, double *once)
{
	double t = isolated_n(r, st, kind, bytes, nb);
	*bucketed += t;
	*once += nb > 1 ? isolated(r, st, kind, bytes) : t;
}

/* zero_group (HSDP): the ZeRO group of the simulated rank is dp_ranks[0..zg-1]
 * and its shard's replicas are dp_ranks[k zg], k < zr. The replica all-reduces
 * of the group's other shards run beside it; those whose ranks share its nodes
 * (the group's members on the first one's node) load the same NICs: siblings,
 * as the TP ranks' are (coll_req.mult). */
static int setup_replicas(stp_run *r, stp_stage *st)
{
	st->rep_ranks = malloc(sizeof(int) * (size_t)r->zr);
	if (!st->rep_ranks)
		return -1;
	for (int k = 0; k < r->zr; k++)
		st->rep_ranks[k] = st->dp_ranks[k * r->zg];
	int node = cluster_node_of(r->cl, st->dp_ranks[0]), on = 0;
	for (int j = 0; j < r->zg; j++)
		on += cluster_node_of(r->cl, st->dp_ranks[j]) == node;
	st->rep_mult = (double)r->tp * on;
	return 0;
}

/* Members of st's expert-parallel group on `node`. */
static int ep_members_on(const stp_run *r, const stp_stage *st, int node)
{
	int k = 0;
	for (int e = 0; e < r->ep; e++)
		k += cluster_node_of(r->cl, st->ep_ranks[e]) == node;
	return k;
}

/* Whether every node of st's expert-parallel group holds as many of its
 * GPUs (the condition for one node's all-to-all flows to stand for all). */
static bool ep_group_even(const stp_run *r, const stp_stage *st)
{
	int count = ep_members_on(r, st, cluster_node_of(r->cl, st->ep_ranks[0]));
	for (int e = 1; e < r->ep; e++)
		if (ep_members_on(r, st, cluster_node_of(r->cl, st->ep_ranks[e])) != count)
			return false;
	return true;
}

static int setup_stages(stp_run *r, char *err, size_t errlen)
{
	r->st = calloc((size_t)r->pp, sizeof *r->st);
	r->seg_cap = stp_seg_capacity(r);
	size_t narr = 2 * (size_t)r->G * (size_t)r->m;
	r->arr = calloc(narr, 1);
	r->E = calloc((size_t)r->K, sizeof *r->E);
	if (r->want_timeline)
		r->arr_t0 = calloc(narr, sizeof *r->arr_t0);
	if (!r->st || !r->arr || !r->E || (r->want_timeline && !r->arr_t0))
		goto oom;
	for (int i = 0; i < r->pp; i++) {
		stp_stage *st = &r->st[i];
		st->idx = i;
		st->gpu = plan_gpu(&r->pl, 0, i, 0);
		st->ops = sched_stage_ops(&r->sc, i);
		st->tp_ranks = malloc(sizeof(int) * (size_t)r->tp);
		st->dp_ranks = malloc(sizeof(int) * (size_t)r->dp);
		st->cp_ranks = malloc(sizeof(int) * (size_t)r->cp);
		st->ep_ranks = malloc(sizeof(int) * (size_t)r->ep);
		st->segs = malloc(sizeof(stp_seg) * (size_t)r->seg_cap);
		st->b_done = calloc((size_t)r->v, sizeof(int));
		if (!st->tp_ranks || !st->dp_ranks || !st->cp_ranks || !st->ep_ranks || !st->segs ||
		    !st->b_done)
			goto oom;
		for (int t = 0; t < r->tp; t++)
			st->tp_ranks[t] = plan_gpu(&r->pl, t, i, 0);
		for (int d = 0; d < r->dp; d++)
			st->dp_ranks[d] = plan_grad_gpu(&r->pl, i, d);
		if (r->zr > 1 && setup_replicas(r, st) < 0)
			goto oom;
		for (int c = 0; c < r->cp; c++)
			st->cp_ranks[c] = plan_gpu_cp(&r->pl, 0, c, i, 0);
		for (int e = 0; e < r->ep; e++)
			st->ep_ranks[e] = plan_ep_gpu(&r->pl, i, e, r->s->training.expert_tp == 1);
		st->dp_sm_share = dp_sm_share(r, st);
		if (r->ep > 1 && !ep_group_even(r, st))
			r->ep_symmetric = false;   /* nodes of the group differ: simulate them all */
		st->params = stage_params(r, i);
		st->opt_s = wl_optimizer_time(r->s, i);
		st->upd_done = -1;
		st->wait_idx = -1;
		st->cat = SPLIT_IDLE;
	}
	for (int i = 0; r->pp > 1 && i < r->pp; i++) {
		stp_stage *st = &r->st[i];
		if (setup_route(r, st, (i + 1) % r->pp, &st->route_f, err, errlen) < 0 ||
		    setup_route(r, st, (i + r->pp - 1) % r->pp, &st->route_b, err, errlen) < 0)
			return -1;
	}
	if (stp_var_init(r) == 0)
		return 0;
oom:
	snprintf(err, errlen, "out of memory for %d pipeline stages", r->pp);
	return -2;
}

static void teardown(stp_run *r)
{
	for (int i = 0; r->st && i < r->pp; i++) {
		stp_stage *st = &r->st[i];
		free(st->tp_ranks);
		free(st->dp_ranks);
		free(st->rep_ranks);
		free(st->cp_ranks);
		free(st->ep_ranks);
		free(st->segs);
		free(st->b_done);
		stp_fifo_free(&st->dq);
		stp_fifo_free(&st->side);
		stp_fifo_free(&st->held);
		stp_fifo_free(&st->xq);
	}
	free(r->st);
	free(r->arr);
	free(r->arr_t0);
	free(r->E);
	free(r->lc);
	free(r->act_bytes);
	free(r->tpl);
	free(r->tl);
	if (r->store)
		store_free(r->store);
	if (r->cc)
		coll_ctx_free(r->cc);
	if (r->cl)
		cluster_free(r->cl);
	if (r->net)
		flow_free(r->net);
	if (r->sim)
		sim_free(r->sim);
	sched_release(&r->sc);
	plan_release(&r->pl);
}

/* ---- running and collecting ---- */

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);   /* measures the run; never feeds the model */
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What the simulation measured before any stall is added: the simulated
 * step times (sorted) and the time a GPU ran kernels per step. The derived
 * metrics are computed from it once, after the data and checkpoint stalls
 * (finalize). */
typedef struct stp_raw {
	double *t;               /* sorted simulated step times, n of them */
	int n;
	double mean_s;           /* their mean */
	double busy_s;           /* per simulated GPU per step: some kernel running */
} stp_raw;

/* A stage waiting for its neighbours is in the bubble while the pipeline
 * fills and drains; when one stage has more work than the others (the last
 * one's logits, the first one's embedding, layers that do not divide evenly)
 * the others also wait, every micro-batch, for it: that is imbalance, which
 * more micro-batches do not shrink and rebalancing does. A stage with W of
 * work (compute and its exposed TP collectives) against the busiest stage's
 * W_max waits W_max - W for it in the step; that much of its wait for
 * neighbours (at most all of it) is counted as idle, the rest stays bubble.
 * Returns the seconds moved, summed over stages and measured steps. */
static double stage_imbalance(const stp_run *r, double *per_stage)
{
	if (r->pp < 2)
		return 0;
	double wmax = 0, moved = 0;
	for (int i = 0; i < r->pp; i++) {
		const stp_stage *st = &r->st[i];
		double w = st->acc1[SPLIT_COMPUTE] - st->acc0[SPLIT_COMPUTE] +
		           st->acc1[SPLIT_TP_COMM] - st->acc0[SPLIT_TP_COMM];
		wmax = fmax(wmax, w);
	}
	for (int i = 0; i < r->pp; i++) {
		const stp_stage *st = &r->st[i];
		double w = st->acc1[SPLIT_COMPUTE] - st->acc0[SPLIT_COMPUTE] +
		           st->acc1[SPLIT_TP_COMM] - st->acc0[SPLIT_TP_COMM];
		double b = st->acc1[SPLIT_PP_BUBBLE] - st->acc0[SPLIT_PP_BUBBLE];
		double m = fmin(fmax(b, 0), wmax - w);
		if (per_stage)
			per_stage[i] = m;
		moved += m;
	}
	return moved;
}

/* A wait of a stage, by how far it lies from the step's edges [0, end]: the
 * pipeline fills at the start and drains at the end, so the waits farthest
 * from both are the steady state's, where equal stages would not wait. */
typedef struct edge_wait {
	double dist, t0;
	size_t i;
} edge_wait;

static int edge_wait_cmp(const void *a, const void *b)
{
	const edge_wait *x = a, *y = b;
	if (x->dist != y->dist)
		return x->dist > y->dist ? -1 : 1;
	return (x->t0 > y->t0) - (x->t0 < y->t0);
}

/* The timeline draws what the split counts (stage_imbalance): of each
 * stage's waits for its neighbours, moved[g] seconds (its share of one
 * step) are idle, taken from the waits farthest from the step's edges first
 * (the steady state's, which imbalance makes; the fill and drain at the
 * edges are the bubble), the last one split in two. Returns the intervals'
 * new count (k + at most pp more, which tl has room for), or k. */
static size_t timeline_imbalance(step_interval *tl, size_t k, int pp, const double *moved,
                                 double end)
{
	edge_wait *w = malloc((k + 1) * sizeof *w);
	if (!w)
		return k;
	size_t n0 = k;
	for (int g = 0; g < pp; g++) {
		if (!(moved[g] > 0))
			continue;
		size_t nw = 0;
		for (size_t i = 0; i < n0; i++)
			if (tl[i].gpu == g && tl[i].stream == 0 && tl[i].cat == SPLIT_PP_BUBBLE)
				w[nw++] = (edge_wait){fmin(tl[i].t0, end - tl[i].t1), tl[i].t0, i};
		qsort(w, nw, sizeof *w, edge_wait_cmp);
		double left = moved[g];
		for (size_t j = 0; j < nw && left > 1e-12; j++) {
			step_interval *iv = &tl[w[j].i];
			double len = iv->t1 - iv->t0;
			if (len <= left) {
				iv->cat = SPLIT_IDLE;
				left -= len;
				continue;
			}
			step_interval idle = *iv;   /* its end is the wait for the heavier stage */
			idle.cat = SPLIT_IDLE;
			idle.t0 = iv->t1 - left;
			iv->t1 = idle.t0;
			tl[k++] = idle;
			left = 0;
		}
	}
	free(w);
	return k;
}

static int collect_steps(stp_run *r, step_result *res, stp_raw *raw)
{
	/* async: the window runs from the end of the last warm-up step's ops to
	 * the end of the last measured step's ops (step.md) */
	int w = r->warm, n = r->async ? r->K - w - 1 : r->K;
	double *t = malloc(sizeof(double) * (size_t)n);
	if (!t)
		return -2;
	for (int i = 0; i < n; i++)
		t[i] = r->async ? r->E[w + i] - r->E[w + i - 1] : r->E[i] - (i ? r->E[i - 1] : 0);
	double lo = r->async ? r->E[w - 1] : 0, hi = r->E[r->async ? r->K - 2 : r->K - 1];
	res->steps = n;
	res->stragglers_drawn = (r->rep_slow ? 1 : 0) + r->n_slow;
	res->staleness = r->async ? r->stale_max : 0;
	res->step_time_s = (hi - lo) / n;
	gsl_sort(t, 1, (size_t)n);
	double *moved_st = r->want_timeline ? calloc((size_t)r->pp, sizeof *moved_st) : NULL;
	double sum = 0, busy = 0, moved = stage_imbalance(r, moved_st);
	for (int k = 0; k < SPLIT__N; k++) {
		double a = 0;
		for (int i = 0; i < r->pp; i++)
			a += r->st[i].acc1[k] - r->st[i].acc0[k];
		if (k == SPLIT_PP_BUBBLE)
			a -= moved;
		else if (k == SPLIT_IDLE)
			a += moved;
		res->split_s[k] = a / r->pp / n;
		sum += res->split_s[k];
	}
	for (int i = 0; i < r->pp; i++)
		busy += r->st[i].busy1 - r->st[i].busy0;
	assert(fabs(sum - res->step_time_s) <= 1e-9 * fmax(res->step_time_s, 1e-300));
	/* rounding only; into the largest part (at least step/SPLIT__N), not into
	 * idle, which is often 0 and would go negative (-2.2e-16) */
	int big = 0;
	for (int k = 1; k < SPLIT__N; k++)
		if (res->split_s[k] > res->split_s[big])
			big = k;
	res->split_s[big] += res->step_time_s - sum;
	if (raw) {
		raw->t = t;
		raw->n = n;
		raw->mean_s = res->step_time_s;
		raw->busy_s = busy / r->pp / n;
	} else {
		free(t);
	}
	/* data: the loader's steady-state stall, on every GPU (the whole pipeline
	 * waits for the first stage's batch); no kernel runs during it */
	double stall = r->store ? store_data_steady_stall(r->store, res->step_time_s) : 0;
	res->split_s[SPLIT_DATA_STALL] += stall;
	res->step_time_s += stall;
	if (r->want_timeline) {
		/* the last step's start: one step records from the beginning, 0
		 * (its t_rec, -1, only lets every interval through) */
		double from = r->async ? r->E[r->K - 3] : fmax(r->t_rec, 0);
		size_t k = 0;
		/* the step from 0: first the wait for its batch (the data track of
		 * every simulated GPU), then what the engine ran, after it */
		for (size_t i = 0; i < r->ntl; i++) {
			step_interval iv = r->tl[i];
			if (iv.t1 <= from || iv.t0 >= hi)
				continue;
			iv.t0 = fmax(iv.t0, from) - from + stall;   /* clipped to the last step */
			iv.t1 = fmin(iv.t1, hi) - from + stall;
			r->tl[k++] = iv;
		}
		/* room for the waits split in two, and the data track */
		step_interval *grown = realloc(r->tl, (k + 2 * (size_t)r->pp + 1) * sizeof *grown);
		if (grown) {
			r->tl = grown;
			if (moved_st) {
				for (int g = 0; g < r->pp; g++)
					moved_st[g] /= n;
				k = timeline_imbalance(r->tl, k, r->pp, moved_st, hi - from + stall);
			}
			if (stall > 0)
				for (int g = 0; g < r->pp; g++)
					r->tl[k++] = (step_interval){.gpu = g, .stream = 4,
						.cat = SPLIT_DATA_STALL, .t0 = 0, .t1 = stall, .mb = -1,
						.label = "data stall"};
		}
		res->timeline = r->tl;
		res->n_timeline = k;
		free(moved_st);
		res->timeline_gpus = r->pp;
		r->tl = NULL;
	}
	return 0;
}

/* Whether a pipeline transfer of the simulated replica leaves its node:
 * chunk c-1 sends to chunk c, so stage i to stage i+1, and the last stage to
 * the first when stages hold several chunks (interleaved). The stages' GPUs
 * are those setup_route routes between, so the sentence follows the model. */
static bool pp_crosses_nodes(const stp_run *r)
{
	for (int i = 0; i < r->pp; i++) {
		int j = (i + 1) % r->pp;
		if (j == 0 && r->v <= 1)
			continue;
		if (cluster_node_of(r->cl, r->st[i].gpu) != cluster_node_of(r->cl, r->st[j].gpu))
			return true;
	}
	return false;
}

static bool ep_crosses_nodes(const stp_run *r)
{
	for (int i = 0; i < r->pp; i++)
		for (int e = 1; e < r->ep; e++)
			if (cluster_node_of(r->cl, r->st[i].ep_ranks[e]) !=
			    cluster_node_of(r->cl, r->st[i].ep_ranks[0]))
				return true;
	return false;
}

/* The stage whose GPUs hold the most gradient bytes sets the DP figures. */
static void collect_dp(stp_run *r, step_result *res)
{
	const scenario *s = r->s;
	res->micro_batches = r->m;
	res->pp_crosses_nodes = pp_crosses_nodes(r);   /* the report names NICs or links by it */
	res->ep_crosses_nodes = ep_crosses_nodes(r);
	res->bubble_ideal = (double)(r->pp - 1) / ((double)r->v * r->m + r->pp - 1);
	res->dp_collectives_per_step = r->dp_collectives / r->pp / r->K;
	res->compression_cost_s = r->compress_s / r->pp / r->K;
	if (r->dp <= 1)
		return;
	int big = 0;
	for (int i = 1; i < r->pp; i++)
		if (r->st[i].params > r->st[big].params)
			big = i;
	stp_stage *st = &r->st[big];
	double S = st->params * hw_precision_bytes(s->training.grad_reduce.dtype) * r->wire_per_byte;
	double P = st->params * hw_gather_bytes(s->training.precision);
	int z = s->training.zero;
	double held = stage_sum(r, big, true);   /* ZeRO-3 gathers all it holds */
	bool rs = scn_grad_rs(s);   /* else all-reduced whole, with zero 1 too */
	res->dp_syncs_per_step = r->mb_sync ? r->m : 1;
	res->dp_bytes_per_gpu = S;
	/* zg = dp unless zero_group (HSDP): then each group reduce-scatters, its
	 * shard is all-reduced across the zr groups, and gathers stay inside */
	if (r->zr > 1) {
		res->dp_zero_group = r->zg;
		res->dp_zero_replicas = r->zr;
	}
	res->dp_wire_bytes_per_gpu =
		res->dp_syncs_per_step *
			(coll_busbw_factor(rs ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE, r->zg) * S +
			 coll_busbw_factor(COLL_ALL_REDUCE, r->zr) * S / r->zg) +
		(z == 1 || z == 2 ? coll_busbw_factor(COLL_ALL_GATHER, r->zg) * P : 0) +
		(z >= 3 ? 2.0 * r->m * coll_busbw_factor(COLL_ALL_GATHER, r->zg) * held : 0);
	/* naive: the gradients once over the NIC bandwidth this DP group has in a
	 * node as the reduction alone has it (the seeds' 100B example: one NIC per
	 * node, 200 GB / 1.25 GB/s = 160 s): with a NIC or more a GPU, its k GPUs
	 * there have their own, k/gpus_per_node of the node's; with fewer, the
	 * NICs its GPUs reach, shared with the TP siblings that reduce beside it
	 * (as many as a NIC serves) */
	int k = 0, gpn = s->cluster.gpus_per_node, node0 = cluster_node_of(r->cl, st->dp_ranks[0]);
	int count = s->cluster.nic.count, touched = 0;
	bool seen[1024] = {false};
	for (int d = 0; d < r->dp; d++) {
		if (cluster_node_of(r->cl, st->dp_ranks[d]) != node0)
			continue;
		k++;
		if (count < gpn && gpn > 0) {
			int nic = cluster_rail_of(r->cl, st->dp_ranks[d]);
			if (nic >= 0 && nic < 1024 && !seen[nic]) {
				seen[nic] = true;
				touched++;
			}
		}
	}
	bool inter = k < r->dp;
	res->dp_crosses_nodes = inter;   /* the report names NICs or intra-node links by it */
	res->dp_ranks_per_node = dp_ranks_per_node(r, st);
	/* inside a node: the given intra-node bandwidth, else PCIe's when the node
	 * has no NVLink (as the topology builds it), else the GPU's NVLink */
	const scn_cluster *c = &s->cluster;
	double share = fmin(r->tp, count > 0 ? (double)gpn / count : 1);
	double nic_bw = count >= gpn ? c->nic.speed_Bps * count * k / gpn
	                             : c->nic.speed_Bps * touched / (share > 1 ? share : 1);
	/* a group across availability zones: its bytes cross the zone link, which
	 * its TP siblings' groups share beside it */
	int zmin = cluster_zone_of(r->cl, node0), zmax = zmin;
	for (int d = 1; d < r->dp; d++) {
		int zd = cluster_zone_of(r->cl, cluster_node_of(r->cl, st->dp_ranks[d]));
		zmin = zd < zmin ? zd : zmin;
		zmax = zd > zmax ? zd : zmax;
	}
	double zone_share = s->cluster.fabric.zone_bandwidth_Bps / (r->tp > 1 ? r->tp : 1);
	if (zmax > zmin && zone_share > 0 && zone_share < nic_bw) {
		nic_bw = zone_share;
		res->dp_naive_zone_Bps = zone_share;
	}
	double bw = inter ? nic_bw
		    : c->intra.bandwidth_Bps > 0 ? c->intra.bandwidth_Bps
		    : c->intra.kind == INTRA_PCIE ? hw_pcie_Bps(c->gpu.pcie_gen > 0 ? c->gpu.pcie_gen : 4)
		    : c->gpu.nvlink_Bps;
	if (!inter && hw_intra_shm(&c->intra, &c->gpu))
		bw = hw_shm_Bps(&c->intra, &c->gpu, bw);   /* NCCL's SHM, through host memory */
	bool bridged = !inter && cluster_bridge_Bps(r->cl) > 0 && r->dp > 1;
	for (int d = 1; bridged && d < r->dp; d++)
		bridged = cluster_same_bridge(r->cl, st->dp_ranks[0], st->dp_ranks[d]);
	if (bridged)   /* one NVLink bridge group: its links to the group's peers, raw */
		bw = c->gpu.bridge_Bps * (r->dp - 1) / (c->intra.bridge - 1);
	res->dp_naive_s = bw > 0 ? S / bw : 0;
	/* the collectives the step runs: a bucket at a time (ZeRO-3: whole
	 * layers), each resolved to its algorithm by its own size */
	double bucket = fmin(s->training.grad_reduce.bucket_bytes * r->wire_per_byte, S);
	if (z >= 3 && r->pl.layers > 0)
		bucket = fmax(bucket, S * r->pp / r->pl.layers);
	double nb = bucket > 0 ? ceil(S / bucket - 1e-9) : 1;
	coll_req req;
	stp_dp_req(r, st, DPT_BUCKET, S / nb, &req);
	coll_algo a = coll_pick(r->cc, &req);
	snprintf(res->dp_algorithm, sizeof res->dp_algorithm, "%s", coll_algo_name(a));
	res->dp_ring_n = r->zg;
	if (a == ALGO_HIERARCHICAL)
		res->dp_ring_n = cluster_node_of(r->cl, st->dp_ranks[r->zg - 1]) -
				 cluster_node_of(r->cl, st->dp_ranks[0]) + 1;
	/* the ring factors of one full reduction: the gradients reduced (all-
	 * reduce 2(n-1)/n, reduce-scatter (n-1)/n), then with ZeRO the parameters
	 * gathered back ((n-1)/n of P, never compressed) */
	double nn = res->dp_ring_n > 1 ? res->dp_ring_n : 2;
	/* ZeRO-3 gathers each layer's parameters for every micro-batch's forward
	 * and again for its backward: 2 m gathers a step, per reduction twice
	 * (reduced every micro-batch) or 2 m (once a step, no_sync) */
	int gathers = z >= 3 ? 2 * r->m / res->dp_syncs_per_step : z ? 1 : 0;
	res->dp_gather_bytes_per_gpu = gathers * (z >= 3 ? held : P);
	/* the gather runs over the ZeRO group (a ring), whatever algorithm the
	 * reduction takes (a hierarchical all-reduce's n is its nodes) */
	double ng = r->zg > 1 ? r->zg : 2;
	/* CollNet: the switches reduce, each NIC carries the gradients once */
	bool in_net = a == ALGO_COLLNET && !rs;
	if (in_net)
		res->dp_wire_bytes_per_gpu -= res->dp_syncs_per_step *
		                              (coll_busbw_factor(COLL_ALL_REDUCE, r->zg) - 1) * S;
	res->dp_ideal_factor = S > 0 ? (in_net ? 1 : (rs ? 1 : 2) * (nn - 1) / nn) +
	                               (ng - 1) / ng * res->dp_gather_bytes_per_gpu / S : 0;
	/* one full reduction alone: the reduction, with ZeRO the gather of the
	 * parameters, with zero_group the replicas' all-reduce of the shard */
	double t = 0, m = 0;
	add_alone(r, st, DPT_BUCKET, S, nb, &t, &m);
	for (int gth = 0; gth < gathers; gth++)
		add_alone(r, st, DPT_PARAMAG, P, nb, &t, &m);
	if (r->zr > 1)
		add_alone(r, st, DPT_XREP, S / r->zg, nb, &t, &m);
	res->dp_allreduce_s = t;
	res->dp_move_s = m;
	/* every bucket is its own collective and pays NCCL's latency once: a
	 * latency-bound reduction wants larger buckets, not faster links. ZeRO-3
	 * reduces and gathers a layer at a time: its collectives are layer-sized. */
	req.op = rs ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE;
	req.bytes = bucket;
	double lat = coll_latency(r->cc, &req, a);
	double x = r->dp_xcollectives / r->pp / r->K;   /* across the ZeRO groups */
	double ag = r->dp_gathers / r->pp / r->K;       /* the parameter gathers */
	res->dp_latency_s = lat > 0 ? lat * (res->dp_collectives_per_step - x - ag) : 0;
	if (ag > 0) {   /* an all-gather's latency, not the reduction's */
		coll_req q;
		stp_dp_req(r, st, DPT_PARAMAG, stp_param_chunk(r), &q);
		double lg = coll_latency(r->cc, &q, coll_pick(r->cc, &q));
		res->dp_latency_s += lg > 0 ? lg * ag : 0;
	}
	if (x > 0) {
		coll_req q;
		stp_dp_req(r, st, DPT_XREP, req.bytes / r->zg, &q);
		double lx = coll_latency(r->cc, &q, coll_pick(r->cc, &q));
		res->dp_latency_s += lx > 0 ? lx * x : 0;
	}
}

static bool finished(const stp_run *r)
{
	if (r->done_count != r->pp)
		return false;
	return r->async || r->cur_step == r->K - 1;
}

/* One simulation of the scenario into res (split and step time, data stall
 * included). raw, when not NULL, receives what finalize needs (the caller
 * frees raw->t). */
static int simulate(const scenario *s, const step_opts *o, bool nested, step_result *res,
		    stp_raw *raw, char *err, size_t errlen)
{
	stp_run *r = calloc(1, sizeof *r);
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -2;
	}
	r->s = s;
	r->want_timeline = !nested && o && o->want_timeline;
	int rc = setup_layout(r, s, err, errlen);
	if (!rc)
		rc = setup_costs(r, err, errlen);
	uint64_t cap = 0;
	if (!rc)
		rc = check_limits(r, o, &cap, err, errlen);
	if (!rc)
		rc = setup_schedule(r, err, errlen);
	if (!rc)
		rc = setup_engine(r, cap, err, errlen);
	if (!rc)
		rc = setup_stages(r, err, errlen);
	if (rc)
		goto out;
	r->t_rec = (r->async || r->K == 1) ? -1 : INFINITY;
	for (int i = 0; i < r->pp; i++) {
		stp_start_step(r, &r->st[i], 0);
		stp_async_prime(r, &r->st[i]);
		stp_pg_prime(r, &r->st[i]);
	}
	for (int i = 0; i < r->pp && !r->failed; i++)
		stp_advance(r, &r->st[i]);
	rc = r->failed ? -1 : sim_run(r->sim);
	if (r->failed) {
		snprintf(err, errlen, "%s", r->err);
		rc = -1;
	} else if (rc == SIM_ELIMIT) {
		char which[96] = "the step";
		if (r->K > 1)   /* run.steps: say which step, so that fewer steps is the fix */
			snprintf(which, sizeof which, "step %d of the %d of run.steps", r->cur_step + 1,
			         r->K);
		snprintf(err, errlen, "the simulation stopped at the limit of %llu events "
			 "(--max-events / run.max_events) before %s ended; raise the limit%s",
			 (unsigned long long)sim_max_events(r->sim), which,
			 r->K > 1 ? " or simulate fewer steps" : "");
	} else if (!finished(r)) {
		snprintf(err, errlen, "the step did not finish: a pipeline stage waited for an input "
			 "that never came (schedule deadlock)");
		rc = -1;
	} else {
		rc = collect_steps(r, res, raw);
		if (!rc)
			collect_dp(r, res);
		res->events = sim_events(r->sim);
	}
out:
	teardown(r);
	free(r);
	return rc;
}

/* Every metric derived from the step time, computed once from the final step
 * time (data stall and checkpoint share in): every simulated step pays the
 * same steady data stall and amortized checkpoint, so the percentiles are the
 * simulated ones shifted by them, and the GPU runs kernels only in the
 * simulated part. */
static void finalize(const scenario *s, step_result *res, const stp_raw *raw)
{
	res->gpus = scn_gpus(s);
	res->nodes = s->cluster.nodes;
	double step = res->step_time_s;
	double tokens = scn_tokens_per_step(s);
	double fm = wl_step_model_flops(s), fh = wl_step_hw_flops(s), peak = wl_peak_flops(s);
	if (step <= 0 || raw->n < 1)
		return;
	double extra = step - raw->mean_s;   /* data stall + checkpoint share */
	size_t n = (size_t)raw->n;
	res->step_p50_s = gsl_stats_quantile_from_sorted_data(raw->t, 1, n, 0.50) + extra;
	res->step_p95_s = gsl_stats_quantile_from_sorted_data(raw->t, 1, n, 0.95) + extra;
	res->step_p99_s = gsl_stats_quantile_from_sorted_data(raw->t, 1, n, 0.99) + extra;
	res->gpu_util = fmin(1.0, raw->busy_s / step);
	res->tokens_per_s = tokens / step;
	res->model_tflops_per_gpu = fm / (step * res->gpus) / 1e12;
	res->hardware_tflops_per_gpu = fh / (step * res->gpus) / 1e12;
	res->mfu = peak > 0 ? fm / (step * res->gpus * peak) : 0;
	res->hfu = peak > 0 ? fh / (step * res->gpus * peak) : 0;
}

int step_run(const scenario *s0, const step_opts *o, step_result *r, char *err, size_t errlen)
{
	double t0 = wall_now();
	memset(r, 0, sizeof *r);
	scenario sc = *s0, *s = &sc;   /* shallow copy: custom layers stay the caller's */
	if (wl_model_resolve(&sc.model) < 0) {
		snprintf(err, errlen, "model: give its shape (layers, hidden) or its params");
		return -1;
	}
	stp_raw raw = {0};
	int rc = simulate(s, o, false, r, &raw, err, errlen);
	if (rc < 0)
		return rc;
	step_result alt;
	const scn_grad_reduce *g = &s->training.grad_reduce;
	if (g->compression != COMPRESS_NONE && r->dp_syncs_per_step > 0) {
		scenario c = *s;
		c.training.grad_reduce.compression = COMPRESS_NONE;
		memset(&alt, 0, sizeof alt);
		if (simulate(&c, o, true, &alt, NULL, err, errlen) == 0)
			r->compression_saving_s = alt.step_time_s - r->step_time_s;
	}
	if (g->sync == SYNC_ASYNC && r->dp_syncs_per_step > 0) {
		scenario c = *s;
		c.training.grad_reduce.sync = SYNC_SYNC;
		memset(&alt, 0, sizeof alt);
		if (simulate(&c, o, true, &alt, NULL, err, errlen) == 0 && r->step_time_s > 0)
			r->async_speedup = alt.step_time_s / r->step_time_s;
	}
	if (errlen)
		err[0] = '\0';
	wl_memory_get(s, &r->memory);
	stp_report(s, r);
	rc = store_account(s, r, err, errlen);   /* checkpoints, failures, goodput */
	if (rc == 0) {
		finalize(s, r, &raw);
		stp_report_final(s, r);
	} else {
		step_result_release(r);
	}
	free(raw.t);
	if (rc < 0)
		return -1;
	r->sim_wall_s = wall_now() - t0;
	return 0;
}

void step_result_release(step_result *r)
{
	free(r->timeline);
	r->timeline = NULL;
	r->n_timeline = 0;
}
