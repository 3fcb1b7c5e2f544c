/*
** kernels/matfun.c: the principal square root and logarithm of a real
** upper quasi-triangular matrix T in LAPACK's real Schur canonical form
** (dgees: 1 x 1 blocks for real eigenvalues, 2 x 2 blocks [a b; c a] with
** b c < 0 for complex pairs). No Lua here.
**
** Square root: a real eigenvalue in [-noise, 0), noise = n eps max |T_ij|,
** is taken as 0 (the rounding of a zero eigenvalue: a singular positive
** semidefinite A has a real root; SciPy gives it with imaginary parts of
** order sqrt(noise)), and so is a right-hand side within noise where the
** recurrence meets two zero eigenvalues. N. J. Higham, "Computing real square roots of a real
** matrix", Linear Algebra Appl. 88/89, 1987 (the real Schur method, as
** SciPy's sqrtm): R's diagonal blocks are the principal roots of T's,
** each a closed form (f of a 2 x 2 block with eigenvalues a +- i mu is
** Re f(lambda) I + Im f(lambda) / mu (B - a I)); the blocks above come
** column by column, upwards, from R_ii X + X R_jj = T_ij - sum_k R_ik R_kj
** (a Sylvester equation of order at most 4, solved by elimination).
**
** Logarithm: inverse scaling and squaring (A. H. Al-Mohy and N. J. Higham,
** "Improved inverse scaling and squaring algorithms for the matrix
** logarithm", SIAM J. Sci. Comput. 34(4), 2012, SciPy's logm) simplified:
** square roots until ||T^(1/2^s) - I||_1 <= 1/4, the degree 8 Pade
** approximant of log(I + X) as its partial fractions (8-point
** Gauss-Legendre: sum w_j X (I + x_j X)^-1; theta_8 = 0.367 > 1/4 keeps the
** truncation below the unit roundoff), times 2^s. As the paper does, the
** diagonal blocks of X = T^(1/2^s) - I are formed from T directly (expm1,
** no cancellation), and the diagonal blocks of the logarithm and the
** superdiagonal between two adjacent real eigenvalues are set exactly.
*/
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "kernels.h"

#define E(M, ld, i, j) ((M)[(size_t)(j) * (size_t)(ld) + (size_t)(i)])

/* the size (1 or 2) of the diagonal block starting at row i */
static int blocksize(int n, const double *T, int ld, int i) {
  return i + 1 < n && E(T, ld, i + 1, i) != 0 ? 2 : 1;
}

/* the eigenvalue a + i mu (mu > 0) of the 2 x 2 block at (i, i) */
static void blockeig(const double *T, int ld, int i, double *a, double *mu) {
  double p = 0.5 * (E(T, ld, i, i) - E(T, ld, i + 1, i + 1));
  double bc = E(T, ld, i, i + 1) * E(T, ld, i + 1, i);
  *a = 0.5 * (E(T, ld, i, i) + E(T, ld, i + 1, i + 1));
  *mu = sqrt(fabs(bc + p * p));
}

/* F = fr I + fi / mu (B - a I) for the 2 x 2 block B of T at (i, i) into
** F at (i, i): f of the block from f(a + i mu) = fr + i fi */
static void blockfun(const double *T, int ldt, int i, double a, double mu, double fr,
                     double fi, double *F, int ldf) {
  int r, c;
  for (c = 0; c < 2; c++)
    for (r = 0; r < 2; r++)
      E(F, ldf, i + r, i + c) = (r == c ? fr : 0) +
                                fi / mu * (E(T, ldt, i + r, i + c) - (r == c ? a : 0));
}

/* the principal square root of a + i mu (mu > 0), without cancellation */
static void csqrt_(double a, double mu, double *re, double *im) {
  double z = hypot(a, mu);
  if (a >= 0) { *re = sqrt(0.5 * (z + a)); *im = mu / (2 * *re); }
  else { *im = sqrt(0.5 * (z - a)); *re = mu / (2 * *im); }
}

/* solves P X + X Q = C for X (p x q, p, q in 1..2), P, Q blocks of R at
** (i, i) and (j, j), C in x (column-major p x q; X replaces it) by
** elimination with partial pivoting on the order-pq system; returns -1
** when it is singular and C is not zero (|C| <= tol: 0 x = 0 gives x = 0) */
static int sylv(const double *R, int ld, int i, int p, int j, int q, double *x, double tol) {
  double M[16], t;
  int k = p * q, r, c, a, b, piv;
  for (c = 0; c < k; c++)
    for (r = 0; r < k; r++) {    /* row (ra, rb), column (ca, cb): x(ca, cb) */
      int ra = r % p, rb = r / p, ca = c % p, cb = c / p;
      M[c * k + r] = (rb == cb ? E(R, ld, i + ra, i + ca) : 0) +
                     (ra == ca ? E(R, ld, j + cb, j + rb) : 0);
    }
  for (a = 0; a < k; a++) {
    piv = a;
    for (r = a + 1; r < k; r++) if (fabs(M[a * k + r]) > fabs(M[a * k + piv])) piv = r;
    if (M[a * k + piv] == 0) {
      if (fabs(x[a]) > tol || k > 1) return -1;
      continue;                  /* k == 1, 0 x = 0 */
    }
    for (c = 0; c < k; c++) { t = M[c * k + a]; M[c * k + a] = M[c * k + piv]; M[c * k + piv] = t; }
    t = x[a]; x[a] = x[piv]; x[piv] = t;
    for (r = a + 1; r < k; r++) {
      double f = M[a * k + r] / M[a * k + a];
      for (c = a; c < k; c++) M[c * k + r] -= f * M[c * k + a];
      x[r] -= f * x[a];
    }
  }
  for (a = k - 1; a >= 0; a--) {
    if (M[a * k + a] == 0) { x[a] = 0; continue; }
    for (b = a + 1; b < k; b++) x[a] -= M[b * k + a] * x[b];
    x[a] /= M[a * k + a];
  }
  return 0;
}

/* the eigenvalues on T's diagonal: LAK_NEGEIG (*bad the eigenvalue) for a
** negative real one below -tol, LAK_SINGULAR for zero, else 0 */
static int checkeigs(int n, const double *T, int ld, double *bad, double tol) {
  int i, rc = 0;
  for (i = 0; i < n; i += blocksize(n, T, ld, i)) {
    double t = E(T, ld, i, i);
    if (blocksize(n, T, ld, i) == 2) continue;
    if (t < -tol) { *bad = t; return LAK_NEGEIG; }
    if (t == 0 && !rc) { *bad = 0; rc = LAK_SINGULAR; }
  }
  return rc;
}

/* the square roots of T's diagonal blocks into R's */
static void sqrtdiag(int n, const double *T, int ldt, double *R, int ldr) {
  int i, s;
  for (i = 0; i < n; i += s) {
    s = blocksize(n, T, ldt, i);
    if (s == 1) E(R, ldr, i, i) = sqrt(fmax(E(T, ldt, i, i), 0.0));
    else {
      double a, mu, re, im;
      blockeig(T, ldt, i, &a, &mu);
      csqrt_(a, mu, &re, &im);
      blockfun(T, ldt, i, a, mu, re, im, R, ldr);
    }
  }
}

/* n eps max |T_ij|: the rounding noise of a zero eigenvalue */
static double noise(int n, const double *T, int ld) {
  double m = 0;
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) m = fmax(m, fabs(E(T, ld, i, j)));
  return n * DBL_EPSILON * m;
}

int lak_qtsqrt(int n, const double *T, int ldt, double *R, int ldr, double *bad) {
  double tol = noise(n, T, ldt);
  int i, j, k, e, p, q, r, c, rc = checkeigs(n, T, ldt, bad, tol);
  if (rc == LAK_NEGEIG) return rc;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) E(R, ldr, i, j) = 0;
  sqrtdiag(n, T, ldt, R, ldr);
  for (j = 0; j < n; j += q) {
    q = blocksize(n, T, ldt, j);
    for (e = j - 1; e >= 0; e = i - 1) {   /* the blocks above, upwards; e their last row */
      double x[4];
      i = e > 0 && E(T, ldt, e, e - 1) != 0 ? e - 1 : e;
      p = e - i + 1;
      for (c = 0; c < q; c++)
        for (r = 0; r < p; r++) {
          double s = E(T, ldt, i + r, j + c);
          for (k = i + p; k < j; k++) s -= E(R, ldr, i + r, k) * E(R, ldr, k, j + c);
          x[c * p + r] = s;
        }
      if (sylv(R, ldr, i, p, j, q, x, tol)) return LAK_NOROOT;
      for (c = 0; c < q; c++)
        for (r = 0; r < p; r++) E(R, ldr, i + r, j + c) = x[c * p + r];
    }
  }
  return 0;
}

/* X's diagonal blocks as T^(1/2^s) - I from T itself, without cancellation */
static void rootdiag(int n, const double *T, int ldt, int s, double *X, int ldx) {
  int i, b;
  double h = ldexp(1.0, -s);
  for (i = 0; i < n; i += b) {
    b = blocksize(n, T, ldt, i);
    if (b == 1) E(X, ldx, i, i) = expm1(h * log(E(T, ldt, i, i)));
    else {
      double a, mu, l, phi, sp;
      blockeig(T, ldt, i, &a, &mu);
      l = h * log(hypot(a, mu));
      phi = h * atan2(mu, a);
      sp = sin(0.5 * phi);
      blockfun(T, ldt, i, a, mu, expm1(l) * cos(phi) - 2 * sp * sp, exp(l) * sin(phi), X, ldx);
    }
  }
}

/* the logarithm's diagonal blocks, and its superdiagonal between two
** adjacent real eigenvalues (log(t2 / t1) = 2 atanh((t2 - t1) / (t2 + t1))) */
static void logdiag(int n, const double *T, int ldt, double *Lg, int ldl) {
  int i, b;
  for (i = 0; i < n; i += b) {
    b = blocksize(n, T, ldt, i);
    if (b == 1) {
      double t1 = E(T, ldt, i, i), t2;
      E(Lg, ldl, i, i) = log(t1);
      if (i + 1 >= n || blocksize(n, T, ldt, i + 1) != 1) continue;
      t2 = E(T, ldt, i + 1, i + 1);
      E(Lg, ldl, i, i + 1) = t1 == t2 ? E(T, ldt, i, i + 1) / t1
                           : E(T, ldt, i, i + 1) * 2 * atanh((t2 - t1) / (t2 + t1)) / (t2 - t1);
    } else {
      double a, mu;
      blockeig(T, ldt, i, &a, &mu);
      blockfun(T, ldt, i, a, mu, log(hypot(a, mu)), atan2(mu, a), Lg, ldl);
    }
  }
}

static double norm1minusI(int n, const double *U) {
  double best = 0;
  int i, j;
  for (j = 0; j < n; j++) {
    double s = 0;
    for (i = 0; i < n; i++) s += fabs(E(U, n, i, j) - (i == j));
    if (s > best || s != s) best = s;
  }
  return best;
}

/* Gauss-Legendre on [0, 1], 8 points (numpy 1.24 leggauss(8), mapped) */
static const double glx[8] = {0.019855071751231912, 0.10166676129318664, 0.2372337950418355,
  0.40828267875217511, 0.59171732124782483, 0.7627662049581645, 0.89833323870681336,
  0.98014492824876809};
static const double glw[8] = {0.050614268145188344, 0.11119051722668717, 0.15685332293894352,
  0.18134189168918088, 0.18134189168918088, 0.15685332293894352, 0.11119051722668717,
  0.050614268145188344};

int lak_qtlogm(int n, const double *T, int ldt, double *Lg, int ldl, double *work, int *ipiv,
               double *bad) {
  size_t nn = (size_t)n * (size_t)n;
  double *U = work, *V = work + nn, *M = work + 2 * nn, *Y = work + 3 * nn, h;
  int i, j, k, s = 0, rc = checkeigs(n, T, ldt, bad, 0);
  if (rc) return rc;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) E(U, n, i, j) = E(T, ldt, i, j);
  while (norm1minusI(n, U) > 0.25) {
    if (s >= LAK_LOGM_MAXROOTS) return LAK_NOROOT;
    lak_qtsqrt(n, U, n, V, n, bad);
    memcpy(U, V, nn * sizeof *U);
    s++;
  }
  for (j = 0; j < n; j++)        /* X = U - I into V */
    for (i = 0; i < n; i++) E(V, n, i, j) = E(U, n, i, j) - (i == j);
  rootdiag(n, T, ldt, s, V, n);
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) E(Lg, ldl, i, j) = 0;
  for (k = 0; k < 8; k++) {      /* Lg += w_k (I + x_k X)^-1 X */
    for (j = 0; j < n; j++)
      for (i = 0; i < n; i++) {
        E(M, n, i, j) = (i == j) + glx[k] * E(V, n, i, j);
        E(Y, n, i, j) = E(V, n, i, j);
      }
    if (LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, n, M, n, ipiv, Y, n) != 0) return LAK_NOROOT;
    for (j = 0; j < n; j++)
      for (i = 0; i < n; i++) E(Lg, ldl, i, j) += glw[k] * E(Y, n, i, j);
  }
  h = ldexp(1.0, s);
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      E(Lg, ldl, i, j) = (i > j + 1 || (i == j + 1 && E(T, ldt, i, j) == 0))
                         ? 0 : h * E(Lg, ldl, i, j);
  logdiag(n, T, ldt, Lg, ldl);
  return 0;
}
