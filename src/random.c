/*
** random.c: la.random, NumPy's random streams bit for bit (the kernels are
** kernels/numpy_rng.c). la.random.seed / rand / randn share the legacy
** global stream (np.random.seed, np.random.rand, np.random.randn), a
** lak_NpMT userdata that is their upvalue 3. la.random.default_rng(seed)
** makes a Generator (np.random.default_rng): a userdata holding a lak_NpPCG
** (no pointers, so no __gc) whose metatable, upvalue 3 of its methods and
** of default_rng, says "linalg.Generator" to getmetatable. Matrices are
** filled in NumPy's order, row 1 first.
*/
#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "helpers.h"
#include "kernels/kernels.h"

#define GEN_NAME "linalg.Generator"

/* ------------------------------------------------------------ seeds */

/* The 32-bit words of the integer at idx (0 <= v < 2^63), low word first
** and one word for v < 2^32 (NumPy's split of an int); returns 1 or 2, or
** 0 when the value is no such integer. */
static int intwords(lua_State *L, int idx, uint32_t w[2]) {
  int ok = 0;
  lua_Integer v = lua_tointegerx(L, idx, &ok);
  if (!ok || v < 0 || lua_type(L, idx) != LUA_TNUMBER) return 0;
  w[0] = (uint32_t)((uint64_t)v & 0xffffffffu);
  w[1] = (uint32_t)((uint64_t)v >> 32);
  return w[1] ? 2 : 1;
}

/* The seed at arg as 32-bit words (Lua-owned scratch, pushed): an integer
** or a non-empty list of them. max32: each integer must fit 32 bits (the
** legacy seed); else NumPy's SeedSequence splits each into words. */
static uint32_t *seedwords(lua_State *L, const char *F, int arg, int max32, size_t *n) {
  uint32_t w[2], *out;
  size_t k, len, cnt = 0;
  const char *range = max32 ? "0..2^32-1" : "0..2^63-1";
  if (lua_type(L, arg) != LUA_TTABLE) {
    int nw = intwords(L, arg, w);
    if (nw == 0 || (max32 && nw > 1))
      la_argerror(L, F, arg, lua_pushfstring(L, "seed must be an integer in %s or a list "
                  "of them", range));
    out = LA_SCRATCH(L, uint32_t, 2);
    out[0] = w[0]; out[1] = w[1];
    *n = (size_t)nw;
    return out;
  }
  len = (size_t)lua_rawlen(L, arg);
  if (len == 0) la_argerror(L, F, arg, "seed list is empty");
  out = LA_SCRATCH(L, uint32_t, 2 * len);
  for (k = 1; k <= len; k++) {
    int nw;
    lua_rawgeti(L, arg, (int)k);
    nw = intwords(L, -1, w);
    lua_pop(L, 1);
    if (nw == 0 || (max32 && nw > 1))
      la_error(L, F, "seed entry %d must be an integer in %s", (int)k, range);
    out[cnt++] = w[0];
    if (nw == 2) out[cnt++] = w[1];
  }
  *n = cnt;
  return out;
}

/* words for a seedless call: the clock, an address and a counter */
static void clockwords(lua_State *L, uint32_t w[4]) {
  static uint32_t calls;
  uint64_t t = (uint64_t)time(NULL), a = (uint64_t)(uintptr_t)L;
  w[0] = (uint32_t)t; w[1] = (uint32_t)(t >> 32) ^ (uint32_t)clock();
  w[2] = (uint32_t)a ^ (uint32_t)(a >> 32); w[3] = ++calls;
}

/* ------------------------------------------------------------ filling */

/* Draws of kind into an m x n matrix (the arguments at first, first + 1:
** m, or m and n; then an options table with dtype), pushed; without a
** size, one draw as a number. Returns 1 (pushes 1). */
static int fillsized(lua_State *L, const char *F, int first, void *src, lak_NpKind kind) {
  int t = la_dtypeargs(L, first, LA_F64, F), m, n;
  la_Mat *A;
  if (lua_isnoneornil(L, first) && lua_isnoneornil(L, first + 1)) {
    double v;
    switch (kind) {
    case LAK_NP_MT_UNIFORM: v = lak_npmt_double(src); break;
    case LAK_NP_MT_GAUSS: v = lak_npmt_gauss(src); break;
    case LAK_NP_PCG_UNIFORM: v = lak_nppcg_double(src); break;
    default: v = lak_nppcg_normal(src); break;
    }
    lua_pushnumber(L, t == LA_F32 ? (double)(float)v : v);
    return 1;
  }
  m = la_checksize(L, F, first);
  n = lua_isnoneornil(L, first + 1) ? 1 : la_checksize(L, F, first + 1);
  A = la_newt(L, F, m, n, t);
  lak_np_fill(src, kind, m, n, t == LA_F32 ? NULL : A->data, t == LA_F32 ? A->fdata : NULL,
              A->ld, 0, 0);
  return 1;
}

/* ------------------------------------------------------------ the legacy stream */

static lak_NpMT *legacy(lua_State *L) {
  return (lak_NpMT *)lua_touserdata(L, LA_UPVALUE(1));
}

static int l_seed(lua_State *L) {
  const char *F = la_fname(L);
  lak_NpMT *s = legacy(L);
  size_t n;
  uint32_t *w, cw[4];
  if (lua_isnoneornil(L, 1)) {
    clockwords(L, cw);
    lak_npmt_seed_array(s, cw, 4);
    return 0;
  }
  w = seedwords(L, F, 1, 1, &n);
  if (lua_type(L, 1) == LUA_TTABLE) lak_npmt_seed_array(s, w, n);
  else lak_npmt_seed(s, w[0]);
  return 0;
}

static int l_rand(lua_State *L) {
  return fillsized(L, la_fname(L), 1, legacy(L), LAK_NP_MT_UNIFORM);
}

static int l_randn(lua_State *L) {
  return fillsized(L, la_fname(L), 1, legacy(L), LAK_NP_MT_GAUSS);
}

/* ------------------------------------------------------------ Generator */

/* The Generator at 1; the size check keeps a userdata given the
** Generator's metatable by debug.setmetatable from being read as one. */
static lak_NpPCG *checkgen(lua_State *L, const char *F) {
  lak_NpPCG *g = (lak_NpPCG *)lua_touserdata(L, 1);
  int ok = g && lua_type(L, 1) == LUA_TUSERDATA && lua_rawlen(L, 1) >= sizeof(lak_NpPCG) &&
           lua_getmetatable(L, 1);
  if (ok) {
    ok = lua_rawequal(L, -1, LA_UPVALUE(1));
    lua_pop(L, 1);
  }
  if (!ok) la_typeerror(L, F, 1, "Generator");
  return g;
}

static int l_default_rng(lua_State *L) {
  const char *F = la_fname(L);
  size_t n = 4;
  uint32_t cw[4], *w = cw;
  lak_NpPCG *g;
  if (lua_isnoneornil(L, 1)) clockwords(L, cw);
  else w = seedwords(L, F, 1, 0, &n);
  g = (lak_NpPCG *)lua_newuserdata(L, sizeof(lak_NpPCG));
  lak_nppcg_seed(g, w, n);
  lua_pushvalue(L, LA_UPVALUE(1));
  lua_setmetatable(L, -2);
  return 1;
}

static int m_random(lua_State *L) {
  const char *F = la_fname(L);
  return fillsized(L, F, 2, checkgen(L, F), LAK_NP_PCG_UNIFORM);
}

static int m_standard_normal(lua_State *L) {
  const char *F = la_fname(L);
  return fillsized(L, F, 2, checkgen(L, F), LAK_NP_PCG_NORMAL);
}

/* an integer argument within +-2^53 (so that every draw is an exact double) */
static lua_Integer checkbound(lua_State *L, const char *F, int arg) {
  const lua_Integer lim = (lua_Integer)1 << 53;
  lua_Integer v = la_checkint(L, F, arg);
  if (v < -lim || v > lim)
    la_argerror(L, F, arg, "bound must be within +-2^53 (results are float64)");
  return v;
}

/* g:integers's size argument at arg: m (m x 1) or {m} or {m, n} */
static void intsize(lua_State *L, const char *F, int arg, int *m, int *n) {
  int top = lua_gettop(L);
  if (lua_type(L, arg) != LUA_TTABLE) {
    *m = la_checksize(L, F, arg);
    *n = 1;
    return;
  }
  if (lua_rawlen(L, arg) < 1 || lua_rawlen(L, arg) > 2)
    la_argerror(L, F, arg, "size must be {m} or {m, n}");
  /* each entry checked in the argument's slot, so an error names the
  ** argument (it named the stack slot, #5 for g:integers(0, 3, {-1, 1})) */
  lua_rawgeti(L, arg, 1);
  lua_rawgeti(L, arg, 2);
  lua_pushvalue(L, arg);                 /* the table, kept while its slot is used */
  lua_pushvalue(L, top + 1);
  lua_replace(L, arg);
  *m = la_checksize(L, F, arg);
  if (!lua_isnil(L, top + 2)) {
    lua_pushvalue(L, top + 2);
    lua_replace(L, arg);
  }
  *n = lua_isnil(L, top + 2) ? 1 : la_checksize(L, F, arg);
  lua_replace(L, arg);                   /* the table back */
  lua_settop(L, top);
}

/* g:integers(lo [, hi] [, size]): [lo, hi) (hi absent: [0, lo)) */
static int m_integers(lua_State *L) {
  const char *F = la_fname(L);
  lak_NpPCG *g = checkgen(L, F);
  lua_Integer lo = checkbound(L, F, 2), hi;
  int sizearg = 4, m, n;
  la_Mat *A;
  if (lua_isnoneornil(L, 3) || lua_type(L, 3) == LUA_TTABLE) {
    hi = lo; lo = 0;
    sizearg = 3;
  } else hi = checkbound(L, F, 3);
  if (lo >= hi) {
    lua_pushinteger(L, lo);
    lua_pushinteger(L, hi);
    return la_error(L, F, "low (%s) must be less than high (%s)", lua_tostring(L, -2),
                    lua_tostring(L, -1));
  }
  if (lua_isnoneornil(L, sizearg)) {
    lua_pushnumber(L, (double)(lo + (lua_Integer)lak_nppcg_bounded(g, (uint64_t)(hi - 1 - lo))));
    return 1;
  }
  intsize(L, F, sizearg, &m, &n);
  A = la_new(L, F, m, n);
  lak_np_fill(g, LAK_NP_PCG_INTEGER, m, n, A->data, NULL, A->ld, (int64_t)lo,
              (uint64_t)(hi - 1 - lo));
  return 1;
}

static int m_tostring(lua_State *L) {
  lua_pushliteral(L, "Generator(PCG64)");
  return 1;
}

/* ------------------------------------------------------------ registration */

/* Registers funcs into the table at -(nup + 1) under their own names, each
** named prefix.name in messages and with the nup values on top as its own
** upvalues (LA_UPVALUE(1), ...); pops those values. */
static void setprefixed(lua_State *L, const la_Reg *funcs, const char *prefix, int nup) {
  int i;
  for (; funcs->name; funcs++) {
    for (i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    lua_pushfstring(L, "%s.%s", prefix, funcs->name);
    lua_insert(L, -nup - 1);
    la_pushfunc(L, funcs, lua_tostring(L, -nup - 1), nup);
    lua_remove(L, -2);                              /* the name */
    lua_setfield(L, -(nup + 2), funcs->name);
  }
  lua_pop(L, nup);
}

/* arguments: seed(s); rand(m [, n] [, opts]); default_rng(s); methods
** count self: g:random(m [, n] [, opts]), g:integers(lo [, hi] [, size]) */
static const la_Reg legacy_funcs[] = {
  {"seed", l_seed, 1}, {"rand", l_rand, 2 + LA_OPTS}, {"randn", l_randn, 2 + LA_OPTS},
  {NULL, NULL, 0}
};

static const la_Reg gen_funcs[] = {{"default_rng", l_default_rng, 1}, {NULL, NULL, 0}};

static const la_Reg gen_methods[] = {
  {"random", m_random, 3 + LA_OPTS}, {"standard_normal", m_standard_normal, 3 + LA_OPTS},
  {"integers", m_integers, 4}, {NULL, NULL, 0}
};

/* g.k = v: a Generator has no fields to set (Lua's own error named
** neither linalg nor the type) */
static int m_newindex(lua_State *L) { return la_nofields(L, "Generator", "a Generator", "g"); }

/* the Generator metatable, pushed (pushes 1) */
static void genmeta(lua_State *L) {
  lua_newtable(L);
  lua_pushliteral(L, GEN_NAME);
  lua_setfield(L, -2, "__name");
  lua_pushliteral(L, GEN_NAME);
  lua_setfield(L, -2, "__metatable");
  lua_pushcfunction(L, m_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, m_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_newtable(L);                                  /* mt methods */
  lua_pushvalue(L, -2);
  setprefixed(L, gen_methods, "Generator", 1);
  lua_setfield(L, -2, "__index");
}

/* la.random into the module table at -1 */
void la_open_random(lua_State *L) {
  lak_NpMT *s;
  uint32_t cw[4];
  lua_newtable(L);                                  /* mod random */
  s = (lak_NpMT *)lua_newuserdata(L, sizeof(lak_NpMT));
  clockwords(L, cw);
  lak_npmt_seed_array(s, cw, 4);
  setprefixed(L, legacy_funcs, "random", 1);
  genmeta(L);
  setprefixed(L, gen_funcs, "random", 1);
  lua_setfield(L, -2, "random");
}
