/*
** host.c: a C application embedding Lua and linalg. It passes a matrix from
** its own buffer into Lua, runs a snippet, and reads the result back without
** going through Lua tables. `make test` builds and runs it; it exits non-zero
** if any result is wrong.
*/
#include <math.h>
#include <stdio.h>

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#include "linalg.h"

/* The snippet receives X and w and returns X * w and X' * X. */
static const char *snippet =
  "local X, w = ...\n"
  "local la = require 'linalg'\n"
  "return X * w, X.T * X\n";

static int fail(const char *what) {
  fprintf(stderr, "host: FAILED: %s\n", what);
  return 1;
}

/* Runs the snippet inside lua_pcall: every linalg call may raise. */
static int run(lua_State *L) {
  static const double X[6] = {1, 3, 5, 2, 4, 6};   /* 3x2, column-major */
  static const double w[2] = {2, -1};
  if (luaL_loadstring(L, snippet) != 0) return lua_error(L);
  linalg_pushmatrix(L, 3, 2, X, 3);
  linalg_pushmatrix(L, 2, 1, w, 2);
  lua_call(L, 2, 2);
  return 2;
}

int main(void) {
  lua_State *L = luaL_newstate();
  int rows, cols, ld, bad = 0;
  double *y, *G;
  static const double ywant[3] = {0, 2, 4}, Gwant[4] = {35, 44, 44, 56};
  luaL_openlibs(L);
  /* ordering rule of linalg.h: the module is loaded before its C API is
  ** used. package.preload lets require find the module linked into this
  ** program (the API used here is the same on Lua 5.1 to 5.4 and LuaJIT). */
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_linalg_core);
  lua_setfield(L, -2, "linalg.core");
  lua_pop(L, 2);
  if (luaL_dostring(L, "require 'linalg.core'") != 0) {
    fprintf(stderr, "host: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }
  lua_pushcfunction(L, run);
  if (lua_pcall(L, 0, 2, 0) != 0) {
    fprintf(stderr, "host: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }
  y = linalg_checkmatrix(L, -2, &rows, &cols, &ld);
  if (rows != 3 || cols != 1) bad |= fail("X * w shape");
  for (int i = 0; i < 3 && !bad; i++)
    if (y[i] != ywant[i]) bad |= fail("X * w values");
  G = linalg_checkmatrix(L, -1, &rows, &cols, &ld);
  if (rows != 2 || cols != 2) bad |= fail("X' * X shape");
  for (int j = 0; j < 2 && !bad; j++)
    for (int i = 0; i < 2; i++)
      if (fabs(G[i + j * ld] - Gwant[i + 2 * j]) > 1e-12) bad |= fail("X' * X values");
  if (linalg_testmatrix(L, -1, NULL, NULL, NULL) != G) bad |= fail("testmatrix");
  lua_pushinteger(L, 7);
  if (linalg_testmatrix(L, -1, NULL, NULL, NULL) != NULL) bad |= fail("testmatrix of a number");
  if (!bad) printf("host: X * w = [%g, %g, %g]; X'X = [%g %g; %g %g]: ok\n",
                   y[0], y[1], y[2], G[0], G[ld], G[1], G[1 + ld]);
  lua_close(L);
  return bad;
}
