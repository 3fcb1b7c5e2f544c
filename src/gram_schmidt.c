/*
** gram_schmidt.c: la.gram_schmidt, orthonormal bases by modified,
** classical or twice-classical Gram-Schmidt (kernels/gram_schmidt.c).
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* The default tol: 1e-10 in float64; 1e-4 in float32 (about 840 float32
** eps: well above the remainder float32 rounding leaves of a dependent
** column, ~1e-7 * cond, and far below a real direction; the same multiple
** of eps as float64's, 0.054, would call [1, 0.05] parallel to [1, 0]).
** span_check's tol has the same defaults (lua/linalg/init.lua). */
#define TOL64 1e-10
#define TOL32 1e-4

/* B(1:m, 1:n) = A(1:m, 1:n), both of one type */
static void block(const la_Mat *A, la_Mat *B, int m, int n) {
  if (A->dtype == LA_F32) lak_scopy(m, n, A->fdata, A->ld, B->fdata, B->ld);
  else lak_copy(m, n, A->data, A->ld, B->data, B->ld);
}

/* gram_schmidt(V [, {method = "mgs"|"cgs"|"cgs2", tol, drop = false}])
** -> Q, R [, kept] with V = Q R, Q^T Q = I, R upper triangular; in V's
** type (float32 through the lak_s kernels) */
static int l_gram_schmidt(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"method", "tol", "drop", "check_finite", NULL};
  static const char *const methods[] = {"mgs", "cgs", "cgs2", NULL};   /* lak_GS order */
  la_Mat *V = la_checkany(L, 1, F), *W, *R, *Q, *Rk;
  double tol;
  int drop, m = V->rows, k = V->cols, *keep, r, j, f32 = V->dtype == LA_F32;
  size_t esz = f32 ? sizeof(float) : sizeof(double);
  void *work;
  lak_GS meth;
  lak_GSFail fail;
  la_checkopts(L, 2, F, keys);
  meth = (lak_GS)la_optenum(L, 2, "method", LAK_MGS, methods, F);
  tol = la_optnum(L, 2, "tol", f32 ? TOL32 : TOL64, F);
  drop = la_optbool(L, 2, "drop", 0, F);
  if (!(tol >= 0)) la_error(L, F, "tol must be >= 0");
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, V, F, "V", 0);
  W = la_copyof(L, V, F);                /* pushes W, R, keep, the kernel's work */
  R = la_newt(L, F, k, k, V->dtype);
  memset(f32 ? (void *)R->fdata : (void *)R->data, 0, (size_t)R->ld * (size_t)k * esz);
  keep = LA_SCRATCH(L, int, (size_t)k);
  work = la_alloc(L, LAK_GS_WORK(k), esz);
  r = f32 ? lak_sgram_schmidt(meth, m, k, W->fdata, W->ld, R->fdata, R->ld, tol, drop, keep,
                              (float *)work, &fail)
          : lak_gram_schmidt(meth, m, k, W->data, W->ld, R->data, R->ld, tol, drop, keep,
                             (double *)work, &fail);
  if (r < 0 && !(isfinite(fail.unorm) && isfinite(fail.vnorm)))
    la_error(L, F, "column %d has %s norm (V holds NaN or Inf, or overflows)",
             fail.col + 1, isnan(fail.unorm) || isnan(fail.vnorm) ? "a NaN" : "an infinite");
  if (r < 0)
    la_error(L, F, "column %d is linearly dependent on the columns "
             "before it (||u|| = %f <= tol * ||v|| = %f * %f); pass drop = true to "
             "skip it", fail.col + 1, fail.unorm, tol, fail.vnorm);
  if (!la_allfinite(R) && la_allfinite(V))
    la_error(L, F, "R overflows (a column's norm exceeds the largest %s); rescale V",
             f32 ? "float32" : "double");
  Q = la_newt(L, F, m, r, V->dtype);     /* pushes the results Q, R [, kept] */
  block(W, Q, m, r);
  Rk = la_newt(L, F, r, k, V->dtype);
  block(R, Rk, r, k);
  if (!drop) return 2;                   /* Q, R */
  lua_createtable(L, r, 0);
  for (j = 0, r = 0; j < k; j++)
    if (keep[j]) { lua_pushinteger(L, j + 1); lua_rawseti(L, -2, ++r); }
  return 3;                              /* Q, R, kept */
}

static const la_Reg funcs[] = {
  {"gram_schmidt", l_gram_schmidt, 1 + LA_OPTS}, {NULL, NULL, 0}
};

void la_open_gram_schmidt(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
