#!/usr/bin/env python3
"""Derives models/compute.c's Blackwell fused-attention curve from NVIDIA's own
published measurement of cuDNN's SDPA on a B200, the way fit_hopper.py derives
Hopper's from ours (this project had no Blackwell GPU to measure):

  NVIDIA/cudnn-frontend, benchmark/sdpa_benchmark_training/artifacts/
  sdpa_fp8_benchmark_results_NVIDIA_B200.csv at commit 0b1577c8 (its bf16
  rows: cuDNN 9.13.1 called through cudnn-frontend, as Transformer Engine
  calls it; batch 1, 128 query and 8 key/value heads, head dim 128, causal;
  kernel time from the PyTorch profiler with the L2 flushed, median).

Its TFLOP/s count the causal half of the score matrix (forward 2 b h s^2 d,
backward 2.5x); trainsim counts the executed FLOPs (the diagonal blocks of 128
too, as flash() in models/wl_layer.c does), so each rate is scaled by
(s/2 + 64) / (s/2) before it is divided by the B200's dense bf16 peak (2250
TFLOP/s, the catalog's). The curve E k / (k + k0), k = s/2 (head dim 128), is
fitted in log space over 1K-32K tokens, the sequences training runs use (the
64K and 128K rows fall off, 1494 and 1422 forward, which the curve does not
describe).

Usage: python3 bench/device/fit_blackwell_attn.py
"""
import math

PEAK = 2250.0   # B200 dense bf16 TFLOP/s (models/hw.c)
# seq, forward TFLOP/s, backward TFLOP/s (bf16 rows of the file above)
ROWS = [(512, 244.143, 200.594), (1024, 561.287, 376.937), (2048, 907.547, 545.088),
        (4096, 1141.140, 832.907), (8192, 1384.231, 994.850), (16384, 1475.253, 1151.690),
        (32768, 1514.764, 1180.250), (65536, 1493.798, 1235.860),
        (131072, 1421.873, 1127.667)]


def fit(rows, col):
    best = None
    for k0 in range(0, 4001, 10):
        xs, ys = [], []
        for r in rows:
            s = r[0]
            k = s / 2
            xs.append(k / (k + k0))
            ys.append(r[col] * (1 + 128 / s) / PEAK)   # executed FLOPs
        le = sum(math.log(y / x) for x, y in zip(xs, ys)) / len(xs)
        err = sum((math.log(y / x) - le) ** 2 for x, y in zip(xs, ys))
        if best is None or err < best[0]:
            worst = max(abs(math.log(y / x) - le) for x, y in zip(xs, ys))
            best = (err, k0, math.exp(le), worst)
    return best


fitted = [r for r in ROWS if 1024 <= r[0] <= 32768]
for name, col in (("forward", 1), ("backward", 2)):
    _, k0, e, worst = fit(fitted, col)
    print("attention %s: E %.3f, k0 %d (%d sequence lengths, worst %.1f%%)"
          % (name, e, k0, len(fitted), 100 * (math.exp(worst) - 1)))
