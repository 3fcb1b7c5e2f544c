#!/usr/bin/python3
# Writes src/kernels/vecmath_tab.h, the tables and coefficients of
# src/kernels/vecmath.c (exp, log, pow, tanh), from mpmath at 60 digits:
#   /usr/bin/python3 tools/vecmath_tab.py > src/kernels/vecmath_tab.h
import struct
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
# log: z in [OFF, 2 OFF) cut in 256 by the top 8 mantissa bits of bits(z) - OFF
OFF = 0x3fe6955500000000
w("#define VM_LOG_OFF 0x%xULL" % OFF)
inv, lh, ll = [], [], []
for i in range(256):
    a = frombits(OFF + (i << 44)); b = frombits(OFF + ((i + 1) << 44))
    c = (mp.mpf(a) + mp.mpf(b)) / 2
    # invc a multiple of 2^-8 near 1/c for which r = z invc - 1 is exact
    # over the interval (|r| < 2^45 ulp(z) at both ends: the product's grid
    # is ulp(z) 2^-8), the one nearest 1/c among those
    def exact(ic):
        for z in (a, frombits(bits(b) - 1)):
            r = Fraction(z) * Fraction(ic) - 1
            ulp = Fraction(2) ** (mp.frexp(z)[1] - 53)
            if not abs(r) < ulp * 2 ** 45:
                return False
        return True
    k0 = int(mp.nint(256 / c))
    ks = [k for k in sorted(range(k0 - 3, k0 + 4), key=lambda k: abs(k - 256 / c)) if exact(k / 256.0)]
    assert ks, i
    ic = ks[0] / 256.0
    inv.append(ic)
    h, l = dd(-mp.log(ic))
    lh.append(h); ll.append(l)
for name, arr in (("vm_log_invc", inv), ("vm_log_hi", lh), ("vm_log_lo", ll)):
    w("static const double %s[256] = {" % name)
    w(",\n".join("  " + ", ".join(hexd(v) for v in arr[i:i + 4]) for i in range(0, 256, 4)) + "};")
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
import sys
print("tanh fit degree %d, max abs error %s (relative %s)" % (deg, mp.nstr(err, 5), mp.nstr(err * 3, 5)), file=sys.stderr)
w("#define VM_TANH_SMALL %s" % hexd(d(TH)))
w("static const double vm_tanh_p[%d] = {  /* highest degree first */" % (deg + 1))
w(",\n".join("  " + ", ".join(hexd(d(v)) for v in poly[i:i + 4]) for i in range(0, deg + 1, 4)) + "};")
print("\n".join(out))
