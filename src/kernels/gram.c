/*
** kernels/gram.c: C = A^T A for a tall, thin A (k x n, n <= LAK_GRAMT_MAX
** columns), the Gram matrix of its columns (NumPy's T.T @ T of a sample
** matrix), in AVX-512 registers. OpenBLAS's syrk and gemm spend most of
** such a product around their kernels (1000 x 10: about 10 us for 55
** dot products of 1000). Here the columns go in 4 x 4 tiles of the upper
** triangle: 8 vectors loaded, 16 fused multiply-adds into 16 accumulators
** of a vector each; rows in passes of GR_CHUNK, every tile over a pass
** before the next, so a matrix past the caches is read once. Columns past
** n are a column of zeros, the rows past the last whole vector a zeroed
** copy. Each entry's sum: lane by lane over its rows in order, then the
** lanes added in a fixed order; one thread, so the same bits on any thread
** count; C(i, j) and C(j, i) are one number, so C is symmetric exactly.
** Floats are widened to double (8 a vector, as doubles): each product is
** exact and the sum is a double's, rounded to float once. Summed in float
** lane by lane, 1e7 rows of 0.1 came out 0.75% off (sgemm 0.02%).
** Without AVX-512F the functions return 0 and the caller keeps BLAS.
*/
#include <string.h>

#include "kernels.h"

#if LAK_X86
#include <immintrin.h>

#define GR_FN __attribute__((target("avx512f")))
#define GR_CHUNK 256                      /* rows a pass: 32 columns of doubles in 64 KiB */
#define GR_L 8                            /* rows a vector */
#define GR_NB ((LAK_GRAMT_MAX + 3) / 4)   /* column blocks of 4 */
#define GR_NT (GR_NB * (GR_NB + 1) / 2)   /* tiles of the upper triangle */

/* acc[t][4p + q] += col[4bi + p][r] col[4bj + q][r] over r < len (a
** multiple of 8), for the upper tiles t = (bi, bj), bi <= bj < nb; LOAD
** gives 8 entries as doubles */
#define GRPASS(name, T, LOAD) \
  GR_FN static void name(int nb, int len, const T *const *col, __m512d (*acc)[16]) { \
    int bi, bj, t = 0, r, p, q; \
    for (bi = 0; bi < nb; bi++) \
      for (bj = bi; bj < nb; bj++, t++) { \
        const T *ca[4], *cb[4]; \
        __m512d s[16], a[4], b[4]; \
        _Pragma("GCC unroll 4") for (p = 0; p < 4; p++) { \
          ca[p] = col[4 * bi + p]; \
          cb[p] = col[4 * bj + p]; \
        } \
        _Pragma("GCC unroll 16") for (p = 0; p < 16; p++) s[p] = acc[t][p]; \
        for (r = 0; r < len; r += 8) { \
          _Pragma("GCC unroll 4") for (p = 0; p < 4; p++) { \
            a[p] = LOAD(ca[p] + r); \
            b[p] = LOAD(cb[p] + r); \
          } \
          _Pragma("GCC unroll 4") for (p = 0; p < 4; p++) \
            _Pragma("GCC unroll 4") for (q = 0; q < 4; q++) \
              s[4 * p + q] = _mm512_fmadd_pd(a[p], b[q], s[4 * p + q]); \
        } \
        _Pragma("GCC unroll 16") for (p = 0; p < 16; p++) acc[t][p] = s[p]; \
      } \
  }
#define LOADS(p) _mm512_cvtps_pd(_mm256_loadu_ps(p))
GRPASS(pass_d, double, _mm512_loadu_pd)
GRPASS(pass_s, float, LOADS)

#define GRAMT(name, T, PASS) \
  GR_FN static void name##_v(int k, int n, const T *A, int lda, T *C, int ldc) { \
    static const T zeros[GR_CHUNK]; \
    __m512d acc[GR_NT][16]; \
    T tail[LAK_GRAMT_MAX][GR_L]; \
    const T *col[4 * GR_NB]; \
    int nb = (n + 3) / 4, nt = nb * (nb + 1) / 2, r0 = 0, rem = k % GR_L, len, i, j, t, p, q; \
    for (t = 0; t < nt; t++) \
      for (p = 0; p < 16; p++) acc[t][p] = _mm512_setzero_pd(); \
    for (; k - r0 >= GR_L; r0 += len) { \
      len = k - r0 < GR_CHUNK ? (k - r0) / GR_L * GR_L : GR_CHUNK; \
      for (j = 0; j < 4 * nb; j++) col[j] = j < n ? A + (ptrdiff_t)j * lda + r0 : zeros; \
      PASS(nb, len, col, acc); \
    } \
    if (rem > 0) {                        /* the last rows, padded with zeros */ \
      memset(tail, 0, sizeof tail); \
      for (j = 0; j < n; j++) memcpy(tail[j], A + (ptrdiff_t)j * lda + r0, (size_t)rem * sizeof(T)); \
      for (j = 0; j < 4 * nb; j++) col[j] = j < n ? tail[j] : zeros; \
      PASS(nb, GR_L, col, acc); \
    } \
    t = 0; \
    for (i = 0; i < nb; i++) \
      for (j = i; j < nb; j++, t++) \
        for (p = 0; p < 4; p++) \
          for (q = 0; q < 4; q++) { \
            int r = 4 * i + p, c = 4 * j + q; \
            if (r < n && c < n && r <= c) \
              C[r + (ptrdiff_t)c * ldc] = C[c + (ptrdiff_t)r * ldc] = \
                (T)_mm512_reduce_add_pd(acc[t][4 * p + q]); \
          } \
  } \
  int name(int k, int n, const T *A, int lda, T *C, int ldc) { \
    if (n < 1 || n > LAK_GRAMT_MAX || k < 1 || !lak_cpu_has(LAK_CPU_AVX512F)) return 0; \
    name##_v(k, n, A, lda, C, ldc); \
    return 1; \
  }
GRAMT(lak_gramt, double, pass_d)
GRAMT(lak_sgramt, float, pass_s)

#else

int lak_gramt(int k, int n, const double *A, int lda, double *C, int ldc) {
  (void)k; (void)n; (void)A; (void)lda; (void)C; (void)ldc;
  return 0;
}

int lak_sgramt(int k, int n, const float *A, int lda, float *C, int ldc) {
  (void)k; (void)n; (void)A; (void)lda; (void)C; (void)ldc;
  return 0;
}

#endif
