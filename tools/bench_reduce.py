"""NumPy's side of tools/bench_reduce.lua, and the driver: interleaved rounds
(linalg, NumPy, linalg, ...), best time per case, the ratio linalg/NumPy.
usage: OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tools/bench_reduce.py [ROUNDS [LUA [FILTER]]]"""
import os, subprocess, sys, time
import numpy as np


def best(f):
    inner = 1
    while True:
        t0 = time.process_time()
        for _ in range(inner):
            f()
        t = time.process_time() - t0
        if t >= 0.02:
            break
        inner *= 4
    b = t / inner
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(inner):
            f()
        b = min(b, (time.process_time() - t0) / inner)
    return b


def numpy_cases():
    rng = np.random.default_rng(1)
    M = {n: np.asfortranarray(rng.standard_normal((n, n))) for n in (100, 1000)}
    V = {n: rng.standard_normal(n) for n in (10000, 1000000)}
    cases = []
    add = lambda name, f: cases.append((name, f))
    for n in (100, 1000):
        A = M[n]
        add("max1_%d" % n, lambda A=A: A.max(axis=0))
        add("max2_%d" % n, lambda A=A: A.max(axis=1))
        add("maxall_%d" % n, lambda A=A: A.max())
        add("min2_%d" % n, lambda A=A: A.min(axis=1))
        add("argmax1_%d" % n, lambda A=A: A.argmax(axis=0))
        add("argmax2_%d" % n, lambda A=A: A.argmax(axis=1))
        add("argminall_%d" % n, lambda A=A: np.unravel_index(A.argmin(), A.shape))
        add("sum1_%d" % n, lambda A=A: A.sum(axis=0))
        add("sum2_%d" % n, lambda A=A: A.sum(axis=1))
        add("sumall_%d" % n, lambda A=A: A.sum())
        add("mean2_%d" % n, lambda A=A: A.mean(axis=1))
        add("prod1_%d" % n, lambda A=A: A.prod(axis=0))
        add("var1_%d" % n, lambda A=A: A.var(axis=0))
        add("std2_%d" % n, lambda A=A: A.std(axis=1))
        add("cumsum1_%d" % n, lambda A=A: A.cumsum(axis=0))
        add("cummax2_%d" % n, lambda A=A: np.maximum.accumulate(A, axis=1))
        add("normfro_%d" % n, lambda A=A: np.linalg.norm(A, "fro"))
        add("norm1_%d" % n, lambda A=A: np.linalg.norm(A, 1))
        add("norminf_%d" % n, lambda A=A: np.linalg.norm(A, np.inf))
        add("vecnorm1_%d" % n, lambda A=A: np.linalg.norm(A, axis=0))
        add("vecnorm2_%d" % n, lambda A=A: np.linalg.norm(A, axis=1))
        add("trace_%d" % n, lambda A=A: A.trace())
    for n in (10000, 1000000):
        v = V[n]
        add("vnorm_%d" % n, lambda v=v: np.linalg.norm(v))
        add("vnorm1_%d" % n, lambda v=v: np.linalg.norm(v, 1))
        add("vmax_%d" % n, lambda v=v: v.max())
        add("vargmax_%d" % n, lambda v=v: v.argmax())
        add("vsum_%d" % n, lambda v=v: v.sum())
    return cases


def parse(text):
    r = {}
    for line in text.splitlines():
        k, v = line.split()
        r[k] = float(v)
    return r


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--numpy":
        flt = sys.argv[2] if len(sys.argv) > 2 else ""
        for name, f in numpy_cases():
            if flt in name:
                print("%s %.6g" % (name, best(f)), flush=True)
        sys.exit(0)
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    lua = sys.argv[2] if len(sys.argv) > 2 else "lua5.4"
    flt = sys.argv[3] if len(sys.argv) > 3 else ""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    L, N = {}, {}
    for _ in range(rounds):
        for cmd, acc in (([lua, "tools/bench_reduce.lua"] + ([flt] if flt else []), L),
                         ([sys.executable, __file__, "--numpy", flt], N)):
            out = parse(subprocess.run(cmd, env=env, capture_output=True, text=True,
                                       check=True).stdout)
            for k, v in out.items():
                acc[k] = min(acc.get(k, v), v)
    print("%-18s %12s %12s %8s" % ("case", "linalg s", "numpy s", "ratio"))
    ratios = []
    for k in L:
        if k in N:
            ratios.append(L[k] / N[k])
            print("%-18s %12.3g %12.3g %8.2f" % (k, L[k], N[k], L[k] / N[k]))
    ratios.sort()
    print("median ratio %.2f over %d cases" % (ratios[len(ratios) // 2], len(ratios)))
