/*
** solve.c: linear systems and what is computed like them: solve (with the
** structured solves of its assume option), inv, det, pinv, and the matrix
** power (matrix_power, A ^ k). LAPACKE _work variants only.
*/
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"

/* the options of functions whose only option is check_finite */
static const char *const finite_only[] = {"check_finite", NULL};

static void singular(lua_State *L, const char *fname, lapack_int info) {
  la_error(L, fname, "matrix is singular (U(%d,%d) = 0)", (int)info, (int)info);
}

enum { ASSUME_GEN, ASSUME_SYM, ASSUME_POS, ASSUME_LOWER, ASSUME_UPPER };

/* Solves A X = X (X holds b on entry) for solve's assume = "sym" (dsysv),
** "pos" (dposv), "lower" / "upper" (dtrtrs, that triangle only read).
** A is square with as many rows as X. Pushes scratch: nothing for
** "lower"/"upper", W for "pos", W, ipiv, work for "sym". */
static void solve_assume(lua_State *L, const la_Mat *A, la_Mat *X, int assume) {
  const char *F = la_fname(L);
  la_Mat *W;
  int n = A->rows, info;
  lapack_int *ipiv;
  if (assume == ASSUME_LOWER || assume == ASSUME_UPPER) {
    info = LAPACKE_dtrtrs_work(LAPACK_COL_MAJOR, assume == ASSUME_LOWER ? 'L' : 'U', 'N',
                               'N', n, X->cols, A->data, A->ld, X->data, X->ld);
    la_checkinfo(L, F, "dtrtrs", info);
    if (info > 0) la_error(L, F, "matrix is singular (A(%d,%d) = 0)", info, info);
    return;
  }
  la_checksym(L, A, F);
  W = la_copyof(L, A, F);
  if (assume == ASSUME_POS) {
    info = LAPACKE_dposv_work(LAPACK_COL_MAJOR, 'L', n, X->cols, W->data, W->ld, X->data, X->ld);
    la_checkinfo(L, F, "dposv", info);
    if (info > 0)
      la_error(L, F, "matrix is not positive definite (the leading minor of order %d "
               "is not positive)", info);
    return;
  }
  ipiv = LA_SCRATCH(L, lapack_int, (size_t)n);
  LA_WORKCALL(L, F, "dsysv", info,
              LAPACKE_dsysv_work(LAPACK_COL_MAJOR, 'L', n, X->cols, W->data, W->ld, ipiv,
                                 X->data, X->ld, WORK, LWORK));
  if (info > 0) la_error(L, F, "matrix is singular (D(%d,%d) = 0)", info, info);
}

/* solve(A, b [, {assume = "gen"}]) -> x with A x = b (dgesv; assume "sym",
** "pos", "lower", "upper": solve_assume); b is n x k or a vector */
static int l_solve(lua_State *L) {
  const char *F = la_fname(L);
  static const char *const keys[] = {"assume", "check_finite", NULL};
  static const char *const assumes[] = {"gen", "sym", "pos", "lower", "upper", NULL};
  la_Mat *A = la_checksquare(L, 1, F), *B, *X, *W;
  lapack_int info, *ipiv;
  int oi = la_optsat(L, 3), assume;
  la_checkopts(L, oi, F, keys);
  assume = la_optenum(L, oi, "assume", ASSUME_GEN, assumes, F);
  B = la_rhs(L, 2, F, A->rows);
  A = la_test(L, 1);
  if (B->rows != A->rows)
    la_error(L, F, "A is %dx%d but b has %d rows", A->rows, A->cols, B->rows);
  if (la_optcheckfinite(L, oi, F)) {
    la_checkfinite(L, A, F, "A", 0);
    la_checkfinite(L, B, F, "b", 0);
  }
  if (assume != ASSUME_GEN) {
    int xslot;
    X = la_copyof(L, B, F);
    xslot = lua_gettop(L);
    solve_assume(L, A, X, assume);
    lua_settop(L, xslot);                /* X on top */
    return 1;
  }
  W = la_copyof(L, A, F);                /* pushes W, X, ipiv */
  X = la_copyof(L, B, F);
  ipiv = LA_SCRATCH(L, lapack_int, (size_t)A->rows);
  info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, A->rows, X->cols, W->data, W->ld, ipiv,
                            X->data, X->ld);
  la_checkinfo(L, F, "dgesv", info);
  if (info > 0) singular(L, F, info);
  lua_pop(L, 1);                         /* ipiv: X on top */
  return 1;
}

/* inv(A) and det(A): the LU of argument 1, a square matrix, after its
** check_finite option (at 2); pushes the factored copy and ipiv (la_lu). */
static la_Mat *luarg(lua_State *L, const char *fname, lapack_int **ipiv, lapack_int *info) {
  la_Mat *A = la_checksquare(L, 1, fname);
  la_checkopts(L, 2, fname, finite_only);
  if (la_optcheckfinite(L, 2, fname)) la_checkfinite(L, A, fname, "A", 0);
  return la_lu(L, A, fname, ipiv, info);
}

/* inv(A) (dgetrf + dgetri); prefer solve */
static int l_inv(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *W;
  lapack_int info, *ipiv;
  W = luarg(L, F, &ipiv, &info);
  if (info > 0) singular(L, F, info);
  la_inverse(L, W, ipiv, F);
  lua_pop(L, 1);                         /* ipiv: W, now the inverse, on top */
  return 1;
}

/* det(A): product of U's diagonal with the sign of the row swaps; 0 if singular */
static int l_det(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *W;
  lapack_int info, *ipiv;
  double d = 1.0;
  int i;
  W = luarg(L, F, &ipiv, &info);
  for (i = 0; i < W->rows; i++) {
    d *= LA_AT(W, i, i);
    if (ipiv[i] != i + 1) d = -d;
  }
  lua_pushnumber(L, info > 0 ? 0.0 : d);
  return 1;
}

/* pinv(A [, rcond = 1e-15]): V diag(1/s) U^T over s > rcond * s_max (NumPy) */
static int l_pinv(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *A = la_check(L, 1, F), *U, *s, *Vt, *P;
  double rcond = la_optposnum(L, F, 2, 1e-15), cut;
  int i, j, r = 0;
  la_checkopts(L, la_optsat(L, 2), F, finite_only);
  (void)la_optcheckfinite(L, la_optsat(L, 2), F);
  s = la_svd(L, A, F, 'S');                /* pushes U, s, Vt */
  U = la_test(L, -3); Vt = la_test(L, -1);
  cut = s->rows > 0 ? rcond * s->data[0] : 0.0;
  for (i = 0; i < s->rows; i++) {
    double inv = s->data[i] > cut ? 1.0 / s->data[i] : 0.0;
    if (inv != 0.0) r = i + 1;
    for (j = 0; j < Vt->cols; j++) LA_AT(Vt, i, j) *= inv;
  }
  P = la_newzero(L, F, A->cols, A->rows);
  lak_gemm('T', 'T', A->cols, A->rows, r, 1.0, Vt->data, Vt->ld, U->data, U->ld,
           0.0, P->data, P->ld);
  return 1;
}

/* matrix_power(A, k): A^k for square A and an integer k by repeated
** squaring; k = 0 gives the identity, k < 0 powers the inverse (NumPy's
** matrix_power, Octave's A ^ k). */
static int mpower(lua_State *L, const char *fname) {
  la_Mat *A = la_checksquare(L, 1, fname), *P, *B, *T;
  lua_Integer k;
  lua_Unsigned e;
  int n = A->rows, i;
  if (!lua_isinteger(L, 2)) {
    if (lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) == floor(lua_tonumber(L, 2)) &&
        fabs(lua_tonumber(L, 2)) < 9.2e18)
      lua_pushinteger(L, (lua_Integer)lua_tonumber(L, 2));
    else
      la_argerror(L, fname, 2, lua_pushfstring(L, "integer exponent expected, got %s"
                  " (elementwise power is la.pow(A, p))", lua_type(L, 2) == LUA_TNUMBER ?
                  lua_tostring(L, 2) : la_typename(L, 2)));
    lua_replace(L, 2);
  }
  k = lua_tointeger(L, 2);
  e = k < 0 ? (lua_Unsigned)0 - (lua_Unsigned)k : (lua_Unsigned)k;
  if (k < 0) {                                  /* pushes the base B */
    lapack_int info, *ipiv;
    B = la_lu(L, A, fname, &ipiv, &info);       /* pushes B, ipiv */
    if (info > 0) singular(L, fname, info);
    la_inverse(L, B, ipiv, fname);
    lua_pop(L, 1);                              /* ipiv */
  } else B = la_copyof(L, A, fname);
  P = la_newzero(L, fname, n, n);               /* pushes the result P, then a product T */
  for (i = 0; i < n; i++) LA_AT(P, i, i) = 1.0;
  T = la_new(L, fname, n, n);
  while (e > 0) {
    if (e & 1) {
      lak_gemm('N', 'N', n, n, n, 1.0, P->data, P->ld, B->data, B->ld, 0.0, T->data, T->ld);
      lak_copy(n, n, T->data, T->ld, P->data, P->ld);
    }
    e >>= 1;
    if (e > 0) {
      lak_gemm('N', 'N', n, n, n, 1.0, B->data, B->ld, B->data, B->ld, 0.0, T->data, T->ld);
      lak_copy(n, n, T->data, T->ld, B->data, B->ld);
    }
  }
  lua_pop(L, 1);                                /* T: P on top */
  return 1;
}

static int l_matrix_power(lua_State *L) { return mpower(L, la_fname(L)); }

/* A ^ k: the matrix power (Octave); s ^ A has no meaning here */
static int m_pow(lua_State *L) {
  la_Mat *A = la_testany(L, 1);
  int f32 = A && A->dtype == LA_F32;
  if (!A)
    return la_error(L, "matrix_power", "%s ^ matrix is not defined (elementwise power is la.pow(x, A))",
             la_typename(L, 1));
  if (A->rows != A->cols)
    return la_error(L, "matrix_power", "A ^ k needs a square matrix, got %dx%d (elementwise power "
             "is la.pow(A, p))", A->rows, A->cols);
  mpower(L, "matrix_power");      /* computed in float64; a float32 A gets float32 */
  if (f32) la_convert(L, la_test(L, -1), LA_F32, "matrix_power");
  return 1;
}

static const luaL_Reg meta[] = { {"__pow", m_pow}, {NULL, NULL} };

static const luaL_Reg funcs[] = {
  {"solve", l_solve}, {"inv", l_inv}, {"det", l_det}, {"pinv", l_pinv},
  {"matrix_power", l_matrix_power}, {NULL, NULL}
};

void la_open_solve(lua_State *L) {
  la_setfuncs(L, funcs, 0);
  la_setmeta(L, meta);
}
