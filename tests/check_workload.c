/* check_workload.c: the transformer workload against hand-computed values:
 * parameter counts, FLOPs in every convention, per-layer operations and TP
 * collectives, memory per GPU, checkpoint sizes and the GEMM efficiency model
 * against the A100 measurements it was derived from. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "coll.h"
#include "workload.h"

/* A GPT scenario on DGX A100 nodes, built without the loader. */
static void gpt(scenario *s, int layers, int hidden, int heads, int seq)
{
	memset(s, 0, sizeof *s);
	const hw_gpu *g = hw_gpu_find("A100-SXM4-80GB");
	ck_assert_ptr_nonnull(g);
	s->cluster.gpu = *g;
	s->cluster.nodes = 1;
	s->cluster.gpus_per_node = 8;
	s->model.layers = layers;
	s->model.hidden = hidden;
	s->model.heads = heads;
	s->model.seq_len = seq;
	s->model.vocab = 51200;
	s->training.precision = PREC_BF16;
	s->training.global_batch = 8;
	s->training.micro_batch = 1;
	s->training.tp = 1;
	s->training.pp = 1;
	s->training.dp = 1;
	s->training.schedule = SCHED_1F1B;
	s->training.grad_reduce.dtype = PREC_FP32;
}

/* Tiny model, by hand: l=2, h=64, a=4, s=16, V=128, f=4h=256.
 * Layer params 12h^2 + 13h = 49152 + 832 = 49984; embeddings V h + s h =
 * 8192 + 1024 = 9216; final LayerNorm 2h = 128; total 109312.
 * Forward FLOPs per sequence per layer 24 s h^2 + 4 s^2 h = 1572864 + 65536;
 * logits 2 s h V = 262144; model FLOPs = 3 (2 x 1638400 + 262144) = 10616832. */
START_TEST(t_tiny_by_hand)
{
	scenario s;
	gpt(&s, 2, 64, 4, 16);
	s.model.vocab = 128;
	ck_assert_double_eq_tol(wl_layer_params(&s.model, 0), 49984, 1e-9);
	ck_assert_double_eq_tol(wl_embedding_params(&s.model), 9216 + 128, 1e-9);
	ck_assert_double_eq_tol(wl_params(&s.model), 109312, 1e-9);
	ck_assert_double_eq_tol(wl_model_flops_per_seq(&s.model), 10616832, 1e-6);
	/* full recompute adds one forward of each layer: + 2 x 1638400 */
	ck_assert_double_eq_tol(wl_hw_flops_per_seq(&s.model, RECOMPUTE_FULL),
	                        10616832 + 3276800, 1e-6);
	/* selective adds the attention core 4 s^2 h per layer: + 2 x 65536 */
	ck_assert_double_eq_tol(wl_hw_flops_per_seq(&s.model, RECOMPUTE_SELECTIVE),
	                        10616832 + 131072, 1e-6);
}
END_TEST

/* LoRA on the tiny model (h 64, 4 heads of 16, f 256), rank 8: adapters
 * r(in + out) beside QKV (64 -> 192), the projection (64 -> 64), fc1 (64 ->
 * 256) and fc2 (256 -> 64): 8 (256 + 128 + 320 + 320) = 8192 a layer. The
 * frozen weights keep their bytes, the gradients and optimizer state are the
 * adapters'; the backward loses its weight-gradient GEMMs (but runs the
 * adapters'), so a layer's backward is cheaper while its forward is not. */
START_TEST(t_lora)
{
	scenario s;
	gpt(&s, 2, 64, 4, 16);
	s.model.vocab = 128;
	s.model.ffn_hidden = 256;
	ck_assert_double_eq(wl_lora_layer_params(&s, 0), 0);
	wl_memory full, lora;
	wl_memory_get(&s, &full);
	wl_layer_cost cf, cl;
	wl_layer_cost_get(&s, 0, &cf);
	s.training.peft = PEFT_LORA;
	s.training.lora_rank = 8;
	ck_assert_double_eq_tol(wl_lora_layer_params(&s, 0), 8192, 1e-9);
	ck_assert_double_eq_tol(wl_stage_trainable_params(&s, 0), 2 * 8192, 1e-9);
	ck_assert_double_eq_tol(wl_dp_grad_bytes(&s, 0), 2 * 8192 * 4.0, 1e-9);   /* fp32 */
	wl_memory_get(&s, &lora);
	ck_assert(lora.weights >= full.weights);
	ck_assert(lora.gradients < 0.2 * full.gradients);
	ck_assert(lora.optimizer < 0.2 * full.optimizer);
	wl_layer_cost_get(&s, 0, &cl);
	ck_assert(cl.bwd_flops < cf.bwd_flops);
	ck_assert(cl.fwd_flops > cf.fwd_flops);   /* the adapters' forward GEMMs */
	/* the base weight-gradient GEMMs are gone: 2 of the 4 thirds of the
	 * linear layers' backward, less the adapters' few */
	s.model.hidden = 4096, s.model.heads = 32, s.model.ffn_hidden = 16384, s.model.seq_len = 2048;
	s.training.peft = PEFT_NONE;
	wl_layer_cost_get(&s, 0, &cf);
	s.training.peft = PEFT_LORA;
	wl_layer_cost_get(&s, 0, &cl);
	double ratio = cl.bwd_flops / cf.bwd_flops;
	ck_assert_msg(ratio > 0.5 && ratio < 0.6, "backward FLOPs under LoRA: %g of full", ratio);
	/* the review: model FLOPs without the frozen weights' gradients; the
	 * checkpoint is the adapters'; under TP each rank holds A (column) or B
	 * (row) whole, so more than a tp-th of the adapters */
	double mf = wl_step_model_flops(&s), ck = wl_checkpoint_bytes(&s, CKPT_FULL);
	s.training.peft = PEFT_NONE;
	ck_assert_msg(mf < 0.8 * wl_step_model_flops(&s) && mf > 0.6 * wl_step_model_flops(&s),
	              "LoRA model FLOPs %g of full", mf / wl_step_model_flops(&s));
	ck_assert(ck < 0.01 * wl_checkpoint_bytes(&s, CKPT_FULL));
	s.training.peft = PEFT_LORA;
	s.training.tp = 2;
	ck_assert(wl_lora_gpu_params(&s, 0) > 0.5 * wl_lora_layer_params(&s, 0));
	ck_assert(wl_lora_gpu_params(&s, 0) < wl_lora_layer_params(&s, 0));
	/* ZeRO-3 holds a gathered unit's weights, but no unsharded gradient of
	 * frozen weights */
	s.training.tp = 1;
	s.training.dp = 8;
	s.training.zero = 3;
	wl_memory_get(&s, &lora);
	s.training.peft = PEFT_NONE;
	wl_memory_get(&s, &full);
	ck_assert(lora.other < full.other);
}
END_TEST

/* GPT-3 175B: 1.076e12 FLOP per token (cost-models.md 2.1), and our count
 * equals the Megatron paper formula term by term for f = 4h, tied logits. */
START_TEST(t_gpt3_flops)
{
	scenario s;
	gpt(&s, 96, 12288, 96, 2048);
	double per_tok = wl_model_flops_per_seq(&s.model) / 2048;
	ck_assert_double_eq_tol(per_tok / 1e12, 1.076, 0.001);
	ck_assert_double_eq_tol(wl_model_flops_per_seq(&s.model) / wl_paper_model_flops_per_seq(&s.model),
	                        1.0, 1e-12);
	ck_assert_double_eq_tol(wl_hw_flops_per_seq(&s.model, RECOMPUTE_FULL) /
	                        wl_paper_hw_flops_per_seq(&s.model, RECOMPUTE_FULL), 1.0, 1e-12);
	/* full recompute x1.332 (cost-models.md 2.1) */
	ck_assert_double_eq_tol(wl_paper_hw_flops_per_seq(&s.model, RECOMPUTE_FULL) /
	                        wl_paper_model_flops_per_seq(&s.model), 1.332, 0.001);
	/* Korthikanti's HFU for selective recompute: KOR22-006/007 51.4% -> 52.8% */
	double r = wl_paper_hw_flops_per_seq(&s.model, RECOMPUTE_SELECTIVE) /
	           wl_paper_model_flops_per_seq(&s.model);
	ck_assert_double_eq_tol(51.4 * r, 52.8, 0.05);
	/* Megatron paper parameter count: 145.6B for l=80, h=12288 (MEG21T1) */
	gpt(&s, 80, 12288, 96, 2048);
	ck_assert_double_eq_tol(wl_params(&s.model) / 1e9, 145.6, 0.05);
}
END_TEST

/* Sliding-window attention: a windowed layer's score pairs are 2 s W - W^2
 * in the full count (s^2 for a global one); one layer in global_every
 * attends globally; the flash kernel runs the band and takes less time. */
START_TEST(t_sliding_window)
{
	scenario s;
	gpt(&s, 12, 2048, 16, 8192);
	s.cluster.gpu = *hw_gpu_find("H100-SXM5-80GB");
	double full = wl_model_flops_per_seq(&s.model);
	double scores = wl_attn_score_flops_per_seq(&s.model);
	wl_layer_cost g;
	wl_layer_cost_get(&s, 0, &g);
	s.model.sliding_window = 1024;
	s.model.global_every = 6;        /* Gemma 3: layers 5 and 11 global */
	ck_assert(wl_layer_windowed(&s.model, 0) && wl_layer_windowed(&s.model, 4));
	ck_assert(!wl_layer_windowed(&s.model, 5) && !wl_layer_windowed(&s.model, 11));
	double W = 1024, S = 8192, pairs = 2 * S * W - W * W;
	/* 10 windowed layers of 12: 3 (fwd + bwd) x 2 (QK, PV) x 2 x pairs x h */
	double saved = 10 * 3 * 2 * 2 * (S * S - pairs) * 2048;
	ck_assert_double_eq_tol((full - wl_model_flops_per_seq(&s.model)) / saved, 1.0, 1e-9);
	ck_assert_double_eq_tol((scores - wl_attn_score_flops_per_seq(&s.model)) / saved, 1.0, 1e-9);
	ck_assert_double_eq_tol(wl_attn_keys(&s.model, 0), W - W * W / (2 * S), 1e-9);
	ck_assert_double_eq_tol(wl_attn_keys(&s.model, 5), S / 2, 1e-9);
	wl_layer_cost w, g5;
	wl_layer_cost_get(&s, 0, &w);
	wl_layer_cost_get(&s, 5, &g5);
	ck_assert(w.fwd_s < g.fwd_s && w.bwd_s < g.bwd_s);
	ck_assert_double_eq_tol(g5.fwd_s, g.fwd_s, 1e-12);
	/* the step never grows as the window shrinks, down to one token */
	double prev = 0;
	for (int win = 1; win <= 8192; win *= 2) {
		s.model.sliding_window = win;
		wl_layer_cost x;
		wl_layer_cost_get(&s, 0, &x);
		ck_assert_msg(x.fwd_s + x.bwd_s >= prev, "window %d", win);
		prev = x.fwd_s + x.bwd_s;
	}
	/* GPT's paper formula knows no window: the exact count is used */
	s.model.sliding_window = 1024;
	ck_assert_double_eq_tol(wl_paper_model_flops_per_seq(&s.model),
	                        wl_model_flops_per_seq(&s.model), 1e-6);
	ck_assert(wl_model_flops_per_seq(&s.model) < full);
	/* FlashAttention 1 has no window: it runs the whole causal matrix */
	s.training.attention = ATTN_FLASH1;
	wl_layer_cost f1w, f1;
	wl_layer_cost_get(&s, 0, &f1w);
	s.model.sliding_window = 0;
	wl_layer_cost_get(&s, 0, &f1);
	ck_assert_double_eq_tol(f1w.fwd_s, f1.fwd_s, 1e-12);
	s.training.attention = ATTN_AUTO;
	s.model.sliding_window = 1024;
	/* every layer windowed; a window as long as the sequence changes nothing */
	s.model.global_every = 0;
	ck_assert(wl_layer_windowed(&s.model, 5));
	s.model.sliding_window = 8192;
	ck_assert(!wl_layer_windowed(&s.model, 0));
	ck_assert_double_eq_tol(wl_model_flops_per_seq(&s.model), full, 1e-6);
}
END_TEST

/* Llama-style (gated, untied, no biases) with and without GQA. Llama 2 7B
 * (h 4096, l 32, f 11008, V 32000): 6.738B; 70B (h 8192, l 80, 64 heads, 8 KV
 * heads, f 28672): 68.98B (Meta's model cards). */
START_TEST(t_llama_params)
{
	scenario s;
	gpt(&s, 32, 4096, 32, 4096);
	s.model.gated_mlp = true;
	s.model.ffn_hidden = 11008;
	s.model.vocab = 32000;
	ck_assert_double_eq_tol(wl_params(&s.model) / 1e9, 6.738, 0.002);
	gpt(&s, 80, 8192, 64, 4096);
	s.model.gated_mlp = true;
	s.model.kv_heads = 8;
	s.model.ffn_hidden = 28672;
	s.model.vocab = 32000;
	ck_assert_double_eq_tol(wl_params(&s.model) / 1e9, 68.98, 0.01);
	/* default gated FFN: 8h/3 to a multiple of 256 = 11008 for h = 4096 */
	scn_model m = {.layers = 32, .hidden = 4096, .heads = 32, .gated_mlp = true};
	ck_assert_int_eq(wl_model_resolve(&m), 0);
	ck_assert_int_eq(m.ffn_hidden, 11008);
	ck_assert_int_eq(m.kv_heads, 32);
}
END_TEST

START_TEST(t_generic_from_params)
{
	scn_model m = {.params = 175e9, .seq_len = 2048, .vocab = 51200};
	ck_assert_int_eq(wl_model_resolve(&m), 0);
	ck_assert_int_eq(m.hidden % 128, 0);
	ck_assert_int_eq(m.heads, m.hidden / 128);
	ck_assert_double_eq_tol(wl_params(&m) / 175e9, 1.0, 0.03);
	ck_assert_int_ge(m.hidden, 10240);
	ck_assert_int_le(m.hidden, 14336);
	scn_model none = {0};
	ck_assert_int_eq(wl_model_resolve(&none), -1);
}
END_TEST

/* An async TP collective beside a GEMM takes one SM per NCCL channel for as
 * long as both run: 24 channels on 8 x A100 (NCCL's search and logs), so
 * the data-gradient GEMM of QKV beside the SP re-gather is slower by
 * min(t_gather, t_gemm) x 24 / 108. H100: 24 for rings, 16 for NVLS. */
START_TEST(t_sm_sharing)
{
	scenario s;
	gpt(&s, 4, 6144, 64, 2048);
	s.cluster.intra.kind = INTRA_NVSWITCH;
	s.training.tp = 8;
	s.training.micro_batch = 4;
	s.training.sequence_parallel = true;
	ck_assert_int_eq(coll_node_ctas(&s.cluster, 8, COLL_ALL_GATHER), 24);
	wl_op ops[WL_MAX_OPS];
	int n = wl_layer_ops(&s, 0, WL_BWD, ops, WL_MAX_OPS);
	const wl_op *q = NULL;
	for (int i = 0; i < n; i++)
		if (!strcmp(ops[i].name, "qkv_dgrad"))
			q = &ops[i];
	ck_assert_ptr_nonnull(q);
	double T = 4 * 2048.0, h = 6144, nqkv = 3 * 6144 / 8.0;
	double gemm = wl_gemm_time(&s.cluster.gpu, PREC_BF16, T, h, nqkv);
	double gather = T * h * 2 * 7.0 / 8 / (300e9 * 0.8);
	double both = gather < gemm ? gather : gemm;
	ck_assert_double_eq_tol(q->time_s, gemm + both * 24 / 108, 1e-9);

	scn_cluster h100 = s.cluster;
	h100.gpu = *hw_gpu_find("H100-SXM5-80GB");
	ck_assert_int_eq(coll_node_ctas(&h100, 8, COLL_ALL_GATHER), 24);
	ck_assert_int_eq(coll_node_ctas(&h100, 8, COLL_ALL_REDUCE), 16);
}
END_TEST

/* TP collectives per layer (cost-models.md 3.1): 2+2 all-reduce; with SP
 * 4 forward, 6 backward (2 RS + 2 AG + 2 re-gathers); full recompute repeats
 * the forward's 2. Each moves the full b s h tensor. Backward GEMM FLOPs are
 * twice the forward's. */
START_TEST(t_tp_collectives)
{
	scenario s;
	gpt(&s, 4, 6144, 64, 2048);
	s.training.tp = 8;
	s.training.micro_batch = 4;
	wl_layer_cost c;
	wl_layer_cost_get(&s, 0, &c);
	ck_assert_int_eq(c.n_tp_fwd, 2);
	ck_assert_int_eq(c.n_tp_bwd, 2);
	ck_assert_int_eq(c.n_tp_recompute, 0);
	ck_assert_int_eq(c.tp_coll_fwd, COLL_ALL_REDUCE);
	ck_assert_double_eq_tol(c.tp_bytes, 4.0 * 2048 * 6144 * 2, 1);
	ck_assert_double_eq_tol(c.bwd_flops / c.fwd_flops, 2.0, 1e-9);
	/* forward FLOPs per GPU = (24 b s h^2 + 4 b s^2 h) / t */
	double b = 4, sq = 2048, h = 6144;
	ck_assert_double_eq_tol(c.fwd_flops / ((24 * b * sq * h * h + 4 * b * sq * sq * h) / 8), 1.0, 1e-9);
	/* bf16 = the async generation: both backward all-reduces overlap a wgrad GEMM */
	ck_assert_int_eq(c.n_tp_bwd_async, 2);
	ck_assert(c.tp_async_window_s > 0);
	ck_assert_double_eq_tol(c.grad_accum_s, 0, 1e-12);
	/* without the fusion (DeepSpeed's BF16_Optimizer): a pass per micro-batch
	 * reading the bf16 gradient and reading and writing the fp32 one, 10 B
	 * per parameter of the layer's 1/t */
	s.training.grad_accum_pass = true;
	wl_layer_cost unfused;
	wl_layer_cost_get(&s, 0, &unfused);
	double want = wl_membound_time(&s.cluster.gpu, 10.0 * wl_layer_params(&s.model, 0) / 8);
	ck_assert_double_eq_tol(unfused.grad_accum_s / want, 1.0, 0.01);
	ck_assert_int_eq(unfused.n_tp_bwd_async, 2);   /* the rest of the stack as before */
	s.training.grad_accum_pass = false;

	s.training.sequence_parallel = true;
	wl_layer_cost_get(&s, 0, &c);
	ck_assert_int_eq(c.n_tp_fwd, 4);
	ck_assert_int_eq(c.n_tp_bwd, 6);
	ck_assert_int_eq(c.tp_coll_fwd, COLL_ALL_GATHER);
	ck_assert_int_eq(c.n_tp_bwd_async, 4);

	s.training.sequence_parallel = false;
	s.training.recompute = RECOMPUTE_FULL;
	s.training.precision = PREC_FP16;
	wl_layer_cost full;
	wl_layer_cost_get(&s, 0, &full);
	ck_assert_int_eq(full.n_tp_recompute, 2);
	ck_assert_int_eq(full.n_tp_bwd_async, 0);
	ck_assert_double_eq_tol(full.recompute_s, full.fwd_s, 1e-12);
	ck_assert_double_eq_tol(full.recompute_flops, full.fwd_flops, 1e-3);
	ck_assert(full.grad_accum_s > 0);   /* fp16: autograd's accumulation pass */

	s.training.recompute = RECOMPUTE_SELECTIVE;
	wl_layer_cost sel;
	wl_layer_cost_get(&s, 0, &sel);
	ck_assert_int_eq(sel.n_tp_recompute, 0);
	ck_assert_double_eq_tol(sel.recompute_flops, 4 * b * sq * sq * h / 8, 1);
	ck_assert(sel.recompute_s > 0 && sel.recompute_s < 0.3 * sel.fwd_s);
}
END_TEST

/* Flash attention is derived: not for GPT on V100/A100 (Megatron 2020-22),
 * yes on Hopper, and for the Llama generation (gated or GQA) on Ampere and
 * the AMD parts; never on Volta or Turing. */
START_TEST(t_flash_choice)
{
	scenario s;
	gpt(&s, 2, 4096, 32, 2048);
	ck_assert(!wl_flash_attention(&s));
	s.model.gated_mlp = true;
	ck_assert(wl_flash_attention(&s));
	s.model.gated_mlp = false;
	s.model.kv_heads = 8;
	ck_assert(wl_flash_attention(&s));
	s.model.kv_heads = 0;
	s.cluster.gpu = *hw_gpu_find("H100-SXM5-80GB");
	ck_assert(wl_flash_attention(&s));
	s.cluster.gpu = *hw_gpu_find("V100-SXM2-32GB");
	s.model.gated_mlp = true;
	ck_assert(!wl_flash_attention(&s));
	/* by architecture name, not enum order: Turing has no kernel, the
	 * MI250X (CDNA2) takes the Ampere rule, the MI300 and MI350 series
	 * (CDNA3, CDNA4) and every Hopper part flash */
	s.cluster.gpu = *hw_gpu_find("T4");
	ck_assert(!wl_flash_attention(&s));
	s.cluster.gpu = *hw_gpu_find("MI250X");
	ck_assert(wl_flash_attention(&s));
	s.model.gated_mlp = false;
	ck_assert(!wl_flash_attention(&s));
	s.cluster.gpu = *hw_gpu_find("MI325X");
	ck_assert(wl_flash_attention(&s));
	s.cluster.gpu = *hw_gpu_find("MI355X");
	ck_assert(wl_flash_attention(&s));
	s.cluster.gpu = *hw_gpu_find("H20");
	ck_assert(wl_flash_attention(&s));
	s.cluster.gpu = *hw_gpu_find("B200");
	ck_assert(wl_flash_attention(&s));
	/* with flash the layer keeps no s^2 activations and runs faster */
	gpt(&s, 2, 4096, 32, 4096);
	wl_layer_cost plain, fl;
	wl_layer_cost_get(&s, 0, &plain);
	s.cluster.gpu = *hw_gpu_find("A100-SXM4-80GB");
	s.model.kv_heads = 8;
	wl_layer_cost_get(&s, 0, &fl);
	ck_assert(fl.act_bytes < plain.act_bytes);
	ck_assert(fl.fwd_s < plain.fwd_s);
	/* FlashAttention-2's kernels: on Ampere the flash kernel itself; on
	 * Hopper a third of the peak (Azure's 327.9 TFLOP/s on an H100), where
	 * cuDNN's fused attention reaches about 0.6 */
	wl_layer_cost f2;
	s.training.attention = ATTN_FLASH2;
	wl_layer_cost_get(&s, 0, &f2);
	ck_assert_double_eq_tol(f2.fwd_s, fl.fwd_s, 1e-15);
	const hw_gpu *h = hw_gpu_find("H100-SXM5-80GB");
	double fa2 = 1e15 / wl_attn_time(h, PREC_BF16, 1e15, false, 8192, 128, ATTN_FLASH2);
	ck_assert_msg(fabs(fa2 / 327.9e12 - 1) < 0.01, "FA2 fwd on H100: %g", fa2);
	ck_assert(wl_attn_time(h, PREC_BF16, 1e15, false, 8192, 128, ATTN_FLASH) < 0.6 / fa2 * 1e15);
	ck_assert(wl_attn_time(h, PREC_BF16, 1e15, true, 8192, 128, ATTN_FLASH2) >
	          wl_attn_time(h, PREC_BF16, 1e15, false, 8192, 128, ATTN_FLASH2));
	/* FlashAttention 1: FlashAttention-2's rate over 1.8 (the FlashAttention-2
	 * paper's Fig. 4 on an A100) on Ampere, where the flash kernel is FA2,
	 * and on Hopper, where both run their sm80 code */
	const hw_gpu *a = hw_gpu_find("A100-SXM4-80GB");
	const hw_gpu *gs[] = {a, h};
	for (int i = 0; i < 2; i++)
		for (int back = 0; back < 2; back++) {
			double t2 = wl_attn_time(gs[i], PREC_BF16, 1e15, back, 4096, 128, ATTN_FLASH2);
			double t1 = wl_attn_time(gs[i], PREC_BF16, 1e15, back, 4096, 128, ATTN_FLASH1);
			ck_assert_double_eq_tol(t1 / t2, 1.8, 1e-6);
		}
	/* FlashAttention-2's size curve (its paper's Fig. 4 on an A100, causal,
	 * head dim 64: 88 TFLOP/s at 512 tokens, 171 at 16k: keys s/2) */
	double t64 = wl_attn_time(a, PREC_BF16, 1e15, false, 256, 64, ATTN_FLASH);
	double t2k = wl_attn_time(a, PREC_BF16, 1e15, false, 8192, 64, ATTN_FLASH);
	ck_assert_double_eq_tol(t2k / t64, 88.0 / 171, 0.01);
	s.training.attention = ATTN_FLASH1;
	wl_layer_cost f1;
	wl_layer_cost_get(&s, 0, &f1);
	ck_assert(f1.fwd_s > f2.fwd_s && f1.act_bytes == f2.act_bytes);
}
END_TEST

/* Memory: Korthikanti Table 2 by hand, model states, the 175B verdicts. */
START_TEST(t_memory)
{
	scenario s;
	/* 175B (GPT-3 shape) on one GPU: 175e9 x 18 B alone is 3.1 TB */
	gpt(&s, 96, 12288, 96, 2048);
	wl_memory mem;
	wl_memory_get(&s, &mem);
	ck_assert(!mem.fits);
	ck_assert_double_eq_tol(mem.weights + mem.gradients + mem.optimizer,
	                        18 * wl_params(&s.model), 1e3);
	ck_assert_double_eq_tol(mem.capacity, 80.0 * 1024 * 1024 * 1024, 1);

	/* KOR22-006 layout (TP8 PP8, SP + selective, interleaved v=3) fits */
	s.cluster.nodes = 8;
	s.training.tp = 8;
	s.training.pp = 8;
	s.training.global_batch = 64;
	s.training.sequence_parallel = true;
	s.training.recompute = RECOMPUTE_SELECTIVE;
	s.training.schedule = SCHED_INTERLEAVED;
	s.training.virtual_stages = 3;
	wl_memory_get(&s, &mem);
	ck_assert(mem.fits);
	/* activations: 34 s b h / t per layer x 12 layers x 8 in flight x (1 + 7/24) */
	double per_layer = 34.0 * 2048 * 12288 / 8;
	ck_assert_double_eq_tol(mem.activations / (per_layer * 12 * 8 * (1 + 7.0 / 24)), 1.0, 0.01);
	/* with m = p = 8 micro-batches all 24 chunks are in flight, 8 stages'
	 * worth, as many as 1F1B holds (Megatron's warm-up is capped at m v) */
	s.training.global_batch = 8;
	wl_memory_get(&s, &mem);
	double interleaved = mem.activations;
	s.training.schedule = SCHED_1F1B;
	s.training.virtual_stages = 1;
	wl_memory_get(&s, &mem);
	ck_assert_double_eq_tol(interleaved / mem.activations, 1.0, 1e-9);
	ck_assert_double_eq_tol(mem.activations / (per_layer * 12 * 8), 1.0, 0.01);

	/* TP without SP, no recompute: s b h (10 + 24/t + 5 a s/(h t)) per layer */
	gpt(&s, 8, 6144, 64, 2048);
	s.training.tp = 8;
	wl_layer_cost c;
	wl_layer_cost_get(&s, 0, &c);
	double sbh = 2048.0 * 6144;
	ck_assert_double_eq_tol(c.act_bytes / (sbh * (10 + 24.0 / 8 + 5.0 * 64 * 2048 / (6144 * 8))),
	                        1.0, 1e-9);
	/* full recompute keeps the layer input: 2 s b h */
	s.training.recompute = RECOMPUTE_FULL;
	wl_layer_cost_get(&s, 0, &c);
	ck_assert_double_eq_tol(c.act_bytes, 2 * sbh, 1e-3);
	/* ... which is the bf16 residual stream in an fp8 run too */
	s.training.precision = PREC_FP8;
	wl_layer_cost_get(&s, 0, &c);
	ck_assert_double_eq_tol(c.act_bytes, 2 * sbh, 1e-3);

	/* Megatron distributed optimizer (ZeRO-1) in bf16: 6 + 12/d B/param */
	gpt(&s, 8, 4096, 32, 2048);
	s.cluster.nodes = 8;
	s.training.dp = 64;
	s.training.zero = 1;
	wl_memory_get(&s, &mem);
	double n = wl_stage_params(&s, 0);
	ck_assert_double_eq_tol((mem.weights + mem.gradients + mem.optimizer) / n, 6 + 12.0 / 64, 1e-9);
	s.training.zero = 2;
	wl_memory_get(&s, &mem);
	double other2 = mem.other;
	s.training.zero = 3;
	wl_memory_get(&s, &mem);
	ck_assert_double_eq_tol((mem.weights + mem.gradients + mem.optimizer) / n, 18.0 / 64, 1e-9);
	/* ... and holds two gathered units (at work, prefetched) in bf16 and
	 * one unit's whole gradient in the fp32 reduction type, 2 x 2 + 4 B a
	 * parameter: the largest of a GPT layer (12 h^2) and the word
	 * embedding (V h), which here is the embedding */
	double layer = 12.0 * 4096 * 4096 + 13 * 4096, word = 51200.0 * 4096;
	ck_assert(word > layer);
	ck_assert_double_eq_tol((mem.other - other2) / (word * 8), 1.0, 1e-3);
	/* on a middle pipeline stage, the layer */
	s.training.pp = 4;
	s.training.dp = 16;
	s.training.zero = 2;
	wl_memory mid;
	wl_memory_stage(&s, 1, &mid);
	other2 = mid.other;
	s.training.zero = 3;
	wl_memory_stage(&s, 1, &mid);
	ck_assert_double_eq_tol((mid.other - other2) / (layer * 8), 1.0, 1e-3);
	s.training.pp = 1;
	s.training.dp = 64;
	/* nothing to gather when the group is one GPU */
	s.training.zero_group = 0;
	s.training.dp = 1;
	s.cluster.nodes = 1;
	s.cluster.gpus_per_node = 1;
	wl_memory_get(&s, &mem);
	double one = mem.other;
	s.training.zero = 2;
	wl_memory_get(&s, &mem);
	ck_assert_double_eq_tol(one, mem.other, 1e-6);
}
END_TEST

/* 126 layers on 16 stages: the first and last one layer short (Llama 3). */
START_TEST(t_stage_layers)
{
	scenario s;
	gpt(&s, 126, 1024, 8, 2048);
	s.training.pp = 16;
	int total = 0;
	for (int i = 0; i < 16; i++) {
		int n = wl_stage_layers(&s, i);
		ck_assert_int_eq(n, (i == 0 || i == 15) ? 7 : 8);
		total += n;
	}
	ck_assert_int_eq(total, 126);
	s.model.layers = 128;
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(wl_stage_layers(&s, i), 8);
	/* the tied word embedding sits on the first and the last stage */
	double emb = 51200.0 * 1024;
	ck_assert_double_eq_tol(wl_stage_params(&s, 0) - wl_stage_params(&s, 1),
	                        emb + 2048.0 * 1024, 1);
	ck_assert_double_eq_tol(wl_stage_params(&s, 15) - wl_stage_params(&s, 1), emb + 2 * 1024, 1);
}
END_TEST

/* Full recomputation of the first N layers of each model chunk (Megatron's
 * block method): 26 layers on 4 stages (6, 7, 7, 6: the end stages short)
 * with N = 3 recompute layers 0-2, 6-8, 13-15, 20-22; a stage's activations
 * mix both kinds; the
 * recompute pass exists only for those layers; HFU counts only their
 * second forward. */
START_TEST(t_partial_recompute)
{
	scenario s;
	gpt(&s, 26, 1024, 8, 2048);
	s.training.pp = 4;
	s.cluster.gpus_per_node = 4;
	s.training.recompute = RECOMPUTE_FULL;
	s.training.recompute_layers = 3;
	static const int want[] = {0, 1, 2, 6, 7, 8, 13, 14, 15, 20, 21, 22};
	int k = 0;
	for (int l = 0; l < 26; l++) {
		bool rc = k < 12 && want[k] == l;
		ck_assert_msg(wl_layer_recomputed(&s, l) == rc, "layer %d", l);
		k += rc;
	}
	ck_assert_int_eq(wl_recomputed_layers(&s), 12);
	ck_assert_int_eq(wl_stage_recomputed(&s, 0), 3);
	wl_op ops[64];
	ck_assert_int_gt(wl_layer_ops(&s, 1, WL_RECOMPUTE, ops, 64), 0);
	ck_assert_int_eq(wl_layer_ops(&s, 4, WL_RECOMPUTE, ops, 64), 0);
	/* memory of stage 0: 3 layers with their input only, 3 with everything */
	wl_memory mixed, all, none;
	wl_memory_stage(&s, 0, &mixed);
	s.training.recompute_layers = 0;
	wl_memory_stage(&s, 0, &all);
	double hfu_all = wl_step_hw_flops(&s);
	s.training.recompute = RECOMPUTE_NONE;
	wl_memory_stage(&s, 0, &none);
	double hfu_none = wl_step_hw_flops(&s);
	ck_assert_double_eq_tol(mixed.activations, (3 * all.activations + 3 * none.activations) / 6,
	                        1e-6 * none.activations);
	s.training.recompute = RECOMPUTE_FULL;
	s.training.recompute_layers = 3;
	ck_assert_double_eq_tol(wl_step_hw_flops(&s), hfu_none + (hfu_all - hfu_none) * 12 / 26,
	                        1e-9 * hfu_all);
	/* N at least a chunk's layers is all of them */
	s.training.recompute_layers = 7;
	ck_assert_int_eq(wl_recomputed_layers(&s), 26);
	/* interleaved, 5 layers in 4 chunks (1, 1, 2, 1): stage 0 holds chunks 0
	 * and 2, 3 layers, as the plan places them; its memory stays positive */
	gpt(&s, 5, 1024, 8, 2048);
	s.training.pp = 2;
	s.cluster.gpus_per_node = 2;
	s.training.schedule = SCHED_INTERLEAVED;
	s.training.virtual_stages = 2;
	ck_assert_int_eq(wl_stage_layers(&s, 0), 3);
	ck_assert_int_eq(wl_stage_layers(&s, 1), 2);
	s.training.recompute = RECOMPUTE_FULL;
	s.training.recompute_layers = 2;
	ck_assert_int_eq(wl_stage_recomputed(&s, 0), 3);
	for (int st = 0; st < 2; st++) {
		wl_stage_recomputed(&s, st);
		wl_memory_stage(&s, st, &mixed);
		ck_assert(mixed.activations > 0);
	}
}
END_TEST

/* The GEMM model reproduces the A100 measurements its size curve comes
 * from (HW-AZ-001/002: 256.5 and 253.7 TFLOP/s) within 1%, and charges
 * wave quantization. */
START_TEST(t_gemm_model)
{
	const hw_gpu *g = hw_gpu_find("A100-SXM4-80GB");
	double n = 16384;
	double tf = 2 * n * n * n / wl_gemm_time(g, PREC_FP16, n, n, n) / 1e12;
	ck_assert_double_eq_tol(tf, 256.5, 2.5);
	n = 8192;
	tf = 2 * n * n * n / wl_gemm_time(g, PREC_FP16, n, n, n) / 1e12;
	ck_assert_double_eq_tol(tf, 253.7, 2.5);
	/* 12 x 9 = 108 tiles of 256x128: one full wave; 8% more rows need 117
	 * tiles, a second, mostly empty wave (or smaller, slower tiles) */
	double t108 = wl_gemm_time(g, PREC_BF16, 3072, 1152, 8192);
	double t117 = wl_gemm_time(g, PREC_BF16, 3328, 1152, 8192);
	ck_assert(t117 > 1.4 * t108);
	/* a thin GEMM is memory bound: no faster than its bytes over HBM */
	double t = wl_gemm_time(g, PREC_BF16, 65536, 65536, 16);
	ck_assert(t >= 2.0 * 65536 * 65536 / (g->hbm_Bps * g->hbm_eff));
	ck_assert_double_eq_tol(wl_membound_time(g, 1e9), 2e-6 + 1e9 / (g->hbm_Bps * g->hbm_eff), 1e-12);
}
END_TEST

START_TEST(t_checkpoint_and_optimizer)
{
	scenario s;
	gpt(&s, 96, 12288, 96, 2048);
	double n = wl_params(&s.model);
	ck_assert_double_eq_tol(wl_checkpoint_bytes(&s, CKPT_FULL), 14 * n, 1);
	ck_assert_double_eq_tol(wl_checkpoint_bytes(&s, CKPT_WEIGHTS), 2 * n, 1);
	/* fp32 weights are their own master copy: 4 + Adam's 8 */
	s.training.precision = PREC_FP32;
	ck_assert_double_eq_tol(wl_checkpoint_bytes(&s, CKPT_FULL), 12 * n, 1);
	s.training.precision = PREC_BF16;
	/* another optimizer's state (30 B/param in all, 24 of state): the
	 * checkpoint holds it and the step reads and writes it */
	s.training.optimizer_bytes_per_param = 30;
	ck_assert_double_eq_tol(wl_checkpoint_bytes(&s, CKPT_FULL), 26 * n, 1);
	ck_assert_double_eq_tol(wl_optimizer_bytes(&s, 0), (42 + 2 * 12) * n, 1);
	s.training.optimizer_bytes_per_param = 0;
	/* fp16: spelling out the default (20 B/param with fp32 main gradients)
	 * keeps the checkpoint the default's 14 */
	s.training.precision = PREC_FP16;
	double ck16 = wl_checkpoint_bytes(&s, CKPT_FULL);
	s.training.optimizer_bytes_per_param = 20;
	ck_assert_double_eq_tol(wl_checkpoint_bytes(&s, CKPT_FULL), ck16, 1);
	ck_assert_double_eq_tol(ck16, 14 * n, 1);
	s.training.optimizer_bytes_per_param = 0;
	s.training.precision = PREC_BF16;
	/* Megatron's bf16 optimizer step: 42 B/param, sharded over DP by ZeRO-1 */
	ck_assert_double_eq_tol(wl_optimizer_bytes(&s, 0), 42 * n, 1);
	s.cluster.nodes = 4;
	s.training.dp = 32;
	s.training.zero = 1;
	ck_assert_double_eq_tol(wl_optimizer_bytes(&s, 0), 42 * n / 32, 1);
	/* DP gradient bytes in the reduce dtype (fp32: Megatron's bf16 default) */
	ck_assert_double_eq_tol(wl_dp_grad_bytes(&s, 0), 4 * n, 1);
}
END_TEST

/* A custom (non-transformer) model: backward = 2 x forward, no recompute
 * FLOPs unless full, params and FLOPs add up, MFU FLOPs per sample. */
START_TEST(t_custom)
{
	scn_layer layers[3] = {
		{"conv1", 2e9, 1e6, 4e6, 0}, {"conv2", 4e9, 2e6, 2e6, 0}, {"fc", 1e8, 4e6, 1e4, 0}};
	scenario s;
	gpt(&s, 0, 0, 0, 0);
	s.model.custom = true;
	s.model.nlayers_custom = 3;
	s.model.custom_layers = layers;
	s.training.micro_batch = 32;
	ck_assert_double_eq_tol(wl_params(&s.model), 7e6, 1e-6);
	ck_assert_double_eq_tol(wl_model_flops_per_seq(&s.model), 3 * 6.1e9, 1);
	ck_assert_double_eq_tol(wl_hw_flops_per_seq(&s.model, RECOMPUTE_FULL), 4 * 6.1e9, 1);
	wl_layer_cost c;
	wl_layer_cost_get(&s, 1, &c);
	ck_assert_double_eq_tol(c.fwd_flops, 32 * 4e9, 1);
	ck_assert_double_eq_tol(c.bwd_flops, 64 * 4e9, 1);
	ck_assert_double_eq_tol(c.params, 2e6, 1e-9);
	ck_assert_double_eq_tol(c.act_bytes, 32 * 2e6, 1e-6);
	ck_assert(c.fwd_s > 0 && c.bwd_s > 1.5 * c.fwd_s);
	wl_memory mem;
	wl_memory_get(&s, &mem);
	ck_assert(mem.fits);
	ck_assert_double_eq_tol(mem.activations, 32 * (4e6 + 2e6 + 1e4), 1);
	/* interleaved over 2 stages x 2 chunks, the first stage given 2 of the 4
	 * layers: chunks [a] [b] [c] [d] in model order, chunk k on stage k % 2;
	 * stage 0 holds a and c, not a and b (its layers are not contiguous) */
	scn_layer six[4] = {
		{"a", 1e9, 1e6, 1e6, 0}, {"b", 1e9, 2e6, 1e6, 0}, {"c", 1e9, 4e6, 1e6, 0},
		{"d", 1e9, 8e6, 1e6, 0}};
	s.model.nlayers_custom = 4;
	s.model.custom_layers = six;
	s.training.pp = 2;
	s.training.schedule = SCHED_INTERLEAVED;
	s.training.virtual_stages = 2;
	s.training.first_stage_layers = 2;
	ck_assert_int_eq(wl_stage_layers(&s, 0), 2);
	ck_assert_double_eq_tol(wl_stage_params(&s, 0), 1e6 + 4e6, 1e-6);   /* a and c */
	ck_assert_double_eq_tol(wl_stage_params(&s, 1), 2e6 + 8e6, 1e-6);   /* b and d */
}
END_TEST

/* Interleaved with the embedding and loss in the split (10 layers on 4
 * stages x 3 chunks: the first and last chunk hold none): the last stage's
 * warm-up runs 4 micro-batches of each of its chunks and one more, 9
 * passes, 8 of them through a one-layer chunk and the last through the
 * loss's; it holds 8 layers' activations, not 9/3 of its 2 layers. */
START_TEST(t_in_flight_chunks)
{
	scenario s;
	gpt(&s, 4, 1024, 16, 1024);
	s.model.layers = 10;
	s.training.pp = 4;
	s.cluster.gpus_per_node = 4;
	s.training.schedule = SCHED_INTERLEAVED;
	s.training.virtual_stages = 3;
	s.training.embedding_in_split = s.training.loss_in_split = true;
	s.training.global_batch = 64;
	ck_assert_int_eq(wl_stage_layers(&s, 3), 2);
	wl_layer_cost c;
	wl_layer_cost_get(&s, 5, &c);
	wl_memory mem;
	wl_memory_stage(&s, 3, &mem);
	ck_assert_double_eq_tol(mem.activations, 8 * c.act_bytes, 1e-6 * mem.activations);
}
END_TEST

/* Head: logits GEMM 2 b s h V / t forward on the last stage, one TP
 * collective each way; the embedding's all-reduce in the forward. */
START_TEST(t_head)
{
	scenario s;
	gpt(&s, 4, 4096, 32, 2048);
	s.training.tp = 4;
	wl_layer_cost last, first;
	wl_head_cost(&s, false, &last);
	wl_head_cost(&s, true, &first);
	ck_assert_double_eq_tol(last.fwd_flops, 2.0 * 2048 * 4096 * 51200 / 4, 1);
	ck_assert_double_eq_tol(last.bwd_flops, 2 * last.fwd_flops, 1);
	ck_assert_int_eq(last.n_tp_fwd, 0);   /* f operator: identity forward */
	ck_assert_int_eq(last.n_tp_bwd, 1);
	ck_assert_int_eq(first.n_tp_fwd, 1);
	ck_assert_int_eq(first.n_tp_bwd, 0);
	ck_assert(first.fwd_s > 0 && first.fwd_s < last.fwd_s);
}
END_TEST

/* Sum of the bytes of the memory-bound ops whose name starts with `prefix`. */
static double op_bytes(const scenario *s, wl_pass pass, const char *prefix, int *count)
{
	wl_op ops[WL_MAX_OPS];
	int n = wl_layer_ops(s, 0, pass, ops, WL_MAX_OPS);
	double b = 0;
	*count = 0;
	for (int i = 0; i < n; i++)
		if (ops[i].kind == OP_MEMBOUND && !strncmp(ops[i].name, prefix, strlen(prefix))) {
			b += ops[i].bytes;
			(*count)++;
		}
	return b;
}

/* fp8 training (Transformer Engine): each linear layer's input is cast to
 * fp8 in both layouts before its forward GEMM (4 B per element: read 2,
 * write 1 + 1; behind a norm 2 B per element less the norm's saved byte)
 * and its output gradient before the backward GEMMs; bf16 has no casts. The
 * output layer stays 16-bit: its GEMM takes the bf16 time. */
START_TEST(t_fp8_casts)
{
	scenario s;
	gpt(&s, 2, 4096, 32, 2048);
	s.cluster.gpu = *hw_gpu_find("H100-SXM5-80GB");
	int n;
	ck_assert_double_eq(op_bytes(&s, WL_FWD, "fp8_cast", &n), 0);
	ck_assert_int_eq(n, 0);
	wl_layer_cost bf_head;
	wl_head_cost(&s, false, &bf_head);
	s.training.precision = PREC_FP8;
	double T = 2048, h = 4096, f = 4 * h;
	/* qkv, fc1 behind a norm: 2 T h - T h each; proj 4 T h; fc2 4 T f */
	ck_assert_double_eq_tol(op_bytes(&s, WL_FWD, "fp8_cast", &n),
	                        2 * (2 * T * h - T * h) + 4 * T * h + 4 * T * f, 1);
	ck_assert_int_eq(n, 4);
	/* output gradients: fc2 and proj T h, fc1 T f, qkv 3 T h */
	ck_assert_double_eq_tol(op_bytes(&s, WL_BWD, "fp8_cast", &n),
	                        4 * (T * h + T * h + T * f + 3 * T * h), 1);
	ck_assert_int_eq(n, 4);
	wl_layer_cost f8_head;
	wl_head_cost(&s, false, &f8_head);
	ck_assert_double_eq_tol(f8_head.fwd_s, bf_head.fwd_s, 1e-12);
}
END_TEST

/* fp4 (NVFP4) on Blackwell: its GEMMs at the fp4 peak with the measured
 * ratio (Azure's GB200 8192^3: fp8 2877, fp4 7536 TFLOP/s, 2.6x: twice
 * the peak, and more of it held), the same casts, 16-bit activations and
 * output layer as fp8; no fp4 on Hopper. */
START_TEST(t_fp4)
{
	scenario s;
	gpt(&s, 2, 4096, 32, 2048);
	s.cluster.gpu = *hw_gpu_find("B200");
	const hw_gpu *g = &s.cluster.gpu;
	double f8 = wl_gemm_time(g, PREC_FP8, 8192, 8192, 8192);
	double f4 = wl_gemm_time(g, PREC_FP4, 8192, 8192, 8192);
	ck_assert_msg(f8 / f4 > 2.2 && f8 / f4 < 3, "fp8 %g s, fp4 %g s", f8, f4);
	ck_assert_double_eq(g->peak_flops[PREC_FP4], 9000e12);
	int n;
	s.training.precision = PREC_FP8;
	double cast8 = op_bytes(&s, WL_FWD, "fp8_cast", &n);
	wl_layer_cost h8, h4;
	wl_head_cost(&s, false, &h8);
	s.training.precision = PREC_FP4;
	ck_assert_double_eq_tol(op_bytes(&s, WL_FWD, "fp8_cast", &n), cast8, 1);
	wl_head_cost(&s, false, &h4);
	ck_assert_double_eq_tol(h4.fwd_s, h8.fwd_s, 1e-12);   /* the output layer in bf16 */
	ck_assert_double_eq(hw_precision_bytes(PREC_FP4), 0.5625);
	ck_assert_double_eq(hw_gather_bytes(PREC_FP4), 1);
	ck_assert_double_eq(hw_gpu_find("H100-SXM5-80GB")->peak_flops[PREC_FP4], 0);
	ck_assert_str_eq(hw_precision_name(PREC_FP4), "fp4");
	/* a GEMM never runs above its peak, whatever the MAMF a user gives */
	hw_gpu best = *hw_gpu_find("GB300");
	best.gemm_eff = 1;
	double n3 = 32768;
	double rate = 2 * n3 * n3 * n3 / wl_gemm_time(&best, PREC_FP4, n3, n3, n3);
	ck_assert_msg(rate <= best.peak_flops[PREC_FP4], "%g of %g", rate,
	              best.peak_flops[PREC_FP4]);
}
END_TEST

/* Sum over a pass of the memory-bound ops' bytes and times, and its FLOPs. */
static void pass_totals(const scenario *s, wl_pass pass, double *bytes, double *mem_s,
                        double *flops)
{
	wl_op ops[WL_MAX_OPS];
	int n = wl_layer_ops(s, 0, pass, ops, WL_MAX_OPS);
	*bytes = *mem_s = *flops = 0;
	for (int i = 0; i < n; i++) {
		*flops += ops[i].flops;
		if (ops[i].kind == OP_MEMBOUND) {
			*bytes += ops[i].bytes;
			*mem_s += ops[i].time_s;
		}
	}
}

/* Eager PyTorch (training.kernels: eager), counted by hand from its
 * composite ops (models/wl_layer.c): a Llama layer (h 4096, 8 KV heads of
 * 32, f 14336, T = 2048 tokens, E = 2) moves in its forward RMSNorm twice
 * (4E + 28) T h = 36 T h each in 8 kernels, where the fused kernel moves
 * 2E T h; RoPE (2E + 16) = 20 B over T (nq + nkv) columns in 6 kernels
 * (fused 4); repeat_kv 2 T (nkv + nq) E in 2; SwiGLU 5E T f in 2 (fused
 * 3E). The FLOPs do not change. In a GPT layer LayerNorm is one native
 * kernel and GeLU one kernel either way; only its two dropouts before the
 * residual adds become kernels of their own, 2E T h more each. */
START_TEST(t_eager_kernels)
{
	scenario s;
	gpt(&s, 2, 4096, 32, 2048);
	s.model.gated_mlp = true;
	s.model.kv_heads = 8;
	s.model.ffn_hidden = 14336;
	double T = 2048, h = 4096, nq = 4096, nkv = 1024, f = 14336, E = 2;
	double fb, fm, ff, eb, em, ef;
	pass_totals(&s, WL_FWD, &fb, &fm, &ff);
	s.training.kernels = KERNELS_EAGER;
	pass_totals(&s, WL_FWD, &eb, &em, &ef);
	ck_assert_double_eq_tol(ef, ff, 1);
	double extra = 2 * (36 - 2 * E) * T * h + (20 - 2 * E) * T * (nq + nkv) +
	               2 * T * (nkv + nq) * E + 2 * E * T * f;
	ck_assert_double_eq_tol(eb - fb, extra, 1);
	int n;
	ck_assert_double_eq_tol(op_bytes(&s, WL_FWD, "ln1", &n), 36 * T * h, 1);
	/* each extra kernel is one more gap between dependent kernels */
	double gaps = (2 * 7 + 5 + 2 + 1) * 2e-6;
	ck_assert_double_eq_tol(em - fm, extra / 1.7e12 + gaps, 1e-8);   /* HW-AZ-003 */
	/* the backward: RMSNorm through autograd 8E + 60 (+ the residual add),
	 * summed dgrads of the separate projections, SwiGLU 9E */
	s.training.kernels = KERNELS_FUSED;
	pass_totals(&s, WL_BWD, &fb, &fm, &ff);
	s.training.kernels = KERNELS_EAGER;
	pass_totals(&s, WL_BWD, &eb, &em, &ef);
	ck_assert_double_eq_tol(ef, ff, 1);
	ck_assert_double_eq_tol(op_bytes(&s, WL_BWD, "ln2_bwd", &n), (8 * E + 60 + 3 * E) * T * h, 1);
	ck_assert(eb > fb + 2 * (8 * E + 60 - 5 * E) * T * h);
	/* separate wq, wk, wv: two sums of their input gradients, no QKV split */
	ck_assert_double_eq_tol(op_bytes(&s, WL_BWD, "qkv_dx_sum", &n), 2 * 3 * E * T * h, 1);
	ck_assert_double_eq(op_bytes(&s, WL_BWD, "qkv_split", &n), 0);
	/* a gated MoE's routed experts (top 2): their w1 and w3 dgrads summed too */
	s.model.experts = 8;
	s.model.top_k = 2;
	ck_assert_double_eq_tol(op_bytes(&s, WL_BWD, "expert_w13_dx_sum", &n), 3 * E * 2 * T * h, 1);
	s.model.experts = 1;
	/* GPT: LayerNorm, GeLU, dropout */
	gpt(&s, 2, 4096, 32, 2048);
	pass_totals(&s, WL_FWD, &fb, &fm, &ff);
	s.training.kernels = KERNELS_EAGER;
	pass_totals(&s, WL_FWD, &eb, &em, &ef);
	ck_assert_double_eq_tol(eb - fb, 2 * 2 * E * T * h, 1);
}
END_TEST

/* The loss head (models/wl_layer.c head_ops): Megatron's unfused
 * vocab-parallel cross entropy moves 38 bytes per logit element forward
 * (an fp32 copy, max, subtract, exp, sum, normalize) and 14 backward; a
 * fused loss (training.cross_entropy: fused) reads the 16-bit logits once
 * forward (2 B) and again backward, writing their gradient over them (4 B).
 * GPT-2 small, T = 8 x 1024 tokens, V = 50257: L = T V. Memory keeps the
 * 16-bit logits (2 B) and no fp32 copy (4 B). Neither changes a FLOP. In an
 * fp32 run the fused kernel's logits are 4 bytes: 4 forward, 8 backward,
 * 4 held. */
START_TEST(t_fused_cross_entropy)
{
	scenario s;
	gpt(&s, 2, 768, 12, 1024);
	s.model.vocab = 50257;
	s.training.micro_batch = 8;
	double L = 8.0 * 1024 * 50257;
	const hw_gpu *g = &s.cluster.gpu;
	wl_layer_cost un, fu;
	wl_memory mu, mf;
	wl_head_cost(&s, false, &un);
	wl_memory_get(&s, &mu);
	s.training.cross_entropy = CE_FUSED;
	wl_head_cost(&s, false, &fu);
	wl_memory_get(&s, &mf);
	ck_assert_double_eq_tol(un.membound_fwd_s - fu.membound_fwd_s,
	                        wl_membound_time(g, 38 * L) - wl_membound_time(g, 2 * L), 1e-9);
	ck_assert_double_eq_tol(un.membound_bwd_s - fu.membound_bwd_s,
	                        wl_membound_time(g, 14 * L) - wl_membound_time(g, 4 * L), 1e-9);
	ck_assert_double_eq_tol(fu.act_bytes, 2 * L, 1);
	ck_assert_double_eq_tol(fu.fwd_flops, un.fwd_flops, 1);
	ck_assert_double_eq_tol(fu.bwd_flops, un.bwd_flops, 1);
	ck_assert_double_eq_tol(mu.other - mf.other, 4 * L, 1);
	/* fp32 logits */
	scenario f32 = s;
	f32.training.precision = PREC_FP32;
	wl_layer_cost a, b;
	wl_memory m32;
	wl_head_cost(&f32, false, &a);
	f32.training.cross_entropy = CE_UNFUSED;
	wl_head_cost(&f32, false, &b);
	wl_memory_get(&f32, &m32);
	ck_assert_double_eq_tol(b.membound_bwd_s - a.membound_bwd_s,
	                        wl_membound_time(g, 14 * L) - wl_membound_time(g, 8 * L), 1e-9);
	f32.training.cross_entropy = CE_FUSED;
	wl_memory_get(&f32, &mf);
	ck_assert_double_eq_tol(m32.other - mf.other, 2 * L, 1);
	/* the first stage has no loss: nothing changes there */
	wl_head_cost(&s, true, &fu);
	s.training.cross_entropy = CE_UNFUSED;
	wl_head_cost(&s, true, &un);
	ck_assert_double_eq(fu.fwd_s, un.fwd_s);
	ck_assert_double_eq(fu.bwd_s, un.bwd_s);
}
END_TEST

/* Context parallelism: a GPU holds b s / cp tokens of every sequence, so
 * its layer FLOPs (GEMMs and attention, whose queries meet all s keys) and
 * activations are 1/cp; its K/V travel around the CP group as a ring
 * all-gather (2 b s x local KV width x 2 B) beside the attention, K/V and
 * their gradients again in the backward. Not counted as TP collectives. */
START_TEST(t_context_parallel)
{
	scenario s;
	gpt(&s, 4, 4096, 32, 8192);
	s.cluster.gpu = *hw_gpu_find("H100-SXM5-80GB");
	s.model.kv_heads = 8;
	s.model.gated_mlp = true;
	s.model.ffn_hidden = 14336;
	s.model.vocab = 128256;
	ck_assert(wl_flash_attention(&s));
	wl_layer_cost one, two;
	wl_memory m1, m2;
	wl_layer_cost_get(&s, 0, &one);
	wl_memory_get(&s, &m1);
	s.training.cp = 2;
	wl_layer_cost_get(&s, 0, &two);
	wl_memory_get(&s, &m2);
	ck_assert_double_eq_tol(two.fwd_flops, one.fwd_flops / 2, 1e-6 * one.fwd_flops);
	ck_assert_double_eq_tol(two.bwd_flops, one.bwd_flops / 2, 1e-6 * one.bwd_flops);
	ck_assert_int_eq(two.n_tp_fwd, 0);
	ck_assert_int_eq(two.n_tp_bwd, 0);
	ck_assert_double_eq_tol(m2.activations, m1.activations / 2, 1);
	ck_assert_double_eq_tol(m2.weights, m1.weights, 1);
	wl_op ops[WL_MAX_OPS];
	int nkv = 0, n = wl_layer_ops(&s, 0, WL_FWD, ops, WL_MAX_OPS);
	for (int i = 0; i < n; i++)
		if (ops[i].kind == OP_TP_COMM && ops[i].cp_group) {
			nkv++;
			ck_assert(ops[i].async);
			ck_assert_int_eq(ops[i].coll, COLL_ALL_GATHER);
			ck_assert_double_eq_tol(ops[i].bytes, 2.0 * 8192 * 8 * 128 * 2, 1);
			ck_assert_int_eq(ops[i + 1].kind, OP_ATTN);   /* beside the attention */
		}
	ck_assert_int_eq(nkv, 1);
	n = wl_layer_ops(&s, 0, WL_BWD, ops, WL_MAX_OPS);
	nkv = 0;
	for (int i = 0; i < n; i++)
		nkv += ops[i].kind == OP_TP_COMM && ops[i].cp_group;
	ck_assert_int_eq(nkv, 2);
	/* each ring step's attention kernel meets s/(2 cp) keys: on Hopper,
	 * whose fused attention gains with the keys per query, it runs at a
	 * lower rate than the whole sequence's kernel */
	double rate[2];
	for (int k = 0; k < 2; k++) {
		s.training.cp = k + 1;
		n = wl_layer_ops(&s, 0, WL_FWD, ops, WL_MAX_OPS);
		for (int i = 0; i < n; i++)
			if (ops[i].kind == OP_ATTN)
				rate[k] = ops[i].flops / ops[i].time_s;
	}
	ck_assert_msg(rate[1] < 0.97 * rate[0] && rate[1] > 0.8 * rate[0], "%g vs %g", rate[1],
	              rate[0]);
}
END_TEST

/* A Llama-style MoE on H100 nodes: Mixtral 8x7B (Mistral AI's config.json:
 * 32 layers, hidden 4096, 32 heads, 8 KV heads, 8 experts of 14336, top 2,
 * vocabulary 32000) or Qwen3-30B-A3B (Qwen's config.json: 48 layers,
 * hidden 2048, 32 heads of 128, 4 KV heads, 128 experts of 768, top 8,
 * vocabulary 151936). */
static void moe(scenario *s, bool qwen)
{
	gpt(s, qwen ? 48 : 32, qwen ? 2048 : 4096, 32, 4096);
	s->cluster.gpu = *hw_gpu_find("H100-SXM5-80GB");
	s->model.gated_mlp = true;
	s->model.kv_heads = qwen ? 4 : 8;
	s->model.head_dim = 128;
	s->model.ffn_hidden = qwen ? 6144 : 14336;
	s->model.experts = qwen ? 128 : 8;
	s->model.top_k = qwen ? 8 : 2;
	s->model.expert_ffn_hidden = qwen ? 768 : 14336;
	s->model.vocab = qwen ? 151936 : 32000;
}

/* Published sizes: Mixtral 8x7B 46.7B parameters, 12.9B active (Mistral AI,
 * "Mixtral of experts", 2024); Qwen3-30B-A3B 30.5B, 3.3B active (Qwen3
 * model card). By hand, Mixtral's layer: attention 4096 (4096 + 2 x 1024) +
 * 4096^2 = 41,943,040, router 32,768, experts 8 x 3 x 4096 x 14336 =
 * 1,409,286,144, norms 8192. */
START_TEST(t_moe_params)
{
	scenario s;
	moe(&s, false);
	ck_assert_double_eq_tol(wl_layer_params(&s.model, 0),
	                        41943040.0 + 32768 + 1409286144.0 + 8192, 1e-3);
	ck_assert_double_eq_tol(wl_params(&s.model) / 1e9, 46.70, 0.01);
	ck_assert_double_eq_tol(wl_active_params(&s.model) / 1e9, 12.88, 0.01);
	moe(&s, true);
	ck_assert_double_eq_tol(wl_params(&s.model) / 1e9, 30.53, 0.02);
	ck_assert_double_eq_tol(wl_active_params(&s.model) / 1e9, 3.35, 0.01);
	/* the first dense_layers are dense (DeepSeek's first_k_dense_replace) */
	s.model.dense_layers = 2;
	ck_assert(!wl_layer_moe(&s.model, 1) && wl_layer_moe(&s.model, 2));
	ck_assert_double_eq_tol(wl_layer_expert_params(&s.model, 1), 0, 1e-9);
	s.model.dense_layers = 0;
	/* a GPU holds the dense part / tp and experts / (ep x expert_tp) */
	s.training.tp = 2;
	s.training.ep = 8;
	s.training.expert_tp = 1;
	double ex = wl_layer_expert_params(&s.model, 0);
	ck_assert_double_eq_tol(wl_layer_gpu_params(&s, 0),
	                        (wl_layer_params(&s.model, 0) - ex) / 2 + ex / 8, 1);

	/* fewer KV heads than TP ranks: each rank holds one head's K and V
	 * projections whole (2 h hd), as its compute does */
	moe(&s, false);
	s.model.experts = 1;
	s.training.tp = 8;
	double p8 = wl_layer_gpu_params(&s, 0);
	s.model.kv_heads = 4;
	double p4 = wl_layer_gpu_params(&s, 0);
	ck_assert_double_eq_tol(p4 - p8, 2.0 * 4096 * 128 * (1 - 4.0 / 8) - 2.0 * 4096 * 128 * 4 / 8,
	                        1);
	s.training.tp = 1;

	/* ZeRO-3 gathers the experts only where their expert-DP group shards
	 * them: Mixtral on 8 GPUs, ep 8 = dp, holds its experts whole and
	 * gathers the dense part of a layer (or the word embedding) alone */
	moe(&s, false);
	s.training.dp = 8;
	s.training.ep = 8;
	s.training.global_batch = 8;
	s.training.zero = 2;
	wl_memory m2, m3;
	wl_memory_get(&s, &m2);
	s.training.zero = 3;
	wl_memory_get(&s, &m3);
	ck_assert_int_eq(wl_expert_dp(&s), 1);
	double dense = wl_layer_gpu_params(&s, 0) - wl_layer_expert_params(&s.model, 0) / 8;
	double word = 32000.0 * 4096;
	ck_assert_double_eq_tol((m3.other - m2.other) / ((dense > word ? dense : word) * 8), 1.0,
	                        1e-6);
	/* with twice the GPUs the experts are sharded over 2 and gathered too */
	s.cluster.nodes = 2;
	s.training.dp = 16;
	s.training.global_batch = 16;
	s.training.zero = 2;
	wl_memory_get(&s, &m2);
	s.training.zero = 3;
	wl_memory_get(&s, &m3);
	ck_assert_int_eq(wl_expert_dp(&s), 2);
	ck_assert_double_eq_tol((m3.other - m2.other) / (wl_layer_gpu_params(&s, 0) * 8), 1.0, 1e-6);
}
END_TEST

/* Model FLOPs: a MoE layer costs what a dense layer of width top_k x
 * expert_ffn_hidden costs, plus the router's 2 s h experts (x 3 for the
 * backward); head_dim sets the attention width (Qwen3: 32 x 128 = 4096
 * against hidden 2048). */
START_TEST(t_moe_flops)
{
	scenario s, d;
	moe(&s, true);
	d = s;
	d.model.experts = 1;
	d.model.ffn_hidden = 8 * 768;
	double router = 3.0 * 48 * 2 * 4096.0 * 2048 * 128;
	ck_assert_double_eq_tol(wl_model_flops_per_seq(&s.model),
	                        wl_model_flops_per_seq(&d.model) + router, 1e3);
	/* attention: 2 s h (q + 2 kv) + 2 s q h + 4 s^2 q with q = 4096, kv = 512 */
	double sq = 4096, h = 2048, q = 4096, kv = 512;
	double attn = 2 * sq * h * (q + 2 * kv) + 2 * sq * q * h + 4 * sq * sq * q;
	d.model.ffn_hidden = 1;
	d.model.vocab = 1;
	double mlp1 = 2 * sq * h * 3 * 1, logits = 2 * sq * h;
	ck_assert_double_eq_tol(wl_model_flops_per_seq(&d.model),
	                        3 * (48 * (attn + mlp1) + logits), 1e3);
}
END_TEST

/* The ops of a MoE layer: the token all-to-all only with ep > 1 (dispatch
 * and combine, forward and backward), each carrying the GPU's routed token
 * copies; the grouped expert GEMMs do the same work per GPU whatever ep
 * (experts / ep of them, each with ep x the tokens); the experts' share of
 * a GPU's weights shrinks with ep. */
START_TEST(t_moe_ops)
{
	scenario s;
	moe(&s, true);
	s.cluster.nodes = 2;
	s.training.global_batch = 16;
	s.training.dp = 16;
	wl_op ops[WL_MAX_OPS];
	int n = wl_layer_ops(&s, 0, WL_FWD, ops, WL_MAX_OPS), a2a = 0;
	double ex = 0;
	for (int i = 0; i < n; i++) {
		a2a += ops[i].kind == OP_TP_COMM && ops[i].ep_group;
		if (!strncmp(ops[i].name, "expert_fc", 9))
			ex += ops[i].flops;
	}
	ck_assert_int_eq(a2a, 0);
	/* 4096 tokens x top 8 x (2 x 2048 x 1536 + 2 x 768 x 2048) */
	ck_assert_double_eq_tol(ex, 4096.0 * 8 * (2.0 * 2048 * 1536 + 2.0 * 768 * 2048), 1);
	s.training.ep = 8;
	n = wl_layer_ops(&s, 0, WL_FWD, ops, WL_MAX_OPS);
	double ex8 = 0;
	for (int i = 0; i < n; i++) {
		if (ops[i].kind == OP_TP_COMM && ops[i].ep_group) {
			a2a++;
			ck_assert_int_eq(ops[i].coll, COLL_ALL_TO_ALL);
			ck_assert_double_eq_tol(ops[i].bytes, 4096.0 * 8 * 2048 * 2, 1);
		}
		if (!strncmp(ops[i].name, "expert_fc", 9))
			ex8 += ops[i].flops;
	}
	ck_assert_int_eq(a2a, 2);
	ck_assert_double_eq_tol(ex8, ex, 1);
	n = wl_layer_ops(&s, 0, WL_BWD, ops, WL_MAX_OPS);
	a2a = 0;
	for (int i = 0; i < n; i++)
		a2a += ops[i].kind == OP_TP_COMM && ops[i].ep_group;
	ck_assert_int_eq(a2a, 2);
	ck_assert(n < WL_MAX_OPS);
	wl_memory m1, m8;
	wl_memory_get(&s, &m8);
	s.training.ep = 1;
	wl_memory_get(&s, &m1);
	ck_assert(m8.weights < m1.weights / 5);   /* 5.1B of 30.5B parameters */
}
END_TEST

/* Multi-head latent attention, DeepSeek-V3's (config.json: hidden 7168, 128
 * heads, q_lora 1536, kv_lora 512, qk 128 + 64 rotary, values 128; 256
 * experts of 2048, top 8, one shared expert of 2048, the first 3 layers dense
 * of 18432, vocabulary 129280). Attention weights by hand: 7168 x 1536 +
 * 1536 (norm) + 1536 x 128 x 192 + 7168 x (512 + 64) + 512 (norm) + 512 x 128
 * x 256 + 128 x 128 x 7168 = 187,107,328. The whole model: 671B, 37B active
 * (DeepSeek-V3 technical report). */
START_TEST(t_mla)
{
	scenario s;
	gpt(&s, 61, 7168, 128, 4096);
	s.model.gated_mlp = true;
	s.model.head_dim = 128;
	s.model.q_lora_rank = 1536;
	s.model.kv_lora_rank = 512;
	s.model.qk_rope_dim = 64;
	s.model.v_head_dim = 128;
	s.model.ffn_hidden = 18432;
	s.model.vocab = 129280;
	double attn = 7168.0 * 1536 + 1536 + 1536.0 * 128 * 192 + 7168.0 * 576 + 512 +
	              512.0 * 128 * 256 + 128.0 * 128 * 7168;
	ck_assert_double_eq_tol(attn, 187107328.0, 0.5);
	/* a dense layer: attention, the gated MLP, two RMSNorms */
	ck_assert_double_eq_tol(wl_layer_params(&s.model, 0), attn + 3.0 * 7168 * 18432 + 2 * 7168,
	                        1);
	s.model.experts = 256;
	s.model.top_k = 8;
	s.model.expert_ffn_hidden = 2048;
	s.model.shared_expert_ffn_hidden = 2048;
	s.model.dense_layers = 3;
	ck_assert_double_eq_tol(wl_params(&s.model) / 1e9, 671.0, 0.5);
	ck_assert_double_eq_tol(wl_active_params(&s.model) / 1e9, 37.5, 0.5);
	/* the attention core: 2 s^2 heads (192 + 128) a layer */
	double core = 2.0 * 4096 * 4096 * 128 * (192 + 128);
	ck_assert_double_eq_tol(wl_attn_score_flops_per_seq(&s.model), 3 * 61 * core, 1e3);
	/* the layer's ops: latents replicated over TP, heads split */
	s.training.tp = 2;
	s.training.sequence_parallel = true;
	wl_op ops[WL_MAX_OPS];
	int n = wl_layer_ops(&s, 0, WL_FWD, ops, WL_MAX_OPS);
	bool down = false, up = false;
	for (int i = 0; i < n; i++) {
		if (!strcmp(ops[i].name, "kv_down"))
			down = ops[i].n == 576 && ops[i].m == 4096;
		if (!strcmp(ops[i].name, "kv_up"))
			up = ops[i].n == 64 * 256;
	}
	ck_assert(down && up);
	/* the down projections and latent norms are replicated over the TP
	 * ranks: a GPU holds them whole */
	double rep = 7168.0 * 1536 + 1536 + 7168.0 * 576 + 512;
	s.model.experts = 1;
	ck_assert_double_eq_tol(wl_layer_gpu_params(&s, 0),
	                        (wl_layer_params(&s.model, 0) - rep) / 2 + rep, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, t_tiny_by_hand);
	tcase_add_test(tc, t_lora);
	tcase_add_test(tc, t_gpt3_flops);
	tcase_add_test(tc, t_sliding_window);
	tcase_add_test(tc, t_llama_params);
	tcase_add_test(tc, t_generic_from_params);
	tcase_add_test(tc, t_tp_collectives);
	tcase_add_test(tc, t_sm_sharing);
	tcase_add_test(tc, t_flash_choice);
	tcase_add_test(tc, t_memory);
	tcase_add_test(tc, t_stage_layers);
	tcase_add_test(tc, t_partial_recompute);
	tcase_add_test(tc, t_gemm_model);
	tcase_add_test(tc, t_checkpoint_and_optimizer);
	tcase_add_test(tc, t_custom);
	tcase_add_test(tc, t_in_flight_chunks);
	tcase_add_test(tc, t_head);
	tcase_add_test(tc, t_fp8_casts);
	tcase_add_test(tc, t_fp4);
	tcase_add_test(tc, t_context_parallel);
	tcase_add_test(tc, t_eager_kernels);
	tcase_add_test(tc, t_fused_cross_entropy);
	tcase_add_test(tc, t_moe_params);
	tcase_add_test(tc, t_moe_flops);
	tcase_add_test(tc, t_moe_ops);
	tcase_add_test(tc, t_mla);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
