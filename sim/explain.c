/* explain.c: the step in plain words, for students and for whoever must
 * decide what to fix first. Where it can, it simulates the alternatives it
 * names (one node, each candidate fix) instead of guessing their effect. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "explain.h"
#include "report.h"
#include "topo.h"
#include "scn.h"
#include "units.h"
#include "workload.h"

#define MAX_FIX 12
#define MAX_FIX_SETS 3
#define SIGNIFICANT 0.05     /* a loss under 5 % of the step is not worth a fix */

typedef struct fix {
	char what[160];
	char set[MAX_FIX_SETS][80];
	int nset;
	bool ran;
	bool hardware;           /* tried after the software fixes */
	bool speculative;        /* dropped unless its run is 2% faster (whether the
	                          * bottleneck's group rides it is the plan's to say) */
	double step_s, tokens_per_s;
	bool needs_gain;         /* dropped unless its run is 1% faster (proposed for the
	                          * compute it saves, which another bound may hide) */
	double per_mtok;         /* cost of a million tokens with the fix (0: not priced) */
	bool fits;               /* the variant fits in GPU memory */
	double mem_ratio;        /* its memory over the capacity */
	char why[160];           /* why it could not run: the loader's first line */
	char slower[320];        /* why it may come out slower, said when it does */
} fix;

typedef struct ctx {
	FILE *out;
	const scenario *s;
	const step_result *r;
	const explain_src *src;
	fix fixes[MAX_FIX];
	int nfix;
	int section;             /* number of the last section printed */
} ctx;

/* Prints a paragraph wrapped at REPORT_WRAP columns; continuation lines are
 * indented by `indent` spaces, the first line by `first`. */
static void para(FILE *out, int first, int indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void para(FILE *out, int first, int indent, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	report_wrap(out, first, indent, buf);
}

/* Quantities keep their number and unit on one line. */
static const char *glue(char *b)
{
	for (char *p = b; *p; p++)
		if (*p == ' ')
			*p = REPORT_NBSP;
	return b;
}

static const char *fmt_t(char *b, size_t n, double v)
{
	unit_fmt(b, n, v, UNIT_TIME);
	return glue(b);
}

static const char *fmt_b(char *b, size_t n, double v)
{
	unit_fmt(b, n, v, UNIT_BYTES);
	return glue(b);
}

static const char *fmt_bw(char *b, size_t n, double v)
{
	unit_fmt(b, n, v, UNIT_BANDWIDTH);
	return glue(b);
}

/* The links inside a node as the report names them. */
static const char *intra_link_name(const scenario *s)
{
	if (hw_intra_bridged(&s->cluster.intra))
		return "PCIe and NVLink bridges";
	if (s->cluster.intra.kind == INTRA_PCIE)
		return "PCIe";
	return hw_arch_is_amd(s->cluster.gpu.arch) ? "Infinity Fabric" : "NVLink";
}

static double frac(const step_result *r, step_split k)
{
	return r->step_time_s > 0 ? r->split_s[k] / r->step_time_s : 0;
}

static const char *const loss_words[SPLIT__N] = {
	"computing", "exposed tensor-parallel communication", "exposed pipeline send/receive",
	"the pipeline bubble", "exposed data-parallel gradient reduction",
	"waiting for training data", "checkpoint stalls", "the optimizer step",
	"other idle time (waiting for a heavier pipeline stage or slower GPUs)",
};

/* The words for a loss; with expert parallelism, tp_comm holds the
 * expert all-to-all. */
static const char *loss_word(const ctx *c, int k)
{
	const scenario *s = c->s;
	if (k == SPLIT_TP_COMM && s->model.experts > 1 && s->training.ep > 1)
		return s->training.tp > 1 ? "exposed tensor-parallel and expert all-to-all "
		                            "communication" : "the exposed expert all-to-all";
	return loss_words[k];
}

/* Losses (everything but compute), largest first. */
static int losses(const step_result *r, int *order)
{
	int n = 0;
	for (int k = 1; k < SPLIT__N; k++)
		if (r->split_s[k] > 0)
			order[n++] = k;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && r->split_s[order[j]] > r->split_s[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	return n;
}

/* ---- variants: the same scenario with a few more overrides ---- */

static int run_variant(const explain_src *src, char (*extra)[80], int nextra, step_result *vr,
                       char *why, size_t whylen)
{
	int n = src->nsets + nextra, rc = -1;
	if (why && whylen)
		why[0] = 0;
	const char **sets = malloc(sizeof *sets * (size_t)(n > 0 ? n : 1));
	char *sink_buf = NULL;
	size_t sink_len = 0;
	FILE *sink = open_memstream(&sink_buf, &sink_len);   /* the loader's messages */
	scenario v;
	if (!sets || !sink)
		goto out;
	for (int i = 0; i < src->nsets; i++)
		sets[i] = src->sets[i];
	for (int i = 0; i < nextra; i++)
		sets[src->nsets + i] = extra[i];
	if (scn_load(src->path, sets, n, &v, sink, true) != 0)
		goto out;
	step_opts o = {.want_timeline = false, .max_events = 0};
	char err[256];
	memset(vr, 0, sizeof *vr);
	rc = step_run(&v, &o, vr, err, sizeof err);
	scn_release(&v);
	if (rc < 0 && why) {
		size_t k = strcspn(err, "\n");
		k = k < whylen ? k : whylen - 1;
		memcpy(why, err, k);
		why[k] = 0;
	}
out:
	if (sink)
		fclose(sink);
	/* the loader's first message, without the file's name */
	if (why && rc < 0 && !why[0] && sink_buf && sink_buf[0]) {
		const char *m = sink_buf, *colon = strstr(m, ": ");
		if (colon && !strncmp(m, src->path, strlen(src->path)))
			m = colon + 2;
		snprintf(why, whylen, "%.*s", (int)strcspn(m, "\n"), m);
	}
	free(sink_buf);
	free(sets);
	return rc < 0 ? -1 : 0;
}

static fix *add_fix(ctx *c, const char *what)
{
	if (c->nfix >= MAX_FIX)
		return NULL;
	fix *f = &c->fixes[c->nfix++];
	memset(f, 0, sizeof *f);
	snprintf(f->what, sizeof f->what, "%s", what);
	return f;
}

static void fix_set(fix *f, const char *fmt, ...)
{
	va_list ap;
	if (!f || f->nset >= MAX_FIX_SETS)
		return;
	va_start(ap, fmt);
	vsnprintf(f->set[f->nset++], sizeof f->set[0], fmt, ap);
	va_end(ap);
}

static void fixes_dp(ctx *c)
{
	char what[160];
	const scn_training *t = &c->s->training;
	const scn_grad_reduce *g = &t->grad_reduce;
	if (!g->overlap)
		fix_set(add_fix(c, "overlap the gradient reduction with the backward pass"),
			"training.grad_reduce.overlap=true");
	/* accumulation saves reductions only where they wait for the last
	 * micro-batch (not with sharded gradients, reduced after each) */
	if (!wl_grad_every_micro_batch(c->s))
		fix_set(add_fix(c, "accumulate gradients over twice as many micro-batches, a larger "
			"global batch (check that convergence allows it)"), "training.global_batch=%d",
			2 * t->global_batch);
	if (c->r->dp_syncs_per_step > 1)
		fix_set(add_fix(c, "reduce the gradients once per step, after the last micro-batch "
			"(FSDP's no_sync), holding them whole in memory until then"),
			"training.grad_reduce.every_micro_batch=false");
	/* HSDP: ZeRO inside each node, replicated across nodes */
	int per = c->r->dp_ranks_per_node, gdp = scn_dp(c->s) * scn_cp(c->s);
	if (t->zero >= 1 && t->zero_group == 0 && c->r->dp_crosses_nodes && per > 1 &&
	    gdp % per == 0 && c->s->model.experts <= 1)
	{
		fix *f = add_fix(c, "shard ZeRO inside each node and replicate it across nodes (HSDP): "
			"the parameter gathers stay on the node's links, for more memory per GPU");
		fix_set(f, "training.zero_group=%d", per);
		if (t->grad_reduce.collective == GRAD_COLL_ALL_REDUCE)
			fix_set(f, "training.grad_reduce.collective=auto");   /* groups reduce-scatter */
	}
	/* Megatron-core's bucket, max(40M, 1M x dp) parameters: each bucket pays
	 * NCCL's latency once (ZeRO-3 reduces whole layers already) */
	double mcore = fmax(40e6, 1e6 * scn_dp(c->s) * scn_cp(c->s)) * hw_precision_bytes(g->dtype);
	if (t->zero < 3 && g->bucket_bytes < 0.99 * mcore && c->r->dp_latency_s > 0) {
		char lat[32];
		snprintf(what, sizeof what, "larger gradient buckets, Megatron-core's max(40M, 1M x "
			 "dp x cp) parameters (%.0f collectives now pay %s of latency)",
			 c->r->dp_collectives_per_step, fmt_t(lat, sizeof lat, c->r->dp_latency_s));
		fix_set(add_fix(c, what), "training.grad_reduce.bucket=%.0fMB", mcore / 1e6);
	}
	if (g->compression == COMPRESS_NONE)
		fix_set(add_fix(c, g->dtype == PREC_FP32 ? "send gradients as fp16"
			: "compress gradients to int8 (with error feedback)"),
			"training.grad_reduce.compression=%s", g->dtype == PREC_FP32 ? "fp16" : "int8");
	/* NCCL's tuner picks by its own model of the links, which does not see a
	 * thin link between zones or an oversubscribed spine: try the ring */
	if (g->algorithm == GRAD_ALGO_AUTO && c->r->dp_crosses_nodes &&
	    (!strcmp(c->r->dp_algorithm, "tree") || !strcmp(c->r->dp_algorithm, "nvlstree")))
		fix_set(add_fix(c, "force the ring algorithm (NCCL_ALGO=Ring): NCCL's tuner chose "
			"the tree by its model of the links, which does not see every link's load"),
			"training.grad_reduce.algorithm=ring");
	/* switches that reduce (InfiniBand SHARP) halve a NIC's all-reduce bytes:
	 * a property of the switches (hardware), which a link between zones has
	 * none of */
	if (c->r->dp_crosses_nodes && !c->s->cluster.fabric.sharp && !scn_grad_rs(c->s) &&
	    c->s->cluster.nic.transport == TRANSPORT_RDMA && g->algorithm == GRAD_ALGO_AUTO &&
	    c->s->cluster.fabric.topology != TOPO_ZONES && c->r->dp_naive_zone_Bps <= 0 &&
	    (c->s->cluster.intra.kind == INTRA_NVSWITCH || c->s->cluster.gpus_per_node == 1) &&
	    c->s->cluster.nic.count >= c->s->cluster.gpus_per_node) {   /* NCCL's tuner needs a NIC a GPU */
		fix *f = add_fix(c, "reduce in the switches (InfiniBand SHARP switches, "
			"NCCL_COLLNET_ENABLE=1): each NIC sends its slice once instead of 2(n-1)/n of it");
		if (f)
			f->hardware = true;
		fix_set(f, "cluster.fabric.sharp=true");
	}
	/* a DP group inside one node has no inter-node step to save; ZeRO
	 * reduce-scatters, which the two-level all-reduce is not */
	if (c->r->dp_crosses_nodes && g->algorithm != GRAD_ALGO_HIERARCHICAL && !scn_grad_rs(c->s)) {
		snprintf(what, sizeof what, "reduce inside each node over %s first (hierarchical "
			 "all-reduce)", cluster_intra_phrase(&c->s->cluster));
		fix_set(add_fix(c, what), "training.grad_reduce.algorithm=hierarchical");
	}
}

static void fixes_pp(ctx *c)
{
	const scn_training *t = &c->s->training;
	if (t->micro_batch >= 2)
		fix_set(add_fix(c, "halve the micro-batch, which doubles the micro-batches that fill "
			"the pipeline"), "training.micro_batch=%d", t->micro_batch / 2);
	else
		fix_set(add_fix(c, "double the global batch, which doubles the micro-batches that "
			"fill the pipeline"), "training.global_batch=%d", 2 * t->global_batch);
	if (t->schedule != SCHED_INTERLEAVED) {
		fix *f = add_fix(c, t->schedule == SCHED_DEEPSPEED
				 ? "interleave the pipeline (2 virtual stages per GPU; Megatron's "
				   "schedule: DeepSpeed's engine cannot)"
				 : "interleave the pipeline (2 virtual stages per GPU)");
		fix_set(f, "training.schedule=interleaved");
		fix_set(f, "training.virtual_stages=2");
	}
}

static void fixes_tp(ctx *c)
{
	const scn_training *t = &c->s->training;
	int g = c->s->cluster.gpus_per_node, cp = scn_cp(c->s);
	/* the expert all-to-all beside another micro-batch's compute */
	if (c->s->model.experts > 1 && t->ep > 1 && !t->ep_overlap)
		fix_set(add_fix(c, "overlap the expert all-to-all with compute (Megatron-core's "
			"--overlap-moe-expert-parallel-comm, DeepSeek's DualPipe)"),
		        "training.ep_overlap=true");
	if (c->s->model.experts > 1 && t->ep > 1 && c->r->ep_crosses_nodes) {
		/* the expert all-to-all crosses the NICs: Megatron-core's rank order
		 * keeps an expert-parallel group of up to a node's GPUs inside it */
		if (t->placement != PLACE_TP_DP_PP)
			fix_set(add_fix(c, "place the data-parallel (and expert-parallel) ranks "
				"inside the pipeline stages, Megatron-core's order, so that the expert "
				"all-to-all stays in a node"), "training.placement=tp-dp-pp");
		/* a node-sized ep, where it divides the experts and the ranks, with
		 * Megatron-core's order (under tp-pp-dp a pipeline sits between) */
		int etp = t->expert_tp > 0 ? t->expert_tp : t->tp;
		int inside = g / (etp == 1 ? 1 : t->tp);
		long ranks = (long)scn_dp(c->s) * cp * (etp == 1 ? t->tp : 1);
		if (inside >= 2 && inside < t->ep && c->s->model.experts % inside == 0 &&
		    ranks % inside == 0) {
			fix *f = add_fix(c, "split the experts over fewer GPUs, those of one node "
				"(more expert weights per GPU)");
			fix_set(f, "training.ep=%d", inside);
			if (t->placement != PLACE_TP_DP_PP)
				fix_set(f, "training.placement=tp-dp-pp");
		}
	}
	if (cp > 1 && t->tp * cp > g && g % t->tp == 0 && (g / t->tp) > 1 && cp % (g / t->tp) == 0) {
		/* the K/V ring crosses nodes: keep cp inside a node, the rest as replicas */
		int inside = g / t->tp, dp = scn_dp(c->s) * (cp / inside);
		int mb = t->micro_batch > 0 ? t->micro_batch : 1;
		fix *f = add_fix(c, "keep context parallelism inside a node (the sequences' other "
			"parts become data-parallel replicas: more memory per GPU)");
		fix_set(f, "training.cp=%d", inside);
		if (t->global_batch % (mb * dp))   /* every replica needs whole micro-batches */
			fix_set(f, "training.global_batch=%d", t->global_batch * (cp / inside));
		return;
	}
	if (t->tp > g && t->tp % g == 0) {
		fix *f = add_fix(c, "keep tensor parallelism inside a node and make up the "
			"difference with pipeline stages");
		fix_set(f, "training.tp=%d", g);
		fix_set(f, "training.pp=%d", t->pp * (t->tp / g));
		return;
	}
	if (!t->sequence_parallel && t->tp > 1) {
		fix *f = add_fix(c, "turn on sequence parallelism");
		fix_set(f, "training.sequence_parallel=true");
		if (f)
			snprintf(f->slower, sizeof f->slower, "slower: each all-reduce becomes a "
				 "reduce-scatter and an all-gather of the same bytes, the backward adds an "
				 "all-gather that no GEMM hides%s; it saves activation memory",
				 t->tp <= g && coll_node_nvls(&c->s->cluster, t->tp)
				 ? ", and this node's NVSwitch reduces an all-reduce faster per byte "
				   "(NVLS) than the ring pair" : "");
	}
	/* less tensor parallelism: fewer, larger collectives per layer, paid for
	 * with a longer pipeline (its bubble) and more activations per GPU; a
	 * dense model (a MoE's expert groups have their own fixes above), every
	 * virtual stage still holding a layer */
	int v = t->schedule == SCHED_INTERLEAVED && t->virtual_stages > 1 ? t->virtual_stages : 1;
	if (t->tp >= 2 && t->tp % 2 == 0 && !c->s->model.custom && c->s->model.experts <= 1 &&
	    c->s->model.layers >= 2 * t->pp * v) {
		fix *f = add_fix(c, "halve tensor parallelism and double the pipeline stages "
			"(a longer pipeline, more activation memory per GPU)");
		fix_set(f, "training.tp=%d", t->tp / 2);
		fix_set(f, "training.pp=%d", 2 * t->pp);
	}
}

/* A purchase proposed as a fix: hardware, and no advice unless its run
 * gains (fix->needs_gain). NULL when the list is full. */
static fix *add_purchase(ctx *c, const char *what)
{
	fix *f = add_fix(c, what);
	if (f) {
		f->hardware = true;
		f->needs_gain = true;
	}
	return f;
}

/* Whether the node-local checkpoints cost the step more than the storage
 * ones (their stall per step against the rest of the checkpoint share). */
static bool local_ckpt_costs_most(const ctx *c)
{
	const step_checkpoint *ck = &c->r->checkpoint;
	double local = ck->local_every > 0 ? ck->local_stall_s / ck->local_every : 0;
	return local > 0 && local >= ck->amortized_s - local;
}

static void fixes_storage(ctx *c, step_split k)
{
	const scn_training *t = &c->s->training;
	if (k == SPLIT_DATA_STALL) {
		if (c->s->cluster.cache.present && t->data.source == DATA_STORAGE) {
			fix *f = add_fix(c, "read from the node-local NVMe cache, once it holds the "
				"data set (after the first epoch)");
			fix_set(f, "training.data.source=local_cache");
			fix_set(f, "training.data.cache_warm=true");
		}
		/* a queue hides the reads behind compute; a deeper one adds nothing
		 * when they are slower than the compute (a rate, step after step) */
		if (t->data.prefetch <= 0)
			fix_set(add_fix(c, "prefetch batches while the GPUs compute"),
				"training.data.prefetch=2");
		return;
	}
	if (t->checkpoint.mode == CKPT_SYNC)
		fix_set(add_fix(c, "write checkpoints asynchronously (snapshot to host memory, then "
			"write while training continues)"), "training.checkpoint.mode=async");
	/* the tier that costs the step more */
	const step_checkpoint *ck = &c->r->checkpoint;
	if (local_ckpt_costs_most(c)) {
		int best = c->r->best_local_checkpoint_every;
		fix_set(add_fix(c, "checkpoint to the node-local drives less often"),
			"training.checkpoint.local_every=%d",
			best > ck->local_every ? best : 4 * ck->local_every);
		return;
	}
	if (t->checkpoint.every <= 0)
		return;
	int every = c->r->best_checkpoint_every > t->checkpoint.every ? c->r->best_checkpoint_every
		: 4 * t->checkpoint.every;
	fix_set(add_fix(c, "checkpoint less often"), "training.checkpoint.every=%d", every);
}

/* Waiting for a heavier pipeline stage: the last also computes the logits
 * and the loss over the vocabulary, so a layer fewer there (Megatron's
 * --decoder-last-pipeline-num-layers), where nothing set the split yet. */
static void fixes_stages(ctx *c)
{
	const scn_training *t = &c->s->training;
	int v = t->schedule == SCHED_INTERLEAVED && t->virtual_stages > 1 ? t->virtual_stages : 1;
	int per = t->pp > 1 ? c->s->model.layers / t->pp : 0;
	if (t->pp < 2 || c->s->model.custom || t->first_stage_layers > 0 ||
	    t->last_stage_layers > 0 || t->embedding_in_split || t->loss_in_split || per - 1 < v)
		return;
	fix *f = add_fix(c, "a layer fewer on the last pipeline stage, which also computes the "
		"logits and the loss (Megatron's --decoder-last-pipeline-num-layers)");
	fix_set(f, "training.last_stage_layers=%d", per - 1);
	if (f)
		f->needs_gain = true;   /* the wait may be another stage's or replica's */
}

/* NVLink bridges for a PCIe box, tried as variants (below). */
static void fix_bridges(ctx *c, step_split k)
{
	/* PCIe cards that take NVLink bridges, where the bottleneck is
	 * communication inside a node: each group size the card's bridges make
	 * (a divisor of bridge_gpus that divides the node, or the smallest that
	 * holds a smaller node), larger than any bridge it has, tried as a
	 * variant (a group of the plan's rides a bridge only when its ranks share
	 * a group: TP 2 in pairs, pipeline neighbours, DP ranks tp apart) and
	 * kept only where its run is faster, the fastest of them (try_fixes). A
	 * card that has PCIe peer-to-peer but runs with it off is told to turn it
	 * on first (fix_shm): with NCCL_P2P_DISABLE=1 no bridge carries anything. */
	const scn_cluster *cl = &c->s->cluster;
	const hw_gpu *g = &cl->gpu;
	int gpn = cl->gpus_per_node;
	if (!(k == SPLIT_TP_COMM || (k == SPLIT_DP_COMM && !c->r->dp_crosses_nodes) ||
	      (k == SPLIT_PP_COMM && !c->r->pp_crosses_nodes)) ||
	    cl->intra.kind != INTRA_PCIE || g->bridge_Bps <= 0 || gpn < 2 ||
	    (cl->intra.p2p == P2P_OFF && !g->no_p2p))
		return;
	int most = g->bridge_gpus > 1 ? g->bridge_gpus : 2;
	bool partial = false;
	for (int bg = 2; bg <= most; bg++) {
		if (most % bg || bg <= cl->intra.bridge)
			continue;
		if (gpn % bg && bg < gpn)
			continue;
		if (bg > gpn) {   /* one group larger than the node: the smallest */
			if (partial)
				continue;
			partial = true;
		}
		char what[128], bw[32], group[24];
		unit_fmt(bw, sizeof bw, 2 * g->bridge_Bps, UNIT_BANDWIDTH);
		if (bg == 2)
			snprintf(group, sizeof group, "in pairs");
		else
			snprintf(group, sizeof group, "%d to a group", bg);
		snprintf(what, sizeof what, "join the cards by NVLink bridges, %s (%s both ways a "
		         "card)", group, glue(bw));
		fix *f = add_fix(c, what);
		if (f) {
			f->hardware = f->speculative = true;
			fix_set(f, "cluster.intra_node.nvlink_bridge=%d", bg);
		}
	}
}

/* The hardware answer, tried last: four times the NICs, or the storage. */
static void fix_hardware(ctx *c, step_split k)
{
	const scn_cluster *cl = &c->s->cluster;
	fix *f;
	if (k == SPLIT_CHECKPOINT && local_ckpt_costs_most(c)) {   /* the drives' writes */
		fix_set(add_purchase(c, "buy node-local drives twice as fast"),
			"cluster.local_cache.bandwidth=%gGB/s", 2 * cl->cache.bandwidth_Bps / 1e9);
		return;
	}
	if (k == SPLIT_CHECKPOINT && cl->storage.write_Bps > 0) {   /* its own write figure */
		fix_set(add_purchase(c, "buy storage that writes four times as fast"),
			"cluster.storage.write_bandwidth=%gGB/s", 4 * cl->storage.write_Bps / 1e9);
		return;
	}
	if (k == SPLIT_DATA_STALL || k == SPLIT_CHECKPOINT) {
		fix_set(add_purchase(c, "buy storage four times as fast"),
			"cluster.storage.bandwidth=%gGB/s", 4 * cl->storage.bandwidth_Bps / 1e9);
		return;
	}
	/* NICs do not carry a DP reduction whose group lies inside one node, nor
	 * the transfers of pipelines that each lie inside one node */
	if (cl->nodes <= 1 || (k == SPLIT_DP_COMM && !c->r->dp_crosses_nodes) ||
	    (k == SPLIT_PP_COMM && !c->r->pp_crosses_nodes))
		return;
	/* a group across availability zones waits for the zone link */
	if (k == SPLIT_DP_COMM && c->r->dp_naive_zone_Bps > 0) {   /* not the NICs */
		if ((f = add_fix(c, "buy a link between the zones four times as fast"))) {
			f->hardware = true;
			fix_set(f, "cluster.fabric.zone_bandwidth=%gGbps",
			        4 * cl->fabric.zone_bandwidth_Bps * 8 / 1e9);
		}
		return;
	}
	/* no faster NIC than the catalog's fastest: past it, more of them (one
	 * a GPU at most), else no hardware answer */
	double gbps = cl->nic.speed_Bps * 8 / 1e9, to = fmin(4 * gbps, HW_NIC_FASTEST_GBPS);
	int more = cl->nic.count * 4 < cl->gpus_per_node ? cl->nic.count * 4 : cl->gpus_per_node;
	char what[160];
	if (to > 1.01 * gbps) {
		if (to < 4 * gbps)
			snprintf(what, sizeof what, "buy the fastest NICs (%g Gb/s, %.3gx)", to, to / gbps);
		else
			snprintf(what, sizeof what, "buy NICs four times as fast");
		/* past the GPU's PCIe link a faster NIC moves no more from GPU memory */
		scn_cluster faster = *cl;
		faster.nic.speed_Bps = to * 1e9 / 8;
		double link = cluster_spec_pcie_below_nic(&faster);
		if (link > 0) {
			size_t len = strlen(what);
			char lname[32];
			snprintf(what + len, sizeof what - len, ", of which each moves from GPU memory "
				 "only %.3g GB/s, its share of its GPU's %s", link / 1e9,
				 cluster_spec_gpu_link_name(cl, lname, sizeof lname));
		}
		fix_set(add_purchase(c, what), "cluster.nic.speed=%gGbps", to);
	} else if (more > cl->nic.count) {
		snprintf(what, sizeof what, "add NICs: %d per node instead of %d", more, cl->nic.count);
		fix_set(add_purchase(c, what), "cluster.nic.count=%d", more);
	}
}

/* A layout that does not fit: what shrinks the memory per GPU, each tried
 * alone (sharding, recomputation, more model parallelism, a smaller
 * micro-batch). */
static void fixes_memory(ctx *c)
{
	const scn_training *t = &c->s->training;
	int dp = scn_dp(c->s), dpg = scn_dp_grad(c->s), g = c->s->cluster.gpus_per_node;
	bool custom = c->s->model.custom, moe = c->s->model.experts > 1;
	char what[160];
	if (t->zero == 0 && dpg > 1) {
		snprintf(what, sizeof what, "shard the optimizer state over the %d data-parallel GPUs "
			 "(ZeRO-1, Megatron's distributed optimizer)", dpg);
		fix_set(add_fix(c, what), "training.zero=1");
	}
	/* ZeRO-3 gathers its own parameters: a distributed optimizer's overlapped
	 * gather (zero 1-2 only) goes with it */
	const char *nopg = t->grad_reduce.overlap_param_gather
		? "training.grad_reduce.overlap_param_gather=false" : NULL;
	/* ZeRO-3 reduce-scatters its sharded gradients: an all-reduce goes */
	const char *rs = t->grad_reduce.collective == GRAD_COLL_ALL_REDUCE
		? "training.grad_reduce.collective=auto" : NULL;
	if (t->zero < 3 && dpg > 1) {
		fix *f = add_fix(c, "shard the weights and gradients too (ZeRO-3, FSDP): each is "
			"gathered when a layer needs it");
		fix_set(f, "training.zero=3");
		if (nopg)
			fix_set(f, "%s", nopg);
		if (rs)
			fix_set(f, "%s", rs);
	}
	if (t->recompute != RECOMPUTE_FULL && !custom)
		fix_set(add_fix(c, "recompute each layer's activations in the backward pass (full "
			"recomputation: a third more compute)"), "training.recompute=full");
	bool grouped = t->zero_group > 0;   /* halving dp would break the ZeRO groups */
	if (!custom && !moe && !grouped && dp % 2 == 0 && t->tp * 2 <= g &&
	    c->s->model.heads % (t->tp * 2) == 0) {
		fix *f = add_fix(c, "double tensor parallelism inside the node (half the "
			"data-parallel replicas)");
		fix_set(f, "training.tp=%d", 2 * t->tp);
		fix_set(f, "training.dp=%d", dp / 2);
	}
	if (!custom && !moe && !grouped && dp % 2 == 0 && c->s->model.layers >= 2 * t->pp) {
		fix *f = add_fix(c, "double the pipeline stages (half the data-parallel replicas)");
		fix_set(f, "training.pp=%d", 2 * t->pp);
		fix_set(f, "training.dp=%d", dp / 2);
	}
	if (t->micro_batch > 1)
		fix_set(add_fix(c, "a micro-batch of one sequence (fewer activations per pass)"),
			"training.micro_batch=1");
	if (t->zero < 3 && dpg > 1 && t->recompute != RECOMPUTE_FULL && !custom) {
		fix *f = add_fix(c, "both: ZeRO-3 and full recomputation");
		fix_set(f, "training.zero=3");
		fix_set(f, "training.recompute=full");
		if (nopg)
			fix_set(f, "%s", nopg);
		if (rs)
			fix_set(f, "%s", rs);
	}
}

/* GPUs talking through host memory (NCCL's SHM transport) where the
 * bottleneck is communication inside a node: a card that has peer-to-peer
 * but runs with it off gets it back (NCCL_P2P_DISABLE=1 dropped); a card
 * without it (GeForce) gets NCCL's copy through host memory by the copy
 * engines (NCCL_SHM_USE_CUDA_MEMCPY=1; hw_shm_copy_engine_eff) where its
 * kernels' loads and stores move less */
static bool fix_shm(ctx *c, step_split k)
{
	const scn_cluster *cl = &c->s->cluster;
	/* a DP ring across nodes waits for the copies inside each node where
	 * they are slower than the NIC */
	bool dp_here = !c->r->dp_crosses_nodes || cluster_shm_below_nic(cl, c->r->dp_ranks_per_node);
	if (!hw_intra_shm(&cl->intra, &cl->gpu) ||
	    !(k == SPLIT_TP_COMM || (k == SPLIT_DP_COMM && dp_here) ||
	      (k == SPLIT_PP_COMM && !c->r->pp_crosses_nodes)))
		return false;
	if (!cl->gpu.no_p2p) {
		fix_set(add_fix(c, hw_intra_bridged(&cl->intra)
			? "turn PCIe peer-to-peer back on (drop NCCL_P2P_LEVEL=NVL): this card has it"
			: "turn PCIe peer-to-peer back on (drop NCCL_P2P_DISABLE=1): this card has it"),
		        "cluster.intra_node.p2p=true");
		return true;
	}
	double ce = hw_shm_copy_engine_eff();
	if (hw_shm_eff(&cl->intra, &cl->gpu) >= ce)
		return false;
	fix_set(add_fix(c, "set NCCL_SHM_USE_CUDA_MEMCPY=1: NCCL's copy through host memory "
		"by the copy engines, not its kernels' loads and stores"),
	        "cluster.intra_node.shm_eff=%.3f", ce);
	return true;
}

/* NCCL's sockets (TCP) that move less than the NIC could, where traffic
 * between nodes is the loss: more of them per connection, NCCL's advice for
 * 100G networks (NCCL_SOCKET_NTHREADS=4, NCCL_NSOCKS_PERTHREAD=4), paid in
 * host cores. */
static void fix_sockets(ctx *c, step_split k)
{
	const scn_cluster *cl = &c->s->cluster;
	const scn_training *t = &c->s->training;
	if (cl->nic.transport != TRANSPORT_TCP || cl->nodes <= 1 ||
	    hw_nic_sockets(&cl->nic) >= 16)
		return;
	/* the connections a NIC's sockets bound: NCCL's own ring or tree of a DP
	 * group beside its sibling groups (a hierarchical scheme's rings are a
	 * communicator each), a tensor- or context-parallel group larger than a
	 * node; a pipeline send's two channels beside its tp x cp siblings */
	int tp_cp = t->tp * scn_cp(c->s), sib = cluster_spec_nic_siblings(cl, tp_cp);
	bool binds = false;
	if (k == SPLIT_DP_COMM)
		binds = c->r->dp_crosses_nodes && strcmp(c->r->dp_algorithm, "hierarchical") &&
		        strcmp(c->r->dp_algorithm, "ps") &&
		        cluster_sockets_bind(cl, c->r->dp_ranks_per_node, sib);
	else if (k == SPLIT_TP_COMM)
		binds = tp_cp > cl->gpus_per_node && cluster_sockets_bind(cl, cl->gpus_per_node, 1);
	else if (k == SPLIT_PP_COMM && c->r->pp_crosses_nodes) {
		hw_nic nic = cl->nic;
		hw_nic_defaults(&nic, cl->gpus_per_node);
		binds = hw_nic_socket_cap(&nic, HW_P2P_NET_CHANNELS) * sib <
		        0.999 * nic.speed_Bps * hw_nic_efficiency(&nic, cl->gpus_per_node);
	}
	if (binds)
		fix_set(add_fix(c, "more of NCCL's sockets per connection (NCCL_SOCKET_NTHREADS=4 "
			"NCCL_NSOCKS_PERTHREAD=4, NCCL's advice for 100G networks; more host cores busy)"),
		        "cluster.nic.sockets=16");
}

static void plan_fixes(ctx *c, const int *order, int nloss)
{
	if (!c->r->memory.fits)
		fixes_memory(c);
	if (c->s->training.kernels == KERNELS_EAGER && !c->s->model.custom)
		fix_set(add_fix(c, "compile the model (torch.compile), which fuses its elementwise "
			"ops"), "training.kernels=fused");
	/* Megatron's unfused loss where it costs 2% of the step or 5% of the
	 * memory (its fp32 copy of the logits), or where fusing it makes the
	 * layout fit */
	if (!c->s->model.custom && c->s->training.cross_entropy == CE_UNFUSED) {
		scenario fused = *c->s;
		fused.training.cross_entropy = CE_FUSED;
		wl_layer_cost u, f;
		wl_head_cost(c->s, false, &u);
		wl_head_cost(&fused, false, &f);
		double saved = (u.fwd_s + u.bwd_s - f.fwd_s - f.bwd_s) * c->r->micro_batches;
		wl_memory um, fm;
		wl_memory_get(c->s, &um);
		wl_memory_get(&fused, &fm);
		/* its memory matters where memory is short: a layout that does not
		 * fit, or one within a tenth of the GPU's capacity */
		bool short_of_memory = !um.fits || um.total > 0.9 * um.capacity;
		bool for_memory = (short_of_memory && um.total - fm.total >= 0.05 * um.total) ||
		                  (!um.fits && fm.fits);
		if (saved >= 0.02 * c->r->step_time_s || for_memory) {
			fix *lf = add_fix(c, "fuse the loss: a cross-entropy kernel over the logits, no "
				"fp32 copy (Megatron-core's --cross-entropy-loss-fusion "
				"--cross-entropy-fusion-impl te, Liger's)");
			fix_set(lf, "training.cross_entropy=fused");
			if (lf && !for_memory)
				lf->needs_gain = true;
		}
	}
	/* an older attention kernel than the GPU's best (docs/workload.md) */
	scn_attention at = c->s->training.attention;
	hw_arch arch = c->s->cluster.gpu.arch;
	if (!c->s->model.custom && (at == ATTN_FLASH1 || at == ATTN_FLASH2) &&
	    (arch == ARCH_HOPPER || arch == ARCH_BLACKWELL))
		fix_set(add_fix(c, "run cuDNN's fused attention, not FlashAttention's sm80 kernels "
			"(PyTorch's CUDNN_ATTENTION backend, its default from 2.9)"),
		        "training.attention=flash");
	else if (!c->s->model.custom && at == ATTN_FLASH1)
		fix_set(add_fix(c, "upgrade to FlashAttention-2 (flash-attn 2.x)"),
		        "training.attention=flash");
	for (int i = 0; i < nloss && i < 2 && frac(c->r, (step_split)order[i]) >= SIGNIFICANT; i++)
		if (fix_shm(c, (step_split)order[i]))
			break;
	for (int i = 0; i < nloss && i < 2 && frac(c->r, (step_split)order[i]) >= SIGNIFICANT; i++) {
		int before = c->nfix;
		fix_sockets(c, (step_split)order[i]);
		if (c->nfix > before)
			break;
	}

	for (int i = 0; i < nloss && i < 2; i++) {
		step_split k = (step_split)order[i];
		if (frac(c->r, k) < SIGNIFICANT)
			break;
		if (k == SPLIT_DP_COMM)
			fixes_dp(c);
		else if (k == SPLIT_PP_BUBBLE || k == SPLIT_PP_COMM)
			fixes_pp(c);
		else if (k == SPLIT_TP_COMM)
			fixes_tp(c);
		else if (k == SPLIT_DATA_STALL || k == SPLIT_CHECKPOINT)
			fixes_storage(c, k);
		else if (k == SPLIT_IDLE)
			fixes_stages(c);
	}
	if (nloss > 0 && frac(c->r, (step_split)order[0]) >= SIGNIFICANT &&
	    order[0] != SPLIT_PP_BUBBLE && order[0] != SPLIT_OPTIMIZER && order[0] != SPLIT_IDLE)
		fix_hardware(c, (step_split)order[0]);
	/* bridges last, for either of the two largest losses: they take slots
	 * only the real fixes leave, and stay where their run pays */
	bool bridged = false;
	for (int i = 0; i < nloss && i < 2 && !bridged &&
	     frac(c->r, (step_split)order[i]) >= SIGNIFICANT; i++) {
		int before = c->nfix;
		fix_bridges(c, (step_split)order[i]);
		bridged = c->nfix > before;
	}
}

static bool same_sets(const fix *a, const fix *b)
{
	if (a->nset != b->nset)
		return false;
	for (int i = 0; i < a->nset; i++) {
		int k = 0;
		while (k < b->nset && strcmp(a->set[i], b->set[k]) != 0)
			k++;
		if (k == b->nset)
			return false;
	}
	return true;
}

/* The same overrides are the same experiment: when the pipeline bubble and
 * the pipeline transfers are the two largest losses both ask for the pipeline
 * fixes, and gradient accumulation is the bubble's 'double the global batch'.
 * Keeps the first of each, in order. */
static void drop_duplicate_fixes(ctx *c)
{
	int n = 0;
	for (int i = 0; i < c->nfix; i++) {
		int k = 0;
		while (k < n && !same_sets(&c->fixes[k], &c->fixes[i]))
			k++;
		if (k == n)
			c->fixes[n++] = c->fixes[i];
	}
	c->nfix = n;
}

static void try_fixes(ctx *c)
{
	for (int i = 0; i < c->nfix && c->src; i++) {
		fix *f = &c->fixes[i];
		step_result vr;
		memset(&vr, 0, sizeof vr);
		if (run_variant(c->src, f->set, f->nset, &vr, f->why, sizeof f->why) == 0) {
			f->ran = true;
			f->step_s = vr.step_time_s;
			f->tokens_per_s = vr.tokens_per_s;
			f->fits = vr.memory.fits;
			f->mem_ratio = vr.memory.capacity > 0 ? vr.memory.total / vr.memory.capacity : 0;
			/* the same GPUs and price: the variant's own accounting */
			f->per_mtok = report_run_cost(c->s, &vr).per_mtok;
		}
		step_result_release(&vr);
	}
	int best = -1;   /* the fastest speculative one that pays; the others go */
	for (int i = 0; i < c->nfix; i++) {
		const fix *f = &c->fixes[i];
		if (f->speculative && f->ran && f->step_s <= c->r->step_time_s / 1.02 &&
		    (best < 0 || f->step_s < c->fixes[best].step_s))
			best = i;
	}
	int k = 0;
	for (int i = 0; i < c->nfix; i++) {
		fix *f = &c->fixes[i];
		if ((f->speculative && i != best) ||
		    (f->needs_gain && f->ran && f->step_s > c->r->step_time_s / 1.01))
			continue;
		if (k != i)
			c->fixes[k] = *f;
		k++;
	}
	c->nfix = k;
}


/* ---- the account ---- */

static void section(ctx *c, const char *title)
{
	fprintf(c->out, "\n%d. %s\n", ++c->section, title);
}

static void intro(ctx *c)
{
	const scenario *s = c->s;
	fprintf(c->out, "What happens in one step of \"%s\"\n", s->name[0] ? s->name : s->path);
	if (scn_cp(s) > 1)
		para(c->out, 2, 2, "%d GPUs (%d node%s x %d %s), tp %d x cp %d x pp %d x dp %d.",
			c->r->gpus, s->cluster.nodes, s->cluster.nodes == 1 ? "" : "s",
			s->cluster.gpus_per_node, s->cluster.gpu.name, s->training.tp, scn_cp(s),
			s->training.pp, scn_dp(s));
	else
		para(c->out, 2, 2, "%d GPUs (%d node%s x %d %s), tp %d x pp %d x dp %d.", c->r->gpus,
			s->cluster.nodes, s->cluster.nodes == 1 ? "" : "s", s->cluster.gpus_per_node,
			s->cluster.gpu.name, s->training.tp, s->training.pp, scn_dp(s));
	if (scn_cp(s) > 1)
		para(c->out, 2, 2, "Context parallelism: each sequence is split over %d GPUs (cp %d); "
			"they exchange the attention's keys and values every layer, while it runs, "
			"and their gradients are reduced with the data-parallel replicas' (%d GPUs "
			"hold the same weights).", scn_cp(s), scn_cp(s), scn_dp(s) * scn_cp(s));
	if (!c->r->memory.fits)
		para(c->out, 2, 2, "Warning: this layout does not fit in GPU memory (%.1fx the "
			"capacity); the times below assume it did.",
			c->r->memory.capacity > 0 ? c->r->memory.total / c->r->memory.capacity : 0);
}

static void where(ctx *c, const int *order, int nloss)
{
	char a[32], b[32], l[3][96];
	const step_result *r = c->r;
	int n = 0;
	for (int i = 0; i < nloss && n < 3; i++) {
		if (frac(r, (step_split)order[i]) < 0.01)
			break;
		snprintf(l[n++], sizeof l[0], "%s %s (%.0f\a%%)", loss_word(c, order[i]),
			fmt_t(a, sizeof a, r->split_s[order[i]]), 100 * frac(r, (step_split)order[i]));
	}
	section(c, "Where the time goes");
	para(c->out, 3, 3, "A step takes %s. Each GPU computes for %s of it (%.0f\a%%).",
		fmt_t(a, sizeof a, r->step_time_s), fmt_t(b, sizeof b, r->split_s[SPLIT_COMPUTE]),
		100 * frac(r, SPLIT_COMPUTE));
	if (n == 0)
		para(c->out, 3, 3, "Nothing else takes more than 1\a%% of the step.");
	else
		para(c->out, 3, 3, "The biggest loss%s: %s%s%s%s%s.", n > 1 ? "es" : "", l[0],
			n > 1 ? "; " : "", n > 1 ? l[1] : "", n > 2 ? "; " : "", n > 2 ? l[2] : "");
	if (r->job_mtbf_s > 0 && r->goodput < 0.95)
		para(c->out, 3, 3, "Beyond the step: the job is interrupted every %s and trains "
			"%.0f\a%% of its wall time; restarts take %.0f\a%%, work redone since the last "
			"durable checkpoint %.0f\a%%, checkpoints %.0f\a%% (the report's failures note).",
			fmt_t(a, sizeof a, r->job_mtbf_s), 100 * r->goodput, 100 * r->restart_frac,
			100 * r->lost_work_frac, 100 * r->ckpt_frac);
	report_cost cost = report_run_cost(c->s, r);
	if (cost.per_mtok > 0) {
		double idle = 1 - cost.busy_share;   /* failures' lost work included */
		para(c->out, 3, 3, "At %.3g per GPU-hour a million tokens costs %.3g; %.3g of it "
			"(%.0f\a%%) pays for GPUs that are not computing.", c->s->run.gpu_hour_price,
			cost.per_mtok, cost.per_mtok * idle, 100 * idle);
	}
}

static void saturated_comm(ctx *c, step_split k)
{
	const scenario *s = c->s;
	char a[32], b[32];
	double nic_Bps = s->cluster.nic.count * s->cluster.nic.speed_Bps;
	int tpcp = s->training.tp * scn_cp(s);
	if (k == SPLIT_TP_COMM && s->model.experts > 1 && s->training.ep > 1)
		para(c->out, 3, 3, "%s: every MoE layer sends each token to the GPUs of its %d "
			"experts and back, forward and backward, an all-to-all over %d expert-parallel "
			"GPUs%s.", c->r->ep_crosses_nodes ? "The NICs" : "The links inside the node",
			s->model.top_k > 0 ? s->model.top_k : 2, s->training.ep,
			c->r->ep_crosses_nodes ? " on several nodes, through the NICs" : "");
	else if (k == SPLIT_TP_COMM && scn_cp(s) > 1 && tpcp > s->cluster.gpus_per_node)
		para(c->out, 3, 3, "The NICs: each sequence is split over %d GPUs (tp %d x cp %d) on "
			"several nodes of %d, so the keys and values of every layer go around the "
			"context-parallel ring through %s per node, and the attention no longer hides "
			"them.", tpcp, s->training.tp, scn_cp(s), s->cluster.gpus_per_node,
			fmt_bw(a, sizeof a, nic_Bps));
	else if (k == SPLIT_TP_COMM && scn_cp(s) > 1)
		para(c->out, 3, 3, "The links inside the node: the context-parallel ring passes the "
			"keys and values of every layer over %s, faster than the attention needs them.",
			intra_link_name(s));
	else if (k == SPLIT_TP_COMM && s->training.tp > s->cluster.gpus_per_node)
		para(c->out, 3, 3, "The NICs: the tensor-parallel groups (tp %d) span nodes of %d GPUs, "
			"so the all-reduces of every layer leave the node through %s per node instead of "
			"staying on %s, many times faster.", s->training.tp,
			s->cluster.gpus_per_node, fmt_bw(a, sizeof a, nic_Bps), intra_link_name(s));
	else if (k == SPLIT_TP_COMM)
		para(c->out, 3, 3, "The links inside the node: tensor parallelism runs collectives in "
			"every layer, forward and backward, over %s.",
			intra_link_name(s));
	else if (k == SPLIT_PP_COMM)
		para(c->out, 3, 3, "The links between pipeline stages: activations and their "
			"gradients cross them for every micro-batch.");
	else if (c->r->dp_naive_zone_Bps > 0) {
		char zl[32];
		para(c->out, 3, 3, "The link between the availability zones: %s per direction, %s "
			"away, which every data-parallel group spanning the zones crosses%s; the "
			"gradient %s moves %s per GPU every step.",
			fmt_bw(a, sizeof a, s->cluster.fabric.zone_bandwidth_Bps),
			fmt_t(zl, sizeof zl, s->cluster.fabric.zone_latency_s), s->training.tp > 1 ?
			" (one per TP rank, all at once)" : "", scn_grad_rs(s) ? "reduction" :
			"all-reduce", fmt_b(b, sizeof b, c->r->dp_bytes_per_gpu * c->r->dp_syncs_per_step));
	} else if (c->r->dp_crosses_nodes) {
		char who[48];
		if (s->cluster.gpus_per_node == 1)
			snprintf(who, sizeof who, "each node's one GPU has");
		else
			snprintf(who, sizeof who, "each node's %d GPUs share", s->cluster.gpus_per_node);
		para(c->out, 3, 3, "The network between nodes: %s %d NIC%s "
			"(%s in all), and the gradient %s moves %s per GPU through them every step%s.",
			who, s->cluster.nic.count, s->cluster.nic.count == 1 ? "" : "s",
			fmt_bw(a, sizeof a, nic_Bps), scn_grad_rs(s) ? "reduction" : "all-reduce",
			fmt_b(b, sizeof b, c->r->dp_bytes_per_gpu * c->r->dp_syncs_per_step),
			c->r->dp_syncs_per_step > 1 ? " (the gradients once per micro-batch)" : "");
	} else
		para(c->out, 3, 3, "The links inside the node (%s), which carry the gradient "
			"all-reduce of %s per GPU%s.", cluster_intra_phrase(&s->cluster),
			fmt_b(b, sizeof b, c->r->dp_bytes_per_gpu), s->cluster.nodes > 1
			? ": each data-parallel group lies inside one node" : "");
}

/* The step is faster per micro-batch and layer than any published dropless
 * MoE run (step_result.moe_host_bound): the CPU may be the real limit. */
static void host_bound(ctx *c)
{
	char a[32], b[32];
	if (c->r->moe_host_bound)
		para(c->out, 3, 3, "Unless the CPU cannot keep up: this step comes to %s per "
			"micro-batch and layer of a stage, less than any published dropless MoE run "
			"of Megatron-core took (%s). Such short MoE layers wait for the host, which "
			"syncs with the GPU in each one for its token counts and then launches its "
			"small kernels one by one; trainsim does not model the host, so read this "
			"throughput as an upper bound. CUDA graphs over the MoE layers, or larger "
			"micro-batches, keep the GPU the limit.", fmt_t(a, sizeof a,
			c->r->moe_layer_mb_s), fmt_t(b, sizeof b, STEP_MOE_LAYER_FLOOR_S));
}

static void saturated(ctx *c, const int *order, int nloss)
{
	const scenario *s = c->s;
	char a[32], b[32];
	section(c, "What is saturated");
	if (nloss == 0 || frac(c->r, SPLIT_COMPUTE) >= 0.7 ||
	    frac(c->r, (step_split)order[0]) < SIGNIFICANT) {
		para(c->out, 3, 3, "The GPUs' math units: the step is compute-bound, which is where "
			"a training job should be. Faster GPUs, a larger micro-batch or better kernels "
			"are what would move it.");
		if (nloss > 0 && frac(c->r, (step_split)order[0]) >= 0.15)
			para(c->out, 3, 3, "Still, %s takes %.0f\a%% of the step: 'What to try next' "
				"below tries what would shrink it.", loss_word(c, order[0]),
				100 * frac(c->r, (step_split)order[0]));
		const hw_gpu *g = &s->cluster.gpu;
		double held = wl_gpu_held_gemm_eff(g), clk = wl_power_clock(g);
		if (clk < 1)   /* a power limit below the rating */
			para(c->out, 3, 3, "The GPUs are capped at %.0f W of their %.0f: their compute "
				"runs at %.0f\a%% of its clock, so a large matrix multiplication holds "
				"%.0f\a%% of the %s's dense peak (%.0f\a%% at full power); the memory-bound "
				"kernels and the communication do not slow (docs/workload.md, \"Power "
				"limits\").", g->power_limit_w, g->tdp_w, 100 * clk, 100 * held * clk, g->name,
				100 * held);
		else if (g->gemm_eff > 0 && held < 0.93 * g->gemm_eff)   /* measured: Hopper */
			para(c->out, 3, 3, "Even a large matrix multiplication holds %.0f\a%% of the "
				"%s's dense peak here, not the %.0f\a%% of its best benchmark shape: under a "
				"sustained load the GPU keeps to its power limit by lowering its clock "
				"(`trainsim list gpus`, docs/workload.md).", 100 * held, g->name,
				100 * g->gemm_eff);
		host_bound(c);
		return;
	}
	step_split k = (step_split)order[0];
	int p = s->training.pp, m = 0;
	int per = (s->training.micro_batch > 0 ? s->training.micro_batch : 1) * scn_dp(s);
	m = s->training.global_batch / per > 0 ? s->training.global_batch / per : 1;
	switch (k) {
	case SPLIT_TP_COMM: case SPLIT_PP_COMM: case SPLIT_DP_COMM:
		saturated_comm(c, k);
		break;
	case SPLIT_PP_BUBBLE:
		if (c->r->micro_batches > 0)
			m = c->r->micro_batches;
		if (s->training.schedule == SCHED_INTERLEAVED && s->training.virtual_stages > 1)
			para(c->out, 3, 3, "No resource: the GPUs wait for the pipeline to fill and "
				"drain. With p\a=\a%d stages, v\a=\a%d virtual stages each and m\a=\a%d "
				"micro-batches the textbook bubble is (p-1)/(v*m+p-1) = %.0f\a%% of the "
				"time, for equal stages and free transfers.", p,
				s->training.virtual_stages, m, 100.0 * (p - 1) /
				((double)s->training.virtual_stages * m + p - 1));
		else
			para(c->out, 3, 3, "No resource: the GPUs wait for the pipeline to fill and "
				"drain. With p = %d stages and m = %d micro-batches the bubble is about "
				"(p-1)/(m+p-1) = %.0f\a%% of the time (less with interleaving).", p, m,
				100.0 * (p - 1) / (m + p - 1));
		break;
	case SPLIT_DATA_STALL:
		para(c->out, 3, 3, "Storage: a step reads %s and the storage system delivers %s to "
			"the whole cluster, shared by every node.",
			fmt_b(a, sizeof a, c->r->data_bytes_per_step),
			fmt_bw(b, sizeof b, s->cluster.storage.bandwidth_Bps));
		break;
	case SPLIT_CHECKPOINT:
		para(c->out, 3, 3, "Storage writes: a checkpoint of %s takes %s to write, and "
			"training waits for it.", fmt_b(a, sizeof a, c->r->checkpoint.bytes),
			fmt_t(b, sizeof b, c->r->checkpoint.write_s));
		break;
	case SPLIT_OPTIMIZER:
		para(c->out, 3, 3, "GPU memory bandwidth: the optimizer step streams every "
			"parameter's state through HBM.");
		break;
	default:
		para(c->out, 3, 3, "Nothing in particular: GPUs wait for slower ones (stragglers, "
			"jitter) or for a more loaded pipeline stage.");
		break;
	}
}

static void util_vs_mfu(ctx *c)
{
	const step_result *r = c->r;
	section(c, "Busy is not the same as useful");
	para(c->out, 3, 3, "%s would show these GPUs %.0f\a%% utilized: it counts any "
		"kernel running, and communication kernels run (and spin, waiting for %s) "
		"as much as compute kernels. MFU, the share of the GPUs' peak FLOP/s that does the "
		"model's arithmetic, is %.0f\a%%%s.",
		hw_arch_is_amd(c->s->cluster.gpu.arch) ? "amd-smi" : "nvidia-smi", 100 * r->gpu_util,
		c->s->cluster.nodes > 1 ? "the network" : "their peers", 100 * r->mfu,
		r->gpu_util - r->mfu > 0.3 ? ": a GPU that looks busy is no proof of a healthy job"
		: "");
}

static void ring(ctx *c)
{
	const step_result *r = c->r;
	char a[32], b[32], d[32], e[32], f[32];
	int dp = scn_dp_grad(c->s), n = report_ring_ranks(c->s, r);
	if (dp <= 1 || r->dp_naive_s <= 0)
		return;
	if (r->dp_zero_replicas > 1) {
		section(c, "Why sharding in groups moves the same bytes over other links");
		para(c->out, 3, 3, "ZeRO shards over %d groups of %d data-parallel ranks "
			"(zero_group). Each "
			"gradient bucket is reduce-scattered inside its group, each GPU's 1/%d shard "
			"is then all-reduced across the %d groups, and the parameters are gathered "
			"inside the group: every GPU sends about as many bytes as with one group of "
			"%d, but the gathers stay inside the group (%s when the group is a node) "
			"and only the shards cross between groups, at %d times the sharded model "
			"state per GPU. Here one full reduction takes %s alone; the step leaves %s of "
			"its reductions exposed.", r->dp_zero_replicas, r->dp_zero_group, r->dp_zero_group,
			r->dp_zero_replicas, dp, intra_link_name(c->s), r->dp_zero_replicas,
			fmt_t(e, sizeof e, r->dp_allreduce_s),
			fmt_t(f, sizeof f, r->split_s[SPLIT_DP_COMM]));
		return;
	}
	char syncs[96] = "";
	if (r->dp_syncs_per_step > 1)
		snprintf(syncs, sizeof syncs, ", and it runs %d times per step (once per micro-batch)",
			 r->dp_syncs_per_step);
	if (r->dp_gather_bytes_per_gpu > 0) {
		char g[32];
		section(c, "What the sharded reduction moves");
		para(c->out, 3, 3, "Each GPU reduces %s of gradients%s over data parallelism. "
			"Sending them once at %s would take %s, the naive figure. ZeRO %d "
			"%s, updates its shard, then %s %s of "
			"parameters, (n-1)/n of those again%s: %.2f times the gradient bytes for "
			"n = %d. Here that takes %s alone, %.2f times the naive figure%s; %s of %s is "
			"left exposed in the step.",
			fmt_b(a, sizeof a, r->dp_bytes_per_gpu),
			c->s->training.grad_reduce.compression != COMPRESS_NONE ? " on the wire, compressed" : "",
			fmt_bw(b, sizeof b, r->dp_bytes_per_gpu / r->dp_naive_s),
			fmt_t(d, sizeof d, r->dp_naive_s), c->s->training.zero,
			scn_grad_rs(c->s) ? "reduce-scatters them (every GPU sends (n-1)/n of them and "
			"keeps its 1/n shard)" : "all-reduces them whole (every GPU sends 2(n-1)/n of "
			"them; only the optimizer state is sharded)",
			c->s->training.zero >= 3 && r->dp_syncs_per_step <= 1 && r->micro_batches > 1
			? "gathers each layer's parameters for every micro-batch's forward and backward "
			"(2m gathers), in all"
			: c->s->training.zero >= 3 ? "gathers each layer's parameters for its forward and "
			"again for its backward, in all" : "all-gathers back the",
			fmt_b(g, sizeof g, r->dp_gather_bytes_per_gpu),
			c->s->training.grad_reduce.compression != COMPRESS_NONE
			? " (compression does not apply to them)" : "", r->dp_ideal_factor, n,
			fmt_t(e, sizeof e, r->dp_allreduce_s), r->dp_allreduce_s / r->dp_naive_s, syncs,
			fmt_t(f, sizeof f, r->split_s[SPLIT_DP_COMM]),
			r->dp_syncs_per_step > 1 ? "those runs" : "it");
		return;
	}
	section(c, "Why the gradient all-reduce takes 2(n-1)/n times size/bandwidth");
	para(c->out, 3, 3, "Each GPU reduces %s of gradients over data parallelism. Sending "
		"them once at %s would take %s, the naive figure. A ring all-reduce is a "
		"reduce-scatter followed by an all-gather: in each half every GPU sends and "
		"receives (n-1)/n of the buffer, so 2(n-1)/n in all (nearly twice for large n), "
		"which is %.2f for a ring of n\a=\a%d. Here the all-reduce takes %s alone, %.2f "
		"times the naive figure%s; %s of %s is left exposed in the step.",
		fmt_b(a, sizeof a, r->dp_bytes_per_gpu),
		fmt_bw(b, sizeof b, r->dp_bytes_per_gpu / r->dp_naive_s),
		fmt_t(d, sizeof d, r->dp_naive_s), 2.0 * (n - 1) / n, n,
		fmt_t(e, sizeof e, r->dp_allreduce_s), r->dp_allreduce_s / r->dp_naive_s, syncs,
		fmt_t(f, sizeof f, r->split_s[SPLIT_DP_COMM]),
		r->dp_syncs_per_step > 1 ? "those runs" : "it");
	/* what the factor leaves: the algorithm, and the NIC's share of its line rate */
	double ratio = r->dp_allreduce_s / r->dp_naive_s, factor = 2.0 * (n - 1) / n;
	if (!strcmp(r->dp_algorithm, "nvls"))
		para(c->out, 3, 3, "NCCL runs this reduction as NVLS, not as a ring: the NVSwitch "
			"adds the buffers itself (NVLink SHARP), so each GPU sends about (1 + 1/n) of "
			"the buffer through it rather than 2(n-1)/n, at the rate the switch reduces.");
	else if (!strcmp(r->dp_algorithm, "nvlstree"))
		para(c->out, 3, 3, "NCCL runs this reduction as NVLS inside each node and trees "
			"between nodes (NVLS_TREE), not as a ring: each node's NVSwitch adds its %d GPUs' "
			"buffers itself (NVLink SHARP), and the trees carry the node's sums between "
			"the nodes.", r->dp_ranks_per_node);
	else if (!strcmp(r->dp_algorithm, "collnet"))
		para(c->out, 3, 3, "NCCL runs this reduction in the switches (CollNet over InfiniBand "
			"SHARP), not as a ring: each node's GPUs reduce their slices over NVLink, each NIC "
			"sends its slice up once and receives the sum once, where a ring's NIC carries "
			"2(n-1)/n of it.");
	else if (!strcmp(r->dp_algorithm, "tree"))
		para(c->out, 3, 3, "NCCL runs this reduction as a tree, not as a ring: it moves about "
			"as many bytes per GPU, in fewer, longer steps.");
	else if (strcmp(r->dp_algorithm, "ring") && strcmp(r->dp_algorithm, "hierarchical"))
		para(c->out, 3, 3, "This reduction runs as '%s', not as a ring.", r->dp_algorithm);
	if (ratio > 1.3 * factor && r->dp_naive_zone_Bps > 0) {
		char zl[32];
		para(c->out, 3, 3, "The rest is the link between the zones: its %s of latency is paid "
			"on every step of the collective that crosses it.",
			fmt_t(zl, sizeof zl, c->s->cluster.fabric.zone_latency_s));
	} else if (ratio > 1.3 * factor && r->dp_crosses_nodes && r->dp_ranks_per_node > 0) {
		hw_nic nic = c->s->cluster.nic;
		hw_nic_defaults(&nic, c->s->cluster.gpus_per_node);
		/* the DP group and its siblings on the NIC, each bound by its own
		 * sockets where they bind (report_text.c's nic_gap) */
		int sib = cluster_spec_nic_siblings(&c->s->cluster,
		                                    c->s->training.tp * scn_cp(c->s));
		bool own = !strcmp(r->dp_algorithm, "hierarchical") || !strcmp(r->dp_algorithm, "ps");
		double eff = nic.speed_Bps > 0 && !own &&
		             cluster_sockets_bind(&c->s->cluster, r->dp_ranks_per_node, sib)
		             ? sib * hw_nic_comm_Bps(&nic, r->dp_ranks_per_node, sib,
		                                     c->s->cluster.gpu.arch,
		                                     c->s->cluster.gpu.pcie_gen) / nic.speed_Bps
		             : hw_nic_efficiency(&nic, r->dp_ranks_per_node);
		para(c->out, 3, 3, "The rest is the network: %s NICs, with %d GPU%s of this group "
			"on a node, reach %.3g of their line rate, so expect about %.2f / %.3g = %.2f; "
			"latency and contention add what is left.",
			hw_transport_name(nic.transport), r->dp_ranks_per_node,
			r->dp_ranks_per_node == 1 ? "" : "s", eff, factor, eff, factor / eff);
	}
}

/* Step (c) of the path: the same per-GPU work on one node. */
static void one_node(ctx *c)
{
	const scenario *s = c->s;
	const scn_training *t = &s->training;
	char a[32], b[32], sets[5][80];
	int g = s->cluster.gpus_per_node, mp = t->tp * t->pp;
	if (s->cluster.nodes <= 1) {
		para(c->out, 3, 6, "c. One node against many: this job runs on a single node, so "
			"the network between nodes plays no part.");
		return;
	}
	if (mp > g || g % mp != 0 || !c->src) {
		para(c->out, 3, 6, "c. One node against many: one model replica (tp x pp = %d GPUs) "
			"does not fit in one node of %d, so compare a step on the fewest nodes that hold "
			"a replica with this one.", mp, g);
		return;
	}
	int dp1 = g / mp;
	/* a mixture of experts draws its expert-parallel group from the node's
	 * data-parallel (and, experts not tensor-parallel, TP) ranks */
	int etp = t->expert_tp > 0 ? t->expert_tp : t->tp;
	int eranks = dp1 * scn_cp(s) * (etp == 1 ? t->tp : 1);
	if (s->model.experts > 1 && t->ep > 1 && eranks % t->ep != 0) {
		para(c->out, 3, 6, "c. One node against many: one node holds %d replica%s of "
			"tp x pp = %d GPUs, too few for the expert-parallel group (ep %d), so no "
			"one-node variant runs this layout; compare a step on the fewest nodes that "
			"hold an expert group with this one.", dp1, dp1 == 1 ? "" : "s", mp, t->ep);
		return;
	}
	int per = (t->micro_batch > 0 ? t->micro_batch : 1);
	int mbs = t->global_batch / (per * scn_dp(s));
	snprintf(sets[0], sizeof sets[0], "cluster.nodes=1");
	snprintf(sets[1], sizeof sets[1], "training.dp=%d", dp1);
	snprintf(sets[2], sizeof sets[2], "training.global_batch=%d", (mbs > 0 ? mbs : 1) * per * dp1);
	/* one node lies in one zone, inside its fabric */
	snprintf(sets[3], sizeof sets[3], "cluster.fabric.zones=1");
	snprintf(sets[4], sizeof sets[4], "cluster.fabric.topology=fat-tree");
	int nsets = s->cluster.fabric.zones > 1 ? 5 : 3;
	step_result vr;
	memset(&vr, 0, sizeof vr);
	char why[160];
	if (run_variant(c->src, sets, nsets, &vr, why, sizeof why) != 0) {
		para(c->out, 3, 6, "c. One node against many: this layout does not run on one node "
			"(%s), so compare a step on the fewest nodes that run it with this one.",
			why[0] ? why : "the variant failed");
	} else {
		double x = vr.step_time_s > 0 ? c->r->step_time_s / vr.step_time_s : 0;
		/* what grew: the wait for shared storage (the same reads per GPU from
		 * more nodes share its bandwidth), or communication */
		double dstall = c->r->split_s[SPLIT_DATA_STALL] - vr.split_s[SPLIT_DATA_STALL];
		bool storage = dstall > 0.5 * (c->r->step_time_s - vr.step_time_s);
		para(c->out, 3, 6, "c. One node against many: with the same work per GPU, a step on "
			"one node takes %s; on %d nodes it takes %s (%.2fx). %s", fmt_t(a, sizeof a,
			vr.step_time_s), s->cluster.nodes, fmt_t(b, sizeof b, c->r->step_time_s), x,
			x <= 1.2 ? "Scaling out costs little here: the network is not the problem."
			: storage ? "The difference is the shared storage: more nodes read the same "
			"data per GPU through its one aggregate bandwidth. Look at storage, not the "
			"network." : "The difference is the price of leaving the node: look at the network.");
	}
	step_result_release(&vr);
}

/* Step (d) of the path: the reduction runs bucket by bucket, each bucket
 * paying NCCL's latency; nccl-tests times one collective of the whole buffer
 * (dp_move_s), which a healthy cluster should match. Empty when the two agree. */
static void one_collective(char *buf, size_t n, const step_result *r, double sent, bool zero,
			   const char *red, const char *nt)
{
	char a[32];
	buf[0] = 0;
	if (r->dp_move_s > 0 && r->dp_move_s < 0.95 * r->dp_allreduce_s)
		snprintf(buf, n, " in the step's buckets; %s%s%s, as %s times %s, reach%s "
			 "a bus bandwidth of %s", zero ? "one " : "one all-reduce of the whole buffer",
			 zero ? red : "", zero ? " and one all-gather of the whole buffers" : "", nt,
			 zero ? "them" : "it", zero ? "" : "es", fmt_bw(a, sizeof a, sent / r->dp_move_s));
}

static void path(ctx *c)
{
	const scenario *s = c->s;
	const step_result *r = c->r;
	char a[32], b[32], d[32], e[32], f[32];
	hw_nic nic = s->cluster.nic;
	hw_nic_defaults(&nic, s->cluster.gpus_per_node);
	section(c, "The diagnosis path, in the order to check a real cluster");
	/* AMD's tools for AMD's GPUs: amd-smi, rccl-tests (nccl-tests' port) */
	bool amd = hw_arch_is_amd(s->cluster.gpu.arch);
	const char *nt = amd ? "rccl-tests" : "nccl-tests";
	para(c->out, 3, 6, "a. GPU utilization (%s): expect about %.0f\a%%, with "
		"MFU %.0f\a%%. Much lower utilization points at the input pipeline or the host.",
		amd ? "amd-smi, rocm-smi" : "nvidia-smi, DCGM", 100 * r->gpu_util, 100 * r->mfu);
	/* a NIC faster than its GPU's PCIe link moves the link's rate from GPU
	 * memory (the simulation's flows cross both); one NIC tested alone has
	 * the whole link, whatever other NICs the GPU owns */
	double line = nic.speed_Bps * (nic.efficiency > 0 ? nic.efficiency : 1);
	double whole = cluster_spec_gpu_link_Bps(&s->cluster);
	double pcie = whole < line ? whole : 0;
	char link[160] = "", lname[32];
	if (pcie > 0)
		snprintf(link, sizeof link, " from GPU memory (its GPU's %s; %s from host memory)",
			 cluster_spec_gpu_link_name(&s->cluster, lname, sizeof lname),
			 fmt_bw(b, sizeof b, line));
	if (s->cluster.nodes > 1)
		para(c->out, 3, 6, "b. Point-to-point bandwidth between two nodes (ib_write_bw, "
			"iperf3 -P 8: one TCP stream moves a fraction of a fast link): each %g Gb/s %s "
			"NIC should move about %s%s. Far less means a configuration problem (MTU, %s, PCIe "
			"placement) to fix before anything else.",
			nic.speed_Bps * 8 / 1e9, hw_transport_name(nic.transport),
			fmt_bw(a, sizeof a, pcie > 0 ? pcie : line), link,
			nic.transport == TRANSPORT_GDTCP ? "the GPUDirect plugin" : "RDMA");
	else
		para(c->out, 3, 6, "b. Point-to-point bandwidth: inside one node, between GPU pairs "
			"(%s sendrecv_perf).", nt);
	one_node(c);
	int dp = scn_dp_grad(s);
	if (r->dp_zero_replicas > 1)
		para(c->out, 3, 6, "d. Collective bandwidth (%s reduce_scatter_perf over %d "
			"ranks of a ZeRO group, all_reduce_perf over the %d groups, or `trainsim nccl "
			"%s --gpus N`): one full reduction here, with the parameter gather, takes %s "
			"alone.", nt, r->dp_zero_group, r->dp_zero_replicas,
			s->path[0] ? s->path : "SCENARIO", fmt_t(a, sizeof a, r->dp_allreduce_s));
	else if (dp > 1 && r->dp_allreduce_s > 0 && r->dp_gather_bytes_per_gpu > 0) {
		/* ZeRO: a reduce-scatter of the gradients and an all-gather of the
		 * parameters, whose bytes differ when their dtypes do: the bus
		 * bandwidth is what each GPU sends (dp_ideal_factor) over the time the
		 * reduction takes alone, the report's 'reduction, alone' */
		double sent = r->dp_bytes_per_gpu * r->dp_ideal_factor;
		bool rs = scn_grad_rs(s);   /* else ZeRO-1 over an all-reduce */
		const char *red = rs ? "reduce-scatter" : "all-reduce";
		char once[192];
		one_collective(once, sizeof once, r, sent, 1, red, nt);
		para(c->out, 3, 6, "d. Collective bandwidth (%s %s_perf and "
			"all_gather_perf, or `trainsim nccl %s --op %s`): the gradients' "
			"%s (%s a GPU) and the parameters' all-gather (%s) here send %s from "
			"each GPU in %s alone, a bus bandwidth of %s%s.", nt,
			rs ? "reduce_scatter" : "all_reduce",
			s->path[0] ? s->path : "SCENARIO", rs ? "reduce_scatter" : "all_reduce", red,
			fmt_b(a, sizeof a, r->dp_bytes_per_gpu),
			fmt_b(b, sizeof b, r->dp_gather_bytes_per_gpu), fmt_b(d, sizeof d, sent),
			fmt_t(e, sizeof e, r->dp_allreduce_s), fmt_bw(f, sizeof f, sent / r->dp_allreduce_s),
			once);
	} else if (dp > 1 && r->dp_allreduce_s > 0) {
		/* nccl-tests' busbw convention, whatever the algorithm: 2(n-1)/n of
		 * the ranks, as `trainsim nccl` prints it; the time is the report's
		 * 'all-reduce, alone' */
		double algbw = r->dp_bytes_per_gpu / r->dp_allreduce_s, bus = 2.0 * (dp - 1) / dp;
		char once[192];
		one_collective(once, sizeof once, r, r->dp_bytes_per_gpu * bus, 0, NULL, nt);
		para(c->out, 3, 6, "d. All-reduce bandwidth (%s all_reduce_perf, or `trainsim "
			"nccl %s --op all_reduce`): the gradient all-reduce here takes %s alone, an "
			"algorithm bandwidth of %s, bus bandwidth %s%s.", nt,
			s->path[0] ? s->path : "SCENARIO",
			fmt_t(e, sizeof e, r->dp_allreduce_s), fmt_bw(a, sizeof a, algbw),
			fmt_bw(b, sizeof b, algbw * bus), once);
	} else
		para(c->out, 3, 6, "d. Collective bandwidth (%s, or `trainsim nccl %s --op "
			"all_reduce`): no gradient reduction here (data parallelism 1), so this matters "
			"only for the tensor- and pipeline-parallel transfers.", nt,
			s->path[0] ? s->path : "SCENARIO");
	para(c->out, 3, 6, "e. Software before hardware: overlap communication with compute, "
		"accumulate gradients, compress them, then consider faster links.");
}

/* Is fix i a better first step than fix best? Software wins over hardware. */
static bool better(const ctx *c, int best, int i)
{
	if (best < 0)
		return true;
	const fix *b = &c->fixes[best], *f = &c->fixes[i];
	if (b->hardware != f->hardware)
		return b->hardware;
	return f->tokens_per_s > b->tokens_per_s;
}

/* A memory need over the capacity, as "1.05" or "25.8": two decimals below
 * 10, rounded up, so that a layout that does not fit never reads as 1.0x. */
static const char *fmt_over(char *b, size_t n, double ratio)
{
	if (ratio < 10)
		snprintf(b, n, "%.2f", ceil(ratio * 100 - 1e-9) / 100);
	else
		snprintf(b, n, "%.1f", ratio);
	return b;
}

static void next(ctx *c)
{
	char a[32], b[32], over[32];
	int best = -1;
	section(c, "What to try next");
	bool unfit_now = !c->r->memory.fits;
	if (unfit_now)
		para(c->out, 3, 3, "This layout needs %sx the GPU's memory: first make it fit. Each "
			"change below is tried alone.", fmt_over(over, sizeof over,
			c->r->memory.capacity > 0 ? c->r->memory.total / c->r->memory.capacity : 0));
	if (c->nfix == 0) {
		para(c->out, 3, 3, "No loss is large enough to be worth a change of layout or "
			"hardware%s.", c->r->moe_host_bound ? " in the simulated step (but see the host, "
			"under 'What is saturated')" : "");
		return;
	}
	for (int i = 0; i < c->nfix; i++) {
		const fix *f = &c->fixes[i];
		char sets[3 * 88] = "";
		for (int k = 0; k < f->nset; k++) {
			strcat(sets, " --set ");
			strcat(sets, f->set[k]);
		}
		if (!f->ran) {
			para(c->out, 3, 5, "- %s (%s): could not be simulated%s%s.", f->what, sets + 1,
			     f->why[0] ? ": " : "", f->why);
			continue;
		}
		double x = c->r->tokens_per_s > 0 ? f->tokens_per_s / c->r->tokens_per_s : 0;
		char price[64] = "";
		if (f->per_mtok > 0 && !f->hardware)   /* hardware changes the price too */
			snprintf(price, sizeof price, ", %.3g per million tokens", f->per_mtok);
		/* a variant that does not fit is no first step from one that does;
		 * from one that does not, the question is whether it fits */
		bool unfit = !f->fits;
		char mem[112] = "";
		if (unfit && !unfit_now)
			snprintf(mem, sizeof mem, ", but it does not fit in GPU memory (%sx the "
				 "capacity)", fmt_over(over, sizeof over, f->mem_ratio));
		else if (unfit)
			snprintf(mem, sizeof mem, "; still %sx the GPU's memory",
				 fmt_over(over, sizeof over, f->mem_ratio));
		else if (unfit_now)
			snprintf(mem, sizeof mem, "; it fits (%.0f\a%% of the GPU's memory)",
				 100 * f->mem_ratio);
		char slower[336] = "";
		if (f->slower[0] && x < 0.995)
			snprintf(slower, sizeof slower, " (%s)", f->slower);
		para(c->out, 3, 5, "- %s (%s): %s per step, %.2fx the tokens/s%s%s%s.", f->what,
			sets + 1, fmt_t(a, sizeof a, f->step_s), x, slower, price, mem);
		if ((x > 1.02 || unfit_now) && !unfit && better(c, best, i))
			best = i;
	}
	int most = unfit_now && best < 0 ? report_gpus_for_state(c->s, c->r) : 0;
	if (most > 0) {
		para(c->out, 3, 3, "No layout fits on these %d GPUs: the weights, gradients and "
			"optimizer state alone are %s, which takes at least %d of them (optimizer "
			"offload to the host is not modelled).", scn_gpus(c->s),
			fmt_b(a, sizeof a, report_state_bytes(c->s)), most);
		return;
	}
	if (unfit_now && best < 0) {
		/* what the scenario does not do already */
		const scn_training *t = &c->s->training;
		char combine[96];
		snprintf(combine, sizeof combine, "%s%s%smore model parallelism",
			 t->zero < 3 ? "ZeRO-3, " : "", t->recompute != RECOMPUTE_FULL
			 ? "full recomputation, " : "", t->zero < 3 || t->recompute != RECOMPUTE_FULL
			 ? "and " : "");
		double share = report_state_bytes(c->s) / scn_gpus(c->s);
		char tight[224] = "";
		if (share > 0.75 * c->r->memory.capacity)
			snprintf(tight, sizeof tight, " Even sharded over all %d GPUs the weights, "
				 "gradients and optimizer state take %s of each GPU's %s, leaving little "
				 "for activations and buffers.", scn_gpus(c->s),
				 fmt_b(a, sizeof a, share), fmt_b(b, sizeof b, c->r->memory.capacity));
		if (t->zero >= 3 && t->recompute == RECOMPUTE_FULL)
			para(c->out, 3, 3, "None of these alone makes it fit: add model parallelism "
				"(tp, pp) to them, or spread the model over more GPUs.%s", tight);
		else
			para(c->out, 3, 3, "None of these alone makes it fit: combine them (%s), or "
				"spread the model over more GPUs.%s", combine, tight);
		return;
	}
	if (best >= 0)
		para(c->out, 3, 3, "Start with: %s.%s", c->fixes[best].what,
			c->fixes[best].hardware ? " No software change above helps enough, so this "
			"is a case for faster hardware." : "");
	else
		para(c->out, 3, 3, "None of these gains more than 2\a%%: the layout is close to what "
			"this hardware allows.");
}

int explain_write(FILE *out, const scenario *s, const step_result *r, const explain_src *src)
{
	ctx c = {.out = out, .s = s, .r = r, .src = src && src->path ? src : NULL};
	int order[SPLIT__N], nloss = losses(r, order);
	intro(&c);
	where(&c, order, nloss);
	saturated(&c, order, nloss);
	util_vs_mfu(&c);
	ring(&c);
	path(&c);
	plan_fixes(&c, order, nloss);
	drop_duplicate_fixes(&c);
	try_fixes(&c);
	next(&c);
	return ferror(out) ? -1 : 0;
}
