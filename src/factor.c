/*
** factor.c: the factorizations: qr, svd, eigh, cholesky, lu, eig and
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

static int imin(int a, int b) { return a < b ? a : b; }

/* The factorizations for each element type (l_qr_d, l_qr_s, ...) */
#define LA_GENERIC_FILE "factor_gen.h"
#include "generate.h"

/* Each entry point runs the pass of its argument's type (la_argtype):
** float32 through LAPACK's s routines, float64 through its d routines. */
LA_TYPED(qr, 1) LA_TYPED(svd, 1) LA_TYPED(eigh, 1) LA_TYPED(cholesky, 1) LA_TYPED(lu, 1)
LA_TYPED(eig, 1) LA_TYPED(eigvals, 1) LA_TYPED(schur, 1) LA_TYPED(hessenberg, 1)
LA_TYPED(null, 1) LA_TYPED(orth, 1)

/* ------------------------------------------------------------ expm */

/* Pade 13 coefficients (Higham 2005, "The scaling and squaring method for
** the matrix exponential revisited") */
static const double pade13[14] = {
  64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
  1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
  33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0
};
static const double theta13 = 5.371920351148152;

/* C = a A + b B + c C2 + d I (all n x n, contiguous) */
static void lincomb(int n, double *C, double a, const double *A, double b,
                    const double *B, double c, const double *C2, double d) {
  size_t i, nn = (size_t)n * n;
  for (i = 0; i < nn; i++) C[i] = a * A[i] + b * B[i] + c * C2[i];
  for (i = 0; i < (size_t)n; i++) C[i * n + i] += d;
}

static void mm(int n, const double *A, const double *B, double *C) {
  lak_gemm('N', 'N', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
}

/* expm(A): the matrix exponential by scaling and squaring with the [13/13]
** Pade approximant (Higham 2005; SciPy's expm and Octave's expm use the
** same family); NaN/Inf entries are an error */
static int l_expm(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_checksquare(L, 1, F), *X;
  int n = A->rows, s = 0, k, info;
  double nrm = 0.0, sc, *w, *A1, *A2, *A4, *A6, *U, *V, *T;
  lapack_int *ipiv;
  la_checkopts(L, 2, F, finite_only);
  (void)la_optcheckfinite(L, 2, F);
  la_checkfinite(L, A, F, "A", 1);
  X = la_new(L, F, n, n);
  if (n == 0) return 1;
  w = la_scratch(L, 7 * (size_t)n * n);                         /* pushes w, ipiv */
  ipiv = LA_SCRATCH(L, lapack_int, (size_t)n);
  A1 = w; A2 = A1 + (size_t)n * n; A4 = A2 + (size_t)n * n; A6 = A4 + (size_t)n * n;
  U = A6 + (size_t)n * n; V = U + (size_t)n * n; T = V + (size_t)n * n;
  lak_copy(n, n, A->data, A->ld, A1, n);
  for (k = 0; k < n; k++) {                                     /* 1-norm */
    double c = 0.0;
    int i;
    for (i = 0; i < n; i++) c += fabs(A1[(size_t)k * n + i]);
    if (c > nrm) nrm = c;
  }
  if (nrm > theta13) s = (int)ceil(log2(nrm / theta13));
  sc = ldexp(1.0, -s);
  for (k = 0; k < n * n; k++) A1[k] *= sc;
  mm(n, A1, A1, A2); mm(n, A2, A2, A4); mm(n, A4, A2, A6);
  lincomb(n, T, pade13[13], A6, pade13[11], A4, pade13[9], A2, 0.0);
  mm(n, A6, T, V);
  lincomb(n, T, 1.0, V, pade13[7], A6, pade13[5], A4, 0.0);
  lincomb(n, V, 1.0, T, pade13[3], A2, 0.0, A2, pade13[1]);
  mm(n, A1, V, U);                                              /* U: odd part */
  lincomb(n, T, pade13[12], A6, pade13[10], A4, pade13[8], A2, 0.0);
  mm(n, A6, T, V);
  lincomb(n, T, 1.0, V, pade13[6], A6, pade13[4], A4, 0.0);
  lincomb(n, V, 1.0, T, pade13[2], A2, 0.0, A2, pade13[0]);     /* V: even part */
  for (k = 0; k < n * n; k++) { double u = U[k]; U[k] = V[k] - u; T[k] = V[k] + u; }
  info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, n, U, n, ipiv, T, n);
  la_checkinfo(L, F, "dgesv", info);
  if (info > 0) la_error(L, F, "the Pade denominator is singular");
  for (k = 0; k < s; k++) { mm(n, T, T, A2); memcpy(T, A2, (size_t)n * n * sizeof(double)); }
  lak_copy(n, n, T, n, X->data, X->ld);
  lua_pop(L, 2);                                                /* w, ipiv: X on top */
  return 1;
}

static const la_Reg funcs[] = {
  {"qr", l_qr, 1 + LA_OPTS}, {"svd", l_svd, 1 + LA_OPTS}, {"eigh", l_eigh, 1 + LA_OPTS},
  {"cholesky", l_cholesky, 1 + LA_OPTS}, {"lu", l_lu, 1 + LA_OPTS},
  {"eig", l_eig, 1 + LA_OPTS}, {"eigvals", l_eigvals, 1 + LA_OPTS},
  {"schur", l_schur, 1 + LA_OPTS}, {"hessenberg", l_hessenberg, 1 + LA_OPTS},
  {"expm", l_expm, 1 + LA_OPTS}, {"null", l_null, 2}, {"orth", l_orth, 2}, {NULL, NULL, 0}
};

void la_open_factor(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
