/*
** factor.c: the factorizations: qr, svd, eigh, cholesky, lu, eig and
** eigvals, schur, hessenberg; expm, null and orth on top of them.
** LAPACKE _work variants only: every byte of workspace is Lua's.
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"

static const double EPS = 2.220446049250313e-16;

static void notpd(lua_State *L, const char *fname, int k) {
  la_error(L, fname, "matrix is not positive definite (the leading minor of order %d "
           "is not positive)", k);
}

static const char *const finite_only[] = {"check_finite", NULL};

static int imin(int a, int b) { return a < b ? a : b; }

static void triu(const la_Mat *W, la_Mat *R) {
  int i, j;
  for (j = 0; j < R->cols && R->rows > 0; j++)
    for (i = 0; i <= j && i < R->rows; i++) LA_AT(R, i, j) = LA_AT(W, i, j);
}

/* qr(A [, {mode = "reduced"|"complete", pivoting = false}]) -> Q, R [, perm]
** Householder: dgeqrf (dgeqp3 with pivoting), then dorgqr forms Q. */
static int l_qr(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"mode", "pivoting", "check_finite", NULL};
  static const char *const modes[] = {"reduced", "complete", NULL};
  la_Mat *A = la_check(L, 1, F), *W, *R, *Q;
  int complete, piv, m = A->rows, n = A->cols, k = imin(m, n), qc, j;
  lapack_int info, *jpvt = NULL;
  double *tau;
  la_checkopts(L, 2, F, keys);
  complete = la_optenum(L, 2, "mode", 0, modes, F);
  piv = la_optbool(L, 2, "pivoting", 0, F);
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, A, F, "A", 0);
  qc = complete ? m : k;
  W = la_copyof(L, A, F);                /* pushes W, tau [, jpvt], work */
  tau = la_scratch(L, (size_t)k);
  if (piv) {
    jpvt = LA_SCRATCH(L, lapack_int, (size_t)n);
    for (j = 0; j < n; j++) jpvt[j] = 0;
    LA_WORKCALL(L, F, "dgeqp3", info,
                LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, m, n, W->data, W->ld, jpvt, tau,
                                    WORK, LWORK));
  } else {
    LA_WORKCALL(L, F, "dgeqrf", info,
                LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, W->data, W->ld, tau, WORK, LWORK));
  }
  Q = la_new(L, F, m, qc);
  lak_copy(m, k, W->data, W->ld, Q->data, Q->ld);
  LA_WORKCALL(L, F, "dorgqr", info,
              LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, m, qc, k, Q->data, Q->ld, tau, WORK, LWORK));
  lua_pop(L, 1);                         /* dorgqr's work; Q on top */
  R = la_newzero(L, F, qc, n);
  triu(W, R);
  if (!piv) return 2;                    /* Q, R */
  lua_createtable(L, n, 0);
  for (j = 0; j < n; j++) { lua_pushinteger(L, jpvt[j]); lua_rawseti(L, -2, j + 1); }
  return 3;                              /* Q, R, perm */
}

/* svd(A [, {full = false}]) -> U, s, Vt with A = U diag(s) Vt */
static int l_svd(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"full", "check_finite", NULL};
  la_Mat *A = la_check(L, 1, F);
  la_checkopts(L, 2, F, keys);
  (void)la_optcheckfinite(L, 2, F);   /* validated; la_svd checks A regardless */
  la_svd(L, A, F, la_optbool(L, 2, "full", 0, F) ? 'A' : 'S');
  return 3;
}

/* eigh(A) -> w, V (dsyevd, lower triangle); w ascending, A V = V diag(w) */
static int l_eigh(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquare(L, 1, F), *V, *w;
  int n = A->rows;
  lapack_int info;
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);  /* validated; dsyevd iterates on A */
  la_checkfinite(L, A, F, "A", 1);
  la_checksym(L, A, F);
  w = la_new(L, F, n, 1);
  V = la_copyof(L, A, F);
  LA_WORKCALL_IWORK(L, F, "dsyevd", info,
                    LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, V->data, V->ld,
                                        w->data, WORK, LWORK, IWORK, LIWORK));
  if (info > 0) la_error(L, F, "eigenvalue algorithm did not converge");
  lua_pop(L, 2);                         /* IWORK, WORK; w, V on top */
  return 2;
}

/* cholesky(A [, {lower = true}]) -> L with A = L L^T (or U with A = U^T U):
** dpotrf on a symmetric A (checked); NumPy's default is lower, SciPy's
** upper */
static int l_cholesky(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"lower", "check_finite", NULL};
  la_Mat *A = la_checksquare(L, 1, F), *C;
  int lower, info, i, j;
  la_checkopts(L, 2, F, keys);
  lower = la_optbool(L, 2, "lower", 1, F);
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, A, F, "A", 0);
  la_checksym(L, A, F);
  C = la_copyof(L, A, F);
  info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, lower ? 'L' : 'U', C->rows, C->data, C->ld);
  la_checkinfo(L, F, "dpotrf", info);
  if (info > 0) notpd(L, F, info);
  for (j = 0; j < C->cols; j++)          /* zero the other triangle */
    for (i = 0; i < C->rows; i++)
      if (lower ? i < j : i > j) LA_AT(C, i, j) = 0.0;
  return 1;
}

/* lu(A) -> L, U, perm, P: P A = L U (Octave's [L, U, P] = lu(A)), A m x n,
** L m x k unit lower, U k x n upper, k = min(m, n); perm is a table with
** A[perm[i], :] = (L U)[i, :]. A singular A factors fine (U has a zero
** pivot), as in Octave and SciPy. */
static int l_lu(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *W, *Lm, *U, *P;
  int m = A->rows, n = A->cols, k = m < n ? m : n, i, j, info, *perm;
  lapack_int *ipiv;
  la_checkopts(L, 2, F, finite_only);
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, A, F, "A", 0);
  W = la_copyof(L, A, F);                /* pushes W, ipiv, perm's scratch */
  ipiv = LA_SCRATCH(L, lapack_int, (size_t)k);
  perm = LA_SCRATCH(L, int, (size_t)m);
  info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, n, W->data, W->ld, ipiv);
  la_checkinfo(L, F, "dgetrf", info);
  Lm = la_newzero(L, F, m, k);           /* pushes the results: Lm, U, then perm, P */
  U = la_newzero(L, F, k, n);
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      if (i <= j && i < k) LA_AT(U, i, j) = LA_AT(W, i, j);
      else if (j < k) LA_AT(Lm, i, j) = LA_AT(W, i, j);
    }
  for (i = 0; i < k; i++) LA_AT(Lm, i, i) = 1.0;
  for (i = 0; i < m; i++) perm[i] = i;
  for (i = 0; i < k; i++) {              /* the row swaps, in order */
    int t = perm[i]; perm[i] = perm[ipiv[i] - 1]; perm[ipiv[i] - 1] = t;
  }
  lua_createtable(L, m, 0);
  P = la_newzero(L, F, m, m);
  for (i = 0; i < m; i++) {
    lua_pushinteger(L, perm[i] + 1);
    lua_rawseti(L, -3, i + 1);           /* into perm, under P */
    LA_AT(P, i, perm[i]) = 1.0;
  }
  return 4;                              /* Lm, U, perm, P */
}

/* dgeev on a copy of square A: pushes wr, wi (n x 1) and, with vectors,
** VR (n x n); returns VR or NULL */
static la_Mat *geev(lua_State *L, la_Mat *A, const char *fname, int vectors) {
  int n = A->rows, info, wslot, top;
  la_Mat *W, *wr, *wi, *VR = NULL;
  double dummy;
  la_checkfinite(L, A, fname, "A", 1);
  W = la_copyof(L, A, fname);            /* removed below the results at the end */
  wslot = lua_gettop(L);
  wr = la_new(L, fname, n, 1);
  wi = la_new(L, fname, n, 1);
  if (vectors) VR = la_new(L, fname, n, n);
  top = lua_gettop(L);
  LA_WORKCALL(L, fname, "dgeev", info,
              LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', vectors ? 'V' : 'N', n, W->data,
                                 W->ld, wr->data, wi->data, &dummy, 1,
                                 VR ? VR->data : &dummy, VR ? VR->ld : 1, WORK, LWORK));
  if (info > 0) la_error(L, fname, "QR algorithm did not converge (%d eigenvalues)", info);
  lua_settop(L, top);                    /* drops the workspace */
  lua_remove(L, wslot);                  /* W: wr, wi [, VR] on top */
  return VR;
}

/* eig(A) -> wr, wi, VR: eigenvalues wr + i wi (LAPACK's order; complex
** pairs adjacent, positive imaginary part first) and right eigenvectors:
** for a real eigenvalue column j of VR; for a pair (j, j+1) the vectors
** are VR(:, j) +- i VR(:, j+1) (dgeev's packing). Unit 2-norm, largest
** component real (NumPy's eig gives the same vectors as complex columns). */
static int l_eig(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquare(L, 1, F);
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);     /* dgeev iterates: A is checked regardless */
  lua_settop(L, 1);
  geev(L, A, F, 1);
  return 3;                              /* wr, wi, VR */
}

/* eigvals(A) -> wr, wi */
static int l_eigvals(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquare(L, 1, F);
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);
  lua_settop(L, 1);
  geev(L, A, F, 0);
  return 2;                              /* wr, wi */
}

/* schur(A) -> T, Z: A = Z T Z^T, Z orthogonal, T upper quasi-triangular
** (real Schur form: 2x2 blocks for complex pairs), dgees unsorted (SciPy's
** schur(A, output="real")) */
static int l_schur(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquare(L, 1, F), *T, *Z;
  int n = A->rows, info, sdim, results;
  double *wr;
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);
  la_checkfinite(L, A, F, "A", 1);
  T = la_copyof(L, A, F);
  Z = la_new(L, F, n, n);
  results = lua_gettop(L);               /* T, Z; the workspace goes above them */
  wr = la_scratch(L, 2 * (size_t)n);
  LA_WORKCALL(L, F, "dgees", info,
              LAPACKE_dgees_work(LAPACK_COL_MAJOR, 'V', 'N', NULL, n, T->data, T->ld, &sdim,
                                 wr, wr + n, Z->data, Z->ld, WORK, LWORK, NULL));
  if (info > 0) la_error(L, F, "QR algorithm did not converge");
  lua_settop(L, results);
  return 2;                              /* T, Z */
}

/* hessenberg(A) -> H, Q: A = Q H Q^T, H zero below the first subdiagonal
** (dgehrd + dorghr; SciPy's hessenberg(A, calc_q=True)) */
static int l_hessenberg(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquare(L, 1, F), *H, *Q;
  int n = A->rows, info, i, j, results;
  double *tau;
  la_checkopts(L, 2, F, finite_only);
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, A, F, "A", 0);
  H = la_copyof(L, A, F);
  Q = la_new(L, F, n, n);
  results = lua_gettop(L);               /* H, Q; tau and the workspaces go above */
  tau = la_scratch(L, (size_t)n);
  LA_WORKCALL(L, F, "dgehrd", info,
              LAPACKE_dgehrd_work(LAPACK_COL_MAJOR, n, 1, n, H->data, H->ld, tau, WORK, LWORK));
  if (n > 0) lak_copy(n, n, H->data, H->ld, Q->data, Q->ld);
  LA_WORKCALL(L, F, "dorghr", info,
              LAPACKE_dorghr_work(LAPACK_COL_MAJOR, n, 1, n, Q->data, Q->ld, tau, WORK, LWORK));
  for (j = 0; j < n; j++)
    for (i = j + 2; i < n; i++) LA_AT(H, i, j) = 0.0;
  lua_settop(L, results);
  return 2;                              /* H, Q */
}

/* ------------------------------------------------------------ expm */

/* Pade 13 coefficients (Higham 2005, "The scaling and squaring method for
** the matrix exponential revisited") */
static const double pade13[14] = {
  64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
  1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
  33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0
};
static const double theta13 = 5.371920351148152;

/* C = a A + b B + c C2 + d I (all n x n, contiguous) */
static void lincomb(int n, double *C, double a, const double *A, double b,
                    const double *B, double c, const double *C2, double d) {
  size_t i, nn = (size_t)n * n;
  for (i = 0; i < nn; i++) C[i] = a * A[i] + b * B[i] + c * C2[i];
  for (i = 0; i < (size_t)n; i++) C[i * n + i] += d;
}

static void mm(int n, const double *A, const double *B, double *C) {
  lak_gemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
}

/* expm(A): the matrix exponential by scaling and squaring with the [13/13]
** Pade approximant (Higham 2005; SciPy's expm and Octave's expm use the
** same family); NaN/Inf entries are an error */
static int l_expm(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquare(L, 1, F), *X;
  int n = A->rows, s = 0, k, info;
  double nrm = 0.0, sc, *w, *A1, *A2, *A4, *A6, *U, *V, *T;
  lapack_int *ipiv;
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);
  la_checkfinite(L, A, F, "A", 1);
  X = la_new(L, F, n, n);
  if (n == 0) return 1;
  w = la_scratch(L, 7 * (size_t)n * n);                         /* pushes w, ipiv */
  ipiv = LA_SCRATCH(L, lapack_int, (size_t)n);
  A1 = w; A2 = A1 + (size_t)n * n; A4 = A2 + (size_t)n * n; A6 = A4 + (size_t)n * n;
  U = A6 + (size_t)n * n; V = U + (size_t)n * n; T = V + (size_t)n * n;
  lak_copy(n, n, A->data, A->ld, A1, n);
  for (k = 0; k < n; k++) {                                     /* 1-norm */
    double c = 0.0;
    int i;
    for (i = 0; i < n; i++) c += fabs(A1[(size_t)k * n + i]);
    if (c > nrm) nrm = c;
  }
  if (nrm > theta13) s = (int)ceil(log2(nrm / theta13));
  sc = ldexp(1.0, -s);
  for (k = 0; k < n * n; k++) A1[k] *= sc;
  mm(n, A1, A1, A2); mm(n, A2, A2, A4); mm(n, A4, A2, A6);
  lincomb(n, T, pade13[13], A6, pade13[11], A4, pade13[9], A2, 0.0);
  mm(n, A6, T, V);
  lincomb(n, T, 1.0, V, pade13[7], A6, pade13[5], A4, 0.0);
  lincomb(n, V, 1.0, T, pade13[3], A2, 0.0, A2, pade13[1]);
  mm(n, A1, V, U);                                              /* U: odd part */
  lincomb(n, T, pade13[12], A6, pade13[10], A4, pade13[8], A2, 0.0);
  mm(n, A6, T, V);
  lincomb(n, T, 1.0, V, pade13[6], A6, pade13[4], A4, 0.0);
  lincomb(n, V, 1.0, T, pade13[2], A2, 0.0, A2, pade13[0]);     /* V: even part */
  for (k = 0; k < n * n; k++) { double u = U[k]; U[k] = V[k] - u; T[k] = V[k] + u; }
  info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, n, U, n, ipiv, T, n);
  la_checkinfo(L, F, "dgesv", info);
  if (info > 0) la_error(L, F, "the Pade denominator is singular");
  for (k = 0; k < s; k++) { mm(n, T, T, A2); memcpy(T, A2, (size_t)n * n * sizeof(double)); }
  lak_copy(n, n, T, n, X->data, X->ld);
  lua_pop(L, 2);                                                /* w, ipiv: X on top */
  return 1;
}

/* null(A [, tol]) / orth(A [, tol]): orthonormal bases of the null space
** (columns of V past the rank) and of the range (columns of U up to it);
** the rank counts singular values above tol, default max(m, n) * s_max *
** eps (Octave's); the SVD needs finite entries */
static int nullorth(lua_State *L, const char *fname, int wantnull) {
  la_Mat *A = la_check(L, 1, fname), *U, *s, *Vt, *B;
  double tol;
  int i, j, r = 0, m = A->rows, n = A->cols;
  tol = la_optargnum(L, fname, 2, -1.0);
  if (!lua_isnoneornil(L, 2) && !(tol >= 0)) la_argerror(L, fname, 2, "tol must be >= 0");
  s = la_svd(L, A, fname, 'A');                 /* pushes U, s, Vt */
  U = la_test(L, -3); Vt = la_test(L, -1);
  if (tol < 0) tol = s->rows > 0 ? (m > n ? m : n) * s->data[0] * EPS : 0.0;
  for (i = 0; i < s->rows; i++) if (s->data[i] > tol) r = i + 1;
  if (wantnull) {
    B = la_new(L, fname, n, n - r);
    for (j = 0; j < n - r; j++)
      for (i = 0; i < n; i++) LA_AT(B, i, j) = LA_AT(Vt, r + j, i);
  } else {
    B = la_new(L, fname, m, r);
    if (r > 0) lak_copy(m, r, U->data, U->ld, B->data, B->ld);
  }
  return 1;
}

static int l_null(lua_State *L) { return nullorth(L, la_fname(L), 1); }

static int l_orth(lua_State *L) { return nullorth(L, la_fname(L), 0); }

static const luaL_Reg funcs[] = {
  {"qr", l_qr}, {"svd", l_svd}, {"eigh", l_eigh},
  {"cholesky", l_cholesky}, {"lu", l_lu}, {"eig", l_eig}, {"eigvals", l_eigvals},
  {"schur", l_schur}, {"hessenberg", l_hessenberg}, {"expm", l_expm},
  {"null", l_null}, {"orth", l_orth}, {NULL, NULL}
};

void la_open_factor(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
