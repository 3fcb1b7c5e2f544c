/*
** attention_bwd.c: attention_backward, the gradients of attention (dQ,
** dK, dV and, when asked, the bias's) from the forward's output and
** log-sum-exp, with heads (opts.heads: column blocks) and batches (Lua
** lists), as attention takes them; the fused kernel is
** kernels/attention_bwd.c, the (item, head) units share la.threads()
** threads through lak_units. Options are read as attention reads them
** (attnopts.c).
*/
#include <limits.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernels/kernels.h"
#include "kernels/openblas.h"

/* the stack: dO, Q, K, V, O, lse, the options table, then the mask and
** bias matrices (their slots reserved by lua_settop), a table that keeps
** the call's matrices (KEEP[6 (i - 1) + 1..6] = dO, Q, K, V, O, lse of item
** i; KEEP[6 n + i] = item i's per-head dbias blocks), then the units;
** results above */
enum { DO_ARG = 1, Q_ARG, K_ARG, V_ARG, O_ARG, LSE_ARG, OPTS_SLOT, MASK_SLOT, BIAS_SLOT,
       KEEP_SLOT, UNITS_SLOT };

static const char *const NAMES[] = {"dO", "Q", "K", "V", "O", "lse"};

/* the options of a call: every item and head has them */
typedef la_AttnOpts Opts;

/* item i: its matrices (KEEP anchors them), per-head sizes, strides of the
** mask and bias for its shapes */
typedef struct Item {
  const la_Mat *dO, *Q, *K, *V, *O, *lse;
  int nq, nk, dk, dv;
  ptrdiff_t mrs, mcs, brs, bcs;
} Item;

/* item i's results (a batch's also in its result lists); dB's per-head
** blocks in S when heads > 1 */
typedef struct Out { la_Mat *dQ, *dK, *dV, *dB, *S; } Out;

/* the kernel's thread count: OpenBLAS's, as the forward takes it */
static int nthreads(void) {
  int nt = openblas_get_num_threads();
  return nt < 1 ? 1 : nt > LAK_ATTN_MAXTHREADS ? LAK_ATTN_MAXTHREADS : nt;
}

/* the shape of a head's dbias: the bias's (a broadcast bias's gradient is
** summed over the broadcast dimension), nq x nk without a bias */
static void dbshape(const Opts *o, const Item *it, int *m, int *n, int *mode) {
  *m = it->nq; *n = it->nk; *mode = LAK_DB_FULL;
  if (o->bias && it->brs == 0) { *m = 1; *mode = LAK_DB_ROW; }          /* 1 x nk */
  else if (o->bias && it->bcs == 0) { *n = 1; *mode = LAK_DB_COL; }     /* nq x 1 */
}

/* " (item i)" after a message about a batch's item, "" for one call */
static const char *itemof(lua_State *L, const Opts *o, int i) {
  if (!o->batch) return "";
  return lua_pushfstring(L, " (item %d)", i);   /* on the stack until the error */
}

/* One call's matrices (1..6, converted in their slots to their
** la_argtype) into KEEP; returns the type. */
static int keepone(lua_State *L, const char *F) {
  int dtype = la_argtype(L, DO_ARG, 6), j;
  for (j = DO_ARG; j <= LSE_ARG; j++) {
    la_checkargt(L, j, F, j, dtype);
    lua_pushvalue(L, j);
    lua_rawseti(L, KEEP_SLOT, j);
  }
  return dtype;
}

/* item i's matrices from KEEP, checked against each other, the heads and
** the options */
static void getitem(lua_State *L, const Opts *o, int i, Item *it) {
  const char *F = la_fname(L);
  const la_Mat *m[6];
  int j, h = o->heads;
  for (j = 0; j < 6; j++) {
    lua_rawgeti(L, KEEP_SLOT, 6 * (i - 1) + j + 1);
    m[j] = la_testany(L, -1);
    lua_pop(L, 1);
  }
  it->dO = m[0]; it->Q = m[1]; it->K = m[2]; it->V = m[3]; it->O = m[4]; it->lse = m[5];
  la_attnqkv(L, it->Q, it->K, it->V, h, o->batch ? i : 0);
  it->nq = it->Q->rows; it->nk = it->K->rows;
  it->dk = it->Q->cols / h; it->dv = it->V->cols / h;
  if (it->O->rows != it->nq || it->O->cols != it->V->cols)
    la_error(L, F, "O is %dx%d, expected %dx%d (nq x dv: the forward's output)%s",
             it->O->rows, it->O->cols, it->nq, it->V->cols, itemof(L, o, i));
  if (it->dO->rows != it->nq || it->dO->cols != it->V->cols)
    la_error(L, F, "dO is %dx%d, expected %dx%d (the shape of O)%s", it->dO->rows,
             it->dO->cols, it->nq, it->V->cols, itemof(L, o, i));
  if (it->lse->rows != it->nq || it->lse->cols != h)
    la_error(L, F, "lse is %dx%d, expected %dx%d (the forward's, one per query%s)%s",
             it->lse->rows, it->lse->cols, it->nq, h, h > 1 ? " and head" : "",
             itemof(L, o, i));
  it->mrs = it->mcs = it->brs = it->bcs = 0;
  if (o->mask) la_attnfit(L, o->mask, "mask", it->nq, it->nk, &it->mrs, &it->mcs,
                          o->batch ? i : 0);
  if (o->bias) la_attnfit(L, o->bias, "bias", it->nq, it->nk, &it->brs, &it->bcs,
                          o->batch ? i : 0);
}

#define LA_GENERIC_FILE "attention_bwd_gen.h"
#include "generate.h"

/* attention_backward(dO, Q, K, V, O, lse [, opts]) -> dQ, dK, dV [, dbias]
** (or their lists for a batch): the checks, then the results and units,
** then the kernels, then each item's dbias summed over its heads */
static int l_attention_backward(lua_State *L) {
  const char *F = la_fname(L);
  int oi = lua_isnoneornil(L, OPTS_SLOT) ? 0 : OPTS_SLOT, dtype, i;
  Opts o;
  Item it;
  if (oi && (!lua_istable(L, oi) || la_test(L, oi))) la_typeerror(L, F, OPTS_SLOT, "options table");
  memset(&o, 0, sizeof o);
  o.batch = la_isbatch(L, DO_ARG, 1);
  lua_settop(L, KEEP_SLOT);             /* reserves MASK_SLOT, BIAS_SLOT and KEEP_SLOT */
  lua_newtable(L);
  lua_replace(L, KEEP_SLOT);
  o.n = o.batch ? la_attnbatch(L, 6, NAMES, KEEP_SLOT, &dtype) : (dtype = keepone(L, F), 1);
  la_attnopts(L, oi, dtype, MASK_SLOT, BIAS_SLOT, &o);
  for (i = 1; i <= o.n; i++) {
    getitem(L, &o, i, &it);
    if ((double)o.heads * i > INT_MAX) la_error(L, F, "more than %d heads in the batch", INT_MAX);
  }
  if (dtype == LA_F32) backward_s(L, &o);
  else backward_d(L, &o);
  return 3 + o.bias_grad;                  /* dQ, dK, dV [, dbias], or their lists */
}

static const la_Reg funcs[] = {
  {"attention_backward", l_attention_backward, 6 + LA_OPTS},
  {NULL, NULL, 0}
};

void la_open_attention_bwd(lua_State *L) { la_setfuncs(L, funcs, 0); }
