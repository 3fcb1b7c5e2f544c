/*
** kernels/convert.c: float64 <-> float32 conversion of a matrix (astype,
** and every float32 argument of float64 code). One contiguous loop per
** direction, compiled for AVX2 and SSE2 (LAK_CLONES_MEM, loops.h) and
** chosen at load time, so it runs as vcvtpd2ps / vcvtps2pd on whole vectors (at -O2 in
** matrix.c it was one element at a time: A:astype("float32") at
** 1000 x 1000 took 2x NumPy's time). Conversions round to nearest as a C
** cast does: the same bits as before. To and from bool (one byte, 0 or
** 1): x ~= 0, NaN true (NumPy's astype(bool)); 1.0 or 0.0.
*/
#include <stddef.h>

#include "kernels.h"
#include "loops.h"

LAK_CLONES_MEM static void d2s(const double *restrict a, float *restrict b, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) b[i] = (float)a[i];
}

LAK_CLONES_MEM static void s2d(const float *restrict a, double *restrict b, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) b[i] = a[i];
}

#define TOBOOL(name, T) \
  LAK_CLONES static void name(const T *restrict a, unsigned char *restrict b, size_t n) { \
    size_t i; \
    for (i = 0; i < n; i++) b[i] = a[i] != 0; \
  }
#define FROMBOOL(name, T) \
  LAK_CLONES static void name(const unsigned char *restrict a, T *restrict b, size_t n) { \
    size_t i; \
    for (i = 0; i < n; i++) b[i] = (T)a[i]; \
  }
TOBOOL(d2b, double)
TOBOOL(s2b, float)
FROMBOOL(b2d, double)
FROMBOOL(b2s, float)

/* each column of the m x n matrix A (TA) to B (TB) through f */
#define COLUMNS(f, TA, TB) do { \
    int j_; \
    if (m <= 0 || n <= 0) return; \
    if (lda == m && ldb == m) { f((const TA *)A, (TB *)B, (size_t)m * (size_t)n); return; } \
    for (j_ = 0; j_ < n; j_++) \
      f((const TA *)A + (ptrdiff_t)j_ * lda, (TB *)B + (ptrdiff_t)j_ * ldb, (size_t)m); \
  } while (0)

void lak_tobool(int dtype_f32, int m, int n, const void *A, int lda, unsigned char *B, int ldb) {
  if (dtype_f32) COLUMNS(s2b, float, unsigned char);
  else COLUMNS(d2b, double, unsigned char);
}

void lak_frombool(int dtype_f32, int m, int n, const unsigned char *A, int lda, void *B, int ldb) {
  if (dtype_f32) COLUMNS(b2s, unsigned char, float);
  else COLUMNS(b2d, unsigned char, double);
}

void lak_d2s(int m, int n, const double *A, int lda, float *B, int ldb) {
  int j;
  if (m <= 0 || n <= 0) return;
  if (lda == m && ldb == m) { d2s(A, B, (size_t)m * (size_t)n); return; }
  for (j = 0; j < n; j++) d2s(A + (ptrdiff_t)j * lda, B + (ptrdiff_t)j * ldb, (size_t)m);
}

void lak_s2d(int m, int n, const float *A, int lda, double *B, int ldb) {
  int j;
  if (m <= 0 || n <= 0) return;
  if (lda == m && ldb == m) { s2d(A, B, (size_t)m * (size_t)n); return; }
  for (j = 0; j < n; j++) s2d(A + (ptrdiff_t)j * lda, B + (ptrdiff_t)j * ldb, (size_t)m);
}
