/*
** front.c: what the Lua front (the Lua modules) needs from C and users do
** not see: the option reader for Lua option specs, asmatrix and
** check_finite under the caller's name, named() to call a core function
** under another public name, nargs() to bound a Lua function's argument
** count as the core's are. Also is_matrix.
*/
#include <math.h>
#include <string.h>

#include "helpers.h"

/* The type a Lua option spec names: "boolean", "number", "integer",
** "string", "table", "matrix", "function", "any", or a list of strings. */
static int spectype(lua_State *L, int v, int spec, const char *fname, const char *key) {
  const char *want;
  if (lua_type(L, spec) == LUA_TTABLE) {
    lua_Integer i, n = (lua_Integer)lua_rawlen(L, spec);
    for (i = 1; i <= n && lua_type(L, v) == LUA_TSTRING; i++) {
      int same;
      lua_rawgeti(L, spec, i);
      same = lua_rawequal(L, -1, v);
      lua_pop(L, 1);
      if (same) return 1;
    }
    return 0;
  }
  want = lua_tostring(L, spec);
  if (want == NULL) return la_error(L, fname, "option '%s' has a bad spec", key);
  if (strcmp(want, "any") == 0) return 1;
  if (strcmp(want, "integer") == 0) {      /* an integral float counts, if a Lua integer holds it */
    lua_Integer i;
    lua_Number x = lua_tonumber(L, v);
    return lua_isinteger(L, v) || (lua_type(L, v) == LUA_TNUMBER && x == floor(x) &&
                                   lua_numbertointeger(x, &i));
  }
  if (strcmp(want, "matrix") == 0) return la_testoptmat(L, v, fname, key) != NULL || lua_istable(L, v);
  if (strcmp(want, "table") == 0) return lua_istable(L, v);
  return strcmp(luaL_typename(L, v), want) == 0;
}

/* A wrong value for key (value at v, spec at spec): names both. */
static int specerror(lua_State *L, int v, int spec, const char *fname, const char *key) {
  luaL_Buffer B;
  /* made before the buffer opens (la_typename may push __name) */
  const char *got = lua_type(L, v) == LUA_TSTRING && lua_type(L, spec) == LUA_TTABLE
                    ? lua_pushfstring(L, ", got \"%s\"", lua_tostring(L, v))
                    : lua_pushfstring(L, ", got %s", la_typename(L, v));
  luaL_buffinit(L, &B);
  lua_pushfstring(L, "linalg.%s: option '%s' must be ", fname, key);
  luaL_addvalue(&B);
  if (lua_type(L, spec) == LUA_TTABLE) {
    lua_Integer i, n = (lua_Integer)lua_rawlen(L, spec);
    for (i = 1; i <= n; i++) {
      if (i > 1) luaL_addstring(&B, i == n ? " or " : ", ");
      lua_rawgeti(L, spec, i);
      lua_pushfstring(L, "\"%s\"", lua_tostring(L, -1));
      lua_remove(L, -2);
      luaL_addvalue(&B);
    }
  } else {
    const char *w = lua_tostring(L, spec);
    if (strcmp(w, "boolean") == 0) luaL_addstring(&B, "true or false");
    else lua_pushfstring(L, "a%s %s", strchr("aeiou", w[0]) ? "n" : "", w), luaL_addvalue(&B);
  }
  luaL_addstring(&B, got);
  luaL_pushresult(&B);
  return lua_error(L);
}

/* checkopts(opts, fname, arg, spec) -> a plain table of the options spec
** names, each read once (through __index too) and type-checked; an
** unknown key in opts is an error naming the closest known one. The Lua
** front reads its options through this, so C and Lua share one rule. */
static int l_checkopts(lua_State *L) {
  const char *fname = luaL_checkstring(L, 2);
  int arg = (int)luaL_optinteger(L, 3, 1);
  luaL_checktype(L, 4, LUA_TTABLE);
  lua_settop(L, 4);
  lua_newtable(L);                                          /* 5: result */
  if (lua_isnil(L, 1)) return 1;
  if (!lua_istable(L, 1))
    return la_error(L, fname, "bad argument #%d (options table expected, got %s)",
                    arg, la_typename(L, 1));
  lua_pushnil(L);
  while (lua_next(L, 1)) {                                  /* unknown keys */
    const char *best = NULL;
    int bd = 99;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      lua_pushvalue(L, -1);
      if (lua_rawget(L, 4) != LUA_TNIL) { lua_pop(L, 1); continue; }
      lua_pop(L, 1);
      lua_pushnil(L);
      while (lua_next(L, 4)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING) la_closest(lua_tostring(L, -2), lua_tostring(L, -1), &best, &bd);
      }
      /* best points into a key of spec, which stays referenced at 4 */
    }
    la_unknownkey(L, fname, best);
  }
  lua_pushnil(L);
  while (lua_next(L, 4)) {                                  /* 6: key, 7: spec */
    const char *key = lua_type(L, 6) == LUA_TSTRING ? lua_tostring(L, 6) : NULL;
    if (key == NULL) return la_error(L, fname, "option spec has a %s key", luaL_typename(L, 6));
    if (lua_getfield(L, 1, key) != LUA_TNIL) {              /* 8: value */
      if (!spectype(L, 8, 7, fname, key)) specerror(L, 8, 7, fname, key);
      lua_pushvalue(L, 6); lua_insert(L, -2);
      lua_rawset(L, 5);
    } else lua_pop(L, 1);
    lua_pop(L, 1);
  }
  lua_settop(L, 5);
  return 1;
}

/* asmatrix(x [, fname [, arg]]): x itself if a matrix, a table converted
** (NumPy's asarray); errors name function fname and argument number arg. */
static int l_asmatrix(lua_State *L) {
  const char *fname = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "asmatrix";
  lua_Integer arg = lua_isinteger(L, 3) ? lua_tointeger(L, 3) : 1;
  lua_settop(L, 3);                        /* fname stays alive at 2 */
  la_checkargany(L, 1, fname, arg >= 1 && arg <= 255 ? (int)arg : 1);
  lua_settop(L, 1);
  return 1;
}

/* check_finite(A [, fname [, what [, required]]]): A (a table converted), or
** an error naming the first NaN/Inf entry (NumPy's asarray_chkfinite);
** required: the check is one check_finite = false cannot skip. */
static int l_check_finite(lua_State *L) {
  const char *fname = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "check_finite";
  const char *what = lua_type(L, 3) == LUA_TSTRING ? lua_tostring(L, 3) : "A";
  int required = lua_toboolean(L, 4);
  la_Mat *A;
  lua_settop(L, 3);
  A = la_checkargany(L, 1, fname, 1);
  la_checkfinite(L, A, fname, what, required);
  lua_settop(L, 1);
  return 1;
}

static int l_is_matrix(lua_State *L) {
  lua_pushboolean(L, la_testmat(L, 1) != NULL);
  return 1;
}

/* named(f, name) -> f as a closure whose errors name `name`: the Lua front
** calls a core function under the name of the function the user called
** (f's upvalues are copied, its name, upvalue 2, replaced). */
static int l_named(lua_State *L) {
  lua_CFunction f = lua_tocfunction(L, 1);
  int n = 0;
  luaL_checkstring(L, 2);
  lua_settop(L, 2);
  if (f == NULL || lua_getupvalue(L, 1, 2) == NULL || lua_type(L, -1) != LUA_TSTRING)
    return la_typeerror(L, "named", 1, "function of linalg.core");
  lua_pop(L, 1);
  while (lua_getupvalue(L, 1, n + 1) != NULL) n++;   /* upvalue k at 2 + k */
  lua_pushvalue(L, 2);
  lua_replace(L, 4);
  lua_pushcclosure(L, f, n);
  return 1;
}

/* The float64 matrix at idx, or each float64 matrix among the fields of
** the table at idx (one level deep: span_check's info, linear_regression's
** model, multihead_attention's list of weights), replaced by a float32
** copy. Fields are read and written raw; float32 matrices stay as they are
** (a result f already computed in float32). */
static void tofloat32(lua_State *L, int idx) {
  la_Mat *A = la_test(L, idx);
  if (A) { la_convert(L, A, LA_F32, la_fname(L)); lua_replace(L, idx); return; }
  if (lua_type(L, idx) != LUA_TTABLE) return;
  luaL_checkstack(L, 4, NULL);
  lua_pushnil(L);
  while (lua_next(L, idx)) {                    /* key value */
    if ((A = la_test(L, -1)) != NULL) {
      la_convert(L, A, LA_F32, la_fname(L));    /* key value copy */
      lua_pushvalue(L, -3);
      lua_insert(L, -2);                        /* key value key copy */
      lua_rawset(L, idx);                       /* an existing field: lua_next goes on */
    }
    lua_pop(L, 1);
  }
}

/* The closure f32wrap makes over f (upvalue 3), for functions written for
** float64: a float32 argument reaches f as a float64 copy (la_check
** converts it), and when every matrix argument was float32, f's matrix
** results, and those in a table it returns, come back float32 (NumPy's
** rule; Lua numbers do not promote). */
static int l_float32call(lua_State *L) {
  int n = lua_gettop(L), i, any32 = 0, any64 = 0, nres;
  for (i = 1; i <= n; i++) {
    la_Mat *A = la_testmat(L, i);
    if (A && A->dtype == LA_BOOL) la_testany(L, i);   /* a float64 copy; bool does not vote */
    else if (A) { if (A->dtype == LA_F32) any32 = 1; else any64 = 1; }
  }
  lua_pushvalue(L, lua_upvalueindex(3));
  lua_insert(L, 1);
  lua_call(L, n, LUA_MULTRET);
  nres = lua_gettop(L);
  if (!any32 || any64) return nres;
  for (i = 1; i <= nres; i++) tofloat32(L, i);
  return nres;
}

/* f32wrap(f, name) -> f with float32 arguments and results as above */
static int l_f32wrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  luaL_getmetatable(L, LINALG_MATRIX);
  lua_pushstring(L, luaL_checkstring(L, 2));
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, l_float32call, 3);
  return 1;
}

/* argtype(...) -> "float32" or "float64": la_argtype over the arguments,
** so the Lua front applies the C core's type rule, not a copy of it */
static int l_argtype(lua_State *L) {
  lua_pushstring(L, la_dtypes[la_argtype(L, 1, lua_gettop(L))]);
  return 1;
}

/* The closure nargs makes: the argument count checked (own upvalues 2 and
** 3: the count and whether an options table may follow), then f (own
** upvalue 1) called with the arguments. */
static int l_nargscall(lua_State *L) {
  la_checknargs(L, la_fname(L), (int)lua_tointeger(L, LA_UPVALUE(2)),
                lua_toboolean(L, LA_UPVALUE(3)));
  lua_pushvalue(L, LA_UPVALUE(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* nargs(f, name, n [, opts]) -> f taking at most n arguments (then an
** options table when opts is true), as the C core's functions do: the Lua
** front's functions check their count through the same code */
static int l_nargs(lua_State *L) {
  static const la_Reg call = {"nargs", l_nargscall, LA_VARARG};
  const char *name;
  lua_Integer n;
  int opts = lua_toboolean(L, 4);
  luaL_checktype(L, 1, LUA_TFUNCTION);
  name = luaL_checkstring(L, 2);
  n = luaL_checkinteger(L, 3);
  luaL_argcheck(L, n >= 0 && n < 200, 3, "count out of range");
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 3);
  lua_pushboolean(L, opts);
  la_pushfunc(L, &call, name, 3);
  return 1;
}

static const la_Reg funcs[] = {
  {"is_matrix", l_is_matrix, 1}, {"asmatrix", l_asmatrix, 3},
  {"check_finite", l_check_finite, 4}, {"checkopts", l_checkopts, 4},
  {"named", l_named, 2}, {"f32wrap", l_f32wrap, 2}, {"argtype", l_argtype, LA_VARARG},
  {"nargs", l_nargs, 4}, {NULL, NULL, 0}
};

void la_open_front(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
