/*
** la_gs.c: Gram-Schmidt variants (no Lua here). Each column step is one or
** two BLAS-2 passes over the columns it touches: dgemv for the
** projections, dger (MGS) or dgemv (CGS) for the update.
*/
#include <cblas.h>

#include "la_kernels.h"

static void colnorms(int m, int k, const double *W, int ldw, double *vn) {
  int j;
  for (j = 0; j < k; j++) vn[j] = cblas_dnrm2(m, W + (ptrdiff_t)j * ldw, 1);
}

/* Normalizes column j as the r-th kept one and moves it to column r.
** Returns 0 when it is dependent. */
static int accept(int m, double *W, int ldw, double *R, int ldr, int j, int r,
                  double vn, double tol, lak_GSFail *fail) {
  double *u = W + (ptrdiff_t)j * ldw, nrm = cblas_dnrm2(m, u, 1);
  if (!(nrm > tol * vn)) {   /* also catches NaN */
    fail->col = j; fail->unorm = nrm; fail->vnorm = vn;
    return 0;
  }
  R[r + (ptrdiff_t)j * ldr] = nrm;
  cblas_dscal(m, 1.0 / nrm, u, 1);
  if (r != j) cblas_dcopy(m, u, 1, W + (ptrdiff_t)r * ldw, 1);
  return 1;
}

/* Modified, right-looking: q_r is removed from all later columns at once. */
static int mgs(int m, int k, double *W, int ldw, double *R, int ldr, double tol,
               int drop, int *keep, const double *vn, lak_GSFail *fail) {
  int j, r = 0;
  for (j = 0; j < k; j++) {
    int nt = k - j - 1;
    keep[j] = accept(m, W, ldw, R, ldr, j, r, vn[j], tol, fail);
    if (!keep[j]) { if (drop) continue; return -1; }
    if (nt > 0) {
      const double *q = W + (ptrdiff_t)r * ldw;
      double *rrow = R + r + (ptrdiff_t)(j + 1) * ldr, *T = W + (ptrdiff_t)(j + 1) * ldw;
      cblas_dgemv(CblasColMajor, CblasTrans, m, nt, 1.0, T, ldw, q, 1, 0.0, rrow, ldr);
      cblas_dger(CblasColMajor, m, nt, -1.0, q, 1, rrow, ldr, T, ldw);
    }
    r++;
  }
  return r;
}

/* Classical, left-looking: coefficients from the original column against
** all kept q at once; cgs2 repeats the pass once ("twice is enough"). */
static int cgs(int passes, int m, int k, double *W, int ldw, double *R, int ldr,
               double tol, int drop, int *keep, const double *vn, double *s,
               lak_GSFail *fail) {
  int j, r = 0, p, i;
  for (j = 0; j < k; j++) {
    double *v = W + (ptrdiff_t)j * ldw, *rcol = R + (ptrdiff_t)j * ldr;
    for (p = 0; p < passes && r > 0; p++) {
      cblas_dgemv(CblasColMajor, CblasTrans, m, r, 1.0, W, ldw, v, 1, 0.0, s, 1);
      cblas_dgemv(CblasColMajor, CblasNoTrans, m, r, -1.0, W, ldw, s, 1, 1.0, v, 1);
      for (i = 0; i < r; i++) rcol[i] += s[i];
    }
    keep[j] = accept(m, W, ldw, R, ldr, j, r, vn[j], tol, fail);
    if (!keep[j]) { if (drop) continue; return -1; }
    r++;
  }
  return r;
}

int lak_gram_schmidt(lak_GS method, int m, int k, double *W, int ldw,
                     double *R, int ldr, double tol, int drop, int *keep,
                     double *work, lak_GSFail *fail) {
  double *vn = work, *s = work + k;
  colnorms(m, k, W, ldw, vn);
  if (method == LAK_MGS) return mgs(m, k, W, ldw, R, ldr, tol, drop, keep, vn, fail);
  return cgs(method == LAK_CGS2 ? 2 : 1, m, k, W, ldw, R, ldr, tol, drop, keep,
             vn, s, fail);
}
