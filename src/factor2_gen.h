/*
** factor2_gen.h: factor2.c's typed part, written once for both element
** types (src/generate.h): LAPACK's d routines and dgemm in the float64
** pass, its s routines and sgemm in the float32 pass.
*/

/* ------------------------------------------------------------ LU */

/* lu_factor of the matrix at 1 (of this type), options at 2: pushes F.
** By la_lu, as lu and solve: getrf, or getrf2 past a subnormal pivot
** (getrf alone leaves Inf and NaN in the factors there). */
static int LA_T(lu_factor)(lua_State *L, const char *fname) {
  la_Mat *A = la_checkt(L, 1, fname, LA_TYPE), *P;
  int k = A->rows < A->cols ? A->rows : A->cols, i, info;
  lapack_int *ipiv;
  la_checkopts(L, 2, fname, finite_only);
  if (la_optcheckfinite(L, 2, fname)) la_checkfinite(L, A, fname, "A", 0);
  lua_createtable(L, 0, 2);                       /* F, then W, ipiv, P */
  (void)la_lu(L, A, fname, &ipiv, &info);
  P = la_newt(L, fname, k, 1, LA_F64);
  for (i = 0; i < k; i++) P->data[i] = (double)ipiv[i];
  lua_setfield(L, -4, "piv");
  lua_pop(L, 1);                                  /* ipiv */
  lua_setfield(L, -2, "lu");
  return 1;
}

/* ------------------------------------------------------------ Cholesky */

/* cho_factor of the symmetric matrix at 1 (this type): pushes F */
static int LA_T(cho_factor)(lua_State *L, const char *fname, int lower, int check) {
  la_Mat *A = la_checksquaret(L, 1, fname, LA_TYPE), *C;
  int info, i, j;
  if (check) la_checkfinite(L, A, fname, "A", 0);
  la_checksym(L, A, fname);
  lua_createtable(L, 0, 2);
  C = la_copyof(L, A, fname);
  info = LA_LAPACKE(potrf)(LAPACK_COL_MAJOR, lower ? 'L' : 'U', C->rows, LA_X(C), C->ld);
  la_checkinfo(L, fname, LA_ROUTINE(potrf), info);
  if (info > 0) notpd(L, fname, info);
  for (j = 0; j < C->cols; j++)                   /* the other triangle: zeros */
    for (i = 0; i < C->rows; i++)
      if (lower ? i < j : i > j) LA_E(C, i, j) = 0;
  lua_setfield(L, -2, "c");
  lua_pushboolean(L, lower);
  lua_setfield(L, -2, "lower");
  return 1;
}

/* x with A x = b (b at 2) from the factor at 3 (n x n, this type, named
** F.key): ipiv given, by dgetrs (trans: A^T x = b), else dpotrs with the
** triangle lower: pushes x */
static int LA_T(factorsolve)(lua_State *L, const char *fname, const char *key,
                             const lapack_int *ipiv, int trans, int lower, int check) {
  la_Mat *C = la_checkt(L, 3, fname, LA_TYPE), *B, *X;
  int n = C->rows, info;
  B = la_rhst(L, 2, fname, n, LA_TYPE);
  if (B->rows != n)
    la_error(L, fname, "F.%s is %dx%d but b has %d rows", key, n, n, B->rows);
  if (check) la_checkfinite(L, B, fname, "b", 0);
  if (check && !ipiv) la_checkfinite(L, C, fname, "F.c", 0);   /* SciPy's cho_solve checks c too */
  X = la_copyof(L, B, fname);
  if (ipiv) {
    info = LA_LAPACKE(getrs)(LAPACK_COL_MAJOR, trans ? 'T' : 'N', n, X->cols, LA_X(C), C->ld,
                             ipiv, LA_X(X), X->ld);
    la_checkinfo(L, fname, LA_ROUTINE(getrs), info);
  } else {
    info = LA_LAPACKE(potrs)(LAPACK_COL_MAJOR, lower ? 'L' : 'U', n, X->cols, LA_X(C), C->ld,
                             LA_X(X), X->ld);
    la_checkinfo(L, fname, LA_ROUTINE(potrs), info);
  }
  return 1;
}

/* ------------------------------------------------------------ multi_dot */

/* The product of operands i..j (stack slots base + i, ..., this type) in
** the order of the splits s (s[i * n + j]: the last operand of the left
** part): pushes 1 */
static la_Mat *LA_T(chain)(lua_State *L, const char *fname, int base, const int *s, int n,
                           int i, int j) {
  la_Mat *X, *Y, *C;
  int k;
  if (i == j) {                         /* room: multi_dot checked 3 slots an operand */
    lua_pushvalue(L, base + i);
    return la_testany(L, -1);
  }
  k = s[(size_t)i * n + j];
  X = LA_T(chain)(L, fname, base, s, n, i, k);
  Y = LA_T(chain)(L, fname, base, s, n, k + 1, j);
  C = la_newzerot(L, fname, X->rows, Y->cols, LA_TYPE);
  LA_LAK(gemm)('N', 'N', X->rows, Y->cols, X->cols, 1, LA_X(X), X->ld, LA_X(Y), Y->ld,
               0, LA_X(C), C->ld);
  lua_replace(L, -3);                             /* C in X's slot */
  lua_pop(L, 1);                                  /* Y */
  return C;
}

/* the n >= 2 operands at slots base..base + n - 1 (this type, chained
** shapes), multiplied in the cheapest order: pushes the product */
static int LA_T(multi_dot)(lua_State *L, const char *fname, int base, int n) {
  int *s = LA_SCRATCH(L, int, (size_t)n * (size_t)n);
  double *p = la_scratch(L, (size_t)n + 1);
  la_Mat *A;
  int i;
  for (i = 0; i < n; i++) {
    A = la_testany(L, base + i);
    p[i] = A->rows;
    p[i + 1] = A->cols;
  }
  chainorder(L, n, p, s);                         /* pushes its costs */
  LA_T(chain)(L, fname, base, s, n, 0, n - 1);
  return 1;
}
