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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#include <pthread.h>

#define CA_FN __attribute__((target("avx512f")))

static int have;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void probe(void) {
  __builtin_cpu_init();
  have = __builtin_cpu_supports("avx512f") != 0;
}

/* columns of 1..16 doubles: lanes past m hold the worst value (-Inf for
** the largest), which only ties the best where every entry is that value,
** and then a real lane comes first */
CA_FN static void colarg_d(int wantmax, int m, size_t n, const double *a, size_t lda,
                           double *out, ptrdiff_t os) {
  const __m512d worst = _mm512_set1_pd(wantmax ? -HUGE_VAL : HUGE_VAL);
  const __mmask8 m0 = (__mmask8)(m >= 8 ? 0xFF : (1u << m) - 1);
  const __mmask8 m1 = (__mmask8)(m >= 16 ? 0xFF : m > 8 ? (1u << (m - 8)) - 1 : 0);
  size_t j;
  for (j = 0; j < n; j++) {
    const double *p = a + j * lda;
    __m512d v0 = _mm512_mask_loadu_pd(worst, m0, p), v1 = _mm512_mask_loadu_pd(worst, m1, p + 8);
    unsigned nan = (unsigned)_mm512_cmp_pd_mask(v0, v0, _CMP_UNORD_Q) |
                   (unsigned)_mm512_cmp_pd_mask(v1, v1, _CMP_UNORD_Q) << 8, eq;
    __m512d b;
    double e;
    if (nan) { out[(ptrdiff_t)j * os] = (double)__builtin_ctz(nan) + 1; continue; }
    b = wantmax ? _mm512_max_pd(v0, v1) : _mm512_min_pd(v0, v1);
    e = wantmax ? _mm512_reduce_max_pd(b) : _mm512_reduce_min_pd(b);
    b = _mm512_set1_pd(e);
    eq = (unsigned)_mm512_cmp_pd_mask(v0, b, _CMP_EQ_OQ) |
         (unsigned)_mm512_cmp_pd_mask(v1, b, _CMP_EQ_OQ) << 8;
    out[(ptrdiff_t)j * os] = (double)__builtin_ctz(eq) + 1;
  }
}

/* columns of 1..32 floats, as colarg_d */
CA_FN static void colarg_f(int wantmax, int m, size_t n, const float *a, size_t lda,
                           double *out, ptrdiff_t os) {
  const __m512 worst = _mm512_set1_ps(wantmax ? -HUGE_VALF : HUGE_VALF);
  const __mmask16 m0 = (__mmask16)(m >= 16 ? 0xFFFF : (1u << m) - 1);
  const __mmask16 m1 = (__mmask16)(m >= 32 ? 0xFFFF : m > 16 ? (1u << (m - 16)) - 1 : 0);
  size_t j;
  for (j = 0; j < n; j++) {
    const float *p = a + j * lda;
    __m512 v0 = _mm512_mask_loadu_ps(worst, m0, p), v1 = _mm512_mask_loadu_ps(worst, m1, p + 16);
    uint32_t nan = (uint32_t)_mm512_cmp_ps_mask(v0, v0, _CMP_UNORD_Q) |
                   (uint32_t)_mm512_cmp_ps_mask(v1, v1, _CMP_UNORD_Q) << 16, eq;
    __m512 b;
    float e;
    if (nan) { out[(ptrdiff_t)j * os] = (double)__builtin_ctz(nan) + 1; continue; }
    b = wantmax ? _mm512_max_ps(v0, v1) : _mm512_min_ps(v0, v1);
    e = wantmax ? _mm512_reduce_max_ps(b) : _mm512_reduce_min_ps(b);
    b = _mm512_set1_ps(e);
    eq = (uint32_t)_mm512_cmp_ps_mask(v0, b, _CMP_EQ_OQ) |
         (uint32_t)_mm512_cmp_ps_mask(v1, b, _CMP_EQ_OQ) << 16;
    out[(ptrdiff_t)j * os] = (double)__builtin_ctz(eq) + 1;
  }
}

int lak_colargshort(int wantmax, size_t m, size_t n, const double *a, size_t lda, double *out,
                    ptrdiff_t os) {
  pthread_once(&once, probe);
  if (!have || m < 1 || m > 16) return 0;
  colarg_d(wantmax, (int)m, n, a, lda, out, os);
  return 1;
}

int lak_scolargshort(int wantmax, size_t m, size_t n, const float *a, size_t lda, double *out,
                     ptrdiff_t os) {
  pthread_once(&once, probe);
  if (!have || m < 1 || m > 32) return 0;
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
