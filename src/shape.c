/*
** shape.c: construction and shape (NumPy's arange, linspace, full, triu,
** kron, tile, flip, roll; Octave's repmat, circshift, blkdiag, A(:)) and
** slicing by ranges, index lists and masks, and assignment to such a
** selection (set, fill).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* a count computed in floating point, checked before it becomes a size */
static int count(lua_State *L, const char *fname, double n) {
  if (!(n <= 2147483647.0))
    la_error(L, fname, "%f entries exceed 2147483647 (32-bit BLAS indexing)", n);
  return n > 0 ? (int)n : 0;
}

static double checknum(lua_State *L, const char *fname, int arg) {
  double x;
  if (lua_type(L, arg) != LUA_TNUMBER) la_typeerror(L, fname, arg, "number");
  x = lua_tonumber(L, arg);
  if (!isfinite(x)) la_argerror(L, fname, arg, lua_pushfstring(L, "finite number expected, got %f", x));
  return x;
}

/* arange([start = 0,] stop [, step = 1] [, {dtype}]): start, start + step,
** ... below stop (above it for a negative step), ceil((stop - start) /
** step) values as a column (NumPy's arange: stop is excluded); in float32
** the float64 values rounded */
static int l_arange(lua_State *L) {
  const char *F = la_fname(L);
  int t = la_dtypeargs(L, 2, LA_F64, F);
  int one = lua_isnoneornil(L, 2), n;
  double start = one ? 0.0 : checknum(L, F, 1);
  double stop = checknum(L, F, one ? 1 : 2);
  double step = lua_isnoneornil(L, 3) ? 1.0 : checknum(L, F, 3);
  la_Mat *v;
  if (step == 0.0) la_argerror(L, F, 3, "step must not be 0");
  n = count(L, F, ceil((stop - start) / step));
  v = la_newt(L, F, n, 1, t);
  step = (start + step) - start;        /* NumPy's delta: the same values */
  lak_progression(n, start, step, v->data, v->fdata);   /* start + i * step */
  return 1;
}

/* a number argument, any value (NaN and +-inf too) */
static double anynum(lua_State *L, const char *fname, int arg) {
  if (lua_type(L, arg) != LUA_TNUMBER) la_typeerror(L, fname, arg, "number");
  return lua_tonumber(L, arg);
}

/* v (n > 1 entries) = base ^ (i * step + a), the last base ^ b, computed
** in float64 (NumPy's logspace casts its float64 result) a piece at a time
** in the vector loops: no workspace (one of n doubles, and a second for
** float32, failed where the result alone fitted) */
static void basepow(double a, double b, double step, double base, int n, la_Mat *v) {
  enum { PIECE = 512 };
  double x[PIECE], y[PIECE];
  lak_Arg pb, px;
  int i0, h;
  pb.p = &base; pb.rs = pb.cs = 0;
  px.p = x; px.rs = 1; px.cs = PIECE;
  for (i0 = 0; i0 < n; i0 += h) {
    double *out = v->dtype == LA_F64 ? v->data + i0 : y;
    h = n - i0 < PIECE ? n - i0 : PIECE;
    lak_progression_at(i0, h, a, step, x, NULL);
    if (i0 + h == n) x[h - 1] = b;
    lak_ewise(LAK_POW, h, 1, pb, px, out, h);
    if (v->dtype == LA_F32) lak_d2s(h, 1, y, h, v->fdata + i0, h);
  }
}

/* n (default 50) evenly spaced values from a to b inclusive, a column of
** type t (pushes 1); with logbase, base ^ each value. NumPy's linspace
** formula exactly, non-finite ends and overflow included: step = (b - a) /
** (n - 1), value i = i * step + a (i / (n - 1) * (b - a) + a when step is
** 0, (0 * (b - a)) + a for n = 1), the last value b. */
static void spaced(lua_State *L, const char *fname, int t, int logbase, double base) {
  double a = anynum(L, fname, 1), b = anynum(L, fname, 2), delta = b - a, div, step;
  lua_Integer n = lua_isnoneornil(L, 3) ? 50 : la_checkint(L, fname, 3);
  la_Mat *v;
  int i;
  if (n < 0 || n > 2147483647) la_argerror(L, fname, 3, "count must be in 0..2147483647");
  v = la_newt(L, fname, n, 1, t);
  div = (double)(n - 1);
  step = n > 1 ? delta / div : 0.0;
  if (n == 1) la_put(v, 0, 0, logbase ? pow(base, 0.0 * delta + a) : 0.0 * delta + a);
  else if (!logbase && step != 0.0)     /* the common case: i * step + a (float32: rounded) */
    lak_progression((int)n, a, step, v->data, v->fdata);
  else if (logbase && step != 0.0) {
    basepow(a, b, step, base, (int)n, v);
    return;
  } else
    for (i = 0; i < n; i++) {
      double x = step == 0.0 ? (double)i / div * delta + a : (double)i * step + a;
      la_put(v, i, 0, logbase ? pow(base, x) : x);
    }
  if (n > 1) la_put(v, n - 1, 0, logbase ? pow(base, b) : b);
}

/* linspace(a, b [, n = 50] [, {dtype}]) */
static int l_linspace(lua_State *L) {
  const char *F = la_fname(L);
  spaced(L, F, la_dtypeargs(L, 3, LA_F64, F), 0, 0.0);
  return 1;
}

/* logspace(a, b [, n = 50 [, base = 10]] [, {dtype}]): base ^ linspace(a, b, n) */
static int l_logspace(lua_State *L) {
  const char *F = la_fname(L);
  int t = la_dtypeargs(L, 3, LA_F64, F);
  spaced(L, F, t, 1, lua_isnoneornil(L, 4) ? 10.0 : anynum(L, F, 4));
  return 1;
}

/* full(m, n, x [, {dtype}]): m x n filled with x; a boolean x makes a
** bool matrix unless a dtype says otherwise (NumPy's np.full(s, True);
** true is 1 in float64 and float32) */
static int l_full(lua_State *L) {
  const char *F = la_fname(L);
  int b = lua_type(L, 3) == LUA_TBOOLEAN;
  int t = la_dtypeargsb(L, 4, b ? LA_BOOL : LA_F64, F);
  int m = la_checksize(L, F, 1), n = la_checksize(L, F, 2);
  double x = b ? (double)lua_toboolean(L, 3) : anynum(L, F, 3);   /* NaN and Inf too (NumPy) */
  la_fill(la_newt(L, F, m, n, t), x);
  return 1;
}

/* zeros_like(A), ones_like(A), full_like(A, x): A's shape and type, filled */
static int like(lua_State *L, const char *fname, double x) {
  la_Mat *A = la_checkany(L, 1, fname);
  la_fill(la_newt(L, fname, A->rows, A->cols, A->dtype), x);
  return 1;
}

static int l_zeros_like(lua_State *L) { return like(L, la_fname(L), 0.0); }
static int l_ones_like(lua_State *L) { return like(L, la_fname(L), 1.0); }
static int l_full_like(lua_State *L) {
  const char *F = la_fname(L);
  double x;
  la_checkany(L, 1, F);
  x = anynum(L, F, 2);
  return like(L, F, x);
}

/* The functions below rearrange elements: each works on either type, the
** result of its argument's (of float64 if any argument is float64, NumPy's
** rule), through la_block + la_copyto / la_fill or la_get / la_put, which
** move float32 elements exactly. */

static int clampi(lua_Integer x, int lo, int hi) {
  return x < lo ? lo : x > hi ? hi : (int)x;
}

/* triu / tril (A [, k = 0]): entries with j - i >= k (<= k) kept, the rest 0 */
static int tri(lua_State *L, const char *fname, int upper) {
  la_Mat *A = la_checkany(L, 1, fname), *B;
  lua_Integer k = lua_isnoneornil(L, 2) ? 0 : la_checkint(L, fname, 2);
  int j;
  B = la_newt(L, fname, A->rows, A->cols, A->dtype);
  la_copyto(A, B);
  k = clampi(k, -A->rows, A->cols);          /* every j - i is decided alike */
  for (j = 0; j < A->cols && A->rows > 0; j++) {
    /* column j keeps rows i <= j - k (upper) or i >= j - k (lower) */
    int lo = upper ? clampi(j - k + 1, 0, A->rows) : 0;
    int hi = upper ? A->rows : clampi(j - k, 0, A->rows);
    la_Mat Z = la_block(B, lo, j, hi - lo, 1);
    la_fill(&Z, 0.0);
  }
  return 1;
}

static int l_triu(lua_State *L) { return tri(L, la_fname(L), 1); }
static int l_tril(lua_State *L) { return tri(L, la_fname(L), 0); }

/* a product of sizes that must stay a legal matrix size */
static lua_Integer mulsize(lua_State *L, const char *fname, lua_Integer a, lua_Integer b) {
  if (b != 0 && a > 2147483647 / b)
    la_error(L, fname, "result of %I x %I rows or columns is too large", a, b);
  return a * b;
}

/* C = the Kronecker product of A and B, block (i, j) = A(i, j) * B (C of
** the right shape, A and B of any type) */
static void kron2(const la_Mat *A, const la_Mat *B, la_Mat *C) {
  int i, j, r, s;
  if (LA_EMPTY(C)) return;
  if (A->dtype == C->dtype && B->dtype == C->dtype) {     /* one type: the kernel */
    lak_kron(C->dtype == LA_F32, A->rows, A->cols, LA_DATA(A), A->ld, B->rows, B->cols,
             LA_DATA(B), B->ld, LA_DATA(C), C->ld);
    return;
  }
  for (j = 0; j < A->cols; j++)
    for (s = 0; s < B->cols; s++)
      for (i = 0; i < A->rows; i++) {
        double a = la_get(A, i, j);
        for (r = 0; r < B->rows; r++)
          la_put(C, i * B->rows + r, j * B->cols + s, a * la_get(B, r, s));
      }
}

/* kron(A, B, ...): the Kronecker product of two or more matrices, folded
** from the left (kron is associative: Octave's kron(A, B, C)); float32
** when every matrix argument is (a table takes their type) */
static int l_kron(lua_State *L) {
  const char *F = la_fname(L);
  int top = lua_gettop(L), t, k;
  lua_Integer m = 1, n = 1;
  la_Mat *P;
  if (top < 2) top = 2;                   /* kron(A): argument 2 is missing */
  t = la_argtype(L, 1, top);
  for (k = 1; k <= top; k++) {            /* every operand and the size first */
    la_Mat *A = la_checkargt(L, k, F, k, t == LA_F32 && lua_istable(L, k) ? LA_F32 : LA_ANY);
    m = mulsize(L, F, m, A->rows);
    n = mulsize(L, F, n, A->cols);
  }
  P = la_testany(L, 1);
  for (k = 2; k <= top; k++) {            /* each product on top of the last */
    la_Mat *B = la_testany(L, k), *C;
    C = la_newt(L, F, (lua_Integer)P->rows * B->rows, (lua_Integer)P->cols * B->cols, t);
    kron2(P, B, C);
    P = C;
  }
  return 1;
}

/* A repeated rm times down and rn times across */
static int tilemat(lua_State *L, const char *fname, lua_Integer rm, lua_Integer rn) {
  la_Mat *A = la_checkall(L, 1, fname), *C;          /* a bool matrix stays bool */
  int i, j;
  if (rm < 0 || rn < 0) la_error(L, fname, "repetition counts must be >= 0, got %I and %I", rm, rn);
  C = la_newt(L, fname, mulsize(L, fname, A->rows, rm), mulsize(L, fname, A->cols, rn),
              A->dtype);
  if (LA_EMPTY(C)) return 1;             /* else rm * rn <= C's elements */
  for (i = 0; i < C->rows; i += A->rows) {   /* the first A->cols columns */
    la_Mat D = la_block(C, i, 0, A->rows, A->cols);
    la_copyto(A, &D);
  }
  {                                      /* C is packed: they are one run, copied whole */
    size_t run = (size_t)C->rows * (size_t)A->cols * LA_ESIZE(C->dtype);
    char *c = (char *)LA_DATA(C);
    for (j = 1; j < rn; j++) lak_copybytes(c + (size_t)j * run, c, run);
  }
  return 1;
}

/* tile(A, rm, rn): both counts (NumPy's tile(A, k) repeats columns only) */
static int l_tile(lua_State *L) {
  const char *F = la_fname(L);
  lua_Integer rm = la_checkint(L, F, 2), rn;
  if (lua_isnoneornil(L, 3))
    la_argerror(L, F, 3, lua_pushfstring(L, "column count expected, got %s (write tile(A, 1, k) "
                "for NumPy's tile(A, k))", luaL_typename(L, 3)));
  rn = la_checkint(L, F, 3);
  return tilemat(L, F, rm, rn);
}

/* repmat(A, m [, n = m]): Octave's */
static int l_repmat(lua_State *L) {
  const char *F = la_fname(L);
  lua_Integer rm = la_checkint(L, F, 2);
  lua_Integer rn = lua_isnoneornil(L, 3) ? rm : la_checkint(L, F, 3);
  return tilemat(L, F, rm, rn);
}

/* rows (dim 1) or columns (dim 2) first..first+n-1 of A */
static la_Mat lines(const la_Mat *A, int dim, int first, int n) {
  return dim == 1 ? la_block(A, first, 0, n, A->cols) : la_block(A, 0, first, A->rows, n);
}

/* lines [from, from + n) of A to lines [to, to + n) of B */
static void movelines(const la_Mat *A, la_Mat *B, int dim, int from, int to, int n) {
  la_Mat S = lines(A, dim, from, n), D = lines(B, dim, to, n);
  la_copyto(&S, &D);
}

/* flip(A [, dim]): reversed along dim (default: la_optlinedim); fliplr, flipud */
static int flip(lua_State *L, const char *fname, int dim) {
  la_Mat *A = la_checkall(L, 1, fname), *B;          /* a bool matrix stays bool */
  size_t es = LA_ESIZE(A->dtype);
  if (dim == 0) dim = la_optlinedim(L, fname, 2, A->rows, A->cols);
  B = la_newt(L, fname, A->rows, A->cols, A->dtype);
  if (dim == 1) lak_flipud(es, A->rows, A->cols, LA_DATA(A), A->ld, LA_DATA(B), B->ld);
  else lak_fliplr(es, A->rows, A->cols, LA_DATA(A), A->ld, LA_DATA(B), B->ld);
  return 1;
}

static int l_flip(lua_State *L) { return flip(L, la_fname(L), 0); }
static int l_fliplr(lua_State *L) { return flip(L, la_fname(L), 2); }
static int l_flipud(lua_State *L) { return flip(L, la_fname(L), 1); }

/* roll(A, k [, dim]): entries move k places down (dim 1) or right (dim 2),
** wrapping around; circshift is Octave's name. Two block copies: line x of
** the result is line (x - k) mod len of A. */
static int roll(lua_State *L, const char *fname) {
  la_Mat *A = la_checkall(L, 1, fname), *B;          /* a bool matrix stays bool */
  lua_Integer k = la_checkint(L, fname, 2);
  int dim = la_optlinedim(L, fname, 3, A->rows, A->cols);
  int len = dim == 1 ? A->rows : A->cols, s;
  B = la_newt(L, fname, A->rows, A->cols, A->dtype);
  if (LA_EMPTY(A)) return 1;
  s = (int)(k % len);
  if (s < 0) s += len;                    /* A's lines [0, len - s) go to [s, len) */
  if (dim == 1) {                         /* each column's two pieces in one pass */
    lak_rollud(LA_ESIZE(A->dtype), A->rows, A->cols, s,
               LA_DATA(A), A->ld, LA_DATA(B), B->ld);
    return 1;
  }
  movelines(A, B, dim, 0, s, len - s);
  movelines(A, B, dim, len - s, 0, s);
  return 1;
}

static int l_roll(lua_State *L) { return roll(L, la_fname(L)); }
static int l_circshift(lua_State *L) { return roll(L, la_fname(L)); }

/* vec(A): the columns stacked into one column (Octave's A(:)) */
static int l_vec(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F), *v, D;           /* a bool matrix stays bool */
  v = la_newt(L, F, (lua_Integer)A->rows * A->cols, 1, A->dtype);
  if (LA_EMPTY(A)) return 1;
  D = *v;                                 /* v's storage as A's shape, packed */
  D.rows = A->rows; D.cols = A->cols; D.ld = A->rows;
  la_copyto(A, &D);
  return 1;
}

/* blkdiag(A, B, ...): the matrices along the diagonal, zeros elsewhere.
** Each column of the result is in one block's columns: above and below the
** block zeros, the block copied between, so every entry is written once.
** (Zeros over the whole result, then the copies over them, took 2000 x
** 2000 from two 1000 x 1000 in 3.2-3.9 ms; this, 2.9-3.5, alternating
** runs; the kernel's zeroing of a fresh result's pages is 40% of either.) */
static int l_blkdiag(lua_State *L) {
  const char *F = la_fname(L);
  int k, top = lua_gettop(L), t = la_argtype(L, 1, top);   /* tables do not vote */
  lua_Integer m = 0, n = 0;
  la_Mat *C;
  for (k = 1; k <= top; k++) {
    la_Mat *A = la_checkargt(L, k, F, k, lua_istable(L, k) ? t : LA_ANY);
    m += A->rows; n += A->cols;
    if (m > 2147483647 || n > 2147483647) la_error(L, F, "result is too large");
  }
  C = la_newt(L, F, m, n, t);
  m = n = 0;
  for (k = 1; k <= top; k++) {
    la_Mat *A = la_testany(L, k), D = la_block(C, (int)m, (int)n, A->rows, A->cols);
    la_Mat above = la_block(C, 0, (int)n, (int)m, A->cols);
    la_Mat below = la_block(C, (int)m + A->rows, (int)n, C->rows - (int)m - A->rows, A->cols);
    la_fill(&above, 0.0);
    la_copyto(A, &D);
    la_fill(&below, 0.0);
    m += A->rows; n += A->cols;
  }
  return 1;
}

/* ---------------------------------------------------------------- slicing */

/* A selection along one dimension: the 0-based indices idx[0..n-1]; a
** range when they step evenly (first, step). */
typedef struct Sel { int n, range, first, step; int *idx; } Sel;

/* One number of a range at *p: an integer, "end" (len), "end-k" or
** "end+k"; returns 0 (and leaves *p) when there is none. */
static int token(const char **p, int len, lua_Integer *v) {
  const char *s = *p;
  char *e;
  long x;
  while (*s == ' ') s++;
  if (strncmp(s, "end", 3) == 0) {
    int sign = 0;
    s += 3;
    while (*s == ' ') s++;
    if (*s == '+' || *s == '-') sign = *s++ == '+' ? 1 : -1;
    *v = len;
    *p = s;
    if (!sign) return 1;
    while (*s == ' ') s++;
    if (*s < '0' || *s > '9') return 0;
    x = strtol(s, &e, 10);
    if (x > 2147483647L) return 0;
    *v = len + sign * (lua_Integer)x;
    *p = e;
    return 1;
  }
  x = strtol(s, &e, 10);
  if (e == s || x < -2147483647L || x > 2147483647L) return 0;
  *p = e; *v = x;
  return 1;
}

/* A range string, Octave's colon (1-based, inclusive): ":" (all), "a:b",
** "a:s:b" (s ~= 0, negative to go down) or a single index, each number
** as token reads it. A range that runs away from its end (2:1, 1:-1:2) is
** empty, whatever its ends; a nonempty one must stay in 1..len. */
static void rangesel(lua_State *L, int arg, int len, const char *what, Sel *s) {
  const char *str = lua_tostring(L, arg), *p = str;
  lua_Integer v[3], a, st = 1, b, n;
  int k = 0;
  if (strcmp(str, ":") == 0) { v[0] = 1; v[1] = len; k = 2; p = str + 1; }
  else
    while (k < 3 && token(&p, len, &v[k])) {
      k++;
      while (*p == ' ') p++;
      if (*p != ':') break;
      p++;
    }
  if (*p != '\0' || k == 0) {
    la_argerror(L, la_fname(L), arg, lua_pushfstring(L, "bad range \"%s\" (write \"a:b\", "
                "\"a:step:b\" or \":\"; \"end\" is the last %s)", str, what));
    return;
  }
  a = v[0]; st = k == 3 ? v[1] : 1; b = v[k - 1];
  if (st == 0) { la_argerror(L, la_fname(L), arg, "range step must not be 0"); return; }
  n = b == a || (b > a) == (st > 0) ? (b - a) / st + 1 : 0;
  if (n > 0 && (a < 1 || a > len || a + (n - 1) * st < 1 || a + (n - 1) * st > len))
    la_error(L, la_fname(L), "%s range \"%s\" out of range 1..%d", what, str, len);
  s->n = (int)n; s->range = 1; s->first = n > 0 ? (int)a - 1 : 0; s->step = (int)st;
}

/* the selection at arg: nil or ":" (all), an index, a range string, a
** table of indices, or a matrix: a bool mask or a 1/0 mask of the
** dimension's length, else a list of indices */
static void selparse(lua_State *L, int arg, int len, const char *what, Sel *s) {
  int i, t = lua_type(L, arg);
  la_Mat *M = la_testmat(L, arg);
  int isbool = M && M->dtype == LA_BOOL;   /* before la_test makes it float64 */
  s->range = 0; s->idx = NULL;
  if (t == LUA_TNONE || t == LUA_TNIL) { s->n = len; s->range = 1; s->first = 0; s->step = 1; }
  else if (t == LUA_TSTRING) rangesel(L, arg, len, what, s);
  else if (t == LUA_TNUMBER) {
    lua_Integer k = la_checkint(L, la_fname(L), arg);
    if (k < 1 || k > len) la_error(L, la_fname(L), "%s index %I out of range 1..%d", what, k, len);
    s->n = 1; s->range = 1; s->first = (int)k - 1; s->step = 1;
  } else if ((M = la_test(L, arg)) == NULL && t == LUA_TTABLE) {
    lua_Integer n = (lua_Integer)lua_rawlen(L, arg);
    if (n > 2147483647) la_error(L, la_fname(L), "too many indices");
    s->n = (int)n;
    s->idx = LA_SCRATCH(L, int, (size_t)n);
    for (i = 0; i < s->n; i++) {
      lua_Integer k;
      int ok;
      lua_rawgeti(L, arg, i + 1);
      k = lua_tointegerx(L, -1, &ok);
      if (!ok || k < 1 || k > len)
        la_error(L, la_fname(L), "%s index list: entry %d is %s, expected an integer in 1..%d",
                 what, i + 1, luaL_tolstring(L, -1, NULL), len);
      lua_pop(L, 1);
      s->idx[i] = (int)k - 1;
    }
  } else {
    int mask = 1;
    size_t N, k;
    M = la_checkarg(L, arg, la_fname(L), arg);
    N = (size_t)M->rows * M->cols;
    if (isbool && N != (size_t)len)
      la_error(L, la_fname(L), "%s mask has %d entries, expected %d", what, (int)N, len);
    if (!la_isvec(M) && N > 0) la_error(L, la_fname(L), "%s selection is a %dx%d matrix, expected a vector", what, M->rows, M->cols);
    for (k = 0; k < N; k++) {
      double x = M->rows == 1 ? LA_AT(M, 0, k) : LA_AT(M, k, 0);
      mask = mask && (x == 0.0 || x == 1.0);
    }
    mask = mask && N == (size_t)len;
    s->idx = LA_SCRATCH(L, int, N);
    s->n = 0;
    for (k = 0; k < N; k++) {
      double x = M->rows == 1 ? LA_AT(M, 0, k) : LA_AT(M, k, 0);
      if (mask) { if (x != 0.0) s->idx[s->n++] = (int)k; continue; }
      if (!(x == floor(x) && x >= 1 && x <= len))
        la_error(L, la_fname(L), "%s index %f out of range 1..%d (or a mask of length %d)",
                 what, x, len, len);
      s->idx[s->n++] = (int)x - 1;
    }
  }
}

static int selat(const Sel *s, int k) {
  return s->range ? s->first + k * s->step : s->idx[k];
}

/* the selection's indices as a list (a range's made in scratch space) */
static const int *selidx(lua_State *L, Sel *s) {
  int k;
  if (!s->range) return s->idx;
  s->idx = LA_SCRATCH(L, int, (size_t)s->n);
  for (k = 0; k < s->n; k++) s->idx[k] = s->first + k * s->step;
  s->range = 0;
  return s->idx;
}

/* slice(A, rows, cols): the selected rows and columns. A view (writes show
** through) when rows are a range with step 1 and columns a range with a
** positive step; a copy otherwise. */
static int l_slice(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F), *B;
  Sel r, c;
  const int *rows, *cols;
  int top;
  lua_settop(L, 3);
  selparse(L, 2, A->rows, "row", &r);
  selparse(L, 3, A->cols, "column", &c);
  if (r.range && r.step == 1 && c.range && c.step > 0) {
    la_view(L, A, r.first, c.first, r.n, c.n, c.n > 1 ? A->ld * c.step : A->ld);
    return 1;
  }
  B = la_newt(L, F, r.n, c.n, A->dtype);
  top = lua_gettop(L);
  if (LA_EMPTY(B)) return 1;
  rows = r.range && r.step == 1 ? NULL : selidx(L, &r);
  cols = selidx(L, &c);
  lak_take(LA_ESIZE(A->dtype), r.n, c.n, LA_DATA(A), A->ld, rows, r.first, cols, LA_DATA(B), B->ld);
  lua_settop(L, top);                     /* B, below the index lists */
  return 1;
}

/* ------------------------------------------------------- assignment */

/* B, the value of an r x c selection, as an operand: element (i, j) is
** B->data or fdata at i * rs + j * cs (strides 0 along a broadcast
** dimension). NumPy's rule, and a vector fills a one-row or one-column
** selection in either orientation (linalg's vectors are columns; NumPy's
** A[i, :] = v takes a 1-D v). */
static void valueshape(lua_State *L, const char *fname, const la_Mat *B, int r, int c,
                       ptrdiff_t *rs, ptrdiff_t *cs) {
  int vec = (r == 1 || c == 1) && la_isvec(B) && B->rows * B->cols == r * c;
  if (vec && r == 1 && B->rows != 1) { *rs = 0; *cs = 1; return; }    /* a column into a row */
  if (vec && c == 1 && B->cols != 1) { *rs = B->ld; *cs = 0; return; }  /* a row into a column */
  if ((B->rows != r && B->rows != 1) || (B->cols != c && B->cols != 1))
    la_error(L, fname, "%d x %d block, value is %d x %d", r, c, B->rows, B->cols);
  *rs = B->rows == 1 ? 0 : 1;
  *cs = B->cols == 1 ? 0 : B->ld;
}

/* whether the storage spans of A and B (either type) share a byte */
static int overlaps(const la_Mat *A, const la_Mat *B) {
  size_t ea = LA_ESIZE(A->dtype), eb = LA_ESIZE(B->dtype);
  const char *a = (const char *)LA_DATA(A), *b = (const char *)LA_DATA(B);
  if (LA_EMPTY(A) || LA_EMPTY(B)) return 0;
  return a < b + ((size_t)(B->cols - 1) * (size_t)B->ld + (size_t)B->rows) * eb &&
         b < a + ((size_t)(A->cols - 1) * (size_t)A->ld + (size_t)A->rows) * ea;
}

/* the value x at arg of an entry of A: a number, or for a bool A also a
** boolean (a number ~= 0 is true, la_put's rule) */
static double checkvalue(lua_State *L, const char *fname, int arg, const la_Mat *A) {
  if (A->dtype == LA_BOOL && lua_type(L, arg) == LUA_TBOOLEAN) return lua_toboolean(L, arg);
  if (lua_type(L, arg) != LUA_TNUMBER)
    la_typeerror(L, fname, arg, A->dtype == LA_BOOL ? "boolean or number" : "number");
  return lua_tonumber(L, arg);
}

/* set(A, rows, cols, B): NumPy's A[rows, cols] = B. rows and cols as slice
** takes them; B a number, or a matrix (or table) of the selection's shape
** or broadcast to it (valueshape). A B that shares storage with A (a view
** of it) is copied first, so the result is NumPy's. Repeated indices: the
** last write wins, as in NumPy. */
static void setsel(lua_State *L, const char *fname, la_Mat *A) {
  Sel r, c;
  la_Mat *B = NULL;
  la_Mat one;
  union { double d; float f; unsigned char b; } v;
  ptrdiff_t rs = 0, cs = 0;
  const int *rows;
  int i, j, t = lua_type(L, 4);
  double x = 0.0;
  if (A->dtype == LA_BOOL && t == LUA_TBOOLEAN) t = LUA_TNUMBER;   /* checkvalue reads it */
  if (t != LUA_TNUMBER && t != LUA_TTABLE && la_testany(L, 4) == NULL)
    la_typeerror(L, fname, 4, "number, matrix or table");
  if (t == LUA_TNUMBER) x = checkvalue(L, fname, 4, A);
  else B = la_checkargany(L, 4, fname, 4);
  selparse(L, 2, A->rows, "row", &r);
  selparse(L, 3, A->cols, "column", &c);
  if (B) {
    valueshape(L, fname, B, r.n, c.n, &rs, &cs);      /* checked before copying */
    if (overlaps(A, B)) {                   /* a view of A: read a packed copy */
      B = la_copyof(L, B, fname);
      valueshape(L, fname, B, r.n, c.n, &rs, &cs);
    }
  }
  if (r.n == 0 || c.n == 0) return;
  if (B && B->dtype != A->dtype) {        /* converted entry by entry */
    for (j = 0; j < c.n; j++)
      for (i = 0; i < r.n; i++) {
        ptrdiff_t k = i * rs + j * cs;
        x = B->dtype == LA_F32 ? (double)B->fdata[k] : B->data[k];
        la_put(A, selat(&r, i), selat(&c, j), x);
      }
    return;
  }
  if (!B) {                               /* x in A's type, as a 1 x 1 B */
    one = *A; one.rows = one.cols = one.ld = 1;
    one.data = &v.d; one.fdata = &v.f; one.bdata = &v.b;
    la_put(&one, 0, 0, x);
    B = &one;
  }
  if (rs > 1) {                           /* a row view into a column: packed for lak_put */
    B = la_copyof(L, B, fname);
    valueshape(L, fname, B, r.n, c.n, &rs, &cs);
  }
  rows = r.range && r.step == 1 ? NULL : selidx(L, &r);   /* NULL: columns copied or filled */
  lak_put(LA_ESIZE(A->dtype), r.n, c.n, LA_DATA(A), A->ld, rows, r.first, selidx(L, &c),
          LA_DATA(B), (int)rs, cs);
}

/* set(A, i, j, x) / set(A, k, x): one entry (x a number; k the linear,
** column-major index); any other set(A, rows, cols, B) is setsel's.
** Returns A. */
static int l_set(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  int top = lua_gettop(L), i, j;
  if (top <= 3 || (lua_type(L, 2) == LUA_TNUMBER && lua_type(L, 3) == LUA_TNUMBER &&
                   lua_type(L, 4) != LUA_TTABLE && la_testmat(L, 4) == NULL)) {
    int varg = top <= 3 ? 3 : 4;
    la_element(L, A, F, top <= 3, &i, &j);
    la_put(A, i, j, checkvalue(L, F, varg, A));
  } else {
    lua_settop(L, 4);
    setsel(L, F, A);
  }
  lua_settop(L, 1);
  return 1;
}

/* fill(A, x): every entry of A (through a view: its parent's) set to x;
** returns A */
static int l_fill(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkall(L, 1, F);
  la_fill(A, checkvalue(L, F, 2, A));
  lua_settop(L, 1);
  return 1;
}

static const la_Reg funcs[] = {
  {"set", l_set, 4}, {"fill", l_fill, 2},
  {"arange", l_arange, 3 + LA_OPTS}, {"linspace", l_linspace, 3 + LA_OPTS},
  {"logspace", l_logspace, 4 + LA_OPTS}, {"full", l_full, 3 + LA_OPTS},
  {"zeros_like", l_zeros_like, 1}, {"ones_like", l_ones_like, 1},
  {"full_like", l_full_like, 2}, {"triu", l_triu, 2}, {"tril", l_tril, 2},
  {"kron", l_kron, LA_VARARG}, {"tile", l_tile, 3}, {"repmat", l_repmat, 3},
  {"flip", l_flip, 2}, {"fliplr", l_fliplr, 1}, {"flipud", l_flipud, 1},
  {"roll", l_roll, 3}, {"circshift", l_circshift, 3}, {"vec", l_vec, 1},
  {"blkdiag", l_blkdiag, LA_VARARG}, {"slice", l_slice, 3}, {NULL, NULL, 0}
};

void la_open_shape(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
