/*
** lapackcall.c: the helper layer's LAPACK side: LAPACK's argument reports
** captured instead of printed, info checks, workspace from a size query
** (LA_WORKCALL in helpers.h), and the one SVD driver call (dgesdd) every
** function that needs singular values or vectors shares.
*/
#include <lapacke.h>
#include <string.h>

#include "helpers.h"

/* ------------------------------------------------------------ LAPACK errors */

/* LAPACK and LAPACKE report bad arguments through xerbla, which would print
** to stdout. These definitions take precedence over the library's (the
** module is first in the lookup scope of its own dependencies); they record
** the report, and the binding raises a Lua error after the call returns. */
/* per-thread, so several lua_States on several threads do not mix reports */
#if defined(__GNUC__)
#define LA_THREAD __thread
#else
#define LA_THREAD _Thread_local
#endif
static LA_THREAD char xerbla_name[16];
static LA_THREAD int xerbla_info;

LINALG_API void xerbla_(const char *name, const int *info, size_t len);
LINALG_API void xerbla_(const char *name, const int *info, size_t len) {
  size_t n = len < sizeof xerbla_name - 1 ? len : sizeof xerbla_name - 1;
  memcpy(xerbla_name, name, n);
  while (n > 0 && xerbla_name[n - 1] == ' ') n--;   /* Fortran pads names */
  xerbla_name[n] = '\0';
  xerbla_info = *info;
}

LINALG_API void LAPACKE_xerbla(const char *name, lapack_int info);
LINALG_API void LAPACKE_xerbla(const char *name, lapack_int info) {
  size_t n = strlen(name);
  xerbla_(name, &info, n);
}

/* info < 0 is a bug of ours: raise naming the routine and argument. */
void la_checkinfo(lua_State *L, const char *fname, const char *routine,
                      int info) {
  if (info < 0 || xerbla_info != 0) {
    int arg = info < 0 ? -info : xerbla_info;
    xerbla_info = 0;
    la_error(L, fname, "internal error: %s rejected argument %d", routine, arg);
  }
}

/* Workspace of the size a lwork = -1 query returned (at least 1); more
** than 32-bit LAPACK integers can count is an error before allocating. */
double *la_work(lua_State *L, const char *fname, double query, int *lwork) {
  double n = query < 1 ? 1 : query;
  if (!(n <= 2147483647.0))
    la_error(L, fname, "LAPACK workspace of %f doubles exceeds 32-bit indexing", query);
  *lwork = (int)n;
  return la_scratch(L, (size_t)*lwork);
}

/* ------------------------------------------------------------ SVD */

la_Mat *la_svd(lua_State *L, const la_Mat *A, const char *fname, char job) {
  la_Mat *W, *U = NULL, *s, *Vt = NULL;
  int m = A->rows, n = A->cols, k = m < n ? m : n, top, i;
  int um = job == 'N' ? 1 : m, vn = job == 'N' ? 1 : n;
  lapack_int info, *iwork;
  la_checkfinite(L, A, fname, "A", 1);
  W = la_copyof(L, A, fname);
  if (job != 'N') U = la_newzero(L, fname, m, job == 'A' ? m : k);
  s = la_new(L, fname, k, 1);
  if (job != 'N') Vt = la_newzero(L, fname, job == 'A' ? n : k, n);
  top = lua_gettop(L);
  iwork = LA_SCRATCH(L, lapack_int, 8 * (size_t)k + 1);
  LA_WORKCALL(L, fname, "dgesdd", info,
              LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, job, m, n, W->data, W->ld, s->data,
                                  U ? U->data : NULL, U ? U->ld : um,
                                  Vt ? Vt->data : NULL, Vt ? Vt->ld : vn, WORK, LWORK, iwork));
  if (info > 0) la_error(L, fname, "SVD did not converge");
  lua_settop(L, top);
  lua_remove(L, job == 'N' ? -2 : -4);      /* W */
  if (job == 'A' && k == 0) {               /* LAPACK returns at once: the bases are I */
    for (i = 0; i < m; i++) LA_AT(U, i, i) = 1.0;
    for (i = 0; i < n; i++) LA_AT(Vt, i, i) = 1.0;
  }
  return s;
}

/* ------------------------------------------------------------ LU */

/* LU of a copy of square A (pushed); ipiv in Lua-owned memory (pushed). */
la_Mat *la_lu(lua_State *L, const la_Mat *A, const char *fname, lapack_int **ipiv,
                  lapack_int *info) {
  la_Mat *W = la_copyof(L, A, fname);
  *ipiv = LA_SCRATCH(L, lapack_int, (size_t)A->rows);
  *info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, A->rows, A->cols, W->data, W->ld, *ipiv);
  la_checkinfo(L, fname, "dgetrf", *info);
  return W;
}

/* W (an LU factorization from lu, nonsingular) becomes the inverse */
void la_inverse(lua_State *L, la_Mat *W, lapack_int *ipiv, const char *fname) {
  lapack_int info;
  LA_WORKCALL(L, fname, "dgetri", info,
              LAPACKE_dgetri_work(LAPACK_COL_MAJOR, W->rows, W->data, W->ld, ipiv,
                                  WORK, LWORK));
  lua_pop(L, 1);                          /* WORK */
}
