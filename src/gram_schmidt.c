/*
** gram_schmidt.c: la.gram_schmidt, orthonormal bases by modified,
** classical or twice-classical Gram-Schmidt (kernels/gram_schmidt.c).
*/
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* gram_schmidt(V [, {method = "mgs"|"cgs"|"cgs2", tol = 1e-10, drop = false}])
** -> Q, R [, kept] with V = Q R, Q^T Q = I, R upper triangular */
static int l_gram_schmidt(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"method", "tol", "drop", "check_finite", NULL};
  static const char *const methods[] = {"mgs", "cgs", "cgs2", NULL};   /* lak_GS order */
  la_Mat *V = la_check(L, 1, F), *W, *R, *Q, *Rk;
  double tol;
  int drop, m = V->rows, k = V->cols, *keep, r, j;
  lak_GS meth;
  lak_GSFail fail;
  la_checkopts(L, 2, F, keys);
  meth = (lak_GS)la_optenum(L, 2, "method", LAK_MGS, methods, F);
  tol = la_optnum(L, 2, "tol", 1e-10, F);
  drop = la_optbool(L, 2, "drop", 0, F);
  if (!(tol >= 0)) la_error(L, F, "tol must be >= 0");
  if (la_optcheckfinite(L, 2, F)) la_checkfinite(L, V, F, "V", 0);
  W = la_copyof(L, V, F);                /* pushes W, R, keep, the kernel's work */
  R = la_newzero(L, F, k, k);
  keep = LA_SCRATCH(L, int, (size_t)k);
  r = lak_gram_schmidt(meth, m, k, W->data, W->ld, R->data, R->ld, tol, drop, keep,
                       la_scratch(L, LAK_GS_WORK(k)), &fail);
  if (r < 0 && !(isfinite(fail.unorm) && isfinite(fail.vnorm)))
    la_error(L, F, "column %d has %s norm (V holds NaN or Inf, or overflows)",
             fail.col + 1, isnan(fail.unorm) || isnan(fail.vnorm) ? "a NaN" : "an infinite");
  if (r < 0)
    la_error(L, F, "column %d is linearly dependent on the columns "
             "before it (||u|| = %f <= tol * ||v|| = %f * %f); pass drop = true to "
             "skip it", fail.col + 1, fail.unorm, tol, fail.vnorm);
  Q = la_new(L, F, m, r);                /* pushes the results Q, R [, kept] */
  lak_copy(m, r, W->data, W->ld, Q->data, Q->ld);
  Rk = la_new(L, F, r, k);
  lak_copy(r, k, R->data, R->ld, Rk->data, Rk->ld);
  if (!drop) return 2;                   /* Q, R */
  lua_createtable(L, r, 0);
  for (j = 0, r = 0; j < k; j++)
    if (keep[j]) { lua_pushinteger(L, j + 1); lua_rawseti(L, -2, ++r); }
  return 3;                              /* Q, R, kept */
}

static const luaL_Reg funcs[] = {
  {"gram_schmidt", l_gram_schmidt}, {NULL, NULL}
};

void la_open_gram_schmidt(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
