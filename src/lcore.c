/*
** lcore.c: the matrix userdata: checks and errors shared by all bindings,
** construction, element access, views, printing, and the public C API.
*/
#define _DEFAULT_SOURCE   /* madvise */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "lbind.h"
#include "kernels/kernels.h"

/* The metatable is also stored under this address in the registry: a
** pointer key is cheaper to look up than the name on every allocation. */
static const char mt_key = 'M';

/* header rounded up so owned data is 16-byte aligned */
#define LA_HDR ((sizeof(la_Mat) + 15) & ~(size_t)15)

/* ---------------------------------------------------------------- errors */

int la_error(lua_State *L, const char *fname, const char *fmt, ...) {
  va_list ap;
  lua_pushfstring(L, "linalg.%s: ", fname);
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  return lua_error(L);
}

int la_argerror(lua_State *L, const char *fname, int arg, const char *msg) {
  return la_error(L, fname, "bad argument #%d (%s)", arg, msg);
}

/* the type name for messages: a metatable's __name if it has one */
const char *la_typename(lua_State *L, int idx) {
  const char *got = luaL_typename(L, idx);
  if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) return lua_tostring(L, -1);
  return got;
}

int la_typeerror(lua_State *L, const char *fname, int arg, const char *what) {
  return la_argerror(L, fname, arg, lua_pushfstring(L, "%s expected, got %s", what,
                                                    la_typename(L, arg)));
}

/* An integer argument; floats with an integral value are accepted. */
lua_Integer la_checkint(lua_State *L, const char *fname, int arg) {
  int ok;
  lua_Integer v = lua_tointegerx(L, arg, &ok);
  if (!ok) {
    if (lua_type(L, arg) == LUA_TNUMBER)
      la_argerror(L, fname, arg, lua_pushfstring(L,
                  "integer expected, got %s", lua_tostring(L, arg)));
    la_typeerror(L, fname, arg, "integer");
  }
  return v;
}

int la_checksize(lua_State *L, const char *fname, int arg) {
  lua_Integer v = la_checkint(L, fname, arg);
  if (v < 0 || v > INT_MAX)
    la_argerror(L, fname, arg, lua_pushfstring(L,
                "size must be in 0..%d, got %I", INT_MAX, v));
  return (int)v;
}

/* ---------------------------------------------------------------- matrices */

static void checkdims(lua_State *L, const char *fname, lua_Integer m,
                      lua_Integer n) {
  if (m < 0 || n < 0 || m > INT_MAX || n > INT_MAX)
    la_error(L, fname, "invalid size %Ix%I", m, n);
  /* 32-bit BLAS/LAPACK integers index at most INT_MAX elements */
  if (m > 0 && n > INT_MAX / m)
    la_error(L, fname, "size %Ix%I exceeds %d elements (32-bit BLAS indexing)",
             m, n, INT_MAX);
}

/* Large matrices ask for transparent huge pages (as NumPy does from 4 MiB):
** fewer page faults when a fresh result is first written. Only a hint, on
** the 2 MiB-aligned interior of memory this matrix owns. */
static void hugepages(void *p, size_t len) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t)1 << 21;
  uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
  uintptr_t e = ((uintptr_t)p + len) & ~(huge - 1);
  if (len >= ((size_t)4 << 20) && e > a) madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
  (void)p; (void)len;
#endif
}

/* Allocations from this size on go through a protected call, so that
** running out of memory is an error naming the function and the size
** (below it the cost of the call would show on tiny operations). */
#define LA_BIGALLOC ((size_t)1 << 16)

static int newud(lua_State *L) {
  lua_newuserdatauv(L, *(const size_t *)lua_touserdata(L, 1), (int)lua_tointeger(L, 2));
  return 1;
}

/* The name of the running C function as the caller spelt it (as
** luaL_argerror finds it), for helpers that are not told. */
static const char *callername(lua_State *L) {
  lua_Debug ar;
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name) return ar.name;
  return "?";
}

/* A full userdata of sz bytes with nuv user values; out of memory is an
** error of fname's that says what was asked (what: a description). */
static void *alloc_ud(lua_State *L, const char *fname, size_t sz, int nuv,
                      const char *what) {
  if (sz < LA_BIGALLOC) return lua_newuserdatauv(L, sz, nuv);
  lua_pushcfunction(L, newud);
  lua_pushlightuserdata(L, &sz);
  lua_pushinteger(L, nuv);
  switch (lua_pcall(L, 2, 1, 0)) {
    case LUA_OK: return lua_touserdata(L, -1);
    case LUA_ERRMEM: {
      char num[32];
      snprintf(num, sizeof num, "%.1f", (double)sz / (sz >= ((size_t)1 << 30) ? 1073741824.0 : 1048576.0));
      la_error(L, fname, "not enough memory for %s (%s %s)", what, num,
               sz >= ((size_t)1 << 30) ? "GiB" : "MiB");
    }
    /* FALLTHROUGH */
    default: lua_error(L);
  }
  return NULL;
}

/* Pushes a new m x n matrix with uninitialised contents. mt is where the
** matrix metatable is: a stack index, or 0 for the registry (the C API,
** which runs inside the host's functions). */
la_Mat *la_newat(lua_State *L, const char *fname, lua_Integer m, lua_Integer n, int mt) {
  la_Mat *A;
  size_t sz;
  if (mt) mt = lua_absindex(L, mt);
  checkdims(L, fname, m, n);
  sz = LA_HDR + (size_t)(m * n) * sizeof(double);
  /* no user value: only views need one, and the GC skips a userdata without */
  if (sz < LA_BIGALLOC) A = (la_Mat *)lua_newuserdatauv(L, sz, 0);
  else {
    lua_pushfstring(L, "a %Ix%I matrix", m, n);
    A = (la_Mat *)alloc_ud(L, fname, sz, 0, lua_tostring(L, -1));
    lua_remove(L, -2);
  }
  A->data = (double *)(void *)((char *)A + LA_HDR);   /* owned data follows the header */
  hugepages(A->data, (size_t)(m * n) * sizeof(double));
  A->rows = (int)m; A->cols = (int)n; A->ld = m > 0 ? (int)m : 1;
  A->flags = 0;
  if (mt) {
    lua_pushvalue(L, mt);
    if (lua_type(L, -1) != LUA_TTABLE) { lua_pop(L, 1); mt = 0; }
  }
  if (!mt) lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
  lua_setmetatable(L, -2);
  return A;
}

/* Every function of the module is a closure with the metatable as upvalue
** 1 (la_setfuncs), which is much cheaper to reach than the registry. */
la_Mat *la_new(lua_State *L, const char *fname, lua_Integer m, lua_Integer n) {
  return la_newat(L, fname, m, n, lua_upvalueindex(1));
}

la_Mat *la_newzero(lua_State *L, const char *fname, lua_Integer m, lua_Integer n) {
  la_Mat *A = la_new(L, fname, m, n);
  memset(A->data, 0, (size_t)(m * n) * sizeof(double));
  return A;
}

la_Mat *la_copyof(lua_State *L, const la_Mat *A) {
  la_Mat *B = la_new(L, "copy", A->rows, A->cols);
  lak_copy(A->rows, A->cols, A->data, A->ld, B->data, B->ld);
  return B;
}

void *la_scratch(lua_State *L, size_t ndoubles) {
  if (ndoubles > ((size_t)-1) / sizeof(double) - 1)
    la_error(L, callername(L), "not enough memory for %f doubles of workspace", (double)ndoubles);
  if (ndoubles * sizeof(double) < LA_BIGALLOC)          /* the name costs a lookup */
    return lua_newuserdatauv(L, (ndoubles ? ndoubles : 1) * sizeof(double), 0);
  return alloc_ud(L, callername(L), ndoubles * sizeof(double), 0, "workspace");
}

/* The module's closures carry the metatable as upvalue 1, which makes the
** common check one comparison; from elsewhere (the C API) the registry
** decides. */
la_Mat *la_test(lua_State *L, int idx) {
  void *p = lua_touserdata(L, idx);
  int same;
  /* the size check keeps a foreign userdata that was given our metatable
  ** (debug.setmetatable) from being read as a matrix header */
  if (p == NULL || lua_rawlen(L, idx) < sizeof(la_Mat) || !lua_getmetatable(L, idx))
    return NULL;
  same = lua_rawequal(L, -1, lua_upvalueindex(1));
  if (!same) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
    same = lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return same ? (la_Mat *)p : NULL;
}

void la_setfuncs(lua_State *L, const luaL_Reg *funcs) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
  luaL_setfuncs(L, funcs, 1);
}

void la_setmeta(lua_State *L, const luaL_Reg *meta) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
  lua_pushvalue(L, -1);
  luaL_setfuncs(L, meta, 1);
  lua_pop(L, 1);
}

/* Tables are read raw (no __index / __len): data, not proxies, and the
** conversion cannot run arbitrary code. */
static lua_Integer tlen(lua_State *L, int idx) {
  return (lua_Integer)lua_rawlen(L, idx);
}

static double tnumber(lua_State *L, const char *fname, lua_Integer i,
                      lua_Integer j) {
  int isnum;
  double x = lua_tonumberx(L, -1, &isnum);
  if (isnum && lua_type(L, -1) == LUA_TNUMBER) return x;
  la_error(L, fname, "entry (%I,%I) is not a number (got %s)", i, j,
             luaL_typename(L, -1));
  return x;
}

/* Converts the table at idx: a table of rows, or a flat table (a column
** vector). Pushes the new matrix. */
static la_Mat *fromtable(lua_State *L, int idx, const char *fname) {
  lua_Integer m = tlen(L, idx), n = 1, i, j;
  int rowsmode;
  la_Mat *A;
  rowsmode = lua_rawgeti(L, idx, 1) == LUA_TTABLE;
  if (rowsmode) n = tlen(L, -1);
  lua_pop(L, 1);
  A = la_new(L, fname, m, rowsmode ? n : 1);
  for (i = 1; i <= m; i++) {
    int t = lua_rawgeti(L, idx, i);
    if (!rowsmode) {
      A->data[i - 1] = tnumber(L, fname, i, 1);
    } else {
      double *p = A->data + (i - 1);
      if (t != LUA_TTABLE)
        la_error(L, fname, "row %I is not a table (got %s)", i, luaL_typename(L, -1));
      if (tlen(L, -1) != n)
        la_error(L, fname, "row %I has %I entries, expected %I (ragged rows)",
                 i, tlen(L, -1), n);
      for (j = 1; j <= n; j++, p += A->ld) {
        lua_rawgeti(L, -1, j);
        *p = tnumber(L, fname, i, j);
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
  }
  return A;
}

/* A matrix argument at stack index idx, reported as argument argno; a Lua
** table is converted and replaces the argument, which keeps it anchored. */
la_Mat *la_checkarg(lua_State *L, int idx, const char *fname, int argno) {
  la_Mat *A = la_test(L, idx);
  if (A) {
    if (A->flags & LA_CLOSED)
      la_error(L, fname, "bad argument #%d (matrix is closed)", argno);
    return A;
  }
  if (lua_istable(L, idx)) {
    idx = lua_absindex(L, idx);
    A = fromtable(L, idx, fname);
    lua_replace(L, idx);
    return A;
  }
  la_error(L, fname, "bad argument #%d (matrix expected, got %s)", argno,
           la_typename(L, idx));
  return NULL;
}

la_Mat *la_check(lua_State *L, int idx, const char *fname) {
  return la_checkarg(L, idx, fname, idx);
}

int la_isvec(const la_Mat *A) { return A->cols == 1 || A->rows == 1; }

/* A vector argument (n x 1 or 1 x n): its data, length and stride. */
double *la_vec(lua_State *L, int idx, const char *fname, int *n, int *inc) {
  la_Mat *A = la_check(L, idx, fname);
  if (!la_isvec(A))
    la_argerror(L, fname, idx, lua_pushfstring(L,
                "vector expected, got a %dx%d matrix", A->rows, A->cols));
  if (A->cols == 1) { *n = A->rows; *inc = 1; }
  else { *n = A->cols; *inc = A->ld; }
  return A->data;
}

/* First NaN/Inf of A, as an error naming it; hint says what to do about it. */
static void scanfinite(lua_State *L, const la_Mat *A, const char *fname,
                       const char *what, const char *hint) {
  int i, j;
  if (LA_EMPTY(A)) return;
  for (j = 0; j < A->cols; j++)
    if (!lak_allfinite(A->rows, A->data + (ptrdiff_t)j * A->ld))
      for (i = 0; i < A->rows; i++)      /* find it for the message */
        if (!isfinite(LA_AT(A, i, j)))
          la_error(L, fname, "%s(%d,%d) is %s (%s)", what, i + 1, j + 1,
                   isnan(LA_AT(A, i, j)) ? "NaN" : "Inf", hint);
}

void la_checkfinite(lua_State *L, const la_Mat *A, const char *fname,
                    const char *what) {
  scanfinite(L, A, fname, what, "pass check_finite = false to skip this check");
}

/* For operands LAPACK iterates on (SVD, eigenvalues, NNLS): on NaN/Inf its
** iterations can run for minutes or stop with garbage, so check_finite =
** false does not apply to them. The scan is one pass over A. */
void la_needfinite(lua_State *L, const la_Mat *A, const char *fname,
                   const char *what) {
  scanfinite(L, A, fname, what, "finite input required even with check_finite = false");
}

/* ---------------------------------------------------------------- options */

void la_checktype(lua_State *L, const char *fname, int arg, int t) {
  if (lua_type(L, arg) != t) la_typeerror(L, fname, arg, lua_typename(L, t));
}

double la_optnumber(lua_State *L, const char *fname, int arg, double def) {
  if (lua_isnoneornil(L, arg)) return def;
  if (lua_type(L, arg) != LUA_TNUMBER) la_typeerror(L, fname, arg, "number");
  return lua_tonumber(L, arg);
}

/* Options live in a table at idx; idx 0 means there is none. A value is
** read with lua_getfield (an __index may supply it), checked while it is on
** the stack and popped; no pointer into it outlives the read. */
static int getopt(lua_State *L, int idx, const char *key, const char *fname) {
  if (idx == 0 || lua_isnoneornil(L, idx)) { lua_pushnil(L); return LUA_TNIL; }
  if (!lua_istable(L, idx) || la_test(L, idx)) la_typeerror(L, fname, idx, "options table");
  return lua_getfield(L, idx, key);
}

static int opterror(lua_State *L, const char *fname, const char *key,
                    const char *want) {
  return la_error(L, fname, "option '%s' must be %s, got %s", key, want,
                  la_typename(L, -1));
}

int la_optbool(lua_State *L, int idx, const char *key, int def,
               const char *fname) {
  int t = getopt(L, idx, key, fname), v = def;
  if (t == LUA_TBOOLEAN) v = lua_toboolean(L, -1);
  else if (t != LUA_TNIL) opterror(L, fname, key, "true or false");
  lua_pop(L, 1);
  return v;
}

double la_optnum(lua_State *L, int idx, const char *key, double def,
                 const char *fname) {
  int t = getopt(L, idx, key, fname);
  double v = def;
  if (t == LUA_TNUMBER) v = lua_tonumber(L, -1);
  else if (t != LUA_TNIL) opterror(L, fname, key, "a number");
  lua_pop(L, 1);
  return v;
}

lua_Integer la_optint(lua_State *L, int idx, const char *key, lua_Integer def,
                      const char *fname) {
  int t = getopt(L, idx, key, fname), ok = 1;
  lua_Integer v = def;
  if (t == LUA_TNUMBER) v = lua_tointegerx(L, -1, &ok);
  if (!ok || (t != LUA_TNUMBER && t != LUA_TNIL)) opterror(L, fname, key, "an integer");
  lua_pop(L, 1);
  return v;
}

/* Appends the choices as "a", "b" or "c" to the buffer. */
static void addchoices(luaL_Buffer *B, const char *const choices[]) {
  int i;
  for (i = 0; choices[i]; i++) {
    if (i > 0) luaL_addstring(B, choices[i + 1] ? ", " : " or ");
    luaL_addchar(B, '"'); luaL_addstring(B, choices[i]); luaL_addchar(B, '"');
  }
}

/* A string option that must be one of choices (NULL-terminated), returned
** as its index, as luaL_checkoption does; def is the index when absent. */
int la_optenum(lua_State *L, int idx, const char *key, int def,
               const char *const choices[], const char *fname) {
  int t = getopt(L, idx, key, fname), i;
  luaL_Buffer B;
  if (t == LUA_TNIL) { lua_pop(L, 1); return def; }
  if (t == LUA_TSTRING) {
    const char *s = lua_tostring(L, -1);
    for (i = 0; choices[i]; i++)
      if (strcmp(s, choices[i]) == 0) { lua_pop(L, 1); return i; }
  }
  luaL_buffinit(L, &B);
  lua_pushfstring(L, "linalg.%s: option '%s' must be ", fname, key);
  luaL_addvalue(&B);
  addchoices(&B, choices);
  if (t == LUA_TSTRING) lua_pushfstring(L, ", got \"%s\"", lua_tostring(L, -2));
  else lua_pushfstring(L, ", got %s", la_typename(L, -2));
  luaL_addvalue(&B);
  luaL_pushresult(&B);
  return lua_error(L);
}

/* Optimal string alignment distance (edits and swaps of neighbours),
** capped: keys are short, anything longer is no match. */
static int editdist(const char *a, const char *b) {
  int d[33][33], i, j, n = (int)strlen(a), m = (int)strlen(b);
  if (n > 32 || m > 32) return 99;
  for (i = 0; i <= n; i++) d[i][0] = i;
  for (j = 0; j <= m; j++) d[0][j] = j;
  for (i = 1; i <= n; i++)
    for (j = 1; j <= m; j++) {
      int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < c)
        c = d[i - 2][j - 2] + 1;
      d[i][j] = c;
    }
  return d[n][m];
}

/* Keeps cand in *best when it is closer to key than what *best holds. */
static void closer(const char *key, const char *cand, const char **best, int *bd) {
  int d = editdist(key, cand);
  if (d < *bd && d <= 2 && d < (int)strlen(key)) { *bd = d; *best = cand; }
}

/* "unknown option 'casual' (did you mean 'causal'?)"; the key is at -1. */
static int unknownkey(lua_State *L, const char *fname, const char *best) {
  if (lua_type(L, -1) != LUA_TSTRING)
    return la_error(L, fname, "options are named: got a %s key", luaL_typename(L, -1));
  if (best)
    return la_error(L, fname, "unknown option '%s' (did you mean '%s'?)",
                    lua_tostring(L, -1), best);
  return la_error(L, fname, "unknown option '%s'", lua_tostring(L, -1));
}

/* Every key of the options table at idx (read raw: keys an __index would
** supply cannot be listed) must be one of keys (NULL-terminated). */
void la_checkopts(lua_State *L, int idx, const char *fname,
                  const char *const keys[]) {
  if (idx == 0 || lua_isnoneornil(L, idx)) return;
  if (!lua_istable(L, idx) || la_test(L, idx)) la_typeerror(L, fname, idx, "options table");
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const char *best = NULL;
    int i, bd = 99, known = 0;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING)
      for (i = 0; keys[i] && !known; i++) known = strcmp(lua_tostring(L, -1), keys[i]) == 0;
    if (known) continue;
    for (i = 0; keys[i] && lua_type(L, -1) == LUA_TSTRING; i++)   /* only for the message */
      closer(lua_tostring(L, -1), keys[i], &best, &bd);
    unknownkey(L, fname, best);
  }
}

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
  if (strcmp(want, "matrix") == 0) return la_test(L, v) != NULL || lua_istable(L, v);
  if (strcmp(want, "table") == 0) return lua_istable(L, v) && !la_test(L, v);
  return strcmp(luaL_typename(L, v), want) == 0;
}

/* A wrong value for key (value at v, spec at spec): names both. */
static int specerror(lua_State *L, int v, int spec, const char *fname, const char *key) {
  luaL_Buffer B;
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
  if (lua_type(L, v) == LUA_TSTRING && lua_type(L, spec) == LUA_TTABLE)
    lua_pushfstring(L, ", got \"%s\"", lua_tostring(L, v));
  else lua_pushfstring(L, ", got %s", la_typename(L, v));
  luaL_addvalue(&B);
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
  if (!lua_istable(L, 1) || la_test(L, 1))
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
        if (lua_type(L, -1) == LUA_TSTRING) closer(lua_tostring(L, -2), lua_tostring(L, -1), &best, &bd);
      }
      /* best points into a key of spec, which stays referenced at 4 */
    }
    unknownkey(L, fname, best);
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

/* ---------------------------------------------------------------- construction */

/* la.matrix(tbl) or la.matrix(m, n [, fill]) */
static int l_matrix(lua_State *L) {
  if (lua_istable(L, 1)) { fromtable(L, 1, "matrix"); return 1; }
  if (la_test(L, 1)) { la_copyof(L, la_check(L, 1, "matrix")); return 1; }
  if (lua_type(L, 1) != LUA_TNUMBER)
    la_typeerror(L, "matrix", 1, "table, matrix or size");
  {
    int m = la_checksize(L, "matrix", 1), n = la_checksize(L, "matrix", 2);
    double fill = la_optnumber(L, "matrix", 3, 0.0);
    la_Mat *A = la_new(L, "matrix", m, n);
    size_t k, N = (size_t)m * n;
    for (k = 0; k < N; k++) A->data[k] = fill;
  }
  return 1;
}

static void fill(lua_State *L, const char *fname, double v) {
  int m = la_checksize(L, fname, 1), n = la_checksize(L, fname, 2);
  la_Mat *A = la_new(L, fname, m, n);
  size_t k, N = (size_t)m * n;
  for (k = 0; k < N; k++) A->data[k] = v;
}

static int l_zeros(lua_State *L) { fill(L, "zeros", 0.0); return 1; }
static int l_ones(lua_State *L) { fill(L, "ones", 1.0); return 1; }

static int l_eye(lua_State *L) {
  int n = la_checksize(L, "eye", 1), i;
  int m = lua_isnoneornil(L, 2) ? n : la_checksize(L, "eye", 2);
  la_Mat *A = la_newzero(L, "eye", n, m);
  for (i = 0; i < n && i < m; i++) LA_AT(A, i, i) = 1.0;
  return 1;
}

/* diag(vector) builds a square matrix; diag(matrix) extracts the diagonal. */
static int l_diag(lua_State *L) {
  la_Mat *V = la_check(L, 1, "diag");
  int i;
  if (la_isvec(V)) {
    int n, inc;
    double *v = la_vec(L, 1, "diag", &n, &inc);
    la_Mat *A = la_newzero(L, "diag", n, n);
    for (i = 0; i < n; i++) LA_AT(A, i, i) = v[(ptrdiff_t)i * inc];
  } else {
    int k = V->rows < V->cols ? V->rows : V->cols;
    la_Mat *d = la_new(L, "diag", k, 1);
    for (i = 0; i < k; i++) d->data[i] = LA_AT(V, i, i);
  }
  return 1;
}

static int l_vector(lua_State *L) {
  int n, inc, i;
  double *v = la_vec(L, 1, "vector", &n, &inc);
  la_Mat *A = la_new(L, "vector", n, 1);
  for (i = 0; i < n; i++) A->data[i] = v[(ptrdiff_t)i * inc];
  return 1;
}

static int fillrandom(lua_State *L, const char *fname, int normal) {
  int m = la_checksize(L, fname, 1), n = la_checksize(L, fname, 2);
  lak_Rng local, *r;
  la_Mat *A;
  size_t k, N = (size_t)m * n;
  if (lua_isnoneornil(L, 3)) r = (lak_Rng *)lua_touserdata(L, lua_upvalueindex(2));
  else { lak_rng_seed(&local, (uint64_t)la_checkint(L, fname, 3)); r = &local; }
  A = la_new(L, fname, m, n);
  for (k = 0; k < N; k++)
    A->data[k] = normal ? lak_rng_normal(r) : lak_rng_uniform(r);
  return 1;
}

static int l_randn(lua_State *L) { return fillrandom(L, "randn", 1); }
static int l_rand(lua_State *L) { return fillrandom(L, "rand", 0); }

/* hstack / vstack: items are converted on the stack above the list. */
static int stack(lua_State *L, const char *fname, int horiz) {
  lua_Integer k, cnt, m = 0, n = 0, off = 0;
  int base;
  la_Mat *C;
  la_checktype(L, fname, 1, LUA_TTABLE);
  cnt = (lua_Integer)lua_rawlen(L, 1);
  /* every item is anchored on the stack while the result is built */
  if (cnt > INT_MAX - 8 || !lua_checkstack(L, (int)cnt + 4))
    la_error(L, fname, "too many items (%I)", cnt);
  base = lua_gettop(L);
  for (k = 1; k <= cnt; k++) {
    la_Mat *A;
    lua_rawgeti(L, 1, k);
    A = la_test(L, -1);
    if (!A && !lua_istable(L, -1))
      la_error(L, fname, "item %I is not a matrix (got %s)", k, la_typename(L, -1));
    if (A && (A->flags & LA_CLOSED)) la_error(L, fname, "item %I is a closed matrix", k);
    if (!A) A = la_checkarg(L, lua_gettop(L), fname, 1);
    if (k == 1) { m = horiz ? A->rows : 0; n = horiz ? 0 : A->cols; }
    if (horiz && A->rows != m)
      la_error(L, fname, "item %I has %d rows, expected %I", k, A->rows, m);
    if (!horiz && A->cols != n)
      la_error(L, fname, "item %I has %d columns, expected %I", k, A->cols, n);
    if (horiz) n += A->cols; else m += A->rows;
    if (m > INT_MAX || n > INT_MAX) la_error(L, fname, "result too large");
  }
  C = la_new(L, fname, m, n);
  for (k = 1; k <= cnt; k++) {
    la_Mat *A = la_test(L, base + (int)k);
    double *dst = horiz ? C->data + off * C->ld : C->data + off;
    lak_copy(A->rows, A->cols, A->data, A->ld, dst, C->ld);
    off += horiz ? A->cols : A->rows;
  }
  return 1;
}

static int l_hstack(lua_State *L) { return stack(L, "hstack", 1); }
static int l_vstack(lua_State *L) { return stack(L, "vstack", 0); }

/* asmatrix(x [, fname [, arg]]): x itself if a matrix, a table converted
** (NumPy's asarray); errors name function fname and argument number arg. */
static int l_asmatrix(lua_State *L) {
  const char *fname = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "asmatrix";
  lua_Integer arg = lua_isinteger(L, 3) ? lua_tointeger(L, 3) : 1;
  lua_settop(L, 3);                        /* fname stays alive at 2 */
  la_checkarg(L, 1, fname, arg >= 1 && arg <= 255 ? (int)arg : 1);
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
  A = la_checkarg(L, 1, fname, 1);
  if (required) la_needfinite(L, A, fname, what);
  else la_checkfinite(L, A, fname, what);
  lua_settop(L, 1);
  return 1;
}

static int l_is_matrix(lua_State *L) {
  lua_pushboolean(L, la_test(L, 1) != NULL);
  return 1;
}

/* ---------------------------------------------------------------- access */

static int l_shape(lua_State *L) {
  la_Mat *A = la_check(L, 1, "shape");
  lua_pushinteger(L, A->rows); lua_pushinteger(L, A->cols);
  return 2;
}
static int l_rows(lua_State *L) { lua_pushinteger(L, la_check(L, 1, "rows")->rows); return 1; }
static int l_cols(lua_State *L) { lua_pushinteger(L, la_check(L, 1, "cols")->cols); return 1; }
static int l_numel(lua_State *L) {
  la_Mat *A = la_check(L, 1, "numel");
  lua_pushinteger(L, (lua_Integer)A->rows * A->cols);
  return 1;
}

/* A 1-based index argument in 1..lim, returned 0-based. */
static int checkindex(lua_State *L, const char *fname, int arg, lua_Integer lim,
                      const char *what) {
  lua_Integer i = la_checkint(L, fname, arg);
  if (i < 1 || i > lim)
    la_error(L, fname, "%s index %I out of range 1..%I", what, i, lim);
  return (int)(i - 1);
}

/* Element address for (A, i, j) at args 2, 3; one index is the linear,
** column-major index (so v(i) works for both vector orientations). */
static double *element(lua_State *L, la_Mat *A, const char *fname, int linear) {
  int i, j;
  if (linear) {
    lua_Integer k = checkindex(L, fname, 2, (lua_Integer)A->rows * A->cols,
                               "linear");
    if (A->rows == 1) { i = 0; j = (int)k; }
    else { i = (int)(k % A->rows); j = (int)(k / A->rows); }
  } else {
    i = checkindex(L, fname, 2, A->rows, "row");
    j = checkindex(L, fname, 3, A->cols, "column");
  }
  return &LA_AT(A, i, j);
}

static int l_get(lua_State *L) {
  la_Mat *A = la_check(L, 1, "get");
  lua_pushnumber(L, *element(L, A, "get", lua_isnoneornil(L, 3)));
  return 1;
}

static int l_set(lua_State *L) {
  la_Mat *A = la_check(L, 1, "set");
  int linear = lua_gettop(L) <= 3, varg = linear ? 3 : 4;
  double *p;
  if (lua_type(L, varg) != LUA_TNUMBER) la_typeerror(L, "set", varg, "number");
  p = element(L, A, "set", linear);
  *p = lua_tonumber(L, varg);
  lua_settop(L, 1);
  return 1;
}

/* Pushes a view of rows i..i+m-1, columns j..j+n-1 (0-based) of the matrix
** at index 1; the view holds its parent in user value 1. */
static la_Mat *view(lua_State *L, la_Mat *P, int i, int j, int m, int n) {
  la_Mat *V = (la_Mat *)lua_newuserdatauv(L, sizeof(la_Mat), 1);
  V->data = (m > 0 && n > 0) ? &LA_AT(P, i, j) : P->data;
  V->rows = m; V->cols = n; V->ld = P->ld; V->flags = LA_VIEW;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);
  return V;
}

static int l_row(lua_State *L) {
  la_Mat *A = la_check(L, 1, "row");
  view(L, A, checkindex(L, "row", 2, A->rows, "row"), 0, 1, A->cols);
  return 1;
}

static int l_col(lua_State *L) {
  la_Mat *A = la_check(L, 1, "col");
  view(L, A, 0, checkindex(L, "col", 2, A->cols, "column"), A->rows, 1);
  return 1;
}

/* sub(i1, i2, j1, j2): inclusive ranges; i2 = i1 - 1 gives an empty view */
static int l_sub(lua_State *L) {
  la_Mat *A = la_check(L, 1, "sub");
  lua_Integer r[4];
  int k;
  for (k = 0; k < 4; k++) r[k] = la_checkint(L, "sub", k + 2);
  if (r[0] < 1 || r[1] > A->rows || r[1] < r[0] - 1)
    la_error(L, "sub", "rows %I..%I out of range for a %dx%d matrix",
             r[0], r[1], A->rows, A->cols);
  if (r[2] < 1 || r[3] > A->cols || r[3] < r[2] - 1)
    la_error(L, "sub", "columns %I..%I out of range for a %dx%d matrix",
             r[2], r[3], A->rows, A->cols);
  view(L, A, (int)r[0] - 1, (int)r[2] - 1, (int)(r[1] - r[0] + 1),
       (int)(r[3] - r[2] + 1));
  return 1;
}

static int l_copy(lua_State *L) {
  la_copyof(L, la_check(L, 1, "copy"));
  return 1;
}

static int l_reshape(lua_State *L) {
  la_Mat *A = la_check(L, 1, "reshape"), *B;
  int m = la_checksize(L, "reshape", 2), n = la_checksize(L, "reshape", 3);
  if ((lua_Integer)m * n != (lua_Integer)A->rows * A->cols)
    la_error(L, "reshape", "cannot reshape %dx%d into %dx%d", A->rows, A->cols, m, n);
  B = la_new(L, "reshape", m, n);
  lak_copy(A->rows, A->cols, A->data, A->ld, B->data, A->rows > 0 ? A->rows : 1);
  return 1;
}

static int l_totable(lua_State *L) {
  la_Mat *A = la_check(L, 1, "totable");
  int i, j;
  lua_createtable(L, A->rows, 0);
  for (i = 0; i < A->rows; i++) {
    if (A->cols == 1) { lua_pushnumber(L, LA_AT(A, i, 0)); lua_rawseti(L, -2, i + 1); continue; }
    lua_createtable(L, A->cols, 0);
    for (j = 0; j < A->cols; j++) {
      lua_pushnumber(L, LA_AT(A, i, j));
      lua_rawseti(L, -2, j + 1);
    }
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int l_t(lua_State *L) {
  la_Mat *A = la_check(L, 1, "t");
  la_Mat *B = la_new(L, "t", A->cols, A->rows);
  lak_transpose(A->rows, A->cols, A->data, A->ld, B->data, B->ld);
  return 1;
}

/* A[k] for anything but a method name or T: an error that says what to
** write instead (A[1] could mean an entry in Octave and a row in NumPy). */
static int badindex(lua_State *L) {
  const char *best = NULL;
  int bd = 99;
  if (lua_type(L, 2) == LUA_TNUMBER)
    return la_error(L, "matrix", "A[%s] is not defined: use A(i, j) or A:get(i, j) for "
                    "an entry, A:row(i) or A:col(j) for a view", lua_tostring(L, 2));
  if (lua_type(L, 2) != LUA_TSTRING)
    return la_error(L, "matrix", "no field with a %s key", la_typename(L, 2));
  lua_pushnil(L);
  while (lua_next(L, lua_upvalueindex(2))) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) closer(lua_tostring(L, 2), lua_tostring(L, -1), &best, &bd);
  }
  if (best)
    return la_error(L, "matrix", "no method or field '%s' (did you mean '%s'?)",
                    lua_tostring(L, 2), best);
  return la_error(L, "matrix", "no method or field '%s'", lua_tostring(L, 2));
}

static int m_index(lua_State *L) {
  const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  if (k && k[0] == 'T' && k[1] == '\0') {
    lua_settop(L, 1);
    return l_t(L);
  }
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TNIL) return badindex(L);
  return 1;
}

/* matrices take no fields; entries are set with set */
static int m_newindex(lua_State *L) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return la_error(L, "matrix", "matrices take no fields (A.%s = ...): use "
                    "A:set(i, j, x) to set an entry", lua_tostring(L, 2));
  return la_error(L, "matrix", "A[%s] = ... is not defined: use A:set(i, j, x) to set "
                  "an entry", luaL_tolstring(L, 2, NULL));
}

static int m_len(lua_State *L) { return l_rows(L); }

/* __close: later use is an error; closing twice is harmless. No memory is
** released early: views of this matrix may still point into it. */
static int m_close(lua_State *L) {
  la_Mat *A = la_test(L, 1);
  if (A == NULL) return la_typeerror(L, "close", 1, "matrix");
  A->flags |= LA_CLOSED;
  return 0;
}

/* ---------------------------------------------------------------- printing */

#define ELIDE_OVER 1000   /* entries, as NumPy's threshold */
#define EDGE 3            /* rows / columns kept at each end when eliding */

static void fmtnum(char *buf, size_t sz, double x) {
  if (isnan(x)) snprintf(buf, sz, "nan");
  else if (isinf(x)) snprintf(buf, sz, x > 0 ? "inf" : "-inf");
  else snprintf(buf, sz, "%.6g", x == 0.0 ? 0.0 : x);   /* no "-0" */
}

/* Fills idx with the indices shown along a dimension of length n; -1 marks
** the ellipsis. Returns how many. */
static int shown(int n, int elide, int *idx) {
  int k = 0, i;
  if (!elide || n <= 2 * EDGE) { for (i = 0; i < n; i++) idx[k++] = i; return k; }
  for (i = 0; i < EDGE; i++) idx[k++] = i;
  idx[k++] = -1;
  for (i = n - EDGE; i < n; i++) idx[k++] = i;
  return k;
}

static void cell(const la_Mat *A, int i, int j, char *buf, size_t sz) {
  if (i >= 0 && j >= 0) fmtnum(buf, sz, LA_AT(A, i, j));
  else snprintf(buf, sz, "%s", i < 0 && j < 0 ? "" : i < 0 ? ":" : "...");
}

/* "3x2 matrix" then right-aligned columns; beyond ELIDE_OVER entries only
** the first and last EDGE rows and columns, as NumPy does. */
static int m_tostring(lua_State *L) {
  la_Mat *A = la_check(L, 1, "tostring");
  int elide = (lua_Integer)A->rows * A->cols > ELIDE_OVER, nr, nc, a, b;
  int *ri;
  if (LA_EMPTY(A)) {
    lua_pushfstring(L, "%dx%d matrix%s", A->rows, A->cols, (A->flags & LA_VIEW) ? " (view)" : "");
    return 1;
  }
  ri = (int *)la_scratch(L, (size_t)A->rows + 2 * (size_t)A->cols + 16);
  int *ci, *w;
  char buf[64];
  luaL_Buffer B;
  nr = shown(A->rows, elide, ri);
  ci = ri + nr; nc = shown(A->cols, elide, ci); w = ci + nc;
  for (b = 0; b < nc; b++)
    for (w[b] = 1, a = 0; a < nr; a++) {
      int len;
      cell(A, ri[a], ci[b], buf, sizeof buf);
      len = (int)strlen(buf); if (len > w[b]) w[b] = len;
    }
  luaL_buffinit(L, &B);
  lua_pushfstring(L, "%dx%d matrix%s", A->rows, A->cols,
                  (A->flags & LA_VIEW) ? " (view)" : "");
  luaL_addvalue(&B);
  for (a = 0; a < nr; a++) {
    luaL_addchar(&B, '\n');
    for (b = 0; b < nc; b++) {
      int pad;
      cell(A, ri[a], ci[b], buf, sizeof buf);
      for (pad = w[b] + 2 - (int)strlen(buf); pad > 0; pad--) luaL_addchar(&B, ' ');
      luaL_addstring(&B, buf);
    }
  }
  luaL_pushresult(&B);
  return 1;
}

/* ---------------------------------------------------------------- runtime */

extern void openblas_set_num_threads(int);
extern int openblas_get_num_threads(void);

static int l_threads(lua_State *L) {
  if (!lua_isnoneornil(L, 1)) {
    lua_Integer n = la_checkint(L, "threads", 1);
    if (n < 1 || n > 1024)
      la_argerror(L, "threads", 1, "thread count must be in 1..1024");
    openblas_set_num_threads((int)n);
  }
  lua_pushinteger(L, openblas_get_num_threads());
  return 1;
}

/* ---------------------------------------------------------------- module */

static const luaL_Reg core_funcs[] = {
  {"matrix", l_matrix}, {"vector", l_vector}, {"zeros", l_zeros},
  {"ones", l_ones}, {"eye", l_eye}, {"diag", l_diag},
  {"hstack", l_hstack}, {"vstack", l_vstack}, {"is_matrix", l_is_matrix},
  {"asmatrix", l_asmatrix}, {"check_finite", l_check_finite},
  {"checkopts", l_checkopts},
  {"shape", l_shape}, {"rows", l_rows}, {"cols", l_cols}, {"numel", l_numel},
  {"get", l_get}, {"set", l_set}, {"row", l_row}, {"col", l_col},
  {"sub", l_sub}, {"copy", l_copy}, {"reshape", l_reshape},
  {"totable", l_totable}, {"t", l_t}, {"threads", l_threads},
  {NULL, NULL}
};

static const luaL_Reg meta_funcs[] = {
  {"__len", m_len}, {"__call", l_get}, {"__tostring", m_tostring},
  {"__close", m_close}, {"__newindex", m_newindex}, {NULL, NULL}
};

/* Creates the matrix metatable (registered by name for hosts and under a
** pointer key for speed) and registers the core functions in the module
** table at -1. __index reads the module table, so A:f(...) is la.f(A, ...). */
void la_open_core(lua_State *L) {
  lak_Rng *r;
  luaL_newmetatable(L, LINALG_MATRIX);
  lua_pushliteral(L, LINALG_MATRIX);      /* getmetatable(A) gives the name only */
  lua_setfield(L, -2, "__metatable");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &mt_key);
  la_setfuncs(L, core_funcs);
  la_setmeta(L, meta_funcs);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);      /* mod mt */
  r = (lak_Rng *)lua_newuserdatauv(L, sizeof(lak_Rng), 0);
  lak_rng_seed(r, (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)r);
  lua_pushvalue(L, -2); lua_pushvalue(L, -2);       /* mod mt r mt r */
  lua_pushcclosure(L, l_randn, 2);                  /* mod mt r randn */
  lua_setfield(L, -4, "randn");                     /* mod mt r */
  lua_pushvalue(L, -2); lua_insert(L, -2);          /* mod mt mt r */
  lua_pushcclosure(L, l_rand, 2);                   /* mod mt rand */
  lua_setfield(L, -3, "rand");                      /* mod mt */
  lua_pushvalue(L, -1); lua_pushvalue(L, -3);       /* mod mt mt mod */
  lua_pushcclosure(L, m_index, 2);                  /* mod mt index */
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

LINALG_API int luaopen_linalg_core(lua_State *L) {
  lua_newtable(L);
  la_open_core(L);
  la_open_arith(L);
  la_open_lapack(L);
  la_open_attn(L);
  la_open_io(L);
  la_open_config(L);
  la_open_elem(L);
  la_open_lsqstate(L);
  lua_pushliteral(L, LINALG_VERSION);
  lua_setfield(L, -2, "version");
  return 1;
}

/* ---------------------------------------------------------------- C API */

/* Errors of the C API carry no position: the Lua code that called the
** host's function did nothing wrong. */
static void needmeta(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key) == LUA_TNIL) {
    lua_pushliteral(L, "linalg: module not loaded (require \"linalg\" first)");
    lua_error(L);
  }
  lua_pop(L, 1);
}

/* "Is this a matrix?" for the C API, which runs inside the host's own
** functions: their upvalue 1 is theirs, so only the registry's metatable
** (which only this module creates) decides. */
static la_Mat *testapi(lua_State *L, int idx) {
  void *p = lua_touserdata(L, idx);
  int same;
  if (p == NULL || lua_rawlen(L, idx) < sizeof(la_Mat) || !lua_getmetatable(L, idx))
    return NULL;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &mt_key);
  same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? (la_Mat *)p : NULL;
}

LINALG_API double *linalg_pushmatrix(lua_State *L, int rows, int cols,
                                     const double *src, int ld_src) {
  la_Mat *A;
  needmeta(L);
  A = la_newat(L, "pushmatrix", rows, cols, 0);     /* the registry's metatable */
  if (!src) memset(A->data, 0, (size_t)rows * (size_t)cols * sizeof(double));
  if (src) {
    if (ld_src < (rows > 0 ? rows : 1))
      la_error(L, "pushmatrix", "ld_src %d < rows %d", ld_src, rows);
    lak_copy(rows, cols, src, ld_src, A->data, A->ld);
  }
  return A->data;
}

LINALG_API double *linalg_testmatrix(lua_State *L, int idx, int *rows,
                                     int *cols, int *ld) {
  la_Mat *A = testapi(L, idx);
  if (!A || (A->flags & LA_CLOSED)) return NULL;
  if (rows) *rows = A->rows;
  if (cols) *cols = A->cols;
  if (ld) *ld = A->ld;
  return A->data;
}

LINALG_API double *linalg_checkmatrix(lua_State *L, int idx, int *rows,
                                      int *cols, int *ld) {
  double *p = linalg_testmatrix(L, idx, rows, cols, ld);
  if (!p) {
    if (testapi(L, idx)) la_argerror(L, "checkmatrix", idx, "matrix is closed");
    la_typeerror(L, "checkmatrix", idx, "matrix");
  }
  return p;
}
