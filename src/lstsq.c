/*
** lstsq.c: least squares. lstsq on LAPACK's drivers (gelsd, gels, gelsy)
** for problems that fit as they are; la.lsq_state, the mergeable state
** (TSQR, kernels/tsqr.c) that is also lstsq's path for tall problems; nnls
** (kernels/nnls.c). lstsq and the state's solve are written once for both
** element types (lstsq_gen.h): a float32 problem runs on LAPACK's s
** routines and float32 TSQR. la.lsq_state is float64 (it accumulates rows
** from anywhere, serializes and merges across ranks in float64), and so is
** nnls inside (its active-set decisions need it; init.lua's f32wrap
** rounds its x back to float32). The state is its own userdata type
** (metatable "linalg.lsq_state"): an lak_Lsq header with R, C and rss
** following it in the same block.
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>
#include <cblas.h>
#include <float.h>

#include "helpers.h"
#include "kernels/kernels.h"

typedef enum { LS_SVD, LS_QR, LS_QRP } LsMethod;

typedef struct LsProblem {
  la_Mat *W;       /* copy of A, overwritten */
  la_Mat *X;       /* max(m, n) x k: b on entry, x (and residual rows) on exit */
  int m, n, k;
  double rcond;
  const char *fname;
} LsProblem;

typedef struct Solve {
  la_Mat *W;     /* r x n, overwritten */
  la_Mat *X;     /* n x k: C on entry, x on exit */
  int r, n, k;
  double rcond;
  const char *fname;
} Solve;

/* a batch's member: sizes, gelsd's workspace sizes, offsets into the
** element pool (w: A's copy, x: b then x, s: sv) */
typedef struct BatchItem {
  int m, n, k, kk, ldx, lwork, liwork, rank, info;
  size_t w, x, s;
  double rcond;
} BatchItem;

/* the batch: its members, the pool, each thread's workspace (lwork
** elements, then gelsd's iwork) */
typedef struct Batch { BatchItem *it; void *pool; void *work; int lwork; } Batch;

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* the state's type name, and the key of its metatable in the registry */
#define LSQ_NAME "linalg.lsq_state"

/* a state's header rounded up so the elements after it are 16-byte aligned */
#define LSQ_HDR ((sizeof(lak_Lsq) + 15) & ~(size_t)15)


/* ------------------------------------------------------------ lstsq's options */

static const char *const ls_methods[] = {"svd", "qr", "qrp", NULL};

static const char *const ls_keys[] = {"method", "rcond", "ridge", "check_finite", "weights",
                                     NULL};

/* lstsq's weights (option at 3): a vector w of m finite weights >= 0 makes
** the problem diag(sqrt(w)) A, diag(sqrt(w)) b, whose copies (either type,
** as A's and b's) replace A and b at 1 and 2. Returns 0 without weights. */
static int weigh(lua_State *L, const char *fname, la_Mat **A, la_Mat **B) {
  la_Mat *W, *Aw, *Bw;
  int i, j, m = (*A)->rows;
  if (!lua_istable(L, 3)) return 0;
  lua_getfield(L, 3, "weights");
  if (lua_isnil(L, -1)) { lua_pop(L, 1); return 0; }
  if (!lua_istable(L, -1) && !la_testany(L, -1))
    return la_error(L, fname, "option 'weights' must be a vector, got %s", la_typename(L, -1));
  W = la_checkargany(L, lua_gettop(L), fname, 3);   /* an error names the options' argument */
  if (!la_isvec(W) || (lua_Integer)W->rows * W->cols != m)
    return la_error(L, fname, "weights is %dx%d, expected %d weights (one per row of A)",
                    W->rows, W->cols, m);
  for (i = 0; i < m; i++) {
    double w = W->cols == 1 ? la_get(W, i, 0) : la_get(W, 0, i);
    if (isnan(w)) return la_error(L, fname, "weights(%d) is NaN", i + 1);
    if (!(w >= 0 && w < HUGE_VAL))
      return la_error(L, fname, "weights(%d) is %f, expected a finite weight >= 0", i + 1, w);
  }
  Aw = la_copyof(L, *A, fname);
  Bw = la_copyof(L, *B, fname);
  for (i = 0; i < m; i++) {
    double r = sqrt(W->cols == 1 ? la_get(W, i, 0) : la_get(W, 0, i));
    for (j = 0; j < Aw->cols; j++) la_put(Aw, i, j, r * la_get(Aw, i, j));
    for (j = 0; j < Bw->cols; j++) la_put(Bw, i, j, r * la_get(Bw, i, j));
  }
  lua_replace(L, 2);
  lua_replace(L, 1);
  lua_pop(L, 1);                         /* W */
  *A = Aw; *B = Bw;
  return 1;
}

/* Tall problems (m >= 4n) go to the least-squares state (sequential TSQR
** down to n x n); the rest to LAPACK directly. */
static int use_tsqr(int m, int n) {
  return n > 0 && m / 4 >= n;
}

/* lstsq's LAPACK drivers and the state's solve for each element type
** (ls_svd_d, ls_svd_s, ..., l_lstsq_d, l_lstsq_s) */
#define LA_GENERIC_FILE "lstsq_gen.h"
#include "generate.h"

/* ------------------------------------------------------------ the state */

/* An empty la.lsq_state (float64) for n unknowns and k right-hand sides
** (pushes 1). */
static lak_Lsq *newstate(lua_State *L, const char *fname, lua_Integer n, lua_Integer k) {
  lak_Lsq *s = newstate_d(L, fname, n, k);
  luaL_setmetatable(L, LSQ_NAME);
  return s;
}

/* The state at idx or NULL; the size check keeps a userdata given the
** state's metatable by debug.setmetatable from being read as a state. */
static lak_Lsq *teststate(lua_State *L, int idx) {
  lak_Lsq *s = (lak_Lsq *)luaL_testudata(L, idx, LSQ_NAME);
  return s && lua_rawlen(L, idx) >= sizeof(lak_Lsq) ? s : NULL;
}

static lak_Lsq *checkstate(lua_State *L, int idx, const char *fname) {
  lak_Lsq *s = teststate(L, idx);
  if (!s) la_typeerror(L, fname, idx, "lsq_state");
  return s;
}

/* Folds t into s (pushes nothing). */
static void mergeinto(lua_State *L, lak_Lsq *s, const lak_Lsq *t, const char *fname) {
  int top = lua_gettop(L), info;
  lak_Lsq w;
  if (t->n != s->n || t->k != s->k)
    la_error(L, fname, "states differ in shape (n = %d, k = %d and n = %d, k = %d)",
             s->n, s->k, t->n, t->k);
  if (s->rows > INT64_MAX - t->rows) la_error(L, fname, "row count overflows");
  w = scratchcopy_d(L, s);
  info = lak_lsq_merge(&w, t, la_scratch(L, lak_lsq_merge_work(s->n, s->k)));
  la_checkinfo(L, fname, "dtpqrt/dtpmqrt", info);
  commit_d(L, s, &w, fname, 0);
  lua_settop(L, top);
}

/* method, rcond and ridge of s:solve's options at oi (rcond's default
** needs the row count) */
static int solveopts(lua_State *L, int oi, const lak_Lsq *s, double *rcond, double *ridge,
                     const char *fname) {
  static const char *const methods[] = {"svd", "qr", "qrp", NULL};
  static const char *const keys[] = {"method", "rcond", "ridge", NULL};
  double m = (double)s->rows;
  int method;
  la_checkopts(L, oi, fname, keys);
  method = la_optenum(L, oi, "method", 0, methods, fname);
  *ridge = la_optnum(L, oi, "ridge", 0.0, fname);
  if (isnan(*ridge)) la_error(L, fname, "ridge is NaN");
  if (!(*ridge >= 0 && *ridge < HUGE_VAL))
    la_error(L, fname, "ridge must be finite and >= 0, got %f", *ridge);
  *rcond = la_optnum(L, oi, "rcond", DBL_EPSILON * (m > s->n ? m : s->n), fname);
  if (isnan(*rcond)) la_error(L, fname, "rcond is NaN");
  return method;
}

/** An empty least-squares state, or one restored from bytes.
-- `la.lsq_state(n [, k])`: for `n` unknowns and `k` right-hand sides
-- (default 1), holding no rows (the identity for `merge`).
-- `la.lsq_state(bytes)`: the state `s:tobytes()` wrote; every field is
-- validated (magic, version, sizes, checksum, values).
-- @function lsq_state
-- @tparam int|string n unknowns, or the bytes of a state
-- @tparam[opt=1] int k right-hand sides
-- @return the state, with methods `add`, `merge`, `tobytes`, `solve` and field `rows`
-- @usage local s = la.lsq_state(3); s:add(A1, b1); s:add(A2, b2); local x = s:solve()
*/
static int l_lsq_state(lua_State *L) {
  const char *F = la_fname(L);
  if (lua_type(L, 1) == LUA_TSTRING) {
    size_t len;
    const unsigned char *p = (const unsigned char *)lua_tolstring(L, 1, &len);
    int n, k;
    const char *err = lak_lsq_header(p, len, &n, &k);
    lak_Lsq *s;
    if (!lua_isnoneornil(L, 2))        /* the bytes hold k */
      return la_argerror(L, F, 2, "lsq_state(bytes) takes no other argument");
    if (err) return la_error(L, F, "bad bytes: %s", err);
    s = newstate(L, F, n, k);
    err = lak_lsq_decode(p, s);
    if (err) return la_error(L, F, "bad bytes: %s", err);
    return 1;
  }
  if (lua_type(L, 1) != LUA_TNUMBER) return la_typeerror(L, F, 1, "integer or string");
  newstate(L, F, la_checkint(L, F, 1), lua_isnoneornil(L, 2) ? 1 : la_checkint(L, F, 2));
  return 1;
}

/** Folds rows in: `s:add(A, b)` with `A` m x n, `b` m x k (a vector when
-- k = 1). NaN or Inf is an error. Returns s.
-- @function lsq_state:add */
static int m_add(lua_State *L) {
  const char *F = la_fname(L);
  lak_Lsq *s = checkstate(L, 1, F);
  la_Mat *A = la_check(L, 2, F), *B = la_rhs(L, 3, F, A->rows);
  la_checkfinite(L, A, F, "A", 1);
  la_checkfinite(L, B, F, "b", 1);
  addrows_d(L, s, A, B, F, 0);
  lua_settop(L, 1);                      /* s */
  return 1;
}

/** Folds another state of the same n and k in: `s:merge(t)` (t is not
-- changed). Associative and commutative up to rounding. Returns s.
-- @function lsq_state:merge */
static int m_merge(lua_State *L) {
  const char *F = la_fname(L);
  lak_Lsq *s = checkstate(L, 1, F), *t = checkstate(L, 2, F);
  mergeinto(L, s, t, F);
  lua_settop(L, 1);                      /* s */
  return 1;
}

/** The state as bytes: versioned, little-endian, checksummed; restore
-- with `la.lsq_state(bytes)`.
-- @function lsq_state:tobytes */
static int m_tobytes(lua_State *L) {
  lak_Lsq *s = checkstate(L, 1, la_fname(L));
  size_t len = lak_lsq_bytes(s->n, s->k);
  unsigned char *p = LA_SCRATCH(L, unsigned char, len);
  lak_lsq_encode(s, p);
  lua_pushlstring(L, (const char *)p, len);
  return 1;
}

/** Solves the least-squares problem of the rows added: `s:solve([opts])` ->
-- `x, residuals, rank, sv` with `la.lstsq`'s contract and options
-- (`method` = "svd" | "qr" | "qrp", `rcond`, `ridge`, applied here once).
-- @function lsq_state:solve */
static int m_solve(lua_State *L) {
  const char *F = la_fname(L);
  lak_Lsq *s = checkstate(L, 1, F);
  double rcond, ridge;
  int method = solveopts(L, 2, s, &rcond, &ridge, F);
  lua_settop(L, 2);                      /* s, opts; solve pushes above */
  return solve_d(L, s, (LsMethod)method, rcond, ridge, F);
}

static int m_index(lua_State *L) {
  lak_Lsq *s = checkstate(L, 1, "lsq_state");
  if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "rows") == 0) {
    lua_pushinteger(L, (lua_Integer)s->rows);
    return 1;
  }
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  return 1;
}

static int m_tostring(lua_State *L) {
  lak_Lsq *s = checkstate(L, 1, "lsq_state");
  la_pushfstring(L, "lsq_state (n = %d, k = %d, rows = %I)", s->n, s->k,
                  (lua_Integer)s->rows);
  return 1;
}

/* ------------------------------------------------------------ lstsq, nnls */

/* float32 when every matrix of the lists at 1 and 2 is float32 (tables do
** not vote), else float64: la_argtype's rule over the batch */
static int batchtype(lua_State *L, int nb) {
  int i, j, any = 0;
  for (j = 1; j <= 2; j++)
    for (i = 1; i <= nb; i++) {
      la_Mat *M;
      lua_rawgeti(L, j, i);
      M = la_testany(L, -1);
      lua_pop(L, 1);
      if (M && M->dtype != LA_F32) return LA_F64;
      any |= M != NULL;
    }
  return any ? LA_F32 : LA_F64;
}

/* lstsq(As, bs [, {rcond, check_finite}]): the batch's checks, then the
** pass of its type */
static int lstsq_batch(lua_State *L, const char *F) {
  static const char *const keys[] = {"method", "rcond", "check_finite", NULL};
  int nb, finiteb;
  double rcond = NAN;                    /* NumPy's None: eps * max(m, n) per problem */
  if (!lua_istable(L, 2) || la_testany(L, 2))
    return la_error(L, F, "bs must be a list of right-hand sides (one per matrix of As), got %s",
                    la_typename(L, 2));
  nb = (int)lua_rawlen(L, 1);
  if ((int)lua_rawlen(L, 2) != nb)
    return la_error(L, F, "As has %d problems but bs has %d", nb, (int)lua_rawlen(L, 2));
  la_checkopts(L, 3, F, keys);
  if (la_optenum(L, 3, "method", LS_SVD, ls_methods, F) != LS_SVD)
    return la_error(L, F, "a batch is solved by method 'svd' only");
  if (lua_istable(L, 3)) {
    lua_getfield(L, 3, "rcond");
    if (!lua_isnil(L, -1)) {
      rcond = la_optnum(L, 3, "rcond", 0, F);
      if (isnan(rcond)) return la_error(L, F, "rcond is NaN");
    }
    lua_pop(L, 1);
  }
  finiteb = la_optcheckfinite(L, 3, F);
  return batchtype(L, nb) == LA_F32 ? batch_s(L, F, nb, rcond, finiteb)
                                    : batch_d(L, F, nb, rcond, finiteb);
}

/* lstsq(A, b [, opts]): the pass of A's and b's type (la_argtype):
** float32 through LAPACK's s routines and float32 TSQR, float64 (also
** for mixed types) through the d routines. lstsq(As, bs [, opts]): a
** batch (lstsq_batch). */
static int l_lstsq(lua_State *L) {
  if (la_isbatch(L, 1, 0)) return lstsq_batch(L, la_fname(L));
  return la_argtype(L, 1, 2) == LA_F32 ? l_lstsq_s(L) : l_lstsq_d(L);
}

/* nnls(A, b) -> x >= 0 minimising ||A x - b||, and the residual norm */
static int l_nnls(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *B, *x;
  int p, n, lwork, it, ldb;
  lapack_int info, rank, jp = 0;
  double q, *work, *bcol, nr;
  int *iwork;
  B = la_rhs(L, 2, F, A->rows);
  p = A->rows; n = A->cols;
  if (B->rows != p || B->cols != 1)
    la_error(L, F, "A is %dx%d but b is %dx%d (expected %dx1)", p, n, B->rows, B->cols, p);
  static const char *const keys[] = {"check_finite", NULL};
  la_checkopts(L, 3, F, keys);
  (void)la_optcheckfinite(L, 3, F);  /* validated; the active-set loop compares both */
  la_checkfinite(L, A, F, "A", 1);
  la_checkfinite(L, B, F, "b", 1);
  ldb = p > n ? p : n;
  info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, p, n, 1, A->data, A->ld, B->data,
                             ldb > 0 ? ldb : 1, &jp, DBL_EPSILON, &rank, &q, -1);
  la_checkinfo(L, F, "dgelsy", info);
  lwork = (int)(q > 1 ? q : 1);
  work = la_scratch(L, lak_nnls_work(p, n, lwork));
  iwork = LA_SCRATCH(L, int, 3 * (size_t)n);      /* passive set, pivots, indices */
  bcol = la_scratch(L, (size_t)p);
  lak_copy(p, 1, B->data, B->ld, bcol, p > 0 ? p : 1);
  x = la_new(L, F, n, 1);
  it = lak_nnls(p, n, A->data, A->ld, bcol, x->data, work, lwork, iwork);
  if (it < 0) la_error(L, F, "did not converge in %d iterations", 3 * n + 3);
  cblas_dgemv(CblasColMajor, CblasNoTrans, p, n, -1.0, A->data, A->ld, x->data, 1,
              1.0, bcol, 1);
  nr = cblas_dnrm2(p, bcol, 1);
  lua_pushnumber(L, nr);
  return 2;
}

static const la_Reg funcs[] = {
  {"lstsq", l_lstsq, 2 + LA_OPTS}, {"nnls", l_nnls, 2 + LA_OPTS}, {NULL, NULL, 0}
};

static const la_Reg methods[] = {
  {"lsq_state.add", m_add, 3}, {"lsq_state.merge", m_merge, 2},
  {"lsq_state.tobytes", m_tobytes, 1}, {"lsq_state.solve", m_solve, 1 + LA_OPTS},
  {NULL, NULL, 0}
};

static const la_Reg state_funcs[] = {{"lsq_state", l_lsq_state, 2}, {NULL, NULL, 0}};

/* The methods into the table at -1, each named "lsq_state.<method>" for
** its messages and registered under the part after the dot. */
static void setmethods(lua_State *L) {
  const la_Reg *r;
  for (r = methods; r->name; r++) {
    la_pushfunc(L, r, r->name, 0);
    lua_setfield(L, -2, strchr(r->name, '.') + 1);
  }
}

/* s.k = v: a state has no fields to set (s.rows is read only) */
static int m_newindex(lua_State *L) { return la_nofields(L, "lsq_state", "an lsq_state", "s"); }

/* registers la.lsq_state into the module table at -1 */
static void open_state(lua_State *L) {
  lua_newtable(L);                                   /* the state's metatable */
  lua_pushliteral(L, LSQ_NAME);
  lua_setfield(L, -2, "__name");
  lua_pushliteral(L, LSQ_NAME);        /* getmetatable(s) gives the name only, as for matrices */
  lua_setfield(L, -2, "__metatable");
  lua_pushcfunction(L, m_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, m_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_newtable(L);                                   /* methods */
  setmethods(L);
  lua_pushcclosure(L, m_index, 1);
  lua_setfield(L, -2, "__index");
  lua_setfield(L, LUA_REGISTRYINDEX, LSQ_NAME);      /* replaced on a reload */
  la_setfuncs(L, state_funcs, 0);
}

void la_open_lstsq(lua_State *L) {
  la_setfuncs(L, funcs, 0);
  open_state(L);
}
