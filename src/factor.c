/*
** factor.c: the factorizations: qr, svd, eigh and eigvalsh, cholesky, lu, eig and
** eigvals, schur, hessenberg; expm, null and orth on top of them.
** LAPACKE _work variants only: every byte of workspace is Lua's.
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"

static void notpd(lua_State *L, const char *fname, int k) {
  la_error(L, fname, "matrix is not positive definite (the leading minor of order %d "
           "is not positive)", k);
}

static const char *const finite_only[] = {"check_finite", NULL};
static const char *const eigh_keys[] = {"uplo", "check_finite", NULL};
static const char *const uplos[] = {"L", "U", NULL};

static int imin(int a, int b) { return a < b ? a : b; }

/* The factorizations for each element type (l_qr_d, l_qr_s, ...) */
#define LA_GENERIC_FILE "factor_gen.h"
#include "generate.h"

/* Each entry point runs the pass of its argument's type (la_argtype):
** float32 through LAPACK's s routines, float64 through its d routines. */
LA_TYPED(qr, 1) LA_TYPED(svd, 1) LA_TYPED(eigh, 1) LA_TYPED(eigvalsh, 1) LA_TYPED(cholesky, 1) LA_TYPED(lu, 1)
LA_TYPED(eig, 2) LA_TYPED(eigvals, 1) LA_TYPED(schur, 1) LA_TYPED(hessenberg, 1)
LA_TYPED(null, 1) LA_TYPED(orth, 1)

/* ------------------------------------------------------------ expm */

/* expm(A): the matrix exponential, by kernels/expm.c (Al-Mohy & Higham
** 2009, as SciPy's expm; exact on diagonal input, exact diagonal and
** superdiagonal on triangular input). NaN/Inf entries are an error even
** with check_finite = false; so are a result that overflows and a matrix
** needing more than LAK_EXPM_MAXSQ squarings. */
static int l_expm(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquare(L, 1, F), *X;
  int n = A->rows, rc, sq;
  double *w;
  int *ipiv;
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);
  la_checkfinite(L, A, F, "A", 1);
  X = la_new(L, F, n, n);
  if (n == 0) return 1;
  w = la_scratch(L, LAK_EXPM_WORK(n));                          /* pushes w, ipiv */
  ipiv = LA_SCRATCH(L, int, (size_t)n);
  rc = lak_expm(n, A->data, A->ld, X->data, X->ld, w, ipiv, &sq);
  if (rc == LAK_EXPM_TOOBIG)
    return la_error(L, F, "A is too large for scaling and squaring (%d squarings needed; "
                    "past %d the growth of rounding errors overflows the precision of "
                    "the result)", sq, LAK_EXPM_MAXSQ);
  if (rc == LAK_EXPM_OVERFLOW)
    return la_error(L, F, "the result overflows (an entry of expm(A), or of a square "
                    "formed on the way to it, is beyond the largest double)");
  if (rc > 0) return la_error(L, F, "the Pade denominator is singular");
  lua_pop(L, 2);                                                /* w, ipiv: X on top */
  return 1;
}

static const la_Reg funcs[] = {
  {"qr", l_qr, 1 + LA_OPTS}, {"svd", l_svd, 1 + LA_OPTS}, {"eigh", l_eigh, 1 + LA_OPTS},
  {"eigvalsh", l_eigvalsh, 1 + LA_OPTS},
  {"cholesky", l_cholesky, 1 + LA_OPTS}, {"lu", l_lu, 1 + LA_OPTS},
  {"eig", l_eig, 2 + LA_OPTS}, {"eigvals", l_eigvals, 1 + LA_OPTS},
  {"schur", l_schur, 1 + LA_OPTS}, {"hessenberg", l_hessenberg, 1 + LA_OPTS},
  {"expm", l_expm, 1 + LA_OPTS}, {"null", l_null, 2}, {"orth", l_orth, 2}, {NULL, NULL, 0}
};

void la_open_factor(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
