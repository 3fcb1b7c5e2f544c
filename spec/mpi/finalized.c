/*
** finalized.c: an MPI application that finalizes MPI while a Lua state still
** holds linalg.mpi. Every function of the module must then raise
** "linalg.mpi.<name>: MPI is finalized" (an MPI call after MPI_Finalize
** aborts the process), and loading the module again must fail with a
** message. Run under mpirun with 1 to 4 ranks; exits 0 on success.
*/
#include <mpi.h>
#include <stdio.h>

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

static const char before[] =
  "la = require 'linalg'\n"
  "mpi = require 'linalg.mpi'\n"
  "state = la.lsq_state(2):add(la.ones(3, 2), la.ones(3, 1))\n"
  "assert(mpi.allreduce(state).rows == 3 * mpi.size(), 'allreduce before MPI_Finalize')\n";

/* every function in the module table, with arguments it would accept */
static const char after[] =
  "local args = {size = {{comm = 0}}, allreduce = {state, {deterministic = true}},\n"
  "              lstsq = {la.ones(3, 2), la.ones(3, 1)}}\n"
  "local unpack, n = table.unpack or unpack, 0\n"
  "for name, f in pairs(mpi) do\n"
  "  if type(f) == 'function' then\n"
  "    local ok, e = pcall(f, unpack(args[name] or {}))\n"
  "    assert(not ok and e == 'linalg.mpi.' .. name .. ': MPI is finalized',\n"
  "           name .. ' after MPI_Finalize: ' .. tostring(e))\n"
  "    n = n + 1\n"
  "  end\n"
  "end\n"
  "assert(n == 5, 'checked ' .. n .. ' functions, expected rank, size, barrier, allreduce, lstsq')\n"
  "package.loaded['linalg.mpi'] = nil\n"
  "local ok, e = pcall(require, 'linalg.mpi')\n"
  "assert(not ok and e:find('linalg.mpi: MPI was already finalized', 1, true),\n"
  "       'require after MPI_Finalize: ' .. tostring(e))\n";

static int run(lua_State *L, const char *code, int rank) {
  if (luaL_dostring(L, code) == LUA_OK) return 0;
  fprintf(stderr, "finalized (rank %d): %s\n", rank, lua_tostring(L, -1));
  return 1;
}

int main(int argc, char **argv) {
  int rank, bad;
  lua_State *L;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  L = luaL_newstate();
  luaL_openlibs(L);
  bad = run(L, before, rank);
  MPI_Finalize();
  if (!bad) bad = run(L, after, rank);
  lua_close(L);
  return bad;
}
