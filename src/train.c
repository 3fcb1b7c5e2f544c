/*
** train.c: what training needs beside the forward functions:
** softmax_backward and log_softmax_backward (the gradient through
** attention.c's softmax / log_softmax, given their output) and
** clip_grad_norm (PyTorch's clip_grad_norm_ on a Lua list of matrices).
** The numerical loops are in kernels/train.c.
*/
#include <math.h>

#include "helpers.h"
#include "kernels/train.h"

/* softmax_backward(P, dP [, dim]) / log_softmax_backward(L, dL [, dim]) ->
** dS: the gradient with respect to the forward's input S, given its output
** (P = softmax(S, dim) or L = log_softmax(S, dim)) and the gradient dP or
** dL of a loss with respect to that output. dim as softmax takes it (a
** vector runs along itself); the type NumPy's rule gives the two. */
static int backward(lua_State *L, int logs) {
  const char *F = la_fname(L), *y = logs ? "L" : "P", *dy = logs ? "dL" : "dP";
  int t = la_argtype(L, 1, 2), dim;
  la_Mat *Y = la_checkargt(L, 1, F, 1, t), *dY = la_checkargt(L, 2, F, 2, t), *dS;
  double *acc;
  dim = la_optvecdim(L, F, 3, Y->rows, Y->cols, 2);
  if (dY->rows != Y->rows || dY->cols != Y->cols)
    la_error(L, F, "%s is %dx%d but %s is %dx%d (one gradient per entry)", y, Y->rows,
             Y->cols, dy, dY->rows, dY->cols);
  dS = la_newt(L, F, Y->rows, Y->cols, t);
  if (LA_EMPTY(Y)) return 1;
  acc = la_scratch(L, dim == 2 ? (size_t)Y->rows : 1);     /* pushes 1, above dS */
  if (t == LA_F32)
    lak_ssoftmax_bwd(logs, dim, Y->rows, Y->cols, Y->fdata, Y->ld, dY->fdata, dY->ld,
                     dS->fdata, dS->ld, acc);
  else
    lak_softmax_bwd(logs, dim, Y->rows, Y->cols, Y->data, Y->ld, dY->data, dY->ld,
                    dS->data, dS->ld, acc);
  lua_pop(L, 1);
  return 1;
}

static int l_softmax_backward(lua_State *L) { return backward(L, 0); }
static int l_log_softmax_backward(lua_State *L) { return backward(L, 1); }

/* a bool matrix at idx (item k of the list, 0: the argument) is an error:
** read as a float copy, it was counted in the norm and never scaled */
static void notbool(lua_State *L, const char *F, int idx, int k) {
  la_Mat *B = la_testmat(L, idx);
  if (B && B->dtype == LA_BOOL) {
    if (k) la_error(L, F, "grads: item %d is a bool matrix (gradients are float64 or float32)", k);
    la_argerror(L, F, 1, "a bool matrix; gradients are float64 or float32");
  }
}

/* The matrices of clip_grad_norm's first argument: a Lua list of matrices
** (either type, views too) or one matrix. Returns their count and leaves
** an array of their headers on the stack (pushes 1); the list anchors them,
** and nothing runs between this and their use. */
static la_Mat **gradlist(lua_State *L, const char *F, int *n) {
  la_Mat **G, *A;
  int i;
  notbool(L, F, 1, 0);
  A = la_testany(L, 1);
  *n = 0;
  if (A) *n = 1;
  else if (lua_istable(L, 1)) *n = (int)lua_rawlen(L, 1);
  else la_typeerror(L, F, 1, "list of matrices");
  G = LA_SCRATCH(L, la_Mat *, *n > 0 ? (size_t)*n : 1);
  if (A) G[0] = A;
  for (i = 0; !A && i < *n; i++) {
    lua_rawgeti(L, 1, i + 1);
    notbool(L, F, -1, i + 1);
    G[i] = la_testany(L, -1);
    if (!G[i])
      la_error(L, F, "grads: item %d is not a matrix (got %s)", i + 1, la_typename(L, -1));
    lua_pop(L, 1);
  }
  for (i = 0; i < *n; i++)
    if (G[i]->flags & LA_CLOSED) la_error(L, F, "grads: item %d is a closed matrix", i + 1);
  return G;
}

/* the norm option: a number p > 0 (math.huge: the largest magnitude) or
** "inf"; default 2 */
static double optnorm(lua_State *L, int oi, const char *F) {
  static const char *const inf[] = {"inf", NULL};
  double p;
  int t = oi ? lua_getfield(L, oi, "norm") : LUA_TNIL;
  if (oi) lua_pop(L, 1);
  if (t == LUA_TSTRING) return la_optenum(L, oi, "norm", 0, inf, F), HUGE_VAL;
  p = la_optnum(L, oi, "norm", 2.0, F);
  if (!(p > 0))
    la_error(L, F, "option 'norm' must be a positive number or \"inf\", got %f", p);
  return p;
}

/* max |entry| over the n matrices of G, NaN winning */
static double absmax(la_Mat **G, int n) {
  double e = 0.0;
  int i;
  for (i = 0; i < n && !isnan(e); i++) {
    const la_Mat *A = G[i];
    double a = LA_EMPTY(A) ? 0.0 : A->dtype == LA_F32 ? lak_sabsmax(A->rows, A->cols, A->fdata, A->ld)
                                                       : lak_absmax(A->rows, A->cols, A->data, A->ld);
    if (a > e || isnan(a)) e = a;
  }
  return e;
}

/* The joint p-norm (p finite) of the n matrices of G whose largest
** magnitude mx is finite and nonzero, as r * 2^e with r = (sum of the
** scaled |entries|^p)^(1/p): every entry is scaled by 2^-e (exactly, in two
** factors so that neither overflows for a subnormal mx), so no power
** overflows or underflows to nothing where the norm itself does not. */
static double jointnorm(la_Mat **G, int n, double mx, double p, int *e) {
  double s1, s2, t = 0.0;
  int i, h;
  *e = ilogb(mx);
  h = *e / 2;
  s1 = ldexp(1.0, -h);
  s2 = ldexp(1.0, h - *e);
  for (i = 0; i < n; i++) {
    const la_Mat *A = G[i];
    if (LA_EMPTY(A)) continue;
    t += A->dtype == LA_F32 ? lak_ssumpow(A->rows, A->cols, A->fdata, A->ld, s1, s2, p)
                            : lak_sumpow(A->rows, A->cols, A->data, A->ld, s1, s2, p);
  }
  return p == 2 ? sqrt(t) : p == 1 ? t : pow(t, 1.0 / p);
}

/* every matrix of G times c (float32 ones by c rounded to float, as
** PyTorch multiplies a float32 gradient by a float32 coefficient) */
static void scaleall(la_Mat **G, int n, double c) {
  int i;
  for (i = 0; i < n; i++) {
    la_Mat *A = G[i];
    if (LA_EMPTY(A)) continue;
    if (A->dtype == LA_F32) lak_sscale(A->rows, A->cols, A->fdata, A->ld, (float)c);
    else lak_scale(A->rows, A->cols, A->data, A->ld, c);
  }
}

/* clip_grad_norm(grads, max_norm [, {norm = 2, error_if_nonfinite = false}])
** -> total_norm: PyTorch's clip_grad_norm_. The joint norm of all entries
** (the norm of the matrices' norms) is returned; when max_norm / (total +
** 1e-6) < 1 every matrix is multiplied by that coefficient in place. A
** NaN or infinite entry makes the total NaN or inf: the gradients are then
** left as they are (PyTorch 1.13 multiplies them by NaN or 0) so that the
** caller can skip the step, or, with error_if_nonfinite, it is an error.
** Finite entries whose norm exceeds the largest double give inf and are
** still scaled (by a coefficient computed without the overflow). */
static int l_clip_grad_norm(lua_State *L) {
  static const char *const keys[] = {"norm", "error_if_nonfinite", NULL};
  const char *F = la_fname(L);
  int oi = lua_isnoneornil(L, 3) ? 0 : 3, n, e = 0, strict;
  double maxn, p, mx, r, total, c;
  la_Mat **G;
  la_checktype(L, F, 2, LUA_TNUMBER);
  maxn = lua_tonumber(L, 2);
  if (!(maxn >= 0)) la_argerror(L, F, 2, "max_norm must be a number >= 0");
  la_checkopts(L, oi, F, keys);
  p = optnorm(L, oi, F);
  strict = la_optbool(L, oi, "error_if_nonfinite", 0, F);
  G = gradlist(L, F, &n);
  mx = absmax(G, n);
  if (!isfinite(mx) || mx == 0 || isinf(p)) total = r = mx;
  else {
    r = jointnorm(G, n, mx, p, &e);
    total = ldexp(r, e);
  }
  if (!isfinite(mx)) {
    if (strict)
      la_error(L, F, "the total norm of the gradients is %s (error_if_nonfinite)",
               isnan(mx) ? "nan" : "inf");
    lua_pushnumber(L, total);
    return 1;
  }
  c = isfinite(total) ? maxn / (total + 1e-6) : ldexp(maxn / r, -e);
  if (c < 1) scaleall(G, n, c);
  lua_pushnumber(L, total);
  return 1;
}

static const la_Reg funcs[] = {
  {"softmax_backward", l_softmax_backward, 3},
  {"log_softmax_backward", l_log_softmax_backward, 3},
  {"clip_grad_norm", l_clip_grad_norm, 2 + LA_OPTS},
  {NULL, NULL, 0}
};

void la_open_train(lua_State *L) {
  la_setfuncs(L, funcs, 0);
}
