/*
** llapack.c: factorizations and solvers on LAPACKE (the _work variants, so
** every byte of workspace is a Lua userdata and an error cannot leak it).
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>
#include <cblas.h>

#include "lbind.h"
#include "kernels/kernels.h"

/* ------------------------------------------------------------ LAPACK errors */

/* LAPACK and LAPACKE report bad arguments through xerbla, which would print
** to stdout. These definitions take precedence over the library's (the
** module is first in the lookup scope of its own dependencies); they record
** the report, and the binding raises a Lua error after the call returns. */
/* per-thread, so several lua_States on several threads do not mix reports */
#if defined(__GNUC__)
#define LA_THREAD __thread
#else
#define LA_THREAD _Thread_local
#endif
static LA_THREAD char xerbla_name[16];
static LA_THREAD int xerbla_info;

LINALG_API void xerbla_(const char *name, const int *info, size_t len);
LINALG_API void xerbla_(const char *name, const int *info, size_t len) {
  size_t n = len < sizeof xerbla_name - 1 ? len : sizeof xerbla_name - 1;
  memcpy(xerbla_name, name, n);
  while (n > 0 && xerbla_name[n - 1] == ' ') n--;   /* Fortran pads names */
  xerbla_name[n] = '\0';
  xerbla_info = *info;
}

LINALG_API void LAPACKE_xerbla(const char *name, lapack_int info);
LINALG_API void LAPACKE_xerbla(const char *name, lapack_int info) {
  size_t n = strlen(name);
  xerbla_(name, &info, n);
}

/* info < 0 is a bug of ours: raise naming the routine and argument. */
void la_checkinfo(lua_State *L, const char *fname, const char *routine,
                      int info) {
  if (info < 0 || xerbla_info != 0) {
    int arg = info < 0 ? -info : xerbla_info;
    xerbla_info = 0;
    la_error(L, fname, "internal error: %s rejected argument %d", routine, arg);
  }
}

/* Workspace of the size a lwork = -1 query returned (at least 1); more
** than 32-bit LAPACK integers can count is an error before allocating. */
double *la_work(lua_State *L, const char *fname, double query, int *lwork) {
  double n = query < 1 ? 1 : query;
  if (!(n <= 2147483647.0))
    la_error(L, fname, "LAPACK workspace of %f doubles exceeds 32-bit indexing", query);
  *lwork = (int)n;
  return la_scratch(L, (size_t)*lwork);
}

/* ------------------------------------------------------------ singular values */

la_Mat *la_svals(lua_State *L, const la_Mat *A, const char *fname) {
  int k = A->rows < A->cols ? A->rows : A->cols, top;
  la_Mat *C, *s;
  lapack_int info, *iwork;
  int lwork;
  double q, *w;
  la_needfinite(L, A, fname, "A");
  C = la_copyof(L, A);
  s = la_new(L, fname, k, 1);
  top = lua_gettop(L);
  iwork = (lapack_int *)la_scratch(L, 8 * (size_t)k + 1);
  info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'N', C->rows, C->cols, C->data,
                             C->ld, s->data, NULL, 1, NULL, 1, &q, -1, iwork);
  la_checkinfo(L, fname, "dgesdd", info);
  w = la_work(L, fname, q, &lwork);
  info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'N', C->rows, C->cols, C->data,
                             C->ld, s->data, NULL, 1, NULL, 1, w, lwork, iwork);
  la_checkinfo(L, fname, "dgesdd", info);
  if (info > 0) la_error(L, fname, "SVD did not converge");
  lua_settop(L, top);
  lua_remove(L, -2);   /* the copy */
  return s;
}



/* ------------------------------------------------------------ helpers */

/* check_finite option (default true) at opts index oi */
int la_wantfinite(lua_State *L, int oi, const char *fname) {
  return la_optbool(L, oi, "check_finite", 1, fname);
}

/* the options of functions whose only option is check_finite */
static const char *const finite_only[] = {"check_finite", NULL};

/* Index of the options table: the last argument when it is a plain table
** at or after position first (a table before that is a matrix). */
static int optsat(lua_State *L, int first) {
  int top = lua_gettop(L);
  return (top >= first && lua_type(L, top) == LUA_TTABLE && !la_test(L, top)) ? top : 0;
}

static la_Mat *square(lua_State *L, int idx, const char *fname) {
  la_Mat *A = la_check(L, idx, fname);
  if (A->rows != A->cols)
    la_error(L, fname, "matrix must be square, got %dx%d", A->rows, A->cols);
  return A;
}

/* A right-hand side: an m x k matrix, or a 1 x m row read as a vector. */
la_Mat *la_rhs(lua_State *L, int idx, const char *fname, int m) {
  la_Mat *B = la_check(L, idx, fname);
  if (B->rows == 1 && B->cols == m && m != 1) {
    la_Mat *C = la_new(L, fname, m, 1);
    int i;
    for (i = 0; i < m; i++) C->data[i] = LA_AT(B, 0, i);
    lua_replace(L, idx);
    return C;
  }
  return B;
}

static int imin(int a, int b) { return a < b ? a : b; }

/* ------------------------------------------------------------ QR */

static void triu(const la_Mat *W, la_Mat *R) {
  int i, j;
  for (j = 0; j < R->cols && R->rows > 0; j++)
    for (i = 0; i <= j && i < R->rows; i++) LA_AT(R, i, j) = LA_AT(W, i, j);
}

/* qr(A [, {mode = "reduced"|"complete", pivoting = false}]) -> Q, R [, perm]
** Householder: dgeqrf (dgeqp3 with pivoting), then dorgqr forms Q. */
static int l_qr(lua_State *L) {
  static const char *const keys[] = {"mode", "pivoting", "check_finite", NULL};
  static const char *const modes[] = {"reduced", "complete", NULL};
  la_Mat *A = la_check(L, 1, "qr"), *W, *R, *Q;
  int complete, piv, m = A->rows, n = A->cols, k = imin(m, n), qc, lwork, j;
  lapack_int info, *jpvt = NULL;
  double *tau, q, *w;
  la_checkopts(L, 2, "qr", keys);
  complete = la_optenum(L, 2, "mode", 0, modes, "qr");
  piv = la_optbool(L, 2, "pivoting", 0, "qr");
  if (la_wantfinite(L, 2, "qr")) la_checkfinite(L, A, "qr", "A");
  qc = complete ? m : k;
  W = la_copyof(L, A);
  tau = la_scratch(L, (size_t)k);
  if (piv) {
    jpvt = (lapack_int *)la_scratch(L, (size_t)n);
    for (j = 0; j < n; j++) jpvt[j] = 0;
    info = LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, m, n, W->data, W->ld, jpvt, tau, &q, -1);
    la_checkinfo(L, "qr", "dgeqp3", info);
    w = la_work(L, "qr", q, &lwork);
    info = LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, m, n, W->data, W->ld, jpvt, tau, w, lwork);
    la_checkinfo(L, "qr", "dgeqp3", info);
  } else {
    info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, W->data, W->ld, tau, &q, -1);
    la_checkinfo(L, "qr", "dgeqrf", info);
    w = la_work(L, "qr", q, &lwork);
    info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, W->data, W->ld, tau, w, lwork);
    la_checkinfo(L, "qr", "dgeqrf", info);
  }
  Q = la_new(L, "qr", m, qc);
  lak_copy(m, k, W->data, W->ld, Q->data, Q->ld);
  info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, m, qc, k, Q->data, Q->ld, tau, &q, -1);
  la_checkinfo(L, "qr", "dorgqr", info);
  w = la_work(L, "qr", q, &lwork);
  info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, m, qc, k, Q->data, Q->ld, tau, w, lwork);
  la_checkinfo(L, "qr", "dorgqr", info);
  lua_pop(L, 1);                         /* work; Q on top */
  R = la_newzero(L, "qr", qc, n);
  triu(W, R);
  if (!piv) return 2;
  lua_createtable(L, n, 0);
  for (j = 0; j < n; j++) { lua_pushinteger(L, jpvt[j]); lua_rawseti(L, -2, j + 1); }
  return 3;
}

/* ------------------------------------------------------------ SVD, eigh */

/* Pushes U, s, Vt of A (dgesdd; thin unless full), s descending. */
static la_Mat *svd3(lua_State *L, const la_Mat *A, const char *fname, int full) {
  la_Mat *W, *U, *s, *Vt;
  int m = A->rows, n = A->cols, k = imin(m, n), lwork, top;
  lapack_int info, *iwork;
  double q, *w;
  char job = full ? 'A' : 'S';
  la_needfinite(L, A, fname, "A");
  W = la_copyof(L, A);
  U = la_newzero(L, fname, m, full ? m : k);
  s = la_new(L, fname, k, 1);
  Vt = la_newzero(L, fname, full ? n : k, n);
  top = lua_gettop(L);
  iwork = (lapack_int *)la_scratch(L, 8 * (size_t)k + 1);
  info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, job, m, n, W->data, W->ld, s->data,
                             U->data, U->ld, Vt->data, Vt->ld, &q, -1, iwork);
  la_checkinfo(L, fname, "dgesdd", info);
  w = la_work(L, fname, q, &lwork);
  info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, job, m, n, W->data, W->ld, s->data,
                             U->data, U->ld, Vt->data, Vt->ld, w, lwork, iwork);
  la_checkinfo(L, fname, "dgesdd", info);
  if (info > 0) la_error(L, fname, "SVD did not converge");
  lua_settop(L, top);
  lua_remove(L, -4);                  /* W */
  if (full && k == 0) {               /* LAPACK returns at once: the bases are I */
    int i;
    for (i = 0; i < m; i++) LA_AT(U, i, i) = 1.0;
    for (i = 0; i < n; i++) LA_AT(Vt, i, i) = 1.0;
  }
  return s;
}

/* svd(A [, {full = false}]) -> U, s, Vt with A = U diag(s) Vt */
static int l_svd(lua_State *L) {
  static const char *const keys[] = {"full", "check_finite", NULL};
  la_Mat *A = la_check(L, 1, "svd");
  la_checkopts(L, 2, "svd", keys);
  (void)la_wantfinite(L, 2, "svd");   /* validated; svd3 checks A regardless */
  svd3(L, A, "svd", la_optbool(L, 2, "full", 0, "svd"));
  return 3;
}

/* Symmetric within sqrt(eps) of the largest entry (NumPy reads only the
** lower triangle and never checks; a silently wrong answer is worse). */
void la_checksym(lua_State *L, const la_Mat *A, const char *fname) {
  double big = 0.0, tol;
  int i, j;
  for (j = 0; j < A->cols; j++)
    for (i = 0; i < A->rows; i++) if (fabs(LA_AT(A, i, j)) > big) big = fabs(LA_AT(A, i, j));
  tol = 1.4901161193847656e-08 * big;
  for (j = 0; j < A->cols; j++)
    for (i = j + 1; i < A->rows; i++)
      if (!(fabs(LA_AT(A, i, j) - LA_AT(A, j, i)) <= tol))
        la_error(L, fname, "matrix is not symmetric (A(%d,%d) = %f, A(%d,%d) = %f)",
                 i + 1, j + 1, LA_AT(A, i, j), j + 1, i + 1, LA_AT(A, j, i));
}

/* eigh(A) -> w, V (dsyevd, lower triangle); w ascending, A V = V diag(w) */
static int l_eigh(lua_State *L) {
  la_Mat *A = square(L, 1, "eigh"), *V, *w;
  int n = A->rows, lwork;
  lapack_int info, liwork, *iwork;
  double q, *work;
  la_checkopts(L, 2, "eigh", finite_only);
  (void)la_wantfinite(L, 2, "eigh");  /* validated; dsyevd iterates on A */
  la_needfinite(L, A, "eigh", "A");
  la_checksym(L, A, "eigh");
  w = la_new(L, "eigh", n, 1);
  V = la_copyof(L, A);
  info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, V->data, V->ld, w->data,
                             &q, -1, &liwork, -1);
  la_checkinfo(L, "eigh", "dsyevd", info);
  iwork = (lapack_int *)la_scratch(L, (size_t)(liwork > 0 ? liwork : 1));
  work = la_work(L, "eigh", q, &lwork);
  info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, V->data, V->ld, w->data,
                             work, lwork, iwork, liwork);
  la_checkinfo(L, "eigh", "dsyevd", info);
  if (info > 0) la_error(L, "eigh", "eigenvalue algorithm did not converge");
  lua_pop(L, 2);
  return 2;
}

/* ------------------------------------------------------------ LU family */

/* LU of a copy of square A (pushed); ipiv in Lua-owned memory (pushed). */
static la_Mat *lu(lua_State *L, la_Mat *A, const char *fname, lapack_int **ipiv,
                  lapack_int *info) {
  la_Mat *W = la_copyof(L, A);
  *ipiv = (lapack_int *)la_scratch(L, (size_t)A->rows);
  *info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, A->rows, A->cols, W->data, W->ld, *ipiv);
  la_checkinfo(L, fname, "dgetrf", *info);
  return W;
}

/* W (an LU factorization from lu, nonsingular) becomes the inverse */
static void inverse(lua_State *L, la_Mat *W, lapack_int *ipiv, const char *fname) {
  double q, *w;
  int lwork;
  lapack_int info;
  info = LAPACKE_dgetri_work(LAPACK_COL_MAJOR, W->rows, W->data, W->ld, ipiv, &q, -1);
  la_checkinfo(L, fname, "dgetri", info);
  w = la_work(L, fname, q, &lwork);
  info = LAPACKE_dgetri_work(LAPACK_COL_MAJOR, W->rows, W->data, W->ld, ipiv, w, lwork);
  la_checkinfo(L, fname, "dgetri", info);
  lua_pop(L, 1);
}

static void singular(lua_State *L, const char *fname, lapack_int info) {
  la_error(L, fname, "matrix is singular (U(%d,%d) = 0)", (int)info, (int)info);
}

/* solve(A, b [, {assume = "gen"}]) -> x with A x = b (dgesv; assume "sym",
** "pos", "lower", "upper": la_solve_assume); b is n x k or a vector */
static int l_solve(lua_State *L) {
  static const char *const keys[] = {"assume", "check_finite", NULL};
  static const char *const assumes[] = {"gen", "sym", "pos", "lower", "upper", NULL};
  la_Mat *A = square(L, 1, "solve"), *B, *X, *W;
  lapack_int info, *ipiv;
  int oi = optsat(L, 3), assume;
  la_checkopts(L, oi, "solve", keys);
  assume = la_optenum(L, oi, "assume", LA_ASSUME_GEN, assumes, "solve");
  B = la_rhs(L, 2, "solve", A->rows);
  A = la_test(L, 1);
  if (B->rows != A->rows)
    la_error(L, "solve", "A is %dx%d but b has %d rows", A->rows, A->cols, B->rows);
  if (la_wantfinite(L, oi, "solve")) {
    la_checkfinite(L, A, "solve", "A");
    la_checkfinite(L, B, "solve", "b");
  }
  if (assume != LA_ASSUME_GEN) {
    int top = lua_gettop(L) + 1;
    la_solve_assume(L, A, la_copyof(L, B), assume);
    lua_settop(L, top);
    return 1;
  }
  W = la_copyof(L, A);
  X = la_copyof(L, B);
  ipiv = (lapack_int *)la_scratch(L, (size_t)A->rows);
  info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, A->rows, X->cols, W->data, W->ld, ipiv,
                            X->data, X->ld);
  la_checkinfo(L, "solve", "dgesv", info);
  if (info > 0) singular(L, "solve", info);
  lua_pop(L, 1);
  return 1;
}

/* inv(A) (dgetrf + dgetri); prefer solve */
static int l_inv(lua_State *L) {
  la_Mat *A = square(L, 1, "inv"), *W;
  lapack_int info, *ipiv;
  la_checkopts(L, 2, "inv", finite_only);
  if (la_wantfinite(L, 2, "inv")) la_checkfinite(L, A, "inv", "A");
  W = lu(L, A, "inv", &ipiv, &info);
  if (info > 0) singular(L, "inv", info);
  inverse(L, W, ipiv, "inv");
  lua_pop(L, 1);
  return 1;
}

/* det(A): product of U's diagonal with the sign of the row swaps; 0 if singular */
static int l_det(lua_State *L) {
  la_Mat *A = square(L, 1, "det"), *W;
  lapack_int info, *ipiv;
  double d = 1.0;
  int i;
  la_checkopts(L, 2, "det", finite_only);
  if (la_wantfinite(L, 2, "det")) la_checkfinite(L, A, "det", "A");
  W = lu(L, A, "det", &ipiv, &info);
  for (i = 0; i < A->rows; i++) {
    d *= LA_AT(W, i, i);
    if (ipiv[i] != i + 1) d = -d;
  }
  lua_pushnumber(L, info > 0 ? 0.0 : d);
  return 1;
}

/* ------------------------------------------------------------ SVD-based */

/* positional number argument or default, skipping an options table */
static double optpos(lua_State *L, int arg, double def, const char *fname) {
  if (lua_isnoneornil(L, arg) || (lua_istable(L, arg) && !la_test(L, arg))) return def;
  return la_optnumber(L, fname, arg, def);
}

static const double EPS = 2.220446049250313e-16;

/* pinv(A [, rcond = 1e-15]): V diag(1/s) U^T over s > rcond * s_max (NumPy) */
static int l_pinv(lua_State *L) {
  la_Mat *A = la_check(L, 1, "pinv"), *U, *s, *Vt, *P;
  double rcond = optpos(L, 2, 1e-15, "pinv"), cut;
  int i, j, r = 0;
  la_checkopts(L, optsat(L, 2), "pinv", finite_only);
  (void)la_wantfinite(L, optsat(L, 2), "pinv");
  s = svd3(L, A, "pinv", 0);
  U = la_test(L, -3); Vt = la_test(L, -1);
  cut = s->rows > 0 ? rcond * s->data[0] : 0.0;
  for (i = 0; i < s->rows; i++) {
    double inv = s->data[i] > cut ? 1.0 / s->data[i] : 0.0;
    if (inv != 0.0) r = i + 1;
    for (j = 0; j < Vt->cols; j++) LA_AT(Vt, i, j) *= inv;
  }
  P = la_newzero(L, "pinv", A->cols, A->rows);
  lak_gemm('T', 'T', A->cols, A->rows, r, 1.0, Vt->data, Vt->ld, U->data, U->ld,
           0.0, P->data, P->ld);
  return 1;
}

/* rank(A [, tol]): singular values above tol = s_max * max(m, n) * eps */
static int l_rank(lua_State *L) {
  la_Mat *A = la_check(L, 1, "rank"), *s;
  int mx = A->rows > A->cols ? A->rows : A->cols, i, r = 0, oi = optsat(L, 2);
  double tol = optpos(L, 2, -1.0, "rank");     /* read before anything is pushed */
  lua_settop(L, 3);
  la_checkopts(L, oi, "rank", finite_only);
  (void)la_wantfinite(L, oi, "rank");
  s = la_svals(L, A, "rank");
  if (tol < 0) tol = s->rows > 0 ? s->data[0] * mx * EPS : 0.0;
  for (i = 0; i < s->rows; i++) if (s->data[i] > tol) r++;
  lua_pushinteger(L, r);
  return 1;
}

/* cond(A [, p]): NumPy's condition number. p = 2 (default) or -2 from the
** singular values (any shape); the other orders (1, -1, +-inf, "fro",
** "nuc") as norm(A, p) * norm(inv(A), p) of a square A. Singular: inf. */
static int l_cond(lua_State *L) {
  la_Mat *A = la_check(L, 1, "cond"), *s, *W;
  int oi = optsat(L, 2), kind;
  double p, r;
  lapack_int info, *ipiv;
  kind = la_normord(L, oi == 2 ? 3 : 2, "cond", &p);
  la_checkopts(L, oi, "cond", finite_only);
  if (A->rows == 0 || A->cols == 0) la_error(L, "cond", "empty matrix");
  if (kind == 'p' && !(p == 1 || p == -1 || p == 2 || p == -2 || isinf(p)))
    la_argerror(L, "cond", 2, "order must be 1, -1, 2, -2, math.huge, -math.huge, "
                "\"fro\" or \"nuc\"");
  if (kind == 0 || (kind == 'p' && fabs(p) == 2)) {
    (void)la_wantfinite(L, oi, "cond");     /* the SVD checks A regardless */
    s = la_svals(L, A, "cond");
    r = s->data[s->rows - 1] == 0.0 ? (p > 0 ? HUGE_VAL : 0.0)
      : p > 0 ? s->data[0] / s->data[s->rows - 1] : s->data[s->rows - 1] / s->data[0];
    lua_pushnumber(L, r);
    return 1;
  }
  A = square(L, 1, "cond");
  if (la_wantfinite(L, oi, "cond")) la_checkfinite(L, A, "cond", "A");
  r = la_matnorm(L, A, p, kind, "cond");
  W = lu(L, A, "cond", &ipiv, &info);
  if (info > 0) { lua_pushnumber(L, HUGE_VAL); return 1; }
  inverse(L, W, ipiv, "cond");
  lua_pushnumber(L, r * la_matnorm(L, W, p, kind, "cond"));
  return 1;
}

/* ------------------------------------------------------------ powers */

/* matrix_power(A, k): A^k for square A and an integer k by repeated
** squaring; k = 0 gives the identity, k < 0 powers the inverse (NumPy's
** matrix_power, Octave's A ^ k). */
static int mpower(lua_State *L, const char *fname) {
  la_Mat *A = square(L, 1, fname), *P, *B, *T;
  lua_Integer k;
  lua_Unsigned e;
  int n = A->rows, i;
  if (!lua_isinteger(L, 2)) {
    if (lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) == floor(lua_tonumber(L, 2)) &&
        fabs(lua_tonumber(L, 2)) < 9.2e18)
      lua_pushinteger(L, (lua_Integer)lua_tonumber(L, 2));
    else
      la_argerror(L, fname, 2, lua_pushfstring(L, "integer exponent expected, got %s"
                  " (elementwise power is la.pow(A, p))", lua_type(L, 2) == LUA_TNUMBER ?
                  lua_tostring(L, 2) : la_typename(L, 2)));
    lua_replace(L, 2);
  }
  k = lua_tointeger(L, 2);
  e = k < 0 ? (lua_Unsigned)0 - (lua_Unsigned)k : (lua_Unsigned)k;
  lua_settop(L, 2);
  if (k < 0) {
    lapack_int info, *ipiv;
    B = lu(L, A, fname, &ipiv, &info);         /* 3, 4 */
    if (info > 0) singular(L, fname, info);
    inverse(L, B, ipiv, fname);
    lua_pop(L, 1);
  } else B = la_copyof(L, A);                            /* 3: base */
  P = la_newzero(L, fname, n, n);               /* 4: result */
  for (i = 0; i < n; i++) LA_AT(P, i, i) = 1.0;
  T = la_new(L, fname, n, n);                   /* 5: product */
  while (e > 0) {
    if (e & 1) {
      lak_gemm('N', 'N', n, n, n, 1.0, P->data, P->ld, B->data, B->ld, 0.0, T->data, T->ld);
      lak_copy(n, n, T->data, T->ld, P->data, P->ld);
    }
    e >>= 1;
    if (e > 0) {
      lak_gemm('N', 'N', n, n, n, 1.0, B->data, B->ld, B->data, B->ld, 0.0, T->data, T->ld);
      lak_copy(n, n, T->data, T->ld, B->data, B->ld);
    }
  }
  lua_pop(L, 1);
  return 1;
}

static int l_matrix_power(lua_State *L) { return mpower(L, "matrix_power"); }

/* A ^ k: the matrix power (Octave); s ^ A has no meaning here */
static int m_pow(lua_State *L) {
  la_Mat *A = la_test(L, 1);
  if (!A)
    return la_error(L, "matrix_power", "%s ^ matrix is not defined (elementwise power is la.pow(x, A))",
             la_typename(L, 1));
  if (A->rows != A->cols)
    return la_error(L, "matrix_power", "A ^ k needs a square matrix, got %dx%d (elementwise power "
             "is la.pow(A, p))", A->rows, A->cols);
  return mpower(L, "matrix_power");
}

static const luaL_Reg meta[] = { {"__pow", m_pow}, {NULL, NULL} };

static const luaL_Reg funcs[] = {
  {"matrix_power", l_matrix_power},
  {"qr", l_qr}, {"svd", l_svd}, {"eigh", l_eigh}, {"solve", l_solve},
  {"inv", l_inv}, {"det", l_det}, {"pinv", l_pinv}, {"rank", l_rank},
  {"cond", l_cond}, {NULL, NULL}
};

void la_open_lapack(lua_State *L) {
  la_setfuncs(L, funcs);
  la_setmeta(L, meta);
  la_open_lstsq(L);
}
