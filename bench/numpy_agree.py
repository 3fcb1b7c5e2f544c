"""Solves the problems bench/agree.lua wrote with np.linalg.lstsq(rcond=None).
usage: /usr/bin/python3 bench/numpy_agree.py DIR"""
import os
import sys
import numpy as np

d = sys.argv[1]


def read(path):
    with open(path) as f:
        m, n = map(int, f.readline().split())
        return np.array([list(map(float, f.readline().split())) for _ in range(m)]).reshape(m, n)


def write(path, A):
    A = np.atleast_2d(A)
    with open(path, "w") as f:
        f.write("%d %d\n" % A.shape)
        for row in A:
            f.write(" ".join("%.17g" % v for v in row) + "\n")


i = 1
while os.path.exists(os.path.join(d, "A%d" % i)):
    A, b = read(os.path.join(d, "A%d" % i)), read(os.path.join(d, "b%d" % i))
    x, res, rank, sv = np.linalg.lstsq(A, b, rcond=None)
    write(os.path.join(d, "x%d" % i), x)
    write(os.path.join(d, "s%d" % i), sv.reshape(-1, 1))
    write(os.path.join(d, "m%d" % i), np.array([[rank], [res[0] if res.size else -1.0]]))
    i += 1
