/*
** kernels/nnls.c: Lawson-Hanson nonnegative least squares (no Lua here).
** C. L. Lawson and R. J. Hanson, Solving Least Squares Problems (1974),
** chapter 23: an active-set method that moves the column with the largest
** positive gradient into the passive set, solves the unconstrained problem
** on that set and steps back towards feasibility when a weight turns <= 0.
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>

#include "kernels.h"

size_t lak_nnls_work(int p, int n, int lwork_ls) {
  size_t mx = (size_t)(p > n ? p : n);
  return (size_t)p * n + mx + 5 * (size_t)n + (size_t)p + (size_t)lwork_ls;
}

typedef struct Ws {
  int p, n, lwork;
  const double *E, *f;
  int lde;
  double *EP, *rhs, *z, *grad, *res, *ls;
  int *passive, *jpvt, *idx;
} Ws;

/* z = argmin ||E_P z - f|| over the passive columns; returns their count */
static int solve_passive(Ws *s) {
  int j, np = 0, rank, ldb = s->p > s->n ? s->p : s->n;
  for (j = 0; j < s->n; j++)
    if (s->passive[j]) {
      cblas_dcopy(s->p, s->E + (ptrdiff_t)j * s->lde, 1, s->EP + (ptrdiff_t)np * s->p, 1);
      s->idx[np] = j; s->jpvt[np] = 0; np++;
    }
  cblas_dcopy(s->p, s->f, 1, s->rhs, 1);
  LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, s->p, np, 1, s->EP, s->p > 0 ? s->p : 1,
                      s->rhs, ldb > 0 ? ldb : 1, s->jpvt,
                      1e3 * 2.220446049250313e-16, &rank, s->ls, s->lwork);
  for (j = 0; j < s->n; j++) s->z[j] = 0.0;
  for (j = 0; j < np; j++) s->z[s->idx[j]] = s->rhs[j];
  return np;
}

/* grad = E^T (f - E w); returns the free column with the largest gradient
** above its noise level, or -1. The noise of grad(j) is what rounding
** leaves in the residual, eps * (||f|| + sum_k ||E_k|| |w_k|), times
** ||E_j||: a test invariant to scaling E, f and single columns of E (a
** fixed threshold made a problem with entries of 1e8 stop at once). */
static int best_free(Ws *s, const double *w, const double *cnorm, double fnorm) {
  int j, t = -1;
  double scale = fnorm, c = 10.0 * (double)(s->p > s->n ? s->p : s->n) * 2.220446049250313e-16;
  for (j = 0; j < s->n; j++) scale += cnorm[j] * fabs(w[j]);
  cblas_dcopy(s->p, s->f, 1, s->res, 1);
  cblas_dgemv(CblasColMajor, CblasNoTrans, s->p, s->n, -1.0, s->E, s->lde, w, 1,
              1.0, s->res, 1);
  cblas_dgemv(CblasColMajor, CblasTrans, s->p, s->n, 1.0, s->E, s->lde, s->res, 1,
              0.0, s->grad, 1);
  for (j = 0; j < s->n; j++)
    if (!s->passive[j] && s->grad[j] > c * cnorm[j] * scale &&
        (t < 0 || s->grad[j] > s->grad[t])) t = j;
  return t;
}

/* Inner loop: step from w towards z until all passive weights are > 0. */
static int inner(Ws *s, double *w) {
  int j, guard;
  for (guard = 0; guard <= s->n; guard++) {
    double alpha = 1.0;
    int ok = 1, jmin = -1;
    solve_passive(s);
    for (j = 0; j < s->n; j++)
      if (s->passive[j] && s->z[j] <= 0.0) {
        double a = w[j] / (w[j] - s->z[j]);
        ok = 0;
        if (a < alpha || jmin < 0) { alpha = a; jmin = j; }
      }
    if (ok) {
      for (j = 0; j < s->n; j++) w[j] = s->passive[j] ? s->z[j] : 0.0;
      return 1;
    }
    for (j = 0; j < s->n; j++)
      if (s->passive[j]) {
        w[j] += alpha * (s->z[j] - w[j]);
        if (w[j] <= 0.0) { w[j] = 0.0; s->passive[j] = 0; }
      }
    /* the column that set alpha reaches 0 exactly in exact arithmetic;
    ** rounding may leave it a hair above, which would never leave */
    w[jmin] = 0.0; s->passive[jmin] = 0;
  }
  return 0;
}

int lak_nnls(int p, int n, const double *E, int lde, const double *f,
             double *w, double *work, int lwork_ls, int *iwork) {
  Ws s;
  int j, it, t;
  double fnorm, *cnorm, *wbest, rbest = HUGE_VAL;
  size_t mx = (size_t)(p > n ? p : n);
  s.p = p; s.n = n; s.lwork = lwork_ls; s.E = E; s.f = f; s.lde = lde;
  s.EP = work; s.rhs = s.EP + (size_t)p * n; s.z = s.rhs + mx;
  s.grad = s.z + n; s.res = s.grad + n; s.ls = s.res + p + n;
  cnorm = s.ls + lwork_ls;
  s.passive = iwork; s.jpvt = iwork + n; s.idx = iwork + 2 * n;
  if (p == 0 || n == 0) {          /* x = 0: nothing to fit (BLAS's m = 0 leaves grad unset) */
    for (j = 0; j < n; j++) w[j] = 0.0;
    return 0;
  }
  for (j = 0; j < n; j++) {
    w[j] = 0.0; s.passive[j] = 0;
    cnorm[j] = cblas_dnrm2(p, E + (ptrdiff_t)j * lde, 1);
    if (cnorm[j] == 0.0) cnorm[j] = 1.0;     /* a zero column never has a gradient */
  }
  fnorm = cblas_dnrm2(p, f, 1);
  wbest = cnorm + n;
  /* In exact arithmetic every outer step lowers ||E w - f||; once rounding
  ** stops it from doing so the answer is as good as it gets, and going on
  ** could cycle: the best w so far is the result. */
  for (it = 0; it < 3 * n + 3; it++) {
    double rn;
    t = best_free(&s, w, cnorm, fnorm);
    rn = cblas_dnrm2(p, s.res, 1);
    if (it > 0 && !(rn < rbest)) { cblas_dcopy(n, wbest, 1, w, 1); return it; }
    rbest = rn;
    cblas_dcopy(n, w, 1, wbest, 1);
    if (t < 0) return it;
    s.passive[t] = 1;
    if (!inner(&s, w)) return -1;
    if (!s.passive[t]) return it;   /* t left at once: no progress possible */
  }
  return -1;
}
