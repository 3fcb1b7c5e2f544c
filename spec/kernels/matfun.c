/*
** spec/kernels/matfun.c: lak_qtsqrt and lak_qtlogm on real Schur forms.
** Known answers: 1 x 1 blocks (sqrt, log), a 2 x 2 block [a b; -b a]
** (a rotation-scaling: root and log in closed form), a Jordan block
** ([2 1; 0 2]: root [sqrt2 1/(2 sqrt2)], log [log2 1/2]), R R = T on a
** mixed 4 x 4 form, the leading dimension left alone past n, and the
** returns for a negative eigenvalue, zero, and a zero Jordan block.
** lak_expm_frechet: e^a for a I along I at every Pade degree, overflow.
*/
#include "check.h"
#include "kernels.h"

static int logm(int n, int ld, const double *T, double *L, double *bad) {
  double *w = ck_alloc(LAK_LOGM_WORK(n), sizeof(double));
  int *ipiv = ck_alloc((size_t)n, sizeof(int));
  int rc = lak_qtlogm(n, T, ld, L, ld, w, ipiv, bad);
  free(w); free(ipiv);
  return rc;
}

static void jordan(void) {
  double T[4] = {2, 0, 1, 2}, R[4], L[4], bad;
  CHECK(lak_qtsqrt(2, T, 2, R, 2, &bad) == 0, "sqrt of a Jordan block");
  CLOSE(R[0], sqrt(2.0), 0.0);
  CLOSE(R[2], 1 / (2 * sqrt(2.0)), 1e-16);
  CHECK(R[1] == 0, "below the diagonal: %g", R[1]);
  CHECK(logm(2, 2, T, L, &bad) == 0, "log of a Jordan block");
  CLOSE(L[0], log(2.0), 0.0);
  CLOSE(L[2], 0.5, 0.0);
  CLOSE(L[3], log(2.0), 0.0);
}

/* 2 [cos t -sin t; sin t cos t], t = 1: root sqrt2 at angle 1/2, log
** [log2 -1; 1 log2] */
static void rotation(void) {
  double c = 2 * cos(1.0), s = 2 * sin(1.0);
  double T[4] = {c, s, -s, c}, R[4], L[4], bad;
  CHECK(lak_qtsqrt(2, T, 2, R, 2, &bad) == 0, "sqrt of a 2 x 2 block");
  CLOSE(R[0], sqrt(2.0) * cos(0.5), 1e-15);
  CLOSE(R[1], sqrt(2.0) * sin(0.5), 1e-15);
  CLOSE(R[2], -sqrt(2.0) * sin(0.5), 1e-15);
  CHECK(logm(2, 2, T, L, &bad) == 0, "log of a 2 x 2 block");
  CLOSE(L[0], log(2.0), 1e-15);
  CLOSE(L[1], 1.0, 1e-15);
  CLOSE(L[2], -1.0, 1e-15);
}

/* a 4 x 4 form: 1 x 1 (3), a 2 x 2 block (0.5 +- 2i), 1 x 1 (7), stored
** with ld 5 (row 5 is padding) */
static void mixed(void) {
  double T[20] = {3, 0, 0, 0, 99, 1, 0.5, 4, 0, 99, -2, -1, 0.5, 0, 99, 0.3, 2, -1, 7, 99};
  double R[20], P, bad;
  int i, j, k;
  for (i = 0; i < 20; i++) R[i] = -5;
  CHECK(lak_qtsqrt(4, T, 5, R, 5, &bad) == 0, "sqrt of the mixed form");
  for (j = 0; j < 4; j++) {
    for (i = 0; i < 4; i++) {
      for (P = 0, k = 0; k < 4; k++) P += R[i + 5 * k] * R[k + 5 * j];
      CLOSE(P, T[i + 5 * j], 1e-14);
    }
    CHECK(R[4 + 5 * j] == -5, "padding of column %d written", j);
  }
}

static void refusals(void) {
  double T[4] = {1, 0, 5, -2}, Z[4] = {0, 0, 1, 0}, S[4] = {0, 0, 0, 4}, R[4], bad = 0;
  CHECK(lak_qtsqrt(2, T, 2, R, 2, &bad) == LAK_NEGEIG && bad == -2, "sqrt: -2 named, got %g", bad);
  CHECK(logm(2, 2, T, R, &bad) == LAK_NEGEIG && bad == -2, "log: -2 named");
  CHECK(logm(2, 2, S, R, &bad) == LAK_SINGULAR, "log of a singular form");
  CHECK(lak_qtsqrt(2, Z, 2, R, 2, &bad) == LAK_NOROOT, "[0 1; 0 0] has no root");
  CHECK(lak_qtsqrt(2, S, 2, R, 2, &bad) == 0 && R[3] == 2 && R[2] == 0, "diag(0, 4) has one");
  S[0] = -1e-16;                 /* rounding of 0 next to 4: taken as 0 */
  CHECK(lak_qtsqrt(2, S, 2, R, 2, &bad) == 0 && R[0] == 0 && R[3] == 2, "-1e-16 read as 0");
  S[0] = -1e-14;
  CHECK(lak_qtsqrt(2, S, 2, R, 2, &bad) == LAK_NEGEIG && bad == -1e-14, "-1e-14 is negative");
}

/* A = a I, D = I: expm = e^a I and L = e^a I, for an a in each degree's
** range (3, 5, 7, 9) and past it (13 with squarings) */
static void frechet(void) {
  const double as[6] = {1e-9, 0.005, 0.05, 0.3, 1.5, 40};
  double A[4], D[4] = {1, 0, 0, 1}, X[4], L[4], *w = ck_alloc(LAK_FRECHET_WORK(2), sizeof(double));
  int ipiv[2], k, sq;
  for (k = 0; k < 6; k++) {
    A[0] = A[3] = as[k]; A[1] = A[2] = 0;
    CHECK(lak_expm_frechet(2, A, 2, D, 2, X, 2, L, 2, w, ipiv, &sq) == 0, "a = %g", as[k]);
    CHECK(sq == (k == 5 ? 4 : 0), "a = %g: %d squarings", as[k], sq);
    /* after squarings as SciPy 1.10's: 2.2e-14 off for a = 40 */
    CLOSE(X[0], exp(as[k]), (k == 5 ? 1e-13 : 4e-16) * exp(as[k]));
    CLOSE(L[3], exp(as[k]), (k == 5 ? 1e-13 : 4e-15) * exp(as[k]));
    CHECK(X[1] == 0 && L[2] == 0, "a = %g: off the diagonal", as[k]);
  }
  A[0] = 800;
  CHECK(lak_expm_frechet(2, A, 2, D, 2, X, 2, L, 2, w, ipiv, &sq) == LAK_EXPM_OVERFLOW, "e^800");
  free(w);
}

int main(void) {
  frechet();
  jordan();
  rotation();
  mixed();
  refusals();
  return ck_done("matfun");
}
