/*
** lapackcall.c: the helper layer's LAPACK side: LAPACK's argument reports
** captured instead of printed, info checks, workspace from a size query
** (LA_WORKCALL in helpers.h), and the one SVD driver call (dgesdd) every
** function that needs singular values or vectors shares.
*/
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "helpers.h"

/* ------------------------------------------------------------ LAPACK errors */

/* LAPACK and LAPACKE report bad arguments through xerbla, which would print
** to stdout. These definitions take precedence over the library's (the
** module is first in the lookup scope of its own dependencies); they record
** the report, and the binding raises a Lua error after the call returns. */
/* per-thread, so several lua_States on several threads do not mix reports */
static LAK_THREAD char xerbla_name[16];
static LAK_THREAD int xerbla_info;

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
** than 32-bit LAPACK integers can count is an error before allocating. A
** single-precision routine returns the size in a float, which LAPACK
** before 3.11 could round down: such a size is rounded up. */
void *la_work(lua_State *L, const char *fname, double query, int *lwork, size_t esize) {
  double n = query < 1 ? 1 : query;
  if (esize == sizeof(float)) n = ceil(n * (1 + 2.4e-7));
  if (!(n <= 2147483647.0))
    la_error(L, fname, "LAPACK workspace of %f elements exceeds 32-bit indexing", query);
  *lwork = (int)n;
  return la_alloc(L, (size_t)*lwork, esize);
}

/* ------------------------------------------------------------ SVD, LU */

/* la_svd, la_lu and la_inverse for each element type: svd_d, svd_s, ... */
#define LA_GENERIC_FILE "lapackcall_gen.h"
#include "generate.h"

la_Mat *la_svd(lua_State *L, const la_Mat *A, const char *fname, char job) {
  return A->dtype == LA_F32 ? svd_s(L, A, fname, job) : svd_d(L, A, fname, job);
}

la_Mat *la_lu(lua_State *L, const la_Mat *A, const char *fname, lapack_int **ipiv,
              lapack_int *info) {
  return A->dtype == LA_F32 ? lu_s(L, A, fname, ipiv, info) : lu_d(L, A, fname, ipiv, info);
}

int la_inverse(lua_State *L, la_Mat *W, lapack_int *ipiv, const char *fname) {
  return W->dtype == LA_F32 ? inverse_s(L, W, ipiv, fname) : inverse_d(L, W, ipiv, fname);
}

int la_tinypivot(const la_Mat *W) {
  return W->dtype == LA_F32 ? tinypivot_s(W) : tinypivot_d(W);
}
