/*
** kernels/colarg.c: the positions of the largest (or smallest) entries of
** short columns (argmax / argmin along the columns of a matrix with few
** rows), each column one or two AVX-512 vectors: the masked load of the
** column, its largest entry by a reduction across the lanes, then the
** first lane equal to it (or the first NaN, which wins as in NumPy) from
** a mask. reduce_gen.h's search of a line costs a call through a pointer
** and a scalar pass per column: 8 ns a column of 10 (argmax along the
** columns of 10 x 1000; NumPy 1.24 6 ns). Where AVX-512F is missing (or
** not x86-64 with GCC or clang), the functions decline (return 0).
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

#if LAK_X86
#include <immintrin.h>

#define CA_FN __attribute__((target("avx512f")))

/* columns of 1..2W entries (W lanes of T a vector, V): lanes past m hold
** the worst value (-Inf for the largest), which only ties the best where
** every entry is that value, and then a real lane comes first. M: a
** vector's mask type, B: an integer as wide as 2W lanes. */
#define COLARG(sfx, T, W, V, M, B, INF, SET1, MLOAD, CMP, MAX, MIN, RMAX, RMIN) \
  CA_FN static void colarg_##sfx(int wantmax, int m, size_t n, const T *a, size_t lda, \
                                 double *out, ptrdiff_t os) { \
    const V worst = SET1(wantmax ? -INF : INF); \
    const M m0 = (M)(m >= W ? (1u << W) - 1 : (1u << m) - 1); \
    const M m1 = (M)(m >= 2 * W ? (1u << W) - 1 : m > W ? (1u << (m - W)) - 1 : 0); \
    size_t j; \
    for (j = 0; j < n; j++) { \
      const T *p = a + j * lda; \
      V v0 = MLOAD(worst, m0, p), v1 = MLOAD(worst, m1, p + W), b; \
      B nan = (B)CMP(v0, v0, _CMP_UNORD_Q) | (B)CMP(v1, v1, _CMP_UNORD_Q) << W, eq; \
      T e; \
      if (nan) { out[(ptrdiff_t)j * os] = (double)__builtin_ctz(nan) + 1; continue; } \
      b = wantmax ? MAX(v0, v1) : MIN(v0, v1); \
      e = wantmax ? RMAX(b) : RMIN(b); \
      b = SET1(e); \
      eq = (B)CMP(v0, b, _CMP_EQ_OQ) | (B)CMP(v1, b, _CMP_EQ_OQ) << W; \
      out[(ptrdiff_t)j * os] = (double)__builtin_ctz(eq) + 1; \
    } \
  }
COLARG(d, double, 8, __m512d, __mmask8, unsigned, HUGE_VAL, _mm512_set1_pd, _mm512_mask_loadu_pd,
       _mm512_cmp_pd_mask, _mm512_max_pd, _mm512_min_pd, _mm512_reduce_max_pd,
       _mm512_reduce_min_pd)
COLARG(f, float, 16, __m512, __mmask16, uint32_t, HUGE_VALF, _mm512_set1_ps, _mm512_mask_loadu_ps,
       _mm512_cmp_ps_mask, _mm512_max_ps, _mm512_min_ps, _mm512_reduce_max_ps,
       _mm512_reduce_min_ps)

int lak_colargshort(int wantmax, size_t m, size_t n, const double *a, size_t lda, double *out,
                    ptrdiff_t os) {
  if (!lak_cpu_has(LAK_CPU_AVX512F) || m < 1 || m > 16) return 0;
  colarg_d(wantmax, (int)m, n, a, lda, out, os);
  return 1;
}

int lak_scolargshort(int wantmax, size_t m, size_t n, const float *a, size_t lda, double *out,
                     ptrdiff_t os) {
  if (!lak_cpu_has(LAK_CPU_AVX512F) || m < 1 || m > 32) return 0;
  colarg_f(wantmax, (int)m, n, a, lda, out, os);
  return 1;
}

#else

int lak_colargshort(int wantmax, size_t m, size_t n, const double *a, size_t lda, double *out,
                    ptrdiff_t os) {
  (void)wantmax; (void)m; (void)n; (void)a; (void)lda; (void)out; (void)os;
  return 0;
}
int lak_scolargshort(int wantmax, size_t m, size_t n, const float *a, size_t lda, double *out,
                     ptrdiff_t os) {
  (void)wantmax; (void)m; (void)n; (void)a; (void)lda; (void)out; (void)os;
  return 0;
}

#endif
