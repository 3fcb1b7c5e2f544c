/*
** config.c: la.threads(n) sets OpenBLAS's thread count; la.config(), what this process runs on (the BLAS library, the
** kernel core OpenBLAS chose, its thread count) and how the module was
** built (compiler, the SIMD versions of attention's exp compiled in and the
** one this CPU uses).
*/
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"
#include "kernels/openblas.h"

/* The versions of lak_expsum (kernels/attention.c) compiled in: its target_clones
** attribute is applied under exactly this condition. */
#if LAK_GNU_X86
#define LA_CLONES 1
static const char *const simd_paths[] = {"avx512f", "avx2", "default", NULL};
#else
#define LA_CLONES 0
static const char *const simd_paths[] = {"default", NULL};
#endif

/* the clone the loader picks on this CPU (the first supported, in order) */
static const char *simd_active(void) {
#if LA_CLONES
  if (lak_cpu_has(LAK_CPU_AVX512F)) return "avx512f";
  if (lak_cpu_has(LAK_CPU_AVX2)) return "avx2";
#endif
  return "default";
}

static const char *compiler(void) {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown";
#endif
}

/* pushes the version: the word after "OpenBLAS" in the config string */
static void push_blas_version(lua_State *L, const char *cfg) {
  const char *p = strstr(cfg, "OpenBLAS ");
  size_t n;
  if (p == NULL) { lua_pushnil(L); return; }
  p += strlen("OpenBLAS ");
  n = strcspn(p, " ");
  lua_pushlstring(L, p, n);
}

/* the running Lua (pushes 1): LuaJIT's jit.version, else _VERSION, else
** the Lua the module was compiled for */
static void pushlua(lua_State *L) {
  int top = lua_gettop(L);
  if (lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED") == LUA_TTABLE &&
      lua_getfield(L, -1, "jit") == LUA_TTABLE && lua_getfield(L, -1, "version") == LUA_TSTRING) {
    lua_replace(L, top + 1);
  } else {
    lua_settop(L, top);
    if (lua_getglobal(L, "_VERSION") != LUA_TSTRING) {
      lua_pop(L, 1);
      lua_pushliteral(L, LA_LUA_BUILT);
    }
  }
  lua_settop(L, top + 1);
}

static void setstr(lua_State *L, const char *key, const char *v) {
  lua_pushstring(L, v ? v : "unknown");
  lua_setfield(L, -2, key);
}

/* pushes "\n  label: value" for field key of the table at 1 (its string
** form), or nothing when it is nil; returns how many it pushed */
static int line(lua_State *L, const char *label, const char *key) {
  lua_getfield(L, 1, key);
  if (lua_isnil(L, -1)) { lua_pop(L, 1); return 0; }
  lua_pushfstring(L, "\n  %s: %s", label, lua_isstring(L, -1) ? lua_tostring(L, -1)
                                                              : luaL_typename(L, -1));
  lua_remove(L, -2);
  return 1;
}

/* __tostring of config()'s table: a readable summary, one fact a line */
static int m_config_tostring(lua_State *L) {
  int i, n = 1;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_getfield(L, 1, "simd");
  lua_pushliteral(L, "");
  for (i = 1; lua_istable(L, 2); i++) {          /* the SIMD paths as one string at 3 */
    lua_rawgeti(L, 2, i);
    if (!lua_isstring(L, -1)) { lua_pop(L, 1); break; }
    lua_pushfstring(L, "%s %s", lua_tostring(L, 3), lua_tostring(L, -1));
    lua_replace(L, 3);
    lua_pop(L, 1);
  }
  lua_getfield(L, 1, "version");
  lua_pushfstring(L, "linalg %s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
  lua_remove(L, -2);
  n += line(L, "Lua", "lua");
  n += line(L, "BLAS", "blas");
  n += line(L, "core", "core");
  n += line(L, "threads", "threads");
  n += line(L, "compiler", "compiler");
  lua_pushfstring(L, "\n  SIMD compiled:%s", lua_tostring(L, 3));
  n++;
  n += line(L, "SIMD in use", "simd_active");
  n += line(L, "attention kernel", "attention");
  lua_concat(L, n);
  return 1;
}

/* {bytes, cached, min}: storage outside the Lua heap (helpers.h), which
** collectgarbage("count") does not see: bytes of live matrices and
** workspaces, bytes waiting for reuse, and the size from which storage is
** there */
static void pushstorage(lua_State *L) {
  size_t live, cached;
  la_extstats(L, &live, &cached);
  lua_createtable(L, 0, 3);
  lua_pushnumber(L, (lua_Number)live);
  lua_setfield(L, -2, "bytes");
  lua_pushnumber(L, (lua_Number)cached);
  lua_setfield(L, -2, "cached");
  lua_pushinteger(L, (lua_Integer)la_extfloor());
  lua_setfield(L, -2, "min");
}

/* config() -> {blas, blas_name, blas_version, core, threads, compiler,
** simd = {paths compiled}, simd_active, attention, version, lua, storage}:
** pushes 1 */
static int l_config(lua_State *L) {
  const char *cfg = openblas_get_config();
  int i;
  lua_createtable(L, 0, 10);
  setstr(L, "blas", cfg ? cfg : "unknown");
  setstr(L, "blas_name", "OpenBLAS");
  push_blas_version(L, cfg ? cfg : "");
  lua_setfield(L, -2, "blas_version");
  setstr(L, "core", openblas_get_corename());
  lua_pushinteger(L, la_threads(0));
  lua_setfield(L, -2, "threads");
  setstr(L, "compiler", compiler());
  lua_newtable(L);
  for (i = 0; simd_paths[i] != NULL; i++) {
    lua_pushstring(L, simd_paths[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "simd");
  setstr(L, "simd_active", simd_active());
  /* the fused kernel of attention without mask or bias (kernels/attention.c) */
  setstr(L, "attention", lak_simd_exp2(NULL, 0) ? "avx512f" : "gemm");
  setstr(L, "version", LINALG_VERSION);
  pushlua(L);
  lua_setfield(L, -2, "lua");
  pushstorage(L);
  lua_setfield(L, -2, "storage");
  if (luaL_newmetatable(L, "linalg.config")) {
    lua_pushcfunction(L, m_config_tostring);
    lua_setfield(L, -2, "__tostring");
  }
  lua_setmetatable(L, -2);
  return 1;
}

/* threads([n]) -> OpenBLAS's thread count, after setting it to n */
static int l_threads(lua_State *L) {
  const char *F = la_fname(L);
  if (!lua_isnoneornil(L, 1)) {
    lua_Integer n = la_checkint(L, F, 1);
    if (n < 1 || n > 1024)
      la_argerror(L, F, 1, "thread count must be in 1..1024");
    la_threads((int)n);
  }
  lua_pushinteger(L, la_threads(0));
  return 1;
}

static const la_Reg funcs[] = {
  {"config", l_config, 0}, {"threads", l_threads, 1}, {NULL, NULL, 0}
};

void la_open_config(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
