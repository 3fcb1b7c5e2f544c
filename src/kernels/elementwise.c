/*
** kernels/elementwise.c: elementwise kernels (no Lua here): math functions, binary
** comparisons and extremes, where and clip, all over broadcasting operands;
** written once in elementwise_gen.h for double and float (see generate.h).
**
** Speed: on x86-64 glibc, the loops of exp, log, sin, ... call libmvec's
** SIMD versions of the double and the float functions (declared below with
** the simd attribute, which glibc's own headers only do under -ffast-math),
** compiled for AVX-512, AVX2 and baseline SSE2 and chosen at load time
** (target_clones). libmvec's results are within 4 ulp of libm's; NaN and
** Inf take libm's scalar path.
*/
#include <math.h>

#include "kernels.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#define LAK_SIMD "notinbranch"
#define LAK_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
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
#endif
#else
#define LAK_CLONES
#endif

/* One contiguous loop per function: y[i] = expr(x[i]). */
#define UNARY(name, expr) \
  LAK_CLONES static void LAK(u_##name)(const LAK_REAL *x, LAK_REAL *y, size_t n) { \
    size_t i; \
    for (i = 0; i < n; i++) { LAK_REAL v = x[i]; y[i] = (expr); } }

/* NaN propagates through maximum and minimum (NumPy's rule); comparisons
** with NaN are false except ne. */
#define BMAX(x, y) ((x) > (y) || (x) != (x) ? (x) : (y))
#define BMIN(x, y) ((x) < (y) || (x) != (x) ? (x) : (y))

#define BINARY(name, expr) \
  static void LAK(b_##name)(int m, int n, LAK(Arg) a, LAK(Arg) b, LAK_REAL *c, int ldc) { \
    int i, j; \
    for (j = 0; j < n; j++) { \
      const LAK_REAL *pa = a.p + j * a.cs, *pb = b.p + j * b.cs; \
      LAK_REAL *pc = c + (ptrdiff_t)j * ldc; \
      for (i = 0; i < m; i++) { \
        LAK_REAL x = pa[i * a.rs], y = pb[i * b.rs]; pc[i] = (expr); } } }

#define TERNARY(expr) \
  for (j = 0; j < n; j++) { \
    const LAK_REAL *pa = a.p + j * a.cs, *pb = b.p + j * b.cs, *pk = k.p + j * k.cs; \
    LAK_REAL *pc = c + (ptrdiff_t)j * ldc; \
    for (i = 0; i < m; i++) { \
      LAK_REAL x = pa[i * a.rs], y = pb[i * b.rs], z = pk[i * k.rs]; pc[i] = (expr); } }

double lak_pow10(int n) {
  static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  double r = 1e9;
  if (n < 9) return p10[n];
  for (; n > 9 && !isinf(r); n--) r *= 10.0;      /* inf past 1e308, as NumPy's */
  return r;
}

#define LAK_GENERIC_FILE "elementwise_gen.h"
#include "generate.h"
