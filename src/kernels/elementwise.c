/*
** kernels/elementwise.c: elementwise kernels (no Lua here): math functions, binary
** comparisons and extremes, where and clip, all over broadcasting operands.
**
** Speed: on x86-64 glibc, the loops of exp, log, sin, ... call libmvec's
** SIMD versions (declared below with the simd attribute, which glibc's
** own headers only do under -ffast-math), compiled for AVX-512, AVX2 and
** baseline SSE2 and chosen at load time (target_clones). libmvec's results
** are within 4 ulp of libm's; NaN and Inf take libm's scalar path.
*/
#include <math.h>

#include "kernels.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#define LAK_SIMD "notinbranch"
#define LAK_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#if __GLIBC_PREREQ(2, 22)
__attribute__((simd(LAK_SIMD))) extern double exp(double);
__attribute__((simd(LAK_SIMD))) extern double log(double);
__attribute__((simd(LAK_SIMD))) extern double sin(double);
__attribute__((simd(LAK_SIMD))) extern double cos(double);
#endif
#if __GLIBC_PREREQ(2, 35)
__attribute__((simd(LAK_SIMD))) extern double log1p(double);
__attribute__((simd(LAK_SIMD))) extern double expm1(double);
__attribute__((simd(LAK_SIMD))) extern double log2(double);
__attribute__((simd(LAK_SIMD))) extern double log10(double);
__attribute__((simd(LAK_SIMD))) extern double tan(double);
__attribute__((simd(LAK_SIMD))) extern double tanh(double);
__attribute__((simd(LAK_SIMD))) extern double sinh(double);
__attribute__((simd(LAK_SIMD))) extern double cosh(double);
__attribute__((simd(LAK_SIMD))) extern double asin(double);
__attribute__((simd(LAK_SIMD))) extern double acos(double);
__attribute__((simd(LAK_SIMD))) extern double atan(double);
#endif
#else
#define LAK_CLONES
#endif

/* ---------------------------------------------------------------- unary */

/* sign keeps NaN and the sign of zero (NumPy gives 0 for -0; the
** difference is invisible to ==); round is half to even (NumPy's
** np.round, IEEE rint in the default rounding mode). */
static double sgn(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }

/* One contiguous loop per function: y[i] = expr(x[i]). */
#define UNARY(name, expr) \
  LAK_CLONES static void u_##name(const double *x, double *y, size_t n) { \
    size_t i; \
    for (i = 0; i < n; i++) { double v = x[i]; y[i] = (expr); } }

UNARY(exp, exp(v))       UNARY(log, log(v))       UNARY(log1p, log1p(v))
UNARY(expm1, expm1(v))   UNARY(sqrt, sqrt(v))     UNARY(abs, fabs(v))
UNARY(sign, sgn(v))      UNARY(floor, floor(v))   UNARY(ceil, ceil(v))
UNARY(round, rint(v))    UNARY(sin, sin(v))       UNARY(cos, cos(v))
UNARY(tan, tan(v))       UNARY(tanh, tanh(v))     UNARY(sinh, sinh(v))
UNARY(cosh, cosh(v))     UNARY(asin, asin(v))     UNARY(acos, acos(v))
UNARY(atan, atan(v))     UNARY(log2, log2(v))     UNARY(log10, log10(v))
UNARY(isnan, isnan(v) ? 1.0 : 0.0)
UNARY(isinf, isinf(v) ? 1.0 : 0.0)
UNARY(isfinite, isfinite(v) ? 1.0 : 0.0)

typedef void (*Unary)(const double *, double *, size_t);

/* in lak_Fn's order */
static const Unary unary[LAK_NFN] = {
  u_exp, u_log, u_log1p, u_expm1, u_sqrt, u_abs, u_sign, u_floor, u_ceil,
  u_round, u_sin, u_cos, u_tan, u_tanh, u_sinh, u_cosh, u_asin, u_acos,
  u_atan, u_log2, u_log10, u_isnan, u_isinf, u_isfinite
};

void lak_unary(lak_Fn f, int m, int n, const double *A, int lda, double *B, int ldb) {
  int j;
  if (m <= 0 || n <= 0) return;
  if (lda == m && ldb == m) { unary[f](A, B, (size_t)m * (size_t)n); return; }
  for (j = 0; j < n; j++)
    unary[f](A + (ptrdiff_t)j * lda, B + (ptrdiff_t)j * ldb, (size_t)m);
}

double lak_unary1(lak_Fn f, double x) {
  double y;
  unary[f](&x, &y, 1);
  return y;
}

/* ---------------------------------------------------------------- binary */

/* NaN propagates through maximum and minimum (NumPy's rule); comparisons
** with NaN are false except ne. */
#define BMAX(x, y) ((x) > (y) || (x) != (x) ? (x) : (y))
#define BMIN(x, y) ((x) < (y) || (x) != (x) ? (x) : (y))

#define BINARY(name, expr) \
  static void b_##name(int m, int n, lak_Arg a, lak_Arg b, double *c, int ldc) { \
    int i, j; \
    for (j = 0; j < n; j++) { \
      const double *pa = a.p + j * a.cs, *pb = b.p + j * b.cs; \
      double *pc = c + (ptrdiff_t)j * ldc; \
      for (i = 0; i < m; i++) { \
        double x = pa[i * a.rs], y = pb[i * b.rs]; pc[i] = (expr); } } }

BINARY(max, BMAX(x, y))  BINARY(min, BMIN(x, y))
BINARY(lt, x < y)        BINARY(le, x <= y)       BINARY(gt, x > y)
BINARY(ge, x >= y)       BINARY(eq, x == y)       BINARY(ne, x != y)
BINARY(atan2, atan2(x, y)) BINARY(hypot, hypot(x, y))

typedef void (*Binary)(int, int, lak_Arg, lak_Arg, double *, int);

static const Binary binary[LAK_NBIN] = {
  b_max, b_min, b_lt, b_le, b_gt, b_ge, b_eq, b_ne, b_atan2, b_hypot
};

void lak_binary(lak_Bin op, int m, int n, lak_Arg a, lak_Arg b, double *c, int ldc) {
  if (m > 0 && n > 0) binary[op](m, n, a, b, c, ldc);
}

/* ---------------------------------------------------------------- ternary */

#define TERNARY(expr) \
  for (j = 0; j < n; j++) { \
    const double *pa = a.p + j * a.cs, *pb = b.p + j * b.cs, *pk = k.p + j * k.cs; \
    double *pc = c + (ptrdiff_t)j * ldc; \
    for (i = 0; i < m; i++) { \
      double x = pa[i * a.rs], y = pb[i * b.rs], z = pk[i * k.rs]; pc[i] = (expr); } }

/* c = x ~= 0 ? y : z (NaN counts as nonzero, as bool(nan) in NumPy) */
void lak_where(int m, int n, lak_Arg a, lak_Arg b, lak_Arg k, double *c, int ldc) {
  int i, j;
  if (m <= 0 || n <= 0) return;
  TERNARY(x != 0.0 ? y : z)
}

/* c = minimum(maximum(x, lo), hi): NumPy's clip (NaN propagates; lo > hi
** gives hi) */
void lak_clip(int m, int n, lak_Arg a, lak_Arg b, lak_Arg k, double *c, int ldc) {
  int i, j;
  if (m <= 0 || n <= 0) return;
  TERNARY(BMIN(BMAX(x, y), z))
}
