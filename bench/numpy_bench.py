"""Times NumPy on the same operations as bench/linalg_bench.lua.
usage: /usr/bin/python3 bench/numpy_bench.py SUITE...  (threads via OPENBLAS_NUM_THREADS)
Prints "key seconds" (median of repetitions)."""
import sys
import time
import numpy as np


def timeit(f, reps, inner=1):
    f()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            f()
        t.append((time.perf_counter() - t0) / inner)
    t.sort()
    return t[(len(t) - 1) // 2]


def out(key, s):
    print("%s %.9g" % (key, s), flush=True)


def dgemm():
    rng = np.random.default_rng(1)
    for n in (256, 1024, 2048):
        A = np.asfortranarray(rng.standard_normal((n, n)))
        B = np.asfortranarray(rng.standard_normal((n, n)))
        inner = {256: 40, 1024: 3, 2048: 1}[n]
        out("dgemm_%d" % n, timeit(lambda: A @ B, 5 if n >= 2048 else 7, inner))


def tiny():
    X = np.array([[1., 2], [3, 4], [5, 6]]); w = np.array([2., -1])
    A = np.array([[1., 2], [3, 4]]); B = np.array([[5., 6, 7], [8, 9, 10]])
    C = np.array([[4., 3], [2, 1]])
    N = 200000
    out("tiny_matvec", timeit(lambda: X @ w, 7, N))
    out("tiny_matmul", timeit(lambda: A @ B, 7, N))
    rows = [[1., 2], [3, 4], [5, 6]]  # prebuilt on both sides: conversion only
    out("tiny_build", timeit(lambda: np.array(rows), 7, N))
    out("tiny_add", timeit(lambda: A + C, 7, N))


SUITES = {"dgemm": dgemm, "tiny": tiny}
for name in sys.argv[1:]:
    if name in SUITES:
        SUITES[name]()
