/*
** lstsq_gen.h: lstsq.c's typed part written once for both element types
** (src/generate.h): LAPACK's least-squares drivers (d/s gelsd, gels,
** gelsy), the residuals, and the least-squares state's solve path, which
** is also lstsq's tall path (kernels/tsqr.c's lak_lsq_* / lak_slsq_*). The
** la.lsq_state userdata is the float64 pass's state (lstsq.c).
*/

/* gelsd: minimum-norm solution by divide-and-conquer SVD (pushes sv) */
static int LA_T(ls_svd)(lua_State *L, LsProblem *P) {
  la_Mat *s = la_newt(L, P->fname, P->m < P->n ? P->m : P->n, 1, LA_TYPE);
  lapack_int info, rank;
  LA_WORKCALL_IWORK_T(L, P->fname, LA_ROUTINE(gelsd), info,
                      LA_LAPACKE(gelsd)(LAPACK_COL_MAJOR, P->m, P->n, P->k, LA_X(P->W),
                                        P->W->ld, LA_X(P->X), P->X->ld, LA_X(s),
                                        (LA_REAL)P->rcond, &rank, WORK, LWORK, IWORK));
  if (info > 0) la_error(L, P->fname, "SVD did not converge");
  lua_pop(L, 2);                          /* IWORK, WORK; sv on top */
  return rank;
}

/* The rank check of method "qr": every |R(i,i)| above rcond * max |R(i,i)|
** (rcond <= 0: the type's eps, as gelsd takes it); zero > 0: gels found
** R(zero,zero) exactly zero. The message names the first diagonal entry
** that fails. */
static void LA_T(rankcheck)(lua_State *L, const la_Mat *R, int r, double rcond, int zero,
                            const char *fname) {
  double big = 0.0, tol;
  int i;
  for (i = 0; i < r; i++) if (fabs(LA_E(R, i, i)) > big) big = fabs(LA_E(R, i, i));
  tol = (rcond <= 0 ? LA_EPS : rcond) * big;
  for (i = 0; i < r; i++)
    if (i + 1 == zero || !(fabs(LA_E(R, i, i)) > tol))
      la_error(L, fname, "A is rank deficient (|R(%d,%d)| = %f <= %f); "
               "use method = \"svd\" or \"qrp\"", i + 1, i + 1,
               (double)fabs(LA_E(R, i, i)), tol);
}

/* gels: QR (LQ when m < n) of a full-rank A. Rank deficiency is read off
** the triangular factor's diagonal and reported (pushes nothing). */
static int LA_T(ls_qr)(lua_State *L, LsProblem *P) {
  lapack_int info;
  int r = P->m < P->n ? P->m : P->n;
  LA_WORKCALL_T(L, P->fname, LA_ROUTINE(gels), info,
                LA_LAPACKE(gels)(LAPACK_COL_MAJOR, 'N', P->m, P->n, P->k, LA_X(P->W),
                                 P->W->ld, LA_X(P->X), P->X->ld, WORK, LWORK));
  lua_pop(L, 1);                          /* WORK */
  LA_T(rankcheck)(L, P->W, r, P->rcond, info > 0 ? info : 0, P->fname);
  return r;
}

/* gelsy: rank-revealing QR with column pivoting; minimum-norm solution
** (pushes nothing). rcond <= 0 is the type's eps, as gelsd takes it:
** gelsy given 0 keeps an exactly zero R(k,k) and divides by it. */
static int LA_T(ls_qrp)(lua_State *L, LsProblem *P) {
  lapack_int info, rank, *jpvt = LA_SCRATCH(L, lapack_int, (size_t)P->n);
  LA_REAL rc = (LA_REAL)(P->rcond <= 0 ? LA_EPS : P->rcond);
  int j;
  for (j = 0; j < P->n; j++) jpvt[j] = 0;
  LA_WORKCALL_T(L, P->fname, LA_ROUTINE(gelsy), info,
                LA_LAPACKE(gelsy)(LAPACK_COL_MAJOR, P->m, P->n, P->k, LA_X(P->W), P->W->ld,
                                  LA_X(P->X), P->X->ld, jpvt, rc, &rank, WORK, LWORK));
  lua_pop(L, 2);                          /* jpvt, WORK */
  return rank;
}

/* The one dispatch to LAPACK's least-squares drivers, for lstsq and the
** least-squares state: W (m x n) is overwritten, X (ld >= max(m, n), k
** columns) holds b on entry and x on exit. Returns the rank (svd pushes
** sv). rcond >= 1 puts every singular value (every |R(k,k)|) at or below
** rcond * the largest: rank 0 and x = 0, sv still computed (LAPACK's
** gelsd, and so NumPy's lstsq, would take machine precision instead). */
static int LA_T(lssolve)(lua_State *L, la_Mat *W, la_Mat *X, int m, int n, int k,
                         double rcond, LsMethod method, const char *fname) {
  LsProblem P;
  int j;
  P.W = W; P.X = X; P.m = m; P.n = n; P.k = k; P.rcond = rcond; P.fname = fname;
  if (method == LS_QR) return LA_T(ls_qr)(L, &P);
  if (rcond < 1) return method == LS_SVD ? LA_T(ls_svd)(L, &P) : LA_T(ls_qrp)(L, &P);
  if (method == LS_SVD) (void)LA_T(ls_svd)(L, &P);     /* for sv */
  for (j = 0; j < k; j++)
    memset(LA_X(X) + (ptrdiff_t)j * X->ld, 0, (size_t)n * sizeof(LA_REAL));
  return 0;
}

/* squared column norms of B - A X into res (1 x k); pushes nothing */
static void LA_T(explicit_residuals)(lua_State *L, const la_Mat *A, const la_Mat *B,
                                     const la_Mat *X, la_Mat *res) {
  la_Mat *R = la_newt(L, la_fname(L), B->rows, B->cols, LA_TYPE);
  int j;
  LA_LAK(copy)(B->rows, B->cols, LA_X(B), B->ld, LA_X(R), R->ld);
  LA_LAK(gemm)('N', 'N', A->rows, B->cols, A->cols, -1, LA_X(A), A->ld, LA_X(X), X->ld,
               1, LA_X(R), R->ld);
  for (j = 0; j < B->cols; j++) {
    LA_REAL nr = LA_CBLAS(nrm2)(R->rows, LA_X(R) + (ptrdiff_t)j * R->ld, 1);
    LA_X(res)[(ptrdiff_t)j * res->ld] = nr * nr;
  }
  lua_pop(L, 1);
}

/* The (ridge-augmented) problem's copies (pushes W, X). */
static void LA_T(setup)(lua_State *L, LsProblem *P, const la_Mat *A, const la_Mat *B,
                        double ridge) {
  int m = A->rows, n = A->cols, j, ma = ridge > 0 ? m + n : m;
  P->m = ma; P->n = n; P->k = B->cols; P->fname = la_fname(L);
  P->W = la_newzerot(L, P->fname, ma, n, LA_TYPE);
  LA_LAK(copy)(m, n, LA_X(A), A->ld, LA_X(P->W), P->W->ld);
  for (j = 0; ridge > 0 && j < n; j++) LA_E(P->W, m + j, j) = (LA_REAL)sqrt(ridge);
  P->X = la_newzerot(L, P->fname, ma > n ? ma : n, P->k, LA_TYPE);
  LA_LAK(copy)(m, P->k, LA_X(B), B->ld, LA_X(P->X), P->X->ld);
}

/* ------------------------------------------------------------ scaling */

/* Data near the ends of the type's range (a TSQR norm or residual sum of
** squares, or a Householder step of LAPACK's, overflows by 1e154 in
** double; a ridge's square root by 1e77 in float32) is solved as a scaled
** problem: A' = A 2^-ea, b' = b 2^-eb, ridge' = ridge 2^-2ea (powers of 2:
** exact), whose solution x' = x 2^(ea-eb); residuals scale by 2^2eb and
** singular values by 2^ea. Inside these bounds nothing is scaled, so the
** results are those of the unscaled problem bit for bit. */
#define LA_SCALE_LIM (LA_TYPE == LA_F32 ? 30 : 200)
#define LA_RIDGE_LIM (LA_TYPE == LA_F32 ? 200 : 1000)

/* the exponent of the largest finite |entry| of the m x n block at p (ld),
** 0 when there is none */
static int LA_T(maxexp)(int m, int n, const LA_REAL *p, int ld) {
  double big = 0.0;
  int i, j;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double a = fabs((double)p[i + (ptrdiff_t)j * ld]);
      if (a > big && a < HUGE_VAL) big = a;
    }
  return big > 0 ? ilogb(big) : 0;
}

/* the m x n block at p times 2^e (exact unless the result is out of range) */
static void LA_T(pow2)(int m, int n, LA_REAL *p, int ld, int e) {
  int i, j;
  for (j = 0; e != 0 && j < n; j++)
    for (i = 0; i < m; i++)
      p[i + (ptrdiff_t)j * ld] = (LA_REAL)ldexp((double)p[i + (ptrdiff_t)j * ld], e);
}

/* The exponents ea, eb of a problem with A's, b's largest exponents ax,
** bx and the ridge: 0, 0 (returns 0) when all is in range, else the
** scaling (returns 1); ea is raised so that ridge' stays in range (A is
** then negligible beside the ridge where it underflows). */
static int LA_T(scaling)(int ax, int bx, double ridge, int *ea, int *eb) {
  int lim = LA_SCALE_LIM, rx = ridge > 0 ? ilogb(ridge) : 0;
  *ea = ax; *eb = bx;
  if (ridge > 0 && rx - 2 * *ea > LA_RIDGE_LIM) *ea = (rx - LA_RIDGE_LIM) / 2 + 1;
  if (abs(ax) <= lim && abs(bx) <= lim && !(ridge > 0 && abs(rx) > LA_RIDGE_LIM)) {
    *ea = *eb = 0;
    return 0;
  }
  return 1;
}

/* The results x, residuals | nil, rank, sv | nil on top of the stack, of
** the problem scaled by ea, eb, scaled back in place. A finite x' whose x
** is not finite overflows: an error. */
static void LA_T(unscale)(lua_State *L, int ea, int eb, const char *fname) {
  la_Mat *x = la_testany(L, -4), *res = la_testany(L, -3), *sv = la_testany(L, -1);
  int i, j;
  for (j = 0; j < x->cols; j++)
    for (i = 0; i < x->rows; i++) {
      double v = (double)LA_E(x, i, j), u = ldexp(v, eb - ea);
      if (isfinite(v) && !isfinite((LA_REAL)u))
        la_error(L, fname, "the solution overflows (x(%d,%d) = %f * 2^%d)", i + 1, j + 1, v,
                 eb - ea);
      LA_E(x, i, j) = (LA_REAL)u;
    }
  if (res) LA_T(pow2)(res->rows, res->cols, LA_X(res), res->ld, 2 * eb);
  if (sv) LA_T(pow2)(sv->rows, sv->cols, LA_X(sv), sv->ld, ea);
}

/* ------------------------------------------------------------ the state */

/* An empty state for n unknowns and k right-hand sides (pushes 1): one
** block, the header (LSQ_HDR bytes) then R, C and rss; out of memory is an
** error naming the function. la.lsq_state gives the float64 one its
** metatable. */
static LA_LAK(Lsq) *LA_T(newstate)(lua_State *L, const char *fname, lua_Integer n,
                                   lua_Integer k) {
  LA_LAK(Lsq) *s;
  size_t cnt;
  if (n < 0 || n > INT_MAX) la_error(L, fname, "n must be in 0..%d, got %I", INT_MAX, n);
  if (k < 0 || k > INT_MAX) la_error(L, fname, "k must be in 0..%d, got %I", INT_MAX, k);
  /* n, k <= INT_MAX: n (n + k) + k < 2^63 fits size_t on 64-bit hosts */
  if ((size_t)n > ((size_t)-1 / sizeof(LA_REAL) - LSQ_HDR - (size_t)k) /
                  ((size_t)n + (size_t)k + 1))
    la_error(L, fname, "a state for n = %I, k = %I is too large", n, k);
  cnt = (size_t)n * ((size_t)n + (size_t)k) + (size_t)k;
  s = (LA_LAK(Lsq) *)(void *)LA_SCRATCH(L, LA_REAL, LSQ_HDR / sizeof(LA_REAL) + cnt);
  s->n = (int)n; s->k = (int)k;
  s->R = (LA_REAL *)(void *)((char *)s + LSQ_HDR);
  s->C = s->R + (size_t)n * (size_t)n;
  s->rss = s->C + (size_t)n * (size_t)k;
  LA_LAK(lsq_clear)(s);
  return s;
}

/* Scratch copy of s to fold into (pushes 1): s changes only when all went
** well. */
static LA_LAK(Lsq) LA_T(scratchcopy)(lua_State *L, const LA_LAK(Lsq) *s) {
  LA_LAK(Lsq) w = *s;
  w.R = LA_SCRATCH(L, LA_REAL, (size_t)s->n * ((size_t)s->n + (size_t)s->k) + (size_t)s->k);
  w.C = w.R + (size_t)s->n * (size_t)s->n;
  w.rss = w.C + (size_t)s->n * (size_t)s->k;
  LA_LAK(lsq_copy)(s, &w);
  return w;
}

/* w into s when its values are finite. nanb: b was not checked
** (lstsq's check_finite = false), so NaN/Inf in C and rss pass through to
** a NaN result as they do on lstsq's other paths. */
static void LA_T(commit)(lua_State *L, LA_LAK(Lsq) *s, const LA_LAK(Lsq) *w,
                         const char *fname, int nanb) {
  const char *type = LA_TYPE == LA_F32 ? "float32" : "double";
  LA_LAK(Lsq) r = *w;
  r.k = 0;                                  /* R alone */
  if (!LA_LAK(lsq_finite)(&r))
    la_error(L, fname, "A's scale overflows the QR factor (entries near the largest "
             "%s); rescale A", type);
  if (!nanb && !LA_LAK(lsq_finite)(w))
    la_error(L, fname, "b's scale overflows Q^T b or the residual sums (entries near the "
             "largest %s); rescale b", type);
  LA_LAK(lsq_copy)(w, s);
}

/* Folds the rows of A and B (shapes checked here, values by the caller) into
** s (pushes nothing). */
static void LA_T(addrows)(lua_State *L, LA_LAK(Lsq) *s, const la_Mat *A, const la_Mat *B,
                          const char *fname, int nanb) {
  int top = lua_gettop(L), info;
  LA_LAK(Lsq) w;
  if (A->cols != s->n)
    la_error(L, fname, "A has %d columns but the state has n = %d", A->cols, s->n);
  if (B->rows != A->rows) la_error(L, fname, "A has %d rows but b has %d", A->rows, B->rows);
  if (B->cols != s->k)
    la_error(L, fname, "b has %d columns but the state has k = %d", B->cols, s->k);
  if (s->rows > INT64_MAX - A->rows) la_error(L, fname, "row count overflows");
  if (A->rows == 0) return;
  w = LA_T(scratchcopy)(L, s);
  info = LA_LAK(lsq_add)(&w, A->rows, LA_X(A), A->ld, LA_X(B), B->ld,
                         LA_SCRATCH(L, LA_REAL, lak_tsqr_work(A->rows, s->n, s->k)));
  la_checkinfo(L, fname, LA_ROUTINE(tpqrt) "/" LA_ROUTINE(tpmqrt), info);
  LA_T(commit)(L, s, &w, fname, nanb);
  lua_settop(L, top);
}

/* full triangle: the rank check and back substitution; otherwise (svd,
** qrp, or fewer rows than unknowns) lstsq's LAPACK drivers (pushes sv for
** svd, else nothing). */
static int LA_T(tri_solve)(lua_State *L, Solve *P, LsMethod method) {
  lapack_int info;
  if (method != LS_QR || P->r != P->n)
    return LA_T(lssolve)(L, P->W, P->X, P->r, P->n, P->k, P->rcond, method, P->fname);
  LA_T(rankcheck)(L, P->W, P->n, P->rcond, 0, P->fname);
  info = LA_LAPACKE(trtrs)(LAPACK_COL_MAJOR, 'U', 'N', 'N', P->n, P->k, LA_X(P->W),
                           P->W->ld, LA_X(P->X), P->X->ld);
  la_checkinfo(L, P->fname, LA_ROUTINE(trtrs), info);
  return P->n;
}

/* The copies W, X of the problem (pushes W, X): R's top r rows and C, with
** sqrt(ridge) I merged under R when ridge > 0. */
static void LA_T(state_setup)(lua_State *L, Solve *P, const LA_LAK(Lsq) *s, double ridge) {
  int n = s->n, k = s->k, j, info;
  /* no right-hand sides: one zero column is solved for and dropped (LAPACK
  ** rejects nrhs = 0 in some routines) */
  P->n = n; P->k = k > 0 ? k : 1;
  P->r = ridge > 0 || s->rows >= n ? n : (int)s->rows;
  P->W = la_newzerot(L, P->fname, P->r, n, LA_TYPE);
  P->X = la_newzerot(L, P->fname, n, P->k, LA_TYPE);
  LA_LAK(copy)(P->r, n, s->R, n, LA_X(P->W), P->W->ld);
  LA_LAK(copy)(P->r, k, s->C, n, LA_X(P->X), P->X->ld);
  if (ridge > 0) {
    LA_LAK(Lsq) a = *s, t = *s;
    a.R = LA_X(P->W); a.C = LA_X(P->X);
    a.rss = LA_SCRATCH(L, LA_REAL, (size_t)k);
    t.R = LA_SCRATCH(L, LA_REAL, (size_t)n * ((size_t)n + (size_t)k) + (size_t)k);
    t.C = t.R + (size_t)n * n; t.rss = t.C + (size_t)n * k;
    LA_LAK(lsq_clear)(&t);
    for (j = 0; j < n; j++) t.R[j + (ptrdiff_t)j * n] = (LA_REAL)sqrt(ridge);
    LA_LAK(lsq_clear)(&a);   /* only rss and rows: R and C are the copies */
    LA_LAK(copy)(n, n, s->R, n, a.R, n);
    LA_LAK(copy)(n, k, s->C, n, a.C, n);
    info = LA_LAK(lsq_merge)(&a, &t, LA_SCRATCH(L, LA_REAL, lak_lsq_merge_work(n, k)));
    la_checkinfo(L, P->fname, LA_ROUTINE(tpqrt) "/" LA_ROUTINE(tpmqrt), info);
    lua_pop(L, 3);                       /* a.rss, t, the merge's work */
  }
}

/* residuals of the data: rss + ||R x - C||^2 for each column (pushes the
** 1 x k result) */
static void LA_T(residuals)(lua_State *L, const LA_LAK(Lsq) *s, const la_Mat *x,
                            const char *fname) {
  la_Mat *res = la_newt(L, fname, 1, s->k, LA_TYPE);
  LA_REAL *D = LA_SCRATCH(L, LA_REAL, (size_t)s->n * (size_t)s->k);
  int i, j;
  LA_LAK(copy)(s->n, s->k, s->C, s->n, D, s->n);
  LA_LAK(gemm)('N', 'N', s->n, s->k, s->n, -1, s->R, s->n, LA_X(x), x->ld, 1, D, s->n);
  for (j = 0; j < s->k; j++) {
    LA_REAL t = s->rss[j];
    for (i = 0; i < s->n; i++) t += D[i + (ptrdiff_t)j * s->n] * D[i + (ptrdiff_t)j * s->n];
    LA_X(res)[(ptrdiff_t)j * res->ld] = t;
  }
  lua_pop(L, 1);                         /* D: res on top */
}

/* lstsq's contract from a state: pushes W, X, [sv,] then the results
** x, residuals | nil, rank, sv | nil; rcond as given (negative: machine
** precision). */
static int LA_T(solve1)(lua_State *L, const LA_LAK(Lsq) *s, LsMethod method, double rcond,
                        double ridge, const char *fname) {
  Solve P;
  la_Mat *x;
  int rank = 0, svidx = 0;
  P.rcond = rcond; P.fname = fname;
  LA_T(state_setup)(L, &P, s, ridge);
  if (s->rows == 0 || s->n == 0) {
    if (method == LS_SVD) { la_newt(L, fname, 0, 1, LA_TYPE); svidx = lua_gettop(L); }
    memset(LA_X(P.X), 0, (size_t)s->n * (size_t)s->k * sizeof(LA_REAL));
  } else {
    rank = LA_T(tri_solve)(L, &P, method);
    if (method == LS_SVD) svidx = lua_gettop(L);
  }
  x = la_newt(L, fname, s->n, s->k, LA_TYPE);
  LA_LAK(copy)(s->n, s->k, LA_X(P.X), P.X->ld, LA_X(x), x->ld);
  if (rank == s->n && s->rows > s->n) LA_T(residuals)(L, s, x, fname);
  else lua_pushnil(L);
  lua_pushinteger(L, rank);
  if (svidx) lua_pushvalue(L, svidx); else lua_pushnil(L);
  return 4;
}

/* solve1 of s, or of a copy of s scaled into range (pushed; see scaling):
** R by 2^-ea, C by 2^-eb, rss by 2^-2eb, ridge by 2^-2ea */
static int LA_T(solve)(lua_State *L, const LA_LAK(Lsq) *s, LsMethod method, double rcond,
                       double ridge, const char *fname) {
  LA_LAK(Lsq) w;
  int ea, eb;
  if (!LA_T(scaling)(LA_T(maxexp)(s->n, s->n, s->R, s->n),
                     LA_T(maxexp)(s->n, s->k, s->C, s->n), ridge, &ea, &eb))
    return LA_T(solve1)(L, s, method, rcond, ridge, fname);
  w = LA_T(scratchcopy)(L, s);
  LA_T(pow2)(s->n, s->n, w.R, s->n, -ea);
  LA_T(pow2)(s->n, s->k, w.C, s->n, -eb);
  LA_T(pow2)(1, s->k, w.rss, 1, -2 * eb);
  LA_T(solve1)(L, &w, method, rcond, ldexp(ridge, -2 * ea), fname);
  LA_T(unscale)(L, ea, eb, fname);
  return 4;
}

/* lstsq's tall path: a state of A's and B's rows, solved (pushes the
** state, then what solve pushes). */
static int LA_T(lsq_fit)(lua_State *L, const la_Mat *A, const la_Mat *B, LsMethod method,
                         double rcond, double ridge, int nanb, const char *fname) {
  LA_LAK(Lsq) *s = LA_T(newstate)(L, fname, A->cols, B->cols);
  LA_T(addrows)(L, s, A, B, fname, nanb);
  return LA_T(solve)(L, s, method, rcond, ridge, fname);
}

/* ------------------------------------------------------------ lstsq */

/* lstsq when A (m x n) has no row or no column: x = 0 (n x k), rank 0,
** and, when m > n = 0, the residuals ||b_j||^2 (b itself: A x = 0), with
** no copy of A or b and no LAPACK call, so a 2^31-1 x 0 A costs nothing.
** Pushes x, residuals | nil, rank, sv (0 x 1 for svd) | nil. */
static int LA_T(ls_empty)(lua_State *L, const la_Mat *B, int n, LsMethod meth, const char *F) {
  int m = B->rows, j;
  la_newzerot(L, F, n, B->cols, LA_TYPE);
  if (m > n) {
    la_Mat *res = la_newt(L, F, 1, B->cols, LA_TYPE);
    for (j = 0; j < B->cols; j++) {
      LA_REAL nr = LA_CBLAS(nrm2)(m, LA_X(B) + (ptrdiff_t)j * B->ld, 1);
      LA_X(res)[(ptrdiff_t)j * res->ld] = nr * nr;
    }
  } else lua_pushnil(L);
  lua_pushinteger(L, 0);
  if (meth == LS_SVD) la_newt(L, F, 0, 1, LA_TYPE);
  else lua_pushnil(L);
  return 4;
}

/* lstsq(A, b [, opts]) -> x, residuals | nil, rank, sv | nil (NumPy's
** contract), every result of this pass's type */
static int LA_T(l_lstsq)(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkt(L, 1, F, LA_TYPE), *B, *x, *res;
  LsProblem P;
  LsMethod meth;
  double ridge;
  int rank, m, n, j, svidx = 0, nok, ea = 0, eb = 0;
  la_checkopts(L, 3, F, ls_keys);
  B = la_rhst(L, 2, F, A->rows, LA_TYPE);
  m = A->rows; n = A->cols;
  if (B->rows != m) la_error(L, F, "A has %d rows but b has %d", m, B->rows);
  (void)weigh(L, F, &A, &B);
  meth = (LsMethod)la_optenum(L, 3, "method", LS_SVD, ls_methods, F);
  ridge = la_optnum(L, 3, "ridge", 0.0, F);
  if (isnan(ridge)) la_error(L, F, "ridge is NaN");
  if (!(ridge >= 0 && ridge < HUGE_VAL))
    la_error(L, F, "ridge must be finite and >= 0, got %f", ridge);
  /* gelsd iterates on A and gelsy's rank decisions compare its entries:
  ** A is checked whatever the method; check_finite = false skips b only */
  la_checkfinite(L, A, F, "A", 1);
  if (la_optcheckfinite(L, 3, F)) la_checkfinite(L, B, F, "b", 0);
  /* NumPy's rcond = None: eps * max(m, n), eps of the type computed in */
  P.rcond = la_optnum(L, 3, "rcond", LA_EPS * (m > n ? m : n), F);
  if (isnan(P.rcond)) la_error(L, F, "rcond is NaN");
  lua_settop(L, 3);                      /* A, b, opts; everything below is pushed above */
  if (m == 0 || n == 0) return LA_T(ls_empty)(L, B, n, meth, F);
  if (LA_T(scaling)(LA_T(maxexp)(m, n, LA_X(A), A->ld), LA_T(maxexp)(m, B->cols, LA_X(B), B->ld),
                    ridge, &ea, &eb)) {  /* scaled copies (pushed), see unscale */
    A = la_copyof(L, A, F);
    LA_T(pow2)(m, n, LA_X(A), A->ld, -ea);
    B = la_copyof(L, B, F);
    LA_T(pow2)(m, B->cols, LA_X(B), B->ld, -eb);
    ridge = ldexp(ridge, -2 * ea);
  }
  /* the state takes k = 0 as it is */
  if (use_tsqr(m, n)) {
    LA_T(lsq_fit)(L, A, B, meth, P.rcond, ridge, !la_optcheckfinite(L, 3, F), F);
    LA_T(unscale)(L, ea, eb, F);
    return 4;
  }
  /* no right-hand sides: rank and sv still come from A, so one zero column
  ** is solved for and dropped (LAPACK rejects nrhs = 0 in some routines) */
  nok = B->cols == 0;
  if (nok) { B = la_newzerot(L, F, m, 1, LA_TYPE); lua_replace(L, 2); }   /* anchored as b */
  LA_T(setup)(L, &P, A, B, ridge);
  rank = LA_T(lssolve)(L, P.W, P.X, P.m, P.n, P.k, P.rcond, meth, F);
  if (meth == LS_SVD) svidx = lua_gettop(L);
  x = la_newt(L, F, n, nok ? 0 : P.k, LA_TYPE);
  LA_LAK(copy)(n, x->cols, LA_X(P.X), P.X->ld, LA_X(x), x->ld);
  if (rank == n && m > n) {
    res = la_newt(L, F, 1, x->cols, LA_TYPE);
    for (j = 0; j < res->cols; j++) {
      LA_REAL nr = LA_CBLAS(nrm2)(P.m - n, LA_X(P.X) + n + (ptrdiff_t)j * P.X->ld, 1);
      LA_X(res)[(ptrdiff_t)j * res->ld] = nr * nr;
    }
    /* ridge fits the augmented system and qrp leaves no residual rows: both
    ** report ||A x - b||^2 of the data itself */
    if (!nok && (meth == LS_QRP || ridge > 0))
      LA_T(explicit_residuals)(L, A, B, x, res);
  } else lua_pushnil(L);
  lua_pushinteger(L, rank);
  if (svidx) lua_pushvalue(L, svidx); else lua_pushnil(L);
  LA_T(unscale)(L, ea, eb, F);
  return 4;
}

/* ------------------------------------------------------------ a batch */

/* one member of a batch, run by lak_parallel: dgelsd on its own slices of
** the pools (no Lua; an empty A skips LAPACK: x = 0, rank 0) */
static void LA_T(batch_one)(const void *ctx, int b, void *work) {
  const Batch *B = (const Batch *)ctx;
  BatchItem *p = &B->it[b];
  LA_REAL *e = (LA_REAL *)B->pool, *w = (LA_REAL *)work;
  lapack_int rank = 0;
  p->info = 0;
  if (p->m > 0 && p->n > 0)
    p->info = LA_LAPACKE(gelsd)(LAPACK_COL_MAJOR, p->m, p->n, p->kk, e + p->w, p->m, e + p->x,
                                p->ldx, e + p->s, (LA_REAL)p->rcond, &rank, w, p->lwork,
                                (lapack_int *)(void *)(w + B->lwork));
  p->rank = rank;
}

/* gelsd's workspace sizes for an m x n problem with k columns (m, n > 0) */
static void LA_T(batch_query)(int m, int n, int k, int *lwork, int *liwork) {
  LA_REAL q = 0, d = 0;
  lapack_int iq = 0, rank;
  LA_LAPACKE(gelsd)(LAPACK_COL_MAJOR, m, n, k, &d, m, &d, imax(m, n), &d, (LA_REAL)-1, &rank,
                    &q, -1, &iq);
  *lwork = (int)q > 1 ? (int)q : 1;
  *liwork = iq > 1 ? (int)iq : 1;
}

/* a closed member is an error of its problem's (the checkers' message
** named its stack slot as an argument number) */
static void LA_T(batch_closed)(lua_State *L, const char *F, int idx, int i, const char *what) {
  la_Mat *M = la_testany(L, idx);
  if (M != NULL && (M->flags & LA_CLOSED))
    la_error(L, F, "problem %d: %s is closed%s", i, what,
             (M->flags & LA_GONE) ? " (its storage was finalized)" : "");
}

/* member i's A and b (pushed, of this pass's type) into the anchor at 4
** after the checks; fills p's sizes */
static void LA_T(batch_member)(lua_State *L, const char *F, int i, int finiteb, BatchItem *p) {
  la_Mat *A, *B;
  int t;
  lua_rawgeti(L, 1, i);
  if (!la_testany(L, -1) && !lua_istable(L, -1))
    la_error(L, F, "problem %d: A is %s, expected a matrix", i, la_typename(L, -1));
  LA_T(batch_closed)(L, F, lua_gettop(L), i, "A");
  A = la_checkt(L, lua_gettop(L), F, LA_TYPE);
  lua_rawgeti(L, 2, i);
  t = lua_gettop(L);
  if (!la_testany(L, t) && !lua_istable(L, t) && !lua_isnumber(L, t))
    la_error(L, F, "problem %d: b is %s, expected a matrix or vector", i, la_typename(L, t));
  LA_T(batch_closed)(L, F, t, i, "b");
  B = la_rhst(L, t, F, A->rows, LA_TYPE);
  if (B->rows != A->rows)
    la_error(L, F, "problem %d: A has %d rows but b has %d", i, A->rows, B->rows);
  la_checkfinite(L, A, F, la_pushfstring(L, "As[%d]", i), 1);
  if (finiteb) la_checkfinite(L, B, F, la_pushfstring(L, "bs[%d]", i), 0);
  lua_settop(L, t);
  lua_rawseti(L, 4, 2 * i);
  lua_rawseti(L, 4, 2 * i - 1);
  p->m = A->rows; p->n = A->cols; p->k = B->cols; p->kk = B->cols > 0 ? B->cols : 1;
  p->ldx = imax(1, imax(p->m, p->n));
}

/* the pool's offsets for the nb members (sizes from batch_member), its
** total in *elems; the largest workspace (*lwork elements, *liwork ints) */
static void LA_T(batch_layout)(BatchItem *it, int nb, double rcond, size_t *elems, int *lwork,
                               int *liwork) {
  int i, qm = -1, qn = -1, qk = -1, lw = 1, liw = 1;
  size_t e = 0;
  *lwork = 1; *liwork = 1;
  for (i = 0; i < nb; i++) {
    BatchItem *p = &it[i];
    if (p->m > 0 && p->n > 0 && (p->m != qm || p->n != qn || p->kk != qk)) {
      LA_T(batch_query)(p->m, p->n, p->kk, &lw, &liw);
      qm = p->m; qn = p->n; qk = p->kk;
    }
    p->lwork = p->m > 0 && p->n > 0 ? lw : 0;
    p->liwork = p->m > 0 && p->n > 0 ? liw : 0;
    p->rcond = isnan(rcond) ? LA_EPS * imax(p->m, p->n) : rcond;
    if (p->lwork > *lwork) *lwork = p->lwork;
    if (p->liwork > *liwork) *liwork = p->liwork;
    p->w = e; e += (size_t)p->m * (size_t)p->n;
    p->x = e; e += (size_t)p->ldx * (size_t)p->kk;
    p->s = e; e += (size_t)imin(p->m, p->n);
  }
  *elems = e + 1;
}

/* member i's results as {x =, residuals =, rank =, sv =} (pushes 1) */
static void LA_T(batch_result)(lua_State *L, const char *F, const BatchItem *p, const LA_REAL *e) {
  la_Mat *M;
  int i, j;
  lua_createtable(L, 0, 4);
  M = la_newt(L, F, p->n, p->k, LA_TYPE);
  if (p->n > 0) LA_LAK(copy)(p->n, p->k, e + p->x, p->ldx, LA_X(M), M->ld);
  lua_setfield(L, -2, "x");
  if (p->rank == p->n && p->m > p->n) {
    M = la_newt(L, F, 1, p->k, LA_TYPE);
    for (j = 0; j < p->k; j++) {
      double s = 0;
      for (i = p->n; i < p->m; i++) {
        double v = e[p->x + (size_t)j * p->ldx + i];
        s += v * v;
      }
      LA_X(M)[(size_t)j * M->ld] = (LA_REAL)s;
    }
    lua_setfield(L, -2, "residuals");
  }
  lua_pushinteger(L, p->rank);
  lua_setfield(L, -2, "rank");
  M = la_newt(L, F, imin(p->m, p->n), 1, LA_TYPE);
  for (i = 0; i < M->rows; i++) LA_X(M)[i] = e[p->s + i];
  lua_setfield(L, -2, "sv");
}

/* lstsq(As, bs [, opts]): the batch of this pass's type; see l_lstsq */
static int LA_T(batch)(lua_State *L, const char *F, int nb, double rcond, int finiteb) {
  BatchItem *it;
  Batch job;
  LA_REAL *e;
  size_t elems, wsize;
  int i, liwork, nt = la_threads(0);
  lua_settop(L, 3);
  lua_createtable(L, 2 * nb, 0);         /* 4: the members, anchored */
  it = LA_SCRATCH(L, BatchItem, (size_t)nb + 1);   /* 5 */
  for (i = 1; i <= nb; i++) LA_T(batch_member)(L, F, i, finiteb, &it[i - 1]);
  LA_T(batch_layout)(it, nb, rcond, &elems, &job.lwork, &liwork);
  e = LA_SCRATCH(L, LA_REAL, elems);     /* 6: the pool; 7: each thread's workspace */
  job.it = it; job.pool = e;
  nt = nt < 1 ? 1 : nt > LAK_ATTN_MAXTHREADS ? LAK_ATTN_MAXTHREADS : nt > nb ? nb : nt;
  /* gelsd's work then its iwork, in elements, rounded to 64 bytes */
  wsize = ((size_t)job.lwork + ((size_t)liwork * sizeof(lapack_int) + sizeof(LA_REAL) - 1) /
           sizeof(LA_REAL) + 7) / 8 * 8;
  job.work = LA_SCRATCH(L, LA_REAL, wsize * (size_t)(nt > 0 ? nt : 1));
  for (i = 0; i < nb; i++) {
    BatchItem *p = &it[i];
    la_Mat *A, *B;
    lua_rawgeti(L, 4, 2 * i + 1);
    lua_rawgeti(L, 4, 2 * i + 2);
    A = la_testany(L, -2); B = la_testany(L, -1);
    if (p->m > 0 && p->n > 0) LA_LAK(copy)(p->m, p->n, LA_X(A), A->ld, e + p->w, p->m);
    memset(e + p->x, 0, (size_t)p->ldx * (size_t)p->kk * sizeof *e);
    if (p->m > 0 && p->k > 0) LA_LAK(copy)(p->m, p->k, LA_X(B), B->ld, e + p->x, p->ldx);
    lua_pop(L, 2);
  }
  lak_parallel(nb, nt, LA_T(batch_one), &job, (char *)job.work, wsize * sizeof(LA_REAL));
  for (i = 0; i < nb; i++) {
    if (it[i].info > 0)
      la_error(L, F, "problem %d: the SVD did not converge (%d superdiagonals)", i + 1,
               it[i].info);
    la_checkinfo(L, F, LA_ROUTINE(gelsd), it[i].info);
  }
  lua_createtable(L, nb, 0);
  for (i = 0; i < nb; i++) {
    LA_T(batch_result)(L, F, &it[i], e);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}
