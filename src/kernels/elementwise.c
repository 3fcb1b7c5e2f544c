/*
** kernels/elementwise.c: elementwise kernels (no Lua here): math functions, binary
** comparisons and extremes, where and clip, all over broadcasting operands;
** written once in elementwise_gen.h for double and float (see generate.h).
**
** Speed: exp, log, log10 and tanh of doubles are kernels/vecmath.c's where
** its AVX-512 loops run (within 1, 1, 1 and 1.5 ulp, the same bits at every place
** of a vector; its portable loops are slower than libmvec's on AVX2).
** On x86-64 glibc, the other loops of log, sin, ... call libmvec's
** SIMD versions of the double and the float functions (declared below with
** the simd attribute, which glibc's own headers only do under -ffast-math),
** compiled for AVX-512, AVX2 and baseline SSE2 and chosen at load time
** (target_clones); atan2 too (glibc >= 2.35), two operands a lane. libmvec's
** results are within 4 ulp of libm's; NaN and Inf take libm's scalar path,
** and so do atan2's zeros (its signs of zero are C99's, as NumPy's).
** fmod and mod are exact without libm's loop (elementwise_gen.h says how;
** libm's for NaN, infinities, y = 0 and quotients past 2^51, 2^22 in float).
** hypot is elementwise_gen.h's (libmvec's is 1 ulp off on 16% of normal
** pairs, hypot(1, 1) among them; libm's took 15 ns a pair, as NumPy's):
** within half an ulp, or libm's for NaN, infinities and the extremes.
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels.h"
#include "loops.h"
#include "vecmath.h"

#if LAK_GNU_X86
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

/* One contiguous loop per function: y[i] = expr(x[i]); UNARYM for the
** streaming ones (LAK_CLONES_MEM, loops.h). */
#define UNARYK(clones, name, expr) \
  clones static void LAK(u_##name)(const LAK_REAL *x, LAK_REAL *y, size_t n) { \
    size_t i; \
    for (i = 0; i < n; i++) { LAK_REAL v = x[i]; y[i] = (expr); } }
/* UNARY: libmvec's vector functions and the scalar libm one need not
** agree to the bit (sin of float64: 166 of 300300 entries apart), and the
** loop gave the entries past the last whole vector to the scalar one: a
** view's columns of 1001 gave other bits than its packed copy. So the
** last n mod LAK_TAILV entries pass through the vector loop too, padded
** with copies of the first of them: an entry's bits do not depend on
** where it sits. But one entry alone (a number, a column of one) is the
** scalar function's, math's value (la.exp(1) == math.exp(1) on every
** machine). The loops are vectorized because this file is built at
** -O3 (the Makefile; -O2's cost model left such loops scalar); LAK_OPAQUE
** (loops.h) keeps the padded loop from being unrolled into scalar calls. */
#define LAK_TAILV (64 / sizeof(LAK_REAL))
#define UNARY(name, expr) \
  LAK_CLONES static void LAK(u_##name)(const LAK_REAL *x, LAK_REAL *y, size_t n) { \
    size_t i, nb = n & ~(size_t)(LAK_TAILV - 1), wv = LAK_TAILV; \
    LAK_REAL bx[LAK_TAILV], by[LAK_TAILV]; \
    if (n == 1) { LAK_REAL v = x[0]; y[0] = (expr); return; } \
    for (i = 0; i < nb; i++) { LAK_REAL v = x[i]; y[i] = (expr); } \
    if (nb == n) return; \
    for (i = 0; i < LAK_TAILV; i++) bx[i] = x[nb + (nb + i < n ? i : 0)]; \
    LAK_OPAQUE(wv); \
    for (i = 0; i < wv; i++) { LAK_REAL v = bx[i]; by[i] = (expr); } \
    memcpy(y + nb, by, (n - nb) * sizeof *y); }
#define UNARYM(name, expr) UNARYK(LAK_CLONES_MEM, name, expr)

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

/* Comparisons into bool bytes, by hand on x86-64: the compare's lane mask
** (AVX-512's k register, AVX2's movemask) as 8 bits, and those bits as 8
** bytes 0/1 by one table load (GCC's own vectorization of c[i] = a[i] < b[i]
** narrows the 64-bit lanes by a chain of shuffles, several per 4 entries).
** cmpfast_d / cmpfast_s do the first multiple of 8 entries of a column
** whose operands move by one or stay (ra, rb 0 or 1: a number then points
** at 16 copies of itself) and return how many; 0 without AVX2. The result
** is the same on every path: each entry is one IEEE compare. */
#if LAK_GNU_X86
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define BY(k) ((uint64_t)((k) & 1) | (uint64_t)((k) >> 1 & 1) << 8 | \
  (uint64_t)((k) >> 2 & 1) << 16 | (uint64_t)((k) >> 3 & 1) << 24 | \
  (uint64_t)((k) >> 4 & 1) << 32 | (uint64_t)((k) >> 5 & 1) << 40 | \
  (uint64_t)((k) >> 6 & 1) << 48 | (uint64_t)((k) >> 7 & 1) << 56)
#define BY4(k) BY(k), BY((k) + 1), BY((k) + 2), BY((k) + 3)
#define BY16(k) BY4(k), BY4((k) + 4), BY4((k) + 8), BY4((k) + 12)
#define BY64(k) BY16(k), BY16((k) + 16), BY16((k) + 32), BY16((k) + 48)
/* bytes8[k]: bit j of k as byte j (little-endian) */
static const uint64_t bytes8[256] = {BY64(0), BY64(64), BY64(128), BY64(192)};

/* 8 entries' compare as 8 bits: x, y point at them, P the predicate */
#define M512D(x, y, P) ((unsigned)_mm512_cmp_pd_mask(_mm512_loadu_pd(x), _mm512_loadu_pd(y), P))
#define M256D(x, y, P) ((unsigned)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(x), \
  _mm256_loadu_pd(y), P)) | (unsigned)_mm256_movemask_pd(_mm256_cmp_pd( \
  _mm256_loadu_pd((x) + 4), _mm256_loadu_pd((y) + 4), P)) << 4)
#define M256S(x, y, P) ((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(x), \
  _mm256_loadu_ps(y), P)))

#define CMPFAST(tgt, name, T, MASK8, P) \
  __attribute__((target(tgt))) static size_t name(size_t m, const T *pa, ptrdiff_t ra, \
                                                  const T *pb, ptrdiff_t rb, unsigned char *pc) { \
    size_t i; \
    for (i = 0; i + 8 <= m; i += 8) \
      memcpy(pc + i, &bytes8[MASK8(pa + i * ra, pb + i * rb, P)], 8); \
    return i; }
/* the six comparisons (lak_Bin's order from LAK_LT) of one kind, and their table */
#define CMPSET(tgt, pre, T, MASK8) \
  CMPFAST(tgt, pre##lt, T, MASK8, _CMP_LT_OQ) CMPFAST(tgt, pre##le, T, MASK8, _CMP_LE_OQ) \
  CMPFAST(tgt, pre##gt, T, MASK8, _CMP_GT_OQ) CMPFAST(tgt, pre##ge, T, MASK8, _CMP_GE_OQ) \
  CMPFAST(tgt, pre##eq, T, MASK8, _CMP_EQ_OQ) CMPFAST(tgt, pre##ne, T, MASK8, _CMP_NEQ_UQ) \
  static size_t (*const pre##all[6])(size_t, const T *, ptrdiff_t, const T *, ptrdiff_t, \
                                      unsigned char *) = { \
    pre##lt, pre##le, pre##gt, pre##ge, pre##eq, pre##ne };
CMPSET("avx512f", c512d_, double, M512D)
CMPSET("avx2", c256d_, double, M256D)
CMPSET("avx2", c256s_, float, M256S)

/* With AVX-512BW, 64 entries a step: their lane masks joined into one
** 64-bit k register (kunpck), then 64 bytes 0/1 by one masked move. The
** operands are loads (XD, YD: 8 doubles j of the step; XS, YS: 16 floats)
** or a number in every lane (xv, yv). */
#define XD(j) _mm512_loadu_pd(x + 8 * (j))
#define YD(j) _mm512_loadu_pd(y + 8 * (j))
#define XS(j) _mm512_loadu_ps(x + 16 * (j))
#define YS(j) _mm512_loadu_ps(y + 16 * (j))
#define XV(j) xv
#define YV(j) yv
#define BWD(j, P, A, B) _mm512_cmp_pd_mask(A(j), B(j), P)
#define BWS(j, P, A, B) _mm512_cmp_ps_mask(A(j), B(j), P)
#define MASK64D(P, A, B) _mm512_kunpackd(_mm512_kunpackw( \
  _mm512_kunpackb(BWD(7, P, A, B), BWD(6, P, A, B)), _mm512_kunpackb(BWD(5, P, A, B), BWD(4, P, A, B))), \
  _mm512_kunpackw(_mm512_kunpackb(BWD(3, P, A, B), BWD(2, P, A, B)), \
                  _mm512_kunpackb(BWD(1, P, A, B), BWD(0, P, A, B))))
#define MASK64S(P, A, B) _mm512_kunpackd(_mm512_kunpackw(BWS(3, P, A, B), BWS(2, P, A, B)), \
                                         _mm512_kunpackw(BWS(1, P, A, B), BWS(0, P, A, B)))
#define LOOP64(T, MASK64, P, A, B) \
  for (i = 0; i + 64 <= m; i += 64) { \
    const T *x = pa + i * ra, *y = pb + i * rb; (void)x; (void)y; \
    _mm512_storeu_si512(pc + i, _mm512_maskz_mov_epi8(MASK64(P, A, B), one)); }
#define CMP64(name, T, V, SET1, XL, YL, MASK64, P) \
  __attribute__((target("avx512f,avx512bw"))) static size_t name(size_t m, const T *pa, \
      ptrdiff_t ra, const T *pb, ptrdiff_t rb, unsigned char *pc) { \
    const __m512i one = _mm512_set1_epi8(1); \
    const V xv = SET1(*pa), yv = SET1(*pb); \
    size_t i; \
    if (ra && rb) LOOP64(T, MASK64, P, XL, YL) \
    else if (ra) LOOP64(T, MASK64, P, XL, YV) \
    else LOOP64(T, MASK64, P, XV, YL) \
    return i; }
#define CMP64SET(pre, T, ARGS) \
  CMP64(pre##lt, T, ARGS, _CMP_LT_OQ) CMP64(pre##le, T, ARGS, _CMP_LE_OQ) \
  CMP64(pre##gt, T, ARGS, _CMP_GT_OQ) CMP64(pre##ge, T, ARGS, _CMP_GE_OQ) \
  CMP64(pre##eq, T, ARGS, _CMP_EQ_OQ) CMP64(pre##ne, T, ARGS, _CMP_NEQ_UQ) \
  static size_t (*const pre##all[6])(size_t, const T *, ptrdiff_t, const T *, ptrdiff_t, \
                                      unsigned char *) = { \
    pre##lt, pre##le, pre##gt, pre##ge, pre##eq, pre##ne };
#define ARGSD __m512d, _mm512_set1_pd, XD, YD, MASK64D
#define ARGSS __m512, _mm512_set1_ps, XS, YS, MASK64S
CMP64SET(bwd_, double, ARGSD)
CMP64SET(bws_, float, ARGSS)

/* isnan, isinf, isfinite the same way: each lane's class (vfpclass, AVX-512DQ):
** NaN (quiet 0x01, signalling 0x80), infinite (+0x08, -0x10), finite (neither) */
#define FCD(j, C) _mm512_fpclass_pd_mask(_mm512_loadu_pd(x + i + 8 * (j)), C)
#define FCS(j, C) _mm512_fpclass_ps_mask(_mm512_loadu_ps(x + i + 16 * (j)), C)
#define CLASS64D(C) _mm512_kunpackd( \
  _mm512_kunpackw(_mm512_kunpackb(FCD(7, C), FCD(6, C)), _mm512_kunpackb(FCD(5, C), FCD(4, C))), \
  _mm512_kunpackw(_mm512_kunpackb(FCD(3, C), FCD(2, C)), _mm512_kunpackb(FCD(1, C), FCD(0, C))))
#define CLASS64S(C) _mm512_kunpackd(_mm512_kunpackw(FCS(3, C), FCS(2, C)), \
                                    _mm512_kunpackw(FCS(1, C), FCS(0, C)))
#define TEST64(name, T, CLASS64) \
  __attribute__((target("avx512f,avx512bw,avx512dq"))) static size_t name(int f, size_t n, \
      const T *x, unsigned char *y) { \
    const __m512i one = _mm512_set1_epi8(1); \
    const int c = f == LAK_ISNAN ? 0x81 : f == LAK_ISINF ? 0x18 : 0x99; \
    size_t i; \
    if (c == 0x81) for (i = 0; i + 64 <= n; i += 64) \
      _mm512_storeu_si512(y + i, _mm512_maskz_mov_epi8(CLASS64(0x81), one)); \
    else if (c == 0x18) for (i = 0; i + 64 <= n; i += 64) \
      _mm512_storeu_si512(y + i, _mm512_maskz_mov_epi8(CLASS64(0x18), one)); \
    else for (i = 0; i + 64 <= n; i += 64)   /* finite: not NaN, not infinite */ \
      _mm512_storeu_si512(y + i, _mm512_maskz_mov_epi8(_knot_mask64(CLASS64(0x99)), one)); \
    return i; }
TEST64(tst_d, double, CLASS64D)
TEST64(tst_s, float, CLASS64S)

/* 3: AVX-512BW, 2: AVX-512F, 1: AVX2, 0: none of them; dq: AVX-512BW and
** DQ. Every level from 1 has AVX2: cmpfast_s's loop is AVX2 at 2 and 3 */
static int cmp_isa, cmp_dq;
__attribute__((constructor)) static void cmp_isainit(void) {
  cmp_isa = !lak_cpu_has(LAK_CPU_AVX2) ? 0 : !lak_cpu_has(LAK_CPU_AVX512F) ? 1
          : lak_cpu_has(LAK_CPU_AVX512BW) ? 3 : 2;
  cmp_dq = cmp_isa == 3 && lak_cpu_has(LAK_CPU_AVX512DQ);
}

/* the tests' first multiple of 64 entries (0 without AVX-512BW and DQ) */
static size_t testfast_d(int f, size_t n, const double *x, unsigned char *y) {
  return cmp_dq ? tst_d(f, n, x, y) : 0;
}

static size_t testfast_s(int f, size_t n, const float *x, unsigned char *y) {
  return cmp_dq ? tst_s(f, n, x, y) : 0;
}

static size_t cmpfast_d(int k, size_t m, const double *pa, ptrdiff_t ra, const double *pb,
                        ptrdiff_t rb, unsigned char *pc) {
  size_t i = cmp_isa == 3 ? bwd_all[k](m, pa, ra, pb, rb, pc) : 0;
  if (cmp_isa >= 2) return i + c512d_all[k](m - i, pa + i * ra, ra, pb + i * rb, rb, pc + i);
  return cmp_isa ? c256d_all[k](m, pa, ra, pb, rb, pc) : 0;
}

static size_t cmpfast_s(int k, size_t m, const float *pa, ptrdiff_t ra, const float *pb,
                        ptrdiff_t rb, unsigned char *pc) {
  size_t i = cmp_isa == 3 ? bws_all[k](m, pa, ra, pb, rb, pc) : 0;
  return cmp_isa ? i + c256s_all[k](m - i, pa + i * ra, ra, pb + i * rb, rb, pc + i) : 0;
}
#define LAK_CMPFAST 1
#else
#define LAK_CMPFAST 0
#endif

/* the true entries of a column of bool bytes (each 0 or 1): byte-wide
** lanes (two vectors of 32: AVX2 has them, and the AVX-512F clone without
** BW would split a 64-byte add) added a block at a time, emptied into c
** every 255 blocks (before a lane can overflow); the tail one by one */
#if defined(__GNUC__) || defined(__clang__)
typedef unsigned char lak_vb __attribute__((vector_size(32)));
LAK_CLONES static size_t bcount_col(size_t m, const unsigned char *restrict a) {
  size_t c = 0, i = 0, k, l;
  while (m - i >= 64) {
    size_t e = (m - i) / 64 < 255 ? (m - i) / 64 : 255;
    lak_vb acc0 = {0}, acc1 = {0}, v0, v1;
    for (k = 0; k < e; k++, i += 64) {
      memcpy(&v0, a + i, 32);
      memcpy(&v1, a + i + 32, 32);
      acc0 += v0;
      acc1 += v1;
    }
    for (l = 0; l < 32; l++) c += (size_t)acc0[l] + acc1[l];
  }
  for (; i < m; i++) c += a[i];
  return c;
}
#else
static size_t bcount_col(size_t m, const unsigned char *restrict a) {
  size_t c = 0, i;
  for (i = 0; i < m; i++) c += a[i];
  return c;
}
#endif

void lak_bnonzeros(int dim, int m, int n, const unsigned char *A, int lda, double *r) {
  size_t all = 0;
  int i, j;
  if (dim == 2) {
    for (i = 0; i < m; i++) r[i] = 0;
    for (j = 0; j < n && m > 0; j++)
      for (i = 0; i < m; i++) r[i] += A[i + (ptrdiff_t)j * lda];
    return;
  }
  if (m > 0 && dim == 0 && lda == m) all = bcount_col((size_t)m * (size_t)n, A);
  else for (j = 0; j < n; j++) {
    size_t c = m > 0 ? bcount_col((size_t)m, A + (ptrdiff_t)j * lda) : 0;
    if (dim == 1) r[j] = (double)c;
    all += c;
  }
  if (dim == 0) r[0] = (double)all;
}

#define LAK_GENERIC_FILE "elementwise_gen.h"
#include "generate.h"
