#!/usr/bin/env python3
"""Derives models/compute.c's Hopper constants from the H200 measurements, so
that anyone can redo it after a new run:

- H200_SUSTAIN and H200_FP8_RATIO: the medians of measured / predicted over the
  GEMMs of transformer-layer shapes (rows tagged "model/gemm"), bf16 and fp8,
  applied to the constants the prediction was made with (the GEMMs are compute
  bound, so a prediction scales as 1 / constant);
- the fused-attention size curve E k / (k + k0) (k = mean keys per query x
  hd / 128, s/2 causal), forward and backward, fitted in log space on the
  executed FLOPs (the causal half plus the diagonal blocks of 128) of the
  cuDNN rows.

Usage:
  ./trainsim validate tests/validation/h200-kernels.csv --format csv > pred.csv
  python3 bench/device/fit_hopper.py KERNELS.jsonl tests/validation/h200-kernels.csv \
      pred.csv models/compute.c
"""
import csv, json, math, re, statistics, sys

kernels, rows_csv, pred_csv, compute_c = sys.argv[1:5]
src = open(compute_c).read()
old = {k: float(re.search(r"#define %s ([0-9.]+)" % k, src).group(1))
       for k in ("H200_SUSTAIN", "H200_FP8_RATIO")}
tag = {r["id"]: r["other_parallel"] for r in csv.DictReader(open(rows_csv))}
ratio = {"bf16": [], "fp8": []}
for r in csv.DictReader(open(pred_csv)):
    if r["metric"].startswith("gemm_") and "/" in tag.get(r["id"], "") and r["status"] == "ok":
        d = "fp8" if "_fp8_" in r["metric"] else "bf16"
        ratio[d].append(float(r["published"]) / float(r["predicted"]))
mb, mf = statistics.median(ratio["bf16"]), statistics.median(ratio["fp8"])
print("layer-shape GEMMs: %d bf16, %d fp8; median measured/predicted %.4f, %.4f"
      % (len(ratio["bf16"]), len(ratio["fp8"]), mb, mf))
print("#define H200_SUSTAIN %.3f" % (old["H200_SUSTAIN"] * mb))
print("#define H200_FP8_RATIO %.3f" % (old["H200_FP8_RATIO"] * mf / mb))

att = [json.loads(l) for l in open(kernels)]
att = [r for r in att if r["kind"] == "attn" and r.get("backend") == "CUDNN_ATTENTION"
       and "error" not in r]
PEAK = 989.4   # dense bf16 TFLOP/s, H100/H200 SXM data sheet
for key in ("fwd_tflops", "bwd_tflops"):
    best = None
    for k0 in range(0, 2001, 10):
        xs, ys = [], []
        for r in att:
            k = r["seq"] / 2 * r["hd"] / 128
            xs.append(k / (k + k0))
            ys.append(r[key] * (1 + 128 / r["seq"]) / PEAK)   # executed FLOPs
        le = sum(math.log(y / x) for x, y in zip(xs, ys)) / len(xs)
        err = sum((math.log(y / x) - le) ** 2 for x, y in zip(xs, ys))
        if best is None or err < best[0]:
            best = (err, k0, math.exp(le), max(abs(math.log(y / x) - le) for x, y in zip(xs, ys)))
    print("attention %s: E %.3f, k0 %d (%d shapes, worst %.1f%%)"
          % (key[:3], best[2], best[1], len(att), 100 * (math.exp(best[3]) - 1)))
