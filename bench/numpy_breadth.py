"""The NumPy side of the breadth benchmark (bench/breadth.lua drives it).
A server: one command a line on stdin, one answer a line on stdout, so that
the Lua side can time an operation, then have NumPy time its equivalent at
once (interleaved, both under the same load):
  load DIR                  every DIR/*.npy as a variable of its file name
                            (x1e4.npy -> x1e4); n x 1 files become 1-D arrays
  def ID<TAB>SIZE<TAB>EXPR  the operation ID: EXPR evaluated with the
                            variables of SIZE bound without it (A100 -> A)
  check ID                  checksum of the result: "sum abssum count"
  time ID MINTIME           the best of one timing of `inner` calls, inner
                            fixed at the first call so that a timing takes
                            >= MINTIME s; answers "seconds_per_call inner"
  version                   NumPy's version
  quit
Answers "ok", the time, or "err message". usage: python3 numpy_breadth.py"""
import glob
import gc
import math
import os
import sys
import time

import numpy as np
try:                                    # softmax, block_diag: SciPy's, where it is installed
    import scipy.special as sp
    import scipy.linalg as sl
except ImportError:
    sp = sl = None

data = {}
ops = {}
inner = {}


def load(path):
    for f in sorted(glob.glob(os.path.join(path, "*.npy"))):
        a = np.load(f)
        if a.ndim == 2 and a.shape[1] == 1:
            a = a[:, 0].copy()          # a column: NumPy's natural 1-D vector
        data[os.path.basename(f)[:-4]] = a


def setrows(w, p, b):
    w[p, :] = b
    return w


def setcols(w, p, x):
    w[:, p] = x
    return w


def define(key, size, expr):
    env = {"np": np, "math": math, "rng": np.random.default_rng(0), "setrows": setrows,
           "setcols": setcols}
    for name, a in data.items():
        if name.endswith(size):
            env[name[:-len(size)]] = a
    env["Mb"] = env["A"] > 0 if "A" in env else None   # a bool mask (la's too: la.gt gives bool)
    if "A" in env:
        n = env["A"].shape[0]
        env["P0"] = np.arange(1, n + 1) * 7919 % n          # la's permutation, 0-based
        env["Mr"] = env["c"] > 0                            # a bool mask of rows
        env["W"] = np.zeros((n, n), dtype=env["A"].dtype, order="F")   # set's target
    if "Z" in env:
        env["Zb"] = env["Z"] > 0                            # an all-false bool mask
    if "x" in env:
        env["xb"] = env["x"].tobytes()                      # frombuffer's input
    env["sp"] = sp
    env["sl"] = sl
    f = eval("lambda: " + expr, env)
    f()                                                 # fails here, not in a timing
    ops[key] = f


def checksum(res):
    """sum(a_k * w_k) and sum(|a_k| * w_k) over the entries in column-major
    order, w_k = k mod 7 + 1 (k from 0), and the count: the Lua side computes
    the same of linalg's result"""
    a = np.asarray(res, dtype=np.float64).ravel(order="F")
    w = np.arange(a.size) % 7 + 1.0
    return float(np.sum(a * w)), float(np.sum(np.abs(a) * w)), a.size


def timeit(key, mintime):
    f = ops[key]
    if key not in inner:             # from the best of 3 or more warm calls, as the Lua side
        gc.collect()
        f()
        t, n, t1 = math.inf, 0, time.perf_counter()
        while n < 3 or time.perf_counter() - t1 < mintime / 4:
            t0 = time.perf_counter()
            f()
            t, n = min(t, time.perf_counter() - t0), n + 1
        inner[key] = max(1, int(math.ceil(mintime / max(t, 1e-9))))
    k = inner[key]
    f()                              # one call untimed, as the Lua side
    t0 = time.perf_counter()
    for _ in range(k):
        f()
    return (time.perf_counter() - t0) / k, k


def main():
    for line in sys.stdin:
        line = line.rstrip("\n")
        cmd, _, rest = line.partition(" ")
        try:
            if cmd == "quit":
                break
            elif cmd == "version":
                ans = np.__version__
            elif cmd == "load":
                load(rest)
                ans = "ok"
            elif cmd == "def":
                key, size, expr = rest.split("\t")
                define(key, size, expr)
                ans = "ok"
            elif cmd == "check":
                ans = "%.17g %.17g %d" % checksum(ops[rest]())
            elif cmd == "time":
                key, mintime = rest.split(" ")
                t, k = timeit(key, float(mintime))
                ans = "%.9g %d" % (t, k)
            else:
                ans = "err unknown command " + cmd
        except Exception as e:  # the Lua side prints it and drops the op
            ans = "err " + (type(e).__name__ + ": " + str(e)).replace("\n", " ")
        sys.stdout.write(ans + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
