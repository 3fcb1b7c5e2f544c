/*
** print.c: printing matrices (__tostring) as NumPy prints arrays, under
** la.printoptions{precision, threshold, edgeitems, linewidth, suppress}
** (NumPy's set_printoptions; kept per Lua state in the registry).
** A vector (n x 1 or 1 x n) prints on one line wrapped at linewidth, "[1.
** 2.5 3. ]"; other matrices as right-aligned columns. Every number shown
** has one format: fixed with at most precision decimals (trailing zeros
** trimmed, the columns aligned on the point) or, when the numbers span too
** much (NumPy's rule, below), scientific.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

typedef struct POpts {
  lua_Integer precision, threshold, edgeitems, linewidth;
  int suppress;
} POpts;

static const char popts_key = 'p';

/* the state's options, created with NumPy's defaults (precision 4 here) */
static POpts *getopts(lua_State *L) {
  POpts *o;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &popts_key);
  o = (POpts *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (o != NULL) return o;
  o = (POpts *)lua_newuserdata(L, sizeof(POpts));
  o->precision = 4; o->threshold = 1000; o->edgeitems = 3; o->linewidth = 75; o->suppress = 0;
  lua_rawsetp(L, LUA_REGISTRYINDEX, &popts_key);
  return o;
}

/* the format shared by every number shown */
typedef struct Fmt {
  int exp;          /* scientific */
  int left, right;  /* widths: sign and integer part (fixed) or mantissa digit; decimals */
  int edigits;      /* exponent digits (scientific) */
  int prec;
} Fmt;

/* the decimals x needs (at most prec, trailing zeros trimmed) and, in
** *lead, the width before the point */
static int decimals(double x, int exp, int prec, int *lead, int *edig) {
  char buf[512], *dot, *e, *end;
  int n;
  n = snprintf(buf, sizeof buf, exp ? "%.*e" : "%.*f", prec, x);
  la_cdot(buf, n);
  dot = strchr(buf, '.');
  e = strchr(buf, 'e');
  end = e ? e : buf + strlen(buf);
  if (dot == NULL) { *lead = (int)(end - buf); return 0; }
  while (end > dot + 1 && end[-1] == '0') end--;
  *lead = (int)(dot - buf);
  if (e && edig) *edig = (int)strlen(e + 2);
  return (int)(end - dot - 1);
}

/* NumPy's choice: scientific when the largest magnitude is >= 1e8 or,
** unless suppress, the smallest nonzero one is < 1e-4 or the ratio > 1000 */
static void analyze(const double *v, size_t n, const POpts *o, Fmt *f) {
  double lo = HUGE_VAL, hi = 0;
  size_t k;
  int anyneg = 0, nonfinite = 0, neginf = 0;
  memset(f, 0, sizeof *f);
  f->prec = (int)o->precision;
  for (k = 0; k < n; k++) {
    double a = fabs(v[k]);
    if (!isfinite(v[k]) || a == 0) continue;
    if (a < lo) lo = a;
    if (a > hi) hi = a;
  }
  f->exp = hi > 0 && (hi >= 1e8 || (!o->suppress && (lo < 1e-4 || hi / lo > 1e3)));
  f->left = 1; f->edigits = 2;
  for (k = 0; k < n; k++) {
    int lead, d, ed = 2;
    if (!isfinite(v[k])) { nonfinite = 1; neginf |= v[k] < 0; continue; }
    d = decimals(v[k] == 0 ? 0.0 : v[k], f->exp, f->prec, &lead, &ed);
    if (d > f->right) f->right = d;
    if (lead > f->left) f->left = lead;
    if (ed > f->edigits) f->edigits = ed;
    if (v[k] < 0) anyneg = 1;
  }
  if (f->exp && anyneg) f->left = 2;
  if (nonfinite) {                                 /* "nan", "inf" fit the width */
    int room = f->right + 1 + (f->exp ? 2 + f->edigits : 0);
    if (3 + neginf - room > f->left) f->left = 3 + neginf - room;
  }
}

static int width(const Fmt *f) {
  return f->left + 1 + f->right + (f->exp ? 2 + f->edigits : 0);
}

/* x as f says, in buf (width(f) bytes and a zero) */
static void format(double x, const Fmt *f, char *buf, size_t sz) {
  char t[512];
  int w = width(f);
  if (isnan(x) || isinf(x)) {
    snprintf(buf, sz, "%*s", w, isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
    return;
  }
  if (x == 0) x = 0.0;                             /* no "-0." */
  if (f->exp) {
    char *e;
    int n;
    n = snprintf(t, sizeof t, "%.*e", f->right, x);
    la_cdot(t, n);
    e = strchr(t, 'e');
    snprintf(buf, sz, "%*.*s%s%c%c%0*d", f->left + (f->right ? 1 + f->right : 0),
             (int)(e - t), t, f->right ? "" : ".", 'e', e[1], f->edigits, (int)strtol(e + 2, NULL, 10));
    return;
  } else {
    int lead, d = decimals(x, 0, f->prec, &lead, NULL), n;
    n = snprintf(t, sizeof t, "%.*f", d, x);
    la_cdot(t, n);
    snprintf(buf, sz, "%*s%s%*s", f->left + (d ? 1 + d : 0), t, d ? "" : ".", f->right - d, "");
  }
}

/* Fills idx with the indices shown along a dimension of length n; -1 marks
** the ellipsis. Returns how many. */
static int shown(int n, int elide, int edge, int *idx) {
  int k = 0, i;
  if (!elide || n <= 2 * edge) { for (i = 0; i < n; i++) idx[k++] = i; return k; }
  for (i = 0; i < edge; i++) idx[k++] = i;
  idx[k++] = -1;
  for (i = n - edge; i < n; i++) idx[k++] = i;
  return k;
}

/* entry (i, j) of A as format writes it; a bool entry is "true" or
** "false", right-aligned in 5 */
static void cell(const la_Mat *A, int i, int j, const Fmt *f, char *buf, size_t sz) {
  if (A->dtype == LA_BOOL) snprintf(buf, sz, "%5s", LA_ATB(A, i, j) ? "true" : "false");
  else format(la_get(A, i, j), f, buf, sz);
}

static void header(lua_State *L, luaL_Buffer *B, const la_Mat *A) {
  lua_pushfstring(L, "%dx%d%s matrix%s", A->rows, A->cols,
                  A->dtype == LA_F32 ? " float32" : A->dtype == LA_BOOL ? " bool" : "",
                  (A->flags & LA_VIEW) ? " (view)" : "");
  luaL_addvalue(B);
}

/* a vector as NumPy prints a 1-D array: "[", numbers with one space
** between, wrapped at linewidth, continuation lines indented by one */
static void vector(luaL_Buffer *B, const la_Mat *A, const int *ix, int n,
                   const Fmt *f, const POpts *o) {
  char buf[600];
  int k, col = 1, pad = 0;           /* pad: trailing spaces of the last number, */
  luaL_addstring(B, "\n[");          /* written only when more follows on its line */
  for (k = 0; k < n; k++) {
    int i = ix[k], len, last = k == n - 1, end;
    if (i < 0) snprintf(buf, sizeof buf, "...");
    else cell(A, A->cols == 1 ? i : 0, A->cols == 1 ? 0 : i, f, buf, sizeof buf);
    len = (int)strlen(buf) + (k > 0) + last;
    if (k > 0 && col + len > o->linewidth) { luaL_addstring(B, "\n "); col = 1; len -= 1; }
    else if (k > 0) { for (; pad > 0; pad--) luaL_addchar(B, ' '); luaL_addchar(B, ' '); }
    for (end = (int)strlen(buf); end > 0 && buf[end - 1] == ' '; end--) {}
    pad = (int)strlen(buf) - end;
    luaL_addlstring(B, buf, (size_t)end);
    col += len;
  }
  for (; pad > 0; pad--) luaL_addchar(B, ' ');
  luaL_addchar(B, ']');
}

/* other matrices: rows of right-aligned columns, ":" and "..." eliding */
static void table(luaL_Buffer *B, const la_Mat *A, const int *ri, int nr,
                  const int *ci, int nc, const Fmt *f) {
  char buf[600];
  int a, b, w = A->dtype == LA_BOOL ? 5 : width(f);
  if (w < 3 && (nr < 1 || ri[nr / 2] < 0 || ci[nc / 2] < 0)) w = 3;   /* room for "..." */
  for (a = 0; a < nr; a++) {
    luaL_addchar(B, '\n');
    for (b = 0; b < nc; b++) {
      if (ri[a] >= 0 && ci[b] >= 0) cell(A, ri[a], ci[b], f, buf, sizeof buf);
      else snprintf(buf, sizeof buf, "%s", ri[a] < 0 && ci[b] < 0 ? "" : ri[a] < 0 ? ":" : "...");
      luaL_addstring(B, "  ");
      for (int pad = w - (int)strlen(buf); pad > 0; pad--) luaL_addchar(B, ' ');
      luaL_addstring(B, buf);
    }
  }
}

/* "3x2 matrix" then the numbers; beyond threshold entries only the first
** and last edgeitems rows and columns, as NumPy does. */
static int m_tostring(lua_State *L) {
  la_Mat *A = la_checkall(L, 1, "tostring");
  POpts *o = getopts(L);
  int elide = (lua_Integer)A->rows * A->cols > o->threshold, nr, nc, a, b, edge;
  int *ri, *ci, isvec = A->rows == 1 || A->cols == 1;
  double *v;
  size_t nv = 0;
  Fmt f;
  luaL_Buffer B;
  edge = o->edgeitems > 1000000 ? 1000000 : (int)o->edgeitems;
  if (LA_EMPTY(A)) {
    luaL_buffinit(L, &B);
    header(L, &B, A);
    luaL_pushresult(&B);
    return 1;
  }
  ri = LA_SCRATCH(L, int, (size_t)A->rows + (size_t)A->cols + 4);
  nr = shown(A->rows, elide, edge, ri);
  ci = ri + nr; nc = shown(A->cols, elide, edge, ci);
  v = la_scratch(L, (size_t)nr * (size_t)nc + 1);
  for (a = 0; a < nr; a++)
    for (b = 0; b < nc; b++)
      if (ri[a] >= 0 && ci[b] >= 0) v[nv++] = la_get(A, ri[a], ci[b]);
  analyze(v, nv, o, &f);
  luaL_buffinit(L, &B);
  header(L, &B, A);
  if (isvec) vector(&B, A, A->cols == 1 ? ri : ci, A->cols == 1 ? nr : nc, &f, o);
  else table(&B, A, ri, nr, ci, nc, &f);
  luaL_pushresult(&B);
  return 1;
}

/* pushes the options as a table */
static void pushopts(lua_State *L, const POpts *o) {
  lua_createtable(L, 0, 5);
  lua_pushinteger(L, o->precision); lua_setfield(L, -2, "precision");
  lua_pushinteger(L, o->threshold); lua_setfield(L, -2, "threshold");
  lua_pushinteger(L, o->edgeitems); lua_setfield(L, -2, "edgeitems");
  lua_pushinteger(L, o->linewidth); lua_setfield(L, -2, "linewidth");
  lua_pushboolean(L, o->suppress); lua_setfield(L, -2, "suppress");
}

static lua_Integer optrange(lua_State *L, const char *key, lua_Integer def, lua_Integer lo,
                            lua_Integer hi, const char *F) {
  lua_Integer v = la_optint(L, 1, key, def, F);
  if (v < lo || v > hi)
    la_error(L, F, "option '%s' must be in %I..%I, got %I", key, lo, hi, v);
  return v;
}

/* printoptions([opts]) -> the options before the call (all of them) */
static int l_printoptions(lua_State *L) {
  static const char *const keys[] = {"precision", "threshold", "edgeitems", "linewidth",
                                     "suppress", NULL};
  const char *F = la_fname(L);
  POpts *o = getopts(L), n;
  la_checkopts(L, 1, F, keys);
  pushopts(L, o);
  if (lua_isnoneornil(L, 1)) return 1;
  n.precision = optrange(L, "precision", o->precision, 0, 17, F);
  n.threshold = optrange(L, "threshold", o->threshold, 0, (lua_Integer)1 << 52, F);
  n.edgeitems = optrange(L, "edgeitems", o->edgeitems, 1, 1000000, F);
  n.linewidth = optrange(L, "linewidth", o->linewidth, 10, 1000000, F);
  n.suppress = la_optbool(L, 1, "suppress", o->suppress, F);
  *o = n;
  return 1;
}

static const la_Reg funcs[] = {{"printoptions", l_printoptions, 0 + LA_OPTS}, {NULL, NULL, 0}};
static const la_Reg meta[] = {{"__tostring", m_tostring, LA_VARARG}, {NULL, NULL, 0}};

void la_open_print(lua_State *L) {
  la_setfuncs(L, funcs, 0);
  la_setmeta(L, meta);
}
