/*
** matfun.c: functions of a matrix beyond expm: sqrtm and logm (real
** results, on the real Schur form) and expm_frechet (scaling, Pade and
** squaring), on kernels/matfun.c. Float64 inside; the Lua front's f32wrap rounds float32
** results back (as expm's).
*/
#include <lapacke.h>
#include <math.h>

#include "helpers.h"
#include "kernels/kernels.h"

static const char *const finite_only[] = {"check_finite", NULL};

/* A (at 1, square, finite) = Z T Z^T by dgees: pushes T, Z */
static la_Mat *realschur(lua_State *L, const char *fname, la_Mat *A, la_Mat **Z) {
  la_Mat *T;
  int n = A->rows, top, sdim;
  lapack_int info;
  double *w;
  T = la_copyof(L, A, fname);
  *Z = la_new(L, fname, n, n);
  top = lua_gettop(L);
  w = la_scratch(L, 2 * (size_t)n);
  LA_WORKCALL(L, fname, "dgees", info,
              LAPACKE_dgees_work(LAPACK_COL_MAJOR, 'V', 'N', NULL, n, T->data, T->ld, &sdim,
                                 w, w + n, (*Z)->data, (*Z)->ld, WORK, LWORK, NULL));
  if (info > 0) la_error(L, fname, "QR algorithm did not converge");
  lua_settop(L, top);
  return T;
}

/* the matrix function of A (at 1) named by `log`: Z f(T) Z^T (pushes 1) */
static int matfun(lua_State *L, int log) {
  const char *F = la_fname(L);
  const char *what = log ? "logarithm" : "square root";
  la_Mat *A = la_checksquare(L, 1, F), *T, *Z, *R, *X;
  int n = A->rows, rc;
  double bad = 0;
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);     /* dgees iterates: A is checked regardless */
  la_checkfinite(L, A, F, "A", 1);
  lua_settop(L, 1);
  if (n == 0) { la_new(L, F, 0, 0); return 1; }
  T = realschur(L, F, A, &Z);           /* pushes T, Z, R, the work, ipiv, X */
  R = la_new(L, F, n, n);
  if (log) {
    double *w = la_scratch(L, LAK_LOGM_WORK(n));
    rc = lak_qtlogm(n, T->data, T->ld, R->data, R->ld, w, LA_SCRATCH(L, int, (size_t)n), &bad);
  } else rc = lak_qtsqrt(n, T->data, T->ld, R->data, R->ld, &bad);
  if (rc == LAK_NEGEIG)
    return la_error(L, F, "A has a negative real eigenvalue (%f): no real %s", bad, what);
  if (rc == LAK_SINGULAR)
    return la_error(L, F, "A is singular (a zero eigenvalue): no logarithm");
  if (rc == LAK_NOROOT && !log)
    return la_error(L, F, "A is singular and has no square root (a zero eigenvalue "
                    "in a Jordan block of order 2 or more)");
  if (rc == LAK_NOROOT)
    return la_error(L, F, "%d square roots did not bring A's Schur factor near I",
                    LAK_LOGM_MAXROOTS);
  X = la_new(L, F, n, n);               /* X = Z R Z^T, through T */
  lak_gemm('N', 'N', n, n, n, 1.0, Z->data, Z->ld, R->data, R->ld, 0.0, T->data, T->ld);
  lak_gemm('N', 'T', n, n, n, 1.0, T->data, T->ld, Z->data, Z->ld, 0.0, X->data, X->ld);
  return 1;
}

/* sqrtm(A) -> X with X X = A: the principal square root (eigenvalues of X
** in the right half plane), real, by Higham's real Schur method (SciPy
** 1.10's sqrtm). A negative real eigenvalue (no real principal root) is
** an error, and so is a singular A with no root ([0 1; 0 0]; SciPy warns
** and returns NaN/Inf); a singular A that has a root (zeros(2),
** diag(0, 4)) gets it; a real eigenvalue within rounding below 0 is 0
** (kernels/matfun.c). */
static int l_sqrtm(lua_State *L) { return matfun(L, 0); }

/* logm(A) -> X with expm(X) = A: the principal logarithm (imaginary parts
** of X's eigenvalues in (-pi, pi)), real, by inverse scaling and squaring
** on the real Schur form (Al-Mohy & Higham 2012, as SciPy 1.10's logm). A
** negative real eigenvalue or a singular A is an error. */
static int l_logm(lua_State *L) { return matfun(L, 1); }

/* expm_frechet(A, E [, {compute_expm = true}]) -> expm(A), L (or L alone
** with compute_expm = false): L the Frechet derivative of expm at A in the
** direction E, by Al-Mohy & Higham 2009's scaling-Pade-squaring (SciPy
** 1.10's expm_frechet, method "SPS"; kernels/matfun.c). expm(A) is that
** algorithm's, as SciPy's (not la.expm's, whose degree and scaling differ). */
static int l_expm_frechet(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"compute_expm", "check_finite", NULL};
  la_Mat *A = la_checksquare(L, 1, F), *E = la_check(L, 2, F), *X, *D;
  int n = A->rows, rc = 0, sq, want;
  la_checkopts(L, 3, F, keys);
  want = la_optbool(L, 3, "compute_expm", 1, F);
  (void)la_optcheckfinite(L, 3, F);
  if (E->rows != n || E->cols != n)
    return la_error(L, F, "A is %dx%d but E is %dx%d", n, n, E->rows, E->cols);
  la_checkfinite(L, A, F, "A", 1);
  la_checkfinite(L, E, F, "E", 1);
  lua_settop(L, 2);
  X = la_new(L, F, n, n);               /* pushes X, L, then the work and ipiv */
  D = la_new(L, F, n, n);
  if (n > 0)
    rc = lak_expm_frechet(n, A->data, A->ld, E->data, E->ld, X->data, X->ld, D->data, D->ld,
                          la_scratch(L, LAK_FRECHET_WORK(n)), LA_SCRATCH(L, int, (size_t)n),
                          &sq);
  if (rc == LAK_EXPM_TOOBIG)
    return la_error(L, F, "A is too large for scaling and squaring (%d squarings needed; past %d "
                    "the growth of rounding errors overflows the precision of the result)", sq,
                    LAK_EXPM_MAXSQ);
  if (rc == LAK_EXPM_OVERFLOW)
    return la_error(L, F, "the result overflows (an entry of expm(A) or L, or of a square "
                    "on the way, is beyond the largest double)");
  if (rc > 0) return la_error(L, F, "the Pade denominator is singular");
  lua_settop(L, 4);                      /* X, L */
  if (!want) lua_remove(L, 3);
  return want ? 2 : 1;
}

static const la_Reg funcs[] = {
  {"sqrtm", l_sqrtm, 1 + LA_OPTS}, {"logm", l_logm, 1 + LA_OPTS},
  {"expm_frechet", l_expm_frechet, 2 + LA_OPTS}, {NULL, NULL, 0}
};

void la_open_matfun(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
