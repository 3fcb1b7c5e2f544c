/*
** kernels/arith.c: elementwise, copy and product kernels (no Lua here),
** written once in arith_gen.h for double and float (see generate.h).
*/
#include <cblas.h>
#include <float.h>
#include <string.h>

#include <math.h>

#include "kernels.h"
#include "loops.h"
#include "vecmath.h"

/* Below this many multiply-adds a plain loop beats the BLAS call overhead.
** A * B of n x n, 1 thread, OpenBLAS 0.3.21 (Haswell kernels) on AMD EPYC,
** us, the loop against gemm: n = 4 0.16 / 0.18, 6 0.42 / 0.20, 8 0.27 /
** 0.23, 10 0.52 / 0.32, 12 0.79 / 0.34 (the crossover had been measured
** near 3000 on an older machine). */
#define LAK_TINY_GEMM 128

/* Speed: each operation is a set of column loops (loops.h) that vectorize
** (the compiler may not contract a * b + c into an FMA: -ffp-contract=off,
** so results are those of the scalar code). pow of doubles is
** kernels/vecmath.c's where its AVX-512 loops run (within 1 ulp, C99's
** special cases, the same bits at every place); elsewhere, and for floats,
** libmvec's SIMD pow and powf
** (glibc >= 2.22 on x86-64, declared with the simd attribute, which glibc's
** headers only do under -ffast-math): within 1 ulp of libm's pow on
** ordinary arguments, exact where the power is an exactly representable
** integer (3^4, 2^-3), libm's scalar path for NaN, Inf and the other
** special values. */
#if LAK_GNU_X86
#if __GLIBC_PREREQ(2, 22)
__attribute__((simd("notinbranch"))) extern double pow(double, double);
__attribute__((simd("notinbranch"))) extern float powf(float, float);
#endif
#endif

/* powf(x, y) for a fixed y = k/2, k an integer, 0 < |k| <= 2 LAK_HALFPOW + 1
** (arith_gen.h takes y = 2, 1/2, 1, -1, 0 first), in double: x^n, n =
** |k| div 2, by squaring (x^2 exact, at most 4 more products), times
** sqrt(x) for odd k, the reciprocal for y < 0. That is within 4 ulps of
** double before the one rounding to float, so the result is correctly
** rounded unless x^y lies within 2^-27 ulp of a float midpoint (the
** general path, vecmath.c's log and exp, misses a few in 10^6), and it is
** faster: pow(P, 2.5) of 1000 x 1000 took 1.1 ms that way (NumPy 1.24's
** powf 1.0). C99's special values: an odd k makes -inf +inf (its sqrt is
** NaN) and -0 +0 (the + 0), a negative x NaN (sqrt's). One loop for each
** n (the products unrolled, in registers: a pass per product over a
** buffer in L1 was bound by its loads and stores) and each of odd k and
** y < 0. */
#define LAK_HALFPOW 8

/* arith_gen.h's general pow of floats */
static void lak_sc_pow(size_t m, const float *pa, ptrdiff_t ra, const float *pb, ptrdiff_t rb,
                       float *pc);

/* k = 2y when y is a half-integer of the range above, else 0 */
static int halfpow_k(float y) {
  float k = 2 * y;
  if (!(fabsf(k) <= 2 * LAK_HALFPOW + 1) || k != truncf(k)) return 0;
  return (int)k;
}

/* b^n, n a constant of the caller's: the branches fold away */
static inline __attribute__((always_inline)) double ipow(double b, unsigned n) {
  double p = (n & 1) ? b : 1.0;
  if (n >= 2) { b *= b; if (n & 2) p *= b; }
  if (n >= 4) { b *= b; if (n & 4) p *= b; }
  if (n >= 8) { b *= b; if (n & 8) p *= b; }
  return p;
}

/* odd k: -inf read as +inf, and the root's factor */
#define HP_ROOT(v) ((v) == -HUGE_VAL ? HUGE_VAL : (v))
#define HP_LOOP(expr) for (i = 0; i < m; i++) { double v = x[i]; z[i] = (float)(expr); }
#define HP_FN(N) \
  LAK_CLONES static void hp##N(size_t m, const float *restrict x, int odd, int neg, \
                               float *restrict z) { \
    size_t i; \
    if (!odd && !neg) { HP_LOOP(ipow(v, N)) } \
    else if (!odd) { HP_LOOP(1.0 / ipow(v, N)) } \
    else if (!neg) { HP_LOOP(ipow(HP_ROOT(v), N) * sqrt(HP_ROOT(v)) + 0.0) } \
    else { HP_LOOP(1.0 / (ipow(HP_ROOT(v), N) * sqrt(HP_ROOT(v)) + 0.0)) } \
  }
HP_FN(0) HP_FN(1) HP_FN(2) HP_FN(3) HP_FN(4) HP_FN(5) HP_FN(6) HP_FN(7) HP_FN(8)

/* the column loop (loops.h's signature) for y = *pb: a column of x (ra =
** 1, as a fixed y makes it), else the general pow */
static void lak_s_halfpow(size_t m, const float *pa, ptrdiff_t ra, const float *pb, ptrdiff_t rb,
                          float *pc) {
  typedef void (*Hp)(size_t, const float *, int, int, float *);
  static const Hp fn[LAK_HALFPOW + 1] = {hp0, hp1, hp2, hp3, hp4, hp5, hp6, hp7, hp8};
  int k = halfpow_k(*pb);
  if (ra != 1) { lak_sc_pow(m, pa, ra, pb, rb, pc); return; }
  fn[(k < 0 ? -k : k) / 2](m, pa, k & 1, k < 0, pc);
}

#define LAK_GENERIC_FILE "arith_gen.h"
#include "generate.h"
