/* validate.c: a published row -> a scenario built in memory (hardware read
 * from the row's text, parallel layout from its columns) -> a prediction of
 * the row's metric in the publication's convention (Megatron's TFLOP/s count
 * the paper formula with recomputation; Korthikanti's MFU/HFU theirs). The
 * mapping rules are documented in docs/validation.md. */
#include <ctype.h>
#include <strings.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "step.h"
#include "validate.h"
#include "workload.h"

/* ---- text helpers ---- */

static bool has(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

static const char *find(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return hay;
	return NULL;
}

/* `word` as a whole token (case-sensitive): "SP" in "SP; interleaved" but
 * not in "DeepSpeed". */
static bool has_word(const char *hay, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = hay; (p = strstr(p, word)); p++) {
		bool left = p == hay || !isalnum((unsigned char)p[-1]);
		bool right = !isalnum((unsigned char)p[n]);
		if (left && right)
			return true;
	}
	return false;
}

/* `word` as a token of a metric name, any case: bounded by the ends or by
 * anything but a letter or digit ("ring" in "ring_busbw", not in "during"). */
static bool has_token(const char *hay, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = hay; (p = find(p, word)); p++) {
		bool left = p == hay || !isalnum((unsigned char)p[-1]);
		bool right = !isalnum((unsigned char)p[n]);
		if (left && right)
			return true;
	}
	return false;
}

/* The integer written just before position `at` in `text`, skipping blanks,
 * an 'x' (as in "8x") and alphabetic tokens if `skip_words` ("8x HDR 200");
 * 0 if none. */
static int number_before(const char *text, const char *at, bool skip_words)
{
	const char *p = at;
	while (p > text) {
		char c = p[-1];
		if (c == ' ' || c == 'x' || c == 'X' || c == '\t')
			p--;
		else if (skip_words && isalpha((unsigned char)c))
			p--;
		else
			break;
	}
	const char *end = p;
	while (p > text && isdigit((unsigned char)p[-1]))
		p--;
	return p < end ? atoi(p) : 0;
}

/* ---- hardware ---- */

typedef struct gpu_map {
	const char *token;     /* in the hardware text */
	const char *with;      /* ...together with this (NULL: alone) */
	const char *catalog;   /* hw_gpu_find name */
	double nic_Gbps;       /* the node's usual NIC when the text gives none */
	int gpus_per_node;
} gpu_map;

/* First match wins. Node defaults: DGX A100 8 x HDR 200 Gb/s; DGX H100/H200
 * and B200 8 x NDR 400 Gb/s; DGX-2 16 V100 with 8 x EDR 100 Gb/s (NVIDIA DGX
 * data sheets). The catalog has one V100 (SXM2 32GB) for DGX-1/DGX-2. */
static const gpu_map gpu_maps[] = {
	{"H200", NULL, "H200", 400, 8},
	{"H800", NULL, "H800", 400, 8},
	{"A800", NULL, "A800", 200, 8},
	{"H100", "PCIe", "H100-PCIE", 400, 8},
	{"H100", NULL, "H100", 400, 8},
	{"GB200", NULL, "GB200", 400, 72},   /* NVL72: one NVLink domain of 72 */
	{"B200", NULL, "B200", 400, 8},
	{"A100", "PCIe", "A100-PCIE", 200, 8},
	{"A100", "40GB", "A100-40GB", 200, 8},
	{"A100", "40 GB", "A100-40GB", 200, 8},
	{"A100", "320GB", "A100-40GB", 200, 8},   /* DGX A100 320GB: 8 x 40 GB */
	{"A100", "320 GB", "A100-40GB", 200, 8},
	{"A100", NULL, "A100", 200, 8},
	{"DGX-2", NULL, "V100", 100, 16},
	{"V100", NULL, "V100", 100, 8},
	{"MI300", NULL, "MI300X", 400, 8},
	{"L40S", NULL, "L40S", 200, 8},
};

static const gpu_map *gpu_of(const char *hw)
{
	for (size_t i = 0; i < sizeof gpu_maps / sizeof gpu_maps[0]; i++) {
		const gpu_map *m = &gpu_maps[i];
		if (has(hw, m->token) && (!m->with || has(hw, m->with)))
			return m;
	}
	return NULL;
}

static int gpus_per_node(const char *hw, const gpu_map *m)
{
	const char *p = find(hw, "GPU/node");
	if (!p)
		p = find(hw, "GPUs/node");
	if (!p)
		p = find(hw, " GPU per node");
	int n = p ? number_before(hw, p, false) : 0;
	if (n <= 0 && !has(hw, "DGX-2")) {
		const char *g = find(hw, m->token);
		n = g ? number_before(hw, g, false) : 0;
	}
	return n > 0 && n <= 64 ? n : m->gpus_per_node;
}

/* The first line rate written in the text: a number, blanks allowed, then
 * Gb/s, Gbps, Gbit/s, GbE, Tb/s or Tbps ("8x200Gb/s", "4x 100 Gbps EFA",
 * "2x 100GbE"). Returns its Gb/s (0 if none) and where the number starts; a
 * rate in Tb/s ("3.2 Tbps EFA") is the node's aggregate: *aggregate set. */
static double line_rate(const char *hw, const char **at, bool *aggregate)
{
	static const char *const units[] = {"Gb/s", "Gbps", "Gbit", "GbE", "Tb/s", "Tbps"};
	static const char *const not_nic[] = {"NVLink", "NVL", "PCIe", "HBM", "memory"};
	for (const char *p = hw; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > hw && (isdigit((unsigned char)p[-1]) ||
		                                               p[-1] == '.')))
			continue;
		/* a GPU link's rate ("NVLink 4800 Gb/s per GPU") is not the NIC's: look
		 * back to the last separator */
		char before[24];
		size_t k = 0;
		while (k < sizeof before - 1 && p - k > hw && !strchr(",;()", p[-(long)k - 1]))
			k++;
		memcpy(before, p - k, k);
		before[k] = '\0';
		bool skip = false;
		for (size_t i = 0; i < sizeof not_nic / sizeof not_nic[0]; i++)
			if (has(before, not_nic[i]))
				skip = true;
		if (skip)
			continue;
		const char *q = p;
		while (isdigit((unsigned char)*q) || *q == '.')
			q++;
		while (*q == ' ')
			q++;
		for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
			if (!strncmp(q, units[i], strlen(units[i]))) {
				*at = p;
				*aggregate = units[i][0] == 'T';
				return atof(p) * (*aggregate ? 1000 : 1);
			}
	}
	return 0;
}

/* Whether the NIC's clause, from its rate to the next separator, says the
 * count is per GPU ("1x400Gb/s NDR IB per GPU"), not per node: bandwidth
 * text elsewhere ("NVLink 900 GB/s per GPU") does not count. */
static bool per_gpu_after(const char *at)
{
	char clause[96];
	size_t k = 0;
	while (k < sizeof clause - 1 && at[k] && !strchr(",;()", at[k]))
		k++;
	memcpy(clause, at, k);
	clause[k] = '\0';
	return has(clause, "per GPU");
}

/* The NICs of a node of gpn GPUs and their line rate, from "8x200Gb/s HDR",
 * "8x HDR 200Gb/s", "4 OmniPath links/node (OPA; 100Gb/s each)", "2x 100GbE",
 * "HDR IB", "1x400Gb/s NDR IB per GPU" (a count per GPU times gpn), "3.2 Tbps
 * EFA" (a node's aggregate: one NIC per GPU sharing it). With no count: one
 * per GPU (DGX A100/H100, GB200 trays), 8 for a DGX-2's 16 GPUs, one for TCP
 * or plain Ethernet ("100GbE": a commodity node's one NIC). */
static void nic_of(const char *hw, const gpu_map *m, int gpn, hw_nic *nic)
{
	const char *at = NULL;
	bool aggregate = false;
	double gbps = line_rate(hw, &at, &aggregate);
	int count = at && !aggregate ? number_before(hw, at, true) : 0;
	if (aggregate && gbps > 0) {   /* a node's total: one NIC per GPU (AWS p4d/p5) */
		count = gpn;
		gbps /= gpn;
	}
	const char *links = find(hw, " links");
	if (!count && links)
		count = number_before(hw, links, true);
	if (gbps <= 0)
		gbps = has(hw, "NDR") ? 400 : has(hw, "HDR") ? 200 : has(hw, "EDR") ? 100 : m->nic_Gbps;
	if (at && !aggregate && per_gpu_after(at))   /* "1x400Gb/s NDR IB per GPU" */
		count = (count > 0 ? count : 1) * gpn;
	bool tcp = has(hw, "TCP") || has(hw, "Socket") ||
	           ((has(hw, "GbE") || has(hw, "Ethernet")) && !has(hw, "RoCE") && !has(hw, "RDMA"));
	if (count <= 0 || count > 4 * gpn)
		count = tcp ? 1 : m->gpus_per_node == 16 ? 8 : gpn;
	/* part of a node (one GPU of a DGX-2): at most the 4 NICs per GPU the
	 * scenario loader accepts */
	if (count > 4 * gpn)
		count = 4 * gpn;
	nic->count = count;
	nic->speed_Bps = gbps * 1e9 / 8;
	nic->transport = tcp ? TRANSPORT_TCP : TRANSPORT_RDMA;
}

static int cp_of(const char *o);

static int cluster_of(const val_row *r, scenario *s, char *why, size_t n)
{
	const gpu_map *m = gpu_of(r->hardware);
	const hw_gpu *g = m ? hw_gpu_find(m->catalog) : NULL;
	if (!g) {
		snprintf(why, n, "no known GPU in the hardware text");
		return -1;
	}
	scn_cluster *c = &s->cluster;
	c->gpu = *g;
	int gpn = gpus_per_node(r->hardware, m);
	/* a row without its GPU count that gives every parallel size: their product */
	int cp = cp_of(r->other);
	int gpus = r->gpus > 0 ? r->gpus
	         : r->tp > 0 && r->pp > 0 && r->dp > 0 ? r->tp * r->pp * r->dp * (cp > 1 ? cp : 1)
	         : 1;
	if (gpus < gpn)
		gpn = gpus;          /* part of one node */
	/* a job that does not fill whole NVLink domains (128 GPUs of NVL72
	 * racks): domains of the largest size that divides the job */
	while (gpn > 1 && gpus % gpn)
		gpn--;
	c->gpus_per_node = gpn;
	c->nodes = (gpus + gpn - 1) / gpn;
	nic_of(r->hardware, m, gpn, &c->nic);
	c->intra.kind = (has(r->hardware, "PCIe") && !has(r->hardware, "NVLink")) ||
	                g->nvlink_Bps <= 0 ? INTRA_PCIE : INTRA_NVSWITCH;   /* L40S: no NVLink */
	/* V100 nodes other than DGX-2 (DGX-1, cloud V100 x 8) join their GPUs by
	 * an NVLink hybrid cube mesh, not a switch (NVIDIA DGX-1 data sheet) */
	if (c->intra.kind == INTRA_NVSWITCH && !strcmp(m->catalog, "V100") &&
	    !has(r->hardware, "NVSwitch") && !has(r->hardware, "DGX-2"))
		c->intra.kind = INTRA_NVLINK_MESH;
	c->fabric.topology = c->nodes > 1 ? TOPO_FAT_TREE : TOPO_SINGLE_SWITCH;
	return 0;
}

/* nccl-tests' "-g N" (GPUs per thread) in free text, case-sensitive ("-G" is
 * its CUDA-graph option) and as an option (after a blank or a bracket);
 * 0 when absent, at most 64. */
static int dash_g(const char *t)
{
	for (const char *p = strstr(t, "-g "); p; p = strstr(p + 1, "-g ")) {
		if (p > t && isalnum((unsigned char)p[-1]))
			continue;
		int g = atoi(p + 3);
		if (g >= 1)
			return g > 64 ? 64 : g;
	}
	return 0;
}

/* The GPUs of a collective benchmark: "2 nodes x 8 GPU" in other_parallel
 * or the hardware text; else the row's gpus; else one node. nccl-tests -g:
 * "-g N" in the row's text, or Azure's AI-benchmarking-guide, whose
 * NCCLBandwidth.py runs -g 8 (docs/network.md); else one GPU per process. */
static int coll_cluster_of(const val_row *r, val_case *c, char *why, size_t n)
{
	const char *texts[] = {r->other, r->hardware};
	int nodes = 0, gpn = 0;
	for (int i = 0; i < 2 && !nodes; i++) {
		const char *p = find(texts[i], "nodes x");
		size_t len = 7;
		if (!p)
			p = find(texts[i], "node x"), len = 6;
		if (p) {
			nodes = number_before(texts[i], p, false);
			gpn = atoi(p + len);
		}
	}
	if (nodes > 0 && (gpn < 1 || gpn > 64 || nodes > 4096)) {
		snprintf(why, n, "%d nodes x %d GPUs: a collective benchmark is read for 1-4096 nodes "
		         "of 1-64 GPUs", nodes, gpn);
		return -1;
	}
	val_row rr = *r;
	if (c->coll_op == COLL_SENDRECV) {
		/* a NIC measured alone runs between two of the DGX nodes that ship
		 * its generation (ConnectX-7 / NDR: DGX H100, ConnectX-6 / HDR: DGX
		 * A100), at the row's own line rate when it gives one, one NIC per
		 * GPU; two nodes of gpus / 2 GPUs (of a whole DGX without gpus) */
		if (!gpu_of(r->hardware)) {
			bool ndr = has(r->hardware, "ConnectX-7") || has(r->hardware, "NDR") ||
			           has(r->hardware, "CX7");
			bool hdr = has(r->hardware, "ConnectX-6") || has(r->hardware, "HDR") ||
			           has(r->hardware, "CX6");
			if (ndr || hdr) {
				const char *at;
				bool agg;
				double gbps = line_rate(r->hardware, &at, &agg);
				if (gbps <= 0 || agg)
					gbps = ndr ? 400 : 200;
				snprintf(rr.hardware, sizeof rr.hardware, "%s, 8x%gGb/s (%.180s)", ndr ?
				         "DGX H100, 8x H100" : "DGX A100, 8x A100 80GB", gbps, r->hardware);
				c->assumed = true;
				if (nodes < 1) {
					nodes = 2;
					gpn = r->gpus >= 2 ? r->gpus / 2 : 8;
				}
			}
		}
		if (nodes < 1 && r->gpus <= 0) {
			const gpu_map *m = gpu_of(rr.hardware);
			nodes = 2;
			gpn = m ? gpus_per_node(rr.hardware, m) : 8;
		}
	}
	if (nodes > 0 && gpn > 0)
		rr.gpus = nodes * gpn;
	if (rr.gpus <= 0) {
		const gpu_map *m = gpu_of(r->hardware);
		rr.gpus = m ? gpus_per_node(r->hardware, m) : 8;
	}
	if (cluster_of(&rr, &c->s, why, n) < 0) {
		snprintf(why, n, "a link benchmark without a GPU model: compare with `trainsim nccl`");
		return -1;
	}
	if (nodes > 0 && gpn > 0) {
		c->s.cluster.nodes = nodes;
		c->s.cluster.gpus_per_node = gpn;
		c->s.cluster.fabric.topology = nodes > 1 ? TOPO_FAT_TREE : TOPO_SINGLE_SWITCH;
	}
	c->gpus_per_thread = has(r->source, "AI-benchmarking-guide") ? 8 : 1;
	int g = dash_g(r->source);
	if (!g)
		g = dash_g(r->other);
	if (g)
		c->gpus_per_thread = g;
	int ngpu = c->s.cluster.nodes * c->s.cluster.gpus_per_node;
	if (c->gpus_per_thread > c->s.cluster.gpus_per_node)
		c->gpus_per_thread = c->s.cluster.gpus_per_node;
	char g_opt[16] = "";
	if (c->gpus_per_thread > 1)
		snprintf(g_opt, sizeof g_opt, ", -g %d", c->gpus_per_thread);
	snprintf(c->config, sizeof c->config, "%s %s%s%d x %d %s%s", coll_op_name(c->coll_op),
	         c->coll_algo == ALGO_AUTO ? "" : coll_algo_name(c->coll_algo),
	         c->coll_algo == ALGO_AUTO ? "" : " ", c->s.cluster.nodes,
	         c->s.cluster.gpus_per_node, c->s.cluster.gpu.name, g_opt);
	if (ngpu < 2) {
		snprintf(why, n, "a collective needs at least 2 GPUs");
		return -1;
	}

	if (ngpu > 16384) {
		snprintf(why, n, "%d GPUs: a collective benchmark is simulated up to 16384", ngpu);
		return -1;
	}
	return 0;
}

/* ---- model and training ---- */

/* Vocabulary: Megatron GPT's 51200 (GPT-2 BPE padded), BLOOM's 250880
 * (bigscience tr11-176B-ml README: 250680 tokens padded). */
static int vocab_of(const val_row *r)
{
	if (has(r->source, "bigscience") || has(r->id, "BLOOM"))
		return 250880;
	return 51200;
}

static scn_recompute recompute_of(const char *t, bool *assumed)
{
	if (!*t) {
		/* Megatron's 2019-21 (fp16) scripts checkpoint activations; bf16
		 * and fp8 rows take fit_memory's choice instead */
		*assumed = true;
		return RECOMPUTE_FULL;
	}
	if (has(t, "selective"))
		return RECOMPUTE_SELECTIVE;
	/* a yes/no column: "no", "false", "off", "0" / "yes", "true", "on", "1" */
	static const char *const no[] = {"no", "false", "off", "0", "n"};
	static const char *const yes[] = {"yes", "true", "on", "1", "y"};
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		if (!strcasecmp(t, no[i]))
			return RECOMPUTE_NONE;
		if (!strcasecmp(t, yes[i]))
			return RECOMPUTE_FULL;
	}
	if (has(t, "no recompute") || has(t, "none") || has(t, "only") || has(t, "baseline"))
		return RECOMPUTE_NONE;
	if (has(t, "full") || has(t, "checkpoint"))
		return RECOMPUTE_FULL;
	*assumed = true;
	return RECOMPUTE_FULL;
}

static bool affirmed(const char *o, const char *phrase);

/* Recomputation said in free text (other_parallel) when the recompute
 * column is empty: "selective recompute", "activation checkpointing",
 * "--recompute-granularity full", "no activation recomputation". Precise
 * phrases only: "full shard" (FSDP) or a disk checkpoint say nothing.
 * Returns whether the text says anything, with the choice in *rc. */
static bool recompute_in_text(const char *o, scn_recompute *rc)
{
	static const char *const sel[] = {"selective recompute", "selective activation",
		"selective checkpoint", "granularity selective", "granularity=selective"};
	static const char *const full[] = {"full recompute", "full activation recomputation",
		"activation checkpointing", "activation recomputation", "activation recompute",
		"gradient checkpointing", "checkpoint-activations", "checkpoint_activations",
		"granularity full", "granularity=full", "recompute-activations"};
	for (size_t i = 0; i < sizeof sel / sizeof sel[0]; i++)
		if (affirmed(o, sel[i])) {
			*rc = RECOMPUTE_SELECTIVE;
			return true;
		}
	bool negated = false;
	for (size_t i = 0; i < sizeof full / sizeof full[0]; i++) {
		if (affirmed(o, full[i])) {
			*rc = RECOMPUTE_FULL;
			return true;
		}
		negated |= has(o, full[i]);
	}
	if (negated || has(o, "no recompute") || has(o, "without recomputation")) {
		*rc = RECOMPUTE_NONE;
		return true;
	}
	return false;
}

static hw_precision precision_of(const char *t, bool *assumed)
{
	if (has(t, "bf16"))
		return PREC_BF16;
	if (has(t, "fp16"))
		return PREC_FP16;
	if (has(t, "fp8"))
		return PREC_FP8;
	if (has(t, "tf32") || has(t, "fp32"))
		return PREC_FP32;
	*assumed = true;
	return PREC_BF16;
}

/* The number right after a whole word `tok` (any case; '=', ':', '-' and
 * blanks between): "VP=6", "VP 6", "vp6", "VPP: 5". 0 when there is none.
 * *layers: the number is followed by "layer" ("VPP: 5 layers/virtual stage"). */
static int number_after_word(const char *o, const char *tok, bool *layers)
{
	size_t n = strlen(tok);
	for (const char *p = find(o, tok); p; p = find(p + 1, tok)) {
		if ((p > o && isalnum((unsigned char)p[-1])) || isalpha((unsigned char)p[n]))
			continue;
		const char *q = p + n;
		while (*q == ' ' || *q == '=' || *q == ':' || *q == '-')
			q++;
		if (!isdigit((unsigned char)*q))
			continue;
		int v = atoi(q);
		while (isdigit((unsigned char)*q) || *q == ' ')
			q++;
		*layers = !strncasecmp(q, "layer", 5);
		return v;
	}
	return 0;
}

/* Virtual pipeline stages (model chunks per stage) as publications write
 * them: "interleaved m=3" (Korthikanti), NeMo's "VP 6" column ("VP=6",
 * "VPP 6", "vp6"), "virtual pipeline size 6", "6 virtual stages"; or layers
 * per virtual stage: "interleaved vpp: 5 layers/virtual stage",
 * "--num-layers-per-virtual-pipeline-stage 5". A bare "interleaved": 2. */
static int virtual_stages(const val_row *r, int layers, int pp, bool *assumed)
{
	const char *o = r->other;
	int chunks = 0, per = 0;
	bool per_layers = false;
	static const char *const words[] = {"VPP", "VP", "virtual pipeline model parallel size",
		"virtual-pipeline-model-parallel-size", "virtual pipeline size",
		"virtual pipeline stages", "virtual stages", "virtual_stages"};
	for (size_t i = 0; i < sizeof words / sizeof words[0] && !chunks && !per; i++) {
		int v = number_after_word(o, words[i], &per_layers);
		if (v > 0)
			*(per_layers ? &per : &chunks) = v;
	}
	const char *p = find(o, "per-virtual-pipeline-stage");
	if (!p)
		p = find(o, "per_virtual_pipeline_stage");
	if (!chunks && !per && p)
		per = number_after_word(p, p[3] == '-' ? "per-virtual-pipeline-stage"
		                                       : "per_virtual_pipeline_stage", &per_layers);
	p = find(o, " virtual stage");
	if (!chunks && !per && p && !find(o, "layers/virtual") && !find(o, "layers per virtual"))
		chunks = number_before(o, p, false);     /* "6 virtual stages" */
	if (!chunks && !per && has(o, "interleaved")) {
		p = find(o, "m=");
		if (p && atoi(p + 2) > 0)
			chunks = atoi(p + 2);
		p = find(o, "layer");
		if (!chunks)
			per = p ? number_before(o, p, false) : 0;
		if (!chunks && !per) {
			*assumed = true;
			return 2;
		}
	}
	if (per > 0)
		return layers % (pp * per) == 0 ? layers / (pp * per) : (*assumed = true, 2);
	return chunks > 0 ? chunks : 1;
}

/* Whether the text says `phrase` without negating it: an occurrence not
 * preceded (within the few characters before it) by "no", "non", "not",
 * "without" or "disable". */
static bool affirmed(const char *o, const char *phrase)
{
	static const char *const neg[] = {"no ", "no-", "non-", "non ", "not ", "without ",
		"disable", "w/o "};
	size_t len = strlen(phrase);
	for (const char *p = find(o, phrase); p; p = find(p + len, phrase)) {
		const char *from = p - o > 12 ? p - 12 : o;
		bool negated = false;
		for (size_t i = 0; i < sizeof neg / sizeof neg[0] && !negated; i++) {
			const char *q = find(from, neg[i]);
			negated = q && q < p;
		}
		if (!negated)
			return true;
	}
	return false;
}

/* The same for a whole word (SP, ZeRO). */
static bool affirmed_word(const char *o, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = find(o, word); p; p = find(p + len, word)) {
		bool start = p == o || !isalnum((unsigned char)p[-1]);
		bool end = !isalnum((unsigned char)p[len]);
		if (!start || !end)
			continue;
		char buf[64];
		size_t off = (size_t)(p - o) > 12 ? 12 : (size_t)(p - o);
		snprintf(buf, sizeof buf, "%.*s%s", (int)off, p - off, word);
		if (affirmed(buf, word))
			return true;
	}
	return false;
}

/* After a key found at p in o: NULL when the key is the end of a longer
 * word, else the text after the separators that follow it ("ZeRO-1",
 * "EP=8", "zero: 2"). */
static const char *token_tail(const char *o, const char *p, size_t len)
{
	if (p > o && isalnum((unsigned char)p[-1]))
		return NULL;
	const char *q = p + len;
	while (*q == '-' || *q == ' ' || *q == '_' || *q == '=' || *q == ':')
		q++;
	return q;
}

/* ZeRO stage named in other_parallel: "ZeRO-1", "ZeRO 3", "ZeRO stage 2",
 * "zero3"; Megatron's distributed optimizer is stage 1; PyTorch FSDP full
 * sharding stage 3, SHARD_GRAD_OP 2. -1 when none is named (0 for an explicit
 * stage 0 or NO_SHARD). */
static int zero_named(const char *o)
{
	for (const char *p = find(o, "zero"); p; p = find(p + 4, "zero")) {
		const char *q = token_tail(o, p, 4);
		if (!q)
			continue;
		if (!strncasecmp(q, "stage", 5))
			for (q += 5; *q == '-' || *q == ' ' || *q == '_' || *q == '=' || *q == ':'; q++)
				;
		if (*q >= '0' && *q <= '3' && !isalnum((unsigned char)q[1]))
			return *q - '0';
	}
	if (has(o, "NO_SHARD"))
		return 0;
	if (has(o, "SHARD_GRAD_OP"))
		return 2;
	if (has(o, "FSDP") || has(o, "FULL_SHARD") || has(o, "HYBRID_SHARD"))
		return 3;
	if (affirmed(o, "distributed optimizer") || affirmed(o, "distributed-optimizer") ||
	    affirmed(o, "distributed_optimizer"))
		return 1;
	return -1;
}

/* The ZeRO stage a row runs with: the one named, else 0. */
static int zero_of(const char *o)
{
	int z = zero_named(o);
	return z > 0 ? z : 0;
}

/* A bf16 or fp8 row that does not say how it saves memory: the cheapest
 * savings that make the layout fit, as a user of today's Megatron adds them,
 * cumulatively: sequence parallelism (with tp > 1; no extra traffic), the
 * distributed optimizer (ZeRO-1: the same bytes on the wire, the optimizer
 * state sharded), selective recomputation (--recompute-activations), full
 * recomputation. Only what the row leaves open is chosen; when nothing fits,
 * all of it. fp16 rows (the 2019-21 Megatron: none of these but full
 * recomputation) keep recompute_of's full. Returns whether anything changed. */
static bool fit_memory(scenario *s, bool sp_open, bool zero_open, bool recompute_open)
{
	scn_training *t = &s->training;
	if (recompute_open)
		t->recompute = RECOMPUTE_NONE;
	for (int step = 0;; step++) {
		wl_memory m;
		wl_memory_get(s, &m);
		if (m.fits)
			return step > 0;
		if (sp_open && !t->sequence_parallel)
			t->sequence_parallel = true;
		else if (zero_open && t->zero < 1)
			t->zero = 1;
		else if (recompute_open && t->recompute == RECOMPUTE_NONE)
			t->recompute = RECOMPUTE_SELECTIVE;
		else if (recompute_open && t->recompute == RECOMPUTE_SELECTIVE)
			t->recompute = RECOMPUTE_FULL;
		else
			return step > 0;
	}
}

static bool names(const val_row *r, const char *family);

/* Whether the row says which pipeline schedule it ran: virtual stages (read
 * by virtual_stages), or a schedule by name. */
static bool schedule_named(const val_row *r)
{
	static const char *const words[] = {"interleav", "1F1B", "GPipe", "PipeDream",
		"zero bubble", "zero-bubble", "ZB-", "virtual", "VPP"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (has(r->other, words[i]))
			return true;
	return has_word(r->other, "VP");
}

/* Step time of a candidate layout, or a huge one when it does not run. */
static double candidate_time(const scenario *s)
{
	step_opts o = {0};
	step_result res;
	memset(&res, 0, sizeof res);
	char e[200];
	int rc = step_run(s, &o, &res, e, sizeof e);
	double t = rc == 0 && res.step_time_s > 0 ? res.step_time_s : HUGE_VAL;
	step_result_release(&res);
	return t;
}

/* A bf16/fp8 pipeline row that names no schedule and whose 1F1B schedule
 * would leave a quarter of the step or more idle ((p-1)/(m+p-1) >= 1/4, m <=
 * 3(p-1) micro-batches), as a user of today's Megatron runs it: interleaved,
 * with the number of virtual stages that gives the fastest step that fits.
 * No tuned run publishes such a bubble: those that interleave say so or run
 * few micro-batches (Llama 3 405B: 16 per pipeline on 16 stages, its paper's
 * Figure 6 interleaves; Megatron's and NeMo's large recipes set 1 to 5
 * layers per virtual stage), those that do not keep m >= 8p (Megatron's 1T:
 * 512 on 64 stages, bubble 11%). Megatron needs m a multiple of pp and each
 * stage's layers a multiple of v (unequal stages, as Llama 3's, take any v).
 * Each candidate gets the memory savings of fit_memory; 1F1B is kept unless a
 * candidate is faster by more than 0.1%. Returns whether it changed. */
static bool choose_schedule(scenario *s, bool sp_open, bool zero_open, bool rc_open)
{
	scn_training *t = &s->training;
	int p = t->pp, layers = s->model.layers;
	long per = (long)t->micro_batch * t->dp;
	long m = per > 0 ? t->global_batch / per : 0;
	scenario best = *s;
	bool changed = fit_memory(&best, sp_open, zero_open, rc_open);
	if (p <= 1 || m < p || m % p || m > 3L * (p - 1) || layers < 2 * p)
		return *s = best, changed;
	double best_t = candidate_time(&best);
	for (int v = 2; v <= layers / p; v++) {
		if (layers % p == 0 && (layers / p) % v)
			continue;
		scenario c = *s;
		c.training.schedule = SCHED_INTERLEAVED;
		c.training.virtual_stages = v;
		fit_memory(&c, sp_open, zero_open, rc_open);
		wl_memory mem;
		wl_memory_get(&c, &mem);
		if (!mem.fits)
			continue;
		double tc = candidate_time(&c);
		if (tc < best_t * (1 - 1e-3))
			best = c, best_t = tc, changed = true;
	}
	*s = best;
	return changed;
}

/* A mixture-of-experts run: "MoE", "experts", "EP8" / "EP=8" in the row, or a
 * model family that is one (Mixtral, DeepSeek-V2/V3, Switch, GLaM). */
static bool moe_of(const val_row *r)
{
	const char *fields[] = {r->other, r->id};   /* not the source: a title may cite one */
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const char *o = fields[i];
		if (has_word(o, "MoE") || has(o, "mixture of experts") || has(o, "mixture-of-experts") ||
		    has(o, "Mixtral") || has(o, "DeepSeek-V") || has(o, "DeepSeekMoE") ||
		    has(o, "Switch Transformer") || has(o, "GLaM"))
			return true;
	}
	const char *o = r->other;
	if (has(o, "experts"))
		return true;
	for (const char *p = find(o, "EP"); p; p = find(p + 1, "EP")) {
		const char *q = token_tail(o, p, 2);
		if (q && isdigit((unsigned char)*q) && atoi(q) > 1)
			return true;
	}
	return false;
}

/* Context parallelism named in other_parallel: "CP2", "CP=4", "cp 2",
 * "TP2xCP2", "context parallel 2", "context parallelism 4",
 * "--context-parallel-size 2", "context_parallel_size=2"; 1 when none. */
static int cp_of(const char *o)
{
	static const char *const keys[] = {"CP", "context parallel", "context-parallel",
		"context_parallel"};
	static const char *const words[] = {"ism", "-size", "_size", " size"};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		for (const char *p = find(o, keys[k]); p; p = find(p + 1, keys[k])) {
			/* "CP" starts a token, or follows the x of "TP2xCP2" */
			if (k == 0 && p > o && isalnum((unsigned char)p[-1]) &&
			    !(tolower((unsigned char)p[-1]) == 'x' && p - o > 1 &&
			      isdigit((unsigned char)p[-2])))
				continue;
			const char *q = p + strlen(keys[k]);
			for (size_t w = 0; k > 0 && w < sizeof words / sizeof words[0]; w++)
				if (!strncasecmp(q, words[w], strlen(words[w]))) {
					q += strlen(words[w]);
					break;
				}
			while (*q == '=' || *q == ' ' || *q == ':')
				q++;
			if (isdigit((unsigned char)*q) && atoi(q) > 1 && !isalpha((unsigned char)q[1]))
				return atoi(q);
		}
	return 1;
}

static int training_of(const val_row *r, scenario *s, bool layer_only, bool *assumed, char *why,
                       size_t n)
{
	scn_training *t = &s->training;
	int tp = r->tp, pp = r->pp, dp = r->dp;
	int cp = cp_of(r->other);
	if (moe_of(r)) {
		snprintf(why, n, "a mixture-of-experts model (experts, expert parallelism) is not "
		         "modelled: simulating it as dense would count every expert's FLOPs");
		return -1;
	}
	/* ZeRO-Offload / -Infinity, FSDP CPU offload: optimizer state or
	 * parameters live in host memory or on NVMe, moved over PCIe every step */
	if ((affirmed(r->other, "offload") || has(r->other, "ZeRO-Infinity") ||
	     has(r->other, "ZeRO Infinity")) && !has(r->other, "no offload")) {
		snprintf(why, n, "CPU/NVMe offload (ZeRO-Offload, ZeRO-Infinity) is not modelled: the "
		         "optimizer state would be simulated in GPU memory");
		return -1;
	}
	/* A data-parallel framework named without model parallelism (FSDP,
	 * ZeRO, DDP) has tp = pp = 1; with the GPU count, the one size left
	 * out is the GPUs over the others. */
	bool dp_only = zero_of(r->other) > 0 || has(r->other, "FSDP") || has(r->other, "DDP") ||
	               has(r->other, "data parallel");
	if (dp_only && tp <= 0 && pp <= 0)
		tp = pp = 1, *assumed = true;
	if (r->gpus > 0 && (tp <= 0) + (pp <= 0) + (dp <= 0) == 1) {
		int known = (tp > 0 ? tp : 1) * (pp > 0 ? pp : 1) * (dp > 0 ? dp : 1) * cp;
		int left = r->gpus / known;
		if (left >= 1 && left * known == r->gpus) {
			if (tp <= 0)
				tp = left;
			else if (pp <= 0)
				pp = left;
			else
				dp = left;
			*assumed = true;
		}
	}
	if (tp <= 0 || pp <= 0 || dp <= 0) {
		snprintf(why, n, "tp, pp or dp missing");
		return -1;
	}
	/* Megatron counts dp without the CP ranks (tp x cp x pp x dp = GPUs); a
	 * row whose dp already holds them is read the same way */
	if (cp > 1 && tp * pp * dp == scn_gpus(s) && dp % cp == 0) {
		dp /= cp;
		*assumed = true;
	}
	t->tp = tp, t->pp = pp, t->dp = dp, t->cp = cp;
	if (!layer_only && tp * cp * pp * dp != scn_gpus(s)) {
		snprintf(why, n, "tp x %spp x dp = %d differs from gpus = %d", cp > 1 ? "cp x " : "",
		         tp * cp * pp * dp, scn_gpus(s));
		return -1;
	}
	t->global_batch = r->global_batch;
	/* a batch given in tokens ("4M tokens"): that many sequences of seq_len */
	if (t->global_batch <= 0 && r->batch_tokens > 0 && s->model.seq_len > 0) {
		t->global_batch = (int)llround(r->batch_tokens / s->model.seq_len);
		*assumed = true;
	}
	t->micro_batch = r->micro_batch;
	if (t->micro_batch <= 0 && pp == 1 && r->global_batch > 0) {
		t->micro_batch = r->global_batch / dp;    /* no accumulation */
		*assumed = true;
	} else if (t->micro_batch <= 0 && pp > 1 && r->global_batch > 0) {
		/* a pipeline run fills its stages with micro-batches of one sequence:
		 * what Megatron's and NeMo's large-model recipes use (the 1T run, GPT-3
		 * 175B and Llama 3 405B in their papers and tables) */
		t->micro_batch = 1;
		*assumed = true;
	}
	if (layer_only && t->global_batch <= 0)
		t->global_batch = t->micro_batch * dp;
	if (t->global_batch <= 0 || t->micro_batch <= 0) {
		snprintf(why, n, "%s missing", t->global_batch <= 0 ? "global_batch" :
		         "micro_batch (a pipeline run needs it)");
		return -1;
	}
	/* A published batch a little off the layout's multiples (GPT-NeoX-20B's
	 * 1538 on 12 data-parallel ranks of 4 sequences: the run took 1536) runs
	 * at the nearest multiple, marked inferred; one further off than 5% is a
	 * row that does not describe its layout. */
	int per = t->micro_batch * dp;
	if (t->global_batch % per) {
		int k = (int)((double)t->global_batch / per + 0.5);
		if (k < 1 || fabs((double)k * per / t->global_batch - 1) > 0.05) {
			snprintf(why, n, "global_batch %d is not a multiple of micro_batch x dp = %d "
			         "(nor within 5%% of one)", t->global_batch, per);
			return -1;
		}
		t->global_batch = k * per;
		*assumed = true;
	}
	t->precision = precision_of(r->precision, assumed);
	scn_recompute said_rc;
	bool rc_said = !*r->recompute && recompute_in_text(r->other, &said_rc);
	t->recompute = rc_said ? said_rc : recompute_of(r->recompute, assumed);
	bool sp_said = affirmed_word(r->other, "SP") || affirmed_word(r->recompute, "SP") ||
	               affirmed(r->other, "sequence parallel") ||
	               affirmed(r->recompute, "sequence parallel") ||
	               affirmed(r->other, "sequence-parallel");
	bool no_sp = !sp_said && (has_word(r->other, "SP") || has(r->other, "sequence parallel") ||
	                          has(r->other, "sequence-parallel"));   /* named, negated */
	t->sequence_parallel = tp > 1 && sp_said;
	t->virtual_stages = virtual_stages(r, s->model.layers, pp, assumed);
	t->schedule = t->virtual_stages > 1 ? SCHED_INTERLEAVED : SCHED_1F1B;
	/* DeepSpeed's pipeline engine runs its own TrainSchedule; its
	 * BF16_Optimizer adds each micro-batch's bf16 gradients into fp32 ones
	 * after the backward, a pass of its own */
	if (pp > 1 && t->virtual_stages == 1 && names(r, "DeepSpeed") && !schedule_named(r))
		t->schedule = SCHED_DEEPSPEED;
	if (names(r, "DeepSpeed"))
		t->grad_accum_pass = true;
	else if (pp > 1 && t->virtual_stages == 1 && has(r->other, "GPipe"))
		t->schedule = SCHED_GPIPE;
	t->zero = zero_of(r->other);
	/* PyTorch DDP overlaps bucket all-reduces with the backward; Megatron's
	 * local DDP (and its later default) reduces after it, unless told to
	 * overlap (--overlap-grad-reduce, "overlapped DP"). fp16 Megatron
	 * reduces fp16 gradients; bf16 Megatron fp32 main grads (cost-models 3.3). */
	static const char *const dp_overlap[] = {"overlap-grad-reduce", "overlap_grad_reduce",
		"overlap grad", "overlapped DP", "DP overlap", "overlapped gradient",
		"gradient overlap", "overlapped all-reduce", "overlapped allreduce"};
	static const char *const pg_overlap[] = {"overlap-param-gather", "overlap_param_gather",
		"param gather overlap", "overlapped param", "param-gather overlap"};
	bool dp_said = has(r->other, "DDP=torch"), no_overlap = false, pg_said = false;
	for (size_t i = 0; i < sizeof dp_overlap / sizeof dp_overlap[0]; i++) {
		dp_said |= affirmed(r->other, dp_overlap[i]);
		no_overlap |= has(r->other, dp_overlap[i]) && !affirmed(r->other, dp_overlap[i]);
	}
	for (size_t i = 0; i < sizeof pg_overlap / sizeof pg_overlap[0]; i++)
		pg_said |= affirmed(r->other, pg_overlap[i]);
	/* Megatron's local DDP reduces after the backward */
	no_overlap |= has(r->other, "no overlap") || has(r->other, "without overlap") ||
	              has(r->other, "non-overlap") || has(r->other, "DDP=local");
	t->grad_reduce.overlap = dp_said && !no_overlap;
	t->grad_reduce.dtype = t->precision == PREC_FP16 ? PREC_FP16 : PREC_FP32;
	bool named_zero = zero_named(r->other) >= 0;
	/* --overlap-param-gather needs the distributed optimizer and
	 * --overlap-grad-reduce, which the row then implies */
	if (pg_said && !no_overlap) {
		if (!named_zero)
			t->zero = 1;
		t->grad_reduce.overlap = true;
	}
	/* NVIDIA NeMo's published runs (its performance recipes on Megatron-core):
	 * the distributed optimizer with the gradient reduce-scatter and the
	 * parameter all-gather overlapped layer by layer (NeMo user guide,
	 * "Communication Overlap"), sequence parallelism with tp > 1 */
	bool nemo = names(r, "NeMo");
	if (nemo && !no_overlap) {
		if (!named_zero)
			t->zero = 1;
		t->grad_reduce.overlap = true;
		if (tp > 1 && !no_sp)
			t->sequence_parallel = true;
		*assumed = true;
	}
	t->grad_reduce.overlap_param_gather = t->grad_reduce.overlap && !no_overlap &&
	                                      (t->zero == 1 || t->zero == 2) && (nemo || pg_said);
	if (t->precision != PREC_FP16 && !layer_only) {
		bool zero_open = !t->zero && !named_zero;
		bool sp_open = tp > 1 && !t->sequence_parallel && !no_sp;
		bool rc_open = !*r->recompute && !rc_said;
		/* DeepSpeed's pipeline engine has no interleaved schedule, and its
		 * ZeRO reduces after the backward unless configured (overlap_comm) */
		bool deepspeed = names(r, "DeepSpeed");
		/* the speed-ups below only for a row that says bf16 or fp8 (not an
		 * assumed precision, nor tf32/fp32) */
		bool modern = *r->precision && (t->precision == PREC_BF16 || t->precision == PREC_FP8);
		/* today's Megatron and NeMo recipes pass --overlap-grad-reduce;
		 * PyTorch DDP and FSDP overlap by default */
		if (modern && dp > 1 && !deepspeed && !no_overlap && !t->grad_reduce.overlap) {
			t->grad_reduce.overlap = true;
			*assumed = true;
		}
		bool pick = modern && pp > 1 && !deepspeed && t->virtual_stages == 1 &&
		            t->schedule == SCHED_1F1B && !schedule_named(r);
		if ((pick ? choose_schedule(s, sp_open, zero_open, rc_open)
		          : fit_memory(s, sp_open, zero_open, rc_open)) || rc_open)
			*assumed = true;
	}
	return 0;
}

/* Model shapes the CSV has no columns for (GQA KV heads, FFN width and
 * gating, vocabulary), by family name and hidden size: Llama from Meta's
 * published model configurations (params.json / model cards); Nemotron-4
 * 15B and 340B from NVIDIA's reports (arXiv 2402.16819, 2406.11704: 48 / 96
 * heads with 8 KV heads, squared-ReLU MLP of 4h, not gated, 256,000 tokens). */
typedef struct zoo_model {
	const char *family;    /* matched in source, hardware or other_parallel */
	int hidden, ffn, kv_heads, vocab;
	bool gated;
} zoo_model;

static const zoo_model zoo[] = {
	{"Llama 3", 4096, 14336, 8, 128256, true}, {"Llama 3", 8192, 28672, 8, 128256, true},
	{"Llama 3", 16384, 53248, 8, 128256, true},
	{"Llama 2", 4096, 11008, 32, 32000, true}, {"Llama 2", 5120, 13824, 40, 32000, true},
	{"Llama 2", 8192, 28672, 8, 32000, true},
	{"Llama", 4096, 11008, 32, 32000, true}, {"Llama", 5120, 13824, 40, 32000, true},
	{"Llama", 6656, 17920, 52, 32000, true}, {"Llama", 8192, 22016, 64, 32000, true},
	{"Nemotron", 6144, 24576, 8, 256000, false}, {"Nemotron", 18432, 73728, 8, 256000, false},
};

/* "Llama 3", "Llama-3", "LLaMA3" all match the family "Llama 3". */
static bool names(const val_row *r, const char *family)
{
	const char *fields[] = {r->source, r->hardware, r->other, r->id};
	char alt[2][32];
	snprintf(alt[0], sizeof alt[0], "%s", family);
	snprintf(alt[1], sizeof alt[1], "%s", family);
	char *sp = strchr(alt[0], ' ');
	if (sp)
		*sp = '-';
	sp = strchr(alt[1], ' ');
	if (sp)
		memmove(sp, sp + 1, strlen(sp));
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (has(fields[i], family) || has(fields[i], alt[0]) || has(fields[i], alt[1]))
			return true;
	return false;
}

/* "kv_heads=8", "GQA 8", "num_query_groups 8" in other_parallel. */
static int kv_heads_of(const char *o)
{
	const char *keys[] = {"kv_heads", "GQA", "query_groups"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *p = find(o, keys[i]);
		if (!p)
			continue;
		p += strlen(keys[i]);
		while (*p && !isdigit((unsigned char)*p) && (p - o) < 200 && *p != ';')
			p++;
		if (isdigit((unsigned char)*p))
			return atoi(p);
	}
	return 0;
}

/* Published shapes of well-known models, for a row that names its model but
 * not its shape: GPT-3 (Brown et al. 2020, Table 2.1), Llama (Touvron et al.
 * 2023a Table 2), Llama 2 (2023b Table 1 and the model cards), Llama 3 (the
 * Llama 3 Herd paper, Table 3), Nemotron-4 (arXiv 2402.16819, 2406.11704);
 * seq_len is the model's training sequence. */
typedef struct named_shape {
	const char *family;
	double params_b;
	int layers, hidden, heads, seq_len;
} named_shape;

static const named_shape named_shapes[] = {
	{"GPT-3", 0.125, 12, 768, 12, 2048}, {"GPT-3", 0.35, 24, 1024, 16, 2048},
	{"GPT-3", 0.76, 24, 1536, 16, 2048}, {"GPT-3", 1.3, 24, 2048, 24, 2048},
	{"GPT-3", 2.7, 32, 2560, 32, 2048}, {"GPT-3", 6.7, 32, 4096, 32, 2048},
	{"GPT-3", 13, 40, 5120, 40, 2048}, {"GPT-3", 175, 96, 12288, 96, 2048},
	{"Llama 3", 8, 32, 4096, 32, 8192}, {"Llama 3", 70, 80, 8192, 64, 8192},
	{"Llama 3", 405, 126, 16384, 128, 8192},
	{"Llama 2", 7, 32, 4096, 32, 4096}, {"Llama 2", 13, 40, 5120, 40, 4096},
	{"Llama 2", 70, 80, 8192, 64, 4096},
	{"Llama", 7, 32, 4096, 32, 2048}, {"Llama", 13, 40, 5120, 40, 2048},
	{"Llama", 33, 60, 6656, 52, 2048}, {"Llama", 65, 80, 8192, 64, 2048},
	{"Nemotron", 15, 32, 6144, 48, 4096}, {"Nemotron", 340, 96, 18432, 96, 4096},
};

/* The named shape of a row's model: its family named in the text and its
 * parameter count within 10% (the most specific family first: "Llama 3"
 * before "Llama"). */
static const named_shape *named_shape_of(const val_row *r)
{
	if (r->params_b <= 0)
		return NULL;
	for (size_t i = 0; i < sizeof named_shapes / sizeof named_shapes[0]; i++) {
		const named_shape *z = &named_shapes[i];
		char bare[32];    /* "GPT3" for "GPT-3" */
		size_t k = 0;
		for (const char *p = z->family; *p && k < sizeof bare - 1; p++)
			if (*p != '-')
				bare[k++] = *p;
		bare[k] = '\0';
		if (fabs(r->params_b - z->params_b) <= 0.1 * z->params_b &&
		    (names(r, z->family) || names(r, bare)))
			return z;
	}
	return NULL;
}

static int model_of(const val_row *r, scenario *s, bool params_only, bool *assumed, char *why,
                    size_t n)
{
	scn_model *m = &s->model;
	int layers = r->layers, hidden = r->hidden, heads = r->heads, seq = r->seq_len;
	const named_shape *z = layers <= 0 || hidden <= 0 || heads <= 0 || seq <= 0
	                       ? named_shape_of(r) : NULL;
	if (z) {   /* fill what the row leaves out from the model's published shape */
		if (layers <= 0 || hidden <= 0 || heads <= 0)
			layers = z->layers, hidden = z->hidden, heads = z->heads;
		if (seq <= 0)
			seq = z->seq_len;
		*assumed = true;
	}
	if (params_only && (layers <= 0 || hidden <= 0) && r->params_b > 0) {
		m->params = r->params_b * 1e9;   /* a generic shape: only the count matters */
		m->seq_len = seq > 0 ? seq : 2048;
		m->vocab = vocab_of(r);
		return wl_model_resolve(m);
	}
	if (layers <= 0 || hidden <= 0 || heads <= 0 || seq <= 0) {
		snprintf(why, n, "model shape (layers, hidden, heads, seq_len) missing");
		return -1;
	}
	m->layers = layers;
	m->hidden = hidden;
	m->heads = heads;
	m->kv_heads = heads;
	m->seq_len = seq;
	m->vocab = vocab_of(r);
	m->ffn_hidden = 4 * hidden;
	for (size_t i = 0; i < sizeof zoo / sizeof zoo[0]; i++)
		if (zoo[i].hidden == hidden && names(r, zoo[i].family)) {
			m->gated_mlp = zoo[i].gated;
			m->ffn_hidden = zoo[i].ffn;
			m->kv_heads = zoo[i].kv_heads;
			m->vocab = zoo[i].vocab;
			break;
		}
	if (has(r->other, "SwiGLU") || has(r->other, "gated"))
		m->gated_mlp = true;
	int kv = kv_heads_of(r->other);
	if (kv > 0 && kv <= heads)
		m->kv_heads = kv;
	if (m->gated_mlp && m->ffn_hidden == 4 * hidden && !names(r, "Llama"))
		m->ffn_hidden = 0;      /* resolved: 8h/3 to a multiple of 256 */
	return wl_model_resolve(m);
}

/* ---- metrics ---- */

typedef struct metric_name {
	const char *name;
	val_metric m;
} metric_name;

static const metric_name metric_names[] = {
	{"achieved_tflops_per_gpu", VM_HW_TFLOPS}, {"tflops_per_gpu", VM_HW_TFLOPS},
	{"hw_tflops_per_gpu", VM_HW_TFLOPS}, {"pct_of_peak", VM_PCT_PEAK},
	{"aggregate_pflops", VM_AGG_PFLOPS}, {"mfu", VM_MFU}, {"hfu", VM_HFU},
	{"iteration_time", VM_ITER_TIME}, {"iteration_time_derived", VM_ITER_TIME},
	{"step_time", VM_ITER_TIME}, {"layer_forward_time", VM_LAYER_FWD},
	{"layer_backward_time", VM_LAYER_BWD}, {"layer_fwd_bwd_time", VM_LAYER_FWDBWD},
	{"throughput_increase_vs_full_recompute", VM_RECOMPUTE_GAIN},
	{"checkpoint_size_full", VM_CKPT_SIZE}, {"checkpoint_size", VM_CKPT_SIZE},
	{"hbm_triad_bw", VM_HBM_BW}, {"hbm_copy_bw", VM_HBM_BW}, {"step_time_s", VM_ITER_TIME},
	{"iteration_time_s", VM_ITER_TIME}, {"time_per_iteration", VM_ITER_TIME},
	{"hardware_tflops_per_gpu", VM_HW_TFLOPS}, {"model_tflops_per_gpu", VM_MODEL_TFLOPS},
	{"mfu_pct", VM_MFU}, {"hfu_pct", VM_HFU}, {"tokens_per_s", VM_TOKENS},
	{"tokens_per_sec", VM_TOKENS}, {"throughput_tokens_per_s", VM_TOKENS},
	{"samples_per_s", VM_SAMPLES}, {"samples_per_sec", VM_SAMPLES},
	{"sequences_per_s", VM_SAMPLES},
};

/* Other publications spell the same metrics their own way ("TFLOPs/GPU",
 * "tokens_per_sec_per_gpu", "elapsed_time_per_iteration_ms", "MFU (%)"):
 * after the exact names, words. A metric qualified by a condition the
 * simulator does not model (with/without fusion, relative to another row,
 * peak or average over a run) stays unpredicted. */
/* "/s" or "/sec" as a unit's denominator (not "/step", "/seq"). */
static bool slash_second(const char *t)
{
	for (const char *p = strchr(t, '/'); p; p = strchr(p + 1, '/'))
		if ((p[1] == 's' || p[1] == 'S') &&
		    (!isalpha((unsigned char)p[2]) || !strncasecmp(p + 1, "sec", 3)))
			return true;
	return false;
}

/* A rate: the name or the unit says "per second" in one of its spellings
 * (not "per_step" or "per_sample": those are counts). */
static bool per_second(const char *name, const char *unit)
{
	if (has_token(name, "per_s") || has_token(name, "per_sec") ||
	    has_token(name, "per_second") || has_token(name, "ps") || slash_second(name) ||
	    has(name, "throughput"))
		return true;
	return slash_second(unit) || has(unit, "per s") || has(unit, "/min") || has(unit, "/h") ||
	       has(unit, "/day") || has(unit, "-hour");
}

/* A qualifier that makes a name something else than the whole step's figure:
 * a part of the step, a count, another workload, a condition. */
static bool qualified(const char *name)
{
	static const char *const q[] = {"fusion", "_vs_", "speedup", "improvement", "eff",
		"variation", "_ratio", "ratio_", "busbw", "steps_per", "iters_per", "it/s", "_at_",
		"days", "hours", "optimizer", "data", "loader", "bubble", "checkpoint", "ckpt", "eval",
		"warmup", "total", "max", "min_", "batch", "inference", "decode", "generation",
		"prefill", "tokenizer", "forward", "backward", "fwd", "bwd", "comm", "allreduce",
		"all_reduce", "layer", "kernel", "attention", "startup", "init"};
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
		if (has(name, q[i]))
			return true;
	return false;
}

static val_metric metric_words(const char *name, const char *unit)
{
	if (qualified(name))
		return VM_NONE;
	if (has_token(name, "mfu") || has(name, "mfu_") || has(name, "_mfu"))
		return VM_MFU;
	if (has_token(name, "hfu") || has(name, "hfu_") || has(name, "_hfu"))
		return VM_HFU;
	if (has(name, "flops_utilization") || has(name, "flop_utilization"))
		return has(name, "hardware") ? VM_HFU : VM_MFU;   /* "model FLOPs utilization" */
	if (has(name, "tflop") || has(name, "pflop"))
		return has(name, "model") ? VM_MODEL_TFLOPS
		     : has(name, "pflop") || has(name, "aggregate") || has(unit, "aggregate") ||
		       has(unit, "total") || has(unit, "all GPUs") ? VM_AGG_PFLOPS : VM_HW_TFLOPS;
	if (has_token(name, "tps") || (has(name, "token") && per_second(name, unit)))
		return VM_TOKENS;
	if ((has(name, "sample") || has(name, "sequences") || has(name, "seqs") ||
	     has(name, "seq/s") || has(name, "seq_per_s")) && per_second(name, unit))
		return VM_SAMPLES;
	static const char *const step_time[] = {"iteration_time", "step_time", "iter_time",
		"time_per_iter", "time_per_step", "sec_per_iter", "sec_per_step", "seconds_per_iter",
		"seconds_per_step"};
	for (size_t i = 0; i < sizeof step_time / sizeof step_time[0]; i++)
		if (has(name, step_time[i]))
			return VM_ITER_TIME;
	if (has_token(name, "s_per_iter") || has_token(name, "s_per_step"))
		return VM_ITER_TIME;      /* not "tokens_per_step" */
	if (has(name, "throughput") || has(name, "speed"))   /* the unit says of what */
		return has(unit, "token") || has(unit, "tok/") ? VM_TOKENS
		     : has(unit, "sample") || has(unit, "seq") ? VM_SAMPLES
		     : has(unit, "TFLOP") ? VM_HW_TFLOPS : VM_NONE;
	return VM_NONE;
}

static val_metric metric_of(const char *name, const char *unit)
{
	for (size_t i = 0; i < sizeof metric_names / sizeof metric_names[0]; i++)
		if (!strcasecmp(name, metric_names[i].name))
			return metric_names[i].m;
	if (!strncasecmp(name, "gemm_", 5))
		return VM_GEMM;
	if (!strncasecmp(name, "flash_attn", 10) && has(name, "fwd"))
		return VM_FLASH_FWD;
	if (!strncasecmp(name, "flash_attn", 10) && has(name, "bwd"))
		return VM_FLASH_BWD;
	if (has(name, "scaling") && has(name, "eff"))
		return VM_SCALING_EFF;   /* weak/strong scaling efficiency, "..._vs_1gpu" */
	/* words as people write them: "iteration time (ms)", "time per step",
	 * "model FLOPs utilization" read as iteration_time, time_per_step, ... */
	char norm[256];
	size_t k = 0;
	for (const char *p = name; *p && k < sizeof norm - 1; p++) {
		char c = *p == ' ' || *p == '-' ? '_' : (char)tolower((unsigned char)*p);
		if (c == '_' && k && norm[k - 1] == '_')
			continue;
		norm[k++] = c;
	}
	norm[k] = '\0';
	return metric_words(norm, unit);
}

/* nccl-tests' size labels: "1K", "67M", "8G", "16GB", "8B", "2048": powers
 * of two printed in decimal units (65536 -> "65K"); a label 8% or more from
 * any power of two ("96M") is read in binary units (96 MiB). */
static double coll_size(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || !(v > 0) || !(v < 1e15))
		return 0;
	char u = (char)toupper((unsigned char)*end);
	double mult = u == 'K' ? 1e3 : u == 'M' ? 1e6 : u == 'G' ? 1e9 : u == 'T' ? 1e12 : 1;
	double b = v * mult;
	if (b < 1 || b > 1099511627776.0)
		return 0;           /* 1 B to 1 TiB: what nccl-tests can run */
	if (mult == 1)
		return b;
	double p2 = pow(2, round(log2(b)));
	if (fabs(b / p2 - 1) < 0.08)
		return p2;          /* "67M" = 2^26: a power of two printed in decimal */
	return v * (u == 'K' ? 1024.0 : u == 'M' ? 1048576.0 : u == 'G' ? 1073741824.0
	                                                      : 1099511627776.0);
}

/* The first message size written in a metric name without '@': a number,
 * blanks allowed, then K, M, G or T (KB, MiB, GB, gib, ...). Not a line rate
 * ("400Gbps", "400Gb/s"), not a count or a part ("400G_nic", "1k_gpus":
 * the unit followed by _nic, _gpu, _node, ...), not a GPU's memory
 * ("h100_80GB": right after a GPU name). */
static double size_in_name(const char *name)
{
	static const char *const parts[] = {"nic", "gpu", "node", "rank", "link", "port", "host",
		"server", "card", "hca"};
	static const char *const gpus[] = {"a100", "h100", "h200", "b200", "gb200", "v100", "h800",
		"a800", "mi300x", "mi250x", "l40s"};
	for (const char *p = name; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > name && (isalnum((unsigned char)p[-1]) ||
		                                                  p[-1] == '.')))
			continue;
		const char *q = p;
		while (isdigit((unsigned char)*q) || *q == '.')
			q++;
		while (*q == ' ' || *q == '_')
			q++;
		if (!*q || !strchr("KMGTkmgt", *q))
			continue;
		const char *e = q + 1;
		if (*e == 'i' || *e == 'I')
			e++;
		/* a lower-case b is bits only in a rate: "Gbps", "Gb/s", "gbit" */
		bool rate = (*e == 'b' && (e[1] == 'p' || e[1] == '/' || e[1] == 'i')) || *e == '/';
		if (*e == 'B' || (*e == 'b' && !rate))
			e++;
		if (rate || isalpha((unsigned char)*e))
			continue;
		const char *w = e;
		while (*w == '_' || *w == ' ')
			w++;
		bool part = false;
		for (size_t k = 0; k < sizeof parts / sizeof parts[0] && w > e; k++)
			part |= !strncasecmp(w, parts[k], strlen(parts[k]));
		for (size_t k = 0; k < sizeof gpus / sizeof gpus[0]; k++) {
			size_t n = strlen(gpus[k]);
			const char *g = p - 1 - n;   /* "<gpu>_<size>" */
			part |= g >= name && (p[-1] == '_' || p[-1] == ' ' || p[-1] == '-') &&
			        !strncasecmp(g, gpus[k], n);
		}
		if (part)
			continue;
		char buf[32];
		size_t len = (size_t)(q - p) < sizeof buf - 2 ? (size_t)(q - p) : sizeof buf - 2;
		memcpy(buf, p, len);
		while (len && (buf[len - 1] == ' ' || buf[len - 1] == '_'))
			len--;
		buf[len] = (char)toupper((unsigned char)*q);
		buf[len + 1] = '\0';
		return coll_size(buf);
	}
	return 0;
}

/* A collective benchmark row: "<op>_busbw@<size>" (also algbw, time,
 * latency), "<op>_avg_busbw_<from>-<to>" (nccl-tests' average over a x2
 * sweep), "<op>_small_msg_latency" (8 B), "<op>_busbw_large_msg" (1 GiB),
 * "<algo>_effective_nvlink_busbw" / "<op>_peak_busbw_<algo>" (8 GiB, the
 * top of nccl-tests' usual sweep). The op defaults to all_reduce. Returns
 * the metric, VM_NONE if the name is none of these. */
static val_metric coll_metric(const char *name, val_case *c)
{
	static const struct { const char *p; coll_op op; } ops[] = {
		{"allreduce", COLL_ALL_REDUCE}, {"all_reduce", COLL_ALL_REDUCE},
		{"all-reduce", COLL_ALL_REDUCE}, {"allgather", COLL_ALL_GATHER},
		{"all_gather", COLL_ALL_GATHER}, {"all-gather", COLL_ALL_GATHER},
		{"reducescatter", COLL_REDUCE_SCATTER}, {"reduce_scatter", COLL_REDUCE_SCATTER},
		{"reduce-scatter", COLL_REDUCE_SCATTER}, {"alltoall", COLL_ALL_TO_ALL},
		{"all_to_all", COLL_ALL_TO_ALL}, {"all-to-all", COLL_ALL_TO_ALL},
		{"broadcast", COLL_BROADCAST}, {"bcast", COLL_BROADCAST},
		{"sendrecv", COLL_SENDRECV}, {"reduce", COLL_REDUCE}};
	bool bw = has(name, "busbw") || has(name, "algbw");
	/* ratios, factors, a machine's bisection sum: no one collective */
	if (has(name, "_vs_") || has(name, "factor") || has(name, "bisection") || has(name, "_max_"))
		return VM_NONE;
	int op = -1;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0] && op < 0; i++)
		if (has(name, ops[i].p))
			op = (int)ops[i].op;
	/* a point-to-point bandwidth between two nodes that names no other
	 * collective (iperf-like, "per NIC achievable", "sendrecv bandwidth"):
	 * 1 GiB (or the size named) from GPU 0 to the next node; nccl-tests'
	 * sendrecv_busbw@... rows take the general path below */
	bool p2p = has(name, "p2p") || has(name, "point_to_point") || has(name, "point-to-point") ||
	           has(name, "per_nic") || has(name, "nic_achievable") ||
	           (op == COLL_SENDRECV && !bw);
	if (p2p && (op < 0 || op == COLL_SENDRECV) && !has(name, "avg_") &&
	    (bw || has(name, "bw") || has(name, "bandwidth")) && !has(name, "latency")) {
		c->coll_op = COLL_SENDRECV;
		c->coll_algo = ALGO_AUTO;
		double b = strchr(name, '@') ? coll_size(strchr(name, '@') + 1) : size_in_name(name);
		c->coll_bytes = b > 0 ? b : 1073741824.0;
		return has(name, "algbw") ? VM_COLL_ALGBW : VM_COLL_BUSBW;
	}
	if (!bw && !has(name, "latency") && !(strchr(name, '@') && has(name, "time")))
		return VM_NONE;
	if (op < 0 && !bw)
		return VM_NONE;     /* "decode_time@2K" is no collective */
	c->coll_op = op < 0 ? COLL_ALL_REDUCE : op;
	c->coll_algo = has_token(name, "nvls") ? ALGO_NVLS : has_token(name, "ring") ? ALGO_RING
	             : has_token(name, "tree") ? ALGO_TREE : ALGO_AUTO;
	const char *at = strchr(name, '@');
	if (at) {
		c->coll_bytes = coll_size(at + 1);
		if (c->coll_bytes <= 0)
			return VM_NONE;
		return has(name, "algbw") ? VM_COLL_ALGBW : has(name, "busbw") ? VM_COLL_BUSBW
		                                                                 : VM_COLL_TIME;
	}
	const char *avg = find(name, "avg_busbw_");
	if (avg) {
		const char *dash = strchr(avg + 10, '-');
		c->coll_bytes = coll_size(avg + 10);
		c->coll_bytes_hi = dash ? coll_size(dash + 1) : 0;
		if (c->coll_bytes <= 0 || c->coll_bytes_hi < c->coll_bytes)
			return VM_NONE;
		return VM_COLL_AVG_BUSBW;
	}
	if (has(name, "small_msg") && has(name, "latency")) {
		c->coll_bytes = 8;
		return VM_COLL_TIME;
	}
	if (has(name, "large_msg") || has_token(name, "large")) {
		c->coll_bytes = 1073741824.0;
		return has(name, "algbw") ? VM_COLL_ALGBW : VM_COLL_BUSBW;
	}
	if (has(name, "peak_busbw") || has(name, "effective_nvlink_busbw")) {
		c->coll_bytes = 8589934592.0;
		return VM_COLL_BUSBW;
	}
	/* "all_reduce busbw 8GB", "alltoall_busbw_1G" */
	double b = size_in_name(name);
	if (b > 0) {
		c->coll_bytes = b;
		return has(name, "algbw") ? VM_COLL_ALGBW : has(name, "busbw") ? VM_COLL_BUSBW
		                                                                 : VM_COLL_TIME;
	}
	return VM_NONE;
}

/* Tokens or samples per second published per GPU: the metric or the unit
 * says so ("tokens_per_sec_per_gpu", "tokens/s/GPU", "per GPU"). */
static bool per_gpu(const val_row *r)
{
	return has(r->metric, "per_gpu") || has(r->metric, "/gpu") || has(r->metric, "per gpu") ||
	       has(r->unit, "/gpu") || has(r->unit, "per gpu") || has(r->unit, "per-gpu");
}

/* Why a metric is not predicted here, for the list of rows not simulated. */
static const char *not_predicted(const char *name)
{
	if (has(name, "interrupt") || has(name, "failure") || has(name, "mtbf") || has(name, "hours") ||
	    has(name, "effective_training") || has(name, "goodput"))
		return "failure statistics, not a step";
	if (has(name, "busbw") || has(name, "allreduce") || has(name, "nvlink") || has(name, "nic") ||
	    has(name, "bisection"))
		return "a collective/link benchmark: compare with `trainsim nccl`";
	if (has(name, "checkpoint") || has(name, "save") || has(name, "load") || has(name, "nvme") ||
	    has(name, "h2d"))
		return "storage/checkpoint I/O, not predicted by validate";
	if (has(name, "scaling_eff") || has(name, "eff"))
		return "relative to another row (scaling efficiency)";
	return "metric not predicted by validate";
}

/* Published unit -> SI factor, from the unit's leading token (any case:
 * "TFLOP/s", "TFLOPS", "TFLOPs/GPU"; "ms", "msec", "milliseconds", "us", "µs";
 * "k tokens/s", "Mtok/s"; "MB/s"), a lower-case b meaning bits ("Gb/s",
 * "gbps"), and a rate's denominator ("/min", "/hour", "-hour", "/day"). An
 * empty or unknown unit takes the metric's usual one: TFLOP/s for TFLOP/s
 * metrics, PFLOP/s for aggregates, seconds for times, GB/s and us for
 * nccl-tests rows; MFU, HFU and % of peak given as a fraction (<= 1 with no
 * '%') are scaled to percent. */
static double unit_scale(const char *u, val_metric m, double value)
{
	static const struct { const char *p; double f; } units[] = {
		{"milliseconds", 1e-3}, {"millisecond", 1e-3}, {"millisec", 1e-3}, {"msec", 1e-3},
		{"ms", 1e-3}, {"microseconds", 1e-6}, {"microsec", 1e-6}, {"usec", 1e-6},
		{"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"\xce\xbcs", 1e-6}, {"TFLOP", 1e12},
		{"PFLOP", 1e15}, {"GFLOP", 1e9}, {"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6},
		{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"k tokens", 1e3}, {"ktokens", 1e3},
		{"k tok", 1e3}, {"ktok", 1e3}, {"M tokens", 1e6}, {"Mtokens", 1e6}, {"M tok", 1e6},
		{"Mtok", 1e6}, {"tokens", 1}, {"tok", 1}, {"k samples", 1e3}, {"samples", 1},
		{"seq", 1}, {"minutes", 60}, {"min", 60}, {"hours", 3600}, {"hour", 3600},
		{"seconds", 1}, {"second", 1}, {"sec", 1}, {"s", 1}, {"%", 1}};
	while (isspace((unsigned char)*u))
		u++;
	if ((u[0] == 'G' || u[0] == 'g') && u[1] == 'b')
		return 1e9 / 8;      /* bits: a lower-case b (GB/s is bytes) */
	bool pct = m == VM_MFU || m == VM_HFU || m == VM_PCT_PEAK || m == VM_RECOMPUTE_GAIN ||
	           m == VM_SCALING_EFF;
	if (pct)
		return !strchr(u, '%') && value > 0 && value <= 1 ? 100 : 1;
	double per = 1;          /* a rate's denominator in seconds */
	if (m == VM_TOKENS || m == VM_SAMPLES) {
		if (has(u, "/min"))
			per = 60;
		else if (has(u, "/day"))
			per = 86400;
		else if (has(u, "/h") || has(u, "-hour") || has(u, "per hour"))
			per = 3600;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strncasecmp(u, units[i].p, strlen(units[i].p)))
			return units[i].f / per;
	if (u[0] == 'h' && !isalpha((unsigned char)u[1]))
		return 3600;
	switch (m) {
	case VM_HW_TFLOPS:
	case VM_MODEL_TFLOPS:
	case VM_GEMM:
	case VM_FLASH_FWD:
	case VM_FLASH_BWD:
		return 1e12;
	case VM_AGG_PFLOPS:
		return 1e15;
	case VM_COLL_BUSBW:
	case VM_COLL_ALGBW:
	case VM_COLL_AVG_BUSBW:
		return 1e9;          /* nccl-tests prints GB/s */
	case VM_COLL_TIME:
		return 1e-6;         /* and microseconds */
	default:
		return 1 / per;
	}
}

/* Rows whose measurement set a constant of the compute model (compute.c):
 * their agreement is by construction, and the report says so. */
static bool param_source(const val_row *r, val_metric m)
{
	const char *id = r->id;
	/* H200K: the GEMMs of transformer-layer shapes (tagged "model/gemm")
	 * and the fused-attention rows measured on the lent H200 set compute.c's
	 * Hopper constants (H200_SUSTAIN, H200_FP8_RATIO, the attention size
	 * curve); its sweeps, copy and layer rows set nothing */
	if (!strncmp(id, "H200K-", 6) && ((m == VM_GEMM && strchr(r->other, '/')) ||
	                                  m == VM_FLASH_FWD || m == VM_FLASH_BWD))
		return true;
	/* NCCL-TCP: hw.c's TCP efficiency and its sharing law (NVIDIA/nccl #209) */
	static const char *ids[] = {"HW-AZ-001", "HW-AZ-002", "HW-AZ-003", "HW-AZ-004",
	                            "NCCL-TCP-001", "NCCL-TCP-002", "NCCL-TCP-003"};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (!strcmp(id, ids[i]))
			return true;
	return false;
}

/* The number right after `tag` in a kernel name ("_s" in "..._s8192_b1"):
 * the first occurrence followed by a digit; 0 when there is none. */
static double num_after(const char *name, const char *tag)
{
	size_t n = strlen(tag);
	for (const char *p = find(name, tag); p; p = find(p + 1, tag))
		if (isdigit((unsigned char)p[n]))
			return atof(p + n);
	return 0;
}

/* "gemm_fp16_16384^3" or "gemm_bf16_8192x4096x1024"; "flash_attn2_fwd_hd64_s8192",
 * "flash_attn_cudnn_causal_bwd_hd128_s4096_b2_h32". */
static int kernel_of(const val_row *r, val_case *c, char *why, size_t n)
{
	const char *name = r->metric;
	c->s.training.precision = has(name, "bf16") ? PREC_BF16 : has(name, "fp8") ? PREC_FP8
	                                                                          : PREC_FP16;
	if (c->metric == VM_GEMM) {
		const char *p = strrchr(name, '_');
		double m = 0, nn = 0, k = 0;
		if (p && strstr(p, "^3"))
			m = nn = k = atof(p + 1);
		else if (p && sscanf(p + 1, "%lfx%lfx%lf", &m, &nn, &k) != 3)
			m = 0;
		if (m <= 0 || nn <= 0 || k <= 0) {
			snprintf(why, n, "GEMM shape not readable in '%s'", name);
			return -1;
		}
		c->gemm_m = m, c->gemm_n = nn, c->gemm_k = k;
		snprintf(c->config, sizeof c->config, "%s gemm %.0fx%.0fx%.0f", c->s.cluster.gpu.name,
		         m, nn, k);
	} else if (c->metric == VM_FLASH_FWD || c->metric == VM_FLASH_BWD) {
		c->attn_hd = num_after(name, "hd");
		c->attn_seq = num_after(name, "_s");
		c->attn_causal = has(name, "causal");
		double b = num_after(name, "_b"), h = num_after(name, "_h");
		c->attn_bh = (b > 0 ? b : 1) * (h > 0 ? h : 32);
		if (c->attn_hd <= 0 || c->attn_seq <= 0) {
			snprintf(why, n, "head dim / sequence not readable in '%s'", name);
			return -1;
		}
		snprintf(c->config, sizeof c->config, "%s flash %s%s hd%.0f s%.0f",
		         c->s.cluster.gpu.name, c->metric == VM_FLASH_FWD ? "fwd" : "bwd",
		         c->attn_causal ? " causal" : "", c->attn_hd, c->attn_seq);
	} else {
		snprintf(c->config, sizeof c->config, "%s HBM stream", c->s.cluster.gpu.name);
	}
	return 0;
}

static void describe(const val_row *r, val_case *c)
{
	const scn_training *t = &c->s.training;
	char v[16] = "";
	if (t->virtual_stages > 1)
		snprintf(v, sizeof v, "v%d", t->virtual_stages);
	else if (t->schedule == SCHED_DEEPSPEED && t->pp > 1)
		snprintf(v, sizeof v, "ds");
	const char *rc = t->recompute == RECOMPUTE_FULL ? "full"
	               : t->recompute == RECOMPUTE_SELECTIVE ? "sel" : "none";
	char z[16] = "";
	if (t->zero > 0)
		snprintf(z, sizeof z, " Z%d", t->zero);
	char cp[16] = "";
	if (t->cp > 1)
		snprintf(cp, sizeof cp, " CP%d", t->cp);
	snprintf(c->config, sizeof c->config, "l%d h%d TP%d%s%s PP%d%s DP%d%s mb%d B%d %s %s%s",
	         c->s.model.layers, c->s.model.hidden, t->tp, t->sequence_parallel ? "+SP" : "", cp,
	         t->pp, v, t->dp, z,
	         t->micro_batch, t->global_batch, rc, hw_precision_name(t->precision),
	         c->assumed ? " *" : "");
}

/* A row that is no training step (a collective, a kernel, a checkpoint
 * size) gets a placeholder model and layout that the scenario loader
 * accepts and the prediction ignores, so that `validate --show` prints a
 * file `trainsim run` and `trainsim nccl` take. */
static void placeholder_workload(scenario *s)
{
	scn_model *m = &s->model;
	if (m->layers <= 0 && m->params <= 0 && !m->custom)
		m->layers = 1, m->hidden = 1024, m->heads = 8, m->seq_len = 2048;
	scn_training *t = &s->training;
	if (t->global_batch > 0)
		return;
	if (s->cluster.gpu.peak_flops[t->precision] <= 0)
		t->precision = PREC_FP16;   /* V100: no bf16 */
	t->tp = t->pp = t->cp = 1;
	t->dp = scn_gpus(s) > 0 ? scn_gpus(s) : 1;
	t->micro_batch = 1;
	t->global_batch = t->dp;
}

static int build_case(const val_row *r, val_case *c, char *why, size_t n);

int val_build(const val_row *r, val_case *c, char *why, size_t n)
{
	int rc = build_case(r, c, why, n);
	if (rc == 0)
		placeholder_workload(&c->s);
	return rc;
}

static int build_case(const val_row *r, val_case *c, char *why, size_t n)
{
	memset(c, 0, sizeof *c);
	scn_defaults(&c->s);
	snprintf(c->s.name, sizeof c->s.name, "%s", r->id);
	c->metric = metric_of(r->metric, r->unit);
	if (c->metric == VM_NONE)
		c->metric = coll_metric(r->metric, c);
	if (c->metric == VM_NONE) {
		snprintf(why, n, "%s", not_predicted(r->metric));
		return -1;
	}
	if (!r->has_value) {
		snprintf(why, n, "no published value");
		return -1;
	}
	const char *quoted = find(r->unit, "time ");
	if (!(r->value > 0) && c->metric != VM_RECOMPUTE_GAIN &&
	    !(c->metric >= VM_COLL_BUSBW && c->metric <= VM_COLL_AVG_BUSBW && r->value == 0 &&
	      quoted && atof(quoted + 5) > 0)) {
		snprintf(why, n, "published value %g: not a positive quantity to compare with",
		         r->value);
		return -1;
	}
	/* a unit written in the metric's name, as Megatron's log prints it
	 * ("elapsed time per iteration (ms)"), when the unit column is empty */
	char unit_in_name[48] = "";
	const char *open = strrchr(r->metric, '(');
	if (!*r->unit && open && strchr(open, ')')) {
		size_t k = (size_t)(strchr(open, ')') - open - 1);
		if (k < sizeof unit_in_name) {
			memcpy(unit_in_name, open + 1, k);
			unit_in_name[k] = '\0';
		}
	}
	c->unit_scale = unit_scale(*r->unit ? r->unit : unit_in_name, c->metric, r->value);
	c->per_gpu = (c->metric == VM_TOKENS || c->metric == VM_SAMPLES) && per_gpu(r);
	c->published_si = r->value * c->unit_scale;
	c->param_source = param_source(r, c->metric);
	if (c->metric >= VM_COLL_BUSBW && c->metric <= VM_COLL_AVG_BUSBW) {
		/* nccl-tests rounds a tiny busbw to 0.00; the row then quotes the
		 * time ("GB/s (time 13.03 us)"): compare that instead */
		const char *tm = find(r->unit, "time ");
		if (r->value == 0 && c->metric != VM_COLL_TIME && tm && atof(tm + 5) > 0) {
			char *end;
			double v = strtod(tm + 5, &end);
			while (*end == ' ')
				end++;
			c->metric = VM_COLL_TIME;
			c->unit_scale = unit_scale(end, VM_COLL_TIME, v);
			c->published_si = v * c->unit_scale;
			c->unit = c->unit_scale == 1e-3 ? "ms" : c->unit_scale == 1 ? "s" : "us";
		}
		return coll_cluster_of(r, c, why, n);
	}
	if (cluster_of(r, &c->s, why, n) < 0)
		return -1;
	if (c->metric == VM_GEMM || c->metric == VM_FLASH_FWD || c->metric == VM_FLASH_BWD ||
	    c->metric == VM_HBM_BW)
		return kernel_of(r, c, why, n);
	bool layer_only = c->metric == VM_LAYER_FWD || c->metric == VM_LAYER_BWD ||
	                  c->metric == VM_LAYER_FWDBWD;
	if (model_of(r, &c->s, c->metric == VM_CKPT_SIZE, &c->assumed, why, n) < 0)
		return -1;
	if (c->metric == VM_CKPT_SIZE && c->s.model.params > 0) {
		snprintf(c->config, sizeof c->config, "%.0fB params (generic shape) %s", r->params_b,
		         hw_precision_name(c->s.training.precision));
		c->assumed = true;
		return 0;
	}
	if (training_of(r, &c->s, layer_only, &c->assumed, why, n) < 0)
		return -1;
	/* NVIDIA's NeMo and Megatron-Bridge tables count model FLOPs with the
	 * causal half of the attention scores (Megatron-Bridge 25.11: 744 TFLOP/s
	 * at 14451 tokens/s for Llama 3 8B at 8192 tokens = 51.5 GFLOP a token,
	 * the causal count; 57.9 in full); a row may also say "causal" */
	c->causal_count = ((names(r, "NeMo") || names(r, "Megatron-Bridge")) &&
	                   !has(r->unit, "full attention") && !has(r->other, "full attention")) ||
	                  affirmed(r->unit, "causal") || affirmed(r->metric, "causal");
	describe(r, c);
	return 0;
}

/* ---- scaling efficiency: a row against its series' baseline ---- */

/* Work of one step in the convention of weak-scaling tables (Megatron's
 * README: parameters x sequences per GPU and second against the 1-GPU
 * run): parameters x global batch x sequence length. */
static double step_work(const scenario *s)
{
	return wl_params(&s->model) * s->training.global_batch * s->model.seq_len;
}

static bool step_metric(val_metric m)
{
	return m != VM_NONE && m != VM_GEMM && m != VM_HBM_BW && m != VM_FLASH_FWD &&
	       m != VM_FLASH_BWD &&
	       m != VM_CKPT_SIZE && m != VM_LAYER_FWD && m != VM_LAYER_BWD &&
	       m != VM_LAYER_FWDBWD && !(m >= VM_COLL_BUSBW && m <= VM_COLL_AVG_BUSBW);
}

/* Whether rows[j] can be the baseline of c (row r): the same source, a step
 * layout that builds, the same GPU. Its case is left in *cj (released by the
 * caller when true). */
static bool baseline_candidate(const val_row *r, const val_case *c, const val_row *rj,
                               val_case *cj)
{
	char why[200];
	if (strcmp(r->source, rj->source) || rj->gpus <= 0)
		return false;
	if (val_build(rj, cj, why, sizeof why) < 0)
		return false;
	if (!step_metric(cj->metric) || strcmp(cj->s.cluster.gpu.name, c->s.cluster.gpu.name)) {
		scn_release(&cj->s);
		return false;
	}
	return true;
}

static bool is_hundred(const val_row *r)
{
	return r->has_value && fabs(r->value - 100) < 0.05;
}

/* Order of preference among the baseline candidates of row r: the series'
 * 100% row of r's metric first; then the fewest GPUs; the same shape; the
 * smaller step (layers x hidden^2 x tokens, from the row's own fields). */
typedef struct base_key {
	size_t j;
	int hundred, shape, gpus;
	double size;
} base_key;

static int base_key_cmp(const void *pa, const void *pb)
{
	const base_key *a = pa, *b = pb;
	if (a->hundred != b->hundred)
		return a->hundred - b->hundred;
	if (a->gpus != b->gpus)
		return a->gpus < b->gpus ? -1 : 1;
	if (a->shape != b->shape)
		return a->shape - b->shape;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return a->j < b->j ? -1 : a->j > b->j;
}

int val_link_baseline(const val_row *rows, size_t n, size_t i, val_case *c, char *why,
                      size_t whylen)
{
	const val_row *r = &rows[i];
	c->has_base = false;
	/* candidates from the rows' own fields (cheap), sorted; then built in
	 * that order until one is a step layout on the same GPU */
	base_key *k = malloc((n ? n : 1) * sizeof *k);
	if (!k) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	size_t nk = 0;
	for (size_t j = 0; j < n; j++) {
		const val_row *q = &rows[j];
		if (j == i || q->gpus <= 0 || strcmp(q->source, r->source))
			continue;
		bool hundred = is_hundred(q) && !strcasecmp(q->metric, r->metric);
		if (q->gpus >= r->gpus)
			continue;   /* a baseline runs on fewer GPUs */
		k[nk++] = (base_key){j, hundred ? 0 : 1, q->layers == r->layers && q->hidden == r->hidden
		                     ? 0 : 1, q->gpus, (double)q->layers * q->hidden * q->hidden *
		                     q->seq_len * (q->global_batch > 0 ? q->global_batch : 1)};
	}
	qsort(k, nk, sizeof *k, base_key_cmp);
	long best = -1;
	for (size_t a = 0; a < nk && best < 0; a++) {
		val_case cj;
		if (!baseline_candidate(r, c, &rows[k[a].j], &cj))
			continue;
		/* row r, a 100% row itself, is its series' baseline unless a 100%
		 * row of fewer GPUs (sorted first) is one */
		if (is_hundred(r) && k[a].hundred != 0) {
			scn_release(&cj.s);
			break;
		}
		best = (long)k[a].j;
		c->base = cj.s;
		c->base_work = step_work(&cj.s);
		c->has_base = true;
	}
	free(k);
	if (best < 0) {
		if (c->has_base)
			scn_release(&c->base);
		c->has_base = false;
		snprintf(why, whylen, is_hundred(r) ? "the baseline of its scaling series (100%% by "
		         "definition)" : "no row with fewer GPUs in its series to scale from");
		return -1;
	}
	c->work = step_work(&c->s);
	return 0;
}

bool val_coll_goal_family(const char *family)
{
	return !strcmp(family, "NCCL-AZ") || !strcmp(family, "NCCL-DGXH100");
}

bool val_goal_family(const char *family)
{
	return !strcmp(family, "MEG21T1") || !strcmp(family, "KOR22");
}
