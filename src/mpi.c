/*
** lmpi.c: linalg.mpi, linalg's distributed operations on Open MPI (not a
** general MPI binding). Requiring it initializes MPI unless the host already
** did; MPI is then finalized at process exit only if it was initialized
** here (the library stays loaded when a Lua state closes: see pin), or the
** job aborted if the process exits with a non-zero status (see atend).
** States travel as their serialized bytes (lak_lsq_encode): the reduction
** operator decodes two states, merges them with the kernel of kernels/tsqr.c
** (linked into this library) and encodes the result.
** Built with mpicc; depends on linalg.core at run time (require "linalg").
** One thread calls it: MPI is initialized with MPI_THREAD_FUNNELED, and the
** operator's workspace (G) is shared by the calls.
*/
#define _GNU_SOURCE   /* dladdr, RTLD_NODELETE */
#include <mpi.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lua.h>
#include <lauxlib.h>

#include "compat.h"

#include "kernels/kernels.h"

#if defined(__GNUC__)
#define LMPI_API __attribute__((visibility("default")))
#else
#define LMPI_API
#endif

LMPI_API int luaopen_linalg_mpi(lua_State *L);

static int owned;   /* MPI was initialized here: finalize it at exit */

/* raises the message, without luaL_error's position prefix */
static int fail(lua_State *L, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  return lua_error(L);
}

/* The reduction operator's workspace (MPI ops take no user pointer): set
** by the caller right before the collective, which runs on its thread. */
static struct {
  size_t len;
  lak_Lsq a, b;
  double *work;
  int failed;
} G;

static void checkmpi(lua_State *L, const char *fname, const char *call, int rc) {
  char msg[MPI_MAX_ERROR_STRING + 1];
  int len = 0;
  if (rc == MPI_SUCCESS) return;
  if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) len = 0;
  msg[len] = '\0';
  fail(L, "linalg.mpi.%s: %s failed: %s", fname, call, msg);
}

/* Raises unless MPI runs: a host may finalize it while a Lua state still
** holds this module, and an MPI call then would abort the process. */
static void live(lua_State *L, const char *fname) {
  int fin = 1;
  if (MPI_Finalized(&fin) != MPI_SUCCESS || fin)
    fail(L, "linalg.mpi.%s: MPI is finalized", fname);
}

/* the communicator: opts.comm (a Fortran handle, MPI_Comm_c2f) or world */
static MPI_Comm getcomm(lua_State *L, int oi, const char *fname) {
  MPI_Comm c = MPI_COMM_WORLD;
  int ok;
  lua_Integer h;
  if (oi == 0 || lua_isnoneornil(L, oi)) return c;
  if (lua_getfield(L, oi, "comm") != LUA_TNIL) {
    h = lua_tointegerx(L, -1, &ok);
    if (!ok || h < INT_MIN || h > INT_MAX)
      fail(L, "linalg.mpi.%s: option 'comm' must be an integer Fortran handle "
                 "(MPI_Comm_c2f), got %s", fname, luaL_typename(L, -1));
    c = MPI_Comm_f2c((MPI_Fint)h);
    if (c == NULL || c == MPI_COMM_NULL)
      fail(L, "linalg.mpi.%s: option 'comm' (%d) is not a communicator", fname, (int)h);
  }
  lua_pop(L, 1);
  return c;
}

static int optdet(lua_State *L, int oi, const char *fname) {
  int t, v = 0;
  if (oi == 0 || lua_isnoneornil(L, oi)) return 0;
  t = lua_getfield(L, oi, "deterministic");
  if (t == LUA_TBOOLEAN) v = lua_toboolean(L, -1);
  else if (t != LUA_TNIL)
    fail(L, "linalg.mpi.%s: option 'deterministic' must be true or false, got %s",
               fname, luaL_typename(L, -1));
  lua_pop(L, 1);
  return v;
}

/* Options table at oi: only the keys in keys. */
static void checkopts(lua_State *L, int oi, const char *fname, const char *const keys[]) {
  if (lua_isnoneornil(L, oi)) return;
  if (!lua_istable(L, oi))
    fail(L, "linalg.mpi.%s: bad argument #%d (options table expected, got %s)", fname,
               oi, luaL_typename(L, oi));
  lua_pushnil(L);
  while (lua_next(L, oi)) {
    int i, known = 0;
    lua_pop(L, 1);
    for (i = 0; keys[i] && !known; i++)
      known = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), keys[i]) == 0;
    if (!known) {
      const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1);
      fail(L, "linalg.mpi.%s: unknown option '%s'", fname, k);
    }
  }
}

/* ------------------------------------------------------------ the reduction */

/* G.a = bytes in, G.b = bytes inout (both validated), a merged with b into inout */
static void mergebytes(const unsigned char *in, unsigned char *inout) {
  int n, k;
  if (lak_lsq_header(in, G.len, &n, &k) || n != G.a.n || k != G.a.k ||
      lak_lsq_header(inout, G.len, &n, &k) || n != G.a.n || k != G.a.k ||
      lak_lsq_decode(in, &G.a) || lak_lsq_decode(inout, &G.b) ||
      G.a.rows > INT64_MAX - G.b.rows || lak_lsq_merge(&G.a, &G.b, G.work) != 0 ||
      !lak_lsq_finite(&G.a)) {
    G.failed = 1;
    memset(inout, 0, G.len);   /* fails validation wherever it arrives */
    return;
  }
  lak_lsq_encode(&G.a, inout);
}

static void lsq_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int i;
  (void)dt;
  for (i = 0; i < *len; i++)
    mergebytes((const unsigned char *)in + (size_t)i * G.len,
               (unsigned char *)inout + (size_t)i * G.len);
}

/* a state's arrays carved from p */
static double *carve(lak_Lsq *s, int n, int k, double *p) {
  s->n = n; s->k = k; s->rows = 0;
  s->R = p; s->C = p + (size_t)n * n; s->rss = s->C + (size_t)n * k;
  return s->rss + k;
}

/* Fixed order: a binomial tree (rank r receives from r + d for d = 1, 2,
** 4, ... while r is a multiple of 2d, and merges in that order), so the
** result depends only on the states, not on timing. Result on rank 0. */
static void treereduce(lua_State *L, MPI_Comm comm, unsigned char *mine, unsigned char *buf) {
  int rank, size, rc;
  long long d;   /* 2 d may pass INT_MAX */
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (d = 1; d < size; d *= 2) {
    if (rank % (2 * d) == d) {
      rc = MPI_Send(mine, (int)G.len, MPI_BYTE, (int)(rank - d), 77, comm);
      checkmpi(L, "allreduce", "MPI_Send", rc);
      break;
    }
    if (rank % (2 * d) == 0 && rank + d < size) {
      rc = MPI_Recv(buf, (int)G.len, MPI_BYTE, (int)(rank + d), 77, comm, MPI_STATUS_IGNORE);
      checkmpi(L, "allreduce", "MPI_Recv", rc);
      mergebytes(buf, mine);   /* inout = buf merged into mine: same op order */
    }
  }
}

/* Every rank learns whether any rank failed (bad nonzero: returns 1 on
** every rank) and whether all agree on deterministic (det), n and k (raises
** the same error on every rank if not), before any rank starts a reduction
** that the others would not join. */
static int agree(lua_State *L, MPI_Comm comm, const char *fname, int det, int n, int k, int bad) {
  int v[7], r[7], rc;
  v[0] = n; v[1] = -n; v[2] = k; v[3] = -k; v[4] = -bad; v[5] = det; v[6] = -det;
  rc = MPI_Allreduce(v, r, 7, MPI_INT, MPI_MIN, comm);
  checkmpi(L, fname, "MPI_Allreduce", rc);
  if (r[4]) return 1;
  if (r[5] != -r[6])
    fail(L, "linalg.mpi.%s: ranks disagree on option 'deterministic' (true on some, "
            "false on others)", fname);
  if (r[0] != -r[1] || r[2] != -r[3])
    fail(L, "linalg.mpi.%s: states differ across ranks (n from %d to %d, k from %d to %d)",
               fname, r[0], -r[1], r[2], -r[3]);
  return 0;
}

/* prepare(state, fname) -> bytes, buffers (2 x bytes), workspace: what
** allreduce needs, made in a protected call so that a failure (not a state,
** out of memory) reaches every rank instead of leaving them waiting */
static int prepare(lua_State *L) {
  const char *fname = lua_tostring(L, 2);
  const unsigned char *p;
  size_t len;
  int n, k;
  if (luaL_getmetafield(L, 1, "__name") != LUA_TSTRING ||
      strcmp(lua_tostring(L, -1), "linalg.lsq_state") != 0)
    fail(L, "linalg.mpi.%s: bad argument #1 (lsq_state expected, got %s)", fname,
         luaL_typename(L, 1));
  lua_settop(L, 2);
  lua_getfield(L, 1, "tobytes");
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);                                        /* 3: bytes */
  p = (const unsigned char *)lua_tolstring(L, 3, &len);
  if (lak_lsq_header(p, len, &n, &k)) fail(L, "linalg.mpi.%s: bad state", fname);
  if (len > INT_MAX)
    fail(L, "linalg.mpi.%s: the state (n = %d, k = %d) is too large for one MPI message",
         fname, n, k);
  memcpy(lua_newuserdatauv(L, 2 * len, 0), p, len);         /* 4 */
  lua_newuserdatauv(L, (2 * ((size_t)n * ((size_t)n + (size_t)k) + (size_t)k) +
                        lak_lsq_merge_work(n, k)) * sizeof(double), 0);
  return 3;
}

/* Merges the state at idx over comm; pushes the merged state (every rank
** gets rank 0's bytes, so x is bit-identical everywhere). */
static void allreduce(lua_State *L, int idx, MPI_Comm comm, int det, const char *fname) {
  size_t len = 0;
  int n = 0, k = 0, rc, ok;
  unsigned char *mine = NULL, *buf;
  double *w = NULL;
  lua_pushcfunction(L, prepare);
  lua_pushvalue(L, idx);
  lua_pushstring(L, fname);
  ok = lua_pcall(L, 2, 3, 0) == LUA_OK;
  if (ok) {
    const unsigned char *p = (const unsigned char *)lua_tolstring(L, -3, &len);
    (void)lak_lsq_header(p, len, &n, &k);                   /* checked by prepare */
    mine = (unsigned char *)lua_touserdata(L, -2);
    w = (double *)lua_touserdata(L, -1);
  }
  if (agree(L, comm, fname, det, n, k, !ok)) {
    if (!ok) lua_error(L);
    fail(L, "linalg.mpi.%s: the call failed on another rank", fname);
  }
  buf = mine + len;
  G.len = len; G.failed = 0;
  G.work = carve(&G.b, n, k, carve(&G.a, n, k, w));
  if (det) treereduce(L, comm, mine, buf);
  else {
    MPI_Datatype t;
    MPI_Op op;
    memcpy(buf, mine, len);
    checkmpi(L, fname, "MPI_Type_contiguous", MPI_Type_contiguous((int)len, MPI_BYTE, &t));
    MPI_Type_commit(&t);
    MPI_Op_create(lsq_op, 1, &op);
    rc = MPI_Allreduce(buf, mine, 1, t, op, comm);
    MPI_Op_free(&op);
    MPI_Type_free(&t);
    checkmpi(L, fname, "MPI_Allreduce", rc);
  }
  rc = MPI_Bcast(mine, (int)len, MPI_BYTE, 0, comm);
  checkmpi(L, fname, "MPI_Bcast", rc);
  if (agree(L, comm, fname, det, n, k, G.failed))
    fail(L, "linalg.mpi.%s: merging the states failed on some rank", fname);
  lua_pushvalue(L, lua_upvalueindex(1));              /* la.lsq_state(bytes) */
  lua_pushlstring(L, (const char *)mine, len);
  lua_call(L, 1, 1);
}

/* ------------------------------------------------------------ functions */

/* rank and size: an integer the communicator gives (MPI_Comm_rank and
** MPI_Comm_size have one signature) */
static int commint(lua_State *L, const char *fname, const char *call,
                   int (*query)(MPI_Comm, int *)) {
  static const char *const keys[] = {"comm", NULL};
  int v;
  live(L, fname);
  checkopts(L, 1, fname, keys);
  checkmpi(L, fname, call, query(getcomm(L, 1, fname), &v));
  lua_pushinteger(L, v);
  return 1;
}

/** The calling process's rank in the communicator (0-based).
-- @function rank
-- @tparam[opt] table opts `comm`: a Fortran communicator handle */
static int l_rank(lua_State *L) { return commint(L, "rank", "MPI_Comm_rank", MPI_Comm_rank); }

/** The number of ranks in the communicator.
-- @function size */
static int l_size(lua_State *L) { return commint(L, "size", "MPI_Comm_size", MPI_Comm_size); }

/** Waits for every rank.
-- @function barrier */
static int l_barrier(lua_State *L) {
  static const char *const keys[] = {"comm", NULL};
  live(L, "barrier");
  checkopts(L, 1, "barrier", keys);
  checkmpi(L, "barrier", "MPI_Barrier", MPI_Barrier(getcomm(L, 1, "barrier")));
  return 0;
}

/** The least-squares state merged over all ranks: `mpi.allreduce(s [, opts])`
-- (every rank calls it; `s` is not changed). MPI_Allreduce with a reduction
-- operator on the serialized state; `opts.deterministic = true` merges in a
-- fixed binomial-tree order instead (bit-for-bit reproducible). Every rank
-- gets the same bytes.
-- @function allreduce */
static int l_allreduce(lua_State *L) {
  static const char *const keys[] = {"comm", "deterministic", NULL};
  live(L, "allreduce");
  checkopts(L, 2, "allreduce", keys);
  allreduce(L, 1, getcomm(L, 2, "allreduce"), optdet(L, 2, "allreduce"), "allreduce");
  return 1;
}

/* calls the function at the top with nargs below it; on error, its message
** (renamed to fname) is left at the top and 0 returned */
static int tryc(lua_State *L, int nargs, int nres, const char *fname) {
  if (lua_pcall(L, nargs, nres, 0) == LUA_OK) return 1;
  if (lua_type(L, -1) == LUA_TSTRING) {
    const char *e = lua_tostring(L, -1), *c = strstr(e, ": ");
    if (strncmp(e, "linalg.", 7) == 0 && c) {
      lua_pushfstring(L, "linalg.mpi.%s%s", fname, c);
      lua_remove(L, -2);
    }
  }
  return 0;
}

/** Least squares over rows spread across ranks: `mpi.lstsq(A_local,
-- b_local [, opts])` -> `x, residuals, rank, sv` (la.lstsq's contract), the
-- same on every rank. Each rank passes its own rows (possibly none: a 0 x n
-- A); `opts` takes `comm`, `deterministic` and la.lstsq's `method`, `rcond`,
-- `ridge` (applied once).
-- @function lstsq */
static int l_lstsq(lua_State *L) {
  static const char *const keys[] = {"comm", "deterministic", "method", "rcond", "ridge", NULL};
  static const char *const solvekeys[] = {"method", "rcond", "ridge", NULL};
  MPI_Comm comm;
  int det, ok, i;
  live(L, "lstsq");
  lua_settop(L, 3);
  checkopts(L, 3, "lstsq", keys);
  comm = getcomm(L, 3, "lstsq");
  det = optdet(L, 3, "lstsq");
  lua_newtable(L);                                          /* 4: solve's options */
  for (i = 0; solvekeys[i] && !lua_isnil(L, 3); i++) {
    lua_getfield(L, 3, solvekeys[i]);
    lua_setfield(L, 4, solvekeys[i]);
  }
  /* 5: the local state, lsq_state(n, k) with the rows added; a failure on
  ** any rank stops every rank (none is left waiting in a collective) */
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  ok = tryc(L, 2, 1, "lstsq");
  if (agree(L, comm, "lstsq", det, 0, 0, !ok)) {
    if (!ok) return lua_error(L);
    return fail(L, "linalg.mpi.lstsq: another rank's rows were rejected");
  }
  allreduce(L, 5, comm, det, "lstsq");                      /* the merged state */
  lua_getfield(L, -1, "solve");
  lua_pushvalue(L, -2);
  lua_pushvalue(L, 4);
  if (!tryc(L, 2, 4, "lstsq")) return lua_error(L);
  return 4;
}

/* ------------------------------------------------------------ loading */

/* At process exit, if MPI was initialized here and still runs: status 0
** (the script ended, os.exit(0)) finalizes it; any other status (lua.c
** after an uncaught error, os.exit(n), busted with failures) aborts the job
** when it has other ranks, as `python -m mpi4py` does: ranks waiting for
** this one in a collective would hang, and so would its own MPI_Finalize,
** which waits for them. The error itself was reported by whoever caught it
** (lua.c prints it before exiting). */
static void atend(int status, void *unused) {
  int fin = 1, rank = 0, size = 1;
  (void)unused;
  if (!owned || MPI_Finalized(&fin) != MPI_SUCCESS || fin) return;
  owned = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (status != 0 && size > 1) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fflush(stdout);
    fprintf(stderr, "linalg.mpi: rank %d of %d is exiting with status %d without finalizing "
            "MPI (an uncaught error or os.exit): MPI_Abort ends the job\n", rank, size, status);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, status);
  }
  MPI_Finalize();
}

/* on_exit (glibc) passes the exit status; elsewhere every exit finalizes */
#if defined(__GLIBC__)
static void atexit_status(void) { (void)on_exit(atend, NULL); }
#else
static void finalize(void) { atend(0, NULL); }
static void atexit_status(void) { (void)atexit(finalize); }
#endif

/* the local half of mpi.lstsq, in Lua: it only uses linalg's public API */
static const char local_lua[] =
  "local la = ...\n"
  "return function(A, b)\n"
  "  if not la.is_matrix(A) then error('linalg.lstsq: bad argument #1 (matrix expected, got '"
  " .. type(A) .. ')', 0) end\n"
  "  if not la.is_matrix(b) then error('linalg.lstsq: bad argument #2 (matrix expected, got '"
  " .. type(b) .. ')', 0) end\n"
  "  local m, n = A:shape()\n"
  "  local p, k = b:shape()\n"
  "  if p == 1 and k == m and m ~= 1 then k = 1 end\n"
  "  return la.lsq_state(n, k):add(A, b)\n"
  "end\n";

static const luaL_Reg funcs[] = {
  {"rank", l_rank}, {"size", l_size}, {"barrier", l_barrier},
  {"allreduce", l_allreduce}, {"lstsq", l_lstsq}, {NULL, NULL}
};

/* Keeps this library (and with it libmpi) loaded until the process exits:
** MPI cannot be initialized again once finalized, so it is finalized at
** exit, not when a Lua state closes and unloads its C libraries. */
static void pin(void) {
#if defined(RTLD_NODELETE)
  Dl_info info;
  if (dladdr((void *)(size_t)&pin, &info) && info.dli_fname)
    (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
#endif
}

static int initmpi(void) {
  int provided;
  return MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
}

LMPI_API int luaopen_linalg_mpi(lua_State *L) {
  int init = 0, fin = 0;
  pin();
  MPI_Finalized(&fin);
  if (fin) return fail(L, "linalg.mpi: MPI was already finalized");
  MPI_Initialized(&init);
  if (!init) {
    if (initmpi() != MPI_SUCCESS)
      return fail(L, "linalg.mpi: MPI_Init_thread failed");
    owned = 1;
    atexit_status();
  }
  lua_getglobal(L, "require");
  lua_pushliteral(L, "linalg");
  lua_call(L, 1, 1);                                        /* la */
  if (luaL_loadbuffer(L, local_lua, sizeof local_lua - 1, "=linalg.mpi") != LUA_OK)
    return lua_error(L);
  lua_pushvalue(L, -2);
  lua_call(L, 1, 1);                                        /* la, local */
  lua_newtable(L);
  lua_getfield(L, -3, "lsq_state");
  lua_pushvalue(L, -3);
  luaL_setfuncs(L, funcs, 2);                               /* upvalues: lsq_state, local */
  lua_pushboolean(L, owned);
  lua_setfield(L, -2, "owns_mpi");
  return 1;
}
