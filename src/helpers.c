/*
** helpers.c: the helper layer's Lua side: errors that name the function the
** user called, positional argument readers, the one options reader (C and,
** through front.c's checkopts, the Lua front), Lua-owned scratch memory and
** registration under public names. Nothing here knows the matrix type.
*/
#define _POSIX_C_SOURCE 200809L   /* getrlimit */
#define _DEFAULT_SOURCE           /* madvise, MADV_HUGEPAGE (not POSIX) */

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "helpers.h"
#include "kernels/openblas.h"

/* ------------------------------------------------------- names */

const char *la_fname(lua_State *L) {
  const char *s = lua_tostring(L, lua_upvalueindex(2));
  return s ? s : "?";
}

/* An entry point that takes a bounded number of arguments: the count is
** checked, then the function runs in this same call (its upvalues are
** this closure's). */
static int checked(lua_State *L) {
  const la_Reg *r = (const la_Reg *)lua_touserdata(L, lua_upvalueindex(3));
  if (lua_gettop(L) > (r->nargs & ~LA_OPTS))      /* else nothing to check */
    la_checknargs(L, la_fname(L), r->nargs & ~LA_OPTS, r->nargs & LA_OPTS);
  return r->func(L);
}

/* a closure over (metatable, name, r, the nup values on top) */
void la_pushfunc(lua_State *L, const la_Reg *r, const char *name, int nup) {
  luaL_checkstack(L, 4, "too many upvalues");
  luaL_getmetatable(L, LINALG_MATRIX);          /* each goes below the own values */
  lua_insert(L, -nup - 1);
  lua_pushstring(L, name);
  lua_insert(L, -nup - 1);
  lua_pushlightuserdata(L, (void *)r);
  lua_insert(L, -nup - 1);
  lua_pushcclosure(L, r->nargs == LA_VARARG ? r->func : checked, nup + 3);
}

void la_setfuncs(lua_State *L, const la_Reg *funcs, int nup) {
  int i;
  luaL_checkstack(L, nup + 4, "too many upvalues");
  for (; funcs->name; funcs++) {
    for (i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    la_pushfunc(L, funcs, funcs->name, nup);
    lua_setfield(L, -(nup + 2), funcs->name);
  }
  lua_pop(L, nup);
}

void la_setmeta(lua_State *L, const la_Reg *meta) {
  luaL_getmetatable(L, LINALG_MATRIX);
  la_setfuncs(L, meta, 0);
  lua_pop(L, 1);
}

/* Trailing nils past nargs are dropped; an options table (when allowed)
** may come at nargs + 1 (anything else there is "options table expected");
** anything further is the first argument too many. */
void la_checknargs(lua_State *L, const char *fname, int nargs, int opts) {
  int n = lua_gettop(L), first = nargs + 1;
  while (n > nargs && lua_isnil(L, n)) n--;
  lua_settop(L, n);
  if (opts && n >= first) {
    if (lua_type(L, first) != LUA_TTABLE) la_typeerror(L, fname, first, "options table");
    first++;
  }
  if (n < first) return;
  while (lua_isnil(L, first)) first++;     /* the first extra that is not nil */
  if (nargs == 0 && !opts)
    la_argerror(L, fname, first, lua_pushfstring(L, "%s takes no arguments", fname));
  la_argerror(L, fname, first, lua_pushfstring(L, "%s takes at most %d argument%s%s",
              fname, nargs, nargs == 1 ? "" : "s", opts ? " and an options table" : ""));
}

/* ------------------------------------------------------ errors */

/* Lua's conversions one at a time, %I and %f formatted here so that every
** version prints the same ("3", "2.5", "3.0" for a float %f as 5.3+). */
const char *la_pushvfstring(lua_State *L, const char *fmt, va_list ap) {
  int n = 0;
  const char *e;
  char buf[64];
  while ((e = strchr(fmt, '%')) != NULL) {
    luaL_checkstack(L, 3, "format");
    lua_pushlstring(L, fmt, (size_t)(e - fmt));
    switch (e[1]) {
      case 's': { const char *s = va_arg(ap, const char *); lua_pushstring(L, s ? s : "(null)"); break; }
      case 'd': lua_pushfstring(L, "%d", va_arg(ap, int)); break;
      case 'c': buf[0] = (char)va_arg(ap, int); lua_pushlstring(L, buf, 1); break;
      case 'p': lua_pushfstring(L, "%p", va_arg(ap, void *)); break;
      case 'I': snprintf(buf, sizeof buf, "%lld", (long long)va_arg(ap, lua_Integer));
                lua_pushstring(L, buf); break;
      case 'f': {
        double x = (double)va_arg(ap, lua_Number);
        int len = snprintf(buf, sizeof buf, "%.14g", x);
        la_cdot(buf, len);
        if (buf[strspn(buf, "-0123456789")] == '\0') strcat(buf, ".0");   /* looks like an int */
        lua_pushstring(L, buf); break;
      }
      case '%': lua_pushliteral(L, "%"); break;
      default: return luaL_error(L, "invalid conversion '%%%c' to format", e[1]), NULL;
    }
    n += 2;
    fmt = e + 2;
  }
  lua_pushstring(L, fmt);
  lua_concat(L, n + 1);
  return lua_tostring(L, -1);
}

const char *la_pushfstring(lua_State *L, const char *fmt, ...) {
  const char *s;
  va_list ap;
  va_start(ap, fmt);
  s = la_pushvfstring(L, fmt, ap);
  va_end(ap);
  return s;
}

int la_error(lua_State *L, const char *fname, const char *fmt, ...) {
  va_list ap;
  lua_pushfstring(L, "linalg.%s: ", fname);
  va_start(ap, fmt);
  la_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  return lua_error(L);
}

int la_argerror(lua_State *L, const char *fname, int arg, const char *msg) {
  return la_error(L, fname, "bad argument #%d (%s)", arg, msg);
}

/* the type name for messages: a metatable's __name if it has one, else the
** name luaL_newmetatable registered the metatable under (Lua 5.1 and 5.2
** set no __name: io.stdout is still "FILE*"), else the Lua type. Leaves at
** most one value pushed (the name). */
const char *la_typename(lua_State *L, int idx) {
  const char *got = luaL_typename(L, idx);
  int t = luaL_getmetafield(L, idx, "__name");
  if (t == LUA_TSTRING) return lua_tostring(L, -1);
  if (t != LUA_TNIL) lua_pop(L, 1);
  if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return got;
  lua_pushnil(L);                                   /* mt, key */
  while (lua_next(L, LUA_REGISTRYINDEX)) {
    if (lua_type(L, -2) == LUA_TSTRING && lua_rawequal(L, -1, -3)) {
      lua_pop(L, 1);
      lua_replace(L, -2);                           /* the name where mt was */
      return lua_tostring(L, -1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return got;
}

int la_nofields(lua_State *L, const char *fname, const char *what, const char *var) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return la_error(L, fname, "%s takes no fields (%s.%s = ...)", what, var, lua_tostring(L, 2));
  return la_error(L, fname, "%s takes no fields (%s[%s] = ...)", what, var,
                  luaL_tolstring(L, 2, NULL));
}

int la_typeerror(lua_State *L, const char *fname, int arg, const char *what) {
  return la_argerror(L, fname, arg, lua_pushfstring(L, "%s expected, got %s", what,
                                                    la_typename(L, arg)));
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

/* Keeps cand in *best when it is closer to key than what *best holds, or
** as close and first in byte order: callers walk tables with lua_next,
** whose order changes from run to run (5.4 seeds its string hashes), and
** the message must not. */
void la_closest(const char *key, const char *cand, const char **best, int *bd) {
  int d = editdist(key, cand);
  if (d <= 2 && d < (int)strlen(key) &&
      (d < *bd || (d == *bd && *best != NULL && strcmp(cand, *best) < 0))) {
    *bd = d; *best = cand;
  }
}

/* --------------------------------------------------- arguments */

/* An integer argument; floats with an integral value are accepted. */
lua_Integer la_checkint(lua_State *L, const char *fname, int arg) {
  int ok;
  lua_Integer v = lua_tointegerx(L, arg, &ok);
  if (!ok) {
    if (lua_type(L, arg) == LUA_TNUMBER)
      la_argerror(L, fname, arg, la_pushfstring(L,        /* %f: '.' whatever the locale */
                  "integer expected, got %f", lua_tonumber(L, arg)));
    la_typeerror(L, fname, arg, "integer");
  }
  return v;
}

int la_checksize(lua_State *L, const char *fname, int arg) {
  lua_Integer v = la_checkint(L, fname, arg);
  if (v < 0 || v > INT_MAX)
    la_argerror(L, fname, arg, la_pushfstring(L,
                "size must be in 0..%d, got %I", INT_MAX, v));
  return (int)v;
}

void la_checktype(lua_State *L, const char *fname, int arg, int t) {
  if (lua_type(L, arg) != t) la_typeerror(L, fname, arg, lua_typename(L, t));
}

double la_optargnum(lua_State *L, const char *fname, int arg, double def) {
  if (lua_isnoneornil(L, arg)) return def;
  if (lua_type(L, arg) != LUA_TNUMBER) la_typeerror(L, fname, arg, "number");
  return lua_tonumber(L, arg);
}

/* ----------------------------------------------------- options */

/* Options live in a table at idx; idx 0 means there is none. A value is
** read with lua_getfield (an __index may supply it), checked while it is on
** the stack and popped; no pointer into it outlives the read. */
static int getopt(lua_State *L, int idx, const char *key, const char *fname) {
  if (idx == 0 || lua_isnoneornil(L, idx)) { lua_pushnil(L); return LUA_TNIL; }
  if (!lua_istable(L, idx)) la_typeerror(L, fname, idx, "options table");
  return lua_getfield(L, idx, key);
}

static int opterror(lua_State *L, const char *fname, const char *key,
                    const char *want) {
  return la_error(L, fname, "option '%s' must be %s, got %s", key, want,
                  la_typename(L, -1));
}

/* la_optbool, la_optnum and la_optint are alike on purpose (`duplicates`
** pairs the first two): each is getopt, its type's test and read, and
** opterror naming its type; folding them into one reader by type code would
** trade three readable contracts for a switch (lauxlib's luaL_opt* are
** written the same way). */
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
  const char *got;
  luaL_Buffer B;
  if (t == LUA_TNIL) { lua_pop(L, 1); return def; }
  if (t == LUA_TSTRING) {
    const char *s = lua_tostring(L, -1);
    for (i = 0; choices[i]; i++)
      if (strcmp(s, choices[i]) == 0) { lua_pop(L, 1); return i; }
  }
  /* what was got is made before the buffer opens: between luaL_buffinit
  ** and luaL_pushresult the stack belongs to the buffer (its layout is
  ** each version's own) */
  got = t == LUA_TSTRING ? lua_pushfstring(L, ", got \"%s\"", lua_tostring(L, -1))
                         : lua_pushfstring(L, ", got %s", la_typename(L, -1));
  luaL_buffinit(L, &B);
  luaL_addstring(&B, "linalg.");
  luaL_addstring(&B, fname);
  luaL_addstring(&B, ": option '");
  luaL_addstring(&B, key);
  luaL_addstring(&B, "' must be ");
  addchoices(&B, choices);
  luaL_addstring(&B, got);
  luaL_pushresult(&B);
  return lua_error(L);
}

/* A positional string argument that must be one of choices, returned as
** its index; compared while it is on the stack, so no pointer is kept. */
int la_checkenum(lua_State *L, const char *fname, int arg,
                 const char *const choices[], const char *msg) {
  int i;
  if (lua_type(L, arg) != LUA_TSTRING) return la_typeerror(L, fname, arg, "string");
  for (i = 0; choices[i]; i++)
    if (strcmp(lua_tostring(L, arg), choices[i]) == 0) return i;
  return la_argerror(L, fname, arg, msg);
}

/* "unknown option 'casual' (did you mean 'causal'?)"; the key is at -1. */
int la_unknownkey(lua_State *L, const char *fname, const char *best) {
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
  if (!lua_istable(L, idx)) la_typeerror(L, fname, idx, "options table");
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
      la_closest(lua_tostring(L, -1), keys[i], &best, &bd);
    la_unknownkey(L, fname, best);
  }
}

/* ----------------------------------------------------- scratch */

/* what: a description, or NULL for "a {dims[0]}x{dims[1]} matrix" (made
** here, so the calls that succeed format nothing) */
static void nomem(lua_State *L, const char *fname, size_t sz, const char *what,
                  const lua_Integer *dims) {
  char num[32];
  int len;
  if (what == NULL) what = la_pushfstring(L, "a %Ix%I matrix", dims[0], dims[1]);
  len = snprintf(num, sizeof num, "%.1f",
                 (double)sz / (sz >= ((size_t)1 << 30) ? 1073741824.0 : 1048576.0));
  la_cdot(num, len);
  la_error(L, fname, "not enough memory for %s (%s %s)", what, num,
           sz >= ((size_t)1 << 30) ? "GiB" : "MiB");
}

/* Large matrices ask for transparent huge pages (as NumPy does from
** LA_HUGEMIN): fewer page faults when a fresh result is first written.
** Only a hint, on the LA_HUGE-aligned interior of [p, p + len). */
#define LA_HUGE ((size_t)2 << 20)
#define LA_HUGEMIN ((size_t)4 << 20)
void la_hugepages(void *p, size_t len) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  uintptr_t a = ((uintptr_t)p + LA_HUGE - 1) & ~(uintptr_t)(LA_HUGE - 1);
  uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)(LA_HUGE - 1);
  if (len >= LA_HUGEMIN && e > a) madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
  (void)p; (void)len;
#endif
}

/* A block outside the heap: a header, then the caller's bytes. Every
** live block of a state is on a ring whose head is in the state's anchor
** (a userdata in the registry, made before the first owner): Lua drops a
** finalizer whose call fails for memory (5.2 frees its spare CallInfos in
** a collection, so the call of ext_gc may need one), and the anchor's
** __gc frees the blocks such owners left when the state closes. The
** anchor is finalized after every owner (finalizers run in the reverse
** order of marking, and at lua_close all of them run before anything is
** freed); ext_gc checks its `closed` anyway. */
typedef struct la_Blk {
  struct la_Blk *prev, *next;
  size_t size;                     /* of the whole block, header included */
  size_t align;                    /* of its storage: blkalign */
  size_t stamp;                    /* la_Anchor.handed when it was last handed out */
  int owned;                       /* by an owner not finalized yet */
} la_Blk;
/* Blocks whose owner was collected wait in cache (newest last) for an
** allocation of their size: a fresh block costs its page faults (the
** kernel clears each page on first touch; glibc hands large blocks back
** to the system when the collector frees several at once), which took
** 3/4 of the time of A * 2 on 1000 x 1000 (NumPy reuses the block it just
** freed). At most LA_CACHEN blocks and LA_CACHEMAX bytes; a cached block
** stays on the ring, so lua_close frees it. An incremental cycle frees the
** results of many calls at once (1 MB bool results beside 1.4 MB of
** tables: about 60), so the count is high: with 8, la.gt(A, B) at 1000 x
** 1000 took 2.2 ms a call under 5.4's incremental collector, with 64 0.3. */
#define LA_CACHEN 64
#define LA_CACHEMAX ((size_t)64 << 20)
typedef struct la_Anchor {
  la_Blk ring;
  int closed;
  int swept;                       /* anchor_gc freed the blocks it frees */
  int ncache;
  size_t cached;                   /* blkbytes of the blocks in cache */
  size_t live;                     /* blkbytes of blocks whose owners live */
  size_t handed;                   /* blkbytes of the large blocks handed out so far */
  size_t pace[LA_PACEN];           /* compat.h's la_compat_gcpace, la_compat_genstring */
  la_Blk *cache[LA_CACHEN];
} la_Anchor;
/* the owner of one block; gone once its __gc ran (helpers.h: la_extgone) */
typedef struct la_Ext { la_Blk *b; la_Anchor *a; int gone; } la_Ext;
static const char ext_key = 'E';      /* the owners' metatable, in the registry */
static const char anchor_key = 'A';   /* the anchor, in the registry */

static int limited = -1;       /* under a memory limit? -1: not read yet */
static int luajit;             /* LuaJIT runs (compat.h): its heap is its own */
static int under_limit(void);

/* Transparent huge pages on request only (madvise mode)? Read once. In
** "always" mode every large block has them wherever it starts (and the
** kernel starts large mappings on 2 MiB boundaries: the allocator's
** header alone then filled a huge page below a 2 MiB-aligned block). */
static int thp_madvise(void) {
  static int m = -1;
  if (m < 0) {
    char buf[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f != NULL) {
      if (fgets(buf, sizeof buf, f) == NULL) buf[0] = '\0';
      fclose(f);
    }
    m = strstr(buf, "[madvise]") != NULL;
  }
  return m;
}

/* A block's storage starts at the first boundary of its alignment after
** its header: LA_ALIGN, so that the vector loops' stores never split a
** cache line (the allocator's 16-byte alignment cost LuaJIT's A + B a
** third of its time); where the system gives huge pages on request
** (thp_madvise) and the storage is 4 MiB or more once rounded up to
** 2 MiB (when that adds at most an eighth), 2 MiB and that length, so
** that all of it is in the huge pages it asks for (la_hugepages). madvise
** covers only the 2 MiB pages inside a range, and the allocator's blocks
** start anywhere: a 1000 x 1000 float64 result had 4 to 6 of its 7.6 MiB
** in huge pages and took 225 us for la.abs, against 200 us with all of it
** (NumPy: 204-218). The cost is address space the host's allocator counts
** but nothing touches, up to 2 MiB before the storage, and the rounding
** after it, which a huge page holds. Not under a memory limit, where that
** space could fail an allocation. */
#define LA_ALIGN 64
/* sz rounded up to 2 MiB when that adds at most an eighth, else sz */
static size_t hugespan(size_t sz) {
  size_t r = (sz + LA_HUGE - 1) & ~(LA_HUGE - 1);
  return r >= sz && r - sz <= sz / 8 ? r : sz;
}
static size_t blkalign(size_t sz) {
  if (limited < 0) limited = under_limit();
  return !limited && hugespan(sz) >= LA_HUGEMIN && thp_madvise() ? LA_HUGE : LA_ALIGN;
}
/* the bytes a storage of sz takes at alignment al */
static size_t blkspan(size_t sz, size_t al) { return al == LA_HUGE ? hugespan(sz) : sz; }
/* what a block counts for in storage.bytes and the collector's pace: the
** address space its alignment skips is not in use */
static size_t blkbytes(const la_Blk *b) { return b->size - b->align; }
static void *blkdata(la_Blk *b) {
  uintptr_t p = (uintptr_t)(b + 1);
  return (void *)((p + b->align - 1) & ~(uintptr_t)(b->align - 1));
}

static void blkfree(lua_State *L, la_Blk *b) {
  void *ud;
  lua_Alloc f = lua_getallocf(L, &ud);
  b->prev->next = b->next;
  b->next->prev = b->prev;
  f(ud, b, b->size, 0);
}

/* drops cache entry i (its block is freed when release) */
static void uncache(lua_State *L, la_Anchor *a, int i, int release) {
  la_Blk *b = a->cache[i];
  a->cached -= blkbytes(b);
  memmove(a->cache + i, a->cache + i + 1, (size_t)(a->ncache - i - 1) * sizeof *a->cache);
  a->ncache--;
  if (release) blkfree(L, b);
}

/* b's owner was collected: b waits in cache, the oldest making room; not
** in a process under a memory limit, where memory held here could fail an
** allocation of Lua's own, which cannot know to empty the cache (the limit
** is read at each fresh block: two system calls a collected block were a
** sixth of the time of A + B at 100 x 100 stored here) */
static void cachekeep(lua_State *L, la_Anchor *a, la_Blk *b) {
  if (limited < 0) limited = under_limit();
  if (blkbytes(b) > LA_CACHEMAX / 2 || limited) { blkfree(L, b); return; }
  while (a->ncache == LA_CACHEN || a->cached + blkbytes(b) > LA_CACHEMAX) uncache(L, a, 0, 1);
  a->cache[a->ncache++] = b;
  a->cached += blkbytes(b);
}

/* a cached block of alignment al for total bytes (up to 1/8 more),
** newest first */
static la_Blk *cachetake(lua_State *L, la_Anchor *a, size_t total, size_t al) {
  int i;
  for (i = a->ncache - 1; i >= 0; i--) {
    la_Blk *b = a->cache[i];
    if (b->align == al && b->size >= total && b->size - total <= total / 8) {
      uncache(L, a, i, 0);
      return b;
    }
  }
  return NULL;
}

static void cachefree(lua_State *L, la_Anchor *a) {
  while (a->ncache > 0) uncache(L, a, a->ncache - 1, 1);
}

/* Once the anchor is closed (lua_close runs every finalizer before it
** frees any object, so its memory is still there), a block the anchor left
** goes back at once: on LuaJIT, where it left the owned ones (anchor_gc);
** elsewhere it freed them all, or (run inside a call) none. */
static int ext_gc(lua_State *L) {
  la_Ext *e = (la_Ext *)lua_touserdata(L, 1);
  if (e == NULL) return 0;
  if (e->b && e->a->closed) {
    if (e->a->swept && luajit) blkfree(L, e->b);
  } else if (e->b) {
    e->b->owned = 0;
    e->a->live -= blkbytes(e->b);
    cachekeep(L, e->a, e->b);
  }
  e->b = NULL;
  e->gone = 1;
  return 0;
}

const int *la_extgone(lua_State *L, int idx) {
  return &((la_Ext *)lua_touserdata(L, idx))->gone;
}

/* At lua_close: every block but, on LuaJIT, those of owners made by the
** finalizers run there, which LuaJIT finalizes in a later round (5.2+
** never do; an owner whose finalizer Lua dropped for memory leaves its
** block there to LuaJIT's close). None when run inside a call
** (la_compat_incall), which may be reading any of them: they are left to
** the system then. */
static int anchor_gc(lua_State *L) {
  la_Anchor *a = (la_Anchor *)lua_touserdata(L, 1);
  la_Blk *b, *next;
  if (a == NULL || a->closed) return 0;
  a->closed = 1;
  if (la_compat_incall(L)) return 0;
  a->swept = 1;
  for (b = a->ring.next; b != &a->ring; b = next) {
    next = b->next;
    if (luajit && b->owned) continue;
    blkfree(L, b);
  }
  a->ncache = 0;
  a->cached = a->live = 0;
  return 0;
}

/* the registry's table under key, made with __gc = gc when missing (pushes 1) */
static void gcmeta(lua_State *L, const void *key, lua_CFunction gc, const char *name) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__gc");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__metatable");
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* this state's anchor, made on first use */
static la_Anchor *anchor(lua_State *L) {
  la_Anchor *a;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &anchor_key) == LUA_TUSERDATA) {
    a = (la_Anchor *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return a;
  }
  lua_pop(L, 1);
  a = (la_Anchor *)lua_newuserdatauv(L, sizeof(la_Anchor), 0);
  a->ring.prev = a->ring.next = &a->ring;
  a->closed = a->swept = 0;
  a->ncache = 0;
  a->cached = a->live = a->handed = 0;
  memset(a->pace, 0, sizeof a->pace);
  gcmeta(L, &anchor_key, anchor_gc, "linalg.storage anchor");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &anchor_key);
  return a;
}

size_t la_extmin = 0;

size_t la_extfloor(void) {
  if (la_extmin) return la_extmin;
  if (limited < 0) limited = under_limit();
  return limited || luajit ? LA_EXTMIN : LA_BIGALLOC;
}

void la_initext(lua_State *L) {
  const char *s = getenv("LINALG_EXTERNAL_MIN");
  char *end;
  unsigned long long v;
  anchor(L);
  luajit = la_compat_luajit(L);
  if (s == NULL || *s == '\0') return;
  v = strtoull(s, &end, 10);
  if (*end == '\0' && v > 0) la_extmin = (size_t)v;
}

void la_extstats(lua_State *L, size_t *live, size_t *cached) {
  la_Anchor *a = anchor(L);
  *live = a->live;
  *cached = a->cached;
}

/* Is a block cold, out of the caches, once this many bytes of other
** large blocks were handed out after it? Half the last-level cache (the
** result is written beside its operands): a dropped result's block
** reused at once is still there (1000 x 1000 abs: 195 us, 2 MiB pages;
** two blocks in turn, 8 MB apart: 260), three or more blocks in turn are
** not (366-390 us; streamed out, 288-316). */
static size_t coldafter(void) {
  static size_t c = 0;             /* read once (a race would store the same value) */
  if (c == 0) {
    size_t b = lak_cachebytes();
    c = b >= 2 ? b / 2 : (size_t)16 << 20;
  }
  return c;
}

/* b handed out for a result (cached: from the cache): its stamp, and the
** kernels' hint whether it is cold (lak_coldhint), for blocks large enough
** to stream (LA_HUGEMIN, kernels/loops.h's LAK_STREAM_MIN); a fresh block
** is not (its pages are cleared on first touch, through the caches) */
static void handout(la_Anchor *a, la_Blk *b, int cached) {
  if (blkbytes(b) < LA_HUGEMIN) return;
  lak_coldhint(cached && a->handed - b->stamp >= coldafter() ? blkdata(b) : NULL, blkbytes(b));
  a->handed += blkbytes(b);
  b->stamp = a->handed;
}

/* la_allocext once the anchor is closed (a finalizer run by lua_close
** after the anchor's): the storage inside the owner, which has no __gc,
** so Lua frees it with the rest (5.2+ do not finalize what is made there,
** and its block would outlive the anchor) */
static void *closedext(lua_State *L, const char *fname, size_t sz, const char *what,
                       const lua_Integer *dims) {
  size_t hdr = (sizeof(la_Ext) + LA_ALIGN - 1) & ~(size_t)(LA_ALIGN - 1);
  la_Ext *e;
  if (sz > (size_t)-1 - hdr - LA_ALIGN) nomem(L, fname, sz, what, dims);
  e = (la_Ext *)la_allocud(L, fname, hdr + sz + LA_ALIGN, 0, what, dims);
  e->b = NULL;
  e->a = NULL;
  e->gone = 0;
  return (void *)(((uintptr_t)e + hdr + LA_ALIGN - 1) & ~(uintptr_t)(LA_ALIGN - 1));
}

void *la_allocext(lua_State *L, const char *fname, size_t sz, const char *what,
                  const lua_Integer *dims) {
  void *ud;
  lua_Alloc f = lua_getallocf(L, &ud);
  size_t kb = sz >> 10, al = blkalign(sz), span = blkspan(sz, al);
  size_t total = span + sizeof(la_Blk) + al;
  la_Anchor *a;
  la_Ext *e;
  la_Blk *b;
  lak_coldhint(NULL, 0);             /* a hint names the block just handed out, no older one */
  /* the collector's pace for bytes it cannot see (it is not restarted if
  ** the host stopped it), before the owner exists: on 5.4 a step taken in
  ** a metamethod (A + B) after new objects were made collected none of
  ** the earlier results, and every block was fresh */
  a = anchor(L);
  if (a->closed) return closedext(L, fname, sz, what, dims);
  la_compat_gcpace(L, kb, a->pace, &a->live);
  e = (la_Ext *)lua_newuserdatauv(L, sizeof(la_Ext), 0);
  e->b = NULL;
  e->a = a;
  e->gone = 0;
  gcmeta(L, &ext_key, ext_gc, "linalg.storage");
  lua_setmetatable(L, -2);                   /* __gc set before the block exists */
  if (span < sz || total < span) nomem(L, fname, sz, what, dims);
  b = cachetake(L, a, total, al);
  if (b != NULL) {                           /* on the ring already */
    b->owned = 1;
    e->b = b;
    a->live += blkbytes(b);
    handout(a, b, 1);
    return blkdata(b);
  }
  limited = under_limit();
  if (limited) cachefree(L, a);
  b = (la_Blk *)f(ud, NULL, 0, total);
  if (b == NULL) {                           /* as Lua does: a full collection, once more */
    cachefree(L, a);
    /* also where the host stopped the collector, as Lua's own allocator
    ** does before it fails (5.4.4+ ignore the call inside a finalizer;
    ** 5.4.0-5.4.3 collect there, as collectgarbage() in a finalizer did) */
    lua_gc(L, LUA_GCCOLLECT, 0);
    cachefree(L, a);
    b = (la_Blk *)f(ud, NULL, 0, total);
  }
  if (b == NULL) { nomem(L, fname, sz, what, dims); return NULL; }
  b->size = total;
  b->align = al;
  b->owned = 1;
  b->next = a->ring.next;                    /* on the ring before anything can fail */
  b->prev = &a->ring;
  a->ring.next->prev = b;
  a->ring.next = b;
  e->b = b;
  a->live += blkbytes(b);
  handout(a, b, 0);
  la_hugepages(blkdata(b), span);
  la_headroom(sz);
  return blkdata(b);
}

void la_bigstring(lua_State *L, size_t len) {
  la_Anchor *a;
  if (len < la_extfloor()) return;
  a = anchor(L);
  la_compat_bigstring(L, len, len >= (la_extmin ? la_extmin : LA_EXTMIN), a->pace, &a->live);
}

static int newud(lua_State *L) {
  lua_newuserdatauv(L, *(const size_t *)lua_touserdata(L, 1), (int)lua_tointeger(L, 2));
  return 1;
}

/* ------------------------------------------ OpenBLAS's threads and memory */

/* OpenBLAS's threaded level-3 drivers (gemm, syrk, getrf: also inside
** LAPACK) malloc a table per call and call exit(1) when that fails (0.3.21
** built for 64 threads: 512 KiB); on one thread they allocate nothing per
** call. So after each allocation of ours, right before the compute that
** follows it, LA_HEADROOM bytes of C heap are asked for and given back:
** when they cannot be had, OpenBLAS runs on one thread until they can
** again, and the user's count (`saved`) comes back then. Process-wide, as
** OpenBLAS's count is. Only a process under a limit (RLIMIT_AS or
** RLIMIT_DATA, or no overcommit) can see malloc fail while memory is
** left: that is read again at each allocation of LA_BIGALLOC bytes or
** more, and without a limit nothing is asked for (so small matrices cost
** no more). */
#define LA_HEADROOM ((size_t)4 << 20)
static int saved;              /* the user's thread count while on one; 0: not */

static int under_limit(void) {
  struct rlimit r;
  static int strict = -1;      /* vm.overcommit_memory = 2: read once */
  if (strict < 0) {
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    strict = f != NULL && fgetc(f) == '2';
    if (f != NULL) fclose(f);
  }
  if (strict) return 1;
  if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY) return 1;
  return getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY;
}

void la_headroom(size_t bytes) {
  void *p;
  if (!saved && openblas_get_num_threads() <= 1) return;
  if (bytes >= LA_BIGALLOC || limited < 0) limited = under_limit();
  if (!limited && !saved) return;
  p = malloc(LA_HEADROOM);
  if (p == NULL) {
    if (!saved) { saved = openblas_get_num_threads(); openblas_set_num_threads(1); }
    return;
  }
  free(p);
  if (saved) { openblas_set_num_threads(saved); saved = 0; }
}

int la_threads(int n) {
  if (n > 0) { saved = 0; openblas_set_num_threads(n); la_headroom(LA_BIGALLOC); }
  return saved ? saved : openblas_get_num_threads();
}

/* A full userdata of sz bytes with nuv user values; out of memory is an
** error of fname's that says what was asked (what: a description). */
void *la_allocud(lua_State *L, const char *fname, size_t sz, int nuv,
                 const char *what, const lua_Integer *dims) {
  if (sz < LA_BIGALLOC) return lua_newuserdatauv(L, sz, nuv);
  lua_pushcfunction(L, newud);
  lua_pushlightuserdata(L, &sz);
  lua_pushinteger(L, nuv);
  switch (lua_pcall(L, 2, 1, 0)) {
    case LUA_OK: la_compat_heapstep(L, sz >> 10); la_headroom(sz); return lua_touserdata(L, -1);
    case LUA_ERRMEM: nomem(L, fname, sz, what, dims);
    /* FALLTHROUGH */
    default: lua_error(L);
  }
  return NULL;
}

void *la_alloc(lua_State *L, size_t n, size_t size) {
  if (n > ((size_t)-1) / size - 1)
    la_error(L, la_fname(L), "not enough memory for %f elements of workspace", (double)n);
  if (n * size < LA_BIGALLOC) {
    void *p = lua_newuserdatauv(L, (n ? n : 1) * size, 0);
    la_headroom(n * size);
    return p;
  }
  if (n * size >= la_extfloor()) return la_allocext(L, la_fname(L), n * size, "workspace", NULL);
  return la_allocud(L, la_fname(L), n * size, 0, "workspace", NULL);
}

/* the workspace a call gave back (la_keepwork): registry[&work_key][1] */
static char work_key;

/* a plain block (la_alloc's userdata, no metatable) that la_keptwork can hand out */
static int reusable(lua_State *L, int idx, size_t *sz) {
  if (lua_type(L, idx) != LUA_TUSERDATA || lua_getmetatable(L, idx)) {
    if (lua_type(L, idx) == LUA_TUSERDATA) lua_pop(L, 1);
    return 0;
  }
  *sz = lua_rawlen(L, idx);
  return *sz >= LA_BIGALLOC && *sz <= LA_WORKCACHE;
}

void *la_keptwork(lua_State *L, size_t n, size_t size) {
  size_t have;
  if (n <= LA_WORKCACHE / size &&
      lua_rawgetp(L, LUA_REGISTRYINDEX, &work_key) == LUA_TTABLE) {
    lua_rawgeti(L, -1, 1);
    if (reusable(L, -1, &have) && have >= n * size) {
      lua_pushnil(L);
      lua_rawseti(L, -3, 1);                   /* taken: a nested call gets its own */
      lua_remove(L, -2);
      return lua_touserdata(L, -1);
    }
    lua_pop(L, 2);
  } else if (n <= LA_WORKCACHE / size) lua_pop(L, 1);
  if (n > 0 && n <= LA_WORKCACHE / size)       /* a plain userdata, which can be kept */
    return la_allocud(L, la_fname(L), n * size, 0, "workspace", NULL);
  return la_alloc(L, n, size);
}

void la_keepwork(lua_State *L, int idx) {
  size_t sz;
  idx = lua_absindex(L, idx);
  if (!reusable(L, idx, &sz)) return;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &work_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &work_key);
  }
  lua_rawgeti(L, -1, 1);                       /* keep the larger of the two */
  if (!reusable(L, -1, &sz) || sz <= lua_rawlen(L, idx)) {
    lua_pushvalue(L, idx);
    lua_rawseti(L, -3, 1);
  }
  lua_pop(L, 2);
}

int la_optcheckfinite(lua_State *L, int idx, const char *fname) {
  return la_optbool(L, idx, "check_finite", 1, fname);
}

int la_optsat(lua_State *L, int first) {
  int top = lua_gettop(L);
  return (top >= first && lua_type(L, top) == LUA_TTABLE) ? top : 0;
}

int la_optdim(lua_State *L, const char *fname, int arg) {
  lua_Integer d;
  if (lua_isnoneornil(L, arg)) return 0;
  d = la_checkint(L, fname, arg);
  if (d != 1 && d != 2) la_argerror(L, fname, arg, "dim must be 1 or 2");
  return (int)d;
}

int la_optvecdim(lua_State *L, const char *fname, int arg, int rows, int cols, int def) {
  int d = la_optdim(L, fname, arg);
  if (d) return d;
  if (rows == 1 && cols != 1) return 2;
  if (cols == 1 && rows != 1) return 1;
  return def;
}

int la_optlinedim(lua_State *L, const char *fname, int arg, int rows, int cols) {
  return la_optvecdim(L, fname, arg, rows, cols, 1);
}

double la_optposnum(lua_State *L, const char *fname, int arg, double def) {
  if (lua_isnoneornil(L, arg) || lua_istable(L, arg)) return def;
  return la_optargnum(L, fname, arg, def);
}

double la_opttol(lua_State *L, const char *fname, int arg, const char *name, double def) {
  double t;
  if (lua_isnoneornil(L, arg) || lua_istable(L, arg)) return def;
  t = la_optargnum(L, fname, arg, def);
  if (isnan(t)) la_argerror(L, fname, arg, lua_pushfstring(L, "%s is NaN", name));
  if (t < 0) la_argerror(L, fname, arg, lua_pushfstring(L, "%s must be >= 0", name));
  return t;
}

/* ------------------------------------------------------------ numbers as text */

int la_cdot(char *buf, int len) {
  const char *dp = localeconv()->decimal_point;
  size_t dl = strlen(dp);
  char *at;
  if (dl == 0 || (dl == 1 && dp[0] == '.') || (at = strstr(buf, dp)) == NULL) return len;
  *at = '.';
  memmove(at + 1, at + dl, strlen(at + dl) + 1);
  return len - (int)dl + 1;
}
