/*
** attnopts.c: the options the attention functions read alike (helper
** layer): the causal alignment, and a mask or bias that may broadcast (a
** boolean mask may be a Lua table of booleans), read once per call and
** fitted to each item's shapes.
*/
#include <math.h>

#include "helpers.h"

/* A boolean mask given as a table of rows of booleans (true = attend), or a
** flat table (a column), as la.matrix reads numbers: read raw, converted
** to 1/0 into a new matrix (pushes 1). */
static la_Mat *boolmask(lua_State *L, int idx, const char *F) {
  lua_Integer m = (lua_Integer)lua_rawlen(L, idx), n = 1, i, j;
  int rows = lua_rawgeti(L, idx, 1) == LUA_TTABLE;
  la_Mat *M;
  if (rows) n = (lua_Integer)lua_rawlen(L, -1);
  lua_pop(L, 1);
  M = la_new(L, F, m, n);
  for (i = 1; i <= m; i++) {
    int t = lua_rawgeti(L, idx, i);
    if (rows && t != LUA_TTABLE)
      la_error(L, F, "mask row %I is not a table (got %s)", i, luaL_typename(L, -1));
    if (rows && (lua_Integer)lua_rawlen(L, -1) != n)
      la_error(L, F, "mask row %I has %I entries, expected %I", i,
               (lua_Integer)lua_rawlen(L, -1), n);
    for (j = 1; j <= n; j++) {
      if (rows) lua_rawgeti(L, -1, j);
      else lua_pushvalue(L, -1);
      if (lua_type(L, -1) != LUA_TBOOLEAN)
        la_error(L, F, "mask(%I,%I) is a %s in a boolean mask (use true or false)",
                 i, j, luaL_typename(L, -1));
      LA_AT(M, i - 1, j - 1) = lua_toboolean(L, -1) ? 1.0 : 0.0;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  return M;
}

/* A table whose first entry (or first row's first entry) is a boolean
** (pushes nothing). */
static int isboolmask(lua_State *L, int idx) {
  int t;
  if (!lua_istable(L, idx) || la_test(L, idx)) return 0;
  t = lua_rawgeti(L, idx, 1);
  if (t == LUA_TTABLE) t = lua_rawgeti(L, -1, 1), lua_remove(L, -2);
  lua_pop(L, 1);
  return t == LUA_TBOOLEAN;
}

/* A NaN mask entry is neither "masked" nor "kept": an error. */
static void checkmask(lua_State *L, const la_Mat *M, const char *F) {
  int i, j;
  if (LA_EMPTY(M)) return;          /* 0 x 2^31-1: no column to visit */
  for (j = 0; j < M->cols; j++)
    for (i = 0; i < M->rows; i++)
      if (isnan(la_get(M, i, j)))
        la_error(L, F, "mask(%d,%d) is NaN (use 0 to mask, nonzero to keep)", i + 1, j + 1);
}

la_Mat *la_attnmat(lua_State *L, int oi, const char *key, int slot, int dtype) {
  const char *F = la_fname(L);
  int mask = key[0] == 'm';
  la_Mat *M;
  if (oi == 0) return NULL;
  lua_getfield(L, oi, key);
  lua_replace(L, slot);
  if (lua_isnil(L, slot)) return NULL;
  if (!la_testoptmat(L, slot, F, key) && !lua_istable(L, slot))
    la_error(L, F, "option '%s' must be a matrix, got %s", key, la_typename(L, slot));
  if (mask && isboolmask(L, slot)) {
    boolmask(L, slot, F);
    lua_replace(L, slot);
  }
  M = la_checkt(L, slot, F, dtype);
  if (mask) checkmask(L, M, F);
  return M;
}

void la_attnfit(lua_State *L, const la_Mat *M, const char *key, int nq, int nk, ptrdiff_t *rs,
                ptrdiff_t *cs, int item) {
  if (M->rows == nq && M->cols == nk) { *rs = 1; *cs = M->ld; }
  else if (M->rows == 1 && M->cols == nk) { *rs = 0; *cs = M->ld; }
  else if (M->rows == nq && M->cols == 1) { *rs = 1; *cs = 0; }
  else
    la_error(L, la_fname(L), "%s is %dx%d, expected %dx%d (nq x nk), 1x%d or %dx1%s", key,
             M->rows, M->cols, nq, nk, nk, nq,
             item > 0 ? lua_pushfstring(L, " (item %d)", item) : "");
}

int la_attncausal(lua_State *L, int oi) {
  static const char *const aligns[] = {"upper_left", "lower_right", NULL};
  int t = oi ? lua_getfield(L, oi, "causal") : LUA_TNIL;
  if (t != LUA_TNIL && t != LUA_TBOOLEAN && t != LUA_TSTRING)
    la_error(L, la_fname(L), "option 'causal' must be true, false, \"upper_left\" or "
             "\"lower_right\", got %s", la_typename(L, -1));
  if (oi) lua_pop(L, 1);
  if (t == LUA_TNIL || t == LUA_TBOOLEAN) return la_optbool(L, oi, "causal", 0, la_fname(L));
  return 1 + la_optenum(L, oi, "causal", 0, aligns, la_fname(L));
}
