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
#include <cblas.h>
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

/* ---- the Frechet derivative of expm: Al-Mohy & Higham 2009 (SIAM J.
** Matrix Anal. Appl. 30(4), Algorithm 6.4, SciPy's expm_frechet "SPS"):
** the Pade approximant r_m = V^-1 U... of degree m in 3, 5, 7, 9 (no
** scaling) or 13 after scaling A and D by 2^-s, differentiated along D
** alongside (M_2k, the derivative of A^2k), then s squarings of
** [R L; 0 R]: L = R L + L R, R = R R. */

/* ||2^-s A||_1 bounds for each degree (the paper's Table 6.1) */
static const double ell61[14] = {0, 2.11e-8, 3.56e-4, 1.08e-2, 6.49e-2, 2.00e-1, 4.37e-1,
                                 7.83e-1, 1.23e0, 1.78e0, 2.42e0, 3.13e0, 3.90e0, 4.74e0};

/* the Pade coefficients b_0..b_m of degrees 3, 5, 7, 9, 13 */
static const double pade3[] = {120., 60., 12., 1.};
static const double pade5[] = {30240., 15120., 3360., 420., 30., 1.};
static const double pade7[] = {17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.};
static const double pade9[] = {17643225600., 8821612800., 2075673600., 302702400., 30270240.,
                               2162160., 110880., 3960., 90., 1.};
static const double pade13[] = {64764752532480000., 32382376266240000., 7771770303897600.,
                                1187353796428800., 129060195264000., 10559470521600.,
                                670442572800., 33522128640., 1323241920., 40840800., 960960.,
                                16380., 182., 1.};

/* C = alpha A B + beta C, all n x n with ld n */
static void mm(int n, double alpha, const double *A, const double *B, double beta, double *C) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, alpha, A, n, B, n, beta, C, n);
}

/* D = sum_k c[k] P[k] (+ c0 I when P[0] is NULL), over k = 0..np-1 */
static void lincomb(int n, double *D, int np, const double *c, double *const *P) {
  size_t i, nn = (size_t)n * (size_t)n;
  int k;
  for (i = 0; i < nn; i++) D[i] = 0;
  for (k = 0; k < np; k++) {
    if (P[k] == NULL) { for (i = 0; i < nn; i += (size_t)n + 1) D[i] += c[k]; }
    else for (i = 0; i < nn; i++) D[i] += c[k] * P[k][i];
  }
}

/* the powers A2, A4, A6 (A8) and their derivatives M2, M4, M6 (M8) along D
** into P[1..], Mp[1..]; P[0] = NULL (I), Mp[0] = NULL (0) */
static void powers(int n, const double *A, const double *D, int top, double **P, double **Mp) {
  int j;
  mm(n, 1, A, A, 0, P[1]);
  mm(n, 1, A, D, 0, Mp[1]);
  mm(n, 1, D, A, 1, Mp[1]);
  for (j = 2; j <= top; j++) {   /* A^2j = A^2(j-1) A^2 (A4 A4 for 8: the same) */
    mm(n, 1, P[j - 1], P[1], 0, P[j]);
    mm(n, 1, P[j - 1], Mp[1], 0, Mp[j]);
    mm(n, 1, Mp[j - 1], P[1], 1, Mp[j]);
  }
}

/* U, V, Lu, Lv of degree m <= 9 */
static void pade_low(int n, const double *A, const double *D, int m, const double *b,
                     double **P, double **Mp, double *U, double *V, double *Lu, double *Lv,
                     double *W, double *Lw) {
  double codd[5], ceven[5];
  int j, h = (m - 1) / 2;
  powers(n, A, D, h, P, Mp);
  for (j = 0; j <= h; j++) { codd[j] = b[2 * j + 1]; ceven[j] = b[2 * j]; }
  lincomb(n, W, h + 1, codd, P);           /* W = sum b_2j+1 A^2j */
  lincomb(n, Lw, h, codd + 1, Mp + 1);     /* Lw = sum b_2j+1 M_2j */
  lincomb(n, V, h + 1, ceven, P);
  lincomb(n, Lv, h, ceven + 1, Mp + 1);
  mm(n, 1, A, W, 0, U);
  mm(n, 1, A, Lw, 0, Lu);
  mm(n, 1, D, W, 1, Lu);
}

/* one half of degree 13's split through A6 (Higham 2005), from the
** coefficients b[k], b[k+2], ..., b[k+12] (k = 1: W, 0: V): Y = A6 Y1 + Y2,
** Y1 = b[k+8] A2 + b[k+10] A4 + b[k+12] A6, Y2 = b[k] I + ... + b[k+6] A6,
** and its derivative LY = A6 LY1 + M6 Y1 + LY2 (T1, T2: Y1, LY1) */
static void half13(int n, int k, double **P, double **Mp, double *Y, double *LY, double *T1,
                   double *T2) {
  const double *b = pade13;
  const double hi[3] = {b[k + 8], b[k + 10], b[k + 12]};
  const double lo[4] = {b[k], b[k + 2], b[k + 4], b[k + 6]};
  lincomb(n, T1, 3, hi, P + 1);
  lincomb(n, T2, 3, hi, Mp + 1);
  lincomb(n, Y, 4, lo, P);
  lincomb(n, LY, 3, lo + 1, Mp + 1);
  mm(n, 1, P[3], T2, 1, LY);
  mm(n, 1, Mp[3], T1, 1, LY);
  mm(n, 1, P[3], T1, 1, Y);
}

/* U, V, Lu, Lv of degree 13: U = A W, Lu = A Lw + D W */
static void pade13_(int n, const double *A, const double *D, double **P, double **Mp,
                    double *U, double *V, double *Lu, double *Lv, double *W, double *Lw,
                    double *T1, double *T2) {
  powers(n, A, D, 3, P, Mp);
  half13(n, 1, P, Mp, W, Lw, T1, T2);
  mm(n, 1, A, W, 0, U);
  mm(n, 1, A, Lw, 0, Lu);
  mm(n, 1, D, W, 1, Lu);
  half13(n, 0, P, Mp, V, Lv, T1, T2);
}

static int allfinite(size_t nn, const double *X) {
  size_t i;
  for (i = 0; i < nn; i++) if (!isfinite(X[i])) return 0;
  return 1;
}

int lak_expm_frechet(int n, const double *A, int lda, const double *D, int ldd, double *X,
                     int ldx, double *Lg, int ldl, double *work, int *ipiv, int *squarings) {
  size_t nn = (size_t)n * (size_t)n;
  double *w = work, *As = w, *Es = w + nn, *U = w + 2 * nn, *V = w + 3 * nn, *Lu = w + 4 * nn,
         *Lv = w + 5 * nn, *W = w + 6 * nn, *Lw = w + 7 * nn, *T1 = w + 8 * nn, *T2 = w + 9 * nn;
  double *P[5], *Mp[5], norm = 0, h;
  static const double *const low[] = {pade3, pade5, pade7, pade9};
  int i, j, k, s = -1, m = 13;
  for (k = 1; k <= 4; k++) { P[k] = w + (size_t)(8 + 2 * k) * nn; Mp[k] = P[k] + nn; }
  P[0] = Mp[0] = NULL;
  for (j = 0; j < n; j++) {
    double c = 0;
    for (i = 0; i < n; i++) c += fabs(E(A, lda, i, j));
    if (c > norm) norm = c;
  }
  for (k = 0; k < 4; k++)
    if (norm <= ell61[3 + 2 * k]) { s = 0; m = 3 + 2 * k; break; }
  if (s < 0) {
    /* in double: the 1-norm of finite entries can be Inf, whose log2 made
    ** an int of INT_MIN (reported as 1024 squarings) */
    double t = norm > ell61[13] ? ceil(log2(norm / ell61[13])) : 0;
    if (!(t < LAK_EXPM_MAXSQ)) {
      *squarings = t < 1024 ? (int)t : 1024;
      return LAK_EXPM_TOOBIG;
    }
    s = (int)t;
  }
  *squarings = s;
  if (s >= LAK_EXPM_MAXSQ) return LAK_EXPM_TOOBIG;
  h = ldexp(1.0, -s);
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) {
      E(As, n, i, j) = h * E(A, lda, i, j);
      E(Es, n, i, j) = h * E(D, ldd, i, j);
    }
  if (m <= 9) pade_low(n, As, Es, m, low[(m - 3) / 2], P, Mp, U, V, Lu, Lv, W, Lw);
  else pade13_(n, As, Es, P, Mp, U, V, Lu, Lv, W, Lw, T1, T2);
  for (i = 0; i < (int)nn; i++) {          /* P = V - U into T1; R = U + V into W */
    T1[i] = V[i] - U[i];
    W[i] = U[i] + V[i];
    Lw[i] = Lu[i] - Lv[i];
    Lu[i] += Lv[i];
  }
  k = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, T1, n, ipiv);
  if (k != 0) return k > 0 ? k : 1;
  LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, n, T1, n, ipiv, W, n);      /* R */
  mm(n, 1, Lw, W, 1, Lu);                  /* Lu + Lv + (Lu - Lv) R */
  LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, n, T1, n, ipiv, Lu, n);     /* L */
  for (k = 0; k < s; k++) {
    mm(n, 1, W, Lu, 0, V);                 /* L = R L + L R */
    mm(n, 1, Lu, W, 1, V);
    mm(n, 1, W, W, 0, U);                  /* R = R R */
    memcpy(Lu, V, nn * sizeof *V);
    memcpy(W, U, nn * sizeof *U);
  }
  if (!allfinite(nn, W) || !allfinite(nn, Lu)) return LAK_EXPM_OVERFLOW;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) { E(X, ldx, i, j) = E(W, n, i, j); E(Lg, ldl, i, j) = E(Lu, n, i, j); }
  return 0;
}
