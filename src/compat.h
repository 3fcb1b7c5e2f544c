/*
** compat.h: every difference between Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT 2.1
** that linalg's C code meets, in this one place (as LPeg's lptypes.h). The
** rest of the code is written once against the 5.4 API; on an older Lua the
** few functions it uses that are missing or behave otherwise are defined
** here under la_compat_ names and the standard names are mapped to them.
** No other file tests LUA_VERSION_NUM.
**
** What differs, and what is done:
** - user values (5.4: n per userdata; 5.3: one, any value; 5.2: one table;
**   5.1/LuaJIT: the environment table): linalg needs one thing of them, a
**   userdata that keeps another alive (a view its parent, a header its
**   external storage): la_keepalive. On 5.3+ that is user value 1. On 5.1
**   and 5.2 it is a table {owner}, shared: the owner caches it as its own
**   table (a cycle the collector frees), and a view of a view takes its
**   parent's table, so only the first view of a matrix makes a table (a
**   table per view cost LuaJIT 1.5x 5.4's time for a slice).
** - lua_getfield, lua_rawgeti, lua_rawget, lua_rawgetp, lua_getglobal and
**   luaL_getmetafield return the value's type (5.3+) everywhere.
** - integers: 5.1, 5.2 and LuaJIT have no integer subtype (lua_Integer is
**   ptrdiff_t, numbers are doubles). lua_isinteger is true there for a
**   number with an integral value a lua_Integer holds; lua_tointegerx
**   refuses a non-integral number (as 5.3+ does) instead of truncating it;
**   lua_numbertointeger is defined. la_Unsigned replaces lua_Unsigned
**   (32 bits in 5.2, missing in 5.1).
** - lua_pushfstring's %I is 5.3+: helpers.c's la_pushfstring formats %I
**   on every version (it does not depend on this header).
** - luaL_tolstring and luaL_typename read __name only from 5.3 on:
**   la_typename (helpers.c) reads it itself; luaL_tolstring is defined here
**   for 5.1 and 5.2 with 5.3's rules.
** - 5.1 lacks lua_absindex, lua_rawlen, lua_rawgetp/lua_rawsetp,
**   luaL_setfuncs, luaL_newlib, luaL_testudata, luaL_setmetatable,
**   luaL_getsubtable, luaL_requiref, lua_tonumberx, LUA_OK: defined here
**   (LuaJIT 2.1 has some of them; the la_compat_ names avoid clashes).
** - whether a finalizer runs, where linalg must not collect (the pending
**   ones would run, freeing storage a call reads): la_compat_gcrunning
**   (LUA_GCISRUNNING on 5.2+ and LuaJIT; a call hook on 5.1).
** - LA_LUA_BUILT: the Lua this file was compiled for, as _VERSION reads
**   ("Lua 5.1" for LuaJIT too); la_compat_version: the running state's
**   LUA_VERSION_NUM (0 where the API cannot say: 5.1 and LuaJIT).
*/
#ifndef LA_COMPAT_H
#define LA_COMPAT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>
#include <lauxlib.h>

#if !defined(LUA_VERSION_NUM) || LUA_VERSION_NUM < 501
#error "linalg needs Lua 5.1 or later (or LuaJIT 2.1)"
#endif

/* its address marks la_keepalive's tables on 5.1 and 5.2 (matrix.c) */
extern const char la_compat_keepmark;
/* its address keys la_compat_gcrunning's answer on 5.1, in the registry */
extern const char la_compat_hookmark;

/* wide enough for the magnitude of any lua_Integer */
typedef unsigned long long la_Unsigned;

#define LA_LUA_BUILT "Lua " LUA_VERSION_MAJOR "." LUA_VERSION_MINOR

/* ------------------------------------------------ 5.1 and LuaJIT */
#if LUA_VERSION_NUM == 501

#undef LA_LUA_BUILT
#define LA_LUA_BUILT "Lua 5.1"
#define LUA_OK 0

#define lua_rawlen(L, i) lua_objlen((L), (i))
#define la_compat_getuvtable(L, i) lua_getfenv((L), (i))
#define la_compat_setuvtable(L, i) lua_setfenv((L), (i))
#define la_compat_version(L) ((void)(L), 0)

static inline int la_compat_absindex(lua_State *L, int i) {
  return (i > 0 || i <= LUA_REGISTRYINDEX) ? i : lua_gettop(L) + i + 1;
}
#define lua_absindex la_compat_absindex

static inline lua_Number la_compat_tonumberx(lua_State *L, int i, int *isnum) {
  lua_Number n = lua_tonumber(L, i);
  if (isnum) *isnum = n != 0 || lua_isnumber(L, i);
  return n;
}
#undef lua_tonumberx
#define lua_tonumberx la_compat_tonumberx

static inline int la_compat_rawgetp(lua_State *L, int i, const void *p) {
  i = lua_absindex(L, i);
  lua_pushlightuserdata(L, (void *)(uintptr_t)p);
  lua_rawget(L, i);
  return lua_type(L, -1);
}
#define lua_rawgetp la_compat_rawgetp

static inline void la_compat_rawsetp(lua_State *L, int i, const void *p) {
  i = lua_absindex(L, i);
  lua_pushlightuserdata(L, (void *)(uintptr_t)p);
  lua_insert(L, -2);
  lua_rawset(L, i);
}
#define lua_rawsetp la_compat_rawsetp

static inline void la_compat_setfuncs(lua_State *L, const luaL_Reg *l, int nup) {
  luaL_checkstack(L, nup + 1, "too many upvalues");
  for (; l->name; l++) {
    int i;
    for (i = 0; i < nup; i++) lua_pushvalue(L, -nup);
    lua_pushcclosure(L, l->func, nup);
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}
#undef luaL_setfuncs
#define luaL_setfuncs la_compat_setfuncs
#undef luaL_newlibtable
#undef luaL_newlib
#define luaL_newlibtable(L, l) lua_createtable((L), 0, sizeof(l) / sizeof((l)[0]) - 1)
#define luaL_newlib(L, l) (luaL_newlibtable((L), (l)), luaL_setfuncs((L), (l), 0))

static inline void *la_compat_testudata(lua_State *L, int i, const char *tname) {
  void *p = lua_touserdata(L, i);
  if (p == NULL || !lua_getmetatable(L, i)) return NULL;
  luaL_getmetatable(L, tname);
  if (!lua_rawequal(L, -1, -2)) p = NULL;
  lua_pop(L, 2);
  return p;
}
#undef luaL_testudata
#define luaL_testudata la_compat_testudata

static inline void la_compat_setmetatable(lua_State *L, const char *tname) {
  luaL_getmetatable(L, tname);
  lua_setmetatable(L, -2);
}
#undef luaL_setmetatable
#define luaL_setmetatable la_compat_setmetatable

static inline int la_compat_getsubtable(lua_State *L, int i, const char *name) {
  i = lua_absindex(L, i);
  lua_getfield(L, i, name);
  if (lua_istable(L, -1)) return 1;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, i, name);
  return 0;
}
#define luaL_getsubtable la_compat_getsubtable

/* package.loaded[modname] = f(modname), left on the stack */
static inline void la_compat_requiref(lua_State *L, const char *modname,
                                      lua_CFunction f, int glb) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, "_LOADED");
  lua_getfield(L, -1, modname);
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    lua_pushcfunction(L, f);
    lua_pushstring(L, modname);
    lua_call(L, 1, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, modname);
  }
  lua_remove(L, -2);
  if (glb) { lua_pushvalue(L, -1); lua_setglobal(L, modname); }
}
#define luaL_requiref la_compat_requiref

/* ------------------------------------------------ 5.2 */
#elif LUA_VERSION_NUM == 502

#define la_compat_getuvtable(L, i) lua_getuservalue((L), (i))
#define la_compat_setuvtable(L, i) lua_setuservalue((L), (i))
#define la_compat_version(L) ((int)*lua_version(L))
#define lua_rawgetp(L, i, p) (lua_rawgetp((L), (i), (p)), lua_type((L), -1))

#endif

/* ------------------------------------------------ 5.1 and 5.2 */
#if LUA_VERSION_NUM <= 502

#define LUA_PRELOAD_TABLE "_PRELOAD"

/* the getters return the value's type, as from 5.3 on (function-like
** macros do not expand themselves: the inner name is Lua's function) */
#define lua_getfield(L, i, k) (lua_getfield((L), (i), (k)), lua_type((L), -1))
#define lua_rawget(L, i) (lua_rawget((L), (i)), lua_type((L), -1))
#define lua_rawgeti(L, i, n) (lua_rawgeti((L), (i), (int)(n)), lua_type((L), -1))
#undef lua_getglobal
#if LUA_VERSION_NUM == 501
#define lua_getglobal(L, s) lua_getfield((L), LUA_GLOBALSINDEX, (s))
#else
#define lua_getglobal(L, s) (lua_getglobal((L), (s)), lua_type((L), -1))
#endif
#define luaL_getmetafield(L, i, e) \
  (luaL_getmetafield((L), (i), (e)) ? lua_type((L), -1) : LUA_TNIL)

/* an integral number a lua_Integer holds (the cast back compares equal
** only for an integral value; the range test comes first, as the cast of a
** number out of range is undefined) */
static inline int la_compat_intnum(lua_Number n, lua_Integer *p) {
  if (n >= (lua_Number)PTRDIFF_MIN && n < -(lua_Number)PTRDIFF_MIN &&
      (lua_Number)(lua_Integer)n == n) {
    *p = (lua_Integer)n;
    return 1;
  }
  return 0;
}
#define lua_numbertointeger(n, p) la_compat_intnum((n), (p))

/* one call for a number: lua_tonumber is 0 for what is not one */
static inline lua_Integer la_compat_tointegerx(lua_State *L, int i, int *isnum) {
  lua_Integer v = 0;
  lua_Number n = lua_tonumber(L, i);
  int ok = (n != 0 || lua_isnumber(L, i)) && la_compat_intnum(n, &v);
  if (isnum) *isnum = ok;
  return v;
}
#undef lua_tointegerx
#define lua_tointegerx la_compat_tointegerx

static inline int la_compat_isinteger(lua_State *L, int i) {
  lua_Integer v;
  return lua_type(L, i) == LUA_TNUMBER && la_compat_intnum(lua_tonumber(L, i), &v);
}
#define lua_isinteger la_compat_isinteger

/* luaL_tolstring with 5.3's rules: __tostring, then __name */
static inline const char *la_compat_tolstring(lua_State *L, int i, size_t *len) {
  if (luaL_callmeta(L, i, "__tostring")) {
    if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
  } else {
    switch (lua_type(L, i)) {
      case LUA_TNUMBER: case LUA_TSTRING: lua_pushvalue(L, i); break;
      case LUA_TBOOLEAN: lua_pushstring(L, lua_toboolean(L, i) ? "true" : "false"); break;
      case LUA_TNIL: lua_pushliteral(L, "nil"); break;
      default: {
        int t = luaL_getmetafield(L, i, "__name");
        const char *kind = t == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, i);
        lua_pushfstring(L, "%s: %p", kind, lua_topointer(L, i));
        if (t != LUA_TNIL) lua_remove(L, -2);
      }
    }
  }
  return lua_tolstring(L, -1, len);
}
#undef luaL_tolstring
#define luaL_tolstring la_compat_tolstring

/* The tables la_compat_keep makes: {owner, mark}; mark tells them from an
** environment 5.1 gave the userdata (the creating function's) */

static inline int la_compat_iskeep(lua_State *L, int t) {
  int ours;
  if (!lua_istable(L, t)) return 0;
  lua_rawgeti(L, t, 2);
  ours = lua_touserdata(L, -1) == (void *)&la_compat_keepmark;
  lua_pop(L, 1);
  return ours;
}

/* Pops v; the userdata at i keeps alive what v's memory lives in: v's own
** table when v has one (v is a view, or a header of external storage),
** else a new {v} that v keeps too (v owns its memory) */
static inline void la_compat_keep(lua_State *L, int i) {
  i = lua_absindex(L, i);
  la_compat_getuvtable(L, -1);
  if (!la_compat_iskeep(L, -1)) {
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, 1);
    lua_pushlightuserdata(L, (void *)&la_compat_keepmark);
    lua_rawseti(L, -2, 2);
    lua_pushvalue(L, -1);
    la_compat_setuvtable(L, -3);
  }
  la_compat_setuvtable(L, i);
  lua_pop(L, 1);
}

/* ------------------------------------------------ 5.3 */
#elif LUA_VERSION_NUM == 503

#define la_compat_version(L) ((int)*lua_version(L))

/* ------------------------------------------------ 5.4 */
#else

#define la_compat_version(L) ((int)lua_version(L))

#endif

/* Is the running Lua LuaJIT (its jit module loaded, as config reads its
** version)? Its states allocate through LuaJIT's own allocator, not
** glibc's (nothing trimmed under them), so storage of 64 to 128 KiB stays
** in it (helpers.h, la_extfloor): outside, the pace below (a whole cycle
** at each heap's worth) made A + 1 at 100 x 100 3.1 -> 6.2 us there. */
static inline int la_compat_luajit(lua_State *L) {
#if LUA_VERSION_NUM == 501
  int r = 0;
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "jit");
    r = lua_istable(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return r;
#else
  (void)L;
  return 0;
#endif
}

/* Is the collector running? No inside a finalizer (and at lua_close, where
** every finalizer runs), on every version: a collection made there runs
** the finalizers still pending, and those of storage owners free blocks
** that the calls in progress read (a finalizer using matrices that became
** garbage with it). 5.2 and 5.3 stop the collector while one runs, 5.4.4+
** answer -1 there, and LuaJIT's answer (LUA_GCISRUNNING, 9, whatever
** header the module was built with; PUC 5.1 answers -1) is no there too.
** 5.1 cannot say, but runs its finalizers with hooks off (lgc.c's GCTM): a
** call hook set for the call of an empty function tells (la_compat_hooked),
** about a microsecond, asked only before a collection; not under a count
** hook, whose count lua_sethook would restart (a sandbox's instruction
** limit never came): yes then. Hooks are per thread: a coroutine resumed
** inside a finalizer reads as outside one. A host's stopped collector
** reads as stopped everywhere but on 5.1. */
#if LUA_VERSION_NUM == 501
static inline void la_compat_hooked(lua_State *L, lua_Debug *ar) {
  (void)ar;
  lua_pushboolean(L, 1);
  la_compat_rawsetp(L, LUA_REGISTRYINDEX, &la_compat_hookmark);
}
static inline int la_compat_nop(lua_State *L) { (void)L; return 0; }
static inline int la_compat_gcrunning(lua_State *L) {
  lua_Hook h;
  int mask, count, r = lua_gc(L, 9, 0);       /* 5.1: -1, an unknown option */
  if (r >= 0) return r > 0;
  h = lua_gethook(L);
  mask = lua_gethookmask(L);
  count = lua_gethookcount(L);
  if (mask & LUA_MASKCOUNT) return 1;         /* lua_sethook would restart its count */
  lua_pushboolean(L, 0);
  la_compat_rawsetp(L, LUA_REGISTRYINDEX, &la_compat_hookmark);
  lua_sethook(L, la_compat_hooked, LUA_MASKCALL, 0);
  lua_pushcfunction(L, la_compat_nop);
  lua_call(L, 0, 0);
  lua_sethook(L, h, mask, count);
  la_compat_rawgetp(L, LUA_REGISTRYINDEX, &la_compat_hookmark);
  r = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return r;
}
#else
#define la_compat_gcrunning(L) (lua_gc((L), LUA_GCISRUNNING, 0) > 0)
#endif

/* Is a finalizer run inside a call (a collection step made by its
** allocation), not by lua_close's own loop? 5.1 and LuaJIT: lua_close
** runs them from the base level. 5.2+ leave the CallInfo of the function
** that called lua_close (os.exit(code, true)) and step inside a finalizer
** only once it restarted the collector: no. */
#if LUA_VERSION_NUM == 501
static inline int la_compat_incall(lua_State *L) {
  lua_Debug ar;
  return lua_getstack(L, 1, &ar);
}
#else
#define la_compat_incall(L) ((void)(L), 0)
#endif

/* the words of the collector's pace state (helpers.c's la_Anchor.pace) */
#define LA_PACEN 7

/* Is the collector 5.4's generational one? 5.4 can only say by switching:
** to incremental, nothing from incremental and cheap from generational,
** and back, then a full collection (the settings of both modes kept).
** Asked once (la_compat_gcmode), at the first large block or string made
** while the collector runs (not in a finalizer, where lua_gc must not be
** called, nor in a stopped collector, which the switch would run); 0 on
** every other version (5.2's experimental generational mode included). */
static inline int la_compat_gcgen(lua_State *L) {
#if LUA_VERSION_NUM >= 504
  if (lua_gc(L, LUA_GCINC, 0, 0, 0) != LUA_GCGEN) return 0;
  lua_gc(L, LUA_GCGEN, 0, 0);
  return 1;
#else
  (void)L;
  return 0;
#endif
}

/* p[1] of the pace state below (0 not asked yet, 1 incremental, 2 5.4's
** generational), asked once per state: at its first large block or large
** string (la_compat_bigstring), while the collector runs (5.2+) */
static inline size_t la_compat_gcmode(lua_State *L, size_t p[LA_PACEN]) {
  if (p[1] == 0) p[1] = la_compat_gcgen(L) ? 2 : 1;
  return p[1];
}

/* 5.1 and LuaJIT: a whole cycle once the KiB allocated since the last one
** (p[0], kb more now) reach what was in use after it (p[1]: the heap and
** *live bytes outside), the pause of 200% the heap itself gets (see
** la_compat_gcpace); while the collector runs: not in a finalizer (the
** cycle waits for the next call outside one) */
static inline void la_compat_fullpace(lua_State *L, size_t kb, size_t p[LA_PACEN], const size_t *live) {
  p[0] += kb;
  if (p[0] >= p[1] && la_compat_gcrunning(L)) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    p[0] = 0;
    p[1] = (size_t)lua_gc(L, LUA_GCCOUNT, 0) + (*live >> 10);
  }
}

/* The collector's pace for kb KiB just allocated where it cannot see them
** (helpers.c's storage outside the heap); p[LA_PACEN], zeros at first, its state.
** 5.2+: lua_gc(LUA_GCSTEP, d) adds d KiB to the collector's debt, which an
** incremental collector pays in work on the heap. A debt of kb made each
** large result walk much of a heap of small objects (README: *Every Lua*),
** so there the debt is kb times twice the heap's share of what is in use
** (the heap and the live storage), at most kb. On 5.3 and 5.4 a cycle then
** comes about once that much was made, the pause the heap itself gets
** (5.2 starts a cycle at each step from its pause). The live storage
** counted, p[3], is *live when blocks were last seen collected (*live
** below p[2], a lower bound of *live after the call before): *live counts
** the blocks dropped and not collected yet too, and with them the debt
** fell as they piled up (5.3 held 736 MiB over 100 results of 8 MiB).
** Before the first collection p[3] is 0 and the debt kb. The debt below a
** KiB waits in p[0]. 5.4's generational collector (p[1]: 0 not asked yet,
** 1 incremental, 2 generational) keeps the debt kb: a step there is a
** minor collection, whose work is the young objects, and a smaller debt
** spaced them out, so the dropped results were freed later and more
** blocks took turns in the cache (the 100 x 100 A + 1: 2 -> 4 us). A minor
** collection frees no old object (one that lived through two), and only
** the heap's own growth brings a major one: results kept a while, then
** dropped, piled up (300 results of 8 MB kept two at a time: 2.4 GB). So
** on 5.4 (and 5.2) a full collection comes once the live storage has
** grown by what was in use (la_compat_oldguard), in either mode: a host may
** switch to the generational one after the first block, when the mode was
** read.
** 5.1 and LuaJIT: that call steps until kb KiB of the heap are freed,
** which bytes outside it never are: a whole cycle on every call (LuaJIT's
** attention took 1.9x 5.4's time). There, a whole cycle runs once the KiB
** allocated since the last one (p[0]) reach what was in use after it
** (p[1]: the heap and *live bytes outside), the pause of 200% the heap
** itself gets. */
/* 5.4 and 5.2 (whose experimental generational mode piled them up as
** well): a full collection once the live storage has grown past p[4], its
** least since the last, by what is in use (the heap now, and p[4]) and at
** least LA_GENSLACK: the pause of 100% 5.4's generational mode gives its
** own heap (an incremental cycle, paced by la_compat_gcpace below, mostly
** comes first) */
#define LA_GENSLACK 33554432.0   /* 32 MiB: half the storage cache (helpers.c's LA_CACHEMAX) */
static inline void la_compat_oldguard(lua_State *L, size_t p[LA_PACEN], const size_t *live) {
#if LUA_VERSION_NUM >= 504 || LUA_VERSION_NUM == 502
  double d;
  if (*live < p[4]) p[4] = *live;                      /* blocks were collected */
  d = 1024.0 * (double)lua_gc(L, LUA_GCCOUNT, 0) + (double)p[4];
  if ((double)*live > (double)p[4] + (d > LA_GENSLACK ? d : LA_GENSLACK)) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    p[4] = *live;
  }
#else
  (void)L; (void)p; (void)live;
#endif
}

/* The heap's bytes (5.2+: what lua_gc counts, to the byte) */
static inline double la_compat_heapbytes(lua_State *L) {
  return 1024.0 * (double)lua_gc(L, LUA_GCCOUNT, 0) + (double)lua_gc(L, LUA_GCCOUNTB, 0);
}

/* 5.4's generational collector after a full collection (collectgarbage(),
** or one of ours) keeps the debt it had before, less what that collection
** freed: after strings of 8 MB were dropped and collected, the debt of kb
** a block brought no minor collection for 8 MB of blocks, none of them
** freed and each one fresh memory (100 x 100 A + B: 7-9 us a call for
** the first hundred calls, 280 on memory the system had not mapped yet;
** then 1.8). So where the blocks made since a collection was last seen
** (the heap shrank in the step, or blocks were freed: p[6] is *live then)
** reach 40% of the heap and 4 blocks, twice the pace the debt gives, a
** step of 0 is made: a minor collection, or a full one after a major
** collection that freed too little (la_compat_genstring), which the 40%
** then spaces out as Lua's own pause would. */
static inline void la_compat_minorguard(lua_State *L, size_t kb, size_t p[LA_PACEN],
                                        const size_t *live, double before) {
  double heap = la_compat_heapbytes(L), grown;
  if (heap < before || *live < p[6]) { p[6] = *live; return; }
  grown = (double)(*live - p[6]);
  if (grown > 0.4 * heap && grown > 4096.0 * (double)kb) {
    lua_gc(L, LUA_GCSTEP, 0);
    p[6] = *live;
  }
}

static inline void la_compat_gcpace(lua_State *L, size_t kb, size_t p[LA_PACEN],
                                    const size_t *live) {
#if LUA_VERSION_NUM >= 502
  double heap, d;
  if (!la_compat_gcrunning(L)) return;
  if (la_compat_gcmode(L, p) == 2) {
    heap = la_compat_heapbytes(L);
    lua_gc(L, LUA_GCSTEP, kb > INT_MAX ? INT_MAX : (int)kb);
    la_compat_minorguard(L, kb, p, live, heap);
    la_compat_oldguard(L, p, live);
    return;
  }
  heap = (double)lua_gc(L, LUA_GCCOUNT, 0);
  if (*live < p[2] || p[3] > *live) p[3] = *live;      /* blocks were collected */
  p[2] = *live + (kb << 10);
  d = heap > 0 ? 2048.0 * (double)kb * heap / (heap + (double)(p[3] >> 10)) : 0;
  d = (d < 1024.0 * (double)kb ? d : 1024.0 * (double)kb) + (double)p[0];
  d = d < 1024.0 * INT_MAX ? d : 1024.0 * INT_MAX;
  p[0] = (size_t)d & 1023;
  if (d >= 1024) lua_gc(L, LUA_GCSTEP, (int)(d / 1024));
  la_compat_oldguard(L, p, live);
#else
  la_compat_fullpace(L, kb, p, live);
#endif
}

#if LUA_VERSION_NUM == 504
/* A string of kb KiB about to be made under 5.4's generational collector
** (p: la_compat_gcpace's state, p[5] this function's). That collector
** makes a minor collection once the heap has grown by 20% since the last,
** and a major one (a walk of the whole heap) once it has doubled since the
** last major one; a string made during a collection lives on to the next
** one at least. Left to that, each string of 1e6 brought one or two
** collections: x:tobytes() took 527-588 us beside a heap of 1 MiB (NumPy's
** x.tobytes() 261), 380-880 us beside 18-35 MiB (bench/tobytes.lua), and
** a string of 200 KB beside 35 MiB 130 us. So, as a reference count
** would, the strings dropped since the call before are freed before the
** new one is made, and its allocator block is the one just freed, still
** mapped and in the cache: a step of 0 (a minor collection; a full one
** after a major collection that freed too little), then the string's
** bytes paid ahead (a step of -kb), so making it brings no collection and
** it stays young for the next call's minor collection to free. Strings of
** 1e6 then took 84-95 us in float32, 230-290 in float64, and 200 KB 5 us,
** whatever the heap. Paying ahead only when the strings since the last
** minor collection reached 20% of the heap (Lua's own pace) freed several
** at once, and glibc gave them back to the system: 2.1 ms a call beside
** 35 MiB. The price: the young objects alive at each call are walked
** (1000 small tables made between calls of 200 KB beside 35 MiB: 71-74 ->
** 100-128 us a call).
** A step of 0 makes a major collection only after one that freed too
** little (then a whole cycle: its result is 1 when that one frees too
** little again, else 0, so a full collection of the check below can follow
** it once, as the heap doubles); the heap's growth never brings one, and
** strings kept over two calls (old by then) need it. So one runs once the
** heap after the minor collection has grown past twice its least since the
** last full one (p[5]) and twice the string, the pause of 100% the
** generational mode gives its own heap.
** A host that switches to the incremental mode after the mode was read
** (la_compat_gcmode) gets the same calls: a step of 0 is then a small
** incremental step, the bytes paid ahead hold its cycles back, and the
** check on p[5] bounds the heap (spec/lua_versions_spec.lua). */
static inline void la_compat_genstring(lua_State *L, size_t kb, size_t p[LA_PACEN]) {
  size_t h;
  int cycle = lua_gc(L, LUA_GCSTEP, 0);
  h = (size_t)lua_gc(L, LUA_GCCOUNT, 0);
  if (p[5] == 0 || h < p[5] || cycle) p[5] = h;
  if (h >= 2 * p[5] + 2 * kb) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    p[5] = (size_t)lua_gc(L, LUA_GCCOUNT, 0);
  }
  if (kb > 0) lua_gc(L, LUA_GCSTEP, -(int)kb);   /* 0 would be one more step */
}
#endif

/* Before a string of len bytes is made (tobytes), from the storage's
** floor (64 KiB) under 5.4's generational collector, from LA_EXTMIN (big)
** under the others (strings of 80 and 128 KB on 5.4: 1.6 and 9.4 us a
** call, paced here 1.05 and 1.5, NumPy's 0.9; a cycle at each string cost
** 5.1 1.1 -> 8 us, and a whole cycle from a heap of twice len 5.3 25 ->
** 120): on 5.2+, the collector steps by its size first, so strings of that size
** dropped since the last call are freed before it is allocated and the
** allocator hands their block back (glibc keeps a freed 8 MiB block for
** the next request of its size; once the collector had let several pile
** up, it gave them back to the system together, and each new string paid
** a page fault every 4 KiB: x:tobytes() of 1e6 took 620 us under 5.4's
** generational collector, NumPy's 170). Right after a cycle the collector
** has a credit of about what is live (its 200% pause), and a step of len
** then left the string of the call before alive: after collectgarbage(),
** eight calls of 1e6 took 1.1 ms each (two fresh 8 MB blocks at 4-5 ms).
** So while the whole heap is under twice len (the dropped string and less
** than len besides), a full collection runs: a cycle of that heap costs
** less than the copy. A step of 2 len there ran to the end of a cycle
** mid-call every other call on 5.2 and 5.3, and the next call freed two
** strings together, which glibc gave back to the system: in a loop
** dropping each string, 5.3's x:tobytes() of 1e6 took 5.0-5.5 ms a call
** (bench/tobytes.lua's "loop"), now 0.28-0.50 ms (5.4's incremental
** collector never showed it). Not with a larger heap:
** each call's collection would walk it (a 170 MB heap of tables: 5.5 ->
** 11 ms a call with a step of 2 len).
** 5.4's generational collector (p: la_compat_gcpace's state, p[1] 2):
** la_compat_genstring above.
** 5.1 and LuaJIT step by a fixed amount of work at an allocation, whatever
** its size: 200 strings of 8 MB (distinct; 5.1 interns every string)
** beside 8000 tables were all still there at the end (1.2-1.5 GB). There
** the strings count as storage does (la_compat_fullpace). */
static inline void la_compat_bigstring(lua_State *L, size_t len, int big, size_t p[LA_PACEN],
                                       const size_t *live) {
  size_t kb = len >> 10;
#if LUA_VERSION_NUM >= 502
  (void)live;
  if (!la_compat_gcrunning(L)) return;
#if LUA_VERSION_NUM == 504
  if (la_compat_gcmode(L, p) == 2 && kb <= INT_MAX) {
    la_compat_genstring(L, kb, p);
    return;
  }
#else
  (void)p;
#endif
  if (!big) return;
  if ((size_t)lua_gc(L, LUA_GCCOUNT, 0) < 2 * kb) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    return;
  }
  lua_gc(L, LUA_GCSTEP, kb > INT_MAX ? INT_MAX : (int)kb);
#else
  if (big) la_compat_fullpace(L, kb, p, live);
#endif
}

/* After kb KiB allocated in the heap at once (a userdata of 64 KiB and
** more): 5.1's and LuaJIT's collector does a fixed amount of work at each
** allocation whatever its size, so a loop making and dropping 8 MiB
** userdata outran it (resident memory grew by 100-180 MiB over 500 of
** them). One more allocation check a MiB (an empty table made and
** dropped: each check steps the collector when it is behind) keeps its
** pace. A step call (LUA_GCSTEP) would not do: with data 0 LuaJIT's drops
** the debt it has, and with kb it runs until kb KiB are freed, a whole
** cycle when they are not garbage yet. 5.2+: the debt counts bytes, and
** each allocation pays in proportion. */
static inline void la_compat_heapstep(lua_State *L, size_t kb) {
#if LUA_VERSION_NUM >= 502
  (void)L; (void)kb;
#else
  size_t i;
  for (i = 0; i <= kb >> 10; i++) {
    lua_createtable(L, 0, 0);
    lua_pop(L, 1);
  }
#endif
}

#if LUA_VERSION_NUM <= 503
/* user values are reached through la_compat_keep alone */
static inline void *la_compat_newuserdatauv(lua_State *L, size_t sz, int nuv) {
  (void)nuv;
  return lua_newuserdata(L, sz);
}
#define lua_newuserdatauv la_compat_newuserdatauv
#endif
/* la_keepalive(L, i): pops v; the userdata at i keeps v's memory alive */
#if LUA_VERSION_NUM <= 502
#define la_keepalive la_compat_keep
#elif LUA_VERSION_NUM == 503
#define la_keepalive(L, i) lua_setuservalue((L), (i))
#else
#define la_keepalive(L, i) ((void)lua_setiuservalue((L), (i), 1))
#endif

#endif
