/*
** llapack.c: factorizations and solvers on LAPACKE (the _work variants, so
** every byte of workspace is a Lua userdata and an error cannot leak it).
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>
#include <cblas.h>

#include "lbind.h"
#include "la_kernels.h"

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
  xerbla_name[n] = '\0';
  xerbla_info = *info;
}

LINALG_API void LAPACKE_xerbla(const char *name, lapack_int info);
LINALG_API void LAPACKE_xerbla(const char *name, lapack_int info) {
  size_t n = strlen(name);
  xerbla_(name, &info, n);
}

/* info < 0 is a bug of ours: raise naming the routine and argument. */
static void checkinfo(lua_State *L, const char *fname, const char *routine,
                      lapack_int info) {
  if (info < 0 || xerbla_info != 0) {
    int arg = info < 0 ? -info : xerbla_info;
    xerbla_info = 0;
    la_error(L, fname, "internal error: %s rejected argument %d", routine, arg);
  }
}

/* Workspace of the size a lwork = -1 query returned (at least 1). */
static double *work(lua_State *L, double query, lapack_int *lwork) {
  double n = query < 1 ? 1 : query;
  if (n > 2147483647.0) luaL_error(L, "not enough memory");
  *lwork = (lapack_int)n;
  return la_scratch(L, (size_t)*lwork);
}

/* ------------------------------------------------------------ singular values */

la_Mat *la_svals(lua_State *L, const la_Mat *A, const char *fname) {
  int k = A->rows < A->cols ? A->rows : A->cols, top;
  la_Mat *C, *s;
  lapack_int info, lwork, *iwork;
  double q, *w;
  la_checkfinite(L, A, fname, "A");
  C = la_copyof(L, A);
  s = la_new(L, fname, k, 1);
  top = lua_gettop(L);
  iwork = (lapack_int *)la_scratch(L, 4 * (size_t)k + 1);
  info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'N', C->rows, C->cols, C->data,
                             C->ld, s->data, NULL, 1, NULL, 1, &q, -1, iwork);
  checkinfo(L, fname, "dgesdd", info);
  w = work(L, q, &lwork);
  info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'N', C->rows, C->cols, C->data,
                             C->ld, s->data, NULL, 1, NULL, 1, w, lwork, iwork);
  checkinfo(L, fname, "dgesdd", info);
  if (info > 0) la_error(L, fname, "SVD did not converge");
  lua_settop(L, top);
  lua_remove(L, -2);   /* the copy */
  return s;
}

void la_open_lapack(lua_State *L) {
  (void)L;
}
