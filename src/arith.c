/*
** arith.c: the arithmetic operators and products. Metamethods + - * / and
** unary minus (elementwise with broadcasting; A * B is the matrix product,
** A / B for two matrices is refused), A == B; emul, ediv and pow
** (elementwise, broadcasting as + does), matmul, dot, outer; map (a Lua
** function over every entry). A ^ k is solve.c's matrix power.
*/
#include <math.h>
#include <cblas.h>

#include "helpers.h"
#include "kernels/kernels.h"
#include "kernels/vecmath.h"

/* ---------------------------------------------------------------- operators */

/* la_test for the fast path below: the same checks, but the metatable is
** left on the stack (a C function's extra stack values are discarded when
** it returns), which saves an API call on an operation that costs ~20. */
static la_Mat *quick_test(lua_State *L, int idx) {
  void *p = lua_touserdata(L, idx);
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  if (!lua_rawequal(L, -1, lua_upvalueindex(1)) || lua_rawlen(L, idx) < sizeof(la_Mat) ||
      ((la_Mat *)p)->magic != LA_MAGIC)
    return NULL;
  return la_seen((la_Mat *)p);
}

/* The float32 operation, when both operands are open float32 matrices or
** one is and the other a Lua number (numbers do not promote: NumPy's rule);
** anything else returns 0 and takes the float64 path, where la_check turns
** a float32 operand into float64. Broadcasting as la_broadcast's. */
static int ewise32(lua_State *L, lak_Op op, const char *fname) {
  float s[2];
  lak_sArg a[2];
  int m, n;
  la_Mat *C;
  if (!la_broadcast32(L, fname, a, s, 2, &m, &n)) return 0;
  C = la_newt(L, fname, m, n, LA_F32);
  lak_sewise(op, m, n, a[0], a[1], C->fdata, C->ld);
  return 1;
}

/* A float64 and a float32 matrix of one shape, in either order (C's
** metatable on top, as la_newatt takes it): computed in float64 (NumPy's
** promotion) without a widened copy of the float32 one (pow takes the
** general path's copy: kernels/arith_gen.h says why) */
static int ewise_mixed(lua_State *L, lak_Op op, const char *fname, const la_Mat *A,
                       const la_Mat *B) {
  int wide = A->dtype == LA_F64;
  const la_Mat *D = wide ? A : B, *S = wide ? B : A;     /* float64, float32 */
  la_Mat *C = la_newatt(L, fname, A->rows, A->cols, -1, LA_F64);
  lak_ewise_mixed(op, A->rows, A->cols, D->data, D->ld, S->fdata, S->ld, !wide, C->data, C->ld);
  return 1;
}

static int ewise(lua_State *L, lak_Op op, const char *fname) {
  la_Operand o[2];
  int m, n, top = lua_gettop(L);
  la_Mat *C, *A = quick_test(L, 1), *B = A && top >= 2 ? quick_test(L, 2) : NULL;
  /* the common case, two open matrices of one shape, skips the general
  ** operand and broadcasting code (it matters for tiny matrices) */
  if (B && A->rows == B->rows && A->cols == B->cols && A->dtype != LA_BOOL &&
      B->dtype != LA_BOOL && !((A->flags | B->flags) & LA_CLOSED) &&
      (A->dtype == B->dtype || op != LAK_POW)) {
    if (A->dtype != B->dtype) return ewise_mixed(L, op, fname, A, B);
    C = la_newatt(L, fname, A->rows, A->cols, -1, A->dtype);   /* B's metatable is on top */
    if (A->dtype == LA_F32) {
      lak_sArg a, b;
      a.p = A->fdata; a.rs = 1; a.cs = A->ld;
      b.p = B->fdata; b.rs = 1; b.cs = B->ld;
      lak_sewise(op, A->rows, A->cols, a, b, C->fdata, C->ld);
    } else {
      lak_Arg a, b;
      a.p = A->data; a.rs = 1; a.cs = A->ld;
      b.p = B->data; b.rs = 1; b.cs = B->ld;
      lak_ewise(op, A->rows, A->cols, a, b, C->data, C->ld);
    }
    return 1;
  }
  lua_settop(L, top);
  if (ewise32(L, op, fname)) return 1;
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
    double x = lua_tonumber(L, 1), y = lua_tonumber(L, 2), z = 0;
    if (lak_vecmath_native()) lak_vpow(1, &x, 0, &y, 0, &z);   /* an entry's bits */
    else z = pow(x, y);
    lua_pushnumber(L, z);
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

/* op(A) op(B) of matmul's options (trans_a, trans_b: SciPy's dgemm),
** each read in place (lak_matmult) */
static int matmult(lua_State *L, const char *fname, int ta, int tb, const la_Mat *A,
                   const la_Mat *B, int f32) {
  int m = ta ? A->cols : A->rows, k = ta ? A->rows : A->cols;
  int kb = tb ? B->cols : B->rows, n = tb ? B->rows : B->cols;
  char a = ta ? 'T' : 'N', b = tb ? 'T' : 'N';
  la_Mat *C;
  if (k != kb)
    la_error(L, fname, "%dx%d%s times %dx%d%s (inner %d ~= %d)", A->rows, A->cols,
             ta ? " transposed" : "", B->rows, B->cols, tb ? " transposed" : "", k, kb);
  C = la_newt(L, fname, m, n, f32 ? LA_F32 : LA_F64);
  if (f32) lak_smatmult(a, b, m, n, k, A->fdata, A->ld, B->fdata, B->ld, C->fdata, C->ld);
  else lak_matmult(a, b, m, n, k, A->data, A->ld, B->data, B->ld, C->data, C->ld);
  return 1;
}

/* A B; in float32 (sgemm) when both are float32, else in float64; a
** matrix times its own transpose by syrk or lak_gramt (lak_matmul). opts (matmul's
** third argument, 0: none): trans_a, trans_b, the product of A's or B's
** transpose (matmult) */
static int matmul(lua_State *L, const char *fname, int opts) {
  static const char *const keys[] = {"trans_a", "trans_b", NULL};
  la_Mat *A = la_testany(L, 1), *B = la_testany(L, 2), *C;
  int f32 = 0, top, ta = 0, tb = 0;
  if (opts) {
    la_checkopts(L, opts, fname, keys);
    ta = la_optbool(L, opts, "trans_a", 0, fname);
    tb = la_optbool(L, opts, "trans_b", 0, fname);
  }
  if (A && B && A->dtype == B->dtype && !((A->flags | B->flags) & LA_CLOSED))
    f32 = A->dtype == LA_F32;           /* two open matrices of one type: as they are */
  else if (la_argtype(L, 1, 2) == LA_F32) {
    A = la_checkt(L, 1, fname, LA_F32); /* a float32 matrix and a table: float32 */
    B = la_checkt(L, 2, fname, LA_F32);
    f32 = 1;
  } else {                              /* tables, mixed types, closed: la_check decides */
    A = la_check(L, 1, fname);
    B = la_check(L, 2, fname);
  }
  if (ta || tb) return matmult(L, fname, ta, tb, A, B, f32);
  if (A->cols != B->rows)
    la_error(L, fname, "%dx%d times %dx%d (inner %d ~= %d)", A->rows, A->cols,
             B->rows, B->cols, A->cols, B->rows);
  C = la_newt(L, fname, A->rows, B->cols, f32 ? LA_F32 : LA_F64);
  top = lua_gettop(L);
  /* the workspace, when one is asked for, is a userdata above C */
  if (f32) {
    size_t w = lak_smatmulbuf(A->rows, B->cols, A->cols);
    lak_smatmul(A->rows, B->cols, A->cols, A->fdata, A->ld, B->fdata, B->ld, C->fdata, C->ld,
                w ? LA_KEPTWORK(L, float, w) : NULL);
    if (w) la_keepwork(L, -1);
  } else {
    size_t w = lak_matmulbuf(A->rows, B->cols, A->cols);
    lak_matmul(A->rows, B->cols, A->cols, A->data, A->ld, B->data, B->ld, C->data, C->ld,
               w ? LA_KEPTWORK(L, double, w) : NULL);
    if (w) la_keepwork(L, -1);
  }
  lua_settop(L, top);
  return 1;
}

static int l_matmul(lua_State *L) {
  return matmul(L, la_fname(L), lua_isnoneornil(L, 3) ? 0 : 3);
}

static int m_mul(lua_State *L) {
  if (lua_type(L, 1) == LUA_TNUMBER || lua_type(L, 2) == LUA_TNUMBER)
    return ewise(L, LAK_MUL, "mul");
  return matmul(L, "mul", 0);
}

/* equal shapes and values (either type; float32 values compare as the
** doubles they are) */
static int m_eq(lua_State *L) {
  la_Mat *A = la_testany(L, 1), *B = la_testany(L, 2);
  int i, j, eq = A && B && A->rows == B->rows && A->cols == B->cols;
  for (j = 0; eq && A->rows > 0 && j < A->cols; j++)
    for (i = 0; i < A->rows; i++)
      if (la_get(A, i, j) != la_get(B, i, j)) { eq = 0; break; }
  lua_pushboolean(L, eq);
  return 1;
}

/* ---------------------------------------------------------------- vectors */

/* arg idx, a float32 vector (n x 1 or 1 x n): its entries f[0], f[*inc],
** ...; NULL for anything else, a closed matrix too (the float64 path
** reads or refuses it) */
static const float *f32vec(lua_State *L, int idx, int *n, int *inc) {
  la_Mat *A = la_testany(L, idx);
  if (!A || (A->flags & LA_CLOSED) || A->dtype != LA_F32 || !la_isvec(A)) return NULL;
  if (A->cols == 1) { *n = A->rows; *inc = 1; }
  else { *n = A->cols; *inc = A->ld; }
  return A->fdata;
}

/* dot(u, v): two float32 vectors accumulate in double (lak_sdotd: each
** product exact, the sum in double; NumPy's float32 dot accumulates in
** float32 and rounds the result to it) */
static int l_dot(lua_State *L) {
  const char *F = la_fname(L);
  la_Vec u, v;
  int nu = 0, nv = 0, iu = 1, iv = 1;
  const float *fu = f32vec(L, 1, &nu, &iu), *fv = f32vec(L, 2, &nv, &iv);
  if (fu && fv && nu == nv) {
    lua_pushnumber(L, lak_sdotd((size_t)nu, fu, iu, fv, iv));
    return 1;
  }
  la_vecpair(L, F, &u, &v);
  lua_pushnumber(L, cblas_ddot(u.n, u.p, u.inc, v.p, v.inc));
  return 1;
}

/* outer(u, v): u * v^T, a column times a row broadcast (lak_ewise);
** float32 for two float32 vectors (as NumPy's) */
static int l_outer(lua_State *L) {
  const char *F = la_fname(L);
  la_Vec u, v;
  la_Mat *C;
  int nu = 0, nv = 0, iu = 1, iv = 1;
  const float *fu = f32vec(L, 1, &nu, &iu), *fv = f32vec(L, 2, &nv, &iv);
  if (fu && fv) {
    lak_sArg a, b;
    a.p = fu; a.rs = iu; a.cs = 0;
    b.p = fv; b.rs = 0; b.cs = iv;
    C = la_newt(L, F, nu, nv, LA_F32);
    lak_sewise(LAK_MUL, nu, nv, a, b, C->fdata, C->ld);
  } else {
    lak_Arg a, b;
    u = la_getvec(L, 1, F); v = la_getvec(L, 2, F);
    a.p = u.p; a.rs = u.inc; a.cs = 0;
    b.p = v.p; b.rs = 0; b.cs = v.inc;
    C = la_new(L, F, u.n, v.n);
    lak_ewise(LAK_MUL, u.n, v.n, a, b, C->data, C->ld);
  }
  return 1;
}

/* the loop map runs over the arrays, when the Lua front gave one (LuaJIT:
** compat.maploop, which its JIT compiles with f inlined; a C loop leaves
** compiled code at each call of f): registry[&maploop_key] */
static const char maploop_key = 'P';

/* setmaploop(loop): map runs loop(f, a, b, m, n, lda, ldb, fname) from now
** on (a, b: the arrays as light userdata; nil: the C loop). Internal. */
static int l_setmaploop(lua_State *L) {
  if (!lua_isnil(L, 1)) la_checktype(L, la_fname(L), 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &maploop_key);
  return 0;
}

/* map(A, f): f(x, i, j) for every entry, column by column. The front's
** loop runs inside this call, so f cannot yield there either. */
static int l_map(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *B;
  int i, j;
  la_checktype(L, F, 2, LUA_TFUNCTION);
  B = la_new(L, F, A->rows, A->cols);
  if (A->rows == 0 || A->cols == 0) return 1;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &maploop_key) == LUA_TFUNCTION) {
    lua_pushvalue(L, 2);
    lua_pushlightuserdata(L, A->data);
    lua_pushlightuserdata(L, B->data);
    lua_pushinteger(L, A->rows);
    lua_pushinteger(L, A->cols);
    lua_pushinteger(L, A->ld);
    lua_pushinteger(L, B->ld);
    lua_pushstring(L, F);
    lua_call(L, 8, 0);
    return 1;
  }
  lua_pop(L, 1);
  for (j = 0; j < A->cols; j++)
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

/* Operators Lua has and a matrix does not: an error of linalg's that says
** what to call instead (Lua's own, "attempt to compare two userdata
** values", named neither). Lua makes a comparison's result a boolean (5.4
** converts whatever __lt returns), so A < B cannot be NumPy's mask. */
static int m_lt(lua_State *L) {
  return la_error(L, "lt", "A < B cannot give a matrix (a comparison's result is a boolean "
                  "in Lua): la.lt(A, B) is NumPy's A < B, la.gt(A, B) its A > B");
}
static int m_le(lua_State *L) {
  return la_error(L, "le", "A <= B cannot give a matrix (a comparison's result is a boolean "
                  "in Lua): la.le(A, B) is NumPy's A <= B, la.ge(A, B) its A >= B");
}
static int m_idiv(lua_State *L) {
  return la_error(L, "idiv", "A // B is not defined for matrices: la.floor(la.ediv(A, B)) is "
                  "NumPy's A // B");
}
static int m_nodef(lua_State *L) {
  return la_error(L, la_fname(L), "this operator is not defined for matrices");
}

static const la_Reg funcs[] = {
  {"emul", l_emul, 2}, {"ediv", l_ediv, 2}, {"pow", l_pow, 2}, {"matmul", l_matmul, 2 + LA_OPTS},
  {"dot", l_dot, 2}, {"outer", l_outer, 2}, {"map", l_map, 2},
  {"setmaploop", l_setmaploop, 1}, {NULL, NULL, 0}
};

static const la_Reg meta[] = {
  {"__add", m_add, LA_VARARG}, {"__sub", m_sub, LA_VARARG}, {"__mul", m_mul, LA_VARARG},
  {"__div", m_div, LA_VARARG}, {"__unm", m_unm, LA_VARARG}, {"__eq", m_eq, LA_VARARG},
  {"__lt", m_lt, LA_VARARG}, {"__le", m_le, LA_VARARG}, {"__idiv", m_idiv, LA_VARARG},
  {"__concat", m_nodef, LA_VARARG}, {"__band", m_nodef, LA_VARARG},
  {"__bor", m_nodef, LA_VARARG}, {"__bxor", m_nodef, LA_VARARG}, {"__shl", m_nodef, LA_VARARG},
  {"__shr", m_nodef, LA_VARARG}, {"__bnot", m_nodef, LA_VARARG}, {NULL, NULL, 0}
};

void la_open_arith(lua_State *L) {
  la_setfuncs(L, funcs, 0);
  la_setmeta(L, meta);
}
