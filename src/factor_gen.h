/*
** factor_gen.h: factor.c's functions written once for both element types
** (src/generate.h): LAPACK's d routines in the float64 pass, its s
** routines in the float32 pass. expm stays in factor.c (float64 inside).
*/

static void LA_T(triu)(const la_Mat *W, la_Mat *R) {
  int i, j;
  for (j = 0; j < R->cols && R->rows > 0; j++)
    for (i = 0; i <= j && i < R->rows; i++) LA_E(R, i, j) = LA_E(W, i, j);
}

/* qr's modes without Q: the factored W (at -2, or at -3 with pivoting,
** under tau, then jpvt, and the work): pushes R (k x n), or W and tau as a
** k x 1 matrix, then perm with pivoting */
static int LA_T(qr_rraw)(lua_State *L, const char *fname, la_Mat *W, const LA_REAL *tau,
                         const lapack_int *jpvt, int k, int raw) {
  int j, n = W->cols;
  if (raw) {
    la_Mat *t;
    lua_pushvalue(L, jpvt ? -4 : -3);
    t = la_newt(L, fname, k, 1, LA_TYPE);
    for (j = 0; j < k; j++) LA_X(t)[j] = tau[j];
  } else LA_T(triu)(W, la_newzerot(L, fname, k, n, LA_TYPE));
  if (jpvt) {
    lua_createtable(L, n, 0);
    for (j = 0; j < n; j++) { lua_pushinteger(L, jpvt[j]); lua_rawseti(L, -2, j + 1); }
  }
  return (raw ? 2 : 1) + (jpvt != NULL);
}

/* qr(A [, {mode = "reduced"|"complete"|"r"|"raw", pivoting = false}]) -> Q, R
** [, perm] Householder: dgeqrf (dgeqp3 with pivoting), then dorgqr forms Q.
** mode "r": R alone (k x n); "raw": dgeqrf's H and tau (LAPACK's
** column-major H; NumPy's h is its transpose, in C order) [, perm]. */
static int LA_T(l_qr)(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"mode", "pivoting", "check_finite", NULL};
  static const char *const modes[] = {"reduced", "complete", "r", "raw", NULL};
  la_Mat *A = la_checkt(L, 1, F, LA_TYPE), *W, *R, *Q;
  int complete, piv, m = A->rows, n = A->cols, k = imin(m, n), qc, j, mode;
  lapack_int info, *jpvt = NULL;
  LA_REAL *tau;
  la_checkopts(L, 2, F, keys);
  mode = la_optenum(L, 2, "mode", 0, modes, F);
  complete = mode == 1;
  piv = la_optbool(L, 2, "pivoting", 0, F);
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, A, F, "A", 0);
  qc = complete ? m : k;
  W = la_copyof(L, A, F);                /* pushes W, tau [, jpvt], work */
  tau = LA_SCRATCH(L, LA_REAL, (size_t)k);
  if (piv) {
    jpvt = LA_SCRATCH(L, lapack_int, (size_t)n);
    for (j = 0; j < n; j++) jpvt[j] = 0;
    LA_WORKCALL_T(L, F, LA_ROUTINE(geqp3), info,
                LA_LAPACKE(geqp3)(LAPACK_COL_MAJOR, m, n, LA_X(W), W->ld, jpvt, tau,
                                    WORK, LWORK));
  } else {
    LA_WORKCALL_T(L, F, LA_ROUTINE(geqrf), info,
                LA_LAPACKE(geqrf)(LAPACK_COL_MAJOR, m, n, LA_X(W), W->ld, tau, WORK, LWORK));
  }
  if (mode >= 2) return LA_T(qr_rraw)(L, F, W, tau, jpvt, k, mode == 3);
  Q = la_newt(L, F, m, qc, LA_TYPE);
  LA_LAK(copy)(m, k, LA_X(W), W->ld, LA_X(Q), Q->ld);
  LA_WORKCALL_T(L, F, LA_ROUTINE(orgqr), info,
              LA_LAPACKE(orgqr)(LAPACK_COL_MAJOR, m, qc, k, LA_X(Q), Q->ld, tau, WORK, LWORK));
  lua_pop(L, 1);                         /* dorgqr's work; Q on top */
  R = la_newzerot(L, F, qc, n, LA_TYPE);
  LA_T(triu)(W, R);
  if (!piv) return 2;                    /* Q, R */
  lua_createtable(L, n, 0);
  for (j = 0; j < n; j++) { lua_pushinteger(L, jpvt[j]); lua_rawseti(L, -2, j + 1); }
  return 3;                              /* Q, R, perm */
}

/* svd(A [, {full = false}]) -> U, s, Vt with A = U diag(s) Vt */
static int LA_T(l_svd)(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"full", "check_finite", NULL};
  la_Mat *A = la_checkt(L, 1, F, LA_TYPE);
  la_checkopts(L, 2, F, keys);
  (void)la_optcheckfinite(L, 2, F);   /* validated; la_svd checks A regardless */
  la_svd(L, A, F, la_optbool(L, 2, "full", 0, F) ? 'A' : 'S');
  return 3;
}

/* eigh(A) -> w, V (job 'V') and eigvalsh(A) -> w (job 'N'): dsyevd on a
** copy of A; w ascending, A V = V diag(w). By default A must be symmetric
** and its lower triangle is read; {uplo = "L" | "U"} reads that triangle
** alone, unchecked, as NumPy's UPLO. */
static int LA_T(eigh)(lua_State *L, char job) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquaret(L, 1, F, LA_TYPE), *V, *w;
  int n = A->rows, uplo;
  lapack_int info;
  la_checkopts(L, 2, F, eigh_keys);
  (void)la_optcheckfinite(L, 2, F);  /* validated; dsyevd iterates on A */
  uplo = la_optenum(L, 2, "uplo", -1, uplos, F);
  la_checkfinite(L, A, F, "A", 1);
  if (uplo < 0) la_checksym(L, A, F);
  w = la_newt(L, F, n, 1, LA_TYPE);
  V = la_copyof(L, A, F);
  LA_WORKCALL_IWORK_T(L, F, LA_ROUTINE(syevd), info,
                    LA_LAPACKE(syevd)(LAPACK_COL_MAJOR, job, uplo == 1 ? 'U' : 'L', n, LA_X(V),
                                        V->ld, LA_X(w), WORK, LWORK, IWORK, LIWORK));
  if (info > 0) la_error(L, F, "eigenvalue algorithm did not converge");
  lua_pop(L, job == 'N' ? 3 : 2);        /* IWORK, WORK (and V): w, V or w on top */
  return job == 'N' ? 1 : 2;
}

static int LA_T(l_eigh)(lua_State *L) { return LA_T(eigh)(L, 'V'); }
static int LA_T(l_eigvalsh)(lua_State *L) { return LA_T(eigh)(L, 'N'); }

/* cholesky(A [, {lower = true}]) -> L with A = L L^T (or U with A = U^T U):
** dpotrf on a symmetric A (checked); NumPy's default is lower, SciPy's
** upper */
static int LA_T(l_cholesky)(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"lower", "check_finite", NULL};
  la_Mat *A = la_checksquaret(L, 1, F, LA_TYPE), *C;
  int lower, info, j;
  la_checkopts(L, 2, F, keys);
  lower = la_optbool(L, 2, "lower", 1, F);
  la_checksymfinite(L, A, F, la_optcheckfinite(L, 2, F));
  C = la_copyof(L, A, F);
  info = LA_LAPACKE(potrf)(LAPACK_COL_MAJOR, lower ? 'L' : 'U', C->rows, LA_X(C), C->ld);
  la_checkinfo(L, F, LA_ROUTINE(potrf), info);
  if (info > 0) notpd(L, F, info);
  for (j = 0; j < C->cols; j++) {        /* zero the other triangle */
    LA_REAL *c = LA_X(C) + (ptrdiff_t)j * C->ld;
    if (lower) memset(c, 0, (size_t)j * sizeof *c);
    else memset(c + j + 1, 0, (size_t)(C->rows - j - 1) * sizeof *c);
  }
  return 1;
}

/* lu(A) -> L, U, perm, P: P A = L U (Octave's [L, U, P] = lu(A)), A m x n,
** L m x k unit lower, U k x n upper, k = min(m, n); perm is a table with
** A[perm[i], :] = (L U)[i, :]. A singular A factors fine (U has a zero
** pivot), as in Octave and SciPy. */
static int LA_T(l_lu)(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkt(L, 1, F, LA_TYPE), *W, *Lm, *U, *P;
  int m = A->rows, n = A->cols, k = m < n ? m : n, i, j, info, *perm;
  lapack_int *ipiv;
  la_checkopts(L, 2, F, finite_only);
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, A, F, "A", 0);
  W = la_lu(L, A, F, &ipiv, &info);     /* pushes W, ipiv, perm's scratch */
  perm = LA_SCRATCH(L, int, (size_t)m);
  Lm = la_newzerot(L, F, m, k, LA_TYPE);           /* pushes the results: Lm, U, then perm, P */
  U = la_newzerot(L, F, k, n, LA_TYPE);
  for (j = 0; j < n && m > 0; j++)        /* 0 x 2^31-1: no column to visit */
    for (i = 0; i < m; i++) {
      if (i <= j && i < k) LA_E(U, i, j) = LA_E(W, i, j);
      else if (j < k) LA_E(Lm, i, j) = LA_E(W, i, j);
    }
  for (i = 0; i < k; i++) LA_E(Lm, i, i) = 1.0;
  for (i = 0; i < m; i++) perm[i] = i;
  for (i = 0; i < k; i++) {              /* the row swaps, in order */
    int t = perm[i]; perm[i] = perm[ipiv[i] - 1]; perm[ipiv[i] - 1] = t;
  }
  lua_createtable(L, m, 0);
  P = la_newzerot(L, F, m, m, LA_TYPE);
  for (i = 0; i < m; i++) {
    lua_pushinteger(L, perm[i] + 1);
    lua_rawseti(L, -3, i + 1);           /* into perm, under P */
    LA_E(P, i, perm[i]) = 1.0;
  }
  return 4;                              /* Lm, U, perm, P */
}

/* dgeev on a copy of square A: pushes wr, wi (n x 1) and, with vectors,
** VR (n x n), then with left VL (n x n); returns VR or NULL */
static la_Mat *LA_T(geev)(lua_State *L, la_Mat *A, const char *fname, int vectors, int left) {
  int n = A->rows, info, wslot, top;
  la_Mat *W, *wr, *wi, *VR = NULL, *VL = NULL;
  LA_REAL dummy;
  la_checkfinite(L, A, fname, "A", 1);
  W = la_copyof(L, A, fname);            /* removed below the results at the end */
  wslot = lua_gettop(L);
  wr = la_newt(L, fname, n, 1, LA_TYPE);
  wi = la_newt(L, fname, n, 1, LA_TYPE);
  if (vectors) VR = la_newt(L, fname, n, n, LA_TYPE);
  if (left) VL = la_newt(L, fname, n, n, LA_TYPE);
  top = lua_gettop(L);
  LA_WORKCALL_T(L, fname, LA_ROUTINE(geev), info,
              LA_LAPACKE(geev)(LAPACK_COL_MAJOR, VL ? 'V' : 'N', vectors ? 'V' : 'N', n,
                                 LA_X(W), W->ld, LA_X(wr), LA_X(wi), VL ? LA_X(VL) : &dummy,
                                 VL ? VL->ld : 1, VR ? LA_X(VR) : &dummy, VR ? VR->ld : 1,
                                 WORK, LWORK));
  if (info > 0) la_error(L, fname, "QR algorithm did not converge (%d eigenvalues)", info);
  lua_settop(L, top);                    /* drops the workspace */
  lua_remove(L, wslot);                  /* W: wr, wi [, VR [, VL]] on top */
  return VR;
}

/* scales the eigenvector columns of V (dggev's packing, pairs where
** wi(j) > 0) to unit 2-norm, as SciPy's eig(a, b) */
static void LA_T(unitcols)(la_Mat *V, const la_Mat *wi) {
  int n = V->rows, i, j, k;
  for (j = 0; j < n; j += k) {
    double s = 0;
    k = LA_X(wi)[j] != 0 && j + 1 < n ? 2 : 1;
    for (i = 0; i < n * k; i++) s += (double)LA_E(V, i % n, j + i / n) * LA_E(V, i % n, j + i / n);
    if (s > 0)
      for (i = 0; i < n * k; i++) LA_E(V, i % n, j + i / n) /= sqrt(s);
  }
}

/* dggev on copies of A and B (n x n): pushes wr, wi, VR [, VL] with
** w = alpha / beta, inf for beta = 0 (NaN when alpha is 0 too: NaN + NaN i
** if some eigenvalue is complex), SciPy's eig(a, b) */
static void LA_T(ggev)(lua_State *L, la_Mat *A, la_Mat *B, const char *fname, int left) {
  int n = A->rows, info, j, top, cplx = 0;
  la_Mat *WA, *WB, *wr, *wi, *VR, *VL = NULL;
  LA_REAL dummy, *beta;
  la_checkfinite(L, A, fname, "A", 1);
  la_checkfinite(L, B, fname, "B", 1);
  WA = la_copyof(L, A, fname);           /* pushes WA, WB, beta, the results, the work */
  WB = la_copyof(L, B, fname);
  beta = LA_SCRATCH(L, LA_REAL, (size_t)n + 1);
  top = lua_gettop(L);
  wr = la_newt(L, fname, n, 1, LA_TYPE);
  wi = la_newt(L, fname, n, 1, LA_TYPE);
  VR = la_newt(L, fname, n, n, LA_TYPE);
  if (left) VL = la_newt(L, fname, n, n, LA_TYPE);
  LA_WORKCALL_T(L, fname, LA_ROUTINE(ggev), info,
              LA_LAPACKE(ggev)(LAPACK_COL_MAJOR, VL ? 'V' : 'N', 'V', n, LA_X(WA), WA->ld,
                                 LA_X(WB), WB->ld, LA_X(wr), LA_X(wi), beta,
                                 VL ? LA_X(VL) : &dummy, VL ? VL->ld : 1, LA_X(VR), VR->ld,
                                 WORK, LWORK));
  if (info > 0) la_error(L, fname, "generalized eigenvalue algorithm (%s) failed (info %d)",
                         LA_ROUTINE(ggev), info);
  LA_T(unitcols)(VR, wi);
  if (VL) LA_T(unitcols)(VL, wi);
  for (j = 0; j < n; j++) cplx |= LA_X(wi)[j] != 0;
  for (j = 0; j < n; j++) {
    LA_REAL ar = LA_X(wr)[j], ai = LA_X(wi)[j];
    if (beta[j] != 0) { LA_X(wr)[j] = ar / beta[j]; LA_X(wi)[j] = ai / beta[j]; }
    else if (ar != 0 || ai != 0) { LA_X(wr)[j] = (LA_REAL)HUGE_VAL; LA_X(wi)[j] = 0; }
    else { LA_X(wr)[j] = (LA_REAL)NAN; LA_X(wi)[j] = cplx ? (LA_REAL)NAN : 0; }
  }
  lua_settop(L, top + (left ? 4 : 3));   /* drops the work */
  for (j = 0; j < 3; j++) lua_remove(L, top - 2);   /* WA, WB, beta */
}

/* arg 2 of eig: B (a matrix, a number, or a table with an entry 1) or
** else options */
static int LA_T(hasB)(lua_State *L) {
  int r;
  if (la_testany(L, 2) || lua_type(L, 2) == LUA_TNUMBER) return 1;
  if (!lua_istable(L, 2)) return 0;
  lua_rawgeti(L, 2, 1);
  r = !lua_isnil(L, -1);
  lua_pop(L, 1);
  return r;
}

/* eig(A [, B] [, {left = false}]) -> wr, wi, VR [, VL]: eigenvalues
** wr + i wi (LAPACK's order; complex pairs adjacent, positive imaginary
** part first) and right eigenvectors: for a real eigenvalue column j of VR;
** for a pair (j, j+1) the vectors are VR(:, j) +- i VR(:, j+1) (dgeev's
** packing). Unit 2-norm, largest component real (NumPy's eig gives the
** same vectors as complex columns). With B: the generalized problem
** A v = w B v (dggev, SciPy's eig(a, b)): w = alpha / beta, inf where
** beta = 0, vectors scaled to unit 2-norm. left = true adds VL, the left
** eigenvectors (u^H A = w u^H, or u^H A = w u^H B), packed alike: SciPy's
** left=True, which returns w, vl, vr; VL comes last here so that the
** first three results do not move. */
static int LA_T(l_eig)(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"left", "check_finite", NULL};
  la_Mat *A = la_checksquaret(L, 1, F, LA_TYPE), *B = NULL;
  int left, o = 2;
  if (LA_T(hasB)(L)) {
    B = la_checksquaret(L, 2, F, LA_TYPE);
    if (B->rows != A->rows)
      return la_error(L, F, "A is %dx%d but B is %dx%d", A->rows, A->cols, B->rows, B->cols);
    o = 3;
  } else if (lua_isnil(L, 2)) o = 3;     /* eig(A, nil, opts) */
  else if (!lua_isnoneornil(L, 3))
    return la_error(L, F, "bad argument #2 (matrix B expected before the options)");
  la_checkopts(L, o, F, keys);
  left = la_optbool(L, o, "left", 0, F);
  (void)la_optcheckfinite(L, o, F);     /* dgeev iterates: A is checked regardless */
  lua_settop(L, 2);
  if (B) LA_T(ggev)(L, A, B, F, left);
  else LA_T(geev)(L, A, F, 1, left);
  return left ? 4 : 3;                   /* wr, wi, VR [, VL] */
}

/* eigvals(A) -> wr, wi */
static int LA_T(l_eigvals)(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquaret(L, 1, F, LA_TYPE);
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);
  lua_settop(L, 1);
  LA_T(geev)(L, A, F, 0, 0);
  return 2;                              /* wr, wi */
}

/* schur's sort conditions (SciPy 1.10's: lhp re < 0, rhp re >= 0, iuc
** |w| <= 1, ouc |w| > 1) */
typedef lapack_logical (*LA_T(select_fn))(const LA_REAL *, const LA_REAL *);

static lapack_logical LA_T(lhp)(const LA_REAL *re, const LA_REAL *im) {
  (void)im; return *re < 0;
}
static lapack_logical LA_T(rhp)(const LA_REAL *re, const LA_REAL *im) {
  (void)im; return *re >= 0;
}
static lapack_logical LA_T(iuc)(const LA_REAL *re, const LA_REAL *im) {
  return hypot(*re, *im) <= 1;
}
static lapack_logical LA_T(ouc)(const LA_REAL *re, const LA_REAL *im) {
  return hypot(*re, *im) > 1;
}

/* schur(A [, {sort = "lhp"|"rhp"|"iuc"|"ouc"}]) -> T, Z [, sdim]: A = Z T
** Z^T, Z orthogonal, T upper quasi-triangular (real Schur form: 2x2
** blocks for complex pairs), dgees (SciPy's schur(A, output="real")).
** With sort: the sdim eigenvalues meeting the condition lead T's diagonal
** (lhp: real part < 0; rhp: >= 0; iuc: |w| <= 1; ouc: |w| > 1, SciPy's
** conditions), as SciPy's schur(a, sort=...) -> T, Z, sdim. */
static int LA_T(l_schur)(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"sort", "check_finite", NULL};
  static const char *const sorts[] = {"lhp", "rhp", "iuc", "ouc", NULL};
  static const LA_T(select_fn) selects[] = {LA_T(lhp), LA_T(rhp), LA_T(iuc), LA_T(ouc)};
  la_Mat *A = la_checksquaret(L, 1, F, LA_TYPE), *T, *Z;
  int n = A->rows, info, sdim, results, sort;
  LA_REAL *wr;
  lapack_logical *bwork = NULL;
  la_checkopts(L, 2, F, keys);
  sort = la_optenum(L, 2, "sort", -1, sorts, F);
  (void)la_optcheckfinite(L, 2, F);
  la_checkfinite(L, A, F, "A", 1);
  T = la_copyof(L, A, F);
  Z = la_newt(L, F, n, n, LA_TYPE);
  results = lua_gettop(L);               /* T, Z; the workspace goes above them */
  wr = LA_SCRATCH(L, LA_REAL, 2 * (size_t)n);
  if (sort >= 0) bwork = LA_SCRATCH(L, lapack_logical, (size_t)n + 1);
  LA_WORKCALL_T(L, F, LA_ROUTINE(gees), info,
              LA_LAPACKE(gees)(LAPACK_COL_MAJOR, 'V', sort >= 0 ? 'S' : 'N',
                                 sort >= 0 ? selects[sort] : NULL, n, LA_X(T), T->ld, &sdim,
                                 wr, wr + n, LA_X(Z), Z->ld, WORK, LWORK, bwork));
  if (info == n + 1) la_error(L, F, "eigenvalues could not be separated for reordering");
  if (info == n + 2) la_error(L, F, "leading eigenvalues do not satisfy the sort condition "
                              "after reordering (rounding)");
  if (info > 0) la_error(L, F, "QR algorithm did not converge");
  lua_settop(L, results);
  if (sort < 0) return 2;                /* T, Z */
  lua_pushinteger(L, sdim);
  return 3;                              /* T, Z, sdim */
}

/* hessenberg(A) -> H, Q: A = Q H Q^T, H zero below the first subdiagonal
** (dgehrd + dorghr; SciPy's hessenberg(A, calc_q=True)) */
static int LA_T(l_hessenberg)(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquaret(L, 1, F, LA_TYPE), *H, *Q;
  int n = A->rows, info, i, j, results;
  LA_REAL *tau;
  la_checkopts(L, 2, F, finite_only);
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, A, F, "A", 0);
  H = la_copyof(L, A, F);
  Q = la_newt(L, F, n, n, LA_TYPE);
  results = lua_gettop(L);               /* H, Q; tau and the workspaces go above */
  tau = LA_SCRATCH(L, LA_REAL, (size_t)n);
  LA_WORKCALL_T(L, F, LA_ROUTINE(gehrd), info,
              LA_LAPACKE(gehrd)(LAPACK_COL_MAJOR, n, 1, n, LA_X(H), H->ld, tau, WORK, LWORK));
  if (n > 0) LA_LAK(copy)(n, n, LA_X(H), H->ld, LA_X(Q), Q->ld);
  LA_WORKCALL_T(L, F, LA_ROUTINE(orghr), info,
              LA_LAPACKE(orghr)(LAPACK_COL_MAJOR, n, 1, n, LA_X(Q), Q->ld, tau, WORK, LWORK));
  for (j = 0; j < n; j++)
    for (i = j + 2; i < n; i++) LA_E(H, i, j) = 0.0;
  lua_settop(L, results);
  return 2;                              /* H, Q */
}

/* null(A [, tol]) / orth(A [, tol]): orthonormal bases of the null space
** (columns of V past the rank) and of the range (columns of U up to it);
** the rank counts singular values above tol, default max(m, n) * s_max *
** eps (Octave's); the SVD needs finite entries */
static int LA_T(nullorth)(lua_State *L, const char *fname, int wantnull) {
  la_Mat *A = la_checkt(L, 1, fname, LA_TYPE), *U, *s, *Vt, *B;
  double tol;
  int i, j, r = 0, m = A->rows, n = A->cols;
  tol = lua_istable(L, 2) ? la_optargnum(L, fname, 2, -1.0) : la_opttol(L, fname, 2, "tol", -1.0);
  s = la_svd(L, A, fname, 'A');                 /* pushes U, s, Vt */
  U = la_testany(L, -3); Vt = la_testany(L, -1);
  if (tol < 0) tol = s->rows > 0 ? (m > n ? m : n) * LA_X(s)[0] * LA_EPS : 0.0;
  for (i = 0; i < s->rows; i++) if (LA_X(s)[i] > tol) r = i + 1;
  if (wantnull) {
    B = la_newt(L, fname, n, n - r, LA_TYPE);
    for (j = 0; j < n - r; j++)
      for (i = 0; i < n; i++) LA_E(B, i, j) = LA_E(Vt, r + j, i);
  } else {
    B = la_newt(L, fname, m, r, LA_TYPE);
    if (r > 0) LA_LAK(copy)(m, r, LA_X(U), U->ld, LA_X(B), B->ld);
  }
  return 1;
}

static int LA_T(l_null)(lua_State *L) { return LA_T(nullorth)(L, la_fname(L), 1); }

static int LA_T(l_orth)(lua_State *L) { return LA_T(nullorth)(L, la_fname(L), 0); }

