/*
** host.c: an MPI application that initializes MPI itself, splits
** MPI_COMM_WORLD in two and hands each half's communicator to Lua as a
** Fortran handle. linalg.mpi must fit over that communicator only, must not
** report owning MPI, and must leave MPI initialized after lua_close.
** Run under mpirun with 1 to 4 ranks; exits 0 on success.
*/
#include <mpi.h>
#include <stdio.h>

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

static const char script[] =
  "local la = require 'linalg'\n"
  "local mpi = require 'linalg.mpi'\n"
  "assert(mpi.owns_mpi == false, 'linalg.mpi claims the host\\'s MPI')\n"
  "local opts = {comm = HALF}\n"
  "local r, p = mpi.rank(opts), mpi.size(opts)\n"
  "assert(r == HALF_RANK and p == HALF_SIZE, 'rank/size of the half communicator')\n"
  "local A, b = la.randn(90, 4, 10 + GROUP), la.randn(90, 1, 20 + GROUP)\n"
  "local first, last = math.floor(r * 90 / p) + 1, math.floor((r + 1) * 90 / p)\n"
  "local x = mpi.lstsq(A:sub(first, last, 1, 4):copy(), b:sub(first, last, 1, 1):copy(), opts)\n"
  "local x0 = la.lstsq(A, b)\n"
  "assert(la.norm(x - x0) <= 1e-12 * la.norm(x0), 'x differs from lstsq over the group')\n";

int main(int argc, char **argv) {
  int rank, hrank, hsize, fin = 1, status;
  MPI_Comm half;
  lua_State *L;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  L = luaL_newstate();
  luaL_openlibs(L);
  lua_pushinteger(L, MPI_Comm_c2f(half)); lua_setglobal(L, "HALF");
  lua_pushinteger(L, hrank); lua_setglobal(L, "HALF_RANK");
  lua_pushinteger(L, hsize); lua_setglobal(L, "HALF_SIZE");
  lua_pushinteger(L, rank % 2); lua_setglobal(L, "GROUP");
  status = luaL_dostring(L, script);
  if (status != LUA_OK) fprintf(stderr, "host (rank %d): %s\n", rank, lua_tostring(L, -1));
  lua_close(L);                       /* unloads linalg.mpi */
  MPI_Finalized(&fin);
  if (fin) {
    fprintf(stderr, "host (rank %d): MPI was finalized by linalg.mpi\n", rank);
    return 1;
  }
  MPI_Barrier(MPI_COMM_WORLD);        /* still usable */
  MPI_Comm_free(&half);
  MPI_Finalize();
  return status == LUA_OK ? 0 : 1;
}
