/*
** spec/kernels/nnls.c: lak_nnls (Lawson-Hanson). Known answers: E = I
** (w = max(f, 0)) and cases from SciPy's scipy/optimize/tests/test_nnls.py
** (SciPy 1.10+, the values its asserts expect); the KKT conditions on
** random and rank-deficient problems.
*/
#include <lapacke.h>

#include "check.h"
#include "kernels.h"
#include "mat.h"

/* w = argmin ||E w - f||, w >= 0, with workspace as the binding sizes it;
** returns lak_nnls's iteration count */
static int solve(int p, int n, const double *E, const double *f, double *w) {
  int ld = p > 0 ? p : 1, ldb = p > n ? p : n, jp = 0, rank, it, lwork;
  double q = 0.0, *work;
  int *iwork;
  double *Ec = ck_alloc((size_t)ld * (n > 0 ? n : 1), sizeof(double));
  double *fc = ck_alloc((size_t)(ldb > 0 ? ldb : 1), sizeof(double));
  /* dgelsy's workspace query on a p x n problem */
  LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, p, n, 1, Ec, ld, fc, ldb > 0 ? ldb : 1, &jp,
                      1e-13, &rank, &q, -1);
  lwork = q > 1 ? (int)q : 1;
  work = ck_alloc(lak_nnls_work(p, n, lwork), sizeof(double));
  iwork = ck_alloc(3 * (size_t)n + 1, sizeof(int));
  it = lak_nnls(p, n, E, ld, f, w, work, lwork, iwork);
  free(Ec); free(fc); free(work); free(iwork);
  return it;
}

/* ||E w - f|| */
static double resnorm(int p, int n, const double *E, const double *f, const double *w) {
  double s = 0.0;
  int i, j;
  for (i = 0; i < p; i++) {
    double r = -f[i];
    for (j = 0; j < n; j++) r += E[i + (size_t)j * p] * w[j];
    s += r * r;
  }
  return sqrt(s);
}

/* E = I: the problem separates, w = max(f, 0) exactly */
static void identity(void) {
  const double f[6] = {3.0, -1.0, 2.0, -4.0, 0.5, 0.0};
  double E[36] = {0}, w[6];
  int i, it;
  for (i = 0; i < 6; i++) E[i * 7] = 1.0;
  it = solve(6, 6, E, f, w);
  CHECK(it >= 0, "E = I: returned %d", it);
  for (i = 0; i < 6; i++) CLOSE(w[i], f[i] > 0 ? f[i] : 0.0, 1e-15);
}

/* SciPy test_nnls.py: tests2D_singleton_RHS_input (x = [1, 2, 3], the
** exact solution is feasible, residual 0) and test_nnls_gh21021_ex1 /
** ex2 (the review's MATLAB lsqnonneg values, printed to 15 digits). */
static void scipy_cases(void) {
  const double A[9] = {1.0, 1.0, -1.0, 0.5, 0.5, 0.0, -1.0, 0.0, 1.0};   /* column-major */
  const double b[3] = {-1.0, 2.0, 2.0};
  const double A2[8] = {0.2508259992635229, 0.510647748500133, 0.8196387904102849,
                        0.030739759120097084, -0.24031300195203256, 0.2872936081767836,
                        -0.03520620107046682, -0.07768656359879388};
  const double b2[4] = {24.456141951303913, 28.047143273432333, 41.10526799545987,
                        -1.2078282698324068};
  const double A1r[5][8] = {   /* row by row, as the test writes it */
    {0.004734199143798789, -0.09661916455815653, -0.04308779048103441, 0.4039475561867938,
     -0.27742598780954364, -0.20816924034369574, -0.17264070902176, 0.05251808558963846},
    {-0.030263548855047975, -0.30356483926431466, 0.18080406600591398, -0.06892233941254086,
     -0.41837298885432317, 0.30245352819647003, -0.19008975278116397, -0.00990809825429995},
    {-0.2561747595787612, -0.04376282125249583, 0.4422181991706678, -0.13720906318924858,
     -0.0069523811763796475, -0.059238287107464795, 0.028663214369642594, 0.5415531284893763},
    {0.2949336072968401, 0.33997647534935094, 0.38441519339815755, -0.306001783010386,
     0.18120773805949028, -0.36669767490747895, -0.021539960590992304, -0.2784251712424615},
    {0.5009075736232653, -0.20161970347571165, 0.08404512586550646, 0.2520496489348788,
     0.14812015101612894, -0.25823455803981266, -0.1596872058396596, 0.5960141613922691}};
  const double b1[5] = {18.036779281222124, -18.126530733870887, 13.535652034584029,
                        -2.6654275476795966, 9.166315328199575};
  const double x1[8] = {0, 118.017802006619, 45.1996532316584, 102.62156313537, 0,
                        55.8590204314398, 0, 29.7328833253434};
  double w[8], A1[40];
  int i, j;
  CHECK(solve(3, 3, A, b, w) >= 0, "singleton RHS: no convergence");
  for (i = 0; i < 3; i++) CLOSE(w[i], i + 1.0, 1e-13);
  CLOSE(resnorm(3, 3, A, b, w), 0.0, 1e-13);

  CHECK(solve(4, 2, A2, b2, w) >= 0, "gh21021 ex2: no convergence");
  CLOSE(w[0], 54.3047953202271, 1e-12);
  CHECK(w[1] == 0.0, "gh21021 ex2: w[1] = %g, want exactly 0", w[1]);

  for (i = 0; i < 5; i++) for (j = 0; j < 8; j++) A1[i + 5 * j] = A1r[i][j];
  CHECK(solve(5, 8, A1, b1, w) >= 0, "gh21021 ex1: no convergence");
  for (j = 0; j < 8; j++) {
    if (x1[j] == 0) CHECK(w[j] == 0.0, "gh21021 ex1: w[%d] = %g, want exactly 0", j, w[j]);
    else CLOSE(w[j], x1[j], 1e-10);
  }
}

/* KKT for min ||E w - f||^2 / 2 subject to w >= 0, g = E^T (f - E w):
** w >= 0, g <= tol where w = 0, |g| <= tol where w > 0. Also asks that
** both sets be nonempty, so the constraints were really active. */
static void kkt(const char *what, int p, int n, const double *E, const double *f,
                const double *w, double tol) {
  int i, j, zero = 0, pos = 0, bad = 0;
  for (j = 0; j < n; j++) {
    double g = 0.0;
    for (i = 0; i < p; i++) {
      double r = f[i];
      int l;
      for (l = 0; l < n; l++) r -= E[i + (size_t)l * p] * w[l];
      g += E[i + (size_t)j * p] * r;
    }
    if (w[j] < 0.0) bad++;
    else if (w[j] == 0.0) { zero++; if (g > tol) bad++; }
    else { pos++; if (fabs(g) > tol) bad++; }
    if (bad) { CHECK(0, "%s: w[%d] = %g with gradient %g (tol %g)", what, j, w[j], g, tol); return; }
  }
  CHECK(zero > 0 && pos > 0, "%s: %d zero and %d positive weights", what, zero, pos);
}

/* f = E x + noise with x of mixed signs: some bounds must be active */
static void random_kkt(void) {
  int p = 40, n = 15, i, j;
  double *E = ck_alloc((size_t)p * n, sizeof(double)), f[40], x[15], w[15];
  lak_Rng rng;
  lak_rng_seed(&rng, 2024);
  mat_randn(&rng, p, n, E, p);
  for (j = 0; j < n; j++) x[j] = lak_rng_normal(&rng);
  for (i = 0; i < p; i++) {
    f[i] = 0.1 * lak_rng_normal(&rng);
    for (j = 0; j < n; j++) f[i] += E[i + (size_t)j * p] * x[j];
  }
  CHECK(solve(p, n, E, f, w) >= 0, "random: no convergence");
  kkt("random 40 x 15", p, n, E, f, w, 1e-11);
  /* rank deficient: column 3 repeated as column 9 (dgelsy copes) */
  for (i = 0; i < p; i++) E[i + 9 * (size_t)p] = E[i + 3 * (size_t)p];
  CHECK(solve(p, n, E, f, w) >= 0, "repeated column: no convergence");
  kkt("random 40 x 15, a repeated column", p, n, E, f, w, 1e-11);
  /* underdetermined: 10 x 15 */
  CHECK(solve(10, n, E, f, w) >= 0, "10 x 15: no convergence");
  kkt("random 10 x 15", 10, n, E, f, w, 1e-11);
  free(E);
}

/* n = 0 (SciPy's test_nnls_empty): no weights, nothing to do */
static void empty(void) {
  const double f[2] = {1.0, 1.0};
  double w[1] = {42.0}, E[2] = {0};
  CHECK(solve(2, 0, E, f, w) == 0, "n = 0: iterations");
  CHECK(w[0] == 42.0, "n = 0: wrote w[0] = %g", w[0]);
}

int main(void) {
  identity();
  scipy_cases();
  random_kkt();
  empty();
  return ck_done("nnls");
}
