/*
** llsqstate.c: la.lsq_state, the mergeable least-squares state, and the
** tall path of la.lstsq (a state with every row added, then solved).
** The state is its own userdata type (metatable "linalg.lsq_state"): an
** lak_Lsq header with R, C and rss following it in the same block.
*/
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "lbind.h"
#include "kernels/kernels.h"

#define LSQ_NAME "linalg.lsq_state"

static const double EPS = 2.220446049250313e-16;

/* header rounded up so the doubles after it are 16-byte aligned */
#define LSQ_HDR ((sizeof(lak_Lsq) + 15) & ~(size_t)15)

static const char lsq_key = 'S';   /* the state's metatable in the registry */

/* Pushes an empty state for n unknowns and k right-hand sides. */
static lak_Lsq *newstate(lua_State *L, const char *fname, lua_Integer n, lua_Integer k) {
  lak_Lsq *s;
  size_t cnt;
  if (n < 0 || n > INT_MAX) la_error(L, fname, "n must be in 0..%d, got %I", INT_MAX, n);
  if (k < 0 || k > INT_MAX) la_error(L, fname, "k must be in 0..%d, got %I", INT_MAX, k);
  /* n, k <= INT_MAX: n (n + k) + k < 2^63 fits size_t on 64-bit hosts */
  if ((size_t)n > ((size_t)-1 / sizeof(double) - LSQ_HDR - (size_t)k) / ((size_t)n + (size_t)k + 1))
    la_error(L, fname, "a state for n = %I, k = %I is too large", n, k);
  cnt = (size_t)n * ((size_t)n + (size_t)k) + (size_t)k;
  /* out of memory: an error naming the function (la_scratch) */
  s = (lak_Lsq *)la_scratch(L, LSQ_HDR / sizeof(double) + cnt);
  s->n = (int)n; s->k = (int)k;
  s->R = (double *)(void *)((char *)s + LSQ_HDR);
  s->C = s->R + (size_t)n * (size_t)n;
  s->rss = s->C + (size_t)n * (size_t)k;
  lak_lsq_clear(s);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lsq_key);
  lua_setmetatable(L, -2);
  return s;
}

static lak_Lsq *teststate(lua_State *L, int idx) {
  void *p = lua_touserdata(L, idx);
  int same;
  if (p == NULL || lua_rawlen(L, idx) < sizeof(lak_Lsq) || !lua_getmetatable(L, idx))
    return NULL;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lsq_key);
  same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? (lak_Lsq *)p : NULL;
}

static lak_Lsq *checkstate(lua_State *L, int idx, const char *fname) {
  lak_Lsq *s = teststate(L, idx);
  if (!s) la_typeerror(L, fname, idx, "lsq_state");
  return s;
}

/* Scratch copy of s (pushed) to fold into: s changes only when all went well. */
static lak_Lsq scratchcopy(lua_State *L, const lak_Lsq *s) {
  lak_Lsq w = *s;
  w.R = la_scratch(L, (size_t)s->n * ((size_t)s->n + (size_t)s->k) + (size_t)s->k);
  w.C = w.R + (size_t)s->n * (size_t)s->n;
  w.rss = w.C + (size_t)s->n * (size_t)s->k;
  lak_lsq_copy(s, &w);
  return w;
}

/* w into s when its values are finite. nanb: b was not checked
** (lstsq's check_finite = false), so NaN/Inf in C and rss pass through to
** a NaN result as they do on lstsq's other paths. */
static void commit(lua_State *L, lak_Lsq *s, const lak_Lsq *w, const char *fname, int nanb) {
  lak_Lsq r = *w;
  r.k = 0;                                  /* R alone */
  if (!lak_lsq_finite(&r))
    la_error(L, fname, "A's scale overflows the QR factor (entries near the largest "
             "double); rescale A");
  if (!nanb && !lak_lsq_finite(w))
    la_error(L, fname, "b's scale overflows Q^T b or the residual sums (entries near the "
             "largest double); rescale b");
  lak_lsq_copy(w, s);
}

/* Folds the rows of A and B (shapes checked here, values by the caller) into s. */
static void addrows(lua_State *L, lak_Lsq *s, const la_Mat *A, const la_Mat *B,
                    const char *fname, int nanb) {
  int top = lua_gettop(L), info;
  lak_Lsq w;
  if (A->cols != s->n)
    la_error(L, fname, "A has %d columns but the state has n = %d", A->cols, s->n);
  if (B->rows != A->rows) la_error(L, fname, "A has %d rows but b has %d", A->rows, B->rows);
  if (B->cols != s->k)
    la_error(L, fname, "b has %d columns but the state has k = %d", B->cols, s->k);
  if (s->rows > INT64_MAX - A->rows) la_error(L, fname, "row count overflows");
  if (A->rows == 0) return;
  w = scratchcopy(L, s);
  info = lak_lsq_add(&w, A->rows, A->data, A->ld, B->data, B->ld,
                     la_scratch(L, lak_tsqr_work(A->rows, s->n, s->k)));
  la_checkinfo(L, fname, "dtpqrt/dtpmqrt", info);
  commit(L, s, &w, fname, nanb);
  lua_settop(L, top);
}

static void mergeinto(lua_State *L, lak_Lsq *s, const lak_Lsq *t, const char *fname) {
  int top = lua_gettop(L), info;
  lak_Lsq w;
  if (t->n != s->n || t->k != s->k)
    la_error(L, fname, "states differ in shape (n = %d, k = %d and n = %d, k = %d)",
             s->n, s->k, t->n, t->k);
  if (s->rows > INT64_MAX - t->rows) la_error(L, fname, "row count overflows");
  w = scratchcopy(L, s);
  info = lak_lsq_merge(&w, t, la_scratch(L, lak_lsq_merge_work(s->n, s->k)));
  la_checkinfo(L, fname, "dtpqrt/dtpmqrt", info);
  commit(L, s, &w, fname, 0);
  lua_settop(L, top);
}

/* ------------------------------------------------------------ solve */

typedef struct Solve {
  la_Mat *W;     /* r x n, overwritten */
  la_Mat *X;     /* n x k: C on entry, x on exit */
  int r, n, k;
  double rcond;
  const char *fname;
} Solve;

/* full triangle: the rank check and back substitution; otherwise (svd,
** qrp, or fewer rows than unknowns) lstsq's LAPACK drivers. Pushes sv for
** svd. */
static int tri_solve(lua_State *L, Solve *P, int method) {
  lapack_int info;
  if (method != 1 || P->r != P->n)
    return la_lssolve(L, P->W, P->X, P->r, P->n, P->k, P->rcond, method, P->fname);
  la_rankcheck(L, P->W, P->n, P->rcond, 0, P->fname);
  info = LAPACKE_dtrtrs_work(LAPACK_COL_MAJOR, 'U', 'N', 'N', P->n, P->k, P->W->data,
                             P->W->ld, P->X->data, P->X->ld);
  la_checkinfo(L, P->fname, "dtrtrs", info);
  return P->n;
}

/* The pushed copies W, X of the problem: R's top r rows and C, with
** sqrt(ridge) I merged under R when ridge > 0. */
static void setup(lua_State *L, Solve *P, const lak_Lsq *s, double ridge) {
  int n = s->n, k = s->k, j, info;
  /* no right-hand sides: one zero column is solved for and dropped (LAPACK
  ** rejects nrhs = 0 in some routines) */
  P->n = n; P->k = k > 0 ? k : 1;
  P->r = ridge > 0 || s->rows >= n ? n : (int)s->rows;
  P->W = la_newzero(L, P->fname, P->r, n);
  P->X = la_newzero(L, P->fname, n, P->k);
  lak_copy(P->r, n, s->R, n, P->W->data, P->W->ld);
  lak_copy(P->r, k, s->C, n, P->X->data, P->X->ld);
  if (ridge > 0) {
    lak_Lsq a = *s, t = *s;
    a.R = P->W->data; a.C = P->X->data;
    a.rss = la_scratch(L, (size_t)k);
    t.R = la_scratch(L, (size_t)n * ((size_t)n + (size_t)k) + (size_t)k);
    t.C = t.R + (size_t)n * n; t.rss = t.C + (size_t)n * k;
    lak_lsq_clear(&t);
    for (j = 0; j < n; j++) t.R[j + (ptrdiff_t)j * n] = sqrt(ridge);
    lak_lsq_clear(&a);   /* only rss and rows: R and C are the copies */
    lak_copy(n, n, s->R, n, a.R, n);
    lak_copy(n, k, s->C, n, a.C, n);
    info = lak_lsq_merge(&a, &t, la_scratch(L, lak_lsq_merge_work(n, k)));
    la_checkinfo(L, P->fname, "dtpqrt/dtpmqrt", info);
    lua_pop(L, 3);
  }
}

/* residuals of the data: rss + ||R x - C||^2 for each column (1 x k) */
static void residuals(lua_State *L, const lak_Lsq *s, const la_Mat *x, const char *fname) {
  la_Mat *res = la_new(L, fname, 1, s->k);
  double *D = la_scratch(L, (size_t)s->n * (size_t)s->k);
  int i, j;
  lak_copy(s->n, s->k, s->C, s->n, D, s->n);
  lak_gemm('N', 'N', s->n, s->k, s->n, -1.0, s->R, s->n, x->data, x->ld, 1.0, D, s->n);
  for (j = 0; j < s->k; j++) {
    double t = s->rss[j];
    for (i = 0; i < s->n; i++) t += D[i + (ptrdiff_t)j * s->n] * D[i + (ptrdiff_t)j * s->n];
    res->data[(ptrdiff_t)j * res->ld] = t;
  }
  lua_pop(L, 1);
}

/* Pushes x, residuals | nil, rank, sv | nil (lstsq's contract); method
** 0 svd, 1 qr, 2 qrp; rcond as given (negative: machine precision). */
static int solve(lua_State *L, const lak_Lsq *s, int method, double rcond, double ridge,
                 const char *fname) {
  Solve P;
  la_Mat *x;
  int rank = 0, svidx = 0;
  P.rcond = rcond; P.fname = fname;
  setup(L, &P, s, ridge);
  if (s->rows == 0 || s->n == 0) {
    if (method == 0) { la_new(L, fname, 0, 1); svidx = lua_gettop(L); }
    memset(P.X->data, 0, (size_t)s->n * (size_t)s->k * sizeof(double));
  } else {
    rank = tri_solve(L, &P, method);
    if (method == 0) svidx = lua_gettop(L);
  }
  x = la_new(L, fname, s->n, s->k);
  lak_copy(s->n, s->k, P.X->data, P.X->ld, x->data, x->ld);
  if (rank == s->n && s->rows > s->n) residuals(L, s, x, fname);
  else lua_pushnil(L);
  lua_pushinteger(L, rank);
  if (svidx) lua_pushvalue(L, svidx); else lua_pushnil(L);
  return 4;
}

int la_lsq_fit(lua_State *L, const la_Mat *A, const la_Mat *B, int method, double rcond,
               double ridge, int nanb, const char *fname) {
  lak_Lsq *s = newstate(L, fname, A->cols, B->cols);
  addrows(L, s, A, B, fname, nanb);
  return solve(L, s, method, rcond, ridge, fname);
}

/* ------------------------------------------------------------ bindings */

/* method, rcond and ridge of s:solve's options at oi (rcond's default
** needs the row count) */
static int solveopts(lua_State *L, int oi, const lak_Lsq *s, double *rcond, double *ridge) {
  static const char *const methods[] = {"svd", "qr", "qrp", NULL};
  static const char *const keys[] = {"method", "rcond", "ridge", NULL};
  const char *fname = "lsq_state.solve";
  double m = (double)s->rows;
  int method;
  la_checkopts(L, oi, fname, keys);
  method = la_optenum(L, oi, "method", 0, methods, fname);
  *ridge = la_optnum(L, oi, "ridge", 0.0, fname);
  if (!(*ridge >= 0 && *ridge < HUGE_VAL))
    la_error(L, fname, "ridge must be finite and >= 0, got %f", *ridge);
  *rcond = la_optnum(L, oi, "rcond", EPS * (m > s->n ? m : s->n), fname);
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
  const char *fname = "lsq_state";
  if (lua_type(L, 1) == LUA_TSTRING) {
    size_t len;
    const unsigned char *p = (const unsigned char *)lua_tolstring(L, 1, &len);
    int n, k;
    const char *err = lak_lsq_header(p, len, &n, &k);
    lak_Lsq *s;
    if (err) return la_error(L, fname, "bad bytes: %s", err);
    s = newstate(L, fname, n, k);
    err = lak_lsq_decode(p, s);
    if (err) return la_error(L, fname, "bad bytes: %s", err);
    return 1;
  }
  if (lua_type(L, 1) != LUA_TNUMBER) return la_typeerror(L, fname, 1, "integer or string");
  newstate(L, fname, la_checkint(L, fname, 1),
           lua_isnoneornil(L, 2) ? 1 : la_checkint(L, fname, 2));
  return 1;
}

/** Folds rows in: `s:add(A, b)` with `A` m x n, `b` m x k (a vector when
-- k = 1). NaN or Inf is an error. Returns s.
-- @function lsq_state:add */
static int m_add(lua_State *L) {
  const char *fname = "lsq_state.add";
  lak_Lsq *s = checkstate(L, 1, fname);
  la_Mat *A = la_check(L, 2, fname), *B = la_rhs(L, 3, fname, A->rows);
  la_needfinite(L, A, fname, "A");
  la_needfinite(L, B, fname, "b");
  addrows(L, s, A, B, fname, 0);
  lua_settop(L, 1);
  return 1;
}

/** Folds another state of the same n and k in: `s:merge(t)` (t is not
-- changed). Associative and commutative up to rounding. Returns s.
-- @function lsq_state:merge */
static int m_merge(lua_State *L) {
  const char *fname = "lsq_state.merge";
  lak_Lsq *s = checkstate(L, 1, fname), *t = checkstate(L, 2, fname);
  mergeinto(L, s, t, fname);
  lua_settop(L, 1);
  return 1;
}

/** The state as bytes: versioned, little-endian, checksummed; restore
-- with `la.lsq_state(bytes)`.
-- @function lsq_state:tobytes */
static int m_tobytes(lua_State *L) {
  lak_Lsq *s = checkstate(L, 1, "lsq_state.tobytes");
  size_t len = lak_lsq_bytes(s->n, s->k);
  luaL_Buffer b;
  unsigned char *p = (unsigned char *)luaL_buffinitsize(L, &b, len);
  lak_lsq_encode(s, p);
  luaL_pushresultsize(&b, len);
  return 1;
}

/** Solves the least-squares problem of the rows added: `s:solve([opts])` ->
-- `x, residuals, rank, sv` with `la.lstsq`'s contract and options
-- (`method` = "svd" | "qr" | "qrp", `rcond`, `ridge`, applied here once).
-- @function lsq_state:solve */
static int m_solve(lua_State *L) {
  lak_Lsq *s = checkstate(L, 1, "lsq_state.solve");
  double rcond, ridge;
  int method = solveopts(L, 2, s, &rcond, &ridge);
  lua_settop(L, 2);
  return solve(L, s, method, rcond, ridge, "lsq_state.solve");
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
  lua_pushfstring(L, "lsq_state (n = %d, k = %d, rows = %I)", s->n, s->k,
                  (lua_Integer)s->rows);
  return 1;
}

static const luaL_Reg methods[] = {
  {"add", m_add}, {"merge", m_merge}, {"tobytes", m_tobytes}, {"solve", m_solve},
  {NULL, NULL}
};

static const luaL_Reg funcs[] = {{"lsq_state", l_lsq_state}, {NULL, NULL}};

/* registers la.lsq_state into the module table at -1 */
void la_open_lsqstate(lua_State *L) {
  lua_newtable(L);                                   /* the state's metatable */
  lua_pushliteral(L, LSQ_NAME);
  lua_setfield(L, -2, "__name");
  lua_pushcfunction(L, m_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_newtable(L);                                   /* methods (upvalue: matrix mt) */
  la_setfuncs(L, methods);
  lua_pushcclosure(L, m_index, 1);
  lua_setfield(L, -2, "__index");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lsq_key);
  la_setfuncs(L, funcs);
}
