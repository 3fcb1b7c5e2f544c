# tools/bench_sort.py: NumPy's side of tools/bench_sort.lua (same cases, the
# same memory layout: Fortran order, axis 0 = linalg's dim 1)
import sys, time
import numpy as np
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
only = sys.argv[2] if len(sys.argv) > 2 else None
rng = np.random.default_rng(1)
def r(m, n): return np.asfortranarray(rng.standard_normal((m, n)))
A1, A2 = r(100, 100), r(1000, 1000)
v4, v6 = rng.standard_normal(10000), rng.standard_normal(1000000)
S1, S2 = r(100, 100), r(1000, 1000)
B1 = r(150, 150)[20:120, 30:130]
B2 = r(1500, 1500)[200:1200, 300:1300]
P1 = A1 @ A1.T + np.eye(100) * 100
P1s = np.asfortranarray((P1 + P1.T) * 0.5)
C1 = r(100, 100) * 0.01
C2 = r(1000, 1000) * (1 / 32)
def best(f, k):
    b = float("inf")
    for _ in range(reps):
        t = time.process_time()
        for _ in range(k): f()
        t = (time.process_time() - t) / k
        b = min(b, t)
    return b
cases = [
  ("sort_col_100", lambda: np.sort(A1, 0), 50),
  ("sort_col_1000", lambda: np.sort(A2, 0), 1),
  ("sort_row_100", lambda: np.sort(A1, 1), 50),
  ("sort_row_1000", lambda: np.sort(A2, 1), 1),
  ("argsort_col_100", lambda: np.argsort(A1, 0), 50),
  ("argsort_col_1000", lambda: np.argsort(A2, 0), 1),
  ("sort_v1e4", lambda: np.sort(v4), 50),
  ("sort_v1e6", lambda: np.sort(v6), 1),
  ("argsort_v1e6", lambda: np.argsort(v6), 1),
  ("copyview_100", lambda: B1.copy(order="F"), 500),
  ("copyview_1000", lambda: B2.copy(order="F"), 1),
  ("vstack_100", lambda: np.vstack([A1, S1]), 500),
  ("vstack_1000", lambda: np.vstack([A2, S2]), 1),
  ("hstack_1000", lambda: np.hstack([A2, S2]), 1),
  ("tile_100", lambda: np.tile(A1, (3, 3)), 100),
  ("tile_1000", lambda: np.tile(A2, (2, 2)), 1),
  ("transpose_100", lambda: np.asfortranarray(A1.T), 500),
  ("transpose_1000", lambda: np.asfortranarray(A2.T), 1),
  ("reshape_view_1000", lambda: np.reshape(B2, (500, 2000), order="F"), 1),
  ("kron_100_10", lambda: np.kron(A1, np.ones((10, 10))), 3),
  ("flipud_1000", lambda: np.flipud(A2).copy(order="F"), 1),
  ("fliplr_1000", lambda: np.fliplr(A2).copy(order="F"), 1),
  ("triu_1000", lambda: np.triu(A2), 1),
  ("diag_1000", lambda: np.diag(v4[:1000]), 1),
  ("eye_1000", lambda: np.eye(1000), 1),
  ("zeros_1000", lambda: np.zeros((1000, 1000)), 1),
  ("full_1000", lambda: np.full((1000, 1000), 2.5), 1),
  ("linspace_1e6", lambda: np.linspace(0, 1, 1000000), 1),
  ("arange_1e6", lambda: np.arange(1000000.0), 1),
  ("roll_1000", lambda: np.roll(A2, 3, 0), 1),
  ("mpower_100_10", lambda: np.linalg.matrix_power(C1, 10), 50),
  ("mpower_1000_10", lambda: np.linalg.matrix_power(C2, 10), 1),
  ("cholesky_100", lambda: np.linalg.cholesky(P1s), 200),
]
for name, f, k in cases:
    if only == "list":
        print(name)
    elif only is None or only == name or (only[0] == "~" and only[1:] in name):
        print("%s %.9g" % (name, best(f, k)))
