/*
** elementwise.c: elementwise functions, comparisons, masks and index selection
** (NumPy's ufuncs and Octave's logical functions). Every function takes
** matrices (or tables) and numbers; a number in gives a number out, as math
** does. Comparisons and predicates give bool matrices (1/0 float masks with
** {dtype = "float64"} or "float32"), or a boolean for numbers.
*/
#include <limits.h>
#include <math.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* ---------------------------------------------------------------- unary */

static const char *const fn_names[LAK_NFN] = {
  "exp", "log", "log1p", "expm1", "sqrt", "abs", "sign", "floor", "ceil",
  "round", "sin", "cos", "tan", "tanh", "sinh", "cosh", "asin", "acos",
  "atan", "log2", "log10", "trunc", "isnan", "isinf", "isfinite"
};

/* f(A): own upvalue 1 is the lak_Fn. A number gives a number (a boolean for
** isnan, isinf and isfinite); a matrix one of its type. */
static int l_unary(lua_State *L) {
  lak_Fn f = (lak_Fn)lua_tointeger(L, LA_UPVALUE(1));
  la_Mat *A, *B;
  if (lua_type(L, 1) == LUA_TNUMBER) {
    double y = lak_unary1(f, lua_tonumber(L, 1));
    if (f >= LAK_ISNAN) lua_pushboolean(L, y != 0.0);
    else lua_pushnumber(L, y);
    return 1;
  }
  A = la_checkany(L, 1, la_fname(L));        /* the name called: fix is trunc */
  B = la_newt(L, la_fname(L), A->rows, A->cols, A->dtype);
  if (A->dtype == LA_F32) lak_sunary(f, A->rows, A->cols, A->fdata, A->ld, B->fdata, B->ld);
  else lak_unary(f, A->rows, A->cols, A->data, A->ld, B->data, B->ld);
  return 1;
}

/* The dtype option of a comparison or test, its options table at oi: bool
** by default; "float64" or "float32" give a 1/0 mask of that type. */
static int maskdtype(lua_State *L, int oi, const char *fname) {
  static const char *const keys[] = {"dtype", NULL};
  la_checkopts(L, oi, fname, keys);
  return la_optdtypeb(L, oi, LA_BOOL, fname);
}

/* The 1/0 mask on top (a matrix of its operands' type, or a boolean for
** numbers) as type t, in place. */
static int masktype(lua_State *L, int t, const char *fname) {
  la_Mat *C = la_testmat(L, -1);
  if (C && C->dtype != t) la_convert(L, C, t, fname);
  return 1;
}

/* isnan / isinf / isfinite (A [, {dtype}]): own upvalue 1 is the lak_Fn;
** a bool matrix, or a boolean for a number. */
static int l_test(lua_State *L) {
  lak_Fn f = (lak_Fn)lua_tointeger(L, LA_UPVALUE(1));
  const char *F = la_fname(L);
  int t = maskdtype(L, 2, F);
  la_Mat *A, *B;
  lua_settop(L, 1);
  if (t != LA_BOOL || lua_type(L, 1) == LUA_TNUMBER) {   /* the float mask, converted */
    l_unary(L);
    return masktype(L, t, F);
  }
  A = la_checkany(L, 1, F);
  B = la_newt(L, F, A->rows, A->cols, LA_BOOL);
  if (A->dtype == LA_F32) lak_stest(f, A->rows, A->cols, A->fdata, A->ld, B->bdata, B->ld);
  else lak_test(f, A->rows, A->cols, A->data, A->ld, B->bdata, B->ld);
  return 1;
}

/* round(A [, decimals = 0]): half to even (NumPy's np.round), to decimals
** places, by NumPy's steps (lak_round) in A's type; without decimals the
** unary round (own upvalue 1). A number gives a number. */
static int l_round(lua_State *L) {
  const char *F = la_fname(L);
  lua_Integer d;
  la_Mat *A, *B;
  if (lua_isnoneornil(L, 2)) return l_unary(L);
  d = la_checkint(L, F, 2);
  if (d < -400) d = -400;              /* 10^400 is inf already */
  if (d > 400) d = 400;
  if (lua_type(L, 1) == LUA_TNUMBER) {
    double x = lua_tonumber(L, 1), y;
    lak_round((int)d, 1, 1, &x, 1, &y, 1);
    lua_pushnumber(L, y);
    return 1;
  }
  A = la_checkany(L, 1, F);
  B = la_newt(L, F, A->rows, A->cols, A->dtype);
  if (A->dtype == LA_F32) lak_sround((int)d, A->rows, A->cols, A->fdata, A->ld, B->fdata, B->ld);
  else lak_round((int)d, A->rows, A->cols, A->data, A->ld, B->data, B->ld);
  return 1;
}

/* ---------------------------------------------------------------- binary */

static const char *const bin_names[LAK_NBIN] = {
  "maximum", "minimum", "lt", "le", "gt", "ge", "eq", "ne", "atan2", "hypot", "fmod", "mod"
};

/* op(A, B) broadcasting as A + B; own upvalue 1 is the lak_Bin. Two numbers
** give a number (a boolean for the comparisons); float32 matrices (with
** numbers) a float32 matrix, anything with float64 a float64 one. */
static int binary(lua_State *L, lak_Bin op) {
  la_Operand o[2];
  lak_sArg a[2];
  float s[2];
  int m, n;
  la_Mat *C;
  lua_settop(L, 2);
  if (la_broadcast32(L, bin_names[op], a, s, 2, &m, &n)) {
    C = la_newt(L, bin_names[op], m, n, LA_F32);
    lak_sbinary(op, m, n, a[0], a[1], C->fdata, C->ld);
    return 1;
  }
  if (la_broadcast(L, bin_names[op], o, 2, &m, &n)) {
    double c;
    lak_binary(op, 1, 1, o[0].a, o[1].a, &c, 1);
    if (op >= LAK_LT && op <= LAK_NE) lua_pushboolean(L, c != 0.0);
    else lua_pushnumber(L, c);
    return 1;
  }
  C = la_new(L, bin_names[op], m, n);
  lak_binary(op, m, n, o[0].a, o[1].a, C->data, C->ld);
  return 1;
}

static int l_binary(lua_State *L) { return binary(L, (lak_Bin)lua_tointeger(L, LA_UPVALUE(1))); }

/* A % B: mod(A, B), as Lua's % on numbers and NumPy's % */
static int m_mod(lua_State *L) { return binary(L, LAK_MOD); }

/* lt, le, gt, ge, eq, ne (A, B [, {dtype}]) broadcasting as A + B: a bool
** matrix; two numbers give a boolean. */
static int l_compare(lua_State *L) {
  lak_Bin op = (lak_Bin)lua_tointeger(L, LA_UPVALUE(1));
  const char *F = bin_names[op];
  int t = maskdtype(L, 3, F), m, n;
  la_Operand o[2];
  lak_sArg a[2];
  float s[2];
  la_Mat *C;
  lua_settop(L, 2);
  if (t != LA_BOOL) {                  /* the float mask, converted */
    l_binary(L);
    return masktype(L, t, F);
  }
  if (la_broadcast32(L, F, a, s, 2, &m, &n)) {
    C = la_newt(L, F, m, n, LA_BOOL);
    lak_scompare(op, m, n, a[0], a[1], C->bdata, C->ld);
    return 1;
  }
  if (la_broadcast(L, F, o, 2, &m, &n)) return l_binary(L);   /* two numbers: a boolean */
  C = la_newt(L, F, m, n, LA_BOOL);
  lak_compare(op, m, n, o[0].a, o[1].a, C->bdata, C->ld);
  return 1;
}

/* ---------------------------------------------------------------- ternary */

typedef void (*Ternary)(int, int, lak_Arg, lak_Arg, lak_Arg, double *, int);
typedef void (*Ternary32)(int, int, lak_sArg, lak_sArg, lak_sArg, float *, int);

/* f or f32 (operands as l_binary's) */
static int ternary(lua_State *L, const char *fname, Ternary f, Ternary32 f32) {
  la_Operand o[3];
  lak_sArg a[3];
  float s[3];
  int m, n;
  la_Mat *C;
  lua_settop(L, 3);
  if (la_broadcast32(L, fname, a, s, 3, &m, &n)) {
    C = la_newt(L, fname, m, n, LA_F32);
    f32(m, n, a[0], a[1], a[2], C->fdata, C->ld);
    return 1;
  }
  if (la_broadcast(L, fname, o, 3, &m, &n)) {
    double c;
    f(1, 1, o[0].a, o[1].a, o[2].a, &c, 1);
    lua_pushnumber(L, c);
    return 1;
  }
  C = la_new(L, fname, m, n);
  f(m, n, o[0].a, o[1].a, o[2].a, C->data, C->ld);
  return 1;
}

/* where's fast path: an open bool mask K at 1, and A and B each a number or
** an open matrix of K's shape (numbers do not vote; a float64 and a float32
** matrix: float64, NumPy's promotion, the float32 one widened first, as the
** general path reads a bool mask as 1/0 at 5 ns an entry); else 0, having
** pushed nothing. */
static int boolwhere(lua_State *L, const la_Mat *K, const char *fname) {
  double d[2];
  float f[2];
  lak_Arg a[2];
  lak_sArg s[2];
  la_Mat *C, *X[2] = {NULL, NULL};
  int i, t = LA_ANY;
  for (i = 0; i < 2; i++) {
    if (lua_type(L, i + 2) == LUA_TNUMBER) {
      d[i] = lua_tonumber(L, i + 2); f[i] = (float)d[i];
      a[i].p = &d[i]; s[i].p = &f[i]; a[i].rs = a[i].cs = s[i].rs = s[i].cs = 0;
      continue;
    }
    X[i] = la_testmat(L, i + 2);
    if (!X[i] || X[i]->dtype == LA_BOOL || (X[i]->flags & LA_CLOSED) || X[i]->rows != K->rows ||
        X[i]->cols != K->cols) return 0;
    t = t == LA_ANY || t == X[i]->dtype ? X[i]->dtype : LA_F64;
  }
  for (i = 0; i < 2; i++) {
    if (X[i] == NULL) continue;
    if (X[i]->dtype != t) X[i] = la_convert(L, X[i], t, fname);   /* float32 to float64 */
    a[i].p = X[i]->data; s[i].p = X[i]->fdata;
    a[i].rs = s[i].rs = 1; a[i].cs = s[i].cs = X[i]->ld;
  }
  C = la_newt(L, fname, K->rows, K->cols, t == LA_F32 ? LA_F32 : LA_F64);
  if (t == LA_F32) lak_sbwhere(K->rows, K->cols, K->bdata, K->ld, s[0], s[1], C->fdata, C->ld);
  else lak_bwhere(K->rows, K->cols, K->bdata, K->ld, a[0], a[1], C->data, C->ld);
  return 1;
}

/* where(mask, A, B): A where mask is true or nonzero (NaN included), else B */
static int l_where(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *K = la_testmat(L, 1);
  lua_settop(L, 3);
  if (K && K->dtype == LA_BOOL && !(K->flags & LA_CLOSED) && boolwhere(L, K, F)) return 1;
  return ternary(L, F, lak_where, lak_swhere);
}
/* clip(A, lo, hi): min(max(A, lo), hi) */
static int l_clip(lua_State *L) { return ternary(L, la_fname(L), lak_clip, lak_sclip); }

/* ---------------------------------------------------------------- logical */

/* A's nonzero count (NaN included) over everything (dim 0), per column (dim 1)
** or per row (dim 2), into r */
static void nonzeros(const la_Mat *A, int dim, double *r) {
  if (A->dtype == LA_BOOL) lak_bnonzeros(dim, A->rows, A->cols, A->bdata, A->ld, r);
  else if (A->dtype == LA_F32) lak_snonzeros(dim, A->rows, A->cols, A->fdata, A->ld, r);
  else lak_nonzeros(dim, A->rows, A->cols, A->data, A->ld, r);
}

enum { ANY, ALL, COUNT };

/* any / all over every entry, stopping at the first block that decides
** (blocks of about 4096 entries: whole columns, or pieces of a long one),
** as NumPy's any and all of a bool array stop early */
#define LA_DECIDE 4096
static int decided(const la_Mat *A, int what) {
  int m = A->rows, n = A->cols, step = m >= LA_DECIDE ? 1 : LA_DECIDE / m, i, j;
  for (j = 0; j < n; j += step)
    for (i = 0; i < m; i += LA_DECIDE) {
      la_Mat S = *A;
      ptrdiff_t off = i + (ptrdiff_t)j * A->ld;
      double cnt;
      S.rows = m - i < LA_DECIDE ? m - i : LA_DECIDE;
      S.cols = n - j < step ? n - j : step;
      if (S.data) S.data += off;
      if (S.fdata) S.fdata += off;
      if (S.bdata) S.bdata += off;
      nonzeros(&S, 0, &cnt);
      if (what == ANY && cnt > 0) return 1;
      if (what == ALL && cnt < (double)S.rows * S.cols) return 0;
    }
  return what == ALL;
}

/* any / all / count_nonzero (NaN is nonzero) of a matrix of any type:
** over every entry (a boolean, or an integer count), or along dim (a 1 x n
** row or m x 1 column of 1/0 of A's type, bool for bool, or of counts,
** float64 as indices are). Empty: any false, all true, count 0. */
static int logical(lua_State *L, const char *fname, int what) {
  la_Mat *A = la_checkall(L, 1, fname), *R = NULL;
  int dim = la_optdim(L, fname, 2);
  size_t i;
  double cnt;
  if (!dim && what != COUNT) {
    lua_pushboolean(L, A->rows > 0 && A->cols > 0 ? decided(A, what) : what == ALL);
    return 1;
  }
  if (dim) R = la_new(L, fname, dim == 1 ? 1 : A->rows, dim == 1 ? A->cols : 1);
  nonzeros(A, dim, R ? R->data : &cnt);
  if (!R) {
    double all = (double)A->rows * A->cols;
    if (what == COUNT) lua_pushinteger(L, (lua_Integer)cnt);
    else lua_pushboolean(L, what == ANY ? cnt > 0 : cnt == all);
    return 1;
  }
  if (what != COUNT) {
    double full = dim == 1 ? A->rows : A->cols;
    for (i = 0; i < (size_t)R->rows * R->cols; i++)
      R->data[i] = what == ANY ? R->data[i] > 0 : R->data[i] == full;
    if (A->dtype != LA_F64) la_convert(L, R, A->dtype, fname);
  }
  return 1;
}

static int l_any(lua_State *L) { return logical(L, la_fname(L), ANY); }
static int l_all(lua_State *L) { return logical(L, la_fname(L), ALL); }
static int l_count_nonzero(lua_State *L) { return logical(L, la_fname(L), COUNT); }

/* column j's first nonzero entries, in order, as base + their row
** (0-based) into r, at most room of them (kernels/nzidx.c); returns their
** count */
static size_t column_idx(const la_Mat *A, int j, double base, double *r, size_t room) {
  ptrdiff_t off = (ptrdiff_t)j * A->ld;
  if (A->dtype == LA_BOOL) return lak_nzidx(LAK_NZ_BOOL, A->bdata + off, A->rows, base, r, room);
  if (A->dtype == LA_F32) return lak_nzidx(LAK_NZ_FLOAT, A->fdata + off, A->rows, base, r, room);
  return lak_nzidx(LAK_NZ_DOUBLE, A->data + off, A->rows, base, r, room);
}

/* find(A [, k]): the column-major linear indices (1-based) of A's nonzero
** entries, at most k of them, as a float64 column vector (Octave's find;
** NumPy's flatnonzero of the column-major ravel, + 1), written straight
** into the result */
static int l_find(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F), *R;
  lua_Integer k = lua_isnoneornil(L, 2) ? -1 : la_checkint(L, F, 2);
  double total = 0;
  size_t lim, cnt = 0;
  int j;
  if (lua_gettop(L) >= 2 && !lua_isnil(L, 2) && k < 0)
    la_argerror(L, F, 2, "count must be >= 0");
  if (!LA_EMPTY(A)) nonzeros(A, 0, &total);
  lim = k >= 0 && (double)k < total ? (size_t)k : (size_t)total;
  R = la_new(L, F, (lua_Integer)lim, 1);
  if (A->ld == A->rows && (double)A->rows * A->cols <= INT_MAX) {
    /* contiguous: one line of every entry (a 1 x 1e6 row a column at a
    ** time took 13 ms, the 1e6 x 1 column 0.4) */
    la_Mat all = *A;
    all.rows = A->rows * A->cols;
    all.cols = 1;
    column_idx(&all, 0, 1, R->data, lim);
    return 1;
  }
  for (j = 0; j < A->cols && cnt < lim; j++)
    cnt += column_idx(A, j, (double)j * A->rows + 1, R->data + cnt, lim - cnt);
  return 1;
}

/* nonzero(A): two float64 column vectors, the rows and the columns of A's
** nonzero entries in row-major order (NumPy's nonzero, 1-based). A's
** columns are read in order (a row at a time strode through memory):
** each entry goes to its row's next place, from the rows' counts. */
static int l_nonzero(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F), *R, *C;
  double *next, *at, total = 0;
  int c, i, j, t;
  if (LA_EMPTY(A)) { la_new(L, F, 0, 1); la_new(L, F, 0, 1); return 2; }
  next = la_scratch(L, (size_t)A->rows);
  at = la_scratch(L, (size_t)A->rows);
  nonzeros(A, 2, next);
  for (i = 0; i < A->rows; i++) { double n = next[i]; next[i] = total; total += n; }
  R = la_new(L, F, (lua_Integer)total, 1);
  C = la_new(L, F, (lua_Integer)total, 1);
  for (j = 0; j < A->cols; j++) {
    c = (int)column_idx(A, j, 0, at, (size_t)A->rows);
    for (t = 0; t < c; t++) {
      int row = (int)at[t];
      size_t p = (size_t)next[row]++;
      R->data[p] = row + 1;
      C->data[p] = j + 1;
    }
  }
  return 2;
}

static const la_Reg funcs[] = {
  {"where", l_where, 3}, {"clip", l_clip, 3}, {"any", l_any, 2}, {"all", l_all, 2},
  {"count_nonzero", l_count_nonzero, 2}, {"find", l_find, 2}, {"nonzero", l_nonzero, 1},
  {NULL, NULL, 0}
};

/* one closure per function of a family, as la_setfuncs makes them, with
** own upvalue 1 the operation (the function's index in names) */
static void family(lua_State *L, const char *const names[], int first, int n,
                   const la_Reg *r) {
  int i;
  for (i = first; i < n; i++) {
    lua_pushinteger(L, i);
    la_pushfunc(L, r, names[i], 1);
    lua_setfield(L, -2, names[i]);
  }
}

void la_open_elementwise(lua_State *L) {
  static const la_Reg unary = {"unary", l_unary, 1}, binary = {"binary", l_binary, 2};
  static const la_Reg meta[] = {{"__mod", m_mod, LA_VARARG}, {NULL, NULL, 0}};
  static const la_Reg round = {"round", l_round, 2};
  static const la_Reg test = {"test", l_test, 1 + LA_OPTS};
  static const la_Reg compare = {"compare", l_compare, 2 + LA_OPTS};
  family(L, fn_names, 0, LAK_ISNAN, &unary);
  family(L, fn_names, LAK_ISNAN, LAK_NFN, &test);
  lua_pushinteger(L, LAK_ROUND);       /* round takes decimals */
  la_pushfunc(L, &round, "round", 1);
  lua_setfield(L, -2, "round");
  lua_pushinteger(L, LAK_TRUNC);       /* fix: Octave's name of trunc */
  la_pushfunc(L, &unary, "fix", 1);
  lua_setfield(L, -2, "fix");
  family(L, bin_names, 0, LAK_LT, &binary);
  family(L, bin_names, LAK_LT, LAK_NE + 1, &compare);
  family(L, bin_names, LAK_NE + 1, LAK_NBIN, &binary);
  la_setfuncs(L, funcs, 0);
  la_setmeta(L, meta);
}
