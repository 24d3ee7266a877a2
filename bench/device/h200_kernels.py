#!/usr/bin/env python3
"""Kernel measurements on one Hopper GPU (run on the lent H200, never in CI).

Measures what trainsim's compute model (models/compute.c) takes per GPU kind:
GEMM throughput by shape and precision (bf16, fp8 through cuBLASLt's scaled
matmul), fused attention forward and backward, memory-bound kernels against
HBM bandwidth, the gap between dependent kernels, and clocks under a sustained
GEMM load. Every result is one JSON object per line on stdout and in
$OUT/h200_kernels.jsonl. Timing: CUDA events around back-to-back launches
after warm-up, reps sized to ~25 ms, median of 5 such groups; a 12 s
sustained GEMM first brings the GPU to its power-capped steady state, and
nvidia-smi's clocks are logged before each group of rows.
Usage: python3 bench/device/h200_kernels.py [OUTFILE]
"""
import subprocess, time

import torch
import torch.nn.functional as F
from devtime import output, timeit

emit = output("h200_kernels.jsonl")
dev = torch.device("cuda")


def smi():
    try:
        q = "clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active"
        return subprocess.run(["nvidia-smi", "--query-gpu=" + q, "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception as ex:  # noqa
        return "nvidia-smi failed: %s" % ex


emit(kind="env", torch=torch.__version__, cuda=torch.version.cuda,
     gpu=torch.cuda.get_device_name(0),
     sms=torch.cuda.get_device_properties(0).multi_processor_count,
     cublaslt=str(getattr(torch.backends.cuda, "preferred_blas_library", lambda: "?")()),
     smi=smi())

ONE = torch.tensor(1.0, device=dev)
_cache = {}


def mats(m, n, k, fp8):
    key = (m, n, k, fp8)
    if key in _cache:
        return _cache[key]
    _cache.clear()
    torch.cuda.empty_cache()
    a = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
    b = torch.randn(n, k, device=dev, dtype=torch.bfloat16)
    if fp8:
        a = a.to(torch.float8_e4m3fn)
        b = b.to(torch.float8_e4m3fn)
    _cache[key] = (a, b)
    return a, b


def gemm(m, n, k, dtype, tag, fast=True):
    """y[m,n] = a[m,k] @ b[n,k]^T, as a linear layer's forward runs it."""
    try:
        fp8 = dtype == "fp8"
        a, b = mats(m, n, k, fp8)
        if fp8:
            fn = lambda: torch._scaled_mm(a, b.t(), ONE, ONE, out_dtype=torch.bfloat16,
                                          use_fast_accum=fast)
        else:
            fn = lambda: torch.matmul(a, b.t())
        t = timeit(fn)
        emit(kind="gemm", tag=tag, dtype=dtype, fast_accum=fast if fp8 else None,
             m=m, n=n, k=k, time_s=t, tflops=2 * m * n * k / t / 1e12)
    except Exception as ex:  # noqa
        emit(kind="gemm", tag=tag, dtype=dtype, m=m, n=n, k=k, error=str(ex)[:300])


# 0. sustained 8192^3 bf16 for ~12 s first: throughput per second and clocks,
#    and the GPU brought to the power-capped steady state that training runs
#    in, so that the sweeps after it are not measured on a cool GPU
t0 = time.time()
a = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
for sec in range(12):
    s.record()
    for _ in range(600):
        torch.matmul(a, b)
    e.record(); torch.cuda.synchronize()
    t = s.elapsed_time(e) / 1e3 / 600
    emit(kind="sustain", second=sec, tflops=2 * 8192 ** 3 / t / 1e12, smi=smi() if sec % 3 == 2 else None)
emit(kind="phase", name="sustain", elapsed_s=time.time() - t0)
del a, b
t0 = time.time()
# 1. square sizes and the k dependence at a whole number of waves
for d in ("bf16", "fp8"):
    emit(kind="clock", before="sweeps " + d, smi=smi())
    for s in (1024, 2048, 4096, 6144, 8192, 12288, 16384):
        gemm(s, s, s, d, "square")
    for k in (128, 256, 512, 1024, 2048, 3072, 4096, 8192, 16384):
        gemm(8192, 8192, k, d, "ksweep")
    for m in (256, 512, 1024, 2048, 3072, 4096, 8192, 16384):
        gemm(m, 4096, 4096, d, "msweep")
gemm(8192, 8192, 8192, "fp8", "square_slowaccum", fast=False)
gemm(4096, 4096, 4096, "fp8", "square_slowaccum", fast=False)

# 2. the GEMMs of one transformer layer as the NeMo / Megatron configurations
#    run them: (name, hidden, ffn, heads, kv_heads, gated, tp, tokens per GPU)
LAYERS = [
    ("gpt3-5b", 4096, 16384, 32, 32, False, 1, 8192),
    ("llama2-7b", 4096, 11008, 32, 32, True, 1, 4096),
    ("llama3-8b-cp2", 4096, 14336, 32, 8, True, 1, 4096),
    ("llama2-13b", 5120, 13824, 40, 40, True, 1, 4096),
    ("gpt3-20b", 6144, 24576, 48, 48, False, 2, 4096),
    ("llama2-70b", 8192, 28672, 64, 8, True, 4, 4096),
    ("gpt3-175b-mb1", 12288, 49152, 96, 96, False, 4, 2048),
    ("gpt3-175b-mb2", 12288, 49152, 96, 96, False, 4, 4096),
]
for d in ("fp8", "bf16"):
    emit(kind="clock", before="layer shapes " + d, smi=smi())
    for name, h, f, a, kv, gated, tp, T in LAYERS:
        hd = h // a
        nq = h // tp
        nkv = max(1, kv // tp) * hd
        lin = [("qkv", nq + 2 * nkv, h), ("proj", h, nq),
               ("fc1", (2 if gated else 1) * f // tp, h), ("fc2", h, f // tp)]
        for lname, n, k in lin:
            gemm(T, n, k, d, "%s/%s_fwd" % (name, lname))
            gemm(T, k, n, d, "%s/%s_dgrad" % (name, lname))
            gemm(n, k, T, d, "%s/%s_wgrad" % (name, lname))
emit(kind="phase", name="gemm", elapsed_s=time.time() - t0, smi=smi())

# 3. fused attention (causal, bf16, head dim 128 and 64), forward and backward
from torch.nn.attention import sdpa_kernel, SDPBackend
t0 = time.time()
for backend in ("FLASH_ATTENTION", "CUDNN_ATTENTION"):
    be = getattr(SDPBackend, backend)
    for (b, nh, s, hd) in ((1, 32, 2048, 128), (4, 32, 2048, 128), (1, 32, 4096, 128),
                           (2, 32, 4096, 128), (1, 32, 8192, 128), (1, 16, 8192, 128),
                           (1, 64, 4096, 64), (2, 16, 4096, 128)):
        try:
            q = torch.randn(b, nh, s, hd, device=dev, dtype=torch.bfloat16, requires_grad=True)
            k = torch.randn(b, nh, s, hd, device=dev, dtype=torch.bfloat16, requires_grad=True)
            v = torch.randn(b, nh, s, hd, device=dev, dtype=torch.bfloat16, requires_grad=True)
            with sdpa_kernel(be):
                fwd = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)
                tf = timeit(fwd)
                o = fwd()
                g = torch.randn_like(o)
                bwd = lambda: torch.autograd.grad(o, (q, k, v), g, retain_graph=True)
                tb = timeit(bwd)
            fl = 4 * b * nh * s * s * hd / 2   # causal half, as FlashAttention counts
            emit(kind="attn", backend=backend, b=b, heads=nh, seq=s, hd=hd,
                 fwd_s=tf, bwd_s=tb, fwd_tflops=fl / tf / 1e12, bwd_tflops=2.5 * fl / tb / 1e12)
            del q, k, v, o, g
        except Exception as ex:  # noqa
            emit(kind="attn", backend=backend, b=b, heads=nh, seq=s, hd=hd, error=str(ex)[:300])
emit(kind="phase", name="attn", elapsed_s=time.time() - t0)

# 4. memory-bound kernels: bytes moved / time
t0 = time.time()
_cache.clear(); torch.cuda.empty_cache()
def membound(name, fn, nbytes):
    try:
        t = timeit(fn)
        emit(kind="mem", name=name, bytes=nbytes, time_s=t, GBps=nbytes / t / 1e9)
    except Exception as ex:  # noqa
        emit(kind="mem", name=name, error=str(ex)[:300])

for n in (1 << 20, 1 << 24, 1 << 28, 1 << 30):       # bf16 elements
    x = torch.randn(n, device=dev, dtype=torch.bfloat16)
    z = torch.randn(n, device=dev, dtype=torch.bfloat16)
    y = torch.empty_like(x)
    membound("copy_%d" % n, lambda: y.copy_(x), 4 * n)
    membound("add_%d" % n, lambda: torch.add(x, z, out=y), 6 * n)   # two distinct inputs
    del x, y, z
for (T, h) in ((4096, 4096), (8192, 4096), (4096, 8192), (2048, 12288)):
    x = torch.randn(T, h, device=dev, dtype=torch.bfloat16)
    w = torch.ones(h, device=dev, dtype=torch.bfloat16)
    bb = torch.zeros(h, device=dev, dtype=torch.bfloat16)
    E = T * h * 2
    membound("layernorm_%dx%d" % (T, h), lambda: F.layer_norm(x, (h,), w, bb), 2 * E)
    membound("rmsnorm_%dx%d" % (T, h), lambda: F.rms_norm(x, (h,), w), 2 * E)
    membound("gelu_%dx%d" % (T, h), lambda: F.gelu(x, approximate="tanh"), 2 * E)
    membound("fp8_cast_%dx%d" % (T, h), lambda: x.to(torch.float8_e4m3fn), 3 * T * h)
    # unfused, 2 kernels: the transpose reads and writes 2 B, the cast reads 2, writes 1
    membound("fp8_cast_transpose_%dx%d" % (T, h),
             lambda: x.t().contiguous().to(torch.float8_e4m3fn), 7 * T * h)
    membound("transpose_%dx%d" % (T, h), lambda: x.t().contiguous(), 2 * E)
    membound("softmax_%dx%d" % (T, h), lambda: torch.softmax(x, -1), 2 * E)
    del x, w, bb
emit(kind="phase", name="mem", elapsed_s=time.time() - t0)

# 5. gap between dependent kernels: a CUDA graph of 400 tiny kernels (no CPU
#    launch cost), and a stream of 400 back-to-back 4096^3 GEMMs against one
t0 = time.time()
try:
    x = torch.zeros(1024, device=dev)
    st = torch.cuda.Stream()
    st.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(st):
        for _ in range(3):
            x.add_(1)
    torch.cuda.current_stream().wait_stream(st)
    gr = torch.cuda.CUDAGraph()
    with torch.cuda.graph(gr):
        for _ in range(400):
            x.add_(1)
    t = timeit(lambda: gr.replay())
    emit(kind="gap", name="graph_tiny_kernel", per_kernel_s=t / 400)
    t = timeit(lambda: [x.add_(1) for _ in range(400)])
    emit(kind="gap", name="eager_tiny_kernel", per_kernel_s=t / 400)
    a = torch.randn(4096, 4096, device=dev, dtype=torch.bfloat16)
    t1 = timeit(lambda: torch.matmul(a, a))
    gr2 = torch.cuda.CUDAGraph()
    with torch.cuda.graph(gr2):
        for _ in range(50):
            torch.matmul(a, a)
    t50 = timeit(lambda: gr2.replay())
    emit(kind="gap", name="gemm4096_eager_vs_graph", eager_s=t1, graph_per_s=t50 / 50)
    a = torch.randn(1024, 1024, device=dev, dtype=torch.bfloat16)
    t1 = timeit(lambda: torch.matmul(a, a))
    emit(kind="gap", name="gemm1024_eager", eager_s=t1)
except Exception as ex:  # noqa
    emit(kind="gap", error=str(ex)[:300])
emit(kind="phase", name="gap", elapsed_s=time.time() - t0)

emit(kind="done")
