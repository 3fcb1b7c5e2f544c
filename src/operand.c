/*
** operand.c: the helper layer's readers of operands, for binding files that
** take their arguments as more than one matrix: broadcasting operands
** (numbers and matrices brought to one shape by NumPy's rule; arith.c,
** elementwise.c, measures.c), vector arguments read in pairs, and the
** lines of a matrix along a dim (reductions, scans, sorts, vecnorm).
*/
#include "helpers.h"

/* ------------------------------------------------------- broadcasting */

/* The matrix test comes first: it is the common case. */
void la_operand(lua_State *L, int idx, const char *fname, la_Operand *o) {
  la_Mat *A = la_test(L, idx);
  o->num = A == NULL && lua_type(L, idx) == LUA_TNUMBER;
  if (o->num) {
    o->s = lua_tonumber(L, idx);
    o->a.p = &o->s; o->a.rs = o->a.cs = 0; o->m = o->n = 1;
    return;
  }
  if (A == NULL || (A->flags & LA_CLOSED)) A = la_check(L, idx, fname);
  o->a.p = A->data; o->a.rs = 1; o->a.cs = A->ld; o->m = A->rows; o->n = A->cols;
}

/* NumPy's rule in one dimension: *r (1 until a size is seen) and x are
** equal, or x is 1; a first size other than 1 becomes *r. */
static int bdim(int *r, int x) {
  if (*r == 1) *r = x;
  return x == *r || x == 1;
}

/* "shapes 2x3 and 4x1 do not broadcast" (the k shapes listed) */
static int shapeerror(lua_State *L, const char *fname, const la_Operand *o, int k) {
  luaL_Buffer B;
  int i;
  luaL_buffinit(L, &B);
  lua_pushfstring(L, "linalg.%s: shapes ", fname);
  luaL_addvalue(&B);
  for (i = 0; i < k; i++) {
    lua_pushfstring(L, "%s%dx%d", i == 0 ? "" : i == k - 1 ? " and " : ", ",
                    o[i].m, o[i].n);
    luaL_addvalue(&B);
  }
  luaL_addstring(&B, " do not broadcast");
  luaL_pushresult(&B);
  return lua_error(L);
}

int la_broadcast(lua_State *L, const char *fname, la_Operand *o, int k,
                 int *m, int *n) {
  int i, nums = 1;
  for (i = 0; i < k; i++) {
    la_operand(L, i + 1, fname, &o[i]);
    nums = nums && o[i].num;
  }
  la_bshape(L, fname, o, k, m, n);
  return nums;
}

int la_broadcast32(lua_State *L, const char *fname, lak_sArg *a, float *s, int k,
                   int *m, int *n) {
  la_Operand o[LA_MAXOPS];              /* shapes and strides, for la_bshape */
  int i;
  if (la_argtype(L, 1, k) != LA_F32) return 0;   /* the float64 pass: la_broadcast */
  for (i = 0; i < k; i++) {
    if (lua_type(L, i + 1) == LUA_TNUMBER) {
      s[i] = (float)lua_tonumber(L, i + 1);
      a[i].p = &s[i]; o[i].a.rs = o[i].a.cs = 0; o[i].m = o[i].n = 1;
    } else {                            /* a table is made float32; closed, a string: errors */
      la_Mat *M = la_checkt(L, i + 1, fname, LA_F32);
      a[i].p = M->fdata; o[i].a.rs = 1; o[i].a.cs = M->ld; o[i].m = M->rows; o[i].n = M->cols;
    }
  }
  la_bshape(L, fname, o, k, m, n);
  for (i = 0; i < k; i++) { a[i].rs = o[i].a.rs; a[i].cs = o[i].a.cs; }
  return 1;
}

void la_bshape(lua_State *L, const char *fname, la_Operand *o, int k, int *m, int *n) {
  int i, ok = 1;
  *m = *n = 1;
  for (i = 0; i < k; i++) ok = bdim(m, o[i].m) && bdim(n, o[i].n) && ok;
  if (!ok) shapeerror(L, fname, o, k);
  for (i = 0; i < k; i++) {
    if (o[i].m != *m) o[i].a.rs = 0;
    if (o[i].n != *n) o[i].a.cs = 0;
  }
}

/* ------------------------------------------------------- vectors */

la_Vec la_getvec(lua_State *L, int idx, const char *fname) {
  la_Vec v;
  v.p = la_vec(L, idx, fname, &v.n, &v.inc);
  return v;
}

void la_vecpair(lua_State *L, const char *fname, la_Vec *u, la_Vec *v) {
  *u = la_getvec(L, 1, fname);
  *v = la_getvec(L, 2, fname);
  if (u->n != v->n) la_error(L, fname, "vector lengths %d and %d differ", u->n, v->n);
}

/* ------------------------------------------------------- lines */

la_Line la_line(const la_Mat *A, int dim, int k) {
  la_Line l;
  ptrdiff_t at = dim == 1 ? (ptrdiff_t)k * A->ld : k;
  l.p = A->dtype == LA_F32 ? NULL : A->data + at;
  l.f = A->dtype == LA_F32 ? A->fdata + at : NULL;
  l.s = dim == 1 ? 1 : A->ld;
  l.n = (size_t)(dim == 1 ? A->rows : A->cols);
  return l;
}

la_Line la_flat(const la_Mat *A) {
  la_Line l = la_line(A, 1, 0);
  l.n = (size_t)A->rows * (size_t)A->cols;
  return l;
}

double la_lreduce(int r, la_Line l, double ddof) {
  return l.f ? lak_sreduce((lak_Red)r, l.n, l.f, l.s, ddof)
             : lak_reduce((lak_Red)r, l.n, l.p, l.s, ddof);
}

double la_lnorm(la_Line l, double p) {
  return l.f ? lak_svnorm(l.n, l.f, l.s, p) : lak_vnorm(l.n, l.p, l.s, p);
}

double la_ldot(la_Line u, la_Line v) {
  return u.f ? lak_sdotd(u.n, u.f, u.s, v.f, v.s) : lak_dotd(u.n, u.p, u.s, v.p, v.s);
}

la_Line la_vecline(lua_State *L, int idx, const char *fname, int dtype) {
  la_Mat *A = la_checkt(L, idx, fname, dtype);
  if (!la_isvec(A))
    la_argerror(L, fname, idx, lua_pushfstring(L,
                "vector expected, got a %dx%d matrix", A->rows, A->cols));
  return la_line(A, A->cols == 1 ? 1 : 2, 0);
}

void la_linepair(lua_State *L, const char *fname, la_Line *u, la_Line *v) {
  int t = la_argtype(L, 1, 2);
  *u = la_vecline(L, 1, fname, t);
  *v = la_vecline(L, 2, fname, t);
  if (u->n != v->n)
    la_error(L, fname, "vector lengths %d and %d differ", (int)u->n, (int)v->n);
}
