"""The timing the Python peers (numpy_bench.py, torch_bench.py) share with
bench/linalg_bench.lua: two warm-up calls, then the median of reps timings
of `inner` calls each; results printed as "key seconds" lines."""
import time


def timeit(f, reps, inner=1):
    f()
    f()  # two warm-up calls, as in bench/linalg_bench.lua
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
