/*
** kernels/gram_schmidt.c: Gram-Schmidt variants (no Lua here). Column by column, a step is
** one or two BLAS-2 passes: dgemv for the projections, dger (MGS) or dgemv
** (CGS) for the update. Without column dropping, MGS and CGS2 run blocked
** (panels of LAK_GS_NB columns) so that most of the work is dgemm:
** - block MGS, right-looking: MGS inside the panel, then the panel's b
**   projections applied to all later columns in MGS order through the
**   compact form (I - q_b q_b') ... (I - q_1 q_1') = I - Q T' Q', T upper
**   triangular from LAPACK dlarft's recurrence with tau = 1. Algebraically
**   this is MGS, so it keeps MGS's O(eps * cond) loss of orthogonality
**   (applying I - Q Q' at once instead is block CGS and loses it);
** - BCGS2, left-looking: the panel projected against all earlier columns,
**   orthonormalized inside by CGS2, then projected once more, which removes
**   what the intra-panel step amplified: O(eps) orthogonality.
** Classical GS stays unblocked: it is there to show the classical method.
*/
#include <cblas.h>

#include "kernels.h"

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

static int block_mgs(int m, int k, double *W, int ldw, double *R, int ldr,
                     double tol, int *keep, const double *vn, double *s,
                     double *T, int nb, lak_GSFail *fail);

/* panel [j0, j0 + b): the kernels on a column range, failures and keep flags
** offset to the whole matrix. MGS panels recurse with narrower panels, so
** little work is left to BLAS-2. */
static int panel(int method, int m, int j0, int b, double *W, int ldw, double *R,
                 int ldr, double tol, int *keep, const double *vn, double *s,
                 double *T, int nb, lak_GSFail *fail) {
  double *P = W + (ptrdiff_t)j0 * ldw, *Rp = R + j0 + (ptrdiff_t)j0 * ldr;
  int r;
  if (method == LAK_MGS && nb > 8 && b > nb / 4)
    r = block_mgs(m, b, P, ldw, Rp, ldr, tol, keep + j0, vn + j0, s, T, nb / 4, fail);
  else if (method == LAK_MGS)
    r = mgs(m, b, P, ldw, Rp, ldr, tol, 0, keep + j0, vn + j0, fail);
  else
    r = cgs(2, m, b, P, ldw, Rp, ldr, tol, 0, keep + j0, vn + j0, s, fail);
  if (r < 0) fail->col += j0;
  return r;
}

/* T (b x b, upper) with (I - q_b q_b') ... (I - q_1 q_1') = I - Q T' Q':
** T(i,i) = 1, T(0:i, i) = -T(0:i, 0:i) G(0:i, i), G = Q' Q. */
static void mgs_T(int m, int b, const double *Q, int ldq, double *T) {
  int i;
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, b, b, m, 1.0, Q, ldq, Q, ldq,
              0.0, T, b);
  for (i = 0; i < b; i++) {
    double *ti = T + (ptrdiff_t)i * b;
    int l;
    for (l = 0; l < i; l++) ti[l] = -ti[l];
    cblas_dtrmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, i, T, b, ti, 1);
    ti[i] = 1.0;
    for (l = i + 1; l < b; l++) ti[l] = 0.0;
  }
}

/* T: nb * nb doubles, reused by the narrower levels after this one is done
** with it (each level's T is built after its panel returns). */
static int block_mgs(int m, int k, double *W, int ldw, double *R, int ldr,
                     double tol, int *keep, const double *vn, double *s,
                     double *T, int nb, lak_GSFail *fail) {
  int j0, b;
  for (j0 = 0; j0 < k; j0 += b) {
    int nt;
    b = k - j0 < nb ? k - j0 : nb;
    nt = k - j0 - b;
    if (panel(LAK_MGS, m, j0, b, W, ldw, R, ldr, tol, keep, vn, s, T, nb, fail) < 0)
      return -1;
    if (nt > 0) {
      double *Q = W + (ptrdiff_t)j0 * ldw, *X = W + (ptrdiff_t)(j0 + b) * ldw;
      double *S = R + j0 + (ptrdiff_t)(j0 + b) * ldr;
      mgs_T(m, b, Q, ldw, T);
      cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, b, nt, m, 1.0, Q, ldw,
                  X, ldw, 0.0, S, ldr);                         /* S = Q' X */
      cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit,
                  b, nt, 1.0, T, b, S, ldr);                    /* R = T' S */
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nt, b, -1.0, Q, ldw,
                  S, ldr, 1.0, X, ldw);                         /* X -= Q R */
    }
  }
  return k;
}

/* S (j0 x b) = Q' P, P -= Q S, for the panel P against the first j0 columns */
static void project_out(int m, int j0, int b, const double *W, int ldw, double *P,
                        double *S) {
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, j0, b, m, 1.0, W, ldw,
              P, ldw, 0.0, S, j0);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, b, j0, -1.0, W, ldw,
              S, j0, 1.0, P, ldw);
}

/* V = Q S1 + P1 T1 and P1 = Q S2 + P2 give R(0:j0, panel) = S1 + S2 T1 and
** R(panel, panel) = T1. */
static int block_cgs2(int m, int k, double *W, int ldw, double *R, int ldr,
                      double tol, int *keep, const double *vn, double *s,
                      double *S, lak_GSFail *fail) {
  int j0, b, i, j;
  for (j0 = 0; j0 < k; j0 += b) {
    double *P = W + (ptrdiff_t)j0 * ldw, *Rp = R + (ptrdiff_t)j0 * ldr;
    b = k - j0 < LAK_GS_NB ? k - j0 : LAK_GS_NB;
    if (j0 > 0) {
      project_out(m, j0, b, W, ldw, P, S);
      for (j = 0; j < b; j++)
        for (i = 0; i < j0; i++) Rp[i + (ptrdiff_t)j * ldr] = S[i + (ptrdiff_t)j * j0];
    }
    if (panel(LAK_CGS2, m, j0, b, W, ldw, R, ldr, tol, keep, vn, s, NULL, 0, fail) < 0)
      return -1;
    if (j0 > 0) {
      project_out(m, j0, b, W, ldw, P, S);
      cblas_dtrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit,
                  j0, b, 1.0, Rp + j0, ldr, S, j0);             /* S2 T1 */
      for (j = 0; j < b; j++)
        for (i = 0; i < j0; i++) Rp[i + (ptrdiff_t)j * ldr] += S[i + (ptrdiff_t)j * j0];
    }
  }
  return k;
}

int lak_gram_schmidt(lak_GS method, int m, int k, double *W, int ldw,
                     double *R, int ldr, double tol, int drop, int *keep,
                     double *work, lak_GSFail *fail) {
  double *vn = work, *s = work + k, *S = work + 2 * (size_t)k;
  colnorms(m, k, W, ldw, vn);
  if (!drop && k > LAK_GS_NB && method == LAK_MGS)
    return block_mgs(m, k, W, ldw, R, ldr, tol, keep, vn, s, S, LAK_GS_NB, fail);
  if (!drop && k > LAK_GS_NB && method == LAK_CGS2)
    return block_cgs2(m, k, W, ldw, R, ldr, tol, keep, vn, s, S, fail);
  if (method == LAK_MGS) return mgs(m, k, W, ldw, R, ldr, tol, drop, keep, vn, fail);
  return cgs(method == LAK_CGS2 ? 2 : 1, m, k, W, ldw, R, ldr, tol, drop, keep,
             vn, s, fail);
}
