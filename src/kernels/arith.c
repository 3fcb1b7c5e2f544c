/*
** kernels/arith.c: elementwise, copy and product kernels (no Lua here).
*/
#include <cblas.h>
#include <string.h>

#include <math.h>

#include "kernels.h"

/* Below this many multiply-adds a plain loop beats the BLAS call overhead
** (measured with bench/tiny.lua: the crossover on x86-64 is near 3000). */
#define LAK_TINY_GEMM 2048

/* The switch sits outside the loops so each loop is a single operation. */
#define EWLOOP(expr) \
  for (j = 0; j < n; j++) { \
    const double *pa = a.p + j * a.cs, *pb = b.p + j * b.cs; \
    double *pc = c + (ptrdiff_t)j * ldc; \
    for (i = 0; i < m; i++) { \
      double x = pa[i * a.rs], y = pb[i * b.rs]; pc[i] = (expr); } }

/* All three contiguous (no broadcasting, no view gaps): one flat loop. */
#define FLATLOOP(expr) \
  for (k = 0; k < N; k++) { double x = a.p[k], y = b.p[k]; c[k] = (expr); }

void lak_ewise(lak_Op op, int m, int n, lak_Arg a, lak_Arg b,
               double *c, int ldc) {
  int i, j;
  if (m <= 0 || n <= 0) return;       /* e.g. 0 x 2^31-1: no column loop at all */
  if (a.rs == 1 && b.rs == 1 && a.cs == m && b.cs == m && ldc == m) {
    size_t k, N = (size_t)m * (size_t)n;
    switch (op) {
      case LAK_ADD: FLATLOOP(x + y); break;
      case LAK_SUB: FLATLOOP(x - y); break;
      case LAK_MUL: FLATLOOP(x * y); break;
      case LAK_DIV: FLATLOOP(x / y); break;
      case LAK_POW: FLATLOOP(pow(x, y)); break;
    }
    return;
  }
  switch (op) {
    case LAK_ADD: EWLOOP(x + y); break;
    case LAK_SUB: EWLOOP(x - y); break;
    case LAK_MUL: EWLOOP(x * y); break;
    case LAK_DIV: EWLOOP(x / y); break;
    case LAK_POW: EWLOOP(pow(x, y)); break;
  }
}

void lak_copy(int m, int n, const double *A, int lda, double *B, int ldb) {
  int i, j;
  if (m <= 0 || n <= 0) return;
  for (j = 0; j < n; j++) {
    const double *a = A + (ptrdiff_t)j * lda;
    double *b = B + (ptrdiff_t)j * ldb;
    for (i = 0; i < m; i++) b[i] = a[i];
  }
}

/* B (n x m) = A^T, in 32x32 blocks so both sides stay in cache. */
void lak_transpose(int m, int n, const double *A, int lda, double *B, int ldb) {
  int i0, j0, i, j;
  if (m <= 0 || n <= 0) return;
  for (j0 = 0; j0 < n; j0 += 32)
    for (i0 = 0; i0 < m; i0 += 32) {
      int ie = i0 + 32 < m ? i0 + 32 : m, je = j0 + 32 < n ? j0 + 32 : n;
      for (j = j0; j < je; j++)
        for (i = i0; i < ie; i++)
          B[j + (ptrdiff_t)i * ldb] = A[i + (ptrdiff_t)j * lda];
    }
}

static double at(const double *A, int ld, int trans, int i, int j) {
  return trans ? A[j + (ptrdiff_t)i * ld] : A[i + (ptrdiff_t)j * ld];
}

/* Direct triple loop for tiny sizes; beta == 0 never reads C. */
static void tiny_gemm(int ta, int tb, int m, int n, int k, double alpha,
                      const double *A, int lda, const double *B, int ldb,
                      double beta, double *C, int ldc) {
  int i, j, l;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double s = 0.0;
      for (l = 0; l < k; l++) s += at(A, lda, ta, i, l) * at(B, ldb, tb, l, j);
      C[i + (ptrdiff_t)j * ldc] = alpha * s +
          (beta == 0.0 ? 0.0 : beta * C[i + (ptrdiff_t)j * ldc]);
    }
}

void lak_gemm(char ta, char tb, int m, int n, int k, double alpha,
              const double *A, int lda, const double *B, int ldb,
              double beta, double *C, int ldc) {
  int tA = (ta == 'T'), tB = (tb == 'T');
  if (m == 0 || n == 0) return;
  if ((double)m * n * k <= LAK_TINY_GEMM || k == 0) {
    tiny_gemm(tA, tB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  } else if (n == 1 && !tB) {
    cblas_dgemv(CblasColMajor, tA ? CblasTrans : CblasNoTrans,
                tA ? k : m, tA ? m : k, alpha, A, lda, B, 1, beta, C, 1);
  } else {
    cblas_dgemm(CblasColMajor, tA ? CblasTrans : CblasNoTrans,
                tB ? CblasTrans : CblasNoTrans, m, n, k, alpha,
                A, lda, B, ldb, beta, C, ldc);
  }
}

/* Inf and NaN are exactly the doubles whose exponent bits are all ones; an
** OR of those tests over the column has no branch, so it vectorizes. */
int lak_allfinite(int m, const double *x) {
  const uint64_t e = 0x7ff0000000000000ULL;
  uint64_t bad = 0;
  int i;
  for (i = 0; i < m; i++) {
    uint64_t u;
    memcpy(&u, x + i, sizeof u);
    bad |= (u & e) == e;
  }
  return bad == 0;
}
