#!/bin/sh
# check_whatif.sh: the shipped what-if studies (docs/whatif.md) still show
# their effect, in the right direction: spine slower than rack, two zones
# slower than one, compression and async DP faster when DP is exposed, more
# accumulation fewer DP syncs per token (but not under FSDP, which reduces
# every micro-batch unless no_sync), context parallelism across nodes
# exposing its K/V exchange, custom workloads run with a split
# that sums to the step time, a MoE's all-to-all kept in a node, buckets large
# enough not to be latency-bound, each narrower precision faster on
# Blackwell. Reads `trainsim run --format json` with awk (python3 is not
# guaranteed). Run by `make check`; a few seconds.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
TS=$top_builddir/trainsim
[ -x "$TS" ] || { echo "no $TS: build it first"; exit 99; }
W=$top_srcdir/scenarios/whatif
S=$top_srcdir/scenarios

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_whatif.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# run NAME SCENARIO [--set ...]: the JSON report of one run, flattened by
# flat() into $tmp/NAME ("dotted.key value" per line).
run() {
	name=$1
	shift
	if "$TS" run "$@" --format json -q >"$tmp/$name.json" 2>"$tmp/$name.err"; then
		flat <"$tmp/$name.json" >"$tmp/$name"
		ok "run $name"
	else
		not_ok "run $name (exit $?)"
		sed 's/^/#   /' "$tmp/$name.err" | head -5
		: >"$tmp/$name"
	fi
}

# trainsim's JSON has one member per line; nested objects and arrays open at
# the end of a line and close at the start of one. Keeps numbers only.
flat() {
	awk '
	/^[ \t]*[}\]]/ { if (d > 0) d--; next }
	match($0, /^[ \t]*"[^"]+":/) {
		k = substr($0, RSTART, RLENGTH); sub(/^[ \t]*"/, "", k); sub(/":$/, "", k)
		v = substr($0, RSTART + RLENGTH); sub(/^[ \t]+/, "", v); sub(/,$/, "", v)
		if (v == "{" || v == "[") { p[++d] = k; next }
		path = ""
		for (i = 1; i <= d; i++) path = path p[i] "."
		if (v ~ /^-?[0-9]/) print path k, v
	}'
}

# get NAME KEY: a number of a run (empty if absent).
get() { awk -v k="$2" '$1 == k { print $2; exit }' "$tmp/$1"; }

# holds DESCRIPTION AWK-CONDITION a=X b=Y ...: checks a numeric relation.
holds() {
	desc=$1 cond=$2
	shift 2
	if awk "$@" "BEGIN { exit !($cond) }" </dev/null 2>/dev/null; then
		ok "$desc"
	else
		not_ok "$desc ($*)"
	fi
}

# One rack vs the spine, 4:1 oversubscribed: the spread job is slower and
# the difference is DP communication; non-blocking, placement does not matter.
run rack "$W/placement-rack.yaml"
run spine "$W/placement-spine.yaml"
run spine_1to1 "$W/placement-spine.yaml" --set cluster.fabric.oversubscription=1
run rack_busy "$W/placement-rack.yaml" --set cluster.fabric.background_load=0.5
holds "spine slower than rack at 4:1" "b > 1.3 * a" \
	-v a="$(get rack step_time_s)" -v b="$(get spine step_time_s)"
holds "spine's extra time is dp_comm" "b - a > 0.8 * (t - s)" \
	-v a="$(get rack split_s.dp_comm)" -v b="$(get spine split_s.dp_comm)" \
	-v s="$(get rack step_time_s)" -v t="$(get spine step_time_s)"
holds "non-blocking: spine as fast as rack" "b < 1.01 * a && b > 0.99 * a" \
	-v a="$(get rack step_time_s)" -v b="$(get spine_1to1 step_time_s)"
holds "other tenants' load on the uplinks slows the rack job" "b > 1.1 * a" \
	-v a="$(get rack step_time_s)" -v b="$(get rack_busy step_time_s)"

# Two availability zones on a 100 Gb/s, 1 ms link vs one zone.
run zones2 "$W/zones-2az.yaml"
run zones1 "$W/zones-2az.yaml" --set cluster.fabric.topology=fat-tree
holds "two zones slower than one" "b > 2 * a" \
	-v a="$(get zones1 step_time_s)" -v b="$(get zones2 step_time_s)"
holds "the all-reduce alone is slower across zones" "b > 5 * a" \
	-v a="$(get zones1 dp_allreduce_s)" -v b="$(get zones2 dp_allreduce_s)"
# ... and the naive figure, the bottleneck and explain name the zone link
# (100 Gb/s shared by the 8 TP ranks' groups), not the NICs
holds "the naive figure is over the zone link's share" "b > 10 * a" \
	-v a="$(get zones1 dp_naive_s)" -v b="$(get zones2 dp_naive_s)"
"$TS" run "$W/zones-2az.yaml" > "$tmp/zones2.txt" 2>&1
"$TS" explain "$W/zones-2az.yaml" > "$tmp/zones2.explain" 2>&1
if grep -q "its share of the zone link" "$tmp/zones2.txt" &&
   grep -q "across the link between" "$tmp/zones2.txt" &&
   grep -q "The link between the availability zones" "$tmp/zones2.explain" &&
   ! grep -q "could not be simulated" "$tmp/zones2.explain" &&
   grep -q "cluster.fabric.zone_bandwidth=400Gbps" "$tmp/zones2.explain"; then
	ok "two zones: report and explain name the zone link"
else
	not_ok "two zones: report and explain name the zone link"
fi
# explain proposes no NIC faster than the catalog's fastest (800 Gb/s), and
# none where the zone link is the bottleneck
"$TS" explain "$S/default.yaml" --set cluster.nic.speed=400Gbps > "$tmp/z400.explain" 2>&1
if grep -q "cluster.nic.speed=800Gbps" "$tmp/z400.explain" &&
   ! grep -q "cluster.nic.speed=1600Gbps" "$tmp/z400.explain" &&
   ! grep -q "cluster.nic.speed=" "$tmp/zones2.explain"; then
	ok "explain: the fastest NIC, not four times 400G"
else
	not_ok "explain: the fastest NIC, not four times 400G"
fi

# Gradient compression on 25GbE, a DP-bound 1.3B model.
run comp_none "$W/compression-25gbe.yaml" --set training.grad_reduce.compression=none
run comp_int8 "$W/compression-25gbe.yaml" --set training.grad_reduce.compression=int8
run comp_1bit "$W/compression-25gbe.yaml" --set training.grad_reduce.compression=1bit
holds "int8 faster than none on 25GbE" "b < 0.8 * a" \
	-v a="$(get comp_none step_time_s)" -v b="$(get comp_int8 step_time_s)"
holds "1bit faster than int8" "c < b" \
	-v b="$(get comp_int8 step_time_s)" -v c="$(get comp_1bit step_time_s)"
holds "int8 halves the gradient bytes" "b > 0.49 * a && b < 0.51 * a" \
	-v a="$(get comp_none dp_bytes_per_gpu)" -v b="$(get comp_int8 dp_bytes_per_gpu)"
holds "the report says int8 paid off" "s > 0" -v s="$(get comp_int8 compression_saving_s)"

# Asynchronous vs synchronous DP where the reduction is exposed.
run sync "$W/async-dp.yaml" --set training.grad_reduce.sync=sync
run async "$W/async-dp.yaml"
holds "sync exposes DP communication" "d > 0.05 * t" \
	-v d="$(get sync split_s.dp_comm)" -v t="$(get sync step_time_s)"
holds "async faster than sync" "b < a" \
	-v a="$(get sync step_time_s)" -v b="$(get async step_time_s)"
holds "async reports its speedup and 1 step of staleness" "x > 1 && s == 1" \
	-v x="$(get async async_speedup)" -v s="$(get async staleness)"

# Gradient accumulation on 25GbE: 1 vs 8 micro-batches per step.
run acc1 "$W/accumulation-25gbe.yaml"
run acc8 "$W/accumulation-25gbe.yaml" --set training.global_batch=1024
holds "8 micro-batches per step" "m == 8" -v m="$(get acc8 layout.micro_batches)"
holds "more accumulation: fewer DP syncs per token" "s8 / (g8 * 2048) < s1 / (g1 * 2048)" \
	-v s1="$(get acc1 dp_syncs_per_step)" -v g1="$(get acc1 layout.global_batch)" \
	-v s8="$(get acc8 dp_syncs_per_step)" -v g8="$(get acc8 layout.global_batch)"
holds "more accumulation: more tokens/s on a slow network" "b > 2 * a" \
	-v a="$(get acc1 tokens_per_s)" -v b="$(get acc8 tokens_per_s)"

# Custom (non-transformer) workloads run, and their split sums to the step.
for w in resnet50 dlrm; do
	run "$w" "$S/custom-$w.yaml"
	holds "$w: split sums to the step time" \
		"t > 0 && c > 0 && (c+tp+pc+pb+dc+ds+ck+o+i - t) < 1e-9 * t && (t - (c+tp+pc+pb+dc+ds+ck+o+i)) < 1e-9 * t" \
		-v t="$(get "$w" step_time_s)" -v c="$(get "$w" split_s.compute)" \
		-v tp="$(get "$w" split_s.tp_comm)" -v pc="$(get "$w" split_s.pp_comm)" \
		-v pb="$(get "$w" split_s.pp_bubble)" -v dc="$(get "$w" split_s.dp_comm)" \
		-v ds="$(get "$w" split_s.data_stall)" -v ck="$(get "$w" split_s.checkpoint)" \
		-v o="$(get "$w" split_s.optimizer)" -v i="$(get "$w" split_s.idle)"
done
run resnet50_100g "$S/custom-resnet50.yaml" --set cluster.nic.speed=100Gbps
holds "resnet50: 100GbE faster than 25GbE" "b < a" \
	-v a="$(get resnet50 step_time_s)" -v b="$(get resnet50_100g step_time_s)"
holds "dlrm: the dense embedding gradients dominate the step" "d > 0.9 * t" \
	-v d="$(get dlrm split_s.dp_comm)" -v t="$(get dlrm step_time_s)"

# Long context: at 128K tokens memory decides (cp 8 without recomputation does
# not fit, full recomputation does); at 16K on 25 GbE the K/V exchange of a CP
# group spanning two nodes is exposed, one inside a node is not.
run lc8 "$W/long-context.yaml"
run lc8_full "$W/long-context.yaml" --set training.recompute=full
holds "128K, cp 8, no recomputation: does not fit" "a > c" \
	-v a="$(get lc8 memory.per_gpu_bytes)" -v c="$(get lc8 memory.capacity_bytes)"
holds "128K, cp 8, full recomputation: fits" "a < c" \
	-v a="$(get lc8_full memory.per_gpu_bytes)" -v c="$(get lc8_full memory.capacity_bytes)"
for cp in 8 16; do
	run "lc16k_$cp" "$W/long-context.yaml" --set model.seq_len=16384 \
		--set training.recompute=full --set training.cp=$cp --set cluster.nic.speed=25Gbps
done
holds "16K on 25 GbE: cp across nodes exposes the K/V exchange" "b > 20 * a && b > 0.3 * t" \
	-v a="$(get lc16k_8 split_s.tp_comm)" -v b="$(get lc16k_16 split_s.tp_comm)" \
	-v t="$(get lc16k_16 step_time_s)"
holds "16K on 25 GbE: cp inside a node is faster" "a < b" \
	-v a="$(get lc16k_8 step_time_s)" -v b="$(get lc16k_16 step_time_s)"
# ... and the report and explain name the exchange, not tensor parallelism
lc_set="--set model.seq_len=16384 --set training.recompute=full --set training.cp=16"
lc_set="$lc_set --set cluster.nic.speed=25Gbps"
# shellcheck disable=SC2086
if "$TS" run "$W/long-context.yaml" $lc_set 2>/dev/null | tr '\n' ' ' | tr -s ' ' |
	grep -q "bottleneck: The context-parallel K/V exchange blocks"; then
	ok "bottleneck names the K/V exchange"
else
	not_ok "bottleneck names the K/V exchange"
fi
# shellcheck disable=SC2086
if "$TS" explain "$W/long-context.yaml" $lc_set 2>/dev/null | grep -q -- "--set training.cp=8" &&
	! "$TS" explain "$W/long-context.yaml" $lc_set 2>/dev/null | grep -q "sequence parallelism"; then
	ok "explain: keep cp inside a node, no sequence parallelism with tp 1"
else
	not_ok "explain: keep cp inside a node, no sequence parallelism with tp 1"
fi

# A mixture of experts: the expert all-to-all inside a node (Megatron-core's
# order) beats the same group across nodes; the report names the all-to-all,
# and without expert parallelism the model does not fit
run moe_node "$S/mixtral-8x7b.yaml"
run moe_span "$S/mixtral-8x7b.yaml" --set training.placement=tp-pp-dp
run moe_ep1 "$S/mixtral-8x7b.yaml" --set training.ep=1
holds "moe: all-to-all across nodes is exposed more and slower" "b > 3 * a && t > s" \
	-v a="$(get moe_node split_s.tp_comm)" -v b="$(get moe_span split_s.tp_comm)" \
	-v s="$(get moe_node step_time_s)" -v t="$(get moe_span step_time_s)"
holds "moe: ep 1 holds every expert and does not fit" "a > c && b < c" \
	-v a="$(get moe_ep1 memory.per_gpu_bytes)" -v b="$(get moe_node memory.per_gpu_bytes)" \
	-v c="$(get moe_node memory.capacity_bytes)"
if "$TS" run "$S/mixtral-8x7b.yaml" --set training.placement=tp-pp-dp 2>/dev/null |
	tr '\n' ' ' | tr -s ' ' | grep -q "bottleneck: The expert all-to-all blocks"; then
	ok "bottleneck names the expert all-to-all"
else
	not_ok "bottleneck names the expert all-to-all"
fi
if "$TS" explain "$S/mixtral-8x7b.yaml" --set training.placement=tp-pp-dp 2>/dev/null |
	tr '\n' ' ' | tr -s ' ' | grep -q -- "--set training.placement=tp-dp-pp"; then
	ok "explain: Megatron-core's order keeps the all-to-all in a node"
else
	not_ok "explain: Megatron-core's order keeps the all-to-all in a node"
fi

# bucket size at dp 512: each bucket pays a reduce-scatter's latency over
# 512 ranks; Megatron-core's 2 GB buckets against DDP's 25 MB
run bucket_25 "$W/bucket-size.yaml"
run bucket_2g "$W/bucket-size.yaml" --set training.grad_reduce.bucket=2GB
holds "bucket: 25 MB buckets are latency-bound, 2 GB ones are not" "a > 3 * b && l > 10 * m" \
	-v a="$(get bucket_25 step_time_s)" -v b="$(get bucket_2g step_time_s)" \
	-v l="$(get bucket_25 dp_latency_s)" -v m="$(get bucket_2g dp_latency_s)"
if "$TS" run "$W/bucket-size.yaml" 2>/dev/null | tr '\n' ' ' | tr -s ' ' |
	grep -q "bound by latency" &&
	"$TS" explain "$W/bucket-size.yaml" 2>/dev/null | tr '\n' ' ' | tr -s ' ' |
	grep -q -- "Start with: larger gradient buckets"; then
	ok "bucket: the report says latency, explain proposes larger buckets first"
else
	not_ok "bucket: the report says latency, explain proposes larger buckets first"
fi

# eager PyTorch: the unfused elementwise ops cost HBM passes, more so where
# the GEMMs are faster relative to HBM (H100 against A100); explain proposes
# torch.compile
run eager_h "$W/eager-kernels.yaml"
run fused_h "$W/eager-kernels.yaml" --set training.kernels=fused
run eager_a "$W/eager-kernels.yaml" --set cluster.gpu=A100-SXM4-80GB
run fused_a "$W/eager-kernels.yaml" --set cluster.gpu=A100-SXM4-80GB --set training.kernels=fused
holds "eager: slower than fused, more on H100 than on A100" \
	"e > 1.05 * f && e / f > x / y && x > 1.03 * y" \
	-v e="$(get eager_h step_time_s)" -v f="$(get fused_h step_time_s)" \
	-v x="$(get eager_a step_time_s)" -v y="$(get fused_a step_time_s)"
if "$TS" explain "$W/eager-kernels.yaml" --set training.attention=flash 2>/dev/null |
	tr '\n' ' ' | tr -s ' ' | grep -q -- "Start with: compile the model"; then
	ok "eager: explain proposes torch.compile first"
else
	not_ok "eager: explain proposes torch.compile first"
fi

# FlashAttention's own kernels on Hopper (PyTorch SDPA before 2.9): slower
# than cuDNN's fused attention, FlashAttention 1 slower still; explain
# proposes cuDNN's kernels
run fa1_h "$W/eager-kernels.yaml" --set training.kernels=fused --set training.attention=flash1
run fa_h "$W/eager-kernels.yaml" --set training.kernels=fused --set training.attention=flash
holds "attention: flash1 slower than flash2 slower than cuDNN's flash on H100" \
	"a > b && b > 1.02 * c" \
	-v a="$(get fa1_h step_time_s)" -v b="$(get fused_h step_time_s)" \
	-v c="$(get fa_h step_time_s)"
if "$TS" explain "$W/eager-kernels.yaml" --set training.kernels=fused \
	--set training.attention=flash2 2>/dev/null | tr '\n' ' ' | tr -s ' ' |
	grep -q -- "run cuDNN's fused attention.*--set training.attention=flash)"; then
	ok "attention: explain proposes cuDNN's kernels for FlashAttention-2 on Hopper"
else
	not_ok "attention: explain proposes cuDNN's kernels for FlashAttention-2 on Hopper"
fi

# the loss: a fused cross-entropy kernel saves GPT-2 small a fifth of its step
# and the 13 GB fp32 copy of its logits; Llama 3 8B under 3%; explain
# proposes it where it matters
run ce_u "$W/fused-loss.yaml"
run ce_f "$W/fused-loss.yaml" --set training.cross_entropy=fused
run ce_l "$W/eager-kernels.yaml" --set training.kernels=fused --set training.cross_entropy=fused
holds "loss: fused is faster and holds less on GPT-2, barely faster on Llama 3 8B" \
	"u > 1.2 * f && mu - mf > 12e9 && mu - mf < 14e9 && l < k && l > 0.97 * k" \
	-v u="$(get ce_u step_time_s)" -v f="$(get ce_f step_time_s)" \
	-v mu="$(get ce_u memory.other)" -v mf="$(get ce_f memory.other)" \
	-v k="$(get fused_h step_time_s)" -v l="$(get ce_l step_time_s)"
if "$TS" explain "$W/fused-loss.yaml" >"$tmp/ce_explain" 2>/dev/null &&
	tr '\n' ' ' <"$tmp/ce_explain" | tr -s ' ' | grep -q -- "Start with: fuse the loss"; then
	ok "loss: explain proposes the fused loss first for GPT-2 small"
else
	not_ok "loss: explain proposes the fused loss first for GPT-2 small"
fi
# not where it gains neither time nor memory: a 100B model 26x over its memory
if "$TS" explain "$S/dp-100b-10gbe.yaml" >"$tmp/ce_explain" 2>/dev/null &&
	! grep -q "fuse the loss" "$tmp/ce_explain"; then
	ok "loss: explain does not propose the fused loss where it saves nothing"
else
	not_ok "loss: explain does not propose the fused loss where it saves nothing"
fi
# but where fusing it makes the layout fit (Llama 3 8B at 5120 tokens, ZeRO-1:
# 1.03x the memory, 85.4 GB fused)
if "$TS" explain "$W/eager-kernels.yaml" --set training.zero=1 --set model.seq_len=5120 \
	>"$tmp/ce_explain" 2>/dev/null && tr '\n' ' ' <"$tmp/ce_explain" | tr -s ' ' |
	grep -q -- "training.cross_entropy=fused): [^;]*; it fits"; then
	ok "loss: explain proposes the fused loss where it makes the layout fit"
else
	not_ok "loss: explain proposes the fused loss where it makes the layout fit"
fi

# FSDP (ZeRO-3) reduces after every micro-batch: accumulation does not raise
# tokens/s, no_sync does (holding whole gradients), ZeRO-1's accumulation does
run fsdp_1 "$W/fsdp-accumulation.yaml" --set training.global_batch=64
run fsdp_4 "$W/fsdp-accumulation.yaml"
run fsdp_4ns "$W/fsdp-accumulation.yaml" --set training.grad_reduce.every_micro_batch=false
run z1_1 "$W/fsdp-accumulation.yaml" --set training.global_batch=64 --set training.zero=1
run z1_4 "$W/fsdp-accumulation.yaml" --set training.zero=1
holds "fsdp: 4 reductions per step, 1 with no_sync" "a == 4 && b == 1" \
	-v a="$(get fsdp_4 dp_syncs_per_step)" -v b="$(get fsdp_4ns dp_syncs_per_step)"
holds "fsdp: accumulation alone gains nothing, no_sync gains, ZeRO-1 gains" \
	"x < 1.01 * w && y > 1.2 * x && v > 1.2 * u" \
	-v w="$(get fsdp_1 tokens_per_s)" -v x="$(get fsdp_4 tokens_per_s)" \
	-v y="$(get fsdp_4ns tokens_per_s)" -v u="$(get z1_1 tokens_per_s)" -v v="$(get z1_4 tokens_per_s)"
holds "fsdp: no_sync holds whole gradients" "b > 3 * a" \
	-v a="$(get fsdp_4 memory.gradients)" -v b="$(get fsdp_4ns memory.gradients)"
# HSDP: sharded inside each node, the single 100 Gb/s NIC carries only the
# shards: faster than full sharding, for more memory
run hsdp_1 "$W/fsdp-accumulation.yaml" --set training.global_batch=64 --set training.zero_group=8
holds "hsdp: inside the node is faster, and holds more" "h < 0.95 * f && m > 2 * n" \
	-v h="$(get hsdp_1 step_time_s)" -v f="$(get fsdp_1 step_time_s)" \
	-v m="$(get hsdp_1 memory.per_gpu_bytes)" -v n="$(get fsdp_1 memory.per_gpu_bytes)"
holds "hsdp: 4 groups of 8" "g == 8 && r == 4" \
	-v g="$(get hsdp_1 dp_zero_group)" -v r="$(get hsdp_1 dp_zero_replicas)"
# explain offers HSDP, and no accumulation where the gradients are reduced
# after every micro-batch
ex=$("$TS" explain "$W/fsdp-accumulation.yaml" --set training.global_batch=64 2>/dev/null)
if echo "$ex" | grep -q -- "--set" && echo "$ex" | tr '\n' ' ' | tr -s ' ' |
	grep -q "training.zero_group=8" && ! echo "$ex" | grep -q "accumulate gradients"; then
	ok "fsdp: explain offers HSDP, not accumulation"
else
	not_ok "fsdp: explain offers HSDP, not accumulation"
fi
if "$TS" explain "$W/fsdp-accumulation.yaml" 2>/dev/null | tr '\n' ' ' | tr -s ' ' |
	grep -q -- "Start with: reduce the gradients once per step"; then
	ok "fsdp: explain proposes no_sync first"
else
	not_ok "fsdp: explain proposes no_sync first"
fi

# bf16, fp8, fp4 on Blackwell: each narrower GEMM format shortens the step,
# by less than its peak's doubling; the MFU against each peak falls
for p in bf16 fp8 fp4; do
	run "prec_$p" "$S/dgx-h100.yaml" --set cluster.gpu=B200 --set training.precision=$p
done
holds "bf16 > fp8 > fp4 step time, each by less than half" \
	"a > b && b > c && b > a / 2 && c > b / 2" -v a="$(get prec_bf16 step_time_s)" \
	-v b="$(get prec_fp8 step_time_s)" -v c="$(get prec_fp4 step_time_s)"
holds "fp4's MFU below fp8's below bf16's" "x > y && y > z" -v x="$(get prec_bf16 mfu)" \
	-v y="$(get prec_fp8 mfu)" -v z="$(get prec_fp4 mfu)"

# 19. A power cap costs the compute share of the step: a compute-bound H100
# node loses more than 10% at 500 W, a network-bound A100 cluster under 2%
# at 300 W; MFU stays against the rated peak
run cap_700 "$S/dgx-h100.yaml"
run cap_500 "$S/dgx-h100.yaml" --set cluster.gpu.power_limit=500W
run cap_a400 "$S/dp-100b-400gbe.yaml"
run cap_a300 "$S/dp-100b-400gbe.yaml" --set cluster.gpu.power_limit=300W
holds "power cap: compute bound loses > 10%, network bound < 2%" \
	"b > 1.1 * a && d < 1.02 * c && d > c" -v a="$(get cap_700 step_time_s)" \
	-v b="$(get cap_500 step_time_s)" -v c="$(get cap_a400 step_time_s)" \
	-v d="$(get cap_a300 step_time_s)"
holds "power cap: MFU falls with the throughput" "x * s / (y * t) > 0.999999 && x * s / (y * t) < 1.000001" \
	-v x="$(get cap_700 mfu)" -v s="$(get cap_700 step_time_s)" -v y="$(get cap_500 mfu)" \
	-v t="$(get cap_500 step_time_s)"

# 14. DeepEP's dispatcher sends a token to another node once: DeepSeek-V3's
# top-8 of 256 over the 8 nodes of an EP 64 group exchanges less and steps
# faster; within one node (Mixtral's ep 8 in Megatron-core's order) no change
run ep_nccl "$S/deepseek-v3-h100.yaml"
run ep_deepep "$S/deepseek-v3-h100.yaml" --set training.ep_dispatcher=deepep
run ep_node_nccl "$S/mixtral-8x7b.yaml"
run ep_node_deepep "$S/mixtral-8x7b.yaml" --set training.ep_dispatcher=deepep
holds "deepep: across nodes faster, inside a node the same" \
	"b < 0.95 * a && c == d" -v a="$(get ep_nccl step_time_s)" \
	-v b="$(get ep_deepep step_time_s)" -v c="$(get ep_node_nccl step_time_s)" \
	-v d="$(get ep_node_deepep step_time_s)"

# 20. InfiniBand SHARP halves a NIC's all-reduce bytes: a network-bound DP
# job with a NIC a GPU gains more than 30%, a compute-bound one under 1%;
# with one NIC for 8 GPUs NCCL's tuner keeps the ring
run sharp_off "$S/dp-100b-400gbe.yaml" --set cluster.nic.transport=rdma \
	--set cluster.nic.count=8 --set cluster.nic.speed=50Gbps --set training.grad_reduce.algorithm=auto
run sharp_on "$S/dp-100b-400gbe.yaml" --set cluster.nic.transport=rdma \
	--set cluster.nic.count=8 --set cluster.nic.speed=50Gbps --set training.grad_reduce.algorithm=auto \
	--set cluster.fabric.sharp=true
run sharp_one_nic "$S/dp-100b-400gbe.yaml" --set cluster.nic.transport=rdma \
	--set training.grad_reduce.algorithm=auto --set cluster.fabric.sharp=true
run sharp_c_off "$S/a100-hdr-ib-4node.yaml"
run sharp_c_on "$S/a100-hdr-ib-4node.yaml" --set cluster.fabric.sharp=true
holds "sharp: network bound faster by > 30%, compute bound within 1%" \
	"b < a / 1.3 && d <= c && d > 0.99 * c" -v a="$(get sharp_off step_time_s)" \
	-v b="$(get sharp_on step_time_s)" -v c="$(get sharp_c_off step_time_s)" \
	-v d="$(get sharp_c_on step_time_s)"
if grep -q '"dp_algorithm": "ring"' "$tmp/sharp_one_nic.json"; then
	ok "sharp: one NIC for 8 GPUs keeps the ring"
else
	not_ok "sharp: one NIC for 8 GPUs keeps the ring"
fi

# 21. Two layers off the last stage of a 4-stage pipeline whose last stage
# runs a 128K-word output layer: faster by more than 10%, less idle
run split_even "$S/whatif/pipeline-split.yaml"
run split_last6 "$S/whatif/pipeline-split.yaml" --set training.last_stage_layers=6
holds "pipeline split: the last stage two layers lighter is > 10% faster" \
	"b < a / 1.1 && d < c" -v a="$(get split_even step_time_s)" \
	-v b="$(get split_last6 step_time_s)" -v c="$(get split_even split_s.idle)" \
	-v d="$(get split_last6 split_s.idle)"

# 22. GPUDirect over TCP (A3 Mega): each GPU on its own NIC without the host
# copy is > 2x faster than NCCL's sockets on one NIC, a little slower than
# RDMA would be, and faster than sockets over all 8 NICs
run gdtcp "$S/whatif/gpudirect-tcp.yaml"
run gdtcp_sock1 "$S/whatif/gpudirect-tcp.yaml" --set cluster.nic.transport=tcp \
	--set cluster.nic.count=1
run gdtcp_sock8 "$S/whatif/gpudirect-tcp.yaml" --set cluster.nic.transport=tcp
run gdtcp_rdma "$S/whatif/gpudirect-tcp.yaml" --set cluster.nic.transport=rdma
holds "GPUDirect-TCP: > 2x faster than sockets on one NIC, between sockets and RDMA" \
	"b > 2 * a && c > a && d < a" -v a="$(get gdtcp step_time_s)" \
	-v b="$(get gdtcp_sock1 step_time_s)" -v c="$(get gdtcp_sock8 step_time_s)" \
	-v d="$(get gdtcp_rdma step_time_s)"

# 23. A GeForce workstation (4 x RTX 5090, no P2P): peer-to-peer (a patched
# driver) barely moves data parallelism, whose gradients overlap the
# backward, and speeds tensor parallelism up by more than 15%, its exposed
# TP time halved
run gf_dp "$S/whatif/geforce-p2p.yaml"
run gf_dp_p2p "$S/whatif/geforce-p2p.yaml" --set cluster.intra_node.p2p=true
run gf_tp "$S/whatif/geforce-p2p.yaml" --set training.tp=4 --set training.zero=0 \
	--set training.sequence_parallel=true
run gf_tp_p2p "$S/whatif/geforce-p2p.yaml" --set training.tp=4 --set training.zero=0 \
	--set training.sequence_parallel=true --set cluster.intra_node.p2p=true
holds "GeForce P2P: DP < 10% faster, TP 4 > 15% faster with half the exposed TP time" \
	"b < a && b > a / 1.1 && d < c / 1.15 && f < e * 0.6" -v a="$(get gf_dp step_time_s)" \
	-v b="$(get gf_dp_p2p step_time_s)" -v c="$(get gf_tp step_time_s)" \
	-v d="$(get gf_tp_p2p step_time_s)" -v e="$(get gf_tp split_s.tp_comm)" \
	-v f="$(get gf_tp_p2p split_s.tp_comm)"

# 23b. The same box with RTX 4090s (Ada: NCCL's SHM moves 0.082 of the link
# with its kernels): tensor parallelism over host memory is more than 3x
# slower than over the copy engines (NCCL_SHM_USE_CUDA_MEMCPY=1), which
# explain proposes first
run gf4090_tp "$S/whatif/geforce-p2p.yaml" --set cluster.gpu=RTX-4090 --set training.tp=4 \
	--set training.zero=0 --set training.sequence_parallel=true
run gf4090_tp_ce "$S/whatif/geforce-p2p.yaml" --set cluster.gpu=RTX-4090 --set training.tp=4 \
	--set training.zero=0 --set training.sequence_parallel=true \
	--set cluster.intra_node.shm_eff=0.412
holds "RTX 4090 TP 4: the copy engines' SHM > 3x faster than the kernels'" \
	"a > 3 * b" -v a="$(get gf4090_tp step_time_s)" -v b="$(get gf4090_tp_ce step_time_s)"
"$TS" explain "$S/whatif/geforce-p2p.yaml" --set cluster.gpu=RTX-4090 --set training.tp=4 \
	--set training.zero=0 --set training.sequence_parallel=true > "$tmp/gf4090.explain" 2>&1
if grep -q "Start with: set NCCL_SHM_USE_CUDA_MEMCPY=1" "$tmp/gf4090.explain"; then
	ok "RTX 4090 TP 4: explain starts with NCCL_SHM_USE_CUDA_MEMCPY=1"
else
	not_ok "RTX 4090 TP 4: explain starts with NCCL_SHM_USE_CUDA_MEMCPY=1"
fi

# 25. NVLink bridges in a PCIe server (8 x H100 NVL, TP 2 in pairs): the
# bridges take most of the exposed TP time away (> 15% faster, TP time under
# a third), leave the DP reduction across the pairs (over PCIe) as it was,
# and explain proposes them on the unbridged box
run br "$S/whatif/nvlink-bridge.yaml"
run br_none "$S/whatif/nvlink-bridge.yaml" --set cluster.intra_node.nvlink_bridge=0
holds "NVLink bridges: TP 2 in pairs > 15% faster, its exposed TP under a third, DP alike" \
	"a < b / 1.15 && c < d / 3 && e < f * 1.1 && e > f * 0.9" \
	-v a="$(get br step_time_s)" -v b="$(get br_none step_time_s)" \
	-v c="$(get br split_s.tp_comm)" -v d="$(get br_none split_s.tp_comm)" \
	-v e="$(get br dp_allreduce_s)" -v f="$(get br_none dp_allreduce_s)"
"$TS" explain "$S/whatif/nvlink-bridge.yaml" --set cluster.intra_node.nvlink_bridge=0 \
	> "$tmp/br.explain" 2>&1
if grep -q "cluster.intra_node.nvlink_bridge=2" "$tmp/br.explain" &&
   ! grep -q "could not be simulated" "$tmp/br.explain"; then
	ok "NVLink bridges: explain proposes bridging the PCIe cards in pairs"
else
	not_ok "NVLink bridges: explain proposes bridging the PCIe cards in pairs"
fi

# explain proposes what helps the bottleneck: on an H200 NVL box TP 2 is
# bridged in pairs (the whole bridge a pair: faster than fours, the only
# bridge variant kept); a layout
# whose DP pairs no bridge group holds (tp 1, pp 2: ranks 0-2, 1-3) gets no
# bridges; pipeline neighbours in a pair do (the second-largest loss); an
# A40 run with P2P turned off gets it back before any copy-engine setting
"$TS" explain "$S/whatif/nvlink-bridge.yaml" --set cluster.intra_node.nvlink_bridge=0 \
	--set cluster.gpu=H200-NVL > "$tmp/br200.explain" 2>&1
"$TS" explain "$S/whatif/nvlink-bridge.yaml" --set cluster.intra_node.nvlink_bridge=0 \
	--set training.tp=1 --set training.zero=2 --set training.sequence_parallel=false \
	> "$tmp/brdp.explain" 2>&1
"$TS" explain "$top_srcdir/tests/good/bridged_pcie.yaml" --set cluster.gpu=A40 \
	--set cluster.intra_node.nvlink_bridge=0 --set cluster.intra_node.p2p=false \
	--set training.tp=4 > "$tmp/a40p2p.explain" 2>&1
"$TS" explain "$S/whatif/nvlink-bridge.yaml" --set cluster.gpus_per_node=4 \
	--set cluster.intra_node.nvlink_bridge=0 --set training.tp=1 --set training.pp=2 \
	--set training.sequence_parallel=false > "$tmp/brpp4.explain" 2>&1
"$TS" explain "$top_srcdir/tests/good/bridged_pcie.yaml" --set cluster.gpu=RTX-3090 \
	--set cluster.gpus_per_node=2 --set cluster.intra_node.nvlink_bridge=0 --set training.tp=1 \
	--set training.pp=2 --set model.layers=2 --set training.global_batch=16 \
	> "$tmp/br3090pp.explain" 2>&1
if grep -q "cluster.intra_node.nvlink_bridge=2" "$tmp/br200.explain" &&
   ! grep -q "nvlink_bridge=4" "$tmp/br200.explain" &&
   ! grep -q "nvlink_bridge" "$tmp/brdp.explain" &&
   ! grep -q "nvlink_bridge" "$tmp/brpp4.explain" &&
   grep -q "nvlink_bridge=2" "$tmp/br3090pp.explain" &&
   grep -q "Start with: turn PCIe peer-to-peer back on" "$tmp/a40p2p.explain" &&
   ! grep -q "SHM_USE_CUDA_MEMCPY" "$tmp/a40p2p.explain"; then
	ok "explain: bridges sized to the bottleneck's group, P2P back on before the copy engines"
else
	not_ok "explain: bridges sized to the bottleneck's group, P2P back on before the copy engines"
fi

# Node-local checkpoints (docs/whatif.md 26): with a copy on the next node a
# restart resumes from the drives (less work redone, a shorter reload than
# from the 20 GB/s filer); with one copy they leave with the replaced node
# and only cost; written synchronously every 25 steps they cost more than
# they save.
run lc "$W/local-checkpoints.yaml"
run lc_none "$W/local-checkpoints.yaml" --set training.checkpoint.local_every=0
run lc_one "$W/local-checkpoints.yaml" --set training.checkpoint.local_copies=1
run lc_sync "$W/local-checkpoints.yaml" --set training.checkpoint.mode=sync
run lc_none_sync "$W/local-checkpoints.yaml" --set training.checkpoint.mode=sync \
	--set training.checkpoint.local_every=0
holds "local checkpoints with a copy: less work redone" "b < a / 5" \
	-v a="$(get lc_none goodput_lost_work)" -v b="$(get lc goodput_lost_work)"
holds "... and a higher goodput" "b > a" \
	-v a="$(get lc_none goodput)" -v b="$(get lc goodput)"
holds "... a restart reads the drives, faster than the filer" "b < a" \
	-v a="$(get lc_none restart_s)" -v b="$(get lc restart_s)"
holds "one copy: no better than none" "b <= a" \
	-v a="$(get lc_none goodput)" -v b="$(get lc_one goodput)"
holds "synchronous local writes every 25 steps cost more than they save" "b < a" \
	-v a="$(get lc_none_sync goodput)" -v b="$(get lc_sync goodput)"
"$TS" explain "$W/local-checkpoints.yaml" -q --set training.checkpoint.mode=sync \
	> "$tmp/lc_sync.explain" 2>&1
if grep -q "training.checkpoint.local_every=" "$tmp/lc_sync.explain" &&
   grep -q "cluster.local_cache.bandwidth=" "$tmp/lc_sync.explain" &&
   ! grep -q "training.checkpoint.every=" "$tmp/lc_sync.explain"; then
	ok "explain: the local tier's writes cost most, so fewer of them or faster drives"
else
	not_ok "explain: the local tier's writes cost most, so fewer of them or faster drives"
fi
holds "the local tier reports its write and its reload" "w > 0 && l > 0 && l < r" \
	-v w="$(get lc checkpoint.local_write_s)" -v l="$(get lc checkpoint.local_load_s)" \
	-v r="$(get lc_none checkpoint.load_s)"

echo "1..$n"
[ "$failed" -eq 0 ]
