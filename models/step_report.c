/* step_report.c: the plain sentences of a step result: the bottleneck (the
 * largest non-compute share of the step and what would shrink it) and notes
 * (memory that does not fit, compression, async DP, jitter). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "step_int.h"

void stp_note(step_result *res, const char *fmt, ...)
{
	if (res->n_notes >= (int)(sizeof res->notes / sizeof res->notes[0]))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res->notes[res->n_notes++], sizeof res->notes[0], fmt, ap);
	va_end(ap);
}

/* Seconds and bytes with three significant digits in a unit that suits them. */
static const char *fmt_s(char *b, size_t n, double s)
{
	if (s >= 1 || s == 0)
		snprintf(b, n, "%.3g s", s);
	else if (s >= 1e-3)
		snprintf(b, n, "%.3g ms", s * 1e3);
	else
		snprintf(b, n, "%.3g us", s * 1e6);
	return b;
}

static const char *fmt_b(char *b, size_t n, double x)
{
	static const char *const u[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	int i = 0;
	while (x >= 1000 && i < 5)
		x /= 1000, i++;
	snprintf(b, n, "%.3g %s", x, u[i]);
	return b;
}

static void nic_name(char *b, size_t n, const scn_cluster *c)
{
	double gbps = c->nic.speed_Bps * 8 / 1e9;
	if (c->nic.transport == TRANSPORT_TCP)
		snprintf(b, n, "%g GbE", gbps);
	else
		snprintf(b, n, "%g Gb/s %s", gbps, hw_transport_name(c->nic.transport));
}

/* What fewer reductions per token would take: more micro-batches per step,
 * unless each micro-batch is reduced (every_micro_batch), where it is to
 * reduce once per step; and " (the reduction N times per step)" for the
 * latter. */
static const char *dp_lever(const scenario *s, const step_result *r, char *times, size_t n)
{
	*times = 0;
	/* ZeRO-3 gathers every micro-batch's parameters: more micro-batches
	 * per step add gathers, they do not spread a reduction */
	if (s->training.zero >= 3 && r->dp_syncs_per_step <= 1)
		return "fewer, larger micro-batches (every micro-batch gathers the parameters again)";
	if (r->dp_syncs_per_step <= 1)
		return "gradient accumulation (more micro-batches per step)";
	snprintf(times, n, " (the reduction %d times per step)", r->dp_syncs_per_step);
	return "one reduction per step instead of one per micro-batch "
	       "(grad_reduce.every_micro_batch: false, which holds whole gradients)";
}

/* What would shrink an exposed DP reduction, `subject` the links' lever ("a
 * faster NIC"): with compression under ZeRO the parameters' all-gather,
 * which no compression touches, can be most of the bytes. */
static void dp_shrink(char *buf, size_t n, const scenario *s, const step_result *r,
                      const char *subject, const char *lever)
{
	char pb[32];
	/* all-reduced gradients cross the wire twice ((n-1)/n each way) */
	double g = r->dp_gather_bytes_per_gpu;
	double share = g / (g + (scn_grad_rs(s) ? 1 : 2) * r->dp_bytes_per_gpu);
	if (g > 0 && s->training.grad_reduce.compression != COMPRESS_NONE && share > 0.5)
		snprintf(buf, n, "the parameters' all-gather (%s, not compressed) is %.0f%% of "
			 "those bytes: %s or sharding less (a lower ZeRO stage, when memory allows) would "
			 "shrink it, more compression would not", fmt_b(pb, sizeof pb, g), 100 * share,
			 subject);
	else
		snprintf(buf, n, "%s, %s or compression would shrink it", subject, lever);
}

/* Many small buckets: each collective pays NCCL's latency (over hundreds of
 * ranks a millisecond), so the time goes to latency, not bytes. */
static bool why_dp_latency(const scenario *s, step_result *r, double x, double pct)
{
	/* ZeRO-3 reduces whole layers and gathers per layer: the bucket is no lever */
	double n = r->dp_collectives_per_step;
	if (s->training.zero >= 3 || !(n > 0) ||
	    !(r->dp_latency_s >= 0.5 * r->dp_move_s && r->dp_latency_s >= 0.3 * x))
		return false;
	char a[32], one[32], sum[32], bytes[32], bk[32], times[48];
	const char *lever = dp_lever(s, r, times, sizeof times);
	snprintf(r->bottleneck, sizeof r->bottleneck,
		 "Gradient %s is exposed for %s (%.0f%% of the step) and bound by latency: it runs "
		 "as %.0f collectives over %d ranks (%s buckets), each paying NCCL's ~%s, %s per "
		 "step, where moving the bytes takes ~%s%s; larger buckets (grad_reduce.bucket; "
		 "Megatron-core uses max(40M, 1M x dp x cp) parameters) or %s would "
		 "shrink it, faster links would not.",
		 s->training.zero ? "reduction" : "all-reduce", fmt_s(a, sizeof a, x), pct, n,
		 scn_dp(s), fmt_b(bk, sizeof bk, s->training.grad_reduce.bucket_bytes),
		 fmt_s(one, sizeof one, r->dp_latency_s / n), fmt_s(sum, sizeof sum, r->dp_latency_s),
		 fmt_s(bytes, sizeof bytes, r->dp_move_s), times, lever);
	return true;
}

/* zero_group (HSDP): the reduction runs inside the groups and across them. */
static void why_dp_groups(const scenario *s, step_result *r, double x, double pct)
{
	char a[32], t[32], nic[48], via[80] = "", times[48];
	const char *lever = dp_lever(s, r, times, sizeof times);
	nic_name(nic, sizeof nic, &s->cluster);
	if (r->dp_crosses_nodes)
		snprintf(via, sizeof via, " through the NICs (%s)", nic);
	snprintf(r->bottleneck, sizeof r->bottleneck,
		 "Gradient reduction is exposed for %s (%.0f%% of the step): ZeRO shards over %d "
		 "groups of %d data-parallel ranks, so each bucket is reduce-scattered inside a "
		 "group and each rank's 1/%d shard all-reduced across the groups%s; with the "
		 "parameter gather one full reduction takes ~%s%s; %s, %s or compression would "
		 "shrink it.",
		 fmt_s(a, sizeof a, x), pct, r->dp_zero_replicas, r->dp_zero_group, r->dp_zero_group,
		 via, fmt_s(t, sizeof t, r->dp_allreduce_s), times,
		 r->dp_crosses_nodes ? "a faster NIC" : "faster intra-node links", lever);
}

static void why_dp(const scenario *s, step_result *r, double x, double pct)
{
	if (why_dp_latency(s, r, x, pct))
		return;
	if (r->dp_zero_replicas > 1) {
		why_dp_groups(s, r, x, pct);
		return;
	}
	char a[32], g[32], t[32], nv[32], nic[48], what[64], eff[96] = "", links[112], times[48];
	const char *lever = dp_lever(s, r, times, sizeof times);
	int n = r->dp_ring_n > 1 ? r->dp_ring_n : 2;
	bool z = s->training.zero > 0, rs = scn_grad_rs(s);
	double f = r->dp_ideal_factor > 0 ? r->dp_ideal_factor : rs ? 1.0 * (n - 1) / n : 2.0 * (n - 1) / n;
	/* ZeRO: (n-1)/n of the gradients reduced, then of the parameters gathered
	 * (never compressed), both counted against the gradient bytes */
	bool in_net = !strcmp(r->dp_algorithm, "collnet") && !rs;
	const char *fx = rs ? "(n-1)/n (1 + params/grads)"
	               : in_net ? (z ? "1 + (N-1)/N params/grads" : "1 (the switches reduce)")
	               : z ? "2(n-1)/n + (N-1)/N params/grads" : "2(n-1)/n";
	snprintf(what, sizeof what, "a %s %s", r->dp_algorithm,
		 rs ? "reduce-scatter (and all-gather)" : z ? "all-reduce (and all-gather)"
		 : "all-reduce");
	char shrink[256], lead[256];
	nic_name(nic, sizeof nic, &s->cluster);
	/* what every case below begins with */
	snprintf(lead, sizeof lead, "Gradient %s is exposed for %s (%.0f%% of the step): %s moves "
		 "%s = %.3gx the %s of gradients", z ? "reduction" : "all-reduce",
		 fmt_s(a, sizeof a, x), pct, what, fx, f, fmt_b(g, sizeof g, r->dp_bytes_per_gpu));
	/* what the factor does not explain: the achievable fraction of line rate */
	double ideal = f * r->dp_naive_s, move = r->dp_move_s > 0 ? r->dp_move_s : r->dp_allreduce_s;
	if (ideal > 0 && move > 1.15 * ideal)
		snprintf(eff, sizeof eff, " (the links reach ~%.0f%% of line rate%s)",
			 100 * ideal / move,
			 s->cluster.nic.transport == TRANSPORT_TCP && r->dp_crosses_nodes
			 ? " over TCP" : "");
	/* a DP group inside one node (one node, or stages placed node by node on
	 * several): no NIC carries the reduction */
	if (!r->dp_crosses_nodes) {
		dp_shrink(shrink, sizeof shrink, s, r, "faster intra-node links", lever);
		snprintf(links, sizeof links, "%s%s", cluster_intra_phrase(&s->cluster), s->cluster.nodes > 1
			 ? "; each data-parallel group lies inside one node" : "");
		snprintf(r->bottleneck, sizeof r->bottleneck,
			 "%s over the intra-node links (%s), where it takes ~%s%s vs the naive %s%s; %s.",
			 lead, links, fmt_s(t, sizeof t, r->dp_allreduce_s), times,
			 fmt_s(nv, sizeof nv, r->dp_naive_s), eff, shrink);
		return;
	}
	if (r->dp_naive_zone_Bps <= 0 && cluster_shm_below_nic(&s->cluster, r->dp_ranks_per_node)) {
		/* GPUs without peer-to-peer: the ring's hops inside each node go
		 * through host memory, more slowly than the NIC carries them */
		hw_nic nc = s->cluster.nic;
		hw_nic_defaults(&nc, s->cluster.gpus_per_node);
		double sb = cluster_spec_intra_Bps(&s->cluster) / 1e9,
		       nb = hw_nic_Bps(&nc, r->dp_ranks_per_node, s->cluster.gpu.arch,
		                         s->cluster.gpu.pcie_gen) / 1e9;
		dp_shrink(shrink, sizeof shrink, s, r, s->cluster.gpu.bridge_Bps > 0
			  ? "NCCL's copy through host memory by the copy engines "
			    "(NCCL_SHM_USE_CUDA_MEMCPY=1, intra_node.shm_eff), NVLink bridges"
			  : "NCCL's copy through host memory by the copy engines "
			    "(NCCL_SHM_USE_CUDA_MEMCPY=1, intra_node.shm_eff), cards with peer-to-peer",
			  lever);
		bool off = !s->cluster.gpu.no_p2p;   /* the card has it; the scenario turned it off */
		if (off)
			dp_shrink(shrink, sizeof shrink, s, r, "PCIe peer-to-peer turned back on "
				  "(intra_node.p2p: true, NCCL_P2P_DISABLE dropped)", lever);
		snprintf(r->bottleneck, sizeof r->bottleneck,
			 "%s, and its hops between a node's GPUs go through host memory (NCCL's SHM "
			 "transport, %.3g GB/s: %s), slower than the NIC (%.3g GB/s), so it takes ~%s%s "
			 "vs the naive %s; %s.", lead, sb,
			 off ? "peer-to-peer is off" : "this card has no peer-to-peer", nb,
			 fmt_s(t, sizeof t, r->dp_allreduce_s), times, fmt_s(nv, sizeof nv, r->dp_naive_s),
			 shrink);
		return;
	}
	if (r->dp_naive_zone_Bps > 0) {
		/* the group spans availability zones: the zone link, not a NIC */
		char zl[32];
		const scn_fabric *fb = &s->cluster.fabric;
		dp_shrink(shrink, sizeof shrink, s, r, "a faster zone link, a layout whose "
			  "data-parallel groups stay in one zone", lever);
		snprintf(r->bottleneck, sizeof r->bottleneck,
			 "%s across the link between availability zones (%g Gb/s, %s away; %.3g GB/s "
			 "for each of the %d TP ranks' groups that cross it at once), so it takes ~%s%s "
			 "vs the naive %s; %s.", lead, fb->zone_bandwidth_Bps * 8 / 1e9,
			 fmt_s(zl, sizeof zl, fb->zone_latency_s), r->dp_naive_zone_Bps / 1e9,
			 s->training.tp > 1 ? s->training.tp : 1, fmt_s(t, sizeof t, r->dp_allreduce_s),
			 times, fmt_s(nv, sizeof nv, r->dp_naive_s), shrink);
		return;
	}
	/* NCCL's own ring over TCP: its sockets, not the wire, may hold each
	 * sibling communicator (a hierarchical scheme's rings have sockets each) */
	int sib = cluster_spec_nic_siblings(&s->cluster, s->training.tp * scn_cp(s));
	bool sockets = strcmp(r->dp_algorithm, "hierarchical") && strcmp(r->dp_algorithm, "ps") &&
	               cluster_sockets_bind(&s->cluster, r->dp_ranks_per_node, sib);
	dp_shrink(shrink, sizeof shrink, s, r, sockets
		  ? "more of NCCL's sockets a connection (nic.sockets: NCCL_SOCKET_NTHREADS x "
		    "NCCL_NSOCKS_PERTHREAD; a faster NIC would not), RDMA"
		  : "a faster NIC", lever);
	snprintf(r->bottleneck, sizeof r->bottleneck,
		 "%s through each NIC, so on %s (%.3g GB/s) it takes ~%s%s vs the naive %s%s; %s.",
		 lead, nic, s->cluster.nic.speed_Bps / 1e9, fmt_s(t, sizeof t, r->dp_allreduce_s), times,
		 fmt_s(nv, sizeof nv, r->dp_naive_s), eff, shrink);
}

/* Whether the run draws jitter or stragglers (run.variability). */
static bool var_drawn(const scenario *s)
{
	const scn_variability *v = &s->run.variability;
	return v->compute_cv > 0 || v->link_cv > 0 ||
	       scn_stragglers_on(v);
}

/* Whether the run drew a straggler (10% slower or more) in a replica. */
static bool stragglers_held(const scenario *s, const step_result *r)
{
	return r->stragglers_drawn > 0 && s->run.variability.straggler_slowdown >= 1.1;
}

/* Whether the variability is what the idle waits for: a straggler drawn, or
 * compute jitter whose expected wait, the slowest of the replicas' draws
 * (about cv x sqrt(2 ln dp) of the compute), is as long as the idle;
 * otherwise the layers' balance is the likelier cause (links' jitter waits
 * in the communication shares, not in the idle). */
static bool var_binds(const scenario *s, const step_result *r)
{
	if (stragglers_held(s, r))
		return true;
	double dp = scn_dp_grad(s) > 2 ? scn_dp_grad(s) : 2;
	return s->run.variability.compute_cv * sqrt(2 * log(dp)) * r->split_s[SPLIT_COMPUTE] >=
	       r->split_s[SPLIT_IDLE];
}

static void why_other(const scenario *s, step_result *r, int k, double x, double pct)
{
	char a[32], nic[48], wire[128];
	const scn_training *t = &s->training;
	fmt_s(a, sizeof a, x);
	nic_name(nic, sizeof nic, &s->cluster);
	char *b = r->bottleneck;
	size_t n = sizeof r->bottleneck;
	switch (k) {
	case SPLIT_PP_BUBBLE:
		/* the simulated share leads; the textbook figure is only a comparison
		 * (unequal stages and hop latency can make the bubble far larger) */
		snprintf(b, n, "The pipeline bubble takes %s (%.0f%% of the step): with %d stages and "
			 "%d micro-batches per step the simulated schedule leaves each GPU idle "
			 "that share of its time (the textbook (p-1)/(v*m+p-1), which assumes equal "
			 "stages and free transfers, gives %.0f%%); more micro-batches per step, "
			 "%s or fewer stages would shrink it.",
			 a, pct, t->pp, r->micro_batches, 100 * r->bubble_ideal,
			 t->schedule == SCHED_DEEPSPEED
				 ? "Megatron's interleaved schedule (DeepSpeed's engine has none)"
				 : t->schedule == SCHED_INTERLEAVED && t->virtual_stages > 1
				 ? "more virtual stages a GPU"
				 : "interleaving (virtual_stages)");
		break;
	case SPLIT_PP_COMM:
		/* consecutive stages on one node (one node, or each pipeline placed
		 * inside a node of several): they talk over the intra-node links */
		if (r->pp_crosses_nodes)
			snprintf(wire, sizeof wire, "%s between nodes", nic);
		else
			snprintf(wire, sizeof wire, "the intra-node links, %s%s", cluster_intra_phrase(&s->cluster),
				 s->cluster.nodes > 1 ? "; each pipeline lies inside one node" : "");
		snprintf(b, n, "Pipeline transfers are exposed for %s (%.0f%% of the step): stages "
			 "wait for activations and gradients on the wire (%s); %s, fewer stages or "
			 "larger micro-batches would shrink it.", a, pct, wire,
			 r->pp_crosses_nodes ? "a faster network" : "faster intra-node links");
		break;
	case SPLIT_TP_COMM:
		if (scn_cp(s) > 1) {
			/* the exposed K/V exchange of context parallelism is counted here too */
			bool far = t->tp * scn_cp(s) > s->cluster.gpus_per_node;
			snprintf(b, n, "%s compute for %s (%.0f%% of the step): the attention "
				 "no longer hides the ring that passes the keys and values of each "
				 "sequence around its %d context-parallel GPUs%s; %s would shrink it.",
				 t->tp > 1 ? "Tensor-parallel collectives and the context-parallel "
				 "K/V exchange block" : "The context-parallel K/V exchange blocks", a, pct,
				 scn_cp(s),
				 far ? ", across nodes" : " over the intra-node links",
				 far ? "keeping tp x cp inside a node, a faster network or longer "
				 "sequences" : "a smaller cp or longer sequences");
			break;
		}
		if (s->model.experts > 1 && t->ep > 1) {
			/* the expert all-to-all is counted here too */
			snprintf(b, n, "%s compute for %s (%.0f%% of the step): every MoE layer "
				 "sends each token to its %d experts among %d expert-parallel GPUs and "
				 "back, forward and backward%s; %s would shrink it.",
				 t->tp > 1 ? "The expert all-to-all and tensor-parallel collectives "
				 "block" : "The expert all-to-all blocks", a, pct,
				 s->model.top_k > 0 ? s->model.top_k : 2, t->ep,
				 r->ep_crosses_nodes ? ", across nodes" : " over the intra-node links",
				 !r->ep_crosses_nodes ? "a smaller ep or faster intra-node links"
				 : (long long)t->ep * (t->expert_tp > 0 ? t->expert_tp : t->tp) >
				   s->cluster.gpus_per_node
				 ? "a smaller ep (it spans nodes at any placement), a faster network"
				 : t->placement == PLACE_TP_DP_PP
				 ? "a smaller ep or a faster network"
				 : "keeping the expert-parallel group inside a node (placement "
				   "tp-dp-pp, a smaller ep), a faster network");
			break;
		}
		snprintf(b, n, "Tensor-parallel collectives block compute for %s (%.0f%% of the step): "
			 "%d ranks exchange activations several times per layer and micro-batch%s; a "
			 "smaller tp%soverlapping TP communication would shrink it.", a, pct, t->tp,
			 t->tp > s->cluster.gpus_per_node ? ", across nodes" : " over the intra-node links",
			 t->tp > s->cluster.gpus_per_node
			 ? (hw_arch_is_amd(s->cluster.gpu.arch) ? ", TP inside the node, or "
			    : ", TP inside the NVLink domain, or ") : " or ");
		break;
	case SPLIT_OPTIMIZER:
		/* ZeRO-1 only helps when there are DP ranks and it is not on already */
		if (t->zero == 0 && scn_dp_grad(s) > 1)
			snprintf(b, n, "The optimizer step takes %s (%.0f%% of the step): it is bound "
				 "by HBM bandwidth over every parameter a GPU holds; ZeRO-1 "
				 "(distributed optimizer) would shard it over the %d GPUs that hold "
				 "the same weights.", a, pct, scn_dp_grad(s));
		else
			snprintf(b, n, "The optimizer step takes %s (%.0f%% of the step): it is bound "
				 "by HBM bandwidth over the parameters a GPU updates%s; more "
				 "data-parallel ranks to shard it over, or a GPU with faster HBM, would "
				 "shrink it.", a, pct, t->zero > 0 ? " (already sharded by ZeRO)"
				 : " (one data-parallel rank: nothing to shard over)");
		break;
	case SPLIT_IDLE:
		if (var_binds(s, r)) {
			/* stragglers the job is likely to hold, or jitter of a few
			 * percent: every reduction waits for the slowest replica's
			 * draw, whatever the layers' balance */
			const scn_variability *v = &s->run.variability;
			bool strag = stragglers_held(s, r);
			char who[128] = "", cv[64] = "";
			if (v->compute_cv > 0 && v->link_cv > 0)
				snprintf(cv, sizeof cv, "compute CV %.2g%%, links %.2g%%", 100 * v->compute_cv,
					 100 * v->link_cv);
			else
				snprintf(cv, sizeof cv, "%s CV %.2g%%", v->compute_cv > 0 ? "compute" : "link",
					 100 * (v->compute_cv > 0 ? v->compute_cv : v->link_cv));
			if (strag && v->straggler_gpus > 0)
				snprintf(who, sizeof who, "%d straggler%s (%.3gx slower)%s",
					 v->straggler_gpus, v->straggler_gpus == 1 ? "" : "s",
					 v->straggler_slowdown,
					 v->compute_cv > 0 || v->link_cv > 0 ? " and jitter" : "");
			else if (strag)
				snprintf(who, sizeof who, "stragglers (%.3g%% of the GPUs, %.3gx slower)%s",
					 100 * v->straggler_fraction, v->straggler_slowdown,
					 v->compute_cv > 0 || v->link_cv > 0 ? " and jitter" : "");
			else
				snprintf(who, sizeof who, "jitter (%s)", cv);
			snprintf(b, n, "GPUs wait %s (%.0f%% of the step) for the slowest replica or "
				 "stage: the run's %s %s every reduction and pipeline hand-off until "
				 "the slowest GPU is done; %s would shrink it.", a, pct, who,
				 strag && v->straggler_gpus != 1 ? "hold" : "holds", strag
				 ? "finding and replacing the slow GPUs"
				 : "more work between synchronizations (more micro-batches a step), "
				   "over which the jitter averages out,");
		} else if (t->pp > 1 && t->first_stage_layers <= 0 && t->last_stage_layers <= 0 &&
		    !t->embedding_in_split && !t->loss_in_split && !s->model.custom)
			snprintf(b, n, "GPUs wait %s (%.0f%% of the step) for the slowest pipeline "
				 "stage or replica: the first and last stages also hold the embedding "
				 "and the logits, and a layer fewer there (training.first_stage_layers, "
				 "last_stage_layers, or loss_in_split and embedding_in_split) or fixing "
				 "slow GPUs would shrink it.", a, pct);
		else
			snprintf(b, n, "GPUs wait %s (%.0f%% of the step) for the slowest pipeline "
				 "stage or replica: balancing layers over stages (the first and last "
				 "also hold the embedding and logits) or fixing slow GPUs would shrink "
				 "it.", a, pct);
		break;
	case SPLIT_DATA_STALL:
		/* a stall that lasts from step to step is a rate: the reads of a step
		 * take longer than its compute, which no prefetch depth hides */
		if (s->training.data.prefetch > 0)
			snprintf(b, n, "Data loading stalls the GPUs for %s (%.0f%% of the step): the "
				 "storage delivers a step's data more slowly than the GPUs use it, which no "
				 "prefetch depth hides; a local cache or faster storage would shrink it.",
				 a, pct);
		else
			snprintf(b, n, "Data loading stalls the GPUs for %s (%.0f%% of the step): with "
				 "no prefetch the reads wait for the step; prefetching "
				 "(training.data.prefetch), a local cache or faster storage would shrink it.",
				 a, pct);
		break;
	case SPLIT_CHECKPOINT:
		if (s->training.checkpoint.mode == CKPT_ASYNC && r->checkpoint.async_fallback)
			snprintf(b, n, "Checkpoints stall training for %s per step on average (%.0f%%): "
				 "asynchronous checkpoints were asked but fall back to synchronous writes "
				 "(host memory too small for the snapshot); more host memory "
				 "(cluster.host_memory) or less frequent checkpoints would shrink it.",
				 a, pct);
		else if (s->training.checkpoint.mode == CKPT_ASYNC)
			snprintf(b, n, "Checkpoints stall training for %s per step on average (%.0f%%) "
				 "although they are asynchronous: the snapshot, the wait for a "
				 "background write that outlasts the interval%s; less frequent "
				 "checkpoints, faster storage%s would shrink it.", a, pct,
				 s->cluster.storage.network == STORAGE_NET_SHARED
				 ? " and the gradient reductions the write slows on the shared NICs" : "",
				 s->cluster.storage.network == STORAGE_NET_SHARED
				 ? " or a separate frontend NIC" : "");
		else
			snprintf(b, n, "Checkpoints stall training for %s per step on average (%.0f%%): "
				 "asynchronous or less frequent checkpoints would shrink it.", a, pct);
		break;
	default:
		break;
	}
}

/* A duration in the unit a reader of MTBFs and restarts expects. */
static const char *fmt_long(char *b, size_t n, double s)
{
	if (s >= 3600)
		snprintf(b, n, "%.3g h", s / 3600);
	else if (s >= 60)
		snprintf(b, n, "%.3g min", s / 60);
	else
		return fmt_s(b, n, s);
	return b;
}

/* Failures as the bottleneck: when the wall time lost to them (restarts and
 * redone work) is a larger share than any non-compute share of the step,
 * and 5% or more,
 * the sentence names where that time goes (restarts, work redone since the
 * last durable checkpoint, checkpoints) and what would win it back, then
 * the step's own largest share. Returns whether it wrote the sentence. */
static bool failures_bottleneck(const scenario *s, step_result *r, int k, double pct)
{
	/* the checkpoints' own share is in the step already (SPLIT_CHECKPOINT) */
	double loss = 100 * (r->restart_frac + r->lost_work_frac);
	if (r->job_mtbf_s <= 0 || loss < 5 || loss <= pct)
		return false;
	char a[32], b[32], adv[256];
	/* the tier restarts restore from: node-local when a peer holds a copy */
	const step_checkpoint *ck = &r->checkpoint;
	bool local = ck->local_every > 0 && ck->local_copies >= 2 &&
	             (ck->every <= 0 || ck->local_every < ck->every);
	int every = local ? ck->local_every : ck->every;
	int best = local ? r->best_local_checkpoint_every : r->best_checkpoint_every;
	bool async = s->training.checkpoint.mode == CKPT_ASYNC;
	if (every <= 0 && ck->local_every > 0 && s->cluster.nodes >= 2)
		snprintf(adv, sizeof adv, "a copy of each node's local checkpoint on another node "
			 "(training.checkpoint.local_copies: 2; a failed node is replaced with its "
			 "drive) or checkpoints to storage (training.checkpoint.every) would keep the "
			 "work done before a failure");
	else if (every <= 0)
		snprintf(adv, sizeof adv, "checkpoints (training.checkpoint.every) would keep "
			 "the work done before a failure");
	else if (r->goodput < 0.005 && best <= 0)
		/* no interval gets work done (the failure search found none) */
		snprintf(adv, sizeof adv, "the job is interrupted before it can finish the work "
			 "between two checkpoints, so no restart time or checkpoint interval saves it; "
			 "only fewer interruptions (more reliable parts, hot spares) or a smaller job "
			 "would");
	else if (r->restart_frac >= r->lost_work_frac)
	{
		/* the key's value, and the simulated reload the restart adds to it */
		double key = s->training.failures.restart_s, reload = r->restart_s - key;
		char c[32], plus[64] = "";
		if (reload > 0.5)
			snprintf(plus, sizeof plus, ", plus %s reading the checkpoint back",
				 fmt_long(c, sizeof c, reload));
		if (reload > key)   /* the reload is most of it: storage's reads */
			snprintf(adv, sizeof adv, "faster reloads (reading the checkpoint back from "
				 "storage takes %s of each restart, the rest %s), fewer "
				 "interruptions (more reliable parts, hot spares) or a smaller job would "
				 "raise it", fmt_long(c, sizeof c, reload), fmt_long(b, sizeof b, key));
		else
			snprintf(adv, sizeof adv, "a faster restart (training.failures.restart, now %s: "
				 "detecting the failure and rescheduling%s), fewer interruptions (more "
				 "reliable parts, hot spares) or a smaller job would raise it",
				 fmt_long(b, sizeof b, key), plus);
	}
	else if (best > 0 && best != every)
		snprintf(adv, sizeof adv, "checkpointing %s%s (the best interval here is %d steps, "
			 "now %d) would raise it", best < every ? "more often" : "less often",
			 local ? " to the local drives" : "", best, every);
	else
		snprintf(adv, sizeof adv, "the interval is already the best (%d step%s); %s "
			 "would raise it", every, every == 1 ? "" : "s", async ? "faster checkpoint writes (storage bandwidth)"
			 : "faster or asynchronous checkpoints");
	snprintf(r->bottleneck, sizeof r->bottleneck,
		 "Failures: the job is interrupted every %s and trains %.0f%% of its time "
		 "(goodput); restarts take %.0f%%, work redone since the last durable checkpoint "
		 "%.0f%%, checkpoints %.0f%%: %s. In the step itself the largest share besides "
		 "compute is %s (%.0f%%).", fmt_long(a, sizeof a, r->job_mtbf_s),
		 100 * r->goodput, 100 * r->restart_frac, 100 * r->lost_work_frac,
		 100 * r->ckpt_frac, adv, step_split_name(k), pct);
	return true;
}

static void bottleneck(const scenario *s, step_result *r)
{
	int k = -1;
	for (int i = 0; i < SPLIT__N; i++)
		if (i != SPLIT_COMPUTE && (k < 0 || r->split_s[i] > r->split_s[k]))
			k = i;
	double x = r->split_s[k], pct = 100 * x / r->step_time_s;
	if (failures_bottleneck(s, r, k, pct))
		return;
	if (pct < 5) {
		char a[32], cap[96] = "";
		double clk = wl_power_clock(&s->cluster.gpu);
		if (clk < 1)
			snprintf(cap, sizeof cap, " at the %.0f W power limit's clock (%.0f%% of the "
			         "rated one)", s->cluster.gpu.power_limit_w, 100 * clk);
		/* at long sequences the count's full attention matrix is twice what
		 * causal kernels compute: MFU is no measure of the GEMMs there */
		double full = wl_model_flops_per_seq(&s->model),
		       att = wl_attn_score_flops_per_seq(&s->model);
		if (full > 0 && att / 2 > 0.1 * (full - att / 2))
			snprintf(r->bottleneck, sizeof r->bottleneck,
				 "Compute-bound: kernels take %.0f%% of the step and the largest other "
				 "share, %s, is %s (%.0f%%); at %d tokens a sequence the attention scores "
				 "are %.0f%% of the counted FLOPs, and MFU (%.0f%%) counts their full matrix "
				 "where causal kernels compute half (the note below): a faster attention "
				 "kernel%s would shorten the step.",
				 100 * r->split_s[SPLIT_COMPUTE] / r->step_time_s, step_split_name(k),
				 fmt_s(a, sizeof a, x), pct, s->model.seq_len, 100 * att / full,
				 100 * r->mfu, s->training.precision == PREC_FP4 ? ""
				 : " or a lower-precision format");
		else
			snprintf(r->bottleneck, sizeof r->bottleneck,
				 "Compute-bound: kernels take %.0f%% of the step and the largest other "
				 "share, %s, is %s (%.0f%%); MFU %.0f%% is limited by the achievable GEMM "
				 "efficiency%s: larger micro-batches would raise it%s.",
				 100 * r->split_s[SPLIT_COMPUTE] / r->step_time_s, step_split_name(k),
				 fmt_s(a, sizeof a, x), pct, 100 * r->mfu, cap,
				 s->training.precision == PREC_FP4 ? ""
				 : ", and a lower-precision format (fp8, fp4 where the GPU has it) would "
				   "shorten the step");
	} else if (k == SPLIT_DP_COMM) {
		why_dp(s, r, x, pct);
	} else {
		why_other(s, r, k, x, pct);
	}
}


/* STEP_MOE_LAYER_FLOOR_S's measure of this step, for a model with MoE layers
 * (0 otherwise), before storage adds its stalls. */
static void moe_layer_measure(const scenario *s, step_result *r)
{
	r->moe_layer_mb_s = 0;
	r->moe_host_bound = false;
	int layers = s->model.custom ? 0 : s->model.layers, pp = s->training.pp > 0 ?
	             s->training.pp : 1;
	bool moe = false;
	for (int l = 0; l < layers && !moe; l++)
		moe = wl_layer_moe(&s->model, l);
	if (!moe || r->micro_batches <= 0 || r->step_time_s <= 0)
		return;
	r->moe_layer_mb_s = r->step_time_s / r->micro_batches / ((double)layers / pp);
	r->moe_host_bound = r->moe_layer_mb_s < STEP_MOE_LAYER_FLOOR_S;
}

/* A step faster per layer and micro-batch than any published dropless MoE
 * run: those with short layers were bound by the host (a device-to-host sync
 * per MoE layer for the token counts, then eager launches of many small
 * kernels), which trainsim does not model, so the prediction is a bound.
 * Added last, as advice: it never displaces a note about this run's
 * storage, failures or variability. */
static void moe_host_note(step_result *r)
{
	if (!r->moe_host_bound)
		return;
	char a[32], b[32];
	stp_note(r, "MoE: the step comes to %s per micro-batch and layer of a stage, where no "
		 "published dropless MoE run of Megatron-core took less than %s on any GPU: "
		 "short MoE layers sync the host for their token counts, then the CPU launches "
		 "their small kernels one by one, and trainsim does not model the host. Without "
		 "CUDA graphs over these layers, read the throughput as an upper bound; larger "
		 "micro-batches lengthen the layers (docs/validation.md).",
		 fmt_s(a, sizeof a, r->moe_layer_mb_s),
		 fmt_s(b, sizeof b, STEP_MOE_LAYER_FLOOR_S));
}

static void notes(const scenario *s, step_result *r)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];
	const wl_memory *m = &r->memory;
	if (!m->fits)
		stp_note(r, "Memory: %s per GPU needed, %s available (weights %s, gradients %s, "
			 "optimizer %s, activations %s): this layout does not fit; the times "
			 "are given anyway.", fmt_b(a, sizeof a, m->total), fmt_b(b, sizeof b, m->capacity),
			 fmt_b(c, sizeof c, m->weights), fmt_b(d, sizeof d, m->gradients),
			 fmt_b(e, sizeof e, m->optimizer), fmt_b(f, sizeof f, m->activations));
	/* fp8 activations at one byte a value: Transformer Engine keeps only the
	 * GEMMs' inputs in fp8, so the fit of an fp8 layout rests on it */
	if ((s->training.precision == PREC_FP8 || s->training.precision == PREC_FP4) &&
	    m->activations > 0)
		stp_note(r, "Memory: %s activations are counted at %g byte a value (the residual "
			 "stream of full recomputation at two); Transformer Engine keeps only the "
			 "GEMMs' inputs in %s and the rest in bf16, so the activations may need up "
			 "to %gx this (UNVERIFIED, docs/workload.md).",
			 hw_precision_name(s->training.precision),
			 hw_precision_bytes(s->training.precision),
			 hw_precision_name(s->training.precision),
			 2 / hw_precision_bytes(s->training.precision));
	/* An expert group that spans nodes only because of the rank order: the
	 * default tp-pp-dp strides the DP ranks it is drawn from by tp x pp, where
	 * Megatron-core's default (tp-cp-ep-dp-pp: tp-dp-pp here) keeps ep x
	 * expert_tp GPUs in a node; a comparison of clusters on the default
	 * order would charge every one the network for it */
	const scn_training *tr = &s->training;
	int etp = tr->expert_tp == 1 ? 1 : tr->tp;
	if (s->model.experts > 1 && tr->ep > 1 && r->ep_crosses_nodes &&
	    tr->placement == PLACE_TP_PP_DP && tr->pp > 1 &&
	    (long long)tr->ep * etp <= s->cluster.gpus_per_node)
		stp_note(r, "MoE: with placement tp-pp-dp the expert-parallel group (ep %d) spans "
			 "nodes; Megatron-core's default rank order (tp-cp-ep-dp-pp: "
			 "'training.placement: tp-dp-pp') keeps it inside one node, on NVLink. "
			 "Compare layouts or clusters on that order.", tr->ep);
	/* ZeRO-2/3 behind a pipeline: the gradients are reduced once a step and
	 * held whole until then (docs/step.md), which a user reading "ZeRO-3"
	 * does not expect: several times the memory of pp 1 */
	if (s->training.zero >= 2 && s->training.pp > 1 && !wl_grad_every_micro_batch(s) &&
	    r->micro_batches > 1 && m->gradients > 0)
		stp_note(r, "Memory: with a pipeline the gradients are reduced once a step, after "
			 "the last micro-batch (every framework does: DeepSpeed refuses ZeRO-2/3 "
			 "with a pipeline, PyTorch's pipelining and Megatron's distributed optimizer "
			 "reduce once), so each GPU holds its stage's whole gradients (%s) until "
			 "then: ZeRO-%d shards them only after the reduction (docs/step.md); "
			 "training.grad_reduce.every_micro_batch: true reduces after each "
			 "micro-batch instead, at that many times the traffic.",
			 fmt_b(a, sizeof a, m->gradients), s->training.zero);
	const scn_grad_reduce *g = &s->training.grad_reduce;
	if (g->compression != COMPRESS_NONE && r->dp_syncs_per_step > 0)
		stp_note(r, "Gradient compression costs %s of compute per step and %s %s per step "
			 "against uncompressed gradients: it %s.",
			 fmt_s(a, sizeof a, r->compression_cost_s),
			 r->compression_saving_s >= 0 ? "saves" : "loses",
			 fmt_s(b, sizeof b, fabs(r->compression_saving_s)),
			 r->compression_saving_s > 0 ? "pays off" : "does not pay off");
	/* the full-matrix convention of the FLOP count meets causal kernels: at
	 * long sequences MFU counts work nobody did (above 100% at millions) */
	double full = wl_model_flops_per_seq(&s->model), att = wl_attn_score_flops_per_seq(&s->model);
	if (full > 0 && att / 2 > 0.1 * (full - att / 2))
		stp_note(r, "MFU and HFU count the full attention matrix, as Megatron's and PaLM's "
			 "formulas do; causal attention computes about half of it. At %d tokens a "
			 "sequence the attention scores are %.0f%% of the counted FLOPs, so MFU overstates "
			 "the arithmetic done by about %.0f%%.", s->model.seq_len, 100 * att / full,
			 100 * (full / (full - att / 2) - 1));
	/* sequence parallelism trades each all-reduce for a reduce-scatter and
	 * an all-gather, and adds an exposed all-gather in the backward: more
	 * exposed TP time than without it (most on an NVLS node), less memory
	 * and norm time; say so, since a user expects it to be neutral */
	const scn_training *t = &s->training;
	if (t->sequence_parallel && t->tp > 1 && s->model.experts <= 1 && scn_cp(s) == 1 &&
	    !s->model.custom)
		stp_note(r, "Sequence parallelism: each TP all-reduce becomes a reduce-scatter and an "
			 "all-gather of the same bytes, and the backward adds an all-gather of each "
			 "block's output gradient that no GEMM hides (Megatron's order), so more TP "
			 "time is exposed than without it%s; in return the norms and dropouts run on "
			 "1/%d of the tokens, and their activations take 1/%d of the memory.",
			 t->tp <= s->cluster.gpus_per_node && coll_node_nvls(&s->cluster, t->tp)
			 ? ", the more so as this node's NVSwitch reduces an all-reduce itself "
			   "(NVLS), faster per byte than the ring pair" : "", t->tp, t->tp);
	if (r->staleness > 0)
		stp_note(r, "Asynchronous DP overlaps each step's gradient reduction with the next "
			 "step's compute (%.2fx the synchronous speed); updates are %d step stale, which "
			 "can slow or destabilize convergence.", r->async_speedup, r->staleness);
}

/* Percentiles of the final step times (stalls in). */
static void variability_note(const scenario *s, step_result *r)
{
	char a[32], b[32], ln[112] = "";
	const scn_variability *v = &s->run.variability;
	if (!var_drawn(s))
		return;
	if (v->link_cv > 0)
		snprintf(ln, sizeof ln, ", and every transfer's bandwidth varies (CV %.0f%%), so each "
			 "collective waits for its slowest flow", 100 * v->link_cv);
	/* how many slow replicas this seed drew: another seed may draw none */
	char drawn[160] = "";
	if (v->straggler_gpus > 0 && v->straggler_slowdown > 1)
		snprintf(drawn, sizeof drawn, "; %d GPU%s %.3gx slower, in %d data-parallel "
			 "replica%s (straggler_gpus)", v->straggler_gpus,
			 v->straggler_gpus == 1 ? "" : "s", v->straggler_slowdown, r->stragglers_drawn,
			 r->stragglers_drawn == 1 ? "" : "s");
	else if (v->straggler_fraction > 0 && v->straggler_slowdown > 1)
		snprintf(drawn, sizeof drawn, "; seed %llu drew %d data-parallel replica%s holding a "
			 "%.3gx straggler (each GPU one with probability %.3g: another seed may draw "
			 "another number)", (unsigned long long)s->run.seed, r->stragglers_drawn,
			 r->stragglers_drawn == 1 ? "" : "s", v->straggler_slowdown,
			 v->straggler_fraction);
	stp_note(r, "Variability over %d step%s: p50 %s, p99 %s; each DP reduction waits for the "
		 "slowest replica%s (drawn, see docs/step.md)%s.", r->steps, r->steps == 1 ? "" : "s",
		 fmt_s(a, sizeof a, r->step_p50_s), fmt_s(b, sizeof b, r->step_p99_s), ln, drawn);
}

void stp_report(const scenario *s, step_result *res)
{
	if (res->step_time_s > 0) {
		notes(s, res);
		moe_layer_measure(s, res);
	}
}

void stp_report_final(const scenario *s, step_result *res)
{
	if (res->step_time_s <= 0)
		return;
	variability_note(s, res);
	moe_host_note(res);
	bottleneck(s, res);
}
