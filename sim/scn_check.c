/* scn_check.c: what one key cannot say alone: defaults derived from other
 * keys (dp, nic.count, kv_heads, ffn_hidden, sample_bytes) and the checks
 * across keys (tp*pp divides the GPUs, batch divisibility, heads % tp, ...).
 * Runs only when every key mapped cleanly, so that errors do not cascade. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "scn_int.h"
#include "plan.h"
#include "workload.h"

#define MAX_GPUS 1000000          /* beyond any cluster built so far, by ~10x */

/* The node of the first path given that exists (to point errors at), and
 * that path in *used; falls back to the section of the last one. */
static const scn_node *at(const scn_doc *d, const char **used, const char *p1,
                          const char *p2)
{
	const scn_node *n = scn__doc_path(d, p1);
	*used = p1;
	if (!n && p2) {
		n = scn__doc_path(d, p2);
		*used = p2;
	}
	if (!n) {
		char sec[64];
		const char *dot = strchr(p1, '.');
		snprintf(sec, sizeof sec, "%.*s", dot ? (int)(dot - p1) : (int)strlen(p1), p1);
		n = scn__doc_path(d, sec);
		*used = p1;
	}
	return n;
}

#define ERR(c, d, p1, p2, ...)                                                   \
	do {                                                                     \
		const char *used_;                                               \
		const scn_node *n_ = at(d, &used_, p1, p2);                      \
		scn__error(c, n_, false, used_, __VA_ARGS__);                    \
	} while (0)

static bool given(const scn_doc *d, const char *path)
{
	return scn__doc_path(d, path) != NULL;
}

/* An error about a key the file does not give, whose default is at fault:
 * reported at its section's key ("training:"), or at the file's start when
 * the section is not written either. */
static void err_default(scn_ctx *c, const scn_doc *d, const char *path, const char *fmt, ...)
{
	char sec[64], msg[512];
	const char *dot = strchr(path, '.');
	snprintf(sec, sizeof sec, "%.*s", dot ? (int)(dot - path) : (int)strlen(path), path);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	scn__error(c, scn__doc_path(d, sec), true, path, "%s", msg);
}

/* The precision to suggest on a GPU without p's peak: a 16-bit one it has
 * (fp16 on Volta and Turing, which lack bf16), else fp32. */
static hw_precision other_precision(const hw_gpu *g, hw_precision p)
{
	static const hw_precision order[] = {PREC_BF16, PREC_FP16, PREC_FP8, PREC_TF32, PREC_FP32};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (order[i] != p && g->peak_flops[order[i]] > 0)
			return order[i];
	return PREC_FP32;
}

/* Defaults that depend on other keys. */
static void derive(scenario *s, const scn_doc *d)
{
	scn_model *m = &s->model;
	if (!given(d, "cluster.nic.count"))
		s->cluster.nic.count = s->cluster.gpus_per_node;
	if (!m->kv_heads)
		m->kv_heads = m->heads;
	if (!m->head_dim && m->heads && !given(d, "model.head_dim"))
		m->head_dim = m->hidden / m->heads;
	if (m->kv_lora_rank > 0) {   /* MLA: DeepSeek-V2/V3's rotary and value widths */
		if (!given(d, "model.qk_rope_dim"))
			m->qk_rope_dim = 64;
		if (!m->v_head_dim)
			m->v_head_dim = m->head_dim;
	}
	if (!m->ffn_hidden && m->hidden) {
		/* gated (SwiGLU) MLPs keep the parameter count of 4h with 2/3 of
		 * the width, rounded up to a multiple of 256 (LLaMA's reference
		 * code, multiple_of = 256: 4096 -> 11008) */
		m->ffn_hidden = m->gated_mlp ? 256 * (int)ceil(8.0 * m->hidden / 3 / 256)
		                             : 4 * m->hidden;
	}
	if (!m->seq_len && m->custom)
		m->seq_len = 1;
	if (m->experts > 1) {
		if (!given(d, "model.top_k"))
			m->top_k = 2;                 /* Mixtral, GShard: two experts a token */
		if (!m->expert_ffn_hidden)
			m->expert_ffn_hidden = m->ffn_hidden;
		if (!s->training.expert_tp)
			s->training.expert_tp = s->training.tp;   /* Megatron-core's default */
	}
	if (!s->training.grad_reduce.ps_servers)
		s->training.grad_reduce.ps_servers = s->cluster.nodes;
	if (!s->training.data.sample_bytes && !m->custom)
		/* token ids: 2 bytes when the vocabulary fits in 65,536, else 4
		 * (cost-models.md, data loading; Megatron's indexed dataset) */
		s->training.data.sample_bytes = (double)m->seq_len * (m->vocab <= 65536 ? 2 : 4);
}

static void check_model(scn_ctx *c, scenario *s, const scn_doc *d)
{
	scn_model *m = &s->model;
	const scn_section *ms = NULL;
	for (size_t i = 0; i < scn__root.nrows; i++)
		if (!strcmp(scn__root.rows[i].key, "model"))
			ms = scn__root.rows[i].sub;
	if (m->custom) {
		for (size_t i = 0; i < ms->nrows; i++) {
			char p[64];
			snprintf(p, sizeof p, "model.%s", ms->rows[i].key);
			if ((ms->rows[i].flags & FL_TRANSFORMER) && given(d, p))
				ERR(c, d, p, NULL, "not used with model.custom (a custom model is its "
				    "list of layers); remove one of the two");
		}
		return;
	}
	if (!m->params) {
		static const char *const need[] = {"layers", "hidden", "heads"};
		static const char *const ex[] = {"layers: 80", "hidden: 10240", "heads: 80"};
		for (int i = 0; i < 3; i++) {
			char p[64];
			snprintf(p, sizeof p, "model.%s", need[i]);
			if (!given(d, p))
				ERR(c, d, p, NULL, "missing; add e.g. '%s' (or describe the model by "
				    "model.params or model.custom)", ex[i]);
		}
	}
	if (!m->seq_len)
		ERR(c, d, "model.seq_len", NULL, "missing; add e.g. 'seq_len: 2048'");
	if (m->heads && m->hidden % m->heads && !given(d, "model.head_dim"))
		ERR(c, d, "model.heads", NULL, "hidden (=%d) must be divisible by heads (=%d), "
		    "or give head_dim", m->hidden, m->heads);
	if (m->heads && (m->kv_heads > m->heads || m->heads % m->kv_heads))
		ERR(c, d, "model.kv_heads", NULL, "kv_heads (=%d) must divide heads (=%d)",
		    m->kv_heads, m->heads);
	if (m->kv_lora_rank <= 0) {
		static const char *const mla[] = {"model.q_lora_rank", "model.qk_rope_dim",
			"model.v_head_dim"};
		const int v[] = {m->q_lora_rank, m->qk_rope_dim, m->v_head_dim};
		for (int i = 0; i < 3; i++)
			if (v[i] > 0 && given(d, mla[i]))
				scn__warn(c, scn__doc_path(d, mla[i]), mla[i], "has no effect without "
				          "model.kv_lora_rank (multi-head latent attention, e.g. "
				          "'kv_lora_rank: 512')");
	} else if (m->kv_heads != m->heads && given(d, "model.kv_heads")) {
		ERR(c, d, "model.kv_heads", "model.kv_lora_rank", "multi-head latent attention "
		    "expands keys and values for every head; remove kv_heads");
	}
	if (m->global_every > 0 && m->sliding_window <= 0 && given(d, "model.global_every"))
		scn__warn(c, scn__doc_path(d, "model.global_every"), "model.global_every",
		          "has no effect without model.sliding_window (e.g. 'sliding_window: 4096')");
	if (m->sliding_window > 0 && m->sliding_window >= m->seq_len &&
	    given(d, "model.sliding_window"))
		scn__warn(c, scn__doc_path(d, "model.sliding_window"), "model.sliding_window",
		          "(=%d) is not shorter than seq_len (=%d): every query already sees "
		          "the whole causal sequence", m->sliding_window, m->seq_len);
}

/* Job placement in the fabric (cluster.fabric.placement, leaves,
 * background_load): what the topology can hold, and keys without effect. */
static void check_placement(scn_ctx *c, const scn_cluster *k, const scn_doc *d)
{
	const scn_fabric *f = &k->fabric;
	bool leafy = f->topology == TOPO_FAT_TREE || f->topology == TOPO_RAIL_OPTIMIZED;
	if (f->placement == FABRIC_SPREAD && !leafy)
		scn__warn(c, scn__doc_path(d, "cluster.fabric.placement"), "cluster.fabric.placement",
		          "spread has no effect unless topology is fat-tree or rail-optimized");
	if (f->leaves && f->placement != FABRIC_SPREAD)
		scn__warn(c, scn__doc_path(d, "cluster.fabric.leaves"), "cluster.fabric.leaves",
		          "has no effect unless placement is spread");
	if (f->background_load > 0 && f->topology == TOPO_SINGLE_SWITCH)
		scn__warn(c, scn__doc_path(d, "cluster.fabric.background_load"),
		          "cluster.fabric.background_load", "has no effect with topology "
		          "single-switch (no leaf uplinks)");
	/* one switch has no leaves and no uplinks to oversubscribe; zones need
	 * the zones topology ("what does 4:1 cost?" must not come back "nothing"
	 * without a word) */
	if (f->topology == TOPO_SINGLE_SWITCH && f->oversubscription > 1)
		scn__warn(c, scn__doc_path(d, "cluster.fabric.oversubscription"),
		          "cluster.fabric.oversubscription", "has no effect with topology "
		          "single-switch (no leaf uplinks); use 'topology: fat-tree'");
	/* nor has a fat-tree whose job sits under one leaf: no traffic of the job
	 * (nor storage, on the spine) crosses the uplinks these keys throttle */
	int groups = f->placement == FABRIC_SPREAD && f->leaves > 0 ? f->leaves
	           : (k->nodes + f->nodes_per_leaf - 1) / f->nodes_per_leaf;
	const char *const uplink_keys[] = {"cluster.fabric.oversubscription",
		"cluster.fabric.background_load"};
	const bool uplink_set[] = {f->oversubscription > 1, f->background_load > 0};
	char fix[96] = "";
	if (k->nodes > 1)
		snprintf(fix, sizeof fix, "; spread it with 'nodes_per_leaf: %d' or 'placement: "
		         "spread' and 'leaves: 2'", (k->nodes + 1) / 2);
	for (size_t i = 0; i < 2; i++)
		if (f->topology == TOPO_FAT_TREE && groups <= 1 && uplink_set[i])
			scn__warn(c, scn__doc_path(d, uplink_keys[i]), uplink_keys[i], "has no "
			          "effect: the job's %d node%s sit%s under one leaf (nodes_per_leaf "
			          "%d), so nothing crosses its uplinks%s", k->nodes,
			          k->nodes == 1 ? "" : "s", k->nodes == 1 ? "s" : "",
			          f->nodes_per_leaf, fix);
	/* (a normalized scenario writes every key: their defaults say nothing) */
	const char *const zone_keys[] = {"cluster.fabric.zones", "cluster.fabric.zone_bandwidth",
		"cluster.fabric.zone_latency"};
	const bool set[] = {f->zones > 1, f->zone_bandwidth_Bps > 0,
		f->zone_latency_s != SCN_ZONE_LATENCY_S};
	for (size_t i = 0; i < sizeof zone_keys / sizeof zone_keys[0]; i++)
		if (f->topology != TOPO_ZONES && given(d, zone_keys[i]) && set[i])
			scn__warn(c, scn__doc_path(d, zone_keys[i]), zone_keys[i],
			          "has no effect unless topology is zones");
	/* NCCL's sockets are TCP's */
	const char *const sock_keys[] = {"cluster.nic.sockets", "cluster.nic.socket_bandwidth"};
	const bool sock_set[] = {k->nic.sockets > 0, k->nic.socket_Bps > 0};
	for (size_t i = 0; i < 2; i++)
		if (k->nic.transport != TRANSPORT_TCP && given(d, sock_keys[i]) && sock_set[i])
			scn__warn(c, scn__doc_path(d, sock_keys[i]), sock_keys[i],
			          "has no effect unless transport is tcp (NCCL's socket transport)");
	if (f->placement != FABRIC_SPREAD || !leafy || !f->leaves)
		return;
	if (f->leaves > k->nodes)
		ERR(c, d, "cluster.fabric.leaves", NULL, "leaves (=%d) exceeds nodes (=%d); every "
		    "leaf the job spans holds at least one of its nodes", f->leaves, k->nodes);
	else if ((long long)f->leaves * f->nodes_per_leaf < k->nodes)
		ERR(c, d, "cluster.fabric.leaves", NULL, "%d leaves of nodes_per_leaf %d hold %lld "
		    "nodes, fewer than nodes (=%d); use at least %d leaves", f->leaves,
		    f->nodes_per_leaf, (long long)f->leaves * f->nodes_per_leaf, k->nodes,
		    (k->nodes + f->nodes_per_leaf - 1) / f->nodes_per_leaf);
}

/* NVLink bridges join PCIe cards that take them, in groups that divide the
 * node (or hold all of a smaller node's GPUs) and that the card's bridges
 * make (2-way on every such card, 4-way on the H200 NVL). */
static void check_bridge(scn_ctx *c, const scenario *s, const scn_doc *d)
{
	const scn_cluster *k = &s->cluster;
	const hw_gpu *g = &k->gpu;
	int b = k->intra.bridge;
	if (b < 2)
		return;
	if (k->intra.kind != INTRA_PCIE)
		ERR(c, d, "cluster.intra_node.nvlink_bridge", NULL, "NVLink bridges join PCIe "
		    "cards (kind: pcie); %s nodes already join every GPU by NVLink; remove it or "
		    "use kind: pcie", k->intra.kind == INTRA_NVSWITCH ? "nvswitch" : "nvlink-mesh");
	else if (k->gpus_per_node % b && b < k->gpus_per_node)
		ERR(c, d, "cluster.intra_node.nvlink_bridge", NULL, "%d GPUs a node do not split "
		    "into bridge groups of %d; use a group size that divides gpus_per_node%s, or "
		    "0 for none", k->gpus_per_node, b, k->gpus_per_node % 2 ? "" : ", such as 2");
	else if (g->bridge_Bps <= 0)
		ERR(c, d, "cluster.intra_node.nvlink_bridge", NULL, "%s takes no NVLink bridge "
		    "('trainsim list gpus', column Bridge); give cluster.gpu.bridge (its bandwidth "
		    "a direction) for a card that does", g->name);
	else if (g->bridge_gpus > 1 && (b > g->bridge_gpus || g->bridge_gpus % b))
		ERR(c, d, "cluster.intra_node.nvlink_bridge", NULL, "%s's NVLink bridges join "
		    "groups of at most %d cards, a size that divides it; use nvlink_bridge: %d (or "
		    "set cluster.gpu.bridge_gpus for another card)", g->name, g->bridge_gpus,
		    g->bridge_gpus % 2 ? g->bridge_gpus : 2);
	else if (k->gpus_per_node < 2)
		scn__warn(c, scn__doc_path(d, "cluster.intra_node.nvlink_bridge"),
		          "cluster.intra_node.nvlink_bridge", "has no effect with one GPU a node");
}

static void check_cluster(scn_ctx *c, scenario *s, const scn_doc *d)
{
	scn_cluster *k = &s->cluster;
	const hw_gpu *g = &k->gpu;
	/* AWS p5 has 32 NICs for 8 GPUs; more than 4 per GPU is a typo */
	if (k->nic.count > 4 * k->gpus_per_node)
		ERR(c, d, "cluster.nic.count", NULL, "%d NICs per node is more than 4 per GPU "
		    "(%d for %d GPU%s per node)", k->nic.count, 4 * k->gpus_per_node,
		    k->gpus_per_node, k->gpus_per_node == 1 ? "" : "s");
	if (k->intra.kind != INTRA_PCIE && !k->intra.bandwidth_Bps && !g->nvlink_Bps &&
	    !given(d, "cluster.intra_node"))
		err_default(c, d, "cluster.intra_node", "the default, nvswitch, needs a GPU with "
		            "NVLink and %s has none; add 'intra_node: pcie' under cluster", g->name);
	else if (k->intra.kind != INTRA_PCIE && !k->intra.bandwidth_Bps && !g->nvlink_Bps)
		ERR(c, d, "cluster.intra_node", NULL, "%s needs a GPU with NVLink and %s has none; "
		    "use intra_node: pcie or give intra_node.bandwidth",
		    k->intra.kind == INTRA_NVSWITCH ? "nvswitch" : "nvlink-mesh", g->name);
	/* peer-to-peer is a PCIe node's question: NVLink GPUs reach each other
	 * over NVLink */
	if (k->intra.kind != INTRA_PCIE && k->intra.p2p != P2P_AUTO)
		scn__warn(c, scn__doc_path(d, "cluster.intra_node.p2p"), "cluster.intra_node.p2p",
		          "has no effect on %s nodes; it says whether PCIe GPUs (intra_node: pcie) "
		          "reach each other directly", k->intra.kind == INTRA_NVSWITCH ? "nvswitch"
		          : "nvlink-mesh");
	check_bridge(c, s, d);
	/* a power limit is a cap below the GPU's rating (nvidia-smi -pl accepts
	 * no more than the board's maximum) */
	if (g->power_limit_w > 0 && g->tdp_w <= 0)
		ERR(c, d, "cluster.gpu.power_limit", NULL, "a power limit needs the GPU's rated "
		    "power, which the catalog does not have for %s; give cluster.gpu.tdp too, e.g. "
		    "'tdp: 700W'", g->name);
	else if (g->power_limit_w > g->tdp_w)
		ERR(c, d, "cluster.gpu.power_limit", NULL, "power_limit (=%g W) is above the %s's "
		    "rated %g W (tdp); a limit caps below it, e.g. 'power_limit: %gW'",
		    g->power_limit_w, g->name, g->tdp_w, round(g->tdp_w * 5 / 7 / 50) * 50);
	else if (g->power_limit_w > 0 && g->power_limit_w <= wl_power_floor_w(g))
		ERR(c, d, "cluster.gpu.power_limit", NULL, "power_limit (=%g W) leaves the %s almost "
		    "no clock: its static draw is about %.0f W of its %g W (docs/workload.md, \"Power "
		    "limits\"); a limit above %.0f W, e.g. 'power_limit: %gW'", g->power_limit_w,
		    g->name, wl_power_floor_w(g), g->tdp_w, wl_power_floor_w(g),
		    round(g->tdp_w * 5 / 7 / 50) * 50);
	if (k->fabric.topology == TOPO_ZONES) {
		if (k->fabric.zones < 2)
			ERR(c, d, "cluster.fabric.zones", "cluster.fabric.topology",
			    "topology zones needs zones >= 2, e.g. 'zones: 2'");
		else if (k->nodes % k->fabric.zones)
			ERR(c, d, "cluster.fabric.zones", NULL, "zones (=%d) must divide nodes (=%d)",
			    k->fabric.zones, k->nodes);
		if (!k->fabric.zone_bandwidth_Bps)
			ERR(c, d, "cluster.fabric.zone_bandwidth", "cluster.fabric.topology",
			    "topology zones needs zone_bandwidth, e.g. 'zone_bandwidth: 100Gbps'");
	}
	/* SHARP is InfiniBand's (and RDMA's): NCCL's sockets never reach it */
	if (k->fabric.sharp && k->nic.transport != TRANSPORT_RDMA)
		ERR(c, d, "cluster.fabric.sharp", "cluster.nic.transport", "SHARP reduces in "
		    "InfiniBand switches, which NCCL reaches over RDMA, not over TCP; use "
		    "'transport: rdma' or 'sharp: false'");
	check_placement(c, k, d);
}

/* What the training section asks of the cluster (not for `trainsim nccl`,
 * which uses the cluster alone). */
static void check_training_on_cluster(scn_ctx *c, scenario *s, const scn_doc *d)
{
	scn_cluster *k = &s->cluster;
	const hw_gpu *g = &k->gpu;
	hw_precision p = s->training.precision;
	hw_precision alt = other_precision(g, p);
	if (g->peak_flops[p] <= 0 && !given(d, "training.precision"))
		err_default(c, d, "training.precision", "the default, %s, has no peak on the GPU %s; "
		            "add 'precision: %s' under training", scn__precision_names[p], g->name,
		            scn__precision_names[alt]);
	else if (g->peak_flops[p] <= 0)
		ERR(c, d, "training.precision", NULL, "the GPU %s has no %s peak; choose another "
		    "precision (%s) or give cluster.gpu.%s", g->name, scn__precision_names[p],
		    scn__precision_names[alt], scn__precision_names[p]);
	if (s->training.data.source == DATA_LOCAL_CACHE && !k->cache.present)
		ERR(c, d, "training.data.source", NULL, "local_cache needs a cluster.local_cache "
		    "section, e.g. 'local_cache: {bandwidth: 8GB/s, capacity: 30TB}'");
	const scn_checkpoint *ck = &s->training.checkpoint;
	if (ck->local_every > 0 && !k->cache.present)
		ERR(c, d, "training.checkpoint.local_every", NULL, "node-local checkpoints are "
		    "written to each node's drive: add a cluster.local_cache section, e.g. "
		    "'local_cache: {bandwidth: 8GB/s, capacity: 30TB}', or set local_every: 0");
	else if (ck->local_every > 0 && ck->local_copies > k->nodes &&
	         given(d, "training.checkpoint.local_copies"))
		ERR(c, d, "training.checkpoint.local_copies", NULL, "%d copies of each node's local "
		    "checkpoint need as many nodes, and the cluster has %d; use local_copies: %d or "
		    "fewer", ck->local_copies, k->nodes, k->nodes);
	const scn_training *t = &s->training;
	int gdp = scn_dp(s) * scn_cp(s);
	long long mp = (long long)t->tp * t->pp;
	int node = mp > 0 && k->gpus_per_node / mp >= 2 && gdp % (int)(k->gpus_per_node / mp) == 0
	           ? (int)(k->gpus_per_node / mp) : 0;   /* the data-parallel ranks of a node */
	char eg[80] = "";
	if (node)
		snprintf(eg, sizeof eg, ", e.g. 'zero_group: %d' (the data-parallel ranks of a node)",
		         node);
	if (t->zero_group == 1)
		ERR(c, d, "training.zero_group", NULL, "zero_group: 1 shards nothing (each GPU keeps "
		    "every state whole); use zero: 0 for that, or a group of 2 or more ranks%s", eg);
	else if (t->zero_group > 0 && gdp % t->zero_group)
		ERR(c, d, "training.zero_group", NULL, "zero_group (=%d) must divide the ranks that "
		    "hold the same weights, dp x cp = %d%s", t->zero_group, gdp, eg);
	else if (t->zero_group > 0 && t->zero_group < gdp && s->model.experts > 1)
		ERR(c, d, "training.zero_group", "model.experts", "zero_group is not modelled for a "
		    "mixture of experts (its experts shard over their own data-parallel group); use "
		    "zero_group: 0");
	else if (t->zero_group > 0 && t->zero == 0)
		scn__warn(c, scn__doc_path(d, "training.zero_group"), "training.zero_group",
		          "has no effect with zero: 0, which shards nothing");
	scn_grad_coll gc = t->grad_reduce.collective;
	if (gc == GRAD_COLL_ALL_REDUCE && t->zero >= 2)
		ERR(c, d, "training.grad_reduce.collective", "training.zero",
		    "zero: %d shards the gradients, which only a reduce-scatter leaves on each rank; "
		    "collective: all_reduce goes with zero: 1 (the optimizer state alone sharded: "
		    "PyTorch's ZeroRedundancyOptimizer, DeepSpeed's BF16_Optimizer) or zero: 0",
		    t->zero);
	else if (gc == GRAD_COLL_ALL_REDUCE && t->zero == 1 && t->zero_group > 0 &&
	         t->zero_group < gdp)
		ERR(c, d, "training.grad_reduce.collective", "training.zero_group",
		    "collective: all_reduce with zero_group is not modelled (the groups' shards are "
		    "reduce-scattered, then all-reduced across the groups); use collective: auto "
		    "or zero_group: 0");
	else if (gc == GRAD_COLL_REDUCE_SCATTER && t->zero == 0)
		ERR(c, d, "training.grad_reduce.collective", "training.zero",
		    "a reduce-scatter leaves each rank a shard of the gradients, and zero: 0 "
		    "updates whole ones; use zero: 1 or more, or collective: auto");
	if (t->grad_reduce.dtype == PREC_FP4)
		ERR(c, d, "training.grad_reduce.dtype", NULL, "gradients are not reduced in fp4 "
		    "(NVFP4 recipes reduce them in fp32 or bf16); use fp32, bf16 or fp8");
	if (t->grad_reduce.overlap_param_gather && t->zero != 1 && t->zero != 2)
		ERR(c, d, "training.grad_reduce.overlap_param_gather", "training.zero",
		    "overlap_param_gather needs the distributed optimizer (zero: 1 or 2), which "
		    "gathers the updated parameters; zero is %d", t->zero);
	else if (t->grad_reduce.overlap_param_gather && !t->grad_reduce.overlap)
		ERR(c, d, "training.grad_reduce.overlap_param_gather", "training.grad_reduce.overlap",
		    "overlap_param_gather needs overlap: true (Megatron requires "
		    "--overlap-grad-reduce with --overlap-param-gather)");
	else if (t->grad_reduce.overlap_param_gather && t->grad_reduce.sync == SYNC_ASYNC)
		ERR(c, d, "training.grad_reduce.overlap_param_gather", "training.grad_reduce.sync",
		    "overlap_param_gather applies to synchronous updates; with sync: async the "
		    "gather already trails the step");
	if (s->training.grad_reduce.algorithm == GRAD_ALGO_NVLS && g->nvls_eff <= 0)
		ERR(c, d, "training.grad_reduce.algorithm", NULL, "nvls needs NVLink SHARP "
		    "(Hopper or later NVSwitch) and %s has none; use ring, tree or auto", g->name);
	if (s->training.grad_reduce.algorithm == GRAD_ALGO_COLLNET && !s->cluster.fabric.sharp)
		ERR(c, d, "training.grad_reduce.algorithm", NULL, "collnet reduces in the switches "
		    "and needs 'sharp: true' under cluster.fabric (InfiniBand SHARP); use ring, tree "
		    "or auto");
	else if (s->training.grad_reduce.algorithm == GRAD_ALGO_COLLNET &&
	         s->cluster.intra.kind != INTRA_NVSWITCH && s->cluster.gpus_per_node > 1)
		ERR(c, d, "training.grad_reduce.algorithm", "cluster.intra_node", "collnet (NCCL's "
		    "CollNetDirect) needs NVSwitch nodes or one GPU a node; use ring, tree or auto");
	else if (s->training.grad_reduce.algorithm == GRAD_ALGO_COLLNET && scn_grad_rs(s))
		ERR(c, d, "training.grad_reduce.algorithm", "training.zero", "collnet is modelled "
		    "for all-reduces, and these gradients are reduce-scattered (ZeRO); use auto, or "
		    "'collective: all_reduce' under grad_reduce");
}

/* The split of the layers over the pipeline's chunks: plan.c's, given
 * first/last_stage_layers or the embedding and loss in the split. */
static void check_split(scn_ctx *c, scenario *s, const scn_doc *d)
{
	scn_training *t = &s->training;
	bool given = t->first_stage_layers > 0 || t->last_stage_layers > 0;
	bool heads = t->embedding_in_split || t->loss_in_split;
	int v = t->schedule == SCHED_INTERLEAVED && t->virtual_stages > 1 ? t->virtual_stages : 1;
	/* the key at fault: a first or last stage too small for its chunks */
	bool last = t->last_stage_layers > 0 &&
	            (t->first_stage_layers <= 0 || (t->first_stage_layers >= v &&
	                                            t->last_stage_layers < v));
	const char *key = given ? (last ? "training.last_stage_layers"
	                                : "training.first_stage_layers")
	                        : t->embedding_in_split ? "training.embedding_in_split"
	                                                : "training.loss_in_split";
	if (!given && !heads)
		return;
	if (heads && s->model.custom) {
		ERR(c, d, key, NULL, "a custom model has no embedding or loss layer to count in "
		    "the split; remove it");
		return;
	}
	if (!given && t->pp < 2) {
		scn__warn(c, scn__doc_path(d, key), key, "has no effect without pipeline stages "
		          "(pp >= 2)");
		return;
	}
	int layers = s->model.custom ? s->model.nlayers_custom : s->model.layers;
	char why[320];
	if (layers <= 0 && given && t->pp < 2)   /* a model given by its parameter count */
		ERR(c, d, key, NULL, "first_stage_layers and last_stage_layers need pp >= 2");
	else if (layers > 0 && plan_split_check(t, layers, t->pp, t->pp > 1 ? v : 1, why, sizeof why))
		ERR(c, d, key, NULL, "%s", why);
}

/* Pipeline schedule and layer split (uneven splits are allowed). */
static void check_pipeline(scn_ctx *c, scenario *s, const scn_doc *d)
{
	scn_training *t = &s->training;
	int layers = s->model.layers;
	/* the embedding and the loss may each take a chunk's place */
	int heads = (t->embedding_in_split ? 1 : 0) + (t->loss_in_split ? 1 : 0);
	if (t->pp > 1 && !layers)
		ERR(c, d, "training.pp", NULL, "pp > 1 needs model.layers to split the model into "
		    "stages");
	else if (t->pp > layers && layers && !heads)
		ERR(c, d, "training.pp", NULL, "pp (=%d) exceeds the layer count %d; each stage "
		    "needs at least one layer", t->pp, layers);
	if (t->schedule == SCHED_INTERLEAVED) {
		if (t->virtual_stages < 2)
			ERR(c, d, "training.virtual_stages", "training.schedule", "the interleaved "
			    "schedule needs virtual_stages >= 2, e.g. 'virtual_stages: 2'");
		if (t->pp < 2)
			ERR(c, d, "training.schedule", NULL, "interleaved needs pp >= 2; use 1f1b");
		else if (t->virtual_stages >= 2 && (long)t->pp * t->virtual_stages > layers && !heads)
			ERR(c, d, "training.virtual_stages", NULL, "pp*virtual_stages (=%ld) exceeds "
			    "the layer count %d; each model chunk needs a layer",
			    (long)t->pp * t->virtual_stages, layers);
	} else if (t->virtual_stages != 1) {
		scn__warn(c, scn__doc_path(d, "training.virtual_stages"), "training.virtual_stages",
		          "has no effect unless schedule is interleaved");
	}
	check_split(c, s, d);
}

/* fp32 and tf32 runs keep fp32 tensors, which the flash kernels do not take */
static bool fp32_run(const scenario *s)
{
	return s->training.precision == PREC_FP32 || s->training.precision == PREC_TF32;
}

/* false (with the error) when the cluster has more GPUs than trainsim builds */
static bool check_gpu_count(scn_ctx *c, const scenario *s, const scn_doc *d)
{
	long long gpus = (long long)s->cluster.nodes * s->cluster.gpus_per_node;
	if (gpus <= MAX_GPUS)
		return true;
	ERR(c, d, "cluster.nodes", NULL, "nodes*gpus_per_node (=%lld) exceeds the limit "
	    "of 1,000,000 GPUs", gpus);
	return false;
}

static void check_parallel(scn_ctx *c, scenario *s, const scn_doc *d)
{
	scn_training *t = &s->training;
	long long gpus = (long long)s->cluster.nodes * s->cluster.gpus_per_node;
	long long tpp = (long long)t->tp * t->pp * scn_cp(s);
	if (!check_gpu_count(c, s, d))
		return;
	if (gpus % tpp) {
		/* what would be right: a node count that holds whole groups, or
		 * the largest pp below this one that fits these GPUs */
		long long a = tpp, b = s->cluster.gpus_per_node;
		while (b) {
			long long r = a % b;
			a = b;
			b = r;
		}
		long long step = tpp / a, lo = s->cluster.nodes / step * step, hi = lo + step;
		char nodes[96], pps[48] = "";
		if (lo > 0)
			snprintf(nodes, sizeof nodes, "nodes a multiple of %lld (%lld or %lld)", step, lo, hi);
		else
			snprintf(nodes, sizeof nodes, "nodes a multiple of %lld (%lld)", step, hi);
		long long rest = (long long)t->tp * scn_cp(s);
		for (int pp = t->pp - 1; pp >= 1 && !pps[0]; pp--)
			if (gpus % (rest * pp) == 0)
				snprintf(pps, sizeof pps, ", or pp %d", pp);
		if (scn_cp(s) > 1)
			ERR(c, d, "training.cp", "training.tp", "tp*cp*pp (=%lld) must divide the GPU "
			    "count %lld: use %s%s", tpp, gpus, nodes, pps);
		else
			ERR(c, d, "training.tp", "training.pp", "tp*pp (=%lld) must divide the GPU "
			    "count %lld: use %s%s", tpp, gpus, nodes, pps);
		return;
	}
	int dp = (int)(gpus / tpp);
	if (t->dp && t->dp != dp)
		ERR(c, d, "training.dp", NULL, "dp (=%d) must equal GPUs/(tp*%spp) = %lld/%lld = %d; "
		    "remove dp or set it to %d", t->dp, scn_cp(s) > 1 ? "cp*" : "", gpus, tpp, dp, dp);
	if (scn_cp(s) > 1 && s->model.custom)
		ERR(c, d, "training.cp", NULL, "context parallelism splits a transformer's "
		    "sequences; a custom layer list has none: use cp: 1");
	else if (scn_cp(s) > 1 && !wl_gpu_fused_attention(&s->cluster.gpu))
		ERR(c, d, "training.cp", "cluster.gpu", "context parallelism runs on fused "
		    "(flash) attention, which %s has not; use cp: 1 or an Ampere or later GPU",
		    s->cluster.gpu.name);
	else if (scn_cp(s) > 1 && s->training.attention == ATTN_UNFUSED)
		ERR(c, d, "training.cp", "training.attention", "context parallelism runs on fused "
		    "(flash) attention; use attention: flash or auto, or cp: 1");
	else if (scn_cp(s) > 1 && fp32_run(s))
		ERR(c, d, "training.cp", "training.precision", "context parallelism runs on fused "
		    "(flash) attention, which takes 16-bit inputs, not %s; use bf16 or cp: 1",
		    hw_precision_name(s->training.precision));
	else if (scn_cp(s) > 1 && s->model.seq_len % (2 * scn_cp(s)))
		ERR(c, d, "training.cp", "model.seq_len", "seq_len (=%d) must be a multiple of "
		    "2*cp (=%d): each GPU takes two chunks of every sequence, one from each end, "
		    "to balance the causal attention", s->model.seq_len, 2 * scn_cp(s));
	t->dp = dp;
	bool fused = t->attention == ATTN_FLASH || t->attention == ATTN_FLASH2 ||
	             t->attention == ATTN_FLASH1;
	if (fused && fp32_run(s))
		ERR(c, d, "training.attention", "training.precision", "FlashAttention takes 16-bit "
		    "inputs (fp16, bf16), not %s: use attention: auto or unfused",
		    hw_precision_name(t->precision));
	else if (fused && !wl_gpu_fused_attention(&s->cluster.gpu))
		ERR(c, d, "training.attention", "cluster.gpu", "FlashAttention needs an Ampere or "
		    "later GPU; %s has none: use attention: auto or unfused", s->cluster.gpu.name);
	else if (t->attention == ATTN_FLASH1 && (s->cluster.gpu.arch == ARCH_BLACKWELL ||
	                                         s->cluster.gpu.arch == ARCH_BLACKWELL_RTX ||
	                                         hw_arch_is_amd(s->cluster.gpu.arch)))
		scn__warn(c, scn__doc_path(d, "training.attention"), "training.attention",
		          "FlashAttention 1 was never built for %s; it is timed as FlashAttention-2's "
		          "kernels there, 1.8x slower", s->cluster.gpu.name);
	else if (t->attention != ATTN_AUTO && s->model.custom)
		scn__warn(c, scn__doc_path(d, "training.attention"), "training.attention",
		          "has no effect on a custom model (no attention)");
	if (s->model.sliding_window > 0 && s->model.sliding_window < s->model.seq_len &&
	    !s->model.custom && (!wl_flash_attention(s) || t->attention == ATTN_FLASH1))
		scn__warn(c, scn__doc_path(d, "model.sliding_window"), "model.sliding_window",
		          "saves nothing on %s, which computes the whole masked score matrix; "
		          "the band is taken only by FlashAttention-2 (2.3 and later) and cuDNN's "
		          "kernels", t->attention == ATTN_FLASH1 ? "FlashAttention 1" :
		          "unfused attention");
	if (t->kernels != KERNELS_FUSED && s->model.custom)
		scn__warn(c, scn__doc_path(d, "training.kernels"), "training.kernels",
		          "has no effect on a custom model (its layers give their own bytes)");
	if (t->cross_entropy != CE_UNFUSED && s->model.custom)
		scn__warn(c, scn__doc_path(d, "training.cross_entropy"), "training.cross_entropy",
		          "has no effect on a custom model (it has no vocabulary head)");
	if (s->model.heads && s->model.heads % t->tp)
		ERR(c, d, "training.tp", NULL, "model.heads (=%d) must be divisible by tp (=%d)",
		    s->model.heads, t->tp);
	else if (s->model.kv_heads > 0 && s->model.kv_heads % t->tp)
		scn__warn(c, scn__doc_path(d, "training.tp"), "training.tp",
		          "model.kv_heads (=%d) is not divisible by tp (=%d): Megatron-core refuses "
		          "this; trainsim copies each key/value head to the tp/kv_heads ranks that share "
		          "it", s->model.kv_heads, t->tp);
	long long mbdp = (long long)t->micro_batch * dp;
	long long chunks = t->schedule == SCHED_INTERLEAVED && t->virtual_stages > 1 ?
	                   t->virtual_stages : 1;   /* a stage's model chunks */
	if (t->global_batch % mbdp) {
		long long lo = t->global_batch / mbdp * mbdp;
		ERR(c, d, "training.global_batch", NULL, "global_batch (=%d) must be a multiple "
		    "of micro_batch*dp (=%d*%d=%lld), e.g. %lld", t->global_batch, t->micro_batch,
		    dp, mbdp, lo ? lo : mbdp);
	} else if (t->global_batch / mbdp > SCN_MAX_MICROBATCHES) {
		ERR(c, d, "training.global_batch", NULL, "%lld micro-batches per step exceeds the "
		    "limit of %d; raise micro_batch", t->global_batch / mbdp, SCN_MAX_MICROBATCHES);
	} else if (t->pp > 1 && 2 * (t->global_batch / mbdp) * chunks * t->pp > SCN_MAX_SCHED_OPS) {
		/* the schedule's operations, as run builds them (models/sched.c) */
		ERR(c, d, "training.global_batch", NULL, "the pipeline schedule would have %lld "
		    "operations (2 x %lld micro-batches x %lld chunks x %d stages), above the limit "
		    "of %lld; raise micro_batch or use fewer virtual stages",
		    2 * (t->global_batch / mbdp) * chunks * t->pp, t->global_batch / mbdp, chunks,
		    t->pp, SCN_MAX_SCHED_OPS);
	} else if (t->schedule == SCHED_INTERLEAVED && t->pp > 1 && (t->global_batch / mbdp) % t->pp)
		/* Megatron-LM refuses it; trainsim's short last group can be slower
		 * than 1F1B (pp 8, m 17: +2%) */
		scn__warn(c, scn__doc_path(d, "training.schedule"), "training.schedule",
		          "interleaved with %lld micro-batches per pipeline, not a multiple of pp "
		          "(=%d): Megatron-LM refuses this; trainsim runs a short last group, which "
		          "can be slower than 1f1b", t->global_batch / mbdp, t->pp);
	if (!t->pp_scatter_gather && (t->tp == 1 || t->pp == 1 || t->sequence_parallel))
		scn__warn(c, scn__doc_path(d, "training.pp_scatter_gather"),
		          "training.pp_scatter_gather", "has no effect without tp > 1 and pp > 1, "
		          "nor with sequence parallelism (the message is the rank's shard)");
	if (t->sequence_parallel && t->tp == 1)
		scn__warn(c, scn__doc_path(d, "training.sequence_parallel"),
		          "training.sequence_parallel", "has no effect with tp 1");
	if (t->data.cache_warm && t->data.source != DATA_LOCAL_CACHE)
		scn__warn(c, scn__doc_path(d, "training.data.cache_warm"),
		          "training.data.cache_warm", "has no effect unless training.data.source is "
		          "local_cache (the data is read from %s)",
		          t->data.source == DATA_STORAGE ? "storage" : "memory");
	const scn_checkpoint *ck = &t->checkpoint;
	const scn_failures *fl = &t->failures;
	/* keys at other than their defaults (run writes every key back) that
	 * change nothing here */
	if (ck->mode != CKPT_ASYNC && ck->snapshot_overhead_s != SCN_SNAPSHOT_OVERHEAD_S &&
	    given(d, "training.checkpoint.snapshot_overhead"))
		scn__warn(c, scn__doc_path(d, "training.checkpoint.snapshot_overhead"),
		          "training.checkpoint.snapshot_overhead", "has no effect unless "
		          "training.checkpoint.mode is async (a sync write blocks for all of it)");
	if (ck->local_every == 0 && ck->local_copies != SCN_LOCAL_COPIES &&
	    given(d, "training.checkpoint.local_copies"))
		scn__warn(c, scn__doc_path(d, "training.checkpoint.local_copies"),
		          "training.checkpoint.local_copies", "has no effect without "
		          "training.checkpoint.local_every");
	bool fails = scn_failures_on(fl);
	if (fails && ck->every > 0 && ck->content == CKPT_WEIGHTS && t->peft != PEFT_LORA)
		scn__warn(c, scn__doc_path(d, "training.checkpoint.content"),
		          "training.checkpoint.content", "weights holds no optimizer state: a restart "
		          "from it loses Adam's moments, which training cannot resume exactly; the "
		          "failure model still resumes from it (use full or sharded)");
	if (!fl->reload && given(d, "training.failures.reload") &&
	    (!fails || (ck->every == 0 && ck->local_every == 0)))
		scn__warn(c, scn__doc_path(d, "training.failures.reload"), "training.failures.reload",
		          "has no effect %s", !fails ? "without failures (gpu_mtbf, node_mtbf or "
		          "link_mtbf)" : "without checkpoints: each restart starts the run over, "
		          "with nothing to read back");
	if (t->recompute_layers > 0 && t->recompute != RECOMPUTE_FULL)
		scn__warn(c, scn__doc_path(d, "training.recompute_layers"),
		          "training.recompute_layers", "has no effect without 'recompute: full'");
	if (t->peft == PEFT_LORA && s->model.hidden > 0 && t->lora_rank > s->model.hidden)
		ERR(c, d, "training.lora_rank", NULL, "%d is above the model's hidden size (%d): a "
		    "low-rank adapter's rank is a few to a few hundred (16, 32, 64)", t->lora_rank,
		    s->model.hidden);
	if (t->peft == PEFT_LORA && s->model.custom)
		ERR(c, d, "training.peft", NULL, "LoRA adapts a transformer's linear layers; a custom "
		    "model's layers have no shapes to adapt: use 'peft: none'");
	if (t->recompute_layers > 0 && s->model.custom)
		ERR(c, d, "training.recompute_layers", NULL, "a custom model recomputes all its "
		    "layers or none; remove recompute_layers");
	if (t->grad_accum_pass && t->precision != PREC_BF16 && !hw_prec_scaled(t->precision))
		scn__warn(c, scn__doc_path(d, "training.grad_accum_pass"),
		          "training.grad_accum_pass", "has no effect with fp16 or fp32, whose "
		          "gradients are always added in a pass of their own");
	if (t->optimizer_bytes_per_param > 0) {
		/* the total per parameter holds the weights and gradients too */
		double w, g, o, dw, dg, do_;
		wl_state_bytes(s, &w, &g, &o);
		scenario adam = *s;          /* the precision's default: mixed-precision Adam */
		adam.training.optimizer_bytes_per_param = 0;
		wl_state_bytes(&adam, &dw, &dg, &do_);
		if (t->optimizer_bytes_per_param < w + g)
			ERR(c, d, "training.optimizer_bytes_per_param", NULL, "%g B/param is below the "
			    "weights and gradients alone (%g + %g in %s): it counts all three, e.g. %g "
			    "for Adam", t->optimizer_bytes_per_param, w, g,
			    hw_precision_name(t->precision), dw + dg + do_);
	}
}

/* Mixture of experts: the routing and the expert-parallel layout. Megatron-core
 * forms an expert-parallel group of ep ranks out of the data-parallel ones
 * (and the TP ranks when experts are not tensor-parallel): docs/workload.md. */
static void check_moe(scn_ctx *c, scenario *s, const scn_doc *d)
{
	const scn_model *m = &s->model;
	scn_training *t = &s->training;
	if (m->experts <= 1) {
		/* MoE keys at other than their defaults (a normalized dense
		 * scenario writes them all at their defaults) */
		const struct { const char *key; bool set; } keys[] = {
			{"model.top_k", m->top_k != 1},
			{"model.expert_ffn_hidden", m->expert_ffn_hidden != 0},
			{"model.shared_expert_ffn_hidden", m->shared_expert_ffn_hidden != 0},
			{"model.dense_layers", m->dense_layers != 0},
			{"training.ep", t->ep != 1},
			{"training.expert_tp", t->expert_tp != 0},
			{"training.ep_overlap", t->ep_overlap},
			{"training.ep_dispatcher", t->ep_dispatcher != EP_DISPATCH_ALLTOALL},
			{"training.expert_imbalance", t->expert_imbalance != 1}};
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (keys[i].set && given(d, keys[i].key))
				scn__warn(c, scn__doc_path(d, keys[i].key), keys[i].key, "has no "
				          "effect on a dense model; set model.experts (e.g. 'experts: "
				          "8') for a mixture of experts");
		t->ep = 1;
		return;
	}
	if (m->custom)
		return;
	if (m->params > 0 && given(d, "model.params"))
		ERR(c, d, "model.experts", "model.params", "a mixture of experts needs its shape "
		    "(layers, hidden, heads, expert_ffn_hidden), not a parameter count: the "
		    "generic shape is a dense model's");
	if (m->top_k > m->experts)
		ERR(c, d, "model.top_k", NULL, "top_k (=%d) exceeds experts (=%d): a token goes "
		    "to top_k different experts", m->top_k, m->experts);
	if (m->dense_layers >= m->layers && m->layers)
		ERR(c, d, "model.dense_layers", NULL, "dense_layers (=%d) leaves no MoE layer of "
		    "the %d; use fewer, or experts: 1 for a dense model", m->dense_layers, m->layers);
	if (m->experts % t->ep)
		ERR(c, d, "training.ep", "model.experts", "ep (=%d) must divide experts (=%d): "
		    "each expert-parallel rank holds experts/ep of them", t->ep, m->experts);
	if (t->expert_tp != 1 && t->expert_tp != t->tp)
		ERR(c, d, "training.expert_tp", NULL, "expert_tp (=%d) must be 1 or tp (=%d)",
		    t->expert_tp, t->tp);
	long long across = (long long)t->dp * scn_cp(s) * (t->expert_tp == 1 ? t->tp : 1);
	if (across > 0 && across % t->ep)
		ERR(c, d, "training.ep", NULL, "ep (=%d) must divide the %lld ranks an expert-"
		    "parallel group is drawn from (dp x cp%s = %lld)", t->ep, across,
		    t->expert_tp == 1 ? " x tp, experts not tensor-parallel" : "", across);
	if (t->ep_overlap && t->ep <= 1)
		scn__warn(c, scn__doc_path(d, "training.ep_overlap"), "training.ep_overlap",
		          "has no effect with ep 1 (no all-to-all)");
	/* DeepEP forwards a node's tokens over NVLink through the NVSwitch: its
	 * intranode kernels need NVLink between every pair of GPUs */
	if (t->ep_dispatcher == EP_DISPATCH_DEEPEP && s->cluster.intra.kind != INTRA_NVSWITCH)
		ERR(c, d, "training.ep_dispatcher", NULL, "deepep forwards tokens over NVLink through an "
		    "NVSwitch inside the node, and intra_node is %s; use ep_dispatcher: alltoall",
		    s->cluster.intra.kind == INTRA_PCIE ? "pcie" : "nvlink-mesh");
	else if (t->ep_dispatcher == EP_DISPATCH_DEEPEP && t->ep <= 1)
		scn__warn(c, scn__doc_path(d, "training.ep_dispatcher"), "training.ep_dispatcher",
		          "has no effect with ep 1 (no all-to-all)");
	if (t->expert_imbalance != 1 && t->ep <= 1 && given(d, "training.expert_imbalance"))
		scn__warn(c, scn__doc_path(d, "training.expert_imbalance"),
		          "training.expert_imbalance", "has no effect with ep 1 (every GPU runs every "
		          "expert's tokens)");
	if (across > 0 && across % t->ep == 0 && across / t->ep > 1 && (long long)t->dp * scn_cp(s) == 1)
		ERR(c, d, "training.ep", "training.expert_tp", "with dp 1 and expert_tp 1, ep (=%d) "
		    "below tp leaves %lld copies of each expert on the TP ranks, whose gradient "
		    "reduction is not simulated without data parallelism; use ep = tp (=%d)",
		    t->ep, across / t->ep, t->tp);
	if (t->tp > 1 && !t->sequence_parallel)
		ERR(c, d, "training.sequence_parallel", "training.tp", "a mixture of experts with "
		    "tp > 1 needs 'sequence_parallel: true' (Megatron-core requires it: each TP "
		    "rank routes its own share of the tokens)");
}

/* Stragglers that cannot show: each GPU is drawn slow with probability
 * straggler_fraction, once per run (models/step_var.c), so a fraction below
 * one GPU of the job often draws none, and a slowdown of 1 slows nothing. */
static void check_variability(scn_ctx *c, const scenario *s, const scn_doc *d)
{
	const scn_variability *v = &s->run.variability;
	const char *fp = "run.variability.straggler_fraction";
	const char *sp = "run.variability.straggler_slowdown";
	const char *np = "run.variability.straggler_gpus";
	double gpus = (double)s->cluster.nodes * s->cluster.gpus_per_node;
	if (v->straggler_gpus > gpus)
		ERR(c, d, np, NULL, "%d slow GPUs of %.0f; at most the job's GPUs",
		    v->straggler_gpus, gpus);
	else if (v->straggler_gpus > 0 && v->straggler_fraction > 0)
		ERR(c, d, np, fp, "give straggler_gpus (how many, exactly) or straggler_fraction (each "
		    "GPU's probability), not both");
	else if (v->straggler_gpus > 0 && !(v->straggler_slowdown > 1))
		scn__warn(c, scn__doc_path(d, np), np, "has no effect without straggler_slowdown "
		          "above 1 (e.g. 'straggler_slowdown: 1.5')");
	else if (v->straggler_gpus > 0)
		;   /* a number, not a draw: nothing to warn about */
	else if (v->straggler_fraction > 0 && !(v->straggler_slowdown > 1))
		scn__warn(c, scn__doc_path(d, fp), fp, "has no effect without straggler_slowdown "
		          "above 1 (e.g. 'straggler_slowdown: 1.2')");
	else if (v->straggler_slowdown > 1 && !(v->straggler_fraction > 0))
		scn__warn(c, scn__doc_path(d, sp), sp, "has no effect without straggler_fraction "
		          "above 0 or straggler_gpus (e.g. 'straggler_gpus: 1')");
	else if (v->straggler_fraction > 0 && v->straggler_fraction * gpus < 1)
		scn__warn(c, scn__doc_path(d, fp), fp, "%g of %.0f GPUs is %.2g GPU: each GPU is "
		          "drawn slow with that probability once per run, and %.0f%% of seeds draw "
		          "none (this run.seed may too); use at least %.2g for one slow GPU on "
		          "average, or 'straggler_gpus: 1' for exactly one", v->straggler_fraction, gpus,
		          v->straggler_fraction * gpus, 100 * pow(1 - v->straggler_fraction, gpus),
		          1 / gpus);
}

void scn__check(scn_ctx *c, scenario *s, const scn_doc *d)
{
	derive(s, d);
	if (c->cluster_only) {
		if (check_gpu_count(c, s, d))
			check_cluster(c, s, d);
		return;
	}
	check_model(c, s, d);
	check_cluster(c, s, d);
	check_training_on_cluster(c, s, d);
	check_parallel(c, s, d);
	check_pipeline(c, s, d);
	check_moe(c, s, d);
	check_variability(c, s, d);
	if (s->model.custom && !s->training.data.sample_bytes &&
	    s->training.data.source != DATA_MEMORY)
		ERR(c, d, "training.data.sample_bytes", "training.data.source", "a custom model "
		    "read from %s needs sample_bytes, e.g. 'sample_bytes: 110KB'",
		    s->training.data.source == DATA_STORAGE ? "storage" : "local_cache");
}
