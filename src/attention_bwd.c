/*
** attention_bwd.c: attention_backward, the gradients of attention (dQ,
** dK, dV and, when asked, the bias's) from the forward's output and
** log-sum-exp; the fused kernel is kernels/attention_bwd.c. Options are
** read as attention reads them (attnopts.c).
*/
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"
#include "kernels/openblas.h"

/* the stack: dO, Q, K, V, O, lse, the options table, then the mask and
** bias matrices (their slots reserved by lua_settop); results above */
enum { DO_ARG = 1, Q_ARG, K_ARG, V_ARG, O_ARG, LSE_ARG, OPTS_SLOT, MASK_SLOT, BIAS_SLOT };

/* a backward problem as read from the arguments, of either type */
typedef struct Bwd {
  const la_Mat *dO, *Q, *K, *V, *O, *lse, *mask, *bias;
  double scale;
  int causal, wantdb;
  long long coff;
  ptrdiff_t mrs, mcs, brs, bcs;
} Bwd;

/* the kernel's thread count: OpenBLAS's, as the forward takes it */
static int nthreads(void) {
  int nt = openblas_get_num_threads();
  return nt < 1 ? 1 : nt > LAK_ATTN_MAXTHREADS ? LAK_ATTN_MAXTHREADS : nt;
}

/* the shape of dbias: the bias's (a broadcast bias's gradient is summed
** over the broadcast dimension), nq x nk without a bias */
static void dbshape(const Bwd *b, int *m, int *n, int *mode) {
  int nq = b->Q->rows, nk = b->K->rows;
  *m = nq; *n = nk; *mode = LAK_DB_FULL;
  if (b->bias && b->brs == 0) { *m = 1; *mode = LAK_DB_ROW; }          /* 1 x nk */
  else if (b->bias && b->bcs == 0) { *n = 1; *mode = LAK_DB_COL; }     /* nq x 1 */
}

#define LA_GENERIC_FILE "attention_bwd_gen.h"
#include "generate.h"

/* dO is nq x dv (O's shape), O nq x dv, lse nq x 1 */
static void checkshapes(lua_State *L, const Bwd *b, const char *F) {
  int nq = b->Q->rows, dv = b->V->cols;
  if (b->K->cols != b->Q->cols)
    la_error(L, F, "Q is %dx%d but K is %dx%d (dk %d ~= %d)", b->Q->rows, b->Q->cols,
             b->K->rows, b->K->cols, b->Q->cols, b->K->cols);
  if (b->V->rows != b->K->rows)
    la_error(L, F, "K has %d rows but V has %d (one value per key)", b->K->rows, b->V->rows);
  if (b->O->rows != nq || b->O->cols != dv)
    la_error(L, F, "O is %dx%d, expected %dx%d (nq x dv: the forward's output)", b->O->rows,
             b->O->cols, nq, dv);
  if (b->dO->rows != nq || b->dO->cols != dv)
    la_error(L, F, "dO is %dx%d, expected %dx%d (the shape of O)", b->dO->rows, b->dO->cols,
             nq, dv);
  if (b->lse->rows != nq || b->lse->cols != 1)
    la_error(L, F, "lse is %dx%d, expected %dx1 (the forward's, one per query)", b->lse->rows,
             b->lse->cols, nq);
}

/* the options at oi (0: none): the forward's (its table may be passed as
** it is: lse and weights are accepted and change nothing) and bias_grad */
static void readopts(lua_State *L, int oi, int dtype, Bwd *b) {
  static const char *const keys[] = {"scale", "causal", "mask", "bias", "bias_grad", "lse",
                                     "weights", NULL};
  const char *F = la_fname(L);
  int dk = b->Q->cols, nq = b->Q->rows, nk = b->K->rows, causal;
  la_checkopts(L, oi, F, keys);
  b->scale = la_optnum(L, oi, "scale", dk > 0 ? 1.0 / sqrt((double)dk) : 1.0, F);
  causal = la_attncausal(L, oi);
  b->causal = causal != 0;
  b->coff = causal == 2 ? (long long)nk - nq : 0;
  la_optbool(L, oi, "lse", 0, F);
  la_optbool(L, oi, "weights", 0, F);
  b->wantdb = la_optbool(L, oi, "bias_grad", 0, F);
  b->mask = la_attnmat(L, oi, "mask", MASK_SLOT, dtype, nq, nk, &b->mrs, &b->mcs);
  b->bias = la_attnmat(L, oi, "bias", BIAS_SLOT, dtype, nq, nk, &b->brs, &b->bcs);
}

/* attention_backward(dO, Q, K, V, O, lse [, opts]) -> dQ, dK, dV [, dbias] */
static int l_attention_backward(lua_State *L) {
  const char *F = la_fname(L);
  int dtype = la_argtype(L, 1, 6), oi = lua_isnoneornil(L, OPTS_SLOT) ? 0 : OPTS_SLOT, i;
  const la_Mat *M[6];
  Bwd b;
  if (oi && (!lua_istable(L, oi) || la_test(L, oi))) la_typeerror(L, F, OPTS_SLOT, "options table");
  for (i = 0; i < 6; i++) M[i] = la_checkargt(L, i + 1, F, i + 1, dtype);
  memset(&b, 0, sizeof b);
  b.dO = M[0]; b.Q = M[1]; b.K = M[2]; b.V = M[3]; b.O = M[4]; b.lse = M[5];
  checkshapes(L, &b, F);
  lua_settop(L, BIAS_SLOT);             /* reserves MASK_SLOT and BIAS_SLOT */
  readopts(L, oi, dtype, &b);
  if (dtype == LA_F32) backward_s(L, &b, F);
  else backward_d(L, &b, F);
  return 3 + b.wantdb;                  /* dQ, dK, dV [, dbias] */
}

static const la_Reg funcs[] = {
  {"attention_backward", l_attention_backward, 6 + LA_OPTS},
  {NULL, NULL, 0}
};

void la_open_attention_bwd(lua_State *L) { la_setfuncs(L, funcs, 0); }
