/*
** lfactor.c: more factorizations (cholesky, lu, eig, schur, hessenberg),
** expm, null/orth, and the structured solves behind solve's assume option.
** LAPACKE _work variants only: every byte of workspace is Lua's.
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "lbind.h"
#include "kernels/kernels.h"

static const double EPS = 2.220446049250313e-16;

static la_Mat *square(lua_State *L, int idx, const char *fname) {
  la_Mat *A = la_check(L, idx, fname);
  if (A->rows != A->cols)
    la_error(L, fname, "matrix must be square, got %dx%d", A->rows, A->cols);
  return A;
}


static void notpd(lua_State *L, const char *fname, int k) {
  la_error(L, fname, "matrix is not positive definite (the leading minor of order %d "
           "is not positive)", k);
}

static const char *const finite_only[] = {"check_finite", NULL};

/* ------------------------------------------------------------ cholesky */

/* cholesky(A [, {lower = true}]) -> L with A = L L^T (or U with A = U^T U):
** dpotrf on a symmetric A (checked); NumPy's default is lower, SciPy's
** upper */
static int l_cholesky(lua_State *L) {
  static const char *const keys[] = {"lower", "check_finite", NULL};
  la_Mat *A = square(L, 1, "cholesky"), *C;
  int lower, info, i, j;
  la_checkopts(L, 2, "cholesky", keys);
  lower = la_optbool(L, 2, "lower", 1, "cholesky");
  if (la_wantfinite(L, 2, "cholesky")) la_checkfinite(L, A, "cholesky", "A");
  la_checksym(L, A, "cholesky");
  C = la_copyof(L, A);
  info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, lower ? 'L' : 'U', C->rows, C->data, C->ld);
  la_checkinfo(L, "cholesky", "dpotrf", info);
  if (info > 0) notpd(L, "cholesky", info);
  for (j = 0; j < C->cols; j++)          /* zero the other triangle */
    for (i = 0; i < C->rows; i++)
      if (lower ? i < j : i > j) LA_AT(C, i, j) = 0.0;
  return 1;
}

/* ------------------------------------------------------------ lu */

/* lu(A) -> L, U, perm, P: P A = L U (Octave's [L, U, P] = lu(A)), A m x n,
** L m x k unit lower, U k x n upper, k = min(m, n); perm is a table with
** A[perm[i], :] = (L U)[i, :]. A singular A factors fine (U has a zero
** pivot), as in Octave and SciPy. */
static int l_lu(lua_State *L) {
  la_Mat *A = la_check(L, 1, "lu"), *W, *Lm, *U, *P;
  int m = A->rows, n = A->cols, k = m < n ? m : n, i, j, info, *perm;
  lapack_int *ipiv;
  la_checkopts(L, 2, "lu", finite_only);
  if (la_wantfinite(L, 2, "lu")) la_checkfinite(L, A, "lu", "A");
  lua_settop(L, 1);
  W = la_copyof(L, A);                                        /* 2 */
  ipiv = (lapack_int *)la_scratch(L, (size_t)k + 1);          /* 3 */
  perm = (int *)la_scratch(L, (size_t)m + 1);                 /* 4 */
  info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, n, W->data, W->ld, ipiv);
  la_checkinfo(L, "lu", "dgetrf", info);
  Lm = la_newzero(L, "lu", m, k);                             /* 5 */
  U = la_newzero(L, "lu", k, n);                              /* 6 */
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
  lua_createtable(L, m, 0);                                   /* 7 */
  P = la_newzero(L, "lu", m, m);                              /* 8 */
  for (i = 0; i < m; i++) {
    lua_pushinteger(L, perm[i] + 1);
    lua_rawseti(L, -3, i + 1);
    LA_AT(P, i, perm[i]) = 1.0;
  }
  return 4;
}

/* ------------------------------------------------------------ eig */

/* dgeev on a copy of square A: pushes wr, wi (n x 1) and, with vectors,
** VR (n x n); returns VR or NULL */
static la_Mat *geev(lua_State *L, la_Mat *A, const char *fname, int vectors) {
  int n = A->rows, info, lwork, top;
  la_Mat *W, *wr, *wi, *VR = NULL;
  double q, *work, dummy;
  la_needfinite(L, A, fname, "A");
  W = la_copyof(L, A);
  wr = la_new(L, fname, n, 1);
  wi = la_new(L, fname, n, 1);
  if (vectors) VR = la_new(L, fname, n, n);
  top = lua_gettop(L);
  info = LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', vectors ? 'V' : 'N', n, W->data, W->ld,
                            wr->data, wi->data, &dummy, 1, VR ? VR->data : &dummy,
                            VR ? VR->ld : 1, &q, -1);
  la_checkinfo(L, fname, "dgeev", info);
  work = la_work(L, fname, q, &lwork);
  info = LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', vectors ? 'V' : 'N', n, W->data, W->ld,
                            wr->data, wi->data, &dummy, 1, VR ? VR->data : &dummy,
                            VR ? VR->ld : 1, work, lwork);
  la_checkinfo(L, fname, "dgeev", info);
  if (info > 0) la_error(L, fname, "QR algorithm did not converge (%d eigenvalues)", info);
  lua_settop(L, top);
  lua_remove(L, vectors ? -4 : -3);    /* W */
  return VR;
}

/* eig(A) -> wr, wi, VR: eigenvalues wr + i wi (LAPACK's order; complex
** pairs adjacent, positive imaginary part first) and right eigenvectors:
** for a real eigenvalue column j of VR; for a pair (j, j+1) the vectors
** are VR(:, j) +- i VR(:, j+1) (dgeev's packing). Unit 2-norm, largest
** component real (NumPy's eig gives the same vectors as complex columns). */
static int l_eig(lua_State *L) {
  la_Mat *A = square(L, 1, "eig");
  la_checkopts(L, 2, "eig", finite_only);
  (void)la_wantfinite(L, 2, "eig");     /* dgeev iterates: A is checked regardless */
  lua_settop(L, 1);
  geev(L, A, "eig", 1);
  return 3;
}

/* eigvals(A) -> wr, wi */
static int l_eigvals(lua_State *L) {
  la_Mat *A = square(L, 1, "eigvals");
  la_checkopts(L, 2, "eigvals", finite_only);
  (void)la_wantfinite(L, 2, "eigvals");
  lua_settop(L, 1);
  geev(L, A, "eigvals", 0);
  return 2;
}

/* ------------------------------------------------------------ schur, hessenberg */

/* schur(A) -> T, Z: A = Z T Z^T, Z orthogonal, T upper quasi-triangular
** (real Schur form: 2x2 blocks for complex pairs), dgees unsorted (SciPy's
** schur(A, output="real")) */
static int l_schur(lua_State *L) {
  la_Mat *A = square(L, 1, "schur"), *T, *Z;
  int n = A->rows, info, lwork, sdim;
  double q, *wr, *work;
  la_checkopts(L, 2, "schur", finite_only);
  (void)la_wantfinite(L, 2, "schur");
  la_needfinite(L, A, "schur", "A");
  lua_settop(L, 1);
  T = la_copyof(L, A);                                  /* 2 */
  Z = la_new(L, "schur", n, n);                         /* 3 */
  wr = la_scratch(L, 2 * (size_t)n);                    /* 4 */
  info = LAPACKE_dgees_work(LAPACK_COL_MAJOR, 'V', 'N', NULL, n, T->data, T->ld, &sdim,
                            wr, wr + n, Z->data, Z->ld, &q, -1, NULL);
  la_checkinfo(L, "schur", "dgees", info);
  work = la_work(L, "schur", q, &lwork);                /* 5 */
  info = LAPACKE_dgees_work(LAPACK_COL_MAJOR, 'V', 'N', NULL, n, T->data, T->ld, &sdim,
                            wr, wr + n, Z->data, Z->ld, work, lwork, NULL);
  la_checkinfo(L, "schur", "dgees", info);
  if (info > 0) la_error(L, "schur", "QR algorithm did not converge");
  lua_settop(L, 3);
  return 2;
}

/* hessenberg(A) -> H, Q: A = Q H Q^T, H zero below the first subdiagonal
** (dgehrd + dorghr; SciPy's hessenberg(A, calc_q=True)) */
static int l_hessenberg(lua_State *L) {
  la_Mat *A = square(L, 1, "hessenberg"), *H, *Q;
  int n = A->rows, info, lwork, i, j;
  double q, *tau, *work;
  la_checkopts(L, 2, "hessenberg", finite_only);
  if (la_wantfinite(L, 2, "hessenberg")) la_checkfinite(L, A, "hessenberg", "A");
  lua_settop(L, 1);
  H = la_copyof(L, A);                                  /* 2 */
  Q = la_new(L, "hessenberg", n, n);                    /* 3 */
  tau = la_scratch(L, (size_t)n);                       /* 4 */
  info = LAPACKE_dgehrd_work(LAPACK_COL_MAJOR, n, 1, n, H->data, H->ld, tau, &q, -1);
  la_checkinfo(L, "hessenberg", "dgehrd", info);
  work = la_work(L, "hessenberg", q, &lwork);           /* 5 */
  info = LAPACKE_dgehrd_work(LAPACK_COL_MAJOR, n, 1, n, H->data, H->ld, tau, work, lwork);
  la_checkinfo(L, "hessenberg", "dgehrd", info);
  if (n > 0) lak_copy(n, n, H->data, H->ld, Q->data, Q->ld);
  info = LAPACKE_dorghr_work(LAPACK_COL_MAJOR, n, 1, n, Q->data, Q->ld, tau, &q, -1);
  la_checkinfo(L, "hessenberg", "dorghr", info);
  work = la_work(L, "hessenberg", q, &lwork);           /* 6 */
  info = LAPACKE_dorghr_work(LAPACK_COL_MAJOR, n, 1, n, Q->data, Q->ld, tau, work, lwork);
  la_checkinfo(L, "hessenberg", "dorghr", info);
  for (j = 0; j < n; j++)
    for (i = j + 2; i < n; i++) LA_AT(H, i, j) = 0.0;
  lua_settop(L, 3);
  return 2;
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
  la_Mat *A = square(L, 1, "expm"), *X;
  int n = A->rows, s = 0, k, info;
  double nrm = 0.0, sc, *w, *A1, *A2, *A4, *A6, *U, *V, *T;
  lapack_int *ipiv;
  la_checkopts(L, 2, "expm", finite_only);
  (void)la_wantfinite(L, 2, "expm");
  la_needfinite(L, A, "expm", "A");
  lua_settop(L, 1);
  X = la_new(L, "expm", n, n);                                  /* 2 */
  if (n == 0) return 1;
  w = la_scratch(L, 7 * (size_t)n * n);                         /* 3 */
  ipiv = (lapack_int *)la_scratch(L, (size_t)n);                /* 4 */
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
  la_checkinfo(L, "expm", "dgesv", info);
  if (info > 0) la_error(L, "expm", "the Pade denominator is singular");
  for (k = 0; k < s; k++) { mm(n, T, T, A2); memcpy(T, A2, (size_t)n * n * sizeof(double)); }
  lak_copy(n, n, T, n, X->data, X->ld);
  lua_settop(L, 2);
  return 1;
}

/* ------------------------------------------------------------ null, orth */

/* full SVD of A: pushes U (m x m), s (k), Vt (n x n) */
static void svdfull(lua_State *L, la_Mat *A, const char *fname, la_Mat **U,
                    la_Mat **s, la_Mat **Vt) {
  int m = A->rows, n = A->cols, k = m < n ? m : n, info, lwork, top;
  la_Mat *W;
  lapack_int *iwork;
  double q, *work;
  la_needfinite(L, A, fname, "A");
  W = la_copyof(L, A);
  *U = la_new(L, fname, m, m);
  *s = la_new(L, fname, k, 1);
  *Vt = la_new(L, fname, n, n);
  top = lua_gettop(L);
  iwork = (lapack_int *)la_scratch(L, 8 * (size_t)k + 1);
  info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'A', m, n, W->data, W->ld, (*s)->data,
                             (*U)->data, (*U)->ld, (*Vt)->data, (*Vt)->ld, &q, -1, iwork);
  la_checkinfo(L, fname, "dgesdd", info);
  work = la_work(L, fname, q, &lwork);
  info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'A', m, n, W->data, W->ld, (*s)->data,
                             (*U)->data, (*U)->ld, (*Vt)->data, (*Vt)->ld, work, lwork, iwork);
  la_checkinfo(L, fname, "dgesdd", info);
  if (info > 0) la_error(L, fname, "SVD did not converge");
  lua_settop(L, top);
}

/* null(A [, tol]) / orth(A [, tol]): orthonormal bases of the null space
** (columns of V past the rank) and of the range (columns of U up to it);
** the rank counts singular values above tol, default max(m, n) * s_max *
** eps (Octave's); the SVD needs finite entries */
static int nullorth(lua_State *L, const char *fname, int wantnull) {
  la_Mat *A = la_check(L, 1, fname), *U, *s, *Vt, *B;
  double tol;
  int i, j, r = 0, m = A->rows, n = A->cols;
  tol = la_optnumber(L, fname, 2, -1.0);
  if (!lua_isnoneornil(L, 2) && !(tol >= 0)) la_argerror(L, fname, 2, "tol must be >= 0");
  lua_settop(L, 3);
  svdfull(L, A, fname, &U, &s, &Vt);
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

static int l_null(lua_State *L) { return nullorth(L, "null", 1); }
static int l_orth(lua_State *L) { return nullorth(L, "orth", 0); }

/* ------------------------------------------------------------ structured solves */

/* Solves A X = X (X holds b on entry) for solve's assume = "sym" (dsysv),
** "pos" (dposv), "lower" / "upper" (dtrtrs, that triangle only read).
** A is square with as many rows as X; pushes scratch. */
void la_solve_assume(lua_State *L, const la_Mat *A, la_Mat *X, int assume) {
  la_Mat *W;
  int n = A->rows, info, lwork;
  lapack_int *ipiv;
  double q, *work;
  if (assume == LA_ASSUME_LOWER || assume == LA_ASSUME_UPPER) {
    info = LAPACKE_dtrtrs_work(LAPACK_COL_MAJOR, assume == LA_ASSUME_LOWER ? 'L' : 'U', 'N',
                               'N', n, X->cols, A->data, A->ld, X->data, X->ld);
    la_checkinfo(L, "solve", "dtrtrs", info);
    if (info > 0) la_error(L, "solve", "matrix is singular (A(%d,%d) = 0)", info, info);
    return;
  }
  la_checksym(L, A, "solve");
  W = la_copyof(L, A);
  if (assume == LA_ASSUME_POS) {
    info = LAPACKE_dposv_work(LAPACK_COL_MAJOR, 'L', n, X->cols, W->data, W->ld, X->data, X->ld);
    la_checkinfo(L, "solve", "dposv", info);
    if (info > 0) notpd(L, "solve", info);
    return;
  }
  ipiv = (lapack_int *)la_scratch(L, (size_t)n + 1);
  info = LAPACKE_dsysv_work(LAPACK_COL_MAJOR, 'L', n, X->cols, W->data, W->ld, ipiv,
                            X->data, X->ld, &q, -1);
  la_checkinfo(L, "solve", "dsysv", info);
  work = la_work(L, "solve", q, &lwork);
  info = LAPACKE_dsysv_work(LAPACK_COL_MAJOR, 'L', n, X->cols, W->data, W->ld, ipiv,
                            X->data, X->ld, work, lwork);
  la_checkinfo(L, "solve", "dsysv", info);
  if (info > 0) la_error(L, "solve", "matrix is singular (D(%d,%d) = 0)", info, info);
}

static const luaL_Reg funcs[] = {
  {"cholesky", l_cholesky}, {"lu", l_lu}, {"eig", l_eig}, {"eigvals", l_eigvals},
  {"schur", l_schur}, {"hessenberg", l_hessenberg}, {"expm", l_expm},
  {"null", l_null}, {"orth", l_orth}, {NULL, NULL}
};

void la_open_factor(lua_State *L) {
  la_setfuncs(L, funcs);
}
