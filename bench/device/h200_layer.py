#!/usr/bin/env python3
"""One transformer layer's forward and backward on one Hopper GPU (run on the
lent H200, never in CI), to check trainsim's per-layer compute model end to end.

Each layer is written as Megatron-core's local (non-Transformer-Engine) spec
computes it: pre-norm, fused QKV, rotary (Llama), causal fused attention
(PyTorch SDPA), projection, residual, norm, MLP (SwiGLU or GeLU), residual;
bf16 weights and activations. Timed eager and under torch.compile (which
fuses the elementwise kernels as Megatron's fused kernels do); one profiled
run splits the GPU time into GEMM, attention and other kernels and idle.
JSON lines on stdout and in $OUT/h200_layer.jsonl.
"""
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from devtime import output, timeit as _timeit

emit = output("h200_layer.jsonl")
dev = torch.device("cuda")
torch.manual_seed(0)


def timeit(fn):
    return _timeit(fn, target_s=0.05, min_reps=2, max_reps=100)


class Layer(nn.Module):
    def __init__(self, h, f, nh, nkv, llama):
        super().__init__()
        self.h, self.nh, self.nkv, self.hd, self.llama = h, nh, nkv, h // nh, llama
        Norm = nn.RMSNorm if llama else nn.LayerNorm
        self.n1, self.n2 = Norm(h), Norm(h)
        self.qkv = nn.Linear(h, (nh + 2 * nkv) * self.hd, bias=not llama)
        self.proj = nn.Linear(h, h, bias=not llama)
        self.fc1 = nn.Linear(h, (2 if llama else 1) * f, bias=not llama)
        self.fc2 = nn.Linear(f, h, bias=not llama)

    def rope(self, x, cos, sin):
        x1, x2 = x.chunk(2, -1)
        return x * cos + torch.cat((-x2, x1), -1) * sin

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        nh, nkv, hd = self.nh, self.nkv, self.hd
        qkv = self.qkv(self.n1(x))
        q, k, v = qkv.split((nh * hd, nkv * hd, nkv * hd), -1)
        q = q.view(b, s, nh, hd).transpose(1, 2)
        k = k.view(b, s, nkv, hd).transpose(1, 2)
        v = v.view(b, s, nkv, hd).transpose(1, 2)
        if self.llama:
            q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=nkv != nh)
        x = x + self.proj(o.transpose(1, 2).reshape(b, s, self.h))
        y = self.fc1(self.n2(x))
        if self.llama:
            g, u = y.chunk(2, -1)
            y = F.silu(g) * u
        else:
            y = F.gelu(y, approximate="tanh")
        return x + self.fc2(y)


def category(name):
    n = name.lower()
    if any(t in n for t in ("fmha", "flash", "attn", "attention", "sdpa", "cudnn")):
        return "attention"
    if any(t in n for t in ("gemm", "xmma", "cutlass", "nvjet", "sm90_", "cublas", "matmul")):
        return "gemm"
    return "other"


def profile(fn, n=3):
    from torch.profiler import profile as prof_, ProfilerActivity
    fn(); torch.cuda.synchronize()
    with prof_(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
    cats, kernels = {}, []
    for ev in p.key_averages():
        t = getattr(ev, "self_device_time_total", None)
        if t is None:
            t = getattr(ev, "self_cuda_time_total", 0)
        if t <= 0:
            continue
        c = category(ev.key)
        cats[c] = cats.get(c, 0) + t / 1e6 / n
        kernels.append((t / 1e6 / n, ev.count // n, c, ev.key[:90]))
    kernels.sort(reverse=True)
    return cats, kernels[:25]


CONFIGS = [
    # name, hidden, ffn, heads, kv heads, llama, micro-batch, seq, compile
    ("llama2-7b", 4096, 11008, 32, 32, True, 1, 4096, True),
    ("gpt3-5b", 4096, 16384, 32, 32, False, 4, 2048, True),
    ("llama3-8b", 4096, 14336, 32, 8, True, 1, 8192, True),
    ("llama2-13b", 5120, 13824, 40, 40, True, 1, 4096, True),
    ("llama2-70b", 8192, 28672, 64, 8, True, 1, 4096, True),
]
emit(kind="env", torch=torch.__version__, gpu=torch.cuda.get_device_name(0))
for name, h, f, nh, nkv, llama, b, s, comp in CONFIGS:
    t0 = time.time()
    try:
        layer = Layer(h, f, nh, nkv, llama).to(dev, torch.bfloat16)
        x = torch.randn(b, s, h, device=dev, dtype=torch.bfloat16, requires_grad=True)
        hd = h // nh
        ang = torch.arange(s, device=dev)[:, None] * torch.rand(hd // 2, device=dev)[None]
        cos = torch.cat((ang.cos(), ang.cos()), -1).to(torch.bfloat16)
        sin = torch.cat((ang.sin(), ang.sin()), -1).to(torch.bfloat16)
        g = torch.randn(b, s, h, device=dev, dtype=torch.bfloat16)
        rec = dict(kind="layer", name=name, hidden=h, ffn=f, heads=nh, kv_heads=nkv, llama=llama,
                   micro_batch=b, seq=s)
        variants = [("eager", layer)]
        if comp:
            variants.append(("compiled", torch.compile(layer)))
        for vname, mod in variants:
            fwd = lambda: mod(x, cos, sin)
            step = lambda: mod(x, cos, sin).backward(g)
            t_inf = None
            if vname == "eager":      # a compiled no-grad call would compile again
                with torch.no_grad():
                    t_inf = timeit(fwd)
            t_fwd = timeit(fwd)
            t_fb = timeit(step)
            cats, top = profile(step)
            rec.update({vname + "_fwd_s": t_fwd, vname + "_fwdbwd_s": t_fb,
                        vname + "_fwd_nograd_s": t_inf, vname + "_gpu_s": cats})
            emit(kind="kernels", name=name, variant=vname, top=top)
        rec["elapsed_s"] = time.time() - t0
        emit(**rec)
        del layer, x, g, variants
        torch.cuda.empty_cache()
    except Exception as ex:  # noqa
        emit(kind="layer", name=name, error=repr(ex)[:400])
emit(kind="done")
