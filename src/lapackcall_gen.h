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

/* LU of a copy of square A (pushed); ipiv in Lua-owned memory (pushed). */
static la_Mat *LA_T(lu)(lua_State *L, const la_Mat *A, const char *fname, lapack_int **ipiv,
                        lapack_int *info) {
  la_Mat *W = la_copyof(L, A, fname);
  *ipiv = LA_SCRATCH(L, lapack_int, (size_t)A->rows);
  *info = LA_LAPACKE(getrf)(LAPACK_COL_MAJOR, A->rows, A->cols, LA_X(W), W->ld, *ipiv);
  la_checkinfo(L, fname, LA_ROUTINE(getrf), *info);
  return W;
}

/* W (an LU factorization from lu, nonsingular) becomes the inverse */
static void LA_T(inverse)(lua_State *L, la_Mat *W, lapack_int *ipiv, const char *fname) {
  lapack_int info;
  LA_WORKCALL_T(L, fname, LA_ROUTINE(getri), info,
                LA_LAPACKE(getri)(LAPACK_COL_MAJOR, W->rows, LA_X(W), W->ld, ipiv,
                                  WORK, LWORK));
  lua_pop(L, 1);                          /* WORK */
}
