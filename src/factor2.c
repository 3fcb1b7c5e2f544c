/*
** factor2.c: SciPy's and NumPy's names for factorizations kept and used
** again: slogdet, lu_factor / lu_solve, cho_factor / cho_solve, and
** multi_dot (a product of several matrices in the cheapest order). In
** float64 or float32 (factor2_gen.h). LAPACKE _work variants only.
*/
#include <lapacke.h>
#include <math.h>

#include "helpers.h"
#include "kernels/kernels.h"

static const char *const finite_only[] = {"check_finite", NULL};

static void notpd(lua_State *L, const char *fname, int k) {
  la_error(L, fname, "matrix is not positive definite (the leading minor of order %d "
           "is not positive)", k);
}

/* The matrix-chain order (numpy.linalg.multi_dot's dynamic program): the
** n operands are p[i] x p[i + 1]; s[i * n + j] receives the last operand
** of the cheaper left part of the product i..j (ties: the first split, as
** NumPy). Costs are counted in double (pushes them). */
static void chainorder(lua_State *L, int n, const double *p, int *s) {
  double *m = la_scratch(L, (size_t)n * (size_t)n);
  int len, i, j, k;
  for (i = 0; i < n; i++) m[(size_t)i * n + i] = 0;
  for (len = 1; len < n; len++)
    for (i = 0; i + len < n; i++) {
      double best = HUGE_VAL;
      j = i + len;
      for (k = i; k < j; k++) {
        double q = m[(size_t)i * n + k] + m[(size_t)(k + 1) * n + j] + p[i] * p[k + 1] * p[j + 1];
        if (q < best) { best = q; s[(size_t)i * n + j] = k; }
      }
      m[(size_t)i * n + j] = best;
    }
}

#define LA_GENERIC_FILE "factor2_gen.h"
#include "generate.h"

/* ------------------------------------------------------------ slogdet */

/* slogdet(A [, {check_finite}]) -> sign, logabsdet with det(A) = sign *
** exp(logabsdet) (NumPy's slogdet): dgetrf (sgetrf for float32; the sum
** of logs in double); singular: 0, -inf; 0 x 0: 1, 0; NaN on U's diagonal
** (with check_finite = false) leaves the sign and makes logabsdet NaN, as
** NumPy's */
static int l_slogdet(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquaret(L, 1, F, la_argtype(L, 1, 1)), *W;
  lapack_int info, *ipiv;
  double sign = 1, logdet = 0;
  int i;
  la_checkopts(L, 2, F, finite_only);
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, A, F, "A", 0);
  W = la_lu(L, A, F, &ipiv, &info);
  for (i = 0; i < W->rows; i++) {
    double d = la_get(W, i, i);
    if (ipiv[i] != i + 1) sign = -sign;
    if (d < 0) sign = -sign;
    logdet += log(fabs(d));
  }
  if (info > 0) { sign = 0; logdet = -HUGE_VAL; }
  lua_pushnumber(L, sign);
  lua_pushnumber(L, logdet);
  return 2;
}

/* ------------------------------------------------------------ LU */

/* lu_factor(A [, {check_finite}]) -> F = {lu = LU, piv = piv}: SciPy's
** lu_factor (dgetrf): LU holds L (unit diagonal not stored) below the
** diagonal and U on and above it; piv (min(m, n) x 1, float64) LAPACK's
** 1-based row interchanges: row i was swapped with row piv(i). A singular
** A factors (U has a zero pivot); lu_solve refuses it. Past a subnormal
** pivot, dgetrf2 (la_lu). */
static int l_lu_factor(lua_State *L) {
  const char *F = la_fname(L);
  return la_argtype(L, 1, 1) == LA_F32 ? lu_factor_s(L, F) : lu_factor_d(L, F);
}

/* F.key of the factor table at 1 pushed (a table F is checked first) */
static int field(lua_State *L, const char *fname, const char *key, const char *from) {
  if (!lua_istable(L, 1) || la_testany(L, 1))
    la_error(L, fname, "bad argument #1 (a factorization from %s expected, got %s)", from,
             la_typename(L, 1));
  lua_getfield(L, 1, key);
  return lua_type(L, -1);
}

/* F.key, pushed by field at slot, as a matrix (a table converted in
** place); a closed matrix is named as F's field, not by its stack slot */
static la_Mat *fieldmat(lua_State *L, const char *fname, int slot, const char *key) {
  la_Mat *A = la_testany(L, slot);
  if (A && (A->flags & LA_CLOSED)) la_error(L, fname, "F.%s is a closed matrix", key);
  return la_checkany(L, slot, fname);
}

/* The square factor F.key at slot 3 (pushed; a matrix or a table read as
** one), with its name in messages */
static la_Mat *factorarg(lua_State *L, const char *fname, const char *key, const char *from) {
  la_Mat *C;
  int t = field(L, fname, key, from);
  if (t != LUA_TTABLE && t != LUA_TUSERDATA)
    la_error(L, fname, "F.%s is %s, expected a matrix (F comes from %s)", key,
             la_typename(L, -1), from);
  C = fieldmat(L, fname, 3, key);
  if (C->rows != C->cols)
    la_error(L, fname, "F.%s must be square, got %dx%d", key, C->rows, C->cols);
  return C;
}

/* F.piv (at 4) as LAPACK's ipiv for an n x n LU: n integers in 1..n */
static lapack_int *pivots(lua_State *L, const char *fname, int n) {
  la_Mat *P;
  lapack_int *ipiv;
  int i;
  int t = field(L, fname, "piv", "lu_factor");
  if (t == LUA_TNIL) la_error(L, fname, "F.piv is missing (F comes from lu_factor)");
  if (t != LUA_TTABLE && t != LUA_TUSERDATA)
    la_error(L, fname, "F.piv is %s, expected a matrix (F comes from lu_factor)", la_typename(L, -1));
  P = fieldmat(L, fname, 4, "piv");
  if (!la_isvec(P) || P->rows * P->cols != n)
    la_error(L, fname, "F.piv is %dx%d, expected %d pivots", P->rows, P->cols, n);
  ipiv = LA_SCRATCH(L, lapack_int, (size_t)n);
  for (i = 0; i < n; i++) {
    double x = P->cols == 1 ? la_get(P, i, 0) : la_get(P, 0, i);
    if (!(x >= 1 && x <= n && x == floor(x)))
      la_error(L, fname, "F.piv(%d) is not a row index in 1..%d", i + 1, n);
    ipiv[i] = (lapack_int)x;
  }
  return ipiv;
}

/* U's first zero pivot, as solve's error */
static void nonsingular(lua_State *L, const char *fname, const la_Mat *U) {
  int i;
  for (i = 0; i < U->rows; i++)
    if (la_get(U, i, i) == 0)
      la_error(L, fname, "matrix is singular (U(%d,%d) = 0)", i + 1, i + 1);
}

/* lu_solve(F, b [, {trans = false, check_finite}]) -> x with A x = b (A^T x
** = b with trans) for F = lu_factor(A): dgetrs; b n x k or a vector */
static int l_lu_solve(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"trans", "check_finite", NULL};
  int trans, check, t;
  la_Mat *LU;
  lapack_int *ipiv;
  la_checkopts(L, 3, F, keys);
  trans = la_optbool(L, 3, "trans", 0, F);
  check = la_optcheckfinite(L, 3, F);
  lua_settop(L, 2);
  LU = factorarg(L, F, "lu", "lu_factor");                 /* 3: LU */
  ipiv = pivots(L, F, LU->rows);                           /* 4: piv, 5: ipiv */
  t = la_argtype(L, 2, 2);
  LU = la_checkt(L, 3, F, t);
  nonsingular(L, F, LU);
  return t == LA_F32 ? factorsolve_s(L, F, "lu", ipiv, trans, 0, check)
                     : factorsolve_d(L, F, "lu", ipiv, trans, 0, check);
}

/* ------------------------------------------------------------ Cholesky */

/* cho_factor(A [, {lower = false, check_finite}]) -> F = {c = C, lower =
** lower}: SciPy's cho_factor (dpotrf) of a symmetric A (checked as
** cholesky does): C upper with A = C^T C (lower: A = C C^T), the other
** triangle zero (SciPy leaves A's entries there) */
static int l_cho_factor(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"lower", "check_finite", NULL};
  int lower, check;
  la_checkopts(L, 2, F, keys);
  lower = la_optbool(L, 2, "lower", 0, F);
  check = la_optcheckfinite(L, 2, F);
  return la_argtype(L, 1, 1) == LA_F32 ? cho_factor_s(L, F, lower, check)
                                        : cho_factor_d(L, F, lower, check);
}

/* cho_solve(F, b [, {check_finite}]) -> x with A x = b for F =
** cho_factor(A): dpotrs; b n x k or a vector */
static int l_cho_solve(lua_State *L) {
  const char *F = la_fname(L);
  int check, lower, t, i;
  la_Mat *C;
  la_checkopts(L, 3, F, finite_only);
  check = la_optcheckfinite(L, 3, F);
  lua_settop(L, 2);
  C = factorarg(L, F, "c", "cho_factor");                  /* 3: C */
  if (field(L, F, "lower", "cho_factor") != LUA_TBOOLEAN)  /* 4: lower */
    la_error(L, F, "F.lower is %s, expected a boolean (F comes from cho_factor)",
             la_typename(L, 4));
  lower = lua_toboolean(L, 4);
  for (i = 0; i < C->rows; i++)
    if (la_get(C, i, i) == 0)
      la_error(L, F, "F.c(%d,%d) = 0: not a Cholesky factor", i + 1, i + 1);
  t = la_argtype(L, 2, 2);
  la_checkt(L, 3, F, t);
  return t == LA_F32 ? factorsolve_s(L, F, "c", NULL, 0, lower, check)
                     : factorsolve_d(L, F, "c", NULL, 0, lower, check);
}

/* ------------------------------------------------------------ multi_dot */

/* multi_dot{A, B, C, ...}: the product of two or more matrices (tables,
** numbers: 1 x 1), in the order that costs the fewest multiplications
** (numpy.linalg.multi_dot). A first operand that is an n x 1 column (n ~=
** 1) before one with other than 1 row, a product that could not be formed
** as written, is read as the 1 x n row (NumPy's 1-D first operand); a last
** n x 1 column is NumPy's 1-D last operand as it is. The result is a
** matrix (1 x 1 for row * ... * column), float32 when every matrix is.
** At most 10000 operands (the program is cubic in their number). */
static int l_multi_dot(lua_State *L) {
  const char *F = la_fname(L);
  int n, i, t;
  la_checktype(L, F, 1, LUA_TTABLE);
  if (lua_rawlen(L, 1) > 10000) return la_error(L, F, "too many matrices (more than 10000)");
  n = (int)lua_rawlen(L, 1);
  if (n < 2) return la_error(L, F, "needs at least two matrices, got %d", n);
  lua_settop(L, 1);
  if (!lua_checkstack(L, 3 * n + 8)) return la_error(L, F, "too many matrices (%d)", n);
  for (i = 1; i <= n; i++) {
    int ti;
    lua_rawgeti(L, 1, i);
    ti = lua_type(L, -1);
    if (ti != LUA_TTABLE && ti != LUA_TNUMBER && !la_testany(L, -1))
      la_error(L, F, "item %d is not a matrix (got %s)", i, la_typename(L, -1));
    if (la_testany(L, -1) && (la_testany(L, -1)->flags & LA_CLOSED))
      la_error(L, F, "item %d is a closed matrix", i);
  }
  t = la_argtype(L, 2, n);
  for (i = 0; i < n; i++) la_checkargt(L, 2 + i, F, 1, t);
  {
    la_Mat *A = la_testany(L, 2), *B = la_testany(L, 3);
    if (A->cols == 1 && A->rows != 1 && B->rows != 1) {   /* a first vector: a row */
      la_Mat *R = la_newt(L, F, 1, A->rows, t);
      for (i = 0; i < A->rows; i++) la_put(R, 0, i, la_get(A, i, 0));
      lua_replace(L, 2);
    }
  }
  for (i = 0; i + 1 < n; i++) {
    la_Mat *A = la_testany(L, 2 + i), *B = la_testany(L, 3 + i);
    if (A->cols != B->rows)
      la_error(L, F, "operand %d is %dx%d but operand %d is %dx%d (inner %d ~= %d)", i + 1,
               A->rows, A->cols, i + 2, B->rows, B->cols, A->cols, B->rows);
  }
  return t == LA_F32 ? multi_dot_s(L, F, 2, n) : multi_dot_d(L, F, 2, n);
}

static const la_Reg funcs[] = {
  {"slogdet", l_slogdet, 1 + LA_OPTS}, {"lu_factor", l_lu_factor, 1 + LA_OPTS},
  {"lu_solve", l_lu_solve, 2 + LA_OPTS}, {"cho_factor", l_cho_factor, 1 + LA_OPTS},
  {"cho_solve", l_cho_solve, 2 + LA_OPTS}, {"multi_dot", l_multi_dot, 1},
  {NULL, NULL, 0}
};

void la_open_factor2(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
