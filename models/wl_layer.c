/* wl_layer.c: the operations of one transformer layer (and of the embedding and
 * the output layer) for one micro-batch on one GPU of a TP group, forward,
 * backward and recomputation, as Megatron-LM runs them: GEMMs by shape, the
 * attention core (unfused softmax/dropout or one flash kernel), memory-bound
 * elementwise kernels by HBM bytes, and the TP collectives between them
 * (cost-models.md 2, 3.1, 4). wl_layer_cost_get sums them for the step. */
#include <math.h>
#include <string.h>
#include "coll.h"
#include "wl_int.h"

/* Everything an op list needs, resolved once per call. */
typedef struct lctx {
	const scenario *s;
	const hw_gpu *g;
	hw_precision prec;
	scn_model m;
	double T;            /* tokens of the micro-batch on this GPU: b * seq / cp */
	double b, sq, h, f, t;
	double cp;           /* context-parallel ranks (1: none) */
	double A;            /* local attention heads */
	double hd;           /* head dimension */
	double dqk, dv;      /* query/key and value widths of a head (hd, or MLA's) */
	bool mla;            /* multi-head latent attention */
	double ql, kvl, dr;  /* MLA: query and key/value latents, rotary width */
	double nq, nkv;      /* local widths of Q and of K (= V) */
	double X;            /* elements of a sequence-sharded activation (T h, /t with SP) */
	double E;            /* bytes per activation element */
	bool sp, flash, drop, bias;
	bool eager;          /* training.kernels: eager (PyTorch's composite ops) */
	bool fused_ce;       /* training.cross_entropy: fused */
	double lora;         /* LoRA's rank (training.peft: lora), 0 = every weight trained */
	bool rms;            /* RMSNorm (the gated-MLP generation), else LayerNorm */
	/* mixture of experts (this layer's) */
	bool moe;
	double ne, topk, fe, fsh; /* experts, experts a token goes to, widths of one
	                           * routed expert and of the shared experts */
	double ep, etp;           /* expert parallel ranks, TP inside an expert */
	double imb;               /* the busiest expert GPU's tokens over the mean */
	double Tl;                /* tokens this GPU routes: T, or T / t with SP */
	double keys;              /* mean keys a query meets (causal; the window's) */
} lctx;

typedef struct oplist {
	wl_op *ops;
	int n, max;
	const lctx *c;
	wl_op scratch;       /* written instead when ops is full or the op is void */
} oplist;

static void ctx_init(lctx *c, const scenario *s, int layer)
{
	memset(c, 0, sizeof *c);
	c->s = s;
	c->g = &s->cluster.gpu;
	c->prec = s->training.precision;
	wl__model(&s->model, &c->m);
	/* FlashAttention 1 has no sliding window (local attention came with
	 * FlashAttention 2.3): it runs the whole causal matrix, masked */
	c->keys = c->m.custom ? 0 : s->training.attention == ATTN_FLASH1 ? c->m.seq_len / 2.0
	                                                                  : wl_attn_keys(&c->m, layer);
	c->b = wl__micro(s);
	c->t = wl__tp(s);
	c->E = wl__prec_bytes(c->prec);
	if (hw_prec_scaled(c->prec))
		c->E = 2;   /* activations stay 16-bit in fp8 and NVFP4 recipes */
	if (c->m.custom)
		return;
	c->sq = c->m.seq_len;
	c->h = c->m.hidden;
	c->f = c->m.ffn_hidden;
	c->cp = wl__cp(s);
	c->T = c->b * c->sq / c->cp;
	c->hd = c->m.head_dim;
	c->A = c->m.heads / c->t;
	c->dqk = c->dv = c->hd;
	c->mla = c->m.kv_lora_rank > 0;
	if (c->mla) {
		c->ql = c->m.q_lora_rank;
		c->kvl = c->m.kv_lora_rank;
		c->dr = c->m.qk_rope_dim;
		c->dqk = c->hd + c->dr;
		c->dv = c->m.v_head_dim;
	}
	c->nq = c->A * c->dv;
	double kv_local = c->m.kv_heads / c->t;
	if (kv_local < 1)
		kv_local = 1;       /* fewer KV heads than TP ranks: replicated */
	c->nkv = kv_local * c->hd;
	c->sp = s->training.sequence_parallel && c->t > 1;
	c->X = c->T * c->h / (c->sp ? c->t : 1);
	c->flash = wl_flash_attention(s);
	c->drop = wl__dropout(&c->m);
	c->bias = !c->m.gated_mlp;
	c->eager = s->training.kernels == KERNELS_EAGER;
	c->fused_ce = s->training.cross_entropy == CE_FUSED;
	c->lora = s->training.peft == PEFT_LORA ? s->training.lora_rank : 0;
	c->rms = c->m.gated_mlp;
	c->moe = wl_layer_moe(&c->m, layer);
	if (c->moe) {
		c->ne = c->m.experts;
		c->topk = c->m.top_k > 0 ? c->m.top_k : 2;
		c->fe = c->m.expert_ffn_hidden > 0 ? c->m.expert_ffn_hidden : c->f;
		c->fsh = c->m.shared_expert_ffn_hidden;
		c->ep = wl__ep(s);
		c->etp = wl__etp(s);
		c->Tl = c->T / (c->t > 1 ? c->t : 1);
		/* with one expert-parallel rank every GPU runs every expert's
		 * tokens: no GPU is busier than the mean */
		c->imb = c->ep > 1 && s->training.expert_imbalance > 1 ? s->training.expert_imbalance
		                                                       : 1;
	}
}

static wl_op *push(oplist *l, wl_op_kind kind, const char *name)
{
	if (l->n >= l->max) {
		memset(&l->scratch, 0, sizeof l->scratch);
		return &l->scratch;
	}
	wl_op *o = &l->ops[l->n++];
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->name = name;
	o->batch = 1;
	return o;
}

static void gemm_one(oplist *l, const char *name, double m, double n, double k, hw_precision p)
{
	wl_op *o = push(l, OP_GEMM, name);
	o->m = m, o->n = n, o->k = k;
	o->flops = 2 * m * n * k;
	o->bytes = l->c->E * (m * k + k * n + m * n);
	o->time_s = wl_gemm_time(l->c->g, p, m, n, k);
}

/* Whether op `name` is a GEMM of a layer LoRA adapts (workload.c,
 * wl_lora_layer_params): the dense layer's QKV, output projection, fc1, fc2,
 * forward or either backward GEMM. */
static bool lora_target(const char *name)
{
	static const char *const base[] = {"qkv", "proj", "fc1", "fc2"};
	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
		size_t n = strlen(base[i]);
		if (!strncmp(name, base[i], n) && (name[n] == '\0' || name[n] == '_'))
			return true;
	}
	return false;
}

/* A weight GEMM y = x W^T of m tokens, n outputs and k inputs (or its dgrad,
 * or its wgrad of an n x k weight over m tokens). Under LoRA the weight is
 * frozen: no wgrad; the adapter pair A (r x k), B (n x r) runs beside it:
 * x A^T then (x A^T) B^T forward and for dgrad, dB and dA for wgrad, in
 * 16-bit (NeMo's adapters are not fp8). */
static void gemm_p(oplist *l, const char *name, double m, double n, double k, hw_precision p)
{
	double r = l->c->lora;
	bool wgrad = strstr(name, "wgrad") != NULL;
	if (!(r > 0 && wgrad))
		gemm_one(l, name, m, n, k, p);
	if (!(r > 0) || !lora_target(name))
		return;
	hw_precision ap = hw_prec_scaled(p) ? PREC_BF16 : p;
	if (wgrad) {
		gemm_one(l, "lora_wgrad", m, r, k, ap);
		gemm_one(l, "lora_wgrad", r, n, k, ap);
	} else {
		const char *an = strstr(name, "dgrad") ? "lora_dgrad" : "lora_fwd";
		gemm_one(l, an, m, r, k, ap);
		gemm_one(l, an, m, n, r, ap);
	}
}

static void gemm(oplist *l, const char *name, double m, double n, double k)
{
	gemm_p(l, name, m, n, k, l->c->prec);
}

/* `batch` products in one kernel: the attention core's batched GEMMs (in
 * 16-bit even in fp8 recipes), or a MoE layer's grouped expert GEMMs (in the
 * layer's precision). */
static void batched(oplist *l, const char *name, double batch, double m, double n, double k,
                    bool experts)
{
	if (l->c->lora > 0 && strstr(name, "wgrad"))
		return;   /* frozen experts under LoRA */
	wl_op *o = push(l, OP_GEMM, name);
	o->m = m, o->n = n, o->k = k, o->batch = batch;
	o->flops = 2 * batch * m * n * k;
	o->bytes = l->c->E * batch * (m * k + k * n + m * n);
	o->time_s = experts ? wl__grouped_gemm_time(l->c->g, l->c->prec, batch, m, n, k)
	                    : wl__bgemm_time(l->c->g, l->c->prec, batch, m, n, k);
}

static void bgemm(oplist *l, const char *name, double batch, double m, double n, double k)
{
	batched(l, name, batch, m, n, k, false);
}

/* A memory-bound op of `kernels` dependent kernels moving `bytes` in all. */
static void mem_k(oplist *l, const char *name, double bytes, int kernels)
{
	if (bytes <= 0)
		return;
	wl_op *o = push(l, OP_MEMBOUND, name);
	o->bytes = bytes;
	o->time_s = wl_membound_time(l->c->g, bytes) + (kernels - 1) * wl__kernel_gap_s();
}

static void mem(oplist *l, const char *name, double bytes)
{
	mem_k(l, name, bytes, 1);
}

/* Eager PyTorch (training.kernels: eager) runs a model's composite ops as
 * its code writes them, one kernel and one HBM pass per op, where Megatron's
 * and Transformer Engine's fused kernels (and torch.compile's generated
 * ones) make one pass. Counted from torchtitan's Llama (torchtitan/models/
 * llama/model.py, 2024) and Hugging Face's LlamaRMSNorm, which write them
 * alike; bytes per element, E the activation width, fp32 intermediates 4:
 * - RMSNorm forward: x.float(), pow(2), mean(-1), + eps, rsqrt, x * r,
 *   .type_as(x), * weight = (E+4) + 8 + 4 + 8 + (4+E) + 2E = 4E + 28 in 8
 *   kernels (the per-token mean and rsqrt are T floats: only their kernels
 *   count). Backward, autograd through the same ops: the weight product
 *   (dx 2E, dw a product and a reduction 4E: 3 kernels), the cast (E+4),
 *   x * r (both gradients, one reduced: 24 in 3), rsqrt's (T floats),
 *   mean's expand (4), pow (12), the sum of x's two gradients (12), the
 *   cast back (4+E) = 8E + 60 in 12 kernels, plus the residual stream's
 *   gradient add (3E) as fused;
 * - RoPE as a complex product in fp32: float (E+4), * freqs (8), type_as
 *   (4+E) = 2E + 16 a rotated element in 3 kernels, the same backward
 *   (Hugging Face's rotate_half form moves 10E: the same at E = 2);
 * - grouped-query attention's repeat_kv copies K and V to every query head
 *   before SDPA (read nkv, write nq elements each); its backward sums them;
 * - SwiGLU, silu(w1 x) * w3 x: silu (2E) and the product (3E) = 5E in 2
 *   kernels (fused 3E); backward both factors' gradients (6E) and silu's
 *   (3E) = 9E in 3 (fused 5E);
 * - separate wq/wk/wv and w1/w3 projections: x's gradient is their dgrads
 *   summed, 3E a pass (two for Q, K, V, one for w1 and w3), where
 *   Megatron's fused QKV splits one output gradient (qkv_split_bwd);
 * - a dropout before the residual add is its own kernel (+2E).
 * LayerNorm is one native kernel in eager PyTorch too (the GPT generation),
 * and the attention output's transpose back to [b, s, h] is a view of what
 * SDPA's flash kernel writes: neither costs more. */
/* A norm over `elems` elements (c->X for the layer's, a latent's width x T
 * for MLA's). */
static void norm_fwd(oplist *l, const char *name, double elems)
{
	const lctx *c = l->c;
	if (c->eager && c->rms)
		mem_k(l, name, (4 * c->E + 28) * elems, 8);
	else
		mem(l, name, 2 * elems * c->E);
}

/* fused_bytes: the fused kernel's (with or without the residual add). */
static void norm_bwd(oplist *l, const char *name, double elems, double fused_bytes, bool residual)
{
	const lctx *c = l->c;
	if (c->eager && c->rms)
		mem_k(l, name, (8 * c->E + 60 + (residual ? 3 * c->E : 0)) * elems, residual ? 13 : 12);
	else
		mem(l, name, fused_bytes);
}

/* Rotary embedding of `width` local columns (Q and K), either pass. */
static void rope(oplist *l, const char *name, double width)
{
	const lctx *c = l->c;
	if (c->eager)
		mem_k(l, name, (2 * c->E + 16) * c->T * width, 6);
	else
		mem(l, name, 2 * c->T * width * c->E);
}

/* The gated or plain activation over F elements of the MLP's width, either
 * pass. */
static void act(oplist *l, const char *name, double F, bool bwd)
{
	const lctx *c = l->c;
	if (c->m.gated_mlp && c->eager)
		mem_k(l, name, (bwd ? 9 : 5) * F * c->E, bwd ? 3 : 2);
	else
		mem(l, name, (c->m.gated_mlp ? (bwd ? 5 : 3) : (bwd ? 4 : 2)) * F * c->E);
}

/* fp8 training (Transformer Engine) feeds every linear layer's GEMMs fp8
 * copies of their 16-bit operands, in both layouts (the wgrad GEMM needs
 * the transpose): fp8_cast_transpose_fused reads an input once (2 B) and
 * writes it twice in fp8 (1 + 1 B) before the forward GEMM, and
 * fp8_cast_transpose_bgrad_fused does the same to the output gradient
 * before the backward GEMMs (TE pytorch/module/linear.py, cpp_extensions/
 * transpose.py). Behind a norm (LayerNormLinear: QKV, fc1) the norm kernel
 * writes its output in fp8 directly, one byte less than 16-bit, and only the
 * fp8 transpose (read 1, write 1 B) is added. Weights are cast once per step
 * and the output layer runs in 16-bit: neither is charged here. */
static void fp8_cast(oplist *l, const char *name, double elems, bool behind_norm)
{
	const lctx *c = l->c;
	if (!hw_prec_scaled(c->prec))
		return;   /* NVFP4's quantization (16-element scales, the columnwise copy, a
		           * Hadamard transform of the wgrad inputs) at fp8's cost, UNVERIFIED */
	mem(l, name, behind_norm ? 2 * elems - c->X : 4 * elems);
}

/* Appends a TP collective (none when tp = 1: then returns a scratch op). */
static wl_op *tpcomm(oplist *l, const char *name, coll_op op)
{
	if (l->c->t <= 1)
		return &l->scratch;
	wl_op *o = push(l, OP_TP_COMM, name);
	o->coll = op;
	o->bytes = l->c->T * l->c->h * l->c->E;   /* nccl-tests S: the full b*s*h tensor */
	return o;
}

/* SMs the overlapped expert all-to-all holds (DeepSeek-V3 report 3.2.2). */
#define EP_COMM_SMS 20

/* Expert parallelism's token exchange (Megatron-core's all-to-all token
 * dispatcher): each GPU sends every token it routes to the GPUs holding its
 * top_k experts and gets the results back; S as nccl-tests' alltoall counts
 * it: the GPU's Tl x top_k x h buffer, (ep - 1)/ep of it leaving the GPU
 * when the experts are balanced. Blocking: the experts need the tokens. */
static void epcomm(oplist *l, const char *name)
{
	const lctx *c = l->c;
	if (c->ep <= 1)
		return;
	wl_op *o = push(l, OP_TP_COMM, name);
	o->coll = COLL_ALL_TO_ALL;
	o->ep_group = true;
	/* with an unbalanced router the busiest GPU receives more than it sends;
	 * the exchange is charged as if every GPU moved its receive */
	o->bytes = c->Tl * c->topk * c->h * c->E * c->imb;
	if (!c->s->training.ep_overlap)
		return;
	/* Overlapped (training.ep_overlap): the all-to-all runs beside the
	 * compute that follows, which loses the SMs its kernels hold for as long
	 * as it lasts: DeepSeek-V3 gives 20 of the H800's 132 SMs to its
	 * dispatch and combine kernels (technical report, arXiv 2412.19437,
	 * 3.2.2). Its duration is estimated from the bytes leaving the GPU over
	 * the NIC share of a GPU when the group spans nodes, else NVLink (the
	 * step simulates the collective itself; this only charges the compute). */
	o->async = true;
	const scn_cluster *k = &c->s->cluster;
	int gpn = k->gpus_per_node > 0 ? k->gpus_per_node : 1;
	/* plan_ep_gpu lays the expert group over tp, cp, then dp: its GPUs are
	 * consecutive unless pipeline stages sit between (pp > 1 under the
	 * tp-pp-dp order, pp apart); only consecutive can it sit in one bridge
	 * group, and spaced it spans pp times the GPUs */
	const scn_training *tr = &c->s->training;
	bool consecutive = tr->pp <= 1 || tr->placement == PLACE_TP_DP_PP;
	long span = (long)(c->ep * c->etp) * (consecutive ? 1 : tr->pp);
	double bw = span > gpn ? k->nic.speed_Bps * k->nic.count / gpn
	          : consecutive ? cluster_spec_group_Bps(k, (int)(c->ep * c->etp))
	          : cluster_spec_intra_Bps(k);
	if (bw <= 0)
		bw = 25e9;
	double t = o->bytes * (c->ep - 1) / c->ep / bw;
	int nodes = (c->ep * c->etp + gpn - 1) / gpn;
	/* DeepEP: one copy a node, the share of NCCL's bytes the collective's
	 * flows carry (coll_a2a.c) */
	if (c->s->training.ep_dispatcher == EP_DISPATCH_DEEPEP && nodes > 1 && c->topk > 0)
		t *= fmin(1.0, coll_a2a_node_share(c->topk, c->s->model.experts, nodes) * nodes /
		               c->topk);
	wl_op *sm = push(l, OP_MEMBOUND, "ep_overlap_sms");
	sm->time_s = t * EP_COMM_SMS / wl__sms(c->g);
}

/* Context parallelism's K/V exchange (Megatron's ring attention, TE's
 * "p2p" CP): each of the cp - 1 ring steps sends the GPU's K and V chunk to
 * the next rank while the attention runs on the chunk received, so that the
 * traffic is a ring all-gather of the whole sequence's K and V (local heads)
 * overlapping the attention kernel; the backward sends K and V around again
 * and their gradients back (an all-gather and a reduce-scatter). S as
 * nccl-tests counts it: 2 (K, V) x b s x local KV width. */
static void cpcomm(oplist *l, const char *name, coll_op op)
{
	const lctx *c = l->c;
	if (c->cp <= 1)
		return;
	wl_op *o = push(l, OP_TP_COMM, name);
	o->coll = op;
	o->cp_group = true;
	o->async = true;
	o->bytes = 2 * c->b * c->sq * c->nkv * c->E;
}

static void flash(oplist *l, const char *name, bool backward)
{
	const lctx *c = l->c;
	/* Executed FLOPs: QK^T and PV over the keys each query meets, the
	 * causal half of the score matrix (s/2) or its sliding window's band
	 * (W - W^2/2s), blocks beyond skipped and the edge blocks of 128 done in
	 * full (64 keys more a query); the backward recomputes QK^T and PV: 2.5x
	 * the forward. */
	double keys = c->keys + 64;
	if (keys > c->sq)
		keys = c->sq;
	/* with context parallelism a GPU's T = b s / cp queries meet their keys
	 * among all s (Megatron splits each sequence in 2 cp chunks, a GPU
	 * taking one from each end, so that every GPU has the same causal share) */
	double fl = 2 * c->T * keys * c->A * (c->dqk + c->dv) * (backward ? 2.5 : 1);
	wl_op *o = push(l, OP_ATTN, name);
	o->flops = fl;
	/* Q, K, V, O (MLA: keys and values expanded for every head) */
	double kv = c->mla ? c->A * (c->dqk + c->dv) : 2 * c->nkv;
	o->bytes = c->E * c->T * (c->A * c->dqk + kv + c->nq) * (backward ? 2 : 1);
	/* the size curve takes the mean keys a query meets, s/2 causal (the
	 * diagonal blocks are work, not keys), s/(2 cp) per ring step with CP,
	 * the window's band when it is shorter */
	double curve = 0.5 * c->sq / c->cp;
	if (c->keys < curve)      /* a band: its executed keys, edge blocks included */
		curve = keys < curve ? keys : curve;
	o->time_s = wl_attn_time(c->g, c->prec, fl, backward, curve, c->dqk,
	                         c->s->training.attention);
}

/* Attention core forward: scores, softmax, dropout, context (Megatron's
 * CoreAttention), or one flash kernel. Also what selective recompute re-runs. */
static void core_fwd(oplist *l)
{
	const lctx *c = l->c;
	double S = c->T * c->A * c->sq;            /* score elements on this GPU */
	double qrows = c->sq / c->cp;
	cpcomm(l, "cp_kv_ag", COLL_ALL_GATHER);
	if (c->eager && !c->mla && c->nkv < c->nq)
		mem_k(l, "repeat_kv", 2 * c->T * (c->nkv + c->nq) * c->E, 2);
	if (c->flash) {
		flash(l, "flash_attn", false);
		return;
	}
	bgemm(l, "scores", c->b * c->A, qrows, c->sq, c->dqk);
	mem(l, "softmax", 2 * S * c->E);          /* fused scale+mask+softmax: read, write */
	if (c->drop)
		mem(l, "attn_dropout", S * (2 * c->E + 1));   /* read, write, 1-byte mask */
	bgemm(l, "context", c->b * c->A, qrows, c->dv, c->sq);
	mem(l, "context_copy", 2 * c->T * c->nq * c->E);  /* [b,a,s,d] -> [s,b,h] */
}

static void core_bwd(oplist *l)
{
	const lctx *c = l->c;
	double S = c->T * c->A * c->sq;
	double qrows = c->sq / c->cp;
	cpcomm(l, "cp_kv_ag_bwd", COLL_ALL_GATHER);
	cpcomm(l, "cp_dkv_rs_bwd", COLL_REDUCE_SCATTER);
	if (c->flash) {
		flash(l, "flash_attn_bwd", true);
		if (c->eager && !c->mla && c->nkv < c->nq)
			mem_k(l, "repeat_kv_bwd", 2 * c->T * (c->nkv + c->nq) * c->E, 2);
		return;
	}
	mem(l, "context_copy_bwd", 2 * c->T * c->nq * c->E);
	bgemm(l, "context_dgrad_p", c->b * c->A, qrows, c->sq, c->dv);
	bgemm(l, "context_dgrad_v", c->b * c->A, c->sq, c->dv, qrows);
	if (c->drop)
		mem(l, "attn_dropout_bwd", S * (2 * c->E + 1));
	mem(l, "softmax_bwd", 3 * S * c->E);     /* read y, dy; write dx */
	bgemm(l, "scores_dgrad_q", c->b * c->A, qrows, c->dqk, c->sq);
	bgemm(l, "scores_dgrad_k", c->b * c->A, c->sq, c->dqk, qrows);
	if (c->eager && !c->mla && c->nkv < c->nq)
		mem_k(l, "repeat_kv_bwd", 2 * c->T * (c->nkv + c->nq) * c->E, 2);
}

/* Bias + dropout + residual add (Megatron's fused kernel): read the GEMM
 * output and the residual, write the sum and a 1-byte mask; without
 * dropout and bias (Llama) a plain residual add. */
static void bda(oplist *l)
{
	const lctx *c = l->c;
	if (c->drop && c->eager)   /* dropout, then the add */
		mem_k(l, "bias_dropout_add", c->X * (5 * c->E + 1), 2);
	else
		mem(l, "bias_dropout_add", c->drop ? c->X * (3 * c->E + 1) : 3 * c->X * c->E);
}

/* Multi-head latent attention's projections (Megatron-core's MLA as
 * DeepSeek-V3 runs it): the down projections to the query and key/value
 * latents (and the shared rotary key) are replicated over the TP ranks, the
 * up projections to every local head column-parallel; RMSNorm on each
 * latent; rotary on the query's and the key's rotary parts. */
static void linear_bwd(oplist *l, const char *dname, const char *wname, double m, double n,
                       double k);

static void mla_fwd(oplist *l)
{
	const lctx *c = l->c;
	if (c->ql > 0) {
		gemm(l, "q_down", c->T, c->ql, c->h);
		norm_fwd(l, "q_norm", c->T * c->ql);
		gemm(l, "q_up", c->T, c->A * c->dqk, c->ql);
	} else {
		gemm(l, "q_proj", c->T, c->A * c->dqk, c->h);
	}
	gemm(l, "kv_down", c->T, c->kvl + c->dr, c->h);
	norm_fwd(l, "kv_norm", c->T * c->kvl);
	gemm(l, "kv_up", c->T, c->A * (c->hd + c->dv), c->kvl);
	rope(l, "rotary", (c->A + 1) * c->dr);
}

static void mla_bwd(oplist *l)
{
	const lctx *c = l->c;
	rope(l, "rotary_bwd", (c->A + 1) * c->dr);
	linear_bwd(l, "kv_up_dgrad", "kv_up_wgrad", c->T, c->A * (c->hd + c->dv), c->kvl);
	norm_bwd(l, "kv_norm_bwd", c->T * c->kvl, 5 * c->T * c->kvl * c->E, false);
	linear_bwd(l, "kv_down_dgrad", "kv_down_wgrad", c->T, c->kvl + c->dr, c->h);
	if (c->ql > 0) {
		linear_bwd(l, "q_up_dgrad", "q_up_wgrad", c->T, c->A * c->dqk, c->ql);
		norm_bwd(l, "q_norm_bwd", c->T * c->ql, 5 * c->T * c->ql * c->E, false);
		linear_bwd(l, "q_down_dgrad", "q_down_wgrad", c->T, c->ql, c->h);
	} else {
		linear_bwd(l, "q_proj_dgrad", "q_proj_wgrad", c->T, c->A * c->dqk, c->h);
	}
	/* the input's gradient, summed over the TP ranks' heads */
	tpcomm(l, c->sp ? "tp_rs_attn_bwd" : "tp_ar_attn_bwd",
	       c->sp ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE);
}

/* Op names of an MLP: a dense layer's, or a MoE layer's shared experts'. */
typedef struct mlp_names {
	const char *ag, *fc1, *fc2, *red_sp, *red;
	const char *ag_bwd, *fc2_d, *fc2_w, *fc1_d, *fc1_w, *ag_in, *red_sp_bwd, *red_bwd;
} mlp_names;

static const mlp_names dense_mlp = {
	"tp_ag_mlp", "fc1", "fc2", "tp_rs_mlp", "tp_ar_mlp",
	"tp_ag_mlp_bwd", "fc2_dgrad", "fc2_wgrad", "fc1_dgrad", "fc1_wgrad",
	"tp_ag_mlp_input", "tp_rs_mlp_bwd", "tp_ar_mlp_bwd"};
static const mlp_names shared_mlp = {
	"tp_ag_shared", "shared_fc1", "shared_fc2", "tp_rs_shared", "tp_ar_shared",
	"tp_ag_shared_bwd", "shared_fc2_dgrad", "shared_fc2_wgrad", "shared_fc1_dgrad",
	"shared_fc1_wgrad", "tp_ag_shared_input", "tp_rs_shared_bwd", "tp_ar_shared_bwd"};

/* A tensor-parallel MLP of width f over the layer's tokens: [SP: all-gather
 * the input], fc1, activation, fc2, the TP reduction (SP: reduce-scatter). */
static void mlp_fwd(oplist *l, double f, const mlp_names *nm)
{
	const lctx *c = l->c;
	double n1 = (c->m.gated_mlp ? 2 : 1) * f / c->t;
	if (c->sp)
		tpcomm(l, nm->ag, COLL_ALL_GATHER);
	fp8_cast(l, "fp8_cast_fc1_input", c->T * c->h, nm == &dense_mlp);
	gemm(l, nm->fc1, c->T, n1, c->h);
	act(l, c->m.gated_mlp ? "swiglu" : "bias_gelu", c->T * f / c->t, false);
	fp8_cast(l, "fp8_cast_fc2_input", c->T * f / c->t, false);
	gemm(l, nm->fc2, c->T, c->h, f / c->t);
	tpcomm(l, c->sp ? nm->red_sp : nm->red, c->sp ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE);
}

/* Shapes of a MoE layer's routed experts on one GPU, the experts balanced. */
typedef struct moe_shape {
	double Tr;   /* token copies this GPU routes: Tl x top_k */
	double Tx;   /* token copies its local experts run (gathered over expert_tp) */
	double le;   /* local experts: experts / ep */
	double me;   /* tokens per local expert */
	double fl;   /* width of a local expert: expert_ffn_hidden / expert_tp */
	double n1;   /* fc1 output width (x2 gated) */
} moe_shape;

static moe_shape moe_shape_of(const lctx *c)
{
	moe_shape q;
	q.Tr = c->Tl * c->topk;
	q.Tx = q.Tr * c->etp * c->imb;   /* the busiest GPU's, which the others wait for */
	q.le = c->ne / c->ep;
	q.me = q.Tx / q.le;
	q.fl = c->fe / c->etp;
	q.n1 = (c->m.gated_mlp ? 2 : 1) * q.fl;
	return q;
}

static void grouped(oplist *l, const char *name, double batch, double m, double n, double k)
{
	batched(l, name, batch, m, n, k, true);
}

/* An expert-TP collective over the gathered token copies (expert_tp > 1). */
static void etpcomm(oplist *l, const char *name, coll_op op, const moe_shape *q)
{
	if (l->c->etp > 1)
		tpcomm(l, name, op)->bytes = q->Tx * l->c->h * l->c->E;
}

/* After the all-to-all the received tokens are grouped by source rank;
 * Megatron-core's dispatcher regroups them by local expert before the
 * experts and back after (sort_chunks_by_idxs, when a GPU holds more than one
 * expert and ep > 1): a read and a write of the tokens each way. */
static void sort_chunks(oplist *l, const char *name, const moe_shape *q)
{
	const lctx *c = l->c;
	if (c->ep > 1 && q->le > 1)
		mem(l, name, 2 * q->Tx * c->h * c->E);
}

/* Megatron-core's MoE layer with the all-to-all dispatcher: the router (a
 * GEMM to the expert logits, fp32 softmax and top-k), the tokens permuted
 * into expert order, sent to their experts' GPUs, [gathered over expert_tp],
 * run through the local experts as grouped GEMMs, sent back, unpermuted and
 * summed with their routing weights; the shared experts run as a TP MLP. */
static void moe_fwd(oplist *l)
{
	const lctx *c = l->c;
	moe_shape q = moe_shape_of(c);
	gemm(l, "router", c->Tl, c->ne, c->h);
	mem(l, "router_topk", 3 * 4 * c->Tl * c->ne);
	mem(l, "permute", (c->Tl + q.Tr) * c->h * c->E);
	epcomm(l, "ep_dispatch");
	etpcomm(l, "etp_ag_tokens", COLL_ALL_GATHER, &q);
	sort_chunks(l, "sort_chunks", &q);
	fp8_cast(l, "fp8_cast_expert_fc1_input", q.Tx * c->h, false);
	grouped(l, "expert_fc1", q.le, q.me, q.n1, c->h);
	act(l, c->m.gated_mlp ? "expert_swiglu" : "expert_gelu", q.Tx * q.fl, false);
	fp8_cast(l, "fp8_cast_expert_fc2_input", q.Tx * q.fl, false);
	grouped(l, "expert_fc2", q.le, q.me, c->h, q.fl);
	sort_chunks(l, "unsort_chunks", &q);
	etpcomm(l, "etp_rs_tokens", COLL_REDUCE_SCATTER, &q);
	epcomm(l, "ep_combine");
	mem(l, "unpermute", (q.Tr + c->Tl) * c->h * c->E + 4 * q.Tr);
	if (c->fsh > 0)
		mlp_fwd(l, c->fsh, &shared_mlp);
}

static void layer_fwd(oplist *l)
{
	const lctx *c = l->c;
	double nqkv = c->nq + 2 * c->nkv;
	norm_fwd(l, "ln1", c->X);
	if (c->sp)
		tpcomm(l, "tp_ag_attn", COLL_ALL_GATHER);
	fp8_cast(l, "fp8_cast_qkv_input", c->T * c->h, true);
	if (c->mla) {
		mla_fwd(l);
	} else {
		gemm(l, "qkv", c->T, nqkv, c->h);
		if (c->bias)
			mem(l, "qkv_bias", 2 * c->T * nqkv * c->E);
		else
			rope(l, "rotary", c->nq + c->nkv);
	}
	core_fwd(l);
	fp8_cast(l, "fp8_cast_proj_input", c->T * c->nq, false);
	gemm(l, "proj", c->T, c->h, c->nq);
	tpcomm(l, c->sp ? "tp_rs_attn" : "tp_ar_attn", c->sp ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE);
	bda(l);
	norm_fwd(l, "ln2", c->X);
	if (c->moe)
		moe_fwd(l);
	else
		mlp_fwd(l, c->f, &dense_mlp);
	bda(l);
}

/* Backward of a linear layer y = x W^T (x: m x k, W: n x k): dgrad dx = dy W
 * (m x k, inner n) and wgrad dW = dy^T x (n x k, inner m). */
static void linear_bwd_p(oplist *l, const char *dname, const char *wname, double m, double n,
                         double k, hw_precision p)
{
	gemm_p(l, dname, m, k, n, p);
	gemm_p(l, wname, n, k, m, p);
}

static void linear_bwd(oplist *l, const char *dname, const char *wname, double m, double n, double k)
{
	linear_bwd_p(l, dname, wname, m, n, k, l->c->prec);
}

/* The output layer's precision: fp8 recipes keep it 16-bit (Megatron-core
 * builds it as its own ColumnParallelLinear, outside Transformer Engine's
 * fp8 layers). */
static hw_precision head_prec(const lctx *c)
{
	return hw_prec_scaled(c->prec) ? PREC_BF16 : c->prec;
}

/* LayerNorm backward (apex fused kernels): the input gradient reads x and
 * dy and writes dx (3), the gamma/beta partial sums read x and dy again (2);
 * then the residual stream's two gradients are added (read 2, write 1). */
static double ln_bwd_bytes(const lctx *c)
{
	return (3 + 2 + 3) * c->X * c->E;
}

/* Whether the training stack is the post-2021 Megatron generation: bf16
 * (and fp8) runs come with it (bf16 support, apex's fused weight-gradient
 * kernels and the async TP communication arrived together in Megatron-LM in
 * the second half of 2021); fp16 runs are taken as the 2020-21 code.
 * Derived, not a scenario key: see docs/workload.md. */
static bool modern_stack(const lctx *c)
{
	return c->prec == PREC_BF16 || hw_prec_scaled(c->prec);
}

/* An async TP collective runs beside the GEMM just pushed: that GEMM loses
 * the SMs NCCL holds for as long as both run, one per NCCL channel
 * (coll_node_ctas: 24 on 8 x A100 or H100, as NCCL's logs show, 16 for an
 * NVLS all-reduce; Megatron even delays the GEMM a few us so that NCCL's
 * kernel is resident first, "to have gather scheduled first and have GPU
 * resources allocated"). The collective's duration is
 * estimated here from the intra-node bandwidth (the step simulates the
 * collective itself; this only charges the GEMM). */
static void share_sms(oplist *l, coll_op op)
{
	const lctx *c = l->c;
	if (c->t <= 1 || l->n == 0)
		return;
	wl_op *g = &l->ops[l->n - 1];
	double bw = cluster_spec_group_Bps(&c->s->cluster, (int)c->t);
	if (bw <= 0)
		bw = 25e9;          /* PCIe 4 x16 achievable (cost-models 11) */
	double f = (op == COLL_ALL_REDUCE ? 2.0 : 1.0) * (c->t - 1) / c->t;
	double t_coll = c->T * c->h * c->E * f / bw;
	double both = t_coll < g->time_s ? t_coll : g->time_s;
	g->time_s += both * coll_node_ctas(&c->s->cluster, (int)c->t, op) / wl__sms(c->g);
}

/* Backward of a column-parallel linear (QKV, fc1) and of the TP operator
 * before it. Modern: [SP: re-gather the input, async, during dgrad], dgrad,
 * the input-gradient all-reduce (SP: reduce-scatter) async during wgrad,
 * wgrad. Old: dgrad, wgrad, then the blocking all-reduce. */
static void column_bwd(oplist *l, const char *dname, const char *wname, double n, double k,
                       const char *ag_name, const char *red_name, const char *sum_name,
                       int projections)
{
	const lctx *c = l->c;
	coll_op red = c->sp ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE;
	/* eager PyTorch's separate projections: their input gradients summed
	 * (3E a pass over T h, one pass per extra projection) before the TP
	 * reduction */
	double sum = c->eager && projections > 1 ? 3 * (projections - 1) * c->T * c->h * c->E : 0;
	if (!modern_stack(c)) {
		if (c->sp)
			tpcomm(l, ag_name, COLL_ALL_GATHER);
		linear_bwd(l, dname, wname, c->T, n, k);
		mem_k(l, sum_name, sum, projections - 1);
		tpcomm(l, red_name, red);
		return;
	}
	fp8_cast(l, "fp8_cast_grad", c->T * n, false);
	if (c->sp)
		tpcomm(l, ag_name, COLL_ALL_GATHER)->async = true;
	gemm(l, dname, c->T, k, n);
	if (c->sp)
		share_sms(l, COLL_ALL_GATHER);
	mem_k(l, sum_name, sum, projections - 1);
	tpcomm(l, red_name, red)->async = true;
	gemm(l, wname, n, k, c->T);
	share_sms(l, red);
}

/* Backward of mlp_fwd. */
static void mlp_bwd(oplist *l, double f, const mlp_names *nm)
{
	const lctx *c = l->c;
	double n1 = (c->m.gated_mlp ? 2 : 1) * f / c->t;
	double F = c->T * f / c->t;
	if (c->sp)   /* backward of the forward reduce-scatter */
		tpcomm(l, nm->ag_bwd, COLL_ALL_GATHER);
	fp8_cast(l, "fp8_cast_fc2_grad", c->T * c->h, false);
	linear_bwd(l, nm->fc2_d, nm->fc2_w, c->T, c->h, f / c->t);
	act(l, c->m.gated_mlp ? "swiglu_bwd" : "bias_gelu_bwd", F, true);
	column_bwd(l, nm->fc1_d, nm->fc1_w, n1, c->h, nm->ag_in, c->sp ? nm->red_sp_bwd : nm->red_bwd,
	           "w13_dx_sum", c->m.gated_mlp ? 2 : 1);
}

/* Backward of moe_fwd, in autograd's order. */
static void moe_bwd(oplist *l)
{
	const lctx *c = l->c;
	moe_shape q = moe_shape_of(c);
	if (c->fsh > 0)
		mlp_bwd(l, c->fsh, &shared_mlp);
	mem(l, "unpermute_bwd", (q.Tr + c->Tl) * c->h * c->E + 4 * q.Tr);
	epcomm(l, "ep_combine_bwd");
	etpcomm(l, "etp_ag_tokens_bwd", COLL_ALL_GATHER, &q);
	sort_chunks(l, "unsort_chunks_bwd", &q);
	fp8_cast(l, "fp8_cast_expert_fc2_grad", q.Tx * c->h, false);
	grouped(l, "expert_fc2_dgrad", q.le, q.me, q.fl, c->h);
	grouped(l, "expert_fc2_wgrad", q.le, c->h, q.fl, q.me);
	act(l, c->m.gated_mlp ? "expert_swiglu_bwd" : "expert_gelu_bwd", q.Tx * q.fl, true);
	fp8_cast(l, "fp8_cast_expert_fc1_grad", q.Tx * q.n1, false);
	grouped(l, "expert_fc1_dgrad", q.le, q.me, c->h, q.n1);
	if (c->eager && c->m.gated_mlp)   /* the experts' w1 and w3 dgrads summed */
		mem(l, "expert_w13_dx_sum", 3 * q.Tx * c->h * c->E);
	grouped(l, "expert_fc1_wgrad", q.le, q.n1, c->h, q.me);
	sort_chunks(l, "sort_chunks_bwd", &q);
	etpcomm(l, "etp_rs_tokens_bwd", COLL_REDUCE_SCATTER, &q);
	epcomm(l, "ep_dispatch_bwd");
	mem(l, "permute_bwd", (q.Tr + c->Tl) * c->h * c->E);
	mem(l, "router_topk_bwd", 3 * 4 * c->Tl * c->ne);
	linear_bwd(l, "router_dgrad", "router_wgrad", c->Tl, c->ne, c->h);
}

static void layer_bwd(oplist *l)
{
	const lctx *c = l->c;
	double nqkv = c->nq + 2 * c->nkv;
	/* Dropout backward reads dy and the mask, writes dx; the bias gradient
	 * is one more read of dy. The residual branch passes dy through. */
	mem(l, "bias_dropout_add_bwd", c->drop ? c->X * (3 * c->E + 1) : 0);
	if (c->moe)
		moe_bwd(l);
	else
		mlp_bwd(l, c->f, &dense_mlp);
	norm_bwd(l, "ln2_bwd", c->X, ln_bwd_bytes(c), true);
	mem(l, "bias_dropout_add_bwd", c->drop ? c->X * (3 * c->E + 1) : 0);
	if (c->sp)
		tpcomm(l, "tp_ag_attn_bwd", COLL_ALL_GATHER);
	fp8_cast(l, "fp8_cast_proj_grad", c->T * c->h, false);
	linear_bwd(l, "proj_dgrad", "proj_wgrad", c->T, c->h, c->nq);
	core_bwd(l);
	if (c->mla) {
		if (c->sp)
			tpcomm(l, "tp_ag_attn_input", COLL_ALL_GATHER);
		mla_bwd(l);
		norm_bwd(l, "ln1_bwd", c->X, ln_bwd_bytes(c), true);
		return;
	}
	if (c->bias)
		mem(l, "qkv_bias_bwd", c->T * nqkv * c->E);
	else
		rope(l, "rotary_bwd", c->nq + c->nkv);
	/* the gradient of the fused QKV output assembled from its three parts
	 * (backward of the split into Q, K, V views): read and write it once */
	if (!(c->eager && c->rms))   /* eager Llama: separate wq, wk, wv (column_bwd) */
		mem(l, "qkv_split_bwd", 2 * c->T * nqkv * c->E);
	column_bwd(l, "qkv_dgrad", "qkv_wgrad", nqkv, c->h, "tp_ag_attn_input",
	           c->sp ? "tp_rs_attn_bwd" : "tp_ar_attn_bwd", "qkv_dx_sum", c->rms ? 3 : 1);
	norm_bwd(l, "ln1_bwd", c->X, ln_bwd_bytes(c), true);
}

/* Bytes per parameter of accumulating a micro-batch's weight gradient into
 * the gradient buffer. bf16 (and fp8) Megatron keeps fp32 main grads that the
 * wgrad GEMM accumulates into directly (gradient_accumulation_fusion): no
 * extra pass. fp16 and fp32 training accumulate through autograd's in-place
 * add (Megatron 2020-21 LocalDDP hook main_grad.add_(grad), PyTorch
 * AccumulateGrad): read grad, read and write the buffer = 3 elements. bf16
 * without the fusion (training.grad_accum_pass: true; DeepSpeed's
 * BF16_Optimizer.update_hp_grads after every backward: hp_grad.add_(lp.grad
 * .to(fp32))): read the 16-bit grad, read and write the fp32 one. */
static double accum_bytes_per_param(const lctx *c)
{
	if (c->lora > 0)
		return 0;   /* frozen weights; the adapters' few are not charged */
	if (modern_stack(c))
		return c->s->training.grad_accum_pass ? c->E + 2 * 4.0 : 0;
	return 3 * c->E;
}

static void custom_ops(oplist *l, int layer, wl_pass pass)
{
	const lctx *c = l->c;
	if (layer < 0 || layer >= c->m.nlayers_custom)
		return;
	const scn_layer *cl = &c->m.custom_layers[layer];
	double fl = c->b * cl->fwd_flops / c->t;
	double side = cbrt(fl / 2);            /* an equivalent cubic GEMM */
	double act = c->b * cl->act_bytes / c->t;
	if (pass == WL_RECOMPUTE && !wl_layer_recomputed(c->s, layer))
		return;
	int n = pass == WL_BWD ? 2 : 1;
	for (int i = 0; i < n; i++) {
		if (fl > 0)
			gemm(l, pass == WL_BWD ? (i ? "wgrad" : "dgrad") : "fwd", side, side, side);
		mem(l, pass == WL_BWD ? "act_bwd" : "act", act);
	}
	if (c->t > 1 && act > 0) {
		wl_op *o = push(l, OP_TP_COMM, "tp_ar");
		o->coll = COLL_ALL_REDUCE;
		o->bytes = c->b * cl->act_bytes;
	}
}

/* An overlapped all-to-all takes its SMs from the compute it runs beside
 * only while both run: its charge is at most that compute's share (the ops
 * up to the next all-to-all of the list). */
static void cap_ep_sms(oplist *l)
{
	for (int i = 0; i < l->n; i++) {
		wl_op *o = &l->ops[i];
		if (strcmp(o->name, "ep_overlap_sms"))
			continue;
		double window = 0;
		for (int j = i + 1; j < l->n && !(l->ops[j].kind == OP_TP_COMM && l->ops[j].ep_group); j++)
			if (l->ops[j].kind != OP_TP_COMM)
				window += l->ops[j].time_s;
		double cap = window * EP_COMM_SMS / wl__sms(l->c->g);
		if (o->time_s > cap)
			o->time_s = cap;
	}
}

int wl_layer_ops(const scenario *s, int layer, wl_pass pass, wl_op *ops, int max)
{
	lctx c;
	ctx_init(&c, s, layer);
	oplist l = {.ops = ops, .max = max, .c = &c};
	if (c.m.custom) {
		custom_ops(&l, layer, pass);
		return l.n;
	}
	switch (pass) {
	case WL_FWD:
		layer_fwd(&l);
		cap_ep_sms(&l);
		break;
	case WL_BWD:
		layer_bwd(&l);
		cap_ep_sms(&l);
		mem(&l, "grad_accum", wl_layer_gpu_params(s, layer) * accum_bytes_per_param(&c));
		break;
	case WL_RECOMPUTE:
		if (wl_layer_recomputed(s, layer)) {
			layer_fwd(&l);
			cap_ep_sms(&l);
		}
		else if (s->training.recompute == RECOMPUTE_SELECTIVE)
			core_fwd(&l);
		break;
	}
	return l.n;
}

bool wl_flash_attention(const scenario *s)
{
	const hw_gpu *g = &s->cluster.gpu;
	/* the flash kernels take fp16/bf16 inputs: an fp32 or tf32 run's attention
	 * is PyTorch's unfused (math) path */
	if (!wl__has_flash(g) || s->training.attention == ATTN_UNFUSED ||
	    s->training.precision == PREC_FP32 || s->training.precision == PREC_TF32)
		return false;
	if (s->training.attention == ATTN_FLASH || s->training.attention == ATTN_FLASH2 ||
	    s->training.attention == ATTN_FLASH1)
		return true;
	/* GPUs released after FlashAttention was every framework's default
	 * (Hopper, Blackwell, RTX Blackwell; AMD's MI300 and MI350 series, whose ROCm stacks
	 * ship composable_kernel's FlashAttention-2): no run of theirs used the
	 * unfused attention of 2020-22's GPT code. The MI250X (CDNA2, 2021)
	 * takes the Ampere rule below. By name, not by order. */
	if (g->arch == ARCH_HOPPER || g->arch == ARCH_BLACKWELL || g->arch == ARCH_BLACKWELL_RTX ||
	    g->arch == ARCH_CDNA3 || g->arch == ARCH_CDNA4)
		return true;
	/* Megatron's context parallelism runs on Transformer Engine's fused
	 * attention, whatever the model */
	if (scn_cp(s) > 1)
		return true;
	/* the Llama generation (gated MLP or grouped-query attention) */
	return s->model.gated_mlp || (s->model.kv_heads > 0 && s->model.kv_heads < s->model.heads);
}

/* Sums an op list into the cost fields of one pass. */
static void sum_ops(const wl_op *ops, int n, double *time_s, double *flops, double *mem_s, int *ntp,
                    int *coll, double *tp_bytes)
{
	for (int i = 0; i < n; i++) {
		const wl_op *o = &ops[i];
		if (o->kind == OP_TP_COMM && (o->cp_group || o->ep_group))
			continue;   /* K/V or token exchange: the step engine's, not a TP count */
		if (o->kind == OP_TP_COMM) {
			(*ntp)++;
			if (coll && *ntp == 1)
				*coll = o->coll == COLL_REDUCE_SCATTER ? COLL_ALL_GATHER : o->coll;
			if (tp_bytes)
				*tp_bytes = o->bytes;
			continue;
		}
		*time_s += o->time_s;
		*flops += o->flops;
		if (o->kind == OP_MEMBOUND && mem_s)
			*mem_s += o->time_s;
	}
}

/* Embedding (first stage) or final norm + logits + loss (last stage). The
 * vocabulary-parallel loss also all-reduces three T-float vectors (max, sum,
 * target logit); latency only, left out of the cost. */
static void head_ops(oplist *l, bool first, wl_pass pass)
{
	const lctx *c = l->c;
	double vt = c->m.vocab / c->t;
	double L = c->T * vt;                  /* logit elements on this GPU */
	double emb_params = c->m.vocab * c->h / c->t;
	if (pass == WL_RECOMPUTE)
		return;
	if (first && pass == WL_FWD) {
		mem(l, "embedding", 2 * c->T * c->h * c->E);  /* gather rows, write the output */
		tpcomm(l, c->sp ? "tp_rs_embedding" : "tp_ar_embedding",
		       c->sp ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE);
		mem(l, "embedding_dropout", c->bias ? c->X * (3 * c->E + 1) : 0);
	} else if (first) {
		if (c->sp)
			tpcomm(l, "tp_ag_embedding_bwd", COLL_ALL_GATHER);
		/* dense gradient of the vocabulary slice: zero it, scatter-add rows
		 * (none for LoRA's frozen embedding) */
		if (!(c->lora > 0))
			mem(l, "embedding_bwd", emb_params * c->E + 3 * c->T * c->h * c->E);
		mem(l, "grad_accum", emb_params * accum_bytes_per_param(c));
	} else if (pass == WL_FWD) {
		norm_fwd(l, "final_norm", c->X);
		if (c->sp)
			tpcomm(l, "tp_ag_logits", COLL_ALL_GATHER);
		gemm_p(l, "logits", c->T, vt, c->h, head_prec(c));
		/* Megatron's vocab-parallel cross entropy on an fp32 copy: convert
		 * (2+4), max (4), subtract (8), exp (8), sum (4), normalize (8).
		 * Fused (TE's and Liger's kernels, flash-attn's xentropy): the
		 * forward reads each row of logits once, for its max and sum of
		 * exponentials (online) and the target's logit; the backward reads
		 * them again and writes the gradient over them. llm.c's classifier
		 * does both passes in the forward: the same bytes. */
		mem(l, "cross_entropy", (c->fused_ce ? c->E : 38) * L);
	} else {
		/* unfused: scale softmax (8), back to 16-bit (6) */
		mem(l, "cross_entropy_bwd", (c->fused_ce ? 2 * c->E : 14) * L);
		linear_bwd_p(l, "logits_dgrad", "logits_wgrad", c->T, vt, c->h, head_prec(c));
		tpcomm(l, c->sp ? "tp_rs_logits_bwd" : "tp_ar_logits_bwd",
		       c->sp ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE);
		norm_bwd(l, "final_norm_bwd", c->X, 3 * c->X * c->E, false);
		mem(l, "grad_accum", emb_params * accum_bytes_per_param(c));
	}
}

/* Async collectives of a backward list and the compute of the GEMM each
 * overlaps (the next compute op). */
static void async_windows(const wl_op *ops, int n, wl_layer_cost *out)
{
	double win = 0;
	int na = 0;
	for (int i = 0; i < n; i++) {
		if (ops[i].kind != OP_TP_COMM || !ops[i].async || ops[i].cp_group || ops[i].ep_group)
			continue;
		for (int j = i + 1; j < n; j++)
			if (ops[j].kind != OP_TP_COMM) {
				win += ops[j].time_s;
				break;
			}
		na++;
	}
	out->n_tp_bwd_async = na;
	out->tp_async_window_s = na ? win / na : 0;
}

static double find_time(const wl_op *ops, int n, const char *name)
{
	double t = 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(ops[i].name, name))
			t += ops[i].time_s;
	return t;
}

/* Fills *out from the three op lists of a layer or head. */
static void cost_from_ops(const lctx *c, const wl_op *f, int nf, const wl_op *b, int nb,
                          const wl_op *r, int nr, wl_layer_cost *out)
{
	memset(out, 0, sizeof *out);
	out->tp_coll_fwd = out->tp_coll_bwd = COLL_ALL_REDUCE;
	sum_ops(f, nf, &out->fwd_s, &out->fwd_flops, &out->membound_fwd_s, &out->n_tp_fwd,
	        &out->tp_coll_fwd, &out->tp_bytes);
	sum_ops(b, nb, &out->bwd_s, &out->bwd_flops, &out->membound_bwd_s, &out->n_tp_bwd,
	        &out->tp_coll_bwd, &out->tp_bytes);
	double rmem = 0;
	sum_ops(r, nr, &out->recompute_s, &out->recompute_flops, &rmem, &out->n_tp_recompute,
	        NULL, NULL);
	(void)rmem;
	out->grad_accum_s = find_time(b, nb, "grad_accum");
	async_windows(b, nb, out);
	if (c->sp) {
		out->tp_coll_fwd = COLL_ALL_GATHER;
		out->tp_coll_bwd = COLL_ALL_GATHER;
	}
	if (out->tp_bytes <= 0)
		out->tp_bytes = c->T * c->h * c->E;
}

void wl_layer_cost_get(const scenario *s, int layer, wl_layer_cost *out)
{
	wl_op f[WL_MAX_OPS], b[WL_MAX_OPS], r[WL_MAX_OPS];
	lctx c;
	ctx_init(&c, s, layer);
	int nf = wl_layer_ops(s, layer, WL_FWD, f, WL_MAX_OPS);
	int nb = wl_layer_ops(s, layer, WL_BWD, b, WL_MAX_OPS);
	int nr = wl_layer_ops(s, layer, WL_RECOMPUTE, r, WL_MAX_OPS);
	cost_from_ops(&c, f, nf, b, nb, r, nr, out);
	if (c.m.custom) {
		if (layer >= 0 && layer < c.m.nlayers_custom) {
			out->params = c.m.custom_layers[layer].params / c.t;
			out->act_bytes = c.b * c.m.custom_layers[layer].act_bytes / c.t;
			out->tp_bytes = c.b * c.m.custom_layers[layer].act_bytes;
		}
		return;
	}
	out->params = wl_layer_gpu_params(s, layer);
	out->act_bytes = wl__layer_act_bytes(s, &c.m, c.flash, c.moe);
}

void wl_head_cost(const scenario *s, bool first_stage, wl_layer_cost *out)
{
	wl_op f[WL_MAX_OPS], b[WL_MAX_OPS];
	lctx c;
	ctx_init(&c, s, -1);
	memset(out, 0, sizeof *out);
	if (c.m.custom)
		return;
	oplist lf = {.ops = f, .max = WL_MAX_OPS, .c = &c};
	oplist lb = {.ops = b, .max = WL_MAX_OPS, .c = &c};
	head_ops(&lf, first_stage, WL_FWD);
	head_ops(&lb, first_stage, WL_BWD);
	cost_from_ops(&c, f, lf.n, b, lb.n, NULL, 0, out);
	out->params = c.m.vocab * c.h / c.t;
	out->act_bytes = first_stage ? c.X * (c.E + 1)
	                             : c.T * c.m.vocab / c.t * (c.fused_ce ? c.E : 4);
}
