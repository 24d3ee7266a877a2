#!/usr/bin/env python3
"""Turns the JSON lines of h200_kernels.py and h200_layer.py into rows that
`trainsim validate` reads (tests/validation/h200-kernels.csv).

Left out, each for a stated reason:
- kernels shorter than 40 us: PyTorch's eager launches take 8 us or more each
  on the host (measured: eager_tiny_kernel), so back-to-back timing of so
  short a kernel measures the launch rate, not the GPU;
- FlashAttention-2 (PyTorch's FLASH_ATTENTION backend): on Hopper, Transformer
  Engine and PyTorch run cuDNN's fused attention, which the model describes;
- eager layers (their unfused rotary/SwiGLU kernels are not what Megatron
  runs); compiled layers are kept: the elapsed time of back-to-back steps
  (CUDA events; the gaps between kernels included, as in a training step)
  less the weight-gradient accumulation adds (autograd's grad += that
  Megatron's fused wgrad into main_grad does not have), which the profile
  separates. The row says how busy the GPU was.
Usage: to_csv.py KERNELS.jsonl LAYER.jsonl > h200-kernels.csv
"""
import csv, json, sys

SRC = ("measured on the NVIDIA H200 SXM lent to this project, 2026-11-29: "
       "bench/device/%s (PyTorch 2.11, CUDA 13.0 cuBLAS/cuDNN; random data; "
       "median of 5 timed groups); raw: bench/device/results/2026-11-29-%s")
HDR = ("id,source,hardware,gpus,model_params_b,layers,hidden,heads,seq_len,global_batch,"
       "micro_batch,tp,pp,dp,other_parallel,precision,recompute,metric,value,unit,verified").split(",")
GPU = "H200-SXM-141GB"
MIN_S = 40e-6

w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(HDR)
n = 0


def row(src, note, metric, value, unit, params="", layers="", hidden="", heads="", seq="",
        gb="", mb="", par="", prec="", rc=""):
    global n
    n += 1
    w.writerow(["H200K-%03d" % n, src, GPU, 1, params, layers, hidden, heads, seq, gb, mb,
                par, par, par, note, prec, rc, metric, value, unit, "yes-primary"])


src = SRC % ("h200_kernels.py", "h200_kernels.jsonl")
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["kind"] == "gemm" and "error" not in r and r.get("fast_accum") is not False \
            and r["time_s"] >= MIN_S:
        row(src, r["tag"], "gemm_%s_%dx%dx%d" % (r["dtype"], r["m"], r["n"], r["k"]),
            "%.1f" % r["tflops"], "TFLOP/s")
    elif r["kind"] == "attn" and "error" not in r and r["backend"] == "CUDNN_ATTENTION":
        for d in ("fwd", "bwd"):
            row(src, "cuDNN fused attention, bf16",
                "flash_attn_cudnn_causal_%s_hd%d_s%d_b%d_h%d" % (d, r["hd"], r["seq"], r["b"],
                                                                 r["heads"]),
                "%.1f" % r[d + "_tflops"], "TFLOP/s")
    elif r["kind"] == "mem" and "error" not in r and r["name"] == "copy_1073741824":
        row(src, "device-to-device copy of 2 GiB, bytes read + written", "hbm_copy_bw",
            "%.3f" % (r["GBps"] / 1e3), "TB/s")

src = SRC % ("h200_layer.py", "h200_layer.jsonl")
NAMES = {"llama2-7b": ("Llama 2 7B", 7), "gpt3-5b": ("GPT-3 5B", 5),
         "llama3-8b": ("Llama 3 8B", 8), "llama2-13b": ("Llama 2 13B", 13),
         "llama2-70b": ("Llama 2 70B", 70)}
kern = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    if r["kind"] == "kernels" and r["variant"] == "compiled":
        # the weight-gradient accumulation adds: elementwise adds of bf16 that
        # the backward launches once per weight
        kern[r["name"]] = sum(t for t, cnt, cat, name in r["top"]
                              if "CUDAFunctor_add" in name)
    if r["kind"] != "layer" or "compiled_fwd_s" not in r:
        continue
    model, params = NAMES[r["name"]]
    note = "%s, one layer, torch.compile, cuDNN attention; flash attention" % model
    common = dict(params=params, layers=1, hidden=r["hidden"], heads=r["heads"], seq=r["seq"],
                  gb=r["micro_batch"], mb=r["micro_batch"], par=1, prec="bf16", rc="none")
    row(src, note, "layer_forward_time", "%.3f" % (r["compiled_fwd_s"] * 1e3), "ms", **common)
    fb = r["compiled_fwdbwd_s"] - kern.get(r["name"], 0)
    busy = sum(r["compiled_gpu_s"].values()) / r["compiled_fwdbwd_s"]
    row(src, note + "; elapsed time of back-to-back steps (a separate profile's kernel sum "
        "is %.0f%% of it) less %.2f ms of weight-gradient accumulation adds"
        % (100 * busy, kern.get(r["name"], 0) * 1e3),
        "layer_fwd_bwd_time", "%.3f" % (fb * 1e3), "ms", **common)
