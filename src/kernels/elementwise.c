/*
** kernels/elementwise.c: elementwise kernels (no Lua here): math functions, binary
** comparisons and extremes, where and clip, all over broadcasting operands;
** written once in elementwise_gen.h for double and float (see generate.h).
**
** Speed: exp, log and tanh of doubles are kernels/vecmath.c's where its
** AVX-512 loops run (within 1, 1 and 1.5 ulp, the same bits at every place
** of a vector; its portable loops are slower than libmvec's on AVX2).
** On x86-64 glibc, the other loops of log, sin, ... call libmvec's
** SIMD versions of the double and the float functions (declared below with
** the simd attribute, which glibc's own headers only do under -ffast-math),
** compiled for AVX-512, AVX2 and baseline SSE2 and chosen at load time
** (target_clones); atan2 too (glibc >= 2.35), two operands a lane. libmvec's
** results are within 4 ulp of libm's; NaN and Inf take libm's scalar path,
** and so do atan2's zeros (its signs of zero are C99's, as NumPy's).
** hypot stays libm's: libmvec's is 1 ulp off on 16% of normal pairs
** (hypot(1, 1) among them), and libm's is already as fast as NumPy's.
*/
#include <math.h>

#include "kernels.h"
#include "loops.h"
#include "vecmath.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#define LAK_SIMD "notinbranch"
/* fn and fnf have SIMD versions in libmvec */
#define LAK_VECTOR(fn) \
  __attribute__((simd(LAK_SIMD))) extern double fn(double); \
  __attribute__((simd(LAK_SIMD))) extern float fn##f(float);
#if __GLIBC_PREREQ(2, 22)
LAK_VECTOR(exp) LAK_VECTOR(log) LAK_VECTOR(sin) LAK_VECTOR(cos)
#endif
#if __GLIBC_PREREQ(2, 35)
LAK_VECTOR(log1p) LAK_VECTOR(expm1) LAK_VECTOR(log2) LAK_VECTOR(log10)
LAK_VECTOR(tan) LAK_VECTOR(tanh) LAK_VECTOR(sinh) LAK_VECTOR(cosh)
LAK_VECTOR(asin) LAK_VECTOR(acos) LAK_VECTOR(atan)
__attribute__((simd(LAK_SIMD))) extern double atan2(double, double);
__attribute__((simd(LAK_SIMD))) extern float atan2f(float, float);
#endif
#endif

/* One contiguous loop per function: y[i] = expr(x[i]). */
#define UNARY(name, expr) \
  LAK_CLONES static void LAK(u_##name)(const LAK_REAL *x, LAK_REAL *y, size_t n) { \
    size_t i; \
    for (i = 0; i < n; i++) { LAK_REAL v = x[i]; y[i] = (expr); } }

/* NaN propagates through maximum and minimum (NumPy's rule); comparisons
** with NaN are false except ne. Each is a select, not a branch, so the
** loops vectorize (compares and blends). */
#define BMAX(x, y) ((x) > (y) || (x) != (x) ? (x) : (y))
#define BMIN(x, y) ((x) < (y) || (x) != (x) ? (x) : (y))

/* b_name: the column loops of a binary operation (loops.h) */
#define BINARY(name, expr) LAK_COL2(LAK(b_##name), LAK_REAL, expr)

double lak_pow10(int n) {
  static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  double r = 1e9;
  if (n < 9) return p10[n];
  for (; n > 9 && !isinf(r); n--) r *= 10.0;      /* inf past 1e308, as NumPy's */
  return r;
}

#define LAK_GENERIC_FILE "elementwise_gen.h"
#include "generate.h"
