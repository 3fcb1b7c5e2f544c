/*
** fuzz.c: libFuzzer harness. The input bytes are decoded into a short Lua
** program: matrices with fuzzed shapes and values (NaN, Inf, denormals,
** +-1e308 among them) in registers, then a sequence of linalg calls with
** fuzzed arguments and options, each under pcall. It runs on a fresh
** lua_State that is closed afterwards, with an allocator that refuses to
** go past MEMORY_BUDGET bytes, as a host running untrusted scripts would:
** a huge matrix is then a "not enough memory" error, which exercises those
** paths too. Any crash, sanitizer report or leak is a finding; Lua errors
** are expected.
*/
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

#include "linalg.h"

static const char *numbers[] = {
  "0", "1", "-1", "2", "0.5", "(0/0)", "(1/0)", "(-1/0)", "1e308", "-1e308",
  "4.9e-324", "1e-300", "3", "-2.5", "1e10", "7"
};
static const char *ints[] = {
  "0", "1", "2", "3", "-1", "1.5", "(0/0)", "2^31", "math.maxinteger", "5", "10", "4"
};
static const char *funcs[] = {
  "vector", "diag", "hstack", "vstack", "shape", "get", "set", "row", "col", "sub",
  "copy", "reshape", "totable", "t", "emul", "ediv", "sum", "mean", "min", "max",
  "dot", "norm", "outer", "trace", "cosine", "angle", "cosine_matrix", "allclose",
  "matmul", "qr", "svd", "eigh", "solve", "inv", "det", "pinv", "rank", "cond",
  "nnls", "lstsq", "gram_schmidt", "project", "projection_matrix",
  "scalar_projection", "span_check", "linear_regression", "softmax", "log_softmax",
  "attention", "multihead_attention", "check_finite", "asmatrix", "zeros", "eye"
};
static const char *ops[] = { "+", "-", "*", "/", "==" };
static const char *strs[] = { "\"svd\"", "\"qr\"", "\"qrp\"", "\"mgs\"", "\"cgs\"",
                              "\"cgs2\"", "\"complete\"", "\"reduced\"", "\"fro\"", "\"x\"" };

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NREG 8

typedef struct In { const uint8_t *p; size_t n; } In;
typedef struct Out { char *s; size_t len, cap; } Out;

static unsigned next(In *in) {
  if (in->n == 0) return 0;
  in->n--;
  return *in->p++;
}

static void put(Out *o, const char *fmt, ...) {
  va_list ap;
  int k;
  for (;;) {
    va_start(ap, fmt);
    k = vsnprintf(o->s + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (k >= 0 && (size_t)k < o->cap - o->len) { o->len += (size_t)k; return; }
    o->cap = o->cap * 2 + (size_t)k + 64;
    o->s = realloc(o->s, o->cap);
  }
}

/* a matrix literal of fuzzed shape and values */
static void literal(In *in, Out *o) {
  unsigned m = next(in) % 5, n = next(in) % 5, i, j;
  put(o, "la.matrix{");
  for (i = 0; i < m; i++) {
    put(o, "{");
    for (j = 0; j < n; j++) put(o, "%s,", numbers[next(in) % N(numbers)]);
    put(o, "},");
  }
  put(o, "}");
}

static void arg(In *in, Out *o) {
  unsigned k = next(in) % 10;
  if (k < 6) put(o, "R[%u]", next(in) % NREG + 1);
  else if (k == 6) put(o, "%s", ints[next(in) % N(ints)]);
  else if (k == 7) put(o, "%s", numbers[next(in) % N(numbers)]);
  else if (k == 8) put(o, "%s", strs[next(in) % N(strs)]);
  else {
    static const char *keys[] = { "method", "causal", "mask", "bias", "weights", "scale",
      "drop", "tol", "ridge", "rcond", "mode", "pivoting", "full", "complement",
      "convex", "check_finite", "kv", "intercept" };
    unsigned f = next(in) % 4, i;
    put(o, "{");
    for (i = 0; i < f; i++) {
      unsigned v = next(in) % 4;
      put(o, "%s=", keys[next(in) % N(keys)]);
      if (v == 0) put(o, "%s,", next(in) & 1 ? "true" : "false");
      else if (v == 1) put(o, "%s,", numbers[next(in) % N(numbers)]);
      else if (v == 2) put(o, "%s,", strs[next(in) % N(strs)]);
      else put(o, "R[%u],", next(in) % NREG + 1);
    }
    put(o, "}");
  }
}

/* Decodes the input into Lua source (NUL-terminated in o). */
static void decode(In *in, Out *o) {
  unsigned r, s;
  put(o, "local la = ...\nlocal R = {}\n");
  for (r = 1; r <= NREG && in->n; r++) {             /* registers */
    unsigned k = next(in) % 3;
    put(o, "pcall(function() R[%u] = ", r);
    if (k == 0) literal(in, o);
    else if (k == 1) put(o, "la.randn(%u, %u, %u)", next(in) % 12, next(in) % 12, next(in));
    else put(o, "la.rand(%u, %u, %u)", next(in) * 4 % 601, next(in) % 40, next(in));
    put(o, " end)\n");
  }
  for (s = 0; s < 40 && in->n; s++) {                /* calls */
    unsigned k = next(in) % 8, a, na;
    put(o, "pcall(function() R[%u] = ", next(in) % NREG + 1);
    if (k == 0) {
      put(o, "R[%u] %s ", next(in) % NREG + 1, ops[next(in) % N(ops)]);
      arg(in, o);
    } else if (k == 1) {
      put(o, "tostring(R[%u])", next(in) % NREG + 1);
    } else if (k == 2) {
      put(o, "R[%u](%s, %s)", next(in) % NREG + 1, ints[next(in) % N(ints)], ints[next(in) % N(ints)]);
    } else {
      put(o, "la.%s(", funcs[next(in) % N(funcs)]);
      na = next(in) % 5;
      for (a = 0; a < na; a++) { if (a) put(o, ", "); arg(in, o); }
      put(o, ")");
    }
    put(o, " end)\n");
  }
}

#define MEMORY_BUDGET ((size_t)16 << 20)   /* also bounds the cost of one LAPACK call */

static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  size_t *used = (size_t *)ud, old = ptr ? osize : 0;
  void *p;
  if (nsize == 0) { *used -= old; free(ptr); return NULL; }
  if (nsize > old && *used - old + nsize > MEMORY_BUDGET) return NULL;
  p = realloc(ptr, nsize);
  if (p) *used = *used - old + nsize;
  return p;
}

static char *front;          /* lua/linalg/init.lua, precompiled */
static size_t front_len;

static int writer(lua_State *L, const void *p, size_t sz, void *ud) {
  (void)L; (void)ud;
  front = realloc(front, front_len + sz);
  memcpy(front + front_len, p, sz);
  front_len += sz;
  return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  lua_State *L = luaL_newstate();
  const char *path = getenv("LINALG_FRONT");
  (void)argc; (void)argv;
  if (luaL_loadfile(L, path ? path : "lua/linalg/init.lua") != LUA_OK) {
    fprintf(stderr, "fuzz: %s\n", lua_tostring(L, -1));
    exit(1);
  }
  lua_dump(L, writer, NULL, 1);
  lua_close(L);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  In in = { data, size };
  Out o = { NULL, 0, 0 };
  size_t used = 0;
  lua_State *L = lua_newstate(budget_alloc, &used);
  luaL_openlibs(L);
  luaL_requiref(L, "linalg.core", luaopen_linalg_core, 0);
  lua_pop(L, 1);
  /* require "linalg" from the precompiled front; its helper modules from lua/ */
  (void)luaL_dostring(L, "package.path = 'lua/?.lua;lua/?/init.lua;' .. package.path");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  if (luaL_loadbuffer(L, front, front_len, "=linalg") != LUA_OK) abort();
  lua_setfield(L, -2, "linalg");
  lua_pop(L, 1);
  o.cap = 4096;
  o.s = malloc(o.cap);
  decode(&in, &o);
  if (getenv("LINALG_FUZZ_PRINT")) fprintf(stderr, "%.*s", (int)o.len, o.s);   /* triage */
  if (luaL_loadbuffer(L, o.s, o.len, "=fuzz") != LUA_OK) {
    fprintf(stderr, "fuzz: generated code does not compile: %s\n%s", lua_tostring(L, -1), o.s);
    abort();
  }
  lua_getglobal(L, "require");
  lua_pushliteral(L, "linalg");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {      /* setup, not a finding */
    fprintf(stderr, "fuzz: require 'linalg' failed: %s\n", lua_tostring(L, -1));
    abort();
  }
  (void)lua_pcall(L, 1, 0, 0);          /* Lua errors are expected */
  lua_close(L);
  free(o.s);
  return 0;
}
