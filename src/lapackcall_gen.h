/*
** lapackcall_gen.h: the SVD and LU calls of lapackcall.c, written once for
** both element types (src/generate.h); the results have A's type.
*/

static la_Mat *LA_T(svd)(lua_State *L, const la_Mat *A, const char *fname, char job) {
  la_Mat *W, *U = NULL, *s, *Vt = NULL;
  int m = A->rows, n = A->cols, k = m < n ? m : n, top, i;
  int um = job == 'N' ? 1 : m, vn = job == 'N' ? 1 : n;
  lapack_int info, *iwork;
  la_checkfinite(L, A, fname, "A", 1);
  W = la_copyof(L, A, fname);
  if (job != 'N') U = la_newzerot(L, fname, m, job == 'A' ? m : k, LA_TYPE);
  s = la_newt(L, fname, k, 1, LA_TYPE);
  if (job != 'N') Vt = la_newzerot(L, fname, job == 'A' ? n : k, n, LA_TYPE);
  top = lua_gettop(L);
  iwork = LA_SCRATCH(L, lapack_int, 8 * (size_t)k + 1);
  LA_WORKCALL_T(L, fname, LA_ROUTINE(gesdd), info,
                LA_LAPACKE(gesdd)(LAPACK_COL_MAJOR, job, m, n, LA_X(W), W->ld, LA_X(s),
                                  U ? LA_X(U) : NULL, U ? U->ld : um,
                                  Vt ? LA_X(Vt) : NULL, Vt ? Vt->ld : vn, WORK, LWORK, iwork));
  if (info > 0) la_error(L, fname, "SVD did not converge");
  lua_settop(L, top);
  lua_remove(L, job == 'N' ? -2 : -4);      /* W */
  if (job == 'A' && k == 0) {               /* LAPACK returns at once: the bases are I */
    for (i = 0; i < m; i++) LA_E(U, i, i) = 1;
    for (i = 0; i < n; i++) LA_E(Vt, i, i) = 1;
  }
  return s;
}

/* 1-based index of the first subnormal entry on W's diagonal (its first
** min(rows, cols)), else 0 */
static int LA_T(tinypivot)(const la_Mat *W) {
  const LA_REAL tiny = LA_DOUBLE ? (LA_REAL)DBL_MIN : (LA_REAL)FLT_MIN;
  int i, k = W->rows < W->cols ? W->rows : W->cols;
  for (i = 0; i < k; i++)
    if (LA_E(W, i, i) != 0 && fabs(LA_E(W, i, i)) < tiny) return i + 1;
  return 0;
}

/* LU of a copy of A (pushed); ipiv in Lua-owned memory (pushed). OpenBLAS's
** getrf scales a column by the reciprocal of its pivot, which is Inf for
** a subnormal pivot and leaves Inf and NaN in the factors; past such a
** pivot (or any non-finite one) A is factored again by LAPACK's recursive
** getrf2, which divides by a pivot that small, so the factors are right. */
static la_Mat *LA_T(lu)(lua_State *L, const la_Mat *A, const char *fname, lapack_int **ipiv,
                        lapack_int *info) {
  la_Mat *W = la_copyof(L, A, fname);
  int i, k = A->rows < A->cols ? A->rows : A->cols, redo = 0;
  *ipiv = LA_SCRATCH(L, lapack_int, (size_t)(k > 0 ? k : 1));
  *info = LA_LAPACKE(getrf)(LAPACK_COL_MAJOR, A->rows, A->cols, LA_X(W), W->ld, *ipiv);
  la_checkinfo(L, fname, LA_ROUTINE(getrf), *info);
  for (i = 0; i < k; i++) redo |= !isfinite(LA_E(W, i, i));
  if (redo || LA_T(tinypivot)(W)) {
    LA_LAK(copy)(A->rows, A->cols, LA_X(A), A->ld, LA_X(W), W->ld);
    *info = LA_LAPACKE(getrf2)(LAPACK_COL_MAJOR, A->rows, A->cols, LA_X(W), W->ld, *ipiv);
    la_checkinfo(L, fname, LA_ROUTINE(getrf2), *info);
  }
  return W;
}

/* W (an LU factorization from lu, nonsingular) becomes the inverse, by
** getri; with a subnormal pivot, whose reciprocal getri's trtri would
** take (Inf), by getrs on the identity instead. Returns 0, or the index
** of that pivot when the inverse overflows (W is then left as it was). */
static int LA_T(inverse)(lua_State *L, la_Mat *W, lapack_int *ipiv, const char *fname) {
  lapack_int info;
  int tiny = LA_T(tinypivot)(W), n = W->rows, j;
  la_Mat *X;
  if (!tiny) {
    LA_WORKCALL_T(L, fname, LA_ROUTINE(getri), info,
                  LA_LAPACKE(getri)(LAPACK_COL_MAJOR, n, LA_X(W), W->ld, ipiv, WORK, LWORK));
    lua_pop(L, 1);                        /* WORK */
    return 0;
  }
  X = la_newzerot(L, fname, n, n, LA_TYPE);
  for (j = 0; j < n; j++) LA_E(X, j, j) = 1;
  info = LA_LAPACKE(getrs)(LAPACK_COL_MAJOR, 'N', n, n, LA_X(W), W->ld, ipiv, LA_X(X), X->ld);
  la_checkinfo(L, fname, LA_ROUTINE(getrs), info);
  for (j = 0; j < n; j++)
    if (!LA_LAK(allfinite)(n, LA_X(X) + (ptrdiff_t)j * X->ld)) break;
  if (j == n) LA_LAK(copy)(n, n, LA_X(X), X->ld, LA_X(W), W->ld);
  lua_pop(L, 1);                          /* X */
  return j == n ? 0 : tiny;
}
