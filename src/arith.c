/*
** larith.c: arithmetic metamethods, reductions and vector measures.
*/
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* ---------------------------------------------------------------- broadcasting */

/* la_test for the fast path below: the same checks, but the metatable is
** left on the stack (a C function's extra stack values are discarded when
** it returns), which saves an API call on an operation that costs ~20. */
static la_Mat *quick_test(lua_State *L, int idx) {
  void *p = lua_touserdata(L, idx);
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, lua_upvalueindex(1)) || lua_rawlen(L, idx) < sizeof(la_Mat))
    return NULL;
  return (la_Mat *)p;
}

static int ewise(lua_State *L, lak_Op op, const char *fname) {
  la_Operand o[2];
  int m, n, top = lua_gettop(L);
  la_Mat *C, *A = quick_test(L, 1), *B;
  /* the common case, two open matrices of one shape, skips the general
  ** operand and broadcasting code (it matters for tiny matrices) */
  if (A && top >= 2 && (B = quick_test(L, 2)) != NULL && A->rows == B->rows &&
      A->cols == B->cols && !((A->flags | B->flags) & LA_CLOSED)) {
    lak_Arg a, b;
    a.p = A->data; a.rs = 1; a.cs = A->ld;
    b.p = B->data; b.rs = 1; b.cs = B->ld;
    C = la_newat(L, fname, A->rows, A->cols, -1);   /* B's metatable is on top */
    lak_ewise(op, A->rows, A->cols, a, b, C->data, C->ld);
    return 1;
  }
  lua_settop(L, top);
  la_broadcast(L, fname, o, 2, &m, &n);
  C = la_new(L, fname, m, n);
  lak_ewise(op, m, n, o[0].a, o[1].a, C->data, C->ld);
  return 1;
}

static int m_add(lua_State *L) { return ewise(L, LAK_ADD, "add"); }
static int m_sub(lua_State *L) { return ewise(L, LAK_SUB, "sub"); }
static int l_emul(lua_State *L) { return ewise(L, LAK_MUL, la_fname(L)); }
static int l_ediv(lua_State *L) { return ewise(L, LAK_DIV, la_fname(L)); }

static int m_unm(lua_State *L) {
  lua_settop(L, 1);
  lua_pushnumber(L, -1.0);
  return ewise(L, LAK_MUL, "unm");
}

/* pow(A, p): elementwise power, broadcasting as + does; two numbers give
** a number (math's x ^ y). A ^ k is the matrix power. */
static int l_pow(lua_State *L) {
  const char *F = la_fname(L);
  if (lua_type(L, 1) == LUA_TNUMBER && lua_type(L, 2) == LUA_TNUMBER) {
    lua_pushnumber(L, pow(lua_tonumber(L, 1), lua_tonumber(L, 2)));
    return 1;
  }
  return ewise(L, LAK_POW, F);
}

/* A / s and s / A are elementwise; A / B for a matrix B would mean
** A * inv(B) in Octave and elementwise division in NumPy, so it is refused. */
static int m_div(lua_State *L) {
  if (lua_type(L, 2) != LUA_TNUMBER && lua_type(L, 1) != LUA_TNUMBER)
    la_error(L, "div", "A / B with a matrix B is ambiguous: use A:ediv(B) for "
             "elementwise division or la.solve for A * inv(B)");
  return ewise(L, LAK_DIV, "div");
}

/* ---------------------------------------------------------------- products */

static int matmul(lua_State *L, const char *fname) {
  la_Mat *A = la_check(L, 1, fname), *B = la_check(L, 2, fname), *C;
  if (A->cols != B->rows)
    la_error(L, fname, "%dx%d times %dx%d (inner %d ~= %d)", A->rows, A->cols,
             B->rows, B->cols, A->cols, B->rows);
  C = la_new(L, fname, A->rows, B->cols);
  lak_gemm('N', 'N', A->rows, B->cols, A->cols, 1.0, A->data, A->ld,
           B->data, B->ld, 0.0, C->data, C->ld);
  return 1;
}

static int l_matmul(lua_State *L) { return matmul(L, la_fname(L)); }

static int m_mul(lua_State *L) {
  if (lua_type(L, 1) == LUA_TNUMBER || lua_type(L, 2) == LUA_TNUMBER)
    return ewise(L, LAK_MUL, "mul");
  return matmul(L, "mul");
}

static int m_eq(lua_State *L) {
  la_Mat *A = la_test(L, 1), *B = la_test(L, 2);
  int i, j, eq = A && B && A->rows == B->rows && A->cols == B->cols;
  for (j = 0; eq && A->rows > 0 && j < A->cols; j++)
    for (i = 0; i < A->rows; i++)
      if (LA_AT(A, i, j) != LA_AT(B, i, j)) { eq = 0; break; }
  lua_pushboolean(L, eq);
  return 1;
}

/* ---------------------------------------------------------------- reductions */

typedef enum { R_SUM, R_PROD, R_MEAN, R_MIN, R_MAX, R_VAR, R_STD, R_ARGMIN,
               R_ARGMAX } Red;

/* index of the smallest (or largest) entry; the first NaN wins, then the
** first of equal extremes */
static int argext(la_Line l, int wantmax) {
  int i, at = 0;
  for (i = 0; i < l.n; i++) {
    double x = LA_LX(l, i);
    if (isnan(x)) return i;
    if (wantmax ? x > LA_LX(l, at) : x < LA_LX(l, at)) at = i;
  }
  return at;
}

/* variance with ddof subtracted from the count, two passes (mean first) */
static double variance(la_Line l, double ddof) {
  double mean = 0.0, ss = 0.0;
  int i;
  for (i = 0; i < l.n; i++) mean += LA_LX(l, i);
  mean /= l.n;
  for (i = 0; i < l.n; i++) ss += (LA_LX(l, i) - mean) * (LA_LX(l, i) - mean);
  return ss / (l.n - ddof);
}

/* one line reduced; argmin/argmax give a 1-based index */
static double reduce(Red r, la_Line l, double ddof) {
  double s = r == R_PROD ? 1.0 : 0.0;
  int i;
  switch (r) {
    case R_SUM: case R_MEAN: for (i = 0; i < l.n; i++) s += LA_LX(l, i); break;
    case R_PROD: for (i = 0; i < l.n; i++) s *= LA_LX(l, i); break;
    case R_MIN: case R_MAX: return LA_LX(l, argext(l, r == R_MAX));
    case R_ARGMIN: case R_ARGMAX: return argext(l, r == R_ARGMAX) + 1;
    case R_VAR: return variance(l, ddof);
    case R_STD: return sqrt(variance(l, ddof));
  }
  return r == R_MEAN ? s / l.n : s;
}

static const char *const ddof_keys[] = {"ddof", NULL};

/* ddof option of var and std: a number in [0, count) */
static double getddof(lua_State *L, int oi, const char *fname, int count) {
  double ddof;
  la_checkopts(L, oi, fname, ddof_keys);
  ddof = la_optnum(L, oi, "ddof", 0.0, fname);
  if (!(ddof >= 0.0)) la_error(L, fname, "option 'ddof' must be >= 0");
  if (count > 0 && !(ddof < count)) {
    if (ddof == floor(ddof) && ddof < 2147483647.0)
      la_error(L, fname, "ddof = %d leaves no degrees of freedom in %d entries", (int)ddof, count);
    la_error(L, fname, "ddof = %f leaves no degrees of freedom in %d entries", ddof, count);
  }
  return ddof;
}

/* f(A [, dim [, opts]]): over all entries (a number; argmin/argmax give
** the row and column), or along dim (1: a 1 x n row, 2: an m x 1 column).
** Empty: sum 0, prod 1, anything else an error. NaN propagates. */
static int reduction(lua_State *L, const char *fname, Red r) {
  la_Mat *A = la_check(L, 1, fname), *R;
  int oi = lua_istable(L, 2) && !la_test(L, 2) ? 2 : 3;
  int dim = oi == 2 ? 0 : la_optdim(L, fname, 2), k, nk, count;
  double ddof = 0.0;
  count = dim == 0 ? (A->rows * A->cols) : dim == 1 ? A->rows : A->cols;
  if (count == 0 && r != R_SUM && r != R_PROD && (dim == 0 || !LA_EMPTY(A) ||
      (dim == 1 ? A->cols : A->rows) > 0))
    la_error(L, fname, "%s of an empty %s", fname, dim ? "dimension" : "matrix");
  if (r == R_VAR || r == R_STD) ddof = getddof(L, oi, fname, count);
  else if (oi == 2 || !lua_isnoneornil(L, 3)) la_checkopts(L, oi, fname, ddof_keys + 1);
  if (dim == 0) {
    la_Line l;
    if (A->ld != A->rows && !LA_EMPTY(A)) A = la_copyof(L, A, fname);   /* a view */
    l.p = A->data; l.s = 1; l.n = count;
    if (r == R_ARGMIN || r == R_ARGMAX) {
      int at = argext(l, r == R_ARGMAX);
      lua_pushinteger(L, at % A->rows + 1);
      lua_pushinteger(L, at / A->rows + 1);
      return 2;
    }
    lua_pushnumber(L, reduce(r, l, ddof));
    return 1;
  }
  nk = dim == 1 ? A->cols : A->rows;
  R = la_new(L, fname, dim == 1 ? 1 : A->rows, dim == 1 ? A->cols : 1);
  for (k = 0; k < nk; k++) R->data[k] = reduce(r, la_line(A, dim, k), ddof);
  return 1;
}

static int l_sum(lua_State *L) { return reduction(L, la_fname(L), R_SUM); }
static int l_mean(lua_State *L) { return reduction(L, la_fname(L), R_MEAN); }
static int l_prod(lua_State *L) { return reduction(L, la_fname(L), R_PROD); }
static int l_min(lua_State *L) { return reduction(L, la_fname(L), R_MIN); }
static int l_max(lua_State *L) { return reduction(L, la_fname(L), R_MAX); }
static int l_var(lua_State *L) { return reduction(L, la_fname(L), R_VAR); }
static int l_std(lua_State *L) { return reduction(L, la_fname(L), R_STD); }
static int l_argmin(lua_State *L) { return reduction(L, la_fname(L), R_ARGMIN); }
static int l_argmax(lua_State *L) { return reduction(L, la_fname(L), R_ARGMAX); }

/* cumsum / cumprod (A [, dim]): running sums or products along dim (see
** la_optlinedim), same shape as A */
static int scan(lua_State *L, const char *fname, int prod) {
  la_Mat *A = la_check(L, 1, fname), *R;
  int dim = la_optlinedim(L, fname, 2, A->rows, A->cols), k, i, nk = dim == 1 ? A->cols : A->rows;
  R = la_new(L, fname, A->rows, A->cols);
  for (k = 0; k < nk && !LA_EMPTY(A); k++) {
    la_Line a = la_line(A, dim, k), r = la_line(R, dim, k);
    double acc = prod ? 1.0 : 0.0;
    for (i = 0; i < a.n; i++) {
      acc = prod ? acc * LA_LX(a, i) : acc + LA_LX(a, i);
      LA_LX(r, i) = acc;
    }
  }
  return 1;
}

static int l_cumsum(lua_State *L) { return scan(L, la_fname(L), 0); }
static int l_cumprod(lua_State *L) { return scan(L, la_fname(L), 1); }

/* ---------------------------------------------------------------- sorting */

typedef struct Key { double v; int i; } Key;

/* ascending with NaN last; ties keep their order (a stable sort) */
static int keyup(const void *pa, const void *pb) {
  const Key *a = (const Key *)pa, *b = (const Key *)pb;
  int na = isnan(a->v), nb = isnan(b->v);
  if (na != nb) return na - nb;
  if (!na && a->v != b->v) return a->v < b->v ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

/* descending with NaN first (Octave's sort(..., "descend")); ties stable */
static int keydown(const void *pa, const void *pb) {
  const Key *a = (const Key *)pa, *b = (const Key *)pb;
  int na = isnan(a->v), nb = isnan(b->v);
  if (na != nb) return nb - na;
  if (!na && a->v != b->v) return a->v > b->v ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

static const char *const sort_keys[] = {"descending", NULL};

/* sort(A [, dim [, {descending = false}]]) -> S, I: each line along dim
** (see la_optlinedim) sorted, with I the 1-based positions the entries came
** from (Octave's [S, I] = sort(A)); argsort returns I only. */
static int sort(lua_State *L, const char *fname, int want) {
  la_Mat *A = la_check(L, 1, fname), *S, *P;
  int oi = lua_istable(L, 2) && !la_test(L, 2) ? 2 : 3;
  int dim = la_optlinedim(L, fname, oi == 2 ? lua_gettop(L) + 1 : 2, A->rows, A->cols), down, k, i, nk;
  Key *key;
  la_checkopts(L, oi, fname, sort_keys);
  down = la_optbool(L, oi, "descending", 0, fname);
  nk = dim == 1 ? A->cols : A->rows;
  S = la_new(L, fname, A->rows, A->cols);
  P = la_new(L, fname, A->rows, A->cols);
  key = LA_SCRATCH(L, Key, LA_EMPTY(A) ? 0 : (size_t)(dim == 1 ? A->rows : A->cols));
  for (k = 0; k < nk && !LA_EMPTY(A); k++) {
    la_Line a = la_line(A, dim, k), s = la_line(S, dim, k), ix = la_line(P, dim, k);
    for (i = 0; i < a.n; i++) { key[i].v = LA_LX(a, i); key[i].i = i; }
    qsort(key, (size_t)a.n, sizeof *key, down ? keydown : keyup);
    for (i = 0; i < a.n; i++) {
      LA_LX(s, i) = key[i].v;
      LA_LX(ix, i) = key[i].i + 1;
    }
  }
  lua_pop(L, 1);
  if (want == 1) lua_remove(L, -2);          /* argsort: I only */
  return want;
}

static int l_sort(lua_State *L) { return sort(L, la_fname(L), 2); }
static int l_argsort(lua_State *L) { return sort(L, la_fname(L), 1); }

/* map(A, f): f(x, i, j) for every entry, column by column */
static int l_map(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *B;
  int i, j;
  la_checktype(L, F, 2, LUA_TFUNCTION);
  B = la_new(L, F, A->rows, A->cols);
  for (j = 0; j < A->cols && A->rows > 0; j++)
    for (i = 0; i < A->rows; i++) {
      lua_pushvalue(L, 2);
      lua_pushnumber(L, LA_AT(A, i, j));
      lua_pushinteger(L, i + 1);
      lua_pushinteger(L, j + 1);
      lua_call(L, 3, 1);
      if (lua_type(L, -1) != LUA_TNUMBER)
        la_error(L, F, "function returned %s at (%d,%d), expected a number",
                 luaL_typename(L, -1), i + 1, j + 1);
      LA_AT(B, i, j) = lua_tonumber(L, -1);
      lua_pop(L, 1);
    }
  return 1;
}

/* ---------------------------------------------------------------- measures */

static double vdot(la_Vec u, la_Vec v) { return cblas_ddot(u.n, u.p, u.inc, v.p, v.inc); }
static double vnrm2(la_Vec u) { return cblas_dnrm2(u.n, u.p, u.inc); }

static int l_dot(lua_State *L) {
  const char *F = la_fname(L);
  la_Vec u, v;
  la_vecpair(L, F, &u, &v);
  lua_pushnumber(L, vdot(u, v));
  return 1;
}

/* vector p-norm for any p (NumPy's ord): 2, +-inf, 1, 0 (count of
** nonzeros), else (sum |x|^p)^(1/p), negative p included */
static double vnorm(la_Vec u, double p) {
  int i;
  double s = 0.0;
  if (p == 2) return vnrm2(u);
  if (isinf(p)) {
    s = p > 0 ? 0.0 : HUGE_VAL;
    for (i = 0; i < u.n; i++) {
      double a = fabs(u.p[(ptrdiff_t)i * u.inc]);
      if (isnan(a)) return a;
      if (p > 0 ? a > s : a < s) s = a;
    }
    return u.n ? s : 0.0;
  }
  if (p == 1) return cblas_dasum(u.n, u.p, u.inc);
  if (p == 0) { for (i = 0; i < u.n; i++) s += u.p[(ptrdiff_t)i * u.inc] != 0.0; return s; }
  for (i = 0; i < u.n; i++) s += pow(fabs(u.p[(ptrdiff_t)i * u.inc]), p);
  return pow(s, 1.0 / p);
}

/* induced 1- or inf-norm (largest absolute column or row sum), or with
** wantmin the smallest (NumPy's ord -1 and -inf); NaN propagates */
static double mnorm1(lua_State *L, const la_Mat *A, int byrow, int wantmin) {
  double *acc, best;
  int i, j, k, nk = byrow ? A->rows : A->cols;
  acc = la_scratch(L, (size_t)nk);
  for (k = 0; k < nk; k++) acc[k] = 0.0;
  for (j = 0; j < A->cols; j++)
    for (i = 0; i < A->rows; i++) acc[byrow ? i : j] += fabs(LA_AT(A, i, j));
  best = acc[0];
  for (k = 0; k < nk; k++) {
    if (isnan(acc[k])) { best = acc[k]; break; }
    if (wantmin ? acc[k] < best : acc[k] > best) best = acc[k];
  }
  lua_pop(L, 1);
  return best;
}

/* Singular-value norms: 2 (largest), -2 (smallest), nuclear (sum). NaN
** and Inf propagate as in the other norms rather than reach dgesdd, which
** can stall on them: dlange's max-abs norm is NaN when any entry is, else
** Inf when any entry is. */
static double mnormsv(lua_State *L, const la_Mat *A, int kind) {
  double mx = LAPACKE_dlange_work(LAPACK_COL_MAJOR, 'M', A->rows, A->cols, A->data,
                                  A->ld, NULL), r = 0.0;
  la_Mat *s;
  int i;
  if (!isfinite(mx)) return kind == -2 && !isnan(mx) ? NAN : mx;
  s = la_svd(L, A, la_fname(L), 'N');
  if (kind == 2) r = s->data[0];
  else if (kind == -2) r = s->data[s->rows - 1];
  else for (i = 0; i < s->rows; i++) r += s->data[i];
  lua_pop(L, 1);
  return r;
}

/* A matrix norm of A by NumPy's ord: p one of 1, -1, 2, -2, +-inf, or
** kind 'f' (Frobenius) / 'n' (nuclear). Negative orders of an empty
** matrix are an error (a minimum over nothing); the rest are 0. */
static double la_matnorm(lua_State *L, const la_Mat *A, double p, int kind,
                  const char *fname) {
  if (kind == 'f')
    return LAPACKE_dlange_work(LAPACK_COL_MAJOR, 'F', A->rows, A->cols, A->data,
                               A->ld, NULL);
  if (LA_EMPTY(A)) {
    if (kind != 'n' && p < 0)
      la_error(L, fname, "order %s of an empty %dx%d matrix is undefined",
               isinf(p) ? "-inf" : p == -1 ? "-1" : "-2", A->rows, A->cols);
    return 0.0;
  }
  if (kind == 'n') return mnormsv(L, A, 0);
  if (p == 1 || p == -1) return mnorm1(L, A, 0, p < 0);
  if (isinf(p)) return mnorm1(L, A, 1, p < 0);
  return mnormsv(L, A, p > 0 ? 2 : -2);
}

/* The order argument at arg: a number, "fro" or "nuc" (kind 'f' / 'n'),
** or absent (kind 0). */
static int la_normord(lua_State *L, int arg, const char *fname, double *p) {
  *p = 2.0;
  if (lua_type(L, arg) == LUA_TSTRING) {
    const char *s = lua_tostring(L, arg);
    if (strcmp(s, "fro") == 0) return 'f';
    if (strcmp(s, "nuc") == 0) return 'n';
    return la_argerror(L, fname, arg, "order must be a number, \"fro\" or \"nuc\"");
  }
  if (lua_isnoneornil(L, arg)) return 0;
  if (lua_type(L, arg) != LUA_TNUMBER) la_typeerror(L, fname, arg, "number, \"fro\" or \"nuc\"");
  *p = lua_tonumber(L, arg);
  if (isnan(*p)) la_argerror(L, fname, arg, "order is NaN");
  return 'p';
}

/* norm(A [, ord]): vectors (n x 1 or 1 x n) take any p (default 2; "fro"
** and "nuc" are the 2-norm of a vector); matrices NumPy's 1, -1, 2, -2,
** +-inf, "fro" (default) and "nuc" */
static int l_norm(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F);
  double p, r;
  int kind = la_normord(L, 2, F, &p);
  if (la_isvec(A))
    r = vnorm(la_getvec(L, 1, F), kind == 'p' ? p : 2.0);
  else if (kind == 0 || kind == 'f' || kind == 'n')
    r = la_matnorm(L, A, p, kind ? kind : 'f', F);
  else if (p == 1 || p == -1 || p == 2 || p == -2 || isinf(p))
    r = la_matnorm(L, A, p, 'p', F);
  else
    return la_argerror(L, F, 2, "matrix norm order must be 1, -1, 2, -2, "
                       "math.huge, -math.huge, \"fro\" or \"nuc\"");
  lua_pushnumber(L, r);
  return 1;
}

/* vecnorm(A [, p = 2 [, dim]]): the p-norm (any order norm takes for a
** vector) of each line along dim (see la_optlinedim), Octave's vecnorm */
static int l_vecnorm(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *R;
  double p = lua_isnoneornil(L, 2) ? 2.0 : la_optargnum(L, F, 2, 2.0);
  int dim = la_optlinedim(L, F, 3, A->rows, A->cols), k, nk = dim == 1 ? A->cols : A->rows;
  if (isnan(p)) la_argerror(L, F, 2, "order is NaN");
  R = la_new(L, F, dim == 1 ? 1 : A->rows, dim == 1 ? A->cols : 1);
  for (k = 0; k < nk; k++) {
    la_Line l = la_line(A, dim, k);
    la_Vec v;
    v.p = l.p; v.n = l.n; v.inc = (int)l.s;
    R->data[k] = vnorm(v, p);
  }
  return 1;
}

static int l_outer(lua_State *L) {
  const char *F = la_fname(L);
  la_Vec u = la_getvec(L, 1, F), v = la_getvec(L, 2, F);
  la_Mat *C = la_new(L, F, u.n, v.n);
  int i, j;
  for (j = 0; j < v.n && u.n > 0; j++)
    for (i = 0; i < u.n; i++)
      LA_AT(C, i, j) = u.p[(ptrdiff_t)i * u.inc] * v.p[(ptrdiff_t)j * v.inc];
  return 1;
}

static int l_trace(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F);
  double s = 0.0;
  int i;
  for (i = 0; i < A->rows && i < A->cols; i++) s += LA_AT(A, i, i);
  lua_pushnumber(L, s);
  return 1;
}

static double clamp1(double c) { return c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c; }

static double cosine(lua_State *L, const char *fname) {
  la_Vec u, v;
  double nu, nv;
  la_vecpair(L, fname, &u, &v);
  nu = vnrm2(u); nv = vnrm2(v);
  if (nu == 0.0 || nv == 0.0)
    la_error(L, fname, "%s vector is zero (the angle is undefined)",
             nu == 0.0 ? "first" : "second");
  return clamp1(vdot(u, v) / (nu * nv));
}

static int l_cosine(lua_State *L) { lua_pushnumber(L, cosine(L, la_fname(L))); return 1; }
static int l_angle(lua_State *L) { lua_pushnumber(L, acos(cosine(L, la_fname(L)))); return 1; }

/* norms of the rows of A into out; a zero row is an error naming it */
static void rownorms(lua_State *L, la_Mat *A, double *out, const char *which) {
  int i;
  for (i = 0; i < A->rows; i++) {
    out[i] = cblas_dnrm2(A->cols, A->data + i, A->ld);
    if (out[i] == 0.0)
      la_error(L, la_fname(L), "row %d of %s is zero (the angle is undefined)",
               i + 1, which);
  }
}

/* cosine_matrix(U, V): C(i,j) = cos(U row i, V row j), via one dgemm */
static int l_cosine_matrix(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *U = la_check(L, 1, F), *V = la_check(L, 2, F), *C;
  double *nu, *nv;
  int i, j;
  if (U->cols != V->cols)
    la_error(L, F, "U is %dx%d but V is %dx%d (column counts differ)",
             U->rows, U->cols, V->rows, V->cols);
  nu = la_scratch(L, (size_t)U->rows + V->rows);
  nv = nu + U->rows;
  rownorms(L, U, nu, "U");
  rownorms(L, V, nv, "V");
  C = la_new(L, F, U->rows, V->rows);
  lak_gemm('N', 'T', U->rows, V->rows, U->cols, 1.0, U->data, U->ld, V->data,
           V->ld, 0.0, C->data, C->ld);
  for (j = 0; j < V->rows; j++)
    for (i = 0; i < U->rows; i++) LA_AT(C, i, j) = clamp1(LA_AT(C, i, j) / (nu[i] * nv[j]));
  return 1;
}

/* allclose(A, B [, rtol [, atol]]): NumPy's |a - b| <= atol + rtol * |b|,
** broadcasting; NaN is never close; equal infinities are. */
static int l_allclose(lua_State *L) {
  const char *F = la_fname(L);
  double rtol = la_optargnum(L, F, 3, 1e-5), atol = la_optargnum(L, F, 4, 1e-8);
  la_Operand o[2];
  int m, n, i, j, ok = 1;
  la_broadcast(L, F, o, 2, &m, &n);
  for (j = 0; ok && m > 0 && j < n; j++)
    for (i = 0; i < m; i++) {
      double a = o[0].a.p[i * o[0].a.rs + j * o[0].a.cs], b = o[1].a.p[i * o[1].a.rs + j * o[1].a.cs];
      if (a == b) continue;
      if (!(fabs(a - b) <= atol + rtol * fabs(b))) { ok = 0; break; }
    }
  lua_pushboolean(L, ok);
  return 1;
}


/* ---------------------------------------------------------------- rank, cond */

static const char *const finite_only[] = {"check_finite", NULL};
static const double EPS = 2.220446049250313e-16;

/* rank(A [, tol]): singular values above tol = s_max * max(m, n) * eps */
static int l_rank(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *s;
  int mx = A->rows > A->cols ? A->rows : A->cols, i, r = 0, oi = la_optsat(L, 2);
  double tol = la_optposnum(L, F, 2, -1.0);     /* read before anything is pushed */
  lua_settop(L, 3);
  la_checkopts(L, oi, F, finite_only);
  (void)la_optcheckfinite(L, oi, F);
  s = la_svd(L, A, F, 'N');
  if (tol < 0) tol = s->rows > 0 ? s->data[0] * mx * EPS : 0.0;
  for (i = 0; i < s->rows; i++) if (s->data[i] > tol) r++;
  lua_pushinteger(L, r);
  return 1;
}

/* cond(A [, p]): NumPy's condition number. p = 2 (default) or -2 from the
** singular values (any shape); the other orders (1, -1, +-inf, "fro",
** "nuc") as norm(A, p) * norm(inv(A), p) of a square A. Singular: inf. */
static int l_cond(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *s, *W;
  int oi = la_optsat(L, 2), kind;
  double p, r;
  lapack_int info, *ipiv;
  kind = la_normord(L, oi == 2 ? 3 : 2, F, &p);
  la_checkopts(L, oi, F, finite_only);
  if (A->rows == 0 || A->cols == 0) la_error(L, F, "empty matrix");
  if (kind == 'p' && !(p == 1 || p == -1 || p == 2 || p == -2 || isinf(p)))
    la_argerror(L, F, 2, "order must be 1, -1, 2, -2, math.huge, -math.huge, "
                "\"fro\" or \"nuc\"");
  if (kind == 0 || (kind == 'p' && fabs(p) == 2)) {
    (void)la_optcheckfinite(L, oi, F);     /* the SVD checks A regardless */
    s = la_svd(L, A, F, 'N');
    r = s->data[s->rows - 1] == 0.0 ? (p > 0 ? HUGE_VAL : 0.0)
      : p > 0 ? s->data[0] / s->data[s->rows - 1] : s->data[s->rows - 1] / s->data[0];
    lua_pushnumber(L, r);
    return 1;
  }
  A = la_checksquare(L, 1, F);
  if (la_optcheckfinite(L, oi, F)) la_checkfinite(L, A, F, "A", 0);
  r = la_matnorm(L, A, p, kind, F);
  W = la_lu(L, A, F, &ipiv, &info);
  if (info > 0) { lua_pushnumber(L, HUGE_VAL); return 1; }
  la_inverse(L, W, ipiv, F);
  lua_pushnumber(L, r * la_matnorm(L, W, p, kind, F));
  return 1;
}

static const luaL_Reg funcs[] = {
  {"emul", l_emul}, {"ediv", l_ediv}, {"sum", l_sum}, {"mean", l_mean},
  {"min", l_min}, {"max", l_max}, {"prod", l_prod}, {"var", l_var},
  {"std", l_std}, {"argmin", l_argmin}, {"argmax", l_argmax},
  {"cumsum", l_cumsum}, {"cumprod", l_cumprod}, {"sort", l_sort},
  {"argsort", l_argsort}, {"vecnorm", l_vecnorm}, {"map", l_map}, {"dot", l_dot},
  {"norm", l_norm}, {"rank", l_rank}, {"cond", l_cond}, {"outer", l_outer}, {"trace", l_trace},
  {"cosine", l_cosine}, {"angle", l_angle}, {"cosine_matrix", l_cosine_matrix},
  {"allclose", l_allclose}, {"matmul", l_matmul}, {"pow", l_pow},
  {NULL, NULL}
};

static const luaL_Reg meta[] = {
  {"__add", m_add}, {"__sub", m_sub}, {"__mul", m_mul}, {"__div", m_div},
  {"__unm", m_unm}, {"__eq", m_eq}, {NULL, NULL}
};

void la_open_arith(lua_State *L) {
  la_setfuncs(L, funcs, 0);
  la_setmeta(L, meta);
}
