/*
** reduce.c: functions of the lines of a matrix. Reductions over every entry
** or along a dim (sum, mean, prod, min, max, var, std with ddof, argmin,
** argmax, ptp), running scans (cumsum, cumprod, cummin, cummax), NumPy's
** diff, stable sorts (sort, argsort), Octave's default dim
** (la_optlinedim) where one is not given (diff: NumPy's, la_optvecdim),
** and order statistics without a sort (median, quantile, percentile:
** NumPy's, over every entry by default).
*/
#include <math.h>
#include <stdlib.h>

#include "helpers.h"

/* ---------------------------------------------------------------- reductions */

/* lak_Red's reductions (LAK_SUM ...), then the two that give an index,
** then ptp */
enum { R_ARGMIN = LAK_STD + 1, R_ARGMAX, R_PTP };

/* one line reduced by the kernel of its type (in double either way);
** argmin/argmax give a 1-based index; ptp is max - min in the line's type
** (NaN propagates) */
static double reduce(int r, la_Line l, double ddof) {
  if (r == R_PTP) {
    double d = la_lreduce(LAK_MAX, l, 0) - la_lreduce(LAK_MIN, l, 0);
    return l.f ? (double)(float)d : d;
  }
  if (r == R_ARGMIN || r == R_ARGMAX) {
    int max = r == R_ARGMAX;
    return (double)(l.f ? lak_sargext(max, l.n, l.f, l.s) : lak_argext(max, l.n, l.p, l.s)) + 1;
  }
  return la_lreduce(r, l, ddof);
}

/* the largest (max) or smallest entry of each column of A into out[j]:
** one kernel call for their positions (lak_colargext: the first NaN wins),
** a zero taken again as a line (the sign of a -0 / +0 tie); A has rows */
static void colext(const la_Mat *A, int max, double *out) {
  size_t m = (size_t)A->rows, n = (size_t)A->cols, j, i;
  if (A->dtype == LA_F32) lak_scolargext(max, m, n, A->fdata, (size_t)A->ld, out, 1);
  else lak_colargext(max, m, n, A->data, (size_t)A->ld, out, 1);
  for (j = 0; j < n; j++) {
    double x;
    i = (size_t)out[j] - 1 + j * (size_t)A->ld;
    x = A->dtype == LA_F32 ? (double)A->fdata[i] : A->data[i];
    out[j] = x == 0 ? la_lreduce(max ? LAK_MAX : LAK_MIN, la_line(A, 1, (int)j), 0) : x;
  }
}

/* the largest (max) or smallest entry of a view, from its columns' (a
** copy of the view cost more than the search): NaN wins, and of a tie of
** -0 and +0 the largest is +0, the smallest -0, as of a packed matrix */
static double viewext(lua_State *L, const la_Mat *A, int max) {
  double best = 0.0, *e = la_scratch(L, (size_t)A->cols);
  int j;
  colext(A, max, e);
  for (j = 0; j < A->cols; j++) {
    double x = e[j];
    if (j == 0 || x != x ||
        (best == best && (max ? x > best || (x == best && !signbit(x))
                              : x < best || (x == best && signbit(x))))) best = x;
  }
  lua_pop(L, 1);
  return best;
}

/* byrows' extremes of a float32 A: the extremes straight into R (float32),
** the positions or ptp's minima through float32 scratch */
static void rowext32(lua_State *L, int max, int arg, int ptp, const la_Mat *A, la_Mat *R) {
  size_t m = (size_t)A->rows, n = (size_t)A->cols, i;
  float *out, *t;
  if (!arg && !ptp) { lak_srowext(max, m, n, A->fdata, A->ld, R->fdata, NULL); return; }
  out = LA_SCRATCH(L, float, 2 * m); t = out + m;
  lak_srowext(max, m, n, A->fdata, A->ld, out, arg ? t : NULL);
  if (ptp) lak_srowext(0, m, n, A->fdata, A->ld, t, NULL);
  for (i = 0; i < m; i++)
    la_put(R, (int)i, 0, arg ? (double)t[i] + 1 : (double)out[i] - (double)t[i]);
  lua_pop(L, 1);
}

/* byrows' sums, products, means, variances: LAK_RSTRIP rows at a time,
** each strip's division (mean) and rounding to float while its results
** are in L1 (a pass over the whole column each took a fifth of T:mean(2)
** of 100000 x 10; a row's result does not depend on the strips) */
static void rowsums(lua_State *L, int r, const la_Mat *A, la_Mat *R, double ddof) {
  size_t m = (size_t)A->rows, n = (size_t)A->cols, s, h;
  int f = A->dtype == LA_F32, sd = r == LAK_STD, dev = sd || r == LAK_VAR;
  lak_Rows op = r == LAK_PROD ? LAK_RPROD : LAK_RSUM;
  double *t = la_scratch(L, (f ? LAK_RSTRIP : 0) + LAK_RSTRIP), *out = t + LAK_RSTRIP;
  for (s = 0; s < m; s += h) {
    h = m - s < LAK_RSTRIP ? m - s : LAK_RSTRIP;
    if (!f) out = R->data + s;
    if (dev && f) lak_srowvar(h, n, A->fdata + s, A->ld, ddof, sd, out, t);
    else if (dev) lak_rowvar(h, n, A->data + s, A->ld, ddof, sd, out, t);
    else if (f) lak_srowsum(op, h, n, A->fdata + s, A->ld, NULL, out, t);
    else lak_rowsum(op, h, n, A->data + s, A->ld, NULL, out, t);
    if (r == LAK_MEAN) lak_divby(out, h, (double)n);
    if (f) lak_d2s((int)h, 1, out, (int)h, R->fdata + s, (int)h);
  }
  lua_pop(L, 1);
}

/* R (m x 1) = the reduction r of each row of A (dim 2, n = A's columns >
** 0 unless r is a sum or product), a column of A at a time (lak_rowsum,
** lak_rowext) rather than a strided line per row. A float64 R (packed: it
** is new) takes the kernel's results in place. */
static void byrows(lua_State *L, int r, const la_Mat *A, la_Mat *R, double ddof) {
  size_t m = (size_t)A->rows, n = (size_t)A->cols, i;
  int arg = r == R_ARGMIN || r == R_ARGMAX;
  int max = r == LAK_MAX || r == R_ARGMAX || r == R_PTP;
  double *out;
  if (!arg && r != LAK_MIN && r != LAK_MAX && r != R_PTP) { rowsums(L, r, A, R, ddof); return; }
  if (A->dtype == LA_F32) { rowext32(L, max, arg, r == R_PTP, A, R); return; }
  /* R holds the extremes, or the indices (arg); out the other, or the minima of ptp */
  out = la_scratch(L, arg || r == R_PTP ? m : 1);
  lak_rowext(max, m, n, A->data, A->ld, arg ? out : R->data, arg ? R->data : NULL);
  if (r == R_PTP) lak_rowext(0, m, n, A->data, A->ld, out, NULL);
  for (i = 0; i < m && (arg || r == R_PTP); i++)
    R->data[i] = arg ? R->data[i] + 1 : R->data[i] - out[i];
  lua_pop(L, 1);
}

/* R (1 x n, packed) = the reduction r of each column of A (lak_colreduce):
** a float64 R in place, a float32 one through double scratch */
static void colreduce(lua_State *L, int r, const la_Mat *A, la_Mat *R, double ddof) {
  size_t m = (size_t)A->rows, n = (size_t)A->cols, j;
  double *out = A->dtype == LA_F32 ? la_scratch(L, n) : R->data;
  if (A->dtype == LA_F32) {
    lak_scolreduce((lak_Red)r, m, n, A->fdata, (size_t)A->ld, ddof, out);
    for (j = 0; j < n; j++) R->fdata[j] = (float)out[j];
    lua_pop(L, 1);
  } else {
    lak_colreduce((lak_Red)r, m, n, A->data, (size_t)A->ld, ddof, out);
  }
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

/* sum or mean of a nonempty bool A over all entries (dim 0) or along dim:
** counts of its bytes, float64 as of a float64 copy of A, without making
** the copy (pushes 1) */
static int boolsum(lua_State *L, const char *fname, int r, const la_Mat *A, int dim) {
  double cnt, n = dim == 0 ? (double)A->rows * A->cols : dim == 1 ? A->rows : A->cols;
  int k, nk = dim == 1 ? A->cols : A->rows;
  la_Mat *R;
  if (dim == 0) {
    lak_bnonzeros(0, A->rows, A->cols, A->bdata, A->ld, &cnt);
    lua_pushnumber(L, r == LAK_MEAN ? cnt / n : cnt);
    return 1;
  }
  R = la_new(L, fname, dim == 1 ? 1 : A->rows, dim == 1 ? A->cols : 1);
  lak_bnonzeros(dim, A->rows, A->cols, A->bdata, A->ld, R->data);
  if (r == LAK_MEAN) for (k = 0; k < nk; k++) R->data[k] /= n;
  return 1;
}

/* f(A [, dim [, opts]]): over all entries (a number; argmin/argmax give
** the row and column), or along dim (1: a 1 x n row, 2: an m x 1 column,
** of A's type; argmin/argmax float64). Empty: sum 0, prod 1, anything else
** an error. NaN propagates. Accumulated in double for either type. */
static int reduction(lua_State *L, const char *fname, int r) {
  la_Mat *A = la_testmat(L, 1), *R;
  int isbool = A && !(A->flags & LA_CLOSED) && A->dtype == LA_BOOL;   /* before a conversion */
  int oi = lua_istable(L, 2) && !la_testany(L, 2) ? 2 : 3, dim, k, nk, count, index;
  double ddof = 0.0;
  if (!isbool) A = la_checkany(L, 1, fname);
  dim = oi == 2 ? 0 : la_optdim(L, fname, 2);
  if (isbool && (r == LAK_SUM || r == LAK_MEAN) && oi == 3 && lua_isnoneornil(L, 3) && !LA_EMPTY(A))
    return boolsum(L, fname, r, A, dim);
  if (isbool) A = la_checkany(L, 1, fname);            /* a float64 copy */
  index = r == R_ARGMIN || r == R_ARGMAX;
  count = dim == 0 ? (A->rows * A->cols) : dim == 1 ? A->rows : A->cols;
  if (count == 0 && r != LAK_SUM && r != LAK_PROD && (dim == 0 || !LA_EMPTY(A) ||
      (dim == 1 ? A->cols : A->rows) > 0))
    la_error(L, fname, "%s of an empty %s", fname, dim ? "dimension" : "matrix");
  if (r == LAK_VAR || r == LAK_STD) ddof = getddof(L, oi, fname, count);
  else if (oi == 2 || !lua_isnoneornil(L, 3)) la_checkopts(L, oi, fname, ddof_keys + 1);
  if (dim == 0 && A->ld != A->rows && !LA_EMPTY(A) &&
      (r == LAK_MIN || r == LAK_MAX || r == R_PTP)) {                  /* a view's extremes */
    double x = r == R_PTP ? viewext(L, A, 1) - viewext(L, A, 0) : viewext(L, A, r == LAK_MAX);
    lua_pushnumber(L, A->dtype == LA_F32 && r == R_PTP ? (double)(float)x : x);
    return 1;
  }
  if (dim == 0 && A->ld != A->rows && !LA_EMPTY(A) && (r == LAK_SUM || r == LAK_MEAN)) {
    /* a view's sum where it lies, the bits of its copy's */
    double x = A->dtype == LA_F32 ? lak_sviewsum((size_t)A->rows, (size_t)A->cols, A->fdata, (size_t)A->ld)
                                  : lak_viewsum((size_t)A->rows, (size_t)A->cols, A->data, (size_t)A->ld);
    lua_pushnumber(L, r == LAK_MEAN ? x / ((double)A->rows * (double)A->cols) : x);
    return 1;
  }
  if (dim == 0) {
    double x;
    if (A->ld != A->rows && !LA_EMPTY(A)) A = la_copyof(L, A, fname);   /* a view */
    x = reduce(r, la_flat(A), ddof);
    if (!index) { lua_pushnumber(L, x); return 1; }
    lua_pushinteger(L, ((lua_Integer)x - 1) % A->rows + 1);
    lua_pushinteger(L, ((lua_Integer)x - 1) / A->rows + 1);
    return 2;
  }
  nk = dim == 1 ? A->cols : A->rows;
  R = la_newt(L, fname, dim == 1 ? 1 : A->rows, dim == 1 ? A->cols : 1,
              index ? LA_F64 : A->dtype);
  /* rows: a product is taken in column order, also for a 1 x n matrix (as
  ** for a view of the row: not lak_reduce's interleaved partial products);
  ** float32 positions are floats, exact to 2^24 columns */
  if (dim == 2 && (A->rows > 1 || r == LAK_PROD) &&
      (A->dtype == LA_F64 || A->cols <= 16777216 || !index)) {
    byrows(L, r, A, R, ddof);
    return 1;
  }
  if (dim == 1 && index) {                 /* columns: one kernel call for all */
    if (A->dtype == LA_F32) lak_scolargext(r == R_ARGMAX, (size_t)A->rows, (size_t)A->cols, A->fdata, (size_t)A->ld, R->data, R->ld);
    else lak_colargext(r == R_ARGMAX, (size_t)A->rows, (size_t)A->cols, A->data, (size_t)A->ld, R->data, R->ld);
    return 1;
  }
  if (dim == 1 && (r == LAK_SUM || r == LAK_MEAN || r == LAK_VAR || r == LAK_STD)) {
    colreduce(L, r, A, R, ddof);        /* columns: one kernel call for all */
    return 1;
  }
  if (dim == 1 && (r == LAK_MIN || r == LAK_MAX)) {
    double *out = A->dtype == LA_F32 ? la_scratch(L, (size_t)A->cols) : R->data;
    colext(A, r == LAK_MAX, out);
    if (A->dtype == LA_F32) {
      for (k = 0; k < A->cols; k++) R->fdata[k] = (float)out[k];
      lua_pop(L, 1);
    }
    return 1;
  }
  for (k = 0; k < nk; k++) la_put(R, dim == 1 ? 0 : k, dim == 1 ? k : 0,
                                  reduce(r, la_line(A, dim, k), ddof));
  return 1;
}

static int l_sum(lua_State *L) { return reduction(L, la_fname(L), LAK_SUM); }
static int l_mean(lua_State *L) { return reduction(L, la_fname(L), LAK_MEAN); }
static int l_prod(lua_State *L) { return reduction(L, la_fname(L), LAK_PROD); }
static int l_min(lua_State *L) { return reduction(L, la_fname(L), LAK_MIN); }
static int l_max(lua_State *L) { return reduction(L, la_fname(L), LAK_MAX); }
static int l_var(lua_State *L) { return reduction(L, la_fname(L), LAK_VAR); }
static int l_std(lua_State *L) { return reduction(L, la_fname(L), LAK_STD); }
static int l_argmin(lua_State *L) { return reduction(L, la_fname(L), R_ARGMIN); }
static int l_argmax(lua_State *L) { return reduction(L, la_fname(L), R_ARGMAX); }
/* ptp(A [, dim]): max - min (NumPy's ptp), over every entry as NumPy's
** default axis=None, or along dim */
static int l_ptp(lua_State *L) { return reduction(L, la_fname(L), R_PTP); }

/* cumsum / cumprod / cummin / cummax (A [, dim]): running sums, products
** or extremes along dim (see la_optlinedim), same shape and type as A, sums
** and products accumulated in double; NaN propagates through the extremes
** (np.minimum.accumulate) */
static int scan(lua_State *L, const char *fname, lak_Scan op) {
  la_Mat *A = la_checkany(L, 1, fname), *R;
  int dim = la_optlinedim(L, fname, 2, A->rows, A->cols), k;
  int nk = dim == 1 ? A->cols : A->rows;
  R = la_newt(L, fname, A->rows, A->cols, A->dtype);
  for (k = 0; k < nk && !LA_EMPTY(A); k++) {
    la_Line a = la_line(A, dim, k), r = la_line(R, dim, k);
    if (a.f) lak_sscan(op, a.n, a.f, a.s, r.f, r.s);
    else lak_scan(op, a.n, a.p, a.s, r.p, r.s);
  }
  return 1;
}

static int l_cumsum(lua_State *L) { return scan(L, la_fname(L), LAK_CUMSUM); }
static int l_cumprod(lua_State *L) { return scan(L, la_fname(L), LAK_CUMPROD); }
static int l_cummin(lua_State *L) { return scan(L, la_fname(L), LAK_CUMMIN); }
static int l_cummax(lua_State *L) { return scan(L, la_fname(L), LAK_CUMMAX); }

/* diff(A [, n = 1 [, dim]]): the n-th differences along dim (NumPy's diff:
** A(:, j+1) - A(:, j) along dim 2), each step in A's type; the default dim
** is NumPy's axis=-1: a vector along itself, a matrix along its rows (dim
** 2; Octave's diff goes down the columns). n past the length leaves an
** empty dimension; n = 0 is a copy. */
static int l_diff(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkany(L, 1, F), *R;
  lua_Integer n = lua_isnoneornil(L, 2) ? 1 : la_checkint(L, F, 2);
  int dim = la_optvecdim(L, F, 3, A->rows, A->cols, 2), k, nk, len, order;
  if (n < 0) la_argerror(L, F, 2, "order must be >= 0");
  len = dim == 1 ? A->rows : A->cols;
  nk = dim == 1 ? A->cols : A->rows;
  order = n < len ? (int)n : len;
  R = la_newt(L, F, dim == 1 ? len - order : A->rows, dim == 1 ? A->cols : len - order, A->dtype);
  if (LA_EMPTY(R)) return 1;
  if (order == 1) {                       /* A shifted by one minus A: the vector loops */
    ptrdiff_t sh = dim == 1 ? 1 : A->ld;
    if (A->dtype == LA_F32) {
      lak_sArg a = {A->fdata + sh, 1, A->ld}, b = {A->fdata, 1, A->ld};
      lak_sewise(LAK_SUB, R->rows, R->cols, a, b, R->fdata, R->ld);
    } else {
      lak_Arg a = {A->data + sh, 1, A->ld}, b = {A->data, 1, A->ld};
      lak_ewise(LAK_SUB, R->rows, R->cols, a, b, R->data, R->ld);
    }
    return 1;
  }
  {
    size_t esz = A->dtype == LA_F32 ? sizeof(float) : sizeof(double);
    void *w = la_alloc(L, (size_t)len, esz);
    for (k = 0; k < nk; k++) {
      la_Line a = la_line(A, dim, k), r = la_line(R, dim, k);
      if (a.f) lak_sdiff(order, a.n, a.f, a.s, r.f, r.s, (float *)w);
      else lak_diff(order, a.n, a.p, a.s, r.p, r.s, (double *)w);
    }
    lua_pop(L, 1);                        /* w: R on top */
  }
  return 1;
}

/* ---------------------------------------------------------------- sorting */

/* sort's options; argsort's from the second */
static const char *const sort_keys[] = {"indices", "descending", NULL};

/* each line of A along dim sorted into S (NULL: argsort) and P (NULL:
** values only) along sdim */
static void sortlines(const la_Mat *A, la_Mat *S, la_Mat *P, int dim, int sdim, int down,
                      lak_SortItem *w) {
  int k, nk = dim == 1 ? A->cols : A->rows;
  for (k = 0; k < nk && !LA_EMPTY(A); k++) {
    la_Line a = la_line(A, dim, k), ix = a, s = a;
    if (S) s = la_line(S, sdim, k);
    if (P) ix = la_line(P, sdim, k);
    if (a.f) lak_ssort((int)a.n, a.f, a.s, down, S ? s.f : NULL, s.s, P ? ix.p : NULL, ix.s, w);
    else lak_sort((int)a.n, a.p, a.s, down, S ? s.p : NULL, s.s, P ? ix.p : NULL, ix.s, w);
  }
}

/* many short lines (2 to LAK_SHORT entries; to LAK_LONG, a vector's
** width of them at least: a matrix's short columns or rows) all at once in
** vector lanes; 0 where that kernel does not run */
static lak_Lines lines(const la_Mat *M, int dim) {
  lak_Lines o = {NULL, 0, 0};
  if (M == NULL) return o;
  o.p = M->fdata ? (void *)M->fdata : (void *)M->data;
  o.l = dim == 1 ? M->ld : 1;                /* line to line */
  o.j = dim == 1 ? 1 : M->ld;                /* entry to entry */
  return o;
}

/* Values alone (no P), lines longer than VALS_F32 (float32) or VALS_F64
** entries sort faster one by one: sort.c's keys alone, in registers (100 x
** 100 along the columns, us: float32 22 -> 14.6, float64 35.5 -> 20.6;
** 1000 lines of 48 float64 124 -> 102, of 32 sortshort's 53 against 61) */
#define VALS_F32 80
#define VALS_F64 40
static int sortshort(const la_Mat *A, la_Mat *S, la_Mat *P, int dim, int down, void *work) {
  int n = dim == 1 ? A->rows : A->cols, nl = dim == 1 ? A->cols : A->rows;
  if (n < 2 || n > LAK_LONG || nl < (n <= LAK_SHORT ? 2 : A->fdata ? 16 : 8)) return 0;
  if (P == NULL && n > (A->fdata ? VALS_F32 : VALS_F64)) return 0;
  return (A->fdata ? lak_ssortshort : lak_sortshort)(nl, n, down, lines(A, dim), lines(S, dim),
                                                    lines(P, dim), work);
}

/* sort(A [, dim [, {descending = false, indices = true}]]) -> S, I: each
** line along dim (see la_optlinedim) sorted, with I the 1-based positions
** the entries came from (Octave's [S, I] = sort(A)); indices = false: S
** alone (the values sorted without their positions, faster); argsort
** returns I only. S has A's type (float32 keys are exact as doubles), I is
** float64. */
static int sort(lua_State *L, const char *fname, int want) {
  la_Mat *A = la_checkany(L, 1, fname), *S, *P;
  int oi = lua_istable(L, 2) && !la_testany(L, 2) ? 2 : 3;
  int dim = la_optlinedim(L, fname, oi == 2 ? lua_gettop(L) + 1 : 2, A->rows,
                          A->cols), down;
  lak_SortItem *w;
  size_t nw;
  int len;
  la_checkopts(L, oi, fname, want == 2 ? sort_keys : sort_keys + 1);
  down = la_optbool(L, oi, "descending", 0, fname);
  if (want == 2 && !la_optbool(L, oi, "indices", 1, fname)) want = 0;
  S = want != 1 ? la_newt(L, fname, A->rows, A->cols, A->dtype) : NULL;
  P = want ? la_new(L, fname, A->rows, A->cols) : NULL;
  len = dim == 1 ? A->rows : A->cols;
  nw = len <= LAK_LONG ? (LAK_SHORT_WORK(len) + sizeof *w - 1) / sizeof *w : 0;
  if (nw < LAK_SORT_WORK(len)) nw = LAK_SORT_WORK(len);
  w = LA_SCRATCH(L, lak_SortItem, LA_EMPTY(A) ? 0 : nw);
  if (sortshort(A, S, P, dim, down, w)) {
    /* every line at once, in vector lanes */
  } else if (dim == 2 && A->rows > 1 && A->cols > 1) {
    /* rows: read as the columns of A^T (contiguous lines) */
    la_Mat *T = la_newt(L, fname, A->cols, A->rows, A->dtype);
    la_transposeto(A, T);
    sortlines(T, S, P, 1, 2, down, w);
    lua_pop(L, 1);                           /* T */
  } else sortlines(A, S, P, dim, dim, down, w);
  lua_pop(L, 1);                             /* w: S, P; P; or S on top */
  return want ? want : 1;
}

static int l_sort(lua_State *L) { return sort(L, la_fname(L), 2); }
static int l_argsort(lua_State *L) { return sort(L, la_fname(L), 1); }

/* ------------------------------------------------------- order statistics */

/* NumPy's quantiles (method "linear", its default): the value at
** (n - 1) q in the sorted line, between its neighbours as NumPy's _lerp
** takes it (the neighbours' difference in the line's type); the median of
** an even count, NumPy's mean of the middle two (in the line's type) */
typedef struct Quant {
  const double *q;       /* the quantiles, as given */
  int k;                 /* how many (0: none) */
  int median;
  size_t *idx;           /* scratch: 2 k + 2 ranks */
} Quant;

/* line l's entries into x (doubles); 1 when one is NaN */
static int gather(la_Line l, double *x) {
  size_t i;
  int nan = 0;
  for (i = 0; i < l.n; i++) {
    x[i] = LA_LX(l, i);
    nan |= x[i] != x[i];
  }
  return nan;
}

static int cmprank(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* the entries of ranks idx[a..b) (ascending, distinct, in [lo, hi)) put
** where a sort would: the middle one selected, then each side for its own
** ranks, so k ranks cost n log k, not k n */
static void multisel(double *x, size_t lo, size_t hi, const size_t *idx, int a, int b) {
  while (a < b) {
    int m = a + (b - a) / 2;
    size_t p = idx[m];
    lak_select(x + lo, hi - lo, p - lo);
    multisel(x, lo, p, idx, a, m);
    lo = p + 1;
    a = m + 1;
  }
}

/* the quantile's index below and its weight (NumPy's: past the last
** index, the last, and a weight whose lerp of equal ends is that end) */
static size_t qindex(double q, size_t n, double *g) {
  double vi = (double)(n - 1) * q;
  size_t p = vi >= (double)(n - 1) ? n - 1 : (size_t)vi;
  *g = vi - (double)p;
  return p;
}

/* the quantiles (or the median) of the n entries at x (n >= 1, no NaN;
** moved) into r[0..k); f32: a float32 line */
static void quantiles(double *x, size_t n, const Quant *Q, double *r, int f32) {
  size_t *idx = Q->idx, p;
  int i, c = 0, u = 0;
  double g;
  if (Q->median) { idx[c++] = (n - 1) / 2; idx[c++] = n / 2; }
  for (i = 0; i < Q->k; i++) {
    idx[c++] = p = qindex(Q->q[i], n, &g);
    if (p + 1 < n) idx[c++] = p + 1;
  }
  qsort(idx, (size_t)c, sizeof *idx, cmprank);
  for (i = 0; i < c; i++) if (u == 0 || idx[i] != idx[u - 1]) idx[u++] = idx[i];
  multisel(x, 0, n, idx, 0, u);
  if (Q->median) {
    double a = x[(n - 1) / 2], b = x[n / 2];
    r[0] = n % 2 ? a : f32 ? (double)(((float)a + (float)b) / 2.0f) : (a + b) / 2;
    return;
  }
  for (i = 0; i < Q->k; i++) {
    double a, b, d;
    p = qindex(Q->q[i], n, &g);
    a = x[p];
    if (g == 0 || p == n - 1) { r[i] = a; continue; }   /* an entry: exact, infinite too */
    b = x[p + 1];
    d = f32 ? (double)((float)b - (float)a) : b - a;
    r[i] = g >= 0.5 ? b - d * (1 - g) : a + d * g;
  }
}

/* the quantiles of line l (NaN if it holds one) into r, x its scratch */
static void linequant(la_Line l, const Quant *Q, double *x, double *r) {
  int i;
  if (gather(l, x)) {
    for (i = 0; i < (Q->median ? 1 : Q->k); i++) r[i] = NAN;
    return;
  }
  quantiles(x, l.n, Q, r, l.f != NULL);
}

/* q at arg (fname's quantiles, scale 1; percentile's, 100) into Q: a
** number (*scalar), or a vector or table of them, each in [0, scale] */
static void getq(lua_State *L, const char *fname, int arg, double scale, Quant *Q, int *scalar) {
  const char *what = scale == 1 ? "quantiles" : "percentiles";
  la_Mat *V = NULL;
  double *q;
  int i, k = 1;
  *scalar = lua_type(L, arg) == LUA_TNUMBER;
  if (!*scalar) {
    V = la_checkargany(L, arg, fname, arg);
    if (V->rows != 1 && V->cols != 1)
      la_error(L, fname, "%s must be a number or a vector, got a %dx%d matrix",
               scale == 1 ? "q" : "p", V->rows, V->cols);
    k = V->rows * V->cols;
  }
  q = la_scratch(L, (size_t)k + 1);
  for (i = 0; i < k; i++) {
    double v = *scalar ? lua_tonumber(L, arg) : la_get(V, V->rows == 1 ? 0 : i, V->rows == 1 ? i : 0);
    if (v != v) la_error(L, fname, "%s must be in [0, %d], got nan", what, (int)scale);
    if (!(v >= 0 && v <= scale)) {                /* every digit: 1 + 2^-52 is not "1.0" */
      char b[40];
      la_cdot(b, snprintf(b, sizeof b, "%.17g", v));
      la_error(L, fname, "%s must be in [0, %d], got %s", what, (int)scale, b);
    }
    q[i] = scale == 1 ? v : v / scale;
  }
  Q->q = q; Q->k = k;
}

/* f(A [, q] [, dim]): over every entry (q a number: a number; k of them:
** a k x 1 column) or along dim: dim 1, the columns (1 x n, k x n), dim 2,
** the rows (m x 1, m x k), of A's type. Computed in double. */
static int orderstat(lua_State *L, const char *fname, double scale) {
  la_Mat *A = la_checkany(L, 1, fname), *R;
  Quant Q = {NULL, 0, 0, NULL};
  int scalar = 1, dim, k, nk, i, j;
  size_t len;
  double *x, *r;
  dim = la_optdim(L, fname, scale > 0 ? 3 : 2);
  if (scale > 0) getq(L, fname, 2, scale, &Q, &scalar);
  else Q.median = 1;
  k = Q.median ? 1 : Q.k;
  len = dim == 0 ? (size_t)A->rows * (size_t)A->cols : dim == 1 ? (size_t)A->rows : (size_t)A->cols;
  if (len == 0) la_error(L, fname, "%s of an empty %s", fname, dim ? "dimension" : "matrix");
  Q.idx = LA_SCRATCH(L, size_t, 2 * (size_t)k + 2);
  x = la_scratch(L, len);
  r = la_scratch(L, (size_t)k + 1);
  if (dim == 0) {
    int nan = 0;
    size_t at = 0;
    for (j = 0; j < A->cols; j++) {
      nan |= gather(la_line(A, 1, j), x + at);
      at += (size_t)A->rows;
    }
    if (nan) for (i = 0; i < k; i++) r[i] = NAN;
    else quantiles(x, len, &Q, r, A->dtype == LA_F32);
    if (scalar) { lua_pushnumber(L, r[0]); return 1; }
    R = la_newt(L, fname, k, 1, A->dtype);
    for (i = 0; i < k; i++) la_put(R, i, 0, r[i]);
    return 1;
  }
  nk = dim == 1 ? A->cols : A->rows;
  R = la_newt(L, fname, dim == 1 ? k : nk, dim == 1 ? nk : k, A->dtype);
  lua_insert(L, 1);                          /* R below the scratch */
  if (dim == 2 && A->rows > 1 && A->cols > 1) {   /* rows: as the columns of A^T */
    la_Mat *T = la_newt(L, fname, A->cols, A->rows, A->dtype);
    la_transposeto(A, T);
    A = T;
    dim = 0;                                 /* lines: T's columns */
  }
  for (j = 0; j < nk; j++) {
    linequant(la_line(A, dim == 2 ? 2 : 1, j), &Q, x, r);
    for (i = 0; i < k; i++) la_put(R, dim == 1 ? i : j, dim == 1 ? j : i, r[i]);
  }
  lua_settop(L, 1);                          /* R */
  return 1;
}

/* median(A [, dim]): NumPy's median (the middle entry, or the mean of the
** middle two), over every entry (a number) or along dim; NaN if the line
** holds one */
static int l_median(lua_State *L) { return orderstat(L, la_fname(L), 0); }
/* quantile(A, q [, dim]): NumPy's quantile, method "linear" */
static int l_quantile(lua_State *L) { return orderstat(L, la_fname(L), 1); }
/* percentile(A, p [, dim]): quantile(A, p / 100), as NumPy's percentile */
static int l_percentile(lua_State *L) { return orderstat(L, la_fname(L), 100); }

static const la_Reg funcs[] = {
  {"sum", l_sum, 2 + LA_OPTS}, {"mean", l_mean, 2 + LA_OPTS},
  {"prod", l_prod, 2 + LA_OPTS}, {"min", l_min, 2 + LA_OPTS}, {"max", l_max, 2 + LA_OPTS},
  {"var", l_var, 2 + LA_OPTS}, {"std", l_std, 2 + LA_OPTS},
  {"argmin", l_argmin, 2 + LA_OPTS}, {"argmax", l_argmax, 2 + LA_OPTS},
  {"cumsum", l_cumsum, 2}, {"cumprod", l_cumprod, 2}, {"cummin", l_cummin, 2},
  {"cummax", l_cummax, 2}, {"diff", l_diff, 3}, {"ptp", l_ptp, 2 + LA_OPTS},
  {"sort", l_sort, 2 + LA_OPTS},
  {"argsort", l_argsort, 2 + LA_OPTS}, {"median", l_median, 2},
  {"quantile", l_quantile, 3}, {"percentile", l_percentile, 3}, {NULL, NULL, 0}
};

void la_open_reduce(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
