/*
** measures.c: numbers that measure matrices and vectors. Norms (norm with
** every NumPy order, vecnorm along a dim), trace, rank and cond; cosine and
** angle of two vectors, cosine_matrix of two sets of rows; allclose and
** isclose (NumPy's tolerance test, broadcasting); cov and corrcoef (the
** covariance and correlation of a data matrix's variables).
*/
#include <cblas.h>
#include <float.h>
#include <limits.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* ---------------------------------------------------------------- norms */

/* induced 1- or inf-norm (largest absolute column or row sum), or with
** wantmin the smallest (NumPy's ord -1 and -inf); NaN propagates; A of
** either type, summed in double (columns: lak_vnorm's pairwise 1-norm;
** rows: lak_rowsum, a column at a time) */
static double mnorm1(lua_State *L, const la_Mat *A, int byrow, int wantmin) {
  double *acc, best;
  int k, nk = byrow ? A->rows : A->cols;
  acc = la_scratch(L, (size_t)nk + (byrow ? (size_t)nk : 0));
  if (!byrow)
    for (k = 0; k < nk; k++) acc[k] = la_lnorm(la_line(A, 1, k), 1.0);
  else if (A->dtype == LA_F32)
    lak_srowsum(LAK_RABS, (size_t)nk, (size_t)A->cols, A->fdata, A->ld, NULL, acc, acc + nk);
  else
    lak_rowsum(LAK_RABS, (size_t)nk, (size_t)A->cols, A->data, A->ld, NULL, acc, acc + nk);
  best = acc[0];
  for (k = 0; k < nk; k++) {
    if (isnan(acc[k])) { best = acc[k]; break; }
    if (wantmin ? acc[k] < best : acc[k] > best) best = acc[k];
  }
  lua_pop(L, 1);
  return best;
}

/* The max-abs (c = 'M') or Frobenius ('F') norm of A: dlange's 'M' for
** float64, the largest |entry| of a float32 A exactly; the Frobenius norm
** by lak_fro (one pass, rescaled only past overflow or underflow) */
static double lange(char c, const la_Mat *A) {
  double r = 0.0;
  int j;
  if (c == 'F')
    return A->dtype == LA_F32 ? lak_sfro((size_t)A->rows, (size_t)A->cols, A->fdata, A->ld, 1)
                              : lak_fro((size_t)A->rows, (size_t)A->cols, A->data, A->ld, 1);
  if (A->dtype == LA_F64)
    return LAPACKE_dlange_work(LAPACK_COL_MAJOR, c, A->rows, A->cols, A->data, A->ld, NULL);
  for (j = 0; j < A->cols && A->rows > 0; j++) {
    double x = la_lnorm(la_line(A, 1, j), HUGE_VAL);
    if (isnan(x)) return x;
    r = x > r ? x : r;
  }
  return r;
}

/* Singular-value norms: 2 (largest), -2 (smallest), nuclear (sum, in
** double), from la_svd in A's type (sgesdd for float32). NaN and Inf
** propagate as in the other norms rather than reach ?gesdd, which can
** stall on them: the max-abs norm is NaN when any entry is, else Inf when
** any entry is. */
static double mnormsv(lua_State *L, const la_Mat *A, int kind) {
  double mx = lange('M', A), r = 0.0;
  int i;
  la_Mat *s;
  if (!isfinite(mx)) return kind == -2 && !isnan(mx) ? NAN : mx;
  s = la_svd(L, A, la_fname(L), 'N');
  if (kind == 2) r = la_get(s, 0, 0);
  else if (kind == -2) r = la_get(s, s->rows - 1, 0);
  else for (i = 0; i < s->rows; i++) r += la_get(s, i, 0);
  lua_pop(L, 1);
  return r;
}

/* The kinds of order norm and cond take: absent, a number p, or a name
** (ORD_FRO + its index in ord_names). */
typedef enum { ORD_NONE, ORD_P, ORD_FRO, ORD_NUC } Ord;
static const char *const ord_names[] = {"fro", "nuc", NULL};

/* A matrix norm of A by NumPy's ord: kind ORD_P with p one of 1, -1, 2,
** -2, +-inf, or ORD_FRO (Frobenius) / ORD_NUC (nuclear). Of an empty
** matrix, a negative order's minimum over nothing is an error: -2 always,
** -1 without columns, -inf without rows (0 x 3's -1 is the least of three
** zero column sums, NumPy's 0); the rest are 0. */
static double matnorm(lua_State *L, const la_Mat *A, double p, Ord kind,
                      const char *fname) {
  if (kind == ORD_FRO) return lange('F', A);
  if (LA_EMPTY(A)) {
    if (kind != ORD_NUC && p < 0 && (p == -2 || (isinf(p) ? A->rows : A->cols) == 0))
      la_error(L, fname, "order %s of an empty %dx%d matrix is undefined",
               isinf(p) ? "-inf" : p == -1 ? "-1" : "-2", A->rows, A->cols);
    return 0.0;
  }
  if (kind == ORD_NUC) return mnormsv(L, A, 0);
  if (p == 1 || p == -1) return mnorm1(L, A, 0, p < 0);
  if (isinf(p)) return mnorm1(L, A, 1, p < 0);
  return mnormsv(L, A, p > 0 ? 2 : -2);
}

/* The order argument at arg: a number (ORD_P, *p), "fro" or "nuc", or
** absent (ORD_NONE); *p is 2 unless a number is given. */
static Ord normord(lua_State *L, int arg, const char *fname, double *p) {
  *p = 2.0;
  if (lua_type(L, arg) == LUA_TSTRING)
    return (Ord)(ORD_FRO + la_checkenum(L, fname, arg, ord_names,
                                        "order must be a number, \"fro\" or \"nuc\""));
  if (lua_isnoneornil(L, arg)) return ORD_NONE;
  if (lua_type(L, arg) != LUA_TNUMBER) la_typeerror(L, fname, arg, "number, \"fro\" or \"nuc\"");
  *p = lua_tonumber(L, arg);
  if (isnan(*p)) la_argerror(L, fname, arg, "order is NaN");
  return ORD_P;
}

/* the p-norm of each line of A along dim (1: each column, a 1 x n row; 2:
** each row, an m x 1 column), of A's type (pushes 1). Rows' 1- and
** 2-norms a column at a time (lak_rowsum); a row whose sum of squares
** left [2^-968, DBL_MAX] again as a line (lak_vnorm's rescaled pass). */
static void linenorms(lua_State *L, const char *fname, const la_Mat *A, double p, int dim) {
  int k, nk = dim == 1 ? A->cols : A->rows;
  la_Mat *R = la_newt(L, fname, dim == 1 ? 1 : A->rows, dim == 1 ? A->cols : 1, A->dtype);
  if (dim == 2 && A->rows > 1 && (p == 1 || p == 2)) {
    size_t m = (size_t)A->rows;
    double *w = la_scratch(L, 2 * m), x;
    lak_Rows op = p == 1 ? LAK_RABS : LAK_RSQ;
    if (A->dtype == LA_F32) lak_srowsum(op, m, (size_t)A->cols, A->fdata, A->ld, NULL, w, w + m);
    else lak_rowsum(op, m, (size_t)A->cols, A->data, A->ld, NULL, w, w + m);
    for (k = 0; k < nk; k++) {
      x = p == 1 ? w[k] : sqrt(w[k]);
      if (p == 2 && !(w[k] >= 0x1p-968 && w[k] <= DBL_MAX) && A->dtype == LA_F64)
        x = la_lnorm(la_line(A, 2, k), 2.0);
      la_put(R, k, 0, x);
    }
    lua_pop(L, 1);
    return;
  }
  if (dim == 1) {                        /* columns: one kernel call for all */
    size_t n = (size_t)A->cols, j;
    double *out = A->dtype == LA_F32 ? la_scratch(L, n) : R->data;
    if (A->dtype == LA_F32) {
      lak_scolpnorms(p, (size_t)A->rows, n, A->fdata, (size_t)A->ld, out);
      for (j = 0; j < n; j++) R->fdata[j] = (float)out[j];
      lua_pop(L, 1);
    } else {
      lak_colpnorms(p, (size_t)A->rows, n, A->data, (size_t)A->ld, out);
    }
    return;
  }
  for (k = 0; k < nk; k++)
    la_put(R, dim == 1 ? 0 : k, dim == 1 ? k : 0, la_lnorm(la_line(A, dim, k), p));
}

/* norm(A [, ord [, dim]]): vectors (n x 1 or 1 x n) take any p (default 2;
** "fro" and "nuc" are the 2-norm of a vector); matrices NumPy's 1, -1, 2,
** -2, +-inf, "fro" (default) and "nuc"; either type, in double. With dim,
** the vector norm of each column (dim 1, NumPy's axis=0) or row (dim 2,
** axis=1), as vecnorm. */
static int l_norm(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkany(L, 1, F);
  double p, r;
  Ord kind = normord(L, 2, F, &p);
  int dim = la_optdim(L, F, 3);
  if (dim) {
    if (kind == ORD_FRO || kind == ORD_NUC)
      return la_argerror(L, F, 2, "a norm along a dim takes a number order (a vector norm)");
    linenorms(L, F, A, p, dim);
    return 1;
  }
  if (la_isvec(A))
    r = la_lnorm(la_vecline(L, 1, F, LA_ANY), kind == ORD_P ? p : 2.0);
  else if (kind != ORD_P)
    r = matnorm(L, A, p, kind == ORD_NONE ? ORD_FRO : kind, F);
  else if (p == 1 || p == -1 || p == 2 || p == -2 || isinf(p))
    r = matnorm(L, A, p, ORD_P, F);
  else
    return la_argerror(L, F, 2, "matrix norm order must be 1, -1, 2, -2, "
                       "math.huge, -math.huge, \"fro\" or \"nuc\"");
  lua_pushnumber(L, r);
  return 1;
}

/* vecnorm(A [, p = 2 [, dim]]): the p-norm (any order norm takes for a
** vector) of each line along dim (see la_optlinedim), Octave's vecnorm; of
** A's type */
static int l_vecnorm(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkany(L, 1, F);
  double p = lua_isnoneornil(L, 2) ? 2.0 : la_optargnum(L, F, 2, 2.0);
  int dim = la_optlinedim(L, F, 3, A->rows, A->cols);
  if (isnan(p)) la_argerror(L, F, 2, "order is NaN");
  linenorms(L, F, A, p, dim);
  return 1;
}

/* trace(A [, offset = 0]): the sum of diagonal offset (above the main one
** for offset > 0, NumPy's trace(a, offset)), a line of stride ld + 1, in
** double; 0 past the last row or column */
static int l_trace(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkany(L, 1, F);
  lua_Integer k = lua_isnoneornil(L, 2) ? 0 : la_checkint(L, F, 2);
  lua_Integer i = k < 0 ? (k < -A->rows ? A->rows : -k) : 0, j = k > 0 ? k : 0, n;
  la_Line d;
  n = i >= A->rows || j >= A->cols ? 0 : (A->rows - i < A->cols - j ? A->rows - i : A->cols - j);
  if (n == 0) { lua_pushnumber(L, 0.0); return 1; }
  d = la_line(A, 1, (int)j);
  if (d.f) d.f += i; else d.p += i;
  d.s = (ptrdiff_t)A->ld + 1;
  d.n = (size_t)n;
  lua_pushnumber(L, la_lreduce(LAK_SUM, d, 0.0));
  return 1;
}

static double clamp1(double c) { return c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c; }

/* cos of the angle between vectors 1 and 2 (float32 pairs in double),
** scaled as lak_cosine does so that vectors of any finite scale have one */
static double cosine(lua_State *L, const char *fname) {
  la_Line u, v;
  double c;
  int zero;
  la_linepair(L, fname, &u, &v);
  c = u.f ? lak_scosine(u.n, u.f, u.s, v.f, v.s, &zero) : lak_cosine(u.n, u.p, u.s, v.p, v.s, &zero);
  if (zero)
    la_error(L, fname, "%s vector is zero (the angle is undefined)",
             zero == 1 ? "first" : "second");
  return clamp1(c);
}

static int l_cosine(lua_State *L) { lua_pushnumber(L, cosine(L, la_fname(L))); return 1; }
static int l_angle(lua_State *L) { lua_pushnumber(L, acos(cosine(L, la_fname(L)))); return 1; }

/* norms of the rows of A into out; a zero row is an error naming it. The
** sums of squares a column at a time (lak_rowsum, vectorized down the
** column); a row whose sum left [2^-968, DBL_MAX] (or is 0, or NaN) is
** taken again by la_lnorm, which scales (a strided norm a row was a
** third of cosine_matrix at 100 x 100) */
static void rownorms(lua_State *L, la_Mat *A, double *out, const char *which) {
  double *t = la_scratch(L, (size_t)A->rows);
  int i;
  if (A->dtype == LA_F32)
    lak_srowsum(LAK_RSQ, (size_t)A->rows, (size_t)A->cols, A->fdata, (size_t)A->ld, NULL, out, t);
  else
    lak_rowsum(LAK_RSQ, (size_t)A->rows, (size_t)A->cols, A->data, (size_t)A->ld, NULL, out, t);
  for (i = 0; i < A->rows; i++) {
    out[i] = out[i] >= 0x1p-968 && out[i] <= DBL_MAX ? sqrt(out[i])
                                                      : la_lnorm(la_line(A, 2, i), 2.0);
    if (out[i] == 0.0)
      la_error(L, la_fname(L), "row %d of %s is zero (the angle is undefined)",
               i + 1, which);
  }
  lua_pop(L, 1);
}

/* the exponent of the larger |entry| of a row's largest mx and smallest
** mn, 0 when both are 0 or either is not finite (NaN wins both) */
static int absexp(double mx, double mn) {
  double b = fabs(mx) > fabs(mn) ? fabs(mx) : fabs(mn);
  return b > 0 && isfinite(b) ? ilogb(b) : 0;
}

/* the exponent of each row's largest |entry| into e (0 for a zero or
** non-finite row): the rows' largest and smallest entries, a column at a
** time (lak_rowext, vectorized down the columns; A has columns) */
static void rowexps(lua_State *L, const la_Mat *A, int *e) {
  size_t m = (size_t)A->rows, i;
  if (A->dtype == LA_F32) {
    float *v = LA_SCRATCH(L, float, 2 * m);
    lak_srowext(1, m, (size_t)A->cols, A->fdata, (size_t)A->ld, v, NULL);
    lak_srowext(0, m, (size_t)A->cols, A->fdata, (size_t)A->ld, v + m, NULL);
    for (i = 0; i < m; i++) e[i] = absexp(v[i], v[m + i]);
  } else {
    double *v = la_scratch(L, 2 * m);
    lak_rowext(1, m, (size_t)A->cols, A->data, (size_t)A->ld, v, NULL);
    lak_rowext(0, m, (size_t)A->cols, A->data, (size_t)A->ld, v + m, NULL);
    for (i = 0; i < m; i++) e[i] = absexp(v[i], v[m + i]);
  }
  lua_pop(L, 1);
}

/* A, or when a row's largest |entry| is beyond 2^+-400 (2^+-40 in float32,
** whose gemm sums squares in float) a copy with each row scaled by 2^-e, e
** that entry's exponent (pushed): cosines do not change, and the products
** of the gemm neither overflow nor underflow */
static la_Mat *inrange(lua_State *L, la_Mat *A, const char *fname) {
  int lim = A->dtype == LA_F32 ? 40 : 400, i, j, out = 0, *e;
  if (LA_EMPTY(A)) return A;
  e = LA_SCRATCH(L, int, (size_t)A->rows);
  rowexps(L, A, e);
  for (i = 0; i < A->rows && !out; i++) out = abs(e[i]) > lim;
  if (out) {
    la_Mat *C = la_copyof(L, A, fname);
    lua_insert(L, -2);                      /* the copy below e */
    for (i = 0; i < C->rows; i++)
      for (j = 0; j < C->cols; j++) la_put(C, i, j, ldexp(la_get(C, i, j), -e[i]));
    A = C;
  }
  lua_pop(L, 1);
  return A;
}

/* cosine_matrix(U, V): C(i,j) = cos(U row i, V row j), via one dgemm
** (sgemm and a float32 C when both are float32; the norms in double), on
** rows scaled into range (inrange) */
static int l_cosine_matrix(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *U = la_testany(L, 1), *V = la_testany(L, 2), *C;
  int f32 = U && V && U->dtype == LA_F32 && V->dtype == LA_F32;
  double *nu, *nv;
  U = f32 ? la_checkany(L, 1, F) : la_check(L, 1, F);
  V = f32 ? la_checkany(L, 2, F) : la_check(L, 2, F);
  if (U->cols != V->cols)
    la_error(L, F, "U is %dx%d but V is %dx%d (column counts differ)",
             U->rows, U->cols, V->rows, V->cols);
  U = inrange(L, U, F);
  V = inrange(L, V, F);
  nu = la_scratch(L, (size_t)U->rows + V->rows);
  nv = nu + U->rows;
  rownorms(L, U, nu, "U");
  rownorms(L, V, nv, "V");
  C = la_newt(L, F, U->rows, V->rows, U->dtype);
  if (f32)
    lak_sgemm('N', 'T', U->rows, V->rows, U->cols, 1.0f, U->fdata, U->ld, V->fdata,
              V->ld, 0.0f, C->fdata, C->ld);
  else
    lak_gemm('N', 'T', U->rows, V->rows, U->cols, 1.0, U->data, U->ld, V->data,
             V->ld, 0.0, C->data, C->ld);
  if (f32) lak_scosscale(U->rows, V->rows, C->fdata, C->ld, nu, nv);
  else lak_cosscale(U->rows, V->rows, C->data, C->ld, nu, nv);
  return 1;
}

/* allclose(A, B [, rtol [, atol]]): NumPy's |a - b| <= atol + rtol * |b|,
** broadcasting; NaN is never close; equal infinities are. A NaN or
** negative tolerance is an error (NumPy answers False, or True nowhere). */
static int l_allclose(lua_State *L) {
  const char *F = la_fname(L);
  double rtol = la_opttol(L, F, 3, "rtol", 1e-5), atol = la_opttol(L, F, 4, "atol", 1e-8);
  la_Operand o[2];
  lak_sArg a[2];
  float s[2];
  int m, n;
  lua_settop(L, 2);
  if (la_broadcast32(L, F, a, s, 2, &m, &n))
    lua_pushboolean(L, lak_sallclose(m, n, a[0], a[1], rtol, atol));
  else {
    la_broadcast(L, F, o, 2, &m, &n);
    lua_pushboolean(L, lak_allclose(m, n, o[0].a, o[1].a, rtol, atol));
  }
  return 1;
}

/* isclose(A, B [, {rtol = 1e-5, atol = 1e-8, equal_nan = false, dtype =
** "bool"}]): true where allclose's test holds, broadcasting as lt; a bool
** mask (a 1/0 one of dtype "float64" or "float32"), two numbers a
** boolean. A NaN or negative tolerance is an error, as allclose's (NumPy
** answers False, or True nowhere). */
static int l_isclose(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"rtol", "atol", "equal_nan", "dtype", NULL};
  double rtol, atol;
  int eqnan, m, n, t;
  la_Operand o[2];
  lak_sArg a[2];
  float s[2];
  la_Mat *C;
  la_checkopts(L, 3, F, keys);
  rtol = la_optnum(L, 3, "rtol", 1e-5, F);
  atol = la_optnum(L, 3, "atol", 1e-8, F);
  eqnan = la_optbool(L, 3, "equal_nan", 0, F);
  t = la_optdtypeb(L, 3, LA_BOOL, F);     /* the mask's type: bool, or a 1/0 float mask */
  if (isnan(rtol) || isnan(atol)) la_error(L, F, "%s is NaN", isnan(rtol) ? "rtol" : "atol");
  if (rtol < 0 || atol < 0) la_error(L, F, "%s must be >= 0", rtol < 0 ? "rtol" : "atol");
  lua_settop(L, 2);
  if (la_broadcast32(L, F, a, s, 2, &m, &n)) {
    C = la_newt(L, F, m, n, LA_BOOL);
    lak_sisclose(m, n, a[0], a[1], rtol, atol, eqnan, C->bdata, C->ld);
  } else if (la_broadcast(L, F, o, 2, &m, &n)) {
    unsigned char c;
    lak_isclose(1, 1, o[0].a, o[1].a, rtol, atol, eqnan, &c, 1);
    lua_pushboolean(L, c);
    return 1;
  } else {
    C = la_newt(L, F, m, n, LA_BOOL);
    lak_isclose(m, n, o[0].a, o[1].a, rtol, atol, eqnan, C->bdata, C->ld);
  }
  if ((C = la_testmat(L, -1)) != NULL && C->dtype != t) la_convert(L, C, t, F);
  return 1;
}

/* ---------------------------------------------------------------- rank, cond */

static const char *const finite_only[] = {"check_finite", NULL};
/* rank(A [, tol]): singular values above tol = s_max * max(m, n) * eps,
** eps of A's type (NumPy's matrix_rank); la_svd in A's type */
static int l_rank(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkany(L, 1, F), *s;
  int mx = A->rows > A->cols ? A->rows : A->cols, i, r = 0, oi = la_optsat(L, 2);
  double tol = la_opttol(L, F, 2, "tol", -1.0);  /* read before anything is pushed */
  lua_settop(L, 3);
  la_checkopts(L, oi, F, finite_only);
  (void)la_optcheckfinite(L, oi, F);
  s = la_svd(L, A, F, 'N');
  if (tol < 0)
    tol = s->rows > 0 ? la_get(s, 0, 0) * mx * (A->dtype == LA_F32 ? FLT_EPSILON : DBL_EPSILON) : 0.0;
  for (i = 0; i < s->rows; i++) if (la_get(s, i, 0) > tol) r++;
  lua_pushinteger(L, r);
  return 1;
}

/* cond(A [, p]): NumPy's condition number. p = 2 (default) or -2 from the
** singular values (any shape); the other orders (1, -1, +-inf, "fro",
** "nuc") as norm(A, p) * norm(inv(A), p) of a square A. Singular: inf.
** In A's type (la_svd, la_lu, la_inverse). */
static int l_cond(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkany(L, 1, F), *s, *W;
  int oi = la_optsat(L, 2);
  Ord kind;
  double p, r, hi, lo;
  lapack_int info, *ipiv;
  kind = normord(L, oi == 2 ? 3 : 2, F, &p);
  la_checkopts(L, oi, F, finite_only);
  if (A->rows == 0 || A->cols == 0) la_error(L, F, "empty matrix");
  if (kind == ORD_P && !(p == 1 || p == -1 || p == 2 || p == -2 || isinf(p)))
    la_argerror(L, F, 2, "order must be 1, -1, 2, -2, math.huge, -math.huge, "
                "\"fro\" or \"nuc\"");
  if (kind == ORD_NONE || (kind == ORD_P && fabs(p) == 2)) {
    (void)la_optcheckfinite(L, oi, F);     /* the SVD checks A regardless */
    s = la_svd(L, A, F, 'N');
    hi = la_get(s, 0, 0); lo = la_get(s, s->rows - 1, 0);
    r = lo == 0.0 ? (p > 0 ? HUGE_VAL : 0.0) : p > 0 ? hi / lo : lo / hi;
    lua_pushnumber(L, r);
    return 1;
  }
  A = la_checksquaret(L, 1, F, A->dtype);
  if (la_optcheckfinite(L, oi, F)) la_checkfinite(L, A, F, "A", 0);
  r = matnorm(L, A, p, kind, F);
  W = la_lu(L, A, F, &ipiv, &info);
  if (info > 0) { lua_pushnumber(L, HUGE_VAL); return 1; }
  if (la_inverse(L, W, ipiv, F)) { lua_pushnumber(L, HUGE_VAL); return 1; }  /* overflows */
  lua_pushnumber(L, r * matnorm(L, W, p, kind, F));
  return 1;
}

/* ------------------------------------------------------------ covariance */

static const char *const cov_keys[] = {"rowvar", "ddof", "bias", NULL};

/* Variable v of M (pushed nothing): column v, or row v with rowvar; a
** vector (1 x n too) is one variable of its entries */
static la_Line variable(const la_Mat *M, int rowvar, int v) {
  if (M->rows == 1 || M->cols == 1) return la_line(M, M->rows == 1 ? 2 : 1, 0);
  return la_line(M, rowvar ? 2 : 1, v);
}

static int nvars(const la_Mat *M, int rowvar) {
  if (M->rows == 1 || M->cols == 1) return M->rows * M->cols > 0 ? 1 : 0;
  return rowvar ? M->rows : M->cols;
}

/* the observations of each variable of M */
static int nobs(const la_Mat *M, int rowvar) {
  if (M->rows == 1 || M->cols == 1) return M->rows * M->cols;
  return rowvar ? M->cols : M->rows;
}

/* The covariance matrix (pushed, float64) of the variables of X and Y (Y
** may be NULL) with opts at oi: *f32 when every input is float32 */
static la_Mat *covariance(lua_State *L, const char *F, la_Mat *X, la_Mat *Y, int oi, int *f32) {
  int rowvar, px, p, n, v, i;
  double ddof;
  la_Mat *Z, *C;
  la_checkopts(L, oi, F, cov_keys);
  rowvar = la_optbool(L, oi, "rowvar", 0, F);
  ddof = la_optbool(L, oi, "bias", 0, F) ? 0.0 : 1.0;
  ddof = la_optnum(L, oi, "ddof", ddof, F);
  *f32 = X->dtype == LA_F32 && (Y == NULL || Y->dtype == LA_F32);
  px = nvars(X, rowvar);
  if (Y && nvars(Y, rowvar) > INT_MAX - px)   /* X and Y of 0 x 2^31 - 1 */
    la_error(L, F, "more than %d variables", INT_MAX);
  p = px + (Y ? nvars(Y, rowvar) : 0);
  n = nobs(X, rowvar);
  if (Y && nvars(Y, rowvar) > 0 && nobs(Y, rowvar) != n)
    la_error(L, F, "X has %d observations, Y %d", n, nobs(Y, rowvar));
  /* NumPy's: an integer, negative too (n - ddof > 0 is what counts) */
  if (!(ddof == floor(ddof) && fabs(ddof) < 0x1p53))
    la_error(L, F, "option 'ddof' must be an integer below 2^53 in magnitude");
  if (p > 0 && !((double)n - ddof > 0))
    la_error(L, F, "%d observations and ddof = %f leave no degrees of freedom", n, ddof);
  /* the observations, each variable a column, centred by its mean */
  Z = la_new(L, F, n, p);
  for (v = 0; v < p; v++) {
    la_Line l = v < px ? variable(X, rowvar, v) : variable(Y, rowvar, v - px);
    double mean = la_lreduce(LAK_MEAN, l, 0), *z = Z->data + (size_t)v * Z->ld;
    if (l.f && l.s == 1) for (i = 0; i < n; i++) z[i] = (double)l.f[i] - mean;
    else if (l.s == 1) for (i = 0; i < n; i++) z[i] = l.p[i] - mean;
    else for (i = 0; i < n; i++) z[i] = LA_LX(l, i) - mean;
  }
  C = la_new(L, F, p, p);
  if (p > 0) {
    /* NumPy's X X^T, then times 1 / (n - ddof): each sum of products scaled
    ** once, after it is summed (a sum past DBL_MAX is Inf, as NumPy's);
    ** up to LAK_GRAMT_MAX variables by lak_gramt, as matmul's X^T X */
    double s = 1.0 / ((double)n - ddof);
    int j;
    if (!lak_gramt(n, p, Z->data, Z->ld, C->data, C->ld)) {
      cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, p, n, 1.0, Z->data, Z->ld > 0 ? Z->ld : 1,
                  0.0, C->data, C->ld);
      lak_mirror(p, C->data, C->ld);
    }
    for (j = 0; j < p; j++)
      for (i = 0; i < p; i++) C->data[i + (size_t)j * C->ld] *= s;
  }
  lua_remove(L, -2);                         /* Z */
  return C;
}

/* X, Y and the options' index of cov(X [, Y] [, opts]) / corrcoef: a
** table at 2 is the options when nothing follows it and it has no list
** part (a table of rows is Y) */
static int covargs(lua_State *L, const char *F, la_Mat **X, la_Mat **Y) {
  int oi = lua_type(L, 2) == LUA_TTABLE && lua_isnoneornil(L, 3) && lua_rawlen(L, 2) == 0 &&
           !la_testany(L, 2) ? 2 : 3;
  *X = la_checkargany(L, 1, F, 1);
  *Y = oi == 3 && !lua_isnoneornil(L, 2) ? la_checkargany(L, 2, F, 2) : NULL;
  return oi;
}

/* cov(X [, Y] [, {rowvar = false, ddof = 1, bias = false}]): the p x p
** covariance matrix of X's columns (its rows are observations: Octave's
** cov, NumPy's rowvar=False); rowvar = true: of its rows (NumPy's
** default); a vector is one variable; Y's variables follow X's (NumPy's
** cov(m, y)). Divided by n - ddof (bias = true: n). float32 inputs give a
** float32 result, computed in double. */
static int l_cov(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *X, *Y;
  int oi = covargs(L, F, &X, &Y), f32;
  la_Mat *C = covariance(L, F, X, Y, oi, &f32);
  if (f32) la_convert(L, C, LA_F32, F);     /* float32 inputs: a float32 result */
  return 1;
}

/* corrcoef(X [, Y] [, opts]): cov's, each entry divided by the standard
** deviations of its row's and its column's variables (in that order, as
** NumPy), then clipped to [-1, 1] (NaN stays); one variable's is c / c,
** NumPy's scalar case (exactly 1, or NaN for 0, Inf and NaN) */
static int l_corrcoef(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *X, *Y, *C;
  int oi = covargs(L, F, &X, &Y), f32, i;
  double *s;
  C = covariance(L, F, X, Y, oi, &f32);
  if (C->rows == 1 && C->cols == 1) LA_AT(C, 0, 0) /= LA_AT(C, 0, 0);
  s = la_scratch(L, (size_t)C->rows);
  for (i = 0; i < C->rows; i++) s[i] = sqrt(LA_AT(C, i, i));
  lak_corrscale(C->rows, C->cols, C->data, C->ld, s, s);      /* clipped to [-1, 1] */
  lua_pop(L, 1);
  if (f32) la_convert(L, C, LA_F32, F);
  return 1;
}

static const la_Reg funcs[] = {
  {"norm", l_norm, 3}, {"vecnorm", l_vecnorm, 3}, {"trace", l_trace, 2},
  {"rank", l_rank, 2 + LA_OPTS}, {"cond", l_cond, 2 + LA_OPTS}, {"cosine", l_cosine, 2},
  {"angle", l_angle, 2}, {"cosine_matrix", l_cosine_matrix, 2},
  {"allclose", l_allclose, 4}, {"isclose", l_isclose, 2 + LA_OPTS},
  {"cov", l_cov, 2 + LA_OPTS}, {"corrcoef", l_corrcoef, 2 + LA_OPTS}, {NULL, NULL, 0}
};

void la_open_measures(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
