/*
** capi.c: the C API of linalg.h as a host uses it, next to a host type of
** its own. The host's C functions are registered with luaL_setfuncs(L, fns,
** 1) and their own metatable as upvalue 1 (a common idiom); asked about the
** host's userdata, linalg_testmatrix must say "not a matrix" and
** linalg_checkmatrix must raise a clean error, whatever upvalue 1 holds.
** Errors of the C API carry no "[string]:1:" position. The float32 trio
** (pushmatrixf, testmatrixf, checkmatrixf) and linalg_dtype: each type's
** functions see that type only, and a check of the other type names both.
** Prints one line per check and "capi: N passed, M failed".
*/
#include <stdio.h>
#include <string.h>

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#include "compat.h"   /* the 5.4 API on every Lua (src/compat.h) */
#include "linalg.h"

typedef struct Foo { double *data; int rows, cols, ld, flags; } Foo;   /* looks like a matrix header */

static int passed, failed;

static void check(int ok, const char *what, const char *detail) {
  printf("capi: %s %s%s%s\n", ok ? "ok  " : "FAIL", what, detail ? ": " : "", detail ? detail : "");
  if (ok) passed++; else failed++;
}

/* foo.new(): a host userdata whose bytes look like a matrix header */
static int foo_new(lua_State *L) {
  Foo *f = (Foo *)lua_newuserdatauv(L, sizeof(Foo), 0);
  f->data = (double *)(unsigned long)0xdeadbeef000UL; f->rows = 1000000; f->cols = 1000000;
  f->ld = 1000000; f->flags = 0;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_setmetatable(L, -2);
  return 1;
}

/* foo.test(x): linalg_testmatrix from inside a host function */
static int foo_test(lua_State *L) {
  int rows = -1;
  double *p = linalg_testmatrix(L, 1, &rows, NULL, NULL);
  lua_pushboolean(L, p != NULL);
  lua_pushinteger(L, rows);
  return 2;
}

static int foo_check(lua_State *L) {
  linalg_checkmatrix(L, 1, NULL, NULL, NULL);
  return 0;
}

/* foo.align(A): A's data address modulo 64 (matrix.c puts data of 1 KiB
** and more on a cache line) */
static int foo_align(lua_State *L) {
  double *p = linalg_checkmatrix(L, 1, NULL, NULL, NULL);
  lua_pushinteger(L, (lua_Integer)((size_t)p % 64));
  return 1;
}

static int foo_push(lua_State *L) {
  double src[4] = {1, 2, 3, 4};
  linalg_pushmatrix(L, 2, 2, src, (int)luaL_checkinteger(L, 1));
  return 1;
}

/* float32: pushf(ld) pushes [[0.1, 3], [2, 4]] from a float buffer with
** leading dimension ld; testf(x) -> found, rows, cols, ld, element (2, 1)
** read through the pointer; checkf(x) -> the sum of the elements read
** through the pointer (so a view's ld is honoured); dtype(x) -> linalg_dtype */
static int foo_pushf(lua_State *L) {
  float src[8] = {0.1f, 2, -1, -1, 3, 4, -1, -1};   /* columns at 0 and ld */
  int ld = (int)luaL_checkinteger(L, 1);
  if (ld != 2 && ld != 4) return luaL_error(L, "pushf: ld 2 or 4");
  if (ld == 2) { src[2] = 3; src[3] = 4; }
  linalg_pushmatrixf(L, 2, 2, src, ld);
  return 1;
}

static int foo_testf(lua_State *L) {
  int rows = -1, cols = -1, ld = -1;
  float *p = linalg_testmatrixf(L, 1, &rows, &cols, &ld);
  lua_pushboolean(L, p != NULL);
  lua_pushinteger(L, rows); lua_pushinteger(L, cols); lua_pushinteger(L, ld);
  if (p && rows >= 2) lua_pushnumber(L, (lua_Number)p[1]); else lua_pushnil(L);
  return 5;
}

static int foo_checkf(lua_State *L) {
  int rows, cols, ld, i, j;
  float *p = linalg_checkmatrixf(L, 1, &rows, &cols, &ld);
  double s = 0;
  for (j = 0; j < cols; j++)
    for (i = 0; i < rows; i++) s += p[i + (size_t)j * ld];
  lua_pushnumber(L, s);
  return 1;
}

static int foo_dtype(lua_State *L) {
  const char *d = linalg_dtype(L, 1);
  if (d) lua_pushstring(L, d); else lua_pushnil(L);
  return 1;
}

static const luaL_Reg foo_funcs[] = {
  {"align", foo_align},
  {"new", foo_new}, {"test", foo_test}, {"check", foo_check}, {"push", foo_push},
  {"pushf", foo_pushf}, {"testf", foo_testf}, {"checkf", foo_checkf}, {"dtype", foo_dtype},
  {NULL, NULL}
};

static const char *run(lua_State *L, const char *code) {
  if (luaL_dostring(L, code) != LUA_OK) return lua_tostring(L, -1);
  return lua_tostring(L, -1);
}

int main(void) {
  lua_State *L = luaL_newstate();
  const char *r;
  luaL_openlibs(L);
  luaL_requiref(L, "linalg.core", luaopen_linalg_core, 0);
  lua_setglobal(L, "la");
  luaL_newmetatable(L, "host.foo");
  lua_newtable(L);
  lua_pushvalue(L, -2);
  luaL_setfuncs(L, foo_funcs, 1);           /* the host's metatable as upvalue 1 */
  lua_setglobal(L, "foo");
  lua_pop(L, 1);

  r = run(L, "local ok, rows = foo.test(foo.new()); return tostring(ok) .. ' ' .. rows");
  check(r && strcmp(r, "false -1") == 0, "testmatrix on the host's own userdata is not a matrix", r);
  r = run(L, "local ok, rows = foo.test(la.zeros(3, 2)); return tostring(ok) .. ' ' .. rows");
  check(r && strcmp(r, "true 3") == 0, "testmatrix on a matrix", r);
  r = run(L, "return select(2, pcall(foo.check, foo.new()))");
  check(r && strcmp(r, "linalg.checkmatrix: bad argument #1 (matrix expected, got host.foo)") == 0,
        "checkmatrix on the host's userdata", r);
  r = run(L, "return select(2, pcall(foo.push, 1))");
  check(r && strcmp(r, "linalg.pushmatrix: ld_src 1 < rows 2") == 0, "pushmatrix error has no position", r);
  r = run(L, "return string.format('%.1f', foo.push(2):totable()[2][2])");   /* "4" on 5.1 as tostring */
  check(r && strcmp(r, "4.0") == 0, "pushmatrix copies", r);

  /* float32 */
  r = run(L, "local A = foo.pushf(4); return A.dtype .. ' ' .. string.format('%.17g %g %g %g', "
             "A(1, 1), A(2, 1), A(1, 2), A(2, 2))");
  check(r && strcmp(r, "float32 0.10000000149011612 2 3 4") == 0, "pushmatrixf copies with ld_src", r);
  r = run(L, "return string.format('%.1f', foo.pushf(2):totable()[2][2])");
  check(r && strcmp(r, "4.0") == 0, "pushmatrixf with ld_src = rows", r);
  r = run(L, "local ok, m, n, ld, x = foo.testf(la.matrix({{1, 2, 3}, {0.5, 5, 6}}, {dtype = 'float32'})) "
             "return string.format('%s %d %d %d %g', tostring(ok), m, n, ld, x)");
  check(r && strcmp(r, "true 2 3 2 0.5") == 0, "testmatrixf on a float32 matrix", r);
  r = run(L, "local A = la.zeros(4, 3, {dtype = 'float32'}) A:set(3, 2, 7) "
             "local ok, m, n, ld, x = foo.testf(A:sub(2, 3, 2, 3)) "
             "return string.format('%s %d %d %d %g', tostring(ok), m, n, ld, x)");
  check(r && strcmp(r, "true 2 2 4 7") == 0, "testmatrixf on a float32 view (its ld)", r);
  r = run(L, "return tostring(foo.testf(la.zeros(2, 2))) .. ' ' .. tostring(foo.testf(foo.new())) .. ' ' .. "
             "tostring(foo.testf({{1}}))");
  check(r && strcmp(r, "false false false") == 0, "testmatrixf: a float64 matrix, the host's userdata and a table are not float32 matrices", r);
  r = run(L, "local ok = foo.test(la.zeros(2, 2, {dtype = 'float32'})) return tostring(ok)");
  check(r && strcmp(r, "false") == 0, "testmatrix (float64) on a float32 matrix", r);
  r = run(L, "local A = la.matrix({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, {dtype = 'float32'}) "
             "return string.format('%g %g', foo.checkf(A), foo.checkf(A:sub(2, 3, 2, 3)))");
  check(r && strcmp(r, "45 28") == 0, "checkmatrixf reads a float32 matrix and a view", r);
  r = run(L, "return select(2, pcall(foo.check, la.zeros(2, 2, {dtype = 'float32'})))");
  check(r && strcmp(r, "linalg.checkmatrix: bad argument #1 (float64 matrix expected, got a float32 matrix "
                       "(A:astype(\"float64\") converts it))") == 0,
        "checkmatrix (float64) refuses a float32 matrix, naming its type", r);
  r = run(L, "return select(2, pcall(foo.checkf, la.zeros(2, 2)))");
  check(r && strcmp(r, "linalg.checkmatrix: bad argument #1 (float32 matrix expected, got a float64 matrix "
                       "(A:astype(\"float32\") converts it))") == 0,
        "checkmatrixf refuses a float64 matrix, naming its type", r);
  r = run(L, "return select(2, pcall(foo.checkf, foo.new()))");
  check(r && strcmp(r, "linalg.checkmatrix: bad argument #1 (matrix expected, got host.foo)") == 0,
        "checkmatrixf on the host's userdata", r);
  r = run(L, "local A = la.ones(2, 2, {dtype = 'float32'}) debug.getmetatable(A).__close(A) "
             "return tostring(foo.testf(A)) .. ' ' .. select(2, pcall(foo.checkf, A))");
  check(r && strcmp(r, "false linalg.checkmatrix: bad argument #1 (matrix is closed)") == 0,
        "a closed float32 matrix: testmatrixf NULL, checkmatrixf an error", r);
  r = run(L, "return table.concat({foo.dtype(la.zeros(1, 1)), foo.dtype(la.zeros(1, 1, {dtype = 'float32'})), "
             "tostring(foo.dtype(foo.new())), tostring(foo.dtype(42))}, ' ')");
  check(r && strcmp(r, "float64 float32 nil nil") == 0, "linalg_dtype", r);
  /* bool: named by linalg_dtype, refused by both pointer functions */
  r = run(L, "local M = la.gt(la.ones(2, 2), 0) return foo.dtype(M) .. ' ' .. tostring(foo.test(M)) .. ' ' "
             ".. tostring(foo.testf(M)) .. ' ' .. select(2, pcall(foo.check, M))");
  check(r && strcmp(r, "bool false false linalg.checkmatrix: bad argument #1 (float64 matrix expected, "
                       "got a bool matrix (A:astype(\"float64\") converts it))") == 0,
        "a bool matrix: linalg_dtype names it, testmatrix NULL, checkmatrix an error", r);
  /* every size from 1 KiB of data to past the external threshold (128 KiB) */
  r = run(L, "local bad = {} for _, n in ipairs{128, 129, 200, 1000, 4096, 8191, 16384, 20000} do "
             "for k = 1, 3 do local A = la.zeros(n, 1) if foo.align(A) ~= 0 then bad[#bad + 1] = n end end end "
             "local t = {} for k = 1, 40 do t[k] = la.ones(64, 64) + 1 end "
             "for k = 1, 40 do if foo.align(t[k]) ~= 0 then bad[#bad + 1] = 'sum' end end "
             "return #bad == 0 and 'aligned' or table.concat(bad, ' ')");
  check(r && strcmp(r, "aligned") == 0, "data of 1 KiB and more starts on a 64-byte line", r);
  lua_close(L);
  printf("capi: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
