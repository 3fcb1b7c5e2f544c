/*
** kernels/expm.c: the matrix exponential (no Lua here).
**
** A. H. Al-Mohy and N. J. Higham, "A new scaling and squaring algorithm
** for the matrix exponential", SIAM J. Matrix Anal. Appl. 31(3), 2009,
** Algorithm 6.1 (as SciPy's expm): the Pade degree m in 3, 5, 7, 9, 13 and
** the scaling s are chosen from d_p = ||A^p||^(1/p), which for nonnormal
** matrices is far below ||A|| (so fewer squarings than Higham 2005), and
** ell(A, m) adds squarings only where the backward-error bound of the
** Pade approximant needs them. The 1-norms are exact (the powers are
** formed anyway; ||abs(A)^p|| comes from p products with a vector), not
** estimated. Triangular input keeps its diagonal and first superdiagonal
** exact through the squarings (Code Fragment 2.1 of the paper).
**
** Also, for exactness and range:
** - a diagonal matrix (1 x 1 included) gives exp of each diagonal entry;
** - a matrix of huge norm is first scaled by 2^-s0 so that its powers up to
**   A^10 cannot overflow (s0 more squarings follow);
** - a matrix whose computed square is zero gives I + A (exact);
** - LAK_EXPM_MAXSQ squarings or more are refused: each squaring doubles
**   the relative error of the result's components along eigenvalues of
**   exp near 1 (those of A near 0), so after 53 of them rounding errors
**   can exceed the result (-1e17 * ones(2) would give 1e-8 for 0.5).
**   Then u ||A|| is ~1 or more: a perturbation of A by one rounding moves
**   exp(A) arbitrarily. 2 x 2 triangular input is exempt (its diagonal
**   and superdiagonal, all of it, are set exactly after each squaring).
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "kernels.h"

/* Pade coefficients b_0..b_m of the [m/m] approximant to exp */
static const double b3[4] = {120.0, 60.0, 12.0, 1.0};
static const double b5[6] = {30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0};
static const double b7[8] = {17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0,
                             56.0, 1.0};
static const double b9[10] = {17643225600.0, 8821612800.0, 2075673600.0, 302702400.0,
                              30270240.0, 2162160.0, 110880.0, 3960.0, 90.0, 1.0};
static const double b13[14] = {
  64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
  1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
  33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0
};

/* theta_m: the largest ||2^-s A|| (as max(d_p, d_q)) for which r_m has
** backward error <= 2^-53 (Al-Mohy & Higham 2009, Table 3.1 and 6.1) */
static const double theta3 = 1.495585217958292e-2, theta5 = 2.539398330063230e-1,
                    theta7 = 9.504178996162932e-1, theta9 = 2.097847961257068,
                    theta13 = 4.25;

/* log2 of 1/|c_{2m+1}|, c the leading coefficient of the backward error's
** series (the paper's (2.2)/(2.6); SciPy's _ell): 100800,
** 10059033600, 4487938430976000, 5914384781877411840000,
** 113250775606021113483283660800000000 for m = 3, 5, 7, 9, 13 */
static double log2crecip(int m) {
  switch (m) {
    case 3: return log2(100800.0);
    case 5: return log2(10059033600.0);
    case 7: return log2(4487938430976000.0);
    case 9: return log2(5914384781877411840000.0);
    default: return log2(113250775606021113483283660800000000.0);
  }
}

/* Powers of 2^-s0 A (n x n, ld n) and what is known of them */
typedef struct Ex {
  int n;
  double *B, *P[4];             /* B, then B^2, B^4, B^6, B^8 (P[0] = B^2 ...) */
  double *U, *V, *T;            /* Pade numerator and denominator, scratch */
  double *v, *w;                /* two n-vectors */
  double nrm;                   /* ||B||_1 */
  int pw;                       /* v = abs(B)' ... 1 with pw factors, */
  double lg;                    /* over 2^lg (log2abspow) */
} Ex;

static size_t sq(int n) { return (size_t)n * (size_t)n; }

static double onenorm(int n, const double *A) {
  double mx = 0.0;
  int i, j;
  for (j = 0; j < n; j++) {
    double c = 0.0;
    for (i = 0; i < n; i++) c += fabs(A[i + (size_t)j * n]);
    if (c > mx) mx = c;
  }
  return mx;
}

static void mm(int n, const double *A, const double *B, double *C) {
  lak_gemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
}

/* log2 || abs(B)^p ||_1 as the max of abs(B)' ... abs(B)' 1, renormalized
** after each product so that no power overflows; -HUGE_VAL if the power is
** zero. The calls ask for growing p (7, 11, 15, 19, 27): each goes on from
** the last power (e->pw, e->lg, vector e->v); e->U holds abs(B) meanwhile. */
static double log2abspow(Ex *e, int p) {
  int n = e->n, i;
  size_t k;
  if (e->pw == 0) {
    for (i = 0; i < n; i++) e->v[i] = 1.0;
    for (k = 0; k < sq(n); k++) e->U[k] = fabs(e->B[k]);
  }
  for (; e->pw < p && e->lg != -HUGE_VAL; e->pw++) {
    double mx = 0.0, *t;
    cblas_dgemv(CblasColMajor, CblasTrans, n, n, 1.0, e->U, n, e->v, 1, 0.0, e->w, 1);
    for (i = 0; i < n; i++) mx = fmax(mx, e->w[i]);
    if (mx == 0.0) { e->lg = -HUGE_VAL; break; }
    for (i = 0; i < n; i++) e->w[i] /= mx;
    e->lg += log2(mx);
    t = e->v; e->v = e->w; e->w = t;
  }
  return e->lg;
}

/* ell(2^-s B, m): the extra squarings the backward-error bound asks for
** (paper (5.1), SciPy's _ell), from log2 of alpha / u with u = 2^-53 */
static int ell(Ex *e, int m, int s) {
  int p = 2 * m + 1;
  double lp = log2abspow(e, p), la;
  if (lp == -HUGE_VAL) return 0;
  la = lp - (double)(p - 1) * s - log2(e->nrm) - log2crecip(m);
  la = ceil((la + 53.0) / (2.0 * m));
  return la > 0.0 ? (int)la : 0;
}

/* C = c[0] I + c[1] P[0] + ... + c[k] P[k-1] */
static void poly(const Ex *e, double *C, const double *c, int k) {
  size_t i, nn = sq(e->n);
  int j;
  for (i = 0; i < nn; i++) C[i] = 0.0;
  for (j = 0; j < k; j++) {
    const double *P = e->P[j];
    for (i = 0; i < nn; i++) C[i] += c[j + 1] * P[i];
  }
  for (i = 0; i < nn; i += (size_t)e->n + 1) C[i] += c[0];
}

/* U, V: odd and even parts of r_m(B) for m <= 9 (the powers unscaled) */
static void pade_low(Ex *e, const double *b, int m) {
  double c[5];
  int k, h = (m - 1) / 2;                   /* powers B^2 .. B^(2h) */
  for (k = 0; k <= h; k++) c[k] = b[2 * k + 1];
  poly(e, e->T, c, h);
  mm(e->n, e->B, e->T, e->U);
  for (k = 0; k <= h; k++) c[k] = b[2 * k];
  poly(e, e->V, c, h);
}

/* X = 2^-k X, k >= 0, exact unless an entry underflows */
static void scale2(size_t nn, double *X, int k) {
  size_t i;
  for (; k > 0; k -= 1000) {
    double f = ldexp(1.0, k > 1000 ? -1000 : -k);
    for (i = 0; i < nn; i++) X[i] *= f;
  }
}

/* U, V of r_13(2^-s B) (Higham 2005, (10.33)): B, B^2, B^4, B^6 scaled in
** place; T and P[3] (B^8, no longer needed) are the scratch */
static void pade13(Ex *e, int s) {
  size_t nn = sq(e->n), i;
  double *W = e->P[3], c[4];
  scale2(nn, e->B, s); scale2(nn, e->P[0], 2 * s);
  scale2(nn, e->P[1], 4 * s); scale2(nn, e->P[2], 6 * s);
  for (i = 0; i < nn; i++)
    W[i] = b13[13] * e->P[2][i] + b13[11] * e->P[1][i] + b13[9] * e->P[0][i];
  mm(e->n, e->P[2], W, e->T);
  c[0] = b13[1]; c[1] = b13[3]; c[2] = b13[5]; c[3] = b13[7];
  poly(e, W, c, 3);
  for (i = 0; i < nn; i++) W[i] += e->T[i];
  mm(e->n, e->B, W, e->U);
  for (i = 0; i < nn; i++)
    W[i] = b13[12] * e->P[2][i] + b13[10] * e->P[1][i] + b13[8] * e->P[0][i];
  mm(e->n, e->P[2], W, e->T);
  c[0] = b13[0]; c[1] = b13[2]; c[2] = b13[4]; c[3] = b13[6];
  poly(e, e->V, c, 3);
  for (i = 0; i < nn; i++) e->V[i] += e->T[i];
}

/* Algorithm 6.1's choice of m and s for B (B^2, B^4, B^6 formed; B^8
** formed when m > 5). Returns m; *s the squarings. */
static int choose(Ex *e, int *s) {
  int n = e->n;
  double d4 = pow(onenorm(n, e->P[1]), 0.25), d6 = pow(onenorm(n, e->P[2]), 1.0 / 6);
  double d8, d10, eta3, eta5;
  *s = 0;
  if (fmax(d4, d6) <= theta3 && ell(e, 3, 0) == 0) return 3;
  if (fmax(d4, d6) <= theta5 && ell(e, 5, 0) == 0) return 5;
  mm(n, e->P[1], e->P[1], e->P[3]);
  d8 = pow(onenorm(n, e->P[3]), 0.125);
  eta3 = fmax(d6, d8);
  if (eta3 <= theta7 && ell(e, 7, 0) == 0) return 7;
  if (eta3 <= theta9 && ell(e, 9, 0) == 0) return 9;
  mm(n, e->P[1], e->P[2], e->T);
  d10 = pow(onenorm(n, e->T), 0.1);
  eta5 = fmin(eta3, fmax(d8, d10));
  if (eta5 > theta13) *s = (int)ceil(log2(eta5 / theta13));
  *s += ell(e, 13, *s);
  return 13;
}

/* exp(a) sinh(b) / b, the (1,2) entry of exp([l1 t; 0 l2]) over t with
** a = (l1 + l2) / 2, b = (l1 - l2) / 2 (Higham, Functions of Matrices,
** (10.42)): sinh(b) / b from libm while |b| < 1 (no cancellation), else
** the difference of exponentials, which then cancels at most 1 - e^-2 */
static double expsinch(double l1, double l2) {
  double a = 0.5 * l1 + 0.5 * l2, b = 0.5 * l1 - 0.5 * l2;
  if (b == 0.0) return exp(a);
  if (fabs(b) < 1.0) return exp(a) * (sinh(b) / b);
  return 0.5 * (exp(l1) - exp(l2)) / b;
}

/* X (upper triangular) = exp(2^-i T) on the diagonal and first
** superdiagonal, T read through (ts, tl): T(r, c) = t[r * ts + c * tl] */
static void exacttri(int n, double *X, const double *t, int ts, int tl, int i) {
  int k;
  for (k = 0; k < n; k++) X[k + (size_t)k * n] = exp(ldexp(t[k * (ts + tl)], -i));
  for (k = 0; k + 1 < n; k++) {
    double l1 = ldexp(t[k * (ts + tl)], -i), l2 = ldexp(t[(k + 1) * (ts + tl)], -i);
    X[k + (size_t)(k + 1) * n] = ldexp(t[k * ts + (k + 1) * tl], -i) * expsinch(l1, l2);
  }
}

/* every entry of the m x n X (ldx) finite */
static int finite(int m, int n, const double *X, int ldx) {
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++)
      if (!isfinite(X[i + (size_t)j * ldx])) return 0;
  return 1;
}

/* 0 if A (n x n, lda) is diagonal, 1 if upper triangular, 2 if lower
** triangular, 3 otherwise */
static int structure(int n, const double *A, int lda) {
  int i, j, up = 1, lo = 1;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) {
      if (A[i + (size_t)j * lda] == 0.0) continue;
      if (i > j) up = 0;
      if (i < j) lo = 0;
    }
  return up && lo ? 0 : up ? 1 : lo ? 2 : 3;
}

/* s0 >= 0 with ||2^-s0 A||_1 <= 2^100, computed without overflow (the
** entries scaled below 1 first if they are not) */
static int prescale(int n, const double *A, int lda) {
  double mx = 0.0, nrm = 0.0, f;
  int i, j, k;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) mx = fmax(mx, fabs(A[i + (size_t)j * lda]));
  k = ilogb(mx) + 1;                        /* mx < 2^k */
  if (k < 0) k = 0;
  f = ldexp(1.0, -k);                       /* >= 2^-1024: exact */
  for (j = 0; j < n; j++) {
    double c = 0.0;
    for (i = 0; i < n; i++) c += fabs(A[i + (size_t)j * lda]) * f;
    nrm = fmax(nrm, c);
  }
  nrm = nrm > 0.0 ? k + log2(nrm) : 0.0;
  return nrm > 100.0 ? (int)ceil(nrm - 100.0) : 0;
}

/* X = exp(diag(A)) */
static void expdiag(int n, const double *A, int lda, double *X, int ldx) {
  int i, j;
  for (j = 0; j < n; j++) {
    for (i = 0; i < n; i++) X[i + (size_t)j * ldx] = 0.0;
    X[j + (size_t)j * ldx] = exp(A[j + (size_t)j * lda]);
  }
}

/* B = 2^-s0 A, or 2^-s0 A^T when tr (s0 < 1000) */
static void load(Ex *e, const double *A, int lda, int tr, int s0) {
  int i, j, n = e->n;
  double f = ldexp(1.0, -s0);
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      e->B[i + (size_t)j * n] = f * (tr ? A[j + (size_t)i * lda] : A[i + (size_t)j * lda]);
}

static int iszero(size_t nn, const double *X) {
  size_t i;
  for (i = 0; i < nn; i++)
    if (X[i] != 0.0) return 0;
  return 1;
}

/* Y = X^(2^s) by squaring (Y is X or T, the other is scratch); for
** triangular input (t, ts, tl as exacttri) the diagonal and superdiagonal
** are set exactly after each square. Returns the result, or NULL when an
** entry stops being finite. */
static double *square(Ex *e, double *X, int s, const double *t, int ts, int tl) {
  int n = e->n, i;
  double *Y = e->T;
  if (t) exacttri(n, X, t, ts, tl, s);
  for (i = s - 1; i >= 0; i--) {
    double *Z;
    mm(n, X, X, Y);
    Z = X; X = Y; Y = Z;
    if (t) exacttri(n, X, t, ts, tl, i);
    if (!finite(n, n, X, n)) return NULL;
  }
  return X;
}

/* X (ldx) = I + A */
static void identplus(int n, const double *A, int lda, double *X, int ldx) {
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) X[i + (size_t)j * ldx] = A[i + (size_t)j * lda] + (i == j);
}

/* X (ldx) = R or R^T; 0, or LAK_EXPM_OVERFLOW if an entry is not finite */
static int writeout(int n, const double *R, int tr, double *X, int ldx) {
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) X[i + (size_t)j * ldx] = tr ? R[j + (size_t)i * n] : R[i + (size_t)j * n];
  return finite(n, n, R, n) ? 0 : LAK_EXPM_OVERFLOW;
}

int lak_expm(int n, const double *A, int lda, double *X, int ldx, double *work, int *ipiv,
             int *squarings) {
  Ex e;
  size_t nn = sq(n), i;
  memset(&e, 0, sizeof e);
  int kind = structure(n, A, lda), tr = kind == 2, s0, s, m, info;
  const double *t = NULL;
  double *R;
  *squarings = 0;
  if (kind == 0) {
    expdiag(n, A, lda, X, ldx);
    return finite(n, n, X, ldx) ? 0 : LAK_EXPM_OVERFLOW;
  }
  e.n = n; e.B = work;
  for (i = 0; i < 4; i++) e.P[i] = work + (i + 1) * nn;
  e.U = work + 5 * nn; e.V = work + 6 * nn; e.T = work + 7 * nn;
  e.v = work + 8 * nn; e.w = e.v + n; e.pw = 0; e.lg = 0.0;
  s0 = prescale(n, A, lda);
  load(&e, A, lda, tr, s0);
  e.nrm = onenorm(n, e.B);
  mm(n, e.B, e.B, e.P[0]);
  if (iszero(nn, e.P[0])) {
    identplus(n, A, lda, X, ldx);
    return finite(n, n, X, ldx) ? 0 : LAK_EXPM_OVERFLOW;
  }
  mm(n, e.P[0], e.P[0], e.P[1]);
  mm(n, e.P[1], e.P[0], e.P[2]);
  m = choose(&e, &s);
  *squarings = s + s0;
  if (s + s0 >= LAK_EXPM_MAXSQ && !(kind != 3 && n == 2)) return LAK_EXPM_TOOBIG;
  if (m == 3) pade_low(&e, b3, 3);
  else if (m == 5) pade_low(&e, b5, 5);
  else if (m == 7) pade_low(&e, b7, 7);
  else if (m == 9) pade_low(&e, b9, 9);
  else pade13(&e, s);
  for (i = 0; i < nn; i++) { double u = e.U[i]; e.U[i] = e.V[i] - u; e.V[i] += u; }
  info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, n, e.U, n, ipiv, e.V, n);
  if (info != 0) return info;
  if (kind != 3) {
    int j, k;
    for (j = 0; j < n; j++)
      for (k = j + 1; k < n; k++) e.V[k + (size_t)j * n] = 0.0;
    t = A;
  }
  R = square(&e, e.V, s + s0, t, tr ? lda : 1, tr ? 1 : lda);
  if (!R) return LAK_EXPM_OVERFLOW;
  return writeout(n, R, tr, X, ldx);
}
