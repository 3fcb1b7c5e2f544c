#!/usr/bin/python3
"""Elementwise loops: linalg (tools/bench_elem.lua) against NumPy, 1 thread,
interleaved rounds, best of each. usage: /usr/bin/python3 tools/bench_elem.py [rounds] [lua]"""
import os, subprocess, sys, time
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
lua = sys.argv[2] if len(sys.argv) > 2 else "lua5.4"
build = "build" if lua == "lua5.4" else "build-" + lua
env = dict(os.environ, LUA_PATH="./lua/?.lua;./lua/?/init.lua;;",
           LUA_CPATH="./%s/?.so;./build/bench/?.so;;" % build)
if not os.path.exists("build/bench/benchclock.so"):
    os.makedirs("build/bench", exist_ok=True)
    subprocess.check_call("cc -O2 -shared -fPIC -I/usr/include/%s -o build/bench/benchclock.so bench/clock.c"
                          % ("lua5.4" if lua == "lua5.4" else lua), shell=True)

sizes = [("100x100", (100, 100), 400), ("1000x1000", (1000, 1000), 6), ("1e6", (1000000,), 6)]
ops = [
    ("gt(A,0)", lambda A, B, P: np.greater(A, 0)),
    ("lt(A,B)", lambda A, B, P: np.less(A, B)),
    ("A/2", lambda A, B, P: A / 2),
    ("A/3", lambda A, B, P: A / 3),
    ("A*2", lambda A, B, P: A * 2),
    ("A+B", lambda A, B, P: A + B),
    ("emul(A,B)", lambda A, B, P: A * B),
    ("pow(A,2)", lambda A, B, P: A ** 2),
    ("pow(P,2.5)", lambda A, B, P: np.power(P, 2.5)),
    ("clip(A,-.5,.5)", lambda A, B, P: np.clip(A, -0.5, 0.5)),
    ("maximum(A,B)", lambda A, B, P: np.maximum(A, B)),
    ("where(A,A,B)", lambda A, B, P: np.where(A, A, B)),
    ("log(P)", lambda A, B, P: np.log(P)),
    ("tanh(A)", lambda A, B, P: np.tanh(A)),
    ("exp(A)", lambda A, B, P: np.exp(A)),
]
only = os.environ.get("ONLY")

def numpy_round():
    out = {}
    rng = np.random.default_rng(1)
    for name, shape, reps in sizes:
        A, B = rng.standard_normal(shape), rng.standard_normal(shape)
        if len(shape) == 2:
            A, B = np.asfortranarray(A), np.asfortranarray(B)
        P = rng.random(shape) + 0.5
        for op, f in ops:
            if only and op != only: continue
            f(A, B, P)
            best = float("inf")
            for _ in range(3):
                t0 = time.perf_counter()
                for _ in range(reps): f(A, B, P)
                best = min(best, (time.perf_counter() - t0) / reps)
            out[(op, name)] = best
    return out

la, npt = {}, {}
for r in range(rounds):
    res = subprocess.run([lua, "tools/bench_elem.lua"] + ([only] if only else []), env=env,
                         capture_output=True, text=True, check=True).stdout
    for line in res.splitlines():
        op, name, t = line.split("\t")
        la[(op, name)] = min(la.get((op, name), float("inf")), float(t))
    for k, t in numpy_round().items():
        npt[k] = min(npt.get(k, float("inf")), t)

ratios = []
print("%-16s %-10s %12s %12s %7s" % ("op", "size", "linalg us", "numpy us", "ratio"))
for op, _ in ops:
    for name, _, _ in sizes:
        k = (op, name)
        if k in la and k in npt:
            ratios.append(la[k] / npt[k])
            print("%-16s %-10s %12.1f %12.1f %7.2f" % (op, name, la[k] * 1e6, npt[k] * 1e6, la[k] / npt[k]))
ratios.sort()
if ratios:
    print("median ratio %.2f" % ratios[len(ratios) // 2])
