/* scn_schema.c: the scenario schema as tables, one per section: key, type,
 * offset into the struct, bounds, flags. The mapper (scn_map.c), the --set
 * path check and the writer (scn_write.c) all read these tables, so a key is
 * added in one row. Defaults live in scn_defaults (scn.c). */
#include <assert.h>
#include <stddef.h>
#include <string.h>
#include "scn_int.h"

/* Enums are stored through int pointers. */
static_assert(sizeof(scn_topology) == sizeof(int), "enum size");
static_assert(sizeof(hw_precision) == sizeof(int), "enum size");

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))
#define SEC(nm, rows) {nm, rows, NROWS(rows), NULL, -1}

#define INT(k, T, f, lo, hi, fl) {k, F_INT, offsetof(T, f), UNIT_COUNT, NULL, lo, hi, fl, 0, NULL, NULL}
#define U64(k, T, f) {k, F_U64, offsetof(T, f), UNIT_COUNT, NULL, 0, 18446744073709551616.0, 0, 0, NULL, NULL}
#define DBL(k, T, f, lo, hi, fl) {k, F_DOUBLE, offsetof(T, f), UNIT_COUNT, NULL, lo, hi, fl, 0, NULL, NULL}
#define UNI(k, T, f, u, lo, hi, fl) {k, F_UNIT, offsetof(T, f), u, NULL, lo, hi, fl, 0, NULL, NULL}
#define BOOL(k, T, f, fl) {k, F_BOOL, offsetof(T, f), UNIT_COUNT, NULL, 0, 1, fl, 0, NULL, NULL}
#define ENUM(k, T, f, nm, fl) {k, F_ENUM, offsetof(T, f), UNIT_COUNT, nm, 0, 0, fl, 0, NULL, NULL}
#define STR(k, T, f, fl) {k, F_STRING, offsetof(T, f), UNIT_COUNT, NULL, 0, 0, fl, sizeof(((T *)0)->f), NULL, NULL}
#define SUB(k, T, f, s, fl, ex) {k, F_SECTION, offsetof(T, f), UNIT_COUNT, NULL, 0, 0, fl, 0, &s, ex}

const char *const scn__precision_names[] = {"fp32", "tf32", "fp16", "bf16", "fp8", "fp4",
	NULL};
/* in hw_arch's order */
static const char *const arch_names[] = {"volta", "turing", "ampere", "ada", "hopper",
                                         "blackwell", "blackwell-rtx", "cdna2", "cdna3",
                                         "cdna4", NULL};
static_assert(sizeof arch_names / sizeof arch_names[0] == ARCH_CDNA4 + 2,
              "arch_names: one name per hw_arch");
static const char *const intra_names[] = {"nvswitch", "nvlink-mesh", "pcie", NULL};
/* in hw_p2p's order */
static const char *const p2p_names[] = {"auto", "true", "false", NULL};
static_assert(sizeof p2p_names / sizeof p2p_names[0] == P2P_OFF + 2, "p2p_names: one per hw_p2p");
/* in hw_transport's order */
static const char *const transport_names[] = {"rdma", "tcp", "gpudirect-tcp", NULL};
static_assert(sizeof transport_names / sizeof transport_names[0] == TRANSPORT_GDTCP + 2,
              "transport_names: one name per hw_transport");
static const char *const topology_names[] = {"single-switch", "fat-tree", "rail-optimized",
                                             "zones", NULL};
static const char *const fabric_place_names[] = {"packed", "spread", NULL};
static const char *const storage_net_names[] = {"frontend", "shared", NULL};
static const char *const schedule_names[] = {"gpipe", "1f1b", "interleaved", "deepspeed",
	NULL};
static const char *const recompute_names[] = {"none", "selective", "full", NULL};
static const char *const attention_names[] = {"auto", "flash", "unfused", "flash2", "flash1",
	NULL};
static const char *const kernels_names[] = {"fused", "eager", NULL};
static const char *const cross_entropy_names[] = {"unfused", "fused", NULL};
static const char *const ep_dispatcher_names[] = {"alltoall", "deepep", NULL};
static const char *const placement_names[] = {"tp-pp-dp", "tp-dp-pp", NULL};
static const char *const peft_names[] = {"none", "lora", NULL};
static const char *const algo_names[] = {"auto", "ring", "tree", "hierarchical", "ps", "nvls",
                                         "collnet", NULL};
static const char *const compression_names[] = {"none", "fp16", "int8", "1bit", NULL};
static const char *const sync_names[] = {"sync", "async", NULL};
static const char *const every_mb_names[] = {"auto", "true", "false", NULL};
static const char *const grad_coll_names[] = {"auto", "all_reduce", "reduce_scatter", NULL};
static const char *const source_names[] = {"storage", "local_cache", "memory", NULL};
static const char *const ckpt_mode_names[] = {"sync", "async", NULL};
static const char *const ckpt_content_names[] = {"full", "weights", "sharded", NULL};

#define BIG 1e18                  /* "no upper bound" for physical quantities */

/* Bandwidths have a floor: time = bytes / bandwidth, and once a step lasts
 * 1e14 s a double no longer resolves its seconds of compute (a NIC of
 * 1e-9 Gbps: DeepSeek-V3's 10.7 s of compute read 9.95 s; at 1e-30 Gbps the
 * report printed 33-digit times). The floors are far below any real part,
 * and a step on them stays far from that (DeepSeek-V3 on 1 Mbps: 87 days). */
#define LINK_MIN (1e6 / 8)        /* 1 Mbps: a network, storage or PCIe link */
#define LINK_MAX 1e13             /* 10 TB/s: one NIC or zone link (1.6 Tbps NICs: 0.2) */
#define MEM_BW_MIN 1e9            /* 1 GB/s: HBM and NVLink (a T4: 320 GB/s of GDDR6) */
#define BW_MAX 1e15               /* 1 PB/s: 100x the fastest HBM (B200: 8 TB/s) */
/* Rates that divide a time have floors too: a peak of 1e-300 FLOP/s or an
 * efficiency of 2e-308 scheduled events past the largest double (the
 * engine's assertion) or printed 300-digit step times. 1 GFLOP/s is a
 * thousandth of a T4's fp32; an efficiency of 0.001 far below any measured
 * one (T4 GEMMs: 0.41). */
#define FLOPS_MIN 1e9
#define EFF_MIN 1e-3

/* cluster.gpu: a catalog entry (base) with any field overridden, or a whole
 * GPU given field by field (then the FL_NOBASE_REQ rows are required). */
static const scn_field gpu_rows[] = {
	{"base", F_GPUBASE, 0, UNIT_COUNT, NULL, 0, 0, 0, 0, NULL, NULL},
	STR("name", hw_gpu, name, FL_NOBASE_REQ),
	ENUM("arch", hw_gpu, arch, arch_names, 0),
	{"fp32", F_UNIT, offsetof(hw_gpu, peak_flops) + PREC_FP32 * sizeof(double), UNIT_FLOPS, NULL, FLOPS_MIN, BIG, FL_ZERO_OK, 0, NULL, NULL},
	{"tf32", F_UNIT, offsetof(hw_gpu, peak_flops) + PREC_TF32 * sizeof(double), UNIT_FLOPS, NULL, FLOPS_MIN, BIG, FL_ZERO_OK, 0, NULL, NULL},
	{"fp16", F_UNIT, offsetof(hw_gpu, peak_flops) + PREC_FP16 * sizeof(double), UNIT_FLOPS, NULL, FLOPS_MIN, BIG, FL_ZERO_OK, 0, NULL, NULL},
	{"bf16", F_UNIT, offsetof(hw_gpu, peak_flops) + PREC_BF16 * sizeof(double), UNIT_FLOPS, NULL, FLOPS_MIN, BIG, FL_ZERO_OK, 0, NULL, NULL},
	{"fp8", F_UNIT, offsetof(hw_gpu, peak_flops) + PREC_FP8 * sizeof(double), UNIT_FLOPS, NULL, FLOPS_MIN, BIG, FL_ZERO_OK, 0, NULL, NULL},
	{"fp4", F_UNIT, offsetof(hw_gpu, peak_flops) + PREC_FP4 * sizeof(double), UNIT_FLOPS, NULL, FLOPS_MIN, BIG, FL_ZERO_OK, 0, NULL, NULL},
	DBL("gemm_eff", hw_gpu, gemm_eff, EFF_MIN, 1, FL_NOBASE_REQ),
	UNI("hbm", hw_gpu, hbm_bytes, UNIT_BYTES, 0, BIG, FL_GT_MIN | FL_NOBASE_REQ),
	UNI("hbm_bandwidth", hw_gpu, hbm_Bps, UNIT_BANDWIDTH, MEM_BW_MIN, BW_MAX, FL_NOBASE_REQ),
	DBL("hbm_eff", hw_gpu, hbm_eff, EFF_MIN, 1, FL_NOBASE_REQ),
	UNI("nvlink", hw_gpu, nvlink_Bps, UNIT_BANDWIDTH, MEM_BW_MIN, BW_MAX, FL_ZERO_OK),
	DBL("nvlink_eff", hw_gpu, nvlink_eff, EFF_MIN, 1, FL_ZERO_OK),
	DBL("nvls_eff", hw_gpu, nvls_eff, EFF_MIN, 1, FL_ZERO_OK),
	INT("pcie_gen", hw_gpu, pcie_gen, 3, 6, FL_NOBASE_REQ),
	UNI("tdp", hw_gpu, tdp_w, UNIT_POWER, 0, 1e5, FL_ZERO_OK),
	UNI("power_limit", hw_gpu, power_limit_w, UNIT_POWER, 0, 1e5, FL_ZERO_OK),
	UNI("bridge", hw_gpu, bridge_Bps, UNIT_BANDWIDTH, MEM_BW_MIN, BW_MAX, FL_ZERO_OK),
	DBL("bridge_eff", hw_gpu, bridge_eff, EFF_MIN, 1, FL_ZERO_OK),
	INT("bridge_gpus", hw_gpu, bridge_gpus, 2, 16, FL_ZERO_OK),
};
static const scn_section gpu_sec = {"gpu", gpu_rows, NROWS(gpu_rows), "base", -1};

static const scn_field intra_rows[] = {
	ENUM("kind", hw_intra, kind, intra_names, 0),
	UNI("bandwidth", hw_intra, bandwidth_Bps, UNIT_BANDWIDTH, LINK_MIN, BW_MAX, FL_ZERO_OK),
	UNI("latency", hw_intra, latency_s, UNIT_TIME, 0, 1, FL_ZERO_OK),
	ENUM("p2p", hw_intra, p2p, p2p_names, 0),
	INT("nvlink_bridge", hw_intra, bridge, 1, 16, FL_ZERO_OK),
	DBL("shm_eff", hw_intra, shm_eff, EFF_MIN, 1, FL_ZERO_OK),
};
static const scn_section intra_sec = {"intra_node", intra_rows, NROWS(intra_rows), "kind", -1};

static const scn_field nic_rows[] = {
	INT("count", hw_nic, count, 1, 1024, 0),
	UNI("speed", hw_nic, speed_Bps, UNIT_BANDWIDTH, LINK_MIN, LINK_MAX, 0),
	ENUM("transport", hw_nic, transport, transport_names, 0),
	DBL("efficiency", hw_nic, efficiency, EFF_MIN, 1, FL_ZERO_OK),
	UNI("latency", hw_nic, latency_s, UNIT_TIME, 0, 1, FL_ZERO_OK),
	INT("sockets", hw_nic, sockets, 1, 64, FL_ZERO_OK),
	UNI("socket_bandwidth", hw_nic, socket_Bps, UNIT_BANDWIDTH, LINK_MIN, LINK_MAX, FL_ZERO_OK),
};
static const scn_section nic_sec = SEC("nic", nic_rows);

static const scn_field fabric_rows[] = {
	ENUM("topology", scn_fabric, topology, topology_names, 0),
	INT("nodes_per_leaf", scn_fabric, nodes_per_leaf, 1, 1e6, 0),
	DBL("oversubscription", scn_fabric, oversubscription, 1, 1000, 0),
	UNI("switch_latency", scn_fabric, switch_latency_s, UNIT_TIME, 0, 1, FL_ZERO_OK),
	INT("zones", scn_fabric, zones, 1, SCN_MAX_ZONES, 0),
	UNI("zone_bandwidth", scn_fabric, zone_bandwidth_Bps, UNIT_BANDWIDTH, LINK_MIN, LINK_MAX, 0),
	UNI("zone_latency", scn_fabric, zone_latency_s, UNIT_TIME, 0, 10, FL_ZERO_OK),
	ENUM("placement", scn_fabric, placement, fabric_place_names, 0),
	INT("leaves", scn_fabric, leaves, 1, 1e6, FL_ZERO_OK),
	DBL("background_load", scn_fabric, background_load, 0, 0.95, 0),
	BOOL("sharp", scn_fabric, sharp, 0),
};
static const scn_section fabric_sec = SEC("fabric", fabric_rows);

static const scn_field storage_rows[] = {
	UNI("bandwidth", scn_storage, bandwidth_Bps, UNIT_BANDWIDTH, LINK_MIN, BW_MAX, 0),
	UNI("latency", scn_storage, latency_s, UNIT_TIME, 0, 3600, FL_ZERO_OK),
	UNI("per_client", scn_storage, per_client_Bps, UNIT_BANDWIDTH, LINK_MIN, BW_MAX, FL_ZERO_OK),
	ENUM("network", scn_storage, network, storage_net_names, 0),
	UNI("frontend", scn_storage, frontend_Bps, UNIT_BANDWIDTH, LINK_MIN, LINK_MAX, 0),
	UNI("write_bandwidth", scn_storage, write_Bps, UNIT_BANDWIDTH, LINK_MIN, BW_MAX, FL_ZERO_OK),
};
static const scn_section storage_sec = SEC("storage", storage_rows);

static const scn_field cache_rows[] = {
	UNI("bandwidth", scn_cache, bandwidth_Bps, UNIT_BANDWIDTH, LINK_MIN, BW_MAX, 0),
	UNI("capacity", scn_cache, capacity_bytes, UNIT_BYTES, 0, BIG, FL_GT_MIN),
};
static const scn_section cache_sec = {"local_cache", cache_rows, NROWS(cache_rows), NULL,
                                      (long)offsetof(scn_cache, present)};

static const scn_field cluster_rows[] = {
	SUB("gpu", scn_cluster, gpu, gpu_sec, FL_REQUIRED, "gpu: A100-SXM4-80GB"),
	{"nodes", F_INT, offsetof(scn_cluster, nodes), UNIT_COUNT, NULL, 1, 1e6, FL_REQUIRED, 0, NULL,
	 "nodes: 4"},
	INT("gpus_per_node", scn_cluster, gpus_per_node, 1, 1024, 0),
	SUB("intra_node", scn_cluster, intra, intra_sec, 0, NULL),
	SUB("nic", scn_cluster, nic, nic_sec, 0, NULL),
	SUB("fabric", scn_cluster, fabric, fabric_sec, 0, NULL),
	SUB("storage", scn_cluster, storage, storage_sec, 0, NULL),
	SUB("local_cache", scn_cluster, cache, cache_sec, 0, NULL),
	UNI("host_memory", scn_cluster, host_memory_bytes, UNIT_BYTES, 0, BIG, FL_GT_MIN),
};
static const scn_section cluster_sec = SEC("cluster", cluster_rows);

static const scn_field layer_rows[] = {
	{"name", F_STRING, offsetof(scn_layer, name), UNIT_COUNT, NULL, 0, 0, FL_REQUIRED,
	 sizeof(((scn_layer *)0)->name), NULL, "name: conv1"},
	{"flops", F_DOUBLE, offsetof(scn_layer, fwd_flops), UNIT_COUNT, NULL, 0, BIG,
	 FL_GT_MIN | FL_REQUIRED, 0, NULL, "flops: 4.1G"},
	DBL("params", scn_layer, params, 0, 1e16, 0),
	UNI("activations", scn_layer, act_bytes, UNIT_BYTES, 0, BIG, 0),
	UNI("output", scn_layer, out_bytes, UNIT_BYTES, 0, BIG, 0),
};
static const scn_section layer_sec = SEC("custom", layer_rows);

static const scn_field model_rows[] = {
	INT("layers", scn_model, layers, 1, 1e5, FL_TRANSFORMER),
	INT("hidden", scn_model, hidden, 1, 1e6, FL_TRANSFORMER),
	INT("heads", scn_model, heads, 1, 1e5, FL_TRANSFORMER),
	INT("kv_heads", scn_model, kv_heads, 1, 1e5, FL_TRANSFORMER),
	INT("head_dim", scn_model, head_dim, 0, 1e5, FL_TRANSFORMER),
	INT("q_lora_rank", scn_model, q_lora_rank, 0, 1e6, FL_TRANSFORMER),
	INT("kv_lora_rank", scn_model, kv_lora_rank, 0, 1e6, FL_TRANSFORMER),
	INT("qk_rope_dim", scn_model, qk_rope_dim, 0, 1e5, FL_TRANSFORMER),
	INT("v_head_dim", scn_model, v_head_dim, 0, 1e5, FL_TRANSFORMER),
	INT("ffn_hidden", scn_model, ffn_hidden, 1, 1e7, FL_TRANSFORMER),
	INT("seq_len", scn_model, seq_len, 1, 1e8, 0),
	INT("vocab", scn_model, vocab, 1, 1e8, FL_TRANSFORMER),
	BOOL("gated_mlp", scn_model, gated_mlp, FL_TRANSFORMER),
	DBL("params", scn_model, params, 0, 1e16, FL_GT_MIN | FL_TRANSFORMER),
	INT("experts", scn_model, experts, 1, 1e5, FL_TRANSFORMER),
	INT("top_k", scn_model, top_k, 1, 1e5, FL_TRANSFORMER),
	INT("expert_ffn_hidden", scn_model, expert_ffn_hidden, 0, 1e7, FL_TRANSFORMER),
	INT("shared_expert_ffn_hidden", scn_model, shared_expert_ffn_hidden, 0, 1e7,
	    FL_TRANSFORMER),
	INT("dense_layers", scn_model, dense_layers, 0, 1e5, FL_TRANSFORMER),
	INT("sliding_window", scn_model, sliding_window, 0, 1e8, FL_TRANSFORMER),
	INT("global_every", scn_model, global_every, 0, 1e5, FL_TRANSFORMER),
	{"custom", F_LAYERS, 0, UNIT_COUNT, NULL, 1, SCN_MAX_LAYERS, 0, 0, &layer_sec, NULL},
};
static const scn_section model_sec = SEC("model", model_rows);

static const scn_field grad_rows[] = {
	ENUM("algorithm", scn_grad_reduce, algorithm, algo_names, 0),
	UNI("bucket", scn_grad_reduce, bucket_bytes, UNIT_BYTES, 1024, 1e13, 0),   /* >= 1 KiB */
	BOOL("overlap", scn_grad_reduce, overlap, 0),
	BOOL("overlap_param_gather", scn_grad_reduce, overlap_param_gather, 0),
	ENUM("dtype", scn_grad_reduce, dtype, scn__precision_names, 0),
	ENUM("compression", scn_grad_reduce, compression, compression_names, 0),
	ENUM("sync", scn_grad_reduce, sync, sync_names, 0),
	INT("ps_servers", scn_grad_reduce, ps_servers, 1, 1e6, 0),
	ENUM("every_micro_batch", scn_grad_reduce, every_micro_batch, every_mb_names, 0),
	ENUM("collective", scn_grad_reduce, collective, grad_coll_names, 0),
};
static const scn_section grad_sec = SEC("grad_reduce", grad_rows);

static const scn_field data_rows[] = {
	ENUM("source", scn_data, source, source_names, 0),
	UNI("sample_bytes", scn_data, sample_bytes, UNIT_BYTES, 0, 1e13, FL_GT_MIN),
	INT("prefetch", scn_data, prefetch, 0, 1e4, 0),
	BOOL("cache_warm", scn_data, cache_warm, 0),
	UNI("dataset", scn_data, dataset_bytes, UNIT_BYTES, 0, 1e18, FL_ZERO_OK),
};
static const scn_section data_sec = SEC("data", data_rows);

static const scn_field ckpt_rows[] = {
	INT("every", scn_checkpoint, every, 0, 1e9, 0),
	ENUM("mode", scn_checkpoint, mode, ckpt_mode_names, 0),
	ENUM("content", scn_checkpoint, content, ckpt_content_names, 0),
	UNI("bytes", scn_checkpoint, bytes_override, UNIT_BYTES, 0, 1e18, FL_GT_MIN | FL_ZERO_OK),
	UNI("snapshot_overhead", scn_checkpoint, snapshot_overhead_s, UNIT_TIME, 0, 3600, FL_ZERO_OK),
	INT("local_every", scn_checkpoint, local_every, 0, 1e9, 0),
	INT("local_copies", scn_checkpoint, local_copies, 1, 64, 0),
};
static const scn_section ckpt_sec = SEC("checkpoint", ckpt_rows);

static const scn_field fail_rows[] = {
	UNI("gpu_mtbf", scn_failures, gpu_mtbf_s, UNIT_TIME, 0, 1e12, FL_GT_MIN | FL_ZERO_OK),
	UNI("node_mtbf", scn_failures, node_mtbf_s, UNIT_TIME, 0, 1e12, FL_GT_MIN | FL_ZERO_OK),
	UNI("link_mtbf", scn_failures, link_mtbf_s, UNIT_TIME, 0, 1e12, FL_GT_MIN | FL_ZERO_OK),
	UNI("restart", scn_failures, restart_s, UNIT_TIME, 0, 1e7, FL_ZERO_OK),
	BOOL("reload", scn_failures, reload, 0),
};
static const scn_section fail_sec = SEC("failures", fail_rows);

static const scn_field training_rows[] = {
	ENUM("precision", scn_training, precision, scn__precision_names, 0),
	{"global_batch", F_INT, offsetof(scn_training, global_batch), UNIT_COUNT, NULL, 1, 1e9,
	 FL_REQUIRED, 0, NULL, "global_batch: 512"},
	INT("micro_batch", scn_training, micro_batch, 1, 1e6, 0),
	INT("tp", scn_training, tp, 1, 1e6, 0),
	INT("pp", scn_training, pp, 1, 1e5, 0),
	INT("cp", scn_training, cp, 1, 1e5, 0),
	INT("ep", scn_training, ep, 1, 1e5, 0),
	INT("expert_tp", scn_training, expert_tp, 0, 1e6, 0),
	ENUM("ep_dispatcher", scn_training, ep_dispatcher, ep_dispatcher_names, 0),
	BOOL("ep_overlap", scn_training, ep_overlap, 0),
	DBL("expert_imbalance", scn_training, expert_imbalance, 1, 1000, 0),
	INT("dp", scn_training, dp, 1, 1e6, 0),
	ENUM("schedule", scn_training, schedule, schedule_names, 0),
	INT("virtual_stages", scn_training, virtual_stages, 1, SCN_MAX_VIRTUAL_STAGES, 0),
	INT("first_stage_layers", scn_training, first_stage_layers, 0, 100000, 0),
	INT("last_stage_layers", scn_training, last_stage_layers, 0, 100000, 0),
	BOOL("embedding_in_split", scn_training, embedding_in_split, 0),
	BOOL("loss_in_split", scn_training, loss_in_split, 0),
	BOOL("sequence_parallel", scn_training, sequence_parallel, 0),
	BOOL("pp_scatter_gather", scn_training, pp_scatter_gather, 0),
	BOOL("grad_accum_pass", scn_training, grad_accum_pass, 0),
	ENUM("recompute", scn_training, recompute, recompute_names, 0),
	ENUM("attention", scn_training, attention, attention_names, 0),
	ENUM("kernels", scn_training, kernels, kernels_names, 0),
	ENUM("cross_entropy", scn_training, cross_entropy, cross_entropy_names, 0),
	INT("recompute_layers", scn_training, recompute_layers, 0, 1e6, 0),
	INT("zero", scn_training, zero, 0, 3, 0),
	INT("zero_group", scn_training, zero_group, 0, 1e6, 0),
	ENUM("placement", scn_training, placement, placement_names, 0),
	DBL("optimizer_bytes_per_param", scn_training, optimizer_bytes_per_param, 0, 1000,
	    FL_GT_MIN | FL_ZERO_OK),
	ENUM("peft", scn_training, peft, peft_names, 0),
	INT("lora_rank", scn_training, lora_rank, 1, 65536, 0),
	SUB("grad_reduce", scn_training, grad_reduce, grad_sec, 0, NULL),
	SUB("data", scn_training, data, data_sec, 0, NULL),
	SUB("checkpoint", scn_training, checkpoint, ckpt_sec, 0, NULL),
	SUB("failures", scn_training, failures, fail_sec, 0, NULL),
};
static const scn_section training_sec = SEC("training", training_rows);

static const scn_field var_rows[] = {
	DBL("compute_cv", scn_variability, compute_cv, 0, 1, 0),
	DBL("straggler_fraction", scn_variability, straggler_fraction, 0, 1, 0),
	DBL("straggler_slowdown", scn_variability, straggler_slowdown, 1, 100, 0),
	INT("straggler_gpus", scn_variability, straggler_gpus, 0, 1e6, 0),
	DBL("link_cv", scn_variability, link_cv, 0, 1, 0),
};
static const scn_section var_sec = SEC("variability", var_rows);

static const scn_field run_rows[] = {
	INT("steps", scn_run, steps, 1, 1e6, 0),
	U64("seed", scn_run, seed),
	DBL("train_tokens", scn_run, train_tokens, 0, 1e18, FL_GT_MIN | FL_ZERO_OK),
	DBL("gpu_hour_price", scn_run, gpu_hour_price, 0, 1e6, FL_GT_MIN | FL_ZERO_OK),
	U64("max_events", scn_run, max_events),
	UNI("max_memory", scn_run, max_memory_bytes, UNIT_BYTES, 0, BIG, FL_GT_MIN | FL_ZERO_OK),
	SUB("variability", scn_run, variability, var_sec, 0, NULL),
};
static const scn_section run_sec = SEC("run", run_rows);

static const scn_field root_rows[] = {
	INT("schema_version", scenario, schema_version, 1, 1, 0),
	STR("name", scenario, name, 0),
	SUB("cluster", scenario, cluster, cluster_sec, FL_REQUIRED, "cluster: {nodes: 4, gpu: A100-SXM4-80GB}"),
	SUB("model", scenario, model, model_sec, FL_REQUIRED, "model: {layers: 80, hidden: 10240, heads: 80, seq_len: 2048}"),
	SUB("training", scenario, training, training_sec, FL_REQUIRED, "training: {global_batch: 512}"),
	SUB("run", scenario, run, run_sec, 0, NULL),
};
const scn_section scn__root = SEC("", root_rows);

/* The field rows of a section's scalar members, by key; NULL if unknown. */
static const scn_field *row_find(const scn_section *sec, const char *key)
{
	for (size_t i = 0; i < sec->nrows; i++)
		if (!strcmp(sec->rows[i].key, key))
			return &sec->rows[i];
	return NULL;
}

size_t scn__edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return la > lb ? la : lb;
	size_t d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *scn__suggest_key(const scn_section *sec, const char *key)
{
	const char *best = NULL;
	size_t bd = (size_t)-1, len = strlen(key);
	size_t limit = len < 4 ? 1 : len < 9 ? 2 : 3;
	for (size_t i = 0; i < sec->nrows; i++) {
		size_t dd = scn__edit_distance(key, sec->rows[i].key);
		if (dd < bd) {
			bd = dd;
			best = sec->rows[i].key;
		}
	}
	return bd <= limit ? best : NULL;
}

const char *scn_nearest_name(const char *word, size_t len, const char *const *names, int n)
{
	char w[65];
	snprintf(w, sizeof w, "%.*s", (int)(len < 64 ? len : 64), word);
	const char *best = NULL;
	size_t bd = 3;
	for (int k = 0; k < n; k++) {
		size_t d = scn__edit_distance(w, names[k]);
		if (d < bd) {
			bd = d;
			best = names[k];
		}
	}
	return best;
}

/* The dotted paths under `sec` of the keys named exactly `key` in its
 * subsections (depth-first, the schema's order), up to max; their count. */
static int keys_elsewhere(const scn_section *sec, const char *prefix, const char *key,
                          char (*paths)[128], int n, int max)
{
	for (size_t i = 0; i < sec->nrows && n < max; i++) {
		const scn_field *f = &sec->rows[i];
		if (f->type != F_SECTION || !f->sub)
			continue;
		char path[128];
		snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", f->key);
		if (row_find(f->sub, key))
			snprintf(paths[n++], sizeof paths[0], "%.100s.%.26s", path, key);
		n = keys_elsewhere(f->sub, path, key, paths, n, max);
	}
	return n;
}

/* Other tools' names for trainsim's keys (Megatron, DeepSpeed, Hugging Face,
 * PyTorch), and keys that a section's neighbour has: what to write instead.
 * `where`: the section the key was found in, or "*" for any. */
static const struct {
	const char *where, *key, *hint;
} key_aliases[] = {
	{"*", "fsdp", "did you mean 'zero: 3' (training.zero; FSDP's full sharding is ZeRO-3, "
	 "its hybrid sharding zero_group)?"},
	{"cluster", "gpus", "the GPU count is nodes x gpus_per_node: did you mean "
	 "'cluster.nodes' and 'cluster.gpus_per_node'?"},
	{"cluster", "num_gpus", "the GPU count is nodes x gpus_per_node: did you mean "
	 "'cluster.nodes' and 'cluster.gpus_per_node'?"},
	{"*", "gradient_accumulation_steps", "accumulation follows from the batch: set "
	 "'training.global_batch' (micro_batch x dp x the steps)"},
	{"*", "grad_accum", "accumulation follows from the batch: set 'training.global_batch' "
	 "(micro_batch x dp x the steps)"},
	{"*", "accumulation_steps", "accumulation follows from the batch: set "
	 "'training.global_batch' (micro_batch x dp x the steps)"},
	{"*", "activation_checkpointing", "did you mean 'recompute: full' (training.recompute: "
	 "none, selective or full)?"},
	{"*", "gradient_checkpointing", "did you mean 'recompute: full' (training.recompute: "
	 "none, selective or full)?"},
	{"*", "checkpoint_activations", "did you mean 'recompute: full' (training.recompute: "
	 "none, selective or full)?"},
	{"*", "num_layers", "did you mean 'model.layers'?"},
	{"*", "num_hidden_layers", "did you mean 'model.layers'?"},
	{"*", "n_layers", "did you mean 'model.layers'?"},
	{"*", "hidden_size", "did you mean 'model.hidden'?"},
	{"*", "num_attention_heads", "did you mean 'model.heads'?"},
	{"*", "num_key_value_heads", "did you mean 'model.kv_heads'?"},
	{"*", "intermediate_size", "did you mean 'model.ffn_hidden'?"},
	{"*", "ffn_hidden_size", "did you mean 'model.ffn_hidden'?"},
	{"*", "vocab_size", "did you mean 'model.vocab'?"},
	{"*", "seq_length", "did you mean 'model.seq_len'?"},
	{"*", "max_position_embeddings", "did you mean 'model.seq_len'?"},
	{"*", "batch_size", "did you mean 'training.global_batch' (sequences per step) or "
	 "'training.micro_batch' (sequences per micro-batch)?"},
	{"*", "global_batch_size", "did you mean 'training.global_batch'?"},
	{"*", "micro_batch_size", "did you mean 'training.micro_batch'?"},
	{"*", "tensor_model_parallel_size", "did you mean 'training.tp'?"},
	{"*", "pipeline_model_parallel_size", "did you mean 'training.pp'?"},
	{"*", "context_parallel_size", "did you mean 'training.cp'?"},
	{"*", "expert_model_parallel_size", "did you mean 'training.ep'?"},
	{"*", "tensor_parallel", "did you mean 'training.tp'?"},
	{"*", "tensor_parallel_size", "did you mean 'training.tp'?"},
	{"*", "pipeline_parallel", "did you mean 'training.pp'?"},
	{"*", "pipeline_parallel_size", "did you mean 'training.pp'?"},
	{"*", "data_parallel_size", "did you mean 'training.dp' (the GPUs over tp x pp x cp; left out, it is derived)?"},
	{"*", "zero_stage", "did you mean 'training.zero' (0 to 3)?"},
	{"*", "mixed_precision", "did you mean 'training.precision' (bf16, fp16, fp8, ...)?"},
	{"training", "dtype", "did you mean 'training.precision' (what the model computes in)? "
	 "'training.grad_reduce.dtype' is only the gradients' type on the wire"},
	{"*", "sequence_length", "did you mean 'model.seq_len'?"},
	{"*", "context_length", "did you mean 'model.seq_len'?"},
	{"*", "max_seq_len", "did you mean 'model.seq_len'?"},
	{"*", "n_ctx", "did you mean 'model.seq_len'?"},
	{"*", "d_model", "did you mean 'model.hidden'?"},
	{"*", "n_embd", "did you mean 'model.hidden'?"},
	{"*", "ffn_dim", "did you mean 'model.ffn_hidden'?"},
	{"*", "d_ff", "did you mean 'model.ffn_hidden'?"},
	{"*", "n_heads", "did you mean 'model.heads'?"},
	{"*", "n_head", "did you mean 'model.heads'?"},
	{"*", "n_kv_heads", "did you mean 'model.kv_heads'?"},
	{"*", "num_experts", "did you mean 'model.experts'?"},
	{"*", "activation", "did you mean 'model.gated_mlp' (true for SwiGLU or GeGLU, false for "
	 "GeLU)?"},
	{"training.checkpoint", "interval", "did you mean 'every' (steps between checkpoints)?"},
	{"training.checkpoint", "save_interval", "did you mean 'every' (steps between checkpoints)?"},
	{"cluster.nic", "bandwidth", "did you mean 'speed' (the line rate of one NIC, e.g. "
	 "'speed: 400Gbps')?"},
};

void scn__unknown_key_msg(const scn_section *sec, const char *where, const char *key,
                          char *buf, size_t len)
{
	const char *s = scn__suggest_key(sec, key);
	int o = snprintf(buf, len, "unknown key '%s' in %s", key, where[0] ? where : "the top level");
	if (o < 0 || (size_t)o >= len)
		return;
	for (size_t i = 0; i < sizeof key_aliases / sizeof key_aliases[0]; i++)
		if (!strcmp(key_aliases[i].key, key) &&
		    (!strcmp(key_aliases[i].where, "*") || !strcmp(key_aliases[i].where, where))) {
			snprintf(buf + o, len - (size_t)o, "; %s", key_aliases[i].hint);
			return;
		}
	/* a key of another section ("micro_batch:" beside training:,
	 * training.compression): where it belongs, unless a key here is one
	 * letter away */
	char there[3][128];
	int n = keys_elsewhere(&scn__root, "", key, there, 0, 3);
	if (n > 0 && !(s && scn__edit_distance(key, s) <= 1)) {
		o += snprintf(buf + o, len - (size_t)o, "; it belongs under %s: '%s'",
		              sec == &scn__root ? "a section" : "another section", there[0]);
		for (int i = 1; i < n && (size_t)o < len; i++)
			o += snprintf(buf + o, len - (size_t)o, "%s'%s'", i == n - 1 ? " or " : ", ",
			              there[i]);
		return;
	}
	if (s) {
		snprintf(buf + o, len - (size_t)o, "; did you mean '%s'?", s);
		return;
	}
	o += snprintf(buf + o, len - (size_t)o, "; expected one of:");
	for (size_t i = 0; i < sec->nrows && (size_t)o < len; i++)
		o += snprintf(buf + o, len - (size_t)o, " %s", sec->rows[i].key);
}

int scn__schema_path(const char *dotted, char *err, size_t errlen)
{
	char buf[256], where[256] = "";
	snprintf(buf, sizeof buf, "%s", dotted);
	const scn_section *sec = &scn__root;
	const scn_field *f = NULL;
	bool want_index = false;
	for (char *save, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		if (want_index) { /* model.custom.N */
			if (k[0] == '-' && k[1] && strspn(k + 1, "0123456789") == strlen(k + 1)) {
				snprintf(err, errlen, "'%s' is not an index of the list '%s': indices "
				         "count from 0, e.g. %s.0.flops", k, where, where);
				return -1;
			}
			if (strspn(k, "0123456789") != strlen(k)) {
				snprintf(err, errlen, "'%s' is a list; give an index, e.g. %s.0.flops",
				         where, where);
				return -1;
			}
			want_index = false;
		} else if (!sec) {
			snprintf(err, errlen, "'%s' is a single value and has no key '%s'", where, k);
			return -1;
		} else if (!(f = row_find(sec, k))) {
			scn__unknown_key_msg(sec, where, k, err, errlen);
			return -1;
		} else {
			sec = (f->type == F_SECTION || f->type == F_LAYERS) ? f->sub : NULL;
			want_index = f->type == F_LAYERS;
		}
		size_t o = strlen(where);
		snprintf(where + o, sizeof where - o, "%s%s", o ? "." : "", k);
	}
	return 0;
}

const char *scn__schema_scalar_key(const char *dotted)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", dotted);
	const scn_section *sec = &scn__root;
	for (char *save, *k = strtok_r(buf, ".", &save); k && sec; k = strtok_r(NULL, ".", &save)) {
		const scn_field *f = row_find(sec, k);
		sec = f && f->type == F_SECTION ? f->sub : NULL;
	}
	return sec ? sec->scalar_key : NULL;
}

double scn__field_get(const scn_field *f, const void *base)
{
	const char *p = (const char *)base + f->off;
	switch (f->type) {
	case F_INT:
	case F_ENUM: return *(const int *)p;
	case F_U64: return (double)*(const uint64_t *)p;
	case F_DOUBLE:
	case F_UNIT: return *(const double *)p;
	case F_BOOL: return *(const bool *)p;
	default: return 0;
	}
}

static bool field_equal(const scn_field *f, const void *a, const void *b, char *diff,
                        size_t difflen, const char *path)
{
	const char *pa = (const char *)a + f->off, *pb = (const char *)b + f->off;
	bool eq;
	switch (f->type) {
	case F_SECTION:
		if (f->sub->present_off >= 0 &&
		    *(const bool *)(pa + f->sub->present_off) != *(const bool *)(pb + f->sub->present_off)) {
			eq = false;
			break;
		}
		return scn__section_equal(f->sub, pa, pb, diff, difflen, path);
	case F_STRING: eq = !strncmp(pa, pb, f->size); break;
	case F_U64: eq = *(const uint64_t *)pa == *(const uint64_t *)pb; break;
	case F_GPUBASE: return true;
	case F_LAYERS: {
		const scn_model *ma = a, *mb = b;
		eq = ma->custom == mb->custom && ma->nlayers_custom == mb->nlayers_custom;
		for (int i = 0; eq && i < ma->nlayers_custom; i++)
			eq = scn__section_equal(f->sub, &ma->custom_layers[i], &mb->custom_layers[i],
			                        diff, difflen, path);
		if (!eq && diff && !diff[0])
			snprintf(diff, difflen, "%s", path);
		return eq;
	}
	default: eq = scn__field_get(f, a) == scn__field_get(f, b); break;
	}
	if (!eq && diff && difflen)
		snprintf(diff, difflen, "%s", path);
	return eq;
}

bool scn__section_equal(const scn_section *sec, const void *a, const void *b, char *diff,
                        size_t difflen, const char *path)
{
	for (size_t i = 0; i < sec->nrows; i++) {
		char p[256];
		snprintf(p, sizeof p, "%s%s%s", path, path[0] ? "." : "", sec->rows[i].key);
		if (!field_equal(&sec->rows[i], a, b, diff, difflen, p))
			return false;
	}
	return true;
}

int scn_gpu_overrides(const hw_gpu *g, char *buf, size_t len)
{
	const hw_gpu *cat = hw_gpu_find(g->name);
	size_t o = 0;
	int n = 0;
	buf[0] = 0;
	if (!cat)
		return -1;
	for (size_t i = 0; i < gpu_sec.nrows; i++) {
		const scn_field *f = &gpu_sec.rows[i];
		if (f->type == F_GPUBASE || f->type == F_STRING ||
		    field_equal(f, g, cat, NULL, 0, f->key))
			continue;
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", n ? ", " : "", f->key);
		n++;
	}
	return n;
}
