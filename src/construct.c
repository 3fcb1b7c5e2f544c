/*
** construct.c: making matrices from tables, sizes and random numbers:
** matrix, vector, zeros, ones, eye, diag, rand, randn, hstack, vstack.
** (Ranges, full and the *_like functions are in shape.c.)
*/
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* The type a data table names with a dtype key (la.matrix{1, 2, dtype =
** "float32"}, as np.array([1, 2], dtype=np.float32)), or def: the key had
** been ignored, and the matrix was float64 */
static int tabledtype(lua_State *L, int i, int def, const char *fname) {
  int none;
  lua_pushliteral(L, "dtype");
  none = lua_rawget(L, i) == LUA_TNIL;       /* raw, as the entries are read */
  lua_pop(L, 1);
  return none ? def : la_optenum(L, i, "dtype", def, la_dtypes, fname);
}

/* la.matrix(tbl [, opts]), la.matrix(A [, opts]) (a copy) or
** la.matrix(m, n [, fill] [, opts]); opts.dtype "float64" or "float32"
** (or a dtype key in tbl) */
static int l_matrix(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A;
  if (lua_gettop(L) == 1 && lua_istable(L, 1)) {   /* matrix{...} */
    la_checkt(L, 1, F, tabledtype(L, 1, LA_F64, F));   /* converted in place */
    return 1;
  }
  A = la_testany(L, 1);
  int t = la_dtypeargs(L, 2, A ? A->dtype : LA_F64, F);
  if ((A || lua_istable(L, 1)) && lua_gettop(L) > 1)   /* no size after a table */
    la_argerror(L, F, 2, "matrix(t) and matrix(A) take an options table only");
  if (A == NULL && lua_istable(L, 1)) {   /* a table becomes a matrix of type t at 1 */
    la_checkt(L, 1, F, t);
    lua_settop(L, 1);
    return 1;
  }
  if (A) {
    la_checkany(L, 1, F);                 /* closed: an error */
    la_convert(L, A, t, F);
    return 1;
  }
  if (lua_type(L, 1) != LUA_TNUMBER)
    la_typeerror(L, F, 1, "table, matrix or size");
  {
    int m = la_checksize(L, F, 1), n = la_checksize(L, F, 2);
    double v = la_optargnum(L, F, 3, 0.0);
    la_fill(la_newt(L, F, m, n, t), v);
  }
  return 1;
}

/* an m x n matrix of v, m and n the arguments 1 and 2 (pushes 1) */
static void fill(lua_State *L, const char *fname, double v) {
  int t = la_dtypeargsb(L, 3, LA_F64, fname);
  int m = la_checksize(L, fname, 1), n = la_checksize(L, fname, 2);
  la_fill(la_newt(L, fname, m, n, t), v);
}

static int l_zeros(lua_State *L) { fill(L, la_fname(L), 0.0); return 1; }

static int l_ones(lua_State *L) { fill(L, la_fname(L), 1.0); return 1; }

/* eye(n [, m = n [, k = 0]] [, {dtype}]): n x m with ones on diagonal k
** (above the main one for k > 0, below for k < 0), NumPy's eye(N, M, k) */
static int l_eye(lua_State *L) {
  const char *F = la_fname(L);
  int t = la_dtypeargs(L, 2, LA_F64, F);
  int n = la_checksize(L, F, 1), i;
  int m = lua_isnoneornil(L, 2) ? n : la_checksize(L, F, 2);
  lua_Integer k = lua_isnoneornil(L, 3) ? 0 : la_checkint(L, F, 3);
  la_Mat *A = la_newt(L, F, n, m, t);
  la_fill(A, 0.0);
  for (i = k < 0 ? (k < -n ? n : (int)-k) : 0; i < n && i + k < m; i++)
    la_put(A, i, (int)(i + k), 1.0);
  return 1;
}

/* Diagonal k of an m x n matrix: its first entry (*i, *j) and its length
** (0 when k is past the last row or column), NumPy's diagonal(offset = k). */
static int diagonal(lua_Integer k, int m, int n, int *i, int *j) {
  lua_Integer len;
  *i = k < 0 ? (k < -m ? m : (int)-k) : 0;
  *j = k > 0 ? (k > n ? n : (int)k) : 0;
  len = (m - *i) < (n - *j) ? m - *i : n - *j;
  return len > 0 ? (int)len : 0;
}

/* diag(v [, k = 0]) puts vector v on diagonal k of a square matrix of size
** n + |k|; diag(A [, k = 0]) extracts diagonal k of a matrix as a column
** (NumPy's and Octave's diag); either of the argument's type. */
static int l_diag(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *V = la_checkany(L, 1, F), *A;
  lua_Integer k = lua_isnoneornil(L, 2) ? 0 : la_checkint(L, F, 2);
  int i, i0, j0, len, row = V->rows == 1;
  if (la_isvec(V)) {
    int n = row ? V->cols : V->rows;
    lua_Integer size;
    if (k < -2147483647 || k > 2147483647) la_argerror(L, F, 2, "diagonal offset too large");
    size = n + (k < 0 ? -k : k);          /* |k| checked first: no overflow */
    if (size > 2147483647) la_argerror(L, F, 2, "diagonal offset too large");
    A = la_newt(L, F, size, size, V->dtype);
    la_fill(A, 0.0);
    diagonal(k, (int)size, (int)size, &i0, &j0);
    for (i = 0; i < n; i++) la_put(A, i0 + i, j0 + i, la_get(V, row ? 0 : i, row ? i : 0));
  } else {
    len = diagonal(k, V->rows, V->cols, &i0, &j0);
    A = la_newt(L, F, len, 1, V->dtype);
    for (i = 0; i < len; i++) la_put(A, i, 0, la_get(V, i0 + i, j0 + i));
  }
  return 1;
}

/* vector(v [, opts]): a column copy of v (a table or either orientation) */
static int l_vector(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *V = la_testany(L, 1), *A;
  int data = !V && lua_gettop(L) == 1 && lua_istable(L, 1);   /* vector{...}: a dtype key in it */
  int t = la_dtypeargs(L, 2, V ? V->dtype : LA_F64, F), n, inc, i;
  if (data) t = tabledtype(L, 1, t, F);
  double *v = la_vec(L, 1, F, &n, &inc);   /* a float64 copy of a float32 v */
  A = la_newt(L, F, n, 1, t);
  for (i = 0; i < n; i++) la_put(A, i, 0, v[(ptrdiff_t)i * inc]);
  return 1;
}

static int fillrandom(lua_State *L, const char *fname, int normal) {
  int t = la_dtypeargs(L, 3, LA_F64, fname);
  int m = la_checksize(L, fname, 1), n = la_checksize(L, fname, 2);
  lak_Rng local, *r;
  la_Mat *A;
  if (lua_isnoneornil(L, 3)) r = (lak_Rng *)lua_touserdata(L, LA_UPVALUE(1));
  else { lak_rng_seed(&local, (uint64_t)la_checkint(L, fname, 3)); r = &local; }
  A = la_newt(L, fname, m, n, t);
  /* float32: the float64 draws rounded, the same stream as float64 */
  lak_rng_fill(r, normal, t == LA_F32 ? NULL : A->data, A->fdata, (size_t)m * n);
  return 1;
}

static int l_randn(lua_State *L) { return fillrandom(L, la_fname(L), 1); }

static int l_rand(lua_State *L) { return fillrandom(L, la_fname(L), 0); }

/* hstack / vstack: every item is pushed above the list (a table converted
** there), then the result (pushes cnt + 1; the result is on top). The
** result is bool when every item is a bool matrix, float32 when every
** other matrix item is (NumPy's rule; a table or number item takes their
** type), else float64. */
static int stack(lua_State *L, const char *fname, int horiz) {
  lua_Integer k, cnt, m = 0, n = 0, off = 0;
  int base, t = LA_F32, mats = 0, bools = 0;      /* tables do not vote */
  la_Mat *C;
  la_checktype(L, fname, 1, LUA_TTABLE);
  cnt = (lua_Integer)lua_rawlen(L, 1);
  /* every item is anchored on the stack while the result is built */
  if (cnt > INT_MAX - 8 || !lua_checkstack(L, (int)cnt + 4))
    la_error(L, fname, "too many items (%I)", cnt);
  base = lua_gettop(L);
  for (k = 1; k <= cnt; k++) {
    la_Mat *A;
    lua_rawgeti(L, 1, k);
    A = la_testmat(L, -1);                 /* bool as it is: la_copyto converts */
    if (!A && !lua_istable(L, -1) && lua_type(L, -1) != LUA_TNUMBER)   /* a number: 1 x 1 */
      la_error(L, fname, "item %I is not a matrix (got %s)", k, la_typename(L, -1));
    if (A && (A->flags & LA_CLOSED)) la_error(L, fname, "item %I is a closed matrix", k);
    if (A) mats++;
    if (A && A->dtype == LA_BOOL) bools++;
    if (A && A->dtype == LA_F64) t = LA_F64;
    if (!A) A = la_checkarg(L, lua_gettop(L), fname, 1);
    if (k == 1) { m = horiz ? A->rows : 0; n = horiz ? 0 : A->cols; }
    if (horiz && A->rows != m)
      la_error(L, fname, "item %I has %d rows, expected %I", k, A->rows, m);
    if (!horiz && A->cols != n)
      la_error(L, fname, "item %I has %d columns, expected %I", k, A->cols, n);
    if (horiz) n += A->cols; else m += A->rows;
    if (m > INT_MAX || n > INT_MAX) la_error(L, fname, "result too large");
  }
  C = la_newt(L, fname, m, n, cnt > 0 && bools == cnt ? LA_BOOL : mats > bools ? t : LA_F64);
  for (k = 1; k <= cnt; k++) {
    la_Mat *A = la_testmat(L, base + (int)k);
    la_Mat D = la_block(C, horiz ? 0 : (int)off, horiz ? (int)off : 0, A->rows, A->cols);
    la_copyto(A, &D);                                  /* D: where A goes */
    off += horiz ? A->cols : A->rows;
  }
  return 1;
}

static int l_hstack(lua_State *L) { return stack(L, la_fname(L), 1); }

static int l_vstack(lua_State *L) { return stack(L, la_fname(L), 0); }

static const la_Reg funcs[] = {
  {"matrix", l_matrix, 3 + LA_OPTS}, {"vector", l_vector, 1 + LA_OPTS},
  {"zeros", l_zeros, 2 + LA_OPTS}, {"ones", l_ones, 2 + LA_OPTS},
  {"eye", l_eye, 3 + LA_OPTS}, {"diag", l_diag, 2}, {"hstack", l_hstack, 1},
  {"vstack", l_vstack, 1}, {NULL, NULL, 0}
};

/* rand and randn share the module's generator (their own upvalue 1),
** seeded from the clock and an address unless a call passes its own seed */
static const la_Reg random_funcs[] = {
  {"rand", l_rand, 3 + LA_OPTS}, {"randn", l_randn, 3 + LA_OPTS}, {NULL, NULL, 0}
};

void la_open_construct(lua_State *L) {
  lak_Rng *r;
  la_setfuncs(L, funcs, 0);
  r = (lak_Rng *)lua_newuserdatauv(L, sizeof(lak_Rng), 0);
  lak_rng_seed(r, (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)r);
  la_setfuncs(L, random_funcs, 1);
}
