#!/usr/bin/python3
# Writes src/kernels/vecmath_tab.h, the tables and coefficients of
# src/kernels/vecmath.c (exp, log, pow, tanh), from mpmath at 60 digits:
#   /usr/bin/python3 tools/vecmath_tab.py > src/kernels/vecmath_tab.h
import struct
import sys
from fractions import Fraction
import mpmath as mp
mp.mp.dps = 60

def d(x):           # nearest double
    return float(mp.mpf(x))
def hexd(x):
    return float.hex(x)
def bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]
def frombits(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]
def dd(x):           # x as a double-double hi + lo
    hi = d(x)
    return hi, d(mp.mpf(x) - mp.mpf(hi))
def roundbits(x, nbits):  # x rounded to nbits significant bits
    m, e = mp.frexp(mp.mpf(x))
    return float(mp.ldexp(mp.nint(mp.ldexp(m, nbits)), e - nbits))

out = []
w = out.append
w("/* kernels/vecmath_tab.h: written by tools/vecmath_tab.py (mpmath); do not edit */")
ln2 = mp.log(2)
# exp: 2^(j/16) = T_hi[j] + T_lo[j] (16 entries: two AVX-512 registers)
N = 16
w("#define VM_EXP_N %d" % N)
w("static const double vm_exp_hi[%d] = {" % N)
w(",\n".join("  " + ", ".join(hexd(dd(mp.mpf(2) ** (mp.mpf(j) / N))[0]) for j in range(i, i + 4))
             for i in range(0, N, 4)) + "};")
w("static const double vm_exp_lo[%d] = {" % N)
w(",\n".join("  " + ", ".join(hexd(dd(mp.mpf(2) ** (mp.mpf(j) / N))[1]) for j in range(i, i + 4))
             for i in range(0, N, 4)) + "};")
hiN = roundbits(ln2 / N, 38)
w("#define VM_INVLN2N %s" % hexd(d(N / ln2)))
w("#define VM_LN2HIN %s" % hexd(hiN))
w("#define VM_LN2LON %s" % hexd(d(ln2 / N - mp.mpf(hiN))))
# log: z in [OFF, 2 OFF) cut in 16 by the top 4 mantissa bits of bits(z) - OFF;
# invc = 1/c rounded (1 exactly for the interval holding 1), logc = -log(invc)
# as hi + lo
OFF = 0x3fe6955500000000
w("#define VM_LOG_OFF 0x%xULL" % OFF)
inv, lh, ll = [], [], []
for i in range(16):
    a = frombits(OFF + (i << 48)); b = frombits(OFF + ((i + 1) << 48))
    c = (mp.mpf(a) + mp.mpf(b)) / 2
    ic = 1.0 if a <= 1.0 < b else d(1 / c)
    inv.append(ic)
    # hi a multiple of 2^-42 (as k ln2hi is): k ln2hi + hi is exact
    h = float(mp.nint(-mp.log(ic) * 2 ** 42) / 2 ** 42)
    lh.append(h); ll.append(d(-mp.log(ic) - mp.mpf(h)))
    # vecmath.c adds rh = z invc - 1 to k ln2 + hi by a fast two-sum: hi = 0
    # or exponent(hi) >= exponent(rh) over the interval
    rmax = max(abs(Fraction(z) * Fraction(ic) - 1) for z in (a, frombits(bits(b) - 1)))
    assert h == 0 or mp.frexp(abs(h))[1] >= mp.frexp(float(rmax))[1], i
for name, arr in (("vm_log_invc", inv), ("vm_log_hi", lh), ("vm_log_lo", ll)):
    w("static const double %s[16] = {" % name)
    w(",\n".join("  " + ", ".join(hexd(v) for v in arr[i:i + 4]) for i in range(0, 16, 4)) + "};")
# log1p(r) = r + r^2 q(r) on the reduced range (r = z invc - 1 over every
# interval, exactly): q of degree 8 by Remez's exchange, on 1.001 times
# the range, for vecmath.c's vm_logq_at (Estrin's scheme)
def mpq(f):
    return mp.mpf(f.numerator) / f.denominator
rlo = mpq(min(Fraction(frombits(OFF + (i << 48))) * Fraction(inv[i]) - 1 for i in range(16)))
rhi = mpq(max(Fraction(frombits(OFF + ((i + 1) << 48) - 1)) * Fraction(inv[i]) - 1 for i in range(16)))
def logq(r):
    return mp.mpf(-1) / 2 if r == 0 else (mp.log1p(r) - r) / r ** 2
def remez(f, lo, hi, deg, iters=8, grid=4000):
    xs = [lo + (hi - lo) * k / grid for k in range(grid + 1)]
    fx = [f(x) for x in xs]
    nodes = sorted((lo + hi) / 2 + (hi - lo) / 2 * mp.cos(mp.pi * (2 * k + 1) / (2 * (deg + 2)))
                   for k in range(deg + 2))
    for _ in range(iters):
        A = mp.matrix(deg + 2, deg + 2); rhs = mp.matrix(deg + 2, 1)
        for i, x in enumerate(nodes):
            for j in range(deg + 1):
                A[i, j] = x ** j
            A[i, deg + 1] = (-1) ** i
            rhs[i] = f(x)
        sol = mp.lu_solve(A, rhs)
        c = [sol[j] for j in range(deg + 1)]
        err = [fx[k] - mp.polyval(c[::-1], xs[k]) for k in range(grid + 1)]
        ext = [k for k in range(grid + 1) if k in (0, grid) or
               (abs(err[k]) >= abs(err[k - 1]) and abs(err[k]) >= abs(err[k + 1]))]
        sel = []
        for k in ext:                  # alternating signs, the larger of a run
            if sel and mp.sign(err[k]) == mp.sign(err[sel[-1]]):
                if abs(err[k]) > abs(err[sel[-1]]):
                    sel[-1] = k
            else:
                sel.append(k)
        while len(sel) > deg + 2:
            sel.pop(0 if abs(err[sel[0]]) < abs(err[sel[-1]]) else -1)
        if len(sel) == deg + 2:
            nodes = [xs[k] for k in sel]
    return c, max(abs(e) for e in err)
qc, qerr = remez(logq, rlo * mp.mpf("1.001"), rhi * mp.mpf("1.001"), 8)
w("/* log: q(r) = (log1p(r) - r) / r^2 for r in [%s, %s] */" % (mp.nstr(rlo, 6), mp.nstr(rhi, 6)))
w("static const double vm_logq[9] = {")
w(",\n".join("  " + ", ".join(hexd(d(v)) for v in qc[i:i + 4]) for i in range(0, 9, 4)) + "};")
print("log q fit degree 8 on [%s, %s], max abs error %s" % (mp.nstr(rlo, 6), mp.nstr(rhi, 6), mp.nstr(qerr, 5)), file=sys.stderr)
l2h = roundbits(ln2, 42)
w("#define VM_LN2HI %s" % hexd(l2h))
w("#define VM_LN2LO %s" % hexd(d(ln2 - mp.mpf(l2h))))
# tanh on [0, TH]: x + x u P(u), u = x^2, P near-minimax (Chebyshev fit)
TH = mp.mpf(9) / 16
def g(u):
    if u == 0:
        return mp.mpf(-1) / 3
    s = mp.sqrt(u)
    return (mp.tanh(s) / s - 1) / u
deg = int(__import__('os').environ.get('TANH_DEG', '11'))
poly, err = mp.chebyfit(g, [0, TH * TH], deg + 1, error=True)
print("tanh fit degree %d, max abs error %s (relative %s)" % (deg, mp.nstr(err, 5), mp.nstr(err * 3, 5)), file=sys.stderr)
w("#define VM_TANH_SMALL %s" % hexd(d(TH)))
w("static const double vm_tanh_p[%d] = {  /* highest degree first */" % (deg + 1))
w(",\n".join("  " + ", ".join(hexd(d(v)) for v in poly[i:i + 4]) for i in range(0, deg + 1, 4)) + "};")
print("\n".join(out))
