/*
** solve_gen.h: solve.c's typed part written once for both element types
** (src/generate.h): LAPACK's d routines and dgemm in the float64 pass, its
** s routines and sgemm in the float32 pass. inv and det, which only call
** la_lu/la_inverse (typed already) and read the diagonal, stay in solve.c.
*/

/* Solves A X = X (X holds b on entry) for solve's assume = "sym" (dsysv),
** "pos" (dposv), "lower" / "upper" (dtrtrs, that triangle only read;
** A^T X = X with trans: A symmetric for the others).
** A is square with as many rows as X. Pushes scratch: nothing for
** "lower"/"upper", W for "pos", W, ipiv, work for "sym". */
static void LA_T(solve_assume)(lua_State *L, const la_Mat *A, la_Mat *X, int assume,
                              int trans) {
  const char *F = la_fname(L);
  la_Mat *W;
  int n = A->rows, info;
  lapack_int *ipiv;
  if (assume == ASSUME_LOWER || assume == ASSUME_UPPER) {
    info = LA_LAPACKE(trtrs)(LAPACK_COL_MAJOR, assume == ASSUME_LOWER ? 'L' : 'U',
                             trans ? 'T' : 'N', 'N', n, X->cols, LA_X(A), A->ld, LA_X(X), X->ld);
    la_checkinfo(L, F, LA_ROUTINE(trtrs), info);
    if (info > 0) la_error(L, F, "matrix is singular (A(%d,%d) = 0)", info, info);
    return;
  }
  la_checksym(L, A, F);
  W = la_copyof(L, A, F);
  if (assume == ASSUME_POS) {
    info = LA_LAPACKE(posv)(LAPACK_COL_MAJOR, 'L', n, X->cols, LA_X(W), W->ld, LA_X(X), X->ld);
    la_checkinfo(L, F, LA_ROUTINE(posv), info);
    if (info > 0)
      la_error(L, F, "matrix is not positive definite (the leading minor of order %d "
               "is not positive)", info);
    return;
  }
  ipiv = LA_SCRATCH(L, lapack_int, (size_t)n);
  LA_WORKCALL_T(L, F, LA_ROUTINE(sysv), info,
                LA_LAPACKE(sysv)(LAPACK_COL_MAJOR, 'L', n, X->cols, LA_X(W), W->ld, ipiv,
                                 LA_X(X), X->ld, WORK, LWORK));
  if (info > 0) la_error(L, F, "matrix is singular (D(%d,%d) = 0)", info, info);
}

/* X = A \ X (A^T \ X with trans) for square A by la_lu (getrf; getrf2 past
** a subnormal pivot) and getrs, as gesv; fin: A and X were finite, so a solution that is not
** overflows. Pushes W, ipiv. */
static void LA_T(solve_lu)(lua_State *L, const la_Mat *A, la_Mat *X, int fin, int trans,
                           const char *F) {
  lapack_int info, *ipiv;
  la_Mat *W = la_lu(L, A, F, &ipiv, &info);
  if (info > 0) singular(L, F, info);
  info = LA_LAPACKE(getrs)(LAPACK_COL_MAJOR, trans ? 'T' : 'N', A->rows, X->cols, LA_X(W), W->ld, ipiv,
                           LA_X(X), X->ld);
  la_checkinfo(L, F, LA_ROUTINE(getrs), info);
  if (fin && la_tinypivot(W) && !la_allfinite(X))
    overflows(L, F, "the solution", W, la_tinypivot(W));
}

/* solve(A, b [, {assume = "gen", trans = false}]) -> x with A x = b (getrf +
** getrs, as dgesv; assume "sym", "pos", "lower", "upper": solve_assume;
** trans: A^T x = b, by getrs 'T', trtrs 'T', a no-op for "sym" and "pos");
** b is n x k or a vector. An exactly singular A is an error (LAPACK's info), in
** either type, and so is a solution of finite A and b that overflows
** (Inf or NaN: near a subnormal pivot, 1 / pivot is beyond the range).
** dsysv takes a subnormal pivot's reciprocal: such a system is solved
** again by LU. */
static int LA_T(l_solve)(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"assume", "check_finite", "trans", NULL};
  static const char *const assumes[] = {"gen", "sym", "pos", "lower", "upper", NULL};
  la_Mat *A = la_checksquaret(L, 1, F, LA_TYPE), *B, *X;
  int oi = la_optsat(L, 3), assume, xslot, fin, trans;
  la_checkopts(L, oi, F, keys);
  assume = la_optenum(L, oi, "assume", ASSUME_GEN, assumes, F);
  trans = la_optbool(L, oi, "trans", 0, F);
  B = la_rhst(L, 2, F, A->rows, LA_TYPE);
  if (B->rows != A->rows)
    la_error(L, F, "A is %dx%d but b has %d rows", A->rows, A->cols, B->rows);
  if (la_optcheckfinite(L, oi, F)) {
    la_checkfinite(L, A, F, "A", 0);
    la_checkfinite(L, B, F, "b", 0);
  }
  X = la_copyof(L, B, F);
  xslot = lua_gettop(L);
  fin = la_allfinite(A) && la_allfinite(B);
  if (assume == ASSUME_GEN) LA_T(solve_lu)(L, A, X, fin, trans, F);
  else LA_T(solve_assume)(L, A, X, assume, trans);
  if (fin && assume == ASSUME_SYM && !la_allfinite(X)) {
    LA_LAK(copy)(B->rows, B->cols, LA_X(B), B->ld, LA_X(X), X->ld);
    LA_T(solve_lu)(L, A, X, fin, 0, F);   /* symmetric: trans changes nothing */
  }
  if (fin && !la_allfinite(X)) {
    int k = la_tinypivot(A);
    if (k) la_error(L, F, "the solution overflows (A(%d,%d) = %f is subnormal)", k, k,
                    (double)LA_E(A, k - 1, k - 1));
    la_error(L, F, "the solution overflows");
  }
  lua_settop(L, xslot);                  /* X on top */
  return 1;
}

/* pinv(A [, rcond]): V diag(1/s) U^T over s > rcond * s_max (NumPy).
** Default rcond: NumPy's 1e-15 (4.5 eps) in float64; in float32 the same
** 4.5 eps of float32 (1e-15 * 2^29 = 5.4e-7). NumPy 1.24 keeps 1e-15 for
** float32 input but computes it in float64 (linalg's _commonType); with
** sgesdd's singular values, whose noise is eps32 * s_max, 1e-15 would
** invert the noise (pinv of float32 [[1, 2], [2, 4]]: entries of 1e7
** instead of NumPy's 0.04). A given rcond is used as given (NaN and
** negative ones, which would invert zeros, are errors; inf keeps none).
** The cut is compared in double, as NumPy's cutoff array is float64. */
static int LA_T(l_pinv)(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checkt(L, 1, F, LA_TYPE), *U, *s, *Vt, *P;
  double rcond = la_opttol(L, F, 2, "rcond", 1e-15 * (LA_EPS / DBL_EPSILON)), cut;
  int i, j, r = 0;
  la_checkopts(L, la_optsat(L, 2), F, finite_only);
  (void)la_optcheckfinite(L, la_optsat(L, 2), F);
  s = la_svd(L, A, F, 'S');                /* pushes U, s, Vt */
  U = la_testany(L, -3); Vt = la_testany(L, -1);
  cut = s->rows > 0 ? rcond * LA_X(s)[0] : 0.0;
  for (i = 0; i < s->rows; i++) {
    LA_REAL inv = LA_X(s)[i] > cut ? 1 / LA_X(s)[i] : 0;
    if (inv != 0) r = i + 1;
    for (j = 0; j < Vt->cols; j++) LA_E(Vt, i, j) *= inv;
  }
  P = la_newzerot(L, F, A->cols, A->rows, LA_TYPE);
  LA_LAK(gemm)('T', 'T', A->cols, A->rows, r, 1, LA_X(Vt), Vt->ld, LA_X(U), U->ld,
               0, LA_X(P), P->ld);
  return 1;
}

/* A^k for the square matrix at 1 and the integer k at 2 (checked by
** mpower in solve.c) by repeated squaring with dgemm, as NumPy's
** matrix_power: the squares B, B^2, B^4, ... and the product of those the
** bits of |k| pick, starting from the first of them (A^10 = A^2 A^8, four
** products); k = 0 gives the identity, k < 0 powers the inverse. The three
** matrices (base, product, scratch) trade places instead of being copied.
** Pushes the base and two more; the result on top. */
static int LA_T(mpower)(lua_State *L, const char *fname) {
  la_Mat *A = la_checksquaret(L, 1, fname, LA_TYPE), *M[3];
  lua_Integer k = lua_tointeger(L, 2);
  la_Unsigned e = k < 0 ? (la_Unsigned)0 - (la_Unsigned)k : (la_Unsigned)k;
  int n = A->rows, i, b = 0, p = -1, t, top;   /* M[b]: base, M[p]: product */
  if (k < 0) {                                  /* pushes the base */
    lapack_int info, *ipiv;
    M[0] = la_lu(L, A, fname, &ipiv, &info);    /* pushes M[0], ipiv */
    if (info > 0) singular(L, fname, info);
    info = la_inverse(L, M[0], ipiv, fname);
    if (info) overflows(L, fname, "the inverse", M[0], info);
    lua_pop(L, 1);                              /* ipiv */
  } else M[0] = la_copyof(L, A, fname);
  top = lua_gettop(L);                          /* M[i] is at top + i */
  M[1] = la_newt(L, fname, n, n, LA_TYPE);
  M[2] = la_newt(L, fname, n, n, LA_TYPE);
  if (e == 0) {
    la_fill(M[1], 0.0);
    for (i = 0; i < n; i++) LA_E(M[1], i, i) = 1;
    p = 1;
  }
  while (e > 0) {
    if (e & 1) {
      if (p < 0) {                              /* the first factor: B itself */
        p = (b + 1) % 3;
        la_copyto(M[b], M[p]);
      } else {
        t = 3 - b - p;
        LA_LAK(gemm)('N', 'N', n, n, n, 1, LA_X(M[p]), M[p]->ld, LA_X(M[b]), M[b]->ld, 0, LA_X(M[t]),
                     M[t]->ld);
        p = t;
      }
    }
    e >>= 1;
    if (e > 0) {
      t = p < 0 ? (b + 1) % 3 : 3 - b - p;
      LA_LAK(gemm)('N', 'N', n, n, n, 1, LA_X(M[b]), M[b]->ld, LA_X(M[b]), M[b]->ld, 0, LA_X(M[t]),
                     M[t]->ld);
      b = t;
    }
  }
  lua_pushvalue(L, top + p);
  return 1;
}
