"""Times PyTorch (Debian's python3-torch 1.13, CPU) on the operations of
bench/linalg_bench.lua's float32 suites and its heads suite, one thread
(TORCH_THREADS=n: n threads).
usage: /usr/bin/python3 bench/torch_bench.py SUITE...   Prints "key seconds"."""
import math
import os
import sys
import time
import torch

torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))

from benchtime import timeit, out


def torch_attention(Q, K, V):
    """Attention as PyTorch users write it where
    torch.nn.functional.scaled_dot_product_attention does not exist (< 2.0)."""
    scale = 1.0 / math.sqrt(Q.shape[-1])
    return torch.softmax(Q @ K.transpose(-2, -1) * scale, dim=-1) @ V


def attention32():
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for n in (2048, 4096, 8192):
            Q, K, V = (torch.randn(n, 64, generator=g, dtype=torch.float32) for _ in range(3))
            assert torch_attention(Q, K, V).dtype == torch.float32
            # linalg's key and repetitions (bench/linalg_bench.lua, attention32)
            out("a32_%d" % n, timeit(lambda: torch_attention(Q, K, V), 3 if n >= 4096 else 9))


def heads():
    """8 heads of d = 64, float64, as one (8, n, d) batch: PyTorch 1.13 has no
    scaled_dot_product_attention, so the explicit formula with baddbmm/bmm."""
    g = torch.Generator().manual_seed(1)
    h, d = 8, 64
    with torch.no_grad():
        for n in (512, 1024):
            Q, K, V = (torch.randn(h, n, d, generator=g, dtype=torch.float64) for _ in range(3))
            S = torch.empty(h, n, n, dtype=torch.float64)

            def f():
                P = torch.softmax(torch.baddbmm(S, Q, K.transpose(1, 2), beta=0,
                                                alpha=1.0 / math.sqrt(d)), dim=-1)
                return torch.bmm(P, V)
            f()
            out("heads_%d" % n, min(timeit(f, 1) for _ in range(9)))   # best of 9, as linalg's


def attention_train():
    """Forward and autograd backward at n = 2048, d = 64, float64 and float32:
    one warm-up iteration, then the best of rounds on the same input tensors
    (as linalg_bench.lua's attention_train)."""
    n = 2048
    for dt, k in ((torch.float64, "64"), (torch.float32, "32")):
        g = torch.Generator().manual_seed(1)
        Q, K, V, dO = (torch.randn(n, 64, generator=g, dtype=dt) for _ in range(4))
        for X in (Q, K, V):
            X.requires_grad_(True)
        fwd = bwd = both = math.inf
        for r in range(8):                    # round 0: the warm-up
            t0 = time.perf_counter()
            O = torch_attention(Q, K, V)
            t1 = time.perf_counter()
            torch.autograd.grad(O, (Q, K, V), dO)
            t2 = time.perf_counter()
            if r > 0:
                fwd, bwd, both = min(fwd, t1 - t0), min(bwd, t2 - t1), min(both, t2 - t0)
        out("tr%s_fwd" % k, fwd)
        out("tr%s_bwd" % k, bwd)
        out("tr%s_all" % k, both)


SUITES = {"attention32": attention32, "heads": heads, "attention_train": attention_train}
for name in sys.argv[1:]:
    if name in SUITES:
        SUITES[name]()
