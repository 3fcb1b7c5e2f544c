/* benchclock: a monotonic wall clock for the Lua benchmarks (os.clock
** counts CPU time of all threads, which misreads multi-threaded BLAS). */
#include <time.h>
#include <lua.h>
#include <lauxlib.h>

static int now(lua_State *L) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  lua_pushnumber(L, (double)ts.tv_sec + ts.tv_nsec * 1e-9);
  return 1;
}

int luaopen_benchclock(lua_State *L);
int luaopen_benchclock(lua_State *L) {
  lua_newtable(L);
  lua_pushcfunction(L, now);
  lua_setfield(L, -2, "now");
  return 1;
}
