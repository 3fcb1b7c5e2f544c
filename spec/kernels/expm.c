/*
** spec/kernels/expm.c: lak_expm (Al-Mohy & Higham 2009). Known answers:
** diagonal (exp of each entry, bit for bit), nilpotent, 2 x 2 closed forms,
** Moler's badly scaled matrix from SciPy's test_burkardt_14 (the test's
** 15-digit values); the number of squarings for it (the old ||A||-based
** choice took 33 and lost every digit); leading dimensions; the overflow
** and too-large returns.
*/
#include "check.h"
#include "kernels.h"

/* X = expm(A) for an n x n A in an ld x n array (X likewise); returns
** lak_expm's code and the squarings in *sq */
static int expm(int n, int ld, const double *A, double *X, int *sq) {
  double *w = ck_alloc(LAK_EXPM_WORK(n), sizeof(double));
  int *ipiv = ck_alloc((size_t)n, sizeof(int));
  int rc = lak_expm(n, A, ld, X, ld, w, ipiv, sq);
  free(w); free(ipiv);
  return rc;
}

static double rel(double got, double want) { return fabs(got - want) / fabs(want); }

static void diagonal(void) {
  const double d[3] = {0.7, -745.0, 3.25};
  double A[9] = {0}, X[9];
  int i, sq;
  for (i = 0; i < 3; i++) A[i * 4] = d[i];
  CHECK(expm(3, 3, A, X, &sq) == 0 && sq == 0, "diagonal: no squaring");
  for (i = 0; i < 9; i++) CHECK(X[i] == (i % 4 == 0 ? exp(d[i / 4]) : 0.0), "X[%d] = %.17g", i, X[i]);
  A[0] = 710.0;
  CHECK(expm(3, 3, A, X, &sq) == LAK_EXPM_OVERFLOW, "exp(710) overflows");
}

/* Moler's matrix, column-major, in a 4 x 3 array (ld 4: the row below is
** padding that must not be read or written) */
static void burkardt14(void) {
  const double want[9] = {0.446849468283175, -5743067.77947947, 0.447722977849494,
                          1.54044157383952e-09, -0.0152830038686819, 1.54270484519591e-09,
                          0.462811453558774, -4526542.71278401, 0.463480648837651};
  double A[12] = {0, -(2e10 + 4e8 / 6.0), 200.0 / 3, 99.0, 1e-8, -3, 0, 99.0, 0, 2e10,
                  -200.0 / 3, 99.0}, X[12];
  int i, j, sq;
  for (i = 0; i < 12; i++) X[i] = -7.0;
  CHECK(expm(3, 4, A, X, &sq) == 0, "burkardt_14 fails");
  CHECK(sq < 33, "burkardt_14: %d squarings", sq);
  for (j = 0; j < 3; j++) {
    for (i = 0; i < 3; i++)
      CHECK(rel(X[i + 4 * j], want[i + 3 * j]) < 1e-11, "(%d,%d) = %.17g", i, j, X[i + 4 * j]);
    CHECK(X[3 + 4 * j] == -7.0 && A[3 + 4 * j] == 99.0, "padding of column %d touched", j);
  }
}

/* [1 4; 1 1]: SciPy test_2x2_input's closed form; [0 6 0; 0 0 6; 0 0 0]
** (nilpotent, triangular): I + A + A^2/2 exactly; [[-2 4]; [-1 2]]
** squares to zero: I + A */
static void closed(void) {
  const double e = exp(1.0), e4 = exp(4.0);
  double A[4] = {1, 1, 4, 1}, X[9], N[9] = {0, 0, 0, 6, 0, 0, 0, 6, 0};
  const double nil[9] = {1, 0, 0, 6, 1, 0, 18, 6, 1};
  double Z[4] = {-2, -1, 4, 2};
  int i, sq;
  CHECK(expm(2, 2, A, X, &sq) == 0, "2 x 2");
  CHECK(rel(X[0], (e4 + 1) / (2 * e)) < 1e-14 && rel(X[3], (e4 + 1) / (2 * e)) < 1e-14, "diagonal");
  CHECK(rel(X[2], (e4 - 1) / e) < 1e-14 && rel(X[1], (e4 - 1) / 4 / e) < 1e-14, "off-diagonal");
  CHECK(expm(3, 3, N, X, &sq) == 0, "nilpotent");
  for (i = 0; i < 9; i++) CHECK(X[i] == nil[i], "nilpotent X[%d] = %.17g", i, X[i]);
  CHECK(expm(2, 2, Z, X, &sq) == 0 && X[0] == -1 && X[1] == -1 && X[2] == 4 && X[3] == 3,
        "square zero: %g %g %g %g", X[0], X[1], X[2], X[3]);
}

static void limits(void) {
  double A[4] = {300, 900, 600, 1200}, X[4];
  double P[4] = {-1e17, -1e17, -1e17, -1e17}, T[4] = {-1, 0, 1e300, -2};
  int sq;
  CHECK(expm(2, 2, A, X, &sq) == LAK_EXPM_OVERFLOW, "300 [1 2; 3 4] overflows");
  CHECK(expm(2, 2, P, X, &sq) == LAK_EXPM_TOOBIG && sq >= LAK_EXPM_MAXSQ, "-1e17 ones: %d", sq);
  CHECK(expm(2, 2, T, X, &sq) == 0, "2 x 2 triangular of norm 1e300");
  CLOSE(X[0], exp(-1.0), 0.0);
  CLOSE(X[3], exp(-2.0), 0.0);
  CHECK(rel(X[2], 1e300 * (exp(-1.0) - exp(-2.0))) < 1e-15 && X[1] == 0.0, "superdiagonal %.17g", X[2]);
}

int main(void) {
  diagonal();
  burkardt14();
  closed();
  limits();
  return ck_done("expm");
}
