/*
** llstsq.c: least squares (dgelsd / dgels / dgelsy), ridge, Gram-Schmidt
** and nonnegative least squares bindings.
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>
#include <cblas.h>

#include "lbind.h"
#include "kernels/kernels.h"

static const double EPS = 2.220446049250313e-16;

typedef enum { LS_SVD, LS_QR, LS_QRP } LsMethod;

typedef struct LsProblem {
  la_Mat *W;       /* copy of A, overwritten */
  la_Mat *X;       /* max(m, n) x k: b on entry, x (and residual rows) on exit */
  int m, n, k;
  double rcond;
  const char *fname;
} LsProblem;

static const char *const ls_methods[] = {"svd", "qr", "qrp", NULL};
static const char *const ls_keys[] = {"method", "rcond", "ridge", "check_finite", NULL};

/* dgelsd: minimum-norm solution by divide-and-conquer SVD; pushes sv */
static int ls_svd(lua_State *L, LsProblem *P) {
  la_Mat *s = la_new(L, P->fname, P->m < P->n ? P->m : P->n, 1);
  lapack_int info, rank, liw = 1, *iw;
  double q, *w;
  int lwork;
  info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, P->m, P->n, P->k, P->W->data, P->W->ld,
                             P->X->data, P->X->ld, s->data, P->rcond, &rank, &q, -1, &liw);
  la_checkinfo(L, P->fname, "dgelsd", info);
  iw = (lapack_int *)la_scratch(L, (size_t)(liw > 1 ? liw : 1));
  w = la_work(L, P->fname, q, &lwork);
  info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, P->m, P->n, P->k, P->W->data, P->W->ld,
                             P->X->data, P->X->ld, s->data, P->rcond, &rank, w, lwork, iw);
  la_checkinfo(L, P->fname, "dgelsd", info);
  if (info > 0) la_error(L, P->fname, "SVD did not converge");
  lua_pop(L, 2);
  return rank;
}

/* The rank check of method "qr": every |R(i,i)| above rcond * max |R(i,i)|
** (singular: dgels reported an exact zero). */
void la_rankcheck(lua_State *L, const la_Mat *R, int r, double rcond, int singular,
                  const char *fname) {
  double big = 0.0, tol;
  int i;
  for (i = 0; i < r; i++) if (fabs(LA_AT(R, i, i)) > big) big = fabs(LA_AT(R, i, i));
  tol = (rcond < 0 ? EPS : rcond) * big;
  for (i = 0; i < r; i++)
    if (singular || !(fabs(LA_AT(R, i, i)) > tol))
      la_error(L, fname, "A is rank deficient (|R(%d,%d)| = %f <= %f); "
               "use method = \"svd\" or \"qrp\"", i + 1, i + 1,
               fabs(LA_AT(R, i, i)), tol);
}

/* dgels: QR (LQ when m < n) of a full-rank A. Rank deficiency is read off
** the triangular factor's diagonal and reported. */
static int ls_qr(lua_State *L, LsProblem *P) {
  lapack_int info;
  double q, *w;
  int lwork, r = P->m < P->n ? P->m : P->n;
  info = LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', P->m, P->n, P->k, P->W->data,
                            P->W->ld, P->X->data, P->X->ld, &q, -1);
  la_checkinfo(L, P->fname, "dgels", info);
  w = la_work(L, P->fname, q, &lwork);
  info = LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', P->m, P->n, P->k, P->W->data,
                            P->W->ld, P->X->data, P->X->ld, w, lwork);
  la_checkinfo(L, P->fname, "dgels", info);
  lua_pop(L, 1);
  la_rankcheck(L, P->W, r, P->rcond, info > 0, P->fname);
  return r;
}

/* dgelsy: rank-revealing QR with column pivoting; minimum-norm solution */
static int ls_qrp(lua_State *L, LsProblem *P) {
  lapack_int info, rank, *jpvt = (lapack_int *)la_scratch(L, (size_t)P->n);
  double q, *w, rc = P->rcond < 0 ? EPS : P->rcond;
  int lwork, j;
  for (j = 0; j < P->n; j++) jpvt[j] = 0;
  info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, P->m, P->n, P->k, P->W->data, P->W->ld,
                             P->X->data, P->X->ld, jpvt, rc, &rank, &q, -1);
  la_checkinfo(L, P->fname, "dgelsy", info);
  w = la_work(L, P->fname, q, &lwork);
  info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, P->m, P->n, P->k, P->W->data, P->W->ld,
                             P->X->data, P->X->ld, jpvt, rc, &rank, w, lwork);
  la_checkinfo(L, P->fname, "dgelsy", info);
  lua_pop(L, 2);
  return rank;
}

/* The one dispatch to LAPACK's least-squares drivers, for lstsq and the
** least-squares state: W (m x n) is overwritten, X (ld >= max(m, n), k
** columns) holds b on entry and x on exit. method 0 svd (pushes sv),
** 1 qr, 2 qrp. Returns the rank. */
int la_lssolve(lua_State *L, la_Mat *W, la_Mat *X, int m, int n, int k, double rcond,
               int method, const char *fname) {
  LsProblem P;
  P.W = W; P.X = X; P.m = m; P.n = n; P.k = k; P.rcond = rcond; P.fname = fname;
  return method == LS_SVD ? ls_svd(L, &P) : method == LS_QR ? ls_qr(L, &P) : ls_qrp(L, &P);
}

/* squared column norms of B - A X into res (1 x k) */
static void explicit_residuals(lua_State *L, const la_Mat *A, const la_Mat *B,
                               const la_Mat *X, la_Mat *res) {
  la_Mat *R = la_new(L, "lstsq", B->rows, B->cols);
  int j;
  lak_copy(B->rows, B->cols, B->data, B->ld, R->data, R->ld);
  lak_gemm('N', 'N', A->rows, B->cols, A->cols, -1.0, A->data, A->ld, X->data, X->ld,
           1.0, R->data, R->ld);
  for (j = 0; j < B->cols; j++) {
    double nr = cblas_dnrm2(R->rows, R->data + (ptrdiff_t)j * R->ld, 1);
    res->data[(ptrdiff_t)j * res->ld] = nr * nr;
  }
  lua_pop(L, 1);
}

/* The (ridge-augmented) problem's copies, pushed: W then X. */
static void setup(lua_State *L, LsProblem *P, const la_Mat *A, const la_Mat *B,
                  double ridge) {
  int m = A->rows, n = A->cols, j, ma = ridge > 0 ? m + n : m;
  P->m = ma; P->n = n; P->k = B->cols; P->fname = "lstsq";
  P->W = la_newzero(L, "lstsq", ma, n);
  lak_copy(m, n, A->data, A->ld, P->W->data, P->W->ld);
  for (j = 0; ridge > 0 && j < n; j++) LA_AT(P->W, m + j, j) = sqrt(ridge);
  P->X = la_newzero(L, "lstsq", ma > n ? ma : n, P->k);
  lak_copy(m, P->k, B->data, B->ld, P->X->data, P->X->ld);
}

/* Tall problems (m >= 4n) go to the least-squares state (sequential TSQR
** down to n x n); the rest to LAPACK directly. */
static int use_tsqr(int m, int n) {
  return n > 0 && m / 4 >= n;
}

/* lstsq(A, b [, opts]) -> x, residuals | nil, rank, sv | nil (NumPy's contract) */
static int l_lstsq(lua_State *L) {
  la_Mat *A = la_check(L, 1, "lstsq"), *B, *x, *res;
  LsProblem P;
  LsMethod meth;
  double ridge;
  int rank, m, n, j, svidx = 0, nok;
  la_checkopts(L, 3, "lstsq", ls_keys);
  B = la_rhs(L, 2, "lstsq", A->rows);
  m = A->rows; n = A->cols;
  if (B->rows != m) la_error(L, "lstsq", "A has %d rows but b has %d", m, B->rows);
  meth = (LsMethod)la_optenum(L, 3, "method", LS_SVD, ls_methods, "lstsq");
  ridge = la_optnum(L, 3, "ridge", 0.0, "lstsq");
  if (!(ridge >= 0 && ridge < HUGE_VAL))
    la_error(L, "lstsq", "ridge must be finite and >= 0, got %f", ridge);
  /* dgelsd iterates on A and dgelsy's rank decisions compare its entries:
  ** A is checked whatever the method; check_finite = false skips b only */
  la_needfinite(L, A, "lstsq", "A");
  if (la_wantfinite(L, 3, "lstsq")) la_checkfinite(L, B, "lstsq", "b");
  P.rcond = la_optnum(L, 3, "rcond", EPS * (m > n ? m : n), "lstsq");
  if (isnan(P.rcond)) la_error(L, "lstsq", "rcond is NaN");
  lua_settop(L, 3);
  /* the state takes k = 0 as it is */
  if (use_tsqr(m, n))
    return la_lsq_fit(L, A, B, (int)meth, P.rcond, ridge, !la_wantfinite(L, 3, "lstsq"), "lstsq");
  /* no right-hand sides: rank and sv still come from A, so one zero column
  ** is solved for and dropped (LAPACK rejects nrhs = 0 in some routines) */
  nok = B->cols == 0;
  if (nok) { B = la_newzero(L, "lstsq", m, 1); lua_replace(L, 2); }
  setup(L, &P, A, B, ridge);
  if (m == 0 || n == 0) {
    rank = 0;
    if (meth == LS_SVD) { la_new(L, "lstsq", 0, 1); svidx = lua_gettop(L); }
  } else if (meth == LS_SVD) {
    rank = ls_svd(L, &P);
    svidx = lua_gettop(L);
  } else if (meth == LS_QR) {
    rank = ls_qr(L, &P);
  } else rank = ls_qrp(L, &P);
  x = la_new(L, "lstsq", n, nok ? 0 : P.k);
  lak_copy(n, x->cols, P.X->data, P.X->ld, x->data, x->ld);
  if (rank == n && m > n) {
    res = la_new(L, "lstsq", 1, x->cols);
    for (j = 0; j < res->cols; j++) {
      double nr = cblas_dnrm2(P.m - n, P.X->data + n + (ptrdiff_t)j * P.X->ld, 1);
      res->data[(ptrdiff_t)j * res->ld] = nr * nr;
    }
    /* ridge fits the augmented system and qrp leaves no residual rows: both
    ** report ||A x - b||^2 of the data itself */
    if (!nok && (meth == LS_QRP || ridge > 0 || n == 0)) explicit_residuals(L, A, B, x, res);
  } else lua_pushnil(L);
  lua_pushinteger(L, rank);
  if (svidx) lua_pushvalue(L, svidx); else lua_pushnil(L);
  return 4;
}

/* ------------------------------------------------------------ Gram-Schmidt */

/* gram_schmidt(V [, {method = "mgs"|"cgs"|"cgs2", tol = 1e-10, drop = false}])
** -> Q, R [, kept] with V = Q R, Q^T Q = I, R upper triangular */
static int l_gram_schmidt(lua_State *L) {
  static const char *const keys[] = {"method", "tol", "drop", "check_finite", NULL};
  static const char *const methods[] = {"mgs", "cgs", "cgs2", NULL};   /* lak_GS order */
  la_Mat *V = la_check(L, 1, "gram_schmidt"), *W, *R, *Q, *Rk;
  double tol;
  int drop, m = V->rows, k = V->cols, *keep, r, j;
  lak_GS meth;
  lak_GSFail fail;
  la_checkopts(L, 2, "gram_schmidt", keys);
  meth = (lak_GS)la_optenum(L, 2, "method", LAK_MGS, methods, "gram_schmidt");
  tol = la_optnum(L, 2, "tol", 1e-10, "gram_schmidt");
  drop = la_optbool(L, 2, "drop", 0, "gram_schmidt");
  if (!(tol >= 0)) la_error(L, "gram_schmidt", "tol must be >= 0");
  if (la_wantfinite(L, 2, "gram_schmidt")) la_checkfinite(L, V, "gram_schmidt", "V");
  lua_settop(L, 2);
  W = la_copyof(L, V);                                      /* 3 */
  R = la_newzero(L, "gram_schmidt", k, k);                  /* 4 */
  keep = (int *)la_scratch(L, (size_t)k / 2 + 1);           /* 5 */
  r = lak_gram_schmidt(meth, m, k, W->data, W->ld, R->data, R->ld, tol, drop, keep,
                       la_scratch(L, LAK_GS_WORK(k)), &fail);
  if (r < 0 && !(isfinite(fail.unorm) && isfinite(fail.vnorm)))
    la_error(L, "gram_schmidt", "column %d has %s norm (V holds NaN or Inf, or overflows)",
             fail.col + 1, isnan(fail.unorm) || isnan(fail.vnorm) ? "a NaN" : "an infinite");
  if (r < 0)
    la_error(L, "gram_schmidt", "column %d is linearly dependent on the columns "
             "before it (||u|| = %f <= tol * ||v|| = %f * %f); pass drop = true to "
             "skip it", fail.col + 1, fail.unorm, tol, fail.vnorm);
  Q = la_new(L, "gram_schmidt", m, r);
  lak_copy(m, r, W->data, W->ld, Q->data, Q->ld);
  Rk = la_new(L, "gram_schmidt", r, k);
  lak_copy(r, k, R->data, R->ld, Rk->data, Rk->ld);
  if (!drop) return 2;
  lua_createtable(L, r, 0);
  for (j = 0, r = 0; j < k; j++)
    if (keep[j]) { lua_pushinteger(L, j + 1); lua_rawseti(L, -2, ++r); }
  return 3;
}

/* ------------------------------------------------------------ NNLS */

/* nnls(A, b) -> x >= 0 minimising ||A x - b||, and the residual norm */
static int l_nnls(lua_State *L) {
  la_Mat *A = la_check(L, 1, "nnls"), *B, *x;
  int p, n, lwork, it, ldb;
  lapack_int info, rank, jp = 0;
  double q, *work, *bcol, nr;
  int *iwork;
  B = la_rhs(L, 2, "nnls", A->rows);
  p = A->rows; n = A->cols;
  if (B->rows != p || B->cols != 1)
    la_error(L, "nnls", "A is %dx%d but b is %dx%d (expected %dx1)", p, n, B->rows, B->cols, p);
  static const char *const keys[] = {"check_finite", NULL};
  la_checkopts(L, 3, "nnls", keys);
  (void)la_wantfinite(L, 3, "nnls");  /* validated; the active-set loop compares both */
  la_needfinite(L, A, "nnls", "A");
  la_needfinite(L, B, "nnls", "b");
  ldb = p > n ? p : n;
  info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, p, n, 1, A->data, A->ld, B->data,
                             ldb > 0 ? ldb : 1, &jp, EPS, &rank, &q, -1);
  la_checkinfo(L, "nnls", "dgelsy", info);
  lwork = (int)(q > 1 ? q : 1);
  work = la_scratch(L, lak_nnls_work(p, n, lwork));
  iwork = (int *)la_scratch(L, (3 * (size_t)n + 2) / 2 + 1);
  bcol = la_scratch(L, (size_t)p);
  lak_copy(p, 1, B->data, B->ld, bcol, p > 0 ? p : 1);
  x = la_new(L, "nnls", n, 1);
  it = lak_nnls(p, n, A->data, A->ld, bcol, x->data, work, lwork, iwork);
  if (it < 0) la_error(L, "nnls", "did not converge in %d iterations", 3 * n + 3);
  cblas_dgemv(CblasColMajor, CblasNoTrans, p, n, -1.0, A->data, A->ld, x->data, 1,
              1.0, bcol, 1);
  nr = cblas_dnrm2(p, bcol, 1);
  lua_pushnumber(L, nr);
  return 2;
}

static const luaL_Reg funcs[] = {
  {"lstsq", l_lstsq}, {"gram_schmidt", l_gram_schmidt}, {"nnls", l_nnls},
  {NULL, NULL}
};

void la_open_lstsq(lua_State *L) {
  la_setfuncs(L, funcs);
}
