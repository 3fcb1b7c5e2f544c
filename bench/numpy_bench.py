"""Times NumPy on the same operations as bench/linalg_bench.lua.
usage: /usr/bin/python3 bench/numpy_bench.py SUITE...  (threads via OPENBLAS_NUM_THREADS)
Prints "key seconds" (median of repetitions)."""
import sys
import numpy as np

from benchtime import timeit, out


def dgemm():
    rng = np.random.default_rng(1)
    for n in (256, 1024, 2048):
        A = np.asfortranarray(rng.standard_normal((n, n)))
        B = np.asfortranarray(rng.standard_normal((n, n)))
        inner = {256: 40, 1024: 3, 2048: 1}[n]
        out("dgemm_%d" % n, timeit(lambda: A @ B, 7, inner))


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


def lstsq():
    rng = np.random.default_rng(3)
    for m, n in ((1000, 50), (10000, 200), (100000, 100), (4000, 1000)):
        A = np.asfortranarray(rng.standard_normal((m, n)))
        b = rng.standard_normal(m)
        reps, inner = (3 if m * n >= 1e6 else 7), (10 if m * n < 1e5 else 1)
        out("lstsq_%d_%d" % (m, n), timeit(lambda: np.linalg.lstsq(A, b, rcond=None), reps, inner))


def modified_gram_schmidt(V):
    """The seed text's NumPy loop (004), verbatim apart from the error check."""
    n, k = V.shape
    Q = V.copy().astype(float)
    for i in range(k):
        norm = np.linalg.norm(Q[:, i])
        Q[:, i] /= norm
        for j in range(i + 1, k):
            Q[:, j] -= (Q[:, i] @ Q[:, j]) * Q[:, i]
    return Q


def gs():
    V = np.random.default_rng(5).standard_normal((2000, 200))
    out("gs_mgs", timeit(lambda: modified_gram_schmidt(V), 3))
    out("gs_householder", timeit(lambda: np.linalg.qr(V), 5))


def seed_attention(Q, K, V):
    """The seed text's implementation (004): scores, stable softmax, weights @ V."""
    d_k = Q.shape[-1]
    scores = Q @ K.T / np.sqrt(d_k)
    scores_shifted = scores - scores.max(axis=-1, keepdims=True)
    exp_scores = np.exp(scores_shifted)
    weights = exp_scores / exp_scores.sum(axis=-1, keepdims=True)
    return weights @ V


def attention():
    rng = np.random.default_rng(1)
    for n in (512, 2048, 4096, 8192):
        Q, K, V = (rng.standard_normal((n, 64)) for _ in range(3))
        out("attn_%d" % n, timeit(lambda: seed_attention(Q, K, V), 3 if n >= 4096 else 5))


def elementwise():
    A = np.asfortranarray(np.random.default_rng(6).random((1000, 1000)))
    for f in ("exp", "log", "sin", "tanh", "sqrt"):
        g = getattr(np, f)
        out("ew_" + f, timeit(lambda: g(A), 7, 5))


def random():
    np.random.seed(0)
    g = np.random.default_rng(0)
    out("rng_randn", timeit(lambda: np.random.randn(1000, 1000), 7))
    out("rng_rand", timeit(lambda: np.random.rand(1000, 1000), 7))
    out("rng_normal", timeit(lambda: g.standard_normal((1000, 1000)), 7))
    out("rng_random", timeit(lambda: g.random((1000, 1000)), 7))


def sgemm():
    rng = np.random.default_rng(1)
    for n in (256, 1024, 2048):
        A = np.asfortranarray(rng.standard_normal((n, n)), dtype=np.float32)
        B = np.asfortranarray(rng.standard_normal((n, n)), dtype=np.float32)
        inner = {256: 40, 1024: 3, 2048: 1}[n]
        out("sgemm_%d" % n, timeit(lambda: A @ B, 7, inner))


def lstsq32():
    """10000 x 200 in float32. np.linalg.lstsq computes in float64 and casts
    the result back (numpy.linalg._commonType); SciPy calls LAPACK's s routines."""
    rng = np.random.default_rng(3)
    A = np.asfortranarray(rng.standard_normal((10000, 200)), dtype=np.float32)
    b = rng.standard_normal(10000).astype(np.float32)
    assert np.linalg.lstsq(A, b, rcond=None)[0].dtype == np.float32
    out("ls32_numpy", timeit(lambda: np.linalg.lstsq(A, b, rcond=None), 5))
    try:
        import scipy.linalg
    except ImportError:
        return
    for drv in ("gelsd", "gelsy"):
        f = lambda: scipy.linalg.lstsq(A, b, lapack_driver=drv, check_finite=False)
        assert f()[0].dtype == np.float32
        out("ls32_scipy_" + drv, timeit(f, 5))


def csv():
    """np.loadtxt on bench/linalg_bench.lua's 100 MB CSV (written here if
    missing, with the same text)."""
    import os
    path = os.environ.get("LINALG_BENCH_CSV", "/tmp/linalg_bench.csv")
    if not os.path.exists(path):
        i = np.arange(500000)[:, None]
        j = np.arange(10)[None, :]
        np.savetxt(path, ((i * 7919 + j * 104729) % 1000003) / 997 - 500, delimiter=",", fmt="%.17g")
    out("csv_load", timeit(lambda: np.loadtxt(path, delimiter=","), 3))


def linalg2():
    """Factor once, solve many (SciPy's lu_factor / lu_solve, cho_factor /
    cho_solve at n = 500), and 10000 least-squares problems of 20 x 3: an
    np.linalg.lstsq loop, and np.linalg.solve stacked over the normal
    equations (A^T A x = A^T b, one call for all)."""
    import scipy.linalg as sl
    rng = np.random.default_rng(1)
    n = 500
    A = np.asfortranarray(rng.standard_normal((n, n)))
    S = A.T @ A + n * np.eye(n)
    b1, b50 = rng.standard_normal((n, 1)), rng.standard_normal((n, 50))
    F, C = sl.lu_factor(A), sl.cho_factor(S)
    out("lu_factor", timeit(lambda: sl.lu_factor(A), 7))
    out("lu_solve_1", timeit(lambda: sl.lu_solve(F, b1), 7, 100))
    out("lu_solve_50", timeit(lambda: sl.lu_solve(F, b50), 7, 10))
    out("cho_factor", timeit(lambda: sl.cho_factor(S), 7))
    out("cho_solve_1", timeit(lambda: sl.cho_solve(C, b1), 7, 100))
    out("cho_solve_50", timeit(lambda: sl.cho_solve(C, b50), 7, 10))
    As = rng.standard_normal((10000, 20, 3))
    bs = rng.standard_normal((10000, 20, 1))

    def loop():
        for i in range(len(As)):
            np.linalg.lstsq(As[i], bs[i], rcond=None)
    out("loop_lstsq", timeit(loop, 3))

    def normal():
        At = np.swapaxes(As, 1, 2)
        return np.linalg.solve(At @ As, At @ bs)
    out("stacked_normal", timeit(normal, 5))


SUITES = {"csv": csv, "linalg2": linalg2, "random": random, "sgemm": sgemm, "lstsq32": lstsq32, "elementwise": elementwise, "attention": attention, "dgemm": dgemm, "tiny": tiny, "lstsq": lstsq, "gs": gs}
for name in sys.argv[1:]:
    if name in SUITES:
        SUITES[name]()
