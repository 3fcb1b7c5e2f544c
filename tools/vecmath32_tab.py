#!/usr/bin/python3
# Writes src/kernels/vecmath32_tab.h, the tables and coefficients of
# src/kernels/vecmath32.c (pow of floats in double precision), from mpmath:
#   /usr/bin/python3 tools/vecmath32_tab.py > src/kernels/vecmath32_tab.h
import struct
from fractions import Fraction
import mpmath as mp
mp.mp.dps = 50

def bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]
def frombits(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]
def roundbits(x, nbits):  # x rounded to nbits significant bits
    m, e = mp.frexp(mp.mpf(x))
    return float(mp.ldexp(mp.nint(mp.ldexp(m, nbits)), e - nbits))
def fit(f, a, b, deg):    # near-minimax (Chebyshev) coefficients, lowest first, and the error
    c, err = mp.chebyfit(f, [a, b], deg + 1, error=True)
    return [float(v) for v in reversed(c)], err
def arr(name, ctype, vals, fmt):
    return ("static const %s %s[%d] = {\n" % (ctype, name, len(vals)) +
            ",\n".join("  " + ", ".join(fmt(v) for v in vals[i:i + 4]) for i in range(0, len(vals), 4)) + "};")

out = []
w = out.append
w("/* kernels/vecmath32_tab.h: written by tools/vecmath32_tab.py (mpmath); do not edit */")
# log2: x (a float widened) = 2^k z, z in [OFF, 2 OFF) cut in 16 by the top 4
# mantissa bits of bits(z) - OFF; invc = 1/c to 29 bits (1 for the interval
# holding 1), so z invc (24 + 29 bits) and r = z invc - 1 are exact; logc =
# -log2(invc) rounded
OFF = 0x3fe6955500000000
w("#define VM32_LOG_OFF 0x%xULL" % OFF)
inv, lc, rmin, rmax = [], [], 0, 0
for i in range(16):
    a = frombits(OFF + (i << 48)); b = frombits(OFF + ((i + 1) << 48))
    c = (mp.mpf(a) + mp.mpf(b)) / 2
    ic = 1.0 if a <= 1.0 < b else roundbits(1 / c, 29)
    inv.append(ic); lc.append(float(-mp.log(ic, 2)))
    for z in (a, frombits(bits(b) - (1 << 29))):   # the last float of the interval
        r = Fraction(z) * Fraction(ic) - 1
        rmin = min(rmin, r); rmax = max(rmax, r)
w(arr("vm32_log_invc", "double", inv, float.hex))
w(arr("vm32_log_c", "double", lc, float.hex))
# log2(1 + r) = r q(r), q of degree LOGDEG
LOGDEG = 7
w("#define VM32_LOGDEG %d" % LOGDEG)
ql, err = fit(lambda r: mp.log(1 + r, 2) / r if r != 0 else 1 / mp.log(2),
              mp.mpf(float(rmin)), mp.mpf(float(rmax)), LOGDEG)
w("/* log2(1 + r) = r q(r), r in [%s, %s]: relative error %s */" %
  (mp.nstr(float(rmin), 5), mp.nstr(float(rmax), 5), mp.nstr(err * mp.log(2), 3)))
w(arr("vm32_log_q", "double", ql, float.hex))
# exp2: 2^(j/16)
w(arr("vm32_exp_t", "double", [float(mp.mpf(2) ** (mp.mpf(j) / 16)) for j in range(16)], float.hex))
EXPDEG = 5
w("#define VM32_EXPDEG %d" % (EXPDEG - 1))
qe, err = fit(lambda f: mp.expm1(f * mp.log(2)) / f if f != 0 else mp.log(2),
              mp.mpf(-1) / 32, mp.mpf(1) / 32, EXPDEG - 1)
w("/* 2^f - 1 = f e(f), |f| <= 1/32: relative error %s */" % mp.nstr(err / mp.log(2), 3))
w(arr("vm32_exp_e", "double", qe, float.hex))
print("\n".join(out))
