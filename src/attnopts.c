/*
** attnopts.c: the options the attention functions read alike (helper
** layer): the causal alignment, and a mask or bias that may broadcast (a
** boolean mask may be a Lua table of booleans), read once per call and
** fitted to each item's shapes; a batch's lists.
*/
#include <limits.h>
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

/* " (item i)" after a message about item i > 0 of a batch (pushed until
** the error), "" for one call */
static const char *itemof(lua_State *L, int item) {
  return item > 0 ? lua_pushfstring(L, " (item %d)", item) : "";
}

void la_attnqkv(lua_State *L, const la_Mat *Q, const la_Mat *K, const la_Mat *V, int heads,
                int item) {
  static const char *const names[] = {"Q", "K", "V"};
  const char *F = la_fname(L);
  const la_Mat *m[3];
  int j;
  m[0] = Q; m[1] = K; m[2] = V;
  for (j = 0; j < 3; j++)
    if (m[j]->cols % heads != 0)
      la_error(L, F, "%s is %dx%d: %d columns do not split into %d heads%s", names[j],
               m[j]->rows, m[j]->cols, m[j]->cols, heads, itemof(L, item));
  if (K->cols != Q->cols)
    la_error(L, F, "Q is %dx%d but K is %dx%d (dk %d ~= %d)%s", Q->rows, Q->cols, K->rows,
             K->cols, Q->cols, K->cols, itemof(L, item));
  if (V->rows != K->rows)
    la_error(L, F, "K has %d rows but V has %d (one value per key)%s", K->rows, V->rows,
             itemof(L, item));
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
             M->rows, M->cols, nq, nk, nk, nq, itemof(L, item));
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

int la_attnbatch(lua_State *L, int k, const char *const names[], int keep, int *dtype) {
  const char *F = la_fname(L);
  int n = (int)lua_rawlen(L, 1), i, j;
  *dtype = LA_F64;
  for (j = 2; j <= k; j++) {
    if (!lua_istable(L, j) || la_testany(L, j))
      la_error(L, F, "%s is a list of matrices (a batch) but %s is not a list (got %s)",
               names[0], names[j - 1], la_typename(L, j));
    if ((int)lua_rawlen(L, j) != n)
      la_error(L, F, "%s has %d items but %s has %d (the lists of a batch have one length)",
               names[0], n, names[j - 1], (int)lua_rawlen(L, j));
  }
  for (i = 1; i <= n; i++)
    for (j = 1; j <= k; j++) {
      la_Mat *M;
      lua_rawgeti(L, j, i);
      M = la_testany(L, -1);
      if (!M) la_error(L, F, "%s[%d] is not a matrix (got %s)", names[j - 1], i,
                       la_typename(L, -1));
      if (M->flags & LA_CLOSED) la_error(L, F, "%s[%d] is a closed matrix", names[j - 1], i);
      if (i == 1 && j == 1) *dtype = M->dtype;
      if (M->dtype != *dtype)
        la_error(L, F, "%s[%d] is %s but %s[1] is %s (a batch has one type)", names[j - 1], i,
                 M->dtype == LA_F32 ? "float32" : "float64", names[0],
                 *dtype == LA_F32 ? "float32" : "float64");
      lua_rawseti(L, keep, k * (i - 1) + j);
    }
  return n;
}

void la_attnopts(lua_State *L, int oi, int dtype, int mslot, int bslot, la_AttnOpts *o) {
  static const char *const keys[] = {"scale", "causal", "weights", "mask", "bias", "lse",
                                     "heads", "bias_grad", NULL};
  const char *F = la_fname(L);
  lua_Integer h;
  la_checkopts(L, oi, F, keys);
  o->hasscale = oi && lua_getfield(L, oi, "scale") != LUA_TNIL;
  if (oi) lua_pop(L, 1);
  o->scale = la_optnum(L, oi, "scale", 1.0, F);
  o->causal = la_attncausal(L, oi);
  o->weights = la_optbool(L, oi, "weights", 0, F);
  o->lse = la_optbool(L, oi, "lse", 0, F);
  o->bias_grad = la_optbool(L, oi, "bias_grad", 0, F);
  h = la_optint(L, oi, "heads", 1, F);
  if (h < 1 || h > INT_MAX)
    la_error(L, F, "option 'heads' must be a positive integer, got %I", h);
  o->heads = (int)h;
  o->mask = la_attnmat(L, oi, "mask", mslot, dtype);
  o->bias = la_attnmat(L, oi, "bias", bslot, dtype);
}
