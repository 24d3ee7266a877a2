/* wl_memory.c: memory per GPU: model states (weights, gradients, optimizer
 * with ZeRO sharding), activations kept for the backward pass (Korthikanti et
 * al. 2022 Table 2, generalized to GQA, gated MLPs, no-dropout models and
 * flash attention) times the micro-batches a pipeline stage holds in flight,
 * and what does not fit. Sources: cost-models.md 2.3-2.4. */
#include <math.h>
#include "wl_int.h"

/* Model-state bytes per parameter: weights, gradients, optimizer (incl.
 * fp32 master weights). Megatron: bf16 2+4+12 = 18 (fp32 main grads), fp16
 * 2+2+16 = 20, fp32 4+4+8 = 16 (dist_optimizer.md, cost-models.md 2.3). */
void wl__state_bytes(const scenario *s, double *w, double *g, double *o)
{
	switch (s->training.precision) {
	case PREC_FP32:
	case PREC_TF32:
		*w = 4, *g = 4, *o = 8;
		break;
	case PREC_FP16:
		*w = 2, *g = 2, *o = 16;
		break;
	default:                 /* bf16, fp8 (a bf16 copy and fp32 master kept) */
		*w = 2, *g = 4, *o = 12;
		break;
	}
	/* DeepSpeed's BF16_Optimizer keeps the 16-bit gradients of a backward
	 * beside the fp32 ones it adds them into */
	if (s->training.grad_accum_pass &&
	    (s->training.precision == PREC_BF16 || hw_prec_scaled(s->training.precision)))
		*g += 2;
	double total = s->training.optimizer_bytes_per_param;
	if (total > 0) {
		*o = total - *w - *g;
		if (*o < 0)
			*o = 0;
	}
}

void wl_state_bytes(const scenario *s, double *w, double *g, double *o)
{
	wl__state_bytes(s, w, g, o);
}

#define RUNTIME_RESERVE_BYTES WL_RUNTIME_RESERVE_BYTES

/* Activation bytes kept by one transformer layer for one micro-batch of b
 * sequences on one GPU (Korthikanti Table 2 in units of s*b*h with 16-bit
 * activations and 1-byte dropout masks): LayerNorm inputs 4, QKV input 2,
 * MLP input 2, two dropout masks 2 (replicated across TP unless SP); Q 2,
 * K and V 2*kv/heads each, out-proj input 2, MLP activation input 2f/h
 * (x2 gated), fc2 input 2f/h (sharded); attention scores 5as/h (softmax
 * output 2, dropout mask 1, dropout output 2; 2 without dropout; none with
 * flash attention or selective recompute). Full recompute keeps the layer
 * input only (2, /t with SP).
 * fp8 runs: the layer input is the residual stream, which every fp8 recipe
 * keeps in bf16 (Transformer Engine and DeepSeek-V3's framework cast to fp8
 * only at the GEMMs; DeepSeek-V3 report 3.3: embedding, norms and attention
 * stay in bf16/fp32), so full recomputation keeps 2 bytes a value. What
 * the other activations take is framework-specific (TE saves the fp8 copies
 * of the GEMM inputs and bf16 elsewhere; DeepSeek-V3 caches most in fp8 and
 * recomputes the SwiGLU output): they are taken at 1 byte, UNVERIFIED. */
double wl__layer_act_bytes(const scenario *s, const scn_model *m, bool flash, bool moe)
{
	double sq = m->seq_len, b = wl__micro(s), h = m->hidden, t = wl__tp(s);
	double sbh = sq * b * h;
	bool sp = s->training.sequence_parallel && t > 1;
	double elem = wl__prec_bytes(s->training.precision) / 2.0;
	if (s->training.recompute == RECOMPUTE_FULL)
		return 2 * (hw_prec_scaled(s->training.precision) ? 1 : elem) * sbh / (sp ? t : 1);
	bool drop = wl__dropout(m);
	/* Q and the out-projection input are heads x head_dim wide, K and V
	 * kv_heads x head_dim (hidden and hidden x kv/heads for the usual shape) */
	double qw = (double)m->heads * m->head_dim / h;
	/* fewer KV heads than TP ranks: each rank holds one, replicated (as
	 * the compute does, wl_layer.c) */
	double kvh = m->kv_heads < t ? t : m->kv_heads;
	double kv = kvh * m->head_dim / h, f = (double)m->ffn_hidden / h;
	double repl = elem * (4 + 2 + 2) + (drop ? 2 : 0);
	double moe_x = 0;
	if (moe) {
		/* a MoE layer keeps, per token, its top_k routed copies (the
		 * experts' input) and their fc1/activation outputs at the expert
		 * width, plus the shared experts' as a dense MLP: the MLP input
		 * term becomes 2 top_k, f becomes top_k f_e + f_shared; the routing
		 * probabilities (fp32, experts per token) are kept too */
		int k = m->top_k > 0 ? m->top_k : 2;
		double fe = m->expert_ffn_hidden > 0 ? m->expert_ffn_hidden : m->ffn_hidden;
		f = (k * fe + m->shared_expert_ffn_hidden) / h;
		moe_x = elem * 2 * (k - 1) + 4.0 * m->experts / h;
	}
	double attn = 2 * qw + 4 * kv + 2 * qw;   /* Q, K and V, the out-projection input */
	if (m->kv_lora_rank > 0) {
		/* MLA: Q and K of head_dim + qk_rope_dim a head, V and the
		 * out-projection input of v_head_dim, and the two latents */
		double A = m->heads, dqk = m->head_dim + m->qk_rope_dim, dv = m->v_head_dim;
		attn = 2 * (2 * A * dqk + 2 * A * dv + m->q_lora_rank + m->kv_lora_rank) / h;
	}
	double shard = elem * (attn + 2 * f * (m->gated_mlp ? 2 : 1) + 2 * f) + moe_x;
	double scores = 0;
	if (!flash && s->training.recompute != RECOMPUTE_SELECTIVE)
		scores = (drop ? 2 * elem + 1 + 2 * elem : 2 * elem) * m->heads * sq / h;
	if (flash)   /* softmax statistics: fp32 per head and token */
		scores = 4.0 * m->heads / h;
	double per = (sp ? repl / t : repl) + (shard + scores) / t;
	return per * sbh;
}

static double custom_act_bytes(const scenario *s, int stage)
{
	return wl__stage_custom_sum(s, stage, true) * wl__micro(s) / wl__tp(s);
}

/* Micro-batches whose activations stage `stage` holds at the peak: GPipe all
 * m; 1F1B min(m, p - stage); interleaved, the chunks Megatron's schedule
 * runs forward before its first backward on that rank, (p - stage - 1) x 2
 * + (v - 1) x p warm-up plus the steady one, capped at all m x v chunks
 * (schedules.py, forward_backward_pipelining_with_interleaving), each 1/v of
 * the stage. On stage 0 that is p + (p-1)/v, Megatron's own estimate (its
 * theoretical_memory_usage.py penalty 1 + (p-1)/(p v); cost-models.md 2.4),
 * which has no cap: with m = p micro-batches every chunk is in flight, the
 * same m as 1F1B holds. */
static double in_flight(const scenario *s, int stage)
{
	int p = wl__pp(s), m = wl__nmicro(s);
	if (p == 1)
		return 1;
	if (s->training.schedule == SCHED_GPIPE)
		return m;
	int v = s->training.virtual_stages;
	if (s->training.schedule == SCHED_INTERLEAVED && v > 1) {
		double chunks = 2.0 * (p - stage - 1) + (double)(v - 1) * p + 1;
		if (chunks > (double)m * v)
			chunks = (double)m * v;
		return chunks / v;
	}
	return p - stage < m ? p - stage : m;
}

/* in_flight counted in the stage's layers, over n of them: the same when
 * its chunks hold equal layers; interleaved with unequal chunks (the
 * embedding or loss in a chunk's place, a first or last stage given), the
 * warm-up's passes taken chunk by chunk in Megatron's order (p micro-batches
 * of one chunk, then of the next), each holding its own chunk's layers. */
static double in_flight_layers(const scenario *s, int stage, int n)
{
	double f = in_flight(s, stage);
	int p = wl__pp(s), v = s->training.virtual_stages;
	if (n <= 0 || p == 1 || s->training.schedule != SCHED_INTERLEAVED || v <= 1)
		return f;
	long passes = lround(f * v), held = 0;
	for (long k = 0; k < passes; k++)
		held += wl_chunk_layers(s, (int)((k / p) % v) * p + stage);
	return (double)held / n;
}

/* ZeRO-3 holds, beside the shards, what it gathers to compute: the
 * unsharded parameters of the unit at work and of the next one, already
 * prefetched (PyTorch FSDP's default BACKWARD_PRE prefetch, "which
 * increases peak memory" by the next unit's parameters, and its
 * forward-side limit_all_gathers cap of two units in flight; FSDP2
 * prefetches one layer ahead likewise; DeepSpeed's stage3_prefetch_bucket
 * of 5e8 parameters is of the same order), at the weights' bytes (fp8
 * recipes compute from a bf16 copy), and one unit's unsharded gradient, in
 * the reduction type, before its reduce-scatter. A unit is a layer, or the
 * word embedding / output layer of the first / last stage (torchtitan and
 * FSDP wrap each block and leave those to the root unit), whichever is the
 * largest, after TP and EP; the routed experts only where their expert-DP
 * group shards them. Nothing without ZeRO-3 or for a custom model. (A
 * framework that keeps a pipeline stage gathered between forward and
 * backward, torchtitan's reshard_after_forward=False under PP, holds more.) */
static double z3_unit_params(const scenario *s, int layer)
{
	double all = wl_layer_gpu_params(s, layer);
	double ex = wl_layer_expert_params(&s->model, layer) / (wl__ep(s) * wl__etp(s));
	double dense = all - ex;
	return (wl_zero_group(s) > 1 ? dense : 0) + (wl_expert_dp(s) > 1 ? ex : 0);
}

static double z3_gathered_bytes(const scenario *s, const scn_model *m, int stage)
{
	if (s->training.zero < 3 || m->custom)
		return 0;
	int moe = wl_stage_moe_layers(s, stage), n = wl_stage_layers(s, stage);
	double unit = 0;
	if (moe > 0)
		unit = z3_unit_params(s, m->layers - 1);
	if (n > moe) {
		scenario dense = *s;
		dense.model.experts = 1;
		double d = z3_unit_params(&dense, 0);
		unit = d > unit ? d : unit;
	}
	if (wl_zero_group(s) > 1 && (stage == 0 || stage == wl__pp(s) - 1)) {
		double word = (double)m->vocab * m->hidden / wl__tp(s);
		unit = word > unit ? word : unit;
	}
	double w, g, o;
	wl__state_bytes(s, &w, &g, &o);
	/* LoRA's frozen weights have no unsharded gradient to hold */
	double grad = s->training.peft == PEFT_LORA ? 0 : wl__prec_bytes(s->training.grad_reduce.dtype);
	return unit * (2 * w + grad);
}

void wl_memory_stage(const scenario *s, int stage, wl_memory *out)
{
	scn_model m;
	wl__model(&s->model, &m);
	double w, g, o;
	wl__state_bytes(s, &w, &g, &o);
	double params = wl_stage_params(s, stage);
	double ex = wl_stage_expert_params(s, stage), dense = params - ex;
	/* ZeRO shards over every GPU with the same weights: dp x cp (or its
	 * zero_group, HSDP), and the routed experts over their expert-DP group
	 * (Megatron-core) */
	double d = wl_zero_group(s), e = wl_expert_dp(s);
	int zero = s->training.zero;
	out->weights = dense * w / (zero >= 3 ? d : 1) + ex * w / (zero >= 3 ? e : 1);
	/* sharded gradients accumulated without a reduction per micro-batch
	 * (FSDP's no_sync) are held whole until the last one */
	bool gshard = zero >= 2 && (wl_grad_every_micro_batch(s) || wl__nmicro(s) == 1);
	out->gradients = dense * g / (gshard ? d : 1) + ex * g / (gshard ? e : 1);
	out->optimizer = dense * o / (zero >= 1 ? d : 1) + ex * o / (zero >= 1 ? e : 1);
	if (s->training.peft == PEFT_LORA) {
		/* frozen weights: gradients and optimizer state of the adapters
		 * only, which stay 16-bit beside them (weights' bytes) */
		double lora = wl_stage_trainable_params(s, stage);
		out->weights += lora * w / (zero >= 3 ? d : 1);
		out->gradients = lora * g / (gshard ? d : 1);
		out->optimizer = lora * o / (zero >= 1 ? d : 1);
	}

	int n = wl_stage_layers(s, stage);
	double act, held = in_flight_layers(s, stage, n);
	double other = RUNTIME_RESERVE_BYTES;
	if (m.custom) {
		act = custom_act_bytes(s, stage) * held;
	} else {
		bool flash = wl_flash_attention(s);
		int moe = wl_stage_moe_layers(s, stage);
		double a_moe = wl__layer_act_bytes(s, &m, flash, true);
		double a_dense = wl__layer_act_bytes(s, &m, flash, false);
		act = ((n - moe) * a_dense + moe * a_moe) * held;
		if (s->training.recompute == RECOMPUTE_FULL && s->training.recompute_layers > 0) {
			/* the layers not recomputed keep all their activations (MoE
			 * and dense layers in the stage's proportion) */
			scenario kept = *s;
			kept.training.recompute = RECOMPUTE_NONE;
			int nrc = wl_stage_recomputed(s, stage);
			double moe_share = n > 0 ? (double)moe / n : 0;
			double k_one = moe_share * wl__layer_act_bytes(&kept, &m, flash, true) +
			               (1 - moe_share) * wl__layer_act_bytes(&kept, &m, flash, false);
			double r_one = moe_share * a_moe + (1 - moe_share) * a_dense;
			act = (nrc * r_one + (n - nrc) * k_one) * held;
		}
		double b = wl__micro(s), sq = m.seq_len, h = m.hidden, t = wl__tp(s);
		if (s->training.recompute == RECOMPUTE_FULL && n > 0) {
			/* the layer being recomputed holds its full activations */
			scenario tmp = *s;
			tmp.training.recompute = RECOMPUTE_NONE;
			other += wl__layer_act_bytes(&tmp, &m, flash, moe > 0);
		}
		if (stage == 0)   /* embedding output and its dropout mask */
			act += sq * b * h * 3 * in_flight(s, stage) /
			       (s->training.sequence_parallel ? t : 1);
		/* 16-bit logits + the loss's fp32 copy; a fused loss writes the
		 * gradient over the logits (16-bit, fp32 in an fp32 run) and keeps
		 * no copy */
		hw_precision lp = s->training.precision;
		double logit = hw_prec_scaled(lp) ? 2 : wl__prec_bytes(lp);
		if (stage == wl__pp(s) - 1)
			other += sq * b * m.vocab / t *
			         (s->training.cross_entropy == CE_FUSED ? logit : 6);
	}
	/* context parallelism: each GPU holds its 1/cp of every sequence (and of
	 * the attention scores' rows) */
	act /= wl__cp(s);
	other = RUNTIME_RESERVE_BYTES + (other - RUNTIME_RESERVE_BYTES) / wl__cp(s);
	other += z3_gathered_bytes(s, &m, stage);
	out->activations = act;
	out->other = other;
	out->total = out->weights + out->gradients + out->optimizer + act + other;
	out->capacity = s->cluster.gpu.hbm_bytes;
	out->fits = out->capacity <= 0 || out->total <= out->capacity;
}

void wl_memory_get(const scenario *s, wl_memory *out)
{
	/* The first stage holds the most micro-batches in flight; with an
	 * untied output layer or a big vocabulary the last one may weigh more,
	 * and a middle one with more layers than the first (uneven splits take
	 * a layer from the ends) or with MoE layers where the first has dense
	 * ones: report the heaviest. */
	wl_memory_stage(s, 0, out);
	int p = wl__pp(s);
	for (int st = 1; st < p; st++) {
		wl_memory m;
		wl_memory_stage(s, st, &m);
		if (m.total > out->total)
			*out = m;
	}
}
