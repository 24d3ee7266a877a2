"""Shared by the device scripts: JSON-lines output and CUDA-event timing."""
import json, os, statistics, sys

import torch


def output(default_name):
    """emit(**fields): one JSON object per line, on stdout and in the file
    named by argv[1], else $OUT/default_name."""
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.environ.get("OUT", "."),
                                                              default_name)
    out = open(path, "w")

    def emit(**kw):
        line = json.dumps(kw)
        print(line, flush=True)
        out.write(line + "\n")
        out.flush()
    return emit


def timeit(fn, target_s=0.025, groups=5, min_reps=3, max_reps=200):
    """Seconds per call of fn: after three warm-up calls, groups of
    back-to-back calls sized to target_s, timed by CUDA events; the median."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); fn(); e.record(); torch.cuda.synchronize()
    one = max(s.elapsed_time(e) / 1e3, 1e-6)
    reps = int(min(max_reps, max(min_reps, target_s / one)))
    res = []
    for _ in range(groups):
        s.record()
        for _ in range(reps):
            fn()
        e.record()
        torch.cuda.synchronize()
        res.append(s.elapsed_time(e) / 1e3 / reps)
    return statistics.median(res)
