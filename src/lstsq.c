/*
** lstsq.c: least squares. lstsq on LAPACK's drivers (dgelsd, dgels,
** dgelsy) for problems that fit as they are; la.lsq_state, the mergeable
** state (TSQR, kernels/tsqr.c) that is also lstsq's path for tall problems;
** nnls (kernels/nnls.c). The state is its own userdata type (metatable
** "linalg.lsq_state"): an lak_Lsq header with R, C and rss following it
** in the same block.
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>
#include <cblas.h>

#include "helpers.h"
#include "kernels/kernels.h"

static const double EPS = 2.220446049250313e-16;

typedef enum { LS_SVD, LS_QR, LS_QRP } LsMethod;

typedef struct LsProblem {
  la_Mat *W;       /* copy of A, overwritten */
  la_Mat *X;       /* max(m, n) x k: b on entry, x (and residual rows) on exit */
  int m, n, k;
  double rcond;
  const char *fname;
} LsProblem;

/* the state's type name, and the key of its metatable in the registry */
#define LSQ_NAME "linalg.lsq_state"

/* header rounded up so the doubles after it are 16-byte aligned */
#define LSQ_HDR ((sizeof(lak_Lsq) + 15) & ~(size_t)15)


/* ------------------------------------------------------------ LAPACK drivers */

static const char *const ls_methods[] = {"svd", "qr", "qrp", NULL};

static const char *const ls_keys[] = {"method", "rcond", "ridge", "check_finite", NULL};

/* dgelsd: minimum-norm solution by divide-and-conquer SVD (pushes sv) */
static int ls_svd(lua_State *L, LsProblem *P) {
  la_Mat *s = la_new(L, P->fname, P->m < P->n ? P->m : P->n, 1);
  lapack_int info, rank;
  LA_WORKCALL_IWORK(L, P->fname, "dgelsd", info,
                    LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, P->m, P->n, P->k, P->W->data,
                                        P->W->ld, P->X->data, P->X->ld, s->data, P->rcond,
                                        &rank, WORK, LWORK, IWORK));
  if (info > 0) la_error(L, P->fname, "SVD did not converge");
  lua_pop(L, 2);                          /* IWORK, WORK; sv on top */
  return rank;
}

/* The rank check of method "qr": every |R(i,i)| above rcond * max |R(i,i)|
** (singular: dgels reported an exact zero). */
static void rankcheck(lua_State *L, const la_Mat *R, int r, double rcond, int singular,
                  const char *fname) {
  double big = 0.0, tol;
  int i;
  for (i = 0; i < r; i++) if (fabs(LA_AT(R, i, i)) > big) big = fabs(LA_AT(R, i, i));
  tol = (rcond < 0 ? EPS : rcond) * big;
  for (i = 0; i < r; i++)
    if (singular || !(fabs(LA_AT(R, i, i)) > tol))
      la_error(L, fname, "A is rank deficient (|R(%d,%d)| = %f <= %f); "
               "use method = \"svd\" or \"qrp\"", i + 1, i + 1,
               fabs(LA_AT(R, i, i)), tol);
}

/* dgels: QR (LQ when m < n) of a full-rank A. Rank deficiency is read off
** the triangular factor's diagonal and reported (pushes nothing). */
static int ls_qr(lua_State *L, LsProblem *P) {
  lapack_int info;
  int r = P->m < P->n ? P->m : P->n;
  LA_WORKCALL(L, P->fname, "dgels", info,
              LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', P->m, P->n, P->k, P->W->data,
                                 P->W->ld, P->X->data, P->X->ld, WORK, LWORK));
  lua_pop(L, 1);                          /* WORK */
  rankcheck(L, P->W, r, P->rcond, info > 0, P->fname);
  return r;
}

/* dgelsy: rank-revealing QR with column pivoting; minimum-norm solution
** (pushes nothing) */
static int ls_qrp(lua_State *L, LsProblem *P) {
  lapack_int info, rank, *jpvt = LA_SCRATCH(L, lapack_int, (size_t)P->n);
  double rc = P->rcond < 0 ? EPS : P->rcond;
  int j;
  for (j = 0; j < P->n; j++) jpvt[j] = 0;
  LA_WORKCALL(L, P->fname, "dgelsy", info,
              LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, P->m, P->n, P->k, P->W->data, P->W->ld,
                                  P->X->data, P->X->ld, jpvt, rc, &rank, WORK, LWORK));
  lua_pop(L, 2);                          /* jpvt, WORK */
  return rank;
}

/* The one dispatch to LAPACK's least-squares drivers, for lstsq and the
** least-squares state: W (m x n) is overwritten, X (ld >= max(m, n), k
** columns) holds b on entry and x on exit. method 0 svd (pushes sv),
** 1 qr, 2 qrp. Returns the rank. */
static int lssolve(lua_State *L, la_Mat *W, la_Mat *X, int m, int n, int k, double rcond,
               int method, const char *fname) {
  LsProblem P;
  P.W = W; P.X = X; P.m = m; P.n = n; P.k = k; P.rcond = rcond; P.fname = fname;
  return method == LS_SVD ? ls_svd(L, &P) : method == LS_QR ? ls_qr(L, &P) : ls_qrp(L, &P);
}

/* squared column norms of B - A X into res (1 x k); pushes nothing */
static void explicit_residuals(lua_State *L, const la_Mat *A, const la_Mat *B,
                               const la_Mat *X, la_Mat *res) {
  la_Mat *R = la_new(L, la_fname(L), B->rows, B->cols);
  int j;
  lak_copy(B->rows, B->cols, B->data, B->ld, R->data, R->ld);
  lak_gemm('N', 'N', A->rows, B->cols, A->cols, -1.0, A->data, A->ld, X->data, X->ld,
           1.0, R->data, R->ld);
  for (j = 0; j < B->cols; j++) {
    double nr = cblas_dnrm2(R->rows, R->data + (ptrdiff_t)j * R->ld, 1);
    res->data[(ptrdiff_t)j * res->ld] = nr * nr;
  }
  lua_pop(L, 1);
}

/* The (ridge-augmented) problem's copies (pushes W, X). */
static void setup(lua_State *L, LsProblem *P, const la_Mat *A, const la_Mat *B,
                  double ridge) {
  int m = A->rows, n = A->cols, j, ma = ridge > 0 ? m + n : m;
  P->m = ma; P->n = n; P->k = B->cols; P->fname = la_fname(L);
  P->W = la_newzero(L, la_fname(L), ma, n);
  lak_copy(m, n, A->data, A->ld, P->W->data, P->W->ld);
  for (j = 0; ridge > 0 && j < n; j++) LA_AT(P->W, m + j, j) = sqrt(ridge);
  P->X = la_newzero(L, la_fname(L), ma > n ? ma : n, P->k);
  lak_copy(m, P->k, B->data, B->ld, P->X->data, P->X->ld);
}

/* Tall problems (m >= 4n) go to the least-squares state (sequential TSQR
** down to n x n); the rest to LAPACK directly. */
static int use_tsqr(int m, int n) {
  return n > 0 && m / 4 >= n;
}

/* ------------------------------------------------------------ the state */

/* An empty state for n unknowns and k right-hand sides (pushes 1). */
static lak_Lsq *newstate(lua_State *L, const char *fname, lua_Integer n, lua_Integer k) {
  lak_Lsq *s;
  size_t cnt;
  if (n < 0 || n > INT_MAX) la_error(L, fname, "n must be in 0..%d, got %I", INT_MAX, n);
  if (k < 0 || k > INT_MAX) la_error(L, fname, "k must be in 0..%d, got %I", INT_MAX, k);
  /* n, k <= INT_MAX: n (n + k) + k < 2^63 fits size_t on 64-bit hosts */
  if ((size_t)n > ((size_t)-1 / sizeof(double) - LSQ_HDR - (size_t)k) / ((size_t)n + (size_t)k + 1))
    la_error(L, fname, "a state for n = %I, k = %I is too large", n, k);
  cnt = (size_t)n * ((size_t)n + (size_t)k) + (size_t)k;
  /* the state is one block counted in doubles: the header (LSQ_HDR bytes),
  ** then R, C and rss; out of memory is an error naming the function */
  s = (lak_Lsq *)la_scratch(L, LSQ_HDR / sizeof(double) + cnt);
  s->n = (int)n; s->k = (int)k;
  s->R = (double *)(void *)((char *)s + LSQ_HDR);
  s->C = s->R + (size_t)n * (size_t)n;
  s->rss = s->C + (size_t)n * (size_t)k;
  lak_lsq_clear(s);
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

/* Scratch copy of s to fold into (pushes 1): s changes only when all went
** well. */
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

/* Folds the rows of A and B (shapes checked here, values by the caller) into
** s (pushes nothing). */
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

/* Folds t into s (pushes nothing). */
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

typedef struct Solve {
  la_Mat *W;     /* r x n, overwritten */
  la_Mat *X;     /* n x k: C on entry, x on exit */
  int r, n, k;
  double rcond;
  const char *fname;
} Solve;

/* full triangle: the rank check and back substitution; otherwise (svd,
** qrp, or fewer rows than unknowns) lstsq's LAPACK drivers (pushes sv for
** svd, else nothing). */
static int tri_solve(lua_State *L, Solve *P, int method) {
  lapack_int info;
  if (method != 1 || P->r != P->n)
    return lssolve(L, P->W, P->X, P->r, P->n, P->k, P->rcond, method, P->fname);
  rankcheck(L, P->W, P->n, P->rcond, 0, P->fname);
  info = LAPACKE_dtrtrs_work(LAPACK_COL_MAJOR, 'U', 'N', 'N', P->n, P->k, P->W->data,
                             P->W->ld, P->X->data, P->X->ld);
  la_checkinfo(L, P->fname, "dtrtrs", info);
  return P->n;
}

/* The copies W, X of the problem (pushes W, X): R's top r rows and C, with
** sqrt(ridge) I merged under R when ridge > 0. */
static void state_setup(lua_State *L, Solve *P, const lak_Lsq *s, double ridge) {
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
    lua_pop(L, 3);                       /* a.rss, t, the merge's work */
  }
}

/* residuals of the data: rss + ||R x - C||^2 for each column (pushes the
** 1 x k result) */
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
  lua_pop(L, 1);                         /* D: res on top */
}

/* lstsq's contract from a state: pushes W, X, [sv,] then the results
** x, residuals | nil, rank, sv | nil; method 0 svd, 1 qr, 2 qrp; rcond as
** given (negative: machine precision). */
static int solve(lua_State *L, const lak_Lsq *s, int method, double rcond, double ridge,
                 const char *fname) {
  Solve P;
  la_Mat *x;
  int rank = 0, svidx = 0;
  P.rcond = rcond; P.fname = fname;
  state_setup(L, &P, s, ridge);
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

/* lstsq's tall path: a state of A's and B's rows, solved (pushes the
** state, then what solve pushes). */
static int lsq_fit(lua_State *L, const la_Mat *A, const la_Mat *B, int method, double rcond,
               double ridge, int nanb, const char *fname) {
  lak_Lsq *s = newstate(L, fname, A->cols, B->cols);
  addrows(L, s, A, B, fname, nanb);
  return solve(L, s, method, rcond, ridge, fname);
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
  const char *F = la_fname(L);
  if (lua_type(L, 1) == LUA_TSTRING) {
    size_t len;
    const unsigned char *p = (const unsigned char *)lua_tolstring(L, 1, &len);
    int n, k;
    const char *err = lak_lsq_header(p, len, &n, &k);
    lak_Lsq *s;
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
  addrows(L, s, A, B, F, 0);
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
  const char *F = la_fname(L);
  lak_Lsq *s = checkstate(L, 1, F);
  double rcond, ridge;
  int method = solveopts(L, 2, s, &rcond, &ridge, F);
  lua_settop(L, 2);                      /* s, opts; solve pushes above */
  return solve(L, s, method, rcond, ridge, F);
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

/* ------------------------------------------------------------ lstsq, nnls */

/* lstsq(A, b [, opts]) -> x, residuals | nil, rank, sv | nil (NumPy's contract) */
static int l_lstsq(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *B, *x, *res;
  LsProblem P;
  LsMethod meth;
  double ridge;
  int rank, m, n, j, svidx = 0, nok;
  la_checkopts(L, 3, F, ls_keys);
  B = la_rhs(L, 2, F, A->rows);
  m = A->rows; n = A->cols;
  if (B->rows != m) la_error(L, F, "A has %d rows but b has %d", m, B->rows);
  meth = (LsMethod)la_optenum(L, 3, "method", LS_SVD, ls_methods, F);
  ridge = la_optnum(L, 3, "ridge", 0.0, F);
  if (!(ridge >= 0 && ridge < HUGE_VAL))
    la_error(L, F, "ridge must be finite and >= 0, got %f", ridge);
  /* dgelsd iterates on A and dgelsy's rank decisions compare its entries:
  ** A is checked whatever the method; check_finite = false skips b only */
  la_checkfinite(L, A, F, "A", 1);
  if (la_optcheckfinite(L, 3, F)) la_checkfinite(L, B, F, "b", 0);
  P.rcond = la_optnum(L, 3, "rcond", EPS * (m > n ? m : n), F);
  if (isnan(P.rcond)) la_error(L, F, "rcond is NaN");
  lua_settop(L, 3);                      /* A, b, opts; everything below is pushed above */
  /* the state takes k = 0 as it is */
  if (use_tsqr(m, n))
    return lsq_fit(L, A, B, (int)meth, P.rcond, ridge, !la_optcheckfinite(L, 3, F), F);
  /* no right-hand sides: rank and sv still come from A, so one zero column
  ** is solved for and dropped (LAPACK rejects nrhs = 0 in some routines) */
  nok = B->cols == 0;
  if (nok) { B = la_newzero(L, F, m, 1); lua_replace(L, 2); }   /* anchored as b */
  setup(L, &P, A, B, ridge);
  if (m == 0 || n == 0) {
    rank = 0;
    if (meth == LS_SVD) { la_new(L, F, 0, 1); svidx = lua_gettop(L); }
  } else if (meth == LS_SVD) {
    rank = ls_svd(L, &P);
    svidx = lua_gettop(L);
  } else if (meth == LS_QR) {
    rank = ls_qr(L, &P);
  } else rank = ls_qrp(L, &P);
  x = la_new(L, F, n, nok ? 0 : P.k);
  lak_copy(n, x->cols, P.X->data, P.X->ld, x->data, x->ld);
  if (rank == n && m > n) {
    res = la_new(L, F, 1, x->cols);
    for (j = 0; j < res->cols; j++) {
      double nr = cblas_dnrm2(P.m - n, P.X->data + n + (ptrdiff_t)j * P.X->ld, 1);
      res->data[(ptrdiff_t)j * res->ld] = nr * nr;
    }
    /* ridge fits the augmented system and qrp leaves no residual rows: both
    ** report ||A x - b||^2 of the data itself */
    if (!nok && (meth == LS_QRP || ridge > 0 || n == 0)) explicit_residuals(L, A, B, x, res);
  } else lua_pushnil(L);
  lua_pushinteger(L, rank);
  if (svidx) lua_pushvalue(L, svidx); else lua_pushnil(L);
  return 4;
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
                             ldb > 0 ? ldb : 1, &jp, EPS, &rank, &q, -1);
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

static const luaL_Reg funcs[] = {
  {"lstsq", l_lstsq}, {"nnls", l_nnls}, {NULL, NULL}
};

static const luaL_Reg methods[] = {
  {"add", m_add}, {"merge", m_merge}, {"tobytes", m_tobytes}, {"solve", m_solve},
  {NULL, NULL}
};

static const luaL_Reg state_funcs[] = {{"lsq_state", l_lsq_state}, {NULL, NULL}};

/* The methods into the table at -1, each a closure over the matrix
** metatable and its public name "lsq_state.<method>" (la_setfuncs's
** upvalues 1 and 2, so that la_fname names the method). */
static void setmethods(lua_State *L) {
  const luaL_Reg *r;
  for (r = methods; r->name; r++) {
    luaL_getmetatable(L, LINALG_MATRIX);
    lua_pushfstring(L, "lsq_state.%s", r->name);
    lua_pushcclosure(L, r->func, 2);
    lua_setfield(L, -2, r->name);
  }
}

/* registers la.lsq_state into the module table at -1 */
static void open_state(lua_State *L) {
  lua_newtable(L);                                   /* the state's metatable */
  lua_pushliteral(L, LSQ_NAME);
  lua_setfield(L, -2, "__name");
  lua_pushcfunction(L, m_tostring);
  lua_setfield(L, -2, "__tostring");
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
