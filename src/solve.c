/*
** solve.c: linear systems and what is computed like them: solve (with the
** structured solves of its assume option), inv, det, pinv, and the matrix
** power (matrix_power, A ^ k), in float64 or float32 (solve_gen.h).
** LAPACKE _work variants only.
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

/* what ("the solution", "the inverse") of a finite problem came out Inf or
** NaN past the subnormal pivot U(k,k) of the LU W: it overflows */
static void overflows(lua_State *L, const char *fname, const char *what, const la_Mat *W,
                      int k) {
  la_error(L, fname, "%s overflows (pivot U(%d,%d) = %f is subnormal)", what, k, k,
           la_get(W, k - 1, k - 1));
}

enum { ASSUME_GEN, ASSUME_SYM, ASSUME_POS, ASSUME_LOWER, ASSUME_UPPER };

/* solve, pinv and the matrix power for each element type (l_solve_d,
** l_solve_s, ...) */
#define LA_GENERIC_FILE "solve_gen.h"
#include "generate.h"

/* Each entry point runs the pass of its n matrix arguments' type
** (la_argtype: solve(A32, b64) is float64; a table b does not vote). */
LA_TYPED(solve, 2) LA_TYPED(pinv, 1)

/* inv(A) and det(A): the LU of argument 1, a square matrix of its own
** type, after its check_finite option (at 2); pushes the factored copy and
** ipiv (la_lu: dgetrf or sgetrf). */
static la_Mat *luarg(lua_State *L, const char *fname, lapack_int **ipiv, lapack_int *info) {
  la_Mat *A = la_checksquaret(L, 1, fname, la_argtype(L, 1, 1));
  la_checkopts(L, 2, fname, finite_only);
  if (la_optcheckfinite(L, 2, fname)) la_checkfinite(L, A, fname, "A", 0);
  return la_lu(L, A, fname, ipiv, info);
}

/* inv(A) (getrf + getri of A's type); prefer solve */
static int l_inv(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *W;
  lapack_int info, *ipiv;
  W = luarg(L, F, &ipiv, &info);
  if (info > 0) singular(L, F, info);
  info = la_inverse(L, W, ipiv, F);
  if (info) overflows(L, F, "the inverse", W, info);
  lua_pop(L, 1);                         /* ipiv: W, now the inverse, on top */
  return 1;
}

/* det(A): product of U's diagonal with the sign of the row swaps; 0 if
** singular. A float32 A is factored by sgetrf; the product is accumulated
** in double (a Lua number either way) as a fraction and a power of 2, so
** only a determinant outside the doubles' range over- or underflows (a
** subnormal pivot times a large one is the product, not 0 or Inf). */
static int l_det(lua_State *L) {
  const char *F = la_fname(L);
  la_Mat *W;
  lapack_int info, *ipiv;
  double d = 1.0;
  long e = 0;
  int i, ex;
  W = luarg(L, F, &ipiv, &info);
  for (i = 0; i < W->rows; i++) {
    d = frexp(d * la_get(W, i, i), &ex);
    e += ex;
    if (ipiv[i] != i + 1) d = -d;
  }
  lua_pushnumber(L, info > 0 ? 0.0 : ldexp(d, e > 4096 ? 4096 : e < -4096 ? -4096 : (int)e));
  return 1;
}

/* matrix_power(A, k): A^k for square A and an integer k by repeated
** squaring in A's type; k = 0 gives the identity, k < 0 powers the
** inverse (NumPy's matrix_power, Octave's A ^ k). dtype: the pass. */
static int mpower(lua_State *L, const char *fname, int dtype) {
  la_checksquaret(L, 1, fname, dtype);
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
  return dtype == LA_F32 ? mpower_s(L, fname) : mpower_d(L, fname);
}

static int l_matrix_power(lua_State *L) {
  return mpower(L, la_fname(L), la_argtype(L, 1, 1));
}

/* A ^ k: the matrix power (Octave) in A's type; s ^ A has no meaning here */
static int m_pow(lua_State *L) {
  la_Mat *A = la_testany(L, 1);
  if (!A)
    return la_error(L, "matrix_power", "%s ^ matrix is not defined (elementwise power is la.pow(x, A))",
             la_typename(L, 1));
  if (A->rows != A->cols)
    return la_error(L, "matrix_power", "A ^ k needs a square matrix, got %dx%d (elementwise power "
             "is la.pow(A, p))", A->rows, A->cols);
  return mpower(L, "matrix_power", A->dtype);
}

static const la_Reg meta[] = { {"__pow", m_pow, LA_VARARG}, {NULL, NULL, 0} };

static const la_Reg funcs[] = {
  {"solve", l_solve, 2 + LA_OPTS}, {"inv", l_inv, 1 + LA_OPTS},
  {"det", l_det, 1 + LA_OPTS}, {"pinv", l_pinv, 2 + LA_OPTS},
  {"matrix_power", l_matrix_power, 2}, {NULL, NULL, 0}
};

void la_open_solve(lua_State *L) {
  la_setfuncs(L, funcs, 0);
  la_setmeta(L, meta);
}
