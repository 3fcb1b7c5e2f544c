/*
** spec/kernels/mat.h: small dense helpers for the kernel tests, written
** plainly (no BLAS) so they can serve as references. Column-major.
*/
#ifndef SPEC_KERNELS_MAT_H
#define SPEC_KERNELS_MAT_H

#include <math.h>
#include <stddef.h>

#include "kernels.h"

/* m x n standard normals into A (ld lda) */
static inline void mat_randn(lak_Rng *r, int m, int n, double *A, int lda) {
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) A[i + (ptrdiff_t)j * lda] = lak_rng_normal(r);
}

/* C (m x n, ld m) = op(A) op(B), op(X) = X or X^T, by the textbook triple
** loop (inner dimension k) */
static inline void mat_mul(int ta, int tb, int m, int n, int k, const double *A, int lda,
                           const double *B, int ldb, double *C) {
  int i, j, l;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double s = 0.0;
      for (l = 0; l < k; l++)
        s += (ta ? A[l + (ptrdiff_t)i * lda] : A[i + (ptrdiff_t)l * lda]) *
             (tb ? B[j + (ptrdiff_t)l * ldb] : B[l + (ptrdiff_t)j * ldb]);
      C[i + (ptrdiff_t)j * m] = s;
    }
}

/* max |A - B| over m x n (NaN anywhere gives NaN, so CLOSE fails) */
static inline double mat_maxdiff(int m, int n, const double *A, int lda,
                                 const double *B, int ldb) {
  double d = 0.0;
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double e = fabs(A[i + (ptrdiff_t)j * lda] - B[i + (ptrdiff_t)j * ldb]);
      if (e > d || e != e) d = e;
      if (d != d) return d;
    }
  return d;
}

/* max |Q^T Q - I| for the m x k columns of Q */
static inline double mat_orth(int m, int k, const double *Q, int ldq) {
  double d = 0.0;
  int i, j, l;
  for (j = 0; j < k; j++)
    for (i = 0; i < k; i++) {
      double s = 0.0, e;
      for (l = 0; l < m; l++) s += Q[l + (ptrdiff_t)i * ldq] * Q[l + (ptrdiff_t)j * ldq];
      e = fabs(s - (i == j));
      if (e > d || e != e) d = e;
    }
  return d;
}

#endif
