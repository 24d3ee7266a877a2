/* workload.c: what a training step computes and holds: parameter counts, FLOPs
 * in the model (MFU) and hardware (HFU) conventions and in the Megatron paper
 * conventions, the split of layers over pipeline stages, memory per GPU, the
 * optimizer step and checkpoint sizes. Per-operation costs are in wl_layer.c,
 * operation times in compute.c. Formulas: shared/reference/cost-models.md 2. */
#include <math.h>
#include <string.h>
#include "wl_int.h"
#include "plan.h"

/* Megatron GPT vocabulary (GPT-2 BPE 50257 padded to a multiple of 1024);
 * used when a generic model gives none. */
#define DEFAULT_VOCAB 51200
#define DEFAULT_SEQ 2048

double wl__prec_bytes(hw_precision p)
{
	switch (p) {
	case PREC_FP32:
	case PREC_TF32:
		return 4;
	case PREC_FP8:
	case PREC_FP4:   /* its saved GEMM inputs taken at fp8's byte, UNVERIFIED */
		return 1;
	default:
		return 2;
	}
}

/* ---- model shape ---- */

static int round_up(double v, int mult)
{
	int r = (int)ceil(v / mult) * mult;
	return r < mult ? mult : r;
}

/* Derives layers/hidden/heads from a parameter count with the aspect ratio
 * of the GPT-3 family (hidden = 128 x layers: 175B is 96 x 12288) and heads
 * of dimension 128; hidden rounded to a multiple of 128. */
static void shape_from_params(scn_model *m)
{
	double n = m->params;
	double v = m->vocab, s = m->seq_len;
	double h = cbrt(128.0 * n / 12.0);
	for (int it = 0; it < 20; it++) {       /* account for embeddings */
		double rest = n - (v + s) * h;
		if (rest < n * 0.05)
			rest = n * 0.05;
		h = cbrt(128.0 * rest / 12.0);
	}
	int hid = round_up(h, 128);
	double per_layer = 12.0 * hid * hid + 13.0 * hid;
	int layers = (int)lround((n - (v + s) * hid) / per_layer);
	m->hidden = hid;
	m->layers = layers < 1 ? 1 : layers;
	m->heads = hid / 128;
}

int wl_model_resolve(scn_model *m)
{
	if (m->custom)
		return m->nlayers_custom > 0 ? 0 : -1;
	if (m->seq_len <= 0)
		m->seq_len = DEFAULT_SEQ;
	if (m->vocab <= 0)
		m->vocab = DEFAULT_VOCAB;
	if (m->hidden <= 0 || m->layers <= 0) {
		if (m->params <= 0)
			return -1;
		shape_from_params(m);
	}
	if (m->heads <= 0)
		m->heads = m->hidden >= 128 ? m->hidden / 128 : 1;
	if (m->kv_heads <= 0 || m->kv_heads > m->heads)
		m->kv_heads = m->heads;
	if (m->head_dim <= 0)
		m->head_dim = m->hidden / m->heads > 0 ? m->hidden / m->heads : 1;
	if (m->kv_lora_rank > 0) {
		m->kv_heads = m->heads;
		if (m->qk_rope_dim <= 0)
			m->qk_rope_dim = 64;
		if (m->v_head_dim <= 0)
			m->v_head_dim = m->head_dim;
	}
	if (m->ffn_hidden <= 0)   /* Llama: 2/3 of 4h, to a multiple of 256 */
		m->ffn_hidden = m->gated_mlp ? round_up(8.0 * m->hidden / 3.0, 256) : 4 * m->hidden;
	return 0;
}

void wl__model(const scn_model *m, scn_model *out)
{
	*out = *m;
	wl_model_resolve(out);
}

/* Non-gated models are GPT-style as Megatron builds them: learned position
 * embeddings, biases, LayerNorm, dropout, and the output layer tied to the
 * word embedding (Megatron's default). Gated models are Llama-style: rotary
 * positions, no biases, RMSNorm, no dropout, untied output layer. */
static bool tied(const scn_model *m)
{
	return !m->gated_mlp;
}

/* ---- parameters ---- */

/* Attention projections of one layer: their weights (without biases) and
 * the query/key and value widths of a head. Multi-head latent attention
 * (DeepSeek-V2/V3): queries through a q_lora latent (or directly), keys and
 * values expanded per head from one kv_lora latent plus a shared rotary key,
 * heads of head_dim + qk_rope_dim for scores and v_head_dim for values. */
static double attn_weights(const scn_model *m, double *dqk, double *dv)
{
	double h = m->hidden, A = m->heads;
	if (m->kv_lora_rank > 0) {
		double dn = m->head_dim, dr = m->qk_rope_dim, vv = m->v_head_dim;
		double ql = m->q_lora_rank, kl = m->kv_lora_rank;
		*dqk = dn + dr, *dv = vv;
		double q = ql > 0 ? h * ql + ql + ql * A * (dn + dr) : h * A * (dn + dr);
		double kv = h * (kl + dr) + kl + kl * A * (dn + vv);
		return q + kv + A * vv * h;
	}
	double q = A * m->head_dim, kvd = (double)m->kv_heads * m->head_dim;
	*dqk = *dv = m->head_dim;
	return h * (q + 2 * kvd) + q * h;
}

bool wl_layer_moe(const scn_model *m, int layer)
{
	return !m->custom && m->experts > 1 && layer >= m->dense_layers;
}

/* Matrices of one MLP: up and down, and the gate of a gated (SwiGLU) one. */
static double mlp_mats(const scn_model *m)
{
	return m->gated_mlp ? 3 : 2;
}

static double expert_width(const scn_model *m)
{
	return m->expert_ffn_hidden > 0 ? m->expert_ffn_hidden : m->ffn_hidden;
}

static int top_k(const scn_model *m)
{
	if (m->experts <= 1)
		return 1;
	return m->top_k > 0 ? m->top_k : 2;
}

double wl_layer_expert_params(const scn_model *m0, int layer)
{
	scn_model m;
	wl__model(m0, &m);
	if (!wl_layer_moe(&m, layer))
		return 0;
	double bias = m.gated_mlp ? 0 : expert_width(&m) + m.hidden;
	return m.experts * (mlp_mats(&m) * m.hidden * expert_width(&m) + bias);
}

double wl_layer_params(const scn_model *m0, int layer)
{
	scn_model m;
	wl__model(m0, &m);
	if (m.custom) {
		if (layer < 0 || layer >= m.nlayers_custom)
			return 0;
		return m.custom_layers[layer].params;
	}
	double h = m.hidden, f = m.ffn_hidden;
	double q = (double)m.heads * m.head_dim, kvd = (double)m.kv_heads * m.head_dim;
	double bias = m.gated_mlp ? 0 : 1, dqk, dv;
	double attn = attn_weights(&m, &dqk, &dv) + bias * (q + 2 * kvd + h);
	double mlp = mlp_mats(&m) * h * f + bias * (f + h);
	if (wl_layer_moe(&m, layer)) {
		/* router, routed experts and the shared experts (one MLP of their
		 * total width) instead of the dense MLP */
		double fs = m.shared_expert_ffn_hidden;
		mlp = h * m.experts + wl_layer_expert_params(&m, layer) +
		      (fs > 0 ? mlp_mats(&m) * h * fs + bias * (fs + h) : 0);
	}
	double norms = m.gated_mlp ? 2 * h : 4 * h;
	return attn + mlp + norms;
}

/* What one GPU holds of layer `layer`: the dense part split over tp, the
 * routed experts over ep x expert_tp (experts/ep of them, each split over
 * expert_tp). */
double wl_layer_gpu_params(const scenario *s, int layer)
{
	double all = wl_layer_params(&s->model, layer);
	double ex = wl_layer_expert_params(&s->model, layer);
	/* MLA's down projections to the latents (and their norms) are
	 * replicated over the TP ranks, not split */
	const scn_model *m = &s->model;
	double rep = 0;
	if (m->kv_lora_rank > 0) {
		double h = m->hidden, ql = m->q_lora_rank, kl = m->kv_lora_rank;
		double dr = m->qk_rope_dim > 0 ? m->qk_rope_dim : 64;
		rep = (ql > 0 ? h * ql + ql : 0) + h * (kl + dr) + kl;
	}
	int t = wl__tp(s);
	double per = (all - ex - rep) / t + rep + ex / (wl__ep(s) * wl__etp(s));
	/* fewer KV heads than TP ranks: each rank holds the K and V projections
	 * of one head, replicated (as the compute runs them, wl_layer.c), not
	 * kv_heads / t of one */
	scn_model mm;
	wl__model(m, &mm);
	if (mm.kv_lora_rank <= 0 && !mm.custom && mm.kv_heads > 0 && mm.kv_heads < t)
		per += 2.0 * mm.hidden * mm.head_dim * (1 - (double)mm.kv_heads / t);
	return per;
}

int wl_expert_dp(const scenario *s)
{
	long ranks = (long)wl__tp(s) * wl__dp_grad(s) / ((long)wl__etp(s) * wl__ep(s));
	return ranks > 1 ? (int)ranks : 1;
}

/* A ring's share of the buffer each rank sends in a reduction over n ranks. */
static double ring_share(int n)
{
	return n > 1 ? (double)(n - 1) / n : 0;
}

double wl_layer_dp_params(const scenario *s, int layer)
{
	double ex = wl_layer_expert_params(&s->model, layer) / (wl__ep(s) * wl__etp(s));
	double dense = wl_layer_gpu_params(s, layer) - ex;
	int n = wl__dp_grad(s);
	if (ex <= 0 || n <= 1)
		return dense + ex;
	return dense + ex * ring_share(wl_expert_dp(s)) / ring_share(n);
}

double wl_embedding_params(const scn_model *m0)
{
	scn_model m;
	wl__model(m0, &m);
	if (m.custom)
		return 0;
	double h = m.hidden;
	double word = (double)m.vocab * h;
	double pos = m.gated_mlp ? 0 : (double)m.seq_len * h;
	double out = tied(&m) ? 0 : word;
	double final_norm = m.gated_mlp ? h : 2 * h;
	return word + pos + out + final_norm;
}

double wl_params(const scn_model *m0)
{
	scn_model m;
	wl__model(m0, &m);
	if (m.custom) {
		double p = 0;
		for (int i = 0; i < m.nlayers_custom; i++)
			p += m.custom_layers[i].params;
		return p;
	}
	double p = wl_embedding_params(&m);
	for (int l = 0; l < m.layers; l++)
		p += wl_layer_params(&m, l);
	return p;
}

/* Parameters one token meets: the routed experts it is sent to, not all. */
double wl_active_params(const scn_model *m0)
{
	scn_model m;
	wl__model(m0, &m);
	double p = wl_params(&m);
	for (int l = 0; !m.custom && l < m.layers; l++)
		p -= wl_layer_expert_params(&m, l) * (1 - (double)top_k(&m) / m.experts);
	return p;
}

bool wl_layer_windowed(const scn_model *m, int layer)
{
	int w = m->sliding_window, n = m->global_every;
	return !m->custom && w > 0 && w < m->seq_len && (n <= 0 || (layer + 1) % n != 0);
}

double wl_attn_keys(const scn_model *m, int layer)
{
	double s = m->seq_len, w = m->sliding_window;
	return wl_layer_windowed(m, layer) ? w - w * w / (2 * s) : s / 2;
}

/* Query-key pairs of one layer's score matrix as the full (non-causal)
 * count takes them: s^2 for a global layer, and twice the causal pairs of a
 * windowed one, 2 s W - W^2 (s^2 again when W >= s). */
static double score_pairs(const scn_model *m, int layer)
{
	return 2.0 * m->seq_len * wl_attn_keys(m, layer);
}

/* ---- FLOPs ---- */

/* Forward FLOPs of one transformer layer for one sequence, attention s^2
 * terms counted in full (no causal halving: see docs/workload.md). */
static double layer_fwd_flops(const scn_model *m, int layer)
{
	double h = m->hidden, f = m->ffn_hidden, s = m->seq_len;
	double dqk, dv;
	double proj = 2 * s * attn_weights(m, &dqk, &dv);   /* Q, K, V and output projections */
	double mlp = 2 * s * h * f * mlp_mats(m);
	if (wl_layer_moe(m, layer))   /* router, top_k experts, shared experts */
		mlp = 2 * s * h * (m->experts + mlp_mats(m) * (top_k(m) * expert_width(m) +
		                                               m->shared_expert_ffn_hidden));
	/* QK^T and attention x V */
	double core = 2 * score_pairs(m, layer) * m->heads * (dqk + dv);
	return proj + mlp + core;
}

static double layers_fwd_flops(const scn_model *m)
{
	if (m->experts <= 1 && m->sliding_window <= 0)
		return m->layers * layer_fwd_flops(m, 0);
	double f = 0;
	for (int l = 0; l < m->layers; l++)
		f += layer_fwd_flops(m, l);
	return f;
}

static double logits_fwd_flops(const scn_model *m)
{
	return 2.0 * m->seq_len * m->hidden * m->vocab;
}

static double custom_fwd_flops(const scn_model *m)
{
	double f = 0;
	for (int i = 0; i < m->nlayers_custom; i++)
		f += m->custom_layers[i].fwd_flops;
	return f;
}

double wl_model_flops_per_seq(const scn_model *m0)
{
	scn_model m;
	wl__model(m0, &m);
	if (m.custom)
		return 3 * custom_fwd_flops(&m);
	return 3 * (layers_fwd_flops(&m) + logits_fwd_flops(&m));
}

/* The attention-score FLOPs of one sequence's step (QK^T and attention x V,
 * forward and backward: 3 x layers x 4 s^2 h), all of which the full count
 * above includes; a count of the causal half takes half of them off. */
double wl_attn_score_flops_per_seq(const scn_model *m0)
{
	scn_model m;
	wl__model(m0, &m);
	if (m.custom)
		return 0;
	double dqk, dv, pairs = 0;
	attn_weights(&m, &dqk, &dv);
	for (int l = 0; l < m.layers; l++)
		pairs += score_pairs(&m, l);
	return 3.0 * 2.0 * pairs * m.heads * (dqk + dv);
}

double wl_hw_flops_per_seq(const scn_model *m0, scn_recompute rc)
{
	scn_model m;
	wl__model(m0, &m);
	double f = wl_model_flops_per_seq(&m);
	if (m.custom)
		return rc == RECOMPUTE_FULL ? f + custom_fwd_flops(&m) : f;
	if (rc == RECOMPUTE_FULL)
		f += layers_fwd_flops(&m);
	else if (rc == RECOMPUTE_SELECTIVE)
		f += wl_attn_score_flops_per_seq(&m) / 3;
	return f;
}

/* The paper formulas describe Megatron's GPT (f = 4h, one KV head per head,
 * no gating); for any other shape our exact count is used instead (for GPT
 * the two agree term by term: check_workload). */
static bool gpt_shaped(const scn_model *m)
{
	return !m->custom && !m->gated_mlp && m->kv_heads == m->heads && m->experts <= 1 &&
	       m->kv_lora_rank <= 0 &&
	       m->head_dim * m->heads == m->hidden &&
	       m->ffn_hidden == 4 * m->hidden &&
	       (m->sliding_window <= 0 || m->sliding_window >= m->seq_len);
}

double wl_paper_model_flops_per_seq(const scn_model *m0)
{
	scn_model m;
	wl__model(m0, &m);
	if (!gpt_shaped(&m))
		return wl_model_flops_per_seq(&m);
	double s = m.seq_len, h = m.hidden, l = m.layers, v = m.vocab;
	return 72 * s * l * h * h * (1 + s / (6 * h) + v / (12 * l * h));
}

double wl_paper_hw_flops_per_seq(const scn_model *m0, scn_recompute rc)
{
	scn_model m;
	wl__model(m0, &m);
	if (!gpt_shaped(&m))
		return wl_hw_flops_per_seq(&m, rc);
	double s = m.seq_len, h = m.hidden, l = m.layers, v = m.vocab;
	if (rc == RECOMPUTE_FULL)
		return 96 * s * l * h * h * (1 + s / (6 * h) + v / (16 * l * h));
	if (rc == RECOMPUTE_SELECTIVE)
		return 72 * s * l * h * h * (1 + s / (3 * h) + v / (12 * l * h));
	return wl_paper_model_flops_per_seq(&m);
}

/* All adapters of a LoRA model: every layer's (wl_lora_layer_params). */
static double lora_params(const scenario *s)
{
	double p = 0;
	for (int l = 0; l < s->model.layers; l++)
		p += wl_lora_layer_params(s, l);
	return p;
}

/* FLOPs per sequence LoRA does not run: the weight gradients of the frozen
 * matrices a token meets (2 x params x tokens: the layers' active weights and
 * the output layer), less the adapters' forward, dgrad and wgrad (6 x their
 * parameters x tokens). 0 without LoRA. */
static double lora_saved_per_seq(const scenario *s)
{
	if (s->training.peft != PEFT_LORA || s->model.custom)
		return 0;
	scn_model m;
	wl__model(&s->model, &m);
	double frozen = (m.experts > 1 ? wl_active_params(&m) : wl_params(&m)) -
	                wl_embedding_params(&m) + (double)m.vocab * m.hidden;
	return (2 * frozen - 6 * lora_params(s)) * m.seq_len;
}

double wl_step_model_flops(const scenario *s)
{
	return s->training.global_batch * (wl_model_flops_per_seq(&s->model) - lora_saved_per_seq(s));
}

double wl_step_hw_flops(const scenario *s)
{
	const scn_training *t = &s->training;
	double f = wl_hw_flops_per_seq(&s->model, t->recompute);
	if (t->recompute == RECOMPUTE_FULL && t->recompute_layers > 0 && !s->model.custom) {
		/* only some layers run their forward twice */
		double extra = wl_hw_flops_per_seq(&s->model, RECOMPUTE_FULL) -
		               wl_hw_flops_per_seq(&s->model, RECOMPUTE_NONE);
		f = wl_hw_flops_per_seq(&s->model, RECOMPUTE_NONE) +
		    extra * wl_recomputed_layers(s) / s->model.layers;
	}
	return t->global_batch * (f - lora_saved_per_seq(s));
}

double wl_peak_flops(const scenario *s)
{
	return wl__peak(&s->cluster.gpu, s->training.precision);
}

/* ---- pipeline stages ---- */

static int nlayers(const scn_model *m)
{
	return m->custom ? m->nlayers_custom : m->layers;
}

/* Layers of global chunk c: plan.c's split (plan_chunk_layer_count), of
 * the model's layer count (derived for a `params` model). */
static int chunk_count(const scenario *s, int layers, int c)
{
	const scn_training *t = &s->training;
	int v = t->schedule == SCHED_INTERLEAVED && t->virtual_stages > 1 ? t->virtual_stages : 1;
	return plan_chunk_layer_count(t, layers, wl__pp(s), wl__pp(s) > 1 ? v : 1, c);
}

int wl_chunk_layers(const scenario *s, int chunk)
{
	scn_model m;
	wl__model(&s->model, &m);
	return chunk_count(s, nlayers(&m), chunk);
}

/* Model chunks of the pipeline: pp, times v when interleaved. */
static int model_chunks(const scenario *s)
{
	const scn_training *t = &s->training;
	int v = t->schedule == SCHED_INTERLEAVED && t->virtual_stages > 1 ? t->virtual_stages : 1;
	return wl__pp(s) * v;
}

bool wl_layer_recomputed(const scenario *s, int layer)
{
	const scn_training *t = &s->training;
	if (t->recompute != RECOMPUTE_FULL)
		return false;
	if (t->recompute_layers <= 0)
		return true;
	scn_model m;
	wl__model(&s->model, &m);
	int chunks = model_chunks(s), first = 0;
	for (int c = 0; c < chunks; c++) {
		int n = chunk_count(s, nlayers(&m), c);
		if (layer < first + n)
			return layer - first < t->recompute_layers;
		first += n;
	}
	return false;
}

int wl_stage_recomputed(const scenario *s, int stage)
{
	const scn_training *t = &s->training;
	if (t->recompute != RECOMPUTE_FULL)
		return 0;
	if (t->recompute_layers <= 0)
		return wl_stage_layers(s, stage);
	scn_model m;
	wl__model(&s->model, &m);
	int chunks = model_chunks(s), n = 0;
	for (int c = stage; c < chunks; c += wl__pp(s)) {
		int k = chunk_count(s, nlayers(&m), c);
		n += k < t->recompute_layers ? k : t->recompute_layers;
	}
	return n;
}

int wl_recomputed_layers(const scenario *s)
{
	scn_model m;
	wl__model(&s->model, &m);
	int n = 0;
	for (int l = 0; l < nlayers(&m); l++)
		n += wl_layer_recomputed(s, l);
	return n;
}

/* The layers a stage holds: its model chunks' (one without interleaving;
 * chunk c on stage c % pp, as plan.c places them), each split as evenly as
 * possible with the short ones at the ends (0, p-1, 1, p-2, ...). */
int wl_stage_layers(const scenario *s, int stage)
{
	scn_model m;
	wl__model(&s->model, &m);
	int p = wl__pp(s), chunks = model_chunks(s), n = 0;
	if (stage < 0 || stage >= p)
		return 0;
	for (int c = stage; c < chunks; c += p)
		n += chunk_count(s, nlayers(&m), c);
	return n;
}

double wl_stage_expert_params(const scenario *s, int stage)
{
	int moe = wl_stage_moe_layers(s, stage);
	if (moe <= 0)
		return 0;
	scn_model m;
	wl__model(&s->model, &m);
	return moe * wl_layer_expert_params(&m, m.layers - 1) / (wl__ep(s) * wl__etp(s));
}

int wl_stage_moe_layers(const scenario *s, int stage)
{
	scn_model m;
	wl__model(&s->model, &m);
	if (m.custom || m.experts <= 1 || stage < 0 || stage >= wl__pp(s))
		return 0;
	int p = wl__pp(s), chunks = model_chunks(s), n = 0, first = 0;
	for (int c = 0; c < chunks; c++) {
		int k = chunk_count(s, m.layers, c);
		if (c % p == stage)
			for (int l = first; l < first + k; l++)
				n += wl_layer_moe(&m, l);
		first += k;
	}
	return n;
}

/* The sum over a custom model's layers that stage `stage` holds, chunk by
 * chunk (with interleaving they are not contiguous: stage s holds chunks s,
 * s + pp, ...): their parameters, or with act their activation bytes. */
double wl__stage_custom_sum(const scenario *s, int stage, bool act)
{
	const scn_model *m = &s->model;
	int p = wl__pp(s), chunks = model_chunks(s), first = 0;
	double sum = 0;
	for (int c = 0; c < chunks; c++) {
		int k = chunk_count(s, m->nlayers_custom, c);
		if (c % p == stage)
			for (int l = first; l < first + k && l < m->nlayers_custom; l++)
				sum += act ? m->custom_layers[l].act_bytes : m->custom_layers[l].params;
		first += k;
	}
	return sum;
}

double wl_stage_params(const scenario *s, int stage)
{
	scn_model m;
	wl__model(&s->model, &m);
	int p = wl__pp(s), t = wl__tp(s);
	int n = wl_stage_layers(s, stage);
	double params = 0;
	if (m.custom)
		return wl__stage_custom_sum(s, stage, false) / t;
	int moe = wl_stage_moe_layers(s, stage);
	scenario dense = *s;   /* a dense layer of the same model */
	dense.model.experts = 1;
	params = (n - moe) * wl_layer_gpu_params(&dense, 0) +
	         moe * wl_layer_gpu_params(s, m.layers - 1);
	double h = m.hidden, word = (double)m.vocab * h / t;
	if (stage == 0)
		params += word + (m.gated_mlp ? 0 : (double)m.seq_len * h);
	if (stage == p - 1) {
		params += m.gated_mlp ? h : 2 * h;          /* final norm */
		if (!tied(&m) || p > 1)
			params += word;   /* untied output, or the tied copy on the last stage */
	}
	return params;
}

/* LoRA (Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language
 * Models"): a frozen linear layer W (out x in) gets a trained pair A (r x
 * in), B (out x r), r(in + out) parameters. Adapters sit beside the QKV
 * projection, the attention's output projection, fc1 and fc2 (NeMo's default
 * target modules: linear_qkv, linear_proj, linear_fc1, linear_fc2); a MoE
 * layer's experts and router, the embedding and the output layer stay frozen
 * without one (wl_layer.c runs the same adapters). Split over t TP ranks,
 * each holds A whole and a t-th of B beside a column-parallel GEMM (QKV,
 * fc1), a t-th of A and B whole beside a row-parallel one (projection, fc2);
 * t = 1: the layer's adapters. */
static double lora_shard(const scenario *s, int layer, double t)
{
	scn_model m;
	wl__model(&s->model, &m);
	if (s->training.peft != PEFT_LORA || m.custom || layer < 0 || layer >= m.layers)
		return 0;
	double r = s->training.lora_rank, h = m.hidden, dqk, dv;
	attn_weights(&m, &dqk, &dv);
	double q = (double)m.heads * dqk, kv = m.kv_lora_rank > 0 ? (double)m.heads * (dqk + dv)
	                                                         : 2.0 * m.kv_heads * m.head_dim;
	/* MLA's projections are not a QKV GEMM: only its output is adapted */
	double p = (m.kv_lora_rank > 0 ? 0 : r * h + r * (q + kv) / t) +
	           r * m.heads * dv / t + r * h;
	if (!wl_layer_moe(&m, layer)) {
		double f = m.ffn_hidden, fc1 = (m.gated_mlp ? 2 : 1) * f;
		p += r * h + r * fc1 / t + r * f / t + r * h;
	}
	return p;
}

double wl_lora_layer_params(const scenario *s, int layer)
{
	return lora_shard(s, layer, 1);
}

double wl_lora_gpu_params(const scenario *s, int layer)
{
	return lora_shard(s, layer, wl__tp(s));
}

/* The parameters a GPU of `stage` trains: all it holds, or under LoRA its
 * adapters (wl_lora_gpu_params). */
double wl_stage_trainable_params(const scenario *s, int stage)
{
	if (s->training.peft != PEFT_LORA)
		return wl_stage_params(s, stage);
	scn_model m;
	wl__model(&s->model, &m);
	int p = wl__pp(s), chunks = model_chunks(s), first = 0;
	double sum = 0;
	for (int c = 0; c < chunks; c++) {
		int k = chunk_count(s, m.layers, c);
		if (c % p == stage)
			for (int l = first; l < first + k; l++)
				sum += wl_lora_gpu_params(s, l);
		first += k;
	}
	return sum;
}

double wl_dp_grad_bytes(const scenario *s, int stage)
{
	return wl_stage_trainable_params(s, stage) * wl__prec_bytes(s->training.grad_reduce.dtype);
}

/* A rank that keeps only its shard of the gradients (ZeRO-2/3) cannot hold a
 * micro-batch's full gradients until the last one: DeepSpeed's engine reduces
 * at every micro-step from stage 2 on ("ZeRO stage >= 2 communicates during
 * non gradient accumulation boundaries as well", runtime/engine.py), PyTorch
 * FSDP after every backward unless no_sync() (whose docs warn that it holds
 * the unsharded gradients), Megatron-FSDP always ("for grads shard mode there
 * will actually always be gradient sync happening", its no_sync). DDP and
 * Megatron's distributed optimizer (ZeRO-1) skip the sync until the last
 * micro-batch. With a pipeline, `auto` reduces once a step whatever the
 * stage (below). */
int wl_zero_group(const scenario *s)
{
	int n = wl__dp_grad(s), g = s->training.zero_group;
	return g > 0 && g < n && n % g == 0 ? g : n;
}

bool wl_grad_every_micro_batch(const scenario *s)
{
	switch (s->training.grad_reduce.every_micro_batch) {
	case EVERY_MB_TRUE:
		return true;
	case EVERY_MB_FALSE:
		return false;
	default:
		/* with a pipeline no framework reduces sharded gradients per
		 * micro-batch: DeepSpeed refuses ZeRO-2/3 with pipeline parallelism
		 * ("ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism",
		 * runtime/pipe), PyTorch's pipelining syncs FSDP's gradients at the
		 * last micro-batch only (torch.distributed.pipelining stage.py), and
		 * Megatron's distributed optimizer and MegaScale's ZeRO-2-style
		 * sharding reduce-scatter once a step */
		return s->training.zero >= 2 && (s->training.pp <= 1);
	}
}

/* The optimizer step of Megatron's mixed-precision optimizer with apex's
 * multi-tensor kernels, memory bound, per parameter [DERIVED from the
 * sequence of kernels]: gradient norm for clipping (read fp32 grad 4), fused
 * Adam (read grad, master, m, v; write master, m, v: 28), copy the master
 * into the 16-bit weight (read 4, write 2), zero the fp32 gradient buffer (4)
 * = 42 B for bf16. fp16 adds copying the fp16 grads to fp32 (2 + 4) and the
 * unscale / inf check (read + write 4 + 4), minus the zeroing of a 16-bit
 * buffer instead of fp32 (2): 54 B. fp32: norm 4, Adam 28, zero 4 = 36 B. */
double wl_optimizer_bytes(const scenario *s, int stage)
{
	double per;
	switch (s->training.precision) {
	case PREC_FP32:
	case PREC_TF32:
		per = 36;
		break;
	case PREC_FP16:
		per = 54;
		break;
	default:
		per = 42;
		break;
	}
	/* an optimizer with other state (training.optimizer_bytes_per_param)
	 * reads and writes that state instead of Adam's */
	if (s->training.optimizer_bytes_per_param > 0) {
		double w, g, o, fp32 = s->training.precision == PREC_FP32 ||
		                       s->training.precision == PREC_TF32;
		wl__state_bytes(s, &w, &g, &o);
		double adam = fp32 ? 8 : s->training.precision == PREC_FP16 ? 16 : 12;
		per += 2 * (o - adam);
	}
	double params = wl_stage_trainable_params(s, stage);
	if (s->training.zero >= 1) {   /* experts shard over their own DP group */
		double ex = s->training.peft == PEFT_NONE ? wl_stage_expert_params(s, stage) : 0;
		params = (params - ex) / wl_zero_group(s) + ex / wl_expert_dp(s);
	}
	return params * per;
}

double wl_optimizer_time(const scenario *s, int stage)
{
	return wl_membound_time(&s->cluster.gpu, wl_optimizer_bytes(s, stage));
}

/* ---- checkpoints ---- */

/* Full (resumable) checkpoint: 16-bit weights 2 + fp32 master 4 + Adam m 4 +
 * v 4 = 14 B/param; weights only: 2 B/param [DERIVED, cost-models.md 11].
 * A sharded checkpoint writes the same bytes in total, one shard per rank. */
double wl_checkpoint_bytes(const scenario *s, scn_ckpt_content what)
{
	/* a LoRA run checkpoints its adapters (NeMo's and PEFT's adapter
	 * checkpoints); the frozen base is the file it started from */
	double n = s->training.peft == PEFT_LORA ? lora_params(s) : wl_params(&s->model);
	double wbytes = wl__prec_bytes(s->training.precision);
	if (hw_prec_scaled(s->training.precision))
		wbytes = 2;
	if (what == CKPT_WEIGHTS)
		return n * wbytes;
	/* Adam's two fp32 moments, and the fp32 master weights of a 16-bit or
	 * fp8 run; fp32 training's weights are their own master */
	bool fp32 = s->training.precision == PREC_FP32 || s->training.precision == PREC_TF32;
	double state = fp32 ? 8 : 12;
	if (s->training.optimizer_bytes_per_param > 0) {   /* the optimizer's own state */
		double w, g, o;
		wl__state_bytes(s, &w, &g, &o);
		/* fp16's state holds fp32 main gradients too (2 + 2 + 16 = 20: dist_optimizer.md),
		 * which a checkpoint does not keep */
		state = fmax(0.0, o - (s->training.precision == PREC_FP16 ? 4 : 0));
	}
	return n * (wbytes + state);
}
